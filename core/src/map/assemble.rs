//! The faces tobj read made into the map's triangles: triangulated (ear clipping for a
//! concave polygon), turned into world coordinates, given normals and texture
//! coordinates, one list per material; faces with non-finite corners or no area dropped
//! and counted. A corner the file gives no normal (or an unusable one) gets
//! [`FLAT_NORMAL`]: its face's own, found by the shader, so the corners of neighbouring
//! faces are the same vertex and the renderer shares them.

use glam::Vec3;

use super::triangulate::{Kind, MAX_CLIPPED_CORNERS, triangulate};
use super::{Batch, Batched, Corners, MapFrame, MarkedSpawn, Vertex, batch_by_material};
use crate::text::wording::{counted, were};

/// A triangle's unit normal by its winding; `None` without area.
pub fn face_normal(p: [Vec3; 3]) -> Option<Vec3> {
    (p[1] - p[0]).cross(p[2] - p[0]).try_normalize()
}

/// The normal of a corner that takes its face's (the file gives none): zero, which the
/// scene's shader reads as "the face's own plane". A face's own normal at each of its
/// corners made every face's corners vertices of their own (a terrain of ten million
/// triangles drew 22 million vertices where its file has 5 million).
pub const FLAT_NORMAL: [f32; 3] = [0.0; 3];

/// Names of objects that mark the spawn point instead of being geometry.
pub(super) const SPAWN_NAMES: [&str; 4] =
    ["spawn", "player_start", "playerstart", "info_player_start"];

/// Counts of faces that were not simply kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct FaceCounts {
    /// Dropped: a corner with a NaN or infinite coordinate.
    pub(super) non_finite: usize,
    /// Dropped: no area (fewer than three distinct corners, or all in a line).
    pub(super) degenerate: usize,
    /// Concave polygons, triangulated by ear clipping.
    pub(super) concave: usize,
    /// Self-intersecting polygons, fanned.
    pub(super) fallback: usize,
    /// Dropped: concave polygons of more corners than are ear-clipped.
    pub(super) too_large: usize,
}

impl FaceCounts {
    /// One warning for each count that is not zero.
    pub(super) fn warn(&self, shown: &str, warnings: &mut Vec<String>) {
        if self.non_finite > 0 {
            warnings.push(format!(
                "{shown}: dropped {} with non-finite (NaN or infinite) coordinates",
                counted(self.non_finite, "face", "faces")
            ));
        }
        if self.degenerate > 0 {
            warnings.push(format!(
                "{shown}: dropped {} with no area (corners that coincide or lie in a line, as read in 32-bit floats): not drawn, not collided with",
                counted(self.degenerate, "face", "faces")
            ));
        }
        if self.concave > 0 {
            warnings.push(format!(
                "{shown}: {} {} ear-clipped (a fan would be wrong)",
                counted(self.concave, "concave polygon", "concave polygons"),
                were(self.concave)
            ));
        }
        if self.fallback > 0 {
            warnings.push(format!(
                "{shown}: {} {} fanned",
                counted(
                    self.fallback,
                    "self-intersecting polygon",
                    "self-intersecting polygons"
                ),
                were(self.fallback)
            ));
        }
        if self.too_large > 0 {
            warnings.push(format!(
                "{shown}: dropped {} of more than {MAX_CLIPPED_CORNERS} corners (cutting one into triangles takes seconds to minutes): not drawn, not collided with",
                counted(self.too_large, "concave polygon", "concave polygons"),
            ));
        }
    }
}

/// The map's corners in batches of one material, the marked spawn, and what happened to
/// the faces.
pub(super) struct Geometry {
    pub(super) vertices: Corners,
    pub(super) batches: Vec<Batch>,
    pub(super) marked_spawn: Option<MarkedSpawn>,
    pub(super) counts: FaceCounts,
}

