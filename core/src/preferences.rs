//! The user's settings: what fits their hands and their screen. Kept in the `[settings]`
//! table of the store's file ([`crate::store`]); every field has a default, so a file that
//! names only some of them is complete, and one that names none is the defaults.
//!
//! Walking speed and run factor set how the user walks in the window; a script does not
//! read them (it walks at the defaults unless it says `speed` or `run-factor`), so a
//! script means the same walk on every machine, whatever its settings file says.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::player::{
    BOOM_LENGTH_RANGE, BoomSettings, DEFAULT_FOV_DEG, DEFAULT_SPEED, FOV_RANGE_DEG, RUN_MULTIPLIER,
};

/// Mouse look sensitivity the settings allow, degrees of turn per pixel of motion.
pub const SENSITIVITY_RANGE: RangeInclusive<f32> = 0.01..=1.0;
/// Default mouse look sensitivity, degrees per pixel: a 3,000-pixel sweep turns a full
/// circle (Quake's default of 0.022 x sensitivity 3 is 0.066; a slower mouse wants more).
pub const DEFAULT_SENSITIVITY: f32 = 0.12;
/// Walking speeds the settings (and the mouse wheel) allow, metres a second.
pub const WALKING_SPEED_RANGE: RangeInclusive<f32> = 0.1..=100.0;
/// Run factors the settings allow.
pub const RUN_FACTOR_RANGE: RangeInclusive<f32> = 1.0..=10.0;
/// Window sides the settings allow, pixels.
pub const WINDOW_SIDE_RANGE: RangeInclusive<u32> = 64..=16384;
/// Default window size, pixels.
pub const DEFAULT_WINDOW_SIZE: [u32; 2] = [1280, 720];
/// Render scales the settings allow: the scene's pixels a side, a fraction of the
/// window's (0.25: a sixteenth of the pixels; the HUD is always at the window's own).
pub const RENDER_SCALE_RANGE: RangeInclusive<f32> = 0.25..=1.0;

/// How fast a gamepad's right stick turns the view at full tilt, degrees a second.
pub const PAD_LOOK_SPEED_RANGE: RangeInclusive<f32> = 10.0..=720.0;
/// Its default: a half turn a second (console games use 120 to 200).
pub const DEFAULT_PAD_LOOK_SPEED: f32 = 180.0;
/// The sun's height above the horizon, degrees (the settings' `sun_elevation`): from
/// low light through windows to noon.
pub const SUN_ELEVATION_RANGE: RangeInclusive<f32> = 5.0..=90.0;
/// The `lighting` setting: light that shows shape (a sky, light from the sky above and the
/// ground below, a sun casting shadows, ambient occlusion), the flat light (an ambient term,
/// a sun without shadows, a headlight), or the one that suits the renderer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", from = "LightingWord")]
pub enum LightingMode {
    /// Lit on a GPU; flat on a software renderer (Mesa's llvmpipe, say), where the lit
    /// frame costs about twice the flat one (docs/lighting.md).
    #[default]
    Auto,
    /// Lit, whatever draws it.
    On,
    /// The flat light: cheaper, and as walkthrough drew before lighting came.
    Off,
}

crate::text::names::named!(LightingMode, "lighting" {
    Auto => "auto",
    On => "on" | "true",
    Off => "off" | "false",
});

impl LightingMode {
    /// Whether frames are lit, drawn by a software renderer or not (`software`).
    pub fn lit(self, software: bool) -> bool {
        match self {
            LightingMode::Auto => !software,
            LightingMode::On => true,
            LightingMode::Off => false,
        }
    }
}

/// The `lighting` setting as the file may say it: a word, or `true` / `false` as files
/// written before `auto` came say it.
#[derive(Deserialize)]
#[serde(untagged)]
enum LightingWord {
    Flag(bool),
    Word(LightingName),
}

/// [`LightingMode`]'s words in the file.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum LightingName {
    Auto,
    On,
    Off,
}

impl From<LightingWord> for LightingMode {
    fn from(w: LightingWord) -> LightingMode {
        match w {
            LightingWord::Flag(true) | LightingWord::Word(LightingName::On) => LightingMode::On,
            LightingWord::Flag(false) | LightingWord::Word(LightingName::Off) => LightingMode::Off,
            LightingWord::Word(LightingName::Auto) => LightingMode::Auto,
        }
    }
}

