//! Third person in the window (V, `--third-person`, a script's `view third|first`): the
//! camera on the boom ([`walkthrough_core::player::Boom`]: a small sphere swept back from the
//! head), and the figure drawn where the body stands. Only the view changes: the walk and
//! its trace never read any of it.

use std::time::Instant;

use walkthrough_core::collision::Body;
use walkthrough_core::player::{BOOM_LENGTH_RANGE, Boom, BoomSettings, Mode, Pose, ViewKind};

mod figure;

use super::App;
use super::render::DebugVertex;
use figure::Figure;

/// Boom length a notch of Ctrl + the mouse wheel adds or takes, metres.
pub const BOOM_PER_NOTCH: f32 = 0.25;
/// Under this boom length the camera is inside the head: the figure is not drawn.
const FIGURE_HIDDEN_UNDER: f32 = 0.35;

/// The boom's state and the figure.
pub struct ThirdPerson {
    boom: Boom,
    /// When the last frame's camera was placed (the ease back out needs the time between).
    last: Option<Instant>,
    /// The figure (`None` if the embedded OBJ would not load: said once, not drawn).
    figure: Option<Figure>,
    /// Last frame's boom was pushed in so far that the figure was not drawn (a wall
    /// right behind): the HUD says so, or the view looks like first person for no reason.
    pub pressed_in: bool,
}

impl ThirdPerson {
    /// The boom at rest and the figure loaded.
    pub fn new() -> ThirdPerson {
        let figure = Figure::new()
            .inspect_err(|e| tell!("warning: the figure is not drawn: {e}"))
            .ok();
        ThirdPerson {
            boom: Boom::default(),
            last: None,
            figure,
            pressed_in: false,
        }
    }
}

impl App {
    /// V: first person or third person, for this run and saved.
    pub(super) fn next_view(&mut self) {
        let third = !self.prefs.live.third_person;
        self.set_view(if third {
            ViewKind::Third
        } else {
            ViewKind::First
        });
        self.prefs.saved.third_person = third;
        self.prefs.changed_at = Some(Instant::now());
        self.overlays.hud.notify(
            if third {
                "third person: Ctrl + the mouse wheel sets the boom's length (V: first person)"
            } else {
                "first person (V: third person)"
            }
            .into(),
        );
    }

    /// Show the walk from `kind`'s camera (for this run; a script's `view` line).
    pub(super) fn set_view(&mut self, kind: ViewKind) {
        self.prefs.live.third_person = kind == ViewKind::Third;
        self.camera.third.boom.reset();
        self.sim.record_set(&format!("view {kind}"));
    }

    /// Ctrl + the mouse wheel: the boom `notches` longer (negative: shorter), within
    /// [`BOOM_LENGTH_RANGE`], saved.
    pub(super) fn lengthen_boom(&mut self, notches: f32) {
        let length = (self.prefs.live.boom_length - notches * BOOM_PER_NOTCH)
            .clamp(*BOOM_LENGTH_RANGE.start(), *BOOM_LENGTH_RANGE.end());
        self.prefs.live.boom_length = length;
        self.prefs.saved.boom_length = length;
        self.prefs.changed_at = Some(Instant::now());
        self.overlays
            .hud
            .notify(format!("third-person boom {length:.2} m"));
    }

    /// The pose the scene is drawn from at `now`: the eye, or in third person the camera
    /// on the boom (the figure then added to `solid`).
    pub(super) fn camera_pose(&mut self, now: Instant, solid: &mut Vec<DebugVertex>) -> Pose {
        let controller = &self.sim.controller;
        let eye = controller.view_pose();
        let t = &mut self.camera.third;
        let dt = t
            .last
            .map_or(0.0, |l| now.saturating_duration_since(l).as_secs_f32());
        if !self.prefs.live.third_person {
            t.last = None;
            t.pressed_in = false;
            return eye;
        }
        t.last = Some(now);
        let settings = BoomSettings {
            length: self.prefs.live.boom_length,
            ..BoomSettings::default()
        };
        let head = controller.pose.position;
        let view = t
            .boom
            .frame(self.sim.session.collider(), &settings, head, &eye, dt);
        if view.length >= FIGURE_HIDDEN_UNDER {
            self.place_figure(solid);
        }
        // Said only while the map holds the boom in (not while it eases back out).
        self.camera.third.pressed_in = view.blocked && view.length < FIGURE_HIDDEN_UNDER;
        view.pose
    }

    /// The walker's figure where the body stands, added to `solid` (third person, and
    /// every mirror's reflection).
    pub(super) fn place_figure(&self, solid: &mut Vec<DebugVertex>) {
        let Some(figure) = &self.camera.third.figure else {
            return;
        };
        let controller = &self.sim.controller;
        let eye = controller.view_pose();
        // Flying, the body is the eye's small sphere: the figure stands as a walker.
        let body = match controller.settings.mode {
            Mode::Walk => controller.body(),
            Mode::Fly => Body::WALKER,
        };
        // Drawn where the eye is drawn (eased over step-ups, as the view is).
        let centre = body.centre_of(eye.position);
        figure.place(&body, centre, eye.yaw_deg, solid);
    }
}
