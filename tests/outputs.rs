//! Outputs never lose work: an output that is one of the run's inputs (the map, the
//! script, the settings file, the cache folder) is refused before anything is written, by
//! `sim` and by the window before it opens; a write that fails (a full disk) names its
//! file, ends the run with an error, leaves no `.partial` file and the old file as it was.
//! And a fuzz harness of output paths: every path is refused with a message naming it or
//! written whole, and no input is ever touched. Every run of the binary is watched (a
//! watchdog, not a timing assertion).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{FullDisk, Rng};
use walkthrough_core::files::output::{
    OutputError, PartialFile, Replace, check_writable, write_file,
};
use walkthrough_core::store::{ContentKey, Store};

/// How long a run may take before the watchdog calls it hung.
const WATCHDOG: Duration = Duration::from_secs(60);

/// A closed room 10 x 4 x 10 m.
const ROOM: &str = "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nv 0 4 0\nv 10 4 0\nv 10 4 10\nv 0 4 10\nf 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\nf 2 6 7 3\nf 3 7 8 4\nf 4 8 5 1\n";

/// A test's scratch folder, with the room, a script, and its own settings and cache
/// folders.
struct Scratch {
    dir: PathBuf,
    map: PathBuf,
    script: PathBuf,
    config: PathBuf,
    cache: PathBuf,
}

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("walkthrough-outputs-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (map, script) = (dir.join("room.obj"), dir.join("walk.txt"));
        std::fs::write(&map, ROOM).unwrap();
        std::fs::write(&script, "forward 1\n").unwrap();
        let (config, cache) = (dir.join("config"), dir.join("cache"));
        std::fs::create_dir_all(&config).unwrap();
        std::fs::create_dir_all(&cache).unwrap();
        std::fs::write(config.join("settings.toml"), "[settings]\nfov = 90.0\n").unwrap();
        std::fs::write(cache.join("levels.bin"), "levels").unwrap();
        Scratch {
            dir,
            map,
            script,
            config,
            cache,
        }
    }

    /// The binary with `args` in this folder's settings and cache, with no display: a
    /// window run that gets past its checks stops at "cannot open a window".
    fn run(&self, command: Command, args: &[&str]) -> Output {
        self.run_to(command, args, Stdio::piped())
    }

    /// [`Scratch::run`] with standard output sent to `stdout`.
    fn run_to(&self, mut command: Command, args: &[&str], stdout: Stdio) -> Output {
        command
            .env("WALKTHROUGH_CONFIG_DIR", &self.config)
            .env("WALKTHROUGH_CACHE_DIR", &self.cache)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .args(args)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped());
        watched(command, args)
    }

    fn walkthrough(&self, args: &[&str]) -> Output {
        self.run(Command::new(env!("CARGO_BIN_EXE_walkthrough")), args)
    }

    /// The settings and cache files as they are now (to show they were not touched).
    fn own_files(&self) -> (String, String) {
        (
            std::fs::read_to_string(self.config.join("settings.toml")).unwrap(),
            std::fs::read_to_string(self.cache.join("levels.bin")).unwrap(),
        )
    }
}

