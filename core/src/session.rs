//! Everything needed to start walking: the map, its collision world and the spawn pose,
//! built the same way for the window and for the headless simulation ([`open`]: the one
//! way a map is opened, its stages each in a file of its own), and changed in place (a
//! rescale) while it is walked. [`cache`]: the cache folder's built maps and levels of
//! detail.

use std::path::Path;
use std::time::Duration;

use glam::{Affine3A, Vec3};

use crate::collision::body::EYE_HEIGHT;
use crate::collision::{Collider, CollisionWorld, InstancedWorld, PlacementPose, WorldStats};
use crate::geometry::Aabb;
use crate::map::progress::Progress;
use crate::map::{MAX_WORLD_EXTENT, Map, MapError, MapFrame, MovingMesh, TextureOptions, UpAxis};
use crate::movers::{Clock, Movement, Movers, Still, World};
use crate::player::{Controller, Mode, Pose};
use crate::survey::units::Unit;
use crate::survey::{CheckedStart, Inferred, SpawnChoice, checked_start, moved_out_of_solid};
use crate::text::wording::counted;

pub mod cache;
pub mod open;

/// How to open a map and where to start in it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OpenOptions {
    /// World units per file unit; `None` infers it.
    pub scale: Option<f32>,
    /// The file's up axis; `None` infers it (see [`crate::survey::up`]).
    pub up: Option<UpAxis>,
    /// Eye position in the file's coordinates; `None` finds one.
    pub spawn: Option<Vec3>,
    /// Heading override, degrees.
    pub yaw_deg: Option<f32>,
    /// Pitch, degrees.
    pub pitch_deg: Option<f32>,
    /// Decode the textures (the window), or only look for their files (`sim`).
    pub textures: TextureOptions,
    /// The frame the user set for this file before ([`crate::store`]): used when
    /// neither `up` nor `scale` is given.
    pub remembered: Option<MapFrame>,
    /// Nothing will be drawn (`sim`): the renderer's closed solids are not searched for
    /// (on a ten-million-triangle map a core for seconds, beside the collision world's
    /// build, which then has both).
    pub headless: bool,
    /// Build the map without the cache of built maps (`--no-map-cache`), whatever
    /// [`open::OpenWith::cache_dir`] names.
    pub no_map_cache: bool,
}

/// Smallest a map may be made across (its longest side, metres) by [`Session::rescale`]:
/// smaller, no one could stand in it and the view's near plane would cut through it.
pub const MIN_RESCALED_EXTENT: f32 = 0.5;

/// What [`Session::rescale`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rescaled {
    /// New scale over old: world positions were multiplied by it.
    pub factor: f32,
}

/// Where an eye at `eye` goes when its map is scaled by `factor` about the origin: its
/// feet (an eye height below it) scale with the map, and the eye stays an eye height
/// above them.
pub fn scaled_eye(eye: Vec3, factor: f32) -> Vec3 {
    let up = Vec3::Y * EYE_HEIGHT;
    (eye - up) * factor + up
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
    /// The map and its world were read from the cache of built maps (their time is
    /// `parse`'s).
    pub cached: bool,
    /// Keeping the built map in the cache of built maps.
    pub kept: Duration,
    /// Keeping it failed (a warning on the map says why).
    pub keep_failed: bool,
    /// Its collision world is being written to the cache beside the walk (see
    /// [`cache::Keeping`]): `kept` waited only for the map's part.
    pub kept_beside: bool,
}

/// A map ready to walk in.
#[derive(Clone, Debug)]
pub struct Session {
    /// The map, in world coordinates.
    pub map: Map,
    /// Its collision world (for a scene: every placement baked into world space, used for
    /// spawn finding and ray casts; moves collide with [`Session::placed`] instead).
    pub world: CollisionWorld,
    /// For a scene file: the placed models, tested in their own space (the movers at
    /// their current poses).
    pub placed: Option<InstancedWorld>,
    /// The scene's movers and their clocks (empty for a still scene or an OBJ).
    pub movers: Movers,
    /// The scene's `[[water]]` boxes, world frame (empty for an OBJ or a dry scene).
    pub water: Vec<Aabb>,
    /// Where the player starts and why.
    pub spawn: SpawnChoice,
    /// Why the map has the scale it has.
    pub scale_reason: String,
    /// Why the map has the up axis it has.
    pub up_reason: String,
    /// How sure the survey is of the up axis, and the next most likely one (`None`: the
    /// up axis was given, remembered, or is the built-in map's or a scene's).
    pub up_guess: Option<Inferred<UpAxis>>,
    /// How sure the survey is of the scale, and the next most likely unit (`None`: given,
    /// remembered, the built-in map's or a scene's).
    pub scale_guess: Option<Inferred<Unit>>,
    /// Stage timings.
    pub timings: LoadTimings,
}

