//! The attacks of issue 10, replayed: an administrator limited to one
//! jurisdiction reaching past it, a clerk making tokens for others, a
//! read-only user getting validation detail instead of 403.

use crate::common::{App, PASSWORD};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::json;

fn cangucu() -> Scope {
    Scope::Only(vec!["cangucu".into()])
}

/// The global administrator, an administrator of Canguçu, a clerk there
/// and a clerk of Amapá; the Canguçu administrator's token.
async fn people(app: &App) -> String {
    app.with_token("admin", Role::Admin, Scope::All).await;
    app.with_token("ana", Role::Clerk, cangucu()).await;
    app.with_token("bia", Role::Clerk, Scope::Only(vec!["amapa".into()]))
        .await;
    app.with_token("chefe.cangucu", Role::Admin, cangucu())
        .await
}

/// Refused: 403, or 404 where naming the user would tell a limited
/// administrator that the name exists outside their reach.
fn forbidden(answer: &crate::common::Answer, what: &str) {
    assert!(
        matches!(answer.status, StatusCode::FORBIDDEN | StatusCode::NOT_FOUND),
        "{what}: {} {:?}",
        answer.status,
        answer.body
    );
    assert!(!answer.text("erro").is_empty(), "{what}");
}

async fn scoped_admin_stays_in_scope(app: &App) {
    let chefe = people(app).await;

    // A token for the global administrator: refused.
    let token = app
        .post("/api/users/admin/tokens", &chefe, json!({ "rotulo": "x" }))
        .await;
    forbidden(&token, "token for admin");
    assert!(
        token.text("erro").contains("próprio usuário"),
        "{:?}",
        token.body
    );
    // Nor for a user of their own jurisdiction: a token acts as its owner.
    let token = app
        .post("/api/users/ana/tokens", &chefe, json!({ "rotulo": "x" }))
        .await;
    forbidden(&token, "token for ana");

    // An unscoped administrator, or one of another jurisdiction: refused.
    let strong = "ponte-velha-sobre-o-rio";
    for (body, what) in [
        (
            json!({ "nome": "novo", "papel": "admin", "senha": strong }),
            "unscoped admin",
        ),
        (
            json!({ "nome": "novo", "papel": "admin", "senha": strong, "jurisdicoes": ["amapa"] }),
            "admin of amapa",
        ),
        (
            json!({ "nome": "novo", "papel": "clerk", "senha": strong, "jurisdicoes": ["cangucu", "amapa"] }),
            "clerk of cangucu and amapa",
        ),
    ] {
        let answer = app.post("/api/users", &chefe, body).await;
        forbidden(&answer, what);
        assert!(
            answer.text("erro").contains("dentro das suas (cangucu)"),
            "{what}: {:?}",
            answer.body
        );
    }
    // Within their scope, any role up to their own.
    let made = app
        .post(
            "/api/users",
            &chefe,
            json!({ "nome": "novo", "papel": "admin", "senha": strong, "jurisdicoes": ["cangucu"] }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);

    // The list holds only the users within their scope.
    let list = app.get("/api/users", &chefe).await;
    let names: Vec<&str> = list
        .body
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|u| u["nome"].as_str())
        .collect();
    assert_eq!(names, ["ana", "chefe.cangucu", "novo"]);

    // The global administrator's (or another jurisdiction's) password,
    // tokens and account are out of reach.
    for name in ["admin", "bia"] {
        let password = app
            .call(
                Method::PUT,
                &format!("/api/users/{name}/password"),
                Some(&chefe),
                Some(json!({ "senha": strong })),
            )
            .await;
        forbidden(&password, &format!("password of {name}"));
        let tokens = app.get(&format!("/api/users/{name}/tokens"), &chefe).await;
        forbidden(&tokens, &format!("tokens of {name}"));
        let revoke = app
            .call(
                Method::DELETE,
                &format!("/api/users/{name}/tokens/testes"),
                Some(&chefe),
                None,
            )
            .await;
        forbidden(&revoke, &format!("revoke a token of {name}"));
        let disable = app
            .call(
                Method::DELETE,
                &format!("/api/users/{name}"),
                Some(&chefe),
                None,
            )
            .await;
        forbidden(&disable, &format!("disable {name}"));
    }
    // The refusals changed nothing: the global administrator still signs in.
    assert_eq!(
        app.login("admin", PASSWORD).await.status,
        StatusCode::CREATED
    );

    // Within scope, they manage: a password, a token list, a revocation.
    let password = app
        .call(
            Method::PUT,
            "/api/users/ana/password",
            Some(&chefe),
            Some(json!({ "senha": strong })),
        )
        .await;
    assert_eq!(
        password.status,
        StatusCode::NO_CONTENT,
        "{:?}",
        password.body
    );
    let tokens = app.get("/api/users/ana/tokens", &chefe).await;
    assert_eq!(tokens.status, StatusCode::OK, "{:?}", tokens.body);
    let revoke = app
        .call(
            Method::DELETE,
            "/api/users/ana/tokens/testes",
            Some(&chefe),
            None,
        )
        .await;
    assert_eq!(revoke.status, StatusCode::NO_CONTENT, "{:?}", revoke.body);
}

