//! Placing a body never takes it across a triangle: switching from flying to walking at a
//! ceiling or a floor, crouching, spawning over a box, in a world of triangles and through
//! a placed model, with both responses; and the same as a property over random rooms and
//! random flights that switch modes (the step after `mode walk` is where a body placed
//! on a wall's plane would leave the room).

mod common;

use common::{cube, nearest_ellipsoid_distance};
use glam::{Affine3A, Quat, Vec3};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use walkthrough_core::collision::{Collider, CollisionWorld, InstancedWorld, Response};
use walkthrough_core::map::MapFrame;
use walkthrough_core::player::{Controller, ControllerSettings, Mode, MoveIntent, Pose, Refusal};
use walkthrough_core::sim::{ScriptPlayer, TraceRow, parse_script, run_to_rows};

/// The issue's room: a closed box 20 x 6 x 20 m, floor at y = 0.
fn closed_box() -> Vec<[Vec3; 3]> {
    cube(Vec3::new(-10.0, 0.0, -10.0), Vec3::new(10.0, 6.0, 10.0))
}

/// The same room as one model placed with a rotation (so its triangles reach the body
/// through the model's own space).
fn placed_box() -> InstancedWorld {
    let model = cube(Vec3::new(-10.0, -3.0, -10.0), Vec3::new(10.0, 3.0, 10.0));
    let mut w = InstancedWorld::new(vec![CollisionWorld::new(model)]);
    w.place(
        0,
        Affine3A::from_rotation_translation(Quat::from_rotation_y(0.3), Vec3::Y * 3.0),
    )
    .expect("placed");
    w
}

fn play(world: &dyn Collider, response: Response, script: &str) -> Vec<TraceRow> {
    let script = parse_script("escape.txt", script).unwrap();
    let settings = ControllerSettings {
        response,
        ..ControllerSettings::default()
    };
    let mut c = Controller::new(Pose::new(Vec3::new(0.0, 1.6, 0.0), 0.0, 0.0), settings);
    run_to_rows(world, &MapFrame::default(), &mut c, &script, 1.0 / 120.0)
}

