//! Render: the catalog -> pages (path, bytes), handed one by one to the write sink.
//!
//! Escaping lives here: templates autoescape every value, and the only HTML inserted as-is is
//! what [`markdown::render`] produced (raw HTML in skills shown as text, unsafe links inert) and
//! JSON-LD with `<` escaped.

pub mod charts;
pub mod context;
pub mod facets;
pub mod feeds;
pub mod figures;
mod indent;
pub mod keys;
pub mod listing;
pub mod markdown;
pub mod page_input;
#[cfg(test)]
mod page_input_tests;
mod report;
pub mod search;
pub mod shown;
pub mod skill_page;
pub mod topics;
pub mod urls;
pub mod xml;

use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::hash::{Hash, hash_bytes, hash_parts};
use crate::model::Catalog;
use crate::progress::{Progress, Stage};
use crate::write::SiteWriter;
use context::*;

/// Templates and static files built into the binary.
const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/base.html")),
    ("skill.html", include_str!("../../templates/skill.html")),
    ("repo.html", include_str!("../../templates/repo.html")),
    ("index.html", include_str!("../../templates/index.html")),
    ("report.html", include_str!("../../templates/report.html")),
    ("404.html", include_str!("../../templates/404.html")),
    ("cards.html", include_str!("../../templates/cards.html")),
    ("listing.html", include_str!("../../templates/listing.html")),
    ("topics.html", include_str!("../../templates/topics.html")),
    ("repos.html", include_str!("../../templates/repos.html")),
    ("search.html", include_str!("../../templates/search.html")),
    ("owner.html", include_str!("../../templates/owner.html")),
    ("skill_fallback.html", include_str!("../../templates/skill_fallback.html")),
    ("agents.html", include_str!("../../templates/agents.html")),
    ("about.html", include_str!("../../templates/about.html")),
];
const STATIC_FILES: &[(&str, &[u8])] = &[
    ("static/style.css", include_bytes!("../../static/style.css")),
    ("static/catalog.js", include_bytes!("../../static/catalog.js")),
    ("static/search.js", include_bytes!("../../static/search.js")),
    ("static/favicon.svg", include_bytes!("../../static/favicon.svg")),
];

pub struct Renderer {
    tera: tera::Tera,
    /// Hash of the binary and every template: part of each page's render key.
    identity: Hash,
    /// The running program's identity, which keys the files made without templates.
    program: Hash,
    /// Static files to publish under `static/`: the embedded ones, replaced or joined by the
    /// catalog's own.
    static_files: Vec<(String, Vec<u8>)>,
}

impl Renderer {
    /// The embedded templates and static files only; `program` is the running program's
    /// identity, part of every render key.
    pub fn new(program: Hash) -> Result<Renderer> {
        Self::with_theme(None, program)
    }

