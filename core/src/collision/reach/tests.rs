use super::*;
use crate::collision::sweep::closest_point;
use crate::collision::{Body, Collider, CollisionWorld, Probe};
use crate::geometry::InsideMethod;
use crate::test_kit::random::Xorshift64;

/// Whatever a sweep touches lies in a box the reach lets through, no earlier than the
/// reach says, and is a triangle it lets through: random small triangles (each its
/// own box) and random moves of both bodies, long and short, one triangle at a time.
#[test]
fn every_triangle_a_sweep_touches_is_within_its_reach_no_sooner_than_it_says() {
    let mut seed = Xorshift64(0x2545_f491_4f6c_dd1d);
    let mut touched = 0;
    for k in 0..20_000 {
        let mut r = || seed.unit();
        let at = Vec3::new(r(), r(), r()) * 2.0 - 1.0;
        let size = if k % 2 == 0 { 0.01 } else { 0.5 };
        let tri = [0, 1, 2].map(|_| at + Vec3::new(r(), r(), r()) * size);
        let world = CollisionWorld::new([tri]);
        if world.triangles().is_empty() {
            continue; // degenerate
        }
        let body = if k % 3 == 0 {
            Body::FLYER
        } else {
            Body::WALKER
        };
        let centre = Vec3::new(r(), r(), r()) * 2.0 - 1.0;
        let length = [0.01, 0.45, 3.0][k % 3];
        let delta = (Vec3::new(r(), r(), r()) - 0.5).normalize_or(Vec3::X) * length;
        let probe = Probe::new(body, InsideMethod::Barycentric);
        let Some(hit) = world.sweep(&probe, centre, delta) else {
            continue;
        };
        touched += 1;
        let sweep = EllipsoidSweep::of_body(&body, centre, delta).expect("a move");
        let mut reach = Reach::new(&sweep, body.inverse_radii().as_vec3(), centre);
        let b = world.triangles()[0].bounds();
        let entry = reach.entry(b.min.into(), b.max.into(), 1.0);
        assert!(
            entry.is_some_and(|t| f64::from(t) <= hit.t + 1e-6),
            "{k}: {tri:?} {centre} {delta}: hit at {} but reach {entry:?}",
            hit.t
        );
        // And searched only up to the contact (as the world does), it is still in reach.
        let until = crate::collision::narrow::prune_bound(Some(hit));
        assert!(
            reach.meets_triangle(world.triangles()[0].vertices(), until),
            "{k}"
        );
        let entry = reach.entry(b.min.into(), b.max.into(), until);
        assert!(entry.is_some_and(|t| f64::from(t) <= hit.t + 1e-6), "{k}");
    }
    assert!(touched > 500, "{touched}");
}

/// Whatever a body at rest overlaps lies in a box [`Rest`] lets through: random small
/// triangles against walkers and flyers placed near them.
#[test]
fn every_triangle_a_body_at_rest_overlaps_is_within_its_rest() {
    let mut seed = Xorshift64(0x5eed);
    let mut overlapped = 0;
    for k in 0..20_000 {
        let mut r = || seed.unit();
        let at = Vec3::new(r(), r(), r()) * 2.0 - 1.0;
        let size = if k % 2 == 0 { 0.01 } else { 0.5 };
        let tri = [0, 1, 2].map(|_| at + Vec3::new(r(), r(), r()) * size);
        let body = if k % 3 == 0 {
            Body::FLYER
        } else {
            Body::WALKER
        };
        let centre = at + (Vec3::new(r(), r(), r()) - 0.5) * body.radii * 3.0;
        // The overlap itself, by the closest point in ellipsoid space (no BVH).
        let inv = body.inverse_radii();
        let e = tri.map(|v| v.as_dvec3() * inv);
        let c = centre.as_dvec3() * inv;
        if (closest_point(c, e).point - c).length() >= body.contact_radius() {
            continue;
        }
        overlapped += 1;
        let rest = Rest::new(body.radii, body.contact_radius(), centre);
        let b = crate::geometry::Aabb::from_points(tri);
        assert!(
            rest.meets(b.min.into(), b.max.into()),
            "{k}: {tri:?} {centre}"
        );
    }
    assert!(overlapped > 1000, "{overlapped}");
}

