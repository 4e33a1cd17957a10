//! Walking physics, each test named after what it proves: stairs, steps, slopes, ledges,
//! jumps, crouching, and the same path at any time step.

mod common;

use common::counted::Counted;
use common::cube;
use glam::Vec3;
use walkthrough_core::collision::{Account, Collider, CollisionWorld, Recorder};
use walkthrough_core::map::MapFrame;
use walkthrough_core::player::{Controller, ControllerSettings, MoveIntent, Pose, Stance};
use walkthrough_core::sim::{TraceRow, parse_script, run_to_rows};

/// A big floor at y = 0, and `extra` triangles.
fn world(extra: Vec<[Vec3; 3]>) -> CollisionWorld {
    let mut tris = common::floor(30.0);
    tris.extend(extra);
    CollisionWorld::new(tris)
}

/// Eight stairs of 0.18 m rise and 0.28 m tread going toward -z from z = -0.5, up to a
/// gallery 1.44 m high that reaches z = -10.
fn stairs() -> CollisionWorld {
    let mut t = vec![];
    for k in 0..8 {
        let top = (k + 1) as f32 * 0.18;
        let near = -0.5 - k as f32 * 0.28;
        t.extend(cube(Vec3::new(-2.0, 0.0, -10.0), Vec3::new(2.0, top, near)));
    }
    world(t)
}

/// A ramp rising toward -z at `deg` degrees from z = -0.5, 3 m high, with a top.
fn ramp(deg: f32) -> CollisionWorld {
    let run = 3.0 / deg.to_radians().tan();
    let (z0, z1) = (-0.5, -0.5 - run);
    let a = Vec3::new(-2.0, 0.0, z0);
    let b = Vec3::new(2.0, 0.0, z0);
    let c = Vec3::new(2.0, 3.0, z1);
    let d = Vec3::new(-2.0, 3.0, z1);
    let mut t = vec![[a, b, c], [a, c, d]];
    t.extend(cube(
        Vec3::new(-2.0, 0.0, z1 - 5.0),
        Vec3::new(2.0, 3.0, z1),
    ));
    world(t)
}

/// Play `script` from an eye at `eye` looking toward -z, at step `dt`.
fn play(world: &CollisionWorld, eye: Vec3, script: &str, dt: f32) -> Vec<TraceRow> {
    let script = parse_script("walk.txt", script).unwrap();
    let mut c = Controller::new(Pose::new(eye, 0.0, 0.0), ControllerSettings::default());
    run_to_rows(world, &MapFrame::default(), &mut c, &script, f64::from(dt))
}

fn eye(r: &TraceRow) -> Vec3 {
    r.file_point()
}

const START: Vec3 = Vec3::new(0.0, 1.6, 2.0);

/// 1/120 as a user writes it on the command line, to ten digits (a little short of 1/120).
#[allow(clippy::excessive_precision)]
const DT_TEN_DIGITS: f32 = 0.0083333333;

#[test]
fn stairs_are_climbed_and_descended_at_every_time_step_without_losing_the_ground() {
    let world = stairs();
    for dt in [1.0 / 60.0, 1.0 / 120.0, 1.0 / 240.0, 1.0 / 1000.0] {
        let rows = play(
            &world,
            START,
            "wait 0.2\nforward 3\nturn 180\nforward 3\n",
            dt,
        );
        let up = rows
            .iter()
            .find(|r| (r.t - 3.2).abs() < dt as f64 / 2.0 + 1e-9)
            .expect("a row at the top");
        let top = eye(up);
        assert!(top.z < -3.0, "dt {dt}: stuck on the stairs at {top}");
        assert!((top.y - (1.44 + 1.6)).abs() < 0.01, "dt {dt}: eye at {top}");
        let end = eye(rows.last().unwrap());
        assert!(
            end.z > 1.0 && (end.y - 1.6).abs() < 0.01,
            "dt {dt}: back at {end}"
        );
        // Standing on every row after the first tick finds the floor: no hop off any
        // stair, no ground flicker on the step edges.
        let airborne: Vec<f64> = rows.iter().filter(|r| !r.ground).map(|r| r.t).collect();
        assert!(
            airborne.iter().all(|t| *t < 0.02),
            "dt {dt}: in the air at {airborne:?}"
        );
    }
}

#[test]
fn stairs_approached_at_an_angle_are_climbed_without_losing_the_ground() {
    let world = stairs();
    for dt in [1.0 / 60.0, 1.0 / 240.0] {
        // From the left, heading 25 degrees to the right of straight up the stairs.
        let rows = play(
            &world,
            Vec3::new(-1.5, 1.6, 1.0),
            "turn -25\nwait 0.1\nforward 2.5\n",
            dt,
        );
        let end = eye(rows.last().unwrap());
        assert!(
            (end.y - (1.6 + 8.0 * 0.18)).abs() < 0.01 && end.z < -3.0 && end.x > 0.0,
            "dt {dt}: ended at {end}"
        );
        assert!(
            rows.iter().skip_while(|r| !r.ground).all(|r| r.ground),
            "dt {dt}: left the ground"
        );
    }
}

#[test]
fn a_step_of_0_6_m_blocks_the_walker() {
    let world = world(cube(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, 0.6, -0.5)));
    let rows = play(&world, START, "forward 2\n", 1.0 / 120.0);
    let end = eye(rows.last().unwrap());
    assert!((end.y - 1.6).abs() < 0.01, "{end}");
    assert!(end.z > -0.5 && end.z < 0.0, "{end}");
}

