//! What the floor samples measure of a map, in the file's units: the free heights over
//! main floors (storeys), the heights of other floors under the same ceiling (things),
//! the rises of flights of stairs ([`super::stairs`]), the heights where the way sideways
//! opens and closes, the map's size, and how much of it is aligned with the up axis (a
//! level drawn as Doom draws). [`super::scale`] weighs them as cues to the unit.

use glam::Vec3;

use super::pockets::FreeSpace;
use super::samples::{self, Run};
use super::stairs::stairs;
use crate::collision::CollisionWorld;

/// Fewer readings of a cue than this and it is not used.
pub(super) const MIN_READINGS: usize = 12;
/// Two floor samples are on one level (or under one ceiling) within this share of the
/// map's height.
const LEVEL_TOLERANCE: f32 = 0.004;
/// Main floors under ceilings, and as many under the sky, looked along sideways.
const SIDEWAYS_RUNS: usize = 100;

/// What the floor samples measured, in file units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measures {
    /// Free heights over main floors.
    pub storeys: Vec<f32>,
    /// Heights of other floor-facing surfaces over the main floor under the same ceiling.
    pub things: Vec<f32>,
    /// Rises of the flights of stairs under each ceiling.
    pub steps: Vec<f32>,
    /// The most treads in a row of any of those flights.
    pub flight_treads: usize,
    /// Heights over floors where the way sideways opens and closes.
    pub sideways: samples::Sideways,
    /// The map across (horizontally).
    pub size: f32,
    /// The map's height (along the up axis).
    pub height: f32,
    /// Share of the surface area lying exactly across the up axis or exactly along it.
    pub aligned: f32,
    /// Share of the main floors with something over their ceiling (one room over
    /// another; a roof over a ceiling), when there are enough to say.
    pub stacked: Option<f32>,
}

/// Surfaces within this of exactly across or along the up axis are aligned with it
/// (cosine; a level editor's floors and walls are exact to float rounding).
const ALIGNED_COS: f32 = 1e-4;
/// A level is drawn as Doom draws ([`super::units::DOOM_SECTIONS`]) when at least this
/// share of its surface is aligned ...
const DOOM_ALIGNED: f32 = 0.99;
/// ... and at most this share of its main floors has anything over the ceiling.
const DOOM_STACKED: f32 = 0.02;

impl Measures {
    /// Whether the level is drawn as Doom's sections are: flat floors and ceilings,
    /// vertical walls, nothing over a ceiling.
    pub fn doom_like(&self) -> bool {
        self.aligned >= DOOM_ALIGNED && self.stacked.is_some_and(|s| s <= DOOM_STACKED)
    }
}

/// Read the measures from floor samples (`runs`, levels along the up axis `up`) of
/// `world`, whose extent across is `size` and along the up axis `height`.
pub fn measure(
    world: &CollisionWorld,
    _free: Option<&FreeSpace>,
    runs: &[Run],
    up: Vec3,
    size: f32,
    height: f32,
) -> Measures {
    // Under the sky, "things" would be every roof over the ground: only under ceilings
    // do things stand in rooms (outdoors, what rises from the ground is seen sideways).
    let (covered, open): (Vec<&Run>, Vec<&Run>) = runs.iter().partition(|r| r.height.is_some());
    // Levels are told apart within a share of the map's height.
    let tol = (height * LEVEL_TOLERANCE).max(f32::MIN_POSITIVE);
    let rooms = read_rooms(&covered, tol);
    let mut m = Measures {
        size,
        height,
        aligned: aligned(world, up),
        storeys: rooms.storeys,
        things: rooms.things,
        steps: rooms.steps,
        flight_treads: rooms.flight_treads,
        ..Measures::default()
    };
    let mut main_floors = rooms.main_floors;
    let open: Vec<Run> = open.into_iter().copied().collect();
    m.stacked = stacked(world, &main_floors, up);
    main_floors.truncate(SIDEWAYS_RUNS);
    main_floors.extend(open.iter().take(SIDEWAYS_RUNS).copied());
    m.sideways = samples::sideways(world, &main_floors, up, height, 2 * SIDEWAYS_RUNS);
    m
}

/// What the floors under ceilings measure: see [`read_rooms`].
struct Rooms {
    storeys: Vec<f32>,
    things: Vec<f32>,
    steps: Vec<f32>,
    flight_treads: usize,
    main_floors: Vec<Run>,
}

