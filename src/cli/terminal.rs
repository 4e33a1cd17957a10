//! What the window and `sim` both tell the terminal or ask of it: what loading a map
//! found, the store's warnings (never errors), peak memory, and whether a
//! signal asked the program to stop.

/// A line to standard error, as `eprintln!` writes it, except that an error writing it is
/// passed over: `eprintln!` panics on one, and a user's `walkthrough ... 2>&1 | head -3`
/// closes the pipe while the program still has lines to say (exit code 101, a panic, in
/// 3 runs of 6). Nothing the program says to standard error is worth ending it for.
macro_rules! tell {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// [`tell!`] without the line's end (the progress line, written over in place).
macro_rules! tell_part {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use std::path::{Path, PathBuf};

use walkthrough_core::map::progress::{PROGRESS_AFTER, Progress};
use walkthrough_core::preferences::WALKING_SPEED_RANGE;
use walkthrough_core::session::open::{self, OpenWith};
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::sim::{Command, RecordedOn, Script};
use walkthrough_core::store::{self, ContentKey, LEGACY_FILE, STORE_FILE, Store};
use walkthrough_core::text::quote::{escape, escape_lines};

/// A map opened as the user asked (see [`open_and_tell`]).
pub struct Opened {
    /// The map, its world and spawn.
    pub session: Session,
    /// The settings and what is remembered of maps (the window adds to them).
    pub store: Store,
    /// The map file's content key, when it has one to remember a correction by.
    pub content_key: Option<ContentKey>,
}

/// Open `map` (the built-in one for `None`) under `open` through [`open::open`], telling
/// the terminal what it does: the store's warnings, how far a long load has come (on a
/// terminal), what the store said of the file (a correction remembered for it fills
/// what the command line left open; `forget` drops it instead), then what loading found
/// (the details too with `verbose`). A signal cancels the load.
pub fn open_and_tell(
    map: Option<&Path>,
    open: OpenOptions,
    forget: bool,
    verbose: bool,
) -> Result<Opened, String> {
    let mut store = load_store();
    let progress = Progress::default();
    let done = AtomicBool::new(false);
    let name = map.map_or("the built-in map".to_string(), |p| p.display().to_string());
    // A long load says how far it has come, on a terminal (the window is not open yet).
    let shown = std::io::stderr().is_terminal().then_some(name.as_str());
    let stuck = || end_cancelled(&name);
    let opened = std::thread::scope(|s| {
        let watcher = s.spawn(|| watch_load(shown, &progress, &done, interrupted, &stuck));
        // Told the load ended however it ends: a loader's panic, with the watcher left
        // looking, would have the scope wait for it for ever.
        let _ended = Ended {
            done: &done,
            watcher: watcher.thread(),
        };
        open::open(
            map,
            &open,
            OpenWith::user(Some(&mut store), forget, &progress),
        )
    });
    let opened = match opened {
        Ok(o) => o,
        Err(e) => {
            say_recalled(e.recalled.as_deref());
            return Err(e.error.to_string());
        }
    };
    say_recalled(opened.recalled.as_deref());
    report_loaded(&opened.session, verbose);
    Ok(Opened {
        session: opened.session,
        store,
        content_key: opened.key,
    })
}

/// What the store said of the map file as it opened (forgotten, or a save that failed),
/// if anything.
fn say_recalled(note: Option<&str>) {
    if let Some(note) = note {
        say(note);
    }
}

/// The built-in map, opened quietly to stand in while the map the window was opened for
/// loads (see `app::loads_in_the_window`), and the settings store.
pub fn open_stand_in() -> Result<Opened, String> {
    let store = load_store();
    let session = Session::open(None, &OpenOptions::default()).map_err(|e| e.to_string())?;
    Ok(Opened {
        session,
        store,
        content_key: None,
    })
}

/// Tells a load's watcher that the load ended, as it is dropped (on a panic too).
struct Ended<'a> {
    done: &'a AtomicBool,
    watcher: &'a std::thread::Thread,
}

impl Drop for Ended<'_> {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        self.watcher.unpark();
    }
}

/// How often a load is looked at: the terminal's progress line written again, and a
/// signal passed on to the loader.
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// How long a load told to stop (a signal) is given to reach its next look at its
/// progress. A stage that never looks (the collision world's build: seconds at ten
/// million triangles, which a Ctrl-C would wait out) is not waited for: the
/// program ends from the watcher (see [`end_cancelled`]).
const CANCEL_GRACE: Duration = Duration::from_millis(500);

