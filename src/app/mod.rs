//! The window: winit events in, a `MoveIntent` to the controller, the pose to the
//! renderer. The controller runs at the same fixed step as `walkthrough sim`, decoupled
//! from the frame rate.

mod context;
mod hud;
mod input;
mod renderer;

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{
    DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent,
};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{CursorGrabMode, Window, WindowId};

use walkthrough::camera::{Controller, Settings};
use walkthrough::session::{OpenOptions, Session};
use walkthrough::sim::{Command, ScriptPlayer, Stepper, TraceRow, TraceWriter};
use walkthrough::tolerance::DEFAULT_DT;

use context::GlWindowContext;
use input::HeldKeys;
use renderer::Renderer;

/// Mouse look sensitivity, degrees per pixel of motion.
const MOUSE_DEG_PER_PIXEL: f32 = 0.12;
/// Longest stretch of real time simulated in one frame (after a stall, the world does not
/// fast-forward for seconds).
const MAX_FRAME_TIME: Duration = Duration::from_millis(250);
/// How long a notice stays on screen.
const NOTICE_SECS: f32 = 4.0;
/// Speed range reachable with the mouse wheel, m/s.
const SPEED_RANGE: (f32, f32) = (0.1, 100.0);

/// Everything the command line decided.
pub struct Config {
    /// Map file, or the built-in map.
    pub map: Option<PathBuf>,
    /// Scale, up axis, spawn.
    pub open: OpenOptions,
    /// Controller settings.
    pub settings: Settings,
    /// Script driving the controller instead of the keyboard.
    pub script: Option<Vec<Command>>,
    /// Trace CSV output.
    pub trace: Option<PathBuf>,
    /// Screenshot when the script ends, or at exit.
    pub screenshot: Option<PathBuf>,
    /// Quit after this many seconds.
    pub exit_after: Option<f32>,
    /// Vsync on.
    pub vsync: bool,
    /// Render this many frames, report timings, quit.
    pub bench_frames: Option<u32>,
    /// Window size in pixels.
    pub size: (u32, u32),
}

/// Open the window and run until it closes. Map errors are reported before any window
/// opens.
pub fn run(config: Config) -> Result<(), String> {
    let session = Session::open(config.map.as_deref(), &config.open).map_err(|e| e.to_string())?;
    for w in &session.map.warnings {
        eprintln!("warning: {w}");
    }
    eprintln!("{}", session.describe());
    let trace = match &config.trace {
        Some(p) => {
            let f = File::create(p)
                .map_err(|e| format!("{}: cannot write the trace: {e}", p.display()))?;
            Some(
                TraceWriter::new(BufWriter::new(f))
                    .map_err(|e| format!("{}: cannot write the trace: {e}", p.display()))?,
            )
        }
        None => None,
    };
    let event_loop =
        EventLoop::new().map_err(|e| format!("cannot open a window (no display?): {e}"))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let controller = Controller::new(session.start_pose(config.open.pitch_deg), config.settings);
    let script = config
        .script
        .clone()
        .map(|s| ScriptPlayer::new(s, DEFAULT_DT));
    let mut app = App {
        controller,
        script,
        session,
        trace,
        gpu: None,
        keys: HeldKeys::default(),
        captured: false,
        accumulator: Duration::ZERO,
        last_frame: None,
        started: Instant::now(),
        stepper: Stepper::new(DEFAULT_DT),
        since_hit: f32::INFINITY,
        fps: 0.0,
        help: false,
        notice: None,
        loading: None,
        frame_times: Vec::with_capacity(config.bench_frames.unwrap_or(0) as usize),
        hud_text: String::with_capacity(256),
        map_label: String::new(),
        screenshot_pending: false,
        quitting: false,
        error: None,
        config,
    };
    app.map_label = app.label();
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("event loop failed: {e}"))?;
    if let Some(w) = &mut app.trace {
        w.flush()
            .map_err(|e| format!("cannot write the trace: {e}"))?;
    }
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

struct Gpu {
    // Drop order matters: GL objects before the context, the context before the window.
    egui: egui_glow::EguiGlow,
    renderer: Renderer,
    ctx: GlWindowContext,
}

struct Loading {
    what: String,
    since: Instant,
    rx: Receiver<Result<Session, String>>,
    keep_pose: bool,
}

