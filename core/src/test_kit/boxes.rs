//! Axis-aligned boxes, the tests' rooms, crates and blocks: their corners, their six faces
//! as quads wound out of the box, and the box as triangles.

use glam::Vec3;

/// Corner `i` (0 to 7) of the box from `lo` to `hi`: bit 1 of `i` picks `hi.x`, bit 2
/// `hi.y`, bit 4 `hi.z`.
pub fn box_corner(lo: Vec3, hi: Vec3, i: usize) -> Vec3 {
    Vec3::new(
        if i & 1 == 0 { lo.x } else { hi.x },
        if i & 2 == 0 { lo.y } else { hi.y },
        if i & 4 == 0 { lo.z } else { hi.z },
    )
}

/// A box's six faces as quads of its corners (see [`box_corner`]), each counter-clockwise
/// seen from outside: OBJ's front, normals out of the box (a solid's faces). Reversed, a
/// room's faces, seen from inside.
pub const BOX_QUADS: [[usize; 4]; 6] = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
];

/// The box from `min` to `max` as 12 triangles wound into it (counter-clockwise seen from
/// inside: a room's; both sides collide anyway): each of [`BOX_QUADS`] reversed from its
/// first corner, as a fan from that corner.
pub fn cube(min: Vec3, max: Vec3) -> Vec<[Vec3; 3]> {
    let c = |i: usize| box_corner(min, max, i);
    BOX_QUADS
        .iter()
        .map(|&[a, b, c, d]| [a, d, c, b])
        .flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]])
        .collect()
}
