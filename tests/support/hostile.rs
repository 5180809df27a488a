//! A hostile catalog, generated at run time (it holds a 50 MB file and thousands of others, so
//! it is never committed): script payloads in every place a skill can put text, files a browser
//! would run, encodings and sizes that parsers choke on, links out of the source folder, and
//! names that clash on case-insensitive or Windows file systems.
//!
//! [`generate`] writes it and returns what each skill folder attacks and what the build must do
//! with it, so tests check outcomes against the input rather than against a list of their own.

use std::path::{Path, PathBuf};

/// The repository of the source whose skills carry payloads; it has an MIT licence, so their
/// SKILL.md files are republished too.
pub const PAYLOADS_REPO: &str = "evil-org/payloads";
/// The repository of the source whose skills push sizes, encodings and names; its only licence
/// file is a link out of the source.
pub const LIMITS_REPO: &str = "evil-org/limits";

/// What the build must do with one skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// A page, and no diagnostic about its SKILL.md.
    Page,
    /// A page, and a warning that names its SKILL.md.
    PageWithWarning,
    /// No page; an error diagnostic that names its SKILL.md, and a line within these bounds
    /// (inclusive) when one applies.
    LeftOut { lines: Option<(usize, usize)> },
    /// Not a skill at all (a link to a folder elsewhere is never followed): no page.
    NotASkill,
}

/// One generated skill folder.
#[derive(Debug, Clone)]
pub struct HostileSkill {
    /// `owner/name` of its source.
    pub repo: &'static str,
    /// The source folder, relative to the catalog root.
    pub source: &'static str,
    /// The skill folder, relative to the source folder (what the JSON API calls `path`).
    pub folder: String,
    /// What it attacks, for failure messages.
    pub attack: &'static str,
    pub expect: Expect,
}

impl HostileSkill {
    /// Its SKILL.md relative to the catalog root, as diagnostics name it.
    pub fn skill_md(&self) -> String {
        format!("{}/{}/SKILL.md", self.source, self.folder)
    }
}

#[derive(Debug)]
pub struct HostileCatalog {
    /// The folder holding catalog.toml.
    pub root: PathBuf,
    /// A folder outside every source that links in the sources point at.
    pub outside: PathBuf,
    /// Text that only files in `outside` hold: it must never reach the site.
    pub canary: String,
    pub skills: Vec<HostileSkill>,
}

/// Markup and text that must stay text on every page.
pub const SCRIPT_PAYLOADS: &[&str] = &[
    "<script>alert('s1')</script>",
    "<svg onload=alert('s2')>",
    "<img src=x onerror=alert('s3')>",
    "<iframe srcdoc=\"<script>alert('s4')</script>\"></iframe>",
    "<a href=javascript:alert('s5')>a</a>",
    "<object data=\"javascript:alert('s6')\"></object><embed src=javascript:alert('s6')>",
    "<base href=\"javascript:alert('s7')//\">",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert('s8')\">",
    "<form action=javascript:alert('s9')><button formaction=javascript:alert('s9')>b</button></form>",
    "<svg><a xlink:href=\"javascript:alert('s10')\"><text>t</text></a></svg>",
    "</script><script>alert('s11')</script>",
    "\"><script>alert('s12')</script>",
    "'><img src=x onerror=alert('s13')>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert('s14')>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert('s15')>\">",
    "<details open ontoggle=alert('s16')>",
    "<style>@import 'javascript:alert(17)';</style>",
    "<!--<script>alert('s18')</script>-->",
    "<![CDATA[<script>alert('s19')</script>]]>",
];

/// Strings template engines evaluate; they must come out as written.
pub const TEMPLATE_PAYLOADS: &[&str] =
    &["{{ 7*7 }}", "{% raw %}", "{% endraw %}", "{{ __tera_context }}", "{# open comment", "${7*7}", "<%= 7*7 %>"];