struct App {
    config: Config,
    session: Session,
    controller: Controller,
    script: Option<ScriptPlayer>,
    trace: Option<TraceWriter<BufWriter<File>>>,
    gpu: Option<Gpu>,
    keys: HeldKeys,
    captured: bool,
    accumulator: Duration,
    last_frame: Option<Instant>,
    started: Instant,
    stepper: Stepper,
    since_hit: f32,
    fps: f32,
    help: bool,
    notice: Option<(String, Instant)>,
    loading: Option<Loading>,
    frame_times: Vec<Duration>,
    hud_text: String,
    map_label: String,
    screenshot_pending: bool,
    /// Quit after the next frame (which takes the exit screenshot, if one is due).
    quitting: bool,
    error: Option<String>,
}

impl App {
    fn label(&self) -> String {
        format!(
            "{} ({} tris)",
            self.session.map.name,
            self.session.world.stats().triangles
        )
    }

    fn notify(&mut self, msg: String) {
        eprintln!("{msg}");
        self.notice = Some((msg, Instant::now()));
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, msg: String) {
        self.error = Some(msg);
        event_loop.exit();
    }

    fn set_capture(&mut self, on: bool) {
        let Some(gpu) = &self.gpu else { return };
        let w = &gpu.ctx.window;
        if on {
            let grabbed = w
                .set_cursor_grab(CursorGrabMode::Locked)
                .or_else(|_| w.set_cursor_grab(CursorGrabMode::Confined));
            if grabbed.is_err() {
                return;
            }
            w.set_cursor_visible(false);
        } else {
            let _ = w.set_cursor_grab(CursorGrabMode::None);
            w.set_cursor_visible(true);
        }
        self.captured = on;
    }

    /// Load a map in the background; the window keeps drawing the old one meanwhile.
    fn load_in_background(&mut self, path: Option<PathBuf>, keep_pose: bool) {
        let (tx, rx) = channel();
        let open = OpenOptions {
            spawn: None,
            yaw_deg: None,
            pitch_deg: None,
            ..self.config.open
        };
        let what = path
            .as_ref()
            .map_or("built-in map".to_string(), |p| p.display().to_string());
        std::thread::spawn(move || {
            let _ = tx.send(Session::open(path.as_deref(), &open).map_err(|e| e.to_string()));
        });
        self.loading = Some(Loading {
            what,
            since: Instant::now(),
            rx,
            keep_pose,
        });
    }

    fn poll_loading(&mut self) {
        let Some(l) = &self.loading else { return };
        let Ok(result) = l.rx.try_recv() else { return };
        let keep_pose = l.keep_pose;
        self.loading = None;
        match result {
            Err(e) => self.notify(format!("could not load: {e}")),
            Ok(session) => {
                for w in &session.map.warnings {
                    eprintln!("warning: {w}");
                }
                eprintln!("{}", session.describe());
                let old = self.controller.pose;
                let mut pose = session.start_pose(None);
                // A reload keeps the player where it was, if that is still inside the map.
                if keep_pose && session.world.bounds().inflated(1.0).contains(old.position) {
                    pose = old;
                }
                self.controller.place(pose);
                if let Some(gpu) = &mut self.gpu {
                    gpu.renderer.upload(&session.map);
                }
                self.config.map = session.map.source.clone();
                self.session = session;
                self.map_label = self.label();
                let msg = format!("loaded {}", self.map_label);
                self.notify(msg);
            }
        }
    }

    fn on_key(&mut self, event_loop: &ActiveEventLoop, key: KeyCode, down: bool, repeat: bool) {
        if self.keys.set(key, down) || !down || repeat {
            return;
        }
        let s = &mut self.controller.settings;
        match key {
            KeyCode::Escape => {
                if self.captured {
                    self.set_capture(false);
                } else {
                    self.exit(event_loop);
                }
            }
            KeyCode::Tab => s.response = s.response.toggled(),
            KeyCode::KeyF => s.mode = s.mode.toggled(),
            KeyCode::KeyM => s.method = s.method.next(),
            KeyCode::F1 => self.help = !self.help,
            KeyCode::F12 => self.screenshot_pending = true,
            KeyCode::KeyR => {
                let path = self.config.map.clone();
                self.load_in_background(path, true);
            }
            _ => {}
        }
    }

