//! Drawing the scene with fewer pixels than the window has (the settings' render scale):
//! an offscreen framebuffer a fraction of the window's size on each side, stretched over
//! the window with linear filtering before the HUD is drawn at the window's own size.
//!
//! On a software renderer a frame costs about its pixels (README, Performance: "Where a
//! frame's time goes now"), so a scale of 0.5 draws a quarter of them; games offer the
//! same trade as "resolution scale", and a GPU driving a large screen needs it too. The
//! scene, its depth read for occlusion culling and the collision view are drawn at the
//! smaller size; the HUD, the minimap and the notices stay sharp.
//!
//! A window of one sample a pixel is stretched into by a blit. A multisampled window
//! (a GPU's default) cannot be: a blit into one must keep the size. There the scene is
//! drawn into a multisampled target of the window's samples, resolved into a texture of
//! the same size, and that texture drawn over the window as one triangle.

#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glow::HasContext;

use walkthrough_core::preferences::RENDER_SCALE_RANGE;

use super::gl::{self, check_gl};

const STRETCH_VERTEX: &str = include_str!("../../../shaders/stretch.vert");
const STRETCH_FRAGMENT: &str = include_str!("../../../shaders/stretch.frag");

/// The scene's size, pixels, in a window of `window` pixels at render scale `scale`
/// (brought into [`RENDER_SCALE_RANGE`]): each side scaled, rounded to the nearest pixel,
/// at least one.
fn scene_size(window: [u32; 2], scale: f32) -> [u32; 2] {
    let scale = if scale.is_nan() {
        1.0
    } else {
        scale.clamp(*RENDER_SCALE_RANGE.start(), *RENDER_SCALE_RANGE.end())
    };
    window.map(|side| ((side as f32 * scale).round() as u32).clamp(1, side.max(1)))
}

/// Where the scene is drawn: the window's framebuffer at a render scale of 1, else a
/// [`ScaledTarget`] made when first needed (and again when the window's size changes).
pub struct RenderScale {
    /// The settings' render scale.
    scale: f32,
    /// The window's framebuffer's samples a pixel, 0 or 1 for one (asked once: it never
    /// changes for a window).
    samples: i32,
    /// The window's framebuffer encodes to sRGB.
    srgb: bool,
    target: Option<ScaledTarget>,
    /// The window's size and the scene's at the last frame, pixels.
    window: [u32; 2],
    scene: [u32; 2],
}

impl RenderScale {
    /// Every pixel drawn, in a window of `samples` a pixel whose framebuffer is sRGB when
    /// `srgb`.
    pub fn new(samples: i32, srgb: bool) -> RenderScale {
        RenderScale {
            scale: 1.0,
            samples,
            srgb,
            target: None,
            window: [1, 1],
            scene: [1, 1],
        }
    }

    /// Draw `scale` of the window's pixels a side from the next frame.
    pub fn set(&mut self, scale: f32) {
        self.scale = scale;
    }

    /// The scene's pixels at the last frame.
    pub fn scene_pixels(&self) -> f64 {
        f64::from(self.scene[0]) * f64::from(self.scene[1])
    }

    /// Bind what the scene of a `window`-sized frame is drawn into, and return its size:
    /// the window's framebuffer, or a smaller one at a render scale under 1.
    pub fn bind(&mut self, gl: &glow::Context, window: [u32; 2]) -> [u32; 2] {
        self.window = window;
        self.scene = window;
        let size = scene_size(window, self.scale);
        if size == window {
            if let Some(t) = self.target.take() {
                t.delete(gl);
            }
            return window;
        }
        if let Some(t) = self.target.take_if(|t| t.size != size) {
            t.delete(gl);
        }
        if self.target.is_none() {
            match ScaledTarget::new(gl, size, self.samples, self.srgb) {
                Ok(t) => self.target = Some(t),
                Err(e) => {
                    // Drawn at the window's size; not asked again until the scale changes.
                    tell!("warning: render scale {}: {e}", self.scale);
                    self.scale = 1.0;
                    return window;
                }
            }
        }
        let target = self.target.as_ref().expect("made above");
        target.bind(gl);
        self.scene = size;
        size
    }