fn worlds() -> [(&'static str, Box<dyn Collider>); 2] {
    [
        ("triangles", Box::new(CollisionWorld::new(closed_box()))),
        ("placed model", Box::new(placed_box())),
    ]
}

/// The issue's case: fly up to the ceiling, switch to walking. The standing body (its top
/// 0.2 m above the eye) reached through the ceiling and was lifted onto the roof (the eye
/// ended at y = 7.6).
#[test]
fn switching_to_walk_with_the_flying_eye_at_the_ceiling_stays_in_the_room() {
    for (name, world) in worlds() {
        for response in [Response::Stop, Response::Slide] {
            let rows = play(
                world.as_ref(),
                response,
                "mode fly\nlook 89\nforward 3\nmode walk\nwait 2\n",
            );
            let before = rows[rows.len() - 241].position[1];
            assert!(before > 5.9, "{name} {response}: the eye flew to {before}");
            for r in &rows {
                let y = r.position[1];
                assert!(
                    y > 0.0 && y < 6.0,
                    "{name} {response}: frame {} at y {y}",
                    r.frame
                );
            }
            let end = rows.last().unwrap();
            assert!(
                (end.position[1] - 1.6).abs() < 0.01 && end.ground,
                "{name} {response}: ended at {:?}",
                end.position
            );
        }
    }
}

/// The other side of the same bug: the eye flown down to the floor, the body's feet (1.6 m
/// below the eye) were pushed out below the floor, and it fell for ever.
#[test]
fn switching_to_walk_with_the_flying_eye_at_the_floor_stands_on_the_floor() {
    for (name, world) in worlds() {
        for response in [Response::Stop, Response::Slide] {
            let rows = play(
                world.as_ref(),
                response,
                "mode fly\nlook -89\nforward 3\nmode walk\nwait 1\n",
            );
            let flown = rows[rows.len() - 121].position[1];
            assert!(flown < 0.1, "{name} {response}: the eye flew to {flown}");
            let end = rows.last().unwrap();
            assert!(
                (end.position[1] - 1.6).abs() < 0.01 && end.ground,
                "{name} {response}: ended at {:?}",
                end.position
            );
        }
    }
}

/// A gap under a slab 1.0 m high: the walker fits neither standing nor crouched (1.2 m),
/// so `mode walk` leaves it flying, and says why.
#[test]
fn walking_asked_for_where_no_walker_fits_stays_flying_and_says_why() {
    let mut tris = closed_box();
    tris.extend(cube(
        Vec3::new(-10.0, 1.0, -10.0),
        Vec3::new(0.0, 1.1, 10.0),
    ));
    let world = CollisionWorld::new(tris);
    let mut c = Controller::new(
        Pose::new(Vec3::new(-5.0, 0.5, 0.0), 0.0, 0.0),
        ControllerSettings {
            mode: Mode::Fly,
            ..ControllerSettings::default()
        },
    );
    c.step(&world, &MoveIntent::default(), 1.0 / 120.0);
    c.settings.mode = Mode::Walk;
    let r = c.step(&world, &MoveIntent::default(), 1.0 / 120.0);
    assert_eq!(r.refused, Some(Refusal::NoRoomToWalk));
    assert_eq!(c.settings.mode, Mode::Fly);
    assert!(
        r.refused
            .unwrap()
            .to_string()
            .contains("flying until the next placement")
    );
    assert!((c.pose.position - Vec3::new(-5.0, 0.5, 0.0)).length() < 1e-6);
    // Flown out from under the slab, walking is allowed.
    c.pose.position.x = 5.0;
    c.settings.mode = Mode::Walk;
    let r = c.step(&world, &MoveIntent::default(), 1.0 / 120.0);
    assert_eq!((r.refused, c.settings.mode), (None, Mode::Walk));
}

/// A script's `start` under the slab left the walk flying, and a
/// later `start` in the open room flew on to the script's end. A placement after a
/// refused walk walks again; a flight asked for (`mode fly`) stays.
#[test]
fn a_start_after_a_refused_walk_walks_again_unless_flying_was_asked_for() {
    let mut tris = closed_box();
    tris.extend(cube(
        Vec3::new(-10.0, 1.0, -10.0),
        Vec3::new(0.0, 1.1, 10.0),
    ));
    let world = CollisionWorld::new(tris);
    let text = "start -5,0.5,0 0 0\nwait 0.1\nstart 5,1.6,0 0 0\nwait 0.5\n";
    let rows = play(&world, Response::Slide, text);
    let under = rows.iter().find(|r| r.position[0] < 0.0).unwrap();
    assert!(!under.ground, "walking under the slab: {under:?}");
    let end = rows.last().unwrap();
    assert!(
        end.ground && end.position[0] > 0.0,
        "flew on after the second start: {end:?}"
    );
    // Asked for, flying stays flying across a start.
    let rows = play(&world, Response::Slide, &format!("mode fly\n{text}"));
    assert!(!rows.last().unwrap().ground);
}

/// Under a slab 1.4 m high the standing walker does not fit but the crouched one does:
/// `mode walk` crouches.
#[test]
fn walking_asked_for_under_a_low_ceiling_crouches() {
    let mut tris = closed_box();
    tris.extend(cube(
        Vec3::new(-10.0, 1.4, -10.0),
        Vec3::new(0.0, 1.5, 10.0),
    ));
    let world = CollisionWorld::new(tris);
    let script = parse_script("low.txt", "mode fly\nmode walk\nwait 1\n").unwrap();
    let mut c = Controller::new(
        Pose::new(Vec3::new(-5.0, 1.0, 0.0), 0.0, 0.0),
        ControllerSettings::default(),
    );
    let rows = run_to_rows(&world, &MapFrame::default(), &mut c, &script, 1.0 / 120.0);
    let end = rows.last().unwrap();
    assert!(end.crouched && end.ground, "{end:?}");
    assert!((end.position[1] - 1.0).abs() < 0.01, "{end:?}");
}

/// A spawn whose eye stands exactly at eye height over the floor is at rest: no push, no
/// STOPPED or SLIDING flash on the first frame.
#[test]
fn a_spawn_exactly_at_eye_height_is_not_a_hit() {
    let world = CollisionWorld::new(closed_box());
    let rows = play(&world, Response::Stop, "wait 0.5\n");
    assert!(rows.iter().all(|r| !r.hit), "{:?}", rows[1]);
    assert!((rows.last().unwrap().position[1] - 1.6).abs() < 0.002);
}

/// A room of random size with random inner walls and a random box; the flying eye starts
/// in it.
#[derive(Clone, Debug)]
struct Room {
    half: Vec3,
    walls: Vec<(f32, f32, f32, f32)>,
    block: (Vec3, Vec3),
}

fn room() -> impl Strategy<Value = Room> {
    (2.0f32..10.0, 0.6f32..4.0, 2.0f32..10.0)
        .prop_flat_map(|(x, y, z)| {
            let wall = (-x..x, -z..z, -x..x, -z..z);
            let corner = (-x..x, -y..y, -z..z);
            (
                Just(Vec3::new(x, y, z)),
                prop::collection::vec(wall, 0..4),
                corner.clone(),
                corner,
            )
        })
        .prop_map(|(half, walls, a, b)| {
            let (a, b) = (Vec3::new(a.0, a.1, a.2), Vec3::new(b.0, b.1, b.2));
            Room {
                half,
                walls,
                block: (a.min(b), a.max(b)),
            }
        })
}

fn room_triangles(r: &Room) -> Vec<[Vec3; 3]> {
    let mut tris = cube(-r.half, r.half);
    for &(x0, z0, x1, z1) in &r.walls {
        if (x1 - x0).abs() + (z1 - z0).abs() > 0.1 {
            tris.extend(common::wall(x0, z0, x1, z1, r.half.y));
        }
    }
    let (lo, hi) = r.block;
    if (hi - lo).min_element() > 0.05 {
        tris.extend(cube(lo, hi));
    }
    tris
}

/// A flight: headings, pitches and how long each is flown, then where `mode walk` comes.
fn flight() -> impl Strategy<Value = (Vec<(f32, f32, usize)>, usize)> {
    (
        prop::collection::vec((-180.0f32..180.0, -89.0f32..89.0, 1usize..400), 1..6),
        0usize..2000,
    )
}

fn config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig {
        cases,
        ..ProptestConfig::default()
    };
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(20_261_124);
    }
    config
}

