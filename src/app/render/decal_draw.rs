//! Draws the map's decals ([`walkthrough_core::decals`]) over the walls they lie on: their
//! clipped triangles in one buffer (uploaded again when the decals change), each decal
//! culled by its box against the view's frustum like a cluster, drawn with a depth
//! offset toward the eye (the decal's triangles lie exactly on the wall's: without it
//! the two fight over each pixel and flicker), textures cut out by alpha, fogged as the
//! map; drawn again in each mirror, clipped to its plane.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::mem::offset_of;
use std::sync::Arc;

use glam::{Mat4, Vec3, Vec4};
use glow::HasContext;
use walkthrough_core::cull::Frustum;
use walkthrough_core::decals::{DECAL_TEXTURES, Decals};
use walkthrough_core::geometry::Aabb;
use walkthrough_core::map::TextureImage;
use walkthrough_core::preferences::TextureFilter;

use super::gl::{self, Attribute, GpuVertex};
use super::renderer::Fog;
use super::texture::{Sampling, max_anisotropy, upload_texture};

const VERTEX_SHADER: &str = include_str!("../../../shaders/decal.vert");
const FRAGMENT_SHADER: &str = include_str!("../../../shaders/decal.frag");

/// The decal textures, in [`DECAL_TEXTURES`]' order (`assets/decals/`).
const TEXTURE_FILES: [&[u8]; 3] = [
    include_bytes!("../../../assets/decals/target.png"),
    include_bytes!("../../../assets/decals/arrow.png"),
    include_bytes!("../../../assets/decals/splat.png"),
];

/// The depth offset toward the eye, as `glPolygonOffset(factor, units)`: a slope-scaled
/// part for walls seen at a glancing angle and a constant one (the debug overlay's).
const DEPTH_OFFSET: (f32, f32) = (-1.0, -4.0);
/// Decal colours times this: about what the map's lighting leaves of a wall's colour,
/// so a decal does not glow.
const SHADE: f32 = 0.85;

/// One vertex of a decal.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
struct DecalVertex {
    position: [f32; 3],
    uv: [f32; 2],
}

impl GpuVertex for DecalVertex {
    // Locations as shaders/decal.vert declares them.
    const ATTRIBUTES: &'static [Attribute] = &[
        Attribute::new(0, 3, offset_of!(DecalVertex, position)),
        Attribute::new(1, 2, offset_of!(DecalVertex, uv)),
    ];
}

/// Where one decal's vertices are in the buffer.
struct Range {
    first: i32,
    count: i32,
    texture: usize,
    bounds: Aabb,
}

/// How the decals are seen: by the view, or in a mirror.
pub struct DecalView {
    /// The view's matrix (in a mirror, times the reflection).
    pub view_proj: Mat4,
    /// The eye (in a mirror, reflected), for the fog.
    pub eye: Vec3,
    /// The frame's fog (its distance given).
    pub fog: Fog,
    /// In a mirror, its clip plane (what lies behind it is cut away).
    pub clip_plane: Option<Vec4>,
}

/// The decals' program's uniforms.
struct Uniforms {
    view_proj: Option<glow::UniformLocation>,
    shade: Option<glow::UniformLocation>,
    eye: Option<glow::UniformLocation>,
    fog_far: Option<glow::UniformLocation>,
    fog_color: Option<glow::UniformLocation>,
    clip_plane: Option<glow::UniformLocation>,
}

/// The decals' GL objects.
pub struct DecalDraw {
    gl: Arc<glow::Context>,
    program: glow::Program,
    uniforms: Uniforms,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    textures: Vec<glow::Texture>,
    ranges: Vec<Range>,
    /// The decals' generation last uploaded (`None`: nothing yet).
    uploaded: Option<u64>,
}

