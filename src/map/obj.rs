//! Loading OBJ/MTL with tobj, with errors that name the file, the line and the reason.
//!
//! tobj does the parsing; its errors carry neither file nor line, so on failure a second,
//! small scan of the text ([`locate_error`]) finds the offending line. MTL files are
//! sanitised before tobj sees them (a `Kd` with fewer than three numbers makes tobj 4
//! panic), a missing MTL or texture is a warning and a grey material, and faces with
//! non-finite coordinates are dropped and counted, so no NaN reaches the collision world.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::Vec3;

use super::triangulate::{Kind, triangulate};
use super::{Map, MapFrame, MarkedSpawn, Material, TextureImage, UpAxis, Vertex};
use crate::geometry::Aabb;

/// How to turn the file's coordinates into world coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LoadOptions {
    /// World units per file unit; `None` leaves the map at scale 1 (the caller may then
    /// infer one, see [`crate::map::survey::infer_scale`]).
    pub scale: Option<f32>,
    /// The file's up axis.
    pub up: UpAxis,
}

/// Why a map could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The file could not be opened or read.
    #[error("{path}: cannot read the file: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        source: io::Error,
    },
    /// A directory was given where a file was expected.
    #[error("{path}: is a directory, not an OBJ file")]
    IsDirectory {
        /// The directory.
        path: String,
    },
    /// A syntax error at a known line.
    #[error("{path}:{line}: {reason}")]
    Parse {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A problem with no single line to blame.
    #[error("{path}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The file parsed but has nothing to walk in.
    #[error("{path}: no triangles to walk in ({reason})")]
    Empty {
        /// The file.
        path: String,
        /// Why (points or lines only, every face degenerate...).
        reason: String,
    },
}

/// Names of objects that mark the spawn point instead of being geometry.
const SPAWN_NAMES: [&str; 4] = ["spawn", "player_start", "playerstart", "info_player_start"];

