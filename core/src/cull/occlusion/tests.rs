use glam::{UVec2, Vec3};

use super::*;
use crate::cull::clusters::cluster_map;
use crate::cull::fixtures::{SIDE, big_meshlets, camera, depth_at, fixed, wall, walls};
use crate::geometry::Aabb;

/// Two walls, 5 m and 60 m ahead, seen down the view axis, and culling's memory for them.
struct Walls {
    /// 2 x 32 x 32 quads: 4096 triangles, one cluster a wall (2048: the walls are further
    /// apart than they are wide, so the first split is between them).
    mesh: ClusteredMesh,
    seen_from: View,
    order: [u32; 2],
    o: Occlusion,
    draws: Batches,
}

impl Walls {
    /// A frame's first pass.
    fn first(&mut self) {
        let w = self;
        w.o.first_pass(&w.mesh, &w.order, &w.seen_from, &mut w.draws);
    }

    /// A frame's second pass, against [`Occlusion::pyramid`] as it is.
    fn second(&mut self) {
        let w = self;
        let done =
            w.o.second_pass(&w.mesh, &w.order, 0, &w.seen_from, &mut w.draws);
        assert_eq!(done, w.order.len(), "one step");
    }

    /// The cluster of the wall 5 m ahead.
    fn near_cluster(&self) -> usize {
        (0..2)
            .find(|&c| self.mesh.clusters[c].bounds.max.z > -10.0)
            .unwrap()
    }

    fn new() -> Walls {
        let mesh = cluster_map(&walls(32, &[5.0, 60.0]), 2048);
        let (view, proj) = camera();
        Walls {
            seen_from: View::new(view, proj, UVec2::splat(SIDE as u32)),
            order: [0, 1],
            o: Occlusion {
                occlude_from: 0,
                ..Occlusion::new(mesh.meshlets.len())
            },
            draws: Batches::default(),
            mesh,
        }
    }
}

fn triangles(draws: &Batches) -> usize {
    draws.triangles()
}

#[test]
fn what_the_near_wall_hides_is_drawn_once_then_left_out() {
    let mut w = Walls::new();
    assert_eq!(w.mesh.clusters.len(), 2);
    let near = w.mesh.clusters[w.near_cluster()].meshlets();
    // Frame 1: nothing seen yet, nothing drawn first; with no depth, all that is in view
    // is drawn second (the wall 5 m ahead fills the view with about 200 triangles of 6
    // pixels a side; the far one is all in view, 17 pixels wide, and about 30% of its
    // 2,048 triangles of half a pixel may cover a pixel's centre).
    w.first();
    assert!(w.draws.is_empty());
    w.second();
    let in_view = triangles(&w.draws);
    let far = w.draws.meshlets().filter(|m| !near.contains(m)).count();
    assert_eq!(far, 64, "every meshlet of the far wall");
    assert!((600..1100).contains(&in_view), "{in_view}");
    // Frame 2: all of that first; then the near wall's depth (it fills the window) hides
    // the far wall, and nothing is drawn second.
    w.first();
    assert_eq!(triangles(&w.draws), in_view);
    w.o.pyramid = wall(5.0, SIDE);
    w.second();
    assert!(w.draws.is_empty());
    // Frame 3: only the near wall's meshlets, drawn in one call.
    w.first();
    assert!(w.draws.meshlets().all(|m| near.contains(&m)));
    assert!(triangles(&w.draws) > 0 && triangles(&w.draws) < in_view);
    assert_eq!(w.draws.draws.len(), 1, "a cluster is one call");
    // The near wall gone (sky), the far wall is found hidden no more and drawn second.
    w.o.pyramid = wall(5.0, 0);
    w.second();
    assert!(!w.draws.is_empty() && w.draws.meshlets().all(|m| !near.contains(&m)));
}