    /// Templates and static files, where `theme` (a catalog root) may override them file by
    /// file: `theme/templates/<name>.html` replaces the embedded template of that name, and
    /// every file in `theme/static/` is published, replacing an embedded one of the same name.
    pub fn with_theme(theme: Option<&Path>, program: Hash) -> Result<Renderer> {
        let mut tera = tera::Tera::new();
        tera.autoescape_on(vec![".html"]);
        register_filters(&mut tera);
        let mut templates: Vec<(String, String)> =
            TEMPLATES.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
        let mut static_files: Vec<(String, Vec<u8>)> =
            STATIC_FILES.iter().map(|(n, b)| (n.to_string(), b.to_vec())).collect();
        if let Some(theme) = theme {
            for (name, text) in &mut templates {
                let path = theme.join("templates").join(&*name);
                if path.is_file() {
                    *text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
                }
            }
            let static_dir = theme.join("static");
            for entry in
                walkdir::WalkDir::new(&static_dir).follow_links(false).sort_by_file_name().into_iter().flatten()
            {
                if !entry.file_type().is_file() {
                    continue;
                }
                let Ok(rel) = entry.path().strip_prefix(&static_dir) else { continue };
                let Some(rel) = rel.to_str().map(|r| format!("static/{}", r.replace('\\', "/"))) else { continue };
                let bytes = std::fs::read(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
                match static_files.iter_mut().find(|(n, _)| *n == rel) {
                    Some(existing) => existing.1 = bytes,
                    None => static_files.push((rel, bytes)),
                }
            }
        }
        for (_, text) in &mut templates {
            *text = indent::trim_indentation(text);
        }
        let mut identity = blake3::Hasher::new();
        identity.update(&program);
        for (name, text) in &templates {
            identity.update(name.as_bytes()).update(&[0]).update(text.as_bytes()).update(&[0]);
        }
        let identity = hash_bytes(identity.finalize().as_bytes());
        // All at once: templates use components defined in another template.
        tera.add_raw_templates(templates.iter().map(|(n, t)| (n.as_str(), t.as_str())))
            .map_err(|e| Error::Template { name: "templates".into(), message: error_chain(&e) })?;
        Ok(Renderer { tera, identity, program, static_files })
    }

    pub fn render<T: Serialize>(&self, template: &str, data: &T) -> Result<String> {
        let context = tera::Context::from_serialize(data)
            .map_err(|e| Error::Template { name: template.into(), message: error_chain(&e) })?;
        self.tera
            .render(template, &context)
            .map_err(|e| Error::Template { name: template.into(), message: error_chain(&e) })
    }

    /// Renders `template` with `data` into `path` of the site, unless the published page was
    /// rendered from the same templates and the same data (its render key).
    pub fn page<T: Serialize>(&self, out: &SiteWriter, path: &str, template: &str, data: &T) -> Result<()> {
        // Serialized whole, then hashed: one large update is several times faster than the
        // serializer's many small writes.
        let mut bytes = Vec::with_capacity(16 * 1024);
        bytes.extend_from_slice(&self.identity);
        bytes.extend_from_slice(template.as_bytes());
        bytes.push(0);
        serde_json::to_writer(&mut bytes, data)
            .map_err(|e| Error::Template { name: template.into(), message: error_chain(&e) })?;
        let key = hash_bytes(&bytes);
        out.write_page(path, key, || self.render(template, data))
    }

    /// Renders `template` into `path` with the context `build` makes, unless the published page
    /// was rendered from the same templates and the same `inputs` (a hash of everything the
    /// context is made of, see [`keys`]): the context is then not even built.
    pub fn page_from_inputs<T: Serialize>(
        &self,
        out: &SiteWriter,
        path: &str,
        template: &str,
        inputs: Hash,
        build: impl FnOnce() -> Result<T>,
    ) -> Result<()> {
        let key = hash_parts(&[&self.identity[..], template.as_bytes(), &[0], &inputs[..]]);
        out.write_page(path, key, || self.render(template, &build()?))
    }
}

/// `{{ n | count(of="repository") }}` is "1 repository" or "2 repositories"; `plural` is the
/// noun alone, for markup around the number (see [`crate::plural`]).
fn register_filters(tera: &mut tera::Tera) {
    use tera::{Kwargs, State, TeraResult};
    tera.register_filter("count", |n: u64, kwargs: Kwargs, _: &State| -> TeraResult<String> {
        Ok(crate::plural::count(n, kwargs.must_get::<&str>("of")?))
    });
    // `{{ path | link(from=site.dir) }}`: the shortest relative link to a site path.
    tera.register_filter("link", |to: &str, kwargs: Kwargs, _: &State| -> TeraResult<String> {
        Ok(urls::relative(kwargs.must_get::<&str>("from")?, to))
    });
    tera.register_filter("plural", |n: u64, kwargs: Kwargs, _: &State| -> TeraResult<String> {
        Ok(crate::plural::noun(n, kwargs.must_get::<&str>("of")?).into_owned())
    });
}

fn error_chain(err: &dyn std::error::Error) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(inner) = source {
        message.push_str(": ");
        message.push_str(&inner.to_string());
        source = inner.source();
    }
    message
}

/// What a render wrote.
#[derive(Debug, Clone, Default)]
pub struct RenderStats {
    pub pages: usize,
    /// Pages made in part: the full page stopped on an internal error, named here.
    pub diagnostics: Vec<crate::diag::Diagnostic>,
}

