//! Writing a built map's file: the map's part (its header and sections), then the
//! world's (its triangles and tree); [`store`] writes both at once.

use std::io::Write;
use std::path::Path;

use glam::Vec3;

use super::Keeping;
use super::layout::{BatchRecord, Counts, Points, derivable, header, lines_bytes};
use super::sections::Writer;
use crate::collision::{CollisionWorld, WorldStats};
use crate::files::Digest;
use crate::map::{Corners, Map, Solids, Vertex};

/// Keep `map` and `world` (built from it) in `dir` as the map of content `digest`, then
/// trim the folder, all at once ([`Keeping`] writes it in two parts). A failed write
/// leaves no file behind.
pub fn store(
    dir: &Path,
    digest: &Digest,
    map: &Map,
    solids: &Solids,
    world: &CollisionWorld,
) -> Result<(), String> {
    Keeping::begin(dir, digest, map, solids, world)?.finish(world)
}

/// The map's part of a file: its header, then the map's sections (everything but the
/// world's triangles and tree, which [`write_world`] adds; the counts give the world's
/// `stats`).
pub(super) fn write_map<W: Write>(
    w: &mut Writer<W>,
    digest: &Digest,
    map: &Map,
    solids: &Solids,
    stats: WorldStats,
) -> std::io::Result<()> {
    w.out.write_all(&header(digest))?;
    let spawn = map.marked_spawn.map(|s| s.position);
    let derived = derivable(&map.vertices);
    let counts = Counts {
        objects: map.objects as u64,
        solids: u64::from(solids.count),
        has_spawn: u64::from(spawn.is_some()),
        derived: u64::from(derived),
        dropped: stats.dropped as u64,
        duplicates: stats.duplicates as u64,
        depth: stats.depth as u64,
    };
    let points = Points {
        spawn: spawn.unwrap_or(Vec3::ZERO).to_array(),
        min: map.bounds.min.to_array(),
        max: map.bounds.max.to_array(),
    };
    let batches: Vec<BatchRecord> = map
        .batches
        .iter()
        .map(|b| [b.material as u32, b.first, b.count])
        .collect();
    w.section(&[counts])?;
    w.section(&[points])?;
    w.section_of(map.vertices.len(), map.vertices.positions())?;
    let rest: &[Vertex] = match &map.vertices {
        Corners::Full(v) if !derived => v,
        _ => &[],
    };
    w.section(rest)?;
    w.section(&batches)?;
    w.section(&solids.of_triangle)?;
    w.section(map.shown().as_bytes())?;
    w.section(&lines_bytes(&map.warnings))?;
    w.section(&lines_bytes(&map.details))
}

/// The world's part of a file, after [`write_map`]'s: its triangles, then its tree.
pub(super) fn write_world<W: Write>(
    w: &mut Writer<W>,
    world: &CollisionWorld,
) -> std::io::Result<()> {
    w.section(world.triangles())?;
    let nodes = world.node_records();
    w.section_of(nodes.len(), nodes)?;
    // Not synced to the disk: a file cut short by a crash fails its checksum and is
    // built again (syncing the file, then 1.9 GB, took seconds of the first open).
    w.out.flush()
}
