//! The builder's record of a triangle ([`Prim`]: its box, its index and its SAH bin in
//! 32 bytes, the index and bin tagged as a node's links are) and the bounds of a range of
//! them and of their centroids ([`RangeBounds`]): what every pass of the build reads.

use glam::{Vec3A, Vec4};

use crate::collision::bvh::{LINK_TAG, MAX_LINK};
use crate::geometry::Aabb;

/// A triangle as the builder sees it: its box in SIMD lanes, its index in the smallest
/// corner's spare lane and the SAH bin the current split put it in in the largest's, each
/// tagged as a node's links are (so that the lanes stay plain floats: see [`Node`]). The
/// builder partitions these records themselves, so every pass reads memory in order; it
/// passes over all of them at each level of the tree, and at 32 bytes a record (48 with
/// the index and bin beside the box) each pass reads a third less.
///
/// [`Node`]: crate::collision::bvh::Node
#[derive(Clone, Copy)]
pub(super) struct Prim {
    lo: Vec4,
    hi: Vec4,
}

const _: () = assert!(std::mem::size_of::<Prim>() == 32);

impl Prim {
    /// The record of triangle `index` (at most [`MAX_LINK`], as a node's links: more
    /// triangles than fit in memory; a larger index is cut to it, as [`Node::new`] cuts
    /// one, never let into the tag's bit) with box `b`, in bin 0.
    ///
    /// [`Node::new`]: crate::collision::bvh::Node::new
    pub(super) fn new(b: Aabb, index: u32) -> Prim {
        debug_assert!(index <= MAX_LINK);
        Prim {
            lo: b.min.extend(tagged(index.min(MAX_LINK))),
            hi: b.max.extend(tagged(0)),
        }
    }

    #[inline(always)]
    pub(super) fn min(&self) -> Vec3A {
        Vec3A::from_vec4(self.lo)
    }

    #[inline(always)]
    pub(super) fn max(&self) -> Vec3A {
        Vec3A::from_vec4(self.hi)
    }

    #[inline(always)]
    pub(super) fn index(&self) -> u32 {
        self.lo.w.to_bits() & !LINK_TAG
    }

    #[inline(always)]
    pub(super) fn bin(&self) -> usize {
        (self.hi.w.to_bits() & !LINK_TAG) as usize
    }

    #[inline(always)]
    pub(super) fn set_bin(&mut self, bin: usize) {
        self.hi.w = tagged(bin as u32);
    }

    #[inline]
    pub(super) fn centroid(&self) -> Vec3A {
        (self.min() + self.max()) * 0.5
    }
}

/// `value` (at most [`MAX_LINK`]) in a lane, as a node's links are kept.
#[inline(always)]
pub(super) fn tagged(value: u32) -> f32 {
    f32::from_bits(value | LINK_TAG)
}

/// Bounds of a range of prims and of their centroids, built up in one pass.
#[derive(Clone, Copy)]
pub(super) struct RangeBounds {
    pub(super) min: Vec3A,
    pub(super) max: Vec3A,
    pub(super) cmin: Vec3A,
    pub(super) cmax: Vec3A,
}

impl RangeBounds {
    pub(super) const EMPTY: RangeBounds = RangeBounds {
        min: Vec3A::INFINITY,
        max: Vec3A::NEG_INFINITY,
        cmin: Vec3A::INFINITY,
        cmax: Vec3A::NEG_INFINITY,
    };

    #[inline]
    pub(super) fn add(&mut self, p: &Prim) {
        self.min = self.min.min(p.min());
        self.max = self.max.max(p.max());
        let c = p.centroid();
        self.cmin = self.cmin.min(c);
        self.cmax = self.cmax.max(c);
    }

    /// The bounds of both.
    pub(super) fn union(&self, other: &RangeBounds) -> RangeBounds {
        RangeBounds {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
            cmin: self.cmin.min(other.cmin),
            cmax: self.cmax.max(other.cmax),
        }
    }

    pub(super) fn of(prims: &[Prim]) -> RangeBounds {
        let mut b = RangeBounds::EMPTY;
        prims.iter().for_each(|p| b.add(p));
        b
    }
}
