//! Placed models: one collision world per model, shared by every placement of it.
//!
//! For a placement with world matrix `M` (linear part `L`), a body's sweep is tested in two
//! spaces, as the classic model-versus-sphere tutorial does:
//!
//! - **Broad phase, model space.** The centre's path goes into model space through `M^-1`;
//!   the body's box (half-extents `h`, the body's reach) becomes a parallelepiped there,
//!   whose box has half-extents `|L^-1| h` (the absolute matrix). The model's own BVH
//!   chooses the candidates with that swept box. Before that, a BVH over the placements'
//!   world boxes (the same tree and traversal) reaches the placements near the move,
//!   nearest first and pruned by the best contact so far, and a bounding sphere rejects
//!   the rest.
//! - **Narrow phase, ellipsoid space.** Each candidate triangle goes to world space
//!   through `M` (exactly as the baked copy of the scene is made, in `f32`) and on into
//!   ellipsoid space through the radii, where the sweep of [`super::sweep`] runs; the
//!   point-in-triangle question of its face phase is asked of that world-space triangle.
//!   The numbers are then the very ones the same triangles baked into one world give: a
//!   placement stops and slides exactly as its baked copy.

use std::ops::Range;
use std::sync::OnceLock;

use glam::{Affine3A, Mat3, Vec3, Vec3A};

use super::bvh::{Built, Bvh, Node, Visitor};
use super::narrow::{OverlapFinder, SweepFinder, prune_bound};
use super::revision::Revision;
use super::visit::{Overlap, Space, Sweep, WorldSpace};
use super::work::Watch;
use super::{Body, Collider, CollisionWorld, Contact, Probe};
use crate::geometry::{Aabb, SlabRay, Triangle, safe_recip};
use crate::tolerance::BOX_MARGIN;

/// One placement of a model.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Index of the model in [`InstancedWorld::models`](InstancedWorld::models).
    pub model: usize,
    /// Model space to world space.
    pub to_world: Affine3A,
    to_model: Affine3A,
    /// `|L^-1|`, element-wise absolute: world half-extents to model half-extents.
    abs_to_model: Mat3,
    /// `L^-T`: model normals to world normals (not normalised).
    normal_to_world: Mat3,
    /// World-space bounds of the placed model.
    pub bounds: Aabb,
    /// The bounds less the translation (a move that keeps the linear part adds the new
    /// translation to them: no rounding piles up tick after tick).
    about_origin: Aabb,
    /// World-space bounding sphere.
    pub sphere: Sphere,
    /// Added to model triangle indices to make `Contact::triangle` unique across placements.
    triangle_base: u32,
}

/// A bounding sphere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    /// Centre.
    pub centre: Vec3,
    /// Radius.
    pub radius: f32,
}

impl Sphere {
    /// Could the segment `p0 -> p0 + d` come within `reach` of the sphere?
    fn near_segment(&self, p0: Vec3, d: Vec3, reach: f32) -> bool {
        let len2 = d.length_squared();
        let t = if len2 > 0.0 && len2.is_finite() {
            ((self.centre - p0).dot(d) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let r = self.radius + reach;
        (p0 + d * t - self.centre).length_squared() <= r * r
    }
}

/// Why a model was not placed ([`InstancedWorld::place`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// No model of this index was added.
    #[error("there is no model {0} to place")]
    NoModel(usize),
    /// The transform or its inverse is not finite in 32-bit numbers.
    #[error(
        "the transform cannot be inverted in 32-bit numbers (a zero scale, or one so small that its inverse overflows)"
    )]
    NotInvertible,
}

