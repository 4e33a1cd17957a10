//! The window: winit events in, a `MoveIntent` to the controller, the pose to the
//! renderer. The controller runs at the same fixed step as `walkthrough sim`, decoupled
//! from the frame rate. Three rooms: the shell here, [`render`] (GL) and [`ui`] (egui);
//! the rooms never reach back into the shell's `App`.
//!
//! - `options`: the window's command-line options, each declared once.
//! - `input`, `camera`, `overlays`, `lifecycle`, `shots`, `memory`: the app's state in
//!   parts (the keys, pads and mouse; where the view is drawn from; the HUD, debug view,
//!   minimap and browser; the window's life; the screenshots due and the benchmark; what
//!   is remembered of maps), each with the methods that touch only it.
//! - `events`: winit's events (keys, mouse, window life) to the app: which action, and
//!   the part that does it.
//! - `opening`: the window opened: its size, GL context, renderer and drawers, egui.
//! - `controls`: the table of controls and the keys that act once a press.
//! - `keys`: held movement keys to a move intent.
//! - `simulation`: the session, the controller, the script and the trace, in fixed steps.
//! - `loading`: maps loaded on a worker thread.
//! - `correction`: the up axis and scale corrected live (U, `[`, `]`), remembered.
//! - `marker`: the 1.8 m person marker shown with a correction or an offer, for scale.
//! - `recording`: the walk recorded as a script (F5, `--record`).
//! - `views`: saved views (Ctrl+1..9 keeps one, 1..9 goes back), remembered.
//! - `decals`: decals stuck with the right mouse button (or a script's `decal`), kept
//!   with the views.
//! - `preferences`: the user's settings applied to this run (the F2 panel's changes, the
//!   window's size) and saved.
//! - `mirrors`: the map's mirrors and the water's surfaces found at each load, and each
//!   frame the scene drawn again in each in view (the water rippled over it).
//! - `water`: the view under water: tinted and fogged.
//! - `redraw`: one frame: steps, scene, HUD, screenshot, swap.
//! - `shots`: the screenshot saved (F12, `--screenshot`).
//! - `bench`: `--bench-frames`: the frames' times and counts, summed up, and a row each.
//! - `free_camera`: the detached view (Shift+V).
//! - `third_person`: the camera on a boom behind the head (V), the figure drawn.
//! - `debug_view`: the collision made visible (G): what the last steps touched and tested.

mod bench;
mod bindings;
mod browsing;
mod camera;
pub mod controls;
mod correction;
mod debug_view;
mod decals;
mod events;
mod free_camera;
mod gamepad;
mod input;
mod keys;
mod lifecycle;
mod loading;
mod marker;
mod measuring;
mod memory;
mod mirrors;
mod mouse_look;
mod opening;
mod options;
mod overlays;
mod pads;
mod preferences;
mod recording;
mod redraw;
mod render;
mod shots;
mod simulation;
mod third_person;
mod ui;
mod views;
mod water;

use std::path::{Path, PathBuf};
use std::time::Instant;

use winit::event_loop::{ControlFlow, EventLoop};

pub use options::WindowOptions;

use walkthrough_core::files::output::PartialFile;
use walkthrough_core::files::output::{check_distinct, check_writable};
use walkthrough_core::player::{Controller, ControllerSettings};
use walkthrough_core::session::OpenOptions;
use walkthrough_core::sim::{Command, TraceColumns, TraceWriter};

use crate::cli::options::Common;
use crate::cli::terminal::{
    Opened, inputs, open_and_tell, open_stand_in, warn_speeds, warn_starts,
};
use bench::Bench;
use camera::Camera;
use debug_view::DebugView;
use input::Input;
use keys::HeldKeys;
use lifecycle::Lifecycle;
use loading::{Loading, Purpose};
use memory::MapMemory;
use overlays::Overlays;
use render::{DebugDraw, DecalDraw, GlWindowContext, MirrorDraw, Renderer, WaterSurface};
use shots::Shots;
use simulation::{Simulation, TraceFile};
use ui::hud::{Overlay, warnings_note};
use ui::minimap::{self, Minimap};
use ui::offer::Offer;
use ui::settings_panel::SettingsState;
use walkthrough_core::decals::Decals;
use walkthrough_core::map::minimap::top_down;
use walkthrough_core::measure::Marks;
use walkthrough_core::mirrors::Mirror;

