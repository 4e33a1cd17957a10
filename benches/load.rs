//! Map loading, stage by stage: tobj's parse alone, our whole load (parse, triangulate,
//! materials), the collision world build, the free-space (pocket) survey and the frame
//! survey (up axis and units), and the renderer's clustering (its closed-solid search
//! alone, then all of it), its levels of detail, and reading them back from the cache
//! (the fingerprint, the file checked).
//!
//! Also one polygon of 100,000 corners, convex (a circle) and concave (a star), loaded
//! from OBJ text: the triangulation must stay near O(n log n).
//!
//! `cargo bench --bench load`; the shared maps need ../shared (SKIPPED otherwise).
//!
//! A big map, when `WALKTHROUGH_BIG_MAP` names one (`python3
//! benches/make_million.py /tmp/ten.obj 2236 0` makes ten million triangles, 379 MB):
//! tobj's parse alone (`tobj::GPU_LOAD_OPTIONS`, as a renderer would use it) beside our
//! whole open as `sim` makes it (read, check, parse, triangles, collision world, survey;
//! the cache of built maps emptied first, so the open also keeps the map there), then
//! opened again from that cache, in one run: `WALKTHROUGH_BIG_MAP=/tmp/ten.obj cargo
//! bench --bench load -- big`.

mod common;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use walkthrough_core::collision::CollisionWorld;
use walkthrough_core::cull::lod::simplify_clusters;
use walkthrough_core::cull::solids::closed_solids;
use walkthrough_core::cull::{CLUSTER_TRIANGLES, cluster_map};
use walkthrough_core::map::header::Header;
use walkthrough_core::map::progress::Progress;
use walkthrough_core::map::{LoadOptions, TextureOptions, load_obj_file, load_obj_str};
use walkthrough_core::session::OpenOptions;
use walkthrough_core::session::cache::levels::{Fingerprint, decode, encode};
use walkthrough_core::session::open::{OpenWith, open};
use walkthrough_core::survey::{FreeSpace, Given, infer_frame};

/// An OBJ of one face: `n` corners round a circle whose radius alternates by `dent`
/// (0 for a convex polygon).
fn big_polygon(n: usize, dent: f32) -> String {
    let mut obj = String::with_capacity(n * 40);
    for i in 0..n {
        let a = i as f32 / n as f32 * std::f32::consts::TAU;
        let r = if i % 2 == 0 { 1000.0 } else { 1000.0 - dent };
        obj += &format!("v {} 0 {}\n", r * a.cos(), r * a.sin());
    }
    obj += "f";
    for i in (1..=n).rev() {
        obj += &format!(" {i}");
    }
    obj + "\n"
}

fn big_polygons(c: &mut Criterion) {
    let mut g = c.benchmark_group("load/polygon_100000");
    g.sample_size(10);
    for (name, dent) in [("convex", 0.0), ("concave", 1.0)] {
        let obj = big_polygon(100_000, dent);
        g.bench_function(name, |b| {
            b.iter(|| {
                load_obj_str("big.obj", &obj, &[], &LoadOptions::default())
                    .expect("loads")
                    .triangle_count()
            })
        });
    }
    g.finish();
}

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
            b.iter(|| {
                CollisionWorld::from_corners(map.triangle_count(), |i| map.corners(i))
                    .stats()
                    .nodes
            })
        });
        let world = CollisionWorld::new(map.triangles());
        g.bench_function("pocket_survey", |b| {
            b.iter(|| FreeSpace::survey(&world).map_or(0, |f| f.pocket_cells()))
        });
        let free = FreeSpace::survey(&world);
        g.bench_function("frame_survey", |b| {
            b.iter(|| {
                infer_frame(&world, free.as_ref(), Given::default(), &Header::default())
                    .frame
                    .scale
            })
        });
        g.bench_function("closed_solids", |b| {
            b.iter(|| closed_solids(&map.vertices).count)
        });
        g.bench_function("cluster_map", |b| {
            b.iter(|| cluster_map(&map, CLUSTER_TRIANGLES).clusters.len())
        });
        // The levels of detail, made on a thread of their own once the map is drawn.
        let mesh = cluster_map(&map, CLUSTER_TRIANGLES);
        let textured: Vec<bool> = map.materials.iter().map(|m| m.texture.is_some()).collect();
        g.bench_function("simplify_clusters", |b| {
            b.iter(|| simplify_clusters(&mesh, &textured).triangles())
        });
        // A later open reads them instead: the fingerprint, then the file checked whole.
        g.bench_function("levels_fingerprint", |b| {
            b.iter(|| Fingerprint::of(&mesh, &textured))
        });
        let fingerprint = Fingerprint::of(&mesh, &textured);
        let file = encode(&simplify_clusters(&mesh, &textured), fingerprint);
        g.bench_function("levels_decode", |b| {
            b.iter(|| decode(&file, &mesh, fingerprint).map(|l| l.triangles()))
        });
        g.finish();
    }
}

fn big_map(c: &mut Criterion) {
    let Some(path) = std::env::var_os("WALKTHROUGH_BIG_MAP").map(std::path::PathBuf::from) else {
        eprintln!("big map benchmarks SKIPPED: WALKTHROUGH_BIG_MAP is not set");
        return;
    };
    let mut g = c.benchmark_group("load/big");
    g.sample_size(10);
    g.bench_function("tobj_parse_only", |b| {
        b.iter(|| {
            let (models, _) = tobj::load_obj(&path, &tobj::GPU_LOAD_OPTIONS).expect("parses");
            models.len()
        })
    });
    let headless = OpenOptions {
        headless: true,
        textures: TextureOptions {
            decode: false,
            ..TextureOptions::default()
        },
        ..OpenOptions::default()
    };
    // The cache of built maps in a folder of this run's: emptied before each first open
    // (which then keeps the map there), kept for the reopens.
    let cache =
        std::env::temp_dir().join(format!("walkthrough-bench-cache-{}", std::process::id()));
    let open = || {
        let progress = Progress::default();
        let with = OpenWith {
            cache_dir: Some(cache.clone()),
            ..OpenWith::quiet(&progress)
        };
        open(Some(&path), &headless, with)
            .expect("opens")
            .session
            .world
            .stats()
            .triangles
    };
    let forget = || {
        let _ = std::fs::remove_dir_all(&cache);
    };
    g.bench_function("sim_open", |b| {
        b.iter_batched(forget, |()| open(), BatchSize::PerIteration)
    });
    open();
    g.bench_function("sim_reopen_cached", |b| b.iter(open));
    g.finish();
    forget();
}

criterion_group!(benches, big_polygons, load, big_map);
criterion_main!(benches);
