//! A skill folder as a `.tar.gz` that is the same bytes on every build of the same files: entries
//! sorted by path, every time 0, owner 0:0 with no names, mode 0644 (0755 for a file its folder
//! holds as executable, so that a script still runs once unpacked), no links, and a gzip header
//! without time or system. Paths are checked to be plain relative ones (no `..`, no absolute
//! path, printable ASCII as the discovery RFC asks of paths), so unpacking it cannot write
//! outside the folder it is unpacked into.

/// One file of the folder: its path relative to the skill folder, `/`-separated, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveFile {
    pub path: String,
    pub bytes: Vec<u8>,
    /// Executable in its folder: packed as 0755 rather than 0644.
    pub executable: bool,
}

/// Whether `path` may go into an archive: relative, `/`-separated, no empty, `.` or `..`
/// segment, printable ASCII without `\`, `?`, `#`, `[` or `]`.
pub fn is_safe_path(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && path.split('/').all(|segment| !segment.is_empty() && segment != "." && segment != "..")
        && path.bytes().all(|b| (0x20..0x7f).contains(&b) && !b"\\?#[]".contains(&b))
}

/// The `.tar.gz` of `files` (sorted here by path). A file whose path is not safe is an error:
/// the caller leaves such a skill out rather than publish part of it.
pub fn tar_gz(mut files: Vec<ArchiveFile>) -> std::io::Result<Vec<u8>> {
    files.sort_by(|a, b| a.path.cmp(&b.path));
    if let Some(bad) = files.iter().find(|f| !is_safe_path(&f.path)) {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("unsafe path {:?}", bad.path)));
    }
    let gzip = flate2::GzBuilder::new().mtime(0).write(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gzip);
    tar.mode(tar::HeaderMode::Deterministic);
    for file in &files {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(file.bytes.len() as u64);
        header.set_mode(if file.executable { 0o755 } else { 0o644 });
        header.set_uid(0);
        header.set_gid(0);
        header.set_mtime(0);
        tar.append_data(&mut header, &file.path, file.bytes.as_slice())?;
    }
    tar.into_inner()?.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, text: &str) -> ArchiveFile {
        ArchiveFile { path: path.into(), bytes: text.as_bytes().to_vec(), executable: false }
    }

    #[test]
    fn an_executable_file_keeps_its_bit_and_nothing_else_does() {
        let script = ArchiveFile { executable: true, ..file("scripts/run.sh", "echo\n") };
        let bytes = tar_gz(vec![file("SKILL.md", "# a\n"), script.clone()]).unwrap();
        assert_eq!(bytes, tar_gz(vec![script, file("SKILL.md", "# a\n")]).unwrap());
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()));
        let modes: Vec<(String, u32)> = archive
            .entries()
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.path().unwrap().to_string_lossy().into_owned(), e.header().mode().unwrap())
            })
            .collect();
        assert_eq!(modes, vec![("SKILL.md".to_string(), 0o644), ("scripts/run.sh".to_string(), 0o755)]);
    }

    #[test]
    fn the_same_files_in_any_order_make_the_same_bytes() {
        let long = format!("references/{}/deep.md", "d".repeat(120));
        let one = tar_gz(vec![file("SKILL.md", "# a\n"), file("scripts/run.sh", "echo\n"), file(&long, "x")]).unwrap();
        let two = tar_gz(vec![file(&long, "x"), file("scripts/run.sh", "echo\n"), file("SKILL.md", "# a\n")]).unwrap();
        assert_eq!(one, two);
        // Unpacked: the files, in path order, with nothing but their paths, sizes and mode 0644.
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(one.as_slice()));
        let mut seen = Vec::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            let header = entry.header().clone();
            assert_eq!((header.mode().unwrap(), header.mtime().unwrap(), header.uid().unwrap()), (0o644, 0, 0));
            let mut text = String::new();
            std::io::Read::read_to_string(&mut entry, &mut text).unwrap();
            seen.push((entry.path().unwrap().to_string_lossy().into_owned(), text));
        }
        let want = [("SKILL.md", "# a\n"), (long.as_str(), "x"), ("scripts/run.sh", "echo\n")];
        assert_eq!(seen, want.map(|(p, t)| (p.to_string(), t.to_string())));
    }

    #[test]
    fn paths_that_could_leave_the_folder_are_refused() {
        for bad in ["../x", "a/../../x", "/etc/passwd", "a//b", "./a", "a\\b", "a?b", "", "é"] {
            assert!(!is_safe_path(bad), "{bad:?}");
            assert!(tar_gz(vec![file(bad, "x")]).is_err(), "{bad:?}");
        }
        assert!(is_safe_path("scripts/run it.sh"));
    }
}
