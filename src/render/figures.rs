//! The charts of the home, repository and owner pages, and the skill page's token cost chart:
//! the catalog's figures handed to [`super::charts`].

use crate::model::Catalog;
use crate::scan::Verdict;

use super::charts::{self, Bar, TokenScale};
use super::context::TopicRow;

/// Categories drawn on the home page; the description counts the rest.
const TOP_CATEGORIES: usize = 8;
/// Months drawn of the first-seen series: the latest ones.
const MONTHS: usize = 24;

/// The home page's charts: skills per category (`categories`, the rows the page lists, most
/// skills first), verdicts, token cost, and skills first seen per month when dates are known.
pub fn home(catalog: &Catalog, categories: &[TopicRow]) -> Vec<String> {
    let all: Vec<usize> = (0..catalog.skills.len()).collect();
    let mut out = Vec::new();
    let rows = categories;
    if !rows.is_empty() {
        let bars: Vec<Bar> = rows.iter().take(TOP_CATEGORIES).map(|r| Bar::new(&r.name, r.count)).collect();
        let more = rows.len().saturating_sub(TOP_CATEGORIES);
        let title = if more > 0 {
            format!("Skills per category (the {TOP_CATEGORIES} largest of {})", rows.len())
        } else {
            "Skills per category".to_string()
        };
        out.push(charts::bars("chart-categories", &title, &bars));
    }
    out.push(verdicts(catalog, &all, "chart-verdicts"));
    out.push(tokens(catalog, &all, "chart-tokens"));
    if let Some(months) = first_seen(catalog) {
        out.push(months);
    }
    out
}

/// A repository's or an owner's charts: the verdicts and the token cost of its skills.
pub fn of_skills(catalog: &Catalog, skills: &[usize]) -> Vec<String> {
    vec![verdicts(catalog, skills, "chart-verdicts"), tokens(catalog, skills, "chart-tokens")]
}

fn verdicts(catalog: &Catalog, skills: &[usize], id: &str) -> String {
    let mut counts = [0usize; 4];
    for &i in skills {
        counts[match catalog.skills[i].verdict {
            Verdict::Passed => 0,
            Verdict::Notes => 1,
            Verdict::NotChecked => 2,
            Verdict::Failed => 3,
        }] += 1;
    }
    let bars = [("Passed", "passed"), ("Notes", "notes"), ("Not checked", "not-checked"), ("Failed", "failed")]
        .iter()
        .zip(counts)
        // A verdict no skill has is no bar: "not checked" is rare and mostly absent.
        .filter(|&(&(_, class), n)| n > 0 || class != "not-checked")
        .map(|(&(label, class), n)| Bar { class, ..Bar::new(label, n) })
        .collect::<Vec<_>>();
    charts::bars(id, "Automated check verdicts", &bars)
}

fn tokens(catalog: &Catalog, skills: &[usize], id: &str) -> String {
    let scale = TokenScale::new(skills.iter().map(|&i| catalog.skills[i].analysis.cost.tokens));
    let columns = charts::token_columns(&scale.counts(), None, |v| v.to_string());
    charts::columns(id, "Skills by token cost when loaded", &columns)
}

/// Skills first seen per month, from the first dated month to the last (the latest
/// [`MONTHS`]), months without a skill drawn as zero; `None` when no skill has a date.
fn first_seen(catalog: &Catalog) -> Option<String> {
    let mut months: Vec<(i64, u32)> = catalog
        .skills
        .iter()
        .filter_map(|s| s.history.first_seen)
        .map(|t| {
            let (y, m, _) = t.civil();
            (y, m)
        })
        .collect();
    months.sort_unstable();
    let (&first, &last) = (months.first()?, months.last()?);
    let index = |(y, m): (i64, u32)| y * 12 + i64::from(m) - 1;
    let start = index(first).max(index(last) - MONTHS as i64 + 1);
    let mut counts = vec![0usize; (index(last) - start + 1) as usize];
    for &month in &months {
        if index(month) >= start {
            counts[(index(month) - start) as usize] += 1;
        }
    }
    let bars: Vec<Bar> = counts
        .iter()
        .enumerate()
        .map(|(k, &n)| {
            let at = start + k as i64;
            Bar::new(format!("{}-{:02}", at.div_euclid(12), at.rem_euclid(12) + 1), n)
        })
        .collect();
    Some(charts::columns("chart-months", "Skills first seen per month", &bars))
}

/// The skill page's small chart: the catalog's token cost distribution in percent, the
/// skill's bin picked out; and a few words that place it, from the page input's place of
/// its cost among the catalog's.
/// Where a skill's token cost stands among the catalog's, in words read at once: lighter than
/// most, heavier than most, or about the middle.
pub fn skill_tokens(place: &super::page_input::TokenPlace) -> String {
    if place.only_one {
        "the only skill in this catalog".to_string()
    } else if place.above >= place.below {
        format!("lighter than {}% of skills here", place.above)
    } else {
        format!("heavier than {}% of skills here", place.below)
    }
}
