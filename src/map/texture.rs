//! Materials' textures: `map_Kd` decoded to RGBA8, with the alpha of `map_d` merged in,
//! each file read and decoded once however many materials share it, within limits on
//! the file's size and the decoded image's.

use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Material, TextureImage};
use crate::input::{FileKind, read_file};

/// Widest or tallest texture decoded, pixels (OpenGL 4.5 guarantees 16384).
pub const MAX_TEXTURE_SIDE: u32 = 16384;
/// Most memory one texture's decoder may allocate, bytes (image's default).
pub const MAX_TEXTURE_DECODE_BYTES: u64 = 512 << 20;

/// Decoded textures by file, and merged colour + alpha textures by file pair, so that a
/// texture shared by many materials is decoded and stored once.
#[derive(Default)]
pub(super) struct TextureCache {
    files: HashMap<PathBuf, Option<Arc<TextureImage>>>,
    merged: HashMap<(PathBuf, PathBuf), Arc<TextureImage>>,
    /// Texture files named but not found, in the order first met.
    missing: Vec<PathBuf>,
}

/// How many missing textures the summary names before "and N more".
const MISSING_NAMED: usize = 3;

impl TextureCache {
    /// One warning for every texture not found (a level exported without its textures
    /// misses dozens: one line, not one each), and one detail line per file for
    /// `--verbose`.
    pub(super) fn report_missing(&self, warnings: &mut Vec<String>, details: &mut Vec<String>) {
        let Some(first) = self.missing.first() else {
            return;
        };
        let folder = first
            .parent()
            .map_or(String::new(), |d| d.display().to_string());
        let names: Vec<String> = self
            .missing
            .iter()
            .map(|p| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        let shown = names[..names.len().min(MISSING_NAMED)].join(", ");
        warnings.push(match names.len() {
            1 => format!("texture {shown} not found in {folder}; its material is drawn in its plain colour"),
            n if n <= MISSING_NAMED => format!(
                "{n} textures not found in {folder} ({shown}); their materials are drawn in plain colours"
            ),
            n => format!(
                "{n} textures not found in {folder} ({shown} and {} more; --verbose lists them); their materials are drawn in plain colours",
                n - MISSING_NAMED
            ),
        });
        details.extend(
            self.missing
                .iter()
                .map(|p| format!("texture not found: {}", p.display())),
        );
    }
}

/// Our material for one of tobj's: its diffuse colour (clamped, grey when not finite)
/// and its texture, loaded from `dir` when there is one.
pub(super) fn convert_material(
    m: &tobj::Material,
    dir: Option<&Path>,
    cache: &mut TextureCache,
    warnings: &mut Vec<String>,
) -> Material {
    let diffuse = m
        .diffuse
        .filter(|c| c.iter().all(|x| x.is_finite()))
        .map_or([0.7, 0.7, 0.7], |c| c.map(|x| x.clamp(0.0, 1.0)));
    let texture = match (dir, m.diffuse_texture.as_deref()) {
        (Some(dir), Some(name)) => {
            let colour = load_texture(dir, name, cache, warnings);
            match (colour, m.dissolve_texture.as_deref()) {
                (Some(colour), Some(alpha_name)) => Some(with_alpha_map(
                    colour, dir, name, alpha_name, &m.name, cache, warnings,
                )),
                (colour, _) => colour,
            }
        }
        _ => None,
    };
    Material {
        name: m.name.clone(),
        diffuse,
        texture,
    }
}

/// `colour` with the alpha of the `map_d` image merged in (its red channel), or `colour`
/// as it is when the alpha map is missing or of another size.
fn with_alpha_map(
    colour: Arc<TextureImage>,
    dir: &Path,
    name: &str,
    alpha_name: &str,
    material: &str,
    cache: &mut TextureCache,
    warnings: &mut Vec<String>,
) -> Arc<TextureImage> {
    let key = (resolve_texture(dir, name), resolve_texture(dir, alpha_name));
    if let Some(merged) = cache.merged.get(&key) {
        return merged.clone();
    }
    let Some(alpha) = load_texture(dir, alpha_name, cache, warnings) else {
        return colour;
    };
    if alpha.width != colour.width || alpha.height != colour.height {
        warnings.push(format!(
            "material {material}: alpha map {alpha_name} has a different size than {name}; ignored"
        ));
        return colour;
    }
    let mut merged = (*colour).clone();
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
    merged
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

/// Decode the texture a `map_Kd` / `map_d` value names (once per file); a file that is
/// not there is only counted (see [`TextureCache::report_missing`]).
fn load_texture(
    dir: &Path,
    spec: &str,
    cache: &mut TextureCache,
    warnings: &mut Vec<String>,
) -> Option<Arc<TextureImage>> {
    let path = resolve_texture(dir, spec);
    if let Some(hit) = cache.files.get(&path) {
        return hit.clone();
    }
    if !path.exists() {
        cache.missing.push(path.clone());
        cache.files.insert(path, None);
        return None;
    }
    let decoded = match decode(&path) {
        Ok(t) => Some(Arc::new(t)),
        Err(e) => {
            warnings.push(format!("texture {e}; using the plain colour"));
            None
        }
    };
    cache.files.insert(path, decoded.clone());
    decoded
}

/// Read and decode one image within the limits; the error names the file.
fn decode(path: &Path) -> Result<TextureImage, String> {
    let bytes = read_file(path, FileKind::Texture).map_err(|e| e.to_string())?;
    let shown = path.display();
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_TEXTURE_SIDE);
    limits.max_image_height = Some(MAX_TEXTURE_SIDE);
    limits.max_alloc = Some(MAX_TEXTURE_DECODE_BYTES);
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| format!("{shown}: {e}"))?;
    reader.limits(limits);
    let rgba = reader
        .decode()
        .map_err(|e| format!("{shown}: {e}"))?
        .to_rgba8();
    let has_alpha = rgba.pixels().any(|p| p[3] < 255);
    Ok(TextureImage {
        width: rgba.width(),
        height: rgba.height(),
        rgba: rgba.into_raw(),
        has_alpha,
    })
}
