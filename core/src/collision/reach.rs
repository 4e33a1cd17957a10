//! Where a sweep can reach, for the broad phase: a box that a swept ellipsoid cannot touch
//! is skipped whole (a BVH node), one it can is given the earliest time it could, and a
//! triangle out of reach never gets the exact test.
//!
//! The swept box (the slab test) is the centre's path grown by the body's half-extents;
//! an ellipsoid is round, and what lies in the corners of that box is out of its reach.
//! A person standing on a floor has every object on the floor within 30 cm of its centre
//! line in its box, while its rounded bottom reaches a few centimetres around the feet: on
//! conference a 9 cm object of 80,000 tiny triangles lay in that corner beside a table,
//! and every sweep of a step pressed into the table tested all of them; beside a chair of
//! millimetre triangles and long thin ones, a step-up's sweeps tested 1,900 triangles of
//! which 13 came within reach.
//!
//! In ellipsoid space the body is a sphere of radius `R` whose centre moves from `s` by
//! `v`, and touches a point `x` at time `t` only if `|s + v t - x| <= R`. For a box:
//!
//! - It lies in a ball about its centre `c` whose radius `r` is the sum of its
//!   half-extents (no less than its half-diagonal): out of reach when the path never
//!   comes within `R + r` of `c`, and in reach no sooner than it first does.
//! - Its distances `d_s`, `d_e` from the path's two ends (up to the time still searched,
//!   `b`) add to at most `2 R + b |v|` if the body can touch it (it came no farther than
//!   `t |v|` and has `(b - t) |v|` to go), and it is in reach no sooner than
//!   `(d_s - R) / |v|`.
//!
//! Both are bounds on the contact time as the slab test's entry is, often later ones:
//! nearer boxes are searched first, and farther ones pruned once a contact is found. A
//! triangle is seen along the move (see [`Reach::meets_triangle`]). All of it is `f32`,
//! rounded so that it only ever lets more through than the exact test would take.

use glam::{DVec3, Mat3A, Vec3, Vec3A};

use super::narrow::SweepFinder;
use super::sweep::EllipsoidSweep;
use crate::geometry::{Triangle, closest_point};
use crate::tolerance::{BOX_MARGIN, INSIDE_SLACK};

/// Relative room left for rounding: these bounds are `f32`, the exact sweep `f64`; they
/// may only let more through.
const ROUNDING: f32 = 1e-4;

/// The same room on the contact radius, taken in `f64` before it is rounded to `f32`.
const CONTACT_ROUNDING: f64 = 1e-4;

/// A triangle whose height over its longest edge is below this share of that edge's
/// length (in ellipsoid space) is too thin for the start's distance to it to be trusted:
/// the closest point's region weights, differences of products of its edges, err by
/// about `f64`'s rounding over this share squared (1e-6 here, against the reach's
/// margins of 1e-4). It is left to the exact test.
const THIN: f64 = 1e-5;

/// Moves and scales beyond which the bounds stay out of it (ellipsoid-space lengths, and
/// inverse radii): their squares must stay well inside `f32`. A 1e28 m move of a person
/// is still swept exactly; only the BVH's boxes choose its candidates.
const TAME: f32 = 1e12;

/// Which boxes are worth asking the reach about at all: those whose extents add to no
/// more than the body's narrowest width. Around a box wider than the body its ball is too
/// loose to prune much that the swept box lets through, and on open ground, where the
/// nodes a sweep meets are large, asking would cost more than it saves. Not asking only
/// lets more through. Made for every sweep (the [`Reach`] itself only when first asked).
#[derive(Clone, Copy, Debug)]
pub(super) struct Gate(f32);

impl Gate {
    /// The gate of a body of `radii` with the contact radius `radius` (ellipsoid space).
    #[inline(always)]
    pub(super) fn new(radius: f64, radii: Vec3) -> Gate {
        Gate(2.0 * radius as f32 * radii.min_element())
    }

    /// Ask about a box whose extents add to `span`?
    #[inline(always)]
    pub(super) fn worth_asking(self, span: f32) -> bool {
        span <= self.0
    }
}

