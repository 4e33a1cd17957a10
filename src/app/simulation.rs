//! The walk the window shows: the session, the controller, the script and the trace,
//! advanced in fixed steps by real time (the same [`Stepper`] as `walkthrough sim`, so a
//! script's trace is the same with or without a window).

use std::io;
use std::time::{Duration, Instant};

use walkthrough_core::files::output::PartialFile;
use walkthrough_core::player::{Controller, Mode, Pose, Refusal};
use walkthrough_core::session::Session;
use walkthrough_core::sim::DEFAULT_DT;
use walkthrough_core::sim::{
    Command, ScriptEffect, ScriptPlayer, ScriptRecorder, Stepper, TraceRow, TraceWriter, start_pose,
};

use walkthrough_core::movers::Recorded;

use super::debug_view::DebugView;
use super::keys::HeldKeys;

/// Longest stretch of real time simulated in one frame (after a stall, the world does not
/// fast-forward for seconds).
const MAX_FRAME_TIME: Duration = Duration::from_millis(250);

/// How far outside a reloaded map's box the eye may be and stay where it was (world
/// units): an eye a little above an open map's roof or beside its edge keeps its place.
const KEPT_POSE_MARGIN: f32 = 1.0;

/// A recording stopped: the script to save.
pub struct FinishedRecording {
    /// The script's text.
    pub script: String,
    /// The walk's length, seconds.
    pub seconds: f64,
}

/// The real time from `last` to `now` that a frame simulates: at most [`MAX_FRAME_TIME`].
pub fn frame_time(last: Instant, now: Instant) -> Duration {
    now.saturating_duration_since(last).min(MAX_FRAME_TIME)
}

/// The trace file the window writes.
pub type TraceFile = TraceWriter<PartialFile>;

/// The map, the person in it, and what drives them.
pub struct Simulation {
    /// The map being walked.
    pub session: Session,
    /// The pose and settings.
    pub controller: Controller,
    stepper: Stepper,
    script: Option<ScriptPlayer>,
    trace: Option<TraceFile>,
    /// Why the trace stopped before its end (a full disk): the run's exit says so.
    trace_failed: Option<io::Error>,
    /// Real time not yet simulated (less than one step).
    accumulator: Duration,
    last_frame: Option<Instant>,
    /// The walk being recorded as a script (F5, `--record`).
    recording: Option<ScriptRecorder>,
    /// How many times real time a script plays (P pauses: 0; `.` cycles 1, 2, 4).
    replay_speed: u32,
    /// The speed P resumes at.
    resume_speed: u32,
    /// What the script asked of the view in this frame's steps, for the window to apply.
    effects: Vec<ScriptEffect>,
}

/// What one frame's steps did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Advance {
    /// A wall, ceiling or steep slope stopped or slid a move (a step climbed is none:
    /// see [`StepReport::blocked`](crate::player::StepReport::blocked)).
    pub blocked: bool,
    /// A blocked step moved on along what blocked it (a slide, not held: see
    /// [`StepReport::held`](crate::player::StepReport::held)).
    pub slid: bool,
    /// Steps taken this frame.
    pub steps: u32,
    /// Distance walked across over them (flown, all of it), metres: what the walk asked
    /// for, not a fall, a jump in place or a ride (see
    /// [`StepReport::moved_across`](crate::player::StepReport::moved_across)).
    pub walked: f32,
    /// A step pushed the body out of geometry it was placed in.
    pub pushed_out: bool,
    /// The script ran out during this frame, after this many steps.
    pub script_finished_at: Option<u64>,
    /// A change asked for (walking where there is no room) that the controller refused.
    pub refused: Option<Refusal>,
}

impl Simulation {
    /// A walk in `session` from `controller`'s pose, driven by `script` if there is one.
    pub fn new(
        session: Session,
        mut controller: Controller,
        script: Option<Vec<Command>>,
        trace: Option<TraceFile>,
    ) -> Simulation {
        // A script that starts with `start` (a recording) starts there, as in `sim`.
        if let Some(pose) = script.as_deref().and_then(start_pose) {
            controller.place(pose);
        }
        Simulation {
            session,
            controller,
            stepper: Stepper::new(DEFAULT_DT),
            script: script.map(|s| ScriptPlayer::new(s, DEFAULT_DT as f32)),
            trace,
            trace_failed: None,
            accumulator: Duration::ZERO,
            last_frame: None,
            recording: None,
            replay_speed: 1,
            resume_speed: 1,
            effects: Vec::new(),
        }
    }

