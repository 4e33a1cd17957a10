//! The units a file may be written in: the hypotheses the scale is chosen among, each with
//! its prior.
//!
//! Real files come from a few kinds of tool, each with its convention: architecture and
//! modelling tools write metres, centimetres, millimetres, inches or feet; game editors
//! write their engine's units. Those are the hypotheses, and the evidence that tells a
//! game level (see [`super::grid`]) changes their priors: a level on an editor's grid is
//! most likely in its engine's units (scaled as its importer scaled it), which are:
//!
//! - Quake, Half-Life and Source units, about an inch: Half-Life's player hull is 72
//!   units high, 1.83 m (Quake's 56-unit player and Source's 0.75-inch reading are within
//!   the same reach of the eye's height);
//! - Doom units, about 3.2 cm: the player is 56 units high, about 1.8 m, in a level of
//!   flat floors and vertical walls, never one room over another (the engine draws no
//!   more: see [`DOOM_SECTIONS`]);
//! - Unreal units, a centimetre.

use super::grid::{EngineGrid, IMPORT_SCALES};
use crate::map::header::Header;

/// A unit of length a file may use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unit {
    /// Its name, plural.
    pub name: &'static str,
    /// Metres per unit.
    pub metres: f32,
    /// Prior weight among the hypotheses.
    pub prior: f32,
    /// The highest step its level's player climbs, metres: a person's for the common
    /// units; a game's own for its engine's (Half-Life's 18 units, Doom's 24).
    pub step: f32,
    /// Its levels' stairs: the typical rise of a step (metres) and its spread (natural
    /// log). A building's stairs rise about 17 cm; a game's are built for its player's
    /// step, not a person's (Counter-Strike's 8 to 18 units, 0.2 to 0.46 m; Doom's 8 to
    /// 24, 0.26 to 0.77 m).
    pub stair: (f32, f32),
}

/// A game level's stairs, in its engine's units: editors' grids make steps of 8 and 16
/// units, up to the player's step (18 for Quake and Half-Life, 24 for Doom) ...
const EDITOR_STAIR: f32 = 16.0;
/// ... so their rise spreads wider than a building's (natural log).
const ENGINE_STAIR_SPREAD: f32 = 0.4;

/// A building's stairs: about 17 cm a step (see [`Unit::stair`]).
pub const PERSON_STAIR: (f32, f32) = (0.17, 0.15);

/// The highest step a person climbs, metres (the walker's: see
/// [`crate::walk::WalkSettings::max_step`]).
pub const PERSON_STEP: f32 = 0.45;

/// The common units, with their metres per unit and the prior weight of each (metres most
/// likely; then centimetres, which game engines write; then millimetres, inches and feet,
/// which CAD and architecture tools write, alike). The window's Shift+[ and Shift+] step
/// between them.
pub const UNITS: [Unit; 5] = [
    Unit {
        name: "metres",
        metres: 1.0,
        prior: 0.55,
        step: PERSON_STEP,
        stair: PERSON_STAIR,
    },
    Unit {
        name: "centimetres",
        metres: 0.01,
        prior: 0.2,
        step: PERSON_STEP,
        stair: PERSON_STAIR,
    },
    Unit {
        name: "millimetres",
        metres: 0.001,
        prior: 0.1,
        step: PERSON_STEP,
        stair: PERSON_STAIR,
    },
    Unit {
        name: "inches",
        metres: 0.0254,
        prior: 0.1,
        step: PERSON_STEP,
        stair: PERSON_STAIR,
    },
    Unit {
        name: "feet",
        metres: 0.3048,
        prior: 0.1,
        step: PERSON_STEP,
        stair: PERSON_STAIR,
    },
];

