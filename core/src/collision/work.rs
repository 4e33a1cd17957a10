//! What a sweep costs, watched as it runs: the boxes it tests, the triangles the BVH hands
//! it, the triangles it sweeps exactly. A test counts these on fixed moves and asserts the
//! exact numbers, so a change that makes the collision core do more work fails without
//! any timing; the debug view records the triangles handed over the same way.
//!
//! The watch is a type parameter of the sweep's BVH visitor, not a field tested at run
//! time nor a cargo feature: the app's sweeps watch with `()`, whose calls are empty and
//! inline to nothing (the sweep compiles to what it was before watching existed), and the
//! tests and the debug view get the very same traversal with their own watch. A feature
//! would have built a second core for the test, not the one that ships.

/// Told by a sweep what it does (every call is a no-op unless the watch wants it).
pub trait Watch {
    /// A BVH node's box was tested against the swept box.
    #[inline(always)]
    fn node(&mut self) {}

    /// The BVH handed over triangle `index` (a candidate of the broad phase).
    #[inline(always)]
    fn candidate(&mut self, index: u32) {
        let _ = index;
    }

    /// A candidate passed the quick plane test and was swept exactly (in `f64`).
    #[inline(always)]
    fn swept(&mut self) {}
}

/// A watch lent to a sweep.
impl<T: Watch + ?Sized> Watch for &mut T {
    #[inline(always)]
    fn node(&mut self) {
        (**self).node();
    }

    #[inline(always)]
    fn candidate(&mut self, index: u32) {
        (**self).candidate(index);
    }

    #[inline(always)]
    fn swept(&mut self) {
        (**self).swept();
    }
}

/// Watches nothing: the app's sweeps.
impl Watch for () {}

/// Records every candidate's index (the debug view's outlines).
impl Watch for Vec<u32> {
    #[inline]
    fn candidate(&mut self, index: u32) {
        self.push(index);
    }
}

/// Counts of the work of the sweeps watched by it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// BVH nodes whose box was tested.
    pub nodes: u64,
    /// Triangles the BVH handed over.
    pub candidates: u64,
    /// Triangles swept exactly (the candidates that passed the quick plane test).
    pub swept: u64,
}

impl Watch for Work {
    #[inline]
    fn node(&mut self) {
        self.nodes += 1;
    }

    #[inline]
    fn candidate(&mut self, _: u32) {
        self.candidates += 1;
    }

    #[inline]
    fn swept(&mut self) {
        self.swept += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_counts_each_call_and_a_vec_records_candidates() {
        let mut work = Work::default();
        let mut seen = Vec::new();
        for watch in [&mut work as &mut dyn Watch, &mut seen] {
            watch.node();
            watch.node();
            watch.candidate(7);
            watch.candidate(9);
            watch.swept();
        }
        assert_eq!(
            work,
            Work {
                nodes: 2,
                candidates: 2,
                swept: 1
            }
        );
        assert_eq!(seen, vec![7, 9]);
    }
}
