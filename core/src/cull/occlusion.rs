//! Occlusion culling on the CPU against the depth already drawn, meshlet by meshlet and
//! then triangle by triangle, in two passes (the two-phase culling of Haar and Aaltonen,
//! "GPU-Driven Rendering Pipelines", SIGGRAPH 2015, with Greene, Kass and Miller's
//! hierarchical Z-buffer, 1993; triangles tested after their meshlet as in Wihlidal's
//! "Optimizing the Graphics Pipeline with Compute", GDC 2016):
//!
//! 1. draw the triangles in view that were seen last frame: most of what shows now;
//! 2. read that depth back, build a pyramid of its furthest depths ([`DepthPyramid`]),
//!    test every meshlet in view against it; of a meshlet that shows, keep each triangle
//!    that covers a pixel's centre ([`covering_triangles`]) and, where the meshlet covers
//!    many pixels (see [`TRIANGLES_TESTED_FROM`]), is not hidden on its own; draw what
//!    may show and was not drawn in the first pass. What the tests say is what "seen"
//!    means next frame (a meshlet out of view keeps what was seen of it, for a turn
//!    back; after a pass in steps, what the first steps found is tested again against
//!    the frame's whole depth, [`Occlusion::retest`]). The tests run on several threads
//!    ([`CULLING_THREADS`]): the GL's own wait for them.
//!
//! Nothing that shows is ever left out: a meshlet or triangle is left out only when all
//! of its box is behind depth already in the buffer this frame, or (a triangle) when it
//! would make no fragment. Last frame's answers only choose what is drawn before the
//! test. A software rasterizer pays for every fragment it rasterizes, hidden or not, so
//! leaving out what is hidden is most of what culling can win there.

use glam::{Mat4, UVec2};

use super::batches::Batches;
use super::clusters::{ClusteredMesh, Meshlet, TriangleSet};
use super::pyramid::DepthPyramid;
use super::view::View;

mod walk;

pub use walk::TRIANGLES_TESTED_FROM;
use walk::{Scratch, Walk, shown_test};

/// When the first pass left nothing in view to test (or the view has not moved since a
/// second pass that found nothing new), the second pass (and its read of the depth) is
/// still made every this many frames, so that what has become hidden stops being drawn
/// first. On a small or open map, where all in view shows, or while the eye stands
/// still, this spares most frames the read (0.65 ms at 1280 x 720 on llvmpipe) and the
/// wait for the GL.
pub const REFRESH_FRAMES: u32 = 8;

/// Below this many triangles in the clusters in view, a frame draws them all, untested:
/// so few leave little to cull, and reading the depth back stalls the GL (the built-in
/// map's 653 triangles, culled, took 1.8 ms a frame more on its walk). At 10,000, views
/// of conference's walls with furniture behind them were drawn whole too (3.32 layers
/// rasterized a pixel against 2.98).
pub const OCCLUDE_FROM_TRIANGLES: u32 = 2_000;

/// Once the second pass has picked this many triangles, it draws them, reads the depth
/// again and tests the rest against that (up to [`SECOND_PASS_STEPS`] times a frame).
/// After a turn, or on the first frame, little of what shows was seen last frame: the
/// first pass leaves the depth nearly empty, and the second would draw all in view, each
/// layer of it (lost_empire: 117,000 triangles and 127 ms after a turn of 120 degrees).
/// Drawn in steps, nearest clusters first, what the first steps draw hides most of the
/// rest. An ordinary frame's second pass picks far fewer and takes one step.
pub const SECOND_PASS_STEP_TRIANGLES: usize = 8_192;

/// At most this many steps of the second pass a frame (reads of the depth: about 1 ms
/// each, and a wait for the GL); the last takes all that is left.
pub const SECOND_PASS_STEPS: u32 = 4;

/// At most this many threads test meshlets: between the read of the depth and the second
/// pass's draws the GL's own threads wait, so the tests may have every core; past eight
/// a piece's share is too small to pay for a thread's start.
pub const CULLING_THREADS: usize = 8;

