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
            // Does the ray cross the triangle's plane before `t_max` (signed distances of
            // its two ends)? Most triangles of a leaf a short ray passes are off to one
            // side, and two dot products turn them away.
            let ends = (
                tri.plane.signed_distance(self.origin),
                tri.plane.signed_distance(self.origin + self.dir * t_max),
            );
            if ends.0 * ends.1 > 0.0 {
                continue;
            }
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
mod tests;
