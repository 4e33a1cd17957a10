//! Headless simulation: a script drives the controller at a fixed step, a trace records
//! every step. The window runs the same [`ScriptPlayer`] and [`Controller::step`], so the
//! same script gives the same trace with or without a window, at any frame rate.

mod recorder;
mod script;
mod stepper;
mod trace;

pub use recorder::ScriptRecorder;
pub use script::{
    Command, KEY_NAMES, RecordedOn, Script, ScriptEffect, ScriptError, ScriptPlayer, StartLine,
    parse_script, read_script, start_pose, total_steps,
};
pub use stepper::{Step, Stepper};
pub use trace::{ON_COLUMN, TRACE_HEADER, TraceColumns, TraceRow, TraceWriter, WATER_COLUMN};

use crate::collision::Collider;
use crate::map::MapFrame;
use crate::movers::{Still, Ticking};
use crate::player::{Controller, StepReport};

/// Default fixed simulation step, seconds (120 steps a second).
pub const DEFAULT_DT: f64 = 1.0 / 120.0;

/// Shortest step `sim` takes, seconds: below it f32 time steps lose their meaning and a
/// second of script is over 100,000 steps.
pub const MIN_DT: f64 = 1e-5;
/// Longest step `sim` takes, seconds: above it walking is no longer smooth (10 steps a
/// second).
pub const MAX_DT: f64 = 0.1;
/// Most steps a `sim` run takes unless `--max-steps` raises it: ten million steps (23
/// hours of script at 120 steps a second) run in about 8 s on the built-in map and write
/// about 780 MB of trace, a run a person waits for. (The old default, 10^8, allowed 75 s
/// and 7.8 GB.)
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;

/// Run a whole script from the controller's current state, handing each step (its trace
/// row, and the controller's report) to `sink` as it is made: first the starting pose
/// (frame 0, with an empty report), then one per step. Stops at the first error of `sink`.
/// Returns the number of steps taken.
///
/// ```
/// use walkthrough_core::player::{Controller, Pose, ControllerSettings};
/// use walkthrough_core::collision::CollisionWorld;
/// use walkthrough_core::map::MapFrame;
/// use walkthrough_core::sim::{parse_script, run};
///
/// // Flying: walking in an empty world would fall for ever.
/// let script = parse_script("fly.txt", "mode fly\nturn 90\nforward 0.5\n").unwrap();
/// let mut c = Controller::new(Pose::default(), ControllerSettings::default());
/// let mut rows = Vec::new();
/// let world = CollisionWorld::new([]);
/// let steps = run(&world, &MapFrame::default(), &mut c, &script, 0.125, |step| {
///     rows.push(step.row);
///     Ok::<(), ()>(())
/// });
/// assert_eq!(steps, Ok(4)); // 0.5 s of 1/8 s steps
/// assert_eq!(rows.len(), 1 + 4); // and the start
/// // Yaw 90 looks toward -X: 0.5 s at 3 m/s.
/// assert_eq!(rows[4].to_string(), "4,0.500000,-1.500000,0.000000,0.000000,90.000,0.000,slide,0,0,0");
/// ```
pub fn run<E>(
    world: &dyn Collider,
    frame: &MapFrame,
    controller: &mut Controller,
    script: &[Command],
    dt: f64,
    sink: impl FnMut(&Step) -> Result<(), E>,
) -> Result<u64, E> {
    run_in(
        &mut Still(world),
        frame,
        controller,
        script,
        dt,
        sink,
        |_| {},
    )
}

/// [`run`] in a world where things may move (a scene's movers: see [`crate::movers`]),
/// also handing each [`ScriptEffect`] (a `view` or `decal` line) to `effect` before the
/// step that follows it: what `sim --decals-out` sticks decals with. The steps are the
/// same whatever `effect` does.
pub fn run_in<E>(
    world: &mut dyn Ticking,
    frame: &MapFrame,
    controller: &mut Controller,
    script: &[Command],
    dt: f64,
    mut sink: impl FnMut(&Step) -> Result<(), E>,
    mut effect: impl FnMut(ScriptEffect),
) -> Result<u64, E> {
    if let Some(pose) = start_pose(script) {
        controller.place(pose);
    }
    let mut player = ScriptPlayer::new(script.to_vec(), dt as f32);
    let mut stepper = Stepper::new(dt);
    sink(&Step {
        report: StepReport::default(),
        row: stepper.start_row(world, controller, frame),
    })?;
    while let Some(intent) = player.next_step(controller) {
        player.take_effects().into_iter().for_each(&mut effect);
        sink(&stepper.step(world, frame, controller, &intent))?;
    }
    // Effects after the last step (a script ending with `decal`).
    player.take_effects().into_iter().for_each(&mut effect);
    Ok(stepper.steps())
}

/// [`run`] with every row kept in memory, for tests and short scripts.
pub fn run_to_rows(
    world: &dyn Collider,
    frame: &MapFrame,
    controller: &mut Controller,
    script: &[Command],
    dt: f64,
) -> Vec<TraceRow> {
    run_to_rows_in(&mut Still(world), frame, controller, script, dt)
}

/// [`run_to_rows`] in a world where things may move.
pub fn run_to_rows_in(
    world: &mut dyn Ticking,
    frame: &MapFrame,
    controller: &mut Controller,
    script: &[Command],
    dt: f64,
) -> Vec<TraceRow> {
    let mut rows = Vec::new();
    let sink = |step: &Step| {
        rows.push(step.row);
        Ok::<(), std::convert::Infallible>(())
    };
    let Ok(_steps) = run_in(world, frame, controller, script, dt, sink, |_| {});
    rows
}
