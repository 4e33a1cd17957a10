//! Finding a file a map names (a texture): as written, then with `\` read as `/`, then
//! ignoring case one folder at a time. Files written on Windows name `SP_LUK.JPG` where
//! the folder holds `sp_luk.JPG`, and `textures\wall.png` for `textures/wall.png`; on a
//! file system that tells case apart those textures were "not found" and drawn grey.
//!
//! A folder is listed at most once per load ([`Folders`] keeps each listing), so a map
//! of a thousand textures in one folder lists it once, not a thousand times.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use crate::files::folder_entries;

/// Most entries of one folder listed to match names ignoring case (a folder of millions
/// of files is not listed whole; the names past it are not matched by case).
pub const MAX_LISTED_ENTRIES: usize = 100_000;

/// A file found for a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Found {
    /// The file.
    pub path: PathBuf,
    /// Found only by ignoring case: the name differs from the file's in case.
    pub by_case: bool,
}

/// The folders listed so far in one load: each folder's entries by their lower-case name.
#[derive(Debug, Default)]
pub(super) struct Folders {
    listings: HashMap<PathBuf, HashMap<String, OsString>>,
}

impl Folders {
    /// The file `name` (relative to `dir`, or absolute) means: as written, with `\` as
    /// `/`, or ignoring case (see the module's notes). `None` when there is no such file.
    pub(super) fn find(&mut self, dir: &Path, name: &str) -> Option<Found> {
        let slashed = name.replace('\\', "/");
        for written in [name, slashed.as_str()] {
            let path = dir.join(written);
            if path.is_file() {
                return Some(Found {
                    path,
                    by_case: false,
                });
            }
        }
        let mut at = dir.to_path_buf();
        for part in Path::new(&slashed).components() {
            let Component::Normal(part) = part else {
                // The root, `.` or `..`: taken as written.
                at.push(part.as_os_str());
                continue;
            };
            let exact = at.join(part);
            if exact.exists() {
                at = exact;
                continue;
            }
            let key = part.to_string_lossy().to_lowercase();
            let actual = self.listing(&at).get(&key)?.clone();
            at.push(actual);
        }
        // Found as written was tried first: whatever is found here differs in case.
        at.is_file().then_some(Found {
            path: at,
            by_case: true,
        })
    }

    /// The entries of `dir` by lower-case name, listed on first use. Of names that differ
    /// only in case, the first in byte order is taken (the same one every time).
    fn listing(&mut self, dir: &Path) -> &HashMap<String, OsString> {
        self.listings.entry(dir.to_path_buf()).or_insert_with(|| {
            let mut names: Vec<OsString> = folder_entries(dir, MAX_LISTED_ENTRIES)
                .into_iter()
                .filter_map(|p| p.file_name().map(OsString::from))
                .collect();
            names.sort();
            let mut by_lower = HashMap::with_capacity(names.len());
            for n in names {
                by_lower
                    .entry(n.to_string_lossy().to_lowercase())
                    .or_insert(n);
            }
            by_lower
        })
    }

    /// How many folders were listed (each at most once).
    #[cfg(test)]
    pub(super) fn listed(&self) -> usize {
        self.listings.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_another_case_or_with_backslashes_are_found_listing_each_folder_once() {
        let d = std::env::temp_dir().join(format!("walkthrough-lookup-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("Tex/Sub")).unwrap();
        for f in ["sp_luk.JPG", "00_skap.JPG", "Tex/Sub/Wall.png", "exact.png"] {
            std::fs::write(d.join(f), b"x").unwrap();
        }
        let mut folders = Folders::default();
        let mut find = |name: &str| folders.find(&d, name);
        let exact = find("exact.png").unwrap();
        assert_eq!((exact.path, exact.by_case), (d.join("exact.png"), false));
        let slashed = find(r"Tex\Sub\Wall.png").unwrap();
        assert_eq!(
            (slashed.path, slashed.by_case),
            (d.join("Tex/Sub/Wall.png"), false)
        );
        for (name, file) in [
            ("SP_LUK.JPG", "sp_luk.JPG"),
            ("00_Skap.jpg", "00_skap.JPG"),
            (r"tex\SUB\wall.PNG", "Tex/Sub/Wall.png"),
            ("./TEX/sub/../Sub/WALL.png", "./Tex/Sub/../Sub/Wall.png"),
        ] {
            let found = find(name).unwrap_or_else(|| panic!("{name} not found"));
            assert_eq!((found.path, found.by_case), (d.join(file), true), "{name}");
        }
        assert_eq!(
            find("SP_LUK.PNG"),
            None,
            "another extension is another file"
        );
        assert_eq!(find("nowhere/sp_luk.JPG"), None);
        // The top folder, Tex, Tex/Sub and Tex/Sub/../Sub: each once, whatever was asked.
        assert_eq!(folders.listed(), 4);
    }
}
