//! The third-person camera: random walks through generated buildings,
//! frame by frame at random frame times, the boom swept each frame; the camera must
//! never end a frame inside the map. The oracle is independent of the code under test:
//! parry3d's distance from the camera to the map's mesh, and its ray cast along the boom
//! (the camera never sees through a wall). And the view changes no trace.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::Rng;
use common::buildings::{self, Level};
use parry3d::math::Vector;
use parry3d::query::{PointQuery, Ray, RayCast};
use parry3d::shape::TriMesh;
use walkthrough_core::collision::SKIN;
use walkthrough_core::map::UpAxis;
use walkthrough_core::player::{
    BOOM_LENGTH_RANGE, Boom, BoomSettings, Controller, ControllerSettings, MoveIntent,
};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::test_kit::obj::obj_text_in;

/// Frames in all (CI's run; `WALKTHROUGH_FUZZ_SCALE` multiplies it).
const FRAMES: usize = 100_000;
/// The walk's fixed step, as the window takes it.
const STEP: f32 = 1.0 / 120.0;
/// Rounding allowed in the camera's distance to the map, metres.
const SLACK: f32 = 2e-3;

fn mesh(tris: &[[glam::Vec3; 3]]) -> TriMesh {
    let verts: Vec<Vector> = tris
        .iter()
        .flatten()
        .map(|v| Vector::new(v.x, v.y, v.z))
        .collect();
    let idx: Vec<[u32; 3]> = (0..tris.len() as u32)
        .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
        .collect();
    TriMesh::new(verts, idx).expect("valid mesh")
}

/// `level` written as an OBJ (Y up, metres) and opened as the window opens a map.
fn open(level: &Level, dir: &std::path::Path) -> Session {
    let path: PathBuf = dir.join(format!("{}.obj", level.name.replace(' ', "_")));
    std::fs::write(&path, obj_text_in(&level.tris, false, 1.0)).unwrap();
    let opts = OpenOptions {
        scale: Some(1.0),
        up: Some(UpAxis::Y),
        ..OpenOptions::default()
    };
    Session::open(Some(&path), &opts).expect("a generated level opens")
}

/// A random intent held for a while: walking, strafing, running, jumping, crouching.
fn random_intent(rng: &mut Rng) -> MoveIntent {
    let axis = |rng: &mut Rng| (rng.next_u64() % 3) as f32 - 1.0;
    MoveIntent {
        forward: axis(rng),
        strafe: axis(rng),
        vertical: 0.0,
        run: rng.f() < 0.3,
        jump: rng.f() < 0.1,
        crouch: rng.f() < 0.15,
        ..MoveIntent::default()
    }
}

