//! One walking step: the person's phases after Quake III's `PmoveSingle` and
//! `PM_StepSlideMove` (id Software, 1999), on the swept ellipsoid.
//!
//! An outer step of any length is cut into whole internal ticks (the remainder carried
//! over), and each tick runs the phases in order:
//!
//! 1. **Crouch** or stand up (only when the standing body has room above).
//! 2. **Jump**, from the ground only.
//! 3. **Step-slide** the horizontal move: slide it (steep contacts are walls); if that was
//!    blocked while on the ground, try it again raised by the step height and lowered
//!    back, and keep that when it went farther and landed on ground.
//! 4. **Vertical**: on the ground and not rising, follow the floor down by up to the step
//!    height (or leave the ground when there is none; a step-up's landing that the
//!    floor's rule holds is that floor already); else fall, with the exact
//!    free-fall integral over the tick (`y += v dt - g dt^2 / 2`), landing on ground.
//!
//! In water (see [`super::water`]) the horizontal speed is cut (wading, swimming), a
//! swimmer does not crouch (C swims down) and does not fall: phase 4 swims instead, and a
//! swimmer blocked at an edge it can pass over climbs out (phase 3).

use glam::Vec3;

use super::memo::{TickInput, TickMemo, TickOutput};
use super::water::{WaterLevel, can_climb_out, immersion, swim_speed, swim_vertical};
use super::{WalkSettings, WalkState};
use crate::collision::{
    Body, Collider, Contact, Feature, MoveRules, Response, Swept, place, resolve_move,
    resolve_move_swept,
};
use crate::geometry::Aabb;
use crate::movers::{Rider, Ticking};

/// Fraction of a tick by which time owed may fall short and still count as a whole tick.
const TICK_SLACK: f64 = 1e-3;

/// A step-up is kept only when it goes farther across than the plain move by more than
/// this (metres): the same move to a rounding is no reason to climb.
const STEP_GAIN: f32 = 1e-5;

/// A floor's follow that drops the body more than this in one tick (metres) is a step
/// down, eased in the view (see [`WalkReport::stepped_down`]): a slope walked down at a
/// run (7.5 m/s down 45 degrees) drops 2.2 cm a tick.
pub const STEP_DOWN_EASED: f32 = 0.05;

/// The farthest a floor's follow may slide the body aside down a steep face, metres.
/// Pressed into the foot of a ramp of 46 to 75 degrees the slide is under a tenth of a
/// millimetre (the contact gap); jumps stopped that way rose 8 and 27 cm.
const FOLLOW_ASIDE: f32 = 0.02;

/// A contact whose normal faces up by no more than this (the cosine of its slope: 84
/// degrees) is a wall, not a slope the walker is on (see [`WalkState::on_steep_slope`]).
const SLOPE_MIN_UP: f32 = 0.1;

/// A blocked fall that drops less than this fraction of the free fall is the walker held
/// in place ([`WalkState::wedged`]); sliding down any slope steeper than 45 degrees drops
/// more than half.
const WEDGED_FALL: f32 = 0.5;

/// What the walker asks for during one outer step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkIntent {
    /// Horizontal velocity wanted, world units per second.
    pub velocity: Vec3,
    /// Jump at the first tick, if on the ground.
    pub jump: bool,
    /// Crouch (held): stay crouched while true, stand up when there is room.
    pub crouch: bool,
    /// The use key, at the first tick (starts a mover looked at: see [`crate::movers`]).
    pub using: bool,
    /// Where the eye looks (unit), for the use key.
    pub look: Vec3,
    /// Swimming up (+1, Space held) or down (-1, C held); 0 floats.
    pub swim: f32,
}