    /// Advance the simulation by the real time since the last frame, in fixed steps.
    fn simulate(&mut self, now: Instant) {
        let elapsed = self
            .last_frame
            .map_or(Duration::ZERO, |t| now - t)
            .min(MAX_FRAME_TIME);
        self.last_frame = Some(now);
        self.since_hit += elapsed.as_secs_f32();
        self.accumulator += elapsed;
        let dt = Duration::from_secs_f32(self.stepper.dt());
        while self.accumulator >= dt {
            self.accumulator -= dt;
            let intent = match &mut self.script {
                Some(player) => match player.next_step(&mut self.controller) {
                    Some(i) => i,
                    None => {
                        self.script = None;
                        self.script_finished();
                        self.keys.take_intent()
                    }
                },
                None => self.keys.take_intent(),
            };
            let step = self.stepper.step(
                self.session.collider(),
                &self.session.map.frame,
                &mut self.controller,
                &intent,
            );
            if step.report.hit {
                self.since_hit = 0.0;
            }
            self.write_trace(&step.row);
        }
        // Whole rows reach the file each frame: a killed run loses at most one frame.
        self.with_trace(|w| w.flush());
    }

    /// Add a row to the trace, if one is written.
    fn write_trace(&mut self, row: &TraceRow) {
        self.with_trace(|w| w.row(row));
    }

    /// Do `op` on the trace, if one is written; a failed write is reported once and ends
    /// the trace (the walk goes on).
    fn with_trace(&mut self, op: impl FnOnce(&mut TraceWriter<BufWriter<File>>) -> io::Result<()>) {
        if let Some(w) = &mut self.trace
            && let Err(e) = op(w)
        {
            eprintln!("warning: cannot write the trace ({e}); the trace stops here");
            self.trace = None;
        }
    }

    fn script_finished(&mut self) {
        eprintln!("script finished at step {}", self.stepper.steps());
        if self.config.screenshot.is_some() {
            self.screenshot_pending = true;
        }
    }

    fn save_screenshot(&mut self, path: &Path) {
        let Some(gpu) = &self.gpu else { return };
        let size = gpu.ctx.window.inner_size();
        let px = gpu.renderer.read_pixels(size.width, size.height);
        match image::save_buffer(path, &px, size.width, size.height, image::ColorType::Rgba8) {
            Ok(()) => self.notify(format!("screenshot saved to {}", path.display())),
            Err(e) => self.notify(format!(
                "{}: cannot save the screenshot: {e}",
                path.display()
            )),
        }
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let frame_start = Instant::now();
        self.poll_loading();
        self.simulate(frame_start);
        let Some(gpu) = &mut self.gpu else { return };
        let size = gpu.ctx.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return;
        }
        gpu.renderer
            .draw(&self.controller.view_pose(), size.width, size.height);

        // The screenshot shows the scene and the HUD, as the user sees it.
        let pos = self
            .session
            .map
            .frame
            .to_file(self.controller.pose.position);
        let s = &self.controller.settings;
        let loading_msg;
        let state = hud::HudState {
            response: s.response.name(),
            mode: s.mode.name(),
            method: s.method.name(),
            position: pos.into(),
            speed: s.speed,
            stance: self.controller.stance().name(),
            fps: self.fps,
            since_hit: self.since_hit,
            map: &self.map_label,
            loading: match &self.loading {
                Some(l) => {
                    loading_msg = format!(
                        "loading {} ... {:.1} s",
                        l.what,
                        l.since.elapsed().as_secs_f32()
                    );
                    Some(loading_msg.as_str())
                }
                None => None,
            },
            notice: self
                .notice
                .as_ref()
                .filter(|(_, t)| t.elapsed().as_secs_f32() < NOTICE_SECS)
                .map(|(m, _)| m.as_str()),
            help: self.help,
            scripted: self.script.is_some(),
        };
        let text = &mut self.hud_text;
        gpu.egui
            .run(&gpu.ctx.window, |ui| hud::draw(ui, &state, text));
        gpu.egui.paint(&gpu.ctx.window);

