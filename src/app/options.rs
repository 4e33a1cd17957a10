//! The window's options, each declared, documented and defaulted once (clap derives the
//! command line from them), and what they mean for this run: the culling asked for, the
//! settings they give over the saved ones.

use std::path::PathBuf;

use clap::Args;

use walkthrough_core::player::FOV_RANGE_DEG;
use walkthrough_core::preferences::{
    LightingMode, Preferences, RENDER_SCALE_RANGE, SENSITIVITY_RANGE, TextureFilter,
    WINDOW_SIDE_RANGE,
};

use super::render::Culling;

/// Most frames `--bench-frames` measures: a row of each is kept until the end (about 90
/// bytes a frame: 90 MB here), and 4,000,000,000 asked for 350 GB at once. A
/// million frames is over nine hours at 30 a second.
pub const MAX_BENCH_FRAMES: i64 = 1_000_000;

/// The window's own options (those it shares with `sim` are [`crate::cli::options::Common`]).
#[derive(Args, Debug, Clone)]
pub struct WindowOptions {
    /// Save a PNG of the window when the script ends (or at exit).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Quit after this many seconds (0 to 1,000,000), counted from when the map is in.
    #[arg(long, value_parser = parse_exit_after, allow_hyphen_values = true)]
    pub exit_after: Option<f32>,
    /// Quit when the --script ends (after its --screenshot).
    #[arg(long, requires = "script")]
    pub exit_when_done: bool,
    /// Start with the collision debug view on (G toggles it).
    #[arg(long)]
    pub debug_view: bool,
    /// Turn vsync off (to measure frame times).
    #[arg(long)]
    pub no_vsync: bool,
    /// Render N frames, at most 1000000 (a --script walks on 1/30 s a frame), print frame
    /// times (median, 95th percentile, worst), triangles, draw calls and fragments per
    /// pixel, and quit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_BENCH_FRAMES))]
    pub bench_frames: Option<u32>,
    /// With --bench-frames: write a CSV row for each frame to FILE (frame, ms,
    /// triangles, draws, clusters, fragments per pixel rasterized and passing the depth
    /// test), to see which frames are slow.
    #[arg(long, value_name = "FILE", requires = "bench_frames")]
    pub bench_out: Option<PathBuf>,
    /// What each frame leaves out [default: occlusion on a software renderer, frustum
    /// on a GPU].
    #[arg(long, value_name = "WAY", value_enum, conflicts_with = "no_cull")]
    pub culling: Option<Culling>,
    /// Draw every cluster of the map every frame, in material order, every triangle
    /// two-sided (to compare with the culled picture and its cost): `--culling off`.
    #[arg(long)]
    pub no_cull: bool,
    /// Start in borderless fullscreen (F11 toggles it).
    #[arg(long)]
    pub fullscreen: bool,
    /// Light in display space and write colours as they are, as on a display without an
    /// sRGB framebuffer (to compare; by default light is linear and the framebuffer sRGB).
    #[arg(long)]
    pub no_srgb: bool,
    /// Record the walk from the start as a script into FILE (saved when F5 stops it or
    /// the window closes); replay it with --script FILE, here or in `sim`.
    #[arg(long, value_name = "FILE", conflicts_with = "script")]
    pub record: Option<PathBuf>,
    /// Draw at most this many frames a second (the walk is the same at any rate).
    #[arg(long, value_parser = parse_fps)]
    pub max_fps: Option<f64>,
    /// Multisample antialiasing, samples a pixel: 0 (off), 2, 4 or 8 [default: 4 on a
    /// GPU; off on a software renderer (Mesa's llvmpipe), where 4x costs about as much as
    /// drawing 4 times].
    #[arg(long, value_parser = parse_msaa)]
    pub msaa: Option<u8>,
    /// Anisotropic filtering of textures, 1 (off) to 16 (the driver may allow less).
    /// Default: 8 on a GPU, off on a software renderer, where 8x doubles a textured map's
    /// frame time.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=16))]
    pub anisotropy: Option<u8>,
    /// How textures are sampled for this run: trilinear (smooth near and far), bilinear
    /// (one mipmap level) or nearest (pixel art as drawn; a third off a textured map's
    /// frame on a software renderer) [default: the settings' (trilinear unless
    /// changed)].
    #[arg(long, value_name = "FILTER")]
    pub texture_filter: Option<TextureFilter>,
    /// Draw the scene with this fraction of the window's pixels a side, 0.25 to 1,
    /// stretched over the window (the HUD stays sharp): 0.5 draws a quarter of the
    /// pixels, much faster on a software renderer, softer [default: the settings' (1
    /// unless changed)].
    #[arg(long, value_parser = parse_render_scale, value_name = "SCALE")]
    pub render_scale: Option<f32>,
    /// Window size, WIDTHxHEIGHT [default: the settings' window size, 1280x720 unless
    /// changed].
    #[arg(long, value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Field of view for this run, degrees across the window's wider side, 60 to 110
    /// [default: the settings' (100 unless changed)].
    #[arg(long, value_parser = parse_fov)]
    pub fov: Option<f32>,
    /// Mouse look for this run, degrees of turn per pixel, 0.01 to 1 [default: the
    /// settings' (0.12 unless changed)].
    #[arg(long, value_parser = parse_sensitivity)]
    pub sensitivity: Option<f32>,
    /// Moving the mouse forward looks down, for this run (F2 sets it for good).
    #[arg(long)]
    pub invert_y: bool,
    /// Play gamepad events as if a pad sent them (trying the pad's mapping, and tests,
    /// with no pad): a line an event, `SECS button NAME down|up`, `SECS axis NAME TILT`,
    /// SECS after the first frame (docs/gamepad.md).
    #[arg(long, value_name = "FILE", hide = true)]
    pub pad_events: Option<PathBuf>,
    /// Start in third person: a camera on a boom behind the head, the body drawn (V
    /// switches; the walk and its trace are the same).
    #[arg(long)]
    pub third_person: bool,
    /// Light that shows shape (a sky, sky and ground light, a sun casting shadows, ambient
    /// occlusion) `on`, the flat light `off`, or `auto` (on with a GPU, off on a software
    /// renderer), for this run [default: the settings' (auto unless changed)].
    #[arg(long, value_name = "auto|on|off")]
    pub lighting: Option<LightingMode>,
    /// Draw the material NAME as a mirror (repeatable; a scene says `mirror = [...]` on
    /// its [[model]]).
    #[arg(long, value_name = "NAME")]
    pub mirror: Vec<String>,
}