/// The round body meets a step's nose before its feet are over the tread: steps up to
/// 0.45 m are rolled over as a ball over a kerb, at every time step, without leaving the
/// ground. (At first only steps under the 0.2 m ground band were climbed.)
#[test]
fn steps_of_0_25_0_35_and_0_44_m_are_climbed_by_walking_at_every_time_step() {
    for height in [0.25, 0.35, 0.44] {
        let world = world(cube(
            Vec3::new(-2.0, 0.0, -5.0),
            Vec3::new(2.0, height, -0.5),
        ));
        for dt in [1.0 / 60.0, 1.0 / 120.0, 1.0 / 240.0, 1.0 / 1000.0] {
            let rows = play(&world, START, "wait 0.1\nforward 1.5\n", dt);
            let end = eye(rows.last().unwrap());
            assert!(
                (end.y - (1.6 + height)).abs() < 0.01 && end.z < -1.5,
                "{height} m at dt {dt}: ended at {end}"
            );
            // Once the spawn has settled onto the floor (a few steps at fine steps).
            assert!(
                rows.iter().skip_while(|r| !r.ground).all(|r| r.ground),
                "{height} m at dt {dt}: left the ground on the way up"
            );
        }
    }
}

/// Pressed straight into a 3 m wall, a tick sweeps four times: the move (stopped at
/// once), the step-up's rise and its move across (stopped at once too), the floor below.
/// The step-up is not lowered: it went no farther than the plain move, so no landing
/// could be kept (beside fine furniture that lowering was a tick's dearest
/// sweep; with it, five a tick).
#[test]
fn a_step_up_that_went_no_farther_than_the_plain_move_is_not_lowered() {
    let world = world(cube(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, 3.0, -0.5)));
    let mut walker = Controller::new(Pose::new(START, 0.0, 0.0), ControllerSettings::default());
    let forward = MoveIntent {
        forward: 1.0,
        ..MoveIntent::default()
    };
    for _ in 0..240 {
        walker.step(&world, &forward, 1.0 / 120.0);
    }
    let end = walker.pose.position;
    assert!((end.z - (-0.5 + 0.3)).abs() < 0.01 && end.y > 1.59, "{end}");
    let mut account = Account::default();
    walker.step(&Recorder::new(&world, &mut account), &forward, 1.0 / 120.0);
    assert_eq!(walker.pose.position, end, "pressed, it stays");
    assert_eq!(account.sweeps, 2 * 4, "two ticks of four sweeps");
}

/// A step-up's landing that the floor's rule holds is the floor followed: the tick does
/// not sweep down again from there (beside a chair's knob that sweep was a
/// sixth of a stepping tick). Up the stairs at one tick a step, each step-up sweeps the
/// move (stopped by the riser), the rise, the move across and the lowering, no more, and
/// leaves the walker on the ground, its feet on the tread it climbed to.
#[test]
fn a_step_up_s_landing_is_the_floor_followed() {
    let world = stairs();
    let mut walker = Controller::new(Pose::new(START, 0.0, 0.0), ControllerSettings::default());
    let forward = MoveIntent {
        forward: 1.0,
        ..MoveIntent::default()
    };
    let tick = ControllerSettings::default().walk.tick;
    let mut climbed = Vec::new();
    // 2.5 s: up the stairs, and onto the gallery short of its end.
    for _ in 0..600 {
        let mut account = Account::default();
        let report = walker.step(&Recorder::new(&world, &mut account), &forward, tick);
        if report.stepped_up > 0.0 {
            let feet = walker.pose.position.y - 1.6;
            climbed.push((account.sweeps, walker.walk.on_ground(), feet));
        }
    }
    // The round body rolls up over each nose in many small step-ups; the move stopped by
    // the riser is one sweep, or two when it slides along the nose.
    assert!(climbed.len() >= 8, "{climbed:?}");
    assert!(
        climbed
            .iter()
            .all(|&(sweeps, ground, _)| ground && sweeps <= 5),
        "{climbed:?}"
    );
    let straight = climbed.iter().filter(|c| c.0 == 4).count();
    assert!(straight * 2 >= climbed.len(), "{climbed:?}");
    let feet = walker.pose.position.y - 1.6;
    assert!((feet - 1.44).abs() < 0.01, "on the gallery: {feet}");
}

#[test]
fn pressing_against_a_step_too_high_to_climb_stays_on_the_ground() {
    let world = world(cube(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, 0.6, -0.5)));
    let rows = play(&world, START, "wait 0.1\nforward 2\n", 1.0 / 120.0);
    assert!(
        rows.iter()
            .skip_while(|r| !r.ground)
            .all(|r| r.ground && (r.position[1] - 1.6).abs() < 0.01),
        "ground flickered or the eye moved: {:?}",
        rows.iter().find(|r| r.frame > 1 && !r.ground)
    );
}

#[test]
fn a_30_degree_ramp_is_walked_up_and_a_60_degree_one_is_not() {
    let rows = play(&ramp(30.0), START, "forward 3\n", 1.0 / 120.0);
    let end = eye(rows.last().unwrap());
    assert!(end.y > 1.6 + 2.0, "30 degrees: only reached {end}");
    assert!(
        rows.iter().skip(2).all(|r| r.ground),
        "30 degrees: left the ground"
    );
    for script in [
        "forward 3\n",
        "response stop\nforward 3\n",
        "forward 1\njump\nforward 2\n",
    ] {
        let rows = play(&ramp(60.0), START, script, 1.0 / 120.0);
        let end = eye(rows.last().unwrap());
        assert!(
            end.y < 1.6 + 1.0,
            "60 degrees ({script:?}): climbed to {end}"
        );
    }
}

#[test]
fn walking_off_a_3_m_ledge_falls_in_the_free_fall_time_and_lands_at_eye_height() {
    // A platform 3 m high ending at z = 0; the walker walks off it toward -z.
    let world = world(cube(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 3.0, 10.0)));
    let rows = play(&world, Vec3::new(0.0, 4.6, 0.5), "forward 2\n", 1.0 / 120.0);
    let left = rows
        .iter()
        .position(|r| !r.ground && r.frame > 2)
        .expect("falls");
    let landed = rows[left..].iter().position(|r| r.ground).expect("lands") + left;
    let fall = rows[landed].t - rows[left].t;
    let want = (2.0 * 3.0 / 9.81f64).sqrt();
    assert!(
        (fall - want).abs() < 0.05,
        "fell for {fall} s, free fall {want} s"
    );
    let end = eye(rows.last().unwrap());
    assert!((end.y - 1.6).abs() < 0.01 && end.z < -1.0, "{end}");
    // No bounce: grounded from landing on.
    assert!(rows[landed..].iter().all(|r| r.ground));
}

