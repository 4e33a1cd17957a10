//! Closed solids among a map's triangles ([`Solids`], kept in the map): the surfaces whose back faces never show from
//! outside them, so the renderer may leave those out (back-face culling, for the
//! triangles that can afford it).
//!
//! OBJ promises no winding, and a single wall is seen from both sides, so the renderer
//! draws both faces of every triangle. But most furniture, columns and blocks are closed
//! surfaces: every edge between their triangles is walked as often one way as the other
//! (the triangles are consistently wound), and none is left open. From an eye outside
//! such a surface (one that does not pass through itself, as a solid's does not), every
//! ray enters it through a face turned towards the eye before it meets one turned away,
//! so its back faces are always hidden behind its front faces, which the depth test
//! then rejects at the cost of rasterizing them. Knowing which triangles are such, the
//! renderer draws them with back faces culled while the eye is outside their bounds (see
//! `cull::Cluster::closed`): two thirds of conference's triangles.
//!
//! A surface wound inward (its signed volume negative: a room's walls drawn to be seen
//! from inside, a cavity) is turned outward: the test asks only "outside", and the
//! bounds check keeps an eye inside the room from culling its walls. A pair of triangles
//! back to back (a two-sided panel) is a closed surface of no volume: from either side,
//! the one facing away lies under the one facing the eye.
//!
//! Corners are joined by equal positions (bit for bit; -0 as 0), and edges matched by
//! their two corners (the "closed and consistently oriented" test of mesh repair, e.g.
//! Botsch et al., *Polygon Mesh Processing*, 2010, ch. 1; an edge shared by four
//! triangles, two each way, counts as matched). A surface with a
//! single unmatched edge, a T-junction or a crack is open and is drawn two-sided as before.
//!
//! Which triangles make which surface ([`closed_solids`]) is found once, at load, on
//! another thread while the collision world is built and the map surveyed (30 to 40 ms
//! for conference's 331k triangles); each surface's bounds and winding ([`Solids::shapes`]) from the positions as they
//! are when the renderer clusters the map (turned and scaled since).

use glam::{DVec3, Vec3};
use rustc_hash::FxHashMap;

use crate::geometry::{Aabb, key_bits};
use crate::map::{CornerList, NO_SOLID, Solids};

/// One closed surface's place and winding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solid {
    /// Bounds of its triangles.
    pub bounds: Aabb,
    /// Its triangles are wound inward (clockwise seen from outside; signed volume below
    /// zero): turn them to cull their back faces.
    pub inward: bool,
}

/// How an edge between two corners is used: the triangles walking it one way less those
/// walking it the other (zero: matched), and one of them.
#[derive(Clone, Copy, Debug, Default)]
struct EdgeUse {
    balance: i32,
    triangle: u32,
}

/// An empty slot of the table of recent edges (no edge joins a corner to itself).
const NO_EDGE: u64 = u64::MAX;

/// Add the uses `e` of edge `key` to those in `edges`, joining their triangles' surfaces.
fn settle(edges: &mut FxHashMap<u64, EdgeUse>, parent: &mut [u32], key: u64, e: EdgeUse) {
    match edges.entry(key) {
        std::collections::hash_map::Entry::Occupied(mut had) => {
            let had = had.get_mut();
            had.balance += e.balance;
            union(parent, had.triangle, e.triangle);
        }
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(e);
        }
    }
}

