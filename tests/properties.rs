//! Property tests: random closed rooms with random inner walls, random moves up to
//! 1000 m/s at any step, both responses, every method, both bodies. The oracles are
//! independent of the code under test: parry3d (its `TriMesh` ray cast for the eye's path,
//! its ball-to-mesh distance in ellipsoid space for the body) and brute-force checks
//! written here (segment crossing, point-triangle distance by edge projections).

mod common;

use common::{cube, nearest_ellipsoid_distance, rules, segment_touches};
use glam::Vec3;
use parry3d::math::{Pose, Vector};
use parry3d::query::{Ray, RayCast};
use parry3d::shape::{Ball, TriMesh};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use walkthrough_core::collision::{Body, CollisionWorld, Response, push_out, resolve_move};
use walkthrough_core::geometry::InsideMethod;
use walkthrough_core::player::{Controller, ControllerSettings, MoveIntent, Pose as EyePose};
use walkthrough_core::test_kit::obj::obj_text;
use walkthrough_core::text::names::Named;

/// Slack for `f32` positions, in ellipsoid-space units.
const TOL_E: f64 = 1e-4;

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

/// A move: direction, speed (up to 1000 m/s), step (up to 0.1 s), how many steps.
fn moves() -> impl Strategy<Value = Vec<(Vec3, f32, f32, usize)>> {
    let dir = (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    let speed = prop_oneof![0.0f32..10.0, 0.0f32..1000.0];
    prop::collection::vec((dir, speed, 0.001f32..0.1, 1usize..30), 1..15)
}

fn mesh(tris: &[[Vec3; 3]], scale: Vec3) -> TriMesh {
    let verts: Vec<Vector> = tris
        .iter()
        .flatten()
        .map(|v| {
            let v = *v / scale;
            Vector::new(v.x, v.y, v.z)
        })
        .collect();
    let idx: Vec<[u32; 3]> = (0..tris.len() as u32)
        .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
        .collect();
    TriMesh::new(verts, idx).expect("valid mesh")
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

/// The seed of the property tests when `PROPTEST_RNG_SEED` is not set: every run (CI
/// included) checks the same cases, so a failure is reproducible from the log. Set
/// `PROPTEST_RNG_SEED` to any other number to explore new cases.
const SEED: u64 = 20_261_123;

fn config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig {
        cases,
        ..ProptestConfig::default()
    };
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(SEED);
    }
    config
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn the_body_never_overlaps_a_triangle_nor_leaves_the_room(
        r in room(),
        script in moves(),
        stop in any::<bool>(),
        method in 0usize..3,
        walker in any::<bool>(),
    ) {
        let body = if walker { Body::WALKER } else { Body::FLYER };
        let tris = triangles(&r);
        let world = CollisionWorld::new(tris.iter().copied());
        let eye_mesh = mesh(&tris, Vec3::ONE);
        let ellipsoid_mesh = mesh(&tris, body.radii);
        let unit_ball = Ball::new(1.0);
        let response = if stop { Response::Stop } else { Response::Slide };
        let rules = rules(body, response, InsideMethod::ALL[method]);
        // The start is at least 0.5 m from the room's walls, maybe not from inner walls:
        // pushed out first, as the controller does with a spawn. (A start jammed between
        // walls closer than the body's width cannot be freed; such rooms test nothing.)
        let mut p = push_out(&world, &body, r.start).centre;
        prop_assume!(nearest_ellipsoid_distance(&body, p, &tris) >= 1.0 - TOL_E);
        let lift = body.eye_of(Vec3::ZERO);
        for (dir, speed, dt, n) in script {
            let d = dir * speed * dt;
            for _ in 0..n {
                let o = resolve_move(&world, &rules, p, d);
                prop_assert!(o.end.is_finite());
                // Inside the room, off its walls.
                let inner = r.half - body.radii;
                prop_assert!(o.end.abs().cmple(inner).all(), "left the room: {} (half {})", o.end, r.half);
                // Oracle 1: the distance to every triangle, by hand, in ellipsoid space.
                let gap = nearest_ellipsoid_distance(&body, o.end, &tris);
                prop_assert!(gap >= 1.0 - TOL_E, "{} overlaps: {gap}", o.end);
                // Oracle 2: parry3d's ball-to-mesh distance in ellipsoid space.
                let c = o.end / body.radii;
                let at = Pose::from_translation(Vector::new(c.x, c.y, c.z));
                let parry_gap = parry3d::query::distance(&at, &unit_ball, &Pose::IDENTITY, &ellipsoid_mesh)
                    .expect("ball and mesh");
                prop_assert!(parry_gap.distance >= -1e-4, "parry: {} overlaps by {}", o.end, -parry_gap.distance);
                for (a, b) in o.legs() {
                    for (a, b) in [(a, b), (a + lift, b + lift)] {
                        // Oracle 3: parry3d's ray cast along the eye's (and centre's) path.
                        if (b - a).length() > 1e-6 {
                            let ray = Ray::new(Vector::new(a.x, a.y, a.z), Vector::new(b.x - a.x, b.y - a.y, b.z - a.z));
                            let toi = eye_mesh.cast_local_ray(&ray, 1.0, false);
                            prop_assert!(toi.is_none(), "parry: leg {a} -> {b} meets a triangle at {toi:?}");
                        }
                        // Oracle 4: every triangle, same-side edge tests.
                        for t in &tris {
                            prop_assert!(!segment_touches(t, a, b), "leg {a} -> {b} crosses {t:?}");
                        }
                    }
                }
                p = o.end;
            }
        }
    }
}

