//! The map on the GPU: its vertices and index list, its materials and their textures
//! (each image once), and the batches of its levels of detail added as they arrive.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::collections::HashMap;
use std::mem::offset_of;
use std::sync::Arc;

use glow::HasContext;

use walkthrough_core::cull::Occlusion;
use walkthrough_core::map::{Map, TextureImage, Vertex};

use super::{GpuMaterial, Renderer};
use crate::app::render::gl::{self, Attribute, GpuVertex, check_gl};
use crate::app::render::levels::Arrival;
use crate::app::render::texture::upload_texture;

impl GpuVertex for Vertex {
    // Locations as shaders/scene.vert declares them.
    const ATTRIBUTES: &'static [Attribute] = &[
        Attribute::new(0, 3, offset_of!(Vertex, position)),
        Attribute::new(1, 3, offset_of!(Vertex, normal)),
        Attribute::new(2, 2, offset_of!(Vertex, uv)),
    ];
}

impl Renderer {
    /// Add the batches of the mesh's levels of detail made since the last frame.
    pub(super) fn add_finished_levels(&mut self) {
        let mut added = false;
        loop {
            match self.levels.take() {
                Arrival::Batch(levels) => {
                    added |= Arc::make_mut(&mut self.mesh).add_levels(levels);
                }
                Arrival::Done(made) => {
                    tell!(
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
    pub(super) fn mesh_changed(&mut self) {
        if let Some(o) = &mut self.occlusion {
            *o = Occlusion::new(self.mesh.meshlets.len());
        }
        self.upload_mesh();
    }

    /// Upload the mesh's vertices (with their layout) and index list.
    fn upload_mesh(&self) {
        self.upload_buffer(
            glow::ARRAY_BUFFER,
            self.vbo,
            bytemuck::cast_slice(&self.mesh.vertices),
            "the vertex buffer upload",
        );
        self.upload_indices();
    }

    /// Upload the mesh's index list (bound to the vertex array).
    fn upload_indices(&self) {
        self.upload_buffer(
            glow::ELEMENT_ARRAY_BUFFER,
            self.ebo,
            bytemuck::cast_slice(&self.mesh.indices),
            "the index buffer upload",
        );
    }

    /// Fill `buffer` with `bytes` (drawn many times) as the vertex array's `target`:
    /// its vertices (their layout set too) or its index list.
    fn upload_buffer(&self, target: u32, buffer: glow::Buffer, bytes: &[u8], what: &str) {
        let gl = &self.gl;
        // SAFETY: context current; the objects bound are owned by self.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(target, Some(buffer));
            gl.buffer_data_u8_slice(target, bytes, glow::STATIC_DRAW);
            check_gl!(gl, what);
        }
        if target == glow::ARRAY_BUFFER {
            gl::set_vertex_layout::<Vertex>(gl);
        }
        // SAFETY: as above.
        unsafe { gl.bind_vertex_array(None) };
    }

    /// Upload each distinct texture image once, however many materials share it.
    pub(super) fn upload_materials(&mut self, map: &Map) {
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
                        tell!(
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

    /// `color`, written as displayed (sRGB), in the space the shader works in.
    pub(super) fn shading(&self, color: [f32; 3]) -> [f32; 3] {
        if self.srgb {
            color.map(srgb_to_linear)
        } else {
            color
        }
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
