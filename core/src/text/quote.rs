//! Quoting a piece of the user's file in a message, safely: a file's bytes are not the
//! terminal's commands. An OBJ line holding `ESC ]0;...BEL ESC[2J` set the terminal's
//! title and cleared its screen when an error quoted it, and a lone carriage return sent
//! the cursor back to overwrite the start of the message. Every control character (and
//! every character that reorders text on the screen) is written as an escape (`\x1b`,
//! `\r`, `\u{202e}`), and a quoted piece is cut to [`MAX_QUOTED_CHARS`] characters (a
//! face of 20,000 corners is not a message).
//!
//! [`quote`] is for a piece of a file in a message (`'f 1 2 3'`); [`escape`] is for a
//! whole message or a name taken from a file (a path an MTL names); [`escape_lines`] keeps
//! a message's own line breaks (what the terminal prints goes through it last).

use std::borrow::Cow;
use std::fmt::{self, Write};

/// Most characters of a piece of a file shown in a message; a longer piece is cut there
/// and says how long it was.
pub const MAX_QUOTED_CHARS: usize = 120;

/// Most characters of a whole message's reason: one that echoes what a file gave (a
/// scene's list of numbers, a key's name) is cut there and says how long it was.
pub const MAX_MESSAGE_CHARS: usize = 400;

/// `reason` cut to [`MAX_MESSAGE_CHARS`] characters, with how long it was; borrowed when
/// it is no longer.
pub fn cut_message(reason: &str) -> Cow<'_, str> {
    match reason.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => Cow::Borrowed(reason),
        Some((at, _)) => {
            let total = reason.chars().count();
            Cow::Owned(format!("{}... ({total} characters)", &reason[..at]))
        }
    }
}

/// Whether `c` must not reach a terminal as it is: a control character (C0, DEL, C1), or
/// a format character that reorders or hides text (bidirectional overrides and isolates,
/// marks, the byte order mark).
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

/// Write `c` as an escape: `\t`, `\r`, `\n`, `\x1b` below 0x80, `\u{9b}` above.
fn write_escaped(out: &mut impl Write, c: char) -> fmt::Result {
    match c {
        '\t' => out.write_str("\\t"),
        '\r' => out.write_str("\\r"),
        '\n' => out.write_str("\\n"),
        c if (c as u32) < 0x80 => write!(out, "\\x{:02x}", c as u32),
        c => write!(out, "\\u{{{:x}}}", c as u32),
    }
}

/// `text` with every control or reordering character written as an escape (see the
/// module's notes); borrowed when there is none.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            // Writing to a String cannot fail.
            let _ = write_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape`] line by line, keeping `text`'s own line breaks: for a message of several
/// lines on its way to the terminal.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && unsafe_char(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.split('\n').map(escape).collect::<Vec<_>>().join("\n"))
}

/// A path as a message shows it: [`escape`]d (a path a scene or an MTL names is a piece of
/// that file).
pub fn shown_path(path: &std::path::Path) -> String {
    escape(&path.display().to_string()).into_owned()
}

/// A piece of a file as a message shows it: in single quotes, escaped, cut to
/// [`MAX_QUOTED_CHARS`] characters (see [`quote`]).
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(&'a str);

/// `piece` for a message: `'v 0 0'`; escaped (`'f 1 2\x1b[2J'`) and, past
/// [`MAX_QUOTED_CHARS`] characters, cut: `'f 1 2 3 ...' (20000 characters)`.
pub fn quote(piece: &str) -> Quoted<'_> {
    Quoted(piece)
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('\'')?;
        for (shown, c) in self.0.chars().enumerate() {
            if shown == MAX_QUOTED_CHARS {
                let total = self.0.chars().count();
                return write!(f, "...' ({total} characters)");
            }
            if unsafe_char(c) {
                write_escaped(f, c)?;
            } else {
                f.write_char(c)?;
            }
        }
        f.write_char('\'')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scene's `position` of 100,000 numbers was echoed whole (a
    /// 500 KB message; 155 MB for 31 million).
    #[test]
    fn a_long_reason_is_cut_and_says_how_long_it_was() {
        assert_eq!(cut_message("short"), "short");
        let exact = "é".repeat(MAX_MESSAGE_CHARS);
        assert_eq!(cut_message(&exact), exact.as_str());
        let long = format!(
            "position [{}] must be three numbers",
            "1.0, ".repeat(100_000)
        );
        let cut = cut_message(&long);
        let total = long.chars().count();
        assert!(cut.ends_with(&format!("... ({total} characters)")), "{cut}");
        assert_eq!(
            cut.chars().count(),
            MAX_MESSAGE_CHARS + format!("... ({total} characters)").len()
        );
        assert!(cut.starts_with("position [1.0, 1.0"));
    }

    /// An OBJ line of a terminal's title and clear-screen
    /// sequences, and a lone carriage return, reached the terminal raw when quoted.
    #[test]
    fn control_bytes_from_a_file_are_escaped_when_quoted() {
        let line = "f 1 2 \u{1b}]0;owned\u{7}\u{1b}[2J\rX";
        let shown = quote(line).to_string();
        assert_eq!(shown, "'f 1 2 \\x1b]0;owned\\x07\\x1b[2J\\rX'");
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert_eq!(escape("a\u{202e}b\u{9b}c\td"), "a\\u{202e}b\\u{9b}c\\td");
        assert!(matches!(escape("plain 'text' é"), Cow::Borrowed(_)));
        assert_eq!(escape_lines("one\u{1b}\ntwo\r"), "one\\x1b\ntwo\\r");
    }

    #[test]
    fn a_long_piece_is_cut_and_says_how_long_it_was() {
        let face = format!("f{}", " 1".repeat(10_000));
        let shown = quote(&face).to_string();
        assert_eq!(
            shown.chars().count(),
            1 + MAX_QUOTED_CHARS + 4 + " (20001 characters)".len()
        );
        assert!(shown.ends_with("...' (20001 characters)"), "{shown}");
        assert!(shown.starts_with("'f 1 1"), "{shown}");
        // At the limit exactly, nothing is cut.
        let exact = "x".repeat(MAX_QUOTED_CHARS);
        assert_eq!(quote(&exact).to_string(), format!("'{exact}'"));
    }
}
