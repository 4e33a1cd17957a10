//! Loading OBJ files with tobj into a [`Map`]: materials by batch, our own triangulation,
//! and no NaN in the collision world.
//!
//! tobj does the parsing; `map::locate` turns its errors into `file:line: reason`,
//! `map::mtl` reads and sanitises the material libraries, `map::texture` decodes
//! textures. Faces with non-finite coordinates are dropped and counted.

use std::cell::Cell;
use std::collections::HashSet;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use glam::Vec3;

use super::assemble::{FaceCounts, assemble};
use super::halves::{self, TWO_READERS_MIN_BYTES};
use super::locate::{BadLine, LineCounter, bad_face_closed_at, explain, first_bad_line, not_obj};
use super::mtl::{Libraries, LibraryState, Source, users_of};
use super::pieces::{FACES_PER_PIECE, ObjectCut};
use super::progress::{Progress, Stage, Watched};
use super::sniff::{HEAD_BYTES, material_library, sniff};
use super::texture::{TextureCache, TextureOptions, convert_material};
use super::triangulate::MAX_CLIPPED_CORNERS;
use super::{Map, MapError, MapFrame, Material, UpAxis};
use crate::files::{Digest, FileKind, folder_of, read_file, read_head};
use crate::geometry::Aabb;
use crate::text::quote::shown_path;
use crate::text::wording::counted;

/// How to turn the file's coordinates into world coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LoadOptions {
    /// World units per file unit; `None` leaves the map at scale 1 (the caller may then
    /// infer one, see [`crate::survey::scale`]).
    pub scale: Option<f32>,
    /// The file's up axis.
    pub up: UpAxis,
    /// Decode textures (within a budget), or only look for their files.
    pub textures: TextureOptions,
}

/// Texts longer than this are checked for lines tobj would refuse while tobj reads them
/// (on another core), not before: a refused file this long or shorter costs no more than
/// its check; a longer one costs at most what loading it would have (tobj is stopped once
/// the check finds the line), and a good one loads sooner (ten million triangles: the
/// check takes 0.55 s of a core, beside tobj's two readers).
const CHECK_FIRST_BYTES: usize = 64 << 20;

/// How a text is handed to tobj: checked first or while tobj reads it (texts longer than
/// `check_first` bytes), and in pieces of how many faces (see `map::pieces`).
#[derive(Clone, Copy, Debug)]
struct Reading {
    check_first: usize,
    per_piece: usize,
    /// Texts from this many bytes are read by two readers at once (see `map::halves`) ...
    two_from: usize,
    /// ... split halfway (`None`), or at the first face line from this byte where one may
    /// be (for tests).
    split_from: Option<usize>,
}

impl Reading {
    /// What every load uses.
    const USUAL: Reading = Reading {
        check_first: CHECK_FIRST_BYTES,
        per_piece: FACES_PER_PIECE,
        two_from: TWO_READERS_MIN_BYTES,
        split_from: None,
    };
}

/// Load an OBJ file (and its MTL and textures) from disk. An archive, a compressed file,
/// an image or a material library is refused before any line is parsed (see
/// [`super::sniff`]).
pub fn load_obj_file(path: &Path, opts: &LoadOptions) -> Result<Map, MapError> {
    load_obj_file_watched(path, opts, &Progress::default())
}

/// [`load_obj_file`], telling `progress` how far it has come (the bytes parsed, then the
/// stage) and stopping with [`MapError::Cancelled`] once it is cancelled. The file is read
/// once: its digest ([`Map::digest`]) is taken from the bytes parsed.
pub fn load_obj_file_watched(
    path: &Path,
    opts: &LoadOptions,
    progress: &Progress,
) -> Result<Map, MapError> {
    parse_obj_file(read_obj_file(path)?, opts, progress)
}

/// An OBJ file read whole, not parsed yet, and its digest.
pub struct ObjFile {
    path: PathBuf,
    bytes: Vec<u8>,
    /// The digest of its bytes (what is remembered of the map, and the built map kept in
    /// the cache, are keyed by it).
    pub digest: Digest,
}

/// Name, source and key `map` as the map of the file at `path` with `digest`, as
/// [`parse_obj_file`] does (for a built map kept in the cache, whose lines are not read).
pub fn name_map(map: &mut Map, path: &Path, digest: Digest) {
    let shown = shown_path(path);
    map.name = path
        .file_name()
        .map_or(shown, |n| n.to_string_lossy().into_owned());
    map.source = Some(path.to_path_buf());
    map.inputs.insert(0, path.to_path_buf());
    map.digest = Some(digest);
}

