//! How a placed model moves: keys of its position and rotation over time, read from its
//! scene's `[model.motion]` table, and its pose at any time after it starts.
//!
//! ```toml
//! [[model]]
//! file = "lift.obj"
//! position = [4, 0, 0]
//!
//! [model.motion]
//! keys = [[0, 4, 0, 0, 0, 0, 0], [3, 4, 3, 0, 0, 0, 0]]  # [t, x, y, z, rx, ry, rz]
//! play = "ping-pong"    # "once", "loop" or "ping-pong"
//! start = "near"        # "always", "near" (within `radius` metres) or "use" (E, looking at it)
//! radius = 3.0
//! ease = "smooth"       # or "linear"
//! ```
//!
//! A key is the model's `position` and `rotation` (degrees about X, then Y, then Z, as the
//! placement writes them) at `t` seconds after the motion starts; the scale stays the
//! placement's. Between keys both are interpolated number by number, so a key at 0
//! degrees and one at 360 turn the model once round (Quake III's movers also interpolate
//! their angles: `BG_EvaluateTrajectory`). The pose is a pure function of the time since
//! the start, so the window, `sim` and a replay agree.

use glam::{Affine3A, EulerRot, Quat, Vec3};
use serde::Deserialize;
use toml::Spanned;

use super::MAX_WORLD_EXTENT;

/// The fastest a mover may travel between two keys, metres a second (at the peak of a
/// smooth ease, 1.5 times the average): a collision test keeps every mover up to this
/// from passing through a walker (a sprinter does 10; Quake III's fastest plats 20 to 40).
pub const MAX_MOVER_SPEED: f32 = 50.0;
/// The fastest a mover may turn about an axis, degrees a second: two turns a second.
pub const MAX_MOVER_TURN: f32 = 720.0;
/// Most keys one motion may have.
pub const MAX_KEYS: usize = 10_000;
/// The radius a `start = "near"` motion starts within when it names none, metres.
pub const DEFAULT_NEAR_RADIUS: f32 = 3.0;

/// How the motion plays once started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// From the first key to the last, then stays there.
    Once,
    /// Over and over (it must end where it starts).
    Loop,
    /// To the last key and back, over and over.
    PingPong,
}

/// What starts the motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Start {
    /// The scene's start.
    Always,
    /// The walker coming within this many metres of the model's box.
    Near(f32),
    /// The use key (E) while looking at the model.
    Use,
}

/// How the pose goes from one key to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ease {
    /// At a steady speed.
    Linear,
    /// Starting and stopping gently (smoothstep: `3s^2 - 2s^3`).
    Smooth,
}

/// The model's pose at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// Seconds after the motion starts.
    pub t: f32,
    /// Position, world units.
    pub position: Vec3,
    /// Rotation, degrees about X, then Y, then Z.
    pub rotation: Vec3,
}

/// A placed model's motion.
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    /// Its keys, times rising from 0 or more.
    pub keys: Vec<Key>,
    /// How it plays.
    pub play: Play,
    /// What starts it.
    pub start: Start,
    /// Its ease.
    pub ease: Ease,
}

/// A model's transform from its position, rotation (degrees about X, then Y, then Z:
/// `R = Rz * Ry * Rx`) and scale: the one transform every placement and every mover's
/// pose is made with.
pub fn placement_matrix(position: Vec3, rotation_deg: Vec3, scale: Vec3) -> Affine3A {
    let [rx, ry, rz] = rotation_deg.to_array().map(f32::to_radians);
    let turn = Quat::from_euler(EulerRot::ZYX, rz, ry, rx);
    Affine3A::from_scale_rotation_translation(scale, turn, position)
}

impl Motion {
    /// Seconds from the first key's time to the last's.
    pub fn duration(&self) -> f32 {
        match (self.keys.first(), self.keys.last()) {
            (Some(a), Some(b)) => b.t - a.t,
            _ => 0.0,
        }
    }

    /// The time within the keys (from the first key's) that `elapsed` seconds after the
    /// start plays: held at the ends for `Once`, wrapped for `Loop`, reflected for
    /// `PingPong`. In `f64`: a long walk's seconds would round a key's place in `f32`.
    fn local_time(&self, elapsed: f64) -> f64 {
        let d = f64::from(self.duration());
        let e = elapsed.max(0.0);
        if d <= 0.0 {
            return 0.0;
        }
        match self.play {
            Play::Once => e.min(d),
            Play::Loop => e.rem_euclid(d),
            Play::PingPong => {
                let u = e.rem_euclid(2.0 * d);
                if u <= d { u } else { 2.0 * d - u }
            }
        }
    }

