//! Meshes, maps and depth buffers the culling's tests are made of: boxes and sheets of
//! triangles, a map in one material, a camera and a wall of depth.

use glam::{Mat4, UVec2, Vec3};

use super::batches::Batches;
use super::clusters::{ClusteredMesh, cluster_map};
use super::lod::{Levels, simplify_clusters};
use super::occlusion::Occlusion;
use super::pyramid::DepthPyramid;
use super::view::View;
use crate::geometry::closest_point;
use crate::map::{Batch, Map, Material, Vertex};

/// A vertex at `p`.
pub(crate) fn vertex(p: Vec3) -> Vertex {
    Vertex {
        position: p.into(),
        normal: [0.0, 1.0, 0.0],
        uv: [0.0, 0.0],
    }
}

/// The twelve triangles of a box from `min` to `max`, wound counter-clockwise seen
/// from outside (outward), each corner its own vertex.
pub(crate) fn cube(min: Vec3, max: Vec3) -> Vec<Vertex> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 != 0 { max.x } else { min.x },
            if i & 2 != 0 { max.y } else { min.y },
            if i & 4 != 0 { max.z } else { min.z },
        )
    };
    // Faces as quads of corner numbers, counter-clockwise from outside.
    let quads = [
        [0, 4, 6, 2], // -x
        [1, 3, 7, 5], // +x
        [0, 1, 5, 4], // -y
        [2, 6, 7, 3], // +y
        [0, 2, 3, 1], // -z
        [4, 5, 7, 6], // +z
    ];
    quads
        .iter()
        .flat_map(|q| [q[0], q[1], q[2], q[0], q[2], q[3]])
        .map(|i| vertex(c(i)))
        .collect()
}

/// `vertices`' triangles wound the other way.
pub(crate) fn turned(vertices: &[Vertex]) -> Vec<Vertex> {
    vertices
        .chunks_exact(3)
        .flat_map(|t| [t[0], t[2], t[1]])
        .collect()
}

/// A map of `vertices` (three per triangle) in one grey material.
pub(crate) fn one_material(vertices: Vec<Vertex>) -> Map {
    Map {
        batches: vec![Batch {
            material: 0,
            first: 0,
            count: vertices.len() as u32,
        }],
        vertices: vertices.into(),
        materials: vec![Material::default_grey()],
        ..Map::default()
    }
}

/// A row of `n` unit quads along x (two triangles each, four shared corners), one
/// material.
pub(crate) fn strip(n: usize) -> Map {
    let mut vertices = Vec::new();
    for i in 0..n {
        let x = i as f32;
        let v = |x: f32, z: f32| vertex(Vec3::new(x, 0.0, z));
        let (a, b, c, d) = (v(x, 0.0), v(x + 1.0, 0.0), v(x + 1.0, 1.0), v(x, 1.0));
        vertices.extend([a, b, c, a, c, d]);
    }
    one_material(vertices)
}

