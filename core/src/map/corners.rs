//! The map's drawn corners: three a triangle, grouped by material (see [`super::Batch`]).
//! A map whose every corner takes its face's normal and has no texture coordinates (a
//! file with neither: terrains, scans, CAD exports, conference) keeps their positions
//! alone, 12 bytes a corner where a [`Vertex`] is 32: at ten million triangles 0.36 GB
//! where it was 0.96.

use super::{FLAT_NORMAL, Vertex};

/// The corners of a map's triangles, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Corners {
    /// Each with its own normal and texture coordinates.
    Full(Vec<Vertex>),
    /// Positions alone: each corner's normal is [`FLAT_NORMAL`] (its face's own) and its
    /// texture coordinates zero.
    Positions(Vec<[f32; 3]>),
}

impl Default for Corners {
    fn default() -> Corners {
        Corners::Full(Vec::new())
    }
}

impl Corners {
    /// How many corners (three a triangle).
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            Corners::Full(v) => v.len(),
            Corners::Positions(p) => p.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Corner `i`'s position.
    #[inline]
    pub fn position(&self, i: usize) -> [f32; 3] {
        match self {
            Corners::Full(v) => v[i].position,
            Corners::Positions(p) => p[i],
        }
    }

    /// Corner `i` as a vertex.
    #[inline]
    pub fn get(&self, i: usize) -> Vertex {
        match self {
            Corners::Full(v) => v[i],
            Corners::Positions(p) => Vertex {
                position: p[i],
                normal: FLAT_NORMAL,
                uv: [0.0; 2],
            },
        }
    }

    /// The corners of `range` as vertices, in order.
    pub fn vertices(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl ExactSizeIterator<Item = Vertex> + '_ {
        range.map(|i| self.get(i))
    }

    /// Every corner as a vertex, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Vertex> + '_ {
        self.vertices(0..self.len())
    }

    /// Every corner's position, in order.
    pub fn positions(&self) -> impl ExactSizeIterator<Item = [f32; 3]> + '_ {
        (0..self.len()).map(|i| self.position(i))
    }

    /// The bytes they take.
    pub fn bytes(&self) -> usize {
        match self {
            Corners::Full(v) => std::mem::size_of_val(v.as_slice()),
            Corners::Positions(p) => std::mem::size_of_val(p.as_slice()),
        }
    }

    /// Move every position by `position` and turn every normal by `normal` (a flat
    /// normal, zero, stays zero under a rotation).
    pub fn transform(
        &mut self,
        position: impl Fn([f32; 3]) -> [f32; 3],
        normal: impl Fn([f32; 3]) -> [f32; 3],
    ) {
        match self {
            Corners::Full(v) => v.iter_mut().for_each(|v| {
                v.position = position(v.position);
                // A flat normal stays exactly zero (turned, it could become -0.0: equal,
                // but other bits for whatever keys vertices by their bits).
                if v.normal != FLAT_NORMAL {
                    v.normal = normal(v.normal);
                }
            }),
            Corners::Positions(p) => p.iter_mut().for_each(|p| *p = position(*p)),
        }
    }
}

/// Triangles' corners, three a triangle, read by index: what the closed solids' search
/// reads, of a map's [`Corners`] or of a plain list of vertices.
pub trait CornerList {
    /// How many corners.
    fn corner_count(&self) -> usize;
    /// Corner `i`'s position.
    fn corner(&self, i: usize) -> [f32; 3];
}

impl CornerList for Corners {
    fn corner_count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn corner(&self, i: usize) -> [f32; 3] {
        self.position(i)
    }
}

impl CornerList for [Vertex] {
    fn corner_count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn corner(&self, i: usize) -> [f32; 3] {
        self[i].position
    }
}

impl Corners {
    /// Whether `v` is what its position alone stands for (see [`Corners::get`]): the
    /// flat normal and no texture coordinates.
    pub fn position_alone(v: &Vertex) -> bool {
        v.normal == FLAT_NORMAL && v.uv == [0.0; 2]
    }

    /// `vertices`, as positions alone when every one is flat with no texture
    /// coordinates (what they would be made again as: see [`Corners::get`]).
    pub fn compact(vertices: Vec<Vertex>) -> Corners {
        if vertices.iter().all(Corners::position_alone) {
            Corners::Positions(vertices.iter().map(|v| v.position).collect())
        } else {
            Corners::Full(vertices)
        }
    }
}

impl FromIterator<Vertex> for Corners {
    fn from_iter<I: IntoIterator<Item = Vertex>>(iter: I) -> Corners {
        Corners::Full(iter.into_iter().collect())
    }
}

impl From<Vec<Vertex>> for Corners {
    fn from(v: Vec<Vertex>) -> Corners {
        Corners::Full(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_read_as_the_vertices_they_stand_for() {
        let p = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]];
        let full = Corners::Full(
            p.iter()
                .map(|&position| Vertex {
                    position,
                    normal: FLAT_NORMAL,
                    uv: [0.0; 2],
                })
                .collect(),
        );
        let mut plain = Corners::Positions(p.to_vec());
        assert_eq!(plain.len(), 3);
        assert!(plain.iter().eq(full.iter()));
        assert!(plain.positions().eq(p));
        assert_eq!((plain.bytes(), full.bytes()), (36, 96));
        plain.transform(
            |[x, y, z]| [x, -z, y],
            |_| unreachable!("no normals to turn"),
        );
        assert_eq!(plain.position(2), [7.0, -9.0, 8.0]);
        assert_eq!(plain.get(2).normal, FLAT_NORMAL);
    }
}
