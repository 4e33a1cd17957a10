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

use super::pockets::FreeSpace;
use super::samples::{self, Run};
use crate::collision::CollisionWorld;

/// The units a file may be written in, with their metres per unit and the prior weight
/// of each (metres most likely; then centimetres, which game engines write; then
/// millimetres, inches and feet, which CAD and architecture tools write, alike).
pub const UNITS: [Unit; 5] = [
    Unit {
        name: "metres",
        metres: 1.0,
        prior: 0.55,
    },
    Unit {
        name: "centimetres",
        metres: 0.01,
        prior: 0.2,
    },
    Unit {
        name: "millimetres",
        metres: 0.001,
        prior: 0.1,
    },
    Unit {
        name: "inches",
        metres: 0.0254,
        prior: 0.1,
    },
    Unit {
        name: "feet",
        metres: 0.3048,
        prior: 0.1,
    },
];

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

/// A unit of length a file may use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unit {
    /// Its name, plural.
    pub name: &'static str,
    /// Metres per unit.
    pub metres: f32,
    /// Prior weight among [`UNITS`].
    pub prior: f32,
}

/// A component of a log-normal mixture: a typical size in metres, a spread (natural log)
/// and a weight.
struct Mode(f32, f32, f32);

/// A cue's mixture: its modes, and the weight of anything else.
struct Mixture {
    modes: &'static [Mode],
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
/// The rise of one step.
const STEPS: Mixture = Mixture {
    modes: &[Mode(0.17, 0.15, 0.6)],
    other: 0.4,
};
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
const METRES_STOREYS: (f32, f32) = (2.2, 25.0);
/// Main floors under ceilings, and as many under the sky, looked along sideways.
const SIDEWAYS_RUNS: usize = 100;

/// The inferred scale and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleGuess {
    /// World units (metres) per file unit.
    pub scale: f32,
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
    let tol = (height * LEVEL_TOLERANCE).max(f32::MIN_POSITIVE);
    // Under the sky, "things" would be every roof over the ground: only under ceilings
    // do things stand in rooms (outdoors, what rises from the ground is seen sideways).
    let (covered, open): (Vec<&Run>, Vec<&Run>) = runs.iter().partition(|r| r.height.is_some());
    let mut m = Measures {
        size,
        ..Measures::default()
    };
    let mut main_floors = Vec::new();
    // Samples under one ceiling, and the most common level among them: the main floor.
    // The largest groups first: they are the rooms whose floors are looked along sideways.
    let mut groups = clusters(covered, tol, |r| r.ceiling().unwrap_or(0.0));
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    for group in groups {
        let levels = clusters(group, tol, |r| r.level);
        let Some(main) = levels.iter().max_by_key(|l| l.len()) else {
            continue;
        };
        let floor = main[0].level;
        // In tolerance steps over the main floor, each level once.
        let steps_of = |l: &[&Run]| ((l[0].level - floor) / tol).round() as i64;
        let keys: Vec<i64> = levels.iter().map(|l| steps_of(l)).collect();
        // A flight of stairs is levels on whole multiples of one rise: the rise is a step,
        // and the treads are no things (k steps up they would fit any height at all).
        let flights = stairs(&keys, 0);
        m.steps
            .extend(flights.rises.iter().map(|&k| k as f32 * tol));
        m.flight_treads = m.flight_treads.max(flights.in_a_row);
        for (level, k) in levels.iter().zip(&keys) {
            if *k == 0 {
                m.storeys.extend(level.iter().filter_map(|r| r.height));
                main_floors.extend(level.iter().map(|r| **r));
            } else if *k > 0 && !flights.treads.contains(k) {
                let above = level[0].level - floor;
                m.things.extend(level.iter().map(|_| above));
            }
        }
    }
    let open: Vec<Run> = open.into_iter().copied().collect();
    main_floors.truncate(SIDEWAYS_RUNS);
    main_floors.extend(open.iter().take(SIDEWAYS_RUNS).copied());
    m.sideways = samples::sideways(world, &main_floors, up, height, 2 * SIDEWAYS_RUNS);
    m
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

/// A flight of stairs among a group's levels (see [`stairs`]): its rise, and its treads.
struct Flights {
    rises: Vec<i64>,
    treads: std::collections::BTreeSet<i64>,
    /// The most treads of the flight found in a row (0: none).
    in_a_row: usize,
}

/// Levels on whole multiples of one rise that make a flight of stairs.
const FLIGHT: usize = 3;
/// Treads a flight's run may miss between two it holds.
const MISSED_TREADS: i64 = 1;
/// A rise of fewer tolerance steps than this is noise, not a step.
const MIN_RISE_STEPS: i64 = 3;
/// The most treads a flight is looked for over a floor.
const MAX_TREADS: i64 = 40;

/// Find the flights among the sorted `levels` over the `main` floor (in tolerance steps).
/// A flight is a rise `r` such that levels lie (within a step of tolerance) on at least
/// [`FLIGHT`] consecutive whole multiples of `r` over the main floor (one missed tread
/// allowed between two); the rises tried are
/// the gaps between neighbouring levels and the first levels' heights divided by 1 to 3,
/// and of those that make flights, the one holding most levels (the larger on a tie: half
/// a rise holds the same levels) wins. Its other levels on multiples of `r` count as its
/// treads too (floor samples miss some treads).
fn stairs(levels: &[i64], main: i64) -> Flights {
    let above: Vec<i64> = levels
        .iter()
        .map(|&k| k - main)
        .filter(|&k| k > 0)
        .collect();
    let mut tried: Vec<i64> = above.windows(2).map(|w| w[1] - w[0]).collect();
    for &k in above.iter().take(4) {
        tried.extend((1..=3).map(|d| k / d));
    }
    tried.retain(|&r| r >= MIN_RISE_STEPS);
    tried.sort_unstable();
    tried.dedup();
    let on = |r: i64| -> Vec<i64> {
        above
            .iter()
            .copied()
            .filter(|&k| {
                let m = (k + r / 2) / r;
                (1..=MAX_TREADS).contains(&m) && (k - m * r).abs() <= 1
            })
            .collect()
    };
    // The longest run of consecutive multiples (m, m + 1, ...) among the levels on `r`,
    // one missed tread allowed between two (floor samples are sparse on small treads):
    // a flight's treads follow one another; furniture at chance multiples does not.
    let longest_run = |r: i64, held: &[i64]| {
        let mut multiples: Vec<i64> = held.iter().map(|k| (k + r / 2) / r).collect();
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
            let held = on(r);
            let in_a_row = longest_run(r, &held);
            (r, held, in_a_row)
        })
        .filter(|(_, _, in_a_row)| *in_a_row >= FLIGHT)
        .max_by_key(|(r, held, _)| (held.len(), *r));
    match best {
        Some((r, held, in_a_row)) => Flights {
            rises: vec![r],
            treads: held.into_iter().map(|k| k + main).collect(),
            in_a_row,
        },
        None => Flights {
            rises: Vec::new(),
            treads: Default::default(),
            in_a_row: 0,
        },
    }
}

