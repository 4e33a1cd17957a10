//! The swept body against one triangle, in ellipsoid space (Kasper Fauerby, "Improved
//! Collision detection and Response", 2003).
//!
//! Positions are divided by the body's radii, so the body is a sphere of radius `R` (1
//! plus the contact gap, see [`Body::contact_radius`](super::Body::contact_radius)) and
//! the move a straight sweep of its centre `p(t) = p0 + v t`, `t` in `[0, 1]`. Per
//! triangle, with unit normal `n` turned toward the start:
//!
//! 1. **Plane cross.** The signed distance of the centre, `s(t) = s0 + (n . v) t`. The
//!    sphere can touch the triangle only while `|s(t)| <= R`: from
//!    `t0 = (s0 - R) / -(n . v)` to `t1 = (s0 + R) / -(n . v)`. A move parallel to the
//!    plane, or away from it, that starts outside that band never touches.
//! 2. **Intersection.** At `t0` the sphere touches the plane at `p(t0) - R n`.
//! 3. **Inside.** If that point is inside the triangle (with the selected
//!    [`InsideMethod`](crate::geometry::InsideMethod), tested in the triangle's own space
//!    by the caller), it is the first contact. Otherwise the sphere can only meet the
//!    triangle's border: the three vertices (`|p(t) - P|^2 = R^2`) and the three edges
//!    (distance to the edge's line `= R`, the contact between its ends), each a quadratic
//!    in `t`; the smallest root in `[0, t1]` wins.
//!
//! A start near the plane is decided by the closest point of the triangle (Ericson,
//! *Real-Time Collision Detection*, 5.1.5). A body resting in the gap (between `R` and the
//! inner radius halfway through the gap: it stopped against a wall, or stands on a floor)
//! sweeps with the inner radius: it slides along a floor made of many triangles, and past
//! a face's convex edge, without catching on seams or on the edge it grazes. A body deeper
//! than that (placed there) is blocked at once when it approaches the closest point and
//! free otherwise: the distance from a moving point to a convex set is convex in time, so
//! a move that does not approach at the start never does.
//!
//! A body held off a triangle's plane within the gap (no nearer it than the body itself)
//! meets nothing of the triangle on a move that does not close on the plane: it never
//! comes nearer the triangle than it is to the plane. What a closing move meets while the
//! centre is still held off is given the plane's normal: an edge in the plane the body
//! leans on (a flat wall's diagonal) is no obstacle of its own (see [`sweep_triangle`]).
//! Such a body may so end a move inside the inner band, never inside itself.
//!
//! Everything here is `f64`: a 10 km move resolved to a millimetre needs more than
//! `f32`'s 24 bits, and squared lengths of absurd moves would overflow `f32`.

use glam::{DVec3, Vec3};

use super::Body;
pub use crate::geometry::closest::{ClosestPoint, Feature, closest_point};
use crate::tolerance::{MIN_MOVE, PARALLEL_COSINE};

/// A centre closer than this to a triangle (in ellipsoid-space units) is *on* it: the
/// direction from the triangle to it is rounding noise, and the face normal is used.
pub const ON_TRIANGLE: f64 = 1e-9;

/// A move whose squared speed across an edge's line (times the edge's squared length) is
/// no more than this share of its squared speed runs along the line: its distance from
/// the line never changes, the quadratic is degenerate, and the edge's ends (vertices)
/// are what it meets.
const ALONG_EDGE: f64 = 1e-12;

/// One move of one body, in ellipsoid space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EllipsoidSweep {
    /// The centre at the start.
    pub start: DVec3,
    /// The whole move of the centre (`t = 1` at its end).
    pub velocity: DVec3,
    /// Radius of the sphere kept off every triangle (1 plus the gap): moves from farther
    /// away stop here.
    pub radius: f64,
    /// Halfway through the gap: a start between this and `radius` is resting against
    /// something, and may move anywhere that stays outside this radius.
    pub inner_radius: f64,
    /// `|velocity|^2`, computed once.
    speed2: f64,
    /// `|velocity|`.
    speed: f64,
}

