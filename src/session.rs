//! Everything needed to start walking: the map, its collision world and the spawn pose,
//! built the same way for the window and for the headless simulation.

use std::path::Path;
use std::time::{Duration, Instant};

use glam::Vec3;

use crate::camera::Pose;
use crate::collision::CollisionWorld;
use crate::map::survey::{find_spawn, infer_scale};
use crate::map::{LoadOptions, Map, MapError, SpawnChoice, UpAxis, builtin, load_obj_file};

/// How to open a map and where to start in it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OpenOptions {
    /// World units per file unit; `None` infers it.
    pub scale: Option<f32>,
    /// The file's up axis.
    pub up: UpAxis,
    /// Eye position in the file's coordinates; `None` finds one.
    pub spawn: Option<Vec3>,
    /// Heading override, degrees.
    pub yaw_deg: Option<f32>,
    /// Pitch, degrees.
    pub pitch_deg: Option<f32>,
}

/// How long each loading stage took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LoadTimings {
    /// Reading, parsing and triangulating the OBJ (and MTL, textures).
    pub parse: Duration,
    /// Inferring the scale (ray casts on a first world).
    pub survey: Duration,
    /// Building the collision world (planes and BVH).
    pub world: Duration,
}

/// A map ready to walk in.
#[derive(Clone, Debug)]
pub struct Session {
    /// The map, in world coordinates.
    pub map: Map,
    /// Its collision world.
    pub world: CollisionWorld,
    /// Where the player starts and why.
    pub spawn: SpawnChoice,
    /// Why the map has the scale it has.
    pub scale_reason: String,
    /// Stage timings.
    pub timings: LoadTimings,
}

impl Session {
    /// Open the map at `path`, or the built-in map when `path` is `None`.
    pub fn open(path: Option<&Path>, opts: &OpenOptions) -> Result<Session, MapError> {
        let t0 = Instant::now();
        let load = LoadOptions {
            scale: opts.scale,
            up: opts.up,
        };
        let mut map = match path {
            Some(p) => load_obj_file(p, &load)?,
            None => builtin::default_map(),
        };
        let parse = t0.elapsed();
        let t1 = Instant::now();
        let mut world = CollisionWorld::new(map.triangles());
        let mut survey = Duration::ZERO;
        let scale_reason = match (opts.scale, path) {
            (Some(s), _) => format!("scale {s} given on the command line"),
            (None, None) => "the built-in map is in metres".to_string(),
            (None, Some(_)) => {
                let guess = infer_scale(&world);
                survey = t1.elapsed();
                if guess.scale != 1.0 {
                    map.rescale(guess.scale);
                    world = world.scaled(guess.scale);
                }
                format!("scale {}: {}", map.frame.scale, guess.reason)
            }
        };
        let world_time = t1.elapsed() - survey;
        let mut spawn = match opts.spawn {
            Some(p) => SpawnChoice {
                position: map.frame.to_world(p),
                yaw_deg: 0.0,
                reason: "given on the command line".into(),
            },
            None => find_spawn(&map, &world),
        };
        if let Some(y) = opts.yaw_deg {
            spawn.yaw_deg = y;
        }
        Ok(Session {
            map,
            world,
            spawn,
            scale_reason,
            timings: LoadTimings {
                parse,
                survey,
                world: world_time,
            },
        })
    }

    /// The pose to start from.
    pub fn start_pose(&self, pitch_deg: Option<f32>) -> Pose {
        Pose::new(
            self.spawn.position,
            self.spawn.yaw_deg,
            pitch_deg.unwrap_or(0.0),
        )
    }

    /// A few lines describing the map for the terminal.
    pub fn describe(&self) -> String {
        let s = self.world.stats();
        let p = self.map.frame.to_file(self.spawn.position);
        format!(
            "map: {} ({} triangles, {} objects, {} materials{})\n{}\nspawn: {:.3},{:.3},{:.3} (file coordinates), yaw {:.0}: {}",
            self.map.name,
            s.triangles,
            self.map.objects,
            self.map.materials.len() - 1,
            if s.dropped > 0 {
                format!(", {} degenerate dropped", s.dropped)
            } else {
                String::new()
            },
            self.scale_reason,
            p.x,
            p.y,
            p.z,
            self.spawn.yaw_deg,
            self.spawn.reason
        )
    }
}