#[test]
fn a_jump_rises_0_9_m_and_lands_where_it_started() {
    let rows = play(
        &world(vec![]),
        START,
        "wait 0.1\njump\nwait 1.5\n",
        1.0 / 120.0,
    );
    let apex = rows
        .iter()
        .map(|r| r.file_point()[1])
        .fold(f32::MIN, f32::max);
    assert!((apex - (1.6 + 0.9)).abs() < 0.02, "apex {apex}");
    let end = eye(rows.last().unwrap());
    assert!(
        (end.y - 1.6).abs() < 0.01 && rows.last().unwrap().ground,
        "{end}"
    );
}

/// Pressed against a 1 m block, a jump rose 8.5 cm and fell back.
/// The block's top edge, a little above the body's middle and within its contact gap,
/// was taken for a ceiling and stopped the rise. A jump there rises as a free one does,
/// the round body's bottom comes over the edge at the top of the jump and it stands on
/// the block, as a walker with a run-up does; a flat ceiling still stops a rise.
#[test]
fn a_jump_pressed_against_a_wall_rises_past_its_top_edge() {
    let block = || world(cube(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, 1.0, -0.5)));
    let rows = play(
        &block(),
        START,
        "forward 1.5\nkeys forward 0.05\njump\nkeys forward 1.2\n",
        1.0 / 120.0,
    );
    let pressed = rows.iter().find(|r| r.t > 1.49).map(|r| eye(r).z).unwrap();
    assert!(
        pressed < -0.19,
        "not pressed against the block: z {pressed}"
    );
    let rising = rows.iter().filter(|r| r.t < 1.9).map(|r| eye(r).y);
    let top = rising.fold(f32::MIN, f32::max);
    assert!(top > 2.45, "the rise stopped at {top}");
    let end = rows.last().unwrap();
    assert!(
        (eye(end).y - 2.6).abs() < 0.01 && eye(end).z < -0.6 && end.ground,
        "not standing on the block: {}",
        eye(end)
    );
    // Under a ceiling 2.2 m high the head stops the rise at once.
    let mut low = common::floor(30.0);
    low.extend(cube(Vec3::new(-5.0, 2.2, -5.0), Vec3::new(5.0, 2.4, 5.0)));
    let rows = play(
        &CollisionWorld::new(low),
        START,
        "wait 0.1\njump\nwait 1\n",
        1.0 / 120.0,
    );
    let apex = rows.iter().map(|r| eye(r).y).fold(f32::MIN, f32::max);
    assert!(apex < 2.2 && apex > 1.9, "apex under the ceiling {apex}");
}

#[test]
fn a_half_metre_box_is_climbed_by_jumping_not_by_walking() {
    let boxed = || world(cube(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, 0.5, -0.5)));
    let walked = play(&boxed(), START, "forward 2\n", 1.0 / 120.0);
    assert!((eye(walked.last().unwrap()).y - 1.6).abs() < 0.01);
    let jumped = play(
        &boxed(),
        START,
        "forward 0.5\njump\nforward 1.5\n",
        1.0 / 120.0,
    );
    let end = eye(jumped.last().unwrap());
    assert!((end.y - 2.1).abs() < 0.01 && end.z < -1.0, "{end}");
}

#[test]
fn crouching_passes_under_a_low_beam_and_stands_up_only_past_it() {
    // A beam 1.4 m up (under the 1.8 m walker, over the 1.2 m crouch), from z = -1 to -3.
    let world = world(cube(Vec3::new(-3.0, 1.4, -3.0), Vec3::new(3.0, 1.6, -1.0)));
    let standing = play(&world, START, "forward 3\n", 1.0 / 120.0);
    assert!(
        eye(standing.last().unwrap()).z > -1.0,
        "walked into the beam"
    );
    let rows = play(
        &world,
        START,
        "crouch on\nforward 2\ncrouch off\nforward 4\n",
        1.0 / 120.0,
    );
    let end = eye(rows.last().unwrap());
    assert!(end.z < -4.0, "did not pass under: {end}");
    assert!(
        (end.y - 1.6).abs() < 0.01 && !rows.last().unwrap().crouched,
        "{end}"
    );
    // Released under the beam, it stays crouched until past it.
    for r in &rows {
        let z = r.position[2];
        if z < -1.0 + 0.25 && z > -3.0 - 0.25 {
            assert!(
                r.crouched && r.position[1] < 1.1,
                "stood up under the beam at {z}"
            );
        }
    }
}

/// Found by the walking property test: the crouched ellipsoid is rounder than the
/// standing one, wider below about 0.7 m, so crouching pressed against a low box put the
/// body centimetres into it.
#[test]
fn crouching_pressed_against_a_low_box_keeps_the_rounder_body_out_of_it() {
    let top = 0.5;
    let tris = cube(Vec3::new(-2.0, 0.0, -3.0), Vec3::new(2.0, top, -1.0));
    let world = world(tris.clone());
    let rows = play(
        &world,
        START,
        "forward 2
crouch on
wait 0.5
",
        1.0 / 120.0,
    );
    let last = rows.last().unwrap();
    assert!(last.crouched, "did not crouch");
    let body = ControllerSettings::default().walk.crouched();
    let centre = body.centre_of(eye(last));
    let gap = common::nearest_ellipsoid_distance(&body, centre, &tris);
    assert!(
        gap >= 1.0 - 1e-4,
        "crouched body {centre} overlaps the box ({gap})"
    );
    // Pushed out by centimetres, not thrown.
    assert!(
        eye(last).z > -1.0 + 0.2 && eye(last).z < -1.0 + 0.35,
        "{}",
        eye(last)
    );
}

