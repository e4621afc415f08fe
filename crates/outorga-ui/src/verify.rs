//! The public check of a document by its verification code (no sign-in):
//! `/verificar` asks for the code, `/verificar/{codigo}` answers whether
//! the document is valid today, what it is, until when, and what it
//! certifies — the same answer as `GET /api/public/documents/{codigo}`
//! (`outorga_web::workflows::document_check`), never the holder. A client
//! past its rate of public lookups is answered 429, as the API's.

use crate::format;
use crate::pages::{failure, page};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_web::AppState;
use outorga_web::limits::PublicLookup;
use outorga_web::workflows::document_check;
use serde::Deserialize;

/// What the page shows of a document.
#[derive(Debug)]
struct Checked {
    code: String,
    valid: bool,
    reasons: Vec<String>,
    kind: String,
    certifies: String,
    issued: String,
    valid_until: Option<String>,
    cancelled: Option<String>,
}

#[derive(Template)]
#[template(path = "verificar.html")]
struct VerifyPage {
    user: Option<crate::pages::Bar>,
    today: String,
    asked: String,
    checked: Option<Checked>,
    /// Why nothing is shown: an unknown code.
    missing: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Asked {
    #[serde(default)]
    codigo: String,
}

/// The form; a code sent (`?codigo=`) goes to its page.
pub(crate) async fn form(Query(asked): Query<Asked>) -> Response {
    let code: String = asked
        .codigo
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    if !code.is_empty() {
        return Redirect::to(&format!("/verificar/{code}")).into_response();
    }
    page(
        StatusCode::OK,
        &VerifyPage {
            user: None,
            today: String::new(),
            asked: String::new(),
            checked: None,
            missing: None,
        },
    )
}

/// The document with this code, valid or not today.
pub(crate) async fn show(
    _: PublicLookup,
    State(state): State<AppState>,
    Path(codigo): Path<String>,
) -> Response {
    let asked = codigo.trim().to_uppercase();
    match document_check(&state, &asked).await {
        Ok((doc, reasons)) => {
            let today = outorga_web::workflows::today_in(&state, &doc.jurisdiction);
            let checked = Checked {
                code: doc.code.clone(),
                valid: reasons.is_empty(),
                reasons,
                kind: outorga_store::document_kind_name(&doc.kind).to_string(),
                certifies: outorga_store::record_name(&doc.subject),
                issued: format::day(doc.issued_on),
                valid_until: doc.valid_until.map(format::day),
                cancelled: doc.cancelled_on.map(format::day),
            };
            page(
                StatusCode::OK,
                &VerifyPage {
                    user: None,
                    today: format::day(today),
                    asked,
                    checked: Some(checked),
                    missing: None,
                },
            )
        }
        Err(error) if error.status == StatusCode::NOT_FOUND => page(
            StatusCode::NOT_FOUND,
            &VerifyPage {
                user: None,
                today: String::new(),
                asked,
                checked: None,
                missing: Some(error.body.erro),
            },
        ),
        Err(error) => {
            tracing::error!(erro = %error.body.erro, "a document could not be checked");
            failure()
        }
    }
}
