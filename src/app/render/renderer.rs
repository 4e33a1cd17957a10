//! Draws a map with glow: its clusters the view may see, nearest first (opaque, then
//! cut-outs), less the meshlets and triangles hidden behind what is drawn (two passes
//! around a read of the depth buffer: see [`walkthrough::cull::occlusion`]), from one
//! vertex buffer and each pass's indices streamed ([`walkthrough::cull::batches`]; the
//! map's own index buffer when drawing everything in view, as with frustum culling alone,
//! a GPU's default: see [`Culling`]).
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::collections::HashMap;
use std::mem::offset_of;
use std::sync::Arc;

use glam::{Mat4, UVec2, Vec3};
use glow::HasContext;

use walkthrough::cull::{
    Batches, CLUSTER_TRIANGLES, ClusteredMesh, Draw, Occlusion, View, cluster_map, draw_order,
};
use walkthrough::map::{Map, TextureImage, Vertex};
use walkthrough::player::Pose;
use walkthrough::player::{FieldOfView, NEAR_PLANE};
use walkthrough::preferences::TextureFilter;

use super::counters::{DrawStats, FragmentCounters};
use super::culling::Culling;
use super::gl::{self, Attribute, GpuVertex, check_gl};
use super::levels::{Arrival, LevelsJob};
use super::program::{DISPLAY_LIGHTING, FrameUniforms, LINEAR_LIGHTING, Program, Variant};
use super::render_scale::RenderScale;
use super::texture::{Sampling, max_anisotropy, set_sampling, upload_texture};

impl GpuVertex for Vertex {
    // Locations as shaders/scene.vert declares them.
    const ATTRIBUTES: &'static [Attribute] = &[
        Attribute::new(0, 3, offset_of!(Vertex, position)),
        Attribute::new(1, 3, offset_of!(Vertex, normal)),
        Attribute::new(2, 2, offset_of!(Vertex, uv)),
    ];
}

/// Sky / fog colour.
pub const CLEAR_COLOR: [f32; 3] = [0.62, 0.70, 0.78];

struct GpuMaterial {
    color: [f32; 3],
    texture: Option<glow::Texture>,
}

/// What is bound while a frame's draws are submitted: the program, the material, and
/// whether back faces are culled.
#[derive(Clone, Copy, Debug, Default)]
struct Bound {
    program: Option<Variant>,
    material: Option<usize>,
    /// Back faces are culled (`begin_frame` leaves them drawn).
    cull_back_faces: bool,
}

/// The samples a pixel of the default framebuffer has (0 or 1: none extra).
fn samples(gl: &glow::Context) -> i32 {
    // SAFETY: context current; a plain state query.
    unsafe { gl.get_parameter_i32(glow::SAMPLES) }
}

/// GL objects of one map. Owns them and deletes them on drop.
pub struct Renderer {
    gl: Arc<glow::Context>,
    /// The scene's program in each [`Variant`], in [`Variant::ALL`]'s order.
    programs: Vec<Program>,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    /// The map's index list (drawn whole cluster by cluster without occlusion culling).
    ebo: glow::Buffer,
    /// A pass's indices, copied out of the map's list ([`Batches`]), uploaded each pass.
    stream: glow::Buffer,
    textures: Vec<glow::Texture>,
    materials: Vec<GpuMaterial>,
    /// Shared with the thread making its levels of detail while that runs (a copy is made
    /// only if it is scaled meanwhile).
    mesh: Arc<ClusteredMesh>,
    /// The mesh's levels of detail, until they are made and added to it.
    levels: LevelsJob,
    /// This frame's clusters in drawing order (kept: no allocation per frame).
    order: Vec<u32>,
    /// This frame's draws without occlusion culling (kept likewise).
    draws: Vec<Draw>,
    /// A pass's triangles and their draws (kept likewise).
    batches: Batches,
    /// Occlusion culling's memory (`None` with multisampling: a resolved depth buffer
    /// is not the depth of every sample).
    occlusion: Option<Occlusion>,
    /// Far plane, from the map's size.
    far: f32,
    /// The framebuffer encodes to sRGB: textures are sRGB, colours are made linear, and
    /// the lighting and fog are done in linear space. Without it (a driver with no sRGB
    /// framebuffer) colours are used as they are written.
    srgb: bool,
    /// How textures are sampled: the settings' filter, and anisotropic filtering (1:
    /// none; the extension's maximum, up to 8).
    sampling: Sampling,
    /// What each frame leaves out (see [`Culling`]; set by [`Renderer::set_culling`]).
    culling: Culling,
    /// The field of view (the settings' `fov`, changed live).
    pub fov: FieldOfView,
    /// While counting (benchmarks), the queries that count each frame's fragments.
    counters: FragmentCounters,
    stats: DrawStats,
    /// Where the scene is drawn: the window, or fewer pixels stretched over it.
    render_scale: RenderScale,
}

