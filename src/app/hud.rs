//! The on-screen HUD and help, drawn with egui.

use std::fmt::Write;

use egui::{Align2, Color32, RichText};

/// What the HUD shows this frame.
pub struct HudState<'a> {
    /// Stop or slide.
    pub response: &'a str,
    /// Walk or fly.
    pub mode: &'a str,
    /// Point-in-triangle method.
    pub method: &'a str,
    /// Eye position in the map file's coordinates.
    pub position: [f32; 3],
    /// Walking speed, m/s.
    pub speed: f32,
    /// On ground, crouched, jumping, falling or flying.
    pub stance: &'a str,
    /// Frames per second (smoothed).
    pub fps: f32,
    /// Seconds since a collision last changed a move (for the flash).
    pub since_hit: f32,
    /// Map name and triangle count.
    pub map: &'a str,
    /// A loading message, when a map loads in the background.
    pub loading: Option<&'a str>,
    /// A passing message (errors, screenshots saved).
    pub notice: Option<&'a str>,
    /// Show the controls.
    pub help: bool,
    /// Script playing.
    pub scripted: bool,
}

/// How long the collision flash stays on screen, seconds.
const HIT_FLASH_SECS: f32 = 0.3;

const HELP: &str = "\
W A S D / arrows   move          mouse        look (click to capture)
Shift              run           wheel        walking speed
Tab                stop / slide  F            walk / fly
Space              jump (walk), up (fly)
C                  crouch, held (walk), down (fly)
M                  point-in-triangle method
R                  reload map    drop a file  open it
F1                 this help     F12          screenshot
Esc                free the mouse, then quit";

/// Draw the HUD. `text` is a reused buffer (no allocation once warm).
pub fn draw(ui: &mut egui::Ui, s: &HudState, text: &mut String) {
    let ctx = ui.ctx().clone();
    let panel = egui::Frame::NONE
        .fill(Color32::from_black_alpha(160))
        .inner_margin(8.0)
        .corner_radius(4.0);
    text.clear();
    let [x, y, z] = s.position;
    let _ = write!(
        text,
        "{}  |  {}  |  {}{}\npos {x:.2} {y:.2} {z:.2}   {}\nspeed {:.1} m/s   {:.0} fps\n{}",
        if s.response == "stop" {
            "STOP"
        } else {
            "SLIDE"
        },
        s.mode,
        s.method,
        if s.scripted { "  |  script" } else { "" },
        s.stance,
        s.speed,
        s.fps,
        s.map
    );
    egui::Area::new(egui::Id::unique("hud"))
        .anchor(Align2::LEFT_TOP, [8.0, 8.0])
        .show(&ctx, |ui| {
            panel.show(ui, |ui| {
                ui.add(
                    egui::Label::new(
                        RichText::new(text.as_str())
                            .monospace()
                            .size(13.0)
                            .color(Color32::WHITE),
                    )
                    .extend(),
                );
                if s.since_hit < HIT_FLASH_SECS {
                    let label = if s.response == "stop" {
                        "STOPPED"
                    } else {
                        "SLIDING"
                    };
                    ui.label(
                        RichText::new(label)
                            .monospace()
                            .strong()
                            .size(14.0)
                            .color(Color32::from_rgb(255, 90, 70)),
                    );
                }
                if !s.help {
                    ui.label(
                        RichText::new("F1 help")
                            .monospace()
                            .size(11.0)
                            .color(Color32::LIGHT_GRAY),
                    );
                }
            });
        });
    // A small crosshair at the centre.
    let c = ctx.content_rect().center();
    let stroke = egui::Stroke::new(1.5, Color32::from_white_alpha(200));
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("cross"),
    ));
    painter.line_segment([c - egui::vec2(6.0, 0.0), c + egui::vec2(6.0, 0.0)], stroke);
    painter.line_segment([c - egui::vec2(0.0, 6.0), c + egui::vec2(0.0, 6.0)], stroke);

    if s.help {
        egui::Area::new(egui::Id::unique("help"))
            .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
            .show(&ctx, |ui| {
                panel.show(ui, |ui| {
                    ui.add(
                        egui::Label::new(
                            RichText::new(HELP)
                                .monospace()
                                .size(13.0)
                                .color(Color32::WHITE),
                        )
                        .extend(),
                    );
                });
            });
    }
    for (id, msg, anchor) in [
        ("loading", s.loading, Align2::CENTER_TOP),
        ("notice", s.notice, Align2::CENTER_BOTTOM),
    ] {
        if let Some(msg) = msg {
            let offset = if anchor == Align2::CENTER_TOP {
                [0.0, 12.0]
            } else {
                [0.0, -12.0]
            };
            egui::Area::new(egui::Id::unique(id))
                .anchor(anchor, offset)
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
