//! The window: winit events in, a `MoveIntent` to the controller, the pose to the
//! renderer. The controller runs at the same fixed step as `walkthrough sim`, decoupled
//! from the frame rate. Three rooms: the shell here, [`render`] (GL) and [`ui`] (egui);
//! the rooms never reach back into the shell's `App`.
//!
//! - `events`: winit's events (keys, mouse, window life) to the app.
//! - `controls`: the table of controls and the keys that act once a press.
//! - `keys`: held movement keys to a move intent.
//! - `simulation`: the session, the controller, the script and the trace, in fixed steps.
//! - `loading`: maps loaded on a worker thread.
//! - `correction`: the up axis and scale corrected live (U, `[`, `]`), remembered.
//! - `recording`: the walk recorded as a script (F5, `--record`).
//! - `views`: saved views (Ctrl+1..9 keeps one, 1..9 goes back), remembered.
//! - `preferences`: the user's settings applied to this run (the F2 panel's changes, the
//!   window's size) and saved.
//! - `redraw`: one frame: steps, scene, HUD, screenshot, swap.
//! - `bench`: `--bench-frames`: the frames' times and counts, summed up, and a row each.
//! - `free_camera`: the detached view (V).
//! - `debug_view`: the collision made visible (G): what the last steps touched and tested.

mod bench;
pub mod controls;
mod correction;
mod debug_view;
mod events;
mod free_camera;
mod keys;
mod loading;
mod preferences;
mod recording;
mod redraw;
mod render;
mod simulation;
mod ui;
mod views;

use std::path::PathBuf;
use std::time::Instant;

use winit::event_loop::{ControlFlow, EventLoop};

pub use render::Culling;
pub use ui::settings_panel::Overrides;
use walkthrough::map::MapFrame;
use walkthrough::output::PartialFile;
use walkthrough::output::check_writable;
use walkthrough::player::{Controller, ControllerSettings};
use walkthrough::session::OpenOptions;
use walkthrough::sim::{Command, StartLine, TraceWriter};
use walkthrough::store::{ContentKey, Store};

use crate::terminal::{Opened, inputs, open_map, warn_starts};
use bench::Bench;
use debug_view::DebugView;
use free_camera::FreeCamera;
use keys::HeldKeys;
use loading::Loading;
use render::{DebugDraw, GlWindowContext, Renderer};
use simulation::Simulation;
use ui::hud::Overlay;
use ui::minimap::{self, Minimap};
use ui::offer::Offer;
use ui::settings_panel::SettingsState;
use walkthrough::map::minimap::top_down;

/// Everything the command line decided.
pub struct Config {
    /// Map file, or the built-in map.
    pub map: Option<PathBuf>,
    /// Scale, up axis, spawn.
    pub open: OpenOptions,
    /// Controller settings.
    pub settings: ControllerSettings,
    /// Script driving the controller instead of the keyboard.
    pub script: Option<Vec<Command>>,
    /// The script's `start` lines (checked against the map once it is open).
    pub script_starts: Vec<StartLine>,
    /// The script's file (an input: no output may replace it).
    pub script_path: Option<PathBuf>,
    /// Trace CSV output.
    pub trace: Option<PathBuf>,
    /// Screenshot when the script ends, or at exit.
    pub screenshot: Option<PathBuf>,
    /// Quit after this many seconds.
    pub exit_after: Option<f32>,
    /// Quit when the script ends.
    pub exit_when_done: bool,
    /// Say more while loading.
    pub verbose: bool,
    /// Drop the remembered correction of the map before opening it.
    pub forget: bool,
    /// Start with the debug view on.
    pub debug_view: bool,
    /// Render this many frames, report timings, quit.
    pub bench_frames: Option<u32>,
    /// With `bench_frames`: a row a frame to this CSV file.
    pub bench_out: Option<PathBuf>,
    /// Start in borderless fullscreen (F11 toggles it).
    pub fullscreen: bool,
    /// Record the walk from the start into this script file (`--record`).
    pub record: Option<PathBuf>,
    /// Cap the frame rate (`--max-fps`).
    pub max_fps: Option<f64>,
    /// Multisample antialiasing samples a pixel (0: off); `None`: 4 on a GPU, off on a
    /// software renderer.
    pub msaa: Option<u8>,
    /// Anisotropic filtering of textures (1: off); `None`: 8 on a GPU, off on a software
    /// renderer.
    pub anisotropy: Option<u8>,
    /// What the renderer leaves out of each frame (`--culling`, `--no-cull`); `None`:
    /// the renderer's default ([`Culling::default_for`]).
    pub culling: Option<Culling>,
    /// Light in linear space into an sRGB framebuffer where the display has one
    /// (`--no-srgb` turns it off: display-space light, colours out as written).
    pub srgb: bool,
    /// Settings the command line gives for this run (over the saved ones).
    pub overrides: Overrides,
}

