//! Scanner throughput over a real-world corpus, on one core, plus what it finds there.
//!
//! `cargo bench --bench scan` reads `../shared/corpus` (or `$CATALOG_CORPUS`): every
//! `OWNER/REPO` folder below it is a repository. Files are read and SKILL.md parsed first (as
//! the build does before it scans); only scanning is timed. The first pass, which also compiles
//! the rule patterns, is timed apart from the five after it.
//! Prints MB/s (by the wall clock, and by the time the thread ran on the core), the time each
//! reader takes, findings per rule, and how many skills fail, get notes or pass. Skips with a
//! message when the corpus is absent.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use catalog::discover::{RepoId, discover_source};
use catalog::ops::skill_files::read_skill_files;
use catalog::parse::{ParsedSkill, parse_skill};
use catalog::scan::report::{CheckedSkill, summary};
use catalog::scan::text::{FileKind, looks_binary, regions};
use catalog::scan::{FileContent, ScanFile, Sink, SkillInput, Verdict, scan_skill};
use catalog::scan::{commands, flows, instructions, lines, prefilter, secrets, spec, unicode};

// The allocator the program ships with (src/main.rs), set up as the program sets it up
// (`main`): the bench measures what a build runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Loaded {
    repo: String,
    rel_dir: String,
    folder_name: String,
    skill_file: String,
    files: Vec<ScanFile>,
    /// SKILL.md as the build parses it before scanning: the scanner is handed it.
    parsed: Option<ParsedSkill>,
}

fn main() {
    catalog::memory::configure();
    let corpus = std::env::var_os("CATALOG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if !corpus.is_dir() {
        println!("scan bench skipped: no corpus at {} (set CATALOG_CORPUS)", corpus.display());
        return;
    }
    let mut skills: Vec<Loaded> = Vec::new();
    let mut owners: Vec<PathBuf> =
        std::fs::read_dir(&corpus).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    owners.sort();
    for owner in owners {
        let mut repos: Vec<PathBuf> =
            std::fs::read_dir(&owner).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        repos.sort();
        for repo_dir in repos {
            let name = format!(
                "{}/{}",
                owner.file_name().unwrap().to_string_lossy(),
                repo_dir.file_name().unwrap().to_string_lossy()
            );
            let Some(repo) = RepoId::parse(&name) else { continue };
            let (source, _) = discover_source(repo.clone(), &repo_dir);
            for dir in &source.skills {
                let files = read_skill_files(dir, &mut Default::default());
                let parsed = files.iter().find(|f| f.path == dir.skill_file).and_then(|f| match &f.content {
                    FileContent::Bytes(bytes) => parse_skill(&dir.skill_file_path(), bytes).ok(),
                    FileContent::Skipped(_) => None,
                });
                skills.push(Loaded {
                    repo: name.clone(),
                    rel_dir: dir.rel_dir.clone(),
                    folder_name: dir.folder_name(&repo).to_string(),
                    skill_file: dir.skill_file.clone(),
                    files,
                    parsed,
                });
            }
        }
    }

    let scan_all = || -> Vec<CheckedSkill> {
        skills
            .iter()
            .map(|s| CheckedSkill {
                path: format!("{}/{}", s.repo, s.rel_dir),
                name: s.folder_name.clone(),
                report: scan_skill(&SkillInput {
                    folder_name: &s.folder_name,
                    skill_file: &s.skill_file,
                    files: &s.files,
                    parsed: s.parsed.as_ref(),
                }),
            })
            .collect()
    };
    // The first pass also compiles the rule patterns and builds the literal tables, once a
    // process: timed apart from the passes after it, which show what scanning costs.
    let (_, first, first_cpu) = timed(|| std::hint::black_box(scan_all()));
    let (results, best, best_cpu) = timed_passes(&scan_all);
    let breakdown = readers_breakdown(&skills);
    let s = summary(&results);
    let mb = s.bytes_scanned as f64 / 1e6;
    println!("corpus: {}", corpus.display());
    println!("skills: {}, files scanned: {}, {:.2} MB", s.skills, s.files_scanned, mb);
    let first_on_core = first_cpu.map(|t| format!(" ({:.3}s on the core)", t.as_secs_f64())).unwrap_or_default();
    println!("first pass, patterns compiled on first use: {:.3}s{first_on_core}", first.as_secs_f64());
    println!("scan time (best of 5, one core): {:.3}s = {:.1} MB/s", best.as_secs_f64(), mb / best.as_secs_f64());
    if let Some(best_cpu) = best_cpu {
        // On a shared machine the wall clock counts the time other processes held the core.
        println!(
            "time on the core (best of 5): {:.3}s = {:.1} MB/s per core",
            best_cpu.as_secs_f64(),
            mb / best_cpu.as_secs_f64()
        );
    }
    println!(
        "verdicts: {} failed, {} notes, {} passed; {} follow the Agent Skills spec",
        s.failed, s.notes, s.passed, s.follow_spec
    );
    let total: Duration = breakdown.iter().map(|(_, d)| *d).sum();
    println!("time per reader (one pass: each file's readers in turn, then each SKILL.md's own checks):");
    for (reader, d) in &breakdown {
        println!("  {reader:<28} {:>7.3}s {:>5.1}%", d.as_secs_f64(), 100.0 * d.as_secs_f64() / total.as_secs_f64());
    }
    println!("findings per rule:");
    for (rule, count) in &s.findings_per_rule {
        let skills_with = results.iter().filter(|r| r.report.findings.iter().any(|f| f.rule.id == *rule)).count();
        println!("  {rule:<28} {count:>6} findings in {skills_with:>5} skills");
    }
    let mut per_repo: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for (skill, loaded) in results.iter().zip(&skills) {
        let slot = match skill.report.verdict() {
            Verdict::Failed => 0,
            Verdict::Notes => 1,
            Verdict::Passed => 2,
            Verdict::NotChecked => 3,
        };
        per_repo.entry(&loaded.repo).or_default()[slot] += 1;
    }
    for (repo, [failed, notes, passed, not_checked]) in &per_repo {
        println!("{repo}: {failed} failed, {notes} notes, {passed} passed, {not_checked} not checked");
    }
    if std::env::var_os("SCAN_BENCH_LIST").is_some() {
        for skill in results.iter().filter(|r| r.report.verdict() == Verdict::Failed) {
            for f in skill.report.findings.iter().filter(|f| f.severity >= catalog::scan::Severity::High) {
                println!("FAILED {}/{}:{} {} {} | {}", skill.path, f.file, f.line, f.rule.id, f.message, f.matched);
            }
        }
    }
}

