//! Floor samples: points spread by area over the surfaces that face along an up axis, each
//! with the free run above it (to the ceiling over it, or to the sky). The scale is read
//! from them (how high rooms are, how high things stand on their floors) and the spawn
//! is chosen among them.

use glam::Vec3;

use super::pockets::FreeSpace;
use crate::collision::CollisionWorld;
use crate::geometry::Triangle;

/// A surface faces along the up axis when its normal's component along it exceeds this
/// (25 degrees: floors, stair treads, table tops, gently sloping ground).
pub const FLOOR_COS: f32 = 0.9;
/// Floors under a ceiling wanted among `n` samples: `n / COVERED_SHARE`.
const COVERED_SHARE: usize = 10;
/// At most this many times `n` samples are drawn looking for them.
const EXTRA_DRAWS: usize = 8;

/// One floor sample (in the coordinates of the world it was taken in).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The point on the surface.
    pub point: Vec3,
    /// Its height: the point's coordinate along the up axis.
    pub level: f32,
    /// Free distance straight up to the next surface; `None`: nothing above (the sky).
    pub height: Option<f32>,
    /// Whether the surface is level (within [`LEVEL_COS`]): a stair's tread is, a
    /// ramp's or a terrain's slope is not.
    pub level_surface: bool,
    /// Whether it was drawn by area (what the floors measure), or one a surface (what the
    /// stairs are found among: see [`floor_runs`]).
    pub by_area: bool,
}

/// A surface is level when its normal's component along the up axis exceeds this (a
/// degree and a half).
pub const LEVEL_COS: f32 = 0.9997;

impl Run {
    /// The height of whatever is over the run (`level + height`), if anything is.
    pub fn ceiling(&self) -> Option<f32> {
        self.height.map(|h| self.level + h)
    }
}

/// xorshift64 (Marsaglia, "Xorshift RNGs", 2003): the same samples on every machine and
/// every run, for the survey's random points.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    /// The next number of the sequence.
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next number as a fraction in [0, 1) (its top 24 bits).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Up to `n` floor samples of `world` for the up direction `up` (a unit axis): points
/// spread by area over the surfaces facing along `up` (either way: winding is not
/// trusted), each with its free run above; and up to `per_surface` more, one at a time on
/// level surfaces picked alike whatever their size (marked `by_area: false`), so that a
/// stair's narrow treads are seen among a hall's floor. With a free-space survey `free`
/// (its points in `world`'s coordinates), only runs through open space are kept: a run
/// that passes through no free cell of open space (near its middle) lies inside a solid
/// (a slab, a table top) or in a sealed hollow; one thinner than a cell cannot be told
/// from either.
pub fn floor_runs(
    world: &CollisionWorld,
    free: Option<&FreeSpace>,
    up: Vec3,
    n: usize,
    per_surface: usize,
) -> Vec<Run> {
    let tris = world.triangles();
    let floors = Floors::new(tris, up);
    if floors.total <= 0.0 {
        return Vec::new();
    }
    let probe = Probe {
        world,
        free,
        up,
        rays: RayMargins::of(world),
    };
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut runs = Vec::with_capacity(n + per_surface);
    // Floors under a ceiling (rooms) are what the scale is read from; on a terrain with a
    // few houses they are a sliver of the floor area, so while they are scarce, more
    // samples are drawn and only those under a ceiling kept, up to a bound.
    let wanted_covered = n / COVERED_SHARE;
    let (mut drawn, mut covered) = (0, 0);
    while drawn < n * EXTRA_DRAWS && (drawn < n || covered < wanted_covered) {
        drawn += 1;
        let pick = f64::from(rng.unit()) * floors.total;
        let Some(run) = probe.run(&tris[floors.by_area(pick)], &mut rng, true) else {
            continue;
        };
        if drawn > n && run.height.is_none() {
            continue; // past the first `n`, only floors under a ceiling are wanted
        }
        covered += usize::from(run.height.is_some());
        runs.push(run);
    }
    if floors.levels > 0 {
        for _ in 0..per_surface {
            let k = ((rng.unit() * floors.levels as f32) as usize).min(floors.levels - 1);
            runs.extend(probe.run(&tris[floors.level(k)], &mut rng, false));
        }
    }
    runs
}

