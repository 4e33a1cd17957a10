//! The walkthrough binary: the command line, the headless `sim`, and the window (`app`).
#![deny(unsafe_code)]

mod app;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use glam::Vec3;

use walkthrough::camera::{Controller, Mode, Settings};
use walkthrough::collision::Response;
use walkthrough::geometry::InsideMethod;
use walkthrough::map::UpAxis;
use walkthrough::session::{OpenOptions, Session};
use walkthrough::sim::{self, Command, TRACE_HEADER, parse_script};
use walkthrough::tolerance::{DEFAULT_DT, DEFAULT_SPEED};

/// Walk through an OBJ map in first person; walls stop you or let you slide.
///
/// With no MAP, opens the built-in map. Controls: W/A/S/D or arrows move, mouse looks
/// (click to capture, Esc to free), Shift runs, wheel changes speed, Tab toggles stop /
/// slide, F walk / fly, Space jumps (walking) or rises (flying), C crouches while held
/// (walking) or sinks (flying), M cycles the point-in-triangle method, R reloads, F1
/// help, F12 screenshot.
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
    #[arg(long, default_value = "slide", value_parser = parse_response)]
    response: Response,
    /// Walk (horizontal) or fly (along the view).
    #[arg(long, default_value = "walk", value_parser = parse_mode)]
    mode: Mode,
    /// Point-in-triangle test: angle-sum, barycentric or moller-trumbore.
    #[arg(long, default_value = "barycentric", value_parser = parse_method)]
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
    /// Walking speed in world units (metres) per second.
    #[arg(long, default_value_t = DEFAULT_SPEED, allow_hyphen_values = true)]
    speed: f32,
    /// Metres per map unit (default: inferred from the map's rooms).
    #[arg(long, allow_hyphen_values = true)]
    scale: Option<f32>,
    /// The map file's up axis.
    #[arg(long, default_value = "y", value_parser = parse_up)]
    up: UpAxis,
    /// Script to play (see README: forward/back/left/right/up/down SECS, turn DEG, ...).
    #[arg(long)]
    script: Option<PathBuf>,
    /// Write the trace CSV (one row per fixed step) to this file.
    #[arg(long)]
    trace: Option<PathBuf>,
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
    /// Turn vsync off (to measure frame times).
    #[arg(long)]
    no_vsync: bool,
    /// Render N frames, print median / worst frame time and peak memory, and quit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    bench_frames: Option<u32>,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    size: (u32, u32),
}

#[derive(Args, Debug)]
struct SimArgs {
    /// OBJ map or TOML scene (default: the built-in map).
    map: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
    /// Fixed step in seconds.
    #[arg(long, default_value_t = DEFAULT_DT, allow_hyphen_values = true)]
    dt: f32,
}

fn parse_response(s: &str) -> Result<Response, String> {
    s.parse().map_err(|e| format!("{e}"))
}
fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse().map_err(|e| format!("{e}"))
}
fn parse_method(s: &str) -> Result<InsideMethod, String> {
    s.parse().map_err(|e| format!("{e}"))
}
fn parse_up(s: &str) -> Result<UpAxis, String> {
    s.parse().map_err(|e| format!("{e}"))
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
    if (64..=16384).contains(&w) && (64..=16384).contains(&h) {
        Ok((w, h))
    } else {
        Err("width and height must be between 64 and 16384".into())
    }
}

impl Common {
    fn settings(&self) -> Result<Settings, String> {
        if !(self.speed.is_finite() && self.speed > 0.0) {
            return Err(format!("--speed {} must be a positive number", self.speed));
        }
        Ok(Settings {
            speed: self.speed,
            response: self.response,
            mode: self.mode,
            method: self.method,
            ..Settings::default()
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
        })
    }

    fn script(&self) -> Result<Option<Vec<Command>>, String> {
        let Some(path) = &self.script else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the script: {e}", path.display()))?;
        parse_script(&path.display().to_string(), &text)
            .map(Some)
            .map_err(|e| e.to_string())
    }
}

fn run_sim(args: SimArgs) -> Result<(), String> {
    let c = &args.common;
    if !(args.dt.is_finite() && args.dt > 0.0 && args.dt <= 1.0) {
        return Err(format!(
            "--dt {} must be a number of seconds in (0, 1]",
            args.dt
        ));
    }
    let script = c
        .script()?
        .ok_or("sim needs --script FILE (see README for the format)")?;
    let session =
        Session::open(args.map.as_deref(), &c.open_options()?).map_err(|e| e.to_string())?;
    for w in &session.map.warnings {
        eprintln!("warning: {w}");
    }
    eprintln!("{}", session.describe());
    let mut controller = Controller::new(session.start_pose(c.pitch), c.settings()?);
    let rows = sim::run(
        session.collider(),
        &session.map.frame,
        &mut controller,
        &script,
        args.dt,
    );
    let mut out: Box<dyn Write> = match &c.trace {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p)
                .map_err(|e| format!("{}: cannot write the trace: {e}", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "{TRACE_HEADER}")?;
        for r in &rows {
            writeln!(out, "{r}")?;
        }
        out.flush()
    };
    write(&mut *out).map_err(|e| format!("cannot write the trace: {e}"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Cmd::Sim(args)) => run_sim(args),
        None => run_window(cli.window),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("walkthrough: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_window(args: WindowArgs) -> Result<(), String> {
    let c = &args.common;
    let config = app::Config {
        map: args.map.clone(),
        open: c.open_options()?,
        settings: c.settings()?,
        script: c.script()?,
        trace: c.trace.clone(),
        screenshot: args.screenshot.clone(),
        exit_after: args.exit_after.filter(|s| s.is_finite() && *s >= 0.0),
        vsync: !args.no_vsync,
        bench_frames: args.bench_frames,
        size: args.size,
    };
    app::run(config)
}