    /// P: pause a playing script, or resume it. The new state, in words (`None`: no
    /// script plays).
    pub fn toggle_pause(&mut self) -> Option<String> {
        self.script.as_ref()?;
        if self.replay_speed == 0 {
            self.replay_speed = self.resume_speed;
            Some(format!("script resumed at {}x", self.replay_speed))
        } else {
            self.resume_speed = self.replay_speed;
            self.replay_speed = 0;
            Some("script paused (P resumes)".into())
        }
    }

    /// `.`: a playing script at the next speed of 1x, 2x and 4x (the trace is the same).
    pub fn next_replay_speed(&mut self) -> Option<String> {
        self.script.as_ref()?;
        let next = match self.replay_speed.max(self.resume_speed) {
            1 => 2,
            2 => 4,
            _ => 1,
        };
        (self.replay_speed, self.resume_speed) = (next, next);
        Some(format!("script at {next}x"))
    }

    /// The replay speed of a playing script (0: paused).
    pub fn replay_speed(&self) -> Option<u32> {
        self.script.as_ref().map(|_| self.replay_speed)
    }

    /// Start recording the walk from here (`about`: the header's comment lines). The
    /// controller is placed afresh, at rest where it stands, as the replay will start,
    /// and a scene's movers start again from their first keys, as they do in the replay
    /// (a script holds no clocks: recorded mid-ride, the replay's lift went up where the
    /// window's came down). True when there were movers to restart.
    pub fn start_recording(&mut self, about: &[String]) -> bool {
        self.controller.place(self.controller.pose);
        let restarted = !self.session.movers.is_empty();
        self.session.restart_movers();
        self.recording = Some(ScriptRecorder::new(
            &self.controller,
            self.stepper.dt_exact(),
            about,
        ));
        restarted
    }

    /// Stop recording: the script and how long it is (`None` when not recording).
    pub fn stop_recording(&mut self) -> Option<FinishedRecording> {
        let r = self.recording.take()?;
        let seconds = r.steps() as f64 * self.stepper.dt_exact();
        Some(FinishedRecording {
            script: r.finish(),
            seconds,
        })
    }

    /// A walk is being recorded.
    pub fn recording(&self) -> bool {
        self.recording.is_some()
    }

    /// The eye was turned between steps by the mouse (degrees, as applied).
    pub fn record_turn(&mut self, dyaw_deg: f32, dpitch_deg: f32) {
        if let Some(r) = &mut self.recording {
            r.turn(dyaw_deg, dpitch_deg);
        }
    }

    /// The eye was put at `pose` between steps (a saved view): a `start` line.
    pub fn record_place(&mut self, pose: &walkthrough_core::player::Pose) {
        if let Some(r) = &mut self.recording {
            r.place(pose);
        }
    }

    /// A setting changed between steps (a script line: `mode fly`).
    pub fn record_set(&mut self, line: &str) {
        if let Some(r) = &mut self.recording {
            r.set(line);
        }
    }

    /// Write the trace's first row (the starting pose); called once, when the window opens.
    pub fn start(&mut self) {
        let frame = self.session.map.frame;
        let row = self
            .stepper
            .start_row(&self.session.ticking(), &self.controller, &frame);
        self.write_trace(&row);
    }

    /// The speed walked (flown: all of it) over a frame's steps, m/s, what the set speed
    /// asks for: not a fall, a jump in place or standing up (the eye's 0.6 m rise read
    /// 18 m/s standing still). `None` for a frame with no step (the
    /// last is shown); 0 while a script is paused (it read 3.0 m/s).
    pub fn speed_of(&self, advance: &Advance) -> Option<f32> {
        if self.replay_speed() == Some(0) {
            return Some(0.0);
        }
        (advance.steps > 0).then(|| advance.walked / (advance.steps as f32 * self.stepper.dt()))
    }

    /// Seconds simulated since the window opened (the steps taken times the step): what
    /// moves with the walk's clock (the water's ripples) is the same in every run of a
    /// script.
    pub fn time(&self) -> f32 {
        (self.stepper.steps() as f64 * self.stepper.dt_exact()) as f32
    }

