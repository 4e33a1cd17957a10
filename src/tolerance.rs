//! Every tolerance and physical default of the core, in one place.
//!
//! The collision world works in *world units*: the map's own units times the map scale
//! (see [`crate::map::MapFrame`]), which makes one world unit about one metre. The values
//! below are therefore in metres, whatever units the OBJ file was written in.

/// Near clipping plane distance of the renderer's perspective projection.
pub const NEAR_PLANE: f32 = 0.01;

/// Default vertical field of view of the camera, in degrees.
pub const DEFAULT_FOV_Y_DEG: f32 = 70.0;

/// Radius of the flying eye's sphere: how close the eye may come to any triangle (face,
/// edge or corner).
///
/// It must exceed the distance from the eye to a corner of the near plane
/// (`NEAR_PLANE * sqrt(1 + tan^2(fov/2) * (1 + aspect^2))`, about 0.0175 for a 70 degree
/// field of view on a 16:9 window, 0.019 on 21:9) so that the wall the player presses
/// against is never clipped away by the near plane. A test checks this relation.
pub const SKIN: f32 = 0.025;

/// The gap a body keeps from every triangle beyond its own surface, metres, measured
/// along its longest axis (see [`crate::collision::Body::contact_radius`]). Stops leave
/// the body this far off the wall, so the rounding of `f32` positions (a micrometre at
/// 10 m from the origin) never puts it on or into the wall, and a body at rest against a
/// wall is told apart from one placed inside it.
pub const CONTACT_GAP: f32 = 1e-3;

/// Below this absolute signed distance a point counts as lying *on* a plane.
///
/// Used to classify the start of a move that sits exactly on a plane (it may then leave
/// to either side) and by [`crate::geometry::Side`].
pub const PLANE_EPSILON: f32 = 1e-6;

/// A move whose direction makes a cosine smaller than this with a plane's normal counts as
/// parallel to it: it neither approaches nor leaves. Without it, the rounding left in a
/// slide direction after its normal part has been removed would read as a tiny approach
/// and stop the slide (the classic "sticky wall").
pub const PARALLEL_COSINE: f32 = 1e-5;

/// Barycentric coordinates down to `-BARYCENTRIC_EPSILON` count as inside, so that a point
/// on a shared edge is inside at least one of the two triangles (no gap at seams).
pub const BARYCENTRIC_EPSILON: f32 = 1e-5;

/// Angle-sum test: the three angles must sum to `2 pi` within this many radians.
///
/// The classic test is ill-conditioned near edges (acos has an infinite slope at -1), so this
/// must be generous; the price is that points slightly outside an edge count as inside.
pub const ANGLE_SUM_EPSILON: f32 = 1e-3;

/// Two plane normals whose dot product exceeds this are the same plane for the slide
/// response (coplanar triangles of one wall, cut into pieces, must not form a "crease").
pub const SAME_PLANE_COSINE: f32 = 0.9999;

/// A triangle whose doubled area (|e1 x e2|) is below this is degenerate and dropped when
/// the world is built (in squared world units).
pub const DEGENERATE_AREA: f32 = 1e-12;

/// A move shorter than this (world units) is no move at all: never normalised, never tested.
pub const MIN_MOVE: f32 = 1e-7;

/// The slide response gives up after this many hit-and-redirect rounds in one step.
pub const MAX_SLIDE_ITERATIONS: usize = 5;

/// Default walking speed, world units (metres) per second.
pub const DEFAULT_SPEED: f32 = 3.0;

/// Speed multiplier while the run key is held.
pub const RUN_MULTIPLIER: f32 = 2.5;

/// Default fixed simulation step, seconds (120 steps a second).
pub const DEFAULT_DT: f32 = 1.0 / 120.0;