/// Found by the walking property test: dropped into a slot narrower than the body
/// between a wall and a 0.47 m box, the walker rests on the box's edge and the wall. Each
/// tick it slid a micrometre along the edge, the part toward the wall was rounded away,
/// and it sank into the edge; meanwhile its fall speed grew without bound.
#[test]
fn wedged_between_a_wall_and_a_box_edge_the_body_neither_sinks_nor_gathers_speed() {
    // Eight metres out, where a position's last place is a micrometre.
    let mut tris = cube(Vec3::new(-2.0, 0.0, -9.658), Vec3::new(2.0, 3.0, -8.658));
    tris.extend(cube(
        Vec3::new(-2.0, 0.0, -8.124),
        Vec3::new(2.0, 0.47, -7.924),
    ));
    let world = world(tris.clone());
    let body = ControllerSettings::default().walk.standing();
    let eye = Vec3::new(0.0, 2.5, -8.35);
    let mut c = Controller::new(Pose::new(eye, 0.0, 0.0), ControllerSettings::default());
    let mut rest = None;
    for step in 0..600 {
        c.step(&world, &Default::default(), 1.0 / 60.0);
        let centre = body.centre_of(c.pose.position);
        let gap = common::nearest_ellipsoid_distance(&body, centre, &tris);
        assert!(
            gap >= 1.0 - 1e-5,
            "step {step}: sank into the edge ({gap}) at {centre}"
        );
        if step == 120 {
            rest = Some(c.pose.position);
        }
    }
    let (rest, end) = (rest.unwrap(), c.pose.position);
    assert!(
        (end - rest).length() < 1e-5,
        "moved from {rest} to {end} while wedged"
    );
    assert!(
        c.walk.vertical_speed.abs() < 1.0,
        "fall speed {}",
        c.walk.vertical_speed
    );
}

#[test]
fn a_jump_beside_a_step_is_never_snapped_onto_it_while_rising() {
    // Pressed against a 0.4 m step (climbable), then a jump straight up: floor follow must
    // not pull the rising body onto the step's nose; it rises the full 0.9 m.
    let world = world(cube(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, 0.4, -0.5)));
    let start = Vec3::new(0.0, 1.6, -0.5 + 0.3);
    let rows = play(&world, start, "wait 0.2\njump\nwait 0.6\n", 1.0 / 120.0);
    let takeoff = rows.iter().find(|r| r.t > 0.19).unwrap().file_point()[1];
    let apex = rows
        .iter()
        .map(|r| r.file_point()[1])
        .fold(f32::MIN, f32::max);
    assert!(
        (apex - takeoff - 0.9).abs() < 0.02,
        "rose {} m",
        apex - takeoff
    );
    // Rising, the eye climbs every step until the apex: never pulled down on the way up.
    let rising: Vec<f32> = rows
        .iter()
        .skip_while(|r| r.t < 0.21)
        .take_while(|r| r.file_point()[1] < apex)
        .map(|r| r.file_point()[1])
        .collect();
    assert!(rising.windows(2).all(|w| w[1] >= w[0]), "{rising:?}");
}

#[test]
fn floor_pieces_1_cm_apart_in_height_do_not_stick() {
    // Tiles 0.5 m deep, every other one 1 cm higher.
    let mut tiles = vec![];
    for k in 0..30 {
        let h = if k % 2 == 0 { 0.0 } else { 0.01 };
        let z = 1.0 - k as f32 * 0.5;
        tiles.extend(cube(Vec3::new(-2.0, -0.5, z - 0.5), Vec3::new(2.0, h, z)));
    }
    let world = CollisionWorld::new(tiles);
    let rows = play(
        &world,
        Vec3::new(0.0, 1.6, 0.75),
        "wait 0.1\nforward 3\n",
        1.0 / 120.0,
    );
    let end = eye(rows.last().unwrap());
    // 3 s at 3 m/s, less the body's settling: at least 97% of the way.
    assert!(end.z < 0.75 - 0.97 * 9.0, "stuck: {end}");
    assert!(rows.iter().skip_while(|r| !r.ground).all(|r| r.ground));
}

#[test]
fn bumps_of_2_cm_are_crossed_smoothly() {
    // Bumps 2 cm high and 10 cm deep every metre.
    let mut bumps = vec![];
    for k in 0..12 {
        let z = -0.5 - k as f32;
        bumps.extend(cube(Vec3::new(-2.0, 0.0, z - 0.1), Vec3::new(2.0, 0.02, z)));
    }
    let rows = play(&world(bumps), START, "wait 0.1\nforward 3\n", 1.0 / 120.0);
    let moving: Vec<&TraceRow> = rows.iter().filter(|r| r.t > 0.2).collect();
    for w in moving.windows(2) {
        let (a, b) = (eye(w[0]), eye(w[1]));
        let dz = a.z - b.z;
        assert!(
            dz > 0.9 * 3.0 / 120.0,
            "slowed to {} m/s at {a}",
            dz * 120.0
        );
        assert!((b.y - a.y).abs() < 0.021, "jolted {} m at {a}", b.y - a.y);
        assert!(w[1].ground, "left the ground at {b}");
    }
}

