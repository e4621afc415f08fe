//! Bad input that used to be accepted is refused with the field and the
//! reason: texts over their maximum (stated in the OpenAPI document), hidden
//! characters in names, days the law cannot rule on, and the population of
//! a law that leaves it to a decree can be set.

use crate::common::App;
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
const ANA: &str = "25524893033";

/// Every text of every request body, nested ones included, states its
/// maximum: (schema path, maxLength) of those that do not.
fn unlimited(doc: &Value) -> Vec<String> {
    fn walk(
        doc: &Value,
        schema: &Value,
        path: &str,
        seen: &mut Vec<String>,
        out: &mut Vec<String>,
    ) {
        if let Some(reference) = schema["$ref"].as_str() {
            let name = reference.rsplit('/').next().unwrap_or_default();
            if seen.iter().any(|s| s == name) {
                return;
            }
            seen.push(name.to_string());
            walk(doc, &doc["components"]["schemas"][name], path, seen, out);
            return;
        }
        for key in ["oneOf", "anyOf", "allOf"] {
            for part in schema[key].as_array().into_iter().flatten() {
                walk(doc, part, path, seen, out);
            }
        }
        let types: Vec<&str> = match &schema["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if types.contains(&"string") && schema["maxLength"].as_u64().is_none() {
            out.push(path.to_string());
        }
        for (name, property) in schema["properties"].as_object().into_iter().flatten() {
            walk(doc, property, &format!("{path}.{name}"), seen, out);
        }
        if types.contains(&"array") {
            walk(doc, &schema["items"], &format!("{path}[]"), seen, out);
        }
    }
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            let body = &operation["requestBody"]["content"]["application/json"]["schema"];
            if !body.is_null() {
                walk(
                    doc,
                    body,
                    &format!("{method} {path}"),
                    &mut Vec::new(),
                    &mut out,
                );
            }
        }
    }
    out
}

async fn texts_have_a_maximum(app: &App) {
    let doc = app
        .call(Method::GET, "/api/openapi.json", None, None)
        .await
        .body;
    assert_eq!(unlimited(&doc), Vec::<String>::new());
    let person = &doc["components"]["schemas"]["PessoaEntrada"]["properties"]["nome"];
    assert_eq!(person["maxLength"], 200);
    let auto = &doc["components"]["schemas"]["AutoEntrada"]["properties"];
    assert_eq!(auto["descricao"]["maxLength"], 4000);
    assert_eq!(auto["local"]["maxLength"], 300);

    let clerk = app.signed_in("atendente", Role::Clerk, Scope::All).await;
    let people = format!("{SMJ}/people");
    let person = |name: &str| json!({ "documento": ANA, "nome": name });
    // 100 000 characters: refused before anything reads them, not echoed.
    let long = app
        .post(&people, &clerk, person(&"a".repeat(100_000)))
        .await;
    assert_eq!(
        long.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        long.body
    );
    assert_eq!(long.text("campo"), "nome");
    assert_eq!(long.text("motivo"), "tem 100000 caracteres; o máximo é 200");
    let just = app.post(&people, &clerk, person(&"a".repeat(201))).await;
    assert_eq!(just.text("motivo"), "tem 201 caracteres; o máximo é 200");
    for (name, hidden) in [("Ana\u{0}Souza", "U+0000"), ("Ana \u{202E}azuoS", "U+202E")] {
        let refused = app.post(&people, &clerk, person(name)).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{name:?}");
        assert_eq!(refused.text("campo"), "nome");
        assert!(
            refused.text("motivo").contains(hidden),
            "{:?}",
            refused.body
        );
    }
    let ok = app
        .post(&people, &clerk, person(&"Ana Conceição".repeat(15)))
        .await;
    assert_eq!(ok.status, StatusCode::CREATED, "{:?}", ok.body);
    // A nested text: a line's itinerary.
    let line = json!({ "codigo": "L1", "nome": "Linha", "coeficiente": "0,2",
                       "itinerario": ["Macapá", "x".repeat(201)] });
    let refused = app
        .post("/api/jurisdictions/amapa/lines", &clerk, line)
        .await;
    assert_eq!(refused.text("campo"), "itinerario[1]", "{:?}", refused.body);
}

