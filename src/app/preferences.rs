//! The user's settings applied to this run: what the F2 panel ([`super::ui::settings_panel`])
//! changed, the window's size as the user left it, and saving them to the store a moment
//! after the last change.

use std::time::{Duration, Instant};

use winit::dpi::PhysicalSize;

use walkthrough_core::player::ViewKind;
use walkthrough_core::preferences::{Preferences, WINDOW_SIDE_RANGE, key_label};
use winit::keyboard::KeyCode;

use super::App;
use super::bindings::{Move, MoveKeys, key_name, rebind};

/// How long the settings rest unchanged before they are written: a slider's drag is one
/// write, not one a frame.
const SAVE_AFTER: Duration = Duration::from_millis(500);

/// The window size `asked` in the settings panel, each side no larger than `screen`'s
/// (when the screen is known). Typed as 99999, the window would go 16384 pixels wide,
/// the panel off the screen with no way back to it, and the size saved for every later
/// run.
pub(super) fn within_screen(asked: [u32; 2], screen: Option<[u32; 2]>) -> [u32; 2] {
    match screen {
        Some([w, h]) if w > 0 && h > 0 => [asked[0].min(w), asked[1].min(h)],
        _ => asked,
    }
}

/// Pixels of a screen a window's frame and the desktop take around the window: side
/// borders (across), a title bar and a panel (down). winit tells no work area, so a saved
/// size past the screen opens this much smaller than it, wholly in sight (a saved
/// 1024x768 on a 1024x768 screen opened at y=40, its bottom off the screen).
pub(super) const FRAME_ROOM: [u32; 2] = [16, 80];

/// A monitor's place on the desktop and its size, pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ScreenRect {
    /// Its top-left corner.
    pub(super) origin: [i32; 2],
    /// Its width and height.
    pub(super) size: [u32; 2],
}

/// Where and how large a window opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Opening {
    /// Its inner size.
    pub(super) size: [u32; 2],
    /// Its outer top-left, when the window is placed (else the window manager places it).
    pub(super) position: Option<[i32; 2]>,
}

/// How a window of the saved size `saved` opens on `screen`: as saved when it fits the
/// screen less [`FRAME_ROOM`]; else shrunk to fit (by [`within_screen`]) and centred on the
/// screen, so that it opens wholly on it.
pub(super) fn opening_on(saved: [u32; 2], screen: Option<ScreenRect>) -> Opening {
    let Some(ScreenRect { origin, size }) = screen.filter(|s| s.size[0] > 0 && s.size[1] > 0)
    else {
        return Opening {
            size: saved,
            position: None,
        };
    };
    let room = [0, 1].map(|i| size[i].saturating_sub(FRAME_ROOM[i]).max(1));
    let fit = within_screen(saved, Some(room));
    if fit == saved {
        return Opening {
            size: saved,
            position: None,
        };
    }
    let centred = [0, 1].map(|i| origin[i] + i32::try_from((size[i] - fit[i]) / 2).unwrap_or(0));
    Opening {
        size: fit,
        position: Some(centred),
    }
}

impl App {
    /// F2: show or hide the panel. Showing it frees the mouse and lets go of held keys (the
    /// keyboard is the panel's until it closes); hiding it saves what changed, and gives
    /// the mouse back to the view when it looked around before.
    pub(super) fn toggle_settings(&mut self) {
        self.prefs.open = !self.prefs.open;
        self.prefs.focus_first = self.prefs.open;
        if self.prefs.open {
            self.prefs.recapture = self.input.captured;
            self.set_capture(false);
            self.input.keys.clear();
        } else {
            self.save_settings(true);
            if std::mem::take(&mut self.prefs.recapture) {
                self.set_capture(true);
            }
        }
    }

    /// Bind the move `m` to `key` (pressed after its button in the panel), in this run's
    /// settings and the saved ones.
    pub(super) fn bind_key(&mut self, m: Move, key: KeyCode) {
        let Some(name) = key_name(key) else {
            return self.overlays.hud.notify(format!(
                "{key:?} cannot be a move's key: {} kept",
                m.label()
            ));
        };
        let swapped = rebind(&mut self.prefs.live, m, name);
        rebind(&mut self.prefs.saved, m, name);
        self.prefs.changed_at = Some(Instant::now());
        self.input.keys.bind(MoveKeys::of(&self.prefs.live));
        let said = match swapped {
            Some(o) => format!(
                "{}: {} ({} now {}, the key it had)",
                m.label(),
                key_label(name),
                o.label(),
                key_label(o.key_of(&mut self.prefs.live))
            ),
            None => format!("{}: {}", m.label(), key_label(name)),
        };
        self.overlays.hud.notify(said);
    }

