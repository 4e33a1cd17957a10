//! The file the levels of a map are kept in: named by the [`Fingerprint`] of what they
//! are made from and how, written as little-endian words after [`MAGIC`] and a checksum,
//! and read back only when every part checks against the mesh.

use glam::Vec3;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

use crate::cull::clusters::{Cluster, ClusteredMesh, Level, MESHLET_TRIANGLES, Meshlet};
use crate::cull::lod::{ERROR_STEP, FIRST_ERROR, KEEP_AT_MOST, Levels, MAX_LEVELS};
use crate::geometry::Aabb;

/// The layout of a file; raised whenever it changes.
pub const FORMAT: u32 = 1;

/// The code that makes the levels (and splits them into meshlets), and the versions of
/// the crates it uses (meshoptimizer's among them), as built: part of every fingerprint,
/// so that a change to how levels are made names other files without anyone having to
/// remember to raise [`FORMAT`].
const MADE_BY: [&str; 6] = [
    include_str!("../../../cull/lod.rs"),
    include_str!("../../../cull/lod/simplify.rs"),
    include_str!("../../../cull/lod/deviation.rs"),
    include_str!("../../../cull/clusters.rs"),
    include_str!("../../../cull/split.rs"),
    include_str!("../../../../../Cargo.lock"),
];

/// A file's first bytes.
const MAGIC: [u8; 8] = *b"wtlevels";

/// What a mesh's levels are made from and how, as a 128-bit digest (xxh3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fingerprint(u128);

impl Fingerprint {
    /// The fingerprint of the levels of `mesh` (its own clusters; levels it already has
    /// do not count) made with `textured[m]` saying material `m` has a texture.
    pub fn of(mesh: &ClusteredMesh, textured: &[bool]) -> Fingerprint {
        let mut h = Xxh3::new();
        for source in MADE_BY {
            h.update(source.as_bytes());
        }
        let mut words = Words::default();
        words.put(FORMAT);
        words.put(MESHLET_TRIANGLES as u32);
        words.put(MAX_LEVELS as u32);
        for x in [FIRST_ERROR, ERROR_STEP, KEEP_AT_MOST] {
            words.put(x.to_bits());
        }
        words.put(textured.len() as u32);
        for &t in textured {
            words.put(u32::from(t));
        }
        let originals = &mesh.clusters[..mesh.originals()];
        words.put(originals.len() as u32);
        for c in originals {
            words.put_cluster(c);
        }
        // How far into each list the map's own clusters reach (their levels come after).
        let end = |last: fn(&Cluster) -> u32| {
            originals
                .iter()
                .map(|c| last(c) as usize)
                .max()
                .unwrap_or(0)
        };
        let vertices = end(|c| c.first_vertex + c.vertex_count);
        words.put(vertices as u32);
        for v in &mesh.vertices[..vertices.min(mesh.vertices.len())] {
            // A vertex's 32 bytes at once (a word at a time, conference's fingerprint
            // took 15 ms, not 5).
            let mut b = [0u8; 32];
            let floats = v.position.iter().chain(&v.normal).chain(&v.uv);
            for (to, x) in b.chunks_exact_mut(4).zip(floats) {
                to.copy_from_slice(&x.to_le_bytes());
            }
            words.bytes.extend_from_slice(&b);
            words.flush_if_full(&mut h);
        }
        let indices = end(|c| c.first + c.count);
        for chunk in mesh.indices[..indices.min(mesh.indices.len())].chunks(1024) {
            words
                .bytes
                .extend(chunk.iter().flat_map(|i| i.to_le_bytes()));
            words.flush_if_full(&mut h);
        }
        let meshlets = end(|c| c.first_meshlet + c.meshlet_count);
        for (m, s) in mesh.meshlets[..meshlets.min(mesh.meshlets.len())]
            .iter()
            .zip(
                mesh.solids_bounds
                    .iter()
                    .chain(std::iter::repeat(&Aabb::EMPTY)),
            )
        {
            words.put(m.first);
            words.put(m.count);
            words.put_box(m.bounds);
            words.put_box(*s);
            words.flush_if_full(&mut h);
        }
        words.flush(&mut h);
        Fingerprint(h.digest128())
    }

