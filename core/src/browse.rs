//! Choosing a map to open from inside the window (Ctrl+O): a folder's listing (folders
//! first, then OBJ maps and scene files, each by name, bounded), where the browser stands
//! in it (the keys move, open, go up), and the list of maps opened lately. Pure: the
//! window draws it and hands it the keys and clicks.

use std::path::{Path, PathBuf};

use crate::map::scene::is_scene_path;

/// Most entries a listing shows: a folder of a million files is not read into a list the
/// eye cannot scan (the rest are counted, and said).
pub const MOST_LISTED: usize = 2000;
/// Most entries of a folder looked at before the listing stops reading it (sorting needs
/// them all in hand; past this the folder is said to be cut).
pub const MOST_READ: usize = 100_000;
/// Most maps the recent list keeps, newest first.
pub const MOST_RECENT: usize = 10;

/// What a listed entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EntryKind {
    /// A folder to go into (listed first).
    Folder,
    /// An `.obj` map or a scene's `.toml`.
    Map,
}

/// One entry of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name in its folder.
    pub name: String,
    /// Its path.
    pub path: PathBuf,
    /// Folder or map.
    pub kind: EntryKind,
}

/// A folder's listing: folders first, then maps, each by name (case aside).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// The folder listed.
    pub folder: PathBuf,
    /// Its folders and maps, at most [`MOST_LISTED`].
    pub entries: Vec<Entry>,
    /// How many more there were past [`MOST_LISTED`] (or past [`MOST_READ`] read).
    pub left_out: usize,
}

/// What a file or folder named `path` is to the browser: a folder, a map (`.obj` or
/// a scene's `.toml`, any case), or nothing it lists. Hidden names (a leading dot) are
/// not listed: a home folder's are dozens of settings folders, none a map's.
pub fn kind_of(path: &Path, is_folder: bool) -> Option<EntryKind> {
    let name = path.file_name()?.to_str()?;
    if name.starts_with('.') {
        return None;
    }
    if is_folder {
        return Some(EntryKind::Folder);
    }
    let obj = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("obj"));
    (obj || is_scene_path(path)).then_some(EntryKind::Map)
}

/// `entries` in the listing's order (folders first, then maps; by name, case aside),
/// the first `most` kept and the rest counted.
pub fn ordered(folder: &Path, mut entries: Vec<Entry>, most: usize) -> Listing {
    entries.sort_by_cached_key(|e| (e.kind, e.name.to_lowercase(), e.name.clone()));
    let left_out = entries.len().saturating_sub(most);
    entries.truncate(most);
    Listing {
        folder: folder.to_path_buf(),
        entries,
        left_out,
    }
}

/// The folder `dir` listed (see [`ordered`]); an entry whose kind cannot be read (a
/// broken link) is left out.
pub fn list_folder(dir: &Path) -> Result<Listing, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut entries = Vec::new();
    let mut unread = 0;
    for (n, item) in read.enumerate() {
        if n >= MOST_READ {
            unread += 1;
            continue;
        }
        let Ok(item) = item else { continue };
        let path = item.path();
        // Followed through links: a link to a folder is gone into.
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if let Some(kind) = kind_of(&path, meta.is_dir()) {
            let name = item.file_name().to_string_lossy().into_owned();
            entries.push(Entry { name, path, kind });
        }
    }
    let mut listing = ordered(dir, entries, MOST_LISTED);
    listing.left_out += unread;
    Ok(listing)
}

/// The recent list `recent` (newest first) with `opened` put first, once, and at most
/// [`MOST_RECENT`] kept.
pub fn with_recent(recent: &[String], opened: &str) -> Vec<String> {
    std::iter::once(opened.to_string())
        .chain(recent.iter().filter(|r| *r != opened).cloned())
        .take(MOST_RECENT)
        .collect()
}

/// The maps of `recent` that are still files (one moved or deleted is not offered).
pub fn present(recent: &[String]) -> Vec<PathBuf> {
    recent
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .collect()
}

/// A key the browser answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowseKey {
    /// The row above.
    Up,
    /// The row below.
    Down,
    /// Open the row: go into a folder, load a map.
    Enter,
    /// Go to the parent folder.
    Parent,
}

