//! The real binary in a real window under Xvfb (Mesa llvmpipe), driven by real key
//! presses from xdotool. Needs `Xvfb` and `xdotool` (`apt-get install -y xvfb xdotool`),
//! so these tests are `#[ignore]`d for a plain `cargo test`; `.ci/run` runs them with
//! `-- --include-ignored`. They fail (never skip) when a tool is missing.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

mod common;

use glam::Vec3;
use walkthrough_core::collision::Body;
use walkthrough_core::test_kit::boxes::{BOX_QUADS, box_corner};
use walkthrough_core::test_kit::obj::obj_text;

#[test]
fn the_readme_counts_these_window_tests() {
    let ignored = include_str!("window.rs")
        .lines()
        .filter(|l| l.starts_with("#[ignore = "))
        .count();
    let readme = include_str!("../README.md");
    let said = readme
        .split("runs everything except the ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<usize>().ok());
    assert!(ignored > 0);
    assert_eq!(
        said,
        Some(ignored),
        "the README's count of the real-window tests"
    );
}

/// An Xvfb server on a free display, killed on drop.
struct Xvfb {
    child: Child,
    display: String,
}

/// The tests share the display-number search; one at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Xvfb {
    fn start() -> (Xvfb, std::sync::MutexGuard<'static, ()>) {
        Xvfb::start_on("1280x800")
    }

    /// [`Xvfb::start`] with a screen of `size` (`WIDTHxHEIGHT`).
    fn start_on(size: &str) -> (Xvfb, std::sync::MutexGuard<'static, ()>) {
        let guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        // A display number just given up can still be refused for a moment: a server
        // that does not answer is dropped and the next number tried.
        for n in (90..1000).filter(|&n| display_is_free(n)).take(10) {
            if let Some(x) = Xvfb::try_start(n, size) {
                return (x, guard);
            }
        }
        panic!("Xvfb did not start on any free display (apt-get install -y xvfb)");
    }

    /// Start Xvfb on `:n` with a screen of `size` and wait until it answers (xdotool can
    /// ask it its size).
    fn try_start(n: u32, size: &str) -> Option<Xvfb> {
        let display = format!(":{n}");
        let child = Command::new("Xvfb")
            .args([
                &display,
                "-screen",
                "0",
                &format!("{size}x24"),
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb must be installed for the window tests (apt-get install -y xvfb)");
        let mut x = Xvfb { child, display };
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if x.child.try_wait().ok().flatten().is_some() {
                return None;
            }
            let answers = Command::new("xdotool")
                .arg("getdisplaygeometry")
                .env("DISPLAY", &x.display)
                .stderr(Stdio::null())
                .output()
                .is_ok_and(|o| o.status.success());
            if answers {
                return Some(x);
            }
            sleep(Duration::from_millis(50));
        }
        let _ = x.child.kill();
        None
    }

    fn xdotool(&self, args: &[&str]) -> String {
        let out = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .expect("xdotool must be installed for the window tests (apt-get install -y xdotool)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGTERM, not SIGKILL: Xvfb then removes its socket and lock file, which would
        // otherwise pile up in /tmp run after run.
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Can display `:n` be used? Yes when it has no socket or lock, or when they are stale
/// (the lock names a process that is gone: an X server killed without cleaning up), in
/// which case they are removed.
fn display_is_free(n: u32) -> bool {
    let (socket, lock) = (
        PathBuf::from(format!("/tmp/.X11-unix/X{n}")),
        PathBuf::from(format!("/tmp/.X{n}-lock")),
    );
    if !socket.exists() && !lock.exists() {
        return true;
    }
    let owner = std::fs::read_to_string(&lock)
        .ok()
        .and_then(|t| t.trim().parse::<u32>().ok());
    let alive = owner.is_some_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
    if alive {
        return false;
    }
    let _ = std::fs::remove_file(&socket);
    let _ = std::fs::remove_file(&lock);
    !socket.exists() && !lock.exists()
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("walkthrough-window-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Start the app, wait for its window, give it focus. Returns the process and window id.
fn launch(x: &Xvfb, args: &[&str]) -> (Child, String) {
    launch_in(x, args, &std::env::temp_dir())
}

/// [`launch`] with a working directory (where F12 screenshots land).
fn launch_in(x: &Xvfb, args: &[&str], cwd: &Path) -> (Child, String) {
    let mut child = spawn_in(x, args, cwd);
    let pid = child.id().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    let win = loop {
        let found = x.xdotool(&["search", "--pid", &pid]);
        if let Some(w) = found.lines().last() {
            break w.trim().to_string();
        }
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "the app exited before its window appeared on {} (Xvfb alive: {}): {}",
                x.display,
                Path::new(&format!("/proc/{}", x.child.id())).exists(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "no window appeared for pid {pid} in 60 s: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        sleep(Duration::from_millis(100));
    };
    sleep(Duration::from_millis(800)); // first frames
    x.xdotool(&["windowfocus", "--sync", &win]);
    sleep(Duration::from_millis(200));
    (child, win)
}

fn hold(x: &Xvfb, keys: &[&str], secs: f32) {
    for k in keys {
        x.xdotool(&["keydown", k]);
    }
    sleep(Duration::from_secs_f32(secs));
    // Release in reverse order: letting go of W first would leave D alone for a moment,
    // a legitimate strafe along the wall.
    for k in keys.iter().rev() {
        x.xdotool(&["keyup", k]);
    }
    sleep(Duration::from_millis(300));
}

/// Quit with Esc twice (one Esc only says "Esc again to quit").
fn finish(x: &Xvfb, child: Child) -> String {
    x.xdotool(&["key", "Escape"]);
    sleep(Duration::from_millis(100));
    x.xdotool(&["key", "Escape"]);
    wait_for_exit(child, "the app did not quit on Escape twice")
}

struct Row {
    x: f32,
    y: f32,
    z: f32,
    response: String,
    hit: bool,
    ground: bool,
}

/// How far the trace at `p` went across the floor, first row to last (metres).
fn walked_across(p: &Path) -> f32 {
    let rows = read_trace(p);
    let (first, last) = (rows.first().unwrap(), rows.last().unwrap());
    ((last.x - first.x).powi(2) + (last.z - first.z).powi(2)).sqrt()
}

fn read_trace(p: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(p).expect("trace written");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("frame,t,x,y,z,yaw_deg,pitch_deg,response,hit,ground,crouched")
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Row {
                x: f[2].parse().unwrap(),
                y: f[3].parse().unwrap(),
                z: f[4].parse().unwrap(),
                response: f[7].into(),
                hit: f[8] == "1",
                ground: f[9] == "1",
            }
        })
        .collect()
}

/// Average colour of a `size` x `size` patch at the centre of a PNG.
fn centre_colour(p: &Path, size: u32) -> [f32; 3] {
    let img = image::open(p).expect("screenshot is a PNG").to_rgb8();
    let (cx, cy) = (img.width() / 2, img.height() / 2);
    let mut sum = [0f32; 3];
    for y in cy - size / 2..cy + size / 2 {
        for x in cx - size / 2..cx + size / 2 {
            // Skip the crosshair's two lines.
            if x.abs_diff(cx) < 3 || y.abs_diff(cy) < 3 {
                continue;
            }
            let px = img.get_pixel(x, y);
            for c in 0..3 {
                sum[c] += px[c] as f32;
            }
        }
    }
    let n = (size * size - (6 * size) + 36) as f32;
    sum.map(|s| s / n)
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn walking_into_a_wall_in_stop_mode_keeps_it_drawn_then_tab_slides_along_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("stop-slide");
    let (trace, shot) = (dir.join("trace.csv"), dir.join("shot.png"));
    // Spawn 4 m in front of the north wall (z = -12, light blue), looking at it.
    let (child, _win) = launch(
        &x,
        &[
            "--response",
            "stop",
            "--spawn",
            "0,1.6,-8",
            "--yaw",
            "0",
            "--trace",
            trace.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
            "--exit-after",
            "60",
        ],
    );
    // Hold W for 2.5 s at 3 m/s: 7.5 m of intent, 4 m of room.
    hold(&x, &["w"], 2.5);
    // Stop mode: diagonal into the wall does not move at all.
    hold(&x, &["w", "d"], 0.5);
    // Tab to slide, then the same diagonal slides along the wall.
    x.xdotool(&["key", "Tab"]);
    sleep(Duration::from_millis(200));
    hold(&x, &["w", "d"], 1.0);
    let log = finish(&x, child);
    assert!(log.contains("llvmpipe") || log.contains("OpenGL"), "{log}");

    let rows = read_trace(&trace);
    assert!(rows.len() > 300, "{} rows", rows.len());
    let stop_rows: Vec<&Row> = rows.iter().filter(|r| r.response == "stop").collect();
    let slide_rows: Vec<&Row> = rows.iter().filter(|r| r.response == "slide").collect();
    assert!(
        !stop_rows.is_empty() && !slide_rows.is_empty(),
        "Tab must switch the response"
    );
    // Stop: the walker ends its radius (0.3 m) in front of the wall, and hits were reported.
    let keep = Body::WALKER.rest_distance(Vec3::Z);
    let stopped = stop_rows.last().unwrap();
    assert!(
        (stopped.z - (-12.0 + keep)).abs() < 1e-3,
        "stopped at z {}",
        stopped.z
    );
    assert!(stop_rows.iter().any(|r| r.hit));
    assert!(
        stopped.x.abs() < 1e-3,
        "stop mode must not creep sideways: x {}",
        stopped.x
    );
    // Slide: moved along the wall (x grew), still resting against it.
    let last = rows.last().unwrap();
    assert!(last.x > 1.0, "slide moved only to x {}", last.x);
    assert!(
        (last.z - (-12.0 + keep)).abs() < 1e-3,
        "slid off the wall: z {}",
        last.z
    );
    assert!(slide_rows.iter().any(|r| r.hit));

    // The wall fills the centre of the screen: light blue (0.55, 0.70, 0.90), lit.
    let [r, g, b] = centre_colour(&shot, 64);
    assert!(
        b > r + 40.0 && b > g + 15.0 && b > 100.0,
        "centre colour {r} {g} {b} is not the blue wall"
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn holding_w_at_the_foot_of_the_built_in_stairs_climbs_to_the_gallery() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("stairs");
    let (trace, shot) = (dir.join("trace.csv"), dir.join("shot.png"));
    // A metre before the first of 17 steps (0.18 m rise, 0.28 m tread) that rise toward
    // -z to the gallery, 3.06 m up.
    let (child, _win) = launch(
        &x,
        &[
            "--spawn",
            "-5.25,1.6,-3",
            "--yaw",
            "0",
            "--trace",
            trace.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
            "--exit-after",
            "60",
        ],
    );
    hold(&x, &["w"], 3.5);
    finish(&x, child);
    let rows = read_trace(&trace);
    let last = rows.last().unwrap();
    assert!(
        (last.y - (3.06 + 1.6)).abs() < 0.02 && last.z < -8.5,
        "did not reach the gallery: eye at {} {} {}",
        last.x,
        last.y,
        last.z
    );
    // Up the whole way on its feet: the eye never leaves the ground and never drops by
    // more than the contact gap (rolled over a nose, the body settles onto the tread).
    let climbing: Vec<&Row> = rows.iter().skip_while(|r| !r.ground).collect();
    assert!(
        climbing.iter().all(|r| r.ground),
        "left the ground on the stairs"
    );
    assert!(
        climbing.windows(2).all(|w| w[1].y >= w[0].y - 1e-3),
        "the eye dropped on the way up"
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn scripted_window_run_gives_the_same_trace_as_sim_and_exits_when_done() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("script");
    let script = dir.join("walk.txt");
    std::fs::write(
        &script,
        "forward 1.5\nturn 45\nforward 1\nresponse stop\nright 0.5\n",
    )
    .unwrap();
    let (win_trace, shot) = (dir.join("window.csv"), dir.join("shot.png"));
    let child = spawn(
        &x,
        &[
            "--script",
            script.to_str().unwrap(),
            "--trace",
            win_trace.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
            "--exit-when-done",
        ],
    );
    // No --exit-after: the window must close by itself once the script is done.
    let err = wait_for_exit(child, "the window did not close when the script was done");
    // It says the window closes (it said "the keys drive now" and then closed).
    assert!(
        err.contains("script finished at step")
            && err.contains("the window closes (--exit-when-done)"),
        "{err}"
    );
    let sim = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        // Never the user's remembered corrections: an empty settings folder.
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .args(["sim", "--script", script.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(sim.status.success());
    let sim_text = String::from_utf8(sim.stdout).unwrap();
    let win_text = std::fs::read_to_string(&win_trace).unwrap();
    // The trace ends with the script: the very rows of `sim`, no idle rows after them.
    assert_eq!(win_text, sim_text);
    // The screenshot was taken when the script ended and is not black.
    let [r, g, b] = centre_colour(&shot, 32);
    assert!(r + g + b > 60.0, "screenshot is black");
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn sigterm_mid_script_leaves_a_trace_of_whole_rows() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("sigterm");
    let script = dir.join("long.txt");
    std::fs::write(&script, "forward 600\n").unwrap();
    let trace = dir.join("trace.csv");
    let child = spawn(
        &x,
        &[
            "--script",
            script.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ],
    );
    // Wait for some rows (in trace.csv.partial until the run ends), then ask it to stop
    // as a desktop or `timeout` would.
    let partial = dir.join("trace.csv.partial");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::read_to_string(&partial).map_or(0, |t| t.lines().count()) < 51 {
        assert!(Instant::now() < deadline, "no trace rows appeared");
        sleep(Duration::from_millis(100));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    wait_for_exit(child, "SIGTERM did not close the window");
    assert!(!partial.exists(), "the trace was put in place");
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(
        text.ends_with('\n'),
        "the last row is cut: {:?}",
        text.lines().last()
    );
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert!(rows.len() >= 50, "{} rows", rows.len());
    for (i, line) in rows.iter().enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 11, "row {i}: {line}");
        assert_eq!(fields[0].parse::<usize>(), Ok(i), "row {i}: {line}");
        assert!(fields[2].parse::<f32>().is_ok(), "row {i}: {line}");
    }
}

/// Start the app without waiting for its window.
fn spawn(x: &Xvfb, args: &[&str]) -> Child {
    spawn_in(x, args, &std::env::temp_dir())
}

/// [`spawn`] in the working directory `cwd`.
///
/// The app on `x`'s display with `args`, run in `cwd`, its output piped.
fn command_in(x: &Xvfb, args: &[&str], cwd: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_walkthrough"));
    // Never the user's remembered corrections: a settings folder of the test's own, and a
    // cache folder likewise.
    c.env("WALKTHROUGH_CONFIG_DIR", cwd.join("walkthrough-config"))
        .env("WALKTHROUGH_CACHE_DIR", cwd.join("walkthrough-cache"))
        .args(args)
        .current_dir(cwd)
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Wait (up to `secs`) until window `win`'s title names `name`: a map loaded in the
/// background is in.
fn wait_for_title(x: &Xvfb, win: &str, name: &str, secs: u64) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !x.xdotool(&["getwindowname", win]).contains(name) {
        assert!(Instant::now() < deadline, "{name} never came in");
        sleep(Duration::from_millis(200));
    }
}

/// Now and then (about one launch in fifty on a loaded 2-core machine) Xvfb refuses a
/// connection it accepted a moment before, and the app stops at once with "Failed to open
/// connection to X server": that start, and only that one, is tried again.
fn spawn_in(x: &Xvfb, args: &[&str], cwd: &Path) -> Child {
    let start = || command_in(x, args, cwd).spawn().expect("the binary starts");
    for _ in 0..3 {
        let mut child = start();
        sleep(Duration::from_millis(300));
        match child.try_wait().unwrap() {
            // Running; or done already, and well: a GPU draws a short benchmark's frames
            // in less than the wait (its output stays in the pipes for the caller).
            None => return child,
            Some(status) if status.success() => return child,
            Some(_) => {}
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("Failed to open connection to X server"),
            "the app stopped at once: {err}"
        );
        sleep(Duration::from_millis(500));
    }
    start()
}

/// Wait (with a watchdog) for the app to exit successfully; returns its stderr.
fn wait_for_exit(child: Child, why: &str) -> String {
    String::from_utf8_lossy(&wait_for_output(child, why).stderr).into_owned()
}

/// [`wait_for_exit`], returning all it wrote.
fn wait_for_output(mut child: Child, why: &str) -> std::process::Output {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(status.success(), "app failed: {err}");
            return out;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{why}");
        }
        sleep(Duration::from_millis(100));
    }
}

/// The window draws the movers where they are, and walks the moving scene as
/// `sim` does (the trace with its `on` column, byte for byte).
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_door_is_drawn_closed_then_open_as_the_walker_comes_and_the_trace_equals_sims() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("movers");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/moving-scene/scene.toml");
    let scene = scene.to_str().unwrap();
    // Facing the door (-X) 3.2 m from it, beyond its 2.5 m: it waits, closed. A step
    // closer starts it; 2 s later it has slid aside.
    let mut centres = Vec::new();
    for (name, script) in [
        ("far", "start -0.5,1.7,0 90 0\nwait 0.2\n"),
        ("near", "start -0.5,1.7,0 90 0\nforward 0.3\nwait 2\n"),
    ] {
        let path = dir.join(format!("{name}.txt"));
        std::fs::write(&path, script).unwrap();
        let (trace, shot) = (
            dir.join(format!("{name}.csv")),
            dir.join(format!("{name}.png")),
        );
        let child = spawn(
            &x,
            &[
                scene,
                "--script",
                path.to_str().unwrap(),
                "--trace",
                trace.to_str().unwrap(),
                "--screenshot",
                shot.to_str().unwrap(),
                "--exit-when-done",
            ],
        );
        wait_for_exit(child, "the window did not close when the script was done");
        let sim = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
            .env("WALKTHROUGH_CONFIG_DIR", dir.join("walkthrough-config"))
            .args(["sim", scene, "--script", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            sim.status.success(),
            "{}",
            String::from_utf8_lossy(&sim.stderr)
        );
        let win = std::fs::read_to_string(&trace).unwrap();
        assert!(
            win.starts_with("frame,t,x,y,z,yaw_deg,pitch_deg,response,hit,ground,crouched,on\n")
        );
        assert_eq!(win, String::from_utf8(sim.stdout).unwrap(), "{name}");
        centres.push(centre_colour(&shot, 32));
    }
    // The door is orange (0.95, 0.55, 0.15): red well over blue. Open, the room's far
    // wall (beige) is seen through the doorway.
    let [far, near] = [centres[0], centres[1]];
    assert!(
        far[0] - far[2] > 80.0,
        "the closed door at the centre: {far:?}"
    );
    assert!(near[0] - near[2] < 50.0, "the doorway open: {near:?}");
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn f12_saves_a_screenshot_r_reloads_in_place_and_f_flies_up() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("keys");
    let trace = dir.join("trace.csv");
    let (child, _win) = launch_in(
        &x,
        &["--trace", trace.to_str().unwrap(), "--exit-after", "60"],
        &dir,
    );
    hold(&x, &["w"], 0.6);
    // F12: a PNG named walkthrough-<time>.png in the working directory.
    x.xdotool(&["key", "F12"]);
    sleep(Duration::from_millis(500));
    // R: reload the map in the background, keeping the position.
    x.xdotool(&["key", "r"]);
    sleep(Duration::from_millis(1500));
    // F: fly; Space: up.
    x.xdotool(&["key", "f"]);
    sleep(Duration::from_millis(200));
    hold(&x, &["space"], 0.5);
    let log = finish(&x, child);

    let shots: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("walkthrough-")
                && p.extension().is_some_and(|e| e == "png")
        })
        .collect();
    assert_eq!(
        shots.len(),
        1,
        "F12 must save one screenshot: {shots:?}\n{log}"
    );
    let [r, g, b] = centre_colour(&shots[0], 16);
    assert!(r + g + b > 60.0, "the F12 screenshot is black");
    // Named by the local time, walkthrough-YYYY-MM-DD_HH-MM-SS.png, and reported with its
    // full path.
    let name = shots[0].file_name().unwrap().to_string_lossy().into_owned();
    let stamp = &name["walkthrough-".len()..name.len() - ".png".len()];
    assert!(
        stamp.len() == 19 && stamp.as_bytes()[10] == b'_' && stamp.as_bytes()[4] == b'-',
        "{name}"
    );
    let full = dir.join(&name);
    assert!(
        log.contains(&format!("screenshot saved to {}", full.display())),
        "{log}"
    );
    assert!(
        log.contains("loaded built-in map"),
        "R did not reload: {log}"
    );
    // Its clusters were cut on the loader's thread, not the window's, and the time they
    // took is said with the whole wait (the load line leaves them out).
    assert!(log.contains("made while loading"), "{log}");
    assert!(log.contains("prepared for drawing in"), "{log}");
    assert!(log.contains("s after the load began"), "{log}");

    let rows = read_trace(&trace);
    let start = &rows[0];
    let walked = rows.iter().map(|r| start.z - r.z).fold(0.0f32, f32::max);
    assert!(walked > 1.0, "W moved only {walked} m");
    // The reload kept the position: no row jumps back to the spawn after walking.
    let back_at_spawn = rows
        .iter()
        .skip_while(|r| (start.z - r.z) < 1.0)
        .any(|r| (r.z - start.z).abs() < 1e-3);
    assert!(!back_at_spawn, "R moved the player back to the spawn");
    let last = rows.last().unwrap();
    assert!(
        last.y > start.y + 0.5,
        "fly + Space should rise: {} -> {}",
        start.y,
        last.y
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn u_turns_a_z_up_map_opened_y_up_upright_and_the_next_open_remembers_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("turn-up");
    let _ = std::fs::remove_dir_all(dir.join("walkthrough-config"));
    // The test room is written Z-up (its floor at z = 0); opened Y-up it lies on its side.
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/test/room with spaces.obj");
    let trace = dir.join("trace.csv");
    let (m, t) = (map.to_str().unwrap(), trace.to_str().unwrap());
    let (child, _win) = launch_in(
        &x,
        &[m, "--up", "y", "--trace", t, "--exit-after", "60"],
        &dir,
    );
    sleep(Duration::from_millis(500));
    x.xdotool(&["key", "u"]);
    sleep(Duration::from_millis(2500));
    let log = finish(&x, child);
    assert!(log.contains("up axis z: --up z --scale 1"), "{log}");
    assert!(log.contains("remembered for this file"), "{log}");
    let rows = read_trace(&trace);
    let (before, after) = (rows.first().unwrap(), rows.last().unwrap());
    // Y-up, the eye stood 1.6 units along the file's y; turned, it stands on the floor
    // at z = 0, an eye height up along z, on the ground.
    assert!((before.y - 1.6).abs() < 0.05, "before: y {}", before.y);
    assert!(
        (after.z - 1.6).abs() < 0.05,
        "the eye did not rise onto the floor: z {}",
        after.z
    );
    assert!(after.ground, "not standing after the turn");
    let stored = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml"))
        .expect("the correction is saved");
    assert!(stored.contains("up = \"z\""), "{stored}");

    // Opened again with no flags, the remembered frame is used and named.
    let (child, _win) = launch_in(&x, &[m, "--exit-after", "30"], &dir);
    let log = finish(&x, child);
    assert!(
        log.contains("up axis z as you set it for this file"),
        "{log}"
    );
    // --forget drops it: the survey's reading again.
    let (child, _win) = launch_in(&x, &[m, "--forget", "--exit-after", "30"], &dir);
    let log = finish(&x, child);
    assert!(log.contains("forgot the up axis and scale"), "{log}");
    assert!(!log.contains("as you set it"), "{log}");
}

/// With `--screenshot`, F12 wrote into that file and the exit's picture then replaced it
/// (the F12 picture lost); a quit before the first frame saved a fully transparent image
/// and said it saved, once for each repeat of a held Esc. F12
/// now saves a file of its own beside the exit's; an early quit saves one picture at
/// most, never a blank one.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn f12_with_screenshot_keeps_both_pictures_and_an_early_quit_saves_no_blank() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("f12-exit-shot");
    let exit_png = dir.join("exit.png");
    let args = [
        "--screenshot",
        exit_png.to_str().unwrap(),
        "--exit-after",
        "4",
    ];
    let (child, _win) = launch_in(&x, &args, &dir);
    let shot = f12(&x, &dir, 1);
    let log = wait_for_exit(child, "the window did not close after 4 s");
    assert_ne!(shot, exit_png, "F12 wrote --screenshot's file\n{log}");
    let name = shot.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("walkthrough-"), "{name}");
    assert!(exit_png.is_file(), "no exit picture\n{log}");
    assert_eq!(screenshots(&dir).len(), 2, "{:?}", screenshots(&dir));
    // Esc held from the moment the window appears: one exit at most, and its picture,
    // if a frame was drawn first, is no blank.
    let early = dir.join("early");
    std::fs::create_dir_all(&early).unwrap();
    let early_png = early.join("early.png");
    let mut child = spawn_in(
        &x,
        &[
            "--screenshot",
            early_png.to_str().unwrap(),
            "--exit-after",
            "20",
        ],
        &early,
    );
    let pid = child.id().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    let win = loop {
        if let Some(w) = x.xdotool(&["search", "--pid", &pid]).lines().last() {
            break w.trim().to_string();
        }
        assert!(child.try_wait().unwrap().is_none(), "the app exited early");
        assert!(Instant::now() < deadline, "no window in 60 s");
        sleep(Duration::from_millis(20));
    };
    x.xdotool(&["keydown", "--window", &win, "Escape"]);
    sleep(Duration::from_millis(600));
    x.xdotool(&["keyup", "--window", &win, "Escape"]);
    let log = wait_for_exit(child, "a held Esc did not quit");
    let said = log.matches("screenshot saved to").count()
        + log
            .matches("no screenshot: the window closed before")
            .count();
    assert_eq!(said, 1, "one exit, said once:\n{log}");
    if early_png.is_file() {
        let img = image::open(&early_png).unwrap().to_rgba8();
        assert!(
            img.pixels().any(|p| p[3] > 0),
            "a blank picture was saved\n{log}"
        );
    }
}

/// One Esc closed the window unasked when the mouse had never been captured: it
/// says "Esc again to quit", and a second within a few seconds
/// quits.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn one_esc_never_quits_the_window() {
    let (x, _one) = Xvfb::start();
    let (mut child, _win) = launch(&x, &[]);
    x.xdotool(&["key", "Escape"]);
    sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "one Esc closed the window"
    );
    x.xdotool(&["key", "Escape"]);
    let log = wait_for_exit(child, "a second Esc did not quit");
    assert!(log.contains("Esc again to quit"), "{log}");
}

/// `--size 16384x16384` on a 1280 x 800 screen took 4.3 GB and wrote a 306 MB picture,
/// said by nothing: a window larger than the screen is warned of;
/// one that fits is not.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_window_larger_than_the_screen_is_warned_of() {
    let (x, _one) = Xvfb::start();
    let run = |size: &str| {
        let child = spawn(&x, &["--size", size, "--exit-after", "1"]);
        wait_for_exit(child, "the window did not close after 1 s")
    };
    let big = run("1600x900");
    assert!(
        big.contains("warning: the window 1600x900 is larger than the screen (1280x800)"),
        "{big}"
    );
    let fits = run("1280x720");
    assert!(!fits.contains("larger than the screen"), "{fits}");
}

