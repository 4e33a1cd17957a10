//! What happens to a move that hits a wall: stop, or slide along it.
//!
//! The slide loop follows Quake's `PM_SlideMove` (id Software, 1999), as rapier's
//! character controller does: advance to the contact, keep the rest of the move minus its
//! component into the sliding planes touched so far, and try again, a capped number of
//! times. The sliding plane of a contact passes through the contact point with the normal
//! from it to the body's centre (Fauerby 2003): a face's own plane, or, at an edge or a
//! corner, the plane tangent to the body there.

use crate::text::names::named;
use glam::{DVec3, Vec3};

use super::{Body, Collider, Contact, Probe};
use crate::geometry::InsideMethod;
use crate::tolerance::{MIN_MOVE, PARALLEL_COSINE, SAME_PLANE_COSINE, SURFACE_ROUNDING};

/// The slide response gives up after this many hit-and-redirect rounds in one step.
pub const MAX_SLIDE_ITERATIONS: usize = 5;

/// How many times [`push_out`] moves a body out of its deepest overlap (a corner needs
/// one round per wall).
pub const MAX_PUSH_ROUNDS: usize = 4;

/// The response to a blocked move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Response {
    /// Advance to the first contact (the body resting at its contact gap) and no further
    /// this step.
    Stop,
    /// Advance to the contact, then go on along the wall (or the crease of two walls).
    #[default]
    Slide,
}

named!(Response, "response" { Stop => "stop", Slide => "slide" });

/// How a body moves through the world: what it is, what a wall does to it, and how the
/// collision test decides "inside".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRules {
    /// The body that moves, and the point-in-triangle method of its face phase.
    pub probe: Probe,
    /// Stop or slide.
    pub response: Response,
    /// Walking: a contact whose normal's up (+y) component is below this is a wall, and
    /// the slide along it stays level: its normal is flattened to the horizontal, so a body
    /// pushed against a table's edge or a steep slope slides along it instead of riding up
    /// (Quake III's `PM_StepSlideMove` and Godot's `move_and_slide` treat steep contacts so).
    /// `None`: every contact slides along its true plane (flying).
    pub wall_below_up: Option<f32>,
}

impl MoveRules {
    /// Rules for `body` with `response`, the default method, sliding along true planes.
    pub fn new(body: Body, response: Response) -> MoveRules {
        MoveRules {
            probe: Probe::new(body, InsideMethod::default()),
            response,
            wall_below_up: None,
        }
    }

    /// The same rules with another point-in-triangle method.
    pub fn with_method(self, method: InsideMethod) -> MoveRules {
        MoveRules {
            probe: Probe {
                method,
                ..self.probe
            },
            ..self
        }
    }

    /// The same rules for another body.
    pub fn with_body(self, body: Body) -> MoveRules {
        MoveRules {
            probe: self.probe.with_body(body),
            ..self
        }
    }

    /// The normal a contact slides along under these rules.
    fn sliding_normal(&self, contact: &Contact) -> DVec3 {
        let n = contact.normal.as_dvec3();
        match self.wall_below_up {
            Some(min_up) if n.y < f64::from(min_up) => {
                DVec3::new(n.x, 0.0, n.z).try_normalize().unwrap_or(n)
            }
            _ => n,
        }
    }
}

/// Where a move ended and how it got there (positions are the body's centre).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveOutcome {
    /// The final position.
    pub end: Vec3,
    /// True when a collision changed the move.
    pub hit: bool,
    /// The path, start first: `leg_count + 1` points.
    pub path: [Vec3; MAX_SLIDE_ITERATIONS + 1],
    /// Number of straight legs of the path.
    pub leg_count: usize,
    /// The contacts that stopped or bent the move, in order (first `contact_count`).
    pub contacts: [Option<Contact>; MAX_SLIDE_ITERATIONS],
    /// Number of entries of `contacts` in use.
    pub contact_count: usize,
}

impl MoveOutcome {
    fn new(start: Vec3) -> MoveOutcome {
        MoveOutcome {
            end: start,
            hit: false,
            path: [start; MAX_SLIDE_ITERATIONS + 1],
            leg_count: 0,
            contacts: [None; MAX_SLIDE_ITERATIONS],
            contact_count: 0,
        }
    }

