//! The OpenAPI document lists exactly the routes the router answers. Which
//! routes there are is the role table's business (tests/api/roles.rs): it is
//! generated from this document and fails on an operation without a row.

use crate::common::App;
use axum::http::{Method, StatusCode};
use std::collections::BTreeSet;

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
                // A parameter in the path is one of its template's; the
                // others are in the query (or the header), never required
                // unless the route needs them.
                for parameter in operation["parameters"].as_array().into_iter().flatten() {
                    let name = parameter["name"].as_str().unwrap_or_default();
                    let in_path = path.contains(&format!("{{{name}}}"));
                    let place = parameter["in"].as_str().unwrap_or_default();
                    assert_eq!(
                        place == "path",
                        in_path,
                        "{method} {path}: `{name}` in {place}"
                    );
                }
            }
        }
    }
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
