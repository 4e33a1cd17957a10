//! Sealed pockets: the insides of closed solids (a town's building blocks, a column, a
//! crate) that no person can walk into. The free space of the map is flood-filled on a
//! coarse voxel grid, as level compilers find leaks (Quake's `qbsp` fills from the
//! outside); winding is not trusted, so "inside" is decided by connection, not by normals.
//!
//! Every region of free cells is told apart from the others by 6-connected flood fill. The
//! region around the map (the grid is padded by a cell) is the outside. A region sealed
//! off from it is a room when it holds a real share of the map's free space, and a pocket
//! when it is small: a building's rooms are large, the hollows of solids many and small.

use std::collections::VecDeque;

use glam::{UVec3, Vec3};

use super::samples::Rng;
use crate::collision::CollisionWorld;
use crate::geometry::Triangle;
use crate::map::MapFrame;

/// Most cells of the grid (four bytes each for the region): 2 M cells are 8 MB for the
/// moment of the survey, and a few tens of milliseconds. A town 1.3 km across and 30 m
/// tall gets 2.9 m cells: an 8 m block keeps a hollow of a cell or two.
pub const MAX_CELLS: f32 = 2_000_000.0;

/// Most surface samples taken while marking solid cells (a triangle inside one cell, marked
/// as it, counts one); a map needing more (millions of huge overlapping faces) is not
/// surveyed for pockets at all, rather than taking minutes.
pub const MAX_SAMPLES: u64 = 60_000_000;
/// From this many triangles on, the surfaces are marked on two cores.
const PARALLEL_TRIANGLES: usize = 100_000;
/// A triangle whose corners all lie this far (in cells) inside one cell is marked as that
/// cell, not sampled: its samples, each a corner plus fractions of its edges, stray from
/// the corners' box by a few roundings of a cell's coordinate (at most 12,600 cells a
/// side: thousandths), so they all fall in it.
const CELL_MARGIN: f32 = 1.0 / 64.0;
/// A sealed region with less than this share of the map's free cells is a pocket.
pub const POCKET_SHARE: f32 = 0.01;
/// A sealed region spanning fewer cells than this along some axis is a pocket however
/// large: the hollow of a slab or a wall (a closed box 0.3 m thick across a whole storey
/// holds thousands of cells, yet no room).
pub const MIN_ROOM_CELLS: u32 = 2;
/// A sealed region whose smallest extent is under this share of its largest is a pocket:
/// the hollow of a slab, a wall or a thick game-level brush (a floor 1 m thick across a
/// 40 m hall), not a room (rooms are at most a few times longer than high) ...
pub const FLAT_SHARE: f32 = 0.1;
/// ... unless along its thin axis it spans at least this share of the map: then the map is
/// flat, and the region is the level. A sealed game level is flat as a whole (Doom's E1M1
/// is 4,576 units across and 400 high, its rooms from top to bottom of that), while a
/// slab's hollow is thin within a map that is not (1 m of a 10 m hall).
pub const LEVEL_SHARE: f32 = 0.5;
/// Surface cells facing sealed rooms, over those facing the outside, at which a map is a
/// sealed level (see [`FreeSpace::is_sealed`]): about 1 for a level that is all hull (a
/// Doom level's one-sided walls and flats), more with things in its rooms; an open map's
/// surfaces mostly face out, so that its few closed rooms make it well under a half.
pub const SEALED_FACES: f32 = 0.5;

/// What the survey says of a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Space a person can be in: the outside, or a sealed region large enough to be rooms.
    Open,
    /// Inside a sealed pocket (or touching one: see [`FreeSpace::space_at`]).
    Pocket,
    /// Not known: outside the grid, or among surfaces with no free cell near.
    Unknown,
}

/// The free space of a map, in regions. The grid lies in the file's own coordinates (it is
/// surveyed before the up axis and scale are known); points asked about are world points,
/// taken back to the file by [`FreeSpace::framed`]'s frame.
#[derive(Clone, Debug)]
pub struct FreeSpace {
    /// World to file coordinates for the points asked about.
    frame: MapFrame,
    /// Corner of cell (0, 0, 0).
    min: Vec3,
    /// Size of a cell.
    cell: f32,
    dims: UVec3,
    /// Per cell: 0 for a cell some triangle passes through, else its region's number.
    region: Vec<u32>,
    /// Per region number: sealed and small (index 0 unused).
    pocket: Vec<bool>,
    /// How many cells are in pockets.
    pocket_cells: usize,
    /// Whether the map is a sealed level, whose outside is nobody's space (see
    /// [`FreeSpace::is_sealed`]).
    sealed: bool,
}

