//! The collision world: the map's triangles with their planes, a BVH over them, the
//! first-hit query of a move, and the stop / slide responses.
//!
//! The eye is a point that keeps a [`SKIN`](crate::tolerance::SKIN) distance from every
//! wall. Per triangle, a move is tested in three steps (see [`segment`]): does it reach the
//! plane (or the skin band in front of it), where, and is that point inside the triangle?
//! The [`bvh`] only picks which triangles get the test; it never changes an answer.

pub mod bvh;
pub mod instances;
pub mod response;
pub mod segment;
mod world;

pub use instances::{Instance, InstancedWorld};
pub use response::{Collider, MoveOutcome, ParseResponseError, Response, resolve_move};
pub use segment::Hit;
pub use world::{CollisionWorld, WorldStats};
