//! Similar skills: the skills that share the most tags, products and categories, ties broken by
//! TF-IDF similarity of name, description and headings.
//!
//! Built on inverted indexes with a fixed budget of postings visited per skill, rarest features
//! first, so the cost per skill does not grow with the size of the catalog (no all-pairs loop).
//! Deterministic: every tie falls back to catalog order.
//!
//! The same pass ranks each skill's own repository by the same measure ("more from the
//! repository"), over the repository's skills the index found plus a bounded sample of the
//! rest, so a repository of 5,000 skills costs each of them no more than one of 50.

use std::borrow::Cow;

use rayon::prelude::*;

use super::taxonomy::{Topics, words};
use crate::FastMap;

/// Posting entries visited per skill when gathering candidates.
const CANDIDATE_BUDGET: usize = 600;
/// Terms kept per skill vector: the highest TF-IDF weights.
const TERMS_PER_SKILL: usize = 24;
/// Text similarity below this, with no shared topic, is not similar at all.
const MIN_TEXT_SIMILARITY: f32 = 0.08;
/// Skills of the same repository compared with each skill beside those the index found: all of
/// a smaller repository; of a larger one, half around the skill's place in it (neighbouring
/// folders are often related) and half spread over the rest.
pub const SAME_REPO_COMPARED: usize = 200;

/// What the ranking reads of one skill.
pub struct SimilarInput<'a> {
    pub topics: &'a Topics,
    /// Name, description, headings, title: ranked as one text, kept as parts so that nothing
    /// is copied to build the ranking's key.
    pub text: Vec<Cow<'a, str>>,
    /// Hash of the skill's content: equal hashes are copies, never "similar".
    pub content_hash: u64,
    /// The skill's repository: skills with the same number are ranked for each other in
    /// [`Ranking::same_repo`].
    pub repo: usize,
}

/// Both rankings of every skill, in catalog order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranking {
    /// Up to `k` similar skills from the whole catalog, best first.
    pub similar: Vec<Vec<Match>>,
    /// Up to `same_repo_k` other skills of the skill's repository, nearest first by the same
    /// measure: each one found while there are that many, however little it shares. Only
    /// their order is shown, so only their numbers are kept.
    pub same_repo: Vec<Vec<usize>>,
    /// Skills whose ranking stopped on an internal error: they are shown with no similar
    /// skills, and the rest of the catalog is ranked.
    pub faults: Vec<(usize, crate::fault::Fault)>,
}

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Match {
    pub index: usize,
    /// Tags, products and categories in common.
    pub shared: usize,
    /// Cosine similarity of the TF-IDF vectors, 0..1.
    pub text: f32,
}

const STOPWORDS: &[&str] = &[
    "the", "and", "for", "with", "this", "that", "from", "into", "your", "you", "are", "use", "uses", "using", "when",
    "what", "how", "can", "will", "its", "it's", "not", "all", "any", "one", "two", "via", "per", "skill", "skills",
    "agent", "agents", "step", "steps", "before", "after", "then", "them", "they", "their", "has", "have", "does",
    "out", "more", "also", "each", "other", "such", "than", "only", "like", "about", "over", "under", "while", "which",
    "who",
];

