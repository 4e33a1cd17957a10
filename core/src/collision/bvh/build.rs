//! Building the [`Bvh`] with the binned surface area heuristic (Wald 2007: see the
//! parent module), on two threads from [`PARALLEL_MIN`] triangles.

use glam::{Vec3A, Vec4};

use super::{Bvh, LINK_TAG, MAX_LINK, Node};
use crate::geometry::Aabb;

/// Number of bins along an axis when the SAH looks for a split.
const BINS: usize = 12;
/// A node with at most this many triangles becomes a leaf without trying to split.
const MIN_SPLIT: usize = 2;
/// A leaf never holds more than this many triangles (a split is forced past it).
const MAX_LEAF: usize = 16;
/// SAH cost of visiting a node, relative to testing one triangle.
const TRAVERSAL_COST: f32 = 2.0;

/// A tree just built, and the triangle order its leaf ranges index.
#[derive(Clone, Debug, Default)]
pub struct Built {
    /// The tree.
    pub bvh: Bvh,
    /// `order[k]` is the input triangle at position `k`: the world reorders its triangles
    /// by it, so that leaf ranges index the triangles directly.
    pub order: Vec<u32>,
    /// The depth of the deepest leaf (the root alone is depth 1), counted as the tree
    /// grows (a walk of every node afterwards took 3 ms on conference, 0.2 s at ten million).
    pub depth: usize,
}

/// A tree, or a part of one, and its depth.
struct Subtree {
    nodes: Vec<Node>,
    depth: usize,
}

/// A range of primitives cut in two: the first `mid` go left.
struct Split {
    mid: usize,
    left: RangeBounds,
    right: RangeBounds,
}

/// A triangle as the builder sees it: its box in SIMD lanes, its index in the smallest
/// corner's spare lane and the SAH bin the current split put it in in the largest's, each
/// tagged as a node's links are (so that the lanes stay plain floats: see [`Node`]). The
/// builder partitions these records themselves, so every pass reads memory in order; it
/// passes over all of them at each level of the tree, and at 32 bytes a record (48 with
/// the index and bin beside the box) each pass reads a third less.
#[derive(Clone, Copy)]
struct Prim {
    lo: Vec4,
    hi: Vec4,
}

const _: () = assert!(std::mem::size_of::<Prim>() == 32);

impl Prim {
    /// The record of triangle `index` (at most [`MAX_LINK`], as a node's links: more
    /// triangles than fit in memory; a larger index is cut to it, as [`Node::new`] cuts
    /// one, never let into the tag's bit) with box `b`, in bin 0.
    fn new(b: Aabb, index: u32) -> Prim {
        debug_assert!(index <= MAX_LINK);
        Prim {
            lo: b.min.extend(tagged(index.min(MAX_LINK))),
            hi: b.max.extend(tagged(0)),
        }
    }

    #[inline(always)]
    fn min(&self) -> Vec3A {
        Vec3A::from_vec4(self.lo)
    }

    #[inline(always)]
    fn max(&self) -> Vec3A {
        Vec3A::from_vec4(self.hi)
    }

    #[inline(always)]
    fn index(&self) -> u32 {
        self.lo.w.to_bits() & !LINK_TAG
    }

    #[inline(always)]
    fn bin(&self) -> usize {
        (self.hi.w.to_bits() & !LINK_TAG) as usize
    }

    #[inline(always)]
    fn set_bin(&mut self, bin: usize) {
        self.hi.w = tagged(bin as u32);
    }

    #[inline]
    fn centroid(&self) -> Vec3A {
        (self.min() + self.max()) * 0.5
    }
}

/// `value` (at most [`MAX_LINK`]) in a lane, as a node's links are kept.
#[inline(always)]
fn tagged(value: u32) -> f32 {
    f32::from_bits(value | LINK_TAG)
}

/// Bounds of a range of prims and of their centroids, built up in one pass.
#[derive(Clone, Copy)]
struct RangeBounds {
    min: Vec3A,
    max: Vec3A,
    cmin: Vec3A,
    cmax: Vec3A,
}

impl RangeBounds {
    const EMPTY: RangeBounds = RangeBounds {
        min: Vec3A::INFINITY,
        max: Vec3A::NEG_INFINITY,
        cmin: Vec3A::INFINITY,
        cmax: Vec3A::NEG_INFINITY,
    };

