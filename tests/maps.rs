//! Real files: the tricky OBJ corpus and the shared maps (from ../shared, present in CI),
//! and the small files this repository ships in assets/test.
//!
//! Without ../shared the shared-file tests say SKIPPED on stderr; under CI (CI=true) a
//! missing ../shared is a failure, so they can never pass by not running.

mod common;

use common::{corpus_files, shared};

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use glam::Vec3;
use walkthrough_core::collision::Response;
use walkthrough_core::collision::body::EYE_HEIGHT;
use walkthrough_core::map::{LoadOptions, UpAxis, load_obj_file};
use walkthrough_core::player::{Controller, ControllerSettings, MoveIntent};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::survey::spawn::SPAWN_EDGE_REACH;
use walkthrough_core::test_kit::obj::obj_text;

fn repo(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(sub)
}

#[test]
fn every_corpus_file_loads_or_is_refused_clearly() {
    let Some(files) = corpus_files() else {
        return;
    };
    assert!(files.len() >= 40, "corpus has {} files", files.len());
    let (mut loaded, mut refused) = (0, 0);
    for path in files {
        // A hang is a failure too: each file gets ten seconds.
        let (tx, rx) = mpsc::channel();
        let p = path.clone();
        std::thread::spawn(move || {
            let _ = tx.send(Session::open(Some(&p), &OpenOptions::default()).map(|s| {
                let finite = s.map.vertices.iter().all(|v| {
                    v.position
                        .iter()
                        .chain(&v.normal)
                        .chain(&v.uv)
                        .all(|x| x.is_finite())
                });
                let world_ok = s.world.triangles().iter().all(|t| {
                    t.a.is_finite()
                        && t.b.is_finite()
                        && t.c.is_finite()
                        && t.plane.normal.is_finite()
                });
                (
                    finite && world_ok && s.spawn.position.is_finite(),
                    s.map.warnings.len(),
                )
            }));
        });
        let shown = path.display().to_string();
        match rx.recv_timeout(Duration::from_secs(10)) {
            Err(_) => panic!("{shown}: load hung or panicked"),
            Ok(Ok((finite, _warnings))) => {
                assert!(finite, "{shown}: a NaN reached the map or the world");
                loaded += 1;
            }
            Ok(Err(e)) => {
                let msg = e.to_string();
                assert!(
                    msg.starts_with(&shown),
                    "error does not name the file: {msg}"
                );
                assert!(msg.len() > shown.len() + 5, "error gives no reason: {msg}");
                refused += 1;
            }
        }
    }
    eprintln!("corpus: {loaded} loaded, {refused} refused with a message");
    assert!(loaded > 30, "only {loaded} corpus files loaded");
}

#[test]
fn corpus_malformed_faces_are_refused_with_their_line() {
    let Some(dir) = shared("obj-corpus") else {
        return;
    };
    let p = dir.join("invalid-relative-vertex-index.obj");
    let e = load_obj_file(&p, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("{}:1: relative vertex index", p.display())),
        "{e}"
    );
}

#[test]
fn corpus_whitespace_in_mtl_file_names_finds_the_material() {
    let Some(dir) = shared("obj-corpus") else {
        return;
    };
    let m = load_obj_file(
        &dir.join("mtl filename with whitespace issue46.obj"),
        &LoadOptions::default(),
    )
    .unwrap();
    assert!(
        m.materials.len() > 1,
        "materials: {:?}",
        m.materials.iter().map(|m| &m.name).collect::<Vec<_>>()
    );
}

