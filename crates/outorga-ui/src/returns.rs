//! A bank's return file (`/j/{j}/retornos`), for clerks: the file the bank
//! sends of the slips paid (FEBRABAN arrecadação, 150 positions a line,
//! `.ret` or `.txt`) is uploaded and imported — each slip of this
//! jurisdiction's agreement pays its debt, a slip paid after its debt was
//! settled becomes the debtor's credit, every other line is reported with
//! why it paid nothing — and the page shows the report in tables, each
//! debt linked. A file is imported once: a second time, the store's
//! refusal is said next to the file. Through
//! `outorga_web::workflows::import_return`, as `POST …/bank-returns`.

use crate::autos::form_error;
use crate::debts::{key_label, key_path};
use crate::forms::upload;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place};
use crate::session::{Signed, checked_form, clerk_only};
use askama::Template;
use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use outorga_store::{Change, ReturnReport};
use outorga_web::AppState;
use outorga_web::auth::Clerk;
use outorga_web::workflows::{import_return, reais};

/// The largest file taken (the route's body limit): a return of a month's
/// slips is far smaller.
pub(crate) const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// A line that paid (or became a credit).
#[derive(Debug)]
struct Line {
    line: usize,
    debt: String,
    path: String,
    value: String,
    receipt: String,
}

#[derive(Debug)]
struct ReportView {
    file: String,
    bank: u16,
    nsa: u32,
    paid: Vec<Line>,
    credited: Vec<Line>,
    /// (line, why it paid nothing).
    unmatched: Vec<(usize, String)>,
}

impl ReportView {
    fn of(j: &str, file: &str, report: ReturnReport) -> ReportView {
        let line = |line: usize, key, cents: i64, receipt: String| Line {
            line,
            debt: key_label(key),
            path: key_path(j, key),
            value: crate::format::money(&reais(cents)),
            receipt,
        };
        ReportView {
            file: file.to_string(),
            bank: report.bank,
            nsa: report.nsa,
            paid: report
                .paid
                .into_iter()
                .map(|(l, key, cents, receipt)| line(l, key, cents, receipt))
                .collect(),
            credited: report
                .credited
                .into_iter()
                .map(|(l, key, cents)| line(l, key, cents, String::new()))
                .collect(),
            unmatched: report.unmatched,
        }
    }
}

#[derive(Template)]
#[template(path = "retornos.html")]
struct ReturnPage {
    user: Option<Bar>,
    j: String,
    place: String,
    /// Why the file was refused, said next to it.
    error: Option<String>,
    report: Option<ReportView>,
}

fn return_page(
    signed: &Signed,
    place: &Place<'_>,
    status: StatusCode,
    (error, report): (Option<String>, Option<ReportView>),
) -> Response {
    page(
        status,
        &ReturnPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            error,
            report,
        },
    )
}

pub(crate) async fn form(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = clerk_only(&signed, "importar o retorno do banco") {
        return *refused;
    }
    return_page(&signed, &place, StatusCode::OK, (None, None))
}

/// A return file's text: UTF-8, or Latin-1 as banks write it.
fn text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

pub(crate) async fn run(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    // The role is checked before the file is read.
    if let Err(refused) = clerk_only(&signed, "importar o retorno do banco") {
        return *refused;
    }
    let refused = |status: StatusCode, message: String| {
        return_page(&signed, &place, status, (Some(message), None))
    };
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    let Ok(multipart) = multipart else {
        return refused(
            unprocessable,
            "o formulário não trouxe o arquivo: escolha-o e envie pelo botão Importar".into(),
        );
    };
    let sent = match upload(multipart, MAX_FILE_BYTES).await {
        Ok(sent) => sent,
        Err(message) => return refused(unprocessable, message),
    };
    if let Err(refused) = checked_form(&signed, sent.field("csrf"), Clerk::admits) {
        return *refused;
    }
    if sent.bytes.is_empty() {
        return refused(unprocessable, "escolha o arquivo retorno do banco".into());
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "retorno bancário pela tela",
    };
    match import_return(&state, &change, &place.id, &text(&sent.bytes)).await {
        Ok(report) => {
            let view = ReportView::of(&place.id, &sent.file_name, report);
            return_page(&signed, &place, StatusCode::OK, (None, Some(view)))
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a return file could not be imported");
            failure()
        }
        Err(error) => refused(error.status, form_error(&error).1),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_is_read_as_utf8_or_latin1() {
        assert_eq!(super::text("São".as_bytes()), "São");
        assert_eq!(super::text(b"S\xe3o"), "São");
    }
}
