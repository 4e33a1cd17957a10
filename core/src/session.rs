//! Everything needed to start walking: the map, its collision world and the spawn pose,
//! built the same way for the window and for the headless simulation.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use glam::{Affine3A, Vec3};

use self::build::{Built, Job, Surveyed, build_and_survey, finish_keeping_map};
use crate::collision::body::EYE_HEIGHT;
use crate::collision::placement::out_of_range;
use crate::collision::{Collider, CollisionWorld, InstancedWorld, PlacementPose, WorldStats};
use crate::files::Digest;
use crate::geometry::Aabb;
use crate::map::header::{HEADER_BYTES, Header};
use crate::map::progress::{Progress, Stage};
use crate::map::scene::{is_scene_path, load_scene};
use crate::map::{MAX_WORLD_EXTENT, Map, MapError, MapFrame, MovingMesh, TextureOptions, UpAxis};
use crate::movers::{Clock, Movement, Movers, Still, World};
use crate::player::{Controller, Mode, Pose};
use crate::survey::units::Unit;
use crate::survey::{
    CheckedStart, FrameGuess, Given, Inferred, SpawnChoice, checked_start, choose_spawn,
    moved_out_of_solid,
};
use crate::text::wording::counted;

mod build;
pub mod cache;

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
    /// [`Watch::cache_dir`] names.
    pub no_map_cache: bool,
}

/// `world`, built in its file's coordinates, turned and scaled into `frame`'s world. A
/// file already Y-up keeps its world as built (turning ten million triangles by the
/// identity and refitting the tree took 0.6 s).
fn to_world(world: CollisionWorld, frame: MapFrame) -> CollisionWorld {
    let turn = MapFrame {
        scale: 1.0,
        up: frame.up,
    };
    let turned = match frame.up {
        UpAxis::Y => world,
        _ => world.turned(|v| turn.rotate_to_world(v)),
    };
    turned.scaled(frame.scale)
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
    /// Open the map at `path`, or the built-in map when `path` is `None`.
    ///
    /// The map is read as the file has it (its own axes and units), surveyed for what the
    /// options leave open (up axis, scale: see [`crate::survey`]), then turned and scaled
    /// into the world (Y up, metres); the collision world is built once, in the file's
    /// coordinates, and turned and scaled with it.
    pub fn open(path: Option<&Path>, opts: &OpenOptions) -> Result<Session, MapError> {
        let progress = Progress::default();
        let watch = Watch {
            on_key: &mut |_, _| {},
            cache_dir: None,
            progress: &progress,
        };
        Session::open_watched(path, opts, watch)
    }

    /// [`Session::open`] for `watch` (see [`Watch`]): its `on_key` hears the map file's
    /// digest as soon as it is known, the map is read from (or kept in) its cache of built
    /// maps, its `progress` is told how far the load has come, and the load stops with
    /// [`MapError::Cancelled`] at the next stage once that is cancelled.
    pub fn open_watched(
        path: Option<&Path>,
        opts: &OpenOptions,
        watch: Watch,
    ) -> Result<Session, MapError> {
        let progress = watch.progress;
        if let Some(p) = path.filter(|p| is_scene_path(p)) {
            return Session::open_scene(p, opts);
        }
        let t0 = Instant::now();
        let mut opts = *opts;
        let cache::Opened {
            mut map,
            world: cached,
            keep_in,
            note,
        } = cache::open_map(path, &mut opts, watch)?;
        let parse = t0.elapsed();
        let from_cache = cached.is_some();
        let opts = &opts;
        stop_if_cancelled(&map, progress)?;
        if !from_cache {
            progress.enter(Stage::World);
        }
        let (given, remembered) = given_frame(path.is_some(), opts);
        // The free-space survey serves the up axis, the scale and the spawn: skipped when
        // all three are given.
        let needed = path.is_some()
            && (given.up.is_none()
                || given.scale.is_none()
                || (opts.spawn.is_none() && map.marked_spawn.is_none()));
        let said = path
            .filter(|_| needed)
            .map_or_else(Header::default, header_of);
        let job = Job {
            needed,
            given,
            said,
            headless: opts.headless,
            keep_in: keep_in.as_deref(),
            progress,
        };
        let Built {
            world,
            mut world_time,
            surveyed,
            survey,
            mut kept,
            mut keep_failed,
            keeping,
        } = build_and_survey(&mut map, cached, job);
        // After the map was kept: the note is this open's, not the map's.
        map.warnings.extend(note);
        stop_if_cancelled(&map, progress)?;
        let Surveyed { guess, free, part } = surveyed;
        if path.is_some() {
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
        usable(&map, &world).map_err(|e| blamed_on(e, remembered))?;
        if let Some(w) = doubtful_scale(&world, opts.scale, guess.scale_doubt.as_deref()) {
            map.warnings.push(w);
        }
        given_spawn_in_range(&map, opts.spawn)?;
        let spawn = choose_spawn(
            &mut map,
            main.as_ref().unwrap_or(&world),
            free.as_ref(),
            opts.spawn,
            opts.yaw_deg,
        );
        let (up_guess, scale_guess) = if path.is_some() {
            (guess.up, guess.scale)
        } else {
            (None, None)
        };
        let reasons = frame_reasons(opts, path.is_some(), remembered, &guess);
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
            timings: LoadTimings {
                parse,
                survey,
                world: world_time,
                cached: from_cache,
                kept,
                keep_failed,
                kept_beside: tail.beside,
            },
        })
    }

    /// Open a TOML scene of placed models (world units are the scene's: no inference).
    fn open_scene(path: &Path, opts: &OpenOptions) -> Result<Session, MapError> {
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
        given_spawn_in_range(&map, opts.spawn)?;
        let spawn = choose_spawn(&mut map, &world, None, opts.spawn, opts.yaw_deg);
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
        // in the flags the window shows to copy: a new user's finding).
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

/// What the caller of [`Session::open_watched`] hears and gives.
pub struct Watch<'a> {
    /// Called with the map file's digest once it is known, before its frame is surveyed:
    /// may fill what the options leave open from what is remembered of the file (see
    /// [`crate::store::recall_by_key`]).
    pub on_key: &'a mut dyn FnMut(&Digest, &mut OpenOptions),
    /// The folder of the cache of built maps ([`cache`]): the map is read from it when
    /// kept there, and kept there once built. `None` (or `--no-map-cache`): neither.
    pub cache_dir: Option<PathBuf>,
    /// Told how far the load has come; cancelling it stops the load.
    pub progress: &'a Progress,
}

