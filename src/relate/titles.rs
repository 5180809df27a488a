//! Display titles shared within a repository: cards and comparison rows name a skill by its
//! title and its repository, so two skills of one repository with one title (case aside) look
//! the same there; each is then told apart by its folder.

use std::collections::HashMap;

/// For each skill, given as its repository and display title: whether another skill of the
/// same repository has the same title.
pub fn shared_in_repo<'a>(skills: impl Iterator<Item = (usize, &'a str)>) -> Vec<bool> {
    let keys: Vec<(usize, String)> = skills.map(|(repo, title)| (repo, title.to_lowercase())).collect();
    let mut counts: HashMap<&(usize, String), usize> = HashMap::new();
    for key in &keys {
        *counts.entry(key).or_default() += 1;
    }
    keys.iter().map(|key| counts[key] > 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_is_shared_only_within_its_repository_and_case_aside() {
        let skills = [(0, "PDF Tools"), (0, "pdf tools"), (1, "PDF Tools"), (0, "Charts")];
        assert_eq!(shared_in_repo(skills.iter().copied()), [true, true, false, false]);
    }
}
