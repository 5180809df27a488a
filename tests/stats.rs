//! `catalog stats` against a local test server standing in for the GitHub REST API.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

/// Serves canned answers on 127.0.0.1 until the test ends; records each request line and its
/// Authorization header.
fn serve(answers: &'static [(&'static str, u16, &'static str)]) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            reader.read_line(&mut request).unwrap();
            let mut auth = String::new();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                    break;
                }
                // Header names are case-insensitive.
                if let Some(value) = line.to_lowercase().starts_with("authorization:").then(|| &line[14..]) {
                    auth = format!("Authorization: {}", value.trim());
                }
            }
            let path = request.split_whitespace().nth(1).unwrap_or("").to_string();
            log.lock().unwrap().push(format!("{path} {auth}"));
            let (status, body) = answers
                .iter()
                .find(|(p, _, _)| *p == path)
                .map(|(_, s, b)| (*s, *b))
                .unwrap_or((404, "{\"message\":\"Not Found\"}"));
            let response = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(response.as_bytes()).unwrap();
        }
    });
    (base, seen)
}

fn catalog(root: &Path) {
    std::fs::create_dir_all(root.join("a")).unwrap();
    std::fs::create_dir_all(root.join("data")).unwrap();
    std::fs::write(
        root.join("catalog.toml"),
        "title = \"T\"\n[[sources]]\npath = \"a\"\nrepo = \"acme/skills\"\n[[sources]]\npath = \"a\"\nrepo = \"gone/away\"\n",
    )
    .unwrap();
    // Figures for a repository no longer listed are kept.
    std::fs::write(root.join("data/repos.toml"), "[\"old/repo\"]\nstars = 3\n").unwrap();
}

fn stats(root: &Path, api: &str, token: Option<&str>) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_catalog"));
    command.args(["stats", "--root"]).arg(root).env("CATALOG_GITHUB_API", api).env_remove("GITHUB_TOKEN");
    if let Some(token) = token {
        command.env("GITHUB_TOKEN", token);
    }
    command.output().unwrap()
}

#[test]
fn stats_refreshes_the_data_file_from_the_api() {
    static ANSWERS: &[(&str, u16, &str)] = &[(
        "/repos/acme/skills",
        200,
        r#"{"full_name":"acme/skills","stargazers_count":7749,"forks_count":12,"archived":false,"pushed_at":"2026-08-12T10:00:00Z"}"#,
    )];
    let (api, seen) = serve(ANSWERS);
    let tmp = tempfile::tempdir().unwrap();
    catalog(tmp.path());
    let out = stats(tmp.path(), &api, Some("t0ken"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // gone/away answers 404: reported, and the exit code says not everything was refreshed.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("acme/skills: 7749 stars"), "{stderr}");
    assert!(stderr.contains("gone/away: not found (404)"), "{stderr}");
    let data = std::fs::read_to_string(tmp.path().join("data/repos.toml")).unwrap();
    assert!(data.contains("[\"acme/skills\"]\nstars = 7749\nforks = 12\n"), "{data}");
    assert!(data.contains("[\"old/repo\"]\nstars = 3\n"), "{data}");
    assert!(!data.contains("gone/away"), "{data}");
    let seen = seen.lock().unwrap();
    assert!(seen.contains(&"/repos/acme/skills Authorization: Bearer t0ken".to_string()), "{seen:?}");

    // The build shows the stars without any network.
    let out = tmp.path().join("site");
    let report = catalog::ops::build(&catalog::ops::BuildOptions {
        root: tmp.path().to_path_buf(),
        out: Some(out.clone()),
        base_url: None,
        minify: false,
        offline: true,
    })
    .unwrap();
    assert_eq!(report.summary.repos, 2);
    let repo_page = std::fs::read_to_string(out.join("acme/skills/index.html")).unwrap();
    // One number format across the site: the skill pages' and the listings' compact one.
    assert!(repo_page.contains("7.7k") && !repo_page.contains("7,749"), "stars missing from the repository page");
}

#[test]
fn stats_without_a_token_or_a_network_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    catalog(tmp.path());
    let before = std::fs::read_to_string(tmp.path().join("data/repos.toml")).unwrap();

    let out = stats(tmp.path(), "http://127.0.0.1:9", None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a GitHub token in GITHUB_TOKEN"));

    // Port 9 refuses connections: no network.
    let out = stats(tmp.path(), "http://127.0.0.1:9", Some("t0ken"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("acme/skills: cannot reach http://127.0.0.1:9"), "{stderr}");
    assert_eq!(std::fs::read_to_string(tmp.path().join("data/repos.toml")).unwrap(), before);
}