/// Models and their placements.
#[derive(Clone, Debug, Default)]
pub struct InstancedWorld {
    /// One collision world per distinct model file, in model space.
    models: Vec<CollisionWorld>,
    /// The placements (private, as the models: every change goes through a method that
    /// gives the world a new [`Revision`]).
    instances: Vec<Instance>,
    /// What these placements are now (see [`Collider::revision`]): fresh at every
    /// placement made or moved, so a walker in a scene where nothing moves reuses the
    /// ticks that repeat as it does in a map.
    revision: Revision,
    /// A BVH over the placements' world boxes (the same [`Bvh`] and traversal as the
    /// triangles'), built at the first query after the last placement: a sweep reaches
    /// the placements near it without testing every one (a scene of 100,000 placements
    /// stepped at 250 ms a step with a linear scan).
    top: OnceLock<Placements>,
    /// The movers' tree, over their hulls (see [`InstancedWorld::set_moving`]).
    moving: Placements,
    /// The movers' hulls, by placement.
    hulls: Vec<MoverHull>,
    /// Per placement: is it a mover (kept out of `top`)?
    is_moving: Vec<bool>,
}

/// A BVH over some placements' world boxes, and the placement each leaf entry is.
#[derive(Clone, Debug, Default)]
struct Placements {
    bvh: Bvh,
    /// Leaf entry `k` is placement `order[k]`.
    order: Vec<u32>,
}

impl Placements {
    /// The tree over the placements `ids` of `instances`.
    fn over(instances: &[Instance], ids: &[u32]) -> Placements {
        let boxes: Vec<Aabb> = ids.iter().map(|&i| instances[i as usize].bounds).collect();
        let Built { bvh, order, .. } = Bvh::build(&boxes);
        Placements {
            bvh,
            order: order.iter().map(|&k| ids[k as usize]).collect(),
        }
    }

    /// The tree over the movers' hulls.
    fn over_boxes(hulls: &[MoverHull]) -> Placements {
        let boxes: Vec<Aabb> = hulls.iter().map(|h| h.hull).collect();
        let Built { bvh, order, .. } = Bvh::build(&boxes);
        Placements {
            bvh,
            order: order
                .iter()
                .map(|&k| hulls[k as usize].instance as u32)
                .collect(),
        }
    }

    /// The same tree fitted to `hulls` (sorted by placement) grown.
    fn refit_to(&mut self, hulls: &[MoverHull]) {
        let boxes: Vec<Aabb> = self
            .order
            .iter()
            .filter_map(|&i| {
                let k = hulls
                    .binary_search_by_key(&(i as usize), |h| h.instance)
                    .ok()?;
                Some(hulls[k].hull)
            })
            .collect();
        self.bvh.refit(&boxes);
    }
}

/// A mover and the box it never leaves, whatever its pose (see
/// [`InstancedWorld::set_moving`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverHull {
    /// The placement.
    pub instance: usize,
    /// World box holding every pose of it.
    pub hull: Aabb,
}

/// A placement's new world matrix (see [`InstancedWorld::move_placements`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacementPose {
    /// The placement's index in [`InstancedWorld::instances`](InstancedWorld::instances).
    pub instance: usize,
    /// Its model space to world space from now on.
    pub to_world: Affine3A,
}

/// What [`InstancedWorld::move_placements`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moved {
    /// Placements given their new matrix.
    pub moved: usize,
    /// Poses refused (no such placement, or a matrix that cannot be inverted).
    pub refused: usize,
}

/// Which placements a query tests (see [`InstancedWorld::only`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which<'a> {
    /// Every placement.
    All,
    /// This placement alone.
    One(usize),
    /// Every placement but this one.
    AllBut(usize),
    /// Every placement but these (ascending: looked up by bisection, so a pile of movers
    /// left out costs each placement visited a few comparisons, not one per mover).
    AllButThese(&'a [usize]),
}

impl Which<'_> {
    fn admits(self, instance: usize) -> bool {
        match self {
            Which::All => true,
            Which::One(i) => i == instance,
            Which::AllBut(i) => i != instance,
            Which::AllButThese(left_out) => left_out.binary_search(&instance).is_err(),
        }
    }
}

