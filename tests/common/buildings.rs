//! Generated levels for judging the survey's rules (up axis, units, spawn): buildings of
//! many shapes in metres, Y up, with the things real levels have at a person's scale
//! (doors 2.1 m, stairs of 0.17 m rises, tables, beds, shelves, railings), some built of
//! closed solids as game levels are, some of single-sided surfaces as architectural
//! exports are. Written out in any up axis and unit by the test kit's `obj_text_in`.
//!
//! None of them copies a shared map: they are the cases a rule must handle, and the
//! survey is judged by how many of them it gets right.
#![allow(dead_code)]

use glam::Vec3;

use super::cube;
use walkthrough_core::test_kit::random::Xorshift32;

/// Triangles under construction, in metres, Y up.
#[derive(Default)]
pub struct Builder {
    pub tris: Vec<[Vec3; 3]>,
}

/// A rectangular hole in a wall: from `a` to `b` along the wall, from `lo` to `hi` up.
#[derive(Clone, Copy)]
pub struct Opening {
    pub a: f32,
    pub b: f32,
    pub lo: f32,
    pub hi: f32,
}

/// A door 0.9 m wide and 2.1 m tall whose left side is `at` along the wall.
pub fn door(at: f32) -> Opening {
    Opening {
        a: at,
        b: at + 0.9,
        lo: 0.0,
        hi: 2.1,
    }
}

/// A window from `at` to `at + w` along the wall, sill at 0.9 m, top at 2.2 m.
pub fn window(at: f32, w: f32) -> Opening {
    Opening {
        a: at,
        b: at + w,
        lo: 0.9,
        hi: 2.2,
    }
}

impl Builder {
    /// A closed box.
    pub fn solid(&mut self, min: Vec3, max: Vec3) {
        self.tris.extend(cube(min.min(max), min.max(max)));
    }

    /// A single-sided quad `a b c d`.
    pub fn quad(&mut self, a: Vec3, b: Vec3, c: Vec3, d: Vec3) {
        self.tris.push([a, b, c]);
        self.tris.push([a, c, d]);
    }

    /// A single-sided horizontal rectangle at height `y`.
    pub fn plane(&mut self, x0: f32, z0: f32, x1: f32, z1: f32, y: f32) {
        self.quad(
            Vec3::new(x0, y, z0),
            Vec3::new(x0, y, z1),
            Vec3::new(x1, y, z1),
            Vec3::new(x1, y, z0),
        );
    }

    /// A wall `t` thick from `(x0, z0)` to `(x1, z1)` (along x or along z), from `y0` up
    /// `h`, with openings measured along it from its start and up from `y0`. `solid`
    /// builds it of closed boxes, else of single-sided panels in its middle plane.
    #[allow(clippy::too_many_arguments)]
    pub fn wall(
        &mut self,
        (x0, z0): (f32, f32),
        (x1, z1): (f32, f32),
        y0: f32,
        h: f32,
        t: f32,
        openings: &[Opening],
        solid: bool,
    ) {
        let len = (x1 - x0).abs() + (z1 - z0).abs();
        let along_x = (x1 - x0).abs() >= (z1 - z0).abs();
        let (sx, sz) = ((x1 - x0).signum(), (z1 - z0).signum());
        // A piece of the wall from `a` to `b` along it and `lo` to `hi` up.
        let mut piece = |a: f32, b: f32, lo: f32, hi: f32| {
            if b - a < 1e-3 || hi - lo < 1e-3 {
                return;
            }
            let p = |s: f32| {
                if along_x {
                    (x0 + sx * s, z0)
                } else {
                    (x0, z0 + sz * s)
                }
            };
            let ((ax, az), (bx, bz)) = (p(a), p(b));
            if solid {
                let (hx, hz) = if along_x {
                    (0.0, t / 2.0)
                } else {
                    (t / 2.0, 0.0)
                };
                self.solid(
                    Vec3::new(ax.min(bx) - hx, y0 + lo, az.min(bz) - hz),
                    Vec3::new(ax.max(bx) + hx, y0 + hi, az.max(bz) + hz),
                );
            } else {
                self.quad(
                    Vec3::new(ax, y0 + lo, az),
                    Vec3::new(bx, y0 + lo, bz),
                    Vec3::new(bx, y0 + hi, bz),
                    Vec3::new(ax, y0 + hi, az),
                );
            }
        };
        let mut ops: Vec<Opening> = openings.to_vec();
        ops.sort_by(|p, q| p.a.total_cmp(&q.a));
        let mut at = 0.0;
        for o in &ops {
            piece(at, o.a, 0.0, h);
            piece(o.a, o.b, 0.0, o.lo);
            piece(o.a, o.b, o.hi.min(h), h);
            at = o.b;
        }
        piece(at, len, 0.0, h);
    }

    /// A room: floor and ceiling slabs `t` thick and four walls, with openings per wall
    /// (in the order -z, +x, +z, -x).
    #[allow(clippy::too_many_arguments)]
    pub fn room(
        &mut self,
        min: Vec3,
        size: Vec3,
        t: f32,
        openings: [&[Opening]; 4],
        solid: bool,
        ceiling: bool,
    ) {
        let max = min + size;
        if solid {
            self.solid(
                Vec3::new(min.x, min.y - t, min.z),
                Vec3::new(max.x, min.y, max.z),
            );
            if ceiling {
                self.solid(
                    Vec3::new(min.x, max.y, min.z),
                    Vec3::new(max.x, max.y + t, max.z),
                );
            }
        } else {
            self.plane(min.x, min.z, max.x, max.z, min.y);
            if ceiling {
                self.plane(min.x, min.z, max.x, max.z, max.y);
            }
        }
        let h = size.y;
        self.wall(
            (min.x, min.z),
            (max.x, min.z),
            min.y,
            h,
            t,
            openings[0],
            solid,
        );
        self.wall(
            (max.x, min.z),
            (max.x, max.z),
            min.y,
            h,
            t,
            openings[1],
            solid,
        );
        self.wall(
            (min.x, max.z),
            (max.x, max.z),
            min.y,
            h,
            t,
            openings[2],
            solid,
        );
        self.wall(
            (min.x, min.z),
            (min.x, max.z),
            min.y,
            h,
            t,
            openings[3],
            solid,
        );
    }

    /// A flight of `n` solid steps (rise 0.17 m, run 0.28 m) `w` wide, starting at
    /// `(x, y, z)` and climbing along `dir` (a unit x or z direction).
    pub fn stairs(&mut self, x: f32, y: f32, z: f32, dir: Vec3, w: f32, n: usize) {
        let (rise, run) = (0.17, 0.28);
        let side = Vec3::new(dir.z.abs(), 0.0, dir.x.abs()) * w;
        for k in 0..n {
            let a = Vec3::new(x, y, z) + dir * (k as f32 * run);
            let b = a + dir * run + side + Vec3::Y * (rise * (k + 1) as f32);
            self.solid(a, b);
        }
    }

    /// A table 1.2 x 0.8 m, 0.75 m tall, on the floor at height `y`.
    pub fn table(&mut self, x: f32, y: f32, z: f32) {
        self.solid(
            Vec3::new(x, y + 0.72, z),
            Vec3::new(x + 1.2, y + 0.76, z + 0.8),
        );
        for (dx, dz) in [(0.0, 0.0), (1.15, 0.0), (0.0, 0.75), (1.15, 0.75)] {
            self.solid(
                Vec3::new(x + dx, y, z + dz),
                Vec3::new(x + dx + 0.05, y + 0.72, z + dz + 0.05),
            );
        }
    }

    /// A chair: a seat at 0.45 m on four legs, a back to 0.9 m.
    pub fn chair(&mut self, x: f32, y: f32, z: f32) {
        self.solid(
            Vec3::new(x, y + 0.42, z),
            Vec3::new(x + 0.45, y + 0.46, z + 0.45),
        );
        self.solid(
            Vec3::new(x, y + 0.46, z + 0.41),
            Vec3::new(x + 0.45, y + 0.9, z + 0.45),
        );
        for (dx, dz) in [(0.0, 0.0), (0.41, 0.0), (0.0, 0.41), (0.41, 0.41)] {
            self.solid(
                Vec3::new(x + dx, y, z + dz),
                Vec3::new(x + dx + 0.04, y + 0.42, z + dz + 0.04),
            );
        }
    }