/// The reach of one sweep.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reach {
    /// The centre at the start (world space).
    start: Vec3A,
    /// World to ellipsoid space: the inverse radii.
    inv_radii: Vec3A,
    /// Half the inverse radii: a box's extent dotted with it is its ball's radius.
    half_inv_radii: Vec3A,
    /// The move `v`, in ellipsoid space.
    path: Vec3A,
    /// `|v|`.
    speed: f32,
    /// `1 / |v|`.
    inv_speed: f32,
    /// The contact radius `R` (ellipsoid space), rounded up.
    radius: f32,
    /// The frame of [`Reach::meets_triangle`], made when first asked (most sweeps on
    /// open ground never ask).
    frame: Option<Frame>,
    /// False for a move or body too large or small for these bounds in `f32` (see
    /// [`TAME`]): they then prune nothing.
    tame: bool,
    /// The longest radius over the shortest: a length in ellipsoid space is at most this
    /// times its world length over the longest radius (see [`Reach::meets_triangle`]).
    anisotropy: f32,
}

/// The move's direction in ellipsoid space and two directions square to it and to each
/// other, as a rotation into that frame (x along the move).
#[derive(Clone, Copy, Debug)]
struct Frame {
    to_local: Mat3A,
}

impl Frame {
    fn of(path: Vec3A) -> Frame {
        // A move too short to have a direction: any frame bounds a point.
        let along = path.try_normalize().unwrap_or(Vec3A::X);
        let (e1, e2) = along.any_orthonormal_pair();
        Frame {
            to_local: Mat3A::from_cols(along, e1, e2).transpose(),
        }
    }
}

impl Reach {
    /// The reach of `sweep`, the sweep of a body whose inverse radii are `inv_radii` and
    /// whose centre starts at `centre` (world space).
    pub(super) fn new(sweep: &EllipsoidSweep, inv_radii: Vec3, centre: Vec3) -> Reach {
        let inv_radii = Vec3A::from(inv_radii);
        let inv_speed = (1.0 / sweep.speed()) as f32;
        let path = Vec3A::from(sweep.velocity.as_vec3());
        let tame = sweep.speed() < f64::from(TAME)
            && inv_speed < TAME
            && inv_radii.max_element() < TAME
            && centre.abs().max_element() < TAME;
        Reach {
            start: centre.into(),
            inv_radii,
            half_inv_radii: inv_radii * 0.5,
            path,
            speed: sweep.speed() as f32,
            inv_speed,
            radius: sweep.radius as f32 * (1.0 + ROUNDING),
            frame: None,
            tame,
            anisotropy: inv_radii.max_element() / inv_radii.min_element(),
        }
    }

    /// The earliest fraction of the move at which the body can touch something in the box
    /// from `min` to `max` (grown by [`BOX_MARGIN`] against rounding), or `None` when it
    /// cannot touch it at all up to fraction `until` of the move (the search ends there:
    /// a contact was found). (Not inlined: asked of few boxes, it would crowd the
    /// traversal's loop.)
    #[inline(never)]
    pub(super) fn entry(&self, min: Vec3A, max: Vec3A, until: f32) -> Option<f32> {
        if !self.tame {
            return Some(0.0);
        }
        // The box's ball (grown by the margin), about its centre `c` (from the start, in
        // ellipsoid space).
        let size = (max - min + Vec3A::splat(2.0 * BOX_MARGIN)).dot(self.half_inv_radii);
        let reach = (self.radius + size) * (1.0 + ROUNDING);
        let reach2 = reach * reach;
        let c = ((min + max) * 0.5 - self.start) * self.inv_radii;
        // The time the path passes nearest to `c`, and whether it comes within reach.
        let nearest = c.dot(self.path) * self.inv_speed * self.inv_speed;
        let passes = c - self.path * nearest.clamp(0.0, until);
        if passes.length_squared() > reach2 {
            return None;
        }
        // The box itself, from both ends of the path searched.
        let d_start = distance(self.start, Vec3A::ZERO, min, max, self.inv_radii);
        let d_end = distance(self.start, self.path * until, min, max, self.inv_radii);
        if d_start + d_end > (2.0 * self.radius + until * self.speed) * (1.0 + ROUNDING) {
            return None;
        }
        // Not before the path comes within `reach` of `c`, nor before it has come
        // within `R` of the box.
        let aside2 = (c - self.path * nearest).length_squared();
        let w = (reach2 - aside2).max(0.0).sqrt() * self.inv_speed;
        let by_ball = nearest - w;
        let by_box = (d_start - self.radius) * self.inv_speed;
        Some(by_ball.max(by_box).max(0.0))
    }