/// Read the OBJ file at `path` whole (the first step of [`load_obj_file`]): an archive,
/// a compressed file or an image is refused before it is read.
pub fn read_obj_file(path: &Path) -> Result<ObjFile, MapError> {
    if let Some(format) = sniff(&read_head(path, FileKind::Obj, HEAD_BYTES)?) {
        return Err(MapError::Invalid {
            path: shown_path(path),
            reason: format.refusal(),
        });
    }
    let bytes = read_file(path, FileKind::Obj)?;
    let digest = Digest::of(&bytes);
    Ok(ObjFile {
        path: path.to_path_buf(),
        bytes,
        digest,
    })
}

/// Parse a file [`read_obj_file`] read (the rest of [`load_obj_file_watched`]).
pub fn parse_obj_file(
    file: ObjFile,
    opts: &LoadOptions,
    progress: &Progress,
) -> Result<Map, MapError> {
    let path = file.path.as_path();
    let shown = shown_path(path);
    // From nothing: the bar may have counted a cached file's bytes, refused as damaged.
    progress.set_total(file.bytes.len() as u64);
    progress.read(0);
    let text = String::from_utf8_lossy(&file.bytes);
    if material_library(&text) {
        let users: Vec<String> = users_of(path).iter().map(|p| shown_path(p)).collect();
        let mut reason = "a material library; open the .obj that uses it".to_string();
        if !users.is_empty() {
            reason += &format!(" ({})", users.join(" or "));
        }
        return Err(MapError::Invalid {
            path: shown,
            reason,
        });
    }
    let dir = folder_of(path);
    let mut map = parse(
        &shown,
        &text,
        Source::Dir(dir),
        opts,
        progress,
        Reading::USUAL,
    )?;
    if matches!(text, std::borrow::Cow::Owned(_)) {
        map.warnings
            .push(format!("{shown}: not valid UTF-8; odd bytes were replaced"));
    }
    drop(text);
    name_map(&mut map, &file.path, file.digest);
    Ok(map)
}

/// Load an OBJ from a string, with MTL files given as `(name, text)` pairs. `name` is
/// used in messages. Textures are not loaded.
pub fn load_obj_str(
    name: &str,
    obj: &str,
    mtls: &[(&str, &str)],
    opts: &LoadOptions,
) -> Result<Map, MapError> {
    let mut map = parse(
        name,
        obj,
        Source::Memory(mtls),
        opts,
        &Progress::default(),
        Reading::USUAL,
    )?;
    map.name = name.to_string();
    Ok(map)
}

/// What tobj read: its models, its materials and the folder textures are looked in.
struct Parsed {
    models: Vec<tobj::Model>,
    materials: Vec<tobj::Material>,
    texture_dir: Option<PathBuf>,
    /// The material libraries read from files, and those named but not read.
    libraries: Vec<PathBuf>,
    /// `f` lines of fewer than three corners: dropped, and said (`f 1 2` was dropped
    /// without a word).
    short_faces: usize,
}

/// The text as tobj should see it: tabs are whitespace in OBJ, but tobj reads a `usemtl`
/// or `mtllib` name after the first space only (`usemtl<TAB>brick` was refused); and a
/// file whose lines end in a carriage return alone (classic Mac OS) is one line to tobj.
/// Both are replaced byte for byte, so line numbers stay those of the file. A byte order
/// mark (a Windows editor's UTF-8) is no part of the first line: tobj read `\u{feff}v` as
/// no vertex, and every index after it named the one after.
fn normalised(text: &str) -> std::borrow::Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let cr_only = text.contains('\r') && !text.contains('\n');
    if !cr_only && !text.contains('\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines = if cr_only { '\n' } else { '\r' };
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\t' => ' ',
                '\r' => lines,
                c => c,
            })
            .collect(),
    )
}

/// Why a file of `faces` face corners, `short` of its faces under three corners, made no
/// triangle (its faces counted in `counts`).
fn why_empty(faces: usize, short: usize, counts: &FaceCounts) -> String {
    let c = counts;
    if faces == 0 && short > 0 {
        format!(
            "{} fewer than three corners ('f' needs three or more)",
            match short {
                1 => "its one face has".to_string(),
                n => format!("its {n} faces have"),
            }
        )
    } else if faces == 0 {
        "the file has no faces, only points or lines or nothing".to_string()
    } else if c.too_large > 0 {
        format!(
            "every face is dropped: {} not finite, {} without area, {} concave of more than {MAX_CLIPPED_CORNERS} corners",
            c.non_finite, c.degenerate, c.too_large
        )
    } else {
        format!(
            "every face is degenerate: {} not finite, {} without area",
            c.non_finite, c.degenerate
        )
    }
}

