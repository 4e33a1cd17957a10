//! The controls: one table that the F1 overlay, `--help` and the README's Controls
//! section all show (a test keeps the README's copy equal to it), and the keys that act
//! once a press. Keys held for moving are read by [`super::keys::HeldKeys`].

use winit::keyboard::KeyCode;

/// One row of the controls table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    /// The key, keys or gesture.
    pub keys: &'static str,
    /// What it does.
    pub does: &'static str,
}

/// Every control, in the order the help lists them.
pub const CONTROLS: &[Control] = &[
    Control {
        keys: "W A S D / arrow keys",
        does: "move (walk: along the floor plane; fly: along the view)",
    },
    Control {
        keys: "mouse",
        does: "look (click in the window to capture the cursor, Esc frees it)",
    },
    Control {
        keys: "Shift",
        does: "run (x2.5; F2 sets the factor)",
    },
    Control {
        keys: "mouse wheel",
        does: "walking speed up / down (for this walk; F2 sets where a walk starts)",
    },
    Control {
        keys: "Tab",
        does: "stop / slide",
    },
    Control {
        keys: "F",
        does: "walk / fly",
    },
    Control {
        keys: "Space",
        does: "jump (walk), up (fly)",
    },
    Control {
        keys: "C",
        does: "crouch while held (walk), down (fly)",
    },
    Control {
        keys: "E",
        does: "use: start the door or lift you look at (a scene's start = \"use\"; within 2 m)",
    },
    Control {
        keys: "M",
        does: "point-in-triangle method: angle-sum, barycentric, Möller–Trumbore",
    },
    Control {
        keys: "R",
        does: "reload the map (keeps your place if it is still inside); fallen off the map: back to the spawn",
    },
    Control {
        keys: "U / Shift+U",
        does: "up axis: next / previous (y, z, x, -y, -z, -x); scale and spawn surveyed again; remembered for map files",
    },
    Control {
        keys: "[ / ]",
        does: "scale smaller / larger by 1.25x (with Shift: to the next unit: mm cm in ft m, Doom's, the survey's); a 1.8 m marker shows ahead; remembered for map files",
    },
    Control {
        keys: "Enter",
        does: "keep the up axis and scale when the window asks (it says when it is unsure of them); remembered for map files",
    },
    Control {
        keys: "V",
        does: "first / third person: a camera behind the head, the body drawn (the walk is the same); Ctrl+wheel sets the boom 0.5 to 6 m; saved",
    },
    Control {
        keys: "Shift+V",
        does: "detached camera: the body stands still, the keys and mouse fly the view (through walls); Shift+V again returns",
    },
    Control {
        keys: "right mouse button",
        does: "stick a decal where the crosshair points (target, arrow, splat in turn; up to 256, the oldest replaced); Shift: take the one there away; kept for the map file",
    },
    Control {
        keys: "L",
        does: "measure: mark the point under the crosshair; a second mark says the distance (metres, and the file's units) and draws a line between the marks",
    },
    Control {
        keys: "I",
        does: "say what the crosshair is on: the file, the material, the distance and the point",
    },
    Control {
        keys: "T",
        does: "teleport: stand on the floor the crosshair points at (placed as a spawn; recorded)",
    },
    Control {
        keys: "N",
        does: "minimap: the map from above, you, your view and your trail of the last minute",
    },
    Control {
        keys: "G",
        does: "debug view: touched triangles (red stop, yellow slide), tested ones, normals",
    },
    Control {
        keys: "gamepad",
        does: "left stick: walk; right stick: look; A (south): jump / up; B: crouch / down; a bumper or the left stick's click: run; Y: walk / fly; X: stop / slide; D-pad: views 1-4 (plugged in before or while it runs)",
    },
    Control {
        keys: "drop a file on the window",
        does: "open that .obj or scene .toml",
    },
    Control {
        keys: "Ctrl+O",
        does: "open a map: the recent maps, then the map's folder (arrows, Enter or a click opens, Backspace: the parent folder, Esc closes)",
    },
    Control {
        keys: "F1",
        does: "show these controls (a page at a time in a small window) / hide them",
    },
    Control {
        keys: "F2",
        does: "settings: field of view, mouse sensitivity and invert Y, walking speed and run factor, vsync, texture filter, render scale, window size, the moves' keys, the gamepad's look speed and invert Y (saved as you change them)",
    },
    Control {
        keys: "Ctrl+1..9 / 1..9",
        does: "keep this view / go back to it (kept for the map file, across runs)",
    },
    Control {
        keys: "P / .",
        does: "while a script plays: pause / resume it; its speed 1x, 2x, 4x (the trace is the same)",
    },
    Control {
        keys: "F5",
        does: "record the walk as a script / stop and save it (walkthrough-DATE.txt; replay with --script)",
    },
    Control {
        keys: "F11",
        does: "fullscreen (borderless) / windowed",
    },
    Control {
        keys: "F12",
        does: "screenshot (saved in the current directory)",
    },
    Control {
        keys: "Esc",
        does: "cancel a map loading (the map walked stays); else close the help (F1 and F2 replace each other) and free the mouse; Esc twice quits",
    },
];

