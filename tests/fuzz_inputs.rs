//! Fuzzing the other files a user hands walkthrough: scenes, scripts and the settings
//! file, mutated as a fuzzer would (bytes flipped, lines deleted, repeated and swapped,
//! terminal control sequences and lone carriage returns, a byte order mark, numbers
//! absurd or of the wrong count, models that are missing, folders, devices, not OBJ or bad
//! inside, `start` lines on walls and far away). Every mutant is read or refused with a
//! message naming its file (and a line that exists), never a raw control byte in a
//! message, never a panic; what is read walks with no NaN; a settings file always loads
//! (warnings at most), saves, keeps an unreadable one aside whole and reads back clean.
//! Each harness is watched (a watchdog, not a timing assertion). `WALKTHROUGH_FUZZ_SCALE=N`
//! runs N times as many mutants.

mod common;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use common::Rng;
use glam::Vec3;
use walkthrough_core::collision::CollisionWorld;
use walkthrough_core::map::MapFrame;
use walkthrough_core::player::{Controller, ControllerSettings, Pose};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::sim::{read_script, run, total_steps};
use walkthrough_core::store::{STORE_FILE, Store};
use walkthrough_core::test_kit::obj::obj_text;

/// Scene mutants tried per run (times [`common::fuzz_scale`]).
const SCENE_CASES: usize = 1000;
/// Script mutants.
const SCRIPT_CASES: usize = 5000;
/// Settings mutants.
const SETTINGS_CASES: usize = 1000;
/// A harness that has not ended in this long fails (each takes seconds).
const WATCHDOG: Duration = Duration::from_secs(300);
/// Most steps a script mutant is walked for (longer ones are only counted).
const MAX_WALKED_STEPS: u64 = 20_000;

/// Run `harness` on a thread of its own; fail if it has not ended within [`WATCHDOG`].
fn watched(what: &str, harness: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    let thread = std::thread::spawn(move || {
        harness();
        let _ = tx.send(());
    });
    match rx.recv_timeout(WATCHDOG) {
        Ok(()) => thread.join().unwrap(),
        // The harness panicked: its message is the test's.
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(e) = thread.join() {
                std::panic::resume_unwind(e);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what} did not end within {WATCHDOG:?}"),
    }
}

