//! Generates a catalog of synthetic skills for benchmarks, deterministic from a seed.
//!
//!     cargo run --release --example gen-corpus -- --skills 60000 [--repos 200] [--seed 1] DIR
//!
//! Writes DIR/catalog.toml and DIR/repos/<owner>/<repo>/skills/<skill>/SKILL.md with realistic
//! sizes (SKILL.md ~7.7 KB on average, long-tailed), one skill in five with scripts beside it,
//! and the frontmatter variety of real catalogs: quoted and plain values, nested metadata, tag
//! lists and strings, allowed-tools, CRLF files, unquoted colons, and a few broken files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    /// Zipf-like pick: early items far more often.
    fn skewed<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        items[((items.len() as f64).powf(u) as usize).saturating_sub(1).min(items.len() - 1)]
    }
}

const WORDS: &[&str] = &[
    "the",
    "file",
    "run",
    "check",
    "data",
    "code",
    "test",
    "build",
    "use",
    "agent",
    "user",
    "output",
    "script",
    "command",
    "error",
    "config",
    "project",
    "repository",
    "review",
    "report",
    "query",
    "table",
    "image",
    "api",
    "request",
    "response",
    "deploy",
    "release",
    "service",
    "server",
    "client",
    "database",
    "schema",
    "migration",
    "branch",
    "commit",
    "pull",
    "issue",
    "label",
    "workflow",
    "pipeline",
    "cache",
    "token",
    "secret",
    "key",
    "log",
    "metric",
    "alert",
    "dashboard",
    "document",
    "page",
    "section",
    "heading",
    "summary",
    "note",
    "meeting",
    "email",
    "calendar",
    "task",
    "ticket",
    "browser",
    "form",
    "screenshot",
    "pdf",
    "markdown",
    "json",
    "yaml",
    "csv",
    "spreadsheet",
    "chart",
    "model",
    "prompt",
    "context",
    "window",
    "memory",
    "retry",
    "timeout",
    "fallback",
    "sandbox",
    "container",
    "cluster",
    "pod",
    "volume",
    "network",
    "port",
    "proxy",
    "certificate",
    "permission",
    "role",
    "policy",
    "audit",
    "scan",
    "vulnerability",
    "patch",
    "dependency",
    "package",
    "version",
    "changelog",
    "lint",
    "format",
    "style",
    "type",
    "compile",
    "benchmark",
    "profile",
];
const TOPICS: &[&str] = &[
    "docker",
    "kubernetes",
    "python",
    "typescript",
    "rust",
    "github",
    "slack",
    "notion",
    "postgres",
    "aws",
    "terraform",
    "playwright",
    "pdf",
    "excel",
    "jira",
    "stripe",
    "react",
    "nextjs",
    "fastapi",
    "django",
    "redis",
    "kafka",
    "grafana",
];
const COMMANDS: &[&str] =
    &["git", "python3", "npm", "docker", "kubectl", "gh", "curl", "jq", "make", "cargo", "node", "psql", "aws"];
const CATEGORIES: &[&str] = &[
    "Developer Tools",
    "Security & Verification",
    "Templates & Workflows",
    "Data Extraction & Transformation",
    "Code Quality & Review",
    "CI/CD Integrations",
    "Runbooks & Diagnostics",
    "Integrations & Connectors",
    "Monitoring & Alerts",
    "Research & Scraping",
];

/// A sentence of `base` words plus up to `extra` more, naming the skill's own `topic` now and
/// then and another product rarely: real skills name 0.8 products each (registry-dev), mostly
/// their own.
fn sentence(rng: &mut Rng, topic: &str, base: usize, extra: usize) -> String {
    let words = base + if extra > 0 { rng.below(extra) } else { 0 };
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        if rng.chance(9) {
            s.push_str(topic);
        } else if rng.chance(2000) {
            s.push_str(TOPICS[rng.below(TOPICS.len())]);
        } else {
            s.push_str(rng.skewed(WORDS));
        }
    }
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>() + ".").unwrap_or_default()
}

