//! The mirrors' own passes around each reflection ([`walkthrough_core::mirrors`]): before it,
//! the mirror's visible pixels marked in the stencil and their depth reset to the far
//! plane (their colour to the sky's: what the reflection does not cover is sky), so the
//! reflection is drawn there afresh; after it, the glass tinted (or the water drawn over
//! it, see [`WaterSurface`]) and its true depth written back, so what is drawn later
//! (overlays) is hidden by it as by a wall. Kilgard's stencil reflections (NVIDIA, 1999),
//! one reflection deep. A water surface seen from below has no reflection: it is drawn
//! over the scene, depth-tested, without the stencil.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::sync::Arc;

use glam::{Mat4, Vec3};
use glow::HasContext;
use walkthrough_core::mirrors::Mirror;

use super::debug_draw::{DebugVertex, OverlayObjects};
use super::gl;
use super::renderer::CLEAR_COLOR;
use super::water_surface::{WaterFrame, WaterSurface};

/// The glass over a reflection: a little grey-blue, mostly clear (as displayed).
const GLASS: [f32; 4] = [0.75, 0.82, 0.88, 0.12];
/// The mark pass's depth offset toward the eye (as `glPolygonOffset`): the glass's
/// triangles were drawn by the scene's shader at the same depth, which another shader
/// need not reproduce to the bit.
const MARK_OFFSET: (f32, f32) = (-1.0, -4.0);
/// The sky as displayed, where a reflection shows nothing.
const SKY: [f32; 4] = [CLEAR_COLOR[0], CLEAR_COLOR[1], CLEAR_COLOR[2], 1.0];

/// What a mirror's pixels are finished with over its reflection.
pub enum Cover<'a> {
    /// A light glass.
    Glass,
    /// Water: its program, with this frame's uniforms.
    Water(&'a WaterSurface, &'a WaterFrame),
}

/// Where a mirror's vertices are in the buffer: its triangles in the glass's colour,
/// then the same in the sky's.
#[derive(Clone, Copy, Debug)]
struct Range {
    glass: i32,
    sky: i32,
    count: i32,
}

/// The mirrors' triangles on the GPU.
pub struct MirrorDraw {
    overlay: OverlayObjects,
    /// Each mirror's vertices.
    ranges: Vec<Range>,
}

impl MirrorDraw {
    /// The program (the overlay's shaders) and an empty buffer.
    pub fn new(gl: Arc<glow::Context>) -> Result<MirrorDraw, String> {
        Ok(MirrorDraw {
            overlay: OverlayObjects::new(gl)?,
            ranges: Vec::new(),
        })
    }

    /// Upload the map's `mirrors` (after a load or a rescale).
    pub fn upload(&mut self, mirrors: &[Mirror]) {
        self.ranges.clear();
        let mut vertices = Vec::new();
        for m in mirrors {
            let count = 3 * m.triangles.len() as i32;
            let glass = vertices.len() as i32;
            for colour in [GLASS, SKY] {
                for t in &m.triangles {
                    vertices.extend(t.map(|p: Vec3| DebugVertex::new(p, colour)));
                }
            }
            self.ranges.push(Range {
                glass,
                sky: glass + count,
                count,
            });
        }
        gl::fill_static_buffer(
            &self.overlay.gl,
            self.overlay.vbo,
            bytemuck::cast_slice(&vertices),
            "the mirrors' upload",
        );
    }

    /// Use the overlay's program with `view_proj`.
    ///
    /// # Safety
    /// The context must be current.
    unsafe fn use_overlay(&self, view_proj: Mat4) {
        // SAFETY: the caller's promise; the program is owned here.
        unsafe {
            self.overlay.gl.use_program(Some(self.overlay.program));
            let m = view_proj.to_cols_array();
            self.overlay
                .gl
                .uniform_matrix_4_f32_slice(self.overlay.view_proj.as_ref(), false, &m);
        }
    }

    /// Draw mirror `i`'s triangles in the glass's colour (`sky`: the sky's) with the
    /// program in use.
    ///
    /// # Safety
    /// The context must be current.
    unsafe fn draw_mirror(&self, i: usize, sky: bool) {
        let Some(r) = self.ranges.get(i) else {
            return;
        };
        let gl = &self.overlay.gl;
        // SAFETY: the caller's promise; the range lies within the uploaded buffer.
        unsafe {
            gl.bind_vertex_array(Some(self.overlay.vao));
            gl.draw_arrays(glow::TRIANGLES, if sky { r.sky } else { r.glass }, r.count);
            gl.bind_vertex_array(None);
        }
    }

