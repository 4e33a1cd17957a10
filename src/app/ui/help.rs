//! The help overlay (F1): the controls table ([`CONTROLS`]) at the centre of the window,
//! its text sized to the window but never under [`MIN_POINTS`]; where the rows do not
//! all fit at that size, they are shown a page at a time (F1 turns the page).

use std::ops::Range;
use std::sync::Arc;

use egui::{Align2, Color32, Galley, RichText};

use crate::app::controls::CONTROLS;

/// The table's text size where it fits (1280 x 720 and up), points.
const FULL_POINTS: f32 = 13.0;
/// The smallest text size it shrinks to, points: smaller is hard to read (the window's
/// own 640 x 400 had it at 8).
pub const MIN_POINTS: f32 = 10.0;
/// Space between rows, points.
const ROW_GAP: f32 = 3.0;
/// The height kept for the panel's margins, the page line and the gap to the window's
/// edges, points.
const FRAME_HEIGHT: f32 = 60.0;
/// Room kept clear under the table for a one-line notice ("screenshot saved to ..."),
/// points: in a 640 x 360 window a notice covered the page line.
const NOTICE_BAND: f32 = 40.0;
/// The table's distance from the window's top, points.
const TOP_GAP: f32 = 8.0;

/// How the controls table fits a window: its text size, and the width left for what a key
/// does (a longer line wraps).
#[derive(Clone, Copy, Debug, PartialEq)]
struct HelpFit {
    font_size: f32,
    /// The keys' column, as wide on every page (the panel keeps its width page to page).
    keys_width: f32,
    does_width: f32,
}

/// The table's text size for a window of `width` x `height` points: the full 13 points
/// where it fits, smaller in a smaller window, down to [`MIN_POINTS`] (then it is paged).
fn help_fit(width: f32, height: f32) -> HelpFit {
    // Height: about 27 lines (24 rows, a few wrapped) of 1.25 points a point of text and
    // 3 between rows, and 100 for the margins; width: the longest line, about 88 points a
    // point of text.
    let font_size = ((height - 100.0) / 34.0)
        .min(width / 88.0)
        .clamp(MIN_POINTS, FULL_POINTS);
    // A monospace character is about 0.6 of the size wide; the keys' column is 25
    // characters at most, then the grid's spacing and the panel's margins.
    let keys_width = 25.0 * 0.6 * font_size;
    HelpFit {
        font_size,
        keys_width,
        does_width: (width - keys_width - 60.0).max(120.0),
    }
}

/// The rows of each page, for rows `heights` tall (gaps included) in `room` points: as
/// many whole rows as fit on each page, at least one.
fn pages(heights: &[f32], room: f32) -> Vec<Range<usize>> {
    let mut pages = Vec::new();
    let (mut start, mut used) = (0, 0.0);
    for (i, h) in heights.iter().enumerate() {
        if i > start && used + h > room {
            pages.push(start..i);
            (start, used) = (i, 0.0);
        }
        used += h;
    }
    if start < heights.len() {
        pages.push(start..heights.len());
    }
    pages
}

/// The controls table, in two aligned columns at the centre of the window, sized to fit
/// it: page `page` of it (wrapping round). Returns how many pages it has.
pub fn draw(ctx: &egui::Context, panel: egui::Frame, page: usize) -> usize {
    let screen = ctx.content_rect();
    let fit = help_fit(screen.width(), screen.height());
    let font = egui::FontId::monospace(fit.font_size);
    // Laid out at the width left, not wrapped by the grid (which sizes a wrapping cell
    // at its narrowest); measured here to know what fits a page.
    let does: Vec<Arc<Galley>> = ctx.fonts_mut(|f| {
        CONTROLS
            .iter()
            .map(|c| {
                f.layout(
                    c.does.to_owned(),
                    font.clone(),
                    Color32::WHITE,
                    fit.does_width,
                )
            })
            .collect()
    });
    let heights: Vec<f32> = does
        .iter()
        .map(|g| g.size().y.max(fit.font_size) + ROW_GAP)
        .collect();
    let pages = pages(&heights, screen.height() - FRAME_HEIGHT - NOTICE_BAND);
    let Some(shown) = pages.get(page % pages.len().max(1)).cloned() else {
        return 0;
    };
    // At the top, over the HUD's box and the minimap (its own layer above theirs), the
    // notice band free below.
    egui::Area::new(egui::Id::unique("help"))
        .order(egui::Order::Foreground)
        .anchor(Align2::CENTER_TOP, [0.0, TOP_GAP])
        .show(ctx, |ui| {
            panel.show(ui, |ui| {
                egui::Grid::new("controls")
                    .num_columns(2)
                    .spacing([24.0, ROW_GAP])
                    // Rows as high as their text, not as a button: a small window's rows
                    // shrink with the text.
                    .min_row_height(fit.font_size)
                    .min_col_width(fit.keys_width)
                    .show(ui, |ui| {
                        for i in shown.clone() {
                            let keys = RichText::new(CONTROLS[i].keys).font(font.clone());
                            ui.label(keys.color(Color32::WHITE).strong());
                            ui.label(does[i].clone());
                            ui.end_row();
                        }
                    });
                if pages.len() > 1 {
                    let line = footer(page % pages.len(), pages.len());
                    ui.label(
                        RichText::new(line)
                            .font(font.clone())
                            .color(Color32::LIGHT_GRAY),
                    );
                }
            });
        });
    pages.len()
}

/// The line under page `page` (from 0) of `pages`: what F1 does next (it hides the help
/// from the last page, which said it turned the page).
fn footer(page: usize, pages: usize) -> String {
    let next = if page + 1 < pages {
        "F1 turns the page"
    } else {
        "F1 hides the help"
    };
    format!("page {} of {pages}: {next}", page + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_pages_footer_says_f1_hides_the_help() {
        assert_eq!(footer(0, 2), "page 1 of 2: F1 turns the page");
        assert_eq!(footer(1, 2), "page 2 of 2: F1 hides the help");
        assert_eq!(footer(1, 3), "page 2 of 3: F1 turns the page");
    }

    #[test]
    fn the_help_keeps_its_full_size_where_it_fits_and_shrinks_to_fit_a_small_window() {
        let full = help_fit(1280.0, 720.0);
        assert_eq!(full.font_size, 13.0);
        assert!(full.does_width > 900.0, "{full:?}");
        let small = help_fit(1000.0, 600.0);
        assert!(
            small.font_size < 13.0 && small.font_size > 10.0,
            "{small:?}"
        );
        assert!(
            small.does_width < 1000.0 - 25.0 * 0.6 * small.font_size,
            "{small:?}"
        );
        // No smaller than 10 points, however small the window.
        assert_eq!(help_fit(640.0, 400.0).font_size, MIN_POINTS);
        let tiny = help_fit(200.0, 150.0);
        assert_eq!(tiny.font_size, MIN_POINTS);
        assert_eq!(tiny.does_width, 120.0);
    }

    #[test]
    fn rows_that_do_not_fit_go_on_the_next_page_whole() {
        assert_eq!(pages(&[10.0, 10.0, 10.0], 100.0), vec![0..3]);
        assert_eq!(
            pages(&[10.0, 20.0, 10.0, 30.0], 30.0),
            vec![0..2, 2..3, 3..4]
        );
        // A row taller than a page still gets one of its own.
        assert_eq!(pages(&[50.0, 10.0], 30.0), vec![0..1, 1..2]);
        assert_eq!(pages(&[], 30.0), Vec::<Range<usize>>::new());
    }
}
