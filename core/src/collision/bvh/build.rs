//! Building the [`Bvh`] with the binned surface area heuristic (Wald 2007: see the
//! parent module), on two threads from [`PARALLEL_MIN`] triangles: the entry points and
//! the records they take ([`Boxes`]), and the growth of a tree from a root by splitting
//! node after node. How one node is split is [`sah`]'s; the builder's record of a triangle
//! is [`prim`]'s; how a large build is shared between two threads is [`two`]'s.

use super::{Bvh, Node};
use crate::geometry::Aabb;

mod prim;
mod sah;
mod two;

use prim::{Prim, RangeBounds};
use sah::{Bins, Split, split};
use two::build_in_two;

/// A node with at most this many triangles becomes a leaf without trying to split.
const MIN_SPLIT: usize = 2;

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
    ///
    /// [`MAX_LINK`]: super::MAX_LINK
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

#[cfg(test)]
mod tests;
