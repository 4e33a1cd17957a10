//! Reading the user's files with bounds: only regular files, never more than a documented
//! number of bytes each, with errors that name the file and say why.
//!
//! A FIFO or a device given as a map, an `mtllib`, a texture or a script would block for
//! ever or read until memory runs out, so the type is checked with `stat` before the file
//! is opened (`stat` does not block on a FIFO) and again on the open handle, and reading
//! stops one byte past the limit.
//!
//! [`output`] is the other direction: writing files without losing any.

pub mod output;

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

use crate::text::quote::shown_path;

/// What a file is read as; each kind has its own size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// An OBJ map or model.
    Obj,
    /// A TOML scene.
    Scene,
    /// An MTL material library.
    Material,
    /// A texture image.
    Texture,
    /// A `sim` / `--script` script.
    Script,
    /// One of walkthrough's own files in the config folder (settings.toml).
    Settings,
    /// A map's levels of detail kept in the cache folder.
    Cache,
}

/// Largest OBJ file read: 2 GiB (a million-triangle map is about 100 MiB of text).
pub const MAX_OBJ_BYTES: u64 = 2 << 30;
/// Largest scene file read: 64 MiB (a million placements of about 60 bytes each).
pub const MAX_SCENE_BYTES: u64 = 64 << 20;
/// Largest MTL file read: 256 MiB.
pub const MAX_MTL_BYTES: u64 = 256 << 20;
/// Largest texture file read: 256 MiB (decoding has its own limits, see
/// [`crate::map`]'s texture loading).
pub const MAX_TEXTURE_BYTES: u64 = 256 << 20;
/// Largest script read: 16 MiB.
pub const MAX_SCRIPT_BYTES: u64 = 16 << 20;
/// Largest settings file read: 4 MiB (a thousand remembered maps is about 150 KiB).
pub const MAX_SETTINGS_BYTES: u64 = 4 << 20;
/// Largest levels-of-detail file read: 256 MiB (a million-triangle map's are about 10).
pub const MAX_CACHE_BYTES: u64 = 256 << 20;

impl FileKind {
    /// The most bytes read from a file of this kind.
    pub fn limit(self) -> u64 {
        match self {
            FileKind::Obj => MAX_OBJ_BYTES,
            FileKind::Scene => MAX_SCENE_BYTES,
            FileKind::Material => MAX_MTL_BYTES,
            FileKind::Texture => MAX_TEXTURE_BYTES,
            FileKind::Script => MAX_SCRIPT_BYTES,
            FileKind::Settings => MAX_SETTINGS_BYTES,
            FileKind::Cache => MAX_CACHE_BYTES,
        }
    }

    /// The kind in a sentence: "an OBJ file", "a script"...
    pub fn article_name(self) -> &'static str {
        match self {
            FileKind::Obj => "an OBJ file",
            FileKind::Scene => "a scene file",
            FileKind::Material => "an MTL file",
            FileKind::Texture => "an image",
            FileKind::Script => "a script",
            FileKind::Settings => "a settings file",
            FileKind::Cache => "a levels-of-detail file",
        }
    }
}

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The system refused (not found, no permission...).
    #[error("{path}: cannot read the file: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        source: io::Error,
    },
    /// A map or scene that is not there: the names near it in its folder are suggested.
    #[error("{path}: cannot read the file: {source}{}", Suggestions(.suggestions))]
    Missing {
        /// The file.
        path: String,
        /// The system's reason (not found).
        source: io::Error,
        /// Maps and scenes in its folder with names near its own, nearest first.
        suggestions: Suggested,
    },
    /// A directory was given where a file was expected.
    #[error("{path}: is a directory, not {}{}", .kind.article_name(), Suggestions(.suggestions))]
    IsDirectory {
        /// The directory.
        path: String,
        /// What was expected.
        kind: FileKind,
        /// Files in it that could be meant (maps and scenes).
        suggestions: Suggested,
    },
    /// A FIFO, device or socket: reading it could block for ever or never end.
    #[error("{path}: is not a regular file (a pipe, device or socket); give {} saved on disk", .kind.article_name())]
    NotRegular {
        /// The file.
        path: String,
        /// What was expected.
        kind: FileKind,
    },
    /// Bigger than the limit for its kind.
    #[error("{path}: is larger than {} MiB, the limit for {}", .limit >> 20, .kind.article_name())]
    TooLarge {
        /// The file.
        path: String,
        /// What was expected.
        kind: FileKind,
        /// The limit, bytes.
        limit: u64,
    },
}

