//! HTTP for outorga: the JSON API under `/api`, its OpenAPI document, and
//! authentication with roles.
//!
//! [`router`] builds the whole API from one [`AppState`] (the store, the
//! loaded rulebooks and a clock). Every route is declared with
//! `#[utoipa::path]` and registered through utoipa-axum's `OpenApiRouter`, so
//! a route exists if and only if it is in the OpenAPI document
//! (`GET /api/openapi.json`).
//!
//! # Adding an area (permits, autos, debts, agenda, public checks…)
//!
//! 1. Write `routes/<area>.rs` with its wire types (`#[derive(ToSchema)]`,
//!    Portuguese snake_case field names, `#[serde(deny_unknown_fields)]` on
//!    inputs) and `From`/`TryFrom` conversions to and from the store's types:
//!    domain and store types are never the wire format.
//! 2. Each handler takes first the capability it needs — [`auth::Reader`]
//!    (any signed-in user; all a read-only user may do), [`auth::Clerk`],
//!    [`auth::Inspector`], [`auth::Board`] or [`auth::Admin`] (an
//!    administrator passes every check) — then [`extract::Path`] and
//!    [`extract::Query`] (never axum's), then the body through
//!    [`json::Json`]: their rejections are Portuguese with the field. Under
//!    `/api/jurisdictions/{j}/…` the capability also refuses users whose
//!    scope leaves `j` out. Return `Result<_, ApiError>`: a `StoreError`
//!    converts with `?` (bad input 422, a duplicate 409, outages 503).
//!    Read "now" from `state.clock`, never from the system.
//! 3. End the file with `pub(crate) fn routes() -> OpenApiRouter<AppState>`
//!    listing its handlers with `routes!(…)`, and merge it in
//!    [`routes::api`]. The OpenAPI test then asks for the new paths to be
//!    listed in `tests/openapi.rs`.

pub mod auth;
pub mod client;
pub mod error;
pub mod extract;
pub mod json;
mod openapi;
pub mod page;
mod routes;
mod state;

pub use error::{ApiError, ErrorBody};
pub use openapi::openapi;
pub use state::{AppState, Clock, SystemClock};

/// The whole HTTP API, ready to serve.
pub fn router(state: AppState) -> axum::Router {
    let (router, _) = routes::api().split_for_parts();
    router
        .fallback(error::no_route)
        .method_not_allowed_fallback(error::no_method)
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            error::panicked,
        ))
        .with_state(state)
}
