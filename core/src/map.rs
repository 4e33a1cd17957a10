//! Maps: OBJ/MTL files loaded with tobj into render batches and collision triangles, in
//! world coordinates (Y up, about one unit a metre), with the frame that converts back to
//! the file's own coordinates. This module only loads: which way is up, the units and
//! the spawn are the [`crate::survey`]'s to infer.
//!
//! - [`frame`]: the file-to-world transform (scale, up axis).
//! - [`obj`]: loading an OBJ with tobj into batches and triangles.
//! - [`Corners`]: the drawn triangles' corners, as vertices or, for a file without
//!   normals and texture coordinates, positions alone.
//! - [`error`]: why a map could not be loaded (file, line, reason).
//! - `locate`: which line tobj stopped on, and what it should have been.
//! - `mtl`, `texture`: material libraries and their textures, read within limits.
//! - `lookup`: finding a file a map names as written, or ignoring case.
//! - `sniff`: what a file given as the map is when it is no OBJ (an archive, an image, a
//!   material library), told before any line is parsed.
//! - [`triangulate`]: polygons to triangles, ear clipping for concave ones.
//! - [`minimap`]: the map from above, drawn once into an image.
//! - [`scene`]: TOML scene files placing OBJ models (collision in each model's space).
//! - [`Solids`]: which triangles make closed surfaces (found by `cull::solids`; the
//!   renderer culls their backs).
//! - [`builtin`]: the default map, embedded in the binary.

mod assemble;
pub use assemble::{FLAT_NORMAL, face_normal};
mod corners;
mod halves;
pub use corners::{CornerList, Corners};
#[cfg(test)]
pub(crate) use halves::TWO_READERS_MIN_BYTES;
pub mod builtin;
pub mod error;
pub mod frame;
pub mod header;
mod locate;
mod lookup;
pub mod minimap;
pub mod motion;
mod mtl;
pub mod obj;
mod pieces;
pub mod progress;
pub mod scene;
mod sniff;
pub(crate) use sniff::looks_like_obj;
mod texture;
pub mod triangulate;

use std::path::PathBuf;

use glam::Vec3;

use crate::files::Digest;
use crate::geometry::Aabb;

pub use error::MapError;
pub use frame::{MapFrame, UpAxis};
pub use obj::{
    LoadOptions, ObjFile, load_obj_file, load_obj_file_watched, load_obj_str, name_map,
    parse_obj_file, read_obj_file,
};
pub use texture::{
    MAX_DECODED_TEXTURE_BYTES, MAX_KEPT_TEXTURE_SIDE, MAX_TEXTURE_DECODE_BYTES, MAX_TEXTURE_SIDE,
    TextureOptions,
};

pub use crate::tolerance::MAX_WORLD_EXTENT;

/// One vertex of the flat triangle list drawn by the renderer (plain `f32`s, no padding:
/// uploaded as bytes, `bytemuck::Pod`).
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Vertex {
    /// Position, world coordinates.
    pub position: [f32; 3],
    /// Unit normal, world coordinates; or [`FLAT_NORMAL`] (zero): its face's own, which
    /// the shader finds.
    pub normal: [f32; 3],
    /// Texture coordinates (0 when the file has none).
    pub uv: [f32; 2],
}

/// An RGBA8 image decoded at load time.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row-major RGBA, top row first.
    pub rgba: Vec<u8>,
    /// True when some pixel is not fully opaque (the renderer then alpha-tests).
    pub has_alpha: bool,
}

/// A material: a diffuse colour and an optional texture.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Name from the MTL file (or "default").
    pub name: String,
    /// Diffuse colour (`Kd`) in `[0, 1]`, as displayed: the renderer takes it for sRGB.
    pub diffuse: [f32; 3],
    /// Decoded diffuse texture (`map_Kd`), with the alpha of `map_d` merged in.
    pub texture: Option<std::sync::Arc<TextureImage>>,
    /// Drawn as a mirror (a scene's `mirror = [...]`, `--mirror NAME`: see
    /// [`crate::mirrors`]).
    pub mirror: bool,
}