/// A walled room whose floor carries random boxes: steps from 2 cm to 1 m high (stairs,
/// kerbs, tables, walls), some overlapping into stair runs.
#[derive(Clone, Debug)]
struct StairRoom {
    half: Vec3,
    /// `(x, z, width, depth, height)` of each box, standing on the floor.
    boxes: Vec<(f32, f32, f32, f32, f32)>,
    start: (f32, f32),
}

fn stair_room() -> impl Strategy<Value = StairRoom> {
    (3.0f32..10.0, 2.5f32..4.0, 3.0f32..10.0)
        .prop_flat_map(|(x, y, z)| {
            let step = (
                -x..x,
                -z..z,
                0.2f32..3.0,
                0.2f32..3.0,
                prop_oneof![0.02f32..0.5, 0.02f32..1.0],
            );
            let start = (-(x - 0.5)..(x - 0.5), -(z - 0.5)..(z - 0.5));
            (
                Just(Vec3::new(x, y, z)),
                prop::collection::vec(step, 0..12),
                start,
            )
        })
        .prop_map(|(half, boxes, start)| StairRoom { half, boxes, start })
}

fn stair_triangles(r: &StairRoom) -> Vec<[Vec3; 3]> {
    let mut tris = cube(-r.half, r.half);
    for &(x, z, w, d, h) in &r.boxes {
        let lo = Vec3::new(x, -r.half.y, z);
        let hi = Vec3::new((x + w).min(r.half.x), -r.half.y + h, (z + d).min(r.half.z));
        tris.extend(cube(lo, hi));
    }
    tris
}

/// What the player does for a while: keys held for `steps` steps after turning `turn`
/// degrees.
#[derive(Clone, Copy, Debug)]
struct Held {
    forward: f32,
    strafe: f32,
    turn: f32,
    run: bool,
    jump: bool,
    crouch: bool,
    steps: usize,
}

fn play() -> impl Strategy<Value = Vec<Held>> {
    let keys = -1i8..=1;
    let held = (
        keys.clone(),
        keys,
        -180.0f32..180.0,
        any::<bool>(),
        prop::bool::weighted(0.3),
        prop::bool::weighted(0.2),
        1usize..90,
    )
        .prop_map(|(f, s, turn, run, jump, crouch, steps)| Held {
            forward: f32::from(f),
            strafe: f32::from(s),
            turn,
            run,
            jump,
            crouch,
            steps,
        });
    prop::collection::vec(held, 1..12)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn the_walker_never_overlaps_a_triangle_nor_leaves_the_room_on_random_stairs(
        r in stair_room(),
        keys in play(),
        dt in prop::sample::select(vec![1.0f32 / 60.0, 1.0 / 120.0, 1.0 / 240.0]),
        speed in prop_oneof![1.0f32..6.0, 6.0f32..40.0],
        stop in any::<bool>(),
        method in 0usize..3,
    ) {
        let tris = stair_triangles(&r);
        let world = CollisionWorld::new(tris.iter().copied());
        let settings = ControllerSettings {
            speed,
            response: if stop { Response::Stop } else { Response::Slide },
            method: InsideMethod::ALL[method],
            ..ControllerSettings::default()
        };
        let eye = Vec3::new(r.start.0, -r.half.y + 1.6, r.start.1);
        let mut c = Controller::new(EyePose::new(eye, 0.0, 0.0), settings);
        // The first step pushes a spawn inside a box out; a spawn jammed where the body
        // does not fit tests nothing.
        c.step(&world, &MoveIntent::default(), dt);
        let body = c.body();
        prop_assume!(nearest_ellipsoid_distance(&body, body.centre_of(c.pose.position), &tris) >= 1.0 - TOL_E);
        for held in keys {
            c.pose.yaw_deg += held.turn;
            for i in 0..held.steps {
                let intent = MoveIntent {
                    forward: held.forward,
                    strafe: held.strafe,
                    run: held.run,
                    jump: held.jump && i == 0,
                    crouch: held.crouch,
                    ..MoveIntent::default()
                };
                c.step(&world, &intent, dt);
                let body = c.body();
                let centre = body.centre_of(c.pose.position);
                prop_assert!(centre.is_finite());
                let inner = r.half - body.radii;
                prop_assert!(centre.abs().cmple(inner + 1e-4).all(), "left the room: {centre} (half {})", r.half);
                let gap = nearest_ellipsoid_distance(&body, centre, &tris);
                prop_assert!(gap >= 1.0 - TOL_E, "{centre} overlaps: {gap} (crouched {})", c.walk.crouched);
            }
        }
    }
}

