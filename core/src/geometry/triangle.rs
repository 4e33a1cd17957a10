//! A triangle with everything the collision test needs precomputed once at load.

use glam::Vec3;

use super::{Aabb, Plane};
use crate::tolerance::DEGENERATE_AREA;

/// [`Triangle::is_made`] decides plainly for corners nearer the origin than this on every
/// axis (100,000 km in metres): edges under 2e8, the cross product's squared length under
/// 2e34 and the barycentric products under 2e34, far from `f32::MAX` (3.4e38).
const PLAIN_RANGE: f32 = 1e8;
/// ... and twice the area over this: its root is then surely not below
/// [`DEGENERATE_AREA`], and its inverse finite.
const PLAIN_AREA: f32 = 2.0 * DEGENERATE_AREA;

/// Barycentric coordinates: the weights of corners `a`, `b` and `c` (summing to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Barycentric {
    /// Weight of `a`.
    pub u: f32,
    /// Weight of `b`.
    pub v: f32,
    /// Weight of `c`.
    pub w: f32,
}

impl Barycentric {
    /// The smallest weight: negative outside the triangle, by how much.
    pub fn min(self) -> f32 {
        self.u.min(self.v).min(self.w)
    }
}

/// A non-degenerate triangle: its vertices exactly as given, its plane, and the constants
/// of the barycentric test (Ericson, *Real-Time Collision Detection*, 3.4), computed once.
/// Plain data (`bytemuck::Pod`, 68 bytes, no padding): the cache of built maps reads a
/// world's triangles straight into place.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Triangle {
    /// First vertex.
    pub a: Vec3,
    /// Second vertex.
    pub b: Vec3,
    /// Third vertex.
    pub c: Vec3,
    /// The supporting plane; its normal follows the winding `a, b, c`.
    pub plane: Plane,
    /// `e1 . e1`, `e1 . e2`, `e2 . e2` and `1 / (d00 d11 - d01^2)`.
    pub bary: [f32; 4],
}

impl Triangle {
    /// Build from three vertices. `None` for a degenerate triangle: a non-finite coordinate,
    /// repeated vertices or (nearly) zero area.
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> Option<Triangle> {
        if !(a.is_finite() && b.is_finite() && c.is_finite()) {
            return None;
        }
        let (e1, e2) = (b - a, c - a);
        if e1.cross(e2).length() < DEGENERATE_AREA {
            return None;
        }
        let plane = Plane::from_points(a, b, c)?;
        let (d00, d01, d11) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
        let denom = d00 * d11 - d01 * d01;
        if !(denom.is_finite() && denom > 0.0) {
            return None;
        }
        Some(Triangle {
            a,
            b,
            c,
            plane,
            bary: [d00, d01, d11, 1.0 / denom],
        })
    }

    /// Whether [`Triangle::new`] makes a triangle of these corners, found without making it
    /// for all but a few: corners within [`PLAIN_RANGE`] of the origin (where no product
    /// below overflows) and twice the area over [`PLAIN_AREA`] pass every check of `new`
    /// but the last, which is made here as `new` makes it; any other triangle is made. The
    /// world's build asks this of every triangle before it knows which it keeps (no root,
    /// no division: conference's build 1.5 ms faster than asking `new`).
    pub fn is_made(a: Vec3, b: Vec3, c: Vec3) -> bool {
        let plain = |v: Vec3| v.abs().max_element() < PLAIN_RANGE;
        if plain(a) && plain(b) && plain(c) {
            let (e1, e2) = (b - a, c - a);
            if e1.cross(e2).length_squared() > PLAIN_AREA * PLAIN_AREA {
                let (d00, d01, d11) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
                return d00 * d11 - d01 * d01 > 0.0;
            }
        }
        Triangle::new(a, b, c).is_some()
    }

