//! Which of the map's triangles lie wholly in the sun's shade, found on the CPU from the
//! shadow map read back: those are drawn without the shadow lookup, which is most of the
//! lit light's cost on a software rasterizer (docs/lighting.md).
//!
//! The shadow pass writes, beside each texel's depth, the number of the map's triangle
//! nearest the sun there (its owner). A triangle is in shade when, at every texel centre
//! its footprint in the map covers, another triangle owns the texel and lies nearer the
//! sun than it does. Both depths are taken from the triangles' own planes, not from the
//! map, whose depths are biased: so a floor under a wall's foot, or a wall's top under
//! the ceiling, is in shade where the two touch, while a triangle seen by the sun owns
//! its own texels and is lit. What this cannot see, it leaves to the shader: a triangle
//! that covers no texel centre is tested as a whole against the map's farthest depths
//! ([`super::shadow::ShadeTest`]), and a level of detail is in shade only where all of its
//! original cluster is.
//!
//! The shader's soft edge reaches about two texels past a shadow's edge; a triangle found
//! in shade is drawn without it, so where one's edge lies within that reach of a sunlit
//! patch, the patch's soft edge stops at the triangle's edge. Light leaking through the
//! foot of a wall thinner than the filter's reach stops the same way (rightly).

use glam::{Mat4, Vec3};
use walkthrough_core::cull::{ClusteredMesh, Meshlet, TriangleSet};
use walkthrough_core::geometry::Aabb;

use super::shadow::ShadeTest;

/// How much nearer the sun (in metres) another triangle must lie than a triangle, at a
/// texel, to shade it there: more than the rounding of two planes' depths at a point,
/// less than anything a map models (a decal's lift above its wall is millimetres).
pub const SHADE_MIN_GAP: f32 = 1e-4;

/// The shadow pass's owners read back: for each texel (bottom row first), 0 where no
/// triangle of the map was drawn, else one more than the number of the triangle (its
/// place in the mesh's index list, over three) nearest the sun there.
pub struct Owners<'a> {
    /// Texels a side.
    pub size: usize,
    pub texels: &'a [u32],
}

/// Threads that share the test (the machine's cores, at most this many).
const SHADE_THREADS: usize = 4;

/// The shadow map read back, with how to test triangles against it.
pub struct SunView<'a> {
    /// World to the map's texture space, depth 0 nearest the sun.
    pub to_texture: Mat4,
    pub owners: Owners<'a>,
    /// The map's farthest depths, for triangles too small for a texel centre.
    pub coarse: ShadeTest<'a>,
    /// [`SHADE_MIN_GAP`] in the map's depth.
    pub min_gap: f32,
}

/// For each of `mesh`'s meshlets, its triangles wholly in shade in the map `view` holds.
/// The first `known.len()` meshlets' are taken from `known` (found against the same map
/// before the levels of detail were added).
pub fn shaded_triangles(
    mesh: &ClusteredMesh,
    view: &SunView,
    known: &[TriangleSet],
) -> Vec<TriangleSet> {
    let size = view.owners.size as f32;
    // Every vertex in texels (centres at whole numbers) and depth.
    let texel = |p: Vec3| {
        let t = view.to_texture.project_point3(p);
        Vec3::new(t.x * size - 0.5, t.y * size - 0.5, t.z)
    };
    let original_triangles = mesh
        .clusters
        .get(mesh.originals())
        .map_or(mesh.indices.len(), |c| c.first as usize)
        / 3;
    let mut shade = known[..known.len().min(mesh.meshlets.len())].to_vec();
    if shade.len() < mesh.meshlets.len() {
        let projected: Vec<Vec3> = mesh
            .vertices
            .iter()
            .map(|v| texel(Vec3::from(v.position)))
            .collect();
        let corners = |t: usize| -> [Vec3; 3] {
            std::array::from_fn(|k| projected[mesh.indices[3 * t + k] as usize])
        };
        let test = Footprint {
            owners: &view.owners,
            min_gap: view.min_gap,
            corners: &corners,
        };
        let meshlet_shade = |m: &Meshlet| -> TriangleSet {
            let first = m.first as usize / 3;
            let b = Aabb::from_points(m.bounds.corners().map(texel));
            let off_map = b.max.x < 0.0 || b.max.y < 0.0 || b.min.x > size || b.min.y > size;
            if first >= original_triangles || off_map {
                return 0;
            }
            (0..m.count as usize / 3).fold(0, |set, k| {
                let t = first + k;
                let shaded = match test.shaded(t) {
                    Some(shaded) => shaded,
                    None => view.coarse.holds(corners_in_world(mesh, t)),
                };
                if shaded { set | (1 << k) } else { set }
            })
        };
        let rest = &mesh.meshlets[shade.len()..];
        let threads =
            std::thread::available_parallelism().map_or(1, |n| n.get().min(SHADE_THREADS));
        let piece = rest.len().div_ceil(threads).max(1);
        let found: Vec<Vec<TriangleSet>> = std::thread::scope(|s| {
            let workers: Vec<_> = rest
                .chunks(piece)
                .map(|chunk| s.spawn(|| chunk.iter().map(meshlet_shade).collect()))
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or_default())
                .collect()
        });
        shade.extend(found.into_iter().flatten());
        shade.resize(mesh.meshlets.len(), 0);
    }
    // A level of detail stands for its cluster's surface: in shade where all of that is.
    for (c, levels) in mesh.levels.iter().enumerate() {
        let whole = mesh.clusters[c]
            .meshlets()
            .all(|m| shade[m] == mesh.meshlets[m].all_triangles());
        if whole {
            for l in levels {
                for m in mesh.clusters[l.cluster as usize].meshlets() {
                    shade[m] = mesh.meshlets[m].all_triangles();
                }
            }
        }
    }
    shade
}

