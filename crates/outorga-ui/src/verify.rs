//! The public check of a document by its verification code (no sign-in):
//! `/verificar` asks for the code, `/verificar/{codigo}` answers whether
//! the document is valid today, what it is, until when, and what it
//! certifies — the same answer as `GET /api/public/documents/{codigo}`
//! (`outorga_web::workflows::document_check`), never the holder. It shows
//! the SHA-256 of the PDF the department printed, and checks a file sent
//! to it (`POST /verificar/{codigo}/arquivo`): the same bytes, or not the
//! genuine file. A client past its rate of public lookups is answered 429,
//! as the API's.

use crate::format;
use crate::forms::upload;
use crate::pages::{failure, page};
use askama::Template;
use axum::extract::{Multipart, Path, Query, State};
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
    /// The files printed: (format, SHA-256).
    prints: Vec<(&'static str, String)>,
    /// The public check of what it certifies today, when a vehicle or a
    /// driver: (its address, the link's words).
    lookup: Option<(String, String)>,
}

/// The `/consulta` of the vehicle or driver a document certifies.
fn lookup_of(jurisdiction: &str, subject: &str) -> Option<(String, String)> {
    match subject.split(':').collect::<Vec<_>>().as_slice() {
        ["vehicle", plate] => Some((
            format!("/consulta?jurisdicao={jurisdiction}&tipo=placa&valor={plate}"),
            format!("Ver a situação do veículo {plate} hoje"),
        )),
        ["driver", registration] => Some((
            format!("/consulta?jurisdicao={jurisdiction}&tipo=matricula&valor={registration}"),
            format!("Ver a situação do condutor de matrícula {registration} hoje"),
        )),
        _ => None,
    }
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
    /// A file sent to be checked: whether it is the genuine one, in words.
    file_check: Option<(bool, String)>,
}

/// The largest file the check reads: a paper's PDF is far smaller.
pub(crate) const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Asked {
    #[serde(default)]
    codigo: String,
}

/// The form; a code sent (`?codigo=`) goes to its page.
pub(crate) async fn form(Query(asked): Query<Asked>) -> Response {
    let code = crate::forms::code_in_path(&asked.codigo);
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
            file_check: None,
        },
    )
}

/// The document with this code, valid or not today.
pub(crate) async fn show(
    _: PublicLookup,
    State(state): State<AppState>,
    Path(codigo): Path<String>,
) -> Response {
    answer(&state, &codigo, None).await
}

/// A file checked against the document's printed PDF.
pub(crate) async fn check_file(
    _: PublicLookup,
    State(state): State<AppState>,
    Path(codigo): Path<String>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    // The file's SHA-256 and name, or why there is no file to check.
    let sent = match multipart {
        Err(_) => Err("o formulário não trouxe o arquivo: escolha-o e envie".to_string()),
        Ok(multipart) => match upload(multipart, MAX_FILE_BYTES).await {
            Err(message) => Err(message),
            Ok(sent) if sent.bytes.is_empty() => Err("escolha o arquivo PDF do documento".into()),
            Ok(sent) => Ok((outorga_store::sha256_hex(&sent.bytes), sent.file_name)),
        },
    };
    answer(&state, &codigo, Some(sent)).await
}

/// A file sent to be checked: its SHA-256 and name, or why there is none.
type Sent = Result<(String, String), String>;

/// The page of the document `codigo`, with the verdict on a file sent.
async fn answer(state: &AppState, codigo: &str, sent: Option<Sent>) -> Response {
    let asked = codigo.trim().to_uppercase();
    match document_check(state, &asked).await {
        Ok((doc, reasons)) => {
            let prints: Vec<(&str, String)> = match state.store.document_prints(&doc.code).await {
                Ok(prints) => prints
                    .into_iter()
                    .map(|(format, sha)| (format.portuguese(), sha))
                    .collect(),
                Err(error) => {
                    tracing::error!(%error, "a document's files could not be read");
                    return failure();
                }
            };
            let file_check = sent.map(|sent| match sent {
                Err(message) => (false, message),
                Ok((sha, name)) if prints.iter().any(|(_, kept)| *kept == sha) => (
                    true,
                    format!("O arquivo {name} é o documento que o órgão emitiu: não foi alterado."),
                ),
                Ok((sha, name)) => (
                    false,
                    format!(
                        "O arquivo {name} não é o que o órgão emitiu com este código: foi \
                         alterado, ou é outro documento (SHA-256 {sha})."
                    ),
                ),
            });
            let today = outorga_web::workflows::today_in(state, &doc.jurisdiction);
            let checked = Checked {
                code: doc.code.clone(),
                valid: reasons.is_empty(),
                reasons,
                kind: outorga_store::document_kind_name(&doc.kind).to_string(),
                certifies: outorga_store::record_name(&doc.subject),
                issued: format::day(doc.issued_on),
                valid_until: doc.valid_until.map(format::day),
                cancelled: doc.cancelled_on.map(format::day),
                prints,
                lookup: lookup_of(&doc.jurisdiction, &doc.subject),
            };
            page(
                StatusCode::OK,
                &VerifyPage {
                    user: None,
                    today: format::day(today),
                    asked,
                    checked: Some(checked),
                    missing: None,
                    file_check,
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
                file_check: None,
            },
        ),
        Err(error) => {
            tracing::error!(erro = %error.body.erro, "a document could not be checked");
            failure()
        }
    }
}
