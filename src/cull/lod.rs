//! Levels of detail: each cluster simplified, step by step, into coarser stand-ins, one
//! of which is drawn in its place where the difference spans less than a pixel.
//!
//! Real maps are modelled for the close look: conference's chairs and tables are 331,000
//! triangles, most of them a few millimetres across, and a software rasterizer pays for
//! every triangle (its setup, and a 4 x 4 block of pixels shaded for each it touches)
//! whatever the pixels it covers. Half of conference's triangles merge with no visible
//! change at all (flat faces cut into many), three quarters within a millimetre.
//!
//! Each cluster's corners are joined by position (and texture coordinates, where its
//! material has a texture: a texture's seams stay), and its triangles simplified by edge
//! collapse under a bound on the geometric error (Garland and Heckbert's quadric error
//! metric, through meshoptimizer's `simplify`, Kapoulkine), each level from the last,
//! with each level's bound [`ERROR_STEP`] times the last's. The corners a cluster shares
//! with another (of its material or any other) stay where they are, and so do a
//! texture's seams, so that neighbours drawn at different levels still meet without a
//! crack (as in Nanite's and meshoptimizer's cluster LOD); the model's own open edges
//! simplify with the rest (locking every open edge kept conference's levels half again
//! larger). A level's corners are the cluster's own vertices (the
//! one at each position whose normal lies nearest the simplified face's): no vertex is
//! added, and faceted and smooth shading both stay as they were.
//!
//! A level is drawn where its error, seen from the eye at the nearest depth of its
//! cluster's box, spans at most [`PIXEL_ERROR`] pixels anywhere in the window
//! ([`ClusteredMesh::level_to_draw`]; [`View::pixels_per_unit`] bounds how large the
//! projection can make it). The
//! levels are clusters of their own, after the map's, with meshlets of their own: the
//! frustum, occlusion and coverage tests take them as they take any cluster.

use glam::Vec3;
use meshopt::SimplifyOptions;
use rustc_hash::FxHashMap;

use super::View;
use super::clusters::{Centred, Cluster, ClusteredMesh, MESHLET_TRIANGLES, Meshlet, median_split};
use crate::geometry::Aabb;

/// The first level's bound on its error, as a fraction of the diagonal of its cluster's
/// box (a cluster 4 m across: a quarter of a millimetre).
pub const FIRST_ERROR: f32 = 1.0 / 16_384.0;

/// Each next level's bound on its error is this many times the last's.
pub const ERROR_STEP: f32 = 4.0;

/// At most this many levels a cluster (bounds up to [`FIRST_ERROR`] times
/// `ERROR_STEP` cubed: 1.6 cm on a cluster 4 m across).
pub const MAX_LEVELS: usize = 4;

/// A level is kept only when it has at most this fraction of the triangles of the one it
/// was made from: one that saves less costs its memory and a switch for little.
pub const KEEP_AT_MOST: f32 = 0.7;

/// The error a level is taken to have, as a multiple of meshoptimizer's: that is the
/// quadric's, the distance from the collapsed corners to the planes of the faces they
/// stand for, which can be less than the distance between the surfaces (a curved sheet's
/// corners lay up to 1.7 times as far from its levels; named test).
pub const ERROR_SLACK: f32 = 2.0;

/// A level is drawn where its error spans at most this many pixels of the window.
pub const PIXEL_ERROR: f32 = 1.0;

/// A simplified stand-in for a cluster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Its place in [`ClusteredMesh::clusters`].
    pub cluster: u32,
    /// How far (at most) its surface lies from the cluster's, in world units.
    pub error: f32,
}

/// The levels of a mesh's clusters, made apart from it (on a thread of their own while
/// the map is already drawn in full), to be added with [`ClusteredMesh::add_levels`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Levels {
    /// The levels as a mesh of their own, without vertices (their indices point into the
    /// mesh they were made from); its `levels` has one list for each of that mesh's
    /// clusters, finest first, naming clusters of this one.
    part: ClusteredMesh,
}

impl Levels {
    /// Triangles in all the levels.
    pub fn triangles(&self) -> usize {
        self.part.indices.len() / 3
    }

