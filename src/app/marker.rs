//! The person marker: a frame the height of a tall adult standing on the floor ahead,
//! to judge a map's scale by (shown after a correction and with the offer of a frame).

use glam::Vec3;

use walkthrough_core::collision::CollisionWorld;
use walkthrough_core::collision::body::EYE_HEIGHT;

use super::render::DebugGeometry;

/// The marker's height, metres: a tall adult, to hold against a door.
pub const MARKER_HEIGHT: f32 = 1.8;
/// Its width, metres (shoulders).
const MARKER_WIDTH: f32 = 0.5;
/// How far ahead of the eye it stands, metres (nearer when a wall is nearer): far enough
/// that its foot shows about 18 degrees below the view's middle, above the survey's
/// question and the notices at the bottom of the window (at 2.5 m it reached the bottom
/// edge, behind them).
const MARKER_DISTANCE: f32 = 5.0;
/// The farthest it stands to clear the survey's question, metres: beyond, it is too
/// small to judge a door by.
const MARKER_FARTHEST: f32 = 15.0;
/// How much farther than exactly at the question's top its foot stands (a share of the
/// distance), clear of the question's frame.
const FOOT_CLEARANCE: f32 = 0.15;
/// Its distance from a wall it would stand in, metres.
const MARKER_WALL_GAP: f32 = 0.3;
/// Its colour (cyan: no map is that colour for long).
const MARKER_COLOR: [f32; 4] = [0.2, 1.0, 1.0, 1.0];

/// How far ahead a foot on the floor [`EYE_HEIGHT`] under the eye must stand to show
/// above a screen row `top` (a share of the window's height from its top) in a view
/// `vertical` radians high, with [`FOOT_CLEARANCE`]; `None` when the row is above the
/// horizon (no foot on the floor shows above it).
pub(super) fn foot_clear_distance(top: f32, vertical: f32) -> Option<f32> {
    let below = (2.0 * top - 1.0) * (0.5 * vertical).tan();
    (below.is_finite() && below > 0.0).then(|| EYE_HEIGHT / below * (1.0 + FOOT_CLEARANCE))
}

