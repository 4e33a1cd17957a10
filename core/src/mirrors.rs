//! Mirrors: the map's triangles of mirror materials (a scene's `mirror = [...]`,
//! `--mirror NAME`) gathered by plane, each plane one mirror, and the reflection the
//! window draws the scene again with (Kilgard, "Improving Shadows and Reflections via
//! the Stencil Buffer", NVIDIA 1999: the mirror's pixels marked in the stencil, the scene
//! drawn reflected about its plane into them, clipped to the plane's front side; one
//! reflection deep). A scene's water surfaces are mirrors of the same kind (their plane
//! the box's top, their pixels its rectangle), finished with water instead of glass and
//! reflecting only to an eye above them.
//!
//! Pure math: which triangles, which plane, which side the eye is on, the matrix.

use glam::{Mat4, Vec3, Vec4};

use crate::geometry::Aabb;
use crate::map::Map;
use crate::tolerance::SAME_PLANE_COSINE;

/// Two mirror triangles whose planes are this close (metres, along the normal) and
/// parallel within [`SAME_PLANE_COSINE`] are one mirror: one pass draws both.
pub const SAME_MIRROR_DISTANCE: f32 = 1e-3;
/// Most mirrors a map has: each in view costs a pass of the scene, so a map of many
/// mirror planes (a faceted ball) is drawn with its first ones only.
pub const MAX_MIRRORS: usize = 8;
/// An eye closer to a mirror's plane than this (metres) sees no reflection in it (it
/// stands in the glass: the plane is edge-on).
pub const MIN_EYE_DISTANCE: f32 = 1e-3;

/// What a mirror's pixels are finished with over its reflection, and which of its sides
/// reflect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// A mirror material: both sides reflect, a light glass over the reflection.
    Glass,
    /// A water surface (its normal up): only the side above reflects, blended with the
    /// water by a Fresnel term and rippled (the window's water shader).
    Water,
}

/// One flat mirror: its plane and its triangles.
#[derive(Clone, Debug, PartialEq)]
pub struct Mirror {
    /// Glass or water.
    pub surface: Surface,
    /// The plane's unit normal (one of its two sides).
    pub normal: Vec3,
    /// The plane is `normal . p = distance`.
    pub distance: f32,
    /// Its triangles, world coordinates.
    pub triangles: Vec<[Vec3; 3]>,
    /// The box around them (the mirror is culled by it).
    pub bounds: Aabb,
}

impl Mirror {
    /// The reflection about the mirror's plane: `p - 2 (n . p - d) n` (a matrix of
    /// determinant -1: what it draws is wound the other way).
    pub fn reflection(&self) -> Mat4 {
        let n = self.normal;
        let linear = glam::Mat3::IDENTITY - 2.0 * glam::Mat3::from_cols(n * n.x, n * n.y, n * n.z);
        let mut m = Mat4::from_mat3(linear);
        m.w_axis = (n * (2.0 * self.distance)).extend(1.0);
        m
    }

    /// The plane as a clip plane facing `eye` (`(n, -d)` with `n` toward the eye: what
    /// is on the eye's side of the mirror is kept in its reflection), moved
    /// [`SAME_MIRROR_DISTANCE`] toward the eye so that the glass itself (reflected onto
    /// itself, where it would cover its own reflection) is cut away too; `None` when the
    /// eye is in the plane, or (water) under it: from under water there is no reflection.
    pub fn clip_plane(&self, eye: Vec3) -> Option<Vec4> {
        let side = self.normal.dot(eye) - self.distance;
        if side.abs() < MIN_EYE_DISTANCE || !side.is_finite() {
            return None;
        }
        if self.surface == Surface::Water && side < 0.0 {
            return None;
        }
        let s = side.signum();
        Some((self.normal * s).extend(-self.distance * s - SAME_MIRROR_DISTANCE))
    }
}

