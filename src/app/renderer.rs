//! Draws a map with glow: one vertex buffer, one draw call per material batch.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::collections::HashMap;
use std::mem::offset_of;
use std::sync::Arc;

use glam::{Mat4, Vec3};
use glow::HasContext;

use walkthrough::camera::Pose;
use walkthrough::camera::{DEFAULT_FOV_Y_DEG, NEAR_PLANE};
use walkthrough::map::{Batch, Map, TextureImage, Vertex};

use super::gl::{self, Attribute, GpuVertex, check_gl};

const VERTEX_SHADER: &str = include_str!("../../shaders/scene.vert");
const FRAGMENT_SHADER: &str = include_str!("../../shaders/scene.frag");

// SAFETY: `Vertex` is `repr(C)` with only `f32` fields.
unsafe impl GpuVertex for Vertex {
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
    alpha_test: bool,
}

struct Uniforms {
    view_proj: Option<glow::UniformLocation>,
    color: Option<glow::UniformLocation>,
    textured: Option<glow::UniformLocation>,
    alpha_test: Option<glow::UniformLocation>,
    texture: Option<glow::UniformLocation>,
    eye: Option<glow::UniformLocation>,
    light_dir: Option<glow::UniformLocation>,
    fog_far: Option<glow::UniformLocation>,
}

/// GL objects of one map. Owns them and deletes them on drop.
pub struct Renderer {
    gl: Arc<glow::Context>,
    program: glow::Program,
    uniforms: Uniforms,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    textures: Vec<glow::Texture>,
    materials: Vec<GpuMaterial>,
    batches: Vec<Batch>,
    /// Far plane, from the map's size.
    far: f32,
}

impl Renderer {
    /// Compile the shaders and upload the map.
    pub fn new(gl: Arc<glow::Context>, map: &Map) -> Result<Renderer, String> {
        // SAFETY: called with the context current; every object created here is owned by
        // the returned value and deleted in `Drop`.
        unsafe {
            let program = gl::program(
                &gl,
                ("shaders/scene.vert", VERTEX_SHADER),
                ("shaders/scene.frag", FRAGMENT_SHADER),
            )?;
            let u = |n: &str| gl::uniform(&gl, program, n);
            let uniforms = Uniforms {
                view_proj: u("u_view_proj"),
                color: u("u_color"),
                textured: u("u_textured"),
                alpha_test: u("u_alpha_test"),
                texture: u("u_texture"),
                eye: u("u_eye"),
                light_dir: u("u_light_dir"),
                fog_far: u("u_fog_far"),
            };
            // Each object is deleted if a later one cannot be made.
            let vao = gl
                .create_vertex_array()
                .inspect_err(|_| gl.delete_program(program))?;
            let vbo = gl.create_buffer().inspect_err(|_| {
                gl.delete_vertex_array(vao);
                gl.delete_program(program);
            })?;
            let mut r = Renderer {
                gl: gl.clone(),
                program,
                uniforms,
                vao,
                vbo,
                textures: Vec::new(),
                materials: Vec::new(),
                batches: Vec::new(),
                far: 100.0,
            };
            r.upload(map);
            Ok(r)
        }
    }

