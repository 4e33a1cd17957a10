//! The one sweep visitor and the one overlap visitor of a tree of triangles, generic over
//! the space the tree is in: the map's own world (its triangles are world space) or a
//! placed model (model space, each triangle baked through the placement's matrix before
//! the narrow phase, see [`super::instances`]). The placements' own tree hands each
//! placement near a query to these same visitors.
//!
//! What differs is only the transform, a [`Space`], and what may be pruned beyond the
//! tree's boxes, a cull: in world space the body's reach ([`SweepReach`], [`Rest`])
//! prunes boxes and triangles the swept box lets through; a placed model's boxes are in
//! model space, where the body is no ellipsoid, so it has none (`()`). Both are type
//! parameters, so each use compiles to its own loop (no dynamic dispatch in the
//! traversal): the world's sweep does the same work as when it had a visitor of its own
//! (the exact counts of `tests/work.rs`).

use std::ops::Range;

use glam::{Vec3, Vec3A};

use super::Probe;
use super::bvh::{Node, Visitor};
use super::narrow::{OverlapFinder, SweepFinder, prune_bound};
use super::reach::{Rest, SweepReach};
use super::work::Watch;
use crate::geometry::{SlabRay, Triangle, safe_recip};
use crate::tolerance::BOX_MARGIN;

/// The space a tree of triangles is in, and how its triangles reach world space, where
/// the narrow phase runs.
pub(super) trait Space: Copy {
    /// The number a contact with the tree's triangle `i` carries.
    fn index(self, i: u32) -> u32;

    /// Sweep `finder` against the tree's triangle `tri` (numbered `index`), in world space.
    fn sweep(self, finder: &mut SweepFinder, tri: &Triangle, index: u32);

    /// Ask `finder` whether the body at rest overlaps the tree's triangle `tri` (numbered
    /// `index`), in world space.
    fn overlap(self, finder: &mut OverlapFinder, tri: &Triangle, index: u32);

    /// The slab test's ray for the world segment `p0 -> p0 + d` grown by the world
    /// half-extents `half`, in this space.
    fn segment(self, p0: Vec3, d: Vec3, half: Vec3) -> SlabRay;

    /// The box about the world point `centre` with world half-extents `half`, in this
    /// space: its smallest and largest corners.
    fn around(self, centre: Vec3, half: Vec3) -> [Vec3A; 2];
}

/// The map's own space: its triangles are in world space already.
#[derive(Clone, Copy, Debug)]
pub(super) struct WorldSpace;

impl Space for WorldSpace {
    #[inline(always)]
    fn index(self, i: u32) -> u32 {
        i
    }

    #[inline(always)]
    fn sweep(self, finder: &mut SweepFinder, tri: &Triangle, index: u32) {
        finder.consider(tri.vertices(), index, || Some(tri));
    }

    #[inline(always)]
    fn overlap(self, finder: &mut OverlapFinder, tri: &Triangle, index: u32) {
        finder.consider(tri.vertices(), tri.plane.normal, index);
    }

    #[inline(always)]
    fn segment(self, p0: Vec3, d: Vec3, half: Vec3) -> SlabRay {
        SlabRay::new(p0.into(), safe_recip(d).into(), half.into())
    }

    #[inline(always)]
    fn around(self, centre: Vec3, half: Vec3) -> [Vec3A; 2] {
        let (c, h) = (Vec3A::from(centre), Vec3A::from(half));
        [c - h, c + h]
    }
}

/// What a sweep may prune beyond the slab test of the tree's boxes.
pub(super) trait SweepCull {
    /// The entry parameter of a box the slab test enters at `t` (the later of the two), or
    /// `None` when the body cannot touch it up to fraction `until` of the move.
    fn enter(&mut self, node: &Node, t: f32, until: f32, finder: &SweepFinder) -> Option<f32>;

