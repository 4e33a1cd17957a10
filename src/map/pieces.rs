//! Long objects handed to tobj in pieces, so that its peak stays small.
//!
//! tobj keeps every face of an object until the object ends (about 100 bytes a face: a
//! `tobj::Face` holds each corner's three indices as `usize`), then exports the object
//! through a hash map of its corners. A ten-million-triangle terrain in one object held a
//! gigabyte of faces at tobj's peak. [`ObjectCut`] ends a long object every
//! [`FACES_PER_PIECE`] faces by repeating its name (`g name`), which tobj reads as a new
//! object of the same name: the same faces with the same material, in pieces. The map is
//! made of the pieces' triangles corner by corner, so it is the same map, and the pieces
//! count as one object (objects are counted by name).

use std::io::{self, BufRead, Read};

use crate::files::read_through_buffer;

/// Faces tobj holds at most before [`ObjectCut`] ends the object they belong to: 6.5 MB
/// of tobj's faces, and a piece still large enough that the pieces' own costs (a model
/// each, its corners on a piece's edge exported twice) stay small.
pub(super) const FACES_PER_PIECE: usize = 1 << 16;

/// The name tobj gives an object whose `o` or `g` line names nothing, and the faces
/// before any such line.
const UNNAMED: &str = "unnamed_object";

/// A reader of OBJ text for tobj that ends each object after `per_piece` faces by
/// repeating its `g` line (see the module). Lines of `inner` pass through unchanged, one
/// whole line at a time (a line longer than what `inner` has in view is gathered first,
/// as tobj gathers every line anyway).
pub(super) struct ObjectCut<R> {
    inner: R,
    per_piece: usize,
    /// tobj's name of the object being read: what its last `o` or `g` line set.
    name: String,
    /// Faces read since the object began or was last cut.
    faces: usize,
    /// A line handed out from here (a cut, or a line of `inner` gathered whole), and how
    /// much of it is out.
    held: Vec<u8>,
    sent: usize,
    /// A line of `inner` is in view, looked at, and not consumed to its end: its bytes
    /// left.
    left: usize,
}

impl<R: BufRead> ObjectCut<R> {
    /// Cut `inner`'s objects every `per_piece` faces (at least one).
    pub(super) fn new(inner: R, per_piece: usize) -> Self {
        ObjectCut {
            inner,
            per_piece: per_piece.max(1),
            name: UNNAMED.to_string(),
            faces: 0,
            held: Vec::new(),
            sent: 0,
            left: 0,
        }
    }

    /// The reader below.
    pub(super) fn inner(&self) -> &R {
        &self.inner
    }

    /// Hand out `line` from here.
    fn hold(&mut self, line: Vec<u8>) -> &[u8] {
        self.held = line;
        self.sent = 0;
        &self.held
    }
}

/// Note what `line` does to the object being read, as tobj reads it: a face counts, an
/// `o` or `g` line starts an object named by the rest of the line after its first
/// character, trimmed.
fn look(line: &[u8], name: &mut String, faces: &mut usize) {
    let start = line.iter().position(|b| !b.is_ascii_whitespace());
    if start.is_some_and(|i| !line[i].is_ascii()) {
        // Whitespace beyond ASCII (tobj splits words at any): read as text.
        let text = String::from_utf8_lossy(line);
        let word = text.split_whitespace().next().unwrap_or_default();
        return seen(word.as_bytes(), &text, name, faces);
    }
    // The first word decides, read as bytes: only an object's line is made text.
    let word = line
        .split(u8::is_ascii_whitespace)
        .find(|w| !w.is_empty())
        .unwrap_or_default();
    if matches!(word, b"o" | b"g") {
        seen(word, &String::from_utf8_lossy(line), name, faces);
    } else {
        seen(word, "", name, faces);
    }
}

/// [`look`]'s finding for a line whose first word is `word`: a face counts; an object's
/// line (`text`, the whole line) names the object as tobj does, by the rest of the line
/// after its first character, trimmed.
fn seen(word: &[u8], text: &str, name: &mut String, faces: &mut usize) {
    match word {
        b"f" | b"l" | b"p" => *faces += 1,
        b"o" | b"g" => {
            let first = text.chars().next().map_or(0, char::len_utf8);
            let named = text[first..].trim();
            *name = if named.is_empty() { UNNAMED } else { named }.to_string();
            *faces = 0;
        }
        _ => {}
    }
}

impl<R: BufRead> Read for ObjectCut<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_through_buffer(self, buf)
    }
}

