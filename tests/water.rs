//! Water: a scene's `[[water]]` boxes, the walker wading, swimming
//! and climbing out, the trace's `water` column, the same at any step; a bad box refused
//! at its line. Scenes are generated into a temporary folder.

mod common;

use std::path::{Path, PathBuf};

use glam::Vec3;
use walkthrough_core::map::MapFrame;
use walkthrough_core::player::{Controller, ControllerSettings, Stance};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::sim::{TraceRow, parse_script, run_to_rows_in};
use walkthrough_core::test_kit::obj::obj_text as obj;

/// A folder of its own for `test`, empty.
fn folder(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("walkthrough-water-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The pool, walked along -Z at x = 0: a dry floor (top y = 0) from z = 6 to z = -3,
/// the pool's bottom at y = -2 from z = -3 to z = -9, and a ledge (top y = 0.5) beyond.
/// The water fills z = 0 to -9 up to y = 0.3: 0.3 m over the floor's end (wading), 2.3 m
/// over the bottom (swimming), its surface 0.2 m below the ledge.
fn pool(test: &str) -> PathBuf {
    let d = folder(test);
    let mut tris = common::cube(Vec3::new(-5.0, -2.0, -3.0), Vec3::new(5.0, 0.0, 6.0));
    tris.extend(common::cube(
        Vec3::new(-5.0, -3.0, -9.0),
        Vec3::new(5.0, -2.0, -3.0),
    ));
    tris.extend(common::cube(
        Vec3::new(-5.0, -3.0, -20.0),
        Vec3::new(5.0, 0.5, -9.0),
    ));
    std::fs::write(d.join("pool.obj"), obj(&tris)).unwrap();
    let path = d.join("scene.toml");
    std::fs::write(
        &path,
        "[[model]]\nfile = \"pool.obj\"\n\n[[water]]\nbox = [-5, -2, -9, 5, 0.3, 0]\n",
    )
    .unwrap();
    path
}

fn open(path: &Path) -> Session {
    Session::open(Some(path), &OpenOptions::default()).unwrap()
}

/// Run `script` in the scene at `path` with step `dt`: the trace's rows.
fn walk(path: &Path, script: &str, dt: f64) -> Vec<TraceRow> {
    let mut session = open(path);
    let script = parse_script("water.txt", script).unwrap();
    let mut c = Controller::new(session.start_pose(None), ControllerSettings::default());
    run_to_rows_in(
        &mut session.ticking(),
        &MapFrame::default(),
        &mut c,
        &script,
        dt,
    )
}

/// The row at time `t` (seconds) of a run at step `dt`.
fn at(rows: &[TraceRow], t: f64, dt: f64) -> TraceRow {
    let r = rows[(t / dt).round() as usize];
    assert!((r.t - t).abs() < 1e-6, "{r:?} is not at {t} s");
    r
}

/// The eye's height of `r` is `y` within a centimetre.
fn eye_at(r: &TraceRow, y: f32) {
    assert!(
        (r.file_point()[1] - y).abs() < 0.01,
        "eye {y} wanted: {r:?}"
    );
}

/// The water column's values in order, each run of equal values once.
fn water_runs(rows: &[TraceRow]) -> Vec<u8> {
    let mut runs: Vec<u8> = Vec::new();
    for r in rows {
        let w = r.water.expect("a scene with water has the water column");
        if runs.last() != Some(&w) {
            runs.push(w);
        }
    }
    runs
}

/// Forward 5 s (3 m/s dry) from z = 2: wading from z = 0, off the floor's end at
/// z = -3 into the deep water, swimming on to z = -7.7; floating 2 s; then swimming up
/// (Space) and on, against the ledge, and out onto it; 1 s on along the ledge.
const SWIM_OUT: &str = "start 0,1.6,2 0 0\nforward 5\nwait 2\nkeys forward+up 2\nforward 1\n";

/// The pool walk at step `dt`, checked at fixed times: the rows.
fn swim_out(dt: f64) -> Vec<TraceRow> {
    let rows = walk(&pool(&format!("swim-{}", (1.0 / dt).round())), SWIM_OUT, dt);
    // Dry, then wading (the feet in 0.3 m of water), then swimming, then (rising out
    // over the edge) wading and dry on the ledge: nothing else, in that order.
    assert_eq!(water_runs(&rows), [0, 1, 2, 1, 0], "dt {dt}");
    let dry = at(&rows, 0.5, dt);
    assert_eq!((dry.water, dry.ground), (Some(0), true));
    // Wading at 0.7 of 3 m/s: 2/3 s to z = 0, then 1/3 s at 2.1 m/s.
    let wading = at(&rows, 1.0, dt);
    assert_eq!((wading.water, wading.ground), (Some(1), true));
    eye_at(&wading, 1.6);
    assert!((wading.position[2] + 0.7).abs() < 0.01, "{wading:?}");
    assert_eq!(at(&rows, 2.0, dt).water, Some(1));
    // Fallen in: swimming, not falling (the eye rises toward its floating height).
    let swimming = at(&rows, 3.0, dt);
    assert_eq!((swimming.water, swimming.ground), (Some(2), false));
    let k = (3.0 / dt) as usize;
    for w in rows[k..(7.0 / dt) as usize].windows(2) {
        assert!(w[1].position[1] >= w[0].position[1] - 1e-6, "sank: {w:?}");
        assert_eq!(w[1].water, Some(2), "{w:?}");
    }
    // Floating: the eye 0.1 m over the surface (0.3), where it stopped (z = -7.7).
    let floating = at(&rows, 7.0, dt);
    eye_at(&floating, 0.4);
    assert!((floating.position[2] + 7.7).abs() < 0.01, "{floating:?}");
    // Space: up until the waist is at the surface (the eye 0.7 m over it), still swimming.
    let up = at(&rows, 7.5, dt);
    assert_eq!(up.water, Some(2));
    eye_at(&up, 1.0);
    // Out: on the ledge (top 0.5), dry, walking on.
    let out = at(&rows, 8.5, dt);
    assert_eq!((out.water, out.ground), (Some(0), true));
    eye_at(&out, 2.1);
    assert!(out.position[2] < -9.3, "{out:?}");
    let end = rows.last().unwrap();
    assert_eq!((end.water, end.ground), (Some(0), true));
    eye_at(end, 2.1);
    rows
}

#[test]
fn a_walker_wades_swims_up_and_climbs_out_the_same_at_a_sixtieth_and_a_two_hundred_fortieth() {
    let a = *swim_out(1.0 / 60.0).last().unwrap();
    let b = *swim_out(1.0 / 240.0).last().unwrap();
    let d = (a.file_point() - b.file_point()).length();
    assert!(d < 0.01, "{a:?}\n{b:?}: {d}");
}

#[test]
fn an_idle_swimmer_cannot_climb_a_ledge_it_does_not_swim_up_to() {
    // Against the ledge without Space: the body floats with its eye 0.1 m over the
    // surface, too low to pass over an edge 0.2 m above it; it stays in the water.
    let script = "start 0,1.6,2 0 0\nforward 5\nforward 3\n";
    let rows = walk(&pool("idle"), script, 1.0 / 60.0);
    let end = rows.last().unwrap();
    assert_eq!(end.water, Some(2), "{end:?}");
    eye_at(end, 0.4);
    // Against the ledge's face (z = -9) with the body's 0.3 m radius.
    assert!((end.position[2] + 8.7).abs() < 0.01, "{end:?}");
}

#[test]
fn the_hud_says_swimming_not_falling_or_jumping() {
    let mut session = open(&pool("stance"));
    let script = parse_script("water.txt", "start 0,-0.5,-6 0 0\nwait 0.1\n").unwrap();
    let mut c = Controller::new(session.start_pose(None), ControllerSettings::default());
    run_to_rows_in(
        &mut session.ticking(),
        &MapFrame::default(),
        &mut c,
        &script,
        1.0 / 60.0,
    );
    assert!(c.walk.vertical_speed > 0.0, "floating up: {:?}", c.walk);
    assert_eq!(c.stance(), Stance::Swimming);
    assert_eq!(c.stance().name(), "swimming");
}

#[test]
fn a_dry_scene_has_no_water_column_and_a_wet_one_has_it_last() {
    let d = folder("header");
    std::fs::write(
        d.join("floor.obj"),
        obj(&common::cube(
            Vec3::new(-5.0, -1.0, -5.0),
            Vec3::new(5.0, 0.0, 5.0),
        )),
    )
    .unwrap();
    let dry = d.join("dry.toml");
    std::fs::write(&dry, "[[model]]\nfile = \"floor.obj\"\n").unwrap();
    // Standing in the pool's shallow end (wading), on the ground, not crouched.
    let script = "start 0,1.6,-1 0 0\nwait 0.1\n";
    assert!(
        walk(&dry, script, 1.0 / 60.0)
            .iter()
            .all(|r| r.water.is_none())
    );
    // The README's inline form places the same box as a [[water]] table.
    let inline = d.join("inline.toml");
    std::fs::write(
        &inline,
        "water = [{ box = [-2, -1, -6, 2, 0.4, -3] }]\n[[model]]\nfile = \"floor.obj\"\n",
    )
    .unwrap();
    let water = open(&inline).water;
    assert_eq!(water.len(), 1);
    assert_eq!(
        (water[0].min, water[0].max),
        (Vec3::new(-2.0, -1.0, -6.0), Vec3::new(2.0, 0.4, -3.0))
    );
    let columns = walkthrough_core::sim::TraceColumns::of(&open(&pool("header")).ticking());
    assert!(columns.water && !columns.on);
    let mut w = walkthrough_core::sim::TraceWriter::new(Vec::new(), columns).unwrap();
    let rows = walk(&pool("header-rows"), script, 1.0 / 60.0);
    w.row(rows.last().unwrap()).unwrap();
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        format!("{},water", walkthrough_core::sim::TRACE_HEADER)
    );
    assert!(lines.next().unwrap().ends_with(",1,0,1"), "{text}");
}

#[test]
fn a_bad_water_box_is_refused_at_its_line() {
    let d = folder("bad");
    std::fs::write(
        d.join("floor.obj"),
        obj(&common::cube(
            Vec3::new(-5.0, -1.0, -5.0),
            Vec3::new(5.0, 0.0, 5.0),
        )),
    )
    .unwrap();
    let cases = [
        ("box = [1, 2, 3]", "must be six numbers"),
        ("box = [0, 0, 0, 1, nan, 1]", "six finite numbers"),
        ("box = [0, 2, 0, 1, 1, 1]", "minimum over its maximum"),
        ("box = [0, 0, 0, 1, 1, 1e9]", "reaches beyond"),
    ];
    for (line, why) in cases {
        let path = d.join("s.toml");
        let text = format!("[[model]]\nfile = \"floor.obj\"\n\n[[water]]\n{line}\n");
        std::fs::write(&path, text).unwrap();
        let e = Session::open(Some(&path), &OpenOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!("{}:5:", path.display())) && e.contains(why),
            "{line}: {e}"
        );
    }
    // A field a water table does not have is refused too, at its line.
    let path = d.join("s.toml");
    std::fs::write(
        &path,
        "[[model]]\nfile = \"floor.obj\"\n[[water]]\nbox = [0, 0, 0, 1, 1, 1]\ndepth = 2\n",
    )
    .unwrap();
    let e = Session::open(Some(&path), &OpenOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with(&format!("{}:5:", path.display())), "{e}");
}

