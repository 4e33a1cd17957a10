//! The collision world: triangles in BVH order, the BVH, and the first-hit queries.

use glam::{Vec3, Vec3A};

use super::bvh::{Bvh, STACK_DEPTH};
use super::segment::{Band, Hit, hit_triangle};
use crate::geometry::{Aabb, InsideMethod, Triangle, safe_recip};
use crate::tolerance::{MIN_MOVE, SKIN};

/// Extra inflation of the BVH boxes beyond the skin, so that rounding in the slab test
/// never drops a candidate the triangle test would accept (world units).
pub const BOX_MARGIN: f32 = 1e-3;
/// How far a first-hit query inflates every BVH box: a move is stopped by triangles it
/// passes within the skin of.
const QUERY_MARGIN: f32 = SKIN + BOX_MARGIN;

/// Counts describing a built world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldStats {
    /// Triangles kept.
    pub triangles: usize,
    /// Degenerate triangles dropped at build (zero area, repeated or non-finite vertices).
    pub dropped: usize,
    /// BVH nodes.
    pub nodes: usize,
    /// Depth of the deepest BVH leaf.
    pub depth: usize,
}

/// Every triangle of the map, ready for segment queries.
#[derive(Clone, Debug, Default)]
pub struct CollisionWorld {
    triangles: Vec<Triangle>,
    bvh: Bvh,
    dropped: usize,
    bounds: Aabb,
}

impl CollisionWorld {
    /// Build from raw triangles (world coordinates). Degenerate ones are dropped and counted;
    /// no NaN or infinity ever enters the world.
    pub fn new(raw: impl IntoIterator<Item = [Vec3; 3]>) -> CollisionWorld {
        let raw = raw.into_iter();
        let mut triangles = Vec::with_capacity(raw.size_hint().0);
        let mut dropped = 0;
        for [a, b, c] in raw {
            match Triangle::new(a, b, c) {
                Some(t) => triangles.push(t),
                None => dropped += 1,
            }
        }
        let boxes: Vec<Aabb> = triangles.iter().map(Triangle::bounds).collect();
        let (bvh, order) = Bvh::build(&boxes);
        let triangles: Vec<Triangle> = order.iter().map(|&i| triangles[i as usize]).collect();
        let bounds = bvh.nodes.first().map_or(Aabb::EMPTY, |root| root.bounds());
        CollisionWorld {
            triangles,
            bvh,
            dropped,
            bounds,
        }
    }

    /// This world scaled by `factor` about the origin: the same tree, refitted (its topology
    /// is scale-free), so a map whose scale is inferred after loading is not built twice.
    pub fn scaled(mut self, factor: f32) -> CollisionWorld {
        if !(factor.is_finite() && factor > 0.0) || factor == 1.0 {
            return self;
        }
        for t in &mut self.triangles {
            *t = t.scaled(factor);
        }
        let boxes: Vec<Aabb> = self.triangles.iter().map(Triangle::bounds).collect();
        self.bvh.refit(&boxes);
        self.bounds = self
            .bvh
            .nodes
            .first()
            .map_or(Aabb::EMPTY, |root| root.bounds());
        self
    }

    /// The kept triangles, in BVH order (`Hit::triangle` indexes this).
    pub fn triangles(&self) -> &[Triangle] {
        &self.triangles
    }

    /// Bounds of all triangles (not inflated); empty for an empty world.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Sizes and counts.
    pub fn stats(&self) -> WorldStats {
        WorldStats {
            triangles: self.triangles.len(),
            dropped: self.dropped,
            nodes: self.bvh.nodes.len(),
            depth: self.bvh.depth(),
        }
    }

    /// The first triangle that stops the move `p0 -> p0 + d`, found through the BVH.
    pub fn first_hit(&self, p0: Vec3, d: Vec3, method: InsideMethod) -> Option<Hit> {
        self.first_hit_with(p0, d, method, QUERY_MARGIN, |t| Band::orthogonal(t, SKIN))
    }

