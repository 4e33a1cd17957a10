//! Building a collision world from its triangles' corners: the degenerate dropped, the
//! repeats dropped, the tree built over the rest, and each kept triangle made once, in
//! the tree's order.
//!
//! The corners are read through a function of the triangle's index (a map's vertex list,
//! read where it lies), not copied into a list of triangles first: the triangles are made
//! only once the tree's order is known, straight into their final place. At ten million
//! triangles that is one 680 MB list fewer at the peak, and the passes over the corners
//! run on both cores.

use std::sync::Arc;

use glam::Vec3;

use super::CollisionWorld;
use crate::collision::bvh::{Boxes, Built, Bvh};
use crate::collision::revision::Revision;
use crate::geometry::{Aabb, Triangle};

/// Below this many triangles a pass stays on one thread.
const IN_TWO_MIN: usize = 100_000;

/// Triangles whose corners [`made`] reads before it makes them (see there).
const GATHER_BATCH: usize = 256;

/// What the first pass keeps of a triangle that is not degenerate: the digest of its
/// corners (the same in any corner order) and its index. 32 bits of digest: the radix
/// sort makes half the passes over half the bytes of a 64-bit one (on conference 1.5 ms
/// less of the build); other triangles sharing a digest (at ten million, some ten
/// thousand pairs) are told apart by their corners.
type Digested = (u32, u32);

/// The triangles kept, and what was dropped.
struct Kept {
    /// The boxes of the triangles kept, by index, ascending.
    boxes: Boxes,
    /// Degenerate triangles dropped.
    dropped: usize,
    /// Repeated triangles dropped.
    duplicates: usize,
}

/// Build the world over `count` triangles whose corners `corners(i)` gives (world
/// coordinates). Degenerate ones are dropped and counted (no NaN or infinity ever enters
/// the world), and every triangle whose corners an earlier one already has.
pub(super) fn build(
    count: usize,
    corners: &(impl Fn(usize) -> [Vec3; 3] + Sync),
) -> CollisionWorld {
    let Kept {
        boxes,
        dropped,
        duplicates,
    } = kept(count, corners);
    let Built { bvh, order, depth } = Bvh::build_boxes(boxes);
    let triangles = made(&order, corners);
    drop(order);
    let bounds = bvh.nodes.first().map_or(Aabb::EMPTY, |root| root.bounds());
    CollisionWorld {
        triangles: Arc::new(triangles),
        bvh: Arc::new(bvh),
        dropped,
        duplicates,
        bounds,
        depth,
        revision: Revision::fresh(),
    }
}

/// The digest of a triangle's corners: a sum of per-corner digests, the same in any
/// corner order, with no sort; the sum's top half (its best mixed bits).
fn digest([a, b, c]: [Vec3; 3]) -> u32 {
    let corner = |v: Vec3| {
        v.to_array().iter().fold(0u64, |h, &x| {
            (h.rotate_left(5) ^ u64::from(x.to_bits())).wrapping_mul(0x517c_c1b7_2722_0a95)
        })
    };
    (corner(a).wrapping_add(corner(b)).wrapping_add(corner(c)) >> 32) as u32
}

/// The three corners' bits, sorted: equal for the same triangle in any corner order.
fn corner_key(corners: [Vec3; 3]) -> [[u32; 3]; 3] {
    let mut key = corners.map(|v| v.to_array().map(f32::to_bits));
    key.sort_unstable();
    key
}

/// The triangles to keep: not degenerate, and not a repeat of an earlier one (in any
/// corner order). A repeated triangle collides exactly like its first copy, but a pile
/// of copies cannot be split by the BVH, so every query near it would test them all (a
/// file with one face line repeated 100,000 times took seconds a step). Sorting 32-bit
/// digests costs a fraction of a hash set of whole keys; equal digests are compared in
/// full.
fn kept(count: usize, corners: &(impl Fn(usize) -> [Vec3; 3] + Sync)) -> Kept {
    let Digests {
        mut boxes,
        mut low,
        mut high,
    } = if count < IN_TWO_MIN {
        digests(0..count, count, corners)
    } else {
        let half = count / 2;
        let (mut first, second) = std::thread::scope(|s| {
            let second = s.spawn(|| digests(half..count, count - half, corners));
            let first = digests(0..half, count, corners);
            (first, second.join().expect("digest thread panicked"))
        });
        first.append(second);
        first
    };
    let dropped = count - boxes.len();
    // Each half of the digests sorted, and its repeats found, on its own core: a run of
    // equal digests never crosses from one half to the other.
    let key = |i: u32| corner_key(corners(i as usize));
    let repeat = if count < IN_TWO_MIN {
        let mut repeat = sorted_repeats(&mut low, key);
        repeat.extend(sorted_repeats(&mut high, key));
        repeat
    } else {
        std::thread::scope(|s| {
            let other = s.spawn(|| sorted_repeats(&mut high, key));
            let mut repeat = sorted_repeats(&mut low, key);
            repeat.extend(other.join().expect("sort thread panicked"));
            repeat
        })
    };
    let duplicates = repeat.len();
    if !repeat.is_empty() {
        let mut gone = vec![false; count];
        for &i in &repeat {
            gone[i as usize] = true;
        }
        boxes.retain(|i| !gone[i as usize]);
    }
    Kept {
        boxes,
        dropped,
        duplicates,
    }
}

