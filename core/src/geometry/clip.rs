//! Clipping triangles to a box: what a decal is made of (the triangles of the map under
//! it, each cut to the decal's box, as engines build decal meshes: Lengyel, "Applying
//! Decals to Arbitrary Surfaces", Game Programming Gems 2, 2001).
//!
//! A polygon is cut by one plane at a time (Sutherland and Hodgman's re-entrant
//! clipping, 1974): each edge keeps its inside end and adds the point where it crosses.
//! A convex polygon stays convex, so what is left of a triangle after six planes is a
//! fan.

use glam::Vec3;

/// A box with its own axes: the decal's (its depth along `axes[2]`, the surface's normal).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrientedBox {
    /// Its centre.
    pub centre: Vec3,
    /// Unit axes, at right angles to each other.
    pub axes: [Vec3; 3],
    /// Half its size along each axis.
    pub half: Vec3,
}

impl OrientedBox {
    /// `p` in the box's frame: along each axis from the centre, over its half size (-1 to
    /// 1 inside).
    pub fn local(&self, p: Vec3) -> Vec3 {
        let d = p - self.centre;
        Vec3::new(
            d.dot(self.axes[0]) / self.half.x,
            d.dot(self.axes[1]) / self.half.y,
            d.dot(self.axes[2]) / self.half.z,
        )
    }

    /// The box's corners (for the box around it).
    pub fn corners(&self) -> [Vec3; 8] {
        std::array::from_fn(|i| {
            let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
            self.centre
                + self.axes[0] * (s(1) * self.half.x)
                + self.axes[1] * (s(2) * self.half.y)
                + self.axes[2] * (s(4) * self.half.z)
        })
    }
}

/// Most corners a triangle cut by six planes can have (each plane adds one).
const MAX_CORNERS: usize = 9;

/// A convex polygon of at most [`MAX_CORNERS`] corners, on the stack.
#[derive(Clone, Copy, Debug)]
struct Polygon {
    corners: [Vec3; MAX_CORNERS],
    len: usize,
}

impl Polygon {
    fn push(&mut self, p: Vec3) {
        if self.len < MAX_CORNERS {
            self.corners[self.len] = p;
            self.len += 1;
        }
    }

    /// What is left on the side where `distance` is 0 or less (Sutherland-Hodgman).
    fn clip(&self, distance: impl Fn(Vec3) -> f32) -> Polygon {
        let mut out = Polygon {
            corners: [Vec3::ZERO; MAX_CORNERS],
            len: 0,
        };
        for i in 0..self.len {
            let (a, b) = (self.corners[i], self.corners[(i + 1) % self.len]);
            let (da, db) = (distance(a), distance(b));
            if da <= 0.0 {
                out.push(a);
            }
            // The edge crosses: keep where (an end exactly on the plane is kept above).
            if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
                out.push(a + (b - a) * (da / (da - db)));
            }
        }
        out
    }
}

/// The parts of triangle `tri` inside `b`, as triangles (a fan of the clipped polygon),
/// wound as `tri` is; none when it lies outside or is cut to nothing.
pub fn clip_to_box(tri: [Vec3; 3], b: &OrientedBox) -> Vec<[Vec3; 3]> {
    let mut poly = Polygon {
        corners: [Vec3::ZERO; MAX_CORNERS],
        len: 3,
    };
    poly.corners[..3].copy_from_slice(&tri);
    for (axis, half) in b.axes.iter().zip(b.half.to_array()) {
        for sign in [1.0f32, -1.0] {
            // Inside is `sign * (p - c) . axis <= half`.
            let (axis, centre) = (*axis, b.centre);
            poly = poly.clip(move |p| sign * (p - centre).dot(axis) - half);
            if poly.len < 3 {
                return Vec::new();
            }
        }
    }
    (1..poly.len - 1)
        .map(|i| [poly.corners[0], poly.corners[i], poly.corners[i + 1]])
        .filter(|t| (t[1] - t[0]).cross(t[2] - t[0]).length_squared() > 0.0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> OrientedBox {
        OrientedBox {
            centre: Vec3::ZERO,
            axes: [Vec3::X, Vec3::Y, Vec3::Z],
            half: Vec3::ONE,
        }
    }

    fn area(ts: &[[Vec3; 3]]) -> f32 {
        ts.iter()
            .map(|t| 0.5 * (t[1] - t[0]).cross(t[2] - t[0]).length())
            .sum()
    }

    #[test]
    fn a_big_triangle_through_the_box_is_cut_to_the_boxs_square() {
        // In the plane z = 0, far larger than the box: what is left is its 2 x 2 square.
        let tri = [
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(30.0, -10.0, 0.0),
            Vec3::new(-10.0, 30.0, 0.0),
        ];
        let cut = clip_to_box(tri, &unit_box());
        assert!((area(&cut) - 4.0).abs() < 1e-4, "{}", area(&cut));
        for t in &cut {
            for v in t {
                assert!(v.abs().max_element() <= 1.0 + 1e-5 && v.z == 0.0, "{v}");
            }
            // Wound as the triangle: its normal is +z.
            assert!((t[1] - t[0]).cross(t[2] - t[0]).z > 0.0);
        }
    }

    #[test]
    fn a_triangle_outside_or_touching_an_edge_leaves_nothing() {
        let out = [
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(3.0, 0.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
        ];
        assert!(clip_to_box(out, &unit_box()).is_empty());
        let touching = [
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
        ];
        assert!(clip_to_box(touching, &unit_box()).is_empty());
    }

    #[test]
    fn a_turned_box_keeps_only_what_is_inside_it() {
        // A box turned 45 degrees about z over a big floor: its cut is the turned square,
        // area 4, every corner within the box.
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let b = OrientedBox {
            centre: Vec3::new(5.0, 5.0, 0.0),
            axes: [Vec3::new(s, s, 0.0), Vec3::new(-s, s, 0.0), Vec3::Z],
            half: Vec3::new(1.0, 1.0, 0.5),
        };
        let floor = [
            Vec3::new(-50.0, -50.0, 0.0),
            Vec3::new(50.0, -50.0, 0.0),
            Vec3::new(0.0, 50.0, 0.0),
        ];
        let cut = clip_to_box(floor, &b);
        assert!((area(&cut) - 4.0).abs() < 1e-3, "{}", area(&cut));
        for v in cut.iter().flatten() {
            assert!(b.local(*v).abs().max_element() <= 1.0 + 1e-4, "{v}");
        }
    }
}
