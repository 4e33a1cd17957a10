//! Axis-aligned bounding boxes and the segment slab test used by the BVH.

use glam::{Vec3, Vec3A};

/// An axis-aligned box. The empty box has `min = +inf`, `max = -inf`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Default for Aabb {
    fn default() -> Self {
        Aabb::EMPTY
    }
}

impl Aabb {
    /// The box that contains nothing; growing it by a point gives that point.
    pub const EMPTY: Aabb = Aabb {
        min: Vec3::splat(f32::INFINITY),
        max: Vec3::splat(f32::NEG_INFINITY),
    };

    /// The smallest box containing all `points`.
    pub fn from_points(points: impl IntoIterator<Item = Vec3>) -> Aabb {
        points.into_iter().fold(Aabb::EMPTY, |b, p| b.grown(p))
    }

    /// True when the box contains no point.
    pub fn is_empty(&self) -> bool {
        self.min.x > self.max.x || self.min.y > self.max.y || self.min.z > self.max.z
    }

    /// This box grown to contain `p`.
    #[inline]
    pub fn grown(self, p: Vec3) -> Aabb {
        Aabb {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// The smallest box containing both boxes.
    #[inline]
    pub fn union(self, other: Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// This box with every face pushed out by `margin`.
    pub fn inflated(self, margin: f32) -> Aabb {
        self.inflated_by(Vec3::splat(margin))
    }

    /// This box grown by `margin.x` along x on both sides, and so on.
    pub fn inflated_by(self, margin: Vec3) -> Aabb {
        Aabb {
            min: self.min - margin,
            max: self.max + margin,
        }
    }

    /// Centre point.
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Edge lengths.
    pub fn size(&self) -> Vec3 {
        (self.max - self.min).max(Vec3::ZERO)
    }

    /// The squared distance from `p` to the nearest point of the box (0 inside it).
    pub fn distance_squared_to(&self, p: Vec3) -> f32 {
        (self.min - p)
            .max(p - self.max)
            .max(Vec3::ZERO)
            .length_squared()
    }

    /// The eight corners, corner `i` taking `max` on the axes whose bit is set in `i`
    /// (x: 1, y: 2, z: 4).
    pub fn corners(&self) -> [Vec3; 8] {
        std::array::from_fn(|i| {
            Vec3::new(
                if i & 1 == 0 { self.min.x } else { self.max.x },
                if i & 2 == 0 { self.min.y } else { self.max.y },
                if i & 4 == 0 { self.min.z } else { self.max.z },
            )
        })
    }

    /// Do the two boxes share a point (touching counts)?
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }

    /// Does this box hold all of `other`?
    pub fn contains_box(&self, other: &Aabb) -> bool {
        self.min.cmple(other.min).all() && other.max.cmple(self.max).all()
    }

    /// True when `p` lies inside or on the box.
    pub fn contains(&self, p: Vec3) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }

    /// Slab test: the parameter at which the ray `origin + t * dir` enters the box, if it
    /// does so within `[0, t_max]`. `inv_dir` must come from [`safe_recip`]: finite, so
    /// that no `0 * inf` NaN can arise and the test stays branch-free.
    #[inline]
    pub fn ray_entry(&self, origin: Vec3, inv_dir: Vec3, t_max: f32) -> Option<f32> {
        self.ray_entry_inflated(origin, inv_dir, t_max, 0.0)
    }

    /// [`ray_entry`](Self::ray_entry) against this box grown by `margin` on every side.
    #[inline]
    pub fn ray_entry_inflated(
        &self,
        origin: Vec3,
        inv_dir: Vec3,
        t_max: f32,
        margin: f32,
    ) -> Option<f32> {
        SlabRay::new(origin.into(), inv_dir.into(), Vec3A::splat(margin)).entry(
            self.min.into(),
            self.max.into(),
            t_max,
        )
    }
}

/// A ray from `origin` along `1 / inv_dir` against boxes grown by `margin` on each axis
/// (with the margin a swept box's half-extents: the swept box against the boxes), set up
/// once for the many boxes of a query: the slab test (Kay and Kajiya; Ericson,
/// *Real-Time Collision Detection*, 5.3.3). The one copy: boxes and the BVH's nodes both
/// ask it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlabRay {
    /// `origin + margin`: a box's grown lower face is `min - margin`, so its slab starts
    /// at `(min - (origin + margin)) * inv_dir`.
    below: Vec3A,
    /// `origin - margin`, for the grown upper face.
    above: Vec3A,
    /// From [`safe_recip`]: finite, so that no `0 * inf` NaN can arise.
    inv_dir: Vec3A,
}

