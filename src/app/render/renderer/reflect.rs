//! The scene drawn again reflected about a mirror's plane, into the pixels the caller
//! marked in the stencil (see `app/render/mirror_draw.rs`): the clusters the reflected
//! view may see (frustum culling: the depth pyramid is the direct view's) and the movers,
//! with what lies behind the mirror cut away by a clip plane, wound the other way.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glam::{Mat4, UVec2, Vec4};
use glow::HasContext;

use walkthrough_core::cull::{View, draw_order};
use walkthrough_core::player::Pose;

use super::super::counters::DrawStats;
use super::super::culling::Culling;
use super::Renderer;
use super::draw::Bound;

impl Renderer {
    /// Draw the map seen from `pose` reflected by `reflection` (a mirror's), keeping what
    /// `clip_plane` keeps (the mirror's front side), into the current framebuffer without
    /// clearing it: the caller holds the stencil test to the mirror's pixels. Returns the
    /// triangles drawn.
    pub fn draw_reflected(
        &mut self,
        pose: &Pose,
        reflection: Mat4,
        clip_plane: Vec4,
        width: u32,
        height: u32,
    ) -> usize {
        let [width, height] = self.render_scale.bind(&self.gl, [width, height]);
        let proj = self.projection(width, height);
        let view = View::new(
            pose.view_matrix() * reflection,
            proj,
            UVec2::new(width, height),
        );
        draw_order(&self.mesh, &view, &mut self.order);
        // The eye seen in the mirror: lighting and fog are reckoned from it.
        let eye = reflection.transform_point3(pose.position);
        let frame = self.frame_uniforms(view.view_proj, eye, clip_plane);
        let gl = self.gl.clone();
        // SAFETY: context current; plain state, put back below.
        unsafe {
            gl.enable(glow::CLIP_DISTANCE0);
            // A reflection turns every triangle over on screen.
            gl.front_face(glow::CW);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LESS);
            gl.depth_mask(true);
            gl.disable(glow::BLEND);
            if self.srgb {
                gl.enable(glow::FRAMEBUFFER_SRGB);
            }
            gl.active_texture(glow::TEXTURE0);
            gl.bind_vertex_array(Some(self.vao));
        }
        let mut stats = DrawStats::default();
        let mut bound = Bound::default();
        // Two-sided: the clip plane opens closed solids (a room whose wall is the
        // mirror is seen from inside through it), so no face is a back face.
        let culling = std::mem::replace(&mut self.culling, Culling::Off);
        self.draw_in_view(&view, &frame, &mut bound, &mut stats);
        self.culling = culling;
        // The movers where the direct view placed them this frame.
        self.draw_movers(&frame, &mut stats);
        // SAFETY: context current; plain state, as `end_frame` leaves it.
        unsafe {
            gl.disable(glow::CLIP_DISTANCE0);
            gl.front_face(glow::CCW);
            gl.disable(glow::CULL_FACE);
            gl.disable(glow::FRAMEBUFFER_SRGB);
            gl.bind_vertex_array(None);
            gl.use_program(None);
        }
        stats.triangles
    }
}
