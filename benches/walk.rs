//! Headless walking: controller steps per second on the built-in map, on conference
//! (331k triangles) and in a scene of 100,000 placements, the person walking, turning,
//! jumping and running into things at the default 1/120 s step (two 1/240 s physics
//! ticks each). Also counts the sweeps a step costs, since walking with gravity, step-ups
//! and floor follow sweeps more than flying.
//!
//! The worst step: a walker pressed into a corner (a generated one beside a
//! fine object, and one among conference's furniture) and a diagonal script on
//! conference, each step timed on its own: the least of a few runs, so that what else the
//! machine did only ever shows as a slower run. Printed: the median, 90th, 99th
//! percentile and worst step, and how many steps took how long; the same for the steps
//! that swept at all (a step whose ticks repeat earlier ones is reused whole, see
//! `walkthrough_core::walk::memo`); criterion times the whole script.
//!
//! Among movers: the placement-limit scene with 100 crates moving around the
//! walk, against the same scene still; and piles of 50 and 400 doors swinging
//! into a walker against a wall.
//!
//! `cargo bench --bench walk`; conference needs ../shared (prints SKIPPED otherwise).

mod common;

use std::time::Instant;

use common::test_common::counted::Counted;
use common::test_common::pile::{PILE_EYE, door_pile};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Affine3A, Vec3};
use walkthrough_core::collision::{Account, Collider, CollisionWorld, InstancedWorld, Recorder};
use walkthrough_core::map::UpAxis;
use walkthrough_core::map::motion::{Ease, Key, Motion, Play, Start};
use walkthrough_core::map::scene::{MAX_PLACEMENTS, Mover};
use walkthrough_core::movers::{Movers, Still, Ticking};
use walkthrough_core::player::{Controller, ControllerSettings, Mode, MoveIntent, Pose};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::sim::{Command, DEFAULT_DT, ScriptPlayer, parse_script};
use walkthrough_core::text::names::Named;

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
    let settings = ControllerSettings {
        mode,
        ..ControllerSettings::default()
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
fn crates() -> InstancedWorld {
    let floor = CollisionWorld::new(common::test_common::floor(1000.0));
    let crate_ = CollisionWorld::new(common::test_common::cube(Vec3::ZERO, Vec3::ONE));
    let mut world = InstancedWorld::new(vec![floor, crate_]);
    world.place(0, Affine3A::IDENTITY).expect("floor");
    for k in 0..MAX_PLACEMENTS - 1 {
        world
            .place(1, Affine3A::from_translation(crate_at(k)))
            .expect("crate");
    }
    world
}

/// Where crate `k` stands.
fn crate_at(k: usize) -> Vec3 {
    let side = (MAX_PLACEMENTS as f64).sqrt().ceil() as usize;
    let (i, j) = ((k % side) as f32, (k / side) as f32);
    Vec3::new(i * 3.0 - 450.0, 0.0, j * 3.0 - 450.0)
}

/// Where the walks in the crates start.
const CRATES_START: Vec3 = Vec3::new(1.5, 1.6, 1.5);

fn placements(c: &mut Criterion) {
    let world = crates();
    let start = Pose::new(CRATES_START, 0.0, 0.0);
    for mode in [Mode::Walk, Mode::Fly] {
        walk(c, "100k_placements", &world, start, mode);
    }
}

/// The same scene with the 100 crates around the walk moving (each rising a
/// metre and back every 2 s), against the same scene still, in one group: a walking step
/// among movers should cost at most twice a still one.
fn moving_placements(c: &mut Criterion) {
    let side = (MAX_PLACEMENTS as f64).sqrt().ceil() as usize;
    // 100 crates around the walk (the walk meets them: pushed, carried, blocked), and
    // 100 crates 400 m off (asleep: only their clocks run).
    let around = |lo: usize| {
        move |k: &usize| (lo..lo + 10).contains(&(k % side)) && (lo..lo + 10).contains(&(k / side))
    };
    let mut g = c.benchmark_group("walk/100k_placements_100_movers");
    g.throughput(Throughput::Elements(STEPS as u64));
    g.sample_size(20);
    let start = Pose::new(CRATES_START, 0.0, 0.0);
    let run = |world: &mut dyn Ticking| {
        let mut ctl = Controller::new(start, ControllerSettings::default());
        for i in 0..STEPS {
            let (intent, turn) = intent(i);
            ctl.pose.yaw_deg += turn;
            ctl.step_in(world, &intent, DEFAULT_DT as f32);
        }
        ctl.pose.position
    };
    let still = crates();
    g.bench_function("still", |b| b.iter(|| run(&mut Still(&still))));
    for (name, lo) in [("moving_around_the_walk", 145), ("moving_far_off", 10)] {
        let near: Vec<usize> = (0..MAX_PLACEMENTS - 1).filter(around(lo)).collect();
        let specs: Vec<Mover> = near.iter().map(|&k| bobbing(k)).collect();
        let mut world = crates();
        let mut movers = Movers::new(&specs, &mut world);
        g.bench_function(name, |b| b.iter(|| run(&mut movers.world(&mut world))));
    }
    g.finish();
}

/// A pile of 50 and of 400 doors stacked on one spot, swinging into the walker
/// who stands against a wall (see `tests/common/pile.rs`): every door is blocked by the
/// body again and again. A tick's work is bounded by what touches the body, so 400 cost
/// at most 10 times what 50 do (8 is linear).
fn stacked_movers(c: &mut Criterion) {
    let mut g = c.benchmark_group("walk/stacked_movers");
    g.throughput(Throughput::Elements(STEPS as u64));
    g.sample_size(10);
    for n in [50, 400] {
        let (mut world, specs) = door_pile(n);
        let mut movers = Movers::new(&specs, &mut world);
        let start = Pose::new(PILE_EYE, 0.0, 0.0);
        g.bench_function(n.to_string(), |b| {
            b.iter(|| {
                let mut ticking = movers.world(&mut world);
                let mut ctl = Controller::new(start, ControllerSettings::default());
                for _ in 0..STEPS {
                    ctl.step_in(&mut ticking, &MoveIntent::default(), DEFAULT_DT as f32);
                }
                ctl.pose.position
            })
        });
    }
    g.finish();
}

/// Crate `k` rising a metre and back every 2 s.
fn bobbing(k: usize) -> Mover {
    let p = crate_at(k);
    let key = |t: f32, y: f32| Key {
        t,
        position: p + Vec3::Y * y,
        rotation: Vec3::ZERO,
    };
    Mover {
        instance: k + 1,
        motion: Motion {
            keys: vec![key(0.0, 0.0), key(1.0, 1.0)],
            play: Play::PingPong,
            start: Start::Always,
            ease: Ease::Smooth,
        },
        scale: Vec3::ONE,
    }
}

/// Runs of a script whose per-step minimum is the step's time.
const RUNS: usize = 5;

/// The diagonal script: twelve times forward, a turn, forward and right at once
/// into the furniture, a jump, forward, left.
fn diagonal_script() -> Vec<Command> {
    let round = "forward 1\nturn 37\nkeys forward+right 0.5\njump\nforward 0.3\nleft 0.2\n";
    parse_script("diagonal", &round.repeat(12)).expect("a valid script")
}

/// Forward and right at once for `secs` seconds.
fn diagonal_for(secs: f32) -> Vec<Command> {
    parse_script("corner", &format!("keys forward+right {secs}\n")).expect("a valid script")
}

/// Play `script` from `start` once: each step's time, milliseconds, and whether it swept
/// at all (a step whose ticks all repeat earlier ones is reused whole: see
/// `walkthrough_core::walk::memo`).
fn play(world: &dyn Collider, start: Pose, script: &[Command]) -> (Vec<f64>, Vec<bool>) {
    let counted = Counted::new(world);
    let mut walker = Controller::new(start, ControllerSettings::default());
    let mut player = ScriptPlayer::new(script.to_vec(), DEFAULT_DT as f32);
    let (mut times, mut swept) = (Vec::new(), Vec::new());
    while let Some(intent) = player.next_step(&mut walker) {
        let before = counted.sweeps.get();
        let t = Instant::now();
        walker.step(&counted, &intent, DEFAULT_DT as f32);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        swept.push(counted.sweeps.get() > before);
    }
    (times, swept)
}

/// The `q` quantile of sorted `times`.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Print the distribution of the step times (the least of [`RUNS`] runs per step), and
/// of the steps that swept (`swept`) alone.
fn report(name: &str, times: &[f64], swept: &[bool]) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let (median, worst) = (quantile(&sorted, 0.5), sorted[sorted.len() - 1]);
    let slowest = times.iter().position(|&t| t == worst).unwrap_or(0);
    eprintln!(
        "{name}: {} steps, median {:.4} ms, p90 {:.4}, p99 {:.4}, worst {worst:.4} (step {slowest}, {:.1}x the median)",
        times.len(),
        median,
        quantile(&sorted, 0.9),
        quantile(&sorted, 0.99),
        worst / median
    );
    let mut working: Vec<f64> = times
        .iter()
        .zip(swept)
        .filter(|(_, s)| **s)
        .map(|(t, _)| *t)
        .collect();
    working.sort_by(f64::total_cmp);
    if !working.is_empty() {
        let median = quantile(&working, 0.5);
        eprintln!(
            "{name}: {} steps reused whole (no sweep); the {} that swept: median {median:.4} ms, p99 {:.4} (worst {:.1}x their median)",
            times.len() - working.len(),
            working.len(),
            quantile(&working, 0.99),
            worst / median
        );
    }
    let edges = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, f64::INFINITY];
    let mut from = 0.0;
    let counts: Vec<String> = edges
        .iter()
        .map(|&to| {
            let n = times.iter().filter(|&&t| t >= from && t < to).count();
            let text = format!("{from}-{to} ms: {n}");
            from = to;
            text
        })
        .collect();
    eprintln!("{name}: steps by time: {}", counts.join(", "));
}

