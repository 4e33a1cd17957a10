//! How far a cluster's corners lie from a simpler surface: a level's error, measured
//! (meshoptimizer's own is an estimate), the nearest triangle to each corner found in a
//! uniform grid of cells; the buckets that grid (and the welding of corners) sort into.

use glam::Vec3;

use crate::geometry::{Aabb, closest_point};

/// Triangles in cells of a uniform grid, for the nearest of them to a point.
#[derive(Default)]
pub(super) struct Grid {
    /// The triangles of each cell.
    cells: Buckets,
}

/// Items sorted into numbered buckets, an item in any number of them (a counting sort):
/// the memory kept from one filling to the next.
#[derive(Default)]
pub(super) struct Buckets {
    /// Bucket `k`'s items are `items[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Where each bucket's next item goes, while filling.
    next: Vec<u32>,
}

impl Buckets {
    /// Sort items `0..count` into `buckets` buckets: `into(item, put)` calls `put` with
    /// each bucket the item goes in (twice over: once to count, once to place).
    pub(super) fn fill(
        &mut self,
        buckets: usize,
        count: usize,
        into: impl Fn(usize, &mut dyn FnMut(usize)),
    ) {
        let Buckets {
            starts,
            items,
            next,
        } = self;
        starts.clear();
        starts.resize(buckets + 1, 0);
        for t in 0..count {
            into(t, &mut |k| starts[k + 1] += 1);
        }
        for k in 0..buckets {
            starts[k + 1] += starts[k];
        }
        items.clear();
        items.resize(starts[buckets] as usize, 0);
        next.clone_from(starts);
        for t in 0..count {
            into(t, &mut |k| {
                items[next[k] as usize] = t as u32;
                next[k] += 1;
            });
        }
    }

