//! A frame of the scene: the clusters in drawing order, drawn in one pass or, with
//! occlusion culling, in passes around reads of the depth buffer; and the framebuffer read
//! back.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glam::{Mat4, UVec2, Vec3, Vec4};
use glow::HasContext;

use walkthrough_core::cull::{Batches, Draw, Occlusion, View, draw_order};
use walkthrough_core::player::Pose;

use super::Renderer;
use crate::app::render::ambient::all_light_elsewhere;
use crate::app::render::counters::DrawStats;
use crate::app::render::culling::Culling;
use crate::app::render::gl;
use crate::app::render::program::{
    DISPLAY_LIGHTING, DISPLAY_LIT, FrameUniforms, LINEAR_LIGHTING, LINEAR_LIT, Shading, Variant,
};

/// What is bound while a frame's draws are submitted: the program, the material, and
/// whether back faces are culled.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Bound {
    /// The program's place in the renderer's list.
    program: Option<usize>,
    material: Option<usize>,
    /// Back faces are culled (`begin_frame` leaves them drawn).
    cull_back_faces: bool,
}

impl Renderer {
    /// Draw the map seen from `pose` into the current framebuffer: the clusters the view
    /// may see, opaque nearest first, then the cut-outs (see [`walkthrough_core::cull`]), less
    /// the meshlets hidden behind what is drawn (see [`Occlusion`]).
    /// At a render scale under 1 the scene is drawn smaller, offscreen, and stays bound
    /// until [`Renderer::present`].
    pub fn draw(&mut self, pose: &Pose, width: u32, height: u32) {
        // The movers placed first: they cast shadows too.
        self.place_movers();
        self.draw_shadow(pose.position);
        let [width, height] = self.render_scale.bind(&self.gl, [width, height]);
        let proj = self.projection(width, height);
        let view = View::new(pose.view_matrix(), proj, UVec2::new(width, height));
        self.add_finished_levels();
        self.update_ambient();
        if self.culling != Culling::Off {
            draw_order(&self.mesh, &view, &mut self.order);
        } else {
            self.order.clear();
            self.order.extend(0..self.mesh.originals() as u32);
        }
        self.begin_frame(width, height);
        let frame = self.frame_uniforms(view.view_proj, pose.position, Vec4::W);
        let mut stats = DrawStats {
            clusters: self.order.len(),
            ..DrawStats::default()
        };
        let mut bound = Bound::default();
        match self
            .occlusion
            .take()
            .filter(|_| self.culling == Culling::Occlusion)
        {
            Some(mut o) => {
                self.draw_occluded(&mut o, &view, &frame, &mut bound, &mut stats);
                self.occlusion = Some(o);
            }
            None => self.draw_in_view(&view, &frame, &mut bound, &mut stats),
        }
        self.draw_movers(&frame, &mut stats);
        self.draw_sky(view.view_proj);
        self.end_frame(&mut stats);
        self.stats = stats;
    }

    /// The scene program's uniforms for a frame seen by `view_proj` from `eye`, keeping
    /// what `clip_plane` keeps (`Vec4::W`: all).
    pub(super) fn frame_uniforms(
        &self,
        view_proj: Mat4,
        eye: Vec3,
        clip_plane: Vec4,
    ) -> FrameUniforms {
        let fog = self.fog();
        let lit = self.lit_uniforms();
        FrameUniforms {
            view_proj,
            eye,
            far: fog.distance.unwrap_or(self.far),
            fog: self.shading(fog.color),
            light: match (self.srgb, lit.is_some()) {
                (true, false) => LINEAR_LIGHTING,
                (false, false) => DISPLAY_LIGHTING,
                (true, true) => LINEAR_LIT,
                (false, true) => DISPLAY_LIT,
            },
            srgb: self.srgb,
            clip_plane,
            sun: self.sun(),
            lit,
        }
    }

