//! Files for machines: sitemap, robots.txt, the Atom feed of the newest skills, and the JSON API.
//! Every absolute URL here comes from `urls::absolute` and the catalog's base_url.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::Result;
use crate::hash::Hash;
use crate::model::Catalog;
use crate::time::Timestamp;
use crate::write::SiteWriter;

use super::facets;
use super::keys::{FactKeys, Keyed, Seq};
use super::urls::absolute;

/// The sitemap protocol's limit of URLs per file.
pub const SITEMAP_MAX_URLS: usize = 50_000;
/// Entries in the Atom feed.
const FEED_ENTRIES: usize = 50;

/// A page for the sitemap: its folder and when it last changed, if known.
#[derive(Serialize)]
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
    let key = crate::hash::of("sitemap", &(program, base_url, max_urls, entries));
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

/// A skill in `api/skills.json`: enough to find it, its description and page address being in
/// its record (they were two thirds of the index's bytes). The README documents these fields;
/// change both together.
#[derive(Serialize)]
struct ApiBrief<'a> {
    id: String,
    name: &'a str,
    title: &'a str,
    repo: String,
    api: String,
}

/// All a skill's record in the API is made of: [`api_skill`] sees nothing else.
#[derive(Serialize)]
pub struct ApiSkillInput<'a> {
    pub skill: Keyed<'a, crate::model::Skill>,
    pub repo: Keyed<'a, crate::model::Repo>,
    /// The catalog's topics of the skill (one name per topic across the catalog).
    pub topics: &'a crate::relate::Topics,
    /// Its similar skills' ids, best first.
    pub similar: Vec<SkillId<'a>>,
}

/// A skill's id in the API, `owner/repo/skill`, in parts.
#[derive(Serialize)]
pub struct SkillId<'a> {
    pub owner: &'a str,
    pub name: &'a str,
    pub slug: &'a str,
}

impl SkillId<'_> {
    fn of<'a>(catalog: &'a Catalog, i: usize) -> SkillId<'a> {
        let skill = &catalog.skills[i];
        let repo = &catalog.repos[skill.repo].id;
        SkillId { owner: &repo.owner, name: &repo.name, slug: &skill.slug }
    }

    fn text(&self) -> String {
        format!("{}/{}/{}", self.owner, self.name, self.slug)
    }
}

/// Skill `i`'s [`ApiSkillInput`].
pub fn api_skill_input<'a>(catalog: &'a Catalog, facts: &FactKeys<'a>, i: usize) -> ApiSkillInput<'a> {
    let (skill, repo) = facts.skill(i);
    ApiSkillInput {
        skill,
        repo,
        topics: &catalog.relations.topics[i],
        similar: super::page_input::shown_similar(catalog, i).iter().map(|m| SkillId::of(catalog, m.index)).collect(),
    }
}

/// A skill's record, from its input and the site's base URL.
pub fn api_skill(base_url: &str, input: &ApiSkillInput) -> ApiSkill {
    let (skill, repo) = (input.skill.value(), input.repo.value());
    let topics = input.topics;
    let caps = &skill.analysis.capabilities;
    ApiSkill {
        id: format!("{}{}", repo.url_path(), skill.slug),
        name: skill.name.clone(),
        title: skill.analysis.digest.title.clone(),
        description: skill.description.clone(),
        repo: repo.id.full(),
        path: skill.dir.rel_dir.clone(),
        url: absolute(base_url, &skill.url_path(repo)),
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
        similar: input.similar.iter().map(SkillId::text).collect(),
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

/// All a skill's entry in `api/skills.json` is made of.
#[derive(Serialize)]
struct ApiBriefInput<'a> {
    id: SkillId<'a>,
    name: &'a str,
    title: &'a str,
}

impl ApiBriefInput<'_> {
    fn of(catalog: &Catalog, i: usize) -> ApiBriefInput<'_> {
        let skill = &catalog.skills[i];
        ApiBriefInput { id: SkillId::of(catalog, i), name: &skill.name, title: &skill.analysis.digest.title }
    }

    fn brief(&self) -> ApiBrief<'_> {
        let repo = format!("{}/{}", self.id.owner, self.id.name);
        ApiBrief { id: self.id.text(), name: self.name, title: self.title, api: format!("api/repos/{repo}.json"), repo }
    }
}

/// `api/repos/<owner>/<repo>.json` with each repository's skills, and `api/skills.json` listing
/// every skill in brief. Whole records live only in the repositories' files: no file grows with
/// the whole catalog's text (60,000 whole records would make one 100 MB document, past what
/// GitHub Pages accepts), and an edit rewrites one repository's file. Each file's key is its
/// inputs hashed: the records' ([`ApiSkillInput`]) and the briefs'.
pub fn write_api(catalog: &Catalog, facts: &FactKeys, program: &Hash, out: &SiteWriter) -> Result<()> {
    let base_url = &catalog.config.base_url;
    catalog.repos.par_iter().try_for_each(|repo| {
        if repo.skills.is_empty() {
            return Ok(());
        }
        let inputs: Vec<ApiSkillInput> = repo.skills.iter().map(|&i| api_skill_input(catalog, facts, i)).collect();
        // The repository's full name and its skills' count are in each skill's keyed repository.
        let key = crate::hash::of("api repository", &(program, base_url, &inputs));
        out.write_page(&repo_api_path(repo), key, || {
            let file = ApiRepo {
                repo: repo.id.full(),
                count: repo.skills.len(),
                left_out: repo.left_out(),
                skills: inputs.iter().map(|input| api_skill(base_url, input)).collect(),
            };
            // Compact: indentation was a third of the bytes, and programs read the files.
            Ok(serde_json::to_string(&file).expect("repository serialises"))
        })
    })?;
    let title = &catalog.config.title;
    let left_out: usize = catalog.repos.iter().map(|r| r.left_out()).sum();
    let briefs = Seq(|| (0..catalog.skills.len()).map(|i| ApiBriefInput::of(catalog, i)));
    let key = crate::hash::of("api index", &(program, title, left_out, &briefs));
    out.write_page("api/skills.json", key, || {
        let inputs: Vec<ApiBriefInput> = (0..catalog.skills.len()).map(|i| ApiBriefInput::of(catalog, i)).collect();
        let skills = inputs.par_iter().map(|input| input.brief()).collect();
        let index = ApiIndex { title, count: catalog.skills.len(), left_out, skills };
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
