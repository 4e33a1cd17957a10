//! Turning tobj's errors, which carry neither file nor line, into `file:line: reason`.
//!
//! Every line tobj would refuse is found before tobj reads the file, with tobj's own
//! rules, at its own line ([`first_bad_line`]): tobj finds an index out of range only as
//! it closes an object (at the next `o`, `g`, change of material or the end) and blames the
//! line that closed it, and it keeps every face read until it stops. tobj still reads
//! through [`LineCounter`], so that if it stops on a line after all we know which:
//! [`bad_face_closed_at`] then finds the face it checked there, or [`explain`] says what
//! that line should have been. A line refused after a `usemtl` that may have closed an
//! object holding a face out of range waits for tobj: only its read of the material
//! libraries tells whether the material changed there, and so which line is first.

use std::io::{self, BufRead, Read};

use crate::files::read_through_buffer;
use crate::text::quote::quote;

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
        read_through_buffer(self, buf)
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
/// on: what the statement should look like. The line is quoted escaped and cut
/// ([`quote`]).
pub(super) fn explain(line: &str, err: &tobj::LoadError) -> String {
    use tobj::LoadError as E;
    let shown = line.trim();
    let q = quote(shown);
    let mut words = shown.split_whitespace();
    let key = words.next().unwrap_or("");
    let words: Vec<&str> = words.collect();
    let numbers = words
        .iter()
        .take_while(|w| w.parse::<f32>().is_ok())
        .count();
    match (key, err) {
        ("v", E::ScalingByZeroError) => {
            format!("the fourth number of a vertex is its weight w and must not be 0: {q}")
        }
        ("v", _) if numbers < 3 => format!("a vertex needs three numbers: {q}"),
        ("v", _) => format!(
            "a vertex is 'v x y z', 'v x y z w' (w not 0) or 'v x y z r g b', not {} numbers: {q}",
            words.len()
        ),
        ("vt", _) => format!("a texture coordinate needs two numbers: {q}"),
        ("vn", _) => format!("a normal needs three numbers: {q}"),
        ("f" | "l", _) => face_problem(&words, shown).unwrap_or_else(|| {
            format!("a face is 'f' and three or more corners v, v/vt, v//vn or v/vt/vn: {q}")
        }),
        ("usemtl", E::MaterialParseError) => format!("'usemtl' needs a material name: {q}"),
        (
            _,
            E::FaceVertexOutOfBounds
            | E::FaceTexCoordOutOfBounds
            | E::FaceNormalOutOfBounds
            | E::FaceColorOutOfBounds,
        ) => format!(
            "a face before this line uses an index out of range ({err}), found where this line closed its object: {q}"
        ),
        ("o" | "g", _) => format!("{} needs a name: {q}", quote(key)),
        _ => format!("cannot read {q} ({err})"),
    }
}

