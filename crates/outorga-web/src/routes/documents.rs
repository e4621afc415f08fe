//! The documents the department issued about a record.

use crate::auth::Reader;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::optional_day;
use crate::state::AppState;
use crate::vocab::{DOCUMENTOS, subject_code, subject_wire};
use axum::extract::State;
use outorga_store::{Document, DocumentFilter};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentoSaida {
    /// O código de verificação, como ABCDE-12345.
    pub codigo: String,
    pub jurisdicao: String,
    pub tipo: String,
    /// Do que trata: `permissao:<serviço>:<n>`, `condutor:<matrícula>`,
    /// `veiculo:<placa>`.
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
            tipo: DOCUMENTOS.wire(&d.kind),
            assunto: subject_wire(&d.subject),
            titular: Some(d.holder),
            emitido_em: d.issued_on.to_string(),
            valido_ate: d.valid_until.map(|v| v.to_string()),
            cancelado_em: d.cancelled_on.map(|v| v.to_string()),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Filtro {
    /// O registro: `permissao:taxi:1`, `condutor:2026-00001`,
    /// `veiculo:ABC1D23`.
    pub assunto: Option<String>,
    /// CPF ou CNPJ do titular.
    pub titular: Option<String>,
    /// Só os documentos deste tipo.
    pub tipo: Option<String>,
    /// Emitidos a partir deste dia (AAAA-MM-DD).
    pub de: Option<String>,
    /// Emitidos até este dia, inclusive (AAAA-MM-DD).
    pub ate: Option<String>,
}

/// A page of the documents the department issued that the filters admit
/// (about a record, to a holder, of a kind), the latest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/documents", tag = "documentos",
    params(("j" = String, Path, description = "a jurisdição"), Filtro, Pagina),
    responses((status = 200, body = Lista<DocumentoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(filter): Query<Filtro>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<DocumentoSaida>>, ApiError> {
    let asked = page.asked()?;
    let filter = DocumentFilter {
        subject: filter.assunto.as_deref().map(subject_code),
        holder: filter.titular,
        kind: filter
            .tipo
            .map(|t| DOCUMENTOS.read("tipo", &t))
            .transpose()?,
        from: optional_day(filter.de.as_deref(), "de")?,
        to: optional_day(filter.ate.as_deref(), "ate")?,
    };
    let documents = state.store.documents(&j, &filter, asked.window()).await?;
    Ok(Json(Lista::of(documents)))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}
