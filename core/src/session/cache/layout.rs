//! The layout of a built map's file: its header (magic, format, the code's hash, the
//! content's key), the plain records its counts and points are written as, and how its
//! vertices and messages are made into sections and back.

use bytemuck::{Pod, Zeroable};
use xxhash_rust::xxh3::Xxh3;

use super::{FORMAT, MADE_BY};
use crate::files::Digest;
use crate::map::Corners;

/// A file's first bytes.
pub(super) const MAGIC: [u8; 8] = *b"wtmapbin";

/// Where a header's magic, format and code end (its content's key follows).
pub(super) const VERSION_END: usize = MAGIC.len() + size_of::<u32>() + size_of::<u128>();

/// A file's header: [`MAGIC`], [`FORMAT`], the hash of [`MADE_BY`], then the content's
/// digest.
pub(super) fn header(digest: &Digest) -> Vec<u8> {
    let mut code = Xxh3::new();
    MADE_BY.iter().for_each(|s| code.update(s.as_bytes()));
    let mut out = MAGIC.to_vec();
    out.extend(FORMAT.to_le_bytes());
    out.extend(code.digest128().to_le_bytes());
    out.extend(digest.hash.to_le_bytes());
    out.extend(digest.len.to_le_bytes());
    out
}

/// The counts of a map and its world.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C)]
pub(super) struct Counts {
    pub(super) objects: u64,
    pub(super) solids: u64,
    pub(super) has_spawn: u64,
    /// Every vertex's normal is its triangle's own and its texture coordinates are 0: the
    /// file keeps positions only, and the rest is made again (a third of the size).
    pub(super) derived: u64,
    pub(super) dropped: u64,
    pub(super) duplicates: u64,
    pub(super) depth: u64,
}

/// The points of a map: its marked spawn (zero without one) and its bounds.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C)]
pub(super) struct Points {
    pub(super) spawn: [f32; 3],
    pub(super) min: [f32; 3],
    pub(super) max: [f32; 3],
}

/// A batch as plain data: material, first vertex, vertex count.
pub(super) type BatchRecord = [u32; 3];

/// Whether every corner of `vertices` can be made again from its position alone
/// ([`Corners::position_alone`]: a file without normals or texture coordinates); read
/// back as [`Corners::Positions`].
pub(super) fn derivable(vertices: &Corners) -> bool {
    vertices.len().is_multiple_of(3)
        && match vertices {
            Corners::Positions(_) => true,
            Corners::Full(v) => v.iter().all(Corners::position_alone),
        }
}

/// Lines as one section of bytes (each ends in a newline; none contains one, as the
/// map's messages are quoted escaped).
pub(super) fn lines_bytes(lines: &[String]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| l.bytes().chain([b'\n']))
        .collect()
}

/// [`lines_bytes`] back.
pub(super) fn lines_of(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect()
}
