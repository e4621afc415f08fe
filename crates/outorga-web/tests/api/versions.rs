//! A law in versions through the API (a test amendment of Canguçu's grave
//! fine from 01/01/2026, `outorga_rulebook::fixture`): each auto judged by
//! the version in force when the infraction was committed, saying which and
//! what the articles it cites said; the law's catalog by day.

use crate::common::{App, rulebooks};
use axum::http::StatusCode;
use outorga_rulebook::fixture::amended_cangucu;
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const CANGUCU: &str = "/api/jurisdictions/cangucu";
const ANA: &str = "52601815906";

/// The words the auto's proposal keeps for a citation.
fn words<'a>(proposal: &'a Value, citation: &str) -> &'a str {
    proposal["textos"]
        .as_array()
        .and_then(|list| list.iter().find(|t| t["artigo"] == citation))
        .and_then(|t| t["texto"].as_str())
        .unwrap_or_else(|| panic!("no words for {citation}: {proposal}"))
}

/// Ana, registered in the jurisdiction at `j` (its API path) by `clerk`.
async fn register_ana(app: &App, j: &str, clerk: &str) {
    let registered = app
        .post(
            &format!("{j}/people"),
            clerk,
            json!({ "documento": ANA, "nome": "Ana" }),
        )
        .await;
    assert_eq!(
        registered.status,
        StatusCode::CREATED,
        "{:?}",
        registered.body
    );
}

