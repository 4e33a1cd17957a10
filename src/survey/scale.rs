//! The file's units, from cues at a person's scale that agree.
//!
//! A file is written in some unit: metres, centimetres, millimetres, inches or feet
//! almost always. Each is a hypothesis, and each cue says how likely the map is under it.
//! The cues are measured along the up axis over floor samples (see [`super::samples`]):
//!
//! - **Storeys**: how high the free space over the main floors is (the most common floor
//!   level under each ceiling). From a low room to a nave, 2.2 to 40 m: a wide range,
//!   since halls are as common as rooms in the levels people walk; rooms up to 8 m are
//!   favoured a little. This cue mostly rules units out.
//! - **Things on floors**: how high the other floor-facing surfaces under the same
//!   ceiling stand over the main floor: seats and beds (about 0.45 m), tables and desks
//!   (0.75 m), counters, sills and railings (about 1 m).
//! - **Steps**: the rise from one floor level to the next under one ceiling: stairs, 0.15
//!   to 0.2 m a step. (Kept apart from the things: a seat is about 2.5 steps high, the
//!   ratio of an inch to a centimetre, so together they would confuse those units.)
//! - **Obstacles and openings seen sideways**: rays along the floor at rising heights;
//!   where the way opens, an obstacle's top (a seat, a table, a sill); where it closes,
//!   an opening's top (a door, 2.1 m; a window; the underside of a table top).
//! - **Size**: the map across, between a room (a few metres) and a landscape (2 km).
//!
//! Each cue is a mixture of log-normal densities over those human measures, with room for
//! anything else (a rack, a roof, a beam must not make a unit likely by chance). The
//! hypothesis the cues together make most likely wins; metres are the prior's favourite,
//! and without human measures the file's units are kept unless the map's size rules them
//! out.

use glam::Vec3;

use super::Confidence;
use super::fit::fit;
use super::grid::EngineGrid;
use super::pockets::FreeSpace;
use super::samples::{self, Run};
use super::units::hypotheses;
pub use super::units::{UNITS, Unit};
use crate::collision::CollisionWorld;

/// The storey height, metres, that a unit of the file's own makes of its typical storey.
const OWN_STOREY: f32 = 2.8;
/// What a unit of the file's own is called.
const OWN_NAME: &str = "a unit of its own";
/// How much more likely (mean natural log) the things must be at a unit of the file's
/// own than at the best standard unit.
const OWN_MARGIN: f32 = 1.0;
/// ... and at least this much more likely there than sizes nobody makes.
const OWN_HUMAN: f32 = 1.5;
/// Weight of the doors-and-windows cue against the things' in choosing a unit of its own.
const OWN_DOOR_VOTE: f32 = 0.5;

/// A component of a log-normal mixture: a typical size in metres, a spread (natural log)
/// and a weight.
struct Mode(f32, f32, f32);

/// A cue's mixture: its modes, and the weight of anything else.
struct Mixture<'a> {
    modes: &'a [Mode],
    other: f32,
}

