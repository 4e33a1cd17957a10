//! The on-screen HUD, drawn with egui: modes, position, speed, the collision flash, the
//! notices and the survey's question; the help (F1) is [`super::help`]'s.

use std::fmt::Write;
use std::time::Instant;

use egui::{Align2, Color32, RichText};

use walkthrough_core::collision::Response;
use walkthrough_core::geometry::InsideMethod;
use walkthrough_core::map::MapFrame;
use walkthrough_core::player::Mode;

/// What the HUD says while the walker falls below the map.
pub const FALLEN: &str = "you fell off the map: R returns to the spawn";

/// How long a notice stays on screen, seconds.
const NOTICE_SECS: f32 = 4.0;

/// The most of a map's first warning a notice shows, characters (a warning may quote a
/// long path; the terminal has it whole).
const WARNING_SHOWN: usize = 200;

/// What the window adds to `loaded <map>` about the map's warnings (a damaged cached map
/// built again, polygons fanned, strays far away...), printed as it loaded only in the
/// terminal, which a window opened from a file manager has none of: one whole, or how many
/// and the first. `None` without warnings.
pub fn warnings_note(warnings: &[String]) -> Option<String> {
    let shown = |w: &str| match w.char_indices().nth(WARNING_SHOWN) {
        Some((at, _)) => format!("{}...", &w[..at]),
        None => w.to_string(),
    };
    match warnings {
        [] => None,
        [w] => Some(format!("warning: {}", shown(w))),
        [w, ..] => Some(format!(
            "{} warnings (all in the terminal), the first: {}",
            warnings.len(),
            shown(w)
        )),
    }
}

/// What the HUD keeps from frame to frame.
#[derive(Default)]
pub struct Overlay {
    /// The controls are shown (F1).
    pub help: bool,
    /// The page of them shown, in a window too small for all at once.
    help_page: usize,
    /// How many pages they took when last drawn.
    help_pages: usize,
    /// Seconds since a collision last changed a move (for the flash).
    pub since_hit: f32,
    /// That collision slid the walker on (not held: see `flash_word`).
    pub hit_slid: bool,
    /// Frames per second, smoothed.
    pub fps: f32,
    /// Map name and triangle count.
    pub map_label: String,
    /// The unit of the positions shown ("m", or "units (1 unit = 0.01 m)").
    pub units: String,
    /// The map's frame as the HUD says it: the flags that open the map in it (`--up z
    /// --scale 0.0254`) and the keys that correct it; a scene, which has none, says so.
    pub frame_line: String,
    /// The speed walked (or flown) over the last frame, m/s.
    pub moving_at: f32,
    notice: Option<(String, Instant)>,
    /// The HUD's text, a buffer reused every frame.
    text: String,
    /// What each message slot (offer, notice, hint, fallen) showed last frame, as a
    /// hash (0: nothing): a new message is laid out afresh at its own width.
    laid_out: [u64; 4],
    /// Where the survey's question's top was laid out last frame, as a share of the
    /// window's height from its top: the person marker stands far enough ahead for its
    /// foot to show above it.
    pub offer_top: Option<f32>,
}

impl Overlay {
    /// The overlay of a window showing the map `map_label` in `frame` (`scene`: a scene,
    /// whose models each have their own frame).
    pub fn new(map_label: String, frame: MapFrame, scene: bool) -> Overlay {
        let mut o = Overlay {
            // Nothing has been hit yet: no flash at the start.
            since_hit: f32::INFINITY,
            ..Overlay::default()
        };
        o.show_map(map_label, frame, scene);
        o
    }

    /// Show a newly loaded (or corrected) map (`scene`: see [`Overlay::new`]).
    pub fn show_map(&mut self, label: String, frame: MapFrame, scene: bool) {
        self.map_label = label;
        self.units = units_label(frame.scale);
        // The keys refuse to correct a scene: the HUD does not offer them there.
        self.frame_line = if scene {
            "a scene: each [[model]] sets its frame".into()
        } else {
            // Two lines: on one they wrapped in a small window.
            format!("{}\n(U, [ ] correct it)", frame.flags())
        };
    }

    /// Show `msg` for a few seconds (and print it once: the terminal keeps a record).
    pub fn notify(&mut self, msg: String) {
        self.notify_with(msg, None);
    }

    /// [`notify`](Self::notify), with `more` after `msg` on screen only (the terminal
    /// has it already).
    pub fn notify_with(&mut self, msg: String, more: Option<String>) {
        crate::cli::terminal::say(&msg);
        self.show(match more {
            Some(m) => format!("{msg}; {m}"),
            None => msg,
        });
    }

    /// Show `msg` for a few seconds, on screen only (the terminal has it already).
    pub fn show(&mut self, msg: String) {
        self.notice = Some((msg, Instant::now()));
    }

