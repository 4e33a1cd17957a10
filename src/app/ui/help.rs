//! The help overlay (F1): the controls table ([`CONTROLS`]) at the centre of the window,
//! its text sized so that every row shows.

use egui::{Align2, Color32, RichText};

use crate::app::controls::CONTROLS;

/// How the controls table fits a window: its text size, and the width left for what a key
/// does (a longer line wraps).
#[derive(Clone, Copy, Debug, PartialEq)]
struct HelpFit {
    font_size: f32,
    does_width: f32,
}

/// The table's text size for a window of `width` x `height` points: the full 13 points
/// where it fits (1280 x 720 and up), smaller in a smaller window so that every row shows,
/// down to 8.
fn help_fit(width: f32, height: f32) -> HelpFit {
    // Height: about 27 lines (24 rows, a few wrapped) of 1.25 points a point of text and
    // 3 between rows, and 100 for the margins; width: the longest line, about 88 points a
    // point of text.
    let font_size = ((height - 100.0) / 34.0).min(width / 88.0).clamp(8.0, 13.0);
    // A monospace character is about 0.6 of the size wide; the keys' column is 25
    // characters at most, then the grid's spacing and the panel's margins.
    let keys_and_margins = 25.0 * 0.6 * font_size + 60.0;
    HelpFit {
        font_size,
        does_width: (width - keys_and_margins).max(120.0),
    }
}

/// The controls table, in two aligned columns at the centre of the window, sized to fit it.
pub fn draw(ctx: &egui::Context, panel: egui::Frame) {
    let screen = ctx.content_rect();
    let fit = help_fit(screen.width(), screen.height());
    egui::Area::new(egui::Id::unique("help"))
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            panel.show(ui, |ui| {
                egui::Grid::new("controls")
                    .num_columns(2)
                    .spacing([24.0, 3.0])
                    // Rows as high as their text, not as a button: a small window's rows
                    // shrink with the text.
                    .min_row_height(fit.font_size)
                    .show(ui, |ui| {
                        let font = egui::FontId::monospace(fit.font_size);
                        for c in CONTROLS {
                            let keys = RichText::new(c.keys).font(font.clone());
                            ui.label(keys.color(Color32::WHITE).strong());
                            // Laid out at the width left, not wrapped by the grid (which
                            // sizes a wrapping cell at its narrowest).
                            let does = ui.painter().layout(
                                c.does.to_owned(),
                                font.clone(),
                                Color32::WHITE,
                                fit.does_width,
                            );
                            ui.label(does);
                            ui.end_row();
                        }
                    });
            });
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_keeps_its_full_size_where_it_fits_and_shrinks_to_fit_a_small_window() {
        let full = help_fit(1280.0, 720.0);
        assert_eq!(full.font_size, 13.0);
        assert!(full.does_width > 900.0, "{full:?}");
        let small = help_fit(800.0, 600.0);
        assert!(small.font_size < 10.0 && small.font_size > 8.0, "{small:?}");
        assert!(
            small.does_width < 800.0 - 25.0 * 0.6 * small.font_size,
            "{small:?}"
        );
        let tiny = help_fit(200.0, 150.0);
        assert_eq!(tiny.font_size, 8.0);
        assert_eq!(tiny.does_width, 120.0);
    }
}
