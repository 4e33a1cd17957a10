//! Mirrors in the window: the map's mirror materials (a scene's `mirror = [...]`,
//! `--mirror NAME`) found by plane at each load ([`walkthrough_core::mirrors`]), and the
//! scene's water surfaces with them; each frame the scene drawn again in each mirror in
//! view ([`reflections`]).

mod reflections;

use walkthrough_core::mirrors::{find_mirrors, water_surfaces};
use walkthrough_core::text::wording::some_of;

use super::App;

/// Materials a `--mirror` that names none of them lists at most.
const MATERIALS_NAMED: usize = 12;

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
                // Which names there are (of the materials drawn): a user has no other way
                // to them than the MTL.
                let mut names: Vec<String> = map
                    .batches
                    .iter()
                    .filter_map(|b| map.materials.get(b.material))
                    .map(|m| m.name.clone())
                    .collect();
                names.sort();
                names.dedup();
                self.overlays.hud.notify(format!(
                    "warning: --mirror {}: the map has no material of that name (its materials: {})",
                    walkthrough_core::text::quote::quote(name),
                    some_of(&names, MATERIALS_NAMED)
                ));
            }
        }
        self.mirrors = find_mirrors(map);
        self.mirrors.extend(water_surfaces(&self.sim.session.water));
        if let Some(gpu) = &mut self.gpu {
            gpu.mirror_draw.upload(&self.mirrors);
        }
    }
}