/// The maps a directory given as a map holds: the first few by name, and how many more.
#[derive(Debug, Default)]
pub struct Suggested {
    /// At most [`MAX_SUGGESTIONS`], sorted.
    pub maps: Vec<PathBuf>,
    /// Those not listed (a directory of seven levels named four, and said nothing of
    /// the other three).
    pub more: usize,
}

/// " (did you mean a or b?)", " (did you mean a or b, or one of 3 more?)" or nothing.
struct Suggestions<'a>(&'a Suggested);

impl fmt::Display for Suggestions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Suggested { maps, more } = self.0;
        if maps.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = maps.iter().map(|p| shown_path(p)).collect();
        write!(f, " (did you mean {}", names.join(" or "))?;
        match more {
            0 => write!(f, "?)"),
            1 => write!(f, ", or one more?)"),
            n => write!(f, ", or one of {n} more?)"),
        }
    }
}

/// Most suggestions listed for a directory given as a map.
const MAX_SUGGESTIONS: usize = 4;
/// Most directory entries looked at for suggestions (a huge directory is not listed whole).
const MAX_ENTRIES_SCANNED: usize = 10_000;

/// A file's identity by its content: its xxh3-128 digest and its length. Taken from the
/// bytes a load has read anyway, so a map is read once (the store keys what it remembers
/// of a map, and the cache keeps built maps, by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Digest {
    /// xxh3-128 of the bytes.
    pub hash: u128,
    /// Their number.
    pub len: u64,
}

impl Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest {
        Digest {
            hash: xxhash_rust::xxh3::xxh3_128(bytes),
            len: bytes.len() as u64,
        }
    }

    /// The digest of the `kind` file at `path`, read as a stream (a buffer of
    /// [`HASH_CHUNK`] bytes, never the whole file), within `kind`'s size limit.
    pub fn of_file(path: &Path, kind: FileKind) -> Result<Digest, ReadError> {
        let Opened { file, .. } = open_file(path, kind)?;
        let mut reader = file.take(kind.limit());
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        let mut buf = vec![0u8; HASH_CHUNK];
        let mut len = 0u64;
        loop {
            let n = reader.read(&mut buf).map_err(|source| ReadError::Io {
                path: shown_path(path),
                source,
            })?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            len += n as u64;
        }
        Ok(Digest {
            hash: hasher.digest128(),
            len,
        })
    }
}

/// Bytes read at a time while hashing a file as a stream.
const HASH_CHUNK: usize = 1 << 20;

/// The folder `path`'s relative references (an MTL, a texture, a scene's models) are
/// found from: its parent, or the working folder for a bare file name.
pub fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Make the folder `dir` (and the folders above it), or say why not in words: "File
/// exists (os error 17)" tells nothing of a file standing where the folder goes.
pub fn create_folder(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| {
        // Looked for, not read from the error's kind: each system names it otherwise
        // (Windows says the path was not found).
        let in_the_way = dir
            .ancestors()
            .any(|a| std::fs::metadata(a).is_ok_and(|m| !m.is_dir()));
        let why = if in_the_way {
            "a file (not a folder) is in the way".to_string()
        } else {
            e.to_string()
        };
        format!("{}: cannot create the folder: {why}", dir.display())
    })
}

/// The 1-based line of byte `offset` of a file's `text`, for a message naming the line
/// a parser stopped at (an error at the very end, after the last line's newline, is on
/// the last line: there is no line after it).
pub fn line_at(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    let line = text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1;
    line.min(text.lines().count().max(1))
}

