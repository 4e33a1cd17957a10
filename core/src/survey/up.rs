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
//! - **Level share**: the share of the whole surface that lies across the axis at its
//!   main levels (the across-facing area's concentration at few places along the axis).
//!   A real game level's floors are many small sectors at many heights, so they cover
//!   little of the footprint (layering reads near zero either way), but its storeys and
//!   floor heights still gather the floor area at a few heights far more than its walls,
//!   one or two a room, gather at a few places across: on Doom's E1M1 turned Z-up,
//!   layering was 0.05 against 0.08 for the wrong axis, level share 1.5 times the wrong
//!   axis's.
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
    /// The share of the surface lying across the axis at its main levels (0 to 1): the
    /// facing share times the chance that two pieces of across-facing area lie at the
    /// same level.
    pub level_share: f32,
}

/// The evidence along `up` (a unit axis of the file) for `world`, in the file's own
/// coordinates, with `free` its free-space survey there; `surface` its surface cues
/// ([`SurfaceCues::of`], found once for every candidate).
pub fn evidence(
    world: &CollisionWorld,
    free: Option<&FreeSpace>,
    up: UpAxis,
    surface: &SurfaceCues,
) -> AxisEvidence {
    let dir = up.direction();
    let axis = dir.abs().max_position();
    AxisEvidence {
        sky: free.map_or(0.0, |f| sky(world, f, dir)),
        facing: surface.facing[axis],
        layering: surface.layering[axis],
        level_share: surface.level_share[axis],
    }
}

/// The cues read from the surface alone, per file axis (an axis and its negative read
/// alike): found in one pass over the triangles for all three axes, where each of the
/// candidates took two passes of its own (at ten million triangles, 0.25 s).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SurfaceCues {
    /// The share of the surface area facing along each axis (either way).
    pub facing: [f32; 3],
    /// The layering cue along each axis: surfaces across it, by area, binned by their
    /// place along it; the area-weighted mean share of the footprint (the map's extent
    /// across the axis) that a bin's surfaces cover.
    pub layering: [f32; 3],
    /// The level-share cue along each axis: the facing share times the sum of the
    /// squared shares of the across-facing area in each bin (see [`AxisEvidence`]).
    pub level_share: [f32; 3],
}

impl SurfaceCues {
    /// The cues of `world`.
    pub fn of(world: &CollisionWorld) -> SurfaceCues {
        let b = world.bounds();
        let size = b.size();
        let extent: [f32; 3] =
            std::array::from_fn(|axis| size[axis].max(size.max_element() * 1e-3));
        let (mut along, mut total) = ([0.0f64; 3], 0.0f64);
        let mut bins = [(); 3].map(|()| vec![0.0f64; LEVEL_BINS + 1]);
        for t in world.triangles() {
            let length = t.e1().cross(t.e2()).length();
            total += f64::from(length);
            for axis in 0..3 {
                if t.plane.normal[axis].abs() > ACROSS_COS {
                    along[axis] += f64::from(length);
                    let at =
                        ((t.a[axis] - b.min[axis]) / extent[axis] * LEVEL_BINS as f32) as usize;
                    bins[axis][at.min(LEVEL_BINS)] += f64::from(length * 0.5);
                }
            }
        }
        let facing = along.map(|a| if total > 0.0 { (a / total) as f32 } else { 0.0 });
        let level_share = std::array::from_fn(|axis| {
            let total: f64 = bins[axis].iter().sum();
            if total <= 0.0 {
                return 0.0;
            }
            let same_level: f64 = bins[axis].iter().map(|a| (a / total).powi(2)).sum();
            facing[axis] * same_level as f32
        });
        let layering = std::array::from_fn(|axis| {
            let footprint = size[(axis + 1) % 3] * size[(axis + 2) % 3];
            let total: f64 = bins[axis].iter().sum();
            if footprint.is_nan() || footprint <= 0.0 || total <= 0.0 {
                return 0.0;
            }
            let covered: f64 = bins[axis].iter().map(|a| a * a).sum::<f64>() / f64::from(footprint);
            (covered / total) as f32
        });
        SurfaceCues {
            facing,
            layering,
            level_share,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Quads as two triangles each.
    fn quads(quads: &[[Vec3; 4]]) -> CollisionWorld {
        CollisionWorld::new(
            quads
                .iter()
                .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]]),
        )
    }

    #[test]
    fn surface_cues_read_every_axis_in_one_pass() {
        let v = Vec3::new;
        // A floor 4 x 4 at y 0, a shelf 2 x 4 at y 1, and one wall 4 wide, 1 high, facing z.
        let world = quads(&[
            [v(0., 0., 0.), v(0., 0., 4.), v(4., 0., 4.), v(4., 0., 0.)],
            [v(0., 1., 0.), v(0., 1., 4.), v(2., 1., 4.), v(2., 1., 0.)],
            [v(0., 0., 0.), v(4., 0., 0.), v(4., 1., 0.), v(0., 1., 0.)],
        ]);
        let cues = SurfaceCues::of(&world);
        // Areas 16 + 8 across y, 4 across z, of 28.
        assert_eq!(cues.facing, [0.0, 24.0 / 28.0, 4.0 / 28.0]);
        // Across y: two levels of 16 and 8 over a footprint of 16: (16^2 + 8^2) / 16 / 24.
        assert!(
            (cues.layering[1] - 320.0 / 16.0 / 24.0).abs() < 1e-6,
            "{cues:?}"
        );
        // Across z: one wall of 4 over a footprint of 4 x 1 covers it all.
        assert!((cues.layering[2] - 1.0).abs() < 1e-6, "{cues:?}");
        assert_eq!(cues.layering[0], 0.0);
        // Across y, levels of 16 and 8 (shares 2/3 and 1/3) of the 24 facing along it:
        // (4/9 + 1/9) of 24/28. Across z, one level holds it all: 4/28. None across x.
        let share = [0.0, 5.0 / 9.0 * 24.0 / 28.0, 4.0 / 28.0];
        for (got, want) in cues.level_share.iter().zip(share) {
            assert!((got - want).abs() < 1e-6, "{cues:?}");
        }
        // An axis and its negative read alike.
        let (up, down) = (UpAxis::Y, UpAxis::NegY);
        let [a, b] = [up, down].map(|u| evidence(&world, None, u, &cues));
        assert_eq!(a, b);
        assert_eq!(a.facing, cues.facing[1]);
    }
}
