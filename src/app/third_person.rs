//! Third person in the window (V, `--third-person`, a script's `view third|first`): the
//! camera on the boom ([`walkthrough_core::player::Boom`]: a small sphere swept back from the
//! head), and the figure drawn where the body stands. Only the view changes: the walk and
//! its trace never read any of it.

use std::time::Instant;

use glam::Vec3;

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
/// A camera this far from the figure (metres, see [`figure::distance_to`]) or farther
/// sees it opaque: from there (the boom's default is 3 m) the figure stands below the
/// crosshair, clear of what the walker looks at; nearer, it covers more of the view.
const FIGURE_OPAQUE_FROM: f32 = 1.2;
/// A camera this close to the figure sees nothing of it: pushed in by a wall behind, the
/// boom brings the camera to the back of the head, which would fill the view and hide
/// the crosshair's aim; between this and [`FIGURE_OPAQUE_FROM`] it fades in linearly.
const FIGURE_GONE_UNDER: f32 = 0.4;

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
        let (body, centre) = self.figure_body();
        let alpha = figure_alpha(figure::distance_to(&body, centre, view.pose.position));
        if view.length >= FIGURE_HIDDEN_UNDER && alpha > 0.0 {
            self.place_figure(alpha, solid);
        }
        // Said only while the map holds the boom in (not while it eases back out).
        self.camera.third.pressed_in = view.blocked && view.length < FIGURE_HIDDEN_UNDER;
        view.pose
    }

    /// The body the figure is drawn as, and its centre.
    fn figure_body(&self) -> (Body, Vec3) {
        let controller = &self.sim.controller;
        // Flying, the body is the eye's small sphere: the figure stands as a walker.
        let body = match controller.settings.mode {
            Mode::Walk => controller.body(),
            Mode::Fly => Body::WALKER,
        };
        // Drawn where the eye is drawn (eased over step-ups, as the view is).
        (body, body.centre_of(controller.view_pose().position))
    }

    /// The walker's figure where the body stands, `alpha` opaque, added to `solid`
    /// (third person, and every mirror's reflection).
    pub(super) fn place_figure(&self, alpha: f32, solid: &mut Vec<DebugVertex>) {
        let Some(figure) = &self.camera.third.figure else {
            return;
        };
        let (body, centre) = self.figure_body();
        let yaw = self.sim.controller.view_pose().yaw_deg;
        figure.place(&body, centre, yaw, alpha, solid);
    }
}

/// How opaque the figure is drawn from a camera `distance` metres from it: none under
/// [`FIGURE_GONE_UNDER`], wholly from [`FIGURE_OPAQUE_FROM`], linear between.
fn figure_alpha(distance: f32) -> f32 {
    ((distance - FIGURE_GONE_UNDER) / (FIGURE_OPAQUE_FROM - FIGURE_GONE_UNDER)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figure_fades_out_as_the_camera_comes_close() {
        assert_eq!(figure_alpha(3.0), 1.0);
        assert_eq!(figure_alpha(FIGURE_OPAQUE_FROM), 1.0);
        assert!((figure_alpha(0.8) - 0.5).abs() < 1e-6);
        assert_eq!(figure_alpha(FIGURE_GONE_UNDER), 0.0);
        assert_eq!(figure_alpha(0.1), 0.0);
    }
}
