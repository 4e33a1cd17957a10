//! The on-screen HUD, drawn with egui: modes, position, speed, the collision flash, the
//! notices and the survey's question; the help (F1) is [`super::help`]'s.

use std::fmt::Write;
use std::time::Instant;

use egui::{Align2, Color32, RichText};

use walkthrough::collision::Response;
use walkthrough::geometry::InsideMethod;
use walkthrough::map::MapFrame;
use walkthrough::player::Mode;

/// How long a notice stays on screen, seconds.
const NOTICE_SECS: f32 = 4.0;

/// What the HUD keeps from frame to frame.
#[derive(Default)]
pub struct Overlay {
    /// The controls are shown (F1).
    pub help: bool,
    /// Seconds since a collision last changed a move (for the flash).
    pub since_hit: f32,
    /// Frames per second, smoothed.
    pub fps: f32,
    /// Map name and triangle count.
    pub map_label: String,
    /// The unit of the positions shown ("m", or "units (1 unit = 0.01 m)").
    pub units: String,
    /// The flags that open the map in the frame it has (`--up z --scale 0.0254`).
    pub flags: String,
    /// The speed the eye actually moved at over the last frame, m/s.
    pub moving_at: f32,
    notice: Option<(String, Instant)>,
    /// The HUD's text, a buffer reused every frame.
    text: String,
}

impl Overlay {
    /// The overlay of a window showing the map `map_label` in `frame`.
    pub fn new(map_label: String, frame: MapFrame) -> Overlay {
        let mut o = Overlay {
            // Nothing has been hit yet: no flash at the start.
            since_hit: f32::INFINITY,
            ..Overlay::default()
        };
        o.show_map(map_label, frame);
        o
    }

    /// Show a newly loaded (or corrected) map.
    pub fn show_map(&mut self, label: String, frame: MapFrame) {
        self.map_label = label;
        self.units = units_label(frame.scale);
        self.flags = frame.flags();
    }

    /// Show `msg` for a few seconds (and print it: the terminal keeps a record).
    pub fn notify(&mut self, msg: String) {
        eprintln!("{msg}");
        self.notice = Some((msg, Instant::now()));
    }

    /// The notice still on screen, if any.
    pub fn notice(&self) -> Option<&str> {
        self.notice
            .as_ref()
            .filter(|(_, t)| t.elapsed().as_secs_f32() < NOTICE_SECS)
            .map(|(m, _)| m.as_str())
    }

    /// Count a frame of `secs` into the smoothed frame rate.
    pub fn count_frame(&mut self, secs: f32) {
        let secs = secs.max(1e-6);
        self.fps = if self.fps == 0.0 {
            1.0 / secs
        } else {
            self.fps * 0.95 + 0.05 / secs
        };
    }
}

/// What the HUD shows this frame, besides what the [`Overlay`] keeps.
pub struct HudState<'a> {
    /// Stop or slide.
    pub response: Response,
    /// Walk or fly.
    pub mode: Mode,
    /// Point-in-triangle method.
    pub method: InsideMethod,
    /// Eye position in the map file's coordinates.
    pub position: [f32; 3],
    /// Walking speed set (the wheel changes it), m/s.
    pub speed: f32,
    /// The cursor is captured for mouse look.
    pub captured: bool,
    /// The settings panel shows (the centre is its own).
    pub settings_open: bool,
    /// On ground, crouched, jumping, falling or flying.
    pub stance: &'a str,
    /// A loading message, when a map loads in the background.
    pub loading: Option<&'a str>,
    /// Script playing.
    pub scripted: bool,
    /// Its speed, times real time (0: paused).
    pub replay_speed: u32,
    /// The walk is being recorded (F5): into this file (`--record`), or a new one.
    pub recording: Option<&'a str>,
    /// The view is the detached camera (Shift+V).
    pub detached: bool,
    /// The debug view's counters, when it is on.
    pub debug: Option<DebugLine>,
    /// The settings' render scale (shown when under 1: the picture is softer for it).
    pub render_scale: f32,
    /// The survey's question about the map's frame, while it asks.
    pub offer: Option<&'a str>,
}

