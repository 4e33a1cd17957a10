//! What is taken of the frames drawn: the screenshots due after a frame (F12's, and
//! `--screenshot`'s at the end) and `--bench-frames`' measures; and the screenshot saved.

use std::path::{Path, PathBuf};

use image::ImageEncoder;
use walkthrough_core::files::output::{OutputError, Replace, write_file};

use super::App;
use super::bench::Bench;

/// The screenshots due and the benchmark.
pub struct Shots {
    /// F12 was pressed: a new file named by the local time, after this frame (never
    /// `--screenshot`'s file, which the exit's picture then replaced).
    pub f12_pending: bool,
    /// The script ended: `--screenshot`'s file, after this frame.
    pub exit_shot_pending: bool,
    /// A frame has been drawn: before it the window holds no picture to save.
    pub frame_drawn: bool,
    /// `--bench-frames`: the frames measured.
    pub bench: Option<Bench>,
}

impl Shots {
    /// None due, no frame drawn yet; `bench` measuring the frames if asked.
    pub fn new(bench: Option<Bench>) -> Shots {
        Shots {
            f12_pending: false,
            exit_shot_pending: false,
            frame_drawn: false,
            bench,
        }
    }

    /// F12: a screenshot after this frame.
    pub fn take_f12(&mut self) {
        self.f12_pending = true;
    }
}

impl App {
    /// Save what the window shows now as a PNG (the message names its full path): to
    /// `path` (replaced once the new image is whole, never when it is one of the map's
    /// files or the script), or with no path to a new file named by the local time.
    pub(super) fn save_screenshot(&mut self, path: Option<&Path>) {
        let Some(gpu) = &self.gpu else { return };
        if !self.shots.frame_drawn {
            // Quit before the first frame: the window holds nothing (a transparent image
            // was saved and said saved). Nothing is written, and that is said.
            self.overlays
                .hud
                .notify("no screenshot: the window closed before its first frame was drawn".into());
            return;
        }
        let size = gpu.ctx.window.inner_size();
        let px = gpu.renderer.read_pixels(size.width, size.height);
        let mut png = Vec::new();
        let encoded = image::codecs::png::PngEncoder::new(&mut png).write_image(
            &px,
            size.width,
            size.height,
            image::ExtendedColorType::Rgba8,
        );
        let inputs =
            crate::cli::terminal::inputs(&self.sim.session, self.config.common.script.as_ref());
        let saved = match (encoded, path) {
            (Err(e), _) => Err(format!("cannot encode the screenshot: {e}")),
            (Ok(()), Some(p)) => write_file(p, &png, &inputs, Replace::Yes)
                .map(|()| p.to_path_buf())
                .map_err(|e| e.to_string()),
            (Ok(()), None) => save_new(&png, "png"),
        };
        let msg = match saved {
            Ok(p) => format!(
                "screenshot saved to {}",
                std::path::absolute(&p).unwrap_or(p).display()
            ),
            Err(e) => {
                let msg = format!("the screenshot was not saved: {e}");
                // `--screenshot`'s file was asked for: the run ends with an error.
                if path.is_some() {
                    self.life.error.get_or_insert_with(|| msg.clone());
                }
                msg
            }
        };
        self.overlays.hud.notify(msg);
    }
}

/// Save an F12 screenshot or an F5 recording in the current directory, named by the local
/// time (`walkthrough-2026-11-23_09-21-05.png`), with `-2`, `-3`... when that name is
/// taken: never over an existing file (the name is claimed with `create_new`).
pub(super) fn save_new(bytes: &[u8], ext: &str) -> Result<PathBuf, String> {
    let stamp = chrono::Local::now().format("%Y-%m-%d_%H-%M-%S").to_string();
    for n in 1..1000 {
        let path = PathBuf::from(match n {
            1 => format!("walkthrough-{stamp}.{ext}"),
            n => format!("walkthrough-{stamp}-{n}.{ext}"),
        });
        match write_file(&path, bytes, &[], Replace::No) {
            Err(OutputError::Exists { .. }) => continue,
            other => return other.map(|()| path).map_err(|e| e.to_string()),
        }
    }
    Err(format!(
        "walkthrough-{stamp}.{ext}: 999 files this second; not saved"
    ))
}
