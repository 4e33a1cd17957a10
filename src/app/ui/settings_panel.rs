//! The settings (F2): the user's [`Preferences`] as this run uses them (the saved ones with
//! the command line's overrides), an egui panel that changes them live, and saving them to
//! the store a moment after the last change.
//!
//! A change in the panel goes to both this run's settings and the saved ones; an override
//! from the command line goes to this run's only, so `--fov 80` never becomes the saved
//! field of view unless the user moves that slider.

use std::path::Path;
use std::time::{Duration, Instant};

use egui::{Align2, Color32, RichText};

use crate::app::bindings::Move;

use walkthrough_core::player::{BOOM_LENGTH_RANGE, FOV_RANGE_DEG, FieldOfView};
use walkthrough_core::preferences::{
    LightingMode, PAD_LOOK_SPEED_RANGE, Preferences, RENDER_SCALE_RANGE, RUN_FACTOR_RANGE,
    SENSITIVITY_RANGE, SUN_AZIMUTH_RANGE, SUN_ELEVATION_RANGE, TextureFilter, WALKING_SPEED_RANGE,
    WINDOW_SIDE_RANGE, key_label,
};
use walkthrough_core::text::names::Named;

/// The height the panel leaves free in the window (its title, the margins), points.
const PANEL_CLEARANCE: f32 = 120.0;

/// What a move's key button says while it waits for the key to bind.
const PRESS_A_KEY: &str = "press a key (Esc keeps this one)";
/// The width of a move's key button, points: [`PRESS_A_KEY`]'s in egui's font with the
/// button's margins, and some room. At the width of its text, the button widened the
/// values' column when it asked for a key, the panel (centred, sized to its rows) grew,
/// and every row moved sideways under the pointer.
const KEY_BUTTON_WIDTH: f32 = 240.0;

/// A software renderer's frame rate under which the render scale is suggested.
const SLOW_FPS: f32 = 30.0;
/// How long the frames must stay that slow first (not a load's or a turn's few).
const SLOW_FOR: Duration = Duration::from_secs(2);

/// Watches for frames slow enough, for long enough, to suggest a render scale under 1:
/// once a run, since the user may want every pixel.
#[derive(Debug, Default)]
pub struct ScaleHint {
    /// The frames have been slow since then.
    slow_since: Option<Instant>,
    told: bool,
}

impl ScaleHint {
    /// A frame ended at `now` with the smoothed rate `fps`: true (once) when the frames
    /// have been under [`SLOW_FPS`] for [`SLOW_FOR`].
    pub fn tell(&mut self, fps: f32, now: Instant) -> bool {
        if self.told || fps >= SLOW_FPS {
            self.slow_since = None;
            return false;
        }
        let since = *self.slow_since.get_or_insert(now);
        self.told = now.duration_since(since) >= SLOW_FOR;
        self.told
    }

    /// A map is loading (the frames are held back on purpose, and the loader takes the
    /// cores): the slow frames so far do not count.
    pub fn pause(&mut self) {
        self.slow_since = None;
    }
}

/// The settings of this run, the saved ones, and the panel.
pub struct SettingsState {
    /// The panel shows.
    pub open: bool,
    /// The panel has just opened: its first control takes the keyboard focus, so the
    /// arrow keys change the field of view at once. (Tab does not reliably do it: egui
    /// lets the last arrow or Tab of a frame pick the focus direction, so a Tab that
    /// shares a slow frame with an arrow is lost.)
    pub focus_first: bool,
    /// The mouse looked around when the panel opened: closing it captures the cursor
    /// again, as a game's menu gives the view back (else the mouse would turn nothing after
    /// the panel closed).
    pub recapture: bool,
    /// What this run uses.
    pub live: Preferences,
    /// What the store keeps (the panel's changes, without the command line's overrides).
    pub saved: Preferences,
    /// The command line's overrides, as the panel names them.
    pub overridden: Vec<&'static str>,
    /// The saved settings changed then and are not written yet.
    pub changed_at: Option<Instant>,
    /// Why the last write failed, for the panel.
    pub save_error: Option<String>,
    /// Where they are saved, for the panel.
    pub file: String,
    /// The walking speed or run factor changed while a script played: they apply when it
    /// ends.
    pub walk_pending: bool,
    /// Suggests the render scale when a software renderer's frames are slow.
    pub scale_hint: ScaleHint,
    /// The move whose button was pressed: the next key pressed is bound to it (Esc
    /// keeps the one it has).
    pub binding: Option<Move>,
    /// A key was just bound: a click egui sees in the same press is not a new binding.
    pub binding_done: bool,
}