/// " (scale 0.50)" after the frame rate at a render scale under 1, nothing at 1 (written
/// into the HUD's kept buffer: no string made per frame).
struct ScaleNote(f32);

impl std::fmt::Display for ScaleNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 < 1.0 {
            write!(f, " (scale {:.2})", self.0)
        } else {
            Ok(())
        }
    }
}

/// The debug view's line of the HUD.
pub struct DebugLine {
    /// Candidate triangles the BVH handed over in the last step.
    pub tested: usize,
    /// Contacts the last step met.
    pub contacts: usize,
    /// Sweeps the last step asked (moves, slide rounds, step-up tries, floor follows).
    pub sweeps: usize,
    /// The last contact normal's angle from straight up, degrees.
    pub normal_deg: Option<f32>,
    /// The last step-up's height, metres.
    pub step_up: f32,
}

/// How long the collision flash stays on screen, seconds.
const HIT_FLASH_SECS: f32 = 0.3;
/// Width a notice wraps at, points (a correction's notice is two lines at it).
const NOTICE_WIDTH: f32 = 620.0;
/// Width of the HUD box, points: wide enough for every line, so it never changes size.
const HUD_WIDTH: f32 = 440.0;
/// Where the HUD box ends, points from the window's left edge: its 8-point offset, its
/// width and its panel's margins (what the minimap keeps clear of).
pub const HUD_RIGHT: f32 = 8.0 + HUD_WIDTH + 2.0 * 8.0;

/// The unit of positions in a file whose unit is `scale` metres: "m", or
/// "units (1 unit = 5.47 mm)" with three significant digits in m, cm or mm.
pub fn units_label(scale: f32) -> String {
    if (scale - 1.0).abs() < 1e-6 {
        return "m".to_string();
    }
    let (value, unit) = match scale {
        s if s >= 1.0 => (s, "m"),
        s if s >= 0.01 => (s * 100.0, "cm"),
        s => (s * 1000.0, "mm"),
    };
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("units (1 unit = {value:.decimals$} {unit})")
}

/// Draw the HUD (no allocation once warm: the overlay's text buffer is reused).
pub fn draw(ui: &mut egui::Ui, o: &mut Overlay, s: &HudState) {
    let ctx = ui.ctx().clone();
    let panel = egui::Frame::NONE
        .fill(Color32::from_black_alpha(160))
        .inner_margin(8.0)
        .corner_radius(4.0);
    // The buffer is taken out while the rest of the overlay is read, and put back.
    let mut text = std::mem::take(&mut o.text);
    write_status(&mut text, o, s);
    let flash = match s.response {
        _ if o.since_hit >= HIT_FLASH_SECS => "",
        Response::Stop => "STOPPED",
        Response::Slide => "SLIDING",
    };
    let help_hint = if o.help {
        "F1 hides the help"
    } else {
        "F1 help"
    };
    egui::Area::new(egui::Id::unique("hud"))
        .anchor(Align2::LEFT_TOP, [8.0, 8.0])
        .show(&ctx, |ui| {
            panel.show(ui, |ui| {
                // Every line is always there (blank when idle) and the width is fixed:
                // the box never jumps as the flash comes and goes.
                ui.set_width(HUD_WIDTH);
                ui.add(
                    egui::Label::new(
                        RichText::new(text.as_str())
                            .monospace()
                            .size(13.0)
                            .color(Color32::WHITE),
                    )
                    .extend(),
                );
                ui.label(
                    RichText::new(flash)
                        .monospace()
                        .strong()
                        .size(14.0)
                        .color(Color32::from_rgb(255, 90, 70)),
                );
                ui.label(
                    RichText::new(help_hint)
                        .monospace()
                        .size(11.0)
                        .color(Color32::LIGHT_GRAY),
                );
            });
        });
    o.text = text;
    let hint = (!s.captured && !o.help && !s.settings_open)
        .then_some("click in the window to look around");
    if o.help {
        // Nearly opaque: the table is drawn over the HUD's box in a window of 720 pixels
        // or less, and the HUD's lines showing through made both hard to read.
        super::help::draw(&ctx, panel.fill(Color32::from_black_alpha(235)));
    } else if !s.settings_open {
        crosshair(&ctx);
    }
    for (id, msg, anchor, offset) in [
        ("loading", s.loading, Align2::CENTER_TOP, [0.0, 12.0]),
        // Above the notices, clear of the HUD's box and the crosshair.
        ("offer", s.offer, Align2::CENTER_BOTTOM, [0.0, -72.0]),
        ("notice", o.notice(), Align2::CENTER_BOTTOM, [0.0, -12.0]),
        ("hint", hint, Align2::CENTER_CENTER, [0.0, 40.0]),
    ] {
        if let Some(msg) = msg {
            egui::Area::new(egui::Id::unique(id))
                .anchor(anchor, offset)
                .default_width(NOTICE_WIDTH)
                .show(&ctx, |ui| {
                    panel.show(ui, |ui| {
                        ui.label(
                            RichText::new(msg)
                                .monospace()
                                .size(13.0)
                                .color(Color32::WHITE),
                        );
                    });
                });
        }
    }
}

