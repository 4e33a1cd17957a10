//! Surveying a map by ray casts: what its units are, and where to put the player.
//!
//! Both work on a [`CollisionWorld`] built from the map, in world axes (Y up).

use glam::Vec3;

use super::pockets::{FreeSpace, Space};
use super::{Map, UpAxis};
use crate::collision::CollisionWorld;
use crate::collision::body::EYE_HEIGHT;

/// Floor-to-ceiling height the scale inference aims for, metres (one storey).
pub const STOREY_HEIGHT: f32 = 3.0;
/// Columns per side of the survey grid.
const GRID: usize = 24;
/// Horizontal surfaces recorded per column, top down.
const MAX_LAYERS: usize = 12;
/// A surface counts as horizontal when its normal's |y| exceeds this.
const HORIZONTAL_COS: f32 = 0.8;
/// Fewer floor-to-ceiling gaps than this and the inference falls back on the bounds.
const MIN_GAPS: usize = 6;
/// A guessed scale within this factor of 1 is taken as metres already.
const METRES_SLACK: f32 = 2.5;
/// Without gaps, maps larger than this many units are assumed not to be in metres.
const MAX_PLAUSIBLE_METRES: f32 = 2000.0;
/// Size such maps are scaled to, metres.
const FALLBACK_SIZE: f32 = 200.0;
/// Free distance required around an automatic spawn, metres.
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

/// The inferred scale and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleGuess {
    /// World units (metres) per file unit.
    pub scale: f32,
    /// A sentence for the user.
    pub reason: String,
}

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

/// Heights of the horizontal surfaces (floors, table tops, the upper faces of ceilings)
/// met straight down the column at `(x, z)`, from the top down.
fn layers(world: &CollisionWorld, x: f32, z: f32) -> Vec<f32> {
    let b = world.bounds();
    let step = (b.size().y * 1e-4).max(1e-5);
    let mut out = Vec::new();
    let mut y = b.max.y + 1.0;
    let span = b.size().y + 2.0;
    while out.len() < MAX_LAYERS {
        let Some(hit) = world.ray_cast(Vec3::new(x, y, z), -Vec3::Y, span) else {
            break;
        };
        let t = hit.distance;
        let hit_y = y - t;
        if world.triangles()[hit.triangle as usize]
            .plane
            .normal
            .y
            .abs()
            > HORIZONTAL_COS
        {
            out.push(hit_y);
        }
        y = hit_y - step;
    }
    out
}

fn columns(world: &CollisionWorld) -> impl Iterator<Item = (f32, f32)> + '_ {
    let b = world.bounds();
    (0..GRID * GRID).map(move |k| {
        let (i, j) = (k % GRID, k / GRID);
        let fx = (i as f32 + 0.5) / GRID as f32;
        let fz = (j as f32 + 0.5) / GRID as f32;
        (b.min.x + fx * b.size().x, b.min.z + fz * b.size().z)
    })
}

/// The up axis inferred from a map, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct UpGuess {
    /// The axis of the file that points up.
    pub up: UpAxis,
    /// A sentence for the user.
    pub reason: String,
}

/// Z is taken as up outright when this many times more of the map's area faces along Z
/// than along Y: OBJ's convention is Y-up, and a doubtful map keeps it.
const UP_MARGIN: f64 = 1.5;
/// With more area along Z, but less than [`UP_MARGIN`] times more (a hall with tall walls),
/// Z is up when the map is also flat along Z: its extent along Z under this share of the
/// smaller of the other two (buildings are wider than they are tall).
const FLAT_SHARE: f32 = 0.8;
/// Z is never up with less than this percentage of the area facing along it.
const MIN_UP_PERCENT: f64 = 10.0;