    /// Clusters that have levels.
    pub fn simplified(&self) -> usize {
        self.part.levels.iter().filter(|l| !l.is_empty()).count()
    }

    /// Scale them by `factor` (positive) about the origin, as the mesh they were made
    /// from was scaled after (bounds and errors).
    pub fn scale_by(&mut self, factor: f32) {
        self.part.scale_by(factor);
    }
}

/// The levels of `mesh`'s clusters; `textured[m]` says material `m` has a texture (its
/// texture coordinates' seams are kept). A cluster that does not simplify has none.
pub fn simplify_clusters(mesh: &ClusteredMesh, textured: &[bool]) -> Levels {
    let clusters = &mesh.clusters[..mesh.originals()];
    // Each position's cluster, or SHARED where more than one has a corner there.
    let mut owner: FxHashMap<[u32; 3], u32> = FxHashMap::default();
    for (k, c) in clusters.iter().enumerate() {
        for v in &mesh.vertices[c.first_vertex as usize..][..c.vertex_count as usize] {
            let at = owner.entry(place(v.position)).or_insert(k as u32);
            if *at != k as u32 {
                *at = SHARED;
            }
        }
    }
    let mut part = ClusteredMesh::default();
    let mut weld = Weld::default();
    for c in clusters {
        let textured = textured.get(c.material).copied().unwrap_or(false);
        weld.join(mesh, c, textured, &owner);
        let levels = simplify_cluster(mesh, c, &weld, &mut part);
        part.levels.push(levels);
    }
    Levels { part }
}

/// A position where more than one cluster has a corner.
const SHARED: u32 = u32::MAX;

/// A position as a key: its bits, with -0 taken as 0 (the same place; a file may write
/// either on the two sides of a cut).
fn place(p: [f32; 3]) -> [u32; 3] {
    p.map(|x| (x + 0.0).to_bits())
}

