//! One node's split by the binned surface area heuristic (Wald 2007): its prims binned
//! along the longest axis of their centroids' bounds, each boundary between bins priced
//! by the areas and counts either side, the cheapest taken (or a leaf, when that is
//! cheaper), and the prims partitioned by it in place.

use glam::Vec3A;

use super::prim::{Prim, RangeBounds};

/// Number of bins along an axis when the SAH looks for a split.
pub(super) const BINS: usize = 12;
/// A leaf never holds more than this many triangles (a split is forced past it).
pub(super) const MAX_LEAF: usize = 16;
/// SAH cost of visiting a node, relative to testing one triangle.
pub(super) const TRAVERSAL_COST: f32 = 2.0;

/// A range of primitives cut in two: the first `mid` go left.
pub(super) struct Split {
    pub(super) mid: usize,
    pub(super) left: RangeBounds,
    pub(super) right: RangeBounds,
}

/// Nodes larger than this choose their split from a strided sample of this many prims
/// (the partition and the bounds still use every prim).
pub(super) const SAMPLE: usize = 1024;

/// Half the surface area of a box given by corners (0 when empty).
#[inline]
pub(super) fn half_area(min: Vec3A, max: Vec3A) -> f32 {
    let s = (max - min).max(Vec3A::ZERO);
    s.x * s.y + s.y * s.z + s.z * s.x
}

/// The bin of a prim at `place` along the bins (its centroid's distance from the first
/// bin's start, in bins): counted in 32 bits (no centroid lies below the first bin, nor
/// past the last).
#[inline(always)]
pub(super) fn bin_at(place: f32) -> usize {
    (place as u32).min(BINS as u32 - 1) as usize
}

/// Whether [`bin_at`]`(place)` is below `boundary` (1 to `BINS - 1`), without making the
/// bin: the conversion truncates, so the bin is below a whole boundary exactly when the
/// place is, and a NaN, which it makes bin 0, is never at or above it. The partition of
/// a range binned from a sample asks this of every prim (1% of conference's build).
#[inline(always)]
pub(super) fn below(place: f32, boundary: usize) -> bool {
    place < boundary as f32 || place.is_nan()
}

/// Split `range` by the best binned-SAH boundary along the longest axis of the centroid
/// bounds; returns the size of the left part and both parts' bounds, or `None` when a
/// leaf is cheaper (and small enough).
pub(super) fn split(range: &mut [Prim], rb: &RangeBounds, bins: &mut Bins) -> Option<Split> {
    let count = range.len();
    let extent = rb.cmax - rb.cmin;
    let axis = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    if extent[axis] <= 0.0 {
        // All centroids coincide: only a forced median split can keep leaves small.
        return (count > MAX_LEAF).then(|| median(range));
    }
    let (lo, scale) = (rb.cmin[axis], BINS as f32 / extent[axis]);
    // The centroid's coordinate along the axis, taken from its lane (indexing the vector
    // by a number known only as it runs stored it and read it back, for every prim); the
    // bin counted in 32 bits (no centroid lies below `lo`, nor past `BINS` bins).
    let along = |v: Vec3A| match axis {
        0 => v.x,
        1 => v.y,
        _ => v.z,
    };
    let place = |p: &Prim| (along(p.centroid()) - lo) * scale;
    let bin_of = |p: &Prim| bin_at(place(p));

    bins.clear();
    let stride = (count / SAMPLE).max(1);
    // A range binned whole (no sample) keeps each prim's bin and each bin's centroid
    // bounds, so the partition below only moves prims: the children's bounds are the
    // bins' unions (min and max are exact in any order, so the bounds are the same
    // numbers as a union in the prims' order; only a zero bound may have the other sign,
    // which compares, and so tests, alike).
    let whole = stride == 1;
    if whole {
        for p in range.iter_mut() {
            let b = bin_of(p);
            bins.add(b, p, true);
            p.set_bin(b);
        }
    } else {
        for p in range.iter().step_by(stride) {
            bins.add(bin_of(p), p, false);
        }
    }
    let Some(Best { boundary, cost }) = bins.best_boundary() else {
        return (count > MAX_LEAF).then(|| median(range));
    };
    // Costs are per sampled prim: scale back to the whole range.
    let parent_area = half_area(rb.min, rb.max).max(f32::MIN_POSITIVE);
    let sampled = count.div_ceil(stride) as f32;
    let split_cost = TRAVERSAL_COST + cost / parent_area * count as f32 / sampled;
    // (Written so that a NaN cost makes a leaf of a small range.)
    if !(split_cost < count as f32 || count > MAX_LEAF) {
        return None;
    }
    let (mut left, mut right, mut i) = (RangeBounds::EMPTY, RangeBounds::EMPTY, 0);
    if whole {
        for j in 0..count {
            if range[j].bin() < boundary {
                range.swap(i, j);
                i += 1;
            }
        }
        left = bins.union(0..boundary);
        right = bins.union(boundary..BINS);
    } else {
        // Partition and measure both sides in the same pass.
        for j in 0..count {
            if below(place(&range[j]), boundary) {
                left.add(&range[j]);
                range.swap(i, j);
                i += 1;
            } else {
                right.add(&range[j]);
            }
        }
    }
    if i > 0 && i < count {
        Some(Split {
            mid: i,
            left,
            right,
        })
    } else {
        (count > MAX_LEAF).then(|| median(range))
    }
}

