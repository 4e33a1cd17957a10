//! The trace: one CSV row per fixed step, written as it is made.

use std::fmt::{self, Write as _};
use std::io::{self, Write};

use glam::Vec3;

use crate::collision::Response;
use crate::map::MapFrame;
use crate::movers::Ticking;
use crate::player::{Controller, Mode};

/// The trace's header line, exactly.
pub const TRACE_HEADER: &str = "frame,t,x,y,z,yaw_deg,pitch_deg,response,hit,ground,crouched";

/// The column a trace gains where things move (a scene with `[model.motion]`): the
/// placement stood on.
pub const ON_COLUMN: &str = "on";

/// The column a trace gains where there is water (a scene with `[[water]]`), after
/// [`ON_COLUMN`] where that one is there: 0 dry, 1 wading, 2 swimming.
pub const WATER_COLUMN: &str = "water";

/// The columns a trace has beyond [`TRACE_HEADER`]'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceColumns {
    /// [`ON_COLUMN`]: things move.
    pub on: bool,
    /// [`WATER_COLUMN`]: there is water.
    pub water: bool,
}

impl TraceColumns {
    /// The columns a trace of a walk in `world` has.
    pub fn of(world: &dyn Ticking) -> TraceColumns {
        TraceColumns {
            on: world.moves(),
            water: !world.water().is_empty(),
        }
    }
}

/// One row: the pose after a step, in the map file's own coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceRow {
    /// Step number (0 = the start).
    pub frame: u64,
    /// Simulated time, seconds.
    pub t: f64,
    /// Position, file coordinates: the `f32` world point turned back, in `f64` only where
    /// `f32` overflows (the same bytes as ever elsewhere).
    pub position: [f64; 3],
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
    /// Where things move: the placement (0-based, scene order) the walker stands on, or
    /// -1 (in the air, flying, or on none). `None`: nothing moves, and the trace has no
    /// `on` column.
    pub on: Option<i64>,
    /// Where there is water: how deep the walker is in it (0 dry, 1 wading, 2 swimming;
    /// 0 when flying). `None`: no water, and the trace has no `water` column.
    pub water: Option<u8>,
}

impl TraceRow {
    /// The row for the controller's current state.
    pub fn new(frame: u64, t: f64, c: &Controller, map_frame: &MapFrame, hit: bool) -> TraceRow {
        TraceRow {
            frame,
            t,
            position: file_position(map_frame, c.pose.position),
            yaw_deg: c.pose.yaw_deg,
            pitch_deg: c.pose.pitch_deg,
            response: c.settings.response,
            hit,
            ground: c.settings.mode == Mode::Walk && c.walk.on_ground(),
            crouched: c.settings.mode == Mode::Walk && c.walk.crouched,
            on: None,
            water: None,
        }
    }

    /// The row with its `on` column where `world` moves, and its `water` column where
    /// `world` has water.
    pub fn standing_on(self, world: &dyn Ticking, c: &Controller) -> TraceRow {
        let walking = c.settings.mode == Mode::Walk;
        let on = world.moves().then(|| {
            c.walk
                .ground
                .filter(|_| walking)
                .and_then(|g| world.placement_of(g.triangle))
                .map_or(-1, |i| i as i64)
        });
        let water =
            (!world.water().is_empty()).then(|| if walking { c.walk.water.number() } else { 0 });
        TraceRow { on, water, ..self }
    }
}

impl TraceRow {
    /// The position as `f32` file coordinates (what tests and tools compare).
    pub fn file_point(&self) -> Vec3 {
        glam::DVec3::from(self.position).as_vec3()
    }
}

