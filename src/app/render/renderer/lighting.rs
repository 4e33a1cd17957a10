//! The `lighting` setting in the renderer: its sun, the shadow map drawn from it before
//! the scene, the sky and ground light, and the sky drawn behind the scene.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glam::{Mat4, Vec3};
use glow::HasContext;

use super::super::ambient::AmbientOcclusion;
use super::super::program::{LitUniforms, SUN_DIRECTION};
use super::super::shadow::{self, ShadowFit, ShadowMap, ShadowRead};
use super::super::sky::Sky;
use super::super::sun_shade::{self, Owners, SHADE_MIN_GAP, SunView};
use super::{CLEAR_COLOR, Fog, Renderer};
use std::sync::Arc;

use walkthrough_core::cull::{ClusteredMesh, SunShade};

/// The sky straight up, as displayed (the horizon's is [`CLEAR_COLOR`]): a clear day's
/// deeper blue.
pub const SKY_ZENITH: [f32; 3] = [0.36, 0.54, 0.82];

/// The light from the sky (the hemisphere light's upper colour), as displayed: a pale,
/// slightly blue white (a sky's light is bluer than the sun's, but a grey wall should
/// stay grey).
pub const SKY_LIGHT: [f32; 3] = [0.88, 0.89, 0.91];

/// The light bounced from the ground (the hemisphere light's lower colour), as
/// displayed: a warm dark grey, so ceilings and undersides are dimmer than floors.
pub const GROUND_LIGHT: [f32; 3] = [0.50, 0.46, 0.42];

/// How far the sky's brightest point leans from the zenith towards the sun (the
/// horizontal part of the axis, against 1 up): walls facing the sun's side get more sky
/// light than those facing away, even in shade.
pub const SKY_TOWARDS_SUN: f32 = 0.35;

/// The `lighting` setting's state: the sun and the GL objects it is drawn with.
pub(super) struct Light {
    /// The unit direction sunlight travels.
    sun: Vec3,
    shadow: ShadowMap,
    sky: Sky,
    /// The shadow map as read back when it was last drawn (`None`: not read back).
    read: Option<ShadowRead>,
    /// Read the shadow map back and find the triangles in shade (on a software
    /// rasterizer, where the shadow lookup is most of the lit light's cost; a GPU's costs
    /// it little, and finding them costs 0.1 s each time the map moves).
    finds_shade: bool,
    /// Meshlets (of levels of detail too) given their triangles in the sun's shade in
    /// the pass's [`walkthrough_core::cull::Batches::shade`].
    shaded_meshlets: usize,
    /// The map's ambient occlusion, baked or read once lighting is on.
    ambient: AmbientOcclusion,
}

impl Renderer {
    /// Light the scene with a sky, sky and ground light and a sun along `sun` (a
    /// direction, made unit) casting shadows; `None`: the flat light (an ambient term, a
    /// sun without shadows, a headlight). Where the shadow map or the sky cannot be made,
    /// a warning, and the flat light.
    pub fn set_lighting(&mut self, sun: Option<Vec3>) {
        let Some(sun) = sun.and_then(|s| s.try_normalize()) else {
            if let Some(mut l) = self.light.take() {
                l.ambient.reset(self.vao);
            }
            self.batches.shade = Arc::default();
            return;
        };
        if let Some(l) = &mut self.light {
            if l.sun != sun {
                l.sun = sun;
                l.shadow.drawn = None;
            }
            return;
        }
        let made = ShadowMap::new(self.gl.clone()).and_then(|shadow| {
            Ok((
                shadow,
                Sky::new(self.gl.clone())?,
                AmbientOcclusion::new(self.gl.clone())?,
            ))
        });
        match made {
            Ok((shadow, sky, ambient)) => {
                self.light = Some(Light {
                    sun,
                    shadow,
                    sky,
                    read: None,
                    finds_shade: false,
                    shaded_meshlets: 0,
                    ambient,
                });
            }
            Err(e) => tell!("warning: lighting off: {e}"),
        }
    }

    /// The map or its scale changed: the shadow map is to be drawn again and the ambient
    /// occlusion made again.
    pub(super) fn light_changed(&mut self) {
        if let Some(l) = &mut self.light {
            l.shadow.drawn = None;
            l.shaded_meshlets = 0;
            l.ambient.reset(self.vao);
        }
        self.batches.shade = Arc::default();
    }

    /// Each frame with lighting on: the map's ambient occlusion asked for, and shown once
    /// it has come.
    pub(super) fn update_ambient(&mut self) {
        if let Some(l) = &mut self.light {
            l.ambient.update(&self.mesh, self.vao);
        }
    }

    /// The direction sunlight travels this frame.
    pub(super) fn sun(&self) -> Vec3 {
        self.light
            .as_ref()
            .map_or(SUN_DIRECTION.normalize(), |l| l.sun)
    }