#[test]
fn sliding_along_a_tilted_wall_gains_no_speed() {
    // A wall leaning back 20 degrees from vertical, too steep to walk, met at 30 degrees.
    let lean = 20f32.to_radians();
    let top = Vec3::new(0.0, 3.0, -1.0 - 3.0 * lean.tan());
    let (a, b) = (Vec3::new(-20.0, 0.0, -1.0), Vec3::new(20.0, 0.0, -1.0));
    let (c, d) = (
        Vec3::new(20.0, top.y, top.z),
        Vec3::new(-20.0, top.y, top.z),
    );
    let world = world(vec![[a, b, c], [a, c, d]]);
    for response in ["slide", "stop"] {
        let script = format!("response {response}\nturn 30\nforward 3\n");
        let rows = play(&world, START, &script, 1.0 / 120.0);
        for w in rows.windows(2) {
            let (p, q) = (eye(&w[0]), eye(&w[1]));
            let horizontal = Vec3::new(q.x - p.x, 0.0, q.z - p.z).length();
            assert!(
                horizontal <= 3.0 / 120.0 * 1.001,
                "{response}: {} m/s at {p}",
                horizontal * 120.0
            );
            assert!(
                q.y <= p.y + 1e-4 || !w[1].ground,
                "{response}: climbed the wall at {q}"
            );
        }
    }
}

/// Found by the walking property test: spawned with its feet inside a 0.95 m box, the
/// walker was pushed out along the box top's normal, down, and ended under the floor.
#[test]
fn a_walker_spawned_with_its_feet_inside_a_box_stands_on_the_box() {
    let world = world(cube(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.95, 1.0)));
    let rows = play(&world, Vec3::new(0.2, 1.6, 0.3), "wait 0.5\n", 1.0 / 120.0);
    let end = eye(rows.last().unwrap());
    assert!((end.y - (0.95 + 1.6)).abs() < 0.01, "{end}");
    assert!(
        (end.x - 0.2).abs() < 1e-3 && (end.z - 0.3).abs() < 1e-3,
        "{end}"
    );
    assert!(rows.last().unwrap().ground);
}

#[test]
fn the_stance_tells_ground_jump_fall_crouch_and_flight() {
    use walkthrough_core::player::{Mode, MoveIntent, Stance};
    let world = world(vec![]);
    let mut c = Controller::new(
        Pose::new(Vec3::new(0.0, 3.0, 0.0), 0.0, 0.0),
        ControllerSettings::default(),
    );
    let idle = MoveIntent::default();
    c.step(&world, &idle, 1.0 / 120.0);
    assert_eq!(c.stance(), Stance::Falling);
    for _ in 0..120 {
        c.step(&world, &idle, 1.0 / 120.0);
    }
    assert_eq!(c.stance(), Stance::OnGround);
    let jump = MoveIntent { jump: true, ..idle };
    c.step(&world, &jump, 1.0 / 120.0);
    assert_eq!(c.stance(), Stance::Rising);
    for _ in 0..240 {
        c.step(&world, &idle, 1.0 / 120.0);
    }
    let crouch = MoveIntent {
        crouch: true,
        ..idle
    };
    c.step(&world, &crouch, 1.0 / 120.0);
    assert_eq!(c.stance(), Stance::Crouched);
    c.settings.mode = Mode::Fly;
    assert_eq!((c.stance(), c.stance().name()), (Stance::Flying, "flying"));
}

#[test]
fn the_same_script_walks_the_same_path_at_any_time_step() {
    let world = stairs();
    let script = "forward 1.5\njump\nforward 1\nturn 45\nforward 1\nwait 1\n";
    let ends: Vec<(Vec3, f32)> = [1.0 / 60.0, 1.0 / 120.0, 1.0 / 240.0, DT_TEN_DIGITS]
        .iter()
        .map(|&dt| {
            let rows = play(&world, START, script, dt);
            let apex = rows
                .iter()
                .map(|r| r.file_point()[1])
                .fold(f32::MIN, f32::max);
            (eye(rows.last().unwrap()), apex)
        })
        .collect();
    for (e, apex) in &ends[1..] {
        assert!((*e - ends[0].0).length() < 0.01, "{e} vs {}", ends[0].0);
        assert!(
            (apex - ends[0].1).abs() < 0.01,
            "apex {apex} vs {}",
            ends[0].1
        );
    }
}

#[test]
fn dt_written_to_ten_digits_runs_two_ticks_every_step() {
    use walkthrough_core::player::MoveIntent;
    let w = world(vec![]);
    let mut c = Controller::new(Pose::new(START, 0.0, 0.0), ControllerSettings::default());
    let intent = MoveIntent {
        forward: 1.0,
        ..Default::default()
    };
    for step in 0..100_000 {
        let before = c.pose.position.z;
        c.step(&w, &intent, DT_TEN_DIGITS);
        let moved = before - c.pose.position.z;
        assert!(
            (moved - 3.0 * 2.0 / 240.0).abs() < 1e-4,
            "step {step} moved {moved}"
        );
    }
}

