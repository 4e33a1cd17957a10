//! Mirrors in the window: the map's mirror materials (a scene's `mirror = [...]`,
//! `--mirror NAME`) found by plane at each load ([`walkthrough::mirrors`]), and each
//! frame the scene drawn again in each mirror in view, the walker's figure with it (in
//! first person too: you see yourself). A mirror out of the view, or seen edge-on, costs
//! nothing.

use glam::Mat4;
use walkthrough::cull::Frustum;
use walkthrough::mirrors::find_mirrors;
use walkthrough::player::Pose;

use super::App;
use super::render::DebugGeometry;

impl App {
    /// Find the mirrors of the map now open: the materials `--mirror` names made
    /// mirrors (a name no material has is said once), then gathered by plane.
    pub(super) fn find_mirrors(&mut self) {
        let map = &mut self.sim.session.map;
        for name in &self.config.window.mirror {
            let mut found = false;
            for m in map.materials.iter_mut().filter(|m| &m.name == name) {
                m.mirror = true;
                found = true;
            }
            if !found {
                self.overlay.notify(format!(
                    "--mirror {}: the map has no material of that name",
                    walkthrough::quote::quote(name)
                ));
            }
        }
        self.mirrors = find_mirrors(map);
        if let Some(gpu) = &mut self.gpu {
            gpu.mirror_draw.upload(&self.mirrors);
        }
    }

    /// Draw each mirror in the view from `view` (`view_proj` its matrix) on a
    /// `width` x `height` window: its pixels marked, the scene and the figure reflected
    /// into them, the glass over them. Returns how many mirrors were drawn.
    pub(super) fn draw_mirrors(&mut self, view: &Pose, view_proj: Mat4, size: [u32; 2]) -> usize {
        if self.mirrors.is_empty() {
            return 0;
        }
        let frustum = Frustum::from_view_proj(view_proj);
        let mut figure = DebugGeometry::default();
        self.place_figure(&mut figure.solid);
        let Some(gpu) = &mut self.gpu else { return 0 };
        let mut drawn = 0;
        for (i, m) in self.mirrors.iter().enumerate() {
            let Some(clip) = m.clip_plane(view.position) else {
                continue;
            };
            if !frustum.sees(&m.bounds) {
                continue;
            }
            let reflection = m.reflection();
            gpu.mirror_draw.mark(view_proj, i);
            gpu.renderer
                .draw_reflected(view, reflection, clip, size[0], size[1]);
            gpu.debug_draw.draw(view_proj * reflection, &figure);
            gpu.mirror_draw.finish(view_proj, i);
            drawn += 1;
        }
        drawn
    }
}
