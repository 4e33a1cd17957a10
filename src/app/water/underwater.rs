//! The view under water: tinted (a blended quad of the overlay just past the near plane,
//! see [`crate::app::render::DebugDraw`]) and fogged (the scene's fog made the water's: see
//! [`UNDERWATER_FOG`]). The surfaces themselves are mirrors of water (`app/mirrors.rs`:
//! rippled, reflecting, drawn by `render/water_surface.rs`).

use walkthrough_core::geometry::Aabb;
use walkthrough_core::player::{NEAR_PLANE, Pose};

use super::under_water;
use crate::app::render::{DebugGeometry, Fog};

/// The view's colour and opacity with the eye under water.
pub const UNDERWATER_TINT: [f32; 4] = [0.05, 0.25, 0.35, 0.55];
/// The fog with the eye under water: toward the tint's colour (so that what is far is the
/// tint's colour alone), complete at 15 m (the scene's fog grows with the distance's
/// square: a tenth at 4.7 m, half at 10.6 m). Clear pool water lets one see farther;
/// games keep it short to read as water (Quake's underwater view is warped, not fogged;
/// Half-Life 2's water fog ends in 10 to 20 m).
pub const UNDERWATER_FOG: Fog = Fog {
    color: [UNDERWATER_TINT[0], UNDERWATER_TINT[1], UNDERWATER_TINT[2]],
    distance: Some(15.0),
};
/// How far ahead of the eye the underwater tint's quad stands, metres: just past the
/// near plane, in front of everything the eye can see.
const TINT_DISTANCE: f32 = 4.0 * NEAR_PLANE;
/// The quad's half-width over its distance: covers a view up to about 175 degrees wide.
const TINT_SPREAD: f32 = 25.0;

/// Add the underwater tint to `geometry` when `view`'s eye is [`under_water`].
pub fn add_water(geometry: &mut DebugGeometry, water: &[Aabb], view: &Pose) {
    let eye = view.position;
    if under_water(water, eye) {
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
    use glam::Vec3;

    #[test]
    fn the_tint_only_under_a_surface_just_past_the_near_plane() {
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
        assert!(g.is_empty(), "no tint above the water");
        let under = Pose {
            position: Vec3::new(0.0, 0.0, 0.0),
            ..Pose::default()
        };
        add_water(&mut g, &pool, &under);
        assert_eq!(g.triangles.len(), 6, "the tint's two triangles");
        let tint = &g.triangles;
        assert!(tint.iter().all(|v| v.color == UNDERWATER_TINT));
        // Ahead of the eye (down -Z), just past the near plane.
        assert!(
            tint.iter()
                .all(|v| (v.position[2] + TINT_DISTANCE).abs() < 1e-6)
        );
    }
}
