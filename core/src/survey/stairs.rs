//! Flights of stairs among the levels under one ceiling: levels on whole multiples of
//! one rise, one after another. The rise is a cue to the unit (a step is 0.15 to 0.2 m);
//! the treads are no things standing on the floor.

/// A flight of stairs among a group's levels (see [`stairs`]).
pub(super) struct Flights {
    /// Its rise (the levels' units), if a flight was found.
    pub(super) rise: Option<f32>,
    /// For each level given, whether it is one of the flight's treads.
    pub(super) treads: Vec<bool>,
    /// The most treads of the flight found in a row (0: none).
    pub(super) in_a_row: usize,
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
pub(super) fn stairs(heights: &[f32], tol: f32) -> Flights {
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
}
