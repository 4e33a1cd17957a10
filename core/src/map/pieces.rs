//! Long objects handed to tobj in pieces, so that its peak stays small.
//!
//! tobj keeps every face of an object until the object ends (about 100 bytes a face: a
//! `tobj::Face` holds each corner's three indices as `usize`), then exports the object
//! through a hash map of its corners. A ten-million-triangle terrain in one object held a
//! gigabyte of faces at tobj's peak. [`ObjectCut`] ends a long object every
//! [`FACES_PER_PIECE`] faces by repeating its name (`g name`) before its next face, which
//! tobj reads as a new object of the same name and material. The map is made of the
//! pieces' triangles corner by corner, so it is the same map: the pieces count as one
//! object (objects are counted by name), `map::assemble` decides an object's normals and
//! texture coordinates over the run of its pieces, and an object is cut only where every
//! vertex its faces so far name is defined (tobj looks indices up as it exports, and a
//! file may define a vertex after the faces that use it). A spawn marker is never cut.

use std::io::{self, BufRead, Read};

use super::assemble::is_spawn_name;
use super::locate::plain_number;
use crate::files::read_through_buffer;

/// Faces tobj holds at most before [`ObjectCut`] ends the object they belong to (unless a
/// face names a vertex not yet defined): 6.5 MB of tobj's faces, and a piece still large
/// enough that the pieces' own costs (a model each, its corners on a piece's edge
/// exported twice) stay small.
pub(super) const FACES_PER_PIECE: usize = 1 << 16;

/// The name tobj gives an object whose `o` or `g` line names nothing, and the faces
/// before any such line.
const UNNAMED: &str = "unnamed_object";

/// What a line is to the cut, read as tobj reads it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Line {
    /// A face (`f`) or a polyline (`l`), which tobj keeps with the faces: the largest
    /// position, texture-coordinate and normal index it names counting from 1 (0: none
    /// or relative; a relative index names what is already defined).
    Face([usize; 3]),
    /// An `f` line of fewer than three corners, which makes no triangle (tobj keeps it as
    /// a polyline, with the faces): what it names, as [`Line::Face`].
    Short([usize; 3]),
    /// A position (0), texture coordinate (1) or normal (2).
    Vertex(usize),
    /// A position with its colour: the colour's numbers tobj keeps (up to the first that
    /// does not read).
    Coloured(usize),
    /// An `o` or `g` line naming an object so.
    Object(String),
    /// Anything else.
    Other,
}

/// A reader of OBJ text for tobj that ends each object after `per_piece` faces by
/// repeating its `g` line before its next face (see the module). Lines of `inner` pass
/// through unchanged, one whole line at a time (a line longer than what `inner` has in
/// view is gathered first, as tobj gathers every line anyway).
pub(super) struct ObjectCut<R> {
    inner: R,
    per_piece: usize,
    /// What has been read, as tobj reads it.
    tally: Tally,
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
            tally: Tally::default(),
            held: Vec::new(),
            sent: 0,
            left: 0,
        }
    }

    /// The reader below.
    pub(super) fn inner(&self) -> &R {
        &self.inner
    }

    /// The `f` lines of fewer than three corners handed to tobj so far (no triangle comes
    /// of them: said as a warning).
    pub(super) fn short_faces(&self) -> usize {
        self.tally.short
    }

    /// Whether the object is ended before `line`: a face, after `per_piece` faces, every
    /// vertex they name defined, and not a spawn marker's.
    fn cut_before(&self, line: &Line) -> bool {
        matches!(line, Line::Face(_) | Line::Short(_))
            && self.tally.faces >= self.per_piece
            && self.tally.may_end()
    }

    /// A cut: the object's name again, and its count started afresh.
    fn cut(&mut self) -> Vec<u8> {
        self.tally.restart();
        format!("g {}\n", self.tally.name).into_bytes()
    }

    /// Note `line`, passed to tobj.
    fn pass(&mut self, line: Line) {
        self.tally.pass(line);
    }

    /// Hand out `line` from here.
    fn hold(&mut self, line: Vec<u8>) -> &[u8] {
        self.held = line;
        self.sent = 0;
        &self.held
    }
}

