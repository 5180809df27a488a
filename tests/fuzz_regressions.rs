//! Inputs the fuzz targets (`fuzz/`, `scripts/fuzz.sh`) found to crash, hang or exhaust memory,
//! each kept as a test of the reader it broke: the fix must hold.

use std::time::{Duration, Instant};

use catalog::scan::flows::scan_code;
use catalog::scan::script::{Limit, engine::Lang};

/// `javascript` target, a timeout: as TypeScript, a run of `<` never closed made oxc try type
/// arguments and take them back at every one, doubling its time and memory every few (past
/// 60 s and 5 GB). The file is now left to the line readers, with the limit noted.
#[test]
fn typescript_with_a_run_of_open_angles_is_not_parsed() {
    let code = "o(oooaw<ooaw<w<c<c<coaw<ooaw<w<c<c<c<(wG9=\nwoira<on.stroaw<w<cw<c<c<c<(wG9=deno.runrsn.toaw<w<c<c\
                <caw<ooaw<w<c<c<c<(wG9=\nwoira<on.stroaw<w<cw<c<c<c<(wG9<(wG9=\nwoira<on.stroaw<w<cw<c<c<c<(wG9=deno.\
                runrsn.toaw<w<c<c<caw<ooaw<w<c<c<c<(wG9=\nwoira<on.stroaw<w<cw<c<c<c<(wG9=\nwoira<orsn.to<(wG8=\n\n\n";
    for path in ["scripts/app.tsx", "scripts/app.ts", "SKILL.md"] {
        let started = Instant::now();
        let (_, limits) = scan_code(path, code, Lang::Js);
        assert!(started.elapsed() < Duration::from_secs(5), "{path}: {:?}", started.elapsed());
        assert_eq!(limits, [Limit::Angles], "{path}");
    }
}