    /// Apply what the panel changed (`before`: the settings before it).
    pub(super) fn apply_settings(&mut self, before: &Preferences) {
        let live = self.prefs.live.clone();
        self.prefs.changed_at = Some(Instant::now());
        // Defaults puts the moves' keys back.
        let bound = MoveKeys::of(&live);
        if bound != MoveKeys::of(before) {
            self.input.keys.bind(bound);
        }
        if live.third_person != before.third_person {
            self.set_view(if live.third_person {
                ViewKind::Third
            } else {
                ViewKind::First
            });
        }
        if live.walking_speed != before.walking_speed || live.run_factor != before.run_factor {
            if self.sim.scripted() {
                self.prefs.walk_pending = true;
                self.overlays.hud.notify(
                    "a script is playing: the walking speed and run factor apply after it".into(),
                );
            } else {
                self.walk_as_set();
            }
        }
        let Some(gpu) = &mut self.gpu else { return };
        gpu.renderer.set_preferences(&live, gpu.ctx.software);
        if live.vsync != before.vsync
            && let Err(e) = gpu.ctx.set_vsync(live.vsync)
        {
            self.overlays.hud.notify(format!("warning: {e}"));
        }
        let w = &gpu.ctx.window;
        if live.window_size != before.window_size {
            let screen = w
                .current_monitor()
                .map(|m| [m.size().width, m.size().height]);
            let fit = within_screen(live.window_size, screen);
            if fit != live.window_size {
                let [a, b] = live.window_size;
                self.overlays.hud.notify(format!(
                    "window size {a}x{b} kept within the screen: {}x{}",
                    fit[0], fit[1]
                ));
                self.prefs.live.window_size = fit;
                self.prefs.saved.window_size = fit;
            }
            // Fullscreen, the size waits for F11 to give the window back.
            if w.fullscreen().is_none() {
                let [width, height] = fit;
                let _ = w.request_inner_size(PhysicalSize::new(width, height));
            }
        }
    }

    /// The window now has `size` (resized by hand, by the window manager, or as the panel
    /// asked). A size the user chose for a window (not fullscreen, not maximized: those are
    /// the screen's) becomes this run's and the saved setting, as the panel's field would,
    /// so the next run opens as the window was left.
    pub(super) fn window_resized(&mut self, size: PhysicalSize<u32>) {
        let Some(gpu) = &self.gpu else { return };
        let window = &gpu.ctx.window;
        let chosen = [size.width, size.height];
        if window.fullscreen().is_some()
            || window.is_maximized()
            || chosen == self.prefs.live.window_size
            // A minimized window can report 0 x 0.
            || !chosen.iter().all(|side| WINDOW_SIDE_RANGE.contains(side))
        {
            return;
        }
        self.prefs.live.window_size = chosen;
        self.prefs.saved.window_size = chosen;
        self.prefs.changed_at = Some(Instant::now());
    }

    /// Walk at this run's walking speed and run factor from the next step (a recording
    /// writes them).
    fn walk_as_set(&mut self) {
        let live = &self.prefs.live;
        let s = &mut self.sim.controller.settings;
        s.speed = live.walking_speed;
        s.run_multiplier = live.run_factor;
        let lines = [
            format!("speed {}", live.walking_speed),
            format!("run-factor {}", live.run_factor),
        ];
        for line in lines {
            self.sim.record_set(&line);
        }
    }

    /// A script ended: what the panel changed meanwhile for the walk applies now.
    pub(super) fn script_ended_settings(&mut self) {
        if std::mem::take(&mut self.prefs.walk_pending) {
            self.walk_as_set();
        }
    }

    /// Write the saved settings when they have rested [`SAVE_AFTER`] (`now`: whatever
    /// their age). A write that fails is a warning: this run keeps them.
    pub(super) fn save_settings(&mut self, now: bool) {
        let Some(at) = self.prefs.changed_at else {
            return;
        };
        if !now && at.elapsed() < SAVE_AFTER {
            return;
        }
        self.prefs.changed_at = None;
        match self.memory.store.set_settings(&self.prefs.saved) {
            Ok(()) => self.prefs.save_error = None,
            Err(e) => {
                let msg = format!("warning: settings kept for this run, not saved: {e}");
                self.overlays.hud.notify(msg.clone());
                self.prefs.save_error = Some(msg);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 99999 typed into the panel's window size gave a window 16384
    /// pixels wide, saved for every later run.
    #[test]
    fn a_window_size_from_the_panel_is_kept_within_the_screen() {
        let screen = Some([1280, 800]);
        assert_eq!(within_screen([99999, 720], screen), [1280, 720]);
        assert_eq!(within_screen([640, 4000], screen), [640, 800]);
        assert_eq!(within_screen([1024, 768], screen), [1024, 768]);
        // No screen known (or one reported as 0 x 0): as asked.
        assert_eq!(within_screen([5000, 5000], None), [5000, 5000]);
        assert_eq!(within_screen([5000, 5000], Some([0, 0])), [5000, 5000]);
    }

    #[test]
    fn a_saved_window_past_the_screen_opens_smaller_than_it_by_the_frame_s_room_and_centred() {
        let screen = Some(ScreenRect {
            origin: [1920, 0],
            size: [1024, 768],
        });
        assert_eq!(
            opening_on([6000, 4000], screen),
            Opening {
                size: [1008, 688],
                position: Some([1928, 40]),
            }
        );
        // As large as the screen: its frame would not fit either.
        assert_eq!(opening_on([1024, 768], screen).size, [1008, 688]);
        // One that fits is left where the window manager puts it.
        assert_eq!(
            opening_on([800, 600], screen),
            Opening {
                size: [800, 600],
                position: None,
            }
        );
        assert_eq!(opening_on([6000, 4000], None).size, [6000, 4000]);
    }
}
