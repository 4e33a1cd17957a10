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

use super::Confidence;
use super::fit::fit;
use super::grid::EngineGrid;
use super::measures::{MIN_READINGS, Measures};
pub use super::units::{UNITS, Unit};
use super::units::{heard, hypotheses};
use crate::map::header::{Header, Tool};

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
/// The map across is plausible between these, metres (a room; a landscape).
const SIZE_RANGE: (f32, f32) = (3.0, 2_000.0);
/// Extra log weight of metres when the storeys are plausible in metres: halls and naves
/// included, since a wrong guess is worse than none.
const PLAUSIBLE_METRES_BONUS: f32 = 4.0;
/// Storeys (file units) plausible in metres.
const METRES_STOREYS: (f32, f32) = (2.2, 8.0);

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
    /// The answer to offer instead: the most likely unit that differs by more than
    /// [`SAME_ANSWER`] and makes a world a person fits (see [`a_person_fits`]); the
    /// chosen unit when none does.
    pub offered: Unit,
    /// A sentence for the user: the unit, the cues and how they agree.
    pub reason: String,
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

/// Every unit a file on `grid` may be in scored, best first, with what its header
/// `said` weighed in (see [`heard`]). A level on an editor's grid, or written by a game's
/// tool, is a game level.
pub fn ranked(m: &Measures, grid: Option<EngineGrid>, said: &Header) -> Vec<UnitScore> {
    let game = grid.is_some() || said.tool.is_some_and(Tool::writes_game_levels);
    let mut scored: Vec<UnitScore> = heard(hypotheses(grid, m.doom_like()), said)
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
                metres: super::units::short_decimal(f64::from(OWN_STOREY) / f64::from(h)),
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

/// The typical storey, metres, a person fits: over the walker's head, up to a nave's.
const PERSON_STOREYS: (f32, f32) = (2.0, HALLS.1);
/// The least share of the storeys the walker stands under for a person to fit.
const PERSON_STANDS: f32 = 0.5;
/// The typical thing on a floor, metres, a person uses: from a low seat to a counter.
const PERSON_THINGS: (f32, f32) = (0.3, 1.2);

/// Whether the level measured by `m` at `metres` a unit is a world a person fits: its
/// typical storey in [`PERSON_STOREYS`] and over the walker in most places (see [`fit`]),
/// and its typical thing on a floor, where it has enough, in [`PERSON_THINGS`]; a level
/// without storeys (open ground), its size in [`SIZE_RANGE`]. What the window offers
/// instead of a reading must be such a world: a conference room offered in inches had
/// tables 2.7 m high.
pub fn a_person_fits(m: &Measures, metres: f32) -> bool {
    let things = median(&m.things)
        .is_none_or(|t| (PERSON_THINGS.0..=PERSON_THINGS.1).contains(&(t * metres)));
    match median(&m.storeys) {
        Some(h) => {
            things
                && (PERSON_STOREYS.0..=PERSON_STOREYS.1).contains(&(h * metres))
                && fit(m, metres).stand.is_none_or(|s| s >= PERSON_STANDS)
        }
        None => things && (SIZE_RANGE.0..=SIZE_RANGE.1).contains(&(m.size * metres)),
    }
}

/// Two scales within this factor of each other are one answer: the next most likely
/// scale is the best one that differs by more.
pub const SAME_ANSWER: f32 = 1.25;

/// Choose the unit the measures make most likely, from their ranking ([`ranked`]), saying
/// its confidence as at most `most`.
pub fn infer_scale(m: &Measures, scored: &[UnitScore], most: Confidence) -> ScaleGuess {
    let best = scored[0];
    let other = |s: &&UnitScore| {
        let r = s.unit.metres / best.unit.metres;
        !(1.0 / SAME_ANSWER..=SAME_ANSWER).contains(&r)
    };
    let next = scored.iter().find(other).copied().unwrap_or(scored[1]);
    // What the window may offer instead: the likeliest other answer that makes a world a
    // person fits, else none (the chosen one again).
    let offered = scored
        .iter()
        .filter(other)
        .find(|s| a_person_fits(m, s.unit.metres))
        .map_or(best.unit, |s| s.unit);
    ScaleGuess {
        scale: best.unit.metres,
        unit: best.unit,
        total: best.total,
        margin: (best.total - best.kept) - (next.total - next.kept),
        next: next.unit,
        offered,
        reason: format!(
            "{} ({}; confidence {}, next {})",
            best.unit.name,
            describe(m, &best),
            Confidence::of((best.total - best.kept) - (next.total - next.kept)).min(most),
            next.unit.name
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Only a world a person fits is offered instead of a reading: a furnished room is
    /// not offered at a unit that makes its tables 2.3 m high, nor one that makes it too
    /// low to stand in; a bare hall may be offered as a room and a room as a hall.
    #[test]
    fn an_answer_offered_instead_is_a_world_a_person_fits() {
        let level = |storey: f32, things: Vec<f32>| Measures {
            storeys: vec![storey; 20],
            things,
            size: 20.0 * storey,
            ..Measures::default()
        };
        // A room 548.8 units high with seats at 90 units, read at 0.0051 m a unit (2.8 m,
        // seats 0.46 m): inches make it 13.9 m with seats 2.3 m high.
        let room = level(548.8, vec![90.0; 20]);
        assert!(a_person_fits(&room, 0.0051));
        assert!(!a_person_fits(&room, 0.0254));
        assert!(!a_person_fits(&room, 0.001), "0.55 m high");
        // A bare hall 9.84 units high: 3 m as feet, 9.84 m as metres; both fit.
        let hall = level(9.84, Vec::new());
        assert!(a_person_fits(&hall, 0.3048));
        assert!(a_person_fits(&hall, 1.0));
        assert!(!a_person_fits(&hall, 0.01));
    }
}
