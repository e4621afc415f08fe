//! Signing in and out.

use crate::auth::Reader;
use crate::error::{ApiError, ErrorBody};
use crate::json::Json;
use crate::routes::change;
use crate::routes::users::UsuarioSaida;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// How long a session lasts.
const SESSION_HOURS: i64 = 12;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SessaoEntrada {
    pub nome: String,
    pub senha: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SessaoSaida {
    /// Envie em Authorization: Bearer <token>.
    pub token: String,
    /// Quando a sessão expira (UTC).
    pub expira_em: String,
    pub usuario: UsuarioSaida,
}

/// Opens a session: name and password give a bearer token.
#[utoipa::path(post, path = "/api/session", tag = "sessão",
    request_body = SessaoEntrada,
    responses((status = 201, body = SessaoSaida), (status = 401, body = ErrorBody),
              (status = 422, body = ErrorBody)))]
async fn open(
    State(state): State<AppState>,
    Json(input): Json<SessaoEntrada>,
) -> Result<(StatusCode, Json<SessaoSaida>), ApiError> {
    let now = state.clock.now();
    let expires = now + chrono::Duration::hours(SESSION_HOURS);
    let session = state
        .store
        .open_session(&input.nome, &input.senha, now, expires)
        .await?
        .ok_or_else(|| ApiError::unauthorized("nome ou senha incorretos"))?;
    Ok((
        StatusCode::CREATED,
        Json(SessaoSaida {
            token: session.token,
            expira_em: session.expires_at.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            usuario: UsuarioSaida::from(session.user),
        }),
    ))
}

/// Ends the session whose token is presented.
#[utoipa::path(delete, path = "/api/session", tag = "sessão",
    responses((status = 204, description = "sessão encerrada"), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn close(State(state): State<AppState>, who: Reader) -> Result<StatusCode, ApiError> {
    let change = change!(state, who, "fim de sessão");
    if state.store.close_session(&change, &who.token).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(
            "este token não é de uma sessão; tokens de API se revogam em \
             DELETE /api/users/{nome}/tokens/{rotulo}",
        ))
    }
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(open, close))
}
