use super::*;
use crate::test_kit::random::Lcg;

/// On two threads (a quarter of a million triangles), the triangles kept are the
/// first copy of each that is not degenerate, as a set of every corner key read in
/// order keeps them: copies within and across the halves, in every corner order, and
/// degenerate ones in both.
#[test]
fn the_triangles_kept_on_two_threads_are_the_first_copies() {
    let n = 250_000;
    let mut lcg = Lcg(11);
    let mut random = || lcg.next_u64() >> 33;
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

/// A run of a million distinct triangles sharing one digest (a file made to collide)
/// must not cost a million squared halved comparisons, a hang. Caught by a
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