/// What the lines read so far leave, as tobj reads them: the object being read, what it
/// names, and what is defined. Whether an object may be ended before its next face is
/// decided on it, both by [`ObjectCut`] and by the split between two readers
/// (`map::halves`).
#[derive(Clone, Debug)]
pub(super) struct Tally {
    /// tobj's name of the object being read: what its last `o` or `g` line set.
    name: String,
    /// Faces read since the object began or was last cut.
    faces: usize,
    /// Positions, texture coordinates and normals defined so far.
    defined: [usize; 3],
    /// The largest of each that a face since the object began or was last cut names.
    named: [usize; 3],
    /// The colour numbers tobj keeps so far (three a coloured position).
    colours: usize,
    /// `f` lines of fewer than three corners read so far (see [`Line::Short`]).
    short: usize,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            name: UNNAMED.to_string(),
            faces: 0,
            defined: [0; 3],
            named: [0; 3],
            colours: 0,
            short: 0,
        }
    }
}

impl Tally {
    /// Whether the object may end before its next face, tobj reading on as a new object
    /// of the same name and material: every vertex its faces so far name is defined
    /// (tobj looks indices up as it exports the object); once any position has a colour,
    /// every position so far has one (tobj then wants the colour of each vertex a face
    /// uses, as it exports: a file whose colours come after the faces that use them
    /// loads whole, and failed in pieces); and it is not a spawn marker (whose centre is
    /// the spawn).
    pub(super) fn may_end(&self) -> bool {
        self.named.iter().zip(&self.defined).all(|(n, d)| n <= d)
            && (self.colours == 0 || self.defined[0].saturating_mul(3) <= self.colours)
            && !is_spawn_name(&self.name)
    }

    /// The object ended here and goes on as a new one: its count started afresh.
    fn restart(&mut self) {
        self.faces = 0;
        self.named = [0; 3];
    }

    /// Note `line`, read.
    pub(super) fn pass(&mut self, line: Line) {
        match line {
            Line::Face(named) => {
                self.faces += 1;
                self.named = max3(self.named, named);
            }
            Line::Short(named) => {
                self.faces += 1;
                self.short += 1;
                self.named = max3(self.named, named);
            }
            Line::Vertex(kind) => self.defined[kind] += 1,
            Line::Coloured(colours) => {
                self.defined[0] += 1;
                self.colours += colours;
            }
            Line::Object(name) => {
                self.name = name;
                self.restart();
            }
            Line::Other => {}
        }
    }
}

/// What `line` is to the cut, as tobj reads it: words split at any whitespace (tobj's
/// `split_whitespace`), an object named by the line after its first character, trimmed.
pub(super) fn read(line: &[u8]) -> Line {
    // Read as bytes unless the line holds whitespace beyond ASCII's (a byte past ASCII,
    // or the vertical tab), which tobj also splits words at.
    if line.iter().any(|&b| !b.is_ascii() || b == 0x0B) {
        let text = String::from_utf8_lossy(line);
        let mut words = text.split_whitespace();
        let first = words.next().unwrap_or_default();
        return match first {
            "f" | "l" => face(
                first == "f",
                words
                    .map(str::as_bytes)
                    .map(largest)
                    .fold(Corners::default(), |a, b| Corners {
                        named: max3(a.named, b.named),
                        count: a.count + b.count,
                    }),
            ),
            "v" => position(words),
            _ => read_word(first.as_bytes(), &text),
        };
    }
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let end = line[start..]
        .iter()
        .position(u8::is_ascii_whitespace)
        .map_or(line.len(), |n| start + n);
    match &line[start..end] {
        key @ (b"f" | b"l") => face(key == b"f", largest(&line[end..])),
        b"o" | b"g" => read_word(&line[start..end], &String::from_utf8_lossy(line)),
        // Most positions have no colour: their words counted first, byte by byte (read
        // as words, every position cost 0.15 s of the ten million triangles' parse).
        b"v" if words(&line[end..]) != 6 => Line::Vertex(0),
        b"v" => position(
            line[end..]
                .split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty())
                // An ASCII line: every word is text.
                .map(|w| std::str::from_utf8(w).unwrap_or_default()),
        ),
        word => read_word(word, ""),
    }
}

