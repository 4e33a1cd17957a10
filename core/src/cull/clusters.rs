//! A map's triangles in spatial clusters: what the renderer culls and orders.
//!
//! Each material's triangles are split in halves at the median of their centres along the
//! longest side of their bounds, again and again, until a piece holds at most
//! [`CLUSTER_TRIANGLES`] (the BVH's median split, Ericson 6.2.1, stopped early): pieces
//! that are small in space, so a view sees few of them. Each cluster is split the same way
//! into meshlets of at most [`MESHLET_TRIANGLES`], what occlusion culling keeps or leaves
//! out (see [`super::occlusion`]). The vertices are shared between
//! triangles of a cluster (one copy of each distinct vertex, in the order first drawn)
//! and drawn through one index list, its vertices in the order first used, for fetch
//! locality (meshoptimizer's `optimizeVertexFetch`, through the `meshopt` crate). A
//! meshlet is small enough that the post-transform vertex cache keeps most of its
//! vertices whatever the order of its triangles (meshoptimizer's `optimizeVertexCache` on
//! each saved 2% of the vertices transformed and cost a fifth of the clustering). Clusters
//! are built on all cores, each on its own.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::Vec3;
use rustc_hash::FxHashMap;

use super::solids::{Solid, closed_solids};
use super::split::{Centred, median_split};
use crate::geometry::Aabb;
use crate::map::{Map, Solids, Vertex};

/// Most triangles in a cluster: a few thousand, so a draw is worth its call and a view of
/// a large map still leaves most clusters out.
pub const CLUSTER_TRIANGLES: usize = 2048;

/// Most triangles in a meshlet, the piece of a cluster that occlusion culling keeps or
/// leaves out: small enough that a cluster half behind a hill is drawn by halves (the
/// depth test costs a software rasterizer nearly as much as shading), large enough that
/// testing every meshlet in view costs the CPU little (conference's 10,000: 0.7 ms a
/// frame). 32 left out the most of 32 to 256 on lost_empire (see the README).
pub const MESHLET_TRIANGLES: usize = 32;

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
    /// Its first meshlet in [`ClusteredMesh::meshlets`]: its meshlets are
    /// `first_meshlet..first_meshlet + meshlet_count`, their indices one after another
    /// from `first` to `first + count`.
    pub first_meshlet: u32,
    /// Number of its meshlets.
    pub meshlet_count: u32,
    /// Bounds of its triangles.
    pub bounds: Aabb,
    /// Its material's texture has see-through texels (leaves, fences): drawn after every
    /// opaque cluster, with the alpha test.
    pub cutout: bool,
    /// Every one of its triangles is a face of a closed solid, wound outward (turned here
    /// where the file wound it inward), and the solids lie within this box: from outside
    /// it, their back faces are hidden behind their front faces (see [`crate::cull::solids`]).
    /// None: some of its triangles may be seen from both sides.
    pub closed: Option<Aabb>,
}

/// Some of a meshlet's triangles, as bits: bit `k` is its `k`th triangle (so a meshlet
/// holds at most 32).
pub type TriangleSet = u32;

const _: () = assert!(MESHLET_TRIANGLES <= TriangleSet::BITS as usize);

impl Cluster {
    /// Its meshlets' positions in [`ClusteredMesh::meshlets`].
    pub fn meshlets(&self) -> std::ops::Range<usize> {
        self.first_meshlet as usize..(self.first_meshlet + self.meshlet_count) as usize
    }

    /// Its back faces may be left out, seen from `eye` through a near plane whose corners
    /// lie `near_reach` from it: it is [`Cluster::closed`] and
    /// [`solids_hide_back_faces`] for the solids' bounds.
    pub fn hides_back_faces(&self, eye: Vec3, near_reach: f32) -> bool {
        self.closed
            .is_some_and(|b| solids_hide_back_faces(b, eye, near_reach))
    }
}

/// Whether closed solids within `bounds` hide their back faces from `eye`, seen through a
/// near plane whose corners lie `near_reach` from it: the eye is further than that
/// outside the bounds (nearer, the near plane could cut a front face away and open a
/// solid to view). No solids (empty bounds): no.
pub fn solids_hide_back_faces(bounds: Aabb, eye: Vec3, near_reach: f32) -> bool {
    !bounds.is_empty() && !bounds.inflated(near_reach.max(0.0)).contains(eye)
}

/// A few neighbouring triangles of one cluster: a run of its indices, with their bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meshlet {
    /// First index in [`ClusteredMesh::indices`].
    pub first: u32,
    /// Number of indices (three per triangle).
    pub count: u32,
    /// Bounds of its triangles.
    pub bounds: Aabb,
}

impl Meshlet {
    /// All its triangles.
    pub fn all_triangles(&self) -> TriangleSet {
        TriangleSet::MAX >> (TriangleSet::BITS - self.count / 3)
    }
}

