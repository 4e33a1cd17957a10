//! Scene files: a TOML list of OBJ models placed with position, rotation and scale. Each
//! distinct file is loaded once, however often it is placed.
//!
//! ```toml
//! # scene.toml
//! up = "y"                      # optional: the models' up axis
//!
//! [[model]]
//! file = "room.obj"             # relative to this file
//!
//! [[model]]
//! file = "pillar.obj"
//! position = [2.0, 0.0, -3.0]   # world units (metres)
//! rotation = [0.0, 45.0, 0.0]   # degrees about X, then Y, then Z
//! scale = [1.0, 2.5, 1.0]       # or one number
//!
//! mirror = ["glass"]            # optional: materials drawn as mirrors (see
//!                               # [`crate::mirrors`]; by name, in every model)
//!
//! [model.motion]                # optional: it moves (see [`super::motion`])
//! keys = [[0, 2, 0, -3, 0, 45, 0], [3, 2, 3, -3, 0, 45, 0]]
//! play = "ping-pong"
//!
//! [[water]]                     # optional: a box of water (see [`crate::walk`]);
//! box = [-5, -2, -9, 5, 0.3, 0] # min x, y, z then max x, y, z; the surface is its top
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{Affine3A, Vec3};
use serde::Deserialize;
use toml::Spanned;

use super::motion::{Motion, MotionSpec, placement_matrix};
use super::{
    Corners, LoadOptions, MAX_WORLD_EXTENT, Map, MapError, MapFrame, TextureOptions, UpAxis,
    load_obj_file,
};
use crate::collision::{CollisionWorld, InstancedWorld};
use crate::files::{FileKind, folder_of, line_at, read_file};
use crate::geometry::Aabb;
use crate::text::quote::{escape, quote};
use crate::text::wording::counted;
use bake::{Baked, bake};

mod bake;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    #[serde(default)]
    up: Option<Spanned<String>>,
    #[serde(default, rename = "model")]
    models: Vec<Placement>,
    #[serde(default, rename = "water")]
    water: Vec<WaterSpec>,
}

/// A `[[water]]` table as written: its box, with where it is in the file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WaterSpec {
    #[serde(rename = "box")]
    bounds: Spanned<Vec<f32>>,
}

impl WaterSpec {
    /// The box, or why its numbers are refused (with their byte offset in the file).
    fn aabb(&self) -> Result<Aabb, (usize, String)> {
        let at = self.bounds.span().start;
        let v = self.bounds.get_ref();
        let [x0, y0, z0, x1, y1, z1] = v[..] else {
            return Err((
                at,
                format!(
                    "water: box {v:?} must be six numbers [x0, y0, z0, x1, y1, z1], not {}",
                    v.len()
                ),
            ));
        };
        let (min, max) = (Vec3::new(x0, y0, z0), Vec3::new(x1, y1, z1));
        if !(min.is_finite() && max.is_finite()) {
            return Err((at, format!("water: box {v:?} must be six finite numbers")));
        }
        if min.cmpgt(max).any() {
            return Err((
                at,
                format!("water: box {v:?} has a minimum over its maximum (give x0, y0, z0 first)"),
            ));
        }
        if min.abs().max(max.abs()).max_element() > MAX_WORLD_EXTENT {
            return Err((
                at,
                format!("water: box {v:?} reaches beyond the {MAX_WORLD_EXTENT:e} m a map may"),
            ));
        }
        Ok(Aabb { min, max })
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScaleSpec {
    Uniform(f32),
    PerAxis(Vec<f32>),
}

/// A `[[model]]` table as written, each field with where it is in the file (for the
/// line a message names). Arrays are read whole, so that one of the wrong length is
/// refused (a fourth number of a position was dropped silently).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Placement {
    file: Spanned<String>,
    #[serde(default)]
    position: Option<Spanned<Vec<f32>>>,
    #[serde(default)]
    rotation: Option<Spanned<Vec<f32>>>,
    #[serde(default)]
    scale: Option<Spanned<ScaleSpec>>,
    /// `[model.motion]`: how it moves (see [`super::motion`]).
    #[serde(default)]
    motion: Option<MotionSpec>,
    /// Materials drawn as mirrors (by name; see [`crate::mirrors`]).
    #[serde(default)]
    mirror: Option<Spanned<Vec<String>>>,
}

/// The scale a placement may have on each axis: within 1e-4 to 1e4. Beyond them a
/// model is no longer a thing to walk among (a 1 m crate 10 km wide, or a tenth of a
/// millimetre), and at 1e30 or 1e-7 its transform cannot be inverted in `f32` at all.
pub const MODEL_SCALE_RANGE: std::ops::RangeInclusive<f32> = 1e-4..=1e4;

/// Most placements a scene may hold. Each costs a transform and its baked triangles; a
/// million is a typo or an attack, not a level.
pub const MAX_PLACEMENTS: usize = 100_000;
/// Most triangles all placements together may bake into the world (each costs about
/// [`BYTES_PER_BAKED_TRIANGLE`]: ten million is about 2 GB).
pub const MAX_SCENE_TRIANGLES: usize = 10_000_000;
/// Most values (numbers, strings, lists, fields) a scene file may hold, counted before it
/// is parsed: a parsed value costs 150 to 200 bytes, so a 62 MB scene of 31 million
/// numbers in one list took 4.7 GB to refuse, and one of 300 movers with 10,000 keys each
/// 3.8 GB to load. At this limit a scene parses in about 500 MB;
/// 100,000 placements, each with a file, a position, a turn and a scale, hold 1.5 million.
pub const MAX_SCENE_VALUES: usize = 3_000_000;
/// Memory one baked triangle costs, roughly: three drawn vertices (96 bytes), the
/// collision triangle and its share of the BVH.
pub const BYTES_PER_BAKED_TRIANGLE: usize = 200;

/// A loaded scene: the baked map for drawing and the placed models for collision.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Every placement baked into world space, one batch per material (movers at their
    /// first key's pose).
    pub map: Map,
    /// Models in their own space, placed: what collision runs against.
    pub world: InstancedWorld,
    /// The placements that move.
    pub movers: Vec<Mover>,
    /// The `[[water]]` boxes, scene frame (the surface of each is its top).
    pub water: Vec<Aabb>,
    /// The models' up axis, and whether the scene file named it (it then goes before the
    /// one asked for at the open).
    pub up: UpAxis,
    pub up_in_file: bool,
}

