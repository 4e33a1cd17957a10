//! The cases every character controller has got wrong at some point, each a named test,
//! run with every point-in-triangle method.

mod common;

use common::{cube, segment_touches, walk, wall};
use glam::Vec3;
use walkthrough::collision::{Collider, CollisionWorld, Response};
use walkthrough::geometry::InsideMethod;
use walkthrough::tolerance::{DEFAULT_FOV_Y_DEG, NEAR_PLANE, SKIN};

const DT: f32 = 1.0 / 120.0;
const SPEED: f32 = 3.0;

/// A long wall in the plane z = 0 (facing +z), cut into `pieces` x `pieces` quads.
fn long_wall(pieces: usize) -> CollisionWorld {
    let mut tris = vec![];
    let (w, h) = (200.0, 10.0);
    for i in 0..pieces {
        for j in 0..pieces {
            let x0 = -w / 2.0 + w * i as f32 / pieces as f32;
            let x1 = -w / 2.0 + w * (i + 1) as f32 / pieces as f32;
            let y0 = -h + 2.0 * h * j as f32 / pieces as f32;
            let y1 = -h + 2.0 * h * (j + 1) as f32 / pieces as f32;
            let (a, b, c, d) = (
                Vec3::new(x0, y0, 0.0),
                Vec3::new(x1, y0, 0.0),
                Vec3::new(x1, y1, 0.0),
                Vec3::new(x0, y1, 0.0),
            );
            tris.push([a, b, c]);
            tris.push([a, c, d]);
        }
    }
    CollisionWorld::new(tris)
}

/// Walk into the wall at `angle` degrees from its normal; once in contact, every step
/// must move `speed * dt * sin(angle)` along the wall and stay at the skin distance.
fn slide_keeps_speed(angle_deg: f32, pieces: usize) {
    let world = long_wall(pieces);
    let a = angle_deg.to_radians();
    let d = Vec3::new(a.sin(), 0.0, -a.cos()) * SPEED * DT;
    for method in InsideMethod::ALL {
        let steps = walk(
            &world,
            Vec3::new(0.3, 0.37, 0.5),
            d,
            600,
            Response::Slide,
            method,
        );
        let first_contact = steps.iter().position(|o| o.hit).expect("reaches the wall");
        for (k, w) in steps[first_contact + 1..].windows(2).enumerate() {
            let moved = w[1].end - w[0].end;
            let want = SPEED * DT * a.sin();
            assert!(
                (moved.x - want).abs() < 1e-4 * SPEED * DT,
                "{method} at {angle_deg} deg, step {k}: moved {moved} want {want} along x"
            );
            assert!(
                (w[1].end.z - SKIN).abs() < 1e-5,
                "{method}: z {}",
                w[1].end.z
            );
            assert!(moved.y.abs() < 1e-6);
        }
    }
}

#[test]
fn slide_along_wall_at_10_degrees_keeps_speed_times_sin() {
    slide_keeps_speed(10.0, 1);
}

#[test]
fn slide_along_wall_at_45_degrees_keeps_speed_times_sin() {
    slide_keeps_speed(45.0, 1);
}

#[test]
fn slide_along_wall_at_80_degrees_keeps_speed_times_sin() {
    slide_keeps_speed(80.0, 1);
}

#[test]
fn slide_across_seams_of_a_wall_cut_into_many_coplanar_triangles() {
    // 400 quads: the slide crosses a seam (a shared edge) every 10 m and shared vertices.
    slide_keeps_speed(45.0, 20);
}

#[test]
fn slide_through_a_shared_vertex_at_eye_height() {
    // Eye at y = 0, exactly the height of a row of shared vertices of the 20 x 20 wall.
    let world = long_wall(20);
    let d = Vec3::new(1.0, 0.0, -1.0).normalize() * SPEED * DT;
    for method in InsideMethod::ALL {
        let steps = walk(
            &world,
            Vec3::new(-10.0 - 0.2, 0.0, 0.2),
            d,
            2000,
            Response::Slide,
            method,
        );
        let end = steps.last().unwrap().end;
        assert!(end.x > 20.0, "{method}: stuck at {end}");
        assert!((end.z - SKIN).abs() < 1e-5);
    }
}

