//! What happens to a move that hits a wall: stop, or slide along it.
//!
//! The slide loop follows Quake's `PM_SlideMove` (id Software, 1999), as rapier's
//! character controller does: advance to the hit, keep the rest of the move minus its
//! component into the walls touched so far, and try again, a capped number of times.

use std::fmt;
use std::str::FromStr;

use glam::Vec3;

use super::{CollisionWorld, Hit};
use crate::geometry::InsideMethod;
use crate::tolerance::{MAX_SLIDE_ITERATIONS, MIN_MOVE, PARALLEL_COSINE, SAME_PLANE_COSINE};

/// The response to a blocked move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Response {
    /// Advance to the first hit (minus the skin) and no further this step.
    Stop,
    /// Advance to the hit, then go on along the wall (or the crease of two walls).
    #[default]
    Slide,
}

impl Response {
    /// The name used on the command line, in scripts, traces and the HUD.
    pub fn name(self) -> &'static str {
        match self {
            Response::Stop => "stop",
            Response::Slide => "slide",
        }
    }

    /// The other response.
    pub fn toggled(self) -> Response {
        match self {
            Response::Stop => Response::Slide,
            Response::Slide => Response::Stop,
        }
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name given is not a response.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown response '{0}' (expected stop or slide)")]
pub struct ParseResponseError(pub String);

impl FromStr for Response {
    type Err = ParseResponseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "stop" => Ok(Response::Stop),
            "slide" => Ok(Response::Slide),
            _ => Err(ParseResponseError(s.to_string())),
        }
    }
}

/// Where a move ended and how it got there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveOutcome {
    /// The final position.
    pub end: Vec3,
    /// True when a collision changed the move.
    pub hit: bool,
    /// The path, start first: `legs + 1` points.
    pub path: [Vec3; MAX_SLIDE_ITERATIONS + 1],
    /// Number of straight legs of the path.
    pub legs: usize,
    /// Triangles that stopped or bent the move, in order (first `n_contacts` entries).
    pub contacts: [u32; MAX_SLIDE_ITERATIONS],
    /// Number of entries of `contacts` in use.
    pub n_contacts: usize,
}

impl MoveOutcome {
    fn new(start: Vec3) -> MoveOutcome {
        MoveOutcome {
            end: start,
            hit: false,
            path: [start; MAX_SLIDE_ITERATIONS + 1],
            legs: 0,
            contacts: [0; MAX_SLIDE_ITERATIONS],
            n_contacts: 0,
        }
    }

    fn touch(&mut self, triangle: u32) {
        self.hit = true;
        if self.n_contacts < MAX_SLIDE_ITERATIONS {
            self.contacts[self.n_contacts] = triangle;
            self.n_contacts += 1;
        }
    }

    fn advance(&mut self, to: Vec3) {
        if self.legs < MAX_SLIDE_ITERATIONS {
            self.legs += 1;
            self.path[self.legs] = to;
        }
        self.end = to;
    }

    /// Triangles that stopped or bent the move.
    pub fn contacts(&self) -> &[u32] {
        &self.contacts[..self.n_contacts]
    }

    /// The straight legs travelled, in order.
    pub fn legs(&self) -> impl Iterator<Item = (Vec3, Vec3)> + '_ {
        (0..self.legs).map(|i| (self.path[i], self.path[i + 1]))
    }
}

/// Anything a move can collide with: one map's world, or placed models.
pub trait Collider {
    /// The first triangle that stops the move `p0 -> p0 + d`, if any; its normal in the
    /// collider's (world) space.
    fn first_hit(&self, p0: Vec3, d: Vec3, method: InsideMethod) -> Option<Hit>;

    /// Move from `start` by `d`, resolving collisions with `response`.
    ///
    /// Never returns a NaN: a non-finite or tiny move leaves the point where it is.
    fn resolve_move(
        &self,
        start: Vec3,
        d: Vec3,
        response: Response,
        method: InsideMethod,
    ) -> MoveOutcome {
        resolve_move(self, start, d, response, method)
    }
}

impl Collider for CollisionWorld {
    #[inline]
    fn first_hit(&self, p0: Vec3, d: Vec3, method: InsideMethod) -> Option<Hit> {
        CollisionWorld::first_hit(self, p0, d, method)
    }
}

/// Move from `start` by `d` through `world`, resolving collisions with `response`.
pub fn resolve_move<C: Collider + ?Sized>(
    world: &C,
    start: Vec3,
    d: Vec3,
    response: Response,
    method: InsideMethod,
) -> MoveOutcome {
    {
        let mut out = MoveOutcome::new(start);
        if !start.is_finite() || !d.is_finite() || d.length() < MIN_MOVE {
            return out;
        }
        match response {
            Response::Stop => match world.first_hit(start, d, method) {
                None => out.advance(start + d),
                Some(hit) => {
                    out.touch(hit.triangle);
                    out.advance(start + d * hit.t);
                }
            },
            Response::Slide => slide(world, start, d, method, &mut out),
        }
        out
    }
}

