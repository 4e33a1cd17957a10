//! Step 3 of the collision test: is a point of the plane inside the triangle?
//!
//! Three interchangeable methods, chosen at run time:
//!
//! - [`InsideMethod::AngleSum`]: the classic tutorial test. From the point, the angles
//!   subtended by the three edges sum to `2 pi` exactly when the point is inside. It needs
//!   three `acos`, and it is ill-conditioned near the edges: there the angle between the two
//!   edge vertices nears `pi`, where `acos` has an infinite slope, so a rounding error of one
//!   `f32` ulp in the dot product becomes `sqrt(2 ulp)`, about 3e-4 rad, in the sum. The
//!   tolerance [`ANGLE_SUM_EPSILON`] must be larger than that, and then a point outside an
//!   edge by less than about `ANGLE_SUM_EPSILON / 4` times its distance to the edge's
//!   vertices still counts as inside (a test shows one). On a vertex the angles are
//!   undefined and the point counts as inside.
//! - [`InsideMethod::Barycentric`] (default): the barycentric coordinates of the point,
//!   from precomputed dot products (Ericson, *Real-Time Collision Detection*, 3.4). No
//!   trigonometry, edges inclusive within [`BARYCENTRIC_EPSILON`].
//! - [`InsideMethod::MollerTrumbore`]: the whole ray-triangle test in one (Möller and
//!   Trumbore, "Fast, Minimum Storage Ray/Triangle Intersection", 1997): it finds the ray's
//!   parameter at the plane and the barycentric coordinates together, without the plane.

use crate::text::names::named;
use glam::Vec3;

use super::Triangle;
use crate::tolerance::{ANGLE_SUM_EPSILON, BARYCENTRIC_EPSILON};

/// Which point-in-triangle test the collision world uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InsideMethod {
    /// Angles from the point to each vertex pair sum to `2 pi`.
    AngleSum,
    /// Barycentric coordinates all non-negative (the default).
    #[default]
    Barycentric,
    /// Möller–Trumbore ray-triangle intersection.
    MollerTrumbore,
}

impl InsideMethod {
    /// Does the ray `origin + t dir` meet the triangle? For the point methods the ray must
    /// not be parallel to the plane; the point tested is where it meets the plane.
    ///
    /// Returns the ray parameter at the triangle's plane when the meeting point is inside
    /// (edges included). Any `t` is accepted, negative too: the caller decides the range.
    #[inline]
    pub fn ray_hits(self, tri: &Triangle, origin: Vec3, dir: Vec3) -> Option<f32> {
        match self {
            InsideMethod::MollerTrumbore => moller_trumbore(tri, origin, dir).map(|hit| hit.t),
            InsideMethod::AngleSum | InsideMethod::Barycentric => {
                let denom = tri.plane.normal.dot(dir);
                if denom == 0.0 {
                    return None;
                }
                let t = -tri.plane.signed_distance(origin) / denom;
                let q = origin + dir * t;
                self.contains_point(tri, q).then_some(t)
            }
        }
    }

    /// Is `q` (a point of the triangle's plane) inside the triangle, edges included?
    /// Möller–Trumbore answers with a ray along the normal through `q`.
    #[inline]
    pub fn contains_point(self, tri: &Triangle, q: Vec3) -> bool {
        match self {
            InsideMethod::AngleSum => angle_sum_contains(tri, q),
            InsideMethod::Barycentric => barycentric_contains(tri, q),
            InsideMethod::MollerTrumbore => {
                let n = tri.plane.normal;
                moller_trumbore(tri, q + n, -n).is_some()
            }
        }
    }
}

impl InsideMethod {
    /// Is the point where the line through `q` along `along` meets the triangle's plane
    /// inside the triangle? (`along` must not be parallel to the plane; with the unit
    /// normal this is [`contains_point`](Self::contains_point) of the orthogonal
    /// projection.)
    #[inline]
    pub fn contains_point_along(self, tri: &Triangle, q: Vec3, along: Vec3) -> bool {
        match self {
            InsideMethod::MollerTrumbore => moller_trumbore(tri, q + along, -along).is_some(),
            InsideMethod::AngleSum | InsideMethod::Barycentric => {
                let denom = tri.plane.normal.dot(along);
                if denom == 0.0 {
                    return false;
                }
                self.contains_point(tri, q - along * (tri.plane.signed_distance(q) / denom))
            }
        }
    }
}

