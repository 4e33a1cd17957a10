//! A collision world taken apart into plain data and put back together: what the cache of
//! built maps keeps (`session::cache`). The triangles are kept as the index of the map
//! triangle each was made from, and made again from the map's positions (the same bits:
//! a triangle is made alike from the same corners), which halves the file. Putting it
//! back checks everything a damaged or forged file could get wrong (every index of the
//! tree and of the sources, every number finite, no triangle without area), so a world
//! read back is as sound as one built.

use glam::{Vec3, Vec3A};

use super::CollisionWorld;
use super::build::made;
use crate::collision::bvh::{Bvh, Node};
use crate::geometry::Aabb;

/// One tree node as plain data (32 bytes: the node without its SIMD padding and its
/// span, which is remade).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct NodeRecord {
    /// Smallest corner.
    pub min: [f32; 3],
    /// Largest corner.
    pub max: [f32; 3],
    /// As [`Node::index`].
    pub index: u32,
    /// As [`Node::count`].
    pub count: u32,
}

/// A world as plain data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorldParts {
    /// Each triangle's source, in tree order: see [`CollisionWorld::sources`].
    pub sources: Vec<u32>,
    /// The tree, root first.
    pub nodes: Vec<NodeRecord>,
    /// Triangles dropped without area, and as repeats, at build.
    pub dropped: u64,
    /// Triangles dropped as repeats.
    pub duplicates: u64,
    /// The tree's depth, as [`CollisionWorld::stats`] says it (0: found again, a walk of
    /// every node). Only counted, never followed, so taken as given.
    pub depth: u64,
}

impl CollisionWorld {
    /// This world as plain data (a copy; [`CollisionWorld::triangles`] and
    /// [`CollisionWorld::node_records`] give it without one).
    pub fn parts(&self) -> WorldParts {
        WorldParts {
            sources: self.sources.clone(),
            nodes: self.node_records().collect(),
            dropped: self.dropped as u64,
            duplicates: self.duplicates as u64,
            depth: self.depth as u64,
        }
    }

    /// The tree's nodes as plain data, root first.
    pub fn node_records(&self) -> impl ExactSizeIterator<Item = NodeRecord> + '_ {
        self.bvh.nodes.iter().map(|n| NodeRecord {
            min: n.min.to_array(),
            max: n.max.to_array(),
            index: n.index,
            count: n.count,
        })
    }

    /// The world `parts` describe over the `count` triangles `corners` gives (those it
    /// was built from), or why they describe none: a source past `count`, a triangle
    /// without area or with a number not finite, a leaf outside the triangles, a child not
    /// after its parent or outside the tree, a tree that does not hold every triangle
    /// once, or nodes without triangles.
    pub fn from_parts(
        parts: WorldParts,
        count: usize,
        corners: impl Fn(usize) -> [Vec3; 3] + Sync,
    ) -> Result<CollisionWorld, String> {
        let WorldParts {
            sources,
            nodes: records,
            dropped,
            duplicates,
            depth,
        } = parts;
        if sources.is_empty() != records.is_empty() {
            return Err("a tree without triangles, or triangles without a tree".into());
        }
        let (n, t) = (records.len(), sources.len());
        let mut covered = 0usize;
        let mut nodes = Vec::with_capacity(n);
        for (i, r) in records.iter().enumerate() {
            if !r.min.iter().chain(&r.max).all(|x| x.is_finite()) {
                return Err(format!("node {i}'s box is not finite"));
            }
            let (index, count) = (r.index as usize, r.count as usize);
            let sound = if count > 0 {
                covered += count;
                index + count <= t
            } else {
                index > i && index + 1 < n
            };
            if !sound {
                return Err(format!("node {i} points outside the tree or the triangles"));
            }
            nodes.push(Node::new(
                Vec3A::from_array(r.min),
                Vec3A::from_array(r.max),
                r.index,
                r.count,
            ));
        }
        if covered != t {
            return Err(format!("the tree's leaves hold {covered} of {t} triangles"));
        }
        // The records go before the triangles are made: at ten million triangles they
        // are 270 MB of the reopen's peak.
        drop(records);
        if let Some(s) = sources.iter().find(|&&s| s as usize >= count) {
            return Err(format!("a triangle made from triangle {s} of {count}"));
        }
        let triangles = made(&sources, &corners)
            .ok_or("a triangle without area, or with a number that is not finite")?;
        let bvh = Bvh { nodes };
        let bounds = bvh.nodes.first().map_or(Aabb::EMPTY, |root| root.bounds());
        let depth = match depth {
            0 => bvh.depth(),
            d => d as usize,
        };
        Ok(CollisionWorld {
            triangles,
            sources,
            bvh,
            dropped: dropped as usize,
            duplicates: duplicates as usize,
            bounds,
            depth,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 500 triangles, with a repeat and one without area among them (so that sources
    /// skip some indices).
    fn source() -> Vec<[Vec3; 3]> {
        let mut tris: Vec<[Vec3; 3]> = (0..500)
            .map(|i| {
                let o = Vec3::new((i % 20) as f32, 0.0, (i / 20) as f32);
                [o, o + Vec3::Z, o + Vec3::X]
            })
            .collect();
        tris[7] = tris[3];
        tris[11] = [Vec3::ZERO; 3];
        tris
    }

    fn put_back(p: WorldParts, tris: &[[Vec3; 3]]) -> Result<CollisionWorld, String> {
        CollisionWorld::from_parts(p, tris.len(), |i| tris[i])
    }

    #[test]
    fn a_world_taken_apart_and_put_back_is_the_same_world() {
        let tris = source();
        let w = CollisionWorld::new(tris.clone());
        assert_eq!((w.stats().duplicates, w.stats().dropped), (1, 1));
        let back = put_back(w.parts(), &tris).unwrap();
        assert_eq!(back.parts(), w.parts());
        assert!(
            back.triangles() == w.triangles(),
            "the same triangles, bit for bit"
        );
        assert_eq!(back.stats(), w.stats());
        assert_eq!(back.bounds(), w.bounds());
        // Each triangle is the one its source names.
        for (t, &s) in w.triangles().iter().zip(w.sources()) {
            assert_eq!(t.vertices(), tris[s as usize]);
        }
    }

    #[test]
    fn damaged_parts_are_refused_with_what_is_wrong() {
        let tris = source();
        let w = CollisionWorld::new(tris.clone());
        let mut bad = tris.clone();
        bad[w.sources()[3] as usize][1].x = f32::NAN;
        assert!(
            put_back(w.parts(), &bad)
                .unwrap_err()
                .contains("not finite")
        );
        let mut p = w.parts();
        p.sources[5] = 11; // the triangle without area
        assert!(put_back(p, &tris).unwrap_err().contains("without area"));
        let mut p = w.parts();
        p.sources[5] = 500;
        assert!(
            put_back(p, &tris)
                .unwrap_err()
                .contains("triangle 500 of 500")
        );
        let mut p = w.parts();
        p.nodes[0].index = 0;
        assert!(put_back(p, &tris).unwrap_err().contains("node 0"));
        let mut p = w.parts();
        let leaf = p.nodes.iter().position(|n| n.count > 0).unwrap();
        p.nodes[leaf].index = u32::MAX - 1;
        assert!(put_back(p, &tris).is_err());
        let mut p = w.parts();
        p.sources.pop();
        assert!(put_back(p, &tris).is_err());
    }
}
