//! Decals in the window: the right mouse button sticks one where the crosshair points
//! (Shift + the right button takes the one there away), a script's `decal` line does
//! the same from the eye; kept per map file with its saved views, made again on the map
//! whenever it is loaded, turned or scaled ([`kept`]).

mod kept;

use walkthrough_core::decals::{MAX_DECAL_TRIANGLES, aim, build};
use walkthrough_core::player::Pose;
use walkthrough_core::text::wording::counted;

use super::App;

impl App {
    /// Stick a decal where the crosshair of `eye` points.
    pub(super) fn stick_decal(&mut self, eye: &Pose) {
        let world = &self.sim.session.world;
        let Some(at) = aim(world, eye, self.decals.next_texture()) else {
            return self
                .overlays
                .hud
                .notify("no wall under the crosshair for a decal".into());
        };
        let Some(decal) = build(world, at) else {
            return self.overlays.hud.notify(format!(
                "the surface under the crosshair is too fine for a decal (over {} triangles under its square)",
                MAX_DECAL_TRIANGLES
            ));
        };
        let pieces = counted(decal.triangles.len(), "triangle", "triangles");
        self.decals.add(decal);
        self.save_decals(format!(
            "decal {} stuck ({pieces}; Shift + right button takes it away)",
            self.decals.list.len()
        ));
    }

    /// Take away the decal under the crosshair of `eye`.
    pub(super) fn unstick_decal(&mut self, eye: &Pose) {
        let world = &self.sim.session.world;
        let hit = world.ray_cast(
            eye.position,
            eye.forward(),
            walkthrough_core::decals::DECAL_REACH,
        );
        let removed = hit.is_some_and(|h| {
            self.decals
                .remove_at(eye.position + eye.forward() * h.distance)
        });
        if removed {
            self.save_decals("decal taken away".into());
        } else {
            self.overlays
                .hud
                .notify("no decal under the crosshair".into());
        }
    }
}
