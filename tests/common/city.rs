//! The generated city of the collision benchmark and of the work-count test: open ground
//! (a rolling terrain) with box buildings, and random moves over it.

use glam::Vec3;
use walkthrough_core::collision::CollisionWorld;

use super::Rng;

/// A generated city: a rolling terrain of 400 x 400 quads (320k triangles) with 900
/// box buildings on it (10.8k triangles), about 1 unit a metre.
pub fn generated_city() -> Vec<[Vec3; 3]> {
    let n = 400;
    let size = 400.0;
    let h = |i: usize, j: usize| {
        let (x, z) = (i as f32, j as f32);
        (x * 0.05).sin() * 2.0 + (z * 0.07).cos() * 1.5
    };
    let p = |i: usize, j: usize| {
        Vec3::new(
            i as f32 * size / n as f32,
            h(i, j),
            j as f32 * size / n as f32,
        )
    };
    let mut tris = Vec::with_capacity(2 * n * n + 900 * 12);
    for i in 0..n {
        for j in 0..n {
            tris.push([p(i, j), p(i + 1, j), p(i + 1, j + 1)]);
            tris.push([p(i, j), p(i + 1, j + 1), p(i, j + 1)]);
        }
    }
    for b in 0..900 {
        let (cx, cz) = (10.0 + (b % 30) as f32 * 13.0, 10.0 + (b / 30) as f32 * 13.0);
        tris.extend(super::cube(
            Vec3::new(cx, -5.0, cz),
            Vec3::new(cx + 6.0, 15.0, cz + 6.0),
        ));
    }
    tris
}

/// Walking-sized moves (`len` long) from random eye positions inside the world's bounds.
pub fn segments(world: &CollisionWorld, n: usize, len: f32, seed: u64) -> Vec<(Vec3, Vec3)> {
    let b = world.bounds();
    let mut r = Rng(seed);
    (0..n)
        .map(|_| {
            let p = b.min + b.size() * Vec3::new(r.f(), r.f(), r.f());
            let d = Vec3::new(r.f() - 0.5, (r.f() - 0.5) * 0.3, r.f() - 0.5).normalize() * len;
            (p, d)
        })
        .collect()
}
