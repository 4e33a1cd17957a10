//! Placed models: one collision world per model, shared by every placement of it, and
//! moves tested in each model's own space (the model-versus-sphere tutorial's idea).
//!
//! For a placement with world matrix `M` (linear part `L`), a move `p0 -> p0 + d` becomes
//! `M^-1 p0 -> M^-1 (p0 + d)` in model space. The three-step test is affine-invariant: the
//! plane crossing, the fraction `t` along the move and the point-in-triangle answer are the
//! same in both spaces. Only distances change: a model-space plane distance `s` is a world
//! distance `s / |L^-T n|`, so the skin in model space is `SKIN * |L^-T n|` per triangle,
//! and the normal handed back is `L^-T n`, normalised. Points of the skin band are
//! projected onto the plane along the world normal, which in model space is the direction
//! `(L^T L)^-1 n`: so both spaces test the very same points. A bounding sphere and a box, in world
//! space, reject a placement before any of its triangles is looked at.

use glam::{Affine3A, Mat3, Vec3};

use super::segment::Band;
use super::world::BOX_MARGIN;
use super::{Collider, CollisionWorld, Hit};
use crate::geometry::{Aabb, InsideMethod, safe_recip};
use crate::tolerance::{MIN_MOVE, SKIN};

/// One placement of a model.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Index of the model in [`InstancedWorld::models`].
    pub model: usize,
    /// Model space to world space.
    pub to_world: Affine3A,
    to_model: Affine3A,
    /// `L^-T`: model normals to world normals (not normalised).
    normal_to_world: Mat3,
    /// `(L^T L)^-1`: a model normal to the model-space direction of the world normal.
    projection: Mat3,
    /// World-space bounds of the placed model.
    pub bounds: Aabb,
    /// World-space bounding sphere: centre and radius.
    pub sphere: (Vec3, f32),
    /// BVH inflation in model space: the largest model-space skin plus a margin.
    margin: f32,
    /// Added to model triangle indices to make `Hit::triangle` unique across placements.
    triangle_base: u32,
}

/// Models and their placements.
#[derive(Clone, Debug, Default)]
pub struct InstancedWorld {
    /// One collision world per distinct model file, in model space.
    pub models: Vec<CollisionWorld>,
    /// The placements.
    pub instances: Vec<Instance>,
}

impl InstancedWorld {
    /// An empty world; add models and place them.
    pub fn new(models: Vec<CollisionWorld>) -> InstancedWorld {
        InstancedWorld {
            models,
            instances: Vec::new(),
        }
    }

    /// Place `model` with `to_world`. Returns `None` when the transform is not invertible
    /// (a zero scale) or not finite.
    pub fn place(&mut self, model: usize, to_world: Affine3A) -> Option<()> {
        let world = self.models.get(model)?;
        let linear = Mat3::from(to_world.matrix3);
        let det = linear.determinant();
        if !(det.is_finite() && det.abs() > f32::EPSILON && to_world.translation.is_finite()) {
            return None;
        }
        let to_model = to_world.inverse();
        let normal_to_world = linear.inverse().transpose();
        let projection = (linear.transpose() * linear).inverse();
        // The largest stretch of a model normal is the largest singular value of L^-T;
        // the Frobenius norm bounds it from above, cheaply.
        let stretch = (normal_to_world.x_axis.length_squared()
            + normal_to_world.y_axis.length_squared()
            + normal_to_world.z_axis.length_squared())
        .sqrt();
        let mb = world.bounds();
        let corners = (0..8).map(|i| {
            let c = Vec3::new(
                if i & 1 == 0 { mb.min.x } else { mb.max.x },
                if i & 2 == 0 { mb.min.y } else { mb.max.y },
                if i & 4 == 0 { mb.min.z } else { mb.max.z },
            );
            to_world.transform_point3(c)
        });
        let bounds = Aabb::from_points(corners);
        let centre = bounds.center();
        let radius = (bounds.max - centre).length();
        let triangle_base = self.instances.last().map_or(0, |i| {
            i.triangle_base + self.models[i.model].triangles().len() as u32
        });
        self.instances.push(Instance {
            model,
            to_world,
            to_model,
            normal_to_world,
            projection,
            bounds,
            sphere: (centre, radius),
            margin: SKIN * stretch + BOX_MARGIN,
            triangle_base,
        });
        Some(())
    }

