//! The server's edge: connections (through a real socket, on a random
//! port, with short limits), request limits, security headers, the public
//! look-up rate, the request log and the metrics.
//!
//! No test measures time: each waits for the server at most `PATIENCE`, so
//! a server that never closes or answers fails instead of hanging.

use crate::common::{App, PASSWORD};
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use outorga_store::{Role, Scope};
use outorga_web::client::{ClientIp, Peers};
use outorga_web::{AppState, Limits};
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpSocket, TcpStream};
use tower::ServiceExt as _;

const PATIENCE: Duration = Duration::from_secs(60);

/// A server on `app`'s store with `limits`, on a random port of 127.0.0.1,
/// until the test ends.
async fn serve(app: &App, limits: Limits) -> SocketAddr {
    let library = outorga_rulebook::load(&crate::common::rulebooks()).expect("rulebooks");
    let state = AppState::new(app.store.clone(), library).with_limits(limits);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("address");
    tokio::spawn(outorga_web::server::serve(
        listener,
        (state, axum::Router::new()),
        Peers::Clients,
        std::future::pending(),
    ));
    address
}

/// A connection to `server` from the loopback address `from` (the whole of
/// 127.0.0.0/8 is this machine: each address is another client).
async fn connect(from: [u8; 4], server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket.bind(SocketAddr::from((from, 0))).expect("bind");
    socket.connect(server).await.expect("connect")
}

/// What the server sent until it closed the connection (by EOF or reset).
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut data = Vec::new();
    let read = tokio::time::timeout(PATIENCE, stream.read_to_end(&mut data)).await;
    assert!(read.is_ok(), "the server kept the connection open");
    String::from_utf8_lossy(&data).into_owned()
}

/// One answer read off `stream`: status, head and body (by Content-Length).
async fn read_answer(stream: &mut TcpStream) -> (u16, String, String) {
    let mut data = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&data[..end]).to_lowercase();
            let length: usize = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .map_or(0, |n| n.trim().parse().expect("a length"));
            if data.len() >= end + 4 + length {
                let status = head[9..12].parse().expect("a status");
                let body = String::from_utf8_lossy(&data[end + 4..end + 4 + length]);
                return (status, head, body.into_owned());
            }
        }
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut buffer))
            .await
            .expect("the server answers")
            .expect("read");
        assert!(
            read > 0,
            "closed before answering: {}",
            String::from_utf8_lossy(&data)
        );
        data.extend_from_slice(&buffer[..read]);
    }
}