#[test]
fn with_all_in_view_seen_the_depth_is_read_only_every_few_frames() {
    let mut w = Walls::new();
    // The first frame tests all; with no depth (sky), all shows.
    w.first();
    assert!(w.o.second_pass_due());
    w.second();
    // That second pass drew everything (against no depth), so the next frame tests again;
    // then all in view is drawn first and nothing is left to test: the second pass is due
    // only every REFRESH_FRAMES frames.
    let mut due = Vec::new();
    for _ in 0..2 * REFRESH_FRAMES {
        w.first();
        due.push(w.o.second_pass_due());
        if w.o.second_pass_due() {
            w.second();
            assert!(w.draws.is_empty(), "all was drawn first");
        }
    }
    let at: Vec<usize> = (0..due.len()).filter(|&i| due[i]).collect();
    let n = REFRESH_FRAMES as usize;
    assert_eq!(at, vec![0, n]);
    // Once the near wall hides the far one, the far one is left to test every frame the
    // eye moves (while it stands still, the test would say the same).
    w.first();
    w.o.pyramid = wall(5.0, SIDE);
    w.second();
    w.first();
    assert!(!w.o.second_pass_due(), "still");
    let (_, proj) = camera();
    for k in 1..4 {
        let step = Mat4::from_translation(Vec3::new(0.0, 0.0, 1e-3 * k as f32));
        w.seen_from = View::new(step, proj, UVec2::splat(SIDE as u32));
        w.first();
        assert!(w.o.second_pass_due());
        w.second();
    }
}

#[test]
fn after_a_turn_what_was_drawn_against_no_depth_is_tested_the_next_frame() {
    // A bug: after a frame whose second pass drew everything in view against no depth
    // (the first frame, or one after a turn), the next frame drew it all first, found
    // nothing left to test, and skipped the test for REFRESH_FRAMES frames, drawing the
    // far wall behind the near one all that while.
    let mut w = Walls::new();
    w.first();
    w.second();
    let everything = triangles(&w.draws);
    w.first();
    assert_eq!(triangles(&w.draws), everything);
    assert!(
        w.o.second_pass_due(),
        "nothing left to test, but all of it untested"
    );
    w.o.pyramid = wall(5.0, SIDE);
    w.second();
    w.first();
    assert!(
        triangles(&w.draws) * 2 <= everything,
        "the far wall is left out at once"
    );
}

#[test]
fn what_was_seen_of_meshlets_that_leave_the_frustum_is_kept_for_a_turn_back() {
    // A bug: the second pass forgot what had been seen of a cluster's meshlets outside
    // the frustum while the cluster itself was in view, so after a look to the side and
    // back the first pass drew little and the second found it all again (lost_empire's
    // benchmark walk: 26,000 triangles in 61 ms on turning back to where it started).
    let mut w = Walls::new();
    w.first();
    w.second();
    w.first();
    let ahead = w.seen_from;
    let drawn_ahead: Vec<usize> = w.draws.meshlets().collect();
    // Turned 40 degrees: the near wall's cluster is still in view, some of the meshlets
    // drawn ahead are not.
    let (_, proj) = camera();
    let turned = Mat4::from_rotation_y(40f32.to_radians());
    w.seen_from = View::new(turned, proj, UVec2::splat(SIDE as u32));
    let near = w.near_cluster();
    assert!(w.seen_from.frustum.sees(&w.mesh.clusters[near].bounds));
    let left: Vec<usize> = drawn_ahead
        .iter()
        .copied()
        .filter(|&m| w.mesh.clusters[near].meshlets().contains(&m))
        .filter(|&m| !w.seen_from.frustum.sees(&w.mesh.meshlets[m].bounds))
        .collect();
    assert!(!left.is_empty());
    w.first();
    w.second();
    // Turned back: those are drawn first again, as they were seen.
    w.seen_from = ahead;
    w.first();
    let drawn: Vec<usize> = w.draws.meshlets().collect();
    assert!(left.iter().all(|m| drawn.contains(m)), "{left:?} {drawn:?}");
}

#[test]
fn what_a_later_step_finds_hidden_of_an_earlier_steps_picks_is_not_remembered_as_seen() {
    // One step: nothing to test again.
    let mut one = Walls::new();
    one.first();
    one.second();
    assert!(!one.o.retest_due());
    let mut w = Walls::new();
    let near = w.near_cluster();
    let far = 1 - near;
    let meshlets = |c: usize| w.mesh.clusters[c].meshlets();
    let (near_meshlets, far_meshlets) = (meshlets(near), meshlets(far));
    // The far wall walked first, and a step a cluster.
    w.order = [far as u32, near as u32];
    w.o.step_triangles = 1;
    w.first();
    assert!(w.draws.is_empty());
    // Step 1, against no depth: all of the far wall shows.
    let next =
        w.o.second_pass(&w.mesh, &w.order, 0, &w.seen_from, &mut w.draws);
    assert_eq!(next, 1);
    assert!(!w.draws.is_empty() && w.draws.meshlets().all(|m| far_meshlets.contains(&m)));
    // Step 2, against the near wall's depth drawn in front of it, filling the window.
    w.o.pyramid = wall(5.0, SIDE);
    let next =
        w.o.second_pass(&w.mesh, &w.order, 1, &w.seen_from, &mut w.draws);
    assert_eq!(next, 2);
    // Tested again against the frame's depth (the near wall's still).
    assert!(w.o.retest_due());
    w.o.retest(&w.mesh, &w.order, &w.seen_from);
    // The far wall, hidden, is not what the next frame draws first.
    w.first();
    assert!(!w.draws.is_empty());
    assert!(
        w.draws.meshlets().all(|m| near_meshlets.contains(&m)),
        "the far wall was remembered as seen"
    );
}

