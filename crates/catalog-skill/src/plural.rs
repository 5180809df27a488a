//! Counts in words: "1 repository", "2 repositories". The one place a noun takes its plural,
//! for the pages (the `count` and `plural` template filters) and the command's messages alike.

use std::borrow::Cow;

/// Plurals that the spelling rules in [`noun`] do not make.
const IRREGULAR: &[(&str, &str)] = &[("person", "people"), ("child", "children"), ("analysis", "analyses")];

/// `singular` as it reads after the number `n`: `noun(1, "repository")` is "repository",
/// `noun(2, "repository")` "repositories". Of several words, the last takes the plural
/// ("other owner" -> "other owners").
pub fn noun(n: u64, singular: &str) -> Cow<'_, str> {
    if n == 1 {
        return Cow::Borrowed(singular);
    }
    let (head, word) = match singular.rfind(' ') {
        Some(at) => singular.split_at(at + 1),
        None => ("", singular),
    };
    let lower = word.to_ascii_lowercase();
    if let Some((_, plural)) = IRREGULAR.iter().find(|(one, _)| *one == lower) {
        // Keep the word's own capital, if it has one.
        let mut plural = plural.to_string();
        if word.starts_with(|c: char| c.is_ascii_uppercase()) {
            plural[..1].make_ascii_uppercase();
        }
        return Cow::Owned(format!("{head}{plural}"));
    }
    let before_y = lower.strip_suffix('y').and_then(|stem| stem.chars().last());
    let plural = if before_y.is_some_and(|c| c.is_ascii_alphabetic() && !"aeiou".contains(c)) {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"].iter().any(|end| lower.ends_with(end)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    };
    Cow::Owned(format!("{head}{plural}"))
}

/// `n` and [`noun`]: "1 repository", "2 repositories", "0 errors".
pub fn count(n: impl TryInto<u64> + std::fmt::Display + Copy, singular: &str) -> String {
    let number = n.try_into().unwrap_or(u64::MAX);
    format!("{n} {}", noun(number, singular))
}

/// The first `shown` of `items` as prose, and how many more there are:
/// "a, b, c and d, plus 2 more sections".
pub fn list_with_more(items: &[String], shown: usize, singular: &str) -> String {
    let head: Vec<&str> = items.iter().take(shown).map(String::as_str).collect();
    let mut text = match head.as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let more = items.len().saturating_sub(shown);
    if more > 0 {
        text.push_str(&format!(", plus {more} more {}", noun(more as u64, singular)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_like_prose() {
        let items: Vec<String> = ["A", "B", "C", "D", "E", "F"].iter().map(|s| s.to_string()).collect();
        assert_eq!(list_with_more(&items, 4, "section"), "A, B, C and D, plus 2 more sections");
        assert_eq!(list_with_more(&items[..1], 4, "section"), "A");
        assert_eq!(list_with_more(&items[..5], 4, "section"), "A, B, C and D, plus 1 more section");
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1usize, "repository"), "1 repository");
        assert_eq!(count(2usize, "repository"), "2 repositories");
        assert_eq!(count(0usize, "error"), "0 errors");
        assert_eq!(count(1u64, "error"), "1 error");
        assert_eq!(count(3u32, "owner"), "3 owners");
        assert_eq!(count(1usize, "category"), "1 category");
        assert_eq!(count(12usize, "category"), "12 categories");
        assert_eq!(count(2usize, "identical copy"), "2 identical copies");
        assert_eq!(count(2usize, "other owner"), "2 other owners");
        assert_eq!(count(2usize, "key"), "2 keys");
        assert_eq!(count(2usize, "match"), "2 matches");
        assert_eq!(count(2usize, "bus"), "2 buses");
        assert_eq!(count(2usize, "box"), "2 boxes");
        assert_eq!(count(2usize, "person"), "2 people");
        assert_eq!(count(2usize, "Person"), "2 People");
        assert_eq!(count(1usize, "person"), "1 person");
    }
}