impl Map {
    /// How many materials the map has, the default aside: a scene's models that share
    /// one MTL each hold a copy of its materials, counted once (six models of one
    /// four-material MTL were said as 24 materials). A copy has the
    /// same name and colour; two MTLs' own "Material" (Blender's default name) in other
    /// colours are two.
    pub fn material_names(&self) -> usize {
        let kinds: std::collections::HashSet<(&str, [u32; 3])> = self
            .materials
            .iter()
            .skip(1)
            .map(|m| (m.name.as_str(), m.diffuse.map(f32::to_bits)))
            .collect();
        kinds.len()
    }
}

impl Material {
    /// The grey used when a face has no material or its material is missing.
    pub fn default_grey() -> Material {
        Material {
            name: "default".into(),
            diffuse: [0.7, 0.7, 0.7],
            texture: None,
            mirror: false,
        }
    }
}

/// A contiguous run of vertices drawn with one material: one draw call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Index into [`Map::materials`].
    pub material: usize,
    /// First corner in [`Map::vertices`].
    pub first: u32,
    /// Number of vertices (three per triangle).
    pub count: u32,
}

/// A spawn point written into the map (an object named `spawn` or `player_start`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkedSpawn {
    /// Eye position, world coordinates.
    pub position: Vec3,
}

/// A loaded map.
#[derive(Clone, Debug, Default)]
pub struct Map {
    /// Display name (the file name).
    pub name: String,
    /// The file it came from (none for the built-in map).
    pub source: Option<PathBuf>,
    /// Every file read to make it (the OBJ or scene, its models, material libraries and
    /// textures), and the material libraries it names that were not read (missing or
    /// refused: adding or mending one changes the map): outputs may never be one of them, and a map with more than its
    /// file is never kept built ([`crate::session::cache::keeps`]).
    pub inputs: Vec<PathBuf>,
    /// Flat triangle list in world coordinates, grouped by material.
    pub vertices: Corners,
    /// One batch per material actually used.
    pub batches: Vec<Batch>,
    /// Materials; index 0 is always the default grey.
    pub materials: Vec<Material>,
    /// Bounds of all vertices, world coordinates.
    pub bounds: Aabb,
    /// Which triangles make closed surfaces, found at load beside the collision world
    /// (see [`crate::cull::solids`]); empty where nobody looked (the renderer then looks itself).
    /// Turning and scaling the map keeps it true: it depends only on which corners are
    /// equal, and the triangles' order never changes after load.
    pub solids: Solids,
    /// File-to-world transform.
    pub frame: MapFrame,
    /// Spawn marked in the file, if any.
    pub marked_spawn: Option<MarkedSpawn>,
    /// Objects (`o`/`g`) in the file.
    pub objects: usize,
    /// Non-fatal problems: missing MTL or textures, dropped faces, concave polygons.
    pub warnings: Vec<String>,
    /// What a warning summarises, line by line (every missing texture's path), for
    /// `--verbose`.
    pub details: Vec<String>,
    /// A scene's movers, drawn apart from the still triangles above (which they are not
    /// among): each in its model's space, placed at its current matrix every frame.
    pub moving: Vec<MovingMesh>,
    /// The map file's content digest, taken as it was read (`None` for the built-in map,
    /// a scene, or text given in memory).
    pub digest: Option<Digest>,
}

/// A mover's triangles for drawing, in its model's space.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MovingMesh {
    /// Its placement ([`crate::collision::InstancedWorld::instances`] index).
    pub instance: usize,
    /// Its vertices, three a triangle, grouped by material.
    pub vertices: Vec<Vertex>,
    /// Its batches (materials index [`Map::materials`]).
    pub batches: Vec<Batch>,
}

/// Corners (vertices, or positions) in one list, drawn in batches of one material each.
pub(crate) struct Batched<T> {
    pub(crate) vertices: Vec<T>,
    pub(crate) batches: Vec<Batch>,
}

/// Concatenate per-material vertex lists into one list and one batch per non-empty
/// material (the renderer's one draw call each).
pub(crate) fn batch_by_material<T>(mut per_material: Vec<Vec<T>>) -> Batched<T> {
    // One material (every map without a library): its list is the map's, moved, not
    // copied (at ten million triangles a copy was 960 MB more and half a second).
    let mut used = per_material
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_empty());
    if let (Some((material, _)), None) = (used.next(), used.next()) {
        let vertices = std::mem::take(&mut per_material[material]);
        return Batched {
            batches: vec![Batch {
                material,
                first: 0,
                count: vertices.len() as u32,
            }],
            vertices,
        };
    }
    let mut vertices = Vec::with_capacity(per_material.iter().map(Vec::len).sum());
    let mut batches = Vec::new();
    for (material, verts) in per_material.into_iter().enumerate() {
        if !verts.is_empty() {
            batches.push(Batch {
                material,
                first: vertices.len() as u32,
                count: verts.len() as u32,
            });
            vertices.extend(verts);
        }
    }
    Batched { vertices, batches }
}