/// The example scene (`assets/water-scene`): down its steps wading, over the shelf's end
/// into the deep water, swum across (Space and forward) and climbed out at the far edge.
#[test]
fn the_example_pool_is_waded_into_down_its_steps_swum_across_and_climbed_out_of() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/water-scene/scene.toml");
    let dt = 1.0 / 120.0;
    let rows = walk(
        &path,
        "start 0,1.6,2 0 0\nforward 5\nkeys forward+up 4\nforward 1\n",
        dt,
    );
    let runs = water_runs(&rows);
    assert_eq!(&runs[..3], [0, 1, 2], "{runs:?}");
    assert_eq!(runs.last(), Some(&0), "{runs:?}");
    // Down the steps (0.3 m each) onto the shelf, 0.9 m under the edge: wading.
    let shelf = at(&rows, 2.0, dt);
    assert_eq!((shelf.water, shelf.ground), (Some(1), true));
    eye_at(&shelf, 1.6 - 0.9);
    // Out beyond the far edge (z = -12), on the courtyard, dry.
    let end = rows.last().unwrap();
    assert_eq!((end.water, end.ground), (Some(0), true));
    eye_at(end, 1.6);
    assert!(end.position[2] < -12.3, "{end:?}");
}

/// The example pool opened as it is (no `--spawn`): the walk starts on the courtyard
/// before the steps, not inside the stone slab under it, where the survey had put it
/// (eye at y = -2.9, walls all round).
#[test]
fn the_example_pool_started_inside_the_slab_under_its_courtyard() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/water-scene/scene.toml");
    let session = open(&path);
    let eye = session.start_pose(None).position;
    assert!(
        eye.abs_diff_eq(Vec3::new(0.0, 1.6, 2.0), 1e-4),
        "{eye} ({})",
        session.spawn.reason
    );
}
