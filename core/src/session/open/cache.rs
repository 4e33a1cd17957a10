//! The cache stage of an open: the folder of the cache of built maps
//! ([`crate::session::cache`]) an open uses, a map kept there looked up by its file's
//! digest (and named as the file opened now, a damaged one removed), and the built map
//! kept there: its map's part begun by the build stage while the survey runs, its world's
//! finished here once the frame is known.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::collision::CollisionWorld;
use crate::files::Digest;
use crate::map::progress::{Progress, Stage};
use crate::map::{Map, MapFrame, UpAxis, name_map};
use crate::session::OpenOptions;
use crate::session::cache::{
    Cached, Keeping, file_for, keeps, kept_of_length, load, remove_stale_parts, rename_messages,
};
use crate::text::quote::shown_path;

/// The folder of the cache of built maps an open with `opts` uses: `dir`, unless
/// `--no-map-cache`. The parts of files no program is writing any longer are removed
/// from it.
pub(super) fn folder(dir: Option<PathBuf>, opts: &OpenOptions) -> Option<PathBuf> {
    let dir = dir.filter(|_| !opts.no_map_cache);
    // At every open, not only when a map is kept: a killed program's part (a gigabyte
    // at ten million triangles) would stay while the maps opened are all kept ones.
    if let Some(d) = dir.as_deref() {
        remove_stale_parts(d);
    }
    dir
}

/// Whether a file `len` bytes long is hashed as a stream before it is read: `dir` keeps a
/// built map of its length (its name ends in the length), which may spare reading it.
pub(super) fn streamed(dir: Option<&Path>, len: u64) -> bool {
    dir.is_some_and(|d| kept_of_length(d, len))
}

/// A sound kept map, named as the file opened now, and its world.
pub(super) struct Kept {
    pub(super) map: Map,
    pub(super) world: CollisionWorld,
}

/// What looking a map up in the cache found.
pub(super) enum Lookup {
    /// A sound kept map (boxed: a map is large beside a note).
    Found(Box<Kept>),
    /// None (or no folder to look in); `damaged`: why the one kept was refused (it is
    /// removed, to be built again), a warning for this open only, not kept with the map
    /// (every later open from the cache said it again).
    Missing { damaged: Option<String> },
}

/// The built map of the file at `path` (content `digest`) kept in `dir`, read with what
/// is `drawn` (not for `sim`), `progress` told of its bytes.
pub(super) fn look_up(
    dir: Option<&Path>,
    path: &Path,
    digest: &Digest,
    drawn: bool,
    progress: &Progress,
) -> Lookup {
    let Some(dir) = dir else {
        return Lookup::Missing { damaged: None };
    };
    progress.enter(Stage::Cached);
    match load(dir, digest, drawn, progress) {
        None => Lookup::Missing { damaged: None },
        Some(Ok(Cached {
            mut map,
            world,
            built_as,
        })) => {
            rename_messages(&mut map, &built_as, &shown_path(path));
            name_map(&mut map, path, *digest);
            Lookup::Found(Box::new(Kept { map, world }))
        }
        Some(Err(e)) => {
            let _ = std::fs::remove_file(file_for(dir, digest));
            Lookup::Missing {
                damaged: Some(format!("the cache of built maps: {e}; it was built again")),
            }
        }
    }
}

/// The folder `dir` to keep the parsed `map` in, when it is one the cache keeps
/// ([`keeps`]).
pub(super) fn keep_in(dir: Option<PathBuf>, map: &Map) -> Option<PathBuf> {
    dir.filter(|_| keeps(map))
}

/// How [`finish_keeping_map`] ended.
pub(super) struct KeepTail {
    /// How long the open waited for it.
    pub(super) waited: Duration,
    /// It failed (a warning says why).
    pub(super) failed: bool,
    /// It goes on beside the walk.
    pub(super) beside: bool,
}

/// Write the rest of the built map's file (`keeping`, of `world` built in its file's
/// coordinates): beside the walk when the world stays as built in `frame` (Y up, metres:
/// its clone shares the walk's triangles and tree), else at once, before it is turned or
/// scaled in place. A failure is a warning in `warnings`.
pub(super) fn finish_keeping_map(
    keeping: Option<Keeping>,
    world: &CollisionWorld,
    frame: MapFrame,
    warnings: &mut Vec<String>,
) -> KeepTail {
    let t = Instant::now();
    let as_built = frame.up == UpAxis::Y && frame.scale == 1.0;
    let some = keeping.is_some();
    let finished = keeping.map(|k| {
        if as_built {
            k.finish_beside(world.clone())
        } else {
            k.finish(world)
        }
    });
    let failed = matches!(finished, Some(Err(_)));
    warnings.extend(finished.and_then(Result::err));
    KeepTail {
        waited: if some { t.elapsed() } else { Duration::ZERO },
        failed,
        beside: some && as_built && !failed,
    }
}
