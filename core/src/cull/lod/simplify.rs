//! One cluster simplified into its levels of detail (see [`super`]): its corners joined
//! by position (and texture coordinates where textured), the corners it shares with other
//! clusters locked, each level made from the last by meshoptimizer under a bound on the
//! error, measured after ([`super::deviation`]), kept where it saves enough.

use glam::Vec3;
use meshopt::SimplifyOptions;
use rustc_hash::FxHashMap;

use super::deviation::{Buckets, Grid};
use super::{ERROR_STEP, FIRST_ERROR, KEEP_AT_MOST, Levels, MAX_LEVELS};
use crate::cull::clusters::{Cluster, ClusteredMesh, Level, MESHLET_TRIANGLES, Meshlet};
use crate::cull::split::{Centred, median_split};
use crate::geometry::{Aabb, key_bits};
use crate::map::FLAT_NORMAL;

/// The levels of `mesh`'s clusters; `textured[m]` says material `m` has a texture (its
/// texture coordinates' seams are kept). A cluster that does not simplify has none.
pub fn simplify_clusters(mesh: &ClusteredMesh, textured: &[bool]) -> Levels {
    let order: Vec<u32> = (0..mesh.originals() as u32).collect();
    let mut all = Levels::default();
    simplify_in_batches(mesh, textured, &order, order.len().max(1), |levels| {
        all = levels;
        true
    });
    all
}

/// [`simplify_clusters`] a batch at a time: the levels of the clusters `order` names (of
/// the map's, each once), `batch` clusters to a [`Levels`] (each of which
/// [`ClusteredMesh::add_levels`] takes as it comes), handed to `deliver` as each is made;
/// it stops when `deliver` returns false (no one is waiting for them any more).
pub fn simplify_in_batches(
    mesh: &ClusteredMesh,
    textured: &[bool],
    order: &[u32],
    batch: usize,
    mut deliver: impl FnMut(Levels) -> bool,
) {
    let clusters = &mesh.clusters[..mesh.originals()];
    // Each position's cluster, or SHARED where more than one has a corner there.
    let mut owner: FxHashMap<[u32; 3], u32> = FxHashMap::default();
    for (k, c) in clusters.iter().enumerate() {
        for v in &mesh.vertices[c.first_vertex as usize..][..c.vertex_count as usize] {
            let at = owner.entry(key_bits(v.position)).or_insert(k as u32);
            if *at != k as u32 {
                *at = SHARED;
            }
        }
    }
    let mut weld = Weld::default();
    for names in order.chunks(batch.max(1)) {
        // The levels of the clusters not in this batch stay empty.
        let mut part = ClusteredMesh {
            levels: vec![Vec::new(); clusters.len()],
            ..ClusteredMesh::default()
        };
        for &k in names {
            let Some(c) = clusters.get(k as usize) else {
                continue;
            };
            let textured = textured.get(c.material).copied().unwrap_or(false);
            weld.join(mesh, c, textured, &owner);
            part.levels[k as usize] = simplify_cluster(mesh, c, &weld, &mut part);
        }
        if !deliver(Levels { part }) {
            return;
        }
    }
}

/// A position where more than one cluster has a corner.
const SHARED: u32 = u32::MAX;

/// The memory of a cluster's corners joined by position: kept from cluster to cluster.
#[derive(Default)]
struct Weld {
    /// Joined vertex of each of the cluster's own vertices.
    of_vertex: Vec<u32>,
    /// Positions of the joined vertices.
    positions: Vec<[f32; 3]>,
    /// The cluster's own vertices of each joined vertex (bucket `j`).
    members: Buckets,
    /// Each joined vertex stays where it is: another cluster has a corner at its
    /// position, or another joined vertex of this one does (a texture's seam).
    locked: Vec<bool>,
    /// For a closed cluster, the bounds of the solids of the triangles at each joined
    /// vertex's position (those of the meshlets that use any of its vertices).
    solids: Vec<Aabb>,
}

impl Weld {
    /// Join cluster `c`'s vertices that share a position (and texture coordinates when
    /// `textured`); `owner` has each position's cluster, or [`SHARED`].
    fn join(
        &mut self,
        mesh: &ClusteredMesh,
        c: &Cluster,
        textured: bool,
        owner: &FxHashMap<[u32; 3], u32>,
    ) {
        let own = &mesh.vertices[c.first_vertex as usize..][..c.vertex_count as usize];
        let mut joined: FxHashMap<[u32; 5], u32> = FxHashMap::default();
        // How many joined vertices lie at each position (more than one: a seam).
        let mut at_position: FxHashMap<[u32; 3], u32> = FxHashMap::default();
        self.of_vertex.clear();
        self.positions.clear();
        for v in own {
            let position = key_bits(v.position);
            let [u, w] = if textured { key_bits(v.uv) } else { [0; 2] };
            let next = self.positions.len() as u32;
            let [x, y, z] = position;
            let j = *joined.entry([x, y, z, u, w]).or_insert(next);
            if j == next {
                self.positions.push(v.position);
                *at_position.entry(position).or_insert(0) += 1;
            }
            self.of_vertex.push(j);
        }
        self.solids.clear();
        if c.closed.is_some() {
            self.solids.resize(self.positions.len(), Aabb::EMPTY);
            for m in c.meshlets() {
                let (meshlet, bounds) = (&mesh.meshlets[m], mesh.solids_bounds[m]);
                for &i in &mesh.indices[meshlet.first as usize..][..meshlet.count as usize] {
                    let j = self.of_vertex[(i - c.first_vertex) as usize] as usize;
                    self.solids[j] = self.solids[j].union(bounds);
                }
            }
        }
        self.locked.clear();
        self.locked.extend(self.positions.iter().map(|p| {
            let p = key_bits(*p);
            owner.get(&p) == Some(&SHARED) || at_position.get(&p).is_some_and(|&n| n > 1)
        }));
        let of_vertex = &self.of_vertex;
        self.members
            .fill(self.positions.len(), own.len(), |v, put| {
                put(of_vertex[v] as usize)
            });
    }

