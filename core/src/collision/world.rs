//! The collision world: triangles in BVH order, the BVH, and the first-hit queries.

use std::ops::Range;
use std::sync::Arc;

use glam::{Vec3, Vec3A};

use super::bvh::{Bvh, Node, Visitor};
use super::narrow::{OverlapFinder, SweepFinder};
use super::reach::{Rest, SweepReach};
use super::revision::Revision;
use super::visit::{Overlap, Space, Sweep, WorldSpace};
use super::work::Watch;
use super::{Body, Collider, Contact, Probe};
use crate::geometry::{Aabb, InsideMethod, SlabRay, Triangle, safe_recip};
use crate::tolerance::BOX_MARGIN;

mod build;
mod parts;
pub use parts::{NodeRecord, WorldParts};

/// Counts describing a built world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldStats {
    /// Triangles kept.
    pub triangles: usize,
    /// Degenerate triangles dropped at build (zero area, repeated or non-finite vertices).
    pub dropped: usize,
    /// Triangles dropped at build because an earlier one has the same three corners.
    pub duplicates: usize,
    /// BVH nodes.
    pub nodes: usize,
    /// Depth of the deepest BVH leaf.
    pub depth: usize,
}

/// Every triangle of the map, ready for sweeps and ray casts.
#[derive(Clone, Debug, Default)]
pub struct CollisionWorld {
    /// Shared by the world's clones (a clone is cheap: the cache of built maps writes one
    /// beside the walk) until one of them is scaled or turned, which then copies them.
    triangles: Arc<Vec<Triangle>>,
    /// Shared as the triangles are.
    bvh: Arc<Bvh>,
    dropped: usize,
    duplicates: usize,
    bounds: Aabb,
    /// The tree's depth, found once at build (a walk of every node: 0.2 s at ten million
    /// triangles, too much for every [`CollisionWorld::stats`]).
    depth: usize,
    /// What its triangles are now: fresh when built, scaled or turned (see
    /// [`Collider::revision`]).
    revision: Revision,
}

impl CollisionWorld {
    /// Build from raw triangles (world coordinates). Degenerate ones are dropped and counted;
    /// no NaN or infinity ever enters the world. A map builds through
    /// [`CollisionWorld::from_corners`] instead, reading its vertices where they lie.
    pub fn new(raw: impl IntoIterator<Item = [Vec3; 3]>) -> CollisionWorld {
        let raw: Vec<[Vec3; 3]> = raw.into_iter().collect();
        CollisionWorld::from_corners(raw.len(), |i| raw[i])
    }

    /// Build from `count` triangles whose corners `corners(i)` gives (world coordinates),
    /// as [`CollisionWorld::new`] does, without a copy of them: see `world/build.rs`.
    /// `corners` is read more than once for a triangle, and must give the same corners
    /// each time (a slice read by index does).
    pub fn from_corners(
        count: usize,
        corners: impl Fn(usize) -> [Vec3; 3] + Sync,
    ) -> CollisionWorld {
        build::build(count, &corners)
    }

    /// This world scaled by `factor` about the origin: the same tree, refitted (its topology
    /// is scale-free), so a map whose scale is inferred after loading is not built twice.
    pub fn scaled(mut self, factor: f32) -> CollisionWorld {
        self.scale_by(factor);
        self
    }

    /// Scale this world in place by `factor` (the window's scale keys): the same tree,
    /// refitted. A factor that is not a positive number changes nothing.
    pub fn scale_by(&mut self, factor: f32) {
        if !(factor.is_finite() && factor > 0.0) || factor == 1.0 {
            return;
        }
        for t in Arc::make_mut(&mut self.triangles) {
            *t = t.scaled(factor);
        }
        self.refit();
    }

    /// This world turned by `rotate`, a rotation that only permutes and negates axes (a
    /// file's up axis turned to +Y): the same tree, refitted (a box turned so is a box).
    pub fn turned(mut self, rotate: impl Fn(Vec3) -> Vec3) -> CollisionWorld {
        for t in Arc::make_mut(&mut self.triangles) {
            *t = t.turned(&rotate);
        }
        self.refit();
        self
    }

    fn refit(&mut self) {
        let boxes: Vec<Aabb> = self.triangles.iter().map(Triangle::bounds).collect();
        Arc::make_mut(&mut self.bvh).refit(&boxes);
        self.bounds = self
            .bvh
            .nodes
            .first()
            .map_or(Aabb::EMPTY, |root| root.bounds());
        self.revision = Revision::fresh();
    }

