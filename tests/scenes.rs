//! Placed models: collision in the model's own space must give the same stops as the same
//! triangles baked into world space; scene files load each model once.

mod common;

use std::path::PathBuf;

use glam::{Affine3A, EulerRot, Quat, Vec3};
use walkthrough_core::collision::{
    Body, Collider, CollisionWorld, InstancedWorld, Probe, Response, resolve_move,
};
use walkthrough_core::geometry::InsideMethod;
use walkthrough_core::map::scene::load_scene;
use walkthrough_core::map::{TextureOptions, UpAxis};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::test_kit::obj::obj_text;

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
                let oa = resolve_move(&placed, &rules, a, d);
                let ob = resolve_move(&baked, &rules, b, d);
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
        p = resolve_move(&placed, &rules, p, d).end;
        let local = m.inverse().transform_point3(p);
        assert!(
            local.abs().cmple(Vec3::new(4.0, 2.0, 4.0)).all(),
            "step {step}: {local}"
        );
    }
}

/// At the documented limit of placements every sweep tested every
/// placement (250 ms a step). Through the placements' BVH the answers stay those of the
/// same triangles baked into one world (20,000 crates of four models, rotated and
/// scaled; 3,000 random sweeps of both bodies, and overlaps).
#[test]
fn many_placements_answer_like_their_baked_world_through_the_placements_bvh() {
    let models: Vec<CollisionWorld> = (0..4)
        .map(|k| {
            let h = 0.5 + k as f32 * 0.4;
            CollisionWorld::new(common::cube(
                Vec3::ZERO,
                Vec3::new(1.0, h, 1.0 + k as f32 * 0.2),
            ))
        })
        .collect();
    let mut placed = InstancedWorld::new(models);
    let mut rng = common::Rng(77);
    for k in 0..20_000 {
        let at = Vec3::new(
            rng.range(-200.0, 200.0),
            rng.range(-2.0, 2.0),
            rng.range(-200.0, 200.0),
        );
        let m = Affine3A::from_scale_rotation_translation(
            Vec3::new(
                rng.range(0.5, 2.0),
                rng.range(0.5, 2.0),
                rng.range(0.5, 2.0),
            ),
            Quat::from_rotation_y(rng.range(0.0, 6.3)),
            at,
        );
        placed.place(k % 4, m).unwrap();
    }
    let baked = CollisionWorld::new(placed.baked_triangles());
    let mut hits = 0;
    for i in 0..3000 {
        let body = if i % 2 == 0 {
            Body::WALKER
        } else {
            Body::FLYER
        };
        let probe = Probe::new(body, InsideMethod::Barycentric);
        let p = Vec3::new(
            rng.range(-200.0, 200.0),
            rng.range(-3.0, 3.0),
            rng.range(-200.0, 200.0),
        );
        let d = rng.v(1.0) * rng.range(0.1, 20.0);
        let (a, b) = (placed.sweep(&probe, p, d), baked.sweep(&probe, p, d));
        assert_eq!(
            a.is_some(),
            b.is_some(),
            "sweep {i} from {p} by {d}: {a:?} vs {b:?}"
        );
        if let (Some(a), Some(b)) = (a, b) {
            hits += 1;
            assert!((a.t - b.t).abs() < 1e-6, "sweep {i}: {} vs {}", a.t, b.t);
            // At t = 0 (a start inside a crate) several contacts tie, and the two worlds
            // number their triangles differently.
            if a.t > 0.0 {
                assert!(
                    (a.normal - b.normal).length() < 1e-4,
                    "sweep {i}: {a:?} vs {b:?}"
                );
            }
        }
        let (oa, ob) = (
            placed.nearest_overlap(&body, p),
            baked.nearest_overlap(&body, p),
        );
        assert_eq!(oa.is_some(), ob.is_some(), "overlap {i} at {p}");
    }
    assert!(hits > 300, "the sweeps should meet crates ({hits})");
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
            &Probe::new(Body::WALKER, InsideMethod::Barycentric),
            Vec3::new(0.0, 0.0, -3.0),
            Vec3::new(10.0, 0.0, 0.0),
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
    let s = load_scene(&example(), UpAxis::Y, TextureOptions::default()).unwrap();
    assert_eq!(
        s.world.models().len(),
        2,
        "default.obj and column.obj, once each"
    );
    assert_eq!(s.world.instances().len(), 4);
    let column = 8 * 2 + 6 + 6; // sides and two octagon caps
    let room = s.world.models()[0].triangles().len();
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
    let o = resolve_move(s.collider(), &rules, from, Vec3::new(-3.0, 0.0, 0.0));
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
    let e = load_scene(&d.join("a.toml"), UpAxis::Y, TextureOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("{}:3:", d.join("a.toml").display())),
        "{e}"
    );

    let d = scene_dir(&[("b.toml", "[[model]]\nfile = \"missing.obj\"\n")]);
    let e = load_scene(&d.join("b.toml"), UpAxis::Y, TextureOptions::default())
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
    let e = load_scene(&d.join("c.toml"), UpAxis::Y, TextureOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("must be positive"), "{e}");

    let d = scene_dir(&[("e.toml", "up = \"y\"\n")]);
    let e = load_scene(&d.join("e.toml"), UpAxis::Y, TextureOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("places no [[model]]"), "{e}");
}