/// A row of the browser: a recent map (listed at the top), or an entry of the folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    /// What it shows: a recent map's path, an entry's name (a folder's with a `/`).
    pub label: String,
    /// Its path.
    pub path: &'a Path,
    /// Folder or map.
    pub kind: EntryKind,
    /// A map from the recent list.
    pub recent: bool,
}

/// The browser: the recent maps, a folder's listing, the row chosen.
#[derive(Clone, Debug, Default)]
pub struct Browser {
    /// The recent maps still present, newest first.
    pub recent: Vec<PathBuf>,
    /// The folder shown.
    pub listing: Listing,
    /// The chosen row (the recent maps count first).
    pub selected: usize,
    /// Why the last folder could not be listed (the listing before it stays).
    pub error: Option<String>,
}

impl Browser {
    /// A browser of `folder` with the `recent` maps at its top; the first row chosen.
    pub fn new(folder: &Path, recent: Vec<PathBuf>) -> Browser {
        let mut b = Browser {
            recent,
            ..Browser::default()
        };
        b.go_to(folder, None);
        b
    }

    /// The rows, recent maps first.
    pub fn rows(&self) -> Vec<Row<'_>> {
        let recent = self.recent.iter().map(|p| Row {
            label: p.display().to_string(),
            path: p,
            kind: EntryKind::Map,
            recent: true,
        });
        let listed = self.listing.entries.iter().map(|e| Row {
            label: match e.kind {
                EntryKind::Folder => format!("{}/", e.name),
                EntryKind::Map => e.name.clone(),
            },
            path: &e.path,
            kind: e.kind,
            recent: false,
        });
        recent.chain(listed).collect()
    }

    fn row_count(&self) -> usize {
        self.recent.len() + self.listing.entries.len()
    }

    /// Answer `key`; returns the map to load when one is opened.
    pub fn press(&mut self, key: BrowseKey) -> Option<PathBuf> {
        let last = self.row_count().saturating_sub(1);
        match key {
            BrowseKey::Up => self.selected = self.selected.saturating_sub(1),
            BrowseKey::Down => self.selected = (self.selected + 1).min(last),
            BrowseKey::Enter => return self.open(self.selected),
            BrowseKey::Parent => {
                let from = self.listing.folder.clone();
                if let Some(up) = from.parent() {
                    self.go_to(up, Some(&from));
                }
            }
        }
        None
    }

    /// Open row `index` (a click, or Enter on the chosen row): a folder is gone into, a
    /// map returned to be loaded.
    pub fn open(&mut self, index: usize) -> Option<PathBuf> {
        let row = self.rows().into_iter().nth(index)?;
        let path = row.path.to_path_buf();
        match row.kind {
            EntryKind::Map => Some(path),
            EntryKind::Folder => {
                self.go_to(&path, None);
                None
            }
        }
    }

    /// Show `folder`, choosing the entry `from` (the folder gone up from) or else the
    /// first of the folder's entries.
    fn go_to(&mut self, folder: &Path, from: Option<&Path>) {
        match list_folder(folder) {
            Ok(listing) => {
                self.listing = listing;
                self.error = None;
            }
            Err(e) => {
                self.error = Some(e);
                return;
            }
        }
        let at = from
            .and_then(|f| self.listing.entries.iter().position(|e| e.path == f))
            .unwrap_or(0);
        self.selected = (self.recent.len() + at).min(self.row_count().saturating_sub(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, kind: EntryKind) -> Entry {
        Entry {
            name: name.into(),
            path: PathBuf::from("/m").join(name),
            kind,
        }
    }

    #[test]
    fn a_listing_puts_folders_first_then_maps_by_name_case_aside_and_counts_the_cut() {
        let got = ordered(
            Path::new("/m"),
            vec![
                entry("b.obj", EntryKind::Map),
                entry("Zed", EntryKind::Folder),
                entry("A.toml", EntryKind::Map),
                entry("alpha", EntryKind::Folder),
                entry("c.obj", EntryKind::Map),
            ],
            4,
        );
        let names: Vec<&str> = got.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["alpha", "Zed", "A.toml", "b.obj"]);
        assert_eq!(got.left_out, 1);
    }

    #[test]
    fn only_folders_obj_maps_and_scenes_are_listed_and_no_hidden_names() {
        let p = Path::new;
        assert_eq!(kind_of(p("/m/room.OBJ"), false), Some(EntryKind::Map));
        assert_eq!(kind_of(p("/m/scene.toml"), false), Some(EntryKind::Map));
        assert_eq!(kind_of(p("/m/room.mtl"), false), None);
        assert_eq!(kind_of(p("/m/wall.png"), false), None);
        assert_eq!(kind_of(p("/m/maps"), true), Some(EntryKind::Folder));
        assert_eq!(kind_of(p("/m/.config"), true), None);
        assert_eq!(kind_of(p("/m/.hidden.obj"), false), None);
    }

    #[test]
    fn an_opened_map_goes_first_in_the_recent_list_once_and_the_oldest_drop_off() {
        let recent: Vec<String> = (0..MOST_RECENT).map(|i| format!("/m/{i}.obj")).collect();
        let again = with_recent(&recent, "/m/3.obj");
        assert_eq!(again.len(), MOST_RECENT);
        assert_eq!(again[0], "/m/3.obj");
        assert_eq!(again.iter().filter(|r| *r == "/m/3.obj").count(), 1);
        assert_eq!(again[1], "/m/0.obj");
        let new = with_recent(&recent, "/m/new.obj");
        assert_eq!(new.len(), MOST_RECENT);
        assert_eq!(new[0], "/m/new.obj");
        assert!(!new.contains(&format!("/m/{}.obj", MOST_RECENT - 1)));
    }

    /// A folder of its own under the system's temporary folder, made empty.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("walkthrough-browse-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_missing_recent_map_is_not_offered() {
        let dir = scratch("recent");
        let kept = dir.join("kept.obj");
        std::fs::write(&kept, "v 0 0 0\n").unwrap();
        let gone = dir.join("gone.obj").display().to_string();
        let shown = present(&[gone, kept.display().to_string()]);
        assert_eq!(shown, [kept]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_keys_go_into_a_folder_open_a_map_and_backspace_returns_to_the_folder_left() {
        let dir = scratch("keys");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/inner.obj"), "").unwrap();
        std::fs::write(dir.join("top.obj"), "").unwrap();
        std::fs::write(dir.join("notes.txt"), "").unwrap();
        let recent = dir.join("top.obj");
        let mut b = Browser::new(&dir, vec![recent.clone()]);
        // The recent map, then sub/, then top.obj; the folder's first entry chosen.
        let labels: Vec<String> = b.rows().into_iter().map(|r| r.label).collect();
        assert_eq!(
            labels,
            [
                recent.display().to_string(),
                "sub/".into(),
                "top.obj".into()
            ]
        );
        assert_eq!(b.selected, 1);
        assert_eq!(b.press(BrowseKey::Enter), None);
        assert_eq!(b.listing.folder, dir.join("sub"));
        assert_eq!(b.press(BrowseKey::Parent), None);
        assert_eq!(b.listing.folder, dir);
        assert_eq!(b.selected, 1, "back on sub/");
        b.press(BrowseKey::Down);
        b.press(BrowseKey::Down);
        assert_eq!(b.press(BrowseKey::Enter), Some(dir.join("top.obj")));
        b.press(BrowseKey::Up);
        b.press(BrowseKey::Up);
        b.press(BrowseKey::Up);
        assert_eq!(b.selected, 0);
        assert_eq!(b.press(BrowseKey::Enter), Some(recent));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_that_cannot_be_listed_is_said_and_the_listing_before_stays() {
        let dir = scratch("unlisted");
        let mut b = Browser::new(&dir, Vec::new());
        b.go_to(&dir.join("missing"), None);
        assert_eq!(b.listing.folder, dir);
        assert!(
            b.error.as_deref().is_some_and(|e| e.contains("missing")),
            "{:?}",
            b.error
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