/// Read a whole file of `kind`, refusing directories, FIFOs, devices and files over the
/// kind's limit.
pub fn read_file(path: &Path, kind: FileKind) -> Result<Vec<u8>, ReadError> {
    read_file_limited(path, kind, kind.limit())
}

/// Check, without opening it, that `path` can be read as a `kind` file: it is there, a
/// regular file (not a directory, pipe, device or socket) and within `kind`'s size limit.
/// (`sim`, which decodes no textures, asks this of them.)
pub fn check_file(path: &Path, kind: FileKind) -> Result<std::fs::Metadata, ReadError> {
    check_file_limited(path, kind, kind.limit())
}

fn check_file_limited(
    path: &Path,
    kind: FileKind,
    limit: u64,
) -> Result<std::fs::Metadata, ReadError> {
    let shown = || shown_path(path);
    let meta = std::fs::metadata(path).map_err(|source| {
        let map = matches!(kind, FileKind::Obj | FileKind::Scene);
        if map && source.kind() == io::ErrorKind::NotFound {
            ReadError::Missing {
                path: shown(),
                source,
                suggestions: near_maps(path),
            }
        } else {
            ReadError::Io {
                path: shown(),
                source,
            }
        }
    })?;
    if meta.is_dir() {
        return Err(ReadError::IsDirectory {
            path: shown(),
            kind,
            suggestions: if kind == FileKind::Obj {
                suggest_maps(path)
            } else {
                Suggested::default()
            },
        });
    }
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            path: shown(),
            kind,
        });
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            path: shown(),
            kind,
            limit,
        });
    }
    Ok(meta)
}

/// [`read_file`] with an explicit byte limit (tests use small ones).
pub fn read_file_limited(path: &Path, kind: FileKind, limit: u64) -> Result<Vec<u8>, ReadError> {
    let Opened { file, meta } = open_limited(path, kind, limit)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // One byte past the limit tells a file that grew while it was read.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            path: shown_path(path),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: shown_path(path),
            kind,
            limit,
        });
    }
    Ok(bytes)
}

/// The first `len` bytes of a `kind` file (all of it when shorter), after
/// [`check_file`]'s checks: what a file is can be told from its start without reading a
/// 2 GiB archive whole.
pub fn read_head(path: &Path, kind: FileKind, len: usize) -> Result<Vec<u8>, ReadError> {
    let Opened { file, .. } = open_file(path, kind)?;
    let mut bytes = Vec::with_capacity(len);
    file.take(len as u64)
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            path: shown_path(path),
            source,
        })?;
    Ok(bytes)
}

/// A file opened for reading after [`check_file`]'s checks.
pub struct Opened {
    /// The open handle (a regular file, checked again on the handle itself).
    pub file: File,
    /// Its metadata when it was checked.
    pub meta: std::fs::Metadata,
}

/// Open `path` as a `kind` file for reading in a stream (hashing a map): the checks of
/// [`check_file`], then the handle checked again. Read at most `kind.limit()` bytes from it.
pub fn open_file(path: &Path, kind: FileKind) -> Result<Opened, ReadError> {
    open_limited(path, kind, kind.limit())
}

fn open_limited(path: &Path, kind: FileKind, limit: u64) -> Result<Opened, ReadError> {
    let io_err = |source| ReadError::Io {
        path: shown_path(path),
        source,
    };
    let meta = check_file_limited(path, kind, limit)?;
    let file = File::open(path).map_err(io_err)?;
    // The path may have been swapped for a FIFO between the two looks.
    if !file.metadata().map_err(io_err)?.is_file() {
        return Err(ReadError::NotRegular {
            path: shown_path(path),
            kind,
        });
    }
    Ok(Opened { file, meta })
}

/// The paths of the first `most` entries of the folder `dir`, in the system's order (none
/// when it cannot be listed): a folder of millions of files is not listed whole.
pub fn folder_entries(dir: &Path, most: usize) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|r| {
            r.take(most)
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `p` is a file that could be meant as a map: a scene (`.toml`), or a `.obj`
/// whose first bytes read as an OBJ (see `map::sniff`: an image renamed `.obj` is none).
fn is_map_file(p: &Path) -> bool {
    let ext = |want: &str| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(want));
    p.is_file() && (ext("toml") || (ext("obj") && crate::map::looks_like_obj(p)))
}

