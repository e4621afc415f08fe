//! Users and their API tokens.
//!
//! Administrators manage users, within limits: a user limited to some
//! jurisdictions creates, lists, disables and sets the password of only
//! users whose scope is within theirs (never an unlimited user), and no one
//! gives a role above their own ([`User::may_manage`]). An API token is made
//! by its owner (any role may make its own) or by an administrator without
//! limits; its owner and the administrators who manage them list and revoke
//! it. These checks are made from the path, before the body is read.

use crate::auth::{Admin, Principal, Reader, require};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::{change, parse_day};
use crate::state::AppState;
use axum::extract::{FromRequestParts, RawPathParams, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use outorga_store::{Change, Role, Scope, TokenInfo, User};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UsuarioEntrada {
    /// Sem espaços, como `ana.souza` (até 64 caracteres).
    #[schema(max_length = 64)]
    pub nome: String,
    /// admin (administrador), clerk (atendente), inspector (fiscal),
    /// board (junta/comissão) ou read-only (consulta); nunca acima do papel
    /// de quem cadastra.
    pub papel: String,
    /// De 10 a 256 caracteres, difícil de adivinhar: são recusadas senhas
    /// comuns, sequências (`0123456789`, `abcdef`), repetições (`aaaa`), o
    /// nome do usuário ou parte dele (o motivo diz por quê e como escolher
    /// outra).
    #[schema(min_length = 10, max_length = 256)]
    pub senha: String,
    /// As jurisdições em que o usuário atua; omita para todas. Quem é
    /// limitado a algumas jurisdições só cadastra usuários dentro delas.
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
    /// Para que serve o token, como `integração-detran` (único por usuário,
    /// até 64 caracteres).
    #[schema(max_length = 64)]
    pub rotulo: String,
    /// O dia (AAAA-MM-DD) a partir do qual o token deixa de valer (às 00:00
    /// UTC desse dia), depois de hoje e em até 3660 dias; omita para um
    /// token que vale até ser revogado. Vencido, ele é recusado como um
    /// revogado.
    #[schema(format = Date, example = "2027-06-30")]
    pub expira_em: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenCriado {
    pub usuario: String,
    pub rotulo: String,
    /// Envie em Authorization: Bearer <token>. Mostrado só agora.
    pub token: String,
    /// Quando deixa de valer (UTC); `null` se não vence.
    pub expira_em: Option<String>,
    pub aviso: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenSaida {
    pub rotulo: String,
    pub criado_em: String,
    pub revogado_em: Option<String>,
    /// Quando deixa (ou deixou) de valer (UTC); `null` se não vence.
    pub expira_em: Option<String>,
}

impl From<TokenInfo> for TokenSaida {
    fn from(t: TokenInfo) -> TokenSaida {
        TokenSaida {
            rotulo: t.label,
            criado_em: t.created_at,
            revogado_em: t.revoked_at,
            expira_em: t.expires_at,
        }
    }
}

/// The user named in the path (`{nome}`).
async fn named(parts: &mut Parts, state: &AppState) -> Result<String, ApiError> {
    let params = RawPathParams::from_request_parts(parts, state)
        .await
        .map_err(|_| ApiError::field(StatusCode::BAD_REQUEST, "nome", crate::extract::NOT_UTF8))?;
    let name = params
        .iter()
        .find(|(name, _)| *name == "nome")
        .map(|(_, value)| value.trim().to_string())
        .ok_or_else(|| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "erro interno"))?;
    crate::extract::hidden("nome", &name)?;
    Ok(name)
}

fn scope_text(scope: &Scope) -> String {
    match scope {
        Scope::All => "todas".to_string(),
        Scope::Only(list) => list.join(", "),
    }
}

/// Refuses (403) a user `who` may not give `role` and `scope` to, or
/// manage with them.
fn within_reach(who: &User, what: &str, role: Role, scope: &Scope) -> Result<(), ApiError> {
    if who.may_manage(role, scope) {
        return Ok(());
    }
    Err(ApiError::forbidden(format!(
        "o usuário {} não pode {what}: só gerencia usuários com papel até {} e \
         jurisdições dentro das suas ({})",
        who.name,
        who.role.label(),
        scope_text(&who.scope)
    )))
}

async fn existing(state: &AppState, name: &str) -> Result<User, ApiError> {
    state
        .store
        .user(name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("o usuário `{name}` não existe")))
}

/// The user of the path, if the administrator asking manages them: 404
/// both when there is no such active user and when they are out of reach,
/// so a limited administrator does not learn which names exist elsewhere.
pub async fn managed_by(state: &AppState, who: &User, name: &str) -> Result<User, ApiError> {
    let out_of_reach = || {
        ApiError::not_found(format!(
            "não há usuário ativo `{name}` entre os que {} gerencia",
            who.name
        ))
    };
    let user = state.store.user(name).await?.ok_or_else(out_of_reach)?;
    if !who.may_manage(user.role, &user.scope) {
        return Err(out_of_reach());
    }
    Ok(user)
}

/// An administrator and a user they manage, named in the path.
#[derive(Debug)]
struct Managed {
    who: Principal,
    user: User,
}

impl FromRequestParts<AppState> for Managed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Admin(who) = Admin::from_request_parts(parts, state).await?;
        let name = named(parts, state).await?;
        let user = managed_by(state, &who.user, &name).await?;
        Ok(Managed { who, user })
    }
}

