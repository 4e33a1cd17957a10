//! Small-triangle culling: a triangle whose screen rectangle holds no pixel's centre
//! makes no fragment (without multisampling a pixel is drawn only when its centre lies in
//! the triangle), so it need not be submitted at all. After Wihlidal, "Optimizing the
//! Graphics Pipeline with Compute", GDC 2016 ("small primitive culling"). On a map of
//! furniture in fine triangles most of what is in view is such: three quarters of the
//! triangles of conference's meshlets that show, each of which a rasterizer would
//! transform, set up and bin for nothing.

use glam::{IVec2, Mat4, UVec2, Vec2, Vec3, Vec4Swizzles};

use super::clusters::TriangleSet;
use crate::map::Vertex;

/// How far, in pixels, a triangle's screen rectangle is widened on every side before it
/// is looked at for a pixel's centre: our projection and the GL's round differently (the
/// GL snaps corners to a 256th of a pixel, llvmpipe and most GPUs; float error is far
/// smaller at window coordinates), so a triangle whose rectangle ends within this of a
/// centre is kept.
pub const COVERAGE_MARGIN: f32 = 1.0 / 16.0;

/// Whether the triangle with corners `points` (world space), seen through `view_proj`
/// (an OpenGL projection times the view) in a window of `viewport` pixels, may cover the
/// centre of one of its pixels. False only when its screen rectangle, widened by
/// [`COVERAGE_MARGIN`], holds no pixel centre inside the window. A triangle with a corner
/// at or behind the eye's plane is always kept: what of it the near plane leaves has no
/// rectangle from its corners.
pub fn may_cover_a_pixel(view_proj: Mat4, viewport: UVec2, points: [Vec3; 3]) -> bool {
    let size = viewport.as_vec2();
    let corners = points.map(|p| window_point(view_proj, size, p));
    holds_a_centre(corners, size)
}

/// Of a meshlet's triangles (`indices` into `vertices`, three a triangle, at most 32),
/// those that [`may_cover_a_pixel`]: bit `k` for the `k`th. With `front_only` (the
/// meshlet is drawn with back faces culled), also those that may face the eye
/// (counter-clockwise on the screen, the GL's front): see `may_face_the_eye`. Each corner is projected once
/// where the meshlet's corners lie close together in `vertices` (a cluster's vertices
/// are in the order its triangles first use them, so they mostly do): a meshlet has about
/// 0.9 corners a triangle, not 3.
pub fn covering_triangles(
    vertices: &[Vertex],
    indices: &[u32],
    view_proj: Mat4,
    viewport: UVec2,
    front_only: bool,
) -> TriangleSet {
    /// The most vertices a meshlet's corners may span to be projected together.
    const SPAN: usize = 128;
    let size = viewport.as_vec2();
    let corner = |i: u32| window_point(view_proj, size, vertices[i as usize].position.into());
    let first = indices.iter().copied().min().unwrap_or(0);
    let last = indices.iter().copied().max().unwrap_or(0);
    let mut covering = 0;
    if ((last - first) as usize) < SPAN {
        let mut used = 0u128;
        for &i in indices {
            used |= 1 << (i - first);
        }
        let mut window = [None; SPAN];
        while used != 0 {
            let k = used.trailing_zeros();
            window[k as usize] = corner(first + k);
            used &= used - 1;
        }
        for (k, t) in indices.chunks_exact(3).enumerate() {
            let at = |c: usize| window[(t[c] - first) as usize];
            if may_show([at(0), at(1), at(2)], size, front_only) {
                covering |= 1 << k;
            }
        }
    } else {
        for (k, t) in indices.chunks_exact(3).enumerate() {
            if may_show([corner(t[0]), corner(t[1]), corner(t[2])], size, front_only) {
                covering |= 1 << k;
            }
        }
    }
    covering
}

/// Where `p` (world space) lands in a window of `size` pixels seen through `view_proj`:
/// pixel (i, j) spans [i, i + 1) x [j, j + 1), its centre at (i + 0.5, j + 0.5). `None`
/// at or behind the eye's plane (and for a NaN).
fn window_point(view_proj: Mat4, size: Vec2, p: Vec3) -> Option<Vec2> {
    let clip = view_proj * p.extend(1.0);
    (clip.w > 0.0).then(|| (clip.xy() / clip.w + 1.0) * 0.5 * size)
}

/// Whether the triangle with window corners `corners` may make a fragment in a window
/// of `size` pixels: it may cover a pixel centre, and (`front_only`) may face the eye.
fn may_show(corners: [Option<Vec2>; 3], size: Vec2, front_only: bool) -> bool {
    holds_a_centre(corners, size) && (!front_only || may_face_the_eye(corners))
}

