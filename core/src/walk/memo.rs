//! A tick that repeats one of the last two is not worked out again. In a world that does not
//! change, a walker in the very same state asking for the very same move ends where it
//! ended the last time: a person standing still, or pressed into a corner it cannot
//! leave, runs one tick over and over. On conference's furniture 150 of the 333 slowest
//! steps of a diagonal walk into conference's furniture were such a repeat, each 9 to 14 sweeps and up to
//! 1,600 triangles, and half of all its steps repeated the one before. Physics engines let
//! such bodies sleep (Box2D's `b2_timeToSleep`, Bullet's deactivation); here nothing is
//! guessed or slept through: the tick is reused only when all that it reads is as it was,
//! its moving floats and settings to the bit, so the walk is the very same walk, byte for
//! byte.
//!
//! What a tick reads: the walker's state (not the time owed, which only counts ticks),
//! where its feet are, the move, crouch and swim asked for, the settings and rules, the
//! water, and the collider, named by its [`Collider::revision`]. A world whose parts move
//! ([`Ticking::moves`]), or a collider that promises no revision (a recorder), is never
//! remembered.

use glam::Vec3;

use super::step::{WalkIntent, WalkReport};
use super::{WalkSettings, WalkState};
use crate::collision::{Contact, MoveRules};
use crate::geometry::Aabb;
use crate::movers::Ticking;

/// How many ticks are remembered. Two: the controller keeps the eye, and the feet it
/// hands the first tick of a step (from the eye) may differ in the last bit from where
/// the tick before left them, so a walker at rest repeats a pair of ticks, not one.
const REMEMBERED: usize = 2;

/// A tick that moves the feet farther than this (metres) is not remembered: it is no
/// repeat in the making. A walker at rest moves by a rounding, one walking at any speed
/// by far more (2.4 cm/s is 1e-4 m a tick at 1/240 s). Only what is remembered is cut by
/// it, never what is recalled: saving each moving tick cost the built-in walk 3%.
const AT_REST: f32 = 1e-4;

/// The last ticks worked out, to be reused when one repeats.
#[derive(Clone, Default)]
pub struct TickMemo {
    ticks: [Option<Remembered>; REMEMBERED],
    /// Where the next one goes (the older is forgotten).
    next: usize,
    /// The water they read (kept apart, so its buffer is reused).
    water: Vec<Aabb>,
}

/// A cache of work, no part of the walker's state: two walkers in one state are alike
/// whatever they remember.
impl PartialEq for TickMemo {
    fn eq(&self, _: &TickMemo) -> bool {
        true
    }
}

/// Said in a word, the same whatever it holds (a copy of the walker's own state): two
/// walkers alike print alike.
impl std::fmt::Debug for TickMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TickMemo")
    }
}

#[derive(Clone, Copy, Debug)]
struct Remembered {
    input: TickInput,
    output: TickOutput,
}

/// Everything a tick reads but the water and the world's triangles (see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct TickInput {
    // What differs from tick to tick while walking comes first: `==` compares in this
    // order and stops at the first field that differs.
    feet: Vec3,
    velocity: Vec3,
    state: WalkState,
    crouch: bool,
    swim: f32,
    revision: u64,
    settings: WalkSettings,
    rules: MoveRules,
}

impl TickInput {
    /// What the coming tick of a walker in `state` at `feet` reads, or `None` when it must
    /// be worked out: in a world whose parts move, or whose collider names no revision.
    pub(super) fn of(
        world: &dyn Ticking,
        state: &WalkState,
        feet: Vec3,
        intent: &WalkIntent,
        settings: &WalkSettings,
        rules: &MoveRules,
    ) -> Option<TickInput> {
        if world.moves() {
            return None;
        }
        Some(TickInput {
            feet,
            velocity: intent.velocity,
            state: WalkState {
                owed: 0.0,
                ..*state
            },
            crouch: intent.crouch,
            swim: intent.swim,
            revision: world.collider().revision()?,
            settings: *settings,
            rules: *rules,
        })
    }

    /// The same input: equal, and the floats that move from tick to tick and the settings
    /// equal to the bit (`==` takes -0 for 0, and a tick may tell them apart: a swim speed
    /// of -0 gives a vertical speed of -0).
    fn same(&self, other: &TickInput) -> bool {
        self == other
            && self.moving_bits() == other.moving_bits()
            && bytemuck::bytes_of(&self.settings) == bytemuck::bytes_of(&other.settings)
    }

