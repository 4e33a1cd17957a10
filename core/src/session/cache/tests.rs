//! The cache of built maps' tests: files kept and read back, damaged ones refused, parts
//! of files removed, and maps read through the cache as an open reads them.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use super::keeping::{Keepers, close, wait_beside};
use super::layout::{Counts, Points, derivable, header};
use super::parts::{ORPHANED_PART, STALE_PART, process_space, writer_gone};
use super::*;
use crate::map::progress::{ByteCount, Progress};
use crate::map::{Corners, LoadOptions, Solids, Vertex, load_obj_str, name_map};
use crate::session::OpenOptions;
use crate::session::open::{Fetched, Recall, fetch};
use crate::store::ContentKey;
use crate::text::quote::shown_path;

#[test]
fn the_code_hash_missed_the_world_build_file() {
    // A file of the world's or the tree's build, or of the map's reading, left out of
    // MADE_BY would let a change to it read maps kept by the old code. Every one must
    // be in it.
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
            // This cache's own code, and the stages of an open that read the map it holds
            // and look it up.
            "session/cache.rs",
            "session/cache/layout.rs",
            "session/cache/read.rs",
            "session/cache/write.rs",
            "session/cache/parts.rs",
            "session/cache/sections.rs",
            "session/cache/keeping.rs",
            "session/open/read.rs",
            "session/open/cache.rs",
        ]
        .map(|f| src.join(f)),
    );
    // A module's tests (its sibling tests.rs) make nothing a map holds.
    for f in files.iter().filter(|f| {
        f.extension().is_some_and(|e| e == "rs") && f.file_name().is_some_and(|n| n != "tests.rs")
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

/// Read `path` through the cache folder `cache`, as an open does, telling `progress`.
fn open_with(path: &Path, cache: &Path, progress: &Progress) -> Fetched {
    let cache = Some(cache.to_path_buf());
    let mut opts = OpenOptions::default();
    fetch(
        Some(path),
        &mut opts,
        &mut Recall::new(None, false),
        cache,
        progress,
    )
    .unwrap()
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

/// A first open waited seconds for its whole file; now the world's part is
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
        let mut recall = Recall::new(None, false);
        let mut opts = OpenOptions::default();
        let opened = fetch(
            Some(p),
            &mut opts,
            &mut recall,
            Some(cache.clone()),
            &progress,
        );
        (opened.unwrap(), recall.key.unwrap())
    };
    let (kept, heard) = open(&path);
    assert_eq!(heard, ContentKey::from(digest));
    assert!(kept.world.is_some(), "the kept map was not read");
    assert_eq!(kept.map.name, "a.obj");
    assert_eq!(kept.map.vertices, map.vertices);
    // Hashed as a stream too (a map of its length is kept), then parsed.
    let (parsed, heard) = open(&other_path);
    assert_eq!(heard, ContentKey::from(Digest::of(other.as_bytes())));
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
