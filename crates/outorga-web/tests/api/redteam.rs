//! Red team: what an authenticated user with a limited role or scope, or an
//! anonymous client, can make the API do. Each test asserts what a sound
//! API would answer; a failing test is a finding (see the red-team report).

use crate::common::{App, PASSWORD};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::json;

fn cangucu() -> Scope {
    Scope::Only(vec!["cangucu".into()])
}

/// W1. A user name in the path that is not UTF-8 once decoded (`%FF`)
/// answers 500 "erro interno" on every `/api/users/{nome}…` route, to any
/// signed-in user: the extractor that reads `nome` turns the rejection into
/// a 500. (Under `/api/jurisdictions/{j}` the same path is a 400: held.)
async fn a_user_name_that_is_not_utf8_is_a_500(app: &App) {
    let clerk = app.with_token("ana", Role::Clerk, cangucu()).await;
    let root = app.with_token("root", Role::Admin, Scope::All).await;
    let mut internal = Vec::new();
    for (method, path, token) in [
        (Method::GET, "/api/users/%FF/tokens", &clerk),
        (Method::POST, "/api/users/%FF/tokens", &clerk),
        (Method::DELETE, "/api/users/%FF/tokens/x", &clerk),
        (Method::DELETE, "/api/users/%FF", &root),
        (Method::PUT, "/api/users/%FF/password", &root),
    ] {
        let answer = app
            .call(
                method.clone(),
                path,
                Some(token),
                Some(json!({ "rotulo": "x", "senha": "cavalo-grampo-bateria-certo" })),
            )
            .await;
        if !answer.status.is_client_error() {
            internal.push(format!("{method} {path}: {}", answer.status));
        }
    }
    assert!(internal.is_empty(), "{internal:#?}");
    let held = app
        .get("/api/jurisdictions/%FF/people/52998224725", &clerk)
        .await;
    assert!(held.status.is_client_error(), "{:?}", held.body);
}

/// W2. The reason of a change (`X-Motivo`) is checked for length only: a
/// bidirectional override (or a tab) goes into the audit log's
/// `justificativa`, which the board reads, reversed on screen.
async fn x_motivo_takes_a_bidi_override_into_the_log(app: &App) {
    let clerk = app.with_token("ana", Role::Clerk, cangucu()).await;
    let board = app.with_token("junta", Role::Board, cangucu()).await;
    let why = "Requerimento 12 \u{202E}odatsiger\u{202C}\tok";
    let answer = app
        .post_because(
            "/api/jurisdictions/cangucu/people",
            &clerk,
            json!({ "documento": "52998224725", "nome": "Maria Silva" }),
            why,
        )
        .await;
    if answer.status.is_success() {
        let log = app.get("/api/audit", &board).await;
        let recorded = log
            .body
            .as_array()
            .into_iter()
            .flatten()
            .any(|e| e["justificativa"].as_str() == Some(why));
        assert!(
            !recorded,
            "X-Motivo with U+202E and a tab was recorded as the change's reason"
        );
    }
}

/// W3. User names refuse control characters and blanks but not the
/// bidirectional overrides that `text.rs` refuses in every other name: an
/// actor named `ana\u{202E}` shows reversed in the log.
async fn a_user_name_may_hold_a_bidi_override(app: &App) {
    let root = app.with_token("root", Role::Admin, Scope::All).await;
    let answer = app
        .post(
            "/api/users",
            &root,
            json!({ "nome": "adm\u{202E}nimda", "papel": "clerk",
                    "senha": "cavalo-grampo-bateria-certo" }),
        )
        .await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a user name with U+202E: {:?}",
        answer.body
    );
}

/// W4. A token's label is checked for length only: control characters and
/// bidirectional overrides pass (and show in the log's detail).
async fn a_token_label_may_hold_control_characters(app: &App) {
    let clerk = app.with_token("ana", Role::Clerk, cangucu()).await;
    let answer = app
        .post(
            "/api/users/ana/tokens",
            &clerk,
            json!({ "rotulo": "a\u{0007}b\u{202E}c" }),
        )
        .await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a label with BEL and U+202E: {:?}",
        answer.body
    );
}

