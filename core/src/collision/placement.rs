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
//!
//! The anchor itself may lie on a surface: an eye given exactly on a wall's plane (`--spawn
//! 10,1.6,7` in a room whose wall is at x = 10, or a script's `start` line) is on both sides
//! of it at once, and pushing it off along the triangle's own normal put it outside
//! whenever the wall faced out (the walker then fell for ever). Such an anchor goes to the
//! side of the surface from which the eye's probe, swept along the six axes, meets the map
//! in the most directions: the inside of a room, which holds it in every direction, over the
//! outside, from which the map is met only back across the wall. Every placement (a
//! spawn, a `start` line, a saved view, a switch of mode) comes through [`place`]; a
//! position too far out for the map's numbers is refused first, with [`out_of_range`].

use glam::Vec3;

use super::{Body, Collider, Contact, Probe, SKIN, push_out};
use crate::tolerance::CONTACT_GAP;
use crate::tolerance::MAX_WORLD_EXTENT;

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

/// The directions the probe is swept along from each side of a surface an anchor lies on,
/// to tell the inside from the outside (see the module's notes).
const ENCLOSURE_DIRECTIONS: [Vec3; 6] = [
    Vec3::X,
    Vec3::NEG_X,
    Vec3::Y,
    Vec3::NEG_Y,
    Vec3::Z,
    Vec3::NEG_Z,
];

/// How far those sweeps look, world units: across any map a placement may be in (twice
/// [`MAX_WORLD_EXTENT`]).
const ENCLOSURE_REACH: f32 = 2.0 * MAX_WORLD_EXTENT;