#[test]
fn a_still_eye_with_triangles_left_out_reads_the_depth_only_every_few_frames() {
    // The big meshlets of the test above, half behind a nearer wall: some of their
    // triangles are left out, so something in view is always untested; but seen from
    // the same place, testing again would give the same answer.
    let (mesh, still, mut o, mut out) = big_meshlets();
    let (_, proj) = camera();
    let mut frame = |o: &mut Occlusion, seen_from: &View| {
        o.first_pass(&mesh, &[0], seen_from, &mut out);
        let due = o.second_pass_due();
        if due {
            o.pyramid = wall(1.0, 48);
            assert_eq!(o.second_pass(&mesh, &[0], 0, seen_from, &mut out), 1);
        }
        due
    };
    // The first test draws what shows; the next finds nothing new and settles.
    assert!(frame(&mut o, &still));
    assert!(frame(&mut o, &still));
    let due: Vec<bool> = (0..REFRESH_FRAMES).map(|_| frame(&mut o, &still)).collect();
    let mut want = vec![false; REFRESH_FRAMES as usize];
    want[REFRESH_FRAMES as usize - 1] = true;
    assert_eq!(due, want);
    // Any move, however small, tests again.
    let moved = View::new(
        Mat4::from_translation(Vec3::new(0.0, 0.0, 1e-3)),
        proj,
        UVec2::splat(SIDE as u32),
    );
    assert!(frame(&mut o, &moved));
    // So does the same view in a window of another size (the same shape: the same
    // projection): other pixel centres, other triangles that cover one.
    for _ in 0..2 {
        frame(&mut o, &still);
    }
    assert!(!frame(&mut o, &still));
    let bigger = View {
        viewport: UVec2::splat(2 * SIDE as u32),
        ..still
    };
    assert!(frame(&mut o, &bigger));
}

#[test]
fn a_wall_the_eye_stands_against_is_not_hidden_by_its_own_depth_drawn_a_little_nearer() {
    // A bug: the built-in map's north wall, 0.3 m ahead and 24 m wide (its corners far
    // off the screen), was drawn 17 steps of the 24-bit depth buffer nearer than it is
    // (the rasterizer's float interpolation), and its own box was then found behind that
    // depth: left out, and with a still eye never tested again.
    let (view, proj) = camera();
    let at = 0.300167;
    let step = 1.0 / 16_777_216.0;
    let drawn = fixed(depth_at(proj, at) - 32.0 * step);
    let mut p = DepthPyramid::default();
    p.rebuild(SIDE, SIDE, |depth| depth.fill(drawn));
    let wall = Aabb {
        min: Vec3::new(-12.0, -1.6, -at),
        max: Vec3::new(12.0, 4.4, -at),
    };
    assert!(!p.hides(view, proj, &wall));
    // What is a centimetre behind it is still hidden.
    let behind = Aabb {
        min: Vec3::new(-0.1, -0.1, -at - 0.02),
        max: Vec3::new(0.1, 0.1, -at - 0.01),
    };
    assert!(p.hides(view, proj, &behind));
}

