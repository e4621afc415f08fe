//! The audit log: reading it and verifying its chain.

use crate::auth::Board;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Query;
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::optional_day;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{AuditFilter, AuditProblem, LoggedChange, Page, Scope, User, Window};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
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
pub struct Problema {
    /// A entrada do registro em que está o problema, se houver.
    pub entrada: Option<i64>,
    /// O registro (tabela e chave) que não confere, se houver.
    pub registro: Option<String>,
    pub jurisdicao: Option<String>,
    pub motivo: String,
}

impl From<AuditProblem> for Problema {
    fn from(p: AuditProblem) -> Problema {
        Problema {
            entrada: p.seq,
            registro: p.record,
            jurisdicao: p.jurisdiction,
            motivo: p.reason,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Verificacao {
    /// Nada do que o usuário pode ver está fora do lugar.
    pub integro: bool,
    /// Entradas do registro nas jurisdições do usuário (todas, sem restrição).
    pub entradas: i64,
    /// Registros (linhas das tabelas) conferidos nessas jurisdições.
    pub registros: i64,
    /// Os problemas nas jurisdições do usuário, e os da estrutura do
    /// registro (entradas faltando, cabeça movida), que valem para todos.
    pub problemas: Vec<Problema>,
}

/// One verification at a time in this process: it reads the whole log and
/// every table.
static VERIFYING: Semaphore = Semaphore::const_new(1);

/// The answer while another verification runs.
fn busy() -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "uma verificação do registro já está em andamento; tente de novo em instantes",
    )
    .retry_after(30)
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
    let entries = audit_entries(&state, &who.user, &filter, asked.window()).await?;
    Ok(Json(Lista::of(entries)))
}

/// A page of the entries `filtro` admits that `who` may see (their
/// jurisdictions; a jurisdiction asked out of them is refused, 403): what
/// `GET /api/audit` and the audit page list.
pub async fn audit_entries(
    state: &AppState,
    who: &User,
    filtro: &Filtro,
    window: Window<'_>,
) -> Result<Page<LoggedChange>, ApiError> {
    let scope = &who.scope;
    if let Some(j) = filtro.jurisdicao.as_deref().map(str::trim)
        && !scope.allows(j)
    {
        return Err(ApiError::forbidden(format!(
            "o usuário {} não tem acesso à jurisdição `{j}`",
            who.name
        )));
    }
    let given = |f: &Option<String>| f.clone().filter(|v| !v.trim().is_empty());
    let filter = AuditFilter {
        subject: given(&filtro.assunto),
        action: given(&filtro.acao),
        actor: given(&filtro.autor),
        jurisdiction: given(&filtro.jurisdicao),
        from: optional_day(filtro.de.as_deref(), "de")?,
        to: optional_day(filtro.ate.as_deref(), "ate")?,
    };
    Ok(state.store.audit_page(scope, &filter, window).await?)
}

/// Verifies the log and every record against it (as `outorga audit
/// verify`); a user limited to jurisdictions sees only theirs.
#[utoipa::path(get, path = "/api/audit/verify", tag = "auditoria",
    description = "Confere a cadeia do registro de auditoria, os selos (HMAC) e cada registro \
                   das tabelas contra o que o registro descreve. Uma verificação por vez em \
                   cada servidor (429 com Retry-After se outra estiver em andamento).",
    responses((status = 200, body = Verificacao), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 429, body = ErrorBody)),
    security(("bearer" = [])))]
async fn verify(State(state): State<AppState>, who: Board) -> Result<Json<Verificacao>, ApiError> {
    Ok(Json(verify_audit(&state, &who.user).await?))
}

/// Verifies the log and every record against it, as `who` may see it (the
/// problems of their jurisdictions and those of the log's structure); one
/// verification at a time in this process (429 otherwise): what
/// `GET /api/audit/verify` and the audit page's "Verificar" do.
pub async fn verify_audit(state: &AppState, who: &User) -> Result<Verificacao, ApiError> {
    let Ok(_turn) = VERIFYING.try_acquire() else {
        return Err(busy());
    };
    let report = state.store.verify_audit().await?;
    let scope = &who.scope;
    let visible = |j: &Option<String>| match (scope, j) {
        (Scope::All, _) => true,
        (_, Some(j)) => scope.allows(j),
        (_, None) => false,
    };
    let (mut entradas, mut registros) = (0, 0);
    for (j, (entries, rows)) in &report.by_jurisdiction {
        let j = Some(j.clone()).filter(|j| !j.is_empty());
        if visible(&j) {
            entradas += entries;
            registros += rows;
        }
    }
    let problemas: Vec<Problema> = report
        .problems
        .into_iter()
        .filter(|p| visible(&p.jurisdiction) || (p.jurisdiction.is_none() && p.record.is_none()))
        .map(Problema::from)
        .collect();
    Ok(Verificacao {
        integro: problemas.is_empty(),
        entradas,
        registros,
        problemas,
    })
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(entries))
        .routes(routes!(verify))
}