/// Walk `frames` frames through `session` from its spawn, the boom swept each frame, and
/// check where the camera ends every frame. Returns the frames the boom was cut short.
fn walk_checking_the_camera(
    session: &Session,
    tris: &[[glam::Vec3; 3]],
    frames: usize,
    seed: u64,
) -> usize {
    let oracle = mesh(tris);
    let mut rng = Rng(seed);
    let mut c = Controller::new(session.start_pose(None), ControllerSettings::default());
    let mut boom = Boom::default();
    let mut settings = BoomSettings::default();
    let (mut intent, mut held, mut owed) = (MoveIntent::default(), 0.0f32, 0.0f32);
    let (mut yaw_rate, mut pitch_rate) = (0.0f32, 0.0f32);
    let mut blocked = 0;
    for frame in 0..frames {
        if held <= 0.0 {
            intent = random_intent(&mut rng);
            held = rng.range(0.2, 2.0);
            yaw_rate = rng.range(-180.0, 180.0);
            pitch_rate = rng.range(-60.0, 60.0);
            if rng.f() < 0.2 {
                settings.length = rng.range(*BOOM_LENGTH_RANGE.start(), *BOOM_LENGTH_RANGE.end());
            }
        }
        let dt = rng.range(1.0 / 240.0, 1.0 / 20.0);
        held -= dt;
        // The mouse turns the eye between steps, as in the window.
        c.pose.turn(yaw_rate * dt, pitch_rate * dt);
        owed += dt;
        while owed >= STEP {
            owed -= STEP;
            c.step(session.collider(), &intent, STEP);
            intent.jump = false;
        }
        let eye = c.view_pose();
        let v = boom.frame(session.collider(), &settings, c.pose.position, &eye, dt);
        let cam = v.pose.position;
        blocked += usize::from(v.blocked);
        let at = Vector::new(cam.x, cam.y, cam.z);
        let gap = oracle.distance_to_local_point(at, false);
        let head = c.pose.position;
        let eye_gap = oracle.distance_to_local_point(Vector::new(head.x, head.y, head.z), false);
        // Never inside: the near plane never reaches a wall.
        assert!(
            gap >= SKIN - SLACK,
            "frame {frame}: the camera at {cam} is {gap} m from the map (eye {eye:?})"
        );
        // The sphere's radius from every triangle, unless the head itself is nearer.
        if eye_gap >= settings.radius {
            assert!(
                gap >= settings.radius - SLACK,
                "frame {frame}: the camera at {cam} is {gap} m from the map, under the boom's radius"
            );
        }
        // Nothing on the boom's path from the head (to the pivot, then to the camera): no
        // wall seen through.
        for (a, b) in [(head, v.pivot), (v.pivot, cam)] {
            let d = b - a;
            if d.length() > 1e-5 {
                let ray = Ray::new(Vector::new(a.x, a.y, a.z), Vector::new(d.x, d.y, d.z));
                let hit = oracle.cast_local_ray(&ray, 1.0, false);
                assert!(
                    hit.is_none(),
                    "frame {frame}: the boom from {a} to {b} crosses the map at {hit:?}"
                );
            }
        }
    }
    blocked
}

#[test]
fn the_third_person_camera_never_ends_a_frame_inside_the_map_on_random_walks() {
    let dir = std::env::temp_dir().join(format!("walkthrough-third-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let levels = [
        buildings::single_room(),
        buildings::house(),
        buildings::corridor_maze(),
        buildings::office_floor(),
        buildings::apartment_block(),
    ];
    let frames = FRAMES * common::fuzz_scale() as usize;
    let walks = 4;
    let per_walk = frames / (levels.len() * walks);
    let mut blocked = 0;
    for (l, level) in levels.iter().enumerate() {
        let session = open(level, &dir);
        for w in 0..walks {
            let seed = 0x9E37_79B9_7F4A_7C15 ^ ((l * walks + w) as u64 + 1);
            blocked += walk_checking_the_camera(&session, &level.tris, per_walk, seed);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The walks do meet walls behind them (else the test tests nothing).
    assert!(
        blocked > frames / 20,
        "the boom was cut short only {blocked} times"
    );
}

/// The built-in map's `sim` run of `script`: its trace.
fn sim_trace(script: &str, name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("walkthrough-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, script).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        .env("WALKTHROUGH_CONFIG_DIR", dir.join("config"))
        .env("WALKTHROUGH_CACHE_DIR", dir.join("cache"))
        .args(["sim", "--script", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_trace_with_view_third_is_byte_for_byte_the_trace_with_view_first() {
    let walk = "forward 1.5\nturn 60\njump\nforward 1\ncrouch on\nright 0.5\n";
    let third = sim_trace(
        &format!("view third\n{walk}view first\nback 0.5\n"),
        "third.txt",
    );
    let first = sim_trace(
        &format!("view first\n{walk}view third\nback 0.5\n"),
        "first.txt",
    );
    assert!(third.lines().count() > 300, "{third}");
    assert_eq!(third, first);
    // And with no view line at all.
    assert_eq!(third, sim_trace(&format!("{walk}back 0.5\n"), "none.txt"));
}
