//! The window and its OpenGL 3.3 core context (glutin + glutin-winit), one owner.
#![allow(unsafe_code)] // creating a GL context and loading its functions is unsafe by nature

use std::ffi::CString;
use std::num::NonZeroU32;
use std::sync::Arc;

use glutin::config::{ConfigTemplateBuilder, GlConfig};
use glutin::context::{
    ContextApi, ContextAttributes, ContextAttributesBuilder, GlProfile, NotCurrentContext,
    NotCurrentGlContext, PossiblyCurrentContext, Version,
};
use glutin::display::{Display, GetGlDisplay, GlDisplay};
use glutin::surface::{GlSurface, Surface, SurfaceAttributesBuilder, SwapInterval, WindowSurface};
use glutin_winit::{DisplayBuilder, GlWindow};
use raw_window_handle::{HasWindowHandle, RawWindowHandle};
use winit::event_loop::ActiveEventLoop;
use winit::window::{Window, WindowAttributes};

/// A window with a current GL context. Drop order: surface and context before the window.
pub struct GlWindowContext {
    /// The surface drawn into.
    pub surface: Surface<WindowSurface>,
    /// The current context.
    pub context: PossiblyCurrentContext,
    /// The glow function table.
    pub gl: Arc<glow::Context>,
    /// "OpenGL 4.5 (Core Profile) Mesa ..., llvmpipe; sRGB framebuffer" and the like.
    pub description: String,
    /// The framebuffer encodes linear colour to sRGB when `FRAMEBUFFER_SRGB` is on.
    pub srgb: bool,
    /// The GL draws on the CPU (Mesa's llvmpipe or softpipe, or another software
    /// rasterizer): costly filtering is left off by default.
    pub software: bool,
    /// The window (dropped last).
    pub window: Window,
}

impl GlWindowContext {
    /// Create the window and a GL 3.3 core context with a depth buffer, sRGB-capable where
    /// the driver offers it, with `msaa` samples a pixel (0: none); a warning says so
    /// when the display has no such framebuffer and the user asked for it (`msaa_asked`).
    pub fn new(
        event_loop: &ActiveEventLoop,
        attributes: WindowAttributes,
        vsync: bool,
        msaa: u8,
        msaa_asked: bool,
    ) -> Result<GlWindowContext, String> {
        // A stencil marks a mirror's pixels (see app/render/mirror_draw.rs).
        let template = |samples: u8| {
            let t = ConfigTemplateBuilder::new()
                .with_depth_size(24)
                .with_stencil_size(8);
            if samples > 0 {
                t.with_multisampling(samples)
            } else {
                t
            }
        };
        let build = |samples: u8| {
            DisplayBuilder::new()
                .with_window_attributes(Some(attributes.clone()))
                .build(event_loop, template(samples), |configs| {
                    // The samples asked for (no multisampling cost unasked), else the
                    // most under them; then a stencil, then sRGB, then the most depth bits.
                    configs
                        .max_by_key(|c| {
                            let stencil = c.stencil_size() >= 8;
                            let under = if c.num_samples() <= msaa {
                                c.num_samples()
                            } else {
                                0
                            };
                            (
                                c.num_samples() == msaa,
                                under,
                                stencil,
                                c.srgb_capable(),
                                c.depth_size(),
                            )
                        })
                        .expect("glutin offers at least one config")
                })
        };
        // A display with no framebuffer of that many samples offers no config at all for
        // the template (`--msaa 8` on llvmpipe, whose most is 4, would not open): then
        // any, the most samples under those asked chosen, and a warning says so.
        let (window, config) = build(msaa)
            .or_else(|e| if msaa > 0 { build(0) } else { Err(e) })
            .map_err(|e| format!("cannot create a window with OpenGL: {e}"))?;
        let window = window.ok_or("the window could not be created")?;
        let raw = window
            .window_handle()
            .map_err(|e| format!("no window handle: {e}"))?
            .as_raw();
        let display = config.display();
        // SAFETY: the raw window handle comes from the live `window` owned by this struct.
        let not_current = unsafe { display.create_context(&config, &core_context(Some(raw))) }
            .map_err(|e| format!("OpenGL 3.3 core is not available: {e}"))?;
        let srgb = config.srgb_capable();
        let samples = config.num_samples();
        if samples != msaa && msaa_asked {
            tell!(
                "warning: no {msaa}x multisampled framebuffer here; drawing with {samples} samples a pixel"
            );
        }
        let surface_attrs = window
            .build_surface_attributes(SurfaceAttributesBuilder::new().with_srgb(Some(srgb)))
            .map_err(|e| format!("cannot describe the window surface: {e}"))?;
        // SAFETY: as above, the window outlives the surface (field order).
        let surface = unsafe { display.create_window_surface(&config, &surface_attrs) }
            .map_err(|e| format!("cannot create the window surface: {e}"))?;
        let context = not_current
            .make_current(&surface)
            .map_err(|e| format!("cannot make the context current: {e}"))?;
        if let Err(e) = set_vsync(&surface, &context, vsync) {
            tell!("warning: {e}");
        }
        // SAFETY: the context is current on this thread.
        let gl = unsafe { load_gl(&display) };
        let renderer = {
            use glow::HasContext;
            // SAFETY: a plain string query on the current context.
            unsafe { gl.get_parameter_string(glow::RENDERER) }
        };
        let software = is_software(&renderer);
        let description = {
            use glow::HasContext;
            // SAFETY: plain string queries on the current context.
            unsafe {
                format!(
                    "OpenGL {}, {}; {} framebuffer{}",
                    gl.get_parameter_string(glow::VERSION),
                    renderer,
                    if srgb { "sRGB" } else { "plain (no sRGB)" },
                    if samples > 0 {
                        format!(", {samples}x MSAA")
                    } else {
                        String::new()
                    }
                )
            }
        };
        Ok(GlWindowContext {
            surface,
            context,
            gl: Arc::new(gl),
            description,
            srgb,
            software,
            window,
        })
    }

