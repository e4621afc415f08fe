//! Red team W7: memory an anonymous client makes the server allocate with
//! one request body. A binary of its own (one test), since it reads the
//! process's peak resident memory (Linux `/proc`); nextest runs it alone in
//! its process.
//!
//! The JSON extractor parses every body into a `serde_json::Value` first
//! (to check text lengths, `limits.rs`), before anything else: a body of
//! 2 MB (axum's default limit) made of `0,` is a million values of about
//! 80 bytes each. `POST /api/session` takes no token, so anyone sends it,
//! as often and as concurrently as they like.

#[path = "api/common/mod.rs"]
mod common;

use axum::http::Method;
use common::App;

/// A field of `/proc/self/status`, in kB.
fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .expect("/proc/self/status")
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect(field)
}

#[tokio::test]
async fn an_anonymous_sign_in_body_raises_memory_thirty_times_its_size() {
    let app = App::sqlite().await;
    let mut body = String::with_capacity(2_000_000);
    body.push('[');
    while body.len() < 1_999_990 {
        body.push_str("0,");
    }
    body.push_str("0]");
    // Warm up (lazy statics, the router's first request).
    app.raw(
        Method::POST,
        "/api/session",
        None,
        Some("application/json"),
        "[0]",
    )
    .await;
    // Resets the peak resident size to the current one (Linux).
    std::fs::write("/proc/self/clear_refs", "5").expect("clear_refs");
    let before = status_kb("VmHWM:");
    let answer = app
        .raw(
            Method::POST,
            "/api/session",
            None,
            Some("application/json"),
            &body,
        )
        .await;
    let extra = status_kb("VmHWM:").saturating_sub(before);
    app.finish().await;
    assert!(answer.status.is_client_error(), "{:?}", answer.body);
    // The body itself is held twice (the request and its bytes): 4 MB.
    // Anything far past that is the extractor's doing.
    assert!(
        extra < 16 << 10,
        "one anonymous 2 MB body raised the peak memory by {} MB",
        extra >> 10
    );
}
