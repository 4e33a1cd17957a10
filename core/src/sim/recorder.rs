//! Recording a walk as a script (what Quake III calls a demo): what the controller was
//! given, step by step, in the script language, so that `walkthrough sim --script` of it
//! gives the window's trace byte for byte.
//!
//! The script starts with the state it needs (`start` pose, response, mode, method,
//! speed, run factor), then the input in order: a run of steps with the same keys is one `keys` line
//! (or `wait`); a mouse move between steps is a `turn` and a `look` with the exact values
//! the window applied (Rust writes an `f32` in the fewest digits that read back to the
//! same bits); `run`, `crouch`, `jump` and `use` come before the step they change. A hold's
//! seconds are its steps times `dt`, written so that they round back to those steps.

use std::fmt::Write;

use super::script::{KEY_NAMES, MAX_COMMAND_SECS};
use crate::player::{Controller, MoveIntent};

/// The keys of a step's intent: forward, strafe and vertical.
type Keys = [f32; 3];

/// A script being written from a live walk.
#[derive(Clone, Debug)]
pub struct ScriptRecorder {
    text: String,
    dt: f64,
    /// The keys of the run of steps not yet written, and its length.
    pending: Option<(Keys, u64)>,
    run: bool,
    crouch: bool,
    /// Steps recorded.
    steps: u64,
}

impl ScriptRecorder {
    /// Start recording the walk of `c` at `dt` seconds a step: the header (`about`, a
    /// comment line each: the map, the frame) and the state the walk starts from.
    pub fn new(c: &Controller, dt: f64, about: &[String]) -> ScriptRecorder {
        let mut text = String::from("# walkthrough recording\n");
        for line in about {
            let _ = writeln!(text, "# {line}");
        }
        let s = c.settings;
        let _ = writeln!(
            text,
            "{}\nresponse {}\nmode {}\nmethod {}\nspeed {}\nrun-factor {}",
            start_line(&c.pose),
            s.response,
            s.mode,
            s.method,
            s.speed,
            s.run_multiplier
        );
        ScriptRecorder {
            text,
            dt,
            pending: None,
            run: false,
            crouch: false,
            steps: 0,
        }
    }

    /// The eye was turned by the mouse between steps (degrees, as applied).
    pub fn turn(&mut self, dyaw_deg: f32, dpitch_deg: f32) {
        if !(dyaw_deg.is_finite() && dpitch_deg.is_finite()) {
            return;
        }
        if dyaw_deg != 0.0 {
            self.line(&format!("turn {dyaw_deg}"));
        }
        if dpitch_deg != 0.0 {
            self.line(&format!("look {dpitch_deg}"));
        }
    }

    /// The eye was put at `pose` between steps (a saved view): a `start` line.
    pub fn place(&mut self, pose: &crate::player::Pose) {
        self.line(&start_line(pose));
    }

    /// A setting changed between steps: `response stop`, `mode fly`, `speed 4.5`...
    pub fn set(&mut self, line: &str) {
        self.line(line);
    }

    /// The controller took one step with `intent`.
    pub fn step(&mut self, intent: &MoveIntent) {
        self.steps += 1;
        if intent.run != self.run {
            self.run = intent.run;
            self.line(if self.run { "run on" } else { "run off" });
        }
        if intent.crouch != self.crouch {
            self.crouch = intent.crouch;
            self.line(if self.crouch {
                "crouch on"
            } else {
                "crouch off"
            });
        }
        if intent.jump {
            self.line("jump");
        }
        if intent.using {
            self.line("use");
        }
        let keys = [intent.forward, intent.strafe, intent.vertical];
        match &mut self.pending {
            Some((k, n))
                if *k == keys && (*n as f64 + 1.0) * self.dt <= f64::from(MAX_COMMAND_SECS) =>
            {
                *n += 1
            }
            _ => {
                self.flush();
                self.pending = Some((keys, 1));
            }
        }
    }

    /// Steps recorded so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The script, whole.
    pub fn finish(mut self) -> String {
        self.flush();
        self.text
    }