/// Which triangles were seen last frame, and the depth pyramid of this one.
#[derive(Clone, Debug, Default)]
pub struct Occlusion {
    /// Each meshlet's triangles that showed last frame (drawn in the first pass).
    seen: Vec<TriangleSet>,
    /// Whether this frame's first pass found each meshlet of the clusters in view in the
    /// frustum (it drew the meshlet's triangles seen last frame; one outside is neither
    /// drawn nor tested).
    in_view: Vec<bool>,
    /// Meshlets in view that this frame's first pass did not draw whole.
    untested: usize,
    /// The view of the last second pass, when it drew nothing the first pass had not: seen
    /// from there again, the same test gives the same answer (what it left out is behind
    /// the nearest surfaces, which it kept, or covers no pixel), so a still eye in a window
    /// of the same size need not test again.
    settled: Option<(Mat4, Mat4, UVec2)>,
    /// This frame's view is the settled one.
    still: bool,
    /// This frame has too few triangles in view to cull: its first pass drew them all.
    few: bool,
    /// Below this many triangles in the clusters in view, draw them all
    /// ([`OCCLUDE_FROM_TRIANGLES`]).
    pub occlude_from: u32,
    /// Triangles the second pass picks before it stops for a read of the depth
    /// ([`SECOND_PASS_STEP_TRIANGLES`]).
    pub step_triangles: usize,
    /// Frames since the last second pass.
    since_second: u32,
    /// Steps of this frame's second pass taken.
    steps: u32,
    /// Threads the second pass's tests may use (the machine's, up to
    /// [`CULLING_THREADS`]).
    threads: usize,
    /// The walk's memory.
    scratch: Scratch,
    /// The depth after the first pass.
    pub pyramid: DepthPyramid,
}

impl Occlusion {
    /// For a mesh of `meshlets` meshlets, none seen yet: the first frame tests them all.
    pub fn new(meshlets: usize) -> Occlusion {
        Occlusion {
            seen: vec![0; meshlets],
            in_view: vec![false; meshlets],
            untested: 0,
            settled: None,
            still: false,
            few: false,
            occlude_from: OCCLUDE_FROM_TRIANGLES,
            step_triangles: SECOND_PASS_STEP_TRIANGLES,
            since_second: 0,
            steps: 0,
            threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(CULLING_THREADS),
            scratch: Scratch::default(),
            pyramid: DepthPyramid::default(),
        }
    }

    /// The mesh gained meshlets after its own (its levels of detail), `meshlets` in all:
    /// none of them seen yet, what was seen of the others kept (so that their arrival
    /// costs no frame of testing everything afresh).
    pub fn grow(&mut self, meshlets: usize) {
        self.seen.resize(meshlets, 0);
        self.in_view.resize(meshlets, false);
        self.settled = None;
    }

    /// The first pass: the triangles seen last frame of the meshlets of clusters `order`
    /// in `view`'s frustum, into `out` (cleared first); all of them when the clusters
    /// hold fewer than [`Occlusion::occlude_from`] triangles.
    pub fn first_pass(
        &mut self,
        mesh: &ClusteredMesh,
        order: &[u32],
        view: &View,
        out: &mut Batches,
    ) {
        let frustum = &view.frustum;
        let triangles: u32 = order
            .iter()
            .map(|&c| mesh.clusters[c as usize].count / 3)
            .sum();
        self.few = triangles < self.occlude_from;
        if self.few {
            // What is drawn untested counts as seen; nothing is settled.
            self.settled = None;
        }
        self.still = self.settled == Some((view.view, view.proj, view.viewport));
        let few = self.few;
        let (seen, in_view, untested) = (&mut self.seen, &mut self.in_view, &mut self.untested);
        *untested = 0;
        let walk = Walk::all(mesh, order, view, self.threads);
        // The test: in the frustum (all of it, as a set of triangles) or not (none).
        let in_frustum = |_, meshlet: &Meshlet| {
            if frustum.sees(&meshlet.bounds) {
                meshlet.all_triangles()
            } else {
                0
            }
        };
        walk.pick(&mut self.scratch, out, in_frustum, |m, meshlet, test| {
            in_view[m] = test != 0;
            if !in_view[m] {
                return 0;
            }
            if few {
                seen[m] = meshlet.all_triangles();
            }
            *untested += usize::from(seen[m] != meshlet.all_triangles());
            seen[m]
        });
        self.since_second += 1;
        self.steps = 0;
    }

