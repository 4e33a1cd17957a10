//! The three-step test of one move against one triangle, with the skin band.
//!
//! For a move `p0 -> p0 + d` and a triangle with plane `n . x = c`:
//!
//! 1. **Plane cross.** `s0 = n.p0 - c` and `s1 = n.(p0 + d) - c`. The side is the start's
//!    (the sign of `s0`, so walls work from both faces); `a0 = |s0|`, `a1` the end's
//!    distance on that side. The move reaches the wall when it approaches (`a1 < a0`, by
//!    more than [`PARALLEL_COSINE`]) and ends closer than [`SKIN`](crate::tolerance::SKIN)
//!    or beyond the plane.
//!    A start on the plane (`|s0| <= PLANE_EPSILON`) may leave to either side: no hit.
//! 2. **Intersection.** The stretch of the move inside the skin band starts where the move
//!    reaches distance `SKIN`, `t_in = (a0 - SKIN) / (a0 - a1)` (0 when it starts inside),
//!    and ends where it meets the plane, `t = a0 / (a0 - a1)` (the classic
//!    `s0 / (s0 - s1)`), or at the end of the move if it stops short of the plane.
//! 3. **Inside.** Both ends of that stretch, projected onto the plane, are tested with the
//!    chosen [`InsideMethod`]. If either is inside, the move hits at `t_in`: the point stops
//!    `SKIN` in front of the wall, or where it is if it was already closer.
//!
//! Testing the plane-crossing point makes tunnelling impossible whatever the speed: a move
//! that crosses the triangle always has that point inside it. Testing the band's entry
//! point too stops the eye at the skin distance. (Known limit: at a convex edge a move can
//! pass *beside* a face within the skin band, entering through the side of its prism; it
//! never passes through.)

use glam::Vec3;

use crate::geometry::{InsideMethod, Triangle};
use crate::tolerance::{PARALLEL_COSINE, PLANE_EPSILON};

/// The first contact of a move with the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Fraction of the move, in `[0, 1)`, at which the eye reaches the skin distance.
    pub t: f32,
    /// Index of the triangle in the world.
    pub triangle: u32,
    /// The triangle's unit normal, turned to face the side the move came from.
    pub normal: Vec3,
}

impl Hit {
    /// The earlier of two hits; equal times go to the lower triangle index, so that every
    /// traversal order (BVH or brute force) gives the very same answer.
    #[inline]
    pub fn earlier(self, other: Option<Hit>) -> Hit {
        match other {
            Some(o) if (o.t, o.triangle) <= (self.t, self.triangle) => o,
            _ => self,
        }
    }
}

/// How the skin band of one triangle is measured: its thickness along the plane's normal,
/// and the direction in which points are projected onto the plane (scaled so that
/// `normal . along = 1`). In world space that is `SKIN` and the normal itself; in a placed
/// model's own space both are what the world's are once transformed (see
/// [`crate::collision::instances`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Distance to keep from the plane, in the plane's own distance units.
    pub skin: f32,
    /// Projection direction onto the plane, with `normal . along = 1`.
    pub along: Vec3,
}

impl Band {
    /// The plain band: `skin` along the triangle's own normal.
    #[inline]
    pub fn orthogonal(tri: &Triangle, skin: f32) -> Band {
        Band {
            skin,
            along: tri.plane.normal,
        }
    }
}

