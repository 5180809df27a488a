//! Licence of a skill: the frontmatter's `license`, else a licence file in the skill folder,
//! else the repository's. Recognised texts become SPDX ids; the id decides whether the catalog
//! may republish the skill's files.

use std::sync::LazyLock;

use regex::Regex;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LicenseOrigin {
    Frontmatter,
    SkillFile,
    Repository,
    None,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct License {
    /// SPDX id when recognised.
    pub spdx: Option<String>,
    /// What the page shows: the SPDX id, "Custom licence" or "Not known".
    pub label: String,
    pub origin: LicenseOrigin,
    /// The licence file the text came from, relative to the repository root.
    pub file: Option<String>,
    /// Copyright holder from the licence text, when it names one.
    pub holder: Option<String>,
    /// Whether the licence lets the catalog republish the files (permissive or copyleft).
    pub redistributable: bool,
}

/// Licences that allow redistribution with attribution: permissive and copyleft.
const REDISTRIBUTABLE: &[&str] = &[
    "MIT",
    "Apache-2.0",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "ISC",
    "Unlicense",
    "0BSD",
    "MPL-2.0",
    "GPL-2.0",
    "GPL-3.0",
    "LGPL-2.1",
    "LGPL-3.0",
    "AGPL-3.0",
    "CC0-1.0",
    "CC-BY-4.0",
    "CC-BY-SA-4.0",
    "CC-BY-3.0",
    "CC-BY-SA-3.0",
    "Zlib",
    "BSL-1.0",
];

/// Recognisable phrases of licence texts, most specific first.
const TEXT_MARKERS: &[(&str, &[&str])] = &[
    ("AGPL-3.0", &["gnu affero general public license", "version 3"]),
    ("LGPL-3.0", &["gnu lesser general public license", "version 3"]),
    ("LGPL-2.1", &["gnu lesser general public license", "version 2.1"]),
    ("GPL-3.0", &["gnu general public license", "version 3"]),
    ("GPL-2.0", &["gnu general public license", "version 2"]),
    ("MPL-2.0", &["mozilla public license", "2.0"]),
    ("Apache-2.0", &["apache license", "version 2.0"]),
    ("BSD-3-Clause", &["redistribution and use in source and binary forms", "neither the name"]),
    ("BSD-2-Clause", &["redistribution and use in source and binary forms"]),
    ("ISC", &["permission to use, copy, modify, and/or distribute this software for any purpose"]),
    ("MIT", &["permission is hereby granted, free of charge"]),
    ("Unlicense", &["this is free and unencumbered software released into the public domain"]),
    ("CC0-1.0", &["cc0 1.0 universal"]),
    ("CC-BY-NC-SA-4.0", &["attribution-noncommercial-sharealike 4.0 international"]),
    ("CC-BY-NC-4.0", &["attribution-noncommercial 4.0 international"]),
    ("CC-BY-ND-4.0", &["attribution-noderivatives 4.0 international"]),
    ("CC-BY-SA-4.0", &["attribution-sharealike 4.0 international"]),
    ("CC-BY-4.0", &["attribution 4.0 international"]),
    ("CC-BY-SA-3.0", &["attribution-sharealike 3.0 unported"]),
    ("CC-BY-3.0", &["attribution 3.0 unported"]),
    ("BSL-1.0", &["boost software license"]),
    ("Zlib", &["this software is provided 'as-is'", "altered source versions must be plainly marked"]),
];

/// Accepts the common spellings of an SPDX id in frontmatter (`mit`, `Apache 2.0`, `BSD-3`...).
pub fn spdx_from_name(name: &str) -> Option<&'static str> {
    let key: String = name.to_lowercase().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '.').collect();
    let key = key.trim_end_matches("license").trim_end_matches("licence");
    let id = match key {
        "mit" | "themit" | "expat" => "MIT",
        "apache2.0" | "apache2" | "apache" | "apachev2" | "apachev2.0" => "Apache-2.0",
        "bsd3clause" | "bsd3" | "newbsd" => "BSD-3-Clause",
        "bsd2clause" | "bsd2" | "simplifiedbsd" => "BSD-2-Clause",
        "0bsd" => "0BSD",
        "isc" => "ISC",
        "unlicense" | "theunlicense" => "Unlicense",
        "mpl2.0" | "mpl2" => "MPL-2.0",
        "gpl3.0" | "gpl3" | "gplv3" | "gpl3.0only" | "gpl3.0orlater" => "GPL-3.0",
        "gpl2.0" | "gpl2" | "gplv2" | "gpl2.0only" | "gpl2.0orlater" => "GPL-2.0",
        "lgpl3.0" | "lgpl3" | "lgplv3" => "LGPL-3.0",
        "lgpl2.1" | "lgplv2.1" => "LGPL-2.1",
        "agpl3.0" | "agpl3" | "agplv3" | "agpl3.0only" => "AGPL-3.0",
        "cc01.0" | "cc0" => "CC0-1.0",
        "ccby4.0" | "ccby" => "CC-BY-4.0",
        "ccbysa4.0" | "ccbysa" => "CC-BY-SA-4.0",
        "ccby3.0" => "CC-BY-3.0",
        "ccbysa3.0" => "CC-BY-SA-3.0",
        "ccbync4.0" | "ccbync" => "CC-BY-NC-4.0",
        "ccbyncsa4.0" | "ccbyncsa" => "CC-BY-NC-SA-4.0",
        "ccbynd4.0" | "ccbynd" => "CC-BY-ND-4.0",
        "bsl1.0" | "boost" => "BSL-1.0",
        "zlib" => "Zlib",
        _ => return None,
    };
    Some(id)
}

