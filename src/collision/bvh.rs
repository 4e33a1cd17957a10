//! A bounding volume hierarchy over the triangles, built once at load with the binned
//! surface area heuristic (Wald, "On fast Construction of SAH-based Bounding Volume
//! Hierarchies", 2007) and stored flat: children of node `i` sit next to each other, leaves
//! point into a triangle order that the world adopts, so a leaf's triangles are contiguous.
//!
//! The BVH only chooses candidates. Its boxes are inflated by the skin (plus a margin for
//! rounding) because a move can be stopped by a triangle it passes within `SKIN` of.

use glam::Vec3;

use crate::geometry::Aabb;

/// Number of bins along an axis when the SAH looks for a split.
const BINS: usize = 16;
/// A node with at most this many triangles becomes a leaf without trying to split.
const MIN_SPLIT: usize = 2;
/// A leaf never holds more than this many triangles (a split is forced past it).
const MAX_LEAF: usize = 16;
/// SAH cost of visiting a node, relative to testing one triangle.
const TRAVERSAL_COST: f32 = 1.0;
/// Depth of the traversal stack; a binned-SAH tree over a billion triangles stays far below.
pub const STACK_DEPTH: usize = 64;

/// One node of the flattened tree.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Bounds of everything below, inflated by the skin margin.
    pub bounds: Aabb,
    /// Leaf: first triangle (in BVH order). Interior: index of the left child (the right
    /// child follows it).
    pub first: u32,
    /// Number of triangles of a leaf; 0 for an interior node.
    pub count: u32,
}

impl Node {
    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }
}

/// The tree: nodes, root first.
#[derive(Clone, Debug, Default)]
pub struct Bvh {
    /// Flattened nodes; `nodes[0]` is the root. Empty when there are no triangles.
    pub nodes: Vec<Node>,
}

impl Bvh {
    /// Build over triangles given by their (already inflated) bounds. Returns the tree and
    /// the permutation `order`: leaf ranges index `order`, and the world reorders its
    /// triangles by it so that the ranges index the triangles directly.
    pub fn build(bounds: &[Aabb]) -> (Bvh, Vec<u32>) {
        let mut order: Vec<u32> = (0..bounds.len() as u32).collect();
        if bounds.is_empty() {
            return (Bvh::default(), order);
        }
        let centroids: Vec<Vec3> = bounds.iter().map(Aabb::center).collect();
        let mut nodes = Vec::with_capacity(2 * bounds.len() / MIN_SPLIT + 1);
        nodes.push(Node {
            bounds: Aabb::EMPTY,
            first: 0,
            count: bounds.len() as u32,
        });
        // Explicit work list instead of recursion: deep trees never overflow the stack.
        let mut work = vec![0usize];
        while let Some(ni) = work.pop() {
            let (first, count) = (nodes[ni].first as usize, nodes[ni].count as usize);
            let range = &mut order[first..first + count];
            let node_bounds = range
                .iter()
                .fold(Aabb::EMPTY, |b, &i| b.union(bounds[i as usize]));
            nodes[ni].bounds = node_bounds;
            if count <= MIN_SPLIT {
                continue;
            }
            let Some(mid) = split(range, bounds, &centroids, node_bounds, count) else {
                continue;
            };
            let left = nodes.len();
            nodes.push(Node {
                bounds: Aabb::EMPTY,
                first: first as u32,
                count: mid as u32,
            });
            nodes.push(Node {
                bounds: Aabb::EMPTY,
                first: (first + mid) as u32,
                count: (count - mid) as u32,
            });
            nodes[ni].first = left as u32;
            nodes[ni].count = 0;
            work.push(left + 1);
            work.push(left);
        }
        (Bvh { nodes }, order)
    }

    /// Depth of the deepest leaf (the root alone is depth 1).
    pub fn depth(&self) -> usize {
        fn walk(nodes: &[Node], i: usize) -> usize {
            let n = &nodes[i];
            if n.is_leaf() {
                1
            } else {
                1 + walk(nodes, n.first as usize).max(walk(nodes, n.first as usize + 1))
            }
        }
        if self.nodes.is_empty() {
            0
        } else {
            walk(&self.nodes, 0)
        }
    }
}

