//! What is drawn over the scene besides it: the HUD and its notices (and the help), the
//! debug view's geometry (G), the minimap (N) and the Ctrl+O file browser.

use walkthrough_core::browse::Browser;

use super::debug_view::DebugView;
use super::ui::hud::Overlay;
use super::ui::minimap::Minimap;

/// The overlays: each shows or not, and keeps what it draws.
pub struct Overlays {
    /// The HUD, its notices and the help (F1).
    pub hud: Overlay,
    /// The debug view (G).
    pub debug: DebugView,
    /// The minimap (N).
    pub minimap: Minimap,
    /// The Ctrl+O file browser, while it shows.
    pub browser: Option<Browser>,
}

impl Overlays {
    /// Show the debug view (G), or hide it.
    pub fn toggle_debug(&mut self) {
        self.debug.on = !self.debug.on;
    }

    /// Show the minimap (N), or hide it.
    pub fn toggle_minimap(&mut self) {
        self.minimap.on = !self.minimap.on;
    }
}
