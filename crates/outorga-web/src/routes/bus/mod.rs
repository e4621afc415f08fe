//! Intercity buses: how each line is operated (the version in force on a
//! day, the carrier's requests and the agency's decisions), the carriers'
//! files (tickets as CSV or BP-e, monthly statistics), a carrier's month
//! with the findings its own data shows, and a finding turned into an auto;
//! the register of the carriers authorized for charters (`registrations`),
//! the charters and their files.

mod carrier_data;
mod charters;
mod fleet;
mod operations;
mod registrations;
mod ties;

pub use charters::{AnexoFretamento, FretamentoEntrada, PassageiroEntrada, charter_input};
pub use operations::{Horarios, OperacaoEntrada, operation_input};
pub use registrations::{DocumentoRegistro, registration_documents};

use crate::error::ApiError;
use crate::routes::bound_rulebooks;
use crate::state::AppState;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use outorga_core::model::Rulebook;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

/// The rulebook of `j` that has the bus rules.
pub async fn bus_rulebook<'a>(state: &'a AppState, j: &str) -> Result<&'a Rulebook, ApiError> {
    bound_rulebooks(state, j)
        .await?
        .into_iter()
        .find(|r| r.bus.is_some())
        .ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "jurisdição",
                format!("{j} não regula transporte intermunicipal de ônibus"),
            )
        })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NaData {
    /// AAAA-MM-DD; hoje quando omitido.
    pub data: Option<String>,
}

/// A file kept with a record (its bytes apart).
#[derive(Debug, Serialize, ToSchema)]
pub struct ArquivoGuardado {
    /// O número do arquivo no registro (para baixá-lo).
    pub numero: i64,
    /// O que o arquivo é (`tipo`) e como se lê.
    pub tipo: String,
    pub tipo_nome: String,
    pub nome: String,
    /// `application/pdf`, `image/jpeg` ou `image/png`, conforme o conteúdo.
    pub formato: String,
    pub bytes: i64,
    pub sha256: String,
}

impl ArquivoGuardado {
    fn of(kind: (&str, &str), file: outorga_store::StoredFile) -> ArquivoGuardado {
        ArquivoGuardado {
            numero: file.seq,
            tipo: kind.0.into(),
            tipo_nome: kind.1.into(),
            nome: file.name,
            formato: file.content_type,
            bytes: file.size,
            sha256: file.sha256,
        }
    }
}

/// A file's bytes sent as base64 (`conteudo`), read; refused naming `campo`.
fn base64_file(
    campo: &'static str,
    nome: &str,
    conteudo: &str,
) -> Result<outorga_store::Attachment, ApiError> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(conteudo.trim())
        .map_err(|_| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                campo,
                format!("o conteúdo de `{nome}` não é base64"),
            )
        })?;
    Ok(outorga_store::Attachment {
        name: nome.to_string(),
        bytes,
    })
}

/// The body limit of a request whose files come as base64: `bytes` of
/// files (base64 takes 4 bytes for every 3) and the rest of the form.
pub(crate) const fn base64_body(bytes: usize) -> usize {
    bytes / 3 * 4 + 256 * 1024
}

/// A kept file downloaded: its type as the record told it by its content,
/// saved under its name (never opened in the application's origin).
pub fn attachment_file(name: &str, content_type: &str, bytes: Vec<u8>) -> Response {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{ascii}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    let kind = HeaderValue::from_str(content_type)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"));
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::HeaderName::from_static("x-content-type-options"),
                HeaderValue::from_static("nosniff"),
            ),
        ],
        bytes,
    )
        .into_response()
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(operations::routes())
        .merge(carrier_data::routes())
        .merge(charters::routes())
        .merge(registrations::routes())
        .merge(fleet::routes())
        .merge(ties::routes())
}

/// The routes that take files: a carrier's files (the upload with its own
/// body limit, and the list), a charter asked with its files, a carrier
/// registered with its documents.
pub(crate) fn file_routes() -> OpenApiRouter<AppState> {
    carrier_data::file_routes()
        .merge(charters::file_routes())
        .merge(registrations::file_routes())
}
