use super::*;

#[test]
fn repeated_triangles_are_kept_once_whatever_their_corner_order() {
    let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Y);
    let w = CollisionWorld::new([[a, b, c], [b, c, a], [c, b, a], [a, b, c + Vec3::Z]]);
    assert_eq!(w.stats().triangles, 2);
    assert_eq!(w.stats().duplicates, 2);
}

#[test]
fn degenerate_triangles_are_dropped_and_counted() {
    let w = CollisionWorld::new([
        [Vec3::ZERO, Vec3::X, Vec3::Y],
        [Vec3::ZERO, Vec3::X, Vec3::X * 2.0],
        [Vec3::ZERO, Vec3::ZERO, Vec3::ZERO],
        [Vec3::ZERO, Vec3::X, Vec3::new(f32::NAN, 0.0, 0.0)],
    ]);
    assert_eq!(w.stats().triangles, 1);
    assert_eq!(w.stats().dropped, 3);
}

#[test]
fn scaled_world_answers_like_a_world_built_at_that_scale() {
    let tris: Vec<[Vec3; 3]> = (0..200)
        .map(|i| {
            let o = Vec3::new(
                (i % 10) as f32 * 300.0,
                (i / 10 % 4) as f32 * 500.0,
                (i / 40) as f32 * 700.0,
            );
            [
                o,
                o + Vec3::new(250.0, 0.0, 0.0),
                o + Vec3::new(0.0, 400.0, 100.0),
            ]
        })
        .collect();
    let scaled = CollisionWorld::new(tris.iter().copied()).scaled(0.001);
    let built = CollisionWorld::new(tris.iter().map(|t| t.map(|v| v * 0.001)));
    let m = InsideMethod::Barycentric;
    let body = Body::FLYER;
    for i in 0..500 {
        let p = Vec3::new(
            (i % 23) as f32 * 0.13,
            (i % 7) as f32 * 0.3,
            (i % 11) as f32 * 0.25,
        );
        let d = Vec3::new(((i * 7) % 5) as f32 - 2.0, 0.3, ((i * 3) % 5) as f32 - 2.0) * 0.2;
        // Scaling the precomputed fields rounds differently from recomputing them.
        let (a, b) = (
            scaled.sweep(&Probe::new(body, m), p, d),
            built.sweep(&Probe::new(body, m), p, d),
        );
        assert_eq!(a.is_some(), b.is_some(), "{p} {d}");
        if let (Some(a), Some(b)) = (a, b) {
            assert!((a.t - b.t).abs() < 1e-4, "{p} {d}: {} vs {}", a.t, b.t);
        }
        assert_eq!(
            scaled.sweep(&Probe::new(body, m), p, d),
            scaled.sweep_brute_force(&Probe::new(body, m), p, d)
        );
    }
    let (sb, bb) = (scaled.bounds(), built.bounds());
    assert!((sb.min - bb.min).length() < 1e-5 && (sb.max - bb.max).length() < 1e-5);
}

#[test]
fn the_box_query_finds_exactly_the_triangles_whose_boxes_meet_it() {
    // A grid of small triangles; every box of a sweep of boxes against brute force.
    let tris: Vec<[Vec3; 3]> = (0..400)
        .map(|i| {
            let o = Vec3::new((i % 20) as f32, (i / 20) as f32 * 0.5, (i % 7) as f32 * 0.3);
            [
                o,
                o + Vec3::new(0.4, 0.0, 0.1),
                o + Vec3::new(0.0, 0.3, 0.2),
            ]
        })
        .collect();
    let w = CollisionWorld::new(tris.iter().copied());
    for k in 0..50 {
        let c = Vec3::new((k * 7 % 20) as f32, (k % 10) as f32, (k % 3) as f32);
        let b = Aabb::from_points([c - Vec3::splat(0.7), c + Vec3::splat(0.9)]);
        let mut got = w.triangles_in_box(&b);
        got.sort_unstable();
        let want: Vec<u32> = (0..w.triangles().len() as u32)
            .filter(|&i| {
                let t = w.triangles()[i as usize].bounds();
                t.min.cmple(b.max).all() && t.max.cmpge(b.min).all()
            })
            .collect();
        assert_eq!(got, want, "box {k}");
    }
    assert!(w.triangles_in_box(&Aabb::EMPTY).is_empty());
}

