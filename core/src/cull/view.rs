//! What a frame sees: the view and projection, their frustum, and what culling and the
//! levels of detail read off the projection (how far the near plane reaches, how many
//! pixels an error can span).

use glam::{Mat4, UVec2, Vec3, Vec4Swizzles};

use super::frustum::Frustum;

/// What a frame sees: the view and projection matrices and their frustum.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// World to view space.
    pub view: Mat4,
    /// The eye, in the world.
    pub eye: Vec3,
    /// View space to clip space: an OpenGL perspective projection.
    pub proj: Mat4,
    /// The window's size in pixels.
    pub viewport: UVec2,
    /// World to clip space: `proj * view`.
    pub view_proj: Mat4,
    /// The frustum of `view_proj`.
    pub frustum: Frustum,
    /// How far from the eye the near plane's corners lie: the near plane may cut away
    /// what is nearer (see [`super::Cluster::hides_back_faces`]).
    pub near_reach: f32,
    /// The direction the eye looks in, in the world (unit length).
    pub forward: Vec3,
    /// At most how many pixels an error of one unit spans at depth one along the view,
    /// anywhere in the window (see [`super::lod`]).
    pub pixels_per_unit: f32,
}

impl View {
    /// The view of `view` and `proj` in a window of `viewport` pixels.
    pub fn new(view: Mat4, proj: Mat4, viewport: UVec2) -> View {
        let view_proj = proj * view;
        View {
            view,
            eye: view.inverse().w_axis.xyz(),
            proj,
            viewport,
            view_proj,
            frustum: Frustum::from_view_proj(view_proj),
            near_reach: near_reach(&proj),
            forward: -view.row(2).xyz().normalize_or_zero(),
            pixels_per_unit: pixels_per_unit(&proj, viewport),
        }
    }
}

/// How far from the eye the corners of `proj`'s near plane lie, for an OpenGL
/// perspective projection (`Mat4::perspective_rh_gl`: the near plane's distance is
/// `w.z / (z.z - 1)`, its half sides that times `1 / x.x` and `1 / y.y`); for any other
/// projection, infinity (so nothing counts as far enough from the eye).
fn near_reach(proj: &Mat4) -> f32 {
    let near = proj.w_axis.z / (proj.z_axis.z - 1.0);
    let (tx, ty) = (1.0 / proj.x_axis.x, 1.0 / proj.y_axis.y);
    let reach = near * (1.0 + tx * tx + ty * ty).sqrt();
    if reach.is_finite() && reach >= 0.0 && proj.w_axis.w == 0.0 {
        reach
    } else {
        f32::INFINITY
    }
}

/// At most how many pixels of a `viewport` an error of one unit at depth one along the
/// view spans under `proj`, an OpenGL perspective projection: a point at view depth `z`
/// lands at `f (x, y) / z` on the screen (`f` is `y.y` times half the window's height),
/// so moving it by `d` moves its image by at most `f |d| sqrt(1 + (x/z)² + (y/z)²) / z`
/// (the largest singular value of the projection's derivative), and in the window
/// `|x/z|` and `|y/z|` are at most `1 / x.x` and `1 / y.y`. Infinity for any other
/// projection (so no error is too small to see).
fn pixels_per_unit(proj: &Mat4, viewport: UVec2) -> f32 {
    let (tx, ty) = (1.0 / proj.x_axis.x, 1.0 / proj.y_axis.y);
    let f = proj
        .y_axis
        .y
        .abs()
        .max(proj.x_axis.x.abs() * viewport.x as f32 / viewport.y.max(1) as f32)
        * viewport.y as f32
        * 0.5;
    let pixels = f * (1.0 + tx * tx + ty * ty).sqrt();
    if pixels.is_finite() && proj.w_axis.w == 0.0 {
        pixels
    } else {
        f32::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_views_near_reach_is_how_far_the_near_planes_corners_lie() {
        use crate::player::FieldOfView;
        for (width, height) in [(1280u32, 720u32), (300, 900)] {
            let aspect = width as f32 / height as f32;
            let fov = FieldOfView::default();
            let proj = Mat4::perspective_rh_gl(fov.vertical_rad(aspect), aspect, 0.01, 500.0);
            let view = View::new(Mat4::IDENTITY, proj, UVec2::new(width, height));
            let want = fov.near_corner_distance(aspect);
            assert!(
                (view.near_reach - want).abs() < 1e-6,
                "{} vs {want}",
                view.near_reach
            );
            assert!(view.near_reach > 0.01);
        }
        // Not a perspective: nothing counts as far enough.
        let ortho = Mat4::orthographic_rh_gl(-1.0, 1.0, -1.0, 1.0, 0.01, 10.0);
        let view = View::new(Mat4::IDENTITY, ortho, UVec2::new(64, 64));
        assert_eq!(view.near_reach, f32::INFINITY);
    }
}