/// Guess a map's up axis (`map` loaded Y-up) from which way its surfaces face and which
/// way it is flat. Buildings are mostly floors, ceilings, table tops and roofs: more of
/// their area faces along the up axis than along a horizontal one (a 10 x 10 m room 3 m
/// high has 200 m² of floor and ceiling, 60 m² of wall along each horizontal axis), and
/// they are wider than tall. Winding is not trusted: a face counts for its axis whichever
/// way it points.
pub fn infer_up(map: &Map) -> UpGuess {
    let (mut along_y, mut along_z, mut total) = (0.0f64, 0.0f64, 0.0f64);
    for [a, b, c] in map.triangles() {
        let n = (b - a).cross(c - a).as_dvec3();
        let area = n.length();
        if !(area.is_finite() && area > 0.0) {
            continue;
        }
        total += area;
        let unit = n / area;
        if unit.y.abs() > f64::from(HORIZONTAL_COS) {
            along_y += area;
        } else if unit.z.abs() > f64::from(HORIZONTAL_COS) {
            along_z += area;
        }
    }
    if total == 0.0 {
        return UpGuess {
            up: UpAxis::Y,
            reason: "no surfaces: Y, as OBJ files usually are".into(),
        };
    }
    let (y, z) = (100.0 * along_y / total, 100.0 * along_z / total);
    let size = map.bounds.size();
    let flat_along_z = size.z < FLAT_SHARE * size.x.min(size.y);
    let (up, why) = if z < MIN_UP_PERCENT {
        (UpAxis::Y, "")
    } else if z > y * UP_MARGIN {
        (UpAxis::Z, ": floors face along Z (--up y overrides)")
    } else if z > y && flat_along_z {
        (
            UpAxis::Z,
            ", and the map is flat along Z (--up y overrides)",
        )
    } else {
        (UpAxis::Y, "")
    };
    UpGuess {
        up,
        reason: format!("{z:.0}% of the surface faces along Z, {y:.0}% along Y{why}"),
    }
}