/// A fresh scratch folder.
fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("walkthrough-fuzz-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Terminal sequences a fuzzer puts into lines.
const CONTROLS: [&str; 5] = [
    "\u{1b}]0;owned\u{7}",
    "\u{1b}[2J",
    "\r",
    "\u{7}\u{8}",
    "\u{202e}\u{9b}",
];

/// Numbers a fuzzer tries.
const NUMBERS: [&str; 14] = [
    "0",
    "-1",
    "1e30",
    "-1e30",
    "1e-7",
    "nan",
    "inf",
    "-inf",
    "1e400",
    "0.5",
    "3",
    "999999",
    "99999999999999999999",
    "\"x\"",
];

/// One random mutation of `lines` (the generic ones every file kind gets); `extra` adds
/// the kind's own lines.
fn mutate(rng: &mut Rng, lines: &mut Vec<String>, extra: &dyn Fn(&mut Rng) -> String) {
    if lines.is_empty() {
        lines.push(String::new());
    }
    let n = lines.len();
    let at = (rng.next_u64() % n as u64) as usize;
    match rng.next_u64() % 9 {
        0 => {
            // Flip a byte (kept as text: a byte that breaks UTF-8 is read as U+FFFD).
            let mut b = lines[at].clone().into_bytes();
            if !b.is_empty() {
                let i = (rng.next_u64() % b.len() as u64) as usize;
                b[i] = rng.next_u64() as u8;
            }
            lines[at] = String::from_utf8_lossy(&b).into_owned();
        }
        1 => {
            lines.remove(at);
        }
        2 => {
            let k = [2, 10, 300][(rng.next_u64() % 3) as usize];
            let l = lines[at].clone();
            lines.splice(at..at, std::iter::repeat_n(l, k));
        }
        3 => {
            let b = (rng.next_u64() % n as u64) as usize;
            lines.swap(at, b);
        }
        4 => {
            let c = CONTROLS[(rng.next_u64() % CONTROLS.len() as u64) as usize];
            let l = &mut lines[at];
            let i = (rng.next_u64() % (l.len() as u64 + 1)) as usize;
            let i = (0..=i).rev().find(|&i| l.is_char_boundary(i)).unwrap_or(0);
            l.insert_str(i, c);
        }
        5 => lines[0].insert(0, '\u{feff}'),
        6 => {
            // A number replaced by an absurd one.
            let l = &lines[at];
            let words: Vec<&str> = l.split(' ').collect();
            let w = (rng.next_u64() % words.len() as u64) as usize;
            let num = NUMBERS[(rng.next_u64() % NUMBERS.len() as u64) as usize];
            let mut words: Vec<String> = words.iter().map(|s| s.to_string()).collect();
            words[w] = num.to_string();
            lines[at] = words.join(" ");
        }
        7 => {
            // Cut the line short.
            let l = &mut lines[at];
            let i = (rng.next_u64() % (l.len() as u64 + 1)) as usize;
            let i = (0..=i).rev().find(|&i| l.is_char_boundary(i)).unwrap_or(0);
            l.truncate(i);
        }
        _ => {
            let e = extra(rng);
            lines.insert(at, e);
        }
    }
}

/// The mutant of `text` after 1 to 4 mutations.
fn mutant(rng: &mut Rng, text: &str, extra: &dyn Fn(&mut Rng) -> String) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.next_u64() % 4 {
        mutate(rng, &mut lines, extra);
    }
    lines.join("\n") + "\n"
}

/// A refusal's message: it names `file`, a line that exists (when it names one), and no
/// raw control byte reaches the terminal.
fn check_refusal(message: &str, file: &str, lines: usize) {
    assert!(
        !message.chars().any(char::is_control),
        "raw control bytes: {message:?}"
    );
    assert!(message.starts_with(file), "{message}");
    let rest = &message[file.len()..];
    if let Some(line) = rest
        .strip_prefix(':')
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse::<usize>().ok())
    {
        assert!(
            (1..=lines.max(1)).contains(&line),
            "line {line} of {lines}: {message}"
        );
    }
}