    /// A bed, a sofa or a cabinet: a solid block standing on the floor.
    pub fn block(&mut self, x: f32, y: f32, z: f32, size: Vec3) {
        self.solid(Vec3::new(x, y, z), Vec3::new(x, y, z) + size);
    }

    /// A prism column of `sides` sides, radius `r`, from `y0` to `y1`, with caps.
    pub fn column(&mut self, x: f32, z: f32, y0: f32, y1: f32, r: f32, sides: usize) {
        let p = |k: usize, y: f32| {
            let a = k as f32 * std::f32::consts::TAU / sides as f32;
            Vec3::new(x + r * a.cos(), y, z + r * a.sin())
        };
        for k in 0..sides {
            let (a, b) = (p(k, y0), p(k + 1, y0));
            let (c, d) = (p(k + 1, y1), p(k, y1));
            self.quad(a, b, c, d);
            self.tris.push([Vec3::new(x, y0, z), b, a]);
            self.tris.push([Vec3::new(x, y1, z), d, c]);
        }
    }

    /// A railing: posts every metre and a rail at 1.0 m, from `a` to `b` at height `y`.
    pub fn railing(&mut self, a: Vec3, b: Vec3) {
        let len = (b - a).length();
        let dir = (b - a) / len;
        let n = len.ceil() as usize;
        for k in 0..=n {
            let p = a + dir * (k as f32 * len / n as f32);
            self.solid(
                p - Vec3::new(0.03, 0.0, 0.03),
                p + Vec3::new(0.03, 1.0, 0.03),
            );
        }
        let lo = a.min(b) - Vec3::new(0.03, 0.0, 0.03) + Vec3::Y * 0.95;
        let hi = a.max(b) + Vec3::new(0.03, 0.0, 0.03) + Vec3::Y * 1.0;
        self.solid(lo, hi);
    }

    /// A gabled roof over `x0..x1`, `z0..z1` from height `y`, ridge along x, `h` high.
    pub fn gable_roof(&mut self, x0: f32, z0: f32, x1: f32, z1: f32, y: f32, h: f32) {
        let zm = (z0 + z1) / 2.0;
        let (a, b) = (Vec3::new(x0, y, z0), Vec3::new(x1, y, z0));
        let (c, d) = (Vec3::new(x1, y, z1), Vec3::new(x0, y, z1));
        let (r0, r1) = (Vec3::new(x0, y + h, zm), Vec3::new(x1, y + h, zm));
        self.quad(a, b, r1, r0);
        self.quad(c, d, r0, r1);
        self.tris.push([a, r0, d]);
        self.tris.push([b, c, r1]);
    }

    /// A barrel vault (a half cylinder along x) over `x0..x1`, spanning `z0..z1`, springing
    /// at height `y`, in `n` facets.
    pub fn vault(&mut self, x0: f32, x1: f32, z0: f32, z1: f32, y: f32, n: usize) {
        let (zm, r) = ((z0 + z1) / 2.0, (z1 - z0) / 2.0);
        let p = |k: usize, x: f32| {
            let a = k as f32 * std::f32::consts::PI / n as f32;
            Vec3::new(x, y + r * a.sin(), zm - r * a.cos())
        };
        for k in 0..n {
            self.quad(p(k, x0), p(k, x1), p(k + 1, x1), p(k + 1, x0));
        }
    }

    /// A row of arches along x between `x0` and `x1` at `z`: columns every `span` metres
    /// from `y0` to `y0 + h`, a semicircular arch of solid voussoirs over each span, and
    /// the wall above up to `top`.
    #[allow(clippy::too_many_arguments)]
    pub fn arcade(&mut self, x0: f32, x1: f32, z: f32, y0: f32, h: f32, span: f32, top: f32) {
        let n = ((x1 - x0) / span).round().max(1.0) as usize;
        let span = (x1 - x0) / n as f32;
        let r = span / 2.0 - 0.3;
        for k in 0..=n {
            let x = x0 + k as f32 * span;
            self.column(x, z, y0, y0 + h, 0.3, 8);
        }
        for k in 0..n {
            let c = x0 + (k as f32 + 0.5) * span;
            for s in 0..8 {
                let (a0, a1) = (
                    s as f32 * std::f32::consts::PI / 8.0,
                    (s + 1) as f32 * std::f32::consts::PI / 8.0,
                );
                let (xa, xb) = (c - r * a0.cos(), c - r * a1.cos());
                let (ya, yb) = (y0 + h + r * a0.sin(), y0 + h + r * a1.sin());
                self.solid(
                    Vec3::new(xa.min(xb), ya.min(yb), z - 0.3),
                    Vec3::new(xa.max(xb), top, z + 0.3),
                );
            }
        }
    }

    /// A height field over `x0..x1`, `z0..z1` in `n` x `n` quads, single-sided.
    pub fn terrain(
        &mut self,
        x0: f32,
        z0: f32,
        x1: f32,
        z1: f32,
        n: usize,
        f: impl Fn(f32, f32) -> f32,
    ) {
        let p = |i: usize, j: usize| {
            let x = x0 + (x1 - x0) * i as f32 / n as f32;
            let z = z0 + (z1 - z0) * j as f32 / n as f32;
            Vec3::new(x, f(x, z), z)
        };
        for i in 0..n {
            for j in 0..n {
                self.quad(p(i, j), p(i, j + 1), p(i + 1, j + 1), p(i + 1, j));
            }
        }
    }
}

/// A level to survey: its name and triangles (metres, Y up).
pub struct Level {
    pub name: &'static str,
    pub tris: Vec<[Vec3; 3]>,
}

fn level(name: &'static str, b: Builder) -> Level {
    Level { name, tris: b.tris }
}

/// A small furnished room: a table and chairs, a bed, a shelf.
fn furnish(b: &mut Builder, x: f32, y: f32, z: f32) {
    b.table(x + 1.0, y, z + 1.0);
    b.chair(x + 1.1, y, z + 0.4);
    b.chair(x + 1.6, y, z + 1.9);
    b.block(x + 2.8, y, z + 0.2, Vec3::new(1.4, 0.5, 2.0));
    b.block(x + 0.1, y, z + 2.6, Vec3::new(1.0, 2.0, 0.4));
}

/// One room 5 x 4 m, 2.7 m high, a door, a window, furniture; single-sided.
pub fn single_room() -> Level {
    let mut b = Builder::default();
    b.room(
        Vec3::ZERO,
        Vec3::new(5.0, 2.7, 4.0),
        0.2,
        [&[door(0.5)], &[window(1.0, 1.5)], &[], &[]],
        false,
        true,
    );
    furnish(&mut b, 0.3, 0.0, 0.5);
    level("single room", b)
}

