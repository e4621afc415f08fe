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

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
const TO: &str = "/api/jurisdictions/teofilo-otoni";

/// Santa Maria de Jetibá (art. 28, § 1º) through the API: a credenciado's
/// stand moved only after a notice and its 15 business days (from Monday
/// 30 November 2026 to Monday 21 December), the move refused on the last
/// day and before, naming it, made the day after; no swap in this law.
/// Teófilo Otoni (art. 26, parágrafo único): a move the holder asked for,
/// with its protocol and the feasibility study.
async fn notice_before_relocation(app: &App) {
    app.load_demo().await;
    let clerk = app.with_token("atendente", Role::Clerk, Scope::All).await;
    for base in [SMJ, TO] {
        for code in ["CENTRO", "FEIRA"] {
            let made = app
                .post(
                    &format!("{base}/stands"),
                    &clerk,
                    json!({ "codigo": code, "nome": format!("Ponto {code}"), "vagas": 3 }),
                )
                .await;
            assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
        }
    }
    let designated = app
        .post(
            &format!("{SMJ}/stands/CENTRO/designations"),
            &clerk,
            json!({ "servico": "taxi", "numero": 1, "ato": "Portaria 3/2026" }),
        )
        .await;
    assert_eq!(
        designated.status,
        StatusCode::CREATED,
        "{:?}",
        designated.body
    );
    let grounds = "Obras de requalificação do centro por um ano";
    let move_it = json!({
        "servico": "taxi", "numero": 1, "ato": "Portaria 9/2026", "fundamentos": grounds,
    });
    let early = app
        .post(
            &format!("{SMJ}/stands/FEIRA/designations"),
            &clerk,
            move_it.clone(),
        )
        .await;
    assert_eq!(
        early.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        early.body
    );
    assert!(
        early.text("motivo").contains("notificação"),
        "{:?}",
        early.body
    );
    let notice = app
        .post(
            &format!("{SMJ}/permits/taxi/1/stand-notices"),
            &clerk,
            json!({
                "ponto": "FEIRA", "ato": "Notificação 2/2026", "fundamentos": grounds,
                "notificado_em": "2026-11-30",
            }),
        )
        .await;
    assert_eq!(notice.status, StatusCode::CREATED, "{:?}", notice.body);
    assert_eq!(notice.text("responder_ate"), "2026-12-21");
    assert_eq!(notice.body["artigos"], json!(["Art. 28, § 1º"]));
    for day in ["2026-12-18", "2026-12-21"] {
        app.clock.to_day(day);
        let waiting = app
            .post(
                &format!("{SMJ}/stands/FEIRA/designations"),
                &clerk,
                move_it.clone(),
            )
            .await;
        assert_eq!(
            waiting.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{:?}",
            waiting.body
        );
        assert!(
            waiting.text("motivo").contains("termina em 21/12/2026"),
            "{:?}",
            waiting.body
        );
        assert_eq!(waiting.body["artigos"], json!(["Art. 28, § 1º"]));
    }
    app.clock.to_day("2026-12-22");
    let moved = app
        .post(&format!("{SMJ}/stands/FEIRA/designations"), &clerk, move_it)
        .await;
    assert_eq!(moved.status, StatusCode::CREATED, "{:?}", moved.body);
    assert_eq!(moved.text("como"), "relocation");
    assert_eq!(moved.body["artigos"], json!(["Art. 28, § 1º"]));
    let notices = app
        .get(&format!("{SMJ}/permits/taxi/1/stand-notices"), &clerk)
        .await;
    assert_eq!(notices.body["itens"][0]["remanejada_em"], "2026-12-22");
    let swap = app
        .post(
            &format!("{SMJ}/stand-swaps"),
            &clerk,
            json!({ "servico": "taxi", "permissoes": [1, 2] }),
        )
        .await;
    assert_eq!(
        swap.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        swap.body
    );
    assert!(
        swap.text("motivo")
            .contains("a lei de Santa Maria de Jetibá"),
        "{:?}",
        swap.body
    );

    // Teófilo Otoni: the holder's request, with protocol and study.
    let placed = app
        .post(
            &format!("{TO}/stands/CENTRO/designations"),
            &clerk,
            json!({ "servico": "mototaxi", "numero": 1, "ato": "Alvará 1/2026" }),
        )
        .await;
    assert_eq!(placed.status, StatusCode::CREATED, "{:?}", placed.body);
    let asked = app
        .post(
            &format!("{TO}/stands/FEIRA/designations"),
            &clerk,
            json!({
                "servico": "mototaxi", "numero": 1, "ato": "Autorização 5/2026",
                "pedido": { "protocolo": "8812/2026", "estudo": "Estudo TEOTRANS 3/2026" },
            }),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    assert_eq!(asked.body["artigos"], json!(["Art. 26, Parágrafo único"]));
}

on_both_backends!(notice_before_relocation);