/// Where MTL and texture files come from.
enum Source<'a> {
    /// Files next to the OBJ, in this directory.
    Dir(&'a Path),
    /// In-memory MTL texts by name (the built-in map and tests); no textures.
    Memory(&'a [(&'a str, &'a str)]),
}

/// Read a map or scene file whole, refusing directories; errors name the file.
pub(crate) fn read_input(path: &Path) -> Result<Vec<u8>, MapError> {
    let shown = path.display().to_string();
    if path.is_dir() {
        return Err(MapError::IsDirectory { path: shown });
    }
    std::fs::read(path).map_err(|source| MapError::Io {
        path: shown,
        source,
    })
}

/// Load an OBJ file (and its MTL and textures) from disk.
pub fn load_obj_file(path: &Path, opts: &LoadOptions) -> Result<Map, MapError> {
    let shown = path.display().to_string();
    let bytes = read_input(path)?;
    let text = String::from_utf8_lossy(&bytes);
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut map = parse(&shown, &text, Source::Dir(dir), opts)?;
    if matches!(text, std::borrow::Cow::Owned(_)) {
        map.warnings
            .push(format!("{shown}: not valid UTF-8; odd bytes were replaced"));
    }
    map.name = path
        .file_name()
        .map_or(shown, |n| n.to_string_lossy().into_owned());
    map.source = Some(path.to_path_buf());
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
    let mut map = parse(name, obj, Source::Memory(mtls), opts)?;
    map.name = name.to_string();
    Ok(map)
}

fn parse(shown: &str, text: &str, source: Source, opts: &LoadOptions) -> Result<Map, MapError> {
    let warnings = RefCell::new(Vec::<String>::new());
    let mtl_dirs = RefCell::new(HashMap::<String, PathBuf>::new());
    let load_options = tobj::LoadOptions {
        single_index: true,
        triangulate: false, // we triangulate ourselves: ear clipping for concave polygons
        ignore_points: true,
        ignore_lines: true,
    };
    let loader = |p: &Path| -> tobj::MTLLoadResult {
        let key = p.to_string_lossy().into_owned();
        // `mtllib a.mtl b\ with\ spaces.mtl`: the whole value may be one file name with
        // spaces, or several names with escaped spaces. Every library found is read.
        let mut texts = Vec::new();
        for name in mtllib_names(&key) {
            match &source {
                Source::Dir(dir) => {
                    let full = dir.join(&name);
                    if let Ok(b) = std::fs::read(&full) {
                        mtl_dirs
                            .borrow_mut()
                            .insert(name.clone(), full.parent().unwrap_or(dir).to_path_buf());
                        texts.push((
                            full.display().to_string(),
                            String::from_utf8_lossy(&b).into_owned(),
                        ));
                    }
                }
                Source::Memory(mtls) => {
                    if let Some((n, t)) = mtls.iter().find(|(n, _)| *n == name) {
                        texts.push((n.to_string(), t.to_string()));
                    }
                }
            }
            if texts.len() == 1 && name == key {
                break; // the whole value named one file
            }
        }
        if texts.is_empty() {
            warnings.borrow_mut().push(format!(
                "{shown}: material library '{key}' not found; its materials are grey"
            ));
            return Err(tobj::LoadError::OpenFileFailed);
        }
        let mut clean = String::new();
        for (mtl_name, mtl_text) in &texts {
            clean += &sanitize_mtl(mtl_name, mtl_text, &mut warnings.borrow_mut());
        }
        tobj::load_mtl_buf(&mut clean.as_bytes()).inspect_err(|e| {
            warnings
                .borrow_mut()
                .push(format!("{}: {e}; its materials are grey", texts[0].0));
        })
    };
    // tobj is defended against (sanitised MTL), but a parser bug must not take the app down.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        tobj::load_obj_buf(&mut text.as_bytes(), &load_options, loader)
    }))
    .map_err(|_| MapError::Invalid {
        path: shown.to_string(),
        reason: "the OBJ parser failed on this file".into(),
    })?;
    let (models, materials) = result.map_err(|e| match locate_error(text, &e) {
        Some((line, reason)) => MapError::Parse {
            path: shown.to_string(),
            line,
            reason,
        },
        None => MapError::Invalid {
            path: shown.to_string(),
            reason: e.to_string(),
        },
    })?;
    let mut warnings = warnings.into_inner();
    let tobj_materials = materials.unwrap_or_default();

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

    // Materials: index 0 is the default grey; file materials follow.
    let mtl_dirs = mtl_dirs.into_inner();
    let tex_dir = match &source {
        Source::Dir(d) => mtl_dirs.values().next().cloned().or(Some(d.to_path_buf())),
        Source::Memory(_) => None,
    };
    let mut cache = TextureCache::default();
    let mut mats = vec![Material::default_grey()];
    for m in &tobj_materials {
        mats.push(convert_material(
            m,
            tex_dir.as_deref(),
            &mut cache,
            &mut warnings,
        ));
    }

    // Geometry, grouped by material.
    let mut per_material: Vec<Vec<Vertex>> = vec![Vec::new(); mats.len()];
    let mut marked_spawn = None;
    let (mut non_finite, mut degenerate, mut concave, mut fallback) =
        (0usize, 0usize, 0usize, 0usize);
    let mut tris = Vec::new();
    let mut corners = Vec::new();
    for model in &models {
        let mesh = &model.mesh;
        let pos = |i: u32| {
            let i = i as usize * 3;
            frame.to_world(Vec3::new(
                mesh.positions[i],
                mesh.positions[i + 1],
                mesh.positions[i + 2],
            ))
        };
        if SPAWN_NAMES
            .iter()
            .any(|n| model.name.trim().eq_ignore_ascii_case(n))
        {
            let n = mesh.positions.len() / 3;
            if n > 0 {
                let c = (0..n as u32).map(pos).fold(Vec3::ZERO, |a, p| a + p) / n as f32;
                if c.is_finite() {
                    marked_spawn = Some(MarkedSpawn { position: c });
                }
            }
            continue;
        }
        let has_normals = mesh.normals.len() == mesh.positions.len();
        let has_uv = mesh.texcoords.len() / 2 == mesh.positions.len() / 3;
        let material = mesh.material_id.map_or(0, |m| m + 1).min(mats.len() - 1);
        let arities: Vec<u32> = if mesh.face_arities.is_empty() {
            vec![3; mesh.indices.len() / 3]
        } else {
            mesh.face_arities.clone()
        };
        let mut at = 0usize;
        for &arity in &arities {
            let face = &mesh.indices[at..(at + arity as usize).min(mesh.indices.len())];
            at += arity as usize;
            corners.clear();
            corners.extend(face.iter().map(|&i| pos(i)));
            if !corners.iter().all(|p| p.is_finite()) {
                non_finite += 1;
                continue;
            }
            tris.clear();
            match triangulate(&corners, &mut tris) {
                Kind::Degenerate => degenerate += 1,
                Kind::Concave => concave += 1,
                Kind::Fallback => fallback += 1,
                Kind::Convex => {}
            }
            for &[a, b, c] in &tris {
                let p = [corners[a], corners[b], corners[c]];
                let Some(face_n) = (p[1] - p[0]).cross(p[2] - p[0]).try_normalize() else {
                    degenerate += 1;
                    continue;
                };
                for (k, &ci) in [a, b, c].iter().enumerate() {
                    let idx = face[ci] as usize;
                    let normal = if has_normals {
                        let n = Vec3::from_slice(&mesh.normals[idx * 3..idx * 3 + 3]);
                        frame.rotate_to_world(n).try_normalize().unwrap_or(face_n)
                    } else {
                        face_n
                    };
                    let uv = if has_uv {
                        let (u, v) = (mesh.texcoords[idx * 2], mesh.texcoords[idx * 2 + 1]);
                        if u.is_finite() && v.is_finite() {
                            [u, v]
                        } else {
                            [0.0, 0.0]
                        }
                    } else {
                        [0.0, 0.0]
                    };
                    per_material[material].push(Vertex {
                        position: p[k].into(),
                        normal: normal.into(),
                        uv,
                    });
                }
            }
        }
    }
    if non_finite > 0 {
        warnings.push(format!(
            "{shown}: dropped {non_finite} faces with non-finite (NaN or infinite) coordinates"
        ));
    }
    if degenerate > 0 {
        warnings.push(format!(
            "{shown}: dropped {degenerate} degenerate faces (no area)"
        ));
    }
    if concave > 0 {
        warnings.push(format!(
            "{shown}: {concave} concave polygons were ear-clipped (a fan would be wrong)"
        ));
    }
    if fallback > 0 {
        warnings.push(format!(
            "{shown}: {fallback} self-intersecting polygons were fanned"
        ));
    }

    let (vertices, batches) = super::batch_by_material(per_material);
    if vertices.is_empty() {
        let faces: usize = models.iter().map(|m| m.mesh.indices.len()).sum();
        let reason = if faces == 0 {
            "the file has no faces, only points or lines or nothing".to_string()
        } else {
            format!("every face is degenerate: {non_finite} not finite, {degenerate} without area")
        };
        return Err(MapError::Empty {
            path: shown.to_string(),
            reason,
        });
    }
    let bounds = Aabb::from_points(vertices.iter().map(|v| Vec3::from(v.position)));
    Ok(Map {
        name: shown.to_string(),
        source: None,
        vertices,
        batches,
        materials: mats,
        bounds,
        frame,
        marked_spawn,
        objects: models
            .iter()
            .map(|m| m.name.as_str())
            .collect::<std::collections::HashSet<_>>()
            .len(),
        warnings,
    })
}