    /// Is the tree's triangle `tri` worth the exact sweep, up to fraction `until`?
    fn admits(&mut self, tri: &Triangle, until: f32, finder: &SweepFinder) -> bool;

    /// How far the body starts from `node`'s box (any measure growing with the distance:
    /// which of two boxes entered together is searched first).
    fn distance(&self, node: &Node) -> f32;
}

/// No cull: the slab test alone (a placed model's tree, in model space).
impl SweepCull for () {
    #[inline(always)]
    fn enter(&mut self, _: &Node, t: f32, _: f32, _: &SweepFinder) -> Option<f32> {
        Some(t)
    }

    #[inline(always)]
    fn admits(&mut self, _: &Triangle, _: f32, _: &SweepFinder) -> bool {
        true
    }

    #[inline(always)]
    fn distance(&self, _: &Node) -> f32 {
        0.0
    }
}

/// The body's reach, in world space: the quick plane test, then the reach, before the
/// exact sweep; the reach for boxes small enough that the body's roundness matters.
impl SweepCull for SweepReach {
    #[inline(always)]
    fn enter(&mut self, node: &Node, t: f32, until: f32, finder: &SweepFinder) -> Option<f32> {
        // Boxes wider than the body are left to the slab test alone (on open ground,
        // asking them cost more than it saved); the rest are skipped when the move
        // leaves them behind, then asked the reach.
        if !self.worth_asking(node.span()) {
            return Some(t);
        }
        if self.leaves_box(node.lo(), node.hi()) {
            return None;
        }
        let t = t.max(self.reach(finder).entry(node.lo(), node.hi(), until)?);
        (t <= until).then_some(t)
    }

    #[inline(always)]
    fn admits(&mut self, tri: &Triangle, until: f32, finder: &SweepFinder) -> bool {
        self.may_touch(tri)
            && !self.leaves_triangle(tri)
            && self.reach(finder).meets_triangle(tri.vertices(), until)
    }

    #[inline(always)]
    fn distance(&self, node: &Node) -> f32 {
        self.distance2(node.lo(), node.hi())
    }
}

/// A body's sweep through a tree of triangles in space `S`, as a BVH visitor, pruned by
/// `C` and telling `W` what it does. The finder may already hold a contact (from the
/// placements searched before this one): only the path up to it is searched.
pub(super) struct Sweep<'a, S: Space, C: SweepCull, W: Watch> {
    triangles: &'a [Triangle],
    space: S,
    finder: &'a mut SweepFinder,
    /// The swept box: the centre's path, boxes inflated by the reach (in `S`).
    ray: SlabRay,
    cull: C,
    /// How far along the move boxes are still entered: [`prune_bound`] of the best contact,
    /// kept up to date as leaves find contacts (not worked out again for every box).
    bound: f32,
    /// Told of the work (`()` in the app: nothing).
    watch: W,
}

impl<'a, S: Space, C: SweepCull, W: Watch> Sweep<'a, S, C, W> {
    /// The sweep of `finder` through `triangles` (in `space`) with the slab test's `ray`.
    /// (Always inlined: built where it is used, the query is not copied.)
    #[inline(always)]
    pub(super) fn new(
        triangles: &'a [Triangle],
        space: S,
        finder: &'a mut SweepFinder,
        ray: SlabRay,
        cull: C,
        watch: W,
    ) -> Sweep<'a, S, C, W> {
        Sweep {
            triangles,
            space,
            bound: prune_bound(finder.best),
            finder,
            ray,
            cull,
            watch,
        }
    }
}

