//! The one walk over the meshlets of both passes of occlusion culling (see [`super`]), in
//! drawing order, its tests run on several threads a piece at a time; and the second
//! pass's test of a meshlet, its box and then (a big one's) its triangles against the
//! depth pyramid.

use glam::Vec3;

use crate::cull::batches::Batches;
use crate::cull::clusters::{ClusteredMesh, Meshlet, TriangleSet};
use crate::cull::coverage::covering_triangles;
use crate::cull::pyramid::{DepthPyramid, corners};
use crate::cull::view::View;

/// A meshlet whose box covers at least this many pixels of the window (32 x 32) has its
/// triangles tested one by one when the box shows. A big meshlet half behind a hill
/// would otherwise have all of it rasterized every frame (most of lost_empire's hidden
/// layers); a small one's hidden part costs a rasterizer less than the tests (testing
/// every triangle took conference's frame from 34 to 44 ms, for the same 3% fewer
/// fragments that testing only these takes out).
pub const TRIANGLES_TESTED_FROM: u64 = 1024;

/// The second pass's test of meshlet `m` against `pyramid` (run on several threads):
/// its triangles that may show through `view` (none of a meshlet out of view). A box
/// wholly behind the depth hides all of it; of one that shows, each triangle that may
/// cover a pixel's centre and faces the eye where back faces are culled, and, where the
/// box covers [`TRIANGLES_TESTED_FROM`] pixels or more, is not itself behind the depth.
pub(super) fn shown_test<'a>(
    mesh: &'a ClusteredMesh,
    view: &'a View,
    pyramid: &'a DepthPyramid,
    in_view: &'a [bool],
) -> impl Fn(usize, &Meshlet) -> TriangleSet + Sync + Copy + 'a {
    let view_proj = view.view_proj;
    let corner = |i: u32| Vec3::from(mesh.vertices[i as usize].position);
    move |m: usize, meshlet: &Meshlet| {
        if !in_view[m] {
            return 0;
        }
        let whole = pyramid.occlusion_of(view_proj, view.proj, corners(&meshlet.bounds));
        if whole.hidden {
            return 0;
        }
        let indices = &mesh.indices[meshlet.first as usize..][..meshlet.count as usize];
        // Back faces the GL will cull are not "seen" either: should the eye come round
        // to see one's front, the next frame's second pass finds it.
        let front_only = mesh.meshlet_hides_back_faces(m, view.eye, view.near_reach);
        let mut shown = covering_triangles(
            &mesh.vertices,
            indices,
            view_proj,
            view.viewport,
            front_only,
        );
        if whole.pixels >= TRIANGLES_TESTED_FROM && !pyramid.is_empty() {
            for (k, t) in indices.chunks_exact(3).enumerate() {
                let points = [corner(t[0]), corner(t[1]), corner(t[2])];
                if shown & (1 << k) != 0
                    && pyramid.occlusion_of(view_proj, view.proj, points).hidden
                {
                    shown &= !(1 << k);
                }
            }
        }
        shown
    }
}

/// Below this many meshlets a piece of the walk is tested on one thread: a thread's
/// start (some tens of microseconds) would cost more than it saves.
const PARALLEL_FROM_MESHLETS: usize = 1024;

/// The walk's pieces: at least this many meshlets, tested together (on several threads)
/// before their answers are used in order. Small enough that a step of the second pass
/// which stops early has tested little past where it stopped.
const PIECE_MESHLETS: usize = 4096;

/// Memory kept between frames for [`Walk::pick`]: a piece's meshlets and their answers.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    meshlets: Vec<u32>,
    answers: Vec<TriangleSet>,
}

/// The one walk over the meshlets of clusters `order[from..]`, in order, of both passes,
/// picking triangles into a pass's [`Batches`] to be drawn nearest first from `eye`.
#[derive(Clone, Copy)]
pub(super) struct Walk<'a> {
    pub(super) mesh: &'a ClusteredMesh,
    pub(super) order: &'a [u32],
    pub(super) from: usize,
    /// Stop after the cluster that brings the triangles picked to this many.
    pub(super) budget: usize,
    pub(super) eye: Vec3,
    /// [`View::near_reach`].
    pub(super) near_reach: f32,
    /// Threads the tests may use.
    pub(super) threads: usize,
}

impl<'a> Walk<'a> {
    /// All the meshlets of clusters `order`, seen through `view`, tested on up to
    /// `threads` threads.
    pub(super) fn all(
        mesh: &'a ClusteredMesh,
        order: &'a [u32],
        view: &View,
        threads: usize,
    ) -> Self {
        Walk {
            mesh,
            order,
            from: 0,
            budget: usize::MAX,
            eye: view.eye,
            near_reach: view.near_reach,
            threads,
        }
    }

