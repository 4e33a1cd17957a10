//! The levels of detail ([`crate::cull::lod`]) kept on disk between runs, in the cache
//! folder ([`crate::store::cache_dir`]). Simplifying a big map's clusters
//! takes most of a second (conference: 0.6 s on one core), and until its levels come
//! every frame draws the clusters in full: conference's first 20 frames took 30 to 60 ms
//! against 20 once they came. A map opened again finds its levels in the cache folder
//! and draws them from the first frame; no thread takes a core from the frames.
//!
//! A file is named by the [`Fingerprint`] of what the levels are made from (the clustered
//! mesh and which materials are textured) and of how ([`FORMAT`], the simplifier's
//! constants, and the source of the code that makes them with its crates' versions): any
//! change to the map, its scale or up axis, or to this program's way of making levels,
//! names another file. Reading one checks its length, a checksum and every
//! index and range against the mesh before the levels are used: a damaged file is
//! refused (and made again), never drawn. The folder is kept under
//! [`MAX_FOLDER_BYTES`], the least recently used files going first. (`format`: the file
//! itself, written and checked.)

use std::path::{Path, PathBuf};
use std::time::SystemTime;

mod format;

pub use format::{FORMAT, Fingerprint, decode, encode};

use crate::cull::clusters::ClusteredMesh;
use crate::cull::lod::Levels;
use crate::files::output::{Replace, partial_path, write_file};
use crate::files::{FileKind, create_folder, read_file};

/// The most the folder holds, bytes: past it the files used longest ago are removed.
/// (Conference's levels are 3 MiB; a million-triangle map's about 10.)
pub const MAX_FOLDER_BYTES: u64 = 512 << 20;

/// The levels of `mesh` kept in folder `dir` under `fingerprint`: `None` when there are
/// none; an error (naming the file) when the file is there but unreadable or damaged
/// (it is removed: the levels are made again and kept anew). A file read is marked as
/// just used.
pub fn load(
    dir: &Path,
    mesh: &ClusteredMesh,
    fingerprint: Fingerprint,
) -> Option<Result<Levels, String>> {
    read_kept(&dir.join(fingerprint.file_name()), |bytes| {
        decode(bytes, mesh, fingerprint)
    })
}

/// Keep `levels` in folder `dir` (made if missing) under `fingerprint`, written whole
/// or not at all, then remove the files used longest ago while the folder holds more
/// than `max_bytes`. An error names the file.
pub fn store(
    dir: &Path,
    fingerprint: Fingerprint,
    levels: &Levels,
    max_bytes: u64,
) -> Result<(), String> {
    keep(
        dir,
        &fingerprint.file_name(),
        &encode(levels, fingerprint),
        max_bytes,
    )
}

/// What the file at `path` holds, by `decode`: `None` when there is no file; an error
/// (naming the file) when it is unreadable or `decode` refuses it, and then it is
/// removed (to be made again). A file read is marked as just used, for [`keep_under`].
pub(crate) fn read_kept<T>(
    path: &Path,
    decode: impl FnOnce(&[u8]) -> Result<T, String>,
) -> Option<Result<T, String>> {
    if !path.exists() {
        return None;
    }
    let read = read_file(path, FileKind::Cache)
        .map_err(|e| e.to_string())
        .and_then(|bytes| decode(&bytes).map_err(|e| format!("{}: {e}", path.display())));
    match &read {
        Ok(_) => {
            let _ = std::fs::File::options()
                .append(true)
                .open(path)
                .and_then(|f| f.set_modified(SystemTime::now()));
        }
        Err(_) => {
            let _ = std::fs::remove_file(path);
        }
    }
    Some(read)
}

/// Write `bytes` as file `name` in folder `dir` (made if missing), whole or not at all,
/// then remove the files used longest ago while the folder's kept files hold more than
/// `max_bytes`. An error names the file.
pub(crate) fn keep(dir: &Path, name: &str, bytes: &[u8], max_bytes: u64) -> Result<(), String> {
    create_folder(dir)?;
    let path = dir.join(name);
    if let Err(e) = write_file(&path, bytes, &[], Replace::Yes) {
        // A full disk, say: no half file is left behind.
        let _ = std::fs::remove_file(partial_path(&path));
        return Err(e.to_string());
    }
    keep_under(dir, max_bytes, &path);
    Ok(())
}