/// A scratch folder holding a small box model `box.obj` (12 triangles).
fn box_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "walkthrough-scene-limits-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let obj = obj_text(&common::cube(Vec3::splat(-1.0), Vec3::splat(1.0)));
    std::fs::write(d.join("box.obj"), obj).unwrap();
    d
}

fn open_scene(dir: &std::path::Path, text: &str) -> Result<Session, String> {
    let path = dir.join("scene.toml");
    std::fs::write(&path, text).unwrap();
    Session::open(Some(&path), &OpenOptions::default()).map_err(|e| e.to_string())
}

/// `file = ""` was read as the scene's folder ("./: is a
/// directory, not an OBJ file").
#[test]
fn a_model_with_an_empty_file_name_is_said_to_have_none() {
    let d = box_dir("empty-name");
    for name in ["", "  "] {
        let e = open_scene(&d, &format!("[[model]]\nfile = \"{name}\"\n")).unwrap_err();
        assert!(
            e.ends_with("the model's file name is empty: name an OBJ file"),
            "{e}"
        );
        assert!(e.contains(":2: model 1"), "{e}");
    }
}

#[test]
fn a_non_finite_placement_names_its_field() {
    let d = box_dir("nan");
    for (field, value, want) in [
        (
            "position",
            "[nan, 0.0, 0.0]",
            "position [NaN, 0.0, 0.0] must be three finite numbers (each within about 3.4e38)",
        ),
        (
            "rotation",
            "[0.0, inf, 0.0]",
            "rotation [0.0, inf, 0.0] must be three finite numbers (each within about 3.4e38)",
        ),
        // Written finite, past f32's range (said as 'inf' alone).
        (
            "position",
            "[1e39, 0.0, 0.0]",
            "position [inf, 0.0, 0.0] must be three finite numbers (each within about 3.4e38)",
        ),
        (
            "scale",
            "-1.0",
            "scale [-1.0, -1.0, -1.0] must be positive numbers",
        ),
    ] {
        let e = open_scene(
            &d,
            &format!("[[model]]\nfile = \"box.obj\"\n{field} = {value}\n"),
        )
        .unwrap_err();
        assert!(e.ends_with(&format!("model 1 (box.obj): {want}")), "{e}");
    }
}