/// Whether the triangle with window corners `corners` may be counter-clockwise on the
/// screen, the GL's front face (window y up, as here). False only when it is clockwise by
/// more than the corners' rounding could undo: the GL snaps them to a 256th of a pixel,
/// and moving each coordinate by `d` changes the doubled signed area by at most
/// `2 d (|a.x| + |a.y| + |b.x| + |b.y|) + 8 d^2` (edges `a`, `b` from the first corner);
/// `d` is [`COVERAGE_MARGIN`], far more. A corner not in front of the eye (`None`) keeps
/// it: the near plane cuts it into another shape.
fn may_face_the_eye(corners: [Option<Vec2>; 3]) -> bool {
    let [Some(p), Some(q), Some(r)] = corners else {
        return true;
    };
    let (a, b) = (q - p, r - p);
    let doubled_area = a.perp_dot(b);
    let d = COVERAGE_MARGIN;
    let slack = 2.0 * d * (a.abs().element_sum() + b.abs().element_sum()) + 8.0 * d * d;
    doubled_area >= -slack
}

/// Whether the triangle with window corners `corners` may cover a pixel centre of a
/// window of `size` pixels: its rectangle, widened by [`COVERAGE_MARGIN`], holds one,
/// and where it holds at most [`EXACT_TEST_CENTRES`], one of those lies in the triangle
/// or within the margin of it. A corner not in front of the eye (`None`) keeps it.
fn holds_a_centre(corners: [Option<Vec2>; 3], size: Vec2) -> bool {
    let [Some(p), Some(q), Some(r)] = corners else {
        return true;
    };
    let (lo, hi) = (p.min(q).min(r), p.max(q).max(r));
    // On each axis, pixel centre k + 0.5 lies in the widened rectangle when a <= k <= b,
    // below; one of the window's (0 <= k < size) does when the last whole number up to
    // b (b's integer part, once it is not negative) is at least a. (Truncation rather
    // than `floor`, which without SSE 4.1 is a call into libm: a tenth of the frame's
    // culling.)
    let a = (lo - COVERAGE_MARGIN - 0.5).clamp(Vec2::ZERO, size);
    let b = (hi + COVERAGE_MARGIN - 0.5).min(size - 1.0);
    if b.x < 0.0 || b.y < 0.0 {
        return false;
    }
    let last = b.as_ivec2();
    // The first whole number from a (not negative: truncation rounds it down).
    let first = a.as_ivec2() + IVec2::from(a.cmpgt(a.as_ivec2().as_vec2()));
    let count = (last - first + 1).max(IVec2::ZERO);
    if count.x == 0 || count.y == 0 {
        return false;
    }
    // A small rectangle's few centres are each tested against the triangle itself: a
    // thin triangle across a pixel seldom covers its centre. (Larger ones are kept: they
    // all but always cover one.)
    if count.x * count.y > EXACT_TEST_CENTRES {
        return true;
    }
    covers_a_centre_of([p, q, r], first, last)
}

/// Most pixel centres in a triangle's widened rectangle for each to be tested against
/// the triangle (see [`holds_a_centre`]).
const EXACT_TEST_CENTRES: i32 = 4;

/// Whether one of the pixel centres `first..=last` (by pixel, on each axis) lies in the
/// triangle `t` or within [`COVERAGE_MARGIN`] outside each of its edges' lines (either
/// winding; a triangle of no area keeps every point near it).
fn covers_a_centre_of(t: [Vec2; 3], first: IVec2, last: IVec2) -> bool {
    let edges = [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let side = if edges[0].perp_dot(t[2] - t[0]) < 0.0 {
        -1.0
    } else {
        1.0
    };
    // An edge function is the distance inside the edge's line times the edge's length:
    // within the margin outside when its square is at most (margin x length) squared.
    let slack = edges.map(|e| COVERAGE_MARGIN * COVERAGE_MARGIN * e.length_squared());
    (first.y..=last.y).any(|j| {
        (first.x..=last.x).any(|i| {
            let c = Vec2::new(i as f32, j as f32) + 0.5;
            (0..3).all(|k| {
                let d = side * edges[k].perp_dot(c - t[k]);
                d >= 0.0 || d * d <= slack[k]
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut seed = 0x2545_f491_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32
        };
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
            let covers = span(lo.x, hi.x).any(|i| {
                span(lo.y, hi.y).any(|j| inside(Vec2::new(i as f32 + 0.5, j as f32 + 0.5)))
            });
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
}
