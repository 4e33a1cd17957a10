//! What walkthrough keeps between runs, in one TOML file ([`STORE_FILE`]) in the user's
//! config folder (`directories`' project folder, or [`CONFIG_DIR_ENV`] when set): the
//! user's settings ([`Preferences`], the `[settings]` table), and per map the up axis and
//! scale the user set and the views they kept (a `[maps.KEY]` table each).
//!
//! A map is keyed by the file's content (a 128-bit xxh3 digest and its length), so a
//! renamed or moved copy is still known and an edited file is a new map. The file is
//! written whole through a `.partial` file renamed over it, so a crash never leaves half a
//! file. A file that cannot be read or parsed is a warning naming its line, never a
//! failure: the defaults are used, maps open with the survey's reading, and the file is
//! moved aside (`.bad`) before anything is written over it, so nothing the user had is
//! lost. A setting out of its range is a warning too, and its nearest allowed value is
//! used.
//!
//! - `folders`: the config folder and the cache folder, each the platform's unless an
//!   environment variable names another.
//! - `parse`: the file's TOML read, each problem a warning with its line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use glam::Vec3;

use crate::browse;
use crate::decals::Placement;
use crate::files::output::{Replace, write_file};
use crate::files::{Digest, FileKind, create_folder, read_file};
use crate::map::MapFrame;
use crate::map::scene::is_scene_path;
use crate::preferences::Preferences;
use crate::session::OpenOptions;

mod folders;
mod parse;

pub use folders::{CACHE_DIR_ENV, CONFIG_DIR_ENV, cache_dir, config_dir};

use parse::{Stored, StoredFile, parse};

/// The store's file, in the config folder.
pub const STORE_FILE: &str = "settings.toml";
/// The file earlier versions kept corrections and views in: read when [`STORE_FILE`] is
/// missing (the next save writes [`STORE_FILE`]; the old file is left as it was).
pub const LEGACY_FILE: &str = "corrections.toml";
/// Most maps remembered; past it the oldest correction is dropped (the file stays small).
pub const MAX_REMEMBERED: usize = 1000;
/// The built-in map has no file to hash: its memory (its views) is kept under the key of
/// these bytes ([`ContentKey::built_in`]).
const BUILT_IN_KEY_BYTES: &[u8] = b"walkthrough built-in map";

/// A map file's identity by content: its xxh3-128 digest and length, in hex.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContentKey(String);

impl ContentKey {
    /// The key of the file at `path` (read in a stream, within the OBJ size limit).
    pub fn of_file(path: &Path) -> Result<ContentKey, String> {
        Digest::of_file(path, FileKind::Obj)
            .map(ContentKey::from)
            .map_err(|e| e.to_string())
    }

    /// The key the built-in map's memory is kept under (see [`BUILT_IN_KEY_BYTES`]); its
    /// table says `built_in = true` where a map file's says where the file was.
    pub fn built_in() -> ContentKey {
        ContentKey::of_bytes(BUILT_IN_KEY_BYTES)
    }

    /// The key of `bytes` (the same as [`ContentKey::of_file`] of a file holding them).
    pub fn of_bytes(bytes: &[u8]) -> ContentKey {
        ContentKey::from(Digest::of(bytes))
    }

    fn from_digest(digest: u128, len: u64) -> ContentKey {
        ContentKey(format!("{digest:032x}-{len:x}"))
    }
}

impl From<Digest> for ContentKey {
    fn from(d: Digest) -> ContentKey {
        ContentKey::from_digest(d.hash, d.len)
    }
}

/// A view saved for a map: the eye in the map file's coordinates (so a later correction
/// of the frame still finds the place), and where it looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SavedView {
    /// The eye, file coordinates.
    pub position: Vec3,
    /// Yaw, degrees.
    pub yaw_deg: f32,
    /// Pitch, degrees.
    pub pitch_deg: f32,
}

/// The settings and what is remembered of maps.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// The TOML file; `None` keeps them in memory only (no config folder).
    path: Option<PathBuf>,
    settings: Preferences,
    maps: BTreeMap<String, Stored>,
    /// The maps opened lately, newest first (see [`crate::browse::with_recent`]).
    recent: Vec<String>,
    /// The file on disk could not be parsed: move it aside before the first write.
    unreadable: bool,
}

