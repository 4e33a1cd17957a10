//! Correcting the map's frame live: U turns the up axis (the map is surveyed again in
//! the background), `[` and `]` change the scale in place; each correction is shown with
//! the flags that reproduce it, a 1.8 m person marker to judge it by, and is remembered
//! for the file ([`walkthrough_core::store`]).

use std::time::Instant;

use walkthrough_core::player::Pose;
use walkthrough_core::session::Session;
use walkthrough_core::session::scaled_eye;
use walkthrough_core::survey::scale::UNITS;
use walkthrough_core::survey::units::{ENGINE_UNITS, Unit, same_unit, short_decimal};
use walkthrough_core::text::names::Named;

use super::App;
use super::loading::{FIRST_LOADING, Purpose};
use super::marker::{MARKER_HEIGHT, foot_clear_distance, marker};
use super::render::DebugGeometry;

/// Scale factor of one press of `[` or `]`: five presses are about 3x, four about 2.4x
/// (inches read as centimetres).
pub const SCALE_STEP: f32 = 1.25;

/// Where Shift+`[` and Shift+`]` stop for the map of `session`: the common units (mm, cm,
/// in, ft, m), the game engines' units (Doom's 3.2 cm among them) and, for a map whose
/// scale the survey chose, its answer and its runner-up (a game level read as an
/// engine's units scaled by its importer is one of neither list: once left, the keys came
/// back to it only by plain steps). The first name of a scale is kept.
pub fn scale_stops(session: &Session) -> Vec<Unit> {
    let surveyed = session.scale_guess.map(|g| [g.chosen, g.next]);
    let mut stops: Vec<Unit> = Vec::new();
    for u in UNITS
        .iter()
        .chain(&ENGINE_UNITS)
        .chain(surveyed.iter().flatten())
    {
        if unit_named(&stops, u.metres).is_none() {
            stops.push(*u);
        }
    }
    stops
}

/// The scale after `scale` going `larger` or smaller: by [`SCALE_STEP`], or with
/// `to_unit` to the next of `stops` that way, by a step past them.
pub fn next_scale(scale: f32, larger: bool, to_unit: bool, stops: &[Unit]) -> f32 {
    let mut units: Vec<f32> = stops.iter().map(|u| u.metres).collect();
    units.sort_by(f32::total_cmp);
    let unit = if larger {
        units.into_iter().find(|&u| u > scale * 1.001)
    } else {
        units.into_iter().rev().find(|&u| u < scale / 1.001)
    };
    // A step is said in the flags to copy: a short decimal (0.512, not 0.51199996).
    match (to_unit, unit, larger) {
        (true, Some(u), _) => u,
        (_, _, true) => short_decimal(f64::from(scale * SCALE_STEP)),
        (_, _, false) => short_decimal(f64::from(scale / SCALE_STEP)),
    }
}

/// The unit of `stops` that `scale` is, by name, if it is one.
fn unit_named(stops: &[Unit], scale: f32) -> Option<&'static str> {
    stops
        .iter()
        .find(|u| same_unit(scale, u.metres))
        .map(|u| u.name)
}

impl App {
    /// U (Shift+U backwards): load the map again with the next up axis; its scale and
    /// spawn are surveyed again.
    pub(super) fn turn_up(&mut self, backwards: bool) {
        if self.first_loading() {
            self.overlays.hud.notify(FIRST_LOADING.into());
            return;
        }
        if self.sim.session.is_scene() {
            self.overlays
                .hud
                .notify("a scene sets its models' up axes in its file".into());
            return;
        }
        self.memory.offer = None;
        let up = self.sim.session.map.frame.up.step(backwards);
        let mut open = self.config.open;
        (open.up, open.remembered) = (Some(up), None);
        self.overlays
            .hud
            .notify(format!("turning the map: up axis {up}"));
        self.load_with(self.config.map.clone(), open, Purpose::Turn);
    }

