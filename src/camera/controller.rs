//! The controller: one fixed step of movement, through the collision world.
//!
//! The window and the headless simulation call the very same [`Controller::step`] at the
//! same fixed step, so a script gives the same trace whatever the frame rate.

use std::fmt;
use std::str::FromStr;

use glam::Vec3;

use super::{MoveIntent, Pose};
use crate::collision::{Body, Collider, Contact, MoveRules, Response, push_out};
use crate::geometry::InsideMethod;
use crate::tolerance::{DEFAULT_SPEED, RUN_MULTIPLIER};

/// How intent maps to motion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Move in the horizontal plane along the heading; up/down are ignored.
    #[default]
    Walk,
    /// Move along the look direction; up/down move vertically.
    Fly,
}

impl Mode {
    /// Name used in the CLI, scripts and the HUD.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Walk => "walk",
            Mode::Fly => "fly",
        }
    }

    /// The other mode.
    pub fn toggled(self) -> Mode {
        match self {
            Mode::Walk => Mode::Fly,
            Mode::Fly => Mode::Walk,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name given is not a mode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown mode '{0}' (expected walk or fly)")]
pub struct ParseModeError(pub String);

impl FromStr for Mode {
    type Err = ParseModeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "walk" => Ok(Mode::Walk),
            "fly" => Ok(Mode::Fly),
            _ => Err(ParseModeError(s.to_string())),
        }
    }
}

/// Cosine of the steepest walkable slope, 45 degrees (Godot's `floor_max_angle`; Unreal
/// uses 44.765 degrees, Quake III a normal's up component of 0.7).
pub const WALKABLE_MIN_UP: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// Controller settings, all changeable at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Walking speed, world units per second.
    pub speed: f32,
    /// Speed factor while running.
    pub run_multiplier: f32,
    /// Walk or fly.
    pub mode: Mode,
    /// Stop or slide.
    pub response: Response,
    /// Point-in-triangle method of the collision test.
    pub method: InsideMethod,
    /// The body that walks ([`Body::WALKER`]: 0.6 x 1.8 x 0.6 m, eye 1.6 m above the feet).
    pub walker: Body,
    /// The body that flies ([`Body::FLYER`]: a sphere of the skin's radius at the eye).
    pub flyer: Body,
    /// Walking: contacts whose normal's up component is below this are walls, slid along
    /// level (cos 45 degrees: Godot's `floor_max_angle`; Quake III uses 0.7).
    pub walkable_min_up: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            speed: DEFAULT_SPEED,
            run_multiplier: RUN_MULTIPLIER,
            mode: Mode::Walk,
            response: Response::Slide,
            method: InsideMethod::Barycentric,
            walker: Body::WALKER,
            flyer: Body::FLYER,
            walkable_min_up: WALKABLE_MIN_UP,
        }
    }
}

impl Settings {
    /// The body of the current mode.
    pub fn body(&self) -> Body {
        match self.mode {
            Mode::Walk => self.walker,
            Mode::Fly => self.flyer,
        }
    }

    /// How the current mode's body moves.
    pub fn move_rules(&self) -> MoveRules {
        MoveRules {
            body: self.body(),
            response: self.response,
            method: self.method,
            wall_below_up: (self.mode == Mode::Walk).then_some(self.walkable_min_up),
        }
    }
}

/// What one step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepReport {
    /// A collision changed the move.
    pub hit: bool,
    /// Distance actually travelled.
    pub moved: f32,
    /// Distance the intent asked for.
    pub wanted: f32,
    /// The body started this step inside geometry (placed there, or grown from the
    /// flying sphere into the walker) and was pushed out first.
    pub pushed_out: bool,
    /// The first contact of the step's move, if any.
    pub contact: Option<Contact>,
}

/// Owns the pose and the settings; advances by fixed steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Controller {
    /// Where the eye is.
    pub pose: Pose,
    /// How it moves.
    pub settings: Settings,
    /// The body the current position is known to be free for; `None` after a placement.
    /// When the body differs (a new spawn, a mode switch), the next step pushes it out of
    /// whatever it overlaps before moving.
    settled: Option<Body>,
}

impl Controller {
    /// A controller at `pose` with `settings`.
    pub fn new(pose: Pose, settings: Settings) -> Controller {
        Controller {
            pose,
            settings,
            settled: None,
        }
    }

    /// Put the eye at `pose` (a spawn, a reload, a teleport): the body is checked for
    /// overlaps again at the next step.
    pub fn place(&mut self, pose: Pose) {
        self.pose = pose;
        self.settled = None;
    }

