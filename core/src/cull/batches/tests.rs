use std::sync::Arc;

use super::*;
use crate::cull::clusters::{CLUSTER_TRIANGLES, MESHLET_TRIANGLES, cluster_map};
use crate::cull::fixtures::{cube, one_material};
use crate::map::Vertex;

/// `n` unit quads in a row along -z from z = 0, in clusters of `per_cluster`
/// triangles.
fn row(n: usize, per_cluster: usize) -> ClusteredMesh {
    let mut vertices = Vec::new();
    for i in 0..n {
        let z = -(i as f32);
        let v = |x: f32, z: f32| Vertex {
            position: [x, 0.0, z],
            normal: [0.0, 1.0, 0.0],
            uv: [0.0, 0.0],
        };
        let (a, b, c, d) = (v(0.0, z), v(1.0, z), v(1.0, z - 1.0), v(0.0, z - 1.0));
        vertices.extend([a, b, c, a, c, d]);
    }
    cluster_map(&one_material(vertices), per_cluster)
}

/// The z of the nearest corner of each triangle drawn, in drawing order.
fn drawn_z(b: &Batches, mesh: &ClusteredMesh) -> Vec<f32> {
    b.indices
        .chunks(3)
        .map(|t| {
            t.iter()
                .map(|&i| mesh.vertices[i as usize].position[2])
                .fold(f32::MIN, f32::max)
        })
        .collect()
}

/// Every meshlet of `order`'s clusters, whole.
fn pick_all(b: &mut Batches, mesh: &ClusteredMesh, order: &[u32], eye: Vec3) {
    b.clear();
    for (rank, &c) in order.iter().enumerate() {
        for m in mesh.clusters[c as usize].meshlets() {
            let meshlet = &mesh.meshlets[m];
            b.pick(rank, c, m, meshlet, eye, meshlet.all_triangles());
        }
    }
    b.finish(mesh, eye, 0.01);
}

#[test]
fn a_cluster_is_one_draw_its_meshlets_nearest_first_in_the_clusters_order() {
    let mesh = row(400, 256);
    let clusters = mesh.clusters.len() as u32;
    assert!(clusters >= 4 && mesh.meshlets.len() > 20);
    let mut b = Batches::default();
    // From the near end, clusters in reverse order (as a caller might rank them).
    let order: Vec<u32> = (0..clusters).rev().collect();
    pick_all(&mut b, &mesh, &order, Vec3::new(0.5, 1.0, 0.5));
    assert_eq!(b.draws.len(), clusters as usize);
    assert_eq!(b.triangles(), 800);
    let mut next = 0;
    for (d, &c) in b.draws.iter().zip(&order) {
        // The draws tile the list, a cluster each, in the order given.
        assert_eq!(d.first, next);
        next += d.count;
        let c = &mesh.clusters[c as usize];
        assert_eq!(d.count, c.count);
        let own = c.first_vertex..c.first_vertex + c.vertex_count;
        let run = &b.indices[d.first as usize..(d.first + d.count) as usize];
        assert!(run.iter().all(|i| own.contains(i)));
        // Within it, the nearest meshlet first: seen from z = 0.5, z falls.
        let z = drawn_z(
            &Batches {
                indices: run.to_vec(),
                ..Batches::default()
            },
            &mesh,
        );
        let firsts: Vec<f32> = z.chunks(MESHLET_TRIANGLES).map(|c| c[0]).collect();
        assert!(firsts.windows(2).all(|w| w[0] >= w[1]), "{firsts:?}");
    }
    assert_eq!(next as usize, b.indices.len());
    // Picked meshlets are reported in drawing order.
    let first = b.meshlets().next().unwrap();
    let m = &mesh.meshlets[first];
    assert_eq!(
        &b.indices[..m.count as usize],
        &mesh.indices[m.first as usize..(m.first + m.count) as usize]
    );
}

#[test]
fn a_closed_solids_draw_culls_back_faces_only_seen_from_outside_its_box() {
    let mesh = cluster_map(
        &one_material(cube(Vec3::ZERO, Vec3::ONE)),
        CLUSTER_TRIANGLES,
    );
    assert!(mesh.clusters[0].closed.is_some());
    let mut b = Batches::default();
    for (eye, culled) in [(Vec3::new(0.5, 0.5, 5.0), true), (Vec3::splat(0.5), false)] {
        pick_all(&mut b, &mesh, &[0], eye);
        assert_eq!(b.draws.len(), 1);
        assert_eq!(b.draws[0].cull_back_faces, culled, "from {eye}");
    }
}

