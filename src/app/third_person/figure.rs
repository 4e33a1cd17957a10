//! The walker's figure (`assets/body.obj`, embedded): drawn in third person and in
//! mirrors, the size of the body's ellipsoid, crouching with it, turned with the yaw.
//! Flat-shaded here once a frame into the overlay's solid triangles (a few hundred).

use glam::{Quat, Vec3};
use walkthrough_core::collision::Body;

use crate::app::render::DebugVertex;

/// The figure as `assets/make_body.py` writes it (Y up, metres, feet at 0, facing -Z).
const BODY_OBJ: &str = include_str!("../../../assets/body.obj");
/// Height of the figure as modelled, metres: the walker's standing height (its
/// ellipsoid's 2 x 0.9 m).
const MODELLED_HEIGHT: f32 = 1.8;
/// Direction the figure's light comes from (unit, toward the light): from above, in
/// front and to the side, so each face of a box has its own shade.
const LIGHT_FROM: Vec3 = Vec3::new(0.38, 0.83, 0.41);
/// Share of a colour lit by the ambient light; the rest by the light's cosine.
const AMBIENT: f32 = 0.45;

/// One triangle of the model with its part's colour.
#[derive(Clone, Copy, Debug)]
struct Part {
    corners: [Vec3; 3],
    color: [f32; 3],
}

/// The figure's triangles, ready to be placed.
pub struct Figure {
    parts: Vec<Part>,
}

/// The colour of a part by its object's name (sRGB, as displayed).
fn part_color(name: &str) -> [f32; 3] {
    match name {
        "head" => [0.86, 0.68, 0.55],
        "legs" => [0.22, 0.25, 0.36],
        "arms" => [0.80, 0.40, 0.18],
        _ => [0.90, 0.47, 0.20],
    }
}

impl Figure {
    /// The embedded figure (an error names what is wrong with it: a bug of the build).
    pub fn new() -> Result<Figure, String> {
        let (models, _) =
            tobj::load_obj_buf(&mut BODY_OBJ.as_bytes(), &tobj::GPU_LOAD_OPTIONS, |_| {
                Err(tobj::LoadError::OpenFileFailed)
            })
            .map_err(|e| format!("assets/body.obj: {e}"))?;
        let mut parts = Vec::new();
        for m in &models {
            let p = &m.mesh.positions;
            let at = |i: u32| {
                let i = 3 * i as usize;
                Vec3::new(p[i], p[i + 1], p[i + 2])
            };
            for t in m.mesh.indices.chunks_exact(3) {
                parts.push(Part {
                    corners: [at(t[0]), at(t[1]), at(t[2])],
                    color: part_color(&m.name),
                });
            }
        }
        Ok(Figure { parts })
    }

    /// The figure of `body` centred at `centre`, turned to `yaw_deg`, flat-shaded, as
    /// the overlay's solid triangles (appended to `out`), `alpha` opaque (1: wholly).
    pub fn place(
        &self,
        body: &Body,
        centre: Vec3,
        yaw_deg: f32,
        alpha: f32,
        out: &mut Vec<DebugVertex>,
    ) {
        let feet = body.feet_of(centre);
        let scale = Vec3::new(1.0, 2.0 * body.radii.y / MODELLED_HEIGHT, 1.0);
        let turn = Quat::from_rotation_y(yaw_deg.to_radians());
        for part in &self.parts {
            let c = part.corners.map(|v| feet + turn * (v * scale));
            let normal = (c[1] - c[0]).cross(c[2] - c[0]).normalize_or_zero();
            let light = AMBIENT + (1.0 - AMBIENT) * normal.dot(LIGHT_FROM).max(0.0);
            let [r, g, b] = part.color.map(|x| x * light);
            out.extend(c.map(|p| DebugVertex::new(p, [r, g, b, alpha])));
        }
    }
}

/// How far `point` is from the figure of `body` centred at `centre`, metres: from its
/// upright axis (feet to the top of the head), which is what a camera close behind the
/// walker sees filling the view whichever way the figure is turned.
pub fn distance_to(body: &Body, centre: Vec3, point: Vec3) -> f32 {
    let feet = body.feet_of(centre);
    let top = feet.y + 2.0 * body.radii.y;
    let on_axis = Vec3::new(feet.x, point.y.clamp(feet.y, top), feet.z);
    point.distance(on_axis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figure_fills_the_walkers_ellipsoid_and_crouches_and_turns_with_it() {
        let f = Figure::new().unwrap();
        let mut out = Vec::new();
        let centre = Vec3::new(1.0, 0.9, 2.0);
        f.place(&Body::WALKER, centre, 0.0, 1.0, &mut out);
        let (lo, hi) = out.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| {
            let p = Vec3::from(v.position);
            (lo.min(p), hi.max(p))
        });
        assert!(
            (lo.y - 0.0).abs() < 1e-5 && (hi.y - 1.78).abs() < 1e-5,
            "{lo} {hi}"
        );
        assert!((hi.x - lo.x - 0.58).abs() < 1e-5, "{lo} {hi}");
        // The nose is in front: toward -Z at yaw 0, toward -X at yaw 90.
        assert!((lo.z - (2.0 - 0.16)).abs() < 1e-5, "{lo}");
        out.clear();
        let crouched = Body {
            radii: Vec3::new(0.3, 0.6, 0.3),
            ..Body::WALKER
        };
        f.place(&crouched, Vec3::new(1.0, 0.6, 2.0), 90.0, 1.0, &mut out);
        let (lo, hi) = out.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| {
            let p = Vec3::from(v.position);
            (lo.min(p), hi.max(p))
        });
        assert!((hi.y - 1.78 * 1.2 / 1.8).abs() < 1e-5, "{hi}");
        assert!((lo.x - (1.0 - 0.16)).abs() < 1e-5, "{lo}");
    }

    #[test]
    fn the_distance_to_the_figure_is_from_its_upright_axis() {
        let centre = Vec3::new(1.0, 0.9, 2.0);
        let d = |p: Vec3| distance_to(&Body::WALKER, centre, p);
        assert!((d(Vec3::new(1.0, 1.5, 2.7)) - 0.7).abs() < 1e-5);
        assert!(
            (d(Vec3::new(1.0, 2.3, 2.0)) - 0.5).abs() < 1e-5,
            "over the head"
        );
        assert!(
            (d(Vec3::new(1.0, -0.4, 2.0)) - 0.4).abs() < 1e-5,
            "under the feet"
        );
    }
}
