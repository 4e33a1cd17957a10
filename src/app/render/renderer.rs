//! Draws a map with glow: its clusters the view may see, nearest first (opaque, then
//! cut-outs), less the meshlets and triangles hidden behind what is drawn (two passes
//! around a read of the depth buffer: see [`walkthrough_core::cull::occlusion`]), from one
//! vertex buffer and each pass's indices streamed ([`walkthrough_core::cull::batches`]; the
//! map's own index buffer when drawing everything in view, as with frustum culling alone,
//! a GPU's default: see [`Culling`]).
//!
//! This file holds the renderer's GL objects, their making and deleting, and its
//! settings; `upload` puts the map on the GPU (and its levels of detail as they come),
//! `draw` draws a frame.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

mod draw;
mod lighting;
mod movers;
mod reflect;
mod upload;

use std::sync::Arc;

use glam::{Mat4, Vec3};
use glow::HasContext;

use walkthrough_core::cull::{Batches, ClusteredMesh, Draw, Occlusion};
use walkthrough_core::map::Map;
use walkthrough_core::player::{FieldOfView, NEAR_PLANE};
use walkthrough_core::preferences::TextureFilter;

use super::counters::{DrawStats, FragmentCounters};
use super::culling::Culling;
use super::levels::LevelsJob;
use super::program::{Program, Shading, Variant};
use super::render_scale::RenderScale;
use super::texture::{Sampling, max_anisotropy, set_sampling};
use lighting::Light;
use movers::MoverDraw;

/// Sky / fog colour (with the `lighting` setting on, the sky's at the horizon).
pub const CLEAR_COLOR: [f32; 3] = [0.62, 0.70, 0.78];

/// The fog a frame is drawn in: the sky's at the map's far plane, or another (under
/// water, the water's within a few metres). Its colour is also the frame's background.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fog {
    /// Its colour, as displayed.
    pub color: [f32; 3],
    /// Where it is complete, metres (`None`: the far plane).
    pub distance: Option<f32>,
}

impl Fog {
    /// The sky's fog, complete at the far plane.
    pub const SKY: Fog = Fog {
        color: CLEAR_COLOR,
        distance: None,
    };
}

/// A material as drawn: its colour in the shader's space, and its texture if uploaded.
struct GpuMaterial {
    color: [f32; 3],
    texture: Option<glow::Texture>,
}

/// The samples a pixel of the default framebuffer has (0 or 1: none extra).
fn samples(gl: &glow::Context) -> i32 {
    // SAFETY: context current; a plain state query.
    unsafe { gl.get_parameter_i32(glow::SAMPLES) }
}

/// GL objects of one map. Owns them and deletes them on drop.
pub struct Renderer {
    gl: Arc<glow::Context>,
    /// The scene's program in each [`Variant`] and [`Shading`] (see
    /// [`Variant::program_index`]).
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
    /// A scene's movers, drawn where they are each frame.
    movers: MoverDraw,
    /// The fog frames are drawn in (set each frame by [`Renderer::set_fog`]).
    fog: Fog,
    /// The `lighting` setting's sun, shadow map and sky (`None`: the flat light).
    light: Option<Light>,
    /// The map's bounds (the shadow map is fitted to them).
    bounds: walkthrough_core::geometry::Aabb,
}

impl Renderer {
    /// Compile the shaders and upload the map. Textures are filtered trilinearly (see
    /// [`Renderer::set_texture_filter`]) with up to `anisotropy` (1: none; the driver's
    /// maximum caps it), and are sRGB when the framebuffer is (`srgb`).
    pub fn new(
        gl: Arc<glow::Context>,
        map: &Map,
        mesh: ClusteredMesh,
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
        let mut programs = Vec::with_capacity(Shading::ALL.len() * Variant::ALL.len());
        for shading in Shading::ALL {
            for v in Variant::ALL {
                programs.push(Program::new(&gl, v, shading).inspect_err(|_| delete(&programs))?);
            }
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
            movers: MoverDraw::default(),
            fog: Fog::SKY,
            light: None,
            bounds: map.bounds,
        };
        r.upload(map, mesh, eye);
        Ok(r)
    }

    /// Replace the map's buffers and textures (after a reload): its triangles in clusters
    /// (`mesh`, from [`walkthrough_core::cull::cluster_map`], made by the caller: a load in the
    /// window makes them on its loader's thread, so that the window does not stand still
    /// for them, 1.5 s at ten million triangles), shared vertices and one index list;
    /// their levels of detail follow, those of the clusters farthest from `eye` first.
    /// Only the map's materials, bounds and movers are read: its own vertices may be gone.
    pub fn upload(&mut self, map: &Map, mesh: ClusteredMesh, eye: Vec3) {
        self.mesh = Arc::new(mesh);
        self.mesh_changed();
        self.upload_materials(map);
        self.far = far_plane(map);
        self.bounds = map.bounds;
        self.light_changed();
        self.movers.meshes = map.moving.clone();
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
        self.bounds = map.bounds;
        self.light_changed();
    }

    /// Draw as the settings `p` say: their texture filter, render scale and lighting
    /// (changed live; `software`: a software renderer draws, for the lighting's `auto`).
    pub fn set_preferences(
        &mut self,
        p: &walkthrough_core::preferences::Preferences,
        software: bool,
    ) {
        self.set_texture_filter(p.texture_filter);
        self.set_render_scale(p.render_scale);
        self.set_lighting(p.sun(software));
        if let Some(l) = &mut self.light {
            l.find_shade(software);
        }
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

    /// Draw the next frames in `fog` (the sky's: [`Fog::SKY`]).
    pub fn set_fog(&mut self, fog: Fog) {
        self.fog = fog;
    }

    /// The fog frames are drawn in, its distance made the far plane where it has none.
    pub fn fog(&self) -> Fog {
        Fog {
            distance: Some(self.fog.distance.unwrap_or(self.far)),
            ..self.fog
        }
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
            self.movers.delete(&self.gl);
            // The light's objects delete themselves (their own Drop), now.
            self.light = None;
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
