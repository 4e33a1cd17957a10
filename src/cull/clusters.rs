//! A map's triangles in spatial clusters: what the renderer culls and orders.
//!
//! Each material's triangles are split in halves at the median of their centres along the
//! longest side of their bounds, again and again, until a piece holds at most
//! [`CLUSTER_TRIANGLES`] (the BVH's median split, Ericson 6.2.1, stopped early): pieces
//! that are small in space, so a view sees few of them. The vertices are shared between
//! triangles of a cluster (one copy of each distinct vertex, in the order first drawn)
//! and drawn through one index list.

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
    mesh
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
}
