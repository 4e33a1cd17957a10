//! One tick of a moving world: the movers take their next pose, then the body is carried
//! by what it stands on and pushed by what comes at it, or what cannot move it is sent
//! back (after Quake III's `G_MoverPush`, `g_mover.c`).
//!
//! For a mover going from `M0` to `M1` this tick, `R = M1 M0^-1` is its motion. A body at
//! `c`:
//!
//! - **carried** (it stands on the mover): goes where the mover takes that point, `R c`,
//!   swept there against everything but the mover (which moves with it) and sliding, and
//!   turns by the mover's turn about the vertical. Quake III keeps none of a mover's speed
//!   when the body steps off, and neither do we: the walk's velocity is its own, so a
//!   step off a platform is a step, and a jump from a rising lift is a jump.
//! - **pushed** (the mover comes at it): seen from the mover, the body went from `R c`
//!   (where it was on the mover's old pose) to `c`; the body is swept along that path
//!   against the mover at `M1`, and where it first touches is where the mover's surface
//!   leaves it: it is swept there from `c` against everything else, sliding.
//!
//! The carries and pushes of the movers that touch the body are chained (each from where
//! the one before left it, against that mover alone), and the body is swept once from
//! where the tick found it to where they left it, sliding, against everything but the
//! movers that moved it: one sweep through the world a round, however many movers are
//! piled on the body (one sweep each, through all the others, made a pile of N movers
//! cost N^2 a round).
//!
//! Then nothing may be inside the body. Every mover whose triangles are (the body was
//! wedged against a wall or a ceiling and could not give way) is **blocked**: it goes
//! back to `M0` for this tick (see `MoverState::block`) and the body's carries and pushes
//! are made again without them. After [`MAX_PUSH_ROUNDS`] rounds every mover still
//! touching the body goes back and the body stays where the tick found it (Quake III's
//! rule: a pusher that cannot move what it touches goes back), so a tick costs a few
//! rounds, not one per mover; the poses left are ones the body fits between.

use glam::{Affine3A, Vec3};

use crate::geometry::Aabb;

use super::clock::{Clock, Movers};
use super::{Rider, Ticking};
use crate::collision::{
    Body, Collider, InstancedWorld, MoveRules, PlacementPose, Probe, Response, Which, overlap,
    resolve_move,
};
use crate::map::motion::Start;

/// How far the use key reaches from the eye along the view, metres (Quake III's use is
/// 64 units, 1.6 m; a door at arm's length plus a step).
pub const USE_REACH: f32 = 2.0;

/// How near a mover's hull must come to the body's reach to follow its clock, metres:
/// farther, only its clock runs and its placement waits where it was (a hundred movers
/// about a map cost a walking step little more than a still map's). Nothing the walk asks
/// of the world reaches that far in a tick (a fall at 57 m/s moves 0.24 m, a push at
/// 50 m/s 0.21 m); the third person's boom (6 m at most) neither. Drawing follows the
/// clocks, asleep or not.
pub const AWAKE_DISTANCE: f32 = 6.5;

/// Slack added to the body's reach when choosing the movers that may touch it, metres.
const REACH_SLACK: f32 = 0.05;

/// Most rounds of carries and pushes a tick makes (see the module's notes): each blocks
/// every mover the body is inside at its end; the last sends back every mover that still
/// touches the body. A wedged body blocks its pushers in the first round, and a second
/// finds them gone; a third is for a push that sent the body into another mover.
pub const MAX_PUSH_ROUNDS: usize = 3;

/// What one tick did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PassReport {
    /// Awake movers that moved (a waking mover's jump to its clock's pose is not
    /// counted).
    pub moved: usize,
    /// Movers blocked by the body and sent back.
    pub blocked: usize,
    /// The body was carried by the mover it stands on.
    pub carried: bool,
    /// The body was pushed.
    pub pushed: bool,
    /// Rounds of carries and pushes made (see [`MAX_PUSH_ROUNDS`]); 0 when no awake
    /// mover moved.
    pub rounds: usize,
}

/// A mover that moved this tick: where it was and where it is.
#[derive(Clone, Copy, Debug)]
struct Moving {
    /// Index in [`Movers::list`].
    mover: usize,
    instance: usize,
    before: Affine3A,
    after: Affine3A,
    clock: Clock,
}

/// Where the body ends after the carries and pushes of one round.
enum Round {
    /// It fits: its new centre and turn.
    Clear {
        centre: Vec3,
        turned_deg: f32,
        carried: bool,
        pushed: bool,
    },
    /// These movers (indices into the round's motions, ascending) cannot move with the
    /// body in their way.
    Blocked(Vec<usize>),
}