/// Read the rooms among the `covered` floor samples (those under a ceiling), telling
/// levels apart within `tol`: samples under one ceiling, and the most common level among
/// them (the main floor), the largest groups first (they are the rooms whose floors are
/// looked along sideways); the free heights over main floors (storeys), the heights of
/// other floors over them (things), and the rises of flights of stairs among them.
fn read_rooms(covered: &[&Run], tol: f32) -> Rooms {
    let mut out = Rooms {
        storeys: Vec::new(),
        things: Vec::new(),
        steps: Vec::new(),
        flight_treads: 0,
        main_floors: Vec::new(),
    };
    let mut groups = clusters(covered.to_vec(), tol, |r| r.ceiling().unwrap_or(0.0));
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    for group in groups {
        let levels = clusters(group, tol, |r| r.level);
        let Some(main) = levels.iter().max_by_key(|l| l.len()) else {
            continue;
        };
        let floor = main[0].level;
        let main_at = levels.iter().position(|l| std::ptr::eq(l, main));
        // Each level's height over the main floor (rising, as the levels are sorted).
        let heights: Vec<f32> = levels.iter().map(|l| l[0].level - floor).collect();
        // A flight of stairs is levels on whole multiples of one rise: the rise is a step,
        // and the treads are no things (k steps up they would fit any height at all).
        // Only level surfaces are treads: a ramp's samples lie at every height, on
        // multiples of any rise at all.
        let treads: Vec<f32> = levels
            .iter()
            .zip(&heights)
            .map(|(l, &h)| {
                if l.iter().all(|r| r.level_surface) {
                    h
                } else {
                    f32::NAN
                }
            })
            .collect();
        let flights = stairs(&treads, tol);
        out.steps.extend(flights.rise);
        out.flight_treads = out.flight_treads.max(flights.in_a_row);
        // The floors measure by area: the samples one a surface only find stairs.
        let by_area = |l: &[&Run]| {
            l.iter()
                .filter(|r| r.by_area)
                .map(|r| **r)
                .collect::<Vec<Run>>()
        };
        for (k, (level, &above)) in levels.iter().zip(&heights).enumerate() {
            if Some(k) == main_at {
                let floors = by_area(level);
                out.storeys.extend(floors.iter().filter_map(|r| r.height));
                out.main_floors.extend(floors);
            } else if above > tol && !flights.treads[k] {
                out.things
                    .extend(level.iter().filter(|r| r.by_area).map(|_| above));
            }
        }
    }
    out
}

/// The share of `world`'s surface area aligned with `up` (see [`ALIGNED_COS`]).
fn aligned(world: &CollisionWorld, up: Vec3) -> f32 {
    let (mut along, mut total) = (0.0f64, 0.0f64);
    for t in world.triangles() {
        let area = f64::from(t.e1().cross(t.e2()).length());
        total += area;
        let c = t.plane.normal.dot(up).abs();
        if !(ALIGNED_COS..=1.0 - ALIGNED_COS).contains(&c) {
            along += area;
        }
    }
    if total > 0.0 {
        (along / total) as f32
    } else {
        0.0
    }
}

/// The share of `floors` (under a ceiling, levels along `up`) over whose ceiling a ray
/// going on up meets something more; `None` with too few floors.
fn stacked(world: &CollisionWorld, floors: &[Run], up: Vec3) -> Option<f32> {
    if floors.len() < MIN_READINGS {
        return None;
    }
    let samples::RayMargins { hair, reach } = samples::RayMargins::of(world);
    let over = floors
        .iter()
        .filter(|r| {
            r.height.is_some_and(|h| {
                world
                    .ray_cast(r.point + up * (h + hair), up, reach)
                    .is_some()
            })
        })
        .count();
    Some(over as f32 / floors.len() as f32)
}

/// `items` in groups of one value (by `value`) within `tol`: sorted by it, a new group
/// starts where the gap to the last item passes `tol`. (A fixed grid of bins would split a
/// level that straddles a bin's edge.)
fn clusters(mut items: Vec<&Run>, tol: f32, value: impl Fn(&Run) -> f32) -> Vec<Vec<&Run>> {
    items.sort_by(|a, b| value(a).total_cmp(&value(b)));
    let mut out: Vec<Vec<&Run>> = Vec::new();
    for r in items {
        match out.last_mut() {
            Some(g) if value(r) - value(g[g.len() - 1]) <= tol => g.push(r),
            _ => out.push(vec![r]),
        }
    }
    out
}

/// The map's extent across the up axis `up` (a unit axis) and along it.
pub fn extents(size: Vec3, up: Vec3) -> (f32, f32) {
    let along = size.dot(up.abs());
    let across = (size - up.abs() * along).length();
    (across, along)
}
