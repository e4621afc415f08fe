//! Changing one's own password: the current one is checked as a sign-in is
//! (the same limits on failures, the attempt recorded), the new one set with
//! the store's rules (`set_password`: its policy, every session of the user
//! ended), and a new session opened for this browser.

use crate::pages::{Bar, failure, page};
use crate::session::{SESSION, Signed, same, set_cookie};
use askama::Template;
use axum::Form;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use outorga_store::{Change, SignIn, StoreError};
use outorga_web::AppState;
use outorga_web::client::ClientIp;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "senha.html")]
struct PasswordPage {
    user: Option<Bar>,
    csrf: String,
    error: Option<String>,
    done: bool,
}

fn form(signed: &Signed, status: StatusCode, error: Option<String>) -> Response {
    page(
        status,
        &PasswordPage {
            user: Some(Bar::of(signed)),
            csrf: signed.csrf(),
            error,
            done: false,
        },
    )
}

pub(crate) async fn password_form(signed: Signed) -> Response {
    form(&signed, StatusCode::OK, None)
}

#[derive(Debug, Deserialize)]
pub(crate) struct PasswordForm {
    #[serde(default)]
    atual: String,
    #[serde(default)]
    nova: String,
    #[serde(default)]
    confirmacao: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn change_password(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    signed: Signed,
    headers: HeaderMap,
    Form(input): Form<PasswordForm>,
) -> Response {
    if !same(&input.csrf, &signed.csrf()) {
        return form(
            &signed,
            StatusCode::FORBIDDEN,
            Some("O formulário expirou. Preencha-o de novo.".into()),
        );
    }
    if input.nova != input.confirmacao {
        return form(
            &signed,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("A confirmação não é igual à nova senha.".into()),
        );
    }
    let name = signed.user.name.clone();
    let now = state.clock.now();
    let expires = now + chrono::Duration::hours(crate::pages::SESSION_HOURS);
    // The current password, checked as a sign-in is.
    let checked = match state
        .store
        .sign_in(&name, &input.atual, client, now, expires)
        .await
    {
        Ok(SignIn::Opened(opened)) => opened.token,
        Ok(SignIn::Refused) => {
            return form(
                &signed,
                StatusCode::UNAUTHORIZED,
                Some("A senha atual está incorreta.".into()),
            );
        }
        Ok(SignIn::TooMany { seconds }) => {
            return form(
                &signed,
                StatusCode::TOO_MANY_REQUESTS,
                Some(format!(
                    "Tentativas falhas demais. Tente de novo em {seconds} segundos."
                )),
            );
        }
        Err(StoreError::Busy) => {
            return form(
                &signed,
                StatusCode::SERVICE_UNAVAILABLE,
                Some("O sistema está ocupado. Tente de novo em instantes.".into()),
            );
        }
        Err(error) => {
            tracing::error!(%error, "the current password could not be checked");
            return failure();
        }
    };
    let change = Change {
        by: &name,
        at: now,
        why: "senha trocada pelo próprio usuário",
    };
    match state.store.set_password(&change, &name, &input.nova).await {
        Ok(()) => {}
        Err(StoreError::Invalid { reason, .. }) => {
            // The session opened to check the current password ends here.
            if let Err(error) = state.store.close_session(&change, &checked).await {
                tracing::error!(%error, "a checking session could not be closed");
            }
            return form(
                &signed,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(format!("A nova senha não foi aceita: {reason}.")),
            );
        }
        Err(error) => {
            tracing::error!(%error, "the password could not be set");
            return failure();
        }
    }
    // Every session ended with the old password: this browser gets a new one.
    let token = match state
        .store
        .sign_in(&name, &input.nova, client, now, expires)
        .await
    {
        Ok(SignIn::Opened(opened)) => opened.token,
        _ => String::new(),
    };
    let mut answer = page(
        StatusCode::OK,
        &PasswordPage {
            user: None,
            csrf: String::new(),
            error: None,
            done: true,
        },
    );
    let cookie = if token.is_empty() {
        set_cookie(&headers, SESSION, "", 0)
    } else {
        set_cookie(
            &headers,
            SESSION,
            &token,
            crate::pages::SESSION_HOURS * 3600,
        )
    };
    answer.headers_mut().append(header::SET_COOKIE, cookie);
    answer
}