/// What the first pass over one range of triangles keeps: the boxes of those that are
/// not degenerate (by index, ascending: the tree is built over them), and their digests
/// by the digest's top bit (digests are spread evenly: the two halves are sorted apart,
/// one on each core).
struct Digests {
    boxes: Boxes,
    low: Vec<Digested>,
    high: Vec<Digested>,
}

impl Digests {
    /// `other`'s after these (the triangles after these).
    fn append(&mut self, other: Digests) {
        self.boxes.append(other.boxes);
        self.low.extend(other.low);
        self.high.extend(other.high);
    }
}

/// The boxes and digests of the triangles `range` that are not degenerate, with room for
/// `room` triangles (the first range's for every triangle: the second's are appended
/// without moving the first's).
fn digests(
    range: std::ops::Range<usize>,
    room: usize,
    corners: &impl Fn(usize) -> [Vec3; 3],
) -> Digests {
    const TOP: u32 = 1 << 31;
    let mut d = Digests {
        boxes: Boxes::with_capacity(room),
        low: Vec::with_capacity(room / 2 + room / 16),
        high: Vec::with_capacity(room / 2 + room / 16),
    };
    for i in range {
        let [a, b, c] = corners(i);
        if !Triangle::is_made(a, b, c) {
            continue;
        }
        let digested = (digest([a, b, c]), i as u32);
        d.boxes.push(Aabb::from_points([a, b, c]), i as u32);
        if digested.0 & TOP == 0 {
            d.low.push(digested);
        } else {
            d.high.push(digested);
        }
    }
    d
}

/// [`repeats`] among `digests` (in the order of their indices), sorted first by digest,
/// then index: a radix sort by digest, which keeps equal digests in their order (on
/// conference the sort by both took 7% of the build).
fn sorted_repeats<K: Ord>(digests: &mut [Digested], key: impl Fn(u32) -> K) -> Vec<u32> {
    debug_assert!(digests.is_sorted_by_key(|d| d.1));
    radsort::sort_by_key(digests, |d| d.0);
    repeats(digests, key)
}

/// The repeats among `sorted` (sorted by digest, then index): in each run of equal
/// digests, every triangle whose corners (`key`) an earlier one of the run has. Equal
/// digests with other corners (a collision) are not repeats. Each run is sorted by its
/// corners, stably (so by index among equal corners, and the first copy is the one
/// kept): the work grows as `k log k` in a run of `k`, whatever is in it. (Comparing each
/// triangle with every earlier one of its run took `k^2 / 2` comparisons; the digest is a
/// sum of per-corner digests, so a file can be made whose distinct triangles share one:
/// a search finds 65,000 in seconds.)
fn repeats<K: Ord>(sorted: &[Digested], key: impl Fn(u32) -> K) -> Vec<u32> {
    let mut repeat = Vec::new();
    for run in sorted.chunk_by(|x, y| x.0 == y.0).filter(|r| r.len() > 1) {
        let mut keyed: Vec<(K, u32)> = run.iter().map(|&(_, i)| (key(i), i)).collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let first = repeat.len();
        for same in keyed.chunk_by(|a, b| a.0 == b.0) {
            repeat.extend(same[1..].iter().map(|&(_, i)| i));
        }
        repeat[first..].sort_unstable();
    }
    repeat
}

/// The triangles `corners(sources[k])` of triangles [`kept`] keeps, each half on its own
/// core, into a list the allocator hands over zeroed (no pass writes it first). The
/// corners are read scattered (the tree's
/// order), so each thread mostly waits on memory. Following the order's cycles in place through a list of triangles was
/// tried and dropped: no saving at the peak, and 1.5 s against 0.5 at ten million.
fn made(sources: &[u32], corners: &(impl Fn(usize) -> [Vec3; 3] + Sync)) -> Vec<Triangle> {
    let mut out: Vec<Triangle> = bytemuck::zeroed_vec(sources.len());
    let fill = |into: &mut [Triangle], from: &[u32]| {
        // The corners of a batch are read first, then made into triangles: reads alone
        // are many in flight at once, where a read followed by a triangle's arithmetic
        // waited on memory one after the other.
        let mut read = [[Vec3::ZERO; 3]; GATHER_BATCH];
        for (out, src) in into.chunks_mut(GATHER_BATCH).zip(from.chunks(GATHER_BATCH)) {
            for (r, &s) in read.iter_mut().zip(src) {
                *r = corners(s as usize);
            }
            for (t, &[a, b, c]) in out.iter_mut().zip(&read) {
                // `kept` kept only triangles this makes (the corners are read alike).
                *t = Triangle::new(a, b, c).expect("kept: not degenerate");
            }
        }
    };
    if sources.len() < IN_TWO_MIN {
        fill(&mut out, sources);
    } else {
        let half = sources.len() / 2;
        let (lo, hi) = out.split_at_mut(half);
        std::thread::scope(|s| {
            s.spawn(|| fill(hi, &sources[half..]));
            fill(lo, &sources[..half]);
        });
    }
    out
}

#[cfg(test)]
mod tests;
