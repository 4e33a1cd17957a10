use super::sah::{BINS, Best, MAX_LEAF, below, bin_at, half_area};
use super::*;
use crate::test_kit::random::Lcg;
use glam::{Vec3, Vec3A};

fn boxes(n: usize) -> Vec<Aabb> {
    (0..n)
        .map(|i| {
            let p = Vec3::new((i % 10) as f32, (i / 10 % 10) as f32, (i / 100) as f32);
            Aabb::from_points([p, p + Vec3::splat(0.5)])
        })
        .collect()
}

fn check(built: &Built, bounds: &[Aabb]) {
    let Built { bvh, order, depth } = built;
    assert_eq!(
        *depth,
        bvh.depth(),
        "the depth counted at build is the tree's"
    );
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
            assert!(n.count() as usize <= MAX_LEAF);
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
fn boxes_kept_are_bounded_by_themselves_and_give_back_their_indices() {
    let cube = |lo: f32, hi: f32| Aabb::from_points([Vec3::splat(lo), Vec3::splat(hi)]);
    let mut first = Boxes::with_capacity(4);
    first.push(cube(0.0, 1.0), 10);
    first.push(cube(5.0, 9.0), 7);
    let mut second = Boxes::with_capacity(2);
    second.push(cube(-1.0, 0.0), 3);
    second.push(cube(2.0, 3.0), 4);
    first.append(second);
    assert_eq!(first.indices().collect::<Vec<_>>(), vec![10, 7, 3, 4]);
    // The farthest box dropped: the root no longer reaches it.
    first.retain(|i| i != 7);
    assert_eq!(first.len(), 3);
    let Built { bvh, order, .. } = Bvh::build_boxes(first);
    assert_eq!(bvh.nodes[0].bounds(), cube(-1.0, 3.0));
    let mut given = order.clone();
    given.sort_unstable();
    assert_eq!(given, vec![3, 4, 10]);
    assert!(
        Bvh::build_boxes(Boxes::with_capacity(0))
            .bvh
            .nodes
            .is_empty()
    );
}

/// The sweeps over the used bins alone choose the boundary, at the cost, and make the
/// bounds that sweeps over all twelve bins make (the build before the bins were kept
/// for a thread's every split), bit for bit, for bins used at random, a set reused.
#[test]
fn the_used_bins_alone_price_and_bound_as_all_twelve_do() {
    // The sweeps over all twelve bins, as the build made them.
    fn all_twelve(bins: &Bins) -> Option<Best> {
        let mut right_cost = [0.0f32; BINS];
        let (mut mn, mut mx, mut n) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY, 0usize);
        for b in (1..BINS).rev() {
            mn = mn.min(bins.min[b]);
            mx = mx.max(bins.max[b]);
            n += bins.count[b];
            right_cost[b] = if n == 0 {
                f32::INFINITY
            } else {
                half_area(mn, mx) * n as f32
            };
        }
        let mut best: Option<Best> = None;
        let (mut mn, mut mx, mut n) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY, 0usize);
        for (b, &right) in right_cost.iter().enumerate().skip(1) {
            mn = mn.min(bins.min[b - 1]);
            mx = mx.max(bins.max[b - 1]);
            n += bins.count[b - 1];
            if n == 0 || !right.is_finite() {
                continue;
            }
            let cost = half_area(mn, mx) * n as f32 + right;
            if best.as_ref().is_none_or(|x| cost < x.cost) {
                best = Some(Best { boundary: b, cost });
            }
        }
        best
    }
    let bits =
        |r: &RangeBounds| [r.min, r.max, r.cmin, r.cmax].map(|v| v.to_array().map(f32::to_bits));
    let mut lcg = Lcg(9);
    let mut r = || lcg.unit();
    let mut bins = Bins::EMPTY;
    let mut chosen = [0usize; BINS];
    for case in 0..20_000 {
        bins.clear();
        let count = 1 + case % 20;
        // Prims in a few bins, or many; some the same box (equal costs tie).
        let spread = 1 + case % BINS;
        let first = (r() * (BINS - spread + 1) as f32) as usize;
        for k in 0..count {
            let b = (first + (r() * spread as f32) as usize).min(BINS - 1);
            let lo = if case % 7 == 0 {
                Vec3::ZERO
            } else {
                Vec3::new(r(), r(), r()) * 10.0 - 5.0
            };
            let size = Vec3::new(r(), r(), r()) * if k % 3 == 0 { 0.0 } else { 2.0 };
            bins.add(
                b,
                &Prim::new(Aabb::from_points([lo, lo + size]), k as u32),
                true,
            );
        }
        let (want, got) = (all_twelve(&bins), bins.best_boundary());
        assert_eq!(
            want.as_ref().map(|w| (w.boundary, w.cost.to_bits())),
            got.as_ref().map(|g| (g.boundary, g.cost.to_bits())),
            "case {case}"
        );
        if let Some(Best { boundary, .. }) = got {
            chosen[boundary] += 1;
            for range in [0..boundary, boundary..BINS] {
                let mut every = RangeBounds::EMPTY;
                for b in range.clone() {
                    every = every.union(&RangeBounds {
                        min: bins.min[b],
                        max: bins.max[b],
                        cmin: bins.cmin[b],
                        cmax: bins.cmax[b],
                    });
                }
                assert!(bits(&bins.union(range)) == bits(&every), "case {case}");
            }
        }
    }
    assert!(chosen[1..].iter().all(|&n| n > 50), "{chosen:?}");
}