/// The sun's default height: a mid-morning sun, whose shadows fall about as long as the
/// things casting them are tall (tan 50 deg = 1.19), so a box on the floor shows a shadow
/// beside it and a wall leaves a band at its foot, and interiors lit through openings
/// still get light on their floors.
pub const DEFAULT_SUN_ELEVATION: f32 = 50.0;
/// The sun's bearing, degrees clockwise from -Z (the direction yaw 0 looks) seen from
/// above (the settings' `sun_azimuth`).
pub const SUN_AZIMUTH_RANGE: RangeInclusive<f32> = 0.0..=360.0;
/// The sun's default bearing: off every axis (a level's walls mostly are on one), so the
/// walls facing each of the four ways each get a different share of sunlight; the
/// bearing the flat light of before had its sun on (behind the default view, to the
/// right, so shadows fall ahead of the spawn's view).
pub const DEFAULT_SUN_AZIMUTH: f32 = 127.0;

/// The physical keys a move can be bound to, by the names the settings file writes
/// (winit's `KeyCode` names: a key's place on a US keyboard, so `KeyW` is the key left
/// of `KeyE` on every layout).
pub const KEY_NAMES: &[&str] = &[
    "KeyA",
    "KeyB",
    "KeyC",
    "KeyD",
    "KeyE",
    "KeyF",
    "KeyG",
    "KeyH",
    "KeyI",
    "KeyJ",
    "KeyK",
    "KeyL",
    "KeyM",
    "KeyN",
    "KeyO",
    "KeyP",
    "KeyQ",
    "KeyR",
    "KeyS",
    "KeyT",
    "KeyU",
    "KeyV",
    "KeyW",
    "KeyX",
    "KeyY",
    "KeyZ",
    "Digit0",
    "Digit1",
    "Digit2",
    "Digit3",
    "Digit4",
    "Digit5",
    "Digit6",
    "Digit7",
    "Digit8",
    "Digit9",
    "Space",
    "ShiftLeft",
    "ShiftRight",
    "ControlLeft",
    "ControlRight",
    "AltLeft",
    "AltRight",
    "CapsLock",
    "Tab",
    "Backspace",
    "Enter",
    "Comma",
    "Period",
    "Slash",
    "Semicolon",
    "Quote",
    "BracketLeft",
    "BracketRight",
    "Backslash",
    "Minus",
    "Equal",
    "Backquote",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Insert",
    "Delete",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Numpad0",
    "Numpad1",
    "Numpad2",
    "Numpad3",
    "Numpad4",
    "Numpad5",
    "Numpad6",
    "Numpad7",
    "Numpad8",
    "Numpad9",
];

/// A key's name as people say it: `KeyW` is "W", `Digit1` is "1", others as named.
pub fn key_label(name: &str) -> &str {
    name.strip_prefix("Key")
        .or_else(|| name.strip_prefix("Digit"))
        .unwrap_or(name)
}

/// How a texture is sampled between its texels and between its mipmap levels (the
/// settings' `texture_filter`, `--texture-filter`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextureFilter {
    /// The four nearest texels blended, in the two nearest mipmap levels, the two
    /// blended: smooth near and far.
    #[default]
    Trilinear,
    /// The four nearest texels blended, in the nearest mipmap level only: a little
    /// cheaper on a software renderer; the change of level can show as a line across a
    /// floor.
    Bilinear,
    /// The nearest texel of the nearest mipmap level: pixel art (a map of blocks) as
    /// drawn, sharp up close, and the cheapest on a software renderer, which samples
    /// one texel instead of eight.
    Nearest,
}

impl TextureFilter {
    /// Every filter, in the order the settings panel lists them.
    pub const ALL: [TextureFilter; 3] = [
        TextureFilter::Trilinear,
        TextureFilter::Bilinear,
        TextureFilter::Nearest,
    ];

    /// The filter's name, as the settings file and the command line write it.
    pub fn name(self) -> &'static str {
        match self {
            TextureFilter::Trilinear => "trilinear",
            TextureFilter::Bilinear => "bilinear",
            TextureFilter::Nearest => "nearest",
        }
    }
}

