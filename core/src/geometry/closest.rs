//! The point of a triangle closest to a point, and the feature (face, edge or corner)
//! it lies on: what the swept-body test starts from, and what the levels of detail
//! measure their error by.

use glam::DVec3;

/// Which part of a triangle a point lies on (or a body touches).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The inside of the face.
    Face,
    /// One of the three edges (between its ends).
    Edge,
    /// One of the three corners.
    Vertex,
}

/// The point of a triangle closest to a point, and which feature it lies on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoint {
    /// The closest point of the triangle.
    pub point: DVec3,
    /// Face, edge or vertex.
    pub feature: Feature,
}

/// The point of triangle `[a, b, c]` closest to `p`, by Voronoi regions (Ericson,
/// *Real-Time Collision Detection*, 5.1.5).
pub fn closest_point(p: DVec3, [a, b, c]: [DVec3; 3]) -> ClosestPoint {
    let vertex = |point| ClosestPoint {
        point,
        feature: Feature::Vertex,
    };
    let edge = |point| ClosestPoint {
        point,
        feature: Feature::Edge,
    };
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return vertex(a);
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return vertex(b);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return edge(a + ab * (d1 / (d1 - d3)));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return vertex(c);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return edge(a + ac * (d2 / (d2 - d6)));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return edge(b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))));
    }
    let denom = 1.0 / (va + vb + vc);
    ClosestPoint {
        point: a + ab * (vb * denom) + ac * (vc * denom),
        feature: Feature::Face,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2 x 2 triangle in the plane z = 0.
    const TRI: [DVec3; 3] = [
        DVec3::new(-1.0, -1.0, 0.0),
        DVec3::new(1.0, -1.0, 0.0),
        DVec3::new(0.0, 1.0, 0.0),
    ];

    #[test]
    fn closest_point_regions() {
        let cp = |p: DVec3| closest_point(p, TRI);
        assert_eq!(cp(DVec3::new(0.0, 0.0, 2.0)).feature, Feature::Face);
        assert_eq!(cp(DVec3::new(0.0, 0.0, 2.0)).point, DVec3::ZERO);
        assert_eq!(cp(DVec3::new(-3.0, -3.0, 1.0)).point, TRI[0]);
        assert_eq!(cp(DVec3::new(0.0, 5.0, 1.0)).point, TRI[2]);
        let e = cp(DVec3::new(0.0, -3.0, 1.0));
        assert_eq!(
            (e.point, e.feature),
            (DVec3::new(0.0, -1.0, 0.0), Feature::Edge)
        );
    }
}