    #[inline]
    fn add(&mut self, p: &Prim) {
        self.min = self.min.min(p.min());
        self.max = self.max.max(p.max());
        let c = p.centroid();
        self.cmin = self.cmin.min(c);
        self.cmax = self.cmax.max(c);
    }

    /// The bounds of both.
    fn union(&self, other: &RangeBounds) -> RangeBounds {
        RangeBounds {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
            cmin: self.cmin.min(other.cmin),
            cmax: self.cmax.max(other.cmax),
        }
    }

    fn of(prims: &[Prim]) -> RangeBounds {
        let mut b = RangeBounds::EMPTY;
        prims.iter().for_each(|p| b.add(p));
        b
    }
}

/// Nodes larger than this choose their split from a strided sample of this many prims
/// (the partition and the bounds still use every prim).
const SAMPLE: usize = 1024;

impl Bvh {
    /// Build over triangles given by their bounds, returning the tree and the order its
    /// leaves want the triangles in.
    pub fn build(bounds: &[Aabb]) -> Built {
        Bvh::build_from(bounds.len(), |i| bounds[i])
    }

    /// [`Bvh::build`] over the bounds of `count` triangles, `bounds(i)` made as they are
    /// needed (no list of them beside the builder's own records: at ten million
    /// triangles, 240 MB less at the peak).
    pub fn build_from(count: usize, bounds: impl Fn(usize) -> Aabb + Sync) -> Built {
        Bvh::build_boxes(records(count, &bounds))
    }

    /// The tree over `boxes`; its order gives back the index each box was pushed with.
    pub fn build_boxes(boxes: Boxes) -> Built {
        let Boxes {
            mut prims,
            bounds: root,
        } = boxes;
        if prims.is_empty() {
            return Built::default();
        }
        if prims.len() < PARALLEL_MIN {
            let Subtree { nodes, depth } = build_subtree(&mut prims, 0, root, 1);
            return Built {
                bvh: Bvh { nodes },
                order: prims.iter().map(Prim::index).collect(),
                depth,
            };
        }
        let grown = build_in_two(&mut prims, root);
        let order = prims.iter().map(Prim::index).collect();
        // The records go before the subtrees are stitched into one list: at ten million
        // triangles they are 480 MB, and the stitching holds the nodes twice.
        drop(prims);
        let Subtree { nodes, depth } = grown.stitched();
        Built {
            bvh: Bvh { nodes },
            order,
            depth,
        }
    }
}

/// The builder's records of the boxes a tree is built over, in the order they were
/// pushed, each with the index the tree's order gives back for it, and their bounds. A
/// caller that already passes over its triangles (the world's build, dropping the
/// degenerate and the repeats) pushes their boxes in the same pass, where a second pass
/// reading every corner again took 7% of conference's build.
pub struct Boxes {
    prims: Vec<Prim>,
    bounds: RangeBounds,
}

impl Boxes {
    /// No boxes yet, room for `n`.
    pub fn with_capacity(n: usize) -> Boxes {
        Boxes {
            prims: Vec::with_capacity(n),
            bounds: RangeBounds::EMPTY,
        }
    }

    /// Add box `b`, for index `index` (at most [`MAX_LINK`]: more triangles than fit in
    /// memory; a larger one is cut to it).
    #[inline]
    pub fn push(&mut self, b: Aabb, index: u32) {
        let p = Prim::new(b, index);
        self.bounds.add(&p);
        self.prims.push(p);
    }

    /// How many boxes.
    pub fn len(&self) -> usize {
        self.prims.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.prims.is_empty()
    }

    /// The index of each box, in order.
    pub fn indices(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.prims.iter().map(Prim::index)
    }

    /// `other`'s boxes after these.
    pub fn append(&mut self, other: Boxes) {
        self.prims.extend(other.prims);
        self.bounds = self.bounds.union(&other.bounds);
    }

    /// Keep only the boxes whose index `keep` keeps, in order; the bounds are measured
    /// again over them (a box dropped may have widened them).
    pub fn retain(&mut self, keep: impl Fn(u32) -> bool) {
        self.prims.retain(|p| keep(p.index()));
        self.bounds = RangeBounds::of(&self.prims);
    }
}