named!(InsideMethod, "point-in-triangle method" {
    AngleSum => "angle-sum" | "anglesum" | "angle",
    Barycentric => "barycentric" | "bary",
    MollerTrumbore => "moller-trumbore" | "möller-trumbore" | "mt",
});

/// The classic test: the angles at `q` between the directions to each pair of vertices
/// sum to `2 pi` when `q` is inside (or on an edge), less when it is outside.
pub fn angle_sum_contains(tri: &Triangle, q: Vec3) -> bool {
    let [a, b, c] = tri.vertices();
    // On a vertex the direction is undefined: the point is on the triangle.
    let (Some(va), Some(vb), Some(vc)) = (
        (a - q).try_normalize(),
        (b - q).try_normalize(),
        (c - q).try_normalize(),
    ) else {
        return true;
    };
    let angle = |x: Vec3, y: Vec3| x.dot(y).clamp(-1.0, 1.0).acos();
    let sum = angle(va, vb) + angle(vb, vc) + angle(vc, va);
    (sum - std::f32::consts::TAU).abs() <= ANGLE_SUM_EPSILON
}

/// Barycentric test: all three coordinates at least `-BARYCENTRIC_EPSILON`.
#[inline]
pub fn barycentric_contains(tri: &Triangle, q: Vec3) -> bool {
    tri.barycentric(q).min() >= -BARYCENTRIC_EPSILON
}

/// Where a line meets a triangle (Möller–Trumbore's answer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineHit {
    /// Line parameter: the point is `origin + t dir`.
    pub t: f32,
    /// Barycentric weight of corner `b`.
    pub v: f32,
    /// Barycentric weight of corner `c`.
    pub w: f32,
}