/// Why `eye` cannot be placed: a coordinate that is not finite or farther from the origin
/// than any map may reach ([`MAX_WORLD_EXTENT`]: `f32` positions there are too coarse to
/// walk; a walker placed at 1e30 never moved again). `None` when it can.
pub fn out_of_range(eye: Vec3) -> Option<String> {
    let far = eye.abs().max_element();
    (!(eye.is_finite() && far <= MAX_WORLD_EXTENT)).then(|| {
        format!(
            "{:?},{:?},{:?} is {far:e} m from the origin, beyond the {MAX_WORLD_EXTENT:e} m any map may reach",
            eye.x, eye.y, eye.z
        )
    })
}

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
    if !(anchor.is_finite() && wanted.is_finite() && body.is_valid())
        || out_of_range(anchor).is_some()
    {
        return None;
    }
    let thin = probe.with_body(Body::sphere(ANCHOR_PROBE_RADIUS));
    // The body asked for moves with its anchor, off any surface the anchor is on.
    let moved = free_anchor(world, probe, anchor);
    let (anchor, asked) = (moved, wanted + (moved - anchor));
    let reach = SEARCH_HEIGHTS * 2.0 * body.radii.y;
    let vertical = |dir: Vec3| {
        world
            .sweep(&thin, anchor, dir * reach)
            .map(|c| c.point.y - dir.y * body.rest_distance(Vec3::Y))
    };
    let candidates = [
        Some(asked),
        vertical(Vec3::NEG_Y).map(|y| Vec3::new(asked.x, y, asked.z)),
        vertical(Vec3::Y).map(|y| Vec3::new(asked.x, y, asked.z)),
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

/// The anchor `eye` as placements use it: moved off the surface it lies on, if it is
/// closer to a triangle than the anchor's probe (an eye given on the command line inside a
/// wall's skin, or exactly on its plane), to the inside (see the module's notes); else
/// as it is. `probe` gives the point-in-triangle method.
pub fn free_anchor<C: Collider + ?Sized>(world: &C, probe: &Probe, eye: Vec3) -> Vec3 {
    let thin = probe.with_body(Body::sphere(ANCHOR_PROBE_RADIUS));
    match world.nearest_overlap(&thin.body, eye) {
        None => eye,
        Some(c) => off_surface(world, &thin, eye, &c),
    }
}

/// How far from an anchor on a surface the points around it are looked at, along each
/// axis, in radii of the anchor's probe: three rings of the 26 neighbours of a cube. The
/// nearest (1.5: clear of an axis-aligned plane through the anchor by more than a radius
/// and the contact gap) finds a free point in a gap a few centimetres wide (a corner
/// between two walls and a box beside them); the farther ones, where the surface is
/// slanted or the anchor just off it.
const AROUND_STEPS: [f32; 3] = [1.5, 3.0, 5.0];

/// The anchor `at`, which the thin probe `thin` overlaps (`contact`: its nearest touch),
/// moved off the surface to the inside. The points looked at: where the probe pushed out
/// of it lands, the same across the nearest surface (pushed out too: in a gap a few
/// centimetres high it may be the only free point on that side), and the 26 points
/// around it at each of [`AROUND_STEPS`] (along each axis and diagonal: at a corner, the
/// point inside all three planes is among them, where pushing off one plane at a time
/// went out through the next). Of those the probe fits at, the one from which
/// it meets the map in the most of [`ENCLOSURE_DIRECTIONS`] wins; on a tie (a wall inside
/// a room, both of whose sides are enclosed) the pushed-out point, then the nearest.
fn off_surface<C: Collider + ?Sized>(world: &C, thin: &Probe, at: Vec3, contact: &Contact) -> Vec3 {
    let pushed = push_out(world, &thin.body, at);
    let across = push_out(
        world,
        &thin.body,
        contact.point - contact.normal * thin.body.rest_distance(contact.normal),
    );
    let around = AROUND_STEPS.iter().flat_map(|&step| {
        (0..27).filter(|&k| k != 13).map(move |k| {
            at + Vec3::new(
                (k % 3) as f32 - 1.0,
                (k / 3 % 3) as f32 - 1.0,
                (k / 9) as f32 - 1.0,
            ) * (step * ANCHOR_PROBE_RADIUS)
        })
    });
    let enclosure = |p: Vec3| {
        ENCLOSURE_DIRECTIONS
            .iter()
            .filter(|&&d| world.sweep(thin, p, d * ENCLOSURE_REACH).is_some())
            .count()
    };
    let candidates = [pushed, across]
        .into_iter()
        .filter_map(|o| o.free.then_some(o.centre))
        .chain(around.filter(|&p| world.nearest_overlap(&thin.body, p).is_none()));
    let mut best: Option<(Vec3, usize)> = None;
    for p in candidates {
        let e = enclosure(p);
        let better = best.is_none_or(|(b, be)| {
            e > be || (e == be && b != pushed.centre && p.distance(at) < b.distance(at))
        });
        if better {
            best = Some((p, e));
        }
    }
    best.map_or(pushed.centre, |(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::CollisionWorld;
    use crate::geometry::InsideMethod;
    use crate::test_kit::boxes::cube;

    /// A closed box room from `min` to `max` (12 triangles).
    fn room(min: Vec3, max: Vec3) -> CollisionWorld {
        CollisionWorld::new(cube(min, max))
    }

    /// The same room with every triangle wound the other way (its walls face out).
    fn turned_out(w: &CollisionWorld) -> CollisionWorld {
        CollisionWorld::new(w.triangles().iter().map(|t| {
            let [a, b, c] = t.vertices();
            [a, c, b]
        }))
    }

    /// In a closed 10 x 4 x 10 m box, `--spawn 10,1.601,7.11` (the
    /// eye on a wall's plane) placed the body at x = 10.30, outside, falling for ever
    /// (x = 9.9999 was fine). On the plane, or within the probe of it on either side, the
    /// eye goes inside, whichever way the wall's triangles face.
    #[test]
    fn an_eye_on_a_wall_plane_is_placed_inside_whichever_way_the_wall_faces() {
        let inward = room(Vec3::ZERO, Vec3::new(10.0, 4.0, 10.0));
        for w in [turned_out(&inward), inward] {
            for x in [
                10.0,
                9.9999,
                10.0001,
                10.0 + ANCHOR_PROBE_RADIUS * 0.9,
                0.0,
                -0.005,
            ] {
                let eye = Vec3::new(x, 1.601, 7.11);
                let p = place(&w, &walker(), eye, Body::WALKER.centre_of(eye)).expect("fits");
                let r = Body::WALKER.radii.x;
                assert!(
                    p.centre.x >= r && p.centre.x <= 10.0 - r,
                    "eye at x = {x}: body at {}",
                    p.centre
                );
            }
            // On the floor's plane and the ceiling's, the eye goes up and down into the room.
            for y in [0.0, 4.0] {
                let eye = Vec3::new(5.0, y, 5.0);
                let p = place(&w, &walker(), eye, Body::WALKER.centre_of(eye));
                let p = p.or_else(|| {
                    let crouched = Probe::new(Body::sphere(SKIN), InsideMethod::Barycentric);
                    place(&w, &crouched, eye, eye)
                });
                let c = p.expect("fits").centre;
                assert!(c.y > 0.0 && c.y < 4.0, "eye at y = {y}: body at {c}");
            }
        }
    }

    #[test]
    fn an_eye_too_far_out_is_out_of_range_and_not_placed() {
        let w = room(Vec3::ZERO, Vec3::splat(10.0));
        let far = Vec3::splat(1e30);
        assert_eq!(
            out_of_range(far).as_deref(),
            Some("1e30,1e30,1e30 is 1e30 m from the origin, beyond the 1e6 m any map may reach")
        );
        assert!(out_of_range(Vec3::new(f32::NAN, 0.0, 0.0)).is_some());
        assert_eq!(out_of_range(Vec3::splat(-MAX_WORLD_EXTENT)), None);
        assert_eq!(place(&w, &walker(), far, far), None);
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
