//! Template text without its indentation: the templates are indented for their readers, and a
//! page repeated 60,000 times would carry that indentation (about 650 bytes a skill page) to
//! every visitor. Leading whitespace outside `<pre>` and `<textarea>` changes nothing a browser
//! shows, so it is dropped once, when the templates are loaded.

/// `text` with each line's leading spaces and tabs removed and blank lines dropped, except
/// the lines inside a `<pre>` or `<textarea>` element that spans lines, which are kept as they are.
pub fn trim_indentation(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut verbatim = false;
    for line in text.split_inclusive('\n') {
        let shown = if verbatim { line } else { line.trim_start_matches([' ', '\t']) };
        if verbatim || !shown.trim().is_empty() {
            out.push_str(shown);
        }
        verbatim = ends_inside_verbatim(line, verbatim);
    }
    out
}

/// Whether a `<pre>` or `<textarea>` is still open at the end of `line`, given whether one was
/// open at its start.
fn ends_inside_verbatim(line: &str, mut open: bool) -> bool {
    let lower = line.to_ascii_lowercase();
    let mut rest = lower.as_str();
    loop {
        let tags = if open { ["</pre", "</textarea"] } else { ["<pre", "<textarea"] };
        let next = tags.iter().filter_map(|tag| rest.find(tag).map(|at| (at, tag.len()))).min();
        let Some((at, len)) = next else { return open };
        open = !open;
        rest = rest.get(at + len..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::trim_indentation;

    #[test]
    fn indentation_and_blank_lines_go() {
        assert_eq!(
            trim_indentation("<ul>\n  <li>a</li>\n\n\t<li>b</li>\n</ul>\n"),
            "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"
        );
    }

    #[test]
    fn lines_inside_a_pre_that_spans_lines_are_kept() {
        let text = "<div>\n  <pre>first\n    second\n\n  </pre>\n  <p>x</p>\n</div>";
        assert_eq!(trim_indentation(text), "<div>\n<pre>first\n    second\n\n  </pre>\n<p>x</p>\n</div>");
    }

    #[test]
    fn a_pre_closed_on_its_own_line_leaves_the_next_lines_trimmed() {
        let text = "  <pre><code>{{ x }}</code></pre>\n    <p>y</p>\n  <TEXTAREA>\n  kept\n</textarea>\n  z\n";
        assert_eq!(
            trim_indentation(text),
            "<pre><code>{{ x }}</code></pre>\n<p>y</p>\n<TEXTAREA>\n  kept\n</textarea>\nz\n"
        );
    }
}