/// W5. The limit per user name counts failures from every client, so
/// anyone who knows a name keeps its owner out: five wrong passwords a
/// minute from one address, and the administrator, from another address
/// and with the right password, is refused (429) for as long as it lasts.
/// (The limit the issue asked for; a design trade-off, reported.)
async fn anyone_keeps_a_named_user_out(app: &App) {
    app.with_token("root", Role::Admin, Scope::All).await;
    for n in 0..5 {
        let wrong = app
            .login_from("root", &format!("errada-{n}-xxxxxxx"), "203.0.113.7")
            .await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{:?}", wrong.body);
    }
    let right = app.login_from("root", PASSWORD, "198.51.100.20").await;
    assert_eq!(
        right.status,
        StatusCode::CREATED,
        "the administrator, from their own address: {:?}",
        right.body
    );
}

/// W6. An administrator limited to Canguçu learns which user names exist
/// outside their scope: 403 for an existing user, 404 for none (and 409 on
/// creating one with a taken name).
async fn a_scoped_admin_learns_which_names_exist(app: &App) {
    app.with_token("bia", Role::Clerk, Scope::Only(vec!["amapa".into()]))
        .await;
    let chefe = app
        .with_token("chefe.cangucu", Role::Admin, cangucu())
        .await;
    let existing = app.get("/api/users/bia/tokens", &chefe).await;
    let missing = app.get("/api/users/ninguem/tokens", &chefe).await;
    assert_eq!(
        existing.status, missing.status,
        "bia (amapá) {:?} vs nobody {:?}",
        existing.body, missing.body
    );
}

/// W8. A NUL character in a path, a query or a JSON text reaches the
/// database unchecked: PostgreSQL refuses it in text ("invalid byte
/// sequence for encoding UTF8: 0x00") and the API answers 500, to anyone,
/// since the sign-in and the public checks take no token. SQLite stores it.
async fn a_nul_character_is_a_500_on_postgresql(app: &App) {
    let clerk = app.with_token("ana", Role::Clerk, cangucu()).await;
    let root = app.with_token("root", Role::Admin, Scope::All).await;
    let mut internal = Vec::new();
    for (method, path, token, body) in [
        (Method::GET, "/api/audit?assunto=%00", Some(&root), None),
        (
            Method::GET,
            "/api/jurisdictions/%00/people/52998224725",
            Some(&clerk),
            None,
        ),
        (
            Method::GET,
            "/api/public/jurisdictions/%00/vehicles/ABC1D23",
            None,
            None,
        ),
        (Method::GET, "/api/public/documents/A%00", None, None),
        (Method::GET, "/api/users/%00/tokens", Some(&root), None),
        (
            Method::DELETE,
            "/api/users/ana/tokens/%00",
            Some(&clerk),
            None,
        ),
        (
            Method::POST,
            "/api/session",
            None,
            Some(json!({ "nome": "ana\u{0}", "senha": "qualquer-coisa" })),
        ),
        (
            Method::POST,
            "/api/users/ana/tokens",
            Some(&clerk),
            Some(json!({ "rotulo": "a\u{0}b" })),
        ),
    ] {
        let answer = app
            .call(method.clone(), path, token.map(String::as_str), body)
            .await;
        if answer.status.is_server_error() {
            internal.push(format!("{method} {path}: {}", answer.status));
        }
    }
    assert!(internal.is_empty(), "{internal:#?}");
}

