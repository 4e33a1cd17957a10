//! Soak: a million random moves through the library, on generated closed rooms with inner
//! walls and boxes, both bodies, both responses, every method. After every move the body
//! keeps its skin off every triangle (distance checked by hand in ellipsoid space), stays
//! in the room, and its centre's path crosses no triangle. Deterministic (a fixed seed), so
//! a failure names the room and the step to replay.

mod common;

use common::{Rng, cube, nearest_ellipsoid_distance, rules, segment_touches, wall};
use glam::Vec3;
use walkthrough_core::collision::{Body, CollisionWorld, Response, push_out, resolve_move};
use walkthrough_core::geometry::InsideMethod;
use walkthrough_core::text::names::Named;

/// Rooms generated.
const ROOMS: usize = 100;
/// Moves in each room: a million in all.
const MOVES_PER_ROOM: usize = 10_000;
/// Slack for f32 positions, in ellipsoid-space units (as the property tests).
const TOL_E: f64 = 1e-4;

/// A closed room of half size `half` with a few inner walls and boxes on its floor.
fn room(rng: &mut Rng, half: Vec3) -> Vec<[Vec3; 3]> {
    let mut tris = cube(-half, half);
    for _ in 0..rng.next_u64() % 5 {
        let (x0, z0) = (rng.range(-half.x, half.x), rng.range(-half.z, half.z));
        let (x1, z1) = (rng.range(-half.x, half.x), rng.range(-half.z, half.z));
        if (x1 - x0).abs() + (z1 - z0).abs() > 0.1 {
            tris.extend(wall(x0, z0, x1, z1, half.y));
        }
    }
    for _ in 0..rng.next_u64() % 6 {
        let lo = Vec3::new(
            rng.range(-half.x, half.x),
            -half.y,
            rng.range(-half.z, half.z),
        );
        let size = Vec3::new(
            rng.range(0.2, 3.0),
            rng.range(0.02, 1.5),
            rng.range(0.2, 3.0),
        );
        tris.extend(cube(lo, (lo + size).min(half)));
    }
    tris
}

#[test]
fn a_million_random_moves_keep_the_body_off_every_triangle_and_in_its_room() {
    let mut rng = Rng(0x5EED_2026_1123);
    let mut moves = 0usize;
    let mut hits = 0usize;
    for room_no in 0..ROOMS {
        let half = Vec3::new(
            rng.range(2.0, 12.0),
            rng.range(2.0, 5.0),
            rng.range(2.0, 12.0),
        );
        let tris = room(&mut rng, half);
        let world = CollisionWorld::new(tris.iter().copied());
        let body = if room_no % 2 == 0 {
            Body::WALKER
        } else {
            Body::FLYER
        };
        let response = if room_no % 4 < 2 {
            Response::Stop
        } else {
            Response::Slide
        };
        let method = InsideMethod::ALL[room_no % 3];
        let rules = rules(body, response, method);
        let start = Vec3::new(
            rng.range(-half.x + 0.5, half.x - 0.5),
            rng.range(-half.y + 0.5, half.y - 0.5),
            rng.range(-half.z + 0.5, half.z - 0.5),
        );
        let mut p = push_out(&world, &body, start).centre;
        if nearest_ellipsoid_distance(&body, p, &tris) < 1.0 - TOL_E {
            // Jammed between walls closer than the body is wide: nothing to test here.
            continue;
        }
        let inner = half - body.radii;
        for step in 0..MOVES_PER_ROOM {
            let dir = Vec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            // Mostly walking pace, sometimes a shot across the room in one step.
            let speed = if rng.next_u64().is_multiple_of(8) {
                rng.range(0.0, 500.0)
            } else {
                rng.range(0.0, 8.0)
            };
            let dt = rng.range(1.0 / 240.0, 1.0 / 20.0);
            let o = resolve_move(&world, &rules, p, dir * speed * dt);
            let at = format!(
                "room {room_no} ({body:?}, {response}, {method}) step {step}: {p} by {}",
                dir * speed * dt
            );
            assert!(o.end.is_finite(), "{at}: not finite");
            assert!(
                o.end.abs().cmple(inner).all(),
                "{at}: left the room at {}",
                o.end
            );
            let gap = nearest_ellipsoid_distance(&body, o.end, &tris);
            assert!(
                gap >= 1.0 - TOL_E,
                "{at}: overlaps a triangle at {} (gap {gap})",
                o.end
            );
            for (a, b) in o.legs() {
                for t in &tris {
                    assert!(
                        !segment_touches(t, a, b),
                        "{at}: leg {a} -> {b} crosses {t:?}"
                    );
                }
            }
            hits += o.hit as usize;
            moves += 1;
            p = o.end;
        }
    }
    // Most rooms are free to walk in, and walls are met often: the soak tests something.
    assert!(
        moves >= ROOMS * MOVES_PER_ROOM * 9 / 10,
        "only {moves} moves"
    );
    assert!(hits >= moves / 20, "only {hits} hits in {moves} moves");
}