/// For each skill, up to `k` similar skills and up to `same_repo_k` of its repository's, best
/// first.
pub fn rank(inputs: &[SimilarInput], k: usize, same_repo_k: usize) -> Ranking {
    let n = inputs.len();
    // Features: tags, products, categories, each an id in one space.
    let mut feature_ids: FastMap<String, u32> = FastMap::default();
    let features: Vec<Vec<u32>> = inputs
        .iter()
        .map(|input| {
            let t = input.topics;
            let keys = t
                .tags
                .iter()
                .map(|x| format!("t:{x}"))
                .chain(t.products.iter().map(|x| format!("p:{}", x.id)))
                .chain(t.categories.iter().map(|x| format!("c:{}", x.id)));
            let mut ids: Vec<u32> = keys
                .map(|key| {
                    let next = feature_ids.len() as u32;
                    *feature_ids.entry(key).or_insert(next)
                })
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        })
        .collect();

    // Terms with TF-IDF weights. A skill's words are read in parallel; only the numbering of
    // terms, which follows catalog order, is done in turn.
    let skill_words: Vec<Vec<String>> = inputs
        .par_iter()
        .map(|input| {
            input
                .text
                .iter()
                .flat_map(|part| words(part))
                .filter(|word| {
                    word.len() >= 3 && !STOPWORDS.contains(&word.as_str()) && !word.chars().all(|c| c.is_ascii_digit())
                })
                .collect()
        })
        .collect();
    let mut term_ids: FastMap<String, u32> = FastMap::default();
    let counts: Vec<Vec<(u32, f32)>> = skill_words
        .into_iter()
        .map(|words| {
            let mut tf: FastMap<u32, f32> = FastMap::default();
            for word in words {
                let next = term_ids.len() as u32;
                *tf.entry(*term_ids.entry(word).or_insert(next)).or_default() += 1.0;
            }
            let mut v: Vec<(u32, f32)> = tf.into_iter().collect();
            v.sort_unstable_by_key(|(t, _)| *t);
            v
        })
        .collect();
    let mut df = vec![0u32; term_ids.len()];
    for v in &counts {
        for (t, _) in v {
            df[*t as usize] += 1;
        }
    }
    let vectors: Vec<Vec<(u32, f32)>> = counts
        .into_par_iter()
        .map(|v| {
            let mut weighted: Vec<(u32, f32)> = v
                .into_iter()
                .map(|(t, tf)| (t, (1.0 + tf.ln()) * ((1.0 + n as f32) / (1.0 + df[t as usize] as f32)).ln()))
                .collect();
            weighted.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            weighted.truncate(TERMS_PER_SKILL);
            let norm = weighted.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
            if norm > 0.0 {
                weighted.iter_mut().for_each(|(_, w)| *w /= norm);
            }
            weighted.sort_unstable_by_key(|(t, _)| *t);
            weighted
        })
        .collect();

    // Postings: feature -> skills, term -> skills (only the terms each skill kept).
    let mut feature_postings: Vec<Vec<u32>> = vec![Vec::new(); feature_ids.len()];
    for (i, f) in features.iter().enumerate() {
        for id in f {
            feature_postings[*id as usize].push(i as u32);
        }
    }
    let mut term_postings: Vec<Vec<u32>> = vec![Vec::new(); term_ids.len()];
    for (i, v) in vectors.iter().enumerate() {
        for (t, _) in v {
            term_postings[*t as usize].push(i as u32);
        }
    }
    // The scoring loop reads candidates in random order: flat lists keep each read to one place.
    let content_hashes: Vec<u64> = inputs.iter().map(|input| input.content_hash).collect();
    let features = Flat::new(features);
    let vectors = Flat::new(vectors);
    let repos = Repos::new(inputs);

    // One scratch per worker thread, made once: fresh tables per task would be zeroed again by the
    // kernel each time.
    let scratches: Vec<std::sync::Mutex<Scratch>> = (0..rayon::current_num_threads().max(1))
        .map(|_| {
            std::sync::Mutex::new(Scratch {
                has_feature: vec![false; feature_ids.len()],
                weight: vec![0.0; term_ids.len()],
            })
        })
        .collect();
    let rank_one = |i: usize| {
        // Rarest lists first: they say the most, and the budget is spent where it counts.
        let mut lists: Vec<&[u32]> = features
            .get(i)
            .iter()
            .map(|f| feature_postings[*f as usize].as_slice())
            .chain(vectors.get(i).iter().map(|(t, _)| term_postings[*t as usize].as_slice()))
            .collect();
        lists.sort_by_key(|l| l.len());
        let mut budget = CANDIDATE_BUDGET;
        let mut candidates: Vec<u32> = Vec::new();
        for list in lists {
            if budget == 0 {
                break;
            }
            // Spread the visited part over the whole list so no part of the catalog is favoured.
            let step = list.len().div_ceil(budget).max(1);
            for &j in list.iter().step_by(step) {
                candidates.push(j);
            }
            budget = budget.saturating_sub(list.len().min(budget));
        }
        candidates.sort_unstable();
        candidates.dedup();
        // The repository's skills among them, and a bounded sample of the rest of it.
        let mut in_repo: Vec<u32> =
            candidates.iter().copied().filter(|&j| inputs[j as usize].repo == inputs[i].repo).collect();
        repos.sample(i, &mut in_repo);
        in_repo.sort_unstable();
        in_repo.dedup();

        let slot = rayon::current_thread_index().unwrap_or(0) % scratches.len();
        // A ranking that stopped half-way (see below) left its scratch poisoned, and maybe
        // loaded: it is cleared before it serves again.
        let mut scratch = scratches[slot].lock().unwrap_or_else(|poisoned| {
            scratches[slot].clear_poison();
            let mut scratch = poisoned.into_inner();
            scratch.clear();
            scratch
        });
        scratch.load(features.get(i), vectors.get(i));
        let score = |list: Vec<u32>, k: usize| {
            // Shared topics first: cheap, and they decide the order. Text similarity is
            // computed only for candidates that can still make the top k.
            let mut scored: Vec<(usize, usize)> = list
                .into_iter()
                .map(|j| j as usize)
                .filter(|&j| j != i && content_hashes[j] != content_hashes[i])
                .map(|j| (j, scratch.shared(features.get(j))))
                .collect();
            let mut by_shared: Vec<usize> = scored.iter().map(|&(_, s)| s).collect();
            by_shared.sort_unstable_by(|a, b| b.cmp(a));
            let threshold = by_shared.get(k.saturating_sub(1)).copied().unwrap_or(0);
            scored.retain(|&(_, shared)| shared >= threshold);
            scored
                .into_iter()
                .map(|(j, shared)| Match { index: j, shared, text: scratch.cosine(vectors.get(j)) })
                .collect::<Vec<Match>>()
        };
        let best_first = |mut matches: Vec<Match>, k: usize| {
            matches.sort_by(|a, b| b.shared.cmp(&a.shared).then(b.text.total_cmp(&a.text)).then(a.index.cmp(&b.index)));
            matches.truncate(k);
            matches
        };
        let mut similar = score(candidates, k);
        similar.retain(|m| m.shared > 0 || m.text >= MIN_TEXT_SIMILARITY);
        let same_repo = score(in_repo, same_repo_k);
        scratch.unload(features.get(i), vectors.get(i));
        let same_repo = best_first(same_repo, same_repo_k).into_iter().map(|m| m.index).collect();
        (best_first(similar, k), same_repo)
    };
    // Each skill's ranking is its own boundary: one that stops leaves that skill unranked.
    type Ranked = Result<(Vec<Match>, Vec<usize>), crate::fault::Fault>;
    let ranked: Vec<Ranked> = (0..n)
        .into_par_iter()
        .map(|i| {
            crate::fault::catch(crate::fault::Stage::Relate, || {
                #[cfg(test)]
                inputs[i].text.iter().for_each(|part| crate::fault::inject(crate::fault::Stage::Relate, part));
                rank_one(i)
            })
        })
        .collect();
    let mut ranking = Ranking::default();
    for (i, result) in ranked.into_iter().enumerate() {
        let (similar, same_repo) = result.unwrap_or_else(|fault| {
            ranking.faults.push((i, fault));
            Default::default()
        });
        ranking.similar.push(similar);
        ranking.same_repo.push(same_repo);
    }
    ranking
}