impl EllipsoidSweep {
    /// A sweep from `start` by `velocity` of a sphere of `radius` with an inner band from
    /// `inner_radius` (all in ellipsoid space; see [`crate::collision::Body`]).
    pub fn new(start: DVec3, velocity: DVec3, radius: f64, inner_radius: f64) -> EllipsoidSweep {
        let speed2 = velocity.length_squared();
        EllipsoidSweep {
            start,
            velocity,
            radius,
            inner_radius,
            speed2,
            speed: speed2.sqrt(),
        }
    }

    /// The sweep of `body`, its centre moving from `centre` by `delta` (world space),
    /// in the body's ellipsoid space. `None` for a move that cannot collide: shorter than
    /// [`MIN_MOVE`], not finite, or a body without size.
    pub fn of_body(body: &Body, centre: Vec3, delta: Vec3) -> Option<EllipsoidSweep> {
        let moves = delta.as_dvec3().length() >= f64::from(MIN_MOVE);
        if !(moves && centre.is_finite() && delta.is_finite() && body.is_valid()) {
            return None;
        }
        let inv_radii = body.inverse_radii();
        Some(EllipsoidSweep::new(
            centre.as_dvec3() * inv_radii,
            delta.as_dvec3() * inv_radii,
            body.contact_radius(),
            body.inner_contact_radius(),
        ))
    }

    /// `|velocity|`.
    #[inline]
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// The centre at fraction `t` of the move.
    #[inline]
    pub fn centre_at(&self, t: f64) -> DVec3 {
        self.start + self.velocity * t
    }

    /// True when the move approaches along `normal` (pointing from the triangle toward the
    /// centre) by more than rounding: a cosine of at least [`PARALLEL_COSINE`].
    #[inline]
    fn approaches(&self, normal: DVec3) -> bool {
        normal.dot(self.velocity) < -f64::from(PARALLEL_COSINE) * self.speed
    }
}

/// Where and how a sweep first touches one triangle, in ellipsoid space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    /// Fraction of the move at the first touch, in `[0, 1]`.
    pub t: f64,
    /// The point of the triangle touched.
    pub point: DVec3,
    /// Unit normal of the sliding plane: from the point toward the centre at `t`, or,
    /// for a body held off the triangle's plane within the gap, the plane's own normal
    /// (within 3 degrees of that direction; see [`sweep_triangle`]).
    pub normal: DVec3,
    /// What was touched.
    pub feature: Feature,
}