/// Möller–Trumbore (1997): where the line `origin + t dir` meets the triangle, or `None`
/// when it is parallel to it or passes outside.
#[inline]
pub fn moller_trumbore(tri: &Triangle, origin: Vec3, dir: Vec3) -> Option<LineHit> {
    let (e1, e2) = (tri.e1(), tri.e2());
    let p = dir.cross(e2);
    let det = e1.dot(p);
    // Exactly parallel (or degenerate input): nothing to divide by.
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let inv = 1.0 / det;
    let s = origin - tri.a;
    let v = s.dot(p) * inv;
    if !(-BARYCENTRIC_EPSILON..=1.0 + BARYCENTRIC_EPSILON).contains(&v) {
        return None;
    }
    let q = s.cross(e1);
    let w = dir.dot(q) * inv;
    if w < -BARYCENTRIC_EPSILON || v + w > 1.0 + BARYCENTRIC_EPSILON {
        return None;
    }
    let t = e2.dot(q) * inv;
    t.is_finite().then_some(LineHit { t, v, w })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::names::Named;

    fn tri() -> Triangle {
        Triangle::new(
            Vec3::ZERO,
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        )
        .unwrap()
    }

    #[test]
    fn method_names_round_trip() {
        for &m in InsideMethod::ALL {
            assert_eq!(m.name().parse::<InsideMethod>().unwrap(), m);
            assert_eq!(m.to_string(), m.name());
        }
        assert_eq!(
            "nope".parse::<InsideMethod>().unwrap_err().to_string(),
            "unknown point-in-triangle method 'nope' (expected angle-sum, barycentric or moller-trumbore)"
        );
    }

    #[test]
    fn cycling_visits_every_method() {
        let mut m = InsideMethod::Barycentric;
        let mut seen = vec![m];
        for _ in 0..2 {
            m = m.next();
            seen.push(m);
        }
        assert_eq!(m.next(), InsideMethod::Barycentric);
        seen.sort_by_key(|m| m.name());
        seen.dedup();
        assert_eq!(seen.len(), 3);
    }

    #[test]
    fn all_methods_accept_interior_and_reject_exterior() {
        let t = tri();
        for &m in InsideMethod::ALL {
            assert!(m.contains_point(&t, Vec3::new(0.5, 0.5, 0.0)), "{m}");
            assert!(!m.contains_point(&t, Vec3::new(1.5, 1.5, 0.0)), "{m}");
            assert!(!m.contains_point(&t, Vec3::new(-0.5, 0.5, 0.0)), "{m}");
        }
    }

    #[test]
    fn all_methods_accept_points_on_edges_and_vertices() {
        let t = tri();
        let on = [
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::ZERO,
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        ];
        for &m in InsideMethod::ALL {
            for q in on {
                assert!(m.contains_point(&t, q), "{m} at {q}");
            }
        }
    }

    #[test]
    fn vertex_order_does_not_change_the_answer() {
        let (a, b, c) = (
            Vec3::new(0.3, -1.0, 2.0),
            Vec3::new(4.0, 0.5, 1.0),
            Vec3::new(1.0, 3.0, -2.0),
        );
        let orders = [
            [a, b, c],
            [a, c, b],
            [b, a, c],
            [b, c, a],
            [c, a, b],
            [c, b, a],
        ];
        let tris: Vec<Triangle> = orders
            .iter()
            .map(|[x, y, z]| Triangle::new(*x, *y, *z).unwrap())
            .collect();
        let probes = [
            tris[0].centroid(),
            tris[0].project(Vec3::new(10.0, 10.0, 10.0)),
            tris[0].project(a * 0.5 + b * 0.5 + Vec3::Y),
        ];
        for &m in InsideMethod::ALL {
            for q in probes {
                let first = m.contains_point(&tris[0], q);
                for t in &tris {
                    assert_eq!(m.contains_point(t, q), first, "{m} {q}");
                }
            }
        }
    }

    #[test]
    fn moller_trumbore_gives_parameter_and_weights() {
        let t = tri();
        let LineHit { t: s, v, w } =
            moller_trumbore(&t, Vec3::new(0.5, 0.5, 4.0), Vec3::new(0.0, 0.0, -2.0)).unwrap();
        assert!((s - 2.0).abs() < 1e-6);
        assert!((v - 0.25).abs() < 1e-6 && (w - 0.25).abs() < 1e-6);
        assert!(
            moller_trumbore(&t, Vec3::new(0.5, 0.5, 4.0), Vec3::X).is_none(),
            "parallel"
        );
    }

    #[test]
    fn ray_hits_agree_with_plane_parameter() {
        let t = tri();
        for &m in InsideMethod::ALL {
            let s = m
                .ray_hits(&t, Vec3::new(0.5, 0.5, 3.0), Vec3::new(0.0, 0.0, -1.0))
                .unwrap();
            assert!((s - 3.0).abs() < 1e-5, "{m}");
            assert!(
                m.ray_hits(&t, Vec3::new(3.0, 3.0, 3.0), Vec3::new(0.0, 0.0, -1.0))
                    .is_none()
            );
        }
    }

    /// Where the methods differ: just outside an edge, angle-sum still says inside, because
    /// its tolerance must cover the rounding of `acos` near `pi`. Barycentric and
    /// Möller–Trumbore reject the same point.
    #[test]
    fn angle_sum_accepts_points_just_outside_an_edge() {
        let t = tri();
        let q = Vec3::new(1.0, -1e-4, 0.0); // 0.1 mm below the edge y = 0 of a 2 m triangle
        assert!(angle_sum_contains(&t, q));
        assert!(!barycentric_contains(&t, q));
        assert!(!InsideMethod::MollerTrumbore.contains_point(&t, q));
        // Far enough out, every method agrees again.
        let q = Vec3::new(1.0, -0.05, 0.0);
        for &m in InsideMethod::ALL {
            assert!(!m.contains_point(&t, q), "{m}");
        }
    }
}