/// Each repository's skills, in catalog order, and each skill's place among them.
struct Repos {
    members: Vec<Vec<u32>>,
    /// Per skill: its repository's list in `members`, and its place in it.
    place: Vec<(usize, usize)>,
}

impl Repos {
    fn new(inputs: &[SimilarInput]) -> Repos {
        let mut list_of: FastMap<usize, usize> = FastMap::default();
        let mut members: Vec<Vec<u32>> = Vec::new();
        let place = inputs
            .iter()
            .enumerate()
            .map(|(i, input)| {
                let list = *list_of.entry(input.repo).or_insert_with(|| {
                    members.push(Vec::new());
                    members.len() - 1
                });
                members[list].push(i as u32);
                (list, members[list].len() - 1)
            })
            .collect();
        Repos { members, place }
    }

    /// Adds to `out` the skills of skill `i`'s repository it is compared with beside those the
    /// index found: all of them up to [`SAME_REPO_COMPARED`], else that many, half on either
    /// side of its place and half spread evenly over the whole list.
    fn sample(&self, i: usize, out: &mut Vec<u32>) {
        let (list, at) = self.place[i];
        let members = &self.members[list];
        if members.len() <= SAME_REPO_COMPARED {
            out.extend_from_slice(members);
            return;
        }
        let half = SAME_REPO_COMPARED / 2;
        let start = at.saturating_sub(half / 2).min(members.len() - half);
        out.extend_from_slice(&members[start..start + half]);
        out.extend(members.iter().step_by(members.len().div_ceil(half)));
    }
}

