//! Each frame, the scene drawn again in each mirror in view: its pixels marked, the
//! scene, the movers, the decals and the walker's figure reflected into them (in first
//! person too: you see yourself), then its glass or its water over it, and the decals
//! stuck on the glass. A mirror out of the view, or seen edge-on, costs nothing; a water
//! surface seen from below reflects nothing and is drawn over what is above it.

use walkthrough_core::cull::Frustum;
use walkthrough_core::mirrors::Surface;
use walkthrough_core::player::Pose;

use crate::app::App;
use crate::app::render::{Cover, DebugGeometry, DecalView, WaterFrame};
use crate::app::water::WATER_SURFACE_MARGIN;

impl App {
    /// Draw each mirror in the view from `view` (`seen`: its matrix and fog, as the view's
    /// decals were drawn with) on a
    /// `width` x `height` window: its pixels marked, the scene, the decals and the
    /// figure reflected into them, the glass or the water over them; a water surface
    /// seen from below, over the scene. `time` (seconds) moves the ripples. Returns how
    /// many reflections were drawn.
    pub(in crate::app) fn draw_mirrors(
        &mut self,
        view: &Pose,
        seen: &DecalView,
        size: [u32; 2],
        time: f32,
    ) -> usize {
        let view_proj = seen.view_proj;
        if self.mirrors.is_empty() {
            return 0;
        }
        let frustum = Frustum::from_view_proj(view_proj);
        let mut figure = DebugGeometry::default();
        // In a mirror the figure is seen as others would see it: opaque.
        self.place_figure(1.0, &mut figure.solid);
        let Some(gpu) = &mut self.gpu else { return 0 };
        let mut drawn = 0;
        let mut copied = false;
        for (i, m) in self.mirrors.iter().enumerate() {
            if !frustum.sees(&m.bounds) {
                continue;
            }
            // The eye at the surface counts as under water (tinted): the surface, seen
            // edge-on and cut by the near plane, is not drawn.
            let height = m.normal.dot(view.position) - m.distance;
            if m.surface == Surface::Water && height.abs() < WATER_SURFACE_MARGIN {
                continue;
            }
            let clip = m.clip_plane(view.position);
            let water = WaterFrame {
                view_proj,
                eye: view.position,
                time,
                reflecting: clip.is_some(),
            };
            // What lies under the water, before a reflection covers it: once a frame.
            if m.surface == Surface::Water && !copied {
                gpu.water_surface.copy_below();
                copied = true;
            }
            let Some(clip) = clip else {
                if m.surface == Surface::Water {
                    (gpu.mirror_draw).water_without_reflection(i, &gpu.water_surface, &water);
                }
                continue;
            };
            let reflection = m.reflection();
            gpu.mirror_draw.mark(view_proj, i);
            gpu.renderer
                .draw_reflected(view, reflection, clip, size[0], size[1]);
            let reflected = DecalView {
                view_proj: view_proj * reflection,
                eye: reflection.transform_point3(view.position),
                fog: gpu.renderer.fog(),
                clip_plane: Some(clip),
            };
            gpu.decal_draw.draw(&reflected, &self.decals);
            gpu.debug_draw.draw(reflected.view_proj, &figure);
            let cover = match m.surface {
                Surface::Glass => Cover::Glass,
                Surface::Water => Cover::Water(&gpu.water_surface, &water),
            };
            gpu.mirror_draw.finish(view_proj, i, cover);
            // Decals stuck on the glass itself were drawn with the view before the
            // reflection covered them: again, over the glass only.
            gpu.mirror_draw.only_marked(true);
            gpu.decal_draw.draw(seen, &self.decals);
            gpu.mirror_draw.only_marked(false);
            drawn += 1;
        }
        drawn
    }
}