/// The per-step distribution of `script` from `start`, and criterion's time for the
/// whole script.
fn scripted(c: &mut Criterion, name: &str, world: &dyn Collider, start: Pose, script: &[Command]) {
    let runs: Vec<(Vec<f64>, Vec<bool>)> = (0..RUNS).map(|_| play(world, start, script)).collect();
    let least: Vec<f64> = (0..runs[0].0.len())
        .map(|i| runs.iter().map(|r| r.0[i]).fold(f64::INFINITY, f64::min))
        .collect();
    report(name, &least, &runs[0].1);
    let mut g = c.benchmark_group(format!("script/{name}"));
    g.throughput(Throughput::Elements(least.len() as u64));
    g.sample_size(10);
    g.bench_function("steps", |b| b.iter(|| play(world, start, script)));
    g.finish();
}

/// A walker pressed for 2 s into the generated corner, with and without a fine object of
/// 20,000 triangles beside it (out of its reach, inside its swept box).
fn generated_corner(c: &mut Criterion) {
    use common::test_common::corner::{corner, fine_object};
    let start = Pose::new(Vec3::new(0.55, 1.6, -0.55), 0.0, 0.0);
    let plain = CollisionWorld::new(corner());
    let beside = CollisionWorld::new(corner().into_iter().chain(fine_object()));
    scripted(c, "corner", &plain, start, &diagonal_for(2.0));
    scripted(
        c,
        "corner_beside_fine_object",
        &beside,
        start,
        &diagonal_for(2.0),
    );
}

