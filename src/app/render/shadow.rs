//! The sun's shadow map (the `lighting` setting): the map's depth seen from the sun in an
//! orthographic view (Williams, "Casting Curved Shadows on Curved Surfaces", SIGGRAPH
//! 1978), sampled with percentage-closer filtering by the lit scene shader.
//!
//! One map: a level that fits in [`SHADOW_REACH`] is covered whole, from a fixed view;
//! a bigger one is covered within [`SHADOW_REACH`] of the eye, the view's centre snapped
//! to a grid of [`SNAP_DIVISIONS`] steps across the reach. A step is a whole number of
//! texels, so a shadow's edge never crawls as the eye walks (the texel grid stays put:
//! Valient, "Stable Rendering of Cascaded Shadow Maps", ShaderX6, 2008), and the map is
//! drawn again only when the centre moves a step (or the sun moves, or movers move):
//! while standing or walking a few metres it costs nothing.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::sync::Arc;

use glam::{Mat4, Vec3};
use glow::HasContext;

use walkthrough_core::geometry::Aabb;

use super::gl::{self, check_gl};

const VERTEX_SHADER: &str = include_str!("../../../shaders/shadow.vert");
const FRAGMENT_SHADER: &str = include_str!("../../../shaders/shadow.frag");

/// Texels a side of the shadow map: over the default reach, about 2.3 cm a texel (a
/// person's shadow reads; a chair leg's is a few texels wide). 16 MiB of depth.
pub const SHADOW_MAP_SIZE: u32 = 2048;

/// Metres from the shadow map's centre to its side: a level whose bounds' half diagonal
/// is within it is covered whole; a bigger one's shadows reach this far from the eye at
/// least (less a snap step), beyond which the sun is unshadowed.
pub const SHADOW_REACH: f32 = 24.0;

/// Snap steps across the reach: the eye may walk a step's width (6 m by default) before
/// the map is drawn again, and at least 3/4 of the reach stays covered around it.
pub const SNAP_DIVISIONS: f32 = 4.0;

/// Metres added before and after the level's depth along the sun, so its nearest and
/// farthest faces are inside the map's depth range.
const DEPTH_MARGIN: f32 = 1.0;

/// Slope-scaled and constant depth bias of the casters (glPolygonOffset's factor and
/// units): with the receivers' normal offset, keeps lit faces from shadowing themselves
/// (acne) without detaching shadows from their casters (peter-panning).
const POLYGON_OFFSET: (f32, f32) = (1.5, 2.0);

/// Where the shadow map looks from: the sun's view and projection, and what decides
/// whether it must be drawn again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShadowFit {
    /// World to the sun's clip space.
    pub view_proj: Mat4,
    /// The snapped centre, in snap steps across the sun's view (the whole level: 0, 0).
    pub cell: [i64; 2],
    /// The sun's direction it was fitted to.
    pub sun: Vec3,
    /// Half its side, metres.
    pub reach: f32,
}

impl ShadowFit {
    /// One texel: its size in texture coordinates, and in metres.
    pub fn texel(&self) -> [f32; 2] {
        let size = SHADOW_MAP_SIZE as f32;
        [1.0 / size, 2.0 * self.reach / size]
    }

    /// The map's depth (0 to 1) a metre along the sun spans.
    pub fn depth_per_metre(&self) -> f32 {
        // An orthographic projection's depth row: z_ndc = a z + b, and depth = z_ndc / 2
        // + 1/2.
        self.view_proj.row(2).truncate().length() * 0.5
    }

    /// World to the map's texture coordinates and depth, each 0 to 1.
    pub fn texture_matrix(&self) -> Mat4 {
        Mat4::from_translation(Vec3::splat(0.5))
            * Mat4::from_scale(Vec3::splat(0.5))
            * self.view_proj
    }
}

