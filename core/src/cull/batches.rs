//! A pass's meshlets as the GL draws them: the triangles picked copied one after another
//! into one index list, cluster by cluster in the drawing order (nearest first, opaque
//! before cut-outs: see [`super::draw_order`]), a cluster's meshlets nearest first, and
//! one draw call a cluster (or a run of its meshlets, where some must show their back
//! faces: see [`super::ClusteredMesh::meshlet_hides_back_faces`]). Where the renderer
//! knows that none of the sun's light reaches some triangles' seen side ([`SunShade`]), a
//! cluster's draw is two: those triangles first, drawn without the shadow lookup, then
//! the rest.
//!
//! A software rasterizer pays for every fragment it rasterizes, and a draw call costs it
//! about what a hundred triangles do. Drawn straight from the map's index list, the shown
//! meshlets took a call for every run of neighbours a cluster kept (239 a frame on
//! conference), in split order (a cluster's far meshlets before its near ones), and a
//! meshlet could only be drawn whole. Copied out, a cluster is one call, nearest first,
//! and any of a meshlet's triangles can be left out. (One call a material instead let
//! more hidden fragments through on conference and the built-in map, 1.44 and 1.29 a
//! pixel against 1.32 and 1.18, and was no faster.)

use std::sync::Arc;

use glam::Vec3;

use super::clusters::{ClusteredMesh, Meshlet, TriangleSet};

/// What the renderer knows of the sun's light on a mesh's triangles, meshlet by meshlet
/// (an index into [`ClusteredMesh::meshlets`]; a list empty or short: nothing known).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SunShade {
    /// Each meshlet's triangles wholly in the sun's shade, found from the shadow map.
    pub in_shade: Vec<TriangleSet>,
    /// Each meshlet's triangles lit by their own plane's normal (flat: no vertex normal):
    /// seen from the side of that plane away from the sun, they get none of its light.
    pub flat: Vec<TriangleSet>,
    /// The direction sunlight travels.
    pub sun: Vec3,
}

impl SunShade {
    /// Of `triangles` (a set) of meshlet `m`, those none of the sun's light reaches on the
    /// side seen from `eye`.
    fn unlit(
        &self,
        mesh: &ClusteredMesh,
        m: usize,
        triangles: TriangleSet,
        eye: Vec3,
    ) -> TriangleSet {
        let in_shade = self.in_shade.get(m).copied().unwrap_or(0);
        let flat = self.flat.get(m).copied().unwrap_or(0) & triangles & !in_shade;
        if flat == 0 {
            return in_shade & triangles;
        }
        let meshlet = &mesh.meshlets[m];
        let corner = |i: u32| Vec3::from(mesh.vertices[i as usize].position);
        let indices =
            &mesh.indices[meshlet.first as usize..(meshlet.first + meshlet.count) as usize];
        let away = indices.chunks_exact(3).enumerate().fold(0, |set, (k, t)| {
            if flat & (1 << k) == 0 {
                return set;
            }
            let (a, b, c) = (corner(t[0]), corner(t[1]), corner(t[2]));
            let normal = (b - a).cross(c - a);
            // The eye and the sun strictly on opposite sides of the plane.
            if normal.dot(eye - a) * normal.dot(-self.sun) < 0.0 {
                set | (1 << k)
            } else {
                set
            }
        });
        (in_shade & triangles) | away
    }
}

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
    /// None of the sun's light reaches any of its triangles' seen sides (see
    /// [`SunShade`]): drawn without the shadow lookup.
    pub in_shade: bool,
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
    /// What the renderer knows of the sun's light on the mesh (the default: nothing).
    /// Kept until the renderer changes it.
    pub shade: Arc<SunShade>,
    picked: Vec<Picked>,
    /// Each picked meshlet's triangles the sun does not reach (see [`SunShade`]).
    unlit: Vec<TriangleSet>,
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
    /// cluster (two where some of its triangles are in [`Batches::shade`]), seen from
    /// `eye` through a near plane `near_reach` from it (a closed cluster's meshlets whose
    /// solids hold the eye in a draw of their own, two-sided).
    pub fn finish(&mut self, mesh: &ClusteredMesh, eye: Vec3, near_reach: f32) {
        // By cluster, then nearest first, as one 64-bit key (ties in no particular order).
        self.picked
            .sort_unstable_by_key(|p| (u64::from(p.rank) << 32) | u64::from(p.distance));
        self.indices.clear();
        self.draws.clear();
        // A run is a cluster's meshlets, split where back faces stop (or start) being
        // hidden: the eye inside the bounds of some of its solids.
        let hides = |p: &Picked| mesh.meshlet_hides_back_faces(p.meshlet as usize, eye, near_reach);
        self.unlit.clear();
        let shade = &self.shade;
        self.unlit.extend(
            self.picked
                .iter()
                .map(|p| shade.unlit(mesh, p.meshlet as usize, p.triangles, eye)),
        );
        let mut start = 0;
        while start < self.picked.len() {
            let first = &self.picked[start];
            let cull_back_faces = hides(first);
            let run = self.picked[start..]
                .iter()
                .take_while(|p| p.rank == first.rank && hides(p) == cull_back_faces)
                .count();
            let c = &mesh.clusters[first.cluster as usize];
            for in_shade in [true, false] {
                let from = self.indices.len() as u32;
                for (p, &unlit) in self.picked[start..start + run]
                    .iter()
                    .zip(&self.unlit[start..start + run])
                {
                    let triangles = p.triangles & if in_shade { unlit } else { !unlit };
                    copy_triangles(mesh, p.meshlet, triangles, &mut self.indices);
                }
                let count = self.indices.len() as u32 - from;
                if count > 0 {
                    self.draws.push(Draw {
                        material: c.material as u32,
                        cutout: c.cutout,
                        cull_back_faces,
                        first: from,
                        count,
                        in_shade,
                    });
                }
            }
            start += run;
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

/// Append `triangles` (a set) of meshlet `meshlet`'s triangles' indices to `out`.
fn copy_triangles(mesh: &ClusteredMesh, meshlet: u32, triangles: TriangleSet, out: &mut Vec<u32>) {
    let m = &mesh.meshlets[meshlet as usize];
    let indices = &mesh.indices[m.first as usize..(m.first + m.count) as usize];
    if triangles == m.all_triangles() {
        out.extend_from_slice(indices);
    } else if triangles != 0 {
        for (k, t) in indices.chunks_exact(3).enumerate() {
            if triangles & (1 << k) != 0 {
                out.extend_from_slice(t);
            }
        }
    }
}

#[cfg(test)]
mod tests;
