//! The player: the eye's pose, what the player wants (the move intent), and the
//! fixed-step controller that walks or flies the body through the collision world; the
//! third-person camera's boom (a view only: the walk never reads it).

mod boom;
mod controller;
mod fov;
mod pose;

pub use boom::{BOOM_LENGTH_RANGE, Boom, BoomSettings, BoomView, ViewKind, boom_direction};
pub use controller::{
    Controller, ControllerSettings, DEFAULT_SPEED, HELD_SHARE, Mode, RUN_MULTIPLIER, Refusal,
    Stance, StepReport, intent_direction,
};
pub use fov::{DEFAULT_FOV_DEG, FOV_RANGE_DEG, FieldOfView};
pub use pose::{MoveIntent, NEAR_PLANE, Pose};