fn parse(
    shown: &str,
    text: &str,
    source: Source,
    opts: &LoadOptions,
    progress: &Progress,
    reading: Reading,
) -> Result<Map, MapError> {
    let text = &*normalised(text);
    let frame = MapFrame {
        scale: opts.scale.unwrap_or(1.0),
        up: opts.up,
    };
    if !(frame.scale.is_finite() && frame.scale > 0.0) {
        return Err(MapError::Invalid {
            path: shown.to_string(),
            reason: format!("scale {} must be a positive number", frame.scale),
        });
    }
    let mut warnings = Vec::new();
    let parsed = read_with_tobj(shown, text, &source, &mut warnings, progress, reading)?;
    progress.enter(Stage::Triangles);
    let mut cache = TextureCache::new(opts.textures);
    let mut materials = vec![Material::default_grey()];
    for m in &parsed.materials {
        materials.push(convert_material(
            m,
            parsed.texture_dir.as_deref(),
            &mut cache,
            &mut warnings,
        ));
    }
    let mut details = Vec::new();
    cache.report_missing(&mut warnings, &mut details);
    cache.report_by_case(&mut details);
    cache.report_limits(&mut warnings, &mut details);
    let geometry = assemble(&parsed.models, materials.len(), &frame);
    geometry.counts.warn(shown, &mut warnings);
    if parsed.short_faces > 0 {
        warnings.push(format!(
            "{shown}: dropped {} of fewer than three corners ('f' needs three or more; two make a line, 'l')",
            counted(parsed.short_faces, "face", "faces")
        ));
    }
    let (vertices, batches) = (geometry.vertices, geometry.batches);
    if vertices.is_empty() {
        let faces: usize = parsed.models.iter().map(|m| m.mesh.indices.len()).sum();
        if let Some(kind) = not_obj(text) {
            return Err(MapError::Invalid {
                path: shown.to_string(),
                reason: format!(
                    "does not look like an OBJ file: it looks like {kind} (an OBJ file is text with lines such as 'v x y z' and 'f 1 2 3')"
                ),
            });
        }
        let reason = why_empty(faces, parsed.short_faces, &geometry.counts);
        return Err(MapError::Empty {
            path: shown.to_string(),
            reason,
        });
    }
    let bounds = Aabb::from_points(vertices.positions().map(Vec3::from));
    let inputs = parsed
        .libraries
        .iter()
        .chain(cache.found())
        .cloned()
        .collect();
    Ok(Map {
        name: shown.to_string(),
        source: None,
        inputs,
        vertices,
        batches,
        materials,
        bounds,
        solids: Default::default(),
        frame,
        marked_spawn: geometry.marked_spawn,
        objects: parsed
            .models
            .iter()
            .map(|m| m.name.as_str())
            .collect::<HashSet<_>>()
            .len(),
        warnings,
        details,
        moving: Vec::new(),
        digest: None,
    })
}

/// Why the text is refused where tobj stopped with `err` at `line`: an index out of range
/// found where a change of material closed an object is named at the face's own line;
/// else the line the check refused (`bad`), or tobj's own line explained.
fn stopped_at(text: &str, line: usize, err: &tobj::LoadError, bad: Option<BadLine>) -> BadLine {
    bad_face_closed_at(text, line)
        .or(bad)
        .unwrap_or_else(|| BadLine {
            line,
            reason: explain(text.lines().nth(line - 1).unwrap_or(""), err),
            tobj_may_stop_before: false,
        })
}