    /// The position and rotation `elapsed` seconds after the start.
    pub fn pose_at(&self, elapsed: f64) -> MotionPose {
        let Some(first) = self.keys.first() else {
            return MotionPose::default();
        };
        let t = f64::from(first.t) + self.local_time(elapsed);
        // The segment holding `t`: the last key at or before it.
        let i = self
            .keys
            .partition_point(|k| f64::from(k.t) <= t)
            .saturating_sub(1);
        let (a, Some(b)) = (&self.keys[i], self.keys.get(i + 1)) else {
            let k = &self.keys[i];
            return MotionPose {
                position: k.position,
                rotation_deg: k.rotation,
            };
        };
        let span = f64::from(b.t - a.t);
        let s = if span > 0.0 {
            ((t - f64::from(a.t)) / span).clamp(0.0, 1.0) as f32
        } else {
            1.0
        };
        let s = match self.ease {
            Ease::Linear => s,
            Ease::Smooth => s * s * (3.0 - 2.0 * s),
        };
        MotionPose {
            position: a.position.lerp(b.position, s),
            rotation_deg: a.rotation.lerp(b.rotation, s),
        }
    }

    /// The model-to-world transform `elapsed` seconds after the start, at `scale`.
    pub fn matrix_at(&self, elapsed: f64, scale: Vec3) -> Affine3A {
        let pose = self.pose_at(elapsed);
        placement_matrix(pose.position, pose.rotation_deg, scale)
    }
}

/// Where a motion has its model at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MotionPose {
    /// The position, scene units.
    pub position: Vec3,
    /// The rotation about X, Y and Z, degrees.
    pub rotation_deg: Vec3,
}

/// A `[model.motion]` table as written, each field with where it is in the file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotionSpec {
    keys: Spanned<Vec<Vec<f32>>>,
    #[serde(default)]
    play: Option<Spanned<String>>,
    #[serde(default)]
    start: Option<Spanned<String>>,
    #[serde(default)]
    radius: Option<Spanned<f32>>,
    #[serde(default)]
    ease: Option<Spanned<String>>,
}

/// A refused motion: where in the scene, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The byte offset in the scene of the field at fault.
    pub at: usize,
    /// Why it is refused.
    pub why: String,
}

impl Refused {
    /// The field at byte `at` refused for `why`.
    fn new(at: usize, why: impl Into<String>) -> Refused {
        Refused {
            at,
            why: why.into(),
        }
    }
}

impl MotionSpec {
    /// The motion the table describes, or the field at fault and why: keys of seven
    /// finite numbers with times rising, no faster than [`MAX_MOVER_SPEED`] and
    /// [`MAX_MOVER_TURN`], within the world's reach; a loop that ends where it starts;
    /// names it knows.
    pub fn motion(&self) -> Result<Motion, Refused> {
        let at = self.keys.span().start;
        let keys = self.read_keys()?;
        let ease = named(
            &self.ease,
            "ease",
            &[("linear", Ease::Linear), ("smooth", Ease::Smooth)],
        )?;
        check_pace(&keys, ease).map_err(|why| Refused::new(at, why))?;
        let play = named(
            &self.play,
            "play",
            &[
                ("once", Play::Once),
                ("loop", Play::Loop),
                ("ping-pong", Play::PingPong),
            ],
        )?;
        if play == Play::Loop && !ends_where_it_starts(&keys) {
            return Err(Refused::new(
                self.play.as_ref().map_or(at, |s| s.span().start),
                "a looping motion must end where it starts (its last key's position and rotation its first's, a rotation by whole turns): else it jumps back through whatever is there",
            ));
        }
        let radius_at = self.radius.as_ref().map_or(at, |r| r.span().start);
        let radius = self
            .radius
            .as_ref()
            .map_or(DEFAULT_NEAR_RADIUS, |r| *r.get_ref());
        if !(radius.is_finite() && radius > 0.0 && radius <= MAX_WORLD_EXTENT) {
            return Err(Refused::new(
                radius_at,
                format!(
                    "motion radius {radius}: want a positive number of metres, at most {MAX_WORLD_EXTENT}"
                ),
            ));
        }
        let start = named(
            &self.start,
            "start",
            &[
                ("always", Start::Always),
                ("near", Start::Near(radius)),
                ("use", Start::Use),
            ],
        )?;
        Ok(Motion {
            keys,
            play,
            start,
            ease,
        })
    }

