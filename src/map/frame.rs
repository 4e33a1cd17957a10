//! The transform from a file's own coordinates to world coordinates and back.
//!
//! World coordinates are Y up and about one unit a metre. `--spawn` and the trace speak
//! the file's coordinates; everything inside speaks world coordinates.

use crate::names::named;
use glam::Vec3;

/// Which axis of the file points up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UpAxis {
    /// Y up (OBJ's usual convention).
    #[default]
    Y,
    /// Z up (CAD, Quake, Blender exports without the axis conversion).
    Z,
}

named!(UpAxis, "up axis" { Y => "y" | "+y", Z => "z" | "+z" });

/// File coordinates to world: rotate the up axis to +Y, then scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapFrame {
    /// World units per file unit.
    pub scale: f32,
    /// The file's up axis.
    pub up: UpAxis,
}

impl Default for MapFrame {
    fn default() -> Self {
        MapFrame {
            scale: 1.0,
            up: UpAxis::Y,
        }
    }
}

impl MapFrame {
    /// Rotate a direction (a normal) from file to world; no scaling.
    #[inline]
    pub fn rotate_to_world(&self, v: Vec3) -> Vec3 {
        match self.up {
            UpAxis::Y => v,
            // Right-handed Z-up (x right, y forward, z up) to Y-up: (x, z, -y).
            UpAxis::Z => Vec3::new(v.x, v.z, -v.y),
        }
    }

    /// A file point to world coordinates.
    #[inline]
    pub fn to_world(&self, p: Vec3) -> Vec3 {
        self.rotate_to_world(p) * self.scale
    }

    /// A world point back to the file's coordinates.
    #[inline]
    pub fn to_file(&self, p: Vec3) -> Vec3 {
        let p = p / self.scale;
        match self.up {
            UpAxis::Y => p,
            UpAxis::Z => Vec3::new(p.x, -p.z, p.y),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_up_maps_file_up_to_world_up_and_back() {
        let f = MapFrame {
            scale: 0.001,
            up: UpAxis::Z,
        };
        let w = f.to_world(Vec3::new(0.0, 0.0, 1000.0));
        assert!((w - Vec3::Y).length() < 1e-6);
        let p = Vec3::new(12.0, -3.5, 7.25);
        assert!((f.to_file(f.to_world(p)) - p).length() < 1e-4);
    }

    #[test]
    fn z_up_keeps_handedness() {
        let f = MapFrame {
            scale: 1.0,
            up: UpAxis::Z,
        };
        let (x, y, z) = (
            f.to_world(Vec3::X),
            f.to_world(Vec3::Y),
            f.to_world(Vec3::Z),
        );
        assert!((x.cross(y) - z).length() < 1e-6);
    }

    #[test]
    fn up_axis_parses() {
        assert_eq!("Z".parse::<UpAxis>().unwrap(), UpAxis::Z);
        assert_eq!("y".parse::<UpAxis>().unwrap(), UpAxis::Y);
        assert_eq!(
            "x".parse::<UpAxis>().unwrap_err().to_string(),
            "unknown up axis 'x' (expected y or z)"
        );
    }
}