    /// A script is still playing.
    pub fn scripted(&self) -> bool {
        self.script.is_some()
    }

    /// Advance by the real time since the last frame, in fixed steps; the script (or else
    /// the held keys; with none, as with a detached camera, no input) gives each step's
    /// intent. With `debug`, each step goes through a [`Recorder`] into its account (the
    /// same answers).
    pub fn advance(
        &mut self,
        now: Instant,
        mut keys: Option<&mut HeldKeys>,
        mut debug: Option<&mut DebugView>,
    ) -> Advance {
        let elapsed = self
            .last_frame
            .map_or(Duration::ZERO, |t| frame_time(t, now));
        self.last_frame = Some(now);
        // A script plays at its replay speed (paused: 0); the steps are the same ones.
        if self.script.is_some() {
            self.accumulator += elapsed * self.replay_speed;
        } else {
            self.accumulator += elapsed;
        }
        let dt = Duration::from_secs_f32(self.stepper.dt());
        let mut advance = Advance::default();
        while self.accumulator >= dt {
            self.accumulator -= dt;
            let scripted = self.script.as_mut().map(|player| {
                let next = player.next_step(&mut self.controller);
                self.effects.extend(player.take_effects());
                next
            });
            let intent = match scripted {
                Some(Some(intent)) => intent,
                Some(None) => {
                    // The trace records the script's run, row for row as `sim` would,
                    // and nothing the keys do after it.
                    self.script = None;
                    self.close_trace();
                    advance.script_finished_at = Some(self.stepper.steps());
                    // The frame ends with the script, its step left for the next: the
                    // picture `--screenshot` takes now is the walk as the script left it
                    // (otherwise the keys' first steps would stand a crouched walker
                    // up before it).
                    self.accumulator += dt;
                    break;
                }
                None => keys
                    .as_deref_mut()
                    .map(HeldKeys::take_intent)
                    .unwrap_or_default(),
            };
            if let Some(r) = &mut self.recording {
                r.step(&intent);
            }
            let frame = self.session.map.frame;
            let step = match debug.as_deref_mut() {
                // The debug view records the step's sweeps, movers or not.
                Some(view) => {
                    let response = self.controller.settings.response;
                    let mut world = self.session.ticking();
                    let mut recorded = Recorded::new(&mut world, &mut view.account);
                    let step =
                        self.stepper
                            .step(&mut recorded, &frame, &mut self.controller, &intent);
                    view.after_step(response, &step.report, now);
                    step
                }
                None => self.stepper.step(
                    &mut self.session.ticking(),
                    &frame,
                    &mut self.controller,
                    &intent,
                ),
            };
            advance.blocked |= step.report.blocked();
            advance.slid |= step.report.blocked() && !step.report.held();
            advance.pushed_out |= step.report.pushed_out;
            advance.refused = step.report.refused.or(advance.refused);
            advance.steps += 1;
            advance.walked += step.report.moved_across;
            self.write_trace(&step.row);
        }
        // Whole rows reach the file each frame: a killed run loses at most one frame.
        self.with_trace(|w| w.flush());
        advance
    }

    /// What the script asked of the view since the last call (in order).
    pub fn take_effects(&mut self) -> Vec<ScriptEffect> {
        std::mem::take(&mut self.effects)
    }