/// The mirrors of `map`: the triangles of its mirror materials, one [`Mirror`] a plane,
/// at most [`MAX_MIRRORS`].
pub fn find_mirrors(map: &Map) -> Vec<Mirror> {
    let mut mirrors: Vec<Mirror> = Vec::new();
    for b in &map.batches {
        if !map.materials.get(b.material).is_some_and(|m| m.mirror) {
            continue;
        }
        for t in (b.first / 3..(b.first + b.count) / 3).map(|t| t as usize) {
            let tri = map.corners(t);
            let Some(n) = (tri[1] - tri[0]).cross(tri[2] - tri[0]).try_normalize() else {
                continue;
            };
            let d = n.dot(tri[0]);
            let same = mirrors.iter().position(|m| {
                let c = m.normal.dot(n);
                c.abs() > SAME_PLANE_COSINE
                    && (m.distance - d * c.signum()).abs() < SAME_MIRROR_DISTANCE
            });
            match same {
                Some(i) => {
                    let m = &mut mirrors[i];
                    m.triangles.push(tri);
                    m.bounds = tri.iter().fold(m.bounds, |b, &p| b.grown(p));
                }
                None if mirrors.len() < MAX_MIRRORS => mirrors.push(Mirror {
                    surface: Surface::Glass,
                    normal: n,
                    distance: d,
                    triangles: vec![tri],
                    bounds: Aabb::from_points(tri),
                }),
                None => {}
            }
        }
    }
    mirrors
}