/// The builder's record of each of `count` boxes, in order, and their bounds: from
/// [`PARALLEL_MIN`] boxes, the second half made on another thread (ten million
/// triangles: 0.25 s on one).
fn records(count: usize, bounds: &(impl Fn(usize) -> Aabb + Sync)) -> Boxes {
    // The first part has room for all (the second is appended without moving it).
    let made = |range: std::ops::Range<usize>, room: usize| {
        let mut b = Boxes::with_capacity(room);
        range.for_each(|i| b.push(bounds(i), i as u32));
        b
    };
    if count < PARALLEL_MIN {
        return made(0..count, count);
    }
    let half = count / 2;
    let (mut first, second) = std::thread::scope(|s| {
        let second = s.spawn(|| made(half..count, count - half));
        let first = made(0..half, count);
        (first, second.join().expect("BVH records thread panicked"))
    });
    first.append(second);
    first
}

/// Below this many triangles the build stays on one thread.
const PARALLEL_MIN: usize = 50_000;

/// A node still to split: its index among the nodes, its prims' bounds and its depth
/// (the root's is 1).
#[derive(Clone, Copy)]
struct Task {
    node: usize,
    bounds: RangeBounds,
    depth: usize,
}

/// Split `task`'s node of `nodes` by the SAH (its prims are in `prims`, whose first is
/// triangle slot `offset` of the whole build): its two children are pushed and returned
/// as tasks; `None` when it stays a leaf (`bins`: the thread's bins, any state). The one
/// step both the one-thread build and the top of the two-thread build take.
fn grow(
    nodes: &mut Vec<Node>,
    prims: &mut [Prim],
    offset: usize,
    task: &Task,
    bins: &mut Bins,
) -> Option<[Task; 2]> {
    let (first, count) = (
        nodes[task.node].index() as usize,
        nodes[task.node].count() as usize,
    );
    if count <= MIN_SPLIT {
        return None;
    }
    let range = &mut prims[first - offset..first - offset + count];
    let Split { mid, left, right } = split(range, &task.bounds, bins)?;
    let l = nodes.len();
    nodes.push(Node::new(left.min, left.max, first as u32, mid as u32));
    nodes.push(Node::new(
        right.min,
        right.max,
        (first + mid) as u32,
        (count - mid) as u32,
    ));
    nodes[task.node] = nodes[task.node].linked(l as u32, 0);
    let child = |node, bounds| Task {
        node,
        bounds,
        depth: task.depth + 1,
    };
    Some([child(l, left), child(l + 1, right)])
}

/// Build the tree over `prims`, whose first element is triangle slot `offset` of the
/// whole build, its root at `depth`. Node 0 of the result is the subtree's root; child
/// links are local.
fn build_subtree(prims: &mut [Prim], offset: usize, bounds: RangeBounds, depth: usize) -> Subtree {
    let mut nodes = Vec::with_capacity(2 * prims.len() / MIN_SPLIT + 1);
    nodes.push(Node::new(
        bounds.min,
        bounds.max,
        offset as u32,
        prims.len() as u32,
    ));
    let mut deepest = depth;
    let mut bins = Bins::EMPTY;
    // Explicit work list instead of recursion: deep trees never overflow the stack.
    let mut work = vec![Task {
        node: 0,
        bounds,
        depth,
    }];
    while let Some(task) = work.pop() {
        match grow(&mut nodes, prims, offset, &task, &mut bins) {
            Some([left, right]) => work.extend([right, left]),
            None => deepest = deepest.max(task.depth),
        }
    }
    Subtree {
        nodes,
        depth: deepest,
    }
}

/// The top of the tree is split on one thread while a pending subtree holds more than
/// this share of the triangles (1 / `TASK_SHARE`) ...
const TASK_SHARE: usize = 8;
/// ... and dealing the pending subtrees out would leave the two threads' loads further
/// apart than this share of the triangles (a balanced first split stops at once: each
/// more split of the top is a pass over its prims on one thread).
const BALANCE_SHARE: usize = 16;

/// Tasks dealt to two threads: the tasks of each (indices), and its triangles.
struct Deal {
    sides: [Vec<usize>; 2],
    load: [usize; 2],
}

