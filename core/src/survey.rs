//! A level's frame inferred from evidence: which axis of the file is up, what unit it is
//! written in, and where the player starts. The loader ([`crate::map`]) only loads; the
//! survey reads the map as the file has it (its own axes, its own units), then says how
//! to turn it into the world (Y up, metres), and how sure it is of each half. Every rule
//! here is judged on real levels made by seven tools (`tests/real_levels.rs`, from
//! `../shared/levels`) and on generated buildings of many shapes, axes and units
//! (`tests/levels.rs`), never on one set alone; and the user can always correct it
//! (`--up`, `--scale`, or live in the window).
//!
//! - [`extent`]: the main part of the map, without a stray few triangles far away.
//! - [`pockets`]: the free space on a voxel grid, flood-filled: open space and the
//!   sealed hollows of closed solids.
//! - [`samples`]: floor samples, each with the free run above it.
//! - [`up`]: the up axis, from gravity's evidence (things rest on floors, the sky is up).
//! - [`grid`]: the grid the coordinates lie on: a game level's editor's fingerprint.
//! - [`units`]: the units a file may be in, with their priors (common units; game
//!   engines' units when the file is on an editor's grid).
//! - [`measures`]: what the floor samples measure (storeys, things on floors, steps of
//!   [`stairs`], openings seen sideways, size).
//! - [`scale`]: the unit, from those cues at a person's (or the game's player's) scale
//!   that agree.
//! - [`fit`]: where the walker fits at a unit (under the ceilings, between the walls).
//! - [`spawn`]: where to start, and which way to face.

pub mod extent;
pub mod fit;
pub mod grid;
pub mod measures;
pub mod pockets;
pub mod samples;
pub mod scale;
pub mod spawn;
mod stairs;
pub mod units;
pub mod up;

pub use extent::{MainPart, main_part};
pub use pockets::{FreeSpace, Space};
pub use scale::ScaleGuess;
pub use spawn::{
    CheckedStart, NoFloor, SpawnChoice, checked_start, choose_spawn, find_spawn, floor_in_view,
    moved_out_of_solid, open_headings, start_warning,
};
pub use up::AxisEvidence;

use crate::collision::CollisionWorld;
use crate::map::header::Header;
use crate::map::{MapFrame, UpAxis};

/// Floor samples each reading of the map is measured from ...
const SCALE_SAMPLES: usize = 3000;
/// ... and samples one a level surface, among which stairs are looked for.
const STAIR_SAMPLES: usize = 1000;
/// Triangles whose corners the editor's grid is looked for among (evenly strided).
const GRID_TRIANGLES: usize = 50_000;

/// How sure the survey is of one half of a frame: the margin (natural log) between its
/// answer and the next most likely one, in words. Calibrated on the real levels and the
/// generated ones together (README: the reliability table): "high" was wrong on none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    /// The next answer is nearly as likely.
    Low,
    /// Likelier than the next, not by much.
    Fair,
    /// Far likelier than the next.
    High,
}

/// Margins (natural log) above which a guess is "fair", and "high".
/// Calibrated on the thirteen real levels of `../shared/levels` (each also written in
/// the other convention, mirrored and on its side) and the 300 generated ones: no half
/// read with a margin over 3.5 was wrong (the widest wrong one, 3.02: a bridge written in
/// inches read as centimetres), and the window asks only at 1.5 or less, where the
/// evidence is split (one level read right in five is asked about; docs/survey.md).
pub const CONFIDENCE_MARGINS: (f32, f32) = (1.5, 3.5);

impl Confidence {
    /// The confidence a margin of `margin` (natural log) gives.
    pub fn of(margin: f32) -> Confidence {
        if margin > CONFIDENCE_MARGINS.1 {
            Confidence::High
        } else if margin > CONFIDENCE_MARGINS.0 {
            Confidence::Fair
        } else {
            Confidence::Low
        }
    }
}

impl std::fmt::Display for Confidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Confidence::Low => "low",
            Confidence::Fair => "fair",
            Confidence::High => "high",
        })
    }
}

/// One half of a frame the survey inferred: what, how sure it is, and the next most
/// likely answer (the one the window offers when it is not sure).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inferred<T> {
    /// The answer.
    pub chosen: T,
    /// How sure.
    pub confidence: Confidence,
    /// How much likelier the answer is than the next (natural log; what the confidence
    /// is read from).
    pub margin: f32,
    /// The next most likely answer, the one the window offers (for the scale, the next
    /// that makes a world a person fits; the chosen one again when none does).
    pub next: T,
}