/// A person-sized frame standing on the floor ahead of `eye` along `ahead` (flat, unit):
/// its outline, [`MARKER_HEIGHT`] tall, with a tick every half metre; [`MARKER_DISTANCE`]
/// ahead, or `at_least` (up to [`MARKER_FARTHEST`]) for its foot to clear what the
/// window shows below it, and short of a wall.
pub(super) fn marker(
    geometry: &mut DebugGeometry,
    world: &CollisionWorld,
    eye: Vec3,
    ahead: Vec3,
    at_least: f32,
) {
    let ahead = ahead.normalize_or(Vec3::NEG_Z);
    let distance = MARKER_DISTANCE.max(at_least.min(MARKER_FARTHEST));
    let reach = world
        .ray_cast(eye, ahead, distance + MARKER_WALL_GAP)
        .map_or(distance, |h| (h.distance - MARKER_WALL_GAP).max(0.0));
    let above = eye + ahead * reach;
    let floor = world
        .ray_cast(above, Vec3::NEG_Y, 2.0 * EYE_HEIGHT)
        .map_or(above.y - EYE_HEIGHT, |h| above.y - h.distance);
    let base = Vec3::new(above.x, floor, above.z);
    let side = ahead.cross(Vec3::Y) * (MARKER_WIDTH * 0.5);
    let up = Vec3::Y * MARKER_HEIGHT;
    let corners = [base - side, base + side, base + side + up, base - side + up];
    for i in 0..4 {
        geometry.line(corners[i], corners[(i + 1) % 4], MARKER_COLOR);
    }
    let ticks = (MARKER_HEIGHT / 0.5) as usize;
    for k in 1..=ticks {
        let y = Vec3::Y * (k as f32 * 0.5);
        geometry.line(base - side + y, base - side * 0.5 + y, MARKER_COLOR);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_stands_on_the_floor_short_of_a_wall() {
        // A floor at y = 0 and a wall 1.5 m ahead (toward -z).
        let floor = [
            [
                Vec3::new(-5.0, 0.0, -5.0),
                Vec3::new(-5.0, 0.0, 5.0),
                Vec3::new(5.0, 0.0, 5.0),
            ],
            [
                Vec3::new(-5.0, 0.0, -5.0),
                Vec3::new(5.0, 0.0, 5.0),
                Vec3::new(5.0, 0.0, -5.0),
            ],
        ];
        let wall = [
            [
                Vec3::new(-5.0, 0.0, -1.5),
                Vec3::new(5.0, 0.0, -1.5),
                Vec3::new(5.0, 4.0, -1.5),
            ],
            [
                Vec3::new(-5.0, 0.0, -1.5),
                Vec3::new(5.0, 4.0, -1.5),
                Vec3::new(-5.0, 4.0, -1.5),
            ],
        ];
        let world = CollisionWorld::new(floor.into_iter().chain(wall));
        let mut g = DebugGeometry::default();
        marker(
            &mut g,
            &world,
            Vec3::new(0.0, EYE_HEIGHT, 0.0),
            Vec3::NEG_Z,
            0.0,
        );
        let ys: Vec<f32> = g.lines.iter().map(|v| v.position[1]).collect();
        let zs: Vec<f32> = g.lines.iter().map(|v| v.position[2]).collect();
        let (low, high) = (
            ys.iter().cloned().fold(f32::MAX, f32::min),
            ys.iter().cloned().fold(f32::MIN, f32::max),
        );
        assert!(low.abs() < 1e-4, "stands on the floor: {low}");
        assert!((high - MARKER_HEIGHT).abs() < 1e-4, "{high}");
        assert!(zs.iter().all(|&z| (z + 1.2).abs() < 1e-3), "{zs:?}");
    }

    /// How far ahead of an eye over the origin, looking along -Z over an open floor, the
    /// marker stands when asked to stand `at_least` that far.
    fn distance_on_an_open_floor(at_least: f32) -> f32 {
        let floor = [[
            Vec3::new(-50.0, 0.0, -50.0),
            Vec3::new(0.0, 0.0, 50.0),
            Vec3::new(50.0, 0.0, -50.0),
        ]];
        let world = CollisionWorld::new(floor);
        let mut g = DebugGeometry::default();
        let eye = Vec3::new(0.0, EYE_HEIGHT, 0.0);
        marker(&mut g, &world, eye, Vec3::NEG_Z, at_least);
        g.lines
            .iter()
            .map(|v| -v.position[2])
            .fold(f32::MAX, f32::min)
    }

    #[test]
    fn on_an_open_floor_the_marker_stands_clear_of_the_bottom_messages() {
        let near = distance_on_an_open_floor(0.0);
        assert!((near - MARKER_DISTANCE).abs() < 1e-3, "{near}");
        // Its foot within 20 degrees below the view's middle (a 16:9 window at the
        // default 100 degrees across sees 33 below it; the question box starts near 25).
        let foot = (EYE_HEIGHT / near).atan().to_degrees();
        assert!(foot < 20.0, "{foot} degrees down");
    }

    /// In a short window the survey's question reached up over the marker's foot: the
    /// marker stands far enough ahead for its foot to show above the question's top.
    #[test]
    fn the_marker_stands_far_enough_for_its_foot_to_show_above_the_question() {
        // A view 60 degrees high; the question's top 65% down the window.
        let (vertical, top) = (60f32.to_radians(), 0.65);
        let at_least = foot_clear_distance(top, vertical).expect("below the horizon");
        let near = distance_on_an_open_floor(at_least);
        assert!(near > MARKER_DISTANCE, "{near}");
        // Where the foot shows, as a share of the window's height from its top.
        let shown = 0.5 + 0.5 * (EYE_HEIGHT / near) / (0.5 * vertical).tan();
        assert!(shown < top, "the foot at {shown}, the question at {top}");
        // A question above the horizon, or none below it: no distance helps.
        assert_eq!(foot_clear_distance(0.4, vertical), None);
        assert_eq!(foot_clear_distance(0.5, vertical), None);
    }
}
