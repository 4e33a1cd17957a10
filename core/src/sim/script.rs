//! Scripts: one command a line, `#` comments.
//!
//! ```text
//! forward|back|left|right|up|down SECS   hold that key for SECS
//! keys forward+right SECS                hold several at once (`keys none SECS`: wait)
//! run on|off                             hold the run key from now on, or release it
//! turn DEG                               yaw, left positive (instant)
//! look DEG                               pitch, up positive (instant)
//! wait SECS                              no key held
//! response stop|slide                    mode walk|fly      method NAME
//! jump                                   jump at the next step, if on the ground
//! use                                    the use key (E) at the next step: starts a
//!                                        mover looked at (`start = "use"`)
//! crouch on|off                          hold the crouch key from now on, or release it
//! speed M_PER_S                          walking (and flying) speed from now on
//! start X,Y,Z YAW PITCH                  the eye's pose, world coordinates (first line:
//!                                        where the walk starts)
//! view third|first                       the window's camera (the walk and trace are
//!                                        the same in both)
//! decal                                  stick a decal where the crosshair points
//! ```
//!
//! A UTF-8 byte order mark before the first line is skipped (an editor's, as OBJ files
//! with one load). A `start` farther out than any map may reach is refused at its line;
//! one outside the map opened is a warning at its line (see [`Script::starts`]).

use glam::Vec3;

use crate::collision::Response;
use crate::collision::placement::out_of_range;
use crate::geometry::InsideMethod;
use crate::player::{Controller, Mode, MoveIntent, Pose, ViewKind};
use crate::preferences::RUN_FACTOR_RANGE;
use crate::text::quote::quote;

/// Longest duration one command may hold, seconds (a typo like `forward 1e9` would
/// otherwise run for ever).
pub const MAX_COMMAND_SECS: f32 = 3600.0;

/// One script command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// Hold a movement for this many seconds.
    Hold(MoveIntent, f32),
    /// No input for this many seconds.
    Wait(f32),
    /// Turn: yaw by the first, pitch by the second, degrees.
    Turn(f32, f32),
    /// Switch response.
    Response(Response),
    /// Switch mode.
    Mode(Mode),
    /// Switch point-in-triangle method.
    Method(InsideMethod),
    /// Run key held (true) or released.
    Run(bool),
    /// Jump at the next step (walking, on the ground).
    Jump,
    /// The use key at the next step.
    Use,
    /// Crouch key held (true) or released.
    Crouch(bool),
    /// Walking (and flying) speed, m/s.
    Speed(f32),
    /// Speed factor while running.
    RunFactor(f32),
    /// Put the eye at this pose (world coordinates); as the first command, where the walk
    /// starts (see [`start_pose`]).
    Start(Pose),
    /// Show the walk from this camera (a [`ScriptEffect`]: the walk never reads it).
    View(ViewKind),
    /// Stick a decal where the crosshair points (a [`ScriptEffect`]).
    Decal,
    /// Mark the point under the crosshair; a second mark measures (a [`ScriptEffect`]).
    Measure,
}

/// What a script asks of whoever shows the walk, not of the walk: the window applies it,
/// `sim` (which shows nothing) only passes it on. It happens between the steps it falls
/// between, so a window and `sim` see it at the same step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScriptEffect {
    /// Show the walk from this camera.
    View(ViewKind),
    /// Stick a decal where the crosshair of this eye points (the drawn eye at that step).
    Decal(Pose),
    /// Mark the point under the crosshair of this eye (see [`crate::measure`]).
    Measure(Pose),
}

/// The movement keys a `keys` line may hold, as they move: forward, back, left, right, up
/// and down.
pub const KEY_NAMES: [(&str, [f32; 3]); 6] = [
    ("forward", [1.0, 0.0, 0.0]),
    ("back", [-1.0, 0.0, 0.0]),
    ("left", [0.0, -1.0, 0.0]),
    ("right", [0.0, 1.0, 0.0]),
    ("up", [0.0, 0.0, 1.0]),
    ("down", [0.0, 0.0, -1.0]),
];

/// The pose a script starts from: its first command, if that is a `start`.
pub fn start_pose(commands: &[Command]) -> Option<Pose> {
    match commands.first() {
        Some(Command::Start(p)) => Some(*p),
        _ => None,
    }
}

/// A script line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}: {reason}")]
pub struct ScriptError {
    /// The script's name (file path).
    pub source_name: String,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// A script read: its commands, and the line each came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    /// The commands, in order.
    pub commands: Vec<Command>,
    /// The 1-based line of each command.
    pub lines: Vec<usize>,
    /// What a recording's header says it was recorded on (`None`: no header).
    pub recorded_on: Option<RecordedOn>,
}

