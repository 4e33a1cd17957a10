//! The up axis and scale the user set for a map, remembered for the next time it opens.
//!
//! A correction is keyed by the map file's content (a 128-bit xxh3 digest and its length),
//! so a renamed or moved copy is still known and an edited file is a new map. They live in
//! one small TOML file in the user's config folder (`directories`' project folder, or
//! [`CONFIG_DIR_ENV`] when set), written whole through a `.partial` file renamed over it.
//! A settings file that cannot be read or parsed is a warning, never a failure: the map
//! opens with the survey's reading, and the file is moved aside (`.bad`) before anything
//! is written over it, so nothing the user had is lost.

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
use crate::session::OpenOptions;

/// Environment variable naming the folder walkthrough keeps its settings in (tests point it
/// at a scratch folder; unset, the platform's config folder is used).
pub const CONFIG_DIR_ENV: &str = "WALKTHROUGH_CONFIG_DIR";
/// The file of remembered corrections, in the config folder.
pub const CORRECTIONS_FILE: &str = "corrections.toml";
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

/// The TOML file: one table per map, named by its content key.
#[derive(Debug, Default, Serialize, Deserialize)]
struct StoredFile {
    #[serde(default)]
    maps: BTreeMap<String, Stored>,
}

/// The remembered corrections.
#[derive(Clone, Debug, Default)]
pub struct Corrections {
    /// The TOML file; `None` keeps them in memory only (no config folder).
    path: Option<PathBuf>,
    maps: BTreeMap<String, Stored>,
    /// The file on disk could not be parsed: move it aside before the first write.
    unreadable: bool,
}

/// What [`Corrections::load`] found.
#[derive(Debug)]
pub struct Loaded {
    /// The corrections (none when the file is missing or unreadable).
    pub corrections: Corrections,
    /// What went wrong reading them, a line each (the file and its line named).
    pub warnings: Vec<String>,
}