/// [`MapError::Cancelled`] once `progress` is cancelled.
fn stop_if_cancelled(map: &Map, progress: &Progress) -> Result<(), MapError> {
    if progress.cancelled() {
        return Err(MapError::Cancelled { path: map.shown() });
    }
    Ok(())
}

/// Why a map has its scale and up axis.
struct Reasons {
    scale: String,
    up: String,
}

/// The reasons of a map's frame: the built-in map's, the frame remembered for the `file`,
/// or the survey's (`guess`).
fn frame_reasons(
    opts: &OpenOptions,
    file: bool,
    remembered: Option<MapFrame>,
    guess: &FrameGuess,
) -> Reasons {
    Reasons {
        scale: match (opts.scale, file, remembered) {
            (None, false, _) => "the built-in map is in metres".to_string(),
            (_, _, Some(r)) => format!(
                "scale {} as you set it for this file (remembered; --forget drops it)",
                r.scale
            ),
            _ => guess.scale_reason.clone(),
        },
        up: match (opts.up, file, remembered) {
            (None, false, _) => "the built-in map is Y-up".to_string(),
            (_, _, Some(r)) => format!(
                "up axis {} as you set it for this file (remembered; --forget drops it)",
                r.up
            ),
            _ => guess.up_reason.clone(),
        },
    }
}

/// What the OBJ file at `path` says of itself in its header (see [`Header`]), weighed
/// in its survey: a file unreadable now says nothing (the map is already read).
fn header_of(path: &Path) -> Header {
    crate::files::read_head(path, crate::files::FileKind::Obj, HEADER_BYTES)
        .map_or_else(|_| Header::default(), |head| Header::read(&head))
}

