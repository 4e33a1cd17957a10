//! Recording the walk as a script (F5, `--record FILE`): started and stopped here, saved
//! whole when it stops (at F5 again, at exit, or before the map changes under it).

use walkthrough::output::{Replace, write_file};

use super::App;
use super::redraw::save_new;

impl App {
    /// F5: start recording, or stop and save.
    pub(super) fn toggle_recording(&mut self) {
        if self.sim.recording() {
            return self.stop_recording("");
        }
        if self.sim.scripted() {
            return self
                .overlay
                .notify("a script is playing: F5 records your own walk once it ends".into());
        }
        let restarted = self.sim.start_recording(&self.recording_about());
        self.overlay.notify(if restarted {
            "recording (F5 stops it and saves the script); the scene's moving parts start again from their first keys, as they will in its replay".into()
        } else {
            "recording (F5 stops it and saves the script)".into()
        });
    }

    /// The recording's comment lines: the map and its frame, and how to replay it.
    pub(super) fn recording_about(&self) -> Vec<String> {
        let map = &self.sim.session.map;
        let file = map
            .source
            .as_ref()
            .map_or("the built-in map".into(), |p| p.display().to_string());
        vec![
            format!("map: {file}"),
            format!("frame: {}", map.frame.flags()),
            format!(
                "replay: walkthrough {m}--script THIS_FILE, or walkthrough sim {m}--script THIS_FILE",
                m = map
                    .source
                    .as_ref()
                    .map_or(String::new(), |p| format!("{} ", p.display()))
            ),
        ]
    }

    /// Stop recording (if recording) and save the script: to `--record`'s file, else a
    /// new file named by the local time. `why` (when the map is about to change) is said.
    pub(super) fn stop_recording(&mut self, why: &str) {
        let Some((script, secs)) = self.sim.stop_recording() else {
            return;
        };
        let inputs = crate::terminal::inputs(&self.sim.session, self.config.common.script.as_ref());
        let saved = match self.config.window.record.clone() {
            Some(p) => write_file(&p, script.as_bytes(), &inputs, Replace::Yes)
                .map(|()| p)
                .map_err(|e| e.to_string()),
            None => save_new(script.as_bytes(), "txt"),
        };
        let msg = match saved {
            Ok(p) => format!("{why}recorded {secs:.1} s to {}", p.display()),
            Err(e) => {
                let msg = format!("{why}the recording was not saved: {e}");
                // The walk is lost: the run ends with an error (its first, if several).
                self.error.get_or_insert_with(|| msg.clone());
                msg
            }
        };
        self.overlay.notify(msg);
        // `--record` names one file: F5 afterwards saves new ones.
        self.config.window.record = None;
    }
}