impl SettingsState {
    /// This run's settings `live`: `saved` (kept in `file`) with the command line's
    /// settings over them, set by the options `overridden`.
    pub fn new(
        saved: &Preferences,
        live: Preferences,
        overridden: Vec<&'static str>,
        file: Option<&Path>,
    ) -> SettingsState {
        SettingsState {
            open: false,
            focus_first: false,
            recapture: false,
            live,
            saved: saved.clone(),
            overridden,
            changed_at: None,
            save_error: None,
            walk_pending: false,
            scale_hint: ScaleHint::default(),
            binding: None,
            binding_done: false,
            file: file.map_or_else(
                || "not saved: there is no config folder".into(),
                |f| format!("saved as you change them, in {}", f.display()),
            ),
        }
    }

    /// This run's field of view (the renderer's projection, the minimap's cone).
    pub fn fov(&self) -> FieldOfView {
        FieldOfView::new(self.live.fov)
    }

    /// The mouse's motion in pixels as a turn, degrees: yaw left positive, pitch up
    /// positive (down with invert Y).
    pub fn mouse_turn(&self, dx: f64, dy: f64) -> (f32, f32) {
        let k = self.live.mouse_sensitivity;
        let pitch = -dy as f32 * k;
        (
            -dx as f32 * k,
            if self.live.invert_y { -pitch } else { pitch },
        )
    }
}

/// The panel, inside egui's frame; what changed is applied after it.
pub fn panel(prefs: &mut SettingsState, ctx: &egui::Context) -> PanelAnswer {
    if !prefs.open {
        return PanelAnswer::default();
    }
    let before = prefs.live.clone();
    let mut answer = PanelAnswer::default();
    egui::Window::new("Settings")
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        // As tall as the window allows; a small window scrolls to the control Tab reaches.
        .vscroll(true)
        .min_height(ctx.content_rect().height() - PANEL_CLEARANCE)
        .show(ctx, |ui| {
            answer.close = settings_grid(ui, prefs);
        });
    answer.changed = (prefs.live != before).then_some(before);
    answer
}

/// What the panel did this frame.
#[derive(Debug, Default)]
pub struct PanelAnswer {
    /// The settings changed: what they were before.
    pub changed: Option<Preferences>,
    /// The panel asked to close.
    pub close: bool,
}

/// One row of the panel: `label`, then the control `add` makes for this run's value
/// (true when the user changed it); a change is saved too.
fn row<T: Copy>(
    ui: &mut egui::Ui,
    label: &str,
    live: &mut T,
    saved: &mut T,
    add: impl FnOnce(&mut egui::Ui, &mut T) -> bool,
) {
    ui.label(label);
    if ui.horizontal(|ui| add(ui, live)).inner {
        *saved = *live;
    }
    ui.end_row();
}

/// A slider that one Tab reaches and the arrow keys move, with `shown` written beside it
/// as plain text once it is drawn. egui's own number box beside a slider took a Tab of
/// its own, and there the arrows moved a text cursor instead of the value.
fn slider<T: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    value: &mut T,
    make: impl FnOnce(&mut T) -> egui::Slider<'_>,
    shown: impl FnOnce(T) -> String,
) -> egui::Response {
    let r = ui.add(make(value).show_value(false));
    ui.label(shown(*value));
    r
}

/// The panel's rows; true when Close was pressed. A change goes to this run's settings and
/// the saved ones.
fn settings_grid(ui: &mut egui::Ui, p: &mut SettingsState) -> bool {
    // Above the rows: in a window of 720 pixels the Close button is below the fold, and
    // nothing on screen said how to close the panel.
    ui.label(
        RichText::new("F2 or Esc closes.  Tab: the next setting; arrows change it.")
            .size(12.0)
            .color(Color32::LIGHT_GRAY),
    );
    ui.add_space(4.0);
    rows(ui, p);
    footer(ui, p)
}

