//! Lists answer a page at a time, on both backends: walking a list page by
//! page gives every item once, in order, and ends with `proximo: null`; the
//! filters staff search by; `limite` within its bounds; a cursor that cannot
//! be read; the audit log within the reader's jurisdictions; the agenda.

use crate::common::{Answer, App, setup};
use axum::http::StatusCode;
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
const ANA: &str = "52601815906";
const BETO: &str = "08301661305";

/// `path` with `limite` and, after the first page, the cursor.
fn page_path(path: &str, limite: u32, cursor: Option<&str>) -> String {
    let join = if path.contains('?') { '&' } else { '?' };
    match cursor {
        Some(cursor) => format!("{path}{join}limite={limite}&cursor={cursor}"),
        None => format!("{path}{join}limite={limite}"),
    }
}

/// Every item of the list at `path`, page by page: each page holds at most
/// `limite` items, all but the last exactly `limite`, the last says
/// `proximo: null`, and no item comes twice.
async fn walk(app: &App, path: &str, token: &str, limite: u32) -> Vec<Value> {
    let mut items: Vec<Value> = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = app
            .get(&page_path(path, limite, cursor.as_deref()), token)
            .await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {:?}", page.body);
        let these = page.body["itens"].as_array().cloned().expect("itens");
        assert!(these.len() <= limite as usize, "{path}: {these:?}");
        for item in these.iter() {
            assert!(!items.contains(item), "{path}: {item} came twice");
        }
        let full = these.len() == limite as usize;
        items.extend(these);
        match page.body["proximo"].as_str() {
            Some(next) => {
                assert!(full, "{path}: a page before the last is full");
                cursor = Some(next.to_string());
            }
            None => {
                assert_eq!(page.body["proximo"], Value::Null);
                return items;
            }
        }
    }
}

/// The items of one page of `path` (at most 200).
async fn all(app: &App, path: &str, token: &str) -> Vec<Value> {
    let page = app.get(&page_path(path, 200, None), token).await;
    assert_eq!(page.status, StatusCode::OK, "{path}: {:?}", page.body);
    assert_eq!(page.body["proximo"], Value::Null, "{path}: one page");
    page.body["itens"].as_array().cloned().expect("itens")
}

