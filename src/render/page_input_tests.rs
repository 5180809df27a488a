//! A skill page's key is its input hashed: every change to what the page is made of that
//! changes the page changes its key, and a change it does not read leaves the key alone.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::analyze::{self, LicenseInputs};
use crate::discover::{RepoId, SkillDir, SkillFile};
use crate::hash::Hash;
use crate::model::{Catalog, Repo, RepoFacts, Skill, SkillPageFacts};
use crate::relate::{Relations, Topics, copies::Copies, similar::Match};

use super::charts::TokenScale;
use super::context::SiteCtx;
use super::keys::{FactKeys, Keyed};
use super::page_input::{Frame, Sources};
use super::shown::{Shown, ShownMemo};
use super::topics::TopicIndex;
use super::{Renderer, SkillTexts, skill_page};

/// SKILL.md texts, their source keys and packed page facts, as the build hands them over.
#[derive(Clone)]
struct Texts {
    texts: Vec<String>,
    keys: Vec<String>,
    facts: Vec<Vec<u8>>,
    /// The hashes of `facts`.
    facts_keys: Vec<Hash>,
}

impl SkillTexts for Texts {
    fn text(&self, index: usize) -> crate::error::Result<Cow<'_, str>> {
        Ok(Cow::Borrowed(&self.texts[index]))
    }

    fn page_facts(&self, index: usize) -> crate::error::Result<SkillPageFacts> {
        Ok(rmp_serde::from_slice(&self.facts[index]).expect("packed by the test"))
    }

    fn page_facts_key(&self, index: usize) -> &Hash {
        &self.facts_keys[index]
    }

    fn source_key(&self, index: usize) -> &str {
        &self.keys[index]
    }
}

const REPO: (&str, &str) = ("acme", "tools");

/// A skill of `REPO` in folder `folder`, read from `text`, and its page facts packed.
fn skill(folder: &str, text: &str) -> (Skill, Vec<u8>) {
    let path = PathBuf::from(format!("/catalog/{folder}/SKILL.md"));
    let parsed = crate::parse::parse_skill(&path, text.as_bytes()).expect("a valid skill");
    let id = RepoId { owner: REPO.0.into(), name: REPO.1.into() };
    let (analysis, body) = analyze::analyze(&parsed, &id, folder, LicenseInputs { skill_file: None, repo_file: None });
    let facts = SkillPageFacts { frontmatter: parsed.frontmatter.clone(), body, scan: Default::default() };
    let skill = Skill {
        repo: 0,
        slug: folder.to_string(),
        dir: SkillDir {
            dir: path.parent().unwrap().to_path_buf(),
            rel_dir: folder.to_string(),
            skill_file: "SKILL.md".into(),
            files: vec![SkillFile {
                path: "SKILL.md".into(),
                size: text.len() as u64,
                is_symlink: false,
                modified: 0,
                inode: 0,
                changed: 0,
            }],
        },
        compatibility: parsed.frontmatter.compatibility.clone(),
        body_start: parsed.body_start,
        name: parsed.frontmatter.name.clone().unwrap(),
        description: parsed.frontmatter.description.clone().unwrap(),
        analysis,
        verdict: crate::scan::Verdict::Passed,
        reading: parsed.reading.clone(),
        topics: Topics::default(),
        history: Default::default(),
        copies: Copies::default(),
        title_shared: false,
    };
    (skill, rmp_serde::to_vec(&facts).unwrap())
}

fn skill_md(name: &str, description: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: {description}\nlicense: MIT\n---\n# {name}\n\nIt does one thing well.\n\n## Steps\n\n1. Read the input.\n2. Write the output.\n"
    )
}

