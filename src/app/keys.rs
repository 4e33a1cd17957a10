//! Keyboard state to a move intent. Physical keys, so W/A/S/D sit in the same place on
//! every layout.

use winit::keyboard::KeyCode;

use walkthrough::player::MoveIntent;

/// Movement keys currently held.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeldKeys {
    forward: bool,
    back: bool,
    left: bool,
    right: bool,
    up: bool,
    down: bool,
    run: bool,
    /// Space went down since the last step took the intent: a jump when walking.
    jump: bool,
    /// E went down since the last step took the intent: use what is looked at.
    using: bool,
}

impl HeldKeys {
    /// Record a movement key going down or up; returns false for other keys.
    pub fn set(&mut self, key: KeyCode, down: bool) -> bool {
        if key == KeyCode::Space && down && !self.up {
            self.jump = true;
        }
        if key == KeyCode::KeyE {
            self.using |= down;
            return true;
        }
        let slot = match key {
            KeyCode::KeyW | KeyCode::ArrowUp => &mut self.forward,
            KeyCode::KeyS | KeyCode::ArrowDown => &mut self.back,
            KeyCode::KeyA | KeyCode::ArrowLeft => &mut self.left,
            KeyCode::KeyD | KeyCode::ArrowRight => &mut self.right,
            KeyCode::Space => &mut self.up,
            KeyCode::KeyC => &mut self.down,
            KeyCode::ShiftLeft | KeyCode::ShiftRight => &mut self.run,
            _ => return false,
        };
        *slot = down;
        true
    }

    /// A Shift key is held (run, and the other way of a correction key).
    pub fn shift(&self) -> bool {
        self.run
    }

    /// Release everything (focus lost: the key-up events will never come).
    pub fn clear(&mut self) {
        *self = HeldKeys::default();
    }

    /// The intent these keys ask for: Space and C move up and down when flying, jump
    /// (once a press) and crouch (while held) when walking. Taking it uses up the jump.
    pub fn take_intent(&mut self) -> MoveIntent {
        let axis = |pos: bool, neg: bool| pos as i32 as f32 - neg as i32 as f32;
        MoveIntent {
            forward: axis(self.forward, self.back),
            strafe: axis(self.right, self.left),
            vertical: axis(self.up, self.down),
            run: self.run,
            jump: std::mem::take(&mut self.jump),
            crouch: self.down,
            using: std::mem::take(&mut self.using),
        }
    }
}
