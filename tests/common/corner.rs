//! A room's corner with a fine object on the floor beside it: what a walker pressed into
//! the corner has in its swept box and out of its reach. Shared by the work
//! test and the walking benchmark.

use glam::Vec3;

use super::{Rng, cube, floor, wall};

/// A floor and two walls meeting at x = 1, z = -1, and a box beside them. A walker at
/// (0.55, 1.6, -0.55) (its eye) with yaw 0, walking forward and right, goes into the
/// corner.
pub fn corner() -> Vec<[Vec3; 3]> {
    let mut tris = floor(4.0);
    tris.extend(wall(1.0, -4.0, 1.0, 4.0, 3.0));
    tris.extend(wall(-4.0, -1.0, 4.0, -1.0, 3.0));
    tris.extend(cube(Vec3::new(0.2, 0.0, -1.0), Vec3::new(0.5, 0.75, -0.95)));
    tris
}

/// A 9 cm object of 20,000 millimetre triangles on the floor, 30 cm from a walker
/// pressed into the [`corner`]: inside the box its sweeps sweep (the walker's rounded
/// bottom does not reach it), as a detailed object lay beside a table on conference.
pub fn fine_object() -> Vec<[Vec3; 3]> {
    let mut rng = Rng(0x37);
    (0..20_000)
        .map(|_| {
            let at = Vec3::new(
                0.42 + rng.f() * 0.09,
                rng.f() * 0.005,
                -0.43 + rng.f() * 0.01,
            );
            [at, at + rng.v(0.001), at + rng.v(0.001)]
        })
        .collect()
}
