//! Pure geometry on `glam` vectors: planes, boxes, triangles and the point-in-triangle tests.
//!
//! The collision test of the product is built from three questions, one file each:
//! 1. [`plane`]: does a move cross a plane (signed distances of its two ends)?
//! 2. [`plane`]: where does it meet the plane (the intersection parameter)?
//! 3. [`inside`]: is that point inside the triangle (three interchangeable methods)?

pub mod aabb;
pub mod inside;
pub mod plane;
pub mod triangle;

pub use aabb::{Aabb, safe_recip};
pub use inside::InsideMethod;
pub use plane::{Plane, Side};
pub use triangle::Triangle;