/// The file names an `mtllib` value may mean: the value as one name, then its words split
/// at unescaped whitespace with `\ ` read as a space.
fn mtllib_names(value: &str) -> Vec<String> {
    let mut names = vec![value.to_string()];
    let mut word = String::new();
    let mut chars = value.chars().peekable();
    let mut split = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|n| n.is_whitespace()) => {
                word.push(chars.next().unwrap_or(' '))
            }
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    split.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        split.push(word);
    }
    if split.len() > 1 || split.first().is_some_and(|w| w != value) {
        names.extend(split);
    }
    names
}

/// Colour keywords whose values tobj reads as exactly three numbers.
const COLOUR_KEYS: [&str; 5] = ["Ka", "Kd", "Ks", "Ke", "Tf"];

/// Make an MTL safe for tobj: colour lines with one or two numbers are completed (the
/// spec allows `Kd 0.5` for grey), lines that do not parse are dropped with a warning.
fn sanitize_mtl(name: &str, text: &str, warnings: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let key = words.next().unwrap_or("");
        if COLOUR_KEYS.contains(&key) {
            let nums: Vec<&str> = words.collect();
            // "Kd spectral file.rfl" and "Kd xyz x y z" are valid forms we do not read.
            let parsed: Option<Vec<f32>> = nums.iter().map(|w| w.parse::<f32>().ok()).collect();
            match parsed.as_deref() {
                Some([_, _, _, ..]) => out.push_str(line),
                Some([x]) => out.push_str(&format!("{key} {x} {x} {x}")),
                Some([x, y]) => out.push_str(&format!("{key} {x} {y} {y}")),
                _ => {
                    warnings.push(format!(
                        "{name}:{}: ignored '{}': expected three numbers",
                        i + 1,
                        line.trim()
                    ));
                    continue;
                }
            }
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Decoded textures by file, and merged colour + alpha textures by file pair, so that a
/// texture shared by many materials is decoded and stored once.
#[derive(Default)]
struct TextureCache {
    files: HashMap<PathBuf, Option<Arc<TextureImage>>>,
    merged: HashMap<(PathBuf, PathBuf), Arc<TextureImage>>,
}

fn convert_material(
    m: &tobj::Material,
    dir: Option<&Path>,
    cache: &mut TextureCache,
    warnings: &mut Vec<String>,
) -> Material {
    let diffuse = m
        .diffuse
        .filter(|c| c.iter().all(|x| x.is_finite()))
        .map_or([0.7, 0.7, 0.7], |c| c.map(|x| x.clamp(0.0, 1.0)));
    let mut texture = None;
    if let (Some(dir), Some(name)) = (dir, m.diffuse_texture.as_deref()) {
        texture = load_texture(dir, name, &mut cache.files, warnings);
        if let (Some(tex), Some(alpha_name)) = (&texture, m.dissolve_texture.as_deref()) {
            let key = (resolve_texture(dir, name), resolve_texture(dir, alpha_name));
            if let Some(merged) = cache.merged.get(&key) {
                texture = Some(merged.clone());
            } else if let Some(alpha) = load_texture(dir, alpha_name, &mut cache.files, warnings) {
                if alpha.width == tex.width && alpha.height == tex.height {
                    let mut merged = (**tex).clone();
                    for (px, a) in merged
                        .rgba
                        .chunks_exact_mut(4)
                        .zip(alpha.rgba.chunks_exact(4))
                    {
                        px[3] = px[3].min(a[0]);
                    }
                    merged.has_alpha = merged.rgba.chunks_exact(4).any(|p| p[3] < 255);
                    let merged = Arc::new(merged);
                    cache.merged.insert(key, merged.clone());
                    texture = Some(merged);
                } else {
                    warnings.push(format!(
                        "material {}: alpha map {alpha_name} has a different size than {name}; ignored",
                        m.name
                    ));
                }
            }
        }
    }
    Material {
        name: m.name.clone(),
        diffuse,
        texture,
    }
}

/// The file a `map_Kd` / `map_d` value names: the value itself, or its last word when it
/// carries options such as `-s 1 1 1 file.png`; backslashes read as slashes.
fn resolve_texture(dir: &Path, spec: &str) -> PathBuf {
    let spec = spec.trim();
    let candidates = [spec, spec.split_whitespace().last().unwrap_or(spec)];
    candidates
        .iter()
        .map(|c| dir.join(c.replace('\\', "/")))
        .find(|p| p.is_file())
        .unwrap_or_else(|| dir.join(spec))
}

/// Decode the texture a `map_Kd` / `map_d` value names (once per file).
fn load_texture(
    dir: &Path,
    spec: &str,
    cache: &mut HashMap<PathBuf, Option<Arc<TextureImage>>>,
    warnings: &mut Vec<String>,
) -> Option<Arc<TextureImage>> {
    let path = resolve_texture(dir, spec);
    if let Some(hit) = cache.get(&path) {
        return hit.clone();
    }
    let decoded = match image::open(&path) {
        Ok(img) => {
            let rgba = img.to_rgba8();
            let has_alpha = rgba.pixels().any(|p| p[3] < 255);
            Some(Arc::new(TextureImage {
                width: rgba.width(),
                height: rgba.height(),
                rgba: rgba.into_raw(),
                has_alpha,
            }))
        }
        Err(e) => {
            warnings.push(format!(
                "texture {}: {e}; using the plain colour",
                path.display()
            ));
            None
        }
    };
    cache.insert(path, decoded.clone());
    decoded
}

/// Find the line tobj stumbled on, by scanning the text with tobj's own rules.
/// Returns the 1-based line and a reason a person can act on.
pub fn locate_error(text: &str, err: &tobj::LoadError) -> Option<(usize, String)> {
    use tobj::LoadError as E;
    let floats = |words: &[&str], n: usize| {
        words.len() >= n && words[..n].iter().all(|w| w.parse::<f32>().is_ok())
    };
    // Counts of v / vt / vn: so far (for relative indices), then in total (for bounds).
    let count = |key: &str| {
        text.lines()
            .filter(|l| l.split_whitespace().next() == Some(key))
            .count()
    };
    let totals = [count("v"), count("vt"), count("vn")];
    let mut so_far = [0usize; 3];
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let key = words.next().unwrap_or("");
        let words: Vec<&str> = words.collect();
        let lineno = i + 1;
        let shown = line.trim();
        match (key, err) {
            ("v", E::PositionParseError) if !floats(&words, 3) => {
                return Some((lineno, format!("a vertex needs three numbers: '{shown}'")));
            }
            ("vt", E::TexcoordParseError) if !floats(&words, 2) => {
                return Some((
                    lineno,
                    format!("a texture coordinate needs two numbers: '{shown}'"),
                ));
            }
            ("vn", E::NormalParseError) if !floats(&words, 3) => {
                return Some((lineno, format!("a normal needs three numbers: '{shown}'")));
            }
            ("f" | "l", _) => {
                for w in &words {
                    let parts: Vec<&str> = w.split('/').collect();
                    if parts.len() > 3 {
                        return Some((
                            lineno,
                            format!(
                                "'{w}' is not a face corner (v, v/vt, v//vn or v/vt/vn): '{shown}'"
                            ),
                        ));
                    }
                    for (k, p) in parts.iter().enumerate() {
                        if p.is_empty() {
                            continue;
                        }
                        let what = ["vertex", "texture coordinate", "normal"][k];
                        let Ok(x) = p.parse::<isize>() else {
                            return Some((
                                lineno,
                                format!("'{p}' is not a {what} index: '{shown}'"),
                            ));
                        };
                        if x == 0 {
                            return Some((
                                lineno,
                                format!(
                                    "{what} index 0 is invalid (OBJ indices start at 1): '{shown}'"
                                ),
                            ));
                        }
                        if x < 0 && x.unsigned_abs() > so_far[k] {
                            return Some((
                                lineno,
                                format!(
                                    "relative {what} index {x} reaches before the first {what} ({} defined so far): '{shown}'",
                                    so_far[k]
                                ),
                            ));
                        }
                        if x > 0 && x as usize > totals[k] {
                            return Some((
                                lineno,
                                format!(
                                    "{what} index {x} is out of range (the file defines {}): '{shown}'",
                                    totals[k]
                                ),
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
        match key {
            "v" => so_far[0] += 1,
            "vt" => so_far[1] += 1,
            "vn" => so_far[2] += 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUBE_FACE: &str = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";

    fn load(obj: &str) -> Result<Map, MapError> {
        load_obj_str("test.obj", obj, &[], &LoadOptions::default())
    }

    #[test]
    fn quad_becomes_two_triangles_with_face_normals() {
        let m = load(CUBE_FACE).unwrap();
        assert_eq!(m.triangle_count(), 2);
        assert_eq!(m.batches.len(), 1);
        for v in &m.vertices {
            assert_eq!(v.normal, [0.0, 0.0, 1.0]);
        }
    }

    #[test]
    fn malformed_vertex_is_refused_with_file_and_line() {
        let e = load("v 0 0 0\nv 1 0 zero\nv 0 1 0\nf 1 2 3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "test.obj:2: a vertex needs three numbers: 'v 1 0 zero'"
        );
    }

    #[test]
    fn face_index_out_of_range_names_the_line() {
        let e = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "test.obj:5: vertex index 9 is out of range (the file defines 3): 'f 1 2 9'"
        );
    }

    #[test]
    fn face_index_zero_names_the_line() {
        let e = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("test.obj:4: vertex index 0 is invalid"),
            "{e}"
        );
    }

    #[test]
    fn negative_indices_work() {
        let m = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n").unwrap();
        assert_eq!(m.triangle_count(), 1);
    }

    #[test]
    fn crlf_line_endings_work() {
        let m = load(&CUBE_FACE.replace('\n', "\r\n")).unwrap();
        assert_eq!(m.triangle_count(), 2);
    }

    #[test]
    fn nan_vertices_never_reach_the_map() {
        let m = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 0\nf 1 2 3\nf 1 2 4\n").unwrap();
        assert_eq!(m.triangle_count(), 1);
        assert!(
            m.vertices
                .iter()
                .all(|v| v.position.iter().all(|x| x.is_finite()))
        );
        assert!(
            m.warnings.iter().any(|w| w.contains("non-finite")),
            "{:?}",
            m.warnings
        );
    }

    #[test]
    fn points_and_lines_only_is_an_empty_map_error() {
        let e = load("v 0 0 0\nv 1 0 0\nl 1 2\np 1\n").unwrap_err();
        assert!(matches!(e, MapError::Empty { .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with("test.obj: no triangles to walk in")
        );
    }

    #[test]
    fn mtllib_with_escaped_spaces_names_several_files() {
        assert_eq!(mtllib_names("a.mtl"), vec!["a.mtl"]);
        assert_eq!(
            mtllib_names(r"a.mtl b\ c.mtl"),
            vec![
                r"a.mtl b\ c.mtl".to_string(),
                "a.mtl".into(),
                "b c.mtl".into()
            ]
        );
    }

    #[test]
    fn missing_mtl_is_a_warning_and_grey() {
        let m = load(&format!("mtllib nowhere.mtl\nusemtl red\n{CUBE_FACE}")).unwrap();
        assert!(
            m.warnings.iter().any(|w| w.contains("nowhere.mtl")),
            "{:?}",
            m.warnings
        );
        assert_eq!(m.materials[m.batches[0].material].diffuse, [0.7, 0.7, 0.7]);
    }

    #[test]
    fn mtl_colours_apply_per_material_one_batch_each() {
        let obj = "mtllib c.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nusemtl red\nf 1 2 3\nusemtl blue\nf 1 2 4\nusemtl red\nf 1 3 4\n";
        let mtl = "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n";
        let m = load_obj_str("t.obj", obj, &[("c.mtl", mtl)], &LoadOptions::default()).unwrap();
        assert_eq!(m.batches.len(), 2);
        let colours: Vec<[f32; 3]> = m
            .batches
            .iter()
            .map(|b| m.materials[b.material].diffuse)
            .collect();
        assert!(colours.contains(&[1.0, 0.0, 0.0]) && colours.contains(&[0.0, 0.0, 1.0]));
        let red = m
            .batches
            .iter()
            .find(|b| m.materials[b.material].diffuse == [1.0, 0.0, 0.0])
            .unwrap();
        assert_eq!(red.count, 6);
    }

    #[test]
    fn short_colour_in_mtl_is_completed_not_a_crash() {
        let mtl = "newmtl grey\nKd 0.5\nnewmtl bad\nKd x y z\n";
        let obj = format!("mtllib c.mtl\nusemtl grey\n{CUBE_FACE}");
        let m = load_obj_str("t.obj", &obj, &[("c.mtl", mtl)], &LoadOptions::default()).unwrap();
        assert_eq!(m.materials[m.batches[0].material].diffuse, [0.5, 0.5, 0.5]);
        assert!(
            m.warnings.iter().any(|w| w.contains("c.mtl:4")),
            "{:?}",
            m.warnings
        );
    }

    #[test]
    fn spawn_object_marks_the_spawn_and_is_not_geometry() {
        let obj = format!("{CUBE_FACE}o spawn\nv 5 1 5\nv 5.1 1 5\nv 5 1 5.1\nf 5 6 7\n");
        let m = load(&obj).unwrap();
        assert_eq!(m.triangle_count(), 2);
        let s = m.marked_spawn.unwrap().position;
        assert!((s - Vec3::new(5.0333, 1.0, 5.0333)).length() < 1e-3);
    }

    #[test]
    fn z_up_and_scale_are_applied() {
        let opts = LoadOptions {
            scale: Some(0.5),
            up: UpAxis::Z,
        };
        let m = load_obj_str("t.obj", CUBE_FACE, &[], &opts).unwrap();
        // The face lay in z = 0 of a Z-up file: a floor, normal +Y in the world.
        assert!(
            m.vertices
                .iter()
                .all(|v| v.position[1] == 0.0 && v.normal == [0.0, 1.0, 0.0])
        );
        assert_eq!(m.bounds.max.x, 0.5);
    }

    #[test]
    fn concave_polygon_is_ear_clipped_and_warned() {
        let obj = "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nf 1 2 3 4 5 6\n";
        let m = load(obj).unwrap();
        assert_eq!(m.triangle_count(), 4);
        let area: f32 = m
            .triangles()
            .map(|[a, b, c]| (b - a).cross(c - a).length() / 2.0)
            .sum();
        assert!((area - 3.0).abs() < 1e-5);
        assert!(m.warnings.iter().any(|w| w.contains("concave")));
    }
}