/// The number of words of ASCII `text` (split at ASCII whitespace).
fn words(text: &[u8]) -> usize {
    let mut count = 0;
    let mut in_word = false;
    for &b in text {
        let word = !b.is_ascii_whitespace();
        count += usize::from(word && !in_word);
        in_word = word;
    }
    count
}

/// A position line whose words after `v` are `words`: coloured when it has three numbers
/// and three more (tobj's rule: then it keeps the colour's numbers up to the first that
/// does not read; a line it refuses is refused by the check beside it).
fn position<'a>(words: impl Iterator<Item = &'a str>) -> Line {
    let mut after = words.skip(3);
    let (Some(r), Some(g), Some(b), None) =
        (after.next(), after.next(), after.next(), after.next())
    else {
        return Line::Vertex(0);
    };
    let number = |w: &&str| plain_number(w) || w.parse::<f32>().is_ok();
    Line::Coloured([r, g, b].into_iter().take_while(number).count())
}

/// What a line whose first word is `word` (not a face's) is: `text` is the whole line,
/// for an object's name.
fn read_word(word: &[u8], text: &str) -> Line {
    match word {
        b"v" => Line::Vertex(0),
        b"vt" => Line::Vertex(1),
        b"vn" => Line::Vertex(2),
        b"o" | b"g" => {
            let first = text.chars().next().map_or(0, char::len_utf8);
            let named = text[first..].trim();
            Line::Object(if named.is_empty() { UNNAMED } else { named }.to_string())
        }
        _ => Line::Other,
    }
}

/// The largest position, texture-coordinate and normal index that the corners in
/// `corners` (`v`, `v/vt`, `v//vn`, `v/vt/vn`, split by ASCII whitespace) name counting
/// from 1; a relative (negative) index counts as 0. One pass over the bytes, as the
/// line goes by: what is not a digit, a sign or a separator is passed over (a line tobj
/// refuses is refused by the check beside it). Not `locate::corners_problem`, which reads
/// the same corners to say what is wrong with each, splitting them into words and parsing
/// each as text: a reading by words here added 0.7 s to ten million faces (this pass
/// 0.15 s), and only the largest indices are wanted.
fn largest(corners: &[u8]) -> Corners {
    let mut named = [0usize; 3];
    let (mut slot, mut value, mut negative) = (0usize, 0usize, false);
    // Corners are counted where one ends (a word with a digit), not byte by byte: the
    // count adds nothing to the bytes' loop but a store.
    let (mut count, mut digits) = (0usize, false);
    let mut keep = |slot: usize, value: usize, negative: bool| {
        if let Some(n) = named.get_mut(slot).filter(|_| !negative) {
            *n = (*n).max(value);
        }
    };
    for &b in corners {
        match b {
            b'0'..=b'9' => {
                digits = true;
                value = value
                    .saturating_mul(10)
                    .saturating_add(usize::from(b - b'0'))
            }
            b'-' => negative = true,
            b'/' => {
                keep(slot, value, negative);
                (slot, value, negative) = (slot + 1, 0, false);
            }
            _ if b.is_ascii_whitespace() => {
                keep(slot, value, negative);
                (slot, value, negative) = (0, 0, false);
                count += usize::from(std::mem::take(&mut digits));
            }
            _ => {}
        }
    }
    keep(slot, value, negative);
    Corners {
        named,
        count: count + usize::from(digits),
    }
}

/// What [`largest`] reads of a face line's corners.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Corners {
    /// The largest position, texture-coordinate and normal index named.
    named: [usize; 3],
    /// How many corners (words with a digit) there are.
    count: usize,
}

/// A face line (`is_f`) or a polyline's, of `corners`: an `f` of fewer than three
/// corners makes no triangle.
fn face(is_f: bool, corners: Corners) -> Line {
    if is_f && corners.count < 3 {
        Line::Short(corners.named)
    } else {
        Line::Face(corners.named)
    }
}