    /// Every placed triangle in world space (for rendering, spawn finding and tests).
    pub fn baked_triangles(&self) -> impl Iterator<Item = [Vec3; 3]> + '_ {
        self.instances.iter().flat_map(move |inst| {
            self.models[inst.model]
                .triangles()
                .iter()
                .map(move |t| t.vertices().map(|v| inst.to_world.transform_point3(v)))
        })
    }
}

/// Could the move `p0 -> p0 + d` come within `reach` of the sphere?
fn segment_near_sphere(p0: Vec3, d: Vec3, (c, r): (Vec3, f32), reach: f32) -> bool {
    let len2 = d.length_squared();
    let t = if len2 > 0.0 {
        ((c - p0).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p0 + d * t - c).length_squared() <= (r + reach) * (r + reach)
}

impl Collider for InstancedWorld {
    fn first_hit(&self, p0: Vec3, d: Vec3, method: InsideMethod) -> Option<Hit> {
        if !(p0.is_finite() && d.is_finite()) || d.length() < MIN_MOVE {
            return None;
        }
        let inv = safe_recip(d);
        let reach = SKIN + BOX_MARGIN;
        let mut best: Option<Hit> = None;
        for inst in &self.instances {
            // Cheap rejections in world space first: the sphere, then the box.
            if !segment_near_sphere(p0, d, inst.sphere, reach) {
                continue;
            }
            let t_max = best.map_or(1.0, |h| h.t);
            if inst
                .bounds
                .ray_entry_inflated(p0, inv, t_max, reach)
                .is_none()
            {
                continue;
            }
            // The same three-step test, in the model's own space.
            let mp0 = inst.to_model.transform_point3(p0);
            let md = inst.to_model.transform_vector3(d);
            let (g, proj) = (inst.normal_to_world, inst.projection);
            let world = &self.models[inst.model];
            let hit = world.first_hit_with(mp0, md, method, inst.margin, |tri| {
                let n = tri.plane.normal;
                let u = proj * n;
                Band {
                    skin: SKIN * (g * n).length(),
                    along: u / n.dot(u),
                }
            });
            if let Some(h) = hit {
                let normal = (g * h.normal).try_normalize().unwrap_or(h.normal);
                let h = Hit {
                    t: h.t,
                    triangle: inst.triangle_base + h.triangle,
                    normal,
                };
                best = Some(h.earlier(best));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn unit_wall() -> CollisionWorld {
        let (a, b, c, d) = (
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(-1.0, 1.0, 0.0),
        );
        CollisionWorld::new([[a, b, c], [a, c, d]])
    }

    #[test]
    fn singular_placement_is_refused() {
        let mut w = InstancedWorld::new(vec![unit_wall()]);
        assert!(
            w.place(0, Affine3A::from_scale(Vec3::new(1.0, 0.0, 1.0)))
                .is_none()
        );
        assert!(w.place(3, Affine3A::IDENTITY).is_none());
        assert!(w.place(0, Affine3A::IDENTITY).is_some());
    }

    #[test]
    fn stretched_wall_stops_at_the_world_skin() {
        // Scaled 10 along its normal: a model-space skin of SKIN would be 10 x SKIN in the
        // world. The per-normal skin keeps it exactly SKIN.
        let mut w = InstancedWorld::new(vec![unit_wall()]);
        let m = Affine3A::from_scale_rotation_translation(
            Vec3::new(3.0, 1.0, 10.0),
            Quat::from_rotation_y(0.3),
            Vec3::new(0.0, 0.0, -5.0),
        );
        w.place(0, m).unwrap();
        let n = (m.matrix3 * Vec3::Z).normalize();
        let start = Vec3::new(0.0, 0.0, -5.0) + (m.matrix3 * Vec3::Z).normalize() * 2.0;
        let o = w.resolve_move(
            start,
            -n * 4.0,
            crate::collision::Response::Stop,
            InsideMethod::Barycentric,
        );
        let plane_d = n.dot(o.end - Vec3::new(0.0, 0.0, -5.0));
        assert!((plane_d - SKIN).abs() < 1e-4, "{plane_d}");
    }
}
