//! winit's events to the app: the window's life, keys, the mouse, dropped files.

use std::time::Duration;

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalPosition;
use winit::event::{
    DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent,
};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Fullscreen, WindowId};

use walkthrough_core::movers::push::{USE_REACH, UseTarget};
use walkthrough_core::preferences::WALKING_SPEED_RANGE;
use walkthrough_core::text::names::Named;

use super::App;
use super::controls::Action;
use super::loading::{FIRST_LOADING, Purpose};
use super::mouse_look::LookSource;

/// How often a hidden window's loop wakes (to see a load end, a Ctrl-C, the time to
/// quit): ten times a second costs nothing measurable, and nothing is drawn.
const HIDDEN_WAKE: Duration = Duration::from_millis(100);

/// Speed factor of one notch of the mouse wheel.
const SPEED_PER_NOTCH: f32 = 1.15;

/// The walking speed `notches` of the wheel make of `speed`: within
/// [`WALKING_SPEED_RANGE`], or, from a `--speed` outside it, no farther out than it was (one
/// notch took `--speed 500` to 100 at once).
fn wheel_speed(speed: f32, notches: f32) -> f32 {
    let (lo, hi) = (*WALKING_SPEED_RANGE.start(), *WALKING_SPEED_RANGE.end());
    (speed * SPEED_PER_NOTCH.powf(notches)).clamp(lo.min(speed), hi.max(speed))
}
/// Pixels of a touchpad's scroll that count as one wheel notch.
const PIXELS_PER_NOTCH: f32 = 40.0;

/// The saved-view slot of a digit key 1 to 9.
fn view_slot(key: KeyCode) -> Option<u8> {
    const DIGITS: [KeyCode; 9] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    DIGITS.iter().position(|k| *k == key).map(|i| i as u8 + 1)
}

/// What the window says of E meeting `target` (nothing when it meets a mover: the mover
/// moving says it).
fn use_notice(target: UseTarget) -> Option<String> {
    match target {
        UseTarget::Mover(_) => None,
        UseTarget::OutOfReach => Some(format!(
            "E: nothing to use within {USE_REACH} m ahead (a door or lift that starts on use: look at it, closer)"
        )),
        UseTarget::NoneInMap => {
            Some("E uses doors and lifts a scene starts on use: there are none here".into())
        }
    }
}

impl App {
    /// A key taken by the settings panel or the file browser, while one shows (the
    /// keyboard is theirs); returns whether it was.
    fn key_for_overlay(&mut self, key: KeyCode, down: bool, repeat: bool) -> bool {
        if self.prefs.open {
            // F12 saves a screenshot even while a move waits for its key (it was refused
            // as that key, and no screenshot taken).
            if let Some(m) = self.prefs.binding
                && down
                && !repeat
                && key != KeyCode::F12
            {
                // The key pressed after a move's button is its new key (Esc: no change).
                self.prefs.binding = None;
                self.prefs.binding_done = true;
                if key != KeyCode::Escape {
                    self.bind_key(m, key);
                }
                return true;
            }
            if down && !repeat {
                self.panel_key(key);
            }
            return true;
        }
        if self.overlays.browser.is_some() {
            if down {
                self.browser_key(key, repeat);
            }
            return true;
        }
        false
    }

    /// A key pressed or let go: the overlays' while one takes the keyboard, a held move's,
    /// Ctrl+O, a saved view's digit, or the [`Action`] it is.
    fn on_key(&mut self, event_loop: &ActiveEventLoop, key: KeyCode, down: bool, repeat: bool) {
        if self.key_for_overlay(key, down, repeat) {
            return;
        }
        // Control with O is a command before it is a key: a move bound to O still walks
        // without Control, and Ctrl+O still opens the browser.
        if down && !repeat && self.input.ctrl && key == KeyCode::KeyO {
            return self.open_browser();
        }
        if down && !repeat && self.input.keys.uses(key) {
            self.say_use_target();
        }
        if self.input.keys.set(key, down) || !down || repeat {
            return;
        }
        if let Some(slot) = view_slot(key) {
            return if self.input.ctrl {
                self.keep_view(slot)
            } else {
                self.go_to_view(slot)
            };
        }
        if let Some(action) = Action::of_key(key, self.input.keys.shift()) {
            self.act(event_loop, action);
        }
    }

