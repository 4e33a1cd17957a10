//! Each mover's place in its motion, what starts it, and the world it moves in.

use glam::{Affine3A, Vec3};

use super::push::{PassReport, pass};
use super::{Rider, Ticking};
use crate::collision::{Collider, InstancedWorld};
use crate::map::motion::{Motion, Play, Start};
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
            Play::Loop => e.rem_euclid(d),
            Play::PingPong => e.rem_euclid(2.0 * d),
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
}

impl MoverState {
    /// Its model-to-world matrix at its clock.
    pub fn matrix(&self) -> Affine3A {
        self.motion.matrix_at(self.clock.elapsed, self.scale)
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

/// A scene's movers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Movers {
    /// Each mover, in scene order.
    pub list: Vec<MoverState>,
}

impl Movers {
    /// The scene's movers, each at its first key and not started (those that start with
    /// the scene start at the first tick).
    pub fn new(movers: &[Mover]) -> Movers {
        Movers {
            list: movers
                .iter()
                .map(|m| MoverState {
                    instance: m.instance,
                    motion: m.motion.clone(),
                    scale: m.scale,
                    clock: Clock::default(),
                    blocked: 0,
                })
                .collect(),
        }
    }

    /// No movers.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The world `placed` with these movers in it, for ticks to pass in.
    pub fn world<'a>(&'a mut self, placed: &'a mut InstancedWorld) -> MovingWorld<'a> {
        MovingWorld {
            placed,
            movers: self,
        }
    }

    /// The mover of placement `instance`.
    pub fn of_instance(&self, instance: usize) -> Option<&MoverState> {
        self.list.iter().find(|m| m.instance == instance)
    }
}

/// Placements some of which move: what a scene with motion is walked in.
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
}
