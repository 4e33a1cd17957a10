//! A long OBJ text read by two tobj readers at once, one on each core.
//!
//! tobj reads one line after another on one thread, and most of its time goes to the
//! faces (on the ten-million-triangle terrain, its 5 million vertex lines took 0.45 s of
//! 4 s). So the text is split before a face line about halfway through its faces: the
//! first reader ([`First`]) reads the text up to the split; the second ([`Second`]) reads
//! every line before the split except its faces (the vertices, texture coordinates,
//! normals, material libraries, materials and object names that a face after the split
//! may name, in their order), then the text from the split on. The first reader's models
//! followed by the second's are the models of one reader that ended an object at the
//! split, and the split is only put where [`ObjectCut`] may end one ([`Tally::may_end`]),
//! so the map is the same (`map::assemble` makes an object's pieces into the object).
//!
//! The split is found by the second reader as it passes over the lines before it (it
//! reads each of them anyway), not by a pass of its own before both start (0.3 s at ten
//! million triangles, on one core): the first reader reads freely up to where the split
//! is looked for from ([`aim`]), which the split is never before, and waits there to be
//! told where it is ([`Signal`]); by then it has long been found. Where there is none
//! (a face naming a vertex defined after it, to the end of its object, or a spawn
//! marker's faces to the end of the text), the first reader reads the whole text and the
//! second reads no face.
//!
//! [`ObjectCut`]: super::pieces::ObjectCut

use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use super::mtl::Libraries;
use super::obj::tobj_over;
use super::pieces::{Line, ObjectCut, Tally, read};
use super::progress::{Progress, Watched};
use crate::files::read_through_buffer;

/// Texts shorter than this are read by one reader: the second reader's thread and its
/// second reading of the vertex lines are worth it from a few megabytes (conference's
/// 27 MB).
pub(crate) const TWO_READERS_MIN_BYTES: usize = 4 << 20;

/// A run of lines the second reader hands out at once ends after the line that reaches
/// this size.
const RUN_BYTES: usize = 64 << 10;

/// Faces the second reader passes over (before the split) between two looks at whether
/// it is to stop: a few milliseconds' worth.
const FACES_BETWEEN_LOOKS: usize = 1 << 16;

/// tobj's models and materials of `text` read by two readers at once, the split looked
/// for from `aim`, each handing tobj pieces of `per_piece` faces: `None` when either fails or is stopped by `stop` (which a failure
/// sets), or no second thread is to be had. The whole text is then read again by one
/// reader, whose error is the one named.
/// What [`read_both`] read: tobj's models and materials, and the `f` lines of fewer than
/// three corners both readers handed it (see [`ObjectCut::short_faces`]).
pub(super) struct BothRead {
    pub(super) read: tobj::LoadResult,
    pub(super) short_faces: usize,
}

pub(super) fn read_both(
    text: &str,
    aim: usize,
    per_piece: usize,
    libraries: &Libraries,
    progress: &Progress,
    stop: &AtomicBool,
) -> Option<BothRead> {
    let signal = Signal::default();
    // Each reader's failure stops the other.
    let failed = |read: &std::thread::Result<tobj::LoadResult>| {
        if !matches!(read, Ok(Ok(_))) {
            stop.store(true, Ordering::Relaxed);
        }
    };
    std::thread::scope(|s| {
        let second = std::thread::Builder::new()
            .spawn_scoped(s, || {
                let own = Second::new(text, aim, &signal, progress, stop);
                let mut cut = ObjectCut::new(own, per_piece);
                let read = tobj_over(&mut cut, libraries);
                failed(&read);
                (read, cut.short_faces())
            })
            .ok()?;
        let own = Watched::new(First::new(text, aim, &signal), progress, stop);
        let mut cut = ObjectCut::new(own, per_piece);
        let first = tobj_over(&mut cut, libraries);
        failed(&first);
        let (second, short) = second.join().ok()?;
        match (first, second) {
            (Ok(Ok((mut models, _))), Ok(Ok((more, materials)))) => {
                models.extend(more);
                Some(BothRead {
                    read: Ok((models, materials)),
                    short_faces: cut.short_faces() + short,
                })
            }
            _ => None,
        }
    })
}

