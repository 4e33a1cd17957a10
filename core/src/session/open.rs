//! The one way a map is opened, for `sim`, the window's command line and the window's
//! loads alike: [`open`] takes the map's path, its options and what it opens with
//! ([`OpenWith`]: the store of what is remembered of maps, the cache folder, the
//! progress the caller watches) and goes through its stages, each in its own file:
//!
//! - `read`: the OBJ file's length checked, its digest taken, its text parsed into a map
//!   in the file's own frame (or the built-in map);
//! - `cache`: a built map looked up in the cache of built maps ([`super::cache`]) by the
//!   file's digest, and the built map kept there;
//! - `build`: the collision world built and the closed solids found, beside the survey;
//! - `survey`: what the map's shape says of its up axis and scale;
//! - `frame`: what is given of the frame (the options, or the user's correction
//!   remembered for the file), the map and its world turned and scaled into it, and the
//!   reasons said for it;
//! - `spawn`: where the walker starts;
//! - `scene`: a TOML scene of placed models, read and placed whole.
//!
//! The map is read as the file has it (its own axes and units), surveyed for what the
//! options leave open, then turned and scaled into the world (Y up, metres); the
//! collision world is built once, in the file's coordinates, and turned and scaled with
//! it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use self::build::{Built, Job, build_and_survey};
use self::cache::{Lookup, finish_keeping_map};
use self::frame::{
    GivenFrame, blamed_on, doubtful_scale, frame_reasons, given_frame, to_world, usable,
};
use self::survey::{Surveyed, header_of};
use crate::collision::CollisionWorld;
use crate::map::header::Header;
use crate::map::progress::{Progress, Stage};
use crate::map::scene::is_scene_path;
use crate::map::{Map, MapError, builtin};
use crate::movers::Movers;
use crate::session::{LoadTimings, OpenOptions, Session};
use crate::store::{ContentKey, Store};

mod build;
mod cache;
mod frame;
mod read;
mod scene;
mod spawn;
mod survey;

pub(crate) use frame::Recall;

/// What an open is given besides the map and its options.
pub struct OpenWith<'a> {
    /// What is remembered of maps: a frame the user set for the file fills what the
    /// options leave open (`None`: nothing is recalled).
    pub store: Option<&'a mut Store>,
    /// Drop what the store remembers of the file instead (`--forget`; said in
    /// [`Opened::recalled`]).
    pub forget: bool,
    /// The folder of the cache of built maps ([`super::cache`]): the map is read from it
    /// when kept there, and kept there once built. `None` (or `--no-map-cache`): neither.
    pub cache_dir: Option<PathBuf>,
    /// Told how far the load has come; cancelling it stops the load at its next stage
    /// with [`MapError::Cancelled`].
    pub progress: &'a Progress,
}

impl<'a> OpenWith<'a> {
    /// As the user runs the program: `store` (with `forget`) and the cache folder
    /// ([`crate::store::cache_dir`]), `progress` told of the load.
    pub fn user(store: Option<&'a mut Store>, forget: bool, progress: &'a Progress) -> Self {
        OpenWith {
            store,
            forget,
            cache_dir: crate::store::cache_dir(),
            progress,
        }
    }

    /// Nothing recalled and no cache: the map as its file and the options say.
    pub fn quiet(progress: &'a Progress) -> Self {
        OpenWith {
            store: None,
            forget: false,
            cache_dir: None,
            progress,
        }
    }
}

/// A map opened.
pub struct Opened {
    /// The map, its world and spawn.
    pub session: Session,
    /// The map file's content key, when it has one to remember a correction by (`None`
    /// for the built-in map and a scene).
    pub key: Option<ContentKey>,
    /// What the store said of the file, for the terminal: what was forgotten, or why
    /// saving failed.
    pub recalled: Option<String>,
}

