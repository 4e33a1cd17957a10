//! The scene stage of an open: a TOML scene of placed models read whole (see
//! [`crate::map::scene`]), its world baked from its placements, its movers started; its
//! units and up axis are its models' own, so nothing is surveyed.

use std::path::Path;
use std::time::{Duration, Instant};

use super::frame::usable;
use super::spawn::spawn;
use crate::collision::CollisionWorld;
use crate::map::scene::load_scene;
use crate::map::{MapError, UpAxis};
use crate::movers::Movers;
use crate::session::{LoadTimings, OpenOptions, Session};

/// Open a TOML scene of placed models (world units are the scene's: no inference).
pub(super) fn open(path: &Path, opts: &OpenOptions) -> Result<Session, MapError> {
    if let Some(s) = opts.scale {
        return Err(MapError::Invalid {
            path: path.display().to_string(),
            reason: format!(
                "--scale {s} does not apply to a scene: each [[model]] has its own scale"
            ),
        });
    }
    let t0 = Instant::now();
    let scene = load_scene(path, opts.up.unwrap_or_default(), opts.textures)?;
    let parse = t0.elapsed();
    let t1 = Instant::now();
    let world = CollisionWorld::new(scene.world.baked_triangles());
    let world_time = t1.elapsed();
    let mut map = scene.map;
    usable(&map, &world)?;
    let spawn = spawn(&mut map, &world, None, opts)?;
    let placements = scene.world.instances().len();
    let scene_up = (scene.up, scene.up_in_file);
    let mut placed = scene.world;
    let movers = Movers::new(&scene.movers, &mut placed);
    Ok(Session {
        map,
        world,
        placed: Some(placed),
        movers,
        water: scene.water,
        spawn,
        up_guess: None,
        scale_guess: None,
        scale_reason: format!("scene of {placements} placed models, in its own units"),
        up_reason: scene_up_reason(scene_up, opts.up),
        timings: LoadTimings {
            parse,
            survey: Duration::ZERO,
            world: world_time,
            ..LoadTimings::default()
        },
    })
}

/// What the load says of a scene's up axis: `(up, named in the file)`, and `--up` if given
/// (`--up z` applied to a scene that names none must not be said to be "as the scene
/// file gives them").
fn scene_up_reason((up, in_file): (UpAxis, bool), asked: Option<UpAxis>) -> String {
    match asked {
        _ if in_file => {
            let over = asked.filter(|&a| a != up).map_or(String::new(), |a| {
                format!(" (--up {a} is for scenes that name none)")
            });
            format!("up {up} for every model, as the scene file says{over}")
        }
        Some(_) => format!("up {up} for every model, from --up (the scene file names none)"),
        None => format!("up {up} for every model (the scene file names none)"),
    }
}
