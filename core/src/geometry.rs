//! Pure geometry on `glam` vectors: planes, boxes, triangles, the point-in-triangle tests,
//! a triangle's closest point to a point ([`closest`]), and positions as keys ([`bits`]).
//!
//! The collision test asks three questions of each triangle (see
//! [`crate::collision::sweep`], which asks them of the swept body): does the move cross
//! the triangle's [`plane`] (signed distances of its two ends), where does it meet it, and
//! is that point [`inside`] the triangle (three interchangeable methods)?

pub mod aabb;
pub mod bits;
pub mod clip;
pub mod closest;
pub mod inside;
pub mod plane;
pub mod triangle;

pub use aabb::{Aabb, SlabRay, safe_recip};
pub use bits::key_bits;
pub use clip::{OrientedBox, clip_to_box};
pub use closest::{ClosestPoint, Feature, closest_point};
pub use inside::InsideMethod;
pub use plane::Plane;
pub use triangle::{Barycentric, Triangle};
