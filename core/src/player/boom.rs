//! The third-person camera: a boom from the head, behind and above it, that never puts
//! the camera inside the map.
//!
//! Each frame a small sphere ([`BoomSettings::radius`]) is swept from the eye back along
//! the boom through the same collision world the walker moves in (the one sweep of
//! [`crate::collision`]); the camera stands where the sphere first touches, or at the
//! boom's full length. Any point of a free sweep is free, so the camera may stand
//! anywhere between the eye and that point: it comes in at once (never inside a wall for
//! a frame) and goes back out smoothly (an exponential ease over
//! [`BoomSettings::return_time`]), as engines' spring arms do (Unreal's
//! `USpringArmComponent`: a probe sphere swept from the pivot, lag on the way out).
//!
//! The view is only drawn from here: the walk, the trace and `sim` never read it.

use glam::Vec3;

use crate::text::names::named;

use super::Pose;
use super::pose::MAX_PITCH_DEG;
use crate::collision::{Body, Collider, Probe, SKIN};
use crate::geometry::InsideMethod;

/// Lengths the boom may be set to, metres (the settings, Ctrl + the mouse wheel).
pub const BOOM_LENGTH_RANGE: std::ops::RangeInclusive<f32> = 0.5..=6.0;

/// Whose eyes the window shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ViewKind {
    /// The walker's own eye.
    #[default]
    First,
    /// A camera on a boom behind and above the head, the body drawn.
    Third,
}

named!(ViewKind, "view" { First => "first", Third => "third" });

/// The boom's shape and manners.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoomSettings {
    /// Length from the eye to the camera when nothing is in the way, metres (within
    /// [`BOOM_LENGTH_RANGE`]; 3 m shows the whole body at the default field of view).
    pub length: f32,
    /// Radius of the sphere swept along the boom, metres: the camera keeps this far from
    /// every triangle. Above the flying eye's [`SKIN`] (which is above the near plane's
    /// corner distance), so the near plane never cuts the wall behind the camera.
    pub radius: f32,
    /// The boom rises this many degrees above the view's direction behind the head: the
    /// camera looks over the head, the body a little below the middle of the view.
    pub raise_deg: f32,
    /// Time constant of the way back out after the boom was shortened, seconds: 63% of
    /// the way in this time (in at once: never inside).
    pub return_time: f32,
}

impl Default for BoomSettings {
    fn default() -> Self {
        BoomSettings {
            length: 3.0,
            radius: 0.1,
            raise_deg: 15.0,
            return_time: 0.2,
        }
    }
}

/// Where the camera stands this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoomView {
    /// Where the boom starts: the drawn eye, or short of it where the map is nearer (the
    /// sphere went from the head to here, then back along the boom to the camera).
    pub pivot: Vec3,
    /// The camera's pose: on the boom, looking where the eye looks.
    pub pose: Pose,
    /// Its distance from the eye, metres.
    pub length: f32,
    /// The sphere met the map before the boom's full length.
    pub blocked: bool,
}

/// The boom's state between frames: how far out the camera is.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Boom {
    /// The camera's distance from the eye last frame (`None` before the first: it starts
    /// where the sweep allows).
    extended: Option<f32>,
}

impl Boom {
    /// Forget the last frame (after a teleport or a reload): the next frame starts where
    /// the sweep allows, with no ease.
    pub fn reset(&mut self) {
        self.extended = None;
    }

    /// The camera for the drawn eye `eye` (the controller's view pose), `dt` seconds after
    /// the last frame: the boom swept through `world` and eased out.
    ///
    /// `head` is the body's physical eye (the controller's pose), which the body keeps
    /// well clear of every triangle (0.16 m or more for the walker). The drawn eye may be
    /// eased toward it from elsewhere (a step-up, a crouch: the view lags the body by up
    /// to 0.6 m, and can come within a couple of centimetres of a low ceiling), so the
    /// sphere goes from the head to the drawn eye first, then back along the boom: the
    /// same sweep twice, never starting inside the map.
    pub fn frame(
        &mut self,
        world: &dyn Collider,
        settings: &BoomSettings,
        head: Vec3,
        eye: &Pose,
        dt: f32,
    ) -> BoomView {
        let length = settings
            .length
            .clamp(*BOOM_LENGTH_RANGE.start(), *BOOM_LENGTH_RANGE.end());
        let back = boom_direction(eye, settings.raise_deg);
        // A sphere smaller than the skin would let the near plane reach a wall.
        let probe = Probe::new(
            Body::sphere(settings.radius.max(SKIN)),
            InsideMethod::default(),
        );
        let lag = eye.position - head;
        let pivot = match world.sweep(&probe, head, lag) {
            Some(contact) => head + lag * contact.t as f32,
            None => eye.position,
        };
        let free = match world.sweep(&probe, pivot, back * length) {
            Some(contact) => (contact.t as f32 * length).clamp(0.0, length),
            None => length,
        };
        let blocked = free < length;
        let eased = match self.extended {
            Some(last) if last < free => {
                let k = if settings.return_time > 0.0 && dt.is_finite() {
                    1.0 - (-dt.max(0.0) / settings.return_time).exp()
                } else {
                    1.0
                };
                last + (free - last) * k
            }
            // In at once: the sweep found the map nearer than last frame's camera.
            _ => free,
        };
        self.extended = Some(eased);
        BoomView {
            pivot,
            pose: Pose {
                position: pivot + back * eased,
                ..*eye
            },
            length: eased,
            blocked,
        }
    }
}

