//! Loading a map on a worker thread while the window keeps drawing the old one, and
//! walking in it: a load that takes longer than [`PROGRESS_AFTER`] shows a progress bar
//! (the bytes parsed, then each stage), and Esc cancels it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

use walkthrough_core::cull::{CLUSTER_TRIANGLES, ClusteredMesh, cluster_map};
use walkthrough_core::map::minimap::{TopDown, top_down};
use walkthrough_core::map::progress::{PROGRESS_AFTER, Progress, Stage};
use walkthrough_core::session::open::{self, OpenWith, Opened};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::store::{self, ContentKey, Store};

use super::App;
use super::ui::hud::warnings_note;
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
    /// The map cut into the renderer's clusters, here rather than on the window's thread.
    pub mesh: ClusteredMesh,
    /// How long the minimap and the clusters took, after the map was open (not in its
    /// load line, which [`Session::describe`] writes).
    pub drawing: Duration,
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
    /// The map named on the command line, big enough to be loaded with the window open
    /// (see [`super::loads_in_the_window`]): its spawn, heading and pitch as given, and
    /// `--forget` as given; if it cannot be loaded, the window closes with the error, as
    /// it would have before opening.
    First {
        /// `--forget`: drop what is remembered of the file.
        forget: bool,
    },
}

/// What R and U say while the map named on the command line loads (they would reload or
/// turn the built-in map standing in, and give that load up without a word).
pub const FIRST_LOADING: &str =
    "the map is loading (the built-in map stands in): R and U work once it is in; Esc gives it up";

/// A map being loaded in the background.
pub struct Loading {
    /// What is loading, for the HUD.
    pub what: String,
    /// When it started.
    pub since: Instant,
    /// What to do with it once loaded.
    pub purpose: Purpose,
    /// How far it has come (the worker tells it).
    pub progress: Arc<Progress>,
    /// The progress bar has shown (and the terminal was told so, once).
    pub shown: bool,
    rx: Receiver<Result<Loaded, String>>,
}

/// An Esc this soon after a load whose bar showed has ended was meant to cancel it (the
/// load ended as the key went down, or before the next frame took the bar away): it does
/// not quit the window, as an Esc with the mouse free otherwise does.
pub const ESC_AFTER_LOAD: Duration = Duration::from_millis(1500);

/// Whether an Esc at `now` was meant for a load that ended at `ended` (see
/// [`ESC_AFTER_LOAD`]).
pub fn esc_meant_for_load(ended: Option<Instant>, now: Instant) -> bool {
    ended.is_some_and(|t| now.saturating_duration_since(t) < ESC_AFTER_LOAD)
}

/// What the loading screen shows.
pub struct LoadStatus {
    /// What is loading, the stage, how long so far, and how to cancel.
    pub line: String,
    /// How much is done, 0 to 1.
    pub fraction: f32,
}

impl Loading {
    /// Start loading `path` (the built-in map for `None`) through [`open::open`] with
    /// `open`'s frame (a frame remembered in `store` fills what it leaves open); the spawn
    /// and view are found anew.
    pub fn start(
        path: Option<PathBuf>,
        open: &OpenOptions,
        mut store: Store,
        purpose: Purpose,
    ) -> Loading {
        let (tx, rx) = channel();
        // The command line's place is the first map's only: another map gets its own.
        let open = match purpose {
            Purpose::First { .. } => *open,
            _ => OpenOptions {
                spawn: None,
                yaw_deg: None,
                pitch_deg: None,
                ..*open
            },
        };
        // `--forget` is done on the window's own store once the key is known (see
        // `App::forget_first`): this thread's copy of the store is not the one saved, and
        // recalls nothing for a file to be forgotten.
        let forget = purpose == Purpose::First { forget: true };
        let what = path
            .as_ref()
            .map_or("built-in map".to_string(), |p| p.display().to_string());
        let progress = Arc::new(Progress::default());
        let watched = Arc::clone(&progress);
        std::thread::spawn(move || {
            let store = (!forget).then_some(&mut store);
            let with = OpenWith::user(store, false, &watched);
            let opened = open::open(path.as_deref(), &open, with);
            // The window may have closed meanwhile, or given up on this load (Esc, or
            // another load): nobody to tell, nothing lost, and not worth going on with.
            if watched.cancelled() {
                return;
            }
            let Opened { session, key, .. } = match opened {
                Ok(opened) => opened,
                Err(e) => {
                    let _ = tx.send(Err(e.to_string()));
                    return;
                }
            };
            let t = Instant::now();
            // The minimap is part of preparing the map for drawing (seconds at ten
            // million triangles, under a bar that still said "surveying").
            watched.enter(Stage::Clusters);
            let minimap = top_down(&session.map, IMAGE_SIDE);
            if watched.cancelled() {
                return;
            }
            let mesh = cluster_map(&session.map, CLUSTER_TRIANGLES);
            watched.enter(Stage::Done);
            let _ = tx.send(Ok(Loaded {
                session,
                minimap,
                key,
                mesh,
                drawing: t.elapsed(),
            }));
        });
        Loading {
            what,
            since: Instant::now(),
            purpose,
            progress,
            shown: false,
            rx,
        }
    }

