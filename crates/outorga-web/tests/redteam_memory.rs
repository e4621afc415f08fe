//! Red team W7: memory an anonymous client makes the server allocate with
//! one request body. A binary of its own (one test) so its allocator
//! counts nothing else; nextest runs it in its own process.
//!
//! The JSON extractor parses every body into a `serde_json::Value` first
//! (to check text lengths, `limits.rs`), before anything else: a body of
//! 2 MB (axum's default limit) made of `0,` is a million values of about
//! 80 bytes each. `POST /api/session` takes no token, so anyone sends it,
//! as often and as concurrently as they like.

mod common;

use axum::http::Method;
use common::App;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = NOW.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(now, Ordering::SeqCst);
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: `ptr` was allocated by `alloc` above with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[tokio::test]
async fn an_anonymous_sign_in_body_costs_forty_times_its_size() {
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
    let before = NOW.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let answer = app
        .raw(
            Method::POST,
            "/api/session",
            None,
            Some("application/json"),
            &body,
        )
        .await;
    let extra = PEAK.load(Ordering::SeqCst).saturating_sub(before);
    app.finish().await;
    assert!(answer.status.is_client_error(), "{:?}", answer.body);
    // The body itself is held twice (the request and its bytes): 4 MB.
    // Anything far past that is the extractor's doing.
    assert!(
        extra < 16 << 20,
        "one anonymous 2 MB body made the server allocate {} MB at once",
        extra >> 20
    );
}
