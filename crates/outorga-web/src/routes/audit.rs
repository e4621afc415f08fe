//! The audit log: reading it and verifying its chain.

use crate::auth::Board;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Query;
use crate::json::Json;
use crate::state::AppState;
use axum::extract::State;
use outorga_store::{AuditCheck, AuditEntry};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, IntoParams)]
pub struct Filtro {
    /// O registro, como `person:25524893033`, `vehicle:ABC1D23` ou `user:ana`.
    #[serde(alias = "subject")]
    pub assunto: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EntradaAuditoria {
    pub sequencia: i64,
    /// Quando (UTC).
    pub em: String,
    /// Quem fez a alteração.
    pub autor: String,
    pub acao: String,
    pub jurisdicao: Option<String>,
    pub assunto: String,
    /// O que mudou.
    #[schema(value_type = Object)]
    pub detalhe: serde_json::Value,
    pub justificativa: String,
    pub hash_anterior: String,
    pub hash: String,
}

impl From<AuditEntry> for EntradaAuditoria {
    fn from(e: AuditEntry) -> EntradaAuditoria {
        EntradaAuditoria {
            sequencia: e.seq,
            em: e.at,
            autor: e.actor,
            acao: e.action,
            jurisdicao: e.jurisdiction,
            assunto: e.subject,
            detalhe: serde_json::from_str(&e.detail).unwrap_or(serde_json::Value::String(e.detail)),
            justificativa: e.reason,
            hash_anterior: e.prev_hash,
            hash: e.hash,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Verificacao {
    pub integro: bool,
    /// Quantas entradas conferem (quando íntegro).
    pub entradas: Option<i64>,
    /// A primeira entrada que não confere.
    pub entrada_quebrada: Option<i64>,
    pub motivo: Option<String>,
}

/// The audit log, oldest first; users bound to some jurisdictions see only
/// theirs.
#[utoipa::path(get, path = "/api/audit", tag = "auditoria",
    params(Filtro),
    responses((status = 200, body = Vec<EntradaAuditoria>), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn entries(
    State(state): State<AppState>,
    who: Board,
    Query(filter): Query<Filtro>,
) -> Result<Json<Vec<EntradaAuditoria>>, ApiError> {
    let entries = state.store.audit_entries(filter.assunto.as_deref()).await?;
    let scope = &who.user.scope;
    Ok(Json(
        entries
            .into_iter()
            .filter(|e| match (scope, &e.jurisdiction) {
                (outorga_store::Scope::All, _) => true,
                (_, Some(j)) => scope.allows(j),
                (_, None) => false,
            })
            .map(EntradaAuditoria::from)
            .collect(),
    ))
}

/// Recomputes the hash chain of the whole log.
#[utoipa::path(get, path = "/api/audit/verify", tag = "auditoria",
    responses((status = 200, body = Verificacao), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn verify(State(state): State<AppState>, _who: Board) -> Result<Json<Verificacao>, ApiError> {
    Ok(Json(match state.store.verify_audit().await? {
        AuditCheck::Intact { entries } => Verificacao {
            integro: true,
            entradas: Some(entries),
            entrada_quebrada: None,
            motivo: None,
        },
        AuditCheck::Broken { seq, reason } => Verificacao {
            integro: false,
            entradas: None,
            entrada_quebrada: Some(seq),
            motivo: Some(reason),
        },
    }))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(entries))
        .routes(routes!(verify))
}
