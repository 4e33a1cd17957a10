use super::*;
use crate::cull::fixtures::{cube, one_material, scrambled_grid, strip, turned, vertex};

#[test]
fn every_triangle_lands_in_one_cluster_and_shared_corners_are_one_vertex() {
    let map = strip(100);
    let mesh = cluster_map(&map, 16);
    assert_eq!(mesh.indices.len(), 600);
    // 101 x 2 distinct corners instead of 600 copies, plus a copy of those on the
    // borders between clusters.
    let borders = 2 * (mesh.clusters.len() - 1);
    assert!(
        (202..=202 + borders).contains(&mesh.vertices.len()),
        "{} vertices",
        mesh.vertices.len()
    );
    assert_eq!(cluster_map(&map, 1000).vertices.len(), 202);
    assert!(mesh.clusters.iter().all(|c| c.count <= 16 * 3));
    let covered: u32 = mesh.clusters.iter().map(|c| c.count).sum();
    assert_eq!(covered, 600);
    // The same triangles: each drawn triangle's corners are one of the map's.
    let mut drawn: Vec<[i32; 3]> = mesh
        .indices
        .chunks(3)
        .map(|t| {
            let c = t.iter().map(|&i| mesh.vertices[i as usize].position);
            let s: Vec3 = c.map(Vec3::from).sum();
            (s * 100.0).round().as_ivec3().to_array()
        })
        .collect();
    let mut want: Vec<[i32; 3]> = map
        .triangles()
        .map(|t| {
            let s: Vec3 = t.iter().sum();
            (s * 100.0).round().as_ivec3().to_array()
        })
        .collect();
    drawn.sort_unstable();
    want.sort_unstable();
    assert_eq!(drawn, want);
}

#[test]
fn clusters_are_compact_in_space() {
    let mesh = cluster_map(&strip(100), 16);
    // 200 triangles in pieces of at most 16: 16 pieces, each at most 8 quads long (a
    // median split of a 100 m strip), none spanning the strip.
    assert_eq!(mesh.clusters.len(), 16);
    for c in &mesh.clusters {
        assert!(c.bounds.size().x <= 8.0, "{:?}", c.bounds);
        assert_eq!(c.material, 0);
        assert!(!c.cutout);
    }
}

#[test]
fn meshlets_tile_each_cluster_and_are_compact_in_space() {
    let mesh = cluster_map(&strip(3000), CLUSTER_TRIANGLES);
    assert_eq!(mesh.clusters.len(), 4);
    let mut meshlets = 0;
    for c in &mesh.clusters {
        let mut next = c.first;
        for m in &mesh.meshlets[c.meshlets()] {
            assert_eq!(m.first, next, "meshlets follow each other");
            // Halves of pieces over the limit: between half of it and all of it.
            let triangles = m.count as usize / 3;
            assert!((MESHLET_TRIANGLES / 2..=MESHLET_TRIANGLES).contains(&triangles));
            next += m.count;
            // A median split of a strip: a run of quads, two triangles each.
            let quads = triangles.div_ceil(2) as f32;
            assert!(m.bounds.size().x <= quads + 1.0, "{:?}", m.bounds);
            for &i in &mesh.indices[m.first as usize..(m.first + m.count) as usize] {
                let p = Vec3::from(mesh.vertices[i as usize].position);
                assert!(m.bounds.inflated(1e-6).contains(p));
                assert!(c.bounds.inflated(1e-6).contains(p));
            }
        }
        assert_eq!(next, c.first + c.count, "and cover the cluster");
        meshlets += c.meshlet_count;
    }
    assert_eq!(meshlets as usize, mesh.meshlets.len());
    assert!(mesh.meshlets.len() >= 6000 / MESHLET_TRIANGLES);
}

#[test]
fn closed_solids_get_clusters_of_their_own_wound_outward_and_back_faces_hide_from_outside() {
    // An outward cube, an inward one, and a single wall between them: one material.
    let mut v = cube(Vec3::ZERO, Vec3::ONE);
    v.extend(turned(&cube(Vec3::splat(3.0), Vec3::splat(4.0))));
    let wall = [(1.5, 0.0), (2.5, 0.0), (2.5, 1.0), (1.5, 1.0)];
    v.extend([0, 1, 2, 0, 2, 3].map(|i| vertex(Vec3::new(wall[i].0, wall[i].1, 0.5))));
    let mut mesh = cluster_map(&one_material(v), CLUSTER_TRIANGLES);
    assert_eq!(mesh.clusters.len(), 2);
    let closed = mesh.clusters.iter().find(|c| c.closed.is_some()).unwrap();
    let open = mesh.clusters.iter().find(|c| c.closed.is_none()).unwrap();
    assert_eq!((closed.count / 3, open.count / 3), (24, 2));
    let b = closed.closed.unwrap();
    assert_eq!((b.min, b.max), (Vec3::ZERO, Vec3::splat(4.0)));
    // Every triangle of the closed cluster faces away from its cube's centre: the
    // inward cube was turned.
    let idx = &mesh.indices[closed.first as usize..(closed.first + closed.count) as usize];
    for t in idx.chunks_exact(3) {
        let p = |k: usize| Vec3::from(mesh.vertices[t[k] as usize].position);
        let centre = if p(0).x < 2.0 {
            Vec3::splat(0.5)
        } else {
            Vec3::splat(3.5)
        };
        let n = (p(1) - p(0)).cross(p(2) - p(0));
        assert!(n.dot(p(0) - centre) > 0.0, "{:?}", [p(0), p(1), p(2)]);
    }
    // Back faces hide from an eye outside the solids' box by more than the near
    // plane's reach; not from inside it, nor nearer; never for the open wall.
    let (outside, inside) = (Vec3::new(10.0, 0.5, 0.5), Vec3::new(2.0, 2.0, 2.0));
    assert!(closed.hides_back_faces(outside, 0.02));
    assert!(!closed.hides_back_faces(inside, 0.02));
    assert!(!closed.hides_back_faces(Vec3::new(4.01, 0.5, 0.5), 0.02));
    assert!(closed.hides_back_faces(Vec3::new(4.03, 0.5, 0.5), 0.02));
    assert!(!open.hides_back_faces(outside, 0.02));
    // Scaled with the map, the box too.
    mesh.scale_by(2.0);
    let closed = mesh.clusters.iter().find(|c| c.closed.is_some()).unwrap();
    assert_eq!(closed.closed.unwrap().max, Vec3::splat(8.0));
}

