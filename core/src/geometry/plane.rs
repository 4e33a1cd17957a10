//! Planes: signed distance and projection (the sweep measures its steps 1 and 2 with
//! them; see [`crate::collision::sweep`]).

use glam::Vec3;

/// A plane `normal . x = d` with a unit normal.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Plane {
    /// Unit normal.
    pub normal: Vec3,
    /// Plane constant: `normal . x = d` for every point `x` of the plane.
    pub d: f32,
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
    fn projection_lies_on_plane() {
        let p = Plane::from_points(Vec3::ZERO, Vec3::Y, Vec3::new(1.0, 0.0, 1.0)).unwrap();
        let q = p.project(Vec3::new(3.0, 2.0, -7.0));
        assert!(p.signed_distance(q).abs() < 1e-5);
    }
}