/// Storeys (see [`storey_fit`]): favoured range, wider range, the wider's relative weight.
const ROOMS: (f32, f32) = (2.2, 8.0);
/// See [`ROOMS`].
const HALLS: (f32, f32) = (2.2, 40.0);
/// See [`ROOMS`].
const HALL_WEIGHT: f32 = 0.3;
/// Log-normal falloff above [`HALLS`].
const STOREY_FALLOFF: f32 = 0.2;
/// ... and below it: a main storey a person can hardly stand in is very unlikely.
const STOREY_FALLOFF_LOW: f32 = 0.05;
/// How high things stand over their floor: seats and beds, tables, counters and sills.
/// (No two are an inch-to-centimetre or a foot-to-metre apart, so that no unit turns
/// one into another.)
const THINGS: Mixture = Mixture {
    modes: &[
        Mode(0.46, 0.12, 0.3),
        Mode(0.75, 0.1, 0.25),
        Mode(0.95, 0.08, 0.15),
    ],
    other: 0.3,
};
/// The rise of one step: a mode at the unit's stairs' rise (see [`Unit::stair`]), and
/// the weight of anything else.
const STEP_MODE_WEIGHT: f32 = 0.6;
/// See [`STEP_MODE_WEIGHT`].
const STEP_OTHER: f32 = 0.4;
/// Fewer flights of stairs than this and the steps are not used.
const MIN_FLIGHTS: usize = 1;
/// Treads in a row that give a flight's steps their full weight: the shortest flights
/// found ([`FLIGHT`] treads) could line up by chance, and weigh in proportion.
const FULL_FLIGHT: usize = 5;
/// Where the way sideways opens over a floor: the tops of kerbs and steps, seats, tables,
/// sills.
const RISES: Mixture = Mixture {
    modes: &[
        Mode(0.46, 0.12, 0.2),
        Mode(0.75, 0.1, 0.2),
        Mode(0.95, 0.08, 0.15),
    ],
    other: 0.45,
};
/// Where it closes: the tops of doors and windows. (Not the underside of a table top: at
/// 0.72 m it is a door's top in feet.)
const DROPS: Mixture = Mixture {
    modes: &[Mode(2.1, 0.1, 0.4), Mode(2.35, 0.12, 0.2)],
    other: 0.4,
};
/// Weights of the cues' mean log densities in the score: storeys, things, steps, rises,
/// drops.
const WEIGHTS: [f32; 5] = [1.0, 2.0, 3.0, 1.5, 3.0];
/// Width of a feature's group of readings, in natural log (5%).
const FEATURE_BIN: f32 = 0.05;
/// Fewer readings of a cue than this and it is not used.
const MIN_READINGS: usize = 12;
/// The map across is plausible between these, metres (a room; a landscape).
const SIZE_RANGE: (f32, f32) = (3.0, 2_000.0);
/// Two floor samples are on one level (or under one ceiling) within this share of the
/// map's height.
const LEVEL_TOLERANCE: f32 = 0.004;
/// Extra log weight of metres when the storeys are plausible in metres: halls and naves
/// included, since a wrong guess is worse than none.
const PLAUSIBLE_METRES_BONUS: f32 = 4.0;
/// Storeys (file units) plausible in metres.
const METRES_STOREYS: (f32, f32) = (2.2, 8.0);
/// Main floors under ceilings, and as many under the sky, looked along sideways.
const SIDEWAYS_RUNS: usize = 100;

/// The inferred scale and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleGuess {
    /// World units (metres) per file unit.
    pub scale: f32,
    /// The unit it is.
    pub unit: Unit,
    /// Its score (natural log).
    pub total: f32,
    /// How much more likely it is than the next answer (natural log).
    pub margin: f32,
    /// The next answer: the most likely unit that differs by more than [`SAME_ANSWER`].
    pub next: Unit,
    /// A sentence for the user: the unit, the cues and how they agree.
    pub reason: String,
}

/// What the floor samples measured, in file units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measures {
    /// Free heights over main floors.
    pub storeys: Vec<f32>,
    /// Heights of other floor-facing surfaces over the main floor under the same ceiling.
    pub things: Vec<f32>,
    /// Rises of the flights of stairs under each ceiling.
    pub steps: Vec<f32>,
    /// The most treads in a row of any of those flights.
    pub flight_treads: usize,
    /// Heights over floors where the way sideways opens and closes.
    pub sideways: samples::Sideways,
    /// The map across (horizontally).
    pub size: f32,
    /// The map's height (along the up axis).
    pub height: f32,
    /// Share of the surface area lying exactly across the up axis or exactly along it.
    pub aligned: f32,
    /// Share of the main floors with something over their ceiling (one room over
    /// another; a roof over a ceiling), when there are enough to say.
    pub stacked: Option<f32>,
}

/// Surfaces within this of exactly across or along the up axis are aligned with it
/// (cosine; a level editor's floors and walls are exact to float rounding).
const ALIGNED_COS: f32 = 1e-4;
/// A level is drawn as Doom draws ([`super::units::DOOM_SECTIONS`]) when at least this
/// share of its surface is aligned ...
const DOOM_ALIGNED: f32 = 0.99;
/// ... and at most this share of its main floors has anything over the ceiling.
const DOOM_STACKED: f32 = 0.02;

impl Measures {
    /// Whether the level is drawn as Doom's sections are: flat floors and ceilings,
    /// vertical walls, nothing over a ceiling.
    pub fn doom_like(&self) -> bool {
        self.aligned >= DOOM_ALIGNED && self.stacked.is_some_and(|s| s <= DOOM_STACKED)
    }
}