/// Held: scope edges an administrator limited to Canguçu might try, and
/// odd parameters; none reaches past the scope, none answers 5xx.
async fn held_scope_edges_and_odd_parameters(app: &App) {
    let root = app.with_token("root", Role::Admin, Scope::All).await;
    let chefe = app
        .with_token("chefe.cangucu", Role::Admin, cangucu())
        .await;
    let strong = "cavalo-grampo-bateria-certo";
    for (body, what) in [
        (
            json!({ "nome": "x1", "papel": "admin", "senha": strong, "jurisdicoes": ["*"] }),
            "[*]",
        ),
        (
            json!({ "nome": "x2", "papel": "admin", "senha": strong, "jurisdicoes": [] }),
            "[]",
        ),
        (
            json!({ "nome": "x3", "papel": "admin", "senha": strong, "jurisdicoes": null }),
            "null",
        ),
        (
            json!({ "nome": "x4", "papel": "Administrador", "senha": strong,
                 "jurisdicoes": ["cangucu", "Cangucu"] }),
            "case",
        ),
    ] {
        let answer = app.post("/api/users", &chefe, body).await;
        assert!(
            answer.status == StatusCode::FORBIDDEN
                || answer.status == StatusCode::UNPROCESSABLE_ENTITY,
            "{what}: {} {:?}",
            answer.status,
            answer.body
        );
    }
    for path in [
        "/api/users/%20root%20/tokens",
        "/api/users/root%00/tokens",
        "/api/users/ROOT/tokens",
    ] {
        let answer = app.post(path, &chefe, json!({ "rotulo": "x" })).await;
        assert!(
            matches!(
                answer.status,
                StatusCode::FORBIDDEN | StatusCode::NOT_FOUND | StatusCode::BAD_REQUEST
            ),
            "{path}: {} {:?}",
            answer.status,
            answer.body
        );
    }
    let mut internal = Vec::new();
    for path in [
        "/api/jurisdictions/cangucu/autos/99999999999999999999/1",
        "/api/jurisdictions/cangucu/autos/-1/-1",
        "/api/jurisdictions/cangucu/debts/2026/1/1/due?data=%2B262142-12-31",
        "/api/jurisdictions/cangucu/debts/2026/1/99999999999/due?data=-262143-01-01",
        "/api/jurisdictions/cangucu/agenda?data=%2B262142-12-31&dias=4294967295",
        "/api/jurisdictions/cangucu/agenda?data=-262143-01-01",
        "/api/jurisdictions/cangucu/people/%00",
        "/api/jurisdictions/cangucu/vehicles/%E2%80%AE",
        "/api/public/documents/%00",
        "/api/public/jurisdictions/cangucu/vehicles/%FF",
        "/api/sign-ins?desde=%2B262142-12-31T23:59&limite=500",
        "/api/sign-ins?limite=9223372036854775807",
    ] {
        let answer = app.get(path, &root).await;
        if answer.status.is_server_error() {
            internal.push(format!("{path}: {} {:?}", answer.status, answer.body));
        }
    }
    for expiry in ["9999-12-31", "+262142-12-31", "0000-01-01", "31/02/2027"] {
        let answer = app
            .post(
                "/api/users/root/tokens",
                &root,
                json!({ "rotulo": format!("t{expiry}"), "expira_em": expiry }),
            )
            .await;
        if answer.status.is_server_error() {
            internal.push(format!("expira_em {expiry}: {}", answer.status));
        }
    }
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let answer = app
        .raw(
            Method::POST,
            "/api/session",
            None,
            Some("application/json"),
            &deep,
        )
        .await;
    if answer.status.is_server_error() {
        internal.push(format!("nested body: {}", answer.status));
    }
    assert!(internal.is_empty(), "{internal:#?}");
}

on_both_backends!(
    a_user_name_that_is_not_utf8_is_a_500,
    x_motivo_takes_a_bidi_override_into_the_log,
    a_user_name_may_hold_a_bidi_override,
    a_token_label_may_hold_control_characters,
    anyone_keeps_a_named_user_out,
    a_scoped_admin_learns_which_names_exist,
    a_nul_character_is_a_500_on_postgresql,
    held_scope_edges_and_odd_parameters,
);
