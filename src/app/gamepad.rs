//! A gamepad (through `gilrs`, any pad SDL's database knows, plugged in before or while
//! the window runs): the left stick walks, the right stick looks, buttons jump, crouch,
//! run, fly, switch stop / slide and go to the saved views.
//!
//! The mapping is pure: [`PadState::apply`] takes a [`PadEvent`] (gilrs' event, or one a
//! test makes with no pad present) and says what it asks of the walk; [`Gamepads`] only
//! turns gilrs' events into [`PadEvent`]s.

use super::controls::Action;

/// The left stick's tilt past which it walks (a digital move, as a key: a recording
/// replays it exactly), a fraction of full tilt.
pub const WALK_TILT: f32 = 0.5;
/// The right stick's tilt under which it does not look (a resting stick is seldom at 0).
pub const LOOK_DEAD_ZONE: f32 = 0.15;

/// A stick's axis, +1 right or up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadAxis {
    LeftX,
    LeftY,
    RightX,
    RightY,
}

/// A button, by its place (gilrs' names: South is A on an Xbox pad, cross on a PlayStation
/// one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadButton {
    South,
    East,
    North,
    West,
    LeftBumper,
    RightBumper,
    LeftStick,
    DPadUp,
    DPadRight,
    DPadDown,
    DPadLeft,
}

/// What a pad did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadEvent {
    /// A button went down (`true`) or up.
    Button(PadButton, bool),
    /// A stick's axis moved to this tilt, -1 to 1.
    Axis(PadAxis, f32),
    /// A pad was plugged in.
    Connected,
    /// A pad was unplugged: what it held is let go.
    Disconnected,
}

/// What a press asks for once (held moves are [`PadHeld`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadPress {
    /// What a key does ([`Action::NextMode`]: fly, [`Action::NextResponse`]: stop / slide).
    Action(Action),
    /// Go to saved view 1 to 4.
    View(u8),
}

/// The moves a pad holds, as keys would (added to the keyboard's by
/// [`super::keys::HeldKeys::take_intent`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PadHeld {
    /// +1 forward, -1 back, 0 (the left stick up or down past [`WALK_TILT`]).
    pub forward: f32,
    /// +1 right, -1 left, 0.
    pub strafe: f32,
    /// South held: up when flying.
    pub up: bool,
    /// East held: crouch when walking, down when flying.
    pub down: bool,
    /// A bumper or the left stick's click held: run.
    pub run: bool,
    /// South went down since the last step took it: a jump.
    pub jump: bool,
}

/// The pads' sticks and buttons as the events left them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PadState {
    /// The left stick (walking) and right stick (looking): x, y.
    left: [f32; 2],
    right: [f32; 2],
    /// What the buttons hold.
    run_buttons: u8,
    up: bool,
    down: bool,
    jump: bool,
}

/// A tilt, NaN or out of range (a pad's reading) brought to -1..1 (NaN: 0).
fn tilt(v: f32) -> f32 {
    if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) }
}

/// A digital move of an axis: -1, 0 or 1 past [`WALK_TILT`].
fn walk_axis(v: f32) -> f32 {
    if v.abs() > WALK_TILT { v.signum() } else { 0.0 }
}

/// A look axis past the dead zone, rescaled so the zone's edge is 0 and full tilt 1.
fn look_axis(v: f32) -> f32 {
    let past = (v.abs() - LOOK_DEAD_ZONE).max(0.0) / (1.0 - LOOK_DEAD_ZONE);
    past * v.signum()
}

impl PadState {
    /// Take `event` into the state; what a press asks for once, if anything.
    pub fn apply(&mut self, event: PadEvent) -> Option<PadPress> {
        match event {
            PadEvent::Axis(axis, v) => {
                let v = tilt(v);
                match axis {
                    PadAxis::LeftX => self.left[0] = v,
                    PadAxis::LeftY => self.left[1] = v,
                    PadAxis::RightX => self.right[0] = v,
                    PadAxis::RightY => self.right[1] = v,
                }
                None
            }
            PadEvent::Button(button, down) => self.button(button, down),
            PadEvent::Connected | PadEvent::Disconnected => {
                *self = PadState::default();
                None
            }
        }
    }