    /// Draw the sun's shadow map for a view from `eye`, where it changed: the fit moved
    /// (see [`shadow::fit`]), or movers move. The casters are every cluster of the map
    /// the sun's view overlaps (at full detail) and the movers where they were placed
    /// this frame; cut-outs cast as solids.
    pub(super) fn draw_shadow(&mut self, eye: Vec3) {
        let Some(l) = &mut self.light else { return };
        let fit = shadow::fit(eye, l.sun, &self.bounds);
        let movers = !self.movers.placed_is_empty();
        if l.shadow.drawn == Some(fit) && !movers {
            // Levels of detail added since: their shade too.
            if l.shaded_meshlets != self.mesh.meshlets.len() {
                // The map's own triangles' shade stands (the same map).
                let known = Arc::clone(&self.batches.shade);
                self.batches.shade = mark_shade(l, &fit, &self.mesh, &known);
            }
            return;
        }
        // Read back only for a map without movers, which stays as drawn.
        let read = l.finds_shade && !movers;
        l.shadow.begin(&fit, read);
        let gl = &self.gl;
        // SAFETY: context current; the array and buffer are owned by self, and every
        // cluster's index range lies within the map's index buffer.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(self.ebo));
            for c in &self.mesh.clusters[..self.mesh.originals()] {
                if !in_view(&fit.view_proj, c.bounds.min, c.bounds.max) {
                    continue;
                }
                l.shadow.set_first_triangle(Some(c.first / 3));
                gl.draw_elements(
                    glow::TRIANGLES,
                    c.count as i32,
                    glow::UNSIGNED_INT,
                    4 * c.first as i32,
                );
            }
        }
        l.shadow.set_first_triangle(None);
        self.movers.draw_depth(gl);
        // Movers in the map would make the read back's shade stale a frame later.
        l.read = l.shadow.end(read);
        // With movers the map is drawn each frame and never read: the flat triangles,
        // once a mesh, are all there is to know.
        let known =
            self.batches.shade.in_shade.is_empty() && l.shaded_meshlets == self.mesh.meshlets.len();
        if l.read.is_some() || !known {
            self.batches.shade = mark_shade(l, &fit, &self.mesh, &SunShade::default());
        }
    }

    /// The lit variants' uniforms this frame (`None` with the flat light).
    pub(super) fn lit_uniforms(&self) -> Option<LitUniforms> {
        let l = self.light.as_ref()?;
        let fit = l.shadow.drawn?;
        let across = Vec3::new(-l.sun.x, 0.0, -l.sun.z);
        let fog_zenith = if self.fog == Fog::SKY {
            SKY_ZENITH
        } else {
            self.fog.color
        };
        Some(LitUniforms {
            shadow: l.shadow.depth,
            shadow_matrix: fit.texture_matrix(),
            shadow_texel: fit.texel(),
            sky_zenith: self.shading(SKY_LIGHT),
            ground: self.shading(GROUND_LIGHT),
            sky_axis: (Vec3::Y + across.normalize_or_zero() * SKY_TOWARDS_SUN).normalize(),
            fog_zenith: self.shading(fog_zenith),
        })
    }

    /// Draw the sky behind the frame just drawn through `view_proj` (lit, in the sky's
    /// fog only: under water the water's colour is the background).
    pub(super) fn draw_sky(&self, view_proj: Mat4) {
        let Some(l) = &self.light else { return };
        if self.fog != Fog::SKY {
            return;
        }
        // SAFETY: context current; the map's array (owned by self) serves as the bound
        // array the sky's triangle needs.
        unsafe { self.gl.bind_vertex_array(Some(self.vao)) };
        l.sky.draw(
            view_proj,
            self.shading(CLEAR_COLOR),
            self.shading(SKY_ZENITH),
        );
    }
}

impl Light {
    /// Find the triangles in shade (see [`Light::finds_shade`]), from the next time the
    /// shadow map is drawn.
    pub(super) fn find_shade(&mut self, software: bool) {
        if self.finds_shade != software {
            self.finds_shade = software;
            self.shadow.drawn = None;
        }
    }
}

/// What is known of the sun's light on `mesh`'s triangles (levels of detail too): which
/// are flat, and which lie wholly in shade in the map `fit` drew, as `l` read it back
/// (none where it was not).
fn mark_shade(
    l: &mut Light,
    fit: &ShadowFit,
    mesh: &ClusteredMesh,
    known: &SunShade,
) -> Arc<SunShade> {
    l.shaded_meshlets = mesh.meshlets.len();
    let in_shade = l.read.as_ref().map_or_else(Vec::new, |read| {
        let view = SunView {
            to_texture: fit.texture_matrix(),
            owners: Owners {
                size: shadow::SHADOW_MAP_SIZE as usize,
                texels: &read.owners,
            },
            coarse: read.grid.test(fit),
            min_gap: SHADE_MIN_GAP * fit.depth_per_metre(),
        };
        sun_shade::shaded_triangles(mesh, &view, &known.in_shade)
    });
    Arc::new(SunShade {
        in_shade,
        flat: sun_shade::flat_triangles(mesh),
        sun: l.sun,
    })
}

/// Whether the box from `min` to `max` overlaps the orthographic view `view_proj`'s
/// volume (its corners' bounds in clip space against the unit cube's).
fn in_view(view_proj: &Mat4, min: Vec3, max: Vec3) -> bool {
    let clip = shadow::projected(view_proj, walkthrough_core::geometry::Aabb { min, max });
    clip.min.cmple(Vec3::ONE).all() && clip.max.cmpge(Vec3::NEG_ONE).all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_is_in_the_suns_view_when_any_of_it_is() {
        let m = Mat4::orthographic_rh_gl(-1.0, 1.0, -1.0, 1.0, -1.0, 1.0);
        assert!(in_view(&m, Vec3::splat(-0.5), Vec3::splat(0.5)));
        assert!(in_view(
            &m,
            Vec3::new(0.9, 0.0, 0.0),
            Vec3::new(3.0, 1.0, 0.5)
        ));
        assert!(!in_view(
            &m,
            Vec3::new(1.1, 0.0, 0.0),
            Vec3::new(3.0, 1.0, 0.5)
        ));
        assert!(!in_view(
            &m,
            Vec3::new(0.0, -4.0, 0.0),
            Vec3::new(0.5, -1.5, 0.5)
        ));
    }
}
