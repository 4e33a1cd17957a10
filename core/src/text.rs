//! Words for people: what the library says to a user, apart from what it computes.
//!
//! - [`quote`]: a piece of the user's file in a message, escaped and cut (never raw
//!   control bytes on the terminal).
//! - [`wording`]: counts in English ("1 object", "2 objects").
//! - [`names`]: settings chosen by name (response, mode, method, up axis), one macro for all.

pub mod names;
pub mod quote;
pub mod wording;