proptest! {
    #![proptest_config(config(256))]

    /// Random rooms (some lower than a person), random flights at up to 40 m/s, then
    /// `mode walk` anywhere (at a ceiling, a floor, a wall, on the box, under it), any
    /// response: the body never leaves the room and never overlaps a triangle, and where
    /// it does not fit it stays flying.
    #[test]
    fn switching_to_walk_anywhere_never_leaves_the_room(
        r in room(),
        (legs, switch_at) in flight(),
        speed in 1.0f32..40.0,
        stop in any::<bool>(),
    ) {
        let tris = room_triangles(&r);
        let world = CollisionWorld::new(tris.iter().copied());
        let settings = ControllerSettings {
            mode: Mode::Fly,
            speed,
            response: if stop { Response::Stop } else { Response::Slide },
            ..ControllerSettings::default()
        };
        // The eye starts in the room, off its walls; flying, it never leaves (the
        // flying property tests say so), so wherever it is when walking is asked for is
        // inside.
        let mut c = Controller::new(Pose::new(Vec3::new(0.01, 0.02, 0.03), 0.0, 0.0), settings);
        c.step(&world, &MoveIntent::default(), 1.0 / 120.0);
        let start = c.pose.position;
        prop_assume!(start.abs().cmplt(r.half).all());
        // The box is a closed region of its own: the body stays on the side the eye
        // started on.
        let (lo, hi) = r.block;
        let in_block = |p: Vec3| (hi - lo).min_element() > 0.05 && p.cmpgt(lo).all() && p.cmplt(hi).all();
        let started_in_block = in_block(start);
        let mut step = 0;
        let fly = MoveIntent { forward: 1.0, ..MoveIntent::default() };
        for (yaw, pitch, n) in legs {
            c.pose.yaw_deg = yaw;
            c.pose.pitch_deg = pitch;
            for _ in 0..n {
                if step == switch_at {
                    c.settings.mode = Mode::Walk;
                }
                step += 1;
                let report = c.step(&world, &fly, 1.0 / 120.0);
                let body = c.body();
                let centre = body.centre_of(c.pose.position);
                prop_assert!(centre.is_finite());
                prop_assert!(
                    centre.abs().cmple(r.half - body.radii + 1e-4).all(),
                    "step {step}: left the room: centre {centre} (half {}, {:?}, refused {:?})",
                    r.half, c.settings.mode, report.refused
                );
                prop_assert_eq!(in_block(centre), started_in_block, "step {}: crossed the box's side: {}", step, centre);
                let gap = nearest_ellipsoid_distance(&body, centre, &tris);
                prop_assert!(gap >= 1.0 - 1e-4, "step {step}: {centre} overlaps: {gap} ({:?})", c.settings.mode);
            }
        }
    }
}