/// The corners of one material's triangles, and the rest of [`Geometry`].
struct Assembled<T> {
    per_material: Vec<Vec<T>>,
    marked_spawn: Option<MarkedSpawn>,
    counts: FaceCounts,
}

/// Triangulate every face of `models` into world-space corners in batches of one
/// material: positions alone when no model gives normals or texture coordinates (every
/// corner would be the flat normal and no texture coordinates: see [`Corners`]).
pub(super) fn assemble(models: &[tobj::Model], materials: usize, frame: &MapFrame) -> Geometry {
    assemble_from(models, materials, frame, IN_TWO_MIN)
}

/// [`assemble`], on two threads from `in_two_min` corners.
fn assemble_from(
    models: &[tobj::Model],
    materials: usize,
    frame: &MapFrame,
    in_two_min: usize,
) -> Geometry {
    let given = given_per_model(models);
    // Only the models that become triangles count: tobj ends a file's last `g` or `o`
    // with an empty model, and a spawn marker is no geometry.
    let plain = models
        .iter()
        .zip(&given)
        .filter(|(m, _)| !m.mesh.indices.is_empty() && !spawn_marker(m))
        .all(|(_, g)| !g.normals && !g.uv);
    if plain {
        batched(
            assemble_as(models, &given, materials, frame, in_two_min, |v| v.position),
            Corners::Positions,
        )
    } else {
        // (Normals the file gives may all be unusable, and flat after all.)
        batched(
            assemble_as(models, &given, materials, frame, in_two_min, |v| v),
            Corners::compact,
        )
    }
}

/// Whether a model's corners take the normals and texture coordinates the file gives.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Given {
    normals: bool,
    uv: bool,
}

/// [`Given`] for each model: tobj gives a model's normals (or texture coordinates) for
/// every corner or leaves them out of step with its positions, so they are taken when
/// every corner has them. Decided over each run of models of one name and material: a
/// long object reaches tobj in pieces (`map::pieces`), and its pieces are shaded alike,
/// as the object was when it was one model.
fn given_per_model(models: &[tobj::Model]) -> Vec<Given> {
    let mut given = Vec::with_capacity(models.len());
    let same = |a: &tobj::Model, b: &tobj::Model| {
        a.name == b.name && a.mesh.material_id == b.mesh.material_id
    };
    for run in models.chunk_by(same) {
        let all = |has: fn(&tobj::Mesh) -> bool| run.iter().all(|m| has(&m.mesh));
        let g = Given {
            normals: all(|mesh| mesh.normals.len() == mesh.positions.len()),
            uv: all(|mesh| mesh.texcoords.len() / 2 == mesh.positions.len() / 3),
        };
        given.extend(run.iter().map(|_| g));
    }
    given
}

/// Whether `model` marks the spawn instead of being geometry.
fn spawn_marker(model: &tobj::Model) -> bool {
    is_spawn_name(&model.name)
}

/// Whether an object of this name marks the spawn instead of being geometry.
pub(super) fn is_spawn_name(name: &str) -> bool {
    SPAWN_NAMES
        .iter()
        .any(|n| name.trim().eq_ignore_ascii_case(n))
}

/// `a`'s corners in batches of one material, kept as `corners` makes them.
fn batched<T>(a: Assembled<T>, corners: impl FnOnce(Vec<T>) -> Corners) -> Geometry {
    let Batched { vertices, batches } = batch_by_material(a.per_material);
    Geometry {
        vertices: corners(vertices),
        batches,
        marked_spawn: a.marked_spawn,
        counts: a.counts,
    }
}

/// Maps with fewer corners than this are assembled on one thread.
const IN_TWO_MIN: usize = 1 << 20;