/// On X11 one wheel notch reached the window twice, and each changed the walking speed
/// (x1.32 a notch, not x1.15). Recorded: one notch up is one
/// `speed` line, 1.15 times the default 3 m/s.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_wheel_notch_changes_the_speed_once() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("wheel");
    let (child, win) = launch_in(&x, &["--exit-after", "30"], &dir);
    x.xdotool(&["key", "F5"]);
    sleep(Duration::from_millis(400));
    x.xdotool(&["mousemove", "--window", &win, "300", "300"]);
    x.xdotool(&["click", "4"]);
    sleep(Duration::from_millis(400));
    x.xdotool(&["key", "F5"]);
    sleep(Duration::from_millis(400));
    let log = finish(&x, child);
    let recording = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "txt"))
        .unwrap_or_else(|| panic!("no recording\n{log}"));
    let text = std::fs::read_to_string(&recording).unwrap();
    // After the header's settings (the first `wait`), the wheel's lines.
    let speeds: Vec<f32> = text
        .lines()
        .skip_while(|l| !l.starts_with("wait"))
        .filter_map(|l| l.strip_prefix("speed "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(speeds.len(), 1, "{text}");
    assert!((speeds[0] - 3.45).abs() < 1e-3, "{text}");
}

/// The shots F12 saved in `dir`, in the order they were taken.
fn screenshots(dir: &Path) -> Vec<PathBuf> {
    let mut shots: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .map(|p| (std::fs::metadata(&p).unwrap().modified().unwrap(), p))
        .collect();
    shots.sort();
    shots.into_iter().map(|(_, p)| p).collect()
}

/// Press F12 and wait for the `n`-th screenshot in `dir` (the app's working directory).
fn f12(x: &Xvfb, dir: &Path, n: usize) -> PathBuf {
    x.xdotool(&["key", "F12"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while screenshots(dir).len() < n {
        assert!(Instant::now() < deadline, "F12 saved no screenshot {n}");
        sleep(Duration::from_millis(100));
    }
    sleep(Duration::from_millis(300));
    screenshots(dir)[n - 1].clone()
}

/// Mean colour of the `w` x `h` box centred `dy` pixels below the middle of the image.
fn region_colour(p: &Path, dy: i32, w: u32, h: u32) -> [f32; 3] {
    let img = image::open(p).expect("screenshot is a PNG").to_rgb8();
    let cx = img.width() / 2;
    let cy = (img.height() as i32 / 2 + dy) as u32;
    box_colour(&img, (cx - w / 2, cy - h / 2), (cx + w / 2, cy + h / 2))
}

/// Mean colour of `img`'s pixels from `(x0, y0)` up to `(x1, y1)` (not included).
fn box_colour(img: &image::RgbImage, (x0, y0): (u32, u32), (x1, y1): (u32, u32)) -> [f32; 3] {
    let mut sum = [0f32; 3];
    for y in y0..y1 {
        for x in x0..x1 {
            let px = img.get_pixel(x, y);
            for c in 0..3 {
                sum[c] += px[c] as f32;
            }
        }
    }
    sum.map(|s| s / ((x1 - x0) * (y1 - y0)) as f32)
}

fn differs(a: [f32; 3], b: [f32; 3]) -> bool {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f32>() > 20.0
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn hud_hints_help_without_crosshair_and_the_running_speed() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("hud");
    let trace = dir.join("trace.csv");
    // In the open hall, looking down its length.
    let args = [
        "--spawn",
        "0,1.6,4",
        "--yaw",
        "0",
        "--trace",
        trace.to_str().unwrap(),
    ];
    let (child, win) = launch_in(&x, &args, &dir);
    let shot = |n: usize| f12(&x, &dir, n);
    let free = shot(1);
    x.xdotool(&["key", "F1"]);
    sleep(Duration::from_millis(300));
    let help = shot(2);
    x.xdotool(&["key", "F1"]);
    sleep(Duration::from_millis(300));
    // Capture the mouse: the hint below the crosshair goes, a toast comes at the bottom.
    x.xdotool(&["mousemove", "--window", &win, "400", "300", "click", "1"]);
    sleep(Duration::from_millis(500));
    let captured = shot(3);
    hold(&x, &["shift", "w"], 0.8);
    // The first Esc frees the mouse and says the second one quits; the window goes at
    // once (measured and printed; the watchdog only catches a window that never goes).
    x.xdotool(&["key", "Escape"]);
    sleep(Duration::from_millis(300));
    let pid = child.id().to_string();
    x.xdotool(&["key", "Escape"]);
    let pressed = Instant::now();
    while !x
        .xdotool(&["search", "--onlyvisible", "--pid", &pid])
        .trim()
        .is_empty()
    {
        assert!(
            pressed.elapsed() < Duration::from_secs(10),
            "the window never closed"
        );
        sleep(Duration::from_millis(5));
    }
    eprintln!("window gone {} ms after Esc", pressed.elapsed().as_millis());
    let log = wait_for_exit(child, "the app did not quit on the second Escape");
    assert!(log.contains("Esc again to quit"), "{log}");

    // F1: the help covers the centre and the crosshair is not drawn over it.
    let (cross_free, cross_help) = (region_colour(&free, 0, 2, 2), region_colour(&help, 0, 2, 2));
    assert!(
        differs(cross_free, cross_help),
        "{cross_free:?} vs {cross_help:?}"
    );
    // The "click to look" hint sits 40 px below the centre only while the mouse is free.
    let (hint_free, hint_captured) = (
        region_colour(&free, 40, 120, 12),
        region_colour(&captured, 40, 120, 12),
    );
    assert!(
        differs(hint_free, hint_captured),
        "{hint_free:?} vs {hint_captured:?}"
    );
    assert!(log.contains("mouse captured"), "{log}");
    // Shift + W: the trace moves at the running speed, 3 m/s x 2.5.
    let rows = read_trace(&trace);
    let fastest = rows
        .windows(2)
        .map(|w| Vec3::new(w[1].x - w[0].x, 0.0, w[1].z - w[0].z).length() * 120.0)
        .fold(0.0f32, f32::max);
    assert!((fastest - 7.5).abs() < 0.2, "ran at {fastest} m/s");
}

/// In a small window the minimap was drawn over the help's table,
/// the HUD's lines showed through it, and a notice ("screenshot saved to ...") covered
/// the table's page line. The table now lies over both, and keeps the bottom band clear.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_help_in_a_small_window_hides_the_minimap_and_leaves_the_notice_band_clear() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("help-small");
    let args = ["--size", "640x360", "--spawn", "0,1.6,4", "--yaw", "0"];
    let (child, win) = launch_in(&x, &args, &dir);
    let free = f12(&x, &dir, 1);
    // A click on the minimap (egui raises an area clicked) captures the mouse; Esc frees
    // it. Then the help's second page, whose page line is at the table's foot.
    x.xdotool(&["mousemove", "--window", &win, "540", "100", "click", "1"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["key", "Escape"]);
    x.xdotool(&["key", "F1"]);
    x.xdotool(&["key", "F1"]);
    sleep(Duration::from_millis(300));
    let help = f12(&x, &dir, 2);
    let log = finish(&x, child);
    let (free, help) = (
        image::open(&free).unwrap().to_rgb8(),
        image::open(&help).unwrap().to_rgb8(),
    );
    assert_eq!(help.dimensions(), (640, 360), "{log}");
    let sum = |c: [f32; 3]| c.iter().sum::<f32>();
    // Above the table's first row, where the minimap's top showed: the minimap without
    // the help; the help's nearly black panel (and a few letters) with it.
    let strip = ((450, 10), (620, 22));
    let (map_strip, help_strip) = (
        box_colour(&free, strip.0, strip.1),
        box_colour(&help, strip.0, strip.1),
    );
    assert!(sum(map_strip) > 150.0, "no minimap: {map_strip:?}");
    assert!(
        sum(help_strip) < 100.0,
        "the minimap shows over the help: {help_strip:?}"
    );
    // The table's foot, its lowest nearly black pixel down its left margin, is above a
    // one-line notice's top (12 points from the bottom, 32 tall).
    let black = |y: u32| {
        let p = help.get_pixel(13, y);
        p.0.iter().map(|&c| u32::from(c)).sum::<u32>() < 40
    };
    let foot = (0..360).rev().find(|&y| black(y)).expect("no help panel");
    assert!(
        foot < 360 - 12 - 32,
        "the table reaches down to {foot}, under the notice"
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn debug_view_highlights_the_wall_walked_into_and_changes_no_trace() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("debug-view");
    let script = dir.join("walk.txt");
    // 4 m before the light blue north wall, walking into it for 2.5 s in stop mode.
    std::fs::write(&script, "forward 2.5\n").unwrap();
    let place = ["--response", "stop", "--spawn", "0,1.6,-8", "--yaw", "0"];
    let (trace, shot) = (dir.join("window.csv"), dir.join("shot.png"));
    let mut args = place.to_vec();
    args.extend([
        "--script",
        script.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "--screenshot",
        shot.to_str().unwrap(),
        "--exit-when-done",
        "--debug-view",
    ]);
    let err = wait_for_exit(spawn(&x, &args), "the debug-view run did not finish");
    assert!(err.contains("script finished"), "{err}");
    // The wall fills the view, filled in the stop colour (red) over its blue.
    let [r, g, b] = centre_colour(&shot, 64);
    assert!(
        r > b + 60.0 && r > g + 60.0,
        "centre {r} {g} {b} is not highlighted red"
    );
    // Recording the collision for the view changes nothing: the trace is sim's.
    let mut sim_args = vec!["sim"];
    sim_args.extend(place);
    sim_args.extend(["--script", script.to_str().unwrap()]);
    let sim = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        // Never the user's remembered corrections: an empty settings folder.
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .args(&sim_args)
        .output()
        .unwrap();
    assert!(sim.status.success());
    let window = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(window, String::from_utf8(sim.stdout).unwrap());
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn detached_camera_flies_while_the_body_stands_then_v_returns_to_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("detached");
    let trace = dir.join("trace.csv");
    // In the open hall, looking down its length: 1.5 s of walking is nowhere near a wall.
    let args = [
        "--spawn",
        "0,1.6,6",
        "--yaw",
        "0",
        "--trace",
        trace.to_str().unwrap(),
    ];
    let (child, _win) = launch_in(&x, &args, &dir);
    x.xdotool(&["key", "shift+v"]);
    sleep(Duration::from_millis(200));
    hold(&x, &["w"], 1.0);
    // While the app runs its rows go to trace.csv.partial.
    let rows = read_trace(&dir.join("trace.csv.partial"));
    let start = &rows[0];
    let stood = rows
        .iter()
        .map(|r| Vec3::new(r.x - start.x, 0.0, r.z - start.z).length())
        .fold(0.0f32, f32::max);
    assert!(
        stood < 0.01,
        "the body moved {stood} m while the camera was detached"
    );
    x.xdotool(&["key", "shift+v"]);
    sleep(Duration::from_millis(200));
    hold(&x, &["w"], 0.5);
    finish(&x, child);
    let rows = read_trace(&trace);
    let last = rows.last().unwrap();
    let walked = Vec3::new(last.x - start.x, 0.0, last.z - start.z).length();
    // Only the second hold moved the body: about 0.5 s at 3 m/s.
    assert!((0.8..2.5).contains(&walked), "the body walked {walked} m");
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn minimap_shows_the_player_moving_and_n_hides_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("minimap");
    let args = ["--spawn", "0,1.6,6", "--yaw", "0", "--size", "800x500"];
    let (child, _win) = launch_in(&x, &args, &dir);
    let shot = |n: usize| f12(&x, &dir, n);
    let before = shot(1);
    hold(&x, &["w"], 1.5);
    let after = shot(2);
    x.xdotool(&["key", "n"]);
    sleep(Duration::from_millis(300));
    let hidden = shot(3);
    finish(&x, child);
    // The minimap's corner (top right, 200 points): the arrow and trail moved with the
    // player, and N took the whole map away.
    let corner = |p: &Path| {
        let img = image::open(p).unwrap().to_rgb8();
        let x0 = img.width() - 208;
        let mut px = Vec::new();
        for y in 8..208 {
            for x in x0..x0 + 200 {
                px.push(img.get_pixel(x, y).0);
            }
        }
        px
    };
    let (a, b, c) = (corner(&before), corner(&after), corner(&hidden));
    let changed = |p: &[[u8; 3]], q: &[[u8; 3]]| {
        p.iter()
            .zip(q)
            .filter(|(u, v)| u.iter().zip(v.iter()).any(|(s, t)| s.abs_diff(*t) > 40))
            .count()
    };
    let moved = changed(&a, &b);
    assert!(
        (20..8000).contains(&moved),
        "{moved} minimap pixels changed as the player walked"
    );
    let gone = changed(&b, &c);
    assert!(
        gone > 10_000,
        "N changed only {gone} pixels of the minimap's corner"
    );
}

/// Mean absolute difference (0 to 255) of two screenshots' middle halves (away from the
/// HUD and the minimap, whose text changes from frame to frame).
fn middle_difference(a: &Path, b: &Path) -> f32 {
    let (a, b) = (
        image::open(a).expect("a PNG").to_rgb8(),
        image::open(b).expect("a PNG").to_rgb8(),
    );
    assert_eq!(a.dimensions(), b.dimensions());
    let (w, h) = a.dimensions();
    let (mut sum, mut n) = (0u64, 0u64);
    for y in h / 4..3 * h / 4 {
        for x in w / 4..3 * w / 4 {
            let (p, q) = (a.get_pixel(x, y), b.get_pixel(x, y));
            sum += (0..3).map(|c| u64::from(p[c].abs_diff(q[c]))).sum::<u64>();
            n += 3;
        }
    }
    sum as f32 / n as f32
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn culling_by_occlusion_or_by_the_frustum_draws_the_same_picture_of_each_map_as_drawing_everything()
{
    let (x, _one) = Xvfb::start();
    let dir = out_dir("cull");
    let look = dir.join("look.txt");
    // A look to the side and back, so the clusters behind come into view and leave it.
    std::fs::write(&look, "turn 120\nwait 0.2\nturn -150\nwait 0.3\n").unwrap();
    // Standing still 0.3 m from the built-in map's north wall (a bug: the wall, drawn a
    // little nearer than it is, hid itself, and with the eye still was never tested
    // again: the picture showed what lies behind it).
    let wall = dir.join("wall.txt");
    std::fs::write(&wall, "start 2.14,1.6005,-11.699833 0 0\nwait 0.5\n").unwrap();
    // The same look on the shared maps, then a wait: their levels of detail, made on a
    // thread after the upload (conference's in about half a second), are drawn by then.
    let look_then_wait = dir.join("look-then-wait.txt");
    std::fs::write(
        &look_then_wait,
        "turn 120\nwait 0.2\nturn -150\nwait 0.3\nwait 4\n",
    )
    .unwrap();
    let mut cases: Vec<(Option<PathBuf>, &Path, &str)> = vec![
        (None, &look, "built-in"),
        (None, &wall, "built-in-at-a-wall"),
    ];
    for m in ["conference", "lost_empire"] {
        if let Some(dir) = common::shared(&format!("maps/{m}")) {
            cases.push((Some(dir.join(format!("{m}.obj"))), &look_then_wait, m));
        }
    }
    for (map, script, name) in cases {
        let shot = |culling: &str| {
            let shot = dir.join(format!("{name}-{culling}.png"));
            let mut args = vec![
                "--script",
                script.to_str().unwrap(),
                "--screenshot",
                shot.to_str().unwrap(),
                "--exit-when-done",
                "--culling",
                culling,
            ];
            if let Some(m) = &map {
                args.insert(0, m.to_str().unwrap());
            }
            let err = wait_for_exit(spawn(&x, &args), "the window did not close");
            assert!(err.contains("clusters"), "{err}");
            if culling != "off" && name == "conference" {
                // Its levels were drawn in the picture: added before the script ended.
                let added = err.find("levels of detail:");
                let ended = err.find("script finished");
                assert!(
                    added.is_some() && added < ended,
                    "{name}: no levels of detail before the screenshot\n{err}"
                );
            }
            shot
        };
        let all = shot("off");
        // Occlusion culling (llvmpipe's default), and the frustum alone (a GPU's).
        for culling in ["occlusion", "frustum"] {
            let culled = shot(culling);
            let d = middle_difference(&culled, &all);
            assert!(
                d < 1.0,
                "{name}: the picture culled by {culling} and the full one differ by {d:.2} on average"
            );
            let [r, g, b] = centre_colour(&culled, 32);
            assert!(r + g + b > 30.0, "{name}: the screenshot is black");
        }
    }
}

/// Found on NVIDIA's GL, whose windows are multisampled by default: a samples-passed
/// query counts samples, and the summary gave 4x MSAA's frames four times the fragments
/// a pixel that passed the depth test (4.5 on the built-in map, 1.1 without MSAA).
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn passed_depth_a_pixel_is_the_same_with_msaa_as_without() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("bench-msaa");
    let still = dir.join("still.txt");
    std::fs::write(&still, "wait 0.5\n").unwrap();
    let passed = |msaa: &str| {
        let out = wait_for_output(
            spawn(
                &x,
                &[
                    "--script",
                    still.to_str().unwrap(),
                    "--msaa",
                    msaa,
                    "--bench-frames",
                    "10",
                    "--no-vsync",
                ],
            ),
            "the benchmark did not end",
        );
        let line = String::from_utf8_lossy(&out.stdout).into_owned();
        let n = line
            .split("passed depth ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|t| t.parse::<f64>().ok());
        n.unwrap_or_else(|| panic!("no 'passed depth' count: {line}"))
    };
    let (plain, smooth) = (passed("0"), passed("4"));
    assert!(plain > 0.3, "{plain}");
    assert!(
        (smooth / plain - 1.0).abs() < 0.25,
        "passed depth a pixel: {smooth} with 4x MSAA, {plain} without"
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn bench_frames_prints_its_summary_and_bench_out_writes_a_row_a_frame_even_cut_short() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("bench");
    let look = dir.join("look.txt");
    std::fs::write(&look, "turn 120\nwait 0.2\nturn -150\nwait 2\n").unwrap();
    let rows = dir.join("frames.csv");
    let out = wait_for_output(
        spawn(
            &x,
            &[
                "--script",
                look.to_str().unwrap(),
                "--bench-frames",
                "20",
                "--no-vsync",
                "--bench-out",
                rows.to_str().unwrap(),
            ],
        ),
        "the benchmark did not end",
    );
    let line = String::from_utf8_lossy(&out.stdout);
    assert!(line.contains("frames 20  median"), "{line}");
    let text = std::fs::read_to_string(&rows).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "frame,ms,triangles,draws,clusters,rasterized,passed,passed_opaque"
    );
    assert_eq!(lines.len(), 21, "{text}");
    for (i, row) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[0], i.to_string(), "{row}");
        let number = |k: usize| cells[k].parse::<f64>().unwrap_or(f64::NAN);
        assert!(number(1) > 0.0, "a frame takes time: {row}");
        // The built-in map has 653 triangles; the view always holds some.
        assert!(number(2) > 0.0 && number(2) <= 653.0, "{row}");
        assert!(number(3) >= 1.0, "{row}");
        // llvmpipe counts fragments: the sky is clear, the floor and walls cover most
        // of the window, and no view of this small map is many layers deep.
        assert!(number(5) > 0.3 && number(5) < 6.0, "{row}");
        assert!(number(6) > 0.3 && number(6) <= number(5), "{row}");
    }
    // A window closed before its frames are all drawn leaves the rows of those it drew,
    // and no partial file.
    let early = dir.join("early.csv");
    let out = wait_for_output(
        spawn(
            &x,
            &[
                "--bench-frames",
                "100000",
                "--exit-after",
                "1",
                "--bench-out",
                early.to_str().unwrap(),
            ],
        ),
        "--exit-after did not close the window",
    );
    let text = std::fs::read_to_string(&early).unwrap();
    let drawn = text.lines().count() - 1;
    assert!((1..100_000).contains(&drawn), "{drawn} rows");
    assert!(!dir.join("early.csv.partial").exists());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("frames "));
}

/// A window manager on the display (openbox), killed on drop: fullscreen is the window
/// manager's to grant.
struct WindowManager(Child);

impl WindowManager {
    fn start(x: &Xvfb) -> WindowManager {
        let child = Command::new("openbox")
            .env("DISPLAY", &x.display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect(
                "openbox must be installed for the fullscreen test (apt-get install -y openbox)",
            );
        sleep(Duration::from_millis(700));
        WindowManager(child)
    }
}

impl Drop for WindowManager {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The window's size, from xdotool.
fn window_size(x: &Xvfb, win: &str) -> (u32, u32) {
    let out = x.xdotool(&["getwindowgeometry", win]);
    let size = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("Geometry: "))
        .unwrap_or_else(|| panic!("no geometry in {out}"));
    let (w, h) = size.split_once('x').unwrap();
    (w.parse().unwrap(), h.parse().unwrap())
}

/// Wait (up to 10 s) for the window to have the size `want`; returns the size it has.
fn wait_for_size(x: &Xvfb, win: &str, want: (u32, u32)) -> (u32, u32) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while window_size(x, win) != want && Instant::now() < deadline {
        sleep(Duration::from_millis(100));
    }
    window_size(x, win)
}

#[test]
#[ignore = "needs Xvfb, xdotool and openbox; .ci/run runs it"]
fn f11_fills_the_screen_and_f11_again_gives_the_window_back() {
    let (x, _one) = Xvfb::start();
    let _wm = WindowManager::start(&x);
    let dir = out_dir("fullscreen");
    let (child, win) = launch_in(&x, &["--size", "640x360", "--exit-after", "30"], &dir);
    assert_eq!(window_size(&x, &win), (640, 360));
    x.xdotool(&["key", "F11"]);
    // Xvfb's screen is 1280x800.
    assert_eq!(wait_for_size(&x, &win, (1280, 800)), (1280, 800));
    x.xdotool(&["key", "F11"]);
    assert_eq!(wait_for_size(&x, &win, (640, 360)), (640, 360));
    x.xdotool(&["key", "Escape"]);
    x.xdotool(&["key", "Escape"]);
    let log = finish(&x, child);
    assert!(!log.contains("panicked"), "{log}");
    // The screen's size is not a size chosen for the window: nothing was saved.
    let saved = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml"));
    assert!(
        saved.as_ref().map_or(true, |s| !s.contains("window_size")),
        "{saved:?}"
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_window_resized_by_hand_opens_at_that_size_next_time() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("resized");
    let (child, win) = launch_in(&x, &["--size", "640x360", "--exit-after", "30"], &dir);
    x.xdotool(&["windowsize", &win, "800", "500"]);
    assert_eq!(wait_for_size(&x, &win, (800, 500)), (800, 500));
    sleep(Duration::from_millis(300));
    finish(&x, child);
    let saved = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml")).unwrap();
    assert!(saved.contains("window_size = [800, 500]"), "{saved}");
    // The next run, without --size, opens at the size the window was left at.
    let (child, win) = launch_in(&x, &["--exit-after", "30"], &dir);
    assert_eq!(window_size(&x, &win), (800, 500));
    finish(&x, child);
}

/// `dir/maps/` with two copies of the built-in map, `first.obj` and `second.obj`.
fn two_maps_in(dir: &Path) {
    let maps = dir.join("maps");
    std::fs::create_dir_all(&maps).unwrap();
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    std::fs::copy(assets.join("default.mtl"), maps.join("default.mtl")).unwrap();
    for name in ["first.obj", "second.obj"] {
        std::fs::copy(assets.join("default.obj"), maps.join(name)).unwrap();
    }
}

/// Ctrl+O lists the map's folder; the keys choose the other map there and it
/// loads (as a dropped file does); the next run lists it first among the recent maps.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn ctrl_o_opens_a_map_chosen_by_the_keys_and_the_next_run_lists_it_first_among_the_recent() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("browse");
    two_maps_in(&dir);
    let (child, win) = launch_in(&x, &["maps/first.obj", "--exit-after", "60"], &dir);
    // The folder's rows: first.obj (chosen), second.obj; below the recent first.obj.
    x.xdotool(&["key", "ctrl+o"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["key", "Down"]);
    x.xdotool(&["key", "Return"]);
    wait_for_title(&x, &win, "second", 60);
    let log = finish(&x, child);
    assert!(log.contains("loaded second"), "{log}");
    let saved = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml")).unwrap();
    let listed = |name: &str| saved.find(&format!("{name}.obj\"")).unwrap_or(usize::MAX);
    assert!(listed("second") < listed("first"), "{saved}");
    // The next run, the built-in map: the recent second.obj, first.obj, then maps/ (chosen).
    let (child, win) = launch_in(&x, &["--exit-after", "60"], &dir);
    x.xdotool(&["key", "ctrl+o"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["key", "Up"]);
    x.xdotool(&["key", "Up"]);
    x.xdotool(&["key", "Return"]);
    wait_for_title(&x, &win, "second", 60);
    let log = finish(&x, child);
    assert!(log.contains("loaded second"), "{log}");
}

/// Ctrl+O opens the browser when a move is bound to O (`key_forward = "KeyO"`): Control
/// with O is the command, not the move.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn ctrl_o_opens_the_browser_when_o_is_bound_to_a_move() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("browse-o-bound");
    let config = dir.join("walkthrough-config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("settings.toml"),
        "[settings]\nkey_forward = \"KeyO\"\n",
    )
    .unwrap();
    two_maps_in(&dir);
    let (child, win) = launch_in(&x, &["maps/first.obj", "--exit-after", "60"], &dir);
    x.xdotool(&["key", "ctrl+o"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["key", "Down"]);
    x.xdotool(&["key", "Return"]);
    wait_for_title(&x, &win, "second", 60);
    let log = finish(&x, child);
    assert!(log.contains("loaded second"), "{log}");
}

/// A window size typed into the panel (99999) was saved, and every
/// later run opened 16384 pixels wide, the panel off the screen. A saved size larger than
/// the screen opens within it, and says so.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_saved_window_size_past_the_screen_opens_within_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("saved-too-big");
    let config = dir.join("walkthrough-config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("settings.toml"),
        "[settings]\nwindow_size = [16384, 720]\n",
    )
    .unwrap();
    let (child, win) = launch_in(&x, &["--exit-after", "30"], &dir);
    let (w, h) = window_size(&x, &win);
    let log = finish(&x, child);
    assert!(w <= 1280 && h == 720, "opened {w}x{h}\n{log}");
    assert!(
        log.contains(
            "the saved window size 16384x720 is larger than the screen: opened at 1264x720"
        ),
        "{log}"
    );
}

/// The window's top-left corner on the screen, from xdotool.
fn window_position(x: &Xvfb, win: &str) -> (i32, i32) {
    let out = x.xdotool(&["getwindowgeometry", win]);
    let at = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("Position: "))
        .and_then(|p| p.split_whitespace().next())
        .unwrap_or_else(|| panic!("no position in {out}"));
    let (px, py) = at.split_once(',').unwrap();
    (px.parse().unwrap(), py.parse().unwrap())
}

/// A window saved at 6000x4000 opened 1024x768 at y=40 on a 1024x768 screen, its
/// bottom off the screen. Under a window manager (a title bar), it opens wholly on it.
#[test]
#[ignore = "needs Xvfb, xdotool and openbox; .ci/run runs it"]
fn a_saved_6000x4000_window_opens_wholly_on_a_1024x768_screen() {
    let (x, _one) = Xvfb::start_on("1024x768");
    let _wm = WindowManager::start(&x);
    let dir = out_dir("saved-6000x4000");
    let config = dir.join("walkthrough-config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("settings.toml"),
        "[settings]\nwindow_size = [6000, 4000]\n",
    )
    .unwrap();
    let (child, win) = launch_in(&x, &["--exit-after", "30"], &dir);
    let (w, h) = window_size(&x, &win);
    let (left, top) = window_position(&x, &win);
    let log = finish(&x, child);
    assert!(
        left >= 0 && top > 0 && left + w as i32 <= 1024 && top + h as i32 <= 768,
        "opened {w}x{h} at {left},{top} on 1024x768\n{log}"
    );
    assert!(log.contains("opened at 1008x688"), "{log}");
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn msaa_softens_the_edges_the_frame_is_srgb_and_only_the_frustum_culls() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("msaa");
    let script = dir.join("still.txt");
    std::fs::write(&script, "wait 0.2\n").unwrap();
    let shot = |msaa: &str| {
        let shot = dir.join(format!("msaa-{msaa}.png"));
        // Occlusion culling asked for (a software renderer's default, not a GPU's), so
        // that the multisampled run must say why it culls by the frustum on any GL.
        let args = [
            "--msaa",
            msaa,
            "--culling",
            "occlusion",
            "--script",
            script.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
            "--exit-when-done",
        ];
        let err = wait_for_exit(spawn(&x, &args), "the window did not close");
        (shot, err)
    };
    let ((plain, log), (smooth, smooth_log)) = (shot("0"), shot("4"));
    assert!(log.contains("sRGB framebuffer"), "{log}");
    assert!(smooth_log.contains("4x MSAA"), "{smooth_log}");
    // `--msaa 8` (llvmpipe's most is 4) did not open the window.
    // It draws with the most samples under 8 there are, and says so.
    let (_, eight) = shot("8");
    assert!(eight.contains("x MSAA"), "{eight}");
    if !eight.contains("8x MSAA") {
        assert!(
            eight.contains("warning: no 8x multisampled framebuffer here; drawing with"),
            "{eight}"
        );
    }
    // Occlusion culling reads a single-sampled depth: with MSAA the frustum culls, and
    // says so.
    let frustum = "culling: frustum (occlusion culling reads a depth of one sample a pixel";
    assert!(smooth_log.contains(frustum), "{smooth_log}");
    assert!(!log.contains(frustum), "{log}");
    // The same picture, but the edges' pixels blend the two sides.
    let d = middle_difference(&plain, &smooth);
    assert!(
        d > 0.05 && d < 3.0,
        "MSAA changed the picture by {d:.3} on average"
    );
}

/// Walk with keys held together, the mouse moved while walking, a jump, Tab and a crouch,
/// recording (`--record`) and tracing; quit. Returns the recording and the trace.
/// Of the middle half of a screenshot, the share of neighbouring pixels (across) that
/// differ by more than 48 of 255 in some channel: sharp edges.
fn sharp_edges(p: &Path) -> f32 {
    let img = image::open(p).expect("a PNG").to_rgb8();
    let (w, h) = img.dimensions();
    let (mut sharp, mut n) = (0u32, 0u32);
    for y in h / 4..3 * h / 4 {
        for x in w / 4..3 * w / 4 {
            let (a, b) = (img.get_pixel(x, y), img.get_pixel(x + 1, y));
            sharp += u32::from((0..3).any(|c| a[c].abs_diff(b[c]) > 48));
            n += 1;
        }
    }
    sharp as f32 / n as f32
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn render_scale_half_draws_the_same_picture_softer_with_or_without_msaa() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("render-scale");
    let script = dir.join("still.txt");
    std::fs::write(&script, "wait 0.2\n").unwrap();
    let shot = |name: &str, extra: &[&str]| {
        let shot = dir.join(format!("{name}.png"));
        let mut args = vec![
            "--script",
            script.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
            "--exit-when-done",
        ];
        args.extend_from_slice(extra);
        let log = wait_for_exit(spawn(&x, &args), "the window did not close");
        assert!(!log.contains("GL error"), "{log}");
        shot
    };
    // A window of one sample a pixel is stretched into by a blit; a multisampled one
    // (a GPU's default) by drawing the resolved scene over it.
    for msaa in ["0", "4"] {
        let full = shot(&format!("full-{msaa}"), &["--msaa", msaa]);
        let half = shot(
            &format!("half-{msaa}"),
            &["--msaa", msaa, "--render-scale", "0.5"],
        );
        // The same picture (as bright: encoded once), drawn with a quarter of the pixels
        // and stretched: softer edges.
        let d = middle_difference(&full, &half);
        assert!(
            d > 0.05 && d < 4.0,
            "--msaa {msaa}: the half scale changed the picture by {d:.3}"
        );
        let (sharp_full, sharp_half) = (sharp_edges(&full), sharp_edges(&half));
        assert!(
            sharp_half < 0.8 * sharp_full,
            "--msaa {msaa}: edges as sharp at half scale: {sharp_half:.4} against {sharp_full:.4}"
        );
        eprintln!(
            "--msaa {msaa}: difference {d:.3}, sharp edges {sharp_full:.4} -> {sharp_half:.4}"
        );
    }
}

fn record_a_walk(x: &Xvfb, dir: &Path, fps: &str) -> (PathBuf, PathBuf) {
    let (rec, trace) = (
        dir.join(format!("walk-{fps}.txt")),
        dir.join(format!("walk-{fps}.csv")),
    );
    let (child, win) = launch(
        x,
        &[
            "--record",
            rec.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
            "--max-fps",
            fps,
            "--exit-after",
            "40",
        ],
    );
    x.xdotool(&["mousemove", "--window", &win, "400", "300", "click", "1"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["keydown", "w"]);
    for _ in 0..6 {
        x.xdotool(&["mousemove_relative", "--", "-23", "7"]);
        sleep(Duration::from_millis(70));
    }
    x.xdotool(&["keydown", "d"]);
    sleep(Duration::from_millis(400));
    x.xdotool(&["key", "space"]);
    sleep(Duration::from_millis(400));
    x.xdotool(&["keyup", "d"]);
    x.xdotool(&["key", "Tab"]);
    x.xdotool(&["keydown", "c"]);
    x.xdotool(&["mousemove_relative", "--", "31", "-5"]);
    sleep(Duration::from_millis(500));
    x.xdotool(&["keyup", "c"]);
    x.xdotool(&["keyup", "w"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["key", "Escape"]);
    sleep(Duration::from_millis(200));
    let log = finish(x, child);
    assert!(log.contains("recorded"), "{log}");
    (rec, trace)
}

/// `walkthrough sim --script rec` on the built-in map: its trace.
fn sim_trace(rec: &Path) -> String {
    sim_trace_on(None, rec)
}

/// `walkthrough sim [MAP] --script rec`: its trace.
fn sim_trace_on(map: Option<&Path>, rec: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .arg("sim")
        .args(map)
        .args(["--script", rec.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_recorded_walk_replays_in_sim_and_the_window_to_the_same_trace_at_any_frame_rate() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("record");
    for fps in ["40", "200"] {
        let (rec, trace) = record_a_walk(&x, &dir, fps);
        let text = std::fs::read_to_string(&rec).unwrap();
        for verb in [
            "start ",
            "keys forward+right ",
            "turn ",
            "look ",
            "jump",
            "response stop",
            "crouch on",
        ] {
            assert!(
                text.contains(verb),
                "no '{verb}' in the recording at {fps} fps:\n{text}"
            );
        }
        let window = std::fs::read_to_string(&trace).unwrap();
        assert!(window.lines().count() > 200, "{fps} fps: a short trace");
        assert_eq!(sim_trace(&rec), window, "{fps} fps: sim's replay differs");
        // And a second window plays it back to the same trace.
        let replay = dir.join(format!("replay-{fps}.csv"));
        let args = [
            "--script",
            rec.to_str().unwrap(),
            "--trace",
            replay.to_str().unwrap(),
            "--exit-when-done",
        ];
        wait_for_exit(spawn(&x, &args), "the replay did not end");
        assert_eq!(
            std::fs::read_to_string(&replay).unwrap(),
            window,
            "{fps} fps: the window's replay differs"
        );
    }
}

/// F5 pressed while riding the example scene's lift recorded a
/// script that `sim` replayed with the movers from their first keys, so the replay's lift
/// went up where the window's came down. F5 now starts the movers again as the replay
/// will: the replay's rows are the window's, row for row.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn f5_mid_ride_on_a_moving_scene_replays_as_the_window_walked() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("record-movers");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/moving-scene/scene.toml");
    let trace = dir.join("window.csv");
    // On the lift, which waits 2 s and then rises.
    let args = [
        scene.to_str().unwrap(),
        "--spawn",
        "-2.8,1.7,2.0",
        "--yaw",
        "90",
        "--trace",
        trace.to_str().unwrap(),
    ];
    let (child, _win) = launch_in(&x, &args, &dir);
    sleep(Duration::from_millis(3000));
    x.xdotool(&["key", "F5"]);
    sleep(Duration::from_millis(2500));
    x.xdotool(&["key", "F5"]);
    sleep(Duration::from_millis(300));
    let log = finish(&x, child);
    assert!(log.contains("moving parts start again"), "{log}");
    let rec = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "txt"))
        .unwrap_or_else(|| panic!("no recording saved\n{log}"));
    // Rows without their frame number and time: the replay's after its start row are a
    // run of the window's.
    let rows = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .map(|l| l.splitn(3, ',').nth(2).unwrap_or_default().to_string())
            .collect()
    };
    let window = rows(&std::fs::read_to_string(&trace).unwrap());
    let replay = rows(&sim_trace_on(Some(&scene), &rec));
    assert!(replay.len() > 200, "a short replay: {} rows", replay.len());
    let recorded = &replay[1..];
    assert!(
        window.windows(recorded.len()).any(|w| w == recorded),
        "the replay's rows are not the window's; replay starts {:?}",
        &recorded[..3]
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn p_pauses_a_playing_script_and_dot_speeds_it_up_with_the_same_trace() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("replay");
    let script = dir.join("walk.txt");
    std::fs::write(&script, "forward 2\nturn 30\nkeys forward+left 2\nwait 2\n").unwrap();
    let trace = dir.join("window.csv");
    let (child, _win) = launch(
        &x,
        &[
            "--script",
            script.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
            "--exit-when-done",
        ],
    );
    let partial = dir.join("window.csv.partial");
    let rows = || {
        std::fs::read_to_string(&partial)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    x.xdotool(&["key", "p"]);
    sleep(Duration::from_millis(300));
    let paused = rows();
    sleep(Duration::from_millis(700));
    assert_eq!(rows(), paused, "the script went on while paused");
    assert!(
        paused > 1 && paused < 600,
        "{paused} rows: the script had not started, or ended before the pause"
    );
    x.xdotool(&["key", "p"]);
    x.xdotool(&["key", "period"]);
    x.xdotool(&["key", "period"]);
    let err = wait_for_exit(child, "the script did not end");
    assert!(err.contains("script finished at step"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&trace).unwrap(),
        sim_trace(&script),
        "pausing and 4x changed the trace"
    );
}

/// The z of every row of a trace.
fn trace_z(p: &Path) -> Vec<f32> {
    read_trace(p).iter().map(|r| r.z).collect()
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn ctrl_2_keeps_a_view_2_goes_back_to_it_and_after_a_restart_too() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("views");
    let first = dir.join("first.csv");
    let (child, _win) = launch_in(
        &x,
        &["--trace", first.to_str().unwrap(), "--exit-after", "30"],
        &dir,
    );
    hold(&x, &["w"], 0.8);
    x.xdotool(&["key", "ctrl+2"]);
    sleep(Duration::from_millis(200));
    hold(&x, &["w"], 0.8);
    x.xdotool(&["key", "2"]);
    sleep(Duration::from_millis(300));
    finish(&x, child);
    let z = trace_z(&first);
    let (start, last) = (z[0], *z.last().unwrap());
    let furthest = z.iter().copied().fold(f32::INFINITY, f32::min);
    // Walked toward -z twice; back at the end of the first walk.
    assert!(start - last > 1.0, "did not walk: z {start} -> {last}");
    assert!(
        last - furthest > 1.0,
        "2 did not go back: z {last}, furthest {furthest}"
    );
    assert!(
        z.iter().filter(|v| (*v - last).abs() < 1e-4).count() > 5,
        "the view's z {last} is not where the first walk stood"
    );
    // A new run in the same settings folder: 2 goes there at once.
    let second = dir.join("second.csv");
    let (child, _win) = launch_in(
        &x,
        &["--trace", second.to_str().unwrap(), "--exit-after", "30"],
        &dir,
    );
    x.xdotool(&["key", "2"]);
    sleep(Duration::from_millis(300));
    finish(&x, child);
    let again = *trace_z(&second).last().unwrap();
    assert!(
        (again - last).abs() < 1e-4,
        "after a restart 2 went to z {again}, not {last}"
    );
}

/// F12 with the settings panel open saved nothing and said
/// nothing (the panel had the keyboard); the picture has the panel in it.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn f12_saves_a_screenshot_while_the_settings_panel_shows() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("f12-panel");
    let (child, _win) = launch_in(&x, &["--exit-after", "60"], &dir);
    let before = f12(&x, &dir, 1);
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(600));
    let with_panel = f12(&x, &dir, 2);
    x.xdotool(&["key", "F2"]);
    let log = finish(&x, child);
    assert_eq!(log.matches("screenshot saved to").count(), 2, "{log}");
    // The panel covers the middle of the window: the two pictures differ there.
    let [a, b] = [&before, &with_panel].map(|p| region_colour(p, 0, 200, 120));
    let apart: f32 = a.iter().zip(&b).map(|(p, q)| (p - q).abs()).sum();
    assert!(
        apart > 10.0,
        "the panel is not in the picture: {a:?} vs {b:?}"
    );
}

/// An Esc still held down as the window opened (a stuck key) quit
/// it at once: winit tells a key held as the window gains focus as a press. That press
/// is none; the window stays until it is told to go.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn an_esc_held_as_the_window_opens_does_not_quit_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("esc-held");
    x.xdotool(&["keydown", "Escape"]);
    let (mut child, _win) = launch_in(&x, &["--exit-after", "30"], &dir);
    sleep(Duration::from_millis(1500));
    let running = child.try_wait().unwrap().is_none();
    x.xdotool(&["keyup", "Escape"]);
    sleep(Duration::from_millis(200));
    let log = finish(&x, child);
    assert!(running, "quit with the Esc held as it opened: {log}");
}

/// A script ending crouched (`crouch on`, `wait`) was pictured by
/// `--screenshot` standing: the keys' first step after it let go of the crouch before the
/// picture (the HUD read "on ground", 1.60 m). The picture is the walk as the script left
/// it: crouched, its HUD differs from the same script's stood up at its end.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_script_s_screenshot_shows_the_walk_as_the_script_left_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("script-end-shot");
    let shot_of = |name: &str, script: &str| {
        let path = dir.join(format!("{name}.txt"));
        std::fs::write(&path, script).unwrap();
        let shot = dir.join(format!("{name}.png"));
        let child = spawn_in(
            &x,
            &[
                "--script",
                path.to_str().unwrap(),
                "--screenshot",
                shot.to_str().unwrap(),
                "--exit-when-done",
                // Twelve steps a frame: the script ends with steps of its frame left.
                "--max-fps",
                "10",
            ],
            &dir,
        );
        wait_for_exit(child, "the window did not close when the script was done");
        shot
    };
    let crouched = shot_of("crouched", "crouch on\nwait 0.5\n");
    let again = shot_of("crouched-again", "crouch on\nwait 0.5\n");
    let stood = shot_of("stood", "crouch on\nwait 0.5\ncrouch off\nwait 0.5\n");
    // The HUD's position and stance lines (the view eases a stand-up: the scene alone
    // hardly shows it), below its first line, above its speed and frame rate.
    let lines = |a: &Path, b: &Path| box_difference(a, b, (10, 30), (300, 62));
    let (same, apart) = (lines(&crouched, &again), lines(&crouched, &stood));
    assert!(same < 0.5, "one script, two pictures: {same}");
    assert!(
        apart > 2.0,
        "the crouched end pictured standing: {apart} (same {same})"
    );
}