/// The names of the files [`keep_under`] counts and removes: the levels' and the ambient
/// occlusion's ([`super::ambient`]).
const KEPT_PREFIXES: [&str; 2] = ["levels-", "ambient-"];

/// Remove the kept files in `dir` (see [`KEPT_PREFIXES`]) used longest ago (by
/// modification time) while they hold more than `max_bytes` together; `keep` stays
/// whatever its size.
fn keep_under(dir: &Path, max_bytes: u64, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            KEPT_PREFIXES.iter().any(|p| name.starts_with(p)) && name.ends_with(".bin")
        })
        .filter_map(|e| {
            let meta = e.metadata().ok().filter(|m| m.is_file())?;
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort();
    for (_, len, path) in files {
        if total <= max_bytes {
            break;
        }
        if path != keep && std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::cull::clusters::cluster_map;
    use crate::cull::fixtures::{bumpy, grid, no_uv, one_material, sheet, with_added};
    use crate::cull::lod::simplify_clusters;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("walkthrough-levels-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn kept_in_a_folder_found_again_and_the_least_used_removed_past_the_limit() {
        let dir = scratch("folder");
        let mesh = sheet();
        let fp = Fingerprint::of(&mesh, &[false]);
        assert!(load(&dir, &mesh, fp).is_none(), "nothing kept yet");
        let levels = simplify_clusters(&mesh, &[false]);
        store(&dir, fp, &levels, MAX_FOLDER_BYTES).unwrap();
        let read = load(&dir, &mesh, fp).unwrap().unwrap();
        assert_eq!(with_added(&mesh, read), with_added(&mesh, levels.clone()));
        // A second map's levels, with room for one file only: the first goes.
        let size = std::fs::metadata(dir.join(fp.file_name())).unwrap().len();
        let other = cluster_map(&one_material(grid(24, bumpy, no_uv)), 128);
        let other_fp = Fingerprint::of(&other, &[false]);
        store(&dir, other_fp, &simplify_clusters(&other, &[false]), size).unwrap();
        assert!(!dir.join(fp.file_name()).exists());
        assert!(dir.join(other_fp.file_name()).exists());
        // A damaged file is an error naming it, and is removed (to be made again).
        let path = dir.join(other_fp.file_name());
        let mut b = std::fs::read(&path).unwrap();
        let n = b.len();
        b[n / 2] ^= 1;
        std::fs::write(&path, b).unwrap();
        let e = load(&dir, &other, other_fp).unwrap().unwrap_err();
        assert!(
            e.contains(&other_fp.file_name()) && e.contains("checksum"),
            "{e}"
        );
        assert!(!path.exists());
        // A folder that cannot be made is an error naming it.
        let file = dir.join("a-file");
        std::fs::write(&file, "x").unwrap();
        let e = store(&file.join("sub"), fp, &levels, MAX_FOLDER_BYTES).unwrap_err();
        assert!(
            e.ends_with("cannot create the folder: a file (not a folder) is in the way"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_or_a_folder_where_the_file_goes_is_refused_without_blocking() {
        let dir = scratch("hostile");
        std::fs::create_dir_all(&dir).unwrap();
        let mesh = sheet();
        let fp = Fingerprint::of(&mesh, &[false]);
        let path = dir.join(fp.file_name());
        crate::files::make_fifo(&path);
        // Read, a pipe would wait for a writer for ever: it is refused and removed (a
        // watchdog ends the test should it block).
        let (d, m) = (dir.clone(), mesh.clone());
        let answer = crate::files::answered_within(20, move || load(&d, &m, fp).map(|r| r.err()));
        let e = answer.unwrap().expect("an error");
        assert!(e.contains("not a regular file"), "{e}");
        assert!(!path.exists());
        // A folder by that name is refused too, and the levels are not kept over it.
        std::fs::create_dir(&path).unwrap();
        assert!(load(&dir, &mesh, fp).unwrap().is_err());
        let levels = simplify_clusters(&mesh, &[false]);
        assert!(store(&dir, fp, &levels, MAX_FOLDER_BYTES).is_err());
        assert!(path.is_dir());
    }
}
