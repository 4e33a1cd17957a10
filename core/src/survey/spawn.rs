//! Where the player starts: the map's marked spawn, else the best floor spot found by ray
//! casts among the floor samples (head room, walls around, the main level, a view into
//! the map); and the warnings a start deserves (outside the map, or on an open map).

use glam::Vec3;

use super::pockets::FreeSpace;
use super::samples::{Run, floor_runs};
use crate::collision::body::EYE_HEIGHT;
use crate::collision::placement::{free_anchor, place};
use crate::collision::{Body, Collider, CollisionWorld, Probe};
use crate::geometry::{Aabb, InsideMethod};
use crate::map::{Map, MapFrame};
use crate::measure::{AIM_REACH, aim};
use crate::player::Pose;
use crate::tolerance::CONTACT_GAP;

/// Floor samples the spawn is chosen among (spread by area over every floor: a map whose
/// bounds a far-off column stretches still has its rooms sampled).
const SPAWN_SAMPLES: usize = 700;
/// Most a spawn's body may rest above or below eye height over its floor sample, metres.
/// On a slope the walker's ellipsoid touches uphill of its centre and rests higher: 1.7 cm
/// at 30 degrees, 4.9 cm at 45 (the steepest walkable); more is furniture or a ledge's
/// edge under the spot.
const SPAWN_MAX_LIFT: f32 = 0.06;
/// How far from an automatic spawn the floor must go on (where no wall stands nearer),
/// metres: a spot nearer a drop than this loses [`EDGE_PENALTY`] (a step back from the
/// spawn must not fall off the map).
pub const SPAWN_EDGE_REACH: f32 = 0.75;
/// A fall deeper than this from the spawn's floor is a drop, metres (less is a step or a
/// slope, walked down).
const DROP_DEPTH: f32 = 1.0;
/// What a spot at a drop's edge loses in the spawn score: more than a wider view gains
/// (cornell's edge saw the whole room), so the spawn stands back from the edge; less than
/// a spot inside a solid loses.
const EDGE_PENALTY: f32 = 4.0;
/// Height above the feet of the lower ring of rays that measures a spawn's clearance,
/// metres: over a stair's first step, under a table top or a crate.
const SPAWN_KNEE: f32 = 0.45;
/// Free distance required around an automatic spawn, metres (at the eye and at
/// [`SPAWN_KNEE`]).
const SPAWN_CLEARANCE: f32 = 0.4;
/// Floors within this many metres of each other count as one level when the survey
/// measures how much of the map stands on each level.
const LEVEL_BIN: f32 = 0.3;
/// Weight of a level's share of the map's floor area in the spawn score: the main floor
/// (share 1) beats a table top or a block's top (a small share) by more than walls and
/// clearance can make up.
const FLOOR_SHARE_WEIGHT: f32 = 6.0;
/// Headings a spawn spot looks along (22.5 degrees apart).
const SPAWN_HEADINGS: usize = 16;
/// The view along a heading is the fan of this many headings centred on it (90 degrees).
const VIEW_FAN: usize = 5;
/// Walls farther than this (metres) add no more to a view: a walking distance.
const VIEW_REACH: f32 = 10.0;
/// Weight of the best view (0 to 1: every ray of the fan meets a wall at `VIEW_REACH`, or
/// across the whole of a smaller map) in
/// the spawn score: a spot that sees the map beats one that sees a wall or the outside.
const VIEW_WEIGHT: f32 = 8.0;

/// The chosen spawn and why.
#[derive(Clone, Debug, PartialEq)]
pub struct SpawnChoice {
    /// Eye position, world coordinates.
    pub position: Vec3,
    /// Heading, degrees.
    pub yaw_deg: f32,
    /// A sentence for the user.
    pub reason: String,
}

/// Heading (degrees) that looks along the horizontal direction `dir`.
pub fn yaw_of(dir: Vec3) -> f32 {
    (-dir.x).atan2(-dir.z).to_degrees()
}

/// The warning for a spawn given outside a sealed level's rooms.
const OUTSIDE_ROOMS: &str = "the spawn is outside the map's closed rooms (on its roof, under it or beside its walls): nothing there holds a walker in, and a walk there falls off the map";

/// How far outside the map's bounds a given spawn may be before a warning, metres.
const SPAWN_OUTSIDE_MARGIN: f32 = 2.0;

