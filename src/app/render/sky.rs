//! The sky behind the scene (the `lighting` setting): a gradient from the horizon's
//! colour to the zenith's, drawn where the scene left the far plane's depth.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::sync::Arc;

use glam::Mat4;
use glow::HasContext;

use super::gl;

const VERTEX_SHADER: &str = include_str!("../../../shaders/sky.vert");
const FRAGMENT_SHADER: &str = include_str!("../../../shaders/sky.frag");

/// The sky's program. Deleted on drop.
pub struct Sky {
    gl: Arc<glow::Context>,
    program: glow::Program,
    inverse_view_proj: Option<glow::UniformLocation>,
    horizon: Option<glow::UniformLocation>,
    zenith: Option<glow::UniformLocation>,
}

impl Sky {
    /// Compile the sky's shaders.
    pub fn new(gl: Arc<glow::Context>) -> Result<Sky, String> {
        let program = gl::program(
            &gl,
            ("shaders/sky.vert", VERTEX_SHADER),
            ("shaders/sky.frag", FRAGMENT_SHADER),
        )?;
        let u = |n: &str| gl::uniform(&gl, program, n);
        Ok(Sky {
            inverse_view_proj: u("u_inverse_view_proj"),
            horizon: u("u_horizon"),
            zenith: u("u_zenith"),
            gl,
            program,
        })
    }

    /// Draw the sky seen through `view_proj` behind what is drawn (where the depth is
    /// still the cleared far plane's), colours in the shader's space. A vertex array
    /// must be bound (the triangle comes from the vertex ids alone); the depth test is
    /// left on, writing depth off, then on again.
    pub fn draw(&self, view_proj: Mat4, horizon: [f32; 3], zenith: [f32; 3]) {
        let gl = &self.gl;
        // SAFETY: context current; the program is owned by self; state is put back.
        unsafe {
            gl.use_program(Some(self.program));
            let m = view_proj.inverse().to_cols_array();
            gl.uniform_matrix_4_f32_slice(self.inverse_view_proj.as_ref(), false, &m);
            gl.uniform_3_f32(self.horizon.as_ref(), horizon[0], horizon[1], horizon[2]);
            gl.uniform_3_f32(self.zenith.as_ref(), zenith[0], zenith[1], zenith[2]);
            gl.disable(glow::CULL_FACE);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(false);
            gl.draw_arrays(glow::TRIANGLES, 0, 3);
            gl.depth_mask(true);
            gl.depth_func(glow::LESS);
        }
    }
}

impl Drop for Sky {
    fn drop(&mut self) {
        // SAFETY: the renderer owning the sky drops it while its context is current.
        unsafe { self.gl.delete_program(self.program) };
    }
}