impl Map {
    /// The map's file as messages name it (the path it was opened by, escaped), or its
    /// name when it has no file (the built-in map): every message about one load names
    /// the file alike, whichever stage it came from.
    pub fn shown(&self) -> String {
        self.source
            .as_deref()
            .map_or_else(|| self.name.clone(), crate::text::quote::shown_path)
    }

    /// Let go of the drawn triangles (vertices, batches, closed solids) once the renderer
    /// has its own copy of them: the map then has no triangles of its own, as a map read
    /// headless from the cache of built maps, and what it is walked in is its collision
    /// world. Ten million triangles: 0.96 GB.
    pub fn release_drawn(&mut self) {
        self.vertices = Corners::default();
        self.batches = Vec::new();
        self.solids = Solids::default();
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.vertices.len() / 3
    }

    /// Triangle `i`'s corners, world coordinates (what the collision world is built from:
    /// `CollisionWorld::from_corners(map.triangle_count(), |i| map.corners(i))`).
    #[inline]
    pub fn corners(&self, i: usize) -> [Vec3; 3] {
        [0, 1, 2].map(|k| self.vertices.position(i * 3 + k).into())
    }

    /// The triangles, world coordinates, in order.
    pub fn triangles(&self) -> impl Iterator<Item = [Vec3; 3]> + '_ {
        (0..self.triangle_count()).map(|i| self.corners(i))
    }

    /// A map loaded Y-up whose file's up axis turns out to be `up`: turn every position
    /// and normal (and the marked spawn) so that `up` points up. Nothing to do for Y, or
    /// for a map not loaded Y-up.
    pub fn reorient(&mut self, up: UpAxis) {
        if up == self.frame.up {
            return;
        }
        let (old, new) = (
            MapFrame {
                scale: 1.0,
                ..self.frame
            },
            MapFrame { scale: 1.0, up },
        );
        let turn = |v: Vec3| new.rotate_to_world(old.rotate_to_file(v));
        let turned = |v: [f32; 3]| turn(v.into()).into();
        self.vertices.transform(turned, turned);
        self.bounds = Aabb::from_points(self.vertices.positions().map(Vec3::from));
        if let Some(s) = &mut self.marked_spawn {
            s.position = turn(s.position);
        }
        self.frame.up = up;
    }

    /// Multiply every position by `factor` and the frame's scale with it (used when the
    /// scale is inferred after loading).
    pub fn rescale(&mut self, factor: f32) {
        if !(factor.is_finite() && factor > 0.0) || factor == 1.0 {
            return;
        }
        self.vertices
            .transform(|p| (Vec3::from(p) * factor).into(), |n| n);
        self.bounds = Aabb {
            min: self.bounds.min * factor,
            max: self.bounds.max * factor,
        };
        if let Some(s) = &mut self.marked_spawn {
            s.position *= factor;
        }
        self.frame.scale *= factor;
    }
}

/// [`Solids::of_triangle`] of a triangle in no closed solid.
pub const NO_SOLID: u32 = u32::MAX;

/// Which triangles of a triangle list make closed surfaces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Solids {
    /// For each triangle (three vertices of the list each), its solid (below
    /// [`Solids::count`]), or [`NO_SOLID`].
    pub of_triangle: Vec<u32>,
    /// Number of solids.
    pub count: u32,
}

impl Solids {
    /// Triangle `t`'s solid, if it is in one.
    pub fn solid_of(&self, t: usize) -> Option<u32> {
        self.of_triangle.get(t).copied().filter(|&s| s != NO_SOLID)
    }

    /// Triangles in closed solids.
    pub fn closed_triangles(&self) -> usize {
        self.of_triangle.iter().filter(|&&s| s != NO_SOLID).count()
    }
}
