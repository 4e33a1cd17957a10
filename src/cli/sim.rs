//! `sim`: a script walked headless on a map, its trace written as CSV, with what its
//! `decal` and `measure` lines ask for; the map opened as the window's is (see
//! [`terminal::open_and_tell`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use walkthrough_core::decals::Decals;
use walkthrough_core::decals::csv::write_decals;
use walkthrough_core::files::output::PartialFile;
use walkthrough_core::measure::{AIM_REACH, Marks};
use walkthrough_core::player::{Controller, Pose};
use walkthrough_core::session::Session;
use walkthrough_core::sim::{self, ScriptEffect, TraceColumns, TraceWriter};
use walkthrough_core::text::wording::counted;

use super::options::Common;
use super::terminal;

/// `sim`'s command line: the map, the options shared with the window, its own.
#[derive(Args, Debug)]
pub struct SimArgs {
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
    /// Write the triangles of the decals the script's `decal` lines stick to FILE as CSV
    /// (a row a triangle: decal, texture, x0,y0,z0,x1,y1,z1,x2,y2,z2 in the map file's
    /// coordinates).
    #[arg(long, value_name = "FILE")]
    decals_out: Option<PathBuf>,
}

/// Seconds as a decimal (`0.01`) or a fraction (`1/120`, kept exact in `f64`).
fn parse_seconds(s: &str) -> Result<f64, String> {
    let number = |p: &str| {
        p.trim()
            .parse::<f64>()
            .map_err(|_| format!("'{s}' is not a number of seconds (e.g. 0.01 or 1/120)"))
    };
    let seconds = match s.split_once('/') {
        Some((n, d)) => number(n)? / number(d)?,
        None => number(s)?,
    };
    // Said as typed: `1/0` was refused as "--dt inf".
    if seconds.is_finite() {
        Ok(seconds)
    } else {
        Err(format!(
            "'{s}' is not a finite number of seconds (e.g. 0.01 or 1/120)"
        ))
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

/// Stick decals at the `eyes` of a script's `decal` lines on `session`'s map and write
/// them through `f` to `path` (`sim --decals-out`).
fn write_decal_file(
    session: &Session,
    eyes: &[Pose],
    mut f: PartialFile,
    path: &Path,
) -> Result<(), String> {
    let mut decals = Decals::default();
    for eye in eyes {
        let at = walkthrough_core::decals::aim(&session.world, eye, decals.next_texture());
        if let Some(decal) = at.and_then(|at| walkthrough_core::decals::build(&session.world, at)) {
            decals.add(decal);
        }
    }
    let shown = walkthrough_core::text::quote::shown_path(path);
    write_decals(&decals, &session.map.frame, &mut f)
        .and_then(|()| f.commit())
        .map_err(|e| format!("{shown}: cannot write the decals: {e}"))
}

/// Mark the points under the crosshairs of a script's `measure` lines, `eyes`, on
/// `session`'s map, and say each pair's distance (`measure: 10.000 m`).
fn say_measures(session: &Session, eyes: &[Pose]) {
    let mut marks = Marks::default();
    let frame = session.map.frame;
    for eye in eyes {
        match walkthrough_core::measure::aim(&session.world, eye, AIM_REACH) {
            Some(at) => {
                if let Some(m) = marks.mark(at.point, &frame) {
                    tell!("{}", m.line(&frame));
                }
            }
            None => tell!("measure: nothing under the crosshair to mark"),
        }
    }
}

/// `sim`'s outputs, checked before the map is read: two at one file are refused, and so
/// is one that cannot be written (said after the load, a missing folder for the trace
/// would cost the wait for conference's load). They are checked again against the map's own
/// files once those are known.
fn check_outputs_before_load(args: &SimArgs) -> Result<(), String> {
    let c = &args.common;
    let outputs = [
        ("--trace", c.trace.as_deref()),
        ("--decals-out", args.decals_out.as_deref()),
    ];
    walkthrough_core::files::output::check_distinct(&outputs).map_err(|e| e.to_string())?;
    let known = terminal::inputs_before_load(args.map.as_deref(), c.script.as_ref());
    for (_, out) in outputs {
        if let Some(out) = out {
            walkthrough_core::files::output::check_writable(out, &known)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// How long a run took: under a second in milliseconds ("1080 steps in 0.00 s" says
/// nothing).
fn took_text(secs: f64) -> String {
    if secs < 1.0 {
        format!("{:.1} ms", secs * 1000.0)
    } else {
        format!("{secs:.2} s")
    }
}

/// Run `sim`: the script walked headless on the map, the trace written (to standard
/// output or `--trace`), the decals and measures of its lines said or written.
pub fn run(args: SimArgs) -> Result<(), String> {
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
    open.headless = true;
    let mut script = c
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
    check_outputs_before_load(&args)?;
    let mut session =
        terminal::open_and_tell(args.map.as_deref(), open, c.forget, c.verbose)?.session;
    terminal::warn_starts(&session, Some(&mut script), c.script.as_deref());
    terminal::warn_speeds(c.speed, Some(&script), c.script.as_deref());
    terminal::say_script_start(&script);
    let mut controller = Controller::new(session.start_pose(c.pitch), settings);
    let inputs = terminal::inputs(&session, c.script.as_ref());
    let out = match &c.trace {
        Some(p) => TraceOut::File(PartialFile::create(p, &inputs).map_err(|e| e.to_string())?),
        None => TraceOut::Stdout(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    // The error names where the trace was going (a full disk left no clue which file).
    let to = c.trace.as_ref().map_or("standard output".into(), |p| {
        walkthrough_core::text::quote::shown_path(p)
    });
    let write_error = |e: std::io::Error| format!("{to}: cannot write the trace: {e}");
    let columns = TraceColumns::of(&session.ticking());
    let mut trace = TraceWriter::new(out, columns).map_err(write_error)?;
    let decals_out = match &args.decals_out {
        Some(p) => Some(PartialFile::create(p, &inputs).map_err(|e| e.to_string())?),
        None => None,
    };
    // The eyes of the script's `decal` lines, in order: stuck on the map after the run
    // (the walk holds the session meanwhile; decals stick to the map at rest).
    let mut decal_eyes = Vec::new();
    // The eyes of its `measure` lines, in order, measured on the map at rest likewise.
    let mut measure_eyes = Vec::new();
    let started = Instant::now();
    let frame = session.map.frame;
    let run = sim::run_in(
        &mut session.ticking(),
        &frame,
        &mut controller,
        &script.commands,
        args.dt,
        |step| {
            if terminal::interrupted() {
                return Err(std::io::Error::from(std::io::ErrorKind::Interrupted));
            }
            if let Some(refusal) = step.report.refused {
                tell!(
                    "sim: frame {} ({:.3} s): {refusal}",
                    step.row.frame,
                    step.row.t
                );
            }
            trace.row(&step.row)
        },
        |effect| match effect {
            ScriptEffect::Decal(eye) => decal_eyes.push(eye),
            ScriptEffect::Measure(eye) => measure_eyes.push(eye),
            ScriptEffect::View(_) => {}
        },
    );
    // Interrupted or not, the rows written so far reach the file whole.
    let rows = trace.rows();
    trace
        .finish()
        .and_then(TraceOut::commit)
        .map_err(write_error)?;
    if let (Some(f), Some(p)) = (decals_out, &args.decals_out) {
        write_decal_file(&session, &decal_eyes, f, p)?;
    }
    say_measures(&session, &measure_eyes);
    let taken = match run {
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            return Err(format!(
                "interrupted after {}; the trace holds what was written, each row whole",
                counted(rows as usize, "row", "rows")
            ));
        }
        other => other.map_err(write_error)?,
    };
    tell!(
        "sim: {} in {}, peak memory {}",
        counted(taken as usize, "step", "steps"),
        took_text(started.elapsed().as_secs_f64()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_dt_of_help_is_the_exact_default_step() {
        assert_eq!(parse_seconds("1/120"), Ok(sim::DEFAULT_DT));
        assert_eq!(parse_seconds(" 0.01 "), Ok(0.01));
        assert!(parse_seconds("fast").unwrap_err().contains("'fast'"));
        // Not finite: refused as typed ('1/0' was said as 'inf').
        for typed in ["1/0", "0/0", "1e999", "inf", "-1/0"] {
            let e = parse_seconds(typed).unwrap_err();
            assert!(
                e.starts_with(&format!("'{typed}' is not a finite number")),
                "{e}"
            );
        }
        assert_eq!(seconds_text(sim::DEFAULT_DT), "1/120");
        assert_eq!(took_text(0.0042), "4.2 ms");
        assert_eq!(took_text(1.5), "1.50 s");
        assert_eq!(seconds_text(0.003), "0.003");
    }
}