/// A placement that moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Mover {
    /// Its placement's index in [`InstancedWorld::instances`] (scene order).
    pub instance: usize,
    /// How it moves.
    pub motion: Motion,
    /// Its placement's scale (the motion keys position and rotation only).
    pub scale: Vec3,
}

/// The tables a scene's text can hold at most, counted without parsing it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Tables {
    /// Placements: `[[model]]` headers and inline tables (`{`), which an array of them
    /// could place.
    models: usize,
    /// `[[water]]` headers.
    water: usize,
}

impl Tables {
    fn total(&self) -> usize {
        self.models + self.water
    }

    /// Why a scene of these tables is refused, each kind counted as what it is (a scene
    /// of water boxes was refused as that many models).
    fn over_the_limit(&self) -> String {
        if self.water == 0 {
            return format!(
                "the scene places {} models, over the limit of {MAX_PLACEMENTS}",
                self.models
            );
        }
        format!(
            "the scene holds {} tables ({}, {}), over the limit of {MAX_PLACEMENTS}",
            self.total(),
            counted(self.models, "model", "models"),
            counted(self.water, "water box", "water boxes")
        )
    }
}

/// The tables `text` can hold at most (see [`Tables`]).
fn count_tables(text: &str) -> Tables {
    let mut tables = Tables {
        models: text.matches('{').count(),
        water: 0,
    };
    for l in text.lines().map(str::trim_start) {
        if !l.starts_with("[[") {
            continue;
        }
        let name: String = l
            .chars()
            .take_while(|&c| c != ']')
            .filter(|c| !c.is_whitespace() && *c != '[')
            .collect();
        match name.as_str() {
            "model" => tables.models += 1,
            "water" => tables.water += 1,
            _ => {}
        }
    }
    tables
}

/// How many values `text` can hold at most, counted without parsing it: each follows a
/// `=`, a `[` or a `,` (a comment's or a string's count too: an overcount, never under).
fn count_values(text: &str) -> usize {
    text.bytes()
        .filter(|b| matches!(b, b'=' | b'[' | b','))
        .count()
}

/// Where the outermost array still open at byte `end` of `text` starts, if one is: an
/// unclosed array is reported where the reader gave up (the next line), but the fault is
/// on the line it starts on. Strings and comments are stepped over.
fn open_array_at(text: &str, end: usize) -> Option<usize> {
    let mut open = Vec::new();
    let mut chars = text.get(..end).unwrap_or(text).char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            '"' | '\'' => {
                let mut escaped = false;
                for (_, d) in chars.by_ref() {
                    if d == c && !escaped {
                        break;
                    }
                    escaped = c == '"' && d == '\\' && !escaped;
                }
            }
            '[' => open.push(i),
            ']' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.first().copied()
}