/// The property test's case `PROPTEST_RNG_SEED=930641385` (run, jump, crouch in stop
/// mode, Möller–Trumbore, 1/60 s): the walker came to rest wedged between the room's wall
/// and a box's top edge, a slot 0.593 m wide, and sank 22 micrometres a step into the
/// edge (30 micrometres inside it after 223 steps). Each tick's fall slid a few
/// micrometres down the edge's tangent plane; the part of that leg toward the wall was
/// under half an `f32` step and rounded away, the part down the edge was not. Legs are now
/// rounded off the planes they slide along.
#[test]
fn a_walker_wedged_between_a_wall_and_a_box_edge_does_not_sink_into_the_edge() {
    use common::nearest_ellipsoid_distance;
    use walkthrough_core::collision::Response;
    use walkthrough_core::geometry::InsideMethod;
    use walkthrough_core::player::{Controller, MoveIntent};
    let half = Vec3::new(7.7475657, 2.8777132, 9.159032);
    let mut tris = cube(-half, half);
    let (x, z, w, d, h) = (-7.589079, 6.361399, 1.6962242, 2.2045698, 0.80898553);
    tris.extend(cube(
        Vec3::new(x, -half.y, z),
        Vec3::new(x + w, -half.y + h, (z + d).min(half.z)),
    ));
    let world = CollisionWorld::new(tris.iter().copied());
    let settings = ControllerSettings {
        speed: 14.866938,
        response: Response::Stop,
        method: InsideMethod::MollerTrumbore,
        ..ControllerSettings::default()
    };
    let eye = Vec3::new(-6.4357853, -half.y + 1.6, 0.0);
    let mut c = Controller::new(Pose::new(eye, 0.0, 0.0), settings);
    let dt = 1.0 / 60.0;
    c.step(&world, &MoveIntent::default(), dt);
    // (forward, strafe, turn, run, jump, crouch, steps), as the property test played them.
    let keys = [
        (-1.0, -1.0, 46.64526, true, true, true, 75),
        (-1.0, -1.0, -95.7577, false, false, false, 86),
        (0.0, 1.0, 102.05738, false, false, false, 65),
        (1.0, 0.0, 151.8746, true, false, false, 81),
        (0.0, 1.0, -146.41927, false, false, false, 19),
        (0.0, 0.0, -159.52739, true, false, false, 10),
        (0.0, -1.0, 20.020327, false, false, false, 47),
        (1.0, 0.0, -12.54444, false, false, true, 6),
        (0.0, 1.0, -177.56606, true, false, false, 32),
    ];
    let mut wedged = 0;
    for (forward, strafe, turn, run, jump, crouch, steps) in keys {
        c.pose.yaw_deg += turn;
        for i in 0..steps {
            let intent = MoveIntent {
                forward,
                strafe,
                run,
                jump: jump && i == 0,
                crouch,
                ..MoveIntent::default()
            };
            c.step(&world, &intent, dt);
            let body = c.body();
            let centre = body.centre_of(c.pose.position);
            let gap = nearest_ellipsoid_distance(&body, centre, &tris);
            assert!(gap >= 1.0 - 1e-5, "sank into the edge: {gap} at {centre}");
            wedged += usize::from(c.walk.wedged);
        }
    }
    assert!(
        wedged > 100,
        "the case never wedged the walker ({wedged} steps)"
    );
}

/// A walker wedged in a slot narrower than itself (between a wall
/// and a 0.8 m box, 0.59 m apart) rests on the box's edge and the wall with no ground
/// under it, and could not jump out. Wedged counts as standing for a jump.
#[test]
fn a_walker_wedged_in_a_slot_narrower_than_itself_can_jump_out() {
    let mut t = cube(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 4.0, 0.1));
    t.extend(cube(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.8, -0.59)));
    let world = world(t);
    // Dropped over the slot; then jump and walk onto the box.
    let rows = play(
        &world,
        Vec3::new(0.0, 3.0, -0.3),
        "wait 1\njump\nforward 0.6\nwait 0.5\n",
        1.0 / 120.0,
    );
    let held = &rows[115];
    assert!(
        !held.ground && held.position[1] > 1.0 && held.position[1] < 2.5,
        "not wedged over the slot: {held:?}"
    );
    let end = rows.last().unwrap();
    assert!(
        end.ground && (end.position[1] - (0.8 + 1.6)).abs() < 0.01 && end.position[2] < -0.9,
        "did not get out onto the box: {end:?}"
    );
}

/// Up the stairs no step is a wall's: every step the stairs change is a climb (the HUD
/// flashed SLIDING at each step-up), while a wall still blocks.
#[test]
fn a_step_climbed_is_no_slide_on_the_hud() {
    let forward = MoveIntent {
        forward: 1.0,
        ..MoveIntent::default()
    };
    let walk = |world: &CollisionWorld| {
        let mut walker = Controller::new(Pose::new(START, 0.0, 0.0), ControllerSettings::default());
        (0..300)
            .map(|_| walker.step(world, &forward, 1.0 / 120.0))
            .collect::<Vec<_>>()
    };
    let up = walk(&stairs());
    let climbs = up.iter().filter(|r| r.stepped_up > 0.0).count();
    let hits = up.iter().filter(|r| r.hit).count();
    let blocked = up.iter().filter(|r| r.blocked()).count();
    // Eight stairs, each climbed over several steps (a round body rolls up a nose),
    // every first try blocked by the riser it then climbs.
    assert!(
        climbs >= 8 && hits >= climbs,
        "{climbs} climbs, {hits} hits"
    );
    assert_eq!(blocked, 0, "{blocked} steps up the stairs read as a wall's");
    let wall = world(cube(Vec3::new(-2.0, 0.0, -3.0), Vec3::new(2.0, 3.0, -2.0)));
    let into = walk(&wall);
    let blocked = into.iter().filter(|r| r.blocked()).count();
    // The body reaches the wall 3.7 m ahead in about 1.2 s; pressed into it from there
    // to the end (2.5 s), every step is blocked.
    assert!(
        blocked > 120 && into[200..].iter().all(|r| r.blocked()),
        "{blocked} blocked steps against a wall"
    );
    // Head-on into it, a slide goes nowhere: held, as a stop is (the HUD's STOPPED, not
    // SLIDING).
    assert!(
        into[200..].iter().all(|r| r.held()),
        "a head-on slide not held"
    );
    // Into it at 20 degrees from head-on, the slide moves on along it.
    let mut walker = Controller::new(Pose::new(START, 20.0, 0.0), ControllerSettings::default());
    let along: Vec<_> = (0..300)
        .map(|_| walker.step(&wall, &forward, 1.0 / 120.0))
        .collect();
    let sliding: Vec<_> = along.iter().filter(|r| r.blocked()).collect();
    assert!(sliding.len() > 20, "{} steps along the wall", sliding.len());
    assert!(
        sliding.iter().all(|r| !r.held()),
        "a slide along the wall held"
    );
    // Head-on and falling (the fall's own motion read as a slide).
    let mut walker = Controller::new(
        Pose::new(Vec3::new(0.0, 3.5, -1.5), 0.0, 0.0),
        ControllerSettings::default(),
    );
    let falling: Vec<_> = (0..40)
        .map(|_| walker.step(&wall, &forward, 1.0 / 120.0))
        .filter(|r| r.blocked() && r.moved > r.moved_across + 0.005)
        .collect();
    assert!(!falling.is_empty(), "no blocked step while falling");
    assert!(
        falling.iter().all(|r| r.held()),
        "a fall against the wall read as a slide"
    );
}

