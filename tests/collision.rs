//! The cases every character controller has got wrong at some point, each a named test,
//! run with every point-in-triangle method and, where it matters, both bodies: the walker
//! (an ellipsoid 0.6 x 1.8 x 0.6 m) and the flying eye (a sphere of the skin's radius).

mod common;

use common::{cube, nearest_ellipsoid_distance, rules, segment_touches, walk, wall};
use glam::Vec3;
use walkthrough_core::collision::SKIN;
use walkthrough_core::collision::{Body, CollisionWorld, Response, push_out, resolve_move};
use walkthrough_core::geometry::InsideMethod;
use walkthrough_core::map::MapFrame;
use walkthrough_core::player::{Controller, ControllerSettings, Mode, Pose};
use walkthrough_core::player::{FOV_RANGE_DEG, FieldOfView, NEAR_PLANE};
use walkthrough_core::sim::{parse_script, run_to_rows};
use walkthrough_core::text::names::Named;

const DT: f32 = 1.0 / 120.0;
const SPEED: f32 = 3.0;
const BODIES: [Body; 2] = [Body::FLYER, Body::WALKER];

/// Slack for `f32` positions in distance checks, in ellipsoid-space units.
const TOL_E: f64 = 1e-4;

/// A long wall in the plane z = 0 (facing +z), cut into `pieces` x `pieces` quads.
fn long_wall_triangles(pieces: usize) -> Vec<[Vec3; 3]> {
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
    tris
}

fn long_wall(pieces: usize) -> CollisionWorld {
    CollisionWorld::new(long_wall_triangles(pieces))
}

