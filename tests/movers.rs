//! A world that moves: lifts ridden, turntables turning the rider, doors and
//! crushers that push or are blocked, never a triangle through the body, the same at any
//! step. Scripts run through `sim`'s own routine (`run_to_rows_in`) on the example scene
//! in `assets/moving-scene` and on small generated scenes.

mod common;

use std::path::{Path, PathBuf};

use glam::Vec3;
use walkthrough_core::collision::overlap;
use walkthrough_core::map::MapFrame;
use walkthrough_core::player::{Controller, ControllerSettings, Mode, MoveIntent, Pose};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::sim::{TraceRow, parse_script, run_to_rows_in};
use walkthrough_core::test_kit::obj::obj_text;
use walkthrough_core::test_kit::random::Xorshift64;

const DT: f64 = 1.0 / 120.0;

fn example() -> Session {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/moving-scene/scene.toml");
    Session::open(Some(&path), &OpenOptions::default()).expect("the example scene opens")
}

/// Run `script` in `session` at step `dt`, checking after every step that no triangle is
/// inside the body.
fn walk(session: &mut Session, script: &str, dt: f64) -> Vec<TraceRow> {
    let script = parse_script("movers.txt", script).unwrap();
    let mut c = Controller::new(session.start_pose(None), ControllerSettings::default());
    let frame = MapFrame::default();
    let rows = run_to_rows_in(&mut session.ticking(), &frame, &mut c, &script, dt);
    // The run again step by step, for the overlap check (the same steps: `sim`'s routine).
    let mut c2 = Controller::new(session.start_pose(None), ControllerSettings::default());
    session.restart_movers();
    let again = run_checked(session, &mut c2, &script, dt);
    assert_eq!(
        again,
        rows.len() - 1,
        "the checked run takes the same steps"
    );
    rows
}

/// Step `commands` in `session`, asserting no overlap after each step; returns the steps.
fn run_checked(
    session: &mut Session,
    c: &mut Controller,
    commands: &[walkthrough_core::sim::Command],
    dt: f64,
) -> usize {
    if let Some(p) = walkthrough_core::sim::start_pose(commands) {
        c.place(p);
    }
    let mut player = walkthrough_core::sim::ScriptPlayer::new(commands.to_vec(), dt as f32);
    let mut steps = 0;
    while let Some(intent) = player.next_step(c) {
        c.step_in(&mut session.ticking(), &intent, dt as f32);
        steps += 1;
        assert_no_overlap(session, c, steps);
    }
    steps
}

fn assert_no_overlap(session: &Session, c: &Controller, step: usize) {
    let body = c.body();
    let centre = body.centre_of(c.pose.position);
    let placed = session.placed.as_ref().unwrap();
    if let Some(o) = overlap(placed, &body, centre) {
        panic!(
            "step {step}: a triangle ({}) is inside the body at {centre} (point {})",
            o.triangle, o.point
        );
    }
}

fn last(rows: &[TraceRow]) -> TraceRow {
    *rows.last().unwrap()
}

#[test]
fn the_lift_carries_the_walker_three_metres_up_and_it_steps_onto_the_balcony() {
    let mut s = example();
    // On the lift (its top at 0.1 m), facing the roof (-X); the lift waits 2 s, rises
    // 3.1 m in 3.1 s and waits; then a step west onto the roof (top at 3.2 m).
    let rows = walk(
        &mut s,
        "start -2.8,1.7,2.0 90 0\nwait 5.5\nforward 1.5\nwait 0.5\n",
        DT,
    );
    let on_lift = rows[120];
    assert_eq!(on_lift.on, Some(3), "standing on the lift (placement 3)");
    assert!((on_lift.position[1] - 1.7005).abs() < 1e-3, "{on_lift:?}");
    let top = rows[(5.4 / DT) as usize];
    assert_eq!(top.on, Some(3));
    assert!(
        (top.position[1] - 4.8005).abs() < 1e-3,
        "carried 3.1 m up: {top:?}"
    );
    let end = last(&rows);
    assert_eq!(end.on, Some(1), "on the roof (placement 1): {end:?}");
    assert!(end.ground);
    assert!((end.position[1] - 4.8005).abs() < 1e-3, "{end:?}");
    assert!(end.position[0] < -4.5, "walked onto the roof: {end:?}");
}

