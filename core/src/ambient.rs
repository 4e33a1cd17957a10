//! Ambient occlusion baked per vertex: how much of the sky and ground light reaches each
//! of a mesh's vertices, found once on the CPU with rays through a BVH of the mesh's own
//! triangles (the collision tree's, [`CollisionWorld::ray_cast`]). Corners, the foot of a
//! wall, the bottom of a box on a floor darken; an open floor keeps all its light.
//!
//! Each vertex casts [`AMBIENT_RAYS`] rays over the hemisphere about its normal, spread by
//! the cosine of their angle to it (so the share of rays that get out is the share of
//! diffuse light that comes in: Zhukov, Iones and Kronin, "An ambient light illumination
//! model", 1998; Landis, "Production-ready global illumination", SIGGRAPH 2002 course 16).
//! A ray that meets a triangle within [`AMBIENT_REACH`] darkens by how near the triangle
//! is, `1 - (distance / reach)^2` (a wall a hand away darkens nearly fully, one at half the
//! reach three quarters, one at the reach not at all), so a room's walls do not darken
//! its middle.
//!
//! The shader spreads a vertex's value over its triangles. Where an edge is far longer
//! than the reach (a wall of two triangles, 10 m wide; a pillar 3 m tall), a corner's
//! darkness would spread along the whole of it: such vertices fade to no darkening
//! ([`AMBIENT_SPREAD`]), and a map tessellated finer shows finer occlusion.
//!
//! Rays are cast from one point for all the vertices of a small cell facing about the same
//! way ([`AMBIENT_CELL`]). The result is kept in the cache folder
//! ([`crate::session::cache::ambient`]).

use glam::Vec3;

use crate::collision::CollisionWorld;
use crate::cull::ClusteredMesh;

/// Rays cast from each vertex.
pub const AMBIENT_RAYS: usize = 16;

/// How far an occluder darkens a vertex, metres: a ray that meets nothing within it got
/// out. About an arm's length: a table's top darkens the floor under it, a room's
/// opposite wall does not.
pub const AMBIENT_REACH: f32 = 1.0;

/// Rays start this far off the surface along the vertex's normal, metres, so that they do
/// not meet the triangles they start on (a millimetre's worth of float error at a
/// kilometre from the origin is far less).
pub const AMBIENT_LIFT: f32 = 0.005;

/// A vertex with an edge at least this many reaches long keeps all its light (its value
/// would be spread along that edge, far past where the occluder darkens); from edges of
/// one reach up its darkening fades to none here (see the module's notes).
pub const AMBIENT_SPREAD: f32 = 3.0;

/// A side of a vertex whose open share ([`open_share`]) is under this is shut in: its
/// normal points into a solid (a box's face wound inward), and the other side is tried.
/// A real corner's side keeps more than this open (a room's corner about a third).
pub const AMBIENT_SHUT_IN: f32 = 0.2;

/// Vertices within a cell this wide (metres) whose normals point about the same way (see
/// [`NORMAL_STEPS`]) share one point's rays: the occlusion changes over the reach, not
/// over a twentieth of it, and a chair's thousands of vertices need not each cast.
pub const AMBIENT_CELL: f32 = 0.05;

/// Normals count as pointing the same way when their components, times this, round to
/// the same whole numbers (a 30-degree turn at most).
const NORMAL_STEPS: f32 = 2.0;

/// The most triangles a map may have to be baked: its own tree for the rays costs about
/// 100 bytes a triangle beside the collision world's (ten million would take another
/// gigabyte), and the bake a few seconds a million.
pub const AMBIENT_MAX_TRIANGLES: usize = 2_000_000;

/// Points baked between checks that the bake is still wanted.
const CHECK_EVERY: usize = 1024;

/// The golden angle, radians: successive rays turn by it about the normal, so that any
/// number of them spread evenly (Vogel's spiral).
const GOLDEN_ANGLE: f32 = 2.399_963_2;

/// A mesh's ambient occlusion: for each of its vertices
/// ([`ClusteredMesh::vertices`]), the share of ambient light that reaches it, 0 (none)
/// to 255 (all).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ambient {
    /// One a vertex, in the mesh's order.
    pub light: Vec<u8>,
}