async fn autos_by_their_own_version(app: &App) {
    let clerk = app.signed_in("atendente", Role::Clerk, Scope::All).await;
    let inspector = app.signed_in("fiscal", Role::Inspector, Scope::All).await;
    register_ana(app, CANGUCU, &clerk).await;
    let autos = format!("{CANGUCU}/autos");
    let auto = |when: &str| {
        json!({ "infracao": "A18-I", "autuado": ANA, "regulamento": "cangucu/taxi",
                "cometida_em": when, "local": "Praça", "descricao": "Objeto esquecido retido" })
    };
    for (when, fine, version, act, words_say) in [
        (
            "2025-12-31T23:59",
            "400",
            "2024-03-05",
            "Mensagem 015/2024",
            "R$ 400,00",
        ),
        (
            "2026-01-01T00:00",
            "500",
            "2026-01-01",
            "Lei de teste 1/2025",
            "R$ 500,00",
        ),
    ] {
        let issued = app.post(&autos, &inspector, auto(when)).await;
        assert_eq!(
            issued.status,
            StatusCode::CREATED,
            "{when}: {:?}",
            issued.body
        );
        let proposal = &issued.body["proposta"];
        assert_eq!(
            proposal["sancoes"][0]["quantidade"], fine,
            "{when}: {proposal}"
        );
        assert_eq!(proposal["versao_da_lei"]["desde"], version, "{when}");
        assert_eq!(proposal["versao_da_lei"]["ato"], act, "{when}");
        let fine_words = words(proposal, "Anexo I, Art. 12, III");
        assert!(
            fine_words.ends_with(&format!("GRAVE – {words_say}; ou")),
            "{fine_words}"
        );
        assert!(
            words(proposal, "Anexo I, Art. 18, I").contains("qualquer objeto esquecido"),
            "{proposal}"
        );
        // Read back, the auto still says so.
        let number = issued.body["numero"].as_i64().expect("a number");
        let read = app.get(&format!("{autos}/2026/{number}"), &clerk).await;
        assert_eq!(read.body["proposta"]["versao_da_lei"]["desde"], version);
    }
    // Before the law's first day: no version judges it.
    let before = app.post(&autos, &inspector, auto("2024-03-04T10:00")).await;
    assert_eq!(
        before.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        before.body
    );
    assert_eq!(before.text("campo"), "cometida_em");
    assert_eq!(
        before.text("motivo"),
        "04/03/2024 é anterior à entrada em vigor da lei de Canguçu (05/03/2024): esta lei não rege o que aconteceu antes"
    );

    // The law's catalog: its versions and the words of the one in force.
    let law = |day: &str| format!("{CANGUCU}/catalog/law?servico=taxi&data={day}");
    for (day, in_force, words_say) in [
        ("2025-12-31", [true, false], "R$ 400,00"),
        ("2026-01-01", [false, true], "R$ 500,00"),
    ] {
        let catalog = app.get(&law(day), &clerk).await;
        assert_eq!(catalog.status, StatusCode::OK, "{:?}", catalog.body);
        let rulebook = &catalog.body["regulamentos"][0];
        let versions = rulebook["versoes"].as_array().expect("versions");
        let flags: Vec<bool> = versions.iter().map(|v| v["em_vigor"] == true).collect();
        assert_eq!(flags, in_force, "{day}");
        assert_eq!(
            versions[1]["alteracao"],
            "Anexo I, art. 12, III: a multa grave passa de R$ 400,00 a R$ 500,00"
        );
        let article = rulebook["artigos"]
            .as_array()
            .and_then(|a| a.iter().find(|a| a["artigo"] == "Anexo I, Art. 12"))
            .expect("art. 12");
        assert!(
            article["texto"]
                .as_str()
                .unwrap_or_default()
                .contains(words_say),
            "{day}"
        );
    }
    let too_early = app.get(&law("2024-01-01"), &clerk).await;
    assert_eq!(too_early.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(too_early.text("campo"), "data");
}

#[tokio::test]
async fn sqlite() {
    let dir = tempfile::tempdir().expect("a folder");
    let folder = amended_cangucu(&rulebooks(), dir.path()).expect("the test version");
    let app = App::sqlite_with(&folder).await;
    autos_by_their_own_version(&app).await;
    app.finish().await;
}

#[tokio::test]
async fn postgres() {
    let dir = tempfile::tempdir().expect("a folder");
    let folder = amended_cangucu(&rulebooks(), dir.path()).expect("the test version");
    let app = App::postgres_with("versions", &folder).await;
    autos_by_their_own_version(&app).await;
    app.finish().await;
}

/// What the law leaves open is filled by the deployment's acts, each from
/// its day: a decree widening Santa Maria de Jetibá's window of
/// reincidência (art. 52 gives none: 12 months by default) applies to an
/// infraction from its day on, and the auto records the act it was
/// weighed with; the catalog says which act is in force on a day; an act
/// without its citation or before the law is refused.
async fn acts_fill_the_open_terms(app: &App) {
    const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
    let admin = app.signed_in("chefe", Role::Admin, Scope::All).await;
    let clerk = app.signed_in("atendente", Role::Clerk, Scope::All).await;
    let inspector = app.signed_in("fiscal", Role::Inspector, Scope::All).await;
    let window = format!("{SMJ}/parameters/repeat_window_months");
    let put = |body: Value| {
        let window = window.clone();
        let admin = admin.clone();
        async move {
            app.call(axum::http::Method::PUT, &window, Some(&admin), Some(body))
                .await
        }
    };
    let set = put(json!({ "valor": "24", "desde": "2026-01-01", "ato": "Decreto 10/2025" })).await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.body);
    assert_eq!(set.body["desde"], "2026-01-01");
    assert_eq!(set.body["ato"], "Decreto 10/2025");
    let no_act = put(json!({ "valor": "24", "desde": "2026-01-01", "ato": " " })).await;
    assert_eq!(no_act.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(no_act.text("campo"), "ato");
    let too_early =
        put(json!({ "valor": "24", "desde": "2024-07-31", "ato": "Decreto 1/2024" })).await;
    assert_eq!(too_early.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(too_early.text("campo"), "desde");

    register_ana(app, SMJ, &clerk).await;
    let auto = |when: &str| {
        json!({ "infracao": "51-I-a", "autuado": ANA, "regulamento": "santa-maria-de-jetiba/taxi",
                "cometida_em": when, "local": "Praça Central", "descricao": "Fumando" })
    };
    let before = app
        .post(
            &format!("{SMJ}/autos"),
            &inspector,
            auto("2025-12-20T10:00"),
        )
        .await;
    assert_eq!(before.status, StatusCode::CREATED, "{:?}", before.body);
    assert_eq!(before.body["proposta"]["atos_aplicados"], json!([]));
    let after = app
        .post(
            &format!("{SMJ}/autos"),
            &inspector,
            auto("2026-02-01T10:00"),
        )
        .await;
    assert_eq!(after.status, StatusCode::CREATED, "{:?}", after.body);
    assert_eq!(
        after.body["proposta"]["atos_aplicados"],
        json!([{ "parametro": "repeat_window_months", "valor": "24",
                 "desde": "2026-01-01", "ato": "Decreto 10/2025" }])
    );

    // The catalog: the law's default before the act, the act's value after.
    for (day, value, act) in [
        ("2025-12-31", "12", Value::Null),
        ("2026-01-01", "24", json!("Decreto 10/2025")),
    ] {
        let catalog = app
            .get(&format!("{SMJ}/catalog/parameters?data={day}"), &clerk)
            .await;
        let row = catalog.body["regulamentos"][0]["parametros"]
            .as_array()
            .and_then(|rows| rows.iter().find(|p| p["nome"] == "repeat_window_months"))
            .cloned()
            .expect("the window");
        assert_eq!(row["valor"], value, "{day}: {row}");
        assert_eq!(row["ato"], act, "{day}");
        assert_eq!(row["preenchido_por"], "decreto");
        assert_eq!(row["fundamento_do_padrao"], "Art. 5º, I");
    }
}

on_both_backends!(acts_fill_the_open_terms);