/// Let `dt` seconds pass in `placed` for `movers`, carrying and pushing `rider`.
pub fn pass(
    placed: &mut InstancedWorld,
    movers: &mut Movers,
    dt: f32,
    rider: &mut Rider,
) -> PassReport {
    start_movers(placed, movers, rider);
    let mut motions: Vec<Moving> = Vec::new();
    let mut poses = Vec::new();
    let near = rider.body.reach() + Vec3::splat(AWAKE_DISTANCE);
    let around = Aabb {
        min: rider.centre - near,
        max: rider.centre + near,
    };
    for (k, m) in movers.list.iter_mut().enumerate() {
        let clock = m.clock;
        m.clock = clock.after(&m.motion, f64::from(dt));
        if !m.hull.overlaps(&around) {
            // Asleep: nothing near can meet it this tick; only its clock runs (its
            // placement, far off in memory among the scene's, is not even looked at).
            m.awake = false;
            continue;
        }
        let Some(inst) = placed.instances().get(m.instance) else {
            continue;
        };
        let before = inst.to_world;
        let after = m.matrix();
        if after == before {
            continue;
        }
        poses.push(PlacementPose {
            instance: m.instance,
            to_world: after,
        });
        if !std::mem::replace(&mut m.awake, true) {
            // Waking: it was far from the body, so it goes where its clock says at once,
            // touching nothing.
            continue;
        }
        motions.push(Moving {
            mover: k,
            instance: m.instance,
            before,
            after,
            clock,
        });
    }
    let mut report = PassReport {
        moved: placed.move_placements(&poses).moved,
        ..PassReport::default()
    };
    report.moved = report.moved.min(motions.len());
    if motions.is_empty() {
        return report;
    }
    for n in 1.. {
        report.rounds = n;
        match round(placed, &motions, rider, n >= MAX_PUSH_ROUNDS) {
            Round::Clear {
                centre,
                turned_deg,
                carried,
                pushed,
            } => {
                rider.centre = centre;
                rider.turned_deg += turned_deg;
                report.carried = carried;
                report.pushed = pushed;
                return report;
            }
            Round::Blocked(ks) => {
                // From the last: a swap_remove moves only a later motion into its place.
                let back: Vec<PlacementPose> = ks
                    .iter()
                    .rev()
                    .map(|&k| {
                        let m = motions.swap_remove(k);
                        movers.list[m.mover].block(m.clock);
                        PlacementPose {
                            instance: m.instance,
                            to_world: m.before,
                        }
                    })
                    .collect();
                placed.move_placements(&back);
                report.moved = report.moved.saturating_sub(back.len());
                report.blocked += back.len();
            }
        }
    }
    report
}

/// Start the movers the rider's coming near or use key starts (and those that start with
/// the scene).
fn start_movers(placed: &InstancedWorld, movers: &mut Movers, rider: &Rider) {
    if movers.all_started && !rider.using {
        return;
    }
    let used = rider.using.then(|| looked_at(placed, rider)).flatten();
    let mut all_started = true;
    for m in &mut movers.list {
        if used == Some(m.instance) {
            m.used();
        }
        if m.clock.started {
            continue;
        }
        m.clock.started = match m.motion.start {
            Start::Always => true,
            Start::Near(radius) => placed
                .instances()
                .get(m.instance)
                .is_some_and(|i| i.bounds.distance_squared_to(rider.eye) <= radius * radius),
            Start::Use => false,
        };
        all_started &= m.clock.started;
    }
    movers.all_started = all_started;
}

/// The placement the eye looks at within [`USE_REACH`]: the first a small sphere swept
/// along the view meets.
fn looked_at(placed: &InstancedWorld, rider: &Rider) -> Option<usize> {
    let look = rider.look.normalize_or_zero();
    let probe = Probe::new(Body::FLYER, Default::default());
    let hit = placed.sweep(&probe, rider.eye, look * USE_REACH)?;
    placed.instance_of(hit.triangle)
}

/// What the use key meets from the eye at `eye` looking along `look` (what the window
/// says when it is pressed: a door that opens on use looks like a wall, and one too far
/// looks like one that does not open).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseTarget {
    /// A mover that starts on use (index in [`Movers::list`]).
    Mover(usize),
    /// Such movers there are, but none looked at within [`USE_REACH`].
    OutOfReach,
    /// Nothing here starts on use.
    NoneInMap,
}

