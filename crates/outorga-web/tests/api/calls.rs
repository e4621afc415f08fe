//! Santa Maria de Jetibá's public call through the API with the demo's
//! records: from the edital to the grants, the reserved share applied (art.
//! 2º, § 4º) and its unfilled places released (§ 6º); the published
//! ranking recomputed by an independent implementation in Python
//! (docs/recompute-call.py, with the tie draw's tickets by hashlib); a
//! tampered ranking does not check; a published draw refuses to run again;
//! out of turn or twice, no grant.

use crate::common::App;
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";

fn recompute(call: &Value, draws: &[Value]) -> (bool, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut args = Vec::new();
    for (i, body) in std::iter::once(call).chain(draws).enumerate() {
        let saved = dir.path().join(format!("{i}.json"));
        std::fs::write(&saved, body.to_string()).expect("saved");
        args.push(saved);
    }
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/recompute-call.py");
    let python = std::env::var("OUTORGA_PY_ORACLE").unwrap_or_else(|_| "python3".into());
    let run = std::process::Command::new(&python)
        .arg(&script)
        .args(&args)
        .output()
        .expect("python runs");
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    (run.status.success(), out)
}

async fn demo_call_from_edital_to_grants(app: &App) {
    app.load_demo().await;
    let clerk = app.with_token("atendente", Role::Clerk, Scope::All).await;
    let calls = app.get(&format!("{SMJ}/calls"), &clerk).await;
    assert_eq!(calls.status, StatusCode::OK, "{:?}", calls.body);
    let key = &calls.body["itens"][0]["chamamento"];
    let (year, number) = (
        key[0].as_i64().expect("year"),
        key[1].as_i64().expect("number"),
    );
    let public = app
        .call(
            Method::GET,
            &format!("/api/public/jurisdictions/santa-maria-de-jetiba/calls/{year}/{number}"),
            None,
            None,
        )
        .await;
    assert_eq!(public.status, StatusCode::OK, "{:?}", public.body);
    let call = public.body.clone();
    assert_eq!(call["situacao"], "final");
    assert_eq!(call["inscritos"], 25);
    let applications = call["inscricoes"].as_array().expect("applications");
    assert!(
        applications.iter().all(|a| a["documento"]
            .as_str()
            .is_some_and(|d| d.starts_with("***"))),
        "{call}"
    );
    let eligible = applications
        .iter()
        .filter(|a| a["triagem"]["habilitado"] == true)
        .count();
    // 25 applicants, one CNH not for paid work; the one without the
    // certificate made eligible by the granted appeal.
    assert_eq!(eligible, 24);
    // Every place of the result granted, the two admitted claimants on the
    // reserved share, its unfilled places released (§ 6º).
    let placed: Vec<&Value> = applications
        .iter()
        .filter(|a| a["vez"].is_number())
        .collect();
    assert_eq!(placed.len(), 10);
    assert!(placed.iter().all(|a| a["permissao"].is_array()), "{call}");
    let reserved = placed
        .iter()
        .filter(|a| {
            a["vaga"]
                .as_str()
                .is_some_and(|v| v.starts_with("reserved:"))
        })
        .count();
    assert_eq!(reserved, 2);
    let released = placed
        .iter()
        .filter(|a| {
            a["vaga"]
                .as_str()
                .is_some_and(|v| v.starts_with("released:"))
        })
        .count();
    let freed = &call["desfecho"]["liberadas"][0];
    assert_eq!(freed["artigo"], "Art. 2º, § 6º");
    assert_eq!(freed["vagas"].as_u64(), Some(released as u64));
    assert!(released > 0);

    // The ranking recomputed from the published JSON by Python.
    let [draw_year, draw_number] = [0, 1].map(|i| call["sorteios"][0][i].as_i64().expect("draw"));
    let draw = app
        .call(
            Method::GET,
            &format!(
                "/api/public/jurisdictions/santa-maria-de-jetiba/draws/{draw_year}/{draw_number}"
            ),
            None,
            None,
        )
        .await;
    assert_eq!(draw.status, StatusCode::OK, "{:?}", draw.body);
    assert_eq!(draw.body["finalidade"], "call_tie");
    assert_eq!(draw.body["participantes"].as_array().map(Vec::len), Some(3));
    let (ok, out) = recompute(&call, std::slice::from_ref(&draw.body));
    assert!(ok && out.ends_with("confere\n"), "{out}");
    let mut forged = call.clone();
    let first = forged["inscricoes"]
        .as_array_mut()
        .expect("applications")
        .iter_mut()
        .find(|a| a["classificacao"] == 1)
        .expect("first");
    first["classificacao"] = json!(99);
    let (ok, out) = recompute(&forged, std::slice::from_ref(&draw.body));
    assert!(!ok, "{out}");

    // A published draw is not drawn again; a grant is made once.
    let again = app
        .post(
            &format!("{SMJ}/draws/{draw_year}/{draw_number}/result"),
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
    let seq = placed[0]["numero"].as_i64().expect("seq");
    let twice = app
        .post(
            &format!("{SMJ}/calls/{year}/{number}/applications/{seq}/grant"),
            &clerk,
            json!({}),
        )
        .await;
    assert_eq!(
        twice.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        twice.body
    );
    assert!(
        twice.text("erro").contains("outorgadas"),
        "{:?}",
        twice.body
    );
}

on_both_backends!(demo_call_from_edital_to_grants);