/// Watch a load until `done` (the loader wakes this thread then: it never waits out a
/// look): once `stop` says a signal came (Ctrl-C during a load of seconds), cancel it, so
/// that the loader stops at its next look at `progress` instead of finishing first, and
/// should it not stop within [`CANCEL_GRACE`], call `stuck` (which ends the program) and
/// return; and with a `shown` name, once the load has taken [`PROGRESS_AFTER`], rewrite
/// one line on the terminal with what it is doing, cleared at the end.
fn watch_load(
    shown: Option<&str>,
    progress: &Progress,
    done: &AtomicBool,
    stop: fn() -> bool,
    stuck: &(dyn Fn() + Sync),
) {
    let since = Instant::now();
    let mut line_shown = false;
    let mut cancelled_at: Option<Instant> = None;
    while !done.load(Ordering::Relaxed) {
        std::thread::park_timeout(WATCH_EVERY);
        if done.load(Ordering::Relaxed) {
            break;
        }
        if cancelled_at.is_none() && stop() {
            progress.cancel();
            cancelled_at = Some(Instant::now());
        }
        if cancelled_at.is_some_and(|t| t.elapsed() >= CANCEL_GRACE) {
            if line_shown {
                tell_part!("\r\x1b[2K");
            }
            stuck();
            return;
        }
        if let Some(name) = shown.filter(|_| since.elapsed() >= PROGRESS_AFTER) {
            let line = format!(
                "loading {name}: {} ... {:.1} s",
                progress.doing(),
                since.elapsed().as_secs_f32()
            );
            tell_part!("\r\x1b[2K{}", escape_lines(&line));
            line_shown = true;
        }
    }
    if line_shown {
        tell_part!("\r\x1b[2K");
    }
}

/// End the program whose load of `name` was cancelled by a signal but does not stop (see
/// [`CANCEL_GRACE`]): what the loader keeps in the cache is given up and its part
/// removed, and the run ends as a load that stopped itself would
/// (`walkthrough: error: NAME: loading was cancelled`, exit status 1).
fn end_cancelled(name: &str) {
    let cancelled = walkthrough_core::map::MapError::Cancelled {
        path: name.to_string(),
    };
    end_run(Err(cancelled.to_string()), &|| true);
    std::process::exit(1)
}

/// The end of every run with its `result`: the built maps still being kept are waited
/// for (until `given_up`) and each that failed said, then an error is said as every
/// error is (`walkthrough: error: ...`); the exit status for it.
pub fn end_run(result: Result<(), String>, given_up: &dyn Fn() -> bool) -> ExitCode {
    for w in walkthrough_core::session::cache::finish_keeping(given_up) {
        say(&format!("warning: {w}"));
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A message may quote a user's file: never raw control bytes on the terminal.
            tell!("walkthrough: error: {}", escape_lines(&e));
            ExitCode::FAILURE
        }
    }
}

/// The files a run reads, which no output may overwrite: the map's, the script, and the
/// program's own (the settings file, the one earlier versions kept, and the folder of
/// cached levels of detail: an output there would be read back as one of them).
pub fn inputs(session: &Session, script: Option<&PathBuf>) -> Vec<PathBuf> {
    inputs_of(&session.map.inputs, script)
}

/// The files known to be read before the map is: the map file itself (not yet its
/// materials and textures), the script and the program's own (see [`inputs`]). What
/// `sim` checks its outputs against before loading, so that a path that cannot be
/// written is said at once, not after the load.
pub fn inputs_before_load(map: Option<&Path>, script: Option<&PathBuf>) -> Vec<PathBuf> {
    let map: Vec<PathBuf> = map.map(Path::to_path_buf).into_iter().collect();
    inputs_of(&map, script)
}

/// `map_files`, the script and the program's own files.
fn inputs_of(map_files: &[PathBuf], script: Option<&PathBuf>) -> Vec<PathBuf> {
    let own = store::config_dir()
        .into_iter()
        .flat_map(|d| {
            let aside = store::set_aside_files(&d);
            [d.join(STORE_FILE), d.join(LEGACY_FILE)]
                .into_iter()
                .chain(aside)
        })
        .chain(store::cache_dir());
    map_files.iter().chain(script).cloned().chain(own).collect()
}