    /// Bucket `k`'s items.
    pub(super) fn get(&self, k: usize) -> &[u32] {
        &self.items[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
}

/// Cells a side of a [`Grid`] at most (fewer where the box is thin).
const GRID_CELLS: f32 = 16.0;

impl Grid {
    /// How far the farthest of `positions` lies from the surface of `triangles` (three
    /// indices into `positions` each) within `bounds` (which holds them all): the
    /// one-sided Hausdorff distance from the cluster's corners to a level of it, the
    /// largest of each corner's distance to its nearest triangle (Ericson 5.1.5), found
    /// by searching rings of grid cells outward until none can hold a nearer one.
    pub(super) fn deviation(
        &mut self,
        positions: &[[f32; 3]],
        triangles: &[u32],
        bounds: Aabb,
    ) -> f32 {
        let size = bounds.size();
        let cell = (size.max_element() / GRID_CELLS).max(f32::MIN_POSITIVE);
        let dims = (size / cell).ceil().max(Vec3::ONE).as_uvec3();
        let cell_of = |p: Vec3| {
            ((p - bounds.min) / cell)
                .floor()
                .max(Vec3::ZERO)
                .as_uvec3()
                .min(dims - 1)
        };
        let index = |c: glam::UVec3| ((c.z * dims.y + c.y) * dims.x + c.x) as usize;
        let corners =
            |t: usize| [0, 1, 2].map(|k| Vec3::from(positions[triangles[3 * t + k] as usize]));
        let count = triangles.len() / 3;
        // Each triangle in every cell its box meets.
        let cells = (dims.x * dims.y * dims.z) as usize;
        let span = |t: usize| {
            let p = corners(t);
            let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
            (cell_of(lo), cell_of(hi))
        };
        let each_cell = |(lo, hi): (glam::UVec3, glam::UVec3), f: &mut dyn FnMut(usize)| {
            for z in lo.z..=hi.z {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        f(index(glam::UVec3::new(x, y, z)));
                    }
                }
            }
        };
        self.cells
            .fill(cells, count, |t, put| each_cell(span(t), put));
        // A corner the level keeps lies on it; of the others, only whether one lies
        // further than the farthest so far matters, so each search stops at the first
        // triangle nearer than that.
        let mut kept = vec![false; positions.len()];
        for &i in triangles {
            kept[i as usize] = true;
        }
        let mut worst = 0.0f64;
        for (p, _) in positions.iter().zip(&kept).filter(|(_, kept)| !**kept) {
            let p = Vec3::from(*p);
            let home = cell_of(p);
            let mut best = f64::MAX;
            'rings: for ring in 0..=dims.max_element() {
                // The cells `ring` cells from the point's (the shell of the cube).
                let lo = home.saturating_sub(glam::UVec3::splat(ring));
                let hi = (home + ring).min(dims - 1);
                for z in lo.z..=hi.z {
                    for y in lo.y..=hi.y {
                        for x in lo.x..=hi.x {
                            let c = glam::UVec3::new(x, y, z);
                            let away = c.as_ivec3() - home.as_ivec3();
                            if away.abs().max_element() != ring as i32 {
                                continue;
                            }
                            let k = index(c);
                            for &t in self.cells.get(k) {
                                let tri = corners(t as usize);
                                // No nearer than its box: most are passed over here.
                                let lo = tri[0].min(tri[1]).min(tri[2]);
                                let hi = tri[0].max(tri[1]).max(tri[2]);
                                let outside = (lo - p).max(p - hi).max(Vec3::ZERO);
                                if f64::from(outside.length()) >= best {
                                    continue;
                                }
                                let tri = tri.map(|c| c.as_dvec3());
                                let d = closest_point(p.as_dvec3(), tri)
                                    .point
                                    .distance(p.as_dvec3());
                                best = best.min(d);
                                if best <= worst {
                                    break 'rings;
                                }
                            }
                        }
                    }
                }
                // A cell outside this ring lies at least `ring` cells from the point.
                if best <= f64::from(ring as f32 * cell) {
                    break;
                }
            }
            if best < f64::MAX {
                worst = worst.max(best);
            }
        }
        worst as f32
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use crate::cull::clusters::{CLUSTER_TRIANGLES, cluster_map};
    use crate::cull::fixtures::{
        farthest_corner, grid, no_uv, one_material, triangles, with_levels,
    };

    #[test]
    fn each_levels_error_is_how_far_the_clusters_corners_lie_from_it() {
        // Sheets curved every way (meshoptimizer's own error figure understated the real
        // distance up to sevenfold on these): each level's error is measured, and is the
        // farthest any corner of the sheet lies from the level, found here by brute force.
        let mut levels_seen = 0;
        for (fa, fb, amp) in [
            (3.0, 2.0, 0.2),
            (5.0, 1.0, 0.1),
            (1.0, 7.0, 0.3),
            (8.0, 8.0, 0.05),
        ] {
            for n in [24usize, 32] {
                let at = |u: f32, v: f32| {
                    Vec3::new(4.0 * u, amp * (fa * u).sin() * (fb * v).cos(), 4.0 * v)
                };
                let original = cluster_map(&one_material(grid(n, at, no_uv)), CLUSTER_TRIANGLES);
                let mesh = with_levels(original.clone(), &[false]);
                let mut last = 0.0;
                for l in &mesh.levels[0] {
                    let level = triangles(&mesh, l.cluster);
                    let worst = farthest_corner(&original, &level) as f32;
                    assert!(
                        worst <= l.error * (1.0 + 1e-5),
                        "{worst} beyond {}",
                        l.error
                    );
                    // Measured, not guessed: the error is that distance (or the last level's,
                    // errors never shrinking from level to level).
                    assert!(
                        (l.error - worst.max(last)).abs() <= 1e-5 * l.error,
                        "error {} for a distance of {worst}",
                        l.error
                    );
                    last = l.error;
                    levels_seen += 1;
                }
            }
        }
        assert!(levels_seen >= 10, "{levels_seen} levels");
    }
}