    /// Do what a key's `action` asks: the part it belongs to does it.
    fn act(&mut self, event_loop: &ActiveEventLoop, action: Action) {
        match action {
            Action::Escape => self.escape(event_loop),
            Action::NextResponse | Action::NextMode | Action::NextMethod => self.switch(action),
            Action::Help => self.overlays.hud.press_help(),
            Action::Settings => {
                // The later replaces the earlier: the panel opens in the help's place.
                self.overlays.hud.help = false;
                self.toggle_settings();
            }
            Action::DebugView => self.overlays.toggle_debug(),
            Action::Minimap => self.overlays.toggle_minimap(),
            Action::NextView => self.next_view(),
            Action::DetachCamera => {
                let eye = self.sim.controller.view_pose();
                self.camera.toggle_detached(eye);
            }
            Action::Record => self.toggle_recording(),
            Action::Pause => {
                let said = self.sim.toggle_pause();
                (self.overlays.hud).notify(said.unwrap_or_else(|| "no script is playing".into()));
            }
            Action::ReplaySpeed => {
                let said = self.sim.next_replay_speed();
                (self.overlays.hud).notify(said.unwrap_or_else(|| "no script is playing".into()));
            }
            Action::Fullscreen => self.toggle_fullscreen(),
            Action::Screenshot => self.shots.take_f12(),
            Action::Reload if self.first_loading() => {
                self.overlays.hud.notify(FIRST_LOADING.into())
            }
            Action::Reload if self.fallen_off() => self.return_to_spawn(),
            Action::Reload => self.load_in_background(self.config.map.clone(), Purpose::Reload),
            Action::NextUp { backwards } => self.turn_up(backwards),
            Action::Scale { larger, to_unit } => self.step_scale(larger, to_unit),
            Action::Keep => self.keep_frame(),
            Action::Measure => {
                let eye = self.camera.aim_now(self.sim.controller.pose);
                self.mark_point(&eye);
            }
            Action::Inspect => self.inspect_crosshair(),
            Action::Teleport => self.teleport(),
        }
    }

    /// Esc: first gives up a load in progress (the map being walked stays); then closes
    /// the help (the settings panel has its own Esc) and frees the mouse, or arms the
    /// quit, or quits when armed.
    fn escape(&mut self, event_loop: &ActiveEventLoop) {
        if self.cancel_loading() {
            return;
        }
        self.overlays.hud.help = false;
        if self.input.captured {
            self.set_capture(false);
            // This Esc answered the load's end: the next one quits as said.
            self.life.load_ended = None;
            self.life.arm_quit();
            self.overlays
                .hud
                .notify("mouse free: Esc again to quit, click to look".into());
        } else if self.esc_for_ended_load() {
            self.life.arm_quit();
        } else if self.life.quit_is_armed() {
            self.exit(event_loop);
        } else {
            // One Esc never quits: with the mouse never captured it closed the window
            // unasked, as it did a moment after a load it meant to cancel.
            self.life.arm_quit();
            self.overlays.hud.notify("Esc again to quit".into());
        }
    }

    /// E pressed: say so when it meets nothing to use (what it meets starts in the tick).
    fn say_use_target(&mut self) {
        let eye = self.sim.controller.pose;
        let target = self.sim.session.use_target(eye.position, eye.forward());
        if let Some(line) = use_notice(target) {
            self.overlays.hud.notify(line);
        }
    }

    /// Stop / slide, walk / fly or the next point-in-triangle method (a key's or a pad's
    /// press), recorded as the script line that does it.
    pub(super) fn switch(&mut self, action: Action) {
        let s = &mut self.sim.controller.settings;
        let line = match action {
            Action::NextResponse => {
                s.response = s.response.next();
                format!("response {}", s.response)
            }
            Action::NextMode => {
                let mode = s.mode.next();
                if let Some(moved) = self.sim.switch_mode(mode) {
                    self.overlays.hud.notify(moved);
                }
                return;
            }
            Action::NextMethod => {
                s.method = s.method.next();
                format!("method {}", s.method)
            }
            _ => return,
        };
        self.sim.record_set(&line);
    }

    /// A key pressed while the settings panel shows: the keyboard is the panel's. F2 or
    /// Esc closes it; F1 shows the help in its place (they never stack); F12 still saves
    /// a screenshot and F11 still turns fullscreen (a screenshot of the panel was
    /// silently not taken).
    fn panel_key(&mut self, key: KeyCode) {
        match key {
            KeyCode::F2 | KeyCode::Escape => self.toggle_settings(),
            KeyCode::F1 => {
                self.toggle_settings();
                self.overlays.hud.press_help();
            }
            KeyCode::F12 => self.shots.take_f12(),
            KeyCode::F11 => self.toggle_fullscreen(),
            _ => {}
        }
    }