/// The closed solids of `vertices` (three per triangle): see the module's notes.
pub fn closed_solids<C: CornerList + ?Sized>(vertices: &C) -> Solids {
    let triangles = vertices.corner_count() / 3;
    // Each corner's position, numbered: equal positions one number. (Positions are
    // finite: no NaN reaches a map.) A position comes back soon after it is first seen
    // (neighbouring triangles share corners), so a small table of recent ones, which the
    // cache keeps, answers most before the table of all of them is asked.
    let mut numbers: FxHashMap<[u32; 3], u32> =
        FxHashMap::with_capacity_and_hasher(vertices.corner_count() / 16, Default::default());
    let mut recent = vec![([u32::MAX; 3], 0u32); RECENT];
    let corner: Vec<u32> = (0..3 * triangles)
        .map(|i| {
            let key = key_bits(vertices.corner(i));
            let slot =
                &mut recent[recent_slot(key[0] ^ key[1].rotate_left(11) ^ key[2].rotate_left(22))];
            if slot.0 == key {
                return slot.1;
            }
            let next = numbers.len() as u32;
            let number = *numbers.entry(key).or_insert(next);
            *slot = (key, number);
            number
        })
        .collect();
    drop(numbers);

    // Triangles sharing an edge are one surface (union-find, by halving); each edge's
    // balance of directions says whether it is matched. Most edges are matched by a
    // neighbour soon after they are first walked: those are settled in a small table of
    // recent edges, and only an edge pushed out of it unmatched goes to the table of all
    // (where its later uses, matched or not, add up: the balance is exact).
    let mut parent: Vec<u32> = (0..triangles as u32).collect();
    let mut edges: FxHashMap<u64, EdgeUse> = FxHashMap::default();
    let mut recent_edges = vec![(NO_EDGE, EdgeUse::default()); RECENT];
    let mut degenerate = vec![false; triangles];
    for t in 0..triangles {
        let [a, b, c] = [corner[3 * t], corner[3 * t + 1], corner[3 * t + 2]];
        if a == b || b == c || c == a {
            // No area, no edges: it draws nothing either way.
            degenerate[t] = true;
            continue;
        }
        for (p, q) in [(a, b), (b, c), (c, a)] {
            let key = (u64::from(p.min(q)) << 32) | u64::from(p.max(q));
            let way = if p < q { 1 } else { -1 };
            let slot = &mut recent_edges[recent_slot((key ^ (key >> 29)) as u32)];
            if slot.0 == key {
                slot.1.balance += way;
                union(&mut parent, slot.1.triangle, t as u32);
                continue;
            }
            let (old_key, old) = std::mem::replace(
                slot,
                (
                    key,
                    EdgeUse {
                        balance: way,
                        triangle: t as u32,
                    },
                ),
            );
            if old_key != NO_EDGE && old.balance != 0 {
                settle(&mut edges, &mut parent, old_key, old);
            }
        }
    }
    for (key, e) in recent_edges {
        if key != NO_EDGE && e.balance != 0 {
            settle(&mut edges, &mut parent, key, e);
        }
    }
    // A surface with an unmatched edge is open.
    let mut open = vec![false; triangles];
    for e in edges.values().filter(|e| e.balance != 0) {
        let root = find(&mut parent, e.triangle);
        open[root as usize] = true;
    }
    drop(edges);

    // Number the closed surfaces.
    let mut solid_of_root = vec![NO_SOLID; triangles];
    let mut of_triangle = vec![NO_SOLID; triangles];
    let mut count = 0;
    for t in 0..triangles {
        if degenerate[t] {
            continue;
        }
        let root = find(&mut parent, t as u32) as usize;
        if open[root] {
            continue;
        }
        if solid_of_root[root] == NO_SOLID {
            solid_of_root[root] = count;
            count += 1;
        }
        of_triangle[t] = solid_of_root[root];
    }
    Solids { of_triangle, count }
}

impl Solids {
    /// Each solid's bounds and winding in `vertices` (the list they were found in, or
    /// it turned or scaled since: the same triangles in the same order). Its signed
    /// volume is the sum of the tetrahedra each triangle makes with the solid's first
    /// corner: near the solid, so the sum keeps its precision far from the origin.
    pub fn shapes<C: CornerList + ?Sized>(&self, vertices: &C) -> Vec<Solid> {
        let mut shapes = vec![
            Solid {
                bounds: Aabb::EMPTY,
                inward: false,
            };
            self.count as usize
        ];
        let mut volumes: Vec<Option<(DVec3, f64)>> = vec![None; self.count as usize];
        for t in 0..vertices.corner_count() / 3 {
            let Some(s) = self.solid_of(t) else {
                continue;
            };
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from(vertices.corner(3 * t + k)));
            let shape = &mut shapes[s as usize];
            shape.bounds = shape.bounds.grown(a).grown(b).grown(c);
            let (origin, volume) = volumes[s as usize].get_or_insert((a.as_dvec3(), 0.0));
            let [a, b, c] = [a, b, c].map(|v| v.as_dvec3() - *origin);
            *volume += a.dot(b.cross(c));
        }
        for (shape, v) in shapes.iter_mut().zip(volumes) {
            shape.inward = v.is_some_and(|(_, volume)| volume < 0.0);
        }
        shapes
    }
}

/// Entries in the tables of recently seen positions and edges: a power of two, small
/// enough for the processor's cache (4,096 of 16 bytes: 64 KiB).
const RECENT: usize = 4096;

/// The slot of a key whose bits are mixed into `h` (Fibonacci hashing, Knuth 6.4).
fn recent_slot(h: u32) -> usize {
    (h.wrapping_mul(0x9E37_79B9) >> (32 - RECENT.trailing_zeros())) as usize
}

