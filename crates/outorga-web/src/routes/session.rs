//! Signing in and out, and the record of sign-in attempts.

use crate::auth::{Admin, Reader};
use crate::client::ClientIp;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Query;
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::users::UsuarioSaida;
use crate::routes::{change, parse_moment};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{
    Attempt, AttemptFilter, FAILURES_PER_CLIENT, FAILURES_PER_NAME, MAX_PASSWORD_CHARS, SignIn,
    WINDOW_SECONDS,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// How long a session lasts.
const SESSION_HOURS: i64 = 12;

/// The longest user name, in characters (as when users are created).
const MAX_NAME_CHARS: usize = 64;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SessaoEntrada {
    /// O nome do usuário (até 64 caracteres).
    #[schema(max_length = 64)]
    pub nome: String,
    /// A senha (até 256 caracteres).
    #[schema(max_length = 256)]
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

/// Refuses a name or password too long to be anyone's (nothing is
/// checked nor recorded).
fn checked_lengths(input: &SessaoEntrada) -> Result<(), ApiError> {
    let too_long = |campo: &str, max: usize| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            campo,
            format!("tem no máximo {max} caracteres"),
        )
    };
    if input.nome.trim().chars().count() > MAX_NAME_CHARS {
        return Err(too_long("nome", MAX_NAME_CHARS));
    }
    if input.senha.chars().count() > MAX_PASSWORD_CHARS {
        return Err(too_long("senha", MAX_PASSWORD_CHARS));
    }
    Ok(())
}

/// Opens a session: name and password give a bearer token.
///
/// Limits: after 5 failed attempts for a user name, or 10 from one client
/// address (an IPv6 client: its /64), within a minute, the next attempts
/// are refused with 429 and `Retry-After` (the seconds until the oldest of
/// those failures is a minute old) without the password being checked.
/// When too many passwords are being checked at once the answer is 503
/// with `Retry-After`. Every attempt checked is recorded
/// (`GET /api/sign-ins`).
#[utoipa::path(post, path = "/api/session", tag = "sessão",
    request_body = SessaoEntrada,
    responses((status = 201, body = SessaoSaida), (status = 401, body = ErrorBody),
              (status = 422, body = ErrorBody),
              (status = 429, body = ErrorBody,
               description = "tentativas falhas demais; veja o cabeçalho Retry-After"),
              (status = 503, body = ErrorBody,
               description = "senhas demais sendo verificadas; veja o cabeçalho Retry-After")))]
async fn open(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(input): Json<SessaoEntrada>,
) -> Result<(StatusCode, Json<SessaoSaida>), ApiError> {
    checked_lengths(&input)?;
    let now = state.clock.now();
    let expires = now + chrono::Duration::hours(SESSION_HOURS);
    let answer = state
        .store
        .sign_in(&input.nome, &input.senha, client, now, expires)
        .await?;
    match answer {
        SignIn::Opened(session) => Ok((
            StatusCode::CREATED,
            Json(SessaoSaida {
                token: session.token,
                expira_em: session.expires_at.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                usuario: UsuarioSaida::from(session.user),
            }),
        )),
        SignIn::Refused => Err(ApiError::unauthorized("nome ou senha incorretos")),
        SignIn::TooMany { seconds } => Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "tentativas falhas demais para este nome ou deste endereço (no máximo \
                 {FAILURES_PER_NAME} por nome e {FAILURES_PER_CLIENT} por endereço a cada \
                 {WINDOW_SECONDS} segundos); tente de novo em {seconds} segundos"
            ),
        )
        .retry_after(seconds.unsigned_abs())),
    }
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

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FiltroTentativas {
    /// Só as que falharam (padrão: todas).
    pub falhas: Option<bool>,
    /// A partir de quando (UTC), como `2026-11-30T08:00`.
    pub desde: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TentativaSaida {
    /// Quando (UTC).
    pub em: String,
    /// O nome como foi digitado: pode não ser de ninguém.
    pub nome: String,
    /// O endereço do cliente.
    pub endereco: String,
    pub sucesso: bool,
}

impl From<Attempt> for TentativaSaida {
    fn from(a: Attempt) -> TentativaSaida {
        TentativaSaida {
            em: a.at,
            nome: a.name,
            endereco: a.client,
            sucesso: a.succeeded,
        }
    }
}

/// The sign-in attempts that were checked, newest first. An administrator
/// limited to some jurisdictions sees only the attempts naming users of
/// their scope; one without limits sees every attempt, names that are no
/// one's included.
#[utoipa::path(get, path = "/api/sign-ins", tag = "sessão",
    params(FiltroTentativas, Pagina),
    responses((status = 200, body = Lista<TentativaSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn attempts(
    State(state): State<AppState>,
    who: Admin,
    Query(filter): Query<FiltroTentativas>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<TentativaSaida>>, ApiError> {
    let asked = page.asked()?;
    let since = filter
        .desde
        .as_deref()
        .map(|text| parse_moment(text, "desde"))
        .transpose()?;
    let found = state
        .store
        .sign_in_attempts(
            &AttemptFilter {
                failures_only: filter.falhas.unwrap_or(false),
                since,
            },
            &who.user.scope,
            asked.window(),
        )
        .await?;
    Ok(Json(Lista::of(found)))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open, close))
        .routes(routes!(attempts))
}