        if std::mem::take(&mut self.screenshot_pending) {
            let path = self.config.screenshot.clone().unwrap_or_else(|| {
                let secs = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                PathBuf::from(format!("walkthrough-{secs}.png"))
            });
            self.save_screenshot(&path);
        }
        let Some(gpu) = &mut self.gpu else { return };
        if let Err(e) = gpu.ctx.swap() {
            self.fail(event_loop, e);
            return;
        }
        if self.quitting {
            event_loop.exit();
            return;
        }
        let frame = frame_start.elapsed();
        let secs = frame.as_secs_f32().max(1e-6);
        self.fps = if self.fps == 0.0 {
            1.0 / secs
        } else {
            self.fps * 0.95 + 0.05 / secs
        };
        if let Some(n) = self.config.bench_frames {
            self.frame_times.push(frame);
            if self.frame_times.len() >= n as usize {
                self.report_bench();
                event_loop.exit();
            }
        }
        if let Some(limit) = self.config.exit_after
            && self.started.elapsed().as_secs_f32() >= limit
        {
            self.exit(event_loop);
        }
    }

    fn exit(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(p) = self.config.screenshot.clone()
            && (self.script.is_some() || self.config.script.is_none())
        {
            // No script, or it did not finish: save what is on screen now.
            self.save_screenshot(&p);
        }
        event_loop.exit();
    }

    fn report_bench(&self) {
        let mut t: Vec<f64> = self
            .frame_times
            .iter()
            .map(|d| d.as_secs_f64() * 1e3)
            .collect();
        t.sort_by(f64::total_cmp);
        let median = t[t.len() / 2];
        let worst = t[t.len() - 1];
        let draws = self.gpu.as_ref().map_or(0, |g| g.renderer.draw_calls());
        println!(
            "frames {}  median {median:.2} ms ({:.0} fps)  worst {worst:.2} ms  draw calls {draws}  peak memory {}",
            t.len(),
            1000.0 / median,
            crate::peak_memory().unwrap_or_else(|| "unknown".into())
        );
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gpu.is_some() {
            return;
        }
        let (w, h) = self.config.size;
        let attrs = Window::default_attributes()
            .with_title(format!("walkthrough - {}", self.session.map.name))
            .with_inner_size(PhysicalSize::new(w, h));
        let ctx = match GlWindowContext::new(
            event_loop,
            attrs,
            self.config.vsync && self.config.bench_frames.is_none(),
        ) {
            Ok(c) => c,
            Err(e) => return self.fail(event_loop, e),
        };
        eprintln!("{}", ctx.description);
        let upload = Instant::now();
        let renderer = match Renderer::new(ctx.gl.clone(), &self.session.map) {
            Ok(r) => r,
            Err(e) => return self.fail(event_loop, e),
        };
        eprintln!(
            "uploaded to the GPU in {:.0} ms ({} draw calls a frame)",
            upload.elapsed().as_secs_f64() * 1e3,
            renderer.draw_calls()
        );
        let egui = egui_glow::EguiGlow::new(event_loop, ctx.gl.clone(), None, None, true);
        ctx.window.request_redraw();
        self.gpu = Some(Gpu {
            egui,
            renderer,
            ctx,
        });
        self.started = Instant::now();
        let row = self
            .stepper
            .start_row(&self.controller, &self.session.map.frame);
        self.write_trace(&row);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if let Some(gpu) = &mut self.gpu {
            let _ = gpu.egui.on_window_event(&gpu.ctx.window, &event);
        }
        match event {
            WindowEvent::CloseRequested => self.exit(event_loop),
            WindowEvent::Resized(size) => {
                if let Some(gpu) = &self.gpu {
                    gpu.ctx.resize(size.width, size.height);
                }
            }
            WindowEvent::Focused(false) => {
                self.keys.clear();
                self.set_capture(false);
            }
            WindowEvent::KeyboardInput { event, .. } => {
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
            } if !self.captured => {
                self.set_capture(true);
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                let s = &mut self.controller.settings;
                s.speed = (s.speed * 1.15f32.powf(steps)).clamp(SPEED_RANGE.0, SPEED_RANGE.1);
            }
            WindowEvent::DroppedFile(path) => self.load_in_background(Some(path), false),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
        if let DeviceEvent::MouseMotion { delta: (dx, dy) } = event
            && self.captured
        {
            self.controller.pose.turn(
                -dx as f32 * MOUSE_DEG_PER_PIXEL,
                -dy as f32 * MOUSE_DEG_PER_PIXEL,
            );
        }
    }

    fn about_to_wait(&mut self, _: &ActiveEventLoop) {
        if let Some(gpu) = &self.gpu {
            gpu.ctx.window.request_redraw();
        }
    }

    fn exiting(&mut self, _: &ActiveEventLoop) {
        if let Some(mut gpu) = self.gpu.take() {
            gpu.egui.destroy();
        }
    }
}
