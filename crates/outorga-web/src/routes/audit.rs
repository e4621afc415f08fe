//! The audit log: reading it and verifying its chain.

use crate::auth::Board;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Query;
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::optional_day;
use crate::state::AppState;
use axum::extract::State;
use outorga_store::{AuditCheck, AuditFilter, LoggedChange};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, IntoParams)]
pub struct Filtro {
    /// O registro, como `person:25524893033`, `vehicle:ABC1D23` ou `user:ana`.
    #[serde(alias = "subject")]
    pub assunto: Option<String>,
    /// A ação, como `auto.issued` ou `person.register`.
    pub acao: Option<String>,
    /// Quem fez a alteração (nome do usuário).
    pub autor: Option<String>,
    /// A jurisdição (dentro das que o usuário pode ver).
    pub jurisdicao: Option<String>,
    /// Alterações a partir deste dia (AAAA-MM-DD, UTC).
    pub de: Option<String>,
    /// Alterações até este dia, inclusive (AAAA-MM-DD, UTC).
    pub ate: Option<String>,
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

impl From<LoggedChange> for EntradaAuditoria {
    fn from(e: LoggedChange) -> EntradaAuditoria {
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

/// A page of the audit log that the filters admit, oldest first; users
/// bound to some jurisdictions see only theirs (never an entry without a
/// jurisdiction).
#[utoipa::path(get, path = "/api/audit", tag = "auditoria",
    params(Filtro, Pagina),
    responses((status = 200, body = Lista<EntradaAuditoria>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn entries(
    State(state): State<AppState>,
    who: Board,
    Query(filter): Query<Filtro>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<EntradaAuditoria>>, ApiError> {
    let asked = page.asked()?;
    let scope = &who.user.scope;
    if let Some(j) = filter.jurisdicao.as_deref().map(str::trim)
        && !scope.allows(j)
    {
        return Err(ApiError::forbidden(format!(
            "o usuário {} não tem acesso à jurisdição `{j}`",
            who.user.name
        )));
    }
    let filter = AuditFilter {
        subject: filter.assunto,
        action: filter.acao,
        actor: filter.autor,
        jurisdiction: filter.jurisdicao,
        from: optional_day(filter.de.as_deref(), "de")?,
        to: optional_day(filter.ate.as_deref(), "ate")?,
    };
    let entries = state
        .store
        .audit_page(scope, &filter, asked.window())
        .await?;
    Ok(Json(Lista::of(entries)))
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
