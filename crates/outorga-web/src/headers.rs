//! The security headers of every answer. Each is set only when the handler
//! did not set its own, so a page with its own policy (a web interface to
//! come) keeps it.

use axum::Router;
use axum::http::{HeaderName, HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;

/// The headers and their values for a JSON API: nothing on it is a page
/// to render, frame, sniff, cache or refer from.
const SECURITY_HEADERS: [(HeaderName, &str); 5] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; frame-ancestors 'none'",
    ),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "no-referrer"),
    // Answers carry tokens (sessions, API tokens) and personal data:
    // neither the browser nor a proxy may keep them.
    (header::CACHE_CONTROL, "no-store"),
];

/// `router` with the security headers on each of its answers.
pub(crate) fn secured<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    SECURITY_HEADERS
        .into_iter()
        .fold(router, |router, (name, value)| {
            router.layer(SetResponseHeaderLayer::if_not_present(
                name,
                HeaderValue::from_static(value),
            ))
        })
}