#[test]
fn a_full_turn_of_the_turntable_ends_where_it_started_and_a_half_turn_across_it() {
    let mut s = example();
    // Off the centre (13, -4) by 2 m... less the body: 1.5 m west of it.
    let rows = walk(&mut s, "start 11.5,1.75,-4 0 0\nwait 13\n", DT);
    // Landed within the first few steps; from then on carried.
    let k0 = rows.iter().position(|r| r.ground).unwrap();
    let a = rows[k0];
    assert_eq!(a.on, Some(5));
    let steps = |secs: f64| (secs / DT).round() as usize;
    let half = rows[k0 + steps(6.0)];
    let full = rows[k0 + steps(12.0)];
    let p = |r: &TraceRow| r.file_point();
    let centre = Vec3::new(13.0, p(&a).y, -4.0);
    // A half turn (180 degrees at 30 a second) takes it across the centre, facing back.
    let across = centre * 2.0 - p(&a);
    assert!(
        (p(&half) - Vec3::new(across.x, p(&a).y, across.z)).length() < 0.01,
        "{half:?} vs {across}"
    );
    let turned = (half.yaw_deg - a.yaw_deg).rem_euclid(360.0);
    assert!((turned - 180.0).abs() < 0.01, "turned {turned}");
    // A full turn: back where it was, facing the same way.
    assert!((p(&full) - p(&a)).length() < 0.01, "{full:?} vs {a:?}");
    let turned = (full.yaw_deg - a.yaw_deg).rem_euclid(360.0);
    assert!(turned.min(360.0 - turned) < 0.01, "turned {turned}");
    assert!(rows[k0..].iter().all(|r| r.on == Some(5)));
}

#[test]
fn the_door_opens_as_the_walker_comes_and_lets_it_into_the_room() {
    let mut s = example();
    let door = s.placed.as_ref().unwrap().instances()[2].bounds;
    // From the ground east of the door, walking west through the doorway.
    let rows = walk(&mut s, "start 0,1.6,0 90 0\nwait 0.2\nforward 5\n", DT);
    let end = last(&rows);
    assert!(
        end.position[0] < -5.0,
        "walked through the doorway into the room: {end:?}"
    );
    let opened = s.placed.as_ref().unwrap().instances()[2].bounds;
    assert!(
        (opened.center().z - (door.center().z - 1.5)).abs() < 1e-3,
        "{door:?} -> {opened:?}"
    );
}

#[test]
fn the_same_ride_at_a_sixtieth_and_a_two_hundred_fortieth_of_a_second_ends_within_a_centimetre() {
    let script = "start -2.8,1.7,2.0 90 0\nwait 5.5\nforward 1.5\nturn -90\nforward 1\nwait 1\n";
    let a = last(&walk(&mut example(), script, 1.0 / 60.0));
    let b = last(&walk(&mut example(), script, 1.0 / 240.0));
    let d = (a.file_point() - b.file_point()).length();
    assert!(d < 0.01, "{a:?}\n{b:?}: {d}");
    assert_eq!(a.on, b.on);
}

