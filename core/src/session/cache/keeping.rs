//! Keeping a built map in the cache in two parts, so that a first open does not wait for
//! all of its file (a ten-million-triangle map's is 1.3 GB, seconds to write): the map's
//! part while the survey runs (the map itself changes once the survey is done: turned,
//! scaled, and in the window let go once drawn), then the world's triangles and tree,
//! which a clone of the world shares with the walk and never copies, on a thread of its
//! own beside the walk when the world stays as built, else at once.
//!
//! A file is written under a name of its own (`map-<digest>.<pid>-<n>-<space>.partial`,
//! the space saying where the process number holds, [`super::parts::process_space`];
//! made only where no file is: two programs, or two loads of one, keeping the same map
//! never write into one file) and put in place whole; one given up is removed. As the program ends
//! ([`finish_keeping`]) what is written beside the walk is waited for (until a Ctrl-C
//! gives it up), no keeping begins any more, and the parts of those a load still had
//! under way (the window closed while it loaded) are removed: no part is left behind.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use super::parts::process_space;
use super::sections::Writer;
use super::write::{write_map, write_world};
use super::{MAX_FOLDER_BYTES, file_for, trim};
use crate::collision::CollisionWorld;
use crate::files::{Digest, create_folder};
use crate::map::{Map, Solids};

/// What keeping a map says when it fails (the cache never stops a load).
const NOT_KEPT: &str = "the built map was not kept in the cache";

/// Why, when the program's end gave its write up.
const INTERRUPTED: &str = "the program was interrupted";

/// Names a file may take before keeping gives up (each taken by another program).
const NAME_TRIES: u64 = 16;

/// Keepings begun by this program, for their files' names.
static KEEPINGS: AtomicU64 = AtomicU64::new(0);

/// This program's keepings.
static KEEPERS: Mutex<Keepers> = Mutex::new(Keepers::new());

/// What a program keeps track of while it keeps built maps.
pub(super) struct Keepers {
    /// The program is ending: no keeping begins, none goes beside the walk.
    closing: bool,
    /// The program's end stopped waiting for the writes beside the walk: none of them
    /// puts its file in place any more (each was said not kept).
    given_up: bool,
    /// The writes going on beside the walk.
    beside: Vec<Beside>,
    /// The parts of files being written (begun, not yet finished or given up).
    writing: Vec<PathBuf>,
}

impl Keepers {
    pub(super) const fn new() -> Keepers {
        Keepers {
            closing: false,
            given_up: false,
            beside: Vec::new(),
            writing: Vec::new(),
        }
    }
}

/// A write beside the walk.
pub(super) struct Beside {
    thread: JoinHandle<Result<(), String>>,
    /// Its file is in place, whole (the thread may still be trimming the folder): the
    /// program's end, giving up the threads not done, does not say it was not kept.
    /// Set under the keepers' lock, as the file is put in place.
    placed: Arc<AtomicBool>,
}

/// `keepers` locked (a poisoned lock still holds them).
fn lock(keepers: &Mutex<Keepers>) -> MutexGuard<'_, Keepers> {
    keepers.lock().unwrap_or_else(|e| e.into_inner())
}