    /// The keys, each seven finite numbers, its time 0 or more, its position within the
    /// world's reach.
    fn read_keys(&self) -> Result<Vec<Key>, Refused> {
        let at = self.keys.span().start;
        let rows = self.keys.get_ref();
        if rows.is_empty() || rows.len() > MAX_KEYS {
            return Err(Refused::new(
                at,
                format!("motion keys: {} keys, want 1 to {MAX_KEYS}", rows.len()),
            ));
        }
        let mut keys = Vec::with_capacity(rows.len());
        for (n, row) in rows.iter().enumerate() {
            let [t, x, y, z, rx, ry, rz] = row[..] else {
                return Err(Refused::new(
                    at,
                    format!(
                        "motion key {}: {} numbers, want 7 [t, x, y, z, rx, ry, rz]",
                        n + 1,
                        row.len()
                    ),
                ));
            };
            if !row.iter().all(|v| v.is_finite()) || t < 0.0 {
                return Err(Refused::new(
                    at,
                    format!(
                        "motion key {}: {row:?} must be finite, its time 0 or more",
                        n + 1
                    ),
                ));
            }
            let position = Vec3::new(x, y, z);
            if position.abs().max_element() > MAX_WORLD_EXTENT {
                return Err(Refused::new(
                    at,
                    format!(
                        "motion key {}: position {:?} is beyond the {MAX_WORLD_EXTENT:e} m where positions are too coarse to walk",
                        n + 1,
                        position.to_array()
                    ),
                ));
            }
            keys.push(Key {
                t,
                position,
                rotation: Vec3::new(rx, ry, rz),
            });
        }
        Ok(keys)
    }
}

/// The choice `field` names among `choices` (the first when it names none), or why not.
fn named<T: Copy>(
    field: &Option<Spanned<String>>,
    what: &str,
    choices: &[(&str, T)],
) -> Result<T, Refused> {
    let Some(f) = field else {
        return Ok(choices[0].1);
    };
    choices
        .iter()
        .find(|(name, _)| *name == f.get_ref())
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("{n:?}")).collect();
            Refused::new(
                f.span().start,
                format!("motion {what} {:?}: want {}", f.get_ref(), names.join(", ")),
            )
        })
}

/// Refuse keys whose times do not rise, or that move or turn faster than the limits
/// between them (at the smooth ease's peak, 1.5 times the average).
fn check_pace(keys: &[Key], ease: Ease) -> Result<(), String> {
    let peak = match ease {
        Ease::Linear => 1.0,
        Ease::Smooth => 1.5,
    };
    for (n, w) in keys.windows(2).enumerate() {
        let dt = w[1].t - w[0].t;
        if dt <= 0.0 {
            return Err(format!(
                "motion key {}: time {} does not come after the key before's {}",
                n + 2,
                w[1].t,
                w[0].t
            ));
        }
        let speed = peak * (w[1].position - w[0].position).length() / dt;
        let turn = peak * (w[1].rotation - w[0].rotation).abs().max_element() / dt;
        if speed > MAX_MOVER_SPEED {
            return Err(format!(
                "motion keys {} to {}: {speed:.1} m/s, over the {MAX_MOVER_SPEED} m/s a mover may travel",
                n + 1,
                n + 2
            ));
        }
        if turn > MAX_MOVER_TURN {
            return Err(format!(
                "motion keys {} to {}: {turn:.0} degrees a second, over the {MAX_MOVER_TURN} a mover may turn",
                n + 1,
                n + 2
            ));
        }
    }
    Ok(())
}

/// How near a loop's last key must come back to its first: this share of the first
/// key's farthest coordinate plus one scene unit (keys written to four or five figures
/// close the loop), and this share of a whole turn of each rotation.
const LOOP_CLOSES_WITHIN: f32 = 1e-4;