/// Walk a shared map from its automatic spawn with both responses; every leg of every
/// step is checked against every triangle by an independent brute-force test.
fn walk_shared(name: &str, expect_scale: (f32, f32)) {
    let Some(dir) = shared(&format!("maps/{name}")) else {
        return;
    };
    let s = Session::open(
        Some(&dir.join(format!("{name}.obj"))),
        &OpenOptions::default(),
    )
    .unwrap();
    let scale = s.map.frame.scale;
    assert!(
        (expect_scale.0..=expect_scale.1).contains(&scale),
        "{name}: scale {scale}: {}",
        s.scale_reason
    );
    // The walker starts on a floor, inside the map, with its eye at eye height.
    let spawn = s.spawn.position;
    assert!(
        s.world.bounds().contains(spawn),
        "{name}: spawn {spawn} outside the map"
    );
    let below = s
        .world
        .ray_cast(spawn, -Vec3::Y, 100.0)
        .expect("a floor under the spawn")
        .distance;
    assert!(
        (below - EYE_HEIGHT).abs() < 0.05,
        "{name}: floor {below} m below the eye"
    );
    let tris: Vec<[Vec3; 3]> = s.world.triangles().iter().map(|t| t.vertices()).collect();
    for response in [Response::Slide, Response::Stop] {
        let settings = ControllerSettings {
            response,
            speed: 4.0,
            ..ControllerSettings::default()
        };
        let mut c = Controller::new(s.start_pose(None), settings);
        let mut moved = 0.0;
        for step in 0..480 {
            if step % 120 == 0 {
                c.pose.turn(77.0, 0.0);
            }
            let intent = MoveIntent {
                forward: 1.0,
                strafe: if step % 240 < 120 { 0.3 } else { 0.0 },
                jump: step % 90 == 45,
                ..Default::default()
            };
            let before = c.pose.position;
            c.step(&s.world, &intent, 1.0 / 60.0);
            // The body (walking, with gravity, steps and jumps) ends every step off every
            // triangle: an independent distance oracle over the whole map.
            let body = c.body();
            let centre = body.centre_of(c.pose.position);
            let gap = common::nearest_ellipsoid_distance(&body, centre, &tris);
            assert!(
                gap >= 1.0 - 1e-4,
                "{name} {response}: step {step} overlaps: {gap}"
            );
            moved += (c.pose.position - before).length();
        }
        assert!(
            moved > 1.0,
            "{name} {response}: the walker barely moved ({moved} m)"
        );
    }
}

#[test]
fn cornell_box_walk_from_automatic_spawn_never_crosses_a_triangle() {
    walk_shared("cornell_box", (0.004, 0.007));
}

#[test]
fn lost_empire_walk_from_automatic_spawn_never_crosses_a_triangle() {
    walk_shared("lost_empire", (1.0, 1.0));
}

#[test]
fn conference_walk_from_automatic_spawn_never_crosses_a_triangle() {
    walk_shared("conference", (0.002, 0.006));
}

#[test]
fn lost_empire_textures_load_with_alpha_cut_outs() {
    let Some(dir) = shared("maps/lost_empire") else {
        return;
    };
    let m = load_obj_file(&dir.join("lost_empire.obj"), &LoadOptions::default()).unwrap();
    let textured = m.materials.iter().filter(|m| m.texture.is_some()).count();
    assert!(textured >= 40, "{textured} textured materials");
    assert!(
        m.materials
            .iter()
            .any(|m| m.texture.as_ref().is_some_and(|t| t.has_alpha)),
        "no cut-out material"
    );
    assert!(
        m.warnings.iter().all(|w| !w.contains("texture")),
        "{:?}",
        m.warnings
    );
}

#[test]
fn shipped_map_with_spaces_missing_texture_and_z_up_loads() {
    let p = repo("assets/test/room with spaces.obj");
    let m = load_obj_file(
        &p,
        &LoadOptions {
            scale: Some(1.0),
            up: UpAxis::Z,
            ..LoadOptions::default()
        },
    )
    .unwrap();
    assert!(m.triangle_count() >= 12);
    // Its MTL (also with spaces) gives colours; the missing texture is only a warning.
    assert!(m.materials.iter().any(|mat| mat.diffuse == [0.8, 0.2, 0.2]));
    assert!(
        m.warnings.iter().any(|w| w.contains("missing.png")),
        "{:?}",
        m.warnings
    );
    // Z-up: the room is 3 units tall along the file's Z, so along the world's Y.
    assert!((m.bounds.size().y - 3.0).abs() < 1e-5, "{:?}", m.bounds);
}

#[test]
fn shipped_textured_quad_decodes_its_png() {
    let p = repo("assets/test/textured.obj");
    let m = load_obj_file(&p, &LoadOptions::default()).unwrap();
    let tex = m
        .materials
        .iter()
        .find_map(|m| m.texture.clone())
        .expect("texture loaded");
    assert_eq!((tex.width, tex.height), (4, 4));
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
}

