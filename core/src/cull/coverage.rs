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
mod tests;