/// A closed box 10 x 4 x 10 m from the origin, its faces
/// wound outward (as modellers write a box) or inward.
fn issue_box(outward: bool) -> Vec<[Vec3; 3]> {
    let tris = cube(Vec3::ZERO, Vec3::new(10.0, 4.0, 10.0));
    let inward = CollisionWorld::new(tris.iter().copied());
    // Which way `cube` winds: its floor's normal points up into the room, or down.
    let floor_up = inward.triangles().iter().any(|t| {
        let [a, ..] = t.vertices();
        a.y == 0.0 && t.plane.normal.y > 0.5
    });
    if floor_up != outward {
        tris
    } else {
        tris.into_iter().map(|[a, b, c]| [a, c, b]).collect()
    }
}

/// `--spawn 10,1.601,7.11` (the eye on a wall's plane) placed the
/// body at x = 10.30, outside the room, falling for ever with exit 0; the same as a
/// script's `start` line, never checked. Both walk inside, on the floor, whichever way
/// the walls face.
#[test]
fn a_spawn_or_start_on_a_wall_plane_stands_inside_the_room() {
    for outward in [true, false] {
        let world = CollisionWorld::new(issue_box(outward));
        let eye = Vec3::new(10.0, 1.601, 7.11);
        let spawned = {
            let mut c = Controller::new(Pose::new(eye, 0.0, 0.0), ControllerSettings::default());
            run_to_rows(&world, &MapFrame::default(), &mut c, &[], 1.0 / 120.0);
            let script = parse_script("w.txt", "wait 1\n").unwrap();
            run_to_rows(&world, &MapFrame::default(), &mut c, &script, 1.0 / 120.0)
        };
        let script = parse_script("s.txt", "start 10,1.601,7.11 0 0\nwait 1\n").unwrap();
        let mut c = Controller::new(
            Pose::new(Vec3::new(5.0, 1.6, 5.0), 0.0, 0.0),
            ControllerSettings::default(),
        );
        let started = run_to_rows(&world, &MapFrame::default(), &mut c, &script, 1.0 / 120.0);
        for (how, rows) in [("--spawn", spawned), ("start", started)] {
            let end = rows.last().unwrap();
            let [x, y, _] = end.position;
            assert!(
                x > 9.6 && x < 9.75 && (y - 1.6).abs() < 0.01 && end.ground,
                "{how}, walls outward {outward}: ended at {:?}",
                end.position
            );
        }
    }
}

/// Where on a surface of the room a spawn is put: one of the room's six faces or the
/// box's, a point on its plane (some at its edges and corners), then moved off it by
/// `offset` (exactly on it, within the placement probe of it on either side, or inside).
#[derive(Clone, Debug)]
struct OnPlane {
    /// 0..6: the room's faces; 6..12: the box's.
    face: usize,
    /// Where on the face, 0..1 along its two axes (0 and 1: its edges).
    u: f32,
    v: f32,
    /// Along the face's axis, toward the room's inside (negative: outside the face).
    offset: f32,
}

fn on_plane() -> impl Strategy<Value = OnPlane> {
    let along = prop_oneof![Just(0.0f32), Just(1.0), 0.0f32..1.0, 0.0f32..1.0];
    let offset = prop_oneof![
        Just(0.0f32),
        Just(1e-6),
        Just(-1e-6),
        -0.012f32..0.012,
        0.0f32..0.5,
    ];
    (0usize..12, along.clone(), along, offset).prop_map(|(face, u, v, offset)| OnPlane {
        face,
        u,
        v,
        offset,
    })
}