/// What one outer step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkReport {
    /// A wall, ceiling or steep slope changed the move.
    pub hit: bool,
    /// The first such contact.
    pub contact: Option<Contact>,
    /// Height climbed by step-ups (0 when none).
    pub stepped_up: f32,
    /// Height the floor's follow came down by at steps' edges (drops of more than
    /// [`STEP_DOWN_EASED`] in a tick; 0 when none).
    pub stepped_down: f32,
    /// Internal ticks run.
    pub ticks: u32,
    /// Degrees the movers turned the walker about the vertical (a turntable ridden).
    pub turned_deg: f32,
}

impl WalkReport {
    /// Add what one tick reported (its own report, begun empty) to the step's.
    fn add_tick(&mut self, tick: &WalkReport) {
        self.hit |= tick.hit;
        self.contact = self.contact.or(tick.contact);
        self.stepped_up += tick.stepped_up;
        self.stepped_down += tick.stepped_down;
        self.ticks += 1;
    }
}

impl WalkState {
    /// Advance the walker whose feet are at `feet` by `dt` seconds: as many whole ticks
    /// of `settings.tick` as `dt` and the time owed from earlier steps hold. Ticks are
    /// counted with a thousandth of a tick to spare, so that `dt` written to ten digits
    /// (0.0083333333 for 1/120) never loses one to rounding. Before each tick's own move,
    /// the tick passes in `world` (its movers carry and push the body: see
    /// [`crate::movers`]). A tick that reads just what the last one worked out read is
    /// taken from `memo` (see [`super::memo`]).
    #[allow(clippy::too_many_arguments)]
    pub fn advance(
        &mut self,
        world: &mut dyn Ticking,
        settings: &WalkSettings,
        rules: &MoveRules,
        feet: &mut Vec3,
        intent: &WalkIntent,
        dt: f32,
        memo: &mut TickMemo,
    ) -> WalkReport {
        let mut report = WalkReport::default();
        if !(settings.is_valid() && dt.is_finite() && dt > 0.0 && feet.is_finite()) {
            return report;
        }
        if intent.jump {
            self.jump_queued = true;
        }
        let tick = f64::from(settings.tick);
        self.owed += f64::from(dt);
        let ticks = (self.owed / tick + TICK_SLACK).floor().max(0.0);
        self.owed -= ticks * tick;
        // What is left within the slack is rounding (of `dt` and the tick in `f32`), not
        // time: forgotten now, it can never add up to a lost tick over a long run.
        if self.owed.abs() < TICK_SLACK * tick {
            self.owed = 0.0;
        }
        for k in 0..ticks as u64 {
            self.pass(world, settings, feet, intent, k == 0, &mut report);
            let input = || TickInput::of(world, self, *feet, intent, settings, rules);
            let output = memo.tick(*feet, world.water(), input, || {
                let (mut state, mut at, mut alone) = (*self, *feet, WalkReport::default());
                state.tick(
                    world.collider(),
                    world.water(),
                    settings,
                    rules,
                    &mut at,
                    intent,
                    settings.tick,
                    &mut alone,
                );
                TickOutput {
                    state,
                    feet: at,
                    report: alone,
                }
            });
            *self = WalkState {
                owed: self.owed,
                ..output.state
            };
            *feet = output.feet;
            report.add_tick(&output.report);
        }
        report
    }

    /// Let one tick pass in `world` before the walker's move: what moves carries and
    /// pushes the body (`first`: the use key is pressed at this tick).
    fn pass(
        &mut self,
        world: &mut dyn Ticking,
        settings: &WalkSettings,
        feet: &mut Vec3,
        intent: &WalkIntent,
        first: bool,
        report: &mut WalkReport,
    ) {
        let body = self.body(settings);
        let centre = *feet + Vec3::Y * body.radii.y;
        let mut rider = Rider {
            standing_on: self.ground.map(|g| g.triangle),
            eye: body.eye_of(centre),
            look: intent.look,
            using: first && intent.using,
            ..Rider::at(body, centre)
        };
        world.pass(settings.tick, &mut rider);
        *feet = body.feet_of(rider.centre);
        report.turned_deg += rider.turned_deg;
    }

