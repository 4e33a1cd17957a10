//! Ctrl+O: the file browser opened in the window, its keys, and the map it opens (loaded
//! as a dropped file is, through the loading screen; Esc during the load keeps the map
//! walked). The listing and the keys' meaning are [`walkthrough_core::browse`]'s; the drawing
//! is `ui::browser`'s.

use std::path::{Path, PathBuf};

use walkthrough_core::browse::{BrowseKey, Browser};
use winit::keyboard::KeyCode;

use super::App;
use super::loading::Purpose;

/// The browser's meaning of `key`, if it has one (held arrows repeat; Enter does not).
fn browse_key(key: KeyCode, repeat: bool) -> Option<BrowseKey> {
    match key {
        KeyCode::ArrowUp => Some(BrowseKey::Up),
        KeyCode::ArrowDown => Some(BrowseKey::Down),
        KeyCode::Backspace => Some(BrowseKey::Parent),
        KeyCode::Enter | KeyCode::NumpadEnter if !repeat => Some(BrowseKey::Enter),
        _ => None,
    }
}

impl App {
    /// Show the browser in the current map's folder (the working folder for the built-in
    /// map), the recent maps at its top; the mouse is freed to click in it.
    pub(super) fn open_browser(&mut self) {
        let folder = self
            .config
            .map
            .as_deref()
            .and_then(Path::parent)
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        let folder = std::path::absolute(&folder).unwrap_or(folder);
        // It replaces the help, as F1 and F2 replace each other.
        self.overlays.hud.help = false;
        self.input.keys.clear();
        self.set_capture(false);
        self.overlays.browser = Some(Browser::new(&folder, self.memory.store.recent_maps()));
    }

    /// A key pressed while the browser shows: the keyboard is the browser's. Esc closes
    /// it; F12 still saves a screenshot.
    pub(super) fn browser_key(&mut self, key: KeyCode, repeat: bool) {
        match key {
            KeyCode::Escape if !repeat => self.overlays.browser = None,
            KeyCode::F12 if !repeat => self.shots.take_f12(),
            _ => {
                let chosen = browse_key(key, repeat)
                    .and_then(|k| self.overlays.browser.as_mut().and_then(|b| b.press(k)));
                if let Some(map) = chosen {
                    self.open_chosen(map);
                }
            }
        }
    }

    /// A row of the browser clicked: opened as Enter opens it.
    pub(super) fn browser_clicked(&mut self, row: usize) {
        if let Some(map) = self.overlays.browser.as_mut().and_then(|b| b.open(row)) {
            self.open_chosen(map);
        }
    }

    /// Load the map chosen in the browser, as a dropped file is loaded.
    fn open_chosen(&mut self, map: PathBuf) {
        self.overlays.browser = None;
        self.load_in_background(Some(map), Purpose::Open);
    }

    /// Put the map walked first in the recent list (kept in the settings file).
    pub(super) fn note_recent(&mut self) {
        let Some(map) = self.config.map.clone() else {
            return;
        };
        if let Err(e) = self.memory.store.note_opened(&map) {
            self.overlays
                .hud
                .notify(format!("warning: the recent maps are not saved: {e}"));
        }
    }
}
