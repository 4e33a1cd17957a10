//! Keyboard and gamepad state to a move intent. Physical keys, so W/A/S/D sit in the same
//! place on every layout; the moves' keys are the settings' (rebound in the F2 panel), the
//! arrow keys always move too, and a gamepad's held buttons and left stick add theirs
//! ([`super::gamepad`]).

use winit::keyboard::KeyCode;

use walkthrough_core::player::MoveIntent;

use super::bindings::{Move, MoveKeys};
use super::gamepad::PadHeld;

/// Movement keys currently held, and the gamepad's moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeldKeys {
    /// The keys the moves are bound to.
    bound: MoveKeys,
    /// Each move's key is held, in [`Move::ALL`]'s order.
    held: [bool; 7],
    /// The arrow keys: up, down, left, right.
    arrows: [bool; 4],
    /// A Shift key is held.
    shift: bool,
    /// The jump key went down since the last step took the intent: a jump when walking.
    jump: bool,
    /// E went down since the last step took the intent: use what is looked at.
    using: bool,
    /// What the gamepad holds.
    pub pad: PadHeld,
}

impl HeldKeys {
    /// Bind the moves to `bound` (the settings' keys); what is held is let go.
    pub fn bind(&mut self, bound: MoveKeys) {
        *self = HeldKeys {
            bound,
            ..HeldKeys::default()
        };
    }

    /// Is `key` the use key (E, unless a move is bound to it)?
    pub fn uses(&self, key: KeyCode) -> bool {
        key == KeyCode::KeyE && self.bound.move_of(key).is_none()
    }

    /// Record a movement key going down or up; returns false for other keys.
    pub fn set(&mut self, key: KeyCode, down: bool) -> bool {
        let shift = matches!(key, KeyCode::ShiftLeft | KeyCode::ShiftRight);
        if shift {
            self.shift = down;
        }
        let arrow = match key {
            KeyCode::ArrowUp => Some(0),
            KeyCode::ArrowDown => Some(1),
            KeyCode::ArrowLeft => Some(2),
            KeyCode::ArrowRight => Some(3),
            _ => None,
        };
        if let Some(i) = arrow {
            self.arrows[i] = down;
            return true;
        }
        let Some(m) = self.bound.move_of(key) else {
            // E uses what is looked at (unless a move is bound to it).
            if key == KeyCode::KeyE {
                self.using |= down;
                return true;
            }
            // Either Shift runs when the run key is a Shift.
            if shift && self.runs_on_shift() {
                self.held[Move::Run as usize] = down;
            }
            return shift;
        };
        let slot = &mut self.held[m as usize];
        if m == Move::Jump && down && !*slot {
            self.jump = true;
        }
        *slot = down;
        true
    }

    fn runs_on_shift(&self) -> bool {
        [KeyCode::ShiftLeft, KeyCode::ShiftRight]
            .iter()
            .any(|k| self.bound.move_of(*k) == Some(Move::Run))
    }

    /// A Shift key is held (the other way of a correction key).
    pub fn shift(&self) -> bool {
        self.shift
    }

    /// Release everything (focus lost: the key-up events will never come).
    pub fn clear(&mut self) {
        self.bind(self.bound);
    }

    /// The intent these keys and the pad ask for: jump and crouch move up and down when
    /// flying, jump (once a press) and crouch (while held) when walking. Taking it uses up
    /// the jump.
    pub fn take_intent(&mut self) -> MoveIntent {
        let axis = |pos: bool, neg: bool| pos as i32 as f32 - neg as i32 as f32;
        let held = |m: Move| self.held[m as usize];
        let [up, down, left, right] = self.arrows;
        let pad = self.pad;
        let both = |a: f32, b: f32| (a + b).clamp(-1.0, 1.0);
        MoveIntent {
            forward: both(
                axis(held(Move::Forward) || up, held(Move::Back) || down),
                pad.forward,
            ),
            strafe: both(
                axis(held(Move::Right) || right, held(Move::Left) || left),
                pad.strafe,
            ),
            vertical: axis(held(Move::Jump) || pad.up, held(Move::Crouch) || pad.down),
            run: held(Move::Run) || pad.run,
            jump: std::mem::take(&mut self.jump) | std::mem::take(&mut self.pad.jump),
            crouch: held(Move::Crouch) || pad.down,
            using: std::mem::take(&mut self.using),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rebound_key_moves_and_the_old_one_does_not_and_arrows_always_do() {
        let mut prefs = walkthrough_core::preferences::Preferences::default();
        *Move::Forward.key_of(&mut prefs) = "KeyI".into();
        let mut keys = HeldKeys::default();
        keys.bind(MoveKeys::of(&prefs));
        assert!(!keys.set(KeyCode::KeyW, true));
        assert_eq!(keys.take_intent().forward, 0.0);
        assert!(keys.set(KeyCode::KeyI, true));
        assert_eq!(keys.take_intent().forward, 1.0);
        keys.set(KeyCode::KeyI, false);
        keys.set(KeyCode::ArrowUp, true);
        assert_eq!(keys.take_intent().forward, 1.0);
    }

    #[test]
    fn the_jump_key_jumps_once_a_press_and_either_shift_runs() {
        let mut keys = HeldKeys::default();
        keys.set(KeyCode::Space, true);
        assert!(keys.take_intent().jump);
        assert!(!keys.take_intent().jump, "held: one jump");
        keys.set(KeyCode::ShiftRight, true);
        assert!(keys.take_intent().run && keys.shift());
    }
}
