use super::*;

/// An L: a 2 x 2 square less its top-right 1 x 1 quarter; area 3.
const L_SHAPE: [Vec3; 6] = [
    Vec3::new(0.0, 0.0, 0.0),
    Vec3::new(2.0, 0.0, 0.0),
    Vec3::new(2.0, 1.0, 0.0),
    Vec3::new(1.0, 1.0, 0.0),
    Vec3::new(1.0, 2.0, 0.0),
    Vec3::new(0.0, 2.0, 0.0),
];

fn area(points: &[Vec3], tris: &[[usize; 3]]) -> f32 {
    tris.iter()
        .map(|[a, b, c]| {
            (points[*b] - points[*a])
                .cross(points[*c] - points[*a])
                .length()
                / 2.0
        })
        .sum()
}

#[test]
fn square_is_fanned_into_two_triangles() {
    let sq = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
    let mut out = vec![];
    assert_eq!(triangulate(&sq, &mut out), Kind::Convex);
    assert_eq!(out.len(), 2);
    assert!((area(&sq, &out) - 1.0).abs() < 1e-6);
}

#[test]
fn concave_l_shape_is_ear_clipped_with_its_true_area() {
    // An L: 2 x 2 square minus its top-right 1 x 1 quarter; area 3.
    // Fanned from vertex 0 it would cover the missing quarter too (area 4).
    let l = L_SHAPE;
    for shift in 0..6 {
        let rotated: Vec<Vec3> = (0..6).map(|i| l[(i + shift) % 6]).collect();
        let mut out = vec![];
        assert_eq!(triangulate(&rotated, &mut out), Kind::Concave);
        assert_eq!(out.len(), 4);
        assert!((area(&rotated, &out) - 3.0).abs() < 1e-5, "shift {shift}");
    }
}

#[test]
fn clockwise_concave_polygon_in_another_plane_works() {
    // The same L, reversed and standing in the YZ plane.
    let l: Vec<Vec3> = [(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]
        .iter()
        .rev()
        .map(|&(a, b)| Vec3::new(5.0, a, b))
        .collect();
    let mut out = vec![];
    assert_eq!(triangulate(&l, &mut out), Kind::Concave);
    assert!((area(&l, &out) - 3.0).abs() < 1e-5);
}

#[test]
fn degenerate_polygons_give_nothing() {
    let mut out = vec![];
    assert_eq!(
        triangulate(&[Vec3::ZERO, Vec3::X], &mut out),
        Kind::Degenerate
    );
    assert_eq!(
        triangulate(
            &[Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0],
            &mut out
        ),
        Kind::Degenerate
    );
    assert!(out.is_empty());
}

fn circle(n: usize, radius: impl Fn(usize) -> f32) -> Vec<Vec3> {
    (0..n)
        .map(|i| {
            let a = i as f32 / n as f32 * std::f32::consts::TAU;
            // Far from the origin, as in a map in millimetres.
            Vec3::new(10_000.0, 0.0, 10_000.0) + radius(i) * Vec3::new(a.cos(), 0.0, a.sin())
        })
        .collect()
}

#[test]
fn convex_100000_gon_is_convex_and_fanned() {
    let c = circle(100_000, |_| 1000.0);
    let mut out = vec![];
    assert_eq!(triangulate(&c, &mut out), Kind::Convex);
    assert_eq!(out.len(), 100_000 - 2);
}

/// A spiky star of 600,000 corners was ear-clipped for over a
/// minute. A concave polygon past [`MAX_CLIPPED_CORNERS`] is left out at once; a
/// convex one of any size is still fanned.
#[test]
fn a_concave_polygon_past_the_most_corners_clipped_is_left_out() {
    let n = MAX_CLIPPED_CORNERS + 2;
    let star = circle(n, |i| if i % 2 == 0 { 1000.0 } else { 10.0 });
    let mut out = vec![];
    assert_eq!(triangulate(&star, &mut out), Kind::TooLarge);
    assert!(out.is_empty());
    assert_eq!(triangulate(&circle(n, |_| 1000.0), &mut out), Kind::Convex);
    assert_eq!(out.len(), n - 2);
}

#[test]
fn concave_60000_gon_is_cut_into_triangles_of_its_area() {
    // A star: the radius alternates, so every other corner is reflex.
    let c = circle(60_000, |i| if i % 2 == 0 { 1000.0 } else { 999.0 });
    let mut out = vec![];
    assert_eq!(triangulate(&c, &mut out), Kind::Concave);
    assert_eq!(out.len(), 60_000 - 2);
    let flat = |p: Vec3| DVec2::new(f64::from(p.x), f64::from(p.z));
    let tri_area: f64 = out
        .iter()
        .map(|&[a, b, c2]| {
            (flat(c[b]) - flat(c[a]))
                .perp_dot(flat(c[c2]) - flat(c[a]))
                .abs()
                / 2.0
        })
        .sum();
    let poly_area: f64 = (0..c.len())
        .map(|i| flat(c[i]).perp_dot(flat(c[(i + 1) % c.len()])))
        .sum::<f64>()
        .abs()
        / 2.0;
    assert!(
        (tri_area - poly_area).abs() < 1e-6 * poly_area,
        "{tri_area} vs {poly_area}"
    );
}

#[test]
fn a_pentagram_turns_left_everywhere_but_is_not_convex() {
    let star: Vec<Vec3> = (0..5)
        .map(|i| {
            let a = (i * 2) as f32 / 5.0 * std::f32::consts::TAU;
            Vec3::new(a.cos(), a.sin(), 0.0)
        })
        .collect();
    let mut out = vec![];
    assert_eq!(triangulate(&star, &mut out), Kind::Fallback);
    assert!(!out.is_empty());
}

#[test]
fn triangles_are_wound_like_the_polygon() {
    let l = L_SHAPE;
    let mut out = vec![];
    triangulate(&l, &mut out);
    for [a, b, c] in out {
        assert!((l[b] - l[a]).cross(l[c] - l[a]).z > 0.0, "{a} {b} {c}");
    }
}

#[test]
fn repeated_corners_are_skipped_and_indices_still_name_the_input() {
    let sq = [
        Vec3::ZERO,
        Vec3::ZERO,
        Vec3::X,
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::Y,
        Vec3::ZERO,
    ];
    let mut out = vec![];
    assert_eq!(triangulate(&sq, &mut out), Kind::Convex);
    assert_eq!(out, vec![[0, 2, 3], [0, 3, 5]]);
}

#[test]
fn a_ring_wound_ten_thousand_times_is_fanned_not_ear_clipped() {
    // A mutated file's face: "f 1 2 3 4" repeated 10,000 times on one line.
    let sq = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
    let ring: Vec<Vec3> = (0..40_000).map(|i| sq[i % 4]).collect();
    let mut out = vec![];
    assert_eq!(triangulate(&ring, &mut out), Kind::Fallback);
    assert_eq!(out.len(), 40_000 - 2);
}