/// `GET path` on a kept-alive connection, with a token if given.
async fn get(stream: &mut TcpStream, path: &str, token: Option<&str>) -> (u16, String, String) {
    let authorization = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let request = format!("GET {path} HTTP/1.1\r\nHost: outorga\r\n{authorization}\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("request sent");
    read_answer(stream).await
}

/// A connection that started a request and will never finish its headers.
async fn slow(from: [u8; 4], server: SocketAddr) -> TcpStream {
    let mut stream = connect(from, server).await;
    stream
        .write_all(b"GET /api/health HTTP/1.1\r\n")
        .await
        .expect("sent");
    stream
}

fn short(limits: Limits) -> Limits {
    Limits {
        header_read_timeout: Duration::from_secs(1),
        request_timeout: Duration::from_secs(1),
        ..limits
    }
}

async fn slow_headers_are_cut_off(app: &App) {
    let server = serve(app, short(Limits::DEFAULT)).await;
    let mut stream = slow([127, 0, 0, 1], server).await;
    let sent = until_closed(&mut stream).await;
    assert!(!sent.contains("200 OK"), "{sent}");
}

async fn idle_keep_alive_is_closed(app: &App) {
    let server = serve(app, short(Limits::DEFAULT)).await;
    let mut stream = connect([127, 0, 0, 1], server).await;
    let (status, head, _) = get(&mut stream, "/api/health", None).await;
    assert_eq!(status, 200, "{head}");
    assert!(!head.contains("connection: close"), "kept alive: {head}");
    // The next request never comes: the server closes the connection.
    assert_eq!(until_closed(&mut stream).await, "");
}

/// Held connections from one address, up to its cap and past it.
const CAPPED: Limits = Limits {
    header_read_timeout: Duration::from_secs(600),
    connections_per_client: 3,
    ..Limits::DEFAULT
};

async fn one_address_cannot_take_all(app: &App) {
    let admin = app.with_token("admin", Role::Admin, Scope::All).await;
    let server = serve(app, CAPPED).await;
    let attacker = [127, 0, 0, 1];
    let mut held = Vec::new();
    for _ in 0..CAPPED.connections_per_client {
        held.push(slow(attacker, server).await);
    }
    // Past the cap a connection from the same address is refused at once:
    // a 503 with Retry-After if the client reads it, and closed.
    for _ in 0..3 {
        let mut refused = connect(attacker, server).await;
        let sent = until_closed(&mut refused).await;
        assert!(
            sent.is_empty() || sent.starts_with("HTTP/1.1 503"),
            "{sent}"
        );
        if !sent.is_empty() {
            assert!(sent.to_lowercase().contains("retry-after: 5"), "{sent}");
            assert!(sent.contains("conexões abertas demais"), "{sent}");
        }
    }
    // Another client is served meanwhile.
    let mut other = connect([127, 0, 0, 2], server).await;
    let (status, _, body) = get(&mut other, "/api/health", None).await;
    assert_eq!(status, 200, "{body}");
    let (status, _, text) = get(&mut other, "/api/metrics", Some(&admin)).await;
    assert_eq!(status, 200, "{text}");
    let open = metric(&text, "outorga_connections_open", &[]);
    assert!(open >= 4.0, "{text}");
    let refused = metric(
        &text,
        "outorga_connections_refused_total",
        &[("cap", "per_client")],
    );
    assert_eq!(refused, 3.0, "{text}");
    drop(held);
}

async fn total_connection_cap(app: &App) {
    let limits = Limits {
        connections: 2,
        ..CAPPED
    };
    let server = serve(app, limits).await;
    let _held = [
        slow([127, 0, 0, 1], server).await,
        slow([127, 0, 0, 2], server).await,
    ];
    let mut refused = connect([127, 0, 0, 3], server).await;
    let sent = until_closed(&mut refused).await;
    assert!(
        sent.is_empty() || sent.contains("no limite de conexões abertas"),
        "{sent}"
    );
}

async fn slow_request_is_cut_off(app: &App) {
    let server = serve(app, short(Limits::DEFAULT)).await;
    let mut stream = connect([127, 0, 0, 1], server).await;
    // Headers promise a body that never comes.
    stream
        .write_all(
            b"POST /api/session HTTP/1.1\r\nHost: outorga\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"nome\"",
        )
        .await
        .expect("sent");
    let (status, head, body) = read_answer(&mut stream).await;
    assert_eq!(status, 503, "{head}");
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert!(
        body["erro"]
            .as_str()
            .is_some_and(|e| e.contains("demorou demais")),
        "{body}"
    );
}

on_both_backends!(
    slow_headers_are_cut_off,
    idle_keep_alive_is_closed,
    one_address_cannot_take_all,
    total_connection_cap,
    slow_request_is_cut_off,
);

/// The value of the sample `name` whose labels include `labels`.
fn metric(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    let scrape = prom_text_format_parser::Scrape::parse(text)
        .unwrap_or_else(|error| panic!("not the Prometheus text format ({error:?}):\n{text}"));
    let (family, suffix) = name
        .strip_suffix("_total")
        .map_or((name, None), |family| (family, Some("_total")));
    scrape
        .metrics
        .iter()
        .filter(|m| m.name == name || (suffix.is_some() && m.name == family))
        .flat_map(|m| &m.samples)
        .find(|sample| {
            labels.iter().all(|(key, value)| {
                sample
                    .labels
                    .iter()
                    .any(|label| label.key == *key && label.value == *value)
            })
        })
        .map_or(0.0, |sample| sample.value.value.as_f64())
}

/// One in-process request from `client`: status, headers and JSON body.
async fn send(
    router: &axum::Router,
    request: axum::http::request::Builder,
    client: Option<IpAddr>,
    body: String,
) -> (StatusCode, HeaderMap, Value) {
    let mut request = request.body(Body::from(body)).expect("request");
    if let Some(ip) = client {
        request.extensions_mut().insert(ClientIp(ip));
    }
    let response = router.clone().oneshot(request).await.expect("infallible");
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, headers, body)
}