/// Triangles a block of [`Floors`] spans: a lookup reads at most this many.
const FLOOR_BLOCK: usize = 64;

/// Where the floors of a world lie, for picking them by area or by count: running totals
/// kept once a block of [`FLOOR_BLOCK`] triangles, not once a floor. A list of every floor
/// (its running area, its index, and the level ones' indices) was 24 bytes a floor: 240 MB
/// at the peak of a ten-million-triangle terrain's survey, where this is 2.5 MB.
struct Floors<'a> {
    tris: &'a [Triangle],
    up: Vec3,
    /// Per block: the floors' area and the level floors' count before it.
    blocks: Vec<(f64, usize)>,
    /// The floors' area.
    total: f64,
    /// How many floors are level.
    levels: usize,
    /// The last floor, and the last level floor.
    last: [usize; 2],
}

/// What [`Floors`] reads of a triangle facing along `up`: its area, and whether it is
/// level; `None` for one that is not a floor.
fn floor(t: &Triangle, up: Vec3) -> Option<(f64, bool)> {
    let c = t.plane.normal.dot(up).abs();
    (c > FLOOR_COS).then(|| {
        (
            f64::from(t.e1().cross(t.e2()).length() * 0.5),
            c > LEVEL_COS,
        )
    })
}

impl<'a> Floors<'a> {
    fn new(tris: &'a [Triangle], up: Vec3) -> Floors<'a> {
        let (mut total, mut levels, mut last) = (0.0f64, 0usize, [0; 2]);
        let mut blocks = Vec::with_capacity(tris.len().div_ceil(FLOOR_BLOCK));
        for (i, t) in tris.iter().enumerate() {
            if i % FLOOR_BLOCK == 0 {
                blocks.push((total, levels));
            }
            if let Some((area, level)) = floor(t, up) {
                // Summed in the triangles' order, as `by_area` sums them again.
                total += area;
                last[0] = i;
                if level {
                    levels += 1;
                    last[1] = i;
                }
            }
        }
        Floors {
            tris,
            up,
            blocks,
            total,
            levels,
            last,
        }
    }

    /// The first floor whose running area (in the triangles' order) reaches `pick`; the
    /// last floor when none does. Each floor is picked with odds of its area.
    fn by_area(&self, pick: f64) -> usize {
        let from = self
            .blocks
            .partition_point(|b| b.0 < pick)
            .saturating_sub(1);
        let mut sum = self.blocks.get(from).map_or(0.0, |b| b.0);
        for (i, t) in self.tris.iter().enumerate().skip(from * FLOOR_BLOCK) {
            if let Some((area, _)) = floor(t, self.up) {
                sum += area;
                if sum >= pick {
                    return i;
                }
            }
        }
        self.last[0]
    }

    /// The `k`th level floor (from 0, in the triangles' order); the last level floor when
    /// `k` is not under `levels`.
    fn level(&self, k: usize) -> usize {
        let from = self.blocks.partition_point(|b| b.1 <= k).saturating_sub(1);
        let mut seen = self.blocks.get(from).map_or(0, |b| b.1);
        for (i, t) in self.tris.iter().enumerate().skip(from * FLOOR_BLOCK) {
            if floor(t, self.up).is_some_and(|(_, level)| level) {
                if seen == k {
                    return i;
                }
                seen += 1;
            }
        }
        self.last[1]
    }
}

/// How [`floor_runs`] looks up from a floor.
struct Probe<'a> {
    world: &'a CollisionWorld,
    free: Option<&'a FreeSpace>,
    up: Vec3,
    rays: RayMargins,
}

