//! The documents the department issued about a record.

use crate::auth::Reader;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::state::AppState;
use axum::extract::State;
use outorga_store::Document;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentoSaida {
    /// O código de verificação, como ABCDE-12345.
    pub codigo: String,
    pub jurisdicao: String,
    /// traffic_authorization, driver_registration, delegation_term ou
    /// inspection_seal.
    pub tipo: String,
    /// Do que trata: `permit:<serviço>:<n>`, `driver:<matrícula>`, `vehicle:<placa>`.
    pub assunto: String,
    /// CPF ou CNPJ do titular (omitido na consulta pública).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub titular: Option<String>,
    pub emitido_em: String,
    pub valido_ate: Option<String>,
    pub cancelado_em: Option<String>,
}

impl DocumentoSaida {
    /// Without the holder: what the public check shows.
    pub fn public(doc: Document) -> DocumentoSaida {
        DocumentoSaida {
            titular: None,
            ..doc.into()
        }
    }
}

impl From<Document> for DocumentoSaida {
    fn from(d: Document) -> DocumentoSaida {
        DocumentoSaida {
            codigo: d.code,
            jurisdicao: d.jurisdiction,
            tipo: d.kind,
            assunto: d.subject,
            titular: Some(d.holder),
            emitido_em: d.issued_on.to_string(),
            valido_ate: d.valid_until.map(|v| v.to_string()),
            cancelado_em: d.cancelled_on.map(|v| v.to_string()),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct Filtro {
    /// O registro: `permit:taxi:1`, `driver:2026-00001`, `vehicle:ABC1D23`.
    pub assunto: String,
}

/// The documents issued about a record, newest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/documents", tag = "documentos",
    params(("j" = String, Path, description = "a jurisdição"), Filtro),
    responses((status = 200, body = Vec<DocumentoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(filter): Query<Filtro>,
) -> Result<Json<Vec<DocumentoSaida>>, ApiError> {
    let documents = state.store.documents_of(&j, filter.assunto.trim()).await?;
    Ok(Json(
        documents.into_iter().map(DocumentoSaida::from).collect(),
    ))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}
