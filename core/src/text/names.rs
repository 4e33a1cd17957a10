//! Settings chosen by name (`--response slide`, `method angle-sum` in a script, the HUD's
//! "STOP"): one trait and one macro give every such enum its names, its `Display`, its
//! `FromStr` and the same error, instead of a hand-written copy per enum.

use std::fmt;

/// An enum whose values are picked by name on the command line and in scripts.
pub trait Named: Copy + PartialEq + 'static {
    /// Every value, in the order a key cycles through them.
    const ALL: &'static [Self];
    /// What a value is, for messages ("point-in-triangle method").
    const WHAT: &'static str;

    /// The name used on the command line, in scripts, traces and the HUD.
    fn name(self) -> &'static str;

    /// The next value in [`ALL`](Self::ALL), wrapping around (with two values: the other).
    fn next(self) -> Self {
        let i = Self::ALL.iter().position(|v| *v == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }

    /// The next value, or with `backwards` the one before it (wrapping around): what a
    /// key and its Shift go to.
    fn step(self, backwards: bool) -> Self {
        if !backwards {
            return self.next();
        }
        let i = Self::ALL.iter().position(|v| *v == self).unwrap_or(0);
        Self::ALL[(i + Self::ALL.len() - 1) % Self::ALL.len()]
    }
}

/// A name that is none of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {} (expected {})", crate::text::quote::quote(.given), Expected(.expected))]
pub struct UnknownName {
    /// What was asked for ("mode").
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names that would have been accepted (aliases not listed).
    pub expected: Vec<&'static str>,
}

impl UnknownName {
    /// The error for `given`, listing the names of `T`.
    pub fn of<T: Named>(given: &str) -> UnknownName {
        UnknownName {
            what: T::WHAT,
            given: given.to_string(),
            expected: T::ALL.iter().map(|v| v.name()).collect(),
        }
    }
}

/// "a, b or c".
struct Expected<'a>(&'a [&'static str]);

impl fmt::Display for Expected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            let sep = match i {
                0 => "",
                _ if i + 1 == self.0.len() => " or ",
                _ => ", ",
            };
            write!(f, "{sep}{name}")?;
        }
        Ok(())
    }
}

/// Give an enum its names: [`Named`], `Display` (the name) and `FromStr` (the name or an
/// alias, any case, surrounding blanks ignored; otherwise [`UnknownName`]).
///
/// ```ignore
/// named!(Response, "response" { Stop => "stop", Slide => "slide" | "sliding" });
/// ```
macro_rules! named {
    ($ty:ident, $what:literal { $($variant:ident => $name:literal $(| $alias:literal)*),+ $(,)? }) => {
        impl $crate::text::names::Named for $ty {
            const ALL: &'static [Self] = &[$($ty::$variant),+];
            const WHAT: &'static str = $what;

            fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::text::names::Named::name(*self))
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::text::names::UnknownName;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s.trim().to_lowercase().as_str() {
                    $($name $(| $alias)* => Ok($ty::$variant),)+
                    _ => Err($crate::text::names::UnknownName::of::<$ty>(s)),
                }
            }
        }
    };
}
pub(crate) use named;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Colour {
        Red,
        Green,
        Blue,
    }
    named!(Colour, "colour" { Red => "red" | "r", Green => "green", Blue => "blue" });

    #[test]
    fn names_aliases_and_case_parse_and_display_round_trips() {
        assert_eq!(" R ".parse::<Colour>(), Ok(Colour::Red));
        assert_eq!("GREEN".parse::<Colour>(), Ok(Colour::Green));
        for c in Colour::ALL {
            assert_eq!(c.to_string().parse::<Colour>(), Ok(*c));
        }
    }

    #[test]
    fn unknown_name_lists_every_name_in_order() {
        let e = "teal".parse::<Colour>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown colour 'teal' (expected red, green or blue)"
        );
    }

    #[test]
    fn next_cycles_through_all_and_wraps() {
        assert_eq!(Colour::Red.next(), Colour::Green);
        assert_eq!(Colour::Blue.next(), Colour::Red);
    }
}