/// A scene in a fresh folder: a floor (placement 0) and `movers`, each a box of
/// `size` about its origin moving as its motion table says.
fn scene(test: &str, movers: &[(Vec3, &str)]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("walkthrough-movers-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let obj = |tris: Vec<[Vec3; 3]>| obj_text(&tris);
    // A closed room 20 m square and 6 m high: nothing can leave it.
    std::fs::write(
        d.join("room.obj"),
        obj(common::cube(
            Vec3::new(-10.0, 0.0, -10.0),
            Vec3::new(10.0, 6.0, 10.0),
        )),
    )
    .unwrap();
    let mut text = "[[model]]\nfile = \"room.obj\"\n".to_string();
    for (k, (size, motion)) in movers.iter().enumerate() {
        std::fs::write(
            d.join(format!("m{k}.obj")),
            obj(common::cube(-*size * 0.5, *size * 0.5)),
        )
        .unwrap();
        text += &format!("\n[[model]]\nfile = \"m{k}.obj\"\n[model.motion]\n{motion}\n");
    }
    let path = d.join("scene.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn open(path: &Path) -> Session {
    Session::open(Some(path), &OpenOptions::default()).unwrap()
}

#[test]
fn a_door_closing_on_the_walker_pushes_it_out_never_through() {
    // A door 1.4 m wide, 2.2 m high, 0.1 m thick, sliding along +X from x = -3 to 3 in
    // 2 s across a walker standing at the origin.
    let path = scene(
        "door",
        &[(
            Vec3::new(1.4, 2.2, 0.1),
            "keys = [[0, -3, 1.1, 0, 0, 0, 0], [2, 3, 1.1, 0, 0, 0, 0]]",
        )],
    );
    let mut s = open(&path);
    let rows = walk(&mut s, "start 0,1.6,0 0 0\nwait 3\n", DT);
    let end = last(&rows);
    // The door's far edge ends at x = 3.7: the walker (0.3 m wide) ahead of it.
    assert!(
        end.position[0] > 3.7 + 0.3 - 0.01,
        "pushed ahead of the door: {end:?}"
    );
    assert!(
        end.position[2].abs() < 0.01,
        "pushed along the door's way: {end:?}"
    );
    // Never on the far side of the door while it passed (x of the door's leading face).
    for (k, r) in rows.iter().enumerate().skip(1) {
        let door_front = -3.0 + 3.0 * (k as f64 * DT).min(2.0) as f32 + 0.7;
        if door_front > -0.3 {
            assert!(
                r.file_point()[0] >= door_front + 0.3 - 0.01,
                "step {k}: passed through at {:?} (door front {door_front})",
                r.position
            );
        }
    }
}

#[test]
fn a_crusher_reverses_on_the_walker_it_cannot_push() {
    // A block coming down from the ceiling to 0.5 m over the floor and back, over and
    // over: the walker standing under it cannot give way.
    let path = scene(
        "crusher",
        &[(
            Vec3::new(3.0, 1.0, 3.0),
            "keys = [[0, 0, 5.4, 0, 0, 0, 0], [2, 0, 1.0, 0, 0, 0, 0]]\nplay = \"ping-pong\"",
        )],
    );
    let mut s = open(&path);
    let rows = walk(&mut s, "start 0,1.6,0 0 0\nwait 6\n", DT);
    let crusher = &s.movers.list[0];
    assert!(crusher.blocked > 0, "it was blocked");
    let bottom = s.placed.as_ref().unwrap().instances()[1].bounds.min.y;
    // The walker's head is at 1.8 m: the block never came lower.
    assert!(bottom >= 1.8 - 0.01, "bottom {bottom}");
    assert!(
        rows.iter()
            .all(|r| (r.position[1] - 1.6005).abs() < 0.01 || !r.ground)
    );
    // It turned round: after 6 s a free crusher would be on its way down a second time;
    // this one went up and came down again to the walker.
    assert!(
        crusher.blocked >= 2,
        "blocked each time it came down ({})",
        crusher.blocked
    );
}

#[test]
fn a_platform_at_fifty_metres_a_second_pushes_a_standing_walker_ahead_of_it() {
    // A wall-like block 2 m wide, 3 m high, 0.5 m deep sweeping from x = -9 to 9 in 0.36 s.
    let path = scene(
        "fast",
        &[(
            Vec3::new(0.5, 3.0, 2.0),
            "keys = [[0, -9, 1.5, 0, 0, 0, 0], [0.36, 9, 1.5, 0, 0, 0, 0]]",
        )],
    );
    let mut s = open(&path);
    let rows = walk(&mut s, "start 0,1.6,0 0 0\nwait 1\n", DT);
    // The walker was ahead of the block at every step until it stopped against the
    // room's far wall (x = 10), where the block (whose face ends at 9.25) is blocked
    // rather than pass through.
    let end = last(&rows);
    assert!(end.position[0] > 9.25 + 0.3 - 0.01, "{end:?}");
    assert!(end.position[0] < 10.0 - 0.3 + 0.01, "{end:?}");
    assert!(s.movers.list[0].blocked > 0 || end.position[0] >= 9.55 - 0.01);
}

#[test]
fn random_movers_around_random_walkers_never_overlap_it_nor_let_it_escape() {
    let steps_wanted = 100_000 * common::fuzz_scale() as usize;
    let mut seed = Xorshift64(0x2545_f491_4f6c_dd1du64);
    let mut next = move || seed.unit_fine();
    let mut steps = 0;
    let mut scene_no = 0;
    let mut blocked = 0;
    while steps < steps_wanted {
        // Three boxes, each sliding and spinning at up to 50 m/s and two turns a second,
        // over the floor of a closed room.
        let mut tables = Vec::new();
        for _ in 0..3 {
            let size = Vec3::new(0.3 + 2.0 * next(), 0.3 + 2.0 * next(), 0.3 + 2.0 * next());
            let p0 = Vec3::new(12.0 * next() - 6.0, 0.5 + 3.0 * next(), 12.0 * next() - 6.0);
            let p1 = Vec3::new(12.0 * next() - 6.0, 0.5 + 3.0 * next(), 12.0 * next() - 6.0);
            let secs = ((p1 - p0).length() / 40.0).max(0.3 + 2.0 * next());
            let turn = (360.0 * next()).min(600.0 * secs);
            let play = ["loop", "ping-pong", "once"][(next() * 2.999) as usize];
            let end = if play == "loop" { p0 } else { p1 };
            let end_turn = if play == "loop" { 360.0 } else { turn };
            tables.push((size, format!(
                "keys = [[0, {}, {}, {}, 0, 0, 0], [{secs}, {}, {}, {}, 0, {end_turn}, 0]]\nplay = \"{play}\"",
                p0.x, p0.y, p0.z, end.x, end.y, end.z
            )));
        }
        let specs: Vec<(Vec3, &str)> = tables.iter().map(|(s, t)| (*s, t.as_str())).collect();
        let path = scene(&format!("random{scene_no}"), &specs);
        scene_no += 1;
        let Ok(mut s) = Session::open(Some(&path), &OpenOptions::default()) else {
            continue; // a motion refused (too fast at a smooth peak): another scene
        };
        let mut c = Controller::new(
            Pose::new(
                Vec3::new(8.0 * next() - 4.0, 1.7, 8.0 * next() - 4.0),
                0.0,
                0.0,
            ),
            ControllerSettings::default(),
        );
        if next() < 0.3 {
            c.settings.mode = Mode::Fly;
        }
        for _ in 0..2000 {
            let intent = MoveIntent {
                forward: next() * 2.0 - 1.0,
                strafe: next() * 2.0 - 1.0,
                jump: next() < 0.02,
                crouch: next() < 0.1,
                ..MoveIntent::default()
            };
            c.pose.turn(next() * 20.0 - 10.0, 0.0);
            c.step_in(&mut s.ticking(), &intent, DT as f32);
            steps += 1;
            assert_no_overlap(&s, &c, steps);
            let p = c.pose.position;
            assert!(
                p.x.abs() < 10.0 && p.z.abs() < 10.0 && p.y > 0.0 && p.y < 6.0,
                "scene {scene_no}, step {steps}: escaped to {p}"
            );
        }
        blocked += s.movers.list.iter().map(|m| m.blocked).sum::<u64>();
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
    println!("{steps} steps in {scene_no} scenes, {blocked} ticks blocked: no overlap, no escape");
    // The movers met the walkers: some could not push them and were sent back.
    assert!(
        blocked > 0,
        "no mover was ever blocked: the walks never met them"
    );
}

#[test]
fn a_mover_asleep_far_from_the_walker_is_where_its_clock_says_when_the_walker_comes() {
    // Far from everything (the turntable is 17 m off), the walker waits; the movers near
    // it follow their clocks, the far ones sleep. Then a teleport next to the turntable:
    // at the next step it is where its clock says, and carries the walker.
    let mut s = example();
    let rows = walk(
        &mut s,
        "start -8,1.7,-6 0 0\nwait 3.3\nstart 11.5,1.75,-4 0 0\nwait 2\n",
        DT,
    );
    let tt = s.movers.of_instance(5).unwrap();
    let placed = s.placed.as_ref().unwrap().instances()[5].to_world;
    assert!(tt.awake);
    assert_eq!(placed, tt.matrix(), "placed where its clock says");
    let end = last(&rows);
    assert_eq!(end.on, Some(5), "riding the turntable: {end:?}");
    // 2 s of 30 deg/s, less the landing: turned about 60 degrees with it.
    assert!((end.yaw_deg - 60.0).abs() < 2.0, "{end:?}");
}

/// Found by the 10^7-step run: a flyer pushed against a turning box, then sliding over the
/// box's edge in its own move, ended 0.09 µm inside its own surface. The sweep lets a body
/// passing over a convex edge come as near as its surface (the graze radius); the end
/// check allows the rounding of that, and only that.
#[test]
fn a_flyer_sliding_over_a_turning_boxs_edge_ends_no_deeper_than_a_rounding() {
    use glam::{Affine3A, Mat3A, Vec3A};
    use walkthrough_core::collision::{Body, CollisionWorld, MoveRules, Response, resolve_move};
    use walkthrough_core::tolerance::SURFACE_ROUNDING;
    let size = Vec3::new(2.0861928, 0.71030354, 1.2691104);
    let m = Affine3A {
        matrix3: Mat3A::from_cols(
            Vec3A::new(0.35220677, 0.0, -0.93592215),
            Vec3A::Y,
            Vec3A::new(0.93592215, 0.0, 0.35220677),
        ),
        translation: Vec3A::new(2.282745, 1.5567993, 2.0969336),
    };
    let tris: Vec<[Vec3; 3]> = common::cube(-size * 0.5, size * 0.5)
        .iter()
        .map(|t| t.map(|v| m.transform_point3(v)))
        .collect();
    let world = CollisionWorld::new(tris.iter().copied());
    let body = Body::FLYER;
    let start = Vec3::new(2.5317183, 1.6887028, 3.3097746);
    let out = resolve_move(
        &world,
        &MoveRules::new(body, Response::Slide),
        start,
        Vec3::new(0.0043343357, 0.0, -0.015469668),
    );
    assert!(out.hit);
    let nearest = common::nearest_ellipsoid_distance(&body, out.end, &tris);
    // Over the edge it comes to its own surface (1 in ellipsoid units), give or take the
    // rounding of its f32 position; never deeper.
    let rounding = f64::from(SURFACE_ROUNDING / body.radii.min_element());
    assert!(nearest < 1.0 + 1e-3, "it slid up to the box: {nearest}");
    assert!(
        nearest >= 1.0 - rounding,
        "inside by more than a rounding: {nearest}"
    );
    assert!(overlap(&world, &body, out.end).is_none());
}

/// A platform that tilts (a see-saw, turning about a horizontal
/// axis) froze for good once the walker stood on it. Carried by the turn, the upright
/// body needs more room over the platform as it comes back toward level than the turn
/// left it, so every tick found it inside and sent the platform back.
#[test]
fn a_tilting_platform_goes_on_tilting_with_the_walker_on_it() {
    // A slab 4 x 0.2 x 2 m over the room's floor, rocking +/-20 degrees about z every 2 s.
    let path = scene(
        "tilt",
        &[(
            Vec3::new(4.0, 0.2, 2.0),
            "keys = [[0, 0, 1.5, 0, 0, 0, -20], [2, 0, 1.5, 0, 0, 0, 20]]\nplay = \"ping-pong\"\nease = \"smooth\"",
        )],
    );
    let mut s = open(&path);
    // Dropped onto the slab 1.2 m from its pivot, then standing still for 6 s.
    let rows = walk(&mut s, "start 1.2,3.4,0 0 0\nwait 6\n", DT);
    let slab = &s.movers.list[0];
    assert_eq!(
        slab.blocked, 0,
        "the slab was sent back {} times",
        slab.blocked
    );
    let ridden: Vec<&TraceRow> = rows.iter().filter(|r| r.on == Some(1)).collect();
    assert!(
        ridden.len() > rows.len() / 2,
        "rode it {} of {} steps",
        ridden.len(),
        rows.len()
    );
    // 1.2 m from the pivot, +/-20 degrees moves the feet about 0.8 m up and down.
    let (low, high) = ridden.iter().fold((f32::MAX, f32::MIN), |(l, h), r| {
        (l.min(r.file_point()[1]), h.max(r.file_point()[1]))
    });
    assert!(high - low > 0.6, "the eye went only from {low} to {high}");
}

/// E looking at a door 2.5 m away did nothing and said nothing.
/// What the use key meets is asked as the tick asks it: the door within 2 m, nothing
/// farther, and a map without movers that start on use has none.
#[test]
fn the_use_key_meets_a_door_within_reach_and_says_when_it_meets_none() {
    use walkthrough_core::movers::push::UseTarget;
    let path = scene(
        "use",
        &[(
            Vec3::new(2.0, 2.0, 0.2),
            "keys = [[0, 0, 1, 0, 0, 0, 0], [1, 2, 1, 0, 0, 0, 0]]\nplay = \"once\"\nstart = \"use\"",
        )],
    );
    let s = open(&path);
    let ahead = Vec3::NEG_Z;
    let at = |z: f32| s.use_target(Vec3::new(0.0, 1.6, z), ahead);
    assert_eq!(at(1.5), UseTarget::Mover(0));
    assert_eq!(at(3.0), UseTarget::OutOfReach);
    // Looking away from it, within reach.
    assert_eq!(
        s.use_target(Vec3::new(0.0, 1.6, 1.0), Vec3::Z),
        UseTarget::OutOfReach
    );
    let still = Session::open(None, &OpenOptions::default()).unwrap();
    assert_eq!(
        still.use_target(Vec3::new(0.0, 1.6, 0.0), ahead),
        UseTarget::NoneInMap
    );
}

/// A pile of movers wedging the body against a wall made a tick's work grow with the
/// square of their number: each round sent one mover back and made every other's push
/// again. Every mover the body is inside goes back in the same round: 40 piled doors
/// take at most `MAX_PUSH_ROUNDS` rounds a tick (one a blocked door, before), many are
/// sent back in one tick, and the body is never inside one.
#[test]
fn a_pile_of_movers_wedging_the_body_is_sent_back_in_a_few_rounds() {
    use walkthrough_core::collision::{Body, InstancedWorld};
    use walkthrough_core::movers::push::MAX_PUSH_ROUNDS;
    use walkthrough_core::movers::{Movers, Rider};
    let (mut placed, specs) = common::pile::door_pile(40);
    let mut movers = Movers::new(&specs, &mut placed);
    let body = Body::WALKER;
    let eye = common::pile::PILE_EYE;
    let mut rider = Rider::at(body, Vec3::new(eye.x, body.radii.y + 0.01, eye.z));
    let (mut most_rounds, mut most_blocked) = (0, 0);
    for tick in 0..480 {
        let report = movers
            .world(&mut placed)
            .pass_report(1.0 / 240.0, &mut rider);
        most_rounds = most_rounds.max(report.rounds);
        most_blocked = most_blocked.max(report.blocked);
        let world: &InstancedWorld = &placed;
        assert!(
            overlap(world, &body, rider.centre).is_none(),
            "tick {tick}: the body at {} is inside a door",
            rider.centre
        );
    }
    // More doors sent back in one tick than rounds made: one round a door would not fit.
    assert!(
        most_blocked > MAX_PUSH_ROUNDS,
        "at most {most_blocked} doors sent back in a tick"
    );
    assert!(most_rounds <= MAX_PUSH_ROUNDS, "{most_rounds} rounds");
}
