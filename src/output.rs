//! Writing the user's files without losing any: an output is never one of the inputs (a
//! `--trace` pointing at the map or the script overwrote it with CSV), never a pipe or a
//! device (a `--trace` FIFO with no reader blocked for ever), and a file is replaced only
//! once its new contents are whole: they are written next to it as `NAME.partial` and
//! renamed over it at the end, so a run that is killed leaves the old file as it was (and
//! the rows it wrote in the `.partial` file).

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

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
/// link or another spelling of the path is caught too) or exists as anything but a
/// regular file.
pub fn check_output(target: &Path, inputs: &[PathBuf]) -> Result<(), OutputError> {
    let path = target.display().to_string();
    let Ok(meta) = fs::metadata(target) else {
        return Ok(()); // not there yet (or unreadable: creating it will say why)
    };
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "a pipe, device or socket"
        };
        return Err(OutputError::NotRegular { path, kind });
    }
    for input in inputs {
        if fs::metadata(input).is_ok_and(|m| same_file(&meta, &m)) {
            return Err(OutputError::IsInput {
                path,
                input: input.display().to_string(),
            });
        }
    }
    Ok(())
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

/// `target` with `.partial` added to its file name: where its contents go until whole.
pub fn partial_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    target.with_file_name(name)
}

/// A file written as `NAME.partial` and renamed to `NAME` by [`PartialFile::commit`].
#[derive(Debug)]
pub struct PartialFile {
    out: BufWriter<File>,
    partial: PathBuf,
    target: PathBuf,
}

impl PartialFile {
    /// Start writing `target` (checked against `inputs` first, see [`check_output`]).
    pub fn create(target: &Path, inputs: &[PathBuf]) -> Result<PartialFile, OutputError> {
        check_output(target, inputs)?;
        let partial = partial_path(target);
        check_output(&partial, inputs)?;
        let file = File::create(&partial).map_err(|source| OutputError::Io {
            path: partial.display().to_string(),
            source,
        })?;
        Ok(PartialFile {
            out: BufWriter::new(file),
            partial,
            target: target.to_path_buf(),
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

    /// Flush everything and put the file in place of the target.
    pub fn commit(mut self) -> io::Result<()> {
        self.out.flush()?;
        fs::rename(&self.partial, &self.target)
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
        path: target.display().to_string(),
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
                        path: target.display().to_string(),
                    },
                    _ => io(e),
                })?;
            f.write_all(bytes).map_err(io)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(test: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("walkthrough-output-{}-{test}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
        let d = scratch("input");
        let map = d.join("map.obj");
        fs::write(&map, "v 0 0 0\n").unwrap();
        let e = PartialFile::create(&map, std::slice::from_ref(&map)).unwrap_err();
        assert!(matches!(e, OutputError::IsInput { .. }), "{e}");
        assert!(
            e.to_string()
                .ends_with("which this run reads; write to another file")
        );
        // Another spelling of the same file is the same file.
        let other = d.join(".").join("map.obj");
        assert!(check_output(&other, std::slice::from_ref(&map)).is_err());
        assert_eq!(fs::read_to_string(&map).unwrap(), "v 0 0 0\n");
        assert!(!partial_path(&map).exists());
    }

    #[test]
    fn a_directory_or_a_fifo_is_not_written_to() {
        let d = scratch("kinds");
        let e = check_output(&d, &[]).unwrap_err().to_string();
        assert!(e.contains("is not a regular file (a directory)"), "{e}");
        let fifo = d.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = check_output(&fifo, &[]).unwrap_err().to_string();
            assert!(e.contains("(a pipe, device or socket)"), "{e}");
        }
    }

    #[test]
    fn a_partial_file_replaces_its_target_only_when_committed() {
        let d = scratch("partial");
        let target = d.join("trace.csv");
        fs::write(&target, "old\n").unwrap();
        let mut f = PartialFile::create(&target, &[]).unwrap();
        f.write_all(b"new\n").unwrap();
        f.flush().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
        assert_eq!(
            fs::read_to_string(d.join("trace.csv.partial")).unwrap(),
            "new\n"
        );
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
        assert!(!d.join("trace.csv.partial").exists());
    }

    #[test]
    fn a_file_not_to_replace_is_never_replaced() {
        let d = scratch("new");
        let p = d.join("shot.png");
        write_file(&p, b"one", &[], Replace::No).unwrap();
        let e = write_file(&p, b"two", &[], Replace::No).unwrap_err();
        assert!(matches!(e, OutputError::Exists { .. }));
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_file(&p, b"three", &[], Replace::Yes).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"three");
    }
}
