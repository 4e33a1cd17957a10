use std::path::PathBuf;

use glam::Vec3;

use super::*;
use crate::cull::clusters::cluster_map;
use crate::cull::fixtures::{bumpy, grid, no_uv, one_material, triangles};
use crate::cull::lod::{farthest_first, simplify_clusters, simplify_in_batches};

/// A bumpy sheet in clusters of 128 triangles: most of them simplify.
fn sheet() -> ClusteredMesh {
    cluster_map(&one_material(grid(32, bumpy, no_uv)), 128)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("walkthrough-levels-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `mesh` with `levels` added.
fn with(mesh: &ClusteredMesh, levels: Levels) -> ClusteredMesh {
    let mut m = mesh.clone();
    assert!(m.add_levels(levels));
    m
}

#[test]
fn levels_read_back_from_their_file_are_the_levels_kept() {
    let mesh = sheet();
    let fp = Fingerprint::of(&mesh, &[false]);
    let levels = simplify_clusters(&mesh, &[false]);
    assert!(levels.triangles() > 0);
    let read = decode(&encode(&levels, fp), &mesh, fp).unwrap();
    assert_eq!(with(&mesh, read), with(&mesh, levels.clone()));
    // Batches joined as the levels' thread joins them keep the same levels, in the order
    // they came, and read back the same too.
    let order = farthest_first(&mesh, Vec3::new(-2.0, 1.0, -2.0));
    let mut joined = Levels::none(mesh.originals());
    simplify_in_batches(&mesh, &[false], &order, 3, |batch| {
        assert!(joined.join(batch.clone()));
        assert!(!joined.join(batch), "a batch twice");
        true
    });
    let (a, b) = (with(&mesh, levels), with(&mesh, joined.clone()));
    for c in 0..mesh.originals() {
        assert_eq!(a.levels[c].len(), b.levels[c].len());
        for (x, y) in a.levels[c].iter().zip(&b.levels[c]) {
            assert_eq!(x.error, y.error);
            assert_eq!(triangles(&a, x.cluster), triangles(&b, y.cluster));
        }
    }
    let read = decode(&encode(&joined, fp), &mesh, fp).unwrap();
    assert_eq!(with(&mesh, read), b);
}

#[test]
fn the_fingerprint_is_of_the_map_its_textures_and_its_scale() {
    let mesh = sheet();
    let fp = Fingerprint::of(&mesh, &[false]);
    assert_eq!(Fingerprint::of(&sheet(), &[false]), fp, "the same map");
    assert_ne!(Fingerprint::of(&mesh, &[true]), fp, "textured");
    let mut moved = mesh.clone();
    std::sync::Arc::make_mut(&mut moved.vertices)[7].position[1] += 1e-3;
    assert_ne!(Fingerprint::of(&moved, &[false]), fp, "a corner moved");
    let mut scaled = mesh.clone();
    scaled.scale_by(2.0);
    assert_ne!(Fingerprint::of(&scaled, &[false]), fp, "scaled");
    // Its levels, once added, are not part of what they are made from.
    let full = with(&mesh, simplify_clusters(&mesh, &[false]));
    assert_eq!(Fingerprint::of(&full, &[false]), fp);
    assert!(fp.file_name().starts_with("levels-") && fp.file_name().ends_with(".bin"));
}

#[test]
fn a_damaged_or_foreign_file_is_refused_never_used() {
    let mesh = sheet();
    let fp = Fingerprint::of(&mesh, &[false]);
    let levels = simplify_clusters(&mesh, &[false]);
    let bytes = encode(&levels, fp);
    // Any byte changed: the checksum (or the form) refuses it.
    for at in (0..bytes.len()).step_by(97).chain([0, 8, bytes.len() - 1]) {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        assert!(decode(&b, &mesh, fp).is_err(), "byte {at} changed");
    }
    for len in [0, 7, 8, 40, bytes.len() - 1] {
        assert!(decode(&bytes[..len], &mesh, fp).is_err(), "{len} bytes");
    }
    let other = Fingerprint::of(&mesh, &[true]);
    let e = decode(&bytes, &mesh, other).unwrap_err();
    assert_eq!(e, "made for another map");
    // Files with a right checksum but wrong insides, as a bug or another program might
    // write them.
    let wrong = |change: &dyn Fn(&mut Levels)| {
        let mut l = levels.clone();
        change(&mut l);
        decode(&encode(&l, fp), &mesh, fp).unwrap_err()
    };
    let e = wrong(&|l| l.part.indices[5] = u32::MAX);
    assert_eq!(e, "an index of another cluster's vertices");
    let e = wrong(&|l| l.part.meshlets[0].count = 99);
    assert_eq!(e, "a meshlet out of range");
    let e = wrong(&|l| l.part.clusters[0].count += 3);
    assert_eq!(e, "a cluster's meshlets do not tile it");
    let e = wrong(&|l| {
        let c = (l.part.levels.iter().position(|ls| ls.len() >= 2)).unwrap();
        l.part.levels[c][1].error = -1.0;
    });
    assert_eq!(e, "the levels' errors are not in order");
    let e = wrong(&|l| l.part.meshlets[0].bounds.min.x = f32::NAN);
    assert_eq!(e, "a box is not a number");
    // Made for a mesh with another number of clusters.
    let coarser = cluster_map(&one_material(grid(32, bumpy, no_uv)), 256);
    assert!(decode(&bytes, &coarser, fp).is_err());
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
    assert_eq!(with(&mesh, read), with(&mesh, levels.clone()));
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
    assert!(e.contains("cannot create the folder"), "{e}");
}

#[cfg(unix)]
#[test]
fn a_pipe_or_a_folder_where_the_file_goes_is_refused_without_blocking() {
    let dir = scratch("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let mesh = sheet();
    let fp = Fingerprint::of(&mesh, &[false]);
    let path = dir.join(fp.file_name());
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // Read, a pipe would wait for a writer for ever: it is refused and removed (a
    // watchdog ends the test should it block).
    let (send, answer) = std::sync::mpsc::channel();
    let (d, m) = (dir.clone(), mesh.clone());
    std::thread::spawn(move || send.send(load(&d, &m, fp).map(|r| r.err())));
    let answer = answer.recv_timeout(std::time::Duration::from_secs(20));
    let e = answer.expect("load returns").unwrap().expect("an error");
    assert!(e.contains("not a regular file"), "{e}");
    assert!(!path.exists());
    // A folder by that name is refused too, and the levels are not kept over it.
    std::fs::create_dir(&path).unwrap();
    assert!(load(&dir, &mesh, fp).unwrap().is_err());
    let levels = simplify_clusters(&mesh, &[false]);
    assert!(store(&dir, fp, &levels, MAX_FOLDER_BYTES).is_err());
    assert!(path.is_dir());
}