/// Guess world units per file unit from floor-to-ceiling gaps (`world` at scale 1).
///
/// With a survey of the free space ([`FreeSpace`]): when more gaps lie in sealed pockets
/// than in open space, the map is built of closed solids (a town of blocks), and only the
/// gaps where a person can be count; otherwise sealed rooms (a house with its doors shut)
/// count as rooms.
pub fn infer_scale(world: &CollisionWorld, free: Option<&FreeSpace>) -> ScaleGuess {
    let b = world.bounds();
    if b.is_empty() {
        return ScaleGuess {
            scale: 1.0,
            reason: "empty map: scale 1".into(),
        };
    }
    let min_gap = b.size().max_element() * 1e-3;
    // Every gap, with the kind of space its middle is in.
    let all: Vec<(f32, Space)> = columns(world)
        .flat_map(|(x, z)| {
            let l = layers(world, x, z);
            l.windows(2)
                .filter(|w| w[0] - w[1] > min_gap)
                .map(|w| {
                    let middle = Vec3::new(x, (w[0] + w[1]) / 2.0, z);
                    let space = free.map_or(Space::Open, |f| f.space_at(middle));
                    (w[0] - w[1], space)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let count = |kind: Space| all.iter().filter(|(_, s)| *s == kind).count();
    let solids = count(Space::Pocket) > count(Space::Open);
    let mut gaps: Vec<f32> = all
        .iter()
        .filter(|(_, s)| !solids || *s == Space::Open)
        .map(|(g, _)| *g)
        .collect();
    if gaps.len() >= MIN_GAPS {
        gaps.sort_by(f32::total_cmp);
        let median = gaps[gaps.len() / 2];
        let scale = STOREY_HEIGHT / median;
        if (1.0 / METRES_SLACK..=METRES_SLACK).contains(&scale) {
            return ScaleGuess {
                scale: 1.0,
                reason: format!(
                    "typical floor-to-ceiling height {median:.2} units: already metres"
                ),
            };
        }
        return ScaleGuess {
            scale,
            reason: format!(
                "typical floor-to-ceiling height {median:.4} units taken as {STOREY_HEIGHT} m"
            ),
        };
    }
    let size = b.size().max_element();
    if size <= MAX_PLAUSIBLE_METRES {
        ScaleGuess {
            scale: 1.0,
            reason: format!("no rooms found; {size:.1} units across, taken as metres"),
        }
    } else {
        ScaleGuess {
            scale: FALLBACK_SIZE / size,
            reason: format!("no rooms found; {size:.0} units across, scaled to {FALLBACK_SIZE} m"),
        }
    }
}

/// Heading (degrees) that looks along the horizontal direction `dir`.
pub fn yaw_of(dir: Vec3) -> f32 {
    (-dir.x).atan2(-dir.z).to_degrees()
}

/// Choose where the player starts: the map's marked spawn, else the best open floor spot
/// (indoors preferred: a ceiling above and walls around; on the level most of the map's
/// floor is on, not the top of a table or a block), facing into the map: the longest view
/// that ends at a wall (an open map's most open way is its outside).
pub fn find_spawn(map: &Map, world: &CollisionWorld, free: Option<&FreeSpace>) -> SpawnChoice {
    let dirs: Vec<Vec3> = (0..SPAWN_HEADINGS)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / SPAWN_HEADINGS as f32;
            Vec3::new(a.cos(), 0.0, a.sin())
        })
        .collect();
    let b = world.bounds();
    let reach = b.size().length().max(1.0);
    // A small map (a 3 m box) is seen whole at its own size.
    let view_reach = VIEW_REACH
        .min(Vec3::new(b.size().x, 0.0, b.size().z).length())
        .max(1.0);
    let look_around = |eye: Vec3| -> Surroundings {
        let mut open = 0.0f32;
        let (mut walls, mut nearest, mut backs) = (0, f32::INFINITY, 0);
        let mut dists = [f32::INFINITY; SPAWN_HEADINGS];
        for (k, &d) in dirs.iter().enumerate() {
            let hit = world.ray_cast(eye, d, reach);
            let dist = hit.map_or(f32::INFINITY, |h| h.distance);
            if let Some(h) = hit {
                walls += 1;
                backs +=
                    (world.triangles()[h.triangle as usize].plane.normal.dot(d) > 0.0) as usize;
            }
            nearest = nearest.min(dist);
            open = open.max(dist);
            dists[k] = dist;
        }
        // The view along a heading: how much wall its fan meets within a walking distance
        // (a ray out of the map sees nothing; the outside is no view).
        let view_of = |k: usize| -> f32 {
            (0..VIEW_FAN)
                .map(|i| dists[(k + SPAWN_HEADINGS + i - VIEW_FAN / 2) % SPAWN_HEADINGS])
                .filter(|d| d.is_finite())
                .map(|d| d.min(view_reach))
                .sum()
        };
        let (heading, view) = (0..SPAWN_HEADINGS)
            .map(|k| (k, view_of(k)))
            .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
        Surroundings {
            open,
            toward: dirs[heading],
            view: view / (VIEW_FAN as f32 * view_reach),
            walls,
            nearest,
            backs,
        }
    };
    if let Some(s) = map.marked_spawn {
        // A marked spawn keeps the map author's heading convention: yaw 0 (toward -Z).
        return SpawnChoice {
            position: s.position,
            yaw_deg: 0.0,
            reason: "the map marks it (object 'spawn' or 'player_start')".into(),
        };
    }
    let spots: Vec<(f32, f32, Vec<f32>)> = columns(world)
        .map(|(x, z)| (x, z, layers(world, x, z)))
        .collect();
    let level_of = |y: f32| (y / LEVEL_BIN).round() as i64;
    let mut level_area: std::collections::HashMap<i64, usize> = Default::default();
    for (_, _, floors) in &spots {
        for &y in floors {
            *level_area.entry(level_of(y)).or_default() += 1;
        }
    }
    let largest = level_area.values().copied().max().unwrap_or(1) as f32;
    let mut best: Option<(f32, SpawnChoice)> = None;
    let centre = b.center();
    for &(x, z, ref floors) in &spots {
        for &floor in floors {
            let feet = Vec3::new(x, floor, z);
            let eye = feet + Vec3::Y * EYE_HEIGHT;
            if free.is_some_and(|f| f.is_pocket(eye)) {
                continue; // inside a closed solid
            }
            let up = world.ray_cast(feet + Vec3::Y * 0.05, Vec3::Y, reach);
            if up.is_some_and(|h| h.distance < EYE_HEIGHT + 0.1) {
                continue; // no head room
            }
            let Surroundings {
                open,
                toward: dir,
                view,
                walls,
                nearest,
                backs,
            } = look_around(eye);
            let share = level_area.get(&level_of(floor)).copied().unwrap_or(0) as f32 / largest;
            if nearest < SPAWN_CLEARANCE {
                continue;
            }
            // Not inside a solid (walls seen from behind all round: a hollow block, if the
            // faces are wound outward; a room wound outward looks the same, so this only
            // breaks ties between indoor spots); indoors beats outdoors (a roof has open sky above),
            // the main floor beats furniture tops, enclosed beats open, then roomy, then central.
            let inside_solid = walls > 0 && backs * 4 >= walls * 3;
            let score = if inside_solid { -5.0 } else { 0.0 }
                + if up.is_some() { 10.0 } else { 0.0 }
                + FLOOR_SHARE_WEIGHT * share
                + VIEW_WEIGHT * view
                + walls as f32 * 0.25
                + nearest.min(3.0)
                - (feet - centre).length() / reach;
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                let indoors = if up.is_some() { "indoors" } else { "outdoors" };
                best = Some((
                    score,
                    SpawnChoice {
                        position: eye,
                        yaw_deg: yaw_of(dir),
                        reason: format!(
                            "best open floor found by ray casts ({indoors}, walls in {walls} of {SPAWN_HEADINGS} directions, {:.1} m clear, {})",
                            nearest.min(open),
                            if view > 0.0 {
                                "facing into the map"
                            } else {
                                "nothing in view"
                            }
                        ),
                    },
                ));
            }
        }
    }
    best.map(|(_, s)| s).unwrap_or_else(|| SpawnChoice {
        position: if b.is_empty() {
            Vec3::new(0.0, EYE_HEIGHT, 0.0)
        } else {
            centre
        },
        yaw_deg: 0.0,
        reason: "no floor found: the centre of the map".into(),
    })
}

/// What the eye sees looking round a candidate spawn spot, one ray per heading.
struct Surroundings {
    /// Distance to the wall along the most open heading (infinite: nothing there).
    open: f32,
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
    (0..OPEN_CHECK_HEADINGS)
        .filter_map(|k| {
            let a = k as f32 * std::f32::consts::TAU / OPEN_CHECK_HEADINGS as f32;
            let d = Vec3::new(a.cos(), 0.0, a.sin());
            let open =
                world.ray_cast(eye, d, reach).is_none() && world.ray_cast(knee, d, reach).is_none();
            open.then(|| yaw_of(d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{LoadOptions, load_obj_str};

    /// A closed box room `w` x `h` x `w` units, faces inward.
    fn room(w: f32, h: f32) -> String {
        let mut s = String::new();
        for (x, y, z) in [
            (0., 0., 0.),
            (w, 0., 0.),
            (w, 0., w),
            (0., 0., w),
            (0., h, 0.),
            (w, h, 0.),
            (w, h, w),
            (0., h, w),
        ] {
            s += &format!("v {x} {y} {z}\n");
        }
        s += "f 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\nf 2 6 7 3\nf 3 7 8 4\nf 4 8 5 1\n";
        s
    }

    fn world_of(obj: &str) -> (Map, CollisionWorld) {
        let m = load_obj_str("room.obj", obj, &[], &LoadOptions::default()).unwrap();
        let w = CollisionWorld::new(m.triangles());
        (m, w)
    }

    #[test]
    fn millimetre_room_is_scaled_to_metres() {
        let (_, w) = world_of(&room(6000.0, 3000.0));
        let g = infer_scale(&w, None);
        assert!((g.scale - 0.001).abs() < 1e-5, "{g:?}");
    }

    #[test]
    fn metre_room_keeps_scale_one() {
        let (_, w) = world_of(&room(8.0, 2.7));
        assert_eq!(infer_scale(&w, None).scale, 1.0);
    }

    #[test]
    fn spawn_is_on_the_floor_inside_at_eye_height() {
        let (m, w) = world_of(&room(10.0, 3.0));
        let s = find_spawn(&m, &w, None);
        assert!((s.position.y - EYE_HEIGHT).abs() < 1e-3, "{s:?}");
        assert!(
            s.position.x > 0.0 && s.position.x < 10.0 && s.position.z > 0.0 && s.position.z < 10.0
        );
        assert!(s.reason.contains("indoors"), "{}", s.reason);
    }

    #[test]
    fn yaw_of_matches_pose_convention() {
        assert!((yaw_of(-Vec3::Z) - 0.0).abs() < 1e-5);
        assert!((yaw_of(-Vec3::X) - 90.0).abs() < 1e-4);
    }
}