    /// F1: show the controls, then their next page if the window needs several, then
    /// hide them.
    pub fn press_help(&mut self) {
        if !self.help {
            (self.help, self.help_page) = (true, 0);
        } else if self.help_page + 1 < self.help_pages {
            self.help_page += 1;
        } else {
            self.help = false;
        }
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
    /// The settings panel or the file browser shows (the centre is its own).
    pub settings_open: bool,
    /// On ground, crouched, jumping, falling or flying.
    pub stance: &'a str,
    /// The walker fell off the map (below its lowest point, falling): R returns.
    pub fallen: bool,
    /// A map loading in the background for longer than `map::progress::PROGRESS_AFTER`: what
    /// it is doing, and the fraction done (a progress bar).
    pub loading: Option<(&'a str, f32)>,
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
    /// The person marker stands ahead (with the question, or after a correction): the
    /// "click to look" hint goes above the crosshair, clear of it.
    pub marker: bool,
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
/// The survey's question's lowest place, points above the window's bottom: over a notice
/// of one or two lines.
const OFFER_ABOVE: f32 = 72.0;

/// Points between the crosshair and the centre of the "click to look" hint.
const HINT_OFFSET: f32 = 40.0;

/// Points between the survey's question and a notice below it.
const MESSAGE_GAP: f32 = 8.0;

/// Width a notice wraps at, points (a correction's notice is two lines at it).
pub(super) const NOTICE_WIDTH: f32 = 620.0;
/// The messages' text size, points.
pub(super) const MESSAGE_POINTS: f32 = 13.0;
/// The inner margin of the HUD's and the messages' panels, points.
pub(super) const PANEL_MARGIN: f32 = 8.0;
/// Space kept clear each side of a message in a narrower window, points.
pub(super) const NOTICE_MARGIN: f32 = 16.0;
/// Width of the HUD's text, points: wide enough for every line, so the box never changes
/// size (in a window wide enough for it).
const HUD_WIDTH: f32 = 440.0;
/// The HUD box's distance from the window's left and top edges, points.
pub(super) const HUD_LEFT: f32 = 8.0;
/// The most of the window's width the HUD box covers.
const HUD_SHARE: f32 = 0.4;
/// The HUD's text size at its full width, points.
const HUD_POINTS: f32 = 13.0;
/// The smallest it shrinks to in a narrow window (its long lines then wrap), points.
const HUD_MIN_POINTS: f32 = 10.0;

/// The HUD's text width and size in a window `window_width` points wide.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HudFit {
    /// Width of the text, points (lines longer wrap).
    pub width: f32,
    /// Text size, points.
    pub points: f32,
}

/// The HUD in a window `window_width` points wide: its full width where that is under
/// [`HUD_SHARE`] of the window, else narrower, its text smaller in proportion down to
/// [`HUD_MIN_POINTS`] (at 640 points the box is 40% of the window, at 10 points).
pub fn hud_fit(window_width: f32) -> HudFit {
    let room = HUD_SHARE * window_width - HUD_LEFT - 2.0 * PANEL_MARGIN;
    let width = room.clamp(0.0, HUD_WIDTH);
    HudFit {
        width,
        points: (HUD_POINTS * width / HUD_WIDTH).clamp(HUD_MIN_POINTS, HUD_POINTS),
    }
}

/// Where the HUD box ends in a window `window_width` points wide, points from its left
/// edge (what the minimap keeps clear of).
pub fn hud_right(window_width: f32) -> f32 {
    HUD_LEFT + hud_fit(window_width).width + 2.0 * PANEL_MARGIN
}

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
        .inner_margin(PANEL_MARGIN)
        .corner_radius(4.0);
    // The buffer is taken out while the rest of the overlay is read, and put back.
    let mut text = std::mem::take(&mut o.text);
    write_status(&mut text, o, s);
    let flash = flash_word(s.response, o.since_hit, o.hit_slid);
    let help_hint = match (o.help, o.help_pages) {
        (false, _) => "F1 help",
        (true, n) if o.help_page + 1 < n => "F1 the help's next page",
        (true, _) => "F1 hides the help",
    };
    let hud_bottom = status_box(&ctx, panel, &text, [flash, help_hint]);
    o.text = text;
    // In a small window the survey's question, anchored above the notices, reaches up
    // over the hint below the crosshair: there the hint gives way (as laid out last
    // frame) until the question is answered.
    let laid_at = |id: &str| ctx.memory(|m| m.area_rect(egui::Id::unique(id)));
    let crowded = s.offer.is_some()
        && matches!((laid_at("offer"), laid_at("hint")), (Some(a), Some(b)) if a.intersects(b));
    let hint = (!s.captured && !o.help && !s.settings_open && !crowded)
        .then_some("click in the window to look around");
    // Below the crosshair, or above it while the marker stands there.
    let hint_at = if s.marker { -HINT_OFFSET } else { HINT_OFFSET };
    o.offer_top = s
        .offer
        .and(laid_at("offer"))
        .map(|r| r.top() / ctx.content_rect().height().max(1.0));
    if o.help {
        // Opaque: the table is drawn over the HUD's box in a window of 720 pixels or
        // less, and the HUD's lines showing through (even at 250 of 255) made both hard
        // to read.
        let panel = panel.fill(Color32::BLACK);
        o.help_pages = super::help::draw(&ctx, panel, o.help_page);
    } else if !s.settings_open {
        crosshair(&ctx);
    }
    if let Some((msg, fraction)) = s.loading {
        super::loading_bar::draw(&ctx, panel, msg, fraction, hud_bottom);
    }
    // Above the notice (as it was laid out last frame: a map's warnings make it several
    // lines, and it covered the question's last line), clear of the crosshair.
    let notice_top = o.notice().and(laid_at("notice")).map(|r| r.top());
    let offer_at = offer_offset(notice_top, ctx.content_rect().bottom());
    let slots = [
        // The question waits while the help's table shows: it sat over the table's rows.
        (
            "offer",
            s.offer.filter(|_| !o.help),
            Align2::CENTER_BOTTOM,
            [0.0, offer_at],
        ),
        ("notice", o.notice(), Align2::CENTER_BOTTOM, [0.0, -12.0]),
        ("hint", hint, Align2::CENTER_CENTER, [0.0, hint_at]),
        // Below the crosshair and its hint, clear of the HUD's box in a small window.
        (
            "fallen",
            s.fallen.then_some(FALLEN),
            Align2::CENTER_CENTER,
            [0.0, 85.0],
        ),
    ];
    let mut laid = o.laid_out;
    for ((id, msg, anchor, offset), laid_out) in slots.into_iter().zip(&mut laid) {
        let Some(msg) = msg else {
            *laid_out = 0;
            continue;
        };
        // An egui area keeps last frame's size and wraps new text at it: a long notice
        // after a short one came out a word a line. A new message gets a sizing pass
        // (one frame unseen) at its own width, so it is laid out at that.
        let now = egui::util::hash(msg);
        let fresh = std::mem::replace(laid_out, now) != now;
        let text = RichText::new(msg)
            .monospace()
            .size(MESSAGE_POINTS)
            .color(Color32::WHITE);
        // A notice over the help's table (its own layer above the HUD's): it is
        // short-lived, and says what a key just did. The other messages stay under it.
        let order = if id == "notice" {
            egui::Order::Tooltip
        } else {
            egui::Order::Middle
        };
        egui::Area::new(egui::Id::unique(id))
            .order(order)
            .anchor(anchor, offset)
            .default_width(if fresh {
                wrap_width(&ctx, msg)
            } else {
                NOTICE_WIDTH
            })
            .sizing_pass(fresh)
            .show(&ctx, |ui| panel.show(ui, |ui| ui.label(text)));
    }
    o.laid_out = laid;
}

/// The HUD's flash `since_hit` seconds after a collision changed a move: STOPPED when
/// it held the walker (stop mode, or head-on in slide mode), SLIDING when the slide took
/// it on (`slid`), nothing after [`HIT_FLASH_SECS`].
fn flash_word(response: Response, since_hit: f32, slid: bool) -> &'static str {
    match response {
        _ if since_hit >= HIT_FLASH_SECS => "",
        Response::Slide if slid => "SLIDING",
        _ => "STOPPED",
    }
}

