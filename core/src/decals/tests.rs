use glam::Vec3;

use super::*;
use crate::player::Pose;

/// An inside corner: the wall z = 0 (facing +Z) and the wall x = 1 (facing -X), 4 m
/// high, and a floor at y = 0.
fn corner() -> CollisionWorld {
    let quad = |a: Vec3, b: Vec3, c: Vec3, d: Vec3| [[a, b, c], [a, c, d]];
    let mut tris = Vec::new();
    tris.extend(quad(
        Vec3::new(-3.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 4.0, 0.0),
        Vec3::new(-3.0, 4.0, 0.0),
    ));
    tris.extend(quad(
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 4.0),
        Vec3::new(1.0, 4.0, 4.0),
        Vec3::new(1.0, 4.0, 0.0),
    ));
    tris.extend(quad(
        Vec3::new(-3.0, 0.0, 0.0),
        Vec3::new(-3.0, 0.0, 4.0),
        Vec3::new(1.0, 0.0, 4.0),
        Vec3::new(1.0, 0.0, 0.0),
    ));
    CollisionWorld::new(tris)
}

#[test]
fn a_decal_aimed_at_a_wall_lies_on_it_square_and_upright() {
    let w = corner();
    let eye = Pose::new(Vec3::new(-1.0, 2.0, 3.0), 0.0, 0.0);
    let p = aim(&w, &eye, 0).unwrap();
    assert!((p.point - Vec3::new(-1.0, 2.0, 0.0)).length() < 1e-5);
    assert_eq!(p.normal, Vec3::Z);
    assert!((p.up - Vec3::Y).length() < 1e-6);
    let d = build(&w, p).unwrap();
    // Only the wall: two triangles cut to the square (a fan each).
    let area: f32 = d
        .triangles
        .iter()
        .map(|t| {
            (t.corners[1] - t.corners[0])
                .cross(t.corners[2] - t.corners[0])
                .length()
                / 2.0
        })
        .sum();
    assert!((area - DECAL_SIZE * DECAL_SIZE).abs() < 1e-5, "{area}");
    for t in &d.triangles {
        for (c, uv) in t.corners.iter().zip(t.uv) {
            assert!(c.z.abs() < 1e-6, "{c}");
            // Texture across the square: u from its left (x -1.25) to its right.
            assert!((uv[0] - (c.x + 1.25) / 0.5).abs() < 1e-4, "{c} {uv:?}");
            assert!((uv[1] - (2.25 - c.y) / 0.5).abs() < 1e-4, "{c} {uv:?}");
        }
    }
}

#[test]
fn a_decal_in_a_corner_wraps_onto_both_walls_with_the_texture_unfolded() {
    let w = corner();
    // 0.1 m from the corner's edge (x = 1), looking at the wall z = 0.
    let eye = Pose::new(Vec3::new(0.9, 2.0, 3.0), 0.0, 0.0);
    let d = build(&w, aim(&w, &eye, 1).unwrap()).unwrap();
    let on_back = |c: Vec3| c.z.abs() < 1e-5;
    let on_side = |c: Vec3| (c.x - 1.0).abs() < 1e-5;
    let back: Vec<_> = d
        .triangles
        .iter()
        .filter(|t| t.corners.iter().all(|&c| on_back(c)))
        .collect();
    let side: Vec<_> = d
        .triangles
        .iter()
        .filter(|t| t.corners.iter().all(|&c| on_side(c)))
        .collect();
    assert_eq!(
        back.len() + side.len(),
        d.triangles.len(),
        "{:?}",
        d.triangles
    );
    assert!(!back.is_empty() && !side.is_empty());
    // On the side wall it reaches as far out as the square's half side.
    let out = side
        .iter()
        .flat_map(|t| t.corners)
        .map(|c| c.z)
        .fold(0.0, f32::max);
    assert!((out - 0.25).abs() < 1e-4, "{out}");
    // Unfolded: 0.15 m out from the corner reads as 0.15 m beyond the edge (u 0.7 + 0.3).
    for t in &side {
        for (c, uv) in t.corners.iter().zip(t.uv) {
            assert!(
                (uv[0] - (0.5 + (0.1 + c.z) / 0.5)).abs() < 1e-4,
                "{c} {uv:?}"
            );
        }
    }
}

#[test]
fn the_oldest_goes_past_the_limit_and_removal_takes_the_one_under_the_point() {
    let w = corner();
    let mut decals = Decals::default();
    for i in 0..MAX_DECALS + 3 {
        let eye = Pose::new(Vec3::new(-2.5 + i as f32 * 0.01, 2.0, 3.0), 0.0, 0.0);
        decals.add(build(&w, aim(&w, &eye, decals.next_texture()).unwrap()).unwrap());
    }
    assert_eq!(decals.list.len(), MAX_DECALS);
    assert!((decals.list[0].placement.point.x - (-2.47)).abs() < 1e-4);
    assert_eq!(decals.list[1].placement.texture, 1);
    let before = decals.generation;
    assert!(!decals.remove_at(Vec3::new(-1.0, 3.0, 0.0)));
    assert!(decals.remove_at(Vec3::new(0.06, 2.0, 0.0)));
    assert_eq!(decals.list.len(), MAX_DECALS - 1);
    assert!(decals.generation > before);
}

