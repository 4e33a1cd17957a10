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
/// ...) that are there: the user's, inputs no output may replace (a fuzz run's
/// `--trace settings.toml.bad` did).
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
mod tests {
    //! The store's tests: settings and maps kept, read back, warned about.

    use super::parse::UNKNOWN_SETTINGS_NAMED;
    use super::*;
    use crate::map::UpAxis;
    use crate::preferences::TextureFilter;

    fn scratch(test: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("walkthrough-store-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A scratch folder for `test` holding a store file of `text`.
    fn written(test: &str, text: &str) -> PathBuf {
        let dir = scratch(test);
        std::fs::write(dir.join(STORE_FILE), text).unwrap();
        dir
    }

    fn frame(up: UpAxis, scale: f32) -> MapFrame {
        MapFrame { up, scale }
    }

    #[test]
    fn a_correction_is_remembered_across_loads_and_forgotten() {
        let dir = scratch("round-trip");
        let key = ContentKey::of_bytes(b"v 0 0 0\n");
        let mut c = Store::load(Some(&dir)).store;
        assert_eq!(c.recall(&key), None);
        c.remember(&key, Path::new("/maps/a.obj"), frame(UpAxis::Z, 0.0254))
            .unwrap();
        let again = Store::load(Some(&dir));
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        let mut c = again.store;
        assert_eq!(c.recall(&key), Some(frame(UpAxis::Z, 0.0254)));
        assert!(c.forget(&key).unwrap());
        assert!(!c.forget(&key).unwrap());
        assert_eq!(Store::load(Some(&dir)).store.recall(&key), None);
    }

    #[test]
    fn the_key_is_the_content_not_the_name() {
        let dir = scratch("key");
        let (a, b, c) = (dir.join("a.obj"), dir.join("b.obj"), dir.join("c.obj"));
        std::fs::write(&a, "v 0 0 0\nv 1 0 0\n").unwrap();
        std::fs::write(&b, "v 0 0 0\nv 1 0 0\n").unwrap();
        std::fs::write(&c, "v 0 0 0\nv 2 0 0\n").unwrap();
        let key = |p: &Path| ContentKey::of_file(p).unwrap();
        assert_eq!(key(&a), key(&b));
        assert_ne!(key(&a), key(&c));
        assert_eq!(key(&a), ContentKey::of_bytes(b"v 0 0 0\nv 1 0 0\n"));
    }

    #[test]
    fn a_corrupt_file_is_a_warning_with_its_line_and_is_kept_aside_when_saving() {
        let dir = scratch("corrupt");
        let path = dir.join(STORE_FILE);
        std::fs::write(&path, "[maps.abc]\nup = \"z\"\nscale = [oops\n").unwrap();
        let loaded = Store::load(Some(&dir));
        assert_eq!(loaded.warnings.len(), 1);
        assert!(
            loaded.warnings[0].contains("line 3"),
            "{:?}",
            loaded.warnings
        );
        assert!(loaded.warnings[0].contains(STORE_FILE));
        let mut c = loaded.store;
        let key = ContentKey::of_bytes(b"x");
        c.remember(&key, Path::new("x.obj"), frame(UpAxis::Y, 2.0))
            .unwrap();
        let aside = std::fs::read_to_string(dir.join("settings.toml.bad")).unwrap();
        assert!(aside.contains("[oops"), "the user's file is kept");
        assert_eq!(
            Store::load(Some(&dir)).store.recall(&key),
            Some(frame(UpAxis::Y, 2.0))
        );
        // The next corrupt file replaced the first one set aside.
        std::fs::write(&path, "[settings]\nfov = 75\n[wide\n").unwrap();
        let mut c = Store::load(Some(&dir)).store;
        c.remember(&key, Path::new("x.obj"), frame(UpAxis::Z, 3.0))
            .unwrap();
        let first = std::fs::read_to_string(dir.join("settings.toml.bad")).unwrap();
        assert!(first.contains("[oops"), "the first set aside is kept");
        let second = std::fs::read_to_string(dir.join("settings.toml.bad.2")).unwrap();
        assert!(second.contains("wide"), "{second}");
    }

    #[test]
    fn invalid_tables_are_skipped_by_name_and_the_rest_kept() {
        let dir = written(
            "invalid",
            "[maps.good]\nfile = \"g.obj\"\nup = \"-x\"\nscale = 0.5\n\n[maps.sideways]\nfile = \"s.obj\"\nup = \"w\"\nscale = 1.0\n\n[maps.tiny]\nfile = \"t.obj\"\nup = \"y\"\nscale = -3.0\n",
        );
        let loaded = Store::load(Some(&dir));
        assert_eq!(loaded.store.len(), 1);
        let w = loaded.warnings.join("\n");
        assert!(w.contains("[maps.sideways] skipped: up = \"w\""), "{w}");
        assert!(w.contains("[maps.tiny] skipped: scale = -3"), "{w}");
        assert_eq!(
            loaded.store.recall(&ContentKey("good".into())),
            Some(frame(UpAxis::NegX, 0.5))
        );
    }

    /// A decal of NaNs and a view in slot "99" were taken without
    /// a word. Each goes alone, said; the rest of its map's memory is kept.
    #[test]
    fn a_decal_not_finite_and_a_view_in_no_slot_are_skipped_alone() {
        let good = "[0.0, 1.0, 2.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.5, 0.0]";
        let bad = "[nan, 1.0, 2.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.5, 0.0]";
        let dir = written(
            "bad-decal",
            &format!(
                "[maps.m]\nfile = \"m.obj\"\nup = \"z\"\nscale = 0.5\ndecals = [{good}, {bad}]\n\n[maps.m.views]\n3 = [1.0, 2.0, 3.0, 0.0, 0.0]\n99 = [1.0, 2.0, 3.0, 0.0, 0.0]\n"
            ),
        );
        let loaded = Store::load(Some(&dir));
        let w = loaded.warnings.join("\n");
        assert!(w.contains("[maps.m]: 1 decal skipped: not finite"), "{w}");
        assert!(
            w.contains("[maps.m]: view \"99\" skipped: views are kept in slots 1 to 9"),
            "{w}"
        );
        let key = ContentKey("m".into());
        assert_eq!(loaded.store.recall(&key), Some(frame(UpAxis::Z, 0.5)));
        assert_eq!(loaded.store.decals(&key).len(), 1);
        assert!(loaded.store.view(&key, 3).is_some());
    }

    #[test]
    fn a_settings_path_that_is_a_directory_is_a_warning() {
        let dir = scratch("dir");
        std::fs::create_dir_all(dir.join(STORE_FILE)).unwrap();
        let loaded = Store::load(Some(&dir));
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(loaded.store.is_empty());
    }

    #[test]
    fn recall_fills_the_frame_only_when_the_command_line_leaves_it_open_and_forget_drops_it() {
        let dir = scratch("recall");
        let map = dir.join("m.obj");
        std::fs::write(&map, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
        let mut store = Store::load(Some(&dir)).store;
        let key = ContentKey::of_file(&map).unwrap();
        store
            .remember(&key, &map, frame(UpAxis::Z, 0.3048))
            .unwrap();
        let mut opts = OpenOptions::default();
        let r = recall(&mut store, Some(&map), &mut opts, false);
        assert_eq!(r.key, Some(key.clone()));
        assert_eq!(opts.remembered, Some(frame(UpAxis::Z, 0.3048)));
        let mut given = OpenOptions {
            scale: Some(2.0),
            ..OpenOptions::default()
        };
        recall(&mut store, Some(&map), &mut given, false);
        assert_eq!(given.remembered, None, "--scale overrides the memory");
        let mut opts = OpenOptions::default();
        let r = recall(&mut store, Some(&map), &mut opts, true);
        assert!(r.note.unwrap().contains("forgot"));
        assert_eq!(opts.remembered, None);
        assert_eq!(Store::load(Some(&dir)).store.recall(&key), None);
        let none = recall(&mut store, None, &mut OpenOptions::default(), false);
        assert_eq!(none, Recall::default());
    }

    #[test]
    fn views_are_kept_per_map_beside_the_correction_and_outlive_forget() {
        let dir = scratch("views");
        let key = ContentKey::of_bytes(b"v 0 0 0\n");
        let view = SavedView {
            position: Vec3::new(1.25, -2.0, 3.5),
            yaw_deg: 91.5,
            pitch_deg: -7.25,
        };
        {
            let mut c = Store::load(Some(&dir)).store;
            c.keep_view(&key, Path::new("room.obj"), 3, view).unwrap();
            // A view alone is no correction.
            assert_eq!(c.recall(&key), None);
            c.remember(&key, Path::new("room.obj"), frame(UpAxis::Z, 0.01))
                .unwrap();
        }
        let mut c = Store::load(Some(&dir)).store;
        assert_eq!(c.view(&key, 3), Some(view));
        assert_eq!(c.view(&key, 4), None);
        assert_eq!(c.recall(&key), Some(frame(UpAxis::Z, 0.01)));
        assert_eq!(c.forget(&key), Ok(true));
        let c = Store::load(Some(&dir)).store;
        assert_eq!(c.recall(&key), None);
        assert_eq!(c.view(&key, 3), Some(view));
    }

    #[test]
    fn decals_are_kept_per_map_in_order_and_outlive_forget() {
        let dir = scratch("decals");
        let key = ContentKey::of_bytes(b"v 0 0 1\n");
        let decal = |x: f32, texture: u8| Placement {
            point: Vec3::new(x, 1.5, -0.25),
            normal: Vec3::Z,
            up: Vec3::Y,
            size: 0.5,
            texture,
        };
        let kept = [decal(1.0, 2), decal(-3.5, 0)];
        {
            let mut c = Store::load(Some(&dir)).store;
            assert!(c.decals(&key).is_empty());
            c.keep_decals(&key, Path::new("room.obj"), &kept).unwrap();
            c.remember(&key, Path::new("room.obj"), frame(UpAxis::Y, 1.0))
                .unwrap();
        }
        let mut c = Store::load(Some(&dir)).store;
        assert_eq!(c.decals(&key), kept);
        assert_eq!(c.forget(&key), Ok(true));
        let mut c = Store::load(Some(&dir)).store;
        assert_eq!(c.decals(&key), kept);
        c.keep_decals(&key, Path::new("room.obj"), &kept[1..])
            .unwrap();
        assert_eq!(Store::load(Some(&dir)).store.decals(&key), kept[1..]);
    }

    #[test]
    fn past_the_limit_the_oldest_is_dropped() {
        let mut c = Store::default();
        for i in 0..=MAX_REMEMBERED {
            let key = ContentKey(format!("k{i:05}"));
            c.maps.insert(
                key.0.clone(),
                Stored {
                    file: String::new(),
                    built_in: false,
                    up: Some("y".into()),
                    scale: Some(1.0),
                    views: BTreeMap::new(),
                    decals: Vec::new(),
                    saved: i as u64 + 10,
                },
            );
        }
        c.remember(
            &ContentKey("new".into()),
            Path::new("n.obj"),
            frame(UpAxis::Y, 1.0),
        )
        .unwrap();
        assert_eq!(c.len(), MAX_REMEMBERED);
        assert_eq!(c.recall(&ContentKey("k00000".into())), None);
        assert_eq!(c.recall(&ContentKey("k00001".into())), None);
        assert!(c.recall(&ContentKey("new".into())).is_some());
    }

    #[test]
    fn settings_are_kept_beside_the_maps_and_read_back() {
        let dir = scratch("settings");
        let key = ContentKey::of_bytes(b"v 0 0 0\n");
        let mut c = Store::load(Some(&dir)).store;
        assert_eq!(c.settings(), &Preferences::default(), "missing: defaults");
        c.remember(&key, Path::new("a.obj"), frame(UpAxis::Z, 0.01))
            .unwrap();
        let mine = Preferences {
            fov: 75.0,
            invert_y: true,
            mouse_sensitivity: 0.3,
            window_size: [800, 600],
            texture_filter: TextureFilter::Bilinear,
            ..Preferences::default()
        };
        c.set_settings(&mine).unwrap();
        let again = Store::load(Some(&dir));
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        assert_eq!(again.store.settings(), &mine);
        assert_eq!(again.store.recall(&key), Some(frame(UpAxis::Z, 0.01)));
    }

    #[test]
    fn the_recent_maps_are_read_back_newest_first_beside_the_settings_and_a_missing_one_is_not_offered()
     {
        let dir = scratch("recent");
        let (a, b) = (dir.join("a.obj"), dir.join("b.toml"));
        std::fs::write(&a, "v 0 0 0\n").unwrap();
        std::fs::write(&b, "").unwrap();
        let mut c = Store::load(Some(&dir)).store;
        let mine = Preferences {
            fov: 75.0,
            ..Preferences::default()
        };
        c.set_settings(&mine).unwrap();
        c.note_opened(&a).unwrap();
        c.note_opened(&b).unwrap();
        c.note_opened(&dir.join("gone.obj")).unwrap();
        let again = Store::load(Some(&dir));
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        assert_eq!(again.store.recent_maps(), [b, a]);
        assert_eq!(again.store.settings(), &mine);
    }

    #[test]
    fn a_setting_out_of_range_or_unknown_is_a_warning_with_its_line() {
        let dir = written(
            "settings-range",
            "# mine\n[settings]\nfov = 300\nfeild_of_view = 90\ninvert_y = true\n\n[maps.k]\nfile = \"k.obj\"\nup = \"z\"\nscale = 1.0\n",
        );
        let loaded = Store::load(Some(&dir));
        let w = loaded.warnings.join("\n");
        assert_eq!(loaded.warnings.len(), 2, "{w}");
        assert!(
            w.contains("line 3: fov = 300 is outside 60 to 110: 110 is used"),
            "{w}"
        );
        assert!(
            w.contains("line 4: [settings] has no setting 'feild_of_view'"),
            "{w}"
        );
        let s = loaded.store.settings();
        assert_eq!((s.fov, s.invert_y), (110.0, true), "the rest is kept");
        assert_eq!(loaded.store.len(), 1, "and the maps");
    }

    #[test]
    fn an_unknown_texture_filter_is_a_warning_with_its_line_not_the_loss_of_the_file() {
        let dir = written(
            "settings-filter",
            "[settings]\nfov = 75\ntexture_filter = \"fancy\"\ninvert_y = true\n\n[maps.k]\nfile = \"k.obj\"\nup = \"z\"\nscale = 1.0\n",
        );
        let loaded = Store::load(Some(&dir));
        let w = loaded.warnings.join("\n");
        assert_eq!(loaded.warnings.len(), 1, "{w}");
        assert!(
            w.contains("line 3: texture_filter: 'fancy' is no texture filter (one of trilinear, bilinear, nearest): trilinear is used"),
            "{w}"
        );
        let s = loaded.store.settings();
        assert_eq!(s.texture_filter, TextureFilter::Trilinear);
        assert_eq!((s.fov, s.invert_y), (75.0, true), "the rest is kept");
        assert_eq!(loaded.store.len(), 1, "and the maps");
        // A number where a name goes is refused the same way.
        let dir = written("settings-filter-number", "[settings]\ntexture_filter = 3\n");
        let loaded = Store::load(Some(&dir));
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(loaded.warnings[0].contains("line 2: texture_filter: 3 is no texture filter"));
        // And a name that is one is read.
        let dir = written(
            "settings-filter-ok",
            "[settings]\ntexture_filter = \"nearest\"\n",
        );
        let loaded = Store::load(Some(&dir));
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        assert_eq!(
            loaded.store.settings().texture_filter,
            TextureFilter::Nearest
        );
    }

    /// One value of the wrong type (`window_size = [-5, 720]`, an
    /// integer past any type, a word for a number) lost every setting and every map's
    /// memory. Each is a warning with its line and its default used, the rest kept.
    #[test]
    fn a_setting_of_the_wrong_type_costs_that_setting_not_the_file() {
        let dir = written(
            "settings-type",
            "[settings]\nwindow_size = [-5, 720]\nfov = \"wide\"\ninvert_y = true\nmouse_sensitivity = 100000000000000000000\nvsync = 3\nrender_scale = 0.5\n\n[maps.k]\nfile = \"k.obj\"\nup = \"z\"\nscale = 1.0\n",
        );
        let loaded = Store::load(Some(&dir));
        let w = loaded.warnings.join("\n");
        for (line, key) in [
            (2, "window_size"),
            (3, "fov"),
            (5, "mouse_sensitivity"),
            (6, "vsync"),
        ] {
            let said = format!("line {line}: {key}: ");
            assert!(
                w.contains(&said) && w.contains("the default is used"),
                "{said}: {w}"
            );
        }
        assert_eq!(loaded.warnings.len(), 4, "{w}");
        let s = loaded.store.settings();
        let d = Preferences::default();
        assert_eq!(
            (s.window_size, s.fov, s.vsync),
            (d.window_size, d.fov, d.vsync)
        );
        assert_eq!(s.mouse_sensitivity, d.mouse_sensitivity);
        assert_eq!(
            (s.invert_y, s.render_scale),
            (true, 0.5),
            "the rest is kept"
        );
        assert_eq!(loaded.store.len(), 1, "and the maps");
        // An error outside the settings is still the file's.
        let dir = written("settings-type-map", "[maps.k]\nscale = \"big\"\n");
        let loaded = Store::load(Some(&dir));
        assert!(
            loaded.warnings.join("\n").contains("line 2"),
            "{:?}",
            loaded.warnings
        );
    }

    #[test]
    fn a_legacy_corrections_file_is_read_when_there_is_no_settings_file() {
        let dir = scratch("legacy");
        std::fs::write(
            dir.join(LEGACY_FILE),
            "[maps.k]\nfile = \"k.obj\"\nup = \"x\"\nscale = 0.5\n",
        )
        .unwrap();
        let mut c = Store::load(Some(&dir)).store;
        let key = ContentKey("k".into());
        assert_eq!(c.recall(&key), Some(frame(UpAxis::X, 0.5)));
        c.set_settings(&Preferences::default()).unwrap();
        // Written to the new file; the old one is left as it was.
        let c = Store::load(Some(&dir)).store;
        assert_eq!(c.recall(&key), Some(frame(UpAxis::X, 0.5)));
        assert!(dir.join(STORE_FILE).is_file());
        assert!(
            std::fs::read_to_string(dir.join(LEGACY_FILE))
                .unwrap()
                .contains("scale = 0.5")
        );
    }

    #[test]
    fn a_folder_that_cannot_be_written_is_an_error_to_report_not_a_panic() {
        let dir = scratch("unwritable");
        let file = dir.join("a-file");
        std::fs::write(&file, "x").unwrap();
        // A config folder under a regular file can be neither made nor written.
        let mut c = Store::load(Some(&file.join("config"))).store;
        let e = c.set_settings(&Preferences::default()).unwrap_err();
        assert!(e.contains("cannot create the folder"), "{e}");
        assert_eq!(c.settings(), &Preferences::default(), "kept in memory");
    }

    /// The reliability issue: an unknown setting whose number is too large for any type
    /// (`x = 99999999999999999999`) made the file unreadable as a plain table, and no unknown
    /// setting was warned about. Each is named at its line, and a file with a byte order mark
    /// reads as one without.
    #[test]
    fn an_unknown_setting_with_a_huge_number_is_warned_at_its_line() {
        let dir = written(
            "huge-unknown",
            "\u{feff}[settings]\nfov = 75\nbig = 99999999999999999999\nhuge = -99999999999999999999\ninvert_y = true\n",
        );
        let loaded = Store::load(Some(&dir));
        let w = loaded.warnings.join("\n");
        assert!(w.contains("line 3: [settings] has no setting 'big'"), "{w}");
        assert!(
            w.contains("line 4: [settings] has no setting 'huge'"),
            "{w}"
        );
        assert_eq!(loaded.warnings.len(), 2, "{w}");
        assert_eq!(loaded.store.settings().fov, 75.0);
        assert!(loaded.store.settings().invert_y);
    }

    /// Ten thousand names that are no setting were ten thousand warnings (3.5 MB, each
    /// repeating the list of settings): one warning counts them, names the first few and
    /// stands at the first's line.
    #[test]
    fn many_unknown_settings_are_one_warning_with_a_count_and_the_first_names() {
        let mut text = String::from("[settings]\nfov = 75\n");
        for i in 0..10_000 {
            text.push_str(&format!("unknown_{i} = {i}\n"));
        }
        let dir = written("many-unknown", &text);
        let loaded = Store::load(Some(&dir));
        assert_eq!(loaded.warnings.len(), 1, "{:?}", &loaded.warnings[..3]);
        let w = &loaded.warnings[0];
        assert!(
            w.contains(
                "line 3: [settings] has 10000 names that are no setting: 'unknown_0', 'unknown_1', 'unknown_10' and 9997 more (ignored; the settings are mouse_sensitivity,"
            ),
            "{w}"
        );
        assert!(w.len() < 1000, "{w}");
        assert_eq!(loaded.store.settings().fov, 75.0);
        // A few are still one warning each, at their lines.
        let dir = written("few-unknown", "[settings]\na = 1\nb = 2\nc = 3\n");
        let w = Store::load(Some(&dir)).warnings;
        assert_eq!(w.len(), UNKNOWN_SETTINGS_NAMED, "{w:?}");
        assert!(
            w[2].contains("line 4: [settings] has no setting 'c'"),
            "{w:?}"
        );
    }

    /// `window_size = [5, 5, 5]` was quoted as `window_size = [5, 5]` (what was read of
    /// it), and `fov = 3e2` as `fov = 300`: a value is quoted as the file writes it.
    #[test]
    fn a_value_out_of_range_is_quoted_as_the_file_writes_it() {
        let dir = written(
            "as-written",
            "[settings]\nwindow_size = [5, 5, 5]\nfov = 3e2 # wide\nkey_jump = \"Spacebar\"\n",
        );
        let w = Store::load(Some(&dir)).warnings;
        assert_eq!(
            w[..2],
            [
                format!(
                    "{}: line 2: window_size = [5, 5, 5] has a side outside 64 to 16384 pixels: [64, 64] is used",
                    dir.join(STORE_FILE).display()
                ),
                format!(
                    "{}: line 3: fov = 3e2 is outside 60 to 110: 110 is used",
                    dir.join(STORE_FILE).display()
                ),
            ]
        );
        assert!(
            w[2].contains("line 4: key_jump = \"Spacebar\" is no key name"),
            "{w:?}"
        );
    }

    /// The warnings came grouped by kind (a texture filter, then values of the wrong
    /// type, then values out of range, then unknown names): they come in the file's line
    /// order, the maps' (which name no line) after them.
    #[test]
    fn warnings_come_in_the_files_line_order() {
        let dir = written(
            "line-order",
            "[settings]\nmystery = 1\nfov = 300\nvsync = 3\ntexture_filter = \"fancy\"\n\n[maps.k]\nup = \"q\"\nscale = 1.0\n",
        );
        let w = Store::load(Some(&dir)).warnings;
        let lines: Vec<&str> = w
            .iter()
            .map(|w| w.split(": ").nth(1).unwrap_or(""))
            .collect();
        assert_eq!(
            lines,
            ["line 2", "line 3", "line 4", "line 5", "[maps.k] skipped"],
            "{w:?}"
        );
    }

    /// A name from the file in a warning is escaped: it reaches the terminal as text.
    #[test]
    fn an_unknown_setting_named_with_control_bytes_is_escaped() {
        let dir = written("escape", "[settings]\n\"\\u001b[2J\" = 1\n");
        let w = Store::load(Some(&dir)).warnings.join("\n");
        assert!(w.contains("has no setting '\\x1b[2J'"), "{w}");
        assert!(!w.chars().any(char::is_control), "{w:?}");
    }

    /// The settings fuzz (20 times the CI run): an error at the very end of the file (a
    /// multi-line string never closed) was blamed on a line after the last. It names the last.
    #[test]
    fn an_error_at_the_end_of_the_file_names_its_last_line() {
        let dir = written("end", "[settings]\nfov = 90.0\nname = \"\"\"never closed\n");
        let w = Store::load(Some(&dir)).warnings.join("\n");
        assert!(w.contains("settings.toml: line 3: "), "{w}");
    }

    /// Issue 41: the built-in map's views were kept under `file = ".../built-in map"`, a file
    /// in the working folder that does not exist. Its table says what it is, and an old
    /// table is named right when the file is next saved.
    #[test]
    fn the_built_in_map_is_named_as_such_not_as_a_file() {
        let dir = scratch("built-in");
        let key = ContentKey::built_in();
        // The key the window keeps the built-in map's views under.
        assert_eq!(key, ContentKey::of_bytes(b"walkthrough built-in map"));
        let view = SavedView {
            position: Vec3::new(1.0, 1.7, -2.0),
            yaw_deg: 30.0,
            pitch_deg: 0.0,
        };
        let mut c = Store::load(Some(&dir)).store;
        // What the window passes for the built-in map's file.
        c.keep_view(&key, Path::new("built-in map"), 1, view)
            .unwrap();
        let map_file = dir.join("room.obj");
        let room = ContentKey::of_bytes(b"v 0 0 0\n");
        c.keep_view(&room, &map_file, 2, view).unwrap();
        let table = |text: &str, key: &ContentKey| -> toml::Table {
            let file: toml::Table = toml::from_str(text).unwrap();
            file["maps"][&key.0].as_table().unwrap().clone()
        };
        let text = std::fs::read_to_string(dir.join(STORE_FILE)).unwrap();
        let built_in = table(&text, &key);
        assert_eq!(built_in.get("built_in"), Some(&toml::Value::Boolean(true)));
        assert_eq!(built_in.get("file"), None, "{text}");
        assert!(!text.contains("built-in map\""), "{text}");
        // A map file's table still says where the file was, and is no built-in map.
        let room_table = table(&text, &room);
        assert_eq!(
            room_table.get("file").and_then(|f| f.as_str()),
            Some(map_file.to_str().unwrap())
        );
        assert_eq!(room_table.get("built_in"), None);
        assert_eq!(Store::load(Some(&dir)).store.view(&key, 1), Some(view));

        // A table an earlier version wrote is read, and named right at the next save.
        let old = format!(
            "[maps.{}]\nfile = \"/home/u/built-in map\"\nviews = {{ 1 = [1.0, 1.7, -2.0, 30.0, 0.0] }}\n",
            key.0
        );
        let dir = written("built-in-old", &old);
        let loaded = Store::load(Some(&dir));
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        let mut c = loaded.store;
        assert_eq!(c.view(&key, 1), Some(view));
        c.keep_view(&room, &map_file, 2, view).unwrap();
        let text = std::fs::read_to_string(dir.join(STORE_FILE)).unwrap();
        assert!(!text.contains("/home/u/built-in map"), "{text}");
        assert_eq!(
            table(&text, &key).get("built_in"),
            Some(&toml::Value::Boolean(true))
        );
    }
}
