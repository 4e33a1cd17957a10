//! The map's levels of detail ([`walkthrough::cull::lod`]), made on a thread of their own
//! while the map is already drawn in full: simplifying conference's clusters takes a
//! fifth of a second, which the load does not wait for.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use walkthrough::cull::ClusteredMesh;
use walkthrough::cull::lod::{Levels, simplify_clusters};

/// Levels of detail being made, or none.
#[derive(Default)]
pub struct LevelsJob {
    /// The thread making them (none when it could not be started, or they were taken).
    thread: Option<JoinHandle<Levels>>,
    /// The mesh has been scaled by this since the levels were begun: they are scaled by
    /// it when taken.
    scale: f32,
    /// When they were begun.
    started: Option<Instant>,
}

impl LevelsJob {
    /// Begin making `mesh`'s levels; `textured[m]` says material `m` has a texture. A
    /// system that refuses the thread gets none: the map is drawn in full.
    pub fn start(mesh: Arc<ClusteredMesh>, textured: Vec<bool>) -> LevelsJob {
        let thread = std::thread::Builder::new()
            .name("levels of detail".into())
            .spawn(move || simplify_clusters(&mesh, &textured))
            .inspect_err(|e| eprintln!("warning: no levels of detail (no thread: {e})"))
            .ok();
        LevelsJob {
            thread,
            scale: 1.0,
            started: Some(Instant::now()),
        }
    }

    /// The mesh was scaled by `factor`, as its levels will be.
    pub fn scaled(&mut self, factor: f32) {
        self.scale *= factor;
    }

    /// The levels, once they are made (once), and how long that took.
    pub fn take_finished(&mut self) -> Option<(Levels, Duration)> {
        if !self.thread.as_ref()?.is_finished() {
            return None;
        }
        let mut levels = self
            .thread
            .take()?
            .join()
            .inspect_err(|_| eprintln!("warning: no levels of detail (their thread failed)"))
            .ok()?;
        if self.scale != 1.0 {
            levels.scale_by(self.scale);
        }
        Some((levels, self.started.map_or(Duration::ZERO, |t| t.elapsed())))
    }
}