    /// Flush and close the trace, at exit.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(e) = self.trace_failed.take() {
            return Err(e);
        }
        match self.trace.take() {
            Some(w) => w.finish()?.commit(),
            None => Ok(()),
        }
    }

    /// Close the trace (the script ended): the file is put in place; a failure is
    /// reported, the walk goes on, and the run's exit says it.
    fn close_trace(&mut self) {
        if let Err(e) = self.finish() {
            tell!("warning: cannot write the trace ({e})");
            self.trace_failed = Some(e);
        }
    }

    /// Walk `session` instead; `keep_pose` keeps the player where it is if that is still
    /// within [`KEPT_POSE_MARGIN`] of the new map's box (a reload), and out of its closed
    /// solids (see [`Simulation::out_of_solid`]: a block added where the eye was). The
    /// warning when the kept eye was moved out of one.
    pub fn replace_session(&mut self, session: Session, keep_pose: bool) -> Option<String> {
        let old = self.controller.pose;
        let near = session.world.bounds().inflated(KEPT_POSE_MARGIN);
        let kept = keep_pose && near.contains(old.position);
        let pose = if kept { old } else { session.start_pose(None) };
        self.controller.place(pose);
        self.session = session;
        kept.then(|| self.out_of_solid("the view kept by the reload"))
            .flatten()
    }

    /// Put the eye at `pose` (a saved view), moved out of a closed solid it is inside,
    /// and record it as a `start` line where it ends. The warning when it was moved, its
    /// eye named `what` ("view 3").
    pub fn go_to(&mut self, pose: Pose, what: &str) -> Option<String> {
        self.controller.place(pose);
        let moved = self.out_of_solid(what);
        let at = self.controller.pose;
        self.record_place(&at);
        moved
    }

    /// Walk or fly from here (a key's or a pad's press, recorded as the line `mode ...`):
    /// the eye moved out of a closed solid it is inside, recorded as a `start` line after
    /// the mode's. The warning when it was moved.
    pub fn switch_mode(&mut self, mode: Mode) -> Option<String> {
        self.controller.set_mode(mode);
        self.record_set(&format!("mode {mode}"));
        let moved = self.out_of_solid(&format!("the eye at the switch to {mode}"))?;
        let at = self.controller.pose;
        self.record_place(&at);
        Some(moved)
    }

    /// Move the eye out of the closed solid it is inside to the nearest spot outside it,
    /// by the one rule every start obeys ([`Session::moved_out_of_solid`]); the warning
    /// that says where, its eye named `what`. Nothing changes (`None`) when it is inside
    /// none.
    fn out_of_solid(&mut self, what: &str) -> Option<String> {
        let pose = self.controller.pose;
        let moved = self.session.moved_out_of_solid(pose.position, what)?;
        if moved.eye != pose.position {
            self.controller.place(Pose {
                position: moved.eye,
                ..pose
            });
        }
        moved.warning
    }

    fn write_trace(&mut self, row: &TraceRow) {
        self.with_trace(|w| w.row(row));
    }

    /// Do `op` on the trace, if one is written; a failed write is reported once and ends
    /// the trace (the walk goes on).
    fn with_trace(&mut self, op: impl FnOnce(&mut TraceFile) -> io::Result<()>) {
        if let Some(w) = &mut self.trace
            && let Err(e) = op(w)
        {
            tell!("warning: cannot write the trace ({e}); the trace stops here");
            // Dropped uncommitted: its `.partial` file goes, the old trace stays.
            self.trace = None;
            self.trace_failed = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use walkthrough_core::player::ControllerSettings;
    use walkthrough_core::session::OpenOptions;
    use walkthrough_core::sim::parse_script;
    use walkthrough_core::test_kit::obj::BoxesObj;
    use walkthrough_core::text::names::Named;

    /// A 20 x 4 x 20 m room (its faces into it), and in its middle a closed 4 x 2 x 4 m
    /// crate standing on its floor (its faces out of it) if `with_crate`: written to a
    /// file of its own, opened.
    fn room(with_crate: bool) -> Session {
        let mut obj = BoxesObj::default();
        obj.boxed(
            Vec3::new(-10.0, 0.0, -10.0),
            Vec3::new(10.0, 4.0, 10.0),
            true,
        );
        if with_crate {
            obj.boxed(Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 2.0, 2.0), false);
        }
        static ROOMS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = ROOMS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "walkthrough-solid-views-{}-{n}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("room.obj");
        std::fs::write(&path, obj.text).unwrap();
        let opts = OpenOptions {
            headless: true,
            no_map_cache: true,
            ..OpenOptions::default()
        };
        let session = Session::open(Some(&path), &opts).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        session
    }

    /// The eye inside the crate (0.2, 1.6, 0.1): the nearest spot outside is over its top,
    /// the margin past it.
    const IN_THE_CRATE: Vec3 = Vec3::new(0.2, 1.6, 0.1);
    const OVER_THE_CRATE: Vec3 = Vec3::new(0.2, 2.05, 0.1);

    fn walking(session: Session, at: Vec3) -> Simulation {
        let controller = Controller::new(Pose::new(at, 30.0, 5.0), ControllerSettings::default());
        Simulation::new(session, controller, None, None)
    }

    fn assert_moved_over_the_crate(sim: &Simulation, said: Option<String>, what: &str) {
        let p = sim.controller.pose;
        assert!(p.position.distance(OVER_THE_CRATE) < 1e-4, "{p:?}");
        assert_eq!((p.yaw_deg, p.pitch_deg), (30.0, 5.0), "the look is kept");
        assert_eq!(
            said.as_deref(),
            Some(format!("{what} looks inside a closed solid: every ray from it, round and up and down, meets a face, nearly all from behind (a block's inside, or a room whose faces all point out): it is moved 0.45 m to 0.200,2.050,0.100 (file coordinates), the nearest spot outside it").as_str())
        );
    }

    /// A saved view inside a closed crate (one added to the map since it was kept) is
    /// taken to the nearest spot outside it and said; one beside it is taken as kept.
    #[test]
    fn a_saved_view_inside_a_solid_is_moved_out_and_said() {
        let mut sim = walking(room(true), Vec3::new(5.0, 1.6, 5.0));
        let said = sim.go_to(Pose::new(IN_THE_CRATE, 30.0, 5.0), "view 3");
        assert_moved_over_the_crate(&sim, said, "view 3");
        let beside = Vec3::new(-5.0, 1.6, 5.0);
        assert_eq!(sim.go_to(Pose::new(beside, 30.0, 5.0), "view 4"), None);
        assert_eq!(sim.controller.pose.position, beside);
    }

    /// R reloads the map keeping the pose: a crate now closed round the eye moves it out
    /// of the crate and says so; the same reload with the eye beside it keeps it there.
    #[test]
    fn a_reload_that_closes_a_solid_round_the_eye_moves_it_out() {
        let mut sim = walking(room(false), IN_THE_CRATE);
        let said = sim.replace_session(room(true), true);
        assert_moved_over_the_crate(&sim, said, "the view kept by the reload");
        let beside = Vec3::new(-5.0, 1.6, 5.0);
        let mut sim = walking(room(false), beside);
        assert_eq!(sim.replace_session(room(true), true), None);
        assert_eq!(sim.controller.pose.position, beside);
    }

    /// A switch of mode where the eye is inside a closed solid moves it out and says so
    /// (walk to fly, and fly to walk); out of every solid it changes only the mode.
    #[test]
    fn a_switch_of_mode_inside_a_solid_moves_the_eye_out() {
        for mode in [Mode::Fly, Mode::Walk] {
            let mut sim = walking(room(true), IN_THE_CRATE);
            sim.controller.set_mode(mode.next());
            let said = sim.switch_mode(mode);
            assert_eq!(sim.controller.settings.mode, mode);
            assert_moved_over_the_crate(&sim, said, &format!("the eye at the switch to {mode}"));
            let beside = Vec3::new(-5.0, 1.6, 5.0);
            let mut sim = walking(room(true), beside);
            assert_eq!(sim.switch_mode(mode), None);
            assert_eq!(sim.controller.pose.position, beside);
        }
    }

    /// With a script paused, the HUD read "speed 3.0 m/s", the speed
    /// of the last frame that stepped. Paused, it is 0; playing, the frame's own.
    #[test]
    fn a_paused_script_moves_at_no_speed() {
        let session = Session::open(None, &OpenOptions::default()).unwrap();
        let controller = Controller::new(session.start_pose(None), ControllerSettings::default());
        let script = parse_script("walk", "forward 2\n").unwrap();
        let mut sim = Simulation::new(session, controller, Some(script), None);
        let walked = Advance {
            steps: 2,
            walked: 0.05,
            ..Advance::default()
        };
        let speed = sim.speed_of(&walked).unwrap();
        assert!(
            (speed - 0.05 / (2.0 * sim.stepper.dt())).abs() < 1e-4,
            "{speed}"
        );
        assert_eq!(sim.speed_of(&Advance::default()), None);
        sim.toggle_pause();
        assert_eq!(sim.speed_of(&Advance::default()), Some(0.0));
        sim.toggle_pause();
        assert_eq!(sim.speed_of(&Advance::default()), None);
    }
}
