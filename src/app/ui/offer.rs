//! When the survey's evidence is split on a map's frame (confidence low), the window
//! asks in the view: what it chose, the next most likely answer and the one key that
//! switches to it, with the 1.8 m person marker standing ahead for scale, until the user
//! keeps it (Enter, remembered for the file like a correction) or corrects it (U, `[`,
//! `]`). A reading the survey is fairly or highly sure of opens without a question: the
//! confidences are calibrated so that "fair" is seldom wrong and "high" never was on
//! the real and generated levels (docs/survey.md), and asking on most maps told the
//! user nothing.

use walkthrough_core::map::UpAxis;
use walkthrough_core::session::Session;
use walkthrough_core::survey::Confidence;
use walkthrough_core::survey::units::Unit;

use walkthrough_core::text::names::Named;

use crate::app::marker::MARKER_HEIGHT;

/// What the window offers for a map whose frame the survey's evidence is split on.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    /// The up axis chosen and the one offered, when the survey is unsure of it.
    pub up: Option<(UpAxis, UpAxis)>,
    /// The unit chosen and the one offered, when the survey is unsure of it and the
    /// offered one is a world a person fits (see [`walkthrough_core::survey::Inferred::next`]).
    pub scale: Option<(Unit, Unit)>,
    /// The notice, as shown.
    pub text: String,
}

impl Offer {
    /// The offer for `session`, when the survey inferred a half of its frame and its
    /// evidence on it is split (confidence low) with another answer to offer.
    pub fn of(session: &Session) -> Option<Offer> {
        let split = |c: Confidence| c == Confidence::Low;
        let up = session
            .up_guess
            .filter(|g| split(g.confidence) && g.next != g.chosen)
            .map(|g| (g.chosen, g.next, g.confidence));
        let scale = session
            .scale_guess
            .filter(|g| split(g.confidence) && g.next.metres != g.chosen.metres)
            .map(|g| (g.chosen, g.next, g.confidence));
        if up.is_none() && scale.is_none() {
            return None;
        }
        let mut lines = Vec::new();
        if let Some((chosen, next, confidence)) = up {
            lines.push(format!(
                "Not sure this is upright ({confidence} confidence): up is {chosen}, maybe {next} - {}",
                up_key(chosen, next)
            ));
            // The survey turned the file over (its sky below): the way back is offered
            // too, since a closed level's floors and ceilings alike can mislead it.
            let back = chosen.flipped();
            if chosen.is_flipped() && back != next {
                lines.push(format!(
                    "Written upside down? {} (up {back})",
                    up_key(chosen, back)
                ));
            }
        }
        if let Some((chosen, next, confidence)) = scale {
            lines.push(format!(
                "Read as {} ({confidence} confidence); maybe {} - {} switches",
                chosen.name,
                next.name,
                scale_key(chosen.metres, next.metres)
            ));
        }
        lines.push(format!(
            "The cyan frame ahead is {MARKER_HEIGHT} m tall. Enter keeps this (remembered for the file)"
        ));
        Some(Offer {
            up: up.map(|(c, n, _)| (c, n)),
            scale: scale.map(|(c, n, _)| (c, n)),
            text: lines.join("\n"),
        })
    }

    /// The offered scale, if it lies `larger` (or smaller) than `current`: what Shift+]
    /// (Shift+[) goes to while the offer shows.
    pub fn scale_toward(&self, current: f32, larger: bool) -> Option<f32> {
        let (_, next) = self.scale?;
        (if larger {
            next.metres > current
        } else {
            next.metres < current
        })
        .then_some(next.metres)
    }
}

/// The key that turns `chosen` into `next` in the fewest presses: U or Shift+U (see
/// [`Named::step`]), and how many times. (From -y to z, U took four presses where
/// Shift+U takes two.)
fn up_key(chosen: UpAxis, next: UpAxis) -> String {
    let presses = |backwards: bool| {
        std::iter::successors(Some(chosen), |u| Some(u.step(backwards)))
            .take(UpAxis::ALL.len() + 1)
            .position(|u| u == next)
            .unwrap_or(usize::MAX)
    };
    let (forward, back) = (presses(false), presses(true));
    let (key, n) = if forward <= back {
        ("U", forward)
    } else {
        ("Shift+U", back)
    };
    match n {
        1 => format!("{key} turns it"),
        2 => format!("{key} twice turns it"),
        n => format!("{key} {n} times turns it"),
    }
}

