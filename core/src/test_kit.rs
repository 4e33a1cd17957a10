//! What the tests share, unit and integration alike: random numbers that are the same on
//! every machine ([`random`]), the boxes and rooms the tests build maps of ([`boxes`]) and
//! the OBJ text they write them as ([`obj`]). One copy of each, so that a test reads the
//! same fixture whichever crate it is in. Compiled for this crate's own tests, and for
//! others' with the `test-kit` feature (the program's `[dev-dependencies]` turn it on):
//! no build of the program holds it.

pub mod boxes;
pub mod obj;
pub mod random;
