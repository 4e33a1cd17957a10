//! The walkthrough binary: the command line, the headless `sim`, and the window (`app`).
#![deny(unsafe_code)]

mod app;
mod terminal;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use glam::Vec3;

use walkthrough::collision::Response;
use walkthrough::files::{FileKind, read_file};
use walkthrough::geometry::InsideMethod;
use walkthrough::map::UpAxis;
use walkthrough::output::PartialFile;
use walkthrough::player::{Controller, ControllerSettings, DEFAULT_SPEED, FOV_RANGE_DEG, Mode};
use walkthrough::preferences::{
    RENDER_SCALE_RANGE, SENSITIVITY_RANGE, TextureFilter, WINDOW_SIDE_RANGE,
};
use walkthrough::quote::escape_lines;
use walkthrough::session::OpenOptions;
use walkthrough::sim::{self, Script, TraceWriter, read_script};

/// Walk through an OBJ map in first person; walls stop you or let you slide.
///
/// With no MAP, opens the built-in map. The controls are listed below and under F1 in
/// the window.
#[derive(Parser, Debug)]
#[command(name = "walkthrough", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    window: WindowArgs,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run a script headless (no window) and print the trace CSV.
    Sim(SimArgs),
}

/// Options shared by the window and the simulation.
#[derive(Args, Debug, Clone)]
struct Common {
    /// What a wall does to a move.
    #[arg(long, default_value_t)]
    response: Response,
    /// Walk (horizontal) or fly (along the view).
    #[arg(long, default_value_t)]
    mode: Mode,
    /// Point-in-triangle test: angle-sum, barycentric or moller-trumbore.
    #[arg(long, default_value_t)]
    method: InsideMethod,
    /// Eye position in the map file's coordinates, X,Y,Z (default: found automatically).
    #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
    spawn: Option<Vec3>,
    /// Heading in degrees (0 looks toward -Z, 90 toward -X).
    #[arg(long, allow_hyphen_values = true)]
    yaw: Option<f32>,
    /// Pitch in degrees, up positive.
    #[arg(long, allow_hyphen_values = true)]
    pitch: Option<f32>,
    /// Walking speed in world units (metres) per second [default: 3; in the window without
    /// a script, the settings' walking speed].
    #[arg(long, allow_hyphen_values = true)]
    speed: Option<f32>,
    /// Metres per map unit (default: inferred from the map's rooms).
    #[arg(long, allow_hyphen_values = true)]
    scale: Option<f32>,
    /// The map file's up axis: y, z, x, -y, -z or -x (default: inferred from the map).
    #[arg(long, allow_hyphen_values = true)]
    up: Option<UpAxis>,
    /// Forget the up axis and scale remembered for this map (set with U, [ and ] in the
    /// window) and let the survey read it again.
    #[arg(long)]
    forget: bool,
    /// Script to play (see README: forward/back/left/right/up/down SECS, turn DEG, ...).
    #[arg(long)]
    script: Option<PathBuf>,
    /// Write the trace CSV (one row per fixed step) to this file.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Say more while loading (every missing texture by name).
    #[arg(short, long)]
    verbose: bool,
}

