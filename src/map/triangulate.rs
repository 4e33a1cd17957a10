//! Polygons to triangles.
//!
//! tobj's own triangulation fans every polygon from its first vertex, which is wrong for
//! a concave polygon (the fan covers area outside it). We triangulate ourselves: a convex
//! polygon is fanned, a concave one is ear-clipped (Eberly, "Triangulation by Ear
//! Clipping", 2002) in its own plane (Newell's normal).

use glam::{Vec2, Vec3};

/// How a polygon was triangulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Fewer than three distinct corners, or no area: nothing to draw or collide with.
    Degenerate,
    /// Convex (or a triangle): fanned.
    Convex,
    /// Concave: ear-clipped.
    Concave,
    /// Self-intersecting or otherwise not clippable: fanned as a last resort.
    Fallback,
}

/// Triangulate a polygon given by its corner positions. Appends triangles as triples of
/// corner indices (`0..points.len()`) to `out`.
pub fn triangulate(points: &[Vec3], out: &mut Vec<[usize; 3]>) -> Kind {
    let n = points.len();
    if n < 3 {
        return Kind::Degenerate;
    }
    if n == 3 {
        out.push([0, 1, 2]);
        return Kind::Convex;
    }
    // Newell's normal: robust for any planar (or nearly planar) polygon.
    let mut normal = Vec3::ZERO;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        normal += Vec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        );
    }
    let Some(normal) = normal.try_normalize() else {
        return Kind::Degenerate;
    };
    // A 2D frame in the polygon's plane, counter-clockwise seen from the normal.
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let flat: Vec<Vec2> = points
        .iter()
        .map(|p| Vec2::new(p.dot(u), p.dot(v)))
        .collect();
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);

    let convex = (0..n).all(|i| cross(flat[i], flat[(i + 1) % n], flat[(i + 2) % n]) >= 0.0);
    if convex {
        out.extend((1..n - 1).map(|i| [0, i, i + 1]));
        return Kind::Convex;
    }

    let mut ring: Vec<usize> = (0..n).collect();
    let start = out.len();
    while ring.len() > 3 {
        let m = ring.len();
        let ear = (0..m).find(|&i| {
            let (a, b, c) = (ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]);
            if cross(flat[a], flat[b], flat[c]) <= 0.0 {
                return false; // reflex corner
            }
            // No other corner inside the candidate ear.
            ring.iter().all(|&p| {
                p == a
                    || p == b
                    || p == c
                    || cross(flat[a], flat[b], flat[p]) < 0.0
                    || cross(flat[b], flat[c], flat[p]) < 0.0
                    || cross(flat[c], flat[a], flat[p]) < 0.0
            })
        });
        let Some(i) = ear else {
            // Self-intersecting: no ear exists. Fall back to a fan of what is left.
            out.truncate(start);
            out.extend((1..n - 1).map(|i| [0, i, i + 1]));
            return Kind::Fallback;
        };
        let m = ring.len();
        out.push([ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]]);
        ring.remove(i);
    }
    out.push([ring[0], ring[1], ring[2]]);
    Kind::Concave
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(points: &[Vec3], tris: &[[usize; 3]]) -> f32 {
        tris.iter()
            .map(|[a, b, c]| {
                (points[*b] - points[*a])
                    .cross(points[*c] - points[*a])
                    .length()
                    / 2.0
            })
            .sum()
    }

    #[test]
    fn square_is_fanned_into_two_triangles() {
        let sq = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
        let mut out = vec![];
        assert_eq!(triangulate(&sq, &mut out), Kind::Convex);
        assert_eq!(out.len(), 2);
        assert!((area(&sq, &out) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn concave_l_shape_is_ear_clipped_with_its_true_area() {
        // An L: 2 x 2 square minus its top-right 1 x 1 quarter; area 3.
        // Fanned from vertex 0 it would cover the missing quarter too (area 4).
        let l = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        ];
        for shift in 0..6 {
            let rotated: Vec<Vec3> = (0..6).map(|i| l[(i + shift) % 6]).collect();
            let mut out = vec![];
            assert_eq!(triangulate(&rotated, &mut out), Kind::Concave);
            assert_eq!(out.len(), 4);
            assert!((area(&rotated, &out) - 3.0).abs() < 1e-5, "shift {shift}");
        }
    }

    #[test]
    fn clockwise_concave_polygon_in_another_plane_works() {
        // The same L, reversed and standing in the YZ plane.
        let l: Vec<Vec3> = [(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]
            .iter()
            .rev()
            .map(|&(a, b)| Vec3::new(5.0, a, b))
            .collect();
        let mut out = vec![];
        assert_eq!(triangulate(&l, &mut out), Kind::Concave);
        assert!((area(&l, &out) - 3.0).abs() < 1e-5);
    }

    #[test]
    fn degenerate_polygons_give_nothing() {
        let mut out = vec![];
        assert_eq!(
            triangulate(&[Vec3::ZERO, Vec3::X], &mut out),
            Kind::Degenerate
        );
        assert_eq!(
            triangulate(
                &[Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0],
                &mut out
            ),
            Kind::Degenerate
        );
        assert!(out.is_empty());
    }
}