/// An [`InstancedWorld`] whose queries test only [`Which`] placements.
#[derive(Clone, Copy, Debug)]
pub struct Selection<'a> {
    world: &'a InstancedWorld,
    which: Which<'a>,
}

impl InstancedWorld {
    /// The models, one collision world each in model space.
    pub fn models(&self) -> &[CollisionWorld] {
        &self.models
    }

    /// The placements, in scene order.
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// An empty world; add models and place them.
    pub fn new(models: Vec<CollisionWorld>) -> InstancedWorld {
        InstancedWorld {
            models,
            ..InstancedWorld::default()
        }
    }

    /// Add a model (placed by [`place`](Self::place)); its index.
    pub fn add_model(&mut self, model: CollisionWorld) -> usize {
        self.models.push(model);
        self.revision = Revision::fresh();
        self.models.len() - 1
    }

    /// Place `model` with `to_world`; the placement's index. Refused when there is no such
    /// model, or the transform is not invertible (a zero scale) or not finite, or its
    /// inverse is not (a scale so small that its inverse overflows). A model scaled by
    /// 0.001 (millimetres to metres) is placed: its determinant, 1e-9, was under the
    /// `f32::EPSILON` this once asked for.
    pub fn place(&mut self, model: usize, to_world: Affine3A) -> Result<usize, PlaceError> {
        let triangle_base = self.instances.last().map_or(0, |i| {
            i.triangle_base + self.models[i.model].triangles().len() as u32
        });
        let of = self.models.get(model).ok_or(PlaceError::NoModel(model))?;
        let inst =
            Instance::new(of, model, to_world, triangle_base).ok_or(PlaceError::NotInvertible)?;
        self.instances.push(inst);
        self.top = OnceLock::new();
        self.revision = Revision::fresh();
        Ok(self.instances.len() - 1)
    }

    /// Mark placements as movers, each with the box it never leaves (its motion's hull):
    /// the placements' tree keeps the still ones, and a tree of the movers' hulls of its
    /// own never needs refitting as they move (see
    /// [`move_placements`](Self::move_placements)). Indices past the placements are
    /// ignored.
    pub fn set_moving(&mut self, moving: &[MoverHull]) {
        let n = self.instances.len();
        let mut hulls: Vec<MoverHull> = moving.iter().filter(|h| h.instance < n).copied().collect();
        hulls.sort_by_key(|h| h.instance);
        hulls.dedup_by_key(|h| h.instance);
        self.is_moving = vec![false; n];
        for h in &hulls {
            self.is_moving[h.instance] = true;
        }
        self.hulls = hulls;
        self.moving = Placements::over_boxes(&self.hulls);
        self.top = OnceLock::new();
    }

    /// Give placements new world matrices (the movers at this tick). A mover that would
    /// leave its hull (it never should: see [`set_moving`](Self::set_moving)) has its
    /// hull grown and the movers' tree refitted. A pose that cannot be placed (see
    /// [`place`](Self::place)) leaves its placement where it was; the result counts those
    /// refused.
    pub fn move_placements(&mut self, poses: &[PlacementPose]) -> Moved {
        let mut moved = Moved::default();
        let mut grown = false;
        for pose in poses {
            let Some(inst) = self.instances.get_mut(pose.instance) else {
                moved.refused += 1;
                continue;
            };
            if !inst.move_to(&self.models[inst.model], pose.to_world) {
                moved.refused += 1;
                continue;
            }
            match self
                .hulls
                .binary_search_by_key(&pose.instance, |h| h.instance)
            {
                Ok(k) if !self.hulls[k].hull.contains_box(&inst.bounds) => {
                    self.hulls[k].hull = self.hulls[k].hull.union(inst.bounds);
                    grown = true;
                }
                Ok(_) => {}
                // A still placement moved: the still tree is made again.
                Err(_) => self.top = OnceLock::new(),
            }
            moved.moved += 1;
        }
        if grown {
            self.moving.refit_to(&self.hulls);
        }
        if moved.moved > 0 {
            self.revision = Revision::fresh();
        }
        moved
    }

