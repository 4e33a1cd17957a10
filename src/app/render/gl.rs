//! Small OpenGL helpers every GL file uses: building a program from two stages, finding
//! uniforms (a missing one is said once, not ignored), one vertex layout table for every
//! vertex type (their bytes are `bytemuck`'s), and checking for GL errors after uploads in debug builds
//! (as egui_glow's `check_for_gl_error!` does).
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glow::HasContext;

/// In debug builds, report every pending GL error with where it was noticed; a no-op in
/// release builds (reading errors stalls the pipeline).
macro_rules! check_gl {
    ($gl:expr, $what:expr) => {
        if cfg!(debug_assertions) {
            $crate::app::render::gl::report_errors($gl, $what, file!(), line!());
        }
    };
}
pub(crate) use check_gl;

/// Fill the array buffer `buffer` with `bytes` once (static data: the mirrors' marks, the
/// decals), checking for GL errors under `what`.
pub fn fill_static_buffer(gl: &glow::Context, buffer: glow::Buffer, bytes: &[u8], what: &str) {
    // SAFETY: context current; the caller owns the buffer.
    unsafe {
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes, glow::STATIC_DRAW);
    }
    check_gl!(gl, what);
}

/// Print and clear the pending GL errors (see [`check_gl!`]).
pub fn report_errors(gl: &glow::Context, what: &str, file: &str, line: u32) {
    // A lost context keeps answering with an error: stop after a few.
    for _ in 0..8 {
        // SAFETY: a plain state query on the current context.
        let error = unsafe { gl.get_error() };
        if error == glow::NO_ERROR {
            return;
        }
        let name = match error {
            glow::INVALID_ENUM => "INVALID_ENUM",
            glow::INVALID_VALUE => "INVALID_VALUE",
            glow::INVALID_OPERATION => "INVALID_OPERATION",
            glow::INVALID_FRAMEBUFFER_OPERATION => "INVALID_FRAMEBUFFER_OPERATION",
            glow::OUT_OF_MEMORY => "OUT_OF_MEMORY",
            _ => "unknown error",
        };
        tell!("GL error {name} (0x{error:04x}) after {what} ({file}:{line})");
    }
}

/// Compile `vertex` and `fragment` (named for messages) and link them; errors carry the
/// driver's info log.
pub fn program(
    gl: &glow::Context,
    vertex: (&str, &str),
    fragment: (&str, &str),
) -> Result<glow::Program, String> {
    // SAFETY: called with the context current; the shaders are deleted once linked (or
    // on failure), and the program is returned to an owner that deletes it.
    unsafe {
        let vs = compile(gl, glow::VERTEX_SHADER, vertex)?;
        let fs = match compile(gl, glow::FRAGMENT_SHADER, fragment) {
            Ok(fs) => fs,
            Err(e) => {
                gl.delete_shader(vs);
                return Err(e);
            }
        };
        let program = gl.create_program()?;
        gl.attach_shader(program, vs);
        gl.attach_shader(program, fs);
        gl.link_program(program);
        gl.delete_shader(vs);
        gl.delete_shader(fs);
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            return Err(format!(
                "shaders {} and {} do not link:\n{log}",
                vertex.0, fragment.0
            ));
        }
        Ok(program)
    }
}

/// Compile one shader stage `(name, source)`.
///
/// # Safety
/// The context must be current; the caller owns the shader returned and deletes it.
unsafe fn compile(
    gl: &glow::Context,
    kind: u32,
    (name, src): (&str, &str),
) -> Result<glow::Shader, String> {
    // SAFETY: the context is current (the caller's promise); a shader that does not
    // compile is deleted here.
    unsafe {
        let shader = gl.create_shader(kind)?;
        gl.shader_source(shader, src);
        gl.compile_shader(shader);
        if !gl.get_shader_compile_status(shader) {
            let log = gl.get_shader_info_log(shader);
            gl.delete_shader(shader);
            return Err(format!("shader {name} does not compile:\n{log}"));
        }
        Ok(shader)
    }
}