impl FreeSpace {
    /// Survey `world`'s free space; `None` for an empty world or one too costly to
    /// sample (see [`MAX_SAMPLES`]).
    pub fn survey(world: &CollisionWorld) -> Option<FreeSpace> {
        let b = world.bounds();
        if b.is_empty() || !b.size().is_finite() {
            return None;
        }
        // Cubic cells, as many as the budget allows, one cell of padding all round.
        let size = b.size().max(Vec3::splat(b.size().max_element() * 1e-3));
        let cell = (size.x * size.y * size.z / MAX_CELLS)
            .cbrt()
            .max(f32::MIN_POSITIVE);
        let dims = ((size / cell).ceil().as_uvec3() + UVec3::splat(2)).max(UVec3::splat(3));
        let min = b.min - Vec3::splat(cell);
        let mut space = FreeSpace {
            frame: MapFrame::default(),
            min,
            cell,
            dims,
            region: vec![u32::MAX; (dims.x * dims.y * dims.z) as usize],
            pocket: vec![false],
            pocket_cells: 0,
            sealed: false,
        };
        space.mark_solid(world)?;
        space.flood();
        Some(space)
    }

    /// What kind of space `p` is in. A point in a cell that a surface passes through (a
    /// wall's, a floor's) is judged by the free cells around it: beside any pocket it is in
    /// the pocket (a wall cell of a hollow block touches the hollow), else open if it
    /// touches open space.
    pub fn space_at(&self, p: Vec3) -> Space {
        let Some(c) = self.cell_of(self.frame.to_file(p)) else {
            return Space::Unknown;
        };
        let own = self.region[self.flat(c.x, c.y, c.z)];
        if own != 0 {
            return self.kind(own);
        }
        let mut open = false;
        for dz in -1i32..=1 {
            for dy in -1i32..=1 {
                for dx in -1i32..=1 {
                    let n = c.as_ivec3() + glam::IVec3::new(dx, dy, dz);
                    if n.min_element() < 0 || n.cmpge(self.dims.as_ivec3()).any() {
                        continue;
                    }
                    let n = n.as_uvec3();
                    match self.kind(self.region[self.flat(n.x, n.y, n.z)]) {
                        Space::Pocket => return Space::Pocket,
                        Space::Open => open = true,
                        Space::Unknown => {}
                    }
                }
            }
        }
        if open { Space::Open } else { Space::Unknown }
    }

    /// Is `p` in a free cell of open space itself (not a cell a surface passes through)?
    pub fn is_open_cell(&self, p: Vec3) -> bool {
        self.cell_of(self.frame.to_file(p))
            .is_some_and(|c| self.kind(self.region[self.flat(c.x, c.y, c.z)]) == Space::Open)
    }

    /// Is `p` in a free cell of the space people are in: the sealed rooms of a sealed
    /// level (see [`FreeSpace::is_sealed`]), else any open space?
    pub fn is_playable_cell(&self, p: Vec3) -> bool {
        self.cell_of(self.frame.to_file(p)).is_some_and(|c| {
            let r = self.region[self.flat(c.x, c.y, c.z)];
            self.kind(r) == Space::Open && !(self.sealed && r == 1)
        })
    }

    /// Whether the map is a sealed level: its surfaces face its sealed rooms at least
    /// [`SEALED_FACES`] as often as its outside (see `surfaces_face_rooms`).
    pub fn is_sealed(&self) -> bool {
        self.sealed
    }

    /// Is `p` outside a sealed level's rooms: in the free space around it (on its roof,
    /// under it, beside its walls) or beyond the grid? `false` for a map that is no
    /// sealed level (a town's streets are its outside) and for a point among surfaces.
    pub fn is_outside_sealed(&self, p: Vec3) -> bool {
        self.sealed
            && self
                .cell_of(self.frame.to_file(p))
                .is_none_or(|c| self.region[self.flat(c.x, c.y, c.z)] == 1)
    }

    /// Is `p` in (or touching) a sealed pocket?
    pub fn is_pocket(&self, p: Vec3) -> bool {
        self.space_at(p) == Space::Pocket
    }