/// The larger of each of two triples.
fn max3(a: [usize; 3], b: [usize; 3]) -> [usize; 3] {
    [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])]
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
        let (line, newline) = {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                return Ok(&[]);
            }
            match buf.iter().position(|&b| b == b'\n') {
                Some(n) => (read(&buf[..=n]), Some(n)),
                None => (Line::Other, None),
            }
        };
        if let Some(n) = newline {
            if self.cut_before(&line) {
                // The face passes after the cut, and is read again then.
                let cut = self.cut();
                return Ok(self.hold(cut));
            }
            self.pass(line);
            self.left = n + 1;
            return Ok(&self.inner.fill_buf()?[..=n]);
        }
        // A line longer than what `inner` has in view (or the last line): gathered whole,
        // after the cut when one is due.
        let mut whole = Vec::new();
        self.inner.read_until(b'\n', &mut whole)?;
        let line = read(&whole);
        let mut out = if self.cut_before(&line) {
            self.cut()
        } else {
            Vec::new()
        };
        self.pass(line);
        out.extend(whole);
        Ok(self.hold(out))
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
    fn a_faces_largest_indices_are_read_from_its_corners() {
        let corners = |b: &[u8]| {
            let c = largest(b);
            (c.named, c.count)
        };
        assert_eq!(corners(b" 1 22 3\n"), ([22, 0, 0], 3));
        assert_eq!(corners(b" 4/5/6 7//9 -1/-2/-3 +8/1"), ([8, 5, 9], 4));
        // A face of two corners is a short one; a polyline of two is a polyline.
        assert_eq!(read(b"f 1 2\n"), Line::Short([2, 0, 0]));
        assert_eq!(read(b"f  7/1 \n"), Line::Short([7, 1, 0]));
        assert_eq!(read(b"l 1 2\n"), Line::Face([2, 0, 0]));
        assert_eq!(read(b"  f 3/1 2/4 1/1\r\n"), Line::Face([3, 4, 0]));
        assert_eq!(read("f\u{a0}1 5\u{a0}2".as_bytes()), Line::Face([5, 0, 0]));
        assert_eq!(read(b"vt 0 1\n"), Line::Vertex(1));
        // A position's colour numbers, as tobj keeps them (up to the first that does not
        // read); a weight or a position alone is no colour.
        assert_eq!(read(b"v 0 0 0 1 0.5 1e-1\n"), Line::Coloured(3));
        assert_eq!(read(b"v 0 0 0 1 x 1\n"), Line::Coloured(1));
        assert_eq!(read("v 0 0 0\u{a0}1 1 1".as_bytes()), Line::Coloured(3));
        assert_eq!(read(b"v 0 0 0 1\n"), Line::Vertex(0));
        assert_eq!(read(b"v 0 0 0\n"), Line::Vertex(0));
        assert_eq!(read(b"p 1 2\n"), Line::Other);
    }

    #[test]
    fn no_cut_while_a_face_names_a_vertex_not_yet_defined() {
        // tobj looks the corners up as it exports: a cut after `f 1 4 3` and before
        // `v 1 0 1` would export a face naming vertex 4 before it is defined.
        let text = "o floor\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 3 2\nf 1 4 3\nf 1 2 4\nv 1 0 1\n";
        let counts = |text: &str| pieces(text, 1).into_iter().map(|p| p.1).collect::<Vec<_>>();
        assert_eq!(counts(text), [1, 2]);
        // Once it is, the next face is cut off.
        assert_eq!(counts(&format!("{text}f 1 2 3\n")), [1, 2, 1]);
    }

    #[test]
    fn a_spawn_marker_and_trailing_lines_are_never_cut() {
        assert_eq!(pieces(&strip("o player_start\n", 5), 2).len(), 1);
        // Cut before a face only: lines after the last face leave no empty piece.
        assert_eq!(pieces(&(strip("o a\n", 4) + "# end\n\ns 1\n"), 2).len(), 2);
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
