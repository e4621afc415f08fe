//! Money through the API on both backends (issue 13): fiscal units' values
//! from their acts, never overwritten; Teófilo Otoni's yearly correction by
//! an index (art. 115); Amapá's CTM worked out from the lines' coefficients
//! (art. 21) and anew when one is approved (art. 20, § 3º).

use crate::common::{Answer, App};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
const TO: &str = "/api/jurisdictions/teofilo-otoni";
const AP: &str = "/api/jurisdictions/amapa";

fn ok(answer: &Answer, status: StatusCode, what: &str) {
    assert_eq!(answer.status, status, "{what}: {:?}", answer.body);
}

async fn put(app: &App, path: &str, token: &str, body: Value) -> Answer {
    app.call(Method::PUT, path, Some(token), Some(body)).await
}

fn unit<'a>(list: &'a Answer, code: &str) -> &'a Value {
    list.body["unidades"]
        .as_array()
        .and_then(|units| units.iter().find(|u| u["unidade"] == code))
        .unwrap_or_else(|| panic!("no unit {code} in {:?}", list.body))
}

async fn units(app: &App) {
    let admin = app.with_token("admin", Role::Admin, Scope::All).await;
    let clerk = app.with_token("clerk", Role::Clerk, Scope::All).await;
    let reader = app.with_token("consulta", Role::ReadOnly, Scope::All).await;

    // Santa Maria de Jetibá: the VRTM from a decree (art. 47).
    let vrtm = json!({ "desde": "2026-01-01", "valor": "4,7125", "ato": "Decreto nº 123/2025" });
    ok(
        &put(app, &format!("{SMJ}/units/VRTM"), &clerk, vrtm.clone()).await,
        StatusCode::FORBIDDEN,
        "only administrators record a unit's value",
    );
    let recorded = put(app, &format!("{SMJ}/units/VRTM"), &admin, vrtm.clone()).await;
    ok(&recorded, StatusCode::CREATED, "VRTM");
    assert_eq!(recorded.body["valor"], "4.7125");
    assert_eq!(recorded.body["registro"], 1);
    // The same day again is refused: a correction names what it corrects.
    let again = put(app, &format!("{SMJ}/units/VRTM"), &admin, vrtm).await;
    ok(&again, StatusCode::UNPROCESSABLE_ENTITY, "same day twice");
    assert!(again.text("erro").contains("corrige"), "{:?}", again.body);
    let corrected = put(
        app,
        &format!("{SMJ}/units/VRTM"),
        &admin,
        json!({ "desde": "2026-01-01", "valor": "4.7215", "ato": "Decreto nº 130/2025 (retificação)", "corrige": 1 }),
    )
    .await;
    ok(&corrected, StatusCode::CREATED, "correction");
    let twice = put(
        app,
        &format!("{SMJ}/units/VRTM"),
        &admin,
        json!({ "desde": "2026-01-01", "valor": "4.8", "ato": "x", "corrige": 1 }),
    )
    .await;
    ok(&twice, StatusCode::UNPROCESSABLE_ENTITY, "corrected twice");
    for (body, field) in [
        (
            json!({ "desde": "2026-02-01", "valor": "0", "ato": "x" }),
            "valor",
        ),
        (
            json!({ "desde": "2026-02-01", "valor": "abc", "ato": "x" }),
            "valor",
        ),
        (
            json!({ "desde": "2026-02-30", "valor": "4", "ato": "x" }),
            "desde",
        ),
        (
            json!({ "desde": "2026-02-01", "valor": "4", "ato": " " }),
            "ato",
        ),
        (json!({ "desde": "2026-02-01", "ato": "x" }), "valor"),
    ] {
        let refused = put(app, &format!("{SMJ}/units/VRTM"), &admin, body.clone()).await;
        ok(
            &refused,
            StatusCode::UNPROCESSABLE_ENTITY,
            &body.to_string(),
        );
        assert_eq!(refused.body["campo"], field, "{body}: {:?}", refused.body);
    }
    let unknown = put(
        app,
        &format!("{SMJ}/units/UPFTO"),
        &admin,
        json!({ "desde": "2026-01-01", "valor": "4", "ato": "x" }),
    )
    .await;
    ok(
        &unknown,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not this law's unit",
    );
    assert!(unknown.text("erro").contains("VRTM"), "{:?}", unknown.body);
    let history = app.get(&format!("{SMJ}/units"), &reader).await;
    ok(&history, StatusCode::OK, "history");
    let vrtm = unit(&history, "VRTM");
    assert_eq!(vrtm["artigo"], "Art. 47");
    assert_eq!(vrtm["registros"].as_array().map(Vec::len), Some(2));
    assert_eq!(vrtm["registros"][0]["corrigido_por"], 2);

    // Teófilo Otoni: the law's own value (2011) corrected by an index.
    let upfto = put(
        app,
        &format!("{TO}/units/UPFTO"),
        &admin,
        json!({ "desde": "2026-01-01", "correcao": { "indice": "IPCA-E acumulado 2011–2025", "percentual": "100" }, "ato": "Decreto nº 9.000/2025" }),
    )
    .await;
    ok(&upfto, StatusCode::CREATED, "UPFTO corrected");
    // 1,7978 × 2 (art. 103, I: 100 UPFTO = R$ 179,78).
    assert_eq!(upfto.body["valor"], "3.5956");
    let next = put(
        app,
        &format!("{TO}/units/UPFTO"),
        &admin,
        json!({ "desde": "2027-01-01", "correcao": { "indice": "IPCA-E 2026", "percentual": "4,5" }, "ato": "Decreto nº 9.100/2026" }),
    )
    .await;
    ok(&next, StatusCode::CREATED, "UPFTO corrected again");
    // 3,5956 × 1,045 = 3,757402 → 3,7574.
    assert_eq!(next.body["valor"], "3.7574");

    // Amapá: the CTM is never recorded by hand …
    let by_hand = put(
        app,
        &format!("{AP}/units/CTM"),
        &admin,
        json!({ "desde": "2026-01-01", "valor": "0.2", "ato": "x" }),
    )
    .await;
    ok(&by_hand, StatusCode::UNPROCESSABLE_ENTITY, "CTM by hand");
    assert_eq!(by_hand.body["artigos"][0], "Art. 21");
    // … but the mean of the lines' coefficients, semi-urban ones left out.
    for (code, coefficient, semi) in [
        ("AP-001", "0,2175", false),
        ("AP-002", "0,1825", false),
        ("AP-003", "0,5000", true),
    ] {
        let line = app
            .post(
                &format!("{AP}/lines"),
                &admin,
                json!({ "codigo": code, "nome": code, "coeficiente": coefficient, "semiurbana": semi }),
            )
            .await;
        ok(&line, StatusCode::CREATED, code);
    }
    let history = app.get(&format!("{AP}/units"), &reader).await;
    let ctm = unit(&history, "CTM");
    assert_eq!(ctm["das_linhas"], true);
    assert_eq!(ctm["calculado"][0]["valor"], "0.2", "{ctm}");
    assert_eq!(ctm["calculado"][0]["linhas"], 2);
    // A fine of 1 000 CTM (art. 61, I) in reais at that mean: R$ 200,00.
    let inspector = app.with_token("fiscal", Role::Inspector, Scope::All).await;
    let carrier = app
        .post(
            &format!("{AP}/people"),
            &clerk,
            json!({ "documento": "255.248.930-33", "nome": "Transportes Ana" }),
        )
        .await;
    ok(&carrier, StatusCode::CREATED, "carrier");
    let auto = app
        .post(
            &format!("{AP}/autos"),
            &inspector,
            json!({ "infracao": "61-I-a", "autuado": "25524893033",
                    "regulamento": "amapa/onibus-intermunicipal",
                    "cometida_em": "2026-06-01T10:00", "local": "Macapá", "descricao": "x" }),
        )
        .await;
    ok(&auto, StatusCode::CREATED, "auto");
    let fine = &auto.body["proposta"]["sancoes"][0];
    assert_eq!(
        (&fine["unidade"], &fine["quantidade"]),
        (&json!("CTM"), &json!("1000"))
    );
    assert_eq!(fine["reais"], "200.00", "{fine}");
    let approved = app
        .post(
            &format!("{AP}/lines/ap-002/coefficients"),
            &admin,
            json!({ "desde": "2026-07-01", "coeficiente": "0,2025", "ato": "Portaria nº 45/2026" }),
        )
        .await;
    ok(&approved, StatusCode::CREATED, "coefficient");
    let missing = app
        .post(
            &format!("{AP}/lines/AP-999/coefficients"),
            &admin,
            json!({ "desde": "2026-07-01", "coeficiente": "0,2", "ato": "x" }),
        )
        .await;
    ok(&missing, StatusCode::NOT_FOUND, "no such line");
    let history = app.get(&format!("{AP}/units"), &reader).await;
    let ctm = unit(&history, "CTM");
    assert_eq!(ctm["calculado"][1]["desde"], "2026-07-01", "{ctm}");
    assert_eq!(ctm["calculado"][1]["valor"], "0.21");
}

on_both_backends!(units);
