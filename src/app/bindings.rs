//! The keys the moves are bound to (the settings' `key_forward` ... `key_run`, changed in
//! the F2 panel): names in the settings file, winit's physical key codes here.

use winit::keyboard::KeyCode;

use walkthrough_core::preferences::Preferences;

/// Every key a move can be bound to, with its name in the settings file (the core's
/// `KEY_NAMES`, in the same order: a test checks).
const CODES: &[(KeyCode, &str)] = &[
    (KeyCode::KeyA, "KeyA"),
    (KeyCode::KeyB, "KeyB"),
    (KeyCode::KeyC, "KeyC"),
    (KeyCode::KeyD, "KeyD"),
    (KeyCode::KeyE, "KeyE"),
    (KeyCode::KeyF, "KeyF"),
    (KeyCode::KeyG, "KeyG"),
    (KeyCode::KeyH, "KeyH"),
    (KeyCode::KeyI, "KeyI"),
    (KeyCode::KeyJ, "KeyJ"),
    (KeyCode::KeyK, "KeyK"),
    (KeyCode::KeyL, "KeyL"),
    (KeyCode::KeyM, "KeyM"),
    (KeyCode::KeyN, "KeyN"),
    (KeyCode::KeyO, "KeyO"),
    (KeyCode::KeyP, "KeyP"),
    (KeyCode::KeyQ, "KeyQ"),
    (KeyCode::KeyR, "KeyR"),
    (KeyCode::KeyS, "KeyS"),
    (KeyCode::KeyT, "KeyT"),
    (KeyCode::KeyU, "KeyU"),
    (KeyCode::KeyV, "KeyV"),
    (KeyCode::KeyW, "KeyW"),
    (KeyCode::KeyX, "KeyX"),
    (KeyCode::KeyY, "KeyY"),
    (KeyCode::KeyZ, "KeyZ"),
    (KeyCode::Digit0, "Digit0"),
    (KeyCode::Digit1, "Digit1"),
    (KeyCode::Digit2, "Digit2"),
    (KeyCode::Digit3, "Digit3"),
    (KeyCode::Digit4, "Digit4"),
    (KeyCode::Digit5, "Digit5"),
    (KeyCode::Digit6, "Digit6"),
    (KeyCode::Digit7, "Digit7"),
    (KeyCode::Digit8, "Digit8"),
    (KeyCode::Digit9, "Digit9"),
    (KeyCode::Space, "Space"),
    (KeyCode::ShiftLeft, "ShiftLeft"),
    (KeyCode::ShiftRight, "ShiftRight"),
    (KeyCode::ControlLeft, "ControlLeft"),
    (KeyCode::ControlRight, "ControlRight"),
    (KeyCode::AltLeft, "AltLeft"),
    (KeyCode::AltRight, "AltRight"),
    (KeyCode::CapsLock, "CapsLock"),
    (KeyCode::Tab, "Tab"),
    (KeyCode::Backspace, "Backspace"),
    (KeyCode::Enter, "Enter"),
    (KeyCode::Comma, "Comma"),
    (KeyCode::Period, "Period"),
    (KeyCode::Slash, "Slash"),
    (KeyCode::Semicolon, "Semicolon"),
    (KeyCode::Quote, "Quote"),
    (KeyCode::BracketLeft, "BracketLeft"),
    (KeyCode::BracketRight, "BracketRight"),
    (KeyCode::Backslash, "Backslash"),
    (KeyCode::Minus, "Minus"),
    (KeyCode::Equal, "Equal"),
    (KeyCode::Backquote, "Backquote"),
    (KeyCode::ArrowUp, "ArrowUp"),
    (KeyCode::ArrowDown, "ArrowDown"),
    (KeyCode::ArrowLeft, "ArrowLeft"),
    (KeyCode::ArrowRight, "ArrowRight"),
    (KeyCode::Insert, "Insert"),
    (KeyCode::Delete, "Delete"),
    (KeyCode::Home, "Home"),
    (KeyCode::End, "End"),
    (KeyCode::PageUp, "PageUp"),
    (KeyCode::PageDown, "PageDown"),
    (KeyCode::Numpad0, "Numpad0"),
    (KeyCode::Numpad1, "Numpad1"),
    (KeyCode::Numpad2, "Numpad2"),
    (KeyCode::Numpad3, "Numpad3"),
    (KeyCode::Numpad4, "Numpad4"),
    (KeyCode::Numpad5, "Numpad5"),
    (KeyCode::Numpad6, "Numpad6"),
    (KeyCode::Numpad7, "Numpad7"),
    (KeyCode::Numpad8, "Numpad8"),
    (KeyCode::Numpad9, "Numpad9"),
];

/// The key named `name`, if it is one a move can be bound to.
pub fn key_code(name: &str) -> Option<KeyCode> {
    CODES.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
}

/// The settings-file name of `key`, if a move can be bound to it.
pub fn key_name(key: KeyCode) -> Option<&'static str> {
    CODES.iter().find(|(k, _)| *k == key).map(|(_, n)| *n)
}