impl fmt::Display for TextureFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TextureFilter {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TextureFilter::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<_> = TextureFilter::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "{} is no texture filter (one of {})",
                    crate::text::quote::quote(s),
                    names.join(", ")
                )
            })
    }
}

/// The user's settings, as the `[settings]` table holds them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Preferences {
    /// Mouse look, degrees of turn per pixel of mouse motion.
    pub mouse_sensitivity: f32,
    /// Moving the mouse forward looks down.
    pub invert_y: bool,
    /// Field of view, degrees across the window's wider side
    /// ([`crate::player::FieldOfView`]).
    pub fov: f32,
    /// Walking (and flying) speed, metres a second.
    pub walking_speed: f32,
    /// Speed factor while running (Shift).
    pub run_factor: f32,
    /// Wait for the display's refresh before showing a frame (no tearing).
    pub vsync: bool,
    /// The window's size when it opens, pixels: width, height.
    pub window_size: [u32; 2],
    /// How textures are sampled.
    pub texture_filter: TextureFilter,
    /// The scene's pixels a side, a fraction of the window's (1: every pixel; less draws
    /// fewer, stretched over the window: faster on a software renderer, softer).
    pub render_scale: f32,
    /// The key that walks forward (a name of [`KEY_NAMES`]; the arrow keys always do too).
    pub key_forward: String,
    /// The key that walks back.
    pub key_back: String,
    /// The key that steps left.
    pub key_left: String,
    /// The key that steps right.
    pub key_right: String,
    /// The key that jumps (walking) or rises (flying).
    pub key_jump: String,
    /// The key that crouches while held (walking) or sinks (flying).
    pub key_crouch: String,
    /// The key that runs while held.
    pub key_run: String,
    /// A gamepad's right stick turns the view this fast at full tilt, degrees a second.
    pub pad_look_speed: f32,
    /// Pushing the right stick up looks down.
    pub pad_invert_y: bool,
    /// Show the walk in third person: a camera on a boom behind the head, the body drawn
    /// (V switches).
    pub third_person: bool,
    /// The third-person boom's length, metres (within [`BOOM_LENGTH_RANGE`]; Ctrl + the
    /// mouse wheel changes it).
    pub boom_length: f32,
    /// Light that shows shape, the flat light, or (the default) lit on a GPU and flat on a
    /// software renderer (see [`LightingMode`]).
    pub lighting: LightingMode,
    /// The sun's height above the horizon, degrees (within [`SUN_ELEVATION_RANGE`]).
    pub sun_elevation: f32,
    /// The sun's bearing, degrees clockwise from -Z seen from above (within
    /// [`SUN_AZIMUTH_RANGE`]).
    pub sun_azimuth: f32,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            mouse_sensitivity: DEFAULT_SENSITIVITY,
            invert_y: false,
            fov: DEFAULT_FOV_DEG,
            walking_speed: DEFAULT_SPEED,
            run_factor: RUN_MULTIPLIER,
            vsync: true,
            window_size: DEFAULT_WINDOW_SIZE,
            texture_filter: TextureFilter::default(),
            render_scale: 1.0,
            key_forward: "KeyW".into(),
            key_back: "KeyS".into(),
            key_left: "KeyA".into(),
            key_right: "KeyD".into(),
            key_jump: "Space".into(),
            key_crouch: "KeyC".into(),
            key_run: "ShiftLeft".into(),
            pad_look_speed: DEFAULT_PAD_LOOK_SPEED,
            pad_invert_y: false,
            third_person: false,
            boom_length: BoomSettings::default().length,
            lighting: LightingMode::Auto,
            sun_elevation: DEFAULT_SUN_ELEVATION,
            sun_azimuth: DEFAULT_SUN_AZIMUTH,
        }
    }
}

/// Settings brought into range ([`Preferences::checked`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The settings, each in its range.
    pub settings: Preferences,
    /// What was out of range, each with what is used instead.
    pub out_of_range: Vec<OutOfRange>,
}

/// A setting that was out of its range, and what is used instead.
#[derive(Clone, Debug, PartialEq)]
pub struct OutOfRange {
    /// The setting's name in the file.
    pub key: &'static str,
    /// Its value as read (none when a default stood in for a refused one): the settings
    /// file's reader quotes the value as the file writes it in its place.
    pub value: Option<String>,
    /// Why, and what is used instead.
    pub why: String,
}