#[test]
fn a_scene_placed_too_far_out_or_rounded_away_is_refused() {
    let d = box_dir("far");
    let e = open_scene(
        &d,
        "[[model]]\nfile = \"box.obj\"\nposition = [1e30, 0.0, 0.0]\n",
    )
    .unwrap_err();
    assert!(
        e.ends_with("model 1 (box.obj): position [1e30, 0.0, 0.0] puts the model 1e30 m from the origin, beyond the 1e6 m where positions are too coarse to walk"),
        "{e}"
    );
    // Placed far out and small, every triangle rounded away and
    // the scene loaded (exit 0) with the far placement silently dropped.
    let e = open_scene(
        &d,
        "[[model]]\nfile = \"box.obj\"\n\n[[model]]\nfile = \"box.obj\"\nposition = [1e30, 1e30, 1e30]\nscale = 1e-2\n",
    )
    .unwrap_err();
    assert!(
        e.ends_with("model 2 (box.obj): position [1e30, 1e30, 1e30] puts the model 1e30 m from the origin, beyond the 1e6 m where positions are too coarse to walk"),
        "{e}"
    );
    // A scale that carries the model out is named as the scale (and past 1e4 it is out of
    // range before it is placed).
    let e = open_scene(
        &d,
        "[[model]]\nfile = \"box.obj\"\nposition = [10.0, 0.0, 0.0]\nscale = 1e7\n",
    )
    .unwrap_err();
    assert!(
        e.contains(
            ":4: model 1 (box.obj): scale [10000000.0, 10000000.0, 10000000.0] is out of range"
        ),
        "{e}"
    );
    // A model 800 km across, scaled by 3 about its own origin: the scale carries it out.
    let big = box_dir("far-big");
    let obj = obj_text(&common::cube(Vec3::splat(-4e5), Vec3::splat(4e5)));
    std::fs::write(big.join("box.obj"), obj).unwrap();
    let e = open_scene(&big, "[[model]]\nfile = \"box.obj\"\nscale = 3\n").unwrap_err();
    assert!(
        e.contains(
            ":3: model 1 (box.obj): scale [3.0, 3.0, 3.0] puts the model 1.2e6 m from the origin"
        ),
        "{e}"
    );
}

/// A duplicate key, an unknown field or a missing `file` that the
/// TOML reader reports at the start of a line was blamed on the line before (the blank
/// line before `[[model]]`, for a missing field). Each names the table's own line.
#[test]
fn scene_errors_name_the_line_at_fault() {
    let d = box_dir("lines");
    for (text, want) in [
        (
            "[[model]]\nfile = \"box.obj\"\n\n[[model]]\nfile = \"box.obj\"\nfile = \"box.obj\"\n",
            ":6: not a walkthrough scene: duplicate key 'file': give each field once",
        ),
        (
            "[[model]]\nfile = \"box.obj\"\n\n[[model]]\nfile = \"box.obj\"\ncolour = 3\n",
            ":6: not a walkthrough scene: unknown field `colour`",
        ),
        (
            "[[model]]\nfile = \"box.obj\"\n\n[[model]]\nposition = [1.0, 2.0, 3.0]\n",
            ":4: not a walkthrough scene: missing field `file`",
        ),
        (
            "[[model]]\nfile = \"box.obj\"\nposition = [1.0, 2.0]\n",
            ":3: model 1 (box.obj): position [1.0, 2.0] must be three numbers [x, y, z], not 2",
        ),
    ] {
        let e = open_scene(&d, text).unwrap_err();
        assert!(e.contains(want), "{e}\nwanted {want}");
    }
}

/// A scene of 100,000 water boxes and one model was refused as "100001 models": each
/// kind is counted as what it is.
#[test]
fn a_scene_of_too_many_water_boxes_counts_them_as_water() {
    let d = box_dir("much-water");
    let text = format!(
        "[[model]]\nfile = \"box.obj\"\n{}",
        "[[water]]\nbox = [0, 0, 0, 1, 1, 1]\n".repeat(100_000)
    );
    let e = open_scene(&d, &text).unwrap_err();
    assert!(
        e.ends_with(
            "the scene holds 100001 tables (1 model, 100000 water boxes), over the limit of 100000"
        ),
        "{e}"
    );
}

/// A 64 MiB scene of 2.9 million minimal tables took 4.5 GiB and
/// 9 s to refuse, parsed whole before its count was checked. The tables are counted first
/// (headers and inline tables), so it is refused before parsing.
#[test]
fn a_scene_of_millions_of_tables_is_refused_before_it_is_parsed() {
    let d = box_dir("millions");
    let many = "[[model]]\n".repeat(2_000_000);
    let e = open_scene(&d, &many).unwrap_err();
    assert!(
        e.ends_with("the scene places 2000000 models, over the limit of 100000"),
        "{e}"
    );
    // Inline tables count too.
    let inline = format!("model = [{}]\n", "{file = \"box.obj\"},".repeat(100_001));
    let e = open_scene(&d, &inline).unwrap_err();
    assert!(e.ends_with("over the limit of 100000"), "{e}");
}

