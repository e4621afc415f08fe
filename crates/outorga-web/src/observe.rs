//! The request log and the request metrics: one line per request with its
//! method, route template, status, latency and user.
//!
//! The route is the template (`/api/jurisdictions/{j}/people/{documento}`),
//! never the path or the query, which can hold CPFs; tokens, passwords and
//! bodies are never logged. The `user` field of the request's span is
//! empty until authentication records who asked (`auth.rs`).

use crate::metrics::Metrics;
use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::sync::Arc;
use std::time::Instant;
use tracing::Instrument as _;

/// The route of a request that matched none (answered 404).
const NO_ROUTE: &str = "(nenhuma)";

/// Runs the request inside its span, then logs and counts its answer.
pub(crate) async fn observe(
    State(metrics): State<Arc<Metrics>>,
    request: Request,
    next: Next,
) -> Response {
    // Latency is measured, not "now" of the law: the monotonic clock.
    let started = Instant::now();
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(NO_ROUTE, MatchedPath::as_str)
        .to_string();
    let span = tracing::info_span!(
        "request",
        method = %method,
        route = %route,
        user = tracing::field::Empty,
    );
    let response = next.run(request).instrument(span.clone()).await;
    let took = started.elapsed();
    let status = response.status().as_u16();
    span.in_scope(|| tracing::info!(status, latency = ?took, "answered"));
    metrics.request(&method, &route, status, took);
    response
}
