//! The cookie session of the pages, over the store's sessions (the same
//! ones `POST /api/session` opens): the cookie holds the session's token,
//! HttpOnly (no script reads it), SameSite=Strict (no other site's page
//! sends it) and Secure when the request came through TLS. Every form
//! carries a CSRF token: for a signed-in user, a digest of their session
//! token (no other site can compute it); for the sign-in form, the value of
//! a cookie set with the form (double submit).

use crate::Options;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Activity, Change, StoreError, User};
use outorga_web::AppState;
use sha2::{Digest, Sha256};

/// The cookie that holds the session's token.
pub(crate) const SESSION: &str = "outorga_sessao";
/// The cookie that holds the sign-in form's token.
pub(crate) const SIGN_IN: &str = "outorga_entrada";

/// The value of cookie `name` in the request, if any.
pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_string())
        .filter(|value| !value.is_empty())
}

/// Whether the request came through TLS (a proxy in front says so).
fn secure(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// A `Set-Cookie` value for `name`, living `seconds` (0: removed).
pub(crate) fn set_cookie(
    headers: &HeaderMap,
    name: &str,
    value: &str,
    seconds: i64,
) -> HeaderValue {
    let secure = if secure(headers) { "; Secure" } else { "" };
    let text =
        format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={seconds}{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The CSRF token of the forms of the session whose token is `token`.
pub(crate) fn csrf_of(token: &str) -> String {
    let digest = Sha256::digest(format!("outorga-csrf\0{token}").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A random token for the sign-in form (32 hex digits).
pub(crate) fn fresh_token() -> String {
    let mut bytes = [0u8; 16];
    // Without the system's randomness the form's token is empty, and the
    // form is refused: nothing is weakened.
    if getrandom::fill(&mut bytes).is_err() {
        return String::new();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares two tokens in time independent of where they differ.
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && !a.is_empty()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Whether a form sent by `signed` may act: its CSRF token is the session's
/// and the user's role admits the action; otherwise the page that refuses
/// (403), as the API refuses.
pub(crate) fn checked_form(
    signed: &Signed,
    csrf: &str,
    admits: fn(outorga_store::Role) -> bool,
) -> Result<(), Box<Response>> {
    if !same(csrf, &signed.csrf()) {
        return Err(Box::new(crate::place::refusal(
            signed,
            axum::http::StatusCode::FORBIDDEN,
            "Formulário expirado",
            "A página que enviou este pedido é antiga. Volte à página anterior, recarregue-a e tente de novo.",
        )));
    }
    if !admits(signed.user.role) {
        return Err(Box::new(crate::place::refusal(
            signed,
            axum::http::StatusCode::FORBIDDEN,
            "Ação não permitida",
            &format!(
                "O papel {} não permite esta ação. Peça a quem tem o papel adequado.",
                signed.user.role.label()
            ),
        )));
    }
    Ok(())
}

/// Whether `signed` may reach a page only administrators reach; otherwise
/// the page that refuses (403), saying `why` (who does what there).
pub(crate) fn admin_only(signed: &Signed, why: &str) -> Result<(), Box<Response>> {
    if outorga_web::auth::Admin::admits(signed.user.role) {
        return Ok(());
    }
    Err(Box::new(crate::place::refusal(
        signed,
        axum::http::StatusCode::FORBIDDEN,
        "Só para administradores",
        &format!(
            "{why} O papel {} não dá acesso a esta página.",
            signed.user.role.label()
        ),
    )))
}

/// Whether `signed` may reach a page of a clerk's work (`Clerk`: clerks
/// and the roles above them); otherwise the page that refuses (403),
/// naming what would be done there (`importar registros`).
pub(crate) fn clerk_only(signed: &Signed, what: &str) -> Result<(), Box<Response>> {
    if outorga_web::auth::Clerk::admits(signed.user.role) {
        return Ok(());
    }
    Err(Box::new(crate::place::refusal(
        signed,
        axum::http::StatusCode::FORBIDDEN,
        "Ação não permitida",
        &format!(
            "O papel {} não permite {what}. Peça a quem tem o papel de atendente.",
            signed.user.role.label()
        ),
    )))
}

/// The user signed in by the request's cookie; without one (or with one
/// expired or revoked), the answer is the sign-in page.
#[derive(Debug, Clone)]
pub(crate) struct Signed {
    pub user: User,
    pub token: String,
}

impl Signed {
    pub fn csrf(&self) -> String {
        csrf_of(&self.token)
    }
}

/// Where the request's session cookie stands now.
#[derive(Debug)]
pub(crate) enum Standing {
    /// No cookie, or one whose session expired, ended or was revoked.
    Out,
    /// The session was unused for longer than the idle limit: it is ended.
    Idle,
    Signed(Signed),
}

/// The user the request's session cookie stands for now, if any: a
/// session unused for `idle` is ended (audited, as a sign-out) and counts
/// as none.
pub(crate) async fn standing(
    headers: &HeaderMap,
    state: &AppState,
    idle: chrono::Duration,
) -> Result<Standing, StoreError> {
    let Some(token) = cookie(headers, SESSION) else {
        return Ok(Standing::Out);
    };
    let now = state.clock.now();
    let Some(user) = state.store.authenticate(&token, now).await? else {
        return Ok(Standing::Out);
    };
    match state.store.session_activity(&token, now, idle).await? {
        Activity::Active => Ok(Standing::Signed(Signed { user, token })),
        Activity::Idle => {
            let change = Change {
                by: &user.name,
                at: now,
                why: "sessão encerrada por inatividade",
            };
            state.store.close_session(&change, &token).await?;
            Ok(Standing::Idle)
        }
    }
}

/// The user signed in by the request's cookie, if any (a session that
/// cannot be read counts as none: the page asks to sign in).
pub(crate) async fn signed_in(
    headers: &HeaderMap,
    state: &AppState,
    options: &Options,
) -> Option<Signed> {
    match standing(headers, state, options.idle()).await {
        Ok(Standing::Signed(signed)) => Some(signed),
        Ok(_) => None,
        Err(error) => {
            tracing::error!(%error, "the session could not be read");
            None
        }
    }
}

/// Where a session unused for too long is sent: the sign-in page, saying so.
pub(crate) const IDLE_SIGN_IN: &str = "/entrar?motivo=inatividade";

impl FromRequestParts<AppState> for Signed {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let options = parts
            .extensions
            .get::<Options>()
            .copied()
            .unwrap_or_default();
        let away = |to: &str| {
            let mut answer = Redirect::to(to).into_response();
            if cookie(&parts.headers, SESSION).is_some() {
                answer.headers_mut().append(
                    header::SET_COOKIE,
                    set_cookie(&parts.headers, SESSION, "", 0),
                );
            }
            answer
        };
        match standing(&parts.headers, state, options.idle()).await {
            Ok(Standing::Signed(signed)) => Ok(signed),
            Ok(Standing::Out) => Err(away("/entrar")),
            Ok(Standing::Idle) => Err(away(IDLE_SIGN_IN)),
            Err(error) => {
                tracing::error!(%error, "the session could not be read");
                Err(crate::pages::failure())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; outorga_sessao=abc; b=2"),
        );
        assert_eq!(cookie(&headers, SESSION).as_deref(), Some("abc"));
        assert_eq!(cookie(&headers, SIGN_IN), None);
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
        assert!(!same("", ""));
        assert_ne!(csrf_of("one"), csrf_of("two"));
        assert_eq!(fresh_token().len(), 32);
    }
}
