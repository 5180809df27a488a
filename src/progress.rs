//! How far a long stage has come. The library only counts; the binary decides how to show it
//! (a bar on a terminal, plain lines in a log, nothing under `-q`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading, parsing, analyzing and scanning skills.
    Read,
    /// Rendering and writing skill pages.
    Render,
}

impl Stage {
    pub fn verb(self) -> &'static str {
        match self {
            Stage::Read => "reading",
            Stage::Render => "rendering",
        }
    }
}

type Report = dyn Fn(Stage, usize, usize) + Send + Sync;

/// A callback told (stage, done, total); the default reports nothing.
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<Report>>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Progress(reporting)" } else { "Progress(silent)" })
    }
}

impl Progress {
    pub fn new(report: impl Fn(Stage, usize, usize) + Send + Sync + 'static) -> Progress {
        Progress(Some(Arc::new(report)))
    }

    /// A counter for `total` items of `stage`, safe to tick from many threads.
    pub fn counter(&self, stage: Stage, total: usize) -> Counter<'_> {
        if let Some(report) = &self.0 {
            report(stage, 0, total);
        }
        Counter { progress: self, stage, total, done: AtomicUsize::new(0) }
    }
}

pub struct Counter<'a> {
    progress: &'a Progress,
    stage: Stage,
    total: usize,
    done: AtomicUsize,
}

impl Counter<'_> {
    pub fn tick(&self) {
        let Some(report) = &self.progress.0 else { return };
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        // About a hundred reports per stage, whatever its size.
        let step = (self.total / 100).max(1);
        if done.is_multiple_of(step) || done == self.total {
            report(self.stage, done, self.total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn reports_start_steps_and_end() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let progress = Progress::new(move |stage, done, total| log.lock().unwrap().push((stage, done, total)));
        let counter = progress.counter(Stage::Render, 250);
        for _ in 0..250 {
            counter.tick();
        }
        let seen = seen.lock().unwrap();
        assert_eq!(seen.first(), Some(&(Stage::Render, 0, 250)));
        assert_eq!(seen.last(), Some(&(Stage::Render, 250, 250)));
        assert!(seen.len() > 10 && seen.len() < 200, "{} reports", seen.len());
        Progress::default().counter(Stage::Read, 5).tick();
    }
}