/// A mover of a random scene: a box (`size`, standing on its origin) whose first key is
/// at `at`, on and around the spawn, and whose second is `moved` from it, turned `turn`
/// degrees about the vertical, `period` seconds later; `play` picks once or ping-pong (a
/// loop must end where it starts).
#[derive(Clone, Debug)]
struct PiledMover {
    size: Vec3,
    at: Vec3,
    moved: Vec3,
    turn: f32,
    period: f32,
    play: usize,
}

fn piled_movers() -> impl Strategy<Value = Vec<PiledMover>> {
    let v = |lo: Vec3, hi: Vec3| {
        (lo.x..hi.x, lo.y..hi.y, lo.z..hi.z).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    };
    let one = (
        v(Vec3::new(0.1, 0.2, 0.1), Vec3::new(2.0, 2.5, 2.0)),
        v(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 1.0, 1.0)),
        v(Vec3::new(-1.0, -0.5, -1.0), Vec3::new(1.0, 0.5, 1.0)),
        0.0f32..90.0,
        0.3f32..3.0,
        0usize..2,
    )
        .prop_map(|(size, at, moved, turn, period, play)| PiledMover {
            size,
            at,
            moved,
            turn,
            period,
            play,
        });
    prop::collection::vec(one, 1..8)
}

/// Slack inside a solid's faces before an eye counts as inside it, metres: the `f32` of a
/// pose's matrix and its inverse.
const INSIDE_SLACK: f32 = 1e-4;

/// A scene of a ground and `movers`, written into a folder of its own (case `case`).
fn piled_scene(case: usize, movers: &[PiledMover]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("walkthrough-piled-{}-{case}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let obj = |tris: Vec<[Vec3; 3]>| obj_text(&tris);
    std::fs::write(dir.join("ground.obj"), obj(common::floor(20.0))).unwrap();
    let mut scene = String::from("[[model]]\nfile = \"ground.obj\"\n");
    let play = ["once", "ping-pong"];
    for (k, m) in movers.iter().enumerate() {
        let half = Vec3::new(m.size.x / 2.0, 0.0, m.size.z / 2.0);
        let lo = -half;
        let hi = half + Vec3::Y * m.size.y;
        // Wound out of the box, as OBJ's solids are (`cube` winds a room's, inward).
        let solid = cube(lo, hi)
            .into_iter()
            .map(|[a, b, c]| [a, c, b])
            .collect();
        std::fs::write(dir.join(format!("box{k}.obj")), obj(solid)).unwrap();
        let to = m.at + m.moved;
        scene += &format!(
            "[[model]]\nfile = \"box{k}.obj\"\n[model.motion]\nkeys = [[0, {}, {}, {}, 0, 0, 0], [{}, {}, {}, {}, 0, {}, 0]]\nplay = \"{}\"\n",
            m.at.x, m.at.y, m.at.z, m.period, to.x, to.y, to.z, m.turn, play[m.play]
        );
    }
    let path = dir.join("scene.toml");
    std::fs::write(&path, scene).unwrap();
    path
}

proptest! {
    #![proptest_config(config(48))]

    /// Movers piled on and around the spawn (a box closed on the spawn at its first pose,
    /// boxes swinging through it): the spawn is moved out of any it is inside, and after
    /// the first tick the eye is never inside a box at its pose, walking or standing.
    #[test]
    fn the_eye_is_never_inside_a_mover_piled_on_the_spawn(
        movers in piled_movers(),
        turn in -180.0f32..180.0,
    ) {
        use walkthrough_core::session::{OpenOptions, Session};
        static CASE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let case = CASE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = piled_scene(case, &movers);
        let open = OpenOptions {
            spawn: Some(Vec3::new(0.0, 1.6, 0.0)),
            ..OpenOptions::default()
        };
        let mut session = Session::open(Some(&path), &open).expect("the scene opens");
        let mut c = Controller::new(session.start_pose(None), ControllerSettings::default());
        let dt = 1.0 / 120.0;
        for step in 1..=480 {
            let intent = MoveIntent {
                forward: if step < 360 { 1.0 } else { 0.0 },
                ..MoveIntent::default()
            };
            if step == 240 {
                c.pose.yaw_deg += turn;
            }
            c.step_in(&mut session.ticking(), &intent, dt);
            let eye = c.pose.position;
            let placed = session.placed.as_ref().expect("a scene's placements");
            for (k, inst) in placed.instances().iter().enumerate().skip(1) {
                let b = placed.models()[inst.model].bounds();
                let p = inst.to_world.inverse().transform_point3(eye);
                let inside = (p - b.min).min_element() > INSIDE_SLACK
                    && (b.max - p).min_element() > INSIDE_SLACK;
                prop_assert!(!inside, "step {step}: the eye {eye} is inside box {k} ({p} in its space)");
            }
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
