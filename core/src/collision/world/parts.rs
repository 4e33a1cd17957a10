//! A collision world taken apart into plain data and put back together: what the cache of
//! built maps keeps (`session::cache`). Putting it back checks everything a damaged or
//! forged file could get wrong (every index of the tree, every number finite), so a world
//! read back is as sound as one built. (Keeping each triangle as the map triangle it was
//! made from, and making it again at a reopen, halved the file but made the reopen of ten
//! million triangles 50 ms slower and 13 bytes a triangle bigger: see
//! docs/performance.md.)

use std::sync::Arc;

use glam::Vec3A;

use super::CollisionWorld;
use crate::collision::bvh::{Bvh, MAX_LINK, Node};
use crate::collision::revision::Revision;
use crate::geometry::{Aabb, Triangle};

/// One tree node as plain data (32 bytes: its corners, and its links as plain numbers,
/// where the node keeps them tagged in its corners' spare SIMD lanes).
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
    /// The triangles, in tree order.
    pub triangles: Vec<Triangle>,
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
            triangles: self.triangles.to_vec(),
            nodes: self.node_records().collect(),
            dropped: self.dropped as u64,
            duplicates: self.duplicates as u64,
            depth: self.depth as u64,
        }
    }

    /// The tree's nodes as plain data, root first.
    pub fn node_records(&self) -> impl ExactSizeIterator<Item = NodeRecord> + '_ {
        self.bvh.nodes.iter().map(|n| NodeRecord {
            min: n.min().to_array(),
            max: n.max().to_array(),
            index: n.index(),
            count: n.count(),
        })
    }

    /// The world `parts` describe, or why they describe none: a number not finite, a
    /// leaf outside the triangles, a child not after its parent or outside the tree, a
    /// tree that does not hold every triangle once, or nodes without triangles.
    pub fn from_parts(parts: WorldParts) -> Result<CollisionWorld, String> {
        let WorldParts {
            triangles,
            nodes: records,
            dropped,
            duplicates,
            depth,
        } = parts;
        if triangles.is_empty() != records.is_empty() {
            return Err("a tree without triangles, or triangles without a tree".into());
        }
        let finite = bytemuck::cast_slice::<Triangle, f32>(&triangles)
            .iter()
            .all(|x| x.is_finite());
        if !finite {
            return Err("a triangle with a number that is not finite".into());
        }
        let (n, t) = (records.len(), triangles.len());
        let mut covered = 0usize;
        let mut nodes = Vec::with_capacity(n);
        for (i, r) in records.iter().enumerate() {
            if !r.min.iter().chain(&r.max).all(|x| x.is_finite()) {
                return Err(format!("node {i}'s box is not finite"));
            }
            let (index, count) = (r.index as usize, r.count as usize);
            let sound = if r.index.max(r.count) > MAX_LINK {
                false
            } else if count > 0 {
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
        check_tree(&nodes, &triangles)?;
        let bvh = Bvh { nodes };
        let bounds = bvh.nodes.first().map_or(Aabb::EMPTY, |root| root.bounds());
        let depth = match depth {
            0 => bvh.depth(),
            d => d as usize,
        };
        Ok(CollisionWorld {
            triangles: Arc::new(triangles),
            bvh: Arc::new(bvh),
            dropped: dropped as usize,
            duplicates: duplicates as usize,
            bounds,
            depth,
            revision: Revision::fresh(),
        })
    }
}

/// Whether `nodes` are a tree (each node below the root the child of exactly one) whose
/// every box holds what lies under it: its children's boxes, or its triangles' bounds
/// (the builder makes each box their union, so it holds them exactly). A damaged file
/// whose checksums were made again (every box moved away) sent
/// every search past the walls; children shared by two parents make a search revisit
/// them, twice more at each level.
fn check_tree(nodes: &[Node], triangles: &[Triangle]) -> Result<(), String> {
    let mut has_parent = vec![false; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        let b = node.bounds();
        if node.is_leaf() {
            let range = node.triangles();
            let held = triangles[range.start as usize..range.end as usize]
                .iter()
                .all(|t| b.contains_box(&t.bounds()));
            if !held {
                return Err(format!("node {i}'s box does not hold its triangles"));
            }
            continue;
        }
        for c in node.children() {
            if std::mem::replace(&mut has_parent[c], true) {
                return Err(format!("node {c} is the child of two nodes"));
            }
            if !b.contains_box(&nodes[c].bounds()) {
                return Err(format!("node {i}'s box does not hold node {c}'s"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    fn world() -> CollisionWorld {
        let tris = (0..500).map(|i| {
            let o = Vec3::new((i % 20) as f32, 0.0, (i / 20) as f32);
            [o, o + Vec3::Z, o + Vec3::X]
        });
        CollisionWorld::new(tris)
    }

    /// A clone shares the world's triangles and tree (the cache of built maps writes one
    /// beside the walk); scaling either copies them first, never changing the other.
    #[test]
    fn a_world_s_clone_scaled_leaves_the_world_as_it_was() {
        let w = world();
        let mut c = w.clone();
        assert!(
            std::ptr::eq(w.triangles(), c.triangles()),
            "copied on clone"
        );
        c.scale_by(2.0);
        assert_eq!(w.triangles(), world().triangles());
        assert_eq!(
            w.node_records().collect::<Vec<_>>(),
            world().node_records().collect::<Vec<_>>()
        );
        assert_eq!(c.bounds().max, w.bounds().max * 2.0);
        // Alone, it is scaled in place (no copy).
        let mut alone = world();
        let before = alone.triangles().as_ptr();
        alone.scale_by(2.0);
        assert_eq!(alone.triangles().as_ptr(), before);
    }

    #[test]
    fn a_world_taken_apart_and_put_back_is_the_same_world() {
        let w = world();
        let back = CollisionWorld::from_parts(w.parts()).unwrap();
        assert_eq!(back.parts(), w.parts());
        assert_eq!(back.stats(), w.stats());
        assert_eq!(back.bounds(), w.bounds());
    }

    #[test]
    fn damaged_parts_are_refused_with_what_is_wrong() {
        let w = world();
        let mut p = w.parts();
        p.triangles[3].b.x = f32::NAN;
        assert!(
            CollisionWorld::from_parts(p)
                .unwrap_err()
                .contains("not finite")
        );
        let mut p = w.parts();
        p.nodes[0].index = 0;
        assert!(
            CollisionWorld::from_parts(p)
                .unwrap_err()
                .contains("node 0")
        );
        let mut p = w.parts();
        let leaf = p.nodes.iter().position(|n| n.count > 0).unwrap();
        p.nodes[leaf].index = u32::MAX - 1;
        assert!(CollisionWorld::from_parts(p).is_err());
        // A link past what a node's lane holds is refused, not cut short.
        let mut p = w.parts();
        p.nodes[leaf].count = MAX_LINK + 1;
        assert!(
            CollisionWorld::from_parts(p)
                .unwrap_err()
                .contains(&format!("node {leaf}"))
        );
        let mut p = w.parts();
        p.triangles.pop();
        assert!(CollisionWorld::from_parts(p).is_err());
    }

    /// A forged file (its checksums made again) whose boxes were
    /// all moved away was taken, and loading it searched for minutes. Boxes that do not
    /// hold what lies under them, and children shared by two nodes, are refused.
    #[test]
    fn a_tree_whose_boxes_do_not_hold_what_is_under_them_is_refused() {
        let w = world();
        let mut p = w.parts();
        let leaf = p.nodes.iter().position(|n| n.count > 0).unwrap();
        p.nodes[leaf].min = [1e6; 3];
        p.nodes[leaf].max = [1e6 + 1.0; 3];
        let e = CollisionWorld::from_parts(p).unwrap_err();
        assert!(e.contains("does not hold"), "{e}");
        // An inner node's box a little short of a child's.
        let mut p = w.parts();
        p.nodes[0].max[0] -= 0.5;
        let e = CollisionWorld::from_parts(p).unwrap_err();
        assert!(e.contains("node 0's box does not hold node"), "{e}");
        // The root's second child made a copy of its first: their children are shared.
        let mut p = w.parts();
        let first = p.nodes[0].index as usize;
        assert_eq!(
            p.nodes[first].count, 0,
            "500 triangles: the root's child is inner"
        );
        p.nodes[first + 1] = p.nodes[first];
        let e = CollisionWorld::from_parts(p).unwrap_err();
        assert!(e.contains("is the child of two nodes"), "{e}");
    }
}
