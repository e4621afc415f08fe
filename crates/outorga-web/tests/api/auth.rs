//! Signing in, tokens, and which role may call which route.

use crate::common::{App, PASSWORD, setup};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::json;

async fn login(app: &App) {
    app.store
        .create_user(&setup(), "ana", Role::Clerk, PASSWORD, &Scope::All)
        .await
        .expect("user");
    let good = app.login("ana", PASSWORD).await;
    assert_eq!(good.status, StatusCode::CREATED, "{:?}", good.body);
    assert_eq!(good.body["usuario"]["papel"], "clerk");
    assert_eq!(good.body["usuario"]["papel_nome"], "atendente");
    assert_eq!(good.body["expira_em"], "2026-11-30T21:00:00Z");
    let token = good.text("token");
    assert!(token.starts_with("otg_") && token.len() == 68, "{token}");

    // A wrong password and an unknown name get the same answer.
    for (name, password) in [("ana", "senha-errada-123"), ("bia", PASSWORD)] {
        let bad = app.login(name, password).await;
        assert_eq!(bad.status, StatusCode::UNAUTHORIZED);
        assert_eq!(bad.body["erro"], "nome ou senha incorretos");
    }

    // The session works, is recorded hashed, and the login is audited.
    assert_eq!(
        app.get("/api/jurisdictions", &token).await.status,
        StatusCode::OK
    );
    let entries = app
        .store
        .audit_entries(Some("user:ana"))
        .await
        .expect("audit");
    let opened: Vec<_> = entries
        .iter()
        .filter(|e| e.action == "session.open")
        .collect();
    assert_eq!(opened.len(), 1);
    assert_eq!(opened[0].actor, "ana");
    assert!(!opened[0].detail.contains(&token));

    // A session ends after twelve hours…
    app.clock.advance(12);
    let expired = app.get("/api/jurisdictions", &token).await;
    assert_eq!(expired.status, StatusCode::UNAUTHORIZED);
    assert!(
        expired.text("erro").contains("expirado"),
        "{:?}",
        expired.body
    );

    // …or when its user signs out.
    let token = app.login("ana", PASSWORD).await.text("token");
    let out = app
        .call(Method::DELETE, "/api/session", Some(&token), None)
        .await;
    assert_eq!(out.status, StatusCode::NO_CONTENT, "{:?}", out.body);
    assert_eq!(
        app.get("/api/jurisdictions", &token).await.status,
        StatusCode::UNAUTHORIZED
    );
}

async fn credentials(app: &App) {
    let none = app
        .call(Method::GET, "/api/jurisdictions", None, None)
        .await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    assert!(none.text("erro").contains("autenticação necessária"));
    let made_up = app.get("/api/jurisdictions", "otg_inventado").await;
    assert_eq!(made_up.status, StatusCode::UNAUTHORIZED);
}

