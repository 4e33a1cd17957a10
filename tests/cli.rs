//! The binary's command line: bad input gets a clear message and a non-zero exit, and
//! `sim` prints the trace. No window is needed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn walkthrough(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        // Never the user's remembered corrections: an empty settings folder.
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .args(args)
        .output()
        .expect("binary runs")
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("walkthrough-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn missing_map_is_a_clear_error() {
    let o = walkthrough(&["/no/such/map.obj"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("walkthrough: error: /no/such/map.obj: cannot read the file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn malformed_map_names_file_and_line() {
    let p = tmp("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 zz\nf 1 2 3\n");
    let o = walkthrough(&[p.to_str().unwrap()]);
    assert!(!o.status.success());
    let want = format!(
        "walkthrough: error: {}:3: a vertex needs three numbers: 'v 0 1 zz'",
        p.display()
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
}

#[test]
fn directory_as_map_is_a_clear_error() {
    let dir = std::env::temp_dir();
    let o = walkthrough(&[dir.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is a directory, not an OBJ file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sim_with_a_bad_script_line_names_the_line() {
    let s = tmp("bad.txt", "forward 1\nfly 2\n");
    let o = walkthrough(&["sim", "--script", s.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(&format!("{}:2: unknown command 'fly'", s.display())),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sim_needs_a_script() {
    let o = walkthrough(&["sim"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("sim needs --script FILE"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_option_values_are_refused() {
    for (args, want) in [
        (
            vec!["sim", "--response", "bounce"],
            "unknown response 'bounce'",
        ),
        (vec!["sim", "--spawn", "1,2"], "expected X,Y,Z"),
        (
            vec!["sim", "--method", "guess"],
            "unknown point-in-triangle method",
        ),
        (vec!["--size", "10x10"], "between 64 and 16384"),
        (vec!["--bench-frames", "0"], "0 is not in 1..=1000000"),
        // Every frame's row was reserved at once (350 GB).
        (
            vec!["--bench-frames", "4000000000"],
            "4000000000 is not in 1..=1000000",
        ),
        (
            vec!["--texture-filter", "fancy"],
            "'fancy' is no texture filter (one of trilinear, bilinear, nearest)",
        ),
        (
            vec!["--culling", "hierarchical"],
            "[possible values: off, frustum, occlusion]",
        ),
        (vec!["--culling", "off", "--no-cull"], "cannot be used with"),
        (
            vec!["--render-scale", "0.1"],
            "'0.1': the render scale (the scene's pixels a side, a fraction of the window's) is 0.25 to 1",
        ),
        (vec!["--render-scale", "NaN"], "is 0.25 to 1"),
        (
            vec!["--lighting", "dim"],
            "unknown lighting 'dim' (expected auto, on or off)",
        ),
        (
            vec!["sim", "--speed", "inf", "--script", "/dev/null"],
            "--speed inf must be a positive number",
        ),
        (
            vec!["sim", "--scale", "-2", "--script", "/dev/null"],
            "--scale -2 must be a positive number",
        ),
        (
            vec!["sim", "--dt", "0", "--script", "/dev/null"],
            "--dt 0 is out of range: a step is 0.00001 to 0.1 seconds",
        ),
    ] {
        let o = walkthrough(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

/// A number `f32` cannot hold is said as written, not as the 0 or infinity it would be
/// read as (`--scale 1e-46` was refused as "--scale 0").
#[test]
fn a_scale_too_small_for_f32_is_said_as_written() {
    for (args, want) in [
        (
            ["sim", "--scale", "1e-46"],
            "'1e-46' is too small: it would be read as 0",
        ),
        (
            ["sim", "--speed", "1e39"],
            "'1e39' is too large: it would be read as infinite",
        ),
    ] {
        let o = walkthrough(&[&args[..], &["--script", "/dev/null"]].concat());
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn bench_out_needs_bench_frames_and_never_replaces_the_script() {
    let o = walkthrough(&["--bench-out", "frames.csv"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--bench-frames"), "{}", stderr(&o));
    // Refused before any window opens (no display needed), the script untouched.
    let s = tmp("bench-walk.txt", "wait 1\n");
    let path = s.to_str().unwrap();
    let o = walkthrough(&["--script", path, "--bench-frames", "5", "--bench-out", path]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("bench-walk.txt") && err.contains("which this run reads"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&s).unwrap(), "wait 1\n");
}

#[test]
fn sim_prints_the_trace_header_and_one_row_per_step() {
    let s = tmp("walk.txt", "forward 0.5\nturn 90\nwait 0.25\n");
    let o = walkthrough(&["sim", "--script", s.to_str().unwrap(), "--dt", "0.01"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "frame,t,x,y,z,yaw_deg,pitch_deg,response,hit,ground,crouched"
    );
    assert_eq!(lines.len(), 1 + 1 + 50 + 25);
    // Standing on the built-in map's floor, not crouched.
    assert!(
        lines.last().unwrap().contains(",90.000,0.000,slide,0,1,0"),
        "{}",
        lines.last().unwrap()
    );
}

/// `sim --help`'s usage line hid that a script is needed.
#[test]
fn sim_help_says_a_script_is_needed() {
    let o = walkthrough(&["sim", "--help"]);
    let out = String::from_utf8_lossy(&o.stdout);
    let usage = out.lines().find(|l| l.starts_with("Usage:"));
    assert!(
        usage.is_some_and(|l| l.contains("--script")),
        "sim's usage line does not name --script:\n{out}"
    );
}

#[test]
fn help_lists_the_controls_and_options() {
    let o = walkthrough(&["--help"]);
    let out = String::from_utf8_lossy(&o.stdout);
    for word in [
        "--response",
        "--script",
        "--trace",
        "--screenshot",
        "--exit-after",
        "Controls in the window:",
        "sim",
    ] {
        assert!(out.contains(word), "--help lacks {word}:\n{out}");
    }
    let tab = out.lines().find(|l| l.trim_start().starts_with("Tab "));
    assert!(
        tab.is_some_and(|l| l.trim_end().ends_with("stop / slide")),
        "--help has no Tab row saying stop / slide:\n{out}"
    );
}

#[test]
fn a_text_file_or_an_image_as_the_map_is_not_called_an_empty_map() {
    let script = tmp("wait.txt", "wait 0.1\n");
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let image = tmp("photo.obj", "\u{0}\u{0}");
    std::fs::write(&image, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10").unwrap();
    for (map, kind) in [
        (readme, "prose, with no OBJ lines"),
        (image.to_str().unwrap(), "a PNG image"),
    ] {
        let o = walkthrough(&["sim", map, "--script", script.to_str().unwrap()]);
        assert!(!o.status.success());
        let want = format!("{map}: does not look like an OBJ file: it looks like {kind}");
        assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    }
}

/// A settings folder made afresh that remembers a frame for the test room, and `sim` of
/// a short wait on the room under it.
struct Remembering {
    dir: PathBuf,
    map: PathBuf,
    script: PathBuf,
}

impl Remembering {
    /// The folder `walkthrough-cli-NAME-PID`, remembering `up` and `scale` for the room.
    fn new(name: &str, up: walkthrough_core::map::UpAxis, scale: f32) -> Remembering {
        let dir =
            std::env::temp_dir().join(format!("walkthrough-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/test/room with spaces.obj");
        let key = walkthrough_core::store::ContentKey::of_file(&map).unwrap();
        let mut store = walkthrough_core::store::Store::load(Some(&dir)).store;
        let frame = walkthrough_core::map::MapFrame { up, scale };
        store.remember(&key, &map, frame).unwrap();
        let script = tmp(&format!("{name}.txt"), "wait 0.05\n");
        Remembering { dir, map, script }
    }

    /// `sim` of the room with `extra` options.
    fn sim(&self, extra: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_walkthrough"))
            .env("WALKTHROUGH_CONFIG_DIR", &self.dir)
            .arg("sim")
            .arg(&self.map)
            .arg("--script")
            .arg(&self.script)
            .args(extra)
            .output()
            .unwrap()
    }
}

#[test]
fn sim_uses_a_remembered_frame_says_so_and_forget_drops_it() {
    let memory = Remembering::new("memory", walkthrough_core::map::UpAxis::Z, 0.5);
    let sim = |extra: &[&str]| memory.sim(extra);
    let o = sim(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("up axis z as you set it for this file"),
        "{err}"
    );
    assert!(
        err.contains("to open it the same way: --up z --scale 0.5"),
        "{err}"
    );
    // A flag on the command line overrides the memory.
    let err = stderr(&sim(&["--scale", "1"]));
    assert!(!err.contains("as you set it"), "{err}");
    let err = stderr(&sim(&["--forget"]));
    assert!(err.contains("forgot the up axis and scale"), "{err}");
    assert!(!err.contains("as you set it"), "{err}");
    let err = stderr(&sim(&[]));
    assert!(!err.contains("as you set it"), "forgotten for good: {err}");
}

/// `sim` of a short wait (the script written as `script_name`) with its settings in `dir`.
fn sim_with_config(dir: &Path, script_name: &str) -> Output {
    let script = tmp(script_name, "wait 0.05\n");
    Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        .env("WALKTHROUGH_CONFIG_DIR", dir)
        .args(["sim", "--script", script.to_str().unwrap()])
        .output()
        .unwrap()
}

#[test]
fn a_corrupt_settings_file_is_a_warning_naming_its_line_not_a_failure() {
    let dir = std::env::temp_dir().join(format!("walkthrough-cli-corrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("settings.toml"),
        "[settings]\nfov = 90\ninvert_y = \"sometimes\"\n",
    )
    .unwrap();
    let o = sim_with_config(&dir, "corrupt.txt");
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1, "one line: {err}");
    assert!(
        warnings[0].contains("settings.toml: line 3: invert_y: ")
            && warnings[0].contains("the default is used"),
        "{err}"
    );
}

#[test]
fn a_corrupt_legacy_corrections_file_is_a_warning_not_a_failure() {
    let dir = std::env::temp_dir().join(format!("walkthrough-cli-legacy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("corrections.toml"), "[maps.x\nup = ").unwrap();
    let o = sim_with_config(&dir, "corrupt-legacy.txt");
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning: ") && err.contains("corrections.toml: line 1"),
        "{err}"
    );
}

/// A script's or a recording's `start` line was never checked:
/// `start 70,1.6,7 0 0` (outside the map) or one under the floor fell out of the map
/// silently (where `--spawn` warns), and `start 1e30,1e30,1e30 0 0` froze the walker for
/// the run with exit 0; `--spawn 1e30,...` froze it too. A start outside is warned about
/// at its file and line as `--spawn` is; one out of range is refused at its line, and so
/// is such a `--spawn`.
#[test]
fn start_lines_outside_the_map_are_warned_at_their_line_and_out_of_range_refused() {
    let room = tmp(
        "start-room.obj",
        "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nv 0 4 0\nv 10 4 0\nv 10 4 10\nv 0 4 10\nf 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\nf 2 6 7 3\nf 3 7 8 4\nf 4 8 5 1\n",
    );
    let room = room.to_str().unwrap();
    let script = tmp(
        "starts.txt",
        "# recorded\nstart 70,1.6,7 0 0\nwait 0.1\nstart 5,-1,5 0 0\nwait 0.1\nstart 5,1.6,5 0 0\nwait 0.1\n",
    );
    let o = walkthrough(&["sim", room, "--script", script.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let shown = script.display();
    assert!(
        err.contains(&format!(
            "warning: {shown}:2: the start is outside the map (which spans 0.0,0.0,0.0 to 10.0,4.0,10.0 in file coordinates)"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "warning: {shown}:4: the map is open: from the start nothing stops a walk"
        )),
        "{err}"
    );
    assert!(!err.contains(&format!("{shown}:6:")), "{err}");
    let far = tmp("far-start.txt", "wait 0.1\nstart 1e30,1e30,1e30 0 0\n");
    let o = walkthrough(&["sim", room, "--script", far.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(&format!(
            "walkthrough: error: {}:2: the start 1e30,1e30,1e30 is 1e30 m from the origin",
            far.display()
        )),
        "{}",
        stderr(&o)
    );
    let o = walkthrough(&[
        "sim",
        room,
        "--script",
        far.to_str().unwrap(),
        "--spawn",
        "1e30,1e30,1e30",
    ]);
    assert!(!o.status.success());
    let w = tmp("wait.txt", "wait 0.1\n");
    let o = walkthrough(&[
        "sim",
        room,
        "--script",
        w.to_str().unwrap(),
        "--spawn",
        "1e30,0,0",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--spawn 1e30,0.0,0.0 (the file's coordinates; --up y --scale 1) puts the eye outside any map; in the world: 1e30,0.0,0.0 is 1e30 m from the origin, beyond the 1e6 m any map may reach"),
        "{}",
        stderr(&o)
    );
}

/// A script beginning with a UTF-8 byte order mark was refused
/// ("unknown command"); OBJ files with one load.
#[test]
fn a_script_with_a_byte_order_mark_runs() {
    let s = tmp("bom.txt", "\u{feff}forward 0.5\n");
    let o = walkthrough(&["sim", "--script", s.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().count(),
        1 + 1 + 60
    );
}

/// A map of a million triangles is kept in the cache of built maps once
/// built; the next open reads it from there and walks byte for byte the same; a damaged
/// cached file is refused with a warning and the map built again; `--no-map-cache`
/// neither reads nor keeps.
#[test]
fn a_big_map_reopens_from_the_cache_of_built_maps_and_walks_the_same() {
    let dir = std::env::temp_dir().join(format!("walkthrough-map-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("terrain.obj");
    // 2 x 708 x 708 = 1,002,528 triangles, just over the cache's minimum.
    std::fs::write(&map, common::terrain_obj(708)).unwrap();
    let script = dir.join("walk.txt");
    std::fs::write(&script, "forward 1\nturn 30\nforward 0.5\n").unwrap();
    let cache = dir.join("cache");
    let sim = |trace: &str, extra: &[&str]| {
        let trace = dir.join(trace);
        let mut args = vec![
            "sim",
            map.to_str().unwrap(),
            "--script",
            script.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
            .env("WALKTHROUGH_CONFIG_DIR", dir.join("config"))
            .env("WALKTHROUGH_CACHE_DIR", &cache)
            .args(&args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        (stderr(&o), std::fs::read(trace).unwrap())
    };
    let kept_files = || {
        std::fs::read_dir(&cache).map_or(Vec::new(), |d| {
            d.map(|e| e.unwrap().path())
                .filter(|p| p.to_string_lossy().ends_with(".bin"))
                .collect::<Vec<_>>()
        })
    };
    let (log, unkept) = sim("none.csv", &["--no-map-cache"]);
    assert!(!log.contains("cache of built maps"), "{log}");
    assert!(kept_files().is_empty());
    let (log, built) = sim("built.csv", &[]);
    // A terrain as built (Y up, metres): its world's part is written beside the walk,
    // and the program waited for it before it ended (the file is whole, no part left).
    assert!(
        log.contains("then keeping it in the cache of built maps"),
        "{log}"
    );
    assert!(log.contains("written beside the walk"), "{log}");
    let files = kept_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let parts = std::fs::read_dir(&cache).unwrap().count();
    assert_eq!(parts, 1, "a part was left");
    let (log, cached) = sim("cached.csv", &[]);
    assert!(log.contains("read from the cache of built maps"), "{log}");
    assert_eq!(cached, built, "the map from the cache walks differently");
    assert_eq!(unkept, built);
    // Damaged (in the tree, the last section, which sim reads too): refused with a
    // warning, built and kept again, the same walk.
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let near_end = bytes.len() - 1000;
    bytes[near_end] ^= 0x40;
    std::fs::write(&files[0], bytes).unwrap();
    let (log, rebuilt) = sim("rebuilt.csv", &[]);
    assert!(log.contains("checksum does not match"), "{log}");
    assert!(
        log.contains("then keeping it in the cache of built maps"),
        "{log}"
    );
    assert_eq!(rebuilt, built);
    let (log, _) = sim("again.csv", &[]);
    assert!(log.contains("read from the cache of built maps"), "{log}");
    // The damage was that open's news: it was kept with the rebuilt map and said again at
    // every later open, once.
    assert!(!log.contains("checksum"), "an old warning came back: {log}");
    // A damaged header was built again without a word; and with
    // a cache folder that cannot be made, the load line still said the map was kept.
    let files = kept_files();
    let mut bytes = std::fs::read(&files[0]).unwrap();
    bytes[..8].copy_from_slice(b"garbage!");
    std::fs::write(&files[0], bytes).unwrap();
    let (log, _) = sim("header.csv", &[]);
    assert!(log.contains("its header is damaged"), "{log}");
    let blocked = dir.join("a-file");
    std::fs::write(&blocked, "not a folder").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        .env("WALKTHROUGH_CONFIG_DIR", dir.join("config"))
        .env("WALKTHROUGH_CACHE_DIR", &blocked)
        .args(["sim", map.to_str().unwrap(), "--script"])
        .arg(&script)
        .output()
        .unwrap();
    let log = stderr(&o);
    assert!(o.status.success(), "{log}");
    assert!(log.contains("was not kept in the cache"), "{log}");
    assert!(
        log.contains("then not kept in the cache of built maps"),
        "{log}"
    );
    assert!(!log.contains("then kept in the cache"), "{log}");
    assert!(!log.contains("then keeping it"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--exit-after nan` opened a window that never closed
/// (the time was read as none), and `--exit-after -1` was taken for an unknown option.
#[test]
fn exit_after_nan_infinite_or_negative_is_refused_not_a_window_that_never_closes() {
    for bad in ["nan", "inf", "-1", "1e300", "soon"] {
        let o = walkthrough(&["--exit-after", bad]);
        assert!(!o.status.success(), "--exit-after {bad} was accepted");
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "'{bad}': the time to quit after (seconds) is 0 to 1000000"
            )),
            "--exit-after {bad}: {err}"
        );
    }
}

/// `--screenshot shot.jpg` quietly wrote a PNG under a JPEG's name.
#[test]
fn a_screenshot_not_named_png_is_refused_before_the_window_opens() {
    for name in ["shot.jpg", "shot", "shot.png.bmp"] {
        let path = std::env::temp_dir().join(name);
        let o = walkthrough(&["--screenshot", path.to_str().unwrap(), "--exit-after", "0"]);
        assert!(!o.status.success(), "--screenshot {name} was accepted");
        let err = stderr(&o);
        assert!(
            err.contains("a screenshot is written as a PNG image: name it .png"),
            "--screenshot {name}: {err}"
        );
    }
}

/// A value clap refused (`--up w`, `--fov 500`) was said in clap's
/// own style ("error: invalid value ..."), every other error as `walkthrough: error:`.
#[test]
fn a_refused_option_is_said_as_every_other_error() {
    for (args, want) in [
        (
            &["--up", "w"][..],
            "walkthrough: error: invalid value 'w' for '--up <UP>'",
        ),
        (
            &["--fov", "500"],
            "walkthrough: error: invalid value '500' for '--fov <FOV>'",
        ),
        (
            &["--bogus"],
            "walkthrough: error: unexpected argument '--bogus' found",
        ),
    ] {
        let o = walkthrough(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.starts_with(want), "{args:?}: {err}");
        assert!(err.contains("For more information, try '--help'."), "{err}");
    }
    let help = walkthrough(&["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).starts_with("Walk through an OBJ map"));
}

/// `a_closed_standard_error_is_no_panic`: `walkthrough MAP --bogus 2>&1 | head -1` ended
/// with exit code 101 (`eprintln!` panics when the pipe is closed) in 3 runs of 6.
/// With standard error a pipe nobody reads, refusals still end with their
/// own exit codes: 2 for a command line clap refuses, 1 for a map that is not there, and a
/// `sim` that fails to open its map the same.
#[test]
fn a_closed_standard_error_is_no_panic() {
    let code = |args: &[&str]| {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader); // every write to it fails: the pipe is closed
        let status = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
            .env(
                "WALKTHROUGH_CONFIG_DIR",
                std::env::temp_dir().join("walkthrough-tests-config"),
            )
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(writer)
            .status()
            .unwrap();
        status.code()
    };
    assert_eq!(code(&["--bogus"]), Some(2));
    assert_eq!(code(&["/no/such/map.obj"]), Some(1));
    let script = tmp("closed-stderr.txt", "wait 0.1\n");
    assert_eq!(
        code(&[
            "sim",
            "/no/such/map.obj",
            "--script",
            script.to_str().unwrap()
        ]),
        Some(1)
    );
}

/// `a_spawn_too_far_is_said_as_typed`: `--spawn 1e9,0,0` on a map read at 0.0051 m a unit
/// was refused as "--spawn 5102040.0,0.0,0.0 is ...", numbers the user never typed. The
/// refusal names the spawn as given, the frame that moves it, and
/// where that puts it in the world.
#[test]
fn a_spawn_too_far_is_said_as_typed() {
    let map = tmp(
        "far-spawn.obj",
        "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 2 3 4\n",
    );
    let out = walkthrough(&[
        "sim",
        map.to_str().unwrap(),
        "--scale",
        "0.5",
        "--up",
        "y",
        "--spawn",
        "4e6,0,0",
        "--script",
        tmp("far-spawn.txt", "wait 0.1\n").to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--spawn 4000000.0,0.0,0.0 (the file's coordinates; --up y --scale 0.5)")
            && err.contains("2000000.0,0.0,0.0 is 2e6 m from the origin"),
        "{err}"
    );
}

/// `--yaw 1e30` printed thirty-one digits on the spawn line and `--pitch 200` was 89
/// without a word: both are refused, said as typed; the limits
/// themselves are taken.
#[test]
fn a_yaw_or_pitch_out_of_range_is_refused_as_typed() {
    let script = tmp("angles.txt", "wait 0.1\n");
    let run = |flag: &str, value: &str| {
        walkthrough(&["sim", "--script", script.to_str().unwrap(), flag, value])
    };
    for (flag, value, said) in [
        ("--yaw", "1e30", "--yaw 1e30 is too large"),
        (
            "--pitch",
            "200",
            "--pitch 200.0 must be between -90 (straight down) and 90",
        ),
        ("--pitch", "-90.5", "--pitch -90.5 must be between"),
    ] {
        let out = run(flag, value);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{flag} {value}: {err}");
        assert!(err.contains(said), "{flag} {value}: {err}");
    }
    // 1e300 is finite, but past f32's range: said so as typed.
    for (flag, value, said) in [
        ("--yaw", "1e300", "'1e300' for '--yaw <YAW>': too large"),
        ("--pitch", "nan", "must be a finite number of degrees"),
        ("--yaw", "north", "not a number of degrees"),
    ] {
        let out = run(flag, value);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(said), "{flag} {value}: {err}");
    }
    for (flag, value) in [("--yaw", "-36000"), ("--pitch", "90"), ("--pitch", "-90")] {
        let out = run(flag, value);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{flag} {value}: {}",
            stderr(&out)
        );
    }
}

/// The stderr of `sim` on the built-in map at `--scale scale`, a short wait scripted (in
/// the script file `name`); the run must succeed.
fn sim_at_scale(name: &str, scale: &str) -> String {
    let script = tmp(name, "wait 0.1\n");
    let out = walkthrough(&[
        "sim",
        "--script",
        script.to_str().unwrap(),
        "--scale",
        scale,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stderr(&out)
}

/// `--scale 1e-30` walked the built-in map made smaller than an atom without a word: a
/// scale that makes the map too small to stand in is warned of;
/// an ordinary one is not.
#[test]
fn a_scale_that_makes_the_map_tiny_is_warned_of() {
    let run = |scale: &str| sim_at_scale("tiny.txt", scale);
    let tiny = run("1e-30");
    assert!(
        tiny.contains("warning: --scale 1e-30 makes the map")
            && tiny.contains("too small to stand in"),
        "{tiny}"
    );
    assert!(!run("0.5").contains("too small to stand in"));
}

/// `--speed 1e9` went without a word while the settings stop at 100 m/s: a
/// speed outside the settings' range is warned of, the flag's and a
/// script line's (named by file and line); it still runs, since every move is swept.
#[test]
fn a_speed_outside_the_settings_range_is_warned_of_with_its_line() {
    let fast = tmp("fast.txt", "speed 500\nwait 0.1\n");
    let out = walkthrough(&["sim", "--script", fast.to_str().unwrap(), "--speed", "1e9"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("warning: --speed 1000000000 is outside 0.1 to 100 m/s"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "warning: {}:1: speed 500 is outside",
            fast.display()
        )),
        "{err}"
    );
    let usual = tmp("usual.txt", "speed 7\nwait 0.1\n");
    let out = walkthrough(&["sim", "--script", usual.to_str().unwrap(), "--speed", "5"]);
    assert!(!stderr(&out).contains("is it right"), "{}", stderr(&out));
}

/// `--scale 1000` made the built-in house 24 km across without a word, while 0.001 was
/// warned of: a scale far from what the map surely reads as is
/// warned of too; one within 30 times of it (`FAR_FROM_READING`) (a unit's neighbour) is not.
#[test]
fn a_scale_far_from_what_the_map_reads_as_is_warned_of() {
    let run = |scale: &str| sim_at_scale("huge.txt", scale);
    let huge = run("1000");
    assert!(
        huge.contains("warning: --scale 1000 makes the map 2.400e4 m across")
            && huge.contains("reads as metres (scale 1, confidence high): is the scale right?"),
        "{huge}"
    );
    for near in ["1", "25", "0.05"] {
        let out = run(near);
        assert!(!out.contains("is the scale right"), "--scale {near}: {out}");
    }
}

/// A window's option given to `sim` (or `sim`'s to the window) read as clap's
/// "unexpected argument ... tip: to pass it as a value": it is said
/// whose option it is. An option of neither is clap's error as before.
#[test]
fn an_option_of_the_other_command_says_whose_it_is() {
    let script = tmp("whose.txt", "wait 0.1\n");
    let out = walkthrough(&[
        "sim",
        "--script",
        script.to_str().unwrap(),
        "--third-person",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: --third-person is an option of the window, not of 'sim': walkthrough [MAP] --third-person"
        ),
        "{}",
        stderr(&out)
    );
    let out = walkthrough(&["--dt", "0.01"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("error: --dt is an option of 'sim', not of the window"),
        "{}",
        stderr(&out)
    );
    let out = walkthrough(&["sim", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unexpected argument '--bogus'"),
        "{}",
        stderr(&out)
    );
}

/// A recording of the built-in map replayed on another map was warned of only as a start
/// outside it: its header's map and frame are checked against
/// the map opened.
#[test]
fn a_recording_replayed_on_another_map_or_frame_is_warned_of() {
    let rec = tmp(
        "recorded.txt",
        "# walkthrough recording\n# map: the built-in map\n# frame: --up y --scale 1\nstart 0,1.6,8 0 0\nwait 0.1\n",
    );
    let map = tmp(
        "elsewhere.obj",
        "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 2 3 4\n",
    );
    let run = |args: &[&str]| {
        let mut all = vec!["sim", "--script", rec.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = walkthrough(&all);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stderr(&out)
    };
    let other = run(&[map.to_str().unwrap(), "--up", "y", "--scale", "1"]);
    assert!(
        other.contains("recorded.txt:2: recorded on the built-in map; this is ")
            && other.contains("elsewhere.obj: its start lines are places in that map"),
        "{other}"
    );
    let scaled = run(&["--scale", "0.5"]);
    assert!(
        scaled.contains(
            "recorded.txt:2: recorded with --up y --scale 1; this map is --up y --scale 0.5"
        ),
        "{scaled}"
    );
    assert!(
        !run(&[]).contains("recorded"),
        "the same map and frame warned"
    );
}

/// `sim` said only the map's spawn, even when the script's first line puts the walk
/// elsewhere (a recording replayed read as walked from the spawn):
/// its start is said too; a script that walks from the spawn says none.
#[test]
fn a_script_that_starts_elsewhere_says_where() {
    let moved = tmp("moved.txt", "# a walk\nstart 1,1.6,2 90 0\nwait 0.1\n");
    let out = walkthrough(&["sim", "--script", moved.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("start: 1.000,1.600,2.000 (world coordinates), yaw 90: the script's line 2, not the spawn"),
        "{err}"
    );
    let still = tmp("still.txt", "wait 0.1\nstart 1,1.6,2 90 0\n");
    let err = stderr(&walkthrough(&["sim", "--script", still.to_str().unwrap()]));
    assert!(!err.contains("start: "), "{err}");
}

/// `a_second_map_and_a_bad_option_after_the_map_read_plainly`: a second map was "the
/// subcommand 'extra.obj' cannot be used with '[MAP]'", and a bad option after the map
/// gave the usage "walkthrough <MAP>", as if a map were needed.
#[test]
fn a_second_map_and_a_bad_option_after_the_map_read_plainly() {
    let two = walkthrough(&["a.obj", "extra.obj"]);
    let err = stderr(&two);
    assert_eq!(two.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("walkthrough: error: one map at a time: 'extra.obj' would be a second")
            && err.contains("Usage: walkthrough [OPTIONS] [MAP]")
            && !err.contains("subcommand"),
        "{err}"
    );
    let bad = walkthrough(&["a.obj", "--bogus"]);
    let err = stderr(&bad);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unexpected argument '--bogus'")
            && err.contains("Usage: walkthrough [OPTIONS] [MAP]")
            && !err.contains("<MAP>"),
        "{err}"
    );
}

/// `--trace X --decals-out X` wrote both through one `.partial`
/// file, and X was left a mix of both, its old contents lost. Refused before the map is
/// read, X as it was.
#[test]
fn a_trace_and_the_decals_at_one_file_are_refused_and_the_file_kept() {
    let script = tmp("twice.txt", "forward 1\ndecal\n");
    let same = tmp("twice.csv", "precious\n");
    let again = same.parent().unwrap().join(".").join("twice.csv");
    let o = walkthrough(&[
        "sim",
        "--script",
        script.to_str().unwrap(),
        "--trace",
        same.to_str().unwrap(),
        "--decals-out",
        again.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("is both --trace and --decals-out; give each output its own file"),
        "{e}"
    );
    assert!(!e.contains("map: built-in map"), "{e}");
    assert_eq!(std::fs::read_to_string(&same).unwrap(), "precious\n");
}

/// A scale of 1e38 remembered for a file (set by hand in the
/// settings) stopped every open of it, the error naming neither the settings nor
/// `--forget`. It names both, and `--forget` opens the map again.
#[test]
fn a_remembered_scale_that_breaks_the_map_is_blamed_and_forget_mends_it() {
    let huge = Remembering::new("huge", walkthrough_core::map::UpAxis::Y, 1e38);
    let sim = |extra: &[&str]| huge.sim(extra);
    let o = sim(&[]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("the frame remembered for this file (--up y --scale 100000000000000000000000000000000000000) makes it so: --forget drops it"),
        "{err}"
    );
    let o = sim(&["--forget"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `walkthrough ""` said "a value is required for '[MAP]' but none
/// was supplied", as if a map were needed. It says the path is empty, window or `sim`.
#[test]
fn an_empty_map_path_is_said_to_be_empty() {
    let script = tmp("empty-map.txt", "wait 0.05\n");
    for args in [
        vec![""],
        vec!["sim", "", "--script", script.to_str().unwrap()],
    ] {
        let o = walkthrough(&args);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o).trim_end(),
            "walkthrough: error: the map's path is empty: name an OBJ or scene file, or give none for the built-in map"
        );
    }
}

/// `--trace` onto `settings.toml.bad` (the user's unreadable
/// settings, set aside) replaced it. It is refused as the settings file is.
#[test]
fn a_trace_onto_settings_set_aside_is_refused() {
    let dir = std::env::temp_dir().join(format!("walkthrough-cli-aside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let aside = dir.join("settings.toml.bad.2");
    std::fs::write(&aside, "[settings\nfov = 75\n").unwrap();
    let script = tmp("aside.txt", "wait 0.05\n");
    let o = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        .env("WALKTHROUGH_CONFIG_DIR", &dir)
        .args(["sim", "--script"])
        .arg(&script)
        .arg("--trace")
        .arg(&aside)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("which this run reads"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&aside).unwrap(),
        "[settings\nfov = 75\n"
    );
}

/// `--help >/dev/full` printed nothing and exited 0 (clap's own exit
/// took the failed write for a success). A help that cannot be written is an error.
#[cfg(target_os = "linux")]
#[test]
fn a_help_that_cannot_be_written_is_an_error() {
    for args in [&["--help"][..], &["sim", "--help"], &["--version"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("Linux has /dev/full");
        let o = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
            .args(args)
            .stdout(full)
            .output()
            .expect("binary runs");
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("walkthrough: error: cannot write the help"),
            "{args:?}: {}",
            stderr(&o)
        );
        // Written somewhere that takes it, the same help is a success.
        let fine = walkthrough(args);
        assert!(fine.status.success(), "{args:?}: {}", stderr(&fine));
        assert!(!fine.stdout.is_empty(), "{args:?}");
    }
}

/// A room 20 x 4 x 20 m with a closed 4 x 2 x 4 m crate in its middle (faces out of it),
/// as OBJ text; `with_crate` false: the room alone, and the crate as a file of its own.
fn room_and_crate(with_crate: bool) -> String {
    let boxed = |lo: [f32; 3], hi: [f32; 3], out: bool, first: usize| {
        let mut s = String::new();
        for &z in &[lo[2], hi[2]] {
            for &(x, y) in &[
                (lo[0], lo[1]),
                (hi[0], lo[1]),
                (hi[0], hi[1]),
                (lo[0], hi[1]),
            ] {
                s += &format!("v {x} {y} {z}\n");
            }
        }
        for q in [
            [0, 3, 2, 1],
            [4, 5, 6, 7],
            [0, 4, 7, 3],
            [1, 2, 6, 5],
            [0, 1, 5, 4],
            [3, 7, 6, 2],
        ] {
            let mut q = q.map(|i| i + first);
            if !out {
                q.reverse();
            }
            s += &format!("f {} {} {} {}\n", q[0], q[1], q[2], q[3]);
        }
        s
    };
    let room = boxed([-10.0, 0.0, -10.0], [10.0, 4.0, 10.0], false, 1);
    let crate_ = |first| boxed([-2.0, 0.0, -2.0], [2.0, 2.0, 2.0], true, first);
    if with_crate {
        room + &crate_(9)
    } else {
        tmp("crate.obj", &crate_(1));
        room
    }
}

/// The eyes of a trace's rows (x, y, z: its third to fifth columns), header skipped.
fn trace_eyes(o: &Output) -> Vec<[f32; 3]> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .skip(1)
        .map(|l| {
            let v: Vec<f32> = l
                .split(',')
                .skip(2)
                .take(3)
                .map(|x| x.parse().unwrap())
                .collect();
            [v[0], v[1], v[2]]
        })
        .collect()
}

/// Is `eye` inside the box `lo`..`hi` (strictly)?
fn inside_box(eye: [f32; 3], lo: [f32; 3], hi: [f32; 3]) -> bool {
    (0..3).all(|i| lo[i] < eye[i] && eye[i] < hi[i])
}

/// A `start` line, `--spawn`, or either in a scene that places the crate (still, or as a
/// one-key mover), with the eye inside a closed crate stood the walker on the crate's
/// inner floor for the whole walk, silently or with a warning that it "cannot walk out".
/// Each is moved to the nearest spot outside (over the crate's top, 0.45 m up), warned
/// of once at its line or as the spawn, and no row past the first is inside the crate.
#[test]
fn a_start_inside_a_crate_is_moved_out_and_warned_of() {
    let map = tmp("room-crate.obj", &room_and_crate(true));
    tmp("room.obj", &room_and_crate(false));
    let still = tmp(
        "crate-still.toml",
        "[[model]]\nfile = \"room.obj\"\n[[model]]\nfile = \"crate.obj\"\n",
    );
    let mover = tmp(
        "crate-mover.toml",
        "[[model]]\nfile = \"room.obj\"\n[[model]]\nfile = \"crate.obj\"\n[model.motion]\nkeys = [[0, 0, 0, 0, 0, 0, 0]]\n",
    );
    let start = tmp(
        "crate-start.txt",
        "start 0.2,1.6,0.1 0 0\nforward 1\nwait 1\n",
    );
    let walk = tmp("crate-walk.txt", "forward 1\nwait 1\n");
    let (start, walk) = (start.to_str().unwrap(), walk.to_str().unwrap());
    let moved = "looks inside a closed solid: every ray from it, round and up and down, meets a face, nearly all from behind (a block's inside, or a room whose faces all point out): it is moved 0.45 m to 0.200,2.050,0.100 (file coordinates), the nearest spot outside it";
    for m in [&map, &still, &mover] {
        let m = m.to_str().unwrap();
        for (args, said) in [
            (
                vec!["sim", m, "--script", start],
                format!("warning: {start}:1: the start {moved}"),
            ),
            (
                vec!["sim", m, "--script", walk, "--spawn", "0.2,1.6,0.1"],
                format!("warning: the spawn {moved}"),
            ),
        ] {
            let o = walkthrough(&args);
            let err = stderr(&o);
            assert!(o.status.success(), "{err}");
            assert_eq!(err.matches(&said).count(), 1, "{args:?}: {err}");
            assert!(!err.contains("no room to walk here"), "{err}");
            let eyes = trace_eyes(&o);
            assert_eq!(eyes.len(), 241);
            for (row, eye) in eyes.iter().enumerate().skip(1) {
                assert!(
                    !inside_box(*eye, [-2.0, 0.0, -2.0], [2.0, 2.0, 2.0]),
                    "{args:?}: row {row} {eye:?} is inside the crate"
                );
            }
            // Stood on the crate's top at the first tick.
            assert!((eyes[1][1] - 3.601).abs() < 1e-3, "{:?}", eyes[1]);
        }
    }
}

/// A door whose first pose closes its box on the marked spawn (`play = "once"`) left the
/// eye inside the door for the whole walk ("no room to walk here ... flying"): the spawn
/// is moved out of the door's box at its first pose and said, and the door's motion then
/// pushes the walker as it pushes any body in its way.
#[test]
fn a_door_closed_on_the_marked_spawn_moves_the_walker_out_and_says_so() {
    let door = "v -0.05 0 -0.7\nv 0.05 0 -0.7\nv 0.05 2.2 -0.7\nv -0.05 2.2 -0.7\nv -0.05 0 0.7\nv 0.05 0 0.7\nv 0.05 2.2 0.7\nv -0.05 2.2 0.7\nf 1 4 3 2\nf 5 6 7 8\nf 1 5 8 4\nf 2 3 7 6\nf 1 2 6 5\nf 4 8 7 3\n";
    tmp("door.obj", door);
    tmp(
        "ground-spawn.obj",
        "v -20 0 -20\nv 20 0 -20\nv 20 0 20\nv -20 0 20\nf 1 4 3 2\no spawn\nv -1.01 1.6 5.99\nv -0.99 1.6 5.99\nv -1 1.6 6.02\nf 5 6 7\n",
    );
    let scene = tmp(
        "door-on-spawn.toml",
        "[[model]]\nfile = \"ground-spawn.obj\"\n[[model]]\nfile = \"door.obj\"\n[model.motion]\nkeys = [[0, -1, 0, 6.0, 0, 0, 0], [1.5, -1, 0, 6.5, 0, 0, 0]]\nplay = \"once\"\n",
    );
    let walk = tmp("door-walk.txt", "wait 2\n");
    let o = walkthrough(&[
        "sim",
        scene.to_str().unwrap(),
        "--script",
        walk.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(
        err.matches("warning: the spawn looks inside a closed solid")
            .count(),
        1,
        "{err}"
    );
    assert!(err.contains("it is moved 0.10 m to "), "{err}");
    assert!(!err.contains("no room to walk here"), "{err}");
    let eyes = trace_eyes(&o);
    for (row, eye) in eyes.iter().enumerate().skip(1) {
        // The door's box at its pose at this row's time (it slides +z 0.5 m in 1.5 s).
        let z = 6.0 + 0.5 * (row as f32 / 120.0 / 1.5).min(1.0);
        assert!(
            !inside_box(*eye, [-1.05, 0.0, z - 0.7], [-0.95, 2.2, z + 0.7]),
            "row {row} {eye:?} is inside the door"
        );
    }
}

/// A reader that has read enough closes the pipe (`walkthrough --help | head -1`): the
/// help ends quietly with success, as shell tools do.
#[cfg(unix)]
#[test]
fn help_into_a_closed_pipe_exits_quietly() {
    for args in [&["--help"][..], &["sim", "--help"], &["--version"]] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        // Closed before the program starts: its every write meets a closed pipe.
        drop(reader);
        let o = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
            .args(args)
            .stdout(writer)
            .output()
            .expect("binary runs");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

#[test]
fn a_mistyped_map_gets_the_near_name() {
    let dir = std::env::temp_dir().join(format!("walkthrough-cli-near-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/default.obj"),
        dir.join("default.obj"),
    )
    .unwrap();
    std::fs::write(dir.join("scene.toml"), "").unwrap();
    let typed = dir.join("defualt.obj");
    let o = walkthrough(&[typed.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let want = format!(
        "walkthrough: error: {}: cannot read the file: No such file or directory (os error 2) (did you mean {}?)",
        typed.display(),
        dir.join("default.obj").display()
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    // A scene's name, mistyped, the same.
    let o = walkthrough(&[dir.join("scene.tml").to_str().unwrap()]);
    assert!(
        stderr(&o).contains(&format!(
            "(did you mean {}?)",
            dir.join("scene.toml").display()
        )),
        "{}",
        stderr(&o)
    );
}

/// `sim` draws nothing: the textures it never loads are not warned of.
#[test]
fn sim_says_nothing_of_textures_it_never_loads() {
    let dir = std::env::temp_dir().join(format!("walkthrough-cli-tex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let obj: String =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/default.obj"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("mtllib") && !l.starts_with("usemtl"))
            .map(|l| format!("{l}\n"))
            .collect();
    std::fs::write(
        dir.join("level.obj"),
        format!("mtllib level.mtl\nusemtl brick\n{obj}"),
    )
    .unwrap();
    std::fs::write(
        dir.join("level.mtl"),
        "newmtl brick\nKd 1 0 0\nmap_Kd gone.png\n",
    )
    .unwrap();
    let script = tmp("still.txt", "wait 0.1\n");
    let o = walkthrough(&[
        "sim",
        dir.join("level.obj").to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("texture"), "{}", stderr(&o));
    // The window, which draws them, says it (the load it shares, decoding on).
    let m = walkthrough_core::map::load_obj_file(
        &dir.join("level.obj"),
        &walkthrough_core::map::LoadOptions::default(),
    )
    .unwrap();
    assert!(
        m.warnings
            .iter()
            .any(|w| w.starts_with("texture gone.png not found")),
        "{:?}",
        m.warnings
    );
}

/// A closed room 10 m long (x from -5 to 5), 3 m high and 4 m wide, faces turned in.
fn ten_metre_room() -> PathBuf {
    tmp(
        "room10.obj",
        "v -5 0 -2\nv 5 0 -2\nv 5 0 2\nv -5 0 2\nv -5 3 -2\nv 5 3 -2\nv 5 3 2\nv -5 3 2\n\
         f 4 3 2 1\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n",
    )
}

#[test]
fn measure_twice_across_a_ten_metre_room_prints_ten_metres() {
    let room = ten_metre_room();
    // From the middle: one mark on the west wall, one on the east (yaw 90 looks to -X).
    let script = tmp(
        "measure.txt",
        "start 0,1.6,0 90 0\nmeasure\nturn 180\nmeasure\nwait 0.1\n",
    );
    assert_eq!(measures_said(&room, &[], &script), ["measure: 10.000 m"]);
    // Scaled (2 m a unit), the file's units are said too; a third mark waits for a fourth.
    let script = tmp(
        "measure3.txt",
        "start 0,1.6,0 90 0\nmeasure\nturn 180\nmeasure\nmeasure\nwait 0.1\n",
    );
    assert_eq!(
        measures_said(&room, &["--scale", "2"], &script),
        ["measure: 20.000 m (10.000 file units)"]
    );
}

/// The `measure:` lines `sim` prints walking `script` in `map` with `flags`.
fn measures_said(map: &Path, flags: &[&str], script: &Path) -> Vec<String> {
    let mut args = vec!["sim", map.to_str().unwrap()];
    args.extend_from_slice(flags);
    args.extend(["--script", script.to_str().unwrap()]);
    let o = walkthrough(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.starts_with("measure:"))
        .map(str::to_string)
        .collect()
}