    /// Turn the view (the mouse's or the right stick's turn, degrees): the detached
    /// camera's, or the walker's (recorded).
    pub(super) fn turn_view(&mut self, dyaw: f32, dpitch: f32) {
        match &mut self.camera.free_camera {
            Some(camera) => camera.pose.turn(dyaw, dpitch),
            None => {
                self.sim.controller.pose.turn(dyaw, dpitch);
                self.sim.record_turn(dyaw, dpitch);
            }
        }
    }

    /// Borderless fullscreen on the window's monitor, or back to the window.
    fn toggle_fullscreen(&mut self) {
        let Some(gpu) = &self.gpu else { return };
        let w = &gpu.ctx.window;
        w.set_fullscreen(match w.fullscreen() {
            Some(_) => None,
            None => Some(Fullscreen::Borderless(None)),
        });
    }

    /// Capture the cursor for mouse look, or free it (nothing before the window opens).
    pub(super) fn set_capture(&mut self, on: bool) {
        if let Some(gpu) = &self.gpu {
            self.input.set_capture(&gpu.ctx.window, on);
        }
    }

    /// The cursor seen at `at`: while captured, when mouse look reads the cursor (X11),
    /// turn the view by the pixels it went.
    fn cursor_moved(&mut self, at: PhysicalPosition<f64>) {
        let Some(gpu) = &self.gpu else {
            self.input.cursor = Some(at);
            return;
        };
        let Some((dx, dy)) = self.input.cursor_moved(&gpu.ctx.window, at) else {
            return;
        };
        let (dyaw, dpitch) = self.prefs.mouse_turn(dx, dy);
        if (dyaw, dpitch) != (0.0, 0.0) {
            self.turn_view(dyaw, dpitch);
        }
    }

    /// The wheel turned `delta`: Ctrl lengthens the third-person boom, else the walking
    /// speed changes (recorded). An X11 notch's echo is dropped.
    fn wheel(&mut self, delta: MouseScrollDelta) {
        if self.input.wheel_echo(delta) {
            return;
        }
        let notches = match delta {
            MouseScrollDelta::LineDelta(_, y) => y,
            MouseScrollDelta::PixelDelta(p) => p.y as f32 / PIXELS_PER_NOTCH,
        };
        if self.input.ctrl {
            self.lengthen_boom(notches);
            return;
        }
        let s = &mut self.sim.controller.settings;
        s.speed = wheel_speed(s.speed, notches);
        let line = format!("speed {}", s.speed);
        self.sim.record_set(&line);
    }

    /// A right click: stick a decal where the crosshair points (Shift: take away the one
    /// there).
    fn right_click(&mut self) {
        let eye = self.camera.aim_now(self.sim.controller.pose);
        if self.input.keys.shift() {
            self.unstick_decal(&eye);
        } else {
            self.stick_decal(&eye);
        }
    }