    fn kind(&self, region: u32) -> Space {
        match region {
            0 => Space::Unknown,
            r if self.pocket[r as usize] => Space::Pocket,
            _ => Space::Open,
        }
    }

    /// This survey for the world in `frame` (the file's coordinates turned and scaled):
    /// points asked about from now on are world points.
    pub fn framed(mut self, frame: MapFrame) -> FreeSpace {
        self.frame = frame;
        self
    }

    /// The side of a cell, in the units of the points asked about (world units once
    /// [`framed`](Self::framed)).
    pub fn cell_size(&self) -> f32 {
        self.cell * self.frame.scale
    }

    /// Up to `n` points of the space people are in (see [`FreeSpace::is_playable_cell`])
    /// inside the map's bounds (not the padding), in file coordinates, spread by a fixed
    /// sequence so that every survey of a map is the same.
    pub fn open_points(&self, n: usize) -> Vec<Vec3> {
        let d = self.dims;
        let inner = (d - UVec3::splat(2)).max(UVec3::ONE);
        let cells = (inner.x * inner.y * inner.z) as u64;
        let mut out = Vec::with_capacity(n);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..n * 8 {
            if out.len() == n {
                break;
            }
            let k = (rng.next() % cells) as u32;
            let c = UVec3::new(k % inner.x, k / inner.x % inner.y, k / (inner.x * inner.y))
                + UVec3::ONE;
            let r = self.region[self.flat(c.x, c.y, c.z)];
            if self.kind(r) == Space::Open && !(self.sealed && r == 1) {
                out.push(self.min + (c.as_vec3() + 0.5) * self.cell);
            }
        }
        out
    }

    /// Cells that lie in pockets.
    pub fn pocket_cells(&self) -> usize {
        self.pocket_cells
    }

    fn cell_of(&self, p: Vec3) -> Option<UVec3> {
        let c = (p - self.min) / self.cell;
        if !(c.is_finite() && c.min_element() >= 0.0) {
            return None;
        }
        let c = c.as_uvec3();
        c.cmplt(self.dims).all().then_some(c)
    }

    fn flat(&self, x: u32, y: u32, z: u32) -> usize {
        flat(self.dims, x, y, z)
    }

    /// Mark every cell a triangle passes through (region 0), by sampling each triangle
    /// at half a cell's spacing along its two shorter edges; `None` when the samples would
    /// exceed the budget.
    fn mark_solid(&mut self, world: &CollisionWorld) -> Option<()> {
        let spacing = self.cell * 0.5;
        let tris = world.triangles();
        // In cell units from here: a multiply, not a divide, per sample.
        let to_cells = 1.0 / self.cell;
        let dims = self.dims.as_vec3();
        let (min, size) = (self.min, self.dims);
        let in_cells = |t: &Triangle| t.vertices().map(|v| (v - min) * to_cells);
        let count = |part: &[Triangle]| {
            part.iter()
                .map(|t| match one_cell(in_cells(t)) {
                    Some(_) => 1,
                    None => {
                        let [n1, n2] = Sampling::of(t, spacing).steps;
                        (n1 + 1) * (n2 + 1)
                    }
                })
                .fold(0, u64::saturating_add)
        };
        let [one, other] = halves(tris, count);
        if one.saturating_add(other) > MAX_SAMPLES {
            return None;
        }
        // The cells each sample of `tris` falls in, as marks over every cell.
        let marks = |tris: &[Triangle]| {
            if tris.is_empty() {
                return Vec::new();
            }
            let mut solid = vec![false; self.region.len()];
            for t in tris {
                // A triangle well inside one cell (most of a fine mesh's) marks that cell:
                // its samples all fall there, its first is its corner's.
                if let Some(home) = one_cell(in_cells(t)) {
                    if home.min_element() >= 0.0 && home.cmplt(dims).all() {
                        let h = home.as_uvec3();
                        solid[flat(size, h.x, h.y, h.z)] = true;
                    }
                    continue;
                }
                Sampling::of(t, spacing).in_cells(min, to_cells, |c| {
                    if c.min_element() >= 0.0 && c.cmplt(dims).all() {
                        let c = c.as_uvec3();
                        solid[flat(size, c.x, c.y, c.z)] = true;
                    }
                });
            }
            solid
        };
        for half in &halves(tris, marks) {
            for (region, &solid) in self.region.iter_mut().zip(half) {
                if solid {
                    *region = 0;
                }
            }
        }
        Some(())
    }