#[test]
fn within_a_cluster_only_the_solids_around_the_eye_are_drawn_with_their_back_faces() {
    // Four cubes in a row along x, one cluster of two meshlets (two cubes each): the
    // eye in the first cube's box.
    let mut v = Vec::new();
    for x in [0.0, 10.0, 20.0, 30.0] {
        v.extend(cube(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)));
    }
    let mesh = cluster_map(&one_material(v), CLUSTER_TRIANGLES);
    assert_eq!((mesh.clusters.len(), mesh.meshlets.len()), (1, 2));
    let mut b = Batches::default();
    let drawn = |b: &Batches| -> Vec<(bool, u32)> {
        b.draws
            .iter()
            .map(|d| (d.cull_back_faces, d.count / 3))
            .collect()
    };
    pick_all(&mut b, &mesh, &[0], Vec3::new(0.5, 0.5, 0.5));
    // Nearest first: the meshlet around the eye two-sided, then the other culled.
    assert_eq!(drawn(&b), vec![(false, 24), (true, 24)]);
    // From outside all of them: one draw, culled.
    pick_all(&mut b, &mesh, &[0], Vec3::new(15.5, 5.0, 0.5));
    assert_eq!(drawn(&b), vec![(true, 48)]);
}

#[test]
fn only_the_triangles_picked_are_drawn() {
    let mesh = row(16, 32);
    assert_eq!(mesh.meshlets.len(), 1);
    let m = &mesh.meshlets[0];
    assert_eq!(m.all_triangles(), u32::MAX);
    let mut b = Batches::default();
    b.clear();
    // Its 1st, 4th and 32nd triangles.
    b.pick(0, 0, 0, m, Vec3::ZERO, 1 | 1 << 3 | 1 << 31);
    b.finish(&mesh, Vec3::ZERO, 0.01);
    let at = |k: usize| &mesh.indices[3 * k..3 * k + 3];
    let want: Vec<u32> = [0, 3, 31].iter().flat_map(|&k| at(k).to_vec()).collect();
    assert_eq!(b.indices, want);
    assert_eq!(b.draws.len(), 1);
    assert_eq!(b.draws[0].count, 9);
    // None of them: not picked at all.
    b.clear();
    b.pick(0, 0, 0, m, Vec3::ZERO, 0);
    b.finish(&mesh, Vec3::ZERO, 0.01);
    assert!(b.is_empty() && b.draws.is_empty() && b.indices.is_empty());
}

#[test]
fn triangles_known_in_shade_are_drawn_first_in_a_draw_of_their_own() {
    let mesh = row(40, 256);
    let order: Vec<u32> = (0..mesh.clusters.len() as u32).collect();
    let eye = Vec3::new(0.5, 1.0, 0.5);
    let mut b = Batches::default();
    pick_all(&mut b, &mesh, &order, eye);
    let (draws, triangles) = (b.draws.len(), b.triangles());
    assert!(b.draws.iter().all(|d| !d.in_shade));
    // The first cluster's first meshlet wholly in shade, and one triangle of its second.
    let first = mesh.clusters[0].first_meshlet as usize;
    let mut in_shade = vec![0; mesh.meshlets.len()];
    in_shade[first] = mesh.meshlets[first].all_triangles();
    in_shade[first + 1] = 0b100;
    b.shade = Arc::new(SunShade {
        in_shade,
        ..SunShade::default()
    });
    pick_all(&mut b, &mesh, &order, eye);
    assert_eq!(b.triangles(), triangles);
    assert_eq!(b.draws.len(), draws + 1);
    let shaded = mesh.meshlets[first].count / 3 + 1;
    assert!(b.draws[0].in_shade);
    assert_eq!(b.draws[0].count, 3 * shaded);
    assert!(!b.draws[1].in_shade);
    assert_eq!(b.draws[0].count + b.draws[1].count, mesh.clusters[0].count);
}

#[test]
fn flat_triangles_seen_from_the_side_away_from_the_sun_are_drawn_without_the_lookup() {
    let mesh = row(40, 256);
    let order: Vec<u32> = (0..mesh.clusters.len() as u32).collect();
    let mut b = Batches {
        shade: Arc::new(SunShade {
            flat: mesh.meshlets.iter().map(|m| m.all_triangles()).collect(),
            sun: Vec3::new(0.3, -1.0, 0.2).normalize(),
            ..SunShade::default()
        }),
        ..Batches::default()
    };
    // From below the floor (the sun is above it): none of its light on the seen side.
    pick_all(&mut b, &mesh, &order, Vec3::new(0.5, -1.0, 0.5));
    assert!(b.draws.iter().all(|d| d.in_shade));
    assert_eq!(b.triangles(), 80);
    // From above: every triangle may be sunlit.
    pick_all(&mut b, &mesh, &order, Vec3::new(0.5, 1.0, 0.5));
    assert!(b.draws.iter().all(|d| !d.in_shade));
    // Not flat: the vertex normals light it, whichever side is seen.
    b.shade = Arc::new(SunShade {
        sun: Vec3::new(0.3, -1.0, 0.2).normalize(),
        ..SunShade::default()
    });
    pick_all(&mut b, &mesh, &order, Vec3::new(0.5, -1.0, 0.5));
    assert!(b.draws.iter().all(|d| !d.in_shade));
}
