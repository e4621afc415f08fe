//! Issue 11, "Why", replayed through the JSON API on both backends: each
//! bullet the clerk and the board member found wrong, asserting what the law
//! says (the texts in `rulebooks/*/lei.txt`), not what the code happens to
//! do. Every refusal met on the way is also checked to reach the user in
//! Portuguese (bullet 8).

use crate::common::{Answer, App};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
const SMJ_PUBLIC: &str = "/api/public/jurisdictions/santa-maria-de-jetiba";
const CANGUCU: &str = "/api/jurisdictions/cangucu";
const TO: &str = "/api/jurisdictions/teofilo-otoni";
const AMAPA: &str = "/api/jurisdictions/amapa";
const ANA: &str = "52601815906";
const BETO: &str = "08301661305";
const CARRIER: &str = "36002518000101";

struct Team {
    admin: String,
    clerk: String,
    inspector: String,
    board: String,
    reader: String,
}

async fn team(app: &App) -> Team {
    Team {
        admin: app.with_token("admin", Role::Admin, Scope::All).await,
        clerk: app.with_token("clerk", Role::Clerk, Scope::All).await,
        inspector: app.with_token("fiscal", Role::Inspector, Scope::All).await,
        board: app.with_token("junta", Role::Board, Scope::All).await,
        reader: app.with_token("consulta", Role::ReadOnly, Scope::All).await,
    }
}

fn ok(answer: &Answer, status: StatusCode, what: &str) {
    assert_eq!(answer.status, status, "{what}: {:?}", answer.body);
}

/// Words of English that must not reach a user (bullet 8): whole words of
/// the error's `erro` and `motivo`, lowercased.
const ENGLISH: [&str; 24] = [
    "the", "is", "not", "must", "may", "days", "day", "refused", "allowed", "before", "after",
    "only", "law", "permit", "appeal", "renewal", "reserve", "seizure", "held", "until", "fine",
    "theft", "accident", "granted",
];

/// Bullet 8: a refusal's `motivo` is there, and neither it nor `erro`
/// carries English.
fn in_portuguese(answer: &Answer) {
    let motivo = answer.text("motivo");
    assert!(!motivo.trim().is_empty(), "no motivo: {:?}", answer.body);
    let said = format!("{} {motivo}", answer.text("erro")).to_lowercase();
    let words: Vec<&str> = said
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    for english in ENGLISH {
        assert!(
            !words.contains(&english),
            "English `{english}` reaches the user: {said}"
        );
    }
}

/// A refusal by the law (422) that names `article` among its articles, in
/// Portuguese.
fn refused_citing(answer: &Answer, article: &str, what: &str) {
    ok(answer, StatusCode::UNPROCESSABLE_ENTITY, what);
    let articles: Vec<&str> = answer.body["artigos"]
        .as_array()
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(
        articles.contains(&article),
        "{what}: `{article}` not among {articles:?}: {:?}",
        answer.body
    );
    in_portuguese(answer);
}

/// A field refused (422) naming `campo`, in Portuguese.
fn refused_field(answer: &Answer, campo: &str, what: &str) {
    ok(answer, StatusCode::UNPROCESSABLE_ENTITY, what);
    assert_eq!(answer.body["campo"], campo, "{what}: {:?}", answer.body);
    in_portuguese(answer);
}

/// A profile that meets every recorded requirement of the laws used here.
fn fit() -> Value {
    json!({
        "nascimento": "1980-05-01",
        "residente_desde": "2010-01-01",
        "condenacao_definitiva": false,
        "escolaridade": "medio",
        "cnh": {
            "numero": "02650306461",
            "categorias": ["A", "B"],
            "atividade_remunerada": true,
            "primeira_habilitacao": "2000-01-01",
            "validade": "2030-01-01"
        },
        "logradouro": "Rua Central, 10",
        "cidade": "Centro",
        "telefone": "27 99999-0000"
    })
}

