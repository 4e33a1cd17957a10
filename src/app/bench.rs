//! `--bench-frames N`: what each of N frames took and drew, the summary line printed at
//! the end, and with `--bench-out FILE` a row a frame (to find which frames are slow: a
//! 95th percentile is made of a handful of them).

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Duration;

use walkthrough_core::files::output::PartialFile;

use super::render::DrawStats;

/// Simulated time per frame under `--bench-frames`: the walk moves on by this however long
/// a frame took, so every run and every map walks its script in the same frames.
pub const BENCH_FRAME_TIME: Duration = Duration::from_nanos(1_000_000_000 / 30);

/// The columns of `--bench-out`'s rows (README: "Frame rows").
pub const BENCH_COLUMNS: &str = "frame,ms,triangles,draws,clusters,rasterized,passed,passed_opaque";

/// The frames measured so far, and where their rows go.
pub struct Bench {
    /// Frames to measure.
    frames: usize,
    /// What each frame took.
    times: Vec<Duration>,
    /// What each frame drew.
    stats: Vec<DrawStats>,
    /// `--bench-out`'s file, created when the run began (so that a name it refuses is
    /// refused before the window opens), put in place at the end.
    out: Option<PartialFile>,
    /// Pixels in the window at the last frame (for fragments a pixel).
    pixels: f64,
}

impl Bench {
    /// Measure `frames` frames; their rows go to `out` when given.
    pub fn new(frames: u32, out: Option<PartialFile>) -> Bench {
        Bench {
            frames: frames as usize,
            times: Vec::with_capacity(frames as usize),
            stats: Vec::with_capacity(frames as usize),
            out,
            pixels: 1.0,
        }
    }

    /// Frames measured so far.
    pub fn measured(&self) -> usize {
        self.times.len()
    }

    /// A frame took `time` and drew `stats` in a window of `pixels` pixels; whether that
    /// was the last to measure.
    pub fn record(&mut self, time: Duration, stats: DrawStats, pixels: f64) -> bool {
        self.times.push(time);
        self.stats.push(stats);
        self.pixels = pixels.max(1.0);
        self.times.len() >= self.frames
    }

    /// Print the summary line (frame times: median, 95th percentile, worst; per frame,
    /// medians: triangles and draw calls submitted, fragments per pixel) and write the
    /// rows, if asked for. An error names what was not written.
    pub fn report(&mut self, peak_memory: &str) -> Result<(), String> {
        // (A closed standard output, `... | head -0`, loses the line and ends nothing.)
        let line = summary(&self.times, &self.stats, self.pixels, peak_memory);
        let _ = writeln!(std::io::stdout(), "{line}");
        self.write_rows()
    }

    /// Write the rows measured so far to `--bench-out`'s file, once.
    fn write_rows(&mut self) -> Result<(), String> {
        let Some(mut out) = self.out.take() else {
            return Ok(());
        };
        let path = out.target().display().to_string();
        out.write_all(rows(&self.times, &self.stats, self.pixels).as_bytes())
            .and_then(|()| out.commit())
            .map_err(|e| format!("{path}: cannot write the frame rows: {e}"))
    }
}

impl Drop for Bench {
    /// A window closed before its frames were all measured still leaves the rows of
    /// those it drew (and no `.partial` file).
    fn drop(&mut self) {
        if let Err(e) = self.write_rows() {
            tell!("walkthrough: {e}");
        }
    }
}

/// Fragments a pixel: `None` (not counted) as NaN (see [`shown`]).
fn per_pixel(n: Option<u64>, pixels: f64) -> f64 {
    n.map_or(f64::NAN, |f| f as f64 / pixels.max(1.0))
}

/// A count a pixel as the summary prints it: "n/a" where the driver did not count.
fn shown(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else {
        format!("{x:.2}")
    }
}