/// The spawn: `given` (`--spawn`, file coordinates) if any, else one found in the map; `yaw_deg`
/// (`--yaw`) overrides the heading either way. A spawn outside the map, or one from which a walk
/// leaves an open map, adds a warning to the map's (see [`start_warning`]).
pub fn choose_spawn(
    map: &mut Map,
    world: &CollisionWorld,
    free: Option<&FreeSpace>,
    given: Option<Vec3>,
    yaw_deg: Option<f32>,
) -> SpawnChoice {
    let mut spawn = match given {
        Some(p) => SpawnChoice {
            position: map.frame.to_world(p),
            yaw_deg: 0.0,
            reason: "given on the command line".into(),
        },
        None => find_spawn(map, world, free),
    };
    if let Some(y) = yaw_deg {
        spawn.yaw_deg = y;
    }
    // The survey's own spawn is never in a solid (it passes over sealed pockets). One
    // given outside a sealed level's rooms (on the roof of a closed box, a little past a
    // wall) was warned of as "the map is open", or not at all.
    let outside_rooms = free.is_some_and(|f| f.is_outside_sealed(spawn.position));
    let warning = match given {
        Some(_) if outside_rooms => Some(OUTSIDE_ROOMS.to_string()),
        // A spawn given or marked may be inside a solid (a block, a placed model, a mover
        // at its first pose): moved out, and said.
        _ if given.is_some() || map.marked_spawn.is_some() => {
            let checked = checked_start(&map.frame, world, spawn.position, "the spawn");
            spawn.position = checked.eye;
            checked.warning
        }
        _ => outside_or_open(&map.frame, world, spawn.position, "the spawn"),
    };
    map.warnings.extend(warning);
    spawn
}

/// What is wrong with starting at the eye `eye` (world coordinates) in `world` (framed by
/// `frame`), for `what` ("the spawn", "the start"): outside the map's bounds, there is
/// nothing to stand on; in them, inside a closed solid (see [`inside_a_solid`]), or a way
/// out of an open map along which a walk falls off. `None` when none. (`--spawn` and a
/// script's `start` lines are checked by this; the survey's own spawn by
/// [`outside_or_open`].)
pub fn start_warning(
    frame: &MapFrame,
    world: &CollisionWorld,
    eye: Vec3,
    what: &str,
) -> Option<String> {
    checked_start(frame, world, eye, what).warning
}

/// A start checked: where the eye starts (moved out of a closed solid it was inside), and
/// the warning that says what was wrong, if anything.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedStart {
    /// The eye, world coordinates: as given, or the nearest spot outside the closed
    /// solid it was inside (see [`out_of_solid`]).
    pub eye: Vec3,
    /// What was wrong with the eye as given, and where it was moved.
    pub warning: Option<String>,
}

/// The start at the eye `eye` checked as [`start_warning`] does, and moved out of the
/// closed solid it is inside to the nearest spot outside it (see [`moved_out_of_solid`]).
pub fn checked_start(
    frame: &MapFrame,
    world: &CollisionWorld,
    eye: Vec3,
    what: &str,
) -> CheckedStart {
    moved_out_of_solid(frame, world, eye, what).unwrap_or_else(|| CheckedStart {
        eye,
        warning: outside_or_open(frame, world, eye, what),
    })
}

/// The eye `eye` moved out of the closed solid it is inside to the nearest spot outside
/// it, with the warning that says where (Quake III's `G_MoverPush` never leaves a body
/// inside a pusher; a start, a saved view or a reload inside a block is no better): the
/// walker is never placed inside a solid. `None` when the eye is inside none. `what` names
/// the eye in the warning ("the spawn", "view 3").
pub fn moved_out_of_solid(
    frame: &MapFrame,
    world: &CollisionWorld,
    eye: Vec3,
    what: &str,
) -> Option<CheckedStart> {
    let inside = |p: Vec3| inside_a_solid(world, p) || inside_overlapping_solids(world, p);
    // An eye on a face is placed from the side of it the placement takes (see
    // `free_anchor`): an enclosed side, which a closed solid's inside is.
    let anchor = free_anchor(world, &Probe::new(Body::FLYER, Default::default()), eye);
    let from = match (inside(eye), anchor != eye && inside(anchor)) {
        (true, _) => eye,
        (false, true) => anchor,
        (false, false) => return None,
    };
    let inside = format!(
        "{what} looks inside a closed solid: every ray from it, round and up and down, meets a face, nearly all from behind (a block's inside, or a room whose faces all point out)"
    );
    Some(match out_of_solid(world, from) {
        Some(out) => {
            let p = frame.to_file(out);
            CheckedStart {
                eye: out,
                warning: Some(format!(
                    "{inside}: it is moved {:.2} m to {:.3},{:.3},{:.3} (file coordinates), the nearest spot outside it",
                    out.distance(eye),
                    p.x,
                    p.y,
                    p.z
                )),
            }
        }
        None => CheckedStart {
            eye,
            warning: Some(format!(
                "{inside}; no way out of it was found: whoever starts there sees the solid's inside and cannot walk out"
            )),
        },
    })
}