/// The shadow map's view for sunlight travelling along `sun` (unit) over a level within
/// `bounds`, seen from `eye` (see the module's comment).
pub fn fit(eye: Vec3, sun: Vec3, bounds: &Aabb) -> ShadowFit {
    let up_hint = if sun.y.abs() > 0.99 { Vec3::Z } else { Vec3::Y };
    let right = sun.cross(up_hint).normalize();
    let up = right.cross(sun).normalize();
    let finite =
        bounds.min.is_finite() && bounds.max.is_finite() && bounds.min.cmple(bounds.max).all();
    let half_diagonal = if finite {
        (bounds.max - bounds.min).length() * 0.5
    } else {
        f32::INFINITY
    };
    let (centre, cell, reach) = if half_diagonal <= SHADOW_REACH {
        (
            (bounds.min + bounds.max) * 0.5,
            [0, 0],
            half_diagonal.max(1.0),
        )
    } else {
        let step = SHADOW_REACH / SNAP_DIVISIONS;
        let u = (eye.dot(right) / step).round();
        let v = (eye.dot(up) / step).round();
        (
            right * u * step + up * v * step,
            [u as i64, v as i64],
            SHADOW_REACH,
        )
    };
    // The level's depth along the sun from the centre (the reach's when unbounded).
    let (mut near, mut far) = (f32::INFINITY, f32::NEG_INFINITY);
    if finite {
        for i in 0..8 {
            let corner = Vec3::new(
                if i & 1 == 0 {
                    bounds.min.x
                } else {
                    bounds.max.x
                },
                if i & 2 == 0 {
                    bounds.min.y
                } else {
                    bounds.max.y
                },
                if i & 4 == 0 {
                    bounds.min.z
                } else {
                    bounds.max.z
                },
            );
            let d = (corner - centre).dot(sun);
            near = near.min(d);
            far = far.max(d);
        }
    } else {
        (near, far) = (-SHADOW_REACH, SHADOW_REACH);
    }
    let view = Mat4::look_to_rh(centre, sun, up);
    let proj = Mat4::orthographic_rh_gl(
        -reach,
        reach,
        -reach,
        reach,
        near - DEPTH_MARGIN,
        far + DEPTH_MARGIN,
    );
    ShadowFit {
        view_proj: proj * view,
        cell,
        sun,
        reach,
    }
}

/// Texels a side of a cell of [`ShadeGrid`]: 2048 / 8 = a 256 x 256 grid (256 KiB). A
/// cell holds its farthest depth, so a cell over a roof's edge holds the open ground's
/// beyond it: finer cells find more of a closed level's clusters in shade, for a few
/// thousand cells a cluster to test once a draw.
pub const SHADE_CELL: usize = 8;

/// Texels around a box's footprint also tested: the receivers' normal offset (1.5
/// texels) and the filter's taps (a texel, each 2x2) reach this far past it.
const SHADE_FOOTPRINT_MARGIN: f32 = 4.0;

/// The shadow map read back as the farthest depth of each [`SHADE_CELL`]-square cell:
/// enough to say of a box that every point of it is in the sun's shade (every depth of its
/// footprint nearer the sun than the box's nearest point). The scene shader need not look
/// the shadow map up for such a cluster: on llvmpipe that lookup is most of the lit
/// light's cost (docs/lighting.md), and a closed level is wholly in shade.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShadeGrid {
    /// Cells a side.
    side: usize,
    /// Each cell's farthest depth (0 near the sun, 1 far), bottom row first.
    farthest: Vec<f32>,
}

impl ShadeGrid {
    /// The grid of a `size`-square depth map (`depth`: 32-bit fixed point, `u32::MAX`
    /// far, bottom row first).
    pub fn new(depth: &[u32], size: usize) -> ShadeGrid {
        let side = size.div_ceil(SHADE_CELL);
        let mut farthest = vec![0u32; side * side];
        for (y, row) in depth.chunks_exact(size).enumerate() {
            let cells = &mut farthest[(y / SHADE_CELL) * side..][..side];
            for (x, &d) in row.iter().enumerate() {
                let c = &mut cells[x / SHADE_CELL];
                *c = (*c).max(d);
            }
        }
        ShadeGrid {
            side,
            farthest: farthest
                .into_iter()
                .map(|d| (f64::from(d) / f64::from(u32::MAX)) as f32)
                .collect(),
        }
    }

    /// The test of points against the map `fit` drew (see [`ShadeTest::holds`]).
    pub fn test<'a>(&'a self, fit: &ShadowFit) -> ShadeTest<'a> {
        ShadeTest {
            grid: self,
            to_texture: fit.texture_matrix(),
            // The receivers' normal offset may bring a point this much nearer the sun.
            depth_margin: SHADE_FOOTPRINT_MARGIN * fit.texel()[1] * fit.depth_per_metre(),
        }
    }
}

/// A [`ShadeGrid`] ready to test shapes against the map it was read from.
pub struct ShadeTest<'a> {
    grid: &'a ShadeGrid,
    /// World to the shadow map's texture space ([0, 1] across, depth 0 near the sun).
    to_texture: Mat4,
    /// [`SHADE_FOOTPRINT_MARGIN`] texels as depth.
    depth_margin: f32,
}