/// Why a bake gave no values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotBaked {
    /// `wanted` said no (the map was closed meanwhile).
    NotWanted,
    /// The map has more triangles than [`AMBIENT_MAX_TRIANGLES`].
    TooBig {
        /// The map's triangles.
        triangles: usize,
    },
}

/// Bake `mesh`'s ambient occlusion on `threads` threads (at least one): the same values on
/// any number. `wanted` is asked now and then; once it says no, the bake stops.
pub fn bake(
    mesh: &ClusteredMesh,
    threads: usize,
    wanted: &(dyn Fn() -> bool + Sync),
) -> Result<Ambient, NotBaked> {
    let corners = triangles(mesh);
    if corners.len() > AMBIENT_MAX_TRIANGLES {
        return Err(NotBaked::TooBig {
            triangles: corners.len(),
        });
    }
    let world = CollisionWorld::from_corners(corners.len(), |i| {
        corners[i].map(|v| Vec3::from(mesh.vertices[v as usize].position))
    });
    let around = surroundings(mesh, &corners);
    let samples = Samples::of(mesh, &around);
    let rays = hemisphere();
    let mut open = vec![1.0f32; samples.points.len()];
    let threads = threads.max(1);
    let chunk = open.len().div_ceil(threads).max(1);
    let done = std::thread::scope(|s| {
        let jobs: Vec<_> = open
            .chunks_mut(chunk)
            .zip(samples.points.chunks(chunk))
            .map(|(out, points)| {
                let (world, rays) = (&world, &rays);
                s.spawn(move || {
                    for (out, points) in out.chunks_mut(CHECK_EVERY).zip(points.chunks(CHECK_EVERY))
                    {
                        if !wanted() {
                            return false;
                        }
                        for (o, &(position, normal)) in out.iter_mut().zip(points) {
                            *o = open_either_side(world, rays, position, normal);
                        }
                    }
                    true
                })
            })
            .collect();
        // A thread that panicked bakes nothing: the map is lit without occlusion.
        jobs.into_iter().all(|j| j.join().unwrap_or(false))
    });
    if !done {
        return Err(NotBaked::NotWanted);
    }
    let light = samples
        .of_vertex
        .iter()
        .zip(&around)
        .map(|(&s, a)| {
            let open = open.get(s as usize).copied().unwrap_or(1.0);
            let light = 1.0 - a.keep * (1.0 - open);
            (light.clamp(0.0, 1.0) * 255.0).round() as u8
        })
        .collect();
    Ok(Ambient { light })
}

/// The points the rays are cast from: one for all the vertices in a cell
/// [`AMBIENT_CELL`] wide whose normals point about the same way. Conference's 197k
/// vertices (most of them its chairs') come to 28k points.
struct Samples {
    /// Each point's position and unit normal (its first vertex's).
    points: Vec<(Vec3, Vec3)>,
    /// Each vertex's point (`u32::MAX`: none, it keeps all its light).
    of_vertex: Vec<u32>,
}

impl Samples {
    fn of(mesh: &ClusteredMesh, around: &[Around]) -> Samples {
        let mut first = std::collections::HashMap::new();
        let mut points = Vec::new();
        let of_vertex = mesh
            .vertices
            .iter()
            .zip(around)
            .map(|(v, a)| {
                if a.keep <= 0.0 || a.normal == Vec3::ZERO {
                    return u32::MAX;
                }
                let position = Vec3::from(v.position);
                let cell = (position / AMBIENT_CELL).floor().as_ivec3();
                let way = (a.normal * NORMAL_STEPS).round().as_ivec3();
                *first.entry((cell, way)).or_insert_with(|| {
                    points.push((position, a.normal));
                    (points.len() - 1) as u32
                })
            })
            .collect();
        Samples { points, of_vertex }
    }
}

/// What a vertex's light depends on besides its position.
#[derive(Clone, Copy, Debug)]
struct Around {
    /// The unit normal its hemisphere is about (zero: none, it keeps all its light).
    normal: Vec3,
    /// How much of its darkening it keeps, 0 to 1 (see [`AMBIENT_SPREAD`]).
    keep: f32,
}