    /// Draw the frame's clusters with occlusion culling: the first pass (what was seen
    /// last frame), then the second in steps around reads of the depth buffer, then the
    /// retest of what the first steps found (see [`Occlusion`]).
    fn draw_occluded(
        &mut self,
        o: &mut Occlusion,
        view: &View,
        frame: &FrameUniforms,
        bound: &mut Bound,
        stats: &mut DrawStats,
    ) {
        let mut batches = std::mem::take(&mut self.batches);
        o.first_pass(&self.mesh, &self.order, view, &mut batches);
        self.submit_batches(&batches, frame, bound, stats);
        // The second pass, in steps: each tests what is left against the depth
        // drawn so far (see SECOND_PASS_STEP_TRIANGLES).
        let mut from = if o.second_pass_due() {
            0
        } else {
            self.order.len()
        };
        let gl = self.gl.clone();
        let [width, height] = view.viewport.to_array();
        let read = |o: &mut Occlusion| {
            o.pyramid.rebuild(width as usize, height as usize, |depth| {
                gl::read_depth(&gl, width, height, depth)
            });
        };
        while from < self.order.len() {
            if batches.is_empty() {
                o.pyramid.clear();
            } else {
                read(o);
            }
            from = o.second_pass(&self.mesh, &self.order, from, view, &mut batches);
            self.submit_batches(&batches, frame, bound, stats);
        }
        // What the first steps found seen, against the frame's whole depth (the
        // pyramid already holds it when the last step drew nothing).
        if o.retest_due() {
            if !batches.is_empty() {
                read(o);
            }
            o.retest(&self.mesh, &self.order, view);
        }
        self.batches = batches;
    }