    /// The kept triangles, in BVH order (`Contact::triangle` indexes this).
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
            duplicates: self.duplicates,
            nodes: self.bvh.nodes.len(),
            depth: self.depth,
        }
    }

    /// The same answer as [`Collider::sweep`], by testing every triangle (the
    /// tutorial's loop): the oracle the BVH's pruning is checked against. For tests and
    /// benchmarks.
    pub fn sweep_brute_force(&self, probe: &Probe, centre: Vec3, delta: Vec3) -> Option<Contact> {
        // Every triangle, with only the plane test before the exact one: none of the BVH's
        // pruning (its boxes, and the body's reach) has a say.
        let mut finder = SweepFinder::new(probe, centre, delta)?;
        let reach = SweepReach::new(&finder, probe.body.radii, centre, delta);
        for (i, tri) in self.triangles.iter().enumerate() {
            if reach.may_touch(tri) {
                WorldSpace.sweep(&mut finder, tri, i as u32);
            }
        }
        finder.best
    }

    /// [`Collider::sweep`], telling `watch` what it does (see [`super::work`]): the same
    /// traversal and the same answer whatever the watch.
    pub fn sweep_watched(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        watch: &mut impl Watch,
    ) -> Option<Contact> {
        self.sweep_with(probe, centre, delta, watch)
    }

    /// The sweep, its watch taken by value: `()` (a sweep watched by nothing) is then no
    /// field at all. Not inlined into its callers, so that each watch gets its own tight
    /// copy of the traversal.
    #[inline(never)]
    fn sweep_with<W: Watch>(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        watch: W,
    ) -> Option<Contact> {
        let mut finder = SweepFinder::new(probe, centre, delta)?;
        let mut query = Sweep::in_world(&self.triangles, &mut finder, probe, centre, delta, watch);
        self.bvh.traverse(&mut query);
        finder.best
    }

    /// Walk the BVH with `visitor` (placed models query their model's tree this way).
    pub(super) fn traverse(&self, visitor: &mut impl Visitor) {
        self.bvh.traverse(visitor);
    }

    /// A plain ray cast, without any body: the first triangle along the unit direction
    /// `dir` from `origin`, up to `max_dist`. Used to find floors, ceilings and spawn points.
    pub fn ray_cast(&self, origin: Vec3, dir: Vec3, max_dist: f32) -> Option<RayHit> {
        if !(origin.is_finite() && dir.is_finite() && max_dist >= 0.0) {
            return None;
        }
        let mut query = RayQuery {
            triangles: &self.triangles,
            origin,
            dir,
            ray: SlabRay::new(
                origin.into(),
                safe_recip(dir).into(),
                Vec3A::splat(BOX_MARGIN),
            ),
            max_dist,
            best: None,
        };
        self.bvh.traverse(&mut query);
        query.best
    }
}

impl CollisionWorld {
    /// Every triangle whose bounds meet the box `b` (indices into [`triangles`](Self::triangles),
    /// in the order the tree meets them): what a decal's box may cover. The one traversal,
    /// [`Bvh::traverse`], entering the boxes that meet `b`.
    pub fn triangles_in_box(&self, b: &Aabb) -> Vec<u32> {
        self.triangles_in_box_at_most(b, usize::MAX)
            .unwrap_or_default()
    }

    /// [`triangles_in_box`](Self::triangles_in_box), or `None` as soon as more than
    /// `most` are found: the search stops there, so a box over the whole of a big map
    /// (a hand-edited decal a kilometre wide) costs what `most` triangles cost.
    pub fn triangles_in_box_at_most(&self, b: &Aabb, most: usize) -> Option<Vec<u32>> {
        if !(b.min.is_finite() && b.max.is_finite()) || b.is_empty() {
            return Some(Vec::new());
        }
        let mut query = BoxQuery {
            triangles: &self.triangles,
            min: Vec3A::from(b.min),
            max: Vec3A::from(b.max),
            most,
            found: Vec::new(),
        };
        self.bvh.traverse(&mut query);
        (query.found.len() <= most).then_some(query.found)
    }
}

/// The BVH answers every query: the sweep (see [`super::sweep`] for the test of one
/// triangle) and the overlap both walk the one traversal, [`Bvh::traverse`].
impl Collider for CollisionWorld {
    fn sweep_seen(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        seen: Option<&mut Vec<u32>>,
    ) -> Option<Contact> {
        match seen {
            Some(seen) => self.sweep_watched(probe, centre, delta, seen),
            None => self.sweep_with(probe, centre, delta, ()),
        }
    }

