//! The controller: one fixed step of movement, through the collision world.
//!
//! The window and the headless simulation call the very same [`Controller::step`] at the
//! same fixed step, so a script gives the same trace whatever the frame rate.

use crate::text::names::named;
use glam::Vec3;

use super::{MoveIntent, Pose};
use crate::collision::placement::free_anchor;
use crate::collision::{
    Body, Collider, Contact, MoveRules, Placement, Probe, Response, place, push_out, resolve_move,
};
use crate::geometry::InsideMethod;
use crate::movers::{Rider, Still, Ticking};
use crate::walk::{TickMemo, WalkIntent, WalkSettings, WalkState, WaterLevel};

/// Default walking speed, world units (metres) per second.
pub const DEFAULT_SPEED: f32 = 3.0;

/// Speed multiplier while the run key is held.
pub const RUN_MULTIPLIER: f32 = 2.5;

/// How intent maps to motion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Move in the horizontal plane along the heading; up/down are ignored.
    #[default]
    Walk,
    /// Move along the look direction; up/down move vertically.
    Fly,
}

named!(Mode, "mode" { Walk => "walk", Fly => "fly" });

/// Controller settings, all changeable at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ControllerSettings {
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
    /// The body that flies ([`Body::FLYER`]: a sphere of the skin's radius at the eye).
    pub flyer: Body,
    /// How the person walks: gravity, steps, slopes, jump, crouch.
    pub walk: WalkSettings,
}

impl Default for ControllerSettings {
    fn default() -> Self {
        ControllerSettings {
            speed: DEFAULT_SPEED,
            run_multiplier: RUN_MULTIPLIER,
            mode: Mode::Walk,
            response: Response::Slide,
            method: InsideMethod::Barycentric,
            flyer: Body::FLYER,
            walk: WalkSettings::default(),
        }
    }
}

impl ControllerSettings {
    /// The speed, m/s, walking or flying, running (`run`) or not.
    pub fn speed_for(&self, run: bool) -> f32 {
        self.speed * if run { self.run_multiplier } else { 1.0 }
    }

    /// The rules a body of the current mode moves by (walking: steep contacts are walls).
    pub fn move_rules(&self, body: Body) -> MoveRules {
        MoveRules {
            probe: Probe::new(body, self.method),
            response: self.response,
            wall_below_up: (self.mode == Mode::Walk).then_some(self.walk.walkable_min_up),
        }
    }
}

/// What the body is doing, for the HUD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stance {
    /// Flying: no gravity.
    Flying,
    /// Walking, standing on walkable ground.
    OnGround,
    /// Walking, crouched on the ground.
    Crouched,
    /// Walking, in the air and rising (a jump).
    Rising,
    /// Walking, in the air and falling.
    Falling,
    /// Walking, held up without ground (wedged in a slot narrower than the body): it can
    /// jump out.
    Wedged,
    /// Walking, on a slope too steep to stand on (see [`crate::walk::WalkState::on_steep_slope`]).
    SteepSlope,
    /// Walking, swimming (the eye under water: see [`crate::walk::water`]).
    Swimming,
}

impl Stance {
    /// Lower-case name, as the HUD shows it.
    pub fn name(self) -> &'static str {
        match self {
            Stance::Flying => "flying",
            Stance::OnGround => "on ground",
            Stance::Crouched => "crouched",
            Stance::Rising => "jumping",
            Stance::Falling => "falling",
            Stance::Wedged => "wedged",
            Stance::SteepSlope => "on a slope too steep to stand on",
            Stance::Swimming => "swimming",
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
    /// Of it, the part across (walking: horizontal; flying: all of it), which is what
    /// the move asked for ([`StepReport::wanted`]).
    pub moved_across: f32,
    /// Distance the intent asked for.
    pub wanted: f32,
    /// The body started this step inside geometry (placed there, or grown from the
    /// flying sphere into the walker) and was pushed out first.
    pub pushed_out: bool,
    /// The first contact of the step's move, if any.
    pub contact: Option<Contact>,
    /// Height climbed by step-ups this step (walking).
    pub stepped_up: f32,
    /// A switch this step asked for could not be made (the mode was changed back).
    pub refused: Option<Refusal>,
}

impl StepReport {
    /// A wall, ceiling or steep slope stopped or slid the move: it hit something, and did
    /// not climb it (a step-up's first try is blocked by the step it then climbs, which is
    /// no slide). What the HUD's STOPPED / SLIDING says.
    pub fn blocked(&self) -> bool {
        self.hit && self.stepped_up <= 0.0
    }

