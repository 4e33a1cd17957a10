use std::sync::Arc;

use super::*;
use crate::app::render::shadow::{self, ShadeGrid};
use walkthrough_core::cull::cluster_map;
use walkthrough_core::map::{Batch, Map, Material, Vertex};

/// Texels a side of the maps drawn here (the test's own rasterizer draws them).
const SIZE: usize = 256;

fn sun() -> Vec3 {
    Vec3::new(-0.4, -1.0, -0.3).normalize()
}

/// A mesh of `quads` (each four corners in order, two triangles, flat), one material.
fn mesh(quads: &[[Vec3; 4]]) -> ClusteredMesh {
    let v = |p: Vec3| Vertex {
        position: p.into(),
        normal: [0.0; 3],
        uv: [0.0; 2],
    };
    let vertices: Vec<Vertex> = quads
        .iter()
        .flat_map(|[a, b, c, d]| [v(*a), v(*b), v(*c), v(*a), v(*c), v(*d)])
        .collect();
    let map = Map {
        batches: vec![Batch {
            material: 0,
            first: 0,
            count: vertices.len() as u32,
        }],
        vertices: vertices.into(),
        materials: vec![Material::default_grey()],
        ..Map::default()
    };
    cluster_map(&map, 4096)
}

/// A level quad at height `y` from (x0, z0) to (x1, z1).
fn level(y: f32, x0: f32, z0: f32, x1: f32, z1: f32) -> [Vec3; 4] {
    [
        Vec3::new(x0, y, z0),
        Vec3::new(x1, y, z0),
        Vec3::new(x1, y, z1),
        Vec3::new(x0, y, z1),
    ]
}

/// A wall at x = `x` from z0 to z1, from the floor (0) to `height`.
fn wall_x(x: f32, z0: f32, z1: f32, height: f32) -> [Vec3; 4] {
    [
        Vec3::new(x, 0.0, z0),
        Vec3::new(x, 0.0, z1),
        Vec3::new(x, height, z1),
        Vec3::new(x, height, z0),
    ]
}

/// The shade of every triangle of `m`, by number, with the owners drawn by brute force:
/// at each texel centre, the covering triangle nearest the sun (as the GL would, without
/// its depth bias).
fn shade_of(m: &ClusteredMesh) -> Vec<bool> {
    let bounds = Aabb::from_points(m.vertices.iter().map(|v| Vec3::from(v.position)));
    let fit = shadow::fit(bounds.center(), sun(), &bounds);
    let to_texture = fit.texture_matrix();
    let texel = |p: Vec3| {
        let t = to_texture.project_point3(p);
        Vec3::new(t.x * SIZE as f32 - 0.5, t.y * SIZE as f32 - 0.5, t.z)
    };
    let triangles: Vec<[Vec3; 3]> = m
        .indices
        .chunks_exact(3)
        .map(|t| std::array::from_fn(|k| texel(Vec3::from(m.vertices[t[k] as usize].position))))
        .collect();
    let mut owners = vec![0u32; SIZE * SIZE];
    let mut depth = vec![u32::MAX; SIZE * SIZE];
    for y in 0..SIZE {
        for x in 0..SIZE {
            let p = glam::Vec2::new(x as f32, y as f32);
            let mut nearest = f32::INFINITY;
            for (t, [a, b, c]) in triangles.iter().enumerate() {
                let (a2, b2, c2) = (a.truncate(), b.truncate(), c.truncate());
                let area = (b2 - a2).perp_dot(c2 - a2);
                if area.abs() < 1e-9 {
                    continue;
                }
                let (u, v) = (
                    (c2 - b2).perp_dot(p - b2) / area,
                    (a2 - c2).perp_dot(p - c2) / area,
                );
                let w = 1.0 - u - v;
                if u < 0.0 || v < 0.0 || w < 0.0 {
                    continue;
                }
                let z = u * a.z + v * b.z + w * c.z;
                if z < nearest {
                    nearest = z;
                    owners[y * SIZE + x] = t as u32 + 1;
                    depth[y * SIZE + x] = (f64::from(z) * f64::from(u32::MAX)) as u32;
                }
            }
        }
    }
    let grid = ShadeGrid::new(&depth, SIZE);
    let view = SunView {
        to_texture,
        owners: Owners {
            size: SIZE,
            texels: &owners,
        },
        coarse: grid.test(&fit),
        min_gap: SHADE_MIN_GAP * fit.depth_per_metre(),
    };
    let sets = shaded_triangles(m, &view, &[]);
    let mut shade = vec![false; m.indices.len() / 3];
    for (meshlet, set) in m.meshlets.iter().zip(&sets) {
        for k in 0..meshlet.count as usize / 3 {
            shade[meshlet.first as usize / 3 + k] = set & (1 << k) != 0;
        }
    }
    shade
}

/// The numbers of `m`'s triangles whose corners all satisfy `of`.
fn triangles_where(m: &ClusteredMesh, of: impl Fn(Vec3) -> bool) -> Vec<usize> {
    let found: Vec<usize> = (0..m.indices.len() / 3)
        .filter(|&t| {
            (0..3).all(|k| {
                of(Vec3::from(
                    m.vertices[m.indices[3 * t + k] as usize].position,
                ))
            })
        })
        .collect();
    assert!(!found.is_empty());
    found
}