/// A move a key is bound to, in the order the panel lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Forward,
    Back,
    Left,
    Right,
    Jump,
    Crouch,
    Run,
}

impl Move {
    /// Every move, in the order of [`Preferences::move_keys`].
    pub const ALL: [Move; 7] = [
        Move::Forward,
        Move::Back,
        Move::Left,
        Move::Right,
        Move::Jump,
        Move::Crouch,
        Move::Run,
    ];

    /// The move as the panel names it.
    pub fn label(self) -> &'static str {
        match self {
            Move::Forward => "Forward key",
            Move::Back => "Back key",
            Move::Left => "Left key",
            Move::Right => "Right key",
            Move::Jump => "Jump / up key",
            Move::Crouch => "Crouch / down key",
            Move::Run => "Run key",
        }
    }

    /// The name of the key `prefs` binds it to.
    pub fn key_of(self, prefs: &mut Preferences) -> &mut String {
        let [forward, back, left, right, jump, crouch, run] = prefs.move_keys().map(|(_, k)| k);
        match self {
            Move::Forward => forward,
            Move::Back => back,
            Move::Left => left,
            Move::Right => right,
            Move::Jump => jump,
            Move::Crouch => crouch,
            Move::Run => run,
        }
    }
}

/// Bind move `m` to the key named `name` in `prefs`. A key is one move's: the move that
/// had it takes `m`'s old key in exchange, and is returned (one key for two moves, moving
/// forward and right at once, was taken without a word).
pub fn rebind(prefs: &mut Preferences, m: Move, name: &str) -> Option<Move> {
    let old = std::mem::replace(m.key_of(prefs), name.to_string());
    let other = Move::ALL
        .into_iter()
        .find(|&o| o != m && o.key_of(prefs).as_str() == name)?;
    *other.key_of(prefs) = old;
    Some(other)
}

/// The moves' keys as codes, resolved once from the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveKeys([Option<KeyCode>; 7]);

impl MoveKeys {
    /// The keys `prefs` names (a name that is no key binds nothing; the settings file's
    /// reader has already put the default in its place and said so).
    pub fn of(prefs: &Preferences) -> MoveKeys {
        let mut p = prefs.clone();
        MoveKeys(p.move_keys().map(|(_, name)| key_code(name)))
    }

    /// The move `key` is bound to, if any.
    pub fn move_of(&self, key: KeyCode) -> Option<Move> {
        Move::ALL
            .into_iter()
            .zip(self.0)
            .find(|(_, k)| *k == Some(key))
            .map(|(m, _)| m)
    }
}

impl Default for MoveKeys {
    fn default() -> Self {
        MoveKeys::of(&Preferences::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use walkthrough_core::preferences::KEY_NAMES;

    #[test]
    fn every_key_name_of_the_settings_is_a_key_code_and_back() {
        let names: Vec<&str> = CODES.iter().map(|(_, n)| *n).collect();
        assert_eq!(names, KEY_NAMES);
        for (code, name) in CODES {
            // winit's own name for the code: the file's names are winit's.
            assert_eq!(format!("{code:?}"), *name);
            assert_eq!(key_code(name), Some(*code));
            assert_eq!(key_name(*code), Some(*name));
        }
        assert_eq!(key_code("Spacebar"), None);
        assert_eq!(key_name(KeyCode::F1), None);
    }

    #[test]
    fn the_default_moves_are_w_a_s_d_space_c_and_shift_and_a_rebinding_moves_them() {
        let keys = MoveKeys::default();
        assert_eq!(keys.move_of(KeyCode::KeyW), Some(Move::Forward));
        assert_eq!(keys.move_of(KeyCode::KeyA), Some(Move::Left));
        assert_eq!(keys.move_of(KeyCode::Space), Some(Move::Jump));
        assert_eq!(keys.move_of(KeyCode::ShiftLeft), Some(Move::Run));
        assert_eq!(keys.move_of(KeyCode::KeyI), None);
        let mut prefs = Preferences::default();
        *Move::Forward.key_of(&mut prefs) = "KeyI".into();
        let keys = MoveKeys::of(&prefs);
        assert_eq!(keys.move_of(KeyCode::KeyI), Some(Move::Forward));
        assert_eq!(keys.move_of(KeyCode::KeyW), None);
    }

    #[test]
    fn binding_a_key_another_move_has_swaps_them() {
        let mut prefs = Preferences::default();
        let right = Move::Right.key_of(&mut prefs).clone();
        let forward = Move::Forward.key_of(&mut prefs).clone();
        assert_eq!(rebind(&mut prefs, Move::Forward, &right), Some(Move::Right));
        assert_eq!(*Move::Forward.key_of(&mut prefs), right);
        assert_eq!(*Move::Right.key_of(&mut prefs), forward);
        // A key no move has: nothing else changes.
        assert_eq!(rebind(&mut prefs, Move::Jump, "KeyZ"), None);
        assert_eq!(*Move::Jump.key_of(&mut prefs), "KeyZ");
        let mut names: Vec<String> = Move::ALL
            .into_iter()
            .map(|m| m.key_of(&mut prefs).clone())
            .collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Move::ALL.len(), "two moves share a key");
    }
}