/// What [`Store::load`] found.
#[derive(Debug)]
pub struct Loaded {
    /// The store (the defaults and no maps when the file is missing or unreadable).
    pub store: Store,
    /// What went wrong reading them, a line each (the file and its line named).
    pub warnings: Vec<String>,
}

impl Store {
    /// Read the store in `dir` (see [`config_dir`]); `None` keeps it in memory only.
    pub fn load(dir: Option<&Path>) -> Loaded {
        let mut warnings = Vec::new();
        let Some(path) = dir.map(|d| d.join(STORE_FILE)) else {
            return Loaded {
                store: Store::default(),
                warnings,
            };
        };
        let mut c = Store {
            path: Some(path.clone()),
            ..Store::default()
        };
        let missing = |p: &Path| matches!(std::fs::symlink_metadata(p), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
        let legacy = dir.map(|d| d.join(LEGACY_FILE));
        let from = match legacy {
            Some(old) if missing(&path) && !missing(&old) => old,
            _ => path.clone(),
        };
        if missing(&from) {
            return Loaded { store: c, warnings };
        }
        let shown = from.display();
        match read_file(&from, FileKind::Settings) {
            Err(e) => {
                warnings.push(format!(
                    "{e}; the default settings are used and no map's memory"
                ));
                c.unreadable = from == path;
            }
            Ok(bytes) => match parse(&bytes) {
                Ok(parsed) => {
                    c.settings = parsed.settings;
                    c.recent = parsed.recent;
                    c.maps = parsed.maps;
                    // Earlier versions recorded the built-in map as a file of its name in the
                    // working folder: named as what it is when the file is next saved.
                    if let Some(s) = c.maps.get_mut(&ContentKey::built_in().0) {
                        name_built_in(s);
                    }
                    warnings.extend(parsed.warnings.into_iter().map(|s| format!("{shown}: {s}")));
                }
                Err(e) => {
                    warnings.push(format!(
                        "{shown}: {e}; the default settings are used and no map's memory (the file is kept aside as {STORE_FILE}.bad, or .bad.2 and on when that is taken, when the store is next saved)"
                    ));
                    c.unreadable = from == path;
                }
            },
        }
        Loaded { store: c, warnings }
    }

    /// The file they are kept in, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The user's settings.
    pub fn settings(&self) -> &Preferences {
        &self.settings
    }

    /// Keep `settings` (brought into their ranges) and save.
    pub fn set_settings(&mut self, settings: &Preferences) -> Result<(), String> {
        self.settings = settings.checked().settings;
        self.save()
    }

    /// The maps opened lately that are still there, newest first.
    pub fn recent_maps(&self) -> Vec<PathBuf> {
        browse::present(&self.recent)
    }

    /// Put the map at `file` (made absolute) first in the recent list, and save.
    pub fn note_opened(&mut self, file: &Path) -> Result<(), String> {
        let file = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        self.recent = browse::with_recent(&self.recent, &file.display().to_string());
        self.save()
    }

    /// How many maps are remembered.
    pub fn len(&self) -> usize {
        self.maps.len()
    }

    /// No map is remembered.
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    /// The frame remembered for the map of `key`.
    pub fn recall(&self, key: &ContentKey) -> Option<MapFrame> {
        let s = self.maps.get(&key.0)?;
        Some(MapFrame {
            up: s.up.as_deref()?.parse().ok()?,
            scale: s.scale?,
        })
    }

    /// Remember `frame` for the map of `key` (found at `file`) and save.
    pub fn remember(
        &mut self,
        key: &ContentKey,
        file: &Path,
        frame: MapFrame,
    ) -> Result<(), String> {
        let stored = self.entry(key, file);
        stored.up = Some(frame.up.to_string());
        stored.scale = Some(frame.scale);
        self.save()
    }

    /// The map's table, made (and stamped now) if new, the oldest dropped past
    /// [`MAX_REMEMBERED`]. `file` is where it was found, made absolute; for the built-in
    /// map ([`ContentKey::built_in`]) it is not a file and is not recorded.
    fn entry(&mut self, key: &ContentKey, file: &Path) -> &mut Stored {
        let saved = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let file = std::path::absolute(file)
            .unwrap_or_else(|_| file.to_path_buf())
            .display()
            .to_string();
        if !self.maps.contains_key(&key.0) {
            self.drop_oldest(MAX_REMEMBERED - 1);
        }
        let stored = self.maps.entry(key.0.clone()).or_insert_with(|| Stored {
            file: String::new(),
            built_in: false,
            up: None,
            scale: None,
            views: BTreeMap::new(),
            decals: Vec::new(),
            saved,
        });
        stored.file = file;
        stored.saved = saved;
        if *key == ContentKey::built_in() {
            name_built_in(stored);
        }
        stored
    }

    /// Drop the oldest tables until at most `keep` are left.
    fn drop_oldest(&mut self, keep: usize) {
        while self.maps.len() > keep {
            let oldest = self
                .maps
                .iter()
                .min_by_key(|(k, s)| (s.saved, *k))
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.maps.remove(&k);
            }
        }
    }

