//! Hostile input ends in bounded time and memory: files that are not files, absurd
//! options and over-long runs are refused at once with a message naming the file and the
//! reason. Every run is watched: a run that does not end in time fails its test (a
//! watchdog, not a timing assertion).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use image::ImageEncoder;

mod common;

/// How long a run may take before the watchdog calls it hung. Generous: these machines
/// are shared and slow; a hang is for ever.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Run the binary with `args`; fail the test if it has not ended within [`WATCHDOG`].
fn run_watched(args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        // Never the user's remembered corrections: an empty settings folder.
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    watch(child, &format!("walkthrough {args:?}"))
}

/// Wait for `child` to end; kill it and fail the test if it has not within [`WATCHDOG`].
fn watch(child: std::process::Child, what: &str) -> Output {
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(WATCHDOG) {
        Ok(out) => out.expect("binary ran"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("{what} did not end within {WATCHDOG:?}");
        }
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("walkthrough-hostile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A FIFO at `path` (nothing ever writes to it: opening it to read would block).
fn fifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(ok.success(), "mkfifo {}", path.display());
}

const QUAD: &str = "v -5 0 -5\nv 5 0 -5\nv 5 0 5\nv -5 0 5\nf 1 3 2\nf 1 4 3\n";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_fifo_or_a_device_as_the_map_is_refused_at_once() {
    let dir = scratch("fifo-map");
    let pipe = dir.join("map.obj");
    fifo(&pipe);
    let script = dir.join("s.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    for map in [s(&pipe), "/dev/urandom", "/dev/zero"] {
        let o = run_watched(&["sim", map, "--script", s(&script)]);
        assert!(!o.status.success(), "{map}");
        assert!(
            stderr(&o).contains(&format!(
                "walkthrough: error: {map}: is not a regular file (a pipe, device or socket); give an OBJ file saved on disk"
            )),
            "{map}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_fifo_or_a_device_as_mtllib_or_texture_is_a_warning_and_the_map_loads() {
    let dir = scratch("fifo-mtl");
    fifo(&dir.join("pipe.mtl"));
    fifo(&dir.join("pipe.png"));
    std::fs::write(dir.join("tex.mtl"), "newmtl t\nKd 1 1 1\nmap_Kd pipe.png\n").unwrap();
    let map = dir.join("m.obj");
    std::fs::write(
        &map,
        format!("mtllib pipe.mtl\nmtllib /dev/zero\nmtllib tex.mtl\nusemtl t\n{QUAD}"),
    )
    .unwrap();
    let script = dir.join("s.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    let o = run_watched(&["sim", s(&map), "--script", s(&script), "--spawn", "0,1.6,0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    for want in [
        format!(
            "material library {}: is not a regular file",
            dir.join("pipe.mtl").display()
        ),
        "material library /dev/zero: is not a regular file".to_string(),
        format!(
            "texture {}: is not a regular file",
            dir.join("pipe.png").display()
        ),
    ] {
        assert!(err.contains(&want), "missing {want:?} in {err}");
    }
}

#[test]
fn a_fifo_as_a_scene_model_or_a_script_is_refused() {
    let dir = scratch("fifo-scene");
    fifo(&dir.join("model.obj"));
    fifo(&dir.join("script.txt"));
    let scene = dir.join("s.toml");
    std::fs::write(&scene, "[[model]]\nfile = \"model.obj\"\n").unwrap();
    let good_script = dir.join("ok.txt");
    std::fs::write(&good_script, "wait 0.1\n").unwrap();

    let o = run_watched(&["sim", s(&scene), "--script", s(&good_script)]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(&format!(
            "{}: is not a regular file",
            dir.join("model.obj").display()
        )),
        "{}",
        stderr(&o)
    );
    let o = run_watched(&["sim", "--script", s(&dir.join("script.txt"))]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(
            "is not a regular file (a pipe, device or socket); give a script saved on disk"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn absurd_steps_and_over_long_scripts_are_refused_before_running() {
    let dir = scratch("steps");
    let one = dir.join("one.txt");
    std::fs::write(&one, "forward 1\n").unwrap();
    let long = dir.join("long.txt");
    std::fs::write(&long, "forward 3600\n".repeat(80_000)).unwrap();
    let day = dir.join("day.txt");
    std::fs::write(&day, "forward 3600\n".repeat(24)).unwrap();
    for (args, want) in [
        (
            vec!["sim", "--script", s(&one), "--dt", "1e-9"],
            "--dt 0.000000001 is out of range: a step is 0.00001 to 0.1 seconds",
        ),
        (
            vec!["sim", "--script", s(&one), "--dt", "1e-45"],
            "is out of range: a step is 0.00001 to 0.1 seconds",
        ),
        (
            vec!["sim", "--script", s(&one), "--dt", "0.5"],
            "--dt 0.5 is out of range",
        ),
        (
            vec!["sim", "--script", s(&long)],
            "the script is 34560000000 steps of 1/120 s, over the limit of 10000000 (--max-steps N raises it)",
        ),
        (
            // The default allowed 10^8 steps (75 s, 7.8 GB of
            // trace); a day of script is over the default now.
            vec!["sim", "--script", s(&day)],
            "the script is 10368000 steps of 1/120 s, over the limit of 10000000",
        ),
        (
            vec!["sim", "--script", s(&one), "--max-steps", "119"],
            "the script is 120 steps",
        ),
    ] {
        let o = run_watched(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

/// The last line of a `sim` run and the peak memory it gives (MiB).
fn sim_summary(o: &Output) -> (String, u64) {
    let err = stderr(o);
    let summary = err
        .lines()
        .find(|l| l.starts_with("sim: "))
        .unwrap_or_else(|| panic!("no summary in {err}"))
        .to_string();
    let mib: u64 = summary
        .rsplit("peak memory ")
        .next()
        .and_then(|m| m.strip_suffix(" MiB"))
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("no peak memory in {summary}"));
    (summary, mib)
}

/// The speed issue (37): tobj keeps every face of an object until the object ends (about
/// 100 bytes a face), so a terrain of a million triangles in one object peaked at 228 MiB
/// in `sim`; handed to tobj in pieces (`map::pieces`), 167 MiB. A regression to one piece
/// takes it over 200.
#[test]
fn a_million_triangles_in_one_object_open_in_sim_under_200_mib() {
    let dir = scratch("one-object");
    let map = dir.join("terrain.obj");
    let side = 708; // quads a side: 1,002,528 triangles
    let mut text = String::with_capacity(40 << 20);
    for z in 0..=side {
        for x in 0..=side {
            let y = ((x as f32) * 0.05).sin() * ((z as f32) * 0.07).cos();
            text += &format!("v {x}.0 {y:.3} {z}.0\n");
        }
    }
    let at = |x: usize, z: usize| z * (side + 1) + x + 1;
    for z in 0..side {
        for x in 0..side {
            let (a, b, c, d) = (at(x, z), at(x + 1, z), at(x + 1, z + 1), at(x, z + 1));
            text += &format!("f {a} {c} {b}\nf {a} {d} {c}\n");
        }
    }
    std::fs::write(&map, text).unwrap();
    let script = dir.join("w.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    let o = run_watched(&["sim", s(&map), "--no-map-cache", "--script", s(&script)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("(1002528 triangles, 1 object,"),
        "{}",
        stderr(&o)
    );
    let (summary, mib) = sim_summary(&o);
    assert!(
        mib < 200,
        "a million triangles in one object took {mib} MiB: {summary}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_million_step_run_streams_its_trace_in_flat_memory() {
    let dir = scratch("million");
    let script = dir.join("fly.txt");
    // 100 s at 1e-4 s a step: a million steps, flying back and forth in the built-in map.
    std::fs::write(&script, "mode fly\nforward 50\nturn 180\nforward 50\n").unwrap();
    let trace = dir.join("trace.csv");
    let o = run_watched(&[
        "sim",
        "--script",
        s(&script),
        "--dt",
        "1e-4",
        "--trace",
        s(&trace),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (summary, mib) = sim_summary(&o);
    assert!(summary.starts_with("sim: 1000000 steps in "), "{summary}");
    assert!(mib < 100, "a million steps took {mib} MiB: {summary}");
    let (mut rows, mut last) = (0u64, String::new());
    for line in BufReader::new(std::fs::File::open(&trace).unwrap()).lines() {
        last = line.unwrap();
        rows += 1;
    }
    assert_eq!(rows, 1 + 1 + 1_000_000, "header, start, one row a step");
    let fields: Vec<&str> = last.split(',').collect();
    assert_eq!(fields[0], "1000000", "{last}");
    let t: f64 = fields[1].parse().unwrap();
    assert!((t - 100.0).abs() < 1e-3, "{last}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_face_line_repeated_100000_times_is_kept_once_and_walked_at_full_speed() {
    // A fuzzer's mutant: 60 steps took 8.7 s, every sweep testing 100,000 copies.
    let dir = scratch("repeated-face");
    let map = dir.join("m.obj");
    let mut obj = String::from(QUAD);
    obj += &"f 1 3 2\n".repeat(100_000);
    std::fs::write(&map, obj).unwrap();
    let script = dir.join("s.txt");
    std::fs::write(&script, "forward 2\n").unwrap();
    let o = run_watched(&["sim", s(&map), "--script", s(&script), "--spawn", "0,1.6,0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "(2 triangles, 1 object, 0 materials, 100000 repeated triangles dropped from collision)"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_face_of_40000_corners_wound_round_10000_times_loads_at_once() {
    // A fuzzer's mutant: "f 1 2 3 4" widened to one line; it took 4.7 s to ear-clip.
    let dir = scratch("wound-face");
    let map = dir.join("m.obj");
    let obj = format!("{QUAD}f{}\n", " 1 2 3 4".repeat(10_000));
    std::fs::write(&map, obj).unwrap();
    let script = dir.join("s.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    let o = run_watched(&["sim", s(&map), "--script", s(&script), "--spawn", "0,1.6,0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 self-intersecting polygon was fanned"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sim_interrupted_by_sigterm_flushes_whole_rows_and_says_so() {
    let dir = scratch("sigterm-sim");
    let script = dir.join("long.txt");
    // Ten million steps: far longer than the moment the test waits before the signal.
    std::fs::write(&script, "mode fly\nforward 100\n").unwrap();
    let trace = dir.join("trace.csv");
    let child = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        // Never the user's remembered corrections: an empty settings folder.
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .args(["sim", "--script", s(&script), "--dt", "1e-5"])
        .args(["--max-steps", "20000000", "--trace", s(&trace)])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // The rows go to trace.csv.partial until the run ends; then it becomes trace.csv.
    let partial = dir.join("trace.csv.partial");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) < 100_000 {
        assert!(
            std::time::Instant::now() < deadline,
            "no trace rows appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let o = watch(child, "sim after SIGTERM");
    assert!(!o.status.success(), "an interrupted run is not a success");
    let err = stderr(&o);
    assert!(err.contains("interrupted after"), "{err}");
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(!partial.exists(), "the partial file was put in place");
    assert!(text.ends_with('\n'));
    let rows = text.lines().count() - 1;
    assert!(
        err.contains(&format!("interrupted after {rows} rows")),
        "{err} vs {rows}"
    );
    assert!(rows < 10_000_001, "the run was not cut short");
    let last = text.lines().last().unwrap();
    assert_eq!(last.split(',').count(), 11, "{last}");
}

/// `sim_interrupted_while_loading_stops_the_load`: Ctrl-C while a big map loads stops
/// the load at its next look and says so (the load used to run to its end, seconds, and
/// only then was the run interrupted).
#[test]
fn sim_interrupted_while_loading_stops_the_load_and_says_so() {
    let dir = scratch("sigint-load");
    let map = dir.join("terrain.obj");
    // 2.5 million triangles: seconds to load, long after the signal.
    std::fs::write(&map, common::terrain_obj(1120)).unwrap();
    let script = dir.join("s.txt");
    std::fs::write(&script, "wait 1\n").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        // Nothing kept from an earlier run: the map is parsed.
        .env("WALKTHROUGH_CACHE_DIR", dir.join("cache"))
        .args([
            "sim",
            s(&map),
            "--script",
            s(&script),
            "--up",
            "y",
            "--scale",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // The signal once the map is being read (the handler is set before anything else).
    let io = format!("/proc/{}/io", child.id());
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let read = |text: String| {
        text.lines()
            .find_map(|l| l.strip_prefix("rchar: "))
            .and_then(|n| n.trim().parse::<u64>().ok())
    };
    while std::fs::read_to_string(&io)
        .ok()
        .and_then(read)
        .is_none_or(|n| n < 1 << 20)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the map was never read"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let o = watch(child, "sim after SIGINT during the load");
    assert!(!o.status.success(), "an interrupted load is not a success");
    let err = stderr(&o);
    assert!(err.contains("terrain.obj: loading was cancelled"), "{err}");
    assert!(!err.contains("steps in"), "the script ran: {err}");
}

/// Ctrl-C while `sim` walks, with its map's file still being written to the cache beside
/// the walk: the program ends without waiting for it (the user wants it to end) and
/// leaves no part of the file; a file already whole is kept.
#[test]
fn sim_interrupted_while_its_map_is_kept_leaves_no_part_of_the_file() {
    let dir = scratch("sigint-keep");
    let map = dir.join("terrain.obj");
    // 2.5 million triangles: a 300 MB file to keep.
    std::fs::write(&map, common::terrain_obj(1120)).unwrap();
    let script = dir.join("s.txt");
    std::fs::write(&script, "mode fly\nforward 100\n").unwrap();
    let (trace, cache) = (dir.join("trace.csv"), dir.join("cache"));
    let child = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .env("WALKTHROUGH_CACHE_DIR", &cache)
        .args([
            "sim",
            s(&map),
            "--script",
            s(&script),
            "--up",
            "y",
            "--scale",
            "1",
        ])
        .args([
            "--dt",
            "1e-5",
            "--max-steps",
            "20000000",
            "--trace",
            s(&trace),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // The walk has begun once rows reach the trace's part.
    let partial = dir.join("trace.csv.partial");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) < 1000 {
        assert!(std::time::Instant::now() < deadline, "the walk never began");
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let o = watch(child, "sim after SIGINT while keeping its map");
    let err = stderr(&o);
    assert!(err.contains("interrupted after"), "{err}");
    assert!(err.contains("written beside the walk"), "{err}");
    let names: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.ends_with(".partial")),
        "a part was left: {names:?}"
    );
    // Given up with a word, or (a fast disk) whole before the signal.
    let given_up = err.contains("not kept in the cache: the program was interrupted");
    let whole = names.iter().any(|n| n.ends_with(".bin"));
    assert!(given_up != whole, "{err} {names:?}");
}

/// Run the binary with `args` in a shell that caps its address space at `mib` MiB: a run
/// that needs more fails to allocate (and aborts) instead of answering.
///
/// glibc gives each thread that allocates its own arena and reserves 64 MiB of address
/// space for it, never touched; with the load's worker threads (its two readers, the
/// line check, the survey, the keeping of a built map), those reservations alone crossed
/// a 200 MiB cap on some runs (a CI failure).
/// One arena makes the cap measure what the run uses, not what glibc sets aside.
fn run_capped(mib: u64, args: &[&str]) -> Output {
    let child = Command::new("sh")
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .env("MALLOC_ARENA_MAX", "1")
        .arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", mib * 1024))
        .arg(env!("CARGO_BIN_EXE_walkthrough"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    watch(child, &format!("walkthrough {args:?} in {mib} MiB"))
}

/// A 64 MiB scene of 2.9 million minimal `[[model]]` tables took
/// 4.5 GiB and 9 s to refuse. Counted before parsing, a 60 MiB one is refused within
/// 200 MiB of address space.
#[test]
fn a_scene_of_millions_of_tables_is_refused_in_bounded_memory() {
    let dir = scratch("tables");
    let scene = dir.join("many.toml");
    std::fs::write(&scene, "[[model]]\n".repeat(6_000_000)).unwrap();
    let script = dir.join("w.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    let o = run_capped(200, &["sim", s(&scene), "--script", s(&script)]);
    assert!(
        stderr(&o).ends_with("the scene places 6000000 models, over the limit of 100000\n"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--trace` pointing at the map or the script overwrote it with
/// CSV (exit 0), and a `--trace` FIFO with no reader blocked for ever. Both are refused
/// before anything is written, by `sim` and by the window (which refuses before it opens).
#[test]
fn a_trace_over_an_input_or_into_a_fifo_is_refused_and_the_input_kept() {
    let dir = scratch("outputs");
    let map = dir.join("floor.obj");
    std::fs::write(&map, QUAD).unwrap();
    let script = dir.join("walk.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    let pipe = dir.join("pipe");
    fifo(&pipe);
    let link = dir.join("link.csv");
    std::os::unix::fs::symlink(&map, &link).unwrap();
    for window in [false, true] {
        for (target, want) in [
            (&map, "which this run reads; write to another file"),
            (&script, "which this run reads; write to another file"),
            (&link, "which this run reads; write to another file"),
            (&pipe, "is not a regular file (a pipe, device or socket)"),
            (&dir, "is not a regular file (a directory)"),
        ] {
            let mut args = vec![s(&map), "--script", s(&script), "--trace", s(target)];
            if !window {
                args.insert(0, "sim");
            }
            let o = run_watched(&args);
            assert!(!o.status.success(), "{args:?}");
            assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        }
    }
    assert_eq!(std::fs::read_to_string(&map).unwrap(), QUAD);
    assert_eq!(std::fs::read_to_string(&script).unwrap(), "wait 0.1\n");
    // A trace file that is there already is replaced, once the new one is whole.
    let trace = dir.join("trace.csv");
    std::fs::write(&trace, "an older trace\n").unwrap();
    let o = run_watched(&["sim", s(&map), "--script", s(&script), "--trace", s(&trace)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(text.starts_with("frame,t,x,y,z"), "{text}");
    assert_eq!(text.lines().count(), 1 + 1 + 12);
    assert!(!dir.join("trace.csv.partial").exists());
}

/// A 261 KB grey 16384 x 16384 PNG decoded to 1.3 GiB even in
/// headless `sim`, which draws nothing (five of them: 5.4 GiB and 22.6 s). `sim` decodes
/// no texture: five such textures load within 200 MiB of address space.
#[test]
fn sim_decodes_no_textures() {
    let dir = scratch("textures");
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(
            &vec![128u8; 16384 * 16384],
            16384,
            16384,
            image::ExtendedColorType::L8,
        )
        .unwrap();
    let mut mtl = String::new();
    let mut obj = String::from("mtllib m.mtl\n");
    for k in 0..5 {
        std::fs::write(dir.join(format!("huge{k}.png")), &png).unwrap();
        mtl += &format!("newmtl m{k}\nmap_Kd huge{k}.png\n");
        obj += &format!("usemtl m{k}\n{QUAD}");
    }
    std::fs::write(dir.join("m.mtl"), mtl).unwrap();
    std::fs::write(dir.join("m.obj"), obj).unwrap();
    let script = dir.join("w.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    let o = run_capped(
        200,
        &[
            "sim",
            s(&dir.join("m.obj")),
            "--script",
            s(&script),
            "--spawn",
            "0,1.6,0",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("texture"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 24 MB file of three vertices, `f 1 2 3` three million times
/// and then a bad vertex line was refused at its last line at 328 MiB, over the 200 MiB a
/// refused input may cost: tobj kept every face before it reached the line. Every line is
/// checked before any face is kept: refused at that line within 200 MiB of address space.
#[test]
fn a_bad_last_line_after_three_million_faces_is_refused_within_200_mib() {
    let dir = scratch("faces");
    let map = dir.join("faces.obj");
    let mut text = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    text.push_str(&"f 1 2 3\n".repeat(3_000_000));
    text.push_str("v 1 2\n");
    std::fs::write(&map, text).unwrap();
    let script = dir.join("w.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    let o = run_capped(200, &["sim", s(&map), "--script", s(&script)]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).ends_with(&format!(
            "walkthrough: error: {}:3000004: a vertex needs three numbers: 'v 1 2'\n",
            map.display()
        )),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