/// Everything the command line decided.
pub struct Config {
    /// Map file, or the built-in map.
    pub map: Option<PathBuf>,
    /// Scale, up axis, spawn (the shared options', checked).
    pub open: OpenOptions,
    /// Script driving the controller instead of the keyboard.
    pub script: Option<Vec<Command>>,
    /// The options shared with `sim`: the script's and the trace's files, `--forget`,
    /// `--verbose`.
    pub common: Common,
    /// The window's own options.
    pub window: WindowOptions,
    /// Gamepad events to play (`--pad-events`).
    pub pad_events: Vec<gamepad::PlayedEvent>,
}

/// The files a run writes as it goes, opened (and every output checked) before the
/// window opens, as `sim` checks its trace: a recording onto the map, into a folder that
/// is not there or onto a device was found only when the walk ended, and lost.
struct Outputs {
    trace: Option<TraceFile>,
    bench: Option<Bench>,
}

impl Outputs {
    /// Check `--screenshot` and `--record`, and open `--trace` and `--bench-out`; none may
    /// be one of `inputs`. The trace has the `on` and `water` columns as `columns` says.
    fn open(config: &Config, inputs: &[PathBuf], columns: TraceColumns) -> Result<Outputs, String> {
        let w = &config.window;
        check_distinct(&[
            ("--trace", config.common.trace.as_deref()),
            ("--screenshot", w.screenshot.as_deref()),
            ("--record", w.record.as_deref()),
            ("--bench-out", w.bench_out.as_deref()),
        ])
        .map_err(|e| e.to_string())?;
        for p in [&w.screenshot, &w.record].into_iter().flatten() {
            check_writable(p, inputs).map_err(|e| e.to_string())?;
        }
        if let Some(p) = &w.screenshot {
            png_named(p)?;
        }
        let create = |p: &PathBuf| PartialFile::create(p, inputs).map_err(|e| e.to_string());
        let trace = match &config.common.trace {
            Some(p) => Some(
                TraceWriter::new(create(p)?, columns)
                    .map_err(|e| format!("{}: cannot write the trace: {e}", p.display()))?,
            ),
            None => None,
        };
        let bench = match w.bench_frames {
            Some(frames) => Some(Bench::new(
                frames,
                w.bench_out.as_ref().map(create).transpose()?,
            )),
            None => None,
        };
        Ok(Outputs { trace, bench })
    }
}

/// `--screenshot`'s file is named `.png`, what it is written as (a `shot.jpg` was
/// quietly a PNG).
fn png_named(path: &Path) -> Result<(), String> {
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        return Ok(());
    }
    Err(format!(
        "{}: a screenshot is written as a PNG image: name it .png",
        walkthrough_core::text::quote::shown_path(path)
    ))
}

/// A map file at least this big (about a second to load: a million triangles is some
/// 40 MB of text) is loaded with the window open, its progress bar showing; a smaller one
/// opens before the window, in well under a second.
pub const LOADED_IN_THE_WINDOW_BYTES: u64 = 32 << 20;

/// Whether the map `map` is loaded with the window open: an OBJ file of at least
/// [`LOADED_IN_THE_WINDOW_BYTES`], in a run that nothing drives or measures from its first
/// frame (a script, a trace, a recording, a screenshot at the end, a benchmark or played
/// pad events walk the map they were given from the start, and are checked against it
/// before the window opens).
fn loads_in_the_window(map: &Path, common: &Common, window: &WindowOptions) -> bool {
    let driven = common.script.is_some()
        || common.trace.is_some()
        || window.record.is_some()
        || window.screenshot.is_some()
        || window.bench_frames.is_some()
        || window.pad_events.is_some();
    !driven
        && !walkthrough_core::map::scene::is_scene_path(map)
        && std::fs::metadata(map)
            .is_ok_and(|m| m.is_file() && m.len() >= LOADED_IN_THE_WINDOW_BYTES)
}

/// Tell the terminal that `path` loads with the window open.
fn say_loading_in_the_window(path: &Path) {
    let mb = std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6);
    tell!(
        "{}: {mb:.0} MB, loaded with the window open (the built-in map stands in until it is in; Esc gives up)",
        walkthrough_core::text::quote::shown_path(path)
    );
}

/// `message` without the source file and line winit puts before an OS error ("os error at
/// /root/.cargo/registry/.../mod.rs:765: neither WAYLAND_DISPLAY nor ..."), which reads
/// as the program's own path.
fn without_source_location(message: &str) -> &str {
    message
        .split_once(".rs:")
        .and_then(|(_, rest)| rest.split_once(": "))
        .map_or(message, |(_, reason)| reason)
}

