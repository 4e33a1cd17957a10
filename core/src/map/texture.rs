//! Materials' textures: `map_Kd` decoded to RGBA8, with the alpha of `map_d` merged in,
//! each file read and decoded once however many materials share it, within limits on
//! the file's size and the decoded image's.

use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::lookup::Folders;
use super::{Material, TextureImage};
use crate::files::{FileKind, check_file, read_file};
use crate::text::quote::{escape, shown_path};

/// Widest or tallest texture decoded, pixels (OpenGL 4.5 guarantees 16384).
pub const MAX_TEXTURE_SIDE: u32 = 16384;
/// Most memory one texture's decoder may allocate, bytes (image's default).
pub const MAX_TEXTURE_DECODE_BYTES: u64 = 512 << 20;
/// Widest or tallest texture kept: larger ones are scaled down to it once decoded (4096
/// is what real-time levels ship at most; one such RGBA texture is 64 MiB).
pub const MAX_KEPT_TEXTURE_SIDE: u32 = 4096;
/// Most memory all of a map's decoded textures may keep together, bytes: textures past
/// it are drawn in their plain colour (five 16384-pixel grey PNGs of 261 KB each took
/// 5.4 GiB decoded before this budget).
pub const MAX_DECODED_TEXTURE_BYTES: u64 = 1 << 30;

/// What loading does with textures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureOptions {
    /// Decode them. Off for `sim`, which draws nothing: their files are only looked for
    /// (a missing texture is still reported).
    pub decode: bool,
    /// The total decoded bytes all textures may keep ([`MAX_DECODED_TEXTURE_BYTES`]).
    pub budget: u64,
    /// The widest side kept ([`MAX_KEPT_TEXTURE_SIDE`]).
    pub max_side: u32,
}

impl Default for TextureOptions {
    fn default() -> Self {
        TextureOptions {
            decode: true,
            budget: MAX_DECODED_TEXTURE_BYTES,
            max_side: MAX_KEPT_TEXTURE_SIDE,
        }
    }
}

/// Decoded textures by file, and merged colour + alpha textures by file pair, so that a
/// texture shared by many materials is decoded and stored once.
pub(super) struct TextureCache {
    options: TextureOptions,
    /// Decoded bytes kept so far.
    kept: u64,
    files: HashMap<PathBuf, Option<Arc<TextureImage>>>,
    merged: HashMap<(PathBuf, PathBuf), Arc<TextureImage>>,
    /// Texture files named but not found, in the order first met.
    missing: Vec<PathBuf>,
    /// Textures scaled down to the widest side kept.
    shrunk: usize,
    /// Textures left in plain colour because the budget was spent.
    over_budget: Vec<PathBuf>,
    /// The folders listed to find names ignoring case (each once per load).
    folders: Folders,
    /// Textures found only by ignoring case: the name as written, and the file.
    by_case: Vec<(String, PathBuf)>,
}

/// How many missing textures the summary names before "and N more".
const MISSING_NAMED: usize = 3;

impl TextureCache {
    /// An empty cache that loads textures as `options` say.
    pub(super) fn new(options: TextureOptions) -> TextureCache {
        TextureCache {
            options,
            kept: 0,
            files: HashMap::new(),
            merged: HashMap::new(),
            missing: Vec::new(),
            shrunk: 0,
            over_budget: Vec::new(),
            folders: Folders::default(),
            by_case: Vec::new(),
        }
    }

    /// The file a `map_Kd` / `map_d` value names in `dir`: the value itself, or its last
    /// word when it carries options such as `-s 1 1 1 file.png`; each as written, with
    /// backslashes read as slashes, then ignoring case (see [`super::lookup`]). A name
    /// found nowhere is `dir` joined with the value, or with its last word when the value
    /// starts with an option (reported missing under that path: "texture -o 0.1
    /// diffuse.jpg not found" would send a user looking for a file of that name). Options
    /// are not parsed, so a file name with spaces after them is said by its last word, as
    /// it is looked for.
    fn resolve(&mut self, dir: &Path, spec: &str) -> Resolved {
        let spec = spec.trim();
        let candidates = [spec, spec.split_whitespace().last().unwrap_or(spec)];
        let named = if spec.starts_with('-') {
            candidates[1]
        } else {
            spec
        };
        candidates
            .iter()
            .find_map(|c| self.folders.find(dir, c))
            .map_or_else(
                || Resolved {
                    path: dir.join(named),
                    by_case: false,
                },
                |f| Resolved {
                    path: f.path,
                    by_case: f.by_case,
                },
            )
    }

    /// The texture files the map named that were found (read, or only looked for).
    pub(super) fn found(&self) -> impl Iterator<Item = &PathBuf> {
        self.files.keys().filter(|p| !self.missing.contains(p))
    }

    /// One warning each for textures scaled down and textures over the budget.
    pub(super) fn report_limits(&self, warnings: &mut Vec<String>, details: &mut Vec<String>) {
        if self.shrunk > 0 {
            warnings.push(format!(
                "{} textures wider than {} pixels were scaled down to it",
                self.shrunk, self.options.max_side
            ));
        }
        if let Some(first) = self.over_budget.first() {
            warnings.push(format!(
                "{} textures (the first {}) did not fit the {} of decoded textures a map may keep; their materials are drawn in plain colours",
                self.over_budget.len(),
                first.display(),
                match self.options.budget {
                    b if b >= 1 << 20 => format!("{} MiB", b >> 20),
                    b => format!("{b} bytes"),
                }
            ));
            details.extend(
                self.over_budget
                    .iter()
                    .map(|p| format!("texture over the budget: {}", p.display())),
            );
        }
    }