/// A `n` x `n` grid of unit quads, its triangles in a scrambled order.
pub(crate) fn scrambled_grid(n: usize) -> Map {
    let v = |x: usize, z: usize| vertex(Vec3::new(x as f32, 0.0, z as f32));
    let mut triangles = Vec::new();
    for x in 0..n {
        for z in 0..n {
            let (a, b, c, d) = (v(x, z), v(x + 1, z), v(x + 1, z + 1), v(x, z + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    // A fixed scramble: step through them by a stride prime to their number.
    let count = triangles.len();
    let vertices: Vec<Vertex> = (0..count)
        .flat_map(|i| triangles[(i * 7919) % count])
        .collect();
    one_material(vertices)
}

/// An `n` x `n` grid of quads over the unit square, each corner's place `at(u, v)`, two
/// triangles a quad wound counter-clockwise seen from +y, each corner its own vertex
/// with its face's normal (faceted, as a file with a normal for each face is loaded) and
/// texture coordinates `uv(u, v)`.
pub(crate) fn grid(
    n: usize,
    at: impl Fn(f32, f32) -> Vec3,
    uv: impl Fn(f32, f32) -> [f32; 2],
) -> Vec<Vertex> {
    let mut out = Vec::new();
    let step = 1.0 / n as f32;
    for i in 0..n {
        for k in 0..n {
            let (u0, v0) = (i as f32 * step, k as f32 * step);
            let (u1, v1) = (u0 + step, v0 + step);
            for t in [
                [(u0, v0), (u0, v1), (u1, v1)],
                [(u0, v0), (u1, v1), (u1, v0)],
            ] {
                let p = t.map(|(u, v)| at(u, v));
                let normal = (p[1] - p[0]).cross(p[2] - p[0]).normalize().into();
                for (k, (u, v)) in t.into_iter().enumerate() {
                    out.push(Vertex {
                        position: p[k].into(),
                        normal,
                        uv: uv(u, v),
                    });
                }
            }
        }
    }
    out
}

/// The plane y = 0.
pub(crate) fn flat(u: f32, v: f32) -> Vec3 {
    Vec3::new(u, 0.0, v)
}

pub(crate) fn no_uv(_: f32, _: f32) -> [f32; 2] {
    [0.0; 2]
}

/// Cluster `c`'s triangles, as corner positions.
pub(crate) fn triangles(mesh: &ClusteredMesh, c: u32) -> Vec<[Vec3; 3]> {
    let c = &mesh.clusters[c as usize];
    mesh.indices[c.first as usize..][..c.count as usize]
        .chunks_exact(3)
        .map(|t| [0, 1, 2].map(|k| Vec3::from(mesh.vertices[t[k] as usize].position)))
        .collect()
}

/// A gently curved sheet 4 m across: what a chair's back is to a software rasterizer.
pub(crate) fn bumpy(u: f32, v: f32) -> Vec3 {
    Vec3::new(4.0 * u, 0.2 * (3.0 * u).sin() * (2.0 * v).cos(), 4.0 * v)
}

/// The test windows' side, pixels.
pub(crate) const SIDE: usize = 64;

/// Looking down -z from the origin, 90 degrees, square.
pub(crate) fn camera() -> (Mat4, Mat4) {
    let proj = Mat4::perspective_rh_gl(90f32.to_radians(), 1.0, 0.01, 1000.0);
    (Mat4::IDENTITY, proj)
}

/// The window depth of a point `distance` ahead under `proj`.
pub(crate) fn depth_at(proj: Mat4, distance: f32) -> f64 {
    let clip = proj.as_dmat4() * glam::DVec4::new(0.0, 0.0, -f64::from(distance), 1.0);
    (clip.z / clip.w + 1.0) * 0.5
}

/// Window depth `d` as the GL reads it back: 32-bit fixed point.
pub(crate) fn fixed(d: f64) -> u32 {
    (d * f64::from(u32::MAX)).round() as u32
}

/// A `SIDE` x `SIDE` pyramid: a wall `distance` ahead over the columns `x < wall_columns`,
/// sky elsewhere.
pub(crate) fn wall(distance: f32, wall_columns: usize) -> DepthPyramid {
    let (_, proj) = camera();
    let d = fixed(depth_at(proj, distance));
    let mut p = DepthPyramid::default();
    p.rebuild(SIDE, SIDE, |depth| {
        for (i, v) in depth.iter_mut().enumerate() {
            *v = if i % SIDE < wall_columns { d } else { u32::MAX };
        }
    });
    p
}

/// `mesh` with its levels added (made as the renderer makes them).
pub(crate) fn with_levels(mut mesh: ClusteredMesh, textured: &[bool]) -> ClusteredMesh {
    let levels = simplify_clusters(&mesh, textured);
    assert!(mesh.add_levels(levels));
    mesh
}

/// How far the farthest of `original`'s corners lies from the surface of `level`, by
/// brute force (every corner against every triangle): the oracle for a level's error.
pub(crate) fn farthest_corner(original: &ClusteredMesh, level: &[[Vec3; 3]]) -> f64 {
    original
        .vertices
        .iter()
        .map(|v| {
            let p = Vec3::from(v.position).as_dvec3();
            level
                .iter()
                .map(|t| closest_point(p, t.map(|c| c.as_dvec3())).point.distance(p))
                .fold(f64::MAX, f64::min)
        })
        .fold(0.0, f64::max)
}

/// A bumpy sheet in clusters of 128 triangles: most of them simplify.
pub(crate) fn sheet() -> ClusteredMesh {
    cluster_map(&one_material(grid(32, bumpy, no_uv)), 128)
}

/// `mesh` with `levels` added.
pub(crate) fn with_added(mesh: &ClusteredMesh, levels: Levels) -> ClusteredMesh {
    let mut m = mesh.clone();
    assert!(m.add_levels(levels));
    m
}

/// A map of square grids facing +z, `n` x `n` quads of 1 m each, centred on the view
/// axis, one at each of `distances` ahead.
pub(crate) fn walls(n: usize, distances: &[f32]) -> Map {
    let mut vertices = Vec::new();
    for z in distances.iter().map(|d| -d) {
        let half = n as f32 / 2.0;
        for i in 0..n {
            for j in 0..n {
                let v = |x: f32, y: f32| Vertex {
                    position: [x - half, y - half, z],
                    normal: [0.0, 0.0, 1.0],
                    uv: [0.0, 0.0],
                };
                let (x, y) = (i as f32, j as f32);
                let (a, b, c, d) = (v(x, y), v(x + 1.0, y), v(x + 1.0, y + 1.0), v(x, y + 1.0));
                vertices.extend([a, b, c, a, c, d]);
            }
        }
    }
    one_material(vertices)
}

/// A wall of 8 x 8 quads 4 m ahead, filling the 64 x 64 window: its four 32-triangle
/// meshlets each cover a quarter of it (1,024 pixels and a margin). With the view down
/// the axis, culling's memory for it (culling however few triangles) and a pass's
/// batches.
pub(crate) fn big_meshlets() -> (ClusteredMesh, View, Occlusion, Batches) {
    let mesh = cluster_map(&walls(8, &[4.0]), 2048);
    assert_eq!(mesh.meshlets.len(), 4);
    let (view, proj) = camera();
    let mut o = Occlusion::new(mesh.meshlets.len());
    o.occlude_from = 0;
    (
        mesh,
        View::new(view, proj, UVec2::splat(SIDE as u32)),
        o,
        Batches::default(),
    )
}