#[test]
fn stop_leaves_the_eye_exactly_skin_in_front_of_the_wall() {
    let world = long_wall(1);
    for method in InsideMethod::ALL {
        let steps = walk(
            &world,
            Vec3::new(0.2, 0.1, 1.0),
            Vec3::new(0.0, 0.0, -0.1),
            30,
            Response::Stop,
            method,
        );
        let end = steps.last().unwrap().end;
        assert!((end.z - SKIN).abs() < 1e-6, "{method}: {end}");
        assert_eq!((end.x, end.y), (0.2, 0.1));
    }
}

#[test]
fn stop_halts_the_whole_step_at_a_glancing_angle() {
    let world = long_wall(1);
    let d = Vec3::new(0.5, 0.0, -0.05);
    let steps = walk(
        &world,
        Vec3::new(0.0, 0.0, 0.5),
        d,
        50,
        Response::Stop,
        InsideMethod::Barycentric,
    );
    let end = steps.last().unwrap().end;
    // In stop mode the eye does not creep along the wall: once in contact it stays.
    assert!(steps[40..].iter().all(|o| o.end == end));
    assert!((end.z - SKIN).abs() < 1e-5);
}

#[test]
fn skin_is_larger_than_the_near_plane_corner_distance() {
    for aspect in [4.0 / 3.0, 16.0 / 9.0, 21.0 / 9.0] {
        let t = (DEFAULT_FOV_Y_DEG.to_radians() / 2.0).tan();
        let corner = NEAR_PLANE * (1.0 + t * t * (1.0 + aspect * aspect)).sqrt();
        assert!(SKIN > corner, "aspect {aspect}: corner {corner}");
    }
}

/// Two walls meeting at the origin with `angle` degrees between them, opening toward +z.
fn v_corner(angle_deg: f32) -> (CollisionWorld, Vec3, Vec3) {
    let half = (angle_deg / 2.0).to_radians();
    let arm = |s: f32| Vec3::new(s * half.sin(), 0.0, half.cos()) * 10.0;
    let (l, r) = (arm(-1.0), arm(1.0));
    let mut tris = vec![];
    tris.extend(wall(0.0, 0.0, l.x, l.z, 5.0));
    tris.extend(wall(0.0, 0.0, r.x, r.z, 5.0));
    let nl = Vec3::new(l.z, 0.0, -l.x).normalize(); // inward normals
    let nr = Vec3::new(-r.z, 0.0, r.x).normalize();
    (CollisionWorld::new(tris), nl, nr)
}

fn settles_in_v_corner(angle_deg: f32) {
    let (world, nl, nr) = v_corner(angle_deg);
    for method in InsideMethod::ALL {
        for dir in [
            Vec3::new(0.0, 0.0, -1.0),
            Vec3::new(0.2, 0.0, -1.0).normalize(),
            Vec3::new(-0.3, 0.0, -1.0).normalize(),
        ] {
            let steps = walk(
                &world,
                Vec3::new(0.0, 0.3, 4.0),
                dir * SPEED * DT,
                600,
                Response::Slide,
                method,
            );
            let last = steps.last().unwrap().end;
            // No oscillation: the last 100 steps do not move at all.
            for o in &steps[500..] {
                assert!(
                    (o.end - last).length() < 1e-6,
                    "{method} {angle_deg} jitter: {} vs {last}",
                    o.end
                );
            }
            // Stopped where both planes are at the skin distance.
            let (dl, dr) = (nl.dot(last), nr.dot(last));
            assert!(
                dl > SKIN - 1e-5 && dr > SKIN - 1e-5,
                "{method} {angle_deg}: {dl} {dr}"
            );
            assert!(
                dl < SKIN + 1e-3 && dr < SKIN + 1e-3,
                "{method} {angle_deg} did not reach the apex: {dl} {dr}"
            );
        }
    }
}

#[test]
fn v_corner_of_60_degrees_settles_without_oscillation() {
    settles_in_v_corner(60.0);
}

#[test]
fn v_corner_of_90_degrees_settles_without_oscillation() {
    settles_in_v_corner(90.0);
}

#[test]
fn v_corner_of_120_degrees_settles_without_oscillation() {
    settles_in_v_corner(120.0);
}

