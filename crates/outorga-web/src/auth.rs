//! Who is asking, and whether their role admits the operation.
//!
//! Every request but the health check, the OpenAPI document, the login and
//! the public checks carries `Authorization: Bearer <token>`: a session
//! token (`POST /api/session`) or an API token. Each handler takes one
//! capability extractor — [`Reader`], [`Clerk`], [`Inspector`],
//! [`Examiner`], [`Issuer`], [`Board`], [`ClerkOrBoard`] or [`Admin`] — which answers
//! 401 without valid credentials, 403 when the user's role does not admit
//! it, and, under `/api/jurisdictions/{j}/…`, 404 when `j` is not recorded
//! and 403 when the user may not act in `j`. The public checks take
//! [`Public`], which only answers 404 for an unknown `j`. Capabilities
//! admit roles by [`Role`]'s order ("at least a clerk"), and run before the
//! body is read, so a role that could never pass gets 403 whatever it sends.

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use outorga_store::{Role, User};

/// The signed-in user, the token they presented and, when they gave one,
/// why they make the change (header `X-Motivo`, UTF-8: "Requerimento nº 12").
#[derive(Debug, Clone)]
pub struct Principal {
    pub user: User,
    pub token: String,
    pub reason: Option<String>,
}

impl Principal {
    /// The name changes are recorded under.
    pub fn name(&self) -> &str {
        &self.user.name
    }

    /// Why the change is made: the user's `X-Motivo`, or `default`.
    pub fn why<'a>(&'a self, default: &'a str) -> &'a str {
        self.reason.as_deref().unwrap_or(default)
    }
}

/// The `X-Motivo` header, trimmed, when it is UTF-8 text of 1 to 500 chars.
fn reason(parts: &Parts) -> Result<Option<String>, ApiError> {
    let Some(value) = parts.headers.get("x-motivo") else {
        return Ok(None);
    };
    let text = std::str::from_utf8(value.as_bytes())
        .map(str::trim)
        .map_err(|_| {
            ApiError::field(
                StatusCode::BAD_REQUEST,
                "X-Motivo",
                "o motivo não é texto UTF-8",
            )
        })?;
    if let Some((at, c)) = outorga_store::hidden_character(text, false) {
        return Err(ApiError::field(
            StatusCode::BAD_REQUEST,
            "X-Motivo",
            outorga_store::hidden_reason(at, c),
        ));
    }
    match text.chars().count() {
        0 => Ok(None),
        1..=500 => Ok(Some(text.to_string())),
        _ => Err(ApiError::field(
            StatusCode::BAD_REQUEST,
            "X-Motivo",
            "o motivo tem no máximo 500 caracteres",
        )),
    }
}

/// The bearer token of the request, if it carries one.
fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Refuses (403) a user whose role `admits` does not accept; for routes
/// whose required role depends on what is asked (the steps of an auto, a
/// permit's status), after a capability admitting every role that could.
pub fn require(user: &User, admits: fn(Role) -> bool, requires: &str) -> Result<(), ApiError> {
    if admits(user.role) {
        Ok(())
    } else {
        Err(ApiError::forbidden(format!(
            "o papel {} não permite esta operação (requer: {requires})",
            user.role.label()
        )))
    }
}

/// The jurisdiction `j` of the path, if the route has one: 404 when it is
/// not recorded. The one place a path's jurisdiction is checked.
async fn path_jurisdiction(
    parts: &mut Parts,
    state: &AppState,
) -> Result<Option<String>, ApiError> {
    // A path that does not decode names no jurisdiction one may check:
    // refused, never let past the scope.
    let params = RawPathParams::from_request_parts(parts, state)
        .await
        .map_err(|rejection| {
            // axum names the parameter: "Invalid UTF-8 in `placa`".
            let text = rejection.body_text();
            let name = text.split('`').nth(1).unwrap_or("rota").to_string();
            ApiError::field(StatusCode::BAD_REQUEST, name, crate::extract::NOT_UTF8)
        })?;
    let Some((_, j)) = params.iter().find(|(name, _)| *name == "j") else {
        return Ok(None);
    };
    crate::extract::hidden("j", j)?;
    if state.store.has_jurisdiction(j).await? {
        Ok(Some(j.to_string()))
    } else {
        Err(ApiError::not_found(format!(
            "a jurisdição `{j}` não está cadastrada; veja GET /api/jurisdictions"
        )))
    }
}

