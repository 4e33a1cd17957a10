use glam::Vec3;

use super::*;
use crate::cull::clusters::{CLUSTER_TRIANGLES, cluster_map};
use crate::cull::fixtures::{
    bumpy, cube, farthest_corner, flat, grid, no_uv, one_material, triangles, vertex, with_levels,
};
use crate::cull::lod::{ERROR_STEP, FIRST_ERROR, MAX_LEVELS};
use crate::cull::solids::closed_solids;
use crate::map::Vertex;

fn area(t: &[Vec3; 3]) -> f32 {
    (t[1] - t[0]).cross(t[2] - t[0]).length() * 0.5
}

/// The positions cluster `c`'s triangles use, by their bits.
fn positions(mesh: &ClusteredMesh, c: u32) -> std::collections::HashSet<[u32; 3]> {
    triangles(mesh, c)
        .iter()
        .flatten()
        .map(|p| p.to_array().map(f32::to_bits))
        .collect()
}

#[test]
fn a_flat_grid_becomes_a_few_triangles_covering_the_same_square() {
    let mesh = cluster_map(&one_material(grid(16, flat, no_uv)), CLUSTER_TRIANGLES);
    assert_eq!((mesh.clusters.len(), mesh.indices.len() / 3), (1, 512));
    let mesh = with_levels(mesh, &[false]);
    assert_eq!(mesh.originals(), 1);
    let coarsest = mesh.levels[0].last().expect("a flat grid simplifies");
    let level = triangles(&mesh, coarsest.cluster);
    assert!(level.len() <= 512 / 16, "{} triangles", level.len());
    // (meshoptimizer's error for a flat square is not quite 0, but within the bounds.)
    let bound = 2f32.sqrt() * FIRST_ERROR * ERROR_STEP.powi(MAX_LEVELS as i32 - 1);
    assert!(coarsest.error <= bound, "error {}", coarsest.error);
    assert!(level.iter().flatten().all(|p| p.y == 0.0));
    // The same square, once over: no hole, no overlap.
    let covered: f32 = level.iter().map(area).sum();
    assert!((covered - 1.0).abs() < 1e-5, "area {covered}");
    // Drawn as a cluster of its own, with its own meshlets inside its box.
    let c = mesh.clusters[coarsest.cluster as usize];
    assert_eq!(c.count as usize, 3 * level.len());
    assert!(
        mesh.meshlets[c.meshlets()]
            .iter()
            .all(|m| { c.bounds.contains(m.bounds.min) && c.bounds.contains(m.bounds.max) })
    );
}

#[test]
fn each_level_is_coarser_and_lies_within_its_error_of_the_surface() {
    let original = cluster_map(&one_material(grid(32, bumpy, no_uv)), CLUSTER_TRIANGLES);
    let mesh = with_levels(original.clone(), &[false]);
    let levels = &mesh.levels[0];
    assert!(levels.len() >= 2, "{levels:?}");
    let mut last = (original.indices.len() / 3, 0.0);
    for l in levels {
        let level = triangles(&mesh, l.cluster);
        assert!(level.len() as f32 <= KEEP_AT_MOST * last.0 as f32);
        assert!(l.error > last.1, "errors grow: {levels:?}");
        // Every corner of the sheet lies within the error the level says it has of the
        // level's surface (see also the next test).
        let worst = farthest_corner(&original, &level);
        assert!(
            worst <= f64::from(l.error) * (1.0 + 1e-6),
            "a corner {worst} from a level of error {}",
            l.error
        );
        last = (level.len(), l.error);
    }
    // Within the last level's bound (a fraction of the cluster's size).
    let size = mesh.clusters[0].bounds.size().length();
    let last_bound = size * FIRST_ERROR * ERROR_STEP.powi(MAX_LEVELS as i32 - 1);
    assert!(levels.iter().all(|l| l.error <= last_bound), "{levels:?}");
}

#[test]
fn neighbouring_clusters_keep_every_corner_they_share_at_every_level() {
    // The sheet cut into clusters of 128 triangles: cut lines through a connected surface.
    let mesh = with_levels(
        cluster_map(&one_material(grid(32, bumpy, no_uv)), 128),
        &[false],
    );
    let n = mesh.originals();
    assert!(n >= 8);
    let own: Vec<_> = (0..n as u32).map(|c| positions(&mesh, c)).collect();
    let mut simplified = 0;
    for c in 0..n {
        let shared: Vec<_> = own[c]
            .iter()
            .filter(|p| (0..n).any(|o| o != c && own[o].contains(*p)))
            .collect();
        assert!(!shared.is_empty());
        for l in &mesh.levels[c] {
            simplified += 1;
            let kept = positions(&mesh, l.cluster);
            let lost = shared.iter().filter(|p| !kept.contains(**p)).count();
            assert_eq!(
                lost, 0,
                "cluster {c}'s level lost {lost} shared corners: a crack"
            );
        }
    }
    assert!(simplified >= n / 2, "only {simplified} levels");
}

