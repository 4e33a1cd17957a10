//! Counts in messages, in words a reader expects: "1 object", "2 objects", never
//! "1 objects" or "1 concave polygons were ear-clipped".

/// `n` and the noun for it: `one` for exactly one, `many` otherwise ("0 objects").
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "was" for one, "were" otherwise.
pub fn were(n: usize) -> &'static str {
    if n == 1 { "was" } else { "were" }
}

/// The first `most` of `names`, joined by commas, and how many more there are: "a, b and
/// 3 more" (a message names a few of a long list).
pub fn some_of(names: &[String], most: usize) -> String {
    let shown = names[..names.len().min(most)].join(", ");
    match names.len().saturating_sub(most) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
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

    #[test]
    fn some_of_a_long_list_names_the_first_and_counts_the_rest() {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        assert_eq!(some_of(&names, 5), "a, b, c");
        assert_eq!(some_of(&names, 2), "a, b and 1 more");
        assert_eq!(some_of(&[], 2), "");
    }
}
