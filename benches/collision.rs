//! Collision queries: our BVH against the brute-force loop (the tutorial's method) and
//! parry3d's TriMesh ray cast, on the same segments; and the slide step.
//!
//! `cargo bench --bench collision`. The conference map is used when ../shared exists.

mod common;

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use parry3d::query::{Ray, RayCast};
use walkthrough::collision::{Collider, CollisionWorld, Response};
use walkthrough::geometry::InsideMethod;
use walkthrough::map::{LoadOptions, load_obj_file};

fn bench_world(c: &mut Criterion, name: &str, world: &CollisionWorld) {
    let segs = common::segments(world, 1000, 0.5, 7);
    let parry = common::parry_mesh(world);
    let m = InsideMethod::Barycentric;
    let hits = segs
        .iter()
        .filter(|(p, d)| world.first_hit(*p, *d, m).is_some())
        .count();
    eprintln!(
        "{name}: {} triangles, {hits} of {} segments hit",
        world.triangles().len(),
        segs.len()
    );

    let mut g = c.benchmark_group(format!("query/{name}"));
    g.throughput(Throughput::Elements(segs.len() as u64));
    g.bench_function("bvh", |b| {
        b.iter(|| {
            segs.iter()
                .filter(|(p, d)| world.first_hit(*p, *d, m).is_some())
                .count()
        })
    });
    for method in [InsideMethod::AngleSum, InsideMethod::MollerTrumbore] {
        g.bench_function(format!("bvh_{method}"), |b| {
            b.iter(|| {
                segs.iter()
                    .filter(|(p, d)| world.first_hit(*p, *d, method).is_some())
                    .count()
            })
        });
    }
    // The same segments as thin rays (no skin): the like-for-like comparison with parry3d.
    g.bench_function("bvh_thin_ray", |b| {
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
                    let ray = Ray::new(
                        parry3d::math::Vector::new(p.x, p.y, p.z),
                        parry3d::math::Vector::new(d.x, d.y, d.z),
                    );
                    parry.cast_local_ray(&ray, 1.0, false).is_some()
                })
                .count()
        })
    });
    g.finish();

    // Brute force is ~1000x slower: fewer segments, fewer samples.
    let few = &segs[..20];
    let mut g = c.benchmark_group(format!("query/{name}"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(few.len() as u64));
    g.bench_function("brute_force", |b| {
        b.iter(|| {
            few.iter()
                .filter(|(p, d)| world.first_hit_brute_force(*p, *d, m).is_some())
                .count()
        })
    });
    g.finish();

    // A slide step: walking speed, 1/120 s, from the same starts.
    let steps = common::segments(world, 1000, 3.0 / 120.0, 11);
    let mut g = c.benchmark_group(format!("slide_step/{name}"));
    g.throughput(Throughput::Elements(steps.len() as u64));
    g.bench_function("bvh", |b| {
        b.iter(|| {
            for (p, d) in &steps {
                black_box(world.resolve_move(*p, *d, Response::Slide, m));
            }
        })
    });
    g.finish();
}

fn generated(c: &mut Criterion) {
    let tris = common::generated_city();
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
