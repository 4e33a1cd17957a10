//! When the survey is unsure of a map's frame, the window says so in the view: what it
//! chose, the next most likely answer and the one key that switches to it, with the
//! 1.8 m person marker standing ahead for scale, until the user keeps it (Enter,
//! remembered for the file like a correction) or corrects it (U, `[`, `]`).

use walkthrough::map::UpAxis;
use walkthrough::session::Session;
use walkthrough::survey::Confidence;
use walkthrough::survey::units::Unit;

use walkthrough::names::Named;

use crate::app::marker::MARKER_HEIGHT;

/// What the window offers for a map whose frame the survey is not sure of.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    /// The up axis chosen and the one offered, when the survey is unsure of it.
    pub up: Option<(UpAxis, UpAxis)>,
    /// The unit chosen and the one offered, when the survey is unsure of it.
    pub scale: Option<(Unit, Unit)>,
    /// The notice, as shown.
    pub text: String,
    /// No half of it is a low-confidence guess: it folds away once the walker has walked
    /// [`WALKED_PAST`] with it showing (see [`Offer::walked`]).
    fair: bool,
    /// Metres walked across (or flown) while it showed.
    walked: f32,
}

/// How far the walker goes with a fairly sure offer showing before it folds away: far
/// enough to have seen the map stand upright at its size. Every real level's up axis is
/// read with "fair" confidence at best (the survey cannot always tell upside down), and
/// the question stood on the screen until answered (a new user's finding).
pub const WALKED_PAST: f32 = 10.0;

impl Offer {
    /// The offer for `session`, when the survey inferred a half of its frame and is not
    /// sure of it ("high" is sure: see [`Confidence`]).
    pub fn of(session: &Session) -> Option<Offer> {
        let unsure = |c: Confidence| c != Confidence::High;
        let up = session
            .up_guess
            .filter(|g| unsure(g.confidence))
            .map(|g| (g.chosen, g.next, g.confidence));
        let scale = session
            .scale_guess
            .filter(|g| unsure(g.confidence))
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
            // The other usual mistake, which the survey cannot always tell: a closed level
            // written upside down (its floors and ceilings alike).
            let down = chosen.flipped();
            if down != next {
                lines.push(format!("Upside down? {} (up {down})", up_key(chosen, down)));
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
        let low = |half: Option<Confidence>| half == Some(Confidence::Low);
        Some(Offer {
            up: up.map(|(c, n, _)| (c, n)),
            scale: scale.map(|(c, n, _)| (c, n)),
            text: lines.join("\n"),
            fair: !low(up.map(|u| u.2)) && !low(scale.map(|s| s.2)),
            walked: 0.0,
        })
    }

    /// The walker walked `moved` metres across with the offer showing: true when it has now gone
    /// [`WALKED_PAST`] and the offer is fairly sure (it then folds away, its reading kept
    /// for this visit only). A low-confidence guess stays until it is answered.
    pub fn walked(&mut self, moved: f32) -> bool {
        if moved.is_finite() {
            self.walked += moved.max(0.0);
        }
        self.fair && self.walked >= WALKED_PAST
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
    use walkthrough::survey::Inferred;
    use walkthrough::survey::units::UNITS;

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

    /// The question stood on every real level's screen until answered (a new user's
    /// finding): a fairly sure one folds away after a walk; a low one stays.
    #[test]
    fn a_fairly_sure_offer_folds_away_after_a_walk_and_a_low_one_stays() {
        let (metres, feet) = (UNITS[0], UNITS[4]);
        let mut fair = Offer::of(&session(
            guess(UpAxis::Y, UpAxis::Z, Confidence::Fair),
            guess(metres, feet, Confidence::High),
        ))
        .expect("an offer");
        assert!(!fair.walked(WALKED_PAST * 0.6));
        assert!(!fair.walked(f32::NAN));
        assert!(fair.walked(WALKED_PAST * 0.5));
        let mut low = Offer::of(&session(
            guess(UpAxis::Y, UpAxis::Z, Confidence::Fair),
            guess(metres, feet, Confidence::Low),
        ))
        .expect("an offer");
        assert!(!low.walked(WALKED_PAST * 100.0));
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
            guess(feet, metres, Confidence::Fair),
        ))
        .expect("an offer");
        assert!(
            o.text.contains("up is y, maybe z - U turns it"),
            "{}",
            o.text
        );
        // And the way over: the closed level written upside down, which the survey
        // cannot tell from upright.
        assert!(
            o.text.contains("Upside down? U 3 times turns it (up -y)"),
            "{}",
            o.text
        );
        assert!(
            o.text
                .contains("Read as feet (fair confidence); maybe metres - Shift+] switches"),
            "{}",
            o.text
        );
        assert!(o.text.contains("Enter keeps this"), "{}", o.text);
        // Shift+] goes to the offered metres; Shift+[ is not toward it.
        assert_eq!(o.scale_toward(feet.metres, true), Some(1.0));
        assert_eq!(o.scale_toward(feet.metres, false), None);
        // Z offered back to Y is Shift+U; -y is more than a press away.
        assert_eq!(up_key(UpAxis::Z, UpAxis::Y), "Shift+U turns it");
        assert_eq!(up_key(UpAxis::Y, UpAxis::Z), "U turns it");
        // From -y to z the short way round: U went -z, -x, y, z; Shift+U goes x, z.
        assert_eq!(up_key(UpAxis::NegY, UpAxis::Z), "Shift+U twice turns it");
        assert_eq!(up_key(UpAxis::Y, UpAxis::NegY), "U 3 times turns it");
    }
}
