//! Triangles split in space: halves at the median of their centres, again and again,
//! into pieces of a few, each piece's neighbour in space its neighbour in the sequence
//! (the clusters and meshlets of the map, and of its levels of detail).

use glam::Vec3;

use crate::geometry::Aabb;

/// A triangle (by its place in its batch) with its centre beside it: the splits read
/// the centres in order, not scattered over the whole map (a third of the time).
#[derive(Clone, Copy, Debug)]
pub struct Centred {
    pub centre: Vec3,
    pub triangle: u32,
}

/// Split the triangles `order` in halves at the median of their centres along the longest
/// side of the centres' bounds, again and again, until a piece holds at most `max` (at
/// least 1); hand each piece to `piece` (which may reorder it), in spatial order: a
/// piece's neighbour in space tends to be its neighbour in the sequence.
pub fn median_split(order: &mut [Centred], max: usize, piece: &mut impl FnMut(&mut [Centred])) {
    let max = max.max(1);
    let mut pending = vec![(0usize, order.len())];
    while let Some((lo, hi)) = pending.pop() {
        let part = &mut order[lo..hi];
        if part.len() <= max {
            if !part.is_empty() {
                piece(part);
            }
            continue;
        }
        let spread = part
            .iter()
            .fold(Aabb::EMPTY, |b, t| b.grown(t.centre))
            .size();
        let axis = spread.max_position();
        let mid = part.len() / 2;
        part.select_nth_unstable_by(mid, |a, b| a.centre[axis].total_cmp(&b.centre[axis]));
        // The first half last, so it is handed over first: pieces stay in spatial order.
        pending.push((lo + mid, hi));
        pending.push((lo, lo + mid));
    }
}