/// This run's settings: the saved ones with the command line's over them.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPreferences {
    /// What this run uses.
    pub live: Preferences,
    /// The options that set some of them, as the settings panel names them.
    pub flags: Vec<&'static str>,
}

impl WindowOptions {
    /// What the renderer is asked to leave out (`--no-cull` is `--culling off`); `None`:
    /// the renderer's default.
    pub fn culling(&self) -> Option<Culling> {
        if self.no_cull {
            Some(Culling::Off)
        } else {
            self.culling
        }
    }

    /// `--exit-after` (checked by its parser: a time in [`EXIT_AFTER_RANGE`]).
    pub fn exit_after(&self) -> Option<f32> {
        self.exit_after
    }

    /// `saved` with the settings these options give for this run over them (`speed`: the
    /// shared `--speed`, the walking speed).
    pub fn preferences(&self, saved: &Preferences, speed: Option<f32>) -> RunPreferences {
        fn set<T>(field: &mut T, value: Option<T>, flag: &'static str, flags: &mut Vec<&str>) {
            if let Some(v) = value {
                *field = v;
                flags.push(flag);
            }
        }
        let (mut live, mut flags) = (saved.clone(), Vec::new());
        let f = &mut flags;
        set(&mut live.fov, self.fov, "--fov", f);
        set(
            &mut live.mouse_sensitivity,
            self.sensitivity,
            "--sensitivity",
            f,
        );
        set(
            &mut live.invert_y,
            self.invert_y.then_some(true),
            "--invert-y",
            f,
        );
        set(&mut live.walking_speed, speed, "--speed", f);
        set(
            &mut live.vsync,
            self.no_vsync.then_some(false),
            "--no-vsync",
            f,
        );
        set(
            &mut live.window_size,
            self.size.map(|(w, h)| [w, h]),
            "--size",
            f,
        );
        set(
            &mut live.texture_filter,
            self.texture_filter,
            "--texture-filter",
            f,
        );
        set(
            &mut live.render_scale,
            self.render_scale,
            "--render-scale",
            f,
        );
        set(
            &mut live.third_person,
            self.third_person.then_some(true),
            "--third-person",
            f,
        );
        set(&mut live.lighting, self.lighting, "--lighting", f);
        RunPreferences { live, flags }
    }
}

/// Seconds `--exit-after` may wait: up to about eleven days (a NaN or an infinity waited
/// for ever, and a negative time was read as an unknown option).
pub const EXIT_AFTER_RANGE: std::ops::RangeInclusive<f32> = 0.0..=1_000_000.0;

fn parse_exit_after(s: &str) -> Result<f32, String> {
    number_in(s, &EXIT_AFTER_RANGE, "the time to quit after (seconds)")
}

fn parse_fps(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if (1.0..=1000.0).contains(&f) => Ok(f),
        _ => Err(format!("'{s}': frames a second are 1 to 1000")),
    }
}

fn parse_msaa(s: &str) -> Result<u8, String> {
    match s.trim().parse::<u8>() {
        Ok(n @ (0 | 2 | 4 | 8)) => Ok(n),
        _ => Err(format!("'{s}': samples a pixel are 0 (off), 2, 4 or 8")),
    }
}

/// A number within `range`, for an option named `what`.
fn number_in(s: &str, range: &std::ops::RangeInclusive<f32>, what: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!(
            "'{s}': {what} is {} to {}",
            range.start(),
            range.end()
        )),
    }
}

fn parse_fov(s: &str) -> Result<f32, String> {
    number_in(s, &FOV_RANGE_DEG, "the field of view (degrees)")
}

fn parse_sensitivity(s: &str) -> Result<f32, String> {
    number_in(
        s,
        &SENSITIVITY_RANGE,
        "the mouse sensitivity (degrees a pixel)",
    )
}

fn parse_render_scale(s: &str) -> Result<f32, String> {
    number_in(
        s,
        &RENDER_SCALE_RANGE,
        "the render scale (the scene's pixels a side, a fraction of the window's)",
    )
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or("expected WIDTHxHEIGHT, e.g. 1280x720")?;
    let w: u32 = w
        .trim()
        .parse()
        .map_err(|_| format!("'{w}' is not a width"))?;
    let h: u32 = h
        .trim()
        .parse()
        .map_err(|_| format!("'{h}' is not a height"))?;
    if WINDOW_SIDE_RANGE.contains(&w) && WINDOW_SIDE_RANGE.contains(&h) {
        Ok((w, h))
    } else {
        Err(format!(
            "width and height must be between {} and {}",
            WINDOW_SIDE_RANGE.start(),
            WINDOW_SIDE_RANGE.end()
        ))
    }
}
