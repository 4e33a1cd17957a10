//! Measuring and asking what the crosshair is on: the point where the eye's view ray
//! meets the map, the distance between two marked points (in metres and in the map
//! file's own units), and the material under the crosshair. The window draws the marks;
//! `sim` prints the same line (`measure: 10.000 m`) for a script's `measure` lines.

use glam::{DVec3, Vec3};

use crate::collision::CollisionWorld;
use crate::geometry::closest::closest_point;
use crate::map::{Map, MapFrame};
use crate::player::Pose;
use crate::tolerance::MAX_WORLD_EXTENT;

/// How far the crosshair's ray looks, world units: across any map (twice
/// [`MAX_WORLD_EXTENT`]), so a far wall can be measured too.
pub const AIM_REACH: f32 = 2.0 * MAX_WORLD_EXTENT;

/// Where the crosshair of an eye meets the map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aimed {
    /// The point met, world coordinates.
    pub point: Vec3,
    /// Its distance from the eye, metres.
    pub distance: f32,
    /// The collision world's triangle met.
    pub triangle: u32,
}

/// The first triangle of `world` along the view of `eye`, within `reach`; `None` when the
/// ray meets nothing (open sky).
pub fn aim(world: &CollisionWorld, eye: &Pose, reach: f32) -> Option<Aimed> {
    let dir = eye.forward();
    let hit = world.ray_cast(eye.position, dir, reach)?;
    Some(Aimed {
        point: eye.position + dir * hit.distance,
        distance: hit.distance,
        triangle: hit.triangle,
    })
}

/// The distance between two marked points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// The first mark, world coordinates.
    pub from: Vec3,
    /// The second mark, world coordinates.
    pub to: Vec3,
    /// Their distance, metres (the world's unit).
    pub metres: f32,
    /// Their distance in the map file's own units (metres over the frame's scale).
    pub file_units: f32,
}

impl Measured {
    /// The distance from `from` to `to` on a map of `frame`.
    pub fn between(from: Vec3, to: Vec3, frame: &MapFrame) -> Measured {
        Measured {
            from,
            to,
            metres: from.distance(to),
            file_units: frame.to_file(from).distance(frame.to_file(to)),
        }
    }

    /// The line the window shows and `sim` prints: `measure: 10.000 m`, with the file's
    /// units after it where they are not metres (`(393.701 file units)`).
    pub fn line(&self, frame: &MapFrame) -> String {
        let metres = format!("measure: {:.3} m", self.metres);
        if frame.scale == 1.0 {
            metres
        } else {
            format!("{metres} ({:.3} file units)", self.file_units)
        }
    }
}

/// The marks made so far: a first one waits for its second; a third starts anew.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Marks {
    /// A first mark without its second yet.
    pub waiting: Option<Vec3>,
    /// The last pair measured (shown until the next mark).
    pub measured: Option<Measured>,
}

impl Marks {
    /// Mark `point`: the second of a pair gives its distance.
    pub fn mark(&mut self, point: Vec3, frame: &MapFrame) -> Option<Measured> {
        match self.waiting.take() {
            Some(from) => {
                let m = Measured::between(from, point, frame);
                self.measured = Some(m);
                Some(m)
            }
            None => {
                self.waiting = Some(point);
                self.measured = None;
                None
            }
        }
    }
}

/// What the crosshair is on.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspected {
    /// The map's file name (or the scene's).
    pub file: String,
    /// The material of the drawn triangle at the point, if one is there.
    pub material: Option<String>,
    /// The point, in the map file's coordinates.
    pub file_point: Vec3,
    /// Its distance from the eye, metres.
    pub distance: f32,
}

impl Inspected {
    /// One line: `de_dust.obj, material brick, 3.217 m away at (1.000, 0.000, -2.500)`.
    pub fn line(&self) -> String {
        let p = self.file_point;
        format!(
            "{}, material {}, {:.3} m away at ({:.3}, {:.3}, {:.3})",
            self.file,
            self.material.as_deref().unwrap_or("none"),
            self.distance,
            p.x,
            p.y,
            p.z
        )
    }
}

/// A drawn triangle this close to the aimed point (metres) is the one aimed at: the
/// collision world keeps the drawn triangles' corners as they are, so the one hit is
/// within rounding of the point.
pub const SAME_POINT_DISTANCE: f64 = 1e-3;