    fn touch(&mut self, contact: Contact) {
        self.hit = true;
        if self.contact_count < MAX_SLIDE_ITERATIONS {
            self.contacts[self.contact_count] = Some(contact);
            self.contact_count += 1;
        }
    }

    fn advance(&mut self, to: Vec3) {
        if self.leg_count < self.path.len() - 1 {
            self.leg_count += 1;
            self.path[self.leg_count] = to;
        }
        self.end = to;
    }

    /// The contacts that stopped or bent the move, in order.
    pub fn contacts(&self) -> impl Iterator<Item = &Contact> + '_ {
        self.contacts[..self.contact_count].iter().flatten()
    }

    /// The straight legs travelled, in order.
    pub fn legs(&self) -> impl Iterator<Item = (Vec3, Vec3)> + '_ {
        (0..self.leg_count).map(|i| (self.path[i], self.path[i + 1]))
    }
}

/// Move a body (its centre at `start`) by `delta` through `world` under `rules`.
///
/// The move runs in `f64`, so no speed overflows (a step of 1e28 m still stops at the
/// wall). A body placed inside geometry should be [`push_out`]ed first: a move never takes
/// it deeper, but does not free it either.
pub fn resolve_move<C: Collider + ?Sized>(
    world: &C,
    rules: &MoveRules,
    start: Vec3,
    delta: Vec3,
) -> MoveOutcome {
    resolve(world, rules, start, delta, None)
}

/// A sweep already made: the probe swept, from `centre` by `delta`, and its answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Swept {
    /// The probe swept.
    pub probe: Probe,
    /// Where its centre started.
    pub centre: Vec3,
    /// The move swept.
    pub delta: Vec3,
    /// What the world answered.
    pub contact: Option<Contact>,
}

/// [`resolve_move`] of `swept`'s move (from `swept.centre` by `swept.delta`) for a
/// caller that has swept it already: when `swept` is of `rules.probe`, the first leg
/// takes its answer instead of sweeping again (a sweep of another probe is not used).
/// The outcome is the same; on fine furniture that sweep is most of a tick's cost (a
/// floor followed down past a chair's edge).
pub fn resolve_move_swept<C: Collider + ?Sized>(
    world: &C,
    rules: &MoveRules,
    swept: &Swept,
) -> MoveOutcome {
    let first = (swept.probe == rules.probe).then_some(swept.contact);
    resolve(world, rules, swept.centre, swept.delta, first)
}

/// A move, its first leg's sweep (`first`) given or not.
fn resolve<C: Collider + ?Sized>(
    world: &C,
    rules: &MoveRules,
    start: Vec3,
    delta: Vec3,
    first: Option<Option<Contact>>,
) -> MoveOutcome {
    let mut out = MoveOutcome::new(start);
    let body = &rules.probe.body;
    if !(start.is_finite() && delta.is_finite() && body.is_valid()) {
        return out;
    }
    if delta.as_dvec3().length() < f64::from(MIN_MOVE) {
        return out;
    }
    let mut first = first;
    let mut sweep = |pos: Vec3, step: Vec3| {
        first
            .take()
            .unwrap_or_else(|| world.sweep(&rules.probe, pos, step))
    };
    match rules.response {
        Response::Stop => match sweep(start, delta) {
            None => out.advance(start + delta),
            Some(contact) => {
                out.touch(contact);
                if let Some(end) = leg_end(start, delta.as_dvec3() * contact.t, &[]) {
                    out.advance(end);
                }
            }
        },
        Response::Slide => slide(rules, start, delta, &mut out, sweep),
    }
    out
}

