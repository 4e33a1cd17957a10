//! A scene's placed models baked into one map to draw (and to survey and cast rays in):
//! still placements in world space grouped by material, movers kept apart in their
//! models' space.

use glam::{Affine3A, Vec3};

use super::Mover;
use crate::map::{Map, Vertex};

/// A scene's placements baked into one drawable map's parts.
pub(super) struct Baked {
    pub(super) vertices: Vec<Vertex>,
    pub(super) batches: Vec<crate::map::Batch>,
    pub(super) materials: Vec<crate::map::Material>,
    pub(super) marked_spawn: Option<crate::map::MarkedSpawn>,
    /// The movers, kept in their models' space.
    pub(super) moving: Vec<crate::map::MovingMesh>,
}

/// Bake every still placement of `models` for drawing, grouped by material across
/// models, and keep each mover's triangles apart in its model's space; the first model's
/// marked spawn, placed, is the scene's.
pub(super) fn bake(models: &[Map], placements: &[(usize, Affine3A)], movers: &[Mover]) -> Baked {
    let mut materials = vec![crate::map::Material::default_grey()];
    let mut offsets = Vec::new();
    for m in models {
        offsets.push(materials.len() - 1);
        materials.extend(m.materials.iter().skip(1).cloned());
    }
    let mut per_material: Vec<Vec<Vertex>> = vec![Vec::new(); materials.len()];
    let mut marked_spawn = None;
    let mut moving = Vec::new();
    for (k, &(model, placed)) in placements.iter().enumerate() {
        let map = &models[model];
        if marked_spawn.is_none() {
            marked_spawn = map.marked_spawn.map(|s| crate::map::MarkedSpawn {
                position: placed.transform_point3(s.position),
            });
        }
        // A mover's triangles stay in its model's space, batched apart.
        let mover = movers.iter().any(|m| m.instance == k);
        let mut own: Vec<Vec<Vertex>> = vec![Vec::new(); if mover { materials.len() } else { 0 }];
        let m = if mover { Affine3A::IDENTITY } else { placed };
        let normal_m = glam::Mat3::from(m.matrix3).inverse().transpose();
        for b in &map.batches {
            let target = if b.material == 0 {
                0
            } else {
                b.material + offsets[model]
            };
            let verts = map
                .vertices
                .vertices(b.first as usize..(b.first + b.count) as usize);
            let into = if mover {
                &mut own[target]
            } else {
                &mut per_material[target]
            };
            into.extend(verts.map(|v| Vertex {
                position: m.transform_point3(v.position.into()).into(),
                normal: (normal_m * Vec3::from(v.normal)).normalize_or_zero().into(),
                uv: v.uv,
            }));
        }
        if mover {
            let crate::map::Batched { vertices, batches } = crate::map::batch_by_material(own);
            moving.push(crate::map::MovingMesh {
                instance: k,
                vertices,
                batches,
            });
        }
    }
    let crate::map::Batched { vertices, batches } = crate::map::batch_by_material(per_material);
    Baked {
        vertices,
        batches,
        materials,
        marked_spawn,
        moving,
    }
}
