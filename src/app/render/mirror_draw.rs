//! The mirrors' own passes around each reflection ([`walkthrough::mirrors`]): before it,
//! the mirror's visible pixels marked in the stencil and their depth reset to the far
//! plane, so the reflection is drawn there afresh; after it, the glass tinted and
//! its true depth written back, so what is drawn later (overlays) is hidden by it as by a
//! wall. Kilgard's stencil reflections (NVIDIA, 1999), one reflection deep.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::sync::Arc;

use glam::{Mat4, Vec3};
use glow::HasContext;
use walkthrough::mirrors::Mirror;

use super::debug_draw::{DebugVertex, OverlayObjects};
use super::gl;

/// The glass over a reflection: a little grey-blue, mostly clear (as displayed).
const GLASS: [f32; 4] = [0.75, 0.82, 0.88, 0.12];
/// The mark pass's depth offset toward the eye (as `glPolygonOffset`): the glass's
/// triangles were drawn by the scene's shader at the same depth, which another shader
/// need not reproduce to the bit.
const MARK_OFFSET: (f32, f32) = (-1.0, -4.0);

/// The mirrors' triangles on the GPU.
pub struct MirrorDraw {
    gl: Arc<glow::Context>,
    program: glow::Program,
    view_proj: Option<glow::UniformLocation>,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    /// Each mirror's first vertex and count.
    ranges: Vec<(i32, i32)>,
}

impl MirrorDraw {
    /// The program (the overlay's shaders) and an empty buffer.
    pub fn new(gl: Arc<glow::Context>) -> Result<MirrorDraw, String> {
        let OverlayObjects {
            program,
            view_proj,
            vao,
            vbo,
        } = OverlayObjects::new(&gl)?;
        Ok(MirrorDraw {
            gl,
            program,
            view_proj,
            vao,
            vbo,
            ranges: Vec::new(),
        })
    }

    /// Upload the map's `mirrors` (after a load or a rescale).
    pub fn upload(&mut self, mirrors: &[Mirror]) {
        self.ranges.clear();
        let mut vertices = Vec::new();
        for m in mirrors {
            let first = vertices.len() as i32;
            for t in &m.triangles {
                vertices.extend(t.map(|p: Vec3| DebugVertex::new(p, GLASS)));
            }
            self.ranges.push((first, vertices.len() as i32 - first));
        }
        gl::fill_static_buffer(
            &self.gl,
            self.vbo,
            bytemuck::cast_slice(&vertices),
            "the mirrors' upload",
        );
    }

    /// Use the program with `view_proj` and draw mirror `i`'s triangles.
    ///
    /// # Safety
    /// The context must be current.
    unsafe fn draw_mirror(&self, view_proj: Mat4, i: usize) {
        let Some(&(first, count)) = self.ranges.get(i) else {
            return;
        };
        let gl = &self.gl;
        // SAFETY: the caller's promise; the range lies within the uploaded buffer.
        unsafe {
            gl.use_program(Some(self.program));
            let m = view_proj.to_cols_array();
            gl.uniform_matrix_4_f32_slice(self.view_proj.as_ref(), false, &m);
            gl.bind_vertex_array(Some(self.vao));
            gl.draw_arrays(glow::TRIANGLES, first, count);
            gl.bind_vertex_array(None);
        }
    }

    /// Before mirror `i`'s reflection: stencil 1 where its glass is seen (in front of
    /// everything drawn), the depth there pushed to the far plane; the stencil test left
    /// on, passing those pixels only.
    pub fn mark(&self, view_proj: Mat4, i: usize) {
        let gl = &self.gl;
        // SAFETY: context current; state set here is put back by `finish`.
        unsafe {
            gl.enable(glow::STENCIL_TEST);
            gl.stencil_mask(0xff);
            gl.clear_stencil(0);
            gl.clear(glow::STENCIL_BUFFER_BIT);
            gl.stencil_func(glow::ALWAYS, 1, 0xff);
            gl.stencil_op(glow::KEEP, glow::KEEP, glow::REPLACE);
            gl.color_mask(false, false, false, false);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(false);
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(MARK_OFFSET.0, MARK_OFFSET.1);
            self.draw_mirror(view_proj, i);
            gl.disable(glow::POLYGON_OFFSET_FILL);
            // The marked pixels' depth to the far plane: the reflection fills them anew.
            gl.stencil_func(glow::EQUAL, 1, 0xff);
            gl.stencil_op(glow::KEEP, glow::KEEP, glow::KEEP);
            gl.depth_func(glow::ALWAYS);
            gl.depth_mask(true);
            self.draw_mirror(at_far_plane(view_proj), i);
            gl.depth_func(glow::LESS);
            gl.color_mask(true, true, true, true);
        }
    }

    /// After mirror `i`'s reflection: the glass's tint over it and the glass's own
    /// depth written back; the stencil test off.
    pub fn finish(&self, view_proj: Mat4, i: usize) {
        let gl = &self.gl;
        // SAFETY: context current; the state `mark` set is put back.
        unsafe {
            gl.stencil_func(glow::EQUAL, 1, 0xff);
            gl.depth_func(glow::ALWAYS);
            gl.depth_mask(true);
            gl.enable(glow::BLEND);
            gl.blend_func(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA);
            self.draw_mirror(view_proj, i);
            gl.disable(glow::BLEND);
            gl.depth_func(glow::LESS);
            gl.disable(glow::STENCIL_TEST);
            gl.use_program(None);
        }
    }
}

/// `view_proj` with every point's depth at the far plane (clip z = w): what it draws
/// writes the farthest depth.
fn at_far_plane(view_proj: Mat4) -> Mat4 {
    let mut m = view_proj;
    for c in [&mut m.x_axis, &mut m.y_axis, &mut m.z_axis, &mut m.w_axis] {
        // Just short of w: a point exactly on the far plane may be clipped away.
        c.z = c.w * FAR_DEPTH;
    }
    m
}

/// Clip-space depth the mark pass writes, over w: the far plane, less a rounding.
const FAR_DEPTH: f32 = 0.999_999;

impl Drop for MirrorDraw {
    fn drop(&mut self) {
        // SAFETY: dropped while the context is current (the app drops it with the renderer).
        unsafe {
            self.gl.delete_buffer(self.vbo);
            self.gl.delete_vertex_array(self.vao);
            self.gl.delete_program(self.program);
        }
    }
}