impl OutOfRange {
    /// `key = value why`, the value as read.
    pub fn message(&self) -> String {
        self.said_with(self.value.as_deref())
    }

    /// `key = value why` with `value` as given (the file's text of it), or `key why`.
    pub fn said_with(&self, value: Option<&str>) -> String {
        match value {
            Some(v) => format!("{} = {v} {}", self.key, self.why),
            None => format!("{} {}", self.key, self.why),
        }
    }
}

impl Preferences {
    /// Lit (by [`LightingMode::lit`], drawn by a software renderer or not), the direction
    /// sunlight travels; the flat light, `None`.
    pub fn sun(&self, software: bool) -> Option<glam::Vec3> {
        self.lighting.lit(software).then(|| self.sun_direction())
    }

    /// The unit direction sunlight travels (Y up), from the sun's elevation and azimuth.
    pub fn sun_direction(&self) -> glam::Vec3 {
        let (e, a) = (
            self.sun_elevation.to_radians(),
            self.sun_azimuth.to_radians(),
        );
        // Towards the sun: up by the elevation; across, clockwise from -Z seen from
        // above (-Z, then +X at 90 degrees).
        let to_sun = glam::Vec3::new(e.cos() * a.sin(), e.sin(), -e.cos() * a.cos());
        -to_sun.normalize()
    }

    /// The names a `[settings]` table may hold.
    pub const KEYS: [&'static str; 23] = [
        "mouse_sensitivity",
        "invert_y",
        "fov",
        "walking_speed",
        "run_factor",
        "vsync",
        "window_size",
        "texture_filter",
        "render_scale",
        "key_forward",
        "key_back",
        "key_left",
        "key_right",
        "key_jump",
        "key_crouch",
        "key_run",
        "pad_look_speed",
        "pad_invert_y",
        "third_person",
        "boom_length",
        "lighting",
        "sun_elevation",
        "sun_azimuth",
    ];

    /// The moves' keys, with their names in the file: (name, this key, the default).
    pub fn move_keys(&mut self) -> [(&'static str, &mut String); 7] {
        [
            ("key_forward", &mut self.key_forward),
            ("key_back", &mut self.key_back),
            ("key_left", &mut self.key_left),
            ("key_right", &mut self.key_right),
            ("key_jump", &mut self.key_jump),
            ("key_crouch", &mut self.key_crouch),
            ("key_run", &mut self.key_run),
        ]
    }

    /// These settings with every number brought into its range (the nearest end; not a
    /// number: the default), and a line for each that had to be.
    pub fn checked(&self) -> Checked {
        let d = Preferences::default();
        let mut out = Vec::new();
        let mut fit = |key: &'static str, v: f32, range: &RangeInclusive<f32>, default: f32| {
            let fixed = if v.is_nan() {
                default
            } else {
                v.clamp(*range.start(), *range.end())
            };
            if fixed != v {
                out.push(OutOfRange {
                    key,
                    value: Some(v.to_string()),
                    why: format!(
                        "is outside {} to {}: {fixed} is used",
                        range.start(),
                        range.end()
                    ),
                });
            }
            fixed
        };
        let mut checked = self.clone();
        // Each number with its key, range and default: one rule for all.
        for (key, value, range, default) in [
            (
                "mouse_sensitivity",
                &mut checked.mouse_sensitivity,
                &SENSITIVITY_RANGE,
                d.mouse_sensitivity,
            ),
            ("fov", &mut checked.fov, &FOV_RANGE_DEG, d.fov),
            (
                "walking_speed",
                &mut checked.walking_speed,
                &WALKING_SPEED_RANGE,
                d.walking_speed,
            ),
            (
                "run_factor",
                &mut checked.run_factor,
                &RUN_FACTOR_RANGE,
                d.run_factor,
            ),
            (
                "render_scale",
                &mut checked.render_scale,
                &RENDER_SCALE_RANGE,
                d.render_scale,
            ),
            (
                "pad_look_speed",
                &mut checked.pad_look_speed,
                &PAD_LOOK_SPEED_RANGE,
                d.pad_look_speed,
            ),
            (
                "boom_length",
                &mut checked.boom_length,
                &BOOM_LENGTH_RANGE,
                d.boom_length,
            ),
            (
                "sun_elevation",
                &mut checked.sun_elevation,
                &SUN_ELEVATION_RANGE,
                d.sun_elevation,
            ),
            (
                "sun_azimuth",
                &mut checked.sun_azimuth,
                &SUN_AZIMUTH_RANGE,
                d.sun_azimuth,
            ),
        ] {
            *value = fit(key, *value, range, default);
        }
        let side = |v: u32| v.clamp(*WINDOW_SIDE_RANGE.start(), *WINDOW_SIDE_RANGE.end());
        let window_size = self.window_size.map(side);
        if window_size != self.window_size {
            let [w, h] = self.window_size;
            out.push(OutOfRange {
                key: "window_size",
                value: Some(format!("[{w}, {h}]")),
                why: format!(
                    "has a side outside {} to {} pixels: [{}, {}] is used",
                    WINDOW_SIDE_RANGE.start(),
                    WINDOW_SIDE_RANGE.end(),
                    window_size[0],
                    window_size[1]
                ),
            });
        }
        checked.window_size = window_size;
        checked_keys(&mut checked, &mut out);
        Checked {
            settings: checked,
            out_of_range: out,
        }
    }
}