    /// The bits of the floats that change as the walker moves.
    fn moving_bits(&self) -> [u64; 15] {
        let b = |x: f32| u64::from(x.to_bits());
        let v3 = |v: Vec3| [b(v.x), b(v.y), b(v.z)];
        let (t, point, normal) = self.state.ground.map_or((0, [0; 3], [0; 3]), |c: Contact| {
            (c.t.to_bits(), v3(c.point), v3(c.normal))
        });
        let [[px, py, pz], [nx, ny, nz], [fx, fy, fz], [vx, vy, vz]] =
            [point, normal, v3(self.feet), v3(self.velocity)];
        [
            b(self.state.vertical_speed),
            t,
            px,
            py,
            pz,
            nx,
            ny,
            nz,
            fx,
            fy,
            fz,
            vx,
            vy,
            vz,
            b(self.swim),
        ]
    }
}

/// What a tick changed.
#[derive(Clone, Copy, Debug)]
pub(super) struct TickOutput {
    /// The walker's state after it (the time owed is the caller's).
    pub(super) state: WalkState,
    pub(super) feet: Vec3,
    /// What the tick alone reported.
    pub(super) report: WalkReport,
}

impl TickMemo {
    /// The tick that reads `input` (asked for only when it may be needed): recalled when
    /// one of the last two read just that with `water`, else worked out by `work` and
    /// remembered when it left the feet where they were, give or take [`AT_REST`].
    pub(super) fn tick(
        &mut self,
        feet: Vec3,
        water: &[Aabb],
        input: impl Fn() -> Option<TickInput>,
        work: impl FnOnce() -> TickOutput,
    ) -> TickOutput {
        // Walking, no tick remembered starts where the feet are: the input is not made.
        let may_hold = self.ticks.iter().flatten().any(|t| t.input.feet == feet);
        if let Some(output) = may_hold
            .then(&input)
            .flatten()
            .and_then(|i| self.recall(&i, water))
        {
            return output;
        }
        let output = work();
        if output.feet.distance_squared(feet) <= AT_REST * AT_REST
            && let Some(input) = input()
        {
            self.keep(input, water, output);
        }
        output
    }

    /// The output of a tick worked out before that read `input` and `water`.
    fn recall(&self, input: &TickInput, water: &[Aabb]) -> Option<TickOutput> {
        if water != self.water.as_slice() {
            return None;
        }
        self.ticks
            .iter()
            .flatten()
            .find(|t| t.input.same(input))
            .map(|t| t.output)
    }

    /// Remember that the tick that read `input` and `water` gave `output`.
    fn keep(&mut self, input: TickInput, water: &[Aabb], output: TickOutput) {
        if water != self.water.as_slice() {
            self.ticks = [None; REMEMBERED];
            self.water.clear();
            self.water.extend_from_slice(water);
        }
        self.ticks[self.next] = Some(Remembered { input, output });
        self.next = (self.next + 1) % REMEMBERED;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{Account, Recorder, Response, square_wall};
    use crate::movers::Still;

    fn input(world: &dyn crate::collision::Collider, settings: &WalkSettings) -> Option<TickInput> {
        let rules = MoveRules::new(settings.standing(), Response::Slide);
        let (state, intent) = (WalkState::default(), WalkIntent::default());
        TickInput::of(&Still(world), &state, Vec3::ZERO, &intent, settings, &rules)
    }

    /// `==` takes a setting of -0 for 0, and a tick may tell them
    /// apart (a swim speed of -0 gives a vertical speed of -0).
    #[test]
    fn a_setting_of_minus_zero_is_not_taken_for_zero() {
        let world = square_wall(1.0);
        let plus = WalkSettings {
            swim_vertical_speed: 0.0,
            ..WalkSettings::default()
        };
        let minus = WalkSettings {
            swim_vertical_speed: -0.0,
            ..plus
        };
        let (a, b) = (
            input(&world, &plus).unwrap(),
            input(&world, &minus).unwrap(),
        );
        assert_eq!(a, b, "alike to ==");
        assert!(a.same(&a));
        assert!(!a.same(&b));
    }

    /// A collider that names no revision (a recorder) is never remembered.
    #[test]
    fn a_world_without_a_revision_is_not_remembered() {
        let world = square_wall(1.0);
        let mut account = Account::default();
        let settings = WalkSettings::default();
        assert!(input(&world, &settings).is_some());
        assert!(input(&Recorder::new(&world, &mut account), &settings).is_none());
    }
}
