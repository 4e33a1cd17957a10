//! The command line: its options, `sim`'s runner, and what the program tells the
//! terminal (what loading a map found, warnings, signals, the exit code).

// First: its line-writing macros are for the modules after it.
#[macro_use]
pub mod terminal;
pub mod options;
pub mod sim;
