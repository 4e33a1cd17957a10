//! Headless walking: controller steps per second on the built-in map, on conference
//! (331k triangles) and in a scene of 100,000 placements, the person walking, turning, jumping and running into things at the
//! default 1/120 s step (two 1/240 s physics ticks each). Also counts the sweeps a step
//! costs, since walking with gravity, step-ups and floor follow sweeps more than flying.
//!
//! `cargo bench --bench walk`; conference needs ../shared (prints SKIPPED otherwise).

mod common;

use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Affine3A, Vec3};
use walkthrough::camera::{Controller, Mode, MoveIntent, Pose, Settings};
use walkthrough::collision::{Account, Collider, CollisionWorld, InstancedWorld, Recorder};
use walkthrough::map::scene::MAX_PLACEMENTS;
use walkthrough::names::Named;
use walkthrough::session::{OpenOptions, Session};
use walkthrough::sim::DEFAULT_DT;

/// Steps per measured batch: 10 s of walking.
const STEPS: usize = 1200;

/// The player's keys at step `i`: forward, a turn every second, a jump every 3 s.
fn intent(i: usize) -> (MoveIntent, f32) {
    let turn = if i.is_multiple_of(120) { 77.0 } else { 0.0 };
    let intent = MoveIntent {
        forward: 1.0,
        strafe: if (i / 240).is_multiple_of(2) {
            0.0
        } else {
            0.5
        },
        jump: i % 360 == 180,
        ..MoveIntent::default()
    };
    (intent, turn)
}

fn walk(c: &mut Criterion, name: &str, world: &dyn Collider, start: Pose, mode: Mode) {
    let settings = Settings {
        mode,
        ..Settings::default()
    };
    let run = |world: &dyn Collider| {
        let mut ctl = Controller::new(start, settings);
        for i in 0..STEPS {
            let (intent, turn) = intent(i);
            ctl.pose.yaw_deg += turn;
            ctl.step(world, &intent, DEFAULT_DT as f32);
        }
        ctl.pose.position
    };
    // One unmeasured walk through the debug view's recorder counts the sweeps.
    let mut account = Account::default();
    let t0 = Instant::now();
    run(&Recorder::new(world, &mut account));
    eprintln!(
        "{name} {}: {:.1} sweeps a step ({:.0} ms for {STEPS} steps, unmeasured warm-up)",
        mode.name(),
        account.sweeps as f64 / STEPS as f64,
        t0.elapsed().as_secs_f64() * 1e3
    );
    let mut g = c.benchmark_group(format!("walk/{name}"));
    g.throughput(Throughput::Elements(STEPS as u64));
    g.sample_size(20);
    g.bench_function(mode.name(), |b| b.iter(|| run(world)));
    g.finish();
}

fn open(c: &mut Criterion, name: &str, session: &Session) {
    for mode in [Mode::Walk, Mode::Fly] {
        walk(c, name, session.collider(), session.start_pose(None), mode);
    }
}

fn builtin(c: &mut Criterion) {
    let session = Session::open(None, &OpenOptions::default()).expect("built-in map");
    open(c, "builtin", &session);
}

fn conference(c: &mut Criterion) {
    let Some(path) = common::shared_map("conference") else {
        eprintln!("conference benchmarks SKIPPED: ../shared/maps/conference not found");
        return;
    };
    let session = Session::open(Some(&path), &OpenOptions::default()).expect("conference");
    open(c, "conference", &session);
}

/// A scene at the placement limit: a floor and 99,999 crates (1 m boxes on a 3 m grid),
/// every one a placement of the same model. Each sweep reaches the crates near it through
/// the placements' BVH.
fn placements(c: &mut Criterion) {
    let floor = CollisionWorld::new(common::test_common::floor(1000.0));
    let crate_ = CollisionWorld::new(common::test_common::cube(Vec3::ZERO, Vec3::ONE));
    let mut world = InstancedWorld::new(vec![floor, crate_]);
    world.place(0, Affine3A::IDENTITY).expect("floor");
    let side = (MAX_PLACEMENTS as f64).sqrt().ceil() as usize;
    for k in 0..MAX_PLACEMENTS - 1 {
        let (i, j) = ((k % side) as f32, (k / side) as f32);
        let at = Vec3::new(i * 3.0 - 450.0, 0.0, j * 3.0 - 450.0);
        world
            .place(1, Affine3A::from_translation(at))
            .expect("crate");
    }
    let start = Pose::new(Vec3::new(1.5, 1.6, 1.5), 0.0, 0.0);
    for mode in [Mode::Walk, Mode::Fly] {
        walk(c, "100k_placements", &world, start, mode);
    }
}

criterion_group!(benches, builtin, conference, placements);
criterion_main!(benches);
