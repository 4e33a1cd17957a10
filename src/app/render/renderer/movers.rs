//! A scene's movers drawn where they are this frame: each mover's triangles (kept in its
//! model's space, see [`walkthrough_core::map::MovingMesh`]) placed by its current matrix on
//! the CPU into one streamed buffer, then drawn batch by batch with the scene's programs
//! and materials. Movers are few and small beside the map (doors, lifts, platforms), so
//! placing them on the CPU keeps the shaders one; they are not culled by the clusters,
//! whose boxes do not move.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glam::{Affine3A, Mat3, Vec3};
use glow::HasContext;

use walkthrough_core::map::{MovingMesh, Vertex};

use super::super::counters::DrawStats;
use super::super::gl::{self, check_gl};
use super::super::program::{FrameUniforms, Shading, Variant};
use super::Renderer;

/// The movers' meshes and the buffer they are placed into each frame.
#[derive(Default)]
pub(super) struct MoverDraw {
    /// The GL objects, made at the first frame with movers (`None`: not made).
    objects: Option<(glow::VertexArray, glow::Buffer)>,
    /// Each mover's triangles, in model space (the map's [`Map::moving`](walkthrough_core::map::Map::moving)).
    pub(super) meshes: Vec<MovingMesh>,
    /// Each mover's matrix this frame, in `meshes`' order.
    pub(super) poses: Vec<Affine3A>,
    /// This frame's placed vertices (kept: no allocation per frame).
    placed: Vec<Vertex>,
    /// This frame's draws: material, first vertex and count in the buffer (kept
    /// likewise; drawn again in each mirror).
    draws: Vec<MoverBatch>,
}

/// One material's run of a mover's placed triangles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct MoverBatch {
    material: usize,
    first: usize,
    count: usize,
}

impl MoverDraw {
    /// Delete the GL objects.
    pub(super) fn delete(&mut self, gl: &glow::Context) {
        if let Some((vao, vbo)) = self.objects.take() {
            // SAFETY: context current; the objects are owned here and not used again.
            unsafe {
                gl.delete_buffer(vbo);
                gl.delete_vertex_array(vao);
            }
        }
    }
}

impl MoverDraw {
    /// No mover was placed this frame.
    pub(super) fn placed_is_empty(&self) -> bool {
        self.placed.is_empty()
    }

    /// Draw every placed mover's triangles with the program bound (the shadow map's
    /// depth only), then the map's array is for the caller to bind again.
    pub(super) fn draw_depth(&self, gl: &glow::Context) {
        let Some((vao, _)) = self.objects.filter(|_| !self.placed.is_empty()) else {
            return;
        };
        // SAFETY: context current; the array is owned here and its buffer holds the
        // placed vertices.
        unsafe {
            gl.bind_vertex_array(Some(vao));
            gl.draw_arrays(glow::TRIANGLES, 0, self.placed.len() as i32);
        }
    }
}

impl Renderer {
    /// Where each mover is this frame, in the map's `moving` order (its placement's
    /// current model-to-world matrix).
    pub fn set_mover_poses(&mut self, poses: impl IntoIterator<Item = Affine3A>) {
        self.movers.poses.clear();
        self.movers.poses.extend(poses);
    }

    /// Place the movers at their poses into the buffer (once a frame, before they are
    /// drawn in the view and in its mirrors).
    pub(super) fn place_movers(&mut self) {
        let d = &mut self.movers;
        d.placed.clear();
        d.draws.clear();
        if d.meshes.is_empty() {
            return;
        }
        place(&d.meshes, &d.poses, &mut d.placed, &mut d.draws);
        let gl = &self.gl;
        let (vao, vbo) = match d.objects {
            Some(o) => o,
            // SAFETY: context current; the objects are owned by `MoverDraw`.
            None => match unsafe {
                gl.create_vertex_array()
                    .and_then(|a| Ok((a, gl.create_buffer()?)))
            } {
                Ok(o) => {
                    d.objects = Some(o);
                    o
                }
                Err(e) => {
                    tell!("warning: cannot draw the movers: {e}");
                    d.meshes.clear();
                    d.draws.clear();
                    return;
                }
            },
        };
        // SAFETY: context current; the array and buffer are owned by `MoverDraw`. New
        // storage each frame (the driver may still be drawing from the last).
        unsafe {
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&d.placed),
                glow::STREAM_DRAW,
            );
            check_gl!(gl, "the movers' upload");
        }
        gl::set_vertex_layout::<Vertex>(gl);
        // SAFETY: context current; the map's own array back for what follows.
        unsafe { gl.bind_vertex_array(Some(self.vao)) };
    }

    /// Draw the movers where [`Renderer::place_movers`] placed them this frame (after the
    /// map's passes, into the same depth), with `frame`'s uniforms.
    pub(super) fn draw_movers(&self, frame: &FrameUniforms, stats: &mut DrawStats) {
        let d = &self.movers;
        let Some((vao, _)) = d.objects.filter(|_| !d.draws.is_empty()) else {
            return;
        };
        let gl = &self.gl;
        // SAFETY: context current; the array is owned by `MoverDraw`.
        unsafe { gl.bind_vertex_array(Some(vao)) };
        let mut bound = None;
        for b in &d.draws {
            let Some(m) = self.materials.get(b.material) else {
                continue;
            };
            let variant = match m.texture {
                None => Variant::Plain,
                Some(_) => Variant::Textured,
            };
            // Movers move: their shade is not known ahead.
            let shading = if frame.lit.is_some() {
                Shading::Lit
            } else {
                Shading::Flat
            };
            let p = &self.programs[variant.program_index(shading)];
            if bound != Some(variant) {
                p.bind(gl, frame);
                bound = Some(variant);
            }
            // SAFETY: context current; the range lies within the buffer filled this frame.
            unsafe {
                gl.disable(glow::CULL_FACE);
                let u = &p.uniforms;
                gl.uniform_3_f32(u.color.as_ref(), m.color[0], m.color[1], m.color[2]);
                gl.bind_texture(glow::TEXTURE_2D, m.texture);
                gl.draw_arrays(glow::TRIANGLES, b.first as i32, b.count as i32);
            }
            stats.triangles += b.count / 3;
            stats.draws += 1;
        }
        // SAFETY: context current; the map's own array back for what follows.
        unsafe { gl.bind_vertex_array(Some(self.vao)) };
    }
}

