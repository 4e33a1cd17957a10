//! A bounding volume hierarchy over the triangles, built once at load with the binned
//! surface area heuristic (Wald, "On fast Construction of SAH-based Bounding Volume
//! Hierarchies", 2007) and stored flat: children of node `i` sit next to each other, leaves
//! point into a triangle order that the world adopts, so a leaf's triangles are contiguous.
//!
//! The BVH only chooses candidates. It is built on the triangles' true bounds (so the SAH
//! sees their real sizes); a query inflates every box by what it needs (a swept body by
//! its radii), and [`Bvh::traverse`] is the one walk of the tree that every query shares:
//! the query is a [`Visitor`] that says which boxes to enter and tests the leaves.

mod build;

use std::ops::Range;

use glam::{Vec3, Vec3A, Vec4};

use crate::geometry::{Aabb, SlabRay};

pub use build::{Boxes, Built};

/// Entries of the traversal stack kept inline (on the call stack); a deeper tree (a
/// binned-SAH tree over real maps stays far below, a pathological one need not) spills
/// the rest to the heap: no child is ever dropped.
pub const STACK_DEPTH: usize = 64;

/// One node of the flattened tree: 32 bytes, two to a cache line, its bounds in SIMD
/// lanes for the slab test. The fourth lane of each corner carries the node's link: the
/// smallest corner's its `index`, the largest's its `count`, each with bit 30 set so that
/// the lane holds a plain finite float (at least 2: never a denormal, which would slow the
/// lanes' arithmetic), and the lane is ignored by every three-lane operation that reads the
/// corners. (Nodes with the link in fields of their own were 48 bytes; at ten million
/// triangles the tree is 8.4 million nodes, and those 16 bytes a node were 130 MB at the
/// peak of a load. Packing links into the bounds' spare lane is what compact BVH layouts
/// commonly do, e.g. Embree's and tinybvh's.)
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Smallest corner of the triangles below (not inflated); `w`: the tagged `index`.
    lo: Vec4,
    /// Largest corner; `w`: the tagged `count`.
    hi: Vec4,
}

const _: () = assert!(std::mem::size_of::<Node>() == 32);

/// The bit set in a link's lane: the lane then reads as a float of at least 2.
const LINK_TAG: u32 = 1 << 30;

/// The largest `index` or `count` a node holds: with [`LINK_TAG`] set the lane stays
/// finite (an exponent of all ones would be infinity or NaN). About a billion: more
/// triangles than fit in memory.
pub const MAX_LINK: u32 = 0x3F7F_FFFF;

impl Node {
    /// A node with bounds `min` to `max`; `index` and `count` as [`Node::index`] and
    /// [`Node::count`] read them (at most [`MAX_LINK`], which a tree over a map in memory
    /// cannot reach; the cache's reader refuses more, and a larger link is cut to it).
    pub fn new(min: Vec3A, max: Vec3A, index: u32, count: u32) -> Node {
        debug_assert!(index <= MAX_LINK && count <= MAX_LINK);
        let lane = |link: u32| f32::from_bits(link.min(MAX_LINK) | LINK_TAG);
        Node {
            lo: min.extend(lane(index)),
            hi: max.extend(lane(count)),
        }
    }

    /// Leaf: the index of its first triangle (in BVH order). Interior: the index of its
    /// left child node (the right child follows it). Read through
    /// [`triangles`](Self::triangles) and [`children`](Self::children).
    #[inline(always)]
    pub fn index(&self) -> u32 {
        self.lo.w.to_bits() & !LINK_TAG
    }

    /// Number of triangles of a leaf; 0 for an interior node.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.hi.w.to_bits() & !LINK_TAG
    }

    /// This node, linked to `index` and `count` instead.
    pub fn linked(&self, index: u32, count: u32) -> Node {
        Node::new(self.lo(), self.hi(), index, count)
    }

    /// The smallest corner, in SIMD lanes (the fourth holds the link: ignore it).
    #[inline(always)]
    pub fn lo(&self) -> Vec3A {
        Vec3A::from_vec4(self.lo)
    }

    /// The largest corner, in SIMD lanes (the fourth holds the link: ignore it).
    #[inline(always)]
    pub fn hi(&self) -> Vec3A {
        Vec3A::from_vec4(self.hi)
    }

    /// The smallest corner.
    pub fn min(&self) -> Vec3 {
        self.lo.truncate()
    }

    /// The largest corner.
    pub fn max(&self) -> Vec3 {
        self.hi.truncate()
    }

    /// The sum of the box's three extents: its size at a glance (a query that looks
    /// closer only at small boxes asks it first).
    #[inline(always)]
    pub fn span(&self) -> f32 {
        (self.hi() - self.lo()).element_sum()
    }

    /// The node's bounds as an [`Aabb`].
    pub fn bounds(&self) -> Aabb {
        Aabb {
            min: self.min(),
            max: self.max(),
        }
    }

    /// Where `ray` enters the node's box (grown by the ray's margin), if within
    /// `[0, t_max]`: see [`SlabRay::entry`].
    #[inline(always)]
    pub fn ray_entry(&self, ray: &SlabRay, t_max: f32) -> Option<f32> {
        ray.entry(self.lo(), self.hi(), t_max)
    }

    /// Does the node's box meet the box from `min` to `max`?
    #[inline]
    pub fn overlaps(&self, min: Vec3A, max: Vec3A) -> bool {
        self.lo().cmple(max).all() && self.hi().cmpge(min).all()
    }

    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count() > 0
    }

    /// A leaf's triangles (indices in BVH order).
    #[inline]
    pub fn triangles(&self) -> Range<u32> {
        let index = self.index();
        index..index + self.count()
    }

    /// An interior node's two children (indices of nodes).
    #[inline]
    pub fn children(&self) -> [usize; 2] {
        let left = self.index() as usize;
        [left, left + 1]
    }
}

