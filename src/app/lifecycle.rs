//! The window's life: when it opened, whether it shows, the Esc that asks before
//! quitting, the quit on its way, and the error the run ends with.

use std::time::{Duration, Instant};

use winit::event_loop::ActiveEventLoop;

/// How long after an Esc that said "Esc again to quit" another one quits.
pub const ESC_AGAIN: Duration = Duration::from_secs(3);

/// Where the window is between opening and closing.
pub struct Lifecycle {
    /// When the window opened, or the map came in (for `--exit-after`).
    pub started: Instant,
    /// When a load whose progress bar showed last ended (an Esc just after is the
    /// user's cancel come too late, not a quit: see `loading::ESC_AFTER_LOAD`).
    pub load_ended: Option<Instant>,
    /// The window is hidden (minimised, or covered whole): nothing is drawn.
    pub occluded: bool,
    /// When an Esc said "Esc again to quit": another within [`ESC_AGAIN`] quits.
    pub quit_armed: Option<Instant>,
    /// Quit after the next frame (which takes the exit screenshot, if one is due).
    pub quitting: bool,
    /// `App::exit` ran (a held Esc asks again before the loop ends: one exit picture).
    pub exited: bool,
    /// What the run ends with as its error.
    pub error: Option<String>,
}

impl Lifecycle {
    /// Just opened: shown, nothing asked.
    pub fn new() -> Lifecycle {
        Lifecycle {
            started: Instant::now(),
            load_ended: None,
            occluded: false,
            quit_armed: None,
            quitting: false,
            exited: false,
            error: None,
        }
    }

    /// An Esc said "Esc again to quit" now.
    pub fn arm_quit(&mut self) {
        self.quit_armed = Some(Instant::now());
    }

    /// An Esc now quits: one said "Esc again to quit" within [`ESC_AGAIN`].
    pub fn quit_is_armed(&self) -> bool {
        self.quit_armed.is_some_and(|t| t.elapsed() < ESC_AGAIN)
    }

    /// Whether the exit has already run (marking it run).
    pub fn mark_exited(&mut self) -> bool {
        std::mem::replace(&mut self.exited, true)
    }

    /// Quit with `msg` as the error.
    pub fn fail(&mut self, event_loop: &ActiveEventLoop, msg: String) {
        self.error = Some(msg);
        event_loop.exit();
    }
}
