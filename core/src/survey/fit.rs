//! Where a person fits, read at a unit: under the ceilings over the floors, between the
//! walls.
//!
//! A level is made for a body of one size (the designer's player), so at the right unit
//! the walker stands under most ceilings and fits between most walls. Read at too small
//! a unit, the walker is too big for the level: taller than its rooms (a Counter-Strike
//! map in centimetres: 1.8 m is 180 units, its rooms 128), wider than its streets (a town
//! in metres read as inches: a body 24 units across in streets of 12). That bounds the
//! unit from below whatever the level looks like; the other cues of [`super::scale`]
//! bound it from above (steps too high, tables too high to sit at). The tops of openings
//! seen sideways are no such bound: in a furnished room most are a table top's underside.

use super::measures::Measures;
use crate::collision::body::WALKER_RADII;
use crate::walk::WalkSettings;

/// How likely one reading is to fit at the level's right unit, for each kind (stand,
/// wide): nearly every ceiling over a main floor is over a person's head (a few are a
/// stair's underside, a table's); nearly every place is wide enough. Each reading that
/// fits counts `ln q`, each that does not `ln (1 - q)`: a level where a tenth of the
/// ceilings are low pays a little, one where most are pays much.
pub const FIT_LIKELIHOOD: [f32; 2] = [0.95, 0.95];
/// Weight of each fit cue's mean log likelihood in a unit's score.
pub const FIT_WEIGHT: f32 = 4.0;
/// Fewer readings of a cue than this and it says nothing.
const MIN_READINGS: usize = 12;

/// How much of the level a person fits in at one unit: a share of each kind of reading,
/// or `None` with too few readings.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fit {
    /// Of the free heights over the main floors, those the walker stands in.
    pub stand: Option<f32>,
    /// Of the floors looked along, those where the walker is narrower than the free
    /// width at every height from a step's to its head's.
    pub wide: Option<f32>,
}

impl Fit {
    /// How the fit weighs on a unit (natural log, 0 or less; see [`FIT_LIKELIHOOD`]),
    /// relative to a level where every reading fits.
    pub fn score(&self) -> f32 {
        [self.stand, self.wide]
            .iter()
            .zip(FIT_LIKELIHOOD)
            .filter_map(|(s, q)| s.map(|s| FIT_WEIGHT * (1.0 - s) * ((1.0 - q) / q).ln()))
            .sum()
    }
}

/// The share of `v` at least `min`, with enough readings.
fn share_at_least(v: &[f32], min: f32) -> Option<f32> {
    (v.len() >= MIN_READINGS)
        .then(|| v.iter().filter(|&&x| x >= min).count() as f32 / v.len() as f32)
}

/// How the walker fits the level measured by `m` (file units) at `metres` per unit.
pub fn fit(m: &Measures, metres: f32) -> Fit {
    let height = 2.0 * WALKER_RADII.y / metres;
    let width = 2.0 * WALKER_RADII.x / metres;
    let step = WalkSettings::default().max_step / metres;
    let judged: Vec<bool> = m
        .sideways
        .profiles
        .iter()
        .filter_map(|p| p.fits(width, step, height))
        .collect();
    Fit {
        stand: share_at_least(&m.storeys, height),
        wide: (judged.len() >= MIN_READINGS)
            .then(|| judged.iter().filter(|&&f| f).count() as f32 / judged.len() as f32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::samples::{PROFILE_HEIGHTS, Profile, Sideways};

    /// A level of `n` rooms 3 m high with corridors 1.2 m wide, in metres.
    fn rooms(n: usize) -> Measures {
        let heights: [f32; PROFILE_HEIGHTS] =
            std::array::from_fn(|k| 0.03 * 100f32.powf(k as f32 / 15.0));
        Measures {
            storeys: vec![3.0; n],
            sideways: Sideways {
                profiles: vec![
                    Profile {
                        heights,
                        widths: [1.2; PROFILE_HEIGHTS]
                    };
                    n
                ],
                ..Sideways::default()
            },
            size: 30.0,
            ..Measures::default()
        }
    }

    #[test]
    fn the_walker_fits_at_the_right_unit_and_not_at_one_too_small() {
        let m = rooms(20);
        let right = fit(&m, 1.0);
        assert_eq!(right.stand, Some(1.0));
        assert_eq!(right.wide, Some(1.0));
        assert_eq!(right.score(), 0.0);
        // Read as feet, rooms are 0.9 m high and corridors 0.37 m wide.
        let feet = fit(&m, 0.3048);
        assert_eq!((feet.stand, feet.wide), (Some(0.0), Some(0.0)));
        assert!(feet.score() < -20.0, "{}", feet.score());
        // Read as kilometres, the walker is tiny and fits everywhere: fit bounds a unit
        // from below only.
        assert_eq!(fit(&m, 1000.0).score(), 0.0);
    }

    #[test]
    fn few_readings_say_nothing() {
        assert_eq!(fit(&rooms(3), 0.01), Fit::default());
    }
}