    /// The placement whose triangle `triangle` is (numbered as [`Contact::triangle`]).
    pub fn instance_of(&self, triangle: u32) -> Option<usize> {
        let at = self
            .instances
            .partition_point(|inst| inst.triangle_base <= triangle)
            .checked_sub(1)?;
        let inst = &self.instances[at];
        let count = self.models[inst.model].triangles().len() as u32;
        (triangle - inst.triangle_base < count).then_some(at)
    }

    /// The same world seen by queries that test only some placements: a rider carried
    /// by a mover is swept against everything but it, a push against it alone.
    pub fn only<'a>(&'a self, which: Which<'a>) -> Selection<'a> {
        Selection { world: self, which }
    }

    /// Every placed triangle in world space (for rendering, spawn finding and tests).
    pub fn baked_triangles(&self) -> impl Iterator<Item = [Vec3; 3]> + '_ {
        self.instances.iter().flat_map(move |inst| {
            self.models[inst.model]
                .triangles()
                .iter()
                .map(move |t| inst.bake(t))
        })
    }

    /// Visit, nearest first, the placements whose world box (grown by `reach`) the
    /// segment `p0 -> p0 + d` meets no later than `visitor.t_max()`, through the
    /// placements' BVH (the still ones', then the movers'), among `which`; a bounding
    /// sphere test comes before each placement's own tree.
    fn visit_near(
        &self,
        which: Which<'_>,
        p0: Vec3,
        d: Vec3,
        reach: Vec3,
        visitor: &mut impl PlacementVisitor,
    ) {
        let longest = reach.max_element() + BOX_MARGIN;
        if let Which::One(i) = which {
            // One placement: no tree to walk.
            if let Some(inst) = self.instances.get(i)
                && inst.sphere.near_segment(p0, d, longest)
            {
                visitor.visit(&self.models[inst.model], inst);
            }
            return;
        }
        let top = self.top.get_or_init(|| {
            let still: Vec<u32> = (0..self.instances.len() as u32)
                .filter(|&i| !self.is_moving.get(i as usize).copied().unwrap_or(false))
                .collect();
            Placements::over(&self.instances, &still)
        });
        let ray = WorldSpace.segment(p0, d, reach + Vec3::splat(BOX_MARGIN));
        for tree in [top, &self.moving] {
            let mut query = NearPlacements {
                world: self,
                which,
                order: &tree.order,
                p0,
                d,
                ray,
                longest,
                visitor: &mut *visitor,
            };
            tree.bvh.traverse(&mut query);
        }
    }
}

/// What a query does with each placement near it (see [`InstancedWorld::visit_near`]).
trait PlacementVisitor {
    /// The query's bound on the segment's parameter: placements beyond it are skipped.
    fn t_max(&self) -> f32;
    /// Test the placement's own triangles.
    fn visit(&mut self, world: &CollisionWorld, inst: &Instance);
}

/// The placements' BVH walked for a segment grown by a reach.
struct NearPlacements<'a, V> {
    world: &'a InstancedWorld,
    which: Which<'a>,
    order: &'a [u32],
    p0: Vec3,
    d: Vec3,
    ray: SlabRay,
    longest: f32,
    visitor: &'a mut V,
}

impl<V: PlacementVisitor> Visitor for NearPlacements<'_, V> {
    fn enter(&mut self, node: &Node) -> Option<f32> {
        node.ray_entry(&self.ray, self.visitor.t_max())
    }

    fn visit_leaf(&mut self, range: Range<u32>) {
        for k in range {
            let i = self.order[k as usize] as usize;
            let inst = &self.world.instances[i];
            if self.which.admits(i) && inst.sphere.near_segment(self.p0, self.d, self.longest) {
                self.visitor.visit(&self.world.models[inst.model], inst);
            }
        }
    }
}