    /// `[` / `]` (Shift: to the next unit of [`scale_stops`]): scale the map in place.
    pub(super) fn step_scale(&mut self, larger: bool, to_unit: bool) {
        if self.loading.is_some() {
            self.overlays
                .hud
                .notify("the map is loading: change the scale once it is in".into());
            return;
        }
        let started = Instant::now();
        let current = self.sim.session.map.frame.scale;
        let stops = scale_stops(&self.sim.session);
        // While the survey asks, Shift goes to the unit it offers, if it lies that way.
        let offered = self
            .memory
            .offer
            .take()
            .and_then(|o| o.scale_toward(current, larger));
        let scale = match offered {
            Some(s) if to_unit => s,
            _ => next_scale(current, larger, to_unit, &stops),
        };
        self.stop_recording("the scale changed: ");
        let old = self.sim.session.map.frame;
        let rescaled = match self.sim.session.rescale(scale) {
            Ok(r) => r,
            Err(e) => return self.overlays.hud.notify(e),
        };
        self.reframe_decals(old);
        self.find_mirrors();
        let pose = self.sim.controller.pose;
        self.sim.controller.place(Pose {
            position: scaled_eye(pose.position, rescaled.factor),
            ..pose
        });
        if let Some(camera) = &mut self.camera.free_camera {
            camera.pose.position = scaled_eye(camera.pose.position, rescaled.factor);
        }
        let map = &self.sim.session.map;
        if let Some(gpu) = &mut self.gpu {
            gpu.renderer.rescale(map, rescaled.factor);
        }
        self.overlays.minimap.rescale(rescaled.factor);
        tell!(
            "rescaled in place in {:.0} ms (map, collision world, GPU upload)",
            started.elapsed().as_secs_f64() * 1e3
        );
        let units = unit_named(&stops, scale).map_or(String::new(), |n| format!(" ({n})"));
        self.corrected(format!("scale {scale}{units}"));
    }

    /// Enter: keep the frame the survey chose, remembered for the file like a correction
    /// (when it asked; otherwise nothing to keep).
    pub(super) fn keep_frame(&mut self) {
        if self.memory.offer.take().is_some() {
            self.corrected("kept as read".into());
        } else {
            self.overlays
                .hud
                .notify("Enter keeps the map's up axis and scale when the window asks".into());
        }
    }

    /// A correction took effect: keep it for reloads, remember it for the file, show the
    /// marker and say what reproduces it.
    pub(super) fn corrected(&mut self, what: String) {
        let frame = self.sim.session.map.frame;
        let kept = (self.memory).keep_correction(frame, self.config.map.as_deref());
        let session = &self.sim.session;
        self.overlays
            .hud
            .show_map(session.label(), frame, session.is_scene());
        self.overlays.hud.notify(format!(
            "{what}: {}; {kept}. The cyan frame ahead is {MARKER_HEIGHT} m tall",
            frame.flags()
        ));
    }