impl ShadeTest<'_> {
    /// Every point of the convex hull of `points` (a triangle's corners, a box's) is in
    /// shade: every depth of its footprint (its bounds in the map, grown by what the
    /// scene shader's offset and filter reach) lies nearer the sun than its nearest point.
    /// False where any of it lies off the map, or nothing was read back.
    pub fn holds(&self, points: impl IntoIterator<Item = Vec3>) -> bool {
        let g = self.grid;
        if g.side == 0 {
            return false;
        }
        let Aabb { min: lo, max: hi } = Aabb::from_points(
            points
                .into_iter()
                .map(|p| self.to_texture.project_point3(p)),
        );
        let margin = SHADE_FOOTPRINT_MARGIN / SHADOW_MAP_SIZE as f32;
        let (lo_xy, hi_xy) = (lo.truncate() - margin, hi.truncate() + margin);
        if !(lo_xy.min_element() >= 0.0 && hi_xy.max_element() <= 1.0) {
            return false;
        }
        let cells = g.side as f32;
        let cell = |t: f32| ((t * cells) as usize).min(g.side - 1);
        let (x0, x1, y0, y1) = (cell(lo_xy.x), cell(hi_xy.x), cell(lo_xy.y), cell(hi_xy.y));
        let nearest = lo.z - self.depth_margin;
        (y0..=y1).all(|y| {
            g.farthest[y * g.side..][x0..=x1]
                .iter()
                .all(|&d| d < nearest)
        })
    }
}

/// The shadow map's GL objects: a depth texture, a texture of each texel's owner (see
/// [`super::sun_shade`]), the framebuffer drawing into them, and the program. Deleted on
/// drop.
pub struct ShadowMap {
    gl: Arc<glow::Context>,
    program: glow::Program,
    view_proj: Option<glow::UniformLocation>,
    first_triangle: Option<glow::UniformLocation>,
    framebuffer: glow::Framebuffer,
    pub depth: glow::Texture,
    owners: glow::Texture,
    /// The fit the map holds now (`None`: nothing drawn yet, or to draw again).
    pub drawn: Option<ShadowFit>,
}

