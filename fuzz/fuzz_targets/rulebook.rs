//! The rulebook loader on any text: a rulebook or errors, never a panic.
//!
//! The input is a service file, optionally followed by a NUL and the text of
//! the catalog it names, and by another NUL and a jurisdiction file (without
//! one, Canguçu's). The law's text a service names is Canguçu's, so the
//! citations of the other laws' seeds are checked against it too (errors,
//! not panics). The seeds are the real rulebooks (see `.ci/run`).

#![no_main]

use libfuzzer_sys::fuzz_target;

const JURISDICTION: &str = include_str!("../../rulebooks/cangucu/jurisdiction.toml");
const LAW: &str = include_str!("../../rulebooks/cangucu/lei.txt");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.splitn(3, '\0');
    let service = parts.next().unwrap_or_default();
    let catalog = parts.next();
    let jurisdiction = parts.next().unwrap_or(JURISDICTION);
    let _ = outorga_rulebook::load_text("cangucu", jurisdiction, service, catalog, Some(LAW));
});
