//! Files for machines: sitemap, robots.txt, the Atom feed of the newest skills, and the JSON API.
//! Every absolute URL here comes from `urls::absolute` and the catalog's base_url.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::Result;
use crate::hash::{Hash, Hasher};
use crate::model::Catalog;
use crate::time::Timestamp;
use crate::write::SiteWriter;

use super::facets;
use super::keys::InputKeys;
use super::urls::absolute;

/// The sitemap protocol's limit of URLs per file.
pub const SITEMAP_MAX_URLS: usize = 50_000;
/// Entries in the Atom feed.
const FEED_ENTRIES: usize = 50;

/// A page for the sitemap: its folder and when it last changed, if known.
pub struct SitemapEntry {
    pub dir: String,
    pub lastmod: Option<Timestamp>,
}

/// `sitemap.xml` (an index of `sitemap-N.xml` files past `max_urls`) and `robots.txt`.
/// `program`: the identity of the running program, part of every key.
pub fn write_sitemap(
    base_url: &str,
    entries: &[SitemapEntry],
    max_urls: usize,
    program: &Hash,
    out: &SiteWriter,
) -> Result<()> {
    // Its files are a group made from what they list: 117,000 lines at 60,000 skills, not
    // written out again when no page came or went and no date changed.
    let mut key = Hasher::new();
    key.text("sitemap").bytes(program).text(base_url).number(max_urls as u64);
    for entry in entries {
        key.text(&entry.dir).number(u64::from(entry.lastmod.is_some())).number(entry.lastmod.map_or(0, |t| t.0 as u64));
    }
    let key = key.hash();
    if out.keep_group(key)? {
        return Ok(());
    }
    let urlset = |chunk: &[SitemapEntry]| {
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for entry in chunk {
            xml.push_str(&format!("<url><loc>{}</loc>", super::xml::escape(&absolute(base_url, &entry.dir))));
            if let Some(t) = entry.lastmod {
                xml.push_str(&format!("<lastmod>{}</lastmod>", t.iso_date()));
            }
            xml.push_str("</url>\n");
        }
        xml.push_str("</urlset>\n");
        xml
    };
    if entries.len() <= max_urls {
        out.write_in_group("sitemap.xml", key, urlset(entries).as_bytes())?;
    } else {
        let mut index = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for (n, chunk) in entries.chunks(max_urls).enumerate() {
            let name = format!("sitemap-{}.xml", n + 1);
            out.write_in_group(&name, key, urlset(chunk).as_bytes())?;
            index.push_str(&format!(
                "<sitemap><loc>{}</loc></sitemap>\n",
                super::xml::escape(&absolute(base_url, &name))
            ));
        }
        index.push_str("</sitemapindex>\n");
        out.write_in_group("sitemap.xml", key, index.as_bytes())?;
    }
    let robots = format!("User-agent: *\nAllow: /\n\nSitemap: {}\n", absolute(base_url, "sitemap.xml"));
    out.write_in_group("robots.txt", key, robots.as_bytes())
}

/// `feed.xml`: the newest skills by first-seen date. Skills without a known date are not in it,
/// and without any dated skill there is no feed (a feed needs real dates). Returns whether it
/// was written.
pub fn write_feed(catalog: &Catalog, out: &SiteWriter) -> Result<bool> {
    let base = &catalog.config.base_url;
    let mut dated: Vec<(Timestamp, usize)> =
        catalog.skills.iter().enumerate().filter_map(|(i, s)| s.history.first_seen.map(|t| (t, i))).collect();
    if dated.is_empty() {
        return Ok(false);
    }
    dated.sort_by_key(|&(t, i)| (std::cmp::Reverse(t), i));
    dated.truncate(FEED_ENTRIES);
    let updated =
        dated.iter().map(|&(t, i)| catalog.skills[i].history.last_changed.unwrap_or(t)).max().expect("not empty");
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>{}: newest skills</title>\n<id>{}</id>\n<link rel=\"self\" href=\"{}\"/>\n<link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n<updated>{}</updated>\n",
        super::xml::escape(&catalog.config.title),
        super::xml::escape(&absolute(base, "")),
        super::xml::escape(&absolute(base, "feed.xml")),
        super::xml::escape(&absolute(base, "")),
        updated.rfc3339()
    );
    for (first_seen, i) in dated {
        let skill = &catalog.skills[i];
        let repo = &catalog.repos[skill.repo];
        let url = absolute(base, &skill.url_path(repo));
        xml.push_str(&format!(
            "<entry>\n<title>{}</title>\n<link rel=\"alternate\" type=\"text/html\" href=\"{url}\"/>\n<id>{url}</id>\n<published>{}</published>\n<updated>{}</updated>\n<author><name>{}</name></author>\n<summary>{}</summary>\n</entry>\n",
            super::xml::escape(&skill.analysis.digest.title),
            first_seen.rfc3339(),
            skill.history.last_changed.unwrap_or(first_seen).rfc3339(),
            super::xml::escape(&repo.id.owner),
            super::xml::escape(&skill.description),
        ));
    }
    xml.push_str("</feed>\n");
    out.write("feed.xml", xml.as_bytes())?;
    Ok(true)
}