/// The mean difference of two screenshots' channels over the box from `(x0, y0)` up to
/// `(x1, y1)`.
fn box_difference(a: &Path, b: &Path, (x0, y0): (u32, u32), (x1, y1): (u32, u32)) -> f32 {
    let (a, b) = (
        image::open(a).expect("a PNG").to_rgb8(),
        image::open(b).expect("a PNG").to_rgb8(),
    );
    let (mut sum, mut n) = (0u64, 0u64);
    for y in y0..y1 {
        for x in x0..x1 {
            let (p, q) = (a.get_pixel(x, y), b.get_pixel(x, y));
            sum += (0..3).map(|c| u64::from(p[c].abs_diff(q[c]))).sum::<u64>();
            n += 3;
        }
    }
    sum as f32 / n as f32
}

/// F2, then `presses` of the Left arrow on the panel's first control (the field of view,
/// a degree a press; it has the keyboard focus as the panel opens), then F2 again to
/// close it.
fn narrow_the_fov_in_the_panel(x: &Xvfb, presses: usize) {
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(500));
    for _ in 0..presses {
        x.xdotool(&["key", "Left"]);
    }
    sleep(Duration::from_millis(200));
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(400));
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn fov_60_and_100_differ_and_f2_changes_it_live_to_the_same_picture_and_saves_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("fov");
    let script = dir.join("still.txt");
    std::fs::write(&script, "wait 0.3\n").unwrap();
    let shot_at = |fov: &str| {
        let shot = dir.join(format!("fov-{fov}.png"));
        let child = spawn_in(
            &x,
            &[
                "--fov",
                fov,
                "--script",
                script.to_str().unwrap(),
                "--screenshot",
                shot.to_str().unwrap(),
                "--exit-when-done",
            ],
            &dir,
        );
        wait_for_exit(child, "the window did not close when the script was done");
        shot
    };
    let (sixty, hundred) = (shot_at("60"), shot_at("100"));
    let apart = middle_difference(&sixty, &hundred);
    assert!(apart > 8.0, "60 and 100 degrees look alike: {apart}");
    // Live: the default (100 degrees), then 40 presses narrow it to 60 in the panel.
    let live = dir.join("live");
    std::fs::create_dir_all(&live).unwrap();
    let (child, _win) = launch_in(&x, &["--exit-after", "30"], &live);
    let before = f12(&x, &live, 1);
    narrow_the_fov_in_the_panel(&x, 45);
    let after = f12(&x, &live, 2);
    finish(&x, child);
    let (was, now) = (
        middle_difference(&before, &hundred),
        middle_difference(&after, &sixty),
    );
    assert!(was < 2.0, "the default is not 100 degrees: {was}");
    assert!(
        now < 2.0,
        "the panel's 60 degrees is not --fov 60's picture: {now}"
    );
    let saved = std::fs::read_to_string(live.join("walkthrough-config/settings.toml")).unwrap();
    assert!(saved.contains("fov = 60.0"), "{saved}");
}

