//! What the renderer draws of a map, and in which order: the map's triangles in spatial
//! clusters ([`clusters`]), the clusters the [`view`]'s frustum may see ([`frustum`]), opaque
//! ones nearest first (so the depth test rejects what they hide before it is shaded),
//! then the cut-outs (alpha-tested leaves and fences) nearest first; of those, the
//! meshlets and triangles not hidden behind what is already drawn ([`occlusion`], against
//! a [`pyramid`] of the depth drawn) and covering a pixel's centre ([`coverage`]), drawn
//! a call a cluster, its meshlets nearest first ([`batches`]); the faces of closed solids with their backs culled where the eye
//! is outside them ([`ClusteredMesh::meshlet_hides_back_faces`]; the map's closed solids are
//! found by [`solids`]); each cluster at the coarsest level of detail whose error shows no
//! more than a pixel ([`lod`]). Pure geometry: the GL side is `app/render/renderer.rs`, the levels kept on disk
//! [`crate::session::cache::levels`].

pub mod batches;
pub mod clusters;
pub mod coverage;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod frustum;
pub mod lod;
pub mod occlusion;
pub mod pyramid;
pub mod solids;
pub mod split;
pub mod view;

pub use batches::{Batches, Draw, SunShade};
pub use clusters::{
    CLUSTER_TRIANGLES, Cluster, ClusteredMesh, Level, MESHLET_TRIANGLES, Meshlet, TriangleSet,
    cluster_map,
};
pub use frustum::Frustum;
pub use occlusion::Occlusion;
pub use pyramid::{DepthPyramid, Occluded};
pub use view::View;

/// Fill `out` with the clusters to draw of those of `mesh`'s map that `view`'s frustum
/// may see, each as the level of detail to draw it at ([`ClusteredMesh::level_to_draw`]),
/// in drawing order: opaque clusters by their distance from the eye (nearest first), then
/// the cut-outs the same way. `out` is cleared first and keeps its memory (no allocation
/// per frame).
pub fn draw_order(mesh: &ClusteredMesh, view: &View, out: &mut Vec<u32>) {
    out.clear();
    out.extend(
        (0..mesh.originals() as u32)
            .filter(|&i| view.frustum.sees(&mesh.clusters[i as usize].bounds))
            .map(|i| mesh.level_to_draw(i, view)),
    );
    // The distance to the nearest point of the box: non-negative, so its bits sort as the
    // number does.
    let eye = view.eye;
    let key = |i: &u32| {
        let c = &mesh.clusters[*i as usize];
        (c.cutout, c.bounds.distance_squared_to(eye).to_bits())
    };
    out.sort_unstable_by_key(key);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Aabb;
    use glam::{Mat4, Vec3};

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
        let view = View::new(view, proj, glam::UVec2::new(100, 100));
        let clusters = vec![
            at(0.0, -20.0, false),  // 0: far
            at(0.0, -3.0, true),    // 1: near cut-out
            at(0.0, 10.0, false),   // 2: behind: culled
            at(1.0, -5.0, false),   // 3: near
            at(0.0, -9.0, true),    // 4: far cut-out
            at(-60.0, -5.0, false), // 5: far to the left: culled
        ];
        let mut mesh = ClusteredMesh {
            clusters,
            ..ClusteredMesh::default()
        };
        let mut out = vec![99];
        draw_order(&mesh, &view, &mut out);
        assert_eq!(out, vec![3, 0, 1, 4]);
        // With levels of detail: the far cluster (0) drawn as its level (6), whose error
        // is too small to see 19.5 m away; the near one (3) too close for its own (7).
        mesh.clusters.push(at(0.0, -20.0, false));
        mesh.clusters.push(at(1.0, -5.0, false));
        let level = |cluster, error| Level { cluster, error };
        mesh.levels = vec![Vec::new(); 6];
        mesh.levels[0] = vec![level(6, 0.01)];
        mesh.levels[3] = vec![level(7, 0.2)];
        draw_order(&mesh, &view, &mut out);
        assert_eq!(out, vec![3, 6, 1, 4]);
    }
}
