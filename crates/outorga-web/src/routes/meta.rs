//! The health check and the OpenAPI document.

use crate::error::{ApiError, ErrorBody};
use crate::json::Json;
use crate::state::AppState;
use axum::extract::State;
use serde::Serialize;
use std::sync::LazyLock;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct Saude {
    /// `ok` when the server answers and reaches its database.
    pub status: String,
}

/// Whether the server is up and reaches its database.
#[utoipa::path(get, path = "/api/health", tag = "sistema",
    responses((status = 200, body = Saude), (status = 503, body = ErrorBody)))]
async fn health(State(state): State<AppState>) -> Result<Json<Saude>, ApiError> {
    state.store.jurisdictions().await?;
    Ok(Json(Saude {
        status: "ok".into(),
    }))
}

static DOCUMENT: LazyLock<utoipa::openapi::OpenApi> = LazyLock::new(crate::openapi);

/// This API's OpenAPI 3 document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "sistema",
    responses((status = 200, description = "o documento OpenAPI 3")))]
async fn openapi_json() -> Json<&'static utoipa::openapi::OpenApi> {
    Json(&DOCUMENT)
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(openapi_json))
}
