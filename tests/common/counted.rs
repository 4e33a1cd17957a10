//! A collider that counts the sweeps asked of it and, unlike a `Recorder`, names the
//! revision of the world it wraps, so a walker still reuses the ticks that repeat (see
//! `walkthrough_core::walk::memo`). Shared by the walking tests and the walking benchmark.

use std::cell::Cell;

use glam::Vec3;
use walkthrough_core::collision::{Body, Collider, Contact, Probe};

/// `world`, its sweeps counted.
pub struct Counted<'a> {
    pub world: &'a dyn Collider,
    pub sweeps: Cell<usize>,
}

impl<'a> Counted<'a> {
    /// `world`, no sweep counted yet.
    pub fn new(world: &'a dyn Collider) -> Counted<'a> {
        Counted {
            world,
            sweeps: Cell::new(0),
        }
    }
}

impl Collider for Counted<'_> {
    fn sweep_seen(
        &self,
        probe: &Probe,
        centre: Vec3,
        delta: Vec3,
        seen: Option<&mut Vec<u32>>,
    ) -> Option<Contact> {
        self.sweeps.set(self.sweeps.get() + 1);
        self.world.sweep_seen(probe, centre, delta, seen)
    }

    fn triangle(&self, index: u32) -> Option<[Vec3; 3]> {
        self.world.triangle(index)
    }

    fn nearest_overlap(&self, body: &Body, centre: Vec3) -> Option<Contact> {
        self.world.nearest_overlap(body, centre)
    }

    fn revision(&self) -> Option<u64> {
        self.world.revision()
    }
}
