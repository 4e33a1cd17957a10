//! The parts of files still being written ([`super::Keeping`]'s `.partial` files), removed
//! once no program is writing them: each could be as big as a whole file.

use std::path::Path;
use std::time::{Duration, SystemTime};

use xxhash_rust::xxh3::Xxh3;

/// A file being written ([`super::Keeping`]) untouched for this long was left by a program that
/// ended before it could finish or remove it (killed, or the machine stopped).
pub(super) const STALE_PART: Duration = Duration::from_secs(3600);

/// A part whose writer has ended (its process is gone, see [`writer_gone`]) is removed
/// once untouched for this long: a whole file's worth of disk (a gigabyte at ten million
/// triangles) is not held for an hour after a `kill -9`. The minute is a margin: no part
/// written to within it is removed, whatever the system says. A writer on another
/// machine or in another container sharing the folder is never judged gone (only
/// [`STALE_PART`] applies to its part, and to the parts of earlier versions, whose names
/// say no space).
pub(super) const ORPHANED_PART: Duration = Duration::from_secs(60);

/// Remove the parts of files in `dir` that no program is writing any longer (see
/// [`STALE_PART`] and [`ORPHANED_PART`]): each could be as big as a whole file.
pub(crate) fn remove_stale_parts(dir: &Path) {
    let now = SystemTime::now();
    for entry in std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with("map-") && name.ends_with(".partial")) {
            continue;
        }
        let Some(age) = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
        else {
            continue;
        };
        let orphaned = age > ORPHANED_PART && writer_gone(&name);
        if age > STALE_PART || orphaned {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether the program that named the part `name`
/// (`map-<digest>.<pid>-<n>-<space>.partial`, see [`super::keeping`]) has ended: it ran where
/// this one's process numbers are its own (the same [`process_space`]) and its number
/// is not in `/proc`. False where the system does not say (only [`STALE_PART`] applies
/// there), for a writer elsewhere, or for a name that does not hold both.
pub(super) fn writer_gone(name: &str) -> bool {
    let Some(fields) = name
        .strip_suffix(".partial")
        .and_then(|n| n.rsplit('.').next())
    else {
        return false;
    };
    let mut fields = fields.split('-');
    let pid = fields.next().and_then(|p| p.parse::<u32>().ok());
    let space = fields.nth(1).and_then(|s| u64::from_str_radix(s, 16).ok());
    match (pid, space) {
        (Some(pid), Some(space)) if space != 0 && space == process_space() => {
            !Path::new("/proc").join(pid.to_string()).exists()
        }
        _ => false,
    }
}

/// Where this program's process numbers mean what `/proc` says: the machine's boot and
/// its process-number namespace (a container has its own), hashed; 0 where the system
/// does not say, or where `/proc` is not of this process's namespace (`/proc/self` is
/// not its own number). Written into each part's name, so that a part from another
/// machine or container sharing the cache folder is never judged by this one's `/proc`.
pub(super) fn process_space() -> u64 {
    static SPACE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SPACE.get_or_init(|| {
        let boot = std::fs::read("/proc/sys/kernel/random/boot_id");
        let pids = std::fs::read_link("/proc/self/ns/pid");
        let own = std::fs::read_link("/proc/self")
            .is_ok_and(|p| p.as_os_str() == std::process::id().to_string().as_str());
        match (boot, pids) {
            (Ok(boot), Ok(pids)) if own => {
                let mut h = Xxh3::new();
                h.update(&boot);
                h.update(pids.as_os_str().as_encoded_bytes());
                h.digest().max(1)
            }
            _ => 0,
        }
    })
}