/// A long nave 40 x 17 m, 24 m to its vault, aisles behind arcades, pews, altar steps,
/// a 5 m portal; walls 1 m thick.
pub fn long_nave() -> Level {
    let mut b = Builder::default();
    b.solid(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(41.0, 0.0, 18.0));
    let portal = Opening {
        a: 6.0,
        b: 11.0,
        lo: 0.0,
        hi: 5.0,
    };
    b.wall(
        (0.0, 0.0),
        (40.0, 0.0),
        0.0,
        12.0,
        1.0,
        &[window(10.0, 2.0), window(25.0, 2.0)],
        true,
    );
    b.wall(
        (0.0, 17.0),
        (40.0, 17.0),
        0.0,
        12.0,
        1.0,
        &[window(10.0, 2.0), window(25.0, 2.0)],
        true,
    );
    b.wall((0.0, 0.0), (0.0, 17.0), 0.0, 24.0, 1.0, &[portal], true);
    b.wall((40.0, 0.0), (40.0, 17.0), 0.0, 24.0, 1.0, &[], true);
    // Aisle ceilings at 12 m, arcades at z = 4 and 13, clerestory walls up to 16 m.
    b.solid(Vec3::new(0.0, 12.0, 0.0), Vec3::new(40.0, 12.5, 4.0));
    b.solid(Vec3::new(0.0, 12.0, 13.0), Vec3::new(40.0, 12.5, 17.0));
    b.arcade(1.0, 39.0, 4.0, 0.0, 8.0, 5.0, 16.0);
    b.arcade(1.0, 39.0, 13.0, 0.0, 8.0, 5.0, 16.0);
    b.vault(0.0, 40.0, 4.0, 13.0, 16.0, 12);
    b.gable_roof(0.0, -1.0, 40.0, 18.0, 20.5, 6.0);
    for row in 0..10 {
        let x = 6.0 + row as f32 * 2.2;
        b.block(x, 0.0, 5.0, Vec3::new(0.5, 0.45, 3.0));
        b.block(x, 0.0, 9.0, Vec3::new(0.5, 0.45, 3.0));
        b.block(x + 0.45, 0.0, 5.0, Vec3::new(0.08, 0.9, 3.0));
        b.block(x + 0.45, 0.0, 9.0, Vec3::new(0.08, 0.9, 3.0));
    }
    b.stairs(33.0, 0.0, 5.0, Vec3::X, 7.0, 4);
    b.block(35.0, 0.68, 7.0, Vec3::new(2.0, 1.0, 3.0));
    level("long nave", b)
}

/// A two-storey atrium 35 x 16 m, 15 m high: arcades on columns round an open court, a
/// gallery with a balustrade at 6.5 m, stairs up to it, single-sided shell.
pub fn atrium() -> Level {
    let mut b = Builder::default();
    b.plane(0.0, 0.0, 35.0, 16.0, 0.0);
    for (a, c) in [((0.0, 0.0), (35.0, 0.0)), ((0.0, 16.0), (35.0, 16.0))] {
        b.wall(
            a,
            c,
            0.0,
            15.0,
            0.5,
            &[door(5.0), window(12.0, 2.0), window(22.0, 2.0)],
            false,
        );
    }
    b.wall((0.0, 0.0), (0.0, 16.0), 0.0, 15.0, 0.5, &[door(7.5)], false);
    b.wall((35.0, 0.0), (35.0, 16.0), 0.0, 15.0, 0.5, &[], false);
    // Galleries 4 m deep round a court from (4, 4) to (31, 12): floors at 6.5 m, roofs at
    // 13 m; the court is open to the sky.
    for (x0, z0, x1, z1) in [
        (0.0, 0.0, 35.0, 4.0),
        (0.0, 12.0, 35.0, 16.0),
        (0.0, 4.0, 4.0, 12.0),
        (31.0, 4.0, 35.0, 12.0),
    ] {
        b.solid(Vec3::new(x0, 6.2, z0), Vec3::new(x1, 6.5, z1));
        b.plane(x0, z0, x1, z1, 13.0);
    }
    b.arcade(4.0, 31.0, 4.0, 0.0, 4.0, 4.5, 6.2);
    b.arcade(4.0, 31.0, 12.0, 0.0, 4.0, 4.5, 6.2);
    b.arcade(4.0, 31.0, 4.0, 6.5, 4.0, 4.5, 13.0);
    b.arcade(4.0, 31.0, 12.0, 6.5, 4.0, 4.5, 13.0);
    b.railing(Vec3::new(4.0, 6.5, 4.3), Vec3::new(31.0, 6.5, 4.3));
    b.railing(Vec3::new(4.0, 6.5, 11.7), Vec3::new(31.0, 6.5, 11.7));
    b.stairs(0.5, 0.0, 0.5, Vec3::Z, 1.2, 38);
    level("atrium", b)
}

/// A tower 8 x 8 m of ten storeys 3.2 m high, stairs up through each slab.
pub fn tower() -> Level {
    let mut b = Builder::default();
    for k in 0..10 {
        let y = k as f32 * 3.2;
        // The slab with a stairwell hole at x 0.5..1.7, z 1..6.
        b.solid(Vec3::new(0.0, y - 0.2, 0.0), Vec3::new(0.5, y, 8.0));
        b.solid(Vec3::new(1.7, y - 0.2, 0.0), Vec3::new(8.0, y, 8.0));
        b.solid(Vec3::new(0.5, y - 0.2, 0.0), Vec3::new(1.7, y, 1.0));
        b.solid(Vec3::new(0.5, y - 0.2, 6.0), Vec3::new(1.7, y, 8.0));
        let doors: &[Opening] = if k == 0 {
            &[door(3.0)]
        } else {
            &[window(3.0, 2.0)]
        };
        b.wall((0.0, 0.0), (8.0, 0.0), y, 3.0, 0.3, doors, true);
        b.wall(
            (8.0, 0.0),
            (8.0, 8.0),
            y,
            3.0,
            0.3,
            &[window(3.0, 2.0)],
            true,
        );
        b.wall(
            (0.0, 8.0),
            (8.0, 8.0),
            y,
            3.0,
            0.3,
            &[window(3.0, 2.0)],
            true,
        );
        b.wall((0.0, 0.0), (0.0, 8.0), y, 3.0, 0.3, &[], true);
        b.stairs(0.5, y, 1.0, Vec3::Z, 1.2, 18);
        b.table(4.0, y, 3.0);
        b.chair(4.2, y, 2.3);
    }
    b.solid(Vec3::new(0.0, 31.8, 0.0), Vec3::new(8.0, 32.0, 8.0));
    level("tower", b)
}

/// A two-storey house 12 x 9 m: rooms with doors, stairs, furniture, a gabled roof.
pub fn house() -> Level {
    let mut b = Builder::default();
    for storey in 0..2 {
        let y = storey as f32 * 2.9;
        let outer: &[Opening] = if storey == 0 {
            &[door(2.0), window(6.0, 1.5)]
        } else {
            &[window(2.0, 1.5), window(6.0, 1.5)]
        };
        b.room(
            Vec3::new(0.0, y, 0.0),
            Vec3::new(12.0, 2.6, 9.0),
            0.3,
            [
                outer,
                &[window(3.0, 1.5)],
                &[window(4.0, 1.5)],
                &[window(3.0, 1.5)],
            ],
            true,
            storey == 1,
        );
        b.wall(
            (6.0, 0.0),
            (6.0, 9.0),
            y,
            2.6,
            0.15,
            &[door(2.0), door(6.0)],
            true,
        );
        b.wall((0.0, 4.5), (6.0, 4.5), y, 2.6, 0.15, &[door(3.5)], true);
        furnish(&mut b, 0.5, y, 0.5);
        furnish(&mut b, 7.0, y, 5.0);
    }
    // The upper floor (with a stairwell) and the stairs.
    b.solid(Vec3::new(0.0, 2.6, 0.0), Vec3::new(12.0, 2.9, 5.0));
    b.solid(Vec3::new(0.0, 2.6, 6.2), Vec3::new(12.0, 2.9, 9.0));
    b.solid(Vec3::new(0.0, 2.6, 5.0), Vec3::new(9.0, 2.9, 6.2));
    b.stairs(6.5, 0.0, 5.0, Vec3::X, 1.2, 17);
    b.gable_roof(-0.5, -0.5, 12.5, 9.5, 5.8, 3.0);
    level("house", b)
}

