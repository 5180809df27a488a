//! The `catalog` command line: parses arguments, then calls one function of `catalog::ops`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

use catalog::diag::Level;
use catalog::ops;
use catalog::plural::count;

/// mimalloc rather than the system allocator: a build allocates many small strings from every
/// thread at once, and glibc malloc took 16% of a 60,000-skill build's CPU time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "catalog", version, about = "Build a static website for a catalog of agent skills", long_about = None)]
#[command(propagate_version = true, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Print only errors.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print every diagnostic and each stage's timing.
    #[arg(short, long, global = true)]
    verbose: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Scan the sources listed in catalog.toml and write the site.
    ///
    /// Reads ROOT/catalog.toml, reads every skill folder of its sources, and writes the site to
    /// ROOT/public (or --out). The previous site stays in place until the new one is complete.
    /// Skills that cannot be read are reported and left out; the rest of the catalog still builds.
    Build(BuildArgs),
    /// Build, serve on 127.0.0.1, and rebuild and reload the pages as you edit.
    ///
    /// PATH is a catalog (a folder with catalog.toml), a repository of skills, or one skill
    /// folder; for the last two, a one-repository catalog is made around it and the skill's page
    /// opens first. The site is served under the path of catalog.toml's base_url, as on GitHub
    /// Pages. A failed rebuild is printed and shown over the page; the last good site stays up.
    Serve(ServeArgs),
    /// Start a new catalog in DIR: catalog.toml, data/repos.toml, a GitHub Pages workflow and a
    /// README; or, with --skills, add to a repository of skills the workflow that runs
    /// `catalog check` and uploads its findings to code scanning. Refuses to overwrite anything.
    Init(InitArgs),
    /// List each source with the commit it is read at and its number of skills.
    ///
    /// Reads what is on disk: folders as they are, git URLs as last fetched into
    /// .catalog/sources/ (by `catalog build`). Never uses the network.
    Sources(RootArgs),
    /// Refresh data/repos.toml (stars, forks) from the GitHub REST API.
    ///
    /// Needs the network and a GitHub token in GITHUB_TOKEN. `catalog build` reads the file and
    /// never the network, so the figures are as fresh as the last `catalog stats`.
    Stats(RootArgs),
    /// Scan skills for risky patterns and Agent Skills spec problems, for authors and CI.
    ///
    /// PATH is a skill folder, a repository (every SKILL.md below it), a SKILL.md, or any single
    /// file. Every text file of a skill is read. Exits 0 when nothing reaches --fail-on, 1 when
    /// something does, 2 on a usage or read error. Findings listed in a .catalogignore file (one
    /// per line: RULE PATH[:LINE] REASON) in the checked folder or a skill folder are shown as
    /// suppressed and do not count; secret values cannot be suppressed.
    Check(CheckArgs),
}

#[derive(Args)]
struct ServeArgs {
    /// A catalog folder, a repository of skills, or a skill folder.
    #[arg(default_value = ".", value_name = "PATH")]
    path: PathBuf,
    /// The port on 127.0.0.1; 0 picks a free one.
    #[arg(long, default_value_t = 1111)]
    port: u16,
    /// Open the first page in a browser.
    #[arg(long)]
    open: bool,
}

#[derive(Args)]
struct InitArgs {
    /// Where to start the catalog (or, with --skills, the repository of skills).
    #[arg(default_value = ".", value_name = "DIR")]
    dir: PathBuf,
    /// Write only .github/workflows/catalog-check.yml, for a repository of skills.
    #[arg(long)]
    skills: bool,
    /// The GitHub Action the workflows use, OWNER/REPO@REF [default: the one this catalog was
    /// installed from, when known].
    #[arg(long, value_name = "OWNER/REPO@REF", value_parser = parse_action)]
    action: Option<ops::init::ActionRef>,
}

fn parse_action(text: &str) -> Result<ops::init::ActionRef, String> {
    ops::init::ActionRef::parse(text).ok_or_else(|| "expected OWNER/REPO@REF, e.g. acme/catalog@v1.0.0".to_string())
}

#[derive(Args)]
struct RootArgs {
    /// The folder holding catalog.toml.
    #[arg(long, default_value = ".", value_name = "DIR")]
    root: PathBuf,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Sarif,
}

#[derive(Args)]
struct CheckArgs {
    /// Skill folders, repositories or files to check.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Output format: text for people, json, or sarif (SARIF 2.1.0, for GitHub code scanning).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Exit with 1 when a finding is at or above this severity: critical, high, medium, low,
    /// info, or none.
    #[arg(long, default_value = "high", value_name = "SEVERITY", value_parser = parse_fail_on)]
    fail_on: Threshold,
    /// Ignore .catalogignore files.
    #[arg(long)]
    no_ignore: bool,
    /// Write the report to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The lowest severity that fails the check; `None` never fails.
#[derive(Clone, Copy)]
struct Threshold(Option<catalog::scan::Severity>);

fn parse_fail_on(text: &str) -> Result<Threshold, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(Threshold(None));
    }
    catalog::scan::Severity::parse(text)
        .map(|s| Threshold(Some(s)))
        .ok_or_else(|| "expected critical, high, medium, low, info or none".to_string())
}