/// Run `command`; fail the test if it has not ended within [`WATCHDOG`].
fn watched(mut command: Command, args: &[&str]) -> Output {
    let child = command.spawn().expect("the binary runs");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(WATCHDOG) {
        Ok(out) => out.expect("the binary ran"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("walkthrough {args:?} did not end within {WATCHDOG:?}");
        }
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `--trace`, `--record` and `--screenshot` onto the settings file
/// succeeded and replaced the user's views and corrections with a CSV or a PNG. The
/// settings file and the cache folder are inputs: refused, by `sim` and by the window
/// before it opens, and left as they were.
#[test]
fn an_output_onto_the_settings_file_or_into_the_cache_is_refused() {
    let t = Scratch::new("own");
    let settings = t.config.join("settings.toml");
    let in_cache = t.cache.join("trace.csv");
    let before = t.own_files();
    for (option, window) in [
        ("--trace", false),
        ("--trace", true),
        ("--record", true),
        ("--screenshot", true),
        ("--bench-out", true),
    ] {
        for (target, want) in [
            (&settings, "which this run reads; write to another file"),
            (&in_cache, "a folder this program keeps and reads"),
        ] {
            let mut args = vec![s(&t.map), option, s(target)];
            if window {
                args.extend(["--exit-after", "1"]);
            } else {
                args.splice(0..0, ["sim"]);
            }
            if option != "--record" {
                args.extend(["--script", s(&t.script)]);
            }
            if option == "--bench-out" {
                args.extend(["--bench-frames", "2"]);
            }
            let o = t.walkthrough(&args);
            assert!(!o.status.success(), "{args:?}");
            let err = stderr(&o);
            assert!(err.contains(want), "{args:?}: {err}");
            assert!(!err.contains("cannot open a window"), "{args:?}: {err}");
        }
    }
    assert_eq!(t.own_files(), before);
    assert!(!in_cache.exists());
}

/// `--record` onto the map, a directory, `/dev/full` or into a
/// missing folder was found only after the walk (the recording lost), and `--screenshot`
/// onto the map saved nothing and said nothing, exit 0. Every window output is checked
/// before the window opens, as `sim` checks its trace.
#[test]
fn window_outputs_are_refused_before_the_window_opens() {
    let t = Scratch::new("window");
    let missing = t.dir.join("no-such-folder").join("out.txt");
    for option in ["--record", "--screenshot"] {
        for (target, want) in [
            (s(&t.map), "which this run reads; write to another file"),
            (s(&t.dir), "is not a regular file (a directory)"),
            (
                "/dev/full",
                "is not a regular file (a pipe, device or socket)",
            ),
            (s(&missing), "does not exist"),
        ] {
            let o = t.walkthrough(&[s(&t.map), option, target, "--exit-after", "1"]);
            assert!(!o.status.success(), "{option} {target}");
            let err = stderr(&o);
            assert!(
                err.contains(&format!("walkthrough: error: {target}")) && err.contains(want),
                "{option} {target}: {err}"
            );
            assert!(!err.contains("cannot open a window"), "{err}");
        }
    }
    assert_eq!(std::fs::read_to_string(&t.map).unwrap(), ROOM);
    // A path that passes its checks gets as far as opening the window (none here).
    let fine = t.dir.join("walk-record.txt");
    let o = t.walkthrough(&[s(&t.map), "--record", s(&fine), "--exit-after", "1"]);
    assert!(
        stderr(&o).contains("cannot open a window"),
        "{}",
        stderr(&o)
    );
    assert!(!t.dir.join("walk-record.txt.partial").exists());
}

/// On a full disk a trace left a truncated `.partial` file of
/// 28 KB and its error did not name the file. The run fails naming it, the `.partial`
/// file is gone, and the old trace is as it was.
#[test]
fn a_trace_that_fails_on_a_full_disk_names_its_file_and_leaves_no_partial_file() {
    let t = Scratch::new("full-trace");
    let disk = FullDisk::new("trace");
    let trace = disk.dir.join("trace.csv");
    std::fs::write(&trace, "an older trace\n").unwrap();
    disk.fill();
    let args = [
        "sim",
        s(&t.map),
        "--script",
        s(&t.script),
        "--trace",
        s(&trace),
    ];
    let o = t.run(disk.command(&[]), &args);
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "walkthrough: error: {}: cannot write the trace: ",
            s(&trace)
        )),
        "{err}"
    );
    assert!(!disk.dir.join("trace.csv.partial").exists(), "{err}");
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), "an older trace\n");
}

