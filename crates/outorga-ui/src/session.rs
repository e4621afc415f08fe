//! The cookie session of the pages, over the store's sessions (the same
//! ones `POST /api/session` opens): the cookie holds the session's token,
//! HttpOnly (no script reads it), SameSite=Strict (no other site's page
//! sends it) and Secure when the request came through TLS. Every form
//! carries a CSRF token: for a signed-in user, a digest of their session
//! token (no other site can compute it); for the sign-in form, the value of
//! a cookie set with the form (double submit).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{StoreError, User};
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

/// The user the request's session cookie stands for now, if any (none
/// without a cookie, or with one expired or revoked).
pub(crate) async fn signed_in(
    headers: &HeaderMap,
    state: &AppState,
) -> Result<Option<Signed>, StoreError> {
    let Some(token) = cookie(headers, SESSION) else {
        return Ok(None);
    };
    let user = state.store.authenticate(&token, state.clock.now()).await?;
    Ok(user.map(|user| Signed { user, token }))
}

impl FromRequestParts<AppState> for Signed {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let to_sign_in = || Redirect::to("/entrar").into_response();
        match signed_in(&parts.headers, state).await {
            Ok(Some(signed)) => Ok(signed),
            Ok(None) if cookie(&parts.headers, SESSION).is_none() => Err(to_sign_in()),
            Ok(None) => {
                let mut answer = to_sign_in();
                answer.headers_mut().append(
                    header::SET_COOKIE,
                    set_cookie(&parts.headers, SESSION, "", 0),
                );
                Err(answer)
            }
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
