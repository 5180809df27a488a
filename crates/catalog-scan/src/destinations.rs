//! Addresses that raise the severity of whatever sends data to them or fetches code from them:
//! kinds of hosts used as drops (raw public IP addresses, paste and file-drop sites, tunnels,
//! request catchers, chat-bot APIs, dynamic DNS) or that hide the real host (URL shorteners).
//! Named by kind, never by what one skill used.

use std::sync::LazyLock;

use regex::{RegexSet, RegexSetBuilder};

/// (kind, host pattern), matched against the host (and path) of a URL: each from the host's
/// start, so a name in the path (`example.com/x.ngrok.io/`) is not the host, and a search stops
/// where no kind can match any more.
const KINDS: &[(&str, &str)] = &[
    ("a raw IP address", r"^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(:\d+)?(/|$)"),
    (
        "a paste or file-drop site",
        r"^(www\.)?(pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|termbin\.com|dpaste\.(com|org)|rentry\.(co|org)|transfer\.sh|0x0\.st|file\.io|catbox\.moe|paste\.rs|privatebin\.\w+|controlc\.com|justpaste\.it|anonfiles\.\w+|gofile\.io|temp\.sh|bashupload\.com)(:\d+)?(/|$)",
    ),
    (
        "a tunnel",
        r"^([^/?#]*\.)?(ngrok\.io|ngrok-free\.app|ngrok\.app|ngrok\.dev|trycloudflare\.com|serveo\.net|loca\.lt|localtunnel\.me|localhost\.run|lhr\.life|pinggy\.(io|link)|bore\.pub|telebit\.\w+|tunnelmole\.net|devtunnels\.ms|ts\.net)(:\d+)?(/|$)",
    ),
    (
        "a request catcher",
        r"^([^/?#]*\.)?(webhook\.site|requestbin\.\w+|pipedream\.net|m\.pipedream\.net|beeceptor\.com|requestcatcher\.com|interact\.sh|oast\.(fun|me|pro|live|site|online)|burpcollaborator\.net|canarytokens\.com|hookbin\.com|postb\.in|mockbin\.\w+)(:\d+)?(/|$)",
    ),
    (
        "a chat-bot API",
        r"^(api\.telegram\.org/bot|(canary\.|ptb\.)?discord(app)?\.com/api/webhooks/|hooks\.slack\.com/services/t)",
    ),
    (
        "dynamic DNS",
        r"^([^/?#]*\.)?(duckdns\.org|no-ip\.(com|org|biz)|ddns\.net|hopto\.org|zapto\.org|sytes\.net|dynu\.net)(:\d+)?(/|$)",
    ),
    (
        "a URL shortener",
        r"^(bit\.ly|tinyurl\.com|is\.gd|t\.ly|goo\.gl|rb\.gy|cutt\.ly|shorturl\.at|v\.gd|ow\.ly|buff\.ly|tiny\.cc|s\.id|rebrand\.ly)/",
    ),
];

/// Every kind's host pattern in one set: a URL is matched once, not once per kind.
static HOSTS: LazyLock<RegexSet> =
    LazyLock::new(|| RegexSetBuilder::new(KINDS.iter().map(|(_, p)| p)).case_insensitive(true).build().expect("valid"));

/// A risky address in `text`: (its kind, byte range of the URL).
pub fn find(text: &str) -> Option<(&'static str, usize, usize)> {
    urls(text).find_map(|(start, after_scheme, end)| {
        let rest = text.get(after_scheme..end)?;
        let rest = memchr::memchr(b'@', rest.as_bytes()).and_then(|at| rest.get(at + 1..)).unwrap_or(rest);
        kind_of(rest).map(|kind| (kind, start, end))
    })
}

/// What every URL holds: searched with one searcher built once, as building one costs more
/// than searching most prose regions.
static SEPARATOR: LazyLock<memchr::memmem::Finder<'static>> = LazyLock::new(|| memchr::memmem::Finder::new("://"));

/// Where the first `://` of `text` is.
pub fn url_separator(text: &str) -> Option<usize> {
    SEPARATOR.find(text.as_bytes())
}

/// The URLs of `text`, as (start, end of the `://`, end): a scheme (`http`, `https`, `ws`,
/// `wss` or `ftp`, in any case, at an ASCII word boundary), `://`, and what follows up to a
/// space, a quote, a bracket or a backslash; the same as [`URL_PATTERN`] finds. Read from each
/// `://` outwards: nearly all of the text is prose, which a regex search would walk for schemes.
fn urls(text: &str) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let mut separators = SEPARATOR.find_iter(text.as_bytes());
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            let colon = separators.next()?;
            if colon < from {
                continue;
            }
            let Some(start) = text.get(..colon).and_then(scheme_start).filter(|&start| start >= from) else { continue };
            let end = colon + 3 + text.get(colon + 3..).map_or(0, url_length);
            if end > colon + 3 {
                from = end;
                return Some((start, colon + 3, end));
            }
        }
    })
}