/// One list per skill, stored end to end.
struct Flat<T> {
    starts: Vec<usize>,
    items: Vec<T>,
}

impl<T> Flat<T> {
    fn new(lists: Vec<Vec<T>>) -> Self {
        let mut starts = Vec::with_capacity(lists.len() + 1);
        let mut items = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        starts.push(0);
        for list in lists {
            items.extend(list);
            starts.push(items.len());
        }
        Flat { starts, items }
    }

    fn get(&self, i: usize) -> &[T] {
        &self.items[self.starts[i]..self.starts[i + 1]]
    }
}

/// One skill's features and term weights spread over dense tables, so comparing it with a
/// candidate costs one lookup per candidate entry instead of a merge of two sorted lists.
struct Scratch {
    has_feature: Vec<bool>,
    weight: Vec<f32>,
}

impl Scratch {
    fn load(&mut self, features: &[u32], vector: &[(u32, f32)]) {
        features.iter().for_each(|&f| self.has_feature[f as usize] = true);
        vector.iter().for_each(|&(t, w)| self.weight[t as usize] = w);
    }

    /// Every table back to empty, whatever skill is loaded.
    fn clear(&mut self) {
        self.has_feature.fill(false);
        self.weight.fill(0.0);
    }

    fn unload(&mut self, features: &[u32], vector: &[(u32, f32)]) {
        features.iter().for_each(|&f| self.has_feature[f as usize] = false);
        vector.iter().for_each(|&(t, _)| self.weight[t as usize] = 0.0);
    }

    /// Features in common with the loaded skill.
    fn shared(&self, features: &[u32]) -> usize {
        features.iter().filter(|&&f| self.has_feature[f as usize]).count()
    }

