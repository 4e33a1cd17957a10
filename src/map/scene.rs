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
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{Affine3A, EulerRot, Quat, Vec3};
use serde::Deserialize;

use super::{
    LoadOptions, MAX_WORLD_EXTENT, Map, MapError, MapFrame, TextureOptions, UpAxis, Vertex,
    load_obj_file,
};
use crate::collision::{CollisionWorld, InstancedWorld};
use crate::geometry::Aabb;
use crate::input::{FileKind, folder_of, read_file};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    #[serde(default)]
    up: Option<String>,
    #[serde(default, rename = "model")]
    models: Vec<Placement>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScaleSpec {
    Uniform(f32),
    PerAxis([f32; 3]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Placement {
    file: String,
    #[serde(default)]
    position: [f32; 3],
    #[serde(default)]
    rotation: [f32; 3],
    #[serde(default)]
    scale: Option<ScaleSpec>,
}

/// Most placements a scene may hold. Each costs a transform and its baked triangles; a
/// million is a typo or an attack, not a level.
pub const MAX_PLACEMENTS: usize = 100_000;
/// Most triangles all placements together may bake into the world (each costs about
/// [`BYTES_PER_BAKED_TRIANGLE`]: ten million is about 2 GB).
pub const MAX_SCENE_TRIANGLES: usize = 10_000_000;
/// Memory one baked triangle costs, roughly: three drawn vertices (96 bytes), the
/// collision triangle and its share of the BVH.
pub const BYTES_PER_BAKED_TRIANGLE: usize = 200;

/// A loaded scene: the baked map for drawing and the placed models for collision.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Every placement baked into world space, one batch per material.
    pub map: Map,
    /// Models in their own space, placed: what collision runs against.
    pub world: InstancedWorld,
}

/// How many placements `text` can hold at most, counted without parsing it: its
/// `[[model]]` headers, and its inline tables (`{`), which an array of them could place.
fn count_tables(text: &str) -> usize {
    let headers = text
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("[[") && {
                let name: String = l
                    .chars()
                    .take_while(|&c| c != ']')
                    .filter(|c| !c.is_whitespace() && *c != '[')
                    .collect();
                name == "model"
            }
        })
        .count();
    headers + text.matches('{').count()
}

/// The scene file's tables, or its first TOML error at its own line.
fn parse_scene(shown: &str, text: &str) -> Result<SceneFile, MapError> {
    toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let start = span.start.min(text.len());
        let mut reason = e.message().to_string();
        if reason == "duplicate key"
            && let Some(key) = text.get(start..span.end.min(text.len()))
        {
            reason = format!("duplicate key '{}': give each field once", key.trim());
        }
        MapError::Parse {
            path: shown.to_string(),
            // The line the span starts on (a span at a line's start is on that line).
            line: text[..start].matches('\n').count() + 1,
            reason: format!("not a walkthrough scene: {reason}"),
        }
    })
}

/// A placement's model-to-world transform and its scale, or why its numbers are refused.
fn placement_transform(p: &Placement) -> Result<(Affine3A, Vec3), String> {
    let scale = match p.scale {
        None => Vec3::ONE,
        Some(ScaleSpec::Uniform(s)) => Vec3::splat(s),
        Some(ScaleSpec::PerAxis(s)) => Vec3::from(s),
    };
    for (field, v) in [("position", p.position), ("rotation", p.rotation)] {
        if !v.iter().all(|x| x.is_finite()) {
            return Err(format!("{field} {v:?} must be three finite numbers"));
        }
    }
    if !(scale.is_finite() && scale.cmpgt(Vec3::ZERO).all()) {
        return Err(format!("scale {scale} must be positive numbers"));
    }
    let [rx, ry, rz] = p.rotation.map(f32::to_radians);
    // Rotate about X first, then Y, then Z (extrinsic): R = Rz * Ry * Rx.
    let rotation = Quat::from_euler(EulerRot::ZYX, rz, ry, rx);
    let m = Affine3A::from_scale_rotation_translation(scale, rotation, Vec3::from(p.position));
    Ok((m, scale))
}

/// True when `path` looks like a scene file (`.toml`).
pub fn is_scene_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
}

/// Load a scene file and every model it places. `up` applies when the file names none.
pub fn load_scene(path: &Path, up: UpAxis, textures: TextureOptions) -> Result<Scene, MapError> {
    let shown = path.display().to_string();
    let bytes = read_file(path, FileKind::Scene)?;
    let text = String::from_utf8_lossy(&bytes);
    // Count the tables before parsing: a parsed table costs hundreds of bytes, so a 64 MiB
    // scene of millions of minimal tables took gigabytes to refuse.
    let tables = count_tables(&text);
    if tables > MAX_PLACEMENTS {
        return Err(MapError::TooBig {
            path: shown,
            reason: format!("the scene places {tables} models, over the limit of {MAX_PLACEMENTS}"),
        });
    }
    let file = parse_scene(&shown, &text)?;
    let up = match file.up.as_deref() {
        Some(u) => u.parse().map_err(|e| MapError::Invalid {
            path: shown.clone(),
            reason: format!("{e}"),
        })?,
        None => up,
    };
    if file.models.is_empty() {
        return Err(MapError::Empty {
            path: shown,
            reason: "the scene places no [[model]]".into(),
        });
    }
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
        warnings,
        details,
    } = place_models(&shown, dir, &opts, &file.models)?;
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
        materials,
        marked_spawn,
    } = bake(&models, &placements);
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
        vertices,
        batches,
        materials,
        bounds,
        solids: Default::default(),
        frame: MapFrame::default(),
        marked_spawn,
        objects: placements.len(),
        warnings,
        details,
    };
    Ok(Scene { map, world })
}

