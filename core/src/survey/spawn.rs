//! Where the player starts: the map's marked spawn, else the best floor spot found by ray
//! casts among the floor samples (head room, walls around, the main level, a view into
//! the map). What a start deserves said of it (outside the map, inside a solid, on an
//! open map) is `start`'s; whether an eye is inside a closed solid, and the way out of
//! one, is `solids`'.

use glam::Vec3;

use super::pockets::FreeSpace;
use super::samples::{Run, floor_runs};
use crate::collision::body::EYE_HEIGHT;
use crate::collision::placement::place;
use crate::collision::{Body, CollisionWorld, Probe};
use crate::geometry::InsideMethod;
use crate::map::Map;
use crate::measure::{AIM_REACH, aim};
use crate::player::Pose;
use crate::tolerance::CONTACT_GAP;

mod solids;
mod start;

use solids::inside_a_solid;
pub use solids::{SOLID_EXIT_MARGIN, out_of_solid};
use start::outside_or_open;
pub use start::{CheckedStart, checked_start, moved_out_of_solid, open_headings, start_warning};

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
/// it is not "inf m clear" ("indoors, walls in 0 of 16 directions, inf m clear" reads as
/// a contradiction).
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
pub(super) fn headings(n: usize) -> impl Iterator<Item = Vec3> {
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
pub(super) const OPEN_CHECK_HEADINGS: usize = 16;

#[cfg(test)]
mod tests;