/// The scene fuzz's folder: models good and bad, and the scenes mutated.
fn scene_models(dir: &Path) {
    let cube = obj_text(&common::cube(
        Vec3::new(-5.0, 0.0, -5.0),
        Vec3::new(5.0, 3.0, 5.0),
    ));
    std::fs::write(dir.join("room.obj"), &cube).unwrap();
    std::fs::write(dir.join("crate.obj"), cube.replace(" 3 ", " 1 ")).unwrap();
    std::fs::write(dir.join("prose.obj"), "Some prose.\nMore of it.\n").unwrap();
    std::fs::write(dir.join("bad.obj"), "v 0 0 0\nv 1 0\nf 1 2 3\n").unwrap();
    std::fs::write(dir.join("empty.obj"), "").unwrap();
    std::fs::create_dir_all(dir.join("folder.obj")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe.obj"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

const MODEL_FILES: [&str; 10] = [
    "room.obj",
    "crate.obj",
    "prose.obj",
    "bad.obj",
    "empty.obj",
    "folder.obj",
    "pipe.obj",
    "missing.obj",
    "/dev/zero",
    "\u{1b}[2J.obj",
];

/// A scene line a fuzzer adds: a field of random numbers (of any count), a model header,
/// a file, an up axis, an unclosed array.
fn scene_line(rng: &mut Rng) -> String {
    let num = |rng: &mut Rng| NUMBERS[(rng.next_u64() % NUMBERS.len() as u64) as usize];
    let field =
        ["position", "rotation", "scale", "colour", "file", "up"][(rng.next_u64() % 6) as usize];
    match field {
        "file" => {
            let f = MODEL_FILES[(rng.next_u64() % MODEL_FILES.len() as u64) as usize];
            format!("[[model]]\nfile = \"{}\"", f.replace('\u{1b}', "\\u001b"))
        }
        "up" => format!(
            "up = \"{}\"",
            ["y", "z", "-x", "w", ""][(rng.next_u64() % 5) as usize]
        ),
        _ => {
            let count = rng.next_u64() % 6;
            let nums: Vec<&str> = (0..count).map(|_| num(rng)).collect();
            let close = if rng.next_u64().is_multiple_of(8) {
                ""
            } else {
                "]"
            };
            if count == 1 && rng.next_u64().is_multiple_of(2) {
                format!("{field} = {}", nums[0])
            } else {
                format!("{field} = [{}{close}", nums.join(", "))
            }
        }
    }
}

const SCENE: &str = "# a scene\nup = \"y\"\n\n[[model]]\nfile = \"room.obj\"\n\n[[model]]\nfile = \"crate.obj\"\nposition = [1.0, 0.0, -2.0]\nrotation = [0.0, 30.0, 0.0]\nscale = [1.0, 0.5, 1.0]\n\n[[model]]\nfile = \"crate.obj\"\nposition = [-2.0, 0.0, 2.0]\nscale = 0.5\n";

/// Scene mutants: opened as the window and `sim` open them (load, collision world,
/// spawn), each read with no NaN and a spawn, or refused naming the scene (and its line).
#[test]
fn mutated_scenes_open_or_are_refused_naming_the_scene_and_line() {
    watched("the scene fuzz", || {
        let dir = scratch("scenes");
        scene_models(&dir);
        let mut rng = Rng(0x005c_e0e5);
        let (mut opened, mut refused) = (0, 0);
        let cases = SCENE_CASES * common::fuzz_scale() as usize;
        for _ in 0..cases {
            let text = mutant(&mut rng, SCENE, &scene_line);
            let path = dir.join("scene.toml");
            std::fs::write(&path, &text).unwrap();
            match Session::open(Some(&path), &OpenOptions::default()) {
                Ok(s) => {
                    opened += 1;
                    assert!(s.world.stats().triangles > 0, "{text}");
                    assert!(s.spawn.position.is_finite(), "{text}");
                    let placed = s.placed.as_ref().expect("a scene places models");
                    assert!(placed.instances().iter().all(|i| i.bounds.min.is_finite()));
                }
                Err(e) => {
                    refused += 1;
                    let shown = path.display().to_string();
                    check_refusal(&e.to_string(), &shown, text.lines().count());
                }
            }
        }
        eprintln!("{cases} scene mutants: {opened} opened, {refused} refused");
        assert!(
            opened > cases / 10 && refused > cases / 10,
            "{opened} / {refused}"
        );
    });
}

/// A script line a fuzzer adds: a command with random arguments, a `start` on a wall's
/// plane, in a corner, outside, far away or not a number.
fn script_line(rng: &mut Rng) -> String {
    let num = |rng: &mut Rng| NUMBERS[(rng.next_u64() % NUMBERS.len() as u64) as usize];
    let coordinate = |rng: &mut Rng| {
        [
            "0", "10", "5", "1.6", "-0.0001", "10.0001", "70", "1e30", "nan", "4",
        ][(rng.next_u64() % 10) as usize]
    };
    match rng.next_u64() % 4 {
        0 => format!(
            "start {},{},{} {} 0",
            coordinate(rng),
            coordinate(rng),
            coordinate(rng),
            ["0", "90", "-180", "400"][(rng.next_u64() % 4) as usize]
        ),
        1 => format!(
            "{} {}",
            [
                "forward",
                "keys",
                "turn",
                "wait",
                "speed",
                "run-factor",
                "mode",
                "jump",
                "look"
            ][(rng.next_u64() % 9) as usize],
            num(rng)
        ),
        2 => format!(
            "keys {} {}",
            ["forward+left", "back+up", "none", "jump", "forward+forward"]
                [(rng.next_u64() % 5) as usize],
            num(rng)
        ),
        _ => [
            "mode fly",
            "mode walk",
            "crouch on",
            "response stop",
            "method angle-sum",
        ][(rng.next_u64() % 5) as usize]
            .to_string(),
    }
}

const SCRIPT: &str = "# walk round the room\nstart 5,1.6,5 0 0\nforward 0.5\nturn 90\nkeys forward+right 0.25\nrun on\nforward 0.25\njump\ncrouch on\nwait 0.25\ncrouch off\nmode fly\nlook 30\nup 0.25\nmode walk\nspeed 7\nwait 0.5\n";

/// Script mutants, read and walked in the closed 10 x 4 x 10 m room: each refused at a
/// line that exists naming the script, or walked (up to [`MAX_WALKED_STEPS`] steps) with
/// no NaN; where every `start` line is in the room or on its walls' planes, the eye never
/// leaves it.
#[test]
fn mutated_scripts_are_refused_at_their_line_or_walked_without_nan() {
    watched("the script fuzz", || {
        let world = CollisionWorld::new(common::cube(Vec3::ZERO, Vec3::new(10.0, 4.0, 10.0)));
        let mut rng = Rng(0x005c_0417);
        let (mut walked, mut refused, mut long) = (0, 0, 0);
        let cases = SCRIPT_CASES * common::fuzz_scale() as usize;
        for _ in 0..cases {
            let text = mutant(&mut rng, SCRIPT, &script_line);
            let script = match read_script("walk.txt", &text) {
                Ok(s) => s,
                Err(e) => {
                    refused += 1;
                    check_refusal(&e.to_string(), "walk.txt", text.lines().count());
                    continue;
                }
            };
            if total_steps(&script.commands, 1.0 / 120.0) > MAX_WALKED_STEPS {
                long += 1;
                continue;
            }
            walked += 1;
            // Every start in the room, or on its walls' planes (within a centimetre, as
            // the placement probe reaches): the eye never leaves it.
            let inside = script.starts().all(|s| {
                let p = s.pose.position;
                p.cmpgt(Vec3::splat(-0.01)).all() && p.cmplt(Vec3::new(10.01, 4.01, 10.01)).all()
            });
            let mut c = Controller::new(
                Pose::new(Vec3::new(5.0, 1.6, 5.0), 0.0, 0.0),
                ControllerSettings::default(),
            );
            let frame = MapFrame::default();
            let result = run(
                &world,
                &frame,
                &mut c,
                &script.commands,
                1.0 / 120.0,
                |step| {
                    let p = step.row.position;
                    if !p.iter().all(|x| x.is_finite()) {
                        return Err(format!("NaN at frame {}", step.row.frame));
                    }
                    // Frame 0 is the pose as asked; each step's row is where the body went.
                    if inside
                        && step.row.frame > 0
                        && !p
                            .iter()
                            .zip([10.0, 4.0, 10.0])
                            .all(|(&x, hi)| x > 0.0 && x < hi)
                    {
                        return Err(format!("left the room at frame {}: {p:?}", step.row.frame));
                    }
                    Ok(())
                },
            );
            assert!(result.is_ok(), "{:?}\n{text}", result.err());
        }
        eprintln!(
            "{cases} script mutants: {walked} walked, {long} longer than {MAX_WALKED_STEPS} steps counted only, {refused} refused"
        );
        assert!(
            walked > cases / 10 && refused > cases / 10,
            "{walked} / {refused}"
        );
    });
}

/// A settings line a fuzzer adds: a known or unknown setting with a random value, a
/// table header, a remembered map or view.
fn settings_line(rng: &mut Rng) -> String {
    let num = NUMBERS[(rng.next_u64() % NUMBERS.len() as u64) as usize];
    match rng.next_u64() % 5 {
        0 => format!(
            "{} = {num}",
            [
                "fov",
                "mouse_sensitivity",
                "walking_speed",
                "run_factor",
                "render_scale"
            ][(rng.next_u64() % 5) as usize]
        ),
        1 => format!(
            "{} = {}",
            [
                "feild_of_view",
                "\"\\u001b[2J\"",
                "window_size",
                "texture_filter",
                "vsync"
            ][(rng.next_u64() % 5) as usize],
            ["[1, 2]", "\"fancy\"", "true", num, "[99999, 1]"][(rng.next_u64() % 5) as usize]
        ),
        2 => [
            "[settings]",
            "[maps.k]",
            "[maps.\"k\".views]",
            "[[settings]]",
        ][(rng.next_u64() % 4) as usize]
            .to_string(),
        3 => format!(
            "\"{}\" = [{num}, 1.6, 5.0, 0.0, 0.0]",
            1 + rng.next_u64() % 9
        ),
        _ => format!(
            "up = \"{}\"\nscale = {num}",
            ["y", "z", "w"][(rng.next_u64() % 3) as usize]
        ),
    }
}

const SETTINGS: &str = "# walkthrough's settings\n\n[settings]\nmouse_sensitivity = 0.12\ninvert_y = false\nfov = 90.0\nwalking_speed = 3.0\nrun_factor = 2.5\nvsync = true\nwindow_size = [1280, 720]\ntexture_filter = \"trilinear\"\nrender_scale = 1.0\n\n[maps.0123abcd-10]\nfile = \"/maps/room.obj\"\nup = \"z\"\nscale = 0.0254\nsaved = 1700000000\n\n[maps.0123abcd-10.views]\n1 = [1.0, 1.6, 2.0, 90.0, 0.0]\n";

/// Settings mutants: the file always loads (a setting out of range, an unknown one, a
/// broken table or file are warnings naming the file, never an error), the settings are
/// in range, and saving keeps an unreadable file aside whole (`.bad`) and writes one that
/// reads back with no warning and the same settings.
#[test]
fn mutated_settings_files_load_with_warnings_save_and_read_back_clean() {
    watched("the settings fuzz", || {
        let dir = scratch("settings");
        let path = dir.join(STORE_FILE);
        let bad = dir.join(format!("{STORE_FILE}.bad"));
        let mut rng = Rng(0x05e7_7135);
        let (mut clean, mut warned) = (0, 0);
        let cases = SETTINGS_CASES * common::fuzz_scale() as usize;
        for _ in 0..cases {
            let text = mutant(&mut rng, SETTINGS, &settings_line);
            let _ = std::fs::remove_file(&bad);
            std::fs::write(&path, &text).unwrap();
            let loaded = Store::load(Some(&dir));
            let shown = path.display().to_string();
            for w in &loaded.warnings {
                check_refusal(w, &shown, text.lines().count());
                if let Some(n) = w
                    .split("line ")
                    .nth(1)
                    .and_then(|r| r.split(':').next())
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    assert!((1..=text.lines().count()).contains(&n), "{w}");
                }
            }
            if loaded.warnings.is_empty() {
                clean += 1;
            } else {
                warned += 1;
            }
            let mut store = loaded.store;
            let settings = store.settings().clone();
            assert_eq!(
                settings.checked().out_of_range.len(),
                0,
                "out of range kept: {settings:?}"
            );
            store.set_settings(&settings).unwrap();
            // Nothing the user had is lost: an unreadable file was kept aside as it was.
            if bad.exists() {
                assert_eq!(std::fs::read_to_string(&bad).unwrap(), text);
            }
            let again = Store::load(Some(&dir));
            assert!(
                again.warnings.is_empty(),
                "{:?}\n{text:?}\nsaved as:\n{}",
                again.warnings,
                std::fs::read_to_string(&path).unwrap_or_default()
            );
            assert_eq!(
                format!("{:?}", again.store.settings()),
                format!("{settings:?}")
            );
        }
        eprintln!("{cases} settings mutants: {clean} read clean, {warned} with warnings");
        assert!(warned > cases / 10, "{clean} / {warned}");
    });
}
