//! What a body can collide with, and the contact it reports.

use glam::{DVec3, Vec3};

use super::Body;
use super::sweep::{Feature, SweepHit};
use crate::geometry::InsideMethod;

/// The first touch of a swept body with the world, in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Fraction of the move, in `[0, 1]`, at which the body first touches (kept in `f64`:
    /// a 10 km move resolved to a millimetre needs it).
    pub t: f64,
    /// The point of the triangle touched.
    pub point: Vec3,
    /// Unit normal of the sliding plane, pointing from the contact toward the body.
    pub normal: Vec3,
    /// Index of the triangle (unique across a collider's triangles).
    pub triangle: u32,
    /// Face, edge or vertex of that triangle.
    pub feature: Feature,
}

impl Contact {
    /// An ellipsoid-space hit brought back to world space by the body's radii: points scale
    /// by the radii, plane normals (covectors) by their inverse.
    pub fn from_ellipsoid_space(hit: &SweepHit, radii: DVec3, triangle: u32) -> Contact {
        let normal = (hit.normal / radii)
            .try_normalize()
            .unwrap_or(hit.normal)
            .as_vec3();
        Contact {
            t: hit.t,
            point: (hit.point * radii).as_vec3(),
            normal,
            triangle,
            feature: hit.feature,
        }
    }

    /// The earlier of two contacts; equal times go to the lower triangle index, so that
    /// every traversal order (BVH or brute force) gives the very same answer.
    #[inline]
    pub fn earlier(self, other: Option<Contact>) -> Contact {
        match other {
            Some(o) if (o.t, o.triangle) <= (self.t, self.triangle) => o,
            _ => self,
        }
    }
}

/// What a sweep moves, and how its face phase decides "inside": the settings of one
/// sweep query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    /// The body swept.
    pub body: Body,
    /// The point-in-triangle test of step 3.
    pub method: InsideMethod,
}

impl Probe {
    /// `body` tested with `method`.
    pub const fn new(body: Body, method: InsideMethod) -> Probe {
        Probe { body, method }
    }

    /// The same method with another body (a crouched or stepping body of the walker).
    pub const fn with_body(self, body: Body) -> Probe {
        Probe { body, ..self }
    }
}

/// Anything a body can collide with: one map's world, or placed models.
pub trait Collider {
    /// The first contact of the probe's body, its centre swept from `centre` by `delta`,
    /// or `None` when the move is free.
    fn sweep(&self, probe: &Probe, centre: Vec3, delta: Vec3) -> Option<Contact> {
        self.sweep_seen(probe, centre, delta, None)
    }

    /// [`sweep`](Self::sweep), also adding to `seen` every candidate triangle the broad
    /// phase (the BVH) handed over (what the debug view outlines). The same traversal:
    /// recording changes no answer.
    fn sweep_seen(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        seen: Option<&mut Vec<u32>>,
    ) -> Option<Contact>;

    /// The world-space corners of triangle `index`, numbered as [`Contact::triangle`] is.
    fn triangle(&self, index: u32) -> Option<[Vec3; 3]>;

    /// The triangle point nearest to the body's centre among those closer than the contact
    /// sphere (in ellipsoid space), with the normal pointing from it to the centre; `t` is
    /// 0. `None` when the body at `centre` touches nothing.
    fn nearest_overlap(&self, body: &Body, centre: Vec3) -> Option<Contact>;

    /// A number naming what this collider holds now: two calls that give the same
    /// `Some(n)` answer every query alike, so a walker may reuse a tick it has worked out
    /// before (see `crate::walk::memo`). `None`, the default, promises nothing: a wrapper
    /// that counts or records what is asked, or a world whose parts move.
    fn revision(&self) -> Option<u64> {
        None
    }
}