/// Where the split is looked for from in `text`: the middle of what follows its first
/// face line (most of a text's reading is its faces, and its vertices are read by both).
/// Only a guess of where the faces start (the first line beginning with `f`): the split
/// itself is put by the lines as tobj reads them.
pub(super) fn aim(text: &str) -> usize {
    let faces = if text.starts_with('f') {
        0
    } else {
        text.find("\nf").map_or(text.len(), |n| n + 1)
    };
    faces + (text.len() - faces) / 2
}

/// The split, once the second reader has looked for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// Not yet.
    Looking,
    /// Before the face line at this byte: the second reader's own text starts there.
    At(usize),
    /// None: the first reader reads the whole text.
    Nowhere,
    /// The second reader stopped before it knew (it failed, or the load was stopped).
    Abandoned,
}

/// Where the split is, told by the second reader to the first.
pub(super) struct Signal {
    found: Mutex<Found>,
    told: Condvar,
}

impl Default for Signal {
    fn default() -> Signal {
        Signal {
            found: Mutex::new(Found::Looking),
            told: Condvar::new(),
        }
    }
}

impl Signal {
    /// Tell the first reader `found`, unless it was told already.
    fn tell(&self, found: Found) {
        let mut known = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        if *known == Found::Looking {
            *known = found;
            self.told.notify_all();
        }
    }

    /// Wait to be told.
    fn wait(&self) -> Found {
        let mut known = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        while *known == Found::Looking {
            known = self
                .told
                .wait(known)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *known
    }
}

/// What the first reader reads: the text up to [`aim`] at once, then up to the split once
/// it is told (all of it where there is none).
pub(super) struct First<'a> {
    text: &'a [u8],
    aim: usize,
    signal: &'a Signal,
    /// The end of what it reads, once told.
    end: Option<usize>,
    at: usize,
}

impl<'a> First<'a> {
    /// The first reader of `text`, the split looked for from `aim`.
    pub(super) fn new(text: &'a str, aim: usize, signal: &'a Signal) -> First<'a> {
        First {
            text: text.as_bytes(),
            aim: aim.min(text.len()),
            signal,
            end: None,
            at: 0,
        }
    }
}

impl Read for First<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_through_buffer(self, buf)
    }
}

impl BufRead for First<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let end = match self.end {
            Some(end) => end,
            None if self.at < self.aim => self.aim,
            None => {
                let end = match self.signal.wait() {
                    Found::At(split) => split,
                    Found::Nowhere => self.text.len(),
                    Found::Looking | Found::Abandoned => {
                        return Err(io::Error::other("the second reader stopped"));
                    }
                };
                *self.end.insert(end)
            }
        };
        Ok(&self.text[self.at..end])
    }

    fn consume(&mut self, amt: usize) {
        self.at += amt;
    }
}

/// What the second reader reads: the lines before the split but its faces, handed out a
/// run of lines at a time straight from the text, then the text from the split on. It
/// finds the split as it goes (the first face line from [`aim`] before which an object
/// may end) and tells the first reader. Its own text is watched as the first reader's
/// is (so the file's bytes count once); the lines before are only stopped by the same
/// flags.
pub(super) struct Second<'a> {
    text: &'a [u8],
    aim: usize,
    signal: &'a Signal,
    progress: &'a Progress,
    stop: &'a AtomicBool,
    /// What the lines before `scan` leave, as tobj reads them.
    tally: Tally,
    scan: usize,
    /// The run of lines being handed out.
    at: usize,
    end: usize,
    /// Its own text, once the split is found.
    own: Option<Watched<'a, &'a [u8]>>,
}