/// What is wrong with one face's corners, reading them alone (indices are checked against
/// nothing but their own form): `None` when each corner looks right.
fn face_problem(words: &[&str], shown: &str) -> Option<String> {
    let q = quote(shown);
    words.iter().find_map(|w| {
        let parts: Vec<&str> = w.split('/').collect();
        if parts.len() > 3 {
            return Some(format!(
                "{} is not a face corner (v, v/vt, v//vn or v/vt/vn): {q}",
                quote(w)
            ));
        }
        parts.iter().enumerate().find_map(|(k, p)| {
            let what = INDEX_NAMES[k];
            match p.parse::<isize>() {
                _ if p.is_empty() && k > 0 => None,
                Err(_) => Some(format!("{} is not a {what} index: {q}", quote(p))),
                Ok(0) => Some(format!(
                    "{what} index 0 is invalid (OBJ indices start at 1): {q}"
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
/// What [`Forward`] follows: the three kinds of index, and (as a fourth) the vertex a
/// corner uses, which needs a colour once any vertex has one.
const COLOURED: usize = 3;

/// A line of the file, and what is wrong with it.
pub(super) struct BadLine {
    /// 1-based line number.
    pub(super) line: usize,
    /// Why it is refused.
    pub(super) reason: String,
    /// Whether tobj may stop before it, at a `usemtl` that closes an object holding a face
    /// out of range (if the material it names is another than the one before, which only
    /// tobj's read of the libraries tells): then that face is the line to name.
    pub(super) tobj_may_stop_before: bool,
}

/// What is wrong with a vertex line's numbers after `v`, by tobj's rules (three numbers,
/// then nothing, a weight w that is not 0, or three colour numbers), as tobj's error;
/// a vertex with a colour adds the colour numbers tobj keeps (up to the first that does
/// not read) to `colours`.
fn vertex_problem<'a>(
    mut words: impl Iterator<Item = &'a str>,
    colours: &mut usize,
) -> Option<tobj::LoadError> {
    use tobj::LoadError as E;
    if !floats(&mut words, 3) {
        return Some(E::PositionParseError);
    }
    let first = words.next()?;
    match (words.next(), words.next()) {
        (None, _) => match first.parse::<f32>() {
            Err(_) => Some(E::PositionParseError),
            Ok(0.0) => Some(E::ScalingByZeroError),
            Ok(_) => None,
        },
        (Some(_), None) => Some(E::ColorParseError),
        (Some(second), Some(third)) => {
            if words.next().is_some() {
                return Some(E::ColorParseError);
            }
            *colours += [first, second, third]
                .iter()
                .take_while(|w| w.parse::<f32>().is_ok())
                .count();
            None
        }
    }
}

/// Whether the next `n` words are there and are numbers (tobj's `parse_floatn`).
fn floats<'a>(words: &mut impl Iterator<Item = &'a str>, n: usize) -> bool {
    let mut read = 0;
    for w in words.take(n) {
        if !(plain_number(w) || w.parse::<f32>().is_ok()) {
            return false;
        }
        read += 1;
    }
    read == n
}

/// Whether `word` is a number as files most often write one: a sign or none, digits
/// and at most one point, at least one digit. Each such word reads as an `f32` (Rust's
/// `from_str`, tobj's), so the check need not read it; any other is read (an exponent,
/// `inf`, `nan`, or no number). Reading every coordinate took most of the check's time.
pub(super) fn plain_number(word: &str) -> bool {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word).as_bytes();
    let mut point = false;
    let mut digit = false;
    for &b in digits {
        match b {
            b'0'..=b'9' => digit = true,
            b'.' if !point => point = true,
            _ => return false,
        }
    }
    digit
}

/// The faces of the object being read that use an index not defined yet when they were
/// read (tobj checks them only as the object closes), kept compactly: per kind, only a
/// face whose index beats every earlier one's. The first face past what the object ends
/// with is bigger than all before it, so it is kept; a file of three million faces that
/// use defined vertices keeps none (it kept all of them, 96 MB, before).
#[derive(Default)]
struct Forward {
    /// Per kind (vertex, texture coordinate, normal, coloured vertex): `(line, index)`,
    /// indices rising.
    records: [Vec<(usize, usize)>; 4],
}

impl Forward {
    /// A face at `line` uses `index` (1-based) of `kind`, which `known` covers so far.
    fn note(&mut self, kind: usize, line: usize, index: usize, known: usize) {
        let records = &mut self.records[kind];
        if index > known && records.last().is_none_or(|&(_, top)| index > top) {
            records.push((line, index));
        }
    }

    /// Would an object closing with `limits` of each kind hold a face past one?
    fn past(&self, limits: [usize; 4]) -> bool {
        (0..4).any(|k| self.records[k].last().is_some_and(|&(_, i)| i > limits[k]))
    }

    /// The object closes with `limits` of each kind: the first face past one (and its
    /// kind and index), and nothing kept.
    fn close(&mut self, limits: [usize; 4]) -> Option<(usize, usize, usize)> {
        let bad = (0..4)
            .filter_map(|k| {
                let r = &self.records[k];
                r.get(r.partition_point(|&(_, i)| i <= limits[k]))
                    .map(|&(line, index)| (line, k, index))
            })
            .min();
        self.records.iter_mut().for_each(Vec::clear);
        bad
    }
}

/// The first line that tobj would refuse, named at its own line with its own reason, found
/// before tobj reads the file (and keeps every face of it: a 24 MB file of three million
/// faces cost 328 MiB to refuse at its last line). Read as tobj reads it: vertex, texture
/// coordinate and normal lines by tobj's rules; a relative index counts back from the
/// elements defined so far; an absolute one must be defined by the time the face's object
/// closes (at the next `o` or `g`, or the end of the file), which is when tobj checks it
/// and then blames whatever line closed the object; index 0 is refused for vertices,
/// texture coordinates and normals alike, and every corner needs its vertex index; once any
/// vertex has a colour, a vertex a face uses needs one too.
///
/// tobj also closes an object where `usemtl` changes the material it has found in the
/// libraries loaded so far (not where the name changes: two names that no library defines
/// are one material, none, and a name used before its library is loaded and again after
/// are two). Which names a library defines is not known here, so a `usemtl` closes
/// nothing, and the error tobj gives at one is asked of [`bad_face_closed_at`].
pub(super) fn first_bad_line(text: &str) -> Option<BadLine> {
    bad_line(text, None)
}

/// The face that tobj found out of range as line `closed_at` (a `usemtl` that changed the
/// material) closed its object, named at its own line; `None` when there is none.
pub(super) fn bad_face_closed_at(text: &str, closed_at: usize) -> Option<BadLine> {
    bad_line(text, Some(closed_at))
}

/// [`first_bad_line`], with the `usemtl` at line `closed_at` (if any) closing an object.
fn bad_line(text: &str, closed_at: Option<usize>) -> Option<BadLine> {
    let mut defined = [0usize; 3];
    let mut colours = 0usize;
    let mut forward = Forward::default();
    // A `usemtl` passed that may have closed an object holding a face out of range.
    let mut risky = false;
    let limits = |defined: &[usize; 3], colours: usize| {
        let coloured = if colours > 0 { colours / 3 } else { usize::MAX };
        [defined[0], defined[1], defined[2], coloured]
    };
    let close = |forward: &mut Forward, defined: &[usize; 3], colours: usize, risky: bool| {
        let limits = limits(defined, colours);
        let coloured = limits[COLOURED];
        let (line, k, x) = forward.close(limits)?;
        let shown = quote(text.lines().nth(line - 1).unwrap_or("").trim());
        let reason = if k == COLOURED {
            // ("the first 1 vertices have one" reads as careless.)
            let first = match coloured {
                1 => "the first vertex has one".to_string(),
                n => format!("the first {n} vertices have one"),
            };
            format!(
                "face uses vertex {x}, which has no colour, but {first} ('v x y z r g b'): give every vertex a colour or none: {shown}"
            )
        } else {
            format!(
                "{} index {x} is out of range ({} {} defined by the end of its object): {shown}",
                INDEX_NAMES[k], defined[k], PLURAL_NAMES[k],
            )
        };
        Some(BadLine {
            line,
            reason,
            tobj_may_stop_before: risky,
        })
    };
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let key = words.next().unwrap_or("");
        let refused = |e: tobj::LoadError| BadLine {
            line: i + 1,
            reason: explain(line, &e),
            tobj_may_stop_before: risky,
        };
        match key {
            "v" => match vertex_problem(words, &mut colours) {
                Some(e) => return Some(refused(e)),
                None => defined[0] += 1,
            },
            "vt" | "vn" => {
                let (n, k, e) = if key == "vt" {
                    (2, 1, tobj::LoadError::TexcoordParseError)
                } else {
                    (3, 2, tobj::LoadError::NormalParseError)
                };
                if !floats(&mut words, n) {
                    return Some(refused(e));
                }
                defined[k] += 1;
            }
            "usemtl" => {
                // tobj reads the name after the first space.
                let name = line.split_once(' ').map_or("", |(_, n)| n.trim());
                if name.is_empty() {
                    return Some(refused(tobj::LoadError::MaterialParseError));
                }
                if closed_at == Some(i + 1) {
                    if let Some(bad) = close(&mut forward, &defined, colours, risky) {
                        return Some(bad);
                    }
                } else {
                    risky |= forward.past(limits(&defined, colours));
                }
            }
            "o" | "g" => {
                if let Some(bad) = close(&mut forward, &defined, colours, risky) {
                    return Some(bad);
                }
            }
            "f" | "l" => {
                let mut used = |k, x| {
                    let known = if k == COLOURED {
                        if colours > 0 { colours / 3 } else { 0 }
                    } else {
                        defined[k]
                    };
                    forward.note(k, i + 1, x, known);
                };
                // The key is one byte, after the whitespace `split_whitespace` passed over.
                // A face not read plainly to its end is read again by `corners_problem`:
                // an index handed out twice is noted once (`Forward::note` keeps only one
                // beyond the last).
                let corners = &line.trim_start()[1..];
                if !plain_corners(corners, &mut used)
                    && let Some(reason) = corners_problem(words, line.trim(), &defined, used)
                {
                    return Some(BadLine {
                        line: i + 1,
                        reason,
                        tobj_may_stop_before: risky,
                    });
                }
            }
            _ => {}
        }
    }
    close(&mut forward, &defined, colours, risky)
}

/// Read a face's `corners` (the line after its `f`) written the usual way, and right:
/// ASCII digits and `/` between spaces and tabs, each corner a vertex index and up to two
/// more, none of them 0 or longer than 18 digits. Each index is handed to `used` as
/// [`corners_problem`] hands it (`(kind, index)`, and the vertex again as [`COLOURED`]);
/// `false` at the first byte that is not so (some may have been handed out by then). One pass over the bytes: reading each
/// corner as text took most of the check's time (ten million faces, 0.9 s).
fn plain_corners(corners: &str, mut used: impl FnMut(usize, usize)) -> bool {
    // The part being read: its kind (0 vertex, 1 texture coordinate, 2 normal), value
    // and digits; whether a corner is being read.
    let (mut kind, mut value, mut digits, mut in_corner) = (0usize, 0usize, 0usize, false);
    let mut end_part = |kind: usize, value: usize, digits: usize| -> bool {
        if digits == 0 {
            return kind > 0; // an empty texture coordinate or normal part
        }
        if value == 0 {
            return false;
        }
        used(kind, value);
        if kind == 0 {
            used(COLOURED, value);
        }
        true
    };
    for &b in corners.as_bytes() {
        match b {
            b'0'..=b'9' if digits < 18 => {
                value = value * 10 + usize::from(b - b'0');
                digits += 1;
                in_corner = true;
            }
            b'/' if kind < 2 => {
                if !end_part(kind, value, digits) {
                    return false;
                }
                (kind, value, digits, in_corner) = (kind + 1, 0, 0, true);
            }
            b' ' | b'\t' | b'\r' => {
                if in_corner && !end_part(kind, value, digits) {
                    return false;
                }
                (kind, value, digits, in_corner) = (0, 0, 0, false);
            }
            _ => return false,
        }
    }
    !in_corner || end_part(kind, value, digits)
}

/// What is wrong with a face's corners read against `defined` (a corner with no vertex
/// index, a part that is no index, index 0, a relative index before the first), or `None`;
/// each index used is handed to `used(kind, index)` (1-based; the vertex a second time,
/// resolved, as [`COLOURED`]).
fn corners_problem<'a>(
    words: impl Iterator<Item = &'a str>,
    shown: &str,
    defined: &[usize; 3],
    mut used: impl FnMut(usize, usize),
) -> Option<String> {
    // Quoted only for a message (once for every face it was a tenth of the check).
    let q = || quote(shown);
    for w in words {
        if w.split('/').next() == Some("") {
            return Some(format!(
                "the corner {} has no vertex index (a corner is v, v/vt, v//vn or v/vt/vn): {}",
                quote(w),
                q()
            ));
        }
        for (k, p) in w.split('/').enumerate() {
            if p.is_empty() {
                continue;
            }
            let (Some(what), Ok(x)) = (INDEX_NAMES.get(k), p.parse::<isize>()) else {
                // More than three parts, or a part that is no number.
                return face_problem(&[w], shown);
            };
            if x == 0 {
                return Some(format!(
                    "{what} index 0 is invalid (OBJ indices start at 1): {}",
                    q()
                ));
            }
            if x < 0 && x.unsigned_abs() > defined[k] {
                return Some(format!(
                    "relative {what} index {x} reaches before the first {what} ({} defined so far): {}",
                    defined[k],
                    q()
                ));
            }
            let index = if x < 0 {
                defined[k] - x.unsigned_abs() + 1
            } else {
                x.unsigned_abs()
            };
            if x > 0 {
                used(k, index);
            }
            if k == 0 {
                used(COLOURED, index);
            }
        }
    }
    None
}

/// The statements an OBJ file is made of (comments aside: a Markdown heading starts with
/// '#' too). A file with none of them is something else.
const OBJ_KEYWORDS: [&str; 13] = [
    "v", "vt", "vn", "vp", "f", "l", "p", "o", "g", "s", "usemtl", "mtllib", "cstype",
];

/// What a file that is not OBJ looks like, for the message that refuses it: text or
/// binary with no OBJ statement (formats known by their first bytes, images and
/// archives, were refused before parsing: see `map::sniff`). `None` when it is an OBJ
/// file, however empty.
pub(super) fn not_obj(text: &str) -> Option<&'static str> {
    let is_obj = text.lines().any(|l| {
        let word = l.split_whitespace().next().unwrap_or("");
        OBJ_KEYWORDS.contains(&word)
    });
    // Comments alone are an OBJ with nothing in it, as an empty file is (a file of
    // only '#' lines was called text); prose has other lines.
    let comments_only = text
        .lines()
        .map(str::trim_start)
        .all(|l| l.is_empty() || l.starts_with('#'));
    if is_obj || comments_only {
        return None;
    }
    let replaced = text.chars().take(4096).filter(|&c| c == '\u{FFFD}').count();
    Some(if text.contains('\0') || replaced > 40 {
        "a binary file"
    } else {
        // Not "text": an OBJ file is text too, and "it looks like text" read as no reason.
        "prose, with no OBJ lines"
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_kit::random::Xorshift64;

    const PROSE: &str = "prose, with no OBJ lines";

    #[test]
    fn not_obj_tells_binaries_and_prose_from_obj() {
        assert_eq!(not_obj("# Title\n\nSome prose.\n## More\n"), Some(PROSE));
        assert_eq!(not_obj("x\0y\n"), Some("a binary file"));
        // OBJ however sparse: one vertex, a comment and a group; or nothing at all.
        assert_eq!(not_obj("# made by hand\nv 0 0 0\n"), None);
        assert_eq!(not_obj("g walls\n"), None);
        assert_eq!(not_obj(""), None);
    }

    #[test]
    fn a_file_of_comments_only_is_an_empty_obj() {
        assert_eq!(not_obj("# only comments\n"), None);
        assert_eq!(not_obj("  # exported by hand\n\n# nothing yet\n"), None);
        // A heading over prose is still text.
        assert_eq!(not_obj("# Notes\nthe map is next door\n"), Some(PROSE));
    }

    /// `count` words of up to `longest - 1` characters of `alphabet`, drawn by xorshift
    /// from `seed`: the same words everywhere.
    fn random_words(
        alphabet: &'static [u8],
        seed: u64,
        longest: u64,
        count: usize,
    ) -> impl Iterator<Item = String> {
        let mut rng = Xorshift64(seed);
        (0..count).map(move |_| {
            let seed = rng.next_u64();
            let len = (seed % longest) as usize;
            (0..len)
                .map(|k| alphabet[((seed >> (4 + 5 * k)) % alphabet.len() as u64) as usize] as char)
                .collect()
        })
    }

    /// A face read plainly (`plain_corners`) is right by `corners_problem`, which hands
    /// out the same indices: faces of random characters from both readings' alphabets.
    #[test]
    fn a_face_read_plainly_is_read_as_corners_problem_reads_it() {
        let (mut plain, mut refused) = (0, 0);
        for face in random_words(b"0123456789//  \t-+x", 0x9e37_79b9_7f4a_7c15, 12, 200_000) {
            let defined = [usize::MAX / 2; 3];
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            if !plain_corners(&face, |k, x| fast.push((k, x))) {
                refused += 1;
                continue;
            }
            plain += 1;
            let problem = corners_problem(face.split_whitespace(), &face, &defined, |k, x| {
                slow.push((k, x))
            });
            assert_eq!(problem, None, "{face:?}");
            assert_eq!(fast, slow, "{face:?}");
        }
        assert!(plain > 10_000 && refused > 10_000, "{plain} {refused}");
    }

    /// A word read as a plain number is a number to tobj (Rust's `f32` reading), and
    /// the plain forms are read so: words of random characters.
    #[test]
    fn a_plain_number_is_a_number() {
        let mut plain = 0;
        for word in random_words(b"0123456789..--+eEinfa", 0x2545_f491_4f6c_dd1d, 7, 100_000) {
            if plain_number(&word) {
                plain += 1;
                assert!(word.parse::<f32>().is_ok(), "{word:?}");
            }
        }
        assert!(plain > 1_000, "{plain}");
        for word in ["0", "-1", "+2.5", ".5", "5.", "-.25", "0005"] {
            assert!(plain_number(word), "{word}");
        }
        for word in ["", "-", ".", "1e5", "inf", "1.2.3", "--1"] {
            assert!(!plain_number(word), "{word}");
        }
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
