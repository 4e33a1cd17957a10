//! The folders walkthrough keeps things in between runs: the config folder (the settings
//! and what is remembered of each map, [`super::STORE_FILE`]) and the cache folder (what
//! can be made again but is kept to save the time: the levels of detail,
//! [`super::levels`]). Each is the platform's (`directories`' project folder) unless an
//! environment variable names another (tests and benchmarks point them at scratch
//! folders).

use std::path::{Path, PathBuf};

use directories::ProjectDirs;

/// Environment variable naming the folder walkthrough keeps its settings in (tests point it
/// at a scratch folder; unset, the platform's config folder is used).
pub const CONFIG_DIR_ENV: &str = "WALKTHROUGH_CONFIG_DIR";

/// Environment variable naming the folder caches are kept in (tests and benchmarks point it
/// at a scratch folder; unset, the platform's cache folder is used).
pub const CACHE_DIR_ENV: &str = "WALKTHROUGH_CACHE_DIR";

/// The folder walkthrough keeps its settings in: [`CONFIG_DIR_ENV`] if set, else the
/// platform's (`~/.config/walkthrough` on Linux); `None` when there is no home folder.
pub fn config_dir() -> Option<PathBuf> {
    folder(CONFIG_DIR_ENV, ProjectDirs::config_dir)
}

/// The folder walkthrough keeps its caches in: [`CACHE_DIR_ENV`] if set, else the
/// platform's (`~/.cache/walkthrough` on Linux); `None` when there is no home folder.
pub fn cache_dir() -> Option<PathBuf> {
    folder(CACHE_DIR_ENV, ProjectDirs::cache_dir)
}

/// The folder the environment variable `env` names when set and not empty, else the one
/// `pick` chooses of the platform's project folders.
fn folder(env: &str, pick: fn(&ProjectDirs) -> &Path) -> Option<PathBuf> {
    match std::env::var_os(env) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => ProjectDirs::from("", "", "walkthrough").map(|p| pick(&p).to_path_buf()),
    }
}