    fn triangle(&self, index: u32) -> Option<[Vec3; 3]> {
        self.triangles().get(index as usize).map(|t| t.vertices())
    }

    fn nearest_overlap(&self, body: &Body, centre: Vec3) -> Option<Contact> {
        if !(centre.is_finite() && body.is_valid()) {
            return None;
        }
        let mut finder = OverlapFinder::new(body, centre);
        let around = WorldSpace.around(centre, body.reach() + Vec3::splat(BOX_MARGIN));
        let rest = Rest::new(body.radii, body.contact_radius(), centre);
        let mut query = Overlap::new(&self.triangles, WorldSpace, &mut finder, around, rest);
        self.bvh.traverse(&mut query);
        finder.best
    }

    fn revision(&self) -> Option<u64> {
        Some(self.revision.get())
    }
}

/// The first triangle a ray meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Distance along the ray's unit direction.
    pub distance: f32,
    /// Index of the triangle in the world.
    pub triangle: u32,
}

/// Every triangle whose box meets a box, as a BVH visitor.
struct BoxQuery<'a> {
    triangles: &'a [Triangle],
    min: Vec3A,
    max: Vec3A,
    /// Past this many found, the search stops (nothing more is entered).
    most: usize,
    found: Vec<u32>,
}

impl Visitor for BoxQuery<'_> {
    fn enter(&mut self, node: &Node) -> Option<f32> {
        (self.found.len() <= self.most && node.overlaps(self.min, self.max)).then_some(0.0)
    }

    fn visit_leaf(&mut self, range: Range<u32>) {
        for i in range {
            if self.found.len() > self.most {
                return;
            }
            let b = self.triangles[i as usize].bounds();
            if Vec3A::from(b.min).cmple(self.max).all() && Vec3A::from(b.max).cmpge(self.min).all()
            {
                self.found.push(i);
            }
        }
    }
}

/// A ray's first triangle, as a BVH visitor (Möller–Trumbore: the survey needs no method).
struct RayQuery<'a> {
    triangles: &'a [Triangle],
    origin: Vec3,
    dir: Vec3,
    ray: SlabRay,
    max_dist: f32,
    best: Option<RayHit>,
}

