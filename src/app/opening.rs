//! The window opened: at the saved size within the screen (or `--size`), its GL context
//! (vsync, multisampling), the renderer with the map uploaded, the drawers beside it and
//! egui.

use std::time::Instant;

use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event_loop::ActiveEventLoop;
use winit::window::{Fullscreen, Window, WindowAttributes};

use walkthrough_core::cull::{CLUSTER_TRIANGLES, cluster_map};

use super::preferences::{ScreenRect, opening_on};
use super::render::{
    Culling, DebugDraw, DecalDraw, GlWindowContext, MirrorDraw, Renderer, WaterSurface,
    probe_software,
};
use super::{App, Gpu};

/// Anisotropic filtering on a GPU, unless `--anisotropy` says otherwise.
const DEFAULT_ANISOTROPY: f32 = 8.0;
/// Multisampled antialiasing on a GPU, samples a pixel, unless `--msaa` says otherwise.
const DEFAULT_GPU_MSAA: u8 = 4;
const _: () = assert!(DEFAULT_GPU_MSAA > 1, "a GPU's default must antialias");

/// The samples a pixel when `--msaa` is not given, for a GL that draws on the CPU or not
/// (`None`: not known). A software rasterizer pays for 4x about what drawing 4 times
/// costs (the built-in map's frame 3x on llvmpipe); a GPU hardly notices, and edges
/// without it crawl as the view moves.
fn default_msaa(software: Option<bool>) -> u8 {
    match software {
        Some(false) => DEFAULT_GPU_MSAA,
        Some(true) | None => 0,
    }
}

/// The window's egui, with scroll bars that show: egui's floating ones are invisible
/// until hovered, and the settings panel cut off at 720 pixels gave no sign that it
/// scrolls to its last rows.
fn new_egui(
    event_loop: &ActiveEventLoop,
    gl: &std::sync::Arc<glow::Context>,
) -> egui_glow::EguiGlow {
    let egui = egui_glow::EguiGlow::new(event_loop, gl.clone(), None, None, true);
    egui.egui_ctx
        .all_styles_mut(|s| s.spacing.scroll = egui::style::ScrollStyle::solid());
    egui
}

impl App {
    /// Open the window and make its GL objects; an error quits with it.
    pub(super) fn open_window(&mut self, event_loop: &ActiveEventLoop) {
        #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
        {
            use winit::platform::x11::ActiveEventLoopExtX11;
            self.input.x11 = event_loop.is_x11();
        }
        let attrs = self.window_attributes(event_loop);
        let vsync = self.prefs.live.vsync && self.config.window.bench_frames.is_none();
        let msaa = self
            .config
            .window
            .msaa
            .unwrap_or_else(|| default_msaa(probe_software(event_loop)));
        let asked = self.config.window.msaa.is_some();
        let ctx = match GlWindowContext::new(event_loop, attrs, vsync, msaa, asked) {
            Ok(c) => c,
            Err(e) => return self.life.fail(event_loop, e),
        };
        tell!("{}", ctx.description);
        self.warn_past_screen(&ctx.window);
        // On a software rasterizer, 8x anisotropic filtering doubled lost_empire's frame.
        let anisotropy = match self.config.window.anisotropy {
            Some(a) => f32::from(a),
            None if ctx.software => {
                tell!(
                    "software rendering: anisotropic filtering off (--anisotropy 8 turns it on), no antialiasing unless --msaa; a render scale under 1 (F2, --render-scale) draws fewer pixels, faster"
                );
                1.0
            }
            None => DEFAULT_ANISOTROPY,
        };
        let upload = Instant::now();
        let mesh = cluster_map(&self.sim.session.map, CLUSTER_TRIANGLES);
        // Before the upload, whose copy would otherwise be made beside them.
        self.release_drawn_map();
        let mut renderer = match Renderer::new(
            ctx.gl.clone(),
            &self.sim.session.map,
            mesh,
            ctx.srgb && !self.config.window.no_srgb,
            anisotropy,
            self.sim.controller.view_pose().position,
        ) {
            Ok(r) => r,
            Err(e) => return self.life.fail(event_loop, e),
        };
        tell!(
            "clustered and uploaded to the GPU in {:.0} ms ({} clusters)",
            upload.elapsed().as_secs_f64() * 1e3,
            renderer.clusters()
        );
        renderer.set_preferences(&self.prefs.live, ctx.software);
        renderer.count_fragments(self.config.window.bench_frames.is_some());
        let wanted = self
            .config
            .window
            .culling()
            .unwrap_or(Culling::default_for(ctx.software));
        let used = renderer.set_culling(wanted);
        if used != wanted {
            tell!(
                "culling: frustum (occlusion culling reads a depth of one sample a pixel, and this framebuffer is multisampled)"
            );
        } else if self.config.window.culling().is_none() && used == Culling::Frustum {
            tell!(
                "culling: frustum (a GPU draws hidden layers faster than it waits for a depth read; --culling occlusion)"
            );
        }
        let mut drawers = match Drawers::new(&ctx.gl, anisotropy) {
            Ok(d) => d,
            Err(e) => return self.life.fail(event_loop, e),
        };
        drawers.mirror_draw.upload(&self.mirrors);
        let egui = new_egui(event_loop, &ctx.gl);
        ctx.window.request_redraw();
        self.gpu = Some(Gpu {
            egui,
            debug_draw: drawers.debug_draw,
            decal_draw: drawers.decal_draw,
            mirror_draw: drawers.mirror_draw,
            water_surface: drawers.water_surface,
            renderer,
            ctx,
        });
        self.life.started = Instant::now();
        self.sim.start();
        if self.config.window.record.is_some() {
            self.sim.start_recording(&self.recording_about());
        }
    }

