//! The map's levels of detail ([`walkthrough::cull::lod`]), made on a thread of their own
//! while the map is already drawn in full, and handed over in batches as they are made,
//! the clusters farthest from the eye first: simplifying conference's clusters takes
//! most of a second, which neither the load nor the far clusters wait for.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use glam::Vec3;
use walkthrough::cull::ClusteredMesh;
use walkthrough::cull::lod::{BATCH_CLUSTERS, Levels, farthest_first, simplify_in_batches};

/// Levels of detail being made, or none.
#[derive(Default)]
pub struct LevelsJob {
    /// The thread making them (none when it could not be started, or it is done).
    thread: Option<JoinHandle<()>>,
    /// Its batches, as they are made.
    batches: Option<Receiver<Levels>>,
    /// The mesh has been scaled by this since the levels were begun: they are scaled by
    /// it when taken.
    scale: f32,
    /// When they were begun.
    started: Option<Instant>,
    /// What the batches taken so far hold.
    made: Made,
}

/// What the levels of detail came to.
#[derive(Clone, Copy, Debug, Default)]
pub struct Made {
    /// Triangles in all the levels.
    pub triangles: usize,
    /// Clusters that have levels.
    pub simplified: usize,
    /// From the start to the last batch taken.
    pub took: Duration,
}

/// What [`LevelsJob::take`] found.
pub enum Arrival {
    /// A batch of levels, to add to the mesh.
    Batch(Levels),
    /// All were made and taken: the job is over.
    Done(Made),
    /// Nothing new.
    Waiting,
}

impl LevelsJob {
    /// Begin making `mesh`'s levels, the clusters farthest from `eye` first; `textured[m]`
    /// says material `m` has a texture. A system that refuses the thread gets none: the
    /// map is drawn in full.
    pub fn start(mesh: Arc<ClusteredMesh>, textured: Vec<bool>, eye: Vec3) -> LevelsJob {
        let (send, batches) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("levels of detail".into())
            .spawn(move || {
                let order = farthest_first(&mesh, eye);
                // A closed channel: the renderer has another mesh now; stop.
                simplify_in_batches(&mesh, &textured, &order, BATCH_CLUSTERS, |levels| {
                    send.send(levels).is_ok()
                });
            })
            .inspect_err(|e| eprintln!("warning: no levels of detail (no thread: {e})"))
            .ok();
        LevelsJob {
            batches: thread.is_some().then_some(batches),
            thread,
            scale: 1.0,
            started: Some(Instant::now()),
            made: Made::default(),
        }
    }

    /// The mesh was scaled by `factor`, as its levels will be.
    pub fn scaled(&mut self, factor: f32) {
        self.scale *= factor;
    }

    /// The next batch made, if one is waiting; once all are taken, what they came to
    /// (once).
    pub fn take(&mut self) -> Arrival {
        let Some(batches) = &self.batches else {
            return Arrival::Waiting;
        };
        match batches.try_recv() {
            Ok(mut levels) => {
                if self.scale != 1.0 {
                    levels.scale_by(self.scale);
                }
                self.made.triangles += levels.triangles();
                self.made.simplified += levels.simplified();
                self.made.took = self.started.map_or(Duration::ZERO, |t| t.elapsed());
                Arrival::Batch(levels)
            }
            Err(TryRecvError::Empty) => Arrival::Waiting,
            Err(TryRecvError::Disconnected) => {
                self.batches = None;
                let failed = self.thread.take().is_some_and(|t| t.join().is_err());
                if failed {
                    eprintln!("warning: the levels of detail stopped (their thread failed)");
                }
                Arrival::Done(self.made)
            }
        }
    }
}
