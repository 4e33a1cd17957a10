//! Placing a body: where it fits, on the same side of every surface as a point known to
//! be free.
//!
//! A placement (a spawn, a switch from flying to walking, a crouch, a reload in place, a
//! saved view) puts a new body around the eye. Pushing it out of whatever it overlaps is
//! not enough: a walker grown from the flying eye just under a ceiling reaches through it,
//! and one grown just over a floor has its feet below it; pushed out along their nearest
//! normals, either can end on the far side (on the roof, or under the map, falling for
//! ever). The rule kept here: **the body never crosses a triangle to get to its spot**. A
//! spot is taken only when
//!
//! 1. the body there overlaps no triangle ([`push_out`] frees it, or it rests within its
//!    contact gap), and
//! 2. a thin probe swept from the anchor (a point known to be free: the eye) to the body's
//!    centre meets no triangle.
//!
//! Together they put the whole body in the anchor's region of free space: the body is
//! convex and touches nothing, and the probe's path joins it to the anchor without
//! crossing anything. Candidate spots are the body where it was asked for, lowered from
//! the ceiling over the anchor, and raised from the floor under it (each then pushed out
//! of what it still overlaps); the valid one nearest the asked-for spot wins.

use glam::Vec3;

use super::{Body, Collider, Probe, SKIN, push_out};
use crate::tolerance::CONTACT_GAP;

/// Radius of the probe that joins a candidate spot to its anchor. Half the skin: a flying
/// eye, which rests a skin away from every triangle, is never inside it, and a thinner
/// probe would pass through gaps no body could.
pub const ANCHOR_PROBE_RADIUS: f32 = SKIN * 0.5;

/// How far above and below the anchor a ceiling and a floor are looked for, in heights of
/// the body placed: a spot farther away is not "here" any more.
pub const SEARCH_HEIGHTS: f32 = 2.0;

/// A placement that moves the body no farther than this (world units) only settles it into
/// its contact gap (an eye put exactly at eye height over a floor): it is not a push, and
/// does not count as a collision.
pub const SETTLE_DISTANCE: f32 = 2.0 * CONTACT_GAP;

/// Where a placed body goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The body's centre.
    pub centre: Vec3,
    /// True when it had to move from the spot asked for by more than settling does
    /// ([`SETTLE_DISTANCE`]).
    pub pushed: bool,
}

/// Place `probe`'s body as near as it fits to the centre `wanted`, never on the far side of
/// a triangle from `anchor` (see the module's notes). `None` when no candidate spot is
/// free and reachable: the body does not fit here.
pub fn place<C: Collider + ?Sized>(
    world: &C,
    probe: &Probe,
    anchor: Vec3,
    wanted: Vec3,
) -> Option<Placement> {
    let body = probe.body;
    if !(anchor.is_finite() && wanted.is_finite() && body.is_valid()) {
        return None;
    }
    let thin = probe.with_body(Body::sphere(ANCHOR_PROBE_RADIUS));
    // An anchor closer to a triangle than the probe (an eye given on the command line
    // inside a wall's skin) is moved off it first: a point is on one side of every plane,
    // and the probe pushed along its nearest normal stays on that side.
    let anchor = match world.nearest_overlap(&thin.body, anchor) {
        None => anchor,
        Some(_) => push_out(world, &thin.body, anchor).centre,
    };
    let reach = SEARCH_HEIGHTS * 2.0 * body.radii.y;
    let vertical = |dir: Vec3| {
        world
            .sweep(&thin, anchor, dir * reach)
            .map(|c| c.point.y - dir.y * body.rest_distance(Vec3::Y))
    };
    let candidates = [
        Some(wanted),
        vertical(Vec3::NEG_Y).map(|y| Vec3::new(wanted.x, y, wanted.z)),
        vertical(Vec3::Y).map(|y| Vec3::new(wanted.x, y, wanted.z)),
    ];
    candidates
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let out = push_out(world, &body, c);
            let reachable = world.sweep(&thin, anchor, out.centre - anchor).is_none();
            (out.free && reachable).then_some(out.centre)
        })
        .min_by(|a, b| a.distance(wanted).total_cmp(&b.distance(wanted)))
        .map(|centre| Placement {
            centre,
            pushed: centre.distance(wanted) > SETTLE_DISTANCE,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::CollisionWorld;
    use crate::geometry::InsideMethod;

    /// A closed box room from `min` to `max` (12 triangles).
    fn room(min: Vec3, max: Vec3) -> CollisionWorld {
        let c = |i: usize| {
            Vec3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            )
        };
        let quads = [
            [0, 1, 3, 2],
            [4, 6, 7, 5],
            [0, 4, 5, 1],
            [2, 3, 7, 6],
            [0, 2, 6, 4],
            [1, 5, 7, 3],
        ];
        CollisionWorld::new(
            quads
                .iter()
                .flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]]),
        )
    }

    fn walker() -> Probe {
        Probe::new(Body::WALKER, InsideMethod::Barycentric)
    }

    #[test]
    fn a_walker_grown_under_the_ceiling_is_lowered_into_the_room() {
        let w = room(Vec3::splat(-10.0), Vec3::new(10.0, 6.0, 10.0));
        let eye = Vec3::new(0.0, 6.0 - SKIN - CONTACT_GAP, 0.0);
        let p = place(&w, &walker(), eye, Body::WALKER.centre_of(eye)).expect("fits");
        let top = p.centre.y + Body::WALKER.radii.y;
        assert!(top < 6.0 && top > 6.0 - 0.01, "top of the head at {top}");
        assert!(p.pushed);
    }

    #[test]
    fn a_walker_grown_over_the_floor_is_raised_onto_it() {
        let w = room(Vec3::new(-10.0, 0.0, -10.0), Vec3::splat(10.0));
        let eye = Vec3::new(1.0, SKIN + CONTACT_GAP, 2.0);
        let p = place(&w, &walker(), eye, Body::WALKER.centre_of(eye)).expect("fits");
        let feet = Body::WALKER.feet_of(p.centre);
        assert!(feet.y > 0.0 && feet.y < 0.01, "feet at {feet}");
        assert_eq!((p.centre.x, p.centre.z), (1.0, 2.0));
    }

    #[test]
    fn a_walker_placed_exactly_on_the_floor_settles_without_a_push() {
        let w = room(Vec3::new(-10.0, 0.0, -10.0), Vec3::splat(10.0));
        let eye = Vec3::new(0.0, 1.6, 0.0);
        let p = place(&w, &walker(), eye, Body::WALKER.centre_of(eye)).expect("fits");
        assert!(!p.pushed, "{p:?}");
        assert!(p.centre.y >= 0.9 && p.centre.y <= 0.9 + SETTLE_DISTANCE);
    }

    #[test]
    fn a_gap_lower_than_the_walker_has_no_spot() {
        let w = room(Vec3::new(-10.0, 0.0, -10.0), Vec3::new(10.0, 1.5, 10.0));
        let eye = Vec3::new(0.0, 0.75, 0.0);
        assert_eq!(place(&w, &walker(), eye, Body::WALKER.centre_of(eye)), None);
    }

    #[test]
    fn a_free_body_stays_where_it_is() {
        let w = room(Vec3::new(-10.0, 0.0, -10.0), Vec3::splat(10.0));
        let eye = Vec3::new(0.5, 3.0, -0.5);
        let want = Body::WALKER.centre_of(eye);
        let p = place(&w, &walker(), eye, want).expect("fits");
        assert_eq!(
            p,
            Placement {
                centre: want,
                pushed: false
            }
        );
    }
}