/// The unit direction from the eye to the camera: behind the view, raised by `raise_deg`
/// (the pitch kept within the pose's own limits, so the boom never flips over the head).
pub fn boom_direction(eye: &Pose, raise_deg: f32) -> Vec3 {
    let pitch = (eye.pitch_deg - raise_deg).clamp(-MAX_PITCH_DEG, MAX_PITCH_DEG);
    -Pose {
        pitch_deg: pitch,
        ..*eye
    }
    .forward()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::square_wall;

    /// An eye 1 m in front of the wall z = 0, looking away from it (yaw 180 looks
    /// along +Z): the boom runs back toward the wall.
    fn eye_facing_away_from_wall() -> Pose {
        Pose::new(Vec3::new(0.0, 0.0, 1.0), 180.0, 0.0)
    }

    #[test]
    fn the_boom_stops_short_of_a_wall_behind_the_head() {
        let world = square_wall(10.0);
        let s = BoomSettings {
            raise_deg: 0.0,
            ..BoomSettings::default()
        };
        let mut boom = Boom::default();
        let v = {
            let eye = eye_facing_away_from_wall();
            boom.frame(&world, &s, eye.position, &eye, 1.0 / 60.0)
        };
        assert!(v.blocked);
        // 1 m to the wall, less the sphere's radius (and its millimetre's gap).
        assert!((v.length - (1.0 - s.radius)).abs() < 2e-3, "{}", v.length);
        assert!(v.pose.position.z >= s.radius, "{:?}", v.pose.position);
    }

    #[test]
    fn nothing_behind_gives_the_full_length_raised_over_the_head() {
        let world = square_wall(10.0);
        let s = BoomSettings::default();
        // Looking at the wall: the boom goes back, away from it.
        let eye = Pose::new(Vec3::new(0.0, 0.0, 5.0), 0.0, 0.0);
        let v = Boom::default().frame(&world, &s, eye.position, &eye, 1.0 / 60.0);
        assert!(!v.blocked);
        assert!((v.length - 3.0).abs() < 1e-6);
        let rise = (v.pose.position.y - eye.position.y) / v.length;
        assert!(
            (rise - s.raise_deg.to_radians().sin()).abs() < 1e-5,
            "{rise}"
        );
        // The camera looks where the eye looks.
        assert_eq!(
            (v.pose.yaw_deg, v.pose.pitch_deg),
            (eye.yaw_deg, eye.pitch_deg)
        );
    }

    #[test]
    fn the_camera_comes_in_at_once_and_goes_out_smoothly() {
        let world = square_wall(10.0);
        let s = BoomSettings {
            raise_deg: 0.0,
            ..BoomSettings::default()
        };
        let mut boom = Boom::default();
        let far = Pose::new(Vec3::new(0.0, 0.0, 5.0), 180.0, 0.0);
        assert!((boom.frame(&world, &s, far.position, &far, 0.016).length - 3.0).abs() < 1e-6);
        // Backed up to 1 m from the wall: in at once.
        let near = eye_facing_away_from_wall();
        let blocked = boom.frame(&world, &s, near.position, &near, 0.016).length;
        assert!(blocked < 0.91, "{blocked}");
        // Away again: one frame goes part of the way, not all of it, and never back in.
        let mut last = blocked;
        for frame in 0..30 {
            let l = boom.frame(&world, &s, far.position, &far, 0.016).length;
            assert!(l > last, "frame {frame}: {l} after {last}");
            if frame == 0 {
                assert!(l < 1.5, "one frame went {l}");
            }
            last = l;
        }
        // After half a second (2.5 time constants) over 90% of the way.
        assert!(last > 3.0 - 0.1 * (3.0 - blocked), "{last}");
    }

    #[test]
    fn view_names_parse() {
        assert_eq!("third".parse::<ViewKind>(), Ok(ViewKind::Third));
        assert_eq!(" First ".parse::<ViewKind>(), Ok(ViewKind::First));
        assert!("second".parse::<ViewKind>().is_err());
    }
}