/// A query walking the tree: it decides which boxes to enter and tests the triangles of
/// the leaves it reaches. It keeps its own best answer, so [`Visitor::enter`] can prune
/// boxes that lie beyond it.
pub trait Visitor {
    /// Whether to visit `node` (and everything below it): the query's entry parameter
    /// into its box (nearer nodes are visited first), or `None` to skip it.
    fn enter(&mut self, node: &Node) -> Option<f32>;

    /// Test the triangles of a leaf (indices in the tree's triangle order).
    fn visit_leaf(&mut self, triangles: Range<u32>);

    /// Which of two children entered at the same parameter to visit first: the one of
    /// lower distance. A sweep starts inside every box around a resting body (entry 0),
    /// and its contact lies in the box nearest the body; by default, the first child.
    fn distance(&self, _node: &Node) -> f32 {
        0.0
    }
}

/// The tree: nodes, root first.
#[derive(Clone, Debug, Default)]
pub struct Bvh {
    /// Flattened nodes; `nodes[0]` is the root. Empty when there are no triangles.
    pub nodes: Vec<Node>,
}

impl Bvh {
    /// Recompute every node's bounds from its triangles' bounds, in the tree's triangle
    /// order: the same tree, fitted to moved triangles. Children always come after their
    /// parent, so one backward sweep suffices.
    pub fn refit(&mut self, bounds: &[Aabb]) {
        for i in (0..self.nodes.len()).rev() {
            let n = self.nodes[i];
            let b = if n.is_leaf() {
                let leaf = n.triangles();
                bounds[leaf.start as usize..leaf.end as usize]
                    .iter()
                    .fold(Aabb::EMPTY, |b, t| b.union(*t))
            } else {
                self.nodes[n.children()[0]]
                    .bounds()
                    .union(self.nodes[n.children()[1]].bounds())
            };
            let n = &mut self.nodes[i];
            *n = Node::new(b.min.into(), b.max.into(), n.index(), n.count());
        }
    }

    /// Walk the tree for `visitor`: depth first, the nearer child first so that the
    /// farther one is often pruned by then (of two entered together, the one the visitor
    /// says is nearer). This is the only traversal of the tree.
    pub fn traverse(&self, visitor: &mut impl Visitor) {
        let Some(root) = self.nodes.first() else {
            return;
        };
        if visitor.enter(root).is_none() {
            return;
        }
        // The node in hand, and the farther children left for later: the nearer child of
        // two is taken straight away, never pushed and popped.
        let mut stack = TraversalStack::new();
        let mut index = 0;
        loop {
            let node = &self.nodes[index];
            let next = if node.is_leaf() {
                visitor.visit_leaf(node.triangles());
                None
            } else {
                let [l, r] = node.children();
                let tl = visitor.enter(&self.nodes[l]);
                let tr = visitor.enter(&self.nodes[r]);
                match (tl, tr) {
                    (Some(a), Some(b)) => {
                        let left_first = if a == b {
                            visitor.distance(&self.nodes[l]) <= visitor.distance(&self.nodes[r])
                        } else {
                            a < b
                        };
                        let (near, far) = if left_first { (l, r) } else { (r, l) };
                        stack.push(far as u32);
                        Some(near)
                    }
                    (Some(_), None) => Some(l),
                    (None, Some(_)) => Some(r),
                    (None, None) => None,
                }
            };
            match next.or_else(|| stack.pop().map(|i| i as usize)) {
                Some(i) => index = i,
                None => return,
            }
        }
    }

    /// Depth of the deepest leaf (the root alone is depth 1).
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(0usize, 1usize)];
        while let Some((i, d)) = stack.pop() {
            let Some(n) = self.nodes.get(i) else { break };
            if n.is_leaf() {
                deepest = deepest.max(d);
            } else {
                stack.push((n.children()[0], d + 1));
                stack.push((n.children()[1], d + 1));
            }
        }
        deepest
    }
}

