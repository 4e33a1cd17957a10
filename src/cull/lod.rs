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
//! larger). A level's corners are the cluster's own vertices (the one at each position
//! whose normal lies nearest the simplified face's): no vertex is added, and faceted and
//! smooth shading both stay as they were. A level's error is measured, not taken from
//! meshoptimizer (see `Grid::deviation`).
//!
//! A level is drawn where its error, seen at the nearest depth where its cluster's box
//! may show, spans at most [`PIXEL_ERROR`] pixels anywhere in the window
//! ([`ClusteredMesh::level_to_draw`], [`visible_depth`]; [`View::pixels_per_unit`]
//! bounds how large the projection can make it). The levels are clusters of their own,
//! after the map's, with meshlets of their own: the frustum, occlusion and coverage
//! tests take them as they take any cluster. They are made apart from the mesh, in
//! batches ([`simplify_in_batches`], the clusters farthest from the eye first), and added
//! to it as each batch comes ([`ClusteredMesh::add_levels`]).

use glam::Vec3;
use meshopt::SimplifyOptions;
use rustc_hash::FxHashMap;

use super::View;
use super::clusters::{Cluster, ClusteredMesh, Level, MESHLET_TRIANGLES, Meshlet};
use super::split::{Centred, median_split};
use crate::geometry::closest_point;
use crate::geometry::{Aabb, key_bits};

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

/// A level is drawn where its error spans at most this many pixels of the window.
pub const PIXEL_ERROR: f32 = 1.0;

/// The levels are handed over in batches of this many clusters' (see
/// [`simplify_in_batches`]): conference's 243 clusters took 0.9 s in the window, whose
/// frames until then drew them all in full (30 to 60 ms against 20 once the levels
/// came); in batches the far clusters' levels come first, in a tenth of that.
pub const BATCH_CLUSTERS: usize = 24;

/// The levels of a mesh's clusters, made apart from it (on a thread of their own while
/// the map is already drawn in full), to be added with [`ClusteredMesh::add_levels`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Levels {
    /// The levels as a mesh of their own, without vertices (their indices point into the
    /// mesh they were made from); its `levels` has one list for each of that mesh's
    /// clusters, finest first, naming clusters of this one. (The cache,
    /// [`crate::store::levels`], writes it and reads it back.)
    pub(crate) part: ClusteredMesh,
}

impl Levels {
    /// No levels yet, for a mesh of `originals` clusters: batches of its levels are
    /// [`Levels::join`]ed to it.
    pub fn none(originals: usize) -> Levels {
        Levels {
            part: ClusteredMesh {
                levels: vec![Vec::new(); originals],
                ..ClusteredMesh::default()
            },
        }
    }