/// Read the measures from floor samples (`runs`, levels along the up axis `up`) of
/// `world`, whose extent across is `size` and along the up axis `height`.
pub fn measure(
    world: &CollisionWorld,
    _free: Option<&FreeSpace>,
    runs: &[Run],
    up: Vec3,
    size: f32,
    height: f32,
) -> Measures {
    // Under the sky, "things" would be every roof over the ground: only under ceilings
    // do things stand in rooms (outdoors, what rises from the ground is seen sideways).
    let (covered, open): (Vec<&Run>, Vec<&Run>) = runs.iter().partition(|r| r.height.is_some());
    // Levels are told apart within a share of the map's height.
    let tol = (height * LEVEL_TOLERANCE).max(f32::MIN_POSITIVE);
    let rooms = read_rooms(&covered, tol);
    let mut m = Measures {
        size,
        height,
        aligned: aligned(world, up),
        storeys: rooms.storeys,
        things: rooms.things,
        steps: rooms.steps,
        flight_treads: rooms.flight_treads,
        ..Measures::default()
    };
    let mut main_floors = rooms.main_floors;
    let open: Vec<Run> = open.into_iter().copied().collect();
    m.stacked = stacked(world, &main_floors, up);
    main_floors.truncate(SIDEWAYS_RUNS);
    main_floors.extend(open.iter().take(SIDEWAYS_RUNS).copied());
    m.sideways = samples::sideways(world, &main_floors, up, height, 2 * SIDEWAYS_RUNS);
    m
}

/// What the floors under ceilings measure: see [`read_rooms`].
struct Rooms {
    storeys: Vec<f32>,
    things: Vec<f32>,
    steps: Vec<f32>,
    flight_treads: usize,
    main_floors: Vec<Run>,
}

/// Read the rooms among the `covered` floor samples (those under a ceiling), telling
/// levels apart within `tol`: samples under one ceiling, and the most common level among
/// them (the main floor), the largest groups first (they are the rooms whose floors are
/// looked along sideways); the free heights over main floors (storeys), the heights of
/// other floors over them (things), and the rises of flights of stairs among them.
fn read_rooms(covered: &[&Run], tol: f32) -> Rooms {
    let mut out = Rooms {
        storeys: Vec::new(),
        things: Vec::new(),
        steps: Vec::new(),
        flight_treads: 0,
        main_floors: Vec::new(),
    };
    let mut groups = clusters(covered.to_vec(), tol, |r| r.ceiling().unwrap_or(0.0));
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    for group in groups {
        let levels = clusters(group, tol, |r| r.level);
        let Some(main) = levels.iter().max_by_key(|l| l.len()) else {
            continue;
        };
        let floor = main[0].level;
        let main_at = levels.iter().position(|l| std::ptr::eq(l, main));
        // Each level's height over the main floor (rising, as the levels are sorted).
        let heights: Vec<f32> = levels.iter().map(|l| l[0].level - floor).collect();
        // A flight of stairs is levels on whole multiples of one rise: the rise is a step,
        // and the treads are no things (k steps up they would fit any height at all).
        // Only level surfaces are treads: a ramp's samples lie at every height, on
        // multiples of any rise at all.
        let treads: Vec<f32> = levels
            .iter()
            .zip(&heights)
            .map(|(l, &h)| {
                if l.iter().all(|r| r.level_surface) {
                    h
                } else {
                    f32::NAN
                }
            })
            .collect();
        let flights = stairs(&treads, tol);
        out.steps.extend(flights.rise);
        out.flight_treads = out.flight_treads.max(flights.in_a_row);
        // The floors measure by area: the samples one a surface only find stairs.
        let by_area = |l: &[&Run]| {
            l.iter()
                .filter(|r| r.by_area)
                .map(|r| **r)
                .collect::<Vec<Run>>()
        };
        for (k, (level, &above)) in levels.iter().zip(&heights).enumerate() {
            if Some(k) == main_at {
                let floors = by_area(level);
                out.storeys.extend(floors.iter().filter_map(|r| r.height));
                out.main_floors.extend(floors);
            } else if above > tol && !flights.treads[k] {
                out.things
                    .extend(level.iter().filter(|r| r.by_area).map(|_| above));
            }
        }
    }
    out
}

