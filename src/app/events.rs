//! winit's events to the app: the window's life, keys, the mouse, dropped files.

use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{
    DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent,
};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{CursorGrabMode, Fullscreen, Window, WindowAttributes, WindowId};

use walkthrough_core::cull::{CLUSTER_TRIANGLES, cluster_map};
use walkthrough_core::movers::push::{USE_REACH, UseTarget};
use walkthrough_core::player::Pose;
use walkthrough_core::preferences::WALKING_SPEED_RANGE;
use walkthrough_core::text::names::Named;

use super::controls::Action;
use super::free_camera::FreeCamera;
use super::loading::{FIRST_LOADING, Purpose};
use super::mouse_look::{CursorLook, LookSource};
use super::preferences::{ScreenRect, opening_on};
use super::render::{
    Culling, DebugDraw, DecalDraw, GlWindowContext, MirrorDraw, Renderer, WaterSurface,
    probe_software,
};
use super::{App, Gpu};

/// How long after an Esc that said "Esc again to quit" another one quits.
pub const ESC_AGAIN: Duration = Duration::from_secs(3);

/// Two equal wheel lines closer than this are one notch told twice (see
/// [`App::wheel_echo`]).
const WHEEL_ECHO: Duration = Duration::from_millis(3);
/// How often a hidden window's loop wakes (to see a load end, a Ctrl-C, the time to
/// quit): ten times a second costs nothing measurable, and nothing is drawn.
const HIDDEN_WAKE: Duration = Duration::from_millis(100);

/// Speed factor of one notch of the mouse wheel.
const SPEED_PER_NOTCH: f32 = 1.15;

/// The walking speed `notches` of the wheel make of `speed`: within
/// [`WALKING_SPEED_RANGE`], or, from a `--speed` outside it, no farther out than it was (one
/// notch took `--speed 500` to 100 at once: a review's finding).
fn wheel_speed(speed: f32, notches: f32) -> f32 {
    let (lo, hi) = (*WALKING_SPEED_RANGE.start(), *WALKING_SPEED_RANGE.end());
    (speed * SPEED_PER_NOTCH.powf(notches)).clamp(lo.min(speed), hi.max(speed))
}
/// Pixels of a touchpad's scroll that count as one wheel notch.
const PIXELS_PER_NOTCH: f32 = 40.0;

/// Anisotropic filtering on a GPU, unless `--anisotropy` says otherwise.
const DEFAULT_ANISOTROPY: f32 = 8.0;
/// Multisampled antialiasing on a GPU, samples a pixel, unless `--msaa` says otherwise.
const DEFAULT_GPU_MSAA: u8 = 4;
const _: () = assert!(DEFAULT_GPU_MSAA > 1, "a GPU's default must antialias");

/// The samples a pixel when `--msaa` is not given, for a GL that draws on the CPU or not
/// (`None`: not known). A software rasterizer pays for 4x about what drawing 4 times
/// costs (the built-in map's frame 3x on llvmpipe); a GPU hardly notices, and edges
/// without it crawl as the view moves.
fn default_msaa(software: Option<bool>) -> u8 {
    match software {
        Some(false) => DEFAULT_GPU_MSAA,
        Some(true) | None => 0,
    }
}

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