/// A box over more than `most` triangles is answered `None`, one over no more with
/// all of them (a decal a kilometre wide gathered a whole map).
#[test]
fn a_box_search_stops_past_the_most_it_may_find() {
    let tris: Vec<[Vec3; 3]> = (0..100)
        .map(|i| {
            let o = Vec3::new(i as f32, 0.0, 0.0);
            [o, o + Vec3::X * 0.5, o + Vec3::Z * 0.5]
        })
        .collect();
    let w = CollisionWorld::new(tris.iter().copied());
    let first = |n: f32| Aabb::from_points([Vec3::splat(-0.1), Vec3::new(n - 0.6, 1.0, 1.0)]);
    let ten = w
        .triangles_in_box_at_most(&first(10.0), 10)
        .expect("ten is not more than ten");
    assert_eq!(ten.len(), 10);
    assert_eq!(w.triangles_in_box_at_most(&first(11.0), 10), None);
    assert_eq!(w.triangles_in_box_at_most(&first(100.0), 0), None);
    assert_eq!(w.triangles_in_box(&first(100.0)).len(), 100);
}

#[test]
fn empty_world_never_hits() {
    let w = CollisionWorld::new([]);
    let probe = Probe::new(Body::WALKER, InsideMethod::Barycentric);
    assert!(w.sweep(&probe, Vec3::ZERO, Vec3::X).is_none());
    assert!(w.nearest_overlap(&Body::WALKER, Vec3::ZERO).is_none());
    assert!(w.ray_cast(Vec3::ZERO, Vec3::X, 10.0).is_none());
    assert!(w.bounds().is_empty());
}

#[test]
fn nan_or_zero_moves_never_hit() {
    let w = CollisionWorld::new([[
        Vec3::new(-1.0, -1.0, 0.0),
        Vec3::new(1.0, -1.0, 0.0),
        Vec3::Y,
    ]]);
    let b = &Probe::new(Body::FLYER, InsideMethod::Barycentric);
    assert!(w.sweep(b, Vec3::Z, Vec3::ZERO).is_none());
    assert!(w.sweep(b, Vec3::Z, Vec3::new(0.0, 0.0, f32::NAN)).is_none());
    assert!(w.sweep(b, Vec3::splat(f32::NAN), -Vec3::Z).is_none());
    let point = b.with_body(Body::sphere(0.0));
    assert!(w.sweep(&point, Vec3::Z, -Vec3::Z * 2.0).is_none());
    let hit = w
        .sweep(b, Vec3::Z, -Vec3::Z * 2.0)
        .expect("head-on into the face");
    // The sphere stops one skin (and the contact gap) above the face: t = (1 - r) / 2.
    let want = (1.0 - f64::from(Body::FLYER.rest_distance(Vec3::Z))) / 2.0;
    assert!((hit.t - want).abs() < 1e-6, "{} vs {want}", hit.t);
    assert_eq!(hit.normal, Vec3::Z);
}

#[test]
fn ray_cast_finds_nearest_triangle() {
    let floor = |y: f32| {
        [
            Vec3::new(-5.0, y, -5.0),
            Vec3::new(5.0, y, -5.0),
            Vec3::new(0.0, y, 5.0),
        ]
    };
    let w = CollisionWorld::new([floor(0.0), floor(3.0), floor(-2.0)]);
    let down = w
        .ray_cast(Vec3::new(0.0, 1.0, 0.0), -Vec3::Y, 100.0)
        .unwrap();
    assert!((down.distance - 1.0).abs() < 1e-6, "{down:?}");
    assert_eq!(w.triangles()[down.triangle as usize].a.y, 0.0);
    let up = w
        .ray_cast(Vec3::new(0.0, 1.0, 0.0), Vec3::Y, 100.0)
        .unwrap();
    assert!((up.distance - 2.0).abs() < 1e-6);
    assert_eq!(w.triangles()[up.triangle as usize].a.y, 3.0);
    assert!(w.ray_cast(Vec3::new(0.0, 1.0, 0.0), Vec3::Y, 1.5).is_none());
}
