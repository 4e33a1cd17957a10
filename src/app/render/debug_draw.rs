//! Draws the debug view over the scene: translucent triangles (what the last steps touched)
//! and lines (the triangles tested, the contact normal, the body), from vertex lists the
//! frame fills; and solid triangles drawn into the scene's depth (the walker's figure in
//! third person). One buffer, three draw calls; the buffer grows to the largest frame
//! and is then reused.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use std::mem::offset_of;
use std::sync::Arc;

use glam::{Mat4, Vec3};
use glow::HasContext;

use super::gl::{self, Attribute, GpuVertex, check_gl};

const VERTEX_SHADER: &str = include_str!("../../../shaders/debug.vert");
const FRAGMENT_SHADER: &str = include_str!("../../../shaders/debug.frag");

/// One vertex of the overlay.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct DebugVertex {
    /// World position.
    pub position: [f32; 3],
    /// Colour and opacity.
    pub color: [f32; 4],
}

impl GpuVertex for DebugVertex {
    // Locations as shaders/debug.vert declares them.
    const ATTRIBUTES: &'static [Attribute] = &[
        Attribute::new(0, 3, offset_of!(DebugVertex, position)),
        Attribute::new(1, 4, offset_of!(DebugVertex, color)),
    ];
}

impl DebugVertex {
    /// A vertex at `p` of colour `color`.
    pub fn new(p: Vec3, color: [f32; 4]) -> DebugVertex {
        DebugVertex {
            position: p.into(),
            color,
        }
    }
}

/// What to draw this frame.
#[derive(Default)]
pub struct DebugGeometry {
    /// Opaque triangles, three vertices each, hidden by the map and hiding it (the
    /// figure): drawn first, with depth writes.
    pub solid: Vec<DebugVertex>,
    /// Filled translucent triangles, three vertices each.
    pub triangles: Vec<DebugVertex>,
    /// Lines, two vertices each.
    pub lines: Vec<DebugVertex>,
}

impl DebugGeometry {
    /// Empty it, keeping its memory.
    pub fn clear(&mut self) {
        self.solid.clear();
        self.triangles.clear();
        self.lines.clear();
    }

    /// Nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.solid.is_empty() && self.triangles.is_empty() && self.lines.is_empty()
    }

    /// A filled triangle.
    pub fn triangle(&mut self, corners: [Vec3; 3], color: [f32; 4]) {
        self.triangles
            .extend(corners.map(|c| DebugVertex::new(c, color)));
    }

    /// A line.
    pub fn line(&mut self, a: Vec3, b: Vec3, color: [f32; 4]) {
        self.lines.push(DebugVertex::new(a, color));
        self.lines.push(DebugVertex::new(b, color));
    }

    /// An axis-aligned ellipsoid as three rings (one per axis plane), 32 segments each.
    pub fn ellipsoid(&mut self, centre: Vec3, radii: Vec3, color: [f32; 4]) {
        const SEGMENTS: usize = 32;
        let at = |k: usize| k as f32 * std::f32::consts::TAU / SEGMENTS as f32;
        let rings: [fn(f32) -> Vec3; 3] = [
            |a| Vec3::new(a.cos(), a.sin(), 0.0),
            |a| Vec3::new(0.0, a.cos(), a.sin()),
            |a| Vec3::new(a.cos(), 0.0, a.sin()),
        ];
        for ring in rings {
            for k in 0..SEGMENTS {
                let (a, b) = (ring(at(k)), ring(at(k + 1)));
                self.line(centre + a * radii, centre + b * radii, color);
            }
        }
    }

    /// A triangle's outline.
    pub fn outline(&mut self, [a, b, c]: [Vec3; 3], color: [f32; 4]) {
        self.line(a, b, color);
        self.line(b, c, color);
        self.line(c, a, color);
    }
}

/// The overlay's program and a vertex array over one buffer of [`DebugVertex`]: what
/// the debug view and the mirrors' marks both draw with (deleted when dropped).
pub struct OverlayObjects {
    /// The context they live in.
    pub gl: Arc<glow::Context>,
    /// The overlay's shaders.
    pub program: glow::Program,
    /// Its view-projection uniform.
    pub view_proj: Option<glow::UniformLocation>,
    /// The vertex array, laid out for [`DebugVertex`].
    pub vao: glow::VertexArray,
    /// Its (empty) buffer.
    pub vbo: glow::Buffer,
}

