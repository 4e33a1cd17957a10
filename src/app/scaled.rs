//! Drawing the scene with fewer pixels than the window has (the settings' render scale):
//! an offscreen framebuffer a fraction of the window's size on each side, stretched over
//! the window with linear filtering before the HUD is drawn at the window's own size.
//!
//! On a software renderer a frame costs about its pixels (README, Performance: "Where a
//! frame's time goes now"), so a scale of 0.5 draws a quarter of them; games offer the
//! same trade as "resolution scale". The scene, its depth read for occlusion culling and
//! the collision view are drawn at the smaller size; the HUD, the minimap and the
//! notices stay sharp.

#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glow::HasContext;

use walkthrough::preferences::RENDER_SCALE_RANGE;

/// The scene's size, pixels, in a window of `window` pixels at render scale `scale`
/// (brought into [`RENDER_SCALE_RANGE`]): each side scaled, rounded to the nearest pixel,
/// at least one.
pub fn scene_size(window: [u32; 2], scale: f32) -> [u32; 2] {
    let scale = if scale.is_nan() {
        1.0
    } else {
        scale.clamp(*RENDER_SCALE_RANGE.start(), *RENDER_SCALE_RANGE.end())
    };
    window.map(|side| ((side as f32 * scale).round() as u32).clamp(1, side.max(1)))
}

/// An offscreen framebuffer the scene is drawn into: a colour buffer (sRGB where the
/// window's is) and a depth buffer, of one size.
pub struct ScaledTarget {
    framebuffer: glow::Framebuffer,
    color: glow::Renderbuffer,
    depth: glow::Renderbuffer,
    /// Its size, pixels.
    pub size: [u32; 2],
}

impl ScaledTarget {
    /// A target of `size` pixels; its colour is sRGB-encoded when `srgb` (as the window's
    /// framebuffer is then), so the stretch copies encoded values as they are.
    pub fn new(gl: &glow::Context, size: [u32; 2], srgb: bool) -> Result<ScaledTarget, String> {
        let [w, h] = size.map(|s| s as i32);
        let color_format = if srgb {
            glow::SRGB8_ALPHA8
        } else {
            glow::RGBA8
        };
        // SAFETY: context current; each object made here is deleted if a later step fails,
        // else owned by the returned value (deleted by `delete`).
        unsafe {
            let framebuffer = gl.create_framebuffer()?;
            let color = gl.create_renderbuffer().inspect_err(|_| {
                gl.delete_framebuffer(framebuffer);
            })?;
            let depth = gl.create_renderbuffer().inspect_err(|_| {
                gl.delete_renderbuffer(color);
                gl.delete_framebuffer(framebuffer);
            })?;
            let target = ScaledTarget {
                framebuffer,
                color,
                depth,
                size,
            };
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(color));
            gl.renderbuffer_storage(glow::RENDERBUFFER, color_format, w, h);
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(depth));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::DEPTH_COMPONENT24, w, h);
            gl.bind_renderbuffer(glow::RENDERBUFFER, None);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::RENDERBUFFER,
                Some(color),
            );
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::DEPTH_ATTACHMENT,
                glow::RENDERBUFFER,
                Some(depth),
            );
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            if status != glow::FRAMEBUFFER_COMPLETE {
                target.delete(gl);
                return Err(format!(
                    "the driver cannot draw into a {w}x{h} offscreen framebuffer (status {status:#x})"
                ));
            }
            Ok(target)
        }
    }

    /// Draw into it (and read its depth) from now on.
    pub fn bind(&self, gl: &glow::Context) {
        // SAFETY: context current; the framebuffer is owned by self and complete.
        unsafe { gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer)) };
    }

    /// Stretch it over the window's framebuffer (`window` pixels), filtered linearly, and
    /// draw into the window from now on. The copy is of the encoded values (sRGB
    /// encoding is off outside the scene's pass), so it neither decodes nor encodes.
    pub fn present(&self, gl: &glow::Context, window: [u32; 2]) {
        let [w, h] = self.size.map(|s| s as i32);
        let [ww, wh] = window.map(|s| s as i32);
        // SAFETY: context current; the framebuffer is owned by self; 0 is the window's.
        unsafe {
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.framebuffer));
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
        }
    }

    /// Give its GL objects back (the context current).
    pub fn delete(self, gl: &glow::Context) {
        // SAFETY: context current; the objects are owned by self, which is consumed.
        unsafe {
            gl.delete_framebuffer(self.framebuffer);
            gl.delete_renderbuffer(self.color);
            gl.delete_renderbuffer(self.depth);
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