/// A hair of a map's size: this share of its longest side, plus [`HAIR_MIN`] units.
const HAIR_SHARE: f32 = 1e-5;
/// The least hair, units (a map of a point).
const HAIR_MIN: f32 = 1e-6;

/// How the survey's rays are cast on one map.
#[derive(Clone, Copy, Debug)]
pub struct RayMargins {
    /// How far off a surface a ray starts, so that it does not meet that surface again:
    /// a hair of the map's size.
    pub hair: f32,
    /// How far a ray may go: past any two points of the map.
    pub reach: f32,
}

impl RayMargins {
    /// The margins for `world`'s extent.
    pub fn of(world: &CollisionWorld) -> RayMargins {
        let size = world.bounds().size();
        RayMargins {
            hair: size.max_element() * HAIR_SHARE + HAIR_MIN,
            reach: size.length() * 2.0 + 1.0,
        }
    }
}

impl Probe<'_> {
    /// The run up from a random point of `t`, if it is kept (see [`floor_runs`]).
    fn run(&self, t: &crate::geometry::Triangle, rng: &mut Rng, by_area: bool) -> Option<Run> {
        let up = self.up;
        let (mut u, mut v) = (rng.unit(), rng.unit());
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        let point = t.a + t.e1() * u + t.e2() * v;
        let RayMargins { hair, reach } = self.rays;
        let hit = self.world.ray_cast(point + up * hair, up, reach);
        let height = hit.map(|h| h.distance + hair);
        if let Some(f) = self.free {
            let cell = f.cell_size();
            let middle = point + up * height.map_or(cell, |h| h * 0.5);
            let keep = match height {
                // Thinner than a cell: the grid cannot tell a room from a slab's inside,
                // and no room is that low.
                Some(h) if h < cell => false,
                // A few cells: room for its middle only, which must be a free cell of open
                // space (a cell either side would be out of the run).
                Some(h) if h < 3.0 * cell => f.is_open_cell(middle),
                // Taller, or under the sky: a free cell of open space at its middle, or a
                // cell either side of it.
                _ => [0.0, 1.0, -1.0]
                    .iter()
                    .any(|d| f.is_open_cell(middle + up * (d * cell))),
            };
            if !keep {
                return None;
            }
        }
        Some(Run {
            point,
            level: point.dot(up),
            height,
            level_surface: t.plane.normal.dot(up).abs() > LEVEL_COS,
            by_area,
        })
    }
}

/// How high the surface under `r` stands over the floor below it, when it is a thing on
/// a floor (a table top, a bed, a seat, a counter) and not a floor itself: looking down
/// from just under it, the next surface (the floor) must be in the lower part of the
/// room (under [`THING_SHARE`] of floor to ceiling), and what lies between must be open
/// space (under a table), a solid standing on something (a bed, a cabinet: under its
/// bottom there is no open space), or a thick top over open space (a table again), not a
/// slab over the room or the outside below.
pub fn thing_height(
    world: &CollisionWorld,
    free: Option<&FreeSpace>,
    r: &Run,
    up: Vec3,
) -> Option<f32> {
    let h = r.height?;
    let RayMargins { hair, reach } = RayMargins::of(world);
    let below = world.ray_cast(r.point - up * hair, -up, reach)?;
    let d = below.distance + hair;
    if d >= THING_SHARE * (d + h) {
        return None;
    }
    let Some(f) = free else {
        return Some(d);
    };
    let cell = f.cell_size();
    if d > 2.0 * cell && f.is_open_cell(r.point - up * (d * 0.5)) {
        return Some(d); // open space under it: a table top
    }
    // A solid under the surface: it stands if there is no open space under its bottom
    // (a bed, a cabinet); if there is, it may be a thick table top over open space, whose
    // height is down to the floor under that space.
    let bottom = r.point - up * d;
    if !f.is_open_cell(bottom - up * (0.5 * cell)) {
        return Some(d);
    }
    let floor = world.ray_cast(bottom - up * hair, -up, reach)?;
    let total = d + floor.distance + hair;
    (total < THING_SHARE * (total + h)).then_some(total)
}