/// How much of `tail` (what follows a URL's `://`) is the URL: up to white space, a quote, a
/// bracket or a backslash. A byte at a time by a table of the bytes that may end it, decoding
/// only non-ASCII characters (whose white space is Unicode's): a URL's characters are nearly
/// all ASCII.
fn url_length(tail: &str) -> usize {
    let bytes = tail.as_bytes();
    let mut i = 0;
    let may_end = |b: &u8| MAY_END_URL.get(usize::from(*b)) == Some(&true);
    while let Some(at) = bytes.get(i..).and_then(|rest| rest.iter().position(may_end)) {
        i += at;
        // An ASCII byte here ends the URL; a non-ASCII character does when it is white space.
        match tail.get(i..).and_then(|rest| rest.chars().next()) {
            Some(c) if !c.is_ascii() && !c.is_whitespace() => i += c.len_utf8(),
            _ => return i,
        }
    }
    bytes.len()
}

/// The bytes at which a URL may end: the ASCII ones that end it (white space as
/// `char::is_whitespace` has it, with the vertical tab), and every byte of a non-ASCII
/// character, which ends it when the character is white space.
// Built at compile time: an index out of range would fail the build.
#[allow(clippy::indexing_slicing)]
const MAY_END_URL: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b >= 0x80
            || matches!(
                b as u8,
                b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b'"' | b'\'' | b'`' | b'<' | b'>' | b')' | b']' | b'\\'
            );
        b += 1;
    }
    table
};

/// The schemes [`urls`] reads, longest first where one ends another.
const SCHEMES: [&str; 5] = ["https", "http", "wss", "ws", "ftp"];

/// Where the scheme that `before` ends with starts, when it ends with one at a word boundary
/// (the byte before is not an ASCII letter, digit or `_`). When the bytes a scheme may be
/// spelled in are ASCII (nearly always), they are compared as bytes; otherwise character by
/// character, folded.
fn scheme_start(before: &str) -> Option<usize> {
    let bytes = before.as_bytes();
    let ascii = bytes.iter().rev().take(SCHEMES[0].len()).all(u8::is_ascii);
    SCHEMES.iter().find_map(|scheme| {
        let start = if ascii { spelled_as_bytes(bytes, scheme) } else { spelled_folded(before, scheme) }?;
        let byte_before = bytes.get(..start).and_then(|b| b.last());
        byte_before.is_none_or(|b| !super::literals::is_word_byte(*b)).then_some(start)
    })
}

/// Where `scheme` starts when `before` ends with it, in any ASCII case.
fn spelled_as_bytes(before: &[u8], scheme: &str) -> Option<usize> {
    let start = before.len().checked_sub(scheme.len())?;
    before.get(start..)?.eq_ignore_ascii_case(scheme.as_bytes()).then_some(start)
}

/// [`spelled_as_bytes`] for a `before` that ends with non-ASCII bytes: compared character by
/// character, lower-cased, and with LONG S as `s`, as case-insensitive matching folds it.
fn spelled_folded(before: &str, scheme: &str) -> Option<usize> {
    let fold = |c: char| if c == '\u{17F}' { 's' } else { c.to_ascii_lowercase() };
    let mut start = before.len();
    let mut chars = before.chars().rev();
    let spelled = scheme.chars().rev().all(|want| {
        chars.next().is_some_and(|c| {
            start -= c.len_utf8();
            fold(c) == want
        })
    });
    spelled.then_some(start)
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
    KINDS.get(i).map(|(kind, _)| *kind)
}

/// `host/path` of a URL, lower-cased: what follows its scheme and any `user@`.
pub fn host_and_path(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.rsplit_once('@').filter(|(user, _)| !user.contains('/')).map_or(rest, |(_, r)| r);
    rest.to_ascii_lowercase()
}

/// What stands for a download's address when its command names none but reads a variable.
pub const URL_IN_A_VARIABLE: &str = "(a URL in a variable)";