/// A map's frame, and why each half of it is what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameGuess {
    /// The file-to-world transform.
    pub frame: MapFrame,
    /// Why the up axis (a sentence).
    pub up_reason: String,
    /// Why the scale.
    pub scale_reason: String,
    /// The up axis's confidence and next answer, when inferred (`None`: given).
    pub up: Option<Inferred<UpAxis>>,
    /// The scale's confidence and next answer (metres per file unit, and its unit's
    /// name), when inferred.
    pub scale: Option<Inferred<units::Unit>>,
    /// Every cue and every reading's score, a line each (for `--verbose`).
    pub details: Vec<String>,
    /// For a scale given, what the map reads as when that reading is sure (confidence
    /// high) and at least [`FAR_FROM_READING`] times larger or smaller than the scale
    /// given: a few words ("metres (scale 1, confidence high)") for a warning. Read
    /// without the free space where the load skips its survey (up, scale and spawn all
    /// given), the reading is seldom sure, and then nothing is said.
    pub scale_doubt: Option<String>,
}

/// How many times larger or smaller than a sure reading of the map a given scale is
/// before the load asks whether it is right: units a map may be in differ by up to 12
/// (feet and inches), 25.4 (inches and millimetres) or 100 (metres and centimetres), so
/// 30 is past the neighbours of a right answer (`--scale 1000` on a map in metres said
/// nothing, while 0.001 was warned of).
pub const FAR_FROM_READING: f32 = 30.0;

/// What is known of a frame before the survey: each half given (the command line, a
/// remembered correction), or `None` to infer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Given {
    /// The up axis.
    pub up: Option<UpAxis>,
    /// World units per file unit.
    pub scale: Option<f32>,
}

/// Up axes the survey weighs (the winner either way: see [`SKY_FLIP`]), with the prior of each
/// (natural log): Y is OBJ's convention and what Blender, Maya and 3ds Max write; Z is
/// what CAD, IFC converters and game-level tools write; X is rare.
const CANDIDATE_UPS: [(UpAxis, f32); 3] = [(UpAxis::Y, 0.5), (UpAxis::Z, 0.0), (UpAxis::X, -3.0)];
/// An axis whose sky cue is below minus this (rays up meet the map, rays down escape)
/// is up the other way: the file is upside down.
pub const SKY_FLIP: f32 = 0.3;
/// Weight of the sky cue (-1 to 1: rays down meet the map, rays up escape) in the up score.
pub const SKY_WEIGHT: f32 = 6.0;
/// Weight of the layering cue (0 to about 1: floors cover the footprint at few levels).
pub const LAYERING_WEIGHT: f32 = 3.0;
/// Weight of the share of the surface facing along the axis (0 to 1): weakest, as tall
/// walls give it too; it speaks for a terrain, whose floors are no levels.
pub const FACING_WEIGHT: f32 = 1.0;
/// Weight of the natural log of the level-share cue (0 to 1: the surface across the axis
/// at its main levels), so that a ratio between two axes counts, not a difference: real
/// levels read from 0.01 to 0.2. Between 0.3 and 1.25 the seven real levels of
/// `../shared/levels`, each written both Y-up and Z-up, and the generated ones the
/// survey read right before all read right; 0.75 keeps clear of both ends.
pub const LEVEL_SHARE_WEIGHT: f32 = 0.75;
/// The level-share cue counts from this up: an axis almost nothing lies across (a
/// terrain's sides) reads as this, not as minus infinity.
pub const LEVEL_SHARE_FLOOR: f32 = 1e-3;
/// The level share is given as a reason ("floors gather at few heights") when it is this
/// many times the next axis's: a difference the score weighs as 0.3 or more.
pub const LEVEL_SHARE_SAID: f32 = 1.5;
/// How much likelier (natural log) the axis is that the tool a file's header names writes
/// up (Blender's Y, IfcOpenShell's Z: see [`crate::map::header`]): a default the user
/// may have changed on export, so it decides between axes the geometry barely tells
/// apart, and clear geometry overrules it.
pub const TOOL_AXIS_WEIGHT: f32 = 2.0;

/// How well `e` speaks for its axis pointing up.
fn up_score(e: &up::AxisEvidence) -> f32 {
    SKY_WEIGHT * e.sky
        + LAYERING_WEIGHT * e.layering
        + FACING_WEIGHT * e.facing
        + LEVEL_SHARE_WEIGHT * e.level_share.max(LEVEL_SHARE_FLOOR).ln()
}

/// One up axis weighed: its evidence and its score.
struct Weighed {
    up: UpAxis,
    evidence: up::AxisEvidence,
    score: f32,
}

/// Weigh `up` for `world`, with its prior (natural log).
fn weigh(
    world: &CollisionWorld,
    free: Option<&FreeSpace>,
    up: UpAxis,
    prior: f32,
    surface: &up::SurfaceCues,
) -> Weighed {
    let evidence = up::evidence(world, free, up, surface);
    Weighed {
        up,
        evidence,
        score: prior + up_score(&evidence),
    }
}