/// The first touch of `sweep` with the triangle `tri` (ellipsoid-space vertices) no later
/// than `t_max`, or `None`. `inside` answers step 3: is a point of the triangle's plane
/// inside the triangle? (The caller maps it back to the triangle's own space and asks the
/// selected method.)
pub fn sweep_triangle(
    sweep: &EllipsoidSweep,
    tri: [DVec3; 3],
    t_max: f64,
    inside: impl Fn(DVec3) -> bool,
) -> Option<SweepHit> {
    let [a, b, c] = tri;
    // A triangle that a wild placement squashed to a line has no plane: its border
    // (edges and vertices) still collides.
    let Some(n) = (b - a).cross(c - a).try_normalize() else {
        return border(sweep, tri, sweep.radius, t_max);
    };
    // Step 1: the signed distance of the centre, seen from the start's side.
    let s0 = n.dot(sweep.start - a);
    let n = if s0 < 0.0 { -n } else { n };
    let s0 = s0.abs();
    let mut radius = sweep.radius;
    let closing = -n.dot(sweep.velocity);
    let approaches = closing > f64::from(PARALLEL_COSINE) * sweep.speed;
    // Held off the plane within its gap, no nearer it than the body itself (a walker
    // slid along a wall rests at the inner radius, give or take an `f32` position's last
    // bit, so a rounding inside the inner band at most). The body then comes no nearer
    // this triangle than it is to the plane unless it closes on the plane: a move that
    // does not touches nothing new, and what one that does meets holds it by the plane's
    // normal. An edge or vertex in that plane is no obstacle of its own: else the edge
    // that a flat wall's two triangles share (a quad's diagonal), seen from the triangle
    // beside the one rested on, was met at the contact radius, or handed a normal tilted
    // 2e-4 from the wall's, and a slide along the wall stopped there for good. Half a gap is the rounding that `border` grazes too.
    let held_off = grazing_radius(sweep, sweep.inner_radius);
    let held = s0 < radius && s0 >= held_off;
    if held && !approaches {
        return None;
    }
    if s0 < radius {
        // Near the plane: how near the triangle itself is decides.
        let closest = closest_point(sweep.start, tri);
        let offset = sweep.start - closest.point;
        let dist = offset.length();
        if dist < sweep.inner_radius {
            return embedded(sweep, closest, offset, dist, n, held);
        }
        if dist < radius {
            // Resting within the gap (against a wall, or on a floor): free to move
            // anywhere that keeps out of the inner band. A slide along a face that
            // passes its convex edge comes a rounding nearer the edge, not a gap.
            radius = sweep.inner_radius;
        }
    }
    let mut t_end = t_max;
    if s0 >= radius {
        if !approaches {
            return None; // parallel to the plane or leaving it, and outside the band
        }
        // Steps 2 and 3: where the sphere first touches the plane; inside the triangle,
        // it is the first contact.
        let t0 = (s0 - radius) / closing;
        if t0 > t_max {
            return None;
        }
        if let Some(hit) = face_touch(sweep, n, s0, closing, radius, t_max, &inside) {
            return Some(hit);
        }
        // The sphere has passed the plane by t1: nothing of the triangle is met after that.
        t_end = t_max.min((s0 + radius) / closing);
    }
    // Beside the face (or within the band of its plane, beside the triangle): to touch
    // the face the centre must first pass over an edge, and there the edge is nearest.
    let edge = border(sweep, tri, radius, t_end);
    // An edge only grazed (see `border`) lets the centre over the face no nearer than the
    // graze radius from the plane; still closing, it meets the face there.
    let face = approaches
        .then(|| {
            let until = edge.map_or(t_end, |hit| hit.t);
            let graze = grazing_radius(sweep, radius);
            face_touch(sweep, n, s0, closing, graze, until, &inside)
        })
        .flatten();
    let hit = face.or(edge);
    // Only where the centre is still held off the plane when it meets the triangle: the
    // true normal is then within 3 degrees of the plane's (the body's in-plane reach at
    // that height is the root of twice the gap). Farther on, past a real edge (a body
    // falling by a table's edge, or rounding a wall's end), the edge's own normal holds:
    // given the plane's, a falling walker hung on the edge as if on ground.
    match hit {
        Some(h) if held && s0 - closing * h.t >= held_off => Some(SweepHit { normal: n, ..h }),
        _ => hit,
    }
}

/// Steps 2 and 3 for a sphere of `radius` whose centre starts `s0` from the plane (unit
/// normal `n`, toward the centre) and closes on it by `closing` per unit of `t`: the
/// touch of the plane, when it comes within `[0, t_max]` at a point inside the triangle.
fn face_touch(
    sweep: &EllipsoidSweep,
    n: DVec3,
    s0: f64,
    closing: f64,
    radius: f64,
    t_max: f64,
    inside: &impl Fn(DVec3) -> bool,
) -> Option<SweepHit> {
    let t = (s0 - radius) / closing;
    if !(0.0..=t_max).contains(&t) {
        return None;
    }
    let point = sweep.centre_at(t) - n * radius;
    inside(point).then_some(SweepHit {
        t,
        point,
        normal: n,
        feature: Feature::Face,
    })
}

/// A start deeper than the inner band (placed there, or a rounding inside it): blocked at
/// once when the move approaches the triangle's closest point, free otherwise (the
/// distance to a convex set is convex along a line: not approaching now, it never does).
///
/// `held`: the body is held off the triangle's plane (see [`sweep_triangle`]); the
/// contact then has the face normal `n`, not the direction to an edge or vertex a
/// centimetre or so aside.
fn embedded(
    sweep: &EllipsoidSweep,
    closest: ClosestPoint,
    offset: DVec3,
    dist: f64,
    n: DVec3,
    held: bool,
) -> Option<SweepHit> {
    // A centre on the triangle itself has no direction to it: the face normal.
    let towards = if dist > ON_TRIANGLE { offset / dist } else { n };
    sweep.approaches(towards).then_some(SweepHit {
        t: 0.0,
        point: closest.point,
        normal: if held { n } else { towards },
        feature: closest.feature,
    })
}

