//! Placed models: collision in the model's own space must give the same stops as the same
//! triangles baked into world space; scene files load each model once.

mod common;

use std::path::PathBuf;

use glam::{Affine3A, EulerRot, Quat, Vec3};
use walkthrough::collision::{Body, Collider, CollisionWorld, InstancedWorld, Response};
use walkthrough::geometry::InsideMethod;
use walkthrough::map::UpAxis;
use walkthrough::map::scene::load_scene;
use walkthrough::session::{OpenOptions, Session};

/// A closed box room with an inner wall, in model space.
fn room_model() -> Vec<[Vec3; 3]> {
    let mut t = common::cube(Vec3::new(-4.0, -2.0, -4.0), Vec3::new(4.0, 2.0, 4.0));
    t.extend(common::wall(-1.0, -1.0, 2.0, 1.5, 2.0));
    t
}

#[test]
fn placed_model_with_rotation_and_nonuniform_scale_walks_like_its_baked_copy() {
    let model = room_model();
    let m = Affine3A::from_scale_rotation_translation(
        Vec3::new(2.0, 1.5, 0.5),
        Quat::from_euler(EulerRot::ZYX, 0.2, 0.7, 0.1),
        Vec3::new(10.0, -3.0, 5.0),
    );
    let mut placed = InstancedWorld::new(vec![CollisionWorld::new(model.iter().copied())]);
    placed.place(0, m).unwrap();
    let world_tris: Vec<[Vec3; 3]> = placed.baked_triangles().collect();
    let baked = CollisionWorld::new(world_tris.iter().copied());
    let start = m.transform_point3(Vec3::new(0.5, 0.0, -2.0));
    // Barycentric and Möller–Trumbore answers are affine-invariant, so model space and world
    // space agree step for step. Angle-sum's tolerance is an angle, and a non-uniform scale
    // changes angles: near an edge it may answer differently in the two spaces (it is still
    // checked below to keep the walker inside).
    // The narrow phase bakes each candidate triangle exactly as `baked_triangles` does and
    // asks every question of that world triangle, so both walks see the same numbers.
    for (body, method, response) in [Body::WALKER, Body::FLYER].into_iter().flat_map(|b| {
        [InsideMethod::Barycentric, InsideMethod::MollerTrumbore]
            .into_iter()
            .flat_map(move |m| [(b, m, Response::Stop), (b, m, Response::Slide)])
    }) {
        {
            let rules = common::rules(body, response, method);
            let (mut a, mut b) = (start, start);
            let mut hits = 0;
            for step in 0..400 {
                let ang = step as f32 * 0.037;
                let d = Vec3::new(ang.cos(), 0.2 * (ang * 0.3).sin(), ang.sin()) * 0.15;
                let oa = placed.resolve_move(&rules, a, d);
                let ob = baked.resolve_move(&rules, b, d);
                assert_eq!(
                    oa.hit, ob.hit,
                    "{method} {response} step {step}: {a} vs {b}"
                );
                hits += oa.hit as usize;
                a = oa.end;
                b = ob.end;
                assert!(
                    (a - b).length() < 1e-6,
                    "{method} {response} step {step}: {a} vs {b}"
                );
                // Never out of the placed room, never overlapping its walls.
                let local = m.inverse().transform_point3(a);
                assert!(local.abs().cmple(Vec3::new(4.0, 2.0, 4.0)).all(), "{local}");
                let gap = common::nearest_ellipsoid_distance(&body, a, &world_tris);
                assert!(gap >= 1.0 - 1e-4, "{method} {response} step {step}: {gap}");
            }
            assert!(
                hits > 20,
                "{method} {response}: the walk should touch walls ({hits})"
            );
        }
    }
}

#[test]
fn placed_model_keeps_the_walker_inside_with_angle_sum_too() {
    let m = Affine3A::from_scale_rotation_translation(
        Vec3::new(2.0, 1.5, 0.5),
        Quat::from_rotation_y(0.7),
        Vec3::ZERO,
    );
    let mut placed = InstancedWorld::new(vec![CollisionWorld::new(room_model())]);
    placed.place(0, m).unwrap();
    let mut p = m.transform_point3(Vec3::new(0.5, 0.0, -2.0));
    let rules = common::rules(Body::WALKER, Response::Slide, InsideMethod::AngleSum);
    for step in 0..2000 {
        let ang = step as f32 * 0.037;
        let d = Vec3::new(ang.cos(), 0.2 * (ang * 0.3).sin(), ang.sin()) * 0.4;
        p = placed.resolve_move(&rules, p, d).end;
        let local = m.inverse().transform_point3(p);
        assert!(
            local.abs().cmple(Vec3::new(4.0, 2.0, 4.0)).all(),
            "step {step}: {local}"
        );
    }
}