    /// Can the body touch the triangle with world-space corners `corners` up to fraction
    /// `until` of the move? A cheap, tight `f32` bound before the exact test in `f64`.
    /// Seen along the move (in ellipsoid space) the path is a segment of one line, and a
    /// point of the triangle is at least as far from the path as its shadow across the
    /// line is from the line and its place along the line is from the part travelled,
    /// put together (as squares). So the triangle is out of reach when the distance of
    /// its shadow (a flat triangle in the plane square to the move) from the line, and
    /// the gap between its span along the line and `[0, until |v|]`, add as squares to
    /// more than `R^2`: beside a long move it is the distance from the line, around a
    /// short one nearly the distance from the start. Its box in that frame is asked
    /// first, the shadow only for what is near.
    #[inline(never)]
    pub(super) fn meets_triangle(&mut self, corners: [Vec3; 3], until: f32) -> bool {
        if !self.tame {
            return true;
        }
        let path = self.path;
        let frame = *self.frame.get_or_insert_with(|| Frame::of(path));
        // The corners in the move's frame: along it (x), and across it (y, z).
        let local =
            corners.map(|v| frame.to_local * ((Vec3A::from(v) - self.start) * self.inv_radii));
        let (lo, hi) = (
            local[0].min(local[1]).min(local[2]),
            local[0].max(local[1]).max(local[2]),
        );
        // The exact test may take a face touch up to [`INSIDE_SLACK`] of the triangle's
        // size outside it (world lengths; in ellipsoid space at most the anisotropy times
        // the share of its size there).
        let slack = INSIDE_SLACK * (hi - lo).element_sum() * self.anisotropy;
        let radius = self.radius * (1.0 + ROUNDING) + ROUNDING + slack;
        // First the triangle's box in that frame against the path, then (for what is
        // near) the triangle's own shadow.
        let travelled = Vec3A::new(until * self.speed, 0.0, 0.0);
        let gaps = (lo - travelled).max(Vec3A::ZERO) + (-hi).max(Vec3A::ZERO);
        if gaps.length_squared() > radius * radius {
            return false;
        }
        let flat = local.map(|q| glam::Vec2::new(q.y, q.z));
        if gaps.x * gaps.x + distance2_to_origin(flat) > radius * radius {
            return false;
        }
        // Around a short search (a body at rest against furniture, a contact found at
        // once) the shadow is loose for a triangle lying along the move: the start's own
        // distance bounds it, as the body touches nothing farther than `R + until |v|`.
        let reach = f64::from(radius + until * self.speed * (1.0 + ROUNDING));
        self.start_distance2(corners)
            .is_none_or(|d2| d2 <= reach * reach)
    }

    /// The squared ellipsoid-space distance from the start to the triangle with
    /// world-space `corners`, in `f64` from the corners themselves (in the `f32` frame
    /// above, a needle's two corners 1e-8 m apart round to one point); `None` for a
    /// triangle too thin for its closest point to be trusted (its regions' weights are
    /// rounding), which is then never pruned by it.
    #[inline(always)]
    fn start_distance2(&self, corners: [Vec3; 3]) -> Option<f64> {
        let (start, inv) = (
            Vec3::from(self.start).as_dvec3(),
            Vec3::from(self.inv_radii).as_dvec3(),
        );
        let [a, b, c] = corners.map(|v| (v.as_dvec3() - start) * inv);
        let longest2 = (b - a)
            .length_squared()
            .max((c - b).length_squared())
            .max((a - c).length_squared());
        let twice_area2 = (b - a).cross(c - a).length_squared();
        // (Written so that a NaN, which a tame sweep never makes, reads as too thin.)
        let thick = twice_area2 > THIN * THIN * longest2 * longest2;
        if !thick {
            return None;
        }
        let d2 = closest_point(DVec3::ZERO, [a, b, c]).point.length_squared();
        d2.is_finite().then_some(d2)
    }
}

/// What the body's reach prunes of a sweep through triangles in world space, beyond the
/// swept box: a quick plane test, and the [`Reach`] for the boxes and triangles the
/// [`Gate`] lets it be asked about.
pub(super) struct SweepReach {
    /// The plane test in world space, cheaply in `f32`: the centre's plane distance at
    /// start and end must come within the body's reach of the plane.
    centre: Vec3,
    delta: Vec3,
    body_radii: Vec3,
    /// The contact radius rounded up a little: this early test may only let more through.
    contact_radius: f32,
    /// Which boxes to ask the reach about.
    gate: Gate,
    /// Where the ellipsoid can reach: it prunes the swept box's corners, and bounds when
    /// a box can be touched. Made when first asked: on open ground most sweeps never ask.
    reach: Option<Reach>,
    /// What the move leaves behind (see [`Behind`]).
    behind: Behind,
}