/// The share of `world`'s surface area aligned with `up` (see [`ALIGNED_COS`]).
fn aligned(world: &CollisionWorld, up: Vec3) -> f32 {
    let (mut along, mut total) = (0.0f64, 0.0f64);
    for t in world.triangles() {
        let area = f64::from(t.e1().cross(t.e2()).length());
        total += area;
        let c = t.plane.normal.dot(up).abs();
        if !(ALIGNED_COS..=1.0 - ALIGNED_COS).contains(&c) {
            along += area;
        }
    }
    if total > 0.0 {
        (along / total) as f32
    } else {
        0.0
    }
}

/// The share of `floors` (under a ceiling, levels along `up`) over whose ceiling a ray
/// going on up meets something more; `None` with too few floors.
fn stacked(world: &CollisionWorld, floors: &[Run], up: Vec3) -> Option<f32> {
    if floors.len() < MIN_READINGS {
        return None;
    }
    let size = world.bounds().size();
    let hair = size.max_element() * 1e-5 + 1e-6;
    let reach = size.length() * 2.0 + 1.0;
    let over = floors
        .iter()
        .filter(|r| {
            r.height.is_some_and(|h| {
                world
                    .ray_cast(r.point + up * (h + hair), up, reach)
                    .is_some()
            })
        })
        .count();
    Some(over as f32 / floors.len() as f32)
}

/// `items` in groups of one value (by `value`) within `tol`: sorted by it, a new group
/// starts where the gap to the last item passes `tol`. (A fixed grid of bins would split a
/// level that straddles a bin's edge.)
fn clusters(mut items: Vec<&Run>, tol: f32, value: impl Fn(&Run) -> f32) -> Vec<Vec<&Run>> {
    items.sort_by(|a, b| value(a).total_cmp(&value(b)));
    let mut out: Vec<Vec<&Run>> = Vec::new();
    for r in items {
        match out.last_mut() {
            Some(g) if value(r) - value(g[g.len() - 1]) <= tol => g.push(r),
            _ => out.push(vec![r]),
        }
    }
    out
}

/// A flight of stairs among a group's levels (see [`stairs`]).
struct Flights {
    /// Its rise (the levels' units), if a flight was found.
    rise: Option<f32>,
    /// For each level given, whether it is one of the flight's treads.
    treads: Vec<bool>,
    /// The most treads of the flight found in a row (0: none).
    in_a_row: usize,
}

/// Levels on whole multiples of one rise that make a flight of stairs.
const FLIGHT: usize = 3;
/// Treads a flight's run may miss between two it holds.
const MISSED_TREADS: i64 = 1;
/// A level is on a multiple of a rise within this share of the rise: stairs are built
/// to a rise (a model's, an editor's grid), and floor samples lie exactly on their treads,
/// so furniture at chance heights (a seat at 0.45 m, a table at 0.72) does not line up
/// with a flight's multiples as loosely as it would within a share of the map's height.
const RISE_MATCH: f32 = 0.04;
/// A rise under this many level tolerances is noise, not a step.
const MIN_RISE_TOLERANCES: f32 = 2.0;
/// The most treads a flight is looked for over a floor.
const MAX_TREADS: i64 = 40;