    /// Cosine similarity with the loaded skill: both vectors are unit length. Summed in term
    /// order, skipping terms the loaded skill lacks, like a merge of the two lists would.
    fn cosine(&self, vector: &[(u32, f32)]) -> f32 {
        let mut dot = 0.0;
        for &(t, w) in vector {
            let own = self.weight[t as usize];
            if own != 0.0 {
                dot += own * w;
            }
        }
        dot
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relate::taxonomy::Topic;

    fn topics(tags: &[&str], category: &str) -> Topics {
        Topics {
            tags: tags.iter().map(|s| s.to_string()).collect(),
            categories: vec![Topic { id: category.into(), name: category.into() }],
            products: vec![],
        }
    }

    #[test]
    fn shared_topics_rank_first_then_text_and_copies_are_left_out() {
        let t_py = topics(&["python", "scripts"], "dev");
        let t_other = topics(&["slack"], "chat");
        let t_dev = topics(&[], "dev");
        let inputs = vec![
            SimilarInput {
                topics: &t_py,
                text: vec!["python script runner checks interpreter".into()],
                content_hash: 1,
                repo: 0,
            },
            SimilarInput {
                topics: &t_py,
                text: vec!["python script runner plus checks imports".into()],
                content_hash: 2,
                repo: 0,
            },
            SimilarInput {
                topics: &t_other,
                text: vec!["python script runner checks interpreter".into()],
                content_hash: 3,
                repo: 0,
            },
            SimilarInput { topics: &t_dev, text: vec!["unrelated words entirely".into()], content_hash: 4, repo: 0 },
            SimilarInput { topics: &t_py, text: vec!["exact copy".into()], content_hash: 1, repo: 0 },
            SimilarInput { topics: &t_other, text: vec!["nothing alike at all".into()], content_hash: 5, repo: 0 },
        ];
        let ranked = rank(&inputs, 5, 5).similar;
        let first: Vec<usize> = ranked[0].iter().map(|m| m.index).collect();
        // Shares 3 topics with 1, 1 topic with 3, text with 2; 4 is its copy.
        assert_eq!(first, [1, 3, 2]);
        assert!(!first.contains(&4));
        assert!(!first.contains(&5));
        assert_eq!(ranked[0][0].shared, 3);
    }

    #[test]
    fn the_scratch_scores_like_a_merge_of_sorted_lists_and_is_left_clean() {
        let own_features = [1u32, 4, 7];
        let own_vector = [(2u32, 0.6f32), (5, 0.0), (9, 0.8)];
        let mut scratch = Scratch { has_feature: vec![false; 10], weight: vec![0.0; 12] };
        scratch.load(&own_features, &own_vector);
        assert_eq!(scratch.shared(&[0, 4, 7, 8]), 2);
        assert_eq!(scratch.shared(&[]), 0);
        let other = [(1u32, 0.5f32), (2, 0.3), (9, 0.2), (11, 0.9)];
        assert_eq!(scratch.cosine(&other), 0.6 * 0.3 + 0.8 * 0.2);
        scratch.unload(&own_features, &own_vector);
        assert!(scratch.has_feature.iter().all(|&f| !f));
        assert!(scratch.weight.iter().all(|&w| w == 0.0));
    }

    #[test]
    fn ranking_is_deterministic() {
        let t = topics(&["a"], "c");
        let inputs: Vec<SimilarInput> = (0..50)
            .map(|i| SimilarInput {
                topics: &t,
                text: vec![format!("word{} common", i % 7).into()],
                content_hash: i,
                repo: i as usize % 3,
            })
            .collect();
        assert_eq!(rank(&inputs, 5, 5), rank(&inputs, 5, 5));
    }

    #[test]
    fn a_large_repository_is_sampled_and_its_nearest_skill_still_found() {
        let plain = topics(&[], "misc");
        let rare = topics(&["rare"], "misc");
        let n = 5_000;
        let inputs: Vec<SimilarInput> = (0..n)
            .map(|i| SimilarInput {
                topics: if i == 0 || i == 4_001 { &rare } else { &plain },
                text: vec![format!("filler{i}").into()],
                content_hash: i as u64,
                repo: 0,
            })
            .collect();
        let repos = Repos::new(&inputs);
        for i in [0, 2_500, n - 1] {
            let mut sample = Vec::new();
            repos.sample(i, &mut sample);
            assert!(sample.len() <= SAME_REPO_COMPARED, "{}", sample.len());
        }
        let mut sample = Vec::new();
        repos.sample(0, &mut sample);
        assert!(!sample.contains(&4_001), "outside the sample, found through the index");
        let ranked = rank(&inputs, 6, 6);
        assert_eq!(ranked.same_repo[0][0], 4_001);
        assert_eq!(ranked.same_repo[0].len(), 6, "filled up with the sampled ones");
        assert!(ranked.same_repo.iter().all(|list| list.len() == 6));
    }
}