/// Lists were not counted, and a 62 MB scene of 31 million numbers
/// in one `position` took 4.7 GB and 20 s to refuse. A scene of more values than
/// [`MAX_SCENE_VALUES`] is refused before it is parsed, whatever holds them.
#[test]
fn a_scene_of_millions_of_values_is_refused_before_it_is_parsed() {
    use walkthrough_core::map::scene::MAX_SCENE_VALUES;
    let d = box_dir("values");
    let n = MAX_SCENE_VALUES + 1;
    let numbers = format!(
        "[[model]]\nfile = \"box.obj\"\nposition = [{}0]\n",
        "0,".repeat(n)
    );
    let lists = format!(
        "junk = [{}[]]\n[[model]]\nfile = \"box.obj\"\n",
        "[],".repeat(n / 2)
    );
    for text in [numbers, lists] {
        let e = open_scene(&d, &text).unwrap_err();
        assert!(
            e.ends_with(&format!("over the limit of {MAX_SCENE_VALUES}")),
            "{e}"
        );
        assert!(e.contains("values"), "{e}");
    }
    // A scene just under it is read (and its list refused for what it is).
    let under = format!(
        "[[model]]\nfile = \"box.obj\"\nposition = [{}0]\n",
        "0,".repeat(1000)
    );
    let e = open_scene(&d, &under).unwrap_err();
    assert!(!e.contains("over the limit"), "{e}");
    assert!(e.contains("position"), "{e}");
}

#[test]
fn too_many_placements_or_triangles_are_refused_before_building() {
    let d = box_dir("many");
    let placements = |n: usize| "[[model]]\nfile = \"box.obj\"\n".repeat(n);
    let e = open_scene(
        &d,
        &placements(walkthrough_core::map::scene::MAX_PLACEMENTS + 1),
    )
    .unwrap_err();
    assert!(
        e.ends_with("the scene places 100001 models, over the limit of 100000"),
        "{e}"
    );

    // A model of 1,000,001 triangles placed ten times is over ten million.
    let mut big = String::from("v 0 0 0\nv 1 0 0\nv 0 0 1\n");
    big += &"f 1 2 3\n".repeat(1_000_001);
    std::fs::write(d.join("big.obj"), big).unwrap();
    let e = open_scene(&d, &"[[model]]\nfile = \"big.obj\"\n".repeat(10)).unwrap_err();
    assert!(
        e.ends_with("the scene's 10 placements add up to 10000010 triangles, over the limit of 10000000 (about 2.0 GB to build)"),
        "{e}"
    );
    // Below the limits it loads: a row of 1000 boxes.
    let row: String = (0..1000)
        .map(|k| {
            format!(
                "[[model]]\nfile = \"box.obj\"\nposition = [{}.0, 0.0, 0.0]\n",
                3 * k
            )
        })
        .collect();
    let s = open_scene(&d, &row).unwrap();
    assert_eq!(s.world.stats().triangles, 12_000);
    assert_eq!(s.placed.as_ref().unwrap().instances().len(), 1000);
}

#[test]
fn scale_is_refused_for_a_scene_and_applied_to_the_built_in_map() {
    let d = box_dir("scale");
    let path = d.join("scene.toml");
    std::fs::write(&path, "[[model]]\nfile = \"box.obj\"\n").unwrap();
    let opts = OpenOptions {
        scale: Some(2.0),
        ..OpenOptions::default()
    };
    let e = Session::open(Some(&path), &opts).unwrap_err().to_string();
    assert!(
        e.ends_with("--scale 2 does not apply to a scene: each [[model]] has its own scale"),
        "{e}"
    );

    let one = Session::open(None, &OpenOptions::default()).unwrap();
    let two = Session::open(None, &opts).unwrap();
    assert_eq!(two.map.bounds.max, one.map.bounds.max * 2.0);
    assert_eq!(two.world.bounds().max, one.world.bounds().max * 2.0);
    assert_eq!(two.map.frame.scale, 2.0);
}