    /// The displacement the intent asks for over `dt` seconds, before collision.
    ///
    /// Diagonal input is not faster than straight input.
    pub fn wanted_move(&self, intent: &MoveIntent, dt: f32) -> Vec3 {
        let clamp = |x: f32| {
            if x.is_finite() {
                x.clamp(-1.0, 1.0)
            } else {
                0.0
            }
        };
        let (f, s, v) = (
            clamp(intent.forward),
            clamp(intent.strafe),
            clamp(intent.vertical),
        );
        let dir = match self.settings.mode {
            Mode::Walk => self.pose.forward_flat() * f + self.pose.right() * s,
            Mode::Fly => self.pose.forward() * f + self.pose.right() * s + Vec3::Y * v,
        };
        let dir = if dir.length_squared() > 1.0 {
            dir.normalize()
        } else {
            dir
        };
        let speed = self.settings.speed
            * if intent.run {
                self.settings.run_multiplier
            } else {
                1.0
            };
        let d = dir * speed * dt;
        if d.is_finite() { d } else { Vec3::ZERO }
    }

    /// Advance one fixed step of `dt` seconds: the body of the current mode, centred below
    /// the eye, is swept by the wanted move; the eye follows it.
    pub fn step(&mut self, world: &dyn Collider, intent: &MoveIntent, dt: f32) -> StepReport {
        let d = self.wanted_move(intent, dt);
        let rules = self.settings.move_rules();
        let body = rules.body;
        let start = self.pose.position;
        let mut centre = body.centre_of(start);
        let mut pushed_out = false;
        if self.settled != Some(body) {
            let freed = push_out(world, &body, centre);
            centre = freed.centre;
            pushed_out = freed.pushed;
            self.settled = Some(body);
        }
        let out = world.resolve_move(&rules, centre, d);
        self.pose.position = body.eye_of(out.end);
        StepReport {
            hit: out.hit || pushed_out,
            moved: (self.pose.position - start).length(),
            wanted: d.length(),
            pushed_out,
            contact: out.contacts().next().copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walking_ignores_pitch_and_vertical() {
        let mut c = Controller::new(Pose::new(Vec3::ZERO, 0.0, 60.0), Settings::default());
        let d = c.wanted_move(
            &MoveIntent {
                forward: 1.0,
                vertical: 1.0,
                ..Default::default()
            },
            1.0,
        );
        assert!((d - Vec3::new(0.0, 0.0, -DEFAULT_SPEED)).length() < 1e-5);
        c.settings.mode = Mode::Fly;
        let d = c.wanted_move(
            &MoveIntent {
                forward: 1.0,
                ..Default::default()
            },
            1.0,
        );
        assert!(d.y > 0.0);
    }

    #[test]
    fn diagonal_is_not_faster() {
        let c = Controller::new(Pose::default(), Settings::default());
        let d = c.wanted_move(
            &MoveIntent {
                forward: 1.0,
                strafe: 1.0,
                ..Default::default()
            },
            1.0,
        );
        assert!((d.length() - DEFAULT_SPEED).abs() < 1e-5);
    }

    #[test]
    fn running_multiplies_speed() {
        let c = Controller::new(Pose::default(), Settings::default());
        let d = c.wanted_move(
            &MoveIntent {
                forward: 1.0,
                run: true,
                ..Default::default()
            },
            1.0,
        );
        assert!((d.length() - DEFAULT_SPEED * RUN_MULTIPLIER).abs() < 1e-4);
    }

    #[test]
    fn nan_intent_does_not_move() {
        let c = Controller::new(Pose::default(), Settings::default());
        let d = c.wanted_move(
            &MoveIntent {
                forward: f32::NAN,
                ..Default::default()
            },
            1.0,
        );
        assert_eq!(d, Vec3::ZERO);
    }

    #[test]
    fn step_in_empty_world_moves_freely() {
        let w = crate::collision::CollisionWorld::new([]);
        let mut c = Controller::new(Pose::default(), Settings::default());
        let r = c.step(
            &w,
            &MoveIntent {
                strafe: 1.0,
                ..Default::default()
            },
            0.5,
        );
        assert!(!r.hit);
        assert!((c.pose.position - Vec3::new(DEFAULT_SPEED * 0.5, 0.0, 0.0)).length() < 1e-5);
    }

    #[test]
    fn mode_names_round_trip() {
        for m in [Mode::Walk, Mode::Fly] {
            assert_eq!(m.name().parse::<Mode>().unwrap(), m);
            assert_eq!(m.toggled().toggled(), m);
        }
        assert!("swim".parse::<Mode>().is_err());
    }
}
