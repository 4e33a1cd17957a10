//! The field of view: the angle the user sets, and the projection's angles that follow from
//! it on a window of a given shape.
//!
//! The setting is the angle across the window's wider side (horizontal on a landscape
//! window, as Quake's `fov` and most games' settings are): a wider window then shows more
//! at the sides, never less above and below ("Hor+"), and a portrait window keeps the angle
//! across its height. Keeping the wider side's angle also bounds how far the near plane's
//! corners lie from the eye whatever the window's shape, which the flying eye's
//! [`SKIN`](crate::collision::SKIN) must exceed.

use std::ops::RangeInclusive;

use super::NEAR_PLANE;

/// The field of view the settings allow, degrees across the wider side.
pub const FOV_RANGE_DEG: RangeInclusive<f32> = 60.0..=110.0;

/// The default field of view, degrees across the wider side: about 68 degrees vertically on
/// a 16:9 window.
pub const DEFAULT_FOV_DEG: f32 = 100.0;

/// A field of view, degrees across the window's wider side, within [`FOV_RANGE_DEG`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldOfView {
    degrees: f32,
}

impl Default for FieldOfView {
    fn default() -> Self {
        FieldOfView {
            degrees: DEFAULT_FOV_DEG,
        }
    }
}

impl FieldOfView {
    /// `degrees` across the wider side, clamped to [`FOV_RANGE_DEG`] (not a number: the
    /// default).
    pub fn new(degrees: f32) -> FieldOfView {
        let degrees = if degrees.is_nan() {
            DEFAULT_FOV_DEG
        } else {
            degrees.clamp(*FOV_RANGE_DEG.start(), *FOV_RANGE_DEG.end())
        };
        FieldOfView { degrees }
    }

    /// The angle across the wider side, degrees.
    pub fn degrees(self) -> f32 {
        self.degrees
    }

    /// The vertical angle on a window `aspect` (width / height) wide, radians (what a
    /// perspective projection takes).
    pub fn vertical_rad(self, aspect: f32) -> f32 {
        let half = (self.degrees.to_radians() * 0.5).tan();
        let aspect = sane_aspect(aspect);
        if aspect >= 1.0 {
            2.0 * (half / aspect).atan()
        } else {
            2.0 * half.atan()
        }
    }

    /// The horizontal angle on a window `aspect` wide, degrees (the minimap's view cone).
    pub fn horizontal_deg(self, aspect: f32) -> f32 {
        let aspect = sane_aspect(aspect);
        let half_v = (self.vertical_rad(aspect) * 0.5).tan();
        (2.0 * (half_v * aspect).atan()).to_degrees()
    }

    /// How far the near plane's corners lie from the eye on a window `aspect` wide.
    pub fn near_corner_distance(self, aspect: f32) -> f32 {
        let aspect = sane_aspect(aspect);
        let ty = (self.vertical_rad(aspect) * 0.5).tan();
        let tx = ty * aspect;
        NEAR_PLANE * (1.0 + tx * tx + ty * ty).sqrt()
    }
}

/// A window's width / height, or 1 for a degenerate one (a minimised window is 0 high).
fn sane_aspect(aspect: f32) -> f32 {
    if aspect.is_finite() && aspect > 0.0 {
        aspect
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wider_side_keeps_the_angle() {
        let f = FieldOfView::new(90.0);
        assert!((f.horizontal_deg(16.0 / 9.0) - 90.0).abs() < 1e-3);
        // Portrait: the height keeps it.
        assert!((f.vertical_rad(0.5).to_degrees() - 90.0).abs() < 1e-3);
        assert!(f.horizontal_deg(0.5) < 90.0);
        // 16:9 at 90 across: tan(v/2) = 1 / (16/9).
        let v = f.vertical_rad(16.0 / 9.0);
        assert!(((v * 0.5).tan() - 9.0 / 16.0).abs() < 1e-5);
    }

    #[test]
    fn out_of_range_is_clamped_and_nan_is_the_default() {
        assert_eq!(FieldOfView::new(10.0).degrees(), 60.0);
        assert_eq!(FieldOfView::new(500.0).degrees(), 110.0);
        assert_eq!(FieldOfView::new(f32::NAN).degrees(), DEFAULT_FOV_DEG);
        let f = FieldOfView::default();
        assert!(f.vertical_rad(0.0).is_finite());
        assert!(f.vertical_rad(f32::INFINITY).is_finite());
    }
}
