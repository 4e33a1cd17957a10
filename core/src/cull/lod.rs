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
mod tests {
    use glam::{Mat4, UVec2, Vec3};

    use super::*;
    use crate::cull::View;
    use crate::cull::clusters::{CLUSTER_TRIANGLES, cluster_map};
    use crate::cull::fixtures::{bumpy, flat, grid, no_uv, one_material, triangles, with_levels};
    use crate::geometry::Aabb;

    fn view_from(eye: Vec3, target: Vec3) -> View {
        let proj = Mat4::perspective_rh_gl(70f32.to_radians(), 16.0 / 9.0, 0.01, 1000.0);
        View::new(
            Mat4::look_at_rh(eye, target, Vec3::Y),
            proj,
            UVec2::new(1280, 720),
        )
    }

    #[test]
    fn the_level_drawn_is_the_coarsest_whose_error_spans_under_a_pixel() {
        let mesh = with_levels(
            cluster_map(&one_material(grid(32, bumpy, no_uv)), CLUSTER_TRIANGLES),
            &[false],
        );
        let levels = mesh.levels[0].clone();
        let centre = Vec3::new(2.0, 0.0, 2.0);
        let at = |distance: f32| {
            let eye = centre + Vec3::new(0.0, 0.0, 2.0 + distance);
            mesh.level_to_draw(0, &view_from(eye, centre))
        };
        // Right at it (the box reaches the eye's plane): the sheet itself.
        assert_eq!(at(0.0), 0);
        assert_eq!(
            mesh.level_to_draw(0, &view_from(centre, centre + Vec3::Z)),
            0
        );
        // Far off: the coarsest.
        assert_eq!(at(1.0e4), levels.last().unwrap().cluster);
        // Between: at each level's own distance (where its error spans exactly a pixel),
        // that level or a coarser one a little further, a finer one a little nearer.
        let ppu = view_from(Vec3::Z, Vec3::ZERO).pixels_per_unit;
        for (k, l) in levels.iter().enumerate() {
            let d = l.error * ppu / PIXEL_ERROR;
            let rank = |c: u32| {
                levels
                    .iter()
                    .position(|l| l.cluster == c)
                    .map_or(-1, |k| k as i64)
            };
            assert!(rank(at(d * 1.01)) >= k as i64, "level {k} at {d} m");
            assert!(rank(at(d * 0.99)) < k as i64, "level {k} nearer than {d} m");
        }
    }

    #[test]
    fn levels_are_added_once_and_only_to_their_own_mesh() {
        let mesh = cluster_map(&one_material(grid(16, flat, no_uv)), CLUSTER_TRIANGLES);
        let levels = simplify_clusters(&mesh, &[false]);
        let mut other = cluster_map(&one_material(grid(16, flat, no_uv)), 64);
        assert!(!other.add_levels(levels.clone()), "another mesh's levels");
        assert!(other.levels.is_empty());
        let mut same = mesh.clone();
        assert!(same.add_levels(levels.clone()));
        let before = same.clone();
        assert!(!same.add_levels(levels), "levels twice");
        assert_eq!(same, before);
        // Levels made before a scale, scaled as the mesh was: those made after it.
        let mut scaled = mesh.clone();
        scaled.scale_by(3.0);
        let mut early = simplify_clusters(&mesh, &[false]);
        early.scale_by(3.0);
        let late = simplify_clusters(&scaled, &[false]);
        assert_eq!(early.triangles(), late.triangles());
        let (mut a, mut b) = (scaled.clone(), scaled);
        assert!(a.add_levels(early) && b.add_levels(late));
        for (x, y) in a.clusters.iter().zip(&b.clusters) {
            assert!((x.bounds.max - y.bounds.max).length() < 1e-4);
        }
        for (x, y) in a.levels.iter().flatten().zip(b.levels.iter().flatten()) {
            assert!(
                (x.error - y.error).abs() <= 1e-4 * y.error.max(1e-6),
                "{x:?} {y:?}"
            );
        }
    }