/// Walk into the wall at `angle` degrees from its normal; once in contact, every step
/// must move `speed * dt * sin(angle)` along the wall and rest at the body's distance.
fn slide_keeps_speed(angle_deg: f32, pieces: usize) {
    let world = long_wall(pieces);
    let a = angle_deg.to_radians();
    let d = Vec3::new(a.sin(), 0.0, -a.cos()) * SPEED * DT;
    for body in BODIES {
        let keep = body.rest_distance(Vec3::Z);
        for &method in InsideMethod::ALL {
            let r = rules(body, Response::Slide, method);
            let steps = walk(&world, &r, Vec3::new(0.3, 0.37, 1.0), d, 700);
            let first_contact = steps.iter().position(|o| o.hit).expect("reaches the wall");
            for (k, w) in steps[first_contact + 1..].windows(2).enumerate() {
                let moved = w[1].end - w[0].end;
                let want = SPEED * DT * a.sin();
                assert!(
                    (moved.x - want).abs() < 1e-4 * SPEED * DT,
                    "{method} at {angle_deg} deg, step {k}: moved {moved} want {want} along x"
                );
                assert!(
                    (w[1].end.z - keep).abs() < 1e-5,
                    "{method}: z {}",
                    w[1].end.z
                );
                assert!(moved.y.abs() < 1e-6);
            }
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
fn slide_through_a_shared_vertex_at_the_centre_height() {
    // The centre at y = 0, exactly the height of a row of shared vertices of the 20 x 20 wall.
    let world = long_wall(20);
    let d = Vec3::new(1.0, 0.0, -1.0).normalize() * SPEED * DT;
    for body in BODIES {
        for &method in InsideMethod::ALL {
            let r = rules(body, Response::Slide, method);
            let steps = walk(&world, &r, Vec3::new(-10.0 - 0.2, 0.0, 0.5), d, 2000);
            let end = steps.last().unwrap().end;
            assert!(end.x > 20.0, "{method}: stuck at {end}");
            assert!((end.z - body.rest_distance(Vec3::Z)).abs() < 1e-5);
        }
    }
}

/// A walker sliding along a flat wall of one quad stopped for good
/// where the quad's diagonal crossed its centre, and stayed stopped while the key was
/// held. Resting against the wall at the inner band's radius, a rounding of an `f32`
/// position inside it (the wall 3.2 m out, not at 0 as above), it took the diagonal of
/// the triangle beside the one it rested on for an edge it was pressed into. Walls at
/// several distances out, both ways of cutting the quad, every angle, body and method:
/// every step after the first contact slides `speed * dt * sin(angle)`.
#[test]
fn a_slide_along_a_flat_wall_crosses_the_diagonal_of_its_quad() {
    for z0 in [3.2f32, 37.7, 1000.3] {
        let (a, b, c, d) = (
            Vec3::new(-10.0, -1.0, z0),
            Vec3::new(10.0, -1.0, z0),
            Vec3::new(10.0, 3.0, z0),
            Vec3::new(-10.0, 3.0, z0),
        );
        for tris in [[[a, b, c], [a, c, d]], [[a, b, d], [b, c, d]]] {
            let world = CollisionWorld::new(tris.to_vec());
            for angle_deg in (10..=80).step_by(5) {
                let angle = (angle_deg as f32).to_radians();
                let step = Vec3::new(-angle.sin(), 0.0, -angle.cos()) * SPEED * DT;
                for body in BODIES {
                    for &method in InsideMethod::ALL {
                        let r = rules(body, Response::Slide, method);
                        let start = Vec3::new(6.0, 0.9, z0 + 0.5);
                        let steps = walk(&world, &r, start, step, 600);
                        let first = steps.iter().position(|o| o.hit).expect("meets the wall");
                        let want = step.x;
                        for (k, w) in steps[first + 1..].windows(2).enumerate() {
                            let moved = w[1].end.x - w[0].end.x;
                            assert!(
                                (moved - want).abs() < 1e-3 * want.abs(),
                                "wall at z {z0}, {angle_deg} deg, {method}, {body:?}: step {k} \
                                 moved {moved} along x, want {want} (at {})",
                                w[0].end
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Beside the fix above: a body held off a table top's plane within the
/// gap but out past its edge, falling, met the edge partway down and was handed the top's
/// normal (straight up), so a falling walker hung on the edge as if on ground. Past the
/// edge the edge's own normal holds: the body slides off it.
#[test]
fn a_body_falling_past_a_table_edge_meets_the_edge_not_the_top() {
    let f = 2.0;
    let top = vec![
        [
            Vec3::new(-f, 0.0, -f),
            Vec3::new(-f, 0.0, f),
            Vec3::new(0.0, 0.0, f),
        ],
        [
            Vec3::new(-f, 0.0, -f),
            Vec3::new(0.0, 0.0, f),
            Vec3::new(0.0, 0.0, -f),
        ],
    ];
    let world = CollisionWorld::new(top);
    for body in BODIES {
        // A quarter of the gap above the body's own reach of the top's plane.
        let gap = body.contact_radius() - 1.0;
        let held = ((1.0 + 0.25 * gap) * f64::from(body.radii.y)) as f32;
        for out in [0.3f32, 0.6, 0.9] {
            let r = rules(body, Response::Slide, InsideMethod::default());
            let start = Vec3::new(out * body.radii.x, held, 0.0);
            let o = resolve_move(&world, &r, start, Vec3::new(0.0, -1.2 * body.radii.y, 0.0));
            let first = o.contacts().next().expect("meets the edge");
            // The edge's normal leans out by about asin(out): 0.29 and more.
            assert!(
                first.normal.x > 0.25 && first.normal.y < 0.97,
                "{body:?}, {out} out: {}",
                first.normal
            );
            assert!(
                o.end.x > start.x,
                "{body:?}, {out} out: slid off to {}",
                o.end
            );
        }
    }
}

#[test]
fn stop_leaves_the_body_exactly_at_its_rest_distance() {
    let world = long_wall(1);
    for body in BODIES {
        for &method in InsideMethod::ALL {
            let r = rules(body, Response::Stop, method);
            let steps = walk(
                &world,
                &r,
                Vec3::new(0.2, 0.1, 1.5),
                Vec3::new(0.0, 0.0, -0.1),
                30,
            );
            let end = steps.last().unwrap().end;
            assert!(
                (end.z - body.rest_distance(Vec3::Z)).abs() < 1e-6,
                "{method}: {end}"
            );
            assert_eq!((end.x, end.y), (0.2, 0.1));
        }
    }
}

#[test]
fn stop_halts_the_whole_step_at_a_glancing_angle() {
    let world = long_wall(1);
    let r = rules(Body::FLYER, Response::Stop, InsideMethod::Barycentric);
    let steps = walk(
        &world,
        &r,
        Vec3::new(0.0, 0.0, 0.5),
        Vec3::new(0.5, 0.0, -0.05),
        50,
    );
    let end = steps.last().unwrap().end;
    // In stop mode the body does not creep along the wall: once in contact it stays.
    assert!(steps[40..].iter().all(|o| o.end == end));
    assert!((end.z - Body::FLYER.rest_distance(Vec3::Z)).abs() < 1e-5);
}

#[test]
fn skin_is_larger_than_the_near_plane_corner_distance() {
    let widest = FieldOfView::new(*FOV_RANGE_DEG.end());
    for aspect in [
        0.25,
        9.0 / 16.0,
        1.0,
        4.0 / 3.0,
        16.0 / 9.0,
        21.0 / 9.0,
        4.0,
    ] {
        let corner = widest.near_corner_distance(aspect);
        // The corner is at least the near plane's distance, and grows with the angle.
        assert!(
            corner > NEAR_PLANE * 1.5,
            "aspect {aspect}: corner {corner}"
        );
        assert!(SKIN > corner, "aspect {aspect}: corner {corner}");
    }
    assert!(Body::FLYER.radii.min_element() >= SKIN);
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
    for body in BODIES {
        for &method in InsideMethod::ALL {
            for dir in [
                Vec3::new(0.0, 0.0, -1.0),
                Vec3::new(0.2, 0.0, -1.0).normalize(),
                Vec3::new(-0.3, 0.0, -1.0).normalize(),
            ] {
                let r = rules(body, Response::Slide, method);
                let steps = walk(&world, &r, Vec3::new(0.0, 0.3, 4.0), dir * SPEED * DT, 600);
                let last = steps.last().unwrap().end;
                // No oscillation: the last 100 steps do not move at all.
                for o in &steps[500..] {
                    assert!(
                        (o.end - last).length() < 1e-6,
                        "{method} {angle_deg} jitter: {} vs {last}",
                        o.end
                    );
                }
                // Settled where both walls are at the rest distance (within the gap).
                let (keep, nearest) = (body.rest_distance(nl), body.min_rest_distance(nl));
                let (dl, dr) = (nl.dot(last), nr.dot(last));
                assert!(
                    dl > nearest - 1e-5 && dr > nearest - 1e-5,
                    "{method} {angle_deg}: {dl} {dr}"
                );
                assert!(
                    dl < keep + 1e-3 && dr < keep + 1e-3,
                    "{method} {angle_deg} did not reach the apex: {dl} {dr}"
                );
            }
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
    for body in BODIES {
        let d = Vec3::new(-1.0, -1.0, -1.0).normalize() * 0.05;
        let r = rules(body, Response::Slide, InsideMethod::Barycentric);
        let end = walk(&world, &r, Vec3::ZERO, d, 400).last().unwrap().end;
        let want = Vec3::new(
            body.rest_distance(Vec3::X),
            body.rest_distance(Vec3::Y),
            body.rest_distance(Vec3::Z),
        ) - Vec3::splat(5.0);
        assert!((end - want).length() < 1e-4, "{end} vs {want}");
    }
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
    let body = Body::FLYER;
    let r = rules(body, Response::Slide, InsideMethod::Barycentric);
    let steps = walk(&world, &r, Vec3::new(0.0, 0.5, 0.5), d, 400);
    for w in steps[300..].windows(2) {
        let dx = w[1].end.x - w[0].end.x;
        assert!((dx - 0.05 / 3f32.sqrt()).abs() < 1e-5, "crease speed {dx}");
    }
    let end = steps.last().unwrap().end;
    let keep = body.rest_distance(Vec3::Y);
    assert!(
        (end.y - keep).abs() < 1e-4 && (end.z - keep).abs() < 1e-4,
        "{end}"
    );
}

#[test]
fn corridor_barely_wider_than_the_body_is_walkable() {
    for body in BODIES {
        let keep = body.rest_distance(Vec3::X);
        let half = keep * 1.5;
        let mut tris = vec![];
        tris.extend(wall(-half, -100.0, -half, 100.0, 5.0));
        tris.extend(wall(half, -100.0, half, 100.0, 5.0));
        let world = CollisionWorld::new(tris);
        for &method in InsideMethod::ALL {
            let r = rules(body, Response::Slide, method);
            // Straight down the middle: free.
            let steps = walk(
                &world,
                &r,
                Vec3::ZERO,
                Vec3::new(0.0, 0.0, -SPEED * DT),
                100,
            );
            assert!(steps.iter().all(|o| !o.hit), "{method}");
            // Diagonally: slides along, never stuck, never closer than the body allows.
            let d = Vec3::new(1.0, 0.0, -1.0).normalize() * SPEED * DT;
            let steps = walk(&world, &r, Vec3::ZERO, d, 200);
            let end = steps.last().unwrap().end;
            assert!(end.z < -1.0, "{method}: stuck at {end}");
            for o in &steps {
                assert!(o.end.x.abs() <= half - keep + 1e-5, "{method}: {}", o.end);
            }
        }
    }
}

#[test]
fn move_many_times_longer_than_a_thin_wall_does_not_tunnel() {
    // A box wall 1 cm thick, and a single plane of zero thickness; moves of 10 m and 10 km
    // a step: the body never overlaps the wall, its centre's path never crosses it.
    let thick = cube(Vec3::new(-5.0, -5.0, -0.005), Vec3::new(5.0, 5.0, 0.005));
    let thin: Vec<[Vec3; 3]> = wall(-5.0, 0.0, 5.0, 0.0, 5.0).to_vec();
    for tris in [&thick, &thin] {
        let world = CollisionWorld::new(tris.iter().copied());
        for body in BODIES {
            for &method in InsideMethod::ALL {
                for response in [Response::Stop, Response::Slide] {
                    for d in [
                        Vec3::new(0.0, 0.0, -10.0),
                        Vec3::new(3.0, 1.0, -10.0),
                        Vec3::new(0.0, 0.0, -1e4),
                    ] {
                        let r = rules(body, response, method);
                        let steps = walk(&world, &r, Vec3::new(0.1, 0.2, 1.5), d, 5);
                        for o in &steps {
                            for (a, b) in o.legs() {
                                assert!(
                                    tris.iter().all(|t| !segment_touches(t, a, b)),
                                    "{method} {response} {d}: {a} -> {b}"
                                );
                            }
                            let gap = nearest_ellipsoid_distance(&body, o.end, tris);
                            assert!(gap >= 1.0 - TOL_E, "{method} {response} {d}: {gap}");
                            // Head-on or stopped, the body stays in front; sliding sideways
                            // it may go round the wall's end, which is not tunnelling.
                            if response == Response::Stop || d.x == 0.0 {
                                assert!(o.end.z > 0.0, "{method} {response} {d}: {}", o.end);
                            }
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
    for body in BODIES {
        for &method in InsideMethod::ALL {
            for d in [
                Vec3::new(1.0, 0.0, 1.0),
                Vec3::new(-1.0, 0.0, 1.0),
                Vec3::new(1.0, 1.0, 1.0),
                Vec3::new(-1.0, -1.0, -1.0),
            ] {
                for response in [Response::Stop, Response::Slide] {
                    let r = rules(body, response, method);
                    let steps = walk(&room, &r, Vec3::ZERO, d * 0.1, 200);
                    let end = steps.last().unwrap().end;
                    // Stop rests on the first wall met; slide ends in the corner the
                    // diagonal points to, resting on each of its walls.
                    let mut resting = 0;
                    for (axis, c) in end.to_array().into_iter().enumerate() {
                        let keep = body.rest_distance(Vec3::AXES[axis]);
                        let limit = 2.0 - keep;
                        assert!(c.abs() <= limit + 1e-5, "{method} {response} {d}: {end}");
                        let rests = d[axis] != 0.0 && (c - d[axis].signum() * limit).abs() < 1e-3;
                        resting += rests as usize;
                        if response == Response::Slide && d[axis] != 0.0 {
                            assert!(rests, "{method} {response} {d}: {end} not in the corner");
                        }
                    }
                    assert!(
                        resting >= 1,
                        "{method} {response} {d}: {end} touches no wall"
                    );
                }
            }
        }
    }
}

#[test]
fn body_resting_against_a_wall_is_held_but_can_slide_and_leave() {
    let world = long_wall(1);
    for body in BODIES {
        let p = Vec3::new(0.0, 0.0, body.rest_distance(Vec3::Z));
        for &method in InsideMethod::ALL {
            let stop = rules(body, Response::Stop, method);
            let into = resolve_move(&world, &stop, p, Vec3::new(0.0, 0.0, -1.0));
            assert_eq!(into.end, p, "{method}");
            assert!(into.hit);
            let slide = rules(body, Response::Slide, method);
            let along = resolve_move(&world, &slide, p, Vec3::new(1.0, 0.0, -1.0));
            assert!(
                (along.end - Vec3::new(1.0, 0.0, p.z)).length() < 1e-5,
                "{method}: {}",
                along.end
            );
            let away = resolve_move(&world, &stop, p, Vec3::new(0.0, 0.0, 1.0));
            assert!(!away.hit);
            assert_eq!(away.end, p + Vec3::Z);
        }
    }
}

#[test]
fn embedded_start_is_pushed_out_to_the_rest_distance() {
    let world = long_wall(1);
    for body in BODIES {
        let keep = body.rest_distance(Vec3::Z);
        // Halfway into the wall, and with the centre on the plane itself.
        for (z, side) in [(keep * 0.5, 1.0), (-keep * 0.3, -1.0), (0.0, 1.0)] {
            let freed = push_out(&world, &body, Vec3::new(1.0, 2.0, z));
            assert!(freed.pushed, "{z}");
            assert!(
                (freed.centre - Vec3::new(1.0, 2.0, side * keep)).length() < 1e-5,
                "{z}: {}",
                freed.centre
            );
        }
        // At rest already: not nudged.
        let rest = Vec3::new(1.0, 2.0, keep);
        assert!(!push_out(&world, &body, rest).pushed);
    }
}

#[test]
fn walker_spawned_half_inside_a_room_corner_is_pushed_out_by_the_controller() {
    let room = CollisionWorld::new(cube(Vec3::new(-3.0, 0.0, -3.0), Vec3::new(3.0, 3.0, 3.0)));
    // Eye at 1.6 m, the body's centre 0.1 m from two walls (its radius is 0.3 m).
    let pose = Pose::new(Vec3::new(2.9, 1.6, 2.9), 0.0, 0.0);
    let mut c = Controller::new(pose, ControllerSettings::default());
    let report = c.step(&room, &Default::default(), DT);
    assert!(report.pushed_out);
    let keep = Body::WALKER.rest_distance(Vec3::X);
    let p = c.pose.position;
    assert!(
        (p.x - (3.0 - keep)).abs() < 1e-4 && (p.z - (3.0 - keep)).abs() < 1e-4,
        "{p}"
    );
    // Standing on the floor, not lifted by it.
    assert!((p.y - 1.6).abs() < 2e-3, "{p}");
    // The next step has nothing to push.
    assert!(!c.step(&room, &Default::default(), DT).pushed_out);
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
    let body = Body::FLYER;
    for &method in InsideMethod::ALL {
        for response in [Response::Stop, Response::Slide] {
            let r = rules(body, response, method);
            let o = resolve_move(
                &world,
                &r,
                Vec3::new(0.0, 0.0, 1.0),
                Vec3::new(0.0, 0.0, -2.0),
            );
            assert!(
                o.hit && (o.end.z - body.rest_distance(Vec3::Z)).abs() < 1e-6,
                "{method} {response}: {}",
                o.end
            );
            assert_eq!((o.end.x, o.end.y), (0.0, 0.0));
            for (a, b) in o.legs() {
                assert!(tris.iter().all(|t| !segment_touches(t, a, b)));
            }
        }
    }
}

#[test]
fn crossing_exactly_through_a_shared_edge_is_stopped() {
    let world = long_wall(4);
    let body = Body::FLYER;
    let keep = body.rest_distance(Vec3::Z);
    // x = 0 and y = 0 are seams of the 4 x 4 cut.
    for &method in InsideMethod::ALL {
        let r = rules(body, Response::Stop, method);
        for start in [Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 3.3, 1.0)] {
            let o = resolve_move(&world, &r, start, Vec3::new(0.0, 0.0, -2.0));
            assert!(o.hit, "{method}");
            assert!(
                (o.end - Vec3::new(start.x, start.y, keep)).length() < 1e-6,
                "{method}: {}",
                o.end
            );
        }
    }
}

/// The scenario of the issue: a zero-thickness wall (one quad in the plane x = 0, z from -4
/// to 2) met edge-on, then followed along its face, through the real controller and script
/// player.
fn edge_on_wall_trace(mode: &str, spawn: Vec3) -> (Vec<Vec3>, Vec<[Vec3; 3]>) {
    let tris = vec![
        [
            Vec3::new(0.0, -1.0, -4.0),
            Vec3::new(0.0, -1.0, 2.0),
            Vec3::new(0.0, 4.0, 2.0),
        ],
        [
            Vec3::new(0.0, -1.0, -4.0),
            Vec3::new(0.0, 4.0, 2.0),
            Vec3::new(0.0, 4.0, -4.0),
        ],
    ];
    // A floor under it for the walker to stand on.
    let mut world_tris = tris.clone();
    world_tris.extend(floor_with(&[]).1);
    let world = CollisionWorld::new(world_tris);
    let text = format!("mode {mode}\nresponse stop\nforward 2.5\nturn 90\nforward 1\n");
    let script = parse_script("edge-on.txt", &text).unwrap();
    let mut c = Controller::new(Pose::new(spawn, 0.0, 0.0), ControllerSettings::default());
    let rows = run_to_rows(&world, &MapFrame::default(), &mut c, &script, f64::from(DT));
    (rows.iter().map(|r| r.file_point()).collect(), tris)
}

#[test]
fn zero_thickness_wall_met_edge_on_keeps_the_flying_eye_a_skin_away() {
    let (eyes, tris) = edge_on_wall_trace("fly", Vec3::new(0.001, 1.6, 7.0));
    for (k, eye) in eyes.iter().enumerate() {
        let gap = nearest_ellipsoid_distance(&Body::FLYER, *eye, &tris) * f64::from(SKIN);
        assert!(
            gap >= f64::from(SKIN) - 1e-5,
            "row {k}: eye {eye} only {gap} m from the wall"
        );
    }
    // It did reach the edge (and stopped there rather than far away).
    let end = *eyes.last().unwrap();
    assert!(end.z > 2.0 && end.z < 2.0 + SKIN * 1.2, "{end}");
}

#[test]
fn zero_thickness_wall_met_edge_on_keeps_the_walker_its_radius_away() {
    let (eyes, tris) = edge_on_wall_trace("walk", Vec3::new(0.001, 1.6, 7.0));
    for (k, eye) in eyes.iter().enumerate() {
        let centre = Body::WALKER.centre_of(*eye);
        let gap = nearest_ellipsoid_distance(&Body::WALKER, centre, &tris);
        assert!(gap >= 1.0 - TOL_E, "row {k}: {eye}: {gap}");
        // At the centre's height the wall is a vertical line: 0.3 m horizontally.
        let horizontal = Vec3::new(eye.x, 0.0, eye.z - 2.0).length();
        assert!(
            eye.z > 2.0 - 1e-4 || eye.x.abs() >= 0.3 - 1e-4,
            "row {k}: {eye}"
        );
        assert!(
            horizontal >= 0.3 - 1e-4,
            "row {k}: {eye} is {horizontal} from the edge"
        );
    }
}

#[test]
fn pillar_passed_diagonally_at_its_convex_corner_keeps_the_body_off_it() {
    let pillar = cube(Vec3::new(-0.5, -5.0, -0.5), Vec3::new(0.5, 5.0, 0.5));
    let world = CollisionWorld::new(pillar.clone());
    for body in BODIES {
        for &method in InsideMethod::ALL {
            for response in [Response::Stop, Response::Slide] {
                // Aimed just inside the corner (0.5, 0.5): the body grazes it.
                let start = Vec3::new(-2.0, 0.0, 3.0);
                let d = (Vec3::new(0.45, 0.0, 0.55) - start).normalize() * SPEED * DT;
                let r = rules(body, response, method);
                let steps = walk(&world, &r, start, d, 600);
                for o in &steps {
                    let gap = nearest_ellipsoid_distance(&body, o.end, &pillar);
                    assert!(
                        gap >= 1.0 - TOL_E,
                        "{method} {response}: {} at {gap}",
                        o.end
                    );
                }
                let end = steps.last().unwrap().end;
                if response == Response::Slide {
                    assert!(
                        end.x > 2.0,
                        "{method}: did not slide round the corner: {end}"
                    );
                } else {
                    assert!(steps.iter().any(|o| o.hit), "{method}: never touched");
                }
            }
        }
    }
}

/// A world with a floor at y = 0 and `boxes` on it.
fn floor_with(boxes: &[(Vec3, Vec3)]) -> (CollisionWorld, Vec<[Vec3; 3]>) {
    let mut tris = common::floor(20.0);
    for &(lo, hi) in boxes {
        tris.extend(cube(lo, hi));
    }
    (CollisionWorld::new(tris.clone()), tris)
}

/// Walk forward (toward -z) from an eye at `start` for `secs`, returning every eye.
fn walk_forward(world: &CollisionWorld, response: Response, start: Vec3, secs: f32) -> Vec<Vec3> {
    let text = format!("response {}\nforward {secs}\n", response.name());
    let script = parse_script("walk.txt", &text).unwrap();
    let mut c = Controller::new(Pose::new(start, 0.0, 0.0), ControllerSettings::default());
    assert_eq!(c.settings.mode, Mode::Walk);
    let rows = run_to_rows(world, &MapFrame::default(), &mut c, &script, f64::from(DT));
    rows.iter().map(|r| r.file_point()).collect()
}

#[test]
fn walker_stops_at_a_table_edge_instead_of_passing_over_it() {
    // A table 0.75 m high whose near edge is at z = 0; the walker comes from z = 3.
    let table = (Vec3::new(-1.0, 0.0, -1.5), Vec3::new(1.0, 0.75, 0.0));
    let (world, tris) = floor_with(&[table]);
    for response in [Response::Stop, Response::Slide] {
        let eyes = walk_forward(&world, response, Vec3::new(0.2, 1.6, 3.0), 2.0);
        let end = *eyes.last().unwrap();
        // Stopped at the edge: the edge is the body's nearest point, at its radius
        // measured in ellipsoid space (0.3 m level with the centre, less below it).
        assert!(end.z > 0.0 && end.z < 0.3 + 1e-3, "{response}: {end}");
        for eye in &eyes {
            assert!((eye.y - 1.6).abs() < 2e-3, "{response}: climbed to {eye}");
            let gap =
                nearest_ellipsoid_distance(&Body::WALKER, Body::WALKER.centre_of(*eye), &tris);
            assert!(gap >= 1.0 - TOL_E, "{response}: {eye} overlaps ({gap})");
        }
    }
}

#[test]
fn walker_stops_under_a_low_shelf_with_its_head_below_it() {
    // A shelf board 1.7 m up (the walker is 1.8 m tall), its edge at z = 0.
    let shelf = (Vec3::new(-1.0, 1.7, -1.0), Vec3::new(1.0, 1.72, 0.0));
    let (world, tris) = floor_with(&[shelf]);
    for response in [Response::Stop, Response::Slide] {
        let eyes = walk_forward(&world, response, Vec3::new(0.0, 1.6, 3.0), 2.0);
        let end = *eyes.last().unwrap();
        assert!(
            end.z > 0.0,
            "{response}: the head went under the shelf: {end}"
        );
        assert!(end.z < 0.3, "{response}: stopped too early: {end}");
        assert!(
            (end.y - 1.6).abs() < 2e-3,
            "{response}: pushed down to {end}"
        );
        for eye in &eyes {
            let gap =
                nearest_ellipsoid_distance(&Body::WALKER, Body::WALKER.centre_of(*eye), &tris);
            assert!(gap >= 1.0 - TOL_E, "{response}: {eye} overlaps ({gap})");
        }
    }
}

#[test]
fn speed_of_1e30_metres_a_second_still_stops_at_the_wall() {
    let room = CollisionWorld::new(cube(Vec3::splat(-4.0), Vec3::splat(4.0)));
    for mode in [Mode::Walk, Mode::Fly] {
        for response in [Response::Stop, Response::Slide] {
            let settings = ControllerSettings {
                speed: 1e30,
                mode,
                response,
                ..ControllerSettings::default()
            };
            let mut c = Controller::new(Pose::new(Vec3::new(0.0, -2.0, 0.0), 30.0, 10.0), settings);
            let intent = walkthrough_core::player::MoveIntent {
                forward: 1.0,
                strafe: 0.3,
                ..Default::default()
            };
            for _ in 0..10 {
                c.step(&room, &intent, DT);
                let p = c.pose.position;
                assert!(p.is_finite(), "{mode} {response}: {p}");
                let body = c.body();
                let centre = body.centre_of(p);
                for axis in 0..3 {
                    let limit = 4.0 - body.radii[axis];
                    assert!(
                        centre[axis].abs() <= limit + 1e-3,
                        "{mode} {response}: {centre}"
                    );
                }
            }
            assert_ne!(
                c.pose.position,
                Vec3::new(0.0, -2.0, 0.0),
                "{mode} {response}"
            );
        }
    }
}

/// Found by the property test on CI: a flying eye resting against one triangle of a wall,
/// moving almost along it and a hair into it, crosses the diagonal seam into the other
/// triangle. That edge is only grazed, and the eye ended 0.7 mm inside the second face.
#[test]
fn glancing_move_across_a_wall_seam_stays_off_the_wall() {
    let half = Vec3::new(5.7414804, 5.5820313, 2.4367886);
    let mut tris = cube(-half, half);
    tris.extend(wall(3.6832905, -1.4091085, -1.8849857, 0.88270813, half.y));
    let world = CollisionWorld::new(tris.iter().copied());
    let body = Body::FLYER;
    for &method in InsideMethod::ALL {
        let rules = rules(body, Response::Stop, method);
        let mut p = push_out(&world, &body, Vec3::new(1.3677135, 2.0277703, -1.6299683)).centre;
        let script = [
            (
                Vec3::new(-0.5260451, -0.7419075, 0.95829177) * 173.52805 * 0.004234946,
                17,
            ),
            (
                Vec3::new(-0.59001595, -0.008655292, 0.24494505) * 163.13379 * 0.0053652977,
                8,
            ),
        ];
        for (d, n) in script {
            for o in walk(&world, &rules, p, d, n) {
                let gap = nearest_ellipsoid_distance(&body, o.end, &tris);
                assert!(gap >= 1.0 - TOL_E, "{method}: {} overlaps ({gap})", o.end);
                p = o.end;
            }
        }
        assert!(
            p.x < 0.45,
            "{method}: the eye never slid along the wall: {p}"
        );
    }
}

/// Found by the property test: a walker resting against a wall (in the contact gap of one
/// triangle, beside the other), moving at 600 m/s almost along it and a hair into it
/// toward the wall's end. The plane is touched beside the second triangle, its diagonal
/// is grazed, and the centre crossed over its face to stop at the wall's end edge 2 mm
/// inside the face.
#[test]
fn fast_glancing_move_along_a_wall_to_its_end_stays_off_the_face() {
    let half = Vec3::new(3.7629852, 5.4223185, 7.571147);
    let mut tris = cube(-half, half);
    tris.extend(wall(2.915065, -0.82284063, -0.45143744, 2.336923, half.y));
    let world = CollisionWorld::new(tris.iter().copied());
    let body = Body::WALKER;
    let start = Vec3::new(2.2055368, -2.500563, 0.25491062);
    let gap = nearest_ellipsoid_distance(&body, start, &tris);
    assert!(
        gap > 1.0 && gap < body.contact_radius(),
        "not resting: {gap}"
    );
    for &method in InsideMethod::ALL {
        for response in [Response::Stop, Response::Slide] {
            let rules = rules(body, response, method);
            let o = resolve_move(
                &world,
                &rules,
                start,
                Vec3::new(33.525978, -15.60764, -31.591805),
            );
            let gap = nearest_ellipsoid_distance(&body, o.end, &tris);
            assert!(
                gap >= 1.0 - TOL_E,
                "{method} {response}: {} overlaps ({gap})",
                o.end
            );
            assert!(o.end != start, "{method} {response}: did not move");
        }
    }
}
