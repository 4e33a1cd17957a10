//! Where the picture is drawn from: the walker's eye, the detached camera (Shift+V) or the
//! boom behind the head (V); and the pose the last frame was drawn from, which the
//! crosshair's ray starts at.

use std::time::Instant;

use walkthrough_core::player::Pose;

use super::free_camera::FreeCamera;
use super::third_person::ThirdPerson;

/// The view's cameras and what the last frame was drawn from.
pub struct Camera {
    /// The detached camera (Shift+V): the view flies, the body stands.
    pub free_camera: Option<FreeCamera>,
    /// The third-person camera's boom and the figure (V).
    pub third: ThirdPerson,
    /// The pose the last frame was drawn from (the crosshair's ray: the eye, or the
    /// third-person camera).
    pub drawn_from: Pose,
    /// The look (the walker's, or the detached camera's) when it was drawn: what the view
    /// has turned since is added to the crosshair's ray (see [`Camera::aim_now`]).
    pub drawn_look: Pose,
    /// A saved view was just taken: the next step says if the body had to be moved.
    pub view_placed: bool,
}

impl Camera {
    /// The walker's eye, the boom at rest, nothing drawn yet.
    pub fn new() -> Camera {
        Camera {
            free_camera: None,
            third: ThirdPerson::new(),
            drawn_from: Pose::default(),
            drawn_look: Pose::default(),
            view_placed: false,
        }
    }

    /// The look the mouse turns: the detached camera's, or the walker's `walker`.
    pub fn looking(&self, walker: Pose) -> Pose {
        self.free_camera.as_ref().map_or(walker, |c| c.pose)
    }

    /// The crosshair's ray now, the walker looking as `walker`: the view last drawn,
    /// turned by what the look has turned since. A right click just after a mouse move
    /// stuck the decal where the view had been (2 of 7 quick clicks, at 30 frames a
    /// second).
    pub fn aim_now(&self, walker: Pose) -> Pose {
        let (now, then) = (self.looking(walker), self.drawn_look);
        let mut eye = self.drawn_from;
        eye.turn(now.yaw_deg - then.yaw_deg, now.pitch_deg - then.pitch_deg);
        eye
    }

    /// The walk took `steps` steps: whether they are the first since a saved view was
    /// taken (the step that says if the body had to be moved; once).
    pub fn placed_view_stepped(&mut self, steps: u32) -> bool {
        let first = self.view_placed && steps > 0;
        if first {
            self.view_placed = false;
        }
        first
    }

    /// Detach the view at `eye` (Shift+V), or put it back on the walker.
    pub fn toggle_detached(&mut self, eye: Pose) {
        self.free_camera = match self.free_camera {
            Some(_) => None,
            None => Some(FreeCamera::at(eye, Instant::now())),
        };
    }
}