/// Two similar skills of one repository.
fn catalog() -> (Catalog, Texts) {
    let texts = vec![skill_md("alpha", "Formats tables."), skill_md("beta", "Checks links.")];
    let (a, a_facts) = skill("alpha", &texts[0]);
    let (b, b_facts) = skill("beta", &texts[1]);
    let repo = Repo {
        id: RepoId { owner: REPO.0.into(), name: REPO.1.into() },
        root: PathBuf::from("/catalog"),
        license: analyze::license::license(None, None, None),
        skill_folders: 2,
        skills: vec![0, 1],
        // Read from a git work tree, so that the page shows the dates it has.
        facts: RepoFacts { commit: Some("fedcba9876543210".into()), ..RepoFacts::default() },
        hosted: true,
    };
    let config = crate::config::Config::parse("title = \"Skills\"\nbase_url = \"https://x.io/\"\n", Path::new("c"))
        .expect("a valid config");
    let catalog = Catalog {
        config,
        repos: vec![repo],
        skills: vec![a, b],
        diagnostics: Vec::new(),
        relations: Relations {
            topics: vec![Topics::default(), Topics::default()],
            similar: vec![
                vec![Match { index: 1, shared: 1, text: 0.5 }],
                vec![Match { index: 0, shared: 1, text: 0.5 }],
            ],
            same_repo: vec![vec![1], vec![0]],
            similar_key: String::new(),
            faults: Vec::new(),
        },
        editorial: Default::default(),
    };
    let keys = vec!["key of alpha".into(), "key of beta".into()];
    let facts_keys = vec![crate::hash::hash_bytes(&a_facts), crate::hash::hash_bytes(&b_facts)];
    (catalog, Texts { texts, keys, facts: vec![a_facts, b_facts], facts_keys })
}

/// The first skill's page key and its page, rendered.
fn key_and_page(catalog: &Catalog, texts: &Texts) -> (Hash, String) {
    let program = [7; 16];
    let renderer = Renderer::new(program).unwrap();
    let facts = FactKeys::new(catalog, texts);
    let shown = Shown::new(&facts, &program, &mut ShownMemo::default());
    let topic_index = TopicIndex::new(catalog);
    let token_scale = TokenScale::new(catalog.skills.iter().map(|s| s.analysis.cost.tokens));
    let base_url = catalog.config.base_url.clone();
    let site = SiteCtx {
        title: catalog.config.title.clone(),
        description: catalog.config.description.clone(),
        root: String::new(),
        dir: String::new(),
        canonical: base_url.clone(),
        version: "test",
        has_report: false,
        has_feed: false,
    };
    let frame = Frame { site, base_url };
    let sources = Sources {
        catalog,
        facts: &facts,
        frame: Keyed::new("frame", &frame),
        shown: &shown,
        topic_index: &topic_index,
        token_scale: &token_scale,
        texts,
        text_limit: catalog.config.publish.text_limit_for(catalog.skills.len()),
        archives: catalog.config.publish.skill_index_for(catalog.skills.len()),
    };
    let input = sources.skill_page(0);
    let page = renderer.render("skill.html", &skill_page::skill_page(&input).unwrap()).unwrap();
    (crate::hash::of("skill page", &input), page)
}

type Change = fn(&mut Catalog, &mut Texts);

