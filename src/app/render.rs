//! The GL renderer: the window's context, the scene's draw calls and what they need.
//! Nothing here knows the app: the shell hands it a map, a pose and lines to draw.
//!
//! - `context`: the window and its GL context (glutin).
//! - `renderer`: the map's GL objects and the renderer's settings; `renderer/upload` puts
//!   the map on the GPU (its levels of detail as they come), `renderer/draw` draws a
//!   frame: the clusters in view, nearest first; on a software renderer in two passes
//!   around a read of the depth buffer for occlusion culling.
//! - `culling`: what each frame leaves out (occlusion culling on a software renderer, the
//!   frustum alone on a GPU: measured).
//! - `levels`: the map's levels of detail, made on a thread of their own and handed over
//!   in batches, the farthest clusters' first (or read from the cache).
//! - `program`: the scene's shaders (plain, textured, cut-out; each flat or lit),
//!   uniforms and light.
//! - `shadow`: the sun's shadow map (the `lighting` setting): its fit and GL objects.
//! - `sky`: the sky's gradient behind the scene (the `lighting` setting).
//! - `texture`: uploads with mipmaps, the filter, anisotropy.
//! - `render_scale`: the scene drawn offscreen with fewer pixels, stretched over the window.
//! - `counters`: what a frame drew, and its fragments counted (`--bench-frames`).
//! - `debug_draw`: the overlay's lines and triangles (the debug view, the person marker,
//!   the third-person figure).
//! - `decal_draw`: the decals over the walls they lie on.
//! - `mirror_draw`: a mirror's pixels marked in the stencil before its reflection (drawn
//!   by the renderer) and its glass (or water) after.
//! - `water_surface`: the water's program (ripples, Fresnel) and the copy of the scene
//!   under the surface it is drawn with.
//! - `gl`: the GL helpers every file here uses (programs, uniforms, vertex layouts, the
//!   depth read).
//!
//! These are the only files of the project with `unsafe` (OpenGL calls, and creating the
//! context), each block with its SAFETY comment.

mod ambient;
mod context;
mod counters;
mod culling;
mod debug_draw;
mod decal_draw;
mod gl;
mod levels;
mod mirror_draw;
mod program;
mod render_scale;
mod renderer;
mod shadow;
mod sky;
mod sun_shade;
mod texture;
mod water_surface;

pub use context::{GlWindowContext, probe_software};
pub use counters::DrawStats;
pub use culling::Culling;
pub use debug_draw::{DebugDraw, DebugGeometry, DebugVertex};
pub use decal_draw::{DecalDraw, DecalView};
pub use mirror_draw::{Cover, MirrorDraw};
pub use renderer::{Fog, Renderer};
pub use water_surface::{WaterFrame, WaterSurface};