/// What `aimed` is on in `map`: the file, and the material of the drawn triangle nearest
/// the point (the collision world keeps no materials, the drawn batches do).
pub fn inspect(map: &Map, aimed: &Aimed) -> Inspected {
    let p = DVec3::from(aimed.point);
    let corner = |i: u32| DVec3::from(Vec3::from(map.vertices.position(i as usize)));
    let nearest = map
        .batches
        .iter()
        .flat_map(|b| (b.first..b.first + b.count).step_by(3).map(move |i| (b, i)))
        .map(|(b, i)| {
            let t = [corner(i), corner(i + 1), corner(i + 2)];
            (closest_point(p, t).point.distance(p), b.material)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    let material = nearest
        .filter(|(d, _)| *d <= SAME_POINT_DISTANCE)
        .and_then(|(_, m)| map.materials.get(m))
        .map(|m| m.name.clone());
    Inspected {
        file: map.name.clone(),
        material,
        file_point: map.frame.to_file(aimed.point),
        distance: aimed.distance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::UpAxis;

    /// A room 10 m long (x from -5 to 5), 3 m high, 4 m wide, walls facing in.
    fn room() -> CollisionWorld {
        let q = |a: Vec3, b: Vec3, c: Vec3, d: Vec3| [[a, b, c], [a, c, d]];
        let v = Vec3::new;
        let mut t = Vec::new();
        t.extend(q(
            v(-5., 0., -2.),
            v(-5., 0., 2.),
            v(-5., 3., 2.),
            v(-5., 3., -2.),
        ));
        t.extend(q(
            v(5., 0., 2.),
            v(5., 0., -2.),
            v(5., 3., -2.),
            v(5., 3., 2.),
        ));
        t.extend(q(
            v(-5., 0., -2.),
            v(5., 0., -2.),
            v(5., 0., 2.),
            v(-5., 0., 2.),
        ));
        CollisionWorld::new(t)
    }

    fn looking(x: f32, yaw_deg: f32) -> Pose {
        Pose {
            position: Vec3::new(x, 1.6, 0.0),
            yaw_deg,
            pitch_deg: 0.0,
        }
    }

    #[test]
    fn two_marks_across_a_ten_metre_room_measure_ten_metres() {
        let world = room();
        let frame = MapFrame::default();
        let mut marks = Marks::default();
        // Yaw 90 looks to -X, -90 to +X.
        let west = aim(&world, &looking(0.0, 90.0), AIM_REACH).unwrap();
        assert!((west.distance - 5.0).abs() < 1e-5, "{west:?}");
        assert_eq!(marks.mark(west.point, &frame), None);
        assert_eq!(marks.waiting, Some(west.point));
        let east = aim(&world, &looking(0.0, -90.0), AIM_REACH).unwrap();
        let m = marks.mark(east.point, &frame).unwrap();
        assert!((m.metres - 10.0).abs() < 1e-5, "{m:?}");
        assert_eq!(m.line(&frame), "measure: 10.000 m");
        assert_eq!(marks.waiting, None);
        // A third mark starts a new pair.
        assert_eq!(marks.mark(east.point, &frame), None);
        assert_eq!(marks.measured, None);
    }

    #[test]
    fn a_scaled_map_says_its_file_units_too() {
        let frame = MapFrame {
            scale: 0.0254,
            up: UpAxis::Z,
        };
        let m = Measured::between(Vec3::ZERO, Vec3::new(0.0, 2.54, 0.0), &frame);
        assert!((m.file_units - 100.0).abs() < 1e-3, "{m:?}");
        assert_eq!(m.line(&frame), "measure: 2.540 m (100.000 file units)");
    }

    #[test]
    fn a_ray_into_the_open_aims_at_nothing() {
        let up = Pose {
            pitch_deg: 89.0,
            ..looking(0.0, 0.0)
        };
        assert_eq!(aim(&room(), &up, AIM_REACH), None);
    }

    #[test]
    fn inspecting_the_built_in_map_names_its_file_and_the_floor_material() {
        let s =
            crate::session::Session::open(None, &crate::session::OpenOptions::default()).unwrap();
        let (map, world) = (&s.map, &s.world);
        let down = Pose {
            position: Vec3::new(0.0, 1.6, 8.0),
            yaw_deg: 0.0,
            pitch_deg: -89.0,
        };
        let at = aim(world, &down, AIM_REACH).unwrap();
        let seen = inspect(map, &at);
        let material = seen.material.clone().unwrap();
        assert!(material.starts_with("floor_"), "{seen:?}");
        assert!((seen.distance - 1.6).abs() < 0.01, "{seen:?}");
        assert!(
            seen.line().contains(&format!("material {material}, 1.60")),
            "{}",
            seen.line()
        );
    }
}