    /// Draw the frame's clusters whole, from the map's own index buffer (frustum culling
    /// alone, or none).
    pub(super) fn draw_in_view(
        &mut self,
        view: &View,
        frame: &FrameUniforms,
        bound: &mut Bound,
        stats: &mut DrawStats,
    ) {
        let mut draws = std::mem::take(&mut self.draws);
        draws.clear();
        draws.extend(self.order.iter().map(|&i| {
            let c = &self.mesh.clusters[i as usize];
            Draw {
                material: c.material as u32,
                cutout: c.cutout,
                // Everything drawn (`--no-cull`) is drawn two-sided too.
                cull_back_faces: self.culling != Culling::Off
                    && c.hides_back_faces(view.eye, view.near_reach),
                first: c.first,
                count: c.count,
                in_shade: c.meshlets().all(|m| {
                    let all = self.mesh.meshlets[m].all_triangles();
                    self.batches.shade.in_shade.get(m) == Some(&all)
                }),
            }
        }));
        // SAFETY: context current; the VAO (bound by `begin_frame`) and the
        // buffer are owned by self.
        unsafe {
            self.gl
                .bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.ebo))
        };
        self.submit(&draws, frame, bound, stats);
        self.draws = draws;
    }

    /// Set the state the scene's pass relies on (egui leaves its own behind), clear, and
    /// start the frame's counters.
    fn begin_frame(&mut self, width: u32, height: u32) {
        let gl = &self.gl;
        // SAFETY: context current; all objects are owned by self and alive.
        unsafe {
            gl.viewport(0, 0, width as i32, height as i32);
            gl.disable(glow::SCISSOR_TEST);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.cull_face(glow::BACK);
            gl.front_face(glow::CCW);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LESS);
            gl.depth_mask(true);
            if self.srgb {
                gl.enable(glow::FRAMEBUFFER_SRGB);
            }
            let [r, g, b] = self.shading(self.fog.color);
            gl.clear_color(r, g, b, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.active_texture(glow::TEXTURE0);
            gl.bind_vertex_array(Some(self.vao));
        }
        all_light_elsewhere(gl);
        self.counters.begin_frame(gl);
    }

    /// Upload a pass's indices and draw them.
    fn submit_batches(
        &mut self,
        batches: &Batches,
        frame: &FrameUniforms,
        bound: &mut Bound,
        stats: &mut DrawStats,
    ) {
        if batches.is_empty() {
            return;
        }
        let gl = &self.gl;
        // SAFETY: context current; the VAO (bound by `begin_frame`) and the buffer are
        // owned by self. New storage each pass (the driver may still be drawing from the
        // last), the usual way to stream.
        unsafe {
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.stream));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                bytemuck::cast_slice(&batches.indices),
                glow::STREAM_DRAW,
            );
        }
        self.submit(&batches.draws, frame, bound, stats);
    }

    /// Draw `draws`, binding a program, a material and (while counting) a samples query
    /// only when they change from what `bound` says is bound.
    fn submit(
        &mut self,
        draws: &[Draw],
        frame: &FrameUniforms,
        bound: &mut Bound,
        stats: &mut DrawStats,
    ) {
        for d in draws {
            let material = d.material as usize;
            let Some(m) = self.materials.get(material) else {
                continue;
            };
            // A cut-out whose texture could not be uploaded is drawn in its colour.
            let variant = match (m.texture, d.cutout) {
                (None, _) => Variant::Plain,
                (Some(_), false) => Variant::Textured,
                (Some(_), true) => Variant::Cutout,
            };
            let shading = match frame.lit {
                None => Shading::Flat,
                Some(_) if d.in_shade => Shading::InShade,
                Some(_) => Shading::Lit,
            };
            let index = variant.program_index(shading);
            let p = &self.programs[index];
            let gl = &self.gl;
            if bound.program != Some(index) {
                p.bind(gl, frame);
                bound.program = Some(index);
                bound.material = None;
            }
            self.counters.before_draw(gl, d.cutout);
            // SAFETY: context current; the index range lies within the index buffer.
            unsafe {
                if bound.cull_back_faces != d.cull_back_faces {
                    bound.cull_back_faces = d.cull_back_faces;
                    // Back faces by the GL's default, counter-clockwise in front: closed
                    // solids' triangles are wound outward at load.
                    if d.cull_back_faces {
                        gl.enable(glow::CULL_FACE);
                    } else {
                        gl.disable(glow::CULL_FACE);
                    }
                }
                if bound.material != Some(material) {
                    let u = &p.uniforms;
                    gl.uniform_3_f32(u.color.as_ref(), m.color[0], m.color[1], m.color[2]);
                    gl.bind_texture(glow::TEXTURE_2D, m.texture);
                    bound.material = Some(material);
                }
                gl.draw_elements(
                    glow::TRIANGLES,
                    d.count as i32,
                    glow::UNSIGNED_INT,
                    4 * d.first as i32,
                );
            }
            stats.triangles += d.count as usize / 3;
            stats.draws += 1;
        }
    }

    /// End the frame's counters into `stats` and put the state back.
    fn end_frame(&mut self, stats: &mut DrawStats) {
        let gl = &self.gl;
        self.counters.end_frame(gl, stats);
        // SAFETY: context current; plain state.
        unsafe {
            gl.bind_vertex_array(None);
            gl.use_program(None);
            gl.disable(glow::CULL_FACE);
            // The overlays and egui give their colours as displayed.
            gl.disable(glow::FRAMEBUFFER_SRGB);
        }
    }

    /// Read the framebuffer back as RGBA rows, top row first.
    pub fn read_pixels(&self, width: u32, height: u32) -> Vec<u8> {
        let mut px = vec![0u8; width as usize * height as usize * 4];
        // SAFETY: context current; the buffer is exactly width * height * 4 bytes.
        unsafe {
            self.gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            self.gl.read_pixels(
                0,
                0,
                width as i32,
                height as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut px)),
            );
        }
        let row = width as usize * 4;
        let mut flipped = Vec::with_capacity(px.len());
        for r in px.chunks_exact(row).rev() {
            flipped.extend_from_slice(r);
        }
        flipped
    }
}