#[test]
fn a_view_of_few_triangles_is_drawn_whole_and_never_read_back() {
    // The two walls' 4,096 triangles, one fewer than the threshold: all in view is
    // drawn in the first pass, every frame, with no second pass (and no read).
    let mut w = Walls::new();
    w.o.occlude_from = 4097;
    assert_eq!(Occlusion::new(0).occlude_from, OCCLUDE_FROM_TRIANGLES);
    let mut drawn = Vec::new();
    for _ in 0..2 * REFRESH_FRAMES {
        w.first();
        assert!(!w.o.second_pass_due());
        drawn.push(triangles(&w.draws));
    }
    assert!(
        drawn[0] > 2048 && drawn.iter().all(|&n| n == drawn[0]),
        "{drawn:?}"
    );
    // With culling asked for (as for a big map), the far wall is tested and left out.
    w.o.occlude_from = 0;
    w.first();
    assert!(w.o.second_pass_due());
    w.o.pyramid = wall(5.0, SIDE);
    w.second();
    w.first();
    assert!(triangles(&w.draws) < drawn[0]);
}

#[test]
fn after_a_turn_the_second_pass_draws_the_nearest_first_and_tests_the_rest_against_it() {
    // Nothing seen yet (as after a turn): a step of one cluster at a time.
    let mut w = Walls::new();
    w.o.step_triangles = 1;
    let near = w.near_cluster() as u32;
    w.order = [near, 1 - near];
    let near_meshlets = w.mesh.clusters[near as usize].meshlets();
    w.first();
    assert!(w.draws.is_empty());
    // The first step, against no depth: the near wall only, and it stops there.
    let next =
        w.o.second_pass(&w.mesh, &w.order, 0, &w.seen_from, &mut w.draws);
    assert_eq!(next, 1);
    assert!(!w.draws.is_empty() && w.draws.meshlets().all(|m| near_meshlets.contains(&m)));
    // Its depth read back (it fills the window), the next step finds the far wall
    // hidden: nothing more is drawn this frame or seen for the next.
    w.o.pyramid = wall(5.0, SIDE);
    let next =
        w.o.second_pass(&w.mesh, &w.order, next, &w.seen_from, &mut w.draws);
    assert_eq!(next, 2);
    assert!(w.draws.is_empty());
    w.first();
    assert!(w.draws.meshlets().all(|m| near_meshlets.contains(&m)));
    // Something was drawn in the second pass: the next frame tests again.
    assert!(w.o.second_pass_due());
}

#[test]
fn the_second_pass_takes_at_most_its_steps_the_last_one_all_that_is_left() {
    // Six walls, 5 to 30 m ahead, in clusters of 256 triangles: a dozen clusters in view,
    // all showing against no depth.
    let mesh = cluster_map(&walls(16, &[5.0, 10.0, 15.0, 20.0, 25.0, 30.0]), 256);
    let (view, proj) = camera();
    let seen_from = View::new(view, proj, UVec2::splat(SIDE as u32));
    let mut order = Vec::new();
    crate::cull::draw_order(&mesh, &seen_from, &mut order);
    assert!(order.len() > SECOND_PASS_STEPS as usize, "{}", order.len());
    let mut o = Occlusion {
        occlude_from: 0,
        step_triangles: 1,
        ..Occlusion::new(mesh.meshlets.len())
    };
    let mut out = Batches::default();
    o.first_pass(&mesh, &order, &seen_from, &mut out);
    let (mut from, mut steps, mut drawn) = (0, 0, 0);
    while from < order.len() {
        from = o.second_pass(&mesh, &order, from, &seen_from, &mut out);
        steps += 1;
        drawn += triangles(&out);
    }
    assert_eq!(steps, SECOND_PASS_STEPS);
    // The same triangles as one step draws.
    o.step_triangles = usize::MAX;
    o.seen.iter_mut().for_each(|s| *s = 0);
    o.first_pass(&mesh, &order, &seen_from, &mut out);
    assert_eq!(
        o.second_pass(&mesh, &order, 0, &seen_from, &mut out),
        order.len()
    );
    assert_eq!(triangles(&out), drawn);
}

#[test]
fn meshlets_added_after_the_meshes_own_start_unseen_and_the_rest_are_kept() {
    // Levels of detail arriving: what was seen of the map's own meshlets still counts.
    let mut o = Occlusion::new(3);
    o.seen = vec![1, 0, 7];
    o.in_view = vec![true, false, true];
    o.settled = Some((Mat4::IDENTITY, Mat4::IDENTITY, UVec2::ONE));
    o.grow(5);
    assert_eq!(o.seen, vec![1, 0, 7, 0, 0]);
    assert_eq!(o.in_view, vec![true, false, true, false, false]);
    assert!(o.settled.is_none(), "the next frame tests again");
}