    /// Do the map's surfaces face its sealed rooms at least [`SEALED_FACES`] as often as
    /// its outside? Then it is a sealed level (a game level, a closed building): people
    /// are in the rooms, and the space around it (as much under and beside it as over it)
    /// is nobody's. A level's hull faces both ways, what stands in its rooms (stairs,
    /// crates, furniture) only inward; a town's closed houses face the town's open space
    /// with their hulls, and its streets, terrain and closed blocks face only outward.
    fn surfaces_face_rooms(&self) -> bool {
        let d = self.dims;
        let (mut rooms, mut outside) = (0usize, 0usize);
        for z in 1..d.z - 1 {
            for y in 1..d.y - 1 {
                for x in 1..d.x - 1 {
                    let k = self.flat(x, y, z);
                    if self.region[k] != 0 {
                        continue;
                    }
                    let (dx, dy) = (1, d.x as usize);
                    let dz = dy * d.y as usize;
                    let (mut room, mut out) = (false, false);
                    for n in [k - dx, k + dx, k - dy, k + dy, k - dz, k + dz] {
                        match self.region[n] {
                            0 => {}
                            1 => out = true,
                            r => room |= !self.pocket[r as usize],
                        }
                    }
                    rooms += usize::from(room);
                    outside += usize::from(out);
                }
            }
        }
        rooms > 0 && rooms as f32 >= SEALED_FACES * outside as f32
    }

    /// Number the free regions (6-connected), then decide which are pockets.
    fn flood(&mut self) {
        let mut sizes = vec![0usize]; // region 0: solid
        // Each region's box in cells, to tell a slab's or a wall's hollow (thin) from a room.
        let mut boxes = vec![(UVec3::ZERO, UVec3::ZERO)];
        let mut queue = VecDeque::new();
        let d = self.dims;
        // Cell (0, 0, 0) is padding: its region, numbered first, is the outside.
        for start in 0..self.region.len() {
            if self.region[start] != u32::MAX {
                continue;
            }
            let id = sizes.len() as u32;
            let mut size = 0;
            let (mut lo, mut hi) = (UVec3::MAX, UVec3::ZERO);
            self.region[start] = id;
            queue.push_back(start);
            while let Some(k) = queue.pop_front() {
                size += 1;
                let k = k as u32;
                let (x, y, z) = (k % d.x, k / d.x % d.y, k / (d.x * d.y));
                lo = lo.min(UVec3::new(x, y, z));
                hi = hi.max(UVec3::new(x, y, z));
                let neighbours = [
                    (x > 0).then(|| k - 1),
                    (x + 1 < d.x).then(|| k + 1),
                    (y > 0).then(|| k - d.x),
                    (y + 1 < d.y).then(|| k + d.x),
                    (z > 0).then(|| k - d.x * d.y),
                    (z + 1 < d.z).then(|| k + d.x * d.y),
                ];
                for n in neighbours.into_iter().flatten() {
                    if self.region[n as usize] == u32::MAX {
                        self.region[n as usize] = id;
                        queue.push_back(n as usize);
                    }
                }
            }
            sizes.push(size);
            boxes.push((lo, hi));
        }
        let free: usize = sizes.iter().sum();
        self.pocket = sizes
            .iter()
            .zip(&boxes)
            .enumerate()
            .map(|(id, (&n, &(lo, hi)))| {
                let extent = hi - lo;
                let share = n as f32 / free as f32;
                let axis = extent.min_position();
                let flat = (extent.min_element() as f32) < FLAT_SHARE * extent.max_element() as f32
                    && (extent[axis] as f32) < LEVEL_SHARE * (d[axis] - 2) as f32;
                let thin = extent.min_element() < MIN_ROOM_CELLS || flat;
                id > 1 && (share < POCKET_SHARE || thin)
            })
            .collect();
        self.sealed = self.surfaces_face_rooms();
        self.pocket_cells = sizes
            .iter()
            .zip(&self.pocket)
            .filter(|(_, p)| **p)
            .map(|(n, _)| n)
            .sum();
    }
}