/// A town: a ground plane 300 m square and 64 blocks 8 to 24 m tall along streets, each
/// a shop at street level (a door, a shop window, a counter) under a closed solid, with
/// kerbs, benches and lamp posts along the streets.
pub fn town() -> Level {
    let mut b = Builder::default();
    b.plane(-150.0, -150.0, 150.0, 150.0, 0.0);
    for i in 0..8 {
        for j in 0..8 {
            let (x, z) = (-140.0 + i as f32 * 35.0, -140.0 + j as f32 * 35.0);
            let h = 8.0 + ((i * 7 + j * 3) % 9) as f32 * 2.0;
            b.room(
                Vec3::new(x, 0.0, z),
                Vec3::new(22.0, 3.6, 20.0),
                0.3,
                [&[door(4.0), window(7.0, 6.0)], &[], &[], &[]],
                true,
                false,
            );
            b.solid(Vec3::new(x, 3.6, z), Vec3::new(x + 22.0, h, z + 20.0));
            b.block(x + 2.0, 0.0, z + 3.0, Vec3::new(6.0, 0.95, 0.6));
            b.solid(
                Vec3::new(x + 22.0, 0.0, z + 2.0),
                Vec3::new(x + 23.0, 0.15, z + 18.0),
            );
            b.block(x + 23.5, 0.0, z + 8.0, Vec3::new(0.5, 0.45, 1.8));
            b.column(x + 24.0, z + 4.0, 0.0, 4.5, 0.08, 6);
        }
    }
    level("town of blocks", b)
}

/// A town of closed boxes: blocks 8 to 24 m high along streets 10 to 16 m wide on a flat
/// ground 300 m square, with kerbs and nothing inside (no rooms, doors or furniture: the
/// only human measures are the streets' width and the kerbs). Read in metres it once
/// opened in inches.
pub fn town_of_closed_boxes() -> Level {
    let mut b = Builder::default();
    b.plane(-150.0, -150.0, 150.0, 150.0, 0.0);
    for i in 0..9 {
        for j in 0..9 {
            let street = 10.0 + ((i + 2 * j) % 4) as f32 * 2.0;
            let (x, z) = (-140.0 + i as f32 * 31.0, -140.0 + j as f32 * 31.0);
            let (w, d) = (31.0 - street, 18.0 + ((i * 5 + j) % 3) as f32 * 2.0);
            let h = 8.0 + ((i * 7 + j * 3) % 9) as f32 * 2.0;
            b.solid(Vec3::new(x, 0.0, z), Vec3::new(x + w, h, z + d));
            b.solid(
                Vec3::new(x - 1.5, 0.0, z - 1.5),
                Vec3::new(x + w + 1.5, 0.15, z - 0.5),
            );
        }
    }
    level("town of closed boxes", b)
}

/// Rolling open terrain 400 m square with four small houses (rooms, doors, tables).
pub fn terrain_with_houses() -> Level {
    let mut b = Builder::default();
    let ground = |x: f32, z: f32| 4.0 * (x * 0.02).sin() * (z * 0.015).cos();
    b.terrain(-200.0, -200.0, 200.0, 200.0, 60, ground);
    for (k, (x, z)) in [(-60.0, -40.0), (30.0, 50.0), (80.0, -70.0), (-20.0, 90.0)]
        .into_iter()
        .enumerate()
    {
        let y = ground(x + 3.0, z + 3.0) + 0.3;
        b.solid(
            Vec3::new(x - 1.0, y - 3.0, z - 1.0),
            Vec3::new(x + 7.0, y, z + 7.0),
        );
        b.room(
            Vec3::new(x, y, z),
            Vec3::new(6.0, 2.6, 6.0),
            0.25,
            [&[door(2.0 + k as f32 * 0.3)], &[window(2.0, 1.5)], &[], &[]],
            true,
            true,
        );
        b.table(x + 2.0, y, z + 2.0);
        b.gable_roof(x - 0.3, z - 0.3, x + 6.3, z + 6.3, y + 2.85, 2.0);
    }
    level("open terrain with houses", b)
}

/// A maze of corridors 2 m wide and 3 m high on a 10 x 10 grid, floor and ceiling.
pub fn corridor_maze() -> Level {
    let mut b = Builder::default();
    let n = 10;
    let cell = 3.0;
    let size = n as f32 * cell;
    b.solid(Vec3::new(0.0, -0.3, 0.0), Vec3::new(size, 0.0, size));
    b.solid(Vec3::new(0.0, 3.0, 0.0), Vec3::new(size, 3.3, size));
    b.wall((0.0, 0.0), (size, 0.0), 0.0, 3.0, 0.5, &[door(1.0)], true);
    b.wall((0.0, size), (size, size), 0.0, 3.0, 0.5, &[], true);
    b.wall((0.0, 0.0), (0.0, size), 0.0, 3.0, 0.5, &[], true);
    b.wall((size, 0.0), (size, size), 0.0, 3.0, 0.5, &[], true);
    // Interior walls from a fixed pattern: each cell has a wall on its east or south side.
    let mut rng = Xorshift32(12345);
    for i in 0..n {
        for j in 0..n {
            let x = rng.next_u32();
            let (cx, cz) = (i as f32 * cell, j as f32 * cell);
            if x.is_multiple_of(2) && i + 1 < n {
                b.wall(
                    (cx + cell, cz),
                    (cx + cell, cz + cell),
                    0.0,
                    3.0,
                    0.5,
                    &[],
                    true,
                );
            } else if j + 1 < n {
                b.wall(
                    (cx, cz + cell),
                    (cx + cell, cz + cell),
                    0.0,
                    3.0,
                    0.5,
                    &[],
                    true,
                );
            }
        }
    }
    level("corridor maze", b)
}

/// A warehouse hall 60 x 30 m, 12 m high: racks 6 m tall, crates, a mezzanine at 4 m
/// with a railing and stairs.
pub fn warehouse() -> Level {
    let mut b = Builder::default();
    b.room(
        Vec3::ZERO,
        Vec3::new(60.0, 12.0, 30.0),
        0.4,
        [
            &[
                Opening {
                    a: 5.0,
                    b: 10.0,
                    lo: 0.0,
                    hi: 5.0,
                },
                door(14.0),
            ],
            &[],
            &[window(10.0, 4.0)],
            &[],
        ],
        false,
        true,
    );
    for r in 0..6 {
        let z = 4.0 + r as f32 * 3.5;
        b.block(15.0, 0.0, z, Vec3::new(30.0, 6.0, 1.2));
    }
    for k in 0..12 {
        b.block(
            48.0 + (k % 4) as f32 * 1.5,
            0.0,
            3.0 + (k / 4) as f32 * 1.5,
            Vec3::splat(1.2),
        );
    }
    b.solid(Vec3::new(48.0, 3.8, 18.0), Vec3::new(60.0, 4.0, 30.0));
    b.railing(Vec3::new(48.0, 4.0, 18.2), Vec3::new(60.0, 4.0, 18.2));
    b.stairs(44.0, 0.0, 20.0, Vec3::X, 1.2, 14);
    level("warehouse", b)
}

/// A stadium: a pitch 100 x 60 m in a bowl of 30 tiers of seats (0.4 m rise, 0.8 m deep)
/// on all four sides, open to the sky, with stairs between sections.
pub fn stadium() -> Level {
    let mut b = Builder::default();
    b.plane(-50.0, -30.0, 50.0, 30.0, 0.0);
    for k in 0..30 {
        let (d, y) = (k as f32 * 0.8, (k + 1) as f32 * 0.4);
        b.solid(
            Vec3::new(-50.0 - d - 0.8, 0.0, -30.0 - d - 0.8),
            Vec3::new(50.0 + d + 0.8, y, -30.0 - d),
        );
        b.solid(
            Vec3::new(-50.0 - d - 0.8, 0.0, 30.0 + d),
            Vec3::new(50.0 + d + 0.8, y, 30.0 + d + 0.8),
        );
        b.solid(
            Vec3::new(-50.0 - d - 0.8, 0.0, -30.0 - d),
            Vec3::new(-50.0 - d, y, 30.0 + d),
        );
        b.solid(
            Vec3::new(50.0 + d, 0.0, -30.0 - d),
            Vec3::new(50.0 + d + 0.8, y, 30.0 + d),
        );
    }
    // Aisles up the stands on the long sides: two steps of 0.2 m to each tier, railed.
    for x in [-30.0, 0.0, 30.0] {
        for side in [-1.0f32, 1.0] {
            for k in 0..60 {
                let (d, y) = (k as f32 * 0.4, (k + 1) as f32 * 0.2);
                let z0 = side * (30.0 + d);
                let z1 = side * (30.0 + d + 0.4);
                b.solid(
                    Vec3::new(x, y - 0.2, z0.min(z1)),
                    Vec3::new(x + 1.2, y, z0.max(z1)),
                );
            }
            b.railing(
                Vec3::new(x - 0.1, 0.0, side * 30.0),
                Vec3::new(x - 0.1, 0.0, side * 30.5),
            );
        }
    }
    level("stadium", b)
}

