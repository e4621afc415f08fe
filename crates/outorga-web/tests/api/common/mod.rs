//! The API on both backends, through the router (no sockets): SQLite in a
//! temporary directory, and the PostgreSQL server every machine runs
//! (database `test`, or `OUTORGA_TEST_DATABASE_URL`), each test in a schema
//! of its own. A PostgreSQL that cannot be reached fails the test.

#![allow(dead_code)] // each test binary uses its own part of this helper

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use chrono::NaiveDateTime;
use outorga_store::{
    AuditKey, AuditKeys, Change, HashingLimits, Jurisdiction, Role, Scope, Store, sqlite_url,
};
use outorga_web::client::ClientIp;
use outorga_web::{AppState, Clock};
use serde_json::Value;
use sqlx::any::AnyPoolOptions;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};
use tower::ServiceExt;

const PG: &str = "postgres://postgres@127.0.0.1:5432/test";

/// Runs `$case(&App)` once per backend, as `$case::sqlite` and
/// `$case::postgres`.
#[macro_export]
macro_rules! on_both_backends {
    ($($case:ident),* $(,)?) => {$(
        mod $case {
            #[tokio::test]
            async fn sqlite() {
                let app = $crate::common::App::sqlite().await;
                super::$case(&app).await;
                app.finish().await;
            }

            #[tokio::test]
            async fn postgres() {
                let app = $crate::common::App::postgres(stringify!($case)).await;
                super::$case(&app).await;
                app.finish().await;
            }
        }
    )*};
}

/// A clock the test moves by hand.
#[derive(Debug)]
pub struct TestClock(Mutex<NaiveDateTime>);

impl Clock for TestClock {
    fn now(&self) -> NaiveDateTime {
        *self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl TestClock {
    /// Moves the clock to 09:00 of `day` (YYYY-MM-DD), never back.
    pub fn to_day(&self, day: &str) {
        let at = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(9, 0, 0))
            .expect("a date");
        let mut now = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *now = (*now).max(at);
    }

    pub fn advance(&self, hours: i64) {
        self.advance_seconds(hours * 3600);
    }

    pub fn advance_seconds(&self, seconds: i64) {
        let mut now = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *now += chrono::Duration::seconds(seconds);
    }
}

pub fn start() -> NaiveDateTime {
    chrono::NaiveDate::from_ymd_opt(2026, 11, 30)
        .and_then(|d| d.and_hms_opt(9, 0, 0))
        .expect("date")
}

/// The operator who sets a test up.
pub fn setup() -> Change<'static> {
    Change {
        by: "preparo-do-teste",
        at: start(),
        why: "teste automatizado",
    }
}

pub fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

/// One answer: status, JSON body (`Null` when empty) and the
/// `Retry-After` header, if any.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
    pub retry_after: Option<String>,
}

impl Answer {
    pub fn text(&self, key: &str) -> String {
        self.body[key].as_str().unwrap_or_default().to_string()
    }
}

pub struct App {
    pub store: Store,
    pub router: axum::Router,
    state: AppState,
    pub clock: Arc<TestClock>,
    schema: Option<String>,
    _dir: Option<tempfile::TempDir>,
}

impl App {
    pub async fn sqlite() -> App {
        App::sqlite_with(&rulebooks()).await
    }

    pub async fn postgres(tag: &str) -> App {
        App::postgres_with(tag, &rulebooks()).await
    }

    /// On SQLite, with the rulebooks of `folder`.
    pub async fn sqlite_with(folder: &std::path::Path) -> App {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = sqlite_url(dir.path()).expect("url");
        App::on(&url, None, Some(dir), folder).await
    }

    /// On PostgreSQL (a schema of its own), with the rulebooks of `folder`.
    pub async fn postgres_with(tag: &str, folder: &std::path::Path) -> App {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock after 1970")
            .as_nanos();
        let schema = format!("w_{tag}_{}_{nanos}", std::process::id());
        admin(&pg_base(), format!("CREATE SCHEMA {schema}")).await;
        let url = format!("{}?options=-c%20search_path%3D{schema}", pg_base());
        App::on(&url, Some(schema), None, folder).await
    }

