//! Fault isolation at the per-skill boundary: a panic while one skill is read, parsed, scanned,
//! related or rendered, in our code or a dependency's, is caught where that skill's work began
//! and becomes a [`Fault`] naming the stage, which the caller turns into one diagnostic naming
//! the skill and the file. The rest of the catalog goes on.
//!
//! This needs unwinding, which every profile keeps (Cargo's default `panic = "unwind"`; a test
//! checks that the release profile does not set `abort`). A stack overflow is not a panic and
//! ends the process whatever is caught: the readers bound their nesting before any recursive
//! parser sees the input instead (the scanner's `script::nesting`).

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};

/// The pipeline stage a fault happened in, as diagnostics name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    Parse,
    Analyze,
    Scan,
    Relate,
    Render,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Parse => "parse",
            Stage::Analyze => "analyze",
            Stage::Scan => "scan",
            Stage::Relate => "relate",
            Stage::Render => "render",
        }
    }
}

/// A panic caught at a skill's boundary: the stage, and the panic's message with the place in
/// the code it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub stage: Stage,
    pub message: String,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "internal error in the {} stage: {}", self.stage.as_str(), self.message)
    }
}

thread_local! {
    /// How many [`catch`] calls this thread is inside: a panic here is caught, so the hook
    /// keeps its message instead of printing it.
    static INSIDE: Cell<u32> = const { Cell::new(0) };
    /// The message of the last panic caught on this thread, with its place.
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `work`; a panic in it becomes a [`Fault`] of `stage` instead of unwinding further.
///
/// Whatever `work` borrowed mutably may be left half-updated by a panic: callers drop it, and
/// use nothing `work` touched but its result.
pub fn catch<T>(stage: Stage, work: impl FnOnce() -> T) -> Result<T, Fault> {
    install_hook();
    INSIDE.with(|inside| inside.set(inside.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    INSIDE.with(|inside| inside.set(inside.get() - 1));
    result.map_err(|payload| {
        let message = LAST.with(|last| last.borrow_mut().take()).unwrap_or_else(|| payload_text(payload.as_ref()));
        Fault { stage, message }
    })
}

/// The process's panic hook, set once: panics inside [`catch`] are recorded for it, every
/// other panic goes to the hook that was there before (the default one prints it).
fn install_hook() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let caught = INSIDE.try_with(|inside| inside.get() > 0).unwrap_or(false);
            if !caught {
                return previous(info);
            }
            let place = info.location().map(|l| format!(" (at {}:{})", l.file(), l.line())).unwrap_or_default();
            let message = format!("{}{place}", payload_text(info.payload()));
            let _ = LAST.try_with(|last| *last.borrow_mut() = Some(message));
        }));
    });
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Whether [`inject`] looks for markers: set only by the fault-isolation tests ([`arm`]).
static ARMED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`inject`] panic on its markers from now on, in this process. Only the
/// fault-isolation tests call it: they mark one skill's file and see the rest of the catalog
/// build. The crates are tested apart, so a `cfg(test)` here would not reach the site's tests.
pub fn arm() {
    ARMED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Panics when armed ([`arm`]) and `text` holds the marker of `stage`; otherwise one load of
/// a flag. Called where each stage's work on one skill begins.
#[inline]
pub fn inject(stage: Stage, text: &str) {
    if ARMED.load(std::sync::atomic::Ordering::Relaxed) {
        let marker = format!("catalog-test-fault:{}", stage.as_str());
        if text.contains(&marker) {
            panic!("injected fault ({marker})");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_fault_with_its_message_and_place() {
        let fault = catch(Stage::Scan, || -> usize {
            let words: Vec<usize> = Vec::new();
            let at = words.len() + 1;
            words[at]
        })
        .unwrap_err();
        assert_eq!(fault.stage, Stage::Scan);
        assert!(fault.message.contains("index out of bounds"), "{}", fault.message);
        assert!(fault.message.contains("fault.rs:"), "{}", fault.message);
        assert_eq!(catch(Stage::Parse, || 7), Ok(7));
    }

    #[test]
    fn nested_catches_each_keep_their_own_fault() {
        let outer = catch(Stage::Render, || {
            let inner = catch(Stage::Scan, || panic!("inner"));
            assert_eq!(inner.unwrap_err().message.split(" (at").next(), Some("inner"));
            panic!("outer {}", 2);
        });
        let fault = outer.unwrap_err();
        assert_eq!(fault.stage, Stage::Render);
        assert!(fault.message.starts_with("outer 2"), "{}", fault.message);
    }

    /// Release builds must unwind, or no fault is ever caught and one skill stops the catalog.
    #[test]
    fn no_profile_aborts_on_panic() {
        let manifest = include_str!("../../../Cargo.toml");
        let toml: toml::Value = toml::from_str(manifest).expect("Cargo.toml parses");
        for (name, profile) in toml.get("profile").and_then(|p| p.as_table()).into_iter().flatten() {
            assert_ne!(profile.get("panic").and_then(|p| p.as_str()), Some("abort"), "profile {name} aborts");
        }
    }
}