/// A long, slanted triangle lying along a short move: its shadow across the move
/// covers the path, yet no point of it comes within the body's reach (1.24 from the
/// start, for a unit sphere moving 0.01). Only the start's own distance tells; a
/// triangle 1.005 away is still in reach.
#[test]
fn a_triangle_along_a_short_move_beyond_the_start_s_reach_is_out_of_it() {
    let body = Body::sphere(1.0);
    let (centre, delta) = (Vec3::ZERO, Vec3::new(0.01, 0.0, 0.0));
    let sweep = EllipsoidSweep::of_body(&body, centre, delta).expect("a move");
    let mut reach = Reach::new(&sweep, body.inverse_radii().as_vec3(), centre);
    let slanted = [
        Vec3::new(-4.0, 0.0, 0.0),
        Vec3::new(-4.0, 0.1, 0.0),
        Vec3::new(4.0, 2.6, 0.0),
    ];
    assert!(!reach.meets_triangle(slanted, 1.0));
    let near = slanted.map(|v| v * (1.005 / 1.2365));
    assert!(reach.meets_triangle(near, 1.0));
    // And the sweep agrees: nothing of the slanted one is touched.
    let world = CollisionWorld::new([slanted]);
    let probe = Probe::new(body, InsideMethod::Barycentric);
    assert_eq!(world.sweep(&probe, centre, delta), None);
}

/// `speed_of_1e30_metres_a_second_still_stops_at_the_wall`: in `f32` the squares of
/// such a move overflow, and the bounds then prune nothing.
#[test]
fn a_move_too_long_for_f32_bounds_prunes_nothing() {
    let body = Body::WALKER;
    let (centre, delta) = (Vec3::ZERO, Vec3::new(1e28, 0.0, 3e27));
    let sweep = EllipsoidSweep::of_body(&body, centre, delta).expect("a move");
    let mut reach = Reach::new(&sweep, body.inverse_radii().as_vec3(), centre);
    // A box a kilometre aside, and a triangle behind the start.
    let far = (Vec3A::new(0.0, 1000.0, 0.0), Vec3A::new(1.0, 1001.0, 1.0));
    assert_eq!(reach.entry(far.0, far.1, 1.0), Some(0.0));
    let wall = [
        Vec3::new(4.0, -1.0, -1.0),
        Vec3::new(4.0, 1.0, -1.0),
        Vec3::new(4.0, 0.0, 1.0),
    ];
    assert!(reach.meets_triangle(wall.map(|v| -v), 1.0));
}

#[test]
fn a_box_beside_the_round_bottom_of_a_standing_walker_is_out_of_reach() {
    // A walker on a floor at y = 0, and a 2 cm box on the floor 25 cm to its side:
    // inside its swept box, out of its reach.
    let body = Body::WALKER;
    let centre = Vec3::new(0.0, 0.901, 0.0);
    let sweep = EllipsoidSweep::of_body(&body, centre, Vec3::X * 0.01).expect("a move");
    let reach = Reach::new(&sweep, body.inverse_radii().as_vec3(), centre);
    let (min, max) = (Vec3A::new(0.25, 0.0, 0.0), Vec3A::new(0.27, 0.02, 0.02));
    assert_eq!(reach.entry(min, max, 1.0), None);
    // Right under the feet it is in reach at once.
    let (min, max) = (Vec3A::new(-0.01, 0.0, -0.01), Vec3A::new(0.01, 0.001, 0.01));
    assert_eq!(reach.entry(min, max, 1.0), Some(0.0));
}