/// `each` of the two halves of `tris`, on two cores from [`PARALLEL_TRIANGLES`] (below,
/// of all of them, and of none): a count, or a mark, is the same whoever makes it.
fn halves<T: Send>(tris: &[Triangle], each: impl Fn(&[Triangle]) -> T + Sync) -> [T; 2] {
    if tris.len() < PARALLEL_TRIANGLES {
        return [each(tris), each(&[])];
    }
    let (first, second) = tris.split_at(tris.len() / 2);
    std::thread::scope(|s| {
        let other = s.spawn(|| each(second));
        [
            each(first),
            other
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e)),
        ]
    })
}

/// The cell (its smallest corner, in cells) that corners given in cells all lie well
/// inside ([`CELL_MARGIN`]), if one does.
fn one_cell(corners: [Vec3; 3]) -> Option<Vec3> {
    let home = corners[0].floor();
    corners
        .iter()
        .all(|&v| {
            let f = v - home;
            f.min_element() >= CELL_MARGIN && f.max_element() <= 1.0 - CELL_MARGIN
        })
        .then_some(home)
}

/// How a triangle is sampled: from the corner opposite its longest edge, along the two
/// shorter edges, in steps no longer than the spacing (a long thin triangle then costs
/// its length times its width, not its length squared).
struct Sampling {
    corner: Vec3,
    edges: [Vec3; 2],
    /// Steps along each edge (at least 1).
    steps: [u64; 2],
}

impl Sampling {
    fn of(t: &Triangle, spacing: f32) -> Sampling {
        let [a, b, c] = t.vertices();
        let (ab, bc, ca) = ((b - a).length(), (c - b).length(), (a - c).length());
        let (o, p, q) = if bc >= ab && bc >= ca {
            (a, b, c)
        } else if ca >= ab {
            (b, c, a)
        } else {
            (c, a, b)
        };
        let n = |e: Vec3| (e.length() / spacing).ceil().max(1.0) as u64;
        Sampling {
            corner: o,
            edges: [p - o, q - o],
            steps: [n(p - o), n(q - o)],
        }
    }

    /// Each sample, in cells from `min` (`to_cells` cells a unit); the first is the corner.
    fn in_cells(&self, min: Vec3, to_cells: f32, mut each: impl FnMut(Vec3)) {
        let a = (self.corner - min) * to_cells;
        let [e1, e2] = self.edges.map(|e| e * to_cells);
        let [n1, n2] = self.steps;
        for i in 0..=n1 {
            let u = i as f32 / n1 as f32;
            let row = a + e1 * u;
            // Within the triangle: u + v <= 1.
            let last = ((1.0 - u) * n2 as f32).floor() as u64;
            for j in 0..=last {
                each(row + e2 * (j as f32 / n2 as f32));
            }
        }
    }
}

