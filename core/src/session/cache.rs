//! The cache folder's two caches (the folder: [`crate::store::cache_dir`]), each keyed by
//! what it is made from and by the code that makes it, so that a file is never used by a
//! build of the program that would have made it otherwise:
//!
//! - built maps kept between runs, in this file and `layout`, `read`, `write`,
//!   `keeping`, `parts` and `sections`: a big map opened again skips parsing its lines,
//!   making its triangles and building its collision world, which are most of a first
//!   open (ten million triangles: seconds, against a fraction of one to read back);
//! - [`levels`]: the levels of detail the window makes of a map's clusters.
//!
//! A built map's file, `map-<digest>.bin` in the cache folder, holds after its header the
//! map's vertices, batches and closed solids, the name its messages give its file, its
//! warnings and details, and its collision world's parts
//! ([`crate::collision::WorldParts`]), each section read straight into its final place.
//! It is used only when its header names the same [`FORMAT`], the same code
//! ([`MADE_BY`]: the sources that make what it holds, and the crates' versions) and the
//! same content; its body is checked against a checksum, each section's length against
//! what is left of the file before anything is allocated, and the world's every index
//! and number as it is put back ([`CollisionWorld::from_parts`]): a damaged file is
//! refused (then removed and written again), never used. An open looks a map up and
//! keeps it through the stage of [`super::open`] named `cache`.
//!
//! Only maps of at least [`MIN_CACHED_TRIANGLES`] with no material library are kept (the
//! materials and textures of a map that has them are not cached). The folder's map files
//! are kept under [`MAX_FOLDER_BYTES`], the least recently used going first.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::collision::CollisionWorld;
use crate::files::Digest;
use crate::map::{Map, MapFrame};

pub mod ambient;
mod keeping;
mod layout;
pub mod levels;
mod parts;
mod read;
mod sections;
mod write;

pub use keeping::{Keeping, finish_keeping, keeping_now};
pub(crate) use parts::remove_stale_parts;
pub use read::load;
pub(crate) use read::rename_messages;
pub use write::store;

/// The layout of a file; raised whenever it changes (2 kept the world's triangles as the
/// index of the map triangle each was made from; 3 keeps the triangles again, as 1; 4: a
/// map's vertices made from their positions alone take the flat normal, zero, and are
/// read back as positions; 5 keeps the name the map's messages give its file, so that
/// they are given the file's name at each open).
pub const FORMAT: u32 = 5;

/// Maps smaller than this are not kept: they open in about a second anyway.
pub const MIN_CACHED_TRIANGLES: usize = 1_000_000;

/// The most the folder's map files hold together, bytes (a ten-million-triangle terrain
/// takes 1.31 GB).
pub const MAX_FOLDER_BYTES: u64 = 4 << 30;

/// The code that makes what a file holds, and the crates' versions: hashed into every
/// header, so that a change to any of it refuses the files made before. The reading of
/// the file (obj, its lines checked: locate, mtl; its faces made into triangles:
/// assemble, triangulate, frame), the closed solids (and the bits they key corners by),
/// the collision world (its build, its tree, its triangles and the
/// tolerances they are dropped by), the wording of its messages (counts, file names),
/// this cache's own code (its layout, reading, writing and keeping; every file of this
/// module but the levels of detail, which have their own key) and the stages of an open
/// that read the map it holds and look it up ([`super::open`]'s `read` and `cache`).
const MADE_BY: [&str; 34] = [
    include_str!("cache.rs"),
    include_str!("cache/layout.rs"),
    include_str!("cache/read.rs"),
    include_str!("cache/write.rs"),
    include_str!("cache/parts.rs"),
    include_str!("cache/sections.rs"),
    include_str!("cache/keeping.rs"),
    include_str!("open/read.rs"),
    include_str!("open/cache.rs"),
    include_str!("../map/obj.rs"),
    include_str!("../map/locate.rs"),
    include_str!("../map/mtl.rs"),
    include_str!("../map/assemble.rs"),
    include_str!("../map/triangulate.rs"),
    include_str!("../map/frame.rs"),
    include_str!("../map.rs"),
    include_str!("../map/corners.rs"),
    include_str!("../cull/solids.rs"),
    include_str!("../collision/world.rs"),
    include_str!("../collision/world/build.rs"),
    include_str!("../collision/world/parts.rs"),
    include_str!("../collision/bvh.rs"),
    include_str!("../collision/bvh/build.rs"),
    include_str!("../collision/bvh/build/prim.rs"),
    include_str!("../collision/bvh/build/sah.rs"),
    include_str!("../collision/bvh/build/two.rs"),
    include_str!("../geometry/triangle.rs"),
    include_str!("../geometry/plane.rs"),
    include_str!("../geometry/aabb.rs"),
    include_str!("../geometry/bits.rs"),
    include_str!("../tolerance.rs"),
    include_str!("../text/wording.rs"),
    include_str!("../text/quote.rs"),
    include_str!("../../../Cargo.lock"),
];

/// A map and its collision world, as built from the file (its own axes and units).
#[derive(Debug)]
pub struct Cached {
    /// The map (its name, source, inputs and digest are the caller's to set).
    pub map: Map,
    /// Its collision world.
    pub world: CollisionWorld,
    /// The name its messages give the file it was built from ([`shown_path`]).
    pub built_as: String,
}

/// The file the map of content `digest` is kept in, in `dir`.
pub fn file_for(dir: &Path, digest: &Digest) -> PathBuf {
    dir.join(format!("map-{:032x}-{:x}.bin", digest.hash, digest.len))
}

/// Whether `map` is one this cache keeps (see the module's notes).
pub fn keeps(map: &Map) -> bool {
    map.triangle_count() >= MIN_CACHED_TRIANGLES
        && map.materials.len() == 1
        && map.inputs.len() <= 1
        && map.moving.is_empty()
        && map.frame == MapFrame::default()
}

/// Whether `dir` keeps a built map of a file `len` bytes long (its name ends in the
/// length: only then is a file hashed before it is read).
pub(crate) fn kept_of_length(dir: &Path, len: u64) -> bool {
    let end = format!("-{len:x}.bin");
    kept_files(dir).any(|(name, _)| name.ends_with(&end))
}

/// The map files kept in `dir` ([`file_for`]'s names), each with its folder entry.
fn kept_files(dir: &Path) -> impl Iterator<Item = (String, std::fs::DirEntry)> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e))
        .filter(|(name, _)| name.starts_with("map-") && name.ends_with(".bin"))
}

/// Remove the least recently used map files of `dir` until the rest hold `most` bytes
/// or less.
pub fn trim(dir: &Path, most: u64) {
    remove_stale_parts(dir);
    let mut files: Vec<(SystemTime, u64, PathBuf)> = kept_files(dir)
        .filter_map(|(_, e)| {
            let meta = e.metadata().ok()?;
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect();
    files.sort();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    for (_, len, path) in files {
        if total <= most {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

#[cfg(test)]
mod tests;