    /// Blocked and barely moved (under [`HELD_SHARE`] of the move asked for): held by the
    /// wall, as a stop is, even when sliding (head-on, a slide has nowhere to go). The HUD
    /// then says STOPPED, not SLIDING (head-on into a step in slide mode, SLIDING at
    /// 0 m/s would mislead).
    pub fn held(&self) -> bool {
        self.blocked() && self.moved_across < HELD_SHARE * self.wanted
    }
}

/// Share of the move asked for under which a blocked step counts as held (see
/// [`StepReport::held`]): a slide along a wall met within 3 degrees of head-on.
pub const HELD_SHARE: f32 = 0.05;

/// A change the controller could not make, and why (the HUD and `sim` say it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Walking was asked for where the walker fits neither standing nor crouched (under a
    /// ceiling lower than a crouch, in a gap narrower than a body): flying goes on.
    NoRoomToWalk,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NoRoomToWalk => f.write_str(
                "no room to walk here (the walker fits neither standing nor crouched): flying until the next placement (a script's start, R, a view)",
            ),
        }
    }
}

/// Where [`Controller::settle`] put a body.
struct Settled {
    centre: Vec3,
    pushed: bool,
    refused: Option<Refusal>,
}

impl Settled {
    fn at(p: Placement) -> Settled {
        Settled {
            centre: p.centre,
            pushed: p.pushed,
            refused: None,
        }
    }
}

/// Owns the pose and the settings; advances by fixed steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Controller {
    /// Where the eye is.
    pub pose: Pose,
    /// How it moves.
    pub settings: ControllerSettings,
    /// The walker's motion: vertical speed, ground, crouch.
    pub walk: WalkState,
    /// The body the current position is known to be free for; `None` after a placement.
    /// When the body differs (a new spawn, a mode switch), the next step pushes it out of
    /// whatever it overlaps before moving.
    settled: Option<Body>,
    /// How far the drawn eye lags the physical one vertically (a step-up or a crouch
    /// moves the view smoothly; see [`Controller::view_pose`]).
    view_lag: f32,
    /// Walking was asked for and refused for want of room (see [`Refusal`]): the next
    /// placement walks again. A script's later `start` in an open room went on flying
    /// to its end.
    walk_refused: bool,
    /// The last walking tick, reused while the walker repeats it (see
    /// [`crate::walk::memo`]).
    memo: TickMemo,
}

impl Controller {
    /// A controller at `pose` with `settings`.
    pub fn new(pose: Pose, settings: ControllerSettings) -> Controller {
        Controller {
            pose,
            settings,
            walk: WalkState::default(),
            settled: None,
            view_lag: 0.0,
            walk_refused: false,
            memo: TickMemo::default(),
        }
    }

    /// Walk or fly, as the user or a script asks (a flight forced by a refused walk is
    /// then theirs).
    pub fn set_mode(&mut self, mode: Mode) {
        self.settings.mode = mode;
        self.walk_refused = false;
    }

    /// The body of the current mode and posture.
    pub fn body(&self) -> Body {
        match self.settings.mode {
            Mode::Walk => self.walk.body(&self.settings.walk),
            Mode::Fly => self.settings.flyer,
        }
    }

    /// What the body is doing now.
    pub fn stance(&self) -> Stance {
        match self.settings.mode {
            Mode::Fly => Stance::Flying,
            Mode::Walk if self.walk.on_ground() && self.walk.crouched => Stance::Crouched,
            Mode::Walk if self.walk.on_ground() => Stance::OnGround,
            Mode::Walk if self.walk.water == WaterLevel::Swimming => Stance::Swimming,
            Mode::Walk if self.walk.wedged => Stance::Wedged,
            Mode::Walk if self.walk.on_steep_slope => Stance::SteepSlope,
            Mode::Walk if self.walk.vertical_speed > 0.0 => Stance::Rising,
            Mode::Walk => Stance::Falling,
        }
    }

    /// The pose to draw: the physical eye, with step-ups and crouching eased in over
    /// [`WalkSettings::view_smoothing`]. The trace keeps the physical pose.
    pub fn view_pose(&self) -> Pose {
        let mut p = self.pose;
        p.position.y += self.view_lag;
        p
    }