/// Partition `range` by the best binned-SAH split; returns the size of the left part, or
/// `None` when a leaf is cheaper (and small enough).
fn split(
    range: &mut [u32],
    bounds: &[Aabb],
    centroids: &[Vec3],
    node_bounds: Aabb,
    count: usize,
) -> Option<usize> {
    let cb = range
        .iter()
        .fold(Aabb::EMPTY, |b, &i| b.grown(centroids[i as usize]));
    let extent = cb.size();
    let mut best: Option<(f32, usize, usize)> = None; // (cost, axis, bin boundary)
    for axis in 0..3 {
        if extent[axis] <= 0.0 {
            continue;
        }
        let scale = BINS as f32 / extent[axis];
        let bin_of = |c: Vec3| (((c[axis] - cb.min[axis]) * scale) as usize).min(BINS - 1);
        let mut bin_bounds = [Aabb::EMPTY; BINS];
        let mut bin_count = [0usize; BINS];
        for &i in range.iter() {
            let b = bin_of(centroids[i as usize]);
            bin_bounds[b] = bin_bounds[b].union(bounds[i as usize]);
            bin_count[b] += 1;
        }
        // Sweep from the right, then from the left, to get each boundary's cost.
        let mut right_area = [0.0f32; BINS];
        let mut right_count = [0usize; BINS];
        let (mut acc, mut n) = (Aabb::EMPTY, 0);
        for b in (1..BINS).rev() {
            acc = acc.union(bin_bounds[b]);
            n += bin_count[b];
            right_area[b] = acc.half_area();
            right_count[b] = n;
        }
        let (mut acc, mut n) = (Aabb::EMPTY, 0);
        for b in 1..BINS {
            acc = acc.union(bin_bounds[b - 1]);
            n += bin_count[b - 1];
            if n == 0 || right_count[b] == 0 {
                continue;
            }
            let cost = acc.half_area() * n as f32 + right_area[b] * right_count[b] as f32;
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, b));
            }
        }
    }

    let parent_area = node_bounds.half_area().max(f32::MIN_POSITIVE);
    let leaf_cost = count as f32;
    match best {
        Some((cost, axis, boundary))
            if TRAVERSAL_COST + cost / parent_area < leaf_cost || count > MAX_LEAF =>
        {
            let scale = BINS as f32 / extent[axis];
            let mid = partition(range, |&i| {
                let c = centroids[i as usize];
                ((((c[axis] - cb.min[axis]) * scale) as usize).min(BINS - 1)) < boundary
            });
            (mid > 0 && mid < count).then_some(mid)
        }
        // All centroids coincide (or no useful split): a forced median split keeps leaves
        // small even for piles of identical triangles.
        _ if count > MAX_LEAF => Some(count / 2),
        _ => None,
    }
}

/// In-place partition: elements satisfying `pred` first; returns how many.
fn partition<T>(v: &mut [T], mut pred: impl FnMut(&T) -> bool) -> usize {
    let mut i = 0;
    for j in 0..v.len() {
        if pred(&v[j]) {
            v.swap(i, j);
            i += 1;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(n: usize) -> Vec<Aabb> {
        (0..n)
            .map(|i| {
                let p = Vec3::new((i % 10) as f32, (i / 10 % 10) as f32, (i / 100) as f32);
                Aabb::from_points([p, p + Vec3::splat(0.5)])
            })
            .collect()
    }

    fn check(bvh: &Bvh, order: &[u32], bounds: &[Aabb]) {
        // Every triangle sits in exactly one leaf, inside that leaf's and its parents' bounds.
        let mut seen = vec![0u32; bounds.len()];
        let mut stack = vec![(0usize, Aabb::EMPTY, true)];
        while let Some((i, parent, root)) = stack.pop() {
            let n = bvh.nodes[i];
            if !root {
                assert!(parent.contains(n.bounds.min) && parent.contains(n.bounds.max));
            }
            if n.is_leaf() {
                assert!(n.count as usize <= MAX_LEAF);
                for k in n.first..n.first + n.count {
                    let t = order[k as usize] as usize;
                    seen[t] += 1;
                    assert!(n.bounds.contains(bounds[t].min) && n.bounds.contains(bounds[t].max));
                }
            } else {
                stack.push((n.first as usize, n.bounds, false));
                stack.push((n.first as usize + 1, n.bounds, false));
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
    }

    #[test]
    fn every_triangle_lands_in_exactly_one_leaf() {
        for n in [1, 2, 3, 17, 1000] {
            let b = boxes(n);
            let (bvh, order) = Bvh::build(&b);
            check(&bvh, &order, &b);
        }
    }

    #[test]
    fn identical_boxes_still_make_small_leaves() {
        let b = vec![Aabb::from_points([Vec3::ZERO, Vec3::ONE]); 500];
        let (bvh, order) = Bvh::build(&b);
        check(&bvh, &order, &b);
        assert!(bvh.depth() < 20);
    }

    #[test]
    fn empty_input_gives_empty_tree() {
        let (bvh, order) = Bvh::build(&[]);
        assert!(bvh.nodes.is_empty() && order.is_empty());
        assert_eq!(bvh.depth(), 0);
    }

    #[test]
    fn tree_is_shallow_for_spread_out_triangles() {
        let (bvh, _) = Bvh::build(&boxes(1000));
        assert!(bvh.depth() <= 16, "depth {}", bvh.depth());
    }
}
