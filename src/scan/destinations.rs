//! Addresses that raise the severity of whatever sends data to them or fetches code from them:
//! kinds of hosts used as drops (raw public IP addresses, paste and file-drop sites, tunnels,
//! request catchers, chat-bot APIs, dynamic DNS) or that hide the real host (URL shorteners).
//! Named by kind, never by what one skill used.

use std::sync::LazyLock;

use regex::{Regex, RegexSet, RegexSetBuilder};

/// (kind, host pattern), matched against the host (and path) of a URL.
const KINDS: &[(&str, &str)] = &[
    ("a raw IP address", r"^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(:\d+)?(/|$)"),
    (
        "a paste or file-drop site",
        r"^(www\.)?(pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|termbin\.com|dpaste\.(com|org)|rentry\.(co|org)|transfer\.sh|0x0\.st|file\.io|catbox\.moe|paste\.rs|privatebin\.\w+|controlc\.com|justpaste\.it|anonfiles\.\w+|gofile\.io|temp\.sh|bashupload\.com)(:\d+)?(/|$)",
    ),
    (
        "a tunnel",
        r"(^|\.)(ngrok\.io|ngrok-free\.app|ngrok\.app|ngrok\.dev|trycloudflare\.com|serveo\.net|loca\.lt|localtunnel\.me|localhost\.run|lhr\.life|pinggy\.(io|link)|bore\.pub|telebit\.\w+|tunnelmole\.net|devtunnels\.ms|ts\.net)(:\d+)?(/|$)",
    ),
    (
        "a request catcher",
        r"(^|\.)(webhook\.site|requestbin\.\w+|pipedream\.net|m\.pipedream\.net|beeceptor\.com|requestcatcher\.com|interact\.sh|oast\.(fun|me|pro|live|site|online)|burpcollaborator\.net|canarytokens\.com|hookbin\.com|postb\.in|mockbin\.\w+)(:\d+)?(/|$)",
    ),
    (
        "a chat-bot API",
        r"^(api\.telegram\.org/bot|(canary\.|ptb\.)?discord(app)?\.com/api/webhooks/|hooks\.slack\.com/services/t)",
    ),
    (
        "dynamic DNS",
        r"(^|\.)(duckdns\.org|no-ip\.(com|org|biz)|ddns\.net|hopto\.org|zapto\.org|sytes\.net|dynu\.net)(:\d+)?(/|$)",
    ),
    (
        "a URL shortener",
        r"^(bit\.ly|tinyurl\.com|is\.gd|t\.ly|goo\.gl|rb\.gy|cutt\.ly|shorturl\.at|v\.gd|ow\.ly|buff\.ly|tiny\.cc|s\.id|rebrand\.ly)/",
    ),
];

/// An ASCII word boundary: a Unicode one makes the regex engine leave its fast DFA on
/// non-ASCII text, and the schemes start with ASCII letters.
static URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)(?-u:\b)(?:https?|wss?|ftp)://[^\s"'`<>)\]\\]+"#).expect("valid"));
/// Every kind's host pattern in one set: a URL is matched once, not once per kind.
static HOSTS: LazyLock<RegexSet> =
    LazyLock::new(|| RegexSetBuilder::new(KINDS.iter().map(|(_, p)| p)).case_insensitive(true).build().expect("valid"));

/// A risky address in `text`: (its kind, byte range of the URL).
pub fn find(text: &str) -> Option<(&'static str, usize, usize)> {
    if !text.contains("://") {
        return None;
    }
    urls(text).find_map(|whole| {
        let rest = &whole.as_str()[whole.as_str().find("://")? + 3..];
        let rest = rest.split_once('@').map_or(rest, |(_, after)| after);
        kind_of(rest).map(|kind| (kind, whole.start(), whole.end()))
    })
}

/// The URLs of `text`, as `URL.find_iter` finds them: each search starts just before the next
/// `://`, so the pattern runs over URLs, not over the prose between them.
fn urls(text: &str) -> impl Iterator<Item = regex::Match<'_>> {
    /// Longer than any scheme the pattern knows, in bytes, case-folded characters included.
    const SCHEME_BYTES: usize = 16;
    let mut from = 0;
    std::iter::from_fn(move || {
        let colon = from + text.get(from..)?.find("://")?;
        let mut start = colon.saturating_sub(SCHEME_BYTES).max(from);
        while !text.is_char_boundary(start) {
            start += 1;
        }
        let whole = URL.find_at(text, start)?;
        from = whole.end();
        Some(whole)
    })
}

/// The kind of a URL's host and path (`host[:port]/path`), when it is a risky one.
pub fn kind_of(host_and_path: &str) -> Option<&'static str> {
    // Most hosts are of no kind: one search says so, where listing the matches runs them all.
    if !HOSTS.is_match(host_and_path) {
        return None;
    }
    let i = HOSTS.matches(host_and_path).iter().next()?;
    if i == 0 && !is_public_ip(host_and_path) {
        return None;
    }
    Some(KINDS[i].0)
}

/// Loopback, private, link-local and documentation ranges are a developer's own machines.
fn is_public_ip(host_and_path: &str) -> bool {
    let host = host_and_path.split(['/', ':']).next().unwrap_or("");
    let Ok(ip) = host.parse::<std::net::Ipv4Addr>() else { return false };
    let [a, b, _, _] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_host() {
        assert_eq!(find("curl http://203.0.113.9:8080/x").map(|k| k.0), None, "documentation range");
        assert_eq!(find("curl http://45.77.10.2:8080/x").map(|k| k.0), Some("a raw IP address"));
        assert_eq!(find("http://127.0.0.1:3000/api"), None);
        assert_eq!(find("http://192.168.1.10/api"), None);
        assert_eq!(find("post to https://abc.ngrok-free.app/c").map(|k| k.0), Some("a tunnel"));
        assert_eq!(find("https://laptop.tail5f0.ts.net/hook").map(|k| k.0), Some("a tunnel"));
        assert_eq!(find("https://status.example.net/"), None);
        assert_eq!(find("https://api.telegram.org/bot123:abc/sendMessage").map(|k| k.0), Some("a chat-bot API"));
        assert_eq!(find("see https://bit.ly/3abc").map(|k| k.0), Some("a URL shortener"));
        assert_eq!(find("https://github.com/org/repo"), None);
        assert_eq!(find("https://notpastebin.com.example.org/"), None);
    }

    #[test]
    fn urls_are_those_the_pattern_finds() {
        let pieces =
            ["http", "HTTPS", "ws", "wss", "ftp", "://", "x", "h", ".io/", " ", "\"", "é", "\u{17F}", "\n", "a_", "@"];
        let mut state = 0x9E37_79B9_u32;
        for _ in 0..2000 {
            let text = crate::scan::pieces_mixed(&pieces, 12, &mut state);
            let found: Vec<_> = urls(&text).map(|m| m.range()).collect();
            let expected: Vec<_> = URL.find_iter(&text).map(|m| m.range()).collect();
            assert_eq!(found, expected, "{text:?}");
        }
    }
}
