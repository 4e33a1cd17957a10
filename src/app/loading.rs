//! Loading a map on a worker thread while the window keeps drawing the old one.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Instant;

use walkthrough::map::minimap::{TopDown, top_down};
use walkthrough::session::{OpenOptions, Session};
use walkthrough::store::{self, ContentKey, Store};

use super::App;
use super::ui::minimap::IMAGE_SIDE;
use super::ui::offer::Offer;

/// A map loaded on the worker, with its minimap image drawn there too.
pub struct Loaded {
    /// The map, ready to walk.
    pub session: Session,
    /// Its top-down image.
    pub minimap: TopDown,
    /// The map file's content key (for remembering a correction).
    pub key: Option<ContentKey>,
}

/// Why a map is loading: what happens to the player and to a correction once it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Another map (a dropped file): a new spawn, and its own remembered frame.
    Open,
    /// The same map again (R): the player keeps their place if it is still inside, and a
    /// correction made in the window holds.
    Reload,
    /// The same map with another up axis (U): scale and spawn surveyed again, and the
    /// frame remembered for the file.
    Turn,
}

/// A map being loaded in the background.
pub struct Loading {
    /// What is loading, for the HUD.
    pub what: String,
    /// When it started.
    pub since: Instant,
    /// What to do with it once loaded.
    pub purpose: Purpose,
    rx: Receiver<Result<Loaded, String>>,
}

impl Loading {
    /// Start loading `path` (the built-in map for `None`) with `open`'s frame (a frame
    /// remembered in `store` fills what it leaves open); the spawn and view are found anew.
    pub fn start(
        path: Option<PathBuf>,
        open: &OpenOptions,
        mut store: Store,
        purpose: Purpose,
    ) -> Loading {
        let (tx, rx) = channel();
        let mut open = OpenOptions {
            spawn: None,
            yaw_deg: None,
            pitch_deg: None,
            ..*open
        };
        let what = path
            .as_ref()
            .map_or("built-in map".to_string(), |p| p.display().to_string());
        std::thread::spawn(move || {
            let recall = store::recall(&mut store, path.as_deref(), &mut open, false);
            // The window may have closed meanwhile: nobody to tell, nothing lost.
            let loaded = Session::open(path.as_deref(), &open).map(|session| Loaded {
                minimap: top_down(&session.map, IMAGE_SIDE),
                session,
                key: recall.key,
            });
            let _ = tx.send(loaded.map_err(|e| e.to_string()));
        });
        Loading {
            what,
            since: Instant::now(),
            purpose,
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
    /// Load a map in the background for `purpose`; the window keeps drawing the old one
    /// meanwhile. A later load replaces one still running.
    pub(super) fn load_in_background(&mut self, path: Option<PathBuf>, purpose: Purpose) {
        let mut open = self.config.open;
        match purpose {
            Purpose::Open => self.correction = None,
            Purpose::Reload => {
                if let Some(c) = self.correction {
                    (open.up, open.scale, open.remembered) = (None, None, Some(c));
                }
            }
            Purpose::Turn => {}
        }
        self.load_with(path, open, purpose);
    }

    /// Load `path` with exactly `open`'s options, for `purpose`.
    pub(super) fn load_with(&mut self, path: Option<PathBuf>, open: OpenOptions, purpose: Purpose) {
        self.loading = Some(Loading::start(path, &open, self.store.clone(), purpose));
    }

    /// Take the loaded map, if the worker is done.
    pub(super) fn poll_loading(&mut self) {
        let Some(result) = self.loading.as_ref().and_then(Loading::poll) else {
            return;
        };
        let purpose = self.loading.take().map_or(Purpose::Open, |l| l.purpose);
        match result {
            Err(e) => self.overlay.notify(format!("could not load: {e}")),
            Ok(Loaded {
                session,
                minimap,
                key,
            }) => {
                crate::terminal::report_loaded(&session, self.config.common.verbose);
                if let Some(gpu) = &mut self.gpu {
                    // From where the walk will start (a reload keeps the pose).
                    let eye = if purpose == Purpose::Reload {
                        self.sim.controller.view_pose().position
                    } else {
                        session.start_pose(None).position
                    };
                    gpu.renderer.upload(&session.map, eye);
                }
                self.config.map = session.map.source.clone();
                self.content_key = key;
                self.minimap.replace(minimap);
                self.stop_recording("the map changed: ");
                self.sim
                    .replace_session(session, purpose == Purpose::Reload);
                self.load_decals();
                self.find_mirrors();
                let session = &self.sim.session;
                self.overlay.show_map(session.label(), session.map.frame);
                // A new map asks again when the survey is unsure of it; the same map
                // turned or reloaded was answered already.
                self.offer = match purpose {
                    Purpose::Open => Offer::of(session),
                    Purpose::Reload | Purpose::Turn => None,
                };
                if let Some(o) = &self.offer {
                    eprintln!("{}", o.text);
                }
                if purpose == Purpose::Turn {
                    self.corrected(format!("up axis {}", session.map.frame.up));
                } else {
                    let msg = format!("loaded {}", self.overlay.map_label);
                    self.overlay.notify(msg);
                }
            }
        }
    }
}