fn assert_secured(what: &str, headers: &HeaderMap) {
    for (name, value) in [
        ("x-content-type-options", "nosniff"),
        (
            "content-security-policy",
            "default-src 'none'; frame-ancestors 'none'",
        ),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("cache-control", "no-store"),
    ] {
        assert_eq!(
            headers.get(name).and_then(|v| v.to_str().ok()),
            Some(value),
            "{what}: {name}"
        );
    }
}

async fn security_headers_everywhere(app: &App) {
    app.store
        .create_user(
            &crate::common::setup(),
            "ana",
            Role::Clerk,
            PASSWORD,
            &Scope::All,
        )
        .await
        .expect("user");
    let router = &app.router;
    let json = |method: Method, path: &str| {
        Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json")
    };
    let cases = [
        (
            "health",
            json(Method::GET, "/api/health"),
            String::new(),
            200,
        ),
        (
            "no token",
            json(Method::GET, "/api/jurisdictions"),
            String::new(),
            401,
        ),
        (
            "no route",
            json(Method::GET, "/api/nada"),
            String::new(),
            404,
        ),
        (
            "no method",
            json(Method::DELETE, "/api/health"),
            String::new(),
            405,
        ),
        (
            "bad body",
            json(Method::POST, "/api/session"),
            "{".to_string(),
            400,
        ),
        (
            "token",
            json(Method::POST, "/api/session"),
            json!({ "nome": "ana", "senha": PASSWORD }).to_string(),
            201,
        ),
    ];
    for (what, request, body, expected) in cases {
        let (status, headers, body) = send(router, request, None, body).await;
        assert_eq!(status.as_u16(), expected, "{what}: {body}");
        assert_secured(what, &headers);
        if what == "token" {
            assert!(body["token"].as_str().is_some_and(|t| !t.is_empty()));
        }
    }
}

async fn a_body_too_large_is_refused(app: &App) {
    let name = "a".repeat(Limits::DEFAULT.body_bytes);
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/session")
        .header(header::CONTENT_TYPE, "application/json");
    let body = json!({ "nome": name, "senha": "x" }).to_string();
    let (status, headers, body) = send(&app.router, request, None, body).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert_eq!(body["campo"], "corpo");
    assert!(
        body["erro"]
            .as_str()
            .is_some_and(|e| e.contains("passa do limite de tamanho")),
        "{body}"
    );
    assert_secured("413", &headers);
}

async fn public_rate_per_client(app: &App) {
    let admin = app.with_token("admin", Role::Admin, Scope::All).await;
    let look_up = || {
        Request::builder()
            .method(Method::GET)
            .uri("/api/public/documents/ABCDE-12345")
    };
    let ip = |text: &str| Some(text.parse::<IpAddr>().expect("address"));
    let burst = Limits::DEFAULT.public_burst.get();
    for _ in 0..burst {
        let (status, _, body) =
            send(&app.router, look_up(), ip("203.0.113.7"), String::new()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    }
    // Past the burst, the steady rate: a client faster than it is refused.
    let mut refused = None;
    for _ in 0..burst {
        let answer = send(&app.router, look_up(), ip("203.0.113.7"), String::new()).await;
        if answer.0 == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(answer);
            break;
        }
    }
    let (_, headers, body) = refused.expect("refused past the burst");
    let wait: u64 = headers
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!(wait >= 1);
    assert!(
        body["erro"]
            .as_str()
            .is_some_and(|e| e.contains("consultas demais")),
        "{body}"
    );
    assert_secured("429", &headers);
    // Another client is not affected, nor is the same one's IPv6 neighbour
    // on another network.
    for other in ["203.0.113.8", "2001:db8:1:2::1"] {
        let (status, _, body) = send(&app.router, look_up(), ip(other), String::new()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{other}: {body}");
    }
    let metrics = Request::builder()
        .method(Method::GET)
        .uri("/api/metrics")
        .header(header::AUTHORIZATION, format!("Bearer {admin}"));
    let (_, _, text) = send(&app.router, metrics, None, String::new()).await;
    let text = text.as_str().expect("text");
    assert_eq!(
        metric(text, "outorga_public_lookups_rate_limited_total", &[]),
        1.0
    );
}

/// What the log wrote, shared with the test.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;

    fn make_writer(&'a self) -> Captured {
        self.clone()
    }
}

