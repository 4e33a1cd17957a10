//! Headless walking: controller steps per second on the built-in map and on conference
//! (331k triangles), the person walking, turning, jumping and running into things at the
//! default 1/120 s step (two 1/240 s physics ticks each). Also counts the sweeps a step
//! costs, since walking with gravity, step-ups and floor follow sweeps more than flying.
//!
//! `cargo bench --bench walk`; conference needs ../shared (prints SKIPPED otherwise).

mod common;

use std::cell::Cell;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use walkthrough::camera::{Controller, Mode, MoveIntent, Settings};
use walkthrough::collision::{Body, Collider, Contact, Probe};
use walkthrough::names::Named;
use walkthrough::session::{OpenOptions, Session};
use walkthrough::sim::DEFAULT_DT;

/// Steps per measured batch: 10 s of walking.
const STEPS: usize = 1200;

/// A collider that counts the sweeps asked of it.
struct Counting<'a> {
    inner: &'a dyn Collider,
    sweeps: Cell<u64>,
}

impl Collider for Counting<'_> {
    fn sweep_seen(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        seen: Option<&mut Vec<u32>>,
    ) -> Option<Contact> {
        self.sweeps.set(self.sweeps.get() + 1);
        self.inner.sweep_seen(probe, centre, delta, seen)
    }

    fn triangle(&self, index: u32) -> Option<[Vec3; 3]> {
        self.inner.triangle(index)
    }

    fn nearest_overlap(&self, body: &Body, centre: Vec3) -> Option<Contact> {
        self.inner.nearest_overlap(body, centre)
    }
}

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

fn walk(c: &mut Criterion, name: &str, session: &Session, mode: Mode) {
    let start = session.start_pose(None);
    let settings = Settings {
        mode,
        ..Settings::default()
    };
    let world = session.collider();
    let run = |world: &dyn Collider| {
        let mut ctl = Controller::new(start, settings);
        for i in 0..STEPS {
            let (intent, turn) = intent(i);
            ctl.pose.yaw_deg += turn;
            ctl.step(world, &intent, DEFAULT_DT as f32);
        }
        ctl.pose.position
    };
    let counting = Counting {
        inner: world,
        sweeps: Cell::new(0),
    };
    let t0 = Instant::now();
    run(&counting);
    eprintln!(
        "{name} {}: {:.1} sweeps a step ({:.0} ms for {STEPS} steps, unmeasured warm-up)",
        mode.name(),
        counting.sweeps.get() as f64 / STEPS as f64,
        t0.elapsed().as_secs_f64() * 1e3
    );
    let mut g = c.benchmark_group(format!("walk/{name}"));
    g.throughput(Throughput::Elements(STEPS as u64));
    g.sample_size(20);
    g.bench_function(mode.name(), |b| b.iter(|| run(world)));
    g.finish();
}

fn builtin(c: &mut Criterion) {
    let session = Session::open(None, &OpenOptions::default()).expect("built-in map");
    walk(c, "builtin", &session, Mode::Walk);
    walk(c, "builtin", &session, Mode::Fly);
}

fn conference(c: &mut Criterion) {
    let Some(path) = common::shared_map("conference") else {
        eprintln!("conference benchmarks SKIPPED: ../shared/maps/conference not found");
        return;
    };
    let session = Session::open(Some(&path), &OpenOptions::default()).expect("conference");
    walk(c, "conference", &session, Mode::Walk);
    walk(c, "conference", &session, Mode::Fly);
}

criterion_group!(benches, builtin, conference);
criterion_main!(benches);