impl<'a> Second<'a> {
    /// The second reader of `text`, the split looked for from `aim` and told to
    /// `signal`; stopped when `progress` is cancelled or `stop` set.
    pub(super) fn new(
        text: &'a str,
        aim: usize,
        signal: &'a Signal,
        progress: &'a Progress,
        stop: &'a AtomicBool,
    ) -> Second<'a> {
        Second {
            text: text.as_bytes(),
            aim,
            signal,
            progress,
            stop,
            tally: Tally::default(),
            scan: 0,
            at: 0,
            end: 0,
            own: None,
        }
    }

    /// The next run of lines before the split, passing over faces, as `at..end`; or
    /// the split, found (`own` is then its text); or the end of a text without one.
    fn next_run(&mut self) -> io::Result<()> {
        let text = self.text;
        let mut passed = 0usize;
        while let Some(line) = line_at(text, self.scan) {
            let read = read(line);
            if !matches!(read, Line::Face(_) | Line::Short(_)) {
                break;
            }
            // Millions of faces may pass here before the split (or the end): the flags
            // are looked at as they go.
            passed += 1;
            if passed.is_multiple_of(FACES_BETWEEN_LOOKS) {
                self.look()?;
            }
            if self.scan >= self.aim && self.scan > 0 && self.tally.may_end() {
                self.signal.tell(Found::At(self.scan));
                self.own = Some(Watched::new(&text[self.scan..], self.progress, self.stop));
                return Ok(());
            }
            self.tally.pass(read);
            self.scan += line.len();
        }
        self.at = self.scan;
        while let Some(line) = line_at(text, self.scan) {
            let read = read(line);
            if matches!(read, Line::Face(_) | Line::Short(_)) {
                // Read again at the next run (the split may be before it).
                break;
            }
            self.tally.pass(read);
            self.scan += line.len();
            if self.scan - self.at >= RUN_BYTES {
                break;
            }
        }
        self.end = self.scan;
        if self.scan == text.len() {
            self.signal.tell(Found::Nowhere);
        }
        Ok(())
    }

    /// Fails once the load is cancelled or the reader stopped.
    fn look(&self) -> io::Result<()> {
        if self.progress.cancelled() || self.stop.load(Ordering::Relaxed) {
            return Err(io::Error::other("stopped"));
        }
        Ok(())
    }
}

/// The line of `text` that starts at byte `at` (with its `\n`, as tobj splits lines), if
/// any.
fn line_at(text: &[u8], at: usize) -> Option<&[u8]> {
    let rest = text.get(at..).filter(|r| !r.is_empty())?;
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .map_or(rest.len(), |n| n + 1);
    Some(&rest[..end])
}

impl Read for Second<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_through_buffer(self, buf)
    }
}

impl BufRead for Second<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.own.is_none() && self.at == self.end {
            self.look()?;
            self.next_run()?;
        }
        match &mut self.own {
            Some(own) => own.fill_buf(),
            None => Ok(&self.text[self.at..self.end]),
        }
    }

    fn consume(&mut self, amt: usize) {
        match &mut self.own {
            Some(own) => own.consume(amt),
            None => self.at += amt,
        }
    }
}

