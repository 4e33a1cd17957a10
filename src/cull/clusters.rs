//! A map's triangles in spatial clusters: what the renderer culls and orders.
//!
//! Each material's triangles are split in halves at the median of their centres along the
//! longest side of their bounds, again and again, until a piece holds at most
//! [`CLUSTER_TRIANGLES`] (the BVH's median split, Ericson 6.2.1, stopped early): pieces
//! that are small in space, so a view sees few of them. The vertices are shared between
//! triangles of a cluster (one copy of each distinct vertex, in the order first drawn)
//! and drawn through one index list. Each cluster's triangles are then ordered for the
//! GPU's post-transform vertex cache and its vertices for fetch locality (meshoptimizer's
//! `optimizeVertexCache` and `optimizeVertexFetch`, through the `meshopt` crate), on two
//! threads.

use glam::Vec3;
use rustc_hash::FxHashMap;

use crate::geometry::Aabb;
use crate::map::{Map, Vertex};

/// Most triangles in a cluster: a few thousand, so a draw is worth its call and a view of
/// a large map still leaves most clusters out.
pub const CLUSTER_TRIANGLES: usize = 2048;

/// A piece of one material's triangles, close together in space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cluster {
    /// Index into [`Map::materials`].
    pub material: usize,
    /// First index in [`ClusteredMesh::indices`].
    pub first: u32,
    /// Number of indices (three per triangle).
    pub count: u32,
    /// Its first vertex in [`ClusteredMesh::vertices`]: its indices point into
    /// `first_vertex..first_vertex + vertex_count`, which no other cluster uses.
    pub first_vertex: u32,
    /// Number of its vertices.
    pub vertex_count: u32,
    /// Bounds of its triangles.
    pub bounds: Aabb,
    /// Its material's texture has see-through texels (leaves, fences): drawn after every
    /// opaque cluster, with the alpha test.
    pub cutout: bool,
}

/// A map's drawable geometry: shared vertices, an index list, and the clusters over it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusteredMesh {
    /// Each distinct vertex once per cluster.
    pub vertices: Vec<Vertex>,
    /// Three per triangle, cluster after cluster.
    pub indices: Vec<u32>,
    /// The clusters, material by material.
    pub clusters: Vec<Cluster>,
}

impl ClusteredMesh {
    /// Scale it by `factor` (positive) about the origin, as the map was: the same
    /// clusters, their bounds scaled too.
    pub fn scale_by(&mut self, factor: f32) {
        for v in &mut self.vertices {
            v.position = (Vec3::from(v.position) * factor).into();
        }
        for c in &mut self.clusters {
            c.bounds = Aabb {
                min: c.bounds.min * factor,
                max: c.bounds.max * factor,
            };
        }
    }
}

/// Split `map`'s batches into clusters of at most `max_triangles` (at least 1).
pub fn cluster_map(map: &Map, max_triangles: usize) -> ClusteredMesh {
    let max_triangles = max_triangles.max(1);
    let mut mesh = ClusteredMesh::default();
    // A cluster's vertices by their bits: equal bits are one vertex (a NaN never reaches a
    // map). Shared within a cluster only: a table of a cluster's vertices stays in the
    // cache (one of the whole map's million did not, and took 300 ms), and a cluster is
    // drawn on its own anyway. Fx hashing: no key here is hostile.
    let mut seen: FxHashMap<[u32; 8], u32> = FxHashMap::default();
    for batch in &map.batches {
        let cutout = map
            .materials
            .get(batch.material)
            .and_then(|m| m.texture.as_ref())
            .is_some_and(|t| t.has_alpha);
        let first_vertex = batch.first as usize;
        let triangles = batch.count as usize / 3;
        let corner = |t: u32, k: usize| map.vertices[first_vertex + 3 * t as usize + k];
        let centres: Vec<Vec3> = (0..triangles as u32)
            .map(|t| {
                (0..3)
                    .map(|k| Vec3::from(corner(t, k).position))
                    .sum::<Vec3>()
                    / 3.0
            })
            .collect();
        let centre = |t: u32| centres[t as usize];
        let mut order: Vec<u32> = (0..triangles as u32).collect();
        let mut pending = vec![(0usize, triangles)];
        while let Some((lo, hi)) = pending.pop() {
            let part = &mut order[lo..hi];
            if part.len() <= max_triangles {
                let first = mesh.indices.len() as u32;
                let first_vertex = mesh.vertices.len() as u32;
                let mut bounds = Aabb::EMPTY;
                seen.clear();
                for &t in part.iter() {
                    for k in 0..3 {
                        let v = corner(t, k);
                        bounds = bounds.grown(Vec3::from(v.position));
                        let next = mesh.vertices.len() as u32;
                        let index = *seen.entry(bits(&v)).or_insert(next);
                        if index == next {
                            mesh.vertices.push(v);
                        }
                        mesh.indices.push(index);
                    }
                }
                mesh.clusters.push(Cluster {
                    material: batch.material,
                    first,
                    count: mesh.indices.len() as u32 - first,
                    first_vertex,
                    vertex_count: mesh.vertices.len() as u32 - first_vertex,
                    bounds,
                    cutout,
                });
                continue;
            }
            let spread = part
                .iter()
                .fold(Aabb::EMPTY, |b, &t| b.grown(centre(t)))
                .size();
            let axis = spread.max_position();
            let mid = part.len() / 2;
            part.select_nth_unstable_by(mid, |&a, &b| centre(a)[axis].total_cmp(&centre(b)[axis]));
            // The nearer half last, so it is emitted first: clusters stay in spatial order.
            pending.push((lo + mid, hi));
            pending.push((lo, lo + mid));
        }
    }
    order_for_the_gpu(&mut mesh);
    mesh
}

