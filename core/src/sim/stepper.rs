//! The one step-and-trace routine. The window and `walkthrough sim` both advance the
//! controller through a [`Stepper`], so that one script gives the same trace, byte for
//! byte, with or without a window.

use super::TraceRow;
use crate::map::MapFrame;
use crate::movers::Ticking;
use crate::player::{Controller, MoveIntent, StepReport};

/// Counts fixed steps of `dt` seconds and makes the trace row of each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stepper {
    /// The step as the user gave it (1/120 s is not an `f32`): the trace's time.
    dt: f64,
    steps: u64,
}

/// What one step did, and its trace row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The controller's account of the step.
    pub report: StepReport,
    /// The pose after the step, as the trace records it.
    pub row: TraceRow,
}

impl Stepper {
    /// A stepper of `dt` seconds a step that has taken no step yet.
    pub fn new(dt: f64) -> Stepper {
        Stepper { dt, steps: 0 }
    }

    /// Seconds a step, as the physics takes it.
    pub fn dt(&self) -> f32 {
        self.dt as f32
    }

    /// Seconds a step, as the user gave it (the trace's time, and a recording's).
    pub fn dt_exact(&self) -> f64 {
        self.dt
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The row of the current state, as the trace's first row (frame 0) records it.
    pub fn start_row(
        &self,
        world: &dyn Ticking,
        controller: &Controller,
        frame: &MapFrame,
    ) -> TraceRow {
        TraceRow::new(0, 0.0, controller, frame, false).standing_on(world, controller)
    }

    /// Advance `controller` by one step with `intent` through `world`, where things may
    /// move (see [`crate::movers`]).
    pub fn step(
        &mut self,
        world: &mut dyn Ticking,
        frame: &MapFrame,
        controller: &mut Controller,
        intent: &MoveIntent,
    ) -> Step {
        let report = controller.step_in(world, intent, self.dt());
        self.steps += 1;
        // Time as steps times dt in `f64`, never a running sum nor the `f32` step: frame
        // 418 at 1/120 s is 3.483333, not 3.483334.
        let t = self.steps as f64 * self.dt;
        let row = TraceRow::new(self.steps, t, controller, frame, report.hit)
            .standing_on(world, controller);
        Step { report, row }
    }
}