/// The end of a leg from `start` by `delta`, computed in `f64` and rounded to an `f32`
/// position that is no nearer to any of `planes` (the sliding planes the move touched
/// before this leg, which it runs along) than the exact end; `None` when no such position lies
/// within an `f32` step of it on every axis: the body stays where it is.
///
/// Rounding to nearest is not enough. A body wedged between a wall and a box's edge,
/// slid a few micrometres a tick down the edge's tangent plane, had the part of each leg
/// toward the wall (under half an `f32` step) rounded away every time while the part
/// down the edge stayed: it sank 22 micrometres a step into the edge (found by the
/// walking property test). The sweep cannot catch what rounding does after it, so the
/// rounding itself is directed: of the (up to eight) `f32` points around the exact end,
/// the nearest one that is not inside any touched plane.
#[inline]
fn leg_end(start: Vec3, delta: DVec3, planes: &[DVec3]) -> Option<Vec3> {
    let exact = start.as_dvec3() + delta;
    let outside = |p: Vec3| {
        let error = p.as_dvec3() - exact;
        planes.iter().all(|n| error.dot(*n) >= 0.0)
    };
    let nearest = exact.as_vec3();
    if outside(nearest) {
        return Some(nearest);
    }
    // The f32 neighbours of the exact end on each axis (one when it is representable).
    let around = |x: f64, r: f32| {
        if f64::from(r) < x {
            [r, r.next_up()]
        } else {
            [r.next_down(), r]
        }
    };
    let (xs, ys, zs) = (
        around(exact.x, nearest.x),
        around(exact.y, nearest.y),
        around(exact.z, nearest.z),
    );
    (0..8)
        .map(|i: usize| Vec3::new(xs[i & 1], ys[(i >> 1) & 1], zs[(i >> 2) & 1]))
        .filter(|&p| outside(p))
        .min_by(|a, b| {
            let (da, db) = (a.as_dvec3() - exact, b.as_dvec3() - exact);
            da.length_squared().total_cmp(&db.length_squared())
        })
}

/// The slide response, each leg swept by `sweep` (from a position, by a move).
fn slide(
    rules: &MoveRules,
    start: Vec3,
    delta: Vec3,
    out: &mut MoveOutcome,
    mut sweep: impl FnMut(Vec3, Vec3) -> Option<Contact>,
) {
    let wanted = delta.as_dvec3();
    let mut pos = start;
    let mut rest = wanted;
    let mut planes = [DVec3::ZERO; MAX_SLIDE_ITERATIONS];
    let mut n_planes = 0;
    for _ in 0..MAX_SLIDE_ITERATIONS {
        let step = rest.as_vec3();
        if !(rest.length() >= f64::from(MIN_MOVE) && step.is_finite()) {
            break;
        }
        // 1. Go as far as the first contact allows.
        let Some(contact) = sweep(pos, step) else {
            if let Some(end) = leg_end(pos, rest, &planes[..n_planes]) {
                out.advance(end);
            }
            return;
        };
        out.touch(contact);
        // The leg to the contact, rounded off the planes touched before it (the contact's
        // own plane is where the leg ends: its distance is the contact's, whichever way
        // it rounds).
        if contact.t > 0.0
            && let Some(end) = leg_end(pos, rest * contact.t, &planes[..n_planes])
        {
            pos = end;
            out.advance(pos);
        }
        rest *= 1.0 - contact.t;
        // 2. Remember the sliding plane, once per plane (a wall cut into coplanar pieces
        //    is one wall).
        let normal = rules.sliding_normal(&contact);
        if !planes[..n_planes]
            .iter()
            .any(|n| n.dot(normal) > f64::from(SAME_PLANE_COSINE))
        {
            planes[n_planes] = normal;
            n_planes += 1;
        }
        // 3. Redirect the rest along the planes; nowhere to go means stop.
        match slide_direction(rest, &planes[..n_planes]) {
            // Never turn back against the intended move: that is what makes a body
            // jitter in a V-corner.
            Some(v) if v.dot(wanted) > 0.0 => rest = v,
            _ => return,
        }
    }
}

/// Where a body placed inside geometry ends up after [`push_out`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PushOut {
    /// The centre, moved out of every triangle it overlapped (as far as possible).
    pub centre: Vec3,
    /// True when it had to move.
    pub pushed: bool,
    /// True when the body at `centre` overlaps nothing (it may rest within the gap):
    /// false when it is jammed between triangles closer than its width.
    pub free: bool,
}

/// The nearest triangle point *inside* the body at `centre`: nearer than halfway
/// through the contact gap (see [`Body::inner_contact_radius`]), where a move leaves a
/// body only by a rounding, or along a plane it is already held off within the gap (see
/// `sweep`'s notes). A body resting against something, in the gap, penetrates nothing.
/// `None` when it penetrates nothing.
pub fn penetration<C: Collider + ?Sized>(world: &C, body: &Body, centre: Vec3) -> Option<Contact> {
    nearer_than(world, body, centre, body.inner_contact_radius())
}