/// How far past the face it leaves by an eye moved out of a closed solid is put, metres:
/// past the placement's anchor probe and the flying eye's skin, so the placement that
/// follows starts in free space, and near enough to be the nearest spot outside.
pub const SOLID_EXIT_MARGIN: f32 = 2.0 * crate::collision::SKIN;

/// Most faces a ray from a start inside a solid is followed through to find free space
/// (a block inside a block, a wall's two sides): past them, that way is given up.
const SOLID_EXIT_FACES: usize = 4;

/// The nearest spot outside the closed solid the eye `eye` is inside: along each ray of
/// [`inside_a_solid`], past the faces it meets from behind until the spot past one is
/// clear of every solid (see [`clear_of_solids`]), of every face by the flying eye's skin
/// and in the map's box; the nearest such spot. `None` when none is.
pub fn out_of_solid(world: &CollisionWorld, eye: Vec3) -> Option<Vec3> {
    let reach = world.bounds().size().length().max(1.0) * 2.0;
    let mut best: Option<Vec3> = None;
    for d in headings(OPEN_CHECK_HEADINGS).chain([Vec3::Y, Vec3::NEG_Y]) {
        let mut from = eye;
        for _ in 0..SOLID_EXIT_FACES {
            let Some(hit) = world.ray_cast(from, d, reach) else {
                break;
            };
            let spot = from + d * (hit.distance + SOLID_EXIT_MARGIN);
            if best.is_some_and(|b| b.distance(eye) <= spot.distance(eye)) {
                break;
            }
            // Clear of every face by the flying eye's skin too: a spot past one face but
            // within the skin of another is on both sides of it to a placement.
            let free = world.bounds().contains(spot)
                && world.nearest_overlap(&Body::FLYER, spot).is_none()
                && clear_of_solids(world, spot);
            if free && back_at(world, from, d, hit.distance, hit.triangle) {
                best = Some(spot);
                break;
            }
            from = spot;
        }
    }
    best
}

/// [`start_warning`] but for the solid: outside the map, or on an open map's way out.
fn outside_or_open(
    frame: &MapFrame,
    world: &CollisionWorld,
    eye: Vec3,
    what: &str,
) -> Option<String> {
    let b = world.bounds();
    let inside = b.inflated(SPAWN_OUTSIDE_MARGIN).contains(eye);
    if !inside {
        let (lo, hi) = (frame.to_file(b.min), frame.to_file(b.max));
        return Some(format!(
            "{what} is outside the map (which spans {:.1},{:.1},{:.1} to {:.1},{:.1},{:.1} in file coordinates): there is nothing to stand on there",
            lo.x, lo.y, lo.z, hi.x, hi.y, hi.z
        ));
    }
    let open = open_headings(world, eye);
    open.first().map(|first| {
        format!(
            "the map is open: from {what} nothing stops a walk toward yaw {first:.0} ({} of 16 headings are open); who walks out falls off the map",
            open.len()
        )
    })
}

