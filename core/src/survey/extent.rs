//! The main part of a map: where almost all of its triangles are, without a stray few far
//! away (a column left 900 km off by a bad export, a skybox's far corner).
//!
//! The survey measures rooms on a grid over the map's box and samples floors across it:
//! one triangle 900 km away stretches the box until the grid's cells are kilometres wide
//! and the rooms vanish between samples. So the map is split where its triangles' centres
//! leave an empty gap along an axis more than [`STRAY_RATIO`] times as wide as the pieces
//! on either side, and the piece with more surface area is kept, again until no such gap
//! is left. A map merely spread out (two halls 100 m apart) is one piece. What is left
//! out still draws and collides; only the survey reads the main part.

use glam::Vec3;

use crate::collision::CollisionWorld;
use crate::geometry::Aabb;

/// Most triangles the gaps are looked for among (evenly strided): a stray piece is found
/// when it holds at least about one triangle in this many.
const SAMPLE: usize = 8192;
/// A gap must be this many times as wide as the wider piece beside it to split the map.
pub const STRAY_RATIO: f32 = 4.0;
/// The kept piece's box is grown by this share of its size on each side before the
/// triangles inside it are taken.
const MARGIN: f32 = 0.05;

/// The main part of a map with strays far from it.
pub struct MainPart {
    /// A world of the triangles wholly inside the main part.
    pub world: CollisionWorld,
    /// How many triangles were left out.
    pub left_out: usize,
    /// The main part's box.
    pub bounds: Aabb,
}

/// A triangle's centre and area, for the split.
#[derive(Clone, Copy)]
struct Piece {
    centre: Vec3,
    area: f32,
    bounds: Aabb,
}

/// The main part of `world`, when some of its triangles lie far from the rest; `None` when
/// the map is one piece (the usual case: the survey takes it whole).
pub fn main_part(world: &CollisionWorld) -> Option<MainPart> {
    let tris = world.triangles();
    let stride = tris.len().div_ceil(SAMPLE).max(1);
    let mut kept: Vec<Piece> = tris
        .iter()
        .step_by(stride)
        .map(|t| Piece {
            centre: (t.a + t.b + t.c) / 3.0,
            area: t.e1().cross(t.e2()).length() * 0.5,
            bounds: t.bounds(),
        })
        .collect();
    let mut split = false;
    // Each split keeps at most all but one triangle: the loop ends.
    while let Some(rest) = split_off_strays(&kept) {
        kept = rest;
        split = true;
    }
    if !split || kept.is_empty() {
        return None;
    }
    let core = kept.iter().fold(Aabb::EMPTY, |b, p| b.union(p.bounds));
    let core = core.inflated(core.size().max_element() * MARGIN);
    let inside: Vec<[Vec3; 3]> = tris
        .iter()
        .filter(|t| [t.a, t.b, t.c].iter().all(|&p| core.contains(p)))
        .map(|t| [t.a, t.b, t.c])
        .collect();
    let left_out = tris.len() - inside.len();
    if inside.is_empty() || left_out == 0 {
        return None;
    }
    Some(MainPart {
        world: CollisionWorld::new(inside),
        left_out,
        bounds: core,
    })
}

/// The larger piece (by area) of `pieces` when the widest gap between their centres along
/// some axis is wider than [`STRAY_RATIO`] times the pieces on both sides of it.
fn split_off_strays(pieces: &[Piece]) -> Option<Vec<Piece>> {
    if pieces.len() < 2 {
        return None;
    }
    for axis in 0..3 {
        let mut sorted = pieces.to_vec();
        sorted.sort_by(|a, b| a.centre[axis].total_cmp(&b.centre[axis]));
        let at = |i: usize| sorted[i].centre[axis];
        let (gap, i) = (0..sorted.len() - 1)
            .map(|i| (at(i + 1) - at(i), i))
            .fold((0.0f32, 0), |a, b| if b.0 > a.0 { b } else { a });
        let (low, high) = sorted.split_at(i + 1);
        // The pieces' own size, every way (their triangles' boxes): a flat piece is
        // still as wide as it is long.
        let size = |p: &[Piece]| {
            p.iter()
                .fold(Aabb::EMPTY, |b, p| b.union(p.bounds))
                .size()
                .max_element()
        };
        if gap > STRAY_RATIO * size(low).max(size(high)) {
            let area = |p: &[Piece]| p.iter().map(|p| f64::from(p.area)).sum::<f64>();
            return Some(if area(low) >= area(high) { low } else { high }.to_vec());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid of floor tiles, `n` x `n`, one metre each, at y = 0.
    fn tiles(n: usize) -> Vec<[Vec3; 3]> {
        let mut out = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let (x, z) = (i as f32, j as f32);
                out.push([
                    Vec3::new(x, 0.0, z),
                    Vec3::new(x, 0.0, z + 1.0),
                    Vec3::new(x + 1.0, 0.0, z),
                ]);
            }
        }
        out
    }

    #[test]
    fn a_stray_column_far_away_is_left_out_of_the_survey() {
        let mut t = tiles(20);
        let far = Vec3::new(9e5, 0.0, 0.0);
        t.push([far, far + Vec3::Y * 3.0, far + Vec3::X]);
        let part = main_part(&CollisionWorld::new(t)).expect("a stray");
        assert_eq!(part.left_out, 1);
        assert!(part.world.bounds().size().max_element() < 21.0);
    }

    #[test]
    fn a_map_in_one_piece_is_surveyed_whole() {
        assert!(main_part(&CollisionWorld::new(tiles(30))).is_none());
        // Spread out (two 10 m halls 30 m apart) is still one map.
        let mut t = tiles(10);
        t.extend(
            tiles(10)
                .into_iter()
                .map(|tri| tri.map(|p| p + Vec3::X * 30.0)),
        );
        assert!(main_part(&CollisionWorld::new(t)).is_none());
    }

    #[test]
    fn of_two_pieces_far_apart_the_one_with_more_area_is_kept() {
        let mut t = tiles(6);
        t.extend(
            tiles(12)
                .into_iter()
                .map(|tri| tri.map(|p| p + Vec3::Z * 500.0)),
        );
        let part = main_part(&CollisionWorld::new(t)).expect("two pieces");
        assert_eq!(part.left_out, 36);
        assert!(part.world.bounds().min.z >= 499.0);
    }
}