/// Order each cluster's triangles for the vertex cache and its vertices in the order they
/// are first used (meshoptimizer, Kapoulkine: `optimizeVertexCache` after Forsyth's "Linear-
/// Speed Vertex Cache Optimisation", then `optimizeVertexFetch`), the clusters split
/// between two threads. The same triangles, each still wound as it was.
fn order_for_the_gpu(mesh: &mut ClusteredMesh) {
    let clusters = &mesh.clusters;
    // Split at the cluster where half of the indices are done.
    let half = clusters.partition_point(|c| (c.first as usize) < mesh.indices.len() / 2);
    let (index_split, vertex_split) = clusters
        .get(half)
        .map_or((mesh.indices.len(), mesh.vertices.len()), |c| {
            (c.first as usize, c.first_vertex as usize)
        });
    let (indices_a, indices_b) = mesh.indices.split_at_mut(index_split);
    let (vertices_a, vertices_b) = mesh.vertices.split_at_mut(vertex_split);
    let (clusters_a, clusters_b) = clusters.split_at(half);
    std::thread::scope(|s| {
        s.spawn(|| order_clusters(clusters_a, indices_a, vertices_a, 0, 0));
        order_clusters(clusters_b, indices_b, vertices_b, index_split, vertex_split);
    });
}

/// [`order_for_the_gpu`] of `clusters`, whose indices and vertices are `indices` and
/// `vertices` (starting at `index_base` and `vertex_base` in the whole mesh).
fn order_clusters(
    clusters: &[Cluster],
    indices: &mut [u32],
    vertices: &mut [Vertex],
    index_base: usize,
    vertex_base: usize,
) {
    for c in clusters {
        let first = c.first as usize - index_base;
        let local = &mut indices[first..first + c.count as usize];
        let v0 = c.first_vertex as usize - vertex_base;
        let own = &mut vertices[v0..v0 + c.vertex_count as usize];
        for i in local.iter_mut() {
            *i -= c.first_vertex;
        }
        meshopt::optimize_vertex_cache_in_place(local, own.len());
        meshopt::optimize_vertex_fetch_in_place(local, own);
        for i in local.iter_mut() {
            *i += c.first_vertex;
        }
    }
}

