//! A world that moves: the placed models of a scene that follow their `[model.motion]`,
//! tick by tick, carrying what stands on them and pushing what is in their way, never
//! passing through a body.
//!
//! The walk asks the world to let each of its fixed ticks pass ([`Ticking::pass`]) before
//! the walker's own move in it: the movers take their pose at the tick's time (a pure
//! function of the ticks since each started, so `sim` and the window at any frame rate
//! see the same poses), then the body is carried and pushed (see [`push`]). What does not
//! move is a [`Still`] world, whose ticks change nothing.
//!
//! The design follows Quake III's movers (`g_mover.c`: `G_MoverPush` moves the pusher,
//! carries and pushes what it touches, and when something cannot be moved out of the way
//! the pusher goes back, doors reversing and platforms waiting), on our swept ellipsoid.

mod clock;
pub mod push;

pub use clock::{Clock, MoverState, Movers};
pub use push::MovingWorld;

use glam::Vec3;

use crate::collision::record::record_sweep;
use crate::collision::{Account, Body, Collider, Contact, Probe};
use crate::geometry::Aabb;

/// The body a tick carries and pushes, as the walk or the flight hands it over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rider {
    /// The body.
    pub body: Body,
    /// Its centre: moved by the tick when it is carried or pushed.
    pub centre: Vec3,
    /// The triangle it stands on (walking, on the ground): its placement carries it.
    pub standing_on: Option<u32>,
    /// The eye, for the movers that start when it comes near.
    pub eye: Vec3,
    /// Where the eye looks (unit), for the movers that start when used.
    pub look: Vec3,
    /// The use key was pressed at this tick.
    pub using: bool,
    /// Degrees the tick turned the rider (a turntable's turn about the vertical), added
    /// to its heading by the caller.
    pub turned_deg: f32,
}

impl Rider {
    /// A body at `centre` that stands on nothing, uses nothing and looks down -Z.
    pub fn at(body: Body, centre: Vec3) -> Rider {
        Rider {
            body,
            centre,
            standing_on: None,
            eye: centre,
            look: Vec3::NEG_Z,
            using: false,
            turned_deg: 0.0,
        }
    }
}

/// A world that time passes in, one fixed tick at a time.
pub trait Ticking {
    /// What a body collides with now.
    fn collider(&self) -> &dyn Collider;

    /// Let `dt` seconds pass: the movers move, and `rider` is carried and pushed out of
    /// their way (its centre and turn updated). A body that could not be moved out of a
    /// mover's way blocks that mover instead: no triangle ends the tick inside the body.
    fn pass(&mut self, dt: f32, rider: &mut Rider);

    /// The placement (scene order) triangle `triangle` belongs to, when the world is made
    /// of placements that move (the trace's `on` column); `None` otherwise.
    fn placement_of(&self, triangle: u32) -> Option<usize>;

    /// Does anything in this world move (the trace then has its `on` column)?
    fn moves(&self) -> bool;

    /// The water in this world (a scene's `[[water]]` boxes, world frame; the surface of
    /// each is its top): the walker wades and swims in it (see [`crate::walk`]), and the
    /// trace has its `water` column where there is any. No default: a world that wraps
    /// another (a recorder) must hand its water on.
    fn water(&self) -> &[Aabb];

    /// The highest step the map's own player climbs, metres, when it is not a person's:
    /// a game level read in its engine's units (Doom's 24-unit step, 0.77 m: its
    /// stairs rise 16 units, 0.51 m, and the walker's 0.45 m would meet each as a wall).
    /// `None`: the walker's own. No default, as [`Ticking::water`].
    fn step_height(&self) -> Option<f32>;
}

/// A world where nothing moves: ticks pass and change nothing.
#[derive(Clone, Copy)]
pub struct Still<'a>(pub &'a dyn Collider);

impl Ticking for Still<'_> {
    fn collider(&self) -> &dyn Collider {
        self.0
    }

    fn pass(&mut self, _dt: f32, _rider: &mut Rider) {}

    fn placement_of(&self, _triangle: u32) -> Option<usize> {
        None
    }

    fn moves(&self) -> bool {
        false
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

/// What moves in the world a session steps in: nothing, or a scene's movers.
pub enum Movement<'a> {
    /// Nothing moves.
    Still(Still<'a>),
    /// A scene's placements, some of which move.
    Moving(MovingWorld<'a>),
}

/// The world a session steps in: still or with movers, and its water.
pub struct World<'a> {
    /// What moves in it.
    pub movement: Movement<'a>,
    /// Its water boxes (empty: dry).
    pub water: &'a [Aabb],
    /// The map's own step height (see [`Ticking::step_height`]).
    pub step: Option<f32>,
}

impl Ticking for World<'_> {
    fn collider(&self) -> &dyn Collider {
        match &self.movement {
            Movement::Still(w) => w.collider(),
            Movement::Moving(w) => w.collider(),
        }
    }

    fn pass(&mut self, dt: f32, rider: &mut Rider) {
        match &mut self.movement {
            Movement::Still(w) => w.pass(dt, rider),
            Movement::Moving(w) => w.pass(dt, rider),
        }
    }

    fn placement_of(&self, triangle: u32) -> Option<usize> {
        match &self.movement {
            Movement::Still(w) => w.placement_of(triangle),
            Movement::Moving(w) => w.placement_of(triangle),
        }
    }

    fn moves(&self) -> bool {
        match &self.movement {
            Movement::Still(w) => w.moves(),
            Movement::Moving(w) => w.moves(),
        }
    }

    fn water(&self) -> &[Aabb] {
        self.water
    }

    fn step_height(&self) -> Option<f32> {
        self.step
    }
}

/// A world where things may move, whose sweeps are written into an [`Account`] as they
/// are made (the debug view's record of a step; see [`crate::collision::Recorder`] for a
/// still world). The same answers: recording changes nothing.
pub struct Recorded<'a> {
    world: &'a mut dyn Ticking,
    account: std::cell::RefCell<&'a mut Account>,
}

impl<'a> Recorded<'a> {
    /// Record into `account` (cleared first) what is asked of `world`.
    pub fn new(world: &'a mut dyn Ticking, account: &'a mut Account) -> Recorded<'a> {
        account.clear();
        Recorded {
            world,
            account: std::cell::RefCell::new(account),
        }
    }
}

impl Collider for Recorded<'_> {
    fn sweep_seen(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        seen: Option<&mut Vec<u32>>,
    ) -> Option<Contact> {
        let inner = self.world.collider();
        record_sweep(
            inner,
            &mut self.account.borrow_mut(),
            probe,
            centre,
            delta,
            seen,
        )
    }

    fn triangle(&self, index: u32) -> Option<[Vec3; 3]> {
        self.world.collider().triangle(index)
    }

    fn nearest_overlap(&self, body: &Body, centre: Vec3) -> Option<Contact> {
        self.world.collider().nearest_overlap(body, centre)
    }
}

impl Ticking for Recorded<'_> {
    fn collider(&self) -> &dyn Collider {
        self
    }

    fn pass(&mut self, dt: f32, rider: &mut Rider) {
        self.world.pass(dt, rider);
    }

    fn placement_of(&self, triangle: u32) -> Option<usize> {
        self.world.placement_of(triangle)
    }

    fn moves(&self) -> bool {
        self.world.moves()
    }

    fn water(&self) -> &[Aabb] {
        self.world.water()
    }

    fn step_height(&self) -> Option<f32> {
        self.world.step_height()
    }
}
