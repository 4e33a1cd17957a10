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
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::player::Pose;

    /// An inside corner: the wall z = 0 (facing +Z) and the wall x = 1 (facing -X), 4 m
    /// high, and a floor at y = 0.
    fn corner() -> CollisionWorld {
        let quad = |a: Vec3, b: Vec3, c: Vec3, d: Vec3| [[a, b, c], [a, c, d]];
        let mut tris = Vec::new();
        tris.extend(quad(
            Vec3::new(-3.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 4.0, 0.0),
            Vec3::new(-3.0, 4.0, 0.0),
        ));
        tris.extend(quad(
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 4.0),
            Vec3::new(1.0, 4.0, 4.0),
            Vec3::new(1.0, 4.0, 0.0),
        ));
        tris.extend(quad(
            Vec3::new(-3.0, 0.0, 0.0),
            Vec3::new(-3.0, 0.0, 4.0),
            Vec3::new(1.0, 0.0, 4.0),
            Vec3::new(1.0, 0.0, 0.0),
        ));
        CollisionWorld::new(tris)
    }

    #[test]
    fn a_decal_aimed_at_a_wall_lies_on_it_square_and_upright() {
        let w = corner();
        let eye = Pose::new(Vec3::new(-1.0, 2.0, 3.0), 0.0, 0.0);
        let p = aim(&w, &eye, 0).unwrap();
        assert!((p.point - Vec3::new(-1.0, 2.0, 0.0)).length() < 1e-5);
        assert_eq!(p.normal, Vec3::Z);
        assert!((p.up - Vec3::Y).length() < 1e-6);
        let d = build(&w, p).unwrap();
        // Only the wall: two triangles cut to the square (a fan each).
        let area: f32 = d
            .triangles
            .iter()
            .map(|t| {
                (t.corners[1] - t.corners[0])
                    .cross(t.corners[2] - t.corners[0])
                    .length()
                    / 2.0
            })
            .sum();
        assert!((area - DECAL_SIZE * DECAL_SIZE).abs() < 1e-5, "{area}");
        for t in &d.triangles {
            for (c, uv) in t.corners.iter().zip(t.uv) {
                assert!(c.z.abs() < 1e-6, "{c}");
                // Texture across the square: u from its left (x -1.25) to its right.
                assert!((uv[0] - (c.x + 1.25) / 0.5).abs() < 1e-4, "{c} {uv:?}");
                assert!((uv[1] - (2.25 - c.y) / 0.5).abs() < 1e-4, "{c} {uv:?}");
            }
        }
    }

    #[test]
    fn a_decal_in_a_corner_wraps_onto_both_walls_with_the_texture_unfolded() {
        let w = corner();
        // 0.1 m from the corner's edge (x = 1), looking at the wall z = 0.
        let eye = Pose::new(Vec3::new(0.9, 2.0, 3.0), 0.0, 0.0);
        let d = build(&w, aim(&w, &eye, 1).unwrap()).unwrap();
        let on_back = |c: Vec3| c.z.abs() < 1e-5;
        let on_side = |c: Vec3| (c.x - 1.0).abs() < 1e-5;
        let back: Vec<_> = d
            .triangles
            .iter()
            .filter(|t| t.corners.iter().all(|&c| on_back(c)))
            .collect();
        let side: Vec<_> = d
            .triangles
            .iter()
            .filter(|t| t.corners.iter().all(|&c| on_side(c)))
            .collect();
        assert_eq!(
            back.len() + side.len(),
            d.triangles.len(),
            "{:?}",
            d.triangles
        );
        assert!(!back.is_empty() && !side.is_empty());
        // On the side wall it reaches as far out as the square's half side.
        let out = side
            .iter()
            .flat_map(|t| t.corners)
            .map(|c| c.z)
            .fold(0.0, f32::max);
        assert!((out - 0.25).abs() < 1e-4, "{out}");
        // Unfolded: 0.15 m out from the corner reads as 0.15 m beyond the edge (u 0.7 + 0.3).
        for t in &side {
            for (c, uv) in t.corners.iter().zip(t.uv) {
                assert!(
                    (uv[0] - (0.5 + (0.1 + c.z) / 0.5)).abs() < 1e-4,
                    "{c} {uv:?}"
                );
            }
        }
    }

    #[test]
    fn the_oldest_goes_past_the_limit_and_removal_takes_the_one_under_the_point() {
        let w = corner();
        let mut decals = Decals::default();
        for i in 0..MAX_DECALS + 3 {
            let eye = Pose::new(Vec3::new(-2.5 + i as f32 * 0.01, 2.0, 3.0), 0.0, 0.0);
            decals.add(build(&w, aim(&w, &eye, decals.next_texture()).unwrap()).unwrap());
        }
        assert_eq!(decals.list.len(), MAX_DECALS);
        assert!((decals.list[0].placement.point.x - (-2.47)).abs() < 1e-4);
        assert_eq!(decals.list[1].placement.texture, 1);
        let before = decals.generation;
        assert!(!decals.remove_at(Vec3::new(-1.0, 3.0, 0.0)));
        assert!(decals.remove_at(Vec3::new(0.06, 2.0, 0.0)));
        assert_eq!(decals.list.len(), MAX_DECALS - 1);
        assert!(decals.generation > before);
    }

    #[test]
    fn placements_go_to_the_file_and_back_and_bad_ones_are_refused() {
        let frame = MapFrame {
            scale: 0.0254,
            up: crate::map::UpAxis::Z,
        };
        let p = Placement {
            point: Vec3::new(1.0, 2.0, 3.0),
            normal: Vec3::Z,
            up: Vec3::Y,
            size: 0.5,
            texture: 2,
        };
        let back = p.to_file(&frame).to_world(&frame).unwrap();
        assert!((back.point - p.point).length() < 1e-5 && (back.size - 0.5).abs() < 1e-6);
        assert!((back.normal - p.normal).length() < 1e-6 && (back.up - p.up).length() < 1e-6);
        let bad = Placement {
            normal: Vec3::ZERO,
            ..p
        };
        assert_eq!(bad.to_world(&frame), None);
        let bad = Placement {
            point: Vec3::new(f32::NAN, 0.0, 0.0),
            ..p
        };
        assert_eq!(bad.to_world(&frame), None);
    }

    #[test]
    fn the_csv_has_a_row_a_triangle_in_file_coordinates() {
        let w = corner();
        let mut decals = Decals::default();
        let eye = Pose::new(Vec3::new(-1.0, 2.0, 3.0), 0.0, 0.0);
        decals.add(build(&w, aim(&w, &eye, 0).unwrap()).unwrap());
        let mut out = Vec::new();
        let frame = MapFrame {
            scale: 2.0,
            up: crate::map::UpAxis::Y,
        };
        csv::write_decals(&decals, &frame, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], csv::DECALS_HEADER);
        assert_eq!(lines.len(), 1 + decals.list[0].triangles.len());
        let f: Vec<f32> = lines[1]
            .split(',')
            .skip(2)
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(f.len(), 9);
        assert!(lines[1].starts_with("0,target,"));
        // Half the world's coordinates: y between 1 and 1.25 * 0.5 + ...
        assert!(
            f.iter()
                .skip(1)
                .step_by(3)
                .all(|y| (0.874..=1.126).contains(y)),
            "{f:?}"
        );
    }

    #[test]
    fn textures_take_turns_from_the_first_whatever_was_loaded() {
        let w = corner();
        let mut decals = Decals::default();
        let eye = Pose::new(Vec3::new(-1.0, 2.0, 3.0), 0.0, 0.0);
        let p = aim(&w, &eye, 2).unwrap();
        decals.rebuild(&w, [p, p]);
        assert_eq!(decals.next_texture(), 0);
        decals.add(build(&w, p).unwrap());
        assert_eq!(decals.next_texture(), 1);
    }

    /// A hand-edited decal a kilometre wide copied every triangle of
    /// the map under it, and every decal of the file was made before all but the newest
    /// 256 were dropped. A decal over more than [`MAX_DECAL_TRIANGLES`] is left out, and
    /// only the newest [`MAX_DECALS`] are made.
    #[test]
    fn a_decal_over_too_many_triangles_is_left_out_and_only_the_newest_are_made() {
        // A floor of 100 x 100 cells (20,000 triangles) at y = 0.
        let n = 100;
        let tris: Vec<[Vec3; 3]> = (0..n * n)
            .flat_map(|k| {
                let o = Vec3::new((k % n) as f32, 0.0, (k / n) as f32);
                [
                    [o, o + Vec3::Z, o + Vec3::X],
                    [o + Vec3::X, o + Vec3::Z, o + Vec3::new(1.0, 0.0, 1.0)],
                ]
            })
            .collect();
        let w = CollisionWorld::new(tris.iter().copied());
        let at = |size: f32| Placement {
            point: Vec3::new(50.0, 0.0, 50.0),
            normal: Vec3::Y,
            up: Vec3::Z,
            size,
            texture: 0,
        };
        let small = build(&w, at(2.0)).expect("a 2 m decal over 8 cells is made");
        assert!(!small.triangles.is_empty());
        assert!(
            build(&w, at(1000.0)).is_none(),
            "a kilometre-wide decal was made"
        );
        let mut decals = Decals::default();
        let many: Vec<Placement> = (0..MAX_DECALS + 10)
            .map(|i| Placement {
                texture: (i % 3) as u8,
                ..at(if i == MAX_DECALS { 1000.0 } else { 2.0 })
            })
            .collect();
        let left_out = decals.rebuild(&w, many.iter().copied());
        assert_eq!(left_out, 1, "the huge one among the newest");
        assert_eq!(decals.list.len(), MAX_DECALS - 1);
        // The newest kept: the last placement's texture.
        let last = many.last().unwrap().texture;
        assert_eq!(decals.list.last().unwrap().placement.texture, last);
    }
}