/// X11 cannot lock the cursor, only confine it, and a confined pointer's raw motion
/// reached the app twice (winit #2846, #3773): 100 pixels turned 24 degrees at the
/// default 0.12 a pixel. 100 pixels right and 40 up turn the view
/// 12 degrees right and 4.8 up; 600 more to the right (the cursor is put back in the
/// window's middle on the way) another 72.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn mouse_look_turns_the_set_degrees_a_pixel_on_x11() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("degrees-a-pixel");
    let trace = dir.join("trace.csv");
    let (child, win) = launch_in(
        &x,
        &["--trace", trace.to_str().unwrap(), "--exit-after", "30"],
        &dir,
    );
    x.xdotool(&["mousemove", "--window", &win, "400", "300", "click", "1"]);
    sleep(Duration::from_millis(300));
    for _ in 0..25 {
        x.xdotool(&["mousemove_relative", "--", "4", "0"]);
        sleep(Duration::from_millis(20));
    }
    for _ in 0..10 {
        x.xdotool(&["mousemove_relative", "--", "0", "-4"]);
        sleep(Duration::from_millis(20));
    }
    for _ in 0..30 {
        x.xdotool(&["mousemove_relative", "--", "20", "0"]);
        sleep(Duration::from_millis(20));
    }
    sleep(Duration::from_millis(300));
    x.xdotool(&["key", "Escape"]);
    sleep(Duration::from_millis(200));
    finish(&x, child);
    let text = std::fs::read_to_string(&trace).unwrap();
    let view = |line: &str| -> (f32, f32) {
        let f: Vec<&str> = line.split(',').collect();
        (f[5].parse().unwrap(), f[6].parse().unwrap())
    };
    let (yaw0, pitch0) = view(text.lines().nth(1).unwrap());
    let (yaw1, pitch1) = view(text.lines().last().unwrap());
    let turned = (yaw1 - yaw0 + 540.0).rem_euclid(360.0) - 180.0;
    assert!(
        (turned + 84.0).abs() < 0.01 && (pitch1 - pitch0 - 4.8).abs() < 0.01,
        "700 px right, 40 up at 0.12 a pixel: yaw {turned}, pitch {}",
        pitch1 - pitch0
    );
}

/// The settings panel (F2) freed the mouse, and closing it left
/// the mouse free, so the view no longer turned until another click. Closing it gives the
/// mouse back to the view when it looked around before; opened without, it stays free.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn closing_the_settings_panel_gives_the_mouse_back_to_the_view() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("f2-recapture");
    let turned_after_f2 = |name: &str, click: bool| -> f32 {
        let run = dir.join(name);
        std::fs::create_dir_all(&run).unwrap();
        let trace = run.join("trace.csv");
        let (child, win) = launch_in(
            &x,
            &["--trace", trace.to_str().unwrap(), "--exit-after", "30"],
            &run,
        );
        x.xdotool(&["mousemove", "--window", &win, "400", "300"]);
        if click {
            x.xdotool(&["click", "1"]);
        }
        sleep(Duration::from_millis(300));
        x.xdotool(&["key", "F2"]);
        sleep(Duration::from_millis(400));
        x.xdotool(&["key", "F2"]);
        sleep(Duration::from_millis(400));
        for _ in 0..10 {
            x.xdotool(&["mousemove_relative", "--", "10", "0"]);
            sleep(Duration::from_millis(30));
        }
        sleep(Duration::from_millis(300));
        finish(&x, child);
        let text = std::fs::read_to_string(&trace).unwrap();
        let yaw = |line: &str| -> f32 { line.split(',').nth(5).unwrap().parse().unwrap() };
        let (first, last) = (text.lines().nth(1).unwrap(), text.lines().last().unwrap());
        (yaw(last) - yaw(first) + 540.0).rem_euclid(360.0) - 180.0
    };
    let captured = turned_after_f2("captured", true);
    assert!(
        (captured + 12.0).abs() < 0.01,
        "100 px right after the panel closed at 0.12 a pixel: {captured}"
    );
    let free = turned_after_f2("free", false);
    assert_eq!(
        free, 0.0,
        "the panel captured a mouse that was free before it"
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn invert_y_inverts_the_pitch_in_the_trace_from_the_flag_or_the_settings_file() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("invert-y");
    // The mouse moved up: the pitch at the end of the trace.
    let pitch_after_mouse_up = |name: &str, args: &[&str], settings: Option<&str>| {
        let run = dir.join(name);
        std::fs::create_dir_all(run.join("walkthrough-config")).unwrap();
        if let Some(s) = settings {
            std::fs::write(run.join("walkthrough-config/settings.toml"), s).unwrap();
        }
        let trace = run.join("trace.csv");
        let mut all = vec!["--trace", trace.to_str().unwrap(), "--exit-after", "30"];
        all.extend_from_slice(args);
        let (child, win) = launch_in(&x, &all, &run);
        x.xdotool(&["mousemove", "--window", &win, "400", "300", "click", "1"]);
        sleep(Duration::from_millis(300));
        for _ in 0..4 {
            x.xdotool(&["mousemove_relative", "--", "0", "-10"]);
            sleep(Duration::from_millis(60));
        }
        sleep(Duration::from_millis(300));
        x.xdotool(&["key", "Escape"]);
        sleep(Duration::from_millis(200));
        finish(&x, child);
        let text = std::fs::read_to_string(&trace).unwrap();
        let last = text.lines().last().unwrap().split(',').nth(6).unwrap();
        last.parse::<f32>().unwrap()
    };
    let plain = pitch_after_mouse_up("plain", &[], None);
    let flag = pitch_after_mouse_up("flag", &["--invert-y"], None);
    let file = pitch_after_mouse_up(
        "file",
        &[],
        Some("[settings]\ninvert_y = true\nmouse_sensitivity = 0.24\n"),
    );
    assert!(
        plain > 1.0,
        "the mouse moved up, the view did not look up: {plain}"
    );
    assert!(
        (flag + plain).abs() < 1e-3,
        "--invert-y: {flag} is not -{plain}"
    );
    assert!(
        (file + 2.0 * plain).abs() < 1e-3,
        "invert_y and twice the sensitivity in the file: {file} is not -2 x {plain}"
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_config_folder_that_cannot_be_written_is_a_warning_and_the_change_still_applies() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("unwritable-config");
    // The config folder's path is a file: nothing can be read from it or saved in it.
    std::fs::write(dir.join("walkthrough-config"), "not a folder").unwrap();
    let (child, _win) = launch_in(&x, &["--exit-after", "30"], &dir);
    let before = f12(&x, &dir, 1);
    narrow_the_fov_in_the_panel(&x, 20);
    let after = f12(&x, &dir, 2);
    let err = finish(&x, child);
    assert!(err.contains("not saved"), "{err}");
    let apart = middle_difference(&before, &after);
    assert!(apart > 4.0, "the panel's change did not apply: {apart}");
}

/// A generated map looked at standing still: opened Y up in metres with the eye at
/// `spawn` facing -Z, held for `script`'s wait, a screenshot saved and the window closed.
struct Still {
    map: PathBuf,
    spawn: &'static str,
    script: PathBuf,
}

impl Still {
    /// `map` seen from `spawn` for `secs` (the script is written into `dir`).
    fn new(dir: &Path, map: PathBuf, spawn: &'static str, secs: f32) -> Still {
        let script = dir.join(format!("still-{secs}.txt"));
        std::fs::write(&script, format!("wait {secs}\n")).unwrap();
        Still { map, spawn, script }
    }

    /// Its screenshot as `shot`, with `extra` arguments, run in folder `cwd` (whose
    /// settings and cache folders it uses); returns what the app wrote to stderr.
    fn shot(&self, x: &Xvfb, shot: &Path, extra: &[&str], cwd: &Path) -> String {
        let mut args = vec![
            self.map.to_str().unwrap(),
            "--up",
            "y",
            "--scale",
            "1",
            "--spawn",
            self.spawn,
            "--yaw",
            "0",
            "--script",
            self.script.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
            "--exit-when-done",
        ];
        args.extend_from_slice(extra);
        wait_for_exit(spawn_in(x, &args, cwd), "the window did not close")
    }
}

/// A grey room 8 m wide, 4 m high, reaching z = -4 to 4, with each face's normal written
/// in the file or none: written into `dir`.
fn grey_room(dir: &Path, normals: bool) -> PathBuf {
    let mut obj = Obj {
        face_normals: normals,
        ..Obj::default()
    };
    obj.boxed([-4.0, 0.0, -4.0], [4.0, 4.0, 4.0]);
    obj.write(dir, if normals { "normals" } else { "plain" }, "")
}

/// A map without normals shares each corner between its faces and leaves each face's
/// normal to the shader (a zero normal): it must be lit as the same map with each face's
/// normal written in the file, floor, far wall and side wall each in its own shade.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn faces_without_normals_are_lit_as_with_their_own_normals() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("flat-normals");
    let shots = [false, true].map(|normals| {
        let still = Still::new(&dir, grey_room(&dir, normals), "0,1.6,2", 0.3);
        let shot = dir.join(format!("room-{normals}.png"));
        let log = still.shot(&x, &shot, &[], &dir);
        assert!(shot.exists(), "{log}");
        let img = image::open(&shot).expect("a PNG").to_rgb8();
        let (w, h) = img.dimensions();
        // The far wall ahead (above the crosshair), the floor below it, the right-hand
        // wall at the edge.
        [
            box_colour(&img, (w / 2 - 20, h / 2 - 120), (w / 2 + 20, h / 2 - 80)),
            box_colour(&img, (w / 2 - 20, h - 60), (w / 2 + 20, h - 20)),
            box_colour(&img, (w - 60, h / 2 - 20), (w - 20, h / 2 + 20)),
        ]
    });
    let [plain, given] = shots;
    for (a, b) in plain.iter().zip(&given) {
        let apart = (0..3).map(|c| (a[c] - b[c]).abs()).fold(0.0, f32::max);
        assert!(
            apart < 3.0,
            "lit otherwise without normals: {plain:?} vs {given:?}"
        );
    }
    let bright = |c: &[f32; 3]| c.iter().sum::<f32>() / 3.0;
    let [wall, floor, side] = plain.map(|c| bright(&c));
    for (p, q) in [(wall, floor), (wall, side), (floor, side)] {
        assert!((p - q).abs() > 6.0, "faces lit alike: {plain:?}");
    }
}

/// A room of four metres whose walls each show a 2 x 2 checker texture (each texel two
/// metres wide), for texture filtering: written into `dir`.
fn checker_room(dir: &Path) -> PathBuf {
    let mut img = image::RgbImage::new(2, 2);
    for (x, y, px) in img.enumerate_pixels_mut() {
        *px = if (x + y) % 2 == 0 {
            image::Rgb([40, 40, 40])
        } else {
            image::Rgb([220, 220, 220])
        };
    }
    img.save(dir.join("checker.png")).unwrap();
    std::fs::write(
        dir.join("room.mtl"),
        "newmtl checker\nKd 1 1 1\nmap_Kd checker.png\n",
    )
    .unwrap();
    // Corners of the box x, z in [-2, 2], y in [0, 3]; each face its own corners with
    // texture coordinates 0 to 1 across it.
    let mut obj = String::from("mtllib room.mtl\nusemtl checker\n");
    let faces: [[[f32; 3]; 4]; 6] = [
        [[-2., 0., -2.], [2., 0., -2.], [2., 3., -2.], [-2., 3., -2.]],
        [[2., 0., 2.], [-2., 0., 2.], [-2., 3., 2.], [2., 3., 2.]],
        [[-2., 0., 2.], [-2., 0., -2.], [-2., 3., -2.], [-2., 3., 2.]],
        [[2., 0., -2.], [2., 0., 2.], [2., 3., 2.], [2., 3., -2.]],
        [[-2., 0., 2.], [2., 0., 2.], [2., 0., -2.], [-2., 0., -2.]],
        [[-2., 3., -2.], [2., 3., -2.], [2., 3., 2.], [-2., 3., 2.]],
    ];
    obj.push_str("vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n");
    for (f, corners) in faces.iter().enumerate() {
        for [x, y, z] in corners {
            obj.push_str(&format!("v {x} {y} {z}\n"));
        }
        let v = 4 * f + 1;
        obj.push_str(&format!("f {}/1 {}/2 {}/3 {}/4\n", v, v + 1, v + 2, v + 3));
    }
    let path = dir.join("room.obj");
    std::fs::write(&path, obj).unwrap();
    path
}

/// The largest brightness step between neighbouring pixels along a row below the centre
/// (clear of the crosshair and the HUD), across the middle half of the picture: 0 to 255.
fn largest_step(p: &Path) -> u32 {
    let img = image::open(p).expect("a PNG").to_luma8();
    let (w, h) = img.dimensions();
    let y = h / 2 + h / 8;
    (w / 4..3 * w / 4)
        .map(|x| u32::from(img.get_pixel(x, y)[0].abs_diff(img.get_pixel(x + 1, y)[0])))
        .max()
        .unwrap()
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn nearest_texture_filtering_draws_texels_sharp_from_the_flag_or_the_settings() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("texture-filter");
    // Facing the wall at z = -2 from the room's middle: its two texels meet at the
    // picture's middle column.
    let still = Still::new(&dir, checker_room(&dir), "0,1.6,0", 0.2);
    let shot = |name: &str, extra: &[&str], cwd: &Path| {
        let shot = dir.join(format!("{name}.png"));
        let err = still.shot(&x, &shot, extra, cwd);
        assert!(!err.contains("texture could not"), "{err}");
        shot
    };
    let smooth = largest_step(&shot("default", &[], &dir));
    let sharp = largest_step(&shot("nearest", &["--texture-filter", "nearest"], &dir));
    // A two-texel texture magnified over a wall: blended, it is a gradient of a few
    // levels a pixel at most; nearest, one step from dark to light.
    assert!(smooth < 12, "trilinear's largest step {smooth}");
    assert!(sharp > 60, "nearest's largest step {sharp}");
    // The same from the settings file.
    let saved = dir.join("saved");
    std::fs::create_dir_all(saved.join("walkthrough-config")).unwrap();
    std::fs::write(
        saved.join("walkthrough-config/settings.toml"),
        "[settings]\ntexture_filter = \"nearest\"\n",
    )
    .unwrap();
    let from_settings = largest_step(&shot("saved", &[], &saved));
    assert!(
        from_settings > 60,
        "the saved filter's largest step {from_settings}"
    );
}

