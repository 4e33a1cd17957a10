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

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use glam::Vec3;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use crate::input::{FileKind, Opened, open_file, read_file};
use crate::map::scene::is_scene_path;
use crate::map::{MapFrame, UpAxis};
use crate::output::{Replace, write_file};
use crate::preferences::Preferences;
use crate::session::OpenOptions;

/// Environment variable naming the folder walkthrough keeps its settings in (tests point it
/// at a scratch folder; unset, the platform's config folder is used).
pub const CONFIG_DIR_ENV: &str = "WALKTHROUGH_CONFIG_DIR";
/// The store's file, in the config folder.
pub const STORE_FILE: &str = "settings.toml";
/// The file earlier versions kept corrections and views in: read when [`STORE_FILE`] is
/// missing (the next save writes [`STORE_FILE`]; the old file is left as it was).
pub const LEGACY_FILE: &str = "corrections.toml";
/// Most maps remembered; past it the oldest correction is dropped (the file stays small).
pub const MAX_REMEMBERED: usize = 1000;
/// Bytes read at a time while hashing a map.
const HASH_CHUNK: usize = 1 << 20;

/// The folder walkthrough keeps its settings in: [`CONFIG_DIR_ENV`] if set, else the
/// platform's (`~/.config/walkthrough` on Linux); `None` when there is no home folder.
pub fn config_dir() -> Option<PathBuf> {
    match std::env::var_os(CONFIG_DIR_ENV) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => directories::ProjectDirs::from("", "", "walkthrough")
            .map(|p| p.config_dir().to_path_buf()),
    }
}

/// A map file's identity by content: its xxh3-128 digest and length, in hex.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContentKey(String);

impl ContentKey {
    /// The key of the file at `path` (read in a stream, within the OBJ size limit).
    pub fn of_file(path: &Path) -> Result<ContentKey, String> {
        let Opened { file, .. } = open_file(path, FileKind::Obj).map_err(|e| e.to_string())?;
        let mut reader = file.take(FileKind::Obj.limit());
        let mut hasher = Xxh3::new();
        let mut buf = vec![0u8; HASH_CHUNK];
        let mut len = 0u64;
        loop {
            let n = reader
                .read(&mut buf)
                .map_err(|e| format!("{}: cannot read the file: {e}", path.display()))?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            len += n as u64;
        }
        Ok(ContentKey::from_digest(hasher.digest128(), len))
    }

    /// The key of `bytes` (the same as [`ContentKey::of_file`] of a file holding them).
    pub fn of_bytes(bytes: &[u8]) -> ContentKey {
        ContentKey::from_digest(xxhash_rust::xxh3::xxh3_128(bytes), bytes.len() as u64)
    }

    fn from_digest(digest: u128, len: u64) -> ContentKey {
        ContentKey(format!("{digest:032x}-{len:x}"))
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

/// One map's memory (its correction, its views) as the TOML file holds it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Stored {
    /// Where the map was when last remembered (for the reader of the file; not the key).
    file: String,
    /// The up axis, as `--up` takes it (none: only views are kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    up: Option<String>,
    /// Metres per file unit, as `--scale` takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scale: Option<f32>,
    /// Saved views by slot ("1" to "9"): X, Y, Z in the file's coordinates, yaw, pitch.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    views: BTreeMap<String, [f32; 5]>,
    /// When it was set, seconds since 1970 (the oldest goes first past the limit).
    #[serde(default)]
    saved: u64,
}

/// The TOML file: the settings, and one table per map named by its content key.
#[derive(Debug, Default, Serialize, Deserialize)]
struct StoredFile {
    #[serde(default)]
    settings: Preferences,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    maps: BTreeMap<String, Stored>,
}

/// The settings and what is remembered of maps.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// The TOML file; `None` keeps them in memory only (no config folder).
    path: Option<PathBuf>,
    settings: Preferences,
    maps: BTreeMap<String, Stored>,
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
                    c.maps = parsed.maps;
                    warnings.extend(parsed.warnings.into_iter().map(|s| format!("{shown}: {s}")));
                }
                Err(e) => {
                    warnings.push(format!(
                        "{shown}: {e}; the default settings are used and no map's memory (the file is kept as {STORE_FILE}.bad when the store is next saved)"
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
        self.settings = settings.checked().0;
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
    /// [`MAX_REMEMBERED`].
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
            up: None,
            scale: None,
            views: BTreeMap::new(),
            saved,
        });
        stored.file = file;
        stored.saved = saved;
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

    /// Forget the map of `key`; saves when there was something to forget. Returns whether
    /// there was.
    /// (Saved views are kept.)
    pub fn forget(&mut self, key: &ContentKey) -> Result<bool, String> {
        let Some(s) = self.maps.get_mut(&key.0) else {
            return Ok(false);
        };
        let had = s.up.take().is_some() | s.scale.take().is_some();
        if s.views.is_empty() {
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
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: cannot create the folder: {e}", dir.display()))?;
        }
        if self.unreadable {
            let aside = path.with_extension("toml.bad");
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
            settings: self.settings.clone(),
            maps: self.maps.clone(),
        };
        let body = toml::to_string(&file)
            .map_err(|e| format!("{}: cannot write the settings: {e}", path.display()))?;
        let text = format!(
            "# walkthrough's settings (F2 in the window changes them; see the README), then what\n# it remembers of maps, one table per map, named by the map file's content (xxh3-128\n# and length): the up axis and scale you set (open the map with --forget, or delete\n# them, to let the survey read it again) and the views you kept (Ctrl+1..9: X, Y, Z in\n# the file's coordinates, yaw, pitch).\n\n{body}"
        );
        write_file(path, text.as_bytes(), &[], Replace::Yes).map_err(|e| e.to_string())
    }
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
/// `opts.remembered` ([`crate::session::Session::open`] then uses it and says so).
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
    let note = if forget {
        Some(match store.forget(&key) {
            Ok(true) => format!(
                "{}: forgot the up axis and scale you set for it; the survey reads it again",
                path.display()
            ),
            Ok(false) => format!("{}: nothing was remembered for it", path.display()),
            Err(e) => format!("warning: {e}"),
        })
    } else {
        if opts.up.is_none() && opts.scale.is_none() {
            opts.remembered = store.recall(&key);
        }
        None
    };
    Recall {
        key: Some(key),
        note,
    }
}