#[test]
fn a_floor_under_a_roof_is_in_shade_and_the_roof_is_not() {
    let m = mesh(&[
        level(0.0, -2.0, -2.0, 2.0, 2.0),
        level(3.0, -5.0, -5.0, 5.0, 5.0),
    ]);
    let shade = shade_of(&m);
    for t in triangles_where(&m, |p| p.y == 0.0) {
        assert!(shade[t], "floor triangle {t}");
    }
    for t in triangles_where(&m, |p| p.y == 3.0) {
        assert!(!shade[t], "roof triangle {t}");
    }
}

#[test]
fn a_floor_reaching_out_from_under_its_roof_is_lit() {
    let m = mesh(&[
        level(0.0, -6.0, -6.0, 6.0, 6.0),
        level(3.0, -2.0, -2.0, 2.0, 2.0),
    ]);
    let shade = shade_of(&m);
    for t in triangles_where(&m, |p| p.y == 0.0) {
        assert!(!shade[t], "floor triangle {t}");
    }
}

#[test]
fn in_a_closed_room_the_wall_away_from_the_sun_is_in_shade_up_to_the_ceiling_it_touches() {
    // The sun travels towards -x and -z: the wall at x = -3 faces it from inside, the
    // one at x = 3 is seen by it from outside.
    let wall_z = |z: f32| {
        [
            Vec3::new(-3.0, 0.0, z),
            Vec3::new(3.0, 0.0, z),
            Vec3::new(3.0, 3.0, z),
            Vec3::new(-3.0, 3.0, z),
        ]
    };
    let m = mesh(&[
        level(0.0, -3.0, -3.0, 3.0, 3.0),
        level(3.0, -3.0, -3.0, 3.0, 3.0),
        wall_x(-3.0, -3.0, 3.0, 3.0),
        wall_x(3.0, -3.0, 3.0, 3.0),
        wall_z(-3.0),
        wall_z(3.0),
    ]);
    let shade = shade_of(&m);
    for t in triangles_where(&m, |p| p.x == -3.0) {
        assert!(shade[t], "far wall triangle {t}");
    }
    for t in triangles_where(&m, |p| p.x == 3.0) {
        assert!(!shade[t], "sunward wall triangle {t}");
    }
    for t in triangles_where(&m, |p| p.y == 0.0) {
        assert!(shade[t], "floor triangle {t}");
    }
}

#[test]
fn a_thin_sheet_just_above_a_sunlit_floor_is_lit_and_so_is_the_floor() {
    let m = mesh(&[
        level(0.0, -3.0, -3.0, 3.0, 3.0),
        level(0.0005, -1.0, -1.0, 1.0, 1.0),
    ]);
    let shade = shade_of(&m);
    assert!(shade.iter().all(|&s| !s), "{shade:?}");
}

#[test]
fn a_level_of_detail_is_in_shade_only_where_all_its_cluster_is() {
    let mut m = mesh(&[
        level(0.0, -2.0, -2.0, 2.0, 2.0),
        level(3.0, -5.0, -5.0, 5.0, 5.0),
    ]);
    // Each cluster given itself as its one level (a copy drawn far away).
    let originals = m.clusters.clone();
    let mut levels = Vec::new();
    for c in &originals {
        let mut copy = *c;
        copy.first_meshlet = m.meshlets.len() as u32;
        let first = m.indices.len() as u32;
        for k in c.meshlets() {
            let mut meshlet = m.meshlets[k];
            let from = meshlet.first as usize;
            meshlet.first = m.indices.len() as u32;
            m.indices
                .extend_from_within(from..from + meshlet.count as usize);
            m.meshlets.push(meshlet);
            m.solids_bounds.push(Aabb::EMPTY);
        }
        copy.first = first;
        levels.push(vec![walkthrough_core::cull::Level {
            cluster: m.clusters.len() as u32,
            error: 0.0,
        }]);
        m.clusters.push(copy);
    }
    m.levels = levels;
    let shade = shade_of(&m);
    let original_triangles = m.clusters[originals.len()].first as usize / 3;
    for (c, original) in originals.iter().enumerate() {
        let level = &m.clusters[m.levels[c][0].cluster as usize];
        let whole = |cl: &walkthrough_core::cull::Cluster| {
            (cl.first / 3..(cl.first + cl.count) / 3).all(|t| shade[t as usize])
        };
        assert_eq!(whole(level), whole(original), "cluster {c}");
        assert!(level.first as usize / 3 >= original_triangles);
    }
}

#[test]
fn only_triangles_without_normals_are_flat() {
    let mut m = mesh(&[level(0.0, -1.0, -1.0, 1.0, 1.0)]);
    let flat = flat_triangles(&m);
    assert_eq!(flat, vec![0b11]);
    // The second corner is the first triangle's only (the fourth the second's).
    Arc::make_mut(&mut m.vertices)[1].normal = [0.0, 1.0, 0.0];
    let flat = flat_triangles(&m);
    assert_eq!(flat, vec![0b10]);
}
