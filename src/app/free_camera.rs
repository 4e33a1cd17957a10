//! The detached camera (V): a view that flies free of the body, through walls, so the
//! body can be seen against what it touches. The body stands still meanwhile (its
//! physics goes on without input).

use std::time::Instant;

use glam::Vec3;

use walkthrough::camera::{MoveIntent, Pose};

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
        let dt = now.duration_since(self.last).as_secs_f32().min(0.25);
        self.last = now;
        let dir = self.pose.forward() * intent.forward
            + self.pose.right() * intent.strafe
            + Vec3::Y * intent.vertical;
        let step = dir.normalize_or_zero() * speed * dt;
        if step.is_finite() {
            self.pose.position += step;
        }
    }
}
