//! Counting each frame's fragments, for benchmarks (`--bench-frames`): those the fragment
//! shader ran for, where the driver counts them, and those that passed the depth test,
//! opaque and cut-out apart. Counting waits for the frame to finish.
#![allow(unsafe_code)] // every OpenGL call is unsafe; unsafe code lives only in the GL files

use glow::HasContext;

/// Runs of draws a frame's samples are counted in: two passes, each opaque then cut-out
/// (past the fourth, which two passes never reach, the last one goes on).
const RUNS: usize = 4;

/// What the last frame drew.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DrawStats {
    /// Clusters the view's frustum may see, of all.
    pub clusters: usize,
    /// Triangles submitted.
    pub triangles: usize,
    /// Draw calls.
    pub draws: usize,
    /// The fragment shader's invocations, where the driver counts them (when counting;
    /// see [`super::Renderer::count_fragments`]). Mesa's llvmpipe counts every fragment
    /// rasterized, before the depth test: the same whatever the drawing order.
    pub shaded: Option<u64>,
    /// Fragments that passed the depth test (when counting): samples that passed, over
    /// the samples a pixel where the frame is multisampled.
    pub passed: Option<u64>,
    /// Of those, the fragments of opaque clusters (when counting).
    pub passed_opaque: Option<u64>,
}

/// The queries that count a frame's fragments; none while not counting.
#[derive(Debug, Default)]
pub struct FragmentCounters {
    /// The fragment shader's invocations (GL 4.6 or ARB_pipeline_statistics_query).
    invocations: Option<glow::Query>,
    /// A samples-passed query for each run.
    samples: Vec<glow::Query>,
    /// This frame's runs: the query and whether its draws were cut-outs.
    runs: Vec<(glow::Query, bool)>,
    /// Between `begin_frame` and `end_frame`: draws after the frame's end (a mirror's
    /// reflection) are not counted, so no query is left running into the next frame.
    counting: bool,
    /// Samples a pixel of the framebuffer this frame is drawn into: a samples-passed
    /// query counts samples, so a multisampled frame's counts are divided by it to be
    /// fragments a pixel as a single-sampled frame's are.
    samples_a_pixel: u64,
}

impl FragmentCounters {
    /// Queries to count with on `gl` (current), or none when `on` is false or the driver
    /// makes none.
    pub fn new(gl: &glow::Context, on: bool) -> FragmentCounters {
        let mut c = FragmentCounters::default();
        if !on {
            return c;
        }
        let v = gl.version();
        let statistics = gl
            .supported_extensions()
            .contains("GL_ARB_pipeline_statistics_query")
            || (v.major, v.minor) >= (4, 6);
        // SAFETY: context current; the queries are owned by the counters and deleted by
        // `delete`.
        unsafe {
            if statistics {
                c.invocations = gl.create_query().ok();
            }
            for _ in 0..RUNS {
                match gl.create_query() {
                    Ok(q) => c.samples.push(q),
                    Err(_) => {
                        c.samples.drain(..).for_each(|q| gl.delete_query(q));
                        break;
                    }
                }
            }
        }
        c
    }

    /// Delete the queries (the context that made them current).
    pub fn delete(&mut self, gl: &glow::Context) {
        for q in self
            .invocations
            .take()
            .into_iter()
            .chain(self.samples.drain(..))
        {
            // SAFETY: context current; the query was made by `new` on it.
            unsafe { gl.delete_query(q) };
        }
        self.runs.clear();
    }

    /// Start counting a frame.
    pub fn begin_frame(&mut self, gl: &glow::Context) {
        self.runs.clear();
        if self.samples.is_empty() && self.invocations.is_none() {
            return;
        }
        self.counting = true;
        // SAFETY: context current; no other invocations query is active; SAMPLES is the
        // bound draw framebuffer's (0 where it is single-sampled).
        unsafe {
            self.samples_a_pixel = gl.get_parameter_i32(glow::SAMPLES).max(1) as u64;
            if let Some(q) = self.invocations {
                gl.begin_query(glow::FRAGMENT_SHADER_INVOCATIONS, q);
            }
        }
    }

    /// Before a draw of opaque geometry (`cutout` false) or cut-outs: a new run begins
    /// where the kind changes.
    pub fn before_draw(&mut self, gl: &glow::Context, cutout: bool) {
        if !self.counting || self.runs.last().is_some_and(|&(_, c)| c == cutout) {
            return;
        }
        let Some(&q) = self.samples.get(self.runs.len()) else {
            return;
        };
        // SAFETY: context current; one samples query is active at a time: the last
        // run's is ended before the next begins.
        unsafe {
            if !self.runs.is_empty() {
                gl.end_query(glow::SAMPLES_PASSED);
            }
            gl.begin_query(glow::SAMPLES_PASSED, q);
        }
        self.runs.push((q, cutout));
    }

    /// End the frame's counting and put its counts into `stats` (left as they are while
    /// not counting).
    pub fn end_frame(&mut self, gl: &glow::Context, stats: &mut DrawStats) {
        if !std::mem::take(&mut self.counting) {
            return;
        }
        // SAFETY: context current; the queries ended here were begun in `begin_frame`
        // and `before_draw`.
        unsafe {
            if let Some(q) = self.invocations {
                gl.end_query(glow::FRAGMENT_SHADER_INVOCATIONS);
                stats.shaded = Some(u64::from(gl.get_query_parameter_u32(q, glow::QUERY_RESULT)));
            }
            if !self.runs.is_empty() {
                gl.end_query(glow::SAMPLES_PASSED);
            }
            if !self.samples.is_empty() {
                let (mut all, mut opaque) = (0, 0);
                for &(q, cutout) in &self.runs {
                    let n = u64::from(gl.get_query_parameter_u32(q, glow::QUERY_RESULT));
                    all += n;
                    opaque += if cutout { 0 } else { n };
                }
                let per = self.samples_a_pixel;
                (stats.passed, stats.passed_opaque) = (Some(all / per), Some(opaque / per));
            }
        }
    }
}
