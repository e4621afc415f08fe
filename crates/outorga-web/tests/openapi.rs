//! The OpenAPI document lists exactly the routes the router answers.

mod common;

use axum::http::{Method, StatusCode};
use common::App;
use std::collections::BTreeSet;

/// Every route of the API. A new route must be added here (and so to the
/// document, which the router is built from).
const ROUTES: [(&str, &str); 49] = [
    ("GET", "/api/health"),
    ("GET", "/api/metrics"),
    ("GET", "/api/openapi.json"),
    ("POST", "/api/session"),
    ("DELETE", "/api/session"),
    ("GET", "/api/jurisdictions"),
    ("POST", "/api/jurisdictions/{j}/people"),
    ("GET", "/api/jurisdictions/{j}/people/{documento}"),
    ("POST", "/api/jurisdictions/{j}/vehicles"),
    ("GET", "/api/jurisdictions/{j}/vehicles/{placa}"),
    ("POST", "/api/jurisdictions/{j}/lines"),
    ("GET", "/api/jurisdictions/{j}/lines"),
    ("POST", "/api/jurisdictions/{j}/stands"),
    ("GET", "/api/jurisdictions/{j}/stands"),
    ("GET", "/api/audit"),
    ("GET", "/api/audit/verify"),
    ("POST", "/api/users"),
    ("GET", "/api/users"),
    ("POST", "/api/users/{nome}/tokens"),
    ("GET", "/api/users/{nome}/tokens"),
    ("DELETE", "/api/users/{nome}/tokens/{rotulo}"),
    ("GET", "/api/public/jurisdictions/{j}/vehicles/{placa}"),
    ("GET", "/api/public/jurisdictions/{j}/drivers/{matricula}"),
    ("GET", "/api/public/documents/{codigo}"),
    ("GET", "/api/jurisdictions/{j}/documents"),
    ("PUT", "/api/jurisdictions/{j}/people/{documento}/profile"),
    ("GET", "/api/jurisdictions/{j}/people/{documento}/profile"),
    ("PUT", "/api/jurisdictions/{j}/parameters/{nome}"),
    ("POST", "/api/jurisdictions/{j}/permits"),
    ("GET", "/api/jurisdictions/{j}/permits"),
    ("GET", "/api/jurisdictions/{j}/permits/{servico}/{numero}"),
    (
        "POST",
        "/api/jurisdictions/{j}/permits/{servico}/{numero}/status",
    ),
    (
        "POST",
        "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers",
    ),
    (
        "GET",
        "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers",
    ),
    (
        "DELETE",
        "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers/{matricula}",
    ),
    (
        "POST",
        "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers/{matricula}/renewal",
    ),
    ("DELETE", "/api/users/{nome}"),
    ("PUT", "/api/users/{nome}/password"),
    (
        "POST",
        "/api/jurisdictions/{j}/permits/{servico}/{numero}/vehicle",
    ),
    (
        "POST",
        "/api/jurisdictions/{j}/vehicles/{placa}/inspections",
    ),
    ("POST", "/api/jurisdictions/{j}/autos"),
    ("GET", "/api/jurisdictions/{j}/autos"),
    ("GET", "/api/jurisdictions/{j}/autos/{ano}/{numero}"),
    ("POST", "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps"),
    ("GET", "/api/jurisdictions/{j}/debts"),
    (
        "GET",
        "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/due",
    ),
    (
        "POST",
        "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/payments",
    ),
    (
        "POST",
        "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/installments",
    ),
    ("GET", "/api/jurisdictions/{j}/agenda"),
];

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

#[tokio::test]
async fn the_document_lists_every_route_the_router_answers() {
    let app = App::sqlite().await;
    let served = app.call(Method::GET, "/api/openapi.json", None, None).await;
    assert_eq!(served.status, StatusCode::OK);
    let doc = &served.body;
    assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );

    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            if let Some(operation) = item.get(method.to_lowercase()) {
                documented.insert((method.to_string(), path.clone()));
                // Every operation but the public ones names the bearer scheme.
                let public = matches!(path.as_str(), "/api/health" | "/api/openapi.json")
                    || path.starts_with("/api/public/")
                    || (path == "/api/session" && method == "POST");
                assert_eq!(
                    operation["security"] == serde_json::json!([{ "bearer": [] }]),
                    !public,
                    "{method} {path}"
                );
                // Every authenticated write may say why (X-Motivo).
                let says_why = operation["parameters"].as_array().is_some_and(|ps| {
                    ps.iter()
                        .any(|p| p["name"] == "X-Motivo" && p["in"] == "header")
                });
                assert_eq!(says_why, !public && method != "GET", "{method} {path}");
            }
        }
    }
    let expected: BTreeSet<(String, String)> = ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(documented, expected);

    // The router answers each documented method and no other, on each
    // documented path (a path parameter is filled with `x`).
    for path in doc["paths"].as_object().expect("paths").keys() {
        let concrete = path
            .split('/')
            .map(|part| if part.starts_with('{') { "x" } else { part })
            .collect::<Vec<_>>()
            .join("/");
        for method in METHODS {
            let answer = app
                .call(
                    Method::from_bytes(method.as_bytes()).expect("method"),
                    &concrete,
                    None,
                    None,
                )
                .await;
            let is_documented = documented.contains(&(method.to_string(), path.clone()));
            let unknown = matches!(
                answer.status,
                StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED
            ) && answer.text("erro").contains("veja GET /api/openapi.json");
            assert_eq!(
                !unknown, is_documented,
                "{method} {concrete}: {:?}",
                answer.body
            );
        }
    }
    // And a path the document lacks is not routed.
    let answer = app.call(Method::PUT, "/api/never", None, None).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    app.finish().await;
}
