//! Signing in to the holder's space through gov.br's Login Único: OpenID
//! Connect's authorization code flow with PKCE (S256), a `state` and a
//! nonce (openidconnect). The `state`'s SHA-256, the PKCE verifier and the
//! nonce wait in the database (`citizen_logins`), so the browser may come
//! back to any server; the ID token's signature (the provider's keys),
//! issuer, audience, expiry and nonce are checked; its subject is the CPF
//! (gov.br's `sub`), which must be registered in some jurisdiction.
//! The provider is found by discovery at each sign-in (no state kept in the
//! process).

use crate::pages::{failure, page};
use crate::session::set_cookie;
use crate::titular::{CITIZEN, SESSION_HOURS};
use askama::Template;
use axum::Extension;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointMaybeSet, EndpointNotSet,
    EndpointSet, IssuerUrl, Nonce, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope,
};
use outorga_web::AppState;
use serde::Deserialize;

/// The deployment's client at gov.br (or at a test provider).
#[derive(Debug, Clone)]
pub struct GovBr {
    /// The provider (`https://sso.acesso.gov.br`).
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Where the provider sends the browser back:
    /// `<endereço público>/titular/govbr/retorno`.
    pub redirect: String,
}

#[derive(Template)]
#[template(path = "titular-govbr.html")]
struct Failed<'a> {
    message: &'a str,
}

fn failed(status: StatusCode, message: &str) -> Response {
    page(status, &Failed { message })
}

/// The HTTP client the provider is reached with (no redirects followed:
/// they would open it to requests it did not mean).
fn http() -> Result<openidconnect::reqwest::Client, String> {
    openidconnect::reqwest::ClientBuilder::new()
        .redirect(openidconnect::reqwest::redirect::Policy::none())
        .timeout(std::time::Duration::from_secs(15))
        .build()
        .map_err(|e| e.to_string())
}

/// The client as discovery makes it: the authorization endpoint set, the
/// token and user-info endpoints as the provider publishes them.
type Client = CoreClient<
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointMaybeSet,
    EndpointMaybeSet,
>;

/// The deployment's client at the provider (found by discovery), and the
/// HTTP client that reaches it.
async fn client(govbr: &GovBr) -> Result<(Client, openidconnect::reqwest::Client), String> {
    let http = http()?;
    let issuer = IssuerUrl::new(govbr.issuer.clone()).map_err(|e| e.to_string())?;
    let provider = CoreProviderMetadata::discover_async(issuer, &http)
        .await
        .map_err(|e| e.to_string())?;
    let redirect = RedirectUrl::new(govbr.redirect.clone()).map_err(|e| e.to_string())?;
    let client = CoreClient::from_provider_metadata(
        provider,
        ClientId::new(govbr.client_id.clone()),
        govbr.client_secret.clone().map(ClientSecret::new),
    )
    .set_redirect_uri(redirect);
    Ok((client, http))
}

fn unavailable(error: &str) -> Response {
    tracing::error!(%error, "gov.br could not be reached");
    failed(
        StatusCode::BAD_GATEWAY,
        "O gov.br não respondeu. Tente de novo em instantes, ou entre com o CPF e a senha.",
    )
}