/// Find the flight among `heights` (of a group's levels over its main floor, rising; NaN
/// for a level that cannot be a tread), told apart within `tol`. A flight is a rise `r`
/// such that levels lie (within [`RISE_MATCH`]) on at least [`FLIGHT`] consecutive whole
/// multiples of `r` (one missed tread allowed between two); the rises tried are the gaps
/// between neighbouring levels and the first levels' heights divided by 1 to 3, and of
/// those that make flights, the one holding most levels (the larger on a tie: half a rise
/// holds the same levels) wins. Its other levels on multiples of `r` count as its treads
/// too (floor samples miss some treads).
fn stairs(heights: &[f32], tol: f32) -> Flights {
    // (A NaN is not `> tol`: no tread.)
    let above: Vec<f32> = heights.iter().copied().filter(|&h| h > tol).collect();
    let mut tried: Vec<f32> = above.windows(2).map(|w| w[1] - w[0]).collect();
    for &h in above.iter().take(4) {
        tried.extend((1..=3).map(|d| h / d as f32));
    }
    tried.retain(|&r| r >= MIN_RISE_TOLERANCES * tol);
    tried.sort_by(f32::total_cmp);
    tried.dedup_by(|a, b| (*a - *b).abs() <= RISE_MATCH * 0.5 * *b);
    // The multiple of `r` that `h` lies on, if it lies on one.
    let multiple = |h: f32, r: f32| {
        let m = (h / r).round() as i64;
        ((1..=MAX_TREADS).contains(&m) && (h - m as f32 * r).abs() <= RISE_MATCH * r).then_some(m)
    };
    // The longest run of consecutive multiples (m, m + 1, ...) held, one missed tread
    // allowed between two (floor samples are sparse on small treads): a flight's treads
    // follow one another; furniture at chance multiples does not.
    let longest_run = |mut multiples: Vec<i64>| {
        multiples.sort_unstable();
        multiples.dedup();
        let (mut best, mut run) = (0, 0);
        for (i, m) in multiples.iter().enumerate() {
            run = if i > 0 && *m - multiples[i - 1] <= MISSED_TREADS + 1 {
                run + 1
            } else {
                1
            };
            best = best.max(run);
        }
        best
    };
    let best = tried
        .iter()
        .map(|&r| {
            let held: Vec<i64> = above.iter().filter_map(|&h| multiple(h, r)).collect();
            (r, held.len(), longest_run(held))
        })
        .filter(|&(_, _, in_a_row)| in_a_row >= FLIGHT)
        .max_by(|a, b| a.1.cmp(&b.1).then(a.0.total_cmp(&b.0)));
    match best {
        Some((r, _, in_a_row)) => Flights {
            rise: Some(r),
            treads: heights
                .iter()
                .map(|&h| h > tol && multiple(h, r).is_some())
                .collect(),
            in_a_row,
        },
        None => Flights {
            rise: None,
            treads: vec![false; heights.len()],
            in_a_row: 0,
        },
    }
}

/// How plausible the storeys are in `metres` per unit: their median is most likely in
/// [`ROOMS`], likely with [`HALL_WEIGHT`] up to the end of [`HALLS`] (as likely, in a game
/// level: `game`, whose outdoor floors are under its sky box, not a room's ceiling), and
/// less so by a log-normal falloff outside; `None` with too few.
fn storey_fit(storeys: &[f32], metres: f32, game: bool) -> Option<f32> {
    if storeys.len() < MIN_READINGS {
        return None;
    }
    let mut v = storeys.to_vec();
    v.sort_by(f32::total_cmp);
    let x = v[v.len() / 2] * metres;
    let (lo, hi) = HALLS;
    // Lower than a room a person stands in, steeply less likely; taller than a nave,
    // gently.
    let z = if x < lo {
        (lo / x).ln() / STOREY_FALLOFF_LOW
    } else if x > hi {
        (x / hi).ln() / STOREY_FALLOFF
    } else {
        0.0
    };
    let level = if x <= ROOMS.1 || game {
        0.0
    } else {
        HALL_WEIGHT.ln()
    };
    Some(level - 0.5 * z * z)
}

/// Log density of `mixture` at `x` metres (its "anything else" spread evenly over the log
/// of sizes from 1 cm to 1 km).
fn background_log(mixture: &Mixture) -> f32 {
    (mixture.other / (1000.0f32 / 0.01).ln()).ln()
}

/// See [`background_log`]: the density of a size nobody makes.
fn log_density(mixture: &Mixture, x: f32) -> f32 {
    if x.is_nan() || x <= 0.0 {
        return background_log(mixture);
    }
    let lx = x.ln();
    let spread = (1000.0f32 / 0.01).ln();
    let background = mixture.other / spread;
    let mut p = background;
    for Mode(at, sigma, w) in mixture.modes {
        let z = (lx - at.ln()) / sigma;
        p += w * (-0.5 * z * z).exp() / (sigma * std::f32::consts::TAU.sqrt());
    }
    p.ln()
}

/// The mean log density of `readings` (file units) times `metres` under `mixture`;
/// `None` with too few readings to say.
fn cue(mixture: &Mixture, readings: &[f32], metres: f32) -> Option<f32> {
    cue_of(mixture, readings, metres, MIN_READINGS)
}