    /// Into `out` (cleared first), the triangles that `pick` picks of each meshlet, given
    /// its position in [`ClusteredMesh::meshlets`], the meshlet, and what `test` said of
    /// it. `test` has no effects and runs on up to [`Walk::threads`] threads, a piece of
    /// the walk at a time; `pick` runs in order on this one. Returns the place in `order`
    /// after the last cluster walked (`order.len()` unless the budget stopped it).
    pub(super) fn pick(
        &self,
        scratch: &mut Scratch,
        out: &mut Batches,
        test: impl Fn(usize, &Meshlet) -> TriangleSet + Sync,
        mut pick: impl FnMut(usize, &Meshlet, TriangleSet) -> TriangleSet,
    ) -> usize {
        let (mesh, order) = (self.mesh, self.order);
        out.clear();
        let mut start = self.from;
        while start < order.len() {
            // The next piece: whole clusters, at least PIECE_MESHLETS meshlets.
            let mut end = start;
            scratch.meshlets.clear();
            while end < order.len() && scratch.meshlets.len() < PIECE_MESHLETS {
                let cluster = &mesh.clusters[order[end] as usize];
                scratch
                    .meshlets
                    .extend(cluster.meshlets().map(|m| m as u32));
                end += 1;
            }
            answer_in_parallel(scratch, self.threads, |m| {
                test(m as usize, &mesh.meshlets[m as usize])
            });
            let mut answers = scratch.answers.iter();
            for (rank, &c) in order.iter().enumerate().take(end).skip(start) {
                for m in mesh.clusters[c as usize].meshlets() {
                    let meshlet = &mesh.meshlets[m];
                    let answer = answers.next().copied().unwrap_or(0);
                    out.pick(rank, c, m, meshlet, self.eye, pick(m, meshlet, answer));
                }
                if out.picked_triangles() >= self.budget {
                    out.finish(mesh, self.eye, self.near_reach);
                    return rank + 1;
                }
            }
            start = end;
        }
        out.finish(mesh, self.eye, self.near_reach);
        order.len()
    }
}