impl<'a, W: Watch> Sweep<'a, WorldSpace, SweepReach, W> {
    /// The sweep of `finder` (a body, `probe`, from `centre` by `delta`) through the
    /// world's own `triangles`, pruned by the body's reach. Built in place, the reach
    /// too: handed to [`Sweep::new`] by value, the reach was copied (a `memcpy` every
    /// sweep, city sweeps 5% slower).
    #[inline(always)]
    pub(super) fn in_world(
        triangles: &'a [Triangle],
        finder: &'a mut SweepFinder,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        watch: W,
    ) -> Self {
        let body = &probe.body;
        Sweep {
            triangles,
            space: WorldSpace,
            ray: WorldSpace.segment(centre, delta, body.reach() + Vec3::splat(BOX_MARGIN)),
            cull: SweepReach::new(finder, body.radii, centre, delta),
            bound: prune_bound(None),
            finder,
            watch,
        }
    }
}

impl<S: Space, C: SweepCull, W: Watch> Visitor for Sweep<'_, S, C, W> {
    /// The swept box first (the slab test), then the cull: the later of the two entries.
    #[inline(always)]
    fn enter(&mut self, node: &Node) -> Option<f32> {
        self.watch.node();
        let t = node.ray_entry(&self.ray, self.bound)?;
        self.cull.enter(node, t, self.bound, self.finder)
    }

    #[inline(always)]
    fn distance(&self, node: &Node) -> f32 {
        self.cull.distance(node)
    }

    /// (Never inlined: in the traversal's loop, the leaf's loop and the exact sweep made
    /// every city sweep 4% slower.)
    #[inline(never)]
    fn visit_leaf(&mut self, range: Range<u32>) {
        for i in range {
            let tri = &self.triangles[i as usize];
            let index = self.space.index(i);
            self.watch.candidate(index);
            // The cull in `f32`; the exact sweep in `f64` for what is left.
            if self.cull.admits(tri, self.bound, self.finder) {
                self.watch.swept();
                self.space.sweep(self.finder, tri, index);
            }
        }
        // After a contact only the path up to it (and a rounding) is still searched.
        self.bound = prune_bound(self.finder.best);
    }
}

/// What an overlap query may prune beyond its box.
pub(super) trait OverlapCull {
    /// Can the body at rest overlap something in `node`'s box (which meets its own)?
    fn near(&self, node: &Node) -> bool;
}

/// No cull: the box alone (a placed model's tree, in model space).
impl OverlapCull for () {
    #[inline(always)]
    fn near(&self, _: &Node) -> bool {
        true
    }
}

/// The body's reach at rest, in world space, for a box small enough to ask.
impl OverlapCull for Rest {
    #[inline(always)]
    fn near(&self, node: &Node) -> bool {
        !self.worth_asking(node.span()) || self.meets(node.lo(), node.hi())
    }
}

/// Every triangle of a tree in space `S` whose box meets the body's box (and passes the
/// cull `C`), handed to the overlap finder, as a BVH visitor.
pub(super) struct Overlap<'a, S: Space, C: OverlapCull> {
    triangles: &'a [Triangle],
    space: S,
    finder: &'a mut OverlapFinder,
    /// The body's box (in `S`).
    min: Vec3A,
    max: Vec3A,
    cull: C,
}

impl<'a, S: Space, C: OverlapCull> Overlap<'a, S, C> {
    /// The overlaps of `finder` among `triangles` (in `space`) whose boxes meet the box
    /// `[min, max]` (in `space`).
    pub(super) fn new(
        triangles: &'a [Triangle],
        space: S,
        finder: &'a mut OverlapFinder,
        [min, max]: [Vec3A; 2],
        cull: C,
    ) -> Overlap<'a, S, C> {
        Overlap {
            triangles,
            space,
            finder,
            min,
            max,
            cull,
        }
    }
}

impl<S: Space, C: OverlapCull> Visitor for Overlap<'_, S, C> {
    fn enter(&mut self, node: &Node) -> Option<f32> {
        (node.overlaps(self.min, self.max) && self.cull.near(node)).then_some(0.0)
    }

    fn visit_leaf(&mut self, range: Range<u32>) {
        for i in range {
            let tri = &self.triangles[i as usize];
            self.space.overlap(self.finder, tri, self.space.index(i));
        }
    }
}
