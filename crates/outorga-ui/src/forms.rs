//! What several forms share: a choice of a select, the services of a
//! jurisdiction as one, a value for a query string, a page of a list, a
//! file sent with its form.

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

/// A form sent as `multipart/form-data` with one file, `arquivo`, or
/// several, `anexos` (a petition's attachments), or files under fields of
/// their own (a registration's documents, each field a kind).
#[derive(Debug, Default)]
pub(crate) struct Upload {
    /// The form's other fields, as text.
    pub fields: Vec<(String, String)>,
    pub file_name: String,
    pub bytes: Vec<u8>,
    /// The files sent as `anexos`, each with its name (none chosen: none).
    pub attachments: Vec<(String, Vec<u8>)>,
    /// The files sent under other fields: the field, the file's name, its
    /// bytes (none chosen: none).
    pub named: Vec<(String, String, Vec<u8>)>,
}

impl Upload {
    /// The text sent in field `name` (empty when none).
    pub fn field(&self, name: &str) -> &str {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, value)| value.as_str())
    }
}

/// Reads a form with its files (at most `max_bytes` in all: the route's
/// body limit stops more); what went wrong as the page says it.
pub(crate) async fn upload(
    mut multipart: axum::extract::Multipart,
    max_bytes: usize,
) -> Result<Upload, String> {
    use axum::http::StatusCode;
    let too_large = || {
        format!(
            "o arquivo passa de {} MiB: divida-o em partes menores",
            max_bytes / 1024 / 1024
        )
    };
    let mut sent = Upload::default();
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_large()),
            Err(_) => return Err("o formulário chegou incompleto: envie de novo".into()),
        };
        let name = field.name().unwrap_or("").to_string();
        if name == "arquivo" || name == "anexos" || field.file_name().is_some() {
            let file_name = field.file_name().unwrap_or("arquivo").to_string();
            let bytes = match field.bytes().await {
                Ok(bytes) => bytes.to_vec(),
                Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_large()),
                Err(_) => return Err("o arquivo chegou incompleto: envie de novo".into()),
            };
            if name == "arquivo" {
                sent.file_name = file_name;
                sent.bytes = bytes;
            } else if !bytes.is_empty() {
                if name == "anexos" {
                    sent.attachments.push((file_name, bytes));
                } else {
                    sent.named.push((name, file_name, bytes));
                }
            }
        } else {
            let text = field.text().await.unwrap_or_default();
            sent.fields.push((name, text));
        }
    }
    Ok(sent)
}

/// A code typed into a form (a document's, a complaint's protocol) as a
/// path segment: its letters, digits and hyphens only.
pub(crate) fn code_in_path(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}

/// Text a form sent, when not blank (trimmed).
/// The filled lines of a text box (one item a line), trimmed.
pub(crate) fn filled_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

pub(crate) fn given(text: &str) -> Option<String> {
    Some(text.trim().to_string()).filter(|t| !t.is_empty())
}

/// What a page after a redirect says was done (`?feito=…`).
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct Done {
    pub(crate) feito: Option<String>,
}