impl ShadowMap {
    /// Make the map: a [`SHADOW_MAP_SIZE`]-square depth texture compared on sampling
    /// (a `sampler2DShadow`), bilinear (each lookup a 2x2 PCF).
    pub fn new(gl: Arc<glow::Context>) -> Result<ShadowMap, String> {
        let program = gl::program(
            &gl,
            ("shaders/shadow.vert", VERTEX_SHADER),
            ("shaders/shadow.frag", FRAGMENT_SHADER),
        )?;
        let view_proj = gl::uniform(&gl, program, "u_view_proj");
        let first_triangle = gl::uniform(&gl, program, "u_first_triangle");
        // SAFETY: context current; the texture and framebuffer made here are owned by the
        // returned value (or deleted before an error is returned).
        unsafe {
            let depth = gl
                .create_texture()
                .inspect_err(|_| gl.delete_program(program))?;
            let owners = gl.create_texture().inspect_err(|_| {
                gl.delete_texture(depth);
                gl.delete_program(program);
            })?;
            let framebuffer = gl.create_framebuffer().inspect_err(|_| {
                gl.delete_texture(owners);
                gl.delete_texture(depth);
                gl.delete_program(program);
            })?;
            let size = SHADOW_MAP_SIZE as i32;
            gl.bind_texture(glow::TEXTURE_2D, Some(depth));
            gl.tex_storage_2d(glow::TEXTURE_2D, 1, glow::DEPTH_COMPONENT24, size, size);
            let param = |p, v: u32| gl.tex_parameter_i32(glow::TEXTURE_2D, p, v as i32);
            param(glow::TEXTURE_MIN_FILTER, glow::LINEAR);
            param(glow::TEXTURE_MAG_FILTER, glow::LINEAR);
            // Clamped to the edge: the shader lights what lies off the map (measured on
            // llvmpipe, a border colour costs more).
            param(glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE);
            param(glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE);
            param(glow::TEXTURE_COMPARE_MODE, glow::COMPARE_REF_TO_TEXTURE);
            param(glow::TEXTURE_COMPARE_FUNC, glow::LEQUAL);
            gl.bind_texture(glow::TEXTURE_2D, Some(owners));
            gl.tex_storage_2d(glow::TEXTURE_2D, 1, glow::R32UI, size, size);
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            gl.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                glow::DEPTH_ATTACHMENT,
                glow::TEXTURE_2D,
                Some(depth),
                0,
            );
            gl.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::TEXTURE_2D,
                Some(owners),
                0,
            );
            gl.draw_buffer(glow::NONE);
            gl.read_buffer(glow::NONE);
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            check_gl!(&gl, "the shadow map");
            let map = ShadowMap {
                gl: gl.clone(),
                program,
                view_proj,
                first_triangle,
                framebuffer,
                depth,
                owners,
                drawn: None,
            };
            if status != glow::FRAMEBUFFER_COMPLETE {
                return Err(format!(
                    "the shadow map's framebuffer is incomplete ({status:#x})"
                ));
            }
            Ok(map)
        }
    }

    /// Bind the map's framebuffer and program to draw `fit`'s depth (and, with
    /// `owners`, each texel's owner: see [`ShadowMap::set_first_triangle`]): cleared, the
    /// casters' depth biased, both sides drawn. The caller draws the casters, then calls
    /// [`ShadowMap::end`].
    pub fn begin(&mut self, fit: &ShadowFit, owners: bool) {
        let gl = &self.gl;
        let size = SHADOW_MAP_SIZE as i32;
        // SAFETY: context current; the framebuffer and program are owned by self.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer));
            gl.viewport(0, 0, size, size);
            gl.disable(glow::SCISSOR_TEST);
            gl.disable(glow::CULL_FACE);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LESS);
            gl.depth_mask(true);
            gl.clear(glow::DEPTH_BUFFER_BIT);
            if owners {
                gl.draw_buffer(glow::COLOR_ATTACHMENT0);
                gl.clear_buffer_u32_slice(glow::COLOR, 0, &[0; 4]);
            } else {
                gl.draw_buffer(glow::NONE);
            }
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(POLYGON_OFFSET.0, POLYGON_OFFSET.1);
            gl.use_program(Some(self.program));
            let m = fit.view_proj.to_cols_array();
            gl.uniform_matrix_4_f32_slice(self.view_proj.as_ref(), false, &m);
        }
        self.drawn = Some(*fit);
    }

    /// The casters drawn next are the map's triangles from number `first` on (`None`:
    /// movers, whose texels have no owner).
    pub fn set_first_triangle(&self, first: Option<u32>) {
        let value = first.map_or(0, |f| f + 1);
        // SAFETY: context current; the program (bound by `begin`) owns the uniform.
        unsafe { self.gl.uniform_1_u32(self.first_triangle.as_ref(), value) };
    }

    /// Done drawing into the map: read back (`read`; else nothing, which knows nothing
    /// in shade), and the window's framebuffer bound again.
    pub fn end(&self, read: bool) -> Option<ShadowRead> {
        let gl = &self.gl;
        let size = SHADOW_MAP_SIZE as usize;
        let read = read.then(|| {
            let mut depth = vec![0u32; size * size];
            gl::read_depth(gl, SHADOW_MAP_SIZE, SHADOW_MAP_SIZE, &mut depth);
            let grid = ShadeGrid::new(&depth, size);
            // The depths' buffer serves again for the owners.
            gl::read_uint(gl, SHADOW_MAP_SIZE, SHADOW_MAP_SIZE, &mut depth);
            ShadowRead {
                grid,
                owners: depth,
            }
        });
        // SAFETY: context current; plain state.
        unsafe {
            gl.read_buffer(glow::NONE);
            gl.disable(glow::POLYGON_OFFSET_FILL);
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        }
        read
    }
}

/// The shadow map as read back: its farthest depths, and each texel's owner (see
/// [`super::sun_shade::Owners`]), [`SHADOW_MAP_SIZE`] a side.
pub struct ShadowRead {
    pub grid: ShadeGrid,
    pub owners: Vec<u32>,
}

impl Drop for ShadowMap {
    fn drop(&mut self) {
        // SAFETY: the renderer owning the map drops it while its context is current.
        unsafe {
            self.gl.delete_framebuffer(self.framebuffer);
            self.gl.delete_texture(self.owners);
            self.gl.delete_texture(self.depth);
            self.gl.delete_program(self.program);
        }
    }
}

