use glam::Vec3;

use super::*;
use crate::cull::clusters::cluster_map;
use crate::cull::fixtures::one_material;
use crate::map::Vertex;
use crate::test_kit::boxes::cube;

/// A flat vertex (its face's normal) at `p`.
fn flat(p: Vec3) -> Vertex {
    Vertex {
        position: p.into(),
        normal: [0.0; 3],
        uv: [0.0; 2],
    }
}

/// A floor at height 0 from `-half` to `half` on x and z, in squares `step` wide (two
/// triangles each, wound to face up).
fn floor(half: f32, step: f32) -> Vec<[Vec3; 3]> {
    let n = (2.0 * half / step).round() as usize;
    let at = |i: usize, j: usize| Vec3::new(-half + i as f32 * step, 0.0, -half + j as f32 * step);
    let mut tris = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            tris.extend([[a, c, b], [a, d, c]]);
        }
    }
    tris
}

/// The baked light of the mesh made of `tris`, and the mesh, on `threads` threads.
fn baked(tris: &[[Vec3; 3]], threads: usize) -> (ClusteredMesh, Ambient) {
    let vertices = tris.iter().flatten().map(|&p| flat(p)).collect();
    let mesh = cluster_map(&one_material(vertices), 256);
    let ambient = bake(&mesh, threads, &|| true).expect("baked");
    (mesh, ambient)
}

/// The light of the vertex at `p` (every copy of it agrees within `within`).
fn light_at(mesh: &ClusteredMesh, ambient: &Ambient, p: Vec3) -> u8 {
    let lights: Vec<u8> = mesh
        .vertices
        .iter()
        .zip(&ambient.light)
        .filter(|(v, _)| Vec3::from(v.position).distance(p) < 1e-4)
        .map(|(_, &l)| l)
        .collect();
    assert!(!lights.is_empty(), "no vertex at {p}");
    *lights.iter().min().unwrap()
}

#[test]
fn an_open_floor_keeps_all_its_light() {
    let (mesh, ambient) = baked(&floor(2.0, 0.5), 1);
    assert_eq!(ambient.light.len(), mesh.vertices.len());
    assert!(
        ambient.light.iter().all(|&l| l == 255),
        "{:?}",
        ambient.light
    );
}

#[test]
fn a_box_on_a_floor_darkens_the_floor_at_its_foot_and_its_own_foot() {
    let mut tris = floor(3.0, 0.25);
    // A 1 m box standing on the floor (its faces wound inward: both sides count).
    tris.extend(cube(Vec3::new(-0.5, 0.0, -0.5), Vec3::new(0.5, 1.0, 0.5)));
    let (mesh, ambient) = baked(&tris, 2);
    let foot = light_at(&mesh, &ambient, Vec3::new(0.75, 0.0, 0.0));
    let away = light_at(&mesh, &ambient, Vec3::new(2.5, 0.0, 2.5));
    assert_eq!(away, 255, "the floor 2 m from the box");
    assert!(foot < 200, "the floor a quarter metre from the box: {foot}");
    let nearer = light_at(&mesh, &ambient, Vec3::new(0.75, 0.0, 0.75));
    let farther = light_at(&mesh, &ambient, Vec3::new(1.25, 0.0, 0.0));
    assert!(foot < farther && farther < 255, "{foot} {farther}");
    assert!(nearer < 255, "{nearer}");
    // The box's own corners: the bottom ones (on the floor) darker than the top ones.
    let bottom = light_at(&mesh, &ambient, Vec3::new(0.5, 0.0, 0.5));
    let top = light_at(&mesh, &ambient, Vec3::new(0.5, 1.0, 0.5));
    assert!(bottom + 40 < top, "{bottom} {top}");
}

#[test]
fn a_corner_where_a_wall_meets_the_floor_darkens() {
    let mut tris = floor(2.0, 0.5);
    // A wall at x = 2, 2 m high, in 0.5 m squares.
    let at = |j: usize, k: usize| Vec3::new(2.0, k as f32 * 0.5, -2.0 + j as f32 * 0.5);
    for j in 0..8 {
        for k in 0..4 {
            let (a, b, c, d) = (at(j, k), at(j + 1, k), at(j + 1, k + 1), at(j, k + 1));
            tris.extend([[a, b, c], [a, c, d]]);
        }
    }
    let (mesh, ambient) = baked(&tris, 1);
    let corner = light_at(&mesh, &ambient, Vec3::new(2.0, 0.0, 0.0));
    let wall_top = light_at(&mesh, &ambient, Vec3::new(2.0, 2.0, 0.0));
    let middle = light_at(&mesh, &ambient, Vec3::new(0.0, 0.0, 0.0));
    assert_eq!(middle, 255, "the floor 2 m from the wall");
    assert!(corner < 230, "the wall's foot: {corner}");
    assert!(corner < wall_top, "{corner} {wall_top}");
}

#[test]
fn a_room_of_big_faces_keeps_its_light() {
    // A 10 m room of two triangles a face: a corner's darkness would spread over whole
    // walls, so none is kept.
    let room = cube(Vec3::ZERO, Vec3::splat(10.0));
    let (_, ambient) = baked(&room, 1);
    assert!(
        ambient.light.iter().all(|&l| l == 255),
        "{:?}",
        ambient.light
    );
}

#[test]
fn the_bake_is_the_same_on_any_number_of_threads() {
    let mut tris = floor(2.0, 0.25);
    tris.extend(cube(Vec3::new(-0.3, 0.0, -0.3), Vec3::new(0.3, 0.6, 0.3)));
    let (_, one) = baked(&tris, 1);
    let (_, three) = baked(&tris, 3);
    assert_eq!(one, three);
    assert!(one.light.iter().any(|&l| l < 255));
}

#[test]
fn a_bake_no_longer_wanted_gives_nothing() {
    let vertices = floor(2.0, 0.25)
        .iter()
        .flatten()
        .map(|&p| flat(p))
        .collect();
    let mesh = cluster_map(&one_material(vertices), 256);
    assert_eq!(bake(&mesh, 2, &|| false), Err(NotBaked::NotWanted));
}

#[test]
fn the_rays_spread_over_the_hemisphere_by_the_cosine() {
    let rays = hemisphere();
    for r in rays {
        assert!((r.length() - 1.0).abs() < 1e-5 && r.z > 0.0, "{r}");
    }
    // Spread by the cosine, the mean height of a ray is 2/3 and the mean across is zero.
    let mean = rays.iter().sum::<Vec3>() / AMBIENT_RAYS as f32;
    assert!((mean.z - 2.0 / 3.0).abs() < 0.02, "{mean}");
    assert!(mean.truncate().length() < 0.05, "{mean}");
}
