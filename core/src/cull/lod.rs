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
//! meshoptimizer (see `deviation`).
//!
//! A level is drawn where its error, seen at the nearest depth where its cluster's box
//! may show, spans at most [`PIXEL_ERROR`] pixels anywhere in the window
//! ([`ClusteredMesh::level_to_draw`], [`visible_depth`]; [`View::pixels_per_unit`]
//! bounds how large the projection can make it). The levels are clusters of their own,
//! after the map's, with meshlets of their own: the frustum, occlusion and coverage
//! tests take them as they take any cluster. They are made apart from the mesh, in
//! batches ([`simplify_in_batches`], the clusters farthest from the eye first), and added
//! to it as each batch comes ([`ClusteredMesh::add_levels`]).
//!
//! `simplify` makes a cluster's levels; `deviation` measures their error.

use glam::Vec3;

use super::View;
use super::clusters::{Cluster, ClusteredMesh, Level, Meshlet};
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
    /// [`crate::session::cache::levels`], writes it and reads it back.)
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

mod deviation;
mod simplify;

pub use simplify::{simplify_clusters, simplify_in_batches};

#[cfg(test)]
mod tests;
