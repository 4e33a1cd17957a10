//! A level's frame inferred from evidence: which axis of the file is up, what unit it is
//! written in, and where the player starts. The loader ([`crate::map`]) only loads; the
//! survey reads the map as the file has it (its own axes, its own units), then says how
//! to turn it into the world (Y up, metres). Every rule here is judged on generated
//! buildings of many shapes, axes and units (`tests/levels.rs`), never fitted to a few
//! real maps; and the user can always correct it (`--up`, `--scale`, or live in the
//! window).
//!
//! - [`extent`]: the main part of the map, without a stray few triangles far away.
//! - [`pockets`]: the free space on a voxel grid, flood-filled: open space and the
//!   sealed hollows of closed solids.
//! - [`samples`]: floor samples, each with the free run above it.
//! - [`up`]: the up axis, from gravity's evidence (things rest on floors, the sky is up).
//! - [`scale`]: the unit, from cues at a person's scale that agree.
//! - [`spawn`]: where to start, and which way to face.

pub mod extent;
pub mod pockets;
pub mod samples;
pub mod scale;
pub mod spawn;
pub mod up;

pub use extent::{MainPart, main_part};
pub use pockets::{FreeSpace, Space};
pub use scale::ScaleGuess;
pub use spawn::{SpawnChoice, choose_spawn, find_spawn, open_headings, start_warning};
pub use up::AxisEvidence;

use crate::collision::CollisionWorld;
use crate::map::{MapFrame, UpAxis};

/// Floor samples each reading of the map is measured from.
const SCALE_SAMPLES: usize = 3000;

/// A map's frame, and why each half of it is what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameGuess {
    /// The file-to-world transform.
    pub frame: MapFrame,
    /// Why the up axis (a sentence).
    pub up_reason: String,
    /// Why the scale.
    pub scale_reason: String,
    /// Every cue and every reading's score, a line each (for `--verbose`).
    pub details: Vec<String>,
}

/// What is known of a frame before the survey: each half given (the command line, a
/// remembered correction), or `None` to infer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Given {
    /// The up axis.
    pub up: Option<UpAxis>,
    /// World units per file unit.
    pub scale: Option<f32>,
}

/// Up axes the survey weighs: what exporters write. Any other is the user's to set.
const CANDIDATE_UPS: [UpAxis; 2] = [UpAxis::Y, UpAxis::Z];
/// Y up's head start over Z up (OBJ's convention), in the units of the up score.
pub const Y_PRIOR: f32 = 0.5;
/// Weight of the sky cue (-1 to 1: rays down meet the map, rays up escape) in the up score.
pub const SKY_WEIGHT: f32 = 6.0;
/// Weight of the layering cue (0 to about 1: floors cover the footprint at few levels).
pub const LAYERING_WEIGHT: f32 = 3.0;
/// Weight of the share of the surface facing along the axis (0 to 1): weakest, as tall
/// walls give it too; it speaks for a terrain, whose floors are no levels.
pub const FACING_WEIGHT: f32 = 1.0;

/// How well `e` speaks for its axis pointing up.
fn up_score(e: &up::AxisEvidence) -> f32 {
    SKY_WEIGHT * e.sky + LAYERING_WEIGHT * e.layering + FACING_WEIGHT * e.facing
}

/// Infer what `given` leaves open of the frame of `world`, a map in the file's own
/// coordinates, with `free` its free-space survey in the same coordinates.
///
/// The up axis first, from evidence walls cannot give alone (see [`up`]): the axis along
/// which the sky is above and the floors lie in few levels; Y, OBJ's convention, keeps
/// [`Y_PRIOR`]'s head start. Then the unit, from cues at a person's scale measured along
/// it (see [`scale`]).
pub fn infer_frame(world: &CollisionWorld, free: Option<&FreeSpace>, given: Given) -> FrameGuess {
    let evidence: Vec<(UpAxis, up::AxisEvidence, f32)> = CANDIDATE_UPS
        .iter()
        .map(|&up| {
            let e = up::evidence(world, free, up);
            let prior = if up == UpAxis::Y { Y_PRIOR } else { 0.0 };
            (up, e, up_score(&e) + prior)
        })
        .collect();
    let (up, up_reason) = match given.up {
        Some(up) => (up, format!("up axis {up} given (--up, or U in the window)")),
        None => {
            let mut ranked = evidence.clone();
            ranked.sort_by(|a, b| b.2.total_cmp(&a.2));
            let (best, next) = (&ranked[0], &ranked[1]);
            let (b, n) = (best.1, next.1);
            let why = if best.0 == UpAxis::Y && best.2 - next.2 < 1.0 {
                "OBJ's convention; no strong evidence for Z".to_string()
            } else {
                let mut cues = Vec::new();
                if b.sky - n.sky > 0.1 {
                    cues.push("the sky is above");
                }
                if b.layering - n.layering > 0.1 {
                    cues.push("floors lie in few levels");
                }
                if b.facing - n.facing > 0.1 {
                    cues.push("most of the surface faces along it");
                }
                if cues.is_empty() {
                    cues.push("the cues together");
                }
                cues.join(", ")
            };
            (
                best.0,
                format!(
                    "up axis {}: {why} (sky {:+.2} vs {:+.2}, levels {:.2} vs {:.2}, facing {:.0}% vs {:.0}% along {}; confidence {})",
                    best.0,
                    b.sky,
                    n.sky,
                    b.layering,
                    n.layering,
                    100.0 * b.facing,
                    100.0 * n.facing,
                    next.0,
                    scale::confidence(2.0 * (best.2 - next.2))
                ),
            )
        }
    };
    let dir = up.direction();
    let runs = samples::floor_runs(world, free, dir, SCALE_SAMPLES);
    let (across, along) = scale::extents(world.bounds().size(), dir);
    let measures = scale::measure(world, free, &runs, dir, across, along);
    let (scale, scale_reason) = match given.scale {
        Some(s) => (s, format!("scale {s} given")),
        None => {
            let guess = scale::infer_scale(&measures);
            (
                guess.scale,
                format!("scale {}: {}", guess.scale, guess.reason),
            )
        }
    };
    // Every cue, for `--verbose`.
    let mut details: Vec<String> = evidence
        .iter()
        .map(|(up, e, score)| {
            format!(
                "survey: {up} up: sky {:+.2}, levels {:.2}, facing {:.0}%: score {score:.2}",
                e.sky,
                e.layering,
                100.0 * e.facing
            )
        })
        .collect();
    details.extend(scale::ranked(&measures).iter().map(|s| {
        format!(
            "survey: {} ({} per unit): score {:.2} ({})",
            s.unit.name,
            s.unit.metres,
            s.total,
            scale::describe(&measures, s)
        )
    }));
    FrameGuess {
        frame: MapFrame { scale, up },
        up_reason,
        scale_reason,
        details,
    }
}
