//! Occlusion culling with hardware queries and last frame's answers (after Bittner et
//! al., "Coherent Hierarchical Culling", 2004, without the hierarchy): a cluster seen last
//! frame is drawn and asked again (the answer is read next frame, without waiting); one
//! not seen last frame only has its box tested against the depth of what was drawn, and
//! is drawn (and asked) if any of the box would show. All those box tests are read
//! together, after one wait, so a frame waits for the GL once.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::sync::Arc;

use glam::{Mat4, Vec3};
use glow::HasContext;

use walkthrough::cull::Cluster;

use super::gl::{self, Attribute, GpuVertex, check_gl};

const VERTEX_SHADER: &str = include_str!("../../shaders/box.vert");
const FRAGMENT_SHADER: &str = include_str!("../../shaders/box.frag");

/// A corner of the unit cube the boxes are drawn from.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
struct Corner {
    at: [f32; 3],
}

// SAFETY: `Corner` is `repr(C)` with only `f32` fields.
unsafe impl GpuVertex for Corner {
    const ATTRIBUTES: &'static [Attribute] =
        &[Attribute::new(0, 3, std::mem::offset_of!(Corner, at))];
}

/// The unit cube's twelve triangles, by corner (bit 0: x, bit 1: y, bit 2: z).
const CUBE: [u32; 36] = [
    0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3,
    5, 3, 7, 5,
];

/// A box within this distance of the eye (its near side closer than the near plane may be
/// clipped away) is taken as seen without a test.
const NEAR_MARGIN: f32 = 0.05;

/// The queries of every cluster and what they said.
pub struct Occlusion {
    gl: Arc<glow::Context>,
    program: glow::Program,
    view_proj: Option<glow::UniformLocation>,
    min: Option<glow::UniformLocation>,
    max: Option<glow::UniformLocation>,
    vao: glow::VertexArray,
    buffers: [glow::Buffer; 2],
    /// One query a cluster.
    queries: Vec<glow::Query>,
    /// A cluster was seen (or is not known unseen).
    seen: Vec<bool>,
    /// Clusters drawn last frame whose answer is still to be read.
    asked: Vec<u32>,
    /// Samples that passed the depth test in last frame's cluster draws.
    passed: u64,
    /// Those of opaque clusters.
    passed_opaque: u64,
}

