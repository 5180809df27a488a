//! The GitHub Action's steps (`scripts/action.sh`, which `action.yml` runs) on this machine:
//! compiling the tool from the working tree, building the embedded catalog and naming the folder
//! the action uploads to Pages, checking skills into SARIF, and installing a release binary
//! served from 127.0.0.1 only when its checksum matches.

mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Mutex;

/// The compile step replaces `target/release/catalog`, which the release test packs: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A runner's surroundings: its output and path files, the install folder, the action's folder.
struct Runner {
    tmp: tempfile::TempDir,
    env: Vec<(&'static str, String)>,
}

impl Runner {
    fn new() -> Runner {
        let tmp = tempfile::tempdir().unwrap();
        let (os, arch) = match (std::env::consts::OS, std::env::consts::ARCH) {
            ("linux", "x86_64") => ("Linux", "X64"),
            ("linux", "aarch64") => ("Linux", "ARM64"),
            ("macos", "x86_64") => ("macOS", "X64"),
            ("macos", "aarch64") => ("macOS", "ARM64"),
            (os, arch) => panic!("no GitHub runner is {os}/{arch}"),
        };
        let env = vec![
            ("GITHUB_ACTION_PATH", support::project_root().display().to_string()),
            ("GITHUB_OUTPUT", tmp.path().join("output").display().to_string()),
            ("GITHUB_PATH", tmp.path().join("path").display().to_string()),
            ("CATALOG_HOME", tmp.path().join("home").display().to_string()),
            ("RUNNER_OS", os.to_string()),
            ("RUNNER_ARCH", arch.to_string()),
        ];
        Runner { tmp, env }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.tmp.path().join(name)
    }

    /// Runs one step with its inputs; nothing from this process's own inputs leaks in.
    fn step(&self, step: &str, inputs: &[(&str, &str)]) -> Output {
        let _ = std::fs::remove_file(self.path("output"));
        let mut command = Command::new("bash");
        command.arg(support::project_root().join("scripts/action.sh")).arg(step);
        for (key, _) in std::env::vars() {
            if key.starts_with("INPUT_") || key.starts_with("ACTION_") || key.starts_with("CATALOG_") {
                command.env_remove(key);
            }
        }
        command.envs(self.env.iter().map(|(k, v)| (k, v))).envs(inputs.iter().copied());
        command.output().unwrap()
    }

