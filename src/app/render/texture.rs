//! Textures on the GPU: upload with mipmaps, sRGB when the framebuffer is, filtered
//! anisotropically where the driver can.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glow::HasContext;

use walkthrough_core::map::TextureImage;
use walkthrough_core::preferences::TextureFilter;

use super::gl::check_gl;

/// The most anisotropy the driver filters with (GL 4.6, or the ARB or EXT extension),
/// else 1 (none).
pub fn max_anisotropy(gl: &glow::Context) -> f32 {
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

/// How a texture is sampled: its filter, and the anisotropy its filter is drawn with
/// (1: none; the driver's maximum caps it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    pub filter: TextureFilter,
    pub anisotropy: f32,
}

/// The GL's minifying and magnifying filters for a [`TextureFilter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GlFilters {
    min: u32,
    mag: u32,
}

impl GlFilters {
    fn of(filter: TextureFilter) -> GlFilters {
        match filter {
            TextureFilter::Trilinear => GlFilters {
                min: glow::LINEAR_MIPMAP_LINEAR,
                mag: glow::LINEAR,
            },
            TextureFilter::Bilinear => GlFilters {
                min: glow::LINEAR_MIPMAP_NEAREST,
                mag: glow::LINEAR,
            },
            TextureFilter::Nearest => GlFilters {
                min: glow::NEAREST_MIPMAP_NEAREST,
                mag: glow::NEAREST,
            },
        }
    }
}

/// Sample texture `t` as `sampling` says (it is bound, and left unbound).
pub fn set_sampling(gl: &glow::Context, t: glow::Texture, sampling: Sampling) {
    let f = GlFilters::of(sampling.filter);
    // Anisotropy blends texels along the view, which pixel art drawn nearest does not
    // want.
    let anisotropy = match sampling.filter {
        TextureFilter::Nearest => 1.0,
        _ => sampling.anisotropy,
    };
    // SAFETY: context current; `t` is a live texture of this context.
    unsafe {
        gl.bind_texture(glow::TEXTURE_2D, Some(t));
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, f.min as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, f.mag as i32);
        if max_anisotropy(gl) > 1.0 {
            gl.tex_parameter_f32(glow::TEXTURE_2D, glow::TEXTURE_MAX_ANISOTROPY, anisotropy);
        }
        gl.bind_texture(glow::TEXTURE_2D, None);
    }
}

/// Upload an RGBA image with mipmaps, sampled as `sampling` says, as sRGB texels when
/// `srgb`.
pub fn upload_texture(
    gl: &glow::Context,
    img: &TextureImage,
    srgb: bool,
    sampling: Sampling,
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
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_S, glow::REPEAT as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_T, glow::REPEAT as i32);
        set_sampling(gl, t, sampling);
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_filter_has_its_own_gl_filters_and_only_trilinear_blends_the_levels() {
        let all = TextureFilter::ALL.map(GlFilters::of);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
        let blends_levels = |f: GlFilters| f.min == glow::LINEAR_MIPMAP_LINEAR;
        assert!(blends_levels(GlFilters::of(TextureFilter::Trilinear)));
        assert!(!blends_levels(GlFilters::of(TextureFilter::Bilinear)));
        assert_eq!(GlFilters::of(TextureFilter::Nearest).mag, glow::NEAREST);
        assert_eq!(GlFilters::of(TextureFilter::Bilinear).mag, glow::LINEAR);
    }
}