async fn person(app: &App, team: &Team, j: &str, doc: &str) {
    let made = app
        .post(
            &format!("{j}/people"),
            &team.clerk,
            json!({ "documento": doc, "nome": "Pessoa" }),
        )
        .await;
    ok(&made, StatusCode::CREATED, "register");
    let profile = app
        .call(
            Method::PUT,
            &format!("{j}/people/{doc}/profile"),
            Some(&team.clerk),
            Some(fit()),
        )
        .await;
    ok(&profile, StatusCode::OK, "profile");
}

async fn population(app: &App, team: &Team, j: &str, value: &str) {
    let set = app
        .call(
            Method::PUT,
            &format!("{j}/parameters/population"),
            Some(&team.admin),
            Some(json!({ "valor": value, "desde": "2024-08-01", "ato": "Decreto de teste" })),
        )
        .await;
    ok(&set, StatusCode::OK, "population");
}

/// Grants `servico` to `holder` on 2026-11-30: the permit's number.
async fn grant(app: &App, team: &Team, j: &str, servico: &str, holder: &str) -> i64 {
    let granted = app
        .post(
            &format!("{j}/permits"),
            &team.clerk,
            json!({ "servico": servico, "titular": holder, "data": "2026-11-30" }),
        )
        .await;
    ok(&granted, StatusCode::CREATED, "grant");
    granted.body["permissao"]["numero"]
        .as_i64()
        .expect("a number")
}

/// Santa Maria de Jetibá: Ana's taxi MTX1A22 in service under permit 1,
/// not yet inspected.
async fn smj_taxi(app: &App, team: &Team) {
    population(app, team, SMJ, "1600").await;
    person(app, team, SMJ, ANA).await;
    assert_eq!(grant(app, team, SMJ, "taxi", ANA).await, 1);
    let vehicle = json!({
        "placa": "MTX1A22", "renavam": "29485839707", "ano_fabricacao": 2022,
        "cor": "branca", "portas": 4, "lotacao": 4, "equipamentos": ["taximetro"]
    });
    ok(
        &app.post(&format!("{SMJ}/vehicles"), &team.clerk, vehicle)
            .await,
        StatusCode::CREATED,
        "vehicle",
    );
    ok(
        &app.post(
            &format!("{SMJ}/permits/taxi/1/vehicle"),
            &team.clerk,
            json!({ "placa": "MTX1A22", "data": "2026-11-30" }),
        )
        .await,
        StatusCode::CREATED,
        "in service",
    );
}

async fn inspection(app: &App, team: &Team, approved: bool) -> Answer {
    let mut body = json!({ "servico": "taxi", "tipo": "periodica", "aprovada": approved });
    if !approved {
        body["constatacoes"] = json!("Pneus carecas e freio de estacionamento inoperante");
    }
    let inspected = app
        .post(
            &format!("{SMJ}/vehicles/MTX1A22/inspections"),
            &team.inspector,
            body,
        )
        .await;
    ok(&inspected, StatusCode::CREATED, "inspection");
    inspected
}

async fn plate_check(app: &App) -> Answer {
    let public = app
        .call(
            Method::GET,
            &format!("{SMJ_PUBLIC}/vehicles/MTX1A22"),
            None,
            None,
        )
        .await;
    ok(&public, StatusCode::OK, "public plate check");
    public
}

/// Posts the step `body` of the auto at `steps` as `who`.
async fn step(app: &App, steps: &str, who: &str, body: Value) -> Answer {
    app.post(steps, who, body).await
}

