//! The server's counters for monitoring, in the Prometheus text format.

use crate::auth::Admin;
use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use outorga_store::Scope;
use prometheus_client::encoding::prometheus_text::CONTENT_TYPE;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// This server process's counters in the Prometheus text format (0.0.4):
/// requests by method, route template and status, their durations, open
/// connections, connections refused past a cap and public look-ups refused
/// past a client's rate. The counts are this process's since it started:
/// behind a load balancer each server has its own. Administrators without a
/// jurisdiction scope only, since the counts span every jurisdiction.
#[utoipa::path(get, path = "/api/metrics", tag = "sistema",
    responses((status = 200, description = "as métricas no formato de texto do Prometheus",
               content_type = "text/plain; version=0.0.4; charset=utf-8", body = String),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn metrics(who: Admin, State(state): State<AppState>) -> Result<Response, ApiError> {
    if who.user.scope != Scope::All {
        return Err(ApiError::forbidden(
            "as métricas contam a atividade de todas as jurisdições: só um administrador \
             sem restrição de jurisdição as vê",
        ));
    }
    let text = state.metrics.encode().map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "não foi possível escrever as métricas",
        )
    })?;
    Ok(([(header::CONTENT_TYPE, CONTENT_TYPE)], text).into_response())
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(metrics))
}