/// The benchmark's line.
fn summary(times: &[Duration], stats: &[DrawStats], pixels: f64, peak_memory: &str) -> String {
    let mut t: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    t.sort_by(f64::total_cmp);
    let at = |q: f64| {
        t.get(((t.len().max(1) - 1) as f64 * q).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    let median_of = |f: &dyn Fn(&DrawStats) -> f64| {
        let mut v: Vec<f64> = stats.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    let shaded = shown(median_of(&|s| per_pixel(s.shaded, pixels)));
    let passed = shown(median_of(&|s| per_pixel(s.passed, pixels)));
    let opaque = shown(median_of(&|s| per_pixel(s.passed_opaque, pixels)));
    format!(
        "frames {}  median {:.2} ms ({:.0} fps)  p95 {:.2} ms  worst {:.2} ms  triangles {:.0}  draw calls {:.0}  per pixel: rasterized {shaded}, passed depth {passed} (opaque {opaque})  peak memory {peak_memory}",
        t.len(),
        at(0.5),
        1000.0 / at(0.5),
        at(0.95),
        at(1.0),
        median_of(&|s| s.triangles as f64),
        median_of(&|s| s.draws as f64),
    )
}

/// The rows of `--bench-out`: [`BENCH_COLUMNS`], then a row a frame; a count the driver
/// did not give is left empty.
fn rows(times: &[Duration], stats: &[DrawStats], pixels: f64) -> String {
    let mut out = format!("{BENCH_COLUMNS}\n");
    let cell = |n: Option<u64>| n.map_or(String::new(), |_| format!("{:.3}", per_pixel(n, pixels)));
    for (i, (t, s)) in times.iter().zip(stats).enumerate() {
        let _ = writeln!(
            out,
            "{i},{:.3},{},{},{},{},{},{}",
            t.as_secs_f64() * 1e3,
            s.triangles,
            s.draws,
            s.clusters,
            cell(s.shaded),
            cell(s.passed),
            cell(s.passed_opaque),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(triangles: usize, shaded: Option<u64>) -> DrawStats {
        DrawStats {
            clusters: 3,
            triangles,
            draws: 2,
            shaded,
            passed: shaded.map(|n| n / 2),
            passed_opaque: shaded.map(|n| n / 4),
        }
    }

    #[test]
    fn rows_give_each_frame_its_time_and_counts_and_leave_uncounted_cells_empty() {
        let times = [Duration::from_micros(12_500), Duration::from_micros(40_250)];
        let s = [stats(100, Some(800)), stats(7, None)];
        let text = rows(&times, &s, 400.0);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], BENCH_COLUMNS);
        assert_eq!(lines[1], "0,12.500,100,2,3,2.000,1.000,0.500");
        assert_eq!(lines[2], "1,40.250,7,2,3,,,");
        assert_eq!(lines.len(), 3);
        // Every row has as many cells as the header names.
        let columns = BENCH_COLUMNS.split(',').count();
        assert!(lines.iter().all(|l| l.split(',').count() == columns));
    }

    #[test]
    fn summary_takes_the_median_and_95th_percentile_of_the_frame_times() {
        // 1..=20 ms in a shuffled order: the median of 20 is the 11th (index 9.5
        // rounded), the 95th percentile the 19th.
        let times: Vec<Duration> = (1..=20u64)
            .map(|k| Duration::from_millis((k * 7) % 20 + 1))
            .collect();
        let s: Vec<DrawStats> = (0..20).map(|k| stats(k, Some(1000))).collect();
        let line = summary(&times, &s, 1000.0, "9 MiB");
        assert!(line.starts_with("frames 20  median 11.00 ms"), "{line}");
        assert!(line.contains("p95 19.00 ms  worst 20.00 ms"), "{line}");
        assert!(line.contains("triangles 10  draw calls 2"), "{line}");
        assert!(
            line.contains("rasterized 1.00, passed depth 0.50 (opaque 0.25)"),
            "{line}"
        );
        assert!(line.ends_with("peak memory 9 MiB"), "{line}");
        // A driver that counts nothing: said so, not "NaN".
        let uncounted: Vec<DrawStats> = (0..20).map(|k| stats(k, None)).collect();
        let line = summary(&times, &uncounted, 1000.0, "9 MiB");
        assert!(
            line.contains("per pixel: rasterized n/a, passed depth n/a (opaque n/a)"),
            "{line}"
        );
    }
}
