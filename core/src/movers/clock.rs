//! Each mover's place in its motion, what starts it, and the box it never leaves.

use glam::{Affine3A, Vec3};

use crate::collision::{InstancedWorld, MoverHull};
use crate::geometry::Aabb;
use crate::map::motion::{Motion, Play, Start, placement_matrix};
use crate::map::scene::Mover;

/// Where a mover is in its motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Started (by the scene's start, the walker coming near, or the use key).
    pub started: bool,
    /// Seconds of motion played (kept within one period for `Loop` and `PingPong`, within
    /// the keys for `Once`). In `f64`, summed tick by tick: the same ticks give the same
    /// sum in `sim` and in the window.
    pub elapsed: f64,
    /// +1 playing forward, -1 backward (a blocked ping-pong reverses; a used door that has
    /// opened closes).
    pub direction: f64,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            started: false,
            elapsed: 0.0,
            direction: 1.0,
        }
    }
}

impl Clock {
    /// The clock `dt` seconds on in `motion` (unchanged when not started).
    pub fn after(&self, motion: &Motion, dt: f64) -> Clock {
        if !self.started {
            return *self;
        }
        let d = f64::from(motion.duration());
        let e = self.elapsed + self.direction * dt;
        let elapsed = match motion.play {
            _ if d <= 0.0 => 0.0,
            Play::Once => e.clamp(0.0, d),
            Play::Loop => wrap(e, d),
            Play::PingPong => wrap(e, 2.0 * d),
        };
        Clock { elapsed, ..*self }
    }

    /// A `Once` motion at the end it was playing toward.
    fn finished(&self, motion: &Motion) -> bool {
        let d = f64::from(motion.duration());
        motion.play == Play::Once
            && ((self.direction > 0.0 && self.elapsed >= d)
                || (self.direction < 0.0 && self.elapsed <= 0.0))
    }
}

/// `e` brought into `[0, period)`: a tick is short beside a period, so this is one
/// subtraction or addition (`rem_euclid`'s division, called a hundred times a tick, cost
/// more than the rest of a mover's tick).
fn wrap(e: f64, period: f64) -> f64 {
    if (0.0..period).contains(&e) {
        e
    } else if (period..2.0 * period).contains(&e) {
        e - period
    } else if (-period..0.0).contains(&e) {
        e + period
    } else {
        e.rem_euclid(period)
    }
}

/// One moving placement and its clock.
#[derive(Clone, Debug, PartialEq)]
pub struct MoverState {
    /// The placement it moves ([`InstancedWorld::instances`] index, scene order).
    pub instance: usize,
    /// Its motion.
    pub motion: Motion,
    /// Its placement's scale.
    pub scale: Vec3,
    /// Where it is in the motion.
    pub clock: Clock,
    /// Ticks it was blocked by a body it could not move (for the HUD and tests).
    pub blocked: u64,
    /// The world box it never leaves, whatever its pose (see [`hull`]).
    pub hull: Aabb,
    /// Its placement follows its clock (the body is near its hull); asleep, only the
    /// clock runs (see [`super::push`]).
    pub awake: bool,
    /// The linear part of every pose, for a motion that never turns (most: doors, lifts,
    /// platforms); `None` for one that turns.
    linear: Option<glam::Mat3A>,
}

impl MoverState {
    /// Its model-to-world matrix at its clock.
    pub fn matrix(&self) -> Affine3A {
        match self.linear {
            // The same numbers `matrix_at` makes, without turning the same angles again.
            Some(linear) => Affine3A {
                matrix3: linear,
                translation: self.motion.pose_at(self.clock.elapsed).position.into(),
            },
            None => self.motion.matrix_at(self.clock.elapsed, self.scale),
        }
    }

    /// Blocked at this tick: it goes back to where it was (`before`); a ping-pong turns
    /// round (Quake III's doors reverse), the others wait for the way to clear (its
    /// platforms wait).
    pub(super) fn block(&mut self, before: Clock) {
        self.clock = before;
        if self.motion.play == Play::PingPong {
            self.clock.direction = -before.direction;
        }
        self.blocked += 1;
    }

    /// The use key, looking at it: a mover that waits for it starts; a door that has
    /// opened (a `Once` motion at its end) goes back.
    pub(super) fn used(&mut self) {
        if self.motion.start != Start::Use {
            return;
        }
        if !self.clock.started {
            self.clock.started = true;
        } else if self.clock.finished(&self.motion) {
            self.clock.direction = -self.clock.direction;
        }
    }
}

/// Slack added around a mover's hull, metres: the hull is made of the keys and the
/// model's box, and a pose's box is made of the same numbers rounded another way.
pub const HULL_SLACK: f32 = 1e-3;

