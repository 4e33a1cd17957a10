//! The gamepads' events applied to the window each frame: plugs and unplugs said, presses
//! acted on as their keys are, held moves handed to the walk, the right stick turning the
//! view as the mouse does (and recorded as the mouse is).

use std::time::Instant;

use super::App;
use super::controls::Action;
use super::gamepad::{PadEvent, PadPress};

impl App {
    /// Take the pads' events since the last frame, at `now`.
    pub(super) fn poll_pads(&mut self, now: Instant) {
        while let Some((event, name)) = self.input.gamepads.next(now) {
            self.pad_event(event, name);
        }
        let secs = self.input.pads_polled(now);
        // While the panel shows or a script plays, the pad walks and turns nothing.
        let held = self.input.pad.take_held();
        if self.prefs.open || self.sim.scripted() {
            self.input.keys.pad = Default::default();
            return;
        }
        self.input.keys.pad = held;
        let live = &self.prefs.live;
        let (dyaw, dpitch) = self
            .input
            .pad
            .look(secs, live.pad_look_speed, live.pad_invert_y);
        if dyaw != 0.0 || dpitch != 0.0 {
            self.turn_view(dyaw, dpitch);
        }
    }

    /// One pad event (`name`: the pad's, for a plug or unplug), real or a test's.
    pub(super) fn pad_event(&mut self, event: PadEvent, name: Option<String>) {
        let name = name.unwrap_or_else(|| "a gamepad".into());
        match event {
            PadEvent::Connected => self
                .overlays
                .hud
                .notify(format!("gamepad connected: {name}")),
            PadEvent::Disconnected => self
                .overlays
                .hud
                .notify(format!("gamepad unplugged: {name}")),
            _ => {}
        }
        let press = self.input.pad.apply(event);
        // The panel's keyboard is not the walk's; nor is its pad.
        if self.prefs.open {
            return;
        }
        match press {
            Some(PadPress::Action(action @ (Action::NextMode | Action::NextResponse))) => {
                self.switch(action);
            }
            Some(PadPress::View(slot)) => self.go_to_view(slot),
            _ => {}
        }
    }
}