/// What is given of a map's frame: `opts`' up and scale, else the frame remembered for
/// the file (returned too, for the reasons), for a file; the built-in map is known (Y up,
/// metres).
fn given_frame(file: bool, opts: &OpenOptions) -> (Given, Option<MapFrame>) {
    let remembered = opts
        .remembered
        .filter(|_| file && opts.up.is_none() && opts.scale.is_none());
    let given = match (file, remembered) {
        (true, Some(r)) => Given {
            up: Some(r.up),
            scale: Some(r.scale),
        },
        (true, None) => Given {
            up: opts.up,
            scale: opts.scale,
        },
        (false, _) => Given {
            up: Some(opts.up.unwrap_or(UpAxis::Y)),
            scale: Some(opts.scale.unwrap_or(1.0)),
        },
    };
    (given, remembered)
}

/// A map made unusable by the frame `remembered` for its file (a scale of 1e38 set by
/// hand in the settings stopped every open of it, and the error named neither the
/// settings nor `--forget`: a fuzz run's finding) says so.
fn blamed_on(e: MapError, remembered: Option<MapFrame>) -> MapError {
    let Some(frame) = remembered else { return e };
    let blame = format!(
        "; the frame remembered for this file ({}) makes it so: --forget drops it",
        frame.flags()
    );
    match e {
        MapError::Invalid { path, reason } => MapError::Invalid {
            path,
            reason: reason + &blame,
        },
        MapError::Empty { path, reason } => MapError::Empty {
            path,
            reason: reason + &blame,
        },
        other => other,
    }
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

/// ", 29 slivers (nearly no area, still drawn) and 3 repeated triangles dropped from
/// collision", or nothing. Not the faces with no area at all that the loader dropped and
/// warned of: these are the ones left that are too thin to collide with (see
/// [`crate::tolerance::DEGENERATE_AREA`]); a new user read two counts of one thing.
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

/// Refuse a map that nobody could walk in: every triangle lost its area on the way into
/// the world, or it reaches past [`MAX_WORLD_EXTENT`].
fn usable(map: &Map, world: &CollisionWorld) -> Result<(), MapError> {
    let path = map.shown();
    if world.stats().triangles == 0 {
        return Err(MapError::Empty {
            path,
            reason: format!(
                "{} in world coordinates: placed or scaled so far out that their corners round together",
                match map.triangle_count() {
                    1 => "its one triangle loses its area".to_string(),
                    n => format!("all {n} triangles lose their area"),
                }
            ),
        });
    }
    let b = world.bounds();
    let reach = b.min.abs().max(b.max.abs()).max_element();
    if reach > MAX_WORLD_EXTENT {
        return Err(MapError::Invalid {
            path,
            reason: format!(
                "the map reaches {reach:e} m from the origin (bounds {:?} to {:?}), beyond the {MAX_WORLD_EXTENT:e} m where positions are too coarse to walk: move or scale it nearer the origin",
                b.min.to_array(),
                b.max.to_array()
            ),
        });
    }
    Ok(())
}

/// A warning for a map that `--scale` (given as `scale`) makes smaller across than
/// [`MIN_RESCALED_EXTENT`], where nobody stands (`--scale 1e-30` walked a map smaller than
/// an atom without a word: a new user's finding), or that the survey surely reads in a
/// unit far from it (`doubt`, see [`crate::survey::FrameGuess::scale_doubt`]: `--scale
/// 1000` made a house 24 km across without a word). The window's `[` refuses to go
/// there; a scale given is the user's to keep, so it is said, not refused.
fn doubtful_scale(
    world: &CollisionWorld,
    scale: Option<f32>,
    doubt: Option<&str>,
) -> Option<String> {
    let s = scale?;
    let across = world.bounds().size().max_element();
    if across < MIN_RESCALED_EXTENT {
        return Some(format!(
            "--scale {s:?} makes the map {across:.3e} m across, too small to stand in (a person is 1.8 m tall): is the scale right?"
        ));
    }
    doubt.map(|reads| {
        format!(
            "--scale {s} makes the map {across:.3e} m across, but it reads as {reads}: is the scale right?"
        )
    })
}

/// What the load says of a scene's up axis: `(up, named in the file)`, and `--up` if given
/// (a fuzz run's finding: `--up z` was applied and the load said "as the scene file gives
/// them").
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A new user's finding: "dropped 160 faces with no area" (the loader's warning) and
    /// "18 triangles without area in world coordinates dropped from collision" (the map
    /// line) read as two counts of one thing. The map line's are slivers, still drawn.
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