    /// Put the eye at `pose` (a spawn, a reload, a teleport): the body is checked for
    /// overlaps again at the next step.
    pub fn place(&mut self, pose: Pose) {
        self.pose = pose;
        if std::mem::take(&mut self.walk_refused) {
            self.settings.mode = Mode::Walk;
        }
        self.settled = None;
        self.walk.reset();
        self.view_lag = 0.0;
    }

    /// The displacement the intent asks for over `dt` seconds, before collision.
    ///
    /// Diagonal input is not faster than straight input.
    pub fn wanted_move(&self, intent: &MoveIntent, dt: f32) -> Vec3 {
        let dir = intent_direction(&self.pose, intent, self.settings.mode);
        let d = dir * self.settings.speed_for(intent.run) * dt;
        if d.is_finite() { d } else { Vec3::ZERO }
    }

    /// Advance one fixed step of `dt` seconds. Flying, the sphere is swept by the wanted
    /// move; walking, the person walks it (gravity, steps, jump, crouch: see
    /// [`crate::walk`]). The eye follows the body. A body not yet placed (a spawn, a
    /// teleport, a mode switch) is placed first (see `Controller::settle`).
    pub fn step(&mut self, world: &dyn Collider, intent: &MoveIntent, dt: f32) -> StepReport {
        self.step_in(&mut Still(world), intent, dt)
    }

    /// [`step`](Self::step) in a world where things may move: each tick passes in `world`
    /// before the body's own move (see [`crate::movers`]); flying, the step is one tick.
    pub fn step_in(
        &mut self,
        ticking: &mut dyn Ticking,
        intent: &MoveIntent,
        dt: f32,
    ) -> StepReport {
        let start = self.pose.position;
        let mut pushed_out = false;
        let mut refused = None;
        let mut centre = self.body().centre_of(start);
        if self.settled != Some(self.body()) {
            let settled = self.settle(ticking.collider());
            centre = settled.centre;
            pushed_out = settled.pushed;
            refused = settled.refused;
        }
        let body = self.body();
        self.settled = Some(body);
        let mut report = match self.settings.mode {
            Mode::Fly => {
                self.walk.reset();
                let mut rider = Rider {
                    eye: body.eye_of(centre),
                    look: self.pose.forward(),
                    using: intent.using,
                    ..Rider::at(body, centre)
                };
                ticking.pass(dt, &mut rider);
                self.pose.turn(rider.turned_deg, 0.0);
                let world = ticking.collider();
                let d = self.wanted_move(intent, dt);
                let out = resolve_move(world, &self.settings.move_rules(body), rider.centre, d);
                self.pose.position = body.eye_of(out.end);
                StepReport {
                    hit: out.hit,
                    wanted: d.length(),
                    contact: out.contacts().next().copied(),
                    ..StepReport::default()
                }
            }
            Mode::Walk => self.walk_step(ticking, body, centre, intent, dt),
        };
        report.pushed_out = pushed_out;
        report.refused = refused;
        report.hit |= pushed_out;
        let travelled = self.pose.position - start;
        report.moved = travelled.length();
        // Falling, riding or pushed while held head-on, the body still moves; only the
        // part the walk asked for says whether it slid.
        report.moved_across = match self.settings.mode {
            Mode::Walk => Vec3::new(travelled.x, 0.0, travelled.z).length(),
            Mode::Fly => report.moved,
        };
        // The drawn eye eases toward the physical one.
        let s = self.settings.walk.view_smoothing;
        self.view_lag *= if s > 0.0 { (-dt / s).exp() } else { 0.0 };
        report
    }