    /// Warn of a window larger than the screen (not fullscreen): it is drawn whole, off
    /// the screen's edge (16384 x 16384 took 4.3 GB and a 306 MB screenshot, said by
    /// nothing).
    fn warn_past_screen(&mut self, window: &Window) {
        let Some(screen) = window.current_monitor().map(|m| m.size()) else {
            return;
        };
        let [w, h] = self.prefs.live.window_size;
        if !self.config.window.fullscreen && (w > screen.width || h > screen.height) {
            self.overlays.hud.notify(format!(
                "warning: the window {w}x{h} is larger than the screen ({}x{}): it reaches past the screen's edge, and its {:.1} million pixels are drawn (and saved) whole",
                screen.width,
                screen.height,
                f64::from(w) * f64::from(h) / 1e6
            ));
        }
    }

    /// A saved window size larger than the screen (saved before the panel kept sizes
    /// within it, or written by hand) opens wholly on the screen (see [`opening_on`]);
    /// `--size` is taken as given (and warned of: see `warn_past_screen`). Returns where
    /// the window is placed, if it is.
    fn fit_saved_size(&mut self, event_loop: &ActiveEventLoop) -> Option<[i32; 2]> {
        // Fullscreen too: F11 gives the window back at this size.
        if self.config.window.size.is_some() {
            return None;
        }
        // X11 without a primary output (Xvfb) names none: then the first screen.
        let screen = event_loop
            .primary_monitor()
            .or_else(|| event_loop.available_monitors().next())
            .map(|m| ScreenRect {
                origin: [m.position().x, m.position().y],
                size: [m.size().width, m.size().height],
            });
        let saved = self.prefs.live.window_size;
        let fit = opening_on(saved, screen);
        if fit.size != saved {
            self.overlays.hud.notify(format!(
                "the saved window size {}x{} is larger than the screen: opened at {}x{}",
                saved[0], saved[1], fit.size[0], fit.size[1]
            ));
            self.prefs.live.window_size = fit.size;
        }
        fit.position
    }

    /// The window to open: titled with the map, at the saved size (or `--size`), within
    /// the screen (see [`App::fit_saved_size`]), fullscreen if asked.
    fn window_attributes(&mut self, event_loop: &ActiveEventLoop) -> WindowAttributes {
        let placed = self.fit_saved_size(event_loop);
        let [w, h] = self.prefs.live.window_size;
        let attrs = Window::default_attributes()
            .with_title(format!("walkthrough - {}", self.sim.session.map.name))
            .with_inner_size(PhysicalSize::new(w, h))
            .with_fullscreen(
                self.config
                    .window
                    .fullscreen
                    .then_some(Fullscreen::Borderless(None)),
            );
        match placed {
            Some([x, y]) => attrs.with_position(PhysicalPosition::new(x, y)),
            None => attrs,
        }
    }
}

/// The GL objects drawn beside the scene's: the overlay, the decals, the mirrors and the
/// water's surface.
struct Drawers {
    debug_draw: DebugDraw,
    decal_draw: DecalDraw,
    mirror_draw: MirrorDraw,
    water_surface: WaterSurface,
}

impl Drawers {
    /// Make each (the first that cannot be made is the error); the decals are sampled
    /// with the map's `anisotropy`.
    fn new(gl: &std::sync::Arc<glow::Context>, anisotropy: f32) -> Result<Drawers, String> {
        Ok(Drawers {
            debug_draw: DebugDraw::new(gl.clone())?,
            decal_draw: DecalDraw::new(gl.clone(), anisotropy)?,
            mirror_draw: MirrorDraw::new(gl.clone())?,
            water_surface: WaterSurface::new(gl.clone())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multisampling_is_on_by_default_only_where_the_gl_is_known_to_be_a_gpu() {
        assert_eq!(default_msaa(Some(false)), DEFAULT_GPU_MSAA);
        assert_eq!(default_msaa(Some(true)), 0);
        // No context could be asked: the choice that costs a software renderer nothing.
        assert_eq!(default_msaa(None), 0);
    }
}