/// Choose where the player starts: the map's marked spawn, else the best open floor spot
/// (indoors preferred: a ceiling above and walls around; on the level most of the map's
/// floor is on, not the top of a table or a block), facing into the map: the longest view
/// that ends at a wall (an open map's most open way is its outside).
pub fn find_spawn(map: &Map, world: &CollisionWorld, free: Option<&FreeSpace>) -> SpawnChoice {
    if let Some(s) = map.marked_spawn {
        // A marked spawn keeps the map author's heading convention: yaw 0 (toward -Z).
        return SpawnChoice {
            position: s.position,
            yaw_deg: 0.0,
            reason: "the map marks it (object 'spawn' or 'player_start')".into(),
        };
    }
    let b = world.bounds();
    let look = Look {
        reach: b.size().length().max(1.0),
        // A small map (a 3 m box) is seen whole at its own size.
        view_reach: VIEW_REACH
            .min(Vec3::new(b.size().x, 0.0, b.size().z).length())
            .max(1.0),
    };
    let runs = floor_runs(world, free, Vec3::Y, SPAWN_SAMPLES, 0);
    let level_of = |y: f32| (y / LEVEL_BIN).round() as i64;
    let mut level_area: std::collections::BTreeMap<i64, usize> = Default::default();
    for r in &runs {
        *level_area.entry(level_of(r.level)).or_default() += 1;
    }
    let largest = level_area.values().copied().max().unwrap_or(1) as f32;
    let mut best: Option<(f32, SpawnChoice)> = None;
    for run in &runs {
        let Some(eye) = standing_eye(world, free, run) else {
            continue;
        };
        let around = look.around(world, eye);
        if around.nearest < SPAWN_CLEARANCE {
            continue;
        }
        let share = level_area.get(&level_of(run.level)).copied().unwrap_or(0) as f32 / largest;
        let indoors = run.height.is_some();
        let edge = if at_a_drop(world, eye, run.point.y, &around) {
            EDGE_PENALTY
        } else {
            0.0
        };
        let score = spot_score(&around, indoors, share)
            - edge
            - (run.point - b.center()).length() / look.reach;
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, chosen(eye, &around, indoors)));
        }
    }
    best.map(|(_, s)| s).unwrap_or_else(|| SpawnChoice {
        position: if b.is_empty() {
            Vec3::new(0.0, EYE_HEIGHT, 0.0)
        } else {
            b.center()
        },
        yaw_deg: 0.0,
        reason: "no floor found: the centre of the map".into(),
    })
}

/// The eye of the standing body at rest over the floor sample `run`, or `None` where it
/// cannot stand: inside a closed solid, without head room, not fitting, or lifted onto
/// something (on a slope it rests a little higher than over the point under it; a spot
/// that lifts it onto a chair's seat is no spawn).
fn standing_eye(world: &CollisionWorld, free: Option<&FreeSpace>, run: &Run) -> Option<Vec3> {
    let eye = resting_eye(run.point);
    if free.is_some_and(|f| f.is_pocket(eye))
        || run.height.is_some_and(|h| h < EYE_HEIGHT + HEAD_ROOM)
    {
        return None;
    }
    stand_on(world, run.point)
}

/// Room over a standing walker's eye a spot needs, metres.
const HEAD_ROOM: f32 = 0.1;

/// The eye at eye height and the contact gap over the floor point `floor`: the body at
/// rest.
fn resting_eye(floor: Vec3) -> Vec3 {
    floor + Vec3::Y * (EYE_HEIGHT + CONTACT_GAP)
}

/// The eye of the standing body placed at rest over the floor point `floor` (by the one
/// placement rule, anchored at its eye), or `None` where it does not fit or rests lifted
/// onto something (on a slope it rests a little higher than over the point under it; a
/// spot that lifts it onto a chair's seat is no place to stand).
fn stand_on(world: &CollisionWorld, floor: Vec3) -> Option<Vec3> {
    let eye = resting_eye(floor);
    let body = Body::WALKER;
    let probe = Probe::new(body, InsideMethod::default());
    let rest = place(world, &probe, eye, body.centre_of(eye))?;
    let eye = body.eye_of(rest.centre);
    ((eye.y - floor.y - EYE_HEIGHT).abs() <= SPAWN_MAX_LIFT).then_some(eye)
}

/// Why the crosshair points at no place to stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoFloor {
    /// The view meets nothing.
    Nothing,
    /// It meets a surface too steep to stand on (a wall, a ceiling).
    NotAFloor,
    /// The floor met has no room for a standing walker over it, or is inside a solid.
    NoRoom,
}

impl std::fmt::Display for NoFloor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoFloor::Nothing => "nothing under the crosshair",
            NoFloor::NotAFloor => "the crosshair is not on a floor (too steep to stand on)",
            NoFloor::NoRoom => "no room to stand there",
        })
    }
}

