//! A name for what a collider holds, so that work done against it can be reused while it
//! is unchanged (see [`Collider::revision`](super::Collider::revision)).

use std::sync::atomic::{AtomicU64, Ordering};

/// The next revision handed out: every world built or changed in this process gets its own.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// A number no other world's content has had in this process: a world gets a fresh one
/// when it is built and whenever its triangles change, and keeps it while they do not (a
/// clone shares it until either changes). Two answers alike from one collider are the
/// same triangles, so whatever was worked out against the first holds for the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Revision(u64);

impl Revision {
    /// A revision never handed out before.
    pub fn fresh() -> Revision {
        Revision(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// The number.
    pub fn get(self) -> u64 {
        self.0
    }
}

/// A default world is a new world: a revision of its own.
impl Default for Revision {
    fn default() -> Revision {
        Revision::fresh()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fresh_revision_differs() {
        let (a, b) = (Revision::fresh(), Revision::default());
        assert_ne!(a, b);
        assert_ne!(a.get(), b.get());
        assert_eq!(a, a.clone());
    }

    #[test]
    fn a_world_scaled_or_turned_has_a_new_revision_and_a_clone_shares_it() {
        use crate::collision::{Collider, square_wall};
        let world = square_wall(1.0);
        let first = world.revision();
        assert!(first.is_some());
        assert_eq!(world.clone().revision(), first);
        assert_ne!(square_wall(1.0).revision(), first, "built again: another");
        let scaled = world.clone().scaled(2.0);
        assert_ne!(scaled.revision(), first);
        let turned = world.turned(|v| glam::Vec3::new(v.z, v.y, -v.x));
        assert_ne!(turned.revision(), first);
        assert_ne!(turned.revision(), scaled.revision());
    }
}