/// The moves' keys of `checked`: each a key name (else its default, with a line), and
/// one move a key (see [`one_move_a_key`]).
fn checked_keys(checked: &mut Preferences, out: &mut Vec<OutOfRange>) {
    let mut defaults = Preferences::default();
    let default_keys: Vec<String> = defaults
        .move_keys()
        .into_iter()
        .map(|(_, k)| k.clone())
        .collect();
    let mut refused = Vec::new();
    for ((key, name), (_, default)) in checked.move_keys().into_iter().zip(defaults.move_keys()) {
        refused.push(!KEY_NAMES.contains(&name.as_str()));
        if !KEY_NAMES.contains(&name.as_str()) {
            out.push(OutOfRange {
                key,
                value: Some(crate::text::quote::quote(name).to_string()),
                why: format!(
                    "is no key name (KeyW, Space, ShiftLeft... as README's Settings lists): {default} is used"
                ),
            });
            *name = default.clone();
        }
    }
    one_move_a_key(checked, &default_keys, &refused, out);
}

/// A key serves one move. Of two moves on one key, the one the file did not ask for
/// (`refused`: its own was no key name, and its default stood in) moves, else the later:
/// to its default where that is free, else to another move's default nobody has, with a
/// line saying so. (`key_forward = "F12"`, refused for its default `KeyW`, would leave
/// `key_back = "KeyW"` and forward on one key without a word; the panel swaps keys
/// instead.)
fn one_move_a_key(
    p: &mut Preferences,
    defaults: &[String],
    refused: &[bool],
    out: &mut Vec<OutOfRange>,
) {
    let mut moves = p.move_keys();
    let mut keys: Vec<String> = moves.iter().map(|(_, k)| (*k).clone()).collect();
    for i in 1..keys.len() {
        let Some(j) = keys[..i].iter().position(|k| *k == keys[i]) else {
            continue;
        };
        let (moved, kept) = if refused[j] && !refused[i] {
            (j, i)
        } else {
            (i, j)
        };
        // Two moves on one key leave a default free (as many defaults as moves).
        let Some(free) = std::iter::once(&defaults[moved])
            .chain(defaults)
            .find(|d| !keys.contains(d))
            .cloned()
        else {
            continue;
        };
        let (key, name, other) = (moves[moved].0, &keys[moved], moves[kept].0);
        // A refused key's default is no value of the file's: said as standing in.
        let (value, why) = if refused[moved] {
            (
                None,
                format!("(its default {name}) is {other}'s key too: {free} is used"),
            )
        } else {
            (
                Some(name.clone()),
                format!("is {other}'s key too: {free} is used"),
            )
        };
        out.push(OutOfRange { key, value, why });
        keys[moved] = free;
    }
    for ((_, m), k) in moves.iter_mut().zip(keys) {
        **m = k;
    }
}

#[cfg(test)]
mod tests;