/// What lies behind the start of a move, seen in ellipsoid space: the points `x` with
/// `(x - s) . v < 0`. The distance from the moving centre to a convex set whose nearest
/// point lies behind grows from the start on (it is convex in time, and grows at first),
/// so the body touches nothing of a triangle or box wholly behind, whatever its start:
/// in the gap of its contact radius (a floor stood on: the move up, the floor behind a
/// step), farther, or placed deeper (the exact test's `embedded`, which blocks only a
/// move that approaches). World-space: `x . w < s . w` with `w = v / radii^2`, which is
/// `(x - s) . v` in ellipsoid space.
#[derive(Clone, Copy, Debug)]
struct Behind {
    /// `w`: the move over the squared radii.
    w: Vec3A,
    /// `|w|` summed over the axes: a world length's most along `w`.
    w_length: f32,
    /// `s . w` less the rounding of these `f32` products and [`BOX_MARGIN`] along `w`: a
    /// point this far along `w` or less is behind.
    limit: f32,
}

impl Behind {
    fn new(centre: Vec3, delta: Vec3, radii: Vec3) -> Behind {
        let w = Vec3A::from(delta / (radii * radii));
        let w_length = w.abs().element_sum();
        let centre = Vec3A::from(centre);
        let rounding = (centre.abs() + Vec3A::splat(1.0)).dot(w.abs()) * ROUNDING;
        // A move too long for these products in `f32` (see [`TAME`]) leaves nothing
        // behind: a vertex's product could overflow, and `max` would pass over its NaN.
        let tame = w_length < TAME && centre.abs().max_element() < TAME;
        Behind {
            w,
            w_length,
            limit: if tame {
                centre.dot(w) - BOX_MARGIN * w_length - rounding
            } else {
                f32::NEG_INFINITY
            },
        }
    }

    /// Is what is farthest along `w` at `far` behind, for triangles whose boxes' extents
    /// add to at most `size`? (The exact test takes a face touch up to [`INSIDE_SLACK`] of
    /// the triangle's size outside it.)
    #[inline(always)]
    fn holds(&self, far: f32, size: f32) -> bool {
        far < self.limit - INSIDE_SLACK * size * self.w_length
    }

    /// Is the box from `lo` to `hi` wholly behind? (Its farthest corner along `w`.)
    #[inline(always)]
    fn holds_box(&self, lo: Vec3A, hi: Vec3A) -> bool {
        let far = (lo * self.w).max(hi * self.w).element_sum();
        self.holds(far, (hi - lo).element_sum())
    }
}

impl SweepReach {
    /// The reach of `finder`'s sweep, of a body of `radii` moving from `centre` by `delta`.
    #[inline(always)]
    pub(super) fn new(finder: &SweepFinder, radii: Vec3, centre: Vec3, delta: Vec3) -> SweepReach {
        SweepReach {
            centre,
            delta,
            body_radii: radii,
            contact_radius: (finder.sweep.radius * (1.0 + CONTACT_ROUNDING)) as f32,
            gate: Gate::new(finder.sweep.radius, radii),
            reach: None,
            behind: Behind::new(centre, delta, radii),
        }
    }

    /// Does the move leave the box from `lo` to `hi` wholly behind it? Then nothing in
    /// it is touched (see [`Behind`]).
    #[inline(always)]
    pub(super) fn leaves_box(&self, lo: Vec3A, hi: Vec3A) -> bool {
        self.behind.holds_box(lo, hi)
    }

    /// Does the move leave the triangle `tri` wholly behind it?
    #[inline(always)]
    pub(super) fn leaves_triangle(&self, tri: &Triangle) -> bool {
        let b = &self.behind;
        let [p, q, r] = tri.vertices().map(Vec3A::from);
        let size = (p.max(q).max(r) - p.min(q).min(r)).element_sum();
        b.holds(p.dot(b.w).max(q.dot(b.w)).max(r.dot(b.w)), size)
    }

    /// The squared ellipsoid-space distance from the centre at the start to the box from
    /// `lo` to `hi`.
    #[inline(always)]
    pub(super) fn distance2(&self, lo: Vec3A, hi: Vec3A) -> f32 {
        let c = Vec3A::from(self.centre);
        ((c.clamp(lo, hi) - c) / Vec3A::from(self.body_radii)).length_squared()
    }

