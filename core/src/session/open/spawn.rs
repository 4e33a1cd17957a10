//! The spawn stage of an open: where the walker starts, given (`--spawn`, refused out of
//! range) or found (see [`choose_spawn`]).

use glam::Vec3;

use crate::collision::CollisionWorld;
use crate::collision::placement::out_of_range;
use crate::map::{Map, MapError};
use crate::session::OpenOptions;
use crate::survey::{FreeSpace, SpawnChoice, choose_spawn};

/// Where the walker starts in `map` (its frame settled), by `opts`' spawn and heading, or
/// found on `world` (the map's main part, when a few triangles lie far from it) with the
/// survey's `free` space.
pub(super) fn spawn(
    map: &mut Map,
    world: &CollisionWorld,
    free: Option<&FreeSpace>,
    opts: &OpenOptions,
) -> Result<SpawnChoice, MapError> {
    given_spawn_in_range(map, opts.spawn)?;
    Ok(choose_spawn(map, world, free, opts.spawn, opts.yaw_deg))
}

/// Refuse a `--spawn` (file coordinates) that the map's frame puts out of range (see
/// [`out_of_range`]): a walker placed at 1e30 never moves again.
fn given_spawn_in_range(map: &Map, spawn: Option<Vec3>) -> Result<(), MapError> {
    let Some(given) = spawn else {
        return Ok(());
    };
    let Some(why) = out_of_range(map.frame.to_world(given)) else {
        return Ok(());
    };
    // Said as typed first: the world's numbers alone (scaled, turned) read as if the
    // program had misread the option.
    Err(MapError::Invalid {
        path: map.shown(),
        reason: format!(
            "--spawn {:?},{:?},{:?} (the file's coordinates; {}) puts the eye outside any map; in the world: {why}: nothing can stand there",
            given.x,
            given.y,
            given.z,
            map.frame.flags()
        ),
    })
}