impl Session {
    /// Open the map at `path`, or the built-in map when `path` is `None`, as its file and
    /// `opts` say: nothing remembered of it is recalled and the cache of built maps is
    /// not used (see [`open::open`], which the program's opens go through).
    pub fn open(path: Option<&Path>, opts: &OpenOptions) -> Result<Session, MapError> {
        let progress = Progress::default();
        open::open(path, opts, open::OpenWith::quiet(&progress))
            .map(|o| o.session)
            .map_err(|e| e.error)
    }

    /// A scene (`.toml`): each of its models has its own up axis and scale, so the map as a
    /// whole has none to correct.
    pub fn is_scene(&self) -> bool {
        self.placed.is_some()
    }

    /// Give the map the scale `scale` (metres per file unit) in place, as the window's
    /// scale keys do: the map, its collision world and the spawn scaled together, with
    /// no new parse or survey. The spawn's feet stay on the floor they stood on (the eye
    /// keeps its height above them). Refused for a scene (each model has its own scale),
    /// and where the map would reach beyond [`MAX_WORLD_EXTENT`] or be smaller across
    /// than [`MIN_RESCALED_EXTENT`].
    pub fn rescale(&mut self, scale: f32) -> Result<Rescaled, String> {
        if self.is_scene() {
            return Err("a scene has no scale of its own: each [[model]] sets its scale".into());
        }
        let old = self.map.frame.scale;
        let factor = scale / old;
        if !(scale.is_finite() && scale > 0.0 && factor.is_finite()) {
            return Err(format!("scale {scale} is not a positive number"));
        }
        let b = self.world.bounds();
        let reach = b.min.abs().max(b.max.abs()).max_element() * factor;
        let across = b.size().max_element() * factor;
        if reach > MAX_WORLD_EXTENT {
            return Err(format!(
                "scale {scale} would put the map {reach:.0} m from the origin, beyond {MAX_WORLD_EXTENT:e} m: not applied"
            ));
        }
        if across < MIN_RESCALED_EXTENT {
            return Err(format!(
                "scale {scale} would make the map {across:.2} m across, too small to stand in: not applied"
            ));
        }
        self.map.rescale(factor);
        // The scale asked for, not the old one times the factor (0.025400002 for inches,
        // in the flags the window shows to copy).
        self.map.frame.scale = scale;
        self.world.scale_by(factor);
        self.spawn.position = scaled_eye(self.spawn.position, factor);
        self.scale_reason = format!("scale {scale} set in the window (was {old})");
        Ok(Rescaled { factor })
    }

    /// The highest step this map's player climbs, when the map is read in a game
    /// engine's units whose player climbs more than a person (see
    /// [`crate::survey::units::game_step`]); `None` for a scene (its models' units are
    /// their own) and for every other map.
    pub fn step_height(&self) -> Option<f32> {
        if self.is_scene() {
            return None;
        }
        crate::survey::units::game_step(self.map.frame.scale)
    }

    /// What the use key would meet from the eye at `eye` looking along `look`.
    pub fn use_target(&self, eye: Vec3, look: Vec3) -> crate::movers::push::UseTarget {
        match &self.placed {
            Some(placed) => crate::movers::push::use_target(placed, &self.movers, eye, look),
            None => crate::movers::push::UseTarget::NoneInMap,
        }
    }