async fn request_log_hides_cpf_and_token(app: &App) {
    let token = app
        .with_token("fiscal-rita", Role::Inspector, Scope::All)
        .await;
    let log = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(log.clone())
        .with_max_level(tracing::Level::INFO)
        .finish();
    let _logging = tracing::subscriber::set_default(subscriber);
    let request = Request::builder()
        .method(Method::GET)
        .uri("/api/jurisdictions/cangucu/people/25524893033?documento=25524893033")
        .header(header::AUTHORIZATION, format!("Bearer {token}"));
    let (status, _, _) = send(&app.router, request, None, String::new()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let text =
        String::from_utf8_lossy(&log.0.lock().unwrap_or_else(PoisonError::into_inner)).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "one line per request:\n{text}");
    for part in [
        "method=GET",
        "route=/api/jurisdictions/{j}/people/{documento}",
        "user=\"fiscal-rita\"",
        "status=404",
        "latency=",
    ] {
        assert!(text.contains(part), "`{part}` missing from:\n{text}");
    }
    for secret in ["25524893033", "255.248.930-33", token.as_str(), "?"] {
        assert!(!text.contains(secret), "`{secret}` logged:\n{text}");
    }
}

async fn metrics_for_unscoped_admin(app: &App) {
    let admin = app.with_token("admin", Role::Admin, Scope::All).await;
    let local = app
        .with_token(
            "admin-local",
            Role::Admin,
            Scope::Only(vec!["cangucu".into()]),
        )
        .await;
    let request = |token: &str| {
        Request::builder()
            .method(Method::GET)
            .uri("/api/metrics")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
    };
    let health = Request::builder().method(Method::GET).uri("/api/health");
    let (status, _, _) = send(&app.router, health, None, String::new()).await;
    assert_eq!(status, StatusCode::OK);

    let (status, _, body) = send(&app.router, request(&local), None, String::new()).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["erro"]
            .as_str()
            .is_some_and(|e| e.contains("sem restrição de jurisdição")),
        "{body}"
    );

    let (status, headers, body) = send(&app.router, request(&admin), None, String::new()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/plain; version=0.0.4"))
    );
    let text = body.as_str().expect("text");
    let health = [
        ("method", "GET"),
        ("route", "/api/health"),
        ("status", "200"),
    ];
    assert_eq!(metric(text, "outorga_http_requests_total", &health), 1.0);
    let forbidden = [
        ("method", "GET"),
        ("route", "/api/metrics"),
        ("status", "403"),
    ];
    assert_eq!(metric(text, "outorga_http_requests_total", &forbidden), 1.0);
    assert!(text.contains("outorga_http_request_duration_seconds_bucket{"));
    assert!(text.contains("# TYPE outorga_connections_open gauge"));
    assert!(text.contains("# TYPE outorga_public_lookups_rate_limited_total counter"));
}

on_both_backends!(
    security_headers_everywhere,
    a_body_too_large_is_refused,
    public_rate_per_client,
    request_log_hides_cpf_and_token,
    metrics_for_unscoped_admin,
);