/// Five passes after the first, each timed: the best, by the wall clock and on the core, and
/// the last pass's results. A function of its own, so that a profiler can count these passes
/// alone (`valgrind --tool=callgrind --collect-atstart=no --toggle-collect='scan::timed_passes'`).
#[inline(never)]
fn timed_passes(scan_all: &dyn Fn() -> Vec<CheckedSkill>) -> (Vec<CheckedSkill>, Duration, Option<Duration>) {
    let mut best = Duration::MAX;
    let mut best_cpu: Option<Duration> = None;
    let mut results = Vec::new();
    for _ in 0..5 {
        let (pass, wall, on_core) = timed(scan_all);
        results = pass;
        best = best.min(wall);
        if let Some(spent) = on_core {
            best_cpu = Some(best_cpu.map_or(spent, |b| b.min(spent)));
        }
    }
    (results, best, best_cpu)
}

/// What `run` returns, with the time it took by the wall clock and on the core (where the
/// core's clock is read).
fn timed<T>(run: impl FnOnce() -> T) -> (T, Duration, Option<Duration>) {
    let (started, started_cpu) = (Instant::now(), thread_cpu_time());
    let out = run();
    let wall = started.elapsed();
    (out, wall, started_cpu.zip(thread_cpu_time()).map(|(a, b)| b - a))
}

/// The time each reader of `scan_text` takes over the corpus, in the order it runs them
/// (what a reader calls in turn, such as a parser reading code found in code, counts as its),
/// and the checks of each SKILL.md as a whole.
fn readers_breakdown(skills: &[Loaded]) -> Vec<(&'static str, Duration)> {
    const NAMES: [&str; 9] = [
        "decode, kind and regions",
        "prefilter",
        "unicode",
        "secrets",
        "lines",
        "commands",
        "instructions",
        "flows",
        "spec and allowed tools",
    ];
    let mut spent = [Duration::ZERO; 9];
    // The checks of a skill's SKILL.md as a whole, which `scan_skill` runs after every file's
    // readers: timed apart, as the last row.
    for skill in skills {
        let Some(parsed) = &skill.parsed else { continue };
        let Some(FileContent::Bytes(bytes)) =
            skill.files.iter().find(|f| f.path == skill.skill_file).map(|f| &f.content)
        else {
            continue;
        };
        let (text, _) = catalog::parse::decode(bytes);
        let clock = Instant::now();
        let mut sink = Sink::new(&skill.skill_file, &text);
        spec::check(&mut sink, Ok(parsed), &skill.folder_name);
        commands::check_allowed_tools(&mut sink, parsed, &skill.files);
        std::hint::black_box(sink.finish());
        spent[8] += clock.elapsed();
    }
    for file in skills.iter().flat_map(|s| &s.files) {
        let FileContent::Bytes(bytes) = &file.content else { continue };
        if looks_binary(bytes) {
            continue;
        }
        let mut clock = Instant::now();
        let mut lap = |slot: usize| {
            let now = Instant::now();
            spent[slot] += now - clock;
            clock = now;
        };
        let (text, _) = catalog::parse::decode(bytes);
        let mut sink = Sink::new(&file.path, &text);
        let kind = FileKind::of(&file.path, &text);
        let regions = regions(&text, kind);
        lap(0);
        let (found, keywords) = prefilter::search(&text);
        lap(1);
        if let Some(with_hidden) = unicode::WithHidden::find(&text) {
            unicode::check(&mut sink, &with_hidden);
        }
        lap(2);
        secrets::check(&mut sink, &text, kind, &found);
        lap(3);
        lines::check(&mut sink, &regions, &found);
        lap(4);
        commands::check(&mut sink, &regions, &found);
        lap(5);
        instructions::check(&mut sink, &regions, keywords.as_deref());
        lap(6);
        flows::check(&mut sink, &regions);
        lap(7);
        std::hint::black_box(sink.finish());
    }
    NAMES.into_iter().zip(spent).collect()
}

/// The time this thread has run on a core (Linux: the thread's CPU-time clock, to the
/// nanosecond); `None` elsewhere. `/proc/thread-self/schedstat` gives the same count as of the
/// scheduler's last tick: it moved in steps of 4 ms in a pass of about 85 ms.
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> Option<Duration> {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec the call writes into; the clock id is a constant.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } != 0 {
        return None;
    }
    Some(Duration::new(u64::try_from(now.tv_sec).ok()?, u32::try_from(now.tv_nsec).ok()?))
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_time() -> Option<Duration> {
    None
}