    /// The name of its file in the cache folder.
    pub fn file_name(self) -> String {
        format!("levels-{:032x}.bin", self.0)
    }

    /// This fingerprint with `more` hashed into it: what else is made from the same mesh,
    /// and how (its ambient occlusion, [`super::super::ambient`]).
    pub fn mixed(self, more: &[&[u8]]) -> Fingerprint {
        let mut h = Xxh3::new();
        h.update(&self.0.to_le_bytes());
        for m in more {
            h.update(&(m.len() as u64).to_le_bytes());
            h.update(m);
        }
        Fingerprint(h.digest128())
    }

    /// Its 128 bits.
    pub fn bits(self) -> u128 {
        self.0
    }
}

/// Words (little-endian) gathered into a buffer before they are hashed: one call for
/// many words, not one a word.
#[derive(Default)]
struct Words {
    bytes: Vec<u8>,
}

impl Words {
    /// Bytes gathered before they are hashed.
    const CHUNK: usize = 1 << 16;

    fn put(&mut self, w: u32) {
        self.bytes.extend_from_slice(&w.to_le_bytes());
    }

    fn put_f32(&mut self, x: f32) {
        self.put(x.to_bits());
    }

    fn put_vec(&mut self, v: Vec3) {
        for x in v.to_array() {
            self.put_f32(x);
        }
    }

    fn put_box(&mut self, b: Aabb) {
        self.put_vec(b.min);
        self.put_vec(b.max);
    }

    fn put_cluster(&mut self, c: &Cluster) {
        for w in [
            c.material as u32,
            c.first,
            c.count,
            c.first_vertex,
            c.vertex_count,
            c.first_meshlet,
            c.meshlet_count,
            u32::from(c.cutout),
            u32::from(c.closed.is_some()),
        ] {
            self.put(w);
        }
        self.put_box(c.bounds);
        self.put_box(c.closed.unwrap_or(Aabb::EMPTY));
    }

    fn flush_if_full(&mut self, h: &mut Xxh3) {
        if self.bytes.len() >= Self::CHUNK {
            self.flush(h);
        }
    }

    fn flush(&mut self, h: &mut Xxh3) {
        h.update(&self.bytes);
        self.bytes.clear();
    }
}

/// The file of `levels` (all of a mesh's, made as `fingerprint` says): [`MAGIC`],
/// [`FORMAT`], the fingerprint, the counts, the level clusters' indices, meshlets (each
/// with the bounds of its solids), clusters (each naming the map's cluster it stands
/// for) and each map cluster's list of levels, then an xxh3 checksum of all before it.
pub fn encode(levels: &Levels, fingerprint: Fingerprint) -> Vec<u8> {
    let part = &levels.part;
    let mut w = Words::default();
    w.bytes.extend_from_slice(&MAGIC);
    w.put(FORMAT);
    w.bytes.extend_from_slice(&fingerprint.0.to_le_bytes());
    // Which map cluster each level cluster stands for.
    let mut original = vec![u32::MAX; part.clusters.len()];
    for (c, ls) in part.levels.iter().enumerate() {
        for l in ls {
            if let Some(o) = original.get_mut(l.cluster as usize) {
                *o = c as u32;
            }
        }
    }
    for n in [
        part.levels.len(),
        part.indices.len(),
        part.meshlets.len(),
        part.clusters.len(),
    ] {
        w.put(n as u32);
    }
    for &i in &part.indices {
        w.put(i);
    }
    for (m, s) in part.meshlets.iter().zip(&part.solids_bounds) {
        w.put(m.first);
        w.put(m.count);
        w.put_box(m.bounds);
        w.put_box(*s);
    }
    for (c, &o) in part.clusters.iter().zip(&original) {
        for x in [o, c.first, c.count, c.first_meshlet, c.meshlet_count] {
            w.put(x);
        }
        w.put_box(c.bounds);
    }
    for ls in &part.levels {
        w.put(ls.len() as u32);
        for l in ls {
            w.put(l.cluster);
            w.put_f32(l.error);
        }
    }
    let sum = xxh3_64(&w.bytes);
    w.bytes.extend_from_slice(&sum.to_le_bytes());
    w.bytes
}

