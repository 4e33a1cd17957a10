//! The loading screen over the map still walked: what the load is doing and a bar of how
//! much is done, at the top of the window between the HUD's box and the minimap, or below
//! both where the window is too narrow for it there (it never covers either).

use egui::{Color32, RichText};

use super::hud::hud_right;
use super::hud::{HUD_LEFT, MESSAGE_POINTS, NOTICE_MARGIN, NOTICE_WIDTH, PANEL_MARGIN};
use super::minimap::shown_side;

/// Space kept between the loading screen and the HUD's box, the minimap and the window's
/// edges, points.
const GAP: f32 = 8.0;
/// The narrowest the loading screen's text and bar go between the HUD's box and the
/// minimap, points (about 40 characters a line); a narrower gap puts it below them.
const BESIDE_MIN_WIDTH: f32 = 320.0;

/// Where the loading screen goes, in points from the window's top left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadingPlace {
    /// Its panel's left edge.
    pub left: f32,
    /// Its panel's top edge.
    pub top: f32,
    /// The width of its text and bar (the panel is [`PANEL_MARGIN`] wider each side).
    pub width: f32,
}

/// The loading screen in a window `window_width` points wide whose HUD box ends
/// `hud_bottom` points from the top: between the HUD's box and the minimap (the minimap's
/// room is kept whether or not it shows, so the bar does not jump when N is pressed) when
/// at least [`BESIDE_MIN_WIDTH`] fits there, else centred below both.
pub fn loading_place(window_width: f32, hud_bottom: f32) -> LoadingPlace {
    let minimap = shown_side(window_width);
    let (from, to) = (
        hud_right(window_width) + GAP,
        window_width - HUD_LEFT - minimap - GAP,
    );
    let beside = to - from - 2.0 * PANEL_MARGIN;
    if beside >= BESIDE_MIN_WIDTH {
        let width = beside.min(NOTICE_WIDTH);
        return LoadingPlace {
            left: (from + to) / 2.0 - width / 2.0 - PANEL_MARGIN,
            top: HUD_LEFT,
            width,
        };
    }
    let width = (window_width - 2.0 * (NOTICE_MARGIN + PANEL_MARGIN)).clamp(0.0, NOTICE_WIDTH);
    LoadingPlace {
        left: window_width / 2.0 - width / 2.0 - PANEL_MARGIN,
        top: hud_bottom.max(HUD_LEFT + minimap) + GAP,
        width,
    }
}

/// Draw the loading screen, `msg` over a bar `fraction` full, at [`loading_place`] in a
/// window whose HUD box ends `hud_bottom` points from the top.
pub fn draw(ctx: &egui::Context, panel: egui::Frame, msg: &str, fraction: f32, hud_bottom: f32) {
    let place = loading_place(ctx.content_rect().width(), hud_bottom);
    egui::Area::new(egui::Id::unique("loading"))
        .fixed_pos([place.left, place.top])
        .show(ctx, |ui| {
            panel.show(ui, |ui| {
                ui.set_width(place.width);
                let text = RichText::new(msg)
                    .monospace()
                    .size(MESSAGE_POINTS)
                    .color(Color32::WHITE);
                ui.add(egui::Label::new(text).wrap());
                ui.add(
                    egui::ProgressBar::new(fraction)
                        .desired_width(place.width)
                        .show_percentage(),
                );
            });
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The panel's outer left and right edges.
    fn edges(p: LoadingPlace) -> (f32, f32) {
        (p.left, p.left + p.width + 2.0 * PANEL_MARGIN)
    }

    #[test]
    fn the_loading_bar_overlapped_the_hud_box() {
        // 1280 points wide (the default window): beside the HUD's box and the minimap,
        // at the top, touching neither.
        let p = loading_place(1280.0, 149.0);
        let (l, r) = edges(p);
        assert_eq!(p.top, HUD_LEFT);
        assert!(l >= hud_right(1280.0) + GAP, "{l} over the HUD box");
        assert!(
            r <= 1280.0 - HUD_LEFT - shown_side(1280.0) - GAP,
            "{r} over the minimap"
        );
        assert!(p.width >= BESIDE_MIN_WIDTH, "{p:?}");
        // Centred in the gap: as much room left as right.
        let room_left = l - hud_right(1280.0);
        let room_right = 1280.0 - HUD_LEFT - shown_side(1280.0) - r;
        assert!((room_left - room_right).abs() < 0.01, "{p:?}");
    }

    #[test]
    fn in_a_wide_window_the_loading_bar_keeps_its_width() {
        let p = loading_place(2560.0, 149.0);
        assert_eq!(p.width, NOTICE_WIDTH);
        assert_eq!(p.top, HUD_LEFT);
    }

    #[test]
    fn in_a_narrow_window_the_loading_bar_goes_below_the_hud_and_the_minimap() {
        for (w, hud_bottom) in [(800.0, 170.0), (640.0, 190.0), (320.0, 260.0)] {
            let p = loading_place(w, hud_bottom);
            let below = hud_bottom.max(HUD_LEFT + shown_side(w));
            assert_eq!(p.top, below + GAP, "{w}: {p:?}");
            let (l, r) = edges(p);
            assert!(
                l >= NOTICE_MARGIN - 0.01 && r <= w - NOTICE_MARGIN + 0.01,
                "{w}: {p:?}"
            );
            assert!(
                ((l + r) / 2.0 - w / 2.0).abs() < 0.01,
                "{w}: not centred {p:?}"
            );
        }
        // Below a short HUD box the minimap is what it keeps clear of.
        let p = loading_place(800.0, 60.0);
        assert_eq!(p.top, HUD_LEFT + shown_side(800.0) + GAP);
    }
}
