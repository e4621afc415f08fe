//! The papers in the staff application: any document as its PDF
//! (`/j/{j}/documentos/{codigo}/pdf`, linked from the dossier pages), and
//! the papers of an auto (the auto, its notification, the notice of the
//! decision) and a debt's slip, issued from their pages and then opened.
//! Through `outorga_web::papers`, as `GET …/documents/{codigo}/pdf`,
//! `POST …/autos/…/papers` and `POST …/debts/…/guia/documento` do.

use crate::pages::failure;
use crate::place::{place, refusal};
use crate::session::{Signed, checked_form};
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, Document};
use outorga_web::auth::Issuer;
use outorga_web::papers::{AutoPaper, document_pdf, issue_auto_paper, issue_slip_paper};
use outorga_web::workflows::{paper_format, pdf_file};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct FormatAsked {
    formato: Option<String>,
}

/// What went wrong, as the page that refuses says it (an outage logged).
fn refused(signed: &Signed, error: &ApiError, title: &str) -> Response {
    if error.status.is_server_error() {
        tracing::error!(erro = %error.body.erro, "a paper could not be made");
        return failure();
    }
    let title = if error.status == StatusCode::NOT_FOUND {
        "Documento não encontrado"
    } else {
        title
    };
    refusal(signed, error.status, title, &error.body.erro)
}

fn change<'a>(state: &AppState, signed: &'a Signed, why: &'a str) -> Change<'a> {
    Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why,
    }
}

/// A document's PDF, printed (and kept) the first time it is asked for.
pub(crate) async fn pdf(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, codigo)): Path<(String, String)>,
    Query(asked): Query<FormatAsked>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    let format = match paper_format(asked.formato.as_deref()) {
        Ok(format) => format,
        Err(error) => return refused(&signed, &error, "Formato desconhecido"),
    };
    let change = change(&state, &signed, "impressão pela tela");
    match document_pdf(&state, &j, &codigo, format, &change).await {
        Ok((document, kept)) => pdf_file(&document, format, kept),
        Err(error) => refused(&signed, &error, "O documento não pôde ser impresso"),
    }
}

fn opened(j: &str, document: &Document) -> Response {
    Redirect::to(&format!("/j/{j}/documentos/{}/pdf", document.code)).into_response()
}

#[derive(Debug, Deserialize)]
pub(crate) struct AutoPaperAsked {
    #[serde(default)]
    csrf: String,
    /// `auto`, `auto_notification` or `decision_notice`.
    #[serde(default)]
    tipo: String,
}

/// Issues (or finds) a paper of the auto, then opens its PDF.
pub(crate) async fn auto_paper(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number)): Path<(String, i32, i64)>,
    Form(asked): Form<AutoPaperAsked>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &asked.csrf, Issuer::admits) {
        return *refused;
    }
    let Some(which) = AutoPaper::of_kind(&asked.tipo) else {
        return refusal(
            &signed,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Documento desconhecido",
            "Escolha o auto, a notificação da autuação ou a notificação da decisão.",
        );
    };
    let change = change(&state, &signed, "emissão pela tela");
    match issue_auto_paper(&state, &j, (year, number), which, &change).await {
        Ok(document) => opened(&j, &document),
        Err(error) => refused(&signed, &error, "O documento não pôde ser emitido"),
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct SlipAsked {
    #[serde(default)]
    csrf: String,
    /// The due day (AAAA-MM-DD); blank: today.
    #[serde(default)]
    data: String,
}

/// Issues (or finds) the slip of the debt due on the day asked, then opens
/// its PDF.
pub(crate) async fn slip_paper(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Form(asked): Form<SlipAsked>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &asked.csrf, Issuer::admits) {
        return *refused;
    }
    let day = Some(asked.data.trim()).filter(|d| !d.is_empty());
    let change = change(&state, &signed, "emissão pela tela");
    match issue_slip_paper(&state, &j, (year, number, seq), day, &change).await {
        Ok(document) => opened(&j, &document),
        Err(error) => refused(&signed, &error, "A guia não pôde ser emitida"),
    }
}