/// A room of 8 x 8 m whose floor is cut into 60 x 60 squares (7,200 triangles, which
/// simplify to a few): written into `dir`.
fn fine_floor_room(dir: &Path) -> PathBuf {
    let mut obj = String::new();
    let n = 60;
    let at = |k: usize| -4.0 + 8.0 * k as f32 / n as f32;
    for i in 0..=n {
        for k in 0..=n {
            obj.push_str(&format!("v {} 0 {}\n", at(i), at(k)));
        }
    }
    let v = |i: usize, k: usize| i * (n + 1) + k + 1;
    for i in 0..n {
        for k in 0..n {
            obj.push_str(&format!(
                "f {} {} {} {}\n",
                v(i, k),
                v(i, k + 1),
                v(i + 1, k + 1),
                v(i + 1, k)
            ));
        }
    }
    // Four walls and a ceiling, 3 m high.
    let base = (n + 1) * (n + 1);
    for [x, y, z] in [
        [-4., 0., -4.],
        [4., 0., -4.],
        [4., 0., 4.],
        [-4., 0., 4.],
        [-4., 3., -4.],
        [4., 3., -4.],
        [4., 3., 4.],
        [-4., 3., 4.],
    ] {
        obj.push_str(&format!("v {x} {y} {z}\n"));
    }
    for f in [
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 4, 8, 7],
        [4, 1, 5, 8],
        [5, 6, 7, 8],
    ] {
        let f = f.map(|k| (base + k).to_string());
        obj.push_str(&format!("f {}\n", f.join(" ")));
    }
    let path = dir.join("fine.obj");
    std::fs::write(&path, obj).unwrap();
    path
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn levels_of_detail_are_kept_and_read_back_on_the_next_open_with_the_same_picture() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("levels-cache");
    // Long enough for the first open's levels to be made and kept.
    let still = Still::new(&dir, fine_floor_room(&dir), "0,1.6,3", 1.5);
    let open = |name: &str| {
        let shot = dir.join(format!("{name}.png"));
        let err = still.shot(&x, &shot, &[], &dir);
        (shot, err)
    };
    let (first, made) = open("first");
    assert!(
        made.contains("levels of detail: ") && made.contains(" made in "),
        "{made}"
    );
    let kept: Vec<_> = std::fs::read_dir(dir.join("walkthrough-cache"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        kept.len() == 1 && kept[0].starts_with("levels-"),
        "{kept:?}"
    );
    let (again, read) = open("again");
    assert!(read.contains(" read from the cache in "), "{read}");
    let d = middle_difference(&first, &again);
    assert!(d < 1.0, "the two opens' pictures differ by {d:.3}");
}

/// A `--record` or `--screenshot` that could not be written when
/// the window closed (its folder gone here; a full disk alike) lost the walk and ended
/// with exit 0, the screenshot's failure said on screen only. The screenshot's failure
/// ends the run with an error naming the file; the walk is saved as a new file instead
/// of `--record`'s, and that is said; no `.partial` file is left.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_screenshot_that_cannot_be_written_fails_the_run_and_the_recording_is_saved_elsewhere() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("lost-outputs");
    let gone = dir.join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    let (rec, shot) = (gone.join("walk.txt"), gone.join("shot.png"));
    let (child, _win) = launch_in(
        &x,
        &[
            "--record",
            rec.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
            "--exit-after",
            "2",
        ],
        &dir,
    );
    // The outputs were checked when the window opened; then their folder went.
    std::fs::remove_dir_all(&gone).unwrap();
    let mut child = child;
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the app did not exit after 2 s");
        sleep(Duration::from_millis(100));
    };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "the screenshot was not saved: {}: cannot write",
            shot.display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            " instead (--record's file: {}: cannot write",
            rec.display()
        )),
        "{err}"
    );
    let saved: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let walk = std::fs::read_to_string(&saved[0]).unwrap();
    assert!(walk.starts_with("# walkthrough recording"), "{walk}");
    assert!(!gone.exists());
}

/// The share of near-white pixels (text) in the band from `from` to `to` pixels above the
/// bottom of the image, across its middle half.
fn text_share_above_bottom(p: &Path, from: u32, to: u32) -> f32 {
    let img = image::open(p).expect("screenshot is a PNG").to_rgb8();
    let (w, h) = img.dimensions();
    let (mut white, mut all) = (0, 0);
    for y in h - to..h - from {
        for x in w / 4..3 * w / 4 {
            all += 1;
            white += usize::from(img.get_pixel(x, y).0.iter().all(|&c| c > 200));
        }
    }
    white as f32 / all as f32
}

/// A closed hall 30 x 9.84 x 24 units and nothing else: 9.84 m reads as a hall in
/// metres, or a room of 3 m in feet, and nothing in it tells which.
fn ambiguous_hall(dir: &Path) -> PathBuf {
    let (w, h, d) = (30.0, 9.84, 24.0);
    let v = [
        (0.0, 0.0, 0.0),
        (w, 0.0, 0.0),
        (w, 0.0, d),
        (0.0, 0.0, d),
        (0.0, h, 0.0),
        (w, h, 0.0),
        (w, h, d),
        (0.0, h, d),
    ];
    let mut s: String = v
        .iter()
        .map(|(x, y, z)| format!("v {x} {y} {z}\n"))
        .collect();
    s += "f 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\nf 2 6 7 3\nf 3 7 8 4\nf 4 8 5 1\n";
    let p = dir.join("hall.obj");
    std::fs::write(&p, s).unwrap();
    p
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn an_unsure_survey_asks_in_the_view_its_key_switches_and_enter_keeps() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("offer");
    let _ = std::fs::remove_dir_all(dir.join("walkthrough-config"));
    let hall = ambiguous_hall(&dir);
    let h = hall.to_str().unwrap();
    let (child, _win) = launch_in(&x, &[h, "--exit-after", "60"], &dir);
    let asking = f12(&x, &dir, 1);
    // The key the notice names takes the unit it offers.
    x.xdotool(&["key", "shift+bracketleft"]);
    sleep(Duration::from_millis(1000));
    let answered = f12(&x, &dir, 2);
    let log = finish(&x, child);
    assert!(
        log.contains("Read as metres (low confidence); maybe feet - Shift+[ switches"),
        "{log}"
    );
    assert!(log.contains("Enter keeps this"), "{log}");
    assert!(
        log.contains("scale 0.3048 (feet): --up y --scale 0.3048"),
        "{log}"
    );
    let stored = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml"))
        .expect("the correction is saved");
    assert!(stored.contains("scale = 0.3048"), "{stored}");
    // The question stood in the view (white text above the notices at the bottom) and
    // went once answered.
    let (before, after) = (
        text_share_above_bottom(&asking, 80, 140),
        text_share_above_bottom(&answered, 80, 140),
    );
    assert!(before > 0.02 && after < 0.005, "{before} vs {after}");

    // Asked again on a fresh folder, Enter keeps the reading, and the next open uses it
    // without asking.
    let _ = std::fs::remove_dir_all(dir.join("walkthrough-config"));
    let (child, _win) = launch_in(&x, &[h, "--exit-after", "60"], &dir);
    x.xdotool(&["key", "Return"]);
    sleep(Duration::from_millis(800));
    let log = finish(&x, child);
    assert!(log.contains("kept as read: --up y --scale 1"), "{log}");
    assert!(log.contains("remembered for this file"), "{log}");
    let (child, _win) = launch_in(&x, &[h, "--exit-after", "30"], &dir);
    let log = finish(&x, child);
    assert!(log.contains("as you set it for this file"), "{log}");
    assert!(!log.contains("Read as"), "{log}");
}

/// At 1280x720 the settings panel is cut off above its last rows (Defaults, Close) and
/// nothing showed that it scrolls: egui's floating scroll bar hides until hovered. The
/// bar shows: a column of the handle's grey, 300 pixels and more
/// tall, beside the panel's dark ground.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_settings_panel_cut_off_by_a_low_window_shows_its_scroll_bar() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("panel_scroll");
    let _ = std::fs::remove_dir_all(dir.join("walkthrough-config"));
    let (child, win) = launch_in(&x, &["--size", "1280x720", "--exit-after", "30"], &dir);
    x.xdotool(&["key", "F2"]);
    x.xdotool(&["mousemove", "--window", &win, "20", "700"]);
    sleep(Duration::from_millis(800));
    let shot = f12(&x, &dir, 1);
    x.xdotool(&["key", "F2"]);
    finish(&x, child);
    // egui's dark theme: the handle's grey (60) and the panel's ground (27), each give
    // or take a little; a solid bar is about 7 pixels wide, its floating one 2.
    const HANDLE: std::ops::RangeInclusive<u8> = 45..=80;
    const GROUND: std::ops::RangeInclusive<u8> = 15..=40;
    const HANDLE_WIDTH: u32 = 5;
    const GROUND_OFFSET: u32 = 4;
    let img = image::open(&shot).expect("a PNG").to_rgb8();
    let (w, h) = img.dimensions();
    let grey = |x: u32, y: u32, shades: &std::ops::RangeInclusive<u8>| {
        let p = img.get_pixel(x, y).0;
        p.iter().all(|c| shades.contains(c)) && p[0].abs_diff(p[1]) < 4
    };
    // The longest run, down one column of the panel's right half (the panel is centred),
    // of handle grey with the panel's ground to its left.
    let longest = (w / 2..w * 3 / 4)
        .map(|x| {
            let (mut run, mut best) = (0, 0);
            for y in 0..h {
                let handle = (x..x + HANDLE_WIDTH).all(|x| grey(x, y, &HANDLE));
                run = if handle && grey(x - GROUND_OFFSET, y, &GROUND) {
                    run + 1
                } else {
                    0
                };
                best = best.max(run);
            }
            best
        })
        .max()
        .unwrap_or(0);
    assert!(longest >= 300, "no scroll bar: longest run {longest} px");
}

/// The `--speed` warning was said only for a map opened before the
/// window, not for one of 32 MiB or more that loads with the window open.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_speed_past_the_settings_is_warned_of_for_a_map_loaded_in_the_window_too() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("speed_big");
    let map = dir.join("padded.obj");
    // A floor, then comment lines to 33 MiB: past the size that loads in the window.
    let mut obj = String::from("v -5 0 -5\nv 5 0 -5\nv 5 0 5\nv -5 0 5\nf 1 4 3 2\n");
    let line = format!("# {}\n", "x".repeat(1021));
    obj.push_str(&line.repeat(33 * 1024));
    std::fs::write(&map, obj).unwrap();
    let args = [
        map.to_str().unwrap(),
        "--speed",
        "1e9",
        "--exit-after",
        "30",
    ];
    let (child, win) = launch_in(&x, &args, &dir);
    wait_for_title(&x, &win, "padded.obj", 60);
    let log = finish(&x, child);
    assert!(log.contains("loaded with the window open"), "{log}");
    assert!(
        log.contains("warning: --speed 1000000000 is outside 0.1 to 100 m/s"),
        "{log}"
    );
}

/// A right click before the mouse was captured did nothing, no decal and no word: the
/// crosshair is the view's middle either way, and the decal sticks.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_right_click_sticks_a_decal_before_the_mouse_is_captured() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("right_click");
    let _ = std::fs::remove_dir_all(dir.join("walkthrough-config"));
    let (child, win) = launch_in(&x, &["--exit-after", "30"], &dir);
    sleep(Duration::from_millis(500));
    x.xdotool(&["mousemove", "--window", &win, "400", "300", "click", "3"]);
    sleep(Duration::from_millis(800));
    let log = finish(&x, child);
    assert!(log.contains("decal 1 stuck"), "{log}");
    assert!(!log.contains("mouse captured"), "{log}");
}

/// A right click just after a mouse move stuck the decal where the
/// view had been before the move (2 of 7 quick clicks at 30 frames a second), at the
/// very place of the decal before. The move and the click go in one xdotool command:
/// whether or not a frame is drawn between them, the decal is where the view now aims.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_right_click_just_after_a_mouse_move_sticks_the_decal_where_the_view_now_aims() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("quick_click");
    let config = dir.join("walkthrough-config");
    let _ = std::fs::remove_dir_all(&config);
    let (child, win) = launch_in(&x, &["--exit-after", "30"], &dir);
    sleep(Duration::from_millis(500));
    x.xdotool(&["mousemove", "--window", &win, "400", "300", "click", "1"]);
    sleep(Duration::from_millis(500));
    x.xdotool(&["click", "3"]);
    sleep(Duration::from_millis(500));
    for _ in 0..3 {
        x.xdotool(&["mousemove_relative", "--", "60", "0", "click", "3"]);
        sleep(Duration::from_millis(500));
    }
    let log = finish(&x, child);
    assert!(log.contains("decal 4 stuck"), "{log}");
    let store = walkthrough_core::store::Store::load(Some(&config)).store;
    let decals = store.decals(&walkthrough_core::store::ContentKey::built_in());
    assert_eq!(decals.len(), 4, "{decals:?}");
    for pair in decals.windows(2) {
        let moved = pair[0].point.distance(pair[1].point);
        assert!(
            moved > 0.05,
            "stuck {moved} m from the one before: {decals:?}"
        );
    }
}

/// The survey's question sat over the foot of the 1.8 m frame it asks the user to judge
/// the scale by, in a short window: the frame now stands far enough ahead for its foot to
/// show above the question, whole, at 640x360 and at 1280x720.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_question_never_covers_the_person_frame() {
    /// Rows of floor between the frame's foot and the question, at least.
    const FLOOR_BETWEEN: u32 = 3;
    let (x, _one) = Xvfb::start();
    let dir = out_dir("offer_frame");
    let hall = ambiguous_hall(&dir);
    let script = dir.join("wait.txt");
    std::fs::write(&script, "wait 2\n").unwrap();
    for size in ["640x360", "1280x720"] {
        let _ = std::fs::remove_dir_all(dir.join("walkthrough-config"));
        let shot = dir.join(format!("frame-{size}.png"));
        let child = spawn_in(
            &x,
            &[
                hall.to_str().unwrap(),
                "--size",
                size,
                "--script",
                script.to_str().unwrap(),
                "--screenshot",
                shot.to_str().unwrap(),
                "--exit-when-done",
            ],
            &dir,
        );
        let log = wait_for_exit(child, "the window did not close when the script was done");
        assert!(log.contains("Read as metres (low confidence)"), "{log}");
        let img = image::open(&shot).expect("a PNG").to_rgb8();
        let (w, h) = img.dimensions();
        let cyan = |p: &image::Rgb<u8>| p.0[0] < 120 && p.0[1] > 200 && p.0[2] > 200;
        let foot = (0..h)
            .rev()
            .find(|&y| (0..w).any(|x| cyan(img.get_pixel(x, y))))
            .expect("the frame shows");
        // The question's panel: the first dark row below the centre, beside the frame.
        let dark = |p: &image::Rgb<u8>| p.0.iter().all(|&c| c < 90);
        let top = (h / 2..h)
            .find(|&y| (w / 2 + 40..w / 2 + 120).all(|x| dark(img.get_pixel(x, y))))
            .expect("the question shows below the centre");
        // Floor shows between them: a frame that goes on behind the panel is cut at its
        // top edge, dimmed past cyan under it.
        assert!(
            foot + FLOOR_BETWEEN < top,
            "{size}: the frame's foot at row {foot}, the question at {top}"
        );
    }
}

/// A reading the survey is fairly or highly sure of opens without a question: the
/// dungeon (no header; its up axis fair, its scale high) walks without the box, and
/// nothing is remembered for it.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_fairly_sure_reading_opens_without_a_question() {
    let Some(levels) = common::shared("levels") else {
        return;
    };
    let (x, _one) = Xvfb::start();
    let dir = out_dir("offer_fair");
    let _ = std::fs::remove_dir_all(dir.join("walkthrough-config"));
    let dungeon = levels.join("recast_dungeon/dungeon.obj");
    let script = dir.join("fly.txt");
    std::fs::write(&script, "mode fly\nup 2\nforward 3\n").unwrap();
    let child = spawn_in(
        &x,
        &[
            dungeon.to_str().unwrap(),
            "--script",
            script.to_str().unwrap(),
            "--exit-when-done",
        ],
        &dir,
    );
    let log = wait_for_exit(child, "the window did not close when the script was done");
    assert!(log.contains("confidence fair"), "{log}");
    assert!(!log.contains("Not sure this is upright"), "{log}");
    assert!(!log.contains("Read as"), "{log}");
    assert!(!log.contains("remembered for this file"), "{log}");
}

/// The height in pixels from the first to the last row of text (near-white pixels that
/// `before` did not have) in the bottom `band` pixels of `after`, across its middle half:
/// how tall the notices at the bottom are.
fn new_text_height_at_bottom(before: &Path, after: &Path, band: u32) -> u32 {
    let (a, b) = (
        image::open(before).expect("a PNG").to_rgb8(),
        image::open(after).expect("a PNG").to_rgb8(),
    );
    let (w, h) = b.dimensions();
    let white = |p: &image::Rgb<u8>| p.0.iter().all(|&c| c > 200);
    let rows: Vec<u32> = (h - band..h)
        .filter(|&y| {
            (w / 4..3 * w / 4).any(|x| white(b.get_pixel(x, y)) && !white(a.get_pixel(x, y)))
        })
        .collect();
    match (rows.first(), rows.last()) {
        (Some(top), Some(bottom)) => bottom - top + 1,
        _ => 0,
    }
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_long_notice_after_a_short_one_is_laid_out_at_its_own_width_and_printed_once() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("notices");
    // A long file name: the notice is wider than the short one before it.
    let rec = dir.join("a-recording-with-a-long-name-to-fill-the-line.txt");
    let args = ["--record", rec.to_str().unwrap(), "--exit-after", "40"];
    let (child, _win) = launch_in(&x, &args, &dir);
    let quiet = f12(&x, &dir, 1);
    // Let the screenshot's notice go, then a short one: "view 1".
    sleep(Duration::from_millis(4200));
    x.xdotool(&["key", "ctrl+1"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["key", "1"]);
    sleep(Duration::from_millis(600));
    x.xdotool(&["key", "F5"]);
    sleep(Duration::from_millis(600));
    let long = f12(&x, &dir, 2);
    let log = finish(&x, child);
    assert_eq!(log.matches("recorded ").count(), 1, "{log}");
    assert!(log.contains(&format!("to {}", rec.display())), "{log}");
    // 13-point text: a line is ~16 px tall, so one or two lines span under 40 px; a
    // word a line (the bug) spanned over 100.
    let tall = new_text_height_at_bottom(&quiet, &long, 160);
    assert!(
        (6..40).contains(&tall),
        "the notice's text is {tall} px tall"
    );
}

/// A square floor at y = 0 reaching `half` metres along x and z, and nothing else:
/// walked off, it falls for ever.
fn platform(dir: &Path, half: f32) -> PathBuf {
    let p = dir.join("platform.obj");
    let h = half;
    let obj = format!("v -{h} 0 -{h}\nv {h} 0 -{h}\nv {h} 0 {h}\nv -{h} 0 {h}\nf 1 4 3 2\n");
    std::fs::write(&p, obj).unwrap();
    p
}

/// The share of pixels in rows `y0..y1` (from the top), across the middle half, that are
/// near-white in `after` and were not in `before`: text that came.
fn new_white_share(before: &Path, after: &Path, y0: u32, y1: u32) -> f32 {
    let (a, b) = (
        image::open(before).expect("a PNG").to_rgb8(),
        image::open(after).expect("a PNG").to_rgb8(),
    );
    let w = b.width();
    let white = |p: &image::Rgb<u8>| p.0.iter().all(|&c| c > 200);
    let (mut new, mut all) = (0, 0);
    for y in y0..y1 {
        for x in w / 4..3 * w / 4 {
            all += 1;
            new += usize::from(white(b.get_pixel(x, y)) && !white(a.get_pixel(x, y)));
        }
    }
    new as f32 / all as f32
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn walking_off_an_open_map_says_r_returns_and_r_returns_to_the_spawn() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("fall");
    let map = platform(&dir, 2.0);
    let trace = dir.join("trace.csv");
    let args = [
        map.to_str().unwrap(),
        "--up",
        "y",
        "--scale",
        "1",
        "--spawn",
        "0,1.6,1.5",
        "--yaw",
        "0",
        "--trace",
        trace.to_str().unwrap(),
        "--exit-after",
        "40",
    ];
    let (child, _win) = launch_in(&x, &args, &dir);
    let standing = f12(&x, &dir, 1);
    // Walk off the far edge (3.5 m away at 3 m/s), and fall well below the floor.
    hold(&x, &["w"], 1.6);
    sleep(Duration::from_millis(1000));
    let fallen = f12(&x, &dir, 2);
    x.xdotool(&["key", "r"]);
    sleep(Duration::from_millis(600));
    let back = f12(&x, &dir, 3);
    let log = finish(&x, child);
    assert!(log.contains("back at the spawn"), "{log}");
    assert!(!log.contains("loaded platform"), "R reloaded: {log}");
    let rows = read_trace(&trace);
    let lowest = rows.iter().map(|r| r.y).fold(f32::INFINITY, f32::min);
    assert!(lowest < -2.0, "never fell: lowest eye {lowest}");
    let last = rows.last().unwrap();
    assert!(
        (last.x - 0.0).abs() < 0.01 && (last.y - 1.6).abs() < 0.05 && (last.z - 1.5).abs() < 0.01,
        "R left the eye at {} {} {}",
        last.x,
        last.y,
        last.z
    );
    // The HUD's line sits 85 px below the middle while falling, and goes at the spawn.
    let h = image::open(&standing).unwrap().height();
    let band = (h / 2 + 70, h / 2 + 100);
    let (said, gone) = (
        new_white_share(&standing, &fallen, band.0, band.1),
        new_white_share(&standing, &back, band.0, band.1),
    );
    assert!(said > 0.02 && gone < 0.005, "{said} vs {gone}");
}

/// The share of horizontally neighbouring pixels of different colour in the box from
/// `(x0, y0)` to `(x1, y1)`: a smooth gradient drawn in bands has long runs of one colour.
fn neighbours_differing(p: &Path, (x0, y0): (u32, u32), (x1, y1): (u32, u32)) -> f32 {
    let img = image::open(p).expect("a PNG").to_rgb8();
    let (mut differ, mut all) = (0, 0);
    for y in y0..y1 {
        for x in x0..x1 - 1 {
            all += 1;
            differ += usize::from(img.get_pixel(x, y) != img.get_pixel(x + 1, y));
        }
    }
    differ as f32 / all as f32
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_crosshair_has_a_dark_outline_and_a_wide_floor_is_dithered_not_banded() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("dither");
    let map = platform(&dir, 40.0);
    // Looking down at a wide plain floor: its light changes smoothly across the view.
    let args = [
        map.to_str().unwrap(),
        "--up",
        "y",
        "--scale",
        "1",
        "--spawn",
        "0,1.6,0",
        "--pitch",
        "-50",
        "--exit-after",
        "30",
    ];
    let (child, _win) = launch_in(&x, &args, &dir);
    let shot = f12(&x, &dir, 1);
    finish(&x, child);
    let img = image::open(&shot).unwrap().to_rgb8();
    let (cx, cy) = (img.width() / 2, img.height() / 2);
    // Clear of the HUD, the minimap, the hint and the notices: plain floor.
    let floor = neighbours_differing(&shot, (cx + 150, cy + 90), (cx + 400, cy + 260));
    assert!(floor > 0.2, "{floor} of neighbours differ: banded");
    // Around the centre: the white cross, and its dark outline on the light floor.
    let luma = |x: u32, y: u32| {
        img.get_pixel(x, y)
            .0
            .iter()
            .map(|&c| f32::from(c))
            .sum::<f32>()
            / 3.0
    };
    let around: Vec<f32> = (cy - 9..cy + 10)
        .flat_map(|y| (cx - 9..cx + 10).map(move |x| (x, y)))
        .map(|(x, y)| luma(x, y))
        .collect();
    let background = luma(cx + 30, cy - 30);
    let darkest = around.iter().copied().fold(f32::INFINITY, f32::min);
    let brightest = around.iter().copied().fold(0.0, f32::max);
    assert!(
        brightest > 215.0 && darkest < background - 60.0,
        "cross from {darkest} to {brightest} on {background}"
    );
}

/// The number after `key = ` in a TOML text.
fn toml_number(text: &str, key: &str) -> f32 {
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("no {key} in {text}"));
    line.split('=').nth(1).unwrap().trim().parse().unwrap()
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn tab_moves_a_row_at_a_time_in_the_panel_and_the_arrows_change_that_row() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("panel-tab");
    let (child, _win) = launch_in(&x, &["--exit-after", "30"], &dir);
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(500));
    // Field of view (focused as it opens) -> mouse sensitivity -> invert Y -> walking
    // speed: three Tabs, a frame apart (egui takes one focus move a frame).
    for _ in 0..3 {
        x.xdotool(&["key", "Tab"]);
        sleep(Duration::from_millis(250));
    }
    for _ in 0..4 {
        x.xdotool(&["key", "Left"]);
        sleep(Duration::from_millis(50));
    }
    sleep(Duration::from_millis(200));
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(400));
    finish(&x, child);
    let saved = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml"))
        .expect("the panel's change is saved");
    let defaults = walkthrough_core::preferences::Preferences::default();
    let speed = toml_number(&saved, "walking_speed");
    assert!(
        speed < defaults.walking_speed * 0.99,
        "walking speed {speed}: {saved}"
    );
    assert_eq!(toml_number(&saved, "fov"), defaults.fov, "{saved}");
    assert_eq!(
        toml_number(&saved, "mouse_sensitivity"),
        defaults.mouse_sensitivity,
        "{saved}"
    );
    assert!(saved.contains("invert_y = false"), "{saved}");
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn in_a_640_by_400_window_the_hud_covers_at_most_40_percent_of_the_width() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("small-hud");
    let (child, win) = launch_in(&x, &["--size", "640x400", "--exit-after", "30"], &dir);
    assert_eq!(window_size(&x, &win), (640, 400));
    let shot = f12(&x, &dir, 1);
    finish(&x, child);
    let img = image::open(&shot).unwrap().to_rgb8();
    // The HUD's text (near-white) in the top left, left of where the minimap starts.
    let rightmost = (0..140)
        .flat_map(|y| (0..420).map(move |x| (x, y)))
        .filter(|&(x, y)| img.get_pixel(x, y).0.iter().all(|&c| c > 200))
        .map(|(x, _)| x)
        .max()
        .expect("the HUD's text is drawn");
    assert!(
        (150..=256).contains(&rightmost),
        "the HUD's text reaches {rightmost} px of 640"
    );
}