/// [`cue`] with `least` readings needed. Readings are taken as the features they come
/// from: grouped by size (bins [`FEATURE_BIN`] wide in log), each group with two readings
/// or more counts once, at its median. A feature repeated forty times (an arcade's
/// arches, a warehouse's racks) then weighs as much as one seen three times (the doors),
/// and cannot make a unit likely by lining up with a human size by chance alone.
fn cue_of(mixture: &Mixture, readings: &[f32], metres: f32, least: usize) -> Option<f32> {
    if readings.len() < least {
        return None;
    }
    let mut groups: std::collections::BTreeMap<i64, Vec<f32>> = Default::default();
    for &r in readings.iter().filter(|r| **r > 0.0) {
        groups
            .entry((r.ln() / FEATURE_BIN).round() as i64)
            .or_default()
            .push(r);
    }
    let features: Vec<f32> = groups
        .values_mut()
        .flat_map(|g| g.iter().copied())
        .collect();
    if features.is_empty() {
        return None;
    }
    Some(
        features
            .iter()
            .map(|f| log_density(mixture, f * metres))
            .sum::<f32>()
            / features.len() as f32,
    )
}

/// A level rises over the person who walks it (walls, houses, trees, a roof): a map
/// lower than the walker, all of it, is a model town to a giant. How unlikely one
/// `height` metres high is: 0 from the walker's height up, falling as the square of the
/// log distance below it over this spread.
const LOW_MAP_SPREAD: f32 = 0.3;

/// See [`LOW_MAP_SPREAD`].
fn low_map_penalty(height: f32) -> f32 {
    let walker = 2.0 * crate::collision::body::WALKER_RADII.y;
    if height.is_nan() || height >= walker {
        return 0.0;
    }
    let z = (walker / height.max(f32::MIN_POSITIVE)).ln() / LOW_MAP_SPREAD;
    -0.5 * z * z
}

/// How unlikely a map `across` metres wide is: 0 within [`SIZE_RANGE`], falling as the
/// square of the log distance outside it.
fn size_penalty(across: f32) -> f32 {
    let (lo, hi) = SIZE_RANGE;
    let d = if across < lo {
        (lo / across).ln()
    } else if across > hi {
        (across / hi).ln()
    } else {
        0.0
    };
    -d * d
}

/// How likely the measures make one unit: the total (log) score and each cue's part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitScore {
    /// The unit.
    pub unit: Unit,
    /// Prior, cues and size together (natural log).
    pub total: f32,
    /// The head start given to the file's own units when they read as metres (see
    /// [`PLAUSIBLE_METRES_BONUS`]): a choice for the default when the cues are
    /// unsure, not evidence, so not counted in the confidence.
    pub kept: f32,
    /// Each cue's mean log density, when it had enough readings: storeys, things,
    /// steps, rises, drops.
    pub cues: [Option<f32>; 5],
}

/// Score `unit` against the measures, for a file on an editor's grid (`game`) or not.
///
/// A game level is made for its player, not for a person's furniture (a Counter-Strike
/// crate is 1.6 m high, a Doom room 7 m): on an editor's grid only the rooms' heights, the
/// stairs (at each hypothesis's own rise: see [`Unit::stair`]), the map's size and where
/// the walker fits (see [`super::fit`]) speak, besides the priors. Elsewhere the things on
/// floors and what is seen sideways speak too, at a person's sizes.
pub fn score(m: &Measures, unit: Unit, game: bool) -> UnitScore {
    let s = unit.metres;
    let human = !game;
    let cues = [
        storey_fit(&m.storeys, s, game),
        cue(&THINGS, &m.things, s).filter(|_| human),
        cue_of(
            &Mixture {
                modes: &[Mode(unit.stair.0, unit.stair.1, STEP_MODE_WEIGHT)],
                other: STEP_OTHER,
            },
            &m.steps,
            s,
            MIN_FLIGHTS,
        ),
        cue(&RISES, &m.sideways.rises, s).filter(|_| human),
        cue(&DROPS, &m.sideways.drops, s).filter(|_| human),
    ];
    // A short flight could line up with a step by chance: the steps weigh in proportion
    // to the treads seen in a row, up to [`FULL_FLIGHT`].
    let steps_share = (m.flight_treads as f32 / FULL_FLIGHT as f32).min(1.0);
    let evidence: f32 = cues
        .iter()
        .zip(WEIGHTS)
        .enumerate()
        .map(|(k, (c, w))| {
            let share = if k == 2 { steps_share } else { 1.0 };
            w * share * c.unwrap_or(0.0)
        })
        .sum();
    // A file whose storeys are plausible in metres keeps its units unless the other cues
    // speak clearly against it.
    let kept = if human && unit.metres == 1.0 && plausible_metres(&m.storeys) {
        PLAUSIBLE_METRES_BONUS
    } else {
        0.0
    };
    UnitScore {
        unit,
        total: unit.prior.ln()
            + kept
            + evidence
            + size_penalty(m.size * s)
            + low_map_penalty(m.height * s)
            + fit(m, s).score(),
        kept,
        cues,
    }
}

