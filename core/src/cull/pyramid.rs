//! The depth drawn so far as a pyramid of furthest depths (Greene, Kass and Miller's
//! hierarchical Z-buffer, 1993), and the test of a shape against it: whether all of it
//! lies behind what is drawn, and how many pixels its screen rectangle covers. Occlusion
//! culling ([`super::occlusion`]) reads the GL's depth into it and tests meshlets and
//! triangles.

use glam::{Mat4, Vec3, Vec4Swizzles};

use crate::geometry::Aabb;

/// How much further than the depth read back a box must lie to be hidden, in window
/// depth (0 near, 1 far): 64 steps of the 24-bit depth buffer the window asks for (at
/// least). The rasterizer interpolates depth in 32-bit floats, whose steps near 1 are
/// the 24-bit buffer's, and a big triangle's errors add up: a wall the eye stood 0.3 m
/// from, its corners far off the screen, was drawn 17 steps nearer than it is, and with
/// a margin of 4 it hid itself (named test). 64 steps are 0.03 mm at 0.3 m, 1 m at
/// 50 m (the depth buffer's steps grow with the square of the distance); they cost
/// lost_empire's walk 4% more triangles than 4 steps did.
pub const DEPTH_MARGIN: f64 = 64.0 / 16_777_216.0;

/// Pixels added around a box's projected rectangle: the GL's rasterization and our
/// projection of its corners round differently.
const RECT_MARGIN: i64 = 1;

/// At most this many texels a side are read for one box: the pyramid level is chosen so
/// that the box's rectangle spans no more.
const TEXELS_A_SIDE: i64 = 8;

/// One level of a [`DepthPyramid`]: `width` x `height` window depths as 32-bit fixed
/// point (0 near, `u32::MAX` far, as the GL reads them as unsigned integers), bottom row
/// first.
#[derive(Clone, Debug, Default, PartialEq)]
struct Level {
    width: usize,
    height: usize,
    depth: Vec<u32>,
}

impl Level {
    fn at(&self, x: usize, y: usize) -> u32 {
        self.depth[y * self.width + x]
    }

    /// Make `up` the next level up, in its own memory: each texel the furthest of the (up
    /// to) four below it; an odd last row or column stands alone. Row by row over slices,
    /// so that the compiler vectorises the level below 1280 x 720 (a frame's work: under
    /// half a millisecond).
    fn halve_into(&self, up: &mut Level) {
        let (w, h) = (self.width.div_ceil(2), self.height.div_ceil(2));
        let depth = &mut up.depth;
        depth.clear();
        let row = |y: usize| &self.depth[y * self.width..(y + 1) * self.width];
        for y in 0..h {
            let (a, b) = (row(2 * y), row((2 * y + 1).min(self.height - 1)));
            let (pairs_a, pairs_b) = (a.chunks_exact(2), b.chunks_exact(2));
            let odd = pairs_a.remainder().first().zip(pairs_b.remainder().first());
            depth.extend(
                pairs_a
                    .zip(pairs_b)
                    .map(|(p, q)| p[0].max(p[1]).max(q[0].max(q[1]))),
            );
            depth.extend(odd.map(|(p, q)| *p.max(q)));
        }
        (up.width, up.height) = (w, h);
    }
}

/// A window's depth buffer and its coarser levels, each texel the furthest depth of the
/// four below it: a box's rectangle is covered by a few texels of some level.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DepthPyramid {
    /// Level 0 is the buffer itself; each next halves both sides (rounding up).
    levels: Vec<Level>,
}

impl DepthPyramid {
    /// Make it from a `width` x `height` depth buffer that `read` fills (window depths as
    /// 32-bit fixed point, bottom row first), in the memory of the last one: a frame
    /// allocates nothing once the window keeps its size.
    pub fn rebuild(&mut self, width: usize, height: usize, read: impl FnOnce(&mut [u32])) {
        if self.levels.is_empty() {
            self.levels.push(Level::default());
        }
        let base = &mut self.levels[0];
        (base.width, base.height) = (width, height);
        base.depth.clear();
        base.depth.resize(width * height, u32::MAX);
        read(&mut base.depth);
        let mut built = 1;
        while self.levels[built - 1].width > 1 || self.levels[built - 1].height > 1 {
            if self.levels.len() == built {
                self.levels.push(Level::default());
            }
            let (below, up) = self.levels.split_at_mut(built);
            below[built - 1].halve_into(&mut up[0]);
            built += 1;
        }
        self.levels.truncate(built);
    }

    /// It holds no depth (and hides nothing).
    pub fn is_empty(&self) -> bool {
        self.levels
            .first()
            .is_none_or(|l| l.width == 0 || l.height == 0)
    }

