//! The narrow phase over the triangles a BVH traversal hands out, one at a time: the
//! earliest contact of a sweep, and the nearest overlap of a body at rest. Shared by the
//! map's world and by placed models (which hand them baked world-space corners), so both
//! answer by the very same routine.

use std::borrow::Borrow;

use glam::{DVec3, Vec3};

use super::sweep::{EllipsoidSweep, ON_TRIANGLE, SweepHit, closest_point, sweep_triangle};
use super::{Body, Contact, Probe};
use crate::geometry::{InsideMethod, Triangle};

/// The share of the best contact's time, and the time, by which [`prune_bound`] enters
/// boxes late: well over `f32`'s rounding of the slab test (about 6e-8 of a value).
const PRUNE_LATE: f32 = 1e-5;
const PRUNE_LATE_MIN: f32 = 1e-7;

/// How far along its move a sweep still enters BVH boxes: up to the best contact so far,
/// a rounding's worth late (the slab test is `f32`, the contact time `f64`).
#[inline]
pub(super) fn prune_bound(best: Option<Contact>) -> f32 {
    best.map_or(1.0, |c| c.t as f32 * (1.0 + PRUNE_LATE) + PRUNE_LATE_MIN)
}

/// The earliest contact of a body's sweep among the triangles considered so far.
pub(super) struct SweepFinder {
    /// The move in ellipsoid space.
    pub(super) sweep: EllipsoidSweep,
    /// World to ellipsoid space.
    pub(super) inv_radii: DVec3,
    radii: DVec3,
    method: InsideMethod,
    pub(super) best: Option<Contact>,
}

impl SweepFinder {
    /// `None` for a move that cannot collide: tiny, not finite, or a body without size.
    #[inline(always)]
    pub(super) fn new(probe: &Probe, centre: Vec3, delta: Vec3) -> Option<SweepFinder> {
        Some(SweepFinder {
            sweep: EllipsoidSweep::of_body(&probe.body, centre, delta)?,
            inv_radii: probe.body.inverse_radii(),
            radii: probe.body.radii.as_dvec3(),
            method: probe.method,
            best: None,
        })
    }

    /// Sweep against the triangle with world-space `corners` (index `index`). `triangle`
    /// gives the [`Triangle`] for step 3 (the point-in-triangle test), asked for only when a
    /// sweep gets that far: a placed model builds it from its baked corners then, so that a
    /// placement answers exactly as its baked copy would.
    #[inline]
    pub(super) fn consider<T: Borrow<Triangle>>(
        &mut self,
        corners: [Vec3; 3],
        index: u32,
        triangle: impl Fn() -> Option<T>,
    ) {
        let verts = corners.map(|v| v.as_dvec3() * self.inv_radii);
        let t_max = self.best.map_or(1.0, |c| c.t);
        let (radii, method) = (self.radii, self.method);
        let inside = |q: DVec3| {
            triangle().is_some_and(|t| {
                let t = t.borrow();
                method.contains_point_along(t, (q * radii).as_vec3(), t.plane.normal)
            })
        };
        if let Some(hit) = sweep_triangle(&self.sweep, verts, t_max, inside) {
            let contact = Contact::from_ellipsoid_space(&hit, self.radii, index);
            self.best = Some(contact.earlier(self.best));
        }
    }
}

/// The nearest overlapping triangle point of a body at rest, in ellipsoid space.
pub(super) struct OverlapFinder {
    centre_e: DVec3,
    inv_radii: DVec3,
    radii: DVec3,
    radius: f64,
    best_dist: f64,
    pub(super) best: Option<Contact>,
}

impl OverlapFinder {
    pub(super) fn new(body: &Body, centre: Vec3) -> OverlapFinder {
        let inv_radii = body.inverse_radii();
        OverlapFinder {
            centre_e: centre.as_dvec3() * inv_radii,
            inv_radii,
            radii: body.radii.as_dvec3(),
            radius: body.contact_radius(),
            best_dist: f64::INFINITY,
            best: None,
        }
    }

    /// Consider the world-space triangle `corners` (index `index`, unit world normal
    /// `normal`).
    pub(super) fn consider(&mut self, corners: [Vec3; 3], normal: Vec3, index: u32) {
        let tri = corners.map(|v| v.as_dvec3() * self.inv_radii);
        let closest = closest_point(self.centre_e, tri);
        let offset = self.centre_e - closest.point;
        let dist = offset.length();
        if dist >= self.radius || dist >= self.best_dist {
            return;
        }
        // A centre on the triangle itself: out along the face normal, toward its front.
        let normal_e = if dist > ON_TRIANGLE {
            offset / dist
        } else {
            (normal.as_dvec3() * self.radii).normalize()
        };
        let hit = SweepHit {
            t: 0.0,
            point: closest.point,
            normal: normal_e,
            feature: closest.feature,
        };
        self.best_dist = dist;
        self.best = Some(Contact::from_ellipsoid_space(&hit, self.radii, index));
    }
}