/// One skill in the JSON API. The README documents these fields; change both together.
#[derive(Debug, Serialize)]
pub struct ApiSkill {
    /// `owner/repo/skill`: stable across builds.
    pub id: String,
    pub name: String,
    pub title: String,
    pub description: String,
    pub repo: String,
    /// The skill folder inside the repository ("" at the root).
    pub path: String,
    /// Absolute URL of the skill's page.
    pub url: String,
    /// This record's own file, relative to the site root.
    pub api: String,
    pub license: String,
    pub license_spdx: Option<String>,
    pub tokens: usize,
    pub idle_tokens: usize,
    pub words: usize,
    pub files: usize,
    pub categories: Vec<String>,
    pub tags: Vec<String>,
    pub products: Vec<String>,
    pub agents: Vec<&'static str>,
    pub commands: Vec<String>,
    pub urls: Vec<String>,
    pub credential_names: Vec<String>,
    pub allowed_tools: Option<Vec<String>>,
    pub verdict: &'static str,
    pub stars: Option<u64>,
    pub first_seen: Option<String>,
    pub last_changed: Option<String>,
    /// Ids of similar skills, best first.
    pub similar: Vec<String>,
}

/// `api/skills.json`: every skill in brief, each naming the file with its whole record.
#[derive(Serialize)]
struct ApiIndex<'a> {
    title: &'a str,
    count: usize,
    left_out: usize,
    skills: Vec<ApiBrief<'a>>,
}

/// A skill in `api/skills.json`. The README documents these fields; change both together.
#[derive(Serialize)]
struct ApiBrief<'a> {
    id: String,
    name: &'a str,
    title: &'a str,
    description: &'a str,
    repo: String,
    url: String,
    api: String,
}

pub fn api_skill(catalog: &Catalog, i: usize) -> ApiSkill {
    let skill = &catalog.skills[i];
    let repo = &catalog.repos[skill.repo];
    let topics = &catalog.relations.topics[i];
    let caps = &skill.analysis.capabilities;
    ApiSkill {
        id: skill_id(catalog, i),
        name: skill.name.clone(),
        title: skill.analysis.digest.title.clone(),
        description: skill.description.clone(),
        repo: repo.id.full(),
        path: skill.dir.rel_dir.clone(),
        url: absolute(&catalog.config.base_url, &skill.url_path(repo)),
        api: repo_api_path(repo),
        license: skill.analysis.license.label.clone(),
        license_spdx: skill.analysis.license.spdx.clone(),
        tokens: skill.analysis.cost.tokens,
        idle_tokens: skill.analysis.cost.idle_tokens,
        words: skill.analysis.cost.words,
        files: skill.dir.files.len(),
        categories: topics.categories.iter().map(|c| c.name.clone()).collect(),
        tags: topics.tags.clone(),
        products: topics.products.iter().map(|p| p.name.clone()).collect(),
        agents: facets::agents(skill),
        commands: caps.commands.clone(),
        urls: caps.urls.clone(),
        credential_names: caps.credential_names.clone(),
        allowed_tools: caps.has_allowed_tools.then(|| caps.allowed_tools.clone()),
        verdict: facets::verdict(skill).0,
        stars: repo.facts.stars,
        first_seen: skill.history.first_seen.map(|t| t.iso_date()),
        last_changed: skill.history.last_changed.map(|t| t.iso_date()),
        similar: catalog.relations.similar[i].iter().map(|m| skill_id(catalog, m.index)).collect(),
    }
}

/// One file per repository: `api/repos/<owner>/<repo>.json`. Per repository rather than per skill,
/// since creating a file costs far more than its bytes (a catalog of 60,000 skills would write
/// 60,000 more files).
pub fn repo_api_path(repo: &crate::model::Repo) -> String {
    format!("api/repos/{}.json", repo.url_path().trim_end_matches('/'))
}