/// The first [`MAX_SUGGESTIONS`] of `found`, in its order, and how many more.
fn suggested(mut found: Vec<PathBuf>) -> Suggested {
    let more = found.len().saturating_sub(MAX_SUGGESTIONS);
    found.truncate(MAX_SUGGESTIONS);
    Suggested { maps: found, more }
}

/// The maps in `dir` (or else in its direct subdirectories), sorted: the first
/// [`MAX_SUGGESTIONS`], and how many more.
fn suggest_maps(dir: &Path) -> Suggested {
    let entries = |d: &Path| folder_entries(d, MAX_ENTRIES_SCANNED);
    let top = entries(dir);
    let mut found: Vec<PathBuf> = top.iter().filter(|p| is_map_file(p)).cloned().collect();
    if found.is_empty() {
        for sub in top.iter().filter(|p| p.is_dir()) {
            found.extend(entries(sub).into_iter().filter(|p| is_map_file(p)));
        }
    }
    found.sort();
    suggested(found)
}

/// Most edits (insert, delete, replace a character) between a mistyped map's name and a
/// name suggested for it, per character of the typed name: a third (`defualt.obj` is two
/// edits from `default.obj`; `room.obj` is not suggested for `hall.obj`, four of eight).
const NEAR_NAME_EDITS_PER_CHAR: f64 = 1.0 / 3.0;

/// The maps in the folder of the missing `path` whose names are near its name (by
/// [`edit_distance`], ignoring case), nearest first, then by name.
fn near_maps(path: &Path) -> Suggested {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().to_lowercase()) else {
        return Suggested::default();
    };
    let most = (name.chars().count() as f64 * NEAR_NAME_EDITS_PER_CHAR).floor() as usize;
    let mut near: Vec<(usize, PathBuf)> = folder_entries(folder_of(path), MAX_ENTRIES_SCANNED)
        .into_iter()
        .filter_map(|p| {
            let other = p.file_name()?.to_string_lossy().to_lowercase();
            let edits = edit_distance(&name, &other);
            (edits <= most.max(1) && is_map_file(&p)).then_some((edits, p))
        })
        .collect();
    near.sort();
    // Shown as the user typed the folder (`assets/default.obj`, not `./assets/...`).
    let shown = |p: PathBuf| match (path.parent(), p.file_name()) {
        (Some(parent), Some(file)) => parent.join(file),
        _ => p,
    };
    suggested(near.into_iter().map(|(_, p)| shown(p)).collect())
}

/// Levenshtein's distance between `a` and `b`: the fewest characters inserted, deleted
/// or replaced to turn one into the other (one row of the table at a time).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let replaced = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = replaced.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// [`Read::read`] for a reader that is its own [`BufRead`]: what its buffer holds, through
/// its `fill_buf` and `consume` (so that a reader watching those sees every byte).
pub fn read_through_buffer(r: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let n = {
        let data = r.fill_buf()?;
        let n = data.len().min(buf.len());
        buf[..n].copy_from_slice(&data[..n]);
        n
    };
    r.consume(n);
    Ok(n)
}