/// A cathedral cross: a nave 50 x 14 m and a transept 36 x 12 m, 22 m high, piers but
/// no furniture (walls, floor and vaults only: a hard case).
/// A great cathedral: one nave 60 x 20 m with its vault springing at 32 m and its
/// crown at 42, doors of 2.1 m in its walls, 40 rows of pews (seats 0.45 m, backs 0.9 m),
/// three steps of 0.17 m up to the choir and a sacristy of 4 m through a door. Nothing
/// in it is a storey of a house: only doors, risers and seats say it is in metres (not
/// in feet, where the nave would be a 13 m hall).
pub fn great_cathedral() -> Level {
    let mut b = Builder::default();
    b.solid(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(61.0, 0.0, 21.0));
    let doors = [door(8.0), door(20.0), door(35.0), door(50.0)];
    b.wall((0.0, 0.0), (60.0, 0.0), 0.0, 32.0, 1.0, &doors, true);
    b.wall((0.0, 20.0), (60.0, 20.0), 0.0, 32.0, 1.0, &doors, true);
    b.wall((0.0, 0.0), (0.0, 20.0), 0.0, 42.0, 1.0, &[door(9.5)], true);
    b.wall(
        (60.0, 0.0),
        (60.0, 20.0),
        0.0,
        42.0,
        1.0,
        &[door(4.0)],
        true,
    );
    b.vault(0.0, 60.0, 0.0, 20.0, 32.0, 16);
    for row in 0..20 {
        let x = 6.0 + row as f32 * 1.6;
        for z in [2.0, 11.0] {
            b.block(x, 0.0, z, Vec3::new(0.5, 0.45, 7.0));
            b.block(x + 0.45, 0.0, z, Vec3::new(0.08, 0.9, 7.0));
        }
    }
    for k in 0..8 {
        b.column(4.0 + k as f32 * 7.0, 1.5, 0.0, 32.0, 0.6, 8);
        b.column(4.0 + k as f32 * 7.0, 18.5, 0.0, 32.0, 0.6, 8);
    }
    b.stairs(44.0, 0.0, 3.0, Vec3::X, 14.0, 3);
    b.solid(Vec3::new(44.84, 0.0, 3.0), Vec3::new(56.0, 0.51, 17.0));
    b.block(50.0, 0.51, 9.0, Vec3::new(2.0, 1.0, 2.0));
    // The sacristy beyond the east wall: a room 6 x 5 x 4 m.
    b.room(
        Vec3::new(60.5, 0.0, 2.0),
        Vec3::new(6.0, 4.0, 5.0),
        0.3,
        [&[], &[], &[], &[]],
        true,
        true,
    );
    level("great cathedral", b)
}

pub fn cathedral_cross() -> Level {
    let mut b = Builder::default();
    b.plane(0.0, 0.0, 50.0, 14.0, 0.0);
    b.plane(30.0, -11.0, 42.0, 25.0, 0.0);
    b.wall(
        (0.0, 0.0),
        (30.0, 0.0),
        0.0,
        22.0,
        1.0,
        &[window(10.0, 3.0)],
        true,
    );
    b.wall((42.0, 0.0), (50.0, 0.0), 0.0, 22.0, 1.0, &[], true);
    b.wall(
        (0.0, 14.0),
        (30.0, 14.0),
        0.0,
        22.0,
        1.0,
        &[window(10.0, 3.0)],
        true,
    );
    b.wall((42.0, 14.0), (50.0, 14.0), 0.0, 22.0, 1.0, &[], true);
    b.wall(
        (0.0, 0.0),
        (0.0, 14.0),
        0.0,
        22.0,
        1.0,
        &[Opening {
            a: 5.0,
            b: 9.0,
            lo: 0.0,
            hi: 6.0,
        }],
        true,
    );
    b.wall((50.0, 0.0), (50.0, 14.0), 0.0, 22.0, 1.0, &[], true);
    b.wall(
        (30.0, -11.0),
        (42.0, -11.0),
        0.0,
        22.0,
        1.0,
        &[door(5.5)],
        true,
    );
    b.wall((30.0, 25.0), (42.0, 25.0), 0.0, 22.0, 1.0, &[], true);
    b.wall((30.0, -11.0), (30.0, 0.0), 0.0, 22.0, 1.0, &[], true);
    b.wall((42.0, -11.0), (42.0, 0.0), 0.0, 22.0, 1.0, &[], true);
    b.wall((30.0, 14.0), (30.0, 25.0), 0.0, 22.0, 1.0, &[], true);
    b.wall((42.0, 14.0), (42.0, 25.0), 0.0, 22.0, 1.0, &[], true);
    b.vault(0.0, 50.0, 0.0, 14.0, 15.0, 10);
    for k in 0..6 {
        b.column(4.0 + k as f32 * 4.5, 3.0, 0.0, 15.0, 0.6, 8);
        b.column(4.0 + k as f32 * 4.5, 11.0, 0.0, 15.0, 0.6, 8);
    }
    level("cathedral cross", b)
}

/// An open-plan office 40 x 25 m, 3.5 m high: a grid of columns, desks, partitions.
pub fn office_floor() -> Level {
    let mut b = Builder::default();
    b.room(
        Vec3::ZERO,
        Vec3::new(40.0, 3.5, 25.0),
        0.3,
        [
            &[door(2.0), door(20.0)],
            &[window(5.0, 15.0)],
            &[window(5.0, 30.0)],
            &[],
        ],
        true,
        true,
    );
    for i in 1..5 {
        for j in 1..3 {
            b.block(
                i as f32 * 8.0 - 0.3,
                0.0,
                j as f32 * 8.0 - 0.3,
                Vec3::new(0.6, 3.5, 0.6),
            );
        }
    }
    for i in 0..8 {
        for j in 0..4 {
            let (x, z) = (2.0 + i as f32 * 4.5, 2.0 + j as f32 * 5.5);
            b.table(x, 0.0, z);
            b.chair(x + 0.4, 0.0, z + 0.9);
            b.block(x - 0.1, 0.0, z - 0.2, Vec3::new(1.5, 1.5, 0.05));
        }
    }
    level("office floor", b)
}

/// An apartment block of five storeys 3 m apart: a corridor, rooms either side with
/// doors, stairs at the end.
pub fn apartment_block() -> Level {
    let mut b = Builder::default();
    for s in 0..5 {
        let y = s as f32 * 3.0;
        b.solid(Vec3::new(0.0, y - 0.25, 0.0), Vec3::new(30.0, y, 12.0));
        b.wall(
            (0.0, 0.0),
            (30.0, 0.0),
            y,
            2.75,
            0.25,
            &[
                window(3.0, 1.5),
                window(10.0, 1.5),
                window(17.0, 1.5),
                window(24.0, 1.5),
            ],
            true,
        );
        b.wall(
            (0.0, 12.0),
            (30.0, 12.0),
            y,
            2.75,
            0.25,
            &[
                window(3.0, 1.5),
                window(10.0, 1.5),
                window(17.0, 1.5),
                window(24.0, 1.5),
            ],
            true,
        );
        b.wall(
            (0.0, 0.0),
            (0.0, 12.0),
            y,
            2.75,
            0.25,
            &[if s == 0 { door(5.5) } else { window(5.0, 1.5) }],
            true,
        );
        b.wall((30.0, 0.0), (30.0, 12.0), y, 2.75, 0.25, &[], true);
        b.wall(
            (0.0, 5.0),
            (26.0, 5.0),
            y,
            2.75,
            0.15,
            &[door(3.0), door(10.0), door(17.0)],
            true,
        );
        b.wall(
            (0.0, 7.0),
            (26.0, 7.0),
            y,
            2.75,
            0.15,
            &[door(3.0), door(10.0), door(17.0)],
            true,
        );
        for x in [7.0, 14.0, 21.0] {
            b.wall((x, 0.0), (x, 5.0), y, 2.75, 0.15, &[], true);
            b.wall((x, 7.0), (x, 12.0), y, 2.75, 0.15, &[], true);
        }
        furnish(&mut b, 1.0, y, 1.0);
        furnish(&mut b, 15.0, y, 8.0);
    }
    b.solid(Vec3::new(0.0, 14.75, 0.0), Vec3::new(30.0, 15.0, 12.0));
    for s in 0..4 {
        b.stairs(26.5, s as f32 * 3.0, 0.5, Vec3::Z, 1.2, 17);
    }
    level("apartment block", b)
}