    /// The body of the current posture.
    pub fn body(&self, settings: &WalkSettings) -> Body {
        if self.crouched {
            settings.crouched()
        } else {
            settings.standing()
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn tick(
        &mut self,
        world: &dyn Collider,
        water: &[Aabb],
        s: &WalkSettings,
        rules: &MoveRules,
        feet: &mut Vec3,
        intent: &WalkIntent,
        dt: f32,
        report: &mut WalkReport,
    ) {
        let before = self.body(s);
        let wet = immersion(
            water,
            &before,
            *feet + Vec3::Y * before.radii.y,
            self.water,
            self.ground.is_some(),
        );
        let swimming = wet.level == WaterLevel::Swimming;
        // 1. Crouch (not swimming: C swims down), or stand up when the standing body
        // would touch nothing above.
        if intent.crouch && !self.crouched && !swimming {
            self.crouch_down(world, s, rules, feet);
        } else if !intent.crouch && self.crouched {
            self.crouched = !self.room_to_stand(world, s, rules, *feet);
        }
        let body = self.body(s);
        let level = MoveRules {
            wall_below_up: Some(s.walkable_min_up),
            ..rules.with_body(body)
        };
        let free = MoveRules {
            response: Response::Slide,
            wall_below_up: None,
            ..rules.with_body(body)
        };
        let mut centre = *feet + Vec3::Y * body.radii.y;
        // The floor a step-up landed on, when the floor's own rule holds it (phase 4
        // then has it already).
        let mut landing = None;

        // 2. Jump.
        let mut rising = self.vertical_speed > 0.0;
        if std::mem::take(&mut self.jump_queued) && (self.ground.is_some() || self.wedged) {
            self.vertical_speed = s.jump_speed;
            self.ground = None;
            self.wedged = false;
            rising = true;
        }

        // 3. Step-slide the horizontal move (slower in water; a swimmer blocked at an
        // edge it can pass over climbs out).
        let factor = match wet.level {
            WaterLevel::Dry => 1.0,
            WaterLevel::Wading => s.wade_speed_factor,
            WaterLevel::Swimming => s.swim_speed_factor,
        };
        let wish = intent.velocity * factor * dt;
        let mut pressed_on_slope = false;
        if wish.length_squared() > 0.0 {
            let plain = resolve_move(world, &level, centre, wish);
            let mut end = plain.end;
            pressed_on_slope = plain.contacts().any(|c| too_steep(s, c));
            if plain.hit {
                report.hit = true;
                report.contact = report.contact.or(plain.contacts().next().copied());
                if self.ground.is_some()
                    && let Some(stepped) = self.step_up(world, s, &level, centre, wish, plain.end)
                {
                    report.stepped_up += (stepped.centre.y - centre.y).max(0.0);
                    end = stepped.centre;
                    landing = stepped.floor;
                } else if swimming
                    && !self.climbing
                    && can_climb_out(world, s, &level, plain.end, wish)
                {
                    self.climbing = true;
                    self.vertical_speed = s.water_jump_speed;
                    rising = true;
                }
            }
            centre = end;
        }

        // 4. Vertical: swim; or follow the floor, or fall.
        if swimming && !self.climbing {
            let v = swim_speed(s, &body, centre, wet.surface, intent.swim);
            self.vertical_speed = v;
            self.ground = None;
            self.wedged = false;
            centre = swim_vertical(world, &free, centre, wet.surface, v, dt);
        } else {
            let vertical = Vertical {
                rising,
                landing,
                heading: intent.velocity,
                dt,
            };
            centre = self.walk_vertical(world, s, &free, centre, &vertical, report);
        }
        if self.climbing && (self.ground.is_some() || self.vertical_speed <= 0.0) {
            self.climbing = false;
        }
        // Off the ground and not rising, against a slope too steep to stand on: walked
        // into it, or turned aside by it falling (the walk up it and the slide down it
        // may alternate tick by tick, and the body is on the slope all the while).
        self.on_steep_slope = (pressed_on_slope || self.on_steep_slope)
            && self.ground.is_none()
            && !self.wedged
            && !swimming
            && self.vertical_speed <= 0.0;
        self.water = immersion(water, &body, centre, wet.level, self.ground.is_some()).level;
        *feet = body.feet_of(centre);
    }

    /// Phase 4 out of water: follow the floor, or fall. The centre it ends at.
    fn walk_vertical(
        &mut self,
        world: &dyn Collider,
        s: &WalkSettings,
        free: &MoveRules,
        mut centre: Vec3,
        vertical: &Vertical,
        report: &mut WalkReport,
    ) -> Vec3 {
        let body = free.probe.body;
        let (rising, dt) = (vertical.rising, vertical.dt);
        self.on_steep_slope = false;
        if self.ground.is_some() && !rising {
            // A step-up's landing that the floor's rule holds is the floor followed: a
            // sweep down from there meets the same contact at once (it would only settle
            // the body half a gap deeper, as the next tick's follow does). Beside a chair's
            // knob that sweep was a sixth of a step-up tick.
            let support = match vertical.landing {
                Some(contact) => Some(Support { centre, contact }),
                None => follow_floor(world, s, free, centre, |c| {
                    floor_band(s, centre, vertical.heading, c)
                }),
            };
            match support {
                Some(support) => {
                    // A drop down a step's edge is eased in the view, as a climb is (on a
                    // Doom level's stairs each was an instant 0.51 m drop); a slope's tick by
                    // tick descent is not.
                    let drop = centre.y - support.centre.y;
                    if drop > STEP_DOWN_EASED {
                        report.stepped_down += drop;
                    }
                    centre = support.centre;
                    self.ground = Some(support.contact);
                }
                None => self.ground = None, // walked off a ledge: falls from the next tick
            }
            self.vertical_speed = 0.0;
            self.wedged = false;
        } else {
            let v = self.vertical_speed;
            let dy = v * dt - 0.5 * s.gravity * dt * dt;
            self.vertical_speed = v - s.gravity * dt;
            let out = resolve_move(world, free, centre, Vec3::Y * dy);
            self.wedged = false;
            if dy < 0.0 && out.hit {
                // Sliding down a slope steeper than walkable still drops more than half
                // the fall (cos^2 of its angle from vertical); held in place, it drops
                // nothing.
                let fell = out.end.y - centre.y;
                self.wedged = fell > dy * WEDGED_FALL;
                if self.wedged {
                    // Held: the fall goes on only as fast as it went, so no speed builds
                    // up while held (Quake III clips the velocity against the plane).
                    self.vertical_speed = self.vertical_speed.max((fell / dt).min(0.0));
                }
                // Sliding, the fall asked for gathers speed as a free one, and the face
                // takes its share each tick: the body comes down at g sin^2 of the slope,
                // a ball on a frictionless incline (Quake III keeps the speed along the
                // plane). Capped at what it fell, it crept down at a few cm/s.
            }
            centre = out.end;
            self.on_steep_slope = dy < 0.0 && out.contacts().any(|c| too_steep(s, c));
            for c in out.contacts() {
                if dy < 0.0 && is_ground(s, &body, c, centre, s.ground_band) {
                    self.ground = Some(*c);
                    self.vertical_speed = 0.0;
                    self.wedged = false;
                } else if dy > 0.0 && c.normal.y < 0.0 {
                    // The rise loses what goes into the face it met (Quake III's
                    // `PM_ClipVelocity`): all of it under a flat ceiling, next to nothing
                    // at the top edge of a wall the body rises along (pressed against a
                    // 1 m block, a jump was stopped there after 8.5 cm).
                    let kept = 1.0 - c.normal.y * c.normal.y;
                    self.vertical_speed = self.vertical_speed.min(self.vertical_speed * kept);
                    report.hit = true;
                    report.contact = report.contact.or(Some(*c));
                }
            }
        }
        centre
    }

    /// Quake III's step-up: the same horizontal move raised by the step height, then
    /// lowered back onto what is there. `None` unless it lands on ground and went farther
    /// than the plain move (to `plain`).
    fn step_up(
        &self,
        world: &dyn Collider,
        s: &WalkSettings,
        level: &MoveRules,
        centre: Vec3,
        wish: Vec3,
        plain: Vec3,
    ) -> Option<StepUp> {
        let body = level.probe.body;
        let up = MoveRules {
            response: Response::Stop,
            ..*level
        };
        let raised = resolve_move(world, &up, centre, Vec3::Y * s.max_step).end;
        let lift = raised.y - centre.y;
        if lift <= 0.0 {
            return None;
        }
        let across = resolve_move(world, level, raised, wish).end;
        // Lowering it changes nothing across: no farther now, it never will be (the
        // lowering's sweep is the step-up's dearest beside fine furniture).
        if horizontal(across - centre) <= horizontal(plain - centre) + STEP_GAIN {
            return None;
        }
        let down = Vec3::NEG_Y * lift;
        let c = world.sweep(&level.probe, across, down)?;
        let landed = across + down * c.t as f32;
        // A round body lands on a step's nose before it is over the tread, lower than
        // the nose by up to most of its height: that nose holds it when it is no higher
        // than a step above where the feet were, and the body rolls up over it tick by
        // tick, as a ball over a kerb.
        let band = body.feet_of(centre).y + s.max_step - body.feet_of(landed).y;
        if !is_ground(s, &body, &c, landed, band) {
            return None;
        }
        // The floor's own rule, as phase 4 would judge this contact from here.
        let floor = is_ground(s, &body, &c, landed, floor_band(s, landed, wish, &c));
        Some(StepUp {
            centre: landed,
            floor: floor.then_some(c),
        })
    }

    /// Crouch where the feet are. The crouched ellipsoid is rounder than the standing one
    /// (wider below about 0.7 m): beside a low box or over a stair nose it can overlap
    /// what the standing body cleared, so it is placed as a spawn is, around the standing
    /// eye and never across a triangle from it (a few centimetres at most). Where it cannot
    /// be placed the walker stays standing.
    fn crouch_down(
        &mut self,
        world: &dyn Collider,
        s: &WalkSettings,
        rules: &MoveRules,
        feet: &mut Vec3,
    ) {
        let (high, low) = (s.standing(), s.crouched());
        let eye = high.eye_of(*feet + Vec3::Y * high.radii.y);
        let wanted = *feet + Vec3::Y * low.radii.y;
        if let Some(p) = place(world, &rules.probe.with_body(low), eye, wanted) {
            self.crouched = true;
            *feet = low.feet_of(p.centre);
        }
    }

    /// Would the standing body fit where the crouched one stands? The crouched body swept
    /// up to the standing height covers the standing ellipsoid.
    fn room_to_stand(
        &self,
        world: &dyn Collider,
        s: &WalkSettings,
        rules: &MoveRules,
        feet: Vec3,
    ) -> bool {
        let (low, high) = (s.crouched(), s.standing());
        let centre = feet + Vec3::Y * low.radii.y;
        let rise = Vec3::Y * (2.0 * (high.radii.y - low.radii.y));
        world
            .sweep(&rules.probe.with_body(low), centre, rise)
            .is_none()
    }
}

/// What phase 4 needs from the phases before it.
struct Vertical {
    /// Moving up (a jump, or climbing out of water): no floor is followed.
    rising: bool,
    /// The floor a step-up landed on this tick, when the floor's own rule holds it.
    landing: Option<Contact>,
    /// The horizontal velocity wanted (see [`floor_band`]).
    heading: Vec3,
    /// The tick, seconds.
    dt: f32,
}

/// Where a step-up put the body.
struct StepUp {
    /// Its centre, landed.
    centre: Vec3,
    /// What it landed on, when [`floor_band`]'s rule holds the body there too (phase 4
    /// then takes it as the floor followed).
    floor: Option<Contact>,
}

/// How high over the feet an edge or corner `c` may hold the body centred at `centre`
/// (see [`is_ground`]) when it follows the floor moving along `heading`: one it moves
/// toward is one it is rolling up over (after a step-up), ground up to the step height.
fn floor_band(s: &WalkSettings, centre: Vec3, heading: Vec3, c: &Contact) -> f32 {
    let ahead = (c.point - centre).dot(heading) > 0.0;
    if ahead { s.max_step } else { s.ground_band }
}

/// Where [`follow_floor`] puts the body, and what holds it up.
struct Support {
    centre: Vec3,
    contact: Contact,
}

/// Follow the floor down from `centre` by up to the step height: the first contact below
/// when it is ground (`band` says how high over the feet an edge may hold the body).
/// When a steep contact comes first (pressed against a step too high to climb, its nose
/// is met before the floor beside it; pressed into the foot of a steep ramp), the body
/// slides past it to what holds it up. A slide down a steep face that takes the body
/// aside by more than [`FOLLOW_ASIDE`] is no settling but a jump: 0.27 m back in one tick
/// (pressed up a rock slope into a 47-degree face on Recast's dungeon, eleven
/// times a second, and 8 cm in a bevelled corner at 24 Hz). There the body is on no
/// floor (Quake III's ground trace) and falls, held by the face. `None`: nothing within
/// reach holds the body.
fn follow_floor(
    world: &dyn Collider,
    s: &WalkSettings,
    free: &MoveRules,
    centre: Vec3,
    band: impl Fn(&Contact) -> f32,
) -> Option<Support> {
    let body = free.probe.body;
    let reach = Vec3::NEG_Y * s.max_step;
    let first = world.sweep(&free.probe, centre, reach)?;
    let at = centre + reach * first.t as f32;
    if is_ground(s, &body, &first, at, band(&first)) {
        return Some(Support {
            centre: at,
            contact: first,
        });
    }
    // The slide's first leg is the sweep just made.
    let swept = Swept {
        probe: free.probe,
        centre,
        delta: reach,
        contact: Some(first),
    };
    let slid = resolve_move_swept(world, free, &swept);
    if first.feature == Feature::Face && horizontal(slid.end - centre) > FOLLOW_ASIDE {
        return None; // down a steep face by more than a settling: no floor here
    }
    let contact = *slid
        .contacts()
        .find(|c| is_ground(s, &body, c, slid.end, band(c)))?;
    Some(Support {
        centre: slid.end,
        contact,
    })
}

/// Does contact `c`, with the body centred at `centre`, hold the body up? A walkable
/// normal does; so does an edge or corner touched from above no more than `band` over
/// the feet: a stair nose, which an ellipsoid rolling over it sees with a normal only
/// about 0.44 up. (The edge is shared by the walkable tread and the riser, and either may
/// report it, so the rule asks where the contact is, not which face.)
fn is_ground(s: &WalkSettings, body: &Body, c: &Contact, centre: Vec3, band: f32) -> bool {
    if c.normal.y >= s.walkable_min_up {
        return true;
    }
    let feet = body.feet_of(centre).y;
    let border = matches!(c.feature, Feature::Edge | Feature::Vertex);
    border && c.normal.y > 0.0 && c.point.y <= feet + band
}

/// Is contact `c` on a slope too steep to stand on: facing up by more than
/// [`SLOPE_MIN_UP`], less than walkable? (A wall is no slope.)
fn too_steep(s: &WalkSettings, c: &Contact) -> bool {
    c.normal.y > SLOPE_MIN_UP && c.normal.y < s.walkable_min_up
}

/// Length of the horizontal part of `v`.
fn horizontal(v: Vec3) -> f32 {
    Vec3::new(v.x, 0.0, v.z).length()
}