    /// This triangle scaled by `f > 0` about the origin, without recomputing it: lengths
    /// scale by `f`, the barycentric dot products by `f^2`, their inverse determinant by
    /// `f^-4`; the normal is unchanged.
    pub fn scaled(&self, f: f32) -> Triangle {
        let [d00, d01, d11, inv] = self.bary;
        let f2 = f * f;
        Triangle {
            a: self.a * f,
            b: self.b * f,
            c: self.c * f,
            plane: super::Plane {
                normal: self.plane.normal,
                d: self.plane.d * f,
            },
            bary: [d00 * f2, d01 * f2, d11 * f2, inv / (f2 * f2)],
        }
    }

    /// This triangle turned by `rotate`, a rotation that only permutes and negates axes
    /// (the turn of a file's up axis to +Y): corners and normal are turned exactly, and the
    /// plane constant and barycentric constants, which lengths and angles fix, are kept.
    pub fn turned(&self, rotate: impl Fn(Vec3) -> Vec3) -> Triangle {
        Triangle {
            a: rotate(self.a),
            b: rotate(self.b),
            c: rotate(self.c),
            plane: super::Plane {
                normal: rotate(self.plane.normal),
                d: self.plane.d,
            },
            bary: self.bary,
        }
    }

    /// The three vertices, exactly as given, in their original order.
    #[inline]
    pub fn vertices(&self) -> [Vec3; 3] {
        [self.a, self.b, self.c]
    }

    /// The edge `b - a`.
    #[inline]
    pub fn e1(&self) -> Vec3 {
        self.b - self.a
    }

    /// The edge `c - a`.
    #[inline]
    pub fn e2(&self) -> Vec3 {
        self.c - self.a
    }

    /// Bounding box of the three vertices.
    pub fn bounds(&self) -> Aabb {
        Aabb::from_points(self.vertices())
    }

    /// Centroid: the mean of the corners. (The BVH splits by its boxes' centres instead,
    /// see `collision::bvh`.)
    pub fn centroid(&self) -> Vec3 {
        (self.a + self.b + self.c) / 3.0
    }

    /// Barycentric coordinates of `p` (assumed in the plane): `p = u a + v b + w c`.
    #[inline]
    pub fn barycentric(&self, p: Vec3) -> Barycentric {
        let [d00, d01, d11, inv] = self.bary;
        let e = p - self.a;
        let (d20, d21) = (e.dot(self.e1()), e.dot(self.e2()));
        let v = (d11 * d20 - d01 * d21) * inv;
        let w = (d00 * d21 - d01 * d20) * inv;
        Barycentric {
            u: 1.0 - v - w,
            v,
            w,
        }
    }