/// Deal `tasks` to two threads, largest first, each to the thread with less work so far.
fn deal(tasks: &[Task], top: &[Node]) -> Deal {
    let mut by_size: Vec<usize> = (0..tasks.len()).collect();
    by_size.sort_by_key(|&k| std::cmp::Reverse(top[tasks[k].node].count()));
    let mut d = Deal {
        sides: [Vec::new(), Vec::new()],
        load: [0, 0],
    };
    for k in by_size {
        let side = usize::from(d.load[1] < d.load[0]);
        d.load[side] += top[tasks[k].node].count() as usize;
        d.sides[side].push(k);
    }
    d
}

/// The tree a subtree's task became.
struct Grown {
    node: usize,
    sub: Subtree,
}

/// The top of a tree and the subtrees grown below it, not yet one list of nodes.
struct TopAndSubtrees {
    top: Vec<Node>,
    /// Sorted by the top's node each replaces.
    built: Vec<Grown>,
    /// The depth of the top's deepest leaf.
    depth: usize,
}

/// Build the top of the tree on this thread until its pending subtrees can be dealt to
/// two threads evenly (a map's first split is often lopsided: conference's root left one
/// thread 80% of the work), build them on two threads, and stitch them in after the top
/// so siblings stay adjacent. The tree is the one [`build_subtree`] makes on one thread
/// (a node's split depends only on its own prims), laid out top first.
fn build_in_two(prims: &mut [Prim], root: RangeBounds) -> TopAndSubtrees {
    let n = prims.len();
    let mut top = vec![Node::new(root.min, root.max, 0, n as u32)];
    let mut tasks = vec![Task {
        node: 0,
        bounds: root,
        depth: 1,
    }];
    let mut depth = 1;
    let mut bins = Bins::EMPTY;
    let uneven = |tasks: &[Task], top: &[Node]| {
        let Deal { load, .. } = deal(tasks, top);
        load[0].abs_diff(load[1]) > n / BALANCE_SHARE
    };
    while uneven(&tasks, &top) {
        let Some(k) = (0..tasks.len())
            .filter(|&k| top[tasks[k].node].count() as usize > n / TASK_SHARE)
            .max_by_key(|&k| top[tasks[k].node].count())
        else {
            break;
        };
        let task = tasks.swap_remove(k);
        match grow(&mut top, prims, 0, &task, &mut bins) {
            Some(children) => tasks.extend(children),
            None => depth = depth.max(task.depth), // a leaf after all
        }
    }
    let Deal { sides, .. } = deal(&tasks, &top);
    let mut slices = carve(prims, &tasks, &top);
    let mut share = sides.map(|ks| {
        ks.into_iter()
            .map(|k| (tasks[k], slices[k].take().expect("each task has its slice")))
            .collect::<Vec<_>>()
    });
    let build_all = |mine: Vec<(Task, &mut [Prim])>| -> Vec<Grown> {
        mine.into_iter()
            .map(|(t, slice)| Grown {
                node: t.node,
                sub: build_subtree(slice, top[t.node].index() as usize, t.bounds, t.depth),
            })
            .collect()
    };
    let two = std::mem::take(&mut share[1]);
    let one = std::mem::take(&mut share[0]);
    let (mut built, other) = std::thread::scope(|s| {
        let other = s.spawn(|| build_all(two));
        (
            build_all(one),
            other.join().expect("BVH builder thread panicked"),
        )
    });
    built.extend(other);
    built.sort_by_key(|g| g.node);
    TopAndSubtrees { top, built, depth }
}

impl TopAndSubtrees {
    /// One list of nodes: the top first, then each subtree, its links made global.
    fn stitched(self) -> Subtree {
        let TopAndSubtrees {
            top,
            built,
            mut depth,
        } = self;
        let total = top.len() + built.iter().map(|g| g.sub.nodes.len() - 1).sum::<usize>();
        let mut nodes = Vec::with_capacity(total);
        nodes.extend(top);
        for Grown { node, sub } in built {
            depth = depth.max(sub.depth);
            // Local node i > 0 goes to base + i - 1; local 0 replaces the task's node.
            let base = nodes.len();
            let place = |i: u32| (base + i as usize - 1) as u32;
            for (i, mut n) in sub.nodes.into_iter().enumerate() {
                if !n.is_leaf() {
                    n = n.linked(place(n.index()), 0);
                }
                if i == 0 {
                    nodes[node] = n;
                } else {
                    nodes.push(n);
                }
            }
        }
        Subtree { nodes, depth }
    }
}