/// The yaw of each row of a trace, degrees.
fn trace_yaw(p: &Path) -> Vec<f32> {
    let text = std::fs::read_to_string(p).expect("trace written");
    text.lines()
        .skip(1)
        .map(|l| l.split(',').nth(5).unwrap().parse().unwrap())
        .collect()
}

/// The tallest band of pixel rows that may change in the settings panel when a key button
/// starts asking for its key, pixels: the button's own row (some 20 pixels) and its focus
/// ring. Every row of the panel changed when the panel widened and moved sideways.
const REBIND_BAND_TALLEST: u32 = 40;

/// The pixel rows `ys` in which `a` and `b` differ between columns `xs`.
fn rows_differing(
    a: &image::RgbImage,
    b: &image::RgbImage,
    xs: std::ops::Range<u32>,
    ys: std::ops::Range<u32>,
) -> Vec<u32> {
    ys.filter(|&y| xs.clone().any(|x| a.get_pixel(x, y) != b.get_pixel(x, y)))
        .collect()
}

/// A key button asking for its key ("press a key ...") leaves the panel's other rows where
/// they were: only the button's own row changes.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_settings_rows_stay_put_while_a_key_button_asks_for_a_key() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("rebind-still");
    let args = [
        "--spawn",
        "0,1.6,8",
        "--yaw",
        "0",
        "--size",
        "960x600",
        "--exit-after",
        "30",
    ];
    let (child, _win) = launch_in(&x, &args, &dir);
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(500));
    // To the forward key's button (as in the rebinding test), then press it.
    for _ in 0..12 {
        x.xdotool(&["key", "Tab"]);
        sleep(Duration::from_millis(150));
    }
    let focused = f12(&x, &dir, 1);
    x.xdotool(&["key", "space"]);
    sleep(Duration::from_millis(400));
    // F12 is refused as a key: the button still asks.
    let asking = f12(&x, &dir, 2);
    // Esc keeps the key, F2 closes the panel, and Esc twice quits.
    for key in ["Escape", "F2"] {
        x.xdotool(&["key", key]);
        sleep(Duration::from_millis(300));
    }
    finish(&x, child);
    let (a, b) = (
        image::open(&focused).expect("a PNG").to_rgb8(),
        image::open(&asking).expect("a PNG").to_rgb8(),
    );
    let (w, h) = a.dimensions();
    // The panel's middle, below the HUD's lines (its frame rate changes) and above the
    // notice of the screenshot saved.
    let rows = rows_differing(&a, &b, w / 2 - 160..w / 2 + 160, h / 4..h - h / 6);
    let band = rows.last().map_or(0, |l| l - rows[0] + 1);
    assert!(
        !rows.is_empty(),
        "the button did not change: it asks for no key"
    );
    assert!(
        band <= REBIND_BAND_TALLEST,
        "rows {}..={} changed ({} rows): the panel moved",
        rows[0],
        rows.last().unwrap(),
        rows.len()
    );
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_key_rebound_in_the_panel_walks_is_saved_and_the_next_run_uses_it() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("rebind");
    // At the built-in map's spawn, looking down the hall (-z), 6 m clear ahead.
    let walk_args = |trace: &Path| {
        [
            "--spawn",
            "0,1.6,8",
            "--yaw",
            "0",
            "--trace",
            trace.to_str().unwrap(),
            "--exit-after",
            "30",
        ]
        .map(String::from)
    };
    let first = dir.join("first.csv");
    let args = walk_args(&first);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (child, _win) = launch_in(&x, &args, &dir);
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(500));
    // Field of view -> ... -> window width, height -> third person, the boom -> the
    // forward key's button.
    for _ in 0..12 {
        x.xdotool(&["key", "Tab"]);
        sleep(Duration::from_millis(150));
    }
    x.xdotool(&["key", "space"]);
    sleep(Duration::from_millis(400));
    // F12 while the move waits for its key saves a screenshot and binds nothing (it was
    // refused as the key, and no screenshot taken).
    f12(&x, &dir, 1);
    x.xdotool(&["key", "i"]);
    sleep(Duration::from_millis(400));
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(400));
    // W no longer walks; I does: 0.6 s of each walk 1.8 m, not 3.6.
    hold(&x, &["w"], 0.6);
    hold(&x, &["i"], 0.6);
    let log = finish(&x, child);
    assert!(log.contains("Forward key: I"), "{log}");
    assert!(!log.contains("F12 cannot be"), "{log}");
    let z = trace_z(&first);
    let walked = z[0] - z.last().unwrap();
    assert!((1.2..2.6).contains(&walked), "walked {walked} m");
    let saved = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml")).unwrap();
    assert!(saved.contains("key_forward = \"KeyI\""), "{saved}");
    // The next run reads it: I walks at once.
    let second = dir.join("second.csv");
    let args = walk_args(&second);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (child, _win) = launch_in(&x, &args, &dir);
    hold(&x, &["i"], 0.6);
    finish(&x, child);
    let z = trace_z(&second);
    assert!(
        z[0] - z.last().unwrap() > 1.0,
        "I did not walk after a restart: {z:?}"
    );
}

/// The panel's view rows. Tab to "Third person", Space ticks it, Tab to the
/// boom, four Lefts shorten it by a metre: the view is third person at once (the figure
/// stands below the crosshair) and both are saved.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_panels_view_rows_turn_third_person_on_and_shorten_the_boom() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("panel-view");
    let args = ["--spawn", "0,1.6,8", "--yaw", "0", "--size", "960x600"];
    let (child, _win) = launch_in(&x, &[&args[..], &["--exit-after", "30"]].concat(), &dir);
    let first = f12(&x, &dir, 1);
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(500));
    // Field of view -> ... -> window width, height -> third person.
    for _ in 0..10 {
        x.xdotool(&["key", "Tab"]);
        sleep(Duration::from_millis(150));
    }
    x.xdotool(&["key", "space"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["key", "Tab"]);
    sleep(Duration::from_millis(250));
    for _ in 0..4 {
        x.xdotool(&["key", "Left"]);
        sleep(Duration::from_millis(50));
    }
    sleep(Duration::from_millis(200));
    x.xdotool(&["key", "F2"]);
    sleep(Duration::from_millis(600));
    let third = f12(&x, &dir, 2);
    finish(&x, child);
    let saved = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml"))
        .expect("the panel's change is saved");
    assert!(saved.contains("third_person = true"), "{saved}");
    let defaults = walkthrough_core::preferences::Preferences::default();
    let boom = toml_number(&saved, "boom_length");
    assert!(
        (boom - (defaults.boom_length - 1.0)).abs() < 1e-4,
        "boom {boom}: {saved}"
    );
    let (before, after) = (
        region_colour(&first, 170, 40, 40),
        region_colour(&third, 170, 40, 40),
    );
    assert!(!is_torso(before), "a figure in first person: {before:?}");
    assert!(is_torso(after), "no figure below the crosshair: {after:?}");
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_gamepad_walks_with_its_left_stick_looks_with_its_right_and_west_switches_to_stop() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("pad");
    // Played through the same path as a real pad's events (there is none here).
    let events = dir.join("pad.txt");
    std::fs::write(
        &events,
        "0.3 connected\n0.5 axis left-y 1\n1.5 axis left-y 0\n2.0 axis right-x 1\n2.5 axis right-x 0\n2.8 button west down\n2.9 button west up\n",
    )
    .unwrap();
    let trace = dir.join("trace.csv");
    let args = [
        "--spawn",
        "0,1.6,8",
        "--yaw",
        "0",
        "--trace",
        trace.to_str().unwrap(),
        "--pad-events",
        events.to_str().unwrap(),
        "--exit-after",
        "30",
    ];
    let (child, _win) = launch_in(&x, &args, &dir);
    sleep(Duration::from_millis(3500));
    let log = finish(&x, child);
    assert!(log.contains("gamepad connected"), "{log}");
    let rows = read_trace(&trace);
    let (start, last) = (&rows[0], rows.last().unwrap());
    // A second of the stick up at 3 m/s: 3 m forward (-z), none sideways.
    let walked = start.z - last.z;
    assert!((walked - 3.0).abs() < 0.3, "walked {walked} m");
    assert!(
        (last.x - start.x).abs() < 0.01,
        "drifted {} m",
        last.x - start.x
    );
    // Half a second of the right stick full right at 180 deg/s: about 90 degrees right
    // (the frames' times decide the exact turn).
    let yaw = *trace_yaw(&trace).last().unwrap();
    assert!((-120.0..-60.0).contains(&yaw), "turned to {yaw} degrees");
    assert_eq!(last.response, "stop");
}

/// A scripted run of `script` on the built-in map at 960 x 600: its trace and its
/// screenshot at the script's end (in `dir`, named `name`).
fn scripted_shot(x: &Xvfb, dir: &Path, name: &str, script: &str) -> (String, PathBuf) {
    let path = dir.join(format!("{name}.txt"));
    std::fs::write(&path, script).unwrap();
    let (trace, shot) = (
        dir.join(format!("{name}.csv")),
        dir.join(format!("{name}.png")),
    );
    let child = spawn_in(
        x,
        &[
            "--script",
            path.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
            "--screenshot",
            shot.to_str().unwrap(),
            "--size",
            "960x600",
            "--exit-when-done",
        ],
        dir,
    );
    wait_for_exit(child, "the scripted window did not close");
    (std::fs::read_to_string(&trace).unwrap(), shot)
}

/// The figure's orange torso: red well above green and blue.
fn is_torso(c: [f32; 3]) -> bool {
    c[0] > c[1] + 50.0 && c[0] > c[2] + 90.0
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn view_third_draws_the_figure_below_the_crosshair_and_the_trace_is_sims() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("third");
    let walk = "forward 1\nturn 30\nwait 0.5\n";
    let (third, third_shot) = scripted_shot(&x, &dir, "third", &format!("view third\n{walk}"));
    let (first, first_shot) = scripted_shot(&x, &dir, "first", walk);
    // The view changes no row of the trace, and the window's trace is `sim`'s.
    assert_eq!(third, first);
    assert_eq!(third, sim_trace(&dir.join("third.txt")));
    // The torso stands below the crosshair in third person, and not in first.
    let (t, f) = (
        region_colour(&third_shot, 170, 40, 40),
        region_colour(&first_shot, 170, 40, 40),
    );
    assert!(is_torso(t), "no figure below the crosshair: {t:?}");
    assert!(!is_torso(f), "a figure in first person: {f:?}");
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_decal_stuck_by_a_script_is_drawn_and_is_there_again_at_the_next_open() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("decal");
    // 1.5 m from the built-in map's south wall, facing it.
    let start = "start 0,1.6,10.5 180 0\n";
    let (_, stuck) = scripted_shot(&x, &dir, "stuck", &format!("{start}decal\nwait 0.3\n"));
    // The settings folder keeps it for the built-in map.
    let kept = std::fs::read_to_string(dir.join("walkthrough-config/settings.toml")).unwrap();
    assert!(kept.contains("decals = [["), "{kept}");
    let (_, again) = scripted_shot(&x, &dir, "again", &format!("{start}wait 0.3\n"));
    // A fresh settings folder: no decal.
    let fresh_dir = dir.join("fresh");
    std::fs::create_dir_all(&fresh_dir).unwrap();
    let (_, fresh) = scripted_shot(&x, &fresh_dir, "fresh", &format!("{start}wait 0.3\n"));
    let same = middle_difference(&stuck, &again);
    let without = middle_difference(&again, &fresh);
    assert!(
        same < 0.5,
        "the decal is not drawn the same after the reopen: {same}"
    );
    assert!(
        without > 3.0,
        "no decal drawn: {without} from a wall without one"
    );
}

/// The widest a red-to-white edge of the target decal may be, seen up close, in pixels
/// from 10 % to 90 % of the way across: a texel of a 64-pixel texture seen 0.4 m away
/// spans about 8 screen pixels (its edges were 6.5 wide, in steps of a texel); a
/// texture sharp enough to be looked at from a step away makes the edge a pixel or two.
const DECAL_EDGE_WIDEST: f32 = 3.0;

/// The mean width, in pixels, of the red-white edges that row `y` of `img` crosses
/// between `x0` and `x1` (from 10 % to 90 % of the way in green, the channel red and
/// white differ most in), and how many edges it crossed.
fn edge_width(img: &image::RgbImage, y: u32, (x0, x1): (u32, u32)) -> (f32, usize) {
    let green: Vec<f32> = (x0..x1)
        .map(|x| f32::from(img.get_pixel(x, y)[1]))
        .collect();
    let (lo, hi) = green
        .iter()
        .fold((f32::MAX, f32::MIN), |(l, h), &g| (l.min(g), h.max(g)));
    let at = |f: f32| lo + f * (hi - lo);
    let between = green
        .iter()
        .filter(|&&g| g > at(0.1) && g < at(0.9))
        .count();
    // An edge: the row goes from under the halfway level to over it, or back.
    let edges = green
        .windows(2)
        .filter(|w| (w[0] < at(0.5)) != (w[1] < at(0.5)))
        .count();
    (between as f32 / edges.max(1) as f32, edges)
}

/// The target decal seen from 0.4 m: its ring edges are sharp, not a texel-wide blur.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_decal_seen_up_close_has_sharp_edges() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("decal-close");
    // 0.4 m from the built-in map's south wall, facing it; the first decal is the target.
    let script = "start 0,1.6,11.6 180 0\ndecal\nwait 0.3\n";
    let (_, shot) = scripted_shot(&x, &dir, "close", script);
    let img = image::open(&shot).expect("a PNG").to_rgb8();
    let (w, h) = img.dimensions();
    // A row a little above the crosshair, across the rings left of the middle (the decal,
    // 0.5 m across, spans some 470 pixels of the 960: the row stays on it, off the wall).
    let (width, edges) = edge_width(&img, h / 2 - 12, (w / 2 - 200, w / 2 - 20));
    assert!(
        edges >= 4,
        "the row crossed {edges} ring edges: no target there"
    );
    assert!(
        width <= DECAL_EDGE_WIDEST,
        "the decal's edges are {width} pixels wide over {edges} edges"
    );
}

/// An OBJ of quads and boxes by material, written with its MTL.
#[derive(Default)]
struct Obj {
    text: String,
    vertices: usize,
    /// Each quad with a `vn` of its own, its winding's normal (as an exporter writing
    /// faceted normals does), or none.
    face_normals: bool,
    normals: usize,
}

impl Obj {
    /// What follows is of material `name`.
    fn material(&mut self, name: &str) {
        self.text.push_str(&format!("usemtl {name}\n"));
    }

    /// A quad of four corners in order.
    fn quad(&mut self, c: [[f32; 3]; 4]) {
        for p in c {
            self.text
                .push_str(&format!("v {} {} {}\n", p[0], p[1], p[2]));
        }
        let n = self.vertices;
        let corner = if self.face_normals {
            let [a, b, d] = [c[0], c[1], c[2]].map(Vec3::from);
            let m = (b - a).cross(d - a).normalize();
            self.text.push_str(&format!("vn {} {} {}\n", m.x, m.y, m.z));
            self.normals += 1;
            format!("//{}", self.normals)
        } else {
            String::new()
        };
        self.text.push_str(&format!(
            "f {}\n",
            [1, 2, 3, 4].map(|k| format!("{}{corner}", n + k)).join(" ")
        ));
        self.vertices += 4;
    }

    /// The six faces of the box from `lo` to `hi`.
    fn boxed(&mut self, lo: [f32; 3], hi: [f32; 3]) {
        let (lo, hi) = (Vec3::from(lo), Vec3::from(hi));
        for q in BOX_QUADS {
            self.quad(q.map(|i| box_corner(lo, hi, i).to_array()));
        }
    }

    /// Write `dir/name.obj` and its `dir/name.mtl` of `mtl` (its text); returns the OBJ's
    /// path.
    fn write(&self, dir: &Path, name: &str, mtl: &str) -> PathBuf {
        let obj = format!("mtllib {name}.mtl\n{}", self.text);
        std::fs::write(dir.join(format!("{name}.obj")), obj).unwrap();
        std::fs::write(dir.join(format!("{name}.mtl")), mtl).unwrap();
        dir.join(format!("{name}.obj"))
    }
}

/// The mirror room's materials.
const MIRROR_ROOM_MTL: &str =
    "newmtl wall\nKd 0.6 0.6 0.6\nnewmtl glass\nKd 0.8 0.8 0.8\nnewmtl red\nKd 1 0 0\n";

/// The mirror room's walls and mirror: a room 6 x 3 x 5.5 m (grey walls) with a mirror
/// (material `glass`, 2.5 x 2.4 m on the wall z = 0, from x = -1.5 to 1).
fn mirror_walls() -> Obj {
    let mut obj = Obj::default();
    obj.material("wall");
    obj.boxed([-3.0, 0.0, -0.5], [3.0, 3.0, 5.0]);
    obj.material("glass");
    obj.quad([
        [-1.5, 0.3, 0.0],
        [1.0, 0.3, 0.0],
        [1.0, 2.7, 0.0],
        [-1.5, 2.7, 0.0],
    ]);
    obj
}

/// The red marker of the mirror room, behind the viewer's left (x -1.4 to -0.8, z 2.8
/// to 3.4).
const MARKER: ([f32; 3], [f32; 3]) = ([-1.4, 0.8, 2.8], [-0.8, 2.2, 3.4]);

/// The mirror room ([`mirror_walls`]) with the red marker ([`MARKER`]), written into
/// `dir`.
fn mirror_room(dir: &Path) -> PathBuf {
    let mut obj = mirror_walls();
    obj.material("red");
    obj.boxed(MARKER.0, MARKER.1);
    obj.write(dir, "room", MIRROR_ROOM_MTL)
}

/// The mirror room as a scene whose red marker is a mover (sliding 2 cm to and fro
/// about where [`mirror_room`] has it): `mirror = ["glass"]` on the room.
fn mirror_scene_with_a_mover(dir: &Path) -> PathBuf {
    mirror_walls().write(dir, "walls", MIRROR_ROOM_MTL);
    let mut marker = Obj::default();
    marker.material("red");
    marker.boxed(MARKER.0, MARKER.1);
    marker.write(dir, "marker", MIRROR_ROOM_MTL);
    let scene = "[[model]]\nfile = \"walls.obj\"\nmirror = [\"glass\"]\n\n\
                 [[model]]\nfile = \"marker.obj\"\n[model.motion]\n\
                 keys = [[0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0.02, 0, 0, 0]]\n\
                 play = \"ping-pong\"\n";
    std::fs::write(dir.join("movers.toml"), scene).unwrap();
    dir.join("movers.toml")
}