impl Instance {
    /// `world` (model `model`) placed with `to_world`, its triangles numbered from
    /// `triangle_base`; `None` when the transform or its inverse is not finite and
    /// invertible.
    fn new(
        world: &CollisionWorld,
        model: usize,
        to_world: Affine3A,
        triangle_base: u32,
    ) -> Option<Instance> {
        let linear = Mat3::from(to_world.matrix3);
        let det = linear.determinant();
        if !(det.is_finite() && det != 0.0 && to_world.translation.is_finite()) {
            return None;
        }
        let to_model = to_world.inverse();
        let inverse = linear.inverse();
        if !(inverse.is_finite() && to_model.is_finite()) {
            return None;
        }
        let abs_to_model = Mat3::from_cols(
            inverse.x_axis.abs(),
            inverse.y_axis.abs(),
            inverse.z_axis.abs(),
        );
        let mb = world.bounds();
        let bounds = Aabb::from_points(mb.corners().map(|c| to_world.transform_point3(c)));
        let centre = bounds.center();
        let t = Vec3::from(to_world.translation);
        Some(Instance {
            model,
            about_origin: Aabb {
                min: bounds.min - t,
                max: bounds.max - t,
            },
            to_world,
            to_model,
            abs_to_model,
            normal_to_world: inverse.transpose(),
            bounds,
            sphere: Sphere {
                centre,
                radius: (bounds.max - centre).length(),
            },
            triangle_base,
        })
    }

    /// Move this placement to `to_world` (false, and unchanged, when that cannot be
    /// placed). A move that keeps the linear part (a door sliding, a lift rising: most
    /// movers) keeps its inverse, and only the translations and boxes are made again;
    /// any other is placed afresh.
    fn move_to(&mut self, world: &CollisionWorld, to_world: Affine3A) -> bool {
        if to_world.matrix3 != self.to_world.matrix3 || !to_world.translation.is_finite() {
            return match Instance::new(world, self.model, to_world, self.triangle_base) {
                Some(inst) => {
                    *self = inst;
                    true
                }
                None => false,
            };
        }
        let t = Vec3::from(to_world.translation);
        self.bounds = Aabb {
            min: self.about_origin.min + t,
            max: self.about_origin.max + t,
        };
        self.to_world = to_world;
        self.to_model.translation = -(self.to_model.matrix3 * to_world.translation);
        self.sphere.centre = self.bounds.center();
        true
    }

    /// A model triangle in world space, rounded exactly as the baked copy is.
    #[inline]
    fn bake(&self, tri: &Triangle) -> [Vec3; 3] {
        tri.vertices().map(|v| self.to_world.transform_point3(v))
    }

    /// World half-extents to the half-extents of their box in model space.
    fn extents_to_model(&self, h: Vec3) -> Vec3A {
        Vec3A::from(self.abs_to_model * h)
    }
}

impl Collider for InstancedWorld {
    fn sweep_seen(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        seen: Option<&mut Vec<u32>>,
    ) -> Option<Contact> {
        self.only(Which::All).sweep_seen(probe, centre, delta, seen)
    }

    fn triangle(&self, index: u32) -> Option<[Vec3; 3]> {
        let inst = &self.instances[self.instance_of(index)?];
        let tri = self.models[inst.model]
            .triangles()
            .get((index - inst.triangle_base) as usize)?;
        Some(inst.bake(tri))
    }

    fn nearest_overlap(&self, body: &Body, centre: Vec3) -> Option<Contact> {
        self.only(Which::All).nearest_overlap(body, centre)
    }

    fn revision(&self) -> Option<u64> {
        Some(self.revision.get())
    }
}

impl Selection<'_> {
    /// The sweep, telling `watch` of the triangles handed over (as the world's does).
    fn sweep_with<W: Watch>(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        watch: W,
    ) -> Option<Contact> {
        let reach = probe.body.reach();
        let mut query = PlacementSweep {
            finder: SweepFinder::new(probe, centre, delta)?,
            centre,
            delta,
            reach,
            watch,
        };
        self.world
            .visit_near(self.which, centre, delta, reach, &mut query);
        query.finder.best
    }
}

