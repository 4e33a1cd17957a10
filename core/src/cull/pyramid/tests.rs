use glam::Vec3;

use super::*;
use crate::cull::fixtures::{SIDE, camera, depth_at, fixed, wall};
use crate::geometry::Aabb;
use crate::test_kit::random::Xorshift64;

fn cube(centre: Vec3, half: f32) -> Aabb {
    Aabb {
        min: centre - Vec3::splat(half),
        max: centre + Vec3::splat(half),
    }
}

#[test]
fn each_level_keeps_the_furthest_depth_of_the_texels_below() {
    let mut p = DepthPyramid::default();
    // 5 x 3: odd sides round up (3 x 2, 2 x 1, 1 x 1).
    p.rebuild(5, 3, |d| {
        for (i, v) in d.iter_mut().enumerate() {
            *v = i as u32;
        }
    });
    let sizes: Vec<(usize, usize)> = p.levels.iter().map(|l| (l.width, l.height)).collect();
    assert_eq!(sizes, vec![(5, 3), (3, 2), (2, 1), (1, 1)]);
    // Level 1, texel (2, 0) covers column 4 of rows 0 and 1: depths 4 and 9.
    assert_eq!(p.levels[1].at(2, 0), 9);
    assert_eq!(p.levels[1].at(0, 1), 11);
    assert_eq!(p.levels[3].at(0, 0), 14);
    // Rebuilt smaller, the old levels go.
    p.rebuild(1, 1, |d| d[0] = 5);
    assert_eq!(p.levels.len(), 1);
}

#[test]
fn a_wall_hides_a_box_behind_it_not_one_beside_it_in_front_or_at_the_eye() {
    let (view, proj) = camera();
    let p = wall(5.0, SIDE / 2);
    // The wall covers x < 0 of the view: at 10 m ahead, x from -10 to 0.
    assert!(p.hides(view, proj, &cube(Vec3::new(-5.0, 0.0, -10.0), 1.0)));
    assert!(
        !p.hides(view, proj, &cube(Vec3::new(0.0, 0.0, -10.0), 1.0)),
        "straddles"
    );
    assert!(
        !p.hides(view, proj, &cube(Vec3::new(5.0, 0.0, -10.0), 1.0)),
        "beside"
    );
    assert!(
        !p.hides(view, proj, &cube(Vec3::new(-1.0, 0.0, -3.0), 0.5)),
        "in front"
    );
    assert!(!p.hides(view, proj, &cube(Vec3::ZERO, 0.5)), "at the eye");
    assert!(
        !p.hides(view, proj, &cube(Vec3::new(-5.0, 0.0, 10.0), 1.0)),
        "behind the eye"
    );
    // The wall's own box (its face at 5 m) is never hidden by the wall's depth.
    let own = Aabb {
        min: Vec3::new(-5.0, -5.0, -5.0),
        max: Vec3::new(-0.5, 5.0, -5.0),
    };
    assert!(!p.hides(view, proj, &own));
    // Wholly off the screen: nothing shows.
    assert!(p.hides(view, proj, &cube(Vec3::new(-50.0, 0.0, -10.0), 1.0)));
}

#[test]
fn far_away_the_depth_margin_keeps_a_box_just_behind_a_wall() {
    let (view, proj) = camera();
    let p = wall(100.0, SIDE);
    // At 100 m one step of a 24-bit depth buffer is about 6 cm (near plane 1 cm): the
    // margin's 64 steps are about 4 m.
    assert!(!p.hides(view, proj, &cube(Vec3::new(0.0, 0.0, -102.0), 0.25)));
    assert!(p.hides(view, proj, &cube(Vec3::new(0.0, 0.0, -110.0), 1.0)));
}

#[test]
fn an_empty_pyramid_hides_nothing() {
    let (view, proj) = camera();
    let p = DepthPyramid::default();
    assert!(!p.hides(view, proj, &cube(Vec3::new(0.0, 0.0, -10.0), 1.0)));
}

#[test]
fn a_hidden_box_is_behind_the_depth_at_every_point_of_it() {
    // Random walls at random depths over an odd-sized window; random boxes. Whenever a box
    // is said hidden, every point sampled on its faces projects onto a pixel whose depth
    // is nearer than the point: the test never leaves out what shows.
    let (view, _) = camera();
    let (w, h) = (97usize, 61usize);
    let proj = Mat4::perspective_rh_gl(70f32.to_radians(), w as f32 / h as f32, 0.01, 1000.0)
        * Mat4::IDENTITY;
    let mut seed = Xorshift64(0x2545_f491);
    let mut random = move || seed.unit_fine();
    let (mut hidden, mut tested) = (0, 0);
    for _ in 0..40 {
        let mut depth = vec![u32::MAX; w * h];
        for _ in 0..4 {
            let (x0, y0) = (
                (random() * w as f32) as usize,
                (random() * h as f32) as usize,
            );
            let (x1, y1) = (
                (x0 + 10 + (random() * 60.0) as usize).min(w),
                (y0 + 10 + (random() * 40.0) as usize).min(h),
            );
            let d = fixed(depth_at(proj, 1.0 + random() * 30.0));
            for y in y0..y1 {
                for x in x0..x1 {
                    depth[y * w + x] = depth[y * w + x].min(d);
                }
            }
        }
        let mut p = DepthPyramid::default();
        p.rebuild(w, h, |d| d.copy_from_slice(&depth));
        for _ in 0..200 {
            let c = Vec3::new(
                random() * 40.0 - 20.0,
                random() * 24.0 - 12.0,
                -2.0 - random() * 40.0,
            );
            let b = cube(c, 0.1 + random() * 2.0);
            tested += 1;
            if !p.hides(view, proj, &b) {
                continue;
            }
            hidden += 1;
            let n = 12;
            for i in 0..=n {
                for j in 0..=n {
                    for k in 0..=n {
                        let t = Vec3::new(i as f32, j as f32, k as f32) / n as f32;
                        let on_face = [i, j, k].iter().any(|&v| v == 0 || v == n);
                        if !on_face {
                            continue;
                        }
                        let point = b.min + (b.max - b.min) * t;
                        let clip = proj * point.extend(1.0);
                        let ndc = clip.xyz() / clip.w;
                        let (px, py) = (
                            (ndc.x + 1.0) * 0.5 * w as f32,
                            (ndc.y + 1.0) * 0.5 * h as f32,
                        );
                        if px < 0.0 || py < 0.0 || px >= w as f32 || py >= h as f32 {
                            continue;
                        }
                        let there = depth[py as usize * w + px as usize];
                        let point_depth = fixed(depth_at(proj, -point.z));
                        assert!(
                            there < point_depth,
                            "box {b:?} said hidden, but {point} shows"
                        );
                    }
                }
            }
        }
    }
    // The test is worth something only if both answers came up often.
    assert!(
        hidden > 300 && tested - hidden > 300,
        "{hidden} of {tested} hidden"
    );
}

#[test]
fn window_depth_turns_back_into_the_distance_it_came_from() {
    let (_, proj) = camera();
    for d in [0.05f32, 1.0, 10.0, 100.0, 900.0] {
        let back = distance_of_depth(proj, depth_at(proj, d)).unwrap();
        assert!((back - d).abs() < d * 2e-3, "{d} -> {back}");
    }
    assert_eq!(distance_of_depth(proj, 1.0), None);
}