    /// The world to step in: the scene's placements with their movers (they move as the
    /// ticks pass), else the still world of [`collider`](Self::collider).
    pub fn ticking(&mut self) -> World<'_> {
        let step = self.step_height();
        let movement = if self.movers.is_empty() {
            let collider: &dyn Collider = match &self.placed {
                Some(p) => p,
                None => &self.world,
            };
            Movement::Still(Still(collider))
        } else {
            match &mut self.placed {
                Some(placed) => Movement::Moving(self.movers.world(placed)),
                None => Movement::Still(Still(&self.world)),
            }
        };
        World {
            movement,
            water: &self.water,
            step,
        }
    }

    /// Put every mover back at its first key, not started (the scene reopened, or a
    /// script or recording started again from the top).
    pub fn restart_movers(&mut self) {
        let Some(placed) = &mut self.placed else {
            return;
        };
        for m in &mut self.movers.list {
            m.clock = Clock::default();
            m.blocked = 0;
            m.awake = true;
        }
        self.movers.restarted();
        let poses: Vec<PlacementPose> = self
            .movers
            .list
            .iter()
            .map(|m| PlacementPose {
                instance: m.instance,
                to_world: m.matrix(),
            })
            .collect();
        placed.move_placements(&poses);
    }

    /// The current model-to-world matrix of each of `meshes`' placements (a scene's
    /// movers, for drawing them where they are).
    pub fn mover_poses<'a>(
        &'a self,
        meshes: &'a [MovingMesh],
    ) -> impl Iterator<Item = Affine3A> + 'a {
        // From the clocks: a mover asleep far from the walker is drawn where it is.
        meshes.iter().map(|m| {
            self.movers
                .of_instance(m.instance)
                .map_or(Affine3A::IDENTITY, |m| m.matrix())
        })
    }

    /// The mover (its placement, scene order from 0) the walker of `controller` stands
    /// on, if any.
    pub fn riding(&self, controller: &Controller) -> Option<usize> {
        let ground = controller
            .walk
            .ground
            .filter(|_| controller.settings.mode == Mode::Walk)?;
        let at = self.placed.as_ref()?.instance_of(ground.triangle)?;
        self.movers.of_instance(at).map(|m| m.instance)
    }

    /// What moves collide with: the placed models of a scene, else the map's world.
    pub fn collider(&self) -> &dyn Collider {
        match &self.placed {
            Some(p) => p,
            None => &self.world,
        }
    }

    /// What is wrong with starting at the eye `eye` (world coordinates; a script's `start`
    /// line), as `--spawn` is warned about: outside the map, or where a walk leaves an open
    /// map. `None` when neither.
    pub fn start_warning(&self, eye: Vec3) -> Option<String> {
        self.checked_start(eye).warning
    }

    /// A start at the eye `eye` (world coordinates; a script's `start` line) checked as
    /// [`Session::start_warning`] does, and moved out of a closed solid it is inside.
    pub fn checked_start(&self, eye: Vec3) -> CheckedStart {
        checked_start(&self.map.frame, &self.world, eye, "the start")
    }

    /// The eye `eye` (world coordinates) moved out of the closed solid it is inside, with
    /// the warning that names it as `what` ("view 3"): a saved view, a reload in place or
    /// a switch of mode checked as a start is (see [`moved_out_of_solid`]). `None` when it
    /// is inside none.
    pub fn moved_out_of_solid(&self, eye: Vec3, what: &str) -> Option<CheckedStart> {
        moved_out_of_solid(&self.map.frame, &self.world, eye, what)
    }

    /// Whether an eye at `eye` (world coordinates) is below the lowest point of the map:
    /// a walker falling there has nothing left under it to land on (an open map walked
    /// off falls for ever), and the window offers the way back to the spawn.
    pub fn below_map(&self, eye: Vec3) -> bool {
        eye.y < self.world.bounds().min.y
    }

    /// The pose to start from.
    pub fn start_pose(&self, pitch_deg: Option<f32>) -> Pose {
        Pose::new(
            self.spawn.position,
            self.spawn.yaw_deg,
            pitch_deg.unwrap_or(0.0),
        )
    }

    /// The map's name and triangle count, for the HUD.
    pub fn label(&self) -> String {
        format!("{} ({} tris)", self.map.name, self.world.stats().triangles)
    }

    /// A few lines describing the map for the terminal.
    pub fn describe(&self) -> String {
        let s = self.world.stats();
        let p = self.map.frame.to_file(self.spawn.position);
        let t = &self.timings;
        format!(
            "map: {} ({}, {}, {}{})\n{}\n{}{}\nloaded in {:.0} ms ({} {:.0}, survey {:.0}, collision world {:.0}{})\nspawn: {:.3},{:.3},{:.3} (file coordinates), yaw {:.0}: {}",
            self.map.name,
            counted(s.triangles, "triangle", "triangles"),
            counted(self.map.objects, "object", "objects"),
            counted(self.map.material_names(), "material", "materials"),
            dropped_note(&s),
            self.up_reason,
            self.scale_reason,
            match self.placed {
                None => format!(
                    "{}\nto open it the same way: {}",
                    self.step_height().map_or(String::new(), |h| format!(
                        " (the walker climbs its engine's step here: {h:.2} m)"
                    )),
                    self.map.frame.flags()
                ),
                Some(_) => String::new(),
            },
            (t.parse + t.survey + t.world + t.kept).as_secs_f64() * 1e3,
            if t.cached {
                "read from the cache of built maps"
            } else {
                "parse"
            },
            t.parse.as_secs_f64() * 1e3,
            t.survey.as_secs_f64() * 1e3,
            t.world.as_secs_f64() * 1e3,
            if t.keep_failed {
                format!(
                    ", then not kept in the cache of built maps ({:.0} ms spent; the warning above says why)",
                    t.kept.as_secs_f64() * 1e3
                )
            } else if t.kept_beside {
                format!(
                    ", then keeping it in the cache of built maps ({:.0} waited, its collision world written beside the walk)",
                    t.kept.as_secs_f64() * 1e3
                )
            } else if t.kept.is_zero() {
                String::new()
            } else {
                format!(
                    ", then kept in the cache of built maps {:.0}",
                    t.kept.as_secs_f64() * 1e3
                )
            },
            p.x,
            p.y,
            p.z,
            // + 0.0 turns -0 into 0.
            self.spawn.yaw_deg + 0.0,
            self.spawn.reason
        )
    }
}

