//! The collision world: triangles in BVH order, the BVH, and the first-hit queries.

use glam::Vec3;

use super::bvh::{Bvh, STACK_DEPTH};
use super::segment::{Hit, hit_triangle};
use crate::geometry::{Aabb, InsideMethod, Triangle};
use crate::tolerance::{MIN_MOVE, SKIN};

/// Extra inflation of the BVH boxes beyond the skin, so that rounding in the slab test
/// never drops a candidate the triangle test would accept (world units).
const BOX_MARGIN: f32 = 1e-3;

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
        let mut dropped = 0;
        let triangles: Vec<Triangle> = raw
            .into_iter()
            .filter_map(|[a, b, c]| {
                let t = Triangle::new(a, b, c);
                dropped += t.is_none() as usize;
                t
            })
            .collect();
        let boxes: Vec<Aabb> = triangles
            .iter()
            .map(|t| t.bounds().inflated(SKIN + BOX_MARGIN))
            .collect();
        let (bvh, order) = Bvh::build(&boxes);
        let triangles: Vec<Triangle> = order.iter().map(|&i| triangles[i as usize]).collect();
        let bounds = triangles
            .iter()
            .fold(Aabb::EMPTY, |b, t| b.union(t.bounds()));
        CollisionWorld {
            triangles,
            bvh,
            dropped,
            bounds,
        }
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
        let len = d.length();
        if !(len >= MIN_MOVE && len.is_finite() && p0.is_finite()) || self.bvh.nodes.is_empty() {
            return None;
        }
        let inv = d.recip();
        let nodes = &self.bvh.nodes;
        let mut best: Option<Hit> = None;
        let mut stack = [0u32; STACK_DEPTH];
        let mut sp = 0;
        if nodes[0].bounds.ray_entry(p0, inv, 1.0).is_some() {
            stack[0] = 0;
            sp = 1;
        }
        while sp > 0 {
            sp -= 1;
            let node = &nodes[stack[sp] as usize];
            let t_max = best.map_or(1.0, |h| h.t);
            if node.is_leaf() {
                for i in node.first..node.first + node.count {
                    if let Some((t, normal)) =
                        hit_triangle(&self.triangles[i as usize], p0, d, len, method)
                    {
                        if t <= t_max {
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
                }
                continue;
            }
            // Visit the nearer child first so that the other is often pruned.
            let (l, r) = (node.first, node.first + 1);
            let tl = nodes[l as usize].bounds.ray_entry(p0, inv, t_max);
            let tr = nodes[r as usize].bounds.ray_entry(p0, inv, t_max);
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
            if let Some((t, normal)) = hit_triangle(tri, p0, d, len, method) {
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
        let inv = dir.recip();
        let nodes = &self.bvh.nodes;
        let mut best: Option<(f32, u32)> = None;
        let mut stack = [0u32; STACK_DEPTH];
        let mut sp = 0;
        if nodes[0].bounds.ray_entry(origin, inv, max_dist).is_some() {
            sp = 1;
        }
        while sp > 0 {
            sp -= 1;
            let node = &nodes[stack[sp] as usize];
            let t_max = best.map_or(max_dist, |b| b.0);
            if node.is_leaf() {
                for i in node.first..node.first + node.count {
                    let tri = &self.triangles[i as usize];
                    if let Some(t) = InsideMethod::MollerTrumbore.ray_hits(tri, origin, dir) {
                        if t >= 0.0 && t < best.map_or(max_dist, |b| b.0) {
                            best = Some((t, i));
                        }
                    }
                }
                continue;
            }
            for c in [node.first, node.first + 1] {
                if nodes[c as usize]
                    .bounds
                    .ray_entry(origin, inv, t_max)
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