    /// The view saved in `slot` (1 to 9) for the map of `key`.
    pub fn view(&self, key: &ContentKey, slot: u8) -> Option<SavedView> {
        let [x, y, z, yaw_deg, pitch_deg] = *self.maps.get(&key.0)?.views.get(&slot.to_string())?;
        Some(SavedView {
            position: Vec3::new(x, y, z),
            yaw_deg,
            pitch_deg,
        })
    }

    /// Keep `view` in `slot` for the map of `key` (found at `file`) and save.
    pub fn keep_view(
        &mut self,
        key: &ContentKey,
        file: &Path,
        slot: u8,
        view: SavedView,
    ) -> Result<(), String> {
        let p = view.position;
        self.entry(key, file).views.insert(
            slot.to_string(),
            [p.x, p.y, p.z, view.yaw_deg, view.pitch_deg],
        );
        self.save()
    }

    /// The decals kept for the map of `key`, oldest first, in the file's coordinates (as
    /// written: [`Placement::to_world`] refuses what a hand edit broke).
    pub fn decals(&self, key: &ContentKey) -> Vec<Placement> {
        let Some(s) = self.maps.get(&key.0) else {
            return Vec::new();
        };
        s.decals
            .iter()
            .map(|d| Placement {
                point: Vec3::new(d[0], d[1], d[2]),
                normal: Vec3::new(d[3], d[4], d[5]),
                up: Vec3::new(d[6], d[7], d[8]),
                size: d[9],
                // A number the file got wrong is some texture, never a panic.
                texture: d[10].clamp(0.0, 255.0) as u8,
            })
            .collect()
    }

    /// Keep `decals` (file coordinates, oldest first) for the map of `key` (found at
    /// `file`), in place of those kept before, and save.
    pub fn keep_decals(
        &mut self,
        key: &ContentKey,
        file: &Path,
        decals: &[Placement],
    ) -> Result<(), String> {
        self.entry(key, file).decals = decals
            .iter()
            .map(|d| {
                let (p, n, u) = (d.point, d.normal, d.up);
                [
                    p.x,
                    p.y,
                    p.z,
                    n.x,
                    n.y,
                    n.z,
                    u.x,
                    u.y,
                    u.z,
                    d.size,
                    f32::from(d.texture),
                ]
            })
            .collect();
        self.save()
    }

    /// Forget the map of `key`; saves when there was something to forget. Returns whether
    /// there was.
    /// (Saved views are kept.)
    pub fn forget(&mut self, key: &ContentKey) -> Result<bool, String> {
        let Some(s) = self.maps.get_mut(&key.0) else {
            return Ok(false);
        };
        let had = s.up.take().is_some() | s.scale.take().is_some();
        if s.views.is_empty() && s.decals.is_empty() {
            self.maps.remove(&key.0);
        }
        if !had {
            return Ok(false);
        }
        self.save().map(|()| true)
    }

