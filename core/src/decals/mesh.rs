//! A decal's mesh: the map's triangles under its box, each clipped to the box, with
//! texture coordinates (Lengyel, "Applying Decals to Arbitrary Surfaces", Game
//! Programming Gems 2, 2001: gather the triangles the box meets, clip them to its six
//! planes, project the texture along the box's depth).
//!
//! Around a corner the texture is not smeared along the depth: a triangle that turns
//! away from the decal's surface (a wall meeting it, the floor under it) is unfolded onto
//! the decal's plane about the line the two planes share, so the square wraps onto both
//! surfaces as if folded over the edge.

use glam::Vec3;

use super::Placement;
use crate::collision::CollisionWorld;
use crate::geometry::{Aabb, OrientedBox, clip_to_box};

/// How far behind the surface the decal's box reaches, metres: enough for a surface of
/// small bumps (a seam, a slightly curved wall), less than any wall is thick, so a thin
/// wall's back face is never decorated from the front.
pub const DECAL_BEHIND: f32 = 0.05;
/// A triangle whose normal is within this cosine of the decal's (either way: OBJ winding
/// is unreliable) is the decal's own surface, its texture projected straight; a steeper
/// one is unfolded about the edge it shares with the decal's plane (about 60 degrees).
pub const SAME_SURFACE_COSINE: f32 = 0.5;

/// One triangle of a decal's mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecalTriangle {
    /// Its corners, world coordinates, on the map's triangle.
    pub corners: [Vec3; 3],
    /// Texture coordinates of each corner (0 to 1 across the square; beyond it, around a
    /// corner, the texture is not drawn).
    pub uv: [[f32; 2]; 3],
}

/// A decal placed, and its mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct Decal {
    /// Where it was stuck.
    pub placement: Placement,
    /// Its triangles (none when nothing lies under it any more: the map changed).
    pub triangles: Vec<DecalTriangle>,
    /// The box around its triangles (for culling; empty with no triangle).
    pub bounds: Aabb,
}

impl Placement {
    /// The decal's box: the square on the surface, from [`DECAL_BEHIND`] behind it to half
    /// its side in front (so a wall meeting the surface at a corner is inside).
    pub fn oriented_box(&self) -> OrientedBox {
        let n = self.normal;
        let right = self.up.cross(n).normalize_or_zero();
        let up = n.cross(right);
        let half = self.size * 0.5;
        let front = half;
        OrientedBox {
            centre: self.point + n * ((front - DECAL_BEHIND) * 0.5),
            axes: [right, up, n],
            half: Vec3::new(half, half, (front + DECAL_BEHIND) * 0.5),
        }
    }
}

/// Most of the map's triangles a decal's box may gather: a decal over more (a surface
/// finer than a centimetre under a half-metre square, or a hand-edited decal a kilometre
/// wide) is not made, so that 256 of them stay within memory whatever the map.
pub const MAX_DECAL_TRIANGLES: usize = 4096;

/// The mesh of `placement` on `world`'s triangles; `None` when its box meets more than
/// [`MAX_DECAL_TRIANGLES`] of them.
pub fn build(world: &CollisionWorld, placement: Placement) -> Option<Decal> {
    let b = placement.oriented_box();
    let n = placement.normal;
    let mut triangles = Vec::new();
    let under =
        world.triangles_in_box_at_most(&Aabb::from_points(b.corners()), MAX_DECAL_TRIANGLES)?;
    for i in under {
        let t = &world.triangles()[i as usize];
        let unfold = unfolding(t.plane.normal, n, placement.point, t.a);
        for corners in clip_to_box(t.vertices(), &b) {
            // Across the square from 0 to 1; down it from 0 (its top, the image's first
            // row) to 1.
            let uv = corners.map(|p| {
                let d = unfold(p) - placement.point;
                [
                    0.5 + d.dot(b.axes[0]) / placement.size,
                    0.5 - d.dot(b.axes[1]) / placement.size,
                ]
            });
            triangles.push(DecalTriangle { corners, uv });
        }
    }
    let bounds = Aabb::from_points(triangles.iter().flat_map(|t| t.corners));
    Some(Decal {
        placement,
        triangles,
        bounds,
    })
}

/// How a point of a triangle of normal `tn` (either way) is brought onto the decal's
/// plane (through `point`, normal `n`) before its texture coordinates are read: straight
/// along `n` for the decal's own surface; turned about the planes' common edge for a
/// surface meeting it (`on`: a point of that triangle, telling which way it faces).
fn unfolding(tn: Vec3, n: Vec3, point: Vec3, on: Vec3) -> impl Fn(Vec3) -> Vec3 {
    // The triangle's normal made to face the decal's point (a wall meeting the surface
    // at an inside corner faces it).
    let facing = if tn.dot(point - on) < 0.0 { -tn } else { tn };
    let across = (facing - n * facing.dot(n)).normalize_or_zero();
    let turn = tn.dot(n).abs() < SAME_SURFACE_COSINE && across != Vec3::ZERO;
    move |p: Vec3| {
        let h = (p - point).dot(n);
        if turn {
            // Unfolded about the common edge: the height above the decal's plane becomes
            // the distance beyond the edge, away from the meeting surface.
            p - n * h - across * h
        } else {
            p - n * h
        }
    }
}