/// The tasks' prim ranges as disjoint slices, one a task, in the tasks' order.
fn carve<'a>(prims: &'a mut [Prim], tasks: &[Task], top: &[Node]) -> Vec<Option<&'a mut [Prim]>> {
    let mut by_start: Vec<usize> = (0..tasks.len()).collect();
    by_start.sort_unstable_by_key(|&k| top[tasks[k].node].index());
    let mut slices: Vec<Option<&mut [Prim]>> = (0..tasks.len()).map(|_| None).collect();
    let mut rest = prims;
    let mut at = 0;
    for k in by_start {
        let (start, count) = (
            top[tasks[k].node].index() as usize,
            top[tasks[k].node].count() as usize,
        );
        let (_, from) = std::mem::take(&mut rest).split_at_mut(start - at);
        let (mine, after) = from.split_at_mut(count);
        slices[k] = Some(mine);
        rest = after;
        at = start + count;
    }
    slices
}

/// Half the surface area of a box given by corners (0 when empty).
#[inline]
fn half_area(min: Vec3A, max: Vec3A) -> f32 {
    let s = (max - min).max(Vec3A::ZERO);
    s.x * s.y + s.y * s.z + s.z * s.x
}

/// The bin of a prim at `place` along the bins (its centroid's distance from the first
/// bin's start, in bins): counted in 32 bits (no centroid lies below the first bin, nor
/// past the last).
#[inline(always)]
fn bin_at(place: f32) -> usize {
    (place as u32).min(BINS as u32 - 1) as usize
}

/// Whether [`bin_at`]`(place)` is below `boundary` (1 to `BINS - 1`), without making the
/// bin: the conversion truncates, so the bin is below a whole boundary exactly when the
/// place is, and a NaN, which it makes bin 0, is never at or above it. The partition of
/// a range binned from a sample asks this of every prim (1% of conference's build).
#[inline(always)]
fn below(place: f32, boundary: usize) -> bool {
    place < boundary as f32 || place.is_nan()
}

/// Split `range` by the best binned-SAH boundary along the longest axis of the centroid
/// bounds; returns the size of the left part and both parts' bounds, or `None` when a
/// leaf is cheaper (and small enough).
fn split(range: &mut [Prim], rb: &RangeBounds, bins: &mut Bins) -> Option<Split> {
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
struct Bins {
    min: [Vec3A; BINS],
    max: [Vec3A; BINS],
    cmin: [Vec3A; BINS],
    cmax: [Vec3A; BINS],
    count: [usize; BINS],
    /// Bit `b` set: bin `b` holds a prim. The others are empty (infinite bounds, no
    /// prims), and the sweeps skip them.
    used: u32,
}

/// The bins that hold a prim, in order.
struct Used {
    bins: [usize; BINS],
    len: usize,
}

impl Used {
    fn all(&self) -> &[usize] {
        &self.bins[..self.len]
    }
}

/// The cheapest boundary: bins below it go left; its cost per sampled prim.
struct Best {
    boundary: usize,
    cost: f32,
}

impl Bins {
    const EMPTY: Bins = Bins {
        min: [Vec3A::INFINITY; BINS],
        max: [Vec3A::NEG_INFINITY; BINS],
        cmin: [Vec3A::INFINITY; BINS],
        cmax: [Vec3A::NEG_INFINITY; BINS],
        count: [0; BINS],
        used: 0,
    };

    /// Every bin empty again, at the cost of the bins used.
    fn clear(&mut self) {
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
    fn used(&self) -> Used {
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
    fn add(&mut self, b: usize, p: &Prim, centroids: bool) {
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
    /// bin: a review's 1.2 million box sets, NaN among them, built the same trees.)
    fn union(&self, range: std::ops::Range<usize>) -> RangeBounds {
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
    fn best_boundary(&self) -> Option<Best> {
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
fn median(range: &mut [Prim]) -> Split {
    let mid = range.len() / 2;
    Split {
        mid,
        left: RangeBounds::of(&range[..mid]),
        right: RangeBounds::of(&range[mid..]),
    }
}

#[cfg(test)]
mod tests;