/// The traversal's stack of nodes still to visit: [`STACK_DEPTH`] entries in a plain
/// array on the call stack, and past them a `Vec` that allocates only when a tree is that
/// deep (never for a binned-SAH tree over a real map). No child is ever dropped.
///
/// A `SmallVec` did the same job (ebc749e) and made every sweep on the open city 2.6x
/// slower: its push and pop ask on every call whether it has spilled and where its data
/// lives. Here the hot path is an array index and one length test of the spill.
struct TraversalStack {
    inline: [u32; STACK_DEPTH],
    len: usize,
    spill: Vec<u32>,
}

impl TraversalStack {
    #[inline(always)]
    fn new() -> TraversalStack {
        TraversalStack {
            inline: [0; STACK_DEPTH],
            len: 0,
            spill: Vec::new(),
        }
    }

    /// Entries go to the array while it has room; once it is full they go to the spill,
    /// and since the array is popped only when the spill is empty, the order stays
    /// last-in, first-out across both.
    #[inline(always)]
    fn push(&mut self, node: u32) {
        if self.len < STACK_DEPTH {
            self.inline[self.len] = node;
            self.len += 1;
        } else {
            self.spill_push(node);
        }
    }

    #[cold]
    #[inline(never)]
    fn spill_push(&mut self, node: u32) {
        self.spill.push(node);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        if !self.spill.is_empty() {
            return self.spill.pop();
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.inline[self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_keeps_its_bounds_and_links_in_32_bytes() {
        let (min, max) = (Vec3A::new(-1.0, 2.0, -3.5), Vec3A::new(4.0, 2.5, 0.0));
        for (index, count) in [(0, 0), (1, 16), (12_345_678, 3), (MAX_LINK, MAX_LINK)] {
            let n = Node::new(min, max, index, count);
            assert_eq!((n.index(), n.count()), (index, count));
            assert_eq!((n.min(), n.max()), (Vec3::from(min), Vec3::from(max)));
            assert_eq!(n.span(), 5.0 + 0.5 + 3.5);
            // The link lanes hold plain floats: finite, and never denormal.
            for lane in [n.lo.w, n.hi.w] {
                assert!(lane.is_finite() && lane >= 2.0, "{lane}");
            }
            // Three-lane operations ignore them.
            assert!(n.overlaps(max, max) && !n.overlaps(max + 0.1, max + 1.0));
            let linked = n.linked(7, 0);
            assert_eq!(
                (linked.index(), linked.count(), linked.bounds()),
                (7, 0, n.bounds())
            );
        }
    }

    /// Visits every node it is offered and collects the leaves' triangles. Interior nodes
    /// are nearer than leaves, so a leaf beside the path down waits on the stack.
    struct Everything(Vec<u32>);

    impl Visitor for Everything {
        fn enter(&mut self, node: &Node) -> Option<f32> {
            Some(if node.is_leaf() { 1.0 } else { 0.0 })
        }
        fn visit_leaf(&mut self, triangles: Range<u32>) {
            self.0.extend(triangles);
        }
    }

    /// The traversal's stack held 64 entries and, in release
    /// builds, silently skipped the children of a deeper tree. A chain 300 deep (each
    /// interior node a leaf and the rest of the chain, the leaves waiting on the stack:
    /// 300 of them, more than the inline 64) must still give every triangle.
    #[test]
    fn a_tree_deeper_than_the_inline_stack_is_walked_whole() {
        let depth = 300u32;
        let leaf = |k: u32| Node::new(Vec3A::splat(k as f32), Vec3A::splat(k as f32 + 1.0), k, 1);
        let mut nodes = Vec::new();
        for k in 0..depth {
            nodes.push(Node::new(
                Vec3A::splat(k as f32),
                Vec3A::splat(depth as f32 + 1.0),
                2 * k + 1,
                0,
            ));
            nodes.push(leaf(k));
        }
        nodes.push(leaf(depth));
        let bvh = Bvh { nodes };
        assert_eq!(bvh.depth(), depth as usize + 1);
        let mut all = Everything(Vec::new());
        bvh.traverse(&mut all);
        // The chain's end first (its two leaves, the left one at a tie), then the waiting
        // leaves from the deepest up: last in, first out across the inline part and the
        // spill.
        let mut want = vec![depth - 1, depth];
        want.extend((0..depth - 1).rev());
        assert_eq!(all.0, want);
    }

    #[test]
    fn the_traversal_stack_is_last_in_first_out_across_its_spill() {
        let mut stack = TraversalStack::new();
        let n = 3 * STACK_DEPTH as u32;
        for k in 0..n {
            stack.push(k);
        }
        assert_eq!(stack.spill.len(), n as usize - STACK_DEPTH);
        // Pops interleaved with pushes across the boundary keep the order.
        assert_eq!(stack.pop(), Some(n - 1));
        stack.push(1000);
        assert_eq!(stack.pop(), Some(1000));
        let rest: Vec<u32> = std::iter::from_fn(|| stack.pop()).collect();
        assert_eq!(rest, (0..n - 1).rev().collect::<Vec<_>>());
        assert_eq!(stack.pop(), None);
    }
}