/// The world box a model of bounds `model` (in its own space), at `scale`, never leaves
/// along `motion`: positions are interpolated between keys, so they stay in the keys'
/// box; a motion that never turns keeps the model's box as its first key turns it, one
/// that turns keeps it within its farthest corner's distance from its origin.
pub fn hull(motion: &Motion, scale: Vec3, model: Aabb) -> Aabb {
    let Some(first) = motion.keys.first() else {
        return Aabb::EMPTY;
    };
    let positions = Aabb::from_points(motion.keys.iter().map(|k| k.position));
    let corners = model.corners();
    let turns = motion.keys.iter().any(|k| k.rotation != first.rotation);
    let around = if turns {
        let r = corners
            .iter()
            .map(|&c| (c * scale).length())
            .fold(0.0, f32::max);
        Aabb {
            min: Vec3::splat(-r),
            max: Vec3::splat(r),
        }
    } else {
        let linear = placement_matrix(Vec3::ZERO, first.rotation, scale);
        Aabb::from_points(corners.map(|c| linear.transform_point3(c)))
    };
    Aabb {
        min: positions.min + around.min,
        max: positions.max + around.max,
    }
    .inflated(HULL_SLACK)
}

/// The linear part (turn and scale) every pose of `motion` shares, when it never turns.
fn fixed_linear(motion: &Motion, scale: Vec3) -> Option<glam::Mat3A> {
    let first = motion.keys.first()?;
    let turns = motion.keys.iter().any(|k| k.rotation != first.rotation);
    (!turns).then(|| placement_matrix(Vec3::ZERO, first.rotation, scale).matrix3)
}

/// A scene's movers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Movers {
    /// Each mover, in scene order.
    pub list: Vec<MoverState>,
    /// Every mover has started (none waits to be come near or used): a tick need not
    /// look for what starts them.
    pub(super) all_started: bool,
}

impl Movers {
    /// The scene's movers in `placed`, each at its first key and not started (those that
    /// start with the scene start at the first tick); `placed` is told which placements
    /// move and their hulls. Movers of no placement are left out.
    pub fn new(movers: &[Mover], placed: &mut InstancedWorld) -> Movers {
        let list: Vec<MoverState> = movers
            .iter()
            .filter_map(|m| {
                let inst = placed.instances().get(m.instance)?;
                let model = placed.models().get(inst.model)?.bounds();
                Some(MoverState {
                    instance: m.instance,
                    motion: m.motion.clone(),
                    scale: m.scale,
                    clock: Clock::default(),
                    blocked: 0,
                    hull: hull(&m.motion, m.scale, model),
                    awake: true,
                    linear: fixed_linear(&m.motion, m.scale),
                })
            })
            .collect();
        let hulls: Vec<MoverHull> = list
            .iter()
            .map(|m| MoverHull {
                instance: m.instance,
                hull: m.hull,
            })
            .collect();
        placed.set_moving(&hulls);
        Movers {
            list,
            all_started: false,
        }
    }

    /// Every clock was put back (see [`crate::session::Session::restart_movers`]): what
    /// starts them is looked for again.
    pub fn restarted(&mut self) {
        self.all_started = false;
    }

    /// No movers.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The mover of placement `instance`.
    pub fn of_instance(&self, instance: usize) -> Option<&MoverState> {
        self.list.iter().find(|m| m.instance == instance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::motion::{Ease, Key};

    /// Every pose along a motion keeps the model's box within the hull, turning or not.
    #[test]
    fn every_pose_of_a_motion_lies_in_its_hull() {
        let model = Aabb {
            min: Vec3::new(-0.5, 0.0, -2.0),
            max: Vec3::new(1.5, 3.0, 0.25),
        };
        let key = |t: f32, p: [f32; 3], r: [f32; 3]| Key {
            t,
            position: Vec3::from(p),
            rotation: Vec3::from(r),
        };
        for keys in [
            vec![
                key(0.0, [0.0, 0.0, 0.0], [0.0, 30.0, 0.0]),
                key(2.0, [4.0, 1.0, -3.0], [0.0, 30.0, 0.0]),
            ],
            vec![
                key(0.0, [1.0, 2.0, 3.0], [0.0, 0.0, 0.0]),
                key(1.0, [1.0, 2.0, 3.0], [10.0, 360.0, -45.0]),
                key(3.0, [-2.0, 0.0, 1.0], [0.0, 90.0, 0.0]),
            ],
        ] {
            let motion = Motion {
                keys,
                play: Play::Once,
                start: Start::Always,
                ease: Ease::Smooth,
            };
            let scale = Vec3::new(1.0, 2.0, 0.5);
            let h = hull(&motion, scale, model);
            for i in 0..=300 {
                let m = motion.matrix_at(f64::from(motion.duration()) * i as f64 / 300.0, scale);
                for p in model.corners() {
                    let w = m.transform_point3(p);
                    assert!(h.contains(w), "pose {i}: corner {w} outside {h:?}");
                }
            }
        }
    }
}
