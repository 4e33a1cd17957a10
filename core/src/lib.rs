//! walkthrough: a first-person walkthrough of OBJ maps with body-versus-triangle collision.
//!
//! This library is the pure core: it never touches a window or OpenGL, so every piece is
//! tested headless. Data flows one way:
//!
//! ```text
//! input -> MoveIntent -> Controller -> CollisionWorld -> Pose -> (renderer, in the binary)
//! ```
//!
//! - [`ambient`]: ambient occlusion baked per vertex with rays through the mesh's BVH (the
//!   `lighting` setting's corners and contact shade).
//! - [`geometry`]: planes, triangles, boxes; the point-in-triangle tests, a triangle's
//!   closest point, positions as keys.
//! - [`browse`]: choosing a map from inside the window: a folder's maps and folders,
//!   the recent maps.
//! - [`collision`]: the body (an ellipsoid), the [`collision::CollisionWorld`] (triangles +
//!   BVH), the swept-body test, and the stop / slide responses.
//! - [`decals`]: squares of a texture stuck on the map, clipped to the triangles under them.
//! - [`files`]: reading the user's files: regular files only, within size limits; and
//!   [`files::output`], writing files without losing any: never over an input, never into
//!   a pipe, replaced only once whole.
//! - [`map`]: OBJ/MTL loading (tobj), the file-to-world frame, the built-in map.
//! - [`cull`]: what the renderer draws of a map, in which order: clusters, levels of
//!   detail, frustum and occlusion culling, closed solids' back faces (pure geometry; the
//!   GL side is the binary's).
//! - [`measure`]: what the crosshair is on, and the distance between two marked points.
//! - [`mirrors`]: the map's mirror surfaces by plane and the water's surfaces, and the
//!   reflection about each.
//! - [`survey`]: a level's frame from evidence: up axis, units, spawn, sealed pockets.
//! - [`player`]: the walking controller: the pose, the move intent, the fixed-step controller.
//! - [`walk`]: the walking person: gravity, stairs, slopes, ledges, jump and crouch.
//! - [`movers`]: a world that moves: placed models following their motion, carrying and
//!   pushing the body tick by tick, never passing through it.
//! - [`sim`]: scripts in, trace CSV out, with no window.
//! - [`session`]: a map opened and ready to walk: world, scale, spawn; the one way a map
//!   is opened ([`session::open::open`], its stages in order), and the cache folder (built
//!   maps and their levels of detail).
//! - [`preferences`]: the user's settings (mouse, field of view, speed, window).
//! - [`store`]: what walkthrough keeps between runs: in one file in the config folder the
//!   settings, and per map (by content) the up axis and scale the user set, the saved
//!   views and decals.
//! - [`text`]: words for people: a piece of the user's file quoted in a message,
//!   escaped and cut; counts and lists in English; settings chosen by name (response,
//!   mode, method, up axis), one macro for all.
//! - [`tolerance`]: the collision tolerances, named and documented in one place.
//! - `test_kit` (with the `test-kit` feature, or in this crate's tests): what the tests
//!   share: their random generators, boxes, OBJ text.
//!
//! # Example
//!
//! Walk into a wall as a person (an ellipsoid 0.6 m wide), once stopping and once sliding:
//!
//! ```
//! use glam::Vec3;
//! use walkthrough_core::collision::{Body, CollisionWorld, MoveRules, Response, resolve_move};
//!
//! // A 4 x 4 wall in the plane z = 0.
//! let (a, b, c, d) = (
//!     Vec3::new(-2.0, -2.0, 0.0),
//!     Vec3::new(2.0, -2.0, 0.0),
//!     Vec3::new(2.0, 2.0, 0.0),
//!     Vec3::new(-2.0, 2.0, 0.0),
//! );
//! let world = CollisionWorld::new([[a, b, c], [a, c, d]]);
//! let body = Body::WALKER;
//! let start = Vec3::new(0.0, 0.0, 1.0); // the body's centre
//! let step = Vec3::new(1.0, 0.0, -2.0); // diagonally into the wall
//! let stop = resolve_move(&world, &MoveRules::new(body, Response::Stop), start, step);
//! assert!(stop.hit);
//! // The body rests against the wall: its radius (plus a millimetre's gap) in front of it.
//! assert!((stop.end.z - body.rest_distance(Vec3::Z)).abs() < 1e-5);
//!
//! let slide = resolve_move(&world, &MoveRules::new(body, Response::Slide), start, step);
//! assert!((slide.end.x - 1.0).abs() < 1e-5); // kept going along x
//! assert!((slide.end.z - body.rest_distance(Vec3::Z)).abs() < 1e-5);
//! ```
#![forbid(unsafe_code)]

pub mod ambient;
pub mod browse;
pub mod collision;
pub mod cull;
pub mod decals;
pub mod files;
pub mod geometry;
pub mod map;
pub mod measure;
pub mod mirrors;
pub mod movers;
pub mod player;
pub mod preferences;
pub mod session;
pub mod sim;
pub mod store;
pub mod survey;
pub mod text;
// The tests' shared fixtures: for this crate's tests, and others' with `test-kit`.
#[cfg(any(test, feature = "test-kit"))]
pub mod test_kit;
pub mod tolerance;
pub mod walk;
