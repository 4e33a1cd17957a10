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

/// The direction sunlight travels (down, and a little slanted so walls differ) with the
/// `lighting` setting off.
pub const SUN_DIRECTION: Vec3 = Vec3::new(-0.4, -1.0, -0.3);

/// The light with the `lighting` setting on, in linear space: the ambient factor scales
/// the hemisphere's colours (sky above, ground below), the sun is shadowed, and the
/// headlight is halved (shadows are meant to show).
pub const LINEAR_LIT: Lighting = Lighting {
    ambient: 0.75,
    sun: 0.75,
    headlight: 0.06,
};

/// [`LINEAR_LIT`] where colours go to the screen as they are.
pub const DISPLAY_LIT: Lighting = Lighting {
    ambient: 0.6,
    sun: 0.5,
    headlight: 0.08,
};

/// What the lit variants are drawn with, besides every variant's uniforms.
#[derive(Clone, Copy, Debug)]
pub struct LitUniforms {
    /// The sun's depth map (bound to texture unit 1).
    pub shadow: glow::Texture,
    /// World to the shadow map's [0, 1] coordinates and depth.
    pub shadow_matrix: Mat4,
    /// One shadow texel: its size in texture coordinates, and in metres.
    pub shadow_texel: [f32; 2],
    /// The sky's light from straight up, and the ground's from below (shading space).
    pub sky_zenith: [f32; 3],
    pub ground: [f32; 3],
    /// Where the sky's light comes from most: up, leaning to the sun (unit).
    pub sky_axis: Vec3,
    /// The fog's colour looking straight up (at the horizon: [`FrameUniforms::fog`]).
    pub fog_zenith: [f32; 3],
}

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

    /// Its program's place in the renderer's list: the variants in each [`Shading`], in
    /// [`Shading::ALL`]'s order.
    pub fn program_index(self, shading: Shading) -> usize {
        self.index() + shading as usize * Variant::ALL.len()
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

/// The light a scene program is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shading {
    /// The flat light (the `lighting` setting off).
    Flat,
    /// The lit light: sky, ground, and the sun through the shadow map.
    Lit,
    /// The lit light for triangles the sun's light does not reach: no shadow lookup (see
    /// [`walkthrough_core::cull::SunShade`]).
    InShade,
}

impl Shading {
    /// Every shading, in the order [`Variant::program_index`] numbers them.
    pub const ALL: [Shading; 3] = [Shading::Flat, Shading::Lit, Shading::InShade];

    /// The `#define` lines the fragment shader is compiled with.
    fn defines(self) -> &'static str {
        match self {
            Shading::Flat => "",
            Shading::Lit => "#define LIT\n",
            Shading::InShade => "#define LIT\n#define IN_SHADE\n",
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
    /// The unit direction sunlight travels.
    pub sun: Vec3,
    /// With the `lighting` setting on: the sky and the sun's shadows (the lit variants).
    pub lit: Option<LitUniforms>,
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
    /// The lit variants' own (all `None` in the others).
    shadow: Option<glow::UniformLocation>,
    shadow_matrix: Option<glow::UniformLocation>,
    shadow_texel: Option<glow::UniformLocation>,
    eye_world: Option<glow::UniformLocation>,
    sky_zenith: Option<glow::UniformLocation>,
    ground: Option<glow::UniformLocation>,
    sky_axis: Option<glow::UniformLocation>,
    fog_zenith: Option<glow::UniformLocation>,
}

/// A program of the scene's shaders, of one [`Variant`]: only the cut-out one may
/// `discard`, so the others let the depth test reject a hidden fragment before it is
/// shaded.
pub struct Program {
    pub program: glow::Program,
    pub uniforms: Uniforms,
}

impl Program {
    /// Compile the scene's shaders as `variant` in `shading` (their `#define` lines after
    /// the version).
    pub fn new(gl: &glow::Context, variant: Variant, shading: Shading) -> Result<Program, String> {
        let (version, rest) = FRAGMENT_SHADER
            .split_once('\n')
            .ok_or("shaders/scene.frag has no #version line")?;
        let defines = shading.defines();
        let fragment = format!("{version}\n{}{defines}{rest}", variant.defines());
        let lit = shading != Shading::Flat;
        // The shadow's uniforms are used only where the shadow is looked up.
        let sunlit = shading == Shading::Lit;
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
            shadow: sunlit.then(|| u("u_shadow")).flatten(),
            shadow_matrix: sunlit.then(|| u("u_shadow_matrix")).flatten(),
            shadow_texel: sunlit.then(|| u("u_shadow_texel")).flatten(),
            eye_world: sunlit.then(|| u("u_eye_world")).flatten(),
            sky_zenith: lit.then(|| u("u_sky_zenith")).flatten(),
            ground: lit.then(|| u("u_ground")).flatten(),
            sky_axis: lit.then(|| u("u_sky_axis")).flatten(),
            fog_zenith: lit.then(|| u("u_fog_zenith")).flatten(),
        };
        Ok(Program { program, uniforms })
    }

    /// Use it, with the frame's uniforms.
    pub fn bind(&self, gl: &glow::Context, f: &FrameUniforms) {
        let (u, sun) = (&self.uniforms, f.sun);
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
        if let Some(l) = &f.lit {
            self.bind_lit(gl, f.eye, l);
        }
    }

    /// The lit variant's own uniforms, and the shadow map on texture unit 1.
    fn bind_lit(&self, gl: &glow::Context, eye: Vec3, l: &LitUniforms) {
        let u = &self.uniforms;
        let v3 = |loc: &Option<glow::UniformLocation>, c: [f32; 3]| {
            // SAFETY: context current; the program is in use (bound by `bind`).
            unsafe { gl.uniform_3_f32(loc.as_ref(), c[0], c[1], c[2]) };
        };
        v3(&u.eye_world, eye.to_array());
        v3(&u.sky_zenith, l.sky_zenith);
        v3(&u.ground, l.ground);
        v3(&u.sky_axis, l.sky_axis.to_array());
        v3(&u.fog_zenith, l.fog_zenith);
        // SAFETY: context current; the program is in use and the texture is owned by the
        // renderer's shadow map; texture unit 0 is made active again for the materials.
        unsafe {
            let m = l.shadow_matrix.to_cols_array();
            gl.uniform_matrix_4_f32_slice(u.shadow_matrix.as_ref(), false, &m);
            let [a, b] = l.shadow_texel;
            gl.uniform_2_f32(u.shadow_texel.as_ref(), a, b);
            gl.uniform_1_i32(u.shadow.as_ref(), 1);
            gl.active_texture(glow::TEXTURE1);
            gl.bind_texture(glow::TEXTURE_2D, Some(l.shadow));
            gl.active_texture(glow::TEXTURE0);
        }
    }
}