/// Warn about each `start` line of the script at `path` that puts the eye outside the
/// map, or where a walk leaves an open map, as `--spawn` is warned about (the file and
/// line named); one that puts it inside a closed solid is moved out of it (see
/// [`crate::survey::checked_start`]).
pub fn warn_starts(session: &Session, script: Option<&mut Script>, path: Option<&Path>) {
    let Some(script) = script else { return };
    let name = path.map_or(String::from("script"), |p| p.display().to_string());
    if let Some(on) = &script.recorded_on
        && let Some(w) = recorded_elsewhere(session, on)
    {
        say(&format!("warning: {name}:{}: {w}", on.line));
    }
    for (c, line) in script.commands.iter_mut().zip(&script.lines) {
        let Command::Start(pose) = c else { continue };
        let checked = session.checked_start(pose.position);
        pose.position = checked.eye;
        if let Some(w) = checked.warning {
            say(&format!("warning: {name}:{line}: {w}"));
        }
    }
}

/// Warn about a walking speed outside [`WALKING_SPEED_RANGE`], the speeds the settings
/// and the mouse wheel allow: `--speed` (`flag`) and each `speed` line of the script at
/// `path`. Any positive speed works (every move is swept, whatever its length), so it is
/// said, not refused (`--speed 1e9` would go without a word while F2 stops at 100).
pub fn warn_speeds(flag: Option<f32>, script: Option<&Script>, path: Option<&Path>) {
    let far = |v: f32| !WALKING_SPEED_RANGE.contains(&v);
    let range = format!(
        "outside {} to {} m/s, the walking speeds the settings allow: is it right?",
        WALKING_SPEED_RANGE.start(),
        WALKING_SPEED_RANGE.end()
    );
    if let Some(v) = flag.filter(|&v| far(v)) {
        say(&format!("warning: --speed {v} is {range}"));
    }
    let Some(script) = script else { return };
    let name = path.map_or(String::from("script"), |p| p.display().to_string());
    for (c, line) in script.commands.iter().zip(&script.lines) {
        if let Command::Speed(v) = *c
            && far(v)
        {
            say(&format!("warning: {name}:{line}: speed {v} is {range}"));
        }
    }
}

/// Where a script whose first line is `start` begins: it walks from there, not from the
/// spawn the load's line gave (a recording replayed reads as walked from the spawn
/// otherwise).
pub fn say_script_start(script: &Script) {
    let Some(s) = script
        .starts()
        .next()
        .filter(|s| script.lines.first() == Some(&s.line))
    else {
        return;
    };
    let p = s.pose.position;
    tell!(
        "start: {:.3},{:.3},{:.3} (world coordinates), yaw {:.0}: the script's line {}, not the spawn",
        p.x,
        p.y,
        p.z,
        s.pose.yaw_deg,
        s.line
    );
}

/// What is wrong with replaying a recording made on `on` in `session`: another map (by
/// file name: a folder moved is the same map), or the same in another frame. Its `start`
/// lines are world coordinates there (a recording of the built-in map replayed on
/// cornell_box would be warned of only as a start outside the map).
fn recorded_elsewhere(session: &Session, on: &RecordedOn) -> Option<String> {
    let map = &session.map;
    // As the window's header names it: escaped (see `recording_about`).
    let here = map
        .source
        .as_ref()
        .map_or("the built-in map".to_string(), |p| {
            escape(&p.display().to_string()).into_owned()
        });
    let name = |m: &str| {
        Path::new(m)
            .file_name()
            .map_or(m.to_string(), |n| n.to_string_lossy().into_owned())
    };
    let flags = map.frame.flags();
    if name(&on.map) != name(&here) {
        return Some(format!(
            "recorded on {}; this is {here}: its start lines are places in that map",
            on.map
        ));
    }
    let frame = on.frame.as_ref().filter(|f| **f != flags)?;
    Some(format!(
        "recorded with {frame}; this map is {flags}: its start lines are world coordinates of that frame"
    ))
}

/// Print a line (or lines) of a message to the terminal, its control bytes escaped: what
/// it quotes of a user's file never reaches the terminal raw.
pub fn say(message: &str) {
    tell!("{}", escape_lines(message));
}

/// Peak resident memory of this process (Linux), e.g. "152 MiB".
pub fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(format!("{} MiB", kb / 1024))
}