/// Link targets that run script or leave the site, each with what it is.
pub const URL_PAYLOADS: &[(&str, &str)] = &[
    ("javascript", "javascript:alert('u1')"),
    ("mixed-case", "JaVaScRiPt:alert('u2')"),
    ("tab", "java\tscript:alert('u3')"),
    ("newline", "java\nscript:alert('u4')"),
    ("leading-space", " \u{1}javascript:alert('u5')"),
    ("entity-decimal", "&#106;avascript:alert('u6')"),
    ("entity-hex", "&#x6A;avascript:alert('u7')"),
    ("entity-padded", "&#0000106&#0000097vascript:alert('u8')"),
    ("entity-colon", "javascript&colon;alert('u9')"),
    ("data-html", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="),
    ("data-svg", "data:image/svg+xml,<svg onload=alert('u11')>"),
    ("vbscript", "VBScript:msgbox('u12')"),
];

/// Writes the hostile catalog into `root` (which must exist and be empty) and its outside
/// targets into `outside`.
pub fn generate(root: &Path, outside: &Path) -> HostileCatalog {
    let canary = "CANARY-0f4d outside every source: never published".to_string();
    mkdir(outside);
    write(&outside.join("canary.txt"), canary.as_bytes());
    write(
        &outside.join("LICENSE"),
        format!("MIT License\n\nPermission is hereby granted, free of charge, {canary}\n").as_bytes(),
    );
    write(&outside.join("SKILL.md"), format!("---\nname: outside\ndescription: {canary}\n---\n{canary}\n").as_bytes());
    mkdir(&outside.join("skill-dir"));
    write(
        &outside.join("skill-dir/SKILL.md"),
        format!("---\nname: linked\ndescription: {canary}\n---\n{canary}\n").as_bytes(),
    );

    let title = format!("Hostile {} catalog {}", SCRIPT_PAYLOADS[0], TEMPLATE_PAYLOADS[0]);
    write(
        &root.join("catalog.toml"),
        format!(
            "title = {}\ndescription = {}\nbase_url = \"https://example.github.io/sub/path/\"\n\n\
             [[sources]]\npath = \"payloads\"\nrepo = \"{PAYLOADS_REPO}\"\n\n\
             [[sources]]\npath = \"limits\"\nrepo = \"{LIMITS_REPO}\"\n",
            toml_string(&title),
            toml_string(SCRIPT_PAYLOADS[11]),
        )
        .as_bytes(),
    );
    let mut skills = Vec::new();
    payload_skills(&root.join("payloads"), outside, &mut skills);
    limit_skills(&root.join("limits"), outside, &mut skills);
    HostileCatalog { root: root.to_path_buf(), outside: outside.to_path_buf(), canary, skills }
}

fn payload_skills(src: &Path, outside: &Path, skills: &mut Vec<HostileSkill>) {
    mkdir(src);
    write(&src.join("LICENSE"), b"MIT License\n\nPermission is hereby granted, free of charge, to any person.\n");
    let mut add = |folder: &str, attack: &'static str, expect: Expect| {
        mkdir(&src.join(folder));
        skills.push(HostileSkill {
            repo: PAYLOADS_REPO,
            source: "payloads",
            folder: folder.to_string(),
            attack,
            expect,
        });
        src.join(folder)
    };

    // Every script payload as raw HTML blocks, and inline in every kind of Markdown text.
    let dir = add("raw-html-blocks", "script payloads as raw HTML blocks", Expect::Page);
    let blocks: String = SCRIPT_PAYLOADS.iter().map(|p| format!("{p}\n\n")).collect();
    write_skill(&dir, "raw-html-blocks", "Raw HTML blocks.", &[], &blocks);
    for (i, payload) in SCRIPT_PAYLOADS.iter().enumerate() {
        let folder = format!("inline-html-{i:02}");
        let dir = add(&folder, "a script payload inline in headings, lists, tables, code and prose", Expect::Page);
        write_skill(&dir, &folder, &format!("Inline {}", i + 1), &[], &structured_body(payload));
    }
    let dir = add("template-injection", "template syntax in frontmatter and body", Expect::Page);
    let all = TEMPLATE_PAYLOADS.join(" ");
    write_skill(&dir, &format!("tpl {}", TEMPLATE_PAYLOADS[0]), &all, &[("tags", json(&all))], &structured_body(&all));

    // Every URL payload in every Markdown link form.
    for (kind, url) in URL_PAYLOADS {
        let folder = format!("url-{kind}");
        let dir = add(&folder, "a script URL as inline, angle, image, reference and auto links", Expect::Page);
        let body = format!(
            "# Links\n\n[inline]({url}) [angle](<{url}>) ![image]({url}) ![angle image](<{url}>)\n\n\
             [reference][r] ![image reference][r] [collapsed][] <{url}>\n\n\
             <a href=\"{url}\">raw</a>\n\n[r]: <{url}>\n[collapsed]: {url}\n\n## When to use\n\n- [item]({url})\n"
        );
        write_skill(&dir, &folder, "Links that must stay inert.", &[("homepage", json(url))], &body);
    }

    // One frontmatter field at a time carries every payload, so a field that escapes badly is
    // named by its folder.
    let joined = SCRIPT_PAYLOADS.join(" ");
    let list = serde_json::to_string(SCRIPT_PAYLOADS).unwrap();
    for (field, value) in [
        ("name", json(&joined)),
        ("description", json(&joined)),
        ("tags", list.clone()),
        ("license", json(&joined)),
        ("allowed-tools", json(&format!("Bash({joined}) Read"))),
        ("compatibility", json(&joined)),
        (
            "metadata",
            format!("{{\"category\": {}, \"tags\": {list}, \"homepage\": {}}}", json(&joined), json(URL_PAYLOADS[0].1)),
        ),
        ("category", json(&joined)),
    ] {
        let folder = format!("frontmatter-{field}");
        let dir = add(&folder, "script payloads in one frontmatter field", Expect::Page);
        let mut fields = vec![("name", json(&folder)), ("description", json("A skill with a hostile field."))];
        fields.retain(|(k, _)| *k != field);
        fields.push((field, value));
        write_raw_skill(&dir, &fields, &structured_body("plain text"));
    }

    // Files beside SKILL.md: names that are markup, and files a browser would run.
    let dir = add("hostile-file-names", "file names beside SKILL.md that are markup or URLs", Expect::Page);
    write_skill(&dir, "hostile-file-names", "Files with hostile names.", &[], "# Files\n\nSee the files.\n");
    for name in [
        "<img src=x onerror=alert('f1')>.md",
        "\"><script>alert('f2')<",
        "javascript:alert('f3')",
        "{{ 7*7 }}.txt",
        "line\nbreak.txt",
        "--><svg onload=alert('f4')>",
    ] {
        write(&dir.join(name), b"text\n");
    }
    let dir = add("svg-and-html-files", "SVG and HTML files with scripts beside SKILL.md", Expect::Page);
    write_skill(
        &dir,
        "svg-and-html-files",
        "Ships SVG and HTML.",
        &[],
        "# Files\n\n![logo](logo.svg) [page](page.html)\n",
    );
    let svg =
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert('svg1')\"><script>alert('svg2')</script></svg>\n";
    let html = b"<!doctype html><script>alert('html1')</script><img src=x onerror=alert('html2')>\n";
    for (name, bytes) in [
        ("logo.svg", &svg[..]),
        ("assets/icon.SVG", svg),
        ("page.html", html),
        ("index.html", html),
        ("404.html", html),
        ("doc.htm", html),
        ("doc.xhtml", html),
        (
            "feed.xml",
            b"<?xml version=\"1.0\"?><x:script xmlns:x=\"http://www.w3.org/1999/xhtml\">alert('xml')</x:script>\n",
        ),
        ("SKILL.md.html", html),
    ] {
        write(&dir.join(name), bytes);
    }

    // Links out of the source: Markdown links to /etc/passwd, a linked file beside SKILL.md, a
    // linked licence and a linked folder.
    let dir = add("passwd-links", "links to /etc/passwd and files outside the source", Expect::Page);
    write_skill(
        &dir,
        "passwd-links",
        "Points at files outside.",
        &[],
        "# Secrets\n\n[passwd](/etc/passwd) [file](file:///etc/passwd) [up](../../../../../../../../etc/passwd) \
         ![img](/etc/passwd) <file:///etc/passwd> [canary](canary.txt) [linked](passwd)\n\n\
         ```bash\ncat passwd canary.txt\n```\n",
    );
    symlink(Path::new("/etc/passwd"), &dir.join("passwd"));
    symlink(&outside.join("canary.txt"), &dir.join("canary.txt"));
    symlink(&outside.join("LICENSE"), &dir.join("LICENSE"));
    symlink(outside, &dir.join("references"));
    let dir =
        add("linked-skill-md", "SKILL.md is a link to a file outside the source", Expect::LeftOut { lines: None });
    symlink(&outside.join("SKILL.md"), &dir.join("SKILL.md"));
    // A skill folder that is itself a link to a folder outside: never followed.
    symlink(&outside.join("skill-dir"), &src.join("linked-skill-dir"));
    skills.push(HostileSkill {
        repo: PAYLOADS_REPO,
        source: "payloads",
        folder: "linked-skill-dir".into(),
        attack: "a skill folder that links outside the source",
        expect: Expect::NotASkill,
    });
}