#[test]
fn placements_go_to_the_file_and_back_and_bad_ones_are_refused() {
    let frame = MapFrame {
        scale: 0.0254,
        up: crate::map::UpAxis::Z,
    };
    let p = Placement {
        point: Vec3::new(1.0, 2.0, 3.0),
        normal: Vec3::Z,
        up: Vec3::Y,
        size: 0.5,
        texture: 2,
    };
    let back = p.to_file(&frame).to_world(&frame).unwrap();
    assert!((back.point - p.point).length() < 1e-5 && (back.size - 0.5).abs() < 1e-6);
    assert!((back.normal - p.normal).length() < 1e-6 && (back.up - p.up).length() < 1e-6);
    let bad = Placement {
        normal: Vec3::ZERO,
        ..p
    };
    assert_eq!(bad.to_world(&frame), None);
    let bad = Placement {
        point: Vec3::new(f32::NAN, 0.0, 0.0),
        ..p
    };
    assert_eq!(bad.to_world(&frame), None);
}

#[test]
fn the_csv_has_a_row_a_triangle_in_file_coordinates() {
    let w = corner();
    let mut decals = Decals::default();
    let eye = Pose::new(Vec3::new(-1.0, 2.0, 3.0), 0.0, 0.0);
    decals.add(build(&w, aim(&w, &eye, 0).unwrap()).unwrap());
    let mut out = Vec::new();
    let frame = MapFrame {
        scale: 2.0,
        up: crate::map::UpAxis::Y,
    };
    csv::write_decals(&decals, &frame, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], csv::DECALS_HEADER);
    assert_eq!(lines.len(), 1 + decals.list[0].triangles.len());
    let f: Vec<f32> = lines[1]
        .split(',')
        .skip(2)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(f.len(), 9);
    assert!(lines[1].starts_with("0,target,"));
    // Half the world's coordinates: y between 1 and 1.25 * 0.5 + ...
    assert!(
        f.iter()
            .skip(1)
            .step_by(3)
            .all(|y| (0.874..=1.126).contains(y)),
        "{f:?}"
    );
}

#[test]
fn textures_take_turns_from_the_first_whatever_was_loaded() {
    let w = corner();
    let mut decals = Decals::default();
    let eye = Pose::new(Vec3::new(-1.0, 2.0, 3.0), 0.0, 0.0);
    let p = aim(&w, &eye, 2).unwrap();
    decals.rebuild(&w, [p, p]);
    assert_eq!(decals.next_texture(), 0);
    decals.add(build(&w, p).unwrap());
    assert_eq!(decals.next_texture(), 1);
}

/// A hand-edited decal a kilometre wide copied every triangle of
/// the map under it, and every decal of the file was made before all but the newest
/// 256 were dropped. A decal over more than [`MAX_DECAL_TRIANGLES`] is left out, and
/// only the newest [`MAX_DECALS`] are made.
#[test]
fn a_decal_over_too_many_triangles_is_left_out_and_only_the_newest_are_made() {
    // A floor of 100 x 100 cells (20,000 triangles) at y = 0.
    let n = 100;
    let tris: Vec<[Vec3; 3]> = (0..n * n)
        .flat_map(|k| {
            let o = Vec3::new((k % n) as f32, 0.0, (k / n) as f32);
            [
                [o, o + Vec3::Z, o + Vec3::X],
                [o + Vec3::X, o + Vec3::Z, o + Vec3::new(1.0, 0.0, 1.0)],
            ]
        })
        .collect();
    let w = CollisionWorld::new(tris.iter().copied());
    let at = |size: f32| Placement {
        point: Vec3::new(50.0, 0.0, 50.0),
        normal: Vec3::Y,
        up: Vec3::Z,
        size,
        texture: 0,
    };
    let small = build(&w, at(2.0)).expect("a 2 m decal over 8 cells is made");
    assert!(!small.triangles.is_empty());
    assert!(
        build(&w, at(1000.0)).is_none(),
        "a kilometre-wide decal was made"
    );
    let mut decals = Decals::default();
    let many: Vec<Placement> = (0..MAX_DECALS + 10)
        .map(|i| Placement {
            texture: (i % 3) as u8,
            ..at(if i == MAX_DECALS { 1000.0 } else { 2.0 })
        })
        .collect();
    let left_out = decals.rebuild(&w, many.iter().copied());
    assert_eq!(left_out, 1, "the huge one among the newest");
    assert_eq!(decals.list.len(), MAX_DECALS - 1);
    // The newest kept: the last placement's texture.
    let last = many.last().unwrap().texture;
    assert_eq!(decals.list.last().unwrap().placement.texture, last);
}
