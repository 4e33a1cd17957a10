//! The grid a file's coordinates lie on: the fingerprint of a game level's editor.
//!
//! Level editors snap every vertex to a grid of their own units, and the grids are powers
//! of two: Doom's editors, Quake's and Half-Life's (Radiant, Hammer, TrenchBroom) and
//! Unreal's snap to 8 or 16 units by default. A level exported in the engine's units keeps
//! its vertices on such a grid (a few off it where brushes are cut at an angle); a BSP
//! importer that scales by 0.1 or 0.01 keeps the grid, a tenth or a hundredth of it.
//! Architecture is drawn on decimal grids instead (5 cm, 10 cm, a metre), and a mesh
//! modelled freely (Blender, a scan) is on no grid at all. So a power-of-two grid that is
//! not also a decimal one says "a game level in its engine's units, scaled by this
//! power of ten", which [`super::units`] turns into hypotheses of its own.
//!
//! Only differences between coordinates matter (a level moved by 1660.7968 units keeps
//! its grid): along each axis the distinct coordinates are read modulo the grid, and the
//! share that fall on its most common phase is how much of the file lies on it.

use glam::Vec3;

/// The power-of-two grid step editors snap to, in engine units (the finer of 8 and 16: a
/// level on 16 is on 8 too).
pub const EDITOR_GRID: f32 = 8.0;
/// The decimal step tested against it (a decimal grid of 10 or a multiple of it is on
/// 8 for one value in five only).
const DECIMAL_GRID: f32 = 10.0;
/// Scales a file may be written at, in file units per engine unit: the engine's own
/// units, and BSP importers' 0.1 and 0.01.
pub const IMPORT_SCALES: [f32; 3] = [1.0, 0.1, 0.01];
/// Least share of an axis's distinct coordinates on one phase of the grid for the axis to
/// be on it. Distinct values, not vertices, are counted (a floor's thousand vertices at
/// one height are one value), so the values where brushes are cut at an angle, each
/// seen once, weigh as much as the grid's, seen many times: a quarter of a Counter-Strike
/// level's distinct heights are on its grid, 1 in 8 of anything's would be by chance.
const ON_GRID: f32 = 0.25;
/// How many times more of the axes' distinct coordinates must be on the editor's grid
/// than on the decimal grid beside it. By chance (or on a grid of whole units) they are
/// about alike (1/8 against 1/10); a decimal grid puts more on the decimal one (a 5 cm
/// grid: 1/8 against 1/2; whole metres in millimetres: all on both); an editor's grid
/// puts 1 in 5 of its values on the decimal one.
const EDITOR_OVER_DECIMAL: f32 = 2.0;
/// ... and on every axis at least this many times more (a metres model whose plan is on
/// a 0.4 m module is on a tenth of an editor's grid across, but its heights are not).
const EDITOR_OVER_DECIMAL_EACH: f32 = 1.5;
/// An axis with fewer distinct coordinates than this says nothing.
const MIN_VALUES: usize = 16;
/// Phases are read in bins of this share of the grid step, a bin and its two neighbours
/// making one phase (a file written with 4 to 6 decimals rounds each value by far less).
const PHASE_BIN: f32 = 0.01;
/// At most this many distinct coordinates are read on each axis (the first found).
const MAX_VALUES: usize = 20_000;

/// An editor's grid found in a file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineGrid {
    /// File units per engine unit (one of [`IMPORT_SCALES`]).
    pub import: f32,
    /// Share of the axes' distinct coordinates on the grid (0 to 1).
    pub share: f32,
}