/// Reads a file's words in order; each read fails past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or("the file ends early")?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn word(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32(&mut self) -> Result<f32, String> {
        self.word().map(f32::from_bits)
    }

    fn vec(&mut self) -> Result<Vec3, String> {
        Ok(Vec3::new(self.f32()?, self.f32()?, self.f32()?))
    }

    /// A box whose corners are numbers (an empty one's are infinite).
    fn bounds(&mut self) -> Result<Aabb, String> {
        let b = Aabb {
            min: self.vec()?,
            max: self.vec()?,
        };
        if b.min.is_nan() || b.max.is_nan() {
            return Err("a box is not a number".into());
        }
        Ok(b)
    }

    /// A count of items of `size` bytes each, no more than the bytes left could hold.
    fn count(&mut self, size: usize) -> Result<usize, String> {
        let n = self.word()? as usize;
        if n.saturating_mul(size) > self.bytes.len() - self.at {
            return Err("a count larger than the file".into());
        }
        Ok(n)
    }
}

/// The levels in file `bytes`, for `mesh` (whose fingerprint is `fingerprint`), once
/// every part of it is checked: its form, checksum and fingerprint, and that each index
/// and range lies where the map cluster it stands for allows. An error says what is
/// wrong.
pub fn decode(
    bytes: &[u8],
    mesh: &ClusteredMesh,
    fingerprint: Fingerprint,
) -> Result<Levels, String> {
    let body = bytes.len().checked_sub(8).ok_or("the file ends early")?;
    let (body, sum) = bytes.split_at(body);
    if body.len() < MAGIC.len() || body[..MAGIC.len()] != MAGIC {
        return Err("not a levels-of-detail file".into());
    }
    if xxh3_64(body).to_le_bytes() != sum {
        return Err("its checksum does not match (a damaged file)".into());
    }
    let mut r = Reader {
        bytes: body,
        at: MAGIC.len(),
    };
    if r.word()? != FORMAT {
        return Err("made by another version".into());
    }
    let mut fp = [0u8; 16];
    fp.copy_from_slice(r.take(16)?);
    if u128::from_le_bytes(fp) != fingerprint.0 {
        return Err("made for another map".into());
    }
    let originals = mesh.originals();
    if r.word()? as usize != originals {
        return Err("made for another number of clusters".into());
    }
    let indices = r.count(4)?;
    let meshlets = r.count(4 * 14)?;
    let clusters = r.count(4 * 11)?;
    let mut part = ClusteredMesh {
        levels: vec![Vec::new(); originals],
        ..ClusteredMesh::default()
    };
    part.indices.reserve_exact(indices);
    for _ in 0..indices {
        part.indices.push(r.word()?);
    }
    for _ in 0..meshlets {
        let (first, count) = (r.word()?, r.word()?);
        let fits = (first as usize)
            .checked_add(count as usize)
            .is_some_and(|e| e <= indices);
        if !fits || count % 3 != 0 || count as usize > 3 * MESHLET_TRIANGLES {
            return Err("a meshlet out of range".into());
        }
        part.meshlets.push(Meshlet {
            first,
            count,
            bounds: r.bounds()?,
        });
        part.solids_bounds.push(r.bounds()?);
    }
    let mut stands_for = Vec::with_capacity(clusters);
    for _ in 0..clusters {
        let o = r.word()? as usize;
        let of = mesh.clusters[..originals]
            .get(o)
            .ok_or("a level of no cluster of the map")?;
        let (first, count, first_meshlet, meshlet_count) =
            (r.word()?, r.word()?, r.word()?, r.word()?);
        let c = Cluster {
            first,
            count,
            first_meshlet,
            meshlet_count,
            bounds: r.bounds()?,
            ..*of
        };
        check_cluster(&c, of, &part)?;
        part.clusters.push(c);
        stands_for.push(o);
    }
    for (o, levels) in part.levels.iter_mut().enumerate() {
        let n = r.count(8)?;
        let mut last = 0.0f32;
        for _ in 0..n {
            let (cluster, error) = (r.word()?, r.f32()?);
            if stands_for.get(cluster as usize) != Some(&o) {
                return Err("a level listed for another cluster".into());
            }
            if !(error.is_finite() && error >= last) {
                return Err("the levels' errors are not in order".into());
            }
            last = error;
            levels.push(Level { cluster, error });
        }
    }
    if r.at != body.len() {
        return Err("bytes left over at the end".into());
    }
    Ok(Levels { part })
}