    /// At a render scale under 1, stretch the scene over the window; the window's
    /// framebuffer is bound after it either way.
    pub fn present(&self, gl: &glow::Context) {
        if let Some(t) = &self.target {
            t.present(gl, self.window);
        }
    }

    /// Give the target's GL objects back (the context current).
    pub fn delete(&mut self, gl: &glow::Context) {
        if let Some(t) = self.target.take() {
            t.delete(gl);
        }
    }
}

/// A framebuffer with a colour and a depth attachment of one size.
struct Target {
    framebuffer: glow::Framebuffer,
    /// A texture where it is single-sampled (the stretch samples it), else a renderbuffer.
    color: Color,
    depth: glow::Renderbuffer,
}

enum Color {
    Texture(glow::Texture),
    Renderbuffer(glow::Renderbuffer),
}

impl Target {
    /// A target of `size` with `samples` a pixel (0: one), its colour sRGB-encoded when
    /// `srgb` (as the window's framebuffer is then).
    fn new(
        gl: &glow::Context,
        [w, h]: [i32; 2],
        samples: i32,
        srgb: bool,
    ) -> Result<Target, String> {
        let color_format = if srgb {
            glow::SRGB8_ALPHA8
        } else {
            glow::RGBA8
        };
        // SAFETY: context current; each object made here is owned by the returned value
        // (deleted by `delete`), or deleted before an error returns.
        unsafe {
            let framebuffer = gl.create_framebuffer()?;
            let depth = gl.create_renderbuffer().inspect_err(|_| {
                gl.delete_framebuffer(framebuffer);
            })?;
            let color = if samples > 1 {
                gl.create_renderbuffer().map(Color::Renderbuffer)
            } else {
                gl.create_texture().map(Color::Texture)
            };
            let color = color.inspect_err(|_| {
                gl.delete_renderbuffer(depth);
                gl.delete_framebuffer(framebuffer);
            })?;
            let target = Target {
                framebuffer,
                color,
                depth,
            };
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            target.attach_color(gl, samples, color_format, [w, h]);
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(depth));
            gl.renderbuffer_storage_multisample(
                glow::RENDERBUFFER,
                samples.max(0),
                // With a stencil, as the window's own: mirrors mark their pixels in it.
                glow::DEPTH24_STENCIL8,
                w,
                h,
            );
            gl.bind_renderbuffer(glow::RENDERBUFFER, None);
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::DEPTH_STENCIL_ATTACHMENT,
                glow::RENDERBUFFER,
                Some(depth),
            );
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            if status != glow::FRAMEBUFFER_COMPLETE {
                target.delete(gl);
                return Err(format!(
                    "the driver cannot draw into a {w}x{h} offscreen framebuffer of {samples} samples (status {status:#x})"
                ));
            }
            Ok(target)
        }
    }

    /// Give the colour attachment storage of `size` in `format` (with `samples` a pixel
    /// where it is a renderbuffer; a texture is filtered linearly, clamped, one level) and
    /// attach it to the framebuffer, which is bound.
    fn attach_color(&self, gl: &glow::Context, samples: i32, color_format: u32, [w, h]: [i32; 2]) {
        // SAFETY: context current; the objects are owned by self, the framebuffer bound.
        unsafe {
            match self.color {
                Color::Renderbuffer(rb) => {
                    gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
                    gl.renderbuffer_storage_multisample(
                        glow::RENDERBUFFER,
                        samples,
                        color_format,
                        w,
                        h,
                    );
                    gl.framebuffer_renderbuffer(
                        glow::FRAMEBUFFER,
                        glow::COLOR_ATTACHMENT0,
                        glow::RENDERBUFFER,
                        Some(rb),
                    );
                }
                Color::Texture(t) => {
                    gl.bind_texture(glow::TEXTURE_2D, Some(t));
                    gl.tex_image_2d(
                        glow::TEXTURE_2D,
                        0,
                        color_format as i32,
                        w,
                        h,
                        0,
                        glow::RGBA,
                        glow::UNSIGNED_BYTE,
                        glow::PixelUnpackData::Slice(None),
                    );
                    for (name, value) in [
                        (glow::TEXTURE_MAX_LEVEL, 0),
                        (glow::TEXTURE_MIN_FILTER, glow::LINEAR),
                        (glow::TEXTURE_MAG_FILTER, glow::LINEAR),
                        (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                        (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
                    ] {
                        gl.tex_parameter_i32(glow::TEXTURE_2D, name, value as i32);
                    }
                    gl.bind_texture(glow::TEXTURE_2D, None);
                    gl.framebuffer_texture_2d(
                        glow::FRAMEBUFFER,
                        glow::COLOR_ATTACHMENT0,
                        glow::TEXTURE_2D,
                        Some(t),
                        0,
                    );
                }
            }
        }
    }

    fn delete(self, gl: &glow::Context) {
        // SAFETY: context current; the objects are owned by self, which is consumed.
        unsafe {
            gl.delete_framebuffer(self.framebuffer);
            match self.color {
                Color::Texture(t) => gl.delete_texture(t),
                Color::Renderbuffer(rb) => gl.delete_renderbuffer(rb),
            }
            gl.delete_renderbuffer(self.depth);
        }
    }
}

/// The program and (empty) vertex array that draw a texture over a multisampled window.
struct Stretch {
    program: glow::Program,
    vao: glow::VertexArray,
}

impl Stretch {
    fn new(gl: &glow::Context) -> Result<Stretch, String> {
        let program = gl::program(
            gl,
            ("shaders/stretch.vert", STRETCH_VERTEX),
            ("shaders/stretch.frag", STRETCH_FRAGMENT),
        )?;
        // SAFETY: context current; the program is deleted if the array cannot be made.
        let vao = unsafe { gl.create_vertex_array() }.inspect_err(|_| {
            // SAFETY: context current; the program was made above and is not used again.
            unsafe { gl.delete_program(program) };
        })?;
        Ok(Stretch { program, vao })
    }

    fn delete(self, gl: &glow::Context) {
        // SAFETY: context current; the objects are owned by self, which is consumed.
        unsafe {
            gl.delete_program(self.program);
            gl.delete_vertex_array(self.vao);
        }
    }
}

/// Where the scene is drawn at a render scale under 1.
struct ScaledTarget {
    /// Single-sampled: drawn into in a window of one sample a pixel; the resolve of
    /// `multisampled` in a multisampled one.
    single: Target,
    /// Of the window's samples, in a multisampled window.
    multisampled: Option<Target>,
    /// Draws `single` over a multisampled window.
    stretch: Option<Stretch>,
    /// Its size, pixels.
    size: [u32; 2],
    srgb: bool,
}

impl ScaledTarget {
    /// A target of `size` pixels for a window of `samples` a pixel (0 or 1: one); its
    /// colour is sRGB-encoded when `srgb`, as the window's framebuffer is then.
    fn new(
        gl: &glow::Context,
        size: [u32; 2],
        samples: i32,
        srgb: bool,
    ) -> Result<ScaledTarget, String> {
        let side = size.map(|s| s as i32);
        let mut target = ScaledTarget {
            single: Target::new(gl, side, 0, srgb)?,
            multisampled: None,
            stretch: None,
            size,
            srgb,
        };
        if samples > 1 {
            // Each part is owned by `target` as soon as it is made: an error gives back
            // what was made.
            let parts = Target::new(gl, side, samples, srgb)
                .map(|t| target.multisampled = Some(t))
                .and_then(|()| Stretch::new(gl))
                .map(|s| target.stretch = Some(s));
            if let Err(e) = parts {
                target.delete(gl);
                return Err(e);
            }
        }
        Ok(target)
    }

    /// Draw into it (and read its depth) from now on.
    fn bind(&self, gl: &glow::Context) {
        let target = self.multisampled.as_ref().unwrap_or(&self.single);
        // SAFETY: context current; the framebuffer is owned by self and complete.
        unsafe { gl.bind_framebuffer(glow::FRAMEBUFFER, Some(target.framebuffer)) };
    }

    /// Stretch it over the window's framebuffer (`window` pixels), filtered linearly, and
    /// draw into the window from now on. A blit copies the encoded values (sRGB encoding
    /// is off outside the scene's pass); the stretch into a multisampled window samples
    /// the sRGB texture as light and encodes it again.
    fn present(&self, gl: &glow::Context, window: [u32; 2]) {
        let [w, h] = self.size.map(|s| s as i32);
        let [ww, wh] = window.map(|s| s as i32);
        // SAFETY: context current; the framebuffers, texture, program and array are owned
        // by self; 0 is the window's framebuffer. State changed here is put back.
        unsafe {
            let (Some(ms), Some(stretch), Color::Texture(texture)) =
                (&self.multisampled, &self.stretch, &self.single.color)
            else {
                gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.single.framebuffer));
                gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, None);
                gl.blit_framebuffer(
                    0,
                    0,
                    w,
                    h,
                    0,
                    0,
                    ww,
                    wh,
                    glow::COLOR_BUFFER_BIT,
                    glow::LINEAR,
                );
                gl.bind_framebuffer(glow::FRAMEBUFFER, None);
                gl.viewport(0, 0, ww, wh);
                check_gl!(gl, "the render scale's stretch");
                return;
            };
            // Resolve the samples (same size), then draw the texture over the window.
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(ms.framebuffer));
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, Some(self.single.framebuffer));
            gl.blit_framebuffer(
                0,
                0,
                w,
                h,
                0,
                0,
                w,
                h,
                glow::COLOR_BUFFER_BIT,
                glow::NEAREST,
            );
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.viewport(0, 0, ww, wh);
            gl.disable(glow::DEPTH_TEST);
            gl.disable(glow::BLEND);
            if self.srgb {
                gl.enable(glow::FRAMEBUFFER_SRGB);
            }
            gl.use_program(Some(stretch.program));
            gl.bind_vertex_array(Some(stretch.vao));
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(*texture));
            gl.draw_arrays(glow::TRIANGLES, 0, 3);
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.bind_vertex_array(None);
            gl.use_program(None);
            gl.disable(glow::FRAMEBUFFER_SRGB);
            check_gl!(gl, "the render scale's stretch");
        }
    }

    /// Give its GL objects back (the context current).
    fn delete(self, gl: &glow::Context) {
        self.single.delete(gl);
        if let Some(t) = self.multisampled {
            t.delete(gl);
        }
        if let Some(s) = self.stretch {
            s.delete(gl);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scene_is_the_window_scaled_on_each_side_at_least_one_pixel() {
        assert_eq!(scene_size([1280, 720], 1.0), [1280, 720]);
        assert_eq!(scene_size([1280, 720], 0.5), [640, 360]);
        assert_eq!(scene_size([1280, 720], 0.75), [960, 540]);
        assert_eq!(scene_size([1281, 721], 0.5), [641, 361]);
        // Out of range or not a number: brought back, never a larger scene or none.
        assert_eq!(scene_size([1280, 720], 2.0), [1280, 720]);
        assert_eq!(scene_size([1280, 720], 0.0), [320, 180]);
        assert_eq!(scene_size([1280, 720], f32::NAN), [1280, 720]);
        assert_eq!(scene_size([1, 1], 0.25), [1, 1]);
        assert_eq!(scene_size([0, 0], 0.5), [1, 1]);
    }
}
