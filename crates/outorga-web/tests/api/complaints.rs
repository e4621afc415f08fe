//! Passengers' complaints through the API (issue 14), on both backends:
//! filed without a token (each bad field named), followed by protocol
//! without the text or the contact, read in the inspectors' queue, and
//! worked: under review, turned into an auto (which must exist), closed
//! with the reason.

use crate::common::App;
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::json;

const J: &str = "/api/public/jurisdictions/cangucu/complaints";

async fn complaints(app: &App) {
    let file = |body| app.call(Method::POST, J, None, Some(body));
    // Three filings at once from one address, then a few per hour.
    let bad = json!({ "tipo": "outro" });
    for _ in 0..3 {
        assert_eq!(
            file(bad.clone()).await.status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
    let limited = file(bad).await;
    assert_eq!(
        limited.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{:?}",
        limited.body
    );
    assert!(
        limited.text("erro").contains("envios demais"),
        "{:?}",
        limited.body
    );
    assert!(limited.retry_after.is_some());
}

async fn worked(app: &App) {
    let file = |body| app.call(Method::POST, J, None, Some(body));
    let good = json!({
        "tipo": "overcharge", "descricao": "Cobrou R$ 50 por uma corrida curta, sem ligar o taxímetro.",
        "quando": "2026-11-29T22:10", "local": "Rodoviária", "placa": "izc-1a23",
        "contato": "passageira@example.com"
    });
    for (field, value, says) in [
        ("tipo", json!("grosseria"), "overcharge, refusal"),
        ("descricao", json!("ruim"), "ao menos 10 letras"),
        ("quando", json!("2026-12-25T10:00"), "ainda não chegaram"),
        ("quando", json!("ontem"), "AAAA-MM-DD"),
        ("local", json!("  "), "onde aconteceu"),
        ("placa", json!("123"), "placa"),
    ] {
        let mut body = good.clone();
        body[field] = value;
        let refused = file(body).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {:?}",
            refused.body
        );
        assert!(
            refused.body.to_string().contains(says),
            "{field}: {:?} should say {says}",
            refused.body
        );
    }
    let filed = file(good).await;
    assert_eq!(filed.status, StatusCode::CREATED, "{:?}", filed.body);
    let protocol = filed.text("protocolo");
    assert_eq!(filed.body["situacao"], "received");
    assert!(filed.body.get("contato").is_none() && filed.body.get("descricao").is_none());

    let public = app
        .call(
            Method::GET,
            &format!("/api/public/complaints/{}", protocol.to_lowercase()),
            None,
            None,
        )
        .await;
    assert_eq!(public.status, StatusCode::OK, "{:?}", public.body);
    assert_eq!(
        public.body["tipo_nome"],
        "cobrança acima da tarifa ou sem taxímetro"
    );
    assert!(!public.body.to_string().contains("passageira@example.com"));
    let missing = app
        .call(
            Method::GET,
            "/api/public/complaints/ZZZZZ-99999",
            None,
            None,
        )
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    let inspector = app.with_token("fiscal", Role::Inspector, Scope::All).await;
    let queue = app
        .get(
            "/api/jurisdictions/cangucu/complaints?situacao=received",
            &inspector,
        )
        .await;
    assert_eq!(queue.status, StatusCode::OK, "{:?}", queue.body);
    let item = &queue.body["itens"][0];
    assert_eq!(item["protocolo"], protocol.as_str());
    assert_eq!(item["placa"], "IZC1A23");
    assert_eq!(item["contato"], "passageira@example.com");

    let path = format!("/api/jurisdictions/cangucu/complaints/{protocol}");
    let handle = |body| app.post(&path, &inspector, body);
    let refused = handle(json!({ "situacao": "closed" })).await;
    assert_eq!(refused.body["campo"], "nota", "{:?}", refused.body);
    let refused = handle(json!({ "situacao": "auto", "auto": [2026, 999] })).await;
    assert!(
        refused.text("motivo").contains("não há auto nº 999/2026"),
        "{:?}",
        refused.body
    );
    let refused = handle(json!({ "situacao": "received" })).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let review =
        handle(json!({ "situacao": "in_review", "nota": "Ouvir o permissionário." })).await;
    assert_eq!(review.status, StatusCode::OK, "{:?}", review.body);
    assert_eq!(review.body["tratada_por"], "fiscal");
    let closed =
        handle(json!({ "situacao": "closed", "nota": "Placa não pertence ao serviço." })).await;
    assert_eq!(closed.body["situacao"], "closed");
    let public = app
        .call(
            Method::GET,
            &format!("/api/public/complaints/{protocol}"),
            None,
            None,
        )
        .await;
    assert_eq!(public.body["situacao_nome"], "arquivada");
    // Another jurisdiction's staff do not reach it.
    let elsewhere = app
        .with_token(
            "fiscal-ap",
            Role::Inspector,
            Scope::Only(vec!["amapa".into()]),
        )
        .await;
    let refused = app
        .post(
            &format!("/api/jurisdictions/cangucu/complaints/{protocol}"),
            &elsewhere,
            json!({ "situacao": "in_review" }),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
}

/// Limits that let a test file many complaints from one address.
fn generous() -> outorga_web::Limits {
    outorga_web::Limits {
        filing_burst: std::num::NonZeroU32::new(100).expect("burst"),
        ..outorga_web::Limits::DEFAULT
    }
}

#[tokio::test]
async fn complaints_on_sqlite() {
    let app = App::sqlite().await;
    complaints(&app).await;
    worked(&app.with_limits(generous())).await;
}

#[tokio::test]
async fn complaints_on_postgres() {
    let app = App::postgres("complaints").await;
    complaints(&app).await;
    let app = app.with_limits(generous());
    worked(&app).await;
    app.finish().await;
}
