//! Canguçu's stands through the API with the demo's records: the square's
//! vacancy filled by a public draw whose published JSON an independent
//! implementation (docs/recompute-draw.py, Python's hashlib) recomputes;
//! the draw refused a second run; the holders' swap authorized with a
//! R$ 500,00 fee for each (art. 15, § 3º, II); occupancy on a past day.

use crate::common::App;
use axum::http::StatusCode;
use outorga_store::{Role, Scope};
use serde_json::json;

const CG: &str = "/api/jurisdictions/cangucu";

async fn demo_stands_and_draw(app: &App) {
    app.load_demo().await;
    let clerk = app.with_token("atendente", Role::Clerk, Scope::All).await;
    // The demo's draw, as anyone sees it: names abbreviated, CPFs masked.
    let public = app
        .call(
            axum::http::Method::GET,
            "/api/public/jurisdictions/cangucu/draws/2026/1",
            None,
            None,
        )
        .await;
    assert_eq!(public.status, StatusCode::OK, "{:?}", public.body);
    assert_eq!(public.text("situacao"), "drawn");
    assert_eq!(public.body["ordem"][0], "taxi-3");
    let first = &public.body["participantes"][0];
    assert!(
        first["documento"].as_str().expect("cpf").starts_with("***"),
        "{first}"
    );
    // Recomputed by the docs' script, in Python, from the published JSON.
    let dir = tempfile::tempdir().expect("temp dir");
    let saved = dir.path().join("sorteio.json");
    std::fs::write(&saved, public.body.to_string()).expect("saved");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/recompute-draw.py");
    let python = std::env::var("OUTORGA_PY_ORACLE").unwrap_or_else(|_| "python3".into());
    let run = std::process::Command::new(&python)
        .arg(&script)
        .arg(&saved)
        .output()
        .expect("python runs");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        out.contains("1. taxi-3") && out.ends_with("confere\n"),
        "{out}"
    );
    // A tampered order does not check.
    let mut forged = public.body.clone();
    forged["ordem"] = json!(["taxi-4", "taxi-3", "taxi_acessivel-1"]);
    std::fs::write(&saved, forged.to_string()).expect("saved");
    let run = std::process::Command::new(&python)
        .arg(&script)
        .arg(&saved)
        .output()
        .expect("python runs");
    assert!(!run.status.success());

    // Published, it is never drawn again.
    let again = app
        .post(
            &format!("{CG}/draws/2026/1/result"),
            &clerk,
            json!({ "semente": "outra" }),
        )
        .await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        again.body
    );
    assert!(
        again.text("erro").contains("não se refaz"),
        "{:?}",
        again.body
    );

    // The winner is at the square; the station's place it left is free.
    let square = app.get(&format!("{CG}/stands/PRACA"), &clerk).await;
    assert_eq!(square.status, StatusCode::OK, "{:?}", square.body);
    assert_eq!(square.body["vagas_livres"], 0);
    let station = app.get(&format!("{CG}/stands/RODO"), &clerk).await;
    assert_eq!(station.body["vagas_livres"], 2);
    let before = app
        .get(&format!("{CG}/stands/RODO?dia=2026-11-01"), &clerk)
        .await;
    assert_eq!(before.body["vagas_livres"], 1, "{:?}", before.body);

    // The swap the demo's holders asked for, authorized: each owes R$ 500,00.
    let pending = app.get(&format!("{CG}/stand-swaps"), &clerk).await;
    let swap = &pending.body["itens"][0]["pedido"];
    let (year, number) = (
        swap[0].as_i64().expect("year"),
        swap[1].as_i64().expect("number"),
    );
    let decided = app
        .post(
            &format!("{CG}/stand-swaps/{year}/{number}/decision"),
            &clerk,
            json!({ "autorizar": true }),
        )
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    assert_eq!(decided.text("situacao"), "approved");
    let debts = decided.body["debitos"].as_array().expect("debts").clone();
    assert_eq!(debts.len(), 2);
    for debt in debts {
        let path = debt.as_str().expect("a debt");
        let due = app.get(&format!("{CG}/debts/{path}/due"), &clerk).await;
        assert_eq!(due.status, StatusCode::OK, "{:?}", due.body);
        assert!(due.body.to_string().contains("500"), "{:?}", due.body);
    }
}

on_both_backends!(demo_stands_and_draw);
