//! Decals in the window: the right mouse button sticks one where the crosshair points
//! (Shift + the right button takes the one there away), a script's `decal` line does
//! the same from the eye; kept per map file with its saved views, made again on the map
//! whenever it is loaded, turned or scaled.

use walkthrough_core::decals::{MAX_DECAL_TRIANGLES, Placement, aim, build};
use walkthrough_core::map::MapFrame;
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

    /// Keep the decals for the map (in its file's coordinates) and say `done`.
    fn save_decals(&mut self, done: String) {
        let Some(key) = self.views_key() else {
            return self
                .overlays
                .hud
                .notify(format!("{done} (kept for this run: scenes keep no decals)"));
        };
        let frame = self.sim.session.map.frame;
        let kept: Vec<Placement> = self
            .decals
            .placements()
            .map(|p| p.to_file(&frame))
            .collect();
        let file = self.kept_file();
        match self.memory.store.keep_decals(&key, &file, &kept) {
            Ok(()) => self.overlays.hud.notify(done),
            Err(e) => self
                .overlays
                .hud
                .notify(format!("{done}; kept for now, not saved: {e}")),
        }
    }

    /// The decals kept for the map now open, made on its triangles (at the start, and
    /// after a load, a reload or a turn).
    pub(super) fn load_decals(&mut self) {
        let frame = self.sim.session.map.frame;
        let kept = match self.views_key() {
            Some(key) => self.memory.store.decals(&key),
            None => Vec::new(),
        };
        let placements = kept.iter().filter_map(|p| p.to_world(&frame));
        let left_out = self.decals.rebuild(&self.sim.session.world, placements);
        self.tell_left_out(left_out);
    }

    /// Say that `n` decals were not made (each over [`MAX_DECAL_TRIANGLES`]).
    fn tell_left_out(&mut self, n: usize) {
        if n > 0 {
            self.overlays.hud.notify(format!(
                "{} left out: each over {} triangles under its square",
                counted(n, "decal", "decals"),
                MAX_DECAL_TRIANGLES
            ));
        }
    }

    /// The map was scaled from the frame `old`: the decals stay where they were on it.
    pub(super) fn reframe_decals(&mut self, old: MapFrame) {
        let frame = self.sim.session.map.frame;
        let moved: Vec<Placement> = self
            .decals
            .placements()
            .filter_map(|p| p.to_file(&old).to_world(&frame))
            .collect();
        let left_out = self.decals.rebuild(&self.sim.session.world, moved);
        self.tell_left_out(left_out);
    }
}
