//! Map loading, stage by stage: tobj's parse alone, our whole load (parse, triangulate,
//! materials), the scale survey, and the collision world build.
//!
//! `cargo bench --bench load`; needs ../shared (prints SKIPPED otherwise).

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use walkthrough::collision::CollisionWorld;
use walkthrough::map::survey::infer_scale;
use walkthrough::map::{LoadOptions, load_obj_file};

fn load(c: &mut Criterion) {
    for name in ["conference", "lost_empire"] {
        let Some(path) = common::shared_map(name) else {
            eprintln!("load benchmarks SKIPPED: ../shared/maps/{name} not found");
            continue;
        };
        let mut g = c.benchmark_group(format!("load/{name}"));
        g.sample_size(10);
        g.bench_function("tobj_parse_only", |b| {
            b.iter(|| {
                let opts = tobj::LoadOptions {
                    single_index: true,
                    ..Default::default()
                };
                tobj::load_obj(&path, &opts).expect("parses").0.len()
            })
        });
        let opts = LoadOptions {
            scale: Some(1.0),
            ..Default::default()
        };
        g.bench_function("walkthrough_load", |b| {
            b.iter(|| load_obj_file(&path, &opts).expect("loads").vertices.len())
        });
        let map = load_obj_file(&path, &opts).expect("loads");
        g.bench_function("world_build", |b| {
            b.iter(|| CollisionWorld::new(map.triangles()).stats().nodes)
        });
        let world = CollisionWorld::new(map.triangles());
        g.bench_function("scale_survey", |b| b.iter(|| infer_scale(&world).scale));
        g.finish();
    }
}

criterion_group!(benches, load);
criterion_main!(benches);
