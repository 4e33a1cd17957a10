//! The collision world: the map's triangles, a BVH over them, the sweep of a body
//! (an ellipsoid, or the flying eye's small sphere) through them, and the stop / slide
//! responses.
//!
//! Per candidate triangle, a move is tested in ellipsoid space (see [`sweep`]): does the
//! body reach the plane, where does it first touch it, and is that point inside the
//! triangle? If not, its edges and corners are swept. The [`bvh`] only picks which
//! triangles get the test, by the swept box and by the body's rounded reach (`reach`);
//! it never changes an answer; one sweep visitor and one overlap visitor (`visit`) serve the
//! world and the placed models alike. [`work`] counts what a sweep did, for the tests.

pub mod body;
pub mod bvh;
pub mod collider;
pub mod instances;
mod narrow;
pub mod placement;
mod reach;
pub mod record;
pub mod response;
mod revision;
pub mod sweep;
mod visit;
pub mod work;
mod world;

pub use body::{Body, SKIN};
pub use collider::{Collider, Contact, Probe};
pub use instances::{
    Instance, InstancedWorld, Moved, MoverHull, PlaceError, PlacementPose, Selection, Which,
};
pub use placement::{Placement, place};
pub use record::{Account, Recorder};
pub use response::{
    MoveOutcome, MoveRules, PushOut, Response, Swept, overlap, penetration, push_out, resolve_move,
    resolve_move_swept,
};
pub use sweep::Feature;
pub use work::{Watch, Work};
pub use world::{CollisionWorld, NodeRecord, RayHit, WorldParts, WorldStats};

/// A square wall in the plane z = 0, `half` from its centre to each side: the unit tests'
/// one fixture.
#[cfg(test)]
pub(crate) fn square_wall(half: f32) -> CollisionWorld {
    let (a, b, c, d) = (
        glam::Vec3::new(-half, -half, 0.0),
        glam::Vec3::new(half, -half, 0.0),
        glam::Vec3::new(half, half, 0.0),
        glam::Vec3::new(-half, half, 0.0),
    );
    CollisionWorld::new([[a, b, c], [a, c, d]])
}