/// A surface is a thing on the floor below it only within this share of the way from
/// that floor to the ceiling over it (a table in a room, not an upper floor).
pub const THING_SHARE: f32 = 0.45;

/// What rays along a floor meet as they rise: the heights over the floor at which the way
/// sideways opens (the top of an obstacle: a step, a seat, a table, a sill, a kerb; below
/// it the ray meets the obstacle, above it goes on) and closes (the top of an opening: a
/// door, a window; below it the ray passes through, above it meets the wall over it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sideways {
    /// Tops of obstacles.
    pub rises: Vec<f32>,
    /// Tops of openings.
    pub drops: Vec<f32>,
    /// Over each floor looked along, how wide the free space is at each height looked at.
    pub profiles: Vec<Profile>,
}

/// The free width over one floor sample, by height: at each height, the narrowest of the
/// four lines through it (each direction's free distance plus the opposite one's), so
/// that a body fits there when it is narrower than that (a corridor's width; a street's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Heights over the floor, rising.
    pub heights: [f32; PROFILE_HEIGHTS],
    /// The free width at each.
    pub widths: [f32; PROFILE_HEIGHTS],
}

impl Profile {
    /// Whether a body `width` wide fits over this floor at every height looked at from
    /// `low` (what it steps over) to `high` (its height); `None` when no height looked at
    /// lies between them.
    pub fn fits(&self, width: f32, low: f32, high: f32) -> Option<bool> {
        let mut looked = false;
        for (h, w) in self.heights.iter().zip(&self.widths) {
            if (low..=high).contains(h) {
                looked = true;
                if *w < width {
                    return Some(false);
                }
            }
        }
        looked.then_some(true)
    }
}

/// Heights looked at over each floor sample, spread evenly in log from a hundredth of its
/// height to nearly all of it (rooms), or of the map's height (under the sky).
pub const PROFILE_HEIGHTS: usize = 16;
/// Halvings of an interval that holds a change.
const BISECTIONS: usize = 5;
/// From one height to the next, the free distance sideways changes by this factor at
/// least for an edge...
const EDGE_FACTOR: f32 = 2.0;
/// ... and by this share of the height looked over.
const EDGE_SHARE: f32 = 0.25;