    fn button(&mut self, button: PadButton, down: bool) -> Option<PadPress> {
        let run_bit = |b: PadButton| match b {
            PadButton::LeftBumper => 1,
            PadButton::RightBumper => 2,
            PadButton::LeftStick => 4,
            _ => 0,
        };
        match button {
            PadButton::South => {
                self.jump |= down && !self.up;
                self.up = down;
            }
            PadButton::East => self.down = down,
            PadButton::LeftBumper | PadButton::RightBumper | PadButton::LeftStick => {
                let bit = run_bit(button);
                self.run_buttons = if down {
                    self.run_buttons | bit
                } else {
                    self.run_buttons & !bit
                };
            }
            _ if !down => {}
            PadButton::North => return Some(PadPress::Action(Action::NextMode)),
            PadButton::West => return Some(PadPress::Action(Action::NextResponse)),
            PadButton::DPadUp => return Some(PadPress::View(1)),
            PadButton::DPadRight => return Some(PadPress::View(2)),
            PadButton::DPadDown => return Some(PadPress::View(3)),
            PadButton::DPadLeft => return Some(PadPress::View(4)),
        }
        None
    }

    /// The moves held now; taking them uses up the jump.
    pub fn take_held(&mut self) -> PadHeld {
        PadHeld {
            forward: walk_axis(self.left[1]),
            strafe: walk_axis(self.left[0]),
            up: self.up,
            down: self.down,
            run: self.run_buttons != 0,
            jump: std::mem::take(&mut self.jump),
        }
    }

    /// The turn the right stick asks for over `secs` seconds, degrees (yaw left positive,
    /// pitch up positive), at `speed` degrees a second at full tilt; `invert_y`: pushing
    /// up looks down.
    pub fn look(&self, secs: f32, speed: f32, invert_y: bool) -> (f32, f32) {
        let [x, y] = self.right.map(look_axis);
        let pitch = y * speed * secs;
        (-x * speed * secs, if invert_y { -pitch } else { pitch })
    }
}

/// A pad event played at a time, seconds after the window's first frame (`--pad-events`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayedEvent {
    /// When, seconds after the first frame.
    pub at: f32,
    /// What.
    pub event: PadEvent,
}

/// Button names in a `--pad-events` file.
const BUTTON_NAMES: [(&str, PadButton); 11] = [
    ("south", PadButton::South),
    ("east", PadButton::East),
    ("north", PadButton::North),
    ("west", PadButton::West),
    ("left-bumper", PadButton::LeftBumper),
    ("right-bumper", PadButton::RightBumper),
    ("left-stick", PadButton::LeftStick),
    ("dpad-up", PadButton::DPadUp),
    ("dpad-right", PadButton::DPadRight),
    ("dpad-down", PadButton::DPadDown),
    ("dpad-left", PadButton::DPadLeft),
];
/// Axis names in a `--pad-events` file.
const AXIS_NAMES: [(&str, PadAxis); 4] = [
    ("left-x", PadAxis::LeftX),
    ("left-y", PadAxis::LeftY),
    ("right-x", PadAxis::RightX),
    ("right-y", PadAxis::RightY),
];

/// A `--pad-events` file: a line an event, `SECS button NAME down|up`, `SECS axis NAME
/// TILT` or `SECS connected|disconnected` (`#` comments), times not falling; an error
/// names the line.
pub fn parse_pad_events(text: &str) -> Result<Vec<PlayedEvent>, String> {
    let mut played: Vec<PlayedEvent> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let words: Vec<&str> = line
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if words.is_empty() {
            continue;
        }
        let bad = |why: &str| {
            format!(
                "line {}: {why}: {}",
                i + 1,
                walkthrough_core::text::quote::escape(line)
            )
        };
        let at: f32 = words[0]
            .parse()
            .ok()
            .filter(|t: &f32| t.is_finite() && *t >= 0.0)
            .ok_or_else(|| bad("a time in seconds first"))?;
        if played.last().is_some_and(|p| p.at > at) {
            return Err(bad("times go forward"));
        }
        let event = match words[1..] {
            ["connected"] => PadEvent::Connected,
            ["disconnected"] => PadEvent::Disconnected,
            ["button", name, state @ ("down" | "up")] => PadEvent::Button(
                named(&BUTTON_NAMES, name).ok_or_else(|| bad("no such button"))?,
                state == "down",
            ),
            ["axis", name, tilt] => PadEvent::Axis(
                named(&AXIS_NAMES, name).ok_or_else(|| bad("no such axis"))?,
                tilt.parse()
                    .ok()
                    .filter(|t: &f32| (-1.0..=1.0).contains(t))
                    .ok_or_else(|| bad("a tilt from -1 to 1"))?,
            ),
            _ => {
                return Err(bad(
                    "button NAME down|up, axis NAME TILT, connected or disconnected",
                ));
            }
        };
        played.push(PlayedEvent { at, event });
    }
    Ok(played)
}