/// A built map's file with its map's part written, its world's still to come.
pub struct Keeping {
    dir: PathBuf,
    /// Where the file goes once whole.
    path: PathBuf,
    /// Where it is written until then.
    partial: PathBuf,
    w: Writer<BufWriter<File>>,
    keepers: &'static Mutex<Keepers>,
    /// Its file is in place ([`Beside::placed`]).
    placed: Arc<AtomicBool>,
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
        Keeping::begin_in(&KEEPERS, dir, digest, map, solids, world)
    }

    /// [`begin`](Self::begin), kept track of in `keepers`.
    pub(super) fn begin_in(
        keepers: &'static Mutex<Keepers>,
        dir: &Path,
        digest: &Digest,
        map: &Map,
        solids: &Solids,
        world: &CollisionWorld,
    ) -> Result<Keeping, String> {
        create_folder(dir).map_err(|e| format!("{NOT_KEPT}: {e}"))?;
        let path = file_for(dir, digest);
        let failed = |e: std::io::Error, what: &str| {
            format!("{NOT_KEPT}: {}: cannot {what}: {e}", path.display())
        };
        let (partial, file) = {
            let mut keepers = lock(keepers);
            if keepers.closing {
                return Err(format!("{NOT_KEPT}: the program is ending"));
            }
            let (partial, file) = new_part(&path).map_err(|e| failed(e, "create"))?;
            keepers.writing.push(partial.clone());
            (partial, file)
        };
        let mut keeping = Keeping {
            dir: dir.to_path_buf(),
            path: path.clone(),
            partial,
            w: Writer {
                out: BufWriter::with_capacity(1 << 20, file),
            },
            keepers,
            placed: Arc::new(AtomicBool::new(false)),
        };
        // Given up on an error: dropped, the part written is removed.
        write_map(&mut keeping.w, digest, map, solids, world.stats())
            .map_err(|e| failed(e, "write"))?;
        Ok(keeping)
    }

    /// Write the world's part (`world` is the one the map's part was begun with), put the
    /// file in place and trim the folder.
    pub fn finish(self, world: &CollisionWorld) -> Result<(), String> {
        let dir = self.place(world)?;
        trim(&dir, MAX_FOLDER_BYTES);
        Ok(())
    }

    /// Write the world's part and put the file in place: the folder it is in.
    fn place(mut self, world: &CollisionWorld) -> Result<PathBuf, String> {
        let shown = self.path.display().to_string();
        write_world(&mut self.w, world)
            .map_err(|e| format!("{NOT_KEPT}: {shown}: cannot write: {e}"))?;
        {
            // Under the lock: the program's end says a file is lost exactly when it is.
            let keepers = lock(self.keepers);
            if keepers.given_up {
                return Err(format!("{NOT_KEPT}: {INTERRUPTED}"));
            }
            std::fs::rename(&self.partial, &self.path)
                .map_err(|e| format!("{NOT_KEPT}: {shown}: cannot rename: {e}"))?;
            self.placed.store(true, Ordering::Relaxed);
        }
        Ok(std::mem::take(&mut self.dir))
    }

    /// [`finish`](Self::finish) on a thread of its own, beside the walk, with `world` (a
    /// clone, which shares the walk's triangles and tree). Where the system refuses a
    /// thread, or the program is ending, the map is not kept (the part is removed).
    pub fn finish_beside(self, world: CollisionWorld) -> Result<(), String> {
        let keepers = self.keepers;
        if lock(keepers).closing {
            return Err(format!("{NOT_KEPT}: the program is ending"));
        }
        // Not locked meanwhile: a thread refused drops the keeping, which locks. Were the
        // program to end meanwhile, its part is among those removed as it ends.
        let placed = Arc::clone(&self.placed);
        let thread = std::thread::Builder::new()
            .name("keep-map".into())
            .spawn(move || self.finish(&world))
            .map_err(|e| format!("{NOT_KEPT}: no thread to write it: {e}"))?;
        lock(keepers).beside.push(Beside { thread, placed });
        Ok(())
    }
}

impl Drop for Keeping {
    /// A file given up (an error, or never finished) is removed; a finished one was moved
    /// into place already.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.partial);
        lock(self.keepers).writing.retain(|p| *p != self.partial);
    }
}

