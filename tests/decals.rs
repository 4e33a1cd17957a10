//! Decals through `sim --decals-out`: a decal stuck by a script's
//! `decal` line near a room's corner is clipped to both walls, its triangles written in
//! the map file's coordinates.

mod common;

use std::process::Command;

use glam::Vec3;
use walkthrough_core::test_kit::obj::obj_text_in;

/// Where corners may be off the walls they lie on, file units.
const ON_WALL: f32 = 1e-4;

#[test]
fn a_decal_stuck_near_a_corner_of_a_z_up_room_lies_on_both_walls() {
    let dir = std::env::temp_dir().join(format!("walkthrough-decals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A closed room 4 x 3 x 4 m (world: Y up), written Z-up: the world's wall z = 0 is
    // the file's y = 0, the wall x = 4 stays x = 4.
    let room = common::cube(Vec3::ZERO, Vec3::new(4.0, 3.0, 4.0));
    let map = dir.join("room.obj");
    std::fs::write(&map, obj_text_in(&room, true, 1.0)).unwrap();
    // 0.4 m from the wall x = 4, looking 15 degrees right of -Z: the crosshair meets the
    // wall z = 0 at x = 3.87, 0.13 m from the corner.
    let script = dir.join("decal.txt");
    std::fs::write(&script, "start 3.6,1.6,1 -15 0\ndecal\nwait 0.1\n").unwrap();
    let csv = dir.join("decals.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        .env("WALKTHROUGH_CONFIG_DIR", dir.join("config"))
        .env("WALKTHROUGH_CACHE_DIR", dir.join("cache"))
        .args(["sim", map.to_str().unwrap(), "--up", "z", "--scale", "1"])
        .args(["--script", script.to_str().unwrap()])
        .args(["--decals-out", csv.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("decal,texture,x0,y0,z0,x1,y1,z1,x2,y2,z2")
    );
    let (mut back, mut side) = (0, 0);
    let mut reach = 0.0f32;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(&f[..2], ["0", "target"], "{line}");
        let c: Vec<Vec3> = f[2..]
            .chunks(3)
            .map(|p| {
                Vec3::new(
                    p[0].parse().unwrap(),
                    p[1].parse().unwrap(),
                    p[2].parse().unwrap(),
                )
            })
            .collect();
        assert_eq!(c.len(), 3, "{line}");
        if c.iter().all(|p| p.y.abs() < ON_WALL) {
            back += 1;
            // Within the square: 0.25 m either side of x = 3.868, 1.35 to 1.85 high.
            assert!(
                c.iter().all(|p| (3.61..=4.0 + ON_WALL).contains(&p.x)),
                "{line}"
            );
            assert!(
                c.iter()
                    .all(|p| (1.35 - ON_WALL..=1.85 + ON_WALL).contains(&p.z)),
                "{line}"
            );
        } else if c.iter().all(|p| (p.x - 4.0).abs() < ON_WALL) {
            side += 1;
            reach = c.iter().map(|p| -p.y).fold(reach, f32::max);
        } else {
            panic!("a triangle on neither wall: {line}");
        }
    }
    assert!(back >= 2 && side >= 2, "back wall {back}, side wall {side}");
    // Onto the side wall as far out as half the square's side (the file's -y is out).
    assert!((reach - 0.25).abs() < 1e-3, "{reach}");
    let _ = std::fs::remove_dir_all(&dir);
}