impl Renderer {
    /// Compile the shaders and upload the map. Textures are filtered trilinearly (see
    /// [`Renderer::set_texture_filter`]) with up to `anisotropy` (1: none; the driver's
    /// maximum caps it), and are sRGB when the framebuffer is (`srgb`).
    pub fn new(
        gl: Arc<glow::Context>,
        map: &Map,
        srgb: bool,
        anisotropy: f32,
        eye: Vec3,
    ) -> Result<Renderer, String> {
        // Each object is deleted if a later one cannot be made, and then owned by the
        // returned value and deleted in `Drop`.
        let delete = |programs: &[Program]| {
            for p in programs {
                // SAFETY: context current; the programs were made above and are dropped.
                unsafe { gl.delete_program(p.program) };
            }
        };
        let mut programs = Vec::with_capacity(Variant::ALL.len());
        for v in Variant::ALL {
            programs.push(Program::new(&gl, v).inspect_err(|_| delete(&programs))?);
        }
        // SAFETY: context current; the array is owned by the renderer (or deleted below).
        let vao = unsafe { gl.create_vertex_array() }.inspect_err(|_| delete(&programs))?;
        // SAFETY: context current; the buffers are owned by the renderer.
        let buffers = unsafe {
            gl.create_buffer()
                .and_then(|v| Ok((v, gl.create_buffer()?)))
                .and_then(|(v, e)| Ok((v, e, gl.create_buffer()?)))
        };
        let (vbo, ebo, stream) = buffers.inspect_err(|_| {
            delete(&programs);
            // SAFETY: context current; the array was made above and is not used again.
            unsafe { gl.delete_vertex_array(vao) };
        })?;
        let mut r = Renderer {
            gl: gl.clone(),
            programs,
            vao,
            vbo,
            ebo,
            stream,
            textures: Vec::new(),
            materials: Vec::new(),
            mesh: Arc::default(),
            levels: LevelsJob::default(),
            order: Vec::new(),
            draws: Vec::new(),
            batches: Batches::default(),
            occlusion: (samples(&gl) <= 1).then(Occlusion::default),
            far: 100.0,
            srgb,
            sampling: Sampling {
                filter: TextureFilter::default(),
                anisotropy: anisotropy.clamp(1.0, max_anisotropy(&gl)),
            },
            culling: Culling::Occlusion,
            fov: FieldOfView::default(),
            counters: FragmentCounters::default(),
            stats: DrawStats::default(),
            render_scale: RenderScale::new(samples(&gl), srgb),
        };
        r.upload(map, eye);
        Ok(r)
    }

    /// Replace the map's buffers and textures (after a reload): its triangles in clusters
    /// (see [`walkthrough::cull`]), shared vertices and one index list; their levels of
    /// detail follow, those of the clusters farthest from `eye` first.
    pub fn upload(&mut self, map: &Map, eye: Vec3) {
        self.mesh = Arc::new(cluster_map(map, CLUSTER_TRIANGLES));
        self.mesh_changed();
        self.upload_materials(map);
        self.far = far_plane(map);
        // Begun last: its thread would take a core from the uploads.
        let textured = map.materials.iter().map(|m| m.texture.is_some()).collect();
        self.levels = LevelsJob::start(Arc::clone(&self.mesh), textured, eye);
    }