/// A castle: curtain walls 10 m high and 2 m thick round a 50 m court open to the sky,
/// four closed towers, a keep with rooms, stairs up to the wall walk.
pub fn castle() -> Level {
    let mut b = Builder::default();
    b.plane(-10.0, -10.0, 60.0, 60.0, 0.0);
    b.wall(
        (0.0, 0.0),
        (50.0, 0.0),
        0.0,
        10.0,
        2.0,
        &[Opening {
            a: 22.0,
            b: 27.0,
            lo: 0.0,
            hi: 4.5,
        }],
        true,
    );
    b.wall((0.0, 50.0), (50.0, 50.0), 0.0, 10.0, 2.0, &[], true);
    b.wall((0.0, 0.0), (0.0, 50.0), 0.0, 10.0, 2.0, &[], true);
    b.wall((50.0, 0.0), (50.0, 50.0), 0.0, 10.0, 2.0, &[], true);
    for (x, z) in [(0.0, 0.0), (50.0, 0.0), (0.0, 50.0), (50.0, 50.0)] {
        b.solid(
            Vec3::new(x - 3.0, 0.0, z - 3.0),
            Vec3::new(x + 3.0, 15.0, z + 3.0),
        );
    }
    b.stairs(5.0, 0.0, 1.0, Vec3::X, 1.5, 58);
    b.room(
        Vec3::new(30.0, 0.0, 30.0),
        Vec3::new(12.0, 3.5, 12.0),
        0.5,
        [&[door(5.0)], &[], &[window(4.0, 1.5)], &[]],
        true,
        true,
    );
    b.table(34.0, 0.0, 34.0);
    level("castle courtyard", b)
}

/// A parking garage: four decks 3 m apart on a grid of columns, open sides, ramps.
pub fn parking_garage() -> Level {
    let mut b = Builder::default();
    for k in 0..4 {
        let y = k as f32 * 3.0;
        b.solid(Vec3::new(0.0, y - 0.3, 0.0), Vec3::new(48.0, y, 32.0));
        b.railing(Vec3::new(0.0, y, 0.2), Vec3::new(48.0, y, 0.2));
        if k < 3 {
            for i in 0..7 {
                for j in 0..5 {
                    b.block(i as f32 * 8.0, y, j as f32 * 8.0, Vec3::new(0.5, 2.7, 0.5));
                }
            }
            // A ramp up to the next deck.
            let (a, c) = (Vec3::new(40.0, y, 24.0), Vec3::new(48.0, y + 3.0, 32.0));
            b.quad(
                Vec3::new(a.x, a.y, a.z),
                Vec3::new(a.x, a.y, c.z),
                Vec3::new(c.x, c.y, c.z),
                Vec3::new(c.x, c.y, a.z),
            );
        }
        for c in 0..6 {
            b.block(2.0 + c as f32 * 6.0, y, 2.0, Vec3::new(1.8, 1.4, 4.5));
        }
    }
    level("parking garage", b)
}

/// A river valley with a bridge: terrain, a deck 8 m above the water, railings, stairs
/// down the bank.
pub fn bridge() -> Level {
    let mut b = Builder::default();
    let ground = |_x: f32, z: f32| 8.0 * (1.0 - (-(z * z) / 400.0).exp());
    b.terrain(-100.0, -80.0, 100.0, 80.0, 50, ground);
    b.solid(Vec3::new(-4.0, 7.5, -40.0), Vec3::new(4.0, 8.0, 40.0));
    b.railing(Vec3::new(-3.9, 8.0, -40.0), Vec3::new(-3.9, 8.0, 40.0));
    b.railing(Vec3::new(3.9, 8.0, -40.0), Vec3::new(3.9, 8.0, 40.0));
    for z in [-25.0, 0.0, 25.0] {
        b.column(0.0, z, ground(0.0, z) - 1.0, 7.5, 1.0, 8);
    }
    b.stairs(6.0, ground(0.0, -30.0), -30.0, Vec3::Z, 1.2, 20);
    level("bridge over a river", b)
}

/// A game arena of thick brushes: a hall 40 x 40 x 12 m, platforms at 2 and 4 m with
/// stairs, pillars, crates.
pub fn arena() -> Level {
    let mut b = Builder::default();
    b.room(
        Vec3::ZERO,
        Vec3::new(40.0, 12.0, 40.0),
        1.0,
        [&[], &[door(18.0)], &[], &[]],
        true,
        true,
    );
    b.solid(Vec3::new(0.0, 0.0, 0.0), Vec3::new(10.0, 2.0, 40.0));
    b.solid(Vec3::new(30.0, 0.0, 0.0), Vec3::new(40.0, 4.0, 12.0));
    b.stairs(10.0, 0.0, 18.0, Vec3::X, 3.0, 12);
    b.stairs(26.0, 0.0, 12.0, Vec3::Z, 3.0, 24);
    for (x, z) in [(15.0, 15.0), (25.0, 15.0), (15.0, 25.0), (25.0, 25.0)] {
        b.block(x, 0.0, z, Vec3::new(1.5, 12.0, 1.5));
    }
    for k in 0..8 {
        b.block(
            12.0 + (k % 3) as f32 * 2.5,
            0.0,
            30.0 + (k / 3) as f32 * 2.0,
            Vec3::splat(1.3),
        );
    }
    level("game arena", b)
}

/// A subway station: a vaulted tunnel 100 m long and 20 m wide, a platform 1 m high
/// with stairs up to it, benches, an exit stair.
pub fn subway_station() -> Level {
    let mut b = Builder::default();
    b.plane(0.0, 0.0, 100.0, 20.0, 0.0);
    b.wall((0.0, 0.0), (100.0, 0.0), 0.0, 4.0, 0.5, &[], false);
    b.wall(
        (0.0, 20.0),
        (100.0, 20.0),
        0.0,
        4.0,
        0.5,
        &[door(50.0)],
        false,
    );
    b.wall((0.0, 0.0), (0.0, 20.0), 0.0, 14.0, 0.5, &[], false);
    b.wall((100.0, 0.0), (100.0, 20.0), 0.0, 14.0, 0.5, &[], false);
    b.vault(0.0, 100.0, 0.0, 20.0, 4.0, 12);
    b.solid(Vec3::new(0.0, 0.0, 12.0), Vec3::new(100.0, 1.0, 20.0));
    b.stairs(10.0, 0.0, 10.0, Vec3::Z, 2.0, 6);
    for k in 0..8 {
        b.block(8.0 + k as f32 * 11.0, 1.0, 17.0, Vec3::new(2.0, 0.45, 0.5));
    }
    for t in [3.0, 7.0] {
        b.block(0.0, 0.0, t, Vec3::new(100.0, 0.15, 0.1));
        b.block(0.0, 0.0, t + 1.4, Vec3::new(100.0, 0.15, 0.1));
    }
    level("subway station", b)
}