/// The index of cell (x, y, z) in a grid of `dims` cells, x fastest.
fn flat(dims: UVec3, x: u32, y: u32, z: u32) -> usize {
    ((z * dims.y + y) * dims.x + x) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_kit::random::Lcg;

    /// A fine mesh's triangles, most well inside one cell and marked as it, mark exactly
    /// the cells their samples fall in: far along a long map (cells counted in the ten
    /// thousands, where a cell's coordinate rounds the most), on two threads.
    #[test]
    fn a_triangle_inside_a_cell_marks_the_cells_its_samples_do() {
        let mut lcg = Lcg(5);
        let mut r = || lcg.unit();
        // A strip 10 km long, 10 m wide and high (cells of 0.79 m, 12,600 along it).
        let mut tris = vec![[Vec3::ZERO, Vec3::X * 10_000.0, Vec3::new(0.0, 10.0, 10.0)]];
        for _ in 0..150_000 {
            let o = Vec3::new(r() * 10_000.0, r() * 10.0, r() * 10.0);
            let size = 0.02 + r() * 0.6;
            let mut corner = || o + (Vec3::new(r(), r(), r()) - 0.5) * size;
            tris.push([o, corner(), corner()]);
        }
        let world = CollisionWorld::new(tris);
        assert!(world.triangles().len() >= PARALLEL_TRIANGLES);
        let space = FreeSpace::survey(&world).expect("within the budget");
        assert!(space.dims.x > 12_000, "{}", space.dims);
        let to_cells = 1.0 / space.cell;
        let mut want = vec![false; space.region.len()];
        let mut shortcuts = 0;
        for t in world.triangles() {
            let corners = t.vertices().map(|v| (v - space.min) * to_cells);
            shortcuts += usize::from(one_cell(corners).is_some());
            Sampling::of(t, space.cell * 0.5).in_cells(space.min, to_cells, |c| {
                assert!(c.min_element() >= 0.0 && c.cmplt(space.dims.as_vec3()).all());
                let c = c.as_uvec3();
                want[flat(space.dims, c.x, c.y, c.z)] = true;
            });
        }
        assert!(shortcuts > 50_000, "{shortcuts} of 150,000 inside a cell");
        let got: Vec<bool> = space.region.iter().map(|&r| r == 0).collect();
        assert!(got == want, "the same cells marked");
    }

    /// The twelve triangles of the closed box from `lo` to `hi`.
    fn cube(lo: Vec3, hi: Vec3) -> Vec<[Vec3; 3]> {
        let c = |x: bool, y: bool, z: bool| {
            Vec3::new(
                if x { hi.x } else { lo.x },
                if y { hi.y } else { lo.y },
                if z { hi.z } else { lo.z },
            )
        };
        let quad = |a, b, c, d| [[a, b, c], [a, c, d]];
        [
            quad(
                c(false, false, false),
                c(true, false, false),
                c(true, false, true),
                c(false, false, true),
            ),
            quad(
                c(false, true, false),
                c(false, true, true),
                c(true, true, true),
                c(true, true, false),
            ),
            quad(
                c(false, false, false),
                c(false, true, false),
                c(true, true, false),
                c(true, false, false),
            ),
            quad(
                c(false, false, true),
                c(true, false, true),
                c(true, true, true),
                c(false, true, true),
            ),
            quad(
                c(false, false, false),
                c(false, false, true),
                c(false, true, true),
                c(false, true, false),
            ),
            quad(
                c(true, false, false),
                c(true, true, false),
                c(true, true, true),
                c(true, false, true),
            ),
        ]
        .concat()
    }

    #[test]
    fn the_inside_of_a_small_closed_box_on_open_ground_is_a_pocket() {
        let mut tris = vec![
            [
                Vec3::new(-50.0, 0.0, -50.0),
                Vec3::new(50.0, 0.0, -50.0),
                Vec3::new(50.0, 0.0, 50.0),
            ],
            [
                Vec3::new(-50.0, 0.0, -50.0),
                Vec3::new(50.0, 0.0, 50.0),
                Vec3::new(-50.0, 0.0, 50.0),
            ],
        ];
        tris.extend(cube(Vec3::new(0.0, 0.0, 0.0), Vec3::new(8.0, 12.0, 8.0)));
        // Something tall elsewhere, so the grid has height above the ground.
        tris.extend(cube(
            Vec3::new(-40.0, 0.0, -40.0),
            Vec3::new(-38.0, 30.0, -38.0),
        ));
        let space = FreeSpace::survey(&CollisionWorld::new(tris)).unwrap();
        assert!(space.is_pocket(Vec3::new(4.0, 6.0, 4.0)));
        assert!(!space.is_pocket(Vec3::new(20.0, 2.0, 20.0)), "the street");
        assert!(
            !space.is_pocket(Vec3::new(4.0, 20.0, 4.0)),
            "above the roof"
        );
        assert!(space.pocket_cells() > 0);
        // Scaled with its world, it answers at the scaled places.
        let scaled = space.framed(MapFrame {
            scale: 0.5,
            ..MapFrame::default()
        });
        assert!(scaled.is_pocket(Vec3::new(2.0, 3.0, 2.0)));
        assert!(!scaled.is_pocket(Vec3::new(10.0, 1.0, 10.0)));
    }

    #[test]
    fn a_closed_room_that_is_most_of_the_map_is_not_a_pocket() {
        // One closed room 20 x 3 x 20 with a small closed box inside it.
        let mut tris = cube(Vec3::ZERO, Vec3::new(20.0, 3.0, 20.0));
        tris.extend(cube(Vec3::new(2.0, 0.0, 2.0), Vec3::new(3.0, 1.0, 3.0)));
        let space = FreeSpace::survey(&CollisionWorld::new(tris)).unwrap();
        assert!(!space.is_pocket(Vec3::new(10.0, 1.5, 10.0)), "the room");
    }
}