impl DecalDraw {
    /// Compile the decals' shaders and upload their textures, sampled trilinear with
    /// `anisotropy` (the map's: a decal on a wall seen at a glancing angle blurs as the
    /// wall would without it).
    pub fn new(gl: Arc<glow::Context>, anisotropy: f32) -> Result<DecalDraw, String> {
        let program = gl::program(
            &gl,
            ("shaders/decal.vert", VERTEX_SHADER),
            ("shaders/decal.frag", FRAGMENT_SHADER),
        )?;
        let u = |n: &str| gl::uniform(&gl, program, n);
        let uniforms = Uniforms {
            view_proj: u("u_view_proj"),
            shade: u("u_shade"),
            eye: u("u_eye"),
            fog_far: u("u_fog_far"),
            fog_color: u("u_fog_color"),
            clip_plane: u("u_clip_plane"),
        };
        let sampling = Sampling {
            filter: TextureFilter::Trilinear,
            anisotropy: anisotropy.clamp(1.0, max_anisotropy(&gl)),
        };
        let mut textures = Vec::new();
        for (name, bytes) in DECAL_TEXTURES.iter().zip(TEXTURE_FILES) {
            let img = image::load_from_memory(bytes)
                .map_err(|e| format!("assets/decals/{name}.png: {e}"))?
                .to_rgba8();
            let img = TextureImage {
                width: img.width(),
                height: img.height(),
                rgba: img.into_raw(),
                has_alpha: true,
            };
            textures.push(upload_texture(&gl, &img, false, sampling)?);
        }
        // SAFETY: context current; the objects are owned by the returned value and
        // deleted in `Drop` (the textures and program too if these cannot be made).
        unsafe {
            let made = gl
                .create_vertex_array()
                .and_then(|vao| Ok((vao, gl.create_buffer()?)));
            let (vao, vbo) = made.inspect_err(|_| {
                textures.iter().for_each(|t| gl.delete_texture(*t));
                gl.delete_program(program);
            })?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl::set_vertex_layout::<DecalVertex>(&gl);
            gl.bind_vertex_array(None);
            Ok(DecalDraw {
                gl,
                program,
                uniforms,
                vao,
                vbo,
                textures,
                ranges: Vec::new(),
                uploaded: None,
            })
        }
    }

    /// Upload `decals`' triangles when they changed since the last upload.
    fn upload(&mut self, decals: &Decals) {
        if self.uploaded == Some(decals.generation) {
            return;
        }
        self.uploaded = Some(decals.generation);
        self.ranges.clear();
        let mut vertices = Vec::new();
        for d in &decals.list {
            let first = vertices.len() as i32;
            for t in &d.triangles {
                for (p, uv) in t.corners.iter().zip(t.uv) {
                    vertices.push(DecalVertex {
                        position: p.to_array(),
                        uv,
                    });
                }
            }
            self.ranges.push(Range {
                first,
                count: vertices.len() as i32 - first,
                texture: usize::from(d.placement.texture) % self.textures.len(),
                bounds: d.bounds,
            });
        }
        gl::fill_static_buffer(
            &self.gl,
            self.vbo,
            bytemuck::cast_slice(&vertices),
            "the decals' upload",
        );
    }

    /// Draw `decals` into the current frame, seen as `seen` says (after the map, whose
    /// depth they are tested against). Returns how many were drawn (the rest were out of
    /// view).
    pub fn draw(&mut self, seen: &DecalView, decals: &Decals) -> usize {
        if decals.list.is_empty() {
            return 0;
        }
        self.upload(decals);
        let frustum = Frustum::from_view_proj(seen.view_proj);
        let (gl, u) = (&self.gl, &self.uniforms);
        let (e, [r, g, b]) = (seen.eye, seen.fog.color);
        let mut drawn = 0;
        // SAFETY: context current; every range lies within the uploaded buffer.
        unsafe {
            gl.use_program(Some(self.program));
            let m = seen.view_proj.to_cols_array();
            gl.uniform_matrix_4_f32_slice(u.view_proj.as_ref(), false, &m);
            gl.uniform_1_f32(u.shade.as_ref(), SHADE);
            gl.uniform_3_f32(u.eye.as_ref(), e.x, e.y, e.z);
            gl.uniform_1_f32(u.fog_far.as_ref(), seen.fog.distance.unwrap_or(f32::MAX));
            gl.uniform_3_f32(u.fog_color.as_ref(), r, g, b);
            let c = seen.clip_plane.unwrap_or(Vec4::W);
            gl.uniform_4_f32(u.clip_plane.as_ref(), c.x, c.y, c.z, c.w);
            if seen.clip_plane.is_some() {
                gl.enable(glow::CLIP_DISTANCE0);
            }
            gl.bind_vertex_array(Some(self.vao));
            gl.active_texture(glow::TEXTURE0);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.depth_mask(false);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(DEPTH_OFFSET.0, DEPTH_OFFSET.1);
            for r in self.ranges.iter().filter(|r| r.count > 0) {
                if !frustum.sees(&r.bounds) {
                    continue;
                }
                gl.bind_texture(glow::TEXTURE_2D, Some(self.textures[r.texture]));
                gl.draw_arrays(glow::TRIANGLES, r.first, r.count);
                drawn += 1;
            }
            gl.disable(glow::CLIP_DISTANCE0);
            gl.disable(glow::POLYGON_OFFSET_FILL);
            gl.depth_mask(true);
            gl.depth_func(glow::LESS);
            gl.bind_vertex_array(None);
            gl.use_program(None);
        }
        drawn
    }
}

impl Drop for DecalDraw {
    fn drop(&mut self) {
        // SAFETY: dropped while the context is current (the app drops it with the renderer).
        unsafe {
            for t in &self.textures {
                self.gl.delete_texture(*t);
            }
            self.gl.delete_buffer(self.vbo);
            self.gl.delete_vertex_array(self.vao);
            self.gl.delete_program(self.program);
        }
    }
}
