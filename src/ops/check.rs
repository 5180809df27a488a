//! `catalog check PATH...`: the safety scanner for skill authors and their CI. Reads each
//! skill's files (the only I/O), hands the bytes to [`crate::scan`], applies `.catalogignore`
//! suppressions, and returns the results for `scan::report` to format.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::{Value, json};

use crate::diag::{Diagnostic, Level};
use crate::discover::{self, RepoId, SkillDir};
use crate::error::{Error, Result};
use crate::ops::skill_files;
use crate::scan::Severity;
use crate::scan::report::CheckedSkill;
use crate::scan::suppress::{self, Suppression};

/// The name of the per-folder suppression file `check` reads.
pub const IGNORE_FILE: &str = ".catalogignore";

#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Skill folders, repositories, SKILL.md files, or single files.
    pub paths: Vec<PathBuf>,
    /// Leave `.catalogignore` files unread.
    pub no_ignore: bool,
}

/// What to scan, found from one path given on the command line.
struct Target {
    /// As shown in output.
    display: String,
    dir: SkillDir,
    folder_name: String,
    /// Suppressions for this skill, with paths relative to the skill folder.
    suppressions: Vec<Suppression>,
}

fn display(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = text.strip_prefix("./").unwrap_or(&text).trim_end_matches('/').to_string();
    if text.is_empty() { ".".to_string() } else { text }
}

fn read_ignore(dir: &Path, prefix: &str) -> Result<Vec<Suppression>> {
    let path = dir.join(IGNORE_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => suppress::parse_ignore_file(&text, prefix).map_err(|(line, message)| Error::Config {
            path,
            line: Some(line),
            message,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(Error::io(path, e)),
    }
}

fn targets_for(path: &Path, no_ignore: bool) -> Result<Vec<Target>> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.is_file() {
        let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
        let suppressions = if no_ignore { Vec::new() } else { read_ignore(&parent, "")? };
        if discover::SKILL_FILE_NAMES.contains(&name.as_str()) {
            return targets_for_dir(&parent, no_ignore);
        }
        // A single file: scanned on its own, as a folder holding only it.
        let (inode, changed) = discover::status(&meta);
        let dir = SkillDir {
            dir: parent.clone(),
            rel_dir: String::new(),
            skill_file: String::new(),
            files: vec![discover::SkillFile {
                path: name.clone(),
                size: meta.len(),
                is_symlink: false,
                modified: discover::modified_nanos(&meta),
                inode,
                changed,
            }],
        };
        let folder_name = parent.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        return Ok(vec![Target { display: display(&parent), dir, folder_name, suppressions }]);
    }
    targets_for_dir(path, no_ignore)
}

fn targets_for_dir(path: &Path, no_ignore: bool) -> Result<Vec<Target>> {
    let name = std::fs::canonicalize(path)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
        .unwrap_or_else(|| "skill".to_string());
    let safe_name: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '-' }).collect();
    let repo = RepoId::parse(&format!("local/{}", safe_name.trim_matches('.')))
        .unwrap_or_else(|| RepoId::parse("local/skill").expect("valid"));
    let (found, _diagnostics) = discover::discover_source(repo.clone(), path);
    if found.skills.is_empty() {
        return Err(Error::NoSkills(path.to_path_buf()));
    }
    let root_suppressions = if no_ignore { Vec::new() } else { read_ignore(path, "")? };
    let mut targets = Vec::new();
    for dir in found.skills {
        let mut suppressions: Vec<Suppression> = root_suppressions
            .iter()
            .filter_map(|s| {
                // Root patterns are relative to the root; make them relative to the skill.
                if dir.rel_dir.is_empty() {
                    Some(s.clone())
                } else {
                    let prefix = format!("{}/", dir.rel_dir);
                    s.path
                        .strip_prefix(&prefix)
                        .map(|p| Suppression { path: p.to_string(), ..s.clone() })
                        .or_else(|| s.path.starts_with("**").then(|| s.clone()))
                }
            })
            .collect();
        if !no_ignore && !dir.rel_dir.is_empty() {
            suppressions.extend(read_ignore(&dir.dir, "")?);
        }
        let shown = if dir.rel_dir.is_empty() { display(path) } else { format!("{}/{}", display(path), dir.rel_dir) };
        let shown = shown.strip_prefix("./").map(str::to_string).unwrap_or(shown);
        let folder_name = dir.folder_name(&repo).to_string();
        targets.push(Target { display: shown, dir, folder_name, suppressions });
    }
    Ok(targets)
}

/// What `check` found: each skill's scan, and what reading each SKILL.md gave, in the lines
/// `catalog build` prints for it (a skill read leniently, or left out, or a file the check
/// could not finish).
pub struct Checked {
    pub skills: Vec<CheckedSkill>,
    pub diagnostics: Vec<Diagnostic>,
    /// Paths given that hold no skill: each named, with why, while the others are checked.
    pub not_skills: Vec<Diagnostic>,
}