fn skill_md(rng: &mut Rng, name: &str, topic: &str) -> String {
    // One program for all its code blocks: real skills call few.
    let program = COMMANDS[rng.below(COMMANDS.len())];
    let description = format!("{} Use it when working with {topic}.", sentence(rng, topic, 8, 20));
    let mut fm = String::new();
    match rng.below(6) {
        0 => writeln!(fm, "name: \"{name}\"\ndescription: \"{description}\"").unwrap(),
        1 => writeln!(fm, "name: {name}\ndescription: {}: {description}", topic).unwrap(), // unquoted colon
        _ => writeln!(fm, "name: {name}\ndescription: {description}").unwrap(),
    }
    if rng.chance(4) {
        writeln!(fm, "license: {}", ["MIT", "Apache-2.0", "BSD-3-Clause", "Proprietary"][rng.below(4)]).unwrap();
    }
    if rng.chance(5) {
        writeln!(fm, "allowed-tools: Bash({}:*) Read Grep", COMMANDS[rng.below(COMMANDS.len())]).unwrap();
    }
    match rng.below(4) {
        0 => writeln!(
            fm,
            "metadata:\n  category: \"{}\"\n  tags: \"{topic}, {}\"",
            CATEGORIES[rng.below(CATEGORIES.len())],
            rng.skewed(WORDS)
        )
        .unwrap(),
        1 => writeln!(
            fm,
            "category: \"{}\"\ntags:\n  - {topic}\n  - {}",
            CATEGORIES[rng.below(CATEGORIES.len())],
            rng.skewed(WORDS)
        )
        .unwrap(),
        2 => writeln!(fm, "metadata:\n  author: someone\n  version: \"1.{}\"", rng.below(9)).unwrap(),
        _ => {}
    }
    if rng.chance(400) {
        fm.push_str("broken: [unclosed\n");
    }
    let mut body = format!("# {}\n\n{}\n\n## When to use\n\n", title(name), sentence(rng, topic, 30, 0));
    for _ in 0..3 + rng.below(3) {
        writeln!(body, "- {}", sentence(rng, topic, 8, 8)).unwrap();
    }
    body.push_str("\n## Steps\n\n");
    // Long-tailed size: most skills a few KB, some tens of KB; ~7.7 KB on average.
    let sections = 2 + rng.below(8) + if rng.chance(10) { 20 } else { 0 };
    for step in 1..=sections {
        writeln!(body, "### Step {step}: {}\n", sentence(rng, topic, 4, 0).trim_end_matches('.')).unwrap();
        for _ in 0..2 + rng.below(3) {
            writeln!(body, "{}\n", (0..3).map(|_| sentence(rng, topic, 10, 10)).collect::<Vec<_>>().join(" ")).unwrap();
        }
        if rng.chance(2) {
            writeln!(
                body,
                "```bash\n{program} {} --{} {}\n```\n",
                rng.skewed(WORDS),
                rng.skewed(WORDS),
                rng.skewed(WORDS)
            )
            .unwrap();
        }
    }
    body.push_str("## Requirements\n\n");
    for _ in 0..2 {
        writeln!(body, "- {}", sentence(rng, topic, 6, 0)).unwrap();
    }
    let text = format!("---\n{fm}---\n\n{body}");
    if rng.chance(20) { text.replace('\n', "\r\n") } else { text }
}

fn title(name: &str) -> String {
    name.split('-').map(|w| w[..1].to_uppercase() + &w[1..]).collect::<Vec<_>>().join(" ")
}

fn main() {
    let mut skills = 1_000usize;
    let mut repos = 200usize;
    let mut seed = 1u64;
    let mut dir: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--skills" => skills = args.next().and_then(|v| v.parse().ok()).expect("--skills N"),
            "--repos" => repos = args.next().and_then(|v| v.parse().ok()).expect("--repos N"),
            "--seed" => seed = args.next().and_then(|v| v.parse().ok()).expect("--seed N"),
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.expect("usage: gen-corpus [--skills N] [--repos N] [--seed N] DIR");
    let repos = repos.min(skills).max(1);
    let mut config = String::from("title = \"Generated catalog\"\nbase_url = \"https://example.github.io/bench/\"\n");
    for r in 0..repos {
        writeln!(
            config,
            "\n[[sources]]\npath = \"repos/owner-{}/repo-{r}\"\nrepo = \"owner-{}/repo-{r}\"",
            r % 50,
            r % 50
        )
        .unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("catalog.toml"), config).unwrap();
    let bytes: u64 = (0..skills)
        .into_par_iter()
        .map(|i| {
            let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x1000_0000_01B3));
            let r = i % repos;
            let word = rng.skewed(WORDS);
            let topic = TOPICS[rng.below(TOPICS.len())];
            let name = format!("{word}-{topic}-{i}");
            let folder = dir.join(format!("repos/owner-{}/repo-{r}/skills/{name}", r % 50));
            write(&folder.join("SKILL.md"), skill_md(&mut rng, &name, topic).as_bytes())
                + if rng.chance(5) {
                    write(
                        &folder.join("scripts/run.sh"),
                        format!("#!/bin/sh\nset -eu\n{} \"$@\"\n", COMMANDS[rng.below(COMMANDS.len())]).as_bytes(),
                    ) + write(&folder.join("references/notes.md"), sentence(&mut rng, topic, 200, 0).as_bytes())
                } else {
                    0
                }
        })
        .sum();
    for r in 0..repos {
        let path = dir.join(format!("repos/owner-{}/repo-{r}/LICENSE", r % 50));
        if r % 4 != 3 {
            std::fs::write(path, "MIT License\n\nCopyright (c) 2026 Owner\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n").unwrap();
        }
    }
    println!("{skills} skills in {repos} repositories, {:.1} MB, in {}", bytes as f64 / 1e6, dir.display());
}

fn write(path: &Path, bytes: &[u8]) -> u64 {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
    bytes.len() as u64
}