#[derive(Args)]
struct BuildArgs {
    /// The folder holding catalog.toml.
    #[arg(long, default_value = ".", value_name = "DIR")]
    root: PathBuf,
    /// Where to write the site [default: ROOT/public].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The address the site is served from, e.g. https://you.github.io/skills/ (overrides catalog.toml).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Exit with an error when there is any diagnostic.
    #[arg(long)]
    strict: bool,
    /// Minify HTML (minify-html). Off by default: it saves about 6% of the bytes (less once a
    /// host compresses pages) and roughly halves rendering speed.
    #[arg(long)]
    minify: bool,
    /// Never use the network: read git sources from the cache (.catalog/sources/) as last fetched.
    #[arg(long)]
    offline: bool,
}

/// A bar on a terminal; a line per stage when stderr is a log; nothing under `-q`.
fn build_with_progress(options: &ops::BuildOptions, quiet: bool) -> anyhow::Result<ops::BuildReport> {
    use catalog::progress::{Progress, Stage};
    use std::io::IsTerminal;
    let config = catalog::config::Config::load(&options.root)?;
    if quiet {
        return Ok(ops::build_with(options, config)?);
    }
    let progress = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{msg:>10} [{bar:30}] {pos}/{len} skills, {per_sec}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        Progress::new(move |stage, done, total| {
            if done == 0 {
                bar.reset();
                bar.set_length(total as u64);
                bar.set_message(stage.verb());
            }
            bar.set_position(done as u64);
            if done == total && stage == Stage::Render {
                bar.finish_and_clear();
            }
        })
    } else {
        Progress::new(|stage, done, total| {
            if done == 0 {
                eprintln!("{} {}", stage.verb(), count(total, "skill"));
            }
        })
    };
    Ok(ops::build_reporting(options, config, &progress)?)
}

