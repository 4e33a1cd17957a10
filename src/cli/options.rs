//! The options the window and `sim` share, declared once: what a wall does, the mode,
//! the map's frame and spawn, the script and the trace.

use std::path::PathBuf;

use clap::Args;
use glam::Vec3;

use walkthrough_core::collision::Response;
use walkthrough_core::files::{FileKind, read_file};
use walkthrough_core::geometry::InsideMethod;
use walkthrough_core::map::UpAxis;
use walkthrough_core::player::{ControllerSettings, DEFAULT_SPEED, Mode};
use walkthrough_core::session::OpenOptions;
use walkthrough_core::sim::{Script, read_script};

/// The largest `--yaw` taken, degrees (a hundred turns): beyond it a heading is a typo,
/// and `f32` has no degrees left to tell one heading from the next.
pub const MAX_YAW_DEG: f32 = 36_000.0;

/// Options shared by the window and the simulation.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// What a wall does to a move.
    #[arg(long, default_value_t)]
    pub response: Response,
    /// Walk (horizontal) or fly (along the view).
    #[arg(long, default_value_t)]
    pub mode: Mode,
    /// Point-in-triangle test: angle-sum, barycentric or moller-trumbore.
    #[arg(long, default_value_t)]
    pub method: InsideMethod,
    /// Eye position in the map file's coordinates, X,Y,Z (default: found automatically).
    #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
    pub spawn: Option<Vec3>,
    /// Heading in degrees (0 looks toward -Z, 90 toward -X).
    #[arg(long, value_parser = parse_degrees, allow_hyphen_values = true)]
    pub yaw: Option<f32>,
    /// Pitch in degrees, up positive.
    #[arg(long, value_parser = parse_degrees, allow_hyphen_values = true)]
    pub pitch: Option<f32>,
    /// Walking speed in world units (metres) per second [default: 3; in the window without
    /// a script, the settings' walking speed].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_held)]
    pub speed: Option<f32>,
    /// Metres per map unit (default: inferred from the map's rooms).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_held)]
    pub scale: Option<f32>,
    /// The map file's up axis: y, z, x, -y, -z or -x (default: inferred from the map).
    #[arg(long, allow_hyphen_values = true)]
    pub up: Option<UpAxis>,
    /// Forget the up axis and scale remembered for this map (set with U, [ and ] in the
    /// window) and let the survey read it again.
    #[arg(long)]
    pub forget: bool,
    /// Neither read the map from the cache of built maps nor keep it there (a map of a
    /// million triangles or more, without materials, is kept once built and reopens in a
    /// fraction of the time).
    #[arg(long)]
    pub no_map_cache: bool,
    /// Script to play (see README: forward/back/left/right/up/down SECS, turn DEG, ...).
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// Write the trace CSV (one row per fixed step) to this file.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Say more while loading (every missing texture by name).
    #[arg(short, long)]
    pub verbose: bool,
}

/// A number that `f32` holds as written: one it would round to 0 or to infinity is refused
/// as too small or too large (`--scale 1e-46` would otherwise be refused as "--scale
/// 0"). Whether it is positive is asked where it is used.
fn parse_held(s: &str) -> Result<f32, String> {
    let wide: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number"))?;
    let held = wide as f32;
    if wide != 0.0 && held == 0.0 {
        Err(format!("'{s}' is too small: it would be read as 0"))
    } else if wide.is_finite() && !held.is_finite() {
        Err(format!("'{s}' is too large: it would be read as infinite"))
    } else {
        Ok(held)
    }
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

/// Degrees as typed: a number past `f32`'s range is said to be too large, not "not
/// finite" (`--yaw 1e300`).
fn parse_degrees(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(v) if v.is_infinite() && !s.to_ascii_lowercase().contains("inf") => {
            Err("too large: degrees, such as 90 or -45".into())
        }
        Ok(_) => Err("must be a finite number of degrees".into()),
        Err(_) => Err("not a number of degrees, such as 90 or -45".into()),
    }
}

impl Common {
    /// The controller's settings these options give (`--speed` checked).
    pub fn settings(&self) -> Result<ControllerSettings, String> {
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

    /// How to open the map (`--scale`, `--up`, `--spawn`, `--yaw`, `--pitch`, checked).
    pub fn open_options(&self) -> Result<OpenOptions, String> {
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
        // Said as typed (Rust's `{:?}`: 1e30, not thirty-one digits), not used silently
        // otherwise (--pitch 200 was 89 without a word).
        if let Some(y) = self.yaw.filter(|y| y.abs() > MAX_YAW_DEG) {
            return Err(format!(
                "--yaw {y:?} is too large: a heading in degrees, such as 90 or -45"
            ));
        }
        if let Some(p) = self.pitch.filter(|p| p.abs() > 90.0) {
            return Err(format!(
                "--pitch {p:?} must be between -90 (straight down) and 90 (straight up)"
            ));
        }
        Ok(OpenOptions {
            scale: self.scale,
            up: self.up,
            spawn: self.spawn,
            yaw_deg: self.yaw,
            pitch_deg: self.pitch,
            no_map_cache: self.no_map_cache,
            ..OpenOptions::default()
        })
    }

    /// The `--script` read and parsed (`None` without one).
    pub fn script(&self) -> Result<Option<Script>, String> {
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