/// `scratch.answers[i] = answer(scratch.meshlets[i])` for every `i`, on up to `threads`
/// threads (this one among them).
fn answer_in_parallel(
    scratch: &mut Scratch,
    threads: usize,
    answer: impl Fn(u32) -> TriangleSet + Sync,
) {
    let Scratch { meshlets, answers } = scratch;
    answers.clear();
    answers.resize(meshlets.len(), 0);
    let fill = |ms: &[u32], out: &mut [TriangleSet]| {
        for (a, &m) in out.iter_mut().zip(ms) {
            *a = answer(m);
        }
    };
    if threads <= 1 || meshlets.len() < PARALLEL_FROM_MESHLETS {
        fill(meshlets, answers);
        return;
    }
    let share = meshlets.len().div_ceil(threads);
    // A share whose thread the system will not start is answered here afterwards.
    let mut refused = Vec::new();
    let fill = &fill;
    std::thread::scope(|s| {
        let mut pieces = meshlets.chunks(share).zip(answers.chunks_mut(share));
        let own = pieces.next();
        for (i, (ms, out)) in pieces.enumerate() {
            let thread = std::thread::Builder::new().spawn_scoped(s, move || fill(ms, out));
            if thread.is_err() {
                refused.push(i + 1);
            }
        }
        if let Some((ms, out)) = own {
            fill(ms, out);
        }
    });
    for i in refused {
        let range = i * share..((i + 1) * share).min(meshlets.len());
        fill(&meshlets[range.clone()], &mut answers[range]);
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, UVec2};

    use super::*;
    use crate::cull::clusters::cluster_map;
    use crate::cull::fixtures::{SIDE, big_meshlets, camera, wall, walls};
    use crate::cull::occlusion::Occlusion;

    fn triangles(draws: &Batches) -> usize {
        draws.triangles()
    }

    #[test]
    fn the_triangles_of_a_big_meshlet_are_tested_one_by_one() {
        // A nearer wall hides the window left of x = 2 m on the big meshlets' wall (column
        // 48 of 64).
        let (mesh, seen_from, mut o, mut out) = big_meshlets();
        o.first_pass(&mesh, &[0], &seen_from, &mut out);
        o.pyramid = wall(1.0, 48);
        assert_eq!(o.second_pass(&mesh, &[0], 0, &seen_from, &mut out), 1);
        // What is drawn is the triangles reaching x = 2 m: the column of quads from 1 to 2 m
        // reaches the window's column 48, which shows the sky (a pixel of margin).
        let right = |t: &[u32]| {
            t.iter()
                .map(|&i| mesh.vertices[i as usize].position[0])
                .fold(f32::MIN, f32::max)
        };
        let drawn: Vec<f32> = out.indices.chunks(3).map(right).collect();
        assert_eq!(drawn.len(), 3 * 8 * 2, "{drawn:?}");
        assert!(drawn.iter().all(|&x| x >= 2.0));
        // Boxes alone would have drawn the meshlets that straddle x = 2 m whole.
        let straddling = mesh.meshlets.iter().filter(|m| {
            let b = m.bounds;
            b.min.x < 1.0 && b.max.x > 2.0
        });
        assert!(straddling.count() > 0);
        // The next frame draws those triangles first, and tests again what it did not draw.
        o.first_pass(&mesh, &[0], &seen_from, &mut out);
        assert_eq!(out.triangles(), 48);
        assert!(o.second_pass_due());
    }

    #[test]
    fn triangles_that_cover_no_pixel_centre_are_left_out_until_the_eye_comes_near() {
        // One wall of 32 x 32 quads of 1 m, 60 m ahead: 17 pixels wide, a quad half a pixel.
        let mesh = cluster_map(&walls(32, &[60.0]), 2048);
        let (view, proj) = camera();
        let window = UVec2::splat(SIDE as u32);
        let mut o = Occlusion {
            occlude_from: 0,
            ..Occlusion::new(mesh.meshlets.len())
        };
        let mut out = Batches::default();
        // A frame against no depth (the sky): the triangles drawn in each pass.
        let mut frame = |v: &View| {
            o.first_pass(&mesh, &[0], v, &mut out);
            let first = triangles(&out);
            assert_eq!(o.second_pass(&mesh, &[0], 0, v, &mut out), 1);
            (first, triangles(&out))
        };
        // A triangle is half of a square 0.53 pixels a side: 0.14 square pixels, about 0.26
        // with the 1/16-pixel margin round it. So it may cover a pixel centre in about a
        // quarter to a third of places, and that many of the 2,048 triangles are kept (its
        // rectangle, 0.66 pixels a side with the margin, would hold one in 44%).
        let far = View::new(view, proj, window);
        let (first, second) = frame(&far);
        assert_eq!(first, 0, "nothing seen yet");
        assert!((450..800).contains(&second), "{second}");
        // The same view again: nothing new to draw.
        assert_eq!(frame(&far), (second, 0));
        // 8 m from it, the window shows 16 x 16 of its quads, each 4 pixels a side: every
        // triangle there covers pixel centres, and those not drawn first are drawn second.
        let near = View::new(
            Mat4::from_translation(Vec3::new(0.0, 0.0, 52.0)),
            proj,
            window,
        );
        let (first, second) = frame(&near);
        assert!(first > 0 && second > 0, "{first} + {second}");
        // The next frame draws first just those in the window: 16 x 16 quads and parts of
        // those around them (at most 18 x 18), and nothing second.
        let (first, second) = frame(&near);
        assert!(
            (512..=648).contains(&first) && second == 0,
            "{first} + {second}"
        );
    }

    #[test]
    fn the_tests_on_several_threads_pick_what_one_thread_does() {
        // Two walls of 96 x 96 quads, 50 and 60 m ahead, all in view: 36,864 triangles,
        // 1,152 meshlets, past the count that the walk tests on several threads; a nearer
        // wall hides the left third of the window.
        let mesh = cluster_map(&walls(96, &[50.0, 60.0]), 2048);
        let (view, proj) = camera();
        let seen_from = View::new(view, proj, UVec2::splat(SIDE as u32));
        let mut order = Vec::new();
        crate::cull::draw_order(&mesh, &seen_from, &mut order);
        let in_view: usize = order
            .iter()
            .map(|&c| mesh.clusters[c as usize].meshlets().len())
            .sum();
        assert!(in_view > PARALLEL_FROM_MESHLETS, "{in_view}");
        // Three frames: the triangles each pass draws, and what is seen after.
        let frames = |threads: usize| {
            let mut o = Occlusion {
                occlude_from: 0,
                threads,
                ..Occlusion::new(mesh.meshlets.len())
            };
            let mut out = Batches::default();
            let mut drawn = Vec::new();
            for _ in 0..3 {
                o.first_pass(&mesh, &order, &seen_from, &mut out);
                drawn.push(out.indices.clone());
                o.pyramid = wall(40.0, SIDE / 3);
                let mut from = 0;
                while from < order.len() {
                    from = o.second_pass(&mesh, &order, from, &seen_from, &mut out);
                    drawn.push(out.indices.clone());
                }
            }
            (drawn, o.seen)
        };
        let (one, seen) = frames(1);
        assert!(one.iter().any(|d| !d.is_empty()));
        assert_eq!(frames(4), (one, seen));
    }
}