fn main() -> ExitCode {
    catalog::memory::configure();
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: &Cli) -> anyhow::Result<ExitCode> {
    match &cli.command {
        Command::Serve(args) => {
            ops::serve::serve(&ops::serve::ServeOptions {
                path: args.path.clone(),
                port: args.port,
                open: args.open,
                verbose: cli.verbose,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Init(args) => {
            let known = args.action.clone().or_else(ops::init::ActionRef::of_this_build);
            let options = ops::init::InitOptions {
                skills: args.skills,
                action: known.clone().unwrap_or_else(ops::init::ActionRef::placeholder),
            };
            let written = ops::init::init(&args.dir, &options)?;
            if known.is_none() {
                eprintln!(
                    "warning: this build of catalog does not know the repository it came from: replace {} in \
                     the workflow's `uses:` line, or run again with --action OWNER/REPO@REF",
                    options.action.repo
                );
            }
            if !cli.quiet {
                for path in &written {
                    eprintln!("created {}", path.display());
                }
                if args.skills {
                    eprintln!(
                        "\nNext: commit it; every push and pull request is checked, and findings show in code scanning."
                    );
                    return Ok(ExitCode::SUCCESS);
                }
                let dir = args.dir.display();
                eprintln!("\nNext: add a [[sources]] table to {dir}/catalog.toml, then run");
                eprintln!("  catalog serve {dir}          # preview, rebuilding as you edit");
                eprintln!("  catalog build --root {dir}   # write the site to {dir}/public");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Sources(args) => {
            let rows = ops::sources::list(&args.root)
                .with_context(|| format!("listing the sources of {}", args.root.display()))?;
            for row in &rows {
                let commit =
                    row.commit.as_deref().map(|c| format!("at commit {c}")).unwrap_or_else(|| "no commit".into());
                match (row.skills, &row.problem) {
                    (Some(skills), _) => {
                        println!("{}  {} ({}), {commit}, {}", row.repo, row.location, row.kind, count(skills, "skill"))
                    }
                    (None, problem) => {
                        println!("{}  {} ({}): {}", row.repo, row.location, row.kind, problem.as_deref().unwrap_or(""))
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Stats(args) => {
            let options = ops::stats::StatsOptions {
                api: std::env::var("CATALOG_GITHUB_API").unwrap_or_else(|_| ops::stats::DEFAULT_API.to_string()),
                token: std::env::var("GITHUB_TOKEN").ok(),
            };
            let report = ops::stats::stats(&args.root, &options)?;
            if !cli.quiet {
                for (repo, stars) in &report.updated {
                    eprintln!("{repo}: {}", count(*stars, "star"));
                }
            }
            for (repo, why) in &report.failed {
                eprintln!("{repo}: {why}");
            }
            if !cli.quiet {
                eprintln!(
                    "refreshed {} of {} in {}",
                    report.updated.len(),
                    count(report.updated.len() + report.failed.len(), "repository"),
                    catalog::repo_data::REPO_DATA_FILE
                );
            }
            Ok(if report.failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Check(args) => check(cli, args),
        Command::Build(args) => {
            let options = ops::BuildOptions {
                root: args.root.clone(),
                out: args.out.clone(),
                base_url: args.base_url.clone(),
                minify: args.minify,
                offline: args.offline,
            };
            let report = build_with_progress(&options, cli.quiet)
                .with_context(|| format!("building the catalog in {}", args.root.display()))?;
            let errors = report.summary.diagnostics.iter().filter(|d| d.level == Level::Error).count();
            let warnings = report.summary.diagnostics.len() - errors;
            // `-q` quiets everything but errors.
            if cli.quiet {
                for diag in report.summary.diagnostics.iter().filter(|d| d.level == Level::Error) {
                    eprintln!("{diag}");
                }
            } else {
                catalog::diag::print_all(&report.summary.diagnostics, cli.verbose);
                if cli.verbose {
                    report.print_timings();
                    eprint!("site by kind of file:\n{}", report.summary.size.table());
                    if let Some((path, bytes)) = &report.summary.size.largest {
                        eprintln!("  largest file: {path}, {:.1} KB", *bytes as f64 / 1e3);
                    }
                }
                let work = if report.up_to_date {
                    "nothing changed since the last build".to_string()
                } else {
                    format!(
                        "{} read, {} rendered, {} written",
                        count(report.skills_read, "skill"),
                        count(report.summary.pages.saturating_sub(report.reused_pages), "page"),
                        count(report.written, "file")
                    )
                };
                eprintln!(
                    "built {} from {}: {}, {} ({:.1} MB) in {} in {:.2}s ({work}); {}, {}",
                    count(report.summary.skills, "skill"),
                    count(report.summary.repos, "repository"),
                    count(report.summary.pages, "page"),
                    count(report.summary.files, "file"),
                    report.summary.bytes as f64 / 1e6,
                    report.summary.out.display(),
                    report.elapsed.as_secs_f64(),
                    count(errors, "error"),
                    count(warnings, "warning")
                );
            }
            if args.strict && !report.summary.diagnostics.is_empty() {
                eprintln!("error: --strict: {}", count(report.summary.diagnostics.len(), "diagnostic"));
                return Ok(ExitCode::from(1));
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn check(cli: &Cli, args: &CheckArgs) -> anyhow::Result<ExitCode> {
    use catalog::scan::report;
    let options = ops::CheckOptions { paths: args.paths.clone(), no_ignore: args.no_ignore };
    let checked = ops::check(&options)?;
    for diag in &checked.not_skills {
        eprintln!("{diag}");
    }
    // What reading SKILL.md gave, as `catalog build` prints it; `-q` keeps the errors.
    for diag in checked.diagnostics.iter().filter(|d| !cli.quiet || d.level == Level::Error) {
        eprintln!("{diag}");
    }
    let skills = checked.skills;
    let reading = &checked.diagnostics;
    // The reading diagnostics go into the machine formats too, where CI reads them.
    let with_reading = |text: String, add: &dyn Fn(&mut serde_json::Value)| -> anyhow::Result<String> {
        let mut value: serde_json::Value = serde_json::from_str(&text)?;
        add(&mut value);
        Ok(serde_json::to_string_pretty(&value)? + "\n")
    };
    let out = match args.format {
        Format::Text => report::text(&skills, cli.verbose),
        Format::Json => with_reading(report::json(&skills), &|v| v["reading"] = ops::check::reading_json(reading))?,
        Format::Sarif => with_reading(report::sarif(&skills), &|v| ops::check::add_reading_to_sarif(v, reading))?,
    };
    match &args.output {
        Some(path) => std::fs::write(path, &out).with_context(|| format!("writing {}", path.display()))?,
        None if cli.quiet && args.format == Format::Text => {}
        None => print!("{out}"),
    }
    // A skill the check could not finish cannot be said to pass, under any threshold.
    let failing = args.fail_on.0.is_some_and(|threshold| {
        skills.iter().flat_map(|s| &s.report.findings).any(|f| f.is_active() && f.severity >= threshold)
            || reading.iter().any(|d| ops::check::reading_severity(d) >= threshold)
            || skills.iter().any(|s| s.report.unchecked().next().is_some())
    });
    Ok(if failing { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