/// The world point `p` in the file's coordinates. In `f32` as everywhere, unless that
/// overflows: a walker 20 m below a map scaled by `1e-38` is `2e39` file units down,
/// past `f32`, and the trace said `-inf`. `f64` holds any `f32`
/// over any scale `--scale` takes.
fn file_position(frame: &MapFrame, p: Vec3) -> [f64; 3] {
    let near = frame.to_file(p);
    if near.is_finite() || !p.is_finite() {
        return near.as_dvec3().to_array();
    }
    let turned = frame.rotate_to_file(p).as_dvec3();
    (turned / f64::from(frame.scale)).to_array()
}

impl fmt::Display for TraceRow {
    /// `frame,t,x,y,z,yaw_deg,pitch_deg,response,hit,ground,crouched` (and `on` where
    /// things move, `water` where there is water), positions to 6 decimals.
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
        )?;
        if let Some(on) = self.on {
            write!(f, ",{on}")?;
        }
        match self.water {
            Some(water) => write!(f, ",{water}"),
            None => Ok(()),
        }
    }
}

/// Writes the trace CSV as the steps are taken, so memory stays flat however long the
/// run. Each row reaches the writer in one `write_all`, so a buffered writer never splits
/// a row between two flushes: a run killed mid-way leaves whole rows only.
#[derive(Debug)]
pub struct TraceWriter<W: Write> {
    out: W,
    line: String,
    rows: u64,
}

impl<W: Write> TraceWriter<W> {
    /// Start a trace on `out`: writes the header (with the `on` and `water` columns as
    /// `columns` says).
    pub fn new(mut out: W, columns: TraceColumns) -> io::Result<Self> {
        let mut header = TRACE_HEADER.to_string();
        for (wanted, column) in [(columns.on, ON_COLUMN), (columns.water, WATER_COLUMN)] {
            if wanted {
                header = format!("{header},{column}");
            }
        }
        writeln!(out, "{header}")?;
        Ok(TraceWriter {
            out,
            line: String::with_capacity(128),
            rows: 0,
        })
    }

    /// Write one row.
    pub fn row(&mut self, row: &TraceRow) -> io::Result<()> {
        self.line.clear();
        // Formatting into a String cannot fail.
        let _ = writeln!(self.line, "{row}");
        self.out.write_all(self.line.as_bytes())?;
        self.rows += 1;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flush what is buffered (the window does at the end of each frame).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Flush, and hand back the writer (to commit the file it writes).
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{ControllerSettings, Pose};

    /// Under `--scale 1e-38` a walker fallen 20 m is `2e39` file
    /// units down, past `f32`, and the trace said `-inf`. Elsewhere the row is what `f32`
    /// gave, to the bit.
    #[test]
    fn a_position_past_f32_in_file_units_is_written_finite() {
        let frame = MapFrame {
            scale: 1e-38,
            up: crate::map::UpAxis::Z,
        };
        let p = file_position(&frame, Vec3::new(0.5, -20.0, 1.0));
        assert!(p.iter().all(|v| v.is_finite()), "{p:?}");
        assert!((p[2] / -2e39 - 1.0).abs() < 1e-6, "{p:?}");
        let usual = MapFrame {
            scale: 0.0254,
            up: crate::map::UpAxis::Z,
        };
        let q = Vec3::new(1.1, 2.2, -3.3);
        assert_eq!(
            file_position(&usual, q),
            usual.to_file(q).as_dvec3().to_array()
        );
    }

    #[test]
    fn the_writer_writes_the_header_then_whole_rows() {
        let c = Controller::new(Pose::default(), ControllerSettings::default());
        let row = TraceRow::new(7, 0.5, &c, &MapFrame::default(), true);
        let mut w = TraceWriter::new(Vec::new(), TraceColumns::default()).unwrap();
        w.row(&row).unwrap();
        assert_eq!(w.rows(), 1);
        let text = String::from_utf8(w.out).unwrap();
        assert_eq!(text, format!("{TRACE_HEADER}\n{row}\n"));
        assert_eq!(
            text.lines().nth(1).unwrap(),
            "7,0.500000,0.000000,0.000000,0.000000,0.000,0.000,slide,1,0,0"
        );
    }
}
