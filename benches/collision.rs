//! Collision queries, the same moves for every contender: our swept bodies (the walker's
//! ellipsoid and the flying eye's sphere) through the BVH, against parry3d's `cast_shapes`
//! of a ball in ellipsoid space against its `TriMesh`, and against the brute-force loop
//! (the tutorial's method); the plain ray cast against parry3d's; and the slide step.
//!
//! `cargo bench --bench collision`. The conference map is used when ../shared exists.

mod common;

use std::hint::black_box;

use common::test_common::city::{generated_city, segments};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use parry3d::math::{Pose, Vector};
use parry3d::query::{Ray, RayCast, ShapeCastOptions};
use parry3d::shape::Ball;
use walkthrough_core::collision::{
    Body, Collider, CollisionWorld, MoveRules, Probe, Response, resolve_move,
};
use walkthrough_core::geometry::InsideMethod;
use walkthrough_core::map::{LoadOptions, load_obj_file};

fn bench_world(c: &mut Criterion, name: &str, world: &CollisionWorld) {
    // Walking-sized steps (3 m/s over 1/120 s) and long strides, from random places.
    let segs = segments(world, 4000, 0.5, 7);
    for (body_name, body) in [("walker", Body::WALKER), ("flyer", Body::FLYER)] {
        bench_body(c, name, world, body_name, body, &segs);
    }
    bench_rays(c, name, world, &segs);
}

/// Sweeps of `body` (ours, parry3d's, brute force) and slide steps.
fn bench_body(
    c: &mut Criterion,
    name: &str,
    world: &CollisionWorld,
    body_name: &str,
    body: Body,
    segs: &[(Vec3, Vec3)],
) {
    let m = InsideMethod::Barycentric;
    // Starts where the body can be: a body inside furniture is a state the controller
    // never leaves it in (placements are pushed out, moves never embed it).
    let segs = free_starts(world, &body, segs);
    let hits = segs
        .iter()
        .filter(|(p, d)| world.sweep(&Probe::new(body, m), *p, *d).is_some())
        .count();
    eprintln!(
        "{name}, {body_name}: {} triangles, {hits} of {} sweeps from free starts touch",
        world.triangles().len(),
        segs.len()
    );
    // parry3d: a ball of the contact radius cast against the mesh in ellipsoid space.
    let inv = body.inverse_radii().as_vec3();
    let parry = common::parry_mesh_scaled(world, inv);
    let ball = Ball::new(body.contact_radius() as f32);
    let options = ShapeCastOptions::with_max_time_of_impact(1.0);

    let mut g = c.benchmark_group(format!("sweep/{name}/{body_name}"));
    g.throughput(Throughput::Elements(segs.len() as u64));
    g.bench_function("bvh", |b| {
        b.iter(|| {
            segs.iter()
                .filter(|(p, d)| world.sweep(&Probe::new(body, m), *p, *d).is_some())
                .count()
        })
    });
    if body_name == "walker" {
        for method in [InsideMethod::AngleSum, InsideMethod::MollerTrumbore] {
            g.bench_function(format!("bvh_{method}"), |b| {
                b.iter(|| {
                    segs.iter()
                        .filter(|(p, d)| world.sweep(&Probe::new(body, method), *p, *d).is_some())
                        .count()
                })
            });
        }
    }
    g.bench_function("parry3d_cast_shapes", |b| {
        b.iter(|| {
            segs.iter()
                .filter(|(p, d)| {
                    let (p, d) = (*p * inv, *d * inv);
                    let at = Pose::from_translation(Vector::new(p.x, p.y, p.z));
                    let vel = Vector::new(d.x, d.y, d.z);
                    parry3d::query::cast_shapes(
                        &at,
                        vel,
                        &ball,
                        &Pose::IDENTITY,
                        Vector::ZERO,
                        &parry,
                        options,
                    )
                    .ok()
                    .flatten()
                    .is_some()
                })
                .count()
        })
    });
    g.finish();

    // Brute force is thousands of times slower: fewer sweeps, fewer samples.
    let few = &segs[..20];
    let mut g = c.benchmark_group(format!("sweep/{name}/{body_name}"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(few.len() as u64));
    g.bench_function("brute_force", |b| {
        b.iter(|| {
            few.iter()
                .filter(|(p, d)| {
                    world
                        .sweep_brute_force(&Probe::new(body, m), *p, *d)
                        .is_some()
                })
                .count()
        })
    });
    g.finish();

    // A slide step: walking speed, 1/120 s, from free starts.
    let steps = free_starts(world, &body, &segments(world, 2000, 3.0 / 120.0, 11));
    let rules = MoveRules::new(body, Response::Slide);
    let mut g = c.benchmark_group(format!("slide_step/{name}/{body_name}"));
    g.throughput(Throughput::Elements(steps.len() as u64));
    g.bench_function("bvh", |b| {
        b.iter(|| {
            for (p, d) in &steps {
                black_box(resolve_move(world, &rules, *p, *d));
            }
        })
    });
    g.finish();
}

/// The same segments as thin rays: the like-for-like comparison with parry3d's ray cast.
fn bench_rays(c: &mut Criterion, name: &str, world: &CollisionWorld, segs: &[(Vec3, Vec3)]) {
    let segs = &segs[..1000];
    let parry = common::parry_mesh_scaled(world, Vec3::ONE);
    let mut g = c.benchmark_group(format!("ray/{name}"));
    g.throughput(Throughput::Elements(segs.len() as u64));
    g.bench_function("bvh", |b| {
        b.iter(|| {
            segs.iter()
                .filter(|(p, d)| world.ray_cast(*p, d.normalize(), d.length()).is_some())
                .count()
        })
    });
    g.bench_function("parry3d_ray_cast", |b| {
        b.iter(|| {
            segs.iter()
                .filter(|(p, d)| {
                    let ray = Ray::new(Vector::new(p.x, p.y, p.z), Vector::new(d.x, d.y, d.z));
                    parry.cast_local_ray(&ray, 1.0, false).is_some()
                })
                .count()
        })
    });
    g.finish();
}

/// The moves of `segs` whose start leaves `body` touching nothing, at most 1000.
fn free_starts(world: &CollisionWorld, body: &Body, segs: &[(Vec3, Vec3)]) -> Vec<(Vec3, Vec3)> {
    segs.iter()
        .filter(|(p, _)| world.nearest_overlap(body, *p).is_none())
        .take(1000)
        .copied()
        .collect()
}

fn generated(c: &mut Criterion) {
    let tris = generated_city();
    let world = CollisionWorld::new(tris.iter().copied());
    bench_world(c, "generated_331k", &world);
    let mut g = c.benchmark_group("build/generated_331k");
    g.sample_size(10);
    g.bench_function("world", |b| {
        b.iter_batched(|| tris.clone(), CollisionWorld::new, BatchSize::LargeInput)
    });
    g.finish();
}

fn conference(c: &mut Criterion) {
    let Some(path) = common::shared_map("conference") else {
        eprintln!("conference benchmarks SKIPPED: ../shared/maps/conference not found");
        return;
    };
    let map = load_obj_file(
        &path,
        &LoadOptions {
            scale: Some(0.003),
            ..Default::default()
        },
    )
    .expect("loads");
    let world = CollisionWorld::new(map.triangles());
    bench_world(c, "conference", &world);
}

criterion_group!(benches, generated, conference);
criterion_main!(benches);