impl<R: BufRead> BufRead for ObjectCut<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.sent < self.held.len() {
            return Ok(&self.held[self.sent..]);
        }
        if self.left > 0 {
            let left = self.left;
            return Ok(&self.inner.fill_buf()?[..left]);
        }
        let (empty, newline) = {
            let buf = self.inner.fill_buf()?;
            (buf.is_empty(), buf.iter().position(|&b| b == b'\n'))
        };
        if empty {
            return Ok(&[]);
        }
        if self.faces >= self.per_piece {
            // Only before a line that follows: at the end of the file tobj ends the
            // object anyway, and a cut there would leave it an empty one.
            self.faces = 0;
            let cut = format!("g {}\n", self.name).into_bytes();
            return Ok(self.hold(cut));
        }
        if let Some(n) = newline {
            let buf = self.inner.fill_buf()?;
            look(&buf[..=n], &mut self.name, &mut self.faces);
            self.left = n + 1;
            Ok(&buf[..=n])
        } else {
            // A line longer than what `inner` has in view (or the last line): gathered
            // whole.
            let mut line = Vec::new();
            self.inner.read_until(b'\n', &mut line)?;
            look(&line, &mut self.name, &mut self.faces);
            Ok(self.hold(line))
        }
    }

    fn consume(&mut self, amt: usize) {
        if self.sent < self.held.len() {
            self.sent += amt;
            return;
        }
        self.left -= amt.min(self.left);
        self.inner.consume(amt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What tobj makes of `text` read through a cut every `per_piece` faces: each model's
    /// name and its face count.
    fn pieces(text: &str, per_piece: usize) -> Vec<(String, usize)> {
        let mut reader = ObjectCut::new(text.as_bytes(), per_piece);
        let options = tobj::LoadOptions {
            single_index: true,
            ..Default::default()
        };
        let (models, _) = tobj::load_obj_buf(&mut reader, &options, |_| {
            Err(tobj::LoadError::OpenFileFailed)
        })
        .expect("tobj reads it");
        models
            .into_iter()
            .map(|m| {
                (
                    m.name,
                    m.mesh.face_arities.len().max(m.mesh.indices.len() / 3),
                )
            })
            .collect()
    }

    /// A strip of `n` triangles over shared corners, after `head`.
    fn strip(head: &str, n: usize) -> String {
        let mut s = head.to_string();
        for i in 0..n + 2 {
            s += &format!("v {} {} 0\n", i / 2, i % 2);
        }
        for i in 1..=n {
            s += &format!("f {} {} {}\n", i, i + 1, i + 2);
        }
        s
    }

    #[test]
    fn a_long_object_is_read_in_pieces_of_its_name() {
        let got = pieces(&strip("o  Terrain one \r\n", 10), 4);
        let want = [4, 4, 2].map(|n| ("Terrain one".to_string(), n));
        assert_eq!(got, want);
    }

    #[test]
    fn an_object_line_after_unicode_whitespace_is_named_as_tobj_names_it() {
        // tobj splits words at U+00A0 too, and names the object by the line after its
        // first character: "o door" here. The cut repeats that name.
        let got = pieces(&strip("\u{a0}o door\n", 3), 2);
        assert_eq!(got, [("o door".to_string(), 2), ("o door".to_string(), 1)]);
    }

    #[test]
    fn faces_before_any_name_and_an_empty_name_are_tobjs_unnamed_object() {
        assert_eq!(pieces(&strip("", 3), 2)[1].0, UNNAMED);
        assert_eq!(pieces(&strip("g\n", 3), 2)[1].0, UNNAMED);
    }

    #[test]
    fn no_cut_after_the_last_face_and_none_in_a_short_object() {
        // Six faces in pieces of three: two models, no empty third.
        assert_eq!(pieces(&strip("o a\n", 6), 3).len(), 2);
        assert_eq!(pieces(&strip("o a\n", 6), 6).len(), 1);
        // A new object starts the count again.
        let mut text = strip("o a\n", 2);
        text += "o b\nf 1 2 3\nf 2 3 4\n";
        let names: Vec<String> = pieces(&text, 3).into_iter().map(|p| p.0).collect();
        assert_eq!(names, ["a", "b"]);
    }

    #[test]
    fn every_line_passes_once_and_whole_to_a_line_reader() {
        let text = strip("# a comment\no x\n", 5);
        let mut reader = ObjectCut::new(text.as_bytes(), 2);
        let lines: Vec<String> = (&mut reader).lines().map(Result::unwrap).collect();
        let cuts = lines.iter().filter(|l| *l == "g x").count();
        assert_eq!(cuts, 2);
        let kept: Vec<&String> = lines.iter().filter(|l| *l != "g x").collect();
        assert_eq!(
            kept,
            text.lines().collect::<Vec<_>>().iter().collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_reader_with_a_small_buffer_still_cuts_between_lines() {
        let text = strip("o long name\n", 5);
        let small = std::io::BufReader::with_capacity(3, text.as_bytes());
        let mut reader = ObjectCut::new(small, 2);
        let mut out = String::new();
        reader.read_to_string(&mut out).unwrap();
        assert_eq!(out.matches("\ng long name\n").count(), 2, "{out}");
        assert_eq!(out.replace("g long name\n", ""), text);
    }
}