async fn days_the_law_can_rule_on(app: &App) {
    let clerk = app.signed_in("atendente", Role::Clerk, Scope::All).await;
    let inspector = app.signed_in("fiscal", Role::Inspector, Scope::All).await;
    let registered = app
        .post(
            &format!("{SMJ}/people"),
            &clerk,
            json!({ "documento": ANA, "nome": "Ana" }),
        )
        .await;
    assert_eq!(registered.status, StatusCode::CREATED);
    let auto = |when: &str| {
        json!({ "infracao": "51-I-a", "autuado": ANA, "regulamento": "santa-maria-de-jetiba/taxi",
                "cometida_em": when, "local": "Praça Central", "descricao": "Fumando" })
    };
    let autos = format!("{SMJ}/autos");
    let ancient = app.post(&autos, &inspector, auto("1900-01-01T10:00")).await;
    assert_eq!(
        ancient.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        ancient.body
    );
    assert_eq!(ancient.text("campo"), "cometida_em");
    assert!(
        ancient
            .text("motivo")
            .contains("anterior à entrada em vigor da lei de Santa Maria de Jetibá (01/08/2024)"),
        "{:?}",
        ancient.body
    );
    // The clock reads 09:00 UTC, 06:00 in Santa Maria de Jetibá: an auto of
    // 06:30 today has not happened yet; one of 05:59 has.
    let later_today = app.post(&autos, &inspector, auto("2026-11-30T06:30")).await;
    assert_eq!(later_today.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(later_today.text("campo"), "cometida_em");
    assert!(
        later_today
            .text("motivo")
            .contains("é depois de agora (30/11/2026 06:00"),
        "{:?}",
        later_today.body
    );
    let just_before = app.post(&autos, &inspector, auto("2026-11-30T05:59")).await;
    assert_eq!(
        just_before.status,
        StatusCode::CREATED,
        "{:?}",
        just_before.body
    );
    let before = app.post(&autos, &inspector, auto("2024-07-31T23:59")).await;
    assert_eq!(before.status, StatusCode::UNPROCESSABLE_ENTITY);
    let first_day = app.post(&autos, &inspector, auto("2024-08-01T08:00")).await;
    assert_eq!(
        first_day.status,
        StatusCode::CREATED,
        "{:?}",
        first_day.body
    );
    let long = json!({ "infracao": "51-I-a", "autuado": ANA, "regulamento": "santa-maria-de-jetiba/taxi",
                       "cometida_em": "2026-11-28T10:00", "local": "Praça",
                       "descricao": "x".repeat(4001) });
    let refused = app.post(&autos, &inspector, long).await;
    assert_eq!(refused.text("campo"), "descricao", "{:?}", refused.body);

    // A birth in 1800, a licence valid for a century.
    let profile = format!("{SMJ}/people/{ANA}/profile");
    let born = app
        .call(
            Method::PUT,
            &profile,
            Some(&clerk),
            Some(json!({ "nascimento": "1800-01-01" })),
        )
        .await;
    assert_eq!(
        born.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        born.body
    );
    assert_eq!(born.text("campo"), "nascimento");
    assert!(born.text("motivo").contains("fora do intervalo possível"));
}

async fn population_of_a_decree(app: &App) {
    let admin = app.signed_in("chefe", Role::Admin, Scope::All).await;
    // Canguçu's law leaves the population to a decree (art. 3º, § 2º).
    let set = app
        .call(
            Method::PUT,
            "/api/jurisdictions/cangucu/parameters/population",
            Some(&admin),
            Some(json!({ "valor": "49607", "desde": "2024-03-05", "ato": "Decreto de teste" })),
        )
        .await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.body);
    assert_eq!(set.body["valor"], "49607");
    let entries = app
        .store
        .audit_entries(Some("parameter:population"))
        .await
        .expect("log");
    assert!(
        entries
            .iter()
            .any(|e| e.jurisdiction.as_deref() == Some("cangucu"))
    );
    let unknown = app
        .call(
            Method::PUT,
            "/api/jurisdictions/cangucu/parameters/frota",
            Some(&admin),
            Some(json!({ "valor": "1", "desde": "2024-03-05", "ato": "Decreto de teste" })),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unknown.text("campo"), "nome");
}

on_both_backends!(
    texts_have_a_maximum,
    days_the_law_can_rule_on,
    population_of_a_decree
);