/// The rows of settings, one control each (one Tab apart).
fn rows(ui: &mut egui::Ui, p: &mut SettingsState) {
    let live = &mut p.live;
    let saved = &mut p.saved;
    let focus_first = &mut p.focus_first;
    egui::Grid::new("settings")
        .num_columns(2)
        .spacing([16.0, 8.0])
        .show(ui, |ui| {
            row(
                ui,
                "Field of view",
                &mut live.fov,
                &mut saved.fov,
                |ui, v| {
                    let r = slider(
                        ui,
                        v,
                        |v| egui::Slider::new(v, FOV_RANGE_DEG).step_by(1.0),
                        |v| format!("{v:.0}° across"),
                    );
                    // Not in egui's invisible sizing pass of a new window: it takes no focus.
                    if *focus_first && !ui.is_sizing_pass() {
                        r.request_focus();
                        *focus_first = false;
                    }
                    r.changed()
                },
            );
            let (l, s) = (&mut live.mouse_sensitivity, &mut saved.mouse_sensitivity);
            row(ui, "Mouse sensitivity", l, s, |ui, v| {
                slider(
                    ui,
                    v,
                    |v| egui::Slider::new(v, SENSITIVITY_RANGE).logarithmic(true),
                    |v| format!("{v:.3}° / pixel"),
                )
                .changed()
            });
            row(
                ui,
                "Invert mouse Y",
                &mut live.invert_y,
                &mut saved.invert_y,
                |ui, v| ui.checkbox(v, "").changed(),
            );
            let (l, s) = (&mut live.walking_speed, &mut saved.walking_speed);
            row(ui, "Walking speed", l, s, |ui, v| {
                slider(
                    ui,
                    v,
                    |v| egui::Slider::new(v, WALKING_SPEED_RANGE).logarithmic(true),
                    |v| format!("{v:.2} m/s"),
                )
                .changed()
            });
            let (l, s) = (&mut live.run_factor, &mut saved.run_factor);
            row(ui, "Run factor (Shift)", l, s, |ui, v| {
                slider(
                    ui,
                    v,
                    |v| egui::Slider::new(v, RUN_FACTOR_RANGE).step_by(0.1),
                    |v| format!("{v:.1}×"),
                )
                .changed()
            });
            row(ui, "Vsync", &mut live.vsync, &mut saved.vsync, |ui, v| {
                ui.checkbox(v, "").changed()
            });
            let (l, s) = (&mut live.texture_filter, &mut saved.texture_filter);
            row(ui, "Texture filter", l, s, |ui, v| {
                let before = *v;
                egui::ComboBox::from_id_salt("texture_filter")
                    .selected_text(v.name())
                    .show_ui(ui, |ui| {
                        for f in TextureFilter::ALL {
                            ui.selectable_value(v, f, f.name());
                        }
                    });
                *v != before
            });
            let (l, s) = (&mut live.render_scale, &mut saved.render_scale);
            row(ui, "Render scale", l, s, |ui, v| {
                slider(
                    ui,
                    v,
                    |v| egui::Slider::new(v, RENDER_SCALE_RANGE).step_by(0.05),
                    |v| format!("{v:.2}× a side"),
                )
                .changed()
            });
            window_size_row(ui, live, saved);
            view_rows(ui, live, saved);
            move_rows(ui, live, &mut p.binding, &mut p.binding_done);
            pad_rows(ui, live, saved);
            lighting_rows(ui, live, saved);
        });
}

/// The window's size, a field a side, taken when the field is left or Enter pressed:
/// typing 1920 went through windows 1, 19 and 192 wide.
fn window_size_row(ui: &mut egui::Ui, live: &mut Preferences, saved: &mut Preferences) {
    let (l, s) = (&mut live.window_size, &mut saved.window_size);
    row(ui, "Window size", l, s, |ui, v| {
        v.iter_mut().fold(false, |changed, side| {
            let d = egui::DragValue::new(side)
                .range(WINDOW_SIDE_RANGE)
                .update_while_editing(false);
            ui.add(d.suffix(" px")).changed() | changed
        })
    });
}

