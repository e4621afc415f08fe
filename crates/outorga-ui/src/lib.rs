//! The web application the department works in: pages rendered on the
//! server (askama templates, checked at compile time), in Portuguese, on
//! the same store and workflows as the JSON API — never a second copy of a
//! rule. Assets are vendored and embedded (`assets.rs`): it works offline.
//!
//! - `session.rs`: the cookie session (HttpOnly, SameSite=Strict, Secure
//!   behind TLS) over the store's sessions, and the CSRF token of each form;
//! - `pages.rs`: the first screens — the home page, sign-in and sign-out,
//!   the panel with the user's agenda per jurisdiction;
//! - `password.rs`: changing one's own password;
//! - `format.rs`: dates as users read them (dd/mm/aaaa).

mod assets;
mod format;
mod pages;
mod password;
mod session;

use axum::Router;
use axum::routing::{get, post};
use outorga_web::AppState;

/// How the pages are served.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The server runs with the demo records and users: the home page says
    /// how to sign in with them.
    pub demo: bool,
}

/// The pages, for `outorga_web::router_with`.
pub fn routes(options: Options) -> Router<AppState> {
    Router::new()
        .route("/", get(pages::home))
        .route("/entrar", get(pages::sign_in_form).post(pages::sign_in))
        .route("/sair", post(pages::sign_out))
        .route("/painel", get(pages::panel))
        .route(
            "/senha",
            get(password::password_form).post(password::change_password),
        )
        .route("/static/{file}", get(assets::serve))
        .layer(axum::Extension(options))
}