/// What the use key pressed now would meet (the same look as the tick's, see
/// [`looked_at`]).
pub fn use_target(placed: &InstancedWorld, movers: &Movers, eye: Vec3, look: Vec3) -> UseTarget {
    let usable = |m: &&crate::movers::MoverState| m.motion.start == Start::Use;
    if !movers.list.iter().any(|m| usable(&m)) {
        return UseTarget::NoneInMap;
    }
    let rider = Rider {
        eye,
        look,
        ..Rider::at(Body::FLYER, eye)
    };
    let at = looked_at(placed, &rider);
    match movers
        .list
        .iter()
        .position(|m| usable(&m) && Some(m.instance) == at)
    {
        Some(k) => UseTarget::Mover(k),
        None => UseTarget::OutOfReach,
    }
}

/// The carries and pushes of every mover in `motions`, from the rider's centre at the
/// tick's start (see the module's notes). With `give_way`, every mover that touches the
/// body is blocked at once.
fn round(placed: &InstancedWorld, motions: &[Moving], rider: &Rider, give_way: bool) -> Round {
    let body = rider.body;
    let slide = MoveRules::new(body, Response::Slide);
    let probe = slide.probe;
    let riding = rider.standing_on.and_then(|t| placed.instance_of(t));
    let start = rider.centre;
    let mut to = start;
    let (mut turned_deg, mut carried, mut pushed) = (0.0, false, false);
    // The motions near the body, and the placements of those that moved it.
    let (mut touching, mut movers) = (Vec::new(), Vec::new());
    let reach = body.reach() + Vec3::splat(REACH_SLACK);
    for (k, m) in motions.iter().enumerate() {
        let near = |b: &Aabb| b.distance_squared_to(to) <= reach.length_squared();
        let inst = &placed.instances()[m.instance];
        if riding != Some(m.instance) && !near(&inst.bounds) && !near(&inst_before(m, inst)) {
            continue; // too far to touch the body, before or after its move
        }
        touching.push(k);
        let moved_by = m.after * m.before.inverse();
        let on_it = moved_by.transform_point3(to);
        let alone = placed.only(Which::One(m.instance));
        if riding == Some(m.instance) {
            to = lifted_out(&alone, &probe, on_it);
            turned_deg += turn_about_vertical(&moved_by);
            carried = true;
            movers.push(m.instance);
        } else if let Some(hit) = alone.sweep(&probe, on_it, to - on_it) {
            to = on_it + (to - on_it) * hit.t as f32;
            pushed = true;
            movers.push(m.instance);
        }
    }
    if give_way && !touching.is_empty() {
        return Round::Blocked(touching);
    }
    let c = match movers.as_slice() {
        [] => start,
        [one] => resolve_move(&placed.only(Which::AllBut(*one)), &slide, start, to - start).end,
        _ => {
            movers.sort_unstable();
            let others = placed.only(Which::AllButThese(&movers));
            resolve_move(&others, &slide, start, to - start).end
        }
    };
    let mut blocked: Vec<usize> = touching
        .iter()
        .copied()
        .filter(|&k| overlap(&placed.only(Which::One(motions[k].instance)), &body, c).is_some())
        .collect();
    // A push may have sent the body into a mover that did not touch it before.
    if blocked.is_empty()
        && !touching.is_empty()
        && let Some(inside) = overlap(placed, &body, c)
        && let Some(at) = placed.instance_of(inside.triangle)
        && let Some(k) = motions.iter().position(|m| m.instance == at)
    {
        blocked.push(k);
    }
    if !blocked.is_empty() {
        return Round::Blocked(blocked);
    }
    Round::Clear {
        centre: c,
        turned_deg,
        carried,
        pushed,
    }
}

/// The rider's centre carried to `at` by a mover that turns about a level axis (a
/// see-saw coming back toward level) can lie inside it: the body stays upright, and an
/// upright ellipsoid needs more room over a level surface than over a tilted one, while
/// the turn keeps its centre's distance from the surface. Lifted out: the body let down
/// onto the mover from above `at` (Quake III's `G_MoverPush` moves a rider with its
/// pusher, then tests that it is clear). `at` itself where it is clear, or where even
/// from above the body is inside the mover (then the mover is blocked, as before).
fn lifted_out(mover: &dyn Collider, probe: &Probe, at: Vec3) -> Vec3 {
    let body = &probe.body;
    if overlap(mover, body, at).is_none() {
        return at;
    }
    let lift = Vec3::Y * body.radii.y;
    let above = at + lift;
    if overlap(mover, body, above).is_some() {
        return at;
    }
    // Only onto what faces up (the platform's top): a rail or an edge met from the side
    // is no place to set a rider down on.
    match mover.sweep(probe, above, -lift) {
        Some(hit) if hit.normal.y > 0.0 => above - lift * hit.t as f32,
        _ => at,
    }
}

