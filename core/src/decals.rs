//! Decals: squares of a texture stuck on the map where the crosshair's ray meets it
//! (the right mouse button, a script's `decal`), oriented to the surface, clipped to the
//! triangles under them ([`mesh`]), kept per map with its saved views.
//!
//! - [`mesh`]: the map's triangles under a decal's box, clipped to it, textured.
//! - [`csv`]: `sim --decals-out`: each decal's triangles as CSV rows.
//!
//! The core finds and shapes them (the crosshair's ray, the box against the BVH, the
//! clipping); the window only draws them.

pub mod csv;
pub mod mesh;

use glam::Vec3;

pub use mesh::{
    DECAL_BEHIND, Decal, DecalTriangle, MAX_DECAL_TRIANGLES, SAME_SURFACE_COSINE, build,
};

use crate::collision::CollisionWorld;
use crate::map::MapFrame;
use crate::player::Pose;

/// Most decals a map keeps: a new one past this replaces the oldest.
pub const MAX_DECALS: usize = 256;
/// A decal's side, metres.
pub const DECAL_SIZE: f32 = 0.5;
/// Farthest the crosshair sticks a decal, metres.
pub const DECAL_REACH: f32 = 100.0;
/// The decal textures in `assets/decals/` (embedded by the window), in the order a
/// decal's `texture` numbers them: each new decal takes the next.
pub const DECAL_TEXTURES: [&str; 3] = ["target", "arrow", "splat"];

/// Where a decal is stuck: the point, the surface's normal and the square's up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Where the crosshair's ray met the map.
    pub point: Vec3,
    /// The surface's unit normal there, facing the eye that placed it.
    pub normal: Vec3,
    /// A unit direction along the surface: the square's up (world up on a wall; on a
    /// floor or ceiling the way the eye looked).
    pub up: Vec3,
    /// The square's side, metres.
    pub size: f32,
    /// Which of [`DECAL_TEXTURES`].
    pub texture: u8,
}

impl Placement {
    /// This placement in the map file's coordinates (what is kept), by `frame`.
    pub fn to_file(&self, frame: &MapFrame) -> Placement {
        Placement {
            point: frame.to_file(self.point),
            normal: frame.rotate_to_file(self.normal),
            up: frame.rotate_to_file(self.up),
            size: self.size / frame.scale,
            ..*self
        }
    }

    /// A placement kept in the file's coordinates brought into the world by `frame`;
    /// `None` when it is not a placement (a hand-edited file: not finite, no size, no
    /// direction).
    pub fn to_world(&self, frame: &MapFrame) -> Option<Placement> {
        let p = Placement {
            point: frame.to_world(self.point),
            normal: frame.rotate_to_world(self.normal).try_normalize()?,
            up: frame.rotate_to_world(self.up).try_normalize()?,
            size: self.size * frame.scale,
            texture: self.texture % DECAL_TEXTURES.len() as u8,
        };
        (p.point.is_finite() && p.size.is_finite() && p.size > 0.0).then_some(p)
    }
}

/// Where the crosshair of the eye `eye` sticks a decal of `texture` on `world`: the
/// first triangle along the view, its normal turned to face the eye; `None` when the
/// ray meets nothing within [`DECAL_REACH`].
pub fn aim(world: &CollisionWorld, eye: &Pose, texture: u8) -> Option<Placement> {
    let dir = eye.forward();
    let hit = world.ray_cast(eye.position, dir, DECAL_REACH)?;
    let t = world.triangles().get(hit.triangle as usize)?;
    let n = t.plane.normal;
    let normal = if n.dot(dir) > 0.0 { -n } else { n };
    // World up along the surface; on a floor or ceiling, the way the eye looked.
    let up = (Vec3::Y - normal * normal.dot(Vec3::Y))
        .try_normalize()
        .filter(|_| normal.y.abs() < 0.99)
        .or_else(|| (dir - normal * normal.dot(dir)).try_normalize())
        .unwrap_or(Vec3::Z);
    Some(Placement {
        point: eye.position + dir * hit.distance,
        normal,
        up,
        size: DECAL_SIZE,
        texture: texture % DECAL_TEXTURES.len() as u8,
    })
}

/// A map's decals, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decals {
    /// The decals, oldest first (at most [`MAX_DECALS`]).
    pub list: Vec<Decal>,
    /// Counts every change (the window uploads the meshes again when it moves on).
    pub generation: u64,
    /// Decals stuck so far (each new one takes the next texture).
    stuck: u64,
}

impl Decals {
    /// Add `decal`, the oldest dropped past [`MAX_DECALS`].
    pub fn add(&mut self, decal: Decal) {
        if self.list.len() >= MAX_DECALS {
            self.list.remove(0);
        }
        self.list.push(decal);
        self.generation += 1;
        self.stuck += 1;
    }

    /// The texture the next decal takes (each new one the next of [`DECAL_TEXTURES`]).
    pub fn next_texture(&self) -> u8 {
        (self.stuck % DECAL_TEXTURES.len() as u64) as u8
    }

    /// Remove the decal nearest to `point` among those whose square holds it (within
    /// half its side); returns whether one went.
    pub fn remove_at(&mut self, point: Vec3) -> bool {
        let near = self
            .list
            .iter()
            .enumerate()
            .map(|(i, d)| (i, d.placement.point.distance(point), d.placement.size))
            .filter(|&(_, dist, size)| dist <= size * 0.5)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((i, _, _)) = near else { return false };
        self.list.remove(i);
        self.generation += 1;
        true
    }

    /// Every decal's mesh made again on `world` (the map was reloaded or rescaled:
    /// `placements` are where they are now, oldest first). Only the newest
    /// [`MAX_DECALS`] are made (a hand-edited file may list thousands); one over more than
    /// [`MAX_DECAL_TRIANGLES`] is left out. Returns how many were left out.
    pub fn rebuild(
        &mut self,
        world: &CollisionWorld,
        placements: impl IntoIterator<Item = Placement>,
    ) -> usize {
        let mut placements: Vec<Placement> = placements.into_iter().collect();
        let excess = placements.len().saturating_sub(MAX_DECALS);
        placements.drain(..excess);
        let wanted = placements.len();
        self.list = placements
            .into_iter()
            .filter_map(|p| build(world, p))
            .collect();
        self.generation += 1;
        wanted - self.list.len()
    }

    /// The placements, oldest first.
    pub fn placements(&self) -> impl Iterator<Item = Placement> + '_ {
        self.list.iter().map(|d| d.placement)
    }
}

#[cfg(test)]
mod tests;