#[derive(Serialize)]
struct ApiRepo {
    repo: String,
    count: usize,
    /// Skill folders left out: listed in the build report, not here.
    left_out: usize,
    skills: Vec<ApiSkill>,
}

/// `owner/repo/skill`: a skill's id in the API.
fn skill_id(catalog: &Catalog, i: usize) -> String {
    let skill = &catalog.skills[i];
    format!("{}{}", catalog.repos[skill.repo].url_path(), skill.slug)
}

/// `api/repos/<owner>/<repo>.json` with each repository's skills, and `api/skills.json` listing
/// every skill in brief. Whole records live only in the repositories' files: no file grows with
/// the whole catalog's text (60,000 whole records would make one 100 MB document, past what
/// GitHub Pages accepts), and an edit rewrites one repository's file.
pub fn write_api(catalog: &Catalog, keys: &InputKeys, program: &Hash, out: &SiteWriter) -> Result<()> {
    catalog.repos.par_iter().try_for_each(|repo| {
        if repo.skills.is_empty() {
            return Ok(());
        }
        // What `api_skill` reads: each skill's facts and its similar skills' ids.
        let mut key = Hasher::new();
        key.text("api repository").bytes(program).text(&catalog.config.base_url);
        key.number(repo.left_out() as u64);
        for &i in &repo.skills {
            key.bytes(keys.skill(i));
            for similar in &catalog.relations.similar[i] {
                // Its id, `skill_id`, in parts.
                let other = &catalog.skills[similar.index];
                let other_repo = &catalog.repos[other.repo].id;
                key.text(&other_repo.owner).text(&other_repo.name).text(&other.slug);
            }
        }
        out.write_page(&repo_api_path(repo), key.hash(), || {
            let file = ApiRepo {
                repo: repo.id.full(),
                count: repo.skills.len(),
                left_out: repo.left_out(),
                skills: repo.skills.iter().map(|&i| api_skill(catalog, i)).collect(),
            };
            Ok(serde_json::to_string_pretty(&file).expect("repository serialises"))
        })
    })?;
    // What the index reads, so that a body edit keeps it.
    let mut key = Hasher::new();
    key.text("api index").bytes(program);
    key.text(&catalog.config.base_url).text(&catalog.config.title).number(catalog.skills.len() as u64);
    let left_out: usize = catalog.repos.iter().map(|r| r.left_out()).sum();
    key.number(left_out as u64);
    for skill in &catalog.skills {
        let repo = &catalog.repos[skill.repo].id;
        key.text(&skill.name).text(&skill.analysis.digest.title).text(&skill.description);
        key.text(&skill.slug).text(&repo.owner).text(&repo.name);
    }
    out.write_page("api/skills.json", key.hash(), || {
        let skills = (0..catalog.skills.len())
            .into_par_iter()
            .map(|i| {
                let skill = &catalog.skills[i];
                let repo = &catalog.repos[skill.repo];
                ApiBrief {
                    id: skill_id(catalog, i),
                    name: &skill.name,
                    title: &skill.analysis.digest.title,
                    description: &skill.description,
                    repo: repo.id.full(),
                    url: absolute(&catalog.config.base_url, &skill.url_path(repo)),
                    api: repo_api_path(repo),
                }
            })
            .collect();
        let index = ApiIndex { title: &catalog.config.title, count: catalog.skills.len(), left_out, skills };
        Ok(serde_json::to_string(&index).expect("index serialises"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitemap_splits_past_the_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let out = SiteWriter::begin(&tmp.path().join("site"), false).unwrap();
        let entries: Vec<SitemapEntry> =
            (0..5).map(|i| SitemapEntry { dir: format!("p{i}/"), lastmod: None }).collect();
        write_sitemap("https://x.io/sub/", &entries, 2, &[0; 16], &out).unwrap();
        let (site, _) = out.publish().unwrap();
        let index = std::fs::read_to_string(site.join("sitemap.xml")).unwrap();
        assert!(index.contains("<sitemapindex"));
        assert_eq!(index.matches("<sitemap>").count(), 3);
        assert!(
            std::fs::read_to_string(site.join("sitemap-3.xml")).unwrap().contains("<loc>https://x.io/sub/p4/</loc>")
        );
        assert!(
            std::fs::read_to_string(site.join("robots.txt")).unwrap().contains("Sitemap: https://x.io/sub/sitemap.xml")
        );
    }
}
