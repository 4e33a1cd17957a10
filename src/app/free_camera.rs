//! The detached camera (Shift+V): a view that flies free of the body, through walls, so the
//! body can be seen against what it touches. The body stands still meanwhile (its
//! physics goes on without input).

use std::time::Instant;

use walkthrough_core::player::{Mode, MoveIntent, Pose, intent_direction};

use super::simulation::frame_time;

/// A free-flying view.
pub struct FreeCamera {
    /// Where it is and where it looks.
    pub pose: Pose,
    /// When it was detached: the debug view holds what was touched until then.
    pub since: Instant,
    last: Instant,
}

impl FreeCamera {
    /// A camera where the eye is now.
    pub fn at(pose: Pose, now: Instant) -> FreeCamera {
        FreeCamera {
            pose,
            since: now,
            last: now,
        }
    }

    /// Fly by `intent` at `speed` m/s for the time since the last frame: along the view,
    /// sideways, and straight up or down.
    pub fn fly(&mut self, intent: &MoveIntent, speed: f32, now: Instant) {
        let dt = frame_time(self.last, now).as_secs_f32();
        self.last = now;
        let step = intent_direction(&self.pose, intent, Mode::Fly) * speed * dt;
        if step.is_finite() {
            self.pose.position += step;
        }
    }
}
