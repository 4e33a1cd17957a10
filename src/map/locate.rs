//! Turning tobj's errors, which carry neither file nor line, into `file:line: reason`.
//!
//! tobj reads its input line by line through [`LineCounter`], so when it stops on a line
//! we know which: [`explain`] then says what that line should have been. An index out of
//! range is only found when tobj closes an object (at the next `o`, `g`, `usemtl` or the
//! end), and then blamed on the line that closed it, so every face is checked before
//! tobj reads the file, with tobj's own rules, at its own line ([`first_bad_face`]).

use std::io::{self, BufRead, Read};

/// A reader that counts the lines handed out through it.
pub(super) struct LineCounter<R> {
    inner: R,
    newlines: usize,
    mid_line: bool,
}

impl<R: BufRead> LineCounter<R> {
    /// Wrap `inner`; no line read yet.
    pub fn new(inner: R) -> Self {
        LineCounter {
            inner,
            newlines: 0,
            mid_line: false,
        }
    }

    /// The 1-based number of the last line read (the line a reader stopped on).
    pub fn line(&self) -> usize {
        self.newlines + usize::from(self.mid_line)
    }
}

impl<R: BufRead> Read for LineCounter<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let data = self.fill_buf()?;
            let n = data.len().min(buf.len());
            buf[..n].copy_from_slice(&data[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for LineCounter<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let taken = &buf[..amt.min(buf.len())];
            self.newlines += taken.iter().filter(|&&b| b == b'\n').count();
            if let Some(&last) = taken.last() {
                self.mid_line = last != b'\n';
            }
        }
        self.inner.consume(amt);
    }
}

/// What is wrong with `line`, on which tobj stopped with `err`, in words a person can act
/// on: what the statement should look like.
pub(super) fn explain(line: &str, err: &tobj::LoadError) -> String {
    use tobj::LoadError as E;
    let shown = line.trim();
    let mut words = shown.split_whitespace();
    let key = words.next().unwrap_or("");
    let words: Vec<&str> = words.collect();
    let numbers = words
        .iter()
        .take_while(|w| w.parse::<f32>().is_ok())
        .count();
    match (key, err) {
        ("v", E::ScalingByZeroError) => {
            format!("the fourth number of a vertex is its weight w and must not be 0: '{shown}'")
        }
        ("v", _) if numbers < 3 => format!("a vertex needs three numbers: '{shown}'"),
        ("v", _) => format!(
            "a vertex is 'v x y z', 'v x y z w' (w not 0) or 'v x y z r g b', not {} numbers: '{shown}'",
            words.len()
        ),
        ("vt", _) => format!("a texture coordinate needs two numbers: '{shown}'"),
        ("vn", _) => format!("a normal needs three numbers: '{shown}'"),
        ("f" | "l", _) => face_problem(&words, shown).unwrap_or_else(|| {
            format!("a face is 'f' and three or more corners v, v/vt, v//vn or v/vt/vn: '{shown}'")
        }),
        ("usemtl", _) => format!("'usemtl' needs a material name: '{shown}'"),
        ("o" | "g", _) => format!("'{key}' needs a name: '{shown}'"),
        _ => format!("cannot read '{shown}' ({err})"),
    }
}

/// What is wrong with one face's corners, reading them alone (indices are checked against
/// nothing but their own form): `None` when each corner looks right.
fn face_problem(words: &[&str], shown: &str) -> Option<String> {
    words.iter().find_map(|w| {
        let parts: Vec<&str> = w.split('/').collect();
        if parts.len() > 3 {
            return Some(format!(
                "'{w}' is not a face corner (v, v/vt, v//vn or v/vt/vn): '{shown}'"
            ));
        }
        parts.iter().enumerate().find_map(|(k, p)| {
            let what = INDEX_NAMES[k];
            match p.parse::<isize>() {
                _ if p.is_empty() && k > 0 => None,
                Err(_) => Some(format!("'{p}' is not a {what} index: '{shown}'")),
                Ok(0) => Some(format!(
                    "{what} index 0 is invalid (OBJ indices start at 1): '{shown}'"
                )),
                Ok(_) => None,
            }
        })
    })
}

/// The three kinds of index in a face corner, in order.
const INDEX_NAMES: [&str; 3] = ["vertex", "texture coordinate", "normal"];
/// [`INDEX_NAMES`], more than one.
const PLURAL_NAMES: [&str; 3] = ["vertices", "texture coordinates", "normals"];

/// A line of the file, and what is wrong with it.
pub(super) struct BadLine {
    /// 1-based line number.
    pub(super) line: usize,
    /// Why it is refused.
    pub(super) reason: String,
}

