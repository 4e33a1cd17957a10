//! The Ctrl+O file browser: the recent maps, then the folder's folders and maps, the
//! chosen row highlighted; a click opens a row as Enter does.

use std::path::PathBuf;

use egui::{Align2, RichText};
use walkthrough_core::browse::{Browser, EntryKind};

/// Pixels kept free above and below the browser in a small window (the HUD's first line
/// and the notices stay in sight).
const BROWSER_CLEARANCE: f32 = 80.0;
/// The browser's width, pixels (narrower windows get their own width less a margin).
const BROWSER_WIDTH: f32 = 560.0;
/// Pixels left on each side of the browser in a window narrower than it.
const BROWSER_MARGIN: f32 = 16.0;

/// Draw `browser`; returns the row clicked, if one was.
pub fn draw(browser: &Browser, ctx: &egui::Context) -> Option<usize> {
    let screen = ctx.content_rect();
    let width = BROWSER_WIDTH.min(screen.width() - 2.0 * BROWSER_MARGIN);
    let mut clicked = None;
    let newly_chosen = ctx.data_mut(|d| {
        let id = egui::Id::unique("browser chosen row");
        let before = d.get_temp::<(PathBuf, usize)>(id);
        let now = (browser.listing.folder.clone(), browser.selected);
        let changed = before.as_ref() != Some(&now);
        d.insert_temp(id, now);
        changed
    });
    egui::Window::new("Open a map")
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .fixed_size([width, screen.height() - 2.0 * BROWSER_CLEARANCE])
        .show(ctx, |ui| {
            ui.label(
                RichText::new(
                    "arrows choose, Enter opens, Backspace: the parent folder, Esc closes",
                )
                .small(),
            );
            ui.label(RichText::new(browser.listing.folder.display().to_string()).strong());
            if let Some(e) = &browser.error {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    let rows = browser.rows();
                    for (i, row) in rows.iter().enumerate() {
                        if i == browser.recent.len() && i > 0 {
                            ui.separator();
                        }
                        let text = match (row.recent, row.kind) {
                            (true, _) => RichText::new(&row.label).italics(),
                            (false, EntryKind::Folder) => RichText::new(&row.label).strong(),
                            (false, EntryKind::Map) => RichText::new(&row.label),
                        };
                        let chosen = i == browser.selected;
                        let response = ui.selectable_label(chosen, text);
                        // Scrolled to when the keys choose it, not every frame (the wheel
                        // scrolls freely meanwhile).
                        if chosen && newly_chosen {
                            response.scroll_to_me(None);
                        }
                        if response.clicked() {
                            clicked = Some(i);
                        }
                    }
                    if browser.listing.left_out > 0 {
                        ui.label(format!("and {} more not listed", browser.listing.left_out));
                    }
                });
        });
    clicked
}