/// [`assemble`]'s work, each corner kept as `keep` makes it of its vertex: the models in
/// two runs of about as many corners, one on each of two threads, from `in_two_min`
/// corners, and what each made put together in order (the same lists as one thread's).
fn assemble_as<T: Clone + Send>(
    models: &[tobj::Model],
    given: &[Given],
    materials: usize,
    frame: &MapFrame,
    in_two_min: usize,
    keep: impl Fn(Vertex) -> T + Sync,
) -> Assembled<T> {
    let corners: usize = models.iter().map(|m| m.mesh.indices.len()).sum();
    let mut so_far = 0;
    let half = models
        .iter()
        .position(|m| {
            so_far += m.mesh.indices.len();
            so_far * 2 >= corners
        })
        .map_or(models.len(), |k| k + 1);
    if corners < in_two_min || half >= models.len() {
        return assemble_run(models, given, materials, frame, &keep);
    }
    let ((first, second), (first_given, second_given)) =
        (models.split_at(half), given.split_at(half));
    let (mut made, after) = std::thread::scope(|s| {
        let after = std::thread::Builder::new()
            .spawn_scoped(s, || {
                assemble_run(second, second_given, materials, frame, &keep)
            })
            .ok();
        let made = assemble_run(first, first_given, materials, frame, &keep);
        let after = match after {
            Some(t) => t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            // No thread to be had: on this one.
            None => assemble_run(second, second_given, materials, frame, &keep),
        };
        (made, after)
    });
    for (list, more) in made.per_material.iter_mut().zip(after.per_material) {
        list.extend(more);
    }
    let (c, more) = (&mut made.counts, after.counts);
    c.non_finite += more.non_finite;
    c.degenerate += more.degenerate;
    c.concave += more.concave;
    c.fallback += more.fallback;
    c.too_large += more.too_large;
    // The last spawn marker marks the spawn.
    made.marked_spawn = after.marked_spawn.or(made.marked_spawn);
    made
}