/// A second reader that stops before it has told the first where the split is (it failed,
/// or it was stopped) tells it so, so that the first never waits for ever.
impl Drop for Second<'_> {
    fn drop(&mut self) {
        self.signal.tell(Found::Abandoned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All that a reader hands out, and the signal's state after.
    fn drain(reader: &mut impl BufRead) -> String {
        let mut out = String::new();
        reader.read_to_string(&mut out).expect("reads");
        out
    }

    /// What the second reader of `text` reads (split looked for from `aim`), and what it
    /// told.
    fn second(text: &str, aim: usize) -> (String, Found) {
        let (signal, progress, stop) = (
            Signal::default(),
            Progress::default(),
            AtomicBool::new(false),
        );
        let read = drain(&mut Second::new(text, aim, &signal, &progress, &stop));
        let found = *signal.found.lock().expect("not poisoned");
        (read, found)
    }

    #[test]
    fn the_second_reader_reads_every_line_before_the_split_but_the_faces() {
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n  f 1 2 3\nusemtl a\nl 1 2\nfx 1\n\nvt 0 0\r\nf 1/1 2/1 3/1\nf 3 2 1";
        let at = text.find("f 1/1").expect("there");
        let (read, found) = second(text, at);
        assert_eq!(found, Found::At(at));
        assert_eq!(
            read,
            format!(
                "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nfx 1\n\nvt 0 0\r\n{}",
                &text[at..]
            )
        );
        // A face after Unicode whitespace is a face to tobj (its words split there).
        let text = "v 0 0 0\n\u{a0}f 1 1 1\nv 1 1 1\nf 1 1 1\n";
        let at = text.rfind("f 1").expect("there");
        assert_eq!(
            second(text, at),
            (format!("v 0 0 0\nv 1 1 1\n{}", &text[at..]), Found::At(at))
        );
    }

    #[test]
    fn the_first_reader_reads_up_to_the_split_it_is_told() {
        let text = "v 0 0 0\nf 1 1 1\nf 1 1 1\nf 1 1 1\n";
        for (found, read) in [(Found::At(16), &text[..16]), (Found::Nowhere, text)] {
            let signal = Signal::default();
            signal.tell(found);
            assert_eq!(drain(&mut First::new(text, 10, &signal)), read);
        }
        let signal = Signal::default();
        signal.tell(Found::Abandoned);
        let mut out = String::new();
        assert!(
            First::new(text, 10, &signal)
                .read_to_string(&mut out)
                .is_err()
        );
        // Up to the aim it reads without waiting.
        assert_eq!(
            First::new(text, 10, &Signal::default())
                .fill_buf()
                .expect("reads"),
            &text.as_bytes()[..10]
        );
    }

    #[test]
    fn a_long_run_of_lines_is_handed_out_in_runs_of_whole_lines() {
        let text: String = (0..20_000).map(|i| format!("v {i} 0 0\n")).collect();
        let (signal, progress, stop) = (
            Signal::default(),
            Progress::default(),
            AtomicBool::new(false),
        );
        let mut reader = Second::new(&text, text.len(), &signal, &progress, &stop);
        let run = reader.fill_buf().expect("reads").len();
        assert!((RUN_BYTES..RUN_BYTES + 20).contains(&run), "{run}");
        assert_eq!(text.as_bytes()[run - 1], b'\n');
        reader.consume(run);
        assert_eq!(drain(&mut reader), text[run..]);
        assert_eq!(*signal.found.lock().expect("not poisoned"), Found::Nowhere);
    }

    #[test]
    fn the_split_is_the_first_face_from_the_aim_where_an_object_may_end() {
        let vertices: String = (0..300).map(|_| "v 0 0 0\n").collect();
        let faces: String = (0..100).map(|_| "f 1 2 3\n").collect();
        let text = format!("{vertices}{faces}");
        assert_eq!(aim(&text), vertices.len() + 50 * 8);
        assert_eq!(second(&text, aim(&text) - 3).1, Found::At(aim(&text)));
        // The object's first face names vertex 4, defined at the end: no split after it
        // (before it is one, the first reader reading none of the object's faces).
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\nf 1 2 3\nf 1 2 3\nv 1 1 1\n";
        assert_eq!(second(text, 0).1, Found::At(24));
        assert_eq!(second(text, 25).1, Found::Nowhere);
        // A new object after the vertex ends the wait.
        let text = format!("{text}o b\nf 1 2 3\nf 1 2 3\n");
        let at = text.find("o b\n").expect("there") + 4;
        assert_eq!(second(&text, 25).1, Found::At(at));
        // A spawn marker is not split; the object after it is.
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\no spawn\nf 1 2 3\nf 1 2 3\no floor\nf 1 2 3\n";
        let floor = text.find("o floor\n").expect("there") + 8;
        assert_eq!(second(text, 0).1, Found::At(floor));
        // Colours after the faces that use them: no split while a position has none and
        // some have (the first reader would export its part without them, and fail);
        // every position coloured, a split.
        let text = "v 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 3\nv 0 0 0 1 1 1\nf 1 2 3\n";
        assert_eq!(second(text, 30).1, Found::Nowhere);
        let text = "v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 1\nf 1 2 3\nf 1 2 3\n";
        assert_eq!(second(text, 45).1, Found::At(text.len() - 8));
        // Never before the first line.
        assert_eq!(second("f 1 1 1\nv 0 0 0\nf 1 1 1\n", 0).1, Found::At(16));
    }

    #[test]
    fn a_second_reader_that_stops_before_the_split_tells_the_first() {
        let text = "v 0 0 0\nf 1 1 1\nf 1 1 1\n";
        let (signal, progress, stop) = (
            Signal::default(),
            Progress::default(),
            AtomicBool::new(true),
        );
        let mut reader = Second::new(text, 10, &signal, &progress, &stop);
        assert!(reader.fill_buf().is_err());
        drop(reader);
        assert_eq!(signal.wait(), Found::Abandoned);
    }
}