/// Where the survey's question sits, points above the window's `bottom` (negative, as
/// egui's anchor offsets go up): [`OFFER_ABOVE`] at least, and [`MESSAGE_GAP`] above the
/// notice's top (`notice_top`, when a notice shows).
fn offer_offset(notice_top: Option<f32>, bottom: f32) -> f32 {
    let above_notice = notice_top.map_or(0.0, |top| bottom - top + MESSAGE_GAP);
    -OFFER_ABOVE.max(above_notice)
}

/// The width a message is laid out at, points: [`NOTICE_WIDTH`], or wider when one of
/// its words (a file's path) is wider, so that a path is not cut; never wider than the
/// window less [`NOTICE_MARGIN`] each side.
fn wrap_width(ctx: &egui::Context, msg: &str) -> f32 {
    let font = egui::FontId::monospace(MESSAGE_POINTS);
    let glyph = ctx.fonts_mut(|f| f.glyph_width(&font, 'M'));
    let longest = msg
        .split_whitespace()
        .map(|w| w.chars().count())
        .max()
        .unwrap_or(0);
    // The panel's inner margins, and a point to spare for rounding.
    let word = longest as f32 * glyph + 2.0 * PANEL_MARGIN + 1.0;
    let window = ctx.content_rect().width() - 2.0 * NOTICE_MARGIN;
    NOTICE_WIDTH.max(word).min(window)
}