/// The editor's grid the coordinates of `points` lie on, if any: the largest import
/// scale at which the axes with enough distinct coordinates are on a grid of
/// [`EDITOR_GRID`] and not on a decimal one (see [`EDITOR_OVER_DECIMAL`]).
pub fn engine_grid(points: impl Iterator<Item = Vec3>) -> Option<EngineGrid> {
    // Distinct values by their bits (a hash set: no sort of a million corners).
    let mut sets: [rustc_hash::FxHashSet<u32>; 3] = Default::default();
    for p in points {
        for (k, set) in sets.iter_mut().enumerate() {
            if p[k].is_finite() && set.len() < MAX_VALUES {
                // +0.0: -0 and 0 are one value.
                set.insert((p[k] + 0.0).to_bits());
            }
        }
        if sets.iter().all(|s| s.len() >= MAX_VALUES) {
            break;
        }
    }
    let axes: Vec<Vec<f32>> = sets
        .into_iter()
        .map(|set| set.into_iter().map(f32::from_bits).collect::<Vec<f32>>())
        .filter(|v| v.len() >= MIN_VALUES)
        .collect();
    if axes.is_empty() {
        return None;
    }
    IMPORT_SCALES.iter().find_map(|&import| {
        let (mut editor, mut decimal) = (0.0, 0.0);
        for v in &axes {
            let on = on_phase(v, EDITOR_GRID * import);
            let off = on_phase(v, DECIMAL_GRID * import);
            if on < ON_GRID || on < EDITOR_OVER_DECIMAL_EACH * off {
                return None;
            }
            editor += on;
            decimal += off;
        }
        (editor >= EDITOR_OVER_DECIMAL * decimal).then(|| EngineGrid {
            import,
            share: editor / axes.len() as f32,
        })
    })
}

/// The share of `values` on the most common phase of a grid of `step` (see
/// [`PHASE_BIN`]).
fn on_phase(values: &[f32], step: f32) -> f32 {
    const BINS: usize = (1.0 / PHASE_BIN) as usize;
    let mut bins = [0usize; BINS];
    let phase = |x: f32| {
        let p = (f64::from(x) / f64::from(step)).rem_euclid(1.0) as f32;
        ((p * BINS as f32) as usize).min(BINS - 1)
    };
    for &x in values {
        bins[phase(x)] += 1;
    }
    // A phase near 0 and near 1 is one: the bins are a circle, and a phase's neighbours
    // hold the values that round across a bin's edge.
    let best = (0..BINS)
        .map(|b| bins[(b + BINS - 1) % BINS] + bins[b] + bins[(b + 1) % BINS])
        .max()
        .unwrap_or(0);
    best as f32 / values.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(coords: impl Fn(usize) -> [f32; 3], n: usize) -> Vec<Vec3> {
        (0..n).map(|i| Vec3::from(coords(i))).collect()
    }

    /// A xorshift in [0, 1).
    fn rand(i: usize) -> f32 {
        let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 29;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^= x >> 32;
        (x >> 40) as f32 / (1u64 << 24) as f32
    }

    #[test]
    fn a_level_on_an_editors_grid_is_found_moved_or_scaled_by_a_tenth() {
        let on = |i: usize| (rand(i) * 600.0).floor() * 8.0;
        let raw = points(|i| [on(i), on(i + 7_000), on(i + 14_000)], 3000);
        let g = engine_grid(raw.iter().copied()).expect("on the grid");
        assert_eq!(g.import, 1.0);
        // Moved by an odd offset and scaled by 0.1, as a BSP import writes it.
        let imported = raw
            .iter()
            .map(|p| *p * 0.1 + Vec3::new(34.447_365, -251.247_33, 1660.7968));
        let g = engine_grid(imported).expect("on a tenth of the grid");
        assert_eq!(g.import, 0.1);
        assert!(g.share > 0.95, "{g:?}");
    }

    #[test]
    fn decimal_and_free_coordinates_are_on_no_editors_grid() {
        // Centimetres on a 10 cm grid; millimetres in whole metres (all on 8 too); a
        // model's free coordinates; a block map's whole metres (on 1, not on 8).
        let decimal = points(|i| [(rand(i) * 900.0).floor() * 10.0; 3], 3000);
        let metres = points(|i| [(rand(i) * 900.0).floor() * 1000.0; 3], 3000);
        let free = points(
            |i| [rand(i) * 37.0, rand(i + 1) * 5.0, rand(i + 2) * 41.0],
            3000,
        );
        let blocks = points(|i| [(rand(i) * 900.0).floor(); 3], 3000);
        for (name, p) in [
            ("decimal", decimal),
            ("metres", metres),
            ("free", free),
            ("blocks", blocks),
        ] {
            assert_eq!(engine_grid(p.into_iter()), None, "{name}");
        }
    }

    #[test]
    fn a_few_coordinates_say_nothing() {
        let p = points(|i| [(i * 8) as f32; 3], 10);
        assert_eq!(engine_grid(p.into_iter()), None);
    }
}
