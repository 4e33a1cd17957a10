//! Polygons to triangles.
//!
//! tobj's own triangulation fans every polygon from its first vertex, which is wrong for
//! a concave polygon (the fan covers area outside it). We triangulate ourselves, in the
//! polygon's own plane (Newell's normal, in f64): a convex polygon is fanned, anything
//! else goes to earcut (Mapbox's ear clipping with a z-order index, which keeps large
//! polygons near O(n log n) where plain ear clipping is O(n^2)).

use std::f64::consts::{PI, TAU};

use glam::{DVec2, DVec3, Vec3};

/// How a polygon was triangulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Fewer than three distinct corners, or no area: nothing to draw or collide with.
    Degenerate,
    /// Convex (or a triangle): fanned.
    Convex,
    /// Concave: ear-clipped.
    Concave,
    /// Self-intersecting: triangles that cover it as well as ear clipping can, whose area
    /// differs from the polygon's.
    Fallback,
    /// Concave, with more than [`MAX_CLIPPED_CORNERS`]: left out, no triangles.
    TooLarge,
}

/// Most corners of a concave polygon that is ear-clipped. Ear clipping a spiky star costs
/// O(n^2) whatever the index (100,000 corners took 4 to 6 s, 600,000 over a minute);
/// past this (about 2 s at worst) a concave polygon is left out, so
/// that any file loads in time bounded by its size. A convex polygon of any size is fanned.
pub const MAX_CLIPPED_CORNERS: usize = 65_536;

/// A corner this many f32 roundings (of the polygon's largest coordinate) from the line
/// through its neighbours counts as on it: a finely divided circle stored in f32 has
/// corners that dent inward by rounding alone, and is still meant convex.
const ROUNDINGS_STRAIGHT: f64 = 8.0;

/// Triangles whose total area differs from the polygon's by more than this share mean the
/// polygon crosses itself.
const AREA_MISMATCH: f64 = 1e-3;

/// Triangulate a polygon given by its corner positions. Appends triangles as triples of
/// corner indices (`0..points.len()`) to `out`, each wound like the polygon.
pub fn triangulate(points: &[Vec3], out: &mut Vec<[usize; 3]>) -> Kind {
    // A corner equal to the one before it adds nothing (faces often repeat a corner), and
    // would only give earcut zero-length edges.
    let mut keep: Vec<usize> = (0..points.len())
        .filter(|&i| i == 0 || points[i] != points[i - 1])
        .collect();
    while keep.len() > 1 && points[keep[keep.len() - 1]] == points[keep[0]] {
        keep.pop();
    }
    let start = out.len();
    let kind = triangulate_distinct(points, &keep, out);
    for t in &mut out[start..] {
        *t = t.map(|i| keep[i]);
    }
    kind
}

/// [`triangulate`] of the corners `points[keep[i]]`, no two neighbours equal; indices in
/// `out` are into `keep`.
fn triangulate_distinct(points: &[Vec3], keep: &[usize], out: &mut Vec<[usize; 3]>) -> Kind {
    let n = keep.len();
    if n < 3 {
        return Kind::Degenerate;
    }
    if n == 3 {
        out.push([0, 1, 2]);
        return Kind::Convex;
    }
    // Relative to the first corner, in f64: far from the origin, f32 differences of
    // neighbouring corners would round away the turns of a finely divided circle.
    let origin = points[keep[0]].as_dvec3();
    let rel: Vec<DVec3> = keep
        .iter()
        .map(|&i| points[i].as_dvec3() - origin)
        .collect();
    // Newell's normal: robust for any planar (or nearly planar) polygon.
    let mut normal = DVec3::ZERO;
    for i in 0..n {
        let (a, b) = (rel[i], rel[(i + 1) % n]);
        normal += DVec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        );
    }
    let Some(normal) = normal.try_normalize() else {
        return Kind::Degenerate;
    };
    // A 2D frame in the polygon's plane, counter-clockwise seen from the normal.
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let flat: Vec<DVec2> = rel.iter().map(|p| DVec2::new(p.dot(u), p.dot(v))).collect();
    let fan = |out: &mut Vec<[usize; 3]>| out.extend((1..n - 1).map(|i| [0, i, i + 1]));

    let largest = keep
        .iter()
        .map(|&i| points[i].abs().max_element())
        .fold(0.0, f32::max);
    let straight = ROUNDINGS_STRAIGHT * f64::from(f32::EPSILON) * f64::from(largest);
    let turns = Turns::of(&flat, straight);
    if !turns.reflex && (turns.total - TAU).abs() < TURN_SLACK {
        fan(out);
        return Kind::Convex;
    }
    if turns.total.abs() > TAU + PI {
        // Wound round more than once: no triangulation of it is right, and ear clipping
        // such a ring of many corners costs O(n^2). A fan covers its corners.
        fan(out);
        return Kind::Fallback;
    }

    if n > MAX_CLIPPED_CORNERS {
        return Kind::TooLarge;
    }
    let start = out.len();
    let mut indices: Vec<u32> = Vec::with_capacity(3 * n);
    earcut::Earcut::new().earcut(flat.iter().map(|p| [p.x, p.y]), &[] as &[u32], &mut indices);
    let mut covered = 0.0;
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
        let turn = (flat[b] - flat[a]).perp_dot(flat[c] - flat[a]);
        covered += turn.abs() / 2.0;
        // Wind each triangle like the polygon (counter-clockwise in its frame).
        out.push(if turn >= 0.0 { [a, b, c] } else { [a, c, b] });
    }
    if out.len() == start {
        // Nothing earcut could cut: a fan at least covers the corners.
        fan(out);
        return Kind::Fallback;
    }
    let area = (0..n)
        .map(|i| flat[i].perp_dot(flat[(i + 1) % n]))
        .sum::<f64>()
        / 2.0;
    if (covered - area.abs()).abs() > AREA_MISMATCH * covered.max(area.abs()) {
        Kind::Fallback
    } else {
        Kind::Concave
    }
}

/// How far the turns of a convex polygon may add up from one full turn, radians.
const TURN_SLACK: f64 = 1e-3;

/// How a closed polygon turns at its corners.
struct Turns {
    /// Some corner turns right by more than rounding.
    reflex: bool,
    /// The turns added up, radians: 2 pi for a simple polygon wound counter-clockwise.
    total: f64,
}

impl Turns {
    /// The turns of `flat`; a corner within `straight` of the line through its neighbours
    /// is not reflex.
    fn of(flat: &[DVec2], straight: f64) -> Turns {
        let n = flat.len();
        let mut turns = Turns {
            reflex: false,
            total: 0.0,
        };
        for i in 0..n {
            let (o, a, b) = (flat[i], flat[(i + 1) % n], flat[(i + 2) % n]);
            let (d1, d2) = (a - o, b - a);
            // Twice the area of (o, a, b): the distance of a from line o-b times |b - o|.
            let turn = d1.perp_dot(d2);
            turns.reflex |= turn < -straight * (b - o).length();
            turns.total += turn.atan2(d1.dot(d2));
        }
        turns
    }
}

#[cfg(test)]
mod tests;
