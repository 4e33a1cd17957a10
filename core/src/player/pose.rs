//! Where the eye is and where it looks, and what the player asks for.

use glam::{Mat4, Vec3};

/// Near clipping plane distance of the renderer's perspective projection.
pub const NEAR_PLANE: f32 = 0.01;

/// Largest pitch, degrees: looking straight up or down would make the view matrix singular.
pub const MAX_PITCH_DEG: f32 = 89.0;

/// Position and orientation of the eye, in world coordinates.
///
/// Yaw 0 looks toward -Z, yaw +90 toward -X (turning left is positive); pitch positive
/// looks up. Y is up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Eye position.
    pub position: Vec3,
    /// Heading, degrees, kept in `(-180, 180]`.
    pub yaw_deg: f32,
    /// Elevation, degrees, kept in `[-MAX_PITCH_DEG, MAX_PITCH_DEG]`.
    pub pitch_deg: f32,
}

impl Default for Pose {
    fn default() -> Self {
        Pose {
            position: Vec3::ZERO,
            yaw_deg: 0.0,
            pitch_deg: 0.0,
        }
    }
}

impl Pose {
    /// A pose at `position` looking along yaw and pitch (degrees), normalised.
    pub fn new(position: Vec3, yaw_deg: f32, pitch_deg: f32) -> Pose {
        let mut p = Pose {
            position,
            yaw_deg: 0.0,
            pitch_deg: 0.0,
        };
        p.turn(yaw_deg, pitch_deg);
        p
    }

    /// Turn by `dyaw` (left positive) and `dpitch` (up positive) degrees. Non-finite
    /// input is ignored, pitch is clamped, yaw wraps.
    ///
    /// A zero turn changes nothing, not even by rounding (the yaw is not wrapped again):
    /// a recorded `look` then replays to the same bits as the mouse move it came from.
    pub fn turn(&mut self, dyaw_deg: f32, dpitch_deg: f32) {
        if dyaw_deg.is_finite() && dyaw_deg != 0.0 {
            let y = (self.yaw_deg + dyaw_deg).rem_euclid(360.0);
            self.yaw_deg = if y > 180.0 { y - 360.0 } else { y };
        }
        if dpitch_deg.is_finite() && dpitch_deg != 0.0 {
            self.pitch_deg = (self.pitch_deg + dpitch_deg).clamp(-MAX_PITCH_DEG, MAX_PITCH_DEG);
        }
    }

    /// Unit vector the eye looks along.
    pub fn forward(&self) -> Vec3 {
        let (sy, cy) = self.yaw_deg.to_radians().sin_cos();
        let (sp, cp) = self.pitch_deg.to_radians().sin_cos();
        Vec3::new(-sy * cp, sp, -cy * cp)
    }

    /// Unit vector of the heading in the horizontal plane (what walking follows).
    pub fn forward_flat(&self) -> Vec3 {
        let (sy, cy) = self.yaw_deg.to_radians().sin_cos();
        Vec3::new(-sy, 0.0, -cy)
    }

    /// Unit vector to the right, horizontal.
    pub fn right(&self) -> Vec3 {
        let (sy, cy) = self.yaw_deg.to_radians().sin_cos();
        Vec3::new(cy, 0.0, -sy)
    }

    /// The view matrix (world to eye).
    pub fn view_matrix(&self) -> Mat4 {
        Mat4::look_to_rh(self.position, self.forward(), Vec3::Y)
    }
}

/// What the player asks for during one step, from keys or a script. Axes are in `[-1, 1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveIntent {
    /// +1 forward, -1 back.
    pub forward: f32,
    /// +1 right, -1 left.
    pub strafe: f32,
    /// +1 up, -1 down (fly mode only).
    pub vertical: f32,
    /// Run (speed times [`RUN_MULTIPLIER`](super::RUN_MULTIPLIER)).
    pub run: bool,
    /// Jump (walking): once, at the next step, if on the ground.
    pub jump: bool,
    /// Crouch (walking), held.
    pub crouch: bool,
    /// Use (E): starts a mover that waits for it, looked at within reach (see
    /// [`crate::movers`]); once, at the next step.
    pub using: bool,
}

impl MoveIntent {
    /// True when nothing is asked for.
    pub fn is_idle(&self) -> bool {
        self.forward == 0.0 && self.strafe == 0.0 && self.vertical == 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_turn_leaves_the_yaw_bits_alone() {
        // -0.1 wrapped through rem_euclid(360) comes back as -0.100006: a `look` replayed
        // from a recording must not move the yaw at all.
        let mut p = Pose {
            position: Vec3::ZERO,
            yaw_deg: -0.1,
            pitch_deg: 5.0,
        };
        p.turn(0.0, 3.0);
        assert_eq!(p.yaw_deg.to_bits(), (-0.1f32).to_bits());
        assert_eq!(p.pitch_deg, 8.0);
        p.turn(0.5, 0.0);
        assert_eq!(p.pitch_deg.to_bits(), 8.0f32.to_bits());
    }

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn yaw_zero_looks_down_negative_z_and_ninety_down_negative_x() {
        assert!(close(Pose::new(Vec3::ZERO, 0.0, 0.0).forward(), -Vec3::Z));
        assert!(close(Pose::new(Vec3::ZERO, 90.0, 0.0).forward(), -Vec3::X));
        assert!(close(Pose::new(Vec3::ZERO, 0.0, 0.0).right(), Vec3::X));
        assert!(close(Pose::new(Vec3::ZERO, 90.0, 0.0).right(), -Vec3::Z));
    }

    #[test]
    fn positive_pitch_looks_up_and_is_clamped() {
        let p = Pose::new(Vec3::ZERO, 0.0, 30.0);
        assert!(p.forward().y > 0.49);
        let mut p = Pose::default();
        p.turn(0.0, 500.0);
        assert_eq!(p.pitch_deg, MAX_PITCH_DEG);
        p.turn(0.0, -1000.0);
        assert_eq!(p.pitch_deg, -MAX_PITCH_DEG);
    }

    #[test]
    fn yaw_wraps_and_ignores_nan() {
        let mut p = Pose::default();
        p.turn(270.0, 0.0);
        assert_eq!(p.yaw_deg, -90.0);
        p.turn(f32::NAN, f32::INFINITY);
        assert_eq!((p.yaw_deg, p.pitch_deg), (-90.0, 0.0));
    }

    #[test]
    fn view_matrix_puts_what_is_ahead_on_negative_z() {
        let p = Pose::new(Vec3::new(1.0, 2.0, 3.0), 90.0, 0.0);
        let ahead = p
            .view_matrix()
            .transform_point3(p.position + p.forward() * 5.0);
        assert!(close(ahead, Vec3::new(0.0, 0.0, -5.0)));
    }
}