/// How plausible the storeys are in `metres` per unit: their median is most likely in
/// [`ROOMS`], likely with [`HALL_WEIGHT`] up to the end of [`HALLS`], and less so by a
/// log-normal falloff outside; `None` with too few.
fn storey_fit(storeys: &[f32], metres: f32) -> Option<f32> {
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
    let level = if x <= ROOMS.1 { 0.0 } else { HALL_WEIGHT.ln() };
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
    /// Each cue's mean log density, when it had enough readings: storeys, things,
    /// steps, rises, drops.
    pub cues: [Option<f32>; 5],
}

/// Score `unit` against the measures.
pub fn score(m: &Measures, unit: Unit) -> UnitScore {
    let s = unit.metres;
    let cues = [
        storey_fit(&m.storeys, s),
        cue(&THINGS, &m.things, s),
        cue_of(&STEPS, &m.steps, s, MIN_FLIGHTS),
        cue(&RISES, &m.sideways.rises, s),
        cue(&DROPS, &m.sideways.drops, s),
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
    let kept = if unit.metres == 1.0 && plausible_metres(&m.storeys) {
        PLAUSIBLE_METRES_BONUS
    } else {
        0.0
    };
    UnitScore {
        unit,
        total: unit.prior.ln() + kept + evidence + size_penalty(m.size * s),
        cues,
    }
}

/// Storeys whose median lies in [`METRES_STOREYS`] read as metres.
fn plausible_metres(storeys: &[f32]) -> bool {
    median(storeys).is_some_and(|h| (METRES_STOREYS.0..=METRES_STOREYS.1).contains(&h))
}

/// Every unit scored, best first.
pub fn ranked(m: &Measures) -> Vec<UnitScore> {
    let mut scored: Vec<UnitScore> = UNITS.iter().map(|&u| score(m, u)).collect();
    scored.sort_by(|a, b| b.total.total_cmp(&a.total));
    // A file may be in a unit of its own (a scene modelled to no standard unit): read at
    // the scale that makes its typical storey a room's height, it goes first when the
    // things on its floors stand at a person's heights there clearly better than at the
    // best standard unit (only the things: openings and steps could be lined up with a
    // person's sizes by choosing the scale).
    // Not when the storeys read as metres: a hall in metres is no unit of its own.
    if let Some(h) = median(&m.storeys).filter(|_| !plausible_metres(&m.storeys)) {
        let own = score(
            m,
            Unit {
                name: OWN_NAME,
                metres: OWN_STOREY / h,
                prior: 1.0,
            },
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
        if clearer {
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

/// Choose the unit the measures make most likely.
pub fn infer_scale(m: &Measures) -> ScaleGuess {
    let scored = ranked(m);
    let (best, next) = (scored[0], scored[1]);
    ScaleGuess {
        scale: best.unit.metres,
        reason: format!(
            "{} ({}; confidence {}, next {})",
            best.unit.name,
            describe(m, &best),
            confidence(best.total - next.total),
            next.unit.name
        ),
    }
}

/// A margin between the best hypothesis and the next (natural log), in words.
pub fn confidence(margin: f32) -> &'static str {
    match margin {
        x if x > 3.0 => "high",
        x if x > 1.0 => "fair",
        _ => "low",
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
        // Treads every 3 tolerance steps; floor samples missed the 3rd and 6th (a game
        // arena's 3 m wide stairs among 3,000 samples): still one flight, at rise 3, not
        // at twice the rise (its even treads), which would read a step as 0.34 m.
        let f = stairs(&[0, 3, 6, 12, 15, 21, 24], 0);
        assert_eq!(f.rises, vec![3]);
        assert_eq!(f.in_a_row, 6);
        assert!(f.treads.contains(&21));
    }

    #[test]
    fn two_things_at_chance_multiples_are_no_flight() {
        // A seat and a table: levels 9 and 15 are multiples of 3 but far apart.
        let f = stairs(&[0, 9, 15], 0);
        assert!(f.rises.is_empty());
        assert_eq!(f.in_a_row, 0);
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
        let (short, long) = (score(&m(3), metres), score(&m(8), metres));
        let bare = score(
            &Measures {
                size: 20.0,
                ..Measures::default()
            },
            metres,
        );
        // A step of 0.17 m speaks for metres, the longer flight more so.
        assert!(short.total > bare.total);
        assert!(long.total > short.total);
    }
}
