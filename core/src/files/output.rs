//! Writing the user's files without losing any: an output is never one of the inputs (a
//! `--trace` pointing at the map or the script overwrote it with CSV), never a pipe or a
//! device (a `--trace` FIFO with no reader blocked for ever), and a file is replaced only
//! once its new contents are whole: they are written next to it as `NAME.partial` and
//! renamed over it at the end, so a run that is killed leaves the old file as it was (and
//! the rows it wrote in the `.partial` file). A write that fails (a full disk, a file
//! made read-only) removes its `.partial` file and leaves the old file as it was.
//!
//! The program's own files are inputs too: the settings file and the folder of cached
//! levels of detail (an output onto `settings.toml` replaced the user's views and
//! corrections with a trace). The window checks every output before it opens
//! ([`check_writable`]), as `sim` does, so that no walk is lost to a path that was wrong
//! from the start.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::text::quote::shown_path;

/// Why an output file was refused or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output is a file the run reads.
    #[error("{path}: is {input}, which this run reads; write to another file")]
    IsInput {
        /// The output asked for.
        path: String,
        /// The input it is (as given).
        input: String,
    },
    /// The output is in a folder the program reads from (its cache).
    #[error("{path}: is in {folder}, a folder this program keeps and reads; write somewhere else")]
    InInputFolder {
        /// The output asked for.
        path: String,
        /// The folder.
        folder: String,
    },
    /// The output's folder is not there, or is not a folder.
    #[error("{path}: cannot write: {folder} {why}")]
    NoFolder {
        /// The output asked for.
        path: String,
        /// Its folder.
        folder: String,
        /// "does not exist" or "is not a folder".
        why: &'static str,
    },
    /// The output exists and is not a regular file.
    #[error(
        "{path}: is not a regular file ({kind}); give the path of a file to write (it is replaced when the run ends)"
    )]
    NotRegular {
        /// The output asked for.
        path: String,
        /// What it is instead.
        kind: &'static str,
    },
    /// Two outputs of one run name the same file.
    #[error("{path}: is both {first} and {second}; give each output its own file")]
    Twice {
        /// The file.
        path: String,
        /// The two options that name it ("--trace", "--decals-out").
        first: &'static str,
        second: &'static str,
    },
    /// A file not to be replaced exists already.
    #[error("{path}: exists already; not replaced")]
    Exists {
        /// The output asked for.
        path: String,
    },
    /// The system refused.
    #[error("{path}: cannot write: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        source: io::Error,
    },
}

/// Whether [`write_file`] may replace a file that is there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// The user named the file: replace it, once the new one is whole.
    Yes,
    /// The program chose the name (an F12 screenshot): never replace anything.
    No,
}

/// Refuse `target` when it is one of `inputs` (the same file by device and inode, so a
/// link or another spelling of the path is caught too; one not made yet by its folder's
/// real path and its name) or lies in one that is a folder, or exists as anything but a
/// regular file.
pub fn check_output(target: &Path, inputs: &[PathBuf]) -> Result<(), OutputError> {
    let path = shown_path(target);
    let meta = fs::metadata(target).ok();
    if let Some(meta) = meta.as_ref().filter(|m| !m.is_file()) {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "a pipe, device or socket"
        };
        return Err(OutputError::NotRegular { path, kind });
    }
    let real = real_path(target);
    for input in inputs {
        let input_meta = fs::metadata(input).ok();
        if input_meta.as_ref().is_some_and(fs::Metadata::is_dir) {
            if let (Some(r), Ok(folder)) = (&real, fs::canonicalize(input))
                && r.starts_with(&folder)
            {
                return Err(OutputError::InInputFolder {
                    path,
                    folder: shown_path(input),
                });
            }
            continue;
        }
        let same = match (&meta, &input_meta) {
            (Some(a), Some(b)) => same_file(a, b),
            _ => real.is_some() && real == real_path(input),
        };
        if same {
            return Err(OutputError::IsInput {
                path,
                input: shown_path(input),
            });
        }
    }
    Ok(())
}

/// Refuse two of a run's `outputs` (each with the option that names it) that are the same
/// file: both would write through one `.partial` file, and the one renamed last would
/// win (`--trace X --decals-out X` would leave a mix of both, and the old X lost).
/// The same file by device and inode when it exists, by its real path when not yet. An
/// output not asked for (`None`) is passed over.
pub fn check_distinct(asked: &[(&'static str, Option<&Path>)]) -> Result<(), OutputError> {
    let outputs: Vec<(&str, &Path)> = asked
        .iter()
        .filter_map(|&(flag, p)| Some((flag, p?)))
        .collect();
    for (i, &(first, a)) in outputs.iter().enumerate() {
        for &(second, b) in &outputs[i + 1..] {
            let same = match (fs::metadata(a), fs::metadata(b)) {
                (Ok(x), Ok(y)) => same_file(&x, &y),
                _ => real_path(a).is_some_and(|r| Some(r) == real_path(b)),
            };
            if same {
                return Err(OutputError::Twice {
                    path: shown_path(a),
                    first,
                    second,
                });
            }
        }
    }
    Ok(())
}

/// [`check_output`], and that the file can be made: its folder is there, and its
/// `.partial` file can be created (it is removed again if this made it). The window asks
/// this of every output before it opens.
pub fn check_writable(target: &Path, inputs: &[PathBuf]) -> Result<(), OutputError> {
    check_output(target, inputs)?;
    let written = written_at(target);
    let partial = partial_path(&written);
    check_output(&partial, inputs)?;
    let folder = crate::files::folder_of(&written);
    if !folder.is_dir() {
        return Err(OutputError::NoFolder {
            path: shown_path(target),
            folder: shown_path(folder),
            why: if folder.exists() {
                "is not a folder"
            } else {
                "does not exist"
            },
        });
    }
    // One there already (a link, say) is left alone: the write removes it and makes its
    // own (see [`PartialFile::create`]).
    if fs::symlink_metadata(&partial).is_ok() {
        return Ok(());
    }
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&partial)
        .map_err(|source| OutputError::Io {
            path: shown_path(target),
            source,
        })?;
    let _ = fs::remove_file(&partial);
    Ok(())
}

/// Where an output named `target` is written: the file a link by that name leads to (a
/// link is followed, never replaced), else `target` itself. `--trace /dev/stdout` with
/// standard output sent to a file had its `.partial` file made in `/dev` and renamed
/// over the system's link there (as root); now the file the link
/// leads to gets the trace, and its `.partial` file is made beside it.
fn written_at(target: &Path) -> PathBuf {
    let link = fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink());
    match link.then(|| fs::canonicalize(target)) {
        Some(Ok(real)) => real,
        _ => target.to_path_buf(),
    }
}