    /// Of the cluster's vertices at joined vertex `j`, the one whose normal lies nearest
    /// `face` (either way: the shader lights the side facing the eye). A flat one
    /// ([`FLAT_NORMAL`]: its face's own, whatever the face) lies on every face.
    fn vertex_for(&self, mesh: &ClusteredMesh, c: &Cluster, j: u32, face: Vec3) -> u32 {
        let members = self.members.get(j as usize);
        let alignment = |&v: &u32| {
            let n = mesh.vertices[(c.first_vertex + v) as usize].normal;
            if n == FLAT_NORMAL {
                1.0
            } else {
                Vec3::from(n).dot(face).abs()
            }
        };
        members
            .iter()
            .copied()
            .max_by(|a, b| alignment(a).total_cmp(&alignment(b)))
            .unwrap_or(0)
    }
}

/// Cluster `c`'s levels (its vertices joined in `weld`), each added to `part` as a cluster of its own (numbered in
/// `part`); none when it does not simplify.
fn simplify_cluster(
    mesh: &ClusteredMesh,
    c: &Cluster,
    weld: &Weld,
    part: &mut ClusteredMesh,
) -> Vec<Level> {
    let size = c.bounds.size().length();
    if !(size.is_finite() && size > 0.0) || c.count == 0 {
        return Vec::new();
    }
    let mut last: Vec<u32> = mesh.indices[c.first as usize..][..c.count as usize]
        .iter()
        .map(|&i| weld.of_vertex[(i - c.first_vertex) as usize])
        .collect();
    let options = SimplifyOptions::ErrorAbsolute;
    let (mut levels, mut error, mut bound) = (Vec::new(), 0.0f32, size * FIRST_ERROR);
    let mut grid = Grid::default();
    for _ in 0..MAX_LEVELS {
        // Each level is made from the last, within what is left of the bound (none, when
        // the last's measured error has taken it all: meshoptimizer asserts a bound of
        // at least zero, and an assertion there would end the program).
        let left = bound - error;
        bound *= ERROR_STEP;
        if left.is_nan() || left <= 0.0 {
            continue;
        }
        let simpler = meshopt::simplify_with_locks_decoder(
            &last,
            &weld.positions,
            &weld.locked,
            0,
            left,
            options,
            None,
        );
        if simpler.len() as f32 <= KEEP_AT_MOST * last.len() as f32 && !simpler.is_empty() {
            // meshoptimizer's own figure is the quadric's (the distance to the planes of
            // the faces a corner stands for), which understated the real distance up to
            // sevenfold on curved test sheets: the error is measured instead.
            error = error.max(grid.deviation(&weld.positions, &simpler, c.bounds));
            levels.push(Level {
                cluster: part.clusters.len() as u32,
                error,
            });
            add_level(mesh, c, weld, &simpler, part);
            last = simpler;
        }
    }
    levels
}

/// Add the level of cluster `c` whose triangles are `joined` (three joined vertices each)
/// to `part`, as a cluster split into meshlets as the map's are.
fn add_level(
    mesh: &ClusteredMesh,
    c: &Cluster,
    weld: &Weld,
    joined: &[u32],
    part: &mut ClusteredMesh,
) {
    let position = |j: u32| Vec3::from(weld.positions[j as usize]);
    let mut order: Vec<Centred> = joined
        .chunks_exact(3)
        .zip(0u32..)
        .map(|(t, triangle)| Centred {
            centre: (position(t[0]) + position(t[1]) + position(t[2])) / 3.0,
            triangle,
        })
        .collect();
    let (first, first_meshlet) = (part.indices.len() as u32, part.meshlets.len() as u32);
    median_split(&mut order, MESHLET_TRIANGLES, &mut |piece| {
        let start = part.indices.len() as u32;
        let mut bounds = Aabb::EMPTY;
        // A level of a closed solid lies within the solid (a simplified closed surface
        // is closed, its corners some of the solid's), whose bounds are among those at
        // its corners' positions: too large bounds only cull back faces less often.
        let mut solids = Aabb::EMPTY;
        for t in piece.iter() {
            let t = &joined[3 * t.triangle as usize..][..3];
            let p = [position(t[0]), position(t[1]), position(t[2])];
            let face = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
            for k in 0..3 {
                bounds = bounds.grown(p[k]);
                if let Some(&b) = weld.solids.get(t[k] as usize) {
                    solids = solids.union(b);
                }
                part.indices
                    .push(c.first_vertex + weld.vertex_for(mesh, c, t[k], face));
            }
        }
        part.meshlets.push(Meshlet {
            first: start,
            count: part.indices.len() as u32 - start,
            bounds,
        });
        part.solids_bounds.push(solids);
    });
    let meshlets = &part.meshlets[first_meshlet as usize..];
    part.clusters.push(Cluster {
        first,
        count: part.indices.len() as u32 - first,
        first_meshlet,
        meshlet_count: meshlets.len() as u32,
        bounds: meshlets.iter().fold(Aabb::EMPTY, |b, m| b.union(m.bounds)),
        ..*c
    });
}

#[cfg(test)]
mod tests;
