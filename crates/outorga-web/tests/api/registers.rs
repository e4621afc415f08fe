//! The registers through the API: what a clerk sends, what comes back, what
//! is refused and why, and the audit log of it all.

use crate::common::App;
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

/// One refusal: `body` posted to `path` answers `status` naming `campo`,
/// with `motivo` in its reason.
async fn check(
    app: &App,
    token: &str,
    path: &str,
    body: Value,
    status: u16,
    campo: &str,
    motivo: &str,
) {
    let answer = app.post(path, token, body.clone()).await;
    assert_eq!(answer.status.as_u16(), status, "{body}: {:?}", answer.body);
    assert_eq!(answer.body["campo"], campo, "{body}: {:?}", answer.body);
    assert!(
        answer.text("motivo").contains(motivo),
        "{body}: {:?}",
        answer.body
    );
    assert!(
        answer.text("erro").starts_with(campo),
        "{body}: {:?}",
        answer.body
    );
}

async fn people(app: &App) {
    let clerk = app.signed_in("ana.clerk", Role::Clerk, Scope::All).await;
    let path = "/api/jurisdictions/cangucu/people";
    let made = app
        .post(
            path,
            &clerk,
            json!({ "documento": "255.248.930-33", "nome": " Ana Souza " }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    assert_eq!(
        made.body,
        json!({ "documento": "25524893033", "tipo": "pessoa", "nome": "Ana Souza" })
    );
    // Why the change is made, when the clerk says it, goes to the audit log.
    let company = app
        .post_because(
            path,
            &clerk,
            json!({ "documento": "12.abc.345/01de-35", "nome": "Nova S.A." }),
            "Requerimento nº 12/2026",
        )
        .await;
    assert_eq!(company.body["tipo"], "empresa", "{:?}", company.body);

    let found = app
        .get("/api/jurisdictions/cangucu/people/255.248.930-33", &clerk)
        .await;
    assert_eq!(found.status, StatusCode::OK);
    assert_eq!(found.body["nome"], "Ana Souza");
    let elsewhere = app
        .get("/api/jurisdictions/amapa/people/25524893033", &clerk)
        .await;
    assert_eq!(elsewhere.status, StatusCode::NOT_FOUND);
    assert!(elsewhere.text("erro").contains("não está cadastrado"));
    let bad = app
        .get("/api/jurisdictions/cangucu/people/123", &clerk)
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);

    check(
        app,
        &clerk,
        path,
        json!({ "documento": "255.248.930-34", "nome": "Ana" }),
        422,
        "documento",
        "CPF inválido",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        json!({ "documento": "123", "nome": "Ana" }),
        422,
        "documento",
        "informe um CPF",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        json!({ "documento": "25524893033", "nome": "Outra" }),
        409,
        "documento",
        "já está cadastrado em cangucu",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        json!({ "documento": "36002518000101", "nome": "  " }),
        422,
        "nome",
        "em branco",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        json!({ "documento": "36002518000101" }),
        422,
        "nome",
        "campo obrigatório ausente",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        json!({ "documento": "36002518000101", "nome": "F", "apelido": "x" }),
        422,
        "apelido",
        "campo desconhecido; os campos aceitos são: documento, nome",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        json!({ "documento": 36002518000101u64, "nome": "F" }),
        422,
        "documento",
        "tipo inválido",
    )
    .await;
    let unknown = app
        .post(
            "/api/jurisdictions/atlantida/people",
            &clerk,
            json!({ "documento": "36002518000101", "nome": "F" }),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{:?}", unknown.body);
    assert!(unknown.text("erro").contains("não está cadastrada"));

    // Text that is not JSON, or not declared as JSON.
    let broken = app
        .raw(
            Method::POST,
            path,
            Some(&clerk),
            Some("application/json"),
            r#"{"documento": "36002518000101", "nome": "#,
        )
        .await;
    assert_eq!(broken.status, StatusCode::BAD_REQUEST, "{:?}", broken.body);
    assert_eq!(broken.body["campo"], "corpo");
    assert!(
        broken
            .text("motivo")
            .starts_with("JSON incompleto (linha 1"),
        "{:?}",
        broken.body
    );
    let malformed = app
        .raw(
            Method::POST,
            path,
            Some(&clerk),
            Some("application/json"),
            "{documento: 1}",
        )
        .await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert!(
        malformed.text("motivo").starts_with("JSON malformado"),
        "{:?}",
        malformed.body
    );
    let form = app
        .raw(
            Method::POST,
            path,
            Some(&clerk),
            Some("application/x-www-form-urlencoded"),
            "documento=1",
        )
        .await;
    assert_eq!(form.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(form.text("erro").contains("Content-Type: application/json"));

    // Nothing refused was written; what was written is audited under the clerk.
    let entries = app.store.audit_entries(None).await.expect("audit");
    let registered: Vec<(&str, &str, &str)> = entries
        .iter()
        .filter(|e| e.action == "person.register")
        .map(|e| (e.actor.as_str(), e.subject.as_str(), e.reason.as_str()))
        .collect();
    assert_eq!(
        registered,
        [
            ("ana.clerk", "person:25524893033", "cadastro pela API"),
            (
                "ana.clerk",
                "person:12ABC34501DE35",
                "Requerimento nº 12/2026"
            ),
        ]
    );
}

async fn vehicles(app: &App) {
    let clerk = app.signed_in("ana.clerk", Role::Clerk, Scope::All).await;
    let path = "/api/jurisdictions/cangucu/vehicles";
    let car = json!({
        "placa": "iab-1234", "renavam": "83430942209", "ano_fabricacao": 2020,
        "cor": "branca", "portas": 4, "lotacao": 4,
        "equipamentos": ["taxímetro", "luminoso", " taxímetro "], "adaptacoes": [],
        "marca": " Chevrolet ", "modelo": "Spin 1.8"
    });
    let made = app.post(path, &clerk, car).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    let expected = json!({
        "placa": "IAB1234", "renavam": "83430942209", "ano_fabricacao": 2020,
        "cor": "branca", "portas": 4, "lotacao": 4,
        "equipamentos": ["taximetro", "luminoso"], "adaptacoes": [],
        "marca": "Chevrolet", "modelo": "Spin 1.8"
    });
    // The taximeter the law asks for goes by the catalog's name; other
    // items as they came.
    assert_eq!(made.body, expected);
    assert_eq!(
        app.get("/api/jurisdictions/cangucu/vehicles/IAB-1234", &clerk)
            .await
            .body,
        expected
    );
    assert_eq!(
        app.get("/api/jurisdictions/cangucu/vehicles/ZZZ9999", &clerk)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // Only the required fields; a model of next year (the clock says 2026).
    let minimal = app
        .post(
            path,
            &clerk,
            json!({ "placa": "IXR1A23", "renavam": "10256960027", "ano_fabricacao": 2027 }),
        )
        .await;
    assert_eq!(minimal.status, StatusCode::CREATED, "{:?}", minimal.body);
    assert_eq!(minimal.body["cor"], "");
    assert_eq!(minimal.body["marca"], Value::Null, "no make recorded");

    let with = |field: &str, value: Value| {
        let mut body =
            json!({ "placa": "QRS2B34", "renavam": "77080225118", "ano_fabricacao": 2024 });
        body[field] = value;
        body
    };
    check(
        app,
        &clerk,
        path,
        with("placa", json!("AB-12")),
        422,
        "placa",
        "Mercosul",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        with("renavam", json!("77080225119")),
        422,
        "renavam",
        "dígito verificador",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        with("ano_fabricacao", json!(2028)),
        422,
        "ano de fabricação",
        "entre 1950 e 2027",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        with("portas", json!(0)),
        422,
        "portas",
        "maior que zero",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        with("portas", json!(300)),
        422,
        "portas",
        "valor inválido",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        with("equipamentos", json!("taxímetro")),
        422,
        "equipamentos",
        "esperado lista",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        with("placa", json!("IAB1234")),
        409,
        "placa ou renavam",
        "já está cadastrado",
    )
    .await;
    check(
        app,
        &clerk,
        path,
        with("ano", json!(2020)),
        422,
        "ano",
        "campo desconhecido",
    )
    .await;
}

async fn lines_and_stands(app: &App) {
    let clerk = app.signed_in("ana.clerk", Role::Clerk, Scope::All).await;
    let lines = "/api/jurisdictions/amapa/lines";
    let made = app
        .post(
            lines,
            &clerk,
            json!({ "codigo": "l-01", "nome": "Macapá–Santana", "coeficiente": "0,21750",
                    "itinerario": ["Macapá", "Santana"],
                    "secoes": [{ "de": "Macapá", "para": "Santana", "km": "21,5" }] }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    assert_eq!(
        app.get(lines, &clerk).await.body,
        json!({ "proximo": null, "itens": [{ "codigo": "L-01", "nome": "Macapá–Santana", "semiurbana": false, "coeficiente": "0.2175",
                 "itinerario": ["Macapá", "Santana"],
                 "secoes": [{ "de": "Macapá", "para": "Santana", "km": "21.5" }] }] })
    );
    check(
        app,
        &clerk,
        lines,
        json!({ "codigo": "L-02", "nome": "X", "coeficiente": "zero" }),
        422,
        "coeficiente",
        "número decimal",
    )
    .await;
    check(
        app,
        &clerk,
        lines,
        json!({ "codigo": "L-01", "nome": "X", "coeficiente": "0.3" }),
        409,
        "código",
        "já está cadastrada",
    )
    .await;

    let stands = "/api/jurisdictions/cangucu/stands";
    for stand in [
        json!({ "codigo": "p-1", "nome": "Praça", "vagas": 6 }),
        json!({ "codigo": "festa", "nome": "Festa do Pêssego" }),
    ] {
        assert_eq!(
            app.post(stands, &clerk, stand).await.status,
            StatusCode::CREATED
        );
    }
    assert_eq!(
        app.get(stands, &clerk).await.body,
        json!({ "proximo": null, "itens": [
            { "codigo": "FESTA", "nome": "Festa do Pêssego", "vagas": null, "ato": null,
              "de": null, "ate": null },
            { "codigo": "P-1", "nome": "Praça", "vagas": 6, "ato": null, "de": null, "ate": null }
        ] })
    );
    check(
        app,
        &clerk,
        stands,
        json!({ "codigo": "P-2", "nome": "X", "vagas": 0 }),
        422,
        "vagas",
        "ao menos uma vaga",
    )
    .await;
    check(
        app,
        &clerk,
        stands,
        json!({ "codigo": "", "nome": "X" }),
        422,
        "código",
        "em branco",
    )
    .await;
}

async fn audit(app: &App) {
    let clerk = app.signed_in("ana.clerk", Role::Clerk, Scope::All).await;
    let board = app.signed_in("jari", Role::Board, Scope::All).await;
    let local_board = app
        .signed_in("jari.amapa", Role::Board, Scope::Only(vec!["amapa".into()]))
        .await;
    let made = app
        .post(
            "/api/jurisdictions/cangucu/people",
            &clerk,
            json!({ "documento": "25524893033", "nome": "Ana" }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED);

    let about = app
        .get("/api/audit?assunto=person:25524893033", &board)
        .await;
    assert_eq!(about.status, StatusCode::OK);
    let entries = about.body["itens"].as_array().expect("list");
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["autor"], "ana.clerk");
    assert_eq!(entries[0]["acao"], "person.register");
    assert_eq!(entries[0]["jurisdicao"], "cangucu");
    assert_eq!(entries[0]["em"], "2026-11-30T09:00:00.000000Z");
    assert_eq!(
        entries[0]["detalhe"],
        json!({ "kind": "person", "name": "Ana" })
    );
    // `subject` is accepted too.
    assert_eq!(
        app.get("/api/audit?subject=person:25524893033", &board)
            .await
            .body,
        about.body
    );
    // A board bound to Amapá sees none of Canguçu's entries.
    let theirs = app.get("/api/audit", &local_board).await;
    let theirs = theirs.body["itens"].as_array().expect("list");
    assert!(!theirs.is_empty());
    assert!(
        theirs.iter().all(|e| e["jurisdicao"] == "amapa"),
        "{theirs:?}"
    );

    let all = app.get("/api/audit?limite=200", &board).await.body;
    assert_eq!(all["proximo"], json!(null), "one page holds them all");
    let count = all["itens"].as_array().map_or(0, Vec::len);
    let verified = app.get("/api/audit/verify", &board).await;
    assert_eq!(verified.body["integro"], true, "{:?}", verified.body);
    assert_eq!(verified.body["entradas"], count);
    assert_eq!(verified.body["problemas"], json!([]));
    assert!(verified.body["registros"].as_i64().is_some_and(|n| n > 0));
    // A board bound to Amapá sees Amapá's figures only.
    let local = app.get("/api/audit/verify", &local_board).await;
    assert_eq!(local.body["integro"], true);
    assert_eq!(local.body["entradas"], theirs.len());
}

async fn health(app: &App) {
    let answer = app.call(Method::GET, "/api/health", None, None).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, json!({ "status": "ok" }));
    let nowhere = app.call(Method::GET, "/api/nada", None, None).await;
    assert_eq!(nowhere.status, StatusCode::NOT_FOUND);
    assert!(nowhere.text("erro").contains("rota não encontrada"));
    let wrong = app.call(Method::PUT, "/api/health", None, None).await;
    assert_eq!(wrong.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(wrong.text("erro").contains("método não permitido"));
}

on_both_backends!(people, vehicles, lines_and_stands, audit, health);