#[test]
fn every_change_a_skill_page_shows_changes_its_key() {
    // A fact that reading a skill's folder yields changes only with the key the folder is read
    // under (the build's cache rests on it), so such changes come with a new key, as a build
    // makes them.
    let changes: &[(&str, Change)] = &[
        ("its description", |c, t| {
            c.skills[0].description = "Formats wide tables.".into();
            t.keys[0] = "key of alpha, read again".into();
        }),
        ("its files", |c, _| {
            let mut file = c.skills[0].dir.files[0].clone();
            file.path = "scripts/run.sh".into();
            c.skills[0].dir.files.push(file);
        }),
        ("its first commit", |c, _| c.skills[0].history.first_seen = Some(crate::time::Timestamp(1_700_000_000))),
        ("its copies", |c, _| {
            c.skills[0].copies = Copies { hash: None, canonical: Some(1), others: 1, used_in: 1 };
        }),
        ("the repository's stars", |c, _| c.repos[0].facts.stars = Some(1234)),
        ("the repository's commit", |c, _| c.repos[0].facts.commit = Some("0123456789abcdef".into())),
        ("the repository not on the web", |c, _| c.repos[0].hosted = false),
        ("a similar skill's title", |c, t| {
            c.skills[1].analysis.digest.title = "Link checker".into();
            t.keys[1] = "key of beta, read again".into();
        }),
        ("a similar skill gone", |c, _| c.relations.similar[0].clear()),
        ("its tags", |c, _| c.relations.topics[0].tags.push("tables".into())),
        ("the editors' notes", |c, _| {
            let notes = crate::notes::SkillNotes { summary: Some("Our pick.".into()), ..Default::default() };
            c.editorial.notes.insert("acme/tools/alpha".into(), notes);
        }),
        ("the owner's badge", |c, _| {
            c.editorial.publishers.insert("acme".into(), crate::notes::Publisher { badge: "Official".into() });
        }),
        ("the catalog's token costs", |c, t| {
            c.skills[1].analysis.cost.tokens = 50_000;
            t.keys[1] = "key of beta, read again".into();
        }),
        ("the base URL", |c, _| c.config.base_url = "https://y.io/".into()),
        ("the site's title", |c, _| c.config.title = "More skills".into()),
        ("the catalog's text limit", |c, _| c.config.publish.text_limit = Some(10)),
        ("a similar skill's title shared in its repository", |c, _| c.skills[1].title_shared = true),
        ("its page facts", |c, t| {
            let mut facts: SkillPageFacts = rmp_serde::from_slice(&t.facts[0]).unwrap();
            facts.body.steps.push("Check the output.".into());
            t.facts[0] = rmp_serde::to_vec(&facts).unwrap();
            t.facts_keys[0] = crate::hash::hash_bytes(&t.facts[0]);
            let _ = c;
        }),
        // The text stands as the key it was read under: a new text comes with a new key.
        ("its text", |_, t| {
            t.texts[0] = t.texts[0].replace("one thing", "two things");
            t.keys[0] = "key of alpha, edited".into();
        }),
    ];
    let (catalog, texts) = catalog();
    let (key, page) = key_and_page(&catalog, &texts);
    for (what, change) in changes {
        let (mut changed, mut changed_texts) = (catalog_clone(&catalog), texts.clone());
        change(&mut changed, &mut changed_texts);
        let (changed_key, changed_page) = key_and_page(&changed, &changed_texts);
        assert_ne!(changed_page, page, "the page does not show {what}: the change tests nothing");
        assert_ne!(changed_key, key, "the page shows {what}, which its key does not cover");
    }
}

#[test]
fn what_a_skill_page_does_not_show_leaves_its_key() {
    let (catalog, texts) = catalog();
    let (key, page) = key_and_page(&catalog, &texts);
    let mut changed = catalog_clone(&catalog);
    // The ranking's figures order the similar skills but are not shown; another skill's files
    // are not shown either.
    changed.relations.similar[0][0].shared = 3;
    changed.skills[1].dir.files[0].size += 1;
    let (changed_key, changed_page) = key_and_page(&changed, &texts);
    assert_eq!((changed_key, changed_page), (key, page));
}

/// The catalog has no `Clone` (nothing in the build copies one): the test's copy.
fn catalog_clone(catalog: &Catalog) -> Catalog {
    let skills = catalog
        .skills
        .iter()
        .map(|s| Skill {
            repo: s.repo,
            slug: s.slug.clone(),
            dir: s.dir.clone(),
            compatibility: s.compatibility.clone(),
            body_start: s.body_start,
            analysis: s.analysis.clone(),
            verdict: s.verdict,
            name: s.name.clone(),
            description: s.description.clone(),
            reading: s.reading.clone(),
            topics: s.topics.clone(),
            history: s.history.clone(),
            copies: s.copies.clone(),
            title_shared: s.title_shared,
        })
        .collect();
    let repos = catalog
        .repos
        .iter()
        .map(|r| Repo {
            id: r.id.clone(),
            root: r.root.clone(),
            license: r.license.clone(),
            skill_folders: r.skill_folders,
            skills: r.skills.clone(),
            facts: r.facts.clone(),
            hosted: r.hosted,
        })
        .collect();
    Catalog {
        config: catalog.config.clone(),
        repos,
        skills,
        diagnostics: catalog.diagnostics.clone(),
        relations: catalog.relations.clone(),
        editorial: catalog.editorial.clone(),
    }
}