/// The window's egui, with scroll bars that show: egui's floating ones are invisible
/// until hovered, and the settings panel cut off at 720 pixels gave no sign that it
/// scrolls to its last rows.
fn new_egui(
    event_loop: &ActiveEventLoop,
    gl: &std::sync::Arc<glow::Context>,
) -> egui_glow::EguiGlow {
    let egui = egui_glow::EguiGlow::new(event_loop, gl.clone(), None, None, true);
    egui.egui_ctx
        .all_styles_mut(|s| s.spacing.scroll = egui::style::ScrollStyle::solid());
    egui
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
            // as that key, and no screenshot taken: a new user's finding).
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
        if self.browser.is_some() {
            if down {
                self.browser_key(key, repeat);
            }
            return true;
        }
        false
    }

    fn on_key(&mut self, event_loop: &ActiveEventLoop, key: KeyCode, down: bool, repeat: bool) {
        if self.key_for_overlay(key, down, repeat) {
            return;
        }
        if down && !repeat && self.keys.uses(key) {
            self.say_use_target();
        }
        if self.keys.set(key, down) || !down || repeat {
            return;
        }
        if self.ctrl && key == KeyCode::KeyO {
            return self.open_browser();
        }
        if let Some(slot) = view_slot(key) {
            return if self.ctrl {
                self.keep_view(slot)
            } else {
                self.go_to_view(slot)
            };
        }
        let Some(action) = Action::of_key(key, self.keys.shift()) else {
            return;
        };
        // Esc first gives up a load in progress; the map being walked stays.
        if action == Action::Escape && self.cancel_loading() {
            return;
        }
        if action == Action::Escape {
            // Esc closes the help too (the settings panel has its own Esc, above), and
            // goes on to free the mouse or arm the quit as ever.
            self.overlay.help = false;
        }
        match action {
            Action::Escape if self.captured => {
                self.set_capture(false);
                // This Esc answered the load's end: the next one quits as said.
                self.load_ended = None;
                self.quit_armed = Some(Instant::now());
                self.overlay
                    .notify("mouse free: Esc again to quit, click to look".into());
            }
            Action::Escape if self.esc_for_ended_load() => self.quit_armed = Some(Instant::now()),
            Action::Escape if self.quit_armed.is_some_and(|t| t.elapsed() < ESC_AGAIN) => {
                self.exit(event_loop)
            }
            // One Esc never quits: with the mouse never captured it closed the window
            // unasked, as it did a moment after a load it meant
            // to cancel.
            Action::Escape => {
                self.quit_armed = Some(Instant::now());
                self.overlay.notify("Esc again to quit".into());
            }
            Action::NextResponse | Action::NextMode | Action::NextMethod => self.switch(action),
            Action::Help => self.overlay.press_help(),
            Action::Settings => {
                // The later replaces the earlier: the panel opens in the help's place.
                self.overlay.help = false;
                self.toggle_settings();
            }
            Action::DebugView => self.debug.on = !self.debug.on,
            Action::Minimap => self.minimap.on = !self.minimap.on,
            Action::NextView => self.next_view(),
            Action::DetachCamera => {
                self.free_camera = match self.free_camera {
                    Some(_) => None,
                    None => Some(FreeCamera::at(
                        self.sim.controller.view_pose(),
                        Instant::now(),
                    )),
                };
            }
            Action::Record => self.toggle_recording(),
            Action::Pause => {
                let said = self.sim.toggle_pause();
                self.overlay
                    .notify(said.unwrap_or_else(|| "no script is playing".into()));
            }
            Action::ReplaySpeed => {
                let said = self.sim.next_replay_speed();
                self.overlay
                    .notify(said.unwrap_or_else(|| "no script is playing".into()));
            }
            Action::Fullscreen => self.toggle_fullscreen(),
            Action::Screenshot => self.f12_pending = true,
            Action::Reload if self.first_loading() => self.overlay.notify(FIRST_LOADING.into()),
            Action::Reload if self.fallen_off() => self.return_to_spawn(),
            Action::Reload => self.load_in_background(self.config.map.clone(), Purpose::Reload),
            Action::NextUp { backwards } => self.turn_up(backwards),
            Action::Scale { larger, to_unit } => self.step_scale(larger, to_unit),
            Action::Keep => self.keep_frame(),
            Action::Measure => {
                let eye = self.aim_now();
                self.mark_point(&eye);
            }
            Action::Inspect => self.inspect_crosshair(),
            Action::Teleport => self.teleport(),
        }
    }

    /// Stop / slide, walk / fly or the next point-in-triangle method (a key's or a pad's
    /// press), recorded as the script line that does it.
    /// E pressed: say so when it meets nothing to use (what it meets starts in the tick).
    fn say_use_target(&mut self) {
        let eye = self.sim.controller.pose;
        let target = self.sim.session.use_target(eye.position, eye.forward());
        if let Some(line) = use_notice(target) {
            self.overlay.notify(line);
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
                    self.overlay.notify(moved);
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

    /// The look the mouse turns: the detached camera's, or the walker's.
    pub(super) fn looking(&self) -> Pose {
        self.free_camera
            .as_ref()
            .map_or(self.sim.controller.pose, |c| c.pose)
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
                self.overlay.press_help();
            }
            KeyCode::F12 => self.f12_pending = true,
            KeyCode::F11 => self.toggle_fullscreen(),
            _ => {}
        }
    }

    /// The crosshair's ray now: the view last drawn, turned by what the look has turned
    /// since. A right click just after a mouse move stuck the decal where the view had
    /// been (2 of 7 quick clicks, at 30 frames a second).
    pub(super) fn aim_now(&self) -> Pose {
        let (now, then) = (self.looking(), self.drawn_look);
        let mut eye = self.drawn_from;
        eye.turn(now.yaw_deg - then.yaw_deg, now.pitch_deg - then.pitch_deg);
        eye
    }

    /// Turn the view (the mouse's or the right stick's turn, degrees): the detached
    /// camera's, or the walker's (recorded).
    pub(super) fn turn_view(&mut self, dyaw: f32, dpitch: f32) {
        match &mut self.free_camera {
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

    pub(super) fn set_capture(&mut self, on: bool) {
        let Some(gpu) = &self.gpu else { return };
        let w = &gpu.ctx.window;
        if on {
            let locked = w.set_cursor_grab(CursorGrabMode::Locked).is_ok();
            if !locked && w.set_cursor_grab(CursorGrabMode::Confined).is_err() {
                return;
            }
            // A confined pointer's raw motion comes twice on X11: read the cursor there.
            self.look = if !locked && self.x11 {
                LookSource::Cursor(CursorLook::default())
            } else {
                LookSource::Raw
            };
            w.set_cursor_visible(false);
        } else {
            // Failing to release a grab leaves nothing to do: the cursor shows either way.
            let _ = w.set_cursor_grab(CursorGrabMode::None);
            w.set_cursor_visible(true);
        }
        self.captured = on;
    }

    /// The captured cursor seen at `at`: when mouse look reads the cursor (X11), turn by
    /// the pixels it went, and put it back in the middle if it strayed.
    fn cursor_look(&mut self, at: PhysicalPosition<f64>) {
        let (LookSource::Cursor(look), Some(gpu)) = (&mut self.look, &self.gpu) else {
            return;
        };
        let w = &gpu.ctx.window;
        let turn = look.moved(self.cursor, at, w.inner_size());
        if let Some(middle) = turn.warp_to
            && w.set_cursor_position(middle).is_ok()
        {
            look.warped(middle);
        }
        let (dyaw, dpitch) = self.prefs.mouse_turn(turn.dx, turn.dy);
        if (dyaw, dpitch) != (0.0, 0.0) {
            self.turn_view(dyaw, dpitch);
        }
    }

    /// Quit, saving the exit screenshot if one is due (once: a held Esc asks again
    /// before the loop ends).
    pub(super) fn exit(&mut self, event_loop: &ActiveEventLoop) {
        if std::mem::replace(&mut self.exited, true) {
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

    /// Warn of a window larger than the screen (not fullscreen): it is drawn whole, off
    /// the screen's edge (16384 x 16384 took 4.3 GB and a 306 MB screenshot, said by
    /// nothing: a new user's finding).
    fn warn_past_screen(&mut self, window: &Window) {
        let Some(screen) = window.current_monitor().map(|m| m.size()) else {
            return;
        };
        let [w, h] = self.prefs.live.window_size;
        if !self.config.window.fullscreen && (w > screen.width || h > screen.height) {
            self.overlay.notify(format!(
                "warning: the window {w}x{h} is larger than the screen ({}x{}): it reaches past the screen's edge, and its {:.1} million pixels are drawn (and saved) whole",
                screen.width,
                screen.height,
                f64::from(w) * f64::from(h) / 1e6
            ));
        }
    }

    /// A saved window size larger than the screen (saved before the panel kept sizes
    /// within it, or written by hand) opens wholly on the screen (see [`opening_on`]);
    /// `--size` is taken as given (and warned of: see `warn_past_screen`). Returns where
    /// the window is placed, if it is.
    fn fit_saved_size(&mut self, event_loop: &ActiveEventLoop) -> Option<[i32; 2]> {
        // Fullscreen too: F11 gives the window back at this size.
        if self.config.window.size.is_some() {
            return None;
        }
        // X11 without a primary output (Xvfb) names none: then the first screen.
        let screen = event_loop
            .primary_monitor()
            .or_else(|| event_loop.available_monitors().next())
            .map(|m| ScreenRect {
                origin: [m.position().x, m.position().y],
                size: [m.size().width, m.size().height],
            });
        let saved = self.prefs.live.window_size;
        let fit = opening_on(saved, screen);
        if fit.size != saved {
            self.overlay.notify(format!(
                "the saved window size {}x{} is larger than the screen: opened at {}x{}",
                saved[0], saved[1], fit.size[0], fit.size[1]
            ));
            self.prefs.live.window_size = fit.size;
        }
        fit.position
    }

    /// The window to open: titled with the map, at the saved size (or `--size`), within
    /// the screen (see [`App::fit_saved_size`]), fullscreen if asked.
    fn window_attributes(&mut self, event_loop: &ActiveEventLoop) -> WindowAttributes {
        let placed = self.fit_saved_size(event_loop);
        let [w, h] = self.prefs.live.window_size;
        let attrs = Window::default_attributes()
            .with_title(format!("walkthrough - {}", self.sim.session.map.name))
            .with_inner_size(PhysicalSize::new(w, h))
            .with_fullscreen(
                self.config
                    .window
                    .fullscreen
                    .then_some(Fullscreen::Borderless(None)),
            );
        match placed {
            Some([x, y]) => attrs.with_position(PhysicalPosition::new(x, y)),
            None => attrs,
        }
    }

    /// Whether the wheel event `delta` is the echo of the one before: on X11 one notch
    /// reaches winit twice, the same line a fraction of a millisecond apart (measured
    /// under Xvfb: 0.2 to 0.6 ms), and each notch changed the walking speed twice (x1.32,
    /// a new user's finding). A second notch of a real wheel comes milliseconds later.
    fn wheel_echo(&mut self, delta: MouseScrollDelta) -> bool {
        let now = Instant::now();
        let last = self.last_wheel.replace((now, delta));
        self.x11
            && matches!(delta, MouseScrollDelta::LineDelta(..))
            && last.is_some_and(|(at, d)| d == delta && now - at < WHEEL_ECHO)
    }

    /// Quit with `msg` as the error.
    pub(super) fn fail(&mut self, event_loop: &ActiveEventLoop, msg: String) {
        self.error = Some(msg);
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gpu.is_some() {
            return;
        }
        #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
        {
            use winit::platform::x11::ActiveEventLoopExtX11;
            self.x11 = event_loop.is_x11();
        }
        let attrs = self.window_attributes(event_loop);
        let vsync = self.prefs.live.vsync && self.config.window.bench_frames.is_none();
        let msaa = self
            .config
            .window
            .msaa
            .unwrap_or_else(|| default_msaa(probe_software(event_loop)));
        let asked = self.config.window.msaa.is_some();
        let ctx = match GlWindowContext::new(event_loop, attrs, vsync, msaa, asked) {
            Ok(c) => c,
            Err(e) => return self.fail(event_loop, e),
        };
        tell!("{}", ctx.description);
        self.warn_past_screen(&ctx.window);
        // On a software rasterizer, 8x anisotropic filtering doubled lost_empire's frame.
        let anisotropy = match self.config.window.anisotropy {
            Some(a) => f32::from(a),
            None if ctx.software => {
                tell!(
                    "software rendering: anisotropic filtering off (--anisotropy 8 turns it on), no antialiasing unless --msaa; a render scale under 1 (F2, --render-scale) draws fewer pixels, faster"
                );
                1.0
            }
            None => DEFAULT_ANISOTROPY,
        };
        let upload = Instant::now();
        let mesh = cluster_map(&self.sim.session.map, CLUSTER_TRIANGLES);
        // Before the upload, whose copy would otherwise be made beside them.
        self.release_drawn_map();
        let mut renderer = match Renderer::new(
            ctx.gl.clone(),
            &self.sim.session.map,
            mesh,
            ctx.srgb && !self.config.window.no_srgb,
            anisotropy,
            self.sim.controller.view_pose().position,
        ) {
            Ok(r) => r,
            Err(e) => return self.fail(event_loop, e),
        };
        tell!(
            "clustered and uploaded to the GPU in {:.0} ms ({} clusters)",
            upload.elapsed().as_secs_f64() * 1e3,
            renderer.clusters()
        );
        renderer.set_preferences(&self.prefs.live);
        renderer.count_fragments(self.config.window.bench_frames.is_some());
        let wanted = self
            .config
            .window
            .culling()
            .unwrap_or(Culling::default_for(ctx.software));
        let used = renderer.set_culling(wanted);
        if used != wanted {
            tell!(
                "culling: frustum (occlusion culling reads a depth of one sample a pixel, and this framebuffer is multisampled)"
            );
        } else if self.config.window.culling().is_none() && used == Culling::Frustum {
            tell!(
                "culling: frustum (a GPU draws hidden layers faster than it waits for a depth read; --culling occlusion)"
            );
        }
        let mut drawers = match Drawers::new(&ctx.gl) {
            Ok(d) => d,
            Err(e) => return self.fail(event_loop, e),
        };
        drawers.mirror_draw.upload(&self.mirrors);
        let egui = new_egui(event_loop, &ctx.gl);
        ctx.window.request_redraw();
        self.gpu = Some(Gpu {
            egui,
            debug_draw: drawers.debug_draw,
            decal_draw: drawers.decal_draw,
            mirror_draw: drawers.mirror_draw,
            water_surface: drawers.water_surface,
            renderer,
            ctx,
        });
        self.started = Instant::now();
        self.sim.start();
        if self.config.window.record.is_some() {
            self.sim.start_recording(&self.recording_about());
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
            WindowEvent::ModifiersChanged(m) => self.ctrl = m.state().control_key(),
            WindowEvent::Occluded(hidden) => self.occluded = hidden,
            WindowEvent::Focused(false) => {
                self.keys.clear();
                self.set_capture(false);
            }
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                // An Esc held as the window gains focus is told as a press made up by
                // winit: it is none (a stuck Esc quit the next launches at once: a new
                // user's finding). Made-up releases are kept: they let go of held moves.
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
            } if !self.captured && !self.prefs.open && self.browser.is_none() => {
                self.set_capture(true);
                if self.captured {
                    self.overlay
                        .notify("mouse captured: move it to look, Esc frees it".into());
                }
            }
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Right,
                ..
            } if !self.prefs.open && !self.overlay.help && self.browser.is_none() => {
                // The crosshair is the view's middle whether or not the mouse is captured
                // (a right click on a free mouse did nothing); the
                // help hides it, and then nothing is stuck.
                let eye = self.aim_now();
                if self.keys.shift() {
                    self.unstick_decal(&eye);
                } else {
                    self.stick_decal(&eye);
                }
            }
            WindowEvent::MouseWheel { delta, .. } if !self.prefs.open && self.browser.is_none() => {
                if self.wheel_echo(delta) {
                    return;
                }
                let notches = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / PIXELS_PER_NOTCH,
                };
                if self.ctrl {
                    self.lengthen_boom(notches);
                    return;
                }
                let s = &mut self.sim.controller.settings;
                s.speed = wheel_speed(s.speed, notches);
                let line = format!("speed {}", s.speed);
                self.sim.record_set(&line);
            }
            WindowEvent::CursorMoved { position, .. } => {
                if self.captured {
                    self.cursor_look(position);
                }
                self.cursor = Some(position);
            }
            WindowEvent::DroppedFile(path) => self.load_in_background(Some(path), Purpose::Open),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
        if let DeviceEvent::MouseMotion { delta: (dx, dy) } = event
            && self.captured
            && self.look == LookSource::Raw
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
        if self.quitting && self.error.is_some() {
            return self.exit(event_loop);
        }
        let Some(gpu) = &self.gpu else { return };
        // Minimised or hidden, nothing is drawn and the loop waits instead of spinning:
        // it wakes a few times a second for a load's end and a Ctrl-C.
        let w = &gpu.ctx.window;
        if self.occluded || w.is_minimized() == Some(true) {
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

/// The GL objects drawn beside the scene's: the overlay, the decals, the mirrors and the
/// water's surface.
struct Drawers {
    debug_draw: DebugDraw,
    decal_draw: DecalDraw,
    mirror_draw: MirrorDraw,
    water_surface: WaterSurface,
}

impl Drawers {
    /// Make each (the first that cannot be made is the error).
    fn new(gl: &std::sync::Arc<glow::Context>) -> Result<Drawers, String> {
        Ok(Drawers {
            debug_draw: DebugDraw::new(gl.clone())?,
            decal_draw: DecalDraw::new(gl.clone())?,
            mirror_draw: MirrorDraw::new(gl.clone())?,
            water_surface: WaterSurface::new(gl.clone())?,
        })
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

    #[test]
    fn multisampling_is_on_by_default_only_where_the_gl_is_known_to_be_a_gpu() {
        assert_eq!(default_msaa(Some(false)), DEFAULT_GPU_MSAA);
        assert_eq!(default_msaa(Some(true)), 0);
        // No context could be asked: the choice that costs a software renderer nothing.
        assert_eq!(default_msaa(None), 0);
    }
}