#[test]
fn a_textures_seam_stays_where_it_is() {
    // Two halves of a flat square, each with its own part of a texture: the same
    // corners along u = 0.5, different texture coordinates.
    let vertices: Vec<Vertex> = grid(16, flat, no_uv)
        .chunks_exact(3)
        .flat_map(|t| {
            // A triangle's side of the seam: its centre's; the right half's texture
            // coordinates 8 along.
            let right = t.iter().map(|v| v.position[0]).sum::<f32>() / 3.0 > 0.5;
            let shift = if right { 8.0 } else { 0.0 };
            t.iter()
                .map(|v| Vertex {
                    uv: [v.position[0] + shift, v.position[2]],
                    ..*v
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let textured = with_levels(
        cluster_map(&one_material(vertices.clone()), CLUSTER_TRIANGLES),
        &[true],
    );
    let level = textured.levels[0].last().expect("each half simplifies");
    let c = textured.clusters[level.cluster as usize];
    let corners = &textured.indices[c.first as usize..][..c.count as usize];
    for t in corners.chunks_exact(3) {
        let v = [t[0], t[1], t[2]].map(|i| textured.vertices[i as usize]);
        let right = v.iter().filter(|v| v.uv[0] >= 8.0).count();
        assert!(
            right == 0 || right == 3,
            "a triangle across the seam: {v:?}"
        );
        for v in v {
            // Each corner's texture coordinates are its own place's.
            let u = if v.uv[0] >= 8.0 {
                v.uv[0] - 8.0
            } else {
                v.uv[0]
            };
            assert_eq!([u, v.uv[1]], [v.position[0], v.position[2]]);
        }
    }
    // Every corner of the seam is kept (the halves meet without a crack).
    let kept = positions(&textured, level.cluster);
    for k in 0..=16 {
        let p = [0.5f32, 0.0, k as f32 / 16.0].map(f32::to_bits);
        assert!(kept.contains(&p), "seam corner {k} lost");
    }
    // Untextured, the same square needs no seam and simplifies further.
    let plain = with_levels(
        cluster_map(&one_material(vertices), CLUSTER_TRIANGLES),
        &[false],
    );
    let plain_level = plain.levels[0].last().unwrap();
    assert!(plain.clusters[plain_level.cluster as usize].count < c.count);
}

/// A floor of corners without normals (a file's faces without `vn`) meeting a slanted
/// wall whose corners have their own: a simplified corner on the edge took the wall's
/// normal, flat corners scoring as aligned with no face, and lit whole floor
/// triangles as the wall.
#[test]
fn flat_corners_beside_a_wall_with_normals_keep_the_flat_normal() {
    let mut vertices = grid(8, flat, no_uv);
    for v in &mut vertices {
        v.normal = FLAT_NORMAL;
    }
    vertices.extend(grid(8, |u, v| Vec3::new(u, v, -0.3 * v), no_uv));
    let mesh = with_levels(
        cluster_map(&one_material(vertices), CLUSTER_TRIANGLES),
        &[false],
    );
    let level = mesh.levels[0].last().expect("both simplify");
    let c = mesh.clusters[level.cluster as usize];
    for t in mesh.indices[c.first as usize..][..c.count as usize].chunks_exact(3) {
        let v = [t[0], t[1], t[2]].map(|i| mesh.vertices[i as usize]);
        let p = v.map(|v| Vec3::from(v.position));
        let face = (p[1] - p[0]).cross(p[2] - p[0]).normalize();
        for v in v {
            let n = Vec3::from(v.normal);
            assert!(
                n == Vec3::ZERO || n.dot(face).abs() > 0.999,
                "a corner lit as another face: {v:?} on {face}"
            );
        }
    }
}

#[test]
fn faceted_corners_keep_their_own_faces_normals() {
    // A floor and a wall meeting at an edge, each finely cut, each corner with its own
    // face's normal: at the edge two vertices share each position.
    let mut vertices = grid(8, flat, no_uv);
    vertices.extend(grid(8, |u, v| Vec3::new(u, v, 0.0), no_uv));
    let mesh = with_levels(
        cluster_map(&one_material(vertices), CLUSTER_TRIANGLES),
        &[false],
    );
    let level = mesh.levels[0].last().expect("both simplify");
    let c = mesh.clusters[level.cluster as usize];
    assert!(c.count < 3 * 64, "{} indices", c.count);
    for t in mesh.indices[c.first as usize..][..c.count as usize].chunks_exact(3) {
        let v = [t[0], t[1], t[2]].map(|i| mesh.vertices[i as usize]);
        let p = v.map(|v| Vec3::from(v.position));
        let face = (p[1] - p[0]).cross(p[2] - p[0]).normalize();
        for v in v {
            let along = Vec3::from(v.normal).dot(face).abs();
            assert!(
                along > 0.999,
                "a corner lit as another face: {v:?} on {face}"
            );
        }
    }
}

/// A box whose six faces are each cut into `n` x `n` quads, wound outward, corners
/// shared along its edges (a closed surface).
fn fine_box(n: usize, size: f32) -> Vec<Vertex> {
    let mut out = Vec::new();
    // Each face of the 12-triangle box, its quad's corners in its winding.
    for t in cube(Vec3::ZERO, Vec3::splat(size)).chunks_exact(6) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|v| Vec3::from(v.position));
        let d = Vec3::from(t[5].position);
        // The quad a, b, c, d: its triangles (a, b, c) and (a, c, d).
        debug_assert_eq!(Vec3::from(t[3].position), a);
        let at = |u: f32, v: f32| a + (b - a) * u + (d - a) * v;
        let face = grid(n, at, no_uv);
        // grid winds counter-clockwise seen from +y of its own (u, v) frame: here
        // (b - a) x (d - a), the box's winding turned; turn it back.
        out.extend(face.chunks_exact(3).flat_map(|t| [t[0], t[2], t[1]]));
        let _ = c;
    }
    out
}

fn signed_volume(ts: &[[Vec3; 3]]) -> f32 {
    ts.iter().map(|t| t[0].dot(t[1].cross(t[2]))).sum::<f32>() / 6.0
}

#[test]
fn a_closed_solids_level_is_closed_outward_and_culled_from_outside() {
    let vertices = fine_box(6, 2.0);
    let mesh = cluster_map(&one_material(vertices), CLUSTER_TRIANGLES);
    assert!(
        mesh.clusters[0].closed.is_some(),
        "the fine box is found closed"
    );
    let full = signed_volume(&triangles(&mesh, 0));
    assert!((full.abs() - 8.0).abs() < 1e-3, "volume {full}");
    let mesh = with_levels(mesh, &[false]);
    let level = mesh.levels[0].last().expect("flat faces simplify");
    let ts = triangles(&mesh, level.cluster);
    assert!(ts.len() < 6 * 6 * 2 / 4, "{} triangles", ts.len());
    // The same box, wound the same way round.
    assert!((signed_volume(&ts) - full).abs() < 1e-3);
    // Closed: every edge met by exactly one triangle each way.
    let corners: Vec<Vertex> = ts.iter().flatten().map(|p| vertex(*p)).collect();
    let solids = closed_solids(corners.as_slice());
    assert_eq!(solids.count, 1);
    assert!(solids.of_triangle.iter().all(|&s| s == 0));
    // Its meshlets cull back faces from outside the box, and not from inside it.
    let c = mesh.clusters[level.cluster as usize];
    assert!(c.closed.is_some());
    for m in c.meshlets() {
        assert!(mesh.meshlet_hides_back_faces(m, Vec3::new(-5.0, 1.0, 1.0), 0.01));
        assert!(!mesh.meshlet_hides_back_faces(m, Vec3::splat(1.0), 0.01));
    }
}

#[test]
fn clusters_meeting_at_minus_zero_and_zero_keep_the_corners_they_share() {
    // A sheet from x = -1 to 1 cut at x = 0 into two clusters, the left one's corners on
    // the cut written -0 (a file may): the same places, so still shared and kept.
    let sheet = grid(
        32,
        |u, v| Vec3::new(2.0 * u - 1.0, 0.1 * (4.0 * v).sin(), v),
        no_uv,
    );
    let vertices: Vec<Vertex> = sheet
        .chunks_exact(3)
        .flat_map(|t| {
            let left = t.iter().map(|v| v.position[0]).sum::<f32>() < 0.0;
            t.iter()
                .map(|v| {
                    let mut v = *v;
                    if left && v.position[0] == 0.0 {
                        v.position[0] = -0.0;
                    }
                    v
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let mesh = with_levels(cluster_map(&one_material(vertices), 1024), &[false]);
    assert_eq!(mesh.originals(), 2);
    for c in 0..2u32 {
        assert!(
            !mesh.levels[c as usize].is_empty(),
            "cluster {c} simplifies"
        );
        for l in &mesh.levels[c as usize] {
            let on_the_cut = triangles(&mesh, l.cluster)
                .iter()
                .flatten()
                .filter(|p| p.x == 0.0)
                .map(|p| p.z.to_bits())
                .collect::<std::collections::HashSet<_>>();
            assert_eq!(on_the_cut.len(), 33, "cluster {c} lost corners of the cut");
        }
    }
}
