//! Recording the walk as a script (F5, `--record FILE`): started and stopped here, saved
//! whole when it stops (at F5 again, at exit, or before the map changes under it).

use walkthrough_core::files::output::{Replace, write_file};
use walkthrough_core::text::quote::escape;

use super::App;
use super::shots::save_new;

impl App {
    /// F5: start recording, or stop and save.
    pub(super) fn toggle_recording(&mut self) {
        if self.sim.recording() {
            return self.stop_recording("");
        }
        if self.sim.scripted() {
            return self
                .overlays
                .hud
                .notify("a script is playing: F5 records your own walk once it ends".into());
        }
        let restarted = self.sim.start_recording(&self.recording_about());
        self.overlays.hud.notify(if restarted {
            "recording (F5 stops it and saves the script); the scene's moving parts start again from their first keys, as they will in its replay".into()
        } else {
            "recording (F5 stops it and saves the script)".into()
        });
    }

    /// The recording's comment lines: the map and its frame, and how to replay it. The
    /// map's path is escaped on its comment line (a line break in it ended the comment,
    /// and the recording then failed to read at the next line), and
    /// quoted for a shell in the command to replay it.
    pub(super) fn recording_about(&self) -> Vec<String> {
        let map = &self.sim.session.map;
        let path = map.source.as_ref().map(|p| p.display().to_string());
        let file = path
            .as_deref()
            .map_or("the built-in map".into(), |p| escape(p).into_owned());
        let m = path
            .as_deref()
            .map_or(String::new(), |p| format!("{} ", shell_word(p)));
        vec![
            format!("map: {file}"),
            format!("frame: {}", map.frame.flags()),
            format!(
                "replay: walkthrough {m}--script THIS_FILE, or walkthrough sim {m}--script THIS_FILE"
            ),
        ]
    }

    /// Stop recording (if recording) and save the script: to `--record`'s file, else a
    /// new file named by the local time. `--record`'s file that cannot be written (its
    /// folder gone, the disk full) is said, and the walk saved as a new file instead.
    /// `why` (when the map is about to change) is said.
    pub(super) fn stop_recording(&mut self, why: &str) {
        let Some(done) = self.sim.stop_recording() else {
            return;
        };
        let bytes = done.script.as_bytes();
        let inputs =
            crate::cli::terminal::inputs(&self.sim.session, self.config.common.script.as_ref());
        let saved = match self.config.window.record.clone() {
            Some(p) => match write_file(&p, bytes, &inputs, Replace::Yes) {
                Ok(()) => Ok((p, None)),
                Err(e) => {
                    let e = e.to_string();
                    match save_new(bytes, "txt") {
                        Ok(q) => Ok((q, Some(e))),
                        Err(also) => Err(format!("{e}; nor as a new file: {also}")),
                    }
                }
            },
            None => save_new(bytes, "txt").map(|q| (q, None)),
        };
        let secs = done.seconds;
        let msg = match saved {
            Ok((p, None)) => format!("{why}recorded {secs:.1} s to {}", p.display()),
            Ok((p, Some(e))) => format!(
                "{why}recorded {secs:.1} s to {} instead (--record's file: {e})",
                p.display()
            ),
            Err(e) => {
                let msg = format!("{why}the recording was not saved: {e}");
                // The walk is lost: the run ends with an error (its first, if several).
                self.life.error.get_or_insert_with(|| msg.clone());
                msg
            }
        };
        self.overlays.hud.notify(msg);
        // `--record` names one file: F5 afterwards saves new ones.
        self.config.window.record = None;
    }
}

/// `word` as one word of a POSIX shell's command line: as it is when it holds nothing a
/// shell reads specially, else in single quotes (a quote inside written `'\''`), with its
/// control characters escaped so that the comment stays one line.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", escape(word).replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn a_map_path_in_the_replay_command_is_one_shell_word() {
        assert_eq!(shell_word("maps/a.obj"), "maps/a.obj");
        assert_eq!(shell_word("my maps/a b.obj"), "'my maps/a b.obj'");
        assert_eq!(shell_word("it's.obj"), "'it'\\''s.obj'");
        assert_eq!(shell_word("a\nb.obj"), "'a\\nb.obj'");
        assert_eq!(shell_word(""), "''");
    }
}
