//! `catalog stats`: refreshes `data/repos.toml` from the GitHub REST API
//! (`GET /repos/{owner}/{repo}`). It needs the network and a token; the build never does.

use std::path::Path;
use std::time::Duration;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::repo_data::{self, RepoFigures};

pub const DEFAULT_API: &str = "https://api.github.com";

#[derive(Debug, Clone)]
pub struct StatsOptions {
    /// The API's base URL: [`DEFAULT_API`], or a test server.
    pub api: String,
    /// A GitHub token (GITHUB_TOKEN).
    pub token: Option<String>,
}

#[derive(Debug, Default)]
pub struct StatsReport {
    /// `owner/name` and its stars, for each repository refreshed.
    pub updated: Vec<(String, u64)>,
    /// `owner/name` and why it was not.
    pub failed: Vec<(String, String)>,
}

pub fn stats(root: &Path, options: &StatsOptions) -> Result<StatsReport> {
    let config = Config::load(root)?;
    let Some(token) = options.token.as_deref().filter(|t| !t.trim().is_empty()) else {
        return Err(Error::Output(
            "catalog stats needs a GitHub token in GITHUB_TOKEN (a token without scopes can read public \
             repositories); data/repos.toml is unchanged"
                .into(),
        ));
    };
    let (mut data, problem) = repo_data::load(root);
    if let Some(problem) = problem {
        return Err(Error::Output(format!("{problem}; fix it before refreshing it")));
    }
    // The HTTP client git fetching already uses (reqwest, blocking), rather than a second one.
    crate::sources::fetch::https_ready();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .user_agent(concat!("catalog/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|err| Error::Output(format!("cannot set up an HTTPS client: {err}")))?;
    let mut report = StatsReport::default();
    let mut repos: Vec<&str> = config.sources.iter().map(|s| s.repo.as_str()).collect();
    repos.sort_unstable();
    repos.dedup();
    for repo in repos {
        match fetch_one(&client, &options.api, token, repo) {
            Ok(figures) => {
                report.updated.push((repo.to_string(), figures.stars.unwrap_or(0)));
                data.insert(repo.to_string(), figures);
            }
            Err(why) => report.failed.push((repo.to_string(), why)),
        }
    }
    if !report.updated.is_empty() {
        repo_data::save(root, &data)?;
    }
    Ok(report)
}

fn fetch_one(
    client: &reqwest::blocking::Client,
    api: &str,
    token: &str,
    repo: &str,
) -> std::result::Result<RepoFigures, String> {
    let url = format!("{}/repos/{repo}", api.trim_end_matches('/'));
    let response = client
        .get(&url)
        .header("Accept", "application/vnd.github+json")
        .header("X-GitHub-Api-Version", "2022-11-28")
        .bearer_auth(token)
        .send()
        .map_err(|err| format!("cannot reach {api}: {err}"))?;
    let status = response.status().as_u16();
    let body = response.text().map_err(|err| format!("reading the answer: {err}"))?;
    match status {
        200 => {}
        401 => return Err("the token was refused (401): check GITHUB_TOKEN".into()),
        403 | 429 => return Err(format!("refused ({status}), probably the rate limit; try again later")),
        404 => return Err("not found (404): a private or renamed repository, or a typo in catalog.toml".into()),
        _ => return Err(format!("unexpected answer {status}")),
    }
    let value: serde_json::Value = serde_json::from_str(&body).map_err(|err| format!("unreadable answer: {err}"))?;
    let stars = value["stargazers_count"].as_u64().ok_or("the answer has no stargazers_count")?;
    Ok(RepoFigures {
        stars: Some(stars),
        forks: value["forks_count"].as_u64(),
        archived: value["archived"].as_bool(),
        pushed_at: value["pushed_at"].as_str().map(str::to_string),
    })
}