/// Test the move `p0 -> p0 + d` (of length `len = |d| > 0`) against one triangle, keeping
/// the `band`'s skin away from its plane (normally [`SKIN`](crate::tolerance::SKIN)).
///
/// Returns the fraction of the move at which the eye reaches the skin distance and the
/// normal facing the start, or `None` when this triangle does not stop the move.
#[inline(always)]
pub fn hit_triangle(
    tri: &Triangle,
    p0: Vec3,
    d: Vec3,
    len: f32,
    method: InsideMethod,
    band: Band,
) -> Option<(f32, Vec3)> {
    let Band { skin, along } = band;
    // Step 1: signed distances of start and end, seen from the start's side.
    let n = tri.plane.normal;
    let s0 = tri.plane.signed_distance(p0);
    if s0.abs() <= PLANE_EPSILON {
        return None;
    }
    let side = s0.signum();
    let a0 = s0.abs();
    let approach = -side * n.dot(d); // how much closer the move ends
    if approach <= PARALLEL_COSINE * len {
        return None; // parallel, or moving away
    }
    let a1 = a0 - approach;
    if a1 >= skin {
        return None; // ends in front of the skin band
    }
    let facing = n * side;

    // Step 2: the stretch of the move inside the skin band.
    let t_in = ((a0 - skin) / approach).max(0.0);
    let t_plane = a0 / approach;

    // Step 3: its ends, projected onto the plane, inside the triangle?
    let inside = match method {
        InsideMethod::MollerTrumbore => {
            // The whole segment test in one, for the crossing point...
            let crossing = t_plane <= 1.0 && method.ray_hits(tri, p0, d).is_some();
            // ...and a ray along the projection direction for the band's entry and the
            // move's end.
            crossing
                || method.contains_point_along(tri, p0 + d * t_in, along)
                || (t_plane > 1.0 && method.contains_point_along(tri, p0 + d, along))
        }
        InsideMethod::AngleSum | InsideMethod::Barycentric => {
            // `along` has a unit component along the normal: stepping back by the signed
            // distance lands exactly on the plane.
            let entry = p0 + d * t_in - along * (side * (a0 - approach * t_in));
            let exit = if t_plane <= 1.0 {
                p0 + d * t_plane
            } else {
                p0 + d - along * (side * a1)
            };
            method.contains_point(tri, entry) || method.contains_point(tri, exit)
        }
    };
    inside.then_some((t_in, facing))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tolerance::SKIN;

    /// A 2 x 2 wall in the plane z = 0, facing +z.
    fn wall() -> Triangle {
        Triangle::new(
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        )
        .unwrap()
    }

    fn test(p0: Vec3, p1: Vec3) -> Vec<Option<(f32, Vec3)>> {
        let d = p1 - p0;
        InsideMethod::ALL
            .iter()
            .map(|m| {
                hit_triangle(
                    &wall(),
                    p0,
                    d,
                    d.length(),
                    *m,
                    Band::orthogonal(&wall(), SKIN),
                )
            })
            .collect()
    }

    #[test]
    fn head_on_crossing_stops_at_skin() {
        for r in test(Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 0.0, -1.0)) {
            let (t, n) = r.expect("hit");
            assert!((t - (1.0 - SKIN) / 2.0).abs() < 1e-6);
            assert_eq!(n, Vec3::Z);
        }
    }

    #[test]
    fn from_the_back_the_normal_faces_back() {
        for r in test(Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0)) {
            assert_eq!(r.expect("hit").1, -Vec3::Z);
        }
    }

    #[test]
    fn move_beside_the_triangle_misses() {
        for r in test(Vec3::new(3.0, 0.0, 1.0), Vec3::new(3.0, 0.0, -1.0)) {
            assert!(r.is_none());
        }
    }

    #[test]
    fn parallel_move_misses_even_inside_the_band() {
        let z = SKIN * 0.5;
        for r in test(Vec3::new(-0.5, 0.0, z), Vec3::new(0.5, 0.0, z)) {
            assert!(r.is_none());
        }
    }

    #[test]
    fn move_away_misses() {
        for r in test(Vec3::new(0.0, 0.0, 0.01), Vec3::new(0.0, 0.0, 1.0)) {
            assert!(r.is_none());
        }
    }

    #[test]
    fn move_ending_in_the_band_is_stopped_at_skin() {
        for r in test(Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 0.0, SKIN * 0.5)) {
            let (t, _) = r.expect("hit");
            let z = 1.0 + t * (SKIN * 0.5 - 1.0);
            assert!((z - SKIN).abs() < 1e-6);
        }
    }

    #[test]
    fn start_inside_band_moving_closer_is_held_where_it_is() {
        for r in test(Vec3::new(0.0, 0.0, SKIN * 0.5), Vec3::new(0.0, 0.0, -5.0)) {
            assert_eq!(r.expect("hit").0, 0.0);
        }
    }

    #[test]
    fn start_exactly_on_the_plane_may_leave_to_either_side() {
        for r in test(Vec3::ZERO, Vec3::new(0.0, 0.0, 1.0)) {
            assert!(r.is_none());
        }
        for r in test(Vec3::ZERO, Vec3::new(0.0, 0.0, -1.0)) {
            assert!(r.is_none());
        }
    }

    #[test]
    fn tunnelling_move_far_longer_than_the_wall_is_caught() {
        for r in test(Vec3::new(0.1, 0.1, 1000.0), Vec3::new(0.1, 0.1, -1000.0)) {
            let (t, _) = r.expect("hit");
            assert!((1000.0 - 2000.0 * t - SKIN).abs() < 0.01);
        }
    }

    #[test]
    fn crossing_through_an_edge_or_a_vertex_is_a_hit() {
        for p in [
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ] {
            for r in test(p + Vec3::Z, p - Vec3::Z) {
                assert!(r.is_some(), "{p}");
            }
        }
    }

    #[test]
    fn diagonal_move_over_the_edge_into_the_triangle_is_caught_at_the_plane() {
        // At skin height the move is still outside the edge y = -1; at the plane it is in.
        let p0 = Vec3::new(0.0, -1.0 - SKIN * 2.0, SKIN * 3.0);
        let p1 = Vec3::new(0.0, -1.0 + SKIN * 2.0, -SKIN);
        for r in test(p0, p1) {
            assert!(r.is_some());
        }
    }

    #[test]
    fn earlier_hit_prefers_lower_time_then_lower_index() {
        let h = |t, i| Hit {
            t,
            triangle: i,
            normal: Vec3::Z,
        };
        assert_eq!(h(0.5, 3).earlier(Some(h(0.2, 9))).triangle, 9);
        assert_eq!(h(0.5, 3).earlier(Some(h(0.5, 1))).triangle, 1);
        assert_eq!(h(0.5, 3).earlier(Some(h(0.5, 4))).triangle, 3);
        assert_eq!(h(0.5, 3).earlier(None).triangle, 3);
    }
}