/// A map that could not be opened.
#[derive(Debug)]
pub struct OpenError {
    /// Why.
    pub error: MapError,
    /// What the store said of the file before the open failed (see [`Opened::recalled`]):
    /// `--forget` forgets a map that then fails to open, and says so.
    pub recalled: Option<String>,
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for OpenError {}

/// Open the map at `path`, or the built-in map when `path` is `None`, with `opts` and
/// `with` (see [`OpenWith`]): a TOML scene through the scene stage; an OBJ read (or
/// found in the cache of built maps), its world built, surveyed for what the options
/// and the frame remembered for the file leave open, turned and scaled into the world,
/// and a spawn found.
pub fn open(path: Option<&Path>, opts: &OpenOptions, with: OpenWith) -> Result<Opened, OpenError> {
    let mut recall = Recall::new(with.store, with.forget);
    let opened = match path.filter(|p| is_scene_path(p)) {
        Some(scene) => scene::open(scene, opts),
        None => open_map(path, opts, &mut recall, with.cache_dir, with.progress),
    };
    let Recall { key, note, .. } = recall;
    match opened {
        Ok(session) => Ok(Opened {
            session,
            key,
            recalled: note,
        }),
        Err(error) => Err(OpenError {
            error,
            recalled: note,
        }),
    }
}

/// A map read (or found in the cache of built maps), before its world is built.
pub(crate) struct Fetched {
    /// The map, in its file's frame (Y up, scale 1), named as its file.
    pub(crate) map: Map,
    /// Its world, read from the cache (`None`: to be built).
    pub(crate) world: Option<CollisionWorld>,
    /// The cache's folder, when the map was not read from it and is one it keeps.
    pub(crate) keep_in: Option<PathBuf>,
    /// Why the cached map was not used (damaged): a warning for this open only.
    pub(crate) note: Option<String>,
}

/// The map at `path` (the built-in map for `None`) in its file's frame: once the file's
/// digest is known, `recall` hears it (and may change `opts`); the map is then read from
/// the cache folder `cache_dir` when it is there and sound, else parsed (a damaged cached
/// file is removed, with a warning for this open). When a built map of the file's length
/// is kept, the file is hashed as a stream first, never held whole; it is read whole
/// only to be parsed.
pub(crate) fn fetch(
    path: Option<&Path>,
    opts: &mut OpenOptions,
    recall: &mut Recall,
    cache_dir: Option<PathBuf>,
    progress: &Progress,
) -> Result<Fetched, MapError> {
    let Some(path) = path else {
        return Ok(Fetched {
            map: builtin::default_map(),
            world: None,
            keep_in: None,
            note: None,
        });
    };
    let dir = cache::folder(cache_dir, opts);
    let len = read::length(path)?;
    let source = read::source(path, len, cache::streamed(dir.as_deref(), len))?;
    recall.heard(&source.digest, path, opts);
    let drawn = !opts.headless;
    let note = match cache::look_up(dir.as_deref(), path, &source.digest, drawn, progress) {
        Lookup::Found(kept) => {
            return Ok(Fetched {
                map: kept.map,
                world: Some(kept.world),
                keep_in: None,
                note: None,
            });
        }
        Lookup::Missing { damaged } => damaged,
    };
    let map = read::parse(path, source, opts.textures, progress)?;
    let keep_in = cache::keep_in(dir, &map);
    Ok(Fetched {
        map,
        world: None,
        keep_in,
        note,
    })
}

/// Open the OBJ map at `path` (the built-in map for `None`): fetched, then built and
/// surveyed, then framed with a spawn.
fn open_map(
    path: Option<&Path>,
    opts: &OpenOptions,
    recall: &mut Recall,
    cache_dir: Option<PathBuf>,
    progress: &Progress,
) -> Result<Session, MapError> {
    let t0 = Instant::now();
    let mut opts = *opts;
    let Fetched {
        mut map,
        world: cached,
        keep_in,
        note,
    } = fetch(path, &mut opts, recall, cache_dir, progress)?;
    let timings = LoadTimings {
        parse: t0.elapsed(),
        cached: cached.is_some(),
        ..LoadTimings::default()
    };
    let opts = &opts;
    stop_if_cancelled(&map, progress)?;
    if !timings.cached {
        progress.enter(Stage::World);
    }
    let file = path.is_some();
    let given = given_frame(file, opts);
    let needed = survey::needed(file, given.given, opts, &map);
    let said = path
        .filter(|_| needed)
        .map_or_else(Header::default, header_of);
    let job = Job {
        needed,
        given: given.given,
        said,
        headless: opts.headless,
        keep_in: keep_in.as_deref(),
        progress,
    };
    let built = build_and_survey(&mut map, cached, job);
    // After the map was kept: the note is this open's, not the map's.
    map.warnings.extend(note);
    stop_if_cancelled(&map, progress)?;
    framed(map, built, Framing { file, opts, given }, timings)
}

/// What [`framed`] frames a built map by.
struct Framing<'a> {
    /// The map is a file's (not the built-in map).
    file: bool,
    /// The options it is opened with.
    opts: &'a OpenOptions,
    /// What is given of its frame.
    given: GivenFrame,
}