/// The models of a scene loaded (each file once) and placed.
struct Placed {
    models: Vec<Map>,
    world: InstancedWorld,
    /// Each placement: its model's index and its model-to-world transform.
    placements: Vec<(usize, Affine3A)>,
    warnings: Vec<String>,
    details: Vec<String>,
}

/// Load the models `entries` name (relative to `dir`; each file once) and place them,
/// refusing a placement with bad numbers or one that reaches too far, by its model.
fn place_models(
    shown: &str,
    dir: &Path,
    opts: &LoadOptions,
    entries: &[Placement],
) -> Result<Placed, MapError> {
    let mut loaded: HashMap<PathBuf, usize> = HashMap::new();
    let mut models: Vec<Map> = Vec::new();
    let mut world = InstancedWorld::default();
    let (mut warnings, mut details) = (Vec::new(), Vec::new());
    let mut placements = Vec::new();
    for (k, p) in entries.iter().enumerate() {
        let what = format!("model {} ({})", k + 1, p.file);
        let file_path = dir.join(&p.file);
        let model = match loaded.get(&file_path) {
            Some(&m) => m,
            None => {
                let map = load_obj_file(&file_path, opts)?;
                warnings.extend(map.warnings.iter().cloned());
                details.extend(map.details.iter().cloned());
                world.models.push(CollisionWorld::new(map.triangles()));
                models.push(map);
                loaded.insert(file_path, models.len() - 1);
                models.len() - 1
            }
        };
        let invalid = |reason: String| MapError::Invalid {
            path: shown.to_string(),
            reason: format!("{what}: {reason}"),
        };
        let (m, scale) = placement_transform(p).map_err(invalid)?;
        if world.place(model, m).is_none() {
            return Err(invalid("the placement cannot be inverted".into()));
        }
        // Far out, the placed triangles would lose their area and be dropped before the
        // world's own reach is checked: the placement that puts them there is named.
        let b = world.instances.last().map_or(Aabb::EMPTY, |i| i.bounds);
        let reach = b.min.abs().max(b.max.abs()).max_element();
        if reach.is_nan() || reach > MAX_WORLD_EXTENT {
            let field = if Vec3::from(p.position).abs().max_element() > MAX_WORLD_EXTENT {
                format!("position {:?}", p.position)
            } else {
                format!("scale {scale}")
            };
            return Err(invalid(format!(
                "{field} puts the model {reach:e} m from the origin, beyond the {MAX_WORLD_EXTENT:e} m where positions are too coarse to walk"
            )));
        }
        placements.push((model, m));
    }
    Ok(Placed {
        models,
        world,
        placements,
        warnings,
        details,
    })
}

/// A scene's placements baked into one drawable map's parts.
struct Baked {
    vertices: Vec<Vertex>,
    batches: Vec<super::Batch>,
    materials: Vec<super::Material>,
    marked_spawn: Option<super::MarkedSpawn>,
}

/// Bake every placement of `models` for drawing, grouped by material across models; the
/// first model's marked spawn, placed, is the scene's.
fn bake(models: &[Map], placements: &[(usize, Affine3A)]) -> Baked {
    let mut materials = vec![super::Material::default_grey()];
    let mut offsets = Vec::new();
    for m in models {
        offsets.push(materials.len() - 1);
        materials.extend(m.materials.iter().skip(1).cloned());
    }
    let mut per_material: Vec<Vec<Vertex>> = vec![Vec::new(); materials.len()];
    let mut marked_spawn = None;
    for &(model, m) in placements {
        let normal_m = glam::Mat3::from(m.matrix3).inverse().transpose();
        let map = &models[model];
        if marked_spawn.is_none() {
            marked_spawn = map.marked_spawn.map(|s| super::MarkedSpawn {
                position: m.transform_point3(s.position),
            });
        }
        for b in &map.batches {
            let target = if b.material == 0 {
                0
            } else {
                b.material + offsets[model]
            };
            let verts = &map.vertices[b.first as usize..(b.first + b.count) as usize];
            per_material[target].extend(verts.iter().map(|v| Vertex {
                position: m.transform_point3(v.position.into()).into(),
                normal: (normal_m * Vec3::from(v.normal)).normalize_or_zero().into(),
                uv: v.uv,
            }));
        }
    }
    let super::Batched { vertices, batches } = super::batch_by_material(per_material);
    Baked {
        vertices,
        batches,
        materials,
        marked_spawn,
    }
}
