//! The minimap (N): the map from above in the top-right corner, drawn once into a texture
//! when the map loads (see [`walkthrough_core::map::minimap`]), with the player as an arrow and
//! its view cone, and the trail of the last minute, orange where a collision changed the
//! move. Drawn with egui over the scene.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use egui::{Align2, Color32, Pos2, Rect, Shape, Stroke, Vec2};
use glam::Vec3;

use walkthrough_core::map::minimap::TopDown;

use super::hud::hud_right;

/// Longer side of the map image, pixels.
pub const IMAGE_SIDE: u32 = 256;
/// Longer side of the minimap on screen, points, where the window has room for it beside
/// the HUD.
const SHOWN_SIDE: f32 = 200.0;
/// The least it shrinks to in a narrow window (then it overlaps the HUD), points.
const SMALLEST_SIDE: f32 = 96.0;

/// The minimap's longer side in a window `screen_width` points wide: [`SHOWN_SIDE`], or
/// what is left beside the HUD box (with an 8-point gap either side), at least
/// [`SMALLEST_SIDE`].
pub(super) fn shown_side(screen_width: f32) -> f32 {
    (screen_width - hud_right(screen_width) - 16.0).clamp(SMALLEST_SIDE, SHOWN_SIDE)
}
/// The most of the window's height the minimap takes: at 400 x 300 the 200-point map
/// covered half the view.
const HEIGHT_SHARE: f32 = 0.4;

/// The least the minimap shrinks to in a low window, points.
const LOWEST_SIDE: f32 = 48.0;

/// The minimap's longer side in a window `width` x `height` points: [`shown_side`], no
/// more than [`HEIGHT_SHARE`] of the height, and no less than [`LOWEST_SIDE`].
fn side_in(width: f32, height: f32) -> f32 {
    shown_side(width)
        .min(HEIGHT_SHARE * height)
        .max(LOWEST_SIDE)
}

/// How much trail is kept, and how often a point is added to it.
const TRAIL_AGE: Duration = Duration::from_secs(60);
const TRAIL_EVERY: Duration = Duration::from_millis(100);
/// Length of the view cone's sides, points.
const CONE_LENGTH: f32 = 18.0;

/// Radius of the ring round the player's arrow held at the minimap's edge, points.
const OFF_MAP_RING: f32 = 9.0;

/// Where the player's arrow is drawn on a minimap shown in `rect`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Marker {
    /// The arrow's centre, points.
    at: Pos2,
    /// The player is off the picture (fell off the map): the arrow is held at the edge
    /// nearest, on the side the player is, ringed.
    off_map: bool,
}

/// The arrow for a player whose place on screen is `p`: there, or, off the picture, held
/// at its edge on the side where the player is (a player who falls off the map is still
/// shown, never simply gone).
fn marker_at(rect: Rect, p: Pos2) -> Marker {
    if rect.contains(p) {
        return Marker {
            at: p,
            off_map: false,
        };
    }
    let inner = rect.shrink(
        OFF_MAP_RING
            .min(rect.width() * 0.5)
            .min(rect.height() * 0.5),
    );
    Marker {
        at: inner.clamp(p),
        off_map: true,
    }
}

/// A point of the trail.
struct TrailPoint {
    at: Vec3,
    hit: bool,
    when: Instant,
}

/// The minimap's state.
pub struct Minimap {
    /// Shown.
    pub on: bool,
    image: TopDown,
    /// The image as an egui texture, made at the first draw after a load.
    texture: Option<egui::TextureHandle>,
    trail: VecDeque<TrailPoint>,
    /// A collision changed a move since the last trail point.
    hit_since: bool,
}

impl Minimap {
    /// The minimap of a map drawn as `image`.
    pub fn new(image: TopDown) -> Minimap {
        Minimap {
            on: true,
            image,
            texture: None,
            trail: VecDeque::with_capacity(
                (TRAIL_AGE.as_millis() / TRAIL_EVERY.as_millis()) as usize + 1,
            ),
            hit_since: false,
        }
    }

    /// Show another map (a reload or a dropped file): a new image, a fresh trail.
    pub fn replace(&mut self, image: TopDown) {
        self.image = image;
        self.texture = None;
        self.trail.clear();
    }

    /// The map was scaled by `factor` in place: the same picture, placed anew, and the
    /// trail scaled with it (its points' feet stay where they were on the map).
    pub fn rescale(&mut self, factor: f32) {
        self.image.scale_by(factor);
        for p in &mut self.trail {
            p.at = walkthrough_core::session::scaled_eye(p.at, factor);
        }
    }

    /// Note where the eye is this frame and whether a collision changed a move.
    pub fn record(&mut self, eye: Vec3, hit: bool, now: Instant) {
        self.hit_since |= hit;
        while self
            .trail
            .front()
            .is_some_and(|p| now.duration_since(p.when) > TRAIL_AGE)
        {
            self.trail.pop_front();
        }
        if self
            .trail
            .back()
            .is_none_or(|p| now.duration_since(p.when) >= TRAIL_EVERY)
        {
            self.trail.push_back(TrailPoint {
                at: eye,
                hit: std::mem::take(&mut self.hit_since),
                when: now,
            });
        }
    }