/// SKILL.md's text of each skill, by its index in the catalog, as it was read (BOM removed,
/// line endings as written), and a key of what the skill was read from. The build hands them
/// over; it may keep the texts elsewhere until a page asks for one.
pub trait SkillTexts: Sync {
    fn text(&self, index: usize) -> Result<std::borrow::Cow<'_, str>>;
    /// The facts only the skill's own page reads, decoded from the bytes they were stored as.
    fn page_facts(&self, index: usize) -> Result<crate::model::SkillPageFacts>;
    /// The hash of the bytes [`SkillTexts::page_facts`] decodes ([`crate::hash::hash_bytes`]),
    /// made when they were stored: what the page's key holds of them.
    fn page_facts_key(&self, index: usize) -> &Hash;
    /// A hash of the skill's files and of what they were read with: the skill's facts from
    /// its folder and its text are functions of it.
    fn source_key(&self, index: usize) -> &str;
}

/// Builds the shared part of a page's context from the page's folder.
pub type SiteFn<'a> = dyn Fn(&str) -> SiteCtx + Sync + 'a;

/// Renders every page of the catalog into `out`.
/// `shown_memo`: what an earlier build's cards and rows were keyed as; then this build's (see
/// [`shown::ShownMemo`]).
pub fn render_site(
    catalog: &Catalog,
    renderer: &Renderer,
    out: &SiteWriter,
    progress: &Progress,
    shown_memo: &mut shown::ShownMemo,
    texts: &dyn SkillTexts,
) -> Result<RenderStats> {
    let has_feed = catalog.skills.iter().any(|s| s.history.first_seen.is_some());
    let skill_index_published = catalog.config.publish.skill_index_for(catalog.skills.len());
    let site = |page_dir: &str| SiteCtx {
        title: catalog.config.title.clone(),
        description: catalog.config.description.clone(),
        root: urls::path_to_root(page_dir),
        dir: page_dir.to_string(),
        canonical: urls::canonical(&catalog.config.base_url, page_dir),
        version: env!("CARGO_PKG_VERSION"),
        has_report: !catalog.diagnostics.is_empty(),
        has_feed,
    };
    let topic_index = topics::TopicIndex::new(catalog);
    // Every HTML page's folder, for the sitemap.
    let mut pages: Vec<feeds::SitemapEntry> = Vec::new();
    let mut add_pages =
        |dirs: Vec<String>| pages.extend(dirs.into_iter().map(|dir| feeds::SitemapEntry { dir, lastmod: None }));

    for (path, bytes) in &renderer.static_files {
        out.write(path, bytes)?;
    }
    // The agents' install templates, which skill pages fill for the agent a reader picks.
    out.write("static/agents.json", crate::agents::AGENTS.script_json().as_bytes())?;

    // Skill pages: the bulk of the work, one per skill, in parallel.
    let facts = keys::FactKeys::new(catalog, texts);
    let shown = shown::Shown::new(&facts, &renderer.program, shown_memo);
    let all = listing::skills_by_title(catalog);
    let title_rank = listing::title_ranks(&all);
    let frame = page_input::Frame { site: site(""), base_url: catalog.config.base_url.clone() };
    let frame = keys::Keyed::new("frame", &frame);
    let sorts = listing::sorts_of(catalog);
    let listings = listing::Listings {
        catalog,
        renderer,
        out,
        site: &site,
        shown: &shown,
        frame,
        title_rank: &title_rank,
        sorts: &sorts,
    };
    let token_scale = charts::TokenScale::new(catalog.skills.iter().map(|s| s.analysis.cost.tokens));
    let rendered = progress.counter(Stage::Render, catalog.skills.len());
    let text_limit = catalog.config.publish.text_limit_for(catalog.skills.len());
    let inputs = page_input::Sources {
        catalog,
        facts: &facts,
        frame,
        shown: &shown,
        topic_index: &topic_index,
        token_scale: &token_scale,
        texts,
        text_limit,
        archives: skill_index_published,
    };
    // A skill page that stops on an internal error is the one page made in part.
    let faults = std::sync::Mutex::new(Vec::new());
    (0..catalog.skills.len()).into_par_iter().try_for_each(|index| -> Result<()> {
        let skill = &catalog.skills[index];
        let dir = skill.url_path(&catalog.repos[skill.repo]);
        let path = [dir.as_str(), "index.html"].concat();
        let made = crate::fault::catch(crate::fault::Stage::Render, || {
            // The page's key is its input hashed; the page is made only when it is rendered.
            let input = inputs.skill_page(index);
            let key = crate::hash::of("skill page", &input);
            renderer.page_from_inputs(out, &path, "skill.html", key, || {
                #[cfg(test)]
                crate::fault::inject(crate::fault::Stage::Render, &skill.description);
                skill_page::skill_page(&input)
            })
        });
        match made {
            Ok(written) => written?,
            Err(fault) => {
                let page = fallback_page(catalog, index, site(&dir));
                renderer.page(out, &path, "skill_fallback.html", &page)?;
                let message = format!("{fault}; its page shows only its name and description");
                let diagnostic =
                    crate::diag::Diagnostic::warning(skill.repo_path(&catalog.repos[skill.repo]), None, message);
                faults.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((index, diagnostic));
            }
        }
        // A copy of the file is published where nothing else serves it: a source without a
        // repository on the web, or a catalog whose discovery index lists the copy. Other pages
        // link the file at its source, at the commit read.
        let repo = &catalog.repos[skill.repo];
        if skill.analysis.license.redistributable && (repo.web_url().is_none() || skill_index_published) {
            // The text is a function of the skill's cache key: an unchanged one is not hashed again.
            let key = hash_parts(&[b"SKILL.md copy\0", texts.source_key(index).as_bytes()]);
            out.write_page(&format!("{dir}SKILL.md"), key, || Ok(texts.text(index)?.into_owned()))?;
        }
        rendered.tick();
        Ok(())
    })?;

    let repo_dirs = catalog.repos.par_iter().map(|repo| -> Result<Vec<String>> {
        let dir = repo.url_path();
        let root = urls::path_to_root(&dir);
        let mut facts = vec![
            Fact { label: "Skills", value: repo.skills.len().to_string(), known: true, href: None },
            Fact {
                label: "Licence",
                value: repo.license.label.clone(),
                known: repo.license.spdx.is_some(),
                href: repo.license.file.as_deref().and_then(|file| repo.file_web_url(file)),
            },
            Fact {
                label: "Stars",
                value: repo.facts.stars.map(|s| urls::compact_count(s as usize)).unwrap_or_else(|| "Not known".into()),
                known: repo.facts.stars.is_some(),
                href: None,
            },
            Fact {
                label: "Commit",
                value: repo.facts.short_commit().unwrap_or("Not known").to_string(),
                known: repo.facts.commit.is_some(),
                href: repo
                    .facts
                    .commit
                    .as_ref()
                    .and_then(|commit| repo.web_url().map(|web| format!("{web}/tree/{commit}"))),
            },
            Fact {
                label: "Updated",
                value: repo.facts.updated.map(|t| t.long_date()).unwrap_or_else(|| "Not known".into()),
                known: repo.facts.updated.is_some(),
                href: None,
            },
        ];
        // Skills whose SKILL.md could not be read: counted once, here, with their reasons a link away.
        if repo.left_out() > 0 {
            facts.insert(
                1,
                Fact {
                    label: "Left out",
                    value: format!("{} more left out", repo.left_out()),
                    known: true,
                    href: Some(format!("{root}report/")),
                },
            );
        }
        let mut page = RepoPage {
            site: site(&dir),
            repo: RepoCtx {
                full: repo.id.full(),
                owner: repo.id.owner.clone(),
                owner_href: format!("{root}{}/", repo.id.owner),
                web: repo.web_url(),
                facts,
                charts: figures::of_skills(catalog, &repo.skills),
                skills: Vec::new(),
                total: repo.skills.len(),
                sorts: Vec::new(),
            },
        };
        let mut dirs = vec![dir.clone()];
        let by_name = listings.by_title(&repo.skills);
        // A repository of more skills than a listing page shows them a page at a time, in
        // every order, under repos/ (where no skill's or repository's page can be).
        let first = if by_name.len() > listing::PAGE_SIZE {
            let base = format!("repos/{dir}");
            dirs.extend(listings.write_sorted(&base, &repo.id.full(), (&repo.id.full(), &dir), &by_name)?);
            page.repo.sorts = listing::sort_links(&listings.sort_bases(&base), "", &root);
            &by_name[..listing::PAGE_SIZE]
        } else {
            &by_name[..]
        };
        listings.write_with_cards(&format!("{dir}index.html"), "repo.html", page, first, |page, cards| {
            page.repo.skills = cards
        })?;
        Ok(dirs)
    });
    let repo_dirs: Vec<String> = repo_dirs.collect::<Result<Vec<_>>>()?.into_iter().flatten().collect();

    // Owner pages: every repository and skill of one owner.
    let mut owners: Vec<&str> = catalog.repos.iter().map(|r| r.id.owner.as_str()).collect();
    owners.dedup();
    let owner_dirs = owners.into_par_iter().map(|owner| -> Result<Vec<String>> {
        let dir = format!("{owner}/");
        let root = urls::path_to_root(&dir);
        let repos: Vec<&crate::model::Repo> = catalog.repos.iter().filter(|r| r.id.owner == owner).collect();
        let skills: Vec<usize> = repos.iter().flat_map(|r| r.skills.iter().copied()).collect();
        let mut page = OwnerPage {
            site: site(&dir),
            owner: OwnerCtx {
                owner: owner.to_string(),
                web: repos.iter().any(|r| r.hosted).then(|| format!("https://github.com/{owner}")),
                repos: repos.iter().map(|r| listing::repo_row(r, &root)).collect(),
                charts: figures::of_skills(catalog, &skills),
                skills: Vec::new(),
                total: skills.len(),
                sorts: Vec::new(),
            },
        };
        let dirs = vec![dir.clone()];
        let by_name = listings.by_title(&skills);
        // An owner of one repository has its skills listed in every order under the
        // repository's listings already: the owner's page shows the first ones and links there.
        if repos.len() == 1 && by_name.len() > listing::PAGE_SIZE {
            let base = format!("repos/{}", repos[0].url_path());
            page.owner.sorts = listing::sort_links(&listings.sort_bases(&base), "", &root);
        }
        // An owner of several repositories has no listings of its own: each of its skills is
        // in its repository's listings, which the table links, and listing them again under
        // the owner would double the listings' bytes (50 MB at 60,000 skills).
        let first = by_name.get(..listing::PAGE_SIZE).unwrap_or(&by_name[..]);
        listings.write_with_cards(&format!("{dir}index.html"), "owner.html", page, first, |page, cards| {
            page.owner.skills = cards
        })?;
        Ok(dirs)
    });
    add_pages(owner_dirs.collect::<Result<Vec<_>>>()?.into_iter().flatten().collect());

    // The listings and the search index read the same catalog and write different files; the
    // index's postings are merged on one thread, so the listings render beside it.
    let (listed, facets) = rayon::join(
        || -> Result<Vec<String>> {
            renderer.page(
                out,
                "index.html",
                "index.html",
                &listing::home(catalog, &topic_index, &shown, &all, &site),
            )?;
            let mut dirs = vec![String::new()];
            let intro = format!("All {} in this catalog, by name.", crate::plural::count(all.len(), "skill"));
            dirs.extend(listings.write_listing("skills/", "All skills", &intro, ("", ""), &all, Layout::Rows)?);
            for kind in [topics::TopicKind::Category, topics::TopicKind::Product, topics::TopicKind::Tag] {
                dirs.extend(listings.write_topics(&topic_index, kind)?);
            }
            let repos_page = ReposPage { site: site("repos/"), repos: listing::repo_rows(catalog, "../") };
            renderer.page(out, "repos/index.html", "repos.html", &repos_page)?;
            dirs.push("repos/".into());
            let agents_page = AgentsPage {
                site: site("agents/"),
                agents: crate::agents::AGENTS.install_for(&crate::agents::InstallVars::WORDS),
            };
            renderer.page(out, "agents/index.html", "agents.html", &agents_page)?;
            dirs.push("agents/".into());
            let about_page =
                AboutPage { site: site("about/"), text_limit: text_limit.map(|limit| urls::file_size(limit as u64)) };
            renderer.page(out, "about/index.html", "about.html", &about_page)?;
            dirs.push("about/".into());
            Ok(dirs)
        },
        || search::write_index(catalog, &all, &renderer.program, out),
    );
    add_pages(listed?);
    add_pages(repo_dirs);
    let facets = facets?;
    let search_page = search_page(&topic_index, &facets, site("search/"));
    renderer.page(out, "search/index.html", "search.html", &search_page)?;
    add_pages(vec!["search/".into()]);
    // What is left reads the catalog and writes files of its own: the sitemap beside the
    // report, the feed and the API.
    let (sitemap, others) = rayon::join(
        || -> Result<()> {
            pages.extend(catalog.skills.iter().map(|s| feeds::SitemapEntry {
                dir: s.url_path(&catalog.repos[s.repo]),
                lastmod: s.history.last_changed,
            }));
            feeds::write_sitemap(&catalog.config.base_url, &pages, feeds::SITEMAP_MAX_URLS, &renderer.program, out)
        },
        || -> Result<()> {
            let faults = faults.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let locator = report::Locator::new(catalog);
            let report = ReportPage {
                site: site("report/"),
                lines: catalog
                    .diagnostics
                    .iter()
                    .chain(faults.iter().map(|(_, d)| d))
                    .map(|d| locator.line(d))
                    .collect(),
            };
            renderer.page(out, "report/index.html", "report.html", &report)?;
            // The 404 page is served from any depth, so it links from the site root by absolute path.
            let not_found =
                PlainPage { site: SiteCtx { root: urls::absolute(&catalog.config.base_url, ""), ..site("404.html") } };
            renderer.page(out, "404.html", "404.html", &not_found)?;
            let (feed, api) = rayon::join(
                || feeds::write_feed(catalog, out),
                || {
                    if catalog.config.publish.api_for(catalog.skills.len()) {
                        feeds::write_api(catalog, &facts, &renderer.program, out)
                    } else {
                        Ok(())
                    }
                },
            );
            feed.and(api)
        },
    );
    sitemap.and(others)?;
    let pages = pages.len() + 2;
    shown.drop_later();
    crate::drop_later((topic_index, all, title_rank));
    let mut faults = faults.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    faults.sort_by_key(|(index, _)| *index);
    Ok(RenderStats { pages, diagnostics: faults.into_iter().map(|(_, d)| d).collect() })
}