/// Storeys whose median lies in [`METRES_STOREYS`] read as metres.
fn plausible_metres(storeys: &[f32]) -> bool {
    median(storeys).is_some_and(|h| (METRES_STOREYS.0..=METRES_STOREYS.1).contains(&h))
}

/// Every unit a file on `grid` may be in scored, best first.
pub fn ranked(m: &Measures, grid: Option<EngineGrid>) -> Vec<UnitScore> {
    let game = grid.is_some();
    let mut scored: Vec<UnitScore> = hypotheses(grid, m.doom_like())
        .iter()
        .map(|&u| score(m, u, game))
        .collect();
    scored.sort_by(|a, b| b.total.total_cmp(&a.total));
    // A file may be in a unit of its own (a scene modelled to no standard unit): read at
    // the scale that makes its typical storey a room's height, it competes when the
    // things on its floors stand at a person's heights there clearly better than at the
    // best standard unit (only the things: openings and steps could be lined up with a
    // person's sizes by choosing the scale).
    // Not when the storeys read as metres: a hall in metres is no unit of its own; nor
    // for a level on an editor's grid, which is in its engine's units.
    if let Some(h) = median(&m.storeys).filter(|_| !plausible_metres(&m.storeys) && !game) {
        let own = score(
            m,
            Unit {
                name: OWN_NAME,
                metres: OWN_STOREY / h,
                prior: 1.0,
                step: super::units::PERSON_STEP,
                stair: super::units::PERSON_STAIR,
            },
            game,
        );
        let things = |s: &UnitScore| s.cues[1];
        // Doors and windows vote too: a hall whose doors are 2.1 m in a standard unit is
        // no small building in a unit of its own, however low its things.
        let doors = |s: &UnitScore| s.cues[4].unwrap_or(0.0);
        let human = background_log(&THINGS) + OWN_HUMAN;
        let best = &scored[0];
        let clearer = match (things(&own), things(best)) {
            (Some(o), Some(b)) => {
                o - b + OWN_DOOR_VOTE * (doors(&own) - doors(best)) > OWN_MARGIN && o > human
            }
            _ => false,
        };
        // A unit of its own that reads the things clearly must also be clearly likelier
        // as a whole: stairs at a person's rise can still speak for a standard unit, and
        // a scale chosen to fit the storeys lines some things up by chance.
        if clearer && own.total > scored[0].total + OWN_MARGIN {
            scored.insert(0, own);
        } else {
            scored.push(own);
        }
    }
    scored
}

/// The median of `v`, if it has enough readings to be a cue.
fn median(v: &[f32]) -> Option<f32> {
    if v.len() < MIN_READINGS {
        return None;
    }
    let mut v = v.to_vec();
    v.sort_by(f32::total_cmp);
    Some(v[v.len() / 2])
}

/// The cues behind a unit's score, in words: "rooms 2.70 m high, things on floors 0.50
/// m, doors and windows to 2.10 m, 6 m across".
pub fn describe(m: &Measures, s: &UnitScore) -> String {
    let median = |v: &[f32]| {
        let mut v = v.to_vec();
        v.sort_by(f32::total_cmp);
        v.get(v.len() / 2).copied()
    };
    let metres = s.unit.metres;
    let named = [
        ("rooms", &m.storeys, " high"),
        ("things on floors", &m.things, ""),
        ("steps", &m.steps, ""),
        ("obstacles", &m.sideways.rises, ""),
        ("openings to", &m.sideways.drops, ""),
    ];
    let mut cues: Vec<String> = named
        .iter()
        .zip(s.cues)
        .filter(|(_, c)| c.is_some())
        .filter_map(|((what, v, tail), _)| {
            median(v).map(|h| format!("{what} {:.2} m{tail}", h * metres))
        })
        .collect();
    cues.push(format!("{:.0} m across", m.size * metres));
    cues.join(", ")
}

