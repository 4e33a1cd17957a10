//! A start checked before the walker is put there (`--spawn`, a script's `start`, a
//! marked spawn, a saved view): outside the map's bounds there is nothing to stand on;
//! inside a closed solid it is moved out to the nearest spot outside; on an open map, a
//! way out along which a walk falls off is said. Kept apart from the survey's choice of a
//! spawn, which never stands where these warnings would be due.

use glam::Vec3;

use super::solids::{inside_a_solid, inside_overlapping_solids};
use super::{OPEN_CHECK_HEADINGS, headings, out_of_solid, yaw_of};
use crate::collision::body::EYE_HEIGHT;
use crate::collision::placement::free_anchor;
use crate::collision::{Body, CollisionWorld, Probe};
use crate::map::MapFrame;

/// How far outside the map's bounds a given spawn may be before a warning, metres.
const SPAWN_OUTSIDE_MARGIN: f32 = 2.0;

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

/// [`start_warning`] but for the solid: outside the map, or on an open map's way out.
pub(super) fn outside_or_open(
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
