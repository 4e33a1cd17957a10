//! A pass's meshlets as the GL draws them: the triangles picked copied one after another
//! into one index list, cluster by cluster in the drawing order (nearest first, opaque
//! before cut-outs: see [`super::draw_order`]), a cluster's meshlets nearest first, and
//! one draw call a cluster (or a run of its meshlets, where some must show their back
//! faces: see [`super::ClusteredMesh::meshlet_hides_back_faces`]).
//!
//! A software rasterizer pays for every fragment it rasterizes, and a draw call costs it
//! about what a hundred triangles do. Drawn straight from the map's index list, the shown
//! meshlets took a call for every run of neighbours a cluster kept (239 a frame on
//! conference), in split order (a cluster's far meshlets before its near ones), and a
//! meshlet could only be drawn whole. Copied out, a cluster is one call, nearest first,
//! and any of a meshlet's triangles can be left out. (One call a material instead let
//! more hidden fragments through on conference and the built-in map, 1.44 and 1.29 a
//! pixel against 1.32 and 1.18, and was no faster.)

use glam::Vec3;

use super::clusters::{ClusteredMesh, Meshlet, TriangleSet};

/// One draw call: `count` indices from `first` of the index list it is drawn from, all
/// of one material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// Index into the map's materials.
    pub material: u32,
    /// The material has see-through texels: drawn with the alpha test.
    pub cutout: bool,
    /// Its triangles' back faces are hidden from this eye (see
    /// [`super::Cluster::hides_back_faces`]): drawn with back faces culled.
    pub cull_back_faces: bool,
    /// First index.
    pub first: u32,
    /// Number of indices.
    pub count: u32,
    /// The cluster its triangles are of (an index into the mesh's clusters): what the
    /// renderer knows of a cluster as a whole (wholly in the sun's shade) applies.
    pub cluster: u32,
}

/// A meshlet picked for a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Picked {
    /// Its cluster's place in the drawing order.
    rank: u32,
    /// The squared distance from the eye to the nearest point of its box (0 inside it),
    /// as bits: non-negative, so the bits sort as the number does.
    distance: u32,
    /// Index into [`ClusteredMesh::meshlets`].
    meshlet: u32,
    /// Index into [`ClusteredMesh::clusters`].
    cluster: u32,
    /// Which of its triangles to draw.
    triangles: TriangleSet,
}

/// The triangles a pass draws and the draws that do it. Kept from frame to frame: a
/// frame allocates nothing once the lists have grown to what a view needs.
#[derive(Clone, Debug, Default)]
pub struct Batches {
    /// The picked triangles' indices (into [`ClusteredMesh::vertices`]), one after another
    /// in drawing order: what [`Batches::draws`] draw.
    pub indices: Vec<u32>,
    /// The draw calls, in order, over [`Batches::indices`].
    pub draws: Vec<Draw>,
    picked: Vec<Picked>,
    /// Triangles picked so far.
    picked_triangles: usize,
}

impl Batches {
    /// Start a pass: nothing picked.
    pub fn clear(&mut self) {
        self.picked.clear();
        self.picked_triangles = 0;
        self.indices.clear();
        self.draws.clear();
    }

    /// Pick `triangles` (none: nothing) of `meshlet`, at `index` in
    /// [`ClusteredMesh::meshlets`], of cluster `cluster`, the `rank`th in the drawing
    /// order, seen from `eye`.
    pub fn pick(
        &mut self,
        rank: usize,
        cluster: u32,
        index: usize,
        meshlet: &Meshlet,
        eye: Vec3,
        triangles: TriangleSet,
    ) {
        if triangles == 0 {
            return;
        }
        self.picked_triangles += triangles.count_ones() as usize;
        self.picked.push(Picked {
            rank: rank as u32,
            distance: meshlet.bounds.distance_squared_to(eye).to_bits(),
            meshlet: index as u32,
            cluster,
            triangles,
        });
    }

    /// Order what was picked and copy its triangles' indices out of `mesh`, one draw a
    /// cluster, seen from `eye` through a near plane `near_reach` from it (a closed
    /// cluster's meshlets whose solids hold the eye in a draw of their own, two-sided).
    pub fn finish(&mut self, mesh: &ClusteredMesh, eye: Vec3, near_reach: f32) {
        // By cluster, then nearest first, as one 64-bit key (ties in no particular order).
        self.picked
            .sort_unstable_by_key(|p| (u64::from(p.rank) << 32) | u64::from(p.distance));
        self.indices.clear();
        self.draws.clear();
        // A new draw at each cluster, and within one where back faces stop (or start)
        // being hidden: the eye inside the bounds of some of its solids.
        let mut last = None;
        for p in &self.picked {
            let m = &mesh.meshlets[p.meshlet as usize];
            let first = self.indices.len() as u32;
            let indices = &mesh.indices[m.first as usize..(m.first + m.count) as usize];
            if p.triangles == m.all_triangles() {
                self.indices.extend_from_slice(indices);
            } else {
                for (k, t) in indices.chunks_exact(3).enumerate() {
                    if p.triangles & (1 << k) != 0 {
                        self.indices.extend_from_slice(t);
                    }
                }
            }
            let count = self.indices.len() as u32 - first;
            let c = &mesh.clusters[p.cluster as usize];
            let cull_back_faces =
                mesh.meshlet_hides_back_faces(p.meshlet as usize, eye, near_reach);
            match self.draws.last_mut() {
                Some(d) if last == Some((p.rank, cull_back_faces)) => d.count += count,
                _ => self.draws.push(Draw {
                    material: c.material as u32,
                    cutout: c.cutout,
                    cull_back_faces,
                    first,
                    count,
                    cluster: p.cluster,
                }),
            }
            last = Some((p.rank, cull_back_faces));
        }
    }

    /// The picked meshlets (indices into [`ClusteredMesh::meshlets`]), in drawing order
    /// once [`Batches::finish`]ed.
    pub fn meshlets(&self) -> impl Iterator<Item = usize> + '_ {
        self.picked.iter().map(|p| p.meshlet as usize)
    }

    /// Nothing picked.
    pub fn is_empty(&self) -> bool {
        self.picked.is_empty()
    }

    /// Triangles picked (before [`Batches::finish`] too).
    pub fn picked_triangles(&self) -> usize {
        self.picked_triangles
    }

    /// Triangles drawn.
    pub fn triangles(&self) -> usize {
        self.indices.len() / 3
    }
}

#[cfg(test)]
mod tests;