/// The root of `x`'s set, halving the path on the way.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// Join the sets of `a` and `b`.
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        // The smaller root under the larger: roots only grow, so no cycle.
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        parent[lo as usize] = hi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cull::fixtures::{cube, turned, vertex};
    use crate::map::Vertex;

    /// The solids of `v` and their shapes.
    fn found(v: &[Vertex]) -> (Solids, Vec<Solid>) {
        let s = closed_solids(v);
        let shapes = s.shapes(v);
        (s, shapes)
    }

    #[test]
    fn a_cube_is_one_closed_solid_wound_outward() {
        let (s, shapes) = found(&cube(Vec3::ZERO, Vec3::ONE));
        assert_eq!(s.count, 1);
        assert_eq!(s.of_triangle, vec![0; 12]);
        assert!(!shapes[0].inward);
        assert_eq!(shapes[0].bounds.min, Vec3::ZERO);
        assert_eq!(shapes[0].bounds.max, Vec3::ONE);
        // The test's own winding is outward: each face's normal points away from the
        // centre.
        for t in cube(Vec3::ZERO, Vec3::ONE).chunks_exact(3) {
            let p = |k: usize| Vec3::from(t[k].position);
            let n = (p(1) - p(0)).cross(p(2) - p(0));
            assert!(n.dot(p(0) - Vec3::splat(0.5)) > 0.0);
        }
    }

    #[test]
    fn a_cube_wound_inward_is_closed_and_says_so() {
        let (s, shapes) = found(&turned(&cube(Vec3::ZERO, Vec3::ONE)));
        assert_eq!(s.count, 1);
        assert!(shapes[0].inward);
    }

    #[test]
    fn a_box_open_at_one_side_or_with_a_face_turned_is_not_closed() {
        let full = cube(Vec3::ZERO, Vec3::ONE);
        // The last face (two triangles) left out: four edges unmatched.
        let open = &full[..30];
        assert_eq!(closed_solids(open).closed_triangles(), 0);
        // One triangle turned: its edges walked the same way as its neighbours'.
        let mut flipped = full.clone();
        flipped.swap(1, 2);
        assert_eq!(closed_solids(flipped.as_slice()).closed_triangles(), 0);
    }

    #[test]
    fn two_cubes_and_an_open_wall_are_told_apart() {
        let mut v = cube(Vec3::ZERO, Vec3::ONE);
        v.extend(turned(&cube(Vec3::splat(5.0), Vec3::splat(6.0))));
        // A single quad: seen from both sides, never closed.
        let wall = [
            Vec3::new(0.0, 0.0, 9.0),
            Vec3::new(1.0, 0.0, 9.0),
            Vec3::new(1.0, 1.0, 9.0),
            Vec3::new(0.0, 1.0, 9.0),
        ];
        v.extend([0, 1, 2, 0, 2, 3].map(|i| vertex(wall[i])));
        let (s, shapes) = found(&v);
        assert_eq!(s.count, 2);
        assert!(s.of_triangle[..12].iter().all(|&x| x == 0));
        assert!(s.of_triangle[12..24].iter().all(|&x| x == 1));
        assert!(s.of_triangle[24..].iter().all(|&x| x == NO_SOLID));
        assert!(!shapes[0].inward && shapes[1].inward);
        assert_eq!(shapes[1].bounds.min, Vec3::splat(5.0));
        // Turned a quarter about y and scaled, as a map is after the frame survey: the
        // same solids, their shapes from the positions as they are now.
        let moved: Vec<Vertex> = v
            .iter()
            .map(|x| {
                let p = Vec3::from(x.position);
                vertex(Vec3::new(p.z, p.y, -p.x) * 0.5)
            })
            .collect();
        let shapes = s.shapes(moved.as_slice());
        assert!(!shapes[0].inward && shapes[1].inward);
        assert_eq!(shapes[1].bounds.min, Vec3::new(2.5, 2.5, -3.0));
    }

    #[test]
    fn a_panel_drawn_back_to_back_is_closed() {
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let v: Vec<Vertex> = [p[0], p[1], p[2], p[0], p[2], p[1]]
            .into_iter()
            .map(vertex)
            .collect();
        let s = closed_solids(v.as_slice());
        assert_eq!(s.of_triangle, vec![0, 0]);
    }

    #[test]
    fn corners_at_minus_zero_join_those_at_zero() {
        let mut v = cube(Vec3::ZERO, Vec3::ONE);
        for x in &mut v {
            x.position = x.position.map(|c| if c == 0.0 { -0.0 } else { c });
        }
        v[0].position[0] = 0.0;
        assert_eq!(closed_solids(v.as_slice()).closed_triangles(), 12);
    }

    #[test]
    fn degenerate_triangles_belong_to_no_solid_and_do_not_open_one() {
        let mut v = cube(Vec3::ZERO, Vec3::ONE);
        v.extend([Vec3::ZERO, Vec3::ZERO, Vec3::ONE].map(vertex));
        let s = closed_solids(v.as_slice());
        assert_eq!(s.closed_triangles(), 12);
        assert_eq!(s.of_triangle[12], NO_SOLID);
        // A trailing vertex short of a triangle is no triangle.
        v.push(vertex(Vec3::X));
        assert_eq!(closed_solids(v.as_slice()).of_triangle.len(), 13);
    }

    #[test]
    fn far_from_the_origin_a_solids_volume_keeps_its_sign() {
        let far = Vec3::new(1.0e4, 2.0e4, -3.0e4);
        let small = cube(far, far + Vec3::splat(0.05));
        assert!(!found(&small).1[0].inward);
        assert!(found(&turned(&small)).1[0].inward);
    }
}