/// The real `walkthrough sim` on a shared map with automatic spawn and scale: the trace
/// starts at the spawn, moves, and no step between two trace rows crosses a triangle.
fn sim_binary_on_shared(name: &str) {
    let Some(dir) = shared(&format!("maps/{name}")) else {
        return;
    };
    let obj = dir.join(format!("{name}.obj"));
    let script =
        std::env::temp_dir().join(format!("walkthrough-sim-{name}-{}.txt", std::process::id()));
    std::fs::write(
        &script,
        "forward 2\nturn 100\nrun on\nforward 2\nturn -150\nright 1\nforward 2\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        // Never the user's remembered corrections: an empty settings folder.
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .args([
            "sim",
            obj.to_str().unwrap(),
            "--script",
            script.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("spawn:") && err.contains("scale"),
        "sim must say where and why: {err}"
    );
    let s = Session::open(Some(&obj), &OpenOptions::default()).unwrap();
    let rows: Vec<Vec3> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<f32> = l
                .split(',')
                .skip(2)
                .take(3)
                .map(|x| x.parse().unwrap())
                .collect();
            s.map.frame.to_world(Vec3::new(f[0], f[1], f[2]))
        })
        .collect();
    assert_eq!(
        rows.len(),
        1 + (2 + 2 + 1 + 2) * 120,
        "{name}: one row per step, plus the start"
    );
    assert!(
        (rows[0] - s.spawn.position).length() < 1e-3 * s.map.frame.scale.max(1.0),
        "{name}: starts at the spawn"
    );
    let tris: Vec<[Vec3; 3]> = s.world.triangles().iter().map(|t| t.vertices()).collect();
    let mut moved = 0.0;
    for w in rows.windows(2) {
        moved += (w[1] - w[0]).length();
        if let Some(t) = tris.iter().find(|t| common::segment_touches(t, w[0], w[1])) {
            panic!("{name}: {} -> {} crosses {t:?}", w[0], w[1]);
        }
    }
    assert!(moved > 2.0, "{name}: moved only {moved} m");
}

#[test]
fn sim_binary_walks_cornell_box_without_crossing() {
    sim_binary_on_shared("cornell_box");
}

#[test]
fn sim_binary_walks_lost_empire_without_crossing() {
    sim_binary_on_shared("lost_empire");
}

#[test]
fn sim_binary_walks_conference_without_crossing() {
    sim_binary_on_shared("conference");
}

/// The box is open toward -z (file z = 0), its floor ending there: the spawn stands on
/// the floor, back from that edge (it stood 6 cm from it, and a step back fell off the
/// map), looking into the box, not out of its open side.
#[test]
fn cornell_box_spawn_stands_on_the_big_floor_back_from_the_open_front_facing_in() {
    let Some(dir) = shared("maps/cornell_box") else {
        return;
    };
    let s = Session::open(Some(&dir.join("cornell_box.obj")), &OpenOptions::default()).unwrap();
    let b = s.world.bounds();
    let pose = s.start_pose(None);
    // Feet on the floor (the lowest level), not on the top of a block, nor lifted onto a
    // block's edge (a spawn 0.3 m behind the short block rested 4.8 cm up on it).
    let feet_y = pose.position.y - EYE_HEIGHT;
    assert!(
        (feet_y - b.min.y).abs() < 0.01,
        "feet at {feet_y}, floor at {}",
        b.min.y
    );
    let from_edge = pose.position.z - b.min.z;
    assert!(
        from_edge >= SPAWN_EDGE_REACH,
        "spawn {} only {from_edge:.2} m from the open front",
        pose.position
    );
    let heading = pose.forward_flat();
    assert!(
        heading.z > 0.0,
        "facing {heading} (yaw {}): out of the open side",
        pose.yaw_deg
    );
    let wall = s
        .world
        .ray_cast(pose.position, heading, 100.0)
        .expect("the view meets the map");
    assert!(wall.distance < b.size().max_element(), "{wall:?}");
    // A step back meets a wall, or still has floor under it.
    let wall_behind = s
        .world
        .ray_cast(pose.position, -heading, SPAWN_EDGE_REACH)
        .is_some();
    let behind = pose.position - heading * SPAWN_EDGE_REACH;
    let floor = s.world.ray_cast(behind, -Vec3::Y, EYE_HEIGHT + 0.1);
    assert!(
        wall_behind || floor.is_some(),
        "a step back falls off the map"
    );
}