    /// Replace the map's buffers and textures (after a reload).
    pub fn upload(&mut self, map: &Map) {
        let gl = &self.gl;
        // SAFETY: context current; the objects bound and deleted are owned by self.
        unsafe {
            for t in self.textures.drain(..) {
                gl.delete_texture(t);
            }
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                gl::vertex_bytes(&map.vertices),
                glow::STATIC_DRAW,
            );
            check_gl!(gl, "the vertex buffer upload");
            gl::set_vertex_layout::<Vertex>(gl);
            gl.bind_vertex_array(None);

            // Each distinct image once, however many materials share it.
            let mut uploaded: HashMap<*const TextureImage, glow::Texture> = HashMap::new();
            self.materials = map
                .materials
                .iter()
                .map(|m| {
                    let texture = m.texture.as_ref().and_then(|img| {
                        let key = Arc::as_ptr(img);
                        if let Some(t) = uploaded.get(&key) {
                            return Some(*t);
                        }
                        let t = match upload_texture(gl, img) {
                            Ok(t) => t,
                            Err(e) => {
                                eprintln!(
                                    "warning: a {}x{} texture could not be uploaded ({e}); its material is drawn in its plain colour",
                                    img.width, img.height
                                );
                                return None;
                            }
                        };
                        self.textures.push(t);
                        uploaded.insert(key, t);
                        Some(t)
                    });
                    GpuMaterial {
                        color: m.diffuse,
                        alpha_test: m.texture.as_ref().is_some_and(|t| t.has_alpha),
                        texture,
                    }
                })
                .collect();
        }
        self.batches = map.batches.clone();
        let size = map.bounds.size().length();
        self.far = if size.is_finite() {
            (size * 2.0).max(50.0)
        } else {
            1000.0
        };
    }

    /// Number of draw calls per frame (one per material batch).
    pub fn draw_calls(&self) -> usize {
        self.batches.len()
    }

    /// The projection used for a viewport of `width` x `height` pixels.
    pub fn projection(&self, width: u32, height: u32) -> Mat4 {
        let aspect = width.max(1) as f32 / height.max(1) as f32;
        Mat4::perspective_rh_gl(DEFAULT_FOV_Y_DEG.to_radians(), aspect, NEAR_PLANE, self.far)
    }

    /// Draw the map seen from `pose` into the current framebuffer.
    pub fn draw(&self, pose: &Pose, width: u32, height: u32) {
        let gl = &self.gl;
        let view_proj = self.projection(width, height) * pose.view_matrix();
        let light = Vec3::new(-0.4, -1.0, -0.3).normalize();
        // SAFETY: context current; all objects are owned by self and alive.
        unsafe {
            // egui leaves its own state behind: set everything this pass relies on.
            gl.viewport(0, 0, width as i32, height as i32);
            gl.disable(glow::SCISSOR_TEST);
            gl.disable(glow::BLEND);
            gl.disable(glow::CULL_FACE);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LESS);
            gl.depth_mask(true);
            let [r, g, b] = CLEAR_COLOR;
            gl.clear_color(r, g, b, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.use_program(Some(self.program));
            let u = &self.uniforms;
            gl.uniform_matrix_4_f32_slice(u.view_proj.as_ref(), false, &view_proj.to_cols_array());
            gl.uniform_3_f32(
                u.eye.as_ref(),
                pose.position.x,
                pose.position.y,
                pose.position.z,
            );
            gl.uniform_3_f32(u.light_dir.as_ref(), light.x, light.y, light.z);
            gl.uniform_1_f32(u.fog_far.as_ref(), self.far);
            gl.uniform_1_i32(u.texture.as_ref(), 0);
            gl.active_texture(glow::TEXTURE0);
            gl.bind_vertex_array(Some(self.vao));
            for b in &self.batches {
                let Some(m) = self.materials.get(b.material) else {
                    continue;
                };
                gl.uniform_3_f32(u.color.as_ref(), m.color[0], m.color[1], m.color[2]);
                gl.uniform_1_i32(u.textured.as_ref(), m.texture.is_some() as i32);
                gl.uniform_1_i32(u.alpha_test.as_ref(), m.alpha_test as i32);
                gl.bind_texture(glow::TEXTURE_2D, m.texture);
                gl.draw_arrays(glow::TRIANGLES, b.first as i32, b.count as i32);
            }
            gl.bind_vertex_array(None);
            gl.use_program(None);
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

/// Upload an RGBA image with mipmaps.
unsafe fn upload_texture(gl: &glow::Context, img: &TextureImage) -> Result<glow::Texture, String> {
    unsafe {
        let t = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_2D, Some(t));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            glow::RGBA8 as i32,
            img.width as i32,
            img.height as i32,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(Some(&img.rgba)),
        );
        check_gl!(gl, "a texture upload");
        gl.generate_mipmap(glow::TEXTURE_2D);
        gl.tex_parameter_i32(
            glow::TEXTURE_2D,
            glow::TEXTURE_MIN_FILTER,
            glow::LINEAR_MIPMAP_LINEAR as i32,
        );
        gl.tex_parameter_i32(
            glow::TEXTURE_2D,
            glow::TEXTURE_MAG_FILTER,
            glow::LINEAR as i32,
        );
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_S, glow::REPEAT as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_T, glow::REPEAT as i32);
        gl.bind_texture(glow::TEXTURE_2D, None);
        Ok(t)
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        // SAFETY: the owning app drops the renderer while its context is still current.
        unsafe {
            for t in self.textures.drain(..) {
                self.gl.delete_texture(t);
            }
            self.gl.delete_buffer(self.vbo);
            self.gl.delete_vertex_array(self.vao);
            self.gl.delete_program(self.program);
        }
    }
}
