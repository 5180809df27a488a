//! Scripts parsed, not grepped: Python (tree-sitter-python), JavaScript and TypeScript
//! (oxc_parser), shell (tree-sitter-bash) and PowerShell (tree-sitter-powershell,
//! [`powershell`]) are read as syntax trees, values are followed
//! through the file ([`value`]), and what calls do with them is decided once for every
//! language ([`engine`]): a secret reaching the network, a download reaching an interpreter,
//! a write reaching a startup file or an agent's config. Code handed to an interpreter as a
//! string (`sh -c`, `eval`, `os.system`, `child_process`, heredocs) is read again as code.
//!
//! Only code whose one-pass prefilter found a source or sink word is parsed
//! ([`crate::flows`] decides), so most files cost nothing here.

pub mod engine;
pub mod js;
pub mod nesting;
pub mod powershell;
pub mod python;
pub mod shell;
pub mod targets;
pub mod value;

use engine::{Engine, Lang, ReadAgain};

use super::Sink;
use super::text::{Region, RegionKind};

/// Code larger than this is left to the line readers (a parse is linear, but a skill's
/// scripts are small, and a minified bundle is not worth following).
pub const MAX_PARSED_BYTES: usize = 512 * 1024;

/// Why no parser read a piece of code, which the line readers then read alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", tag = "limit")]
pub enum Limit {
    /// Larger than [`MAX_PARSED_BYTES`].
    Size { bytes: usize },
    /// Nested deeper than [`nesting::MAX_NESTING`]: a recursive parser could run out of stack.
    Nesting,
    /// More `<` open at once than [`nesting::MAX_OPEN_ANGLES`]: TypeScript's parser could take
    /// exponential time.
    Angles,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Size { bytes } => {
                write!(
                    f,
                    "read line by line only: {bytes} bytes of code, over the parsers' limit of {MAX_PARSED_BYTES}"
                )
            }
            Limit::Angles => write!(
                f,
                "read line by line only: more than {} `<` open at once, which the TypeScript parser can take minutes to read",
                nesting::MAX_OPEN_ANGLES
            ),
            Limit::Nesting => {
                write!(
                    f,
                    "read line by line only: code nested deeper than the parsers' limit of {}",
                    nesting::MAX_NESTING
                )
            }
        }
    }
}

/// Parses `code` with a tree-sitter grammar, on one parser per thread (a parser's buffers are
/// reused from one region to the next; setting its grammar again is cheap). `None` when the
/// parse was stopped at the check's deadline ([`crate::deadline`]).
pub(crate) fn tree_sitter_parse(language: &tree_sitter::Language, code: &str) -> Option<tree_sitter::Tree> {
    thread_local! {
        static PARSER: std::cell::RefCell<tree_sitter::Parser> = std::cell::RefCell::new(tree_sitter::Parser::new());
    }
    PARSER.with(|cell| {
        let mut parser = cell.borrow_mut();
        parser.set_language(language).ok()?;
        let bytes = code.as_bytes();
        let mut stop_at_deadline = |_: &tree_sitter::ParseState| crate::deadline::passed();
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut stop_at_deadline);
        let tree = parser.parse_with_options(&mut |at, _| bytes.get(at..).unwrap_or_default(), None, Some(options));
        // A stopped parse leaves the parser mid-way; the next one must start afresh.
        if tree.is_none() {
            parser.reset();
        }
        tree
    })
}

/// The text of a node of the tree parsed from `code`.
pub(crate) fn node_text<'c>(code: &'c str, node: tree_sitter::Node) -> &'c str {
    code.get(node.byte_range()).unwrap_or_default()
}

/// The language a code region is in, from its fence label, the file's extension or its
/// shebang; `None` for languages no parser here reads.
pub fn lang_of(path: &str, region: &Region, code: &str) -> Option<Lang> {
    let RegionKind::Code { lang, shell } = &region.kind else { return None };
    let by_label = |l: &str| match l {
        "python" | "py" | "python3" | "py3" | "ipython" | "pycon" => Some(Lang::Python),
        "javascript" | "js" | "node" | "nodejs" | "mjs" | "cjs" | "jsx" | "typescript" | "ts" | "tsx" | "mts"
        | "cts" => Some(Lang::Js),
        "sh" | "bash" | "shell" | "zsh" => Some(Lang::Shell),
        "powershell" | "pwsh" | "ps1" | "psm1" | "posh" => Some(Lang::PowerShell),
        _ => None,
    };
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    // A PowerShell file is one shell region to the line readers (labelled "sh"); its parser is
    // PowerShell's.
    if matches!(ext, "ps1" | "psm1") {
        return Some(Lang::PowerShell);
    }
    if !lang.is_empty() {
        return by_label(lang.as_str());
    }
    if let Some(l) = by_label(ext) {
        return Some(l);
    }
    if *shell {
        return (!matches!(ext, "ps1" | "psm1" | "bat" | "cmd" | "yml" | "yaml")).then_some(Lang::Shell);
    }
    let first = code.lines().next().filter(|l| l.starts_with("#!"))?;
    if first.contains("python") {
        Some(Lang::Python)
    } else if first.contains("node") || first.contains("deno") || first.contains("bun") {
        Some(Lang::Js)
    } else {
        None
    }
}

/// Parses one code region and follows its values; false when it was not parsed (past one of
/// the parsers' budgets, which the sink records, or a language without a parser here), so the
/// caller's line readers take over.
pub fn check(sink: &mut Sink, region: &Region, lang: Lang, read_again: ReadAgain) -> bool {
    let text: &str = sink.text;
    let Some(code) = text.get(region.start..region.end) else { return false };
    if code.len() > MAX_PARSED_BYTES {
        sink.limit(Limit::Size { bytes: code.len() });
        return false;
    }
    if lang == Lang::Js && nesting::depth(code) > nesting::MAX_NESTING {
        sink.limit(Limit::Nesting);
        return false;
    }
    if lang == Lang::Js && nesting::open_angles(code) > nesting::MAX_OPEN_ANGLES {
        sink.limit(Limit::Angles);
        return false;
    }
    let path = sink.file;
    let mut engine = Engine::new(sink, lang, read_again);
    match lang {
        Lang::Python => python::walk(&mut engine, code, region.start),
        Lang::Js => js::walk(&mut engine, code, region.start, path),
        Lang::Shell => shell::walk(&mut engine, code, region.start),
        Lang::PowerShell => powershell::walk(&mut engine, code, region.start),
    }
    true
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests;