#[test]
fn a_spawn_outside_the_map_and_an_open_map_are_warned_about() {
    let closed = Session::open(None, &OpenOptions::default()).unwrap();
    assert!(closed.map.warnings.is_empty(), "{:?}", closed.map.warnings);
    let far = Session::open(
        None,
        &OpenOptions {
            spawn: Some(Vec3::new(500.0, 1.6, 0.0)),
            ..OpenOptions::default()
        },
    )
    .unwrap();
    assert!(
        far.map
            .warnings
            .iter()
            .any(|w| w.starts_with("the spawn is outside the map")),
        "{:?}",
        far.map.warnings
    );
    // A floor with one wall: open on three sides.
    let d = box_dir("open");
    let mut obj =
        String::from("v -10 0 -10\nv 10 0 -10\nv 10 0 10\nv -10 0 10\nf 1 3 2\nf 1 4 3\n");
    obj += "v -10 0 -10\nv 10 0 -10\nv 10 3 -10\nv -10 3 -10\nf 5 6 7\nf 5 7 8\n";
    std::fs::write(d.join("open.obj"), obj).unwrap();
    let s = Session::open(
        Some(&d.join("open.obj")),
        &OpenOptions {
            scale: Some(1.0),
            spawn: Some(Vec3::new(0.0, 1.6, 0.0)),
            ..OpenOptions::default()
        },
    )
    .unwrap();
    let w: Vec<&String> = s
        .map
        .warnings
        .iter()
        .filter(|w| w.starts_with("the map is open"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", s.map.warnings);
    // Of 16 headings, those not toward the wall (z = -10, yaw 0 looks toward -Z) are open.
    assert!(w[0].contains("(11 of 16 headings are open)"), "{}", w[0]);
}

/// A model file that cannot be read (missing, a directory, a FIFO,
/// `/dev/zero`, not an OBJ, a bad line inside it) was reported without the scene's file
/// and line. Both are named, and the model's own line where
/// it is at fault.
#[test]
fn a_model_that_cannot_be_read_is_named_at_the_scene_line_that_places_it() {
    let d = box_dir("unreadable");
    std::fs::create_dir_all(d.join("folder.obj")).unwrap();
    std::fs::write(d.join("notes.obj"), "Some prose.\nMore of it.\n").unwrap();
    std::fs::write(d.join("bad.obj"), "v 0 0 0\nv 1 0 0\nv 0 1\nf 1 2 3\n").unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(d.join("pipe.obj"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let scene = d.join("scene.toml");
    for (file, want) in [
        ("missing.obj", "missing.obj: cannot read the file"),
        ("folder.obj", "folder.obj: is a directory, not an OBJ file"),
        ("pipe.obj", "pipe.obj: is not a regular file"),
        ("/dev/zero", "/dev/zero: is not a regular file"),
        ("notes.obj", "notes.obj: does not look like an OBJ file"),
        (
            "bad.obj",
            "bad.obj:3: a vertex needs three numbers: 'v 0 1'",
        ),
    ] {
        let text = format!("[[model]]\nfile = \"box.obj\"\n\n[[model]]\nfile = \"{file}\"\n");
        let e = open_scene(&d, &text).unwrap_err();
        let at = format!("{}:5: model 2 ({file}): ", scene.display());
        assert!(e.starts_with(&at), "{e}");
        assert!(e.contains(want), "{e}");
    }
}

/// An unclosed array was blamed on the next line, where the
/// reader gave up; the README says the line it starts on.
#[test]
fn an_unclosed_array_is_blamed_on_the_line_it_starts_on() {
    let d = box_dir("unclosed");
    for text in [
        "[[model]]\nfile = \"box.obj\"\nposition = [1.0, 2.0\nscale = 2\n",
        "[[model]]\nfile = \"box.obj\"\nposition = [1.0, 2.0,\n\n[[model]]\nfile = \"box.obj\"\n",
        "[[model]]\nfile = \"box.obj\"\nrotation = [0.0, # a comment with [ and \"\n  45.0, 0.0\n",
    ] {
        let e = open_scene(&d, text).unwrap_err();
        assert!(
            e.contains("scene.toml:3: not a walkthrough scene: "),
            "{text:?}: {e}"
        );
    }
}

/// `up = "w"` named no line; a far position with a small scale was
/// blamed on the scale; scales of 1e30 and 1e-7 gave "the placement cannot be inverted".
/// Each names its line and its field, and says why.
#[test]
fn scene_fields_out_of_range_name_their_line_and_why() {
    let d = box_dir("fields");
    for (text, want) in [
        (
            "# a scene\nup = \"w\"\n[[model]]\nfile = \"box.obj\"\n",
            ":2: up: unknown up axis 'w' (expected",
        ),
        (
            "[[model]]\nfile = \"box.obj\"\nposition = [999999.0, 0.0, 0.0]\nscale = 2.0\n",
            ":3: model 1 (box.obj): position [999999.0, 0.0, 0.0] (with scale [2.0, 2.0, 2.0]) puts the model 1.000001e6 m from the origin",
        ),
        (
            "[[model]]\nfile = \"box.obj\"\nscale = 1e30\n",
            ":3: model 1 (box.obj): scale [1e30, 1e30, 1e30] is out of range (1e-4 to 1e4 on each axis): a model made that large",
        ),
        (
            "[[model]]\nfile = \"box.obj\"\n\nscale = [1.0, 1e-7, 1.0]\n",
            ":4: model 1 (box.obj): scale [1.0, 1e-7, 1.0] is out of range (1e-4 to 1e4 on each axis): a model made that small rounds its triangles away",
        ),
    ] {
        let e = open_scene(&d, text).unwrap_err();
        assert!(e.contains(want), "{e}\nwanted {want}");
    }
    // A model in millimetres is placed (its transform's determinant, 1e-9, was refused as
    // not invertible).
    let s = open_scene(&d, "[[model]]\nfile = \"box.obj\"\nscale = 0.001\n");
    let s = s.expect("a scale of 0.001 places the model");
    assert!((s.world.bounds().max.x - 0.001).abs() < 1e-6);
}

/// A position of four numbers was read as its first three (exit
/// 0). Arrays of the wrong length are refused for position, rotation and scale.
#[test]
fn a_position_of_four_numbers_is_refused() {
    let d = box_dir("four");
    for (field, value, count) in [
        ("position", "[1.0, 2.0, 3.0, 4.0]", 4),
        ("rotation", "[0.0, 90.0]", 2),
        ("scale", "[1.0, 1.0, 1.0, 1.0, 1.0]", 5),
    ] {
        let e = open_scene(
            &d,
            &format!("[[model]]\nfile = \"box.obj\"\n{field} = {value}\n"),
        )
        .unwrap_err();
        let want = format!(":3: model 1 (box.obj): {field} ");
        assert!(e.contains(&want), "{e}");
        assert!(
            e.ends_with(&format!("must be three numbers [x, y, z], not {count}")),
            "{e}"
        );
    }
}

/// A placed model may move: its `[model.motion]` keys are read, the placement stands at
/// its first key, and a bad motion is refused at the scene's line with its reason.
#[test]
fn a_scenes_motion_is_read_and_a_bad_one_named_at_its_line() {
    use walkthrough_core::map::motion::Play;
    use walkthrough_core::map::scene::load_scene;
    let d = box_dir("motion");
    let path = d.join("scene.toml");
    std::fs::write(
        &path,
        "[[model]]\nfile = \"box.obj\"\n\n[[model]]\nfile = \"box.obj\"\nposition = [9, 9, 9]\n\n[model.motion]\nkeys = [[0, 4, 0, 0, 0, 0, 0], [3, 4, 3, 0, 0, 0, 0]]\nplay = \"ping-pong\"\n",
    )
    .unwrap();
    let scene = load_scene(&path, Default::default(), Default::default()).unwrap();
    assert_eq!(scene.movers.len(), 1);
    let m = &scene.movers[0];
    assert_eq!(m.instance, 1);
    assert_eq!(m.motion.play, Play::PingPong);
    // The box (from -1 to 1) stands at the first key (4, 0, 0), not at `position`.
    let b = scene.world.instances()[1].bounds;
    assert!(
        (b.center() - Vec3::new(4.0, 0.0, 0.0)).length() < 1e-4,
        "{b:?}"
    );
    for (motion, want) in [
        (
            "keys = [[0, 0, 0, 0, 0, 0, 0], [1, 80, 0, 0, 0, 0, 0]]",
            ":9: model 2 (box.obj): motion keys 1 to 2: 80.0 m/s, over the 50 m/s",
        ),
        (
            "keys = [[0, 0, 0, 0, 0, 0, 0]]\nstart = \"soon\"",
            ":10: model 2 (box.obj): motion start \"soon\"",
        ),
        (
            "keys = [[0, 0, 0, 0, 0, 0, 0]]\nspeed = 3",
            ":10: not a walkthrough scene: unknown field `speed`",
        ),
    ] {
        let text = format!(
            "[[model]]\nfile = \"box.obj\"\n\n[[model]]\nfile = \"box.obj\"\n\n\n[model.motion]\n{motion}\n"
        );
        let e = open_scene(&d, &text).unwrap_err();
        assert!(e.contains(want), "{e}\nwanted {want}");
    }
}

#[test]
fn a_models_mirror_list_marks_its_materials_and_an_unknown_name_is_refused_at_its_line() {
    let d = scene_dir(&[
        (
            "m.toml",
            "[[model]]\nfile = \"m.obj\"\nmirror = [\"glass\"]\n\n[[model]]\nfile = \"m.obj\"\nposition = [5, 0, 0]\n",
        ),
        (
            "m.obj",
            "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nusemtl glass\nf 1 2 3\nusemtl wall\nf 1 3 4\n",
        ),
        (
            "m.mtl",
            "newmtl glass\nKd 1 1 1\nnewmtl wall\nKd 0.5 0.5 0.5\n",
        ),
    ]);
    let scene = load_scene(&d.join("m.toml"), UpAxis::Y, TextureOptions::default()).unwrap();
    let marked: Vec<(&str, bool)> = scene
        .map
        .materials
        .iter()
        .map(|m| (m.name.as_str(), m.mirror))
        .collect();
    assert_eq!(
        marked,
        [("default", false), ("glass", true), ("wall", false)]
    );
    // Both placements' glass, one plane: one mirror of two triangles.
    let mirrors = walkthrough_core::mirrors::find_mirrors(&scene.map);
    assert_eq!(mirrors.len(), 1);
    assert_eq!(mirrors[0].triangles.len(), 2);

    std::fs::write(
        d.join("n.toml"),
        "[[model]]\nfile = \"m.obj\"\n\nmirror = [\"gllass\"]\n",
    )
    .unwrap();
    let e = load_scene(&d.join("n.toml"), UpAxis::Y, TextureOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("{}:4:", d.join("n.toml").display()))
            && e.contains("no model has a material named 'gllass'"),
        "{e}"
    );
}

/// A scene whose models share one MTL was said to have each
/// model's copy of its materials (56 for 8). The example scene's six models share
/// `moving.mtl`'s four.
#[test]
fn a_scene_counts_the_materials_its_models_share_once() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/moving-scene/scene.toml");
    let s = Session::open(Some(&path), &OpenOptions::default()).unwrap();
    assert_eq!(s.map.material_names(), 4);
    assert!(
        s.describe().contains("6 objects, 4 materials"),
        "{}",
        s.describe()
    );
}

/// The load says which up axis a scene's models were read with, and why (`--up z`
/// was applied and the load said "up axes as the scene file gives them").
#[test]
fn a_scenes_up_axis_is_said_with_where_it_came_from() {
    let models = std::fs::read_to_string(example()).unwrap();
    let folder = example().parent().unwrap().to_path_buf();
    let models = models.replace("\"../", &format!("\"{}/../", folder.display()));
    let models = models.replace(
        "file = \"column",
        &format!("file = \"{}/column", folder.display()),
    );
    let named = format!("up = \"z\"\n{models}");
    let d = scene_dir(&[("named.toml", &named), ("plain.toml", &models)]);
    let reason = |file: &str, up: Option<UpAxis>| {
        let opts = OpenOptions {
            up,
            ..OpenOptions::default()
        };
        Session::open(Some(&d.join(file)), &opts).unwrap().up_reason
    };
    assert_eq!(
        reason("named.toml", Some(UpAxis::X)),
        "up z for every model, as the scene file says (--up x is for scenes that name none)"
    );
    assert_eq!(
        reason("named.toml", None),
        "up z for every model, as the scene file says"
    );
    assert_eq!(
        reason("plain.toml", Some(UpAxis::Z)),
        "up z for every model, from --up (the scene file names none)"
    );
    assert_eq!(
        reason("plain.toml", None),
        "up y for every model (the scene file names none)"
    );
}

/// A scene where nothing moves reuses the ticks that repeat, as a map does. Its
/// placements name a revision (they named none, and every tick of a walker standing in
/// a scene was worked out again). Standing in the example scene, a walker sweeps nothing
/// once it has settled, and walks to the bit the path of one that remembers nothing.
#[test]
fn a_walker_standing_in_a_still_scene_reuses_its_ticks() {
    use common::counted::Counted;
    use walkthrough_core::collision::{Account, Recorder};
    use walkthrough_core::map::MapFrame;
    use walkthrough_core::player::{Controller, ControllerSettings, MoveIntent};
    use walkthrough_core::sim::{parse_script, run_to_rows};

    let s = Session::open(Some(&example()), &OpenOptions::default()).unwrap();
    let world = s.collider();
    assert!(world.revision().is_some(), "a still scene names a revision");
    let settings = ControllerSettings::default();
    let script = parse_script("stand.txt", "wait 1\nforward 0.5\nturn 90\nwait 1\n").unwrap();
    let dt = 1.0 / 120.0;
    let rows = |world: &dyn Collider| {
        let mut c = Controller::new(s.start_pose(None), settings);
        run_to_rows(world, &MapFrame::default(), &mut c, &script, dt)
    };
    let counted = Counted::new(world);
    let remembering = rows(&counted);
    let mut account = Account::default();
    let forgetting = rows(&Recorder::new(world, &mut account));
    assert_eq!(remembering.len(), forgetting.len());
    for (a, b) in remembering.iter().zip(&forgetting) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
    assert!(
        counted.sweeps.get() * 2 < account.sweeps,
        "remembering {} sweeps, forgetting {}",
        counted.sweeps.get(),
        account.sweeps
    );
    // Settled, a second of standing sweeps nothing.
    let mut walker = Controller::new(s.start_pose(None), settings);
    let still = MoveIntent::default();
    for _ in 0..120 {
        walker.step(&counted, &still, dt as f32);
    }
    let before = counted.sweeps.get();
    for _ in 0..120 {
        walker.step(&counted, &still, dt as f32);
    }
    assert_eq!(counted.sweeps.get(), before);
    assert!(walker.walk.on_ground());
}

/// The example of a mirror (`assets/mirror-scene`) opens, and its glass is one mirror
/// standing ahead of the spawn, facing it, within sight (the frame is no mirror).
#[test]
fn the_mirror_example_opens_with_one_mirror_facing_the_spawn() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/mirror-scene/scene.toml");
    let s = Session::open(Some(&path), &OpenOptions::default()).unwrap();
    let mirrors = walkthrough_core::mirrors::find_mirrors(&s.map);
    assert_eq!(mirrors.len(), 1, "{mirrors:?}");
    let glass = &mirrors[0];
    // The glass quad: two triangles, in the plane z = 3.061, 1.8 x 2.2 m.
    assert_eq!(glass.triangles.len(), 2);
    assert!(
        (glass.normal.z.abs() - 1.0).abs() < 1e-6,
        "{:?}",
        glass.normal
    );
    let size = glass.bounds.max - glass.bounds.min;
    assert!(
        (size.x - 1.8).abs() < 1e-4 && (size.y - 2.2).abs() < 1e-4,
        "{size:?}"
    );
    assert!(
        (glass.bounds.min.z - 3.061).abs() < 1e-4,
        "{:?}",
        glass.bounds
    );
    // The spawn looks along -Z (yaw 0) from in front of it.
    let eye = s.start_pose(None);
    assert!(eye.position.z > 3.061 + 2.0, "{eye:?}");
    assert!(eye.yaw_deg.abs() < 1e-3, "{eye:?}");
}