    /// Place the body of the current mode around the eye, which is known to be free (the
    /// flying sphere's centre, the spawn, the walker's eye): where it fits without crossing
    /// a triangle from the eye (see [`crate::collision::placement`]). Walking, a body that
    /// does not stand there is tried crouched; one that fits neither way stays (or goes)
    /// flying, and the report says why. A flying eye jammed where even the skin's sphere
    /// does not fit is pushed out as far as it goes.
    fn settle(&mut self, world: &dyn Collider) -> Settled {
        let eye = self.pose.position;
        let method = self.settings.method;
        let fits = |body: Body| place(world, &Probe::new(body, method), eye, body.centre_of(eye));
        if self.settings.mode == Mode::Walk {
            let ws = self.settings.walk;
            let standing = if self.walk.crouched {
                None
            } else {
                fits(ws.standing())
            };
            if let Some(p) = standing {
                return Settled::at(p);
            }
            if let Some(p) = fits(ws.crouched()) {
                self.walk.crouched = true;
                return Settled::at(p);
            }
            self.settings.mode = Mode::Fly;
            self.walk_refused = true;
            self.walk.reset();
            let mut settled = self.settle(world);
            settled.refused = Some(Refusal::NoRoomToWalk);
            return settled;
        }
        let body = self.body();
        match fits(body) {
            Some(p) => Settled::at(p),
            None => {
                // Pushed out from the eye's own side of any surface it is on (pushed
                // from a wall's plane, it went out of the room).
                let anchor = free_anchor(world, &Probe::new(body, method), eye);
                let out = push_out(world, &body, body.centre_of(anchor));
                Settled {
                    centre: out.centre,
                    pushed: out.pushed,
                    refused: None,
                }
            }
        }
    }

    fn walk_step(
        &mut self,
        world: &mut dyn Ticking,
        body: Body,
        centre: Vec3,
        intent: &MoveIntent,
        dt: f32,
    ) -> StepReport {
        // A game level in its engine's units climbs its player's step (see
        // [`Ticking::step_height`]).
        let ws = match world.step_height() {
            Some(max_step) => WalkSettings {
                max_step,
                ..self.settings.walk
            },
            None => self.settings.walk,
        };
        let crouch_factor = if self.walk.crouched {
            ws.crouch_speed_factor
        } else {
            1.0
        };
        let velocity = self.wanted_move(intent, 1.0) * crouch_factor;
        let walk_intent = WalkIntent {
            velocity,
            jump: intent.jump,
            crouch: intent.crouch,
            using: intent.using,
            look: self.pose.forward(),
            swim: intent.vertical,
        };
        let mut feet = body.feet_of(centre);
        let rules = self.settings.move_rules(body);
        let r = self.walk.advance(
            world,
            &ws,
            &rules,
            &mut feet,
            &walk_intent,
            dt,
            &mut self.memo,
        );
        self.pose.turn(r.turned_deg, 0.0);
        let now = self.walk.body(&ws);
        self.pose.position = now.eye_of(feet + Vec3::Y * now.radii.y);
        // Step-ups, step-downs and posture changes are eased in the view, not in the
        // physics.
        let eye_jump = r.stepped_up - r.stepped_down + (now.eye_above_centre + now.radii.y)
            - (body.eye_above_centre + body.radii.y);
        self.view_lag -= eye_jump;
        if self.settled == Some(body) {
            self.settled = Some(now);
        }
        StepReport {
            hit: r.hit,
            wanted: (velocity * dt).length(),
            contact: r.contact,
            stepped_up: r.stepped_up,
            ..StepReport::default()
        }
    }
}

/// The direction `intent` asks for from `pose` in `mode`, at most unit length (a diagonal
/// is no faster than straight on; a half-pressed stick moves at half speed): walking in
/// the horizontal plane along the heading, flying along the view with up and down
/// straight up and down. The walker and the detached camera both steer by it.
pub fn intent_direction(pose: &Pose, intent: &MoveIntent, mode: Mode) -> Vec3 {
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
    let dir = match mode {
        Mode::Walk => pose.forward_flat() * f + pose.right() * s,
        Mode::Fly => pose.forward() * f + pose.right() * s + Vec3::Y * v,
    };
    if dir.length_squared() > 1.0 {
        dir.normalize()
    } else {
        dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::names::Named;

    #[test]
    fn walking_ignores_pitch_and_vertical() {
        let mut c = Controller::new(
            Pose::new(Vec3::ZERO, 0.0, 60.0),
            ControllerSettings::default(),
        );
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
        let c = Controller::new(Pose::default(), ControllerSettings::default());
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
        let c = Controller::new(Pose::default(), ControllerSettings::default());
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
        let c = Controller::new(Pose::default(), ControllerSettings::default());
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
        let settings = ControllerSettings {
            mode: Mode::Fly,
            ..ControllerSettings::default()
        };
        let mut c = Controller::new(Pose::default(), settings);
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
            assert_eq!(m.next().next(), m);
        }
        assert!("swim".parse::<Mode>().is_err());
    }
}
