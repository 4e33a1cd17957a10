//! The build stage of an open: the map's collision world built (or taken from the cache
//! of built maps) and surveyed for what the options leave open (the survey stage), while
//! the other core finds the renderer's closed solids and then begins keeping the built map
//! in the cache (the cache stage finishes it).

use std::path::Path;
use std::time::{Duration, Instant};

use super::survey::{Surveyed, survey_map};
use crate::collision::CollisionWorld;
use crate::cull::solids::closed_solids;
use crate::map::Map;
use crate::map::header::Header;
use crate::map::progress::{Progress, Stage};
use crate::session::cache::Keeping;
use crate::survey::Given;

/// The collision world built, the survey made, and how long each took.
pub(super) struct Built {
    pub(super) world: CollisionWorld,
    pub(super) world_time: Duration,
    pub(super) surveyed: Surveyed,
    pub(super) survey: Duration,
    /// How long the survey waited for the built map's part of its file in the cache.
    pub(super) kept: Duration,
    /// Keeping it failed (the warning says why).
    pub(super) keep_failed: bool,
    /// Its file, the world's part still to write (see [`Keeping`]).
    pub(super) keeping: Option<Keeping>,
}

/// What [`build_and_survey`] is to do besides building.
pub(super) struct Job<'a> {
    /// Survey for the free-space grid too.
    pub(super) needed: bool,
    /// What the options give of the frame.
    pub(super) given: Given,
    /// What the file's header says of itself.
    pub(super) said: Header,
    /// Nothing will be drawn: no closed solids.
    pub(super) headless: bool,
    /// The folder of the cache of built maps to keep the map in.
    pub(super) keep_in: Option<&'a Path>,
    /// Told of the stages.
    pub(super) progress: &'a Progress,
}

/// Build `map`'s collision world (or take `cached`) and survey it (the free-space grid
/// only when `needed`), while the other core finds the renderer's closed solids (unless
/// `headless`) and then keeps the built map in the cache in `keep_in`, if given: the
/// survey keeps one core busy.
pub(super) fn build_and_survey(map: &mut Map, cached: Option<CollisionWorld>, job: Job) -> Built {
    // A map from the cache has its solids when the window kept it.
    let kept_solids = std::mem::take(&mut map.solids);
    let search = !job.headless && kept_solids.of_triangle.is_empty();
    let whole: &Map = map;
    let (built, found, warnings) = std::thread::scope(|s| {
        let vertices = &whole.vertices;
        // A thread the system refuses: the search is made afterwards instead.
        let solids = search.then(|| {
            std::thread::Builder::new()
                .spawn_scoped(s, move || closed_solids(vertices))
                .ok()
        });
        let t1 = Instant::now();
        let world = cached.unwrap_or_else(|| {
            CollisionWorld::from_corners(whole.triangle_count(), |i| whole.corners(i))
        });
        let world_time = t1.elapsed();
        job.progress.enter(Stage::Survey);
        // The world is built: the other core, once the solids are found, keeps the map.
        let (surveyed, survey, solids, kept) = std::thread::scope(|inner| {
            let world = &world;
            let helper = inner.spawn(move || {
                let found = match solids {
                    None => None,
                    Some(Some(thread)) => Some(
                        thread
                            .join()
                            .unwrap_or_else(|e| std::panic::resume_unwind(e)),
                    ),
                    Some(None) => Some(closed_solids(vertices)),
                };
                let solids = found.as_ref().unwrap_or(&kept_solids);
                let kept = job.keep_in.and_then(|dir| {
                    let digest = whole.digest?;
                    Some(Keeping::begin(dir, &digest, whole, solids, world))
                });
                (found.unwrap_or(kept_solids), kept)
            });
            let t2 = Instant::now();
            let mut warnings = Vec::new();
            let surveyed = survey_map(&mut warnings, world, job.needed, job.given, &job.said);
            let survey = t2.elapsed();
            if job.keep_in.is_some() {
                job.progress.enter(Stage::Keeping);
            }
            let t3 = Instant::now();
            let (solids, kept) = helper
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            let waited = kept.as_ref().map_or(Duration::ZERO, |_| t3.elapsed());
            ((surveyed, warnings), survey, solids, (kept, waited))
        });
        let (surveyed, mut warnings) = surveyed;
        let (kept, waited) = kept;
        let keep_failed = matches!(kept, Some(Err(_)));
        let keeping = kept.and_then(|k| k.map_err(|e| warnings.push(e)).ok());
        let built = Built {
            world,
            world_time,
            surveyed,
            survey,
            kept: waited,
            keep_failed,
            keeping,
        };
        (built, solids, warnings)
    });
    map.solids = found;
    map.warnings.extend(warnings);
    built
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{LoadOptions, load_obj_str};

    /// The window's bar said "surveying" for the seconds a first open of a big map waits
    /// for the built map to be written to the cache: it now says so.
    #[test]
    fn a_load_waiting_for_its_map_to_be_kept_says_so() {
        let obj = "v 0 0 0\nv 4 0 0\nv 0 0 4\nv 0 3 0\nf 1 2 3\nf 1 2 4\n";
        let dir = std::env::temp_dir().join(format!("walkthrough-keeping-{}", std::process::id()));
        for keep_in in [None, Some(dir.as_path())] {
            let mut map = load_obj_str("a.obj", obj, &[], &LoadOptions::default()).unwrap();
            let progress = Progress::default();
            let job = Job {
                needed: true,
                given: Given::default(),
                said: Header::default(),
                headless: true,
                keep_in,
                progress: &progress,
            };
            build_and_survey(&mut map, None, job);
            let last = if keep_in.is_some() {
                Stage::Keeping
            } else {
                Stage::Survey
            };
            assert_eq!(progress.stage(), last);
        }
        assert_eq!(
            Stage::Keeping.label(),
            "keeping it in the cache of built maps for the next open"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