    /// The point of the triangle's plane closest to `p` (orthogonal projection).
    #[inline]
    pub fn project(&self, p: Vec3) -> Vec3 {
        self.plane.project(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_kit::random::Lcg;

    /// `is_made` answers as `new` does: for plain triangles, slivers whose denominator
    /// rounds to nothing, areas either side of every threshold, corners either side of
    /// the plain range and past what an `f32` product holds, and non-finite ones.
    #[test]
    fn is_made_is_whether_new_makes_one() {
        let mut lcg = Lcg(3);
        let mut r = || lcg.unit();
        let scales = [
            1e-9,
            1e-7,
            1e-6,
            1e-3,
            1.0,
            1e3,
            1e7,
            PLAIN_RANGE * 0.5,
            PLAIN_RANGE,
            PLAIN_RANGE * 2.0,
            1e12,
            1e19,
            1e30,
            f32::MAX,
        ];
        let (mut made, mut unmade) = (0, 0);
        for k in 0..400_000 {
            let scale = scales[k % scales.len()];
            let mut corner = || (Vec3::new(r(), r(), r()) - 0.5) * 2.0 * scale;
            let (a, b, mut c) = (corner(), corner(), corner());
            match k / scales.len() % 6 {
                // A sliver: c near the line through a and b.
                1 => c = a + (b - a) * r() + Vec3::splat(scale * 1e-7 * (r() - 0.5)),
                // Two corners nearly the same.
                2 => c = b + Vec3::splat(scale * 1e-6 * r()),
                // Tiny about a far corner: areas near DEGENERATE_AREA.
                3 => {
                    let size = 1e-6 * (r() + 0.5);
                    c = a + (Vec3::new(r(), r(), r()) - 0.5) * size;
                    let b2 = a + (Vec3::new(r(), r(), r()) - 0.5) * size;
                    let expect = Triangle::new(a, b2, c).is_some();
                    assert_eq!(Triangle::is_made(a, b2, c), expect, "{a} {b2} {c}");
                }
                4 => c.y = [f32::NAN, f32::INFINITY, -f32::INFINITY][k % 3],
                _ => {}
            }
            let expect = Triangle::new(a, b, c).is_some();
            assert_eq!(Triangle::is_made(a, b, c), expect, "{a} {b} {c}");
            if expect {
                made += 1;
            } else {
                unmade += 1;
            }
        }
        assert!(made > 80_000 && unmade > 30_000, "{made} {unmade}");
        // The random corners above do not tell a range ten times too
        // wide or an area bound a hair too low from the right ones. Big right triangles
        // about the origin, where a looser range lets the products overflow ...
        for k in 0..2_000 {
            let s = 1e7 * 1.01f32.powi(k % 700);
            let turn = Vec3::new(1.0, 0.3 * (k % 7) as f32, -0.2 * (k % 5) as f32);
            let (a, b, c) = (-turn * s, Vec3::new(s, -s, 0.0), Vec3::new(-s, s, s * 0.5));
            assert_eq!(Triangle::is_made(a, b, c), Triangle::new(a, b, c).is_some());
        }
        // ... and right triangles whose doubled area steps across DEGENERATE_AREA.
        for k in 0..20_000 {
            let (leg, share) = (1e-6 * (1.0 + (k % 13) as f32 * 0.1), 0.5 + k as f32 * 1e-4);
            let other = share * DEGENERATE_AREA / leg;
            let o = Vec3::splat([0.0, 1e-3, 0.37][k % 3]);
            let (a, b, c) = (o, o + Vec3::X * leg, o + Vec3::Y * other);
            assert_eq!(Triangle::is_made(a, b, c), Triangle::new(a, b, c).is_some());
        }
    }

    #[test]
    fn degenerate_triangles_are_refused() {
        let (a, b) = (Vec3::ZERO, Vec3::X);
        assert!(Triangle::new(a, b, Vec3::X * 3.0).is_none(), "collinear");
        assert!(Triangle::new(a, a, b).is_none(), "repeated vertex");
        assert!(Triangle::new(a, a, a).is_none(), "a point");
        assert!(
            Triangle::new(a, b, Vec3::new(f32::NAN, 0.0, 0.0)).is_none(),
            "NaN"
        );
        assert!(
            Triangle::new(a, b, Vec3::new(0.0, f32::INFINITY, 0.0)).is_none(),
            "infinity"
        );
        assert!(Triangle::new(a, b, Vec3::Y).is_some());
    }

    #[test]
    fn barycentric_of_vertices_and_centroid() {
        let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
        let Barycentric { u, v, w } = t.barycentric(Vec3::X);
        assert!((u - 0.0).abs() < 1e-6 && (v - 1.0).abs() < 1e-6 && w.abs() < 1e-6);
        let Barycentric { u, v, w } = t.barycentric(t.centroid());
        for x in [u, v, w] {
            assert!((x - 1.0 / 3.0).abs() < 1e-6);
        }
    }

    #[test]
    fn vertices_round_trip() {
        let (a, b, c) = (
            Vec3::new(1.0, 2.0, 3.0),
            Vec3::new(4.0, 2.0, 3.0),
            Vec3::new(1.0, 7.0, 3.0),
        );
        let t = Triangle::new(a, b, c).unwrap();
        assert_eq!(t.vertices(), [a, b, c]);
    }
}
