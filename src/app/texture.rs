//! Textures on the GPU: upload with mipmaps, sRGB when the framebuffer is, filtered
//! anisotropically where the driver can.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glow::HasContext;

use walkthrough::map::TextureImage;

use super::gl::check_gl;

/// The most anisotropy the driver filters with (GL 4.6, or the ARB or EXT extension),
/// else 1 (none).
pub(super) fn max_anisotropy(gl: &glow::Context) -> f32 {
    let v = gl.version();
    let ext = gl.supported_extensions();
    if (v.major, v.minor) >= (4, 6)
        || ext.contains("GL_ARB_texture_filter_anisotropic")
        || ext.contains("GL_EXT_texture_filter_anisotropic")
    {
        // SAFETY: a plain query on the current context.
        let max = unsafe { gl.get_parameter_f32(glow::MAX_TEXTURE_MAX_ANISOTROPY) };
        max.max(1.0)
    } else {
        1.0
    }
}

/// Upload an RGBA image with mipmaps (filtered trilinearly, and anisotropically up to
/// `anisotropy`), as sRGB texels when `srgb`.
pub(super) fn upload_texture(
    gl: &glow::Context,
    img: &TextureImage,
    srgb: bool,
    anisotropy: f32,
) -> Result<glow::Texture, String> {
    // SAFETY: context current; the pixel slice is the image's, width * height * 4 bytes.
    unsafe {
        let t = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_2D, Some(t));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            if srgb {
                glow::SRGB8_ALPHA8
            } else {
                glow::RGBA8
            } as i32,
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
        if anisotropy > 1.0 {
            gl.tex_parameter_f32(glow::TEXTURE_2D, glow::TEXTURE_MAX_ANISOTROPY, anisotropy);
        }
        gl.bind_texture(glow::TEXTURE_2D, None);
        Ok(t)
    }
}