/// The key that goes from `chosen` to `next` metres a unit.
fn scale_key(chosen: f32, next: f32) -> &'static str {
    if next > chosen { "Shift+]" } else { "Shift+[" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use walkthrough_core::survey::Inferred;
    use walkthrough_core::survey::units::UNITS;

    fn session(up: Option<Inferred<UpAxis>>, scale: Option<Inferred<Unit>>) -> Session {
        let mut s = Session::open(None, &Default::default()).expect("the built-in map");
        (s.up_guess, s.scale_guess) = (up, scale);
        s
    }

    fn guess<T>(chosen: T, next: T, confidence: Confidence) -> Option<Inferred<T>> {
        Some(Inferred {
            chosen,
            confidence,
            margin: 0.5,
            next,
        })
    }

    /// A fairly sure reading (every real level's up axis once) asked on every map, and
    /// told the user nothing: only a split one asks.
    #[test]
    fn a_fairly_sure_frame_opens_without_a_question_and_a_split_one_asks() {
        let (metres, feet) = (UNITS[0], UNITS[4]);
        let fair = session(
            guess(UpAxis::Y, UpAxis::Z, Confidence::Fair),
            guess(metres, feet, Confidence::Fair),
        );
        assert_eq!(Offer::of(&fair), None);
        let low = Offer::of(&session(
            guess(UpAxis::Y, UpAxis::Z, Confidence::Fair),
            guess(metres, feet, Confidence::Low),
        ))
        .expect("an offer");
        assert_eq!(low.up, None);
        assert_eq!(low.scale, Some((metres, feet)));
    }

    /// A split scale with no other world a person fits (the survey offers the answer it
    /// chose again) asks nothing of the scale.
    #[test]
    fn a_split_scale_with_nothing_to_offer_asks_nothing() {
        let metres = UNITS[0];
        let none = session(
            guess(UpAxis::Y, UpAxis::Z, Confidence::High),
            guess(metres, metres, Confidence::Low),
        );
        assert_eq!(Offer::of(&none), None);
    }

    #[test]
    fn a_sure_or_given_frame_offers_nothing() {
        assert_eq!(Offer::of(&session(None, None)), None);
        let sure = session(
            guess(UpAxis::Y, UpAxis::Z, Confidence::High),
            guess(UNITS[0], UNITS[4], Confidence::High),
        );
        assert_eq!(Offer::of(&sure), None);
    }

    #[test]
    fn an_unsure_frame_names_its_choice_the_next_and_the_key() {
        let (metres, feet) = (UNITS[0], UNITS[4]);
        let o = Offer::of(&session(
            guess(UpAxis::Y, UpAxis::Z, Confidence::Low),
            guess(feet, metres, Confidence::Low),
        ))
        .expect("an offer");
        assert!(
            o.text.contains("up is y, maybe z - U turns it"),
            "{}",
            o.text
        );
        // Nothing pointed to the file being upside down: no line for it.
        assert!(!o.text.contains("upside down"), "{}", o.text);
        assert!(
            o.text
                .contains("Read as feet (low confidence); maybe metres - Shift+] switches"),
            "{}",
            o.text
        );
        assert!(o.text.contains("Enter keeps this"), "{}", o.text);
        // Shift+] goes to the offered metres; Shift+[ is not toward it.
        assert_eq!(o.scale_toward(feet.metres, true), Some(1.0));
        assert_eq!(o.scale_toward(feet.metres, false), None);
        // The survey turned the file over (its sky below): the way back is named.
        let turned = Offer::of(&session(
            guess(UpAxis::NegY, UpAxis::Z, Confidence::Low),
            None,
        ))
        .expect("an offer");
        assert!(
            turned
                .text
                .contains("Written upside down? U 3 times turns it (up y)"),
            "{}",
            turned.text
        );
        // Z offered back to Y is Shift+U; -y is more than a press away.
        assert_eq!(up_key(UpAxis::Z, UpAxis::Y), "Shift+U turns it");
        assert_eq!(up_key(UpAxis::Y, UpAxis::Z), "U turns it");
        // From -y to z the short way round: U went -z, -x, y, z; Shift+U goes x, z.
        assert_eq!(up_key(UpAxis::NegY, UpAxis::Z), "Shift+U twice turns it");
        assert_eq!(up_key(UpAxis::Y, UpAxis::NegY), "U 3 times turns it");
    }
}