    async fn on(
        url: &str,
        schema: Option<String>,
        dir: Option<tempfile::TempDir>,
        folder: &std::path::Path,
    ) -> App {
        let keys = AuditKeys::new(AuditKey::from_hex(&"5e".repeat(32)).expect("test key"));
        let store = Store::open(url, keys).await.expect("open");
        store.seal(&setup()).await.expect("seal");
        let library = outorga_rulebook::load(folder).expect("rulebooks load");
        let mut jurisdictions: Vec<Jurisdiction> = Vec::new();
        for rulebook in library.rulebooks() {
            let j = &rulebook.jurisdiction;
            match jurisdictions.iter_mut().find(|known| known.id == j.id) {
                Some(known) => known.rulebooks.push(rulebook.id.clone()),
                None => jurisdictions.push(Jurisdiction {
                    id: j.id.clone(),
                    name: j.name.clone(),
                    state: j.state.clone(),
                    rulebooks: vec![rulebook.id.clone()],
                }),
            }
        }
        store
            .sync_jurisdictions(&setup(), &jurisdictions)
            .await
            .expect("sync");
        let clock = Arc::new(TestClock(Mutex::new(start())));
        let state = AppState::new(store.clone(), library).with_clock(clock.clone());
        App {
            router: outorga_web::router(state.clone()),
            state,
            store,
            clock,
            schema,
            _dir: dir,
        }
    }

    /// A router on the same database with another password queue, and
    /// the store behind it.
    pub fn with_hashing(&self, limits: HashingLimits) -> (axum::Router, Store) {
        let store = self.store.clone().with_hashing(limits);
        let state = self.state.clone().with_store(store.clone());
        (outorga_web::router(state), store)
    }

    /// The same app with other limits (a fresh count of look-ups).
    pub fn with_limits(mut self, limits: outorga_web::Limits) -> App {
        self.state = self.state.clone().with_limits(limits);
        self.router = outorga_web::router(self.state.clone());
        self
    }

    pub async fn finish(self) {
        if let Some(schema) = &self.schema {
            admin(&pg_base(), format!("DROP SCHEMA {schema} CASCADE")).await;
        }
    }