/// The SAH's bins along one axis: each bin's box, count and (when the range is binned
/// whole) the bounds of its centroids, and which bins hold a prim. One set serves every
/// split a thread makes, emptied bin by bin: of conference's 160,000 splits, 128,000 are
/// of at most 16 triangles (a third of the tree's build), and making all twelve bins
/// afresh for each and sweeping all of them (the empty ones change no bound) was about
/// 2 ms of its 20.
pub(super) struct Bins {
    pub(super) min: [Vec3A; BINS],
    pub(super) max: [Vec3A; BINS],
    pub(super) cmin: [Vec3A; BINS],
    pub(super) cmax: [Vec3A; BINS],
    pub(super) count: [usize; BINS],
    /// Bit `b` set: bin `b` holds a prim. The others are empty (infinite bounds, no
    /// prims), and the sweeps skip them.
    pub(super) used: u32,
}

/// The bins that hold a prim, in order.
pub(super) struct Used {
    pub(super) bins: [usize; BINS],
    pub(super) len: usize,
}

impl Used {
    pub(super) fn all(&self) -> &[usize] {
        &self.bins[..self.len]
    }
}

/// The cheapest boundary: bins below it go left; its cost per sampled prim.
pub(super) struct Best {
    pub(super) boundary: usize,
    pub(super) cost: f32,
}

impl Bins {
    pub(super) const EMPTY: Bins = Bins {
        min: [Vec3A::INFINITY; BINS],
        max: [Vec3A::NEG_INFINITY; BINS],
        cmin: [Vec3A::INFINITY; BINS],
        cmax: [Vec3A::NEG_INFINITY; BINS],
        count: [0; BINS],
        used: 0,
    };

    /// Every bin empty again, at the cost of the bins used.
    pub(super) fn clear(&mut self) {
        for &b in self.used().all() {
            self.min[b] = Vec3A::INFINITY;
            self.max[b] = Vec3A::NEG_INFINITY;
            self.cmin[b] = Vec3A::INFINITY;
            self.cmax[b] = Vec3A::NEG_INFINITY;
            self.count[b] = 0;
        }
        self.used = 0;
    }

    /// The bins that hold a prim, in order.
    pub(super) fn used(&self) -> Used {
        let mut u = Used {
            bins: [0; BINS],
            len: 0,
        };
        let mut bits = self.used;
        while bits != 0 {
            u.bins[u.len] = bits.trailing_zeros() as usize;
            u.len += 1;
            bits &= bits - 1;
        }
        u
    }

    #[inline]
    pub(super) fn add(&mut self, b: usize, p: &Prim, centroids: bool) {
        self.used |= 1 << b;
        self.min[b] = self.min[b].min(p.min());
        self.max[b] = self.max[b].max(p.max());
        self.count[b] += 1;
        if centroids {
            let c = p.centroid();
            self.cmin[b] = self.cmin[b].min(c);
            self.cmax[b] = self.cmax[b].max(c);
        }
    }

    /// The bounds of the prims in bins `range` (binned whole). An empty bin is skipped:
    /// its infinite bounds change no finite minimum or maximum. (glam's `min` and `max`
    /// take the second operand where one is NaN, so an empty bin merged after a NaN lane
    /// would have made it infinite; the ranges asked for always end at a used bin, whose
    /// merge gives the same lane either way, so the bounds are those of a merge of every
    /// bin: 1.2 million random box sets, NaN among them, build the same trees.)
    pub(super) fn union(&self, range: std::ops::Range<usize>) -> RangeBounds {
        let mut u = RangeBounds::EMPTY;
        for &b in self.used().all().iter().filter(|b| range.contains(b)) {
            u.min = u.min.min(self.min[b]);
            u.max = u.max.max(self.max[b]);
            u.cmin = u.cmin.min(self.cmin[b]);
            u.cmax = u.cmax.max(self.cmax[b]);
        }
        u
    }

    /// Sweep from the right, then from the left, to price each boundary; `None` when no
    /// boundary leaves prims on both sides. Only a boundary just after a used bin is
    /// priced: every boundary up to the next used bin splits the same prims at the same
    /// cost, and the first of them is the one chosen (an empty bin's bounds change no
    /// sum, so the numbers are those of a sweep over all twelve).
    pub(super) fn best_boundary(&self) -> Option<Best> {
        let used = self.used();
        let used = used.all();
        // `right_cost[j]`: the prims of `used[j..]`, at a boundary just after `used[j - 1]`.
        let mut right_cost = [0.0f32; BINS];
        let (mut mn, mut mx, mut n) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY, 0usize);
        for j in (1..used.len()).rev() {
            let b = used[j];
            mn = mn.min(self.min[b]);
            mx = mx.max(self.max[b]);
            n += self.count[b];
            right_cost[j] = half_area(mn, mx) * n as f32;
        }
        let mut best: Option<Best> = None;
        let (mut mn, mut mx, mut n) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY, 0usize);
        for j in 1..used.len() {
            let b = used[j - 1];
            mn = mn.min(self.min[b]);
            mx = mx.max(self.max[b]);
            n += self.count[b];
            let right = right_cost[j];
            if !right.is_finite() {
                continue;
            }
            let cost = half_area(mn, mx) * n as f32 + right;
            if best.as_ref().is_none_or(|x| cost < x.cost) {
                best = Some(Best {
                    boundary: b + 1,
                    cost,
                });
            }
        }
        best
    }
}

/// Split in the middle of the range as it stands (for piles of coincident triangles).
pub(super) fn median(range: &mut [Prim]) -> Split {
    let mid = range.len() / 2;
    Split {
        mid,
        left: RangeBounds::of(&range[..mid]),
        right: RangeBounds::of(&range[mid..]),
    }
}