#[test]
fn a_map_without_triangles_has_no_clusters() {
    let mesh = cluster_map(&Map::default(), CLUSTER_TRIANGLES);
    assert!(mesh.clusters.is_empty() && mesh.indices.is_empty());
}

#[test]
fn meshlets_keep_neighbouring_triangles_together_for_the_vertex_cache_and_their_winding() {
    let map = scrambled_grid(40);
    let mesh = cluster_map(&map, 4000);
    assert_eq!(mesh.clusters.len(), 1);
    let c = mesh.clusters[0];
    let acmr = |indices: &[u32]| {
        meshopt::analyze_vertex_cache(indices, c.vertex_count as usize, 16, 0, 0).acmr
    };
    // The same cluster in the scrambled order it was read in: each corner once.
    let mut seen = FxHashMap::default();
    let scrambled: Vec<u32> = map
        .vertices
        .iter()
        .map(|v| {
            let next = seen.len() as u32;
            *seen.entry(bits(&v)).or_insert(next)
        })
        .collect();
    let (before, after) = (acmr(&scrambled), acmr(&mesh.indices));
    // Split into meshlets, the triangles come out near their neighbours: each meshlet's
    // vertices are transformed about once (0.92 a triangle for 32-triangle pieces of a
    // grid; a 16-entry cache then keeps some of them for the next, and a whole grid's
    // best is about 0.6). Scrambled, about 2.9.
    let least: usize = mesh
        .meshlets
        .iter()
        .map(|m| {
            let mut v = mesh.indices[m.first as usize..(m.first + m.count) as usize].to_vec();
            v.sort_unstable();
            v.dedup();
            v.len()
        })
        .sum();
    let least = least as f32 / (mesh.indices.len() / 3) as f32;
    assert!(before > 2.0, "scrambled {before}");
    assert!(after <= 1.1 * least, "ordered {after}, at best {least}");
    // Every index stays in the cluster's own vertices, and every triangle still faces
    // as it did (the grid's triangles all face -y by their winding).
    let range = c.first_vertex..c.first_vertex + c.vertex_count;
    assert!(mesh.indices.iter().all(|i| range.contains(i)));
    for t in mesh.indices.chunks(3) {
        let p = |k: usize| Vec3::from(mesh.vertices[t[k] as usize].position);
        assert!((p(1) - p(0)).cross(p(2) - p(0)).y < 0.0);
    }
}

#[test]
fn the_mesh_is_the_same_on_one_thread_or_several() {
    // Groups taken in turn by the threads, put together in order: the same mesh.
    let map = scrambled_grid(60);
    let one = cluster_map_on(&map, 64, 1);
    assert!(one.clusters.len() > 3 * GROUPS_PER_THREAD);
    for threads in [2, 3, BUILD_THREADS] {
        assert!(
            cluster_map_on(&map, 64, threads) == one,
            "{threads} threads"
        );
    }
    // However the threads finish: the groups' meshes put together in their order.
    let (a, b) = (strip(40), strip(60));
    let parts = |order: [usize; 2]| {
        let maps = [&a, &b];
        order.map(|g| (g, cluster_map_on(maps[g], 16, 1))).to_vec()
    };
    let in_order = put_together(parts([0, 1]));
    assert!(put_together(parts([1, 0])) == in_order);
    assert_eq!(in_order.clusters[0], cluster_map_on(&a, 16, 1).clusters[0]);
    assert_eq!(in_order.indices.len(), (40 + 60) * 6);
}

#[test]
fn clusters_built_on_several_threads_keep_their_own_vertices() {
    let mesh = cluster_map(&strip(1000), 64);
    assert!(mesh.clusters.len() > 20);
    for c in &mesh.clusters {
        let own = c.first_vertex..c.first_vertex + c.vertex_count;
        let idx = &mesh.indices[c.first as usize..(c.first + c.count) as usize];
        assert!(idx.iter().all(|i| own.contains(i)), "{c:?}");
        // Each of its vertices is used (fetch order keeps none unused).
        let mut used = vec![false; c.vertex_count as usize];
        idx.iter()
            .for_each(|&i| used[(i - c.first_vertex) as usize] = true);
        assert!(used.iter().all(|u| *u));
    }
}