/// Recognises a licence text.
pub fn spdx_from_text(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    let normalised: String = lower.split_whitespace().collect::<Vec<_>>().join(" ");
    TEXT_MARKERS.iter().find(|(_, markers)| markers.iter().all(|m| normalised.contains(m))).map(|(id, _)| *id)
}

/// The copyright holder named on a `Copyright (c) 2026 Name` line.
pub fn copyright_holder(text: &str) -> Option<String> {
    static HOLDER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?im)^\s*copyright\s*(?:\(c\)|©)?\s*(?:\d{4}(?:\s*[-–,]\s*(?:\d{4}|present))*,?)?\s*(?:by\s+)?(.+?)\s*$",
        )
        .unwrap()
    });
    let caps = HOLDER.captures(text)?;
    let holder = caps[1].trim_matches(|c: char| c.is_whitespace() || c == '.' || c == ',').to_string();
    let generic = holder.is_empty()
        || holder.to_lowercase().starts_with("notice")
        || holder.starts_with('[')
        || holder.starts_with('{');
    (!generic).then_some(holder)
}

/// A licence text found in a file: the file's path and its contents.
pub struct LicenseText<'a> {
    pub file: String,
    pub text: &'a str,
}

/// Decides a skill's licence.
pub fn license(
    frontmatter_license: Option<&str>,
    skill_file: Option<LicenseText>,
    repo_file: Option<LicenseText>,
) -> License {
    let from_text = |origin: LicenseOrigin, found: &LicenseText| {
        let spdx = spdx_from_text(found.text).map(str::to_string);
        make(spdx, origin, Some(found.file.clone()), copyright_holder(found.text))
    };
    if let Some(name) = frontmatter_license {
        if let Some(id) = spdx_from_name(name) {
            let file = skill_file.as_ref().or(repo_file.as_ref());
            return make(
                Some(id.to_string()),
                LicenseOrigin::Frontmatter,
                file.map(|f| f.file.clone()),
                file.and_then(|f| copyright_holder(f.text)),
            );
        }
        // "Complete terms in LICENSE.txt" and the like point at a file: read that instead.
        if let Some(found) = skill_file.as_ref() {
            return from_text(LicenseOrigin::SkillFile, found);
        }
        return make(None, LicenseOrigin::Frontmatter, None, None);
    }
    if let Some(found) = skill_file.as_ref() {
        return from_text(LicenseOrigin::SkillFile, found);
    }
    if let Some(found) = repo_file.as_ref() {
        return from_text(LicenseOrigin::Repository, found);
    }
    make(None, LicenseOrigin::None, None, None)
}