/// The memory of a cluster's corners joined by position: kept from cluster to cluster.
#[derive(Default)]
struct Weld {
    /// Joined vertex of each of the cluster's own vertices.
    of_vertex: Vec<u32>,
    /// Positions of the joined vertices.
    positions: Vec<[f32; 3]>,
    /// The cluster's own vertices of each joined vertex: `members[starts[j]..starts[j + 1]]`.
    starts: Vec<u32>,
    members: Vec<u32>,
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
            let position = place(v.position);
            let [u, w] = if textured {
                v.uv.map(|x| (x + 0.0).to_bits())
            } else {
                [0; 2]
            };
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
            let p = place(*p);
            owner.get(&p) == Some(&SHARED) || at_position.get(&p).is_some_and(|&n| n > 1)
        }));
        // Counting sort of the vertices by joined vertex.
        self.starts.clear();
        self.starts.resize(self.positions.len() + 1, 0);
        for &j in &self.of_vertex {
            self.starts[j as usize + 1] += 1;
        }
        for j in 0..self.positions.len() {
            self.starts[j + 1] += self.starts[j];
        }
        self.members.clear();
        self.members.resize(own.len(), 0);
        let mut next = self.starts.clone();
        for (v, &j) in self.of_vertex.iter().enumerate() {
            self.members[next[j as usize] as usize] = v as u32;
            next[j as usize] += 1;
        }
    }

    /// Of the cluster's vertices at joined vertex `j`, the one whose normal lies nearest
    /// `face` (either way: the shader lights the side facing the eye).
    fn vertex_for(&self, mesh: &ClusteredMesh, c: &Cluster, j: u32, face: Vec3) -> u32 {
        let members =
            &self.members[self.starts[j as usize] as usize..self.starts[j as usize + 1] as usize];
        let alignment = |&v: &u32| {
            let n = Vec3::from(mesh.vertices[(c.first_vertex + v) as usize].normal);
            n.dot(face).abs()
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
    for _ in 0..MAX_LEVELS {
        // Each level is made from the last, so its error adds to the last's; what is
        // left of the bound, less the slack.
        let mut added = 0.0;
        let simpler = meshopt::simplify_with_locks_decoder(
            &last,
            &weld.positions,
            &weld.locked,
            0,
            (bound - error) / ERROR_SLACK,
            options,
            Some(&mut added),
        );
        if simpler.len() as f32 <= KEEP_AT_MOST * last.len() as f32 && !simpler.is_empty() {
            error += ERROR_SLACK * added;
            levels.push(Level {
                cluster: part.clusters.len() as u32,
                error,
            });
            add_level(mesh, c, weld, &simpler, part);
            last = simpler;
        }
        bound *= ERROR_STEP;
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

impl ClusteredMesh {
    /// The clusters of the map itself: the first this many of [`ClusteredMesh::clusters`]
    /// (the rest are their [`ClusteredMesh::levels`]).
    pub fn originals(&self) -> usize {
        if self.levels.is_empty() {
            self.clusters.len()
        } else {
            self.levels.len()
        }
    }

    /// Add `levels`, made by [`simplify_clusters`] from this mesh (as it is, or scaled
    /// since: scale them too). Returns false, and adds nothing, when the mesh has levels
    /// already or they were made from another.
    pub fn add_levels(&mut self, levels: Levels) -> bool {
        let part = levels.part;
        if !self.levels.is_empty() || part.levels.len() != self.clusters.len() {
            return false;
        }
        let (indices, meshlets, clusters) = (
            self.indices.len() as u32,
            self.meshlets.len() as u32,
            self.clusters.len() as u32,
        );
        self.indices.extend_from_slice(&part.indices);
        self.meshlets.extend(part.meshlets.iter().map(|m| Meshlet {
            first: m.first + indices,
            ..*m
        }));
        self.solids_bounds.extend_from_slice(&part.solids_bounds);
        self.clusters.extend(part.clusters.iter().map(|c| Cluster {
            first: c.first + indices,
            first_meshlet: c.first_meshlet + meshlets,
            ..*c
        }));
        self.levels = part
            .levels
            .into_iter()
            .map(|ls| {
                ls.into_iter()
                    .map(|l| Level {
                        cluster: l.cluster + clusters,
                        ..l
                    })
                    .collect()
            })
            .collect();
        true
    }

    /// Which cluster to draw for cluster `c` (one of the map's) seen through `view`: its
    /// coarsest level whose error spans at most [`PIXEL_ERROR`] pixels anywhere in the
    /// window, at the nearest depth along the view where its box may show
    /// ([`View::pixels_per_unit`], [`visible_depth`]); `c` itself when none does, or the
    /// box may show at the eye's plane.
    pub fn level_to_draw(&self, c: u32, view: &View) -> u32 {
        let Some(levels) = self.levels.get(c as usize) else {
            return c;
        };
        let depth = visible_depth(&self.clusters[c as usize].bounds, view);
        if depth.is_nan() || depth <= 0.0 {
            return c;
        }
        levels
            .iter()
            .take_while(|l| l.error * view.pixels_per_unit <= PIXEL_ERROR * depth)
            .last()
            .map_or(c, |l| l.cluster)
    }
}

/// The nearest depth along `view` at which any of box `b` may show in the window: no
/// less than its nearest depth, nor than the depth at which the window's edges reach
/// it (a point `x` to the side of the view's axis shows only from depth `x / tan` of the
/// half angle on). Read off the box's bounds in view space, so never more than the true
/// nearest depth of what shows: a long cluster beside the eye reaching far into the view
/// is seen only from some way off.
pub fn visible_depth(b: &Aabb, view: &View) -> f32 {
    let rotation = glam::Mat3::from_mat4(view.view);
    let centre = view.view.transform_point3((b.min + b.max) * 0.5);
    let half = glam::Mat3::from_cols(
        rotation.x_axis.abs(),
        rotation.y_axis.abs(),
        rotation.z_axis.abs(),
    ) * ((b.max - b.min) * 0.5);
    // View space looks down -z.
    let nearest = -centre.z - half.z;
    let aside = (centre.x.abs() - half.x).max(0.0);
    let above = (centre.y.abs() - half.y).max(0.0);
    let (tx, ty) = (1.0 / view.proj.x_axis.x, 1.0 / view.proj.y_axis.y);
    nearest.max(aside / tx).max(above / ty)
}

#[cfg(test)]
mod tests;
