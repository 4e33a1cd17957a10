//! The built-in map, embedded in the binary so it runs from any directory.
//!
//! `assets/make_default_map.py` writes `assets/default.obj` and `assets/default.mtl`.

use super::{LoadOptions, Map, load_obj_str};

/// The OBJ text of the built-in map.
pub const DEFAULT_OBJ: &str = include_str!("../../../assets/default.obj");
/// Its MTL text.
pub const DEFAULT_MTL: &str = include_str!("../../../assets/default.mtl");

/// Load the built-in map (metres, Y up, spawn marked in the file).
pub fn default_map() -> Map {
    load_obj_str(
        "built-in map",
        DEFAULT_OBJ,
        &[("default.mtl", DEFAULT_MTL)],
        &LoadOptions {
            scale: Some(1.0),
            ..LoadOptions::default()
        },
    )
    .expect("the embedded default map is valid (a test loads it)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn default_map_loads_with_colours_and_a_spawn() {
        let m = default_map();
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
        assert!(m.triangle_count() > 300);
        // The spawn marker stands at the south end of the hall, the eye at 1.6 m.
        let spawn = m
            .marked_spawn
            .expect("the built-in map marks its spawn")
            .position;
        assert!(
            (spawn - Vec3::new(0.0, 1.6, 8.0)).length() < 0.01,
            "{spawn}"
        );
        assert!(m.batches.len() >= 10, "one batch per material");
        assert!(
            m.materials.iter().any(|mat| mat.diffuse == [0.9, 0.1, 0.1]),
            "the red triangle"
        );
    }
}