/// Whether level cluster `c` (of `part`'s meshlets and indices) may stand for the map's
/// cluster `of`: its meshlets tile its indices, and every index is one of `of`'s
/// vertices.
fn check_cluster(c: &Cluster, of: &Cluster, part: &ClusteredMesh) -> Result<(), String> {
    let meshlets = (c.first_meshlet as usize)
        .checked_add(c.meshlet_count as usize)
        .and_then(|end| part.meshlets.get(c.first_meshlet as usize..end))
        .ok_or("a cluster's meshlets out of range")?;
    let mut next = c.first;
    for m in meshlets {
        if m.first != next {
            return Err("a cluster's meshlets do not tile it".into());
        }
        next = m.first + m.count;
    }
    if c.first.checked_add(c.count) != Some(next) || c.count == 0 {
        return Err("a cluster's meshlets do not tile it".into());
    }
    let own = of.first_vertex..of.first_vertex + of.vertex_count;
    let indices = &part.indices[c.first as usize..next as usize];
    if indices.iter().any(|i| !own.contains(i)) {
        return Err("an index of another cluster's vertices".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::cull::clusters::cluster_map;
    use crate::cull::fixtures::{bumpy, grid, no_uv, one_material, sheet, triangles, with_added};
    use crate::cull::lod::{farthest_first, simplify_clusters, simplify_in_batches};

    #[test]
    fn levels_read_back_from_their_file_are_the_levels_kept() {
        let mesh = sheet();
        let fp = Fingerprint::of(&mesh, &[false]);
        let levels = simplify_clusters(&mesh, &[false]);
        assert!(levels.triangles() > 0);
        let read = decode(&encode(&levels, fp), &mesh, fp).unwrap();
        assert_eq!(with_added(&mesh, read), with_added(&mesh, levels.clone()));
        // Batches joined as the levels' thread joins them keep the same levels, in the order
        // they came, and read back the same too.
        let order = farthest_first(&mesh, Vec3::new(-2.0, 1.0, -2.0));
        let mut joined = Levels::none(mesh.originals());
        simplify_in_batches(&mesh, &[false], &order, 3, |batch| {
            assert!(joined.join(batch.clone()));
            assert!(!joined.join(batch), "a batch twice");
            true
        });
        let (a, b) = (with_added(&mesh, levels), with_added(&mesh, joined.clone()));
        for c in 0..mesh.originals() {
            assert_eq!(a.levels[c].len(), b.levels[c].len());
            for (x, y) in a.levels[c].iter().zip(&b.levels[c]) {
                assert_eq!(x.error, y.error);
                assert_eq!(triangles(&a, x.cluster), triangles(&b, y.cluster));
            }
        }
        let read = decode(&encode(&joined, fp), &mesh, fp).unwrap();
        assert_eq!(with_added(&mesh, read), b);
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
        let full = with_added(&mesh, simplify_clusters(&mesh, &[false]));
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
}