impl Corrections {
    /// Read the corrections in `dir` (see [`config_dir`]); `None` remembers in memory only.
    pub fn load(dir: Option<&Path>) -> Loaded {
        let mut warnings = Vec::new();
        let Some(path) = dir.map(|d| d.join(CORRECTIONS_FILE)) else {
            return Loaded {
                corrections: Corrections::default(),
                warnings,
            };
        };
        let mut c = Corrections {
            path: Some(path.clone()),
            ..Corrections::default()
        };
        let shown = path.display();
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            _ => match read_file(&path, FileKind::Settings) {
                Err(e) => {
                    warnings.push(format!("{e}; remembered corrections are not used"));
                    c.unreadable = true;
                }
                Ok(bytes) => match parse(&bytes) {
                    Ok((maps, skipped)) => {
                        c.maps = maps;
                        warnings.extend(skipped.into_iter().map(|s| format!("{shown}: {s}")));
                    }
                    Err(e) => {
                        warnings.push(format!(
                            "{shown}: {e}; remembered corrections are not used (the file is kept as {CORRECTIONS_FILE}.bad when one is next saved)"
                        ));
                        c.unreadable = true;
                    }
                },
            },
        }
        Loaded {
            corrections: c,
            warnings,
        }
    }

    /// The file they are kept in, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
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
            maps: self.maps.clone(),
        };
        let body = toml::to_string(&file)
            .map_err(|e| format!("{}: cannot write the corrections: {e}", path.display()))?;
        let text = format!(
            "# What walkthrough remembers of maps, one table per map, named by the map file's\n# content (xxh3-128 and length): the up axis and scale you set (open the map with\n# --forget, or delete them, to let the survey read it again) and the views you kept\n# (Ctrl+1..9: X, Y, Z in the file's coordinates, yaw, pitch).\n\n{body}"
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
    store: &mut Corrections,
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

/// The maps of a corrections file, and a line for each table skipped as invalid.
fn parse(bytes: &[u8]) -> Result<(BTreeMap<String, Stored>, Vec<String>), String> {
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
    let mut skipped = Vec::new();
    let maps = file
        .maps
        .into_iter()
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
        .collect();
    Ok((maps, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(test: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "walkthrough-corrections-{}-{test}",
            std::process::id()
        ));
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
        let mut c = Corrections::load(Some(&dir)).corrections;
        assert_eq!(c.recall(&key), None);
        c.remember(&key, Path::new("/maps/a.obj"), frame(UpAxis::Z, 0.0254))
            .unwrap();
        let again = Corrections::load(Some(&dir));
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        let mut c = again.corrections;
        assert_eq!(c.recall(&key), Some(frame(UpAxis::Z, 0.0254)));
        assert!(c.forget(&key).unwrap());
        assert!(!c.forget(&key).unwrap());
        assert_eq!(Corrections::load(Some(&dir)).corrections.recall(&key), None);
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
        let path = dir.join(CORRECTIONS_FILE);
        std::fs::write(&path, "[maps.abc]\nup = \"z\"\nscale = [oops\n").unwrap();
        let loaded = Corrections::load(Some(&dir));
        assert_eq!(loaded.warnings.len(), 1);
        assert!(
            loaded.warnings[0].contains("line 3"),
            "{:?}",
            loaded.warnings
        );
        assert!(loaded.warnings[0].contains(CORRECTIONS_FILE));
        let mut c = loaded.corrections;
        let key = ContentKey::of_bytes(b"x");
        c.remember(&key, Path::new("x.obj"), frame(UpAxis::Y, 2.0))
            .unwrap();
        let aside = std::fs::read_to_string(dir.join("corrections.toml.bad")).unwrap();
        assert!(aside.contains("[oops"), "the user's file is kept");
        assert_eq!(
            Corrections::load(Some(&dir)).corrections.recall(&key),
            Some(frame(UpAxis::Y, 2.0))
        );
    }

    #[test]
    fn invalid_tables_are_skipped_by_name_and_the_rest_kept() {
        let dir = scratch("invalid");
        std::fs::write(
            dir.join(CORRECTIONS_FILE),
            "[maps.good]\nfile = \"g.obj\"\nup = \"-x\"\nscale = 0.5\n\n[maps.sideways]\nfile = \"s.obj\"\nup = \"w\"\nscale = 1.0\n\n[maps.tiny]\nfile = \"t.obj\"\nup = \"y\"\nscale = -3.0\n",
        )
        .unwrap();
        let loaded = Corrections::load(Some(&dir));
        assert_eq!(loaded.corrections.len(), 1);
        let w = loaded.warnings.join("\n");
        assert!(w.contains("[maps.sideways] skipped: up = \"w\""), "{w}");
        assert!(w.contains("[maps.tiny] skipped: scale = -3"), "{w}");
        assert_eq!(
            loaded.corrections.recall(&ContentKey("good".into())),
            Some(frame(UpAxis::NegX, 0.5))
        );
    }

    #[test]
    fn a_settings_path_that_is_a_directory_is_a_warning() {
        let dir = scratch("dir");
        std::fs::create_dir_all(dir.join(CORRECTIONS_FILE)).unwrap();
        let loaded = Corrections::load(Some(&dir));
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(loaded.corrections.is_empty());
    }

    #[test]
    fn recall_fills_the_frame_only_when_the_command_line_leaves_it_open_and_forget_drops_it() {
        let dir = scratch("recall");
        let map = dir.join("m.obj");
        std::fs::write(&map, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
        let mut store = Corrections::load(Some(&dir)).corrections;
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
        assert_eq!(Corrections::load(Some(&dir)).corrections.recall(&key), None);
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
            let mut c = Corrections::load(Some(&dir)).corrections;
            c.keep_view(&key, Path::new("room.obj"), 3, view).unwrap();
            // A view alone is no correction.
            assert_eq!(c.recall(&key), None);
            c.remember(&key, Path::new("room.obj"), frame(UpAxis::Z, 0.01))
                .unwrap();
        }
        let mut c = Corrections::load(Some(&dir)).corrections;
        assert_eq!(c.view(&key, 3), Some(view));
        assert_eq!(c.view(&key, 4), None);
        assert_eq!(c.recall(&key), Some(frame(UpAxis::Z, 0.01)));
        assert_eq!(c.forget(&key), Ok(true));
        let c = Corrections::load(Some(&dir)).corrections;
        assert_eq!(c.recall(&key), None);
        assert_eq!(c.view(&key, 3), Some(view));
    }

    #[test]
    fn past_the_limit_the_oldest_is_dropped() {
        let mut c = Corrections::default();
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
}