/// The first touch of a sphere of `radius` with the triangle's vertices and edges, in
/// `[0, t_max]`, for a start that touches none of them.
///
/// A feature that the centre's line passes no nearer than half a gap inside `radius` is
/// grazed, not hit: a body resting on a floor at its contact distance (give or take the
/// rounding of `f32` positions), walking past the floor's edge, comes a hair within
/// `radius` of that edge and no nearer. The nearest approach is the vertex of the same
/// quadratic, so the test costs nothing.
fn border(sweep: &EllipsoidSweep, tri: [DVec3; 3], radius: f64, t_max: f64) -> Option<SweepHit> {
    let r2 = radius * radius;
    let graze = grazing_radius(sweep, radius);
    let graze2 = graze * graze;
    let v = sweep.velocity;
    let mut best: Option<(f64, DVec3, Feature)> = None;
    let mut limit = t_max;
    for &p in &tri {
        // |start + v t - p|^2 = r^2
        let base = sweep.start - p;
        let bv = base.dot(v);
        if base.length_squared() - bv * bv / sweep.speed2 >= graze2 {
            continue;
        }
        // A start already within `r` (by a rounding: the closest point said otherwise)
        // is met at the graze radius.
        let c = base.length_squared()
            - if base.length_squared() < r2 {
                graze2
            } else {
                r2
            };
        if c < 0.0 {
            continue;
        }
        if let Some(t) = lowest_root(sweep.speed2, 2.0 * bv, c, limit) {
            limit = t;
            best = Some((t, p, Feature::Vertex));
        }
    }
    for (p, q) in [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])] {
        // Distance from the centre to the edge's line equals r (Fauerby, section 4.4):
        // e2 (r^2 - dist(t)^2) = a t^2 + b t + c.
        let edge = q - p;
        let to_p = p - sweep.start;
        let (e2, ev, ep) = (edge.length_squared(), edge.dot(v), edge.dot(to_p));
        let a = ev * ev - e2 * sweep.speed2;
        // Moving along the edge's line: its distance never changes; the ends are vertices.
        if a.abs() <= ALONG_EDGE * e2 * sweep.speed2 {
            continue;
        }
        let b = 2.0 * (e2 * v.dot(to_p) - ev * ep);
        let mut c = e2 * (r2 - to_p.length_squared()) + ep * ep;
        // Nearest approach to the line, at the quadratic's vertex (a < 0: its maximum).
        if r2 - (c - b * b / (4.0 * a)) / e2 >= graze2 {
            continue;
        }
        if c > 0.0 {
            // Already within `r` of the edge's line, beside the edge's end (the closest
            // point is a vertex): the centre passes that vertex no nearer than the graze
            // radius (else the vertex is met), and then meets the edge at that radius.
            // (The root of `r` here would be the exit from the line's cylinder.)
            c -= e2 * (r2 - graze2);
            if c > 0.0 {
                continue;
            }
        }
        if let Some(t) = lowest_root(a, b, c, limit) {
            // Where along the edge the contact is: between its ends, or it is not this edge.
            let f = (ev * t - ep) / e2;
            if (0.0..=1.0).contains(&f) {
                limit = t;
                best = Some((t, p + edge * f, Feature::Edge));
            }
        }
    }
    best.map(|(t, point, feature)| {
        let normal = (sweep.centre_at(t) - point)
            .try_normalize()
            .unwrap_or(-v / sweep.speed);
        SweepHit {
            t,
            point,
            normal,
            feature,
        }
    })
}

/// A feature whose nearest approach to the centre's line is at least this is grazed, not
/// hit, by a sphere of `radius` (see [`border`]): half a gap inside `radius`.
fn grazing_radius(sweep: &EllipsoidSweep, radius: f64) -> f64 {
    radius - (sweep.radius - sweep.inner_radius)
}

/// The smallest root of `a t^2 + b t + c = 0` in `[0, t_max]`, if any. Computed the
/// cancellation-free way (Numerical Recipes 5.6) so that tiny roots of long moves keep
/// their digits.
fn lowest_root(a: f64, b: f64, c: f64, t_max: f64) -> Option<f64> {
    let disc = b * b - 4.0 * a * c;
    // A NaN discriminant (from non-finite input) is no root either.
    if disc.is_nan() || disc < 0.0 || a == 0.0 {
        return None;
    }
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    let (r1, r2) = (q / a, if q != 0.0 { c / q } else { q / a });
    let (lo, hi) = if r1 <= r2 { (r1, r2) } else { (r2, r1) };
    [lo, hi].into_iter().find(|t| (0.0..=t_max).contains(t))
}

#[cfg(test)]
mod tests;