/// [`Sideways`] for up to `n` of `runs` (levels along `up`), in eight directions across
/// `up`, in `world` (whose height along `up` is `height`).
pub fn sideways(world: &CollisionWorld, runs: &[Run], up: Vec3, height: f32, n: usize) -> Sideways {
    let (side, other) = {
        let a = up.abs();
        let side = if a.x < 0.5 { Vec3::X } else { Vec3::Y };
        let side = (side - up * side.dot(up)).normalize();
        (side, up.cross(side))
    };
    let dirs = [
        side,
        -side,
        other,
        -other,
        (side + other).normalize(),
        (side - other).normalize(),
        (-side + other).normalize(),
        (-side - other).normalize(),
    ];
    let reach = world.bounds().size().length() + 1.0;
    let mut out = Sideways::default();
    for r in runs.iter().take(n) {
        let top = r.height.unwrap_or(height) * 0.95;
        if top.is_nan() || top <= 0.0 {
            continue;
        }
        let at = |k: usize| top * 0.01f32.powf(1.0 - k as f32 / (PROFILE_HEIGHTS - 1) as f32);
        let mut free_at = [[0.0f32; PROFILE_HEIGHTS]; 8];
        for (d, seen) in dirs.into_iter().zip(free_at.iter_mut()) {
            let free = |z: f32| {
                world
                    .ray_cast(r.point + up * z, d, reach)
                    .map_or(reach, |hit| hit.distance)
            };
            let mut below = free(at(0));
            seen[0] = below;
            for (k, seen_k) in seen.iter_mut().enumerate().skip(1) {
                let above = free(at(k));
                *seen_k = above;
                let enough = (below - above).abs() > EDGE_SHARE * at(k);
                let closes = below > EDGE_FACTOR * above && enough;
                let opens = above > EDGE_FACTOR * below && enough;
                if closes || opens {
                    // Bisect: `lo` stays on the side like `below`.
                    let (mut lo, mut hi) = (at(k - 1), at(k));
                    for _ in 0..BISECTIONS {
                        let mid = 0.5 * (lo + hi);
                        let d = free(mid);
                        let like_below = if closes {
                            d > EDGE_FACTOR * above
                        } else {
                            d * EDGE_FACTOR < above
                        };
                        if like_below {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    let edge = 0.5 * (lo + hi);
                    if closes {
                        out.drops.push(edge);
                    } else {
                        out.rises.push(edge);
                    }
                }
                below = above;
            }
        }
        // Opposite directions in `dirs`: the four lines through the point.
        const LINES: [(usize, usize); 4] = [(0, 1), (2, 3), (4, 7), (5, 6)];
        out.profiles.push(Profile {
            heights: std::array::from_fn(at),
            widths: std::array::from_fn(|k| {
                LINES
                    .iter()
                    .map(|&(a, b)| free_at[a][k] + free_at[b][k])
                    .fold(f32::INFINITY, f32::min)
            }),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists [`Floors`] replaced: every floor's running area and index, and the level
    /// floors' indices.
    fn lists(tris: &[Triangle], up: Vec3) -> (Vec<f64>, Vec<usize>, Vec<usize>) {
        let (mut cumulative, mut index, mut levels, mut total) = (vec![], vec![], vec![], 0.0);
        for (i, t) in tris.iter().enumerate() {
            if let Some((area, level)) = floor(t, up) {
                total += area;
                cumulative.push(total);
                index.push(i);
                if level {
                    levels.push(i);
                }
            }
        }
        (cumulative, index, levels)
    }

    #[test]
    fn floors_by_blocks_pick_what_the_lists_of_every_floor_picked() {
        // Level floors, sloped floors, walls and long runs of walls (blocks without a
        // floor), of many sizes.
        let mut tris = Vec::new();
        for i in 0..2000u32 {
            let (x, s) = ((i % 97) as f32, 0.1 + (i % 13) as f32);
            let (a, b, c) = match i % 7 {
                0 | 1 => (Vec3::ZERO, Vec3::new(s, 0.0, 0.0), Vec3::new(0.0, 0.0, s)),
                2 => (
                    Vec3::ZERO,
                    Vec3::new(s, 0.2 * s, 0.0),
                    Vec3::new(0.0, 0.0, s),
                ),
                _ if (300..700).contains(&i) => {
                    (Vec3::ZERO, Vec3::new(s, 0.0, 0.0), Vec3::new(0.0, s, 0.0))
                }
                _ => (Vec3::ZERO, Vec3::new(s, 0.0, 0.0), Vec3::new(0.0, s, 0.0)),
            };
            let at = Vec3::new(x, (i % 5) as f32, 0.0);
            tris.extend(Triangle::new(a + at, b + at, c + at));
        }
        let floors = Floors::new(&tris, Vec3::Y);
        let (cumulative, index, levels) = lists(&tris, Vec3::Y);
        assert_eq!(floors.total, *cumulative.last().unwrap());
        assert_eq!(floors.levels, levels.len());
        let old = |pick: f64| {
            index[cumulative
                .partition_point(|&c| c < pick)
                .min(index.len() - 1)]
        };
        // Every running total exactly, just past each, the ends, and past the end.
        let mut picks = vec![0.0, floors.total, floors.total * 2.0];
        for &c in &cumulative {
            picks.extend([c, c + 1e-9, c - 1e-9]);
        }
        for pick in picks {
            assert_eq!(floors.by_area(pick), old(pick), "pick {pick}");
        }
        for (k, &i) in levels.iter().enumerate() {
            assert_eq!(floors.level(k), i, "level floor {k}");
        }
        assert_eq!(floors.level(levels.len()), *levels.last().unwrap());
    }
}
