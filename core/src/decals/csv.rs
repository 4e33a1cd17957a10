//! `sim --decals-out FILE`: every decal's clipped triangles, one CSV row a triangle,
//! in the map file's coordinates (as the trace's positions are), so a test can check
//! where they lie.

use std::io::Write;

use super::Decals;
use crate::map::MapFrame;

/// The CSV's header: the decal's number (oldest 0), its texture's name, then the
/// triangle's three corners.
pub const DECALS_HEADER: &str = "decal,texture,x0,y0,z0,x1,y1,z1,x2,y2,z2";

/// Write `decals`' triangles to `out` as CSV (the header, then a row a triangle),
/// corners in the file's coordinates by `frame`.
pub fn write_decals(
    decals: &Decals,
    frame: &MapFrame,
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(out, "{DECALS_HEADER}")?;
    for (i, d) in decals.list.iter().enumerate() {
        let texture =
            super::DECAL_TEXTURES[usize::from(d.placement.texture) % super::DECAL_TEXTURES.len()];
        for t in &d.triangles {
            write!(out, "{i},{texture}")?;
            for c in t.corners {
                let p = frame.to_file(c);
                write!(out, ",{:.6},{:.6},{:.6}", p.x, p.y, p.z)?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}