/// For each of `mesh`'s meshlets, its flat triangles: those whose corners all have no
/// normal, so the scene shader lights them by their plane's.
pub fn flat_triangles(mesh: &ClusteredMesh) -> Vec<TriangleSet> {
    let flat = |i: u32| mesh.vertices[i as usize].normal == [0.0; 3];
    mesh.meshlets
        .iter()
        .map(|m| {
            let indices = &mesh.indices[m.first as usize..(m.first + m.count) as usize];
            indices.chunks_exact(3).enumerate().fold(0, |set, (k, t)| {
                if t.iter().all(|&i| flat(i)) {
                    set | (1 << k)
                } else {
                    set
                }
            })
        })
        .collect()
}

/// Triangle `t`'s corners in the world.
fn corners_in_world(mesh: &ClusteredMesh, t: usize) -> [Vec3; 3] {
    std::array::from_fn(|k| Vec3::from(mesh.vertices[mesh.indices[3 * t + k] as usize].position))
}

/// The per-texel test of [`shaded_triangles`].
struct Footprint<'a, C: Fn(usize) -> [Vec3; 3]> {
    owners: &'a Owners<'a>,
    min_gap: f32,
    /// A triangle's corners in texels and depth.
    corners: &'a C,
}

impl<C: Fn(usize) -> [Vec3; 3]> Footprint<'_, C> {
    /// Triangle `t` is in shade at every texel centre it covers (`None`: it covers
    /// none, or lies off the map or edge-on, so nothing is known).
    fn shaded(&self, t: usize) -> Option<bool> {
        let [a, b, c] = (self.corners)(t);
        let depth = Plane::through(a, b, c)?;
        let size = self.owners.size as f32;
        let lo = a.min(b).min(c);
        let hi = a.max(b).max(c);
        if lo.x < -0.5 || lo.y < -0.5 || hi.x > size - 0.5 || hi.y > size - 0.5 {
            return None;
        }
        let (x0, x1) = (lo.x.ceil() as usize, hi.x.floor() as usize);
        let (y0, y1) = (lo.y.ceil() as usize, hi.y.floor() as usize);
        // Edge functions, each positive inside whichever way the triangle winds.
        let area = (b - a).truncate().perp_dot((c - a).truncate());
        let sign = area.signum();
        let inside = |x: f32, y: f32| {
            let p = glam::Vec2::new(x, y);
            [(a, b), (b, c), (c, a)]
                .iter()
                .all(|(u, v)| sign * (v - u).truncate().perp_dot(p - u.truncate()) >= 0.0)
        };
        let mut covered = false;
        let mut last: Option<(u32, Option<Plane>)> = None;
        for y in y0..=y1.min(self.owners.size - 1) {
            for x in x0..=x1.min(self.owners.size - 1) {
                let (fx, fy) = (x as f32, y as f32);
                if !inside(fx, fy) {
                    continue;
                }
                covered = true;
                let owner = self.owners.texels[y * self.owners.size + x];
                // Nothing nearer the sun, or this triangle itself: sunlit here.
                if owner == 0 || owner as usize - 1 == t {
                    return Some(false);
                }
                let plane = match last {
                    Some((o, p)) if o == owner => p,
                    _ => {
                        let [oa, ob, oc] = (self.corners)(owner as usize - 1);
                        let p = Plane::through(oa, ob, oc);
                        last = Some((owner, p));
                        p
                    }
                };
                let Some(plane) = plane else {
                    return Some(false);
                };
                if plane.depth(fx, fy) >= depth.depth(fx, fy) - self.min_gap {
                    return Some(false);
                }
            }
        }
        covered.then_some(true)
    }
}

/// A triangle's depth across the map: depth = z0 + dx (x - x0) + dy (y - y0).
#[derive(Clone, Copy)]
struct Plane {
    origin: Vec3,
    dx: f32,
    dy: f32,
}

impl Plane {
    /// The plane through three points in texels and depth (`None`: seen edge-on).
    fn through(a: Vec3, b: Vec3, c: Vec3) -> Option<Plane> {
        let n = (b - a).cross(c - a);
        // Edge-on, or a sliver under a thousandth of a texel: no depth across it.
        if n.z.abs() < 1e-3 {
            return None;
        }
        Some(Plane {
            origin: a,
            dx: -n.x / n.z,
            dy: -n.y / n.z,
        })
    }

    fn depth(&self, x: f32, y: f32) -> f32 {
        self.origin.z + self.dx * (x - self.origin.x) + self.dy * (y - self.origin.y)
    }
}

#[cfg(test)]
mod tests;