/// Each mover of `meshes` placed by its matrix of `poses` into `placed` (world
/// coordinates, normals turned with it), one batch a material run into `draws`, in order.
fn place(
    meshes: &[MovingMesh],
    poses: &[Affine3A],
    placed: &mut Vec<Vertex>,
    draws: &mut Vec<MoverBatch>,
) {
    for (mesh, m) in meshes.iter().zip(poses) {
        let normal_m = Mat3::from(m.matrix3).inverse().transpose();
        for b in &mesh.batches {
            let first = placed.len();
            let verts = &mesh.vertices[b.first as usize..(b.first + b.count) as usize];
            placed.extend(verts.iter().map(|v| Vertex {
                position: m.transform_point3(v.position.into()).into(),
                normal: (normal_m * Vec3::from(v.normal)).normalize_or_zero().into(),
                uv: v.uv,
            }));
            draws.push(MoverBatch {
                material: b.material,
                first,
                count: placed.len() - first,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use walkthrough_core::map::Batch;

    fn vertex(p: [f32; 3], n: [f32; 3]) -> Vertex {
        Vertex {
            position: p,
            normal: n,
            uv: [0.0, 0.0],
        }
    }

    /// Placed once a frame, drawn in the view and in each mirror from the same list: two
    /// movers, the second of two materials, each placed by its own matrix.
    #[test]
    fn each_mover_is_placed_by_its_matrix_into_one_batch_a_material_run() {
        let tri = |x: f32| {
            [
                vertex([x, 0.0, 0.0], [0.0, 0.0, 1.0]),
                vertex([x + 1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
                vertex([x, 1.0, 0.0], [0.0, 0.0, 1.0]),
            ]
        };
        let one = MovingMesh {
            instance: 0,
            vertices: tri(0.0).to_vec(),
            batches: vec![Batch {
                material: 2,
                first: 0,
                count: 3,
            }],
        };
        let two = MovingMesh {
            instance: 1,
            vertices: [tri(0.0), tri(5.0)].concat(),
            batches: vec![
                Batch {
                    material: 0,
                    first: 0,
                    count: 3,
                },
                Batch {
                    material: 1,
                    first: 3,
                    count: 3,
                },
            ],
        };
        let poses = [
            Affine3A::from_translation(Vec3::new(0.0, 2.0, 0.0)),
            Affine3A::from_rotation_y(std::f32::consts::FRAC_PI_2),
        ];
        let (mut placed, mut draws) = (Vec::new(), Vec::new());
        place(&[one, two], &poses, &mut placed, &mut draws);
        let batch = |material, first| MoverBatch {
            material,
            first,
            count: 3,
        };
        assert_eq!(draws, [batch(2, 0), batch(0, 3), batch(1, 6)]);
        assert_eq!(placed.len(), 9);
        // The first lifted 2 m; the second turned a quarter about Y: x to -z.
        assert_eq!(placed[2].position, [0.0, 3.0, 0.0]);
        let p = Vec3::from(placed[7].position);
        assert!((p - Vec3::new(0.0, 0.0, -6.0)).length() < 1e-5, "{p}");
        let n = Vec3::from(placed[7].normal);
        assert!((n - Vec3::X).length() < 1e-5, "{n}");
    }
}
