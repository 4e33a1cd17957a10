//! The debug view's state (key G, `--debug-view`): what the last steps asked of the
//! collision world, kept for drawing. The simulation steps through a
//! [`Recorder`](walkthrough_core::collision::Recorder) while it is on, which changes no answer.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use glam::Vec3;

use walkthrough_core::collision::{Account, Collider, Contact, Response};
use walkthrough_core::player::StepReport;

use super::render::DebugGeometry;

/// How long a touched triangle stays highlighted.
const TOUCH_SHOWN: Duration = Duration::from_millis(500);
/// Most touched triangles kept (a slide along a cut-up wall touches one a step).
const MAX_TOUCHED: usize = 64;
/// Length of the drawn contact normal, metres.
const NORMAL_LENGTH: f32 = 0.4;
/// Colours: a stopped move's triangle, a slid one's, the tested triangles' outlines, the
/// contact normal.
const STOP_FILL: [f32; 4] = [1.0, 0.15, 0.1, 0.55];
const SLIDE_FILL: [f32; 4] = [1.0, 0.8, 0.0, 0.55];
const TESTED_LINE: [f32; 4] = [0.2, 0.9, 1.0, 0.8];
const NORMAL_LINE: [f32; 4] = [0.1, 1.0, 0.2, 1.0];

/// A triangle a step touched.
struct Touch {
    triangle: u32,
    response: Response,
    at: Instant,
}

/// The debug view's state.
#[derive(Default)]
pub struct DebugView {
    /// Shown.
    pub on: bool,
    /// The last step's sweeps, contacts and candidate triangles.
    pub account: Account,
    touched: VecDeque<Touch>,
    /// The last contact that changed a move.
    pub last_contact: Option<Contact>,
    /// Height of the last step-up, metres.
    pub last_step_up: f32,
    /// The overlay's vertices, rebuilt each frame into the same memory.
    pub geometry: DebugGeometry,
}

impl DebugView {
    /// The view, shown or not.
    pub fn new(on: bool) -> DebugView {
        DebugView {
            on,
            ..DebugView::default()
        }
    }

    /// Take note of a step just recorded into [`DebugView::account`]: the contact that
    /// changed its move (not the floor it merely stood on) is highlighted.
    pub fn after_step(&mut self, response: Response, report: &StepReport, now: Instant) {
        if let Some(c) = report.contact.filter(|_| report.hit) {
            if self.touched.len() == MAX_TOUCHED {
                self.touched.pop_front();
            }
            self.touched.push_back(Touch {
                triangle: c.triangle,
                response,
                at: now,
            });
            self.last_contact = Some(c);
        }
        if report.stepped_up > 0.0 {
            self.last_step_up = report.stepped_up;
        }
    }

    /// The angle of the last contact's normal from straight up, degrees (0: a floor,
    /// 90: a wall).
    pub fn last_normal_deg(&self) -> Option<f32> {
        self.last_contact
            .map(|c| c.normal.dot(Vec3::Y).clamp(-1.0, 1.0).acos().to_degrees())
    }

    /// Fill [`DebugView::geometry`] for this frame from `world`'s triangles: the touched
    /// ones filled (red stopped, yellow slid), the last step's tested ones outlined, each
    /// contact's point and normal as a line.
    pub fn build(&mut self, world: &dyn Collider, now: Instant) {
        self.geometry.clear();
        while self
            .touched
            .front()
            .is_some_and(|t| now.duration_since(t.at) > TOUCH_SHOWN)
        {
            self.touched.pop_front();
        }
        for t in &self.touched {
            if let Some(corners) = world.triangle(t.triangle) {
                let fill = match t.response {
                    Response::Stop => STOP_FILL,
                    Response::Slide => SLIDE_FILL,
                };
                self.geometry.triangle(corners, fill);
            }
        }
        // A triangle tested by several sweeps is outlined once.
        self.account.tested.sort_unstable();
        self.account.tested.dedup();
        for &i in &self.account.tested {
            if let Some(corners) = world.triangle(i) {
                self.geometry.outline(corners, TESTED_LINE);
            }
        }
        for c in &self.account.contacts {
            self.geometry
                .line(c.point, c.point + c.normal * NORMAL_LENGTH, NORMAL_LINE);
        }
    }
}
