use glam::{Mat4, UVec2, Vec3};

use super::*;
use crate::cull::View;
use crate::cull::clusters::{CLUSTER_TRIANGLES, cluster_map};
use crate::cull::fixtures::{bumpy, flat, grid, no_uv, one_material, triangles, with_levels};
use crate::geometry::Aabb;
use crate::test_kit::random::Lcg;

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
    let mut lcg = Lcg(12345);
    let mut next = move || lcg.unit();
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