/// A store file read: its settings (in range) and maps, and a line for each thing set right
/// or skipped.
struct Parsed {
    settings: Preferences,
    maps: BTreeMap<String, Stored>,
    warnings: Vec<String>,
}

/// The settings and maps of a store file; a setting out of range, an unknown setting or an
/// invalid map table is a warning (naming its line), a file that is no TOML of this shape
/// an error naming its line.
fn parse(bytes: &[u8]) -> Result<Parsed, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))?;
    let file: StoredFile = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        match line {
            Some(l) => format!("line {l}: {}", e.message()),
            None => e.message().to_string(),
        }
    })?;
    let mut warnings = settings_warnings(text, &file.settings);
    let (settings, _) = file.settings.checked();
    let maps = valid_maps(file.maps, &mut warnings);
    Ok(Parsed {
        settings,
        maps,
        warnings,
    })
}

/// A line for each setting out of its range and each name that is no setting, each with
/// the line of the file it is on.
fn settings_warnings(text: &str, settings: &Preferences) -> Vec<String> {
    let at = |key: &str| match line_of_setting(text, key) {
        Some(l) => format!("line {l}: "),
        None => String::new(),
    };
    let mut out: Vec<String> = settings
        .checked()
        .1
        .into_iter()
        .map(|o| format!("{}{}", at(o.key), o.message))
        .collect();
    // The file parsed as the store's shape, so it parses as a table.
    if let Ok(table) = toml::from_str::<toml::Table>(text)
        && let Some(toml::Value::Table(s)) = table.get("settings")
    {
        for key in s
            .keys()
            .filter(|k| !Preferences::KEYS.contains(&k.as_str()))
        {
            out.push(format!(
                "{}[settings] has no setting '{key}' (ignored; the settings are {})",
                at(key),
                Preferences::KEYS.join(", ")
            ));
        }
    }
    out
}

/// The line (from 1) on which `key` is set in the `[settings]` table of `text`.
fn line_of_setting(text: &str, key: &str) -> Option<usize> {
    let mut in_settings = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            in_settings = t
                .trim_start_matches('[')
                .trim_start()
                .starts_with("settings")
                && t.trim_end_matches(']').trim_end().ends_with("settings");
        } else if in_settings
            && let Some((k, _)) = t.split_once('=')
            && k.trim().trim_matches('"') == key
        {
            return Some(i + 1);
        }
    }
    None
}

/// The map tables that are valid; a line into `warnings` for each skipped.
fn valid_maps(
    maps: BTreeMap<String, Stored>,
    warnings: &mut Vec<String>,
) -> BTreeMap<String, Stored> {
    let skipped = warnings;
    maps.into_iter()
        .filter(|(key, s)| {
            let bad = if let Some(up) = s.up.as_ref().filter(|u| u.parse::<UpAxis>().is_err()) {
                Some(format!("up = \"{up}\" is no axis"))
            } else if let Some(scale) = s.scale.filter(|x| !(x.is_finite() && *x > 0.0)) {
                Some(format!("scale = {scale} is not a positive number"))
            } else if s.up.is_some() != s.scale.is_some() {
                Some("up and scale come together".into())
            } else if s.views.values().flatten().any(|v| !v.is_finite()) {
                Some("a view is not finite".into())
            } else {
                None
            };
            if let Some(why) = &bad {
                skipped.push(format!("[maps.{key}] skipped: {why}"));
            }
            bad.is_none()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(test: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("walkthrough-store-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
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
    }

    #[test]
    fn invalid_tables_are_skipped_by_name_and_the_rest_kept() {
        let dir = scratch("invalid");
        std::fs::write(
            dir.join(STORE_FILE),
            "[maps.good]\nfile = \"g.obj\"\nup = \"-x\"\nscale = 0.5\n\n[maps.sideways]\nfile = \"s.obj\"\nup = \"w\"\nscale = 1.0\n\n[maps.tiny]\nfile = \"t.obj\"\nup = \"y\"\nscale = -3.0\n",
        )
        .unwrap();
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
    fn past_the_limit_the_oldest_is_dropped() {
        let mut c = Store::default();
        for i in 0..=MAX_REMEMBERED {
            let key = ContentKey(format!("k{i:05}"));
            c.maps.insert(
                key.0.clone(),
                Stored {
                    file: String::new(),
                    up: Some("y".into()),
                    scale: Some(1.0),
                    views: BTreeMap::new(),
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
            ..Preferences::default()
        };
        c.set_settings(&mine).unwrap();
        let again = Store::load(Some(&dir));
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        assert_eq!(again.store.settings(), &mine);
        assert_eq!(again.store.recall(&key), Some(frame(UpAxis::Z, 0.01)));
    }

    #[test]
    fn a_setting_out_of_range_or_unknown_is_a_warning_with_its_line() {
        let dir = scratch("settings-range");
        std::fs::write(
            dir.join(STORE_FILE),
            "# mine\n[settings]\nfov = 300\nfeild_of_view = 90\ninvert_y = true\n\n[maps.k]\nfile = \"k.obj\"\nup = \"z\"\nscale = 1.0\n",
        )
        .unwrap();
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
}