/// The eye `p` asks for in room `r`: on the plane of its face, moved by its offset into
/// the room (for the box's faces: out of the box, but not out of the room).
fn eye_on_plane(r: &Room, p: &OnPlane) -> Vec3 {
    let (lo, hi, sign) = if p.face < 6 {
        (-r.half, r.half, 1.0)
    } else {
        (r.block.0, r.block.1, -1.0)
    };
    let axis = (p.face % 6) / 2;
    let at_max = p.face % 2 == 1;
    let mut eye = lo + (hi - lo) * Vec3::new(p.u, p.v, p.u.mul_add(0.7, 0.1).fract());
    let (others, plane) = (
        [(axis + 1) % 3, (axis + 2) % 3],
        if at_max { hi } else { lo },
    );
    eye[others[0]] = lo[others[0]] + (hi[others[0]] - lo[others[0]]) * p.u;
    eye[others[1]] = lo[others[1]] + (hi[others[1]] - lo[others[1]]) * p.v;
    let inward = if at_max { -1.0 } else { 1.0 } * sign;
    eye[axis] = plane[axis] + inward * p.offset;
    // Off a box's face, never past the room's own planes (on them at most).
    eye.clamp(-r.half, r.half)
}

proptest! {
    #![proptest_config(config(1024))]

    /// Placements as a property: random rooms (some lower than a
    /// person) with walls and a closed box, faces wound either way, spawns and `start`
    /// lines on the planes of the room's and the box's faces, at their edges and corners,
    /// within the placement probe of them on either side, or near them inside, walking or
    /// flying, then a short random walk: the body's centre never leaves the room, and where
    /// the body fits it never overlaps a triangle nor reaches out of the room.
    #[test]
    fn spawns_and_start_lines_on_and_near_planes_never_leave_the_room(
        r in room(),
        at in on_plane(),
        outward in any::<bool>(),
        by_start in any::<bool>(),
        fly in prop::bool::weighted(0.25),
        keys in prop::collection::vec((-1i8..=1, -1i8..=1, -180.0f32..180.0, 1usize..60), 1..4),
    ) {
        let mut tris = room_triangles(&r);
        if outward {
            tris.iter_mut().for_each(|t| t.swap(1, 2));
        }
        let world = CollisionWorld::new(tris.iter().copied());
        let eye = eye_on_plane(&r, &at);
        prop_assume!(eye.is_finite());
        let settings = ControllerSettings {
            mode: if fly { Mode::Fly } else { Mode::Walk },
            ..ControllerSettings::default()
        };
        let mut script = String::new();
        let start = if by_start {
            script += &format!("start {},{},{} 0 0\n", eye.x, eye.y, eye.z);
            Vec3::new(0.01, 0.02, 0.03)
        } else {
            eye
        };
        for (f, s, turn, steps) in &keys {
            script += &format!("turn {turn}\nkeys {} {}\n", keys_word(*f, *s), *steps as f32 / 120.0);
        }
        let script = parse_script("p.txt", &script).unwrap();
        let mut c = Controller::new(Pose::new(start, 0.0, 0.0), settings);
        let mut player = ScriptPlayer::new(script, 1.0 / 120.0);
        let mut step = 0;
        // Where even the flying sphere does not fit (an eye asked for in a gap narrower
        // than it), the body is pushed out as far as it goes and may still touch: it must
        // stay in the room all the same.
        let mut jammed = None;
        while let Some(intent) = player.next_step(&mut c) {
            step += 1;
            let report = c.step(&world, &intent, 1.0 / 120.0);
            let body = c.body();
            let centre = body.centre_of(c.pose.position);
            prop_assert!(centre.is_finite());
            prop_assert!(
                centre.abs().cmplt(r.half).all(),
                "step {step}: left the room: eye asked at {eye}, centre {centre} (half {}, {:?}, refused {:?})",
                r.half, c.settings.mode, report.refused
            );
            let gap = nearest_ellipsoid_distance(&body, centre, &tris);
            let jam = *jammed.get_or_insert(gap < 1.0 - 1e-4);
            if !jam {
                prop_assert!(
                    centre.abs().cmple(r.half - body.radii + 1e-4).all(),
                    "step {step}: reaches out of the room: eye asked at {eye}, centre {centre} (half {})",
                    r.half
                );
                prop_assert!(gap >= 1.0 - 1e-4, "step {step}: {centre} overlaps: {gap}");
            }
        }
        prop_assert!(step > 0);
    }
}

/// The `keys` word for forward `f` and strafe `s` (-1, 0 or 1 each).
fn keys_word(f: i8, s: i8) -> String {
    let mut k = Vec::new();
    match f {
        1 => k.push("forward"),
        -1 => k.push("back"),
        _ => {}
    }
    match s {
        1 => k.push("right"),
        -1 => k.push("left"),
        _ => {}
    }
    if k.is_empty() {
        "none".into()
    } else {
        k.join("+")
    }
}