/// A gym hall 30 x 20 m, 9 m high: bleachers of 8 rows, two hoops on poles, a door.
pub fn gym() -> Level {
    let mut b = Builder::default();
    b.room(
        Vec3::ZERO,
        Vec3::new(30.0, 9.0, 20.0),
        0.3,
        [&[door(3.0), door(25.0)], &[], &[window(5.0, 20.0)], &[]],
        false,
        true,
    );
    for k in 0..8 {
        b.solid(
            Vec3::new(3.0, 0.0, 15.0 + k as f32 * 0.6),
            Vec3::new(27.0, 0.45 * (k + 1) as f32, 15.6 + k as f32 * 0.6),
        );
    }
    for x in [1.0, 29.0] {
        b.column(x, 7.0, 0.0, 3.05, 0.08, 6);
        b.block(x - 0.05, 2.9, 6.1, Vec3::new(0.1, 1.05, 1.8));
    }
    level("gym", b)
}

/// An L-shaped single-storey house with a pitched roof over each wing.
pub fn l_house() -> Level {
    let mut b = Builder::default();
    b.room(
        Vec3::ZERO,
        Vec3::new(14.0, 2.7, 6.0),
        0.25,
        [
            &[door(2.0), window(6.0, 1.2)],
            &[],
            &[window(3.0, 1.2)],
            &[window(2.0, 1.2)],
        ],
        true,
        true,
    );
    b.room(
        Vec3::new(8.0, 0.0, 6.25),
        Vec3::new(6.0, 2.7, 8.0),
        0.25,
        [&[door(2.0)], &[window(3.0, 1.2)], &[window(2.0, 1.2)], &[]],
        true,
        true,
    );
    furnish(&mut b, 1.0, 0.0, 1.0);
    furnish(&mut b, 9.0, 0.0, 8.0);
    b.gable_roof(-0.3, -0.3, 14.3, 6.3, 2.95, 2.5);
    level("L-shaped house", b)
}

/// A library hall 20 x 15 m, 5 m high: rows of 2.2 m bookshelves, reading tables.
pub fn library() -> Level {
    let mut b = Builder::default();
    b.room(
        Vec3::ZERO,
        Vec3::new(20.0, 5.0, 15.0),
        0.3,
        [&[door(9.0)], &[window(3.0, 8.0)], &[], &[window(3.0, 8.0)]],
        false,
        true,
    );
    for r in 0..6 {
        b.block(2.0, 0.0, 2.0 + r as f32 * 1.8, Vec3::new(8.0, 2.2, 0.5));
    }
    for k in 0..4 {
        b.table(13.0 + (k % 2) as f32 * 3.0, 0.0, 3.0 + (k / 2) as f32 * 5.0);
        b.chair(13.2 + (k % 2) as f32 * 3.0, 0.0, 2.3 + (k / 2) as f32 * 5.0);
    }
    level("library", b)
}

/// A courtyard house: eight rooms round a court 10 x 10 m open to the sky, doors onto it.
pub fn courtyard_house() -> Level {
    let mut b = Builder::default();
    b.plane(-2.0, -2.0, 24.0, 24.0, 0.0);
    for (x, z) in [
        (0.0, 0.0),
        (7.0, 0.0),
        (14.0, 0.0),
        (0.0, 7.0),
        (14.0, 7.0),
        (0.0, 14.0),
        (7.0, 14.0),
        (14.0, 14.0),
    ] {
        b.room(
            Vec3::new(x, 0.0, z),
            Vec3::new(7.0, 3.0, 7.0),
            0.3,
            [&[door(3.0)], &[door(3.0)], &[window(2.0, 2.0)], &[]],
            true,
            true,
        );
        b.table(x + 2.0, 0.0, z + 2.5);
    }
    level("courtyard house", b)
}

/// A slender skyscraper 20 x 20 m of thirty storeys 3.5 m apart, a core with stairs.
pub fn skyscraper() -> Level {
    let mut b = Builder::default();
    for s in 0..30 {
        let y = s as f32 * 3.5;
        b.solid(Vec3::new(0.0, y - 0.3, 0.0), Vec3::new(20.0, y, 8.0));
        b.solid(Vec3::new(0.0, y - 0.3, 12.0), Vec3::new(20.0, y, 20.0));
        b.solid(Vec3::new(0.0, y - 0.3, 8.0), Vec3::new(8.0, y, 12.0));
        b.solid(Vec3::new(12.0, y - 0.3, 8.0), Vec3::new(20.0, y, 12.0));
        b.wall(
            (0.0, 0.0),
            (20.0, 0.0),
            y,
            3.2,
            0.3,
            &[window(1.0, 18.0)],
            false,
        );
        b.wall(
            (0.0, 20.0),
            (20.0, 20.0),
            y,
            3.2,
            0.3,
            &[window(1.0, 18.0)],
            false,
        );
        b.wall(
            (0.0, 0.0),
            (0.0, 20.0),
            y,
            3.2,
            0.3,
            &[window(1.0, 18.0)],
            false,
        );
        b.wall(
            (20.0, 0.0),
            (20.0, 20.0),
            y,
            3.2,
            0.3,
            &[window(1.0, 18.0)],
            false,
        );
        b.stairs(8.2, y, 8.2, Vec3::Z, 1.2, 20);
        b.table(2.0, y, 2.0);
        b.table(15.0, y, 15.0);
    }
    level("skyscraper", b)
}

/// An amphitheatre: twenty semicircular tiers (0.4 m rise) round a stage, open.
pub fn amphitheatre() -> Level {
    let mut b = Builder::default();
    b.plane(-40.0, -40.0, 40.0, 40.0, 0.0);
    b.solid(Vec3::new(-8.0, 0.0, -4.0), Vec3::new(8.0, 1.0, 4.0));
    for k in 0..20 {
        let r = 12.0 + k as f32 * 0.9;
        for s in 0..24 {
            let a = std::f32::consts::PI * (s as f32 + 0.5) / 24.0;
            let (x, z) = (r * a.cos(), r * a.sin());
            b.solid(
                Vec3::new(x - 1.6, 0.0, z - 0.45),
                Vec3::new(x + 1.6, 0.4 * (k + 1) as f32, z + 0.45),
            );
        }
    }
    // An aisle of steps (0.2 m, two to a tier) up the middle, and a stage house behind.
    b.stairs(-0.6, 0.0, 11.5, Vec3::Z, 1.2, 40);
    b.room(
        Vec3::new(-8.0, 0.0, -10.0),
        Vec3::new(16.0, 4.0, 5.0),
        0.3,
        [&[door(3.0), door(12.0)], &[], &[door(7.5)], &[]],
        true,
        true,
    );
    b.table(-4.0, 0.0, -8.0);
    level("amphitheatre", b)
}

/// A paved plaza 80 m square: a fountain, trees, benches, facades round it.
pub fn plaza() -> Level {
    let mut b = Builder::default();
    b.plane(-40.0, -40.0, 40.0, 40.0, 0.0);
    b.column(0.0, 0.0, 0.0, 0.6, 5.0, 16);
    b.column(0.0, 0.0, 0.6, 3.0, 0.5, 8);
    for k in 0..12 {
        let a = k as f32 * std::f32::consts::TAU / 12.0;
        let (x, z) = (20.0 * a.cos(), 20.0 * a.sin());
        b.column(x, z, 0.0, 3.0, 0.2, 6);
        b.solid(
            Vec3::new(x - 2.0, 3.0, z - 2.0),
            Vec3::new(x + 2.0, 6.0, z + 2.0),
        );
        b.block(x + 3.0, 0.0, z, Vec3::new(1.8, 0.45, 0.5));
    }
    for (a, c) in [
        ((-40.0, -40.0), (40.0, -40.0)),
        ((-40.0, 40.0), (40.0, 40.0)),
        ((-40.0, -40.0), (-40.0, 40.0)),
    ] {
        b.wall(
            a,
            c,
            0.0,
            15.0,
            0.5,
            &[
                door(10.0),
                door(30.0),
                door(50.0),
                window(20.0, 3.0),
                window(60.0, 3.0),
            ],
            true,
        );
    }
    level("plaza", b)
}