#[test]
fn placement_far_away_is_rejected_before_its_triangles() {
    let mut placed = InstancedWorld::new(vec![CollisionWorld::new(room_model())]);
    placed
        .place(0, Affine3A::from_translation(Vec3::new(1000.0, 0.0, 0.0)))
        .unwrap();
    placed.place(0, Affine3A::IDENTITY).unwrap();
    // Along z = -3, clear of the room's inner wall.
    let h = placed
        .sweep(
            &Body::WALKER,
            Vec3::new(0.0, 0.0, -3.0),
            Vec3::new(10.0, 0.0, 0.0),
            InsideMethod::Barycentric,
        )
        .unwrap();
    assert!(
        h.triangle as usize >= room_model().len(),
        "hit belongs to the second placement"
    );
    // The room's wall x = 4, less the walker's radius.
    let end_x = 10.0 * h.t as f32;
    assert!(
        (end_x - (4.0 - Body::WALKER.rest_distance(Vec3::X))).abs() < 1e-4,
        "{end_x}"
    );
}

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/example-scene/scene.toml")
}

#[test]
fn example_scene_loads_each_model_once_and_draws_one_batch_per_material() {
    let s = load_scene(&example(), UpAxis::Y).unwrap();
    assert_eq!(
        s.world.models.len(),
        2,
        "default.obj and column.obj, once each"
    );
    assert_eq!(s.world.instances.len(), 4);
    let column = 8 * 2 + 6 + 6; // sides and two octagon caps
    let room = s.world.models[0].triangles().len();
    assert_eq!(s.map.triangle_count(), room + 3 * column);
    let mut mats: Vec<usize> = s.map.batches.iter().map(|b| b.material).collect();
    mats.dedup();
    assert_eq!(mats.len(), s.map.batches.len(), "one batch per material");
    assert!(
        s.map.marked_spawn.is_some(),
        "the room's spawn carries over"
    );
}

#[test]
fn example_scene_opens_as_a_session_and_walls_of_columns_stop_moves() {
    let s = Session::open(Some(&example()), &OpenOptions::default()).unwrap();
    assert!(s.placed.is_some());
    // Walk into the tall column at (-3, 0, -2) from its east side: its corner at x = -2.75
    // (an octagon of radius 0.25, turned 45 degrees) stops the walker 0.3 m short of it.
    let from = Vec3::new(-1.0, 1.0, -2.0);
    let rules = common::rules(Body::WALKER, Response::Stop, InsideMethod::Barycentric);
    let o = s
        .collider()
        .resolve_move(&rules, from, Vec3::new(-3.0, 0.0, 0.0));
    assert!(o.hit);
    let want = -2.75 + Body::WALKER.rest_distance(Vec3::X);
    assert!((o.end.x - want).abs() < 1e-3, "{} vs {want}", o.end);
}

fn scene_dir(files: &[(&str, &str)]) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "walkthrough-scene-{}-{}",
        std::process::id(),
        files[0].1.len()
    ));
    std::fs::create_dir_all(&d).unwrap();
    for (n, t) in files {
        std::fs::write(d.join(n), t).unwrap();
    }
    d
}

#[test]
fn bad_scene_files_are_refused_with_file_and_reason() {
    let d = scene_dir(&[("a.toml", "[[model]]\nfile = \"x.obj\"\nposition = [1, 2]\n")]);
    let e = load_scene(&d.join("a.toml"), UpAxis::Y)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("{}:3:", d.join("a.toml").display())),
        "{e}"
    );

    let d = scene_dir(&[("b.toml", "[[model]]\nfile = \"missing.obj\"\n")]);
    let e = load_scene(&d.join("b.toml"), UpAxis::Y)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("missing.obj") && e.contains("cannot read"),
        "{e}"
    );

    let d = scene_dir(&[
        ("c.toml", "[[model]]\nfile = \"t.obj\"\nscale = 0\n"),
        ("t.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"),
    ]);
    let e = load_scene(&d.join("c.toml"), UpAxis::Y)
        .unwrap_err()
        .to_string();
    assert!(e.contains("must be positive"), "{e}");

    let d = scene_dir(&[("e.toml", "up = \"y\"\n")]);
    let e = load_scene(&d.join("e.toml"), UpAxis::Y)
        .unwrap_err()
        .to_string();
    assert!(e.contains("places no [[model]]"), "{e}");
}
