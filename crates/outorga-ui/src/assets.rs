//! The vendored front-end assets, embedded in the binary (pinned versions
//! and checksums in `assets/vendor/SHA256SUMS`, fetched by
//! `scripts/vendor-assets`): the gov.br Design System's CSS, htmx, the
//! Raleway font, and the application's own stylesheet and script (masks
//! and check digits while typing). Their names carry their versions (bump
//! the number when the file changes), so browsers may keep them for a year.

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Name, content type, bytes.
const FILES: &[(&str, &str, &[u8])] = &[
    (
        "govbr-ds-core-3.7.0.min.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/vendor/govbr-ds-core-3.7.0/core.min.css"),
    ),
    (
        "htmx-2.0.4.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/vendor/htmx-2.0.4/htmx.min.js"),
    ),
    (
        "raleway-latin-400-normal.woff2",
        "font/woff2",
        include_bytes!("../assets/vendor/raleway-5.3.0/raleway-latin-400-normal.woff2"),
    ),
    (
        "raleway-latin-600-normal.woff2",
        "font/woff2",
        include_bytes!("../assets/vendor/raleway-5.3.0/raleway-latin-600-normal.woff2"),
    ),
    (
        "raleway-latin-700-normal.woff2",
        "font/woff2",
        include_bytes!("../assets/vendor/raleway-5.3.0/raleway-latin-700-normal.woff2"),
    ),
    (
        "outorga-9.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/outorga.css"),
    ),
    (
        "outorga-2.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/outorga.js"),
    ),
];

pub(crate) async fn serve(Path(file): Path<String>) -> Response {
    let Some((_, kind, bytes)) = FILES.iter().find(|(name, _, _)| *name == file) else {
        return (StatusCode::NOT_FOUND, "arquivo não encontrado").into_response();
    };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ),
        ],
        *bytes,
    )
        .into_response()
}
