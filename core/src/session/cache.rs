//! Built maps kept between runs (issue 37): a big map opened again skips parsing its
//! lines, making its triangles and building its collision world, which are most of a
//! first open (ten million triangles: seconds, against a fraction of one to read back).
//!
//! A file, `map-<digest>.bin` in the cache folder, holds after its header the map's
//! vertices, batches and closed solids, the name its messages give its file, its
//! warnings and details, and its collision world's parts ([`WorldParts`]), each section
//! read straight into its final place. It is used
//! only when its header names the same [`FORMAT`], the same code ([`MADE_BY`]: the
//! sources that make what it holds, and the crates' versions) and the same content; its
//! body is checked against a checksum, each section's length against what is left of
//! the file before anything is allocated, and the world's every index and number as it
//! is put back ([`CollisionWorld::from_parts`]): a damaged file is refused (then removed
//! and written again), never used.
//!
//! Only maps of at least [`MIN_CACHED_TRIANGLES`] with no material library are kept (the
//! materials and textures of a map that has them are not cached). The folder's map files
//! are kept under [`MAX_FOLDER_BYTES`], the least recently used going first.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use bytemuck::{Pod, Zeroable};
use glam::Vec3;
use xxhash_rust::xxh3::Xxh3;

use sections::{Reader, Writer};

use crate::collision::{CollisionWorld, NodeRecord, WorldParts, WorldStats};
use crate::files::{Digest, FileKind, check_file};
use crate::geometry::{Aabb, Triangle};
use crate::map::progress::{Progress, Stage};
use crate::map::{
    Batch, Corners, LoadOptions, Map, MapError, MapFrame, MarkedSpawn, Material, Solids, UpAxis,
    Vertex, builtin, name_map, parse_obj_file, read_obj_file,
};
use crate::session::{OpenOptions, Watch};
use crate::text::quote::shown_path;

mod keeping;
mod sections;