    /// Before mirror `i`'s reflection: stencil 1 where its glass is seen (in front of
    /// everything drawn), the depth there pushed to the far plane; the stencil test left
    /// on, passing those pixels only.
    pub fn mark(&self, view_proj: Mat4, i: usize) {
        let gl = &self.overlay.gl;
        // SAFETY: context current; state set here is put back by `finish`.
        unsafe {
            gl.enable(glow::STENCIL_TEST);
            gl.stencil_mask(0xff);
            gl.clear_stencil(0);
            gl.clear(glow::STENCIL_BUFFER_BIT);
            gl.stencil_func(glow::ALWAYS, 1, 0xff);
            gl.stencil_op(glow::KEEP, glow::KEEP, glow::REPLACE);
            gl.color_mask(false, false, false, false);
            gl.disable(glow::FRAMEBUFFER_SRGB);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(false);
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(MARK_OFFSET.0, MARK_OFFSET.1);
            self.use_overlay(view_proj);
            self.draw_mirror(i, false);
            gl.disable(glow::POLYGON_OFFSET_FILL);
            // The marked pixels' depth to the far plane and their colour to the sky's:
            // the reflection fills them anew.
            gl.stencil_func(glow::EQUAL, 1, 0xff);
            gl.stencil_op(glow::KEEP, glow::KEEP, glow::KEEP);
            gl.depth_func(glow::ALWAYS);
            gl.depth_mask(true);
            gl.color_mask(true, true, true, true);
            self.use_overlay(at_far_plane(view_proj));
            self.draw_mirror(i, true);
            gl.depth_func(glow::LESS);
        }
    }

    /// Draw only where mirror `i` was marked (`on`), until called with `off`: after
    /// [`finish`](Self::finish) the stencil still holds its pixels, and their depth is the
    /// glass's own, so what is drawn there with the view's own matrix shows only on the
    /// glass's plane (a decal stuck on the mirror).
    pub fn only_marked(&self, on: bool) {
        let gl = &self.overlay.gl;
        // SAFETY: context current; plain state, put back by the call with `false`.
        unsafe {
            if on {
                gl.enable(glow::STENCIL_TEST);
                gl.stencil_func(glow::EQUAL, 1, 0xff);
                gl.stencil_op(glow::KEEP, glow::KEEP, glow::KEEP);
            } else {
                gl.disable(glow::STENCIL_TEST);
            }
        }
    }

    /// After mirror `i`'s reflection: `cover` over it (the glass's tint, or the water)
    /// and the mirror's own depth written back; the stencil test off.
    pub fn finish(&self, view_proj: Mat4, i: usize, cover: Cover) {
        let gl = &self.overlay.gl;
        // SAFETY: context current; the state `mark` set is put back.
        unsafe {
            gl.stencil_func(glow::EQUAL, 1, 0xff);
            gl.depth_func(glow::ALWAYS);
            gl.depth_mask(true);
            gl.disable(glow::FRAMEBUFFER_SRGB);
            gl.enable(glow::BLEND);
            gl.blend_func(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA);
            match cover {
                Cover::Glass => self.use_overlay(view_proj),
                Cover::Water(water, frame) => water.bind(frame),
            }
            self.draw_mirror(i, false);
            gl.disable(glow::BLEND);
            gl.depth_func(glow::LESS);
            gl.disable(glow::STENCIL_TEST);
            gl.use_program(None);
        }
    }

    /// Water surface `i` seen with no reflection (from below): drawn over the scene where
    /// nothing nearer hides it, its depth not written (the overlays are seen through it).
    pub fn water_without_reflection(&self, i: usize, water: &WaterSurface, frame: &WaterFrame) {
        let gl = &self.overlay.gl;
        // SAFETY: context current; plain state, put back.
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(false);
            gl.disable(glow::CULL_FACE);
            gl.disable(glow::FRAMEBUFFER_SRGB);
            gl.enable(glow::BLEND);
            gl.blend_func(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA);
            water.bind(frame);
            self.draw_mirror(i, false);
            gl.disable(glow::BLEND);
            gl.depth_mask(true);
            gl.depth_func(glow::LESS);
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