    /// Sends raw bytes with a content type.
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        content_type: Option<&str>,
        body: &str,
    ) -> Answer {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        let request = request.body(Body::from(body.to_string())).expect("request");
        answer(self.router.clone(), path, request).await
    }

    /// A GET whose answer is a file: its status, headers and bytes.
    pub async fn file(
        &self,
        path: &str,
        token: &str,
    ) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
        let request = Request::builder()
            .uri(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .expect("request");
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("infallible");
        let (status, headers) = (response.status(), response.headers().clone());
        let bytes = axum::body::to_bytes(response.into_body(), 20 << 20)
            .await
            .expect("body");
        (status, headers, bytes.to_vec())
    }

    /// Loads the demo's records (as `serve --demo` does) on the test's day.
    pub async fn load_demo(&self) {
        let library = outorga_rulebook::load(&rulebooks()).expect("rulebooks load");
        let rulebooks: Vec<_> = library.rulebooks().collect();
        let now = self.clock.0.lock().expect("clock").to_owned();
        self.store
            .load_demo(&rulebooks, now.date(), now)
            .await
            .expect("demo");
    }

    /// Posts `body` as JSON with the reason of the change in `X-Motivo`.
    pub async fn post_because(&self, path: &str, token: &str, body: Value, why: &str) -> Answer {
        let request = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .header(
                "x-motivo",
                axum::http::HeaderValue::from_bytes(why.as_bytes()).expect("header"),
            )
            .body(Body::from(body.to_string()))
            .expect("request");
        answer(self.router.clone(), path, request).await
    }

    /// Sends `body` as JSON (or nothing).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        match body {
            Some(body) => {
                self.raw(
                    method,
                    path,
                    token,
                    Some("application/json"),
                    &body.to_string(),
                )
                .await
            }
            None => self.raw(method, path, token, None, "").await,
        }
    }

    pub async fn get(&self, path: &str, token: &str) -> Answer {
        self.call(Method::GET, path, Some(token), None).await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> Answer {
        self.call(Method::POST, path, Some(token), Some(body)).await
    }

    pub async fn login(&self, name: &str, password: &str) -> Answer {
        self.call(
            Method::POST,
            "/api/session",
            None,
            Some(serde_json::json!({ "nome": name, "senha": password })),
        )
        .await
    }

    /// Signs in from the client address `ip` (as the server would put it
    /// in the request's extensions).
    pub async fn login_from(&self, name: &str, password: &str, ip: &str) -> Answer {
        login_on(self.router.clone(), name, password, ip).await
    }

    /// A user made directly in the store, signed in: their session token.
    /// A user with an API token (no expiry: for tests that move the clock
    /// by days).
    pub async fn with_token(&self, name: &str, role: Role, scope: Scope) -> String {
        self.store
            .create_user(&setup(), name, role, PASSWORD, &scope)
            .await
            .expect("user");
        self.store
            .create_token(&setup(), name, "testes", None)
            .await
            .expect("token")
    }

    pub async fn signed_in(&self, name: &str, role: Role, scope: Scope) -> String {
        self.store
            .create_user(&setup(), name, role, PASSWORD, &scope)
            .await
            .expect("user");
        let answer = self.login(name, PASSWORD).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{:?}", answer.body);
        answer.text("token")
    }
}

/// Signs in through a clone of the router from the client address `ip`: for
/// attempts sent concurrently from spawned tasks. The answer keeps the
/// `Retry-After` header in `retry_after`.
pub async fn login_on(router: axum::Router, name: &str, password: &str, ip: &str) -> Answer {
    let ip: IpAddr = ip.parse().expect("an address");
    let mut request = Request::builder()
        .method(Method::POST)
        .uri("/api/session")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            serde_json::json!({ "nome": name, "senha": password }).to_string(),
        ))
        .expect("request");
    request.extensions_mut().insert(ClientIp(ip));
    answer(router, "/api/session", request).await
}

/// Posts `body` as JSON with `token` through a clone of the router: for
/// requests sent concurrently from spawned tasks.
pub async fn post_on(router: axum::Router, path: String, token: String, body: Value) -> Answer {
    let request = Request::builder()
        .method(Method::POST)
        .uri(&path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    answer(router, &path, request).await
}

async fn answer(router: axum::Router, path: &str, request: Request<Body>) -> Answer {
    let response = router.oneshot(request).await.expect("infallible");
    let status = response.status();
    let retry_after = response
        .headers()
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_none_or(|kind| kind.as_bytes().starts_with(b"application/json"));
    let bytes = axum::body::to_bytes(response.into_body(), 10 << 20)
        .await
        .expect("body");
    let body = if bytes.is_empty() {
        Value::Null
    } else if !json {
        // A text answer (the metrics), as a string.
        Value::String(String::from_utf8_lossy(&bytes).into_owned())
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{path}: not JSON: {}", String::from_utf8_lossy(&bytes)))
    };
    Answer {
        status,
        body,
        retry_after,
    }
}

pub const PASSWORD: &str = "senha-de-teste-longa";

fn pg_base() -> String {
    std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string())
}

/// Runs one statement on `url` outside the store (schemas).
async fn admin(url: &str, sql: String) {
    sqlx::any::install_default_drivers();
    let pool = AnyPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .expect("PostgreSQL reachable (OUTORGA_TEST_DATABASE_URL)");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(&pool)
        .await
        .expect("statement");
}
