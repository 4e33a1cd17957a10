//! What the window and `sim` both tell the terminal or ask of it: what loading a map
//! found, the store's warnings (never errors), peak memory, and whether a
//! signal asked the program to stop.

use std::sync::atomic::{AtomicBool, Ordering};

use std::path::{Path, PathBuf};

use walkthrough::session::{OpenOptions, Session};
use walkthrough::store::{self, ContentKey, Store, recall};

/// A map opened as the user asked (see [`open_map`]).
pub struct Opened {
    /// The map, its world and spawn.
    pub session: Session,
    /// The settings and what is remembered of maps (the window adds to them).
    pub store: Store,
    /// The map file's content key, when it has one to remember a correction by.
    pub content_key: Option<ContentKey>,
}

/// Open `map` (the built-in one for `None`) under `open`: a correction remembered for the
/// file fills what the command line left open, and says so (`forget` drops it instead);
/// then what loading found is printed (the details too with `verbose`).
pub fn open_map(
    map: Option<&Path>,
    mut open: OpenOptions,
    forget: bool,
    verbose: bool,
) -> Result<Opened, String> {
    let mut store = load_store();
    let recalled = recall(&mut store, map, &mut open, forget);
    if let Some(note) = recalled.note {
        eprintln!("{note}");
    }
    let session = Session::open(map, &open).map_err(|e| e.to_string())?;
    report_loaded(&session, verbose);
    Ok(Opened {
        session,
        store,
        content_key: recalled.key,
    })
}

/// The files a run reads (the map's, and the script), which no output may overwrite.
pub fn inputs(session: &Session, script: Option<&PathBuf>) -> Vec<PathBuf> {
    session.map.inputs.iter().chain(script).cloned().collect()
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
        eprintln!("warning: {w}");
    }
    loaded.store
}

/// Print what loading a map found: its warnings (and with `verbose` the details they
/// summarise), then the map's description.
pub fn report_loaded(session: &Session, verbose: bool) {
    let map = &session.map;
    for w in &map.warnings {
        eprintln!("warning: {w}");
    }
    if verbose {
        for d in &map.details {
            eprintln!("  {d}");
        }
    }
    eprintln!("{}", session.describe());
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
        eprintln!("warning: Ctrl-C will not close the trace cleanly ({e})");
    }
}
