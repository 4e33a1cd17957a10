//! Counts in messages, in words a reader expects: "1 object", "2 objects" (a new user
//! read "1 concave polygons were ear-clipped" and "1 objects" as careless).

/// `n` and the noun for it: `one` for exactly one, `many` otherwise ("0 objects").
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "was" for one, "were" otherwise.
pub fn were(n: usize) -> &'static str {
    if n == 1 { "was" } else { "were" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_takes_the_singular_and_every_other_count_the_plural() {
        assert_eq!(counted(1, "object", "objects"), "1 object");
        assert_eq!(counted(0, "object", "objects"), "0 objects");
        assert_eq!(counted(2, "polygon", "polygons"), "2 polygons");
        assert_eq!((were(1), were(3)), ("was", "were"));
    }
}
