//! What code does with the values it builds, followed within one block or file: paths put
//! together from pieces (`os.path.join(home, ".aws", "credentials")`, `Path.home() / ".ssh"`,
//! concatenation, template strings), variables assigned from a download or a path, and where
//! they end ([`values`]): a credential source reaching a network sink is exfiltration, a
//! download reaching an interpreter is remote code, a write to a shell startup file, cron, a
//! service, a git hook or an agent's config is persistence. Each such finding names its source
//! and sink lines. Also reverse shells, installs from outside the registry, hard-coded
//! credentials and risky destinations ([`line_rules`]), and base64 literals decoded and read
//! again ([`decoded`]), code received by a server and run ([`served`]), and scripts
//! written, run and deleted ([`ephemeral`]). [`triggers`] decides which of them a block needs.

mod decoded;
mod ephemeral;
mod line_rules;
mod served;
mod triggers;
mod values;

use super::script::Limit;
use super::script::engine::Lang;
use super::text::{Region, RegionKind};
use super::{Sink, destinations};
use triggers::{Group, Triggers};

/// Code found inside code (a heredoc, a string run by an interpreter) read by every reader of
/// code, as a script file of its language would be; the parsers call back here, so that they
/// need not know the line readers.
pub(crate) fn read_again(sink: &mut Sink, region: &Region) {
    super::commands::check(sink, std::slice::from_ref(region), &super::found::Found::everything());
    check(sink, std::slice::from_ref(region));
}

/// Parses the whole of `code` in `lang` and follows its values, as a script file named `path`
/// would be, whatever words the prefilter would have found: the fuzz targets reach each parser
/// and walker through it. The findings, and the budgets the code passed. Here rather than in
/// `script`, which would otherwise import this module back for [`read_again`].
pub fn scan_code(path: &str, code: &str, lang: Lang) -> (Vec<super::Finding>, Vec<Limit>) {
    let mut sink = Sink::new(path, code);
    let region =
        Region { kind: RegionKind::Code { lang: lang.ext().to_string(), shell: false }, start: 0, end: code.len() };
    super::script::check(&mut sink, &region, lang, read_again);
    sink.finish_with_limits()
}

/// Reads every code region.
pub fn check(sink: &mut Sink, regions: &[Region]) {
    let text = sink.text;
    for region in regions {
        match &region.kind {
            RegionKind::Code { .. } => {
                let code = region.text_in(text);
                let found = Triggers::of(code);
                if found.is_empty() {
                    continue;
                }
                let lines = lines_of(code, region.start);
                if found.has(Group::Shell) {
                    line_rules::reverse_shells(sink, code, &lines);
                }
                if found.has(Group::Exec) {
                    served::code_from_requests(sink, code, &lines);
                    ephemeral::self_deleting_scripts(sink, code, &lines);
                }
                // Parsed when a parser reads the language; the line reader follows the rest.
                // Shell keeps its line reader too: the parser adds variables and strings run
                // as code, the line reader's patterns cover what tree-sitter cannot parse.
                let lang = (found.has(Group::Flow) || found.has(Group::Exec))
                    .then(|| super::script::lang_of(sink.file, region, code))
                    .flatten();
                let parsed = lang.is_some_and(|lang| super::script::check(sink, region, lang, read_again));
                // PowerShell keeps them too: its parser reads what lines apart do.
                let keeps_lines =
                    matches!(lang, Some(super::script::engine::Lang::Shell | super::script::engine::Lang::PowerShell));
                if found.has(Group::Flow) && (!parsed || keeps_lines) {
                    values::value_flows(sink, &lines);
                }
                if found.has(Group::Line) {
                    line_rules::line_rules(sink, &lines);
                }
                if found.has(Group::Encoded) {
                    decoded::decoded_literals(sink, &lines);
                }
            }
            RegionKind::Prose => {
                if let Some((kind, start, end)) = destinations::find(region.text_in(text)) {
                    let what = format!("links to {kind}");
                    sink.report("risky-destination", region.start + start, region.start + end, what);
                }
            }
        }
    }
}

pub(super) struct Line<'a> {
    pub(super) text: &'a str,
    pub(super) start: usize,
    pub(super) number: usize,
}

impl Line<'_> {
    /// Where a finding on this line is reported: from its first visible character to its end.
    pub(super) fn span(&self) -> (usize, usize) {
        let indent = self.text.len() - self.text.trim_start().len();
        (self.start + indent, self.start + self.text.len())
    }
}

fn lines_of(code: &str, base: usize) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut offset = base;
    for (i, line) in code.split_inclusive('\n').enumerate() {
        out.push(Line { text: line.trim_end_matches(['\n', '\r']), start: offset, number: i });
        offset += line.len();
    }
    out
}