/// Whether the last key is the first again (rotations equal to whole turns).
fn ends_where_it_starts(keys: &[Key]) -> bool {
    let (Some(a), Some(b)) = (keys.first(), keys.last()) else {
        return true;
    };
    let turns_apart = (b.rotation - a.rotation) / 360.0;
    let reach = 1.0 + a.position.abs().max_element();
    (b.position - a.position).length() <= LOOP_CLOSES_WITHIN * reach
        && (turns_apart - turns_apart.round()).abs().max_element() <= LOOP_CLOSES_WITHIN
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(toml_text: &str) -> Result<Motion, Refused> {
        let spec: MotionSpec = toml::from_str(toml_text).expect("a motion table");
        spec.motion()
    }

    #[test]
    fn a_lift_rises_eases_and_comes_back_in_ping_pong() {
        let m = spec(
            "keys = [[0, 0, 0, 0, 0, 0, 0], [3, 0, 3, 0, 0, 0, 0]]\nplay = \"ping-pong\"\nease = \"smooth\"",
        )
        .unwrap();
        assert_eq!(m.duration(), 3.0);
        let y = |t: f64| m.pose_at(t).position.y;
        assert_eq!(y(0.0), 0.0);
        assert!(
            (y(1.5) - 1.5).abs() < 1e-6,
            "half way at half time: {}",
            y(1.5)
        );
        assert!(
            y(0.3) < 0.3 * 1.0,
            "smooth starts slower than linear: {}",
            y(0.3)
        );
        assert_eq!(y(3.0), 3.0);
        assert!((y(4.5) - 1.5).abs() < 1e-6, "on its way down: {}", y(4.5));
        assert!(y(6.0).abs() < 1e-6);
    }

    #[test]
    fn a_turntable_turns_whole_turns_and_loops() {
        let m = spec("keys = [[0, 0, 0, 0, 0, 0, 0], [4, 0, 0, 0, 0, 360, 0]]\nplay = \"loop\"")
            .unwrap();
        assert!((m.pose_at(1.0).rotation_deg.y - 90.0).abs() < 1e-4);
        assert!(
            (m.pose_at(5.0).rotation_deg.y - 90.0).abs() < 1e-4,
            "a second lap"
        );
        // A key's turn reaches the transform: a quarter turn takes +X to -Z.
        let x = m.matrix_at(1.0, Vec3::ONE).transform_vector3(Vec3::X);
        assert!((x - Vec3::NEG_Z).length() < 1e-5, "{x}");
    }

    #[test]
    fn once_holds_the_last_key_and_before_the_start_the_first() {
        let m = spec("keys = [[1, 0, 0, 0, 0, 0, 0], [2, 5, 0, 0, 0, 0, 0]]").unwrap();
        assert_eq!(m.play, Play::Once);
        assert_eq!(m.pose_at(-1.0).position.x, 0.0);
        assert_eq!(m.pose_at(0.5).position.x, 2.5);
        assert_eq!(m.pose_at(100.0).position.x, 5.0);
    }

    #[test]
    fn bad_motions_are_refused_with_the_reason() {
        let cases = [
            ("keys = []", "want 1 to"),
            ("keys = [[0, 0, 0, 0, 0, 0]]", "6 numbers, want 7"),
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0]]",
                "does not come after",
            ),
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0], [1, 51, 0, 0, 0, 0, 0]]",
                "over the 50 m/s",
            ),
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0], [1, 40, 0, 0, 0, 0, 0]]\nease = \"smooth\"",
                "60.0 m/s",
            ),
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 800, 0]]",
                "may turn",
            ),
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0]]\nplay = \"loop\"",
                "end where it starts",
            ),
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0]]\nplay = \"bounce\"",
                "want \"once\"",
            ),
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0]]\nstart = \"near\"\nradius = -1",
                "radius -1",
            ),
            // Positive, past the world's extent: the limit is said (1e38 is positive,
            // and still refused).
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0]]\nstart = \"near\"\nradius = 1e38",
                "at most 1000000",
            ),
            (
                "keys = [[0, 0, 0, 0, 0, 0, 0]]\nease = \"fast\"",
                "want \"linear\"",
            ),
            ("keys = [[0, 1e30, 0, 0, 0, 0, 0]]", "too coarse"),
        ];
        for (text, want) in cases {
            let e = spec(text).expect_err(text).why;
            assert!(e.contains(want), "{text}: {e}");
        }
        // NaN never gets in (TOML's nan).
        assert!(spec("keys = [[0, nan, 0, 0, 0, 0, 0]]").is_err());
        assert_eq!(
            spec("keys = [[0, 0, 0, 0, 0, 0, 0]]\nstart = \"near\"")
                .unwrap()
                .start,
            Start::Near(DEFAULT_NEAR_RADIUS)
        );
    }
}
