//! Which axis of a file points up, from evidence that a floor is a floor.
//!
//! OBJ's convention is Y up (Blender, Maya and 3ds Max write it), so Y is kept unless the
//! evidence for Z is strong and of a kind walls cannot give:
//!
//! - **Sky** (gravity's cue, which a hall's tall side walls cannot fake): from the open
//!   space of the map, a ray down almost always meets something and a ray up escapes over
//!   an open-topped map (terrain, a town, a court, a stadium). Along a horizontal axis both
//!   directions escape alike, and a door on one side of a closed room is no sky.
//! - **Layering**: floors lie at a few heights, each covering most of the footprint, while
//!   walls spread over many places and each covers a part of the cross-section (a maze, a
//!   hotel's corridor, rooms in a row). Two long walls can give it too, so it weighs less.
//! - **Facing**: the share of the surface area lying across the axis (floors, ceilings,
//!   table tops). Weakest: a long hall's walls outweigh its floor.
//!
//! Candidates are +Y and +Z (what exporters write); any other axis is the user's to set
//! (`--up`, or the up-axis key in the window).

use glam::Vec3;

use super::pockets::FreeSpace;
use crate::collision::CollisionWorld;
use crate::map::UpAxis;

/// Open points the sky cue casts its rays from.
const SKY_POINTS: usize = 600;
/// Asymmetry below this (a share of the rays) is no sky: openings on one side of a room.
const SKY_FLOOR: f32 = 0.15;
/// A surface lies across an axis when its normal's component along it exceeds this.
const ACROSS_COS: f32 = 0.95;
/// Levels per map extent in the layering cue's histogram.
const LEVEL_BINS: usize = 200;
/// The evidence along one axis of the file.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AxisEvidence {
    /// Rays down that meet something less rays up that do, from open space (-1 to 1).
    pub sky: f32,
    /// Share of the map's surface area facing along the axis (0 to 1).
    pub facing: f32,
    /// How much of the footprint the level a unit of across-facing area lies in covers,
    /// on average (0 to about 1).
    pub layering: f32,
}

/// The evidence along `up` (a unit axis of the file) for `world`, in the file's own
/// coordinates, with `free` its free-space survey there.
pub fn evidence(world: &CollisionWorld, free: Option<&FreeSpace>, up: UpAxis) -> AxisEvidence {
    let dir = up.direction();
    let axis = dir.abs().max_position();
    AxisEvidence {
        sky: free.map_or(0.0, |f| sky(world, f, dir)),
        facing: facing(world, axis),
        layering: layering(world, axis),
    }
}

/// The share of `world`'s surface area facing along file axis `axis` (either way).
fn facing(world: &CollisionWorld, axis: usize) -> f32 {
    let (mut along, mut total) = (0.0f64, 0.0f64);
    for t in world.triangles() {
        let area = f64::from(t.e1().cross(t.e2()).length());
        total += area;
        if t.plane.normal[axis].abs() > ACROSS_COS {
            along += area;
        }
    }
    if total > 0.0 {
        (along / total) as f32
    } else {
        0.0
    }
}

/// The sky cue along `up`: from open points, the share of rays down (along
/// the axis's negative) that meet something less the share of rays up that do.
fn sky(world: &CollisionWorld, free: &FreeSpace, up: Vec3) -> f32 {
    let points = free.open_points(SKY_POINTS);
    if points.is_empty() {
        return 0.0;
    }
    let reach = world.bounds().size().length() * 2.0 + 1.0;
    let (mut down, mut upward) = (0usize, 0usize);
    for p in &points {
        down += usize::from(world.ray_cast(*p, -up, reach).is_some());
        upward += usize::from(world.ray_cast(*p, up, reach).is_some());
    }
    let s = (down as f32 - upward as f32) / points.len() as f32;
    // A door on one side of a closed room lets a few rays out one way: that is no sky.
    s.signum() * (s.abs() - SKY_FLOOR).max(0.0)
}

/// The layering cue along file axis `axis`: surfaces across it, by area, binned by their
/// place along it; the area-weighted mean share of the footprint (the map's extent across
/// the axis) that a bin's surfaces cover.
fn layering(world: &CollisionWorld, axis: usize) -> f32 {
    let b = world.bounds();
    let size = b.size();
    let extent = size[axis].max(size.max_element() * 1e-3);
    let footprint = size[(axis + 1) % 3] * size[(axis + 2) % 3];
    if footprint.is_nan() || footprint <= 0.0 {
        return 0.0;
    }
    let mut bins = vec![0.0f64; LEVEL_BINS + 1];
    for t in world.triangles() {
        if t.plane.normal[axis].abs() > ACROSS_COS {
            let at = ((t.a[axis] - b.min[axis]) / extent * LEVEL_BINS as f32) as usize;
            bins[at.min(LEVEL_BINS)] += f64::from(t.e1().cross(t.e2()).length() * 0.5);
        }
    }
    let total: f64 = bins.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let covered: f64 = bins.iter().map(|a| a * a).sum::<f64>() / f64::from(footprint);
    (covered / total) as f32
}