/// A FIFO made at `path`, for the tests of what refuses pipes (panics when `mkfifo`
/// cannot make one).
#[cfg(all(test, unix))]
pub(crate) fn make_fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// What `f` returns, run on a thread of its own: a watchdog for a test of a read that
/// must not block (it fails after `secs` seconds instead of hanging).
#[cfg(test)]
pub(crate) fn answered_within<T: Send + 'static>(
    secs: u64,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (send, answer) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(f()));
    answer
        .recv_timeout(std::time::Duration::from_secs(secs))
        .expect("it returns in time")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("walkthrough-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_file_over_the_limit_is_refused_and_one_at_it_is_read() {
        let p = scratch("ten.txt");
        std::fs::write(&p, b"0123456789").unwrap();
        assert_eq!(
            read_file_limited(&p, FileKind::Script, 10).unwrap(),
            b"0123456789"
        );
        let e = read_file_limited(&p, FileKind::Script, 9).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { limit: 9, .. }), "{e}");
    }

    #[test]
    fn a_device_is_not_a_regular_file() {
        let e = read_file(Path::new("/dev/zero"), FileKind::Material).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero: is not a regular file (a pipe, device or socket); give an MTL file saved on disk"
        );
    }

    #[test]
    fn edit_distance_counts_inserts_deletes_and_replacements() {
        assert_eq!(edit_distance("default.obj", "default.obj"), 0);
        assert_eq!(edit_distance("defualt.obj", "default.obj"), 2);
        assert_eq!(edit_distance("scene.tml", "scene.toml"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn a_missing_map_suggests_the_near_names_in_its_folder() {
        let dir = scratch("near-names");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("default.obj"), "v 0 0 0\n").unwrap();
        std::fs::write(dir.join("defaults.obj"), "v 0 0 0\n").unwrap();
        std::fs::write(dir.join("hall.obj"), "v 0 0 0\n").unwrap();
        // Near by name, but an image: not suggested.
        std::fs::write(dir.join("Default.obj"), b"\x89PNG\r\n\x1a\n").unwrap();
        let e = read_file(&dir.join("defualt.obj"), FileKind::Obj).unwrap_err();
        let want = format!(
            "{}: cannot read the file: No such file or directory (os error 2) (did you mean {} or {}?)",
            dir.join("defualt.obj").display(),
            dir.join("default.obj").display(),
            dir.join("defaults.obj").display()
        );
        assert_eq!(e.to_string(), want);
        // Nothing near: no suggestion; an MTL's missing file is said as before.
        let e = read_file(&dir.join("room.obj"), FileKind::Obj).unwrap_err();
        assert!(e.to_string().ends_with("(os error 2)"), "{e}");
        let e = read_file(&dir.join("defualt.obj"), FileKind::Material).unwrap_err();
        assert!(matches!(e, ReadError::Io { .. }), "{e}");
    }

    #[test]
    fn a_folder_suggests_no_image_renamed_obj() {
        let dir = scratch("renamed-image");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a-picture.obj"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
        std::fs::write(dir.join("b-materials.obj"), "newmtl brick\nKd 1 0 0\n").unwrap();
        std::fs::write(dir.join("c-room.obj"), "v 0 0 0\n").unwrap();
        let e = read_file(&dir, FileKind::Obj).unwrap_err();
        let want = format!(
            "{}: is a directory, not an OBJ file (did you mean {}?)",
            dir.display(),
            dir.join("c-room.obj").display()
        );
        assert_eq!(e.to_string(), want);
    }

    #[test]
    fn a_directory_of_maps_suggests_them() {
        let dir = scratch("maps-dir");
        std::fs::create_dir_all(dir.join("inner")).unwrap();
        std::fs::write(dir.join("inner/room.obj"), "v 0 0 0\n").unwrap();
        std::fs::write(dir.join("inner/notes.txt"), "").unwrap();
        let e = read_file(&dir, FileKind::Obj).unwrap_err();
        let want = format!(
            "{}: is a directory, not an OBJ file (did you mean {}?)",
            dir.display(),
            dir.join("inner/room.obj").display()
        );
        assert_eq!(e.to_string(), want);
        // More maps than are named: how many more is said.
        for (extra, tail) in [(1, ", or one more?)"), (3, ", or one of 3 more?)")] {
            let dir = scratch(&format!("maps-dir-{extra}"));
            std::fs::create_dir_all(&dir).unwrap();
            for k in 0..MAX_SUGGESTIONS + extra {
                std::fs::write(dir.join(format!("level{k}.obj")), "v 0 0 0\n").unwrap();
            }
            let e = read_file(&dir, FileKind::Obj).unwrap_err().to_string();
            assert!(e.ends_with(tail), "{e}");
            assert!(e.contains("level3.obj") && !e.contains("level4.obj"), "{e}");
        }
    }
}
