//! The scene's shader program (opaque and cut-out variants), its uniforms, and the
//! light the scene is drawn in.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glam::{Mat4, Vec3, Vec4};
use glow::HasContext;

use super::gl;

const VERTEX_SHADER: &str = include_str!("../../../shaders/scene.vert");
const FRAGMENT_SHADER: &str = include_str!("../../../shaders/scene.frag");

/// The scene's light: a sun from above, an ambient floor, and a little headlight on faces
/// that look at the eye (it keeps walls readable up close). Factors of a surface's colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lighting {
    ambient: f32,
    sun: f32,
    headlight: f32,
}

/// The light in linear space (an sRGB framebuffer): the display-space factors below,
/// made linear (0.35 of the colour as displayed is 0.1 of its light).
pub const LINEAR_LIGHTING: Lighting = Lighting {
    ambient: 0.1,
    sun: 0.7,
    headlight: 0.12,
};

/// The light where colours go to the screen as they are (no sRGB framebuffer).
pub const DISPLAY_LIGHTING: Lighting = Lighting {
    ambient: 0.35,
    sun: 0.55,
    headlight: 0.15,
};

/// The direction sunlight travels (down, and a little slanted so walls differ).
pub const SUN_DIRECTION: Vec3 = Vec3::new(-0.4, -1.0, -0.3);

/// The scene program's variants: what a material needs of the fragment shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Its diffuse colour.
    Plain,
    /// Its texture.
    Textured,
    /// Its texture, with texels under half alpha discarded (leaves, fences).
    Cutout,
}

impl Variant {
    /// Every variant, in the order [`Variant::index`] numbers them.
    pub const ALL: [Variant; 3] = [Variant::Plain, Variant::Textured, Variant::Cutout];

    /// Its place in [`Variant::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The `#define` lines the fragment shader is compiled with.
    fn defines(self) -> &'static str {
        match self {
            Variant::Plain => "",
            Variant::Textured => "#define TEXTURED\n",
            Variant::Cutout => "#define TEXTURED\n#define ALPHA_TEST\n",
        }
    }
}

/// What every cluster of a frame is drawn with.
pub struct FrameUniforms {
    pub view_proj: Mat4,
    /// The eye, for two-sided lighting and fog.
    pub eye: Vec3,
    /// Where the fog is complete.
    pub far: f32,
    /// The fog's (the sky's) colour, in the space the shader works in.
    pub fog: [f32; 3],
    pub light: Lighting,
    /// The framebuffer encodes to sRGB (the dither's step is an sRGB step).
    pub srgb: bool,
    /// What is kept: `dot(clip_plane, p) >= 0` (a mirror's reflection; `Vec4::W` keeps
    /// all).
    pub clip_plane: Vec4,
}

/// One program's uniforms.
pub struct Uniforms {
    view_proj: Option<glow::UniformLocation>,
    pub color: Option<glow::UniformLocation>,
    texture: Option<glow::UniformLocation>,
    eye: Option<glow::UniformLocation>,
    light_dir: Option<glow::UniformLocation>,
    fog_far: Option<glow::UniformLocation>,
    fog_color: Option<glow::UniformLocation>,
    lighting: Option<glow::UniformLocation>,
    srgb_out: Option<glow::UniformLocation>,
    clip_plane: Option<glow::UniformLocation>,
}

/// A program of the scene's shaders, of one [`Variant`]: only the cut-out one may
/// `discard`, so the others let the depth test reject a hidden fragment before it is
/// shaded.
pub struct Program {
    pub program: glow::Program,
    pub uniforms: Uniforms,
}

impl Program {
    /// Compile the scene's shaders as `variant` (its `#define` lines after the version).
    pub fn new(gl: &glow::Context, variant: Variant) -> Result<Program, String> {
        let (version, rest) = FRAGMENT_SHADER
            .split_once('\n')
            .ok_or("shaders/scene.frag has no #version line")?;
        let fragment = format!("{version}\n{}{rest}", variant.defines());
        let program = gl::program(
            gl,
            ("shaders/scene.vert", VERTEX_SHADER),
            ("shaders/scene.frag", &fragment),
        )?;
        let u = |n: &str| gl::uniform(gl, program, n);
        // Each variant looks up only the uniforms it uses (the driver drops the others, and
        // asking for one would warn at every start).
        let textured = variant != Variant::Plain;
        let uniforms = Uniforms {
            view_proj: u("u_view_proj"),
            color: (!textured).then(|| u("u_color")).flatten(),
            texture: textured.then(|| u("u_texture")).flatten(),
            eye: u("u_eye"),
            light_dir: u("u_light_dir"),
            fog_far: u("u_fog_far"),
            fog_color: u("u_fog_color"),
            lighting: u("u_lighting"),
            srgb_out: u("u_srgb_out"),
            clip_plane: u("u_clip_plane"),
        };
        Ok(Program { program, uniforms })
    }

    /// Use it, with the frame's uniforms.
    pub fn bind(&self, gl: &glow::Context, f: &FrameUniforms) {
        let (u, sun) = (&self.uniforms, SUN_DIRECTION.normalize());
        let (eye, fog, light) = (f.eye, f.fog, f.light);
        // SAFETY: context current; the program is owned by the renderer and alive.
        unsafe {
            gl.use_program(Some(self.program));
            let m = f.view_proj.to_cols_array();
            gl.uniform_matrix_4_f32_slice(u.view_proj.as_ref(), false, &m);
            gl.uniform_3_f32(u.eye.as_ref(), eye.x, eye.y, eye.z);
            gl.uniform_3_f32(u.light_dir.as_ref(), sun.x, sun.y, sun.z);
            gl.uniform_1_f32(u.fog_far.as_ref(), f.far);
            gl.uniform_3_f32(u.fog_color.as_ref(), fog[0], fog[1], fog[2]);
            gl.uniform_3_f32(
                u.lighting.as_ref(),
                light.ambient,
                light.sun,
                light.headlight,
            );
            gl.uniform_1_f32(u.srgb_out.as_ref(), f32::from(u8::from(f.srgb)));
            gl.uniform_1_i32(u.texture.as_ref(), 0);
            let c = f.clip_plane;
            gl.uniform_4_f32(u.clip_plane.as_ref(), c.x, c.y, c.z, c.w);
        }
    }
}
