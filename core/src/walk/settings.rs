//! The walking person's physical settings, with the engines they come from.

use glam::Vec3;

use crate::collision::Body;
use crate::collision::body::WALKER_RADII;

/// How a person walks, in metres and seconds. Every field is a physical default with its
/// source; change them for a game that feels otherwise.
///
/// Plain `f32`s only (`Pod`): the walker's memory of a tick compares them to the bit (see
/// [`super::memo`]).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct WalkSettings {
    /// Downward acceleration, m/s^2 (standard gravity).
    pub gravity: f32,
    /// A contact is walkable ground when its normal's up component is at least this:
    /// cos 45 degrees (Godot's `floor_max_angle`; Unreal 44.765 degrees; Quake III 0.7).
    pub walkable_min_up: f32,
    /// Highest step climbed without a jump, and the farthest the feet follow the floor
    /// down (Unreal's `MaxStepHeight` 45 cm; Quake III's `STEPSIZE` 18 units).
    pub max_step: f32,
    /// Upward speed of a jump, m/s: `v^2 / 2g` = 0.9 m of rise.
    pub jump_speed: f32,
    /// An edge or corner of a walkable triangle touched this high above the feet or lower
    /// holds the body up: a tall ellipsoid on a stair nose sees a contact normal only
    /// about 0.44 up, and would otherwise stall at the first step and hop down each one.
    pub ground_band: f32,
    /// Height of the crouched body, metres.
    pub crouch_height: f32,
    /// Eye height above the feet when crouched, metres.
    pub crouch_eye_height: f32,
    /// Walking speed factor when crouched.
    pub crouch_speed_factor: f32,
    /// The internal fixed tick, seconds: every outer step is cut into whole ticks of this
    /// length (the remainder carried to the next step), so any `--dt` walks the same path.
    pub tick: f32,
    /// Time constant of the drawn eye catching up with a step-up or a crouch, seconds (the
    /// view only; the physics and the trace keep the physical eye).
    pub view_smoothing: f32,
    /// Walking speed factor with the feet in water (Quake III's `pm_wadeScale`, 0.70).
    pub wade_speed_factor: f32,
    /// Horizontal speed factor when swimming (Quake III's `pm_swimScale`, 0.50).
    pub swim_speed_factor: f32,
    /// Vertical speed of swimming up (Space) or down (C), m/s.
    pub swim_vertical_speed: f32,
    /// Where a swimmer left alone floats: its eye this far above the surface, metres (the
    /// head out of the water; the waist still in it, so it goes on swimming).
    pub float_eye_above: f32,
    /// Time constant of a swimmer's drift toward its floating height, seconds: buoyancy
    /// below it, a slow sinking above it (no gravity fall in water).
    pub float_time: f32,
    /// Fastest rise of buoyancy, m/s.
    pub float_rise_speed: f32,
    /// Fastest sinking of a swimmer above its floating height, m/s (Quake sinks an idle
    /// swimmer at 60 units/s, about 1.5 m/s; ours is slower, as the brief asks).
    pub float_sink_speed: f32,
    /// A swimmer pressing against a wall climbs out (Quake III's `PM_CheckWaterJump`) when
    /// the body raised this far would pass over it, metres: from swimming with the waist
    /// at the surface (Space held), a ledge up to about 0.3 m above the water.
    pub water_jump_clearance: f32,
    /// How far ahead the raised body must be free for a climb out, metres (Quake III
    /// looks 30 units ahead; ours is the body's own sweep, from its surface).
    pub water_jump_reach: f32,
    /// Upward speed of a climb out, m/s: `v^2 / 2g` = 1.43 m of rise, over the clearance
    /// (Quake III's 350 units/s).
    pub water_jump_speed: f32,
}

impl Default for WalkSettings {
    fn default() -> Self {
        WalkSettings {
            gravity: 9.81,
            walkable_min_up: std::f32::consts::FRAC_1_SQRT_2,
            max_step: 0.45,
            jump_speed: 4.2,
            ground_band: 0.2,
            crouch_height: 1.2,
            crouch_eye_height: 1.0,
            crouch_speed_factor: 0.5,
            tick: 1.0 / 240.0,
            view_smoothing: 0.1,
            wade_speed_factor: 0.7,
            swim_speed_factor: 0.5,
            swim_vertical_speed: 1.5,
            float_eye_above: 0.1,
            float_time: 0.5,
            float_rise_speed: 1.0,
            float_sink_speed: 0.5,
            water_jump_clearance: 1.2,
            water_jump_reach: 0.2,
            water_jump_speed: 5.3,
        }
    }
}

impl WalkSettings {
    /// The standing body: [`Body::WALKER`].
    pub fn standing(&self) -> Body {
        Body::WALKER
    }

    /// The crouched body: as wide as the walker, [`crouch_height`](Self::crouch_height)
    /// tall, the eye [`crouch_eye_height`](Self::crouch_eye_height) above the feet.
    pub fn crouched(&self) -> Body {
        let half = self.crouch_height * 0.5;
        Body {
            radii: Vec3::new(WALKER_RADII.x, half, WALKER_RADII.z),
            eye_above_centre: self.crouch_eye_height - half,
        }
    }

    /// True when every value is finite and positive where it must be.
    pub fn is_valid(&self) -> bool {
        let positive = [
            self.gravity,
            self.max_step,
            self.crouch_height,
            self.crouch_eye_height,
            self.tick,
            self.float_time,
        ];
        let finite = [
            self.wade_speed_factor,
            self.swim_speed_factor,
            self.swim_vertical_speed,
            self.float_eye_above,
            self.float_rise_speed,
            self.float_sink_speed,
            self.water_jump_clearance,
            self.water_jump_reach,
            self.water_jump_speed,
        ];
        positive.iter().all(|v| v.is_finite() && *v > 0.0)
            && finite.iter().all(|v| v.is_finite() && *v >= 0.0)
            && (0.0..=1.0).contains(&self.walkable_min_up)
            && self.jump_speed.is_finite()
            && self.ground_band.is_finite()
            && self.crouch_speed_factor.is_finite()
            && self.view_smoothing.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jump_speed_rises_about_0_9_m() {
        let s = WalkSettings::default();
        let apex = s.jump_speed * s.jump_speed / (2.0 * s.gravity);
        assert!((apex - 0.9).abs() < 0.01, "{apex}");
    }

    #[test]
    fn crouched_body_keeps_its_feet_and_is_1_2_m_tall() {
        let s = WalkSettings::default();
        let b = s.crouched();
        assert!((b.radii.y * 2.0 - 1.2).abs() < 1e-6);
        let feet = Vec3::ZERO;
        let centre = feet + Vec3::Y * b.radii.y;
        assert!((b.eye_of(centre).y - 1.0).abs() < 1e-6);
        assert!(s.is_valid());
    }
}
