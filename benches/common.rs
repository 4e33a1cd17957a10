//! Shared by the benchmarks: maps, segments, parry3d's mesh.
#![allow(dead_code)]

use std::path::PathBuf;

use glam::Vec3;
use walkthrough_core::collision::CollisionWorld;

/// The tests' world builders (boxes, walls, the generated city), shared rather than copied.
#[path = "../tests/common/mod.rs"]
pub mod test_common;

/// `../shared/maps/NAME/NAME.obj`, when the shared folder is there.
pub fn shared_map(name: &str) -> Option<PathBuf> {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../shared/maps/{name}/{name}.obj"));
    p.is_file().then_some(p)
}

/// parry3d's TriMesh over the same triangles, each vertex multiplied by `scale` (the
/// inverse radii put it in a body's ellipsoid space).
pub fn parry_mesh_scaled(world: &CollisionWorld, scale: Vec3) -> parry3d::shape::TriMesh {
    let verts: Vec<parry3d::math::Vector> = world
        .triangles()
        .iter()
        .flat_map(|t| t.vertices())
        .map(|v| v * scale)
        .map(|v| parry3d::math::Vector::new(v.x, v.y, v.z))
        .collect();
    let idx = (0..world.triangles().len() as u32)
        .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
        .collect();
    parry3d::shape::TriMesh::new(verts, idx).expect("valid mesh")
}