/// The HUD's box at the top left: its lines `text`, then the collision flash and the
/// help's hint (`[flash, help_hint]`), sized to the window by [`hud_fit`]. Returns where
/// the box ends, points from the window's top (what the loading screen keeps clear of).
fn status_box(
    ctx: &egui::Context,
    panel: egui::Frame,
    text: &str,
    [flash, help_hint]: [&str; 2],
) -> f32 {
    let fit = hud_fit(ctx.content_rect().width());
    egui::Area::new(egui::Id::unique("hud"))
        .anchor(Align2::LEFT_TOP, [HUD_LEFT, HUD_LEFT])
        .show(ctx, |ui| {
            panel.show(ui, |ui| {
                // Every line is always there (blank when idle) and the width is fixed
                // for a window's width: the box never jumps as the flash comes and goes.
                ui.set_width(fit.width);
                let lines = RichText::new(text)
                    .monospace()
                    .size(fit.points)
                    .color(Color32::WHITE);
                ui.add(egui::Label::new(lines).wrap());
                ui.label(
                    RichText::new(flash)
                        .monospace()
                        .strong()
                        .size(fit.points + 1.0)
                        .color(Color32::from_rgb(255, 90, 70)),
                );
                ui.label(
                    RichText::new(help_hint)
                        .monospace()
                        .size(fit.points - 2.0)
                        .color(Color32::LIGHT_GRAY),
                );
            });
        })
        .response
        .rect
        .bottom()
}

/// The HUD's lines into `text` (cleared first): modes, position, stance, speed, the map and
/// its frame, and with the debug view its counters.
fn write_status(text: &mut String, o: &Overlay, s: &HudState) {
    text.clear();
    let [x, y, z] = s.position;
    // A unit's note ("(1 unit = 2.54 cm)") on a line of its own: after the position it
    // wrapped in a small window.
    let (unit, unit_note) = match o.units.split_once(' ') {
        Some((unit, note)) => (unit, Some(note)),
        None => (o.units.as_str(), None),
    };
    let _ = write!(
        text,
        "{}  |  {}  |  {}{}{}\npos {x:.2} {y:.2} {z:.2} {unit}{}\n{}\nspeed {:.1} m/s (set {:.1})   {:.0} fps{}\n{}\n{}",
        s.response.to_string().to_uppercase(),
        s.mode,
        s.method,
        // On a line of its own: after the modes it wrapped in a small window.
        if s.detached {
            "\ndetached camera (Shift+V returns)"
        } else if s.scripted {
            match s.replay_speed {
                0 => "\nscript paused (P resumes)",
                1 => "\nscript",
                2 => "\nscript 2x",
                _ => "\nscript 4x",
            }
        } else if s.recording.is_some() {
            "\nREC "
        } else {
            ""
        },
        match (s.detached || s.scripted, s.recording) {
            (false, Some(name)) => name,
            _ => "",
        },
        unit_note.map_or(String::new(), |n| format!("\n  {n}")),
        s.stance,
        o.moving_at,
        s.speed,
        o.fps,
        ScaleNote(s.render_scale),
        o.map_label,
        o.frame_line
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

/// Half the length of the crosshair's arms, points.
const CROSS_ARM: f32 = 6.0;
/// The crosshair's white line, points wide.
const CROSS_LINE: f32 = 1.5;
/// Its dark outline, points each side of the line (seen on white walls and bright sky).
const CROSS_OUTLINE: f32 = 1.0;

/// A small crosshair at the centre of the window: a white cross over a dark one a little
/// larger, so it shows on bright surfaces and dark ones alike.
fn crosshair(ctx: &egui::Context) {
    let c = ctx.content_rect().center();
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("cross"),
    ));
    let outline = egui::Stroke::new(
        CROSS_LINE + 2.0 * CROSS_OUTLINE,
        Color32::from_black_alpha(170),
    );
    let line = egui::Stroke::new(CROSS_LINE, Color32::from_white_alpha(230));
    for (stroke, reach) in [(outline, CROSS_ARM + CROSS_OUTLINE), (line, CROSS_ARM)] {
        painter.line_segment(
            [c - egui::vec2(reach, 0.0), c + egui::vec2(reach, 0.0)],
            stroke,
        );
        painter.line_segment(
            [c - egui::vec2(0.0, reach), c + egui::vec2(0.0, reach)],
            stroke,
        );
    }
}

#[cfg(test)]
mod tests;