/// The page of a skill whose full page stopped on an internal error.
fn fallback_page(catalog: &Catalog, index: usize, site: SiteCtx) -> FallbackPage {
    let skill = &catalog.skills[index];
    let repo = &catalog.repos[skill.repo];
    let (verdict, verdict_word) = facets::verdict(skill);
    FallbackPage {
        site,
        page: FallbackCtx {
            title: skill.name.clone(),
            description: skill.description.clone(),
            repo: repo.id.full(),
            repo_href: repo.url_path(),
            verdict,
            verdict_word,
        },
    }
}

/// The search page: its filters offer the values the index holds.
fn search_page(topic_index: &topics::TopicIndex, facets: &search::Facets, site: SiteCtx) -> SearchPage {
    let categories = listing::topic_rows(&topic_index.categories, &format!("{}categories/", site.root));
    // Every agent, in the table's order: all load SKILL.md folders.
    let agents = crate::agents::AGENTS
        .agents
        .iter()
        .map(|a| TopicRow { id: a.id.clone(), name: a.name.clone(), href: String::new(), count: 0 })
        .collect();
    let rows = |facet: &str| -> Vec<TopicRow> {
        facets
            .get(facet)
            .into_iter()
            .flatten()
            .map(|v| TopicRow { id: v.id.clone(), name: v.name.clone(), href: String::new(), count: v.count })
            .collect()
    };
    SearchPage { site, categories, agents, licenses: rows("license"), verdicts: rows("verdict") }
}