#[derive(Args, Debug)]
struct WindowArgs {
    /// OBJ map or TOML scene to open (default: the built-in map).
    map: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
    /// Save a PNG of the window when the script ends (or at exit).
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Quit after this many seconds.
    #[arg(long)]
    exit_after: Option<f32>,
    /// Quit when the --script ends (after its --screenshot).
    #[arg(long, requires = "script")]
    exit_when_done: bool,
    /// Start with the collision debug view on (G toggles it).
    #[arg(long)]
    debug_view: bool,
    /// Turn vsync off (to measure frame times).
    #[arg(long)]
    no_vsync: bool,
    /// Render N frames (a --script walks on 1/30 s a frame), print frame times
    /// (median, 95th percentile, worst), triangles, draw calls and fragments per pixel,
    /// and quit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    bench_frames: Option<u32>,
    /// With --bench-frames: write a CSV row for each frame to FILE (frame, ms,
    /// triangles, draws, clusters, fragments per pixel rasterized and passing the depth
    /// test), to see which frames are slow.
    #[arg(long, value_name = "FILE", requires = "bench_frames")]
    bench_out: Option<PathBuf>,
    /// What each frame leaves out [default: occlusion on a software renderer, frustum
    /// on a GPU].
    #[arg(long, value_name = "WAY", value_enum, conflicts_with = "no_cull")]
    culling: Option<app::Culling>,
    /// Draw every cluster of the map every frame, in material order, every triangle
    /// two-sided (to compare with the culled picture and its cost): `--culling off`.
    #[arg(long)]
    no_cull: bool,
    /// Start in borderless fullscreen (F11 toggles it).
    #[arg(long)]
    fullscreen: bool,
    /// Light in display space and write colours as they are, as on a display without an
    /// sRGB framebuffer (to compare; by default light is linear and the framebuffer sRGB).
    #[arg(long)]
    no_srgb: bool,
    /// Record the walk from the start as a script into FILE (saved when F5 stops it or
    /// the window closes); replay it with --script FILE, here or in `sim`.
    #[arg(long, value_name = "FILE", conflicts_with = "script")]
    record: Option<PathBuf>,
    /// Draw at most this many frames a second (the walk is the same at any rate).
    #[arg(long, value_parser = parse_fps)]
    max_fps: Option<f64>,
    /// Multisample antialiasing, samples a pixel: 0 (off), 2, 4 or 8 [default: 4 on a
    /// GPU; off on a software renderer (Mesa's llvmpipe), where 4x costs about as much as
    /// drawing 4 times].
    #[arg(long, value_parser = parse_msaa)]
    msaa: Option<u8>,
    /// Anisotropic filtering of textures, 1 (off) to 16 (the driver may allow less).
    /// Default: 8 on a GPU, off on a software renderer, where 8x doubles a textured map's
    /// frame time.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=16))]
    anisotropy: Option<u8>,
    /// How textures are sampled for this run: trilinear (smooth near and far), bilinear
    /// (one mipmap level) or nearest (pixel art as drawn; a third off a textured map's
    /// frame on a software renderer) [default: the settings' (trilinear unless
    /// changed)].
    #[arg(long, value_name = "FILTER")]
    texture_filter: Option<TextureFilter>,
    /// Draw the scene with this fraction of the window's pixels a side, 0.25 to 1,
    /// stretched over the window (the HUD stays sharp): 0.5 draws a quarter of the
    /// pixels, much faster on a software renderer, softer [default: the settings' (1
    /// unless changed)].
    #[arg(long, value_parser = parse_render_scale, value_name = "SCALE")]
    render_scale: Option<f32>,
    /// Window size, WIDTHxHEIGHT [default: the settings' window size, 1280x720 unless
    /// changed].
    #[arg(long, value_parser = parse_size)]
    size: Option<(u32, u32)>,
    /// Field of view for this run, degrees across the window's wider side, 60 to 110
    /// [default: the settings' (100 unless changed)].
    #[arg(long, value_parser = parse_fov)]
    fov: Option<f32>,
    /// Mouse look for this run, degrees of turn per pixel, 0.01 to 1 [default: the
    /// settings' (0.12 unless changed)].
    #[arg(long, value_parser = parse_sensitivity)]
    sensitivity: Option<f32>,
    /// Moving the mouse forward looks down, for this run (F2 sets it for good).
    #[arg(long)]
    invert_y: bool,
}

#[derive(Args, Debug)]
struct SimArgs {
    /// OBJ map or TOML scene (default: the built-in map).
    map: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
    /// Fixed step in seconds, a decimal or a fraction (1e-5 to 0.1).
    #[arg(long, default_value = "1/120", value_parser = parse_seconds, allow_hyphen_values = true)]
    dt: f64,
    /// Refuse a script longer than this many steps.
    #[arg(long, default_value_t = sim::DEFAULT_MAX_STEPS)]
    max_steps: u64,
}

fn parse_vec3(s: &str) -> Result<Vec3, String> {
    let parts: Vec<f32> = s
        .split(',')
        .map(|p| {
            p.trim()
                .parse::<f32>()
                .map_err(|_| format!("'{p}' is not a number"))
        })
        .collect::<Result<_, _>>()?;
    match parts[..] {
        [x, y, z] if x.is_finite() && y.is_finite() && z.is_finite() => Ok(Vec3::new(x, y, z)),
        [_, _, _] => Err("coordinates must be finite".into()),
        _ => Err(format!("expected X,Y,Z (three numbers), got '{s}'")),
    }
}
/// Seconds as a decimal (`0.01`) or a fraction (`1/120`, kept exact in `f64`).
fn parse_seconds(s: &str) -> Result<f64, String> {
    let number = |p: &str| {
        p.trim()
            .parse::<f64>()
            .map_err(|_| format!("'{s}' is not a number of seconds (e.g. 0.01 or 1/120)"))
    };
    match s.split_once('/') {
        Some((n, d)) => Ok(number(n)? / number(d)?),
        None => number(s),
    }
}

/// A step as people write it: `1/120` for a whole number of steps a second, else decimal.
fn seconds_text(dt: f64) -> String {
    let per_second = (1.0 / dt).round();
    if per_second > 1.0 && (per_second * dt - 1.0).abs() < 1e-12 {
        format!("1/{per_second}")
    } else {
        dt.to_string()
    }
}

fn parse_fps(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if (1.0..=1000.0).contains(&f) => Ok(f),
        _ => Err(format!("'{s}': frames a second are 1 to 1000")),
    }
}

