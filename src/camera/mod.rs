//! The first-person camera: its pose, what the player wants (the move intent), and the
//! fixed-step controller that turns one into the other through the collision world.

mod controller;
mod pose;

pub use controller::{
    Controller, DEFAULT_SPEED, Mode, RUN_MULTIPLIER, Refusal, Settings, Stance, StepReport,
    intent_direction,
};
pub use pose::{DEFAULT_FOV_Y_DEG, MoveIntent, NEAR_PLANE, Pose};