    /// The map scaled by `factor` about the origin (a correction of its scale): the same
    /// clusters, scaled, uploaded again; textures kept.
    pub fn rescale(&mut self, map: &Map, factor: f32) {
        Arc::make_mut(&mut self.mesh).scale_by(factor);
        self.levels.scaled(factor);
        self.mesh_changed();
        self.far = far_plane(map);
    }

    /// Add the batches of the mesh's levels of detail made since the last frame.
    fn add_finished_levels(&mut self) {
        let mut added = false;
        loop {
            match self.levels.take() {
                Arrival::Batch(levels) => {
                    added |= Arc::make_mut(&mut self.mesh).add_levels(levels);
                }
                Arrival::Done(made) => {
                    eprintln!(
                        "levels of detail: {} triangles for {} of {} clusters, {} in {:.0} ms",
                        made.triangles,
                        made.simplified,
                        self.mesh.originals(),
                        if made.from_cache {
                            "read from the cache"
                        } else {
                            "made"
                        },
                        made.took.as_secs_f64() * 1000.0
                    );
                    break;
                }
                Arrival::Waiting => break,
            }
        }
        if added {
            if let Some(o) = &mut self.occlusion {
                o.grow(self.mesh.meshlets.len());
            }
            // The vertices are the same: only the index list grew.
            self.upload_indices();
        }
    }

    /// The mesh is new, or scaled: forget what was seen of it, and upload it.
    fn mesh_changed(&mut self) {
        if let Some(o) = &mut self.occlusion {
            *o = Occlusion::new(self.mesh.meshlets.len());
        }
        self.upload_mesh();
    }

