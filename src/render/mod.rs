//! Render: the catalog -> pages (path, bytes), handed one by one to the write sink.
//!
//! Escaping lives here: templates autoescape every value, and the only HTML inserted as-is is
//! what [`markdown::render`] produced (raw HTML in skills shown as text, unsafe links inert) and
//! JSON-LD with `<` escaped.

pub mod context;
pub mod markdown;
pub mod skill_page;
pub mod urls;

use rayon::prelude::*;
use serde::Serialize;

use crate::diag::Level;
use crate::error::{Error, Result};
use crate::model::Catalog;
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
    ("owner.html", include_str!("../../templates/owner.html")),
];
const STATIC_FILES: &[(&str, &[u8])] = &[
    ("static/style.css", include_bytes!("../../static/style.css")),
    ("static/catalog.js", include_bytes!("../../static/catalog.js")),
    ("static/favicon.svg", include_bytes!("../../static/favicon.svg")),
];

pub struct Renderer {
    tera: tera::Tera,
}

impl Renderer {
    pub fn new() -> Result<Renderer> {
        let mut tera = tera::Tera::new();
        tera.autoescape_on(vec![".html"]);
        tera.add_raw_templates(TEMPLATES.iter().copied())
            .map_err(|e| Error::Template { name: "(embedded)".into(), message: error_chain(&e) })?;
        Ok(Renderer { tera })
    }

    pub fn render<T: Serialize>(&self, template: &str, data: &T) -> Result<String> {
        let context = tera::Context::from_serialize(data)
            .map_err(|e| Error::Template { name: template.into(), message: error_chain(&e) })?;
        self.tera
            .render(template, &context)
            .map_err(|e| Error::Template { name: template.into(), message: error_chain(&e) })
    }
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

fn repo_row(repo: &crate::model::Repo, root: &str) -> RepoRow {
    RepoRow {
        full: repo.id.full(),
        href: format!("{root}{}", repo.url_path()),
        skills: repo.skills.len(),
        license: repo.license.label.clone(),
    }
}

/// What a render wrote.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderStats {
    pub pages: usize,
}