fn slide<C: Collider + ?Sized>(
    world: &C,
    start: Vec3,
    d: Vec3,
    method: InsideMethod,
    out: &mut MoveOutcome,
) {
    {
        let mut pos = start;
        let mut rest = d;
        let mut planes = [Vec3::ZERO; MAX_SLIDE_ITERATIONS];
        let mut n_planes = 0;
        for _ in 0..MAX_SLIDE_ITERATIONS {
            if rest.length() < MIN_MOVE {
                break;
            }
            // 1. Go as far as the first wall allows.
            let Some(hit) = world.first_hit(pos, rest, method) else {
                pos += rest;
                out.advance(pos);
                return;
            };
            out.touch(hit.triangle);
            if hit.t > 0.0 {
                pos += rest * hit.t;
                out.advance(pos);
            }
            rest *= 1.0 - hit.t;
            // 2. Remember the wall, once per plane (a wall cut into coplanar pieces is one).
            if !planes[..n_planes]
                .iter()
                .any(|n| n.dot(hit.normal) > SAME_PLANE_COSINE)
            {
                planes[n_planes] = hit.normal;
                n_planes += 1;
            }
            // 3. Redirect the rest along the walls; nowhere to go means stop.
            match slide_direction(rest, &planes[..n_planes]) {
                // Never turn back against the intended move: that is what makes a
                // point jitter in a V-corner.
                Some(v) if v.dot(d) > 0.0 => rest = v,
                _ => return,
            }
        }
    }
}

/// The part of `v` that slides along every plane in `planes` without entering any: clipped
/// against one plane if that keeps it out of the others, else along the crease of two
/// planes, else nothing (three or more walls box it in).
pub fn slide_direction(v: Vec3, planes: &[Vec3]) -> Option<Vec3> {
    let clip = |v: Vec3, n: Vec3| {
        let into = v.dot(n);
        if into < 0.0 { v - n * into } else { v }
    };
    let enters = |v: Vec3, n: Vec3| v.dot(n) < -PARALLEL_COSINE * v.length();
    for (i, &n) in planes.iter().enumerate() {
        let c = clip(v, n);
        if planes
            .iter()
            .enumerate()
            .all(|(j, &m)| j == i || !enters(c, m))
        {
            return Some(c);
        }
    }
    if let [a, b] = planes {
        let crease = a.cross(*b).try_normalize()?;
        return Some(crease * crease.dot(v));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_names_round_trip_and_toggle() {
        for r in [Response::Stop, Response::Slide] {
            assert_eq!(r.name().parse::<Response>().unwrap(), r);
            assert_ne!(r.toggled(), r);
            assert_eq!(r.toggled().toggled(), r);
        }
        assert_eq!(
            "bounce".parse::<Response>().unwrap_err().to_string(),
            "unknown response 'bounce' (expected stop or slide)"
        );
    }

    #[test]
    fn slide_direction_against_one_wall_removes_the_normal_part() {
        let v = slide_direction(Vec3::new(1.0, 0.0, -1.0), &[Vec3::Z]).unwrap();
        assert_eq!(v, Vec3::new(1.0, 0.0, 0.0));
    }

    #[test]
    fn slide_direction_in_a_crease_follows_the_crease() {
        // Floor (normal +y) and wall (normal +z): the crease runs along x.
        let v = slide_direction(Vec3::new(1.0, -1.0, -1.0), &[Vec3::Y, Vec3::Z]).unwrap();
        assert!((v - Vec3::X).length() < 1e-6);
    }

    #[test]
    fn slide_direction_in_a_v_corner_is_zero() {
        let a = Vec3::new(1.0, 0.0, 1.0).normalize();
        let b = Vec3::new(-1.0, 0.0, 1.0).normalize();
        let v = slide_direction(Vec3::new(0.0, 0.0, -1.0), &[a, b]).unwrap();
        assert!(v.length() < 1e-6);
    }

    #[test]
    fn slide_direction_boxed_in_by_three_walls_is_none() {
        let walls = [Vec3::X, Vec3::Y, Vec3::Z];
        assert!(slide_direction(-Vec3::ONE, &walls).is_none());
    }

    #[test]
    fn slide_direction_at_a_shallow_bend_follows_the_new_wall() {
        // A wall bending inward by 30 degrees: clipping against the new wall alone works.
        let a = Vec3::Z;
        let b = Vec3::new(-(30f32.to_radians().sin()), 0.0, 30f32.to_radians().cos());
        let v = slide_direction(Vec3::new(1.0, 0.0, 0.0), &[a, b]).unwrap();
        assert!(v.dot(b).abs() < 1e-6 && v.dot(a) >= 0.0 && v.length() > 0.5);
    }
}