fn parse_msaa(s: &str) -> Result<u8, String> {
    match s.trim().parse::<u8>() {
        Ok(n @ (0 | 2 | 4 | 8)) => Ok(n),
        _ => Err(format!("'{s}': samples a pixel are 0 (off), 2, 4 or 8")),
    }
}

/// A number within `range`, for an option named `what`.
fn number_in(s: &str, range: &std::ops::RangeInclusive<f32>, what: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!(
            "'{s}': {what} is {} to {}",
            range.start(),
            range.end()
        )),
    }
}

fn parse_fov(s: &str) -> Result<f32, String> {
    number_in(s, &FOV_RANGE_DEG, "the field of view (degrees)")
}

fn parse_sensitivity(s: &str) -> Result<f32, String> {
    number_in(
        s,
        &SENSITIVITY_RANGE,
        "the mouse sensitivity (degrees a pixel)",
    )
}

fn parse_render_scale(s: &str) -> Result<f32, String> {
    number_in(
        s,
        &RENDER_SCALE_RANGE,
        "the render scale (the scene's pixels a side, a fraction of the window's)",
    )
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or("expected WIDTHxHEIGHT, e.g. 1280x720")?;
    let w: u32 = w
        .trim()
        .parse()
        .map_err(|_| format!("'{w}' is not a width"))?;
    let h: u32 = h
        .trim()
        .parse()
        .map_err(|_| format!("'{h}' is not a height"))?;
    if WINDOW_SIDE_RANGE.contains(&w) && WINDOW_SIDE_RANGE.contains(&h) {
        Ok((w, h))
    } else {
        Err(format!(
            "width and height must be between {} and {}",
            WINDOW_SIDE_RANGE.start(),
            WINDOW_SIDE_RANGE.end()
        ))
    }
}

impl Common {
    fn settings(&self) -> Result<ControllerSettings, String> {
        let speed = self.speed.unwrap_or(DEFAULT_SPEED);
        if !(speed.is_finite() && speed > 0.0) {
            return Err(format!("--speed {speed} must be a positive number"));
        }
        Ok(ControllerSettings {
            speed,
            response: self.response,
            mode: self.mode,
            method: self.method,
            ..ControllerSettings::default()
        })
    }

    fn open_options(&self) -> Result<OpenOptions, String> {
        if let Some(s) = self.scale
            && !(s.is_finite() && s > 0.0)
        {
            return Err(format!("--scale {s} must be a positive number"));
        }
        for (name, v) in [("--yaw", self.yaw), ("--pitch", self.pitch)] {
            if v.is_some_and(|v| !v.is_finite()) {
                return Err(format!("{name} must be a finite number"));
            }
        }
        Ok(OpenOptions {
            scale: self.scale,
            up: self.up,
            spawn: self.spawn,
            yaw_deg: self.yaw,
            pitch_deg: self.pitch,
            ..OpenOptions::default()
        })
    }

    fn script(&self) -> Result<Option<Script>, String> {
        let Some(path) = &self.script else {
            return Ok(None);
        };
        let bytes = read_file(path, FileKind::Script).map_err(|e| e.to_string())?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|e| format!("{}: not a text file ({e})", path.display()))?;
        read_script(&path.display().to_string(), text)
            .map(Some)
            .map_err(|e| e.to_string())
    }
}