/// Once a steep face met first by the floor's follow was no floor at
/// all, a walker pressed into the foot of a 50-degree ramp lost the ground every other
/// tick (the HUD said falling, jumps were lost). A settling slide down a steep face (the
/// contact gap) keeps the floor; only a slide that takes the body well aside is refused.
#[test]
fn pressed_into_the_foot_of_a_steep_ramp_the_walker_stays_on_the_ground() {
    for deg in [46.0f32, 50.0, 60.0, 75.0] {
        let ramp = ramp(deg);
        for dt in [1.0f32 / 120.0, 1.0 / 60.0] {
            let mut c = Controller::new(
                Pose::new(Vec3::new(0.0, 1.6, 0.5), 0.0, 0.0),
                ControllerSettings::default(),
            );
            let forward = MoveIntent {
                forward: 1.0,
                ..MoveIntent::default()
            };
            // Into the ramp for 1.5 s: on the ground from the first half second on.
            let steps = (1.5 / dt) as usize;
            let mut air = 0;
            for k in 0..steps {
                c.step(&ramp, &forward, dt);
                air += usize::from(k as f32 * dt > 0.5 && !c.walk.on_ground());
            }
            assert_eq!(
                air, 0,
                "{deg} degrees at dt {dt}: {air} steps off the ground"
            );
            // A jump from there goes off.
            let jump = MoveIntent {
                jump: true,
                ..forward
            };
            c.step(&ramp, &jump, dt);
            assert!(
                c.walk.vertical_speed > 1.0,
                "{deg} degrees at dt {dt}: the jump was lost"
            );
        }
    }
}

/// Down a Doom level's stairs (0.51 m a step) the view dropped each
/// step at once, while a climb is eased. A step down is eased the same way: the drawn
/// eye comes down over the view's smoothing, the physical one (the trace's) at once.
#[test]
fn a_step_down_is_eased_in_the_view_as_a_climb_is() {
    // A landing 0.44 m high (z from -10 to 0), a drop to the floor at z 0, walked off
    // toward +z.
    let mut tris = cube(Vec3::new(-3.0, -1.0, -10.0), Vec3::new(3.0, 0.44, 0.0));
    tris.extend(cube(Vec3::new(-3.0, -1.0, 0.0), Vec3::new(3.0, 0.0, 10.0)));
    let stairs = CollisionWorld::new(tris);
    let mut c = Controller::new(
        Pose::new(Vec3::new(0.0, 2.04, -1.0), 180.0, 0.0),
        ControllerSettings::default(),
    );
    let forward = MoveIntent {
        forward: 1.0,
        ..MoveIntent::default()
    };
    // How far the drawn eye is above the physical one, at most.
    let mut lag = 0.0f32;
    for _ in 0..120 {
        c.step(&stairs, &forward, 1.0 / 120.0);
        lag = lag.max(c.view_pose().position.y - c.pose.position.y);
    }
    assert!(
        c.pose.position.z > 1.0,
        "walked off the landing: {:?}",
        c.pose.position
    );
    assert!(
        (c.pose.position.y - 1.6).abs() < 0.01,
        "on the floor: {:?}",
        c.pose.position
    );
    assert!(
        lag > 0.15,
        "the view lagged the step down by {lag} m at most"
    );
}

/// A body on a slope steeper than walkable crept down it at a few
/// centimetres a second (its fall capped at what the slope let it fall), so a walker
/// dropped on a 60-degree ramp 0.5 m up was still on it seconds later. It slides down as
/// a ball on a frictionless incline: 0.58 m along the slope at g sin 60 takes 0.37 s.
#[test]
fn a_body_on_a_slope_too_steep_to_stand_on_slides_down_it() {
    let ramp = ramp(60.0);
    // Feet over the ramp where it is 0.5 m high, standing still.
    let z = -0.5 - 0.5 / 60f32.to_radians().tan();
    let mut c = Controller::new(
        Pose::new(Vec3::new(0.0, 0.5 + 1.62, z), 0.0, 0.0),
        ControllerSettings::default(),
    );
    let dt = 1.0 / 120.0;
    let landed = (0..240)
        .position(|_| {
            c.step(&ramp, &MoveIntent::default(), dt);
            c.walk.on_ground() && c.pose.position.y < 1.61
        })
        .map(|k| (k + 1) as f32 * dt);
    let t = landed.unwrap_or_else(|| panic!("still on the ramp after 2 s: {:?}", c.pose.position));
    assert!(t < 0.7, "took {t} s to slide down");
}