    /// Draw it in the top-right corner, the player at `eye` looking along `yaw_deg`, seeing
    /// `fov_deg` across.
    pub fn draw(&mut self, ctx: &egui::Context, eye: Vec3, yaw_deg: f32, fov_deg: f32) {
        if !self.on {
            return;
        }
        let image = &self.image;
        let texture = self.texture.get_or_insert_with(|| {
            let pixels = egui::ColorImage::from_rgba_unmultiplied(
                [image.size[0] as usize, image.size[1] as usize],
                &image.rgba,
            );
            ctx.load_texture("minimap", pixels, egui::TextureOptions::NEAREST)
        });
        let (w, h) = (image.size[0] as f32, image.size[1] as f32);
        let screen = ctx.content_rect();
        let scale = side_in(screen.width(), screen.height()) / w.max(h);
        let shown = Vec2::new(w * scale, h * scale);
        let to_screen = |origin: Pos2, p: Vec3| {
            let q = image.to_pixel(p) * scale;
            origin + Vec2::new(q.x, q.y)
        };
        egui::Area::new(egui::Id::unique("minimap"))
            .anchor(Align2::RIGHT_TOP, [-8.0, 8.0])
            .show(ctx, |ui| {
                let (rect, _) = ui.allocate_exact_size(shown, egui::Sense::hover());
                let painter = ui.painter_at(rect.expand(2.0));
                let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
                painter.image(texture.id(), rect, uv, Color32::WHITE);
                for p in &self.trail {
                    let color = if p.hit {
                        Color32::from_rgb(255, 140, 0)
                    } else {
                        Color32::from_rgb(90, 200, 255)
                    };
                    let radius = if p.hit { 2.0 } else { 1.0 };
                    painter.circle_filled(to_screen(rect.min, p.at), radius, color);
                }
                // The arrow: its tip along the heading (yaw 0 looks toward -z, the top);
                // off the map (fallen off it) at the edge nearest, ringed.
                let marker = marker_at(rect, to_screen(rect.min, eye));
                let centre = marker.at;
                if marker.off_map {
                    let ring = Stroke::new(1.5, Color32::from_rgb(255, 60, 40));
                    painter.circle_stroke(centre, OFF_MAP_RING, ring);
                }
                let heading = |deg: f32| {
                    let a = deg.to_radians();
                    Vec2::new(-a.sin(), -a.cos())
                };
                let ahead = heading(yaw_deg);
                let side = Vec2::new(-ahead.y, ahead.x);
                let arrow = vec![
                    centre + ahead * 7.0,
                    centre - ahead * 4.0 + side * 4.0,
                    centre - ahead * 4.0 - side * 4.0,
                ];
                painter.add(Shape::convex_polygon(
                    arrow,
                    Color32::from_rgb(255, 60, 40),
                    Stroke::NONE,
                ));
                let half_fov = fov_deg * 0.5;
                let cone = Stroke::new(1.0, Color32::from_rgba_unmultiplied(255, 255, 255, 160));
                for edge in [yaw_deg - half_fov, yaw_deg + half_fov] {
                    painter.line_segment([centre, centre + heading(edge) * CONE_LENGTH], cone);
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After falling off the map the arrow was simply absent.
    #[test]
    fn a_player_off_the_map_is_shown_at_the_minimaps_edge() {
        let rect = Rect::from_min_size(Pos2::new(100.0, 10.0), Vec2::new(200.0, 150.0));
        let inside = marker_at(rect, Pos2::new(150.0, 50.0));
        assert_eq!(inside.at, Pos2::new(150.0, 50.0));
        assert!(!inside.off_map);
        // On the map by its edge: where it is, not pulled in by the ring's room.
        let edge = marker_at(rect, Pos2::new(103.0, 12.0));
        assert_eq!((edge.at, edge.off_map), (Pos2::new(103.0, 12.0), false));
        // Far to the right and a little below the top: at the right edge, the same height.
        let right = marker_at(rect, Pos2::new(900.0, 40.0));
        assert!(right.off_map);
        assert_eq!(right.at, Pos2::new(300.0 - OFF_MAP_RING, 40.0));
        // Beyond a corner: in the corner.
        let corner = marker_at(rect, Pos2::new(-50.0, -80.0));
        assert_eq!(
            corner.at,
            Pos2::new(100.0 + OFF_MAP_RING, 10.0 + OFF_MAP_RING)
        );
    }

    /// In a 400 x 300 window the minimap covered half the view.
    #[test]
    fn the_minimap_takes_at_most_40_percent_of_a_low_windows_height() {
        assert_eq!(side_in(1280.0, 720.0), SHOWN_SIDE);
        assert_eq!(side_in(400.0, 300.0), 0.4 * 300.0);
        assert_eq!(side_in(1270.0, 100.0), LOWEST_SIDE);
    }

    #[test]
    fn the_minimap_keeps_its_size_in_a_wide_window_and_clear_of_the_hud_in_a_narrow_one() {
        assert_eq!(shown_side(1280.0), SHOWN_SIDE);
        // The HUD takes at most 40% of the width: 640 points leave room for all of it.
        assert_eq!(shown_side(640.0), SHOWN_SIDE);
        let side = shown_side(320.0);
        assert!(side < SHOWN_SIDE, "{side}");
        // It starts 8 points right of the HUD box and ends 8 points from the edge.
        assert_eq!(320.0 - 8.0 - side, hud_right(320.0) + 8.0);
        assert_eq!(shown_side(150.0), SMALLEST_SIDE);
    }
}