fn run_sim(args: SimArgs) -> Result<(), String> {
    let c = &args.common;
    if !(args.dt.is_finite() && (sim::MIN_DT..=sim::MAX_DT).contains(&args.dt)) {
        return Err(format!(
            "--dt {} is out of range: a step is {} to {} seconds",
            args.dt,
            sim::MIN_DT,
            sim::MAX_DT
        ));
    }
    let (settings, mut open) = (c.settings()?, c.open_options()?);
    // sim draws nothing: its textures are only looked for, never decoded.
    open.textures.decode = false;
    let script = c
        .script()?
        .ok_or("sim needs --script FILE (see README for the format)")?;
    let steps = sim::total_steps(&script.commands, args.dt as f32);
    if steps > args.max_steps {
        return Err(format!(
            "the script is {steps} steps of {} s, over the limit of {} (--max-steps N raises it)",
            seconds_text(args.dt),
            args.max_steps
        ));
    }
    let session = terminal::open_map(args.map.as_deref(), open, c.forget, c.verbose)?.session;
    terminal::warn_starts(&session, script.starts(), c.script.as_deref());
    let mut controller = Controller::new(session.start_pose(c.pitch), settings);
    let inputs = terminal::inputs(&session, c.script.as_ref());
    let out = match &c.trace {
        Some(p) => TraceOut::File(PartialFile::create(p, &inputs).map_err(|e| e.to_string())?),
        None => TraceOut::Stdout(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    // The error names where the trace was going (a full disk left no clue which file).
    let to = c.trace.as_ref().map_or("standard output".into(), |p| {
        walkthrough::quote::shown_path(p)
    });
    let write_error = |e: std::io::Error| format!("{to}: cannot write the trace: {e}");
    let mut trace = TraceWriter::new(out).map_err(write_error)?;
    let started = Instant::now();
    let run = sim::run(
        session.collider(),
        &session.map.frame,
        &mut controller,
        &script.commands,
        args.dt,
        |step| {
            if terminal::interrupted() {
                return Err(std::io::Error::from(std::io::ErrorKind::Interrupted));
            }
            if let Some(refusal) = step.report.refused {
                eprintln!(
                    "sim: frame {} ({:.3} s): {refusal}",
                    step.row.frame, step.row.t
                );
            }
            trace.row(&step.row)
        },
    );
    // Interrupted or not, the rows written so far reach the file whole.
    let rows = trace.rows();
    trace
        .finish()
        .and_then(TraceOut::commit)
        .map_err(write_error)?;
    let taken = match run {
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            return Err(format!(
                "interrupted after {rows} rows; the trace holds them, each whole"
            ));
        }
        other => other.map_err(write_error)?,
    };
    eprintln!(
        "sim: {taken} steps in {:.2} s, peak memory {}",
        started.elapsed().as_secs_f64(),
        terminal::peak_memory().unwrap_or_else(|| "unknown".into())
    );
    Ok(())
}

/// Where `sim` writes its trace: standard output, or a file put in place at the end.
enum TraceOut {
    Stdout(std::io::BufWriter<std::io::StdoutLock<'static>>),
    File(PartialFile),
}

impl TraceOut {
    /// Put the file in place (standard output is flushed).
    fn commit(self) -> std::io::Result<()> {
        match self {
            TraceOut::Stdout(mut out) => out.flush(),
            TraceOut::File(f) => f.commit(),
        }
    }
}

impl Write for TraceOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            TraceOut::Stdout(out) => out.write(buf),
            TraceOut::File(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            TraceOut::Stdout(out) => out.flush(),
            TraceOut::File(f) => f.flush(),
        }
    }
}

fn main() -> ExitCode {
    terminal::catch_signals();
    let command = Cli::command().after_help(format!(
        "Controls in the window:\n{}",
        app::controls::plain_text()
    ));
    let cli = match Cli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Some(Cmd::Sim(args)) => run_sim(args),
        None => run_window(cli.window),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A message may quote a user's file: never raw control bytes on the terminal.
            eprintln!("walkthrough: error: {}", escape_lines(&e));
            ExitCode::FAILURE
        }
    }
}

fn run_window(args: WindowArgs) -> Result<(), String> {
    let c = &args.common;
    let script = c.script()?;
    let config = app::Config {
        map: args.map.clone(),
        open: c.open_options()?,
        settings: c.settings()?,
        script_starts: script
            .as_ref()
            .map(|s| s.starts().collect())
            .unwrap_or_default(),
        script: script.map(|s| s.commands),
        script_path: c.script.clone(),
        trace: c.trace.clone(),
        screenshot: args.screenshot.clone(),
        exit_after: args.exit_after.filter(|s| s.is_finite() && *s >= 0.0),
        exit_when_done: args.exit_when_done,
        verbose: c.verbose,
        forget: c.forget,
        debug_view: args.debug_view,
        bench_frames: args.bench_frames,
        bench_out: args.bench_out.clone(),
        culling: if args.no_cull {
            Some(app::Culling::Off)
        } else {
            args.culling
        },
        srgb: !args.no_srgb,
        fullscreen: args.fullscreen,
        record: args.record.clone(),
        max_fps: args.max_fps,
        msaa: args.msaa,
        anisotropy: args.anisotropy,
        overrides: app::Overrides {
            fov: args.fov,
            sensitivity: args.sensitivity,
            invert_y: args.invert_y.then_some(true),
            walking_speed: c.speed,
            vsync: args.no_vsync.then_some(false),
            size: args.size,
            texture_filter: args.texture_filter,
            render_scale: args.render_scale,
        },
    };
    app::run(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_dt_of_help_is_the_exact_default_step() {
        assert_eq!(parse_seconds("1/120"), Ok(sim::DEFAULT_DT));
        assert_eq!(parse_seconds(" 0.01 "), Ok(0.01));
        assert!(parse_seconds("fast").unwrap_err().contains("'fast'"));
        // 1/0 parses to infinity, which run_sim's range check refuses.
        assert_eq!(parse_seconds("1/0"), Ok(f64::INFINITY));
        assert_eq!(seconds_text(sim::DEFAULT_DT), "1/120");
        assert_eq!(seconds_text(0.003), "0.003");
    }
}