/// Pixels of a PNG that are red (the marker), in the left and right halves of its
/// middle band (the HUD and the minimap, with its red arrow, lie above it).
fn red_pixels(p: &Path) -> (usize, usize) {
    let img = image::open(p).expect("a PNG").to_rgb8();
    let (half, h) = (img.width() / 2, img.height());
    let (mut left, mut right) = (0, 0);
    for (x, _, px) in img
        .enumerate_pixels()
        .filter(|(_, y, _)| (h / 3..2 * h / 3).contains(y))
    {
        // Red, not the brown of the viewer's own figure in the mirror (152, 89, 56 on
        // NVIDIA's GL, which llvmpipe shades a little greener).
        if px[0] > 120 && u16::from(px[0]) > 2 * u16::from(px[1].max(px[2])) {
            if x < half {
                left += 1;
            } else {
                right += 1;
            }
        }
    }
    (left, right)
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_mirror_shows_the_red_marker_behind_on_the_left_and_nothing_when_out_of_view() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("mirror");
    let map = mirror_room(&dir);
    let shot = |yaw: &str, name: &str| {
        let png = dir.join(name);
        let child = spawn_in(
            &x,
            &[
                map.to_str().unwrap(),
                "--mirror",
                "glass",
                "--up",
                "y",
                "--scale",
                "1",
                "--spawn",
                "0,1.6,2",
                "--yaw",
                yaw,
                "--size",
                "960x600",
                "--screenshot",
                png.to_str().unwrap(),
                "--exit-after",
                "1.5",
            ],
            &dir,
        );
        wait_for_exit(child, "the mirror window did not close");
        png
    };
    // Facing the mirror: the marker behind the viewer's left shows in it, on the left.
    let (left, right) = red_pixels(&shot("0", "facing.png"));
    assert!(
        left > 2000,
        "the marker's reflection is missing: {left} red pixels"
    );
    assert_eq!(right, 0, "a reflection on the wrong side");
    // Turned to +X: neither the mirror nor the marker is in view, nothing red.
    let (left, right) = red_pixels(&shot("-90", "away.png"));
    assert_eq!((left, right), (0, 0));
}

/// `--mirror` naming no material said so with no `warning:` and no way to the names but
/// the MTL: the warning lists the map's materials.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_mirror_name_no_material_has_lists_the_map_s_materials() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("mirror-name");
    let map = mirror_room(&dir);
    let args = [
        map.to_str().unwrap(),
        "--mirror",
        "nosuch",
        "--exit-after",
        "1",
    ];
    let log = wait_for_exit(spawn_in(&x, &args, &dir), "the window did not close");
    assert!(
        log.contains(
            "warning: --mirror 'nosuch': the map has no material of that name (its materials: glass, red, wall)"
        ),
        "{log}"
    );
}

/// The window run in `dir` with `args` (the map and its options), walked by the script
/// `text` (written to `dir/{name}.txt`) in a 960 x 600 window: the picture at the script's
/// end (`dir/{name}.png`).
fn script_shot(x: &Xvfb, dir: &Path, name: &str, args: &[&str], text: &str) -> image::RgbImage {
    let script = dir.join(format!("{name}.txt"));
    std::fs::write(&script, text).unwrap();
    let png = dir.join(format!("{name}.png"));
    let tail = [
        "--script",
        script.to_str().unwrap(),
        "--size",
        "960x600",
        "--screenshot",
        png.to_str().unwrap(),
        "--exit-when-done",
    ];
    let child = spawn_in(x, &[args, &tail].concat(), dir);
    wait_for_exit(child, &format!("the window of {name} did not close"));
    image::open(png).expect("a PNG").to_rgb8()
}

/// The mirror room `map` (its `glass` a mirror) walked by the script `text` in a 960 x 600
/// window run in `run` (made): the picture at the script's end.
fn mirror_room_shot(x: &Xvfb, map: &Path, run: &Path, text: &str) -> image::RgbImage {
    std::fs::create_dir_all(run).unwrap();
    let args = [
        map.to_str().unwrap(),
        "--mirror",
        "glass",
        "--up",
        "y",
        "--scale",
        "1",
    ];
    script_shot(x, run, "shot", &args, text)
}

/// The mirrors' reflection draws the movers and the decals too, not only the
/// map. A marker that is a mover behind the viewer is seen in the mirror as the map's
/// marker is; a decal stuck on the wall behind the viewer is seen in the mirror at the
/// middle of the view, and nowhere else.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_mirror_shows_a_mover_and_a_decal_behind_the_viewer() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("mirror-movers");
    let scene = mirror_scene_with_a_mover(&dir);
    let png = dir.join("mover.png");
    let child = spawn_in(
        &x,
        &[
            scene.to_str().unwrap(),
            "--spawn",
            "0,1.6,2",
            "--yaw",
            "0",
            "--size",
            "960x600",
            "--screenshot",
            png.to_str().unwrap(),
            "--exit-after",
            "1.5",
        ],
        &dir,
    );
    wait_for_exit(child, "the mirror window did not close");
    let (left, right) = red_pixels(&png);
    assert!(
        left > 2000,
        "the mover's reflection is missing: {left} red pixels"
    );
    assert_eq!(right, 0, "a reflection on the wrong side");
    // The decal: turned to the wall behind (z = 5, 3 m away), stuck, turned back.
    let map = mirror_room(&dir);
    let decal_shot = |name: &str, verb: &str| {
        let text = format!("start 0,1.6,2 -160 0\n{verb}wait 0.2\nturn 160\nwait 0.3\n");
        mirror_room_shot(&x, &map, &dir.join(name), &text)
    };
    let (with, without) = (decal_shot("with", "decal\n"), decal_shot("without", ""));
    // Pixels that differ between the two, in the view below the HUD: the decal's
    // reflection (0.5 m seen 7 m away: about 30 pixels a side), right of the middle (it
    // was stuck 20 degrees to the right of straight behind), at the eye's height.
    let (w, h) = with.dimensions();
    let changed: Vec<(u32, u32)> = with
        .enumerate_pixels()
        .filter(|&(x, y, p)| {
            let q = without.get_pixel(x, y);
            y > h / 4 && (0..3).map(|c| u32::from(p[c].abs_diff(q[c]))).sum::<u32>() > 60
        })
        .map(|(x, y, _)| (x, y))
        .collect();
    assert!(
        changed.len() > 300,
        "the decal's reflection is missing: {} pixels changed",
        changed.len()
    );
    let elsewhere: Vec<_> = changed
        .iter()
        .filter(|&&(x, y)| x < w / 2 + 20 || x > w / 2 + 120 || y.abs_diff(h / 2) > 40)
        .collect();
    assert!(
        elsewhere.is_empty(),
        "pixels changed elsewhere: {elsewhere:?}"
    );
}

/// A decal stuck on the mirror's glass is drawn on it: the reflection, drawn after the
/// view's decals, covered it. Facing the mirror 2 m away, the
/// decal is stuck where the crosshair is, and the middle of the view changes.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_decal_stuck_on_a_mirror_is_drawn_on_its_glass() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("mirror-decal");
    let map = mirror_room(&dir);
    let shot = |name: &str, verb: &str| {
        let text = format!("start 0,1.6,2 0 0\n{verb}wait 0.3\n");
        mirror_room_shot(&x, &map, &dir.join(name), &text)
    };
    let (with, without) = (shot("with", "decal\n"), shot("without", ""));
    let (w, h) = with.dimensions();
    let differ = |x0: u32, y0: u32, x1: u32, y1: u32| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let (p, q) = (with.get_pixel(x, y), without.get_pixel(x, y));
                (0..3).map(|c| u32::from(p[c].abs_diff(q[c]))).sum::<u32>() > 60
            })
            .count()
    };
    // The decal (0.5 m seen 2 m away: over a hundred pixels a side) around the middle.
    let middle = differ(w / 2 - 40, h / 2 - 40, w / 2 + 40, h / 2 + 40);
    assert!(
        middle > 3000,
        "no decal on the glass: {middle} of 6400 middle pixels changed"
    );
    // Nothing changes far from it (the mirror's left edge, the floor's front).
    let aside = differ(0, h / 4, w / 6, h) + differ(0, h - h / 8, w, h);
    assert_eq!(aside, 0, "pixels changed away from the decal");
}

/// A grey room 12 x 6 x 25 m, its floor at y = -2, with a red box over the middle of
/// its far half (x -1.5 to 1.5, y 0.8 to 3, z -12 to -11): `dry.toml`, and `wet.toml`
/// with water 2.3 m deep over the whole floor.
fn pool_scenes(dir: &Path) {
    let mut obj = Obj::default();
    obj.material("wall");
    obj.boxed([-6.0, -2.0, -20.0], [6.0, 4.0, 5.0]);
    obj.material("red");
    obj.boxed([-1.5, 0.8, -12.0], [1.5, 3.0, -11.0]);
    obj.write(
        dir,
        "pool",
        "newmtl wall\nKd 0.6 0.6 0.55\nnewmtl red\nKd 0.9 0.1 0.1\n",
    );
    let model = "[[model]]\nfile = \"pool.obj\"\n";
    std::fs::write(dir.join("dry.toml"), model).unwrap();
    let wet = format!("{model}[[water]]\nbox = [-6, -2, -20, 6, 0.3, 5]\n");
    std::fs::write(dir.join("wet.toml"), wet).unwrap();
}

/// The water's surface reflects what stands over it (the mirrors' path) and
/// its ripples move with the walk's clock; what is out of the water stays still.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_water_reflects_the_red_box_over_it_and_its_ripples_move() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("water-surface");
    pool_scenes(&dir);
    let shot = |scene: &str, secs: &str| {
        let toml = dir.join(format!("{scene}.toml"));
        let args = [toml.to_str().unwrap(), "--mode", "fly"];
        // Flying 1.3 m over the water, looking a little down the room.
        let text = format!("start 0,1.6,3 0 -12\nwait {secs}\n");
        script_shot(&x, &dir, &format!("{scene}-{secs}"), &args, &text)
    };
    let (wet, later, dry) = (shot("wet", "0.5"), shot("wet", "0.8"), shot("dry", "0.5"));
    // The box's reflection: reddish pixels under the water line, below the box.
    let reddish = |img: &image::RgbImage| {
        let mut xs = Vec::new();
        for y in 250..340 {
            for x in 300..660 {
                let p = img.get_pixel(x, y);
                if i32::from(p[0]) > i32::from(p[1]) + 15 && i32::from(p[0]) > i32::from(p[2]) + 10
                {
                    xs.push(x as f32);
                }
            }
        }
        xs
    };
    let (reflected, floor) = (reddish(&wet), reddish(&dry));
    assert!(
        reflected.len() > 1500,
        "no reflection: {} reddish pixels",
        reflected.len()
    );
    let mean_x = reflected.iter().sum::<f32>() / reflected.len() as f32;
    assert!((mean_x - 480.0).abs() < 20.0, "reflected at x {mean_x}");
    assert_eq!(floor.len(), 0, "reddish pixels on the dry floor");
    // The ripples move: the water differs 0.3 s later; the walls and the box do not.
    let mean_difference = |y0: u32, y1: u32, x0: u32, x1: u32| {
        let mut sum = 0u64;
        for y in y0..y1 {
            for x in x0..x1 {
                let (p, q) = (wet.get_pixel(x, y), later.get_pixel(x, y));
                sum += (0..3).map(|c| u64::from(p[c].abs_diff(q[c]))).sum::<u64>();
            }
        }
        sum as f32 / (3 * (y1 - y0) * (x1 - x0)) as f32
    };
    let (water, above) = (
        mean_difference(250, 600, 0, 330),
        mean_difference(140, 230, 380, 580),
    );
    assert!(water > 1.5, "the ripples stand still: {water}");
    assert!(above < 0.3, "the view over the water changed: {above}");
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn under_water_the_view_is_tinted_and_fogged_and_the_windows_trace_has_sims_water_column() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("water");
    // A closed grey room 10 m wide and 30 m long, its floor at y = -4; water 4.3 m deep.
    let room = common::cube(Vec3::new(-5.0, -4.0, -25.0), Vec3::new(5.0, 3.0, 5.0));
    std::fs::write(dir.join("room.obj"), obj_text(&room)).unwrap();
    let model = "[[model]]\nfile = \"room.obj\"\n";
    std::fs::write(dir.join("dry.toml"), model).unwrap();
    let wet = format!("{model}[[water]]\nbox = [-5, -4, -25, 5, 0.3, 5]\n");
    std::fs::write(dir.join("wet.toml"), wet).unwrap();
    let script = dir.join("look.txt");
    // The eye 1.8 m under the surface, looking at the far wall 25 m away; floating up
    // 0.1 m meanwhile.
    std::fs::write(&script, "start 0,-1.5,0 0 0\nwait 0.1\n").unwrap();
    let mut centres = Vec::new();
    let mut fars = Vec::new();
    let mut nears = Vec::new();
    for name in ["dry", "wet"] {
        let scene = dir.join(format!("{name}.toml"));
        let (trace, shot) = (
            dir.join(format!("{name}.csv")),
            dir.join(format!("{name}.png")),
        );
        let child = spawn(
            &x,
            &[
                scene.to_str().unwrap(),
                "--script",
                script.to_str().unwrap(),
                "--trace",
                trace.to_str().unwrap(),
                "--screenshot",
                shot.to_str().unwrap(),
                "--exit-when-done",
                "--size",
                "960x600",
            ],
        );
        wait_for_exit(child, "the window did not close when the script was done");
        let sim = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
            .env("WALKTHROUGH_CONFIG_DIR", dir.join("walkthrough-config"))
            .args(["sim", scene.to_str().unwrap(), "--script"])
            .arg(&script)
            .output()
            .unwrap();
        assert!(
            sim.status.success(),
            "{}",
            String::from_utf8_lossy(&sim.stderr)
        );
        let win = std::fs::read_to_string(&trace).unwrap();
        assert_eq!(win, String::from_utf8(sim.stdout).unwrap(), "{name}");
        let header = win.lines().next().unwrap();
        assert_eq!(header.ends_with(",water"), name == "wet", "{header}");
        if name == "wet" {
            assert!(
                win.lines().last().unwrap().ends_with(",2"),
                "swimming: {win}"
            );
        }
        centres.push(centre_colour(&shot, 32));
        // The far wall, left of the crosshair (the notices stand under it); the floor
        // near the bottom edge, about 4 m away.
        let img = image::open(&shot).unwrap().to_rgb8();
        fars.push(box_colour(&img, (380, 290), (450, 315)));
        nears.push(box_colour(&img, (280, 570), (680, 590)));
    }
    // The tint is blue-green over the grey wall: blue gains on red under water.
    let [dry, wet] = [centres[0], centres[1]];
    assert!(
        wet[2] - wet[0] > dry[2] - dry[0] + 10.0,
        "dry {dry:?}, under water {wet:?}"
    );
    // The fog: under water the far wall (25 m away, past the fog's 15 m) is the fog's
    // colour, the tint's (the window's UNDERWATER_TINT: 0.05, 0.25, 0.35 at 0.55): the
    // tint alone would leave 0.45 of the wall's grey. The near floor (about 4 m away) is
    // what the tint alone makes of it, within a little fog.
    let tint = [0.05f32, 0.25, 0.35].map(|c| c * 255.0);
    let tinted = |c: [f32; 3]| [0, 1, 2].map(|i| 0.55 * tint[i] + 0.45 * c[i]);
    let change = |a: [f32; 3], b: [f32; 3]| (0..3).map(|i| (a[i] - b[i]).abs()).sum::<f32>();
    let ([dry_far, wet_far], [dry_near, wet_near]) = ([fars[0], fars[1]], [nears[0], nears[1]]);
    assert!(
        change(wet_far, tint) < 15.0,
        "the far wall {wet_far:?} is not the fog's {tint:?}"
    );
    assert!(
        change(wet_far, tinted(dry_far)) > 40.0,
        "the far wall {wet_far:?} is only tinted: {:?}",
        tinted(dry_far)
    );
    assert!(
        change(wet_near, tinted(dry_near)) < 25.0,
        "the near floor {wet_near:?} is more than tinted: {:?}",
        tinted(dry_near)
    );
}

/// A load that takes over half a second shows a progress bar over the map
/// still being walked, and Esc cancels it: the old map stays, and walks on.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_long_load_shows_a_progress_bar_and_esc_keeps_the_old_map() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("loading-bar");
    let map = dir.join("terrain.obj");
    // 2.5 million triangles, 90 MB: reading it again takes seconds.
    std::fs::write(&map, common::terrain_obj(1120)).unwrap();
    let trace = dir.join("trace.csv");
    let (m, t) = (map.to_str().unwrap(), trace.to_str().unwrap());
    // Without the cache of built maps, which would make the reload quick.
    let args = [m, "--no-map-cache", "--trace", t, "--exit-after", "120"];
    let (child, _win) = launch_in(&x, &args, &dir);
    // R loads it again in the background; the bar shows after half a second.
    x.xdotool(&["key", "r"]);
    // Past PROGRESS_AFTER with frames to spare (a busy llvmpipe draws a few a second),
    // well before the reload ends (seconds).
    sleep(Duration::from_millis(1600));
    x.xdotool(&["key", "Escape"]);
    sleep(Duration::from_millis(300));
    // The old map is still walked.
    hold(&x, &["w"], 1.0);
    let log = finish(&x, child);
    assert!(log.contains("[progress bar shown at"), "no bar: {log}");
    // Said once, naming the map still walked (it was said twice, the notice and the
    // terminal each saying it).
    assert_eq!(
        log.matches("cancelled; still walking the map you had: terrain.obj")
            .count(),
        1,
        "Esc did not cancel the load, or said so more than once: {log}"
    );
    assert_eq!(
        log.matches("map: terrain.obj").count(),
        1,
        "the cancelled load must never replace the map: {log}"
    );
    let walked = walked_across(&trace);
    assert!(
        walked > 0.5,
        "the old map is not walkable after the cancel: {walked} m"
    );
}

/// A first open of a big map in the window waited seconds for its built map's
/// file in the cache; now the world's part is written beside the walk (the map comes in
/// and walks meanwhile), and the window waits for it as it closes: the folder holds the
/// whole file and no part of one.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_big_map_is_kept_in_the_cache_beside_the_walk_and_whole_when_the_window_closes() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("kept-beside");
    let map = dir.join("terrain.obj");
    // 2 x 708 x 708 = 1,002,528 triangles, just over the cache's minimum.
    std::fs::write(&map, common::terrain_obj(708)).unwrap();
    let args = [map.to_str().unwrap(), "--exit-after", "4"];
    let (child, win) = launch_in(&x, &args, &dir);
    wait_for_title(&x, &win, "terrain.obj", 90);
    hold(&x, &["w"], 1.0);
    let log = finish(&x, child);
    assert!(log.contains("written beside the walk"), "{log}");
    assert!(!log.contains("was not kept"), "{log}");
    let names: Vec<String> = std::fs::read_dir(dir.join("walkthrough-cache"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("map-"))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].ends_with(".bin"), "{names:?}");
}

/// A big map named on the command line loads with the window open (it opened
/// only once loaded, and then stood still while its clusters were cut): the built-in map
/// stands in under the progress bar, then the map comes in, named in the title, and
/// walks; Esc while it loads gives it up and the built-in map stays; a big file with a
/// bad last line closes the window with the error at that line, as before opening.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_big_first_map_loads_with_the_window_open_and_esc_gives_it_up() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("first-load");
    let map = dir.join("terrain.obj");
    // 2.5 million triangles, 90 MB: seconds to load, over LOADED_IN_THE_WINDOW_BYTES.
    let obj = common::terrain_obj(1120);
    std::fs::write(&map, &obj).unwrap();
    let m = map.to_str().unwrap();
    let args = [m, "--no-map-cache", "--exit-after", "120"];
    let (child, win) = launch_in(&x, &args, &dir);
    wait_for_title(&x, &win, "terrain.obj", 90);
    // Past ESC_AFTER_LOAD, so that the Esc that ends the run quits.
    sleep(Duration::from_millis(1500));
    hold(&x, &["w"], 1.0);
    let log = finish(&x, child);
    assert!(log.contains("loaded with the window open"), "{log}");
    assert!(log.contains("[progress bar shown at"), "no bar: {log}");
    let window_open = log.find("OpenGL").expect("the window's context line");
    let map_in = log.find("map: terrain.obj").expect("the map came in");
    assert!(
        window_open < map_in,
        "the window opened after the map: {log}"
    );
    assert!(log.contains("loaded terrain.obj"), "{log}");
    assert!(
        !log.contains("map: built-in map"),
        "the stand-in is not reported: {log}"
    );

    // R while it loads would reload the built-in map standing in: refused, said; then
    // Esc gives the load up, the built-in map stays and the window with it.
    let (child, _win) = launch_in(&x, &args, &dir);
    x.xdotool(&["key", "r"]);
    sleep(Duration::from_millis(200));
    x.xdotool(&["key", "Escape"]);
    sleep(Duration::from_millis(500));
    hold(&x, &["w"], 0.5);
    let log = finish(&x, child);
    assert_eq!(
        log.matches("cancelled; still walking the map you had: built-in map")
            .count(),
        1,
        "{log}"
    );
    assert!(!log.contains("map: terrain.obj"), "{log}");
    assert!(log.contains("R and U work once it is in"), "{log}");
    assert!(
        !log.contains("loaded built-in map"),
        "R reloaded the stand-in: {log}"
    );

    // --forget drops the frame remembered for the file from the store the window saves
    // (the loader's copy did, and R brought the frame back); --exit-after counts from
    // when the map is in, as from a window that opened once it was.
    let config = dir.join("walkthrough-config");
    let key = walkthrough_core::store::ContentKey::of_file(&map).unwrap();
    let frame = walkthrough_core::map::MapFrame {
        up: walkthrough_core::map::UpAxis::Z,
        scale: 0.5,
    };
    let mut store = walkthrough_core::store::Store::load(Some(&config)).store;
    store.remember(&key, &map, frame).unwrap();
    let forget = [m, "--no-map-cache", "--forget", "--exit-after", "1"];
    let (child, win) = launch_in(&x, &forget, &dir);
    wait_for_title(&x, &win, "terrain.obj", 90);
    x.xdotool(&["key", "r"]);
    let log = wait_for_exit(child, "--exit-after never closed the window");
    assert!(log.contains("forgot the up axis and scale"), "{log}");
    assert!(!log.contains("as you set it"), "{log}");
    assert!(
        log.contains("map: terrain.obj"),
        "quit before the map was in: {log}"
    );
    let store = walkthrough_core::store::Store::load(Some(&config)).store;
    assert_eq!(store.recall(&key), None, "the frame came back");

    a_bad_last_line_closes_the_window(&x, &dir, &obj);
}