fn make(spdx: Option<String>, origin: LicenseOrigin, file: Option<String>, holder: Option<String>) -> License {
    let label = match (&spdx, &origin) {
        (Some(id), _) => id.clone(),
        (None, LicenseOrigin::None) => "Not known".to_string(),
        (None, _) => "Custom licence".to_string(),
    };
    let redistributable = spdx.as_deref().is_some_and(|id| REDISTRIBUTABLE.contains(&id));
    License { spdx, label, origin, file, holder, redistributable }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_texts() {
        assert_eq!(spdx_from_text("MIT License\n\nPermission is hereby granted, free of charge, to any"), Some("MIT"));
        assert_eq!(spdx_from_text("Apache License\n Version 2.0, January 2004"), Some("Apache-2.0"));
        assert_eq!(spdx_from_text("GNU GENERAL PUBLIC LICENSE\nVersion 3, 29 June 2007"), Some("GPL-3.0"));
        assert_eq!(spdx_from_text("GNU LESSER GENERAL PUBLIC LICENSE Version 3"), Some("LGPL-3.0"));
        assert_eq!(spdx_from_text("All rights reserved. Do not copy."), None);
        assert_eq!(spdx_from_text("Creative Commons Attribution 4.0 International"), Some("CC-BY-4.0"));
        assert_eq!(spdx_from_text("Attribution-NonCommercial 4.0 International"), Some("CC-BY-NC-4.0"));
        assert_eq!(spdx_from_text("Attribution-ShareAlike 3.0 Unported"), Some("CC-BY-SA-3.0"));
    }

    #[test]
    fn creative_commons_variants_decide_republishing() {
        assert_eq!(spdx_from_name("CC-BY-SA-4.0"), Some("CC-BY-SA-4.0"));
        assert_eq!(spdx_from_name("cc by nc 4.0"), Some("CC-BY-NC-4.0"));
        let by = license(Some("CC-BY-4.0"), None, None);
        assert!(by.redistributable);
        let nc = license(Some("CC-BY-NC-4.0"), None, None);
        assert_eq!((nc.label.as_str(), nc.redistributable), ("CC-BY-NC-4.0", false));
        let nd = license(Some("CC-BY-ND-4.0"), None, None);
        assert!(!nd.redistributable);
    }

    #[test]
    fn frontmatter_names_and_fallbacks() {
        assert_eq!(spdx_from_name("Apache 2.0"), Some("Apache-2.0"));
        assert_eq!(spdx_from_name("mit"), Some("MIT"));
        let repo = LicenseText {
            file: "LICENSE".into(),
            text: "MIT License\nCopyright (c) 2026 ✨Lab✨\nPermission is hereby granted, free of charge",
        };
        let l = license(None, None, Some(repo));
        assert_eq!((l.label.as_str(), l.origin, l.redistributable), ("MIT", LicenseOrigin::Repository, true));
        assert_eq!(l.holder.as_deref(), Some("✨Lab✨"));
        let skill = LicenseText { file: "skills/x/LICENSE.txt".into(), text: "Proprietary. All rights reserved." };
        let l = license(Some("Complete terms in LICENSE.txt"), Some(skill), None);
        assert_eq!((l.label.as_str(), l.redistributable), ("Custom licence", false));
        let none = license(None, None, None);
        assert_eq!((none.label.as_str(), none.redistributable), ("Not known", false));
    }
}