fn field(items: &[Value], key: &str) -> Vec<String> {
    items
        .iter()
        .map(|i| match &i[key] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

fn refused(answer: &Answer, status: StatusCode, campo: &str) {
    assert_eq!(answer.status, status, "{:?}", answer.body);
    assert_eq!(answer.body["campo"], campo, "{:?}", answer.body);
}

/// Ana and Beto registered; seven autos: Ana's on 1–4 Nov (plates
/// MTB1A11, then MTB2B22), Beto's on 5–7 Nov (no plate).
async fn seven_autos(app: &App) -> (String, String) {
    for (doc, name) in [(ANA, "Ana"), (BETO, "Beto")] {
        app.store
            .register(&setup(), "santa-maria-de-jetiba", doc, name)
            .await
            .expect("register");
    }
    let inspector = app.with_token("fiscal", Role::Inspector, Scope::All).await;
    let reader = app.with_token("consulta", Role::ReadOnly, Scope::All).await;
    for day in 1..=7 {
        let (who, plate) = match day {
            1 | 2 => (ANA, json!("MTB1A11")),
            3 | 4 => (ANA, json!("MTB2B22")),
            _ => (BETO, Value::Null),
        };
        let auto = app
            .post(
                &format!("{SMJ}/autos"),
                &inspector,
                json!({ "infracao": if day == 7 { "51-I-b" } else { "51-I-a" },
                        "autuado": who, "placa": plate,
                        "regulamento": "santa-maria-de-jetiba/taxi",
                        "cometida_em": format!("2026-11-0{day}T10:00"),
                        "local": "Praça Central", "descricao": "parado em local proibido" }),
            )
            .await;
        assert_eq!(auto.status, StatusCode::CREATED, "{:?}", auto.body);
    }
    (inspector, reader)
}

async fn autos_page_by_page(app: &App) {
    let (_, reader) = seven_autos(app).await;
    let autos = format!("{SMJ}/autos");
    let whole = all(app, &autos, &reader).await;
    // The latest infraction first.
    assert_eq!(
        field(&whole, "cometida_em"),
        (1..=7)
            .rev()
            .map(|d| format!("2026-11-0{d}T10:00:00"))
            .collect::<Vec<_>>()
    );
    for limite in [1, 2, 3, 7] {
        assert_eq!(
            walk(app, &autos, &reader, limite).await,
            whole,
            "limite {limite}"
        );
    }
    // The default page holds them all; a page of exactly all ends the list.
    let first = app.get(&autos, &reader).await;
    assert_eq!(first.body["itens"].as_array().map(Vec::len), Some(7));
    assert_eq!(first.body["proximo"], Value::Null);
}

async fn autos_filters(app: &App) {
    let (_, reader) = seven_autos(app).await;
    let autos = format!("{SMJ}/autos");
    let numbers = |items: Vec<Value>| field(&items, "numero");
    let of = |query: &str| format!("{autos}?{query}");
    assert_eq!(
        numbers(all(app, &of(&format!("autuado={ANA}")), &reader).await),
        ["4", "3", "2", "1"]
    );
    // A CPF with punctuation is the same person.
    assert_eq!(
        all(app, &of("autuado=526.018.159-06"), &reader).await.len(),
        4
    );
    assert_eq!(
        numbers(all(app, &of("placa=MTB-1A11"), &reader).await),
        ["2", "1"]
    );
    assert_eq!(
        numbers(all(app, &of("infracao=51-I-b"), &reader).await),
        ["7"]
    );
    assert_eq!(all(app, &of("situacao=lavrado"), &reader).await.len(), 7);
    assert!(
        all(app, &of("situacao=definitivo"), &reader)
            .await
            .is_empty()
    );
    // The spelling of the record, as clients written before sent it.
    assert_eq!(all(app, &of("situacao=issued"), &reader).await.len(), 7);
    assert_eq!(
        numbers(all(app, &of("de=2026-11-03&ate=2026-11-05"), &reader).await),
        ["5", "4", "3"]
    );
    assert_eq!(
        numbers(all(app, &of(&format!("autuado={BETO}&de=2026-11-06")), &reader).await),
        ["7", "6"]
    );
    // A filter combined with paging walks the filtered list.
    assert_eq!(
        numbers(walk(app, &of(&format!("autuado={ANA}")), &reader, 3).await),
        ["4", "3", "2", "1"]
    );
    // Bad filters name the parameter.
    for (query, campo) in [
        ("situacao=perdido", "situacao"),
        ("autuado=123", "autuado"),
        ("placa=12", "placa"),
        ("de=ontem", "de"),
        ("de=2026-11-05&ate=2026-11-01", "ate"),
    ] {
        let answer = app.get(&format!("{autos}?{query}"), &reader).await;
        refused(&answer, StatusCode::UNPROCESSABLE_ENTITY, campo);
    }
}

async fn limits_and_cursors(app: &App) {
    let (_, reader) = seven_autos(app).await;
    let autos = format!("{SMJ}/autos");
    for limite in ["0", "201", "100000"] {
        let answer = app.get(&format!("{autos}?limite={limite}"), &reader).await;
        refused(&answer, StatusCode::UNPROCESSABLE_ENTITY, "limite");
        assert!(answer.text("motivo").contains("200"), "{:?}", answer.body);
    }
    refused(
        &app.get(&format!("{autos}?limite=muitos"), &reader).await,
        StatusCode::BAD_REQUEST,
        "limite",
    );
    assert_eq!(
        app.get(&format!("{autos}?limite=200"), &reader)
            .await
            .status,
        StatusCode::OK
    );
    // A cursor that is not one, or was altered.
    for cursor in ["xyz", "%21%21", "eyJ9"] {
        refused(
            &app.get(&format!("{autos}?cursor={cursor}"), &reader).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "cursor",
        );
    }
    // Another list's cursor: the agenda's, sent to the autos.
    let agenda = app
        .get(&format!("{SMJ}/agenda?dias=366&limite=1"), &reader)
        .await;
    let theirs = agenda.text("proximo");
    assert!(!theirs.is_empty(), "{:?}", agenda.body);
    refused(
        &app.get(&format!("{autos}?cursor={theirs}"), &reader).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "cursor",
    );
    // And the autos' cursor to the agenda.
    let page = app.get(&format!("{autos}?limite=1"), &reader).await;
    let ours = page.text("proximo");
    refused(
        &app.get(&format!("{SMJ}/agenda?cursor={ours}"), &reader)
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "cursor",
    );
    // The agenda's horizon has a maximum too.
    refused(
        &app.get(&format!("{SMJ}/agenda?dias=367"), &reader).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "dias",
    );
}

async fn agenda_page_by_page(app: &App) {
    let (_, reader) = seven_autos(app).await;
    let agenda = format!("{SMJ}/agenda?data=2026-11-30&dias=366");
    let whole = all(app, &agenda, &reader).await;
    // Every auto is to be notified, soonest first.
    assert_eq!(whole.len(), 7, "{whole:?}");
    assert!(whole.iter().all(|i| i["tipo"] == "notificacao"));
    let due = field(&whole, "vence_em");
    let mut sorted = due.clone();
    sorted.sort();
    assert_eq!(due, sorted);
    for limite in [1, 2, 3] {
        assert_eq!(
            walk(app, &agenda, &reader, limite).await,
            whole,
            "limite {limite}"
        );
    }
    // The horizon still bounds it.
    assert!(
        all(
            app,
            &format!("{SMJ}/agenda?data=2026-11-30&dias=0"),
            &reader
        )
        .await
        .iter()
        .all(|i| i["vence_em"].as_str() <= Some("2026-11-30"))
    );
}

async fn audit_in_scope(app: &App) {
    let (_, _) = seven_autos(app).await;
    let board = app.with_token("junta", Role::Board, Scope::All).await;
    let local = app
        .with_token(
            "junta.cangucu",
            Role::Board,
            Scope::Only(vec!["cangucu".into()]),
        )
        .await;
    let clerk = app.with_token("atendente", Role::Clerk, Scope::All).await;
    for (j, doc) in [("cangucu", ANA), ("amapa", BETO)] {
        let made = app
            .post(
                &format!("/api/jurisdictions/{j}/people"),
                &clerk,
                json!({ "documento": doc, "nome": "Alguém" }),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    }
    // Paging the whole log: every entry once, in order of time.
    let everything = walk(app, "/api/audit", &board, 4).await;
    assert_eq!(everything, all(app, "/api/audit", &board).await);
    let seqs: Vec<i64> = everything
        .iter()
        .filter_map(|e| e["sequencia"].as_i64())
        .collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");

    // Filters, in SQL.
    let issued = walk(app, "/api/audit?acao=auto.issued", &board, 3).await;
    assert_eq!(issued.len(), 7);
    assert!(issued.iter().all(|e| e["autor"] == "fiscal"));
    assert_eq!(
        all(app, "/api/audit?autor=atendente", &board).await.len(),
        2
    );
    assert_eq!(
        all(app, "/api/audit?assunto=auto:2026:3", &board)
            .await
            .len(),
        1
    );
    let of = |js: &[&str]| -> Vec<Value> {
        everything
            .iter()
            .filter(|e| js.iter().any(|j| e["jurisdicao"] == *j))
            .cloned()
            .collect()
    };
    assert_eq!(
        all(app, "/api/audit?jurisdicao=amapa", &board).await,
        of(&["amapa"])
    );
    assert_eq!(
        all(app, "/api/audit?de=2026-11-30&ate=2026-11-30", &board).await,
        everything
    );
    assert!(
        all(app, "/api/audit?de=2026-12-01", &board)
            .await
            .is_empty()
    );
    assert!(
        all(app, "/api/audit?ate=2026-11-29", &board)
            .await
            .is_empty()
    );

    // A board bound to Canguçu sees Canguçu's entries only, whatever it asks.
    let theirs = walk(app, "/api/audit", &local, 1).await;
    assert_eq!(theirs, of(&["cangucu"]));
    assert!(
        theirs.len() >= 2,
        "the jurisdiction's sync and Ana: {theirs:?}"
    );
    assert!(
        all(app, "/api/audit?acao=auto.issued", &local)
            .await
            .is_empty()
    );
    assert!(
        all(app, "/api/audit?assunto=auto:2026:3", &local)
            .await
            .is_empty()
    );
    assert_eq!(
        all(app, "/api/audit?autor=atendente", &local).await.len(),
        1
    );
    let elsewhere = app.get("/api/audit?jurisdicao=amapa", &local).await;
    assert_eq!(
        elsewhere.status,
        StatusCode::FORBIDDEN,
        "{:?}",
        elsewhere.body
    );
    assert_eq!(
        all(app, "/api/audit?jurisdicao=cangucu", &local).await,
        theirs
    );
    // Two jurisdictions: both, merged in order.
    let two = app
        .with_token(
            "junta.duas",
            Role::Board,
            Scope::Only(vec!["amapa".into(), "cangucu".into()]),
        )
        .await;
    assert_eq!(
        walk(app, "/api/audit", &two, 1).await,
        of(&["amapa", "cangucu"])
    );
}

async fn registers_page_by_page(app: &App) {
    let clerk = app.with_token("atendente", Role::Clerk, Scope::All).await;
    let stands = "/api/jurisdictions/cangucu/stands";
    for code in ["P-5", "P-1", "P-4", "P-2", "P-3"] {
        let made = app
            .post(
                stands,
                &clerk,
                json!({ "codigo": code, "nome": "Praça", "vagas": 2 }),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    }
    assert_eq!(
        field(&walk(app, stands, &clerk, 2).await, "codigo"),
        ["P-1", "P-2", "P-3", "P-4", "P-5"]
    );
    let lines = "/api/jurisdictions/amapa/lines";
    for code in ["L-3", "L-1", "L-2"] {
        let made = app
            .post(
                lines,
                &clerk,
                json!({ "codigo": code, "nome": "Linha", "coeficiente": "0,2" }),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    }
    assert_eq!(
        field(&walk(app, lines, &clerk, 2).await, "codigo"),
        ["L-1", "L-2", "L-3"]
    );
    // Complaints: the queue in the order they came (the same moment: by
    // protocol), page by page.
    let mut filed = Vec::new();
    for place in ["Praça", "Rodoviária", "Centro"] {
        let made = app
            .call(
                axum::http::Method::POST,
                "/api/public/jurisdictions/cangucu/complaints",
                None,
                Some(
                    json!({ "tipo": "refusal", "descricao": "Recusou a corrida curta.",
                             "quando": "2026-11-29T10:00", "local": place }),
                ),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
        filed.push(made.text("protocolo"));
    }
    filed.sort();
    assert_eq!(
        field(
            &walk(app, "/api/jurisdictions/cangucu/complaints", &clerk, 2).await,
            "protocolo"
        ),
        filed
    );
    // The jurisdictions, by id; a user bound to some sees only those.
    let all_of_them = walk(app, "/api/jurisdictions", &clerk, 1).await;
    assert_eq!(
        field(&all_of_them, "id"),
        ["amapa", "cangucu", "santa-maria-de-jetiba", "teofilo-otoni"]
    );
    assert!(
        all_of_them
            .iter()
            .all(|j| j["regulamentos"].as_array().is_some_and(|r| !r.is_empty()))
    );
    let two = app
        .with_token(
            "atendente.duas",
            Role::Clerk,
            Scope::Only(vec!["teofilo-otoni".into(), "amapa".into()]),
        )
        .await;
    assert_eq!(
        field(&walk(app, "/api/jurisdictions", &two, 1).await, "id"),
        ["amapa", "teofilo-otoni"]
    );
}

on_both_backends!(
    autos_page_by_page,
    autos_filters,
    limits_and_cursors,
    agenda_page_by_page,
    audit_in_scope,
    registers_page_by_page,
);

/// Every list of the OpenAPI document answers a page, with `limite` (its
/// default and maximum stated) and `cursor`: a new list cannot skip paging.
/// (Users and tokens are listed whole: few, and administrators' only.)
#[test]
fn every_list_in_the_document_pages() {
    let document = serde_json::to_value(outorga_web::openapi()).expect("document");
    let mut lists = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        let Some(get) = item.get("get") else { continue };
        let schema = &get["responses"]["200"]["content"]["application/json"]["schema"];
        let is_page = schema["$ref"].as_str().is_some_and(|r| r.contains("Lista"));
        if path.starts_with("/api/users") {
            continue;
        }
        assert!(
            schema["type"] != "array",
            "{path} answers a bare array: answer a page (page::Lista)"
        );
        if !is_page {
            continue;
        }
        let params = get["parameters"].as_array().cloned().unwrap_or_default();
        let named = |name: &str| params.iter().find(|p| p["name"] == name).cloned();
        let limite = named("limite").unwrap_or_else(|| panic!("{path}: no `limite`"));
        assert_eq!(limite["schema"]["maximum"], 200, "{path}: {limite}");
        assert_eq!(limite["schema"]["default"], 50, "{path}: {limite}");
        assert!(named("cursor").is_some(), "{path}: no `cursor`");
        lists.push(path.clone());
    }
    lists.sort();
    assert_eq!(
        lists,
        [
            "/api/audit",
            "/api/jurisdictions",
            "/api/jurisdictions/{j}/agenda",
            "/api/jurisdictions/{j}/autos",
            "/api/jurisdictions/{j}/calls",
            "/api/jurisdictions/{j}/carriers/{transportadora}/files",
            "/api/jurisdictions/{j}/carriers/{transportadora}/registrations",
            "/api/jurisdictions/{j}/complaints",
            "/api/jurisdictions/{j}/debts",
            "/api/jurisdictions/{j}/documents",
            "/api/jurisdictions/{j}/draws",
            "/api/jurisdictions/{j}/lines",
            "/api/jurisdictions/{j}/permits",
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers",
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-notices",
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/stands",
            "/api/jurisdictions/{j}/stand-swaps",
            "/api/jurisdictions/{j}/stands",
            "/api/sign-ins",
        ]
    );
}