    /// The loading screen's line and how much is done, once the load has taken longer
    /// than [`PROGRESS_AFTER`].
    pub fn status(&self) -> Option<LoadStatus> {
        let elapsed = self.since.elapsed();
        if elapsed < PROGRESS_AFTER {
            return None;
        }
        let p = &self.progress;
        let stage = p.doing();
        Some(LoadStatus {
            line: format!(
                "loading {}: {stage} ... {:.1} s (Esc cancels it; you stay where you are)",
                self.what,
                elapsed.as_secs_f32()
            ),
            fraction: p.fraction(),
        })
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
            Purpose::Open | Purpose::First { .. } => self.memory.correction = None,
            Purpose::Reload => {
                if let Some(c) = self.memory.correction {
                    (open.up, open.scale, open.remembered) = (None, None, Some(c));
                }
            }
            Purpose::Turn => {}
        }
        self.load_with(path, open, purpose);
    }

    /// Load `path` with exactly `open`'s options, for `purpose`.
    pub(super) fn load_with(&mut self, path: Option<PathBuf>, open: OpenOptions, purpose: Purpose) {
        // A load replaced is given up (and said to be): its worker stops at its next look.
        if let Some(old) = &self.loading {
            old.progress.cancel();
            self.overlays
                .hud
                .notify(format!("loading {} given up for another load", old.what));
        }
        self.loading = Some(Loading::start(
            path,
            &open,
            self.memory.store.clone(),
            purpose,
        ));
    }

    /// `--forget` for the first map, once its key is known: what is remembered of it is
    /// dropped from the window's store (the one saved; the loader's is a copy).
    fn forget_first(&mut self, key: &ContentKey, path: &std::path::Path) {
        let mut open = self.config.open;
        if let Some(note) = store::recall_by_key(&mut self.memory.store, key, path, &mut open, true)
        {
            tell!("{note}");
        }
    }

    /// Whether the map named on the command line is still loading (the built-in map
    /// stands in): R and U would reload or turn the stand-in, and `--exit-after` waits.
    pub(super) fn first_loading(&self) -> bool {
        self.loading
            .as_ref()
            .is_some_and(|l| matches!(l.purpose, Purpose::First { .. }))
    }

    /// Give up the load in progress (Esc): the worker stops at its next look, and the map
    /// being walked stays. Returns whether there was one.
    pub(super) fn cancel_loading(&mut self) -> bool {
        let Some(l) = self.loading.take() else {
            return false;
        };
        l.progress.cancel();
        // Said once: the notice goes to the terminal too.
        self.overlays.hud.notify(format!(
            "loading {} cancelled; still walking the map you had: {}",
            l.what, self.overlays.hud.map_label
        ));
        true
    }

    /// Whether an Esc now was meant for the load that just ended (it is then said, and
    /// the next Esc quits).
    pub(super) fn esc_for_ended_load(&mut self) -> bool {
        if !esc_meant_for_load(self.life.load_ended.take(), Instant::now()) {
            return false;
        }
        self.overlays
            .hud
            .notify("the map had finished loading before Esc: Esc again to quit".into());
        true
    }

    /// Let go of the map's drawn triangles once the renderer has them (0.96 GB at ten
    /// million triangles, a fifth of the window's peak): what is walked is the collision
    /// world. Kept when a mirror was found among them (a rescale finds the mirrors again
    /// from them) and for a scene.
    pub(super) fn release_drawn_map(&mut self) {
        let verbose = self.config.common.verbose;
        if !self.mirrors.is_empty() {
            if verbose {
                tell!(
                    "the map keeps its drawn triangles: a rescale finds its mirrors ({}) again from them",
                    self.mirrors.len()
                );
            }
            return;
        }
        let session = &mut self.sim.session;
        if session.is_scene() || session.map.vertices.is_empty() {
            return;
        }
        let bytes = session.map.vertices.bytes();
        session.map.release_drawn();
        if verbose {
            tell!(
                "the map's drawn triangles let go ({:.0} MB): the renderer has its own",
                bytes as f64 / 1e6
            );
        }
    }

    /// Upload the loaded map's `mesh` to the GPU for a walk starting at `eye`, name the
    /// window for it and say how long drawing it took to prepare (`drawing`, while
    /// loading) and the whole wait since the load began (`since`).
    fn upload_loaded(
        &mut self,
        mesh: ClusteredMesh,
        eye: glam::Vec3,
        drawing: Duration,
        since: Instant,
    ) {
        let Some(gpu) = &mut self.gpu else { return };
        let map = &self.sim.session.map;
        gpu.ctx
            .window
            .set_title(&format!("walkthrough - {}", map.name));
        let upload = Instant::now();
        let clusters = mesh.clusters.len();
        gpu.renderer.upload(map, mesh, eye);
        // The load line counts the map's open; what the window adds is said here, with
        // the whole wait.
        tell!(
            "prepared for drawing in {:.0} ms (its minimap and {clusters} clusters, made while loading), uploaded to the GPU in {:.0} ms: in the window {:.1} s after the load began",
            drawing.as_secs_f64() * 1e3,
            upload.elapsed().as_secs_f64() * 1e3,
            since.elapsed().as_secs_f64()
        );
    }

    /// Take the loaded map, if the worker is done and the window's renderer is there to
    /// take its clusters (a load can end before the window is made).
    pub(super) fn poll_loading(&mut self) {
        if self.gpu.is_none() {
            return;
        }
        let Some(result) = self.loading.as_ref().and_then(Loading::poll) else {
            return;
        };
        let Some(Loading {
            purpose,
            shown,
            since,
            ..
        }) = self.loading.take()
        else {
            return;
        };
        if shown {
            self.life.load_ended = Some(Instant::now());
        }
        match result {
            // The map the window was opened for: closed with the error, as before opening.
            Err(e) if matches!(purpose, Purpose::First { .. }) => {
                self.life.error = Some(e);
                self.life.quitting = true;
            }
            Err(e) => self.overlays.hud.notify(format!("could not load: {e}")),
            Ok(Loaded {
                session,
                minimap,
                key,
                mesh,
                drawing,
            }) => {
                crate::cli::terminal::report_loaded(&session, self.config.common.verbose);
                // The command line's pitch is the first map's.
                let first_pose = matches!(purpose, Purpose::First { .. })
                    .then(|| session.start_pose(self.config.open.pitch_deg));
                if let (Purpose::First { forget: true }, Some(k), Some(path)) =
                    (purpose, &key, &session.map.source)
                {
                    self.forget_first(k, path);
                }
                if first_pose.is_some() {
                    // --exit-after counts from here, as it did from a window that opened
                    // once the map was in.
                    self.life.started = Instant::now();
                }
                // From where the walk will start (a reload keeps the pose).
                let eye = if purpose == Purpose::Reload {
                    self.sim.controller.view_pose().position
                } else {
                    session.start_pose(None).position
                };
                self.config.map = session.map.source.clone();
                if matches!(purpose, Purpose::Open | Purpose::First { .. }) {
                    self.note_recent();
                }
                self.memory.content_key = key;
                self.overlays.minimap.replace(minimap);
                self.stop_recording("the map changed: ");
                let moved = self
                    .sim
                    .replace_session(session, purpose == Purpose::Reload);
                if let Some(pose) = first_pose {
                    self.sim.controller.place(pose);
                }
                self.load_decals();
                self.marks = walkthrough_core::measure::Marks::default();
                self.find_mirrors();
                // Before the upload, as for a map opened before the window: a software
                // renderer's copy of the clusters would otherwise be made beside the map's
                // own triangles (0.96 GB at ten million).
                self.release_drawn_map();
                self.upload_loaded(mesh, eye, drawing, since);
                let session = &self.sim.session;
                self.overlays
                    .hud
                    .show_map(session.label(), session.map.frame, session.is_scene());
                // A new map asks again when the survey is unsure of it; the same map
                // turned or reloaded was answered already.
                self.memory.offer = match purpose {
                    Purpose::Open | Purpose::First { .. } => Offer::of(session),
                    Purpose::Reload | Purpose::Turn => None,
                };
                if let Some(o) = &self.memory.offer {
                    tell!("{}", o.text);
                }
                if purpose == Purpose::Turn {
                    self.corrected(format!("up axis {}", session.map.frame.up));
                } else {
                    let loaded = format!("loaded {}", self.overlays.hud.map_label);
                    let msg = match moved {
                        Some(w) => format!("{loaded}; {w}"),
                        None => loaded,
                    };
                    let note = warnings_note(&self.sim.session.map.warnings);
                    self.overlays.hud.notify_with(msg, note);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_esc_just_after_a_load_ended_quit_the_window() {
        let ended = Instant::now();
        assert!(esc_meant_for_load(Some(ended), ended));
        let soon = ended + ESC_AFTER_LOAD - Duration::from_millis(1);
        assert!(esc_meant_for_load(Some(ended), soon));
        assert!(!esc_meant_for_load(Some(ended), ended + ESC_AFTER_LOAD));
        // No load ended (or the Esc after one was spent): Esc quits as before.
        assert!(!esc_meant_for_load(None, ended));
    }
}
