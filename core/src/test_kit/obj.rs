//! OBJ text of the tests' geometry: a triangle soup, and boxes written as quads.

use glam::Vec3;

use super::boxes::{BOX_QUADS, box_corner};

/// `tris` as OBJ text: every corner (`v`), then a face (`f`) of each three.
pub fn obj_text(tris: &[[Vec3; 3]]) -> String {
    obj_text_in(tris, false, 1.0)
}

/// `tris` (world coordinates, metres) as OBJ text in other units and axes: positions
/// divided by `metres_per_unit`, and written Z-up (the file's `(x, -z, y)` for the world's
/// `(x, y, z)`) when `z_up`.
pub fn obj_text_in(tris: &[[Vec3; 3]], z_up: bool, metres_per_unit: f32) -> String {
    let mut s = String::with_capacity(tris.len() * 100);
    for t in tris {
        for v in t {
            let p = *v / metres_per_unit;
            let p = if z_up { Vec3::new(p.x, -p.z, p.y) } else { p };
            s += &format!("v {} {} {}\n", p.x, p.y, p.z);
        }
    }
    for k in 0..tris.len() {
        s += &format!("f {} {} {}\n", 3 * k + 1, 3 * k + 2, 3 * k + 3);
    }
    s
}

/// OBJ text built box by box: each box its eight corners and six quads.
#[derive(Clone, Debug, Default)]
pub struct BoxesObj {
    /// The text so far.
    pub text: String,
    /// Vertices written so far (the next box's are numbered after them).
    pub vertices: usize,
}

impl BoxesObj {
    /// The box from `lo` to `hi`: its faces wound out of it (a solid: a crate, a block),
    /// or into it when `inward` (a room, seen from inside).
    pub fn boxed(&mut self, lo: Vec3, hi: Vec3, inward: bool) -> &mut Self {
        for i in 0..8 {
            let p = box_corner(lo, hi, i);
            self.text += &format!("v {} {} {}\n", p.x, p.y, p.z);
        }
        for mut q in BOX_QUADS {
            if inward {
                q.reverse();
            }
            let [a, b, c, d] = q.map(|k| k + 1 + self.vertices);
            self.text += &format!("f {a} {b} {c} {d}\n");
        }
        self.vertices += 8;
        self
    }
}