/// Scans every skill under the given paths, each read by the build's own reader of a skill
/// ([`skill_files::read_skill`]). A path that holds no skill is reported and the others are
/// still checked; a missing path or a bad `.catalogignore` stops the command.
pub fn check(options: &CheckOptions) -> Result<Checked> {
    if options.paths.is_empty() {
        return Err(Error::Output("no PATH given".to_string()));
    }
    let mut targets = Vec::new();
    let mut not_skills = Vec::new();
    for path in &options.paths {
        match targets_for(path, options.no_ignore) {
            Ok(found) => targets.extend(found),
            Err(Error::NoSkills(path)) => not_skills.push(path),
            Err(err) => return Err(err),
        }
    }
    // Nothing to check at all is a usage error; a path without skills beside others is a
    // warning, and the others are checked.
    if targets.is_empty()
        && let Some(first) = not_skills.first()
    {
        return Err(Error::NoSkills(first.clone()));
    }
    let not_skills = not_skills
        .into_iter()
        .map(|path| {
            Diagnostic::warning(path, None, "holds no SKILL.md, in this folder or below it; nothing here was checked")
        })
        .collect();
    let checked: Vec<(CheckedSkill, Vec<Diagnostic>)> = targets
        .par_iter()
        .map(|target| {
            let read = skill_files::read_skill(
                &target.dir,
                Path::new(&target.display),
                &target.folder_name,
                Default::default(),
            );
            let mut report = read.scan;
            suppress::apply(&mut report.findings, &target.suppressions, |f| f.file.clone());
            let mut diagnostics = read.reading;
            let name = match read.parsed {
                Ok(parsed) => parsed.frontmatter.name,
                Err(left_out) => {
                    diagnostics.extend(left_out);
                    None
                }
            };
            let name = name.unwrap_or_else(|| target.folder_name.clone());
            (CheckedSkill { path: target.display.clone(), name, report }, diagnostics)
        })
        .collect();
    let (skills, diagnostics): (Vec<_>, Vec<_>) = checked.into_iter().unzip();
    Ok(Checked { skills, diagnostics: diagnostics.into_iter().flatten().collect(), not_skills })
}

/// The rule id under which `check` reports a reading diagnostic in its JSON and SARIF: a
/// SKILL.md read leniently, or one the build leaves out.
pub fn reading_rule(diagnostic: &Diagnostic) -> &'static str {
    match diagnostic.level {
        Level::Warning => "frontmatter-lenient",
        Level::Error => "skill-unreadable",
    }
}

/// How much a reading diagnostic weighs against `--fail-on`: a skill the build leaves out fails
/// under any threshold; a lenient reading, which agents that parse leniently still load, is a
/// warning below the default threshold (high).
pub fn reading_severity(diagnostic: &Diagnostic) -> Severity {
    match diagnostic.level {
        Level::Warning => Severity::Medium,
        Level::Error => Severity::Critical,
    }
}

/// The reading diagnostics as `check --format json` lists them, beside the skills' findings.
pub fn reading_json(diagnostics: &[Diagnostic]) -> Value {
    let items = diagnostics.iter().map(|d| {
        json!({
            "rule": reading_rule(d),
            "level": if d.level == Level::Error { "error" } else { "warning" },
            "severity": reading_severity(d),
            "file": d.file.to_string_lossy().replace('\\', "/"),
            "line": d.line,
            "message": d.message,
        })
    });
    Value::Array(items.collect())
}

/// Adds the reading diagnostics to a SARIF log from [`crate::scan::report::sarif`]: one rule
/// entry per reading rule, one result per diagnostic.
pub fn add_reading_to_sarif(log: &mut Value, diagnostics: &[Diagnostic]) {
    let Some(run) = log.get_mut("runs").and_then(|runs| runs.get_mut(0)) else { return };
    let rules = &mut run["tool"]["driver"]["rules"];
    let Some(rules) = rules.as_array_mut() else { return };
    let first = rules.len();
    let reading_rules = [
        (
            "frontmatter-lenient",
            "FrontmatterLenient",
            "warning",
            "The frontmatter is not valid YAML",
            "Agents that parse strictly will not load this skill; lenient readers recover its keys.",
        ),
        (
            "skill-unreadable",
            "SkillUnreadable",
            "error",
            "The skill cannot be read",
            "No lenient reading recovers this SKILL.md: the catalog leaves it out and agents will not load it.",
        ),
    ];
    for (id, name, level, title, why) in reading_rules {
        rules.push(json!({
            "id": id,
            "name": name,
            "shortDescription": { "text": title },
            "fullDescription": { "text": why },
            "defaultConfiguration": { "level": level },
            "properties": { "tags": ["spec"], "precision": "high" },
        }));
    }
    let Some(results) = run["results"].as_array_mut() else { return };
    for d in diagnostics {
        let index = first + usize::from(d.level == Level::Error);
        let level = if d.level == Level::Error { "error" } else { "warning" };
        let uri = crate::scan::report::uri_path(&d.file.to_string_lossy().replace('\\', "/"));
        results.push(json!({
            "ruleId": reading_rule(d),
            "ruleIndex": index,
            "level": level,
            "message": { "text": d.message },
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": { "uri": uri, "uriBaseId": "%SRCROOT%" },
                    "region": { "startLine": d.line.unwrap_or(1).max(1) },
                },
            }],
            "properties": { "severity": reading_severity(d).as_str() },
        }));
    }
}