/// Bullet 1 — Canguçu, art. 19, III and Anexo I, art. 5º, III: the
/// suspension of the service is "de 05 (cinco) a 30 (trinta) dias", the
/// board choosing the days: a grave auto judged with 12 days keeps them
/// (`dias_decididos: 12`) and, once final, suspends the permit 12 days; 40
/// days, or 4, are refused naming the article.
async fn cangucu_suspension_days(app: &App) {
    let team = team(app).await;
    population(app, &team, CANGUCU, "56000").await;
    person(app, &team, CANGUCU, ANA).await;
    let number = grant(app, &team, CANGUCU, "taxi", ANA).await;
    let issued = app
        .post(
            &format!("{CANGUCU}/autos"),
            &team.inspector,
            json!({
                "infracao": "A18-I", "autuado": ANA,
                "permissao": { "servico": "taxi", "numero": number },
                "cometida_em": "2026-11-30T05:00", "local": "Centro",
                "descricao": "Objeto esquecido não entregue"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "grave auto");
    let suspension = issued.body["proposta"]["sancoes"]
        .as_array()
        .and_then(|list| list.iter().find(|s| s["tipo"] == "suspensao_permissao"))
        .cloned()
        .unwrap_or_else(|| panic!("no suspension proposed: {:?}", issued.body));
    assert_eq!(
        (&suspension["dias_min"], &suspension["dias_max"]),
        (&json!(5), &json!(30))
    );
    let (year, n) = (&issued.body["ano"], &issued.body["numero"]);
    let steps = format!("{CANGUCU}/autos/{year}/{n}/steps");
    for body in [
        json!({ "passo": "notificar" }),
        json!({ "passo": "defender", "texto": "Devolvi no dia seguinte" }),
    ] {
        ok(
            &step(app, &steps, &team.clerk, body).await,
            StatusCode::OK,
            "notify and defend",
        );
    }
    // The board fixes the days; the optional suspension is then imposed.
    let judged = |days: u32| json!({ "passo": "julgar", "mantido": true, "dias": days, "fundamentos": "Infração comprovada" });
    for days in [40, 4] {
        let outside = step(app, &steps, &team.board, judged(days)).await;
        refused_citing(&outside, "Anexo I, Art. 5º, III", &format!("{days} days"));
        assert!(
            outside.text("motivo").contains("5 e 30"),
            "{:?}",
            outside.body
        );
    }
    let kept = step(app, &steps, &team.board, judged(12)).await;
    ok(&kept, StatusCode::OK, "12 days");
    assert_eq!(kept.body["dias_decididos"], 12);
    let read = app
        .get(&format!("{CANGUCU}/autos/{year}/{n}"), &team.reader)
        .await;
    ok(&read, StatusCode::OK, "the auto");
    assert_eq!(read.body["dias_decididos"], 12);
    assert_eq!(read.body["situacao"], "julgado");
    // Final once the appeal's 30 days (Anexo I, art. 29) have run: the
    // permit is suspended for those 12 days, no more.
    ok(
        &step(
            app,
            &steps,
            &team.clerk,
            json!({ "passo": "notificar_decisao" }),
        )
        .await,
        StatusCode::OK,
        "decision notified",
    );
    app.clock.to_day("2027-01-05");
    let last = step(
        app,
        &steps,
        &team.clerk,
        json!({ "passo": "tornar_definitivo" }),
    )
    .await;
    ok(&last, StatusCode::OK, "final");
    let permit = app
        .get(&format!("{CANGUCU}/permits/taxi/{number}"), &team.reader)
        .await;
    let suspension = permit.body["historico"]
        .as_array()
        .and_then(|list| list.iter().find(|h| h["evento"] == "suspensao_penalidade"))
        .cloned()
        .unwrap_or_else(|| panic!("no suspension: {:?}", permit.body));
    assert_eq!(
        (&suspension["desde"], &suspension["ate"]),
        (&json!("2027-01-05"), &json!("2027-01-16")),
        "{suspension:?}"
    );
}

on_both_backends!(cangucu_suspension_days);

/// Bullet 2 — Santa Maria de Jetibá, art. 54, § 2º and art. 55, I:
/// clandestine or irregular transport (code `55`) brings the "imediata
/// apreensão do veículo pelo prazo de 30 (trinta) dias", an appeal
/// notwithstanding. Right after the auto, before any decision, the public
/// plate check reads the vehicle held and not licensed; a release within
/// the 30 days is refused, one after them allowed.
async fn clandestine_seizure(app: &App) {
    let team = team(app).await;
    smj_taxi(app, &team).await;
    inspection(app, &team, true).await;
    let before = plate_check(app).await;
    assert_eq!(before.body["licenciado"], true, "{:?}", before.body);
    assert_eq!(before.body["impedido_ate"], Value::Null);

    // The licensed taxi caught in irregular transport (art. 53, parágrafo
    // único: "ainda que a possua, mas de forma inadequada").
    let issued = app
        .post(
            &format!("{SMJ}/autos"),
            &team.inspector,
            json!({
                "infracao": "55", "autuado": ANA,
                "regulamento": "santa-maria-de-jetiba/taxi", "placa": "MTX1A22",
                "cometida_em": "2026-11-30T05:30", "local": "Rodovia ES-264",
                "descricao": "Transporte intermunicipal de passageiros sem autorização"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "clandestine auto");
    assert_eq!(issued.body["situacao"], "lavrado");
    let seizure = issued.body["proposta"]["sancoes"]
        .as_array()
        .and_then(|list| list.iter().find(|s| s["tipo"] == "apreensao_veiculo"))
        .cloned()
        .unwrap_or_else(|| panic!("no seizure proposed: {:?}", issued.body));
    assert_eq!(seizure["dias"], 30);
    assert!(seizure["no_ato"].is_string(), "{seizure:?}");

    let held = plate_check(app).await;
    assert_eq!(held.body["licenciado"], false, "{:?}", held.body);
    assert!(held.body["impedido_ate"].is_string(), "{:?}", held.body);
    let motivos = held.body["motivos"].to_string();
    assert!(motivos.contains("apreendido"), "{motivos}");

    let (year, n) = (&issued.body["ano"], &issued.body["numero"]);
    let steps = format!("{SMJ}/autos/{year}/{n}/steps");
    // The impugnação suspends the penalties (art. 56, § 1º), not the
    // seizure (art. 54, § 2º: "não elidindo a imediata apreensão").
    for body in [
        json!({ "passo": "notificar" }),
        json!({ "passo": "defender", "texto": "Era uma carona entre parentes" }),
    ] {
        ok(
            &step(app, &steps, &team.clerk, body).await,
            StatusCode::OK,
            "notify and defend",
        );
    }
    assert_eq!(plate_check(app).await.body["licenciado"], false);
    // Day 16 and day 30 of the seizure: too early.
    for day in ["2026-12-15", "2026-12-29"] {
        app.clock.to_day(day);
        let early = step(app, &steps, &team.clerk, json!({ "passo": "liberar" })).await;
        refused_citing(&early, "Art. 55, I", &format!("release on {day}"));
        assert_eq!(plate_check(app).await.body["licenciado"], false);
    }
    // 31 days on, the 30 have run under any counting.
    app.clock.to_day("2026-12-31");
    let released = step(app, &steps, &team.clerk, json!({ "passo": "liberar" })).await;
    ok(&released, StatusCode::OK, "release after 30 days");
    let free = plate_check(app).await;
    assert_eq!(free.body["impedido_ate"], Value::Null, "{:?}", free.body);
    assert_eq!(free.body["licenciado"], true, "{:?}", free.body);
}

on_both_backends!(clandestine_seizure);

/// Bullet 3 — Teófilo Otoni, art. 96 and § 2º: the JARI's judgement of the
/// defense is not the last word — a "recurso em segunda instância" lies
/// against it, so judging does not make the auto final; and the appeal is
/// received without a deposit (STF Súmula Vinculante 21 makes § 2º's
/// "depósito prévio" unenforceable).
async fn teofilo_otoni_second_instance(app: &App) {
    let team = team(app).await;
    person(app, &team, TO, ANA).await;
    let issued = app
        .post(
            &format!("{TO}/autos"),
            &team.inspector,
            json!({
                "infracao": "72201", "autuado": ANA,
                "regulamento": "teofilo-otoni/mototaxi",
                "cometida_em": "2026-11-30T05:00", "local": "Centro",
                "descricao": "Interrompeu a viagem para abastecer"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "auto");
    let (year, n) = (&issued.body["ano"], &issued.body["numero"]);
    let steps = format!("{TO}/autos/{year}/{n}/steps");
    for body in [
        json!({ "passo": "notificar" }),
        json!({ "passo": "defender", "texto": "Foi uma emergência" }),
    ] {
        ok(
            &step(app, &steps, &team.clerk, body).await,
            StatusCode::OK,
            "notify and defend",
        );
    }
    let judged = step(
        app,
        &steps,
        &team.board,
        json!({ "passo": "julgar", "mantido": true, "fundamentos": "Comprovada" }),
    )
    .await;
    ok(&judged, StatusCode::OK, "first instance");
    assert_eq!(judged.body["situacao"], "julgado", "{:?}", judged.body);
    assert_eq!(judged.body["definitivo_em"], Value::Null);
    let noticed = step(
        app,
        &steps,
        &team.clerk,
        json!({ "passo": "notificar_decisao" }),
    )
    .await;
    ok(&noticed, StatusCode::OK, "decision notified");
    assert!(
        noticed.body["recurso_ate"].is_string(),
        "{:?}",
        noticed.body
    );
    // While the appeal's time runs, the auto is not final.
    let now = app.get(&steps, &team.reader).await;
    ok(&now, StatusCode::OK, "steps");
    let passos = now.body["passos"].as_array().cloned().unwrap_or_default();
    let allowed = |name: &str| {
        passos
            .iter()
            .find(|p| p["passo"] == name)
            .map(|p| p["permitido"] == true)
    };
    assert_eq!(allowed("recorrer"), Some(true), "{passos:?}");
    assert_eq!(allowed("tornar_definitivo"), Some(false), "{passos:?}");
    assert!(
        now.body["recurso_para"]
            .to_string()
            .contains("Art. 96, § 2º"),
        "{:?}",
        now.body
    );
    let early = step(
        app,
        &steps,
        &team.clerk,
        json!({ "passo": "tornar_definitivo" }),
    )
    .await;
    ok(&early, StatusCode::UNPROCESSABLE_ENTITY, "final too early");
    in_portuguese(&early);
    let appealed = step(
        app,
        &steps,
        &team.clerk,
        json!({ "passo": "recorrer", "deposito": false, "texto": "Recorro sem depósito" }),
    )
    .await;
    ok(&appealed, StatusCode::OK, "appeal without a deposit");
    assert_eq!(appealed.body["situacao"], "em_recurso");
    assert!(appealed.body["recurso_em"].is_string());
    // The second instance is the last.
    let decided = step(
        app,
        &steps,
        &team.board,
        json!({ "passo": "julgar_recurso", "mantido": true, "fundamentos": "Mantido" }),
    )
    .await;
    ok(&decided, StatusCode::OK, "second instance");
    assert_eq!(decided.body["situacao"], "definitivo");
}

on_both_backends!(teofilo_otoni_second_instance);

/// Bullet 4 — renewal limits. Amapá, art. 8º: five years "podendo haver
/// única prorrogação por igual período": renewed once, then refused.
/// Canguçu, art. 37, parágrafo único: 420 months, "não prorrogável".
async fn renewal_limits(app: &App) {
    let team = team(app).await;
    ok(
        &app.post(
            &format!("{AMAPA}/people"),
            &team.clerk,
            json!({ "documento": CARRIER, "nome": "Expresso Tucuju" }),
        )
        .await,
        StatusCode::CREATED,
        "carrier",
    );
    ok(
        &app.post(
            &format!("{AMAPA}/lines"),
            &team.clerk,
            json!({ "codigo": "MCP-FGO", "nome": "Macapá–Ferreira Gomes", "coeficiente": "0,2175",
                    "itinerario": ["Macapá", "Ferreira Gomes"] }),
        )
        .await,
        StatusCode::CREATED,
        "line",
    );
    let delegated = app
        .post(
            &format!("{AMAPA}/permits"),
            &team.clerk,
            json!({ "servico": "onibus", "titular": CARRIER, "linha": "MCP-FGO", "data": "2026-11-30" }),
        )
        .await;
    ok(&delegated, StatusCode::CREATED, "delegation");
    // Five years; each renewal adds an equal period (the last day moved off
    // a weekend, as the product counts terms: 30 Nov 2031 is a Sunday).
    let year_of = |body: &Value| body["vence_em"].as_str().map(|d| d[..4].to_string());
    assert_eq!(
        year_of(&delegated.body["permissao"]).as_deref(),
        Some("2031"),
        "{:?}",
        delegated.body
    );
    let number = &delegated.body["permissao"]["numero"];
    let status = format!("{AMAPA}/permits/onibus/{number}/status");
    let renew = json!({ "mudanca": "renovacao" });
    let once = app.post(&status, &team.clerk, renew.clone()).await;
    ok(&once, StatusCode::OK, "the one renewal");
    assert_eq!(
        year_of(&once.body).as_deref(),
        Some("2036"),
        "{:?}",
        once.body
    );
    let twice = app.post(&status, &team.clerk, renew.clone()).await;
    refused_citing(&twice, "Art. 8º", "a second renewal");
    let history = app
        .get(&format!("{AMAPA}/permits/onibus/{number}"), &team.reader)
        .await;
    let events: Vec<&Value> = history.body["historico"]
        .as_array()
        .map(|list| list.iter().map(|h| &h["evento"]).collect())
        .unwrap_or_default();
    assert_eq!(events, [&json!("outorga"), &json!("renovacao")]);

    population(app, &team, CANGUCU, "56000").await;
    person(app, &team, CANGUCU, ANA).await;
    let taxi = grant(app, &team, CANGUCU, "taxi", ANA).await;
    let never = app
        .post(
            &format!("{CANGUCU}/permits/taxi/{taxi}/status"),
            &team.clerk,
            renew,
        )
        .await;
    refused_citing(&never, "Art. 37, Parágrafo único", "a Canguçu renewal");
}

on_both_backends!(renewal_limits);

/// Bullet 5 — Teófilo Otoni, art. 20: the holder may reserve the permit
/// for up to 90 days for theft or robbery (I), a serious accident or total
/// loss (II), or the substitution of the vehicle (III). A reserve dated
/// before the grant is refused, as is one for a reason art. 20 does not
/// list, or for more than 90 days; a listed one is taken.
async fn teofilo_otoni_reserve(app: &App) {
    let team = team(app).await;
    person(app, &team, TO, ANA).await;
    let number = grant(app, &team, TO, "mototaxi", ANA).await;
    let status = format!("{TO}/permits/mototaxi/{number}/status");
    let early = app
        .post(
            &status,
            &team.clerk,
            json!({ "mudanca": "reserva", "motivo": "furto_ou_roubo", "dias": 30, "data": "2026-11-29" }),
        )
        .await;
    ok(&early, StatusCode::UNPROCESSABLE_ENTITY, "before the grant");
    assert!(
        early.text("motivo").contains("2026-11-30"),
        "{:?}",
        early.body
    );
    in_portuguese(&early);
    // `perda_judicial` is a reason of Santa Maria de Jetibá's law, not of
    // art. 20; `doenca` is no law's.
    for reason in ["perda_judicial", "doenca"] {
        let unlisted = app
            .post(
                &status,
                &team.clerk,
                json!({ "mudanca": "reserva", "motivo": reason, "dias": 30 }),
            )
            .await;
        refused_field(&unlisted, "motivo", reason);
        let motivo = unlisted.text("motivo");
        assert!(
            motivo.contains("furto_ou_roubo") && motivo.contains("substituicao"),
            "{motivo}"
        );
    }
    let long = app
        .post(
            &status,
            &team.clerk,
            json!({ "mudanca": "reserva", "motivo": "roubo", "dias": 91 }),
        )
        .await;
    refused_citing(&long, "Art. 20", "91 days");
    let taken = app
        .post(
            &status,
            &team.clerk,
            json!({ "mudanca": "reserva", "motivo": "roubo", "dias": 30 }),
        )
        .await;
    ok(&taken, StatusCode::OK, "a listed reason");
    assert_eq!(taken.body["situacao"], "em_reserva");
}

on_both_backends!(teofilo_otoni_reserve);

/// Bullet 6 — public checks tell one truth (Santa Maria de Jetibá: the
/// vehicle serves with the inspection approved, art. 15–16): a vehicle
/// whose only inspection failed reads not licensed in the plate check, and
/// its traffic authorization reads not valid; once approved, both say so.
async fn failed_inspection(app: &App) {
    let team = team(app).await;
    smj_taxi(app, &team).await;
    let failed = inspection(app, &team, false).await;
    assert_eq!(failed.body["selo"], Value::Null);
    let check = plate_check(app).await;
    assert_eq!(check.body["licenciado"], false, "{:?}", check.body);
    assert_eq!(check.body["vistoria_valida"], false, "{:?}", check.body);
    assert_eq!(check.body["vistoria_valida_ate"], Value::Null);
    assert!(
        check.body["motivos"].to_string().contains("reprovad"),
        "{:?}",
        check.body
    );
    let documents = app
        .get(
            &format!("{SMJ}/documents?tipo=autorizacao_trafego&assunto=veiculo:MTX1A22"),
            &team.reader,
        )
        .await;
    let code = documents.body["itens"][0]["codigo"]
        .as_str()
        .unwrap_or_else(|| panic!("no authorization: {:?}", documents.body))
        .to_string();
    let document = format!("/api/public/documents/{code}");
    let authorization = app.call(Method::GET, &document, None, None).await;
    ok(&authorization, StatusCode::OK, "public document");
    assert_eq!(
        authorization.body["valido"], false,
        "{:?}",
        authorization.body
    );
    // Approved the next day: both checks agree it serves.
    app.clock.to_day("2026-12-01");
    inspection(app, &team, true).await;
    assert_eq!(plate_check(app).await.body["licenciado"], true);
    let authorization = app.call(Method::GET, &document, None, None).await;
    assert_eq!(
        authorization.body["valido"], true,
        "{:?}",
        authorization.body
    );
}

on_both_backends!(failed_inspection);

/// Bullet 7 — "today" is the jurisdiction's local date. `workflows.rs`'s
/// `local_time` already shows a step without a date taken on the local day
/// at 22:00 in Brasília; it does not look at the auto's own date. Here, at
/// 22:00 of 31 December in Santa Maria de Jetibá (01:00 UTC of 1 January),
/// the auto is of 2026, and art. 39, § 1º's 60 days to notify it count
/// from 31 December.
async fn local_new_year(app: &App) {
    let team = team(app).await;
    person(app, &team, SMJ, BETO).await;
    app.clock.to_day("2026-12-31");
    app.clock.advance(16); // 2027-01-01T01:00 UTC = 2026-12-31T22:00 in Brasília
    let issued = app
        .post(
            &format!("{SMJ}/autos"),
            &team.inspector,
            json!({
                "infracao": "51-I-a", "autuado": BETO,
                "regulamento": "santa-maria-de-jetiba/taxi",
                "cometida_em": "2026-12-31T21:40", "local": "Centro",
                "descricao": "Condutor fumando no interior do veículo"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "auto on New Year's Eve");
    assert_eq!(issued.body["ano"], 2026, "{:?}", issued.body);
    assert_eq!(issued.body["notificar_ate"], "2027-03-01");
    let n = &issued.body["numero"];
    let steps = app
        .get(&format!("{SMJ}/autos/2026/{n}/steps"), &team.reader)
        .await;
    ok(&steps, StatusCode::OK, "steps");
    assert_eq!(steps.body["data"], "2026-12-31");
}

on_both_backends!(local_new_year);
