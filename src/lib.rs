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
#![forbid(unsafe_code)]

pub mod camera;
pub mod collision;
pub mod geometry;
pub mod map;
pub mod session;
pub mod sim;
pub mod tolerance;