/// The map's own triangles (not their levels of detail, which share their vertices), as
/// three indices into the mesh's vertices.
fn triangles(mesh: &ClusteredMesh) -> Vec<[u32; 3]> {
    let end = mesh.clusters[..mesh.originals()]
        .iter()
        .map(|c| (c.first + c.count) as usize)
        .max()
        .unwrap_or(0)
        .min(mesh.indices.len());
    mesh.indices[..end]
        .chunks_exact(3)
        .map(|t| [t[0], t[1], t[2]])
        .filter(|t| t.iter().all(|&v| (v as usize) < mesh.vertices.len()))
        .collect()
}

/// Each vertex's normal and how much darkening it keeps: its own normal where the file
/// gave one, else the sum of its triangles' normals weighted by their areas (a corner
/// shared by a floor and a wall looks into the room between them); and its longest edge.
fn surroundings(mesh: &ClusteredMesh, corners: &[[u32; 3]]) -> Vec<Around> {
    let n = mesh.vertices.len();
    let mut normal_sum = vec![Vec3::ZERO; n];
    let mut longest = vec![0.0f32; n];
    for t in corners {
        let p = t.map(|v| Vec3::from(mesh.vertices[v as usize].position));
        let face = (p[1] - p[0]).cross(p[2] - p[0]);
        for (k, &v) in t.iter().enumerate() {
            let v = v as usize;
            normal_sum[v] += face;
            let (a, b, c) = (p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
            longest[v] = longest[v].max(a.distance(b)).max(a.distance(c));
        }
    }
    (0..n)
        .map(|v| {
            let given = Vec3::from(mesh.vertices[v].normal);
            let normal = if given.length_squared() > 0.0 {
                given
            } else {
                normal_sum[v]
            }
            .normalize_or_zero();
            let spread = longest[v] / AMBIENT_REACH;
            let keep = if spread > 0.0 && spread.is_finite() {
                1.0 - ((spread - 1.0) / (AMBIENT_SPREAD - 1.0)).clamp(0.0, 1.0)
            } else {
                0.0
            };
            Around { normal, keep }
        })
        .collect()
}

/// The rays' directions about +Z, spread by the cosine of their angle to it: point `k`
/// of Vogel's spiral on the unit disc, lifted onto the hemisphere (Malley's method).
fn hemisphere() -> [Vec3; AMBIENT_RAYS] {
    std::array::from_fn(|k| {
        let u = (k as f32 + 0.5) / AMBIENT_RAYS as f32;
        let (r, angle) = (u.sqrt(), k as f32 * GOLDEN_ANGLE);
        Vec3::new(r * angle.cos(), r * angle.sin(), (1.0 - u).sqrt())
    })
}

/// The share of light open to a point at `position` with unit normal `normal`, 0 to 1:
/// from its normal's side, or, where that side is shut in (the normal points into a
/// solid: a file's winding is not to be trusted), the other side's where that is
/// brighter.
fn open_either_side(
    world: &CollisionWorld,
    rays: &[Vec3; AMBIENT_RAYS],
    position: Vec3,
    normal: Vec3,
) -> f32 {
    let open = open_share(world, rays, position, normal);
    if open < AMBIENT_SHUT_IN {
        open.max(open_share(world, rays, position, -normal))
    } else {
        open
    }
}

/// The share of the hemisphere about the unit normal `n` at `position` that is open, 0
/// to 1, each ray weighed as the module's notes say.
fn open_share(world: &CollisionWorld, rays: &[Vec3; AMBIENT_RAYS], position: Vec3, n: Vec3) -> f32 {
    let (x, y) = n.any_orthonormal_pair();
    let origin = position + n * AMBIENT_LIFT;
    let blocked: f32 = rays
        .iter()
        .map(|r| {
            let dir = x * r.x + y * r.y + n * r.z;
            world
                .ray_cast(origin, dir, AMBIENT_REACH)
                .map_or(0.0, |hit| 1.0 - (hit.distance / AMBIENT_REACH).powi(2))
        })
        .sum();
    1.0 - blocked / AMBIENT_RAYS as f32
}

#[cfg(test)]
mod tests;