/// Where the walker looking from `eye` stands on the floor its crosshair points at (a
/// teleport): the floor the view ray meets first, so never one behind a wall; there the
/// body is placed at rest by the spawn's rule ([`stand_on`]), never inside a solid.
/// `walkable_min_up` is the walk's steepest standing ground (its normal's up component).
pub fn floor_in_view(
    world: &CollisionWorld,
    eye: &Pose,
    walkable_min_up: f32,
) -> Result<Vec3, NoFloor> {
    let at = aim(world, eye, AIM_REACH).ok_or(NoFloor::Nothing)?;
    let normal = world
        .triangles()
        .get(at.triangle as usize)
        .map_or(Vec3::ZERO, |t| t.plane.normal);
    // The side seen is the side stood on.
    let up = if normal.dot(eye.forward()) > 0.0 {
        -normal.y
    } else {
        normal.y
    };
    if up < walkable_min_up {
        return Err(NoFloor::NotAFloor);
    }
    let head = world.ray_cast(
        at.point + Vec3::Y * CONTACT_GAP,
        Vec3::Y,
        EYE_HEIGHT + HEAD_ROOM,
    );
    if head.is_some() || inside_a_solid(world, resting_eye(at.point)) {
        return Err(NoFloor::NoRoom);
    }
    stand_on(world, at.point).ok_or(NoFloor::NoRoom)
}

/// Whether a step of [`SPAWN_EDGE_REACH`] from the eye at `eye` (standing on a floor at
/// height `floor`) along some heading no wall stops within it finds no floor within
/// [`DROP_DEPTH`] below: the spot is at the edge of a drop (or of the map).
fn at_a_drop(world: &CollisionWorld, eye: Vec3, floor: f32, around: &Surroundings) -> bool {
    let down = eye.y - floor + DROP_DEPTH;
    headings(SPAWN_HEADINGS)
        .zip(around.dists)
        .filter(|&(_, wall)| wall > SPAWN_EDGE_REACH)
        .any(|(d, _)| {
            world
                .ray_cast(eye + d * SPAWN_EDGE_REACH, -Vec3::Y, down)
                .is_none()
        })
}

/// How good a spot with `around` is: not inside a solid (walls seen from behind all round:
/// a hollow block, if the faces are wound outward; a room wound outward looks the same, so
/// this only breaks ties), indoors over outdoors (a roof has open sky above), the main
/// floor (`share` of the largest level's area) over furniture tops, the view, enclosed
/// over open, then roomy.
fn spot_score(around: &Surroundings, indoors: bool, share: f32) -> f32 {
    let inside_solid = around.walls > 0 && around.backs * 4 >= around.walls * 3;
    let solid = if inside_solid { -5.0 } else { 0.0 };
    solid
        + if indoors { 10.0 } else { 0.0 }
        + FLOOR_SHARE_WEIGHT * share
        + VIEW_WEIGHT * around.view
        + around.walls as f32 * 0.25
        + around.nearest.min(3.0)
}

/// The spawn at `eye`, facing the best view of `around`, with its reason.
/// A ceiling with no wall round it is not indoors, and a spot with nothing round
/// it is not "inf m clear" (a new user read "indoors, walls in 0 of 16 directions, inf m
/// clear" as a contradiction).
fn chosen(eye: Vec3, around: &Surroundings, indoors: bool) -> SpawnChoice {
    let clear = around.nearest.min(around.open);
    SpawnChoice {
        position: eye,
        yaw_deg: yaw_of(around.toward),
        reason: format!(
            "best open floor found by ray casts ({}, walls in {} of {SPAWN_HEADINGS} directions, {}, {})",
            match (indoors, around.walls) {
                (false, _) => "outdoors",
                (true, 0) => "under a ceiling with no walls round",
                (true, _) => "indoors",
            },
            around.walls,
            if clear.is_finite() {
                format!("{clear:.1} m clear")
            } else {
                "nothing near".into()
            },
            if around.view > 0.0 {
                "facing into the map"
            } else {
                "nothing in view"
            }
        ),
    }
}

/// `n` horizontal unit directions, evenly spaced from +X.
fn headings(n: usize) -> impl Iterator<Item = Vec3> {
    (0..n).map(move |k| {
        let a = k as f32 * std::f32::consts::TAU / n as f32;
        Vec3::new(a.cos(), 0.0, a.sin())
    })
}

/// How the spawn survey looks round a spot.
struct Look {
    /// How far its rays go (the map's diagonal).
    reach: f32,
    /// Walls farther than this add no more to a view.
    view_reach: f32,
}

