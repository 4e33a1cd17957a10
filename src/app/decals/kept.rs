//! The decals kept per map file, with its saved views (in the file's coordinates), and
//! made again on the map's triangles whenever it is loaded, turned or scaled.

use walkthrough_core::decals::{MAX_DECAL_TRIANGLES, Placement};
use walkthrough_core::map::MapFrame;
use walkthrough_core::text::wording::counted;

use crate::app::App;

impl App {
    /// Keep the decals for the map (in its file's coordinates) and say `done`.
    pub(super) fn save_decals(&mut self, done: String) {
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
    pub(in crate::app) fn load_decals(&mut self) {
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
    pub(in crate::app) fn reframe_decals(&mut self, old: MapFrame) {
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
