//! The trace: one CSV row per fixed step.

use std::fmt;

use crate::camera::{Controller, Mode};
use crate::collision::Response;
use crate::map::MapFrame;

/// The trace's header line, exactly.
pub const TRACE_HEADER: &str = "frame,t,x,y,z,yaw_deg,pitch_deg,response,hit,ground,crouched";

/// One row: the pose after a step, in the map file's own coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceRow {
    /// Step number (0 = the start).
    pub frame: u64,
    /// Simulated time, seconds.
    pub t: f64,
    /// Position, file coordinates.
    pub position: [f32; 3],
    /// Heading, degrees.
    pub yaw_deg: f32,
    /// Elevation, degrees.
    pub pitch_deg: f32,
    /// Response in force.
    pub response: Response,
    /// A collision changed this step's move.
    pub hit: bool,
    /// Walking, standing on walkable ground (false in the air and when flying).
    pub ground: bool,
    /// Walking, crouched.
    pub crouched: bool,
}

impl TraceRow {
    /// The row for the controller's current state.
    pub fn new(frame: u64, t: f64, c: &Controller, map_frame: &MapFrame, hit: bool) -> TraceRow {
        TraceRow {
            frame,
            t,
            position: map_frame.to_file(c.pose.position).into(),
            yaw_deg: c.pose.yaw_deg,
            pitch_deg: c.pose.pitch_deg,
            response: c.settings.response,
            hit,
            ground: c.settings.mode == Mode::Walk && c.walk.on_ground(),
            crouched: c.settings.mode == Mode::Walk && c.walk.crouched,
        }
    }
}

impl fmt::Display for TraceRow {
    /// `frame,t,x,y,z,yaw_deg,pitch_deg,response,hit,ground,crouched`, positions to 6
    /// decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.position;
        write!(
            f,
            "{},{:.6},{:.6},{:.6},{:.6},{:.3},{:.3},{},{},{},{}",
            self.frame,
            self.t,
            x,
            y,
            z,
            self.yaw_deg,
            self.pitch_deg,
            self.response,
            self.hit as u8,
            self.ground as u8,
            self.crouched as u8
        )
    }
}