/// Renders every page of the catalog into `out`.
pub fn render_site(catalog: &Catalog, renderer: &Renderer, out: &SiteWriter) -> Result<RenderStats> {
    let site = |page_dir: &str| SiteCtx {
        title: catalog.config.title.clone(),
        description: catalog.config.description.clone(),
        root: urls::path_to_root(page_dir),
        canonical: urls::absolute(&catalog.config.base_url, page_dir),
        version: env!("CARGO_PKG_VERSION"),
        has_report: !catalog.diagnostics.is_empty(),
    };

    for (path, bytes) in STATIC_FILES {
        out.write(path, bytes)?;
    }

    // Skill pages: the bulk of the work, one per skill, in parallel.
    (0..catalog.skills.len()).into_par_iter().try_for_each(|index| -> Result<()> {
        let skill = &catalog.skills[index];
        let repo = &catalog.repos[skill.repo];
        let dir = skill.url_path(repo);
        // Identical copies name the copy first seen as the canonical page.
        let mut site = site(&dir);
        if let Some(first) = skill.copies.canonical.filter(|&first| first != index) {
            let first = &catalog.skills[first];
            site.canonical = urls::absolute(&catalog.config.base_url, &first.url_path(&catalog.repos[first.repo]));
        }
        let page = SkillPage { site, skill: skill_page::skill_ctx(catalog, index) };
        let html = renderer.render("skill.html", &page)?;
        out.write(&format!("{dir}index.html"), html.as_bytes())?;
        if skill.analysis.license.redistributable {
            out.write(&format!("{dir}SKILL.md"), skill.parsed.text.as_bytes())?;
        }
        Ok(())
    })?;
    let mut pages = catalog.skills.len();

    for repo in &catalog.repos {
        let dir = repo.url_path();
        let root = urls::path_to_root(&dir);
        let facts = vec![
            Fact { label: "Skills", value: repo.skills.len().to_string(), known: true, href: None },
            Fact {
                label: "Licence",
                value: repo.license.label.clone(),
                known: repo.license.spdx.is_some(),
                href: repo.license.file.as_deref().map(|file| repo.file_web_url(file)),
            },
            Fact {
                label: "Stars",
                value: repo.facts.stars.map(|s| urls::grouped(s as usize)).unwrap_or_else(|| "Not known".into()),
                known: repo.facts.stars.is_some(),
                href: None,
            },
            Fact {
                label: "Commit",
                value: repo.facts.short_commit().unwrap_or("Not known").to_string(),
                known: repo.facts.commit.is_some(),
                href: repo.facts.commit.as_ref().map(|commit| format!("{}/tree/{commit}", repo.web_url())),
            },
            Fact {
                label: "Updated",
                value: repo.facts.updated.map(|t| t.long_date()).unwrap_or_else(|| "Not known".into()),
                known: repo.facts.updated.is_some(),
                href: None,
            },
        ];
        let page = RepoPage {
            site: site(&dir),
            repo: RepoCtx {
                full: repo.id.full(),
                owner: repo.id.owner.clone(),
                owner_href: format!("{root}{}/", repo.id.owner),
                web: repo.web_url(),
                facts,
                skills: repo.skills.iter().map(|&i| skill_page::card(catalog, i, &root)).collect(),
            },
        };
        out.write(&format!("{dir}index.html"), renderer.render("repo.html", &page)?.as_bytes())?;
        pages += 1;
    }

    // Owner pages: every repository and skill of one owner.
    let mut owners: Vec<&str> = catalog.repos.iter().map(|r| r.id.owner.as_str()).collect();
    owners.dedup();
    for owner in owners {
        let dir = format!("{owner}/");
        let root = urls::path_to_root(&dir);
        let repos: Vec<&crate::model::Repo> = catalog.repos.iter().filter(|r| r.id.owner == owner).collect();
        let page = OwnerPage {
            site: site(&dir),
            owner: OwnerCtx {
                owner: owner.to_string(),
                web: format!("https://github.com/{owner}"),
                repos: repos.iter().map(|r| repo_row(r, &root)).collect(),
                skills: repos
                    .iter()
                    .flat_map(|r| r.skills.iter().map(|&i| skill_page::card(catalog, i, &root)))
                    .collect(),
            },
        };
        out.write(&format!("{dir}index.html"), renderer.render("owner.html", &page)?.as_bytes())?;
        pages += 1;
    }

    let mut order: Vec<usize> = (0..catalog.skills.len()).collect();
    order.sort_by_key(|&i| catalog.skills[i].analysis.digest.title.to_lowercase());
    let index = IndexPage {
        site: site(""),
        skill_count: catalog.skills.len(),
        repo_count: catalog.repos.len(),
        skills: order.into_iter().map(|i| skill_page::card(catalog, i, "")).collect(),
        repos: catalog.repos.iter().map(|r| repo_row(r, "")).collect(),
    };
    out.write("index.html", renderer.render("index.html", &index)?.as_bytes())?;
    pages += 1;

    let report = ReportPage {
        site: site("report/"),
        lines: catalog
            .diagnostics
            .iter()
            .map(|d| ReportLine {
                level: match d.level {
                    Level::Error => "error".into(),
                    Level::Warning => "warning".into(),
                },
                location: match d.line {
                    Some(line) => format!("{}:{line}", d.file.display()),
                    None => d.file.display().to_string(),
                },
                message: d.message.clone(),
            })
            .collect(),
    };
    out.write("report/index.html", renderer.render("report.html", &report)?.as_bytes())?;
    // The 404 page is served from any depth, so it links from the site root by absolute path.
    let not_found =
        PlainPage { site: SiteCtx { root: urls::absolute(&catalog.config.base_url, ""), ..site("404.html") } };
    out.write("404.html", renderer.render("404.html", &not_found)?.as_bytes())?;
    pages += 2;
    Ok(RenderStats { pages })
}
