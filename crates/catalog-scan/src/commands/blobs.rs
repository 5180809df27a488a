//! Fork bombs and long encoded payloads in code.

use std::sync::LazyLock;

use crate::rule_regex as re;
use regex::Regex;

use crate::Sink;

pub(super) static FORK_BOMB: LazyLock<Regex> =
    LazyLock::new(|| re(r"([\w:.]+)\s*\(\s*\)\s*\{\s*([\w:.]+)\s*\|\s*([\w:.]+)\s*&\s*;?\s*\}"));

pub(super) fn fork_bombs(sink: &mut Sink, base: usize, code: &str) {
    if !may_close_a_fork_bomb(code) {
        return;
    }
    for caps in FORK_BOMB.captures_iter(code) {
        if caps[1] == caps[2] && caps[2] == caps[3] {
            let m = caps.get(0).expect("whole match");
            sink.report(
                "fork-bomb",
                base + m.start(),
                base + m.end(),
                format!("{} calls itself twice in the background", &caps[1]),
            );
        }
    }
}

/// Whether `code` holds what [`FORK_BOMB`] ends with, `&`, spaces, at most one `;`, spaces and
/// `}`: most code does not, and the pattern (Unicode word classes) is costly to compile for a
/// process that scans one skill.
fn may_close_a_fork_bomb(code: &str) -> bool {
    code.match_indices('&').any(|(at, _)| {
        let rest = code.get(at + 1..).unwrap_or_default().trim_start();
        let rest = rest.strip_prefix(';').unwrap_or(rest).trim_start();
        rest.starts_with('}')
    })
}

/// Long base64 or hex strings in code; data: URIs of images and fonts are left alone.
pub(super) fn encoded_blobs(sink: &mut Sink, base: usize, code: &str) {
    // Signatures, certificates, public keys and checksums are encoded by nature and never run.
    const DATA_EXTS: &[&str] = &["sig", "asc", "minisig", "p7s", "crt", "cer", "der", "pub", "gpg", "sha256", "sha512"];
    let ext = sink.file.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    if DATA_EXTS.contains(&ext.as_str()) {
        return;
    }
    const MIN_BASE64: usize = 200;
    const MIN_HEX: usize = 256;
    let bytes = code.as_bytes();
    let mut i = 0;
    let is_b64 = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-');
    while let Some(b) = bytes.get(i) {
        if !is_b64(b) {
            i += 1;
            continue;
        }
        let start = i;
        while bytes.get(i).is_some_and(is_b64) {
            i += 1;
        }
        // A run of ASCII bytes.
        let run = code.get(start..i).unwrap_or_default();
        let all_hex = run.bytes().all(|b| b.is_ascii_hexdigit());
        let long_enough = if all_hex { run.len() >= MIN_HEX } else { run.len() >= MIN_BASE64 };
        if !long_enough {
            continue;
        }
        let mixed = all_hex
            || (run.bytes().any(|b| b.is_ascii_digit())
                && run.bytes().any(|b| b.is_ascii_uppercase())
                && run.bytes().any(|b| b.is_ascii_lowercase()));
        let mut from = start.saturating_sub(80);
        while !code.is_char_boundary(from) {
            from += 1;
        }
        let before = code.get(from..start).unwrap_or_default().to_ascii_lowercase();
        let data_uri = before.contains("data:image/")
            || before.contains("data:font/")
            || before.contains("data:application/font")
            || before.contains("data:application/x-font")
            || before.contains("data:audio/")
            || before.contains("data:video/");
        let path_like = run.matches('/').count() > run.len() / 20;
        if mixed && !data_uri && !path_like {
            let kind = if all_hex { "hex" } else { "base64" };
            sink.report("encoded-blob", base + start, base + start + 60, format!("{} characters of {kind}", run.len()));
        }
    }
    // \x41\x42... escapes.
    static HEX_ESCAPES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(\\x[0-9a-fA-F]{2}){64,}").unwrap());
    for m in HEX_ESCAPES.find_iter(code) {
        sink.report(
            "encoded-blob",
            base + m.start(),
            base + m.start() + 60,
            format!("{} hex-escaped bytes", m.len() / 4),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fork_bomb_gate_passes_whatever_the_pattern_matches() {
        let bombs = [":(){ :|:& };:", "bomb() { bomb | bomb & } ; bomb", "f(){ f|f&\n;\u{a0}}", "x(){ x|x &}"];
        for code in bombs {
            assert!(FORK_BOMB.is_match(code), "{code:?}");
            assert!(may_close_a_fork_bomb(code), "{code:?}");
        }
        for code in ["a && b", "cmd & echo }", "run &;; }", "{ x; } &", "echo done"] {
            assert!(!FORK_BOMB.is_match(code) || may_close_a_fork_bomb(code), "{code:?}");
        }
        assert!(!may_close_a_fork_bomb("a && b; c | d"), "no closing brace after the `&`");
        assert!(!may_close_a_fork_bomb("run &;; }"), "two `;`");
    }
}