/// The session of `map`, `built` (its world and survey, in its file's coordinates):
/// its built map's file finished in the cache, the map and its world turned and scaled
/// into the frame the survey settled on, checked, and a spawn found; `timings` completed.
fn framed(
    mut map: Map,
    built: Built,
    how: Framing,
    mut timings: LoadTimings,
) -> Result<Session, MapError> {
    let Framing { file, opts, given } = how;
    let Built {
        world,
        mut world_time,
        surveyed,
        survey,
        mut kept,
        mut keep_failed,
        keeping,
    } = built;
    let Surveyed { guess, free, part } = surveyed;
    if file {
        map.details.extend(guess.details.iter().cloned());
    }
    let frame = guess.frame;
    // The map's part of its file was written during the survey: the world's now, or
    // beside the walk.
    let tail = finish_keeping_map(keeping, &world, frame, &mut map.warnings);
    kept += tail.waited;
    keep_failed |= tail.failed;
    let t3 = Instant::now();
    map.reorient(frame.up);
    map.rescale(frame.scale);
    let world = to_world(world, frame);
    let main = part.map(|p| to_world(p.world, frame));
    let free = free.map(|f| f.framed(frame));
    world_time += t3.elapsed();
    usable(&map, &world).map_err(|e| blamed_on(e, given.remembered))?;
    if let Some(w) = doubtful_scale(&world, opts.scale, guess.scale_doubt.as_deref()) {
        map.warnings.push(w);
    }
    let spawn = spawn::spawn(
        &mut map,
        main.as_ref().unwrap_or(&world),
        free.as_ref(),
        opts,
    )?;
    let (up_guess, scale_guess) = if file {
        (guess.up, guess.scale)
    } else {
        (None, None)
    };
    let reasons = frame_reasons(opts, file, given.remembered, &guess);
    timings.survey = survey;
    timings.world = world_time;
    timings.kept = kept;
    timings.keep_failed = keep_failed;
    timings.kept_beside = tail.beside;
    Ok(Session {
        map,
        world,
        placed: None,
        movers: Movers::default(),
        water: Vec::new(),
        spawn,
        up_guess,
        scale_guess,
        scale_reason: reasons.scale,
        up_reason: reasons.up,
        timings,
    })
}

/// [`MapError::Cancelled`] once `progress` is cancelled.
fn stop_if_cancelled(map: &Map, progress: &Progress) -> Result<(), MapError> {
    if progress.cancelled() {
        return Err(MapError::Cancelled { path: map.shown() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A load cancelled while parsing named "maps/m3.obj", one
    /// cancelled a stage later "m3.obj". Every stage names the file as it was opened.
    #[test]
    fn a_load_cancelled_after_parsing_names_the_file_as_opened() {
        let mut map = Map {
            name: "m3.obj".into(),
            source: Some(std::path::PathBuf::from("maps/m3.obj")),
            ..Map::default()
        };
        let progress = Progress::default();
        assert!(stop_if_cancelled(&map, &progress).is_ok());
        progress.cancel();
        let e = stop_if_cancelled(&map, &progress).unwrap_err().to_string();
        assert_eq!(e, "maps/m3.obj: loading was cancelled");
        map.source = None;
        let e = stop_if_cancelled(&map, &progress).unwrap_err().to_string();
        assert_eq!(e, "m3.obj: loading was cancelled");
    }
}
