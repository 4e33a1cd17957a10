//! walkthrough: a first-person walkthrough of OBJ maps with point-versus-triangle collision.
//!
//! This library is the pure core: it never touches a window or OpenGL, so every piece is
//! tested headless. Data flows one way:
//!
//! ```text
//! input -> MoveIntent -> Controller -> CollisionWorld -> Pose -> (renderer, in the binary)
//! ```
//!
//! - [`geometry`]: planes, triangles, boxes; the three-step segment-versus-triangle test.
//! - [`collision`]: the [`collision::CollisionWorld`] (triangles + BVH), first-hit queries, and
//!   the stop / slide responses.
//! - [`map`]: OBJ/MTL loading (tobj), units and up axis, spawn finding, the built-in map.
//! - [`camera`]: the pose, the move intent and the fixed-step controller.
//! - [`sim`]: scripts in, trace CSV out, with no window.
//! - [`session`]: a map opened and ready to walk: world, scale, spawn.
//! - [`tolerance`]: every tolerance and physical default, named and documented in one place.
//!
//! # Example
//!
//! Walk into a wall, once stopping and once sliding:
//!
//! ```
//! use glam::Vec3;
//! use walkthrough::collision::{Collider, CollisionWorld, Response};
//! use walkthrough::geometry::InsideMethod;
//! use walkthrough::tolerance::SKIN;
//!
//! // A 4 x 4 wall in the plane z = 0.
//! let (a, b, c, d) = (
//!     Vec3::new(-2.0, -2.0, 0.0),
//!     Vec3::new(2.0, -2.0, 0.0),
//!     Vec3::new(2.0, 2.0, 0.0),
//!     Vec3::new(-2.0, 2.0, 0.0),
//! );
//! let world = CollisionWorld::new([[a, b, c], [a, c, d]]);
//! let start = Vec3::new(0.0, 0.0, 1.0);
//! let step = Vec3::new(1.0, 0.0, -2.0); // diagonally into the wall
//!
//! let stop = world.resolve_move(start, step, Response::Stop, InsideMethod::Barycentric);
//! assert!(stop.hit);
//! assert!((stop.end.z - SKIN).abs() < 1e-6); // one skin in front of the wall
//!
//! let slide = world.resolve_move(start, step, Response::Slide, InsideMethod::Barycentric);
//! assert!((slide.end - Vec3::new(1.0, 0.0, SKIN)).length() < 1e-5); // kept going along x
//! ```
#![forbid(unsafe_code)]

pub mod camera;
pub mod collision;
pub mod geometry;
pub mod map;
pub mod session;
pub mod sim;
pub mod tolerance;
