//! The time one skill's check may take ([`super::SCAN_TIME_BUDGET`]), kept for the thread that
//! checks it: the readers look at it between files, and tree-sitter's parses at their progress
//! callback, the one place where a parse could run long.

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// The deadline of the check running on this thread, set until the guard is dropped.
pub struct Deadline {
    before: Option<Instant>,
}

impl Deadline {
    /// Starts a check that may take `budget` (a check inside another keeps the outer one's
    /// deadline when that is sooner).
    pub fn start(budget: Duration) -> Deadline {
        let before = DEADLINE.with(Cell::get);
        let mine = Instant::now() + budget;
        DEADLINE.with(|d| d.set(Some(before.map_or(mine, |b| b.min(mine)))));
        Deadline { before }
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(self.before));
    }
}

/// Whether the running check is past its deadline (never, outside a check).
pub fn passed() -> bool {
    DEADLINE.with(Cell::get).is_some_and(|deadline| Instant::now() >= deadline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_holds_while_its_guard_lives() {
        assert!(!passed());
        {
            let _outer = Deadline::start(Duration::ZERO);
            assert!(passed());
            {
                // An inner check cannot outlast the outer one.
                let _inner = Deadline::start(Duration::from_secs(60));
                assert!(passed());
            }
            assert!(passed());
        }
        assert!(!passed());
        let _long = Deadline::start(Duration::from_secs(60));
        assert!(!passed());
    }
}