    /// One warning for every texture not found (a level exported without its textures
    /// misses dozens: one line, not one each), and one detail line per file for
    /// `--verbose`.
    /// Without decoding (`sim`) the missing are details only: what is never drawn is no
    /// concern of a run that draws nothing.
    pub(super) fn report_missing(&self, warnings: &mut Vec<String>, details: &mut Vec<String>) {
        let Some(first) = self.missing.first() else {
            return;
        };
        let warnings = if self.options.decode {
            warnings
        } else {
            &mut *details
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
        let said = match names.len() {
            1 => format!(
                "texture {shown} not found in {folder}; its material is drawn in its plain colour"
            ),
            n if n <= MISSING_NAMED => format!(
                "{n} textures not found in {folder} ({shown}); their materials are drawn in plain colours"
            ),
            n => format!(
                "{n} textures not found in {folder} ({shown} and {} more; --verbose lists them); their materials are drawn in plain colours",
                n - MISSING_NAMED
            ),
        };
        warnings.push(said);
        details.extend(
            self.missing
                .iter()
                .map(|p| format!("texture not found: {}", p.display())),
        );
    }

    /// One detail line (for `--verbose`) per texture found only by ignoring case: the name
    /// the material library wrote and the file it was taken to mean.
    pub(super) fn report_by_case(&self, details: &mut Vec<String>) {
        details.extend(self.by_case.iter().map(|(name, path)| {
            format!(
                "texture {} found ignoring case: {}",
                escape(name),
                shown_path(path)
            )
        }));
    }
}

/// Where a texture's name led.
struct Resolved {
    /// The file (or, when not found, the name joined to the folder).
    path: PathBuf,
    /// Found only by ignoring case.
    by_case: bool,
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
        mirror: false,
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
    let key = (
        cache.resolve(dir, name).path,
        cache.resolve(dir, alpha_name).path,
    );
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

/// Decode the texture a `map_Kd` / `map_d` value names (once per file); a file that is
/// not there is only counted (see [`TextureCache::report_missing`]).
fn load_texture(
    dir: &Path,
    spec: &str,
    cache: &mut TextureCache,
    warnings: &mut Vec<String>,
) -> Option<Arc<TextureImage>> {
    let Resolved { path, by_case } = cache.resolve(dir, spec);
    if let Some(hit) = cache.files.get(&path) {
        return hit.clone();
    }
    if by_case {
        cache.by_case.push((spec.trim().to_string(), path.clone()));
    }
    if !path.exists() {
        cache.missing.push(path.clone());
        cache.files.insert(path, None);
        return None;
    }
    if !cache.options.decode {
        // Looked for (an input the run's outputs must not overwrite), never read; one
        // that could not be (a pipe, a device) is still said.
        if let Err(e) = check_file(&path, FileKind::Texture) {
            warnings.push(format!("texture {e}; using the plain colour"));
        }
        cache.files.insert(path, None);
        return None;
    }
    let left = cache.options.budget.saturating_sub(cache.kept);
    let decoded = match decode(&path, cache.options.max_side, left) {
        Ok(Decoded::Image { image, shrunk }) => {
            cache.kept += image.rgba.len() as u64;
            cache.shrunk += usize::from(shrunk);
            Some(Arc::new(image))
        }
        Ok(Decoded::OverBudget) => {
            cache.over_budget.push(path.clone());
            None
        }
        Err(e) => {
            warnings.push(format!("texture {e}; using the plain colour"));
            None
        }
    };
    cache.files.insert(path, decoded.clone());
    decoded
}

/// What decoding one texture gave.
enum Decoded {
    /// The image, and whether it was scaled down to the widest side kept.
    Image { image: TextureImage, shrunk: bool },
    /// Kept, it would pass the budget left: not decoded at all.
    OverBudget,
}

/// Read and decode one image within the limits, scaled down so that no side passes
/// `max_side`, unless its kept size would pass `budget` bytes (then it is not decoded).
/// The size is read from the header first, and the image is scaled in its own pixel
/// format before it becomes RGBA (a grey 16384-pixel PNG became 1 GiB of RGBA before).
/// The error names the file.
fn decode(path: &Path, max_side: u32, budget: u64) -> Result<Decoded, String> {
    let bytes = read_file(path, FileKind::Texture).map_err(|e| e.to_string())?;
    let shown = path.display();
    let reader = || {
        image::ImageReader::new(Cursor::new(&bytes))
            .with_guessed_format()
            .map_err(|e| format!("{shown}: {e}"))
    };
    let (w, h) = reader()?
        .into_dimensions()
        .map_err(|e| format!("{shown}: {e}"))?;
    let shrink = (f64::from(max_side) / f64::from(w.max(h).max(1))).min(1.0);
    let (kw, kh) = (
        ((f64::from(w) * shrink).round() as u32).max(1),
        ((f64::from(h) * shrink).round() as u32).max(1),
    );
    if u64::from(kw) * u64::from(kh) * 4 > budget {
        return Ok(Decoded::OverBudget);
    }
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_TEXTURE_SIDE);
    limits.max_image_height = Some(MAX_TEXTURE_SIDE);
    limits.max_alloc = Some(MAX_TEXTURE_DECODE_BYTES);
    let mut reader = reader()?;
    reader.limits(limits);
    let mut image = reader.decode().map_err(|e| format!("{shown}: {e}"))?;
    let shrunk = (kw, kh) != (w, h);
    if shrunk {
        image = image.thumbnail_exact(kw, kh);
    }
    let rgba = image.into_rgba8();
    let has_alpha = rgba.pixels().any(|p| p[3] < 255);
    Ok(Decoded::Image {
        image: TextureImage {
            width: rgba.width(),
            height: rgba.height(),
            rgba: rgba.into_raw(),
            has_alpha,
        },
        shrunk,
    })
}

#[cfg(test)]
mod tests;