/// An `mtllib` named in another case than its file (`LEVEL.MTL` beside `level.mtl`, or
/// with a Windows `\\`) is found as a texture is: its materials were grey, "not found",
/// on a file system that tells case apart.
#[test]
fn an_mtllib_named_in_another_case_is_found() {
    let dir = std::env::temp_dir().join(format!("walkthrough-mtl-case-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("mats")).unwrap();
    std::fs::write(dir.join("mats/level.mtl"), "newmtl red\nKd 1 0 0\n").unwrap();
    for (file, mtllib) in [
        ("upper.obj", "LEVEL.MTL"),
        ("windows.obj", "Mats\\Level.mtl"),
    ] {
        let path = if mtllib.contains('\\') {
            dir.join(file)
        } else {
            std::fs::copy(dir.join("mats/level.mtl"), dir.join("level.mtl")).unwrap();
            dir.join(file)
        };
        let obj = format!("mtllib {mtllib}\nv 0 0 0\nv 1 0 0\nv 0 0 1\nusemtl red\nf 1 2 3\n");
        std::fs::write(&path, obj).unwrap();
        let m = load_obj_file(&path, &LoadOptions::default()).unwrap();
        let red = m.materials.iter().find(|x| x.name == "red");
        assert_eq!(red.map(|x| x.diffuse), Some([1.0, 0.0, 0.0]), "{mtllib}");
        assert!(m.warnings.is_empty(), "{mtllib}: {:?}", m.warnings);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `f 1 2` was dropped without a word, and a file of only such faces was said to have
/// "no faces": each is counted in a warning, and the refusal says
/// why; a polyline (`l`) is no face and is not counted.
#[test]
fn a_face_of_fewer_than_three_corners_is_said_dropped() {
    let dir = std::env::temp_dir().join(format!("walkthrough-short-face-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let floor = "v 0 0 0\nv 4 0 0\nv 0 0 4\nv 4 0 4\nf 1 2 3\nf 2 4 3\n";
    let mixed = dir.join("mixed.obj");
    // An empty `f` is one too, counted once (it was also said to
    // have no area).
    std::fs::write(&mixed, format!("{floor}f 1 2\nl 1 2\nf 3\np 1\nf\n")).unwrap();
    let m = load_obj_file(&mixed, &LoadOptions::default()).unwrap();
    assert_eq!(m.triangle_count(), 2);
    let said: Vec<&String> = m
        .warnings
        .iter()
        .filter(|w| w.contains("corners"))
        .collect();
    assert_eq!(said.len(), 1, "{:?}", m.warnings);
    assert!(
        !m.warnings.iter().any(|w| w.contains("no area")),
        "{:?}",
        m.warnings
    );
    assert!(
        said[0].contains("dropped 3 faces of fewer than three corners"),
        "{}",
        said[0]
    );
    let lines = dir.join("lines.obj");
    std::fs::write(&lines, format!("{floor}l 1 2 3\n")).unwrap();
    let m = load_obj_file(&lines, &LoadOptions::default()).unwrap();
    assert!(
        !m.warnings.iter().any(|w| w.contains("corners")),
        "{:?}",
        m.warnings
    );
    let only = dir.join("only.obj");
    std::fs::write(&only, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n").unwrap();
    let e = load_obj_file(&only, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("its one face has fewer than three corners"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn many_missing_textures_are_one_warning_naming_the_folder_and_a_few() {
    let dir = std::env::temp_dir().join(format!("walkthrough-missing-tex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut obj, mut mtl) = (String::from("mtllib level.mtl\n"), String::new());
    for i in 0..81 {
        mtl += &format!("newmtl m{i}\nKd 0.5 0.5 0.5\nmap_Kd tex_{i:02}.png\n");
        let x = i as f32 * 2.0;
        obj += &format!(
            "v {x} 0 0\nv {} 0 0\nv {x} 0 1\nusemtl m{i}\nf -3 -2 -1\n",
            x + 1.0
        );
    }
    std::fs::write(dir.join("level.obj"), obj).unwrap();
    std::fs::write(dir.join("level.mtl"), mtl).unwrap();
    let m = load_obj_file(&dir.join("level.obj"), &LoadOptions::default()).unwrap();
    let about: Vec<&String> = m.warnings.iter().filter(|w| w.contains("tex_")).collect();
    assert_eq!(about.len(), 1, "{:?}", m.warnings);
    let w = about[0];
    assert!(w.starts_with("81 textures not found in "), "{w}");
    assert!(w.contains(&dir.display().to_string()), "{w}");
    assert!(
        w.contains("(tex_00.png, tex_01.png, tex_02.png and 78 more"),
        "{w}"
    );
    assert_eq!(m.details.len(), 81);
    assert!(m.details[80].ends_with("tex_80.png"), "{}", m.details[80]);
}

#[test]
fn a_z_up_level_opens_upright_without_flags_and_y_up_maps_stay_y_up() {
    // The built-in map written Z-up, as a CAD or Quake export would be: world (x, y, z)
    // is file (x, -z, y).
    let dir = std::env::temp_dir().join(format!("walkthrough-z-up-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let turn = |line: &str| {
        let mut w = line.split_whitespace();
        match w.next() {
            Some(key @ ("v" | "vn")) => {
                let n: Vec<f32> = w.map(|x| x.parse().unwrap()).collect();
                format!("{key} {} {} {}", n[0], -n[2], n[1])
            }
            _ => line.to_string(),
        }
    };
    let obj: Vec<String> = walkthrough_core::map::builtin::DEFAULT_OBJ
        .lines()
        .map(turn)
        .collect();
    std::fs::write(dir.join("default.obj"), obj.join("\n")).unwrap();
    std::fs::write(
        dir.join("default.mtl"),
        walkthrough_core::map::builtin::DEFAULT_MTL,
    )
    .unwrap();
    let z_up = Session::open(Some(&dir.join("default.obj")), &OpenOptions::default()).unwrap();
    assert_eq!(z_up.map.frame.up, UpAxis::Z, "{}", z_up.up_reason);
    assert!(
        z_up.up_reason.starts_with("up axis z: "),
        "{}",
        z_up.up_reason
    );
    let builtin = Session::open(None, &OpenOptions::default()).unwrap();
    let (a, b) = (z_up.start_pose(None), builtin.start_pose(None));
    assert!(
        (a.position - b.position).length() < 1e-3,
        "{} vs {}",
        a.position,
        b.position
    );
    assert!((z_up.world.bounds().size() - builtin.world.bounds().size()).length() < 1e-3);
    // --up y still reads it as written: lying on its side.
    let forced = OpenOptions {
        up: Some(UpAxis::Y),
        ..OpenOptions::default()
    };
    let sideways = Session::open(Some(&dir.join("default.obj")), &forced).unwrap();
    assert_eq!(sideways.map.frame.up, UpAxis::Y);
    // The shipped Z-up room is a closed box with a table and a bed: no sky, its floor and
    // its long walls as level as each other. Nothing walls cannot give says Z, so it keeps
    // OBJ's convention and says so (the up-axis key, or --up z, turns it upright).
    let room = Session::open(
        Some(&repo("assets/test/room with spaces.obj")),
        &OpenOptions::default(),
    )
    .unwrap();
    assert_eq!(room.map.frame.up, UpAxis::Y, "{}", room.up_reason);
    assert!(
        room.up_reason.contains("OBJ's convention"),
        "{}",
        room.up_reason
    );
    // The shared maps (all Y-up) stay Y-up.
    for name in ["cornell_box", "lost_empire", "conference"] {
        let Some(d) = shared(&format!("maps/{name}")) else {
            return;
        };
        let s = Session::open(
            Some(&d.join(format!("{name}.obj"))),
            &OpenOptions::default(),
        )
        .unwrap();
        assert_eq!(s.map.frame.up, UpAxis::Y, "{name}: {}", s.up_reason);
    }
}

/// An OBJ town in metres: a ground plane and `n` x `n` closed building blocks of varied
/// sizes along 6 m streets, no ceilings anywhere (the sky is open). Returns the file and
/// every block's corners.
fn town(n: usize, name: &str) -> (PathBuf, Vec<(Vec3, Vec3)>) {
    let pitch = 20.0;
    let side = n as f32 * pitch + 10.0;
    let ground = Vec3::new(-10.0, 0.0, -10.0);
    let mut triangles = vec![
        [
            ground,
            Vec3::new(side, 0.0, -10.0),
            Vec3::new(side, 0.0, side),
        ],
        [
            ground,
            Vec3::new(side, 0.0, side),
            Vec3::new(-10.0, 0.0, side),
        ],
    ];
    let mut blocks = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let k = (i * 7 + j * 13) % 11;
            let (w, d, h) = (
                8.0 + k as f32 * 0.5,
                14.0 - k as f32 * 0.5,
                6.0 + (k * 5 % 24) as f32,
            );
            let lo = Vec3::new(i as f32 * pitch, 0.0, j as f32 * pitch);
            let hi = lo + Vec3::new(w, h, d);
            triangles.extend(common::cube(lo, hi));
            blocks.push((lo, hi));
        }
    }
    let obj = obj_text(&triangles);
    let dir = std::env::temp_dir().join(format!("walkthrough-town-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, obj).unwrap();
    (path, blocks)
}

#[test]
fn a_town_of_closed_blocks_keeps_metres_and_spawns_in_the_street() {
    // 63 x 63 = 3969 blocks: about the 4,000 of the report.
    let (path, blocks) = town(63, "town.obj");
    let s = Session::open(Some(&path), &OpenOptions::default()).unwrap();
    assert_eq!(s.map.frame.scale, 1.0, "{}", s.scale_reason);
    let eye = s.map.frame.to_file(s.spawn.position);
    for (lo, hi) in &blocks {
        let inside = eye.cmpgt(*lo).all() && eye.cmplt(*hi).all();
        assert!(
            !inside,
            "spawn {eye} inside the block {lo} to {hi}: {}",
            s.spawn.reason
        );
    }
    // Standing on the ground, not on a roof.
    assert!(
        (eye.y - EYE_HEIGHT).abs() < 0.05,
        "spawn {eye}: {}",
        s.spawn.reason
    );
}

/// Append to `obj` a box from `min` to `max` (`common::cube`'s twelve triangles, each
/// with corners of its own), its corners numbered from `vertices` + 1, wound outward or
/// (`inward`) inward; returns the vertices written so far.
fn write_box(obj: &mut String, vertices: usize, min: Vec3, max: Vec3, inward: bool) -> usize {
    let mut n = vertices;
    // `common::cube` winds counter-clockwise seen from inside the box.
    for [a, b, c] in common::cube(min, max) {
        let corners = if inward { [a, b, c] } else { [a, c, b] };
        for p in corners {
            *obj += &format!("v {} {} {}\n", p.x, p.y, p.z);
        }
        *obj += &format!("f {} {} {}\n", n + 1, n + 2, n + 3);
        n += 3;
    }
    n
}

/// A column left 900 km from a 10 m room stretched the survey's grid until the room fell
/// between its samples: "no floor found" (then, read in millimetres, a spawn on the roof).
/// The survey reads the map's main part; the spawn stands in the room, at metres.
#[test]
fn column_at_9e5_m_the_spawn_is_still_in_the_room() {
    let mut obj = String::new();
    let mut vertices = 0;
    let mut boxed = |min: Vec3, max: Vec3, inward: bool| {
        vertices = write_box(&mut obj, vertices, min, max, inward);
    };
    boxed(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 3.0, 5.0), true);
    boxed(
        Vec3::new(9e5, 0.0, 0.0),
        Vec3::new(9e5 + 2.0, 3.0, 2.0),
        false,
    );
    let dir = std::env::temp_dir().join(format!("walkthrough-far-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("far_column.obj");
    std::fs::write(&path, obj).unwrap();
    let s = Session::open(Some(&path), &OpenOptions::default()).expect("opens");
    assert!((s.map.frame.scale - 1.0).abs() < 1e-6, "{}", s.scale_reason);
    let eye = s.spawn.position;
    assert!(
        eye.x.abs() < 5.0 && eye.z.abs() < 5.0 && (eye.y - EYE_HEIGHT).abs() < 0.01,
        "spawn {eye} ({})",
        s.spawn.reason
    );
    assert!(
        s.map
            .warnings
            .iter()
            .any(|w| w.contains("lie far from the rest")),
        "{:?}",
        s.map.warnings
    );
}

/// An OBJ, Z up in centimetres: a floor, a 60 cm crate on it (its faces wound inward, as
/// some exporters write them) and a single wall (open: seen from both sides).
fn crate_room_obj() -> String {
    let mut s = String::new();
    // Floor, 10 m square (vertices 1-4), wall at y = 300 (5-8).
    for (x, y, z) in [
        (-500, -500, 0),
        (500, -500, 0),
        (500, 500, 0),
        (-500, 500, 0),
        (-200, 300, 0),
        (200, 300, 0),
        (200, 300, 250),
        (-200, 300, 250),
    ] {
        s += &format!("v {x} {y} {z}\n");
    }
    s += "f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n";
    write_box(&mut s, 8, Vec3::ZERO, Vec3::splat(60.0), true);
    s
}

#[test]
fn closed_solids_are_found_at_load_and_stay_true_after_the_map_is_turned_and_scaled() {
    use walkthrough_core::cull::solids::closed_solids;
    use walkthrough_core::cull::{CLUSTER_TRIANGLES, cluster_map};
    use walkthrough_core::map::NO_SOLID;
    let path =
        std::env::temp_dir().join(format!("walkthrough-crate-room-{}.obj", std::process::id()));
    std::fs::write(&path, crate_room_obj()).unwrap();
    let opts = OpenOptions {
        up: Some(UpAxis::Z),
        scale: Some(0.01),
        ..OpenOptions::default()
    };
    let s = Session::open(Some(&path), &opts).expect("opens");
    let _ = std::fs::remove_file(&path);
    let m = &s.map;
    assert_eq!(m.vertices.len(), 3 * 16);
    // Found at load, in the file's coordinates: the crate's 12 triangles, not the floor's
    // nor the wall's; the same as a search of the turned and scaled map.
    assert_eq!(m.solids.count, 1);
    assert_eq!(
        m.solids.of_triangle,
        [[NO_SOLID; 4].as_slice(), &[0; 12]].concat()
    );
    assert_eq!(m.solids, closed_solids(&m.vertices));
    // The renderer's clusters: the crate's own, wound outward in the world (Y up,
    // metres), its box the crate's.
    let mesh = cluster_map(m, CLUSTER_TRIANGLES);
    let closed: Vec<_> = mesh
        .clusters
        .iter()
        .filter(|c| c.closed.is_some())
        .collect();
    assert_eq!(closed.len(), 1);
    let b = closed[0].closed.unwrap();
    assert!(
        (b.size() - Vec3::splat(0.6)).abs().max_element() < 1e-5,
        "{b:?}"
    );
    let centre = b.center();
    // As loaded, in the world, the crate's triangles face its centre: turned by the
    // clustering, not by the load.
    for t in m.triangles().skip(4) {
        let p = |k: usize| t[k];
        let n = (p(1) - p(0)).cross(p(2) - p(0));
        assert!(n.dot(p(0) - centre) < 0.0);
    }
    let idx = &mesh.indices[closed[0].first as usize..(closed[0].first + closed[0].count) as usize];
    for t in idx.chunks_exact(3) {
        let p = |k: usize| Vec3::from(mesh.vertices[t[k] as usize].position);
        let n = (p(1) - p(0)).cross(p(2) - p(0));
        assert!(n.dot(p(0) - centre) > 0.0);
    }
}

/// Recast's dungeon (slide mode): pressed up a walkable rock
/// slope into a 47-degree face, the walker crept up the crease, then the floor's follow
/// met the steep face first and slid it 0.27 m back down in one step, eleven times a
/// second; in a corner where the floor meets a wall through a 52-degree bevel it shook
/// through five places at 24 Hz. A slide down a steep face that would take the body well
/// aside is no floor's follow: the body is held by the face and falls, never jumps.
#[test]
fn pressed_into_a_steep_face_on_the_dungeon_the_walker_never_jumps_back() {
    let Some(dir) = shared("levels/recast_dungeon") else {
        return;
    };
    let mut s = Session::open(Some(&dir.join("dungeon.obj")), &OpenOptions::default()).unwrap();
    // (script, fastest horizontal speed it asks for, m/s)
    let runs = [
        ("start 22.2,26.2,-73.5 -149.3 0\nwait 0.3\nforward 3\n", 3.0),
        (
            "start -7.280,1.650,0.426 -117.6 0\nwait 0.3\nkeys forward+left 1.69\nrun on\n\
             turn -31.0\nkeys forward 2.56\nrun off\nturn -77.7\nkeys forward 3\n",
            7.5,
        ),
    ];
    let dt = 1.0 / 120.0;
    for (text, speed) in runs {
        let script = walkthrough_core::sim::parse_script("dungeon.txt", text).unwrap();
        let mut c = Controller::new(s.start_pose(None), ControllerSettings::default());
        let frame = s.map.frame;
        let rows =
            walkthrough_core::sim::run_to_rows_in(&mut s.ticking(), &frame, &mut c, &script, dt);
        // Row 0 is the script's start; every step after it moves no farther across than
        // the walk asks (a millimetre to spare), and the eye never drops back more than a
        // centimetre and comes up again within a few steps.
        let most = speed * dt as f32 + 1e-3;
        for w in rows[1..].windows(2) {
            let (a, b) = (w[0].file_point(), w[1].file_point());
            let across = Vec3::new(b[0] - a[0], 0.0, b[2] - a[2]).length();
            assert!(
                across <= most,
                "{across} m in one step at {} s:\n{a:?} -> {b:?}",
                w[1].t
            );
        }
        let ys: Vec<f32> = rows[1..].iter().map(|r| r.file_point()[1]).collect();
        let shakes = ys
            .windows(3)
            .filter(|w| (w[1] - w[0]) * (w[2] - w[1]) < 0.0 && (w[2] - w[1]).abs() > 0.01)
            .count();
        assert!(
            shakes <= 2,
            "the eye turned up or down by over 1 cm {shakes} times"
        );
    }
}

/// Doom's E1M1 read at its own scale (Doom units, 0.032 m) could
/// not be walked up, its stairs rising 16 units (0.51 m) against the walker's 0.45 m
/// step. A level in Doom's units climbs Doom's 24-unit step; the same stairs at another
/// scale (0.0315 m a unit, no engine's) are still walls.
#[test]
fn doom_stairs_read_in_doom_units_are_walked_up() {
    let dir = std::env::temp_dir().join(format!("walkthrough-doom-stairs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A floor 128 units wide, five steps of 16 up and 64 deep toward -z, then a landing.
    let mut obj = String::new();
    let mut n = 0;
    let mut quad = |obj: &mut String, c: [[f32; 3]; 4]| {
        for v in c {
            *obj += &format!("v {} {} {}\n", v[0], v[1], v[2]);
        }
        *obj += &format!("f {} {} {} {}\n", n + 1, n + 2, n + 3, n + 4);
        n += 4;
    };
    quad(
        &mut obj,
        [
            [-64., 0., 256.],
            [64., 0., 256.],
            [64., 0., 0.],
            [-64., 0., 0.],
        ],
    );
    for k in 0..6 {
        let (y0, y1, z0) = (16.0 * k as f32, 16.0 * (k + 1) as f32, -64.0 * k as f32);
        let z1 = z0 - if k == 5 { 512.0 } else { 64.0 };
        quad(
            &mut obj,
            [[-64., y0, z0], [64., y0, z0], [64., y1, z0], [-64., y1, z0]],
        );
        quad(
            &mut obj,
            [[-64., y1, z0], [64., y1, z0], [64., y1, z1], [-64., y1, z1]],
        );
    }
    let path = dir.join("stairs.obj");
    std::fs::write(&path, obj).unwrap();
    let climbed = |scale: f32| {
        let opts = OpenOptions {
            scale: Some(scale),
            up: Some(UpAxis::Y),
            ..OpenOptions::default()
        };
        let mut s = Session::open(Some(&path), &opts).unwrap();
        // From the foot, 1.6 m over the floor, walking up for 6 s (a script's start is in
        // world coordinates: metres).
        let text = format!("start 0,1.6,{} 0 0\nforward 6\n", 128.0 * scale);
        let script = walkthrough_core::sim::parse_script("stairs.txt", &text).unwrap();
        let mut c = Controller::new(s.start_pose(None), ControllerSettings::default());
        let frame = s.map.frame;
        let rows = walkthrough_core::sim::run_to_rows_in(
            &mut s.ticking(),
            &frame,
            &mut c,
            &script,
            1.0 / 120.0,
        );
        // The eye's rise, in file units.
        rows.last().unwrap().position[1] - rows[0].position[1]
    };
    let doom = climbed(0.032);
    assert!(
        (doom - 96.0).abs() < 2.0,
        "in Doom units the eye rose {doom} units"
    );
    let other = climbed(0.0315);
    assert!(
        other.abs() < 2.0,
        "at 0.0315 m a unit the eye rose {other} units"
    );
}
