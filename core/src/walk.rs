//! Walking: a person on the swept ellipsoid, with gravity, stairs, slopes, ledges, jumps
//! and crouching, the same at any time step (see [`step`] for the phases of a tick).
//!
//! Depends on [`crate::collision`] only; the controller calls [`WalkState::advance`]
//! for walk mode, the window and `sim` alike. A tick that repeats one of the last two is
//! taken from [`memo`], not worked out again.

pub mod memo;
mod settings;
pub mod step;
pub mod water;

pub use memo::TickMemo;
pub use settings::WalkSettings;
pub use step::{WalkIntent, WalkReport};
pub use water::WaterLevel;

use crate::collision::Contact;

/// What the walker carries from one tick to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkState {
    /// Vertical speed, m/s (up positive).
    pub vertical_speed: f32,
    /// The contact holding the body up, when on walkable ground.
    pub ground: Option<Contact>,
    /// Crouched (the shorter body).
    pub crouched: bool,
    /// Held up without ground: the last fall was stopped by contacts none of which is
    /// ground (wedged in a slot narrower than the body, or between a wall and an edge). A
    /// jump is allowed from here as from the ground; otherwise the walker could only
    /// walk out, if at all.
    pub wedged: bool,
    /// Off the ground against a slope too steep to stand on, not held (see `wedged`):
    /// sliding down it, or walked up it as fast as it slides down (pressed up such a face
    /// the body hovers on it, and read as falling).
    pub on_steep_slope: bool,
    /// How deep in water (see [`water`]), after the last tick.
    pub water: WaterLevel,
    /// Climbing out of water (Quake III's water jump): rising from a swim over an edge,
    /// under gravity as a jump until the rise ends or ground holds the body.
    climbing: bool,
    /// Time not yet simulated, seconds (less than a tick).
    owed: f64,
    /// A jump asked for, done at the next tick on the ground.
    jump_queued: bool,
}

impl WalkState {
    /// On walkable ground.
    pub fn on_ground(&self) -> bool {
        self.ground.is_some()
    }

    /// Forget the motion (a teleport, a switch to flying): standing still, in the air
    /// until the next tick finds the ground.
    pub fn reset(&mut self) {
        *self = WalkState {
            crouched: self.crouched,
            ..WalkState::default()
        };
    }
}
