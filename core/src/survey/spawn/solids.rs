//! Is an eye inside a closed solid (a block's hollow, seen by the rays from it meeting
//! faces from behind), and where is the nearest spot outside it. A map's faces point out
//! of its solids, so the side a ray meets a face from tells in from out; these answers are
//! asked of every start, and of the survey's spawn spots, so they are one job apart from
//! choosing where to stand.

use glam::Vec3;

use super::{OPEN_CHECK_HEADINGS, headings};
use crate::collision::body::EYE_HEIGHT;
use crate::collision::{Body, Collider, CollisionWorld};
use crate::geometry::{Aabb, InsideMethod};

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

/// Is the eye at `eye` inside a closed solid: does every ray from it (the
/// [`OPEN_CHECK_HEADINGS`] round, up and down) meet a triangle, all but
/// [`SOLID_FRONTS`] of them from behind? A map's faces point out of its solids (OBJ winds
/// them counter-clockwise seen from outside), so from a block's hollow backs are seen;
/// from a room, its walls' fronts; unless the map is wound the other way round, which
/// [`wound_outward`] asks. (Unasked, a `--spawn` inside the built-in map's gallery block
/// shows only its inside, unwarned.) A point outside the map's box is not asked: it is
/// outside the map.
pub(super) fn inside_a_solid(world: &CollisionWorld, eye: Vec3) -> bool {
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
pub(super) fn inside_overlapping_solids(world: &CollisionWorld, eye: Vec3) -> bool {
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
