//! The survey stage of an open: what the map's free space and shape say of its frame
//! (up axis, scale: see [`crate::survey`]) where the options leave it open, read with
//! what the file's header says of itself; a map with strays far away is surveyed by its
//! main part.

use std::path::Path;

use crate::collision::CollisionWorld;
use crate::map::Map;
use crate::map::header::{HEADER_BYTES, Header};
use crate::session::OpenOptions;
use crate::survey::{FrameGuess, FreeSpace, Given, MainPart, infer_frame, main_part};
use crate::text::wording::counted;

/// Whether the free-space survey is needed for the map `map` of a `file` opened with
/// `opts` and `given`: it serves the up axis, the scale and the spawn, and is skipped
/// when all three are given (and for the built-in map).
pub(super) fn needed(file: bool, given: Given, opts: &OpenOptions, map: &Map) -> bool {
    file && (given.up.is_none()
        || given.scale.is_none()
        || (opts.spawn.is_none() && map.marked_spawn.is_none()))
}

/// What the OBJ file at `path` says of itself in its header (see [`Header`]), weighed
/// in its survey: a file unreadable now says nothing (the map is already read).
pub(super) fn header_of(path: &Path) -> Header {
    crate::files::read_head(path, crate::files::FileKind::Obj, HEADER_BYTES)
        .map_or_else(|_| Header::default(), |head| Header::read(&head))
}

/// What the survey made of a map in its file's coordinates.
pub(super) struct Surveyed {
    /// The frame and why.
    pub(super) guess: FrameGuess,
    /// The free space (when the survey was `needed`).
    pub(super) free: Option<FreeSpace>,
    /// The map's main part, when a few triangles lie far from it.
    pub(super) part: Option<MainPart>,
}

/// Survey `world` (the map in its file's coordinates) for what `given` leaves open; the
/// free-space grid only when `needed`. A map with strays far away is surveyed by its main
/// part, with a warning on `map`.
pub(super) fn survey_map(
    warnings: &mut Vec<String>,
    world: &CollisionWorld,
    needed: bool,
    given: Given,
    said: &Header,
) -> Surveyed {
    // A few triangles far from the rest would stretch the survey's grid past its rooms.
    let part = if needed { main_part(world) } else { None };
    if let Some(p) = &part {
        warnings.push(format!(
            "{} far from the rest of the map (it spans {:.0} units, its main part {:.0}): the survey reads the main part; {}",
            counted(p.left_out, "triangle lies", "triangles lie"),
            world.bounds().size().max_element(),
            p.bounds.size().max_element(),
            match p.left_out {
                1 => "it still draws and collides",
                _ => "they still draw and collide",
            }
        ));
    }
    let surveyed = part.as_ref().map_or(world, |p| &p.world);
    let free = if needed {
        FreeSpace::survey(surveyed)
    } else {
        None
    };
    let guess = infer_frame(surveyed, free.as_ref(), given, said);
    Surveyed { guess, free, part }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// One stray was "1 triangles lie far from the rest".
    #[test]
    fn one_stray_triangle_is_said_in_the_singular() {
        let mut t: Vec<[Vec3; 3]> = (0..20)
            .flat_map(|i| (0..20).map(move |j| (i as f32, j as f32)))
            .map(|(x, z)| {
                [
                    Vec3::new(x, 0.0, z),
                    Vec3::new(x, 0.0, z + 1.0),
                    Vec3::new(x + 1.0, 0.0, z),
                ]
            })
            .collect();
        let far = Vec3::new(9e5, 0.0, 0.0);
        t.push([far, far + Vec3::Y * 3.0, far + Vec3::X]);
        let mut warnings = Vec::new();
        survey_map(
            &mut warnings,
            &CollisionWorld::new(t),
            true,
            Given::default(),
            &Header::default(),
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let w = &warnings[0];
        assert!(w.starts_with("1 triangle lies far from the rest"), "{w}");
        assert!(w.ends_with("; it still draws and collides"), "{w}");
    }
}
