//! What the files' rows share: a refused row with its line, and the moment
//! of a trip as the files write it.

use chrono::NaiveDateTime;

/// A row of a file that was not imported: where, which field, why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Refusal {
    pub line: u64,
    pub field: String,
    pub reason: String,
}

/// A moment as the files write it: `AAAA-MM-DD HH:MM[:SS]`, with `T`, or
/// `DD/MM/AAAA HH:MM`; a BP-e's UTC offset is dropped (the local time).
pub(crate) fn moment_of(text: &str) -> Result<NaiveDateTime, String> {
    let text = text.trim();
    let local = if text.len() > 19 && text.as_bytes().get(10) == Some(&b'T') {
        &text[..19]
    } else {
        text
    };
    for format in [
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M",
        "%d/%m/%Y %H:%M",
        "%d/%m/%Y %H:%M:%S",
    ] {
        if let Ok(at) = NaiveDateTime::parse_from_str(local, format) {
            return Ok(at);
        }
    }
    Err(format!(
        "`{text}`: escreva a data e a hora da viagem como 2026-11-03 06:30"
    ))
}