pub use keeping::{Keeping, finish_keeping, keeping_now};

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
/// tolerances they are dropped by), the wording of its messages (counts, file names) and
/// this file's own layout.
const MADE_BY: [&str; 28] = [
    include_str!("cache.rs"),
    include_str!("cache/sections.rs"),
    include_str!("cache/keeping.rs"),
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

/// A file's first bytes.
const MAGIC: [u8; 8] = *b"wtmapbin";

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

/// A map opened through the cache: the map, its world when it came from the cache, and
/// where to keep it once built.
pub struct Opened {
    /// The map, in its file's frame (Y up, scale 1), named as its file.
    pub map: Map,
    /// Its world, read from the cache (`None`: to be built).
    pub world: Option<CollisionWorld>,
    /// The cache's folder, when the map was not read from it and is one it keeps
    /// ([`keeps`]).
    pub keep_in: Option<PathBuf>,
    /// Why the cached map was not used (damaged): a warning for this open only, not kept
    /// with the map (every later open from the cache said it again).
    pub note: Option<String>,
}

/// Open the map at `path` (the built-in map for `None`) in its file's frame: once the
/// file's digest is known, `watch.on_key` hears it (and may change `opts`); the map is
/// then read from the cache when it is there and sound, else parsed (a damaged cached
/// file is removed, with a warning on the map). When a built map of the file's length is
/// kept, the file is hashed as a stream first, never held whole (379 MB for ten million
/// triangles); it is read whole only to be parsed.
pub fn open_map(
    path: Option<&Path>,
    opts: &mut OpenOptions,
    watch: Watch,
) -> Result<Opened, MapError> {
    let Some(path) = path else {
        return Ok(Opened {
            map: builtin::default_map(),
            world: None,
            keep_in: None,
            note: None,
        });
    };
    let progress = watch.progress;
    let dir = watch.cache_dir.filter(|_| !opts.no_map_cache);
    // At every open, not only when a map is kept: a killed program's part (a gigabyte
    // at ten million triangles) would stay while the maps opened are all kept ones.
    if let Some(d) = dir.as_deref() {
        remove_stale_parts(d);
    }
    let len = check_file(path, FileKind::Obj)?.len();
    let mut file = None;
    let digest = match dir.as_deref().filter(|d| kept_of_length(d, len)) {
        Some(_) => Digest::of_file(path, FileKind::Obj)?,
        None => {
            let read = read_obj_file(path)?;
            let digest = read.digest;
            file = Some(read);
            digest
        }
    };
    (watch.on_key)(&digest, opts);
    let found = dir.as_deref().and_then(|d| {
        progress.enter(Stage::Cached);
        load(d, &digest, !opts.headless, progress).map(|r| (d, r))
    });
    let damaged = match found {
        Some((
            _,
            Ok(Cached {
                mut map,
                world,
                built_as,
            }),
        )) => {
            rename_messages(&mut map, &built_as, &shown_path(path));
            name_map(&mut map, path, digest);
            return Ok(Opened {
                map,
                world: Some(world),
                keep_in: None,
                note: None,
            });
        }
        Some((d, Err(e))) => {
            let _ = std::fs::remove_file(file_for(d, &digest));
            Some(format!("the cache of built maps: {e}; it was built again"))
        }
        None => None,
    };
    // From nothing: the bar may have counted a cached file's bytes (refused, or of
    // another build) and says what is read now.
    progress.enter(Stage::Reading);
    progress.set_total(len);
    progress.read(0);
    // Hashed as a stream, and not kept after all (a file of the same length, or a
    // damaged one): read whole now.
    let file = match file {
        Some(f) => f,
        None => read_obj_file(path)?,
    };
    let options = LoadOptions {
        scale: Some(1.0),
        up: UpAxis::Y,
        textures: opts.textures,
    };
    let map = parse_obj_file(file, &options, progress)?;
    let keep_in = dir.filter(|_| keeps(&map));
    Ok(Opened {
        map,
        world: None,
        keep_in,
        note: damaged,
    })
}

/// Whether `dir` keeps a built map of a file `len` bytes long (its name ends in the
/// length: only then is a file hashed before it is read).
fn kept_of_length(dir: &Path, len: u64) -> bool {
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

/// A file being written ([`Keeping`]) untouched for this long was left by a program that
/// ended before it could finish or remove it (killed, or the machine stopped).
const STALE_PART: Duration = Duration::from_secs(3600);

/// A part whose writer has ended (its process is gone, see [`writer_gone`]) is removed
/// once untouched for this long: a whole file's worth of disk (a gigabyte at ten million
/// triangles) is not held for an hour after a `kill -9`. The minute is a margin: no part
/// written to within it is removed, whatever the system says. A writer on another
/// machine or in another container sharing the folder is never judged gone (only
/// [`STALE_PART`] applies to its part, and to the parts of earlier versions, whose names
/// say no space).
const ORPHANED_PART: Duration = Duration::from_secs(60);

/// Remove the parts of files in `dir` that no program is writing any longer (see
/// [`STALE_PART`] and [`ORPHANED_PART`]): each could be as big as a whole file.
fn remove_stale_parts(dir: &Path) {
    let now = SystemTime::now();
    for entry in std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with("map-") && name.ends_with(".partial")) {
            continue;
        }
        let Some(age) = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
        else {
            continue;
        };
        let orphaned = age > ORPHANED_PART && writer_gone(&name);
        if age > STALE_PART || orphaned {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether the program that named the part `name`
/// (`map-<digest>.<pid>-<n>-<space>.partial`, see [`keeping`]) has ended: it ran where
/// this one's process numbers are its own (the same [`process_space`]) and its number
/// is not in `/proc`. False where the system does not say (only [`STALE_PART`] applies
/// there), for a writer elsewhere, or for a name that does not hold both.
fn writer_gone(name: &str) -> bool {
    let Some(fields) = name
        .strip_suffix(".partial")
        .and_then(|n| n.rsplit('.').next())
    else {
        return false;
    };
    let mut fields = fields.split('-');
    let pid = fields.next().and_then(|p| p.parse::<u32>().ok());
    let space = fields.nth(1).and_then(|s| u64::from_str_radix(s, 16).ok());
    match (pid, space) {
        (Some(pid), Some(space)) if space != 0 && space == process_space() => {
            !Path::new("/proc").join(pid.to_string()).exists()
        }
        _ => false,
    }
}

/// Where this program's process numbers mean what `/proc` says: the machine's boot and
/// its process-number namespace (a container has its own), hashed; 0 where the system
/// does not say, or where `/proc` is not of this process's namespace (`/proc/self` is
/// not its own number). Written into each part's name, so that a part from another
/// machine or container sharing the cache folder is never judged by this one's `/proc`.
pub(super) fn process_space() -> u64 {
    static SPACE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SPACE.get_or_init(|| {
        let boot = std::fs::read("/proc/sys/kernel/random/boot_id");
        let pids = std::fs::read_link("/proc/self/ns/pid");
        let own = std::fs::read_link("/proc/self")
            .is_ok_and(|p| p.as_os_str() == std::process::id().to_string().as_str());
        match (boot, pids) {
            (Ok(boot), Ok(pids)) if own => {
                let mut h = Xxh3::new();
                h.update(&boot);
                h.update(pids.as_os_str().as_encoded_bytes());
                h.digest().max(1)
            }
            _ => 0,
        }
    })
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

/// Where a header's magic, format and code end (its content's key follows).
const VERSION_END: usize = MAGIC.len() + size_of::<u32>() + size_of::<u128>();

/// A file's header: [`MAGIC`], [`FORMAT`], the hash of [`MADE_BY`], then the content's
/// digest.
fn header(digest: &Digest) -> Vec<u8> {
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
struct Counts {
    objects: u64,
    solids: u64,
    has_spawn: u64,
    /// Every vertex's normal is its triangle's own and its texture coordinates are 0: the
    /// file keeps positions only, and the rest is made again (a third of the size).
    derived: u64,
    dropped: u64,
    duplicates: u64,
    depth: u64,
}

/// The points of a map: its marked spawn (zero without one) and its bounds.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C)]
struct Points {
    spawn: [f32; 3],
    min: [f32; 3],
    max: [f32; 3],
}

/// A batch as plain data: material, first vertex, vertex count.
type BatchRecord = [u32; 3];

/// Whether every corner of `vertices` can be made again from its position alone
/// ([`Corners::position_alone`]: a file without normals or texture coordinates); read
/// back as [`Corners::Positions`].
fn derivable(vertices: &Corners) -> bool {
    vertices.len().is_multiple_of(3)
        && match vertices {
            Corners::Positions(_) => true,
            Corners::Full(v) => v.iter().all(Corners::position_alone),
        }
}

/// Lines as one section of bytes (each ends in a newline; none contains one, as the
/// map's messages are quoted escaped).
fn lines_bytes(lines: &[String]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| l.bytes().chain([b'\n']))
        .collect()
}

/// [`lines_bytes`] back.
fn lines_of(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

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
fn write_map<W: Write>(
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
fn write_world<W: Write>(w: &mut Writer<W>, world: &CollisionWorld) -> std::io::Result<()> {
    w.section(world.triangles())?;
    let nodes = world.node_records();
    w.section_of(nodes.len(), nodes)?;
    // Not synced to the disk: a file cut short by a crash fails its checksum and is
    // built again (syncing the file, then 1.9 GB, took seconds of the first open).
    w.out.flush()
}

/// The map of content `digest` kept in `dir`: `None` when there is none (or it was made
/// by other code, or for other content), an error when it is there but damaged.
/// With `drawn` false (`sim`), the map's vertices, which only the renderer draws, are
/// passed over: the map has the triangles of its world alone. `progress` is told the
/// file's length, then the bytes read of it.
pub fn load(
    dir: &Path,
    digest: &Digest,
    drawn: bool,
    progress: &Progress,
) -> Option<Result<Cached, String>> {
    let path = file_for(dir, digest);
    // A pipe, device or socket at a kept map's name is refused before it is opened (a
    // FIFO there held `sim` waiting for a writer for ever: a fuzz run's finding), and
    // checked again on the handle. The caller removes it and builds the map again.
    let not_regular = || {
        Some(Err(format!(
            "{}: is not a regular file (a folder, pipe, device or socket)",
            path.display()
        )))
    };
    if !std::fs::metadata(&path).ok()?.is_file() {
        return not_regular();
    }
    let file = File::open(&path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return not_regular();
    }
    let left = meta.len();
    progress.set_total(left);
    progress.read(0);
    let mut r = Reader {
        input: BufReader::with_capacity(1 << 20, file),
        left,
        progress,
    };
    let want = header(digest);
    let mut head = vec![0u8; want.len()];
    // Cut short, or not this cache's magic: damaged. The same magic with another format
    // or code is a file of another build of the program, passed over in silence. A whole
    // header with another content's key is another map's cache under this one's name
    // (copied or renamed), not damage.
    let damaged = || Some(Err(format!("{}: its header is damaged", path.display())));
    if r.exact(&mut head).is_err() || head[..MAGIC.len()] != MAGIC {
        return damaged();
    }
    if head[..VERSION_END] != want[..VERSION_END] {
        return None;
    }
    if head != want {
        return Some(Err(format!(
            "{}: is another map's cache (its key names other content)",
            path.display()
        )));
    }
    // Used recently: trimmed last.
    let _ = File::options()
        .append(true)
        .open(&path)
        .and_then(|f| f.set_modified(SystemTime::now()));
    Some(read_body(&mut r, drawn).map_err(|e| format!("{}: {e}", path.display())))
}

fn read_body<R: Read + std::io::Seek>(r: &mut Reader<R>, drawn: bool) -> Result<Cached, String> {
    let counts: Counts = r.one()?;
    let points: Points = r.one()?;
    let (positions, full, batches, of_triangle): (
        Vec<[f32; 3]>,
        Vec<Vertex>,
        Vec<BatchRecord>,
        Vec<u32>,
    ) = if drawn {
        (r.section()?, r.section()?, r.section()?, r.section()?)
    } else {
        r.skip::<[f32; 3]>()?;
        r.skip::<Vertex>()?;
        r.skip::<BatchRecord>()?;
        r.skip::<u32>()?;
        Default::default()
    };
    let built_as = String::from_utf8_lossy(&r.section::<u8>()?).into_owned();
    let warnings = lines_of(&r.section::<u8>()?);
    let details = lines_of(&r.section::<u8>()?);
    let triangles: Vec<Triangle> = r.section()?;
    let nodes: Vec<NodeRecord> = r.section()?;
    if r.left != 0 {
        return Err("it goes on past its last section: damaged".into());
    }
    let world = CollisionWorld::from_parts(WorldParts {
        triangles,
        nodes,
        dropped: counts.dropped,
        duplicates: counts.duplicates,
        depth: counts.depth,
    })?;
    let vertices = if !drawn {
        Corners::default()
    } else if counts.derived != 0 {
        Corners::Positions(positions)
    } else if full.len() == positions.len() {
        drop(positions);
        Corners::Full(full)
    } else {
        return Err("its vertices are not whole: damaged".into());
    };
    let finite = match &vertices {
        Corners::Full(v) => bytemuck::cast_slice::<Vertex, f32>(v)
            .iter()
            .all(|x| x.is_finite()),
        Corners::Positions(p) => p.iter().flatten().all(|x| x.is_finite()),
    };
    let whole = vertices.len().is_multiple_of(3)
        && finite
        && batches.iter().all(|&[m, first, count]| {
            m == 0 && u64::from(first) + u64::from(count) <= vertices.len() as u64
        })
        && (of_triangle.is_empty() || of_triangle.len() * 3 == vertices.len());
    if !whole {
        return Err("its map is not whole: damaged".into());
    }
    // The spawn and the bounds as a built map has them: finite (a forged spawn of NaN
    // walked every trace row as NaN: a fuzz run's finding).
    let finite = |p: &[f32; 3]| p.iter().all(|x| x.is_finite());
    if !(finite(&points.spawn) && finite(&points.min) && finite(&points.max)) {
        return Err("its spawn or bounds are not numbers: damaged".into());
    }
    let mut map = Map {
        materials: vec![Material::default_grey()],
        ..Map::default()
    };
    map.vertices = vertices;
    map.batches = batches
        .iter()
        .map(|&[material, first, count]| Batch {
            material: material as usize,
            first,
            count,
        })
        .collect();
    map.bounds = Aabb {
        min: Vec3::from(points.min),
        max: Vec3::from(points.max),
    };
    map.solids = Solids {
        of_triangle,
        count: counts.solids as u32,
    };
    map.marked_spawn = (counts.has_spawn != 0).then(|| MarkedSpawn {
        position: Vec3::from(points.spawn),
    });
    map.objects = counts.objects as usize;
    map.warnings = warnings;
    map.details = details;
    Ok(Cached {
        map,
        world,
        built_as,
    })
}

/// Give `map`'s messages, made when the file was `built_as`, the name `shown` of the file
/// opened now (the same content under another name or from another folder): a warning
/// must name the file the user opened.
fn rename_messages(map: &mut Map, built_as: &str, shown: &str) {
    if built_as.is_empty() || built_as == shown {
        return;
    }
    for line in map.warnings.iter_mut().chain(map.details.iter_mut()) {
        if let Some(rest) = line.strip_prefix(built_as)
            && rest.starts_with(':')
        {
            *line = format!("{shown}{rest}");
        }
    }
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
mod tests {
    use super::*;
    use crate::map::load_obj_str;
    use crate::map::progress::{ByteCount, Progress};
    use keeping::{Keepers, close, wait_beside};
    use std::sync::Mutex;

    #[test]
    fn the_code_hash_missed_the_world_build_file() {
        // world/build.rs (how the world's triangles are chosen and made) was left out of
        // MADE_BY when it was split from world.rs: a change to it would have read maps
        // kept by the old code. Every file of the world's and the tree's builds, and
        // of the map's reading, must be in it.
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files: Vec<PathBuf> = ["collision/world", "collision/bvh", "collision/bvh/build"]
            .iter()
            .flat_map(|d| std::fs::read_dir(src.join(d)).unwrap())
            .map(|e| e.unwrap().path())
            .collect();
        files.extend(
            [
                "collision/world.rs",
                "collision/bvh.rs",
                "map/obj.rs",
                "map/assemble.rs",
                "map/corners.rs",
                "cull/solids.rs",
                "geometry/bits.rs",
                // The kept messages are worded by these.
                "text/wording.rs",
                "text/quote.rs",
            ]
            .map(|f| src.join(f)),
        );
        // A module's tests (its sibling tests.rs) make nothing a map holds.
        for f in files.iter().filter(|f| {
            f.extension().is_some_and(|e| e == "rs")
                && f.file_name().is_some_and(|n| n != "tests.rs")
        }) {
            let text = std::fs::read_to_string(f).unwrap();
            assert!(
                MADE_BY.contains(&text.as_str()),
                "{} is not in MADE_BY",
                f.display()
            );
        }
    }

    /// A small terrain as a map and its world (what `keeps` would want ten thousand times
    /// over; the format is the same at any size).
    fn terrain(n: usize) -> (Map, CollisionWorld, Solids) {
        use std::fmt::Write as _;
        let mut obj = String::new();
        for j in 0..=n {
            for i in 0..=n {
                let _ = writeln!(obj, "v {i} {} {j}", (i * j % 3) as f32 * 0.1);
            }
        }
        let at = |i: usize, j: usize| j * (n + 1) + i + 1;
        for j in 0..n {
            for i in 0..n {
                let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                let _ = writeln!(obj, "f {a} {d} {c}\nf {a} {c} {b}");
            }
        }
        let mut map = load_obj_str("t.obj", &obj, &[], &LoadOptions::default()).unwrap();
        map.warnings.push("a warning".into());
        map.digest = Some(Digest::of(obj.as_bytes()));
        let world = CollisionWorld::new(map.triangles());
        let solids = Solids {
            of_triangle: (0..map.triangle_count() as u32).map(|t| t % 5).collect(),
            count: 5,
        };
        (map, world, solids)
    }

    /// Open `path` with the cache folder `cache`, telling `progress`.
    fn open_with(path: &Path, cache: &Path, progress: &Progress) -> Opened {
        let watch = Watch {
            on_key: &mut |_, _| {},
            cache_dir: Some(cache.to_path_buf()),
            progress,
        };
        open_map(Some(path), &mut OpenOptions::default(), watch).unwrap()
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("walkthrough-map-cache-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_kept_map_reads_back_the_same_with_derived_or_own_normals() {
        let dir = scratch("round-trip");
        let (mut map, world, solids) = terrain(30);
        for own_normal in [false, true] {
            if own_normal {
                let mut v: Vec<Vertex> = map.vertices.iter().collect();
                v[4].normal = [0.0, 1.0, 0.0];
                map.vertices = Corners::Full(v);
            }
            assert_eq!(derivable(&map.vertices), !own_normal);
            let digest = map.digest.unwrap();
            store(&dir, &digest, &map, &solids, &world).unwrap();
            let read = Progress::default();
            let back = load(&dir, &digest, true, &read).unwrap().unwrap();
            // The bar follows the bytes to the file's end.
            let len = std::fs::metadata(file_for(&dir, &digest)).unwrap().len();
            assert_eq!(
                read.bytes(),
                ByteCount {
                    read: len,
                    total: len
                }
            );
            assert_eq!(back.map.vertices, map.vertices);
            assert_eq!(back.map.batches, map.batches);
            assert_eq!(back.map.bounds, map.bounds);
            assert_eq!(back.map.warnings, map.warnings);
            assert_eq!(back.map.solids, solids);
            assert_eq!(back.world.parts(), world.parts());
            assert_eq!(back.world.stats(), world.stats());
            // Without what is drawn (sim): the same world, no vertices.
            let headless = load(&dir, &digest, false, &Progress::default())
                .unwrap()
                .unwrap();
            assert!(headless.map.vertices.is_empty() && headless.map.batches.is_empty());
            assert_eq!(headless.world.parts(), world.parts());
            assert_eq!(headless.map.warnings, map.warnings);
        }
        // Another content's key finds nothing.
        let other = Digest { hash: 1, len: 2 };
        assert!(load(&dir, &other, true, &Progress::default()).is_none());
    }

    /// A small terrain kept in the scratch folder `name`: the folder, the content's
    /// digest, the file's path and its bytes.
    fn kept_terrain(name: &str) -> (PathBuf, Digest, PathBuf, Vec<u8>) {
        let dir = scratch(name);
        let (map, world, solids) = terrain(20);
        let digest = map.digest.unwrap();
        store(&dir, &digest, &map, &solids, &world).unwrap();
        let path = file_for(&dir, &digest);
        let good = std::fs::read(&path).unwrap();
        (dir, digest, path, good)
    }

    #[test]
    fn a_damaged_file_is_refused_never_used() {
        let (dir, digest, path, good) = kept_terrain("damaged");
        let head = header(&digest).len();
        let refused = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            load(&dir, &digest, true, &Progress::default())
                .unwrap()
                .unwrap_err()
        };
        // A flipped byte deep in the body: the checksum.
        let mut flipped = good.clone();
        flipped[good.len() / 2] ^= 0x10;
        assert!(
            refused(&flipped).contains("checksum"),
            "{}",
            refused(&flipped)
        );
        // Cut short: the last section is longer than what is left.
        let cut = refused(&good[..good.len() - 100]);
        assert!(cut.contains("longer than the file"), "{cut}");
        let cut = refused(&good[..good.len() - 4]);
        assert!(cut.contains("longer than the file"), "{cut}");
        // A section claiming 2^64 - 1 items: refused before allocating.
        let mut huge = good.clone();
        huge[head..head + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(refused(&huge).contains("longer than the file"));
        // Made by other code: not this cache's file at all.
        let mut other = good.clone();
        other[9] ^= 1;
        std::fs::write(&path, &other).unwrap();
        assert!(load(&dir, &digest, true, &Progress::default()).is_none());
        other[9] ^= 1;
        other[20] ^= 1;
        std::fs::write(&path, &other).unwrap();
        assert!(load(&dir, &digest, true, &Progress::default()).is_none());
    }

    /// A forged file (its checksum made again) whose spawn was NaN
    /// walked every trace row as NaN. Points that are not numbers are refused.
    #[test]
    fn a_forged_spawn_that_is_not_a_number_is_refused() {
        let (dir, digest, path, good) = kept_terrain("forged-spawn");
        let counts = header(&digest).len() + 8 + std::mem::size_of::<Counts>() + 8;
        let at = counts + 8; // past the points' count: the spawn's x
        let mut forged = good.clone();
        forged[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let points = &forged[counts..at + std::mem::size_of::<Points>()];
        let sum = xxhash_rust::xxh3::xxh3_64(points).to_le_bytes();
        let end = at + std::mem::size_of::<Points>();
        forged[end..end + 8].copy_from_slice(&sum);
        std::fs::write(&path, &forged).unwrap();
        let e = load(&dir, &digest, true, &Progress::default())
            .unwrap()
            .unwrap_err();
        assert!(e.contains("not numbers"), "{e}");
    }

    /// A cached file emptied, cut inside its header, with its magic
    /// overwritten or another content's key was built again without a word.
    #[test]
    fn a_damaged_header_is_refused_with_a_warning() {
        let (dir, digest, path, good) = kept_terrain("damaged-header");
        let head = header(&digest).len();
        let mut magic = good.clone();
        magic[3] ^= 0x20;
        for bytes in [&[][..], &good[..10], &good[..head - 1], &magic] {
            std::fs::write(&path, bytes).unwrap();
            let e = load(&dir, &digest, true, &Progress::default())
                .unwrap()
                .unwrap_err();
            assert!(e.contains("header is damaged"), "{e}");
        }
    }

    /// Another map's cache file under this map's name (copied or renamed) was called
    /// damaged: it is said to be another map's, and built again as a damaged one is.
    #[test]
    fn another_maps_cache_under_this_maps_name_is_said_to_be_another_maps() {
        let (dir, digest, path, good) = kept_terrain("another-map");
        let head = header(&digest).len();
        let mut key = good.clone();
        key[head - 3] ^= 1;
        std::fs::write(&path, &key).unwrap();
        let e = load(&dir, &digest, true, &Progress::default())
            .unwrap()
            .unwrap_err();
        assert_eq!(
            e,
            format!(
                "{}: is another map's cache (its key names other content)",
                path.display()
            )
        );
    }

    /// A FIFO at a kept map's name held `sim` waiting for a writer
    /// for ever. It is refused before it is opened (a watchdog ends the test should the
    /// load block), as a folder there is.
    #[test]
    fn a_fifo_at_a_kept_maps_name_is_refused_not_opened() {
        let (dir, digest, path, _) = kept_terrain("fifo");
        std::fs::remove_file(&path).unwrap();
        crate::files::make_fifo(&path);
        let (d, k) = (dir.clone(), digest);
        let answer = crate::files::answered_within(20, move || {
            load(&d, &k, true, &Progress::default()).map(|r| r.err())
        });
        let e = answer.unwrap().expect("an error");
        assert!(e.contains("is not a regular file"), "{e}");
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        let e = load(&dir, &digest, true, &Progress::default())
            .unwrap()
            .unwrap_err();
        assert!(e.contains("is not a regular file"), "{e}");
    }

    /// When a kept file was refused as damaged, the parse's bar went
    /// on from the cached file's bytes ("read all 379 MB" for the whole parse).
    #[test]
    fn a_map_parsed_after_its_kept_file_is_refused_counts_its_own_bytes() {
        use std::fmt::Write as _;
        let dir = scratch("refused-progress");
        std::fs::create_dir_all(&dir).unwrap();
        // Past the size read by two readers at once (each adds what it reads).
        let mut obj = String::from("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
        while obj.len() < crate::map::TWO_READERS_MIN_BYTES + (1 << 20) {
            let _ = writeln!(obj, "# {}", "padding ".repeat(12));
        }
        let path = dir.join("big.obj");
        std::fs::write(&path, &obj).unwrap();
        let cache = dir.join("cache");
        let map = load_obj_str("big.obj", &obj, &[], &LoadOptions::default()).unwrap();
        let digest = Digest::of(obj.as_bytes());
        let world = CollisionWorld::new(map.triangles());
        store(&cache, &digest, &map, &Solids::default(), &world).unwrap();
        let kept = file_for(&cache, &digest);
        let mut bytes = std::fs::read(&kept).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x10;
        std::fs::write(&kept, &bytes).unwrap();
        let progress = Progress::default();
        let opened = open_with(&path, &cache, &progress);
        assert!(opened.world.is_none(), "the damaged file was used");
        assert!(opened.note.unwrap().contains("checksum"));
        assert_eq!(
            progress.bytes(),
            ByteCount {
                read: obj.len() as u64,
                total: obj.len() as u64
            }
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A map naming a material library that was not there was kept
    /// built, and the library added later changed nothing (the kept grey map was read
    /// back, still warning that its library was not found).
    #[test]
    fn a_map_naming_a_missing_material_library_is_not_kept() {
        let dir = scratch("missing-mtl");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.obj");
        std::fs::write(&path, "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n").unwrap();
        let mut map = crate::map::load_obj_file(&path, &LoadOptions::default()).unwrap();
        assert_eq!(map.inputs, [path.clone(), dir.join("m.mtl")]);
        // As big as a kept map.
        map.vertices = Corners::Positions([[0.0, 0.0, 0.0]; 3].repeat(MIN_CACHED_TRIANGLES));
        assert!(!keeps(&map));
        map.inputs.truncate(1);
        assert!(keeps(&map), "kept but for the library");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The partial files in `dir` (a file being written).
    fn parts_in(dir: &Path) -> Vec<PathBuf> {
        std::fs::read_dir(dir).map_or(Vec::new(), |d| {
            d.map(|e| e.unwrap().path())
                .filter(|p| p.to_string_lossy().ends_with(".partial"))
                .collect()
        })
    }

    /// Issue 37: a first open waited seconds for its whole file; now the world's part is
    /// written beside the walk, and the program waits for it before it ends. (Each test
    /// keeps track of its own keepings: the program's are one list.)
    #[test]
    fn a_file_kept_beside_the_walk_is_whole_once_waited_for() {
        static KEEPERS: Mutex<Keepers> = Mutex::new(Keepers::new());
        let dir = scratch("beside");
        let (map, world, solids) = terrain(20);
        let digest = map.digest.unwrap();
        let begin = || Keeping::begin_in(&KEEPERS, &dir, &digest, &map, &solids, &world);
        let keeping = begin().unwrap();
        // Under a name of this program's own until whole.
        let parts = parts_in(&dir);
        assert_eq!(parts.len(), 1, "{parts:?}");
        let own = format!(".{}-", std::process::id());
        assert!(parts[0].to_string_lossy().contains(&own), "{parts:?}");
        assert!(!file_for(&dir, &digest).exists());
        // Another keeping of the same map (the window's R while the first is written)
        // writes a file of its own.
        let again = begin().unwrap();
        assert_eq!(parts_in(&dir).len(), 2);
        drop(again);
        assert_eq!(parts_in(&dir), parts);
        keeping.finish_beside(world.clone()).unwrap();
        assert_eq!(wait_beside(&KEEPERS), Vec::<String>::new());
        assert!(parts_in(&dir).is_empty());
        let back = load(&dir, &digest, true, &Progress::default())
            .unwrap()
            .unwrap();
        assert_eq!(back.world.triangles(), world.triangles());
        assert_eq!(back.map.vertices, map.vertices);
    }

    #[test]
    fn a_file_given_up_or_failing_beside_the_walk_leaves_nothing_and_says_why() {
        static KEEPERS: Mutex<Keepers> = Mutex::new(Keepers::new());
        let dir = scratch("given-up");
        let (map, world, solids) = terrain(8);
        let digest = map.digest.unwrap();
        let begin = || Keeping::begin_in(&KEEPERS, &dir, &digest, &map, &solids, &world);
        // Given up (a load cancelled after its map's part was written): removed.
        drop(begin().unwrap());
        assert!(parts_in(&dir).is_empty());
        assert!(!file_for(&dir, &digest).exists());
        // A folder where the file goes: it cannot be put in place, and the warning says
        // so once the program waits for it.
        std::fs::create_dir_all(file_for(&dir, &digest)).unwrap();
        begin().unwrap().finish_beside(world.clone()).unwrap();
        let said = wait_beside(&KEEPERS);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("was not kept in the cache"), "{said:?}");
        assert!(said[0].contains("cannot rename"), "{said:?}");
        assert!(parts_in(&dir).is_empty());
        // A write that reached its rename after the program's end
        // gave up on it put a whole file in place, said not kept. Once given up, none is
        // put in place.
        std::fs::remove_dir(file_for(&dir, &digest)).unwrap();
        let late = begin().unwrap();
        assert!(close(&KEEPERS, &|| true).is_empty());
        let e = late.finish(&world).unwrap_err();
        assert!(e.ends_with("the program was interrupted"), "{e}");
        assert!(!file_for(&dir, &digest).exists());
        assert!(parts_in(&dir).is_empty());
    }

    /// A window closed while a big map loaded left a part of its
    /// file (the loader's thread stopped by the program's end). Now the program's end
    /// removes the parts still under way, and no keeping begins or goes on after it.
    #[test]
    fn a_window_closed_while_its_map_loads_leaves_no_part() {
        static KEEPERS: Mutex<Keepers> = Mutex::new(Keepers::new());
        let dir = scratch("closing");
        let (map, world, solids) = terrain(8);
        let digest = map.digest.unwrap();
        let begin = || Keeping::begin_in(&KEEPERS, &dir, &digest, &map, &solids, &world);
        let under_way = begin().unwrap();
        let beside = begin().unwrap();
        beside.finish_beside(world.clone()).unwrap();
        assert_eq!(close(&KEEPERS, &|| false), Vec::<String>::new());
        // The one beside the walk was waited for; the one under way lost its part.
        assert!(file_for(&dir, &digest).exists());
        assert!(parts_in(&dir).is_empty(), "{:?}", parts_in(&dir));
        // The loader, had it gone on: refused, and nothing is left.
        let refused = under_way.finish_beside(world.clone()).unwrap_err();
        assert!(refused.contains("the program is ending"), "{refused}");
        let refused = begin().err().unwrap();
        assert!(refused.contains("the program is ending"), "{refused}");
        assert!(parts_in(&dir).is_empty());
    }

    /// A part left by a program that ended before it could finish it (killed) is removed
    /// once stale; one being written now is not.
    #[test]
    fn a_part_left_by_a_program_that_ended_is_removed() {
        let dir = scratch("stale-part");
        std::fs::create_dir_all(&dir).unwrap();
        let (old, new) = (
            dir.join("map-a-10.99.partial"),
            dir.join("map-b-10.98.partial"),
        );
        for p in [&old, &new] {
            std::fs::write(p, vec![0u8; 100]).unwrap();
        }
        let f = File::options().append(true).open(&old).unwrap();
        f.set_modified(SystemTime::now() - STALE_PART * 2).unwrap();
        trim(&dir, MAX_FOLDER_BYTES);
        assert_eq!(parts_in(&dir), [new]);
    }

    /// After `kill -9`, a gigabyte part stayed for an hour. A part
    /// whose process has ended goes after [`ORPHANED_PART`]; a live program's stays.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_part_of_a_killed_program_is_removed_within_minutes() {
        let dir = scratch("orphaned-part");
        std::fs::create_dir_all(&dir).unwrap();
        let mut ended = std::process::Command::new("true").spawn().unwrap();
        let gone = ended.id();
        ended.wait().unwrap();
        let here = process_space();
        assert_ne!(here, 0, "this system says where its process numbers hold");
        let (dead, live, young, elsewhere) = (
            dir.join(format!("map-a-10.{gone}-0-{here:x}.partial")),
            dir.join(format!(
                "map-b-10.{}-0-{here:x}.partial",
                std::process::id()
            )),
            dir.join(format!("map-c-10.{gone}-1-{here:x}.partial")),
            // Another machine's or container's: its number means nothing here.
            dir.join(format!("map-d-10.{gone}-2-{:x}.partial", here ^ 1)),
        );
        for p in [&dead, &live, &young, &elsewhere] {
            std::fs::write(p, vec![0u8; 100]).unwrap();
        }
        for p in [&dead, &live, &elsewhere] {
            let f = File::options().append(true).open(p).unwrap();
            f.set_modified(SystemTime::now() - ORPHANED_PART * 2)
                .unwrap();
        }
        assert!(writer_gone(&dead.file_name().unwrap().to_string_lossy()));
        // They were removed only when a map was kept, never while
        // every map opened was read from the cache. Any open with the folder removes
        // them (this small map is neither read from it nor kept).
        let obj = dir.join("small.obj");
        std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n").unwrap();
        let progress = Progress::default();
        let opened = open_with(&obj, &dir, &progress);
        assert!(opened.keep_in.is_none() && opened.world.is_none());
        let mut left = parts_in(&dir);
        left.sort();
        assert_eq!(left, [live, young, elsewhere]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_folder_is_trimmed_least_recently_used_first() {
        let dir = scratch("trim");
        std::fs::create_dir_all(&dir).unwrap();
        let day = std::time::Duration::from_secs(86_400);
        for (k, age) in [3u32, 1, 2].iter().enumerate() {
            let p = dir.join(format!("map-{k}.bin"));
            std::fs::write(&p, vec![0u8; 1000]).unwrap();
            let f = File::options().append(true).open(&p).unwrap();
            f.set_modified(SystemTime::now() - day * *age).unwrap();
        }
        std::fs::write(dir.join("levels-other.bin"), vec![0u8; 5000]).unwrap();
        trim(&dir, 2000);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        // The oldest (three days) went; other files are not the map cache's.
        assert_eq!(left, ["levels-other.bin", "map-1.bin", "map-2.bin"]);
    }

    #[test]
    fn a_file_with_a_kept_map_of_its_length_is_hashed_as_a_stream_and_opened_right() {
        let dir = scratch("stream");
        std::fs::create_dir_all(&dir).unwrap();
        let obj = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n";
        // The same length, other content.
        let other = "v 0 0 0\nv 2 0 0\nv 0 0 2\nf 1 2 3\n";
        assert_eq!(obj.len(), other.len());
        let (path, other_path) = (dir.join("a.obj"), dir.join("b.obj"));
        std::fs::write(&path, obj).unwrap();
        std::fs::write(&other_path, other).unwrap();
        let cache = dir.join("cache");
        let map = load_obj_str("a.obj", obj, &[], &LoadOptions::default()).unwrap();
        let world = CollisionWorld::new(map.triangles());
        let digest = Digest::of(obj.as_bytes());
        store(&cache, &digest, &map, &Solids::default(), &world).unwrap();
        let open = |p: &Path| {
            let progress = Progress::default();
            let mut heard = None;
            let watch = Watch {
                on_key: &mut |d, _| heard = Some(*d),
                cache_dir: Some(cache.clone()),
                progress: &progress,
            };
            let opened = open_map(Some(p), &mut OpenOptions::default(), watch).unwrap();
            (opened, heard.unwrap())
        };
        let (kept, heard) = open(&path);
        assert_eq!(heard, digest);
        assert!(kept.world.is_some(), "the kept map was not read");
        assert_eq!(kept.map.name, "a.obj");
        assert_eq!(kept.map.vertices, map.vertices);
        // Hashed as a stream too (a map of its length is kept), then parsed.
        let (parsed, heard) = open(&other_path);
        assert_eq!(heard, Digest::of(other.as_bytes()));
        assert!(parsed.world.is_none());
        assert_eq!(parsed.map.vertices.position(1), [2.0, 0.0, 0.0]);
    }

    /// A map opened again under another name, from the cache,
    /// warned about the file of its first open ("maps/m1w.obj: 1 concave polygons ...").
    #[test]
    fn a_kept_map_s_warnings_name_the_file_opened_now() {
        let dir = scratch("renamed");
        std::fs::create_dir_all(&dir).unwrap();
        let obj = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n";
        let (first, renamed) = (dir.join("first.obj"), dir.join("renamed.obj"));
        std::fs::write(&renamed, obj).unwrap();
        let cache = dir.join("cache");
        let mut map = load_obj_str("x", obj, &[], &LoadOptions::default()).unwrap();
        let digest = Digest::of(obj.as_bytes());
        name_map(&mut map, &first, digest);
        let built_as = shown_path(&first);
        map.warnings = vec![
            format!("{built_as}: 1 concave polygon was ear-clipped"),
            format!("{built_as}:4: an odd line"),
            "a warning naming no file".into(),
        ];
        map.details = vec![format!("{built_as}: a detail")];
        let world = CollisionWorld::new(map.triangles());
        store(&cache, &digest, &map, &Solids::default(), &world).unwrap();
        let progress = Progress::default();
        let opened = open_with(&renamed, &cache, &progress);
        assert!(opened.world.is_some(), "the kept map was not read");
        let now = shown_path(&renamed);
        assert_eq!(
            opened.map.warnings,
            [
                format!("{now}: 1 concave polygon was ear-clipped"),
                format!("{now}:4: an odd line"),
                "a warning naming no file".to_string(),
            ]
        );
        assert_eq!(opened.map.details, [format!("{now}: a detail")]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
