//! What the renderer draws of a map, and in which order: the map's triangles in spatial
//! clusters ([`clusters`]), the clusters the view's frustum may see ([`frustum`]), opaque
//! ones nearest first (so the depth test rejects what they hide before it is shaded),
//! then the cut-outs (alpha-tested leaves and fences) nearest first; of those, the
//! meshlets and triangles not hidden behind what is already drawn ([`occlusion`]) and
//! covering a pixel's centre ([`coverage`]), drawn a call a cluster, its meshlets nearest
//! first ([`batches`]); the faces of closed solids with their backs culled where the eye
//! is outside them ([`ClusteredMesh::meshlet_hides_back_faces`]; the solids are the map's,
//! `map::solids`). Pure geometry: the GL side is `app/renderer.rs`.

pub mod batches;
pub mod clusters;
pub mod coverage;
pub mod frustum;
pub mod occlusion;

pub use batches::{Batches, Draw};
pub use clusters::{
    CLUSTER_TRIANGLES, Cluster, ClusteredMesh, MESHLET_TRIANGLES, Meshlet, TriangleSet, cluster_map,
};
pub use frustum::Frustum;
pub use occlusion::{DepthPyramid, Occluded, Occlusion, View};

use glam::Vec3;

/// Fill `out` with the indices of the `clusters` that `frustum` may see, in drawing
/// order: opaque clusters by their distance from `eye` (nearest first), then the cut-outs
/// the same way. `out` is cleared first and keeps its memory (no allocation per frame).
pub fn draw_order(clusters: &[Cluster], frustum: &Frustum, eye: Vec3, out: &mut Vec<u32>) {
    out.clear();
    out.extend((0..clusters.len() as u32).filter(|&i| frustum.sees(&clusters[i as usize].bounds)));
    // The distance to the nearest point of the box: non-negative, so its bits sort as the
    // number does.
    let key = |i: &u32| {
        let c = &clusters[*i as usize];
        (c.cutout, c.bounds.distance_squared_to(eye).to_bits())
    };
    out.sort_unstable_by_key(key);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Aabb;
    use glam::Mat4;

    fn at(x: f32, z: f32, cutout: bool) -> Cluster {
        Cluster {
            material: 0,
            first: 0,
            count: 3,
            first_vertex: 0,
            vertex_count: 3,
            first_meshlet: 0,
            meshlet_count: 1,
            bounds: Aabb {
                min: Vec3::new(x - 0.5, -0.5, z - 0.5),
                max: Vec3::new(x + 0.5, 0.5, z + 0.5),
            },
            cutout,
            closed: None,
        }
    }

    #[test]
    fn seen_opaque_nearest_first_then_cutouts_nearest_first() {
        let proj = Mat4::perspective_rh_gl(90f32.to_radians(), 1.0, 0.01, 100.0);
        let view = Mat4::look_at_rh(Vec3::ZERO, Vec3::NEG_Z, Vec3::Y);
        let frustum = Frustum::from_view_proj(proj * view);
        let clusters = [
            at(0.0, -20.0, false),  // 0: far
            at(0.0, -3.0, true),    // 1: near cut-out
            at(0.0, 10.0, false),   // 2: behind: culled
            at(1.0, -5.0, false),   // 3: near
            at(0.0, -9.0, true),    // 4: far cut-out
            at(-60.0, -5.0, false), // 5: far to the left: culled
        ];
        let mut out = vec![99];
        draw_order(&clusters, &frustum, Vec3::ZERO, &mut out);
        assert_eq!(out, vec![3, 0, 1, 4]);
    }
}
