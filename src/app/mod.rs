//! The window (stub while the core is tested).
use std::path::PathBuf;
use walkthrough::camera::Settings;
use walkthrough::session::OpenOptions;
use walkthrough::sim::Command;

pub struct Config {
    pub map: Option<PathBuf>,
    pub open: OpenOptions,
    pub settings: Settings,
    pub script: Option<Vec<Command>>,
    pub trace: Option<PathBuf>,
    pub screenshot: Option<PathBuf>,
    pub exit_after: Option<f32>,
    pub vsync: bool,
    pub bench_frames: Option<u32>,
    pub size: (u32, u32),
}

pub fn run(_c: Config) -> Result<(), String> {
    Err("not yet".into())
}
