//! The papers on the demo's records (issue 14), on both backends: every
//! kind of document downloads as a PDF that says its code and where to
//! check it, whose QR code opens its verification page, and that is the
//! same file every time (its SHA-256 in the ETag); the papers of an auto
//! and a payment slip are issued once per state and carry what the
//! procedure and the money module say.

use crate::common::App;
use axum::http::{StatusCode, header};
use outorga_pdf::readback;
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const VERIFY: &str = "http://localhost:8080/verificar";

/// The PDF of document `code` in `j`: its text (whitespace folded) and the
/// texts of its QR codes, after checking the answer is the kept file.
async fn pdf(app: &App, token: &str, j: &str, code: &str, format: &str) -> (String, Vec<String>) {
    let path = format!("/api/jurisdictions/{j}/documents/{code}/pdf?formato={format}");
    let (status, headers, bytes) = app.file(&path, token).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{path}: {}",
        String::from_utf8_lossy(&bytes)
    );
    assert_eq!(headers[header::CONTENT_TYPE], "application/pdf");
    assert!(bytes.starts_with(b"%PDF-"), "{path}");
    let etag = headers[header::ETAG]
        .to_str()
        .expect("etag")
        .trim_matches('"')
        .to_string();
    assert_eq!(
        etag,
        outorga_store::sha256_hex(&bytes),
        "the ETag is the file's SHA-256"
    );
    // Printed again: the same file.
    let (_, _, again) = app.file(&path, token).await;
    assert_eq!(again, bytes, "{path}: a reprint is the kept file");
    // The public check names the file's SHA-256.
    let public = app
        .call(
            axum::http::Method::GET,
            &format!("/api/public/documents/{code}"),
            None,
            None,
        )
        .await;
    let kept: Vec<&str> = public.body["arquivos"]
        .as_array()
        .expect("arquivos")
        .iter()
        .filter_map(|a| a["sha256"].as_str())
        .collect();
    assert!(kept.contains(&etag.as_str()), "{:?}", public.body);
    let text = readback::text(&bytes).expect("pdftotext");
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let codes = readback::qr_codes(&bytes).expect("zbarimg");
    (folded, codes)
}

