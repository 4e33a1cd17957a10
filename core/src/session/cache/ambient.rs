//! A map's ambient occlusion ([`crate::ambient`]) kept on disk between runs, beside its
//! levels of detail in the cache folder: baking conference's takes about a second of two
//! cores, reading it back a millisecond.
//!
//! A file is named by the fingerprint of the mesh it was baked from (the levels'
//! [`Fingerprint`], which covers every vertex, index and cluster) mixed with how it was
//! baked ([`FORMAT`], the bake's constants and its source): any change to the map, its
//! scale or up axis, or to the bake, names another file. The file is [`MAGIC`], the
//! format, the fingerprint, the number of vertices, one byte a vertex and an xxh3 checksum
//! of all before it; it is read back only when every part checks against the mesh.

use std::path::Path;

use xxhash_rust::xxh3::xxh3_64;

use super::levels::{Fingerprint, keep, read_kept};
use crate::ambient::{
    AMBIENT_LIFT, AMBIENT_RAYS, AMBIENT_REACH, AMBIENT_SHUT_IN, AMBIENT_SPREAD, Ambient,
};
use crate::cull::clusters::ClusteredMesh;

/// The layout of a file; raised whenever it changes.
pub const FORMAT: u32 = 1;

/// A file's first bytes.
const MAGIC: [u8; 8] = *b"wtambien";

/// The code that bakes, as built: part of every fingerprint, so that a change to the bake
/// names other files without anyone having to remember to raise [`FORMAT`].
const MADE_BY: &str = include_str!("../../ambient.rs");

/// The fingerprint of `mesh`'s ambient occlusion as this program bakes it.
pub fn fingerprint(mesh: &ClusteredMesh) -> Fingerprint {
    let mut how = Vec::new();
    how.extend_from_slice(&FORMAT.to_le_bytes());
    how.extend_from_slice(&(AMBIENT_RAYS as u32).to_le_bytes());
    for x in [AMBIENT_REACH, AMBIENT_LIFT, AMBIENT_SPREAD, AMBIENT_SHUT_IN] {
        how.extend_from_slice(&x.to_le_bytes());
    }
    Fingerprint::of(mesh, &[]).mixed(&[MADE_BY.as_bytes(), &how])
}

/// The name of the file of the ambient occlusion fingerprinted `fingerprint`.
pub fn file_name(fingerprint: Fingerprint) -> String {
    format!("ambient-{:032x}.bin", fingerprint.bits())
}

/// The ambient occlusion of `mesh` kept in folder `dir` under `fingerprint` (see
/// [`fingerprint`]): `None` when there is none; an error (naming the file) when the file
/// is there but unreadable or damaged (it is removed, to be baked again).
pub fn load(
    dir: &Path,
    mesh: &ClusteredMesh,
    fingerprint: Fingerprint,
) -> Option<Result<Ambient, String>> {
    read_kept(&dir.join(file_name(fingerprint)), |bytes| {
        decode(bytes, mesh.vertices.len(), fingerprint)
    })
}

/// Keep `ambient` in folder `dir` (made if missing) under `fingerprint`, written whole or
/// not at all; the folder is then kept under `max_bytes` as the levels' are. An error names
/// the file.
pub fn store(
    dir: &Path,
    fingerprint: Fingerprint,
    ambient: &Ambient,
    max_bytes: u64,
) -> Result<(), String> {
    keep(
        dir,
        &file_name(fingerprint),
        &encode(ambient, fingerprint),
        max_bytes,
    )
}

/// The file of `ambient`, baked as `fingerprint` says.
pub fn encode(ambient: &Ambient, fingerprint: Fingerprint) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(ambient.light.len() + 40);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT.to_le_bytes());
    bytes.extend_from_slice(&fingerprint.bits().to_le_bytes());
    bytes.extend_from_slice(&(ambient.light.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&ambient.light);
    let sum = xxh3_64(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

/// The ambient occlusion in a file's `bytes`, checked: its magic, format and fingerprint
/// are `fingerprint`'s, it has one value for each of `vertices`, its length is exact
/// and its checksum holds.
pub fn decode(bytes: &[u8], vertices: usize, fingerprint: Fingerprint) -> Result<Ambient, String> {
    const HEAD: usize = 8 + 4 + 16 + 8;
    const SUM: usize = 8;
    if bytes.len() < HEAD + SUM || bytes[..8] != MAGIC {
        return Err("not an ambient occlusion file".into());
    }
    let (body, sum) = bytes.split_at(bytes.len() - SUM);
    if xxh3_64(body).to_le_bytes() != sum {
        return Err("damaged (its checksum does not match)".into());
    }
    let format = u32::from_le_bytes(body[8..12].try_into().expect("4 bytes"));
    if format != FORMAT {
        return Err(format!("format {format}, not {FORMAT}"));
    }
    if body[12..28] != fingerprint.bits().to_le_bytes() {
        return Err("made from another mesh".into());
    }
    let count = u64::from_le_bytes(body[28..36].try_into().expect("8 bytes"));
    if count != vertices as u64 || body.len() - HEAD != vertices {
        return Err(format!("{count} values for a mesh of {vertices} vertices"));
    }
    Ok(Ambient {
        light: body[HEAD..].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::cull::clusters::cluster_map;
    use crate::cull::fixtures::{cube, one_material};

    fn mesh() -> ClusteredMesh {
        cluster_map(&one_material(cube(Vec3::ZERO, Vec3::ONE)), 64)
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let d =
            std::env::temp_dir().join(format!("walkthrough-ambient-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_kept_bake_is_read_back_as_it_was() {
        let mesh = mesh();
        let fp = fingerprint(&mesh);
        let ambient = Ambient {
            light: (0..mesh.vertices.len())
                .map(|i| (i * 37 % 256) as u8)
                .collect(),
        };
        let dir = scratch("round");
        assert!(load(&dir, &mesh, fp).is_none(), "nothing kept yet");
        store(&dir, fp, &ambient, u64::MAX).unwrap();
        assert_eq!(load(&dir, &mesh, fp), Some(Ok(ambient)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused_and_removed() {
        let mesh = mesh();
        let fp = fingerprint(&mesh);
        let ambient = Ambient {
            light: vec![200; mesh.vertices.len()],
        };
        let good = encode(&ambient, fp);
        let mut flipped = good.clone();
        flipped[40] ^= 1;
        assert!(
            decode(&flipped, mesh.vertices.len(), fp)
                .unwrap_err()
                .contains("checksum")
        );
        assert!(decode(&good[..good.len() - 1], mesh.vertices.len(), fp).is_err());
        assert!(
            decode(&good, mesh.vertices.len() + 1, fp).is_err(),
            "another vertex count"
        );
        let other = Fingerprint::of(&mesh, &[true]);
        assert!(
            decode(&good, mesh.vertices.len(), other)
                .unwrap_err()
                .contains("another mesh")
        );
        let dir = scratch("damaged");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(file_name(fp));
        std::fs::write(&path, &flipped).unwrap();
        let err = load(&dir, &mesh, fp).unwrap().unwrap_err();
        assert!(err.contains(&file_name(fp)), "{err}");
        assert!(!path.exists(), "the damaged file is removed");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_fingerprint_changes_with_the_mesh_and_differs_from_the_levels() {
        let mesh = mesh();
        let fp = fingerprint(&mesh);
        assert_eq!(fingerprint(&mesh), fp);
        assert_ne!(fp, Fingerprint::of(&mesh, &[]), "not the levels' own");
        let mut scaled = mesh.clone();
        scaled.scale_by(2.0);
        assert_ne!(fingerprint(&scaled), fp);
    }
}