impl Visitor for RayQuery<'_> {
    fn enter(&mut self, node: &Node) -> Option<f32> {
        let t_max = self.best.map_or(self.max_dist, |b| b.distance);
        node.ray_entry(&self.ray, t_max)
    }

    fn visit_leaf(&mut self, range: Range<u32>) {
        for i in range {
            let tri = &self.triangles[i as usize];
            let t_max = self.best.map_or(self.max_dist, |b| b.distance);
            if let Some(t) = InsideMethod::MollerTrumbore.ray_hits(tri, self.origin, self.dir)
                && (0.0..t_max).contains(&t)
            {
                self.best = Some(RayHit {
                    distance: t,
                    triangle: i,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_triangles_are_kept_once_whatever_their_corner_order() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Y);
        let w = CollisionWorld::new([[a, b, c], [b, c, a], [c, b, a], [a, b, c + Vec3::Z]]);
        assert_eq!(w.stats().triangles, 2);
        assert_eq!(w.stats().duplicates, 2);
    }

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
        let body = Body::FLYER;
        for i in 0..500 {
            let p = Vec3::new(
                (i % 23) as f32 * 0.13,
                (i % 7) as f32 * 0.3,
                (i % 11) as f32 * 0.25,
            );
            let d = Vec3::new(((i * 7) % 5) as f32 - 2.0, 0.3, ((i * 3) % 5) as f32 - 2.0) * 0.2;
            // Scaling the precomputed fields rounds differently from recomputing them.
            let (a, b) = (
                scaled.sweep(&Probe::new(body, m), p, d),
                built.sweep(&Probe::new(body, m), p, d),
            );
            assert_eq!(a.is_some(), b.is_some(), "{p} {d}");
            if let (Some(a), Some(b)) = (a, b) {
                assert!((a.t - b.t).abs() < 1e-4, "{p} {d}: {} vs {}", a.t, b.t);
            }
            assert_eq!(
                scaled.sweep(&Probe::new(body, m), p, d),
                scaled.sweep_brute_force(&Probe::new(body, m), p, d)
            );
        }
        let (sb, bb) = (scaled.bounds(), built.bounds());
        assert!((sb.min - bb.min).length() < 1e-5 && (sb.max - bb.max).length() < 1e-5);
    }

    #[test]
    fn the_box_query_finds_exactly_the_triangles_whose_boxes_meet_it() {
        // A grid of small triangles; every box of a sweep of boxes against brute force.
        let tris: Vec<[Vec3; 3]> = (0..400)
            .map(|i| {
                let o = Vec3::new((i % 20) as f32, (i / 20) as f32 * 0.5, (i % 7) as f32 * 0.3);
                [
                    o,
                    o + Vec3::new(0.4, 0.0, 0.1),
                    o + Vec3::new(0.0, 0.3, 0.2),
                ]
            })
            .collect();
        let w = CollisionWorld::new(tris.iter().copied());
        for k in 0..50 {
            let c = Vec3::new((k * 7 % 20) as f32, (k % 10) as f32, (k % 3) as f32);
            let b = Aabb::from_points([c - Vec3::splat(0.7), c + Vec3::splat(0.9)]);
            let mut got = w.triangles_in_box(&b);
            got.sort_unstable();
            let want: Vec<u32> = (0..w.triangles().len() as u32)
                .filter(|&i| {
                    let t = w.triangles()[i as usize].bounds();
                    t.min.cmple(b.max).all() && t.max.cmpge(b.min).all()
                })
                .collect();
            assert_eq!(got, want, "box {k}");
        }
        assert!(w.triangles_in_box(&Aabb::EMPTY).is_empty());
    }

    /// A box over more than `most` triangles is answered `None`, one over no more with
    /// all of them (a decal a kilometre wide gathered a whole map).
    #[test]
    fn a_box_search_stops_past_the_most_it_may_find() {
        let tris: Vec<[Vec3; 3]> = (0..100)
            .map(|i| {
                let o = Vec3::new(i as f32, 0.0, 0.0);
                [o, o + Vec3::X * 0.5, o + Vec3::Z * 0.5]
            })
            .collect();
        let w = CollisionWorld::new(tris.iter().copied());
        let first = |n: f32| Aabb::from_points([Vec3::splat(-0.1), Vec3::new(n - 0.6, 1.0, 1.0)]);
        let ten = w
            .triangles_in_box_at_most(&first(10.0), 10)
            .expect("ten is not more than ten");
        assert_eq!(ten.len(), 10);
        assert_eq!(w.triangles_in_box_at_most(&first(11.0), 10), None);
        assert_eq!(w.triangles_in_box_at_most(&first(100.0), 0), None);
        assert_eq!(w.triangles_in_box(&first(100.0)).len(), 100);
    }

    #[test]
    fn empty_world_never_hits() {
        let w = CollisionWorld::new([]);
        let probe = Probe::new(Body::WALKER, InsideMethod::Barycentric);
        assert!(w.sweep(&probe, Vec3::ZERO, Vec3::X).is_none());
        assert!(w.nearest_overlap(&Body::WALKER, Vec3::ZERO).is_none());
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
        let b = &Probe::new(Body::FLYER, InsideMethod::Barycentric);
        assert!(w.sweep(b, Vec3::Z, Vec3::ZERO).is_none());
        assert!(w.sweep(b, Vec3::Z, Vec3::new(0.0, 0.0, f32::NAN)).is_none());
        assert!(w.sweep(b, Vec3::splat(f32::NAN), -Vec3::Z).is_none());
        let point = b.with_body(Body::sphere(0.0));
        assert!(w.sweep(&point, Vec3::Z, -Vec3::Z * 2.0).is_none());
        let hit = w
            .sweep(b, Vec3::Z, -Vec3::Z * 2.0)
            .expect("head-on into the face");
        // The sphere stops one skin (and the contact gap) above the face: t = (1 - r) / 2.
        let want = (1.0 - f64::from(Body::FLYER.rest_distance(Vec3::Z))) / 2.0;
        assert!((hit.t - want).abs() < 1e-6, "{} vs {want}", hit.t);
        assert_eq!(hit.normal, Vec3::Z);
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
        let down = w
            .ray_cast(Vec3::new(0.0, 1.0, 0.0), -Vec3::Y, 100.0)
            .unwrap();
        assert!((down.distance - 1.0).abs() < 1e-6, "{down:?}");
        assert_eq!(w.triangles()[down.triangle as usize].a.y, 0.0);
        let up = w
            .ray_cast(Vec3::new(0.0, 1.0, 0.0), Vec3::Y, 100.0)
            .unwrap();
        assert!((up.distance - 2.0).abs() < 1e-6);
        assert_eq!(w.triangles()[up.triangle as usize].a.y, 3.0);
        assert!(w.ray_cast(Vec3::new(0.0, 1.0, 0.0), Vec3::Y, 1.5).is_none());
    }
}
