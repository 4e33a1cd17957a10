//! Building a collision world from its triangles' corners: the degenerate dropped, the
//! repeats dropped, the tree built over the rest, and each kept triangle made once, in
//! the tree's order.
//!
//! The corners are read through a function of the triangle's index (a map's vertex list,
//! read where it lies), not copied into a list of triangles first: the triangles are made
//! only once the tree's order is known, straight into their final place. At ten million
//! triangles that is one 680 MB list fewer at the peak, and the passes over the corners
//! run on both cores.

use glam::Vec3;

use super::CollisionWorld;
use crate::collision::bvh::{Built, Bvh};
use crate::geometry::{Aabb, Triangle};

/// Below this many triangles a pass stays on one thread.
const IN_TWO_MIN: usize = 100_000;

/// Triangles whose corners [`made`] reads before it makes them (see there).
const GATHER_BATCH: usize = 256;

/// What the first pass keeps of a triangle that is not degenerate: the digest of its
/// corners (the same in any corner order) and its index.
type Digested = (u64, u32);

/// The triangles kept, and what was dropped.
struct Kept {
    /// Indices of the triangles kept, ascending.
    indices: Vec<u32>,
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
    let kept = kept(count, corners);
    let Built { bvh, order, depth } = Bvh::build_from(kept.indices.len(), |k| {
        Aabb::from_points(corners(kept.indices[k] as usize))
    });
    let sources: Vec<u32> = order.iter().map(|&k| kept.indices[k as usize]).collect();
    drop(kept.indices);
    let triangles = made(&sources, corners);
    drop(sources);
    let bounds = bvh.nodes.first().map_or(Aabb::EMPTY, |root| root.bounds());
    CollisionWorld {
        triangles,
        bvh,
        dropped: kept.dropped,
        duplicates: kept.duplicates,
        bounds,
        depth,
    }
}

/// Triangle `i`, when it is not degenerate.
fn triangle(corners: &impl Fn(usize) -> [Vec3; 3], i: usize) -> Option<Triangle> {
    let [a, b, c] = corners(i);
    Triangle::new(a, b, c)
}

/// The digest of a triangle's corners: a sum of per-corner digests, the same in any
/// corner order, with no sort.
fn digest([a, b, c]: [Vec3; 3]) -> u64 {
    let corner = |v: Vec3| {
        v.to_array().iter().fold(0u64, |h, &x| {
            (h.rotate_left(5) ^ u64::from(x.to_bits())).wrapping_mul(0x517c_c1b7_2722_0a95)
        })
    };
    corner(a).wrapping_add(corner(b)).wrapping_add(corner(c))
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
/// file with one face line repeated 100,000 times took seconds a step). Sorting 64-bit
/// digests costs a fraction of a hash set of whole keys; equal digests are compared in
/// full.
fn kept(count: usize, corners: &(impl Fn(usize) -> [Vec3; 3] + Sync)) -> Kept {
    let digested = |range: std::ops::Range<usize>, into: &mut Vec<Digested>| {
        into.extend(
            range
                .filter(|&i| triangle(corners, i).is_some())
                .map(|i| (digest(corners(i)), i as u32)),
        );
    };
    let mut all = Vec::with_capacity(count);
    if count < IN_TWO_MIN {
        digested(0..count, &mut all);
    } else {
        let half = count / 2;
        let hi = std::thread::scope(|s| {
            let hi = s.spawn(|| {
                let mut hi = Vec::with_capacity(count - half);
                digested(half..count, &mut hi);
                hi
            });
            digested(0..half, &mut all);
            hi.join().expect("digest thread panicked")
        });
        all.extend(hi);
    }
    let dropped = count - all.len();
    sort_in_two(&mut all);
    let repeat = repeats(&all, |i| corner_key(corners(i as usize)));
    // Marked, then listed in order (cheaper than sorting the indices again).
    let mut keep = vec![false; count];
    for &(_, i) in &all {
        keep[i as usize] = true;
    }
    drop(all);
    for &i in &repeat {
        keep[i as usize] = false;
    }
    let indices = (0..count as u32).filter(|&i| keep[i as usize]).collect();
    let duplicates = repeat.len();
    Kept {
        indices,
        dropped,
        duplicates,
    }
}

/// The repeats among `sorted` (sorted by digest, then index): in each run of equal
/// digests, every triangle whose corners (`key`) an earlier one of the run has, unless
/// that one is a repeat itself. Equal digests with other corners (a collision) are not
/// repeats. The run is sorted by index, so the first copy is the one kept, and a pile of
/// copies finds it at once (no work quadratic in the pile).
fn repeats<K: PartialEq>(sorted: &[Digested], key: impl Fn(u32) -> K) -> Vec<u32> {
    let mut repeat = Vec::new();
    for run in sorted.chunk_by(|x, y| x.0 == y.0).filter(|r| r.len() > 1) {
        let keys: Vec<K> = run.iter().map(|&(_, i)| key(i)).collect();
        let mut again = vec![false; run.len()];
        for k in 1..run.len() {
            again[k] = (0..k).any(|j| !again[j] && keys[j] == keys[k]);
            if again[k] {
                repeat.push(run[k].1);
            }
        }
    }
    repeat
}

/// Sort the `(digest, index)` pairs, on two threads for a long list: split by the
/// digest's top bit (digests are spread evenly), each half sorted on its own core, the
/// halves in order one after the other (at ten million triangles 0.6 s became 0.35).
fn sort_in_two(all: &mut [Digested]) {
    if all.len() < IN_TWO_MIN {
        all.sort_unstable();
        return;
    }
    const TOP: u64 = 1 << 63;
    // Partition in place: the top bit clear first.
    let mut low = 0;
    for j in 0..all.len() {
        if all[j].0 & TOP == 0 {
            all.swap(low, j);
            low += 1;
        }
    }
    let (lo, hi) = all.split_at_mut(low);
    std::thread::scope(|s| {
        s.spawn(|| hi.sort_unstable());
        lo.sort_unstable();
    });
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

    #[test]
    fn sort_in_two_sorts_like_one_sort() {
        let mut seed = 11u64;
        let items: Vec<Digested> = (0..250_000u32)
            .map(|i| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Repeated digests too, in both halves.
                (seed & !0xff | u64::from(i % 3), i)
            })
            .collect();
        let mut want = items.clone();
        want.sort_unstable();
        let mut got = items;
        sort_in_two(&mut got);
        assert_eq!(got, want);
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
        assert_eq!(k.indices, vec![1, 2]);
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
            .filter_map(|i| triangle(&tri, i).filter(|_| first.insert(corner_key(tri(i)))))
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