    /// [`first_hit`](Self::first_hit) with a skin band chosen per triangle (a placed
    /// model's own space stretches the skin differently along each normal). `margin`, the
    /// inflation of the BVH boxes, must be at least the largest skin `band_of` returns plus
    /// a rounding margin.
    #[inline]
    pub fn first_hit_with(
        &self,
        p0: Vec3,
        d: Vec3,
        method: InsideMethod,
        margin: f32,
        band_of: impl Fn(&Triangle) -> Band,
    ) -> Option<Hit> {
        let len = d.length();
        if !(len >= MIN_MOVE && len.is_finite() && p0.is_finite()) || self.bvh.nodes.is_empty() {
            return None;
        }
        let (o, inv) = (Vec3A::from(p0), Vec3A::from(safe_recip(d)));
        let nodes = &self.bvh.nodes;
        let mut best: Option<Hit> = None;
        let mut stack = [0u32; STACK_DEPTH];
        let mut sp = 0;
        if nodes[0].ray_entry(o, inv, 1.0, margin).is_some() {
            stack[0] = 0;
            sp = 1;
        }
        while sp > 0 {
            sp -= 1;
            let node = &nodes[stack[sp] as usize];
            let t_max = best.map_or(1.0, |h| h.t);
            if node.is_leaf() {
                for i in node.first..node.first + node.count {
                    let tri = &self.triangles[i as usize];
                    if let Some((t, normal)) = hit_triangle(tri, p0, d, len, method, band_of(tri))
                        && t <= t_max
                    {
                        best = Some(
                            Hit {
                                t,
                                triangle: i,
                                normal,
                            }
                            .earlier(best),
                        );
                    }
                }
                continue;
            }
            // Visit the nearer child first so that the other is often pruned.
            let (l, r) = (node.first, node.first + 1);
            let tl = nodes[l as usize].ray_entry(o, inv, t_max, margin);
            let tr = nodes[r as usize].ray_entry(o, inv, t_max, margin);
            let mut push = |i: u32| {
                debug_assert!(sp < STACK_DEPTH, "BVH deeper than its traversal stack");
                if sp < STACK_DEPTH {
                    stack[sp] = i;
                    sp += 1;
                }
            };
            match (tl, tr) {
                (Some(a), Some(b)) if a <= b => {
                    push(r);
                    push(l);
                }
                (Some(_), Some(_)) => {
                    push(l);
                    push(r);
                }
                (Some(_), None) => push(l),
                (None, Some(_)) => push(r),
                (None, None) => {}
            }
        }
        best
    }

    /// The same answer as [`first_hit`](Self::first_hit), by testing every triangle (the
    /// tutorial's loop). For tests and benchmarks.
    pub fn first_hit_brute_force(&self, p0: Vec3, d: Vec3, method: InsideMethod) -> Option<Hit> {
        let len = d.length();
        if !(len >= MIN_MOVE && len.is_finite() && p0.is_finite()) {
            return None;
        }
        let mut best = None;
        for (i, tri) in self.triangles.iter().enumerate() {
            if let Some((t, normal)) =
                hit_triangle(tri, p0, d, len, method, Band::orthogonal(tri, SKIN))
            {
                best = Some(
                    Hit {
                        t,
                        triangle: i as u32,
                        normal,
                    }
                    .earlier(best),
                );
            }
        }
        best
    }

