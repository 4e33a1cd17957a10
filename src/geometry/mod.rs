//! Pure geometry on `glam` vectors: planes, boxes, triangles and the point-in-triangle tests.
//!
//! The collision test asks three questions of each triangle (see
//! [`crate::collision::sweep`], which asks them of the swept body): does the move cross
//! the triangle's [`plane`] (signed distances of its two ends), where does it meet it, and
//! is that point [`inside`] the triangle (three interchangeable methods)?

pub mod aabb;
pub mod clip;
pub mod inside;
pub mod plane;
pub mod triangle;

pub use aabb::{Aabb, SlabRay, safe_recip};
pub use clip::{OrientedBox, clip_to_box};
pub use inside::InsideMethod;
pub use plane::Plane;
pub use triangle::{Barycentric, Triangle};