/// The bounds, after the projection `m`, of the eight corners of `b`: where a box lies
/// in the shadow map's texture space, or in a view's clip space.
pub(super) fn projected(m: &Mat4, b: Aabb) -> Aabb {
    Aabb::from_points(b.corners().map(|c| m.project_point3(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sun() -> Vec3 {
        Vec3::new(-0.4, -1.0, -0.3).normalize()
    }

    fn room(half: f32) -> Aabb {
        Aabb {
            min: Vec3::new(-half, 0.0, -half),
            max: Vec3::new(half, 3.0, half),
        }
    }

    /// The level's every corner lands inside the map, in depth too.
    fn inside(fit: &ShadowFit, p: Vec3) -> bool {
        let c = fit.view_proj.project_point3(p);
        c.abs().max_element() <= 1.0
    }

    #[test]
    fn a_small_level_is_covered_whole_from_one_view_wherever_the_eye_stands() {
        let level = room(5.0);
        let a = fit(Vec3::new(-4.0, 1.6, 3.0), sun(), &level);
        let b = fit(Vec3::new(4.0, 1.6, -3.0), sun(), &level);
        assert_eq!(a, b);
        for p in [level.min, level.max, Vec3::new(5.0, 0.0, -5.0)] {
            assert!(inside(&a, p), "{p}");
        }
    }

    #[test]
    fn on_a_big_level_the_view_moves_only_a_whole_snap_step_of_whole_texels() {
        let level = room(500.0);
        let a = fit(Vec3::new(0.0, 1.6, 0.0), sun(), &level);
        // A few centimetres: the same fit, nothing to draw again.
        let b = fit(Vec3::new(0.05, 1.6, 0.02), sun(), &level);
        assert_eq!(a, b);
        // Far enough to change cell: the centre moved a whole number of texels, so each
        // world point keeps its place within its texel (no crawling edges).
        let c = fit(Vec3::new(9.0, 1.6, 0.0), sun(), &level);
        assert_ne!(a.cell, c.cell);
        let texels = SHADOW_MAP_SIZE as f32 / 2.0;
        let p = Vec3::new(1.234, 0.0, 2.345);
        let (pa, pc) = (a.view_proj.project_point3(p), c.view_proj.project_point3(p));
        for moved in [(pa.x - pc.x) * texels, (pa.y - pc.y) * texels] {
            assert!((moved - moved.round()).abs() < 1e-2, "{moved} texels");
        }
        // The eye's surroundings are covered, from the floor to the ceiling.
        for p in [Vec3::new(12.0, 0.0, -12.0), Vec3::new(-12.0, 3.0, 12.0)] {
            assert!(inside(&c, p + Vec3::new(9.0, 0.0, 0.0)), "{p}");
        }
    }

    #[test]
    fn a_box_under_a_roof_is_in_shade_and_one_beside_it_is_not() {
        let level = room(5.0);
        let sun = -Vec3::Y;
        let f = fit(Vec3::ZERO, sun, &level);
        // The map as a roof at 3 m drew it over the room's middle (|x|, |z| < 3 m), and
        // the floor at 0 elsewhere.
        let size = 256;
        let depth_of = |y: f32| {
            let d = f.texture_matrix().project_point3(Vec3::new(0.0, y, 0.0)).z;
            (f64::from(d) * f64::from(u32::MAX)) as u32
        };
        let (roof, floor) = (depth_of(3.0), depth_of(0.0));
        let mut depth = vec![floor; size * size];
        for y in 0..size {
            for x in 0..size {
                let world = |t: usize| (t as f32 + 0.5) / size as f32 * 2.0 * f.reach - f.reach;
                if world(x).abs() < 3.0 && world(y).abs() < 3.0 {
                    depth[y * size + x] = roof;
                }
            }
        }
        let grid = ShadeGrid::new(&depth, size);
        let test = grid.test(&f);
        let boxed = |min: Vec3, max: Vec3| test.holds(Aabb { min, max }.corners());
        let under = boxed(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 1.0, 1.0));
        assert!(under);
        // Reaching out from under the roof: some of it in the sun.
        let out = boxed(Vec3::new(2.0, 0.0, -1.0), Vec3::new(4.5, 1.0, 1.0));
        assert!(!out);
        // The roof itself is not in its own shade.
        let top = boxed(Vec3::new(-1.0, 2.9, -1.0), Vec3::new(1.0, 3.0, 1.0));
        assert!(!top);
        // Nothing read back: nothing known.
        assert!(!ShadeGrid::default().test(&f).holds([Vec3::ZERO, Vec3::ONE]));
    }

    #[test]
    fn straight_down_sunlight_still_has_a_view() {
        let f = fit(Vec3::ZERO, -Vec3::Y, &room(3.0));
        assert!(f.view_proj.is_finite());
        assert!(inside(&f, Vec3::new(3.0, 0.0, 3.0)));
    }
}