    /// Write `line` after the run of steps before it.
    fn line(&mut self, line: &str) {
        self.flush();
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// Write the pending run of steps.
    fn flush(&mut self) {
        let Some((keys, n)) = self.pending.take() else {
            return;
        };
        // n steps of dt, in the shortest decimal that reads back (as the player's f32)
        // to a duration that rounds to n steps.
        let secs = n as f64 * self.dt;
        // Each axis's key by its sign (held keys give -1, 0 or 1).
        let names: Vec<&str> = KEY_NAMES
            .iter()
            .filter(|(_, unit)| (0..3).any(|a| unit[a] * keys[a] > 0.0))
            .map(|(name, _)| *name)
            .collect();
        let _ = if names.is_empty() {
            writeln!(self.text, "wait {}", secs as f32)
        } else {
            writeln!(self.text, "keys {} {}", names.join("+"), secs as f32)
        };
    }
}

/// `start X,Y,Z YAW PITCH` of `pose`, every number reading back to its bits.
fn start_line(pose: &crate::player::Pose) -> String {
    let p = pose.position;
    format!(
        "start {},{},{} {} {}",
        p.x, p.y, p.z, pose.yaw_deg, pose.pitch_deg
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{ControllerSettings, Pose};
    use crate::sim::{Command, ScriptPlayer, parse_script, start_pose};
    use glam::Vec3;

    fn intent(forward: f32, strafe: f32, run: bool, jump: bool) -> MoveIntent {
        MoveIntent {
            forward,
            strafe,
            run,
            jump,
            ..MoveIntent::default()
        }
    }

    #[test]
    fn a_recording_plays_back_the_same_intents_turns_and_settings() {
        let pose = Pose::new(Vec3::new(1.5, 1.6, -2.25), 33.3, -4.0);
        let c = Controller::new(pose, ControllerSettings::default());
        let dt = 1.0 / 120.0;
        let mut r = ScriptRecorder::new(&c, dt, &["map: test".into()]);
        // What a window did: steps, a mouse move of awkward values, a mode switch.
        let mut live: Vec<(MoveIntent, Pose)> = Vec::new();
        let mut eye = pose;
        let steps = [
            intent(1.0, 0.0, false, false),
            intent(1.0, 0.0, false, false),
            intent(1.0, 1.0, true, false),
            intent(0.0, 0.0, true, true),
            intent(0.0, -1.0, false, false),
        ];
        for (k, i) in steps.iter().enumerate() {
            if k == 2 {
                let (dy, dp) = (-0.123_456_79_f32, 1.0e-7_f32);
                eye.turn(dy, dp);
                r.turn(dy, dp);
                r.set("mode fly");
            }
            r.step(i);
            live.push((*i, eye));
        }
        let text = r.finish();
        let script = parse_script("rec.txt", &text).unwrap();
        assert_eq!(start_pose(&script), Some(pose), "{text}");
        let mut c2 = Controller::new(Pose::default(), ControllerSettings::default());
        let mut player = ScriptPlayer::new(script.clone(), dt as f32);
        for (k, (want, eye)) in live.iter().enumerate() {
            let got = player.next_step(&mut c2).expect("a step");
            assert_eq!(got, *want, "step {k}\n{text}");
            assert_eq!(c2.pose.yaw_deg.to_bits(), eye.yaw_deg.to_bits(), "{text}");
            assert_eq!(
                c2.pose.pitch_deg.to_bits(),
                eye.pitch_deg.to_bits(),
                "{text}"
            );
        }
        assert!(player.next_step(&mut c2).is_none(), "{text}");
        assert_eq!(c2.settings.mode, crate::player::Mode::Fly);
        assert!(text.contains("keys forward+right"), "{text}");
        assert!(script.iter().any(|c| matches!(c, Command::Jump)));
    }

    #[test]
    fn a_long_hold_is_split_and_keeps_every_step() {
        let c = Controller::new(Pose::default(), ControllerSettings::default());
        let dt = 0.1;
        let mut r = ScriptRecorder::new(&c, dt, &[]);
        let n = (f64::from(MAX_COMMAND_SECS) / dt) as u64 + 7;
        for _ in 0..n {
            r.step(&intent(1.0, 0.0, false, false));
        }
        let script = parse_script("rec.txt", &r.finish()).unwrap();
        assert_eq!(crate::sim::total_steps(&script, dt as f32), n);
    }
}
