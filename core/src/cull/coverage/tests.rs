use super::*;
use crate::test_kit::random::Xorshift32;

/// A 100 x 100 window whose world is its pixels: an orthographic view of x and y in
/// [0, 100] (window coordinates equal to world x and y).
fn pixels() -> (Mat4, UVec2) {
    let view_proj = Mat4::orthographic_rh_gl(0.0, 100.0, 0.0, 100.0, -1.0, 1.0);
    (view_proj, UVec2::new(100, 100))
}

fn triangle(x: f32, y: f32, size: f32) -> [Vec3; 3] {
    [
        Vec3::new(x, y, 0.0),
        Vec3::new(x + size, y, 0.0),
        Vec3::new(x, y + size, 0.0),
    ]
}

#[test]
fn a_triangle_between_pixel_centres_covers_none() {
    let (vp, size) = pixels();
    // Within pixel (10, 10), short of its centre (10.5, 10.5).
    assert!(!may_cover_a_pixel(vp, size, triangle(10.1, 10.1, 0.3)));
    // Between the centres of two rows: y from 20.6 to 21.4.
    assert!(!may_cover_a_pixel(
        vp,
        size,
        [
            Vec3::new(5.0, 20.6, 0.0),
            Vec3::new(60.0, 20.6, 0.0),
            Vec3::new(5.0, 21.4, 0.0)
        ]
    ));
}

#[test]
fn a_triangle_over_a_centre_or_within_the_margin_of_one_is_kept() {
    let (vp, size) = pixels();
    assert!(may_cover_a_pixel(vp, size, triangle(10.4, 10.4, 0.2)));
    assert!(may_cover_a_pixel(vp, size, triangle(10.0, 10.0, 20.0)));
    // Its corner a 32nd of a pixel past (10.5, 10.5) on each axis: within the margin.
    let past = 10.5 + 1.0 / 32.0;
    assert!(may_cover_a_pixel(vp, size, triangle(past, past, 0.2)));
    // An eighth past: beyond it.
    let past = 10.5 + 1.0 / 8.0;
    assert!(!may_cover_a_pixel(vp, size, triangle(past, past, 0.2)));
}

#[test]
fn a_thin_triangle_whose_rectangle_holds_a_centre_it_misses_is_left_out() {
    let (vp, size) = pixels();
    // Across pixel (10, 10) from corner to corner, a tenth of a pixel wide, passing
    // 0.3 from its centre: the rectangle holds the centre, the triangle does not.
    let sliver = [
        Vec3::new(10.0, 10.2, 0.0),
        Vec3::new(10.8, 11.0, 0.0),
        Vec3::new(10.0, 10.3, 0.0),
    ];
    assert!(!may_cover_a_pixel(vp, size, sliver));
    // Moved to pass over the centre: kept, either way round.
    let over = sliver.map(|p| p + Vec3::new(0.0, -0.22, 0.0));
    assert!(may_cover_a_pixel(vp, size, over));
    assert!(may_cover_a_pixel(vp, size, [over[0], over[2], over[1]]));
    // A triangle of no area on the centre: kept (it could be a sliver after the GL's
    // rounding).
    let line = [
        Vec3::new(10.0, 10.0, 0.0),
        Vec3::new(11.0, 11.0, 0.0),
        Vec3::new(10.5, 10.5, 0.0),
    ];
    assert!(may_cover_a_pixel(vp, size, line));
}

#[test]
fn outside_the_window_covers_nothing_and_across_its_edge_covers_the_edge() {
    let (vp, size) = pixels();
    assert!(!may_cover_a_pixel(vp, size, triangle(-30.0, 10.0, 20.0)));
    assert!(!may_cover_a_pixel(vp, size, triangle(100.2, 10.0, 20.0)));
    assert!(may_cover_a_pixel(vp, size, triangle(-30.0, 10.0, 31.0)));
    assert!(may_cover_a_pixel(vp, size, triangle(99.0, 99.0, 20.0)));
}

#[test]
fn front_only_leaves_out_triangles_clockwise_on_the_screen_beyond_rounding() {
    let (vp, size) = pixels();
    let w = |x: f32, y: f32| Some(Vec2::new(x, y));
    // Counter-clockwise (window y up): the front.
    assert!(may_face_the_eye([
        w(10.0, 10.0),
        w(30.0, 10.0),
        w(10.0, 30.0)
    ]));
    // Clockwise: the back.
    assert!(!may_face_the_eye([
        w(10.0, 10.0),
        w(10.0, 30.0),
        w(30.0, 10.0)
    ]));
    // Clockwise by less than rounding the corners could undo: kept.
    assert!(may_face_the_eye([
        w(10.0, 10.0),
        w(40.0, 10.01),
        w(70.0, 10.0)
    ]));
    // A corner behind the eye: kept.
    assert!(may_face_the_eye([w(10.0, 10.0), None, w(30.0, 10.0)]));
    // In a meshlet: a quad of two triangles, then the same two wound the other way.
    let v = |x: f32, y: f32| Vertex {
        position: [x, y, 0.0],
        normal: [0.0, 0.0, 1.0],
        uv: [0.0, 0.0],
    };
    let vertices = [v(10.0, 10.0), v(30.0, 10.0), v(30.0, 30.0), v(10.0, 30.0)];
    let indices = [0, 1, 2, 0, 2, 3, 0, 2, 1, 0, 3, 2];
    assert_eq!(
        covering_triangles(&vertices, &indices, vp, size, false),
        0b1111
    );
    assert_eq!(
        covering_triangles(&vertices, &indices, vp, size, true),
        0b0011
    );
}