    /// Add the person marker to `geometry` while it is due (see
    /// [`MapMemory::marker_shows`](super::memory::MapMemory::marker_shows)), far enough
    /// ahead for its foot to show above the survey's question in a window `aspect` wide
    /// for its height.
    pub(super) fn draw_marker(&self, geometry: &mut DebugGeometry, now: Instant, aspect: f32) {
        if !self.memory.marker_shows(now) {
            return;
        }
        let pose = self.sim.controller.pose;
        let vertical = self
            .gpu
            .as_ref()
            .map(|g| g.renderer.fov.vertical_rad(aspect));
        let clear = self
            .overlays
            .hud
            .offer_top
            .zip(vertical)
            .and_then(|(top, fov)| foot_clear_distance(top, fov));
        marker(
            geometry,
            &self.sim.session.world,
            pose.position,
            pose.forward_flat(),
            clear.unwrap_or(0.0),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use walkthrough_core::map::UpAxis;

    #[test]
    fn u_steps_between_y_and_z_both_ways_and_visits_every_axis() {
        assert_eq!(UpAxis::Y.step(false), UpAxis::Z);
        assert_eq!(UpAxis::Z.step(true), UpAxis::Y);
        let mut up = UpAxis::Y;
        let mut seen = Vec::new();
        for _ in 0..6 {
            up = up.step(false);
            seen.push(up);
        }
        assert_eq!(up, UpAxis::Y);
        for &u in UpAxis::ALL {
            assert!(seen.contains(&u), "{u}");
        }
    }

    #[test]
    fn scale_keys_step_by_a_quarter_or_jump_to_the_next_unit() {
        let stops = UNITS;
        assert!((next_scale(1.0, true, false, &stops) - 1.25).abs() < 1e-6);
        assert!((next_scale(1.0, false, false, &stops) - 0.8).abs() < 1e-6);
        assert_eq!(next_scale(0.01, true, true, &stops), 0.0254);
        assert_eq!(next_scale(0.0254, false, true, &stops), 0.01);
        assert_eq!(next_scale(0.0043, true, true, &stops), 0.01);
        assert_eq!(next_scale(0.3048, true, true, &stops), 1.0);
        // Past the last unit, a step.
        assert!((next_scale(1.0, true, true, &stops) - 1.25).abs() < 1e-6);
        assert!((next_scale(0.001, false, true, &stops) - 0.0008).abs() < 1e-7);
        assert_eq!(unit_named(&stops, 0.0254), Some("inches"));
        assert_eq!(unit_named(&stops, 0.02), None);
    }

    /// `[` three times from 1 said `--scale 0.51199996`, and Shift+] to inches
    /// `--scale 0.025400002`: the flags to copy are short.
    #[test]
    fn scale_flags_are_short_decimals() {
        let mut scale = 1.0;
        for _ in 0..3 {
            scale = next_scale(scale, false, false, &UNITS);
        }
        assert_eq!(scale.to_string(), "0.512");
        use walkthrough_core::session::OpenOptions;
        let mut session = Session::open(None, &OpenOptions::default()).unwrap();
        for from in [0.512, 0.07, 0.3, 0.9, 3.3, 0.1234] {
            for s in [from, 0.0254, 0.3048] {
                session.rescale(s).unwrap();
                assert_eq!(session.map.frame.scale, s, "from {from}");
                assert_eq!(session.map.frame.flags(), format!("--up y --scale {s}"));
            }
        }
    }

    /// A game level read in an engine's units (Doom's), or as its importer scaled them
    /// (the survey's own answer), was left for good by `]`: Shift+`[` went past it to
    /// the common units around it.
    #[test]
    fn shift_brackets_come_back_to_a_game_unit() {
        use walkthrough_core::session::OpenOptions;
        use walkthrough_core::survey::{Confidence, Inferred};
        let mut session = Session::open(None, &OpenOptions::default()).unwrap();
        // The built-in map's scale is no guess: the common and the engines' units.
        let stops = scale_stops(&session);
        let doom = ENGINE_UNITS[1].metres;
        assert_eq!(next_scale(doom * SCALE_STEP, false, true, &stops), doom);
        assert_eq!(next_scale(0.0254, true, true, &stops), doom);
        assert_eq!(unit_named(&stops, doom), Some(ENGINE_UNITS[1].name));
        // Inches and Quake's units are one stop, by the common name.
        assert_eq!(unit_named(&stops, 0.0254), Some("inches"));
        assert_eq!(stops.len(), UNITS.len() + 1);
        // Quake's units brought in at a tenth: the survey's answer is a stop both ways.
        let imported = Unit {
            name: "Quake units at 0.1",
            metres: 0.254,
            ..ENGINE_UNITS[0]
        };
        session.scale_guess = Some(Inferred {
            chosen: imported,
            confidence: Confidence::Fair,
            margin: 1.0,
            next: UNITS[0],
        });
        let stops = scale_stops(&session);
        assert_eq!(next_scale(0.3048, false, true, &stops), 0.254);
        assert_eq!(next_scale(0.254 / SCALE_STEP, true, true, &stops), 0.254);
        assert_eq!(unit_named(&stops, 0.254), Some("Quake units at 0.1"));
    }
}