/// The light's rows: lighting auto, on or off, and the sun's height and bearing.
fn lighting_rows(ui: &mut egui::Ui, live: &mut Preferences, saved: &mut Preferences) {
    let (l, s) = (&mut live.lighting, &mut saved.lighting);
    row(ui, "Lighting", l, s, |ui, v| {
        let before = *v;
        egui::ComboBox::from_id_salt("lighting")
            .selected_text(lighting_words(*v))
            .show_ui(ui, |ui| {
                for m in LightingMode::ALL {
                    ui.selectable_value(v, *m, lighting_words(*m));
                }
            });
        *v != before
    });
    let (l, s) = (&mut live.sun_elevation, &mut saved.sun_elevation);
    row(ui, "Sun elevation", l, s, |ui, v| {
        slider(
            ui,
            v,
            |v| egui::Slider::new(v, SUN_ELEVATION_RANGE).step_by(1.0),
            |v| format!("{v:.0}°"),
        )
        .changed()
    });
    let (l, s) = (&mut live.sun_azimuth, &mut saved.sun_azimuth);
    row(ui, "Sun bearing", l, s, |ui, v| {
        slider(
            ui,
            v,
            |v| egui::Slider::new(v, SUN_AZIMUTH_RANGE).step_by(1.0),
            |v| format!("{v:.0}° from -Z"),
        )
        .changed()
    });
}

/// What the lighting row says of `mode`: `auto` with what it does.
fn lighting_words(mode: LightingMode) -> &'static str {
    match mode {
        LightingMode::Auto => "auto (on with a GPU, off in software)",
        LightingMode::On => "on",
        LightingMode::Off => "off",
    }
}

/// The view's rows: third person (V) and the boom's length (Ctrl + the mouse wheel).
fn view_rows(ui: &mut egui::Ui, live: &mut Preferences, saved: &mut Preferences) {
    let (l, s) = (&mut live.third_person, &mut saved.third_person);
    row(ui, "Third person (V)", l, s, |ui, v| {
        ui.checkbox(v, "").changed()
    });
    let (l, s) = (&mut live.boom_length, &mut saved.boom_length);
    row(ui, "Third-person boom", l, s, |ui, v| {
        slider(
            ui,
            v,
            |v| egui::Slider::new(v, BOOM_LENGTH_RANGE).step_by(0.25),
            |v| format!("{v:.2} m"),
        )
        .changed()
    });
}

/// A row a move: its key, on a button that waits for the next key pressed to bind it
/// (the app's key handler takes it: [`SettingsState::binding`]).
fn move_rows(
    ui: &mut egui::Ui,
    live: &mut Preferences,
    binding: &mut Option<Move>,
    done: &mut bool,
) {
    for m in Move::ALL {
        ui.label(m.label());
        let text = if *binding == Some(m) {
            PRESS_A_KEY
        } else {
            key_label(m.key_of(live))
        };
        let button = egui::Button::new(text).min_size(egui::vec2(KEY_BUTTON_WIDTH, 0.0));
        // The key just bound may be Space or Enter, which egui takes for a click on the
        // focused button too: that click is not a new wish to bind.
        if ui.add(button).clicked() && !*done {
            *binding = Some(m);
        }
        ui.end_row();
    }
    *done = false;
}

/// The gamepad's rows: its look speed and inversion.
fn pad_rows(ui: &mut egui::Ui, live: &mut Preferences, saved: &mut Preferences) {
    let (l, s) = (&mut live.pad_look_speed, &mut saved.pad_look_speed);
    row(ui, "Gamepad look speed", l, s, |ui, v| {
        slider(
            ui,
            v,
            |v| egui::Slider::new(v, PAD_LOOK_SPEED_RANGE).step_by(5.0),
            |v| format!("{v:.0}° / s"),
        )
        .changed()
    });
    let (l, s) = (&mut live.pad_invert_y, &mut saved.pad_invert_y);
    row(ui, "Gamepad invert Y", l, s, |ui, v| {
        ui.checkbox(v, "").changed()
    });
}