/// A simplified stand-in for a cluster (see [`super::lod`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Its place in [`ClusteredMesh::clusters`].
    pub cluster: u32,
    /// How far (at most) its surface lies from the cluster's, in world units.
    pub error: f32,
}

/// A map's drawable geometry: shared vertices, an index list, and the clusters over it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusteredMesh {
    /// Each distinct vertex once per cluster: shared with the thread that makes the
    /// levels of detail (whose adding to the mesh would otherwise copy them all).
    pub vertices: Arc<Vec<Vertex>>,
    /// Three per triangle, cluster after cluster.
    pub indices: Vec<u32>,
    /// The clusters, material by material.
    pub clusters: Vec<Cluster>,
    /// The clusters' meshlets, cluster after cluster.
    pub meshlets: Vec<Meshlet>,
    /// For each meshlet, the bounds of the closed solids its triangles are faces of
    /// (empty for a meshlet of a cluster that is not [`Cluster::closed`]): from outside
    /// them its back faces are hidden. Beside the meshlets, not in them: the occlusion
    /// tests read every meshlet's bounds and nothing else.
    pub solids_bounds: Vec<Aabb>,
    /// For each of the map's clusters (the first [`ClusteredMesh::originals`]), its
    /// simplified levels, finest first, each a cluster after the map's (see
    /// [`super::lod`]); empty until they are added.
    pub levels: Vec<Vec<Level>>,
}

impl ClusteredMesh {
    /// Whether meshlet `m` may be drawn with back faces culled, seen from `eye` through a
    /// near plane whose corners lie `near_reach` from it: as
    /// [`Cluster::hides_back_faces`], against the bounds of the meshlet's own solids (a
    /// meshlet of a cluster that is not closed has none).
    pub fn meshlet_hides_back_faces(&self, m: usize, eye: Vec3, near_reach: f32) -> bool {
        self.solids_bounds
            .get(m)
            .is_some_and(|&b| solids_hide_back_faces(b, eye, near_reach))
    }

    /// Scale it by `factor` (positive) about the origin, as the map was: the same
    /// clusters, their bounds scaled too.
    pub fn scale_by(&mut self, factor: f32) {
        for v in Arc::make_mut(&mut self.vertices) {
            v.position = (Vec3::from(v.position) * factor).into();
        }
        let scaled = |b: Aabb| Aabb {
            min: b.min * factor,
            max: b.max * factor,
        };
        for c in &mut self.clusters {
            c.bounds = scaled(c.bounds);
            c.closed = c.closed.map(scaled);
        }
        for m in &mut self.meshlets {
            m.bounds = scaled(m.bounds);
        }
        for b in &mut self.solids_bounds {
            *b = scaled(*b);
        }
        for l in self.levels.iter_mut().flatten() {
            l.error *= factor;
        }
    }
}

/// Split `map`'s batches into clusters of at most `max_triangles` (at least 1), each
/// cluster into meshlets of at most [`MESHLET_TRIANGLES`]. The clusters are built on as
/// many threads as the machine has cores (at most [`BUILD_THREADS`]).
pub fn cluster_map(map: &Map, max_triangles: usize) -> ClusteredMesh {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    cluster_map_on(map, max_triangles, threads)
}

/// [`cluster_map`] on `threads` threads (1 to [`BUILD_THREADS`]): the same mesh on any
/// number.
fn cluster_map_on(map: &Map, max_triangles: usize, threads: usize) -> ClusteredMesh {
    let max_triangles = max_triangles.max(1);
    // The map's closed solids, found at load (or here, for a map loaded without them).
    let triangles = map.vertices.len() / 3;
    let found;
    let solids = if map.solids.of_triangle.len() == triangles {
        &map.solids
    } else {
        found = closed_solids(&map.vertices);
        &found
    };
    let shapes = solids.shapes(&map.vertices);
    // Each batch's triangles with their centres, those of closed solids first, reordered
    // by the splits; the pieces are the clusters to be, each a run of one batch's
    // triangles, all of closed solids or none.
    let mut batches: Vec<Vec<Centred>> = Vec::with_capacity(map.batches.len());
    let mut pieces: Vec<Piece> = Vec::new();
    for (b, batch) in map.batches.iter().enumerate() {
        let first_vertex = batch.first as usize;
        let first_triangle = first_vertex / 3;
        let mut order: Vec<Centred> = (0..batch.count / 3)
            .map(|triangle| Centred {
                centre: map
                    .corners(first_triangle + triangle as usize)
                    .iter()
                    .sum::<Vec3>()
                    / 3.0,
                triangle,
            })
            .collect();
        let in_solid = |c: &Centred| {
            solids
                .solid_of(first_triangle + c.triangle as usize)
                .is_some()
        };
        order.sort_by_key(|c| !in_solid(c));
        let closed = order.partition_point(in_solid);
        let mut at = 0;
        for (part, is_closed) in [(0..closed, true), (closed..order.len(), false)] {
            median_split(&mut order[part], max_triangles, &mut |part| {
                pieces.push(Piece {
                    batch: b,
                    start: at,
                    end: at + part.len(),
                    closed: is_closed,
                });
                at += part.len();
            });
        }
        batches.push(order);
    }
    // Deal the pieces out in groups of about as many triangles each, several a thread,
    // taken in turn by the threads and put together in order.
    let threads = threads.clamp(1, BUILD_THREADS);
    let groups = groups_of(&pieces, threads * GROUPS_PER_THREAD);
    let next = AtomicUsize::new(0);
    let build_some = || {
        let mut mine = Vec::new();
        loop {
            let g = next.fetch_add(1, Ordering::Relaxed);
            let Some(group) = groups.get(g) else {
                return mine;
            };
            mine.push((g, build_clusters(map, solids, &shapes, &batches, group)));
        }
    };
    let built: Vec<(usize, ClusteredMesh)> = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads).map(|_| s.spawn(build_some)).collect();
        let mut all = build_some();
        for h in helpers {
            all.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        all
    });
    put_together(built)
}