/// The nearest triangle point within the body itself at `centre` (the ellipsoid, not its
/// contact gap, less [`SURFACE_ROUNDING`]): what must never be at the end of a tick (a
/// mover that would put one there is blocked). A body may rest in its gap, and touch its
/// own surface by a rounding where it slid over an edge; only this is a body passed
/// through.
pub fn overlap<C: Collider + ?Sized>(world: &C, body: &Body, centre: Vec3) -> Option<Contact> {
    let rounding = f64::from(SURFACE_ROUNDING) / f64::from(body.radii.min_element());
    nearer_than(world, body, centre, 1.0 - rounding)
}

/// The nearest triangle point nearer than `radius` (ellipsoid space) to the body's centre.
fn nearer_than<C: Collider + ?Sized>(
    world: &C,
    body: &Body,
    centre: Vec3,
    radius: f64,
) -> Option<Contact> {
    let c = world.nearest_overlap(body, centre)?;
    let inv_radii = body.inverse_radii();
    let centre_e = centre.as_dvec3() * inv_radii;
    let point_e = c.point.as_dvec3() * inv_radii;
    ((centre_e - point_e).length() < radius).then_some(c)
}

/// Push a body placed too near triangles (spawned in a wall or with its feet exactly on
/// the floor, or grown from the flying sphere into the walker beside one) out along the
/// normal of its deepest contact until it rests at its contact distance, a few rounds for
/// corners. A body resting within the gap (as moves leave it) is not nudged.
pub fn push_out<C: Collider + ?Sized>(world: &C, body: &Body, centre: Vec3) -> PushOut {
    let mut out = PushOut {
        centre,
        pushed: false,
        free: false,
    };
    let inv_radii = body.inverse_radii();
    let radius = body.contact_radius();
    // One more look than pushes: the last look tells whether the last push freed it.
    for round in 0..=MAX_PUSH_ROUNDS {
        // Resting in the gap, as a move leaves a body, is free.
        let Some(c) = penetration(world, body, out.centre) else {
            out.free = true;
            break;
        };
        if round == MAX_PUSH_ROUNDS {
            break;
        }
        let point_e = c.point.as_dvec3() * inv_radii;
        let normal_e = (c.normal.as_dvec3() * body.radii.as_dvec3()).normalize();
        out.centre = ((point_e + normal_e * radius) * body.radii.as_dvec3()).as_vec3();
        out.pushed = true;
    }
    out
}