/// The map and frame a recording's header names (its `# map:` and `# frame:` comment
/// lines, as the window writes them): a recording's `start` lines are world coordinates
/// of that map in that frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordedOn {
    /// The `# map:` line's 1-based number.
    pub line: usize,
    /// The map, as the header names it (a path, or "the built-in map").
    pub map: String,
    /// Its frame's flags (`--up y --scale 1`), when the header says.
    pub frame: Option<String>,
}

/// A `start` line of a script: where it puts the eye, and its line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StartLine {
    /// The 1-based line.
    pub line: usize,
    /// The pose it asks for (world coordinates).
    pub pose: Pose,
}

impl Script {
    /// Its `start` lines (to be checked against the map once it is open).
    pub fn starts(&self) -> impl Iterator<Item = StartLine> + '_ {
        self.commands
            .iter()
            .zip(&self.lines)
            .filter_map(|(c, &line)| match *c {
                Command::Start(pose) => Some(StartLine { line, pose }),
                _ => None,
            })
    }
}

/// Parse a script. `source_name` is used in error messages.
pub fn parse_script(source_name: &str, text: &str) -> Result<Vec<Command>, ScriptError> {
    read_script(source_name, text).map(|s| s.commands)
}

/// Parse a script, keeping the line of each command. `source_name` is used in error
/// messages; a piece of a line they quote is escaped and cut ([`quote`]).
pub fn read_script(source_name: &str, text: &str) -> Result<Script, ScriptError> {
    let mut out = Script::default();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Lines ended by a carriage return alone (classic Mac OS), as an OBJ file's are read
    // (such a script was one line, refused at its second command).
    let split;
    let text = if text.contains('\r') && !text.contains('\n') {
        split = text.replace('\r', "\n");
        split.as_str()
    } else {
        text
    };
    for (i, raw) in text.lines().enumerate() {
        let comment = raw.trim_start().strip_prefix('#').map(str::trim);
        if let Some(map) = comment.and_then(|c| c.strip_prefix("map:")) {
            out.recorded_on.get_or_insert(RecordedOn {
                line: i + 1,
                map: map.trim().to_string(),
                frame: None,
            });
        }
        if let (Some(frame), Some(on)) = (
            comment.and_then(|c| c.strip_prefix("frame:")),
            out.recorded_on.as_mut(),
        ) {
            on.frame.get_or_insert_with(|| frame.trim().to_string());
        }
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |reason: String| ScriptError {
            source_name: source_name.to_string(),
            line: i + 1,
            reason,
        };
        out.commands.push(parse_line(line).map_err(err)?);
        out.lines.push(i + 1);
    }
    Ok(out)
}

/// One command from a `line` with its comment and spaces trimmed off; the reason for the
/// message when it is not one.
fn parse_line(line: &str) -> Result<Command, String> {
    let mut words = line.split_whitespace();
    // Verbs are read in any case, and quoted as typed.
    let typed = words.next().unwrap_or("");
    let verb = typed.to_ascii_lowercase();
    // `keys` and `start` take more than one argument.
    if verb == "keys" || verb == "start" {
        let args: Vec<&str> = words.collect();
        return if verb == "keys" {
            parse_keys(&args)
        } else {
            parse_start(&args)
        };
    }
    let v = quote(typed);
    let arg = words.next();
    if let Some(extra) = words.next() {
        return Err(format!("unexpected {} after {v}", quote(extra)));
    }
    let need = |what: &str| arg.ok_or_else(|| format!("{v} needs {what}"));
    let number = |what: &str| -> Result<f32, String> {
        finite(need(what)?).map_err(|e| format!("{e} ({verb} needs {what})"))
    };
    let seconds = || number("seconds").and_then(seconds_in_range);
    let hold = |f: f32, s: f32, v: f32| -> Result<Command, String> {
        let intent = MoveIntent {
            forward: f,
            strafe: s,
            vertical: v,
            ..MoveIntent::default()
        };
        Ok(Command::Hold(intent, seconds()?))
    };
    Ok(match verb.as_str() {
        "forward" => hold(1.0, 0.0, 0.0)?,
        "back" | "backward" => hold(-1.0, 0.0, 0.0)?,
        "left" => hold(0.0, -1.0, 0.0)?,
        "right" => hold(0.0, 1.0, 0.0)?,
        "up" => hold(0.0, 0.0, 1.0)?,
        "down" => hold(0.0, 0.0, -1.0)?,
        "wait" => Command::Wait(seconds()?),
        "turn" => Command::Turn(number("degrees")?, 0.0),
        "look" => Command::Turn(0.0, number("degrees")?),
        "response" => {
            Command::Response(need("stop or slide")?.parse().map_err(|e| format!("{e}"))?)
        }
        "mode" => Command::Mode(need("walk or fly")?.parse().map_err(|e| format!("{e}"))?),
        "view" => Command::View(
            need("third or first")?
                .parse()
                .map_err(|e| format!("{e}"))?,
        ),
        "method" => Command::Method(need("a method name")?.parse().map_err(|e| format!("{e}"))?),
        "run" => Command::Run(on_off(need("on or off")?)?),
        "crouch" => Command::Crouch(on_off(need("on or off")?)?),
        "speed" => speed_setting(&verb, number("metres a second")?)?,
        "run-factor" => speed_setting(&verb, number("a factor")?)?,
        "jump" | "decal" | "measure" => match arg {
            None if verb == "jump" => Command::Jump,
            None if verb == "measure" => Command::Measure,
            None => Command::Decal,
            Some(extra) => return Err(format!("unexpected {} after {v}", quote(extra))),
        },
        "use" => match arg {
            None => Command::Use,
            Some(extra) => return Err(format!("unexpected {} after 'use'", quote(extra))),
        },
        _ => {
            return Err(format!(
                "unknown command {v} (expected forward, back, left, right, up, down, keys, wait, turn, look, run, jump, use, crouch, speed, run-factor, start, response, mode, method, view, decal or measure)"
            ));
        }
    })
}