/// The HUD's lines into `text` (cleared first): modes, position, stance, speed, the map and
/// its frame, and with the debug view its counters.
fn write_status(text: &mut String, o: &Overlay, s: &HudState) {
    text.clear();
    let [x, y, z] = s.position;
    let _ = write!(
        text,
        "{}  |  {}  |  {}{}{}\npos {x:.2} {y:.2} {z:.2} {}\n{}\nspeed {:.1} m/s (set {:.1})   {:.0} fps{}\n{}\n{}  (U, [ ], Shift+[ ] correct it)",
        s.response.to_string().to_uppercase(),
        s.mode,
        s.method,
        if s.detached {
            "  |  detached camera (Shift+V returns)"
        } else if s.scripted {
            match s.replay_speed {
                0 => "  |  script paused (P resumes)",
                1 => "  |  script",
                2 => "  |  script 2x",
                _ => "  |  script 4x",
            }
        } else if s.recording.is_some() {
            "  |  REC "
        } else {
            ""
        },
        match (s.detached || s.scripted, s.recording) {
            (false, Some(name)) => name,
            _ => "",
        },
        o.units,
        s.stance,
        o.moving_at,
        s.speed,
        o.fps,
        ScaleNote(s.render_scale),
        o.map_label,
        o.flags
    );
    if let Some(d) = &s.debug {
        let _ = write!(
            text,
            "\ncandidates {}  contacts {}  sweeps {}\nlast normal ",
            d.tested, d.contacts, d.sweeps
        );
        let _ = match d.normal_deg {
            Some(a) => write!(text, "{a:.0} deg from up"),
            None => write!(text, "-"),
        };
        let _ = write!(text, "  last step-up {:.2} m", d.step_up);
    }
}

/// A small crosshair at the centre of the window.
fn crosshair(ctx: &egui::Context) {
    let c = ctx.content_rect().center();
    let stroke = egui::Stroke::new(1.5, Color32::from_white_alpha(200));
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("cross"),
    ));
    painter.line_segment([c - egui::vec2(6.0, 0.0), c + egui::vec2(6.0, 0.0)], stroke);
    painter.line_segment([c - egui::vec2(0.0, 6.0), c + egui::vec2(0.0, 6.0)], stroke);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_render_scale_shows_after_the_frame_rate_only_under_1() {
        assert_eq!(ScaleNote(1.0).to_string(), "");
        assert_eq!(ScaleNote(0.5).to_string(), " (scale 0.50)");
        assert_eq!(ScaleNote(0.75).to_string(), " (scale 0.75)");
    }

    #[test]
    fn units_label_names_metres_or_the_scale_in_a_readable_unit() {
        assert_eq!(units_label(1.0), "m");
        assert_eq!(units_label(0.005_466_472), "units (1 unit = 5.47 mm)");
        assert_eq!(units_label(0.0254), "units (1 unit = 2.54 cm)");
        assert_eq!(units_label(0.3048), "units (1 unit = 30.5 cm)");
        assert_eq!(units_label(2.0), "units (1 unit = 2.00 m)");
    }

    #[test]
    fn a_new_overlay_flashes_no_hit() {
        let o = Overlay::new("m".into(), MapFrame::default());
        assert!(o.since_hit >= HIT_FLASH_SECS);
    }
}