/// Conference at a spawn among its furniture (`--up y --scale 0.00429537 --spawn
/// 1133.498,371.155,-553.809 --yaw 112`): the diagonal script; and for 2 s into the
/// corner between a table and a chair that the script pressed into for half a second.
fn conference_scripts(c: &mut Criterion) {
    let Some(path) = common::shared_map("conference") else {
        eprintln!("conference scripts SKIPPED: ../shared/maps/conference not found");
        return;
    };
    let at = |spawn: Vec3, yaw: f32| OpenOptions {
        scale: Some(0.00429537),
        up: Some(UpAxis::Y),
        spawn: Some(spawn),
        yaw_deg: Some(yaw),
        ..OpenOptions::default()
    };
    let spawn = Vec3::new(1133.498, 371.155, -553.809);
    let session = Session::open(Some(&path), &at(spawn, 112.0)).expect("conference");
    let start = session.start_pose(None);
    scripted(
        c,
        "conference_diagonal",
        session.collider(),
        start,
        &diagonal_script(),
    );
    let corner = Vec3::new(1570.1638, 371.1548, -942.3442);
    let session = Session::open(Some(&path), &at(corner, 11.0)).expect("conference");
    let start = session.start_pose(None);
    scripted(
        c,
        "conference_corner",
        session.collider(),
        start,
        &diagonal_for(2.0),
    );
}

criterion_group!(
    benches,
    builtin,
    conference,
    placements,
    moving_placements,
    stacked_movers,
    generated_corner,
    conference_scripts
);
criterion_main!(benches);