/// [`TOOL_AXIS_WEIGHT`] for `up` when the tool `said` names writes it up.
fn tool_axis(said: &Header, up: UpAxis) -> f32 {
    if said.tool.and_then(|t| t.up()) == Some(up) {
        TOOL_AXIS_WEIGHT
    } else {
        0.0
    }
}

/// The up axes of `world` weighed, the most likely first: `given` alone when it is given,
/// else every candidate, the winner turned over when its sky is below it.
fn weigh_ups(
    world: &CollisionWorld,
    free: Option<&FreeSpace>,
    given: Option<UpAxis>,
    said: &Header,
) -> Vec<Weighed> {
    let surface = up::SurfaceCues::of(world);
    let mut weighed: Vec<Weighed> = match given {
        Some(up) => vec![weigh(world, free, up, 0.0, &surface)],
        None => CANDIDATE_UPS
            .iter()
            .map(|&(up, prior)| weigh(world, free, up, prior + tool_axis(said, up), &surface))
            .collect(),
    };
    weighed.sort_by(|a, b| b.score.total_cmp(&a.score));
    // Upside down: the axis that won, with the sky below it, is up the other way. (Only
    // the winner: a wall's sky is any sign, and a ceiling over everything is no sky.)
    // Which way the surface faces is no cue: a file's winding is unreliable (a mirrored
    // export reverses it), and four of the seven real levels, mirrored, read upside down
    // by it.
    if given.is_none() && weighed[0].evidence.sky < -SKY_FLIP {
        let w = &mut weighed[0];
        w.up = w.up.flipped();
        w.evidence.sky = -w.evidence.sky;
        w.score += 2.0 * SKY_WEIGHT * w.evidence.sky;
    }
    weighed
}

/// Infer what `given` leaves open of the frame of `world`, a map in the file's own
/// coordinates, with `free` its free-space survey in the same coordinates, and what the
/// file's header `said` (the tool that wrote it, the units it states) weighed as
/// evidence beside the geometry.
///
/// Each candidate up axis is weighed by evidence walls cannot give alone (see [`up`]):
/// the sky above, floors in few levels, the surface facing along it. Y, OBJ's
/// convention, has a head start. Then the unit along the chosen axis, among the
/// hypotheses the file's grid allows (see [`grid`], [`units`]).
pub fn infer_frame(
    world: &CollisionWorld,
    free: Option<&FreeSpace>,
    given: Given,
    said: &Header,
) -> FrameGuess {
    // The corners of at most GRID_TRIANGLES triangles, spread over the file.
    let tris = world.triangles();
    let stride = tris.len().div_ceil(GRID_TRIANGLES).max(1);
    let grid = grid::engine_grid(tris.iter().step_by(stride).flat_map(|t| t.vertices()));
    let weighed = weigh_ups(world, free, given.up, said);
    let mut details = up_details(&weighed, grid);
    let best = &weighed[0];
    let (up_reason, up) = match given.up {
        Some(up) => (
            format!("up axis {up} given (--up, or U in the window)"),
            None,
        ),
        None => {
            let next = &weighed[1];
            let margin = best.score - next.score;
            let confidence = Confidence::of(margin);
            (
                up_reason(best, next, confidence, said),
                Some(Inferred {
                    chosen: best.up,
                    confidence,
                    margin,
                    next: next.up,
                }),
            )
        }
    };
    let dir = best.up.direction();
    let runs = samples::floor_runs(world, free, dir, SCALE_SAMPLES, STAIR_SAMPLES);
    let (across, along) = measures::extents(world.bounds().size(), dir);
    let m = measures::measure(world, free, &runs, dir, across, along);
    // Ranked once, for the details and the answer (each ranking scores every unit).
    let scored = scale::ranked(&m, grid, said);
    details.extend(scored.iter().map(|s| {
        format!(
            "survey: {} ({} per unit): score {:.2} ({})",
            s.unit.name,
            s.unit.metres,
            s.total,
            scale::describe(&m, s)
        )
    }));
    let most = scale_confidence_cap(up.as_ref());
    let mut scale_doubt = None;
    let (scale, scale_reason, scale_inferred) = match given.scale {
        Some(s) => {
            let g = scale::infer_scale(&m, &scored, most);
            let sure = Confidence::of(g.margin).min(most) == Confidence::High;
            let ratio = s / g.scale;
            if sure && !(1.0 / FAR_FROM_READING..=FAR_FROM_READING).contains(&ratio) {
                scale_doubt = Some(format!(
                    "{} (scale {}, confidence high)",
                    g.unit.name, g.scale
                ));
            }
            (s, format!("scale {s} given"), None)
        }
        None => {
            let g = scale::infer_scale(&m, &scored, most);
            let confidence = Confidence::of(g.margin).min(most);
            (
                g.scale,
                format!(
                    "scale {}: {}{}",
                    g.scale,
                    g.reason,
                    header_on_scale(said, g.unit)
                ),
                Some(Inferred {
                    chosen: g.unit,
                    confidence,
                    margin: g.margin,
                    next: g.offered,
                }),
            )
        }
    };
    FrameGuess {
        frame: MapFrame { scale, up: best.up },
        up_reason,
        scale_reason,
        up,
        scale: scale_inferred,
        details,
        scale_doubt,
    }
}