#[test]
fn three_walls_stop_the_move() {
    // A room corner: floor, and two walls; flying down into the corner stops there.
    let mut tris = cube(Vec3::splat(-5.0), Vec3::splat(5.0));
    tris.retain(|t| {
        t.iter().all(|v| v.x == -5.0)
            || t.iter().all(|v| v.y == -5.0)
            || t.iter().all(|v| v.z == -5.0)
    });
    let world = CollisionWorld::new(tris);
    let d = Vec3::new(-1.0, -1.0, -1.0).normalize() * 0.05;
    let steps = walk(
        &world,
        Vec3::ZERO,
        d,
        400,
        Response::Slide,
        InsideMethod::Barycentric,
    );
    let end = steps.last().unwrap().end;
    assert!((end - Vec3::splat(-5.0 + SKIN)).length() < 1e-4, "{end}");
}

#[test]
fn crease_of_floor_and_wall_is_followed() {
    // Flying down-forward-right into the corner between the floor y = 0 and the wall z = 0.
    let q = |a: Vec3, b: Vec3, c: Vec3, d: Vec3| [[a, b, c], [a, c, d]];
    let (x0, x1) = (-50.0, 50.0);
    let floor = q(
        Vec3::new(x0, 0.0, 10.0),
        Vec3::new(x1, 0.0, 10.0),
        Vec3::new(x1, 0.0, 0.0),
        Vec3::new(x0, 0.0, 0.0),
    );
    let wall = q(
        Vec3::new(x0, 0.0, 0.0),
        Vec3::new(x1, 0.0, 0.0),
        Vec3::new(x1, 10.0, 0.0),
        Vec3::new(x0, 10.0, 0.0),
    );
    let world = CollisionWorld::new(floor.into_iter().chain(wall));
    let d = Vec3::new(1.0, -1.0, -1.0).normalize() * 0.05;
    let steps = walk(
        &world,
        Vec3::new(0.0, 0.5, 0.5),
        d,
        400,
        Response::Slide,
        InsideMethod::Barycentric,
    );
    let tail: Vec<f32> = steps[300..]
        .windows(2)
        .map(|w| w[1].end.x - w[0].end.x)
        .collect();
    for dx in tail {
        assert!((dx - 0.05 / 3f32.sqrt()).abs() < 1e-5, "crease speed {dx}");
    }
    let end = steps.last().unwrap().end;
    assert!(
        (end.y - SKIN).abs() < 1e-4 && (end.z - SKIN).abs() < 1e-4,
        "{end}"
    );
}

#[test]
fn corridor_barely_wider_than_the_skin_is_walkable() {
    let half = SKIN * 1.5;
    let mut tris = vec![];
    tris.extend(wall(-half, -100.0, -half, 100.0, 5.0));
    tris.extend(wall(half, -100.0, half, 100.0, 5.0));
    let world = CollisionWorld::new(tris);
    for method in InsideMethod::ALL {
        // Straight down the middle: free.
        let steps = walk(
            &world,
            Vec3::ZERO,
            Vec3::new(0.0, 0.0, -SPEED * DT),
            100,
            Response::Slide,
            method,
        );
        assert!(steps.iter().all(|o| !o.hit), "{method}");
        // Diagonally: slides along, never stuck, never closer than the skin to either wall.
        let d = Vec3::new(1.0, 0.0, -1.0).normalize() * SPEED * DT;
        let steps = walk(&world, Vec3::ZERO, d, 200, Response::Slide, method);
        let end = steps.last().unwrap().end;
        assert!(end.z < -1.0, "{method}: stuck at {end}");
        for o in &steps {
            assert!(o.end.x.abs() <= half - SKIN + 1e-5, "{method}: {}", o.end);
        }
    }
}