/// Game engines' units, with their metres per unit, their priors among levels on an
/// editor's grid and their players' steps. Quake-family levels (Quake, Half-Life,
/// Counter-Strike, Source) are the most exported; Doom's are drawn in a way of their own,
/// and [`DOOM_SECTIONS`] weighs for or against them; Unreal's editors snap to a
/// power-of-two grid only in the old UnrealEd (today's snap to 10 cm: a decimal grid, so
/// today's Unreal levels are read as centimetres among the common units).
pub const ENGINE_UNITS: [Unit; 3] = [
    Unit {
        name: "Quake and Half-Life units (about an inch)",
        metres: 0.0254,
        prior: 0.75,
        step: 18.0 * 0.0254,
        stair: (EDITOR_STAIR * 0.0254, ENGINE_STAIR_SPREAD),
    },
    Unit {
        name: "Doom units (about 3.2 cm)",
        metres: 0.032,
        prior: 0.15,
        step: 24.0 * 0.032,
        stair: (EDITOR_STAIR * 0.032, ENGINE_STAIR_SPREAD),
    },
    Unit {
        name: "Unreal units (centimetres)",
        metres: 0.01,
        prior: 0.1,
        step: PERSON_STEP,
        stair: PERSON_STAIR,
    },
];

/// The step of the game whose engine's unit is `scale` metres, where its player climbs
/// more than a person ([`PERSON_STEP`]): a Doom level at 0.032 m a unit climbs Doom's 24
/// units, 0.77 m (its stairs rise 16, 0.51 m). `None` at any other scale (a Quake unit's
/// 18-unit step is a person's, to a centimetre).
pub fn game_step(scale: f32) -> Option<f32> {
    ENGINE_UNITS
        .iter()
        .find(|u| {
            (u.metres - scale).abs() <= SAME_SCALE * u.metres && u.step > PERSON_STEP + STEP_MARGIN
        })
        .map(|u| u.step)
}

/// Relative difference under which a scale is an engine's unit (a `--scale` typed to its
/// digits, a remembered one read back from its decimal text).
const SAME_SCALE: f32 = 1e-6;

/// Two units within this share of each other are one (an engine's inch written to five
/// figures is the inch).
const SAME_UNIT: f32 = 1e-4;

/// Whether `a` and `b` metres are one unit (within [`SAME_UNIT`] of `b`).
pub fn same_unit(a: f32, b: f32) -> bool {
    (a - b).abs() <= b * SAME_UNIT
}

/// How much more than a person's a game's step must be to be its own (Quake's 18 units
/// are 0.457 m, a person's 0.45 to a centimetre).
const STEP_MARGIN: f32 = 0.01;

/// The share of the prior that the engines' units take when the file is on an editor's
/// grid (the common units keep the rest: a building drawn in inches on a 16-inch grid).
const ENGINE_SHARE: f32 = 0.85;
/// How much more (or less) likely Doom's units are when the level is (or is not) drawn
/// as Doom draws: flat floors, vertical walls, no room over another.
pub const DOOM_SECTIONS: f32 = 20.0;

/// The engines' units as an importer scaled them, a row an engine of [`ENGINE_UNITS`]:
/// by 0.1 and by 0.01 (the last two of [`IMPORT_SCALES`]). A Half-Life level imported at
/// 0.1 has a unit of about ten inches, which "about an inch" misnamed.
const IMPORTED_NAMES: [[&str; 2]; 3] = [
    [
        "Quake and Half-Life units imported at 0.1 (about ten inches)",
        "Quake and Half-Life units imported at 0.01 (about 2.5 m)",
    ],
    [
        "Doom units imported at 0.1 (about 32 cm)",
        "Doom units imported at 0.01 (about 3.2 m)",
    ],
    [
        "Unreal units imported at 0.1 (decimetres)",
        "Unreal units imported at 0.01 (metres)",
    ],
];

/// The name of engine `engine`'s unit (of [`ENGINE_UNITS`]) in a file its importer scaled
/// by `import`.
fn imported_name(engine: usize, import: f32) -> &'static str {
    match IMPORT_SCALES.iter().position(|&s| s == import) {
        Some(k) if k > 0 => IMPORTED_NAMES[engine][k - 1],
        _ => ENGINE_UNITS[engine].name,
    }
}

