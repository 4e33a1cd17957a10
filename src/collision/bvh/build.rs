//! Building the [`Bvh`] with the binned surface area heuristic (Wald 2007: see the
//! parent module), on two threads from [`PARALLEL_MIN`] triangles.

use glam::Vec3A;

use super::{Bvh, Node};
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
}

/// A range of primitives cut in two: the first `mid` go left.
struct Split {
    mid: usize,
    left: RangeBounds,
    right: RangeBounds,
}

/// A triangle as the builder sees it: its box (SIMD-friendly) and its index. The builder
/// partitions these records themselves, so every pass reads memory in order.
#[derive(Clone, Copy)]
struct Prim {
    min: Vec3A,
    max: Vec3A,
    index: u32,
}

impl Prim {
    #[inline]
    fn centroid(&self) -> Vec3A {
        (self.min + self.max) * 0.5
    }
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
        self.min = self.min.min(p.min);
        self.max = self.max.max(p.max);
        let c = p.centroid();
        self.cmin = self.cmin.min(c);
        self.cmax = self.cmax.max(c);
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
        Bvh::build_from(bounds.iter().copied())
    }

    /// [`Bvh::build`] over bounds made as they are needed (no list of them beside the
    /// builder's own records: at ten million triangles, 240 MB less at the peak).
    pub fn build_from(bounds: impl ExactSizeIterator<Item = Aabb>) -> Built {
        if bounds.len() == 0 {
            return Built::default();
        }
        let mut prims: Vec<Prim> = bounds
            .enumerate()
            .map(|(i, b)| Prim {
                min: b.min.into(),
                max: b.max.into(),
                index: i as u32,
            })
            .collect();
        let root = RangeBounds::of(&prims);
        let nodes = if prims.len() < PARALLEL_MIN {
            build_subtree(&mut prims, 0, root)
        } else {
            build_in_two(&mut prims, root)
        };
        Built {
            bvh: Bvh { nodes },
            order: prims.iter().map(|p| p.index).collect(),
        }
    }
}

/// Below this many triangles the build stays on one thread.
const PARALLEL_MIN: usize = 50_000;

/// Build the tree over `prims`, whose first element is triangle slot `offset` of the
/// whole build. Node 0 of the result is the subtree's root; child links are local.
fn build_subtree(prims: &mut [Prim], offset: usize, rb: RangeBounds) -> Vec<Node> {
    let mut nodes = Vec::with_capacity(2 * prims.len() / MIN_SPLIT + 1);
    nodes.push(Node::new(rb.min, rb.max, offset as u32, prims.len() as u32));
    // Explicit work list instead of recursion: deep trees never overflow the stack.
    let mut work = vec![(0usize, rb)];
    while let Some((ni, rb)) = work.pop() {
        let (first, count) = (nodes[ni].index as usize, nodes[ni].count as usize);
        if count <= MIN_SPLIT {
            continue;
        }
        let range = &mut prims[first - offset..first - offset + count];
        let Some(Split { mid, left, right }) = split(range, &rb) else {
            continue;
        };
        let l = nodes.len();
        nodes.push(Node::new(left.min, left.max, first as u32, mid as u32));
        nodes.push(Node::new(
            right.min,
            right.max,
            (first + mid) as u32,
            (count - mid) as u32,
        ));
        nodes[ni].index = l as u32;
        nodes[ni].count = 0;
        work.push((l + 1, right));
        work.push((l, left));
    }
    nodes
}

/// Split the root once, build its two subtrees on two threads, and stitch them together
/// as `[root, left root, right root, left rest.., right rest..]` so siblings stay adjacent.
fn build_in_two(prims: &mut [Prim], root: RangeBounds) -> Vec<Node> {
    let Some(Split {
        mid,
        left: lb,
        right: rb,
    }) = split(prims, &root)
    else {
        return build_subtree(prims, 0, root);
    };
    let (lp, rp) = prims.split_at_mut(mid);
    let (left, right) = std::thread::scope(|s| {
        let right = s.spawn(|| build_subtree(rp, mid, rb));
        let left = build_subtree(lp, 0, lb);
        (left, right.join().expect("BVH builder thread panicked"))
    });
    let (nl, nr) = (left.len(), right.len());
    // New positions of local node i of each subtree.
    let place_l = |i: usize| if i == 0 { 1 } else { 3 + i - 1 };
    let place_r = |i: usize| if i == 0 { 2 } else { 3 + (nl - 1) + i - 1 };
    let mut nodes = vec![Node::new(root.min, root.max, 1, 0); 3 + nl - 1 + nr - 1];
    for (i, mut n) in left.into_iter().enumerate() {
        if !n.is_leaf() {
            n.index = place_l(n.index as usize) as u32;
        }
        nodes[place_l(i)] = n;
    }
    for (i, mut n) in right.into_iter().enumerate() {
        if !n.is_leaf() {
            n.index = place_r(n.index as usize) as u32;
        }
        nodes[place_r(i)] = n;
    }
    nodes
}

/// Half the surface area of a box given by corners (0 when empty).
#[inline]
fn half_area(min: Vec3A, max: Vec3A) -> f32 {
    let s = (max - min).max(Vec3A::ZERO);
    s.x * s.y + s.y * s.z + s.z * s.x
}