#[test]
fn below_a_boundary_is_the_bin_below_it_at_every_place() {
    let mut places = vec![
        0.0,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::MAX,
        f32::MIN_POSITIVE,
        BINS as f32,
        1e9,
    ];
    for b in 0..=BINS {
        let whole = b as f32;
        places.extend([whole, whole.next_down(), whole.next_up()]);
    }
    places.extend((0..10_000).map(|i| i as f32 * (BINS as f32 + 2.0) / 10_000.0));
    for &p in &places {
        for boundary in 1..BINS {
            assert_eq!(
                below(p, boundary),
                bin_at(p) < boundary,
                "place {p}, boundary {boundary}"
            );
        }
    }
}

#[test]
fn every_triangle_lands_in_exactly_one_leaf() {
    for n in [1, 2, 3, 17, 1000] {
        let b = boxes(n);
        check(&Bvh::build(&b), &b);
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
    let built = Bvh::build(&b);
    check(&built, &b);
    let bvh = built.bvh;
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
    let built = Bvh::build(&b);
    check(&built, &b);
    assert!(built.depth < 20);
}

#[test]
fn empty_input_gives_empty_tree() {
    let Built { bvh, order, depth } = Bvh::build(&[]);
    assert!(bvh.nodes.is_empty() && order.is_empty());
    assert_eq!((bvh.depth(), depth), (0, 0));
}

#[test]
fn tree_is_shallow_for_spread_out_triangles() {
    let bvh = Bvh::build(&boxes(1000)).bvh;
    assert!(bvh.depth() <= 16, "depth {}", bvh.depth());
}

/// The tree read depth first, left child first: each node's bounds, and a leaf's
/// triangles in order. Equal for the same tree whatever its nodes' layout.
fn read_out(built: &Built) -> Vec<(Vec3A, Vec3A, Vec<u32>)> {
    let mut out = Vec::new();
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let n = built.bvh.nodes[i];
        let tris = n.triangles().map(|k| built.order[k as usize]).collect();
        out.push((n.lo(), n.hi(), tris));
        if !n.is_leaf() {
            stack.push(n.children()[1]);
            stack.push(n.children()[0]);
        }
    }
    out
}

#[test]
fn two_thread_build_makes_the_one_thread_tree_lopsided_or_even() {
    let n = PARALLEL_MIN * 2;
    // Nine in ten boxes packed in one corner: the root's split leaves one side with
    // most of the work, so the top is split further and dealt out.
    let lopsided: Vec<Aabb> = (0..n)
        .map(|i| {
            let k = i as f32;
            let p = if i % 10 == 0 {
                Vec3::new(k % 101.0, (k / 101.0) % 103.0, k / 10403.0) * 40.0
            } else {
                Vec3::new(k % 37.0, (k / 37.0) % 41.0, k / 1517.0) * 0.1
            };
            Aabb::from_points([p, p + Vec3::new(0.05, 0.03, 0.04)])
        })
        .collect();
    // Spread evenly: the root's split is even, and the top stops after it.
    let even: Vec<Aabb> = (0..n)
        .map(|i| {
            let k = i as f32;
            let p = Vec3::new(k % 47.0, (k / 47.0) % 53.0, (k / 2491.0).floor());
            Aabb::from_points([p, p + Vec3::new(0.5, 0.3, 0.4)])
        })
        .collect();
    // The bounds' numbers, lane by lane (the fourth lanes aside).
    let read_out_bounds =
        |r: &RangeBounds| [r.min, r.max, r.cmin, r.cmax].map(|v| v.to_array().map(f32::to_bits));
    for b in [lopsided, even] {
        let two = Bvh::build(&b);
        check(&two, &b);
        let Boxes {
            mut prims,
            bounds: root,
        } = records(b.len(), &|i| b[i]);
        assert!(read_out_bounds(&root) == read_out_bounds(&RangeBounds::of(&prims)));
        let Subtree { nodes, depth } = build_subtree(&mut prims, 0, root, 1);
        let one = Built {
            bvh: Bvh { nodes },
            order: prims.iter().map(Prim::index).collect(),
            depth,
        };
        check(&one, &b);
        assert_eq!(two.depth, one.depth);
        assert_eq!(two.bvh.nodes.len(), one.bvh.nodes.len());
        assert!(read_out(&two) == read_out(&one), "the same tree");
    }
}