/// The real path of `p` whether or not it exists yet: its folder's, resolved, and its
/// name. `None` when the folder cannot be resolved (it is not there).
fn real_path(p: &Path) -> Option<PathBuf> {
    let name = p.file_name()?;
    let folder = fs::canonicalize(crate::files::folder_of(p)).ok()?;
    let joined = folder.join(name);
    // A link resolves to what it points at.
    Some(fs::canonicalize(&joined).unwrap_or(joined))
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    // Without inodes: the same length and modification time is the best cheap guess.
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

/// The longest file name most file systems take (ext4, XFS, APFS, NTFS: 255 bytes).
const NAME_MAX: usize = 255;

/// `target` with `.partial` added to its file name: where its contents go until whole. A
/// name too long for that (a valid 250-byte trace name would fail with "File name too
/// long") keeps its first 200 bytes and a digest of the whole name.
pub fn partial_path(target: &Path) -> PathBuf {
    const SUFFIX: &str = ".partial";
    let name = target.file_name().unwrap_or_default();
    let bytes = name.as_encoded_bytes();
    if bytes.len() + SUFFIX.len() <= NAME_MAX {
        let mut name = name.to_os_string();
        name.push(SUFFIX);
        return target.with_file_name(name);
    }
    let kept = String::from_utf8_lossy(&bytes[..200]);
    let kept = kept.trim_end_matches('\u{FFFD}');
    let digest = xxhash_rust::xxh3::xxh3_64(bytes);
    target.with_file_name(format!("{kept}~{digest:016x}{SUFFIX}"))
}

/// A file written as `NAME.partial` and renamed to `NAME` by [`PartialFile::commit`]; one
/// dropped without a commit, or whose commit fails, takes its `.partial` file with it.
#[derive(Debug)]
pub struct PartialFile {
    out: BufWriter<File>,
    partial: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl PartialFile {
    /// Start writing `target` (checked against `inputs` first, see [`check_output`]).
    pub fn create(target: &Path, inputs: &[PathBuf]) -> Result<PartialFile, OutputError> {
        check_output(target, inputs)?;
        let written = written_at(target);
        let partial = partial_path(&written);
        check_output(&partial, inputs)?;
        // The error names the file asked for (its `.partial` name is ours). A `.partial`
        // left there, or a link by that name, is removed and the file made anew, never
        // opened: a link's target would be written through (`X.partial ->
        // victim.obj` would get the trace).
        let io = |source| OutputError::Io {
            path: shown_path(target),
            source,
        };
        match fs::remove_file(&partial) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io(e)),
            _ => {}
        }
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
            .map_err(io)?;
        Ok(PartialFile {
            out: BufWriter::new(file),
            partial,
            target: written,
            committed: false,
        })
    }

    /// The file this becomes.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Where the contents go until [`commit`](Self::commit).
    pub fn partial_path(&self) -> &Path {
        &self.partial
    }

    /// Flush everything and put the file in place of the target. On failure the
    /// `.partial` file is removed and the target left as it was.
    pub fn commit(mut self) -> io::Result<()> {
        self.out.flush()?;
        fs::rename(&self.partial, &self.target)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for PartialFile {
    /// Not committed (a write failed, or the run gave up): the half-written file goes.
    /// (A run killed outright runs no drop: its `.partial` file keeps the rows it wrote.)
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.partial);
        }
    }
}

impl Write for PartialFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Write `bytes` to `target` whole: through a `.partial` file renamed over it
/// ([`Replace::Yes`]), or only where nothing is there yet ([`Replace::No`]).
pub fn write_file(
    target: &Path,
    bytes: &[u8],
    inputs: &[PathBuf],
    replace: Replace,
) -> Result<(), OutputError> {
    let io = |source| OutputError::Io {
        path: shown_path(target),
        source,
    };
    match replace {
        Replace::Yes => {
            let mut f = PartialFile::create(target, inputs)?;
            f.write_all(bytes).map_err(io)?;
            f.commit().map_err(io)
        }
        Replace::No => {
            let mut f = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(target)
                .map_err(|e| match e.kind() {
                    io::ErrorKind::AlreadyExists => OutputError::Exists {
                        path: shown_path(target),
                    },
                    _ => io(e),
                })?;
            // The name was claimed here: a write that fails takes the half-written file.
            f.write_all(bytes).map_err(|e| {
                let _ = fs::remove_file(target);
                io(e)
            })
        }
    }
}

#[cfg(test)]
mod tests;