impl Occlusion {
    /// The box program and the cube.
    pub fn new(gl: Arc<glow::Context>) -> Result<Occlusion, String> {
        let program = gl::program(
            &gl,
            ("shaders/box.vert", VERTEX_SHADER),
            ("shaders/box.frag", FRAGMENT_SHADER),
        )?;
        let u = |n: &str| gl::uniform(&gl, program, n);
        let (view_proj, min, max) = (u("u_view_proj"), u("u_min"), u("u_max"));
        let corners: Vec<Corner> = (0..8)
            .map(|k| Corner {
                at: [(k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32],
            })
            .collect();
        // SAFETY: context current; each object is deleted if a later one cannot be made,
        // then owned by the returned value and deleted in `Drop`.
        unsafe {
            let vao = gl
                .create_vertex_array()
                .inspect_err(|_| gl.delete_program(program))?;
            let buffers = gl
                .create_buffer()
                .and_then(|a| Ok([a, gl.create_buffer()?]))
                .inspect_err(|_| {
                    gl.delete_vertex_array(vao);
                    gl.delete_program(program);
                })?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffers[0]));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                gl::vertex_bytes(&corners),
                glow::STATIC_DRAW,
            );
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(buffers[1]));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                gl::index_bytes(&CUBE),
                glow::STATIC_DRAW,
            );
            gl::set_vertex_layout::<Corner>(&gl);
            gl.bind_vertex_array(None);
            check_gl!(&gl, "the occlusion cube's upload");
            Ok(Occlusion {
                gl,
                program,
                view_proj,
                min,
                max,
                vao,
                buffers,
                queries: Vec::new(),
                seen: Vec::new(),
                asked: Vec::new(),
                passed: 0,
                passed_opaque: 0,
            })
        }
    }

    /// A map of `clusters` clusters: every one taken as seen, a query each.
    pub fn reset(&mut self, clusters: usize) {
        let gl = &self.gl;
        // SAFETY: context current; the queries are made and deleted by this value.
        unsafe {
            for q in self.queries.drain(..) {
                gl.delete_query(q);
            }
            while self.queries.len() < clusters {
                match gl.create_query() {
                    Ok(q) => self.queries.push(q),
                    Err(e) => {
                        eprintln!(
                            "warning: no occlusion queries ({e}); every cluster in view is drawn"
                        );
                        break;
                    }
                }
            }
        }
        self.seen = vec![true; clusters];
        self.asked.clear();
    }

    /// Read last frame's answers for the clusters drawn then (ready by now: the frame
    /// was shown).
    pub fn collect(&mut self, clusters: &[Cluster]) {
        self.passed = 0;
        self.passed_opaque = 0;
        for &i in &self.asked {
            let q = self.queries[i as usize];
            // SAFETY: context current; the query was ended last frame.
            let samples = unsafe { self.gl.get_query_parameter_u32(q, glow::QUERY_RESULT) };
            self.seen[i as usize] = samples != 0;
            self.passed += u64::from(samples);
            if clusters.get(i as usize).is_some_and(|c| !c.cutout) {
                self.passed_opaque += u64::from(samples);
            }
        }
        self.asked.clear();
    }

    /// The samples that passed the depth test in the cluster draws of the frame before
    /// (the boxes' tests not counted): the fragments shaded then, less those a cut-out
    /// discarded.
    pub fn passed(&self) -> u64 {
        self.passed
    }

    /// Of [`Occlusion::passed`], those of opaque clusters (cut-outs left out).
    pub fn passed_opaque(&self) -> u64 {
        self.passed_opaque
    }

    /// Whether cluster `c` (index `i`) is drawn straight away, asked again as it is drawn:
    /// it was seen last frame, the eye is at its box, or there are no queries.
    pub fn draw_first(&self, i: u32, c: &Cluster, eye: Vec3) -> bool {
        let near = c.bounds.inflated(NEAR_MARGIN).contains(eye);
        self.queries.len() <= i as usize || near || self.seen[i as usize]
    }

    /// Start asking whether cluster `i`'s draw shows; [`Occlusion::end`] ends it.
    pub fn begin(&mut self, i: u32) {
        if let Some(&q) = self.queries.get(i as usize) {
            // SAFETY: context current; the query is owned by self.
            unsafe { self.gl.begin_query(glow::SAMPLES_PASSED, q) };
            self.asked.push(i);
        }
    }

    /// End the question [`Occlusion::begin`] started for cluster `i`.
    pub fn end(&self, i: u32) {
        if self.queries.len() > i as usize {
            // SAFETY: context current; a query of this target is active.
            unsafe { self.gl.end_query(glow::SAMPLES_PASSED) };
        }
    }

    /// Test the boxes of clusters `ids` against the depth drawn so far (nothing of them is
    /// written); keep in `ids` those that would show, and remember the answers.
    pub fn test(&mut self, view_proj: Mat4, clusters: &[Cluster], ids: &mut Vec<u32>) {
        if ids.is_empty() {
            return;
        }
        let gl = &self.gl;
        // SAFETY: context current; the objects are owned by self; the state changed here
        // is put back before returning.
        unsafe {
            gl.use_program(Some(self.program));
            let m = view_proj.to_cols_array();
            gl.uniform_matrix_4_f32_slice(self.view_proj.as_ref(), false, &m);
            gl.bind_vertex_array(Some(self.vao));
            gl.color_mask(false, false, false, false);
            gl.depth_mask(false);
            for &i in ids.iter() {
                let b = clusters[i as usize].bounds;
                gl.uniform_3_f32(self.min.as_ref(), b.min.x, b.min.y, b.min.z);
                gl.uniform_3_f32(self.max.as_ref(), b.max.x, b.max.y, b.max.z);
                gl.begin_query(glow::SAMPLES_PASSED, self.queries[i as usize]);
                gl.draw_elements(glow::TRIANGLES, CUBE.len() as i32, glow::UNSIGNED_INT, 0);
                gl.end_query(glow::SAMPLES_PASSED);
            }
            gl.color_mask(true, true, true, true);
            gl.depth_mask(true);
            gl.bind_vertex_array(None);
            gl.use_program(None);
            // The one wait: the first answer waits for the GL, the rest are ready then.
            for &i in ids.iter() {
                let q = self.queries[i as usize];
                self.seen[i as usize] = gl.get_query_parameter_u32(q, glow::QUERY_RESULT) != 0;
            }
        }
        ids.retain(|&i| self.seen[i as usize]);
    }
}

impl Drop for Occlusion {
    fn drop(&mut self) {
        // SAFETY: dropped while the context is current (with the renderer).
        unsafe {
            for q in self.queries.drain(..) {
                self.gl.delete_query(q);
            }
            for b in self.buffers {
                self.gl.delete_buffer(b);
            }
            self.gl.delete_vertex_array(self.vao);
            self.gl.delete_program(self.program);
        }
    }
}