/// The owner of the tokens named in the path, or an administrator who
/// manages them: who may list and revoke them.
#[derive(Debug)]
struct TokenKeeper {
    who: Principal,
    user: User,
}

impl FromRequestParts<AppState> for TokenKeeper {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Reader(who) = Reader::from_request_parts(parts, state).await?;
        let name = named(parts, state).await?;
        if name == who.user.name {
            let user = who.user.clone();
            return Ok(TokenKeeper { who, user });
        }
        require(
            &who.user,
            Admin::admits,
            "administrador, ou o próprio usuário",
        )?;
        let user = managed_by(state, &who.user, &name).await?;
        Ok(TokenKeeper { who, user })
    }
}

/// Who may make a token for the user named in the path: the user
/// themselves, or an administrator without limits of jurisdiction (a
/// token acts as its owner, so no one else makes one).
#[derive(Debug)]
struct TokenMaker {
    who: Principal,
    user: User,
}

impl FromRequestParts<AppState> for TokenMaker {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Reader(who) = Reader::from_request_parts(parts, state).await?;
        let name = named(parts, state).await?;
        if name == who.user.name {
            let user = who.user.clone();
            return Ok(TokenMaker { who, user });
        }
        may_make_token_for(&who.user, &name)?;
        let user = existing(state, &name).await?;
        Ok(TokenMaker { who, user })
    }
}

/// Whether `who` may make an API token for the user `name`: themselves,
/// or an administrator without limits of jurisdiction (403 otherwise).
pub fn may_make_token_for(who: &User, name: &str) -> Result<(), ApiError> {
    if name == who.name || (Admin::admits(who.role) && who.scope == Scope::All) {
        return Ok(());
    }
    Err(ApiError::forbidden(format!(
        "o usuário {} não pode criar tokens para `{name}`: um token de API só é \
         criado pelo próprio usuário ou por um administrador sem restrição de \
         jurisdição",
        who.name
    )))
}

/// Creates a user with a role not above the administrator's and
/// jurisdictions within theirs (403 otherwise).
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
    let change = change!(state, who, "cadastro de usuário pela API");
    let user = create_user(&state, &who.user, &change, input).await?;
    Ok((StatusCode::CREATED, Json(user.into())))
}

/// Creates the user `input` describes, if `who` may give its role and
/// jurisdictions (403 otherwise): what `POST /api/users` and the
/// administration page do.
pub async fn create_user(
    state: &AppState,
    who: &User,
    change: &Change<'_>,
    input: UsuarioEntrada,
) -> Result<User, ApiError> {
    let role = Role::parse(&input.papel)?;
    let scope = input.jurisdicoes.map_or(Scope::All, Scope::Only);
    within_reach(
        who,
        &format!(
            "cadastrar {} com as jurisdições {}",
            role.label(),
            scope_text(&scope)
        ),
        role,
        &scope,
    )?;
    Ok(state
        .store
        .create_user(change, &input.nome, role, &input.senha, &scope)
        .await?)
}

/// The active users `who` manages (all, for an administrator without
/// limits of jurisdiction), by name: every user at once, as users are few.
pub async fn managed_users(state: &AppState, who: &User) -> Result<Vec<User>, ApiError> {
    let users = state.store.users().await?;
    Ok(users
        .into_iter()
        .filter(|user| who.may_manage(user.role, &user.scope))
        .collect())
}

