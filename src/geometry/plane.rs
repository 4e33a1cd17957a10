//! Planes: signed distance, side classification and segment intersection.

use glam::Vec3;

use crate::tolerance::PLANE_EPSILON;

/// A plane `normal . x = d` with a unit normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    /// Unit normal.
    pub normal: Vec3,
    /// Plane constant: `normal . x = d` for every point `x` of the plane.
    pub d: f32,
}

/// Which side of a plane a point lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Signed distance above `PLANE_EPSILON`.
    Front,
    /// Signed distance below `-PLANE_EPSILON`.
    Back,
    /// Within `PLANE_EPSILON` of the plane.
    On,
}

impl Plane {
    /// The plane through three points, with the normal of `(b - a) x (c - a)`.
    ///
    /// `None` when the points are collinear, coincident or not finite.
    pub fn from_points(a: Vec3, b: Vec3, c: Vec3) -> Option<Plane> {
        let normal = (b - a).cross(c - a).try_normalize()?;
        let d = normal.dot(a);
        d.is_finite().then_some(Plane { normal, d })
    }

    /// Signed distance of `p` from the plane: positive on the side the normal points to.
    #[inline]
    pub fn signed_distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.d
    }

    /// Which side of the plane `p` lies on, with `PLANE_EPSILON` as the "on" band.
    pub fn classify(&self, p: Vec3) -> Side {
        let s = self.signed_distance(p);
        if s > PLANE_EPSILON {
            Side::Front
        } else if s < -PLANE_EPSILON {
            Side::Back
        } else {
            Side::On
        }
    }

    /// Step 1 of the collision test: do the two ends of the segment lie on different sides?
    ///
    /// An end lying on the plane counts as reaching it.
    pub fn segment_crosses(&self, p0: Vec3, p1: Vec3) -> bool {
        let (s0, s1) = (self.signed_distance(p0), self.signed_distance(p1));
        s0 * s1 <= 0.0 && !(s0 == 0.0 && s1 == 0.0)
    }

    /// Step 2: the parameter `t` in `[0, 1]` where the segment `p0 -> p1` meets the plane,
    /// `t = s0 / (s0 - s1)`. `None` when it does not reach the plane or lies in it.
    pub fn intersect_segment(&self, p0: Vec3, p1: Vec3) -> Option<f32> {
        let (s0, s1) = (self.signed_distance(p0), self.signed_distance(p1));
        if !self.segment_crosses(p0, p1) {
            return None;
        }
        let denom = s0 - s1;
        if denom == 0.0 {
            return None;
        }
        let t = s0 / denom;
        (0.0..=1.0).contains(&t).then_some(t)
    }

    /// The orthogonal projection of `p` onto the plane.
    #[inline]
    pub fn project(&self, p: Vec3) -> Vec3 {
        p - self.normal * self.signed_distance(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> Plane {
        Plane::from_points(Vec3::ZERO, Vec3::new(0.0, 0.0, 1.0), Vec3::X).unwrap()
    }

    #[test]
    fn plane_from_counter_clockwise_points_faces_up() {
        let p = floor();
        assert!((p.normal - Vec3::Y).length() < 1e-6);
        assert_eq!(p.d, 0.0);
    }

    #[test]
    fn collinear_points_give_no_plane() {
        assert!(Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::X * 2.0).is_none());
        assert!(Plane::from_points(Vec3::ZERO, Vec3::ZERO, Vec3::X).is_none());
        assert!(Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::new(f32::NAN, 1.0, 0.0)).is_none());
    }

    #[test]
    fn classify_front_back_on() {
        let p = floor();
        assert_eq!(p.classify(Vec3::new(3.0, 1.0, 2.0)), Side::Front);
        assert_eq!(p.classify(Vec3::new(3.0, -1.0, 2.0)), Side::Back);
        assert_eq!(
            p.classify(Vec3::new(3.0, PLANE_EPSILON * 0.5, 2.0)),
            Side::On
        );
    }

    #[test]
    fn crossing_segment_meets_plane_at_ratio_of_distances() {
        let p = floor();
        let t = p
            .intersect_segment(Vec3::new(0.0, 3.0, 0.0), Vec3::new(4.0, -1.0, 0.0))
            .unwrap();
        assert!((t - 0.75).abs() < 1e-6);
    }

    #[test]
    fn segment_on_one_side_does_not_cross() {
        let p = floor();
        assert!(!p.segment_crosses(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, 1.0, 0.0)));
        assert!(
            p.intersect_segment(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, 1.0, 0.0))
                .is_none()
        );
    }

    #[test]
    fn parallel_segment_in_plane_does_not_cross() {
        let p = floor();
        assert!(p.intersect_segment(Vec3::ZERO, Vec3::X).is_none());
    }

    #[test]
    fn touching_segment_meets_at_its_end() {
        let p = floor();
        let t = p
            .intersect_segment(Vec3::new(0.0, 2.0, 0.0), Vec3::ZERO)
            .unwrap();
        assert_eq!(t, 1.0);
    }

    #[test]
    fn projection_lies_on_plane() {
        let p = Plane::from_points(Vec3::ZERO, Vec3::Y, Vec3::new(1.0, 0.0, 1.0)).unwrap();
        let q = p.project(Vec3::new(3.0, 2.0, -7.0));
        assert!(p.signed_distance(q).abs() < 1e-5);
    }
}