/// The groups' meshes (each with its group's number, in any order: the threads finish
/// as they do) as one mesh, in the groups' order. Reserved whole at once (a large block
/// grows where it lies: no copy), then each group appended and let go: beside the mesh,
/// one group at most, not all but the first (at ten million triangles on two cores, half
/// the mesh: 0.4 GB more at the window's peak).
fn put_together(mut built: Vec<(usize, ClusteredMesh)>) -> ClusteredMesh {
    built.sort_unstable_by_key(|&(g, _)| g);
    let size = |f: fn(&ClusteredMesh) -> usize| built.iter().map(|(_, m)| f(m)).sum::<usize>();
    let (vertices, indices) = (size(|m| m.vertices.len()), size(|m| m.indices.len()));
    let mut built = built.into_iter().map(|(_, m)| m);
    let mut mesh = built.next().unwrap_or_default();
    let more = vertices - mesh.vertices.len();
    Arc::make_mut(&mut mesh.vertices).reserve_exact(more);
    mesh.indices.reserve_exact(indices - mesh.indices.len());
    for part in built {
        mesh.append(part);
    }
    mesh
}

/// Groups a thread builds, about: the mesh is put together one group at a time, so the
/// more groups, the less is held twice while it is (an eighth of the mesh on two cores),
/// and the better the threads share the work.
const GROUPS_PER_THREAD: usize = 4;

/// `pieces` cut into at most `count` runs of about as many triangles each (at least one
/// piece each).
fn groups_of(pieces: &[Piece], count: usize) -> Vec<&[Piece]> {
    let total: usize = pieces.iter().map(|p| p.end - p.start).sum();
    let share = total.div_ceil(count.max(1)).max(1);
    let mut groups: Vec<&[Piece]> = Vec::with_capacity(count);
    let (mut rest, mut taken) = (pieces, 0);
    while !rest.is_empty() {
        let mut n = 0;
        while n < rest.len() && (n == 0 || taken < share * (groups.len() + 1)) {
            taken += rest[n].end - rest[n].start;
            n += 1;
        }
        let (group, tail) = rest.split_at(n);
        groups.push(group);
        rest = tail;
    }
    groups
}

/// Most threads that build clusters at load.
pub const BUILD_THREADS: usize = 8;

/// A cluster to be: triangles `start..end` of batch `batch`'s split order.
#[derive(Clone, Copy, Debug)]
struct Piece {
    batch: usize,
    start: usize,
    end: usize,
    /// Its triangles are all faces of closed solids.
    closed: bool,
}

impl ClusteredMesh {
    /// Put `other`'s clusters after these (their indices and places moved along).
    fn append(&mut self, other: ClusteredMesh) {
        let (indices, vertices, meshlets) = (
            self.indices.len() as u32,
            self.vertices.len() as u32,
            self.meshlets.len() as u32,
        );
        Arc::make_mut(&mut self.vertices).extend(Arc::unwrap_or_clone(other.vertices));
        self.indices
            .extend(other.indices.into_iter().map(|i| i + vertices));
        self.meshlets
            .extend(other.meshlets.into_iter().map(|m| Meshlet {
                first: m.first + indices,
                ..m
            }));
        self.solids_bounds.extend(other.solids_bounds);
        self.clusters
            .extend(other.clusters.into_iter().map(|c| Cluster {
                first: c.first + indices,
                first_vertex: c.first_vertex + vertices,
                first_meshlet: c.first_meshlet + meshlets,
                ..c
            }));
    }
}