/// The settings written on a full disk left a `.partial` file of
/// 4,096 bytes. A save that fails is a warning naming the file (settings never stop a
/// run), the `.partial` file is gone and the old file is as it was.
#[test]
fn settings_saved_on_a_full_disk_leave_no_partial_file_and_the_old_file_as_it_was() {
    let t = Scratch::new("full-settings");
    let disk = FullDisk::new("settings");
    // A correction remembered for the room: `--forget` drops it and saves the settings.
    let mut store = Store::load(Some(&disk.dir)).store;
    let key = ContentKey::of_file(&t.map).unwrap();
    let frame = walkthrough_core::map::MapFrame {
        up: walkthrough_core::map::UpAxis::Y,
        scale: 1.0,
    };
    store.remember(&key, &t.map, frame).unwrap();
    let settings = disk.dir.join("settings.toml");
    let before = std::fs::read_to_string(&settings).unwrap();
    disk.fill();
    let mut command = disk.command(&[]);
    command.env("WALKTHROUGH_CONFIG_DIR", &disk.dir);
    let o = watched(
        {
            command
                .env("WALKTHROUGH_CACHE_DIR", &t.cache)
                .args(["sim", s(&t.map), "--script", s(&t.script), "--forget"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            command
        },
        &["sim", "--forget"],
    );
    let err = stderr(&o);
    assert!(
        err.contains(&format!("warning: {}: cannot write: ", s(&settings))),
        "{err}"
    );
    assert!(!disk.dir.join("settings.toml.partial").exists(), "{err}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), before);
}

/// One piece of an output path the fuzz harness builds.
#[derive(Clone, Copy, Debug)]
enum Piece {
    /// A file that is there (replaced, once the new one is whole).
    Existing,
    /// A new name.
    New,
    /// The map, the script, the settings file (there, or by another spelling).
    Map,
    Script,
    Settings,
    SettingsSpelledOtherwise,
    /// A link to the map, a hard link to the script.
    LinkToMap,
    HardLinkToScript,
    /// Inside the cache folder.
    InCache,
    /// A folder, a FIFO, a device.
    Folder,
    Fifo,
    DevFull,
    DevNull,
    /// In a folder that is not there; under a file (not a folder).
    MissingFolder,
    UnderAFile,
    /// A name with control bytes; one too long for the file system; its `.partial` name
    /// taken by a folder.
    ControlName,
    LongName,
    PartialIsAFolder,
}

const PIECES: [Piece; 18] = [
    Piece::Existing,
    Piece::New,
    Piece::Map,
    Piece::Script,
    Piece::Settings,
    Piece::SettingsSpelledOtherwise,
    Piece::LinkToMap,
    Piece::HardLinkToScript,
    Piece::InCache,
    Piece::Folder,
    Piece::Fifo,
    Piece::DevFull,
    Piece::DevNull,
    Piece::MissingFolder,
    Piece::UnderAFile,
    Piece::ControlName,
    Piece::LongName,
    Piece::PartialIsAFolder,
];

/// The path `piece` makes in `t` (the `k`-th of its kind), and whether writing it must be
/// refused.
fn target(t: &Scratch, piece: Piece, k: usize) -> (PathBuf, bool) {
    let d = &t.dir;
    match piece {
        Piece::Existing => {
            let p = d.join(format!("old-{k}.csv"));
            std::fs::write(&p, "old\n").unwrap();
            (p, false)
        }
        Piece::New => (d.join(format!("new-{k}.csv")), false),
        Piece::Map => (t.map.clone(), true),
        Piece::Script => (t.script.clone(), true),
        Piece::Settings => (t.config.join("settings.toml"), true),
        Piece::SettingsSpelledOtherwise => (t.config.join("../config/./settings.toml"), true),
        Piece::LinkToMap => {
            let p = d.join(format!("link-{k}.csv"));
            let _ = std::fs::remove_file(&p);
            std::os::unix::fs::symlink(&t.map, &p).unwrap();
            (p, true)
        }
        Piece::HardLinkToScript => {
            let p = d.join(format!("hard-{k}.txt"));
            let _ = std::fs::remove_file(&p);
            std::fs::hard_link(&t.script, &p).unwrap();
            (p, true)
        }
        Piece::InCache => (t.cache.join(format!("out-{k}.csv")), true),
        Piece::Folder => (d.clone(), true),
        Piece::Fifo => {
            let p = d.join(format!("pipe-{k}"));
            if !p.exists() {
                let made = Command::new("mkfifo").arg(&p).status().unwrap();
                assert!(made.success());
            }
            (p, true)
        }
        Piece::DevFull => ("/dev/full".into(), true),
        Piece::DevNull => ("/dev/null".into(), true),
        Piece::MissingFolder => (d.join(format!("missing-{k}/out.csv")), true),
        Piece::UnderAFile => (t.script.join("out.csv"), true),
        Piece::ControlName => (d.join(format!("\u{1b}[2J\r-{k}.csv")), false),
        Piece::LongName => (d.join("x".repeat(300)), true),
        Piece::PartialIsAFolder => {
            let p = d.join(format!("shadowed-{k}.csv"));
            std::fs::create_dir_all(d.join(format!("shadowed-{k}.csv.partial"))).unwrap();
            (p, true)
        }
    }
}

/// Every input of the scratch folder, and the bytes each holds.
fn inputs_of(t: &Scratch) -> Vec<(PathBuf, Vec<u8>)> {
    [
        t.map.clone(),
        t.script.clone(),
        t.config.join("settings.toml"),
        t.cache.join("levels.bin"),
    ]
    .into_iter()
    .map(|p| {
        let b = std::fs::read(&p).unwrap();
        (p, b)
    })
    .collect()
}

/// Output paths, as a fuzzer builds them (the 35, and random ones): each is
/// checked as the window checks its outputs, then written as the program writes (a
/// `.partial` file put in place, or a new name claimed). Every path is refused with a
/// message naming it (escaped: no raw control byte) or written whole; no input is ever
/// touched, and no `.partial` file is left. A sample runs through `sim --trace` too.
/// `WALKTHROUGH_FUZZ_SCALE=N` tries N times as many.
#[test]
fn output_paths_are_refused_or_written_whole_and_no_input_is_touched() {
    let t = Scratch::new("fuzz");
    let inputs: Vec<PathBuf> = vec![
        t.map.clone(),
        t.script.clone(),
        t.config.join("settings.toml"),
        t.cache.clone(),
    ];
    let before = inputs_of(&t);
    let mut rng = Rng(0x5eed_0001);
    let cases = 400 * common::fuzz_scale() as usize;
    let (mut refused, mut written) = (0, 0);
    for k in 0..cases {
        let piece = PIECES[if k < PIECES.len() {
            k
        } else {
            (rng.next_u64() % PIECES.len() as u64) as usize
        }];
        let (path, must_refuse) = target(&t, piece, k % 7);
        let bytes = format!("case {k}\n").repeat((rng.next_u64() % 2000) as usize + 1);
        let how = rng.next_u64() % 3;
        let result = check_writable(&path, &inputs).and_then(|()| match how {
            0 => write_file(&path, bytes.as_bytes(), &inputs, Replace::Yes),
            1 => {
                let mut f = PartialFile::create(&path, &inputs)?;
                std::io::Write::write_all(&mut f, bytes.as_bytes())
                    .and_then(|()| f.commit())
                    .map_err(|source| OutputError::Io {
                        path: path.display().to_string(),
                        source,
                    })
            }
            _ => {
                let _ = std::fs::remove_file(&path);
                write_file(&path, bytes.as_bytes(), &inputs, Replace::No)
            }
        });
        match result {
            Ok(()) => {
                written += 1;
                assert!(!must_refuse, "{piece:?} {} was written", path.display());
                assert_eq!(std::fs::read(&path).unwrap(), bytes.as_bytes(), "{piece:?}");
            }
            Err(e) => {
                refused += 1;
                let m = e.to_string();
                assert!(!m.chars().any(char::is_control), "{m:?}");
                let shown = walkthrough_core::text::quote::shown_path(&path);
                assert!(m.starts_with(&shown), "{piece:?}: {m}");
                assert!(must_refuse, "{piece:?} refused: {m}");
            }
        }
        let partial = walkthrough_core::files::output::partial_path(&path);
        assert!(
            !partial.is_file(),
            "{piece:?}: {} was left",
            partial.display()
        );
        assert_eq!(inputs_of(&t), before, "{piece:?} {}", path.display());
    }
    assert!(
        refused > cases / 3 && written > cases / 10,
        "{refused} refused, {written} written"
    );
    // Each kind of path through the binary's own checks once.
    for (k, &piece) in PIECES.iter().enumerate() {
        let (path, must_refuse) = target(&t, piece, 100 + k);
        let args = ["sim", s(&t.map), "--script", s(&t.script), "--trace"];
        let mut args: Vec<&str> = args.to_vec();
        let shown = path.to_string_lossy().into_owned();
        args.push(&shown);
        let o = t.walkthrough(&args);
        let err = stderr(&o);
        assert_eq!(o.status.success(), !must_refuse, "{piece:?}: {err}");
        assert!(!err.chars().any(|c| c != '\n' && c.is_control()), "{err:?}");
    }
    assert_eq!(inputs_of(&t), before);
    eprintln!("{cases} output paths: {refused} refused, {written} written whole");
}

/// `--trace /dev/stdout > file.csv` (as root) made its `.partial`
/// file in `/dev` and renamed it over the system's link; `file.csv` got nothing and the
/// run said nothing. An output named by a link is written to the file the link leads to,
/// through a `.partial` file beside that file, and the link is kept.
#[cfg(target_os = "linux")]
#[test]
fn an_output_named_by_a_link_is_written_to_the_file_it_leads_to() {
    let t = Scratch::new("link-out");
    let elsewhere = t.dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let real = elsewhere.join("real.csv");
    std::fs::write(&real, "old\n").unwrap();
    let link = t.dir.join("out.csv");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = t.walkthrough(&[
        "sim",
        s(&t.map),
        "--script",
        s(&t.script),
        "--trace",
        s(&link),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is kept");
    let trace = std::fs::read_to_string(&real).unwrap();
    assert!(trace.starts_with("frame,t,x,y,z"), "{trace}");
    assert!(!t.dir.join("out.csv.partial").exists());
    assert!(!elsewhere.join("real.csv.partial").exists());

    // Standard output's own link, with standard output sent to a file: the file gets it.
    let file = t.dir.join("stdout.csv");
    std::fs::write(&file, "old\n").unwrap();
    let args = [
        "sim",
        s(&t.map),
        "--script",
        s(&t.script),
        "--trace",
        "/proc/self/fd/1",
    ];
    let bin = Command::new(env!("CARGO_BIN_EXE_walkthrough"));
    let o = t.run_to(bin, &args, std::fs::File::create(&file).unwrap().into());
    assert!(o.status.success(), "{}", stderr(&o));
    let trace = std::fs::read_to_string(&file).unwrap();
    assert!(trace.starts_with("frame,t,x,y,z"), "{trace}");
    assert!(!t.dir.join("stdout.csv.partial").exists());
}

/// `sim` said a trace's folder was missing only after the whole
/// map had loaded (0.85 s on conference, with its load report). An output that cannot be
/// written is refused before the map is read.
#[test]
fn sim_refuses_an_output_it_cannot_write_before_reading_the_map() {
    let t = Scratch::new("early");
    let missing = t.dir.join("no-such-folder/trace.csv");
    for option in ["--trace", "--decals-out"] {
        let o = t.walkthrough(&[
            "sim",
            s(&t.map),
            "--script",
            s(&t.script),
            option,
            s(&missing),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("does not exist"), "{err}");
        assert!(
            !err.contains("map: "),
            "{option}: the map was read first:\n{err}"
        );
    }
}