#[test]
fn a_triangle_reaching_behind_the_eye_is_kept() {
    let proj = Mat4::perspective_rh_gl(90f32.to_radians(), 1.0, 0.01, 100.0);
    let size = UVec2::new(64, 64);
    // Tiny and far ahead, off every centre: left out.
    let far = [
        Vec3::new(0.001, 0.001, -50.0),
        Vec3::new(0.002, 0.001, -50.0),
        Vec3::new(0.001, 0.002, -50.0),
    ];
    assert!(!may_cover_a_pixel(proj, size, far));
    // A corner behind the eye: kept, whatever its other corners' rectangle.
    let across = [far[0], far[1], Vec3::new(0.001, 0.002, 1.0)];
    assert!(may_cover_a_pixel(proj, size, across));
    let nan = [far[0], far[1], Vec3::NAN];
    assert!(may_cover_a_pixel(proj, size, nan));
}

/// Against a rasterization of its own (pixel centres tested against the triangle's
/// edges), random small triangles: every one that covers a centre is kept.
#[test]
fn no_triangle_that_covers_a_centre_is_left_out() {
    let (vp, size) = pixels();
    let mut seed = Xorshift32(0x2545_f491);
    let mut next = || seed.next_u32() as f32 / u32::MAX as f32;
    let (mut covering, mut left_out) = (0, 0);
    for _ in 0..20_000 {
        let at = Vec2::new(next(), next()) * 100.0;
        let mut corner = |s: f32| at + (Vec2::new(next(), next()) - 0.5) * s;
        let t = [corner(3.0), corner(3.0), corner(3.0)];
        let edge = |a: Vec2, b: Vec2, p: Vec2| (b - a).perp_dot(p - a);
        let area = edge(t[0], t[1], t[2]);
        let inside = |p: Vec2| {
            let e = [
                edge(t[0], t[1], p),
                edge(t[1], t[2], p),
                edge(t[2], t[0], p),
            ];
            e.iter().all(|&e| e * area > 0.0)
        };
        // The centres near the triangle (those further off are outside it).
        let (lo, hi) = (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2]));
        let span = |a: f32, b: f32| (a.floor().max(0.0) as i32)..=(b.ceil().min(99.0) as i32);
        let covers = span(lo.x, hi.x)
            .any(|i| span(lo.y, hi.y).any(|j| inside(Vec2::new(i as f32 + 0.5, j as f32 + 0.5))));
        let kept = may_cover_a_pixel(vp, size, t.map(|p| p.extend(0.0)));
        assert!(kept || !covers, "{t:?} covers a centre but was left out");
        covering += usize::from(covers);
        left_out += usize::from(!kept);
    }
    // The test means something: both kinds are common.
    assert!(
        covering > 5_000 && left_out > 2_000,
        "{covering} {left_out}"
    );
}

/// A meshlet's triangles answer as each alone does, whether its corners are close
/// together in the vertex list (projected once each) or far apart.
#[test]
fn a_meshlets_covering_triangles_are_those_that_may_each_cover_a_pixel() {
    let proj = Mat4::perspective_rh_gl(90f32.to_radians(), 1.0, 0.01, 100.0);
    let size = UVec2::new(64, 64);
    // A fan of 32 triangles of all sizes ahead, some crossing behind the eye.
    let mut vertices = Vec::new();
    for k in 0..40 {
        let f = k as f32;
        let z = if k % 13 == 12 { 1.0 } else { -2.0 - f * 1.7 };
        vertices.push(Vertex {
            position: [(f * 0.37).sin() * f * 0.05, (f * 0.61).cos() * 0.3, z],
            normal: [0.0, 0.0, 1.0],
            uv: [0.0, 0.0],
        });
    }
    let near: Vec<u32> = (0..32).flat_map(|k| [k, k + 1, (k * 7 + 3) % 40]).collect();
    // The same triangles with their corners spread out past what is projected together.
    let mut spread = vertices.clone();
    spread.resize(vertices.len() + 1000, vertices[0]);
    let far_index = |i: u32| if i.is_multiple_of(2) { i } else { i + 1000 };
    for i in 0..vertices.len() as u32 {
        spread[far_index(i) as usize] = vertices[i as usize];
    }
    let far: Vec<u32> = near.iter().map(|&i| far_index(i)).collect();
    let mut each = 0;
    for (k, t) in near.chunks_exact(3).enumerate() {
        let points = [0, 1, 2].map(|c| Vec3::from(vertices[t[c] as usize].position));
        if may_cover_a_pixel(proj, size, points) {
            each |= 1 << k;
        }
    }
    assert!(each != 0 && each != TriangleSet::MAX, "{each:b}");
    assert_eq!(
        covering_triangles(&vertices, &near, proj, size, false),
        each
    );
    assert_eq!(covering_triangles(&spread, &far, proj, size, false), each);
}
