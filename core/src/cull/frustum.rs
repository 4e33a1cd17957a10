//! The view frustum as six planes, and the test of a box against it.

use glam::{Mat4, Vec3, Vec4};

use crate::geometry::Aabb;

/// The six planes bounding what a camera sees, each `(n, d)` with `n . p + d >= 0` inside
/// (not normalised: only signs are compared).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frustum {
    planes: [Vec4; 6],
}

impl Frustum {
    /// The planes of the clip volume of `view_proj` (an OpenGL projection, depth -w to w),
    /// by the rows of the matrix (Gribb and Hartmann, "Fast Extraction of Viewing Frustum
    /// Planes from the World-View-Projection Matrix", 2001).
    pub fn from_view_proj(m: Mat4) -> Frustum {
        let (r0, r1, r2, r3) = (m.row(0), m.row(1), m.row(2), m.row(3));
        Frustum {
            planes: [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3 + r2, r3 - r2],
        }
    }

    /// Whether any of `b` may be seen: false only when the whole box lies outside one
    /// plane (its corner furthest along the plane's normal is behind it: Ericson, *Real-Time
    /// Collision Detection*, 5.2.3). A box near a frustum corner may pass without being
    /// seen; that only costs a draw, never a missing one. An empty box is never seen.
    pub fn sees(&self, b: &Aabb) -> bool {
        if b.is_empty() {
            return false;
        }
        self.planes.iter().all(|p| {
            let n = p.truncate();
            let far = Vec3::select(n.cmpge(Vec3::ZERO), b.max, b.min);
            n.dot(far) + p.w >= 0.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn looking_down_minus_z() -> Frustum {
        let proj = Mat4::perspective_rh_gl(90f32.to_radians(), 1.0, 0.01, 100.0);
        let view = Mat4::look_at_rh(Vec3::ZERO, Vec3::NEG_Z, Vec3::Y);
        Frustum::from_view_proj(proj * view)
    }

    fn unit_box_at(c: Vec3) -> Aabb {
        Aabb {
            min: c - Vec3::splat(0.5),
            max: c + Vec3::splat(0.5),
        }
    }

    #[test]
    fn a_box_ahead_is_seen_one_behind_is_not() {
        let f = looking_down_minus_z();
        assert!(f.sees(&unit_box_at(Vec3::new(0.0, 0.0, -5.0))));
        assert!(!f.sees(&unit_box_at(Vec3::new(0.0, 0.0, 5.0))));
    }

    #[test]
    fn boxes_beside_beyond_and_straddling_the_edges() {
        let f = looking_down_minus_z();
        // 90 degrees: at 5 m ahead the view reaches 5 m to each side.
        assert!(f.sees(&unit_box_at(Vec3::new(4.0, 0.0, -5.0))));
        assert!(!f.sees(&unit_box_at(Vec3::new(7.0, 0.0, -5.0))));
        assert!(!f.sees(&unit_box_at(Vec3::new(0.0, -7.0, -5.0))));
        // Beyond the far plane.
        assert!(!f.sees(&unit_box_at(Vec3::new(0.0, 0.0, -102.0))));
        // Straddling the near plane, around the eye.
        assert!(f.sees(&unit_box_at(Vec3::ZERO)));
        // A long wall crossing the whole view, its corners all outside.
        let wall = Aabb {
            min: Vec3::new(-500.0, -500.0, -10.0),
            max: Vec3::new(500.0, 500.0, -9.0),
        };
        assert!(f.sees(&wall));
    }

    #[test]
    fn an_empty_box_is_never_seen() {
        assert!(!looking_down_minus_z().sees(&Aabb::EMPTY));
    }
}