/// Sends the browser to gov.br. Each start asks the provider (discovery)
/// and keeps a row for ten minutes: held to the public look-ups' rate per
/// address.
pub(crate) async fn start(
    _: outorga_web::limits::PublicLookup,
    State(state): State<AppState>,
    Extension(options): Extension<crate::Options>,
) -> Response {
    let Some(govbr) = options.govbr else {
        return failed(
            StatusCode::NOT_FOUND,
            "Este órgão não oferece a entrada pelo gov.br: entre com o CPF e a senha.",
        );
    };
    let (client, _) = match client(govbr).await {
        Ok(found) => found,
        Err(error) => return unavailable(&error),
    };
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, csrf, nonce) = client
        .authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        )
        .add_scope(Scope::new("openid".into()))
        .set_pkce_challenge(challenge)
        .url();
    if let Err(error) = state
        .store
        .begin_govbr(
            csrf.secret(),
            (verifier.secret(), nonce.secret()),
            state.clock.now(),
        )
        .await
    {
        tracing::error!(%error, "a gov.br sign-in could not be started");
        return failure();
    }
    Redirect::to(url.as_str()).into_response()
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Back {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// The browser back from gov.br: the code exchanged (with the PKCE
/// verifier), the ID token checked, the session opened.
pub(crate) async fn back(
    _: outorga_web::limits::PublicLookup,
    State(state): State<AppState>,
    Extension(options): Extension<crate::Options>,
    headers: HeaderMap,
    Query(back): Query<Back>,
) -> Response {
    let Some(govbr) = options.govbr else {
        return failed(
            StatusCode::NOT_FOUND,
            "Este órgão não oferece a entrada pelo gov.br: entre com o CPF e a senha.",
        );
    };
    if back.error.is_some() {
        return failed(
            StatusCode::UNAUTHORIZED,
            "A entrada pelo gov.br foi cancelada ou recusada. Tente de novo, ou entre com o CPF e a senha.",
        );
    }
    let (Some(code), Some(returned)) = (back.code, back.state) else {
        return failed(
            StatusCode::BAD_REQUEST,
            "O gov.br não devolveu o que a entrada precisa. Tente de novo.",
        );
    };
    let now = state.clock.now();
    let pending = match state.store.take_govbr(&returned, now).await {
        Ok(Some(pending)) => pending,
        Ok(None) => {
            return failed(
                StatusCode::UNAUTHORIZED,
                "Esta entrada pelo gov.br expirou ou já foi usada. Comece de novo.",
            );
        }
        Err(error) => {
            tracing::error!(%error, "a gov.br sign-in could not be read");
            return failure();
        }
    };
    let (verifier, nonce) = pending;
    let (client, http) = match client(govbr).await {
        Ok(found) => found,
        Err(error) => return unavailable(&error),
    };
    let exchanged = match client.exchange_code(AuthorizationCode::new(code)) {
        Ok(request) => {
            request
                .set_pkce_verifier(PkceCodeVerifier::new(verifier))
                .request_async(&http)
                .await
        }
        Err(error) => return unavailable(&error.to_string()),
    };
    let tokens = match exchanged {
        Ok(tokens) => tokens,
        Err(error) => {
            tracing::warn!(error = %error, "gov.br refused the code");
            return failed(
                StatusCode::UNAUTHORIZED,
                "O gov.br não confirmou a entrada. Comece de novo.",
            );
        }
    };
    use openidconnect::TokenResponse as _;
    let Some(id_token) = tokens.id_token() else {
        return unavailable("no ID token in the token response");
    };
    let verifier = client.id_token_verifier();
    let claims = match id_token.claims(&verifier, &Nonce::new(nonce)) {
        Ok(claims) => claims,
        Err(error) => {
            tracing::warn!(%error, "an ID token from gov.br was refused");
            return failed(
                StatusCode::UNAUTHORIZED,
                "A resposta do gov.br não pôde ser conferida. Comece de novo.",
            );
        }
    };
    let cpf = claims.subject().as_str().to_string();
    let expires = now + chrono::Duration::hours(SESSION_HOURS);
    match state.store.govbr_session(&cpf, (now, expires)).await {
        Ok(Some(opened)) => {
            let mut answer = Redirect::to("/titular/painel").into_response();
            answer.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&headers, CITIZEN, &opened.token, SESSION_HOURS * 3600),
            );
            answer
        }
        Ok(None) => failed(
            StatusCode::FORBIDDEN,
            "O gov.br confirmou o seu CPF, mas nenhum órgão que usa este sistema tem cadastro dele. Procure o atendimento.",
        ),
        Err(error) => {
            tracing::error!(%error, "a gov.br session could not be opened");
            failure()
        }
    }
}