    /// A plain ray cast, without skin: the distance along the unit direction `dir` to the
    /// first triangle, up to `max_dist`. Used to find floors, ceilings and spawn points.
    pub fn ray_cast(&self, origin: Vec3, dir: Vec3, max_dist: f32) -> Option<(f32, u32)> {
        if self.bvh.nodes.is_empty() || !origin.is_finite() || !dir.is_finite() {
            return None;
        }
        let (o, inv) = (Vec3A::from(origin), Vec3A::from(safe_recip(dir)));
        let nodes = &self.bvh.nodes;
        let mut best: Option<(f32, u32)> = None;
        let mut stack = [0u32; STACK_DEPTH];
        let mut sp = 0;
        if nodes[0].ray_entry(o, inv, max_dist, BOX_MARGIN).is_some() {
            sp = 1;
        }
        while sp > 0 {
            sp -= 1;
            let node = &nodes[stack[sp] as usize];
            let t_max = best.map_or(max_dist, |b| b.0);
            if node.is_leaf() {
                for i in node.first..node.first + node.count {
                    let tri = &self.triangles[i as usize];
                    if let Some(t) = InsideMethod::MollerTrumbore.ray_hits(tri, origin, dir)
                        && t >= 0.0
                        && t < best.map_or(max_dist, |b| b.0)
                    {
                        best = Some((t, i));
                    }
                }
                continue;
            }
            for c in [node.first, node.first + 1] {
                if nodes[c as usize]
                    .ray_entry(o, inv, t_max, BOX_MARGIN)
                    .is_some()
                    && sp < STACK_DEPTH
                {
                    stack[sp] = c;
                    sp += 1;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_triangles_are_dropped_and_counted() {
        let w = CollisionWorld::new([
            [Vec3::ZERO, Vec3::X, Vec3::Y],
            [Vec3::ZERO, Vec3::X, Vec3::X * 2.0],
            [Vec3::ZERO, Vec3::ZERO, Vec3::ZERO],
            [Vec3::ZERO, Vec3::X, Vec3::new(f32::NAN, 0.0, 0.0)],
        ]);
        assert_eq!(w.stats().triangles, 1);
        assert_eq!(w.stats().dropped, 3);
    }

    #[test]
    fn scaled_world_answers_like_a_world_built_at_that_scale() {
        let tris: Vec<[Vec3; 3]> = (0..200)
            .map(|i| {
                let o = Vec3::new(
                    (i % 10) as f32 * 300.0,
                    (i / 10 % 4) as f32 * 500.0,
                    (i / 40) as f32 * 700.0,
                );
                [
                    o,
                    o + Vec3::new(250.0, 0.0, 0.0),
                    o + Vec3::new(0.0, 400.0, 100.0),
                ]
            })
            .collect();
        let scaled = CollisionWorld::new(tris.iter().copied()).scaled(0.001);
        let built = CollisionWorld::new(tris.iter().map(|t| t.map(|v| v * 0.001)));
        let m = InsideMethod::Barycentric;
        for i in 0..500 {
            let p = Vec3::new(
                (i % 23) as f32 * 0.13,
                (i % 7) as f32 * 0.3,
                (i % 11) as f32 * 0.25,
            );
            let d = Vec3::new(((i * 7) % 5) as f32 - 2.0, 0.3, ((i * 3) % 5) as f32 - 2.0) * 0.2;
            // Scaling the precomputed fields rounds differently from recomputing them.
            let (a, b) = (scaled.first_hit(p, d, m), built.first_hit(p, d, m));
            assert_eq!(a.is_some(), b.is_some(), "{p} {d}");
            if let (Some(a), Some(b)) = (a, b) {
                assert!((a.t - b.t).abs() < 1e-4, "{p} {d}: {} vs {}", a.t, b.t);
            }
            assert_eq!(
                scaled.first_hit(p, d, m),
                scaled.first_hit_brute_force(p, d, m)
            );
        }
        let (sb, bb) = (scaled.bounds(), built.bounds());
        assert!((sb.min - bb.min).length() < 1e-5 && (sb.max - bb.max).length() < 1e-5);
    }

    #[test]
    fn empty_world_never_hits() {
        let w = CollisionWorld::new([]);
        assert!(
            w.first_hit(Vec3::ZERO, Vec3::X, InsideMethod::Barycentric)
                .is_none()
        );
        assert!(w.ray_cast(Vec3::ZERO, Vec3::X, 10.0).is_none());
        assert!(w.bounds().is_empty());
    }

    #[test]
    fn nan_or_zero_moves_never_hit() {
        let w = CollisionWorld::new([[
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::Y,
        ]]);
        let m = InsideMethod::Barycentric;
        assert!(w.first_hit(Vec3::Z, Vec3::ZERO, m).is_none());
        assert!(
            w.first_hit(Vec3::Z, Vec3::new(0.0, 0.0, f32::NAN), m)
                .is_none()
        );
        assert!(w.first_hit(Vec3::splat(f32::NAN), -Vec3::Z, m).is_none());
        assert!(w.first_hit(Vec3::Z, -Vec3::Z * 2.0, m).is_some());
    }

    #[test]
    fn ray_cast_finds_nearest_triangle() {
        let floor = |y: f32| {
            [
                Vec3::new(-5.0, y, -5.0),
                Vec3::new(5.0, y, -5.0),
                Vec3::new(0.0, y, 5.0),
            ]
        };
        let w = CollisionWorld::new([floor(0.0), floor(3.0), floor(-2.0)]);
        let (d, _) = w
            .ray_cast(Vec3::new(0.0, 1.0, 0.0), -Vec3::Y, 100.0)
            .unwrap();
        assert!((d - 1.0).abs() < 1e-6, "{d}");
        let (d, _) = w
            .ray_cast(Vec3::new(0.0, 1.0, 0.0), Vec3::Y, 100.0)
            .unwrap();
        assert!((d - 2.0).abs() < 1e-6);
        assert!(w.ray_cast(Vec3::new(0.0, 1.0, 0.0), Vec3::Y, 1.5).is_none());
    }
}