/// Below the rows: which settings the command line set, where they are saved, and the
/// Defaults and Close buttons; true when Close was pressed.
fn footer(ui: &mut egui::Ui, p: &mut SettingsState) -> bool {
    let (live, saved) = (&mut p.live, &mut p.saved);
    let note = |t: String| RichText::new(t).size(12.0).color(Color32::LIGHT_GRAY);
    if !p.overridden.is_empty() {
        ui.label(note(format!(
            "for this run only: {} (a change here is saved)",
            p.overridden.join(", ")
        )));
    }
    if let Some(e) = &p.save_error {
        ui.label(
            RichText::new(e)
                .size(12.0)
                .color(Color32::from_rgb(255, 160, 90)),
        );
    } else {
        ui.label(note(p.file.clone()));
    }
    let mut close = false;
    ui.horizontal(|ui| {
        if ui.button("Defaults").clicked() {
            *live = Preferences::default();
            *saved = Preferences::default();
        }
        close = ui.button("Close (F2)").clicked();
    });
    close
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_render_scale_is_suggested_once_after_two_seconds_of_slow_frames() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut hint = ScaleHint::default();
        // Slow for a moment (a load, a turn), then fast: nothing.
        assert!(!hint.tell(12.0, at(0)));
        assert!(!hint.tell(12.0, at(1500)));
        assert!(!hint.tell(45.0, at(1600)));
        // Slow again: the two seconds count from here.
        assert!(!hint.tell(20.0, at(1700)));
        assert!(!hint.tell(20.0, at(3600)));
        assert!(hint.tell(20.0, at(3700)));
        // Once a run.
        assert!(!hint.tell(20.0, at(9000)));
    }

    /// Every big load said "frames are slow here" (the loading
    /// frames are held back on purpose); the slow frames before a pause do not count.
    #[test]
    fn frames_slow_while_a_map_loads_suggest_nothing() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut hint = ScaleHint::default();
        // Slow before the load began, then paused at every frame of the load.
        assert!(!hint.tell(4.0, at(0)));
        assert!(!hint.tell(4.0, at(1900)));
        for _ in (2_000..10_000).step_by(250) {
            hint.pause();
        }
        // Slow after the load: counted from its end.
        assert!(!hint.tell(20.0, at(10_000)));
        assert!(!hint.tell(20.0, at(11_900)));
        assert!(hint.tell(20.0, at(12_100)));
    }

    /// The panel laid out by egui alone in a window of 960 x 600 points, for a few frames
    /// (a new window sizes itself over two): its rectangle.
    fn panel_rect(ctx: &egui::Context, p: &mut SettingsState) -> egui::Rect {
        for _ in 0..4 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(960.0, 600.0),
                )),
                ..Default::default()
            };
            let _ = ctx.run_ui(input, |ui| {
                panel(p, ui.ctx());
            });
        }
        // The panel is the one window (egui's own id for it is private).
        ctx.memory(|m| {
            let mut windows = m.areas().visible_layer_ids().into_iter();
            let panel = windows.find(|l| l.order == egui::Order::Middle)?;
            m.area_rect(panel.id)
        })
        .expect("the panel laid out")
    }

    /// A key button asking for its key ("press a key ...") widened the values' column, so
    /// the panel, centred, grew and each row moved sideways. The panel keeps its place and
    /// size, whichever move waits for a key.
    #[test]
    fn the_rows_do_not_move_while_a_key_button_asks_for_a_key() {
        let ctx = egui::Context::default();
        let mut p = SettingsState::new(
            &Preferences::default(),
            Preferences::default(),
            vec![],
            None,
        );
        p.open = true;
        let before = panel_rect(&ctx, &mut p);
        for m in Move::ALL {
            p.binding = Some(m);
            let asking = panel_rect(&ctx, &mut p);
            assert_eq!(asking, before, "{m:?} asks for a key: the panel moved");
        }
    }
}