/// Whether a download's address, as a command spells it, names no host that code could come
/// from: none at all (`curl ... | sh`, `curl [url] | sh`), a name reserved for examples
/// (`example.com`, `*.test`, `*.invalid`, `localhost`), a loopback or documentation address,
/// a defanged one (`evil[.]com`, `hxxp://`), or a placeholder holding characters no host name
/// can (`<host>`, `{lhost}`, `ATTACKER_IP`). Read from the address alone: words around it
/// change nothing, and an address in a variable, a public IP or any registrable name is
/// reachable.
pub fn names_no_reachable_host(url: &str) -> bool {
    if url == URL_IN_A_VARIABLE || url.contains('$') {
        return false;
    }
    if url.get(..4).is_some_and(|scheme| scheme.eq_ignore_ascii_case("hxxp")) {
        return true;
    }
    let target = host_and_path(url);
    let host = target.split(['/', '?']).next().unwrap_or("");
    let host =
        host.rsplit_once(':').filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit())).map_or(host, |(h, _)| h);
    if !host.bytes().any(|b| b.is_ascii_alphanumeric()) || host.contains("[.]") || host.contains("(.)") {
        return true;
    }
    if host.bytes().any(|b| matches!(b, b'<' | b'>' | b'{' | b'}' | b'[' | b']' | b'#' | b'_' | b'*')) {
        return true;
    }
    if let Ok(ip) = host.parse::<std::net::Ipv4Addr>() {
        return ip.is_loopback() || ip.is_documentation() || ip.is_unspecified();
    }
    let top = host.trim_end_matches('.').rsplit('.').next().unwrap_or("");
    let reserved_second = ["example.com", "example.net", "example.org"]
        .iter()
        .any(|name| host == *name || host.ends_with(&format!(".{name}")));
    reserved_second || matches!(top, "example" | "test" | "invalid" | "localhost")
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
        assert_eq!(find("https://example.com/x.ngrok.io/"), None, "a name in the path is not the host");
        assert_eq!(find("https://example.com/?u=a.ngrok.io"), None);
        assert_eq!(find("https://example.com?u=a.ngrok.io"), None);
        assert_eq!(find("wss://a.b.trycloudflare.com:8443/s").map(|k| k.0), Some("a tunnel"));
        assert_eq!(find("https://x.duckdns.org").map(|k| k.0), Some("dynamic DNS"));
    }

    #[test]
    fn placeholder_addresses_reach_no_host() {
        for url in [
            "",
            "...",
            "[url]",
            "https://example.com/install.sh",
            "http://pool.example.net:3333",
            "https://get.tool.test/x",
            "http://localhost:8080/setup.sh",
            "http://127.0.0.1:1355/x",
            "https://evil[.]com/payload",
            "hxxp://evil.com/x",
            "http://<your-host>/install.sh",
            "http://{lhost}:{lport}/s",
            "https://ATTACKER_IP/x",
            "http://192.0.2.4/x",
        ] {
            assert!(names_no_reachable_host(url), "{url:?} names no reachable host");
        }
        for url in [
            URL_IN_A_VARIABLE,
            "$URL",
            "https://${HOST}/x",
            "https://attacker.com/x.sh",
            "https://canifi.com/skills/a/install.sh",
            "http://45.77.10.2/x",
            "evil.com/x.sh",
            "https://user@evil.example.org.attacker.net/x",
        ] {
            assert!(!names_no_reachable_host(url), "{url:?} is reachable");
        }
    }

    /// What a URL is, as a regex: [`urls`] must find what it finds.
    const URL_PATTERN: &str = r#"(?i)(?-u:\b)(?:https?|wss?|ftp)://[^\s"'`<>)\]\\]+"#;

    #[test]
    fn urls_are_those_the_pattern_finds() {
        let pattern = regex::Regex::new(URL_PATTERN).unwrap();
        let pieces = [
            "http", "HTTPS", "ws", "wss", "WsS", "ftp", "fTp", "://", ":/", "x", "h", "s", "p", ".io/", " ", "\"", "é",
            "\u{17F}", "\u{212A}", "\u{A0}", "\u{3000}", "\n", "\u{B}", "\t", "\u{85}", "\u{2028}", "'", "\r", "\u{C}",
            ">", "a_", "@", ")", "]", "\\", "`", "<",
        ];
        let mut state = 0x9E37_79B9_u32;
        for _ in 0..20_000 {
            let text = crate::pieces_mixed(&pieces, 12, &mut state);
            let found: Vec<_> = urls(&text).map(|(start, _, end)| (start, end)).collect();
            let expected: Vec<_> = pattern.find_iter(&text).map(|m| (m.start(), m.end())).collect();
            assert_eq!(found, expected, "{text:?}");
        }
    }
}