/// The store (settings, and what is remembered of maps) from the config folder; what is
/// wrong with it is printed as warnings (never an error).
pub fn load_store() -> Store {
    let loaded = Store::load(store::config_dir().as_deref());
    for w in &loaded.warnings {
        say(&format!("warning: {w}"));
    }
    loaded.store
}

/// Print what loading a map found: its warnings (and with `verbose` the details they
/// summarise), then the map's description.
pub fn report_loaded(session: &Session, verbose: bool) {
    let map = &session.map;
    for w in &map.warnings {
        say(&format!("warning: {w}"));
    }
    if verbose {
        for d in &map.details {
            say(&format!("  {d}"));
        }
    }
    say(&session.describe());
}

/// Set by Ctrl-C, SIGTERM or SIGHUP: finish the trace's rows and quit.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// A signal asked the program to stop (see [`INTERRUPTED`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Catch Ctrl-C, SIGTERM and SIGHUP (see [`interrupted`]): without a handler a signal
/// kills the process with rows still in the trace's buffer.
pub fn catch_signals() {
    if let Err(e) = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed)) {
        tell!("warning: Ctrl-C will not close the trace cleanly ({e})");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signalled() -> bool {
        true
    }

    fn quiet() -> bool {
        false
    }

    /// `sim_interrupted_while_loading_stops_the_load`: a signal during a load cancels it
    /// (the loader stops at its next look), where the load used to run to its end first.
    #[test]
    fn a_signal_during_a_load_cancels_it() {
        let (progress, done) = (Progress::default(), AtomicBool::new(false));
        std::thread::scope(|s| {
            let watcher = s.spawn(|| watch_load(None, &progress, &done, signalled, &|| {}));
            // A watchdog, not a timing: the watcher looks every quarter second.
            let deadline = Instant::now() + Duration::from_secs(30);
            while !progress.cancelled() {
                assert!(Instant::now() < deadline, "the load was never cancelled");
                std::thread::sleep(Duration::from_millis(10));
            }
            done.store(true, Ordering::Relaxed);
            watcher.thread().unpark();
        });
    }

    /// A loader's panic left the watcher looking, and the scope
    /// waiting for it for ever (caught here by a watchdog, not a timing).
    #[test]
    fn a_loader_s_panic_ends_the_watch() {
        let (progress, done) = (Progress::default(), AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                std::thread::scope(|s| {
                    let watcher = s.spawn(|| watch_load(None, &progress, &done, quiet, &|| {}));
                    let _ended = Ended {
                        done: &done,
                        watcher: watcher.thread(),
                    };
                    panic!("a loader's bug");
                })
            }));
            let _ = tx.send(panicked.is_err());
        });
        let ended = rx.recv_timeout(Duration::from_secs(60));
        assert_eq!(ended, Ok(true), "the watch never ended");
    }

    /// A Ctrl-C while the collision world was built (a stage that
    /// never looks at its progress) waited seconds for the build. A load that does not
    /// stop once cancelled is given up by the watcher (here a loader that never stops;
    /// a watchdog, not a timing, catches a watcher that waits for it).
    #[test]
    fn a_load_that_does_not_stop_when_cancelled_is_given_up() {
        let (progress, done) = (Progress::default(), AtomicBool::new(false));
        let gave_up = AtomicBool::new(false);
        let stuck = || gave_up.store(true, Ordering::Relaxed);
        std::thread::scope(|s| {
            let watcher = s.spawn(|| watch_load(None, &progress, &done, signalled, &stuck));
            let deadline = Instant::now() + Duration::from_secs(30);
            while !watcher.is_finished() {
                assert!(Instant::now() < deadline, "the watcher waited for the load");
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        assert!(progress.cancelled() && gave_up.load(Ordering::Relaxed));
        assert!(!done.load(Ordering::Relaxed), "the load had ended");
    }

    #[test]
    fn a_load_without_a_signal_is_not_cancelled() {
        let (progress, done) = (Progress::default(), AtomicBool::new(false));
        std::thread::scope(|s| {
            let watcher = s.spawn(|| watch_load(None, &progress, &done, quiet, &|| {}));
            // Long enough for a few looks.
            std::thread::sleep(WATCH_EVERY * 3);
            done.store(true, Ordering::Relaxed);
            watcher.thread().unpark();
        });
        assert!(!progress.cancelled());
    }
}