async fn tokens_are_made_by_their_owner(app: &App) {
    people(app).await;
    let ana = app.signed_in("ana.clerk", Role::Clerk, cangucu()).await;

    // A clerk makes, lists and revokes their own token…
    let own = app
        .post(
            "/api/users/ana.clerk/tokens",
            &ana,
            json!({ "rotulo": "planilha" }),
        )
        .await;
    assert_eq!(own.status, StatusCode::CREATED, "{:?}", own.body);
    assert_eq!(
        app.get("/api/jurisdictions", &own.text("token"))
            .await
            .status,
        StatusCode::OK
    );
    let listed = app.get("/api/users/ana.clerk/tokens", &ana).await;
    assert_eq!(listed.status, StatusCode::OK, "{:?}", listed.body);
    let revoke = app
        .call(
            Method::DELETE,
            "/api/users/ana.clerk/tokens/planilha",
            Some(&ana),
            None,
        )
        .await;
    assert_eq!(revoke.status, StatusCode::NO_CONTENT, "{:?}", revoke.body);

    // …but none for someone else, nor sees theirs.
    for name in ["ana", "admin"] {
        let other = app
            .post(
                &format!("/api/users/{name}/tokens"),
                &ana,
                json!({ "rotulo": "x" }),
            )
            .await;
        forbidden(&other, &format!("a clerk's token for {name}"));
        let theirs = app.get(&format!("/api/users/{name}/tokens"), &ana).await;
        forbidden(&theirs, &format!("a clerk listing {name}'s tokens"));
    }

    // The unscoped administrator makes a token for anyone.
    let admin = app.login("admin", PASSWORD).await.text("token");
    let for_ana = app
        .post("/api/users/ana/tokens", &admin, json!({ "rotulo": "x" }))
        .await;
    assert_eq!(for_ana.status, StatusCode::CREATED, "{:?}", for_ana.body);
}

/// The routes whose role depends on the body admit first only the roles
/// that could ever pass: a read-only user or an inspector gets 403, not a
/// 422 that describes the body.
async fn role_before_body(app: &App) {
    let reader = app.with_token("leitor", Role::ReadOnly, Scope::All).await;
    let inspector = app.with_token("fiscal", Role::Inspector, Scope::All).await;
    for token in [&reader, &inspector] {
        for (path, body) in [
            (
                "/api/jurisdictions/cangucu/autos/2026/1/steps",
                r#"{"passo": 12, "lixo": true}"#,
            ),
            (
                "/api/jurisdictions/cangucu/permits/taxi/1/status",
                r#"{"mudanca": "revogacao""#,
            ),
        ] {
            let answer = app
                .raw(
                    Method::POST,
                    path,
                    Some(token),
                    Some("application/json"),
                    body,
                )
                .await;
            assert_eq!(
                answer.status,
                StatusCode::FORBIDDEN,
                "{path}: {:?}",
                answer.body
            );
            assert!(answer.body.get("campo").is_none(), "{:?}", answer.body);
        }
    }
}

/// A scoped user sees only their jurisdictions in `GET /api/jurisdictions`;
/// an unknown jurisdiction is 404 (before the scope), for staff and public.
async fn jurisdictions_seen_and_unknown(app: &App) {
    let ana = app.with_token("ana", Role::Clerk, cangucu()).await;
    let listed = app.get("/api/jurisdictions", &ana).await;
    let ids: Vec<&str> = listed.body["itens"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|j| j["id"].as_str())
        .collect();
    assert_eq!(ids, ["cangucu"]);
    for (path, token) in [
        ("/api/jurisdictions/atlantida/autos", Some(ana.as_str())),
        ("/api/public/jurisdictions/atlantida/vehicles/ABC1D23", None),
    ] {
        let answer = app.call(Method::GET, path, token, None).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(
            answer
                .text("erro")
                .contains("`atlantida` não está cadastrada"),
            "{path}: {:?}",
            answer.body
        );
    }
}

on_both_backends!(
    scoped_admin_stays_in_scope,
    tokens_are_made_by_their_owner,
    role_before_body,
    jurisdictions_seen_and_unknown,
    user_entries_carry_their_jurisdiction,
);

/// Entries about a user limited to one jurisdiction carry it, so that
/// jurisdiction's administrator reads them in the log; entries about an
/// unlimited user stay out of their sight.
async fn user_entries_carry_their_jurisdiction(app: &App) {
    let chefe = people(app).await;
    let about_ana = app.get("/api/audit?assunto=user:ana", &chefe).await;
    assert_eq!(about_ana.status, StatusCode::OK, "{:?}", about_ana.body);
    let entries = about_ana.body["itens"].as_array().expect("a page");
    assert!(!entries.is_empty(), "{:?}", about_ana.body);
    assert!(
        entries.iter().all(|e| e["jurisdicao"] == "cangucu"),
        "{entries:?}"
    );
    let about_admin = app.get("/api/audit?assunto=user:admin", &chefe).await;
    assert_eq!(
        about_admin.body["itens"],
        json!([]),
        "{:?}",
        about_admin.body
    );
}