    /// `name=value` lines the last step wrote to GITHUB_OUTPUT.
    fn outputs(&self) -> BTreeMap<String, String> {
        std::fs::read_to_string(self.path("output"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
            .collect()
    }

    fn installed(&self) -> PathBuf {
        self.path("home/bin/catalog")
    }
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn compiles_from_the_working_tree_then_builds_and_checks_the_embedded_catalog() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let runner = Runner::new();
    let root = support::project_root();
    // The embedded catalog, copied so that nothing is written into the project.
    let catalog = runner.path("catalog");
    std::fs::create_dir_all(&catalog).unwrap();
    std::fs::copy(root.join("catalog.toml"), catalog.join("catalog.toml")).unwrap();
    support::copy_tree(&root.join("content"), &catalog.join("content"));

    // A local action (`uses: ./`) has no release to look for.
    let out = runner.step("install", &[]);
    assert!(out.status.success(), "{}", text(&out));
    let outputs = runner.outputs();
    assert_eq!(outputs.get("compile").map(String::as_str), Some("true"), "{}", text(&out));
    // The lock file's hash keys the cache of a compiled tool.
    assert!(outputs.get("cache-key").is_some_and(|k| k.len() == 16), "{outputs:?}");
    assert!(!runner.installed().exists());

    // cargo install from the action's folder, the working tree; its target folder is the
    // project's, so the release build already made is reused.
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| root.join("target").display().to_string());
    let out = runner.step("compile", &[("CARGO_TARGET_DIR", &target)]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(concat!("catalog ", env!("CARGO_PKG_VERSION"))), "{}", text(&out));
    assert_eq!(runner.outputs().get("bin"), Some(&runner.installed().display().to_string()));
    let path = std::fs::read_to_string(runner.path("path")).unwrap();
    assert_eq!(path.trim(), runner.path("home/bin").display().to_string());

    // Pages reports its address without the final slash.
    let catalog_input = catalog.display().to_string();
    let out = runner.step(
        "build",
        &[
            ("INPUT_ROOT", &catalog_input),
            ("PAGES_BASE_URL", "https://acme.github.io/skills"),
            ("INPUT_STRICT", "false"),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let site = PathBuf::from(runner.outputs().get("site").expect("the build names its folder"));
    assert_eq!(site, catalog.join("public"));
    for page in ["index.html", "404.html", "sitemap.xml", "search/index.html", "api/skills.json"] {
        assert!(site.join(page).is_file(), "{page} missing from the folder to upload");
    }
    assert!(
        text(&out).contains(" bytes in ") && text(&out).contains("the host takes 1000000000 bytes"),
        "{}",
        text(&out)
    );
    let sitemap = std::fs::read_to_string(site.join("sitemap.xml")).unwrap();
    assert!(sitemap.contains("<loc>https://acme.github.io/skills/"), "{sitemap}");

    assert!(!sitemap.contains("127.0.0.1"), "catalog.toml's base_url was not replaced");
    let home = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(home.contains(r#"rel="canonical" href="https://acme.github.io/skills/""#), "no canonical address");

    // A site past the host's limit fails before its upload, saying what to do.
    let out = runner.step("build", &[("INPUT_ROOT", &catalog_input), ("INPUT_MAX_FILES", "10")]);
    assert!(!out.status.success(), "a site past the host's file limit passed: {}", text(&out));
    assert!(text(&out).contains("past the host's") && text(&out).contains("skill_index = false"), "{}", text(&out));

    // An explicit base URL wins; strict fails on the example catalog's broken skill.
    let out = runner.step(
        "build",
        &[
            ("INPUT_ROOT", &catalog_input),
            ("INPUT_BASE_URL", "https://skills.example.org/"),
            ("PAGES_BASE_URL", "https://acme.github.io/skills"),
            ("INPUT_STRICT", "true"),
        ],
    );
    assert!(!out.status.success(), "strict passed despite diagnostics: {}", text(&out));
    assert!(text(&out).contains("--strict"), "{}", text(&out));
    let sitemap = std::fs::read_to_string(site.join("sitemap.xml")).unwrap();
    assert!(sitemap.contains("<loc>https://skills.example.org/"), "{sitemap}");

    // check: the SARIF report is written, and kept when findings fail the check.
    let sarif = runner.path("catalog.sarif");
    let sarif_input = sarif.display().to_string();
    let risky = root.join("tests/fixtures/scan/positive/fork-bomb/classic.sh").display().to_string();
    for (paths, fail_on, passes) in [(&catalog_input, "none", true), (&risky, "high", false)] {
        let _ = std::fs::remove_file(&sarif);
        let inputs = [("INPUT_ROOT", paths.as_str()), ("INPUT_FAIL_ON", fail_on), ("INPUT_SARIF", &sarif_input)];
        let out = runner.step("check", &inputs);
        assert_eq!(out.status.success(), passes, "check {paths} --fail-on {fail_on}: {}", text(&out));
        assert_eq!(runner.outputs().get("sarif"), Some(&sarif_input));
        let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
        assert_eq!(report["version"], "2.1.0");
        let results = report["runs"][0]["results"].as_array().map_or(0, Vec::len);
        assert!(passes || results > 0, "the failing check's report has no results");
    }

    let out = runner.step("install", &[("INPUT_MODE", "deploy")]);
    assert!(!out.status.success() && text(&out).contains("build or check"), "{}", text(&out));
}

/// Packs the test's own binary as the release workflow does, for `tag`, under `releases/`.
fn release(runner: &Runner, tag: &str) -> PathBuf {
    let dir = runner.path("releases").join(tag);
    let out = Command::new("bash")
        .arg(support::project_root().join("scripts/package.sh"))
        .arg(target_of(runner))
        .arg(env!("CARGO_BIN_EXE_catalog"))
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    dir.join(format!("catalog-{}.tar.gz", target_of(runner)))
}

fn target_of(runner: &Runner) -> &'static str {
    let get = |k: &str| runner.env.iter().find(|(key, _)| *key == k).map(|(_, v)| v.as_str()).unwrap();
    match (get("RUNNER_OS"), get("RUNNER_ARCH")) {
        ("Linux", "X64") => "x86_64-unknown-linux-gnu",
        ("Linux", "ARM64") => "aarch64-unknown-linux-gnu",
        ("macOS", "X64") => "x86_64-apple-darwin",
        _ => "aarch64-apple-darwin",
    }
}

#[test]
fn installs_the_release_binary_only_when_its_checksum_matches() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let runner = Runner::new();
    let asset = release(&runner, "v9.9.9");
    let base = support::serve(&runner.path("releases"));
    let releases = base.trim_end_matches('/').to_string();
    let inputs = |version: &'static str| {
        [("INPUT_VERSION", version), ("ACTION_REPOSITORY", "acme/catalog"), ("ACTION_REF", "main")]
            .into_iter()
            .map(|(k, v)| (k, v.to_string()))
            .chain([("CATALOG_RELEASES_URL", releases.clone())])
            .collect::<Vec<_>>()
    };
    let step = |version: &'static str| {
        let inputs = inputs(version);
        let borrowed: Vec<(&str, &str)> = inputs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        runner.step("install", &borrowed)
    };

    // "9.9.9" is the tag v9.9.9.
    let out = step("9.9.9");
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(runner.outputs().get("compile"), None, "{}", text(&out));
    assert_eq!(runner.outputs().get("bin"), Some(&runner.installed().display().to_string()));
    assert_eq!(std::fs::read(runner.installed()).unwrap(), std::fs::read(env!("CARGO_BIN_EXE_catalog")).unwrap());
    assert!(text(&out).contains(concat!("catalog ", env!("CARGO_PKG_VERSION"))), "{}", text(&out));

    // A release without an asset for this runner: compile.
    let out = step("v1.0.0");
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(runner.outputs().get("compile").map(String::as_str), Some("true"), "{}", text(&out));

    // A download that is not what was released stops the job, rather than compiling.
    std::fs::remove_file(runner.installed()).unwrap();
    let mut bytes = std::fs::read(&asset).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&asset, bytes).unwrap();
    let out = step("v9.9.9");
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("checksum"), "{}", text(&out));
    assert_eq!(runner.outputs().get("compile"), None);
    assert!(!runner.installed().exists(), "a binary that failed its checksum was installed");
}