/// `speed M_PER_S` (any positive speed, as `--speed`) or `run-factor X` (within
/// [`RUN_FACTOR_RANGE`], as the settings allow).
fn speed_setting(verb: &str, v: f32) -> Result<Command, String> {
    if verb == "speed" {
        return if v > 0.0 {
            Ok(Command::Speed(v))
        } else {
            Err(format!("speed {v} must be positive"))
        };
    }
    if RUN_FACTOR_RANGE.contains(&v) {
        Ok(Command::RunFactor(v))
    } else {
        Err(format!(
            "run-factor {v} is out of range ({} to {})",
            RUN_FACTOR_RANGE.start(),
            RUN_FACTOR_RANGE.end()
        ))
    }
}

/// A number that is finite. One written finite that `f32` cannot hold (`turn 1e300`) is
/// said to be too large, not "not a number".
fn finite(word: &str) -> Result<f32, String> {
    match word.parse::<f32>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(x) if x.is_infinite() && !word.to_ascii_lowercase().contains("inf") => Err(format!(
            "{} is too large (numbers here go to about 3.4e38)",
            quote(word)
        )),
        _ => Err(format!("{} is not a number", quote(word))),
    }
}

/// `keys forward+right SECS`: the keys held together (`none`: no key) for SECS.
fn parse_keys(args: &[&str]) -> Result<Command, String> {
    let [keys, secs] = args else {
        return Err("'keys' needs keys joined by + (forward, back, left, right, up, down, or none) and seconds".into());
    };
    let mut intent = MoveIntent::default();
    // Key names are read in any case, as verbs are.
    if !keys.eq_ignore_ascii_case("none") {
        for k in keys.split('+') {
            let named = KEY_NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(k));
            let Some((_, [f, s, v])) = named else {
                return Err(format!(
                    "{} is not a key (forward, back, left, right, up, down, or none)",
                    quote(k)
                ));
            };
            intent.forward += f;
            intent.strafe += s;
            intent.vertical += v;
        }
    }
    Ok(Command::Hold(
        intent,
        finite(secs).and_then(seconds_in_range)?,
    ))
}

/// A hold's or wait's seconds, refused outside 0 to [`MAX_COMMAND_SECS`].
fn seconds_in_range(s: f32) -> Result<f32, String> {
    if (0.0..=MAX_COMMAND_SECS).contains(&s) {
        Ok(s)
    } else {
        Err(format!(
            "{s} seconds is out of range (0 to {MAX_COMMAND_SECS})"
        ))
    }
}

/// `start X,Y,Z YAW PITCH`.
fn parse_start(args: &[&str]) -> Result<Command, String> {
    let [at, yaw, pitch] = args else {
        return Err("'start' needs X,Y,Z YAW PITCH".into());
    };
    let xyz: Vec<f32> = at.split(',').map(finite).collect::<Result<_, _>>()?;
    let [x, y, z] = xyz[..] else {
        return Err(format!("{} is not X,Y,Z", quote(at)));
    };
    let position = Vec3::new(x, y, z);
    if let Some(why) = out_of_range(position) {
        return Err(format!("the start {why}: nothing can stand there"));
    }
    let (yaw, pitch) = (finite(yaw)?, finite(pitch)?);
    if !(-180.0..=180.0).contains(&yaw) || !(-90.0..=90.0).contains(&pitch) {
        return Err(format!(
            "yaw {yaw} or pitch {pitch} is out of range (-180 to 180, -90 to 90)"
        ));
    }
    Ok(Command::Start(Pose {
        position,
        yaw_deg: yaw,
        pitch_deg: pitch,
    }))
}

