//! Headless simulation: a script drives the controller at a fixed step, a trace records
//! every step. The window runs the same [`ScriptPlayer`] and [`Controller::step`], so the
//! same script gives the same trace with or without a window, at any frame rate.

mod script;
mod stepper;
mod trace;

pub use script::{Command, ScriptError, ScriptPlayer, parse_script};
pub use stepper::{Step, Stepper};
pub use trace::{TRACE_HEADER, TraceRow};

use crate::camera::Controller;
use crate::collision::Collider;
use crate::map::MapFrame;

/// Run a whole script from the controller's current state; returns one row per step,
/// plus a first row (frame 0) for the starting pose.
///
/// ```
/// use walkthrough::camera::{Controller, Pose, Settings};
/// use walkthrough::collision::CollisionWorld;
/// use walkthrough::map::MapFrame;
/// use walkthrough::sim::{parse_script, run};
///
/// // Flying: walking in an empty world would fall for ever.
/// let script = parse_script("fly.txt", "mode fly\nturn 90\nforward 0.5\n").unwrap();
/// let mut c = Controller::new(Pose::default(), Settings::default());
/// let rows = run(&CollisionWorld::new([]), &MapFrame::default(), &mut c, &script, 0.125);
/// assert_eq!(rows.len(), 1 + 4); // the start, then 0.5 s of 1/8 s steps
/// // Yaw 90 looks toward -X: 0.5 s at 3 m/s.
/// assert_eq!(rows[4].to_string(), "4,0.500000,-1.500000,0.000000,0.000000,90.000,0.000,slide,0,0,0");
/// ```
pub fn run(
    world: &dyn Collider,
    frame: &MapFrame,
    controller: &mut Controller,
    script: &[Command],
    dt: f32,
) -> Vec<TraceRow> {
    let mut player = ScriptPlayer::new(script.to_vec(), dt);
    let mut stepper = Stepper::new(dt);
    let mut rows = vec![stepper.start_row(controller, frame)];
    while let Some(intent) = player.next_step(controller) {
        rows.push(stepper.step(world, frame, controller, &intent).row);
    }
    rows
}
