//! How far a load has come, told across threads: the bytes of the map file parsed so
//! far, then the stage it is in; and whether whoever waits for it has given up (the
//! window's Esc), so that the loader stops at its next look. Plain atomics: the loader
//! never waits on the one who watches.

use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Duration;

/// A load shows its progress (the window's bar, the terminal's line) once it has taken
/// this long: a shorter one would only flash.
pub const PROGRESS_AFTER: Duration = Duration::from_millis(500);

use crate::files::read_through_buffer;

/// A load's stages, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Reading and parsing the file (see [`Progress::bytes`]).
    Reading,
    /// Triangulating the faces into the map's triangles.
    Triangles,
    /// Building the collision world (and the renderer's closed solids beside it).
    World,
    /// Surveying the map's up axis, scale and spawn.
    Survey,
    /// The survey done, waiting for the built map to be written to the cache of built
    /// maps (on a first open of a big map, seconds: a ten-million-triangle map is a
    /// 1.3 GB file).
    Keeping,
    /// Read from the cache of built maps instead.
    Cached,
    /// Preparing the map for drawing (a load in the window): cutting it into the
    /// renderer's clusters and making its minimap.
    Clusters,
    /// Done.
    Done,
}

impl Stage {
    /// Every stage, in the order declared (a stage is stored as its index here).
    const ALL: [Stage; 8] = [
        Stage::Reading,
        Stage::Triangles,
        Stage::World,
        Stage::Survey,
        Stage::Keeping,
        Stage::Cached,
        Stage::Clusters,
        Stage::Done,
    ];

    /// What the loading screen says.
    pub fn label(self) -> &'static str {
        match self {
            Stage::Reading => "reading",
            Stage::Triangles => "making triangles",
            Stage::World => "building the collision world",
            Stage::Survey => "surveying",
            Stage::Keeping => "keeping it in the cache of built maps for the next open",
            Stage::Cached => "reading the cached map",
            Stage::Clusters => "preparing it for drawing",
            Stage::Done => "done",
        }
    }
}

/// How far a load has read its file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteCount {
    /// Bytes read so far.
    pub read: u64,
    /// The file's length (0 when not known yet).
    pub total: u64,
}

/// A load's progress, shared between the loader and a watcher.
#[derive(Debug)]
pub struct Progress {
    bytes: AtomicU64,
    total: AtomicU64,
    stage: AtomicU8,
    cancelled: AtomicBool,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            bytes: AtomicU64::new(0),
            total: AtomicU64::new(0),
            stage: AtomicU8::new(Stage::Reading as u8),
            cancelled: AtomicBool::new(false),
        }
    }
}

impl Progress {
    /// The file to read is `total` bytes long.
    pub fn set_total(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
    }

    /// `bytes` of it have been read.
    pub fn read(&self, bytes: u64) {
        self.bytes.store(bytes, Ordering::Relaxed);
    }