/// A vertex's bits, for finding equal vertices.
fn bits(v: &Vertex) -> [u32; 8] {
    let [x, y, z] = v.position;
    let [nx, ny, nz] = v.normal;
    let [u, w] = v.uv;
    [x, y, z, nx, ny, nz, u, w].map(f32::to_bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Batch, Material};

    /// A map of `vertices` (three per triangle) in one grey material.
    fn one_material(vertices: Vec<Vertex>) -> Map {
        Map {
            batches: vec![Batch {
                material: 0,
                first: 0,
                count: vertices.len() as u32,
            }],
            vertices,
            materials: vec![Material::default_grey()],
            ..Map::default()
        }
    }

    /// A row of `n` unit quads along x (two triangles each, four shared corners), one
    /// material.
    fn strip(n: usize) -> Map {
        let mut vertices = Vec::new();
        for i in 0..n {
            let x = i as f32;
            let v = |x: f32, z: f32| Vertex {
                position: [x, 0.0, z],
                normal: [0.0, 1.0, 0.0],
                uv: [0.0, 0.0],
            };
            let (a, b, c, d) = (v(x, 0.0), v(x + 1.0, 0.0), v(x + 1.0, 1.0), v(x, 1.0));
            vertices.extend([a, b, c, a, c, d]);
        }
        one_material(vertices)
    }

    #[test]
    fn every_triangle_lands_in_one_cluster_and_shared_corners_are_one_vertex() {
        let map = strip(100);
        let mesh = cluster_map(&map, 16);
        assert_eq!(mesh.indices.len(), 600);
        // 101 x 2 distinct corners instead of 600 copies, plus a copy of those on the
        // borders between clusters.
        let borders = 2 * (mesh.clusters.len() - 1);
        assert!(
            (202..=202 + borders).contains(&mesh.vertices.len()),
            "{} vertices",
            mesh.vertices.len()
        );
        assert_eq!(cluster_map(&map, 1000).vertices.len(), 202);
        assert!(mesh.clusters.iter().all(|c| c.count <= 16 * 3));
        let covered: u32 = mesh.clusters.iter().map(|c| c.count).sum();
        assert_eq!(covered, 600);
        // The same triangles: each drawn triangle's corners are one of the map's.
        let mut drawn: Vec<[i32; 3]> = mesh
            .indices
            .chunks(3)
            .map(|t| {
                let c = t.iter().map(|&i| mesh.vertices[i as usize].position);
                let s: Vec3 = c.map(Vec3::from).sum();
                (s * 100.0).round().as_ivec3().to_array()
            })
            .collect();
        let mut want: Vec<[i32; 3]> = map
            .vertices
            .chunks(3)
            .map(|t| {
                let s: Vec3 = t.iter().map(|v| Vec3::from(v.position)).sum();
                (s * 100.0).round().as_ivec3().to_array()
            })
            .collect();
        drawn.sort_unstable();
        want.sort_unstable();
        assert_eq!(drawn, want);
    }

    #[test]
    fn clusters_are_compact_in_space() {
        let mesh = cluster_map(&strip(100), 16);
        // 200 triangles in pieces of at most 16: 16 pieces, each at most 8 quads long (a
        // median split of a 100 m strip), none spanning the strip.
        assert_eq!(mesh.clusters.len(), 16);
        for c in &mesh.clusters {
            assert!(c.bounds.size().x <= 8.0, "{:?}", c.bounds);
            assert_eq!(c.material, 0);
            assert!(!c.cutout);
        }
    }

    #[test]
    fn a_map_without_triangles_has_no_clusters() {
        let mesh = cluster_map(&Map::default(), CLUSTER_TRIANGLES);
        assert!(mesh.clusters.is_empty() && mesh.indices.is_empty());
    }

    /// A `n` x `n` grid of unit quads, its triangles in a scrambled order.
    fn scrambled_grid(n: usize) -> Map {
        let v = |x: usize, z: usize| Vertex {
            position: [x as f32, 0.0, z as f32],
            normal: [0.0, 1.0, 0.0],
            uv: [0.0, 0.0],
        };
        let mut triangles = Vec::new();
        for x in 0..n {
            for z in 0..n {
                let (a, b, c, d) = (v(x, z), v(x + 1, z), v(x + 1, z + 1), v(x, z + 1));
                triangles.push([a, b, c]);
                triangles.push([a, c, d]);
            }
        }
        // A fixed scramble: step through them by a stride prime to their number.
        let count = triangles.len();
        let vertices: Vec<Vertex> = (0..count)
            .flat_map(|i| triangles[(i * 7919) % count])
            .collect();
        one_material(vertices)
    }

    #[test]
    fn triangles_are_ordered_for_the_vertex_cache_and_keep_their_winding() {
        let map = scrambled_grid(40);
        let mesh = cluster_map(&map, 4000);
        assert_eq!(mesh.clusters.len(), 1);
        let c = mesh.clusters[0];
        let acmr = |indices: &[u32]| {
            meshopt::analyze_vertex_cache(indices, c.vertex_count as usize, 16, 0, 0).acmr
        };
        // The same cluster in the scrambled order it was read in: each corner once.
        let mut seen = FxHashMap::default();
        let scrambled: Vec<u32> = map
            .vertices
            .iter()
            .map(|v| {
                let next = seen.len() as u32;
                *seen.entry(bits(v)).or_insert(next)
            })
            .collect();
        let (before, after) = (acmr(&scrambled), acmr(&mesh.indices));
        // A regular grid's best is about 0.6 vertices a triangle; scrambled, about 2.9.
        assert!(before > 2.0, "scrambled {before}");
        assert!(after < 0.8, "ordered {after}");
        // Every index stays in the cluster's own vertices, and every triangle still faces
        // as it did (the grid's triangles all face -y by their winding).
        let range = c.first_vertex..c.first_vertex + c.vertex_count;
        assert!(mesh.indices.iter().all(|i| range.contains(i)));
        for t in mesh.indices.chunks(3) {
            let p = |k: usize| Vec3::from(mesh.vertices[t[k] as usize].position);
            assert!((p(1) - p(0)).cross(p(2) - p(0)).y < 0.0);
        }
    }

    #[test]
    fn clusters_split_between_the_two_threads_keep_their_own_vertices() {
        let mesh = cluster_map(&strip(1000), 64);
        assert!(mesh.clusters.len() > 20);
        for c in &mesh.clusters {
            let own = c.first_vertex..c.first_vertex + c.vertex_count;
            let idx = &mesh.indices[c.first as usize..(c.first + c.count) as usize];
            assert!(idx.iter().all(|i| own.contains(i)), "{c:?}");
            // Each of its vertices is used (fetch order keeps none unused).
            let mut used = vec![false; c.vertex_count as usize];
            idx.iter()
                .for_each(|&i| used[(i - c.first_vertex) as usize] = true);
            assert!(used.iter().all(|u| *u));
        }
    }
}