    /// Write the file whole (through a `.partial` renamed over it); an unreadable file is
    /// first moved aside to `.bad`.
    fn save(&mut self) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if let Some(dir) = path.parent() {
            create_folder(dir)?;
        }
        if self.unreadable {
            let aside = aside_name(path).ok_or_else(|| {
                format!(
                    "{}: unreadable, and {MOST_SET_ASIDE} files are set aside beside it already; not saved",
                    path.display()
                )
            })?;
            std::fs::rename(path, &aside).map_err(|e| {
                format!(
                    "{}: cannot move the unreadable file aside to {}: {e}; not saved",
                    path.display(),
                    aside.display()
                )
            })?;
            self.unreadable = false;
        }
        let file = StoredFile {
            recent: self.recent.clone(),
            settings: self.settings.clone(),
            maps: self.maps.clone(),
        };
        let body = toml::to_string(&file)
            .map_err(|e| format!("{}: cannot write the settings: {e}", path.display()))?;
        let text = format!(
            "# walkthrough's settings (F2 in the window changes them; see the README), then what\n# it remembers of maps, one table per map, named by the map file's content (xxh3-128\n# and length): the up axis and scale you set (open the map with --forget, or delete\n# them, to let the survey read it again) and the views you kept (Ctrl+1..9: X, Y, Z in\n# the file's coordinates, yaw, pitch) and the decals you stuck on it (right button); the\n# built-in map's table says built_in = true.\n\n{body}"
        );
        write_file(path, text.as_bytes(), &[], Replace::Yes).map_err(|e| e.to_string())
    }
}

/// The unreadable settings files set aside in the config folder `dir` (`.bad`, `.bad.2`,
/// ...) that are there: the user's, inputs no output may replace (not even
/// `--trace settings.toml.bad`).
pub fn set_aside_files(dir: &Path) -> Vec<PathBuf> {
    let file = dir.join(STORE_FILE);
    (1..=MOST_SET_ASIDE)
        .map(|n| match n {
            1 => file.with_extension("toml.bad"),
            n => file.with_extension(format!("toml.bad.{n}")),
        })
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .collect()
}

/// Most unreadable settings files kept aside (`.bad`, `.bad.2`, ...).
const MOST_SET_ASIDE: usize = 100;

/// Where an unreadable settings file at `path` is moved aside: `settings.toml.bad`, or
/// the first of `.bad.2`, `.bad.3`, ... not taken, so that one set aside before is never
/// replaced (the second corrupt file replaced the first). `None`
/// when [`MOST_SET_ASIDE`] are taken.
fn aside_name(path: &Path) -> Option<PathBuf> {
    (1..=MOST_SET_ASIDE)
        .map(|n| match n {
            1 => path.with_extension("toml.bad"),
            n => path.with_extension(format!("toml.bad.{n}")),
        })
        .find(|p| std::fs::symlink_metadata(p).is_err())
}

/// Mark `stored` as the built-in map's, with no file (it has none).
fn name_built_in(stored: &mut Stored) {
    stored.built_in = true;
    stored.file.clear();
}

/// What [`recall`] did for a map about to open.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recall {
    /// The map file's content key (`None` for the built-in map, a scene, or a file that
    /// cannot be read: its open will say why).
    pub key: Option<ContentKey>,
    /// A line for the terminal: what was forgotten, or why saving failed.
    pub note: Option<String>,
}

/// Before opening the OBJ map at `path`: with `forget`, drop its remembered correction;
/// else, when `opts` gives neither `up` nor `scale`, put the remembered frame in
/// `opts.remembered` ([`crate::session::open::open`] then uses it and says so).
pub fn recall(
    store: &mut Store,
    path: Option<&Path>,
    opts: &mut OpenOptions,
    forget: bool,
) -> Recall {
    let Some(path) = path.filter(|p| !is_scene_path(p)) else {
        return Recall::default();
    };
    let Ok(key) = ContentKey::of_file(path) else {
        return Recall::default();
    };
    let note = recall_by_key(store, &key, path, opts, forget);
    Recall {
        key: Some(key),
        note,
    }
}

/// [`recall`] for the map at `path` whose content key is already known (taken as it was
/// read: see [`crate::session::open::Recall`]), so that it is not read twice;
/// returns the line for the terminal, if any.
pub fn recall_by_key(
    store: &mut Store,
    key: &ContentKey,
    path: &Path,
    opts: &mut OpenOptions,
    forget: bool,
) -> Option<String> {
    if forget {
        Some(match store.forget(key) {
            Ok(true) => format!(
                "{}: forgot the up axis and scale you set for it; the survey reads it again",
                path.display()
            ),
            Ok(false) => format!("{}: nothing was remembered for it", path.display()),
            Err(e) => format!("warning: {e}"),
        })
    } else {
        if opts.up.is_none() && opts.scale.is_none() {
            opts.remembered = store.recall(key);
        }
        None
    }
}

#[cfg(test)]
mod tests;
