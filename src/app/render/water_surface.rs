//! The water's surface: its program (ripples, the Fresnel blend of the reflection with
//! the water and what lies under it: `shaders/water.frag`) and the copy of the scene
//! under it (the framebuffer before the reflection is drawn over the surface's pixels,
//! kept in a texture the shader reads through the ripples). The surface's triangles and
//! its reflection are the mirrors' ([`super::MirrorDraw`]): a water surface is a mirror
//! finished with water.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::sync::Arc;

use glam::{Mat4, Vec3};
use glow::HasContext;

use super::gl;
use super::program::SUN_DIRECTION;

const VERTEX_SHADER: &str = include_str!("../../../shaders/water.vert");
const FRAGMENT_SHADER: &str = include_str!("../../../shaders/water.frag");

/// The water's colour as displayed (a blue-green) and how much of what lies under the
/// surface it hides.
pub const WATER_COLOR: [f32; 4] = [0.1, 0.35, 0.45, 0.45];

/// What one water surface is drawn with this frame.
#[derive(Clone, Copy, Debug)]
pub struct WaterFrame {
    /// The view's (unreflected) matrix.
    pub view_proj: Mat4,
    /// The eye, for the Fresnel term and the glints.
    pub eye: Vec3,
    /// Seconds of simulated time: the ripples move with it.
    pub time: f32,
    /// The reflection is drawn under the surface's pixels (the eye is above it).
    pub reflecting: bool,
}

/// The program's uniforms.
struct Uniforms {
    view_proj: Option<glow::UniformLocation>,
    eye: Option<glow::UniformLocation>,
    time: Option<glow::UniformLocation>,
    below: Option<glow::UniformLocation>,
    viewport: Option<glow::UniformLocation>,
    water: Option<glow::UniformLocation>,
    reflecting: Option<glow::UniformLocation>,
    light_dir: Option<glow::UniformLocation>,
}

/// The water's program and the copy of the scene under it.
pub struct WaterSurface {
    gl: Arc<glow::Context>,
    program: glow::Program,
    uniforms: Uniforms,
    /// The copy's framebuffer and texture (colour as displayed, one sample a pixel).
    framebuffer: glow::Framebuffer,
    below: glow::Texture,
    /// The copy's size, pixels (0: none made yet).
    size: [i32; 2],
    /// The viewport copied: x, y, width, height.
    viewport: [i32; 4],
}

impl WaterSurface {
    /// Compile the water's shaders and make the copy's objects (sized at the first copy).
    pub fn new(gl: Arc<glow::Context>) -> Result<WaterSurface, String> {
        let program = gl::program(
            &gl,
            ("shaders/water.vert", VERTEX_SHADER),
            ("shaders/water.frag", FRAGMENT_SHADER),
        )?;
        let u = |n: &str| gl::uniform(&gl, program, n);
        let uniforms = Uniforms {
            view_proj: u("u_view_proj"),
            eye: u("u_eye"),
            time: u("u_time"),
            below: u("u_below"),
            viewport: u("u_viewport"),
            water: u("u_water"),
            reflecting: u("u_reflecting"),
            light_dir: u("u_light_dir"),
        };
        // SAFETY: context current; the objects are owned by the returned value and
        // deleted in `Drop` (the program too if these cannot be made).
        unsafe {
            let framebuffer = gl
                .create_framebuffer()
                .inspect_err(|_| gl.delete_program(program))?;
            let below = gl.create_texture().inspect_err(|_| {
                gl.delete_framebuffer(framebuffer);
                gl.delete_program(program);
            })?;
            Ok(WaterSurface {
                gl,
                program,
                uniforms,
                framebuffer,
                below,
                size: [0, 0],
                viewport: [0, 0, 1, 1],
            })
        }
    }

    /// Copy the scene drawn so far (the bound framebuffer's viewport) into the texture
    /// the surface is drawn with: what lies under the water, before a reflection covers
    /// it. The bound framebuffer stays bound.
    pub fn copy_below(&mut self) {
        let gl = &self.gl;
        // SAFETY: context current; the texture and framebuffer are owned here; the
        // bindings changed are put back.
        unsafe {
            let mut viewport = [0i32; 4];
            gl.get_parameter_i32_slice(glow::VIEWPORT, &mut viewport);
            let drawing = gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING);
            let [_, _, w, h] = viewport;
            if self.size != [w, h] {
                self.size = [w, h];
                gl.bind_texture(glow::TEXTURE_2D, Some(self.below));
                gl.tex_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    glow::RGBA8 as i32,
                    w,
                    h,
                    0,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    glow::PixelUnpackData::Slice(None),
                );
                for (k, v) in [
                    (glow::TEXTURE_MIN_FILTER, glow::LINEAR),
                    (glow::TEXTURE_MAG_FILTER, glow::LINEAR),
                    (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                    (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
                ] {
                    gl.tex_parameter_i32(glow::TEXTURE_2D, k, v as i32);
                }
                gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, Some(self.framebuffer));
                gl.framebuffer_texture_2d(
                    glow::DRAW_FRAMEBUFFER,
                    glow::COLOR_ATTACHMENT0,
                    glow::TEXTURE_2D,
                    Some(self.below),
                    0,
                );
            }
            self.viewport = viewport;
            // The colours as displayed: no sRGB conversion on the way.
            gl.disable(glow::FRAMEBUFFER_SRGB);
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, drawing);
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, Some(self.framebuffer));
            let [x, y] = [viewport[0], viewport[1]];
            // A multisampled framebuffer is resolved on the way (same rectangle).
            gl.blit_framebuffer(
                x,
                y,
                x + w,
                y + h,
                0,
                0,
                w,
                h,
                glow::COLOR_BUFFER_BIT,
                glow::NEAREST,
            );
            gl.bind_framebuffer(glow::FRAMEBUFFER, drawing);
            gl::check_gl!(gl, "the copy under the water");
        }
    }

    /// Use the program with `frame`'s uniforms and the copy bound (texture unit 0).
    pub fn bind(&self, frame: &WaterFrame) {
        let (gl, u) = (&self.gl, &self.uniforms);
        let (e, s, [r, g, b, a]) = (frame.eye, SUN_DIRECTION.normalize(), WATER_COLOR);
        let v = self.viewport.map(|c| c as f32);
        // SAFETY: context current; the program and texture are owned here.
        unsafe {
            gl.use_program(Some(self.program));
            let m = frame.view_proj.to_cols_array();
            gl.uniform_matrix_4_f32_slice(u.view_proj.as_ref(), false, &m);
            gl.uniform_3_f32(u.eye.as_ref(), e.x, e.y, e.z);
            gl.uniform_1_f32(u.time.as_ref(), frame.time);
            gl.uniform_4_f32(u.viewport.as_ref(), v[0], v[1], v[2], v[3]);
            gl.uniform_4_f32(u.water.as_ref(), r, g, b, a);
            gl.uniform_1_f32(u.reflecting.as_ref(), f32::from(u8::from(frame.reflecting)));
            gl.uniform_3_f32(u.light_dir.as_ref(), s.x, s.y, s.z);
            gl.uniform_1_i32(u.below.as_ref(), 0);
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.below));
        }
    }
}

impl Drop for WaterSurface {
    fn drop(&mut self) {
        // SAFETY: dropped while the context is current (the app drops it with the renderer).
        unsafe {
            self.gl.delete_texture(self.below);
            self.gl.delete_framebuffer(self.framebuffer);
            self.gl.delete_program(self.program);
        }
    }
}