/// The scene file's tables, or its first TOML error at its own line.
fn parse_scene(shown: &str, text: &str) -> Result<SceneFile, MapError> {
    toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let mut start = span.start.min(text.len());
        let message = escape(e.message()).into_owned();
        let mut reason = message.clone();
        if message == "duplicate key"
            && let Some(key) = text.get(start..span.end.min(text.len()))
        {
            reason = format!("duplicate key {}: give each field once", quote(key.trim()));
        }
        if message.contains("array")
            && let Some(open) = open_array_at(text, start)
        {
            start = open;
            reason = format!("{message} (the array that starts here is not closed with ']')");
        }
        MapError::Parse {
            path: shown.to_string(),
            // The line the span starts on (a span at a line's start is on that line).
            line: line_at(text, start),
            reason: format!("not a walkthrough scene: {reason}"),
        }
    })
}

/// Three numbers from `field`'s array, or why not (the wrong count, or not finite).
fn three(field: &str, v: &[f32]) -> Result<Vec3, String> {
    match *v {
        [x, y, z] if v.iter().all(|c| c.is_finite()) => Ok(Vec3::new(x, y, z)),
        // A number written finite but past f32's range reads as inf: say so.
        [_, _, _] => Err(format!(
            "{field} {v:?} must be three finite numbers (each within about 3.4e38)"
        )),
        _ => Err(format!(
            "{field} {v:?} must be three numbers [x, y, z], not {}",
            v.len()
        )),
    }
}

/// A placement's fields read: where each is, and the transform they give.
struct Numbers {
    /// Model to world.
    to_world: Affine3A,
    /// The scale on each axis.
    scale: Vec3,
    /// The position.
    position: Vec3,
}

/// A placement's model-to-world transform, or the field whose numbers are refused (its
/// byte offset in the file) and why.
fn placement_transform(p: &Placement) -> Result<Numbers, (usize, String)> {
    let at =
        |s: &Option<Spanned<Vec<f32>>>| s.as_ref().map_or(p.file.span().start, |v| v.span().start);
    let field = |name: &str, s: &Option<Spanned<Vec<f32>>>| match s {
        None => Ok(Vec3::ZERO),
        Some(v) => three(name, v.get_ref()).map_err(|e| (at(s), e)),
    };
    let position = field("position", &p.position)?;
    let rotation = field("rotation", &p.rotation)?;
    let scale_at = p
        .scale
        .as_ref()
        .map_or(p.file.span().start, |s| s.span().start);
    let scale = match p.scale.as_ref().map(Spanned::get_ref) {
        None => Vec3::ONE,
        Some(ScaleSpec::Uniform(s)) => Vec3::splat(*s),
        Some(ScaleSpec::PerAxis(s)) => three("scale", s).map_err(|e| (scale_at, e))?,
    };
    if !(scale.is_finite() && scale.cmpgt(Vec3::ZERO).all()) {
        return Err((
            scale_at,
            format!("scale {:?} must be positive numbers", scale.to_array()),
        ));
    }
    if !scale
        .to_array()
        .iter()
        .all(|s| MODEL_SCALE_RANGE.contains(s))
    {
        return Err((
            scale_at,
            format!(
                "scale {:?} is out of range ({:e} to {:e} on each axis): {}",
                scale.to_array(),
                MODEL_SCALE_RANGE.start(),
                MODEL_SCALE_RANGE.end(),
                if scale.max_element() > *MODEL_SCALE_RANGE.end() {
                    "a model made that large has no place in a walk (and past about 1e12 its transform overflows)"
                } else {
                    "a model made that small rounds its triangles away (and its transform cannot be inverted)"
                }
            ),
        ));
    }
    Ok(Numbers {
        to_world: placement_matrix(position, rotation, scale),
        scale,
        position,
    })
}

/// The `[[water]]` boxes of a scene, or the first refused at its line of `text`.
fn water_boxes(shown: &str, text: &str, specs: &[WaterSpec]) -> Result<Vec<Aabb>, MapError> {
    specs
        .iter()
        .map(WaterSpec::aabb)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|(at, reason)| MapError::Parse {
            path: shown.to_string(),
            line: line_at(text, at),
            reason,
        })
}

/// True when `path` looks like a scene file (`.toml`).
pub fn is_scene_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
}

