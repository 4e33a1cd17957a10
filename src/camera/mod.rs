//! The first-person camera: its pose, what the player wants (the move intent), and the
//! fixed-step controller that turns one into the other through the collision world.

mod controller;
mod pose;

pub use controller::{Controller, Mode, Settings, Stance, StepReport};
pub use pose::{MoveIntent, Pose};
