//! Code received over the network and run: a script that serves HTTP requests and hands text
//! built from a variable to `new Function`, `eval` or `vm` runs whatever a caller sends it.
//! Read from the whole block: the request body and the call that runs it are usually lines
//! or functions apart.

use std::sync::LazyLock;

use regex::Regex;

use super::Line;
use crate::Sink;
use crate::rule_regex as re;
use crate::rules::Severity;

/// A script that answers requests: a server, a route, or a request body read.
static SERVES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\b(http|https|net)\.createserver\s*\(|\bcreateserver\s*\(|\bexpress\s*\(\s*\)|\b(app|router|server|fastify)\.(post|put|all|route)\s*\(|\breq(uest)?\.on\s*\(\s*["']data["']|\breq(uest)?\.body\b|\bawait\s+req(uest)?\.(json|text)\s*\(|\bwebsocketserver\b|\bws\.on\s*\(\s*["']message["'])"#,
    )
});
/// A call that runs text as JavaScript, given something other than a literal.
static RUNS_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(\bnew\s+function\s*\(|\beval\s*\(|\bvm\.(runin\w*|compilefunction)\s*\(|\bnew\s+vm\.script\s*\()"#)
});

pub(super) fn code_from_requests(sink: &mut Sink, code: &str, lines: &[Line]) {
    if !SERVES.is_match(code) {
        return;
    }
    for line in lines {
        let Some(m) = RUNS_TEXT.find(line.text) else { continue };
        let Some(args) = line.text.get(m.end()..) else { continue };
        // `${...}` in a template, or a bare name: text that comes from somewhere.
        let from_value = args.contains("${")
            || args.trim_start().starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$');
        if !from_value {
            continue;
        }
        let (start, end) = line.span();
        let what = format!(
            "serves requests and runs text built from a value with {}: a caller's code runs here",
            crate::text::visible(m.as_str()).trim_end_matches('(')
        );
        sink.report_with("remote-code-run", Severity::Medium, start, end, what);
        return;
    }
}

#[cfg(test)]
mod tests {
    use crate::scan_text;

    fn runs(path: &str, text: &str) -> Vec<&'static str> {
        scan_text(path, text).iter().filter(|f| f.rule.id == "remote-code-run").map(|f| f.severity.as_str()).collect()
    }

    #[test]
    fn a_server_that_runs_request_text_is_noted() {
        let server = "const http = require('http');\nhttp.createServer(async (req, res) => {\n  const body = await readBody(req);\n  const { code } = JSON.parse(body);\n  const fn = new Function('page', `return (async () => { ${code} })();`);\n  await fn(page);\n}).listen(3000);\n";
        assert_eq!(runs("server.mjs", server), ["medium"]);
        let express =
            "const app = express();\napp.post('/run', (req, res) => {\n  res.json(eval(req.body.expr));\n});\n";
        assert_eq!(runs("app.js", express), ["medium"]);
    }

    #[test]
    fn literal_code_or_no_server_is_left_alone() {
        let literal = "const app = express();\napp.post('/x', (req, res) => res.json(req.body));\nconst add = new Function('a', 'b', 'return a + b');\n";
        assert!(runs("app.js", literal).is_empty());
        let no_server = "const f = new Function('x', `return ${expr}`);\n";
        assert!(runs("calc.js", no_server).is_empty());
    }
}