/// Refuse a scene too large to parse, before it is: its tables and values are counted
/// (see [`count_tables`], [`count_values`]).
fn refuse_before_parsing(shown: &str, text: &str) -> Result<(), MapError> {
    // A parsed table costs hundreds of bytes, so a 64 MiB scene of millions of minimal
    // tables took gigabytes to refuse.
    let tables = count_tables(text);
    if tables.total() > MAX_PLACEMENTS {
        return Err(MapError::TooBig {
            path: shown.into(),
            reason: tables.over_the_limit(),
        });
    }
    let values = count_values(text);
    if values > MAX_SCENE_VALUES {
        return Err(MapError::TooBig {
            path: shown.into(),
            reason: format!(
                "the scene holds up to {values} values (numbers, names, lists), over the limit of {MAX_SCENE_VALUES}"
            ),
        });
    }
    Ok(())
}

/// Load a scene file and every model it places. `up` applies when the file names none.
pub fn load_scene(path: &Path, up: UpAxis, textures: TextureOptions) -> Result<Scene, MapError> {
    let shown = path.display().to_string();
    let bytes = read_file(path, FileKind::Scene)?;
    let text = String::from_utf8_lossy(&bytes);
    refuse_before_parsing(&shown, &text)?;
    let file = parse_scene(&shown, &text)?;
    let up_in_file = file.up.is_some();
    let up = match &file.up {
        Some(u) => u.get_ref().parse().map_err(|e| MapError::Parse {
            path: shown.clone(),
            line: line_at(&text, u.span().start),
            reason: format!("up: {e}"),
        })?,
        None => up,
    };
    if file.models.is_empty() {
        return Err(MapError::Empty {
            path: shown,
            reason: "the scene places no [[model]]".into(),
        });
    }
    let water = water_boxes(&shown, &text, &file.water)?;
    let dir = folder_of(path);
    let opts = LoadOptions {
        scale: Some(1.0),
        up,
        textures,
    };

    let Placed {
        models,
        world,
        placements,
        movers,
        warnings,
        details,
    } = place_models(&shown, &text, dir, &opts, &file.models)?;
    let baked: usize = placements
        .iter()
        .map(|&(model, _)| models[model].triangle_count())
        .fold(0, usize::saturating_add);
    if baked > MAX_SCENE_TRIANGLES {
        return Err(MapError::TooBig {
            path: shown,
            reason: format!(
                "the scene's {} placements add up to {baked} triangles, over the limit of {MAX_SCENE_TRIANGLES} (about {:.1} GB to build)",
                placements.len(),
                baked as f64 * BYTES_PER_BAKED_TRIANGLE as f64 / 1e9
            ),
        });
    }

    let Baked {
        vertices,
        batches,
        mut materials,
        marked_spawn,
        moving,
    } = bake(&models, &placements, &movers);
    mark_mirrors(&mut materials, &file.models).map_err(|(at, reason)| MapError::Parse {
        path: shown.clone(),
        line: line_at(&text, at),
        reason,
    })?;
    let bounds = Aabb::from_points(vertices.iter().map(|v| Vec3::from(v.position)));
    let inputs = std::iter::once(path.to_path_buf())
        .chain(models.iter().flat_map(|m| m.inputs.iter().cloned()))
        .collect();
    let map = Map {
        inputs,
        name: path
            .file_name()
            .map_or(shown.clone(), |n| n.to_string_lossy().into_owned()),
        source: Some(path.to_path_buf()),
        vertices: Corners::compact(vertices),
        batches,
        materials,
        bounds,
        solids: Default::default(),
        frame: MapFrame::default(),
        marked_spawn,
        objects: placements.len(),
        warnings,
        details,
        moving,
        digest: None,
    };
    Ok(Scene {
        map,
        world,
        movers,
        water,
        up,
        up_in_file,
    })
}

/// The models of a scene loaded (each file once) and placed.
struct Placed {
    models: Vec<Map>,
    world: InstancedWorld,
    /// Each placement: its model's index and its model-to-world transform.
    placements: Vec<(usize, Affine3A)>,
    movers: Vec<Mover>,
    warnings: Vec<String>,
    details: Vec<String>,
}