    /// Add `batch` (levels of the same mesh, of clusters that have none here yet) to
    /// these, as [`ClusteredMesh::add_levels`] adds them to the mesh; false (and nothing
    /// added) for another mesh's or a batch twice.
    pub fn join(&mut self, batch: Levels) -> bool {
        self.part.add_levels(batch)
    }

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

/// The map's clusters of `mesh` farthest from `eye` first (by the nearest point of their
/// boxes): the ones whose levels a view from there draws.
pub fn farthest_first(mesh: &ClusteredMesh, eye: Vec3) -> Vec<u32> {
    let mut order: Vec<u32> = (0..mesh.originals() as u32).collect();
    order.sort_by_key(|&c| {
        let d = mesh.clusters[c as usize].bounds.distance_squared_to(eye);
        std::cmp::Reverse(d.to_bits())
    });
    order
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
    /// `face` (either way: the shader lights the side facing the eye).
    fn vertex_for(&self, mesh: &ClusteredMesh, c: &Cluster, j: u32, face: Vec3) -> u32 {
        let members = self.members.get(j as usize);
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

/// Triangles in cells of a uniform grid, for the nearest of them to a point.
#[derive(Default)]
struct Grid {
    /// The triangles of each cell.
    cells: Buckets,
}

/// Items sorted into numbered buckets, an item in any number of them (a counting sort):
/// the memory kept from one filling to the next.
#[derive(Default)]
struct Buckets {
    /// Bucket `k`'s items are `items[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Where each bucket's next item goes, while filling.
    next: Vec<u32>,
}

impl Buckets {
    /// Sort items `0..count` into `buckets` buckets: `into(item, put)` calls `put` with
    /// each bucket the item goes in (twice over: once to count, once to place).
    fn fill(&mut self, buckets: usize, count: usize, into: impl Fn(usize, &mut dyn FnMut(usize))) {
        let Buckets {
            starts,
            items,
            next,
        } = self;
        starts.clear();
        starts.resize(buckets + 1, 0);
        for t in 0..count {
            into(t, &mut |k| starts[k + 1] += 1);
        }
        for k in 0..buckets {
            starts[k + 1] += starts[k];
        }
        items.clear();
        items.resize(starts[buckets] as usize, 0);
        next.clone_from(starts);
        for t in 0..count {
            into(t, &mut |k| {
                items[next[k] as usize] = t as u32;
                next[k] += 1;
            });
        }
    }

    /// Bucket `k`'s items.
    fn get(&self, k: usize) -> &[u32] {
        &self.items[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
}

/// Cells a side of a [`Grid`] at most (fewer where the box is thin).
const GRID_CELLS: f32 = 16.0;

impl Grid {
    /// How far the farthest of `positions` lies from the surface of `triangles` (three
    /// indices into `positions` each) within `bounds` (which holds them all): the
    /// one-sided Hausdorff distance from the cluster's corners to a level of it, the
    /// largest of each corner's distance to its nearest triangle (Ericson 5.1.5), found
    /// by searching rings of grid cells outward until none can hold a nearer one.
    fn deviation(&mut self, positions: &[[f32; 3]], triangles: &[u32], bounds: Aabb) -> f32 {
        let size = bounds.size();
        let cell = (size.max_element() / GRID_CELLS).max(f32::MIN_POSITIVE);
        let dims = (size / cell).ceil().max(Vec3::ONE).as_uvec3();
        let cell_of = |p: Vec3| {
            ((p - bounds.min) / cell)
                .floor()
                .max(Vec3::ZERO)
                .as_uvec3()
                .min(dims - 1)
        };
        let index = |c: glam::UVec3| ((c.z * dims.y + c.y) * dims.x + c.x) as usize;
        let corners =
            |t: usize| [0, 1, 2].map(|k| Vec3::from(positions[triangles[3 * t + k] as usize]));
        let count = triangles.len() / 3;
        // Each triangle in every cell its box meets.
        let cells = (dims.x * dims.y * dims.z) as usize;
        let span = |t: usize| {
            let p = corners(t);
            let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
            (cell_of(lo), cell_of(hi))
        };
        let each_cell = |(lo, hi): (glam::UVec3, glam::UVec3), f: &mut dyn FnMut(usize)| {
            for z in lo.z..=hi.z {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        f(index(glam::UVec3::new(x, y, z)));
                    }
                }
            }
        };
        self.cells
            .fill(cells, count, |t, put| each_cell(span(t), put));
        // A corner the level keeps lies on it; of the others, only whether one lies
        // further than the farthest so far matters, so each search stops at the first
        // triangle nearer than that.
        let mut kept = vec![false; positions.len()];
        for &i in triangles {
            kept[i as usize] = true;
        }
        let mut worst = 0.0f64;
        for (p, _) in positions.iter().zip(&kept).filter(|(_, kept)| !**kept) {
            let p = Vec3::from(*p);
            let home = cell_of(p);
            let mut best = f64::MAX;
            'rings: for ring in 0..=dims.max_element() {
                // The cells `ring` cells from the point's (the shell of the cube).
                let lo = home.saturating_sub(glam::UVec3::splat(ring));
                let hi = (home + ring).min(dims - 1);
                for z in lo.z..=hi.z {
                    for y in lo.y..=hi.y {
                        for x in lo.x..=hi.x {
                            let c = glam::UVec3::new(x, y, z);
                            let away = c.as_ivec3() - home.as_ivec3();
                            if away.abs().max_element() != ring as i32 {
                                continue;
                            }
                            let k = index(c);
                            for &t in self.cells.get(k) {
                                let tri = corners(t as usize);
                                // No nearer than its box: most are passed over here.
                                let lo = tri[0].min(tri[1]).min(tri[2]);
                                let hi = tri[0].max(tri[1]).max(tri[2]);
                                let outside = (lo - p).max(p - hi).max(Vec3::ZERO);
                                if f64::from(outside.length()) >= best {
                                    continue;
                                }
                                let tri = tri.map(|c| c.as_dvec3());
                                let d = closest_point(p.as_dvec3(), tri)
                                    .point
                                    .distance(p.as_dvec3());
                                best = best.min(d);
                                if best <= worst {
                                    break 'rings;
                                }
                            }
                        }
                    }
                }
                // A cell outside this ring lies at least `ring` cells from the point.
                if best <= f64::from(ring as f32 * cell) {
                    break;
                }
            }
            if best < f64::MAX {
                worst = worst.max(best);
            }
        }
        worst as f32
    }
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

    /// Add `levels`, made by [`simplify_clusters`] or a batch of
    /// [`simplify_in_batches`] from this mesh (as it is, or scaled since: scale them too).
    /// Returns false, and adds nothing, when they were made from another mesh or one of
    /// their clusters has levels already.
    pub fn add_levels(&mut self, levels: Levels) -> bool {
        let part = levels.part;
        let originals = self.originals();
        let twice = |(c, l): (usize, &Vec<Level>)| {
            !l.is_empty() && self.levels.get(c).is_some_and(|had| !had.is_empty())
        };
        if part.levels.len() != originals || part.levels.iter().enumerate().any(twice) {
            return false;
        }
        if self.levels.is_empty() {
            self.levels = vec![Vec::new(); originals];
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
        for (had, ls) in self.levels.iter_mut().zip(part.levels) {
            if !ls.is_empty() {
                *had = ls
                    .into_iter()
                    .map(|l| Level {
                        cluster: l.cluster + clusters,
                        ..l
                    })
                    .collect();
            }
        }
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