/// The part of `v` that slides along every plane in `planes` without entering any: clipped
/// against one plane if that keeps it out of the others, else along the crease of two
/// planes, else nothing (three or more walls box it in).
pub fn slide_direction(v: DVec3, planes: &[DVec3]) -> Option<DVec3> {
    let clip = |v: DVec3, n: DVec3| {
        let into = v.dot(n);
        if into < 0.0 { v - n * into } else { v }
    };
    let enters = |v: DVec3, n: DVec3| v.dot(n) < -f64::from(PARALLEL_COSINE) * v.length();
    for (i, &n) in planes.iter().enumerate() {
        let c = clip(v, n);
        if planes
            .iter()
            .enumerate()
            .all(|(j, &m)| j == i || !enters(c, m))
        {
            return Some(c);
        }
    }
    if let [a, b] = planes {
        let crease = a.cross(*b).try_normalize()?;
        return Some(crease * crease.dot(v));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::names::Named;

    #[test]
    fn response_names_round_trip_and_toggle() {
        for r in [Response::Stop, Response::Slide] {
            assert_eq!(r.name().parse::<Response>().unwrap(), r);
            assert_ne!(r.next(), r);
            assert_eq!(r.next().next(), r);
        }
        assert_eq!(
            "bounce".parse::<Response>().unwrap_err().to_string(),
            "unknown response 'bounce' (expected stop or slide)"
        );
    }

    #[test]
    fn slide_direction_against_one_wall_removes_the_normal_part() {
        let v = slide_direction(DVec3::new(1.0, 0.0, -1.0), &[DVec3::Z]).unwrap();
        assert_eq!(v, DVec3::new(1.0, 0.0, 0.0));
    }

    #[test]
    fn slide_direction_in_a_crease_follows_the_crease() {
        // Floor (normal +y) and wall (normal +z): the crease runs along x.
        let v = slide_direction(DVec3::new(1.0, -1.0, -1.0), &[DVec3::Y, DVec3::Z]).unwrap();
        assert!((v - DVec3::X).length() < 1e-6);
    }

    #[test]
    fn slide_direction_in_a_v_corner_is_zero() {
        let a = DVec3::new(1.0, 0.0, 1.0).normalize();
        let b = DVec3::new(-1.0, 0.0, 1.0).normalize();
        let v = slide_direction(DVec3::new(0.0, 0.0, -1.0), &[a, b]).unwrap();
        assert!(v.length() < 1e-6);
    }

    #[test]
    fn slide_direction_boxed_in_by_three_walls_is_none() {
        let walls = [DVec3::X, DVec3::Y, DVec3::Z];
        assert!(slide_direction(-DVec3::ONE, &walls).is_none());
    }

    #[test]
    fn slide_direction_at_a_shallow_bend_follows_the_new_wall() {
        // A wall bending inward by 30 degrees: clipping against the new wall alone works.
        let a = DVec3::Z;
        let b = DVec3::new(-(30f64.to_radians().sin()), 0.0, 30f64.to_radians().cos());
        let v = slide_direction(DVec3::new(1.0, 0.0, 0.0), &[a, b]).unwrap();
        assert!(v.dot(b).abs() < 1e-6 && v.dot(a) >= 0.0 && v.length() > 0.5);
    }

    /// A move whose first sweep the caller made already ends where [`resolve_move`]
    /// ends it, by the same path and contacts, with that one sweep fewer; given another
    /// probe's sweep, it sweeps as [`resolve_move`] does: both responses, free moves, moves
    /// into a wall and into its corner with the floor.
    #[test]
    fn resolve_move_swept_answers_as_resolve_move_with_its_first_sweep_given() {
        use crate::collision::{Account, CollisionWorld, Recorder};
        let (a, b, c, d) = (
            Vec3::new(-5.0, 0.0, -5.0),
            Vec3::new(5.0, 0.0, -5.0),
            Vec3::new(5.0, 0.0, 5.0),
            Vec3::new(-5.0, 0.0, 5.0),
        );
        // A floor, and a wall along x = 1 leaning a little.
        let wall = [Vec3::new(1.0, 0.0, -5.0), Vec3::new(1.0, 0.0, 5.0)];
        let lean = Vec3::new(0.2, 3.0, 0.0);
        let world = CollisionWorld::new([
            [a, b, c],
            [a, c, d],
            [wall[0], wall[1], wall[1] + lean],
            [wall[0], wall[1] + lean, wall[0] + lean],
        ]);
        let body = Body::WALKER;
        let start = Vec3::new(0.0, 0.9 + 0.01, 0.0);
        let mut total = 0;
        for k in 0..64 {
            let a = k as f32 * std::f32::consts::TAU / 64.0;
            let delta = Vec3::new(a.cos(), -0.3 + (k % 5) as f32 * 0.15, a.sin()) * 1.5;
            for response in [Response::Stop, Response::Slide] {
                let rules = MoveRules {
                    wall_below_up: (k % 2 == 0).then_some(0.7),
                    ..MoveRules::new(body, response)
                };
                let (mut plain, mut given) = (Account::default(), Account::default());
                let expected =
                    resolve_move(&Recorder::new(&world, &mut plain), &rules, start, delta);
                let swept = Swept {
                    probe: rules.probe,
                    centre: start,
                    delta,
                    contact: world.sweep(&rules.probe, start, delta),
                };
                let got = resolve_move_swept(&Recorder::new(&world, &mut given), &rules, &swept);
                assert_eq!(got, expected, "{k} {response:?}");
                assert_eq!(given.sweeps + 1, plain.sweeps, "{k} {response:?}");
                // Another probe's sweep is not taken for this one.
                let other = Swept {
                    probe: rules.probe.with_body(Body::FLYER),
                    ..swept
                };
                let mut again = Account::default();
                let got = resolve_move_swept(&Recorder::new(&world, &mut again), &rules, &other);
                assert_eq!(got, expected, "{k} {response:?}");
                assert_eq!(again.sweeps, plain.sweeps, "{k} {response:?}");
                total += plain.sweeps;
            }
        }
        // 128 moves: more sweeps than that when slides went on along the wall.
        assert!(total > 150, "{total}");
    }
}
