//! The tolerances of the collision test, in one place: how close counts as touching, how
//! small counts as nothing. (Physical defaults live with the settings they belong to:
//! the body in [`crate::collision::body`], walking in [`crate::walk::WalkSettings`], the
//! camera in [`crate::player`], the step in [`crate::sim`].)
//!
//! The collision world works in *world units*: the map's own units times the map scale
//! (see [`crate::map::MapFrame`]), which makes one world unit about one metre. The values
//! below are therefore in metres, whatever units the OBJ file was written in.

/// The gap a body keeps from every triangle beyond its own surface, metres, measured
/// along its longest axis (see [`crate::collision::Body::contact_radius`]). Stops leave
/// the body this far off the wall, so the rounding of `f32` positions (a micrometre at
/// 10 m from the origin) never puts it on or into the wall, and a body at rest against a
/// wall is told apart from one placed inside it.
pub const CONTACT_GAP: f32 = 1e-3;

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

/// How far outside a triangle a point may be and still be inside by the selectable inside
/// tests, as a share of the triangle's size (its longest edge, or anything no shorter: the
/// sum of its box's extents): angle-sum's [`ANGLE_SUM_EPSILON`] radians let a point at
/// `h` beside an edge of length `L` through while `2 h (1/d_a + 1/d_b)` (its distances to
/// the edge's ends) is under it, so up to `ANGLE_SUM_EPSILON L / 8` at the edge's middle;
/// barycentric's [`BARYCENTRIC_EPSILON`] a share of the height, less. Twice the first.
/// What the broad phase prunes by distance it grows by this much of each triangle's (or
/// box's) size, so that it never prunes a contact the exact test reports: beside a 20 m
/// floor's edge that is 5 mm, beside a chair's 2 cm triangle 5 µm.
pub const INSIDE_SLACK: f32 = ANGLE_SUM_EPSILON / 4.0;

/// Two plane normals whose dot product exceeds this are the same plane for the slide
/// response (coplanar triangles of one wall, cut into pieces, must not form a "crease").
pub const SAME_PLANE_COSINE: f32 = 0.9999;

/// A triangle whose doubled area (|e1 x e2|) is below this is degenerate and dropped when
/// the world is built (in squared world units).
pub const DEGENERATE_AREA: f32 = 1e-12;

/// A move shorter than this (world units) is no move at all: never normalised, never tested.
pub const MIN_MOVE: f32 = 1e-7;

/// How far inside its own surface a body may end a move by the rounding of its `f32`
/// position, metres. A body sliding over a convex edge may come as near as its surface
/// itself (the sweep's graze radius, see [`crate::collision::sweep`]), and the centre,
/// stored in `f32`, then lands up to a rounding either side: 0.09 µm inside was seen
/// once in ten million random steps (a flyer over a box's edge). Deeper is a body passed
/// through (see [`crate::collision::overlap`]).
pub const SURFACE_ROUNDING: f32 = 1e-5;

/// Extra inflation of the BVH boxes beyond what a query reaches, so that rounding in the
/// slab test never drops a candidate the triangle test would accept (world units).
pub const BOX_MARGIN: f32 = 1e-3;

/// Farthest a map may reach from the origin, world units (metres). Positions are f32:
/// at a million metres they are 6 cm apart, too coarse for a 1 mm contact gap, and
/// beyond it shapes round away altogether. (Here, where the collision and the map both
/// read it, rather than in the map, which imports the collision.)
pub const MAX_WORLD_EXTENT: f32 = 1e6;