fn documents(list: &Value) -> Vec<(String, String)> {
    list["itens"]
        .as_array()
        .expect("items")
        .iter()
        .map(|d| {
            (
                d["tipo"].as_str().unwrap_or_default().to_string(),
                d["codigo"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn says_where_to_check(text: &str, code: &str) {
    let expected = format!(
        "A autenticidade deste documento pode ser conferida em {VERIFY} informando o código {code}"
    );
    assert!(text.contains(&expected), "{expected:?} not in {text}");
}

async fn papers(app: &App) {
    app.load_demo().await;
    let reader = app.with_token("consulta", Role::ReadOnly, Scope::All).await;
    let clerk = app.with_token("atendente", Role::Clerk, Scope::All).await;

    // The demo's carrier holds the delegation of AP-101 (its term) and an
    // eventual charter's authorization.
    // Every kind the record issues with a permit, from the demo's records.
    let mut kinds_seen = Vec::new();
    for j in ["santa-maria-de-jetiba", "teofilo-otoni", "cangucu", "amapa"] {
        let list = app
            .get(
                &format!("/api/jurisdictions/{j}/documents?limite=200"),
                &reader,
            )
            .await;
        assert_eq!(list.status, StatusCode::OK, "{:?}", list.body);
        let mut seen_here = Vec::new();
        for (kind, code) in documents(&list.body) {
            if seen_here.contains(&kind) {
                continue;
            }
            seen_here.push(kind.clone());
            let (text, codes) = pdf(app, &reader, j, &code, "a4").await;
            says_where_to_check(&text, &code);
            assert_eq!(codes, [format!("{VERIFY}/{code}")], "{kind} {code}");
            match kind.as_str() {
                "autorizacao_trafego" => {
                    assert!(text.contains("Autorização de tráfego"), "{text}");
                    assert!(
                        text.contains("Marca/modelo"),
                        "the vehicle's make and model: {text}"
                    );
                }
                "matricula_condutor" => {
                    assert!(text.contains("Matrícula do condutor"), "{text}");
                    // The card: the same code and QR code, as a card.
                    let (card, card_codes) = pdf(app, &reader, j, &code, "cartao").await;
                    assert!(card.contains("Credencial do condutor"), "{card}");
                    assert!(card.contains(&code), "{card}");
                    assert_eq!(card_codes, [format!("{VERIFY}/{code}")]);
                }
                "selo_vistoria" => assert!(text.contains("Selo de vistoria"), "{text}"),
                "autorizacao_fretamento" => {
                    assert!(
                        text.contains("Autorização de fretamento eventual ou turístico"),
                        "{text}"
                    );
                    assert!(text.contains("Passageiros na lista"), "{text}");
                    assert!(text.contains("Art. 28, § 2º"), "{text}");
                    // The carrier's registration the bus carries with it
                    // (art. 28, § 4º; 64, IV).
                    assert!(text.contains("Registro cadastral nº"), "{text}");
                    assert!(text.contains("Art. 64, IV"), "{text}");
                }
                "termo_delegacao" => {
                    assert!(text.contains("Termo de delegação"), "{text}");
                    assert!(
                        text.contains("Expresso Tucuju Ltda (demonstração) (36.002.518/0001-01)"),
                        "{text}"
                    );
                    assert!(text.contains("AP-101"), "{text}");
                    assert!(
                        text.contains("Secretaria de Estado de Transporte"),
                        "{text}"
                    );
                }
                _ => {}
            }
            if !kinds_seen.contains(&kind) {
                kinds_seen.push(kind);
            }
        }
    }
    for kind in [
        "autorizacao_trafego",
        "matricula_condutor",
        "selo_vistoria",
        "termo_delegacao",
        "autorizacao_fretamento",
    ] {
        assert!(
            kinds_seen.iter().any(|k| k == kind),
            "no {kind} in the demo: {kinds_seen:?}"
        );
    }
    // The papers head with the organ the law names.
    let list = app
        .get(
            "/api/jurisdictions/teofilo-otoni/documents?tipo=autorizacao_trafego",
            &reader,
        )
        .await;
    let (_, code) = documents(&list.body).into_iter().next().expect("a DIV");
    let (text, _) = pdf(app, &reader, "teofilo-otoni", &code, "a4").await;
    assert!(text.contains("TEOTRANS"), "{text}");

    // Only the credential is a card; an unknown code, or another
    // jurisdiction's, is not found.
    let (status, _, _) = app
        .file(
            &format!("/api/jurisdictions/teofilo-otoni/documents/{code}/pdf?formato=cartao"),
            &reader,
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _, _) = app
        .file(
            &format!("/api/jurisdictions/cangucu/documents/{code}/pdf"),
            &reader,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = app
        .file(
            "/api/jurisdictions/cangucu/documents/ZZZZZ-99999/pdf",
            &reader,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = app
        .file(
            &format!("/api/jurisdictions/teofilo-otoni/documents/{code}/pdf?formato=a3"),
            &reader,
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // The papers of an auto: issued once, its notification with the
    // defense deadline, the decision only once judged.
    let autos = app
        .get("/api/jurisdictions/cangucu/autos?limite=100", &reader)
        .await;
    let autos = autos.body["itens"].as_array().expect("autos").clone();
    let mut judged = 0;
    let mut notified = 0;
    for auto in &autos {
        let (year, number) = (
            auto["ano"].as_i64().expect("ano"),
            auto["numero"].as_i64().expect("n"),
        );
        let path = format!("/api/jurisdictions/cangucu/autos/{year}/{number}/papers");
        let first = app
            .post(&path, &clerk, json!({ "tipo": "auto_infracao" }))
            .await;
        assert_eq!(first.status, StatusCode::CREATED, "{:?}", first.body);
        let again = app
            .post(&path, &clerk, json!({ "tipo": "auto_infracao" }))
            .await;
        assert_eq!(
            first.text("codigo"),
            again.text("codigo"),
            "the same auto, the same paper"
        );
        let notice = app
            .post(&path, &clerk, json!({ "tipo": "notificacao_autuacao" }))
            .await;
        assert_eq!(notice.status, StatusCode::CREATED, "{:?}", notice.body);
        if notified == 0 {
            let (text, _) = pdf(app, &reader, "cangucu", &first.text("codigo"), "a4").await;
            assert!(
                text.contains(&format!("Auto de infração nº {number}/{year}")),
                "{text}"
            );
            assert!(text.contains("Penalidade proposta"), "{text}");
            let (text, _) = pdf(app, &reader, "cangucu", &notice.text("codigo"), "a4").await;
            assert!(text.contains("Prazo para a defesa"), "{text}");
            // Canguçu Anexo I art. 21: 15 days from the first business day.
            assert!(text.contains("Anexo I, Art. 21"), "{text}");
            notified += 1;
        }
        let decision = app
            .post(&path, &clerk, json!({ "tipo": "notificacao_decisao" }))
            .await;
        match decision.status {
            StatusCode::CREATED => {
                let code = decision.text("codigo");
                let (text, codes) = pdf(app, &reader, "cangucu", &code, "a4").await;
                assert!(
                    text.contains("Notificação da decisão e da penalidade"),
                    "{text}"
                );
                assert!(text.contains("Decisão"), "{text}");
                assert!(codes.contains(&format!("{VERIFY}/{code}")), "{codes:?}");
                judged += 1;
            }
            StatusCode::UNPROCESSABLE_ENTITY => {
                assert!(
                    decision.text("erro").contains("ainda não foi julgado"),
                    "{:?}",
                    decision.body
                );
            }
            other => panic!("decision notice: {other} {:?}", decision.body),
        }
        let wrong = app
            .post(&path, &clerk, json!({ "tipo": "selo_vistoria" }))
            .await;
        assert_eq!(
            wrong.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{:?}",
            wrong.body
        );
    }
    assert!(notified > 0, "the demo has autos in Canguçu");
    assert!(judged > 0, "the demo has a judged auto in Canguçu");

    // A payment slip: issued for a day, its PDF with the line, the
    // barcode's digits and the PIX (its QR code and copia e cola).
    let debts = app
        .get("/api/jurisdictions/cangucu/debts?limite=100", &reader)
        .await;
    let debt = debts.body["itens"]
        .as_array()
        .expect("debts")
        .iter()
        .find(|d| d["quitado"] == false)
        .unwrap_or_else(|| panic!("an unpaid debt in {:?}", debts.body))
        .clone();
    let key = format!(
        "{}/{}/{}",
        debt["ano"].as_i64().expect("ano"),
        debt["numero"].as_i64().expect("numero"),
        debt["sequencia"].as_i64().expect("sequencia")
    );
    let slip_json = app
        .get(
            &format!("/api/jurisdictions/cangucu/debts/{key}/guia?data=2026-12-10"),
            &reader,
        )
        .await;
    assert_eq!(slip_json.status, StatusCode::OK, "{:?}", slip_json.body);
    let path = format!("/api/jurisdictions/cangucu/debts/{key}/guia/documento?data=2026-12-10");
    let slip = app.post(&path, &clerk, json!({})).await;
    assert_eq!(slip.status, StatusCode::CREATED, "{:?}", slip.body);
    assert_eq!(slip.body["valido_ate"], "2026-12-10");
    let again = app.post(&path, &clerk, json!({})).await;
    assert_eq!(slip.text("codigo"), again.text("codigo"));
    let (text, codes) = pdf(app, &reader, "cangucu", &slip.text("codigo"), "a4").await;
    assert!(text.contains("Guia de recolhimento"), "{text}");
    assert!(text.contains(&slip_json.text("linha_digitavel")), "{text}");
    assert!(text.contains("10/12/2026"), "{text}");
    let pix = slip_json.text("pix");
    assert!(codes.contains(&pix), "the PIX QR code: {codes:?}");
    // Once paid, the slip no longer holds: its check says so.
    let paid = app
        .post(
            &format!("/api/jurisdictions/cangucu/debts/{key}/payments"),
            &clerk,
            json!({}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::CREATED, "{:?}", paid.body);
    let check = app
        .call(
            axum::http::Method::GET,
            &format!("/api/public/documents/{}", slip.text("codigo")),
            None,
            None,
        )
        .await;
    assert_eq!(check.body["valido"], false, "{:?}", check.body);
    assert!(
        check.body["motivos"].to_string().contains("já foi pago"),
        "{:?}",
        check.body
    );
    // A slip is never due in the past.
    let past = app
        .post(
            &format!("/api/jurisdictions/cangucu/debts/{key}/guia/documento?data=2026-11-01"),
            &clerk,
            json!({}),
        )
        .await;
    assert_eq!(
        past.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        past.body
    );
}

#[tokio::test]
async fn papers_on_sqlite() {
    papers(&App::sqlite().await).await;
}

#[tokio::test]
async fn papers_on_postgres() {
    let app = App::postgres("papers").await;
    papers(&app).await;
    app.finish().await;
}
