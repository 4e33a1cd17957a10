//! Property tests: random closed rooms with random inner walls, random moves at any speed
//! and step, both responses, every method. The oracles are independent of the code under
//! test: parry3d's `TriMesh` ray cast and a brute-force segment test written here.

mod common;

use common::{cube, segment_touches};
use glam::Vec3;
use parry3d::query::{Ray, RayCast};
use parry3d::shape::TriMesh;
use proptest::prelude::*;
use walkthrough::collision::{Collider, CollisionWorld, Response};
use walkthrough::geometry::InsideMethod;
use walkthrough::tolerance::SKIN;

/// Slack for rounding in the distance checks (world units).
const TOL: f32 = 1e-4;

#[derive(Clone, Debug)]
struct Room {
    half: Vec3,
    walls: Vec<(f32, f32, f32, f32)>,
    start: Vec3,
}

fn room() -> impl Strategy<Value = Room> {
    (2.0f32..15.0, 2.0f32..6.0, 2.0f32..15.0)
        .prop_flat_map(|(x, y, z)| {
            let wall = (-x..x, -z..z, -x..x, -z..z);
            let start = (
                -(x - 0.5)..(x - 0.5),
                -(y - 0.5)..(y - 0.5),
                -(z - 0.5)..(z - 0.5),
            );
            (
                Just(Vec3::new(x, y, z)),
                prop::collection::vec(wall, 0..6),
                start,
            )
        })
        .prop_map(|(half, walls, (sx, sy, sz))| Room {
            half,
            walls,
            start: Vec3::new(sx, sy, sz),
        })
}

/// A move: direction, speed (up to 100 units/s), step (up to 0.1 s), how many steps.
fn moves() -> impl Strategy<Value = Vec<(Vec3, f32, f32, usize)>> {
    let dir = (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    prop::collection::vec((dir, 0.0f32..100.0, 0.001f32..0.1, 1usize..30), 1..15)
}

fn triangles(r: &Room) -> Vec<[Vec3; 3]> {
    let mut tris = cube(-r.half, r.half);
    for &(x0, z0, x1, z1) in &r.walls {
        if (x1 - x0).abs() + (z1 - z0).abs() > 0.1 {
            tris.extend(common::wall(x0, z0, x1, z1, r.half.y));
        }
    }
    tris
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn the_point_never_leaves_the_room_nor_crosses_a_triangle(
        r in room(),
        script in moves(),
        stop in any::<bool>(),
        method in 0usize..3,
    ) {
        let tris = triangles(&r);
        let world = CollisionWorld::new(tris.iter().copied());
        let verts: Vec<parry3d::math::Vector> =
            tris.iter().flatten().map(|v| parry3d::math::Vector::new(v.x, v.y, v.z)).collect();
        let idx: Vec<[u32; 3]> = (0..tris.len() as u32).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
        let parry = TriMesh::new(verts, idx).expect("valid mesh");
        let response = if stop { Response::Stop } else { Response::Slide };
        let method = InsideMethod::ALL[method];

        let mut p = r.start;
        for (dir, speed, dt, n) in script {
            let d = dir * speed * dt;
            for _ in 0..n {
                let o = world.resolve_move(p, d, response, method);
                prop_assert!(o.end.is_finite());
                // Inside the room, at least the skin away from its walls (the start is
                // at least 0.5 away).
                let inner = r.half - Vec3::splat(SKIN - TOL);
                prop_assert!(o.end.abs().cmple(inner).all(), "left the room: {} (half {})", o.end, r.half);
                for (a, b) in o.legs() {
                    // Oracle 1: parry3d.
                    let ray = Ray::new(
                        parry3d::math::Vector::new(a.x, a.y, a.z),
                        parry3d::math::Vector::new(b.x - a.x, b.y - a.y, b.z - a.z),
                    );
                    if (b - a).length() > 1e-6 {
                        let toi = parry.cast_local_ray(&ray, 1.0, false);
                        prop_assert!(toi.is_none(), "parry: leg {a} -> {b} meets a triangle at {toi:?}");
                    }
                    // Oracle 2: brute force over every triangle, same-side edge tests.
                    for t in &tris {
                        prop_assert!(!segment_touches(t, a, b), "leg {a} -> {b} crosses {t:?}");
                    }
                }
                // Every wall hit: the eye stops at least the skin away (or where it was, if
                // it already was closer).
                for &c in o.contacts() {
                    let plane = world.triangles()[c as usize].plane;
                    let before = plane.signed_distance(p).abs();
                    let after = plane.signed_distance(o.end).abs();
                    prop_assert!(after >= before.min(SKIN) - TOL, "hit {c}: {before} -> {after}");
                }
                p = o.end;
            }
        }
    }
}