    /// `bytes` more of it have been read (by one of the readers reading it at once).
    pub fn advance(&self, bytes: u64) {
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    /// The load moves on to `stage`.
    pub fn enter(&self, stage: Stage) {
        self.stage.store(stage as u8, Ordering::Relaxed);
    }

    /// The stage it is in.
    pub fn stage(&self) -> Stage {
        let s = self.stage.load(Ordering::Relaxed) as usize;
        Stage::ALL[s.min(Stage::ALL.len() - 1)]
    }

    /// Bytes read and the file's length.
    pub fn bytes(&self) -> ByteCount {
        ByteCount {
            read: self.bytes.load(Ordering::Relaxed),
            total: self.total.load(Ordering::Relaxed),
        }
    }

    /// The fraction done, 0 to 1: reading is most of a load, so the bytes read fill the
    /// first 60% and each later stage a share of the rest; reading a cached map, the
    /// bytes of its file fill the first 80% (it then goes on to the survey: its world is
    /// built already).
    pub fn fraction(&self) -> f32 {
        let ByteCount { read, total } = self.bytes();
        let reading = if total == 0 {
            0.0
        } else {
            (read as f64 / total as f64).min(1.0) as f32
        };
        match self.stage() {
            Stage::Reading => 0.6 * reading,
            Stage::Triangles => 0.6,
            Stage::World => 0.7,
            Stage::Survey => 0.85,
            Stage::Keeping => 0.9,
            Stage::Cached => 0.8 * reading,
            Stage::Clusters => 0.95,
            Stage::Done => 1.0,
        }
    }

    /// What the load is doing, in words (the window's bar and the terminal's line): the
    /// megabytes parsed while reading, and once all are read, that the parser is making
    /// the meshes from them (it does so after the last byte: the bar stood at "104 of 104
    /// MB" for a second of 2.9 million triangles, as if stuck); the megabytes of a cached
    /// map read back; else the stage's label.
    pub fn doing(&self) -> String {
        doing(self.stage(), self.bytes())
    }

    /// Ask the loader to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether the loader was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// [`Progress::doing`] of `stage` with `bytes` (read, total) of the file parsed.
fn doing(stage: Stage, ByteCount { read, total }: ByteCount) -> String {
    match stage {
        Stage::Reading if total > 0 && read >= total => {
            format!("read all {:.0} MB, making its meshes", total as f64 / 1e6)
        }
        Stage::Reading if total > 0 => format!(
            "reading {:.0} of {:.0} MB",
            read as f64 / 1e6,
            total as f64 / 1e6
        ),
        Stage::Cached if total > 0 => format!(
            "reading the cached map, {:.0} of {:.0} MB",
            read as f64 / 1e6,
            total as f64 / 1e6
        ),
        stage => stage.label().to_string(),
    }
}

/// Bytes a [`Watched`] reader hands out between two looks at its flags.
const LOOK_EVERY: u64 = 1 << 20;

/// A reader that tells `progress` how many bytes it has handed out (adding them to what
/// other readers of the same load hand out), and fails (an error
/// of kind `Other`, which a parser does not retry) once `progress` is cancelled or `stop`
/// is set: the way to stop a parser that has no way to be stopped (tobj reads to the end
/// of its input).
pub struct Watched<'a, R> {
    inner: R,
    progress: &'a Progress,
    stop: &'a AtomicBool,
    /// Bytes handed out so far, and when the flags were last looked at.
    read: u64,
    looked: u64,
}

impl<'a, R: BufRead> Watched<'a, R> {
    /// Watch `inner` for `progress`; `stop` set by another thread stops it too.
    pub fn new(inner: R, progress: &'a Progress, stop: &'a AtomicBool) -> Self {
        Watched {
            inner,
            progress,
            stop,
            read: 0,
            looked: 0,
        }
    }
}

impl<R: BufRead> Read for Watched<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_through_buffer(self, buf)
    }
}