/// Run tobj over `text`, reading the material libraries it asks for from `source`.
/// Errors name the file and the line. A text from `reading.two_from` bytes is read by two
/// readers at once (see `map::halves`).
fn read_with_tobj(
    shown: &str,
    text: &str,
    source: &Source,
    warnings: &mut Vec<String>,
    progress: &Progress,
    reading: Reading,
) -> Result<Parsed, MapError> {
    let libraries = Libraries::new(shown, source);
    // Set to stop the readers: the check found a line to refuse, or a reader failed.
    let stop = AtomicBool::new(false);
    let read = || {
        (text.len() >= reading.two_from)
            .then(|| {
                let aim = reading.split_from.unwrap_or_else(|| halves::aim(text));
                halves::read_both(text, aim, reading.per_piece, &libraries, progress, &stop)
            })
            .flatten()
    };
    // Every line is checked by tobj's rules, so that the line named is the face's own (tobj
    // finds a bad index only as the face's object closes, and blames the line that closed
    // it). A text up to `check_first` bytes is checked before tobj keeps any face of it; a
    // longer one while tobj reads it, on another core, and tobj is stopped once the check
    // finds a line to refuse.
    let refused = |BadLine { line, reason, .. }| MapError::Parse {
        path: shown.to_string(),
        line,
        reason,
    };
    // A line refused after a `usemtl` where tobj may stop first (see
    // `BadLine::tobj_may_stop_before`) waits for tobj's read: where it stops tells.
    let sure = |bad: &BadLine| !bad.tobj_may_stop_before;
    let (mut bad, halves) = if text.len() <= reading.check_first {
        let mut bad = first_bad_line(text);
        if let Some(bad) = bad.take_if(|b| sure(b)) {
            return Err(refused(bad));
        }
        (bad, read())
    } else {
        std::thread::scope(|s| {
            let checker = std::thread::Builder::new()
                .spawn_scoped(s, || {
                    let bad = first_bad_line(text);
                    if bad.as_ref().is_some_and(sure) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    bad
                })
                .ok();
            let halves = read();
            let bad = match checker {
                Some(c) => c.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                // No thread to be had: checked after, as tobj's answer is not used yet.
                None => first_bad_line(text),
            };
            (bad, halves)
        })
    };
    if let Some(bad) = bad.take_if(|b| sure(b)) {
        return Err(refused(bad));
    }
    let stopped = || MapError::Cancelled {
        path: shown.to_string(),
    };
    if progress.cancelled() {
        return Err(stopped());
    }
    let TobjRead {
        result,
        line,
        short_faces,
    } = match halves {
        Some(both) => TobjRead {
            result: Ok(both.read),
            line: 0,
            short_faces: both.short_faces,
        },
        None => read_alone(text, reading.per_piece, &libraries, progress),
    };
    if progress.cancelled() {
        return Err(stopped());
    }
    let result = result.map_err(|_| MapError::Invalid {
        path: shown.to_string(),
        reason: "the OBJ parser failed on this file".into(),
    })?;
    let LibraryState {
        warnings: mtl_warnings,
        texture_dir,
        paths,
        ..
    } = libraries.into_state();
    warnings.extend(mtl_warnings);
    let (models, materials) = match (result, bad) {
        (Err(e), bad) => return Err(refused(stopped_at(text, line.max(1), &e, bad))),
        // tobj read past every `usemtl` where it might have stopped: the check's line.
        (Ok(_), Some(bad)) => return Err(refused(bad)),
        (Ok(read), None) => read,
    };
    let texture_dir = match source {
        Source::Dir(d) => texture_dir.or(Some(d.to_path_buf())),
        Source::Memory(_) => None,
    };
    Ok(Parsed {
        models,
        materials: materials.unwrap_or_default(),
        texture_dir,
        libraries: paths,
        short_faces,
    })
}

/// One reader of the whole of `text` (it is short, or the two readers failed: read
/// again, for tobj's own answer and its line), handing tobj pieces of `per_piece` faces.
fn read_alone(
    text: &str,
    per_piece: usize,
    libraries: &Libraries,
    progress: &Progress,
) -> TobjRead {
    libraries.forget();
    progress.read(0);
    let go_on = AtomicBool::new(false);
    let mut reader = ObjectCut::new(
        LineCounter::new(Watched::new(text.as_bytes(), progress, &go_on)),
        per_piece,
    );
    let result = tobj_over(&mut reader, libraries);
    TobjRead {
        result,
        line: reader.inner().line(),
        short_faces: reader.short_faces(),
    }
}

/// What tobj made of a text, and the line its reader stopped on (the line of its error).
struct TobjRead {
    /// tobj's answer, or its panic.
    result: std::thread::Result<tobj::LoadResult>,
    line: usize,
    /// `f` lines of fewer than three corners (no triangle comes of them).
    short_faces: usize,
}

/// How tobj is asked to read: polygons are triangulated by `map::triangulate` (ear
/// clipping for concave ones), points and polylines are not geometry.
const TOBJ_OPTIONS: tobj::LoadOptions = tobj::LoadOptions {
    single_index: true,
    triangulate: false,
    ignore_points: true,
    ignore_lines: true,
};

/// tobj over `reader`, asking `libraries` for the material libraries (tobj is defended
/// against, its MTL sanitised, but a parser bug must not take the app down).
pub(super) fn tobj_over(
    reader: &mut impl BufRead,
    libraries: &Libraries,
) -> std::thread::Result<tobj::LoadResult> {
    let asked = Cell::new(0);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        tobj::load_obj_buf(reader, &TOBJ_OPTIONS, |p| libraries.load(&asked, p))
    }))
}

#[cfg(test)]
mod tests;