    /// Whether this frame needs the second pass (and so the depth read back): it has
    /// enough triangles in view to cull, and something in view is left to test (unless
    /// the view is where the last test settled), the last one drew something, or it is
    /// [`REFRESH_FRAMES`] since the last.
    pub fn second_pass_due(&self) -> bool {
        !self.few && ((self.untested > 0 && !self.still) || self.since_second >= REFRESH_FRAMES)
    }

    /// A step of the second pass, once [`Occlusion::pyramid`] holds the depth drawn so
    /// far: the triangles of the meshlets of clusters `order[from..]` in `view` that it
    /// does not hide (a meshlet's box first, then each triangle of a box that shows) and
    /// that cover a pixel, less those the first pass drew, into `out` (cleared first).
    /// Remembers which showed for the next frame. The same `order` and `view` as this
    /// frame's first pass; `from` 0 for the first step.
    ///
    /// Returns where the next step starts: `order.len()` when the pass is done; earlier
    /// when it stopped after a cluster with [`Occlusion::step_triangles`] picked. Then
    /// draw `out`, read the depth into the pyramid, and call again from there; once done
    /// after more than one step, see [`Occlusion::retest`].
    pub fn second_pass(
        &mut self,
        mesh: &ClusteredMesh,
        order: &[u32],
        from: usize,
        view: &View,
        out: &mut Batches,
    ) -> usize {
        self.steps += 1;
        let budget = if self.steps < SECOND_PASS_STEPS {
            self.step_triangles
        } else {
            usize::MAX
        };
        let (seen, in_view) = (&mut self.seen, &self.in_view);
        let shown = shown_test(mesh, view, &self.pyramid, in_view);
        let walk = Walk {
            from,
            budget,
            ..Walk::all(mesh, order, view, self.threads)
        };
        let next = walk.pick(&mut self.scratch, out, shown, |m, _, shown| {
            if !in_view[m] {
                // Outside the frustum, neither tested nor drawn: what was seen of it is
                // kept for when the eye turns back (a look to the side and back then
                // costs no frame of finding it all again).
                return 0;
            }
            // What the first pass drew (last frame's answer) is not drawn again.
            let drawn = seen[m];
            seen[m] = shown;
            shown & !drawn
        });
        if next == order.len() {
            // What this pass drew was tested against depth without it, and may hide some
            // of what the first pass drew: the next frame tests again (after a turn,
            // everything in view may have been drawn here, against little depth). A step
            // that stopped early drew something.
            let drew = self.steps > 1 || !out.is_empty();
            self.since_second = if drew { REFRESH_FRAMES } else { 0 };
            self.settled = (!drew).then_some((view.view, view.proj, view.viewport));
        }
        next
    }

    /// Whether this frame's second pass took more than one step: its first steps were
    /// tested against less depth than the frame ends with, and what they found seen
    /// should be tested again ([`Occlusion::retest`]).
    pub fn retest_due(&self) -> bool {
        self.steps > 1
    }

    /// Once [`Occlusion::pyramid`] holds the whole frame's depth, test again what was
    /// found seen of the meshlets in view of clusters `order` (this frame's) in `view`,
    /// and keep that; nothing is drawn. A second pass in steps tests its first steps'
    /// clusters against little depth (after a turn, none) and marks as seen much that
    /// the later steps hide. The next frame corrects what is still in view, but a
    /// meshlet out of view keeps what was seen of it until it comes back, and is then
    /// drawn untested: lost_empire's first frame marked 40,000 triangles seen in four
    /// steps, and a turn back to part of that view drew 27,500 first where 8,600 show.
    pub fn retest(&mut self, mesh: &ClusteredMesh, order: &[u32], view: &View) {
        let (seen, in_view) = (&mut self.seen, &self.in_view);
        let shown = shown_test(mesh, view, &self.pyramid, in_view);
        let walk = Walk::all(mesh, order, view, self.threads);
        walk.pick(
            &mut self.scratch,
            &mut Batches::default(),
            shown,
            |m, _, shown| {
                if in_view[m] {
                    seen[m] = shown;
                }
                0
            },
        );
    }
}

#[cfg(test)]
mod tests;