impl Look {
    /// What the eye at `eye` sees, one ray per heading.
    fn around(&self, world: &CollisionWorld, eye: Vec3) -> Surroundings {
        let dirs: Vec<Vec3> = headings(SPAWN_HEADINGS).collect();
        let mut open = 0.0f32;
        let (mut walls, mut nearest, mut backs) = (0, f32::INFINITY, 0);
        let mut dists = [f32::INFINITY; SPAWN_HEADINGS];
        // Clearance at the knee too: a block lower than the eye is still in the way
        // (cornell's spawn stood 0.3 m behind a knee-high block, resting on its edge).
        let knee = eye - Vec3::Y * (EYE_HEIGHT - SPAWN_KNEE);
        for (k, &d) in dirs.iter().enumerate() {
            let hit = world.ray_cast(eye, d, self.reach);
            let dist = hit.map_or(f32::INFINITY, |h| h.distance);
            if let Some(h) = hit {
                walls += 1;
                backs +=
                    (world.triangles()[h.triangle as usize].plane.normal.dot(d) > 0.0) as usize;
            }
            let low = world
                .ray_cast(knee, d, SPAWN_CLEARANCE)
                .map_or(f32::INFINITY, |h| h.distance);
            nearest = nearest.min(dist).min(low);
            open = open.max(dist);
            dists[k] = dist;
        }
        // The view along a heading: how much wall its fan meets within a walking distance
        // (a ray out of the map sees nothing; the outside is no view).
        let view_of = |k: usize| -> f32 {
            (0..VIEW_FAN)
                .map(|i| dists[(k + SPAWN_HEADINGS + i - VIEW_FAN / 2) % SPAWN_HEADINGS])
                .filter(|d| d.is_finite())
                .map(|d| d.min(self.view_reach))
                .sum()
        };
        let (heading, view) = (0..SPAWN_HEADINGS)
            .map(|k| (k, view_of(k)))
            .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
        Surroundings {
            open,
            dists,
            toward: dirs[heading],
            view: view / (VIEW_FAN as f32 * self.view_reach),
            walls,
            nearest,
            backs,
        }
    }
}

/// What the eye sees looking round a candidate spawn spot, one ray per heading.
struct Surroundings {
    /// Distance to the wall along the most open heading (infinite: nothing there).
    open: f32,
    /// Distance to the wall along each heading (see [`headings`]; infinite: none).
    dists: [f32; SPAWN_HEADINGS],
    /// The heading to face: the one that sees the most of the map.
    toward: Vec3,
    /// How much of the map `toward` sees, 0 to 1 (see [`VIEW_FAN`]).
    view: f32,
    /// Headings that meet a wall.
    walls: usize,
    /// Distance to the nearest wall.
    nearest: f32,
    /// Walls seen from behind (inside a solid every wall is).
    backs: usize,
}

/// Headings looked along for a way out of the map.
const OPEN_CHECK_HEADINGS: usize = 16;
/// Height above the feet of the lower of the two rays that look for a way out: a wall
/// lower than this does not hold a walker in.
const OPEN_CHECK_KNEE: f32 = 0.3;

/// The headings (yaw, degrees) along which nothing stops a walk from `eye`: neither a ray
/// at eye height nor one at knee height meets a triangle. Empty for a closed map.
pub fn open_headings(world: &CollisionWorld, eye: Vec3) -> Vec<f32> {
    let reach = world.bounds().size().length().max(1.0) * 2.0;
    let knee = eye - Vec3::Y * (EYE_HEIGHT - OPEN_CHECK_KNEE);
    headings(OPEN_CHECK_HEADINGS)
        .filter_map(|d| {
            let open =
                world.ray_cast(eye, d, reach).is_none() && world.ray_cast(knee, d, reach).is_none();
            open.then(|| yaw_of(d))
        })
        .collect()
}

/// Is the eye at `eye` inside a closed solid: does every ray from it (the
/// [`OPEN_CHECK_HEADINGS`] round, up and down) meet a triangle, all but
/// [`SOLID_FRONTS`] of them from behind? A map's faces point out of its solids (OBJ winds
/// them counter-clockwise seen from outside), so from a block's hollow backs are seen;
/// from a room, its walls' fronts; unless the map is wound the other way round, which
/// [`wound_outward`] asks. (A new user gave `--spawn` inside the built-in map's gallery
/// block and saw only its inside, unwarned.) A point outside the map's box is not asked:
/// it is outside the map.
fn inside_a_solid(world: &CollisionWorld, eye: Vec3) -> bool {
    world.bounds().contains(eye)
        && fronts_seen(world, eye).is_some_and(|f| f <= SOLID_FRONTS)
        && wound_outward(world)
}

