//! The read stage of an open: an OBJ file's length checked, its bytes hashed into its
//! digest (the key it is remembered and cached by), and its text parsed into a map in
//! the file's own frame (its axes and units as written: the frame stage turns and
//! scales it). A TOML scene is read by the scene stage, whole.

use std::path::Path;

use crate::files::{Digest, FileKind, check_file};
use crate::map::progress::{Progress, Stage};
use crate::map::{
    LoadOptions, Map, MapError, ObjFile, TextureOptions, UpAxis, parse_obj_file, read_obj_file,
};

/// A map file about to be parsed: its length and digest, and its bytes when they were
/// read to be hashed.
pub(super) struct Source {
    /// Its length, bytes.
    pub(super) len: u64,
    /// Its content's digest.
    pub(super) digest: Digest,
    /// Its bytes (`None`: hashed as a stream, not held).
    file: Option<ObjFile>,
}

/// The length of the OBJ file at `path`, once it is checked to be a file a map is read
/// from (a regular file within the size limit).
pub(super) fn length(path: &Path) -> Result<u64, MapError> {
    Ok(check_file(path, FileKind::Obj)?.len())
}

/// The file at `path`, `len` bytes long, hashed: as a stream when `stream` (a built map
/// of its length is kept, which may spare reading it whole: 379 MB for ten million
/// triangles, never held), else read whole at once, as it will be parsed.
pub(super) fn source(path: &Path, len: u64, stream: bool) -> Result<Source, MapError> {
    if stream {
        let digest = Digest::of_file(path, FileKind::Obj)?;
        return Ok(Source {
            len,
            digest,
            file: None,
        });
    }
    let read = read_obj_file(path)?;
    Ok(Source {
        len,
        digest: read.digest,
        file: Some(read),
    })
}

/// The map in `source` (the file at `path`), parsed in its file's frame (Y up as
/// written, scale 1) with `textures`, `progress` told of the bytes read.
pub(super) fn parse(
    path: &Path,
    source: Source,
    textures: TextureOptions,
    progress: &Progress,
) -> Result<Map, MapError> {
    // From nothing: the bar may have counted a cached file's bytes (refused, or of
    // another build) and says what is read now.
    progress.enter(Stage::Reading);
    progress.set_total(source.len);
    progress.read(0);
    // Hashed as a stream, and not kept after all (a file of the same length, or a
    // damaged one): read whole now.
    let file = match source.file {
        Some(f) => f,
        None => read_obj_file(path)?,
    };
    let options = LoadOptions {
        scale: Some(1.0),
        up: UpAxis::Y,
        textures,
    };
    parse_obj_file(file, &options, progress)
}