/// What a key does once a press (held keys are movement, not actions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Free the captured mouse; with the mouse free, quit.
    Escape,
    /// Stop / slide.
    NextResponse,
    /// Walk / fly.
    NextMode,
    /// Cycle the point-in-triangle method.
    NextMethod,
    /// Show or hide the controls.
    Help,
    /// Show or hide the settings panel.
    Settings,
    /// Show or hide the collision debug view.
    DebugView,
    /// First person or third person.
    NextView,
    /// Fly the view away from the body, or back to its eye.
    DetachCamera,
    /// Show or hide the minimap.
    Minimap,
    /// Start or stop recording the walk.
    Record,
    /// Pause or resume a playing script.
    Pause,
    /// A playing script at its next speed.
    ReplaySpeed,
    /// Borderless fullscreen, or back to a window.
    Fullscreen,
    /// Save a screenshot.
    Screenshot,
    /// Load the map again.
    Reload,
    /// Turn the map to the next up axis (backwards with Shift).
    NextUp {
        /// Shift was held.
        backwards: bool,
    },
    /// Keep the frame the survey chose, when it asks.
    Keep,
    /// Mark the point under the crosshair (a second mark measures).
    Measure,
    /// Say what the crosshair is on.
    Inspect,
    /// Stand on the floor the crosshair points at.
    Teleport,
    /// Change the scale a step (to the next unit with Shift).
    Scale {
        /// `]`: larger.
        larger: bool,
        /// Shift was held: to the next unit (see `correction::scale_stops`).
        to_unit: bool,
    },
}

impl Action {
    /// The action of `key` pressed with Shift held or not, if it has one.
    pub fn of_key(key: KeyCode, shift: bool) -> Option<Action> {
        Some(match key {
            KeyCode::Escape => Action::Escape,
            KeyCode::Tab => Action::NextResponse,
            KeyCode::KeyF => Action::NextMode,
            KeyCode::KeyM => Action::NextMethod,
            KeyCode::F1 => Action::Help,
            KeyCode::F2 => Action::Settings,
            KeyCode::KeyG => Action::DebugView,
            KeyCode::KeyV if shift => Action::DetachCamera,
            KeyCode::KeyV => Action::NextView,
            KeyCode::KeyN => Action::Minimap,
            KeyCode::F5 => Action::Record,
            KeyCode::KeyP => Action::Pause,
            KeyCode::Period => Action::ReplaySpeed,
            KeyCode::F11 => Action::Fullscreen,
            KeyCode::F12 => Action::Screenshot,
            KeyCode::KeyR => Action::Reload,
            KeyCode::KeyL => Action::Measure,
            KeyCode::KeyI => Action::Inspect,
            KeyCode::KeyT => Action::Teleport,
            KeyCode::KeyU => Action::NextUp { backwards: shift },
            KeyCode::Enter | KeyCode::NumpadEnter => Action::Keep,
            KeyCode::BracketLeft => Action::Scale {
                larger: false,
                to_unit: shift,
            },
            KeyCode::BracketRight => Action::Scale {
                larger: true,
                to_unit: shift,
            },
            _ => return None,
        })
    }
}

/// The table as plain text in two aligned columns (for `--help`).
pub fn plain_text() -> String {
    let width = CONTROLS
        .iter()
        .map(|c| c.keys.chars().count())
        .max()
        .unwrap_or(0);
    CONTROLS
        .iter()
        .map(|c| format!("  {:width$}  {}\n", c.keys, c.does))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of the README's Controls table, cells trimmed.
    fn readme_rows() -> Vec<(String, String)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        let readme = std::fs::read_to_string(path).expect("README.md is in the repository");
        let section = readme
            .split("\n## Controls\n")
            .nth(1)
            .expect("the README has a Controls section");
        section
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2) // the header and the rule
            .map(|l| {
                let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
                (cells[0].to_string(), cells[1].to_string())
            })
            .collect()
    }

    #[test]
    fn readme_controls_table_is_the_code_table() {
        let code: Vec<(String, String)> = CONTROLS
            .iter()
            .map(|c| (c.keys.to_string(), c.does.to_string()))
            .collect();
        assert_eq!(readme_rows(), code);
    }

    #[test]
    fn every_action_key_is_in_the_table() {
        for (key, name, action) in [
            (KeyCode::Escape, "Esc", Action::Escape),
            (KeyCode::Tab, "Tab", Action::NextResponse),
            (KeyCode::KeyF, "F", Action::NextMode),
            (KeyCode::KeyM, "M", Action::NextMethod),
            (KeyCode::F1, "F1", Action::Help),
            (KeyCode::KeyG, "G", Action::DebugView),
            (KeyCode::KeyV, "V", Action::NextView),
            (KeyCode::KeyN, "N", Action::Minimap),
            (KeyCode::F12, "F12", Action::Screenshot),
            (KeyCode::KeyR, "R", Action::Reload),
            (
                KeyCode::KeyU,
                "U / Shift+U",
                Action::NextUp { backwards: false },
            ),
            (
                KeyCode::BracketRight,
                "[ / ]",
                Action::Scale {
                    larger: true,
                    to_unit: false,
                },
            ),
        ] {
            assert_eq!(Action::of_key(key, false), Some(action), "{name}");
            assert!(
                CONTROLS.iter().any(|c| c.keys == name),
                "{name} is missing from the table"
            );
        }
        assert_eq!(Action::of_key(KeyCode::KeyW, false), None);
        assert_eq!(
            Action::of_key(KeyCode::KeyV, true),
            Some(Action::DetachCamera)
        );
        assert_eq!(
            Action::of_key(KeyCode::KeyU, true),
            Some(Action::NextUp { backwards: true })
        );
        assert_eq!(
            Action::of_key(KeyCode::BracketLeft, true),
            Some(Action::Scale {
                larger: false,
                to_unit: true
            })
        );
    }

    #[test]
    fn plain_text_aligns_the_second_column() {
        let text = plain_text();
        let starts: Vec<usize> = CONTROLS
            .iter()
            .zip(text.lines())
            .map(|(c, line)| line.find(c.does).unwrap())
            .collect();
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "{text}");
    }
}