/// [`assemble_as`] of one run of models, on this thread.
fn assemble_run<T: Clone>(
    models: &[tobj::Model],
    given: &[Given],
    materials: usize,
    frame: &MapFrame,
    keep: &impl Fn(Vertex) -> T,
) -> Assembled<T> {
    let mut per_material: Vec<Vec<T>> = vec![Vec::new(); materials];
    let mut marked_spawn = None;
    let mut counts = FaceCounts::default();
    let mut tris = Vec::new();
    let mut corners = Vec::new();
    for (model, given) in models.iter().zip(given) {
        let mesh = &model.mesh;
        let pos = |i: u32| {
            let i = i as usize * 3;
            frame.to_world(Vec3::new(
                mesh.positions[i],
                mesh.positions[i + 1],
                mesh.positions[i + 2],
            ))
        };
        if spawn_marker(model) {
            let n = mesh.positions.len() / 3;
            if n > 0 {
                let c = (0..n as u32).map(pos).fold(Vec3::ZERO, |a, p| a + p) / n as f32;
                if c.is_finite() {
                    marked_spawn = Some(MarkedSpawn { position: c });
                }
            }
            continue;
        }
        let (has_normals, has_uv) = (given.normals, given.uv);
        let material = mesh.material_id.map_or(0, |m| m + 1).min(materials - 1);
        let triangles_only;
        let arities: &[u32] = if mesh.face_arities.is_empty() {
            triangles_only = vec![3; mesh.indices.len() / 3];
            &triangles_only
        } else {
            &mesh.face_arities
        };
        let mut at = 0usize;
        for &arity in arities {
            let face = &mesh.indices[at..(at + arity as usize).min(mesh.indices.len())];
            at += arity as usize;
            // A face of fewer than three corners (tobj keeps an empty `f` as one of none)
            // is counted where the lines are read, as short: not again here as having no
            // area.
            if arity < 3 {
                continue;
            }
            corners.clear();
            corners.extend(face.iter().map(|&i| pos(i)));
            if !corners.iter().all(|p| p.is_finite()) {
                counts.non_finite += 1;
                continue;
            }
            tris.clear();
            match triangulate(&corners, &mut tris) {
                Kind::Degenerate => counts.degenerate += 1,
                Kind::Concave => counts.concave += 1,
                Kind::Fallback => counts.fallback += 1,
                Kind::TooLarge => counts.too_large += 1,
                Kind::Convex => {}
            }
            for &[a, b, c] in &tris {
                let p = [corners[a], corners[b], corners[c]];
                if face_normal(p).is_none() {
                    counts.degenerate += 1;
                    continue;
                }
                for (k, &ci) in [a, b, c].iter().enumerate() {
                    let idx = face[ci] as usize;
                    let normal = if has_normals {
                        let n = Vec3::from_slice(&mesh.normals[idx * 3..idx * 3 + 3]);
                        frame
                            .rotate_to_world(n)
                            .try_normalize()
                            .map_or(FLAT_NORMAL, Vec3::into)
                    } else {
                        FLAT_NORMAL
                    };
                    let uv = if has_uv {
                        let (u, v) = (mesh.texcoords[idx * 2], mesh.texcoords[idx * 2 + 1]);
                        if u.is_finite() && v.is_finite() {
                            [u, v]
                        } else {
                            [0.0, 0.0]
                        }
                    } else {
                        [0.0, 0.0]
                    };
                    per_material[material].push(keep(Vertex {
                        position: p[k].into(),
                        normal,
                        uv,
                    }));
                }
            }
        }
    }
    Assembled {
        per_material,
        marked_spawn,
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::UpAxis;

    /// tobj's models of `obj` (no material library: `usemtl` names none).
    fn models(obj: &str) -> Vec<tobj::Model> {
        let options = tobj::LoadOptions {
            single_index: true,
            ..Default::default()
        };
        let loaded = tobj::load_obj_buf(&mut obj.as_bytes(), &options, |_| {
            Err(tobj::LoadError::OpenFileFailed)
        });
        loaded.expect("tobj reads it").0
    }

    /// Models assembled on two threads make what they make on one: positions alone, and
    /// with normals and texture coordinates; a spawn marker, a degenerate face, a concave
    /// and a self-intersecting polygon in each run (counted, and the last marker kept).
    #[test]
    fn models_assembled_on_two_threads_are_assembled_as_on_one() {
        let part = |k: usize, corner: &dyn Fn(usize) -> String| {
            let o = 8 * k;
            let c = |i: usize| corner(o + i);
            format!(
                "o spawn\nf {} {} {}\no part{k}\nf {} {} {}\nf {} {} {}\nf {} {} {} {} {}\nf {} {} {} {}\n",
                c(1),
                c(2),
                c(3),
                c(1),
                c(2),
                c(3),
                c(4),
                c(4),
                c(5),
                c(1),
                c(2),
                c(6),
                c(3),
                c(7),
                c(1),
                c(3),
                c(2),
                c(8),
            )
        };
        let vertices: String = (0..24)
            .map(|i| {
                format!(
                    "v {} {} {}\nvt 0.5 {}\nvn 0 1 0\n",
                    i % 5,
                    (i * 7) % 3,
                    i % 2,
                    i % 3
                )
            })
            .collect();
        let plain = |i: usize| i.to_string();
        let full = |i: usize| format!("{i}/{i}/{i}");
        let frame = MapFrame {
            scale: 2.0,
            up: UpAxis::Z,
        };
        for corner in [&plain as &dyn Fn(usize) -> String, &full] {
            let obj = format!(
                "{vertices}{}{}{}",
                part(0, corner),
                part(1, corner),
                part(2, corner)
            );
            let m = models(&obj);
            let made = |in_two_min| {
                let g = assemble_from(&m, 1, &frame, in_two_min);
                format!(
                    "{:?} {:?} {:?} {:?}",
                    g.vertices, g.batches, g.marked_spawn, g.counts
                )
            };
            let one = made(usize::MAX);
            assert_eq!(made(0), one, "{obj}");
            assert!(
                one.contains("degenerate: 3") && one.contains("concave: 3"),
                "{one}"
            );
        }
    }
}