/// The surfaces of a scene's `water` boxes as mirrors: each box's top a rectangle of two
/// triangles (wound to face up), the boxes whose tops are at one height one mirror.
pub fn water_surfaces(water: &[Aabb]) -> Vec<Mirror> {
    let mut surfaces: Vec<Mirror> = Vec::new();
    for b in water {
        let y = b.max.y;
        let at = |x: f32, z: f32| Vec3::new(x, y, z);
        let (a, c) = (at(b.min.x, b.min.z), at(b.max.x, b.max.z));
        let (b1, d) = (at(b.max.x, b.min.z), at(b.min.x, b.max.z));
        // Counter-clockwise seen from above.
        let tris = [[a, d, c], [a, c, b1]];
        let top = Aabb::from_points([a, c]);
        match surfaces
            .iter_mut()
            .find(|s| (s.distance - y).abs() < SAME_MIRROR_DISTANCE)
        {
            Some(s) => {
                s.triangles.extend(tris);
                s.bounds = s.bounds.grown(a).grown(c);
            }
            None => surfaces.push(Mirror {
                surface: Surface::Water,
                normal: Vec3::Y,
                distance: y,
                triangles: tris.to_vec(),
                bounds: top,
            }),
        }
    }
    surfaces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Batch, Material, Vertex};

    fn vertex(p: Vec3) -> Vertex {
        Vertex {
            position: p.into(),
            ..Vertex::default()
        }
    }

    /// A map of two materials: `glass` (a mirror) with a quad in the plane z = 0 cut in
    /// two triangles wound either way and a triangle in the plane x = 2, and `wall`.
    fn map() -> Map {
        let mut m = crate::cull::fixtures::one_material(Vec::new());
        let quad = [
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(-1.0, 2.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(2.0, 0.0, 1.0),
            Vec3::new(0.0, 0.0, 5.0),
            Vec3::new(1.0, 0.0, 5.0),
            Vec3::new(0.0, 1.0, 5.0),
        ];
        m.vertices = quad.iter().map(|&p| vertex(p)).collect();
        m.materials = vec![
            Material::default_grey(),
            Material {
                name: "glass".into(),
                mirror: true,
                ..Material::default_grey()
            },
        ];
        m.batches = vec![
            Batch {
                material: 1,
                first: 0,
                count: 9,
            },
            Batch {
                material: 0,
                first: 9,
                count: 3,
            },
        ];
        m
    }

    #[test]
    fn mirror_triangles_are_gathered_by_plane_whatever_their_winding() {
        let mirrors = find_mirrors(&map());
        assert_eq!(mirrors.len(), 2);
        assert_eq!(mirrors[0].triangles.len(), 2);
        assert_eq!(mirrors[0].normal.abs(), Vec3::Z);
        assert_eq!(mirrors[1].triangles.len(), 1);
        assert!((mirrors[1].normal.x.abs() - 1.0).abs() < 1e-6);
        assert!((mirrors[1].distance * mirrors[1].normal.x - 2.0).abs() < 1e-6);
    }

    #[test]
    fn the_reflection_mirrors_points_through_the_plane_and_keeps_the_plane() {
        let m = &find_mirrors(&map())[1]; // x = 2
        let r = m.reflection();
        let p = r.transform_point3(Vec3::new(3.0, 1.0, -4.0));
        assert!((p - Vec3::new(1.0, 1.0, -4.0)).length() < 1e-5, "{p}");
        let on = Vec3::new(2.0, 7.0, 1.5);
        assert!((r.transform_point3(on) - on).length() < 1e-5);
        assert!((r.determinant() + 1.0).abs() < 1e-5);
        // Twice is nothing.
        assert!((r * r).abs_diff_eq(Mat4::IDENTITY, 1e-5));
    }

    #[test]
    fn the_clip_plane_keeps_the_eyes_side_and_none_in_the_glass() {
        let m = &find_mirrors(&map())[1]; // x = 2
        let eye = Vec3::new(0.5, 1.0, 0.0);
        let plane = m.clip_plane(eye).unwrap();
        assert!(plane.dot(eye.extend(1.0)) > 0.0);
        assert!(plane.dot(Vec3::new(2.5, 0.0, 0.0).extend(1.0)) < 0.0);
        let other = m.clip_plane(Vec3::new(4.0, 0.0, 0.0)).unwrap();
        assert!(other.dot(Vec3::new(2.5, 0.0, 0.0).extend(1.0)) > 0.0);
        assert_eq!(m.clip_plane(Vec3::new(2.0, 5.0, 5.0)), None);
        // The glass itself is cut away.
        assert!(plane.dot(Vec3::new(2.0, 0.5, 0.5).extend(1.0)) < 0.0);
        assert!(plane.dot(Vec3::new(1.99, 0.5, 0.5).extend(1.0)) > 0.0);
    }

    #[test]
    fn water_tops_are_mirrors_by_height_facing_up_and_reflect_only_above() {
        let boxed = |x0: f32, top: f32| Aabb {
            min: Vec3::new(x0, -2.0, 0.0),
            max: Vec3::new(x0 + 1.0, top, 3.0),
        };
        let w = water_surfaces(&[boxed(0.0, 0.5), boxed(4.0, 1.0), boxed(2.0, 0.5)]);
        assert_eq!(w.len(), 2, "two heights");
        assert_eq!(w[0].triangles.len(), 4, "two boxes at 0.5");
        assert_eq!((w[0].distance, w[1].distance), (0.5, 1.0));
        assert_eq!(w[0].bounds.min, Vec3::new(0.0, 0.5, 0.0));
        assert_eq!(w[0].bounds.max, Vec3::new(3.0, 0.5, 3.0));
        for t in &w[0].triangles {
            let n = (t[1] - t[0]).cross(t[2] - t[0]);
            assert!(n.y > 0.0 && t.iter().all(|p| p.y == 0.5), "{t:?}");
        }
        // Above the surface: kept is what is above it; below: no reflection.
        let plane = w[0].clip_plane(Vec3::new(0.5, 2.1, 1.0)).unwrap();
        assert!(plane.dot(Vec4::new(0.5, 0.6, 1.0, 1.0)) > 0.0);
        assert!(plane.dot(Vec4::new(0.5, 0.4, 1.0, 1.0)) < 0.0);
        assert_eq!(w[0].clip_plane(Vec3::new(0.5, 0.2, 1.0)), None);
        // A glass mirror reflects on both sides.
        let glass = &find_mirrors(&map())[0];
        assert!(glass.clip_plane(Vec3::new(0.0, 1.0, -1.0)).is_some());
        assert!(glass.clip_plane(Vec3::new(0.0, 1.0, 1.0)).is_some());
    }
}
