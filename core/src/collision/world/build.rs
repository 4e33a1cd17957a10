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
/// a review found 65,000 in seconds of search.)
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
mod tests {
    use super::*;

    /// On two threads (a quarter of a million triangles), the triangles kept are the
    /// first copy of each that is not degenerate, as a set of every corner key read in
    /// order keeps them: copies within and across the halves, in every corner order, and
    /// degenerate ones in both.
    #[test]
    fn the_triangles_kept_on_two_threads_are_the_first_copies() {
        let n = 250_000;
        let mut seed = 11u64;
        let mut random = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let tris: Vec<[Vec3; 3]> = (0..n)
            .map(|i| {
                let r = random();
                // A tenth are copies of one of 1,000 triangles; some are degenerate.
                let k = if r % 10 == 0 {
                    r % 1000
                } else {
                    1000 + i as u64
                };
                let a = Vec3::new(k as f32, (k % 7) as f32, 0.0);
                let (b, c) = (
                    a + Vec3::X,
                    a + if r % 97 == 0 { Vec3::X * 2.0 } else { Vec3::Y },
                );
                match r % 3 {
                    0 => [a, b, c],
                    1 => [b, c, a],
                    _ => [c, b, a],
                }
            })
            .collect();
        let mut seen = std::collections::HashSet::new();
        let want: Vec<u32> = (0..n)
            .filter(|&i| Triangle::new(tris[i][0], tris[i][1], tris[i][2]).is_some())
            .filter(|&i| seen.insert(corner_key(tris[i])))
            .map(|i| i as u32)
            .collect();
        let k = kept(n, &|i| tris[i]);
        assert_eq!(k.boxes.indices().collect::<Vec<_>>(), want);
        assert!(
            k.dropped > 1000 && k.duplicates > 10_000,
            "{} {}",
            k.dropped,
            k.duplicates
        );
        assert_eq!(k.dropped + k.duplicates + want.len(), n);
    }

    #[test]
    fn the_first_copy_is_kept_whatever_the_corner_order() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Y);
        let tris = [
            [a, b, Vec3::NAN],   // 0: degenerate
            [b, c, a],           // 1: kept
            [a, b, c + Vec3::Z], // 2: kept
            [c, a, b],           // 3: a repeat of 1
            [a, c, b],           // 4: a repeat of 1 (the other winding: the same corners)
            [a, b, c + Vec3::Z], // 5: a repeat of 2
        ];
        let k = kept(tris.len(), &|i| tris[i]);
        assert_eq!(k.boxes.indices().collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!((k.dropped, k.duplicates), (1, 3));
    }

    #[test]
    fn a_digest_collision_is_not_a_repeat() {
        // Indices 4, 6 and 9 share a digest but 6 has other corners (key 'b'); 9 repeats
        // 4; 2 and 5 repeat each other under another digest.
        let sorted: Vec<Digested> = vec![(1, 2), (1, 5), (7, 4), (7, 6), (7, 9)];
        let key = |i: u32| match i {
            6 => 'b',
            2 | 5 => 'c',
            _ => 'a',
        };
        assert_eq!(repeats(&sorted, key), vec![5, 9]);
        // A pile of copies: each but the first is a repeat.
        let pile: Vec<Digested> = (0..10_000).map(|i| (3, i)).collect();
        assert_eq!(repeats(&pile, |_| 0).len(), 9_999);
    }

    /// Found by review: a run of a million distinct triangles sharing one digest (a file
    /// made to collide) was a million squared halved comparisons, a hang. Caught by a
    /// watchdog, not timed.
    #[test]
    fn a_long_run_of_distinct_triangles_under_one_digest_is_not_quadratic() {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let run: Vec<Digested> = (0..1_000_000).map(|i| (7, i)).collect();
            // Every tenth repeats the corners of the one nine before it.
            let _ = tx.send(repeats(&run, |i| if i % 10 == 9 { i - 9 } else { i }));
        });
        let repeat = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("a million distinct triangles under one digest within the watchdog's 2 min");
        assert_eq!(
            repeat,
            (0..100_000).map(|k| k * 10 + 9).collect::<Vec<u32>>()
        );
    }

    #[test]
    fn a_big_world_built_on_two_cores_is_the_one_thread_world() {
        // Over IN_TWO_MIN triangles kept (so each pass runs on two threads), with repeats
        // in both halves and degenerate ones.
        let n = 2 * IN_TWO_MIN + 40_001;
        let tri = |i: usize| {
            let j = (i % (n / 2)) as f32; // the second half repeats the first
            let o = Vec3::new(j % 300.0, (j / 300.0).floor(), 0.0);
            if i % 1000 == 999 {
                [o, o, o]
            } else {
                [o, o + Vec3::X, o + Vec3::Y * 0.5]
            }
        };
        let w = build(n, &tri);
        let s = w.stats();
        assert_eq!(s.dropped, (0..n).filter(|i| i % 1000 == 999).count());
        // Every kept triangle is one of the first half's, once.
        assert_eq!(s.triangles + s.duplicates + s.dropped, n);
        let mut seen: Vec<[u32; 3]> = w
            .triangles()
            .iter()
            .map(|t| t.a.to_array().map(f32::to_bits))
            .collect();
        seen.sort_unstable();
        let before = seen.len();
        seen.dedup();
        assert_eq!(seen.len(), before, "no triangle kept twice");
        // The world a plain one-thread reading makes: each triangle made, the first of
        // each set of corners kept, the tree built over them, gathered in its order.
        let mut first = std::collections::HashSet::new();
        let plain: Vec<Triangle> = (0..n)
            .filter_map(|i| {
                let [a, b, c] = tri(i);
                Triangle::new(a, b, c).filter(|_| first.insert(corner_key(tri(i))))
            })
            .collect();
        let boxes: Vec<Aabb> = plain.iter().map(Triangle::bounds).collect();
        let Built { bvh, order, depth } = Bvh::build(&boxes);
        let want: Vec<Triangle> = order.iter().map(|&i| plain[i as usize]).collect();
        assert!(s.triangles > IN_TWO_MIN);
        let bits = |t: &[Triangle]| bytemuck::cast_slice::<Triangle, u32>(t).to_vec();
        assert!(
            bits(w.triangles()) == bits(&want),
            "the same triangles in the same order, bit for bit"
        );
        assert_eq!((s.nodes, s.depth), (bvh.nodes.len(), depth));
        let node = |n: &crate::collision::bvh::Node| {
            (
                n.min().to_array().map(f32::to_bits),
                n.max().to_array().map(f32::to_bits),
                n.index(),
                n.count(),
            )
        };
        assert!(
            w.bvh.nodes.iter().map(node).eq(bvh.nodes.iter().map(node)),
            "the same tree, bit for bit"
        );
    }
}