impl Collider for Selection<'_> {
    fn sweep_seen(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        seen: Option<&mut Vec<u32>>,
    ) -> Option<Contact> {
        match seen {
            Some(seen) => self.sweep_with(probe, centre, delta, seen),
            None => self.sweep_with(probe, centre, delta, ()),
        }
    }

    fn triangle(&self, index: u32) -> Option<[Vec3; 3]> {
        self.world.triangle(index)
    }

    fn nearest_overlap(&self, body: &Body, centre: Vec3) -> Option<Contact> {
        if !(centre.is_finite() && body.is_valid()) {
            return None;
        }
        let mut query = PlacementOverlap {
            finder: OverlapFinder::new(body, centre),
            centre,
            reach: body.reach() + Vec3::splat(BOX_MARGIN),
        };
        self.world
            .visit_near(self.which, centre, Vec3::ZERO, body.reach(), &mut query);
        query.finder.best
    }
}

/// A body's sweep through the placements near its path, telling `watch` of the
/// triangles handed over.
struct PlacementSweep<W: Watch> {
    finder: SweepFinder,
    centre: Vec3,
    delta: Vec3,
    reach: Vec3,
    watch: W,
}

impl<W: Watch> PlacementVisitor for PlacementSweep<W> {
    fn t_max(&self) -> f32 {
        prune_bound(self.finder.best)
    }

    fn visit(&mut self, world: &CollisionWorld, inst: &Instance) {
        let ray = inst.segment(
            self.centre,
            self.delta,
            self.reach + Vec3::splat(BOX_MARGIN),
        );
        let mut query = Sweep::new(
            world.triangles(),
            inst,
            &mut self.finder,
            ray,
            (),
            &mut self.watch,
        );
        world.traverse(&mut query);
    }
}

/// The triangles of the placements near a body at rest.
struct PlacementOverlap {
    finder: OverlapFinder,
    centre: Vec3,
    reach: Vec3,
}

impl PlacementVisitor for PlacementOverlap {
    fn t_max(&self) -> f32 {
        1.0
    }

    fn visit(&mut self, world: &CollisionWorld, inst: &Instance) {
        let around = inst.around(self.centre, self.reach);
        let mut query = Overlap::new(world.triangles(), inst, &mut self.finder, around, ());
        world.traverse(&mut query);
    }
}

/// A placed model's space: its triangles are baked into world space through the
/// placement's matrix (exactly as the baked copy of the scene is made), its boxes are
/// model space.
impl Space for &Instance {
    #[inline(always)]
    fn index(self, i: u32) -> u32 {
        self.triangle_base + i
    }

    #[inline(always)]
    fn sweep(self, finder: &mut SweepFinder, tri: &Triangle, index: u32) {
        let [a, b, c] = self.bake(tri);
        finder.consider([a, b, c], index, || Triangle::new(a, b, c));
    }

    #[inline(always)]
    fn overlap(self, finder: &mut OverlapFinder, tri: &Triangle, index: u32) {
        let normal = (self.normal_to_world * tri.plane.normal).normalize_or_zero();
        finder.consider(self.bake(tri), normal, index);
    }

    #[inline(always)]
    fn segment(self, p0: Vec3, d: Vec3, half: Vec3) -> SlabRay {
        SlabRay::new(
            self.to_model.transform_point3(p0).into(),
            safe_recip(self.to_model.transform_vector3(d)).into(),
            self.extents_to_model(half),
        )
    }

    #[inline(always)]
    fn around(self, centre: Vec3, half: Vec3) -> [Vec3A; 2] {
        let c = Vec3A::from(self.to_model.transform_point3(centre));
        let h = self.extents_to_model(half);
        [c - h, c + h]
    }
}

#[cfg(test)]
mod tests;
