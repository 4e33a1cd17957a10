//! Loading a map on a worker thread while the window keeps drawing the old one.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Instant;

use walkthrough::session::{OpenOptions, Session};

use walkthrough::map::minimap::{TopDown, top_down};

use super::App;
use super::minimap::IMAGE_SIDE;

/// A map loaded on the worker, with its minimap image drawn there too.
pub struct Loaded {
    /// The map, ready to walk.
    pub session: Session,
    /// Its top-down image.
    pub minimap: TopDown,
}

/// A map being loaded in the background.
pub struct Loading {
    /// What is loading, for the HUD.
    pub what: String,
    /// When it started.
    pub since: Instant,
    /// Keep the player's place if it is inside the new map (a reload).
    pub keep_pose: bool,
    rx: Receiver<Result<Loaded, String>>,
}

impl Loading {
    /// Start loading `path` (the built-in map for `None`) with `open`'s scale and axis; the
    /// spawn and view are found anew.
    pub fn start(path: Option<PathBuf>, open: &OpenOptions, keep_pose: bool) -> Loading {
        let (tx, rx) = channel();
        let open = OpenOptions {
            spawn: None,
            yaw_deg: None,
            pitch_deg: None,
            ..*open
        };
        let what = path
            .as_ref()
            .map_or("built-in map".to_string(), |p| p.display().to_string());
        std::thread::spawn(move || {
            // The window may have closed meanwhile: nobody to tell, nothing lost.
            let loaded = Session::open(path.as_deref(), &open).map(|session| Loaded {
                minimap: top_down(&session.map, IMAGE_SIDE),
                session,
            });
            let _ = tx.send(loaded.map_err(|e| e.to_string()));
        });
        Loading {
            what,
            since: Instant::now(),
            keep_pose,
            rx,
        }
    }

    /// The result, once the worker is done.
    pub fn poll(&self) -> Option<Result<Loaded, String>> {
        match self.rx.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(format!(
                "{}: the loader stopped without an answer",
                self.what
            ))),
        }
    }
}

impl App {
    /// Load a map in the background; the window keeps drawing the old one meanwhile.
    pub(super) fn load_in_background(&mut self, path: Option<PathBuf>, keep_pose: bool) {
        self.loading = Some(Loading::start(path, &self.config.open, keep_pose));
    }

    /// Take the loaded map, if the worker is done.
    pub(super) fn poll_loading(&mut self) {
        let Some(result) = self.loading.as_ref().and_then(Loading::poll) else {
            return;
        };
        let keep_pose = self.loading.take().is_some_and(|l| l.keep_pose);
        match result {
            Err(e) => self.overlay.notify(format!("could not load: {e}")),
            Ok(Loaded { session, minimap }) => {
                crate::report_loaded(&session, self.config.verbose);
                if let Some(gpu) = &mut self.gpu {
                    gpu.renderer.upload(&session.map);
                }
                self.config.map = session.map.source.clone();
                self.minimap.replace(minimap);
                self.sim.replace_session(session, keep_pose);
                let session = &self.sim.session;
                self.overlay
                    .show_map(session.label(), session.map.frame.scale);
                let msg = format!("loaded {}", self.overlay.map_label);
                self.overlay.notify(msg);
            }
        }
    }
}