/// Open the window and run until it closes. Map errors are reported before any window
/// opens.
pub fn run(config: Config) -> Result<(), String> {
    let Opened {
        session,
        store,
        content_key,
    } = open_map(
        config.map.as_deref(),
        config.open,
        config.forget,
        config.verbose,
    )?;
    warn_starts(
        &session,
        config.script_starts.iter().copied(),
        config.script_path.as_deref(),
    );
    let inputs = inputs(&session, config.script_path.as_ref());
    // Every output is checked before the window opens, as `sim` checks its trace: a
    // recording onto the map, into a folder that is not there or onto a device was found
    // only when the walk ended, and lost.
    for p in [&config.screenshot, &config.record].into_iter().flatten() {
        check_writable(p, &inputs).map_err(|e| e.to_string())?;
    }
    let trace = match &config.trace {
        Some(p) => {
            let f = PartialFile::create(p, &inputs).map_err(|e| e.to_string())?;
            Some(
                TraceWriter::new(f)
                    .map_err(|e| format!("{}: cannot write the trace: {e}", p.display()))?,
            )
        }
        None => None,
    };
    let bench = match config.bench_frames {
        Some(frames) => {
            let out = match &config.bench_out {
                Some(p) => Some(PartialFile::create(p, &inputs).map_err(|e| e.to_string())?),
                None => None,
            };
            Some(Bench::new(frames, out))
        }
        None => None,
    };
    let event_loop =
        EventLoop::new().map_err(|e| format!("cannot open a window (no display?): {e}"))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let prefs = SettingsState::new(store.settings(), &config.overrides, store.path());
    let mut settings = config.settings;
    if config.script.is_none() {
        // A script walks at the defaults (or --speed) unless it says otherwise: it is the
        // same walk whatever the settings file says. The user's own walk takes them.
        settings.speed = prefs.live.walking_speed;
        settings.run_multiplier = prefs.live.run_factor;
    }
    let controller = Controller::new(session.start_pose(config.open.pitch_deg), settings);
    let overlay = Overlay::new(session.label(), session.map.frame);
    // A benchmark measures frames, not the user's answer to a question.
    let offer = config
        .bench_frames
        .is_none()
        .then(|| Offer::of(&session))
        .flatten();
    if let Some(o) = &offer {
        eprintln!("{}", o.text);
    }
    let drawn = Instant::now();
    let minimap = Minimap::new(top_down(&session.map, minimap::IMAGE_SIDE));
    eprintln!(
        "minimap drawn in {:.0} ms",
        drawn.elapsed().as_secs_f64() * 1e3
    );
    let mut app = App {
        sim: Simulation::new(session, controller, config.script.clone(), trace),
        gpu: None,
        keys: HeldKeys::default(),
        captured: false,
        ctrl: false,
        view_placed: false,
        overlay,
        debug: DebugView::new(config.debug_view),
        free_camera: None,
        minimap,
        loading: None,
        started: Instant::now(),
        bench,
        screenshot_pending: false,
        quitting: false,
        error: None,
        store,
        content_key,
        correction: None,
        marker_until: None,
        offer,
        prefs,
        config,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("event loop failed: {e}"))?;
    let trace = config_trace_name(&app.config);
    app.sim
        .finish()
        .map_err(|e| format!("{trace}: cannot write the trace: {e}"))?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The trace's file as messages name it.
fn config_trace_name(config: &Config) -> String {
    config
        .trace
        .as_deref()
        .map_or_else(|| "the trace".into(), walkthrough::quote::shown_path)
}

/// The window, its GL objects and egui. Drop order matters: GL objects before the
/// context, the context before the window.
struct Gpu {
    egui: egui_glow::EguiGlow,
    debug_draw: DebugDraw,
    renderer: Renderer,
    ctx: GlWindowContext,
}

/// The running window app.
struct App {
    config: Config,
    /// The walk: map, person, script, trace.
    sim: Simulation,
    /// Created when the window opens.
    gpu: Option<Gpu>,
    keys: HeldKeys,
    /// The cursor is captured for mouse look.
    captured: bool,
    /// A Control key is held (Ctrl+1..9 saves a view).
    ctrl: bool,
    /// A saved view was just taken: the next step says if the body had to be moved.
    view_placed: bool,
    overlay: Overlay,
    /// The debug view (G).
    debug: DebugView,
    /// The minimap (N).
    minimap: Minimap,
    /// The detached camera (V): the view flies, the body stands.
    free_camera: Option<FreeCamera>,
    loading: Option<Loading>,
    /// When the window opened (for `--exit-after`).
    started: Instant,
    /// `--bench-frames`: the frames measured.
    bench: Option<Bench>,
    screenshot_pending: bool,
    /// Quit after the next frame (which takes the exit screenshot, if one is due).
    quitting: bool,
    error: Option<String>,
    /// The settings and what is remembered of maps (corrections, views).
    store: Store,
    /// The current map file's content key (`None`: the built-in map or a scene).
    content_key: Option<ContentKey>,
    /// The frame set by U or `[` `]` for the current map: R keeps it.
    correction: Option<MapFrame>,
    /// The person marker stands until then.
    marker_until: Option<Instant>,
    /// The survey's question about the map's frame, while it is unsure and unanswered.
    offer: Option<Offer>,
    /// The user's settings, as this run uses them, and the F2 panel.
    prefs: SettingsState,
}
