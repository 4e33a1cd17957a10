//! Saved views: Ctrl+1..9 keeps where you stand and look, 1..9 takes you back, kept per
//! map file (by its content) with its corrections in settings.toml.

use std::path::PathBuf;

use walkthrough_core::collision::placement::out_of_range;
use walkthrough_core::player::{Pose, Stance};
use walkthrough_core::store::{ContentKey, SavedView};

use super::App;

impl App {
    /// The key the map's memory is kept under: its file's content, or the built-in map's.
    pub(super) fn views_key(&self) -> Option<ContentKey> {
        match (&self.memory.content_key, &self.sim.session.map.source) {
            (Some(k), _) => Some(k.clone()),
            (None, None) => Some(ContentKey::of_bytes(b"walkthrough built-in map")),
            // A scene: its models have keys, the scene has none.
            (None, Some(_)) => None,
        }
    }

    /// The map's file as the store names it beside what is kept for the map (its views,
    /// its decals): the built-in map has no file.
    pub(super) fn kept_file(&self) -> PathBuf {
        self.sim
            .session
            .map
            .source
            .clone()
            .unwrap_or_else(|| "built-in map".into())
    }

    /// The walker has walked off the map: falling, with its eye below the map's lowest
    /// point (R then returns to the spawn instead of reloading).
    pub(super) fn fallen_off(&self) -> bool {
        let c = &self.sim.controller;
        c.stance() == Stance::Falling && self.sim.session.below_map(c.pose.position)
    }

    /// Back to where the map starts (R after a fall off the map), recorded like a view.
    pub(super) fn return_to_spawn(&mut self) {
        let pose = self.sim.session.start_pose(None);
        self.sim.controller.place(pose);
        self.sim.record_place(&pose);
        self.overlays.hud.notify("back at the spawn".into());
        self.camera.view_placed = true;
    }

    /// Ctrl+`slot`: keep the current pose.
    pub(super) fn keep_view(&mut self, slot: u8) {
        let Some(key) = self.views_key() else {
            return self
                .overlays
                .hud
                .notify("views are kept for map files, not scenes".into());
        };
        let pose = self.sim.controller.pose;
        let view = SavedView {
            position: self.sim.session.map.frame.to_file(pose.position),
            yaw_deg: pose.yaw_deg,
            pitch_deg: pose.pitch_deg,
        };
        let file = self.kept_file();
        let msg = match self.memory.store.keep_view(&key, &file, slot, view) {
            Ok(()) => format!("view {slot} kept ({slot} returns to it)"),
            Err(e) => format!("view {slot} kept for now, not saved: {e}"),
        };
        self.overlays.hud.notify(msg);
    }

    /// `slot`: go back to the view kept there. The walker is placed afresh, by the one
    /// placement rule (see [`walkthrough_core::collision::placement`]): where its body does not
    /// fit, the next step moves it to the nearest free spot on the eye's side of every
    /// surface; a view inside a closed solid (a block added to the map since) is first
    /// moved out of it, as a start is, and the notice says where.
    pub(super) fn go_to_view(&mut self, slot: u8) {
        let view = self
            .views_key()
            .and_then(|k| self.memory.store.view(&k, slot));
        let Some(v) = view else {
            return self
                .overlays
                .hud
                .notify(format!("no view {slot} yet (Ctrl+{slot} keeps one)"));
        };
        let position = self.sim.session.map.frame.to_world(v.position);
        // The settings file is the user's to edit: a view at 1e30 is refused, not taken.
        if let Some(why) = out_of_range(position) {
            return self
                .overlays
                .hud
                .notify(format!("view {slot} is not taken: it is at {why}"));
        }
        let what = format!("view {slot}");
        let moved = self
            .sim
            .go_to(Pose::new(position, v.yaw_deg, v.pitch_deg), &what);
        // The move's warning names the view itself.
        self.overlays.hud.notify(moved.unwrap_or(what));
        self.camera.view_placed = true;
    }
}