/// The first map's third run: a big file with a bad last line closes the window with the
/// error at that line, exit 1, as before opening.
fn a_bad_last_line_closes_the_window(x: &Xvfb, dir: &Path, obj: &str) {
    let bad = dir.join("bad.obj");
    let line = obj.lines().count() + 1;
    std::fs::write(&bad, format!("{obj}f 1 2 nope\n")).unwrap();
    // Not spawn_in: its retry takes an app that fails at once for a refused display.
    let args = [
        bad.to_str().unwrap(),
        "--no-map-cache",
        "--exit-after",
        "120",
    ];
    let mut child = command_in(x, &args, dir)
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the window did not close on the bad file");
        }
        sleep(Duration::from_millis(100));
    };
    let err = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
    assert!(!status.success(), "{err}");
    assert!(
        err.contains(&format!("walkthrough: error: {}:{line}:", bad.display())),
        "{err}"
    );
}

/// Once the renderer has the map's triangles, the map lets its own go (0.96
/// GB at ten million triangles); the window still rescales and walks, and a map with a
/// mirror keeps them (its mirrors are found from them again at a rescale).
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_maps_drawn_triangles_are_let_go_once_uploaded_and_it_still_rescales_and_walks() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("let-go");
    let trace = dir.join("trace.csv");
    let t = trace.to_str().unwrap();
    let (child, _win) = launch_in(&x, &["--verbose", "--trace", t, "--exit-after", "60"], &dir);
    x.xdotool(&["key", "bracketright"]);
    sleep(Duration::from_millis(800));
    hold(&x, &["w"], 1.0);
    let shot = f12(&x, &dir, 1);
    let log = finish(&x, child);
    assert!(log.contains("drawn triangles let go"), "{log}");
    assert!(log.contains("rescaled in place"), "{log}");
    let walked = walked_across(&trace);
    assert!(walked > 0.5, "walked {walked} m after the rescale");
    let [r, g, b] = centre_colour(&shot, 16);
    assert!(r + g + b > 60.0, "the rescaled map is not drawn");

    // A map loaded in the window (R) lets go too, and walks.
    let trace = dir.join("trace-reload.csv");
    let t = trace.to_str().unwrap();
    let (child, _win) = launch_in(&x, &["--verbose", "--trace", t, "--exit-after", "60"], &dir);
    x.xdotool(&["key", "r"]);
    sleep(Duration::from_millis(1500));
    x.xdotool(&["key", "bracketleft"]);
    sleep(Duration::from_millis(500));
    hold(&x, &["w"], 1.0);
    let log = finish(&x, child);
    assert!(
        log.contains("loaded built-in map"),
        "R did not reload: {log}"
    );
    assert_eq!(log.matches("drawn triangles let go").count(), 2, "{log}");
    let walked = walked_across(&trace);
    assert!(
        walked > 0.5,
        "walked {walked} m after the reload and rescale"
    );

    let map = mirror_room(&dir);
    let m = map.to_str().unwrap();
    let args = [m, "--mirror", "glass", "--verbose", "--exit-after", "30"];
    let (child, _win) = launch_in(&x, &args, &dir);
    let log = finish(&x, child);
    assert!(log.contains("a rescale finds its mirrors (1)"), "{log}");
    assert!(!log.contains("drawn triangles let go"), "{log}");
}

/// The number after `prefix` on the first line of `log` that has it.
fn number_after(log: &str, prefix: &str) -> Option<f32> {
    let rest = log
        .lines()
        .find_map(|l| l.split_once(prefix).map(|(_, r)| r))?;
    rest.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .next()?
        .parse()
        .ok()
}

/// In a room 10 m long: I says what the crosshair is on (the floor, 1.6 / sin 30 = 3.2 m
/// down the view); L marks it; T stands the walker on it (recorded: `sim` replays the
/// recording to the window's trace byte for byte); L again, from there, marks the floor
/// as far on and says the distance between the marks.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn l_measures_between_two_marks_i_says_what_is_aimed_at_and_t_teleports_recorded() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("measure");
    let room = dir.join("room10.obj");
    std::fs::write(
        &room,
        "v -5 0 -2\nv 5 0 -2\nv 5 0 2\nv -5 0 2\nv -5 3 -2\nv 5 3 -2\nv 5 3 2\nv -5 3 2\n\
         f 4 3 2 1\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n",
    )
    .unwrap();
    let (rec, trace) = (dir.join("rec.txt"), dir.join("trace.csv"));
    let (child, _win) = launch(
        &x,
        &[
            room.to_str().unwrap(),
            "--spawn",
            "2,1.6,0",
            "--yaw",
            "90",
            "--pitch",
            "-30",
            "--record",
            rec.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
            "--exit-after",
            "40",
        ],
    );
    for key in ["i", "l", "t", "l"] {
        x.xdotool(&["key", key]);
        sleep(Duration::from_millis(600));
    }
    let log = finish(&x, child);
    let seen = number_after(&log, "on: room10.obj, material none, ").expect(&log);
    assert!((seen - 3.2).abs() < 0.01, "{log}");
    // The floor 1.6 / tan 30 = 2.771 m ahead (toward -X) of x = 2.
    let ahead = 2.0 - 1.6 / 30f32.to_radians().tan();
    let rows = read_trace(&trace);
    let last = rows.last().unwrap();
    assert!(
        (last.x - ahead).abs() < 0.01 && last.z.abs() < 0.01,
        "{log}"
    );
    assert!((last.y - 1.6).abs() < 0.01 && last.ground, "{log}");
    // From there the view meets the floor another 2.771 m on: the second mark.
    let want = 1.6 / 30f32.to_radians().tan();
    let said: f32 = log
        .lines()
        .find_map(|l| {
            l.strip_prefix("measure: ")?
                .strip_suffix(" m")?
                .parse()
                .ok()
        })
        .expect(&log);
    assert!(
        (said - want).abs() < 0.01,
        "said {said}, want {want}\n{log}"
    );
    assert!(log.contains("teleported to "), "{log}");
    let (replay, window) = (
        sim_trace_on(Some(&room), &rec),
        std::fs::read_to_string(&trace).unwrap(),
    );
    assert!(
        replay
            .lines()
            .any(|l| l.contains(&format!("{:.6}", last.x)))
    );
    assert!(
        replay == window,
        "sim's replay of the recorded teleport differs"
    );
}

/// Clock ticks a second (`getconf CLK_TCK`: 100 on Linux).
const TICKS_PER_SECOND: u64 = 100;

/// The CPU time process `pid` has used, in clock ticks (user and system, /proc).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Past the command's name in parentheses: state is field 3, utime 14, stime 15.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Minimised, the window draws nothing and its loop waits: under a tenth of a core over
/// two seconds (drawing, it takes most of one under llvmpipe); given back, it draws again
/// (F12 saves a frame).
#[test]
#[ignore = "needs Xvfb, xdotool and openbox; .ci/run runs it"]
fn a_minimised_window_draws_nothing_and_idles() {
    let (x, _one) = Xvfb::start();
    let _wm = WindowManager::start(&x);
    let dir = out_dir("minimised");
    let (child, win) = launch_in(&x, &["--size", "640x360", "--exit-after", "40"], &dir);
    let pid = child.id();
    x.xdotool(&["windowminimize", "--sync", &win]);
    sleep(Duration::from_millis(500));
    let before = cpu_ticks(pid);
    sleep(Duration::from_secs(2));
    let used = cpu_ticks(pid) - before;
    assert!(
        used * 10 < 2 * TICKS_PER_SECOND,
        "minimised, it used {used} ticks in 2 s"
    );
    x.xdotool(&["windowmap", "--sync", &win]);
    x.xdotool(&["windowfocus", "--sync", &win]);
    sleep(Duration::from_millis(500));
    let shot = f12(&x, &dir, 1);
    assert!(shot.exists());
    let log = finish(&x, child);
    assert!(!log.contains("panicked"), "{log}");
}

/// F1 and F2 never stack: the later replaces the earlier, and Esc closes either. Each
/// picture is compared with the one of that overlay alone (the help and the panel each
/// cover the middle of the window, so either under the other would show).
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn f1_and_f2_replace_each_other_and_esc_closes_either() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("help-settings");
    let args = ["--spawn", "0,1.6,4", "--yaw", "0", "--exit-after", "60"];
    let (child, _win) = launch_in(&x, &args, &dir);
    let key = |k: &str| {
        x.xdotool(&["key", k]);
        sleep(Duration::from_millis(400));
    };
    let plain = f12(&x, &dir, 1);
    key("F2");
    let panel = f12(&x, &dir, 2);
    key("F2");
    key("F1");
    let help = f12(&x, &dir, 3);
    key("F2");
    let panel_over_help = f12(&x, &dir, 4);
    key("F1");
    let help_over_panel = f12(&x, &dir, 5);
    key("Escape");
    let help_closed = f12(&x, &dir, 6);
    key("F2");
    key("Escape");
    let panel_closed = f12(&x, &dir, 7);
    let log = finish(&x, child);
    // The measure tells the three apart.
    for (a, b) in [(&plain, &panel), (&plain, &help), (&panel, &help)] {
        assert!(middle_difference(a, b) > 5.0, "{a:?} {b:?}\n{log}");
    }
    for (got, want, what) in [
        (&panel_over_help, &panel, "F2 over the help"),
        (&help_over_panel, &help, "F1 over the panel"),
        (&help_closed, &plain, "Esc on the help"),
        (&panel_closed, &plain, "Esc on the panel"),
    ] {
        let d = middle_difference(got, want);
        assert!(d < 1.0, "{what}: {d}\n{log}");
    }
}

/// A grey room (10 x 3 x 10 m, walls wound inward) as [`GreyRoom`] says: the OBJ and its
/// materials in `dir`.
fn lighting_room(dir: &Path, room: GreyRoom) -> PathBuf {
    std::fs::write(
        dir.join("room.mtl"),
        "newmtl grey\nKd 0.7 0.7 0.7\nnewmtl red\nKd 0.8 0.1 0.1\n",
    )
    .unwrap();
    let mut obj = String::from("mtllib room.mtl\n");
    let mut faces = String::new();
    let mut add_box = |lo: [f32; 3], hi: [f32; 3], material: &str, inside: bool| {
        let base = obj.lines().filter(|l| l.starts_with("v ")).count() + 1;
        for i in 0..8 {
            let c = |axis: usize, bit: usize| if i & bit == 0 { lo[axis] } else { hi[axis] };
            obj += &format!("v {} {} {}\n", c(0, 4), c(1, 2), c(2, 1));
        }
        // Corner (x, y, z) is vertex base + 4x + 2y + z; each face wound outward.
        let quads = [
            [0, 1, 3, 2],
            [4, 6, 7, 5],
            [0, 4, 5, 1],
            [2, 3, 7, 6],
            [0, 2, 6, 4],
            [1, 5, 7, 3],
        ];
        faces += &format!("usemtl {material}\n");
        for (n, q) in quads.iter().enumerate() {
            // The room, seen from inside: its ceiling (3) only where asked for, its
            // floor (2) whole only where it is not tiled.
            if inside && ((n == 3 && !room.ceiling) || (n == 2 && room.tiled_floor)) {
                continue;
            }
            let mut q = q.map(|k| k + base);
            if inside {
                q.reverse();
            }
            faces += &format!("f {} {} {} {}\n", q[0], q[1], q[2], q[3]);
        }
    };
    add_box([-5.0, 0.0, -5.0], [5.0, 3.0, 5.0], "grey", true);
    if room.cube {
        add_box([-0.5, 0.0, -3.5], [0.5, 1.0, -2.5], "red", false);
    }
    if room.tiled_floor {
        // Quarter-metre tiles, wound to face up: vertices near the cube's foot.
        let base = obj.lines().filter(|l| l.starts_with("v ")).count() + 1;
        let n = 40;
        for i in 0..=n {
            for j in 0..=n {
                obj += &format!(
                    "v {} 0 {}\n",
                    -5.0 + 0.25 * i as f32,
                    -5.0 + 0.25 * j as f32
                );
            }
        }
        faces += "usemtl grey\n";
        let v = |i: usize, j: usize| base + i * (n + 1) + j;
        for i in 0..n {
            for j in 0..n {
                let q = [v(i, j), v(i, j + 1), v(i + 1, j + 1), v(i + 1, j)];
                faces += &format!("f {} {} {} {}\n", q[0], q[1], q[2], q[3]);
            }
        }
    }
    let name = format!(
        "{}{}{}.obj",
        if room.cube { "cube" } else { "room" },
        if room.ceiling { "-closed" } else { "" },
        if room.tiled_floor { "-tiled" } else { "" }
    );
    let path = dir.join(name);
    std::fs::write(&path, obj + &faces).unwrap();
    path
}

/// What [`lighting_room`] makes.
#[derive(Clone, Copy, Default)]
struct GreyRoom {
    /// A red 1 m cube on the floor, 3 m ahead of the centre.
    cube: bool,
    /// Closed above (the sun reaches none of it).
    ceiling: bool,
    /// The floor in quarter-metre tiles, not two triangles.
    tiled_floor: bool,
}

/// The share of the pixels below the HUD (the lower 55% of the picture) that are grey in
/// `with` (not the red cube itself: its channels differ by more than a few steps) and
/// darker by over `by` (0.15: 15%) than in `without` (the sum of their channels).
fn darkened_share(with: &Path, without: &Path, by: f64) -> f64 {
    let (a, b) = (
        image::open(with).expect("a PNG").to_rgb8(),
        image::open(without).expect("a PNG").to_rgb8(),
    );
    assert_eq!(a.dimensions(), b.dimensions());
    let (w, h) = a.dimensions();
    let (mut darker, mut n) = (0u32, 0u32);
    for y in h * 45 / 100..h {
        for x in 0..w {
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            n += 1;
            let grey = p.iter().max().unwrap() - p.iter().min().unwrap() <= 12;
            let sum = |c: [u8; 3]| c.iter().map(|&v| f64::from(v)).sum::<f64>();
            if grey && sum(p) < (1.0 - by) * sum(q) {
                darker += 1;
            }
        }
    }
    f64::from(darker) / f64::from(n)
}

#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn a_cube_on_the_floor_casts_a_shadow_with_lighting_on_and_none_with_it_off() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("cube-shadow");
    let room = lighting_room(&dir, GreyRoom::default());
    let cube = lighting_room(
        &dir,
        GreyRoom {
            cube: true,
            ..GreyRoom::default()
        },
    );
    let shot = |map: &Path, lighting: &str| room_shot(&x, &dir, map, lighting);
    let lit = darkened_share(&shot(&cube, "on"), &shot(&room, "on"), 0.15);
    assert!(lit >= 0.01, "lighting on: {:.2}% darkened", lit * 100.0);
    let flat = darkened_share(&shot(&cube, "off"), &shot(&room, "off"), 0.15);
    assert_eq!(flat, 0.0, "lighting off: {:.2}% darkened", flat * 100.0);
    // `auto` (the default) is off on a software renderer, as Xvfb's llvmpipe is.
    let auto = darkened_share(&shot(&cube, "auto"), &shot(&room, "auto"), 0.15);
    assert_eq!(auto, 0.0, "lighting auto: {:.2}% darkened", auto * 100.0);
    eprintln!(
        "the cube darkens {:.2}% of the view lit, {:.2}% flat",
        lit * 100.0,
        flat * 100.0
    );
}

/// A screenshot of `map` (a [`lighting_room`]) with `--lighting lighting`, 640x400, from 3 m
/// before the cube's place, looking at it across the default sun's light (which travels
/// along -0.8 x, -0.6 z across the floor: a shadow falls to the cube's left, in view),
/// after a second (the ambient occlusion of a small map is baked by then).
fn room_shot(x: &Xvfb, dir: &Path, map: &Path, lighting: &str) -> PathBuf {
    let still = dir.join("still.txt");
    std::fs::write(&still, "start -1.8,1.6,-0.6 -37 -15\nwait 1\n").unwrap();
    let name = map.file_stem().unwrap().to_str().unwrap();
    let shot = dir.join(format!("{name}-{lighting}.png"));
    let args = [
        map.to_str().unwrap(),
        "--size",
        "640x400",
        "--lighting",
        lighting,
        "--script",
        still.to_str().unwrap(),
        "--screenshot",
        shot.to_str().unwrap(),
        "--exit-when-done",
    ];
    wait_for_exit(spawn_in(x, &args, dir), "the window did not close");
    shot
}

/// In a room closed above (no sun), with a floor of quarter-metre tiles, the floor at a
/// cube's foot is darker with the cube than without it (its ambient occlusion, baked at
/// the tiles' corners: 2% of the view below the HUD by over 5%, none without the bake),
/// lit; the flat light draws no difference past the cube's edge.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn the_floor_at_a_cube_s_foot_darkens_with_ambient_occlusion_and_not_in_the_flat_light() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("cube-ambient");
    let closed = GreyRoom {
        ceiling: true,
        tiled_floor: true,
        ..GreyRoom::default()
    };
    let room = lighting_room(&dir, closed);
    let cube = lighting_room(
        &dir,
        GreyRoom {
            cube: true,
            ..closed
        },
    );
    let shot = |map: &Path, lighting: &str| room_shot(&x, &dir, map, lighting);
    let lit = darkened_share(&shot(&cube, "on"), &shot(&room, "on"), 0.05);
    assert!(lit >= 0.01, "lighting on: {:.2}% darkened", lit * 100.0);
    // Flat, only the cube's own edge pixels (grey blended with a little red).
    let flat = darkened_share(&shot(&cube, "off"), &shot(&room, "off"), 0.05);
    assert!(flat < 0.001, "lighting off: {:.2}% darkened", flat * 100.0);
    eprintln!(
        "the cube's foot darkens {:.2}% of the view lit, {:.2}% flat",
        lit * 100.0,
        flat * 100.0
    );
}

/// In third person with a wall 0.7 m behind the walker, the boom is pushed in to about
/// 0.6 m, over the head: the figure, that close, would fill the middle of the view
/// (its head drawn opaque: 15 in 100 of the middle's pixels, the crosshair on it);
/// faded, it hides nothing, and the crosshair stays the aim.
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn with_a_wall_close_behind_the_figure_fades_out_of_the_third_persons_view() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("third-wall");
    // A closed grey room 10 m square and 3 m high; the walker 0.7 m from its +Z wall,
    // facing away from it (down -Z).
    let room = common::cube(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 3.0, 5.0));
    std::fs::write(dir.join("room.obj"), obj_text(&room)).unwrap();
    let room = dir.join("room.obj");
    let text = "view third\nstart 0,1.6,4.3 0 0\nwait 0.8\n";
    let img = script_shot(&x, &dir, "backed", &[room.to_str().unwrap()], text);
    // The middle of the view, clear of the HUD's box, the minimap and the notices.
    // The figure's colours are warm (the head's skin, the orange torso: red over blue by
    // 40 of 255 or more); the room is grey.
    let (mut figure, mut all) = (0, 0);
    for y in 150..450 {
        for x in 240..720 {
            let p = img.get_pixel(x, y);
            figure += usize::from(i32::from(p[0]) > i32::from(p[2]) + 40);
            all += 1;
        }
    }
    let share = figure as f32 / all as f32;
    assert!(share < 0.02, "the figure fills {share} of the middle");
}

/// The eye of `scene` placed at `height` over the middle of its water's surface (y -0.3,
/// x 0, z -6), flying, looking level down the pool: its screenshot.
fn at_the_surface(x: &Xvfb, dir: &Path, scene: &Path, height: f32) -> image::RgbImage {
    let y = -0.3 + height;
    let text = format!("start 0,{y},-6 0 0\nwait 0.2\n");
    let args = [scene.to_str().unwrap(), "--mode", "fly"];
    script_shot(x, dir, &format!("surface{height}"), &args, &text)
}

/// With the eye at the water's surface (within the near plane's reach of it), the view
/// is the view from just under it: no band where the surface, edge-on, was cut by the
/// near plane (from 0.5 mm over it a strip of water under the horizon, from 5 mm a
/// smeared band down to the middle of the lower half, the pool untinted past it).
#[test]
#[ignore = "needs Xvfb and xdotool; .ci/run runs it"]
fn an_eye_at_the_water_s_surface_sees_no_band_across_the_view() {
    let (x, _one) = Xvfb::start();
    let dir = out_dir("water-band");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/water-scene/scene.toml");
    let under = at_the_surface(&x, &dir, &scene, -0.005);
    for height in [0.0005, 0.005] {
        let at = at_the_surface(&x, &dir, &scene, height);
        // Rows of the left third under the HUD's box and the minimap (the notices stand
        // in the middle): a row whose mean colour differs from the view under water's.
        // A 1 cm higher eye moves an edge by a row at most; the band was 15 rows or more.
        let differing = (220..600)
            .filter(|&y| {
                let sum: u32 = (0..320)
                    .map(|x| {
                        let (p, q) = (at.get_pixel(x, y), under.get_pixel(x, y));
                        (0..3).map(|c| u32::from(p[c].abs_diff(q[c]))).sum::<u32>()
                    })
                    .sum();
                sum as f32 / (3.0 * 320.0) > 12.0
            })
            .count();
        assert!(
            differing < 8,
            "{differing} rows differ from the view under water at {height} m over it"
        );
    }
}