/// How many of the rays from `eye` (see [`inside_a_solid`]) meet a face from the front;
/// `None` when one meets nothing.
fn fronts_seen(world: &CollisionWorld, eye: Vec3) -> Option<usize> {
    let reach = world.bounds().size().length().max(1.0) * 2.0;
    let mut fronts = 0;
    for d in headings(OPEN_CHECK_HEADINGS).chain([Vec3::Y, Vec3::NEG_Y]) {
        let hit = world.ray_cast(eye, d, reach)?;
        fronts += usize::from(!back_at(world, eye, d, hit.distance, hit.triangle));
    }
    Some(fronts)
}

/// Most faces [`solid_depths`] follows a ray through: past them, the ray's count stops.
const DEPTH_FACES: usize = 8;

/// How many closed solids `eye` is inside, as each ray of [`inside_a_solid`] tells: the
/// most that the faces it meets from behind (leaving a solid) outnumber those it meets
/// from the front (entering one) along it (up to [`DEPTH_FACES`] faces; the most, not
/// the last count: a floor that is no solid's face, met from above past a block's
/// bottom, would cancel the block). Unlike the first face alone, this sees through
/// solids that overlap: inside a block that a second block cuts into, the rays toward
/// the second meet its front first.
fn solid_depths(world: &CollisionWorld, eye: Vec3) -> impl Iterator<Item = i32> + '_ {
    let reach = world.bounds().size().length().max(1.0) * 2.0;
    headings(OPEN_CHECK_HEADINGS)
        .chain([Vec3::Y, Vec3::NEG_Y])
        .map(move |d| {
            let (mut from, mut depth, mut deepest) = (eye, 0, 0);
            for _ in 0..DEPTH_FACES {
                let Some(hit) = world.ray_cast(from, d, reach) else {
                    break;
                };
                depth += if back_at(world, from, d, hit.distance, hit.triangle) {
                    1
                } else {
                    -1
                };
                deepest = deepest.max(depth);
                from += d * (hit.distance + COPLANAR * hit.distance.max(1.0));
            }
            deepest
        })
}

/// Is `eye` inside a closed solid by [`solid_depths`]: all but [`SOLID_FRONTS`] of the
/// rays leave more solids than they enter (and the map's faces point out of its solids,
/// see [`wound_outward`]). A start's second look, for solids that overlap.
fn inside_overlapping_solids(world: &CollisionWorld, eye: Vec3) -> bool {
    let rays = OPEN_CHECK_HEADINGS + 2;
    world.bounds().contains(eye)
        && solid_depths(world, eye).filter(|&n| n > 0).count() + SOLID_FRONTS >= rays
        && wound_outward(world)
}

/// Is `spot` clear of every closed solid as [`solid_depths`] tells: at most
/// [`SOLID_FRONTS`] of its rays leave more solids than they enter. Stricter than not
/// being inside one by its first faces: between a block and a block inside it, the inner
/// one's fronts are seen round half the horizon, and the spot is no more free than inside.
fn clear_of_solids(world: &CollisionWorld, spot: Vec3) -> bool {
    solid_depths(world, spot).filter(|&n| n > 0).count() <= SOLID_FRONTS
}

