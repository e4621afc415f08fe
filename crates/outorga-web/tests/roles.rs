//! Which role may call which route: one row per route, one column per role.
//! No credentials is 401; a role the route does not admit is 403 with a
//! Portuguese reason; an admitted role gets past authorization (whatever the
//! route then answers).

mod common;

use axum::http::{Method, StatusCode};
use common::App;
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

/// The roles, in the order of the columns below.
const ROLES: [Role; 5] = [
    Role::Admin,
    Role::Clerk,
    Role::Inspector,
    Role::Board,
    Role::ReadOnly,
];

/// `A`dmitted or `F`orbidden, per role: admin, clerk, inspector, board, read-only.
fn table() -> Vec<(Method, &'static str, Option<Value>, &'static str)> {
    let person = json!({ "documento": "255.248.930-33", "nome": "Ana" });
    let vehicle = json!({ "placa": "ABC1D23", "renavam": "00000000019", "ano_fabricacao": 2020 });
    let line = json!({ "codigo": "L1", "nome": "Macapá–Santana", "coeficiente": "0,2175" });
    let stand = json!({ "codigo": "P1", "nome": "Praça" });
    let user = json!({ "nome": "novo", "papel": "clerk", "senha": "0123456789" });
    let token = json!({ "rotulo": "script" });
    let permit = json!({ "servico": "taxi", "titular": "25524893033" });
    let status = json!({ "mudanca": "reserve" });
    let revoke = json!({ "mudanca": "revoke" });
    let driver = json!({ "condutor": "25524893033", "funcao": "auxiliary" });
    let plate = json!({ "placa": "ABC1D23" });
    let inspection = json!({ "servico": "taxi", "tipo": "periodic", "aprovada": true });
    let auto = json!({ "infracao": "x", "autuado": "25524893033", "regulamento": "cangucu/taxi",
                       "cometida_em": "2026-11-28T10:00", "local": "x", "descricao": "x" });
    let notify = json!({ "passo": "notify" });
    let judge = json!({ "passo": "judge", "mantido": true });
    let appeal = json!({ "passo": "appeal", "texto": "x" });
    let decide = json!({ "passo": "decide_appeal", "mantido": true });
    let day = json!({ "data": "2026-11-30" });
    let split = json!({ "parcelas": 2 });
    let parameter = json!({ "valor": "10000" });
    let profile = json!({});
    vec![
        (Method::GET, "/api/metrics", None, "AFFFF"),
        (Method::GET, "/api/jurisdictions", None, "AAAAA"),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/people",
            Some(person),
            "AAFFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/people/25524893033",
            None,
            "AAAAA",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/vehicles",
            Some(vehicle),
            "AAFFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/vehicles/ABC1D23",
            None,
            "AAAAA",
        ),
        (
            Method::POST,
            "/api/jurisdictions/amapa/lines",
            Some(line),
            "AAFFF",
        ),
        (Method::GET, "/api/jurisdictions/amapa/lines", None, "AAAAA"),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/stands",
            Some(stand),
            "AAFFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/stands",
            None,
            "AAAAA",
        ),
        (Method::GET, "/api/audit", None, "AFFAF"),
        (Method::GET, "/api/audit/verify", None, "AFFAF"),
        (Method::POST, "/api/users", Some(user), "AFFFF"),
        (Method::GET, "/api/users", None, "AFFFF"),
        (
            Method::PUT,
            "/api/users/ninguem/password",
            Some(json!({ "senha": "0123456789" })),
            "AFFFF",
        ),
        (Method::DELETE, "/api/users/ninguem", None, "AFFFF"),
        (
            Method::POST,
            "/api/users/admin/tokens",
            Some(token),
            "AFFFF",
        ),
        (Method::GET, "/api/users/admin/tokens", None, "AFFFF"),
        (
            Method::DELETE,
            "/api/users/admin/tokens/script",
            None,
            "AFFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/permits",
            Some(permit),
            "AAFFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/permits",
            None,
            "AAAAA",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/permits/taxi/1",
            None,
            "AAAAA",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/permits/taxi/1/status",
            Some(status),
            "AAFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/permits/taxi/1/status",
            Some(revoke),
            "AFFAF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/permits/taxi/1/drivers",
            Some(driver),
            "AAFFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/permits/taxi/1/drivers",
            None,
            "AAAAA",
        ),
        (
            Method::DELETE,
            "/api/jurisdictions/cangucu/permits/taxi/1/drivers/2026-00001",
            None,
            "AAFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/permits/taxi/1/drivers/2026-00001/renewal",
            None,
            "AAFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/permits/taxi/1/vehicle",
            Some(plate),
            "AAFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/vehicles/ABC1D23/inspections",
            Some(inspection),
            "AAAFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/documents?assunto=vehicle:ABC1D23",
            None,
            "AAAAA",
        ),
        (
            Method::PUT,
            "/api/jurisdictions/cangucu/people/25524893033/profile",
            Some(profile),
            "AAFFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/people/25524893033/profile",
            None,
            "AAAAA",
        ),
        (
            Method::PUT,
            "/api/jurisdictions/cangucu/parameters/population",
            Some(parameter),
            "AFFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/autos",
            Some(auto),
            "AFAFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/autos",
            None,
            "AAAAA",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/autos/2026/1",
            None,
            "AAAAA",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(notify),
            "AAFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(appeal),
            "AAFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(judge),
            "AFFAF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(decide),
            "AFFAF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/debts",
            None,
            "AAAAA",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/debts/2026/1/1/due",
            None,
            "AAAAA",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/debts/2026/1/1/payments",
            Some(day),
            "AAFFF",
        ),
        (
            Method::POST,
            "/api/jurisdictions/cangucu/debts/2026/1/1/installments",
            Some(split),
            "AAFFF",
        ),
        (
            Method::GET,
            "/api/jurisdictions/cangucu/agenda",
            None,
            "AAAAA",
        ),
        (Method::DELETE, "/api/session", None, "AAAAA"),
    ]
}

async fn roles(app: &App) {
    let mut tokens = Vec::new();
    for role in ROLES {
        tokens.push(app.signed_in(role.code(), role, Scope::All).await);
    }
    for (method, path, body, expected) in table() {
        let nobody = app.call(method.clone(), path, None, body.clone()).await;
        assert_eq!(
            nobody.status,
            StatusCode::UNAUTHORIZED,
            "{method} {path} without a token"
        );
        assert!(nobody.text("erro").contains("autenticação necessária"));
        for ((role, token), verdict) in ROLES.iter().zip(&tokens).zip(expected.chars()) {
            // Signing out would spend the token the next rows need.
            if method == Method::DELETE && path == "/api/session" {
                continue;
            }
            let answer = app
                .call(method.clone(), path, Some(token), body.clone())
                .await;
            let what = format!("{method} {path} as {}: {:?}", role.code(), answer.body);
            match verdict {
                'A' => assert!(
                    !matches!(
                        answer.status,
                        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
                    ),
                    "{what}"
                ),
                _ => {
                    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{what}");
                    assert!(
                        answer.text("erro").contains("não permite esta operação"),
                        "{what}"
                    );
                }
            }
        }
    }
    // Every role may end its own session.
    for token in &tokens {
        let out = app
            .call(Method::DELETE, "/api/session", Some(token), None)
            .await;
        assert_eq!(out.status, StatusCode::NO_CONTENT);
    }
}

on_both_backends!(roles);