fn limit_skills(src: &Path, outside: &Path, skills: &mut Vec<HostileSkill>) {
    mkdir(src);
    // The source's only licence file is a link out of it: it must not be read.
    symlink(&outside.join("LICENSE"), &src.join("LICENSE"));
    let mut add = |folder: &str, attack: &'static str, expect: Expect| {
        // A licence of the skill's own lets its SKILL.md be rendered on its page, so deep and
        // odd Markdown reaches the renderer and the minifier.
        write(&src.join(folder).join("LICENSE"), b"MIT License\n\nPermission is hereby granted, free of charge.\n");
        skills.push(HostileSkill { repo: LIMITS_REPO, source: "limits", folder: folder.to_string(), attack, expect });
        src.join(folder)
    };

    // Sizes.
    let dir = add("empty", "a SKILL.md of 0 bytes", Expect::LeftOut { lines: Some((1, 1)) });
    write(&dir.join("SKILL.md"), b"");
    let dir = add("fifty-megabytes", "a SKILL.md of 50 MB", Expect::LeftOut { lines: None });
    let line = format!("{}\n", "Lorem ipsum dolor sit amet. ".repeat(36));
    let mut big = skill_text("fifty-megabytes", "Too big.", &[], "# Big\n\n").into_bytes();
    while big.len() < 50 * 1024 * 1024 {
        big.extend_from_slice(line.as_bytes());
    }
    write(&dir.join("SKILL.md"), &big);
    drop(big);
    let dir = add("one-line-5mb", "a SKILL.md of one 5 MB line", Expect::LeftOut { lines: None });
    write(&dir.join("SKILL.md"), "x".repeat(5 * 1024 * 1024).as_bytes());
    let dir = add("long-line-below-the-limit", "a 3 MB body line below the size limit", Expect::Page);
    let body = format!("# Long\n\n{}\n", "word <b onclick=alert(1)>".repeat(3 * 1024 * 1024 / 25));
    write_skill(&dir, "long-line-below-the-limit", "One long line.", &[], &body);
    let dir = add("five-thousand-files", "a skill folder with 5,000 files", Expect::Page);
    write_skill(&dir, "five-thousand-files", "Many files.", &[], "# Files\n\nMany.\n");
    for i in 0..5000 {
        write(
            &dir.join(format!("files/{:02}/f{i:04}.sh", i % 50)),
            format!("echo {i} <script>x</script>\n").as_bytes(),
        );
    }

    // Encodings.
    let dir = add("invalid-utf8", "bytes that are not UTF-8 in frontmatter and body", Expect::PageWithWarning);
    let mut bytes = b"---\nname: invalid-utf8\ndescription: \"bad \xC3\x28 bytes\"\n---\n# Bad \xFF\xFE\n\n".to_vec();
    bytes.extend_from_slice(b"text \xED\xA0\x80 surrogate \xF8\x88\x80\x80\x80 overlong \xC0\xAF\n");
    write(&dir.join("SKILL.md"), &bytes);
    let text = skill_text("utf16-le", "UTF-16 LE with a BOM.", &[], &structured_body(SCRIPT_PAYLOADS[0]));
    let dir = add("utf16-le", "UTF-16 LE with a BOM", Expect::Page);
    write(&dir.join("SKILL.md"), &utf16(&text, true));
    let dir = add("utf16-be", "UTF-16 BE with a BOM", Expect::Page);
    let text = skill_text("utf16-be", "UTF-16 BE with a BOM.", &[], &structured_body(SCRIPT_PAYLOADS[2]));
    write(&dir.join("SKILL.md"), &utf16(&text, false));
    let dir = add("utf16-lone-surrogate", "UTF-16 with a lone surrogate and an odd length", Expect::PageWithWarning);
    let mut bytes = utf16(&skill_text("utf16-lone-surrogate", "Broken UTF-16.", &[], "# T\n\n"), true);
    bytes.extend_from_slice(&[0x00, 0xD8, 0x41]);
    write(&dir.join("SKILL.md"), &bytes);
    let dir = add("crlf", "CRLF line endings", Expect::Page);
    let text = skill_text("crlf", "Windows line endings.", &[], &structured_body(SCRIPT_PAYLOADS[1]));
    write(&dir.join("SKILL.md"), text.replace('\n', "\r\n").as_bytes());
    let dir = add("lone-cr", "CR-only line endings", Expect::LeftOut { lines: Some((1, 1)) });
    let text = skill_text("lone-cr", "Old Mac line endings.", &[], "# T\n\ntext\n");
    write(&dir.join("SKILL.md"), text.replace('\n', "\r").as_bytes());
    let dir = add("control-characters", "NUL, bidi and control characters in names", Expect::Page);
    write_raw_skill(
        &dir,
        &[
            ("name", json("ctl\u{0}\u{1}\u{1b}[31m\u{202e}gpj.exe\u{2028}\u{2029}")),
            ("description", json("desc \u{0}\u{7f}\u{feff}\u{200b} </script>")),
        ],
        "# \u{202e}T\u{0}\n\ntext \u{1}\u{8}\n",
    );

    // Named pipes: reading one blocks until something writes to it.
    let dir = add("pipe-beside-skill-md", "a named pipe beside SKILL.md", Expect::Page);
    write_skill(&dir, "pipe-beside-skill-md", "A pipe beside it.", &[], "# Pipe\n\nSee notes.md.\n");
    mkfifo(&dir.join("notes.md"));
    let dir = add("pipe-skill-md", "SKILL.md is a named pipe", Expect::LeftOut { lines: None });
    mkfifo(&dir.join("SKILL.md"));

    // YAML that makes parsers expand or recurse without end.
    let dir = add("yaml-billion-laughs", "a YAML alias bomb", Expect::LeftOut { lines: Some((2, 12)) });
    let mut yaml = String::from(
        "name: lol\ndescription: bomb\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let mut prev = 'a';
    for c in 'b'..='i' {
        yaml.push_str(&format!(
            "{c}: &{c} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
        ));
        prev = c;
    }
    write(&dir.join("SKILL.md"), format!("---\n{yaml}---\n# Bomb\n").as_bytes());
    let dir = add(
        "yaml-doubling-aliases",
        "a YAML alias bomb under an alias-count limit",
        Expect::LeftOut { lines: Some((2, 34)) },
    );
    let mut yaml = String::from("name: doubling\ndescription: bomb\na0: &a0 [x, x]\n");
    for i in 1..31 {
        yaml.push_str(&format!("a{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1));
    }
    write(&dir.join("SKILL.md"), format!("---\n{yaml}---\n# Bomb\n").as_bytes());
    let dir = add("yaml-flow-nesting", "10,000 nested YAML flow sequences", Expect::LeftOut { lines: Some((2, 4)) });
    let yaml = format!("name: deep\ndescription: deep\nx: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    write(&dir.join("SKILL.md"), format!("---\n{yaml}---\n# Deep\n").as_bytes());
    // Block nesting needs one more space a level, so the file grows with the square of the depth.
    let dir = add("yaml-block-nesting", "300 nested YAML block maps", Expect::LeftOut { lines: Some((2, 303)) });
    let mut yaml = String::from("name: deep\ndescription: deep\n");
    for depth in 0..300 {
        yaml.push_str(&format!("{}k{depth}:\n", " ".repeat(depth)));
    }
    write(&dir.join("SKILL.md"), format!("---\n{yaml}---\n# Deep\n").as_bytes());
    let dir = add(
        "yaml-compact-nesting",
        "10,000 nested YAML block sequences on one line",
        Expect::LeftOut { lines: Some((2, 5)) },
    );
    let yaml = format!("name: deep\ndescription: deep\nx:\n{}x\n", "- ".repeat(10_000));
    write(&dir.join("SKILL.md"), format!("---\n{yaml}---\n# Deep\n").as_bytes());
    let dir = add("yaml-oversize", "a 1 MB frontmatter", Expect::LeftOut { lines: Some((2, 2)) });
    let yaml = format!("name: big\ndescription: \"{}\"\n", "a".repeat(1024 * 1024));
    write(&dir.join("SKILL.md"), format!("---\n{yaml}---\n# Big\n").as_bytes());

    // Markdown that nests without end.
    let dir = add("nested-lists", "10,000 nested Markdown lists", Expect::Page);
    let body = format!("# Lists\n\n{}x\n{}y\n", "- ".repeat(10_000), "1. ".repeat(10_000));
    write_skill(&dir, "nested-lists", "Deep lists.", &[], &body);
    // Indented nesting grows with the square of the depth: 1,000 levels is 1 MB.
    let dir = add("nested-lists-indented", "1,000 nested Markdown lists, one a line", Expect::Page);
    let body: String = (0..1_000).map(|depth| format!("{}- item {depth}\n", "  ".repeat(depth))).collect();
    write_skill(&dir, "nested-lists-indented", "Deep lists.", &[], &format!("# Lists\n\n{body}"));
    let dir = add("nested-quotes", "10,000 nested block quotes", Expect::Page);
    write_skill(&dir, "nested-quotes", "Deep quotes.", &[], &format!("# Quotes\n\n{} deep\n", ">".repeat(10_000)));
    let dir = add("nested-brackets", "10,000 nested link brackets and emphasis", Expect::Page);
    let body = format!(
        "# Brackets\n\n{}x{}\n\n{}x{}\n",
        "[".repeat(10_000),
        "](y)".repeat(10_000),
        "*_".repeat(5_000),
        "_*".repeat(5_000)
    );
    write_skill(&dir, "nested-brackets", "Deep brackets.", &[], &body);

    // Names: case-only differences, path traversal, characters and names Windows refuses.
    for (folder, attack) in [
        ("Case-Only", "folder names that differ only in case"),
        ("case-only", "folder names that differ only in case"),
        ("CASE-ONLY", "folder names that differ only in case"),
        ("a<b>c", "a folder name with < and >"),
        ("col:on", "a folder name with a colon"),
        ("quo\"te", "a folder name with a double quote"),
        ("pi|pe", "a folder name with a pipe"),
        ("que?ry", "a folder name with a question mark"),
        ("st*ar", "a folder name with an asterisk"),
        ("back\\slash", "a folder name with a backslash"),
        ("trailing.", "a folder name with a trailing dot"),
        ("trailing ", "a folder name with a trailing space"),
        ("...", "a folder name of dots"),
        ("..%2f..%2fetc", "an encoded path traversal folder name"),
        ("CON", "a reserved device name"),
        ("nul", "a reserved device name"),
        ("Com1", "a reserved device name"),
        ("lpt9", "a reserved device name"),
        ("aux.backup", "a reserved device name with an extension"),
        ("tab\tname", "a folder name with a tab"),
    ] {
        let dir = add(folder, attack, Expect::Page);
        write_skill(&dir, folder, "A hostile folder name.", &[], "# Name\n\ntext\n");
    }
    for (folder, name) in [
        ("name-upper", "Shouting-Name"),
        ("name-lower", "shouting-name"),
        ("name-traversal", "../../../etc/passwd"),
        ("name-windows", "CON<>:\"|?*. "),
    ] {
        let dir = add(folder, "a frontmatter name that clashes or is not a file name", Expect::Page);
        // Every one also has the tags CON and con: tag pages named after a device, and two tags
        // that differ only in case, each on enough skills to get a page.
        let tags = serde_json::to_string(&[name, "CON", "con"]).unwrap();
        // Categories that differ only in case, two skills each.
        let category = json(if folder.ends_with('r') { "Hostile-Category" } else { "hostile-category" });
        write_skill(&dir, name, "A hostile name.", &[("tags", tags), ("category", category)], "# Name\n\ntext\n");
    }
    let dir = add("both-skill-files", "SKILL.md and skill.md side by side", Expect::Page);
    write_skill(&dir, "both-skill-files", "Two skill files.", &[], "# Upper\n");
    write(&dir.join("skill.md"), skill_text("lower-skill-file", "The other one.", &[], "# Lower\n").as_bytes());
}

/// A body whose digest sections (title, when to use, requirements, steps, prompts, code) all
/// carry `payload`.
fn structured_body(payload: &str) -> String {
    format!(
        "# {payload}\n\n{payload} intro *{payload}* `{payload}`\n\n## When to use\n\n- {payload}\n- When {payload}\n\n\
         ## Requirements\n\n- {payload}\n\n## Step 1: {payload}\n\nRun `{payload}`.\n\n## Step 2: run\n\n\
         ```bash\necho '{payload}'\n```\n\n## Example prompts\n\n- \"{payload}\"\n\n\
         | {payload} | b |\n|---|---|\n| {payload} | [{payload}](https://example.com/\"{payload}) |\n\n\
         > {payload}\n\n[^1]: {payload}\n"
    )
}

/// A SKILL.md with `name`, `description`, the given extra fields (values already YAML) and body.
fn skill_text(name: &str, description: &str, extra: &[(&str, String)], body: &str) -> String {
    let mut fields = vec![("name", json(name)), ("description", json(description))];
    fields.extend(extra.iter().cloned());
    raw_skill_text(&fields, body)
}

fn raw_skill_text(fields: &[(&str, String)], body: &str) -> String {
    let yaml: String = fields.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
    format!("---\n{yaml}---\n{body}")
}

fn write_skill(dir: &Path, name: &str, description: &str, extra: &[(&str, String)], body: &str) {
    write(&dir.join("SKILL.md"), skill_text(name, description, extra, body).as_bytes());
}

fn write_raw_skill(dir: &Path, fields: &[(&str, String)], body: &str) {
    write(&dir.join("SKILL.md"), raw_skill_text(fields, body).as_bytes());
}

/// A YAML double-quoted scalar (a JSON string is one).
fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    let bom: &[u8] = if little_endian { &[0xFF, 0xFE] } else { &[0xFE, 0xFF] };
    let units = text.encode_utf16().flat_map(|u| if little_endian { u.to_le_bytes() } else { u.to_be_bytes() });
    bom.iter().copied().chain(units).collect()
}

fn mkdir(path: &Path) {
    std::fs::create_dir_all(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn write(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        mkdir(parent);
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap_or_else(|e| panic!("{}: {e}", link.display()));
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}