/// Load the models `entries` name (relative to `dir`; each file once) and place them,
/// refusing a model that cannot be loaded, a placement with bad numbers or one that
/// reaches too far, at the line of the scene (`text`) at fault and by its model.
fn place_models(
    shown: &str,
    text: &str,
    dir: &Path,
    opts: &LoadOptions,
    entries: &[Placement],
) -> Result<Placed, MapError> {
    let mut loaded: HashMap<PathBuf, usize> = HashMap::new();
    let mut models: Vec<Map> = Vec::new();
    let mut world = InstancedWorld::default();
    let (mut warnings, mut details) = (Vec::new(), Vec::new());
    let mut placements = Vec::new();
    let mut movers = Vec::new();
    for (k, p) in entries.iter().enumerate() {
        let what = format!("model {} ({})", k + 1, escape(p.file.get_ref()));
        let refused = |offset: usize, reason: String| MapError::Parse {
            path: shown.to_string(),
            line: line_at(text, offset),
            reason: format!("{what}: {reason}"),
        };
        // The placement's own numbers first: they need no file read.
        let mut placed = placement_transform(p).map_err(|(at, why)| refused(at, why))?;
        // A mover stands at its first key until it starts (the keys are its poses).
        let motion = match &p.motion {
            Some(spec) => {
                let m = spec.motion().map_err(|r| refused(r.at, r.why))?;
                placed.to_world = m.matrix_at(0.0, placed.scale);
                Some(m)
            }
            None => None,
        };
        // An empty name would be the scene's own folder ("./: is a directory").
        if p.file.get_ref().trim().is_empty() {
            return Err(refused(
                p.file.span().start,
                "the model's file name is empty: name an OBJ file".into(),
            ));
        }
        let file_path = dir.join(p.file.get_ref());
        let model = match loaded.get(&file_path) {
            Some(&m) => m,
            None => {
                // The model's own message names its file (and its line, where one is at
                // fault); the scene's line says which placement asked for it.
                let map = load_obj_file(&file_path, opts)
                    .map_err(|e| refused(p.file.span().start, e.to_string()))?;
                warnings.extend(map.warnings.iter().cloned());
                details.extend(map.details.iter().cloned());
                world.add_model(CollisionWorld::from_corners(map.triangle_count(), |i| {
                    map.corners(i)
                }));
                models.push(map);
                loaded.insert(file_path, models.len() - 1);
                models.len() - 1
            }
        };
        let scale_at = p
            .scale
            .as_ref()
            .map_or(p.file.span().start, |s| s.span().start);
        if world.place(model, placed.to_world).is_err() {
            return Err(refused(
                scale_at,
                format!(
                    "scale {:?} and rotation give a transform that cannot be inverted in 32-bit numbers",
                    placed.scale.to_array()
                ),
            ));
        }
        // Far out, the placed triangles would lose their area and be dropped before the
        // world's own reach is checked: the placement that puts them there is named.
        let b = world.instances().last().map_or(Aabb::EMPTY, |i| i.bounds);
        let reach = b.min.abs().max(b.max.abs()).max_element();
        if reach.is_nan() || reach > MAX_WORLD_EXTENT {
            let (at, field) = far_field(p, &placed, b);
            return Err(refused(
                at,
                format!(
                    "{field} puts the model {reach:e} m from the origin, beyond the {MAX_WORLD_EXTENT:e} m where positions are too coarse to walk"
                ),
            ));
        }
        if let Some(motion) = motion {
            movers.push(Mover {
                instance: placements.len(),
                motion,
                scale: placed.scale,
            });
        }
        placements.push((model, placed.to_world));
    }
    Ok(Placed {
        models,
        world,
        placements,
        movers,
        warnings,
        details,
    })
}

/// Which field carries a placement whose world box `b` reaches too far: the position,
/// when it alone is past the limit; the scale, when the model scaled about its own origin
/// is; both, when neither alone is (a far position with a small scale was blamed on the
/// scale). With the byte offset of the field named.
fn far_field(p: &Placement, placed: &Numbers, b: Aabb) -> (usize, String) {
    let pos = placed.position;
    let position_at = p
        .position
        .as_ref()
        .map_or(p.file.span().start, |v| v.span().start);
    let scale_at = p.scale.as_ref().map_or(position_at, |s| s.span().start);
    let position = format!("position {:?}", pos.to_array());
    let model_reach = (b.min - pos).abs().max((b.max - pos).abs()).max_element();
    if pos.abs().max_element() > MAX_WORLD_EXTENT {
        (position_at, position)
    } else if model_reach > MAX_WORLD_EXTENT {
        (scale_at, format!("scale {:?}", placed.scale.to_array()))
    } else {
        (
            position_at,
            format!("{position} (with scale {:?})", placed.scale.to_array()),
        )
    }
}

/// Mark as mirrors the materials the placements' `mirror` lists name (a name in any
/// model's list marks that material wherever it is used); a name no material has is
/// refused, with where it is in the file.
fn mark_mirrors(
    materials: &mut [super::Material],
    models: &[Placement],
) -> Result<(), (usize, String)> {
    for list in models.iter().filter_map(|p| p.mirror.as_ref()) {
        for name in list.get_ref() {
            let mut found = false;
            for m in materials.iter_mut().filter(|m| &m.name == name) {
                m.mirror = true;
                found = true;
            }
            if !found {
                return Err((
                    list.span().start,
                    format!("mirror: no model has a material named {}", quote(name)),
                ));
            }
        }
    }
    Ok(())
}