/// Two scales within this factor of each other are one answer: the next most likely
/// scale is the best one that differs by more.
pub const SAME_ANSWER: f32 = 1.25;

/// Choose the unit the measures make most likely, for a file on `grid`.
pub fn infer_scale(m: &Measures, grid: Option<EngineGrid>) -> ScaleGuess {
    let scored = ranked(m, grid);
    let best = scored[0];
    let other = |s: &&UnitScore| {
        let r = s.unit.metres / best.unit.metres;
        !(1.0 / SAME_ANSWER..=SAME_ANSWER).contains(&r)
    };
    let next = scored.iter().find(other).copied().unwrap_or(scored[1]);
    ScaleGuess {
        scale: best.unit.metres,
        unit: best.unit,
        total: best.total,
        margin: (best.total - best.kept) - (next.total - next.kept),
        next: next.unit,
        reason: format!(
            "{} ({}; confidence {}, next {})",
            best.unit.name,
            describe(m, &best),
            Confidence::of((best.total - best.kept) - (next.total - next.kept)),
            next.unit.name
        ),
    }
}

/// The map's extent across the up axis `up` (a unit axis) and along it.
pub fn extents(size: Vec3, up: Vec3) -> (f32, f32) {
    let along = size.dot(up.abs());
    let across = (size - up.abs() * along).length();
    (across, along)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stairs_sampled_sparsely_are_a_flight_at_their_own_rise() {
        // Treads every 0.17 m; floor samples missed the 3rd and 6th (a game arena's 3 m
        // wide stairs among 3,000 samples): still one flight, at 0.17, not at twice the
        // rise (its even treads), which would read a step as 0.34 m.
        let heights = [0.0, 0.17, 0.34, 0.68, 0.85, 1.19, 1.36];
        let f = stairs(&heights, 0.05);
        let rise = f.rise.expect("a flight");
        assert!((rise - 0.17).abs() < 1e-5, "{rise}");
        assert_eq!(f.in_a_row, 6);
        assert_eq!(f.treads, [false, true, true, true, true, true, true]);
    }

    #[test]
    fn furniture_at_chance_multiples_is_no_flight() {
        // A long nave's rail (0.17), pews' seats (0.45) and backs (0.9), a lectern
        // (0.68, 1.68): seats, backs and the lectern are on 0.225's multiples 2, 3 and 4
        // within 1%, but a flight's treads lie on its rise's multiples exactly, and the
        // rise the seats are on holds none of the rest.
        let f = stairs(&[0.0, 0.17, 0.45, 0.69, 0.9, 1.68], 0.11);
        assert_eq!(f.rise, None, "{:?}", f.rise);
        // A seat and a table: 9 and 15 are multiples of 3 but far apart.
        let f = stairs(&[0.0, 0.09, 0.15], 0.01);
        assert_eq!(f.rise, None);
        assert_eq!(f.in_a_row, 0);
    }

    #[test]
    fn a_ramps_levels_are_no_treads() {
        let mut heights: Vec<f32> = (0..10).map(|k| k as f32 * 0.1).collect();
        heights[3..].iter_mut().for_each(|h| *h = f32::NAN);
        assert_eq!(stairs(&heights, 0.01).rise, None);
    }

    #[test]
    fn a_short_flight_weighs_less_than_a_long_one() {
        let steps = vec![0.17];
        let m = |treads| Measures {
            steps: steps.clone(),
            flight_treads: treads,
            size: 20.0,
            ..Measures::default()
        };
        let metres = UNITS[0];
        let (short, long) = (score(&m(3), metres, false), score(&m(8), metres, false));
        let bare = score(
            &Measures {
                size: 20.0,
                ..Measures::default()
            },
            metres,
            false,
        );
        // A step of 0.17 m speaks for metres, the longer flight more so.
        assert!(short.total > bare.total);
        assert!(long.total > short.total);
    }
}
