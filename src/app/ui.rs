//! What the window shows over the scene, drawn with egui: the HUD, the help, the minimap,
//! the settings panel and the survey's question. Nothing here draws with GL or walks: the
//! shell hands each its state for the frame.
//!
//! - `hud`: modes, position, speed, the collision flash, notices.
//! - `browser`: the Ctrl+O file browser (recent maps, a folder's folders and maps).
//! - `help`: the controls table (F1).
//! - `loading_bar`: a long load's progress, between the HUD's box and the minimap.
//! - `minimap`: the map from above with the player and its trail (N).
//! - `settings_panel`: the user's settings as this run uses them, and the F2 panel.
//! - `offer`: the survey's question when it is unsure of the map's frame.

pub mod browser;
pub mod help;
pub mod hud;
pub mod loading_bar;
pub mod minimap;
pub mod offer;
pub mod settings_panel;