async fn api_tokens(app: &App) {
    let admin = app.signed_in("chefe", Role::Admin, Scope::All).await;
    app.signed_in("robo", Role::ReadOnly, Scope::All).await;

    let made = app
        .post(
            "/api/users/robo/tokens",
            &admin,
            json!({ "rotulo": "painel" }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    assert!(made.text("aviso").contains("não será mostrado de novo"));
    let token = made.text("token");

    // The token works for what its user may do, and only that.
    assert_eq!(
        app.get("/api/jurisdictions", &token).await.status,
        StatusCode::OK
    );
    let write = app
        .post(
            "/api/jurisdictions/cangucu/stands",
            &token,
            json!({ "codigo": "P1", "nome": "Praça" }),
        )
        .await;
    assert_eq!(write.status, StatusCode::FORBIDDEN);
    assert!(write.text("erro").contains("consulta"), "{:?}", write.body);

    // Listed without the token itself; a label is used once per user.
    let listed = app.get("/api/users/robo/tokens", &admin).await;
    assert_eq!(
        listed.body,
        json!([{ "rotulo": "painel", "criado_em": "2026-11-30T09:00:00.000000Z", "revogado_em": null, "expira_em": null }])
    );
    assert!(!listed.body.to_string().contains(&token));
    let again = app
        .post(
            "/api/users/robo/tokens",
            &admin,
            json!({ "rotulo": "painel" }),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{:?}", again.body);
    assert_eq!(again.body["campo"], "rótulo");
    let nobody = app
        .post(
            "/api/users/ninguem/tokens",
            &admin,
            json!({ "rotulo": "x" }),
        )
        .await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND);
    let blank = app
        .post("/api/users/robo/tokens", &admin, json!({ "rotulo": "  " }))
        .await;
    assert_eq!(blank.status, StatusCode::UNPROCESSABLE_ENTITY);

    // An API token is not a session: it is revoked, not signed out.
    let logout = app
        .call(Method::DELETE, "/api/session", Some(&token), None)
        .await;
    assert_eq!(logout.status, StatusCode::NOT_FOUND);

    // Revoked, it no longer opens anything; revoking twice finds nothing.
    let revoke = app
        .call(
            Method::DELETE,
            "/api/users/robo/tokens/painel",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(revoke.status, StatusCode::NO_CONTENT, "{:?}", revoke.body);
    assert_eq!(
        app.get("/api/jurisdictions", &token).await.status,
        StatusCode::UNAUTHORIZED
    );
    let twice = app
        .call(
            Method::DELETE,
            "/api/users/robo/tokens/painel",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(twice.status, StatusCode::NOT_FOUND);
    let listed = app.get("/api/users/robo/tokens", &admin).await;
    assert_eq!(listed.body[0]["revogado_em"], "2026-11-30T09:00:00.000000Z");

    // Each step is in the audit log under the administrator's name.
    let entries = app
        .store
        .audit_entries(Some("user:robo"))
        .await
        .expect("audit");
    let by_admin: Vec<(&str, &str)> = entries
        .iter()
        .filter(|e| e.actor == "chefe")
        .map(|e| (e.action.as_str(), e.detail.as_str()))
        .collect();
    assert_eq!(
        by_admin,
        [
            ("token.create", r#"{"label":"painel"}"#),
            ("token.revoke", r#"{"label":"painel"}"#)
        ]
    );
}

async fn users(app: &App) {
    let admin = app.signed_in("chefe", Role::Admin, Scope::All).await;
    let made = app
        .post(
            "/api/users",
            &admin,
            json!({ "nome": "fiscal.joao", "papel": "fiscal", "senha": "grama-verde-no-quintal", "jurisdicoes": ["cangucu"] }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    assert_eq!(
        made.body,
        json!({ "nome": "fiscal.joao", "papel": "inspector", "papel_nome": "fiscal", "jurisdicoes": ["cangucu"] })
    );
    assert_eq!(
        app.login("fiscal.joao", "grama-verde-no-quintal")
            .await
            .status,
        StatusCode::CREATED
    );
    let audit = app
        .store
        .audit_entries(Some("user:fiscal.joao"))
        .await
        .expect("audit");
    assert_eq!(audit[0].actor, "chefe");
    assert_eq!(audit[0].action, "user.create");
    assert!(!audit[0].detail.contains("argon2"), "{}", audit[0].detail);

    let refused =
        |body: serde_json::Value, status: StatusCode, campo: &'static str, motivo: &'static str| {
            let admin = admin.clone();
            async move {
                let answer = app.post("/api/users", &admin, body.clone()).await;
                assert_eq!(answer.status, status, "{body}: {:?}", answer.body);
                assert_eq!(answer.body["campo"], campo, "{body}: {:?}", answer.body);
                assert!(
                    answer.text("motivo").contains(motivo),
                    "{body}: {:?}",
                    answer.body
                );
            }
        };
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    refused(
        json!({ "nome": "bia", "papel": "clerk", "senha": "curta" }),
        unprocessable,
        "senha",
        "ao menos 10 caracteres",
    )
    .await;
    // The password policy: common passwords, sequences, repeats, the
    // user's own name, and a maximum length.
    for (senha, motivo) in [
        ("0123456789", "sequências como abc ou 6543"),
        ("abcdefghijkl", "sequências como abc ou 6543"),
        ("aaaaaaaaaaaa", "repetições como \"aaa\""),
        ("password123", "senha muito comum"),
        ("qwertyuiop", "das 100 senhas mais usadas"),
        ("beatriz.lima-2026", "nome do usuário"),
        ("LIMA-cavalo-azul", "nome do usuário"),
    ] {
        refused(
            json!({ "nome": "beatriz.lima", "papel": "clerk", "senha": senha }),
            unprocessable,
            "senha",
            motivo,
        )
        .await;
    }
    refused(
        json!({ "nome": "bia", "papel": "clerk", "senha": "x".repeat(257) }),
        unprocessable,
        "senha",
        "o máximo é 256",
    )
    .await;
    refused(
        json!({ "nome": "bia", "papel": "prefeito", "senha": "grama-verde-no-quintal" }),
        unprocessable,
        "papel",
        "não é um papel",
    )
    .await;
    refused(
        json!({ "nome": " ", "papel": "clerk", "senha": "grama-verde-no-quintal" }),
        unprocessable,
        "nome",
        "em branco",
    )
    .await;
    refused(
        json!({ "nome": "fiscal.joao", "papel": "clerk", "senha": "grama-verde-no-quintal" }),
        StatusCode::CONFLICT,
        "nome",
        "já existe",
    )
    .await;
    refused(json!({ "nome": "bia", "papel": "clerk", "senha": "grama-verde-no-quintal", "jurisdicoes": ["atlantida"] }), unprocessable, "jurisdição", "não está cadastrada").await;
    refused(
        json!({ "nome": "bia", "papel": "clerk", "senha": "grama-verde-no-quintal", "jurisdicoes": [] }),
        unprocessable,
        "jurisdições",
        "ao menos uma",
    )
    .await;
    refused(
        json!({ "nome": "bia", "papel": "clerk", "senha": "grama-verde-no-quintal", "admin": true }),
        unprocessable,
        "admin",
        "campo desconhecido",
    )
    .await;

    let list = app.get("/api/users", &admin).await;
    let names: Vec<&str> = list
        .body
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|u| u["nome"].as_str())
        .collect();
    assert_eq!(names, ["chefe", "fiscal.joao"]);
    assert!(!list.body.to_string().contains("argon2"));
}

/// A user bound to some jurisdictions can act only in them.
async fn jurisdiction_scope(app: &App) {
    let clerk = app
        .signed_in("ana", Role::Clerk, Scope::Only(vec!["cangucu".into()]))
        .await;
    let stand = json!({ "codigo": "P1", "nome": "Praça" });
    let here = app
        .post("/api/jurisdictions/cangucu/stands", &clerk, stand.clone())
        .await;
    assert_eq!(here.status, StatusCode::CREATED, "{:?}", here.body);
    let there = app
        .post("/api/jurisdictions/amapa/stands", &clerk, stand)
        .await;
    assert_eq!(there.status, StatusCode::FORBIDDEN);
    assert!(there.text("erro").contains("`amapa`"), "{:?}", there.body);
    let listed = app.get("/api/jurisdictions", &clerk).await;
    assert_eq!(
        listed.body["itens"].as_array().map(Vec::len),
        Some(1),
        "{:?}",
        listed.body
    );
    assert_eq!(listed.body["itens"][0]["id"], "cangucu");
}

/// An administrator sets a password (the user's sessions end) and disables a
/// user (no more sign-ins; sessions and tokens stop working); no one
/// disables themselves.
async fn leaving(app: &App) {
    let admin = app.signed_in("chefe", Role::Admin, Scope::All).await;
    let bia = app.signed_in("bia", Role::Clerk, Scope::All).await;
    let script = app
        .store
        .create_token(&setup(), "bia", "script", None)
        .await
        .expect("token");
    let password = app
        .call(
            Method::PUT,
            "/api/users/bia/password",
            Some(&admin),
            Some(json!({ "senha": "curta" })),
        )
        .await;
    assert_eq!(password.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(password.body["campo"], "senha");
    // A new password follows the same policy as at creation.
    let weak = app
        .call(
            Method::PUT,
            "/api/users/bia/password",
            Some(&admin),
            Some(json!({ "senha": "abcdef123456" })),
        )
        .await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        weak.text("motivo").contains("fácil de adivinhar"),
        "{:?}",
        weak.body
    );
    let password = app
        .call(
            Method::PUT,
            "/api/users/bia/password",
            Some(&admin),
            Some(json!({ "senha": "outra-senha-longa" })),
        )
        .await;
    assert_eq!(
        password.status,
        StatusCode::NO_CONTENT,
        "{:?}",
        password.body
    );
    assert_eq!(
        app.get("/api/jurisdictions", &bia).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.login("bia", "outra-senha-longa").await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        app.get("/api/jurisdictions", &script).await.status,
        StatusCode::OK
    );

    let own = app
        .call(Method::DELETE, "/api/users/chefe", Some(&admin), None)
        .await;
    assert_eq!(own.status, StatusCode::UNPROCESSABLE_ENTITY);
    let gone = app
        .call(Method::DELETE, "/api/users/bia", Some(&admin), None)
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{:?}", gone.body);
    assert_eq!(
        app.login("bia", "outra-senha-longa").await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get("/api/jurisdictions", &script).await.status,
        StatusCode::UNAUTHORIZED
    );
    let again = app
        .call(Method::DELETE, "/api/users/bia", Some(&admin), None)
        .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    let actions: Vec<String> = app
        .store
        .audit_entries(Some("user:bia"))
        .await
        .expect("audit")
        .into_iter()
        .map(|e| e.action)
        .collect();
    assert!(
        actions.contains(&"user.password".to_string())
            && actions.contains(&"user.disable".to_string()),
        "{actions:?}"
    );
}

/// An API token may expire: from that day on it is refused like a revoked
/// one, and the list shows when.
async fn expiring_tokens(app: &App) {
    let robo = app.with_token("robo", Role::ReadOnly, Scope::All).await;
    let made = app
        .post(
            "/api/users/robo/tokens",
            &robo,
            json!({ "rotulo": "painel", "expira_em": "2026-12-02" }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    assert_eq!(made.body["expira_em"], "2026-12-02T00:00:00Z");
    let token = made.text("token");
    let listed = app.get("/api/users/robo/tokens", &robo).await;
    let painel = listed
        .body
        .as_array()
        .and_then(|list| list.iter().find(|t| t["rotulo"] == "painel"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        painel["expira_em"], "2026-12-02T00:00:00.000000Z",
        "{:?}",
        listed.body
    );

    // It works until the day before…
    app.clock.advance(38);
    assert_eq!(
        app.get("/api/jurisdictions", &token).await.status,
        StatusCode::OK
    );
    // …and from 00:00 of that day it is refused, as a revoked one is.
    app.clock.advance(1);
    let expired = app.get("/api/jurisdictions", &token).await;
    assert_eq!(expired.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        expired.text("erro"),
        "token inválido, expirado ou revogado; entre de novo em POST /api/session"
    );
    // A token without expiry still works.
    assert_eq!(
        app.get("/api/jurisdictions", &robo).await.status,
        StatusCode::OK
    );

    // An expiry must be a day after today and within ten years.
    for (expira_em, motivo) in [
        ("2026-12-01", "depois de agora"),
        ("2040-01-01", "em até 3660 dias"),
        ("amanhã", "não é uma data"),
    ] {
        let bad = app
            .post(
                "/api/users/robo/tokens",
                &robo,
                json!({ "rotulo": "outro", "expira_em": expira_em }),
            )
            .await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{expira_em}");
        assert_eq!(bad.body["campo"], "expira_em", "{:?}", bad.body);
        assert!(bad.text("motivo").contains(motivo), "{:?}", bad.body);
    }
}

on_both_backends!(
    expiring_tokens,
    login,
    credentials,
    api_tokens,
    users,
    jurisdiction_scope,
    leaving
);
