//! Users and their API tokens: administrators only.

use crate::auth::Admin;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::change;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{Role, Scope, TokenInfo, User};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UsuarioEntrada {
    /// Sem espaços, como `ana.souza`.
    pub nome: String,
    /// admin (administrador), clerk (atendente), inspector (fiscal),
    /// board (junta/comissão) ou read-only (consulta).
    pub papel: String,
    /// Ao menos 10 caracteres.
    pub senha: String,
    /// As jurisdições em que o usuário atua; omita para todas.
    pub jurisdicoes: Option<Vec<String>>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UsuarioSaida {
    pub nome: String,
    /// O código do papel: admin, clerk, inspector, board ou read-only.
    pub papel: String,
    /// O nome do papel: administrador, atendente, fiscal, junta/comissão ou consulta.
    pub papel_nome: String,
    /// As jurisdições em que atua; `null` para todas.
    pub jurisdicoes: Option<Vec<String>>,
}

impl From<User> for UsuarioSaida {
    fn from(user: User) -> UsuarioSaida {
        UsuarioSaida {
            nome: user.name,
            papel: user.role.code().into(),
            papel_nome: user.role.label().into(),
            jurisdicoes: match user.scope {
                Scope::All => None,
                Scope::Only(list) => Some(list),
            },
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenEntrada {
    /// Para que serve o token, como `integração-detran` (único por usuário).
    pub rotulo: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenCriado {
    pub usuario: String,
    pub rotulo: String,
    /// Envie em Authorization: Bearer <token>. Mostrado só agora.
    pub token: String,
    pub aviso: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenSaida {
    pub rotulo: String,
    pub criado_em: String,
    pub revogado_em: Option<String>,
}

impl From<TokenInfo> for TokenSaida {
    fn from(t: TokenInfo) -> TokenSaida {
        TokenSaida {
            rotulo: t.label,
            criado_em: t.created_at,
            revogado_em: t.revoked_at,
        }
    }
}

/// Creates a user.
#[utoipa::path(post, path = "/api/users", tag = "usuários",
    request_body = UsuarioEntrada,
    responses((status = 201, body = UsuarioSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create(
    State(state): State<AppState>,
    who: Admin,
    Json(input): Json<UsuarioEntrada>,
) -> Result<(StatusCode, Json<UsuarioSaida>), ApiError> {
    let role = Role::parse(&input.papel)?;
    let scope = input.jurisdicoes.map_or(Scope::All, Scope::Only);
    let change = change!(state, who, "cadastro de usuário pela API");
    let user = state
        .store
        .create_user(&change, &input.nome, role, &input.senha, &scope)
        .await?;
    Ok((StatusCode::CREATED, Json(user.into())))
}

/// Every user, by name.
#[utoipa::path(get, path = "/api/users", tag = "usuários",
    responses((status = 200, body = Vec<UsuarioSaida>), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Admin,
) -> Result<Json<Vec<UsuarioSaida>>, ApiError> {
    let users = state.store.users().await?;
    Ok(Json(users.into_iter().map(UsuarioSaida::from).collect()))
}

async fn existing(state: &AppState, name: &str) -> Result<User, ApiError> {
    state
        .store
        .user(name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("o usuário `{name}` não existe")))
}

/// Creates an API token for a user; the token is shown once.
#[utoipa::path(post, path = "/api/users/{nome}/tokens", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário")),
    request_body = TokenEntrada,
    responses((status = 201, body = TokenCriado), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_token(
    State(state): State<AppState>,
    who: Admin,
    Path(nome): Path<String>,
    Json(input): Json<TokenEntrada>,
) -> Result<(StatusCode, Json<TokenCriado>), ApiError> {
    let user = existing(&state, &nome).await?;
    let change = change!(state, who, "token de API criado pela API");
    let token = state
        .store
        .create_token(&change, &user.name, &input.rotulo)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(TokenCriado {
            usuario: user.name,
            rotulo: input.rotulo.trim().to_string(),
            token,
            aviso: "guarde este token agora: ele não será mostrado de novo".into(),
        }),
    ))
}

/// A user's API tokens (never the tokens themselves).
#[utoipa::path(get, path = "/api/users/{nome}/tokens", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário")),
    responses((status = 200, body = Vec<TokenSaida>), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn tokens(
    State(state): State<AppState>,
    _who: Admin,
    Path(nome): Path<String>,
) -> Result<Json<Vec<TokenSaida>>, ApiError> {
    let user = existing(&state, &nome).await?;
    let tokens = state.store.tokens(&user.name).await?;
    Ok(Json(tokens.into_iter().map(TokenSaida::from).collect()))
}

/// Revokes a user's API token.
#[utoipa::path(delete, path = "/api/users/{nome}/tokens/{rotulo}", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário"),
           ("rotulo" = String, Path, description = "o rótulo do token")),
    responses((status = 204, description = "token revogado"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn revoke_token(
    State(state): State<AppState>,
    who: Admin,
    Path((nome, rotulo)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let change = change!(state, who, "token de API revogado pela API");
    if state.store.revoke_token(&change, &nome, &rotulo).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(format!(
            "o usuário `{nome}` não tem um token `{rotulo}` em vigor"
        )))
    }
}

/// Disables a user: no more sign-ins; sessions end and tokens are revoked.
#[utoipa::path(delete, path = "/api/users/{nome}", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário")),
    responses((status = 204, description = "usuário desativado"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn disable(
    State(state): State<AppState>,
    who: Admin,
    Path(nome): Path<String>,
) -> Result<StatusCode, ApiError> {
    let change = change!(state, who, "usuário desativado pela API");
    state.store.disable_user(&change, &nome).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SenhaEntrada {
    /// Ao menos 10 caracteres.
    pub senha: String,
}

/// Sets a user's password; their sessions end.
#[utoipa::path(put, path = "/api/users/{nome}/password", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário")),
    request_body = SenhaEntrada,
    responses((status = 204, description = "senha trocada"), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn password(
    State(state): State<AppState>,
    who: Admin,
    Path(nome): Path<String>,
    Json(input): Json<SenhaEntrada>,
) -> Result<StatusCode, ApiError> {
    let change = change!(state, who, "senha trocada pela API");
    state
        .store
        .set_password(&change, &nome, &input.senha)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(disable))
        .routes(routes!(password))
        .routes(routes!(create_token, tokens))
        .routes(routes!(revoke_token))
}
