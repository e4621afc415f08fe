//! What several forms share: a choice of a select, the services of a
//! jurisdiction as one, a value for a query string.

use crate::place::Place;

/// An option of a select (or a radio button).
#[derive(Debug)]
pub(crate) struct Choice {
    pub value: String,
    pub label: String,
    pub chosen: bool,
}

/// The services of the jurisdiction, `any` (its label) first when the form
/// may leave the service open.
pub(crate) fn service_choices(place: &Place<'_>, chosen: &str, any: Option<&str>) -> Vec<Choice> {
    any.map(|label| Choice {
        value: String::new(),
        label: label.to_string(),
        chosen: chosen.is_empty(),
    })
    .into_iter()
    .chain(place.services().into_iter().map(|s| Choice {
        value: s.name().to_string(),
        label: s.portuguese().to_string(),
        chosen: s.name() == chosen,
    }))
    .collect()
}

/// A value for a query string: letters, digits and `-_.` as they are, the
/// rest percent-encoded.
pub(crate) fn query_text(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
