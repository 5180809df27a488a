//! How the process takes memory from the system: set once, first thing, by the binary and by
//! the scan bench, so that the bench measures what a build runs.

/// `mi_option_purge_delay` in mimalloc's option enum (`mimalloc.h`; the sys crate names only
/// some of the options).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps freed memory in the process (where mimalloc is the global allocator) and takes
/// memory in 4 KiB pages.
pub fn configure() {
    // Freed memory stays with the process instead of going back to the system a second later: a
    // build frees and allocates hundreds of megabytes between stages, and `serve` between
    // builds, and memory the system hands back must be zeroed first. On a 2-core VM that
    // zeroing was 12-30% of a rebuild's time.
    // SAFETY: sets one of mimalloc's options; no allocation depends on its value.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    // Memory in 4 KiB pages rather than 2 MiB ones: the first touch of a huge page zeroes all
    // of it, and on a small VM that zeroing, at times 40% of a 60,000-skill rebuild's samples,
    // made the same one-skill rebuild take 1.1 s or 1.9 s. Twelve alternating runs: 1.19-1.24 s
    // without, 1.14-1.68 s with; clean builds the same (16.5-16.8 s without, 16.4-17.1 s with).
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
}