#[test]
fn move_many_times_longer_than_a_thin_wall_does_not_tunnel() {
    // A box wall 1 cm thick, and a single plane of zero thickness; moves of 10 m a step.
    let thick = cube(Vec3::new(-5.0, -5.0, -0.005), Vec3::new(5.0, 5.0, 0.005));
    let thin: Vec<[Vec3; 3]> = wall(-5.0, 0.0, 5.0, 0.0, 5.0).to_vec();
    for tris in [&thick, &thin] {
        let world = CollisionWorld::new(tris.iter().copied());
        for method in InsideMethod::ALL {
            for response in [Response::Stop, Response::Slide] {
                for d in [
                    Vec3::new(0.0, 0.0, -10.0),
                    Vec3::new(3.0, 1.0, -10.0),
                    Vec3::new(0.0, 0.0, -1e4),
                ] {
                    let steps = walk(&world, Vec3::new(0.1, 0.2, 1.0), d, 5, response, method);
                    for o in &steps {
                        for (a, b) in o.legs() {
                            assert!(
                                tris.iter().all(|t| !segment_touches(t, a, b)),
                                "{method} {response} {d}: {a} -> {b}"
                            );
                        }
                        // Head-on or stopped, the eye stays in front; sliding sideways it
                        // may go round the wall's end, which is not tunnelling.
                        if response == Response::Stop || d.x == 0.0 {
                            assert!(o.end.z >= SKIN - 1e-5, "{method} {response} {d}: {}", o.end);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn moves_along_exact_diagonals_into_a_box_corner() {
    let room = CollisionWorld::new(cube(Vec3::splat(-2.0), Vec3::splat(2.0)));
    for method in InsideMethod::ALL {
        for d in [
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, 1.0),
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(-1.0, -1.0, -1.0),
        ] {
            for response in [Response::Stop, Response::Slide] {
                let steps = walk(&room, Vec3::ZERO, d * 0.1, 200, response, method);
                let end = steps.last().unwrap().end;
                for c in end.to_array() {
                    assert!(
                        c.abs() <= 2.0 - SKIN + 1e-5,
                        "{method} {response} {d}: {end}"
                    );
                }
            }
        }
    }
}

#[test]
fn start_exactly_on_a_plane_moves_off_to_either_side() {
    let world = long_wall(1);
    for method in InsideMethod::ALL {
        for dz in [0.5, -0.5] {
            let o = world.resolve_move(
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 0.0, dz),
                Response::Slide,
                method,
            );
            assert_eq!(o.end.z, dz, "{method}");
            // After that the wall holds on whichever side it went.
            let back = world.resolve_move(
                o.end,
                Vec3::new(0.0, 0.0, -2.0 * dz),
                Response::Stop,
                method,
            );
            assert!(
                (back.end.z.abs() - SKIN).abs() < 1e-5 && back.end.z.signum() == dz.signum(),
                "{method}: {}",
                back.end
            );
        }
    }
}

#[test]
fn start_inside_the_skin_band_is_held_but_can_slide_and_leave() {
    let world = long_wall(1);
    let p = Vec3::new(0.0, 0.0, SKIN * 0.25);
    for method in InsideMethod::ALL {
        let into = world.resolve_move(p, Vec3::new(0.0, 0.0, -1.0), Response::Stop, method);
        assert_eq!(into.end, p, "{method}");
        let slide = world.resolve_move(p, Vec3::new(1.0, 0.0, -1.0), Response::Slide, method);
        assert!(
            (slide.end - Vec3::new(1.0, 0.0, p.z)).length() < 1e-5,
            "{method}: {}",
            slide.end
        );
        let away = world.resolve_move(p, Vec3::new(0.0, 0.0, 1.0), Response::Stop, method);
        assert!(!away.hit);
    }
}

#[test]
fn crossing_exactly_through_a_shared_vertex_is_stopped() {
    // Six triangles fanned around the origin in the plane z = 0.
    let tris: Vec<[Vec3; 3]> = (0..6)
        .map(|k| {
            let a = |i: i32| {
                let t = i as f32 * std::f32::consts::TAU / 6.0;
                Vec3::new(t.cos(), t.sin(), 0.0)
            };
            [Vec3::ZERO, a(k), a(k + 1)]
        })
        .collect();
    let world = CollisionWorld::new(tris.clone());
    for method in InsideMethod::ALL {
        for response in [Response::Stop, Response::Slide] {
            let o = world.resolve_move(
                Vec3::new(0.0, 0.0, 1.0),
                Vec3::new(0.0, 0.0, -2.0),
                response,
                method,
            );
            assert!(
                o.hit && (o.end.z - SKIN).abs() < 1e-6,
                "{method} {response}: {}",
                o.end
            );
            for (a, b) in o.legs() {
                assert!(tris.iter().all(|t| !segment_touches(t, a, b)));
            }
        }
    }
}

#[test]
fn crossing_exactly_through_a_shared_edge_is_stopped() {
    let world = long_wall(4);
    // x = 0 and y = 0 are seams of the 4 x 4 cut.
    for method in InsideMethod::ALL {
        let o = world.resolve_move(
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(0.0, 0.0, -2.0),
            Response::Stop,
            method,
        );
        assert!(o.hit, "{method}");
        let o = world.resolve_move(
            Vec3::new(0.0, 3.3, 1.0),
            Vec3::new(0.0, 0.0, -2.0),
            Response::Stop,
            method,
        );
        assert!(o.hit, "{method}");
    }
}