/// Split `range` by the best binned-SAH boundary along the longest axis of the centroid
/// bounds; returns the size of the left part and both parts' bounds, or `None` when a
/// leaf is cheaper (and small enough).
fn split(range: &mut [Prim], rb: &RangeBounds) -> Option<Split> {
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
    let bin_of = |p: &Prim| (((p.centroid()[axis] - lo) * scale) as usize).min(BINS - 1);

    let mut bin_min = [Vec3A::INFINITY; BINS];
    let mut bin_max = [Vec3A::NEG_INFINITY; BINS];
    let mut bin_count = [0usize; BINS];
    let stride = (count / SAMPLE).max(1);
    for p in range.iter().step_by(stride) {
        let b = bin_of(p);
        bin_min[b] = bin_min[b].min(p.min);
        bin_max[b] = bin_max[b].max(p.max);
        bin_count[b] += 1;
    }
    // Sweep from the right, then from the left, to get each boundary's cost.
    let mut right_cost = [0.0f32; BINS];
    let (mut mn, mut mx, mut n) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY, 0usize);
    for b in (1..BINS).rev() {
        mn = mn.min(bin_min[b]);
        mx = mx.max(bin_max[b]);
        n += bin_count[b];
        right_cost[b] = if n == 0 {
            f32::INFINITY
        } else {
            half_area(mn, mx) * n as f32
        };
    }
    let mut best: Option<(f32, usize)> = None;
    let (mut mn, mut mx, mut n) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY, 0usize);
    for b in 1..BINS {
        mn = mn.min(bin_min[b - 1]);
        mx = mx.max(bin_max[b - 1]);
        n += bin_count[b - 1];
        if n == 0 || !right_cost[b].is_finite() {
            continue;
        }
        let cost = half_area(mn, mx) * n as f32 + right_cost[b];
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, b));
        }
    }
    // Costs are per sampled prim: scale back to the whole range.
    let parent_area = half_area(rb.min, rb.max).max(f32::MIN_POSITIVE);
    let sampled = count.div_ceil(stride) as f32;
    let split_cost =
        best.map(|(c, b)| (TRAVERSAL_COST + c / parent_area * count as f32 / sampled, b));
    match split_cost {
        Some((cost, boundary)) if cost < count as f32 || count > MAX_LEAF => {
            // Partition and measure both sides in the same pass.
            let (mut left, mut right) = (RangeBounds::EMPTY, RangeBounds::EMPTY);
            let mut i = 0;
            for j in 0..count {
                if bin_of(&range[j]) < boundary {
                    left.add(&range[j]);
                    range.swap(i, j);
                    i += 1;
                } else {
                    right.add(&range[j]);
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
        _ if count > MAX_LEAF => Some(median(range)),
        _ => None,
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
mod tests {
    use super::*;
    use glam::Vec3;

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
            let nb = n.bounds();
            if !root {
                assert!(parent.contains(nb.min) && parent.contains(nb.max));
            }
            if n.is_leaf() {
                assert!(n.count as usize <= MAX_LEAF);
                for k in n.triangles() {
                    let t = order[k as usize] as usize;
                    seen[t] += 1;
                    assert!(nb.contains(bounds[t].min) && nb.contains(bounds[t].max));
                }
            } else {
                stack.push((n.children()[0], nb, false));
                stack.push((n.children()[1], nb, false));
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
    }

    #[test]
    fn every_triangle_lands_in_exactly_one_leaf() {
        for n in [1, 2, 3, 17, 1000] {
            let b = boxes(n);
            let Built { bvh, order } = Bvh::build(&b);
            check(&bvh, &order, &b);
        }
    }

    #[test]
    fn two_thread_build_keeps_every_triangle_once_and_siblings_adjacent() {
        let n = PARALLEL_MIN + 12_345;
        let b: Vec<Aabb> = (0..n)
            .map(|i| {
                let p = Vec3::new(
                    (i % 97) as f32,
                    (i / 97 % 89) as f32 * 0.5,
                    (i / 8633) as f32 * 3.0,
                );
                Aabb::from_points([p, p + Vec3::new(0.7, 0.2, 0.4)])
            })
            .collect();
        let Built { bvh, order } = Bvh::build(&b);
        check(&bvh, &order, &b);
        // Children of every interior node are inside the array and after their parent.
        for (i, node) in bvh.nodes.iter().enumerate() {
            if !node.is_leaf() {
                let [l, r] = node.children();
                assert!(l > i && r < bvh.nodes.len());
            }
        }
    }

    #[test]
    fn identical_boxes_still_make_small_leaves() {
        let b = vec![Aabb::from_points([Vec3::ZERO, Vec3::ONE]); 500];
        let Built { bvh, order } = Bvh::build(&b);
        check(&bvh, &order, &b);
        assert!(bvh.depth() < 20);
    }

    #[test]
    fn empty_input_gives_empty_tree() {
        let Built { bvh, order } = Bvh::build(&[]);
        assert!(bvh.nodes.is_empty() && order.is_empty());
        assert_eq!(bvh.depth(), 0);
    }

    #[test]
    fn tree_is_shallow_for_spread_out_triangles() {
        let bvh = Bvh::build(&boxes(1000)).bvh;
        assert!(bvh.depth() <= 16, "depth {}", bvh.depth());
    }
}