/// The clusters of `pieces` (of `batches`' split orders of `map`'s triangles), as a mesh
/// of their own: each split into meshlets, its distinct vertices once, in the order they
/// are first used (meshoptimizer's `optimizeVertexFetch`, Kapoulkine). The same
/// triangles, each wound as it was but those of closed solids wound inward (`solids`,
/// their `shapes`), which are turned outward.
fn build_clusters(
    map: &Map,
    solids: &Solids,
    shapes: &[Solid],
    batches: &[Vec<Centred>],
    pieces: &[Piece],
) -> ClusteredMesh {
    let mut mesh = ClusteredMesh::default();
    // A cluster's vertices by their bits: equal bits are one vertex (a NaN never reaches a
    // map). Shared within a cluster only: a table of a cluster's vertices stays in the
    // cache (one of the whole map's million did not, and took 300 ms), and a cluster is
    // drawn on its own anyway. Fx hashing: no key here is hostile.
    let mut seen: FxHashMap<[u32; 8], u32> = FxHashMap::default();
    let mut order = Vec::new();
    let mut corners: Vec<Vertex> = Vec::new();
    // Each of a cluster's triangles' solid, in the cluster's order.
    let mut solid_of: Vec<Option<u32>> = Vec::new();
    for p in pieces {
        let batch = &map.batches[p.batch];
        let cutout = map
            .materials
            .get(batch.material)
            .and_then(|m| m.texture.as_ref())
            .is_some_and(|t| t.has_alpha);
        let first = mesh.indices.len() as u32;
        let first_vertex = mesh.vertices.len() as u32;
        let first_meshlet = mesh.meshlets.len() as u32;
        seen.clear();
        order.clear();
        order.extend_from_slice(&batches[p.batch][p.start..p.end]);
        // The cluster's corners copied out first, read in the order they lie in the map
        // (a piece's triangles are scattered over its batch: reading them in split order
        // missed the cache at every triangle, a third of the clustering's time).
        order.sort_unstable_by_key(|c| c.triangle);
        corners.clear();
        solid_of.clear();
        for (c, local) in order.iter_mut().zip(0u32..) {
            let at = batch.first as usize + 3 * c.triangle as usize;
            let [a, b, d] = [0, 1, 2].map(|k| map.vertices.get(at + k));
            let solid = solids.solid_of(at / 3).filter(|_| p.closed);
            match solid.map(|s| &shapes[s as usize]) {
                Some(shape) if shape.inward => corners.extend_from_slice(&[a, d, b]),
                _ => corners.extend_from_slice(&[a, b, d]),
            }
            solid_of.push(solid);
            c.triangle = local;
        }
        let corner = |t: u32, k: usize| corners[3 * t as usize + k];
        median_split(&mut order, MESHLET_TRIANGLES, &mut |piece| {
            let first = mesh.indices.len() as u32;
            let mut bounds = Aabb::EMPTY;
            let mut solids_bounds = Aabb::EMPTY;
            for t in piece.iter().map(|c| c.triangle) {
                if let Some(s) = solid_of[t as usize] {
                    solids_bounds = solids_bounds.union(shapes[s as usize].bounds);
                }
                for k in 0..3 {
                    let v = corner(t, k);
                    bounds = bounds.grown(Vec3::from(v.position));
                    let next = mesh.vertices.len() as u32 - first_vertex;
                    let index = *seen.entry(bits(&v)).or_insert(next);
                    if index == next {
                        Arc::make_mut(&mut mesh.vertices).push(v);
                    }
                    mesh.indices.push(index);
                }
            }
            mesh.meshlets.push(Meshlet {
                first,
                count: mesh.indices.len() as u32 - first,
                bounds,
            });
            mesh.solids_bounds.push(solids_bounds);
        });
        let own = &mut Arc::make_mut(&mut mesh.vertices)[first_vertex as usize..];
        let local = &mut mesh.indices[first as usize..];
        meshopt::optimize_vertex_fetch_in_place(local, own);
        local.iter_mut().for_each(|i| *i += first_vertex);
        let meshlets = &mesh.meshlets[first_meshlet as usize..];
        let closed = mesh.solids_bounds[first_meshlet as usize..]
            .iter()
            .fold(Aabb::EMPTY, |b, m| b.union(*m));
        mesh.clusters.push(Cluster {
            material: batch.material,
            first,
            count: mesh.indices.len() as u32 - first,
            first_vertex,
            vertex_count: mesh.vertices.len() as u32 - first_vertex,
            first_meshlet,
            meshlet_count: meshlets.len() as u32,
            bounds: meshlets.iter().fold(Aabb::EMPTY, |b, m| b.union(m.bounds)),
            cutout,
            closed: p.closed.then_some(closed),
        });
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
mod tests;
