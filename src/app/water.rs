//! Water in the window: its surfaces are mirrors of water (found with the mirrors at each
//! load, rippled and reflecting: see [`super::mirrors`]); under one, the view is tinted
//! and fogged ([`underwater`]).

mod underwater;

use glam::Vec3;
use walkthrough_core::geometry::Aabb;

use super::render::Fog;
use underwater::UNDERWATER_FOG;
pub use underwater::add_water;

/// The fog of a view from `eye`: the water's in a box of `water`, else the sky's.
pub fn fog_at(water: &[Aabb], eye: Vec3) -> Fog {
    if water.iter().any(|b| b.contains(eye)) {
        UNDERWATER_FOG
    } else {
        Fog::SKY
    }
}