/// Are `world`'s faces wound as OBJ has them, out of its solids and into its rooms? Asked
/// of the eye over every level face (up or down: either may be a floor here) down each
/// of [`WINDING_COLUMNS`] squared columns: enclosed there, most see fronts. A room written
/// with its faces out (a test's, or an exporter's) sees only backs from inside, and every
/// start in it would look inside a solid.
fn wound_outward(world: &CollisionWorld) -> bool {
    let b = world.bounds();
    let step = b.size().y.max(1e-3) * 1e-4;
    let (mut enclosed, mut solid) = (0usize, 0usize);
    for i in 0..WINDING_COLUMNS {
        for k in 0..WINDING_COLUMNS {
            let at = |n: usize, lo: f32, size: f32| {
                lo + (n as f32 + 0.5) / WINDING_COLUMNS as f32 * size
            };
            let (x, z) = (at(i, b.min.x, b.size().x), at(k, b.min.z, b.size().z));
            let mut top = b.max.y + 1.0;
            for _ in 0..WINDING_FLOORS {
                let Some(h) =
                    world.ray_cast(Vec3::new(x, top, z), Vec3::NEG_Y, top - b.min.y + 1.0)
                else {
                    break;
                };
                let floor = top - h.distance;
                let level =
                    world.triangles()[h.triangle as usize].plane.normal.y.abs() >= LEVEL_FACE;
                let eye = Vec3::new(x, floor + EYE_HEIGHT, z);
                if level && let Some(f) = fronts_seen(world, eye) {
                    let looks_solid = f <= SOLID_FRONTS;
                    // An eye that sees backs all round says nothing of how the map is
                    // wound when it stands in a solid set on or over a floor (a crate, a
                    // mover at its first pose), not in a room: over a floor whose front
                    // faces up, as OBJ winds a floor, or over the solid's own bottom with
                    // more of the map below it. (A room wound inside out is seen from
                    // behind underfoot, with nothing below it on its lowest storey.)
                    let in_a_solid_on_a_floor = || {
                        let down = Vec3::new(x, top, z);
                        let below = Vec3::new(x, floor - step, z);
                        met_from(
                            world,
                            down,
                            Vec3::NEG_Y,
                            h.distance,
                            h.triangle,
                            Side::Front,
                        ) || world
                            .ray_cast(below, Vec3::NEG_Y, floor - b.min.y + 1.0)
                            .is_some()
                    };
                    if !(looks_solid && in_a_solid_on_a_floor()) {
                        enclosed += 1;
                        solid += usize::from(looks_solid);
                    }
                }
                top = floor - step;
            }
        }
    }
    solid * 2 <= enclosed
}

/// Columns a side that [`wound_outward`] looks down.
const WINDING_COLUMNS: usize = 12;
/// Level faces met down one column that [`wound_outward`] looks from, at most.
const WINDING_FLOORS: usize = 8;
/// A face whose normal is this near vertical (its up or down component) is level: a floor
/// or a ceiling.
const LEVEL_FACE: f32 = 0.7;

/// Which side of a face a ray meets it from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Against its normal: the side OBJ winds counter-clockwise, a solid's outside.
    Front,
    /// Along its normal: a solid's inside.
    Back,
}

/// Does the ray from `eye` along `d` meet a face from behind at `distance`, where it met
/// triangle `first`? (See [`met_from`].)
fn back_at(world: &CollisionWorld, eye: Vec3, d: Vec3, distance: f32, first: u32) -> bool {
    met_from(world, eye, d, distance, first, Side::Back)
}

/// Does the ray from `eye` along `d` meet a face from `side` at `distance`, where it met
/// triangle `first`? A block against a wall shares the wall's plane: either face may be
/// the one the ray cast names, so any face the ray meets there counts (within
/// [`COPLANAR`] of the distance).
fn met_from(
    world: &CollisionWorld,
    eye: Vec3,
    d: Vec3,
    distance: f32,
    first: u32,
    side: Side,
) -> bool {
    let tris = world.triangles();
    let on_side = |i: u32| (tris[i as usize].plane.normal.dot(d) > 0.0) == (side == Side::Back);
    if on_side(first) {
        return true;
    }
    let tie = COPLANAR * distance.max(1.0);
    let near = Aabb::from_points([eye + d * distance]).inflated(tie);
    world.triangles_in_box(&near).into_iter().any(|i| {
        on_side(i)
            && InsideMethod::MollerTrumbore
                .ray_hits(&tris[i as usize], eye, d)
                .is_some_and(|t| (t - distance).abs() <= tie)
    })
}

/// Two faces met by one ray within this share of its distance (or of a metre) are met
/// together: coplanar, as a block's side against a wall (see [`back_at`]).
const COPLANAR: f32 = 1e-4;

/// Rays from inside a solid that may still meet a face from the front (see
/// [`inside_a_solid`]): a block standing on the floor may have no bottom (the ray down
/// meets the floor), and a crack between two of a solid's faces may let one ray through
/// to a face beyond. Over the eye above every floor of a 40 x 40 grid of columns (floors
/// inside solids too), 0 to 3.8% of the spots are inside by this on the seven real levels
/// and the three maps (conference 5 of 1,952, cs_italy 10 of 1,431, cs_inferno's crafty
/// export 83 of 2,182), the built-in map 61 of 1,886 (its gallery and stair blocks); a
/// walker's own spots see a room's fronts. On lost_empire most spots over its level faces
/// are in its buried blocks, so [`wound_outward`] does not trust it: nothing is said there.
const SOLID_FRONTS: usize = 2;

#[cfg(test)]
mod tests;