/// The active users the administrator manages (all, for one without
/// limits of jurisdiction), by name.
#[utoipa::path(get, path = "/api/users", tag = "usuários",
    responses((status = 200, body = Vec<UsuarioSaida>), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    who: Admin,
) -> Result<Json<Vec<UsuarioSaida>>, ApiError> {
    let users = managed_users(&state, &who.user).await?;
    Ok(Json(users.into_iter().map(UsuarioSaida::from).collect()))
}

/// Creates an API token for a user, optionally with an expiry; the token
/// is shown once. Made by its owner (any role) or by an administrator
/// without limits of jurisdiction (403 otherwise).
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
    TokenMaker { who, user }: TokenMaker,
    Json(input): Json<TokenEntrada>,
) -> Result<(StatusCode, Json<TokenCriado>), ApiError> {
    let change = change!(state, who, "token de API criado pela API");
    let made = make_token(&state, &change, &user.name, &input).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// Makes an API token for `user` (who may: [`may_make_token_for`]), with
/// its expiry day if given: the token, shown once. What
/// `POST /api/users/{nome}/tokens` and the administration page do.
pub async fn make_token(
    state: &AppState,
    change: &Change<'_>,
    user: &str,
    input: &TokenEntrada,
) -> Result<TokenCriado, ApiError> {
    let expires = input
        .expira_em
        .as_deref()
        .filter(|day| !day.trim().is_empty())
        .map(|day| parse_day(day, "expira_em"))
        .transpose()?
        .map(|day| day.and_time(chrono::NaiveTime::MIN));
    let token = state
        .store
        .create_token(change, user, &input.rotulo, expires)
        .await?;
    Ok(TokenCriado {
        usuario: user.to_string(),
        rotulo: input.rotulo.trim().to_string(),
        token,
        expira_em: expires.map(|at| at.format("%Y-%m-%dT%H:%M:%SZ").to_string()),
        aviso: "guarde este token agora: ele não será mostrado de novo".into(),
    })
}

/// A user's API tokens (never the tokens themselves), with their expiry:
/// for their owner or an administrator who manages them.
#[utoipa::path(get, path = "/api/users/{nome}/tokens", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário")),
    responses((status = 200, body = Vec<TokenSaida>), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn tokens(
    State(state): State<AppState>,
    TokenKeeper { user, .. }: TokenKeeper,
) -> Result<Json<Vec<TokenSaida>>, ApiError> {
    let tokens = state.store.tokens(&user.name).await?;
    Ok(Json(tokens.into_iter().map(TokenSaida::from).collect()))
}

/// Revokes a user's API token: their owner or an administrator who
/// manages them.
#[utoipa::path(delete, path = "/api/users/{nome}/tokens/{rotulo}", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário"),
           ("rotulo" = String, Path, description = "o rótulo do token")),
    responses((status = 204, description = "token revogado"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn revoke_token(
    State(state): State<AppState>,
    TokenKeeper { who, user }: TokenKeeper,
    Path((_, rotulo)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let change = change!(state, who, "token de API revogado pela API");
    if state
        .store
        .revoke_token(&change, &user.name, &rotulo)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(format!(
            "o usuário `{}` não tem um token `{rotulo}` em vigor",
            user.name
        )))
    }
}

/// Disables a user the administrator manages: no more sign-ins; sessions
/// end and tokens are revoked.
#[utoipa::path(delete, path = "/api/users/{nome}", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário")),
    responses((status = 204, description = "usuário desativado"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn disable(
    State(state): State<AppState>,
    Managed { who, user }: Managed,
) -> Result<StatusCode, ApiError> {
    let change = change!(state, who, "usuário desativado pela API");
    state.store.disable_user(&change, &user.name).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SenhaEntrada {
    /// De 10 a 256 caracteres, difícil de adivinhar (as mesmas regras do
    /// cadastro).
    #[schema(min_length = 10, max_length = 256)]
    pub senha: String,
}

/// Sets the password of a user the administrator manages; their sessions
/// end.
#[utoipa::path(put, path = "/api/users/{nome}/password", tag = "usuários",
    params(("nome" = String, Path, description = "o usuário")),
    request_body = SenhaEntrada,
    responses((status = 204, description = "senha trocada"), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn password(
    State(state): State<AppState>,
    Managed { who, user }: Managed,
    Json(input): Json<SenhaEntrada>,
) -> Result<StatusCode, ApiError> {
    let change = change!(state, who, "senha trocada pela API");
    state
        .store
        .set_password(&change, &user.name, &input.senha)
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