impl<R: BufRead> BufRead for Watched<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.read >= self.looked + LOOK_EVERY || self.read == 0 {
            self.progress.advance(self.read - self.looked);
            self.looked = self.read;
            if self.progress.cancelled() || self.stop.load(Ordering::Relaxed) {
                return Err(io::Error::other("stopped"));
            }
        }
        let buf = self.inner.fill_buf()?;
        if buf.is_empty() && self.read > self.looked {
            // The end: the last bytes told too (with two readers, up to twice
            // `LOOK_EVERY` were never told, and the bar stopped short).
            self.progress.advance(self.read - self.looked);
            self.looked = self.read;
        }
        Ok(buf)
    }

    fn consume(&mut self, amt: usize) {
        self.read += amt as u64;
        self.inner.consume(amt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Readers of one load read to their ends tell every byte, added up (two readers of a
    /// text each leaving up to `LOOK_EVERY` untold would stop the bar short).
    #[test]
    fn readers_read_to_the_end_tell_every_byte() {
        let p = Progress::default();
        let stop = AtomicBool::new(false);
        let (a, b) = (vec![b'x'; 3 * LOOK_EVERY as usize + 17], vec![b'y'; 5]);
        for text in [&a, &b] {
            let mut out = Vec::new();
            Watched::new(text.as_slice(), &p, &stop)
                .read_to_end(&mut out)
                .expect("reads");
        }
        assert_eq!(p.bytes().read, (a.len() + b.len()) as u64);
    }

    #[test]
    fn the_fraction_follows_the_bytes_then_the_stages() {
        let p = Progress::default();
        assert_eq!(p.fraction(), 0.0);
        p.set_total(4_000_000);
        p.read(2_000_000);
        assert_eq!(p.fraction(), 0.3);
        assert_eq!(p.doing(), "reading 2 of 4 MB");
        p.enter(Stage::World);
        assert_eq!((p.stage(), p.fraction()), (Stage::World, 0.7));
        assert_eq!(p.doing(), "building the collision world");
        p.enter(Stage::Done);
        assert_eq!(p.fraction(), 1.0);
        assert!(!p.cancelled());
        p.cancel();
        assert!(p.cancelled());
    }

    #[test]
    fn every_stage_is_read_back_as_entered_and_the_bar_never_goes_back() {
        // A stage is kept as its index in Stage::ALL: a stage added out of order there
        // would be read back as another.
        let p = Progress::default();
        p.set_total(10);
        p.read(10);
        let mut last = 0.0;
        for stage in Stage::ALL {
            p.enter(stage);
            assert_eq!(p.stage(), stage);
            // Cached is a path of its own (instead of reading and building), which goes
            // on to the survey without going back.
            if stage == Stage::Cached {
                let survey = Progress::default();
                survey.enter(Stage::Survey);
                assert!(p.fraction() <= survey.fraction());
            } else {
                assert!(p.fraction() >= last, "{stage:?} went back");
                last = p.fraction();
            }
        }
        p.enter(Stage::Clusters);
        assert_eq!(p.doing(), "preparing it for drawing");
    }

    #[test]
    fn the_loading_screen_stood_at_all_bytes_read_as_if_stuck() {
        let mb = 1_000_000;
        assert_eq!(
            doing(
                Stage::Reading,
                ByteCount {
                    read: 58 * mb,
                    total: 104 * mb
                }
            ),
            "reading 58 of 104 MB"
        );
        assert_eq!(
            doing(
                Stage::Reading,
                ByteCount {
                    read: 104 * mb,
                    total: 104 * mb
                }
            ),
            "read all 104 MB, making its meshes"
        );
        // The length not known yet: the stage alone.
        assert_eq!(
            doing(Stage::Reading, ByteCount { read: 0, total: 0 }),
            "reading"
        );
        assert_eq!(
            doing(
                Stage::World,
                ByteCount {
                    read: 104 * mb,
                    total: 104 * mb
                }
            ),
            "building the collision world"
        );
        // "reading the cached map" stood at 50% for seconds.
        assert_eq!(
            doing(
                Stage::Cached,
                ByteCount {
                    read: 650 * mb,
                    total: 1300 * mb
                }
            ),
            "reading the cached map, 650 of 1300 MB"
        );
        let p = Progress::default();
        p.enter(Stage::Cached);
        p.set_total(1300 * mb);
        p.read(650 * mb);
        assert_eq!(p.fraction(), 0.4);
    }

    #[test]
    fn a_watched_reader_counts_its_bytes_and_stops_when_told() {
        let text = vec![b'x'; 3 * LOOK_EVERY as usize];
        let (p, stop) = (Progress::default(), AtomicBool::new(false));
        let mut all = Vec::new();
        Watched::new(&text[..], &p, &stop)
            .read_to_end(&mut all)
            .unwrap();
        assert_eq!(all.len(), text.len());
        // The count is told at each look, the last one a whole look before the end at most.
        assert!(p.bytes().read >= 2 * LOOK_EVERY, "{:?}", p.bytes());
        stop.store(true, Ordering::Relaxed);
        let mut reader = Watched::new(&text[..], &p, &stop);
        assert!(reader.read_to_end(&mut Vec::new()).is_err());
        let (p, stop) = (Progress::default(), AtomicBool::new(false));
        p.cancel();
        let mut reader = Watched::new(&text[..], &p, &stop);
        assert!(reader.read(&mut [0; 16]).is_err());
    }
}