/// A part for the file at `path` under a name no file has yet (this program's number and
/// its count of keepings; another program, of the same number in another container
/// sharing the folder, may have taken it).
fn new_part(path: &Path) -> std::io::Result<(PathBuf, File)> {
    let mut last = None;
    for _ in 0..NAME_TRIES {
        let n = KEEPINGS.fetch_add(1, Ordering::Relaxed);
        let partial = path.with_extension(format!(
            "{}-{n}-{:x}.partial",
            std::process::id(),
            process_space()
        ));
        match File::options().write(true).create_new(true).open(&partial) {
            Ok(file) => return Ok((partial, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no name left")))
}

/// Is a built map still being written beside the walk (the program would wait for it)?
pub fn keeping_now() -> bool {
    lock(&KEEPERS)
        .beside
        .iter()
        .any(|b| !b.thread.is_finished() && !b.placed.load(Ordering::Relaxed))
}

/// How often the program's end looks whether the user interrupted its wait for the
/// writes beside the walk ([`finish_keeping`]).
const GIVE_UP_POLL: Duration = Duration::from_millis(20);

/// As the program ends: begin no more keepings, wait for every built map still being
/// kept beside the walk (each that failed, a warning) until `given_up` says the user
/// interrupted the program (looked at before the wait and every [`GIVE_UP_POLL`] in it:
/// a Ctrl-C while seconds of writing are left ends the program at once), and remove the
/// parts of those not finished, and of those still under way on threads the program's
/// end will stop (a load in a closed window).
pub fn finish_keeping(given_up: &dyn Fn() -> bool) -> Vec<String> {
    close(&KEEPERS, given_up)
}

/// [`finish_keeping`] for `keepers`.
pub(super) fn close(keepers: &Mutex<Keepers>, given_up: &dyn Fn() -> bool) -> Vec<String> {
    let beside = {
        let mut locked = lock(keepers);
        locked.closing = true;
        std::mem::take(&mut locked.beside)
    };
    while beside.iter().any(|b| !b.thread.is_finished()) && !given_up() {
        std::thread::sleep(GIVE_UP_POLL);
    }
    // Those not finished stop with the program, their parts removed below (a file
    // already in place stays: only its folder's trim is cut short).
    let (done, unfinished): (Vec<_>, Vec<_>) =
        beside.into_iter().partition(|b| b.thread.is_finished());
    let lost = {
        let mut locked = lock(keepers);
        locked.given_up = true;
        unfinished.iter().any(|b| !b.placed.load(Ordering::Relaxed))
    };
    let mut said = join(done);
    if lost {
        said.push(format!("{NOT_KEPT}: {INTERRUPTED}"));
    }
    for part in std::mem::take(&mut lock(keepers).writing) {
        let _ = std::fs::remove_file(part);
    }
    said
}

/// Wait for the writes beside the walk in `keepers` (the program goes on keeping maps).
#[cfg(test)]
pub(super) fn wait_beside(keepers: &Mutex<Keepers>) -> Vec<String> {
    let beside = std::mem::take(&mut lock(keepers).beside);
    join(beside)
}

/// Join the writes `beside`: each that failed, a warning.
fn join(beside: Vec<Beside>) -> Vec<String> {
    beside
        .into_iter()
        .filter_map(|b| match b.thread.join() {
            Ok(kept) => kept.err(),
            Err(_) => Some(format!("{NOT_KEPT}: its writer stopped")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    /// A Ctrl-C once the program's end had begun waiting for a
    /// map's file went unheard for seconds (the interrupt was looked at only before the
    /// wait). A write that never ends is given up as soon as the interrupt is seen.
    #[test]
    fn ctrl_c_during_the_final_wait_gives_the_write_up_at_once() {
        static KEEPERS: Mutex<Keepers> = Mutex::new(Keepers::new());
        let dir = std::env::temp_dir().join("walkthrough-keeping-final-wait");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let part = dir.join("map-a-10.1-0.partial");
        std::fs::write(&part, b"half").unwrap();
        let release = Arc::new(AtomicBool::new(false));
        lock(&KEEPERS).beside.push(endless(&release, false));
        lock(&KEEPERS).writing.push(part.clone());
        // The interrupt comes on the fourth look, in the middle of the wait.
        let looks = AtomicUsize::new(0);
        let said = close(&KEEPERS, &|| looks.fetch_add(1, Ordering::Relaxed) >= 3);
        assert_eq!(said, [format!("{NOT_KEPT}: the program was interrupted")]);
        assert_eq!(looks.load(Ordering::Relaxed), 4);
        assert!(!part.exists(), "the part was left");
        release.store(true, Ordering::Relaxed);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A write beside the walk that runs until `release`, its file `placed` or not.
    fn endless(release: &Arc<AtomicBool>, placed: bool) -> Beside {
        let held = Arc::clone(release);
        let thread = std::thread::spawn(move || {
            while !held.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(())
        });
        Beside {
            thread,
            placed: Arc::new(AtomicBool::new(placed)),
        }
    }

    /// A write whose file was in place, still trimming the folder
    /// when a Ctrl-C came, was said not to be kept.
    #[test]
    fn a_file_in_place_is_not_said_lost_when_its_trim_is_cut_short() {
        static KEEPERS: Mutex<Keepers> = Mutex::new(Keepers::new());
        let release = Arc::new(AtomicBool::new(false));
        lock(&KEEPERS).beside.push(endless(&release, true));
        assert!(close(&KEEPERS, &|| true).is_empty());
        lock(&KEEPERS).beside.push(endless(&release, false));
        assert_eq!(
            close(&KEEPERS, &|| true),
            [format!("{NOT_KEPT}: the program was interrupted")]
        );
        release.store(true, Ordering::Relaxed);
    }
}