    /// Quit, saving the exit screenshot if one is due (once: a held Esc asks again
    /// before the loop ends).
    pub(super) fn exit(&mut self, event_loop: &ActiveEventLoop) {
        if self.life.mark_exited() {
            return;
        }
        if let Some(p) = self.config.window.screenshot.clone()
            && (self.sim.scripted() || self.config.script.is_none())
        {
            // No script, or it did not finish: save what is on screen now.
            self.save_screenshot(Some(&p));
        }
        // The window goes at once; freeing a big map's GPU and CPU memory (a quarter of a
        // second for lost_empire) happens after the user has seen it close.
        if let Some(gpu) = &self.gpu {
            gpu.ctx.window.set_visible(false);
        }
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gpu.is_none() {
            self.open_window(event_loop);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if let Some(gpu) = &mut self.gpu {
            // egui only needs the events for its own widgets; the HUD has none to click.
            let _ = gpu.egui.on_window_event(&gpu.ctx.window, &event);
        }
        match event {
            WindowEvent::CloseRequested => self.exit(event_loop),
            WindowEvent::Resized(size) => {
                if let Some(gpu) = &self.gpu {
                    gpu.ctx.resize(size.width, size.height);
                }
                self.window_resized(size);
            }
            WindowEvent::ModifiersChanged(m) => self.input.ctrl = m.state().control_key(),
            WindowEvent::Occluded(hidden) => self.life.occluded = hidden,
            WindowEvent::Focused(false) => {
                self.input.keys.clear();
                self.set_capture(false);
            }
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                // An Esc held as the window gains focus is told as a press made up by
                // winit: it is none (a stuck Esc quit the next launches at once).
                // Made-up releases are kept: they let go of held moves.
                let made_up_esc = is_synthetic
                    && event.state == ElementState::Pressed
                    && event.physical_key == PhysicalKey::Code(KeyCode::Escape);
                if made_up_esc {
                    return;
                }
                if let PhysicalKey::Code(code) = event.physical_key {
                    self.on_key(
                        event_loop,
                        code,
                        event.state == ElementState::Pressed,
                        event.repeat,
                    );
                }
            }
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Left,
                ..
            } if !self.input.captured && !self.prefs.open && self.overlays.browser.is_none() => {
                self.set_capture(true);
                if self.input.captured {
                    self.overlays
                        .hud
                        .notify("mouse captured: move it to look, Esc frees it".into());
                }
            }
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Right,
                ..
            } if !self.prefs.open && !self.overlays.hud.help && self.overlays.browser.is_none() => {
                // The crosshair is the view's middle whether or not the mouse is captured
                // (a right click on a free mouse did nothing); the help hides it, and then
                // nothing is stuck.
                self.right_click();
            }
            WindowEvent::MouseWheel { delta, .. }
                if !self.prefs.open && self.overlays.browser.is_none() =>
            {
                self.wheel(delta)
            }
            WindowEvent::CursorMoved { position, .. } => self.cursor_moved(position),
            WindowEvent::DroppedFile(path) => self.load_in_background(Some(path), Purpose::Open),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
        if let DeviceEvent::MouseMotion { delta: (dx, dy) } = event
            && self.input.captured
            && self.input.look == LookSource::Raw
        {
            let (dyaw, dpitch) = self.prefs.mouse_turn(dx, dy);
            self.turn_view(dyaw, dpitch);
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if crate::cli::terminal::interrupted() {
            tell!("interrupted: closing the window");
            return self.exit(event_loop);
        }
        // Here rather than in a frame: a minimised window draws none, and the map the
        // window was opened for must still close it when it cannot be loaded.
        self.poll_loading();
        if self.life.quitting && self.life.error.is_some() {
            return self.exit(event_loop);
        }
        let Some(gpu) = &self.gpu else { return };
        // Minimised or hidden, nothing is drawn and the loop waits instead of spinning:
        // it wakes a few times a second for a load's end and a Ctrl-C.
        let w = &gpu.ctx.window;
        if self.life.occluded || w.is_minimized() == Some(true) {
            if self.exit_after_passed() {
                return self.exit(event_loop);
            }
            event_loop.set_control_flow(ControlFlow::wait_duration(HIDDEN_WAKE));
        } else {
            event_loop.set_control_flow(ControlFlow::Poll);
            w.request_redraw();
        }
    }

    fn exiting(&mut self, _: &ActiveEventLoop) {
        self.stop_recording("");
        self.save_settings(true);
        if let Some(mut gpu) = self.gpu.take() {
            gpu.egui.destroy();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One notch of the wheel took `--speed 500` to 100 at once.
    #[test]
    fn the_wheel_moves_a_speed_outside_the_range_by_a_notch_not_into_it() {
        let hi = *WALKING_SPEED_RANGE.end();
        assert!((wheel_speed(500.0, -1.0) - 500.0 / SPEED_PER_NOTCH).abs() < 1e-3);
        assert_eq!(wheel_speed(500.0, 1.0), 500.0, "no farther out");
        assert_eq!(
            wheel_speed(hi, 1.0),
            hi,
            "within the range, at most its end"
        );
        assert!((wheel_speed(3.0, 1.0) - 3.0 * SPEED_PER_NOTCH).abs() < 1e-6);
    }

    #[test]
    /// E looking at a door 2.5 m away said nothing, so a door
    /// that opens on use could not be told from a wall.
    fn e_meeting_nothing_to_use_says_why() {
        assert_eq!(use_notice(UseTarget::Mover(3)), None);
        let far = use_notice(UseTarget::OutOfReach).unwrap();
        assert!(far.contains("within 2 m"), "{far}");
        let none = use_notice(UseTarget::NoneInMap).unwrap();
        assert!(none.contains("there are none here"), "{none}");
    }
}
