//! The water seen in the window: each `[[water]]` box's surface drawn translucent and
//! tinted over the scene, and the view tinted when the eye is under a surface. Both are
//! the overlay's blended triangles (depth-tested, not written; see
//! [`super::render::DebugDraw`]): no GL of their own. Ripples and a reflection are not
//! drawn yet.

use glam::Vec3;
use walkthrough::geometry::Aabb;
use walkthrough::player::{NEAR_PLANE, Pose};

use super::render::DebugGeometry;

/// The surface's colour and opacity (a blue-green the scene shows through).
pub const SURFACE_TINT: [f32; 4] = [0.1, 0.35, 0.45, 0.45];
/// The view's colour and opacity with the eye under water.
pub const UNDERWATER_TINT: [f32; 4] = [0.05, 0.25, 0.35, 0.55];
/// How far ahead of the eye the underwater tint's quad stands, metres: just past the
/// near plane, in front of everything the eye can see.
const TINT_DISTANCE: f32 = 4.0 * NEAR_PLANE;
/// The quad's half-width over its distance: covers a view up to about 175 degrees wide.
const TINT_SPREAD: f32 = 25.0;

/// Add the surfaces of `water`, and the underwater tint when `view`'s eye is in a box,
/// to `geometry`.
pub fn add_water(geometry: &mut DebugGeometry, water: &[Aabb], view: &Pose) {
    for b in water {
        let y = b.max.y;
        let corner = |x: f32, z: f32| Vec3::new(x, y, z);
        let (a, c) = (corner(b.min.x, b.min.z), corner(b.max.x, b.max.z));
        let (b1, d) = (corner(b.max.x, b.min.z), corner(b.min.x, b.max.z));
        geometry.triangle([a, b1, c], SURFACE_TINT);
        geometry.triangle([a, c, d], SURFACE_TINT);
    }
    let eye = view.position;
    if water.iter().any(|b| b.contains(eye)) {
        let forward = view.forward();
        let right = view.right();
        let up = right.cross(forward);
        let centre = eye + forward * TINT_DISTANCE;
        let (r, u) = (
            right * TINT_DISTANCE * TINT_SPREAD,
            up * TINT_DISTANCE * TINT_SPREAD,
        );
        let quad = [
            centre - r - u,
            centre + r - u,
            centre + r + u,
            centre - r + u,
        ];
        geometry.triangle([quad[0], quad[1], quad[2]], UNDERWATER_TINT);
        geometry.triangle([quad[0], quad[2], quad[3]], UNDERWATER_TINT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_surface_is_two_triangles_at_the_top_and_the_tint_only_under_it() {
        let pool = [Aabb {
            min: Vec3::new(-1.0, -2.0, -1.0),
            max: Vec3::new(1.0, 0.5, 1.0),
        }];
        let mut g = DebugGeometry::default();
        let above = Pose {
            position: Vec3::new(0.0, 1.6, 0.0),
            ..Pose::default()
        };
        add_water(&mut g, &pool, &above);
        assert_eq!(g.triangles.len(), 6, "two triangles of three corners");
        assert!(g.triangles.iter().all(|v| v.position[1] == 0.5));
        let mut g = DebugGeometry::default();
        let under = Pose {
            position: Vec3::new(0.0, 0.0, 0.0),
            ..Pose::default()
        };
        add_water(&mut g, &pool, &under);
        assert_eq!(g.triangles.len(), 12, "and the tint's two");
        let tint = &g.triangles[6..];
        assert!(tint.iter().all(|v| v.color == UNDERWATER_TINT));
        // Ahead of the eye (down -Z), just past the near plane.
        assert!(
            tint.iter()
                .all(|v| (v.position[2] + TINT_DISTANCE).abs() < 1e-6)
        );
    }
}