    /// Make it empty (it hides nothing), keeping its memory.
    pub fn clear(&mut self) {
        if let Some(base) = self.levels.first_mut() {
            (base.width, base.height) = (0, 0);
            base.depth.clear();
        }
    }

    /// Whether all of box `b` lies behind the depth in the buffer, seen through `view`
    /// and `proj` (an OpenGL perspective projection, as the depth was drawn with). A box
    /// reaching the near plane or behind the eye is never hidden, nor is anything when the
    /// pyramid is empty.
    pub fn hides(&self, view: Mat4, proj: Mat4, b: &Aabb) -> bool {
        self.occlusion_of(proj * view, proj, corners(b)).hidden
    }

    /// Whether all of the convex hull of `points` lies behind the depth in the buffer,
    /// seen through `view_proj` (`proj` times the view matrix), and how much of the
    /// window it covers; as [`DepthPyramid::hides`].
    pub fn occlusion_of(
        &self,
        view_proj: Mat4,
        proj: Mat4,
        points: impl IntoIterator<Item = Vec3>,
    ) -> Occluded {
        const UNKNOWN: Occluded = Occluded {
            hidden: false,
            pixels: u64::MAX,
        };
        let Some(base) = self.levels.first().filter(|_| !self.is_empty()) else {
            return UNKNOWN;
        };
        let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        let mut nearest = f32::MAX;
        for corner in points {
            let clip = view_proj * corner.extend(1.0);
            // In front of the near plane (z > -w) or not known hidden.
            if !(clip.w > 0.0 && clip.z > -clip.w) {
                return UNKNOWN;
            }
            let ndc = clip.xyz() / clip.w;
            lo = lo.min(ndc);
            hi = hi.max(ndc);
            // The distance along the view: w of a perspective projection.
            nearest = nearest.min(clip.w);
        }
        let pixel = |ndc: f32, size: usize| ((ndc + 1.0) * 0.5 * size as f32).floor() as i64;
        let (w, h) = (base.width as i64, base.height as i64);
        let x0 = (pixel(lo.x, base.width) - RECT_MARGIN).max(0);
        let x1 = (pixel(hi.x, base.width) + RECT_MARGIN).min(w - 1);
        let y0 = (pixel(lo.y, base.height) - RECT_MARGIN).max(0);
        let y1 = (pixel(hi.y, base.height) + RECT_MARGIN).min(h - 1);
        if x0 > x1 || y0 > y1 {
            // Wholly off the screen: nothing of it shows.
            return Occluded {
                hidden: true,
                pixels: 0,
            };
        }
        let pixels = ((x1 - x0 + 1) * (y1 - y0 + 1)) as u64;
        let mut level = 0;
        while level + 1 < self.levels.len()
            && ((x1 >> level) - (x0 >> level) >= TEXELS_A_SIDE
                || (y1 >> level) - (y0 >> level) >= TEXELS_A_SIDE)
        {
            level += 1;
        }
        let l = &self.levels[level];
        let mut furthest = 0;
        for y in (y0 >> level)..=(y1 >> level) {
            for x in (x0 >> level)..=(x1 >> level) {
                furthest = furthest.max(l.at(x as usize, y as usize));
            }
        }
        let depth = f64::from(furthest) / f64::from(u32::MAX) + DEPTH_MARGIN;
        Occluded {
            hidden: distance_of_depth(proj, depth).is_some_and(|d| nearest > d),
            pixels,
        }
    }
}

/// What a [`DepthPyramid`] says of a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occluded {
    /// All of it lies behind the depth drawn.
    pub hidden: bool,
    /// Pixels of the window its screen rectangle covers (`u64::MAX` when not known: it
    /// reaches the near plane, or the pyramid is empty).
    pub pixels: u64,
}

/// The eight corners of `b`.
pub(super) fn corners(b: &Aabb) -> impl Iterator<Item = Vec3> {
    let (min, max) = (b.min, b.max);
    (0..8).map(move |k| {
        Vec3::select(
            glam::BVec3::new(k & 1 != 0, k & 2 != 0, k & 4 != 0),
            max,
            min,
        )
    })
}

/// The distance along the view of window depth `depth` under `proj`, an OpenGL
/// perspective projection (clip z = a z + b, clip w = -z, in view space); `None` at or
/// beyond the far plane. In f64: window depths crowd towards 1 with distance.
pub(super) fn distance_of_depth(proj: Mat4, depth: f64) -> Option<f32> {
    if depth >= 1.0 {
        return None;
    }
    let (a, b) = (f64::from(proj.z_axis.z), f64::from(proj.w_axis.z));
    let ndc = 2.0 * depth - 1.0;
    // ndc = -a + b / distance.
    let d = b / (ndc + a);
    (d.is_finite() && d > 0.0).then_some(d as f32)
}

#[cfg(test)]
mod tests;
