//! Measuring in the window: a key marks the point under the crosshair and a second mark
//! says the distance (a line joins the marks); another says what the crosshair is on;
//! another stands the walker on the floor it points at (a teleport, recorded as a
//! placement, so a replay of the recording takes it too). The pure parts are the core's
//! ([`walkthrough_core::measure`], [`walkthrough_core::survey::floor_in_view`]).

use glam::Vec3;

use walkthrough_core::measure::{AIM_REACH, aim, inspect};
use walkthrough_core::player::Pose;
use walkthrough_core::survey::floor_in_view;

use super::App;
use super::render::DebugGeometry;

/// The marks' and their line's colour (magenta: apart from the debug view's colours and
/// the person marker's cyan).
const MARK_COLOR: [f32; 4] = [1.0, 0.2, 1.0, 1.0];
/// Half the size of the cross drawn at a mark, metres.
const MARK_HALF_SIZE: f32 = 0.1;

impl App {
    /// Mark the point under the crosshair of `eye`; the second mark of a pair says the
    /// distance (on screen and on standard error, as `sim` says it).
    pub(super) fn mark_point(&mut self, eye: &Pose) {
        let frame = self.sim.session.map.frame;
        let Some(at) = aim(&self.sim.session.world, eye, AIM_REACH) else {
            return self
                .overlays
                .hud
                .notify("measure: nothing under the crosshair to mark".into());
        };
        let said = match self.marks.mark(at.point, &frame) {
            Some(m) => m.line(&frame),
            None => format!(
                "measure: first mark set, {:.3} m away (mark again to measure)",
                at.distance
            ),
        };
        self.overlays.hud.notify(said);
    }

    /// Say what the crosshair is on: the file, the material, the distance.
    pub(super) fn inspect_crosshair(&mut self) {
        let eye = self.camera.aim_now(self.sim.controller.pose);
        let session = &self.sim.session;
        let said = match aim(&session.world, &eye, AIM_REACH) {
            Some(at) => format!("on: {}", inspect(&session.map, &at).line()),
            None => "on: nothing under the crosshair".into(),
        };
        self.overlays.hud.notify(said);
    }

    /// Stand the walker on the floor the crosshair points at, placed as a spawn is;
    /// recorded as a placement.
    pub(super) fn teleport(&mut self) {
        let eye = self.camera.aim_now(self.sim.controller.pose);
        let min_up = self.sim.controller.settings.walk.walkable_min_up;
        match floor_in_view(&self.sim.session.world, &eye, min_up) {
            Ok(to) => {
                let pose = Pose {
                    position: to,
                    ..self.sim.controller.pose
                };
                self.sim.controller.place(pose);
                self.sim.record_place(&pose);
                self.camera.view_placed = true;
                let file = self.sim.session.map.frame.to_file(to);
                self.overlays.hud.notify(format!(
                    "teleported to {:.3}, {:.3}, {:.3}",
                    file.x, file.y, file.z
                ));
            }
            Err(why) => self.overlays.hud.notify(format!("no teleport: {why}")),
        }
    }

    /// The marks (a cross each) and the line between a measured pair.
    pub(super) fn draw_marks(&self, geometry: &mut DebugGeometry) {
        let cross = |g: &mut DebugGeometry, p: Vec3| {
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                let d = axis * MARK_HALF_SIZE;
                g.line(p - d, p + d, MARK_COLOR);
            }
        };
        if let Some(p) = self.marks.waiting {
            cross(geometry, p);
        }
        if let Some(m) = self.marks.measured {
            cross(geometry, m.from);
            cross(geometry, m.to);
            geometry.line(m.from, m.to, MARK_COLOR);
        }
    }
}