/// The first face (or line) that tobj would refuse, named at its own line with its own
/// reason, read as tobj reads the file: a relative index counts back from the elements
/// defined so far; an absolute one must be defined by the time the face's object closes
/// (at the next `o`, `g` or change of `usemtl`, or the end of the file), which is when tobj checks
/// it and then blames whatever line closed the object. Index 0 is refused for vertices,
/// texture coordinates and normals alike, and every corner needs its vertex index.
pub(super) fn first_bad_face(text: &str) -> Option<BadLine> {
    let mut defined = [0usize; 3];
    let mut material = "";
    // The open object's faces: their line and highest absolute index of each kind.
    let mut open: Vec<(usize, [usize; 3])> = Vec::new();
    let close = |open: &mut Vec<(usize, [usize; 3])>, defined: &[usize; 3]| {
        let bad = open.iter().find_map(|&(line, highest)| {
            (0..3)
                .find(|&k| highest[k] > defined[k])
                .map(|k| (line, k, highest[k]))
        });
        open.clear();
        bad.map(|(line, k, x)| {
            let what = INDEX_NAMES[k];
            BadLine {
                line,
                reason: format!(
                    "{what} index {x} is out of range ({} {} defined by the end of its object): '{}'",
                    defined[k],
                    PLURAL_NAMES[k],
                    text.lines().nth(line - 1).unwrap_or("").trim()
                ),
            }
        })
    };
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next().unwrap_or("") {
            "v" => defined[0] += 1,
            "vt" => defined[1] += 1,
            "vn" => defined[2] += 1,
            "usemtl" if line.trim_start()["usemtl".len()..].trim() == material => {}
            key @ ("o" | "g" | "usemtl") => {
                if key == "usemtl" {
                    material = line.trim_start()["usemtl".len()..].trim();
                }
                if let Some(bad) = close(&mut open, &defined) {
                    return Some(bad);
                }
            }
            "f" | "l" => {
                let shown = line.trim();
                let mut highest = [0usize; 3];
                for w in words {
                    if w.split('/').next() == Some("") {
                        return Some(BadLine {
                            line: i + 1,
                            reason: format!(
                                "the corner '{w}' has no vertex index (a corner is v, v/vt, v//vn or v/vt/vn): '{shown}'"
                            ),
                        });
                    }
                    for (k, p) in w.split('/').take(3).enumerate() {
                        let what = INDEX_NAMES[k];
                        let Ok(x) = p.parse::<isize>() else { continue };
                        if x == 0 {
                            return Some(BadLine {
                                line: i + 1,
                                reason: format!(
                                    "{what} index 0 is invalid (OBJ indices start at 1): '{shown}'"
                                ),
                            });
                        }
                        if x < 0 && x.unsigned_abs() > defined[k] {
                            return Some(BadLine {
                                line: i + 1,
                                reason: format!(
                                    "relative {what} index {x} reaches before the first {what} ({} defined so far): '{shown}'",
                                    defined[k]
                                ),
                            });
                        }
                        highest[k] = highest[k].max(usize::try_from(x).unwrap_or(0));
                    }
                }
                open.push((i + 1, highest));
            }
            _ => {}
        }
    }
    close(&mut open, &defined)
}

/// The statements an OBJ file is made of (comments aside: a Markdown heading starts with
/// '#' too). A file with none of them is something else.
const OBJ_KEYWORDS: [&str; 13] = [
    "v", "vt", "vn", "vp", "f", "l", "p", "o", "g", "s", "usemtl", "mtllib", "cstype",
];

/// What a file that is not OBJ looks like, for the message that refuses it: an image or
/// another known format by its magic number, else text or binary with no OBJ statement.
/// `None` when it is an OBJ file, however empty.
pub(super) fn not_obj(text: &str) -> Option<&'static str> {
    // Magic numbers, as read through a lossy UTF-8 view (a byte above 0x7f reads as U+FFFD).
    let head: String = text.chars().take(16).collect();
    let magic = [
        ("\u{FFFD}PNG", "a PNG image"),
        ("\u{FFFD}\u{FFFD}\u{FFFD}", "a JPEG image"),
        ("GIF8", "a GIF image"),
        ("%PDF", "a PDF document"),
        ("PK\u{3}\u{4}", "a ZIP archive"),
    ];
    if let Some((_, kind)) = magic.iter().find(|(m, _)| head.starts_with(m)) {
        return Some(kind);
    }
    let is_obj = text.lines().any(|l| {
        let word = l.split_whitespace().next().unwrap_or("");
        OBJ_KEYWORDS.contains(&word)
    });
    if is_obj || text.trim().is_empty() {
        return None;
    }
    let replaced = text.chars().take(4096).filter(|&c| c == '\u{FFFD}').count();
    Some(if text.contains('\0') || replaced > 40 {
        "a binary file"
    } else {
        "text"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_obj_tells_images_binaries_and_prose_from_obj() {
        let png = String::from_utf8_lossy(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").into_owned();
        assert_eq!(not_obj(&png), Some("a PNG image"));
        let jpeg = String::from_utf8_lossy(b"\xff\xd8\xff\xe0\0\x10JFIF").into_owned();
        assert_eq!(not_obj(&jpeg), Some("a JPEG image"));
        assert_eq!(not_obj("# Title\n\nSome prose.\n## More\n"), Some("text"));
        assert_eq!(not_obj("x\0y\n"), Some("a binary file"));
        // OBJ however sparse: one vertex, a comment and a group; or nothing at all.
        assert_eq!(not_obj("# made by hand\nv 0 0 0\n"), None);
        assert_eq!(not_obj("g walls\n"), None);
        assert_eq!(not_obj(""), None);
    }

    #[test]
    fn the_counter_names_the_line_a_reader_stopped_on() {
        let mut r = LineCounter::new("a\nb\nc".as_bytes());
        let mut s = String::new();
        r.read_line(&mut s).unwrap();
        assert_eq!(r.line(), 1);
        r.read_line(&mut s).unwrap();
        assert_eq!(r.line(), 2);
        r.read_line(&mut s).unwrap();
        assert_eq!(r.line(), 3, "a last line without a newline counts");
    }
}