/// ", 29 slivers (nearly no area, still drawn) and 3 repeated triangles dropped from
/// collision", or nothing. Not the faces with no area at all that the loader dropped and
/// warned of: these are the ones left that are too thin to collide with (see
/// [`crate::tolerance::DEGENERATE_AREA`]): said as slivers, the two read as two counts
/// of one thing.
fn dropped_note(s: &WorldStats) -> String {
    let mut parts = Vec::new();
    if s.dropped > 0 {
        parts.push(format!(
            "{} (nearly no area, still drawn)",
            counted(s.dropped, "sliver", "slivers")
        ));
    }
    if s.duplicates > 0 {
        parts.push(counted(
            s.duplicates,
            "repeated triangle",
            "repeated triangles",
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(", {} dropped from collision", parts.join(" and "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "dropped 160 faces with no area" (the loader's warning) and "18 triangles without
    /// area in world coordinates dropped from collision" (the map line) read as two
    /// counts of one thing. The map line's are slivers, still drawn.
    #[test]
    fn the_map_line_says_slivers_not_faces_without_area() {
        let stats = WorldStats {
            triangles: 10,
            dropped: 18,
            duplicates: 3,
            ..WorldStats::default()
        };
        assert_eq!(
            dropped_note(&stats),
            ", 18 slivers (nearly no area, still drawn) and 3 repeated triangles dropped from collision"
        );
        let one = WorldStats {
            dropped: 1,
            ..WorldStats::default()
        };
        assert_eq!(
            dropped_note(&one),
            ", 1 sliver (nearly no area, still drawn) dropped from collision"
        );
        assert_eq!(dropped_note(&WorldStats::default()), "");
    }

    #[test]
    fn an_eye_is_below_the_map_only_under_its_lowest_point() {
        let s = Session::open(None, &OpenOptions::default()).expect("the built-in map");
        let lowest = s.world.bounds().min.y;
        let spawn = s.start_pose(None).position;
        assert!(!s.below_map(spawn));
        assert!(!s.below_map(Vec3::new(spawn.x, lowest + 0.01, spawn.z)));
        assert!(s.below_map(Vec3::new(spawn.x, lowest - 0.01, spawn.z)));
        // Anywhere across: what counts is the height, not being over the map.
        assert!(s.below_map(Vec3::new(1e4, lowest - 50.0, -1e4)));
    }
}