/// Open the window and run until it closes. Map and script errors are reported before
/// any window opens, but for a big map loaded with the window open (see
/// [`loads_in_the_window`]), whose error closes the window and is reported the same way.
pub fn run(map: Option<PathBuf>, common: Common, window: WindowOptions) -> Result<(), String> {
    let mut script = common.script()?;
    let open = common.open_options()?;
    let settings = common.settings()?;
    // A big map is loaded with the window open (its progress bar showing, Esc to give
    // up), the built-in map standing in; any other before the window opens.
    let first = map
        .as_deref()
        .filter(|m| loads_in_the_window(m, &common, &window))
        .map(Path::to_path_buf);
    let mut opened = match &first {
        Some(path) => {
            say_loading_in_the_window(path);
            open_stand_in()?
        }
        None => open_and_tell(map.as_deref(), open, common.forget, common.verbose)?,
    };
    // (Not against the built-in map standing in for one that loads in the window.)
    if first.is_none() {
        warn_starts(&opened.session, script.as_mut(), common.script.as_deref());
    }
    warn_speeds(common.speed, script.as_ref(), common.script.as_deref());
    let pad_events = match &window.pad_events {
        Some(p) => {
            let bytes =
                walkthrough_core::files::read_file(p, walkthrough_core::files::FileKind::Script)
                    .map_err(|e| e.to_string())?;
            gamepad::parse_pad_events(&String::from_utf8_lossy(&bytes))
                .map_err(|e| format!("{}: {e}", walkthrough_core::text::quote::shown_path(p)))?
        }
        None => Vec::new(),
    };
    let mut config = Config {
        map,
        open,
        script: script.map(|s| s.commands),
        common,
        window,
        pad_events,
    };
    let inputs = inputs(&opened.session, config.common.script.as_ref());
    let columns = TraceColumns::of(&opened.session.ticking());
    let outputs = Outputs::open(&config, &inputs, columns)?;
    let event_loop = EventLoop::new().map_err(|e| {
        format!(
            "cannot open a window: {} (`walkthrough sim` walks a map without one)",
            without_source_location(&e.to_string()).trim_end_matches('.')
        )
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    // The stand-in has none of the map's materials: --mirror applies to the map.
    let mirrors = match first {
        Some(_) => std::mem::take(&mut config.window.mirror),
        None => Vec::new(),
    };
    let mut app = App::new(config, opened, settings, outputs);
    if let Some(path) = first {
        app.config.window.mirror = mirrors;
        // R reloads what is walked: the built-in map, until this one is in.
        app.config.map = None;
        let forget = app.config.common.forget;
        app.load_with(Some(path), app.config.open, Purpose::First { forget });
    } else {
        app.note_recent();
    }
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("event loop failed: {e}"))?;
    let trace = app.config.common.trace.as_deref();
    let trace = trace.map_or_else(
        || "the trace".into(),
        walkthrough_core::text::quote::shown_path,
    );
    app.sim
        .finish()
        .map_err(|e| format!("{trace}: cannot write the trace: {e}"))?;
    match app.life.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

impl App {
    /// The app for the map `opened`, before its window opens: the walker at the map's
    /// start with `settings` (the saved walking speed unless a script walks), the HUD, the
    /// minimap, and the survey's question if it is unsure.
    fn new(
        config: Config,
        opened: Opened,
        mut settings: ControllerSettings,
        outputs: Outputs,
    ) -> App {
        let Opened {
            session,
            store,
            content_key,
        } = opened;
        let run = config
            .window
            .preferences(store.settings(), config.common.speed);
        let prefs = SettingsState::new(store.settings(), run.live, run.flags, store.path());
        if config.script.is_none() {
            // A script walks at the defaults (or --speed) unless it says otherwise: it is
            // the same walk whatever the settings file says. The user's own walk takes them.
            settings.speed = prefs.live.walking_speed;
            settings.run_multiplier = prefs.live.run_factor;
        }
        let controller = Controller::new(session.start_pose(config.open.pitch_deg), settings);
        let mut overlay = Overlay::new(session.label(), session.map.frame, session.is_scene());
        // The map opened before the window: its warnings were printed, and are shown.
        if let Some(note) = warnings_note(&session.map.warnings) {
            overlay.show(format!("loaded {}; {note}", overlay.map_label));
        }
        // A benchmark measures frames, not the user's answer to a question.
        let offer = config
            .window
            .bench_frames
            .is_none()
            .then(|| Offer::of(&session))
            .flatten();
        if let Some(o) = &offer {
            tell!("{}", o.text);
        }
        let drawn = Instant::now();
        let minimap = Minimap::new(top_down(&session.map, minimap::IMAGE_SIDE));
        tell!(
            "minimap drawn in {:.0} ms",
            drawn.elapsed().as_secs_f64() * 1e3
        );
        let mut keys = HeldKeys::default();
        keys.bind(bindings::MoveKeys::of(&prefs.live));
        let mut app = App {
            sim: Simulation::new(session, controller, config.script.clone(), outputs.trace),
            gpu: None,
            input: Input::new(keys, config.pad_events.clone()),
            camera: Camera::new(),
            overlays: Overlays {
                hud: overlay,
                debug: DebugView::new(config.window.debug_view),
                minimap,
                browser: None,
            },
            loading: None,
            life: Lifecycle::new(),
            shots: Shots::new(outputs.bench),
            memory: MapMemory::new(store, content_key, offer),
            prefs,
            config,
            decals: Decals::default(),
            marks: Marks::default(),
            mirrors: Vec::new(),
        };
        app.load_decals();
        app.find_mirrors();
        app
    }
}

/// The window, its GL objects and egui. Drop order matters: GL objects before the
/// context, the context before the window.
struct Gpu {
    egui: egui_glow::EguiGlow,
    debug_draw: DebugDraw,
    decal_draw: DecalDraw,
    mirror_draw: MirrorDraw,
    water_surface: WaterSurface,
    renderer: Renderer,
    ctx: GlWindowContext,
}

/// The running window app: the walk, the window's GL and egui, and the window's state
/// in parts, each a struct of its own with the methods that touch only it.
struct App {
    /// Everything the command line decided.
    config: Config,
    /// The walk: map, person, script, trace.
    sim: Simulation,
    /// Created when the window opens.
    gpu: Option<Gpu>,
    /// The keys, the gamepads and the mouse.
    input: Input,
    /// Where the picture is drawn from: the eye, the detached camera, the boom.
    camera: Camera,
    /// The HUD, the debug view, the minimap and the file browser.
    overlays: Overlays,
    /// A map loading on a worker thread.
    loading: Option<Loading>,
    /// The window's life: opened, hidden, quitting, the error it ends with.
    life: Lifecycle,
    /// The screenshots due and the benchmark's frames.
    shots: Shots,
    /// What is remembered of maps, and the correction and question of the one open.
    memory: MapMemory,
    /// The user's settings, as this run uses them, and the F2 panel.
    prefs: SettingsState,
    /// The decals stuck on the map (the right mouse button, a script's `decal`).
    decals: Decals,
    /// The points marked to measure (L) and the last pair measured.
    marks: Marks,
    /// The map's mirrors (a scene's `mirror = [...]`, `--mirror`).
    mirrors: Vec<Mirror>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The window's command line, as `main` reads it.
    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        window: WindowOptions,
    }

    #[test]
    fn an_os_error_is_said_without_the_crate_s_source_location() {
        let winit = "os error at /root/.cargo/registry/src/index.crates.io-1/winit-0.30.13/src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set.";
        assert_eq!(
            without_source_location(winit),
            "neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set."
        );
        assert_eq!(without_source_location("no display"), "no display");
    }

    #[test]
    fn only_a_big_map_file_in_a_run_nothing_drives_loads_in_the_window() {
        let dir = std::env::temp_dir().join(format!("walkthrough-first-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sized = |name: &str, len: u64| {
            let p = dir.join(name);
            // Sparse: its length is what counts, not its blocks.
            std::fs::File::create(&p).unwrap().set_len(len).unwrap();
            p
        };
        let big = sized("big.obj", LOADED_IN_THE_WINDOW_BYTES);
        let small = sized("small.obj", LOADED_IN_THE_WINDOW_BYTES - 1);
        let scene = sized("big.toml", LOADED_IN_THE_WINDOW_BYTES);
        let with = |map: &Path, args: &[&str]| {
            let line =
                Line::try_parse_from(std::iter::once("walkthrough").chain(args.iter().copied()))
                    .unwrap();
            loads_in_the_window(map, &line.common, &line.window)
        };
        assert!(with(&big, &[]));
        assert!(with(&big, &["--up", "z", "--spawn", "1,2,3", "--forget"]));
        assert!(!with(&small, &[]));
        assert!(!with(&scene, &[]));
        assert!(!with(&dir, &[]));
        for driven in [
            &["--script", "s.txt"][..],
            &["--trace", "t.csv"],
            &["--record", "r.txt"],
            &["--screenshot", "s.png"],
            &["--bench-frames", "10"],
            &["--pad-events", "p.txt"],
        ] {
            assert!(!with(&big, driven), "{driven:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