impl SlabRay {
    /// The ray from `origin` with the reciprocal direction `inv_dir` (from
    /// [`safe_recip`]) against boxes grown by `margin`.
    #[inline]
    pub fn new(origin: Vec3A, inv_dir: Vec3A, margin: Vec3A) -> SlabRay {
        SlabRay {
            below: origin + margin,
            above: origin - margin,
            inv_dir,
        }
    }

    /// The parameter at which the ray enters the (grown) box from `min` to `max`, if it
    /// does so within `[0, t_max]`. Branch-free and all in SIMD lanes: the per-axis
    /// times are finite (finite `inv_dir`), so the lane-wise min and max need no NaN care.
    #[inline(always)]
    pub fn entry(&self, min: Vec3A, max: Vec3A, t_max: f32) -> Option<f32> {
        let t1 = (min - self.below) * self.inv_dir;
        let t2 = (max - self.above) * self.inv_dir;
        let t_enter = t1.min(t2).max(Vec3A::ZERO).max_element();
        let t_exit = t1.max(t2).min(Vec3A::splat(t_max)).min_element();
        (t_enter <= t_exit).then_some(t_enter)
    }
}

/// Below this magnitude a direction component is treated as this magnitude (keeping its
/// sign) before taking its reciprocal: the slab test then sees a huge but finite slope.
const MIN_DIRECTION: f32 = 1e-20;

/// `1 / d` per component, finite: components smaller than `MIN_DIRECTION` in magnitude
/// count as `MIN_DIRECTION` (with their sign), so the slab test never multiplies by inf.
#[inline]
pub fn safe_recip(d: Vec3) -> Vec3 {
    let tiny = d.abs().cmplt(Vec3::splat(MIN_DIRECTION));
    Vec3::select(tiny, Vec3::splat(MIN_DIRECTION).copysign(d), d).recip()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> Aabb {
        Aabb::from_points([Vec3::ZERO, Vec3::ONE])
    }

    #[test]
    fn empty_box_is_empty_and_grows_to_its_points() {
        assert!(Aabb::EMPTY.is_empty());
        assert!(!unit().is_empty());
        assert_eq!(unit().size(), Vec3::ONE);
        assert_eq!(
            Aabb::EMPTY.grown(Vec3::X),
            Aabb {
                min: Vec3::X,
                max: Vec3::X
            }
        );
    }

    #[test]
    fn ray_through_box_enters_at_near_face() {
        let o = Vec3::new(-1.0, 0.5, 0.5);
        let t = unit().ray_entry(o, safe_recip(Vec3::X), 10.0);
        assert_eq!(t, Some(1.0));
    }

    #[test]
    fn ray_along_a_face_with_zero_components_still_hits() {
        // Direction (1, 0, 0) exactly in the plane y = 0 of the box face: 0 * inf is NaN there.
        let o = Vec3::new(-1.0, 0.0, 0.0);
        let inv = safe_recip(Vec3::X);
        assert_eq!(unit().ray_entry(o, inv, 10.0), Some(1.0));
    }

    #[test]
    fn ray_missing_box_or_too_short_gives_none() {
        let inv = safe_recip(Vec3::X);
        assert_eq!(unit().ray_entry(Vec3::new(-1.0, 2.0, 0.5), inv, 10.0), None);
        assert_eq!(unit().ray_entry(Vec3::new(-1.0, 0.5, 0.5), inv, 0.5), None);
    }

    #[test]
    fn ray_starting_inside_enters_at_zero() {
        let inv = safe_recip(Vec3::X);
        assert_eq!(unit().ray_entry(Vec3::splat(0.5), inv, 0.1), Some(0.0));
    }
}