/// Pressed up the dungeon's 47-degree rock face the walker hovered on it, and the HUD
/// said "falling" all the while: on a slope too steep to stand
/// on, sliding down it or walked up it, the stance says so, falling or not each tick.
#[test]
fn on_a_slope_too_steep_to_stand_on_the_hud_says_so_not_falling() {
    let ramp = ramp(60.0);
    let z = -0.5 - 0.5 / 60f32.to_radians().tan();
    let dt = 1.0 / 120.0;
    for (forward, what) in [(0.0, "left alone"), (1.0, "walked up it")] {
        let mut c = Controller::new(
            Pose::new(Vec3::new(0.0, 0.5 + 1.62, z), 0.0, 0.0),
            ControllerSettings::default(),
        );
        let intent = MoveIntent {
            forward,
            ..MoveIntent::default()
        };
        let stances: Vec<Stance> = (0..60)
            .map(|_| {
                c.step(&ramp, &intent, dt);
                c.stance()
            })
            .collect();
        let first = stances
            .iter()
            .position(|s| *s == Stance::SteepSlope)
            .unwrap_or_else(|| panic!("{what}: never on the slope: {stances:?}"));
        let falling = stances[first..]
            .iter()
            .take_while(|s| **s != Stance::OnGround)
            .filter(|s| **s == Stance::Falling)
            .count();
        assert_eq!(falling, 0, "{what}: {stances:?}");
        assert_eq!(
            Stance::SteepSlope.name(),
            "on a slope too steep to stand on"
        );
    }
    // The user's own case: the walk up the rock face and the slide down it alternate
    // tick by tick, and the ticks that only walked read as falling (a plain ramp above
    // slides the body down whether walked up or not, so only this case asks the walk's
    // own contact with the slope; no generated ramp tried, 46 to 70 degrees, alternates).
    let Some(dir) = common::shared("levels") else {
        return;
    };
    let path = dir.join("recast_dungeon/dungeon.obj");
    let s = walkthrough_core::session::Session::open(Some(&path), &Default::default()).unwrap();
    let script = "start 22.2,26.2,-73.5 -149.3 0\nwait 0.3\nforward 3\n";
    let script = parse_script("jit3.txt", script).unwrap();
    let mut c = Controller::new(s.start_pose(None), ControllerSettings::default());
    let mut player = walkthrough_core::sim::ScriptPlayer::new(script, dt);
    let mut stances = vec![];
    while let Some(intent) = player.next_step(&mut c) {
        c.step(s.collider(), &intent, dt);
        stances.push(c.stance());
    }
    let pressed = &stances[60..];
    let count = |which: Stance| pressed.iter().filter(|s| **s == which).count();
    assert_eq!(count(Stance::Falling), 0, "{pressed:?}");
    assert!(count(Stance::SteepSlope) > pressed.len() / 2, "{pressed:?}");
}

/// A tick that reads just what the last one read is taken from the walker's memory, not
/// worked out again (pressed into conference's furniture, one tick of 9 to 14
/// sweeps repeated for a second at a time). The walk is the very same walk, to the bit,
/// as one that never remembers (a recorder names no revision): up stairs, pressed into a
/// corner, standing, jumping, crouching. Pressed into the corner, and standing, a step
/// sweeps nothing.
#[test]
fn a_tick_that_repeats_the_last_is_reused_and_walks_the_same_path() {
    let mut tris = common::corner::corner();
    // Stairs beside the corner, toward -z from x = -3.
    for k in 0..4 {
        let top = (k + 1) as f32 * 0.18;
        let near = -0.5 - k as f32 * 0.28;
        tris.extend(cube(Vec3::new(-3.5, 0.0, -3.0), Vec3::new(-2.5, top, near)));
    }
    let world = CollisionWorld::new(tris);
    let script = "start -3,1.6,1 0 0\nforward 2\nstart 0.55,1.6,-0.55 0 0\nkeys forward+right 1\n\
                  wait 0.5\njump\nwait 1\ncrouch on\nkeys forward+right 0.5\ncrouch off\n\
                  wait 0.5\nturn 135\nforward 1\n";
    let script = parse_script("memo.txt", script).unwrap();
    let settings = ControllerSettings::default();
    let dt = 1.0 / 120.0;
    let rows = |world: &dyn Collider| {
        let mut c = Controller::new(Pose::new(START, 0.0, 0.0), settings);
        run_to_rows(world, &MapFrame::default(), &mut c, &script, dt)
    };
    let counted = Counted::new(&world);
    let remembering = rows(&counted);
    let mut account = Account::default();
    let forgetting = rows(&Recorder::new(&world, &mut account));
    assert_eq!(remembering.len(), forgetting.len());
    for (a, b) in remembering.iter().zip(&forgetting) {
        // Debug tells -0 from 0, and prints each float to its last bit.
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
    // Half of this script is standing or pressed: it sweeps about half as much.
    assert!(
        counted.sweeps.get() * 10 < account.sweeps * 7,
        "remembering {} sweeps, forgetting {}",
        counted.sweeps.get(),
        account.sweeps
    );
    // The last half second of the press into the corner, and standing: no sweep at all.
    let mut walker = Controller::new(Pose::new(Vec3::new(0.55, 1.6, -0.55), 0.0, 0.0), settings);
    let press = MoveIntent {
        forward: 1.0,
        strafe: 1.0,
        ..MoveIntent::default()
    };
    for intent in [press, MoveIntent::default()] {
        for _ in 0..120 {
            walker.step(&counted, &intent, dt as f32);
        }
        let before = counted.sweeps.get();
        let at = walker.pose.position;
        for _ in 0..60 {
            walker.step(&counted, &intent, dt as f32);
        }
        assert_eq!(counted.sweeps.get(), before, "{intent:?}");
        assert_eq!(walker.pose.position, at);
        assert!(walker.walk.on_ground());
    }
}

/// A remembered tick is never reused once the world has changed under the walker: the
/// same world object scaled in place (the window's scale keys) is another revision.
#[test]
fn a_remembered_tick_is_not_reused_once_the_world_is_scaled() {
    let raised: Vec<[Vec3; 3]> = common::floor(30.0)
        .into_iter()
        .map(|t| t.map(|v| v + Vec3::Y))
        .collect();
    let mut world = CollisionWorld::new(raised);
    let mut walker = Controller::new(
        Pose::new(Vec3::new(0.0, 2.6, 0.0), 0.0, 0.0),
        ControllerSettings::default(),
    );
    let still = MoveIntent::default();
    for _ in 0..120 {
        walker.step(&world, &still, 1.0 / 120.0);
    }
    assert!((walker.pose.position.y - 2.6).abs() < 0.01);
    let before = world.revision();
    world.scale_by(0.5);
    assert_ne!(world.revision(), before);
    for _ in 0..120 {
        walker.step(&world, &still, 1.0 / 120.0);
    }
    let eye = walker.pose.position.y;
    assert!(
        (eye - 2.1).abs() < 0.01,
        "fell to the floor at 0.5 m: eye {eye}"
    );
    assert!(walker.walk.on_ground());
}
