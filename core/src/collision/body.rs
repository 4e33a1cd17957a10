//! The body that moves: an axis-aligned ellipsoid (a sphere when its radii are equal),
//! and where the eye sits in it.
//!
//! Collision divides every position by the radii ("ellipsoid space", Fauerby 2003): the
//! body becomes a unit sphere, and a move a straight sweep of its centre. The walker is a
//! person-sized ellipsoid; the flying eye a small sphere whose radius is the
//! [`SKIN`], so the near plane never reaches a wall.

use glam::{DVec3, Vec3};

/// Radius of the flying eye's sphere: how close the eye may come to any triangle (face,
/// edge or corner).
///
/// It must exceed the distance from the eye to a corner of the near plane
/// (`NEAR_PLANE * sqrt(1 + tan^2(h/2) + tan^2(v/2))`), so that the wall the player presses
/// against is never clipped away by the near plane. The field of view is kept across the
/// window's wider side ([`crate::player::FieldOfView`]), so the widest allowed (110
/// degrees) gives at most 0.0226 on a square window and less on any other shape. A test
/// checks this relation.
pub const SKIN: f32 = 0.025;

use crate::tolerance::CONTACT_GAP;

/// Half-extents of the walker's ellipsoid, metres: 0.6 m wide, 1.8 m tall (a person of
/// average height; Unreal's default capsule is 0.84 x 1.76 m, Quake III's box 0.94 x 1.75 m).
pub const WALKER_RADII: Vec3 = Vec3::new(0.3, 0.9, 0.3);

/// Height of the walker's eye above its feet, metres (the eye is inside the body, 0.2 m
/// below the top of the head).
pub const EYE_HEIGHT: f32 = 1.6;

/// An ellipsoid body with its axes along x, y and z.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Half-extents along x, y and z (world units); all positive and finite.
    pub radii: Vec3,
    /// Height of the eye above the body's centre (the pose is the eye; collision moves the
    /// centre).
    pub eye_above_centre: f32,
}

impl Body {
    /// The walking person: [`WALKER_RADII`], feet at the bottom, the eye [`EYE_HEIGHT`]
    /// above them.
    pub const WALKER: Body = Body {
        radii: WALKER_RADII,
        eye_above_centre: EYE_HEIGHT - WALKER_RADII.y,
    };

    /// The flying eye: a sphere of radius [`SKIN`] centred on the eye.
    pub const FLYER: Body = Body::sphere(SKIN);

    /// A sphere of `radius` centred on the eye.
    pub const fn sphere(radius: f32) -> Body {
        Body {
            radii: Vec3::splat(radius),
            eye_above_centre: 0.0,
        }
    }

    /// True when every radius is positive and finite and the eye offset is finite.
    pub fn is_valid(&self) -> bool {
        self.radii.is_finite()
            && self.radii.min_element() > 0.0
            && self.eye_above_centre.is_finite()
    }

    /// The body's centre for an eye at `eye`.
    #[inline]
    pub fn centre_of(&self, eye: Vec3) -> Vec3 {
        eye - Vec3::Y * self.eye_above_centre
    }

    /// The eye for a body centred at `centre`.
    #[inline]
    pub fn eye_of(&self, centre: Vec3) -> Vec3 {
        centre + Vec3::Y * self.eye_above_centre
    }

    /// The lowest point of the body (the feet) for a body centred at `centre`.
    #[inline]
    pub fn feet_of(&self, centre: Vec3) -> Vec3 {
        centre - Vec3::Y * self.radii.y
    }

    /// Radius of the sphere that collision keeps away from every triangle, in ellipsoid
    /// space: 1 (the body) plus [`CONTACT_GAP`] measured along the body's longest axis. A
    /// body that rests against a wall is therefore never *on* it, and the rounding of
    /// stored `f32` positions cannot push it in.
    #[inline]
    pub fn contact_radius(&self) -> f64 {
        1.0 + f64::from(CONTACT_GAP) / f64::from(self.radii.max_element())
    }

    /// Radius halfway through the gap, in ellipsoid space: a body between this and
    /// [`contact_radius`](Self::contact_radius) is resting against something, and may move
    /// anywhere that stays outside this radius (see [`super::sweep`]).
    #[inline]
    pub fn inner_contact_radius(&self) -> f64 {
        1.0 + (self.contact_radius() - 1.0) * 0.5
    }

    /// The nearest a body resting against a plane of unit normal `normal` may be to it:
    /// [`rest_distance`](Self::rest_distance) less half the gap.
    pub fn min_rest_distance(&self, normal: Vec3) -> f32 {
        let support = (self.radii * normal).length();
        (f64::from(support) * self.inner_contact_radius()) as f32
    }

    /// Distance from the body's centre to a plane of unit normal `normal` that it rests
    /// against (the ellipsoid's support distance times the contact radius): for the walker
    /// 0.3 m from a wall plus the gap, 0.9 m above a floor plus the gap.
    pub fn rest_distance(&self, normal: Vec3) -> f32 {
        let support = (self.radii * normal).length();
        (f64::from(support) * self.contact_radius()) as f32
    }

    /// The world-to-ellipsoid-space factors, `1 / radii`, in `f64`.
    #[inline]
    pub fn inverse_radii(&self) -> DVec3 {
        DVec3::ONE / self.radii.as_dvec3()
    }

    /// Half-extents of the box that holds the contact sphere, in world units: the radii
    /// times [`contact_radius`](Self::contact_radius). The broad phase inflates boxes by it.
    pub fn reach(&self) -> Vec3 {
        (self.radii.as_dvec3() * self.contact_radius()).as_vec3()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walker_eye_is_eye_height_above_the_feet() {
        let b = Body::WALKER;
        let eye = Vec3::new(1.0, 1.6, 2.0);
        let c = b.centre_of(eye);
        assert!((b.feet_of(c).y - 0.0).abs() < 1e-6);
        assert!((c.y - 0.9).abs() < 1e-6);
        assert_eq!(b.eye_of(c), eye);
    }

    #[test]
    fn rest_distance_is_the_radius_along_each_axis_plus_the_gap() {
        let b = Body::WALKER;
        let gap_x = 0.3 * CONTACT_GAP / 0.9;
        assert!((b.rest_distance(Vec3::X) - (0.3 + gap_x)).abs() < 1e-6);
        assert!((b.rest_distance(Vec3::Y) - (0.9 + CONTACT_GAP)).abs() < 1e-6);
        let f = Body::FLYER;
        assert!((f.rest_distance(Vec3::Z) - (SKIN + CONTACT_GAP)).abs() < 1e-6);
    }

    #[test]
    fn invalid_bodies_are_recognised() {
        assert!(Body::WALKER.is_valid() && Body::FLYER.is_valid());
        assert!(!Body::sphere(0.0).is_valid());
        assert!(!Body::sphere(f32::NAN).is_valid());
        assert!(!Body::sphere(-1.0).is_valid());
    }
}
