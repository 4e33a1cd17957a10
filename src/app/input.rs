//! What the window reads of the user's hands: the held keys, the gamepads, the mouse
//! (captured for mouse look, where the cursor was, the wheel's last notch) and the
//! Control key.

use std::time::{Duration, Instant};

use winit::dpi::PhysicalPosition;
use winit::event::MouseScrollDelta;
use winit::window::{CursorGrabMode, Window};

use super::gamepad::{Gamepads, PadState, PlayedEvent};
use super::keys::HeldKeys;
use super::mouse_look::{CursorLook, LookSource};

/// Two equal wheel lines closer than this are one notch told twice (see
/// [`Input::wheel_echo`]).
const WHEEL_ECHO: Duration = Duration::from_millis(3);

/// The keyboard, the gamepads and the mouse as the window last saw them.
pub struct Input {
    /// The movement keys held (and the pads' held moves, handed to them each frame).
    pub keys: HeldKeys,
    /// What the gamepads hold.
    pub pad: PadState,
    /// The gamepads themselves (or the events `--pad-events` plays).
    pub gamepads: Gamepads,
    /// When the pads were last read (the right stick turns by the time since).
    pad_polled: Option<Instant>,
    /// The cursor is captured for mouse look.
    pub captured: bool,
    /// Where mouse look reads the mouse while captured.
    pub look: LookSource,
    /// The window is an X11 one (mouse look then reads the cursor: see
    /// [`super::mouse_look`]).
    pub x11: bool,
    /// Where the cursor was last seen in the window.
    pub cursor: Option<PhysicalPosition<f64>>,
    /// A Control key is held (Ctrl+1..9 saves a view).
    pub ctrl: bool,
    /// The last wheel event and when (an X11 notch comes twice: see
    /// [`Input::wheel_echo`]).
    last_wheel: Option<LastWheel>,
}

/// A wheel event and when it came.
#[derive(Clone, Copy)]
struct LastWheel {
    at: Instant,
    delta: MouseScrollDelta,
}

impl Input {
    /// Nothing held, the mouse free, `played` the pad events to play (none: the real
    /// pads), the movement keys bound as `keys` has them.
    pub fn new(keys: HeldKeys, played: Vec<PlayedEvent>) -> Input {
        Input {
            keys,
            pad: PadState::default(),
            gamepads: Gamepads::new(played),
            pad_polled: None,
            captured: false,
            look: LookSource::Raw,
            x11: false,
            cursor: None,
            ctrl: false,
            last_wheel: None,
        }
    }

    /// The pads are read at `now`: the seconds since they were last (the right stick
    /// turns by them; none the first time).
    pub fn pads_polled(&mut self, now: Instant) -> f32 {
        let since = self.pad_polled.replace(now);
        since.map_or(0.0, |t| now.saturating_duration_since(t).as_secs_f32())
    }

    /// Capture the cursor in `window` for mouse look, or free it. A capture the window
    /// refuses (neither locked nor confined) leaves the mouse free.
    pub fn set_capture(&mut self, window: &Window, on: bool) {
        if on {
            let locked = window.set_cursor_grab(CursorGrabMode::Locked).is_ok();
            if !locked && window.set_cursor_grab(CursorGrabMode::Confined).is_err() {
                return;
            }
            // A confined pointer's raw motion comes twice on X11: read the cursor there.
            self.look = if !locked && self.x11 {
                LookSource::Cursor(CursorLook::default())
            } else {
                LookSource::Raw
            };
            window.set_cursor_visible(false);
        } else {
            // Failing to release a grab leaves nothing to do: the cursor shows either way.
            let _ = window.set_cursor_grab(CursorGrabMode::None);
            window.set_cursor_visible(true);
        }
        self.captured = on;
    }

    /// The captured cursor seen at `at` in `window`: when mouse look reads the cursor
    /// (X11), the pixels it went (put back in the middle if it strayed); `None` when
    /// mouse look reads the raw motion instead. The cursor is remembered either way.
    pub fn cursor_moved(
        &mut self,
        window: &Window,
        at: PhysicalPosition<f64>,
    ) -> Option<(f64, f64)> {
        let last = self.cursor.replace(at);
        let LookSource::Cursor(look) = &mut self.look else {
            return None;
        };
        if !self.captured {
            return None;
        }
        let turn = look.moved(last, at, window.inner_size());
        if let Some(middle) = turn.warp_to
            && window.set_cursor_position(middle).is_ok()
        {
            look.warped(middle);
        }
        Some((turn.dx, turn.dy))
    }

    /// Whether the wheel event `delta` is the echo of the one before: on X11 one notch
    /// reaches winit twice, the same line a fraction of a millisecond apart (measured
    /// under Xvfb: 0.2 to 0.6 ms), and each notch changed the walking speed twice (x1.32).
    /// A second notch of a real wheel comes milliseconds later.
    pub fn wheel_echo(&mut self, delta: MouseScrollDelta) -> bool {
        let now = Instant::now();
        let last = self.last_wheel.replace(LastWheel { at: now, delta });
        self.x11
            && matches!(delta, MouseScrollDelta::LineDelta(..))
            && last.is_some_and(|l| l.delta == delta && now - l.at < WHEEL_ECHO)
    }
}
