//! A collider that answers as the one it wraps and keeps an account of what was asked:
//! every sweep, its contact and the triangles its narrow phase tested. The window's debug
//! view draws the account of the last step; nothing else changes (the trace is the same
//! with the view on or off).

use std::cell::RefCell;

use glam::Vec3;

use super::{Body, Collider, Contact, Probe};

/// What a step asked of the collision world.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Account {
    /// Sweeps asked (moves, slides, step-up tries, floor follows).
    pub sweeps: usize,
    /// The contacts they found, in order.
    pub contacts: Vec<Contact>,
    /// Candidate triangles the broad phase handed over, each time one was (a triangle
    /// handed to two sweeps is here twice).
    pub tested: Vec<u32>,
}

impl Account {
    /// Empty it for the next step, keeping its memory.
    pub fn clear(&mut self) {
        self.sweeps = 0;
        self.contacts.clear();
        self.tested.clear();
    }
}

/// Sweep `inner` and write what the sweep did into `account`: one routine for every
/// recorder (this one, and the moving world's in [`crate::movers`]).
pub fn record_sweep(
    inner: &dyn Collider,
    account: &mut Account,
    probe: &Probe,
    centre: Vec3,
    delta: Vec3,
    seen: Option<&mut Vec<u32>>,
) -> Option<Contact> {
    account.sweeps += 1;
    let contact = match seen {
        Some(seen) => inner.sweep_seen(probe, centre, delta, Some(seen)),
        None => inner.sweep_seen(probe, centre, delta, Some(&mut account.tested)),
    };
    account.contacts.extend(contact);
    contact
}

/// Wraps a collider and fills an [`Account`].
pub struct Recorder<'a> {
    inner: &'a dyn Collider,
    account: RefCell<&'a mut Account>,
}

impl<'a> Recorder<'a> {
    /// Record into `account` (cleared first) what is asked of `inner`.
    pub fn new(inner: &'a dyn Collider, account: &'a mut Account) -> Recorder<'a> {
        account.clear();
        Recorder {
            inner,
            account: RefCell::new(account),
        }
    }
}

impl Collider for Recorder<'_> {
    fn sweep_seen(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        seen: Option<&mut Vec<u32>>,
    ) -> Option<Contact> {
        record_sweep(
            self.inner,
            &mut self.account.borrow_mut(),
            probe,
            centre,
            delta,
            seen,
        )
    }

    fn nearest_overlap(&self, body: &Body, centre: Vec3) -> Option<Contact> {
        self.inner.nearest_overlap(body, centre)
    }

    fn triangle(&self, index: u32) -> Option<[Vec3; 3]> {
        self.inner.triangle(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{MoveRules, Response, square_wall};
    use crate::geometry::InsideMethod;

    #[test]
    fn recording_a_slide_changes_nothing_and_counts_its_sweeps_and_contacts() {
        let world = square_wall(2.0);
        let rules = MoveRules::new(Body::WALKER, Response::Slide);
        let (start, step) = (Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 0.0, -2.0));
        let plain = crate::collision::resolve_move(&world, &rules, start, step);
        let mut account = Account::default();
        let recorded = crate::collision::resolve_move(
            &Recorder::new(&world, &mut account),
            &rules,
            start,
            step,
        );
        assert_eq!(recorded, plain);
        // Into the wall, then along it: two sweeps, the first meets the wall.
        assert_eq!(account.sweeps, 2);
        assert_eq!(account.contacts.len(), 1);
        assert_eq!(account.contacts[0].normal, Vec3::Z);
        let touched = world.triangle(account.contacts[0].triangle).unwrap();
        assert!(touched.iter().all(|v| v.z == 0.0));
        // Both halves of the wall were tested by the first sweep.
        assert!(account.tested.contains(&0) && account.tested.contains(&1));
    }

    #[test]
    fn a_free_move_tests_no_triangle() {
        let world = square_wall(2.0);
        let probe = Probe::new(Body::FLYER, InsideMethod::Barycentric);
        let mut account = Account::default();
        let free =
            Recorder::new(&world, &mut account).sweep(&probe, Vec3::new(0.0, 0.0, 5.0), Vec3::X);
        assert!(free.is_none());
        assert_eq!(account.sweeps, 1);
        assert!(account.tested.is_empty() && account.contacts.is_empty());
    }
}
