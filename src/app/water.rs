//! Water in the window: its surfaces are mirrors of water (found with the mirrors at each
//! load, rippled and reflecting: see [`super::mirrors`]); under one, the view is tinted
//! and fogged ([`underwater`]).

mod underwater;

use glam::Vec3;
use walkthrough_core::geometry::Aabb;
use walkthrough_core::player::NEAR_PLANE;

use super::render::Fog;
use underwater::UNDERWATER_FOG;
pub use underwater::add_water;

/// An eye closer than this to a water surface (metres, above or below) counts as under
/// water, and that surface is not drawn. So near, the surface is seen edge-on and the
/// near plane cuts it a little way from the horizon: drawn, it was a band across the
/// view with the pool's inside, untinted, beyond it. A point of the plane seen at an
/// angle `a` from the view's direction lies at a depth of at least `height cos a`: from
/// four near planes up it is cut only outside a view about 150 degrees wide.
pub const WATER_SURFACE_MARGIN: f32 = 4.0 * NEAR_PLANE;

/// The eye is under water: in a box of `water`, or over one within
/// [`WATER_SURFACE_MARGIN`] of its surface (the one rule of the tint, the fog and the
/// surfaces drawn).
pub fn under_water(water: &[Aabb], eye: Vec3) -> bool {
    water.iter().any(|b| {
        let raised = Aabb {
            min: b.min,
            max: b.max + Vec3::Y * WATER_SURFACE_MARGIN,
        };
        raised.contains(eye)
    })
}

/// The fog of a view from `eye`: the water's [`under_water`], else the sky's.
pub fn fog_at(water: &[Aabb], eye: Vec3) -> Fog {
    if under_water(water, eye) {
        UNDERWATER_FOG
    } else {
        Fog::SKY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_eye_at_the_surface_counts_as_under_water_within_the_margin() {
        let pool = [Aabb {
            min: Vec3::new(-1.0, -2.0, -1.0),
            max: Vec3::new(1.0, 0.5, 1.0),
        }];
        let at = |y: f32| under_water(&pool, Vec3::new(0.0, y, 0.0));
        assert!(at(0.0) && at(0.5) && at(0.5 + 0.9 * WATER_SURFACE_MARGIN));
        assert!(!at(0.5 + 1.1 * WATER_SURFACE_MARGIN) && !at(1.6));
        assert!(
            !under_water(&pool, Vec3::new(2.0, 0.5, 0.0)),
            "beside the pool"
        );
    }
}