/// The hypotheses for a file on `grid` (if any), whose floors and walls look like Doom's
/// sections (`doom_like`) or not.
pub fn hypotheses(grid: Option<EngineGrid>, doom_like: bool) -> Vec<Unit> {
    let Some(g) = grid else {
        return UNITS.to_vec();
    };
    let mut out: Vec<Unit> = UNITS
        .iter()
        .map(|u| Unit {
            prior: u.prior * (1.0 - ENGINE_SHARE),
            ..*u
        })
        .collect();
    for (k, e) in ENGINE_UNITS.iter().enumerate() {
        let doom = if e.metres == ENGINE_UNITS[1].metres {
            if doom_like {
                DOOM_SECTIONS
            } else {
                1.0 / DOOM_SECTIONS
            }
        } else {
            1.0
        };
        let unit = Unit {
            name: imported_name(k, g.import),
            // File units per engine unit: a tenth of the grid, ten times the metres.
            metres: short_decimal(f64::from(e.metres) / f64::from(g.import)),
            prior: e.prior * ENGINE_SHARE * doom,
            step: e.step,
            stair: e.stair,
        };
        // An engine's unit that is a common one (the inch, the centimetre) is one
        // hypothesis, by the engine's name.
        match out.iter_mut().find(|u| same_unit(u.metres, unit.metres)) {
            Some(u) => {
                *u = Unit {
                    prior: u.prior + unit.prior,
                    ..unit
                }
            }
            None => out.push(unit),
        }
    }
    out
}

/// How much likelier (natural log) a unit is when the file's header states it: SketchUp,
/// TIG's exporter and Maya write the units their coordinates are in. Short of certain: a
/// fork of an exporter wrote centimetres under "Units = meters", so the geometry can
/// still overrule it.
pub const STATED_WEIGHT: f32 = 4.0;
/// How much likelier (natural log) the units of the tool a header names are (Doom
/// Builder's Doom units, IfcOpenShell's metres, Cube 2's own): a tool's default, which a
/// user may have changed, so weaker than units stated.
pub const TOOL_WEIGHT: f32 = 3.0;

/// The hypotheses `units` weighed by what the file's header says (see
/// [`crate::map::header`]): the units it states and those of the tool it names are
/// likelier, and join the hypotheses when they are not among them (Cube 2's units,
/// whose 15-unit player makes a unit about 12 cm, are no common unit). A unit that joins
/// enters with the prior of the likeliest hypothesis, shared among the tool's units.
pub fn heard(mut units: Vec<Unit>, said: &Header) -> Vec<Unit> {
    let top = units.iter().map(|u| u.prior).fold(0.0f32, f32::max);
    let stated = said.units.map(|s| (s.unit, STATED_WEIGHT));
    let tool = said
        .tool
        .into_iter()
        .flat_map(|t| t.units().iter().map(|u| (*u, TOOL_WEIGHT)));
    for (unit, weight) in stated.into_iter().chain(tool) {
        let factor = unit.share * weight.exp();
        match units.iter_mut().find(|u| same_unit(u.metres, unit.metres)) {
            Some(u) => u.prior *= factor,
            None => units.push(Unit {
                name: unit.name,
                metres: unit.metres,
                prior: top * factor,
                step: PERSON_STEP,
                stair: (EDITOR_STAIR_UNITS * unit.metres, ENGINE_STAIR_SPREAD),
            }),
        }
    }
    units
}

/// A game's stairs in its own units when only its tool is known (Cube 2's cubes of 4
/// and 8 units): a rise of this many units, spread as an editor's
/// ([`ENGINE_STAIR_SPREAD`]).
const EDITOR_STAIR_UNITS: f32 = 4.0;

/// Significant digits a computed unit keeps (see [`short_decimal`]).
pub const UNIT_DIGITS: i32 = 6;

