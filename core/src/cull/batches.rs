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
mod tests {
    use super::*;
    use crate::cull::clusters::{CLUSTER_TRIANGLES, MESHLET_TRIANGLES, cluster_map};
    use crate::cull::fixtures::{cube, one_material};
    use crate::map::Vertex;

    /// `n` unit quads in a row along -z from z = 0, in clusters of `per_cluster`
    /// triangles.
    fn row(n: usize, per_cluster: usize) -> ClusteredMesh {
        let mut vertices = Vec::new();
        for i in 0..n {
            let z = -(i as f32);
            let v = |x: f32, z: f32| Vertex {
                position: [x, 0.0, z],
                normal: [0.0, 1.0, 0.0],
                uv: [0.0, 0.0],
            };
            let (a, b, c, d) = (v(0.0, z), v(1.0, z), v(1.0, z - 1.0), v(0.0, z - 1.0));
            vertices.extend([a, b, c, a, c, d]);
        }
        cluster_map(&one_material(vertices), per_cluster)
    }

    /// The z of the nearest corner of each triangle drawn, in drawing order.
    fn drawn_z(b: &Batches, mesh: &ClusteredMesh) -> Vec<f32> {
        b.indices
            .chunks(3)
            .map(|t| {
                t.iter()
                    .map(|&i| mesh.vertices[i as usize].position[2])
                    .fold(f32::MIN, f32::max)
            })
            .collect()
    }

    /// Every meshlet of `order`'s clusters, whole.
    fn pick_all(b: &mut Batches, mesh: &ClusteredMesh, order: &[u32], eye: Vec3) {
        b.clear();
        for (rank, &c) in order.iter().enumerate() {
            for m in mesh.clusters[c as usize].meshlets() {
                let meshlet = &mesh.meshlets[m];
                b.pick(rank, c, m, meshlet, eye, meshlet.all_triangles());
            }
        }
        b.finish(mesh, eye, 0.01);
    }

    #[test]
    fn a_cluster_is_one_draw_its_meshlets_nearest_first_in_the_clusters_order() {
        let mesh = row(400, 256);
        let clusters = mesh.clusters.len() as u32;
        assert!(clusters >= 4 && mesh.meshlets.len() > 20);
        let mut b = Batches::default();
        // From the near end, clusters in reverse order (as a caller might rank them).
        let order: Vec<u32> = (0..clusters).rev().collect();
        pick_all(&mut b, &mesh, &order, Vec3::new(0.5, 1.0, 0.5));
        assert_eq!(b.draws.len(), clusters as usize);
        assert_eq!(b.triangles(), 800);
        let mut next = 0;
        for (d, &c) in b.draws.iter().zip(&order) {
            // The draws tile the list, a cluster each, in the order given.
            assert_eq!(d.first, next);
            next += d.count;
            let c = &mesh.clusters[c as usize];
            assert_eq!(d.count, c.count);
            let own = c.first_vertex..c.first_vertex + c.vertex_count;
            let run = &b.indices[d.first as usize..(d.first + d.count) as usize];
            assert!(run.iter().all(|i| own.contains(i)));
            // Within it, the nearest meshlet first: seen from z = 0.5, z falls.
            let z = drawn_z(
                &Batches {
                    indices: run.to_vec(),
                    ..Batches::default()
                },
                &mesh,
            );
            let firsts: Vec<f32> = z.chunks(MESHLET_TRIANGLES).map(|c| c[0]).collect();
            assert!(firsts.windows(2).all(|w| w[0] >= w[1]), "{firsts:?}");
        }
        assert_eq!(next as usize, b.indices.len());
        // Picked meshlets are reported in drawing order.
        let first = b.meshlets().next().unwrap();
        let m = &mesh.meshlets[first];
        assert_eq!(
            &b.indices[..m.count as usize],
            &mesh.indices[m.first as usize..(m.first + m.count) as usize]
        );
    }

    #[test]
    fn a_closed_solids_draw_culls_back_faces_only_seen_from_outside_its_box() {
        let mesh = cluster_map(
            &one_material(cube(Vec3::ZERO, Vec3::ONE)),
            CLUSTER_TRIANGLES,
        );
        assert!(mesh.clusters[0].closed.is_some());
        let mut b = Batches::default();
        for (eye, culled) in [(Vec3::new(0.5, 0.5, 5.0), true), (Vec3::splat(0.5), false)] {
            pick_all(&mut b, &mesh, &[0], eye);
            assert_eq!(b.draws.len(), 1);
            assert_eq!(b.draws[0].cull_back_faces, culled, "from {eye}");
        }
    }

    #[test]
    fn within_a_cluster_only_the_solids_around_the_eye_are_drawn_with_their_back_faces() {
        // Four cubes in a row along x, one cluster of two meshlets (two cubes each): the
        // eye in the first cube's box.
        let mut v = Vec::new();
        for x in [0.0, 10.0, 20.0, 30.0] {
            v.extend(cube(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)));
        }
        let mesh = cluster_map(&one_material(v), CLUSTER_TRIANGLES);
        assert_eq!((mesh.clusters.len(), mesh.meshlets.len()), (1, 2));
        let mut b = Batches::default();
        let drawn = |b: &Batches| -> Vec<(bool, u32)> {
            b.draws
                .iter()
                .map(|d| (d.cull_back_faces, d.count / 3))
                .collect()
        };
        pick_all(&mut b, &mesh, &[0], Vec3::new(0.5, 0.5, 0.5));
        // Nearest first: the meshlet around the eye two-sided, then the other culled.
        assert_eq!(drawn(&b), vec![(false, 24), (true, 24)]);
        // From outside all of them: one draw, culled.
        pick_all(&mut b, &mesh, &[0], Vec3::new(15.5, 5.0, 0.5));
        assert_eq!(drawn(&b), vec![(true, 48)]);
    }

    #[test]
    fn only_the_triangles_picked_are_drawn() {
        let mesh = row(16, 32);
        assert_eq!(mesh.meshlets.len(), 1);
        let m = &mesh.meshlets[0];
        assert_eq!(m.all_triangles(), u32::MAX);
        let mut b = Batches::default();
        b.clear();
        // Its 1st, 4th and 32nd triangles.
        b.pick(0, 0, 0, m, Vec3::ZERO, 1 | 1 << 3 | 1 << 31);
        b.finish(&mesh, Vec3::ZERO, 0.01);
        let at = |k: usize| &mesh.indices[3 * k..3 * k + 3];
        let want: Vec<u32> = [0, 3, 31].iter().flat_map(|&k| at(k).to_vec()).collect();
        assert_eq!(b.indices, want);
        assert_eq!(b.draws.len(), 1);
        assert_eq!(b.draws[0].count, 9);
        // None of them: not picked at all.
        b.clear();
        b.pick(0, 0, 0, m, Vec3::ZERO, 0);
        b.finish(&mesh, Vec3::ZERO, 0.01);
        assert!(b.is_empty() && b.draws.is_empty() && b.indices.is_empty());
    }
}
