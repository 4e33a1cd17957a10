//! Where mouse look reads the mouse while the cursor is captured.
//!
//! Where the cursor can be locked (Wayland, macOS) the turn comes from the mouse's raw
//! motion (winit's `DeviceEvent::MouseMotion`). X11 cannot lock it, only confine it to the
//! window, and a confined pointer's raw motion reaches winit twice (winit issues #2846
//! and #3773: X's pointer grab reports each move to the grabbing client as well), so the
//! view turned twice the degrees a pixel the settings say. There the turn comes from the
//! cursor's own moves instead, the pixels the pointer went, and the cursor is put back in
//! the middle of the window whenever it strays toward an edge, as first-person games on
//! X11 without raw input have done (the confinement would otherwise stop it there).

use winit::dpi::{PhysicalPosition, PhysicalSize};

/// How far from the window's centre, as a share of its half-width or half-height, the
/// cursor may stray before it is put back in the middle: well short of the edge, where
/// the confinement would swallow a move.
const STRAY: f64 = 0.5;

/// Cursor moves counted while the cursor is on its way back to the middle after which it
/// is sent again (the move there was lost: one never came to the centre).
const WARP_PATIENCE: u32 = 32;

/// The source of mouse look while captured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum LookSource {
    /// The mouse's raw motion (the cursor is locked, or confined where that is right).
    Raw,
    /// The cursor's moves within the window (X11: see the module's note).
    Cursor(CursorLook),
}

/// The cursor's moves, counted from one position to the next (the window keeps where
/// the cursor was last seen, captured or not).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct CursorLook {
    /// The middle it was sent back to, until it is seen there, and the moves seen since.
    warping: Option<(PhysicalPosition<f64>, u32)>,
}

/// What a cursor move means for mouse look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct CursorTurn {
    /// Pixels the pointer moved, right and down.
    pub dx: f64,
    pub dy: f64,
    /// Where to put the cursor now, if it strayed: the window's middle.
    pub warp_to: Option<PhysicalPosition<f64>>,
}

impl CursorLook {
    /// The cursor was seen at `at` in a window of `size`, having been seen last at `last`
    /// (`None`: never; this sighting then counts nothing). Moves queued before a warp was
    /// made count from where the cursor was before it; the warp's own arrival at the
    /// middle counts nothing.
    pub(super) fn moved(
        &mut self,
        last: Option<PhysicalPosition<f64>>,
        at: PhysicalPosition<f64>,
        size: PhysicalSize<u32>,
    ) -> CursorTurn {
        let mut turn = CursorTurn {
            dx: 0.0,
            dy: 0.0,
            warp_to: None,
        };
        match self.warping {
            Some((middle, _)) if at == middle => self.warping = None,
            _ => {
                if let Some(last) = last {
                    (turn.dx, turn.dy) = (at.x - last.x, at.y - last.y);
                }
            }
        }
        if let Some((_, seen)) = &mut self.warping {
            *seen += 1;
            if *seen < WARP_PATIENCE {
                return turn;
            }
        }
        let middle = PhysicalPosition::new(f64::from(size.width / 2), f64::from(size.height / 2));
        let strayed = (at.x - middle.x).abs() > middle.x * STRAY
            || (at.y - middle.y).abs() > middle.y * STRAY;
        if strayed && at != middle {
            turn.warp_to = Some(middle);
        }
        turn
    }

    /// The cursor was sent to `middle` (the warp asked for succeeded).
    pub(super) fn warped(&mut self, middle: PhysicalPosition<f64>) {
        self.warping = Some((middle, 0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: PhysicalSize<u32> = PhysicalSize::new(800, 600);

    fn at(x: f64, y: f64) -> PhysicalPosition<f64> {
        PhysicalPosition::new(x, y)
    }

    /// A look and where the cursor was last seen, as the window keeps them.
    #[derive(Default)]
    struct Seen {
        look: CursorLook,
        last: Option<PhysicalPosition<f64>>,
    }

    impl Seen {
        fn moved(&mut self, p: PhysicalPosition<f64>) -> CursorTurn {
            let t = self.look.moved(self.last, p, SIZE);
            self.last = Some(p);
            t
        }
    }

    /// The sums of the moves a sequence of positions gives, and the warps asked for.
    fn total(seen: &[PhysicalPosition<f64>]) -> (f64, f64, usize) {
        let mut look = Seen::default();
        let (mut x, mut y, mut warps) = (0.0, 0.0, 0);
        for &p in seen {
            let t = look.moved(p);
            x += t.dx;
            y += t.dy;
            if let Some(m) = t.warp_to {
                look.look.warped(m);
                warps += 1;
            }
        }
        (x, y, warps)
    }

    /// `mouse_look_turns_the_set_degrees_a_pixel_on_x11`: each pixel the cursor goes
    /// counts once, from where it was when captured; never seen before, its first
    /// sighting counts none.
    #[test]
    fn each_pixel_the_cursor_moves_counts_once() {
        let (x, y, warps) = total(&[at(400.0, 300.0), at(500.0, 300.0), at(500.0, 260.0)]);
        assert_eq!((x, y, warps), (100.0, -40.0, 0));
        let (x, y, _) = total(&[at(123.0, 45.0)]);
        assert_eq!((x, y), (0.0, 0.0));
        let t = CursorLook::default().moved(Some(at(400.0, 300.0)), at(404.0, 299.0), SIZE);
        assert_eq!((t.dx, t.dy), (4.0, -1.0));
    }

    /// A cursor that strays is sent back to the middle; its arrival there counts nothing,
    /// and a move X queued before the warp still counts from where it was.
    #[test]
    fn a_cursor_sent_back_to_the_middle_loses_and_adds_no_move() {
        let mut look = Seen::default();
        assert_eq!(look.moved(at(400.0, 300.0)).warp_to, None);
        let t = look.moved(at(650.0, 300.0));
        assert_eq!((t.dx, t.dy), (250.0, 0.0));
        let middle = t.warp_to.expect("past half the half-width: sent back");
        assert_eq!(middle, at(400.0, 300.0));
        look.look.warped(middle);
        // Moved on before the warp landed: counted from 650.
        let t = look.moved(at(660.0, 310.0));
        assert_eq!((t.dx, t.dy, t.warp_to), (10.0, 10.0, None));
        // The warp lands: nothing.
        let t = look.moved(middle);
        assert_eq!((t.dx, t.dy), (0.0, 0.0));
        // And moves go on from the middle.
        let t = look.moved(at(395.0, 300.0));
        assert_eq!((t.dx, t.dy, t.warp_to), (-5.0, 0.0, None));
    }

    /// A warp whose arrival never shows is sent again after a while, not waited on for
    /// ever (the cursor would stay at the window's edge, where the confinement stops it).
    #[test]
    fn a_warp_that_never_arrives_is_sent_again() {
        let mut look = Seen::default();
        look.moved(at(400.0, 300.0));
        let middle = look.moved(at(700.0, 300.0)).warp_to.unwrap();
        look.look.warped(middle);
        let sent_again = (0..WARP_PATIENCE)
            .map(|k| look.moved(at(700.0 + f64::from(k % 2), 300.0)))
            .filter(|t| t.warp_to.is_some())
            .count();
        assert_eq!(sent_again, 1);
    }
}