/// Authenticates the request and checks the role with `admits`, then the
/// jurisdiction of the path, if there is one: known (404), and in the
/// user's scope (403).
async fn authorize(
    parts: &mut Parts,
    state: &AppState,
    admits: fn(Role) -> bool,
    requires: &str,
) -> Result<Principal, ApiError> {
    let Some(token) = bearer(parts) else {
        return Err(ApiError::unauthorized(
            "autenticação necessária: envie o cabeçalho Authorization: Bearer <token> \
             (obtenha um token em POST /api/session)",
        ));
    };
    let token = token.to_string();
    let Some(user) = state.store.authenticate(&token, state.clock.now()).await? else {
        return Err(ApiError::unauthorized(
            "token inválido, expirado ou revogado; entre de novo em POST /api/session",
        ));
    };
    // The request log names who asked (never their token).
    tracing::Span::current().record("user", user.name.as_str());
    require(&user, admits, requires)?;
    if let Some(jurisdiction) = path_jurisdiction(parts, state).await?
        && !user.scope.allows(&jurisdiction)
    {
        return Err(ApiError::forbidden(format!(
            "o usuário {} não tem acesso à jurisdição `{jurisdiction}`",
            user.name
        )));
    }
    Ok(Principal {
        user,
        token,
        reason: reason(parts)?,
    })
}

/// No credentials: the public checks. Only the path's jurisdiction is
/// checked (404 when unknown); nothing is looked up about the caller.
#[derive(Debug, Clone, Copy)]
pub struct Public;

impl FromRequestParts<AppState> for Public {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        path_jurisdiction(parts, state).await.map(|_| Public)
    }
}

macro_rules! capability {
    ($(#[$doc:meta])* $name:ident, $requires:literal, [$($least:expr),+]) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $name(pub Principal);

        impl $name {
            /// Whether a user with `role` has this capability: a role at
            /// least one of these (see the order of [`Role`]).
            pub fn admits(role: Role) -> bool {
                [$($least),+].into_iter().any(|least: Role| role >= least)
            }
        }

        impl std::ops::Deref for $name {
            type Target = Principal;
            fn deref(&self) -> &Principal {
                &self.0
            }
        }

        impl FromRequestParts<AppState> for $name {
            type Rejection = ApiError;

            async fn from_request_parts(
                parts: &mut Parts,
                state: &AppState,
            ) -> Result<Self, ApiError> {
                authorize(parts, state, Self::admits, $requires).await.map($name)
            }
        }
    };
}

capability!(
    /// Any signed-in user: reading the registers, ending one's own session.
    /// All a read-only user (consulta) can do.
    Reader,
    "qualquer papel",
    [Role::ReadOnly]
);
capability!(
    /// Registering and changing records: clerks (atendentes).
    Clerk,
    "atendente",
    [Role::Clerk]
);
capability!(
    /// Field inspection: inspectors (fiscais) record infraction notices.
    Inspector,
    "fiscal",
    [Role::Inspector]
);
capability!(
    /// Recording inspections of vehicles: inspectors (fiscais) and clerks.
    Examiner,
    "fiscal ou atendente",
    [Role::Clerk, Role::Inspector]
);
capability!(
    /// Judging and overseeing: the appeals board (junta/comissão), which
    /// also reads the audit log.
    Board,
    "junta/comissão",
    [Role::Board]
);
capability!(
    /// Printing the papers of the procedure (the auto, its notification, the
    /// notice of the decision, a payment slip): whoever acts on it.
    Issuer,
    "atendente, fiscal ou junta/comissão",
    [Role::Clerk, Role::Inspector, Role::Board]
);
capability!(
    /// What clerks do and the board decides on one route (the steps of an
    /// auto, a permit's status): the handler then requires the one the
    /// request needs.
    ClerkOrBoard,
    "atendente ou junta/comissão",
    [Role::Clerk, Role::Board]
);
capability!(
    /// Users, tokens and the deployment: administrators only.
    Admin,
    "administrador",
    [Role::Admin]
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_administrator_passes_every_check_and_read_only_only_reads() {
        let checks: [fn(Role) -> bool; 5] = [
            Reader::admits,
            Clerk::admits,
            Inspector::admits,
            Board::admits,
            Admin::admits,
        ];
        assert!(checks.iter().all(|admits| admits(Role::Admin)));
        let read_only: Vec<bool> = checks.iter().map(|admits| admits(Role::ReadOnly)).collect();
        assert_eq!(read_only, [true, false, false, false, false]);
        assert!(Inspector::admits(Role::Inspector) && !Clerk::admits(Role::Inspector));
        assert!(Board::admits(Role::Board) && !Inspector::admits(Role::Board));
        let either: Vec<bool> = Role::ALL.into_iter().map(ClerkOrBoard::admits).collect();
        assert_eq!(either, [true, true, false, true, false]);
        let examiner: Vec<bool> = Role::ALL.into_iter().map(Examiner::admits).collect();
        assert_eq!(examiner, [true, true, true, false, false]);
    }
}