    fn upload_mesh(&self) {
        let gl = &self.gl;
        // SAFETY: context current; the objects bound are owned by self.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&self.mesh.vertices),
                glow::STATIC_DRAW,
            );
            check_gl!(gl, "the vertex buffer upload");
        }
        gl::set_vertex_layout::<Vertex>(gl);
        // SAFETY: as above.
        unsafe { gl.bind_vertex_array(None) };
        self.upload_indices();
    }

    /// Upload the mesh's index list (bound to the vertex array).
    fn upload_indices(&self) {
        let gl = &self.gl;
        // SAFETY: context current; the objects bound are owned by self.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.ebo));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                bytemuck::cast_slice(&self.mesh.indices),
                glow::STATIC_DRAW,
            );
            check_gl!(gl, "the index buffer upload");
            gl.bind_vertex_array(None);
        }
    }

    /// Upload each distinct texture image once, however many materials share it.
    fn upload_materials(&mut self, map: &Map) {
        for t in self.textures.drain(..) {
            // SAFETY: context current; the textures were made by this renderer.
            unsafe { self.gl.delete_texture(t) };
        }
        let mut uploaded: HashMap<*const TextureImage, glow::Texture> = HashMap::new();
        let mut materials = Vec::with_capacity(map.materials.len());
        for m in &map.materials {
            let texture = m.texture.as_ref().and_then(|img| {
                let key = Arc::as_ptr(img);
                if let Some(t) = uploaded.get(&key) {
                    return Some(*t);
                }
                match upload_texture(&self.gl, img, self.srgb, self.sampling) {
                    Ok(t) => {
                        self.textures.push(t);
                        uploaded.insert(key, t);
                        Some(t)
                    }
                    Err(e) => {
                        eprintln!(
                            "warning: a {}x{} texture could not be uploaded ({e}); its material is drawn in its plain colour",
                            img.width, img.height
                        );
                        None
                    }
                }
            });
            materials.push(GpuMaterial {
                color: self.shading(m.diffuse),
                texture,
            });
        }
        self.materials = materials;
    }

    /// Sample the map's textures with `filter` (the settings' texture filter, changed
    /// live).
    pub fn set_texture_filter(&mut self, filter: TextureFilter) {
        if self.sampling.filter == filter {
            return;
        }
        self.sampling.filter = filter;
        for &t in &self.textures {
            set_sampling(&self.gl, t, self.sampling);
        }
    }

    /// `color`, written as displayed (sRGB), in the space the shader works in.
    fn shading(&self, color: [f32; 3]) -> [f32; 3] {
        if self.srgb {
            color.map(srgb_to_linear)
        } else {
            color
        }
    }

    /// Cull as `wanted` says where this framebuffer allows it, and return the culling in
    /// use: occlusion culling reads back a depth buffer of one sample a pixel, so with
    /// multisampling the frustum alone culls.
    pub fn set_culling(&mut self, wanted: Culling) -> Culling {
        self.culling = match wanted {
            Culling::Occlusion if self.occlusion.is_none() => Culling::Frustum,
            c => c,
        };
        self.culling
    }

    /// Draw the scene with `scale` of the window's pixels a side from the next frame
    /// (see [`super::render_scale`]).
    pub fn set_render_scale(&mut self, scale: f32) {
        self.render_scale.set(scale);
    }

    /// The scene's pixels at the last frame (fewer than the window's at a render scale
    /// under 1).
    pub fn scene_pixels(&self) -> f64 {
        self.render_scale.scene_pixels()
    }

    /// Show the scene drawn since [`Renderer::draw`] (and the overlays drawn after it) in
    /// the window: at a render scale under 1, stretch it over the window. The window's
    /// framebuffer is bound after it either way.
    pub fn present(&self) {
        self.render_scale.present(&self.gl);
    }

    /// Clusters in the map (not counting their levels of detail).
    pub fn clusters(&self) -> usize {
        self.mesh.originals()
    }

    /// What the last frame drew.
    pub fn stats(&self) -> DrawStats {
        self.stats
    }

    /// Count the fragments of each frame from now on (`on`), or stop: those that passed
    /// the depth test, and those shaded (the fragment shader's invocations, where the
    /// driver counts them: GL 4.6 or ARB_pipeline_statistics_query; Mesa's llvmpipe does).
    /// Counting waits for the frame to finish, so it is for benchmarks.
    pub fn count_fragments(&mut self, on: bool) {
        self.counters.delete(&self.gl);
        self.counters = FragmentCounters::new(&self.gl, on);
    }

    /// The projection used for a viewport of `width` x `height` pixels.
    pub fn projection(&self, width: u32, height: u32) -> Mat4 {
        let aspect = width.max(1) as f32 / height.max(1) as f32;
        Mat4::perspective_rh_gl(self.fov.vertical_rad(aspect), aspect, NEAR_PLANE, self.far)
    }

    /// Draw the map seen from `pose` into the current framebuffer: the clusters the view
    /// may see, opaque nearest first, then the cut-outs (see [`walkthrough::cull`]), less
    /// the meshlets hidden behind what is drawn (see [`Occlusion`]).
    /// At a render scale under 1 the scene is drawn smaller, offscreen, and stays bound
    /// until [`Renderer::present`].
    pub fn draw(&mut self, pose: &Pose, width: u32, height: u32) {
        let [width, height] = self.render_scale.bind(&self.gl, [width, height]);
        let proj = self.projection(width, height);
        let view = View::new(pose.view_matrix(), proj, UVec2::new(width, height));
        self.add_finished_levels();
        if self.culling != Culling::Off {
            draw_order(&self.mesh, &view, &mut self.order);
        } else {
            self.order.clear();
            self.order.extend(0..self.mesh.originals() as u32);
        }
        self.begin_frame(width, height);
        let frame = FrameUniforms {
            view_proj: view.view_proj,
            eye: pose.position,
            far: self.far,
            fog: self.shading(CLEAR_COLOR),
            light: if self.srgb {
                LINEAR_LIGHTING
            } else {
                DISPLAY_LIGHTING
            },
            srgb: self.srgb,
        };
        let mut stats = DrawStats {
            clusters: self.order.len(),
            ..DrawStats::default()
        };
        let mut draws = std::mem::take(&mut self.draws);
        let mut batches = std::mem::take(&mut self.batches);
        let mut bound = Bound::default();
        match self
            .occlusion
            .take()
            .filter(|_| self.culling == Culling::Occlusion)
        {
            Some(mut o) => {
                o.first_pass(&self.mesh, &self.order, &view, &mut batches);
                self.submit_batches(&batches, &frame, &mut bound, &mut stats);
                // The second pass, in steps: each tests what is left against the depth
                // drawn so far (see SECOND_PASS_STEP_TRIANGLES).
                let mut from = if o.second_pass_due() {
                    0
                } else {
                    self.order.len()
                };
                let gl = self.gl.clone();
                let read = |o: &mut Occlusion| {
                    o.pyramid.rebuild(width as usize, height as usize, |depth| {
                        gl::read_depth(&gl, width, height, depth)
                    });
                };
                while from < self.order.len() {
                    if batches.is_empty() {
                        o.pyramid.clear();
                    } else {
                        read(&mut o);
                    }
                    from = o.second_pass(&self.mesh, &self.order, from, &view, &mut batches);
                    self.submit_batches(&batches, &frame, &mut bound, &mut stats);
                }
                // What the first steps found seen, against the frame's whole depth (the
                // pyramid already holds it when the last step drew nothing).
                if o.retest_due() {
                    if !batches.is_empty() {
                        read(&mut o);
                    }
                    o.retest(&self.mesh, &self.order, &view);
                }
                self.occlusion = Some(o);
            }
            None => {
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
                    }
                }));
                // SAFETY: context current; the VAO (bound by `begin_frame`) and the
                // buffer are owned by self.
                unsafe {
                    self.gl
                        .bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.ebo))
                };
                self.submit(&draws, &frame, &mut bound, &mut stats);
            }
        }
        self.draws = draws;
        self.batches = batches;
        self.end_frame(&mut stats);
        self.stats = stats;
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
            let [r, g, b] = self.shading(CLEAR_COLOR);
            gl.clear_color(r, g, b, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.active_texture(glow::TEXTURE0);
            gl.bind_vertex_array(Some(self.vao));
        }
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
            let p = &self.programs[variant.index()];
            let gl = &self.gl;
            if bound.program != Some(variant) {
                p.bind(gl, frame);
                bound.program = Some(variant);
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

/// A colour channel as displayed (sRGB-encoded, 0 to 1) made linear: the sRGB transfer
/// function (IEC 61966-2-1).
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The far plane for `map`: twice its size, at least 50 m (1 km for a map without size).
fn far_plane(map: &Map) -> f32 {
    let size = map.bounds.size().length();
    if size.is_finite() {
        (size * 2.0).max(50.0)
    } else {
        1000.0
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        // SAFETY: the owning app drops the renderer while its context is still current.
        unsafe {
            for t in self.textures.drain(..) {
                self.gl.delete_texture(t);
            }
            self.counters.delete(&self.gl);
            self.render_scale.delete(&self.gl);
            self.gl.delete_buffer(self.vbo);
            self.gl.delete_buffer(self.ebo);
            self.gl.delete_buffer(self.stream);
            self.gl.delete_vertex_array(self.vao);
            for p in &self.programs {
                self.gl.delete_program(p.program);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_to_linear_at_its_known_points() {
        assert_eq!(srgb_to_linear(0.0), 0.0);
        assert!((srgb_to_linear(1.0) - 1.0).abs() < 1e-6);
        // Middle grey as displayed is about a fifth of the light.
        assert!((srgb_to_linear(0.5) - 0.214).abs() < 1e-3);
        // The linear toe.
        assert!((srgb_to_linear(0.04) - 0.04 / 12.92).abs() < 1e-7);
    }
}
