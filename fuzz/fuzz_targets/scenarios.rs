//! The scenario runner on any text: the file's cases pass or fail (bad
//! input is a failed case with its line), never a panic. Each case that
//! parses is run against the real rulebooks, so the engine is fuzzed too.
//! The seeds are the real scenario files (see `.ci/run`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use outorga_rulebook::Library;
use std::path::Path;
use std::sync::LazyLock;

static LIBRARY: LazyLock<Library> = LazyLock::new(|| {
    let rulebooks = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulebooks");
    outorga_rulebook::load(&rulebooks).expect("the rulebooks load")
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut report = outorga_scenarios::Report::default();
    outorga_scenarios::run_text(&LIBRARY, "fuzz.yaml", text, true, &mut report);
});