    #[test]
    fn pixels_per_unit_bounds_how_far_an_error_moves_on_the_screen() {
        let view = view_from(Vec3::ZERO, Vec3::NEG_Z);
        let screen = |p: Vec3| {
            let c = view.view_proj * p.extend(1.0);
            (c.truncate() / c.w).truncate() * glam::Vec2::new(640.0, 360.0)
        };
        let mut tightest: f32 = 0.0;
        // Points across the view (centre to corners), at depths 1 to 50, moved by 1 mm
        // each way.
        for (x, y) in [
            (0.0, 0.0),
            (0.5, 0.3),
            (0.99, 0.99),
            (-0.99, 0.99),
            (0.99, -0.2),
        ] {
            for depth in [1.0f32, 7.0, 50.0] {
                let tx = 1.0 / view.proj.x_axis.x;
                let ty = 1.0 / view.proj.y_axis.y;
                let p = Vec3::new(x * tx * depth, y * ty * depth, -depth);
                for d in [
                    Vec3::X,
                    Vec3::Y,
                    Vec3::Z,
                    Vec3::ONE.normalize(),
                    Vec3::new(x, y, -1.0).normalize(),
                ] {
                    let moved = (screen(p + d * 1e-3) - screen(p)).length();
                    let bound = 1e-3 * view.pixels_per_unit / depth;
                    assert!(
                        moved <= bound * 1.01,
                        "{moved} px past the bound {bound} at {p}"
                    );
                    tightest = tightest.max(moved / bound);
                }
            }
        }
        // Not loose either: at a corner some move comes near it.
        assert!(tightest > 0.8, "{tightest}");
    }

    #[test]
    fn no_point_of_a_box_shows_nearer_than_its_visible_depth() {
        let view = view_from(Vec3::new(1.0, 1.6, 2.0), Vec3::new(3.0, 1.0, -6.0));
        let tan = Vec3::new(1.0 / view.proj.x_axis.x, 1.0 / view.proj.y_axis.y, 1.0);
        // A deterministic scatter of boxes around the eye, and points in each.
        let mut seed = 12345u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        let (mut beside, mut shown) = (0, 0);
        for _ in 0..2000 {
            let centre = Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 40.0;
            let half = Vec3::new(next(), next(), next()) * 6.0;
            let b = Aabb {
                min: centre - half,
                max: centre + half,
            };
            let depth = visible_depth(&b, &view);
            let nearest = -(view.view.transform_point3(centre)).z - half.length();
            beside += usize::from(depth > nearest + 1.0);
            for _ in 0..50 {
                let p = b.min + (b.max - b.min) * Vec3::new(next(), next(), next());
                let v = view.view.transform_point3(p);
                let z = -v.z;
                let in_window = z > 0.0 && v.x.abs() <= tan.x * z && v.y.abs() <= tan.y * z;
                if in_window {
                    shown += 1;
                    assert!(
                        z >= depth - 1e-4,
                        "{p} shows at depth {z}, nearer than {depth}"
                    );
                }
            }
        }
        // Not just the box's nearest depth: boxes to the side show only further off.
        assert!(beside > 100 && shown > 1000, "{beside} {shown}");
    }

    #[test]
    fn levels_made_in_batches_farthest_first_are_the_levels_made_at_once() {
        // A bumpy sheet in clusters of 128 triangles, seen from beyond one corner.
        let mesh = cluster_map(&one_material(grid(32, bumpy, no_uv)), 128);
        let n = mesh.originals();
        assert!(n >= 8);
        let eye = Vec3::new(-2.0, 1.0, -2.0);
        let order = farthest_first(&mesh, eye);
        let distance = |c: u32| mesh.clusters[c as usize].bounds.distance_squared_to(eye);
        assert!(order.windows(2).all(|w| distance(w[0]) >= distance(w[1])));
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            (0..n as u32).collect::<Vec<_>>(),
            "each cluster once"
        );
        // Three clusters a batch, each added as it comes; the farthest cluster's levels are
        // in the first.
        let mut batched = mesh.clone();
        let mut batches = 0;
        simplify_in_batches(&mesh, &[false], &order, 3, |levels| {
            if batches == 0 {
                assert!(!levels.part.levels[order[0] as usize].is_empty());
            }
            batches += 1;
            assert!(batched.add_levels(levels.clone()));
            assert!(!batched.add_levels(levels), "a batch twice");
            true
        });
        assert_eq!(batches, n.div_ceil(3));
        // The same levels as made at once, cluster by cluster.
        let at_once = with_levels(mesh.clone(), &[false]);
        assert_eq!(batched.originals(), n);
        for c in 0..n {
            let (a, b) = (&at_once.levels[c], &batched.levels[c]);
            assert_eq!(a.len(), b.len(), "cluster {c}");
            for (x, y) in a.iter().zip(b) {
                assert_eq!(x.error, y.error);
                assert_eq!(
                    triangles(&at_once, x.cluster),
                    triangles(&batched, y.cluster)
                );
            }
        }
        // Stopped after the first batch: one delivered.
        let mut delivered = 0;
        simplify_in_batches(&mesh, &[false], &order, 3, |_| {
            delivered += 1;
            false
        });
        assert_eq!(delivered, 1);
    }
}