/// The world box of a mover's placement before this tick's move: its box now, carried
/// back by the move (a box of the moved box's corners: it holds the old box).
fn inst_before(m: &Moving, inst: &crate::collision::Instance) -> Aabb {
    let back = m.before * m.after.inverse();
    Aabb::from_points(inst.bounds.corners().map(|c| back.transform_point3(c)))
}

/// Degrees a transform turns a heading by, about the vertical (+Y; counter-clockwise seen
/// from above, as the yaw grows): how its linear part turns the view's forward, -Z. A turn
/// that stands the forward on end turns no heading.
fn turn_about_vertical(m: &Affine3A) -> f32 {
    let f = m.transform_vector3(Vec3::NEG_Z);
    let flat = Vec3::new(f.x, 0.0, f.z);
    if flat.length_squared() < 1e-12 {
        return 0.0;
    }
    (-f.x).atan2(-f.z).to_degrees()
}

/// Placements some of which move: what a scene with motion is walked in, its ticks
/// passed by [`pass`].
pub struct MovingWorld<'a> {
    /// The placements, the movers at their current matrices.
    pub placed: &'a mut InstancedWorld,
    /// The movers' clocks.
    pub movers: &'a mut Movers,
}

impl MovingWorld<'_> {
    /// One tick, with its report (see [`pass`]).
    pub fn pass_report(&mut self, dt: f32, rider: &mut Rider) -> PassReport {
        pass(self.placed, self.movers, dt, rider)
    }
}

impl Ticking for MovingWorld<'_> {
    fn collider(&self) -> &dyn Collider {
        self.placed
    }

    fn pass(&mut self, dt: f32, rider: &mut Rider) {
        self.pass_report(dt, rider);
    }

    fn placement_of(&self, triangle: u32) -> Option<usize> {
        self.placed.instance_of(triangle)
    }

    fn moves(&self) -> bool {
        true
    }
    /// Water comes with the session's world (see [`super::World`]), not with its parts.
    fn water(&self) -> &[crate::geometry::Aabb] {
        &[]
    }

    /// As water, the map's step comes with the session's world.
    fn step_height(&self) -> Option<f32> {
        None
    }
}

impl Movers {
    /// The world `placed` with these movers in it, for ticks to pass in.
    pub fn world<'a>(&'a mut self, placed: &'a mut InstancedWorld) -> MovingWorld<'a> {
        MovingWorld {
            placed,
            movers: self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_about_the_vertical_turns_the_heading_by_as_much() {
        for deg in [0.0f32, 10.0, -35.0, 90.0, 179.0] {
            let m = Affine3A::from_rotation_y(deg.to_radians());
            assert!((turn_about_vertical(&m) - deg).abs() < 1e-3, "{deg}");
        }
        let tilt = Affine3A::from_rotation_x(std::f32::consts::FRAC_PI_2);
        assert_eq!(turn_about_vertical(&tilt), 0.0);
    }

    #[test]
    fn clocks_hold_wrap_and_reflect() {
        use crate::map::motion::{Ease, Key, Motion, Play, Start};
        let motion = |play| Motion {
            keys: vec![
                Key {
                    t: 0.0,
                    position: Vec3::ZERO,
                    rotation: Vec3::ZERO,
                },
                Key {
                    t: 2.0,
                    position: Vec3::X,
                    rotation: Vec3::ZERO,
                },
            ],
            play,
            start: Start::Always,
            ease: Ease::Linear,
        };
        let c = Clock {
            started: true,
            elapsed: 1.5,
            direction: 1.0,
        };
        assert_eq!(c.after(&motion(Play::Once), 1.0).elapsed, 2.0);
        assert_eq!(c.after(&motion(Play::Loop), 1.0).elapsed, 0.5);
        assert_eq!(c.after(&motion(Play::PingPong), 1.0).elapsed, 2.5);
        let back = Clock {
            direction: -1.0,
            elapsed: 0.5,
            ..c
        };
        assert_eq!(back.after(&motion(Play::PingPong), 1.0).elapsed, 3.5);
        let idle = Clock::default();
        assert_eq!(idle.after(&motion(Play::Loop), 1.0), idle);
    }
}