/// `on` or `off`.
fn on_off(word: &str) -> Result<bool, String> {
    match word.to_ascii_lowercase().as_str() {
        "on" => Ok(true),
        "off" => Ok(false),
        a => Err(format!("{} is not on or off", quote(a))),
    }
}

/// Steps a hold or wait of `secs` seconds lasts at `dt` seconds a step.
fn steps_for(secs: f32, dt: f32) -> u64 {
    // f32 to u64 saturates: an absurd ratio is a huge count, never a wrap.
    (secs / dt).round() as u64
}

/// Steps the whole script takes at `dt` seconds a step (what [`ScriptPlayer`] will play),
/// to refuse an over-long run before it starts.
pub fn total_steps(commands: &[Command], dt: f32) -> u64 {
    commands
        .iter()
        .map(|c| match *c {
            Command::Hold(_, s) | Command::Wait(s) => steps_for(s, dt),
            _ => 0,
        })
        .fold(0u64, u64::saturating_add)
}

/// Plays a script one fixed step at a time, applying instant commands between steps.
#[derive(Clone, Debug)]
pub struct ScriptPlayer {
    commands: Vec<Command>,
    next: usize,
    /// Steps left of the current hold or wait, and its intent.
    holding: Option<(MoveIntent, u64)>,
    run: bool,
    crouch: bool,
    jump: bool,
    using: bool,
    dt: f32,
    /// Effects met since [`ScriptPlayer::take_effects`] was last called.
    effects: Vec<ScriptEffect>,
}

impl ScriptPlayer {
    /// A player for `commands` at step `dt` seconds.
    pub fn new(commands: Vec<Command>, dt: f32) -> ScriptPlayer {
        ScriptPlayer {
            commands,
            next: 0,
            holding: None,
            run: false,
            crouch: false,
            jump: false,
            using: false,
            dt,
            effects: Vec::new(),
        }
    }

    /// True when every command has been played.
    pub fn finished(&self) -> bool {
        self.holding.is_none() && self.next >= self.commands.len()
    }

    /// The effects met since the last call, in order (the window applies them after the
    /// frame's steps; the walk never depends on them).
    pub fn take_effects(&mut self) -> Vec<ScriptEffect> {
        std::mem::take(&mut self.effects)
    }

    /// The intent for the next step, after applying any instant commands to `c`;
    /// `None` when the script is over. A hold of `s` seconds lasts `round(s / dt)` steps.
    pub fn next_step(&mut self, c: &mut Controller) -> Option<MoveIntent> {
        loop {
            if let Some((intent, left)) = &mut self.holding {
                if *left > 0 {
                    *left -= 1;
                    let mut i = *intent;
                    i.run = self.run;
                    i.crouch = self.crouch;
                    i.jump = std::mem::take(&mut self.jump);
                    i.using = std::mem::take(&mut self.using);
                    return Some(i);
                }
                self.holding = None;
            }
            let cmd = *self.commands.get(self.next)?;
            self.next += 1;
            let steps = |s: f32| steps_for(s, self.dt);
            match cmd {
                Command::Hold(intent, s) => self.holding = Some((intent, steps(s))),
                Command::Wait(s) => self.holding = Some((MoveIntent::default(), steps(s))),
                Command::Turn(y, p) => c.pose.turn(y, p),
                Command::Response(r) => c.settings.response = r,
                Command::Mode(m) => c.set_mode(m),
                Command::Method(m) => c.settings.method = m,
                Command::Run(on) => self.run = on,
                Command::Crouch(on) => self.crouch = on,
                Command::Jump => self.jump = true,
                Command::Use => self.using = true,
                Command::Speed(v) => c.settings.speed = v,
                Command::RunFactor(v) => c.settings.run_multiplier = v,
                // The controller is placed afresh: a recording starts from rest.
                Command::Start(p) => c.place(p),
                Command::View(v) => self.effects.push(ScriptEffect::View(v)),
                Command::Decal => self.effects.push(ScriptEffect::Decal(c.view_pose())),
                Command::Measure => self.effects.push(ScriptEffect::Measure(c.view_pose())),
            }
        }
    }
}

#[cfg(test)]
mod tests;