/// `metres` rounded to [`UNIT_DIGITS`] significant digits, as an `f32`: a unit computed
/// from others (an engine's unit as imported, a unit of a file's own) prints as a short
/// decimal, and the `--scale` that prints opens the very same scale. Without it 0.0254 /
/// 0.1 printed as 0.25399998, and 0.254 typed back was another number.
pub fn short_decimal(metres: f64) -> f32 {
    if !metres.is_normal() {
        return metres as f32;
    }
    let shift = UNIT_DIGITS - metres.abs().log10().ceil() as i32;
    let p = 10f64.powi(shift);
    let short = (metres * p).round() / p;
    // (A unit too small or too large to shift by a power of ten is kept as it is.)
    if short.is_normal() {
        short as f32
    } else {
        metres as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Doom's stairs were walls at Doom's own scale: its unit carries its step.
    #[test]
    fn only_dooms_unit_climbs_more_than_a_person() {
        assert_eq!(game_step(0.032), Some(24.0 * 0.032));
        assert_eq!(
            game_step(0.0254),
            None,
            "Quake's 18 units are a person's step"
        );
        assert_eq!(game_step(1.0), None);
        assert_eq!(game_step(0.0315), None);
    }

    #[test]
    fn a_computed_unit_prints_as_the_short_decimal_that_opens_it_again() {
        let f = |x: f32| f64::from(x);
        // The new user's inferno: 0.0254 / 0.1 said --scale 0.25399998.
        let imported = short_decimal(f(0.0254) / f(0.1));
        assert_eq!(imported.to_string(), "0.254");
        assert_eq!("0.254".parse::<f32>(), Ok(imported));
        // Cornell's unit of its own said 0.0051020407.
        let own = short_decimal(f(2.8) / f(548.8));
        assert_eq!(own.to_string(), "0.00510204");
        assert_eq!(short_decimal(1234.5678), 1234.57);
        assert_eq!(short_decimal(0.0), 0.0);
        assert_eq!(short_decimal(1e-310), 1e-310f64 as f32);
        assert_eq!(short_decimal(1e-305), 1e-305f64 as f32);
    }

    /// The de_inferno level through a Blender import at 0.1 opened at 0.254 m
    /// a unit, named "Quake and Half-Life units (about an inch)".
    #[test]
    fn an_engines_unit_imported_at_a_tenth_is_named_for_its_size() {
        for (import, metres, words) in [
            (1.0, 0.0254, "about an inch"),
            (0.1, 0.254, "about ten inches"),
            (0.01, 2.54, "about 2.5 m"),
        ] {
            let units = hypotheses(Some(EngineGrid { import, share: 1.0 }), false);
            let quake = units
                .iter()
                .find(|u| u.name.starts_with("Quake"))
                .expect("Quake's unit");
            assert!((quake.metres - metres).abs() < 1e-6, "{quake:?}");
            assert!(quake.name.contains(words), "{}", quake.name);
        }
    }

    #[test]
    fn off_a_grid_the_common_units_alone() {
        assert_eq!(hypotheses(None, true), UNITS.to_vec());
    }

    #[test]
    fn on_an_editors_grid_the_engines_units_lead_scaled_as_imported() {
        let raw = hypotheses(
            Some(EngineGrid {
                import: 1.0,
                share: 1.0,
            }),
            false,
        );
        // The inch and the centimetre are one hypothesis each, by the engine's name.
        assert_eq!(raw.len(), 6);
        let best = raw
            .iter()
            .max_by(|a, b| a.prior.total_cmp(&b.prior))
            .unwrap();
        assert_eq!(best.metres, 0.0254);
        assert!(best.name.starts_with("Quake"));
        let tenth = hypotheses(
            Some(EngineGrid {
                import: 0.1,
                share: 1.0,
            }),
            true,
        );
        let best = tenth
            .iter()
            .max_by(|a, b| a.prior.total_cmp(&b.prior))
            .unwrap();
        assert!((best.metres - 0.32).abs() < 1e-6, "{best:?}");
    }
}