/// A cabin 6 x 5 m with a pitched roof, a porch with steps up to it.
pub fn cabin() -> Level {
    let mut b = Builder::default();
    b.terrain(-30.0, -30.0, 30.0, 30.0, 20, |x, z| {
        0.3 * (x * 0.2).sin() + 0.2 * (z * 0.15).cos()
    });
    b.solid(Vec3::new(-0.5, -0.5, -2.5), Vec3::new(6.5, 0.5, 5.5));
    b.room(
        Vec3::new(0.0, 0.5, 0.0),
        Vec3::new(6.0, 2.5, 5.0),
        0.2,
        [&[door(2.5)], &[window(1.5, 1.2)], &[], &[window(1.5, 1.2)]],
        true,
        true,
    );
    b.stairs(2.0, -0.5, -4.0, Vec3::Z, 2.0, 6);
    b.table(1.0, 0.5, 2.0);
    b.block(4.0, 0.5, 3.0, Vec3::new(1.8, 0.5, 1.9));
    b.gable_roof(-0.5, -0.5, 6.5, 5.5, 3.0, 2.2);
    level("cabin", b)
}

/// A hotel corridor 60 m long, 2 m wide, 2.8 m high, with twenty rooms a side behind
/// doors, each with a bed.
pub fn hotel_corridor() -> Level {
    let mut b = Builder::default();
    let doors: Vec<Opening> = (0..20).map(|k| door(1.0 + k as f32 * 3.0)).collect();
    b.solid(Vec3::new(0.0, -0.2, -5.0), Vec3::new(60.0, 0.0, 7.0));
    b.solid(Vec3::new(0.0, 2.8, -5.0), Vec3::new(60.0, 3.0, 7.0));
    b.wall((0.0, 0.0), (60.0, 0.0), 0.0, 2.8, 0.15, &doors, true);
    b.wall((0.0, 2.0), (60.0, 2.0), 0.0, 2.8, 0.15, &doors, true);
    b.wall((0.0, -5.0), (60.0, -5.0), 0.0, 2.8, 0.15, &[], true);
    b.wall((0.0, 7.0), (60.0, 7.0), 0.0, 2.8, 0.15, &[], true);
    b.wall((0.0, -5.0), (0.0, 7.0), 0.0, 2.8, 0.15, &[door(5.5)], true);
    b.wall((60.0, -5.0), (60.0, 7.0), 0.0, 2.8, 0.15, &[], true);
    for k in 0..20 {
        let x = k as f32 * 3.0;
        b.wall((x, -5.0), (x, 0.0), 0.0, 2.8, 0.1, &[], true);
        b.wall((x, 2.0), (x, 7.0), 0.0, 2.8, 0.1, &[], true);
        b.block(x + 0.5, 0.0, -4.5, Vec3::new(1.6, 0.5, 2.0));
        b.block(x + 0.5, 0.0, 4.5, Vec3::new(1.6, 0.5, 2.0));
    }
    level("hotel corridor", b)
}

/// A church: a nave 25 x 10 m, 10 m high, pews, and a bell tower 5 x 5 m, 30 m tall with
/// stairs.
pub fn church() -> Level {
    let mut b = Builder::default();
    b.room(
        Vec3::ZERO,
        Vec3::new(25.0, 10.0, 10.0),
        0.6,
        [
            &[window(5.0, 2.0), window(15.0, 2.0)],
            &[],
            &[window(5.0, 2.0), window(15.0, 2.0)],
            &[door(4.5)],
        ],
        true,
        false,
    );
    b.gable_roof(-0.3, -0.3, 25.3, 10.3, 10.0, 5.0);
    for r in 0..8 {
        b.block(4.0 + r as f32 * 2.0, 0.0, 1.0, Vec3::new(0.5, 0.45, 3.5));
        b.block(4.0 + r as f32 * 2.0, 0.0, 5.5, Vec3::new(0.5, 0.45, 3.5));
    }
    for k in 0..10 {
        let y = k as f32 * 3.0;
        b.wall((-5.0, 2.5), (0.0, 2.5), y, 3.0, 0.4, &[], true);
        b.wall(
            (-5.0, 7.5),
            (0.0, 7.5),
            y,
            3.0,
            0.4,
            &[window(2.0, 1.0)],
            true,
        );
        b.wall(
            (-5.0, 2.5),
            (-5.0, 7.5),
            y,
            3.0,
            0.4,
            &[if k == 0 { door(2.0) } else { window(2.0, 1.0) }],
            true,
        );
        b.solid(Vec3::new(-5.0, y - 0.2, 2.5), Vec3::new(-3.8, y, 7.5));
        b.stairs(-3.8, y, 2.6, Vec3::Z, 1.0, 17);
    }
    level("church with a bell tower", b)
}

/// A two-storey row of shops with a street in front open to the sky.
pub fn shop_street() -> Level {
    let mut b = Builder::default();
    b.plane(-5.0, -15.0, 65.0, 12.0, 0.0);
    for k in 0..6 {
        let x = k as f32 * 10.0;
        b.room(
            Vec3::new(x, 0.0, 0.0),
            Vec3::new(10.0, 3.4, 10.0),
            0.25,
            [&[door(1.0), window(3.0, 5.0)], &[], &[], &[]],
            true,
            true,
        );
        b.room(
            Vec3::new(x, 3.65, 0.0),
            Vec3::new(10.0, 2.8, 10.0),
            0.25,
            [&[window(2.0, 2.0), window(6.0, 2.0)], &[], &[], &[]],
            true,
            true,
        );
        b.block(x + 1.0, 0.0, 6.0, Vec3::new(5.0, 0.9, 0.6));
        b.table(x + 5.0, 3.65, 5.0);
    }
    b.block(-5.0, 0.0, -3.0, Vec3::new(70.0, 0.15, 3.0));
    level("shop street", b)
}

/// A museum gallery: halls 12 m wide, 7 m high, in a row joined by wide openings,
/// plinths with statues.
pub fn museum() -> Level {
    let mut b = Builder::default();
    for k in 0..4 {
        let x = k as f32 * 15.0;
        let op: &[Opening] = &[Opening {
            a: 4.0,
            b: 8.0,
            lo: 0.0,
            hi: 4.0,
        }];
        b.room(
            Vec3::new(x, 0.0, 0.0),
            Vec3::new(15.0, 7.0, 12.0),
            0.4,
            [&[], &[], &[], &[]],
            true,
            true,
        );
        b.wall((x + 15.0, 0.0), (x + 15.0, 12.0), 0.0, 7.0, 0.4, op, true);
        for p in 0..3 {
            b.block(x + 3.0 + p as f32 * 4.0, 0.0, 5.0, Vec3::new(1.0, 1.0, 1.0));
            b.column(x + 3.5 + p as f32 * 4.0, 5.5, 1.0, 2.8, 0.25, 6);
        }
        b.block(x + 6.0, 0.0, 10.5, Vec3::new(3.0, 0.45, 0.6));
    }
    level("museum", b)
}

/// Every generated level.
pub fn all() -> Vec<Level> {
    vec![
        single_room(),
        long_nave(),
        atrium(),
        tower(),
        house(),
        town(),
        terrain_with_houses(),
        corridor_maze(),
        warehouse(),
        stadium(),
        cathedral_cross(),
        office_floor(),
        apartment_block(),
        castle(),
        parking_garage(),
        bridge(),
        arena(),
        subway_station(),
        gym(),
        l_house(),
        library(),
        courtyard_house(),
        skyscraper(),
        amphitheatre(),
        plaza(),
        cabin(),
        hotel_corridor(),
        church(),
        shop_street(),
        museum(),
    ]
}

/// The units a level is written in: the name and metres per unit.
pub const UNITS: [(&str, f32); 5] = [
    ("m", 1.0),
    ("cm", 0.01),
    ("mm", 0.001),
    ("in", 0.0254),
    ("ft", 0.3048),
];