/// The location of uniform `name`; a name the program lacks (misspelt, or unused and
/// optimised away by the driver) is reported once here instead of every draw silently
/// setting nothing.
pub fn uniform(
    gl: &glow::Context,
    program: glow::Program,
    name: &str,
) -> Option<glow::UniformLocation> {
    // SAFETY: a plain query on a linked program of the current context.
    let location = unsafe { gl.get_uniform_location(program, name) };
    if location.is_none() {
        tell!("warning: the shader has no uniform '{name}'; drawing goes on without it");
    }
    location
}

/// One attribute of a vertex: the location the vertex shader declares, how many `f32`s,
/// and where in the vertex they start (bytes).
pub struct Attribute {
    /// `layout(location = ...)` in the shader.
    pub location: u32,
    /// Number of floats (1 to 4).
    pub floats: i32,
    /// Byte offset in the vertex (`offset_of!`).
    pub offset: usize,
}

impl Attribute {
    /// `floats` floats at `offset` bytes, read at shader `location`.
    pub const fn new(location: u32, floats: i32, offset: usize) -> Attribute {
        Attribute {
            location,
            floats,
            offset,
        }
    }
}

/// A vertex the GL reads as raw bytes (`bytemuck::Pod`: plain data, no padding), with its
/// layout.
pub trait GpuVertex: bytemuck::Pod {
    /// Its attributes, as the vertex shader reads them; each lies within the vertex.
    const ATTRIBUTES: &'static [Attribute];
}

/// Point the bound vertex array's attributes at the bound array buffer, which holds `V`s.
pub fn set_vertex_layout<V: GpuVertex>(gl: &glow::Context) {
    let stride = std::mem::size_of::<V>() as i32;
    for a in V::ATTRIBUTES {
        // SAFETY: state calls on the current context, with a vertex array and an array
        // buffer bound; the offsets lie within `V` (see `GpuVertex`).
        unsafe {
            gl.enable_vertex_attrib_array(a.location);
            gl.vertex_attrib_pointer_f32(
                a.location,
                a.floats,
                glow::FLOAT,
                false,
                stride,
                a.offset as i32,
            );
        }
    }
}

/// Read the current framebuffer's depth, `width` x `height` window depths as 32-bit
/// fixed point (0 near, `u32::MAX` far), bottom row first, into `depth` (exactly that
/// many). Integers: llvmpipe reads them three times faster than floats (0.65 against 1.9
/// ms at 1280x720).
pub fn read_depth(gl: &glow::Context, width: u32, height: u32, depth: &mut [u32]) {
    assert_eq!(depth.len(), width as usize * height as usize);
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(depth);
    // SAFETY: context current; the buffer holds exactly the rectangle asked for, in
    // 4-byte rows (PACK_ALIGNMENT 4).
    unsafe {
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
        gl.read_pixels(
            0,
            0,
            width as i32,
            height as i32,
            glow::DEPTH_COMPONENT,
            glow::UNSIGNED_INT,
            glow::PixelPackData::Slice(Some(bytes)),
        );
    }
}

/// Read the bound read framebuffer's first colour attachment, one unsigned integer a
/// pixel (an `R32UI` texture), bottom row first.
pub fn read_uint(gl: &glow::Context, width: u32, height: u32, texels: &mut [u32]) {
    assert_eq!(texels.len(), width as usize * height as usize);
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(texels);
    // SAFETY: context current; the buffer holds exactly the rectangle asked for, in
    // 4-byte rows (PACK_ALIGNMENT 4).
    unsafe {
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
        gl.read_buffer(glow::COLOR_ATTACHMENT0);
        gl.read_pixels(
            0,
            0,
            width as i32,
            height as i32,
            glow::RED_INTEGER,
            glow::UNSIGNED_INT,
            glow::PixelPackData::Slice(Some(bytes)),
        );
    }
}