/// Every up axis's cues, and the editor's grid when the file is on one, a line each
/// (for `--verbose`).
fn up_details(weighed: &[Weighed], grid: Option<grid::EngineGrid>) -> Vec<String> {
    let mut details: Vec<String> = weighed
        .iter()
        .map(|w| {
            format!(
                "survey: {} up: sky {:+.2}, levels {:.2}, level share {:.3}, facing {:.0}%: score {:.2}",
                w.up,
                w.evidence.sky,
                w.evidence.layering,
                w.evidence.level_share,
                100.0 * w.evidence.facing,
                w.score
            )
        })
        .collect();
    if let Some(g) = grid {
        details.push(format!(
            "survey: on a level editor's grid of {} file units ({:.0}% of coordinates)",
            grid::EDITOR_GRID * g.import,
            100.0 * g.share
        ));
    }
    details
}

/// The most the scale's confidence may be: the scale is read along the up axis (rooms'
/// heights, steps, floors), so while the up axis is a guess (confidence low: the next
/// axis nearly as likely) the scale is at most fair. A level turned on its side read its
/// walls as floors and its scale as "high" (Doom's E1M1 written X-up: inches, high).
fn scale_confidence_cap(up: Option<&Inferred<UpAxis>>) -> Confidence {
    match up {
        Some(u) if u.confidence == Confidence::Low => Confidence::Fair,
        _ => Confidence::High,
    }
}

/// What the file's header said of the scale, beside the unit `chosen`: "; the header
/// says inches (line 3)" or "; the header says metres (line 3), but the geometry reads
/// otherwise"; the tool it names, when its units were weighed.
fn header_on_scale(said: &Header, chosen: units::Unit) -> String {
    let agrees = |metres: f32| units::same_unit(chosen.metres, metres);
    match (said.units, said.tool) {
        (Some(s), _) if agrees(s.unit.metres) => {
            format!("; the header says {} (line {})", s.unit.name, s.line)
        }
        (Some(s), _) => format!(
            "; the header says {} (line {}), but the geometry reads otherwise",
            s.unit.name, s.line
        ),
        (None, Some(t)) if !t.units().is_empty() => {
            let written = if t.units().iter().any(|u| agrees(u.metres)) {
                "its units"
            } else {
                "other units, but the geometry reads otherwise"
            };
            format!("; written by {}, which writes {written}", t.name())
        }
        _ => String::new(),
    }
}

/// Why `best` is up rather than `next`, in a sentence (with the tool that `said` it
/// writes that axis up, when it does).
fn up_reason(best: &Weighed, next: &Weighed, confidence: Confidence, said: &Header) -> String {
    let (b, n) = (best.evidence, next.evidence);
    let tool = said
        .tool
        .filter(|_| tool_axis(said, best.up) > 0.0)
        .map(|t| format!("{} writes {} up", t.name(), best.up));
    let why = if best.up == UpAxis::Y && best.score - next.score < 1.0 && tool.is_none() {
        "OBJ's convention; no strong evidence for another".to_string()
    } else {
        let mut cues: Vec<String> = tool.into_iter().collect();
        if b.sky - n.sky > 0.1 {
            cues.push("the sky is above".into());
        }
        if b.layering - n.layering > 0.1 {
            cues.push("floors lie in few levels".into());
        } else if b.level_share > LEVEL_SHARE_SAID * n.level_share {
            cues.push("floors gather at few heights".into());
        }
        if b.facing - n.facing > 0.1 {
            cues.push("most of the surface faces along it".into());
        }
        if cues.is_empty() {
            cues.push("the cues together".into());
        }
        cues.join(", ")
    };
    format!(
        "up axis {}: {why} (sky {:+.2} vs {:+.2}, levels {:.2} vs {:.2}, level share {:.3} vs {:.3}, facing {:.0}% vs {:.0}% along {}; confidence {confidence})",
        best.up,
        b.sky,
        n.sky,
        b.layering,
        n.layering,
        b.level_share,
        n.level_share,
        100.0 * b.facing,
        100.0 * n.facing,
        next.up,
    )
}
