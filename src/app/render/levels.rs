//! The map's levels of detail ([`walkthrough_core::cull::lod`]), made on a thread of their own
//! while the map is already drawn in full, and handed over in batches as they are made,
//! the clusters farthest from the eye first: simplifying conference's clusters takes
//! most of a second, which neither the load nor the far clusters wait for. Once made,
//! they are kept in the cache folder ([`walkthrough_core::session::cache::levels`]): the
//! map opened again has them at its first frame, and no thread is started.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use glam::Vec3;
use walkthrough_core::cull::ClusteredMesh;
use walkthrough_core::cull::lod::{BATCH_CLUSTERS, Levels, farthest_first, simplify_in_batches};
use walkthrough_core::session::cache::levels::{self as cache, Fingerprint, MAX_FOLDER_BYTES};
use walkthrough_core::store::cache_dir;

/// Levels of detail being made, or none.
#[derive(Default)]
pub struct LevelsJob {
    /// The thread making them (none when it could not be started, or it is done).
    thread: Option<JoinHandle<()>>,
    /// Its batches, as they are made.
    batches: Option<Receiver<Levels>>,
    /// All the levels, read from the cache: handed over whole by the first take.
    kept: Option<Levels>,
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
    /// They were read from the cache, not made.
    pub from_cache: bool,
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
    /// `mesh`'s levels: read from the cache folder when they are kept there, else made
    /// on a thread, the clusters farthest from `eye` first, and kept once all are made;
    /// `textured[m]` says material `m` has a texture. A system that refuses the thread
    /// gets none: the map is drawn in full.
    pub fn start(mesh: Arc<ClusteredMesh>, textured: Vec<bool>, eye: Vec3) -> LevelsJob {
        let started = Instant::now();
        let fingerprint = Fingerprint::of(&mesh, &textured);
        let dir = cache_dir();
        let mut job = LevelsJob {
            scale: 1.0,
            started: Some(started),
            ..LevelsJob::default()
        };
        match dir
            .as_deref()
            .and_then(|d| cache::load(d, &mesh, fingerprint))
        {
            Some(Ok(levels)) => {
                job.kept = Some(levels);
                job.made.from_cache = true;
                return job;
            }
            Some(Err(e)) => tell!("warning: {e}; the levels of detail are made again"),
            None => {}
        }
        let (send, batches) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("levels of detail".into())
            .spawn(move || {
                let order = farthest_first(&mesh, eye);
                let mut all = Levels::none(mesh.originals());
                let mut wanted = true;
                simplify_in_batches(&mesh, &textured, &order, BATCH_CLUSTERS, |levels| {
                    all.join(levels.clone());
                    // A closed channel: the renderer has another mesh now; stop.
                    wanted = send.send(levels).is_ok();
                    wanted
                });
                if let (true, Some(dir)) = (wanted, dir) {
                    let kept = cache::store(&dir, fingerprint, &all, MAX_FOLDER_BYTES);
                    if let Err(e) = kept {
                        tell!("warning: the levels of detail are not kept for next time: {e}");
                    }
                }
            })
            .inspect_err(|e| tell!("warning: no levels of detail (no thread: {e})"))
            .ok();
        job.batches = thread.is_some().then_some(batches);
        job.thread = thread;
        job
    }

    /// A batch taken: scaled as the mesh was since, and counted.
    fn arrived(&mut self, mut levels: Levels) -> Arrival {
        if self.scale != 1.0 {
            levels.scale_by(self.scale);
        }
        self.made.triangles += levels.triangles();
        self.made.simplified += levels.simplified();
        self.made.took = self.started.map_or(Duration::ZERO, |t| t.elapsed());
        Arrival::Batch(levels)
    }

    /// The mesh was scaled by `factor`, as its levels will be.
    pub fn scaled(&mut self, factor: f32) {
        self.scale *= factor;
    }

    /// The next batch made, if one is waiting; once all are taken, what they came to
    /// (once).
    pub fn take(&mut self) -> Arrival {
        if let Some(levels) = self.kept.take() {
            return self.arrived(levels);
        }
        if self.made.from_cache {
            // Read whole: the next take says so, once.
            return match self.started.take() {
                Some(_) => Arrival::Done(self.made),
                None => Arrival::Waiting,
            };
        }
        let Some(batches) = &self.batches else {
            return Arrival::Waiting;
        };
        match batches.try_recv() {
            Ok(levels) => self.arrived(levels),
            Err(TryRecvError::Empty) => Arrival::Waiting,
            Err(TryRecvError::Disconnected) => {
                self.batches = None;
                let failed = self.thread.take().is_some_and(|t| t.join().is_err());
                if failed {
                    tell!("warning: the levels of detail stopped (their thread failed)");
                }
                Arrival::Done(self.made)
            }
        }
    }
}