impl OverlayObjects {
    /// Compile the overlay's shaders and make the array and buffer in `context` (each is
    /// deleted here if a later one cannot be made).
    pub fn new(context: Arc<glow::Context>) -> Result<OverlayObjects, String> {
        let gl = &*context;
        let program = gl::program(
            gl,
            ("shaders/debug.vert", VERTEX_SHADER),
            ("shaders/debug.frag", FRAGMENT_SHADER),
        )?;
        let view_proj = gl::uniform(gl, program, "u_view_proj");
        // SAFETY: context current; the objects are kept in the result, which deletes them,
        // or deleted here if a later one cannot be made.
        unsafe {
            let vao = gl
                .create_vertex_array()
                .inspect_err(|_| gl.delete_program(program))?;
            let vbo = gl.create_buffer().inspect_err(|_| {
                gl.delete_vertex_array(vao);
                gl.delete_program(program);
            })?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl::set_vertex_layout::<DebugVertex>(gl);
            gl.bind_vertex_array(None);
            Ok(OverlayObjects {
                gl: Arc::clone(&context),
                program,
                view_proj,
                vao,
                vbo,
            })
        }
    }
}

/// The overlay's GL objects.
pub struct DebugDraw {
    overlay: OverlayObjects,
    /// Bytes the buffer holds.
    capacity: usize,
}

impl DebugDraw {
    /// Compile the overlay's shaders.
    pub fn new(gl: Arc<glow::Context>) -> Result<DebugDraw, String> {
        Ok(DebugDraw {
            overlay: OverlayObjects::new(gl)?,
            capacity: 0,
        })
    }

    /// Draw `geometry` over the current frame, seen through `view_proj`: triangles
    /// blended and pulled a little toward the eye (so they cover the face they highlight),
    /// lines on top of them.
    pub fn draw(&mut self, view_proj: Mat4, geometry: &DebugGeometry) {
        let (solid, tris, lines) = (&geometry.solid, &geometry.triangles, &geometry.lines);
        if geometry.is_empty() {
            return;
        }
        let gl = &self.overlay.gl;
        let vertex = std::mem::size_of::<DebugVertex>();
        let bytes = (solid.len() + tris.len() + lines.len()) * vertex;
        let (first_tri, first_line) = (solid.len(), solid.len() + tris.len());
        // SAFETY: context current; the buffer is at least `bytes` long.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.overlay.vbo));
            if bytes > self.capacity {
                self.capacity = bytes.next_power_of_two();
                gl.buffer_data_size(glow::ARRAY_BUFFER, self.capacity as i32, glow::STREAM_DRAW);
                check_gl!(gl, "the debug buffer's growth");
            }
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, bytemuck::cast_slice(solid));
            gl.buffer_sub_data_u8_slice(
                glow::ARRAY_BUFFER,
                (first_tri * vertex) as i32,
                bytemuck::cast_slice(tris),
            );
            gl.buffer_sub_data_u8_slice(
                glow::ARRAY_BUFFER,
                (first_line * vertex) as i32,
                bytemuck::cast_slice(lines),
            );
            gl.use_program(Some(self.overlay.program));
            gl.uniform_matrix_4_f32_slice(
                self.overlay.view_proj.as_ref(),
                false,
                &view_proj.to_cols_array(),
            );
            gl.bind_vertex_array(Some(self.overlay.vao));
            gl.enable(glow::DEPTH_TEST);
            gl.depth_mask(true);
            // Blended: the figure fades as the third person's camera comes close to it
            // (opaque, its alpha of 1 draws it as without blending).
            gl.enable(glow::BLEND);
            gl.blend_func(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA);
            gl.draw_arrays(glow::TRIANGLES, 0, solid.len() as i32);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_mask(false);
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(-1.0, -4.0);
            gl.draw_arrays(glow::TRIANGLES, first_tri as i32, tris.len() as i32);
            gl.disable(glow::POLYGON_OFFSET_FILL);
            // Lines are seen through walls: the tested triangles are often behind the one hit.
            gl.disable(glow::DEPTH_TEST);
            gl.draw_arrays(glow::LINES, first_line as i32, lines.len() as i32);
            gl.depth_mask(true);
            gl.disable(glow::BLEND);
            gl.bind_vertex_array(None);
            gl.use_program(None);
        }
    }
}

impl Drop for OverlayObjects {
    fn drop(&mut self) {
        // SAFETY: dropped while the context is current (the app drops the overlay's owners
        // with the renderer).
        unsafe {
            self.gl.delete_buffer(self.vbo);
            self.gl.delete_vertex_array(self.vao);
            self.gl.delete_program(self.program);
        }
    }
}
