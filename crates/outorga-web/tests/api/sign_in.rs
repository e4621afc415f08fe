//! Sign-in abuse limits: failures counted per user name and per client
//! address (429 with `Retry-After`, before any password is hashed), the
//! record of attempts an administrator reads within their scope, its
//! pruning, and the bounded password queue (503 with `Retry-After` past it).

use crate::common::{App, PASSWORD, login_on, setup};
use axum::http::StatusCode;
use outorga_store::{HashingLimits, Role, Scope};

const A: &str = "10.0.0.1";
const B: &str = "10.0.0.2";

async fn five_failures_stop_a_name(app: &App) {
    app.with_token("ana", Role::Clerk, Scope::All).await;
    app.with_token("bia", Role::Clerk, Scope::All).await;
    for _ in 0..5 {
        let wrong = app.login_from("ana", "nao-e-a-senha-dela", A).await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{:?}", wrong.body);
        assert_eq!(wrong.retry_after, None);
    }
    // The sixth attempt from that address is refused without checking the
    // password, even the right one…
    let stopped = app.login_from("ana", PASSWORD, A).await;
    assert_eq!(
        stopped.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{:?}",
        stopped.body
    );
    assert_eq!(stopped.retry_after.as_deref(), Some("60"));
    assert!(
        stopped
            .text("erro")
            .contains("tente de novo em 60 segundos"),
        "{:?}",
        stopped.body
    );
    // …while another name signs in from the same address, and the owner of
    // the name from their own: who knows a name cannot keep its owner out.
    assert_eq!(
        app.login_from("bia", PASSWORD, A).await.status,
        StatusCode::CREATED
    );
    let owner = app.login_from("ana", PASSWORD, B).await;
    assert_eq!(owner.status, StatusCode::CREATED, "{:?}", owner.body);
    // Retry-After counts down; when the oldest failure is a minute old,
    // the address may try the name again.
    app.clock.advance_seconds(45);
    let later = app.login_from("ana", PASSWORD, A).await;
    assert_eq!(later.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(later.retry_after.as_deref(), Some("15"));
    app.clock.advance_seconds(15);
    let again = app.login_from("ana", PASSWORD, A).await;
    assert_eq!(again.status, StatusCode::CREATED, "{:?}", again.body);
}

/// A guessing spread over many networks stops the name for everyone.
async fn many_networks_stop_a_name(app: &App) {
    app.with_token("ana", Role::Clerk, Scope::All).await;
    for n in 0..outorga_store::FAILURES_PER_NAME_EVERYWHERE {
        let ip = format!("198.51.{}.{}", n / 200, n % 200 + 1);
        let wrong = app.login_from("ana", "nao-e-a-senha-dela", &ip).await;
        assert_eq!(
            wrong.status,
            StatusCode::UNAUTHORIZED,
            "{ip}: {:?}",
            wrong.body
        );
    }
    let stopped = app.login_from("ana", PASSWORD, "203.0.113.99").await;
    assert_eq!(
        stopped.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{:?}",
        stopped.body
    );
}

async fn ten_failures_stop_an_address(app: &App) {
    app.with_token("bia", Role::Clerk, Scope::All).await;
    for n in 0..10 {
        let wrong = app
            .login_from(&format!("nome{n}"), "qualquer-coisa-errada", A)
            .await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    }
    let stopped = app.login_from("bia", PASSWORD, A).await;
    assert_eq!(stopped.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(stopped.retry_after.as_deref(), Some("60"));
    assert_eq!(
        app.login_from("bia", PASSWORD, B).await.status,
        StatusCode::CREATED
    );
    // An IPv6 client is counted by its /64.
    for n in 1..=10 {
        let wrong = app
            .login_from(
                "bia",
                "qualquer-coisa-errada",
                &format!("2001:db8:1:2::{n:x}"),
            )
            .await;
        let expected = if n <= 5 {
            StatusCode::UNAUTHORIZED
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(wrong.status, expected, "attempt {n}");
    }
    app.clock.advance_seconds(60);
    for n in 0..10 {
        let wrong = app
            .login_from(
                &format!("outro{n}"),
                "qualquer-coisa-errada",
                &format!("2001:db8:7:7::{n:x}"),
            )
            .await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    }
    let stopped = app
        .login_from("bia", PASSWORD, "2001:db8:7:7:ffff::1")
        .await;
    assert_eq!(stopped.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        app.login_from("bia", PASSWORD, "2001:db8:7:8::1")
            .await
            .status,
        StatusCode::CREATED
    );
}

/// Failed sign-ins, newest first, with the client's address: all of them
/// for an administrator without limits (names of no one included), only
/// their users' for one limited to a jurisdiction; old ones are pruned.
async fn failures_listed_for_an_administrator(app: &App) {
    let admin = app.with_token("admin", Role::Admin, Scope::All).await;
    let chefe = app
        .with_token("chefe", Role::Admin, Scope::Only(vec!["cangucu".into()]))
        .await;
    let reader = app.with_token("leitor", Role::ReadOnly, Scope::All).await;
    app.with_token("ana", Role::Clerk, Scope::Only(vec!["cangucu".into()]))
        .await;
    app.with_token("bia", Role::Clerk, Scope::Only(vec!["amapa".into()]))
        .await;
    assert_eq!(
        app.login_from("ana", "errada-numero-um", A).await.status,
        StatusCode::UNAUTHORIZED
    );
    app.clock.advance_seconds(1);
    assert_eq!(
        app.login_from("bia", "errada-numero-dois", B).await.status,
        StatusCode::UNAUTHORIZED
    );
    app.clock.advance_seconds(1);
    assert_eq!(
        app.login_from("ninguem", "errada-numero-tres", "2001:db8::5")
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    app.clock.advance_seconds(1);
    assert_eq!(
        app.login_from("ana", PASSWORD, A).await.status,
        StatusCode::CREATED
    );

    let all = app.get("/api/sign-ins?falhas=true", &admin).await;
    assert_eq!(all.status, StatusCode::OK, "{:?}", all.body);
    assert_eq!(
        all.body["itens"],
        serde_json::json!([
            { "em": "2026-11-30T09:00:02.000000Z", "nome": "ninguem", "endereco": "2001:db8::5", "sucesso": false },
            { "em": "2026-11-30T09:00:01.000000Z", "nome": "bia", "endereco": B, "sucesso": false },
            { "em": "2026-11-30T09:00:00.000000Z", "nome": "ana", "endereco": A, "sucesso": false },
        ])
    );
    let everything = app.get("/api/sign-ins", &admin).await;
    assert_eq!(everything.body["itens"].as_array().map(Vec::len), Some(4));
    assert_eq!(everything.body["itens"][0]["sucesso"], true);
    let page = app
        .get(
            "/api/sign-ins?falhas=true&desde=2026-11-30T09:00:01&limite=1",
            &admin,
        )
        .await;
    assert!(page.body["proximo"].is_string(), "{:?}", page.body);
    let names: Vec<&str> = page.body["itens"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|a| a["nome"].as_str())
        .collect();
    assert_eq!(names, ["ninguem"]);

    let mine = app.get("/api/sign-ins?falhas=true", &chefe).await;
    let names: Vec<&str> = mine.body["itens"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|a| a["nome"].as_str())
        .collect();
    assert_eq!(names, ["ana"]);

    assert_eq!(
        app.get("/api/sign-ins", &reader).await.status,
        StatusCode::FORBIDDEN
    );
    for query in [
        "limite=0",
        "limite=201",
        "cursor=xyz",
        "desde=ontem",
        "falhas=talvez",
    ] {
        let bad = app.get(&format!("/api/sign-ins?{query}"), &admin).await;
        assert!(
            matches!(
                bad.status,
                StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY
            ),
            "{query}: {:?}",
            bad.body
        );
    }

    // Pruning deletes what is older than the moment given, and is audited.
    let before = crate::common::start() + chrono::Duration::seconds(2);
    let deleted = app
        .store
        .prune_sign_ins(&setup(), before)
        .await
        .expect("pruned");
    assert_eq!(deleted, 2);
    let left = app.get("/api/sign-ins", &admin).await;
    assert_eq!(left.body["itens"].as_array().map(Vec::len), Some(2));
    let audited = app
        .store
        .audit_entries(Some("sign_ins"))
        .await
        .expect("audit");
    assert_eq!(audited.len(), 1);
    assert_eq!(audited[0].action, "sign_ins.prune");
}

/// A storm of wrong passwords from many names and addresses: at most
/// `workers` hashes run and `workers + waiting` are admitted at once; the
/// rest are answered 503 with `Retry-After` at once, never hashed.
async fn the_password_queue_is_bounded(app: &App) {
    let limits = HashingLimits {
        workers: 2,
        waiting: 4,
    };
    let (router, store) = app.with_hashing(limits);
    let mut storm = Vec::new();
    for n in 0..64 {
        let router = router.clone();
        storm.push(tokio::spawn(async move {
            login_on(
                router,
                &format!("usuario{n}"),
                "senha-errada-de-proposito",
                &format!("10.1.{}.{}", n / 200, n % 200 + 1),
            )
            .await
        }));
    }
    let (mut refused, mut busy) = (0, 0);
    for attempt in storm {
        let answer = attempt.await.expect("joined");
        match answer.status {
            StatusCode::UNAUTHORIZED => refused += 1,
            StatusCode::SERVICE_UNAVAILABLE => {
                assert_eq!(answer.retry_after.as_deref(), Some("1"));
                assert!(answer.text("erro").contains("tente de novo"));
                busy += 1;
            }
            other => panic!("unexpected {other}: {:?}", answer.body),
        }
    }
    let peak = store.hashing_peak();
    assert!(peak.running >= 1 && peak.running <= 2, "{peak:?}");
    assert!(peak.admitted <= 6, "{peak:?}");
    assert_eq!(refused + busy, 64);
    assert!(refused >= 1 && busy > 0, "{refused} refused, {busy} busy");
}

on_both_backends!(
    five_failures_stop_a_name,
    many_networks_stop_a_name,
    ten_failures_stop_an_address,
    failures_listed_for_an_administrator,
    the_password_queue_is_bounded,
);
