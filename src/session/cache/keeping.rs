//! Keeping a built map in the cache in two parts, so that a first open does not wait for
//! all of its file (a ten-million-triangle map's is 1.3 GB, seconds to write): the map's
//! part while the survey runs (the map itself changes once the survey is done: turned,
//! scaled, and in the window let go once drawn), then the world's triangles and tree,
//! which a clone of the world shares with the walk and never copies, on a thread of its
//! own beside the walk when the world stays as built, else at once.
//!
//! A file is written under a name of its own (`map-<digest>.<pid>-<n>.partial`: two
//! programs, or two loads of one, keeping the same map never write into one file) and put
//! in place whole; one given up is removed. What is still being written when the program ends is waited for
//! ([`finish_keeping`]): its file would otherwise be left a part.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;

use super::sections::Writer;
use super::{MAX_FOLDER_BYTES, file_for, trim, write_map, write_world};
use crate::collision::CollisionWorld;
use crate::files::Digest;
use crate::map::{Map, Solids};

/// What keeping a map says when it fails (the cache never stops a load).
const NOT_KEPT: &str = "the built map was not kept in the cache";

/// Keepings begun by this program, for their files' names.
static KEEPINGS: AtomicU64 = AtomicU64::new(0);

/// The writes still going on beside the walk, joined by [`finish_keeping`].
static BESIDE: Mutex<Vec<JoinHandle<Result<(), String>>>> = Mutex::new(Vec::new());

/// A built map's file with its map's part written, its world's still to come.
pub struct Keeping {
    dir: PathBuf,
    /// Where the file goes once whole.
    path: PathBuf,
    /// Where it is written until then.
    partial: PathBuf,
    w: Writer<BufWriter<File>>,
}

impl Keeping {
    /// Begin keeping `map` (with `solids`), whose built world is `world`, in `dir` as the
    /// map of content `digest`: the file made, and the map's part written.
    pub fn begin(
        dir: &Path,
        digest: &Digest,
        map: &Map,
        solids: &Solids,
        world: &CollisionWorld,
    ) -> Result<Keeping, String> {
        std::fs::create_dir_all(dir).map_err(|e| {
            format!(
                "{NOT_KEPT}: {}: cannot create the folder: {e}",
                dir.display()
            )
        })?;
        let path = file_for(dir, digest);
        // Of this program, and of this keeping: the window's R reopens a map while its
        // file is still being written beside the walk.
        let n = KEEPINGS.fetch_add(1, Ordering::Relaxed);
        let partial = path.with_extension(format!("{}-{n}.partial", std::process::id()));
        let failed = |e: std::io::Error, what: &str| {
            format!("{NOT_KEPT}: {}: cannot {what}: {e}", path.display())
        };
        let file = File::create(&partial).map_err(|e| failed(e, "create"))?;
        let mut keeping = Keeping {
            dir: dir.to_path_buf(),
            path: path.clone(),
            partial,
            w: Writer {
                out: BufWriter::with_capacity(1 << 20, file),
            },
        };
        // Given up on an error: dropped, the part written is removed.
        write_map(&mut keeping.w, digest, map, solids, world.stats())
            .map_err(|e| failed(e, "write"))?;
        Ok(keeping)
    }

    /// Write the world's part (`world` is the one the map's part was begun with), put the
    /// file in place and trim the folder.
    pub fn finish(mut self, world: &CollisionWorld) -> Result<(), String> {
        let shown = self.path.display().to_string();
        write_world(&mut self.w, world)
            .map_err(|e| format!("{NOT_KEPT}: {shown}: cannot write: {e}"))?;
        std::fs::rename(&self.partial, &self.path)
            .map_err(|e| format!("{NOT_KEPT}: {shown}: cannot rename: {e}"))?;
        trim(&self.dir, MAX_FOLDER_BYTES);
        Ok(())
    }

    /// [`finish`](Self::finish) on a thread of its own, beside the walk, with `world` (a
    /// clone, which shares the walk's triangles and tree). Where the system refuses a
    /// thread the map is not kept (the part written is removed).
    pub fn finish_beside(self, world: CollisionWorld) -> Result<(), String> {
        let thread = std::thread::Builder::new()
            .name("keep-map".into())
            .spawn(move || self.finish(&world))
            .map_err(|e| format!("{NOT_KEPT}: no thread to write it: {e}"))?;
        besides().push(thread);
        Ok(())
    }
}

impl Drop for Keeping {
    /// A file given up (an error, or never finished) is removed; a finished one was moved
    /// into place already.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.partial);
    }
}

/// The writes going on beside the walk (a poisoned lock still holds them).
fn besides() -> std::sync::MutexGuard<'static, Vec<JoinHandle<Result<(), String>>>> {
    BESIDE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Is a built map still being written beside the walk (the program would wait for it)?
pub fn keeping_now() -> bool {
    besides().iter().any(|thread| !thread.is_finished())
}

/// Wait for every built map still being kept beside the walk: each that failed, a
/// warning. A program calls it before it ends.
pub fn finish_keeping() -> Vec<String> {
    let pending = std::mem::take(&mut *besides());
    pending
        .into_iter()
        .filter_map(|thread| match thread.join() {
            Ok(kept) => kept.err(),
            Err(_) => Some(format!("{NOT_KEPT}: its writer stopped")),
        })
        .collect()
}