/// The value of `name` in `names`.
fn named<T: Copy>(names: &[(&str, T)], name: &str) -> Option<T> {
    names.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// The pads plugged in, through gilrs (`None` where gilrs cannot start: no pads then),
/// and the events a `--pad-events` file plays, through the same path.
pub struct Gamepads {
    gilrs: Option<gilrs::Gilrs>,
    /// The played events not yet due, the last first.
    played: Vec<PlayedEvent>,
    /// The first poll: played events count from it.
    first_poll: Option<std::time::Instant>,
}

impl Gamepads {
    /// Start listening for pads, and play `played`; where pads cannot be listened for,
    /// say why once.
    pub fn new(mut played: Vec<PlayedEvent>) -> Gamepads {
        played.reverse();
        let gilrs = match gilrs::Gilrs::new() {
            Ok(g) => {
                for (_, pad) in g.gamepads() {
                    tell!("gamepad: {}", pad.name());
                }
                Some(g)
            }
            Err(e) => {
                tell!("gamepads: none ({e})");
                None
            }
        };
        Gamepads {
            gilrs,
            played,
            first_poll: None,
        }
    }

    /// The next event of any pad at `now`, as a [`PadEvent`] (gilrs' events of no use
    /// here are skipped), with the pad's name for a plug or unplug; a played event once
    /// it is due.
    pub fn next(&mut self, now: std::time::Instant) -> Option<(PadEvent, Option<String>)> {
        let since = now.saturating_duration_since(*self.first_poll.get_or_insert(now));
        if self
            .played
            .last()
            .is_some_and(|p| p.at <= since.as_secs_f32())
        {
            let played = self.played.pop()?;
            return Some((played.event, Some("a played gamepad".into())));
        }
        let g = self.gilrs.as_mut()?;
        while let Some(gilrs::Event { id, event, .. }) = g.next_event() {
            let name = || Some(g.gamepad(id).name().to_string());
            let pad = match event {
                gilrs::EventType::ButtonPressed(b, _) => {
                    button(b).map(|b| PadEvent::Button(b, true))
                }
                gilrs::EventType::ButtonReleased(b, _) => {
                    button(b).map(|b| PadEvent::Button(b, false))
                }
                gilrs::EventType::AxisChanged(a, v, _) => axis(a).map(|a| PadEvent::Axis(a, v)),
                gilrs::EventType::Connected => return Some((PadEvent::Connected, name())),
                gilrs::EventType::Disconnected => return Some((PadEvent::Disconnected, name())),
                _ => None,
            };
            if let Some(pad) = pad {
                return Some((pad, None));
            }
        }
        None
    }
}

/// gilrs' button as ours.
fn button(b: gilrs::Button) -> Option<PadButton> {
    use gilrs::Button as B;
    Some(match b {
        B::South => PadButton::South,
        B::East => PadButton::East,
        B::North => PadButton::North,
        B::West => PadButton::West,
        B::LeftTrigger => PadButton::LeftBumper,
        B::RightTrigger => PadButton::RightBumper,
        B::LeftThumb => PadButton::LeftStick,
        B::DPadUp => PadButton::DPadUp,
        B::DPadRight => PadButton::DPadRight,
        B::DPadDown => PadButton::DPadDown,
        B::DPadLeft => PadButton::DPadLeft,
        _ => return None,
    })
}

/// gilrs' axis as ours.
fn axis(a: gilrs::Axis) -> Option<PadAxis> {
    use gilrs::Axis as A;
    Some(match a {
        A::LeftStickX => PadAxis::LeftX,
        A::LeftStickY => PadAxis::LeftY,
        A::RightStickX => PadAxis::RightX,
        A::RightStickY => PadAxis::RightY,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_left_stick_walks_past_half_tilt_and_the_right_stick_looks_past_its_dead_zone() {
        let mut pad = PadState::default();
        pad.apply(PadEvent::Axis(PadAxis::LeftY, 0.4));
        assert_eq!(pad.take_held().forward, 0.0, "under half tilt");
        pad.apply(PadEvent::Axis(PadAxis::LeftY, 0.9));
        pad.apply(PadEvent::Axis(PadAxis::LeftX, -0.8));
        let held = pad.take_held();
        assert_eq!((held.forward, held.strafe), (1.0, -1.0));
        pad.apply(PadEvent::Axis(PadAxis::LeftY, -1.0));
        assert_eq!(pad.take_held().forward, -1.0);
        // Resting a little off centre: no turn.
        pad.apply(PadEvent::Axis(PadAxis::RightX, 0.1));
        assert_eq!(pad.look(1.0, 180.0, false), (0.0, 0.0));
        // Full right for half a second at 180 deg/s: 90 degrees right (yaw is left
        // positive); full up looks up, or down inverted.
        pad.apply(PadEvent::Axis(PadAxis::RightX, 1.0));
        pad.apply(PadEvent::Axis(PadAxis::RightY, 1.0));
        assert_eq!(pad.look(0.5, 180.0, false), (-90.0, 90.0));
        assert_eq!(pad.look(0.5, 180.0, true), (-90.0, -90.0));
        // Half way between the dead zone and full tilt: half the speed.
        pad.apply(PadEvent::Axis(PadAxis::RightY, 0.0));
        pad.apply(PadEvent::Axis(
            PadAxis::RightX,
            -(LOOK_DEAD_ZONE + 1.0) / 2.0,
        ));
        let (yaw, pitch) = pad.look(1.0, 100.0, false);
        assert!((yaw - 50.0).abs() < 1e-3 && pitch == 0.0, "{yaw} {pitch}");
        // A reading out of range or NaN is brought back.
        pad.apply(PadEvent::Axis(PadAxis::RightX, f32::NAN));
        pad.apply(PadEvent::Axis(PadAxis::RightY, 7.0));
        assert_eq!(pad.look(1.0, 100.0, false), (0.0, 100.0));
    }

    #[test]
    fn buttons_jump_once_crouch_and_run_while_held_and_press_fly_stop_slide_and_views() {
        let mut pad = PadState::default();
        assert_eq!(pad.apply(PadEvent::Button(PadButton::South, true)), None);
        let held = pad.take_held();
        assert!(held.jump && held.up);
        assert!(!pad.take_held().jump, "one jump a press");
        pad.apply(PadEvent::Button(PadButton::East, true));
        pad.apply(PadEvent::Button(PadButton::LeftBumper, true));
        pad.apply(PadEvent::Button(PadButton::LeftStick, true));
        pad.apply(PadEvent::Button(PadButton::LeftBumper, false));
        let held = pad.take_held();
        assert!(held.down && held.run, "the stick's click still runs");
        for (button, press) in [
            (PadButton::North, PadPress::Action(Action::NextMode)),
            (PadButton::West, PadPress::Action(Action::NextResponse)),
            (PadButton::DPadUp, PadPress::View(1)),
            (PadButton::DPadLeft, PadPress::View(4)),
        ] {
            assert_eq!(pad.apply(PadEvent::Button(button, true)), Some(press));
            assert_eq!(pad.apply(PadEvent::Button(button, false)), None);
        }
    }

    #[test]
    fn an_unplugged_pad_lets_go_of_all_it_held() {
        let mut pad = PadState::default();
        pad.apply(PadEvent::Axis(PadAxis::LeftY, 1.0));
        pad.apply(PadEvent::Axis(PadAxis::RightX, 1.0));
        pad.apply(PadEvent::Button(PadButton::RightBumper, true));
        pad.apply(PadEvent::Disconnected);
        assert_eq!(pad.take_held(), PadHeld::default());
        assert_eq!(pad.look(1.0, 180.0, false), (0.0, 0.0));
    }

    #[test]
    fn a_pad_events_file_reads_back_as_its_events_and_a_bad_line_is_named() {
        let played = parse_pad_events(
            "# a walk\n0.5 axis left-y 1\n1.25 axis left-y 0 # stop\n\n2 button north down\n2 disconnected\n",
        )
        .unwrap();
        assert_eq!(
            played,
            [
                PlayedEvent {
                    at: 0.5,
                    event: PadEvent::Axis(PadAxis::LeftY, 1.0)
                },
                PlayedEvent {
                    at: 1.25,
                    event: PadEvent::Axis(PadAxis::LeftY, 0.0)
                },
                PlayedEvent {
                    at: 2.0,
                    event: PadEvent::Button(PadButton::North, true)
                },
                PlayedEvent {
                    at: 2.0,
                    event: PadEvent::Disconnected
                },
            ]
        );
        for (text, why) in [
            ("1 axis left-y 2", "line 1: a tilt from -1 to 1"),
            ("x axis left-y 0", "line 1: a time in seconds first"),
            ("1 button start down", "line 1: no such button"),
            ("2 connected\n1 connected", "line 2: times go forward"),
            ("1 jump", "line 1: button NAME down|up"),
        ] {
            let e = parse_pad_events(text).unwrap_err();
            assert!(e.starts_with(why), "{text}: {e}");
        }
    }

    #[test]
    fn gilrs_buttons_and_axes_map_to_the_pads() {
        assert_eq!(button(gilrs::Button::South), Some(PadButton::South));
        assert_eq!(
            button(gilrs::Button::LeftTrigger),
            Some(PadButton::LeftBumper)
        );
        assert_eq!(button(gilrs::Button::Mode), None);
        assert_eq!(axis(gilrs::Axis::RightStickY), Some(PadAxis::RightY));
        assert_eq!(axis(gilrs::Axis::LeftZ), None);
    }
}