    /// Resize the surface; zero sizes (minimised windows) are ignored.
    pub fn resize(&self, width: u32, height: u32) {
        if let (Some(w), Some(h)) = (NonZeroU32::new(width), NonZeroU32::new(height)) {
            self.surface.resize(&self.context, w, h);
        }
    }

    /// Turn vsync on or off (the settings panel).
    pub fn set_vsync(&self, on: bool) -> Result<(), String> {
        set_vsync(&self.surface, &self.context, on)
    }

    /// Present the frame.
    pub fn swap(&self) -> Result<(), String> {
        self.surface
            .swap_buffers(&self.context)
            .map_err(|e| format!("swap failed: {e}"))
    }
}

/// Wait for the display's refresh before showing a frame, or not.
fn set_vsync(
    surface: &Surface<WindowSurface>,
    context: &PossiblyCurrentContext,
    on: bool,
) -> Result<(), String> {
    let interval = if on {
        SwapInterval::Wait(NonZeroU32::MIN)
    } else {
        SwapInterval::DontWait
    };
    surface
        .set_swap_interval(context, interval)
        .map_err(|e| format!("cannot set vsync {}: {e}", if on { "on" } else { "off" }))
}

/// The attributes of the context every window asks for: OpenGL 3.3 core, for the window
/// `raw` (none: a context with no window).
fn core_context(raw: Option<RawWindowHandle>) -> ContextAttributes {
    ContextAttributesBuilder::new()
        .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
        .with_profile(GlProfile::Core)
        .build(raw)
}

/// The glow function table of `display`'s current context.
///
/// # Safety
/// A context of `display` must be current on this thread.
unsafe fn load_gl(display: &Display) -> glow::Context {
    // SAFETY: the caller's; the loader returns the current context's functions.
    unsafe {
        glow::Context::from_loader_function(|s| {
            let s = CString::new(s).expect("GL function names have no NUL");
            display.get_proc_address(&s)
        })
    }
}

/// The words in a renderer's name (`GL_RENDERER`, lower case) that say it draws on the
/// CPU: Mesa's llvmpipe, softpipe and swrast, and others that call themselves so.
const SOFTWARE_RENDERERS: [&str; 4] = ["llvmpipe", "softpipe", "swrast", "software"];

/// Whether the renderer called `renderer` (`GL_RENDERER`) draws on the CPU.
fn is_software(renderer: &str) -> bool {
    let renderer = renderer.to_lowercase();
    SOFTWARE_RENDERERS.iter().any(|s| renderer.contains(s))
}

/// Whether the GL here draws on the CPU, asked before the window is made (whose
/// framebuffer's samples must be chosen with it) of a context with no window, so that
/// nothing shows; `None` where no such context can be made (then the caller assumes the
/// cheaper choice).
pub fn probe_software(event_loop: &ActiveEventLoop) -> Option<bool> {
    let (_, config) = DisplayBuilder::new()
        .build(event_loop, ConfigTemplateBuilder::new(), |mut configs| {
            configs.next().expect("glutin offers at least one config")
        })
        .ok()?;
    let display = config.display();
    // SAFETY: a context with no window; it lives until the end of this function.
    let not_current = unsafe { display.create_context(&config, &core_context(None)) }.ok()?;
    let _current = match not_current {
        // (glutin's own conditions for each of its back ends)
        #[cfg(not(any(target_vendor = "apple", target_family = "wasm")))]
        NotCurrentContext::Egl(c) => {
            PossiblyCurrentContext::Egl(c.make_current_surfaceless().ok()?)
        }
        #[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
        NotCurrentContext::Glx(c) => {
            PossiblyCurrentContext::Glx(c.make_current_surfaceless().ok()?)
        }
        #[allow(unreachable_patterns)]
        _ => return None,
    };
    // SAFETY: the context is current on this thread.
    let renderer = unsafe {
        use glow::HasContext;
        load_gl(&display).get_parameter_string(glow::RENDERER)
    };
    Some(is_software(&renderer))
}