    /// Ask the reach about a box whose extents add to `span`? (See [`Gate`].)
    #[inline(always)]
    pub(super) fn worth_asking(&self, span: f32) -> bool {
        self.gate.worth_asking(span)
    }

    /// The plane test, in world space and `f32`, for a quick no: the centre's signed
    /// distance to the plane at the start and end of the move, against the body's support
    /// distance along the normal. The exact test in `f64` follows for what passes.
    #[inline(always)]
    pub(super) fn may_touch(&self, tri: &Triangle) -> bool {
        let n = tri.plane.normal;
        let reach = (self.body_radii * n).length() * self.contact_radius + BOX_MARGIN;
        let s0 = tri.plane.signed_distance(self.centre);
        let s1 = s0 + n.dot(self.delta);
        !(s0.min(s1) > reach || s0.max(s1) < -reach)
    }

    /// The sweep's reach (of `finder`'s sweep), made the first time it is asked for.
    #[inline(always)]
    pub(super) fn reach(&mut self, finder: &SweepFinder) -> &mut Reach {
        let centre = self.centre;
        self.reach
            .get_or_insert_with(|| Reach::new(&finder.sweep, finder.inv_radii.as_vec3(), centre))
    }
}

/// A body at rest (what overlaps it): a box farther than its contact radius from its
/// centre, in ellipsoid space, holds nothing it overlaps. A spawn, a crouch or a switch
/// to walking beside a fine object asked all of the object's triangles (5 ms on
/// conference).
#[derive(Clone, Copy, Debug)]
pub(super) struct Rest {
    centre: Vec3A,
    inv_radii: Vec3A,
    /// The contact radius, rounded up.
    radius: f32,
    /// Which boxes to ask about.
    gate: Gate,
}

impl Rest {
    /// A body of `radii` with the contact radius `radius` (ellipsoid space) at `centre`.
    pub(super) fn new(radii: Vec3, radius: f64, centre: Vec3) -> Rest {
        let radius = radius as f32 * (1.0 + ROUNDING);
        Rest {
            centre: centre.into(),
            inv_radii: radii.recip().into(),
            radius,
            gate: Gate::new(f64::from(radius), radii),
        }
    }

    /// Whether to ask [`meets`](Self::meets) about a box whose extents add to `span`
    /// (see [`Gate`]).
    #[inline(always)]
    pub(super) fn worth_asking(&self, span: f32) -> bool {
        self.gate.worth_asking(span)
    }

    /// Can the body at rest overlap something in the box from `min` to `max`?
    pub(super) fn meets(&self, min: Vec3A, max: Vec3A) -> bool {
        distance(self.centre, Vec3A::ZERO, min, max, self.inv_radii) <= self.radius
    }
}

/// Distance in ellipsoid space (world to it: `inv_radii`) from the point `offset` past
/// `from` (world space; the offset in ellipsoid space) to the box from `min` to `max`
/// (world space) grown by [`BOX_MARGIN`].
#[inline(always)]
fn distance(from: Vec3A, offset: Vec3A, min: Vec3A, max: Vec3A, inv_radii: Vec3A) -> f32 {
    let margin = Vec3A::splat(BOX_MARGIN);
    let lo = (min - margin - from) * inv_radii - offset;
    let hi = offset - (max + margin - from) * inv_radii;
    // Per axis, how far the point lies beyond the box (0 within its extent).
    (lo.max(Vec3A::ZERO) + hi.max(Vec3A::ZERO)).length()
}

/// The squared distance from the origin to the flat triangle `t` (0 inside it).
#[inline(always)]
fn distance2_to_origin(t: [glam::Vec2; 3]) -> f32 {
    let edges = [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
    // The origin's side of each edge: inside when it is on the same side of all three
    // (either winding; a triangle seen edge-on has no inside, and its edges decide).
    let sides = edges.map(|(a, b)| (b - a).perp_dot(-a));
    if sides.iter().all(|&x| x >= 0.0) || sides.iter().all(|&x| x <= 0.0) {
        return 0.0;
    }
    edges
        .map(|(a, b)| {
            let e = b - a;
            let t = (-a).dot(e) / e.length_squared().max(f32::MIN_POSITIVE);
            (a + e * t.clamp(0.0, 1.0)).length_squared()
        })
        .into_iter()
        .fold(f32::INFINITY, f32::min)
}

#[cfg(test)]
mod tests;
