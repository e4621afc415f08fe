//! What several forms share: a choice of a select, the services of a
//! jurisdiction as one, a value for a query string.

use crate::place::Place;
use axum::response::Response;
use outorga_store::StoreError;
use outorga_web::page::{Lista, Pagina};

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

/// A page of a list as a page shows it: its rows, the cursor of the next
/// page, and why the page could not be read when the cause is the user's
/// (a cursor altered, a filter refused).
pub(crate) struct Listed<T> {
    pub rows: Vec<T>,
    pub next: Option<String>,
    pub error: Option<String>,
}

/// Reads the page after `cursor` (`per_page` rows) with `read`, each row
/// shown as `shown` makes it; an outage is logged and answered with the
/// failure page.
pub(crate) async fn listed<S, T>(
    cursor: Option<String>,
    per_page: u32,
    read: impl AsyncFnOnce(outorga_store::Window<'_>) -> Result<outorga_store::Page<S>, StoreError>,
    shown: impl FnMut(S) -> T,
) -> Result<Listed<T>, Response> {
    let paging = Pagina {
        limite: Some(per_page),
        cursor,
    };
    let Ok(window) = paging.asked() else {
        return Ok(Listed {
            rows: Vec::new(),
            next: None,
            error: Some("O endereço da página foi alterado: volte à primeira página.".into()),
        });
    };
    match read(window.window()).await {
        Ok(page) => {
            let list = Lista::with(page, shown);
            Ok(Listed {
                rows: list.itens,
                next: list.proximo,
                error: None,
            })
        }
        Err(error) => match error.bad_input() {
            Some((field, reason)) => Ok(Listed {
                rows: Vec::new(),
                next: None,
                error: Some(format!("{field}: {reason}")),
            }),
            None => {
                tracing::error!(%error, "a list could not be read");
                Err(crate::pages::failure())
            }
        },
    }
}

/// The status of a page that shows a list: 422 when the list was refused.
pub(crate) fn list_status<T>(listed: &Listed<T>) -> axum::http::StatusCode {
    if listed.error.is_some() {
        axum::http::StatusCode::UNPROCESSABLE_ENTITY
    } else {
        axum::http::StatusCode::OK
    }
}
