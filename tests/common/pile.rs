//! A pile of movers: `n` doors stacked on one spot, each swinging toward a wall the
//! walker stands against, so that every door pushes the body into the wall and is
//! blocked (the pile the tests and the `walk` bench share).

use glam::{Affine3A, Vec3};
use walkthrough_core::collision::{CollisionWorld, InstancedWorld};
use walkthrough_core::map::motion::{Ease, Key, Motion, Play, Start};
use walkthrough_core::map::scene::Mover;

use super::{cube, floor};

/// Where the walker's eye stands: against the wall (its face at x = 0), among the doors.
pub const PILE_EYE: Vec3 = Vec3::new(-0.32, 1.6, 6.0);

/// A floor, a wall (x 0 to 0.5, z 3 to 9, 3 m high) and `n` doors (0.1 x 2.2 x 1.4 m)
/// whose first pose is at (-1, 0, 6); each door ping-pongs every 0.5 s toward the wall,
/// to (-0.5, 0.2, 6.2), turning by its own angle (0 to 40 degrees) about the vertical.
pub fn door_pile(n: usize) -> (InstancedWorld, Vec<Mover>) {
    let models = vec![
        CollisionWorld::new(floor(20.0)),
        CollisionWorld::new(cube(Vec3::new(0.0, 0.0, 3.0), Vec3::new(0.5, 3.0, 9.0))),
        CollisionWorld::new(cube(Vec3::new(-0.05, 0.0, -0.7), Vec3::new(0.05, 2.2, 0.7))),
    ];
    let mut world = InstancedWorld::new(models);
    world.place(0, Affine3A::IDENTITY).expect("floor");
    world.place(1, Affine3A::IDENTITY).expect("wall");
    let first = Vec3::new(-1.0, 0.0, 6.0);
    let movers = (0..n)
        .map(|k| {
            let instance = world
                .place(2, Affine3A::from_translation(first))
                .expect("door");
            let turn = (k * 37 % 41) as f32;
            Mover {
                instance,
                motion: Motion {
                    keys: vec![
                        Key {
                            t: 0.0,
                            position: first,
                            rotation: Vec3::ZERO,
                        },
                        Key {
                            t: 0.5,
                            position: Vec3::new(-0.5, 0.2, 6.2),
                            rotation: Vec3::new(0.0, turn, 0.0),
                        },
                    ],
                    play: Play::PingPong,
                    start: Start::Always,
                    ease: Ease::Linear,
                },
                scale: Vec3::ONE,
            }
        })
        .collect();
    (world, movers)
}
