//! The transform from a file's own coordinates to world coordinates and back.
//!
//! World coordinates are Y up and about one unit a metre. `--spawn` and the trace speak
//! the file's coordinates; everything inside speaks world coordinates.

use crate::text::names::named;
use glam::Vec3;

/// Which axis of the file points up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UpAxis {
    /// Y up (OBJ's usual convention).
    #[default]
    Y,
    /// Z up (CAD, Quake, Blender exports without the axis conversion).
    Z,
    /// X up (rare; for a correction by hand).
    X,
    /// Y down: a file upside down.
    NegY,
    /// Z down.
    NegZ,
    /// X down.
    NegX,
}

named!(UpAxis, "up axis" {
    Y => "y" | "+y",
    Z => "z" | "+z",
    X => "x" | "+x",
    NegY => "-y",
    NegZ => "-z",
    NegX => "-x",
});

impl UpAxis {
    /// The file's unit direction that points up.
    pub fn direction(self) -> Vec3 {
        match self {
            UpAxis::Y => Vec3::Y,
            UpAxis::Z => Vec3::Z,
            UpAxis::X => Vec3::X,
            UpAxis::NegY => Vec3::NEG_Y,
            UpAxis::NegZ => Vec3::NEG_Z,
            UpAxis::NegX => Vec3::NEG_X,
        }
    }

    /// Whether this is an axis pointing down the file's own (the file upside down).
    pub fn is_flipped(self) -> bool {
        matches!(self, UpAxis::NegY | UpAxis::NegZ | UpAxis::NegX)
    }

    /// The same axis the other way: the file upside down.
    pub fn flipped(self) -> UpAxis {
        match self {
            UpAxis::Y => UpAxis::NegY,
            UpAxis::Z => UpAxis::NegZ,
            UpAxis::X => UpAxis::NegX,
            UpAxis::NegY => UpAxis::Y,
            UpAxis::NegZ => UpAxis::Z,
            UpAxis::NegX => UpAxis::X,
        }
    }
}

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
    /// Rotate a direction (a normal) from file to world; no scaling. Each is a proper
    /// rotation (a right-handed file stays right-handed) taking the file's up to +Y.
    #[inline]
    pub fn rotate_to_world(&self, v: Vec3) -> Vec3 {
        match self.up {
            UpAxis::Y => v,
            // Right-handed Z-up (x right, y forward, z up) to Y-up: (x, z, -y).
            UpAxis::Z => Vec3::new(v.x, v.z, -v.y),
            UpAxis::X => Vec3::new(-v.y, v.x, v.z),
            UpAxis::NegY => Vec3::new(v.x, -v.y, -v.z),
            UpAxis::NegZ => Vec3::new(v.x, -v.z, v.y),
            UpAxis::NegX => Vec3::new(v.y, -v.x, v.z),
        }
    }

    /// Rotate a direction from world back to the file's axes; no scaling.
    #[inline]
    pub fn rotate_to_file(&self, v: Vec3) -> Vec3 {
        match self.up {
            UpAxis::Y => v,
            UpAxis::Z => Vec3::new(v.x, -v.z, v.y),
            UpAxis::X => Vec3::new(v.y, -v.x, v.z),
            UpAxis::NegY => Vec3::new(v.x, -v.y, -v.z),
            UpAxis::NegZ => Vec3::new(v.x, v.z, -v.y),
            UpAxis::NegX => Vec3::new(-v.y, v.x, v.z),
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
        self.rotate_to_file(p / self.scale)
    }

    /// The flags that give this frame on the command line: `--up z --scale 0.0254`.
    pub fn flags(&self) -> String {
        format!("--up {} --scale {}", self.up, self.scale)
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
    fn every_up_axis_is_a_rotation_taking_it_up_and_back() {
        use crate::text::names::Named;
        for &up in UpAxis::ALL {
            let f = MapFrame { scale: 2.0, up };
            assert!(
                (f.rotate_to_world(up.direction()) - Vec3::Y).length() < 1e-6,
                "{up}"
            );
            let (x, y, z) = (
                f.rotate_to_world(Vec3::X),
                f.rotate_to_world(Vec3::Y),
                f.rotate_to_world(Vec3::Z),
            );
            assert!((x.cross(y) - z).length() < 1e-6, "{up} is a reflection");
            let p = Vec3::new(1.5, -2.0, 7.0);
            assert!((f.to_file(f.to_world(p)) - p).length() < 1e-5, "{up}");
            assert_eq!(f.flags(), format!("--up {up} --scale 2"));
        }
    }

    #[test]
    fn up_axis_parses() {
        assert_eq!("Z".parse::<UpAxis>().unwrap(), UpAxis::Z);
        assert_eq!("y".parse::<UpAxis>().unwrap(), UpAxis::Y);
        assert_eq!(
            "w".parse::<UpAxis>().unwrap_err().to_string(),
            "unknown up axis 'w' (expected y, z, x, -y, -z or -x)"
        );
    }
}
