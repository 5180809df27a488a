//! A file's metadata as the walk reads it: kind, size, modification and status-change times and
//! inode, looked up relative to an open source folder where the system allows it.

use std::path::{Path, PathBuf};

/// A file's modification time in nanoseconds since 1970; 0 when the system does not say.
pub fn modified_nanos(meta: &std::fs::Metadata) -> u64 {
    meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as u64)
}

/// What a walk reads of a name's metadata, without following a link.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct FileStat {
    pub(super) kind: FileKind,
    pub(super) size: u64,
    /// As [`modified_nanos`] gives it.
    pub(super) modified: u64,
    /// As [`status`] gives them.
    pub(super) inode: u64,
    pub(super) changed: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum FileKind {
    File,
    Dir,
    Symlink,
    Other,
}

impl FileStat {
    pub(super) fn of(meta: &std::fs::Metadata) -> FileStat {
        let file_type = meta.file_type();
        let kind = match () {
            _ if file_type.is_symlink() => FileKind::Symlink,
            _ if file_type.is_dir() => FileKind::Dir,
            _ if file_type.is_file() => FileKind::File,
            _ => FileKind::Other,
        };
        let (inode, changed) = status(meta);
        FileStat { kind, size: meta.len(), modified: modified_nanos(meta), inode, changed }
    }
}

/// A source root that names below it are looked up from. On Unix an open handle to the
/// folder, so that each of the walk's metadata reads (170,000 at 60,000 skills) resolves a
/// path of a few names instead of one from `/`: the kernel's path lookup was a third of the
/// walk's time.
pub(super) enum StatBase {
    #[cfg(unix)]
    Folder(std::os::fd::OwnedFd),
    Path(PathBuf),
}

impl StatBase {
    pub(super) fn open(root: &Path) -> StatBase {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            if let Ok(fd) = rustix::fs::open(root, flags, Mode::empty()) {
                return StatBase::Folder(fd);
            }
        }
        StatBase::Path(root.to_path_buf())
    }

    /// The metadata of `rel` (`/`-separated, below the root), not following a link.
    pub(super) fn stat(&self, rel: &str) -> std::io::Result<FileStat> {
        match self {
            #[cfg(unix)]
            StatBase::Folder(fd) => {
                let stat = rustix::fs::statat(fd, rel, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)?;
                let kind = match rustix::fs::FileType::from_raw_mode(stat.st_mode) {
                    rustix::fs::FileType::Symlink => FileKind::Symlink,
                    rustix::fs::FileType::Directory => FileKind::Dir,
                    rustix::fs::FileType::RegularFile => FileKind::File,
                    _ => FileKind::Other,
                };
                // The same numbers as `modified_nanos` and `status` make of std's metadata.
                let mtime = stat.st_mtime as i64;
                Ok(FileStat {
                    kind,
                    size: stat.st_size as u64,
                    modified: if mtime < 0 { 0 } else { since_epoch(mtime, stat.st_mtime_nsec as i64) },
                    inode: stat.st_ino as u64,
                    changed: since_epoch(stat.st_ctime as i64, stat.st_ctime_nsec as i64),
                })
            }
            StatBase::Path(root) => std::fs::symlink_metadata(root.join(rel)).map(|meta| FileStat::of(&meta)),
        }
    }
}

/// A time as seconds and nanoseconds since 1970, in nanoseconds; times before 1970 count from 1970.
#[cfg(unix)]
fn since_epoch(secs: i64, nanos: i64) -> u64 {
    (secs.max(0) as u64).saturating_mul(1_000_000_000).saturating_add(nanos as u64)
}

/// The inode and the status-change time in nanoseconds (see [`super::SkillFile::changed`]).
pub fn status(meta: &std::fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (meta.ino(), since_epoch(meta.ctime(), meta.ctime_nsec()))
    }
    #[cfg(not(unix))]
    {
        (0, modified_nanos(meta))
    }
}
