//! The workflows through the API on both backends, with the Santa Maria de
//! Jetibá taxi law: grant (and a refusal naming its articles), drivers, the
//! vehicle in service, its inspection, the public checks, an auto through
//! its process to a debt and its payment, the agenda; and, concurrently,
//! autos numbered without gaps and grants that never pass the cap.

use crate::common::{Answer, App, post_on};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
const PUBLIC: &str = "/api/public/jurisdictions/santa-maria-de-jetiba";
const ANA: &str = "52601815906";
const BETO: &str = "08301661305";
const DANI: &str = "99603082430";
/// Applicants for the concurrent grants.
const MANY: [&str; 8] = [
    "99351819019",
    "93786579741",
    "54323194897",
    "75749118606",
    "25276018987",
    "55597971115",
    "47104974601",
    "50752917080",
];

/// A profile that meets every recorded requirement of the law.
fn fit() -> Value {
    json!({
        "nascimento": "1980-05-01",
        "residente_desde": "2010-01-01",
        "condenacao_definitiva": false,
        "cnh": {
            "numero": "02650306461",
            "categorias": ["B"],
            "atividade_remunerada": true,
            "primeira_habilitacao": "2000-01-01",
            "validade": "2030-01-01"
        },
        "logradouro": "Rua Central, 10",
        "cidade": "Santa Maria de Jetibá",
        "telefone": "27 99999-0000"
    })
}

fn ok(answer: &Answer, status: StatusCode, what: &str) {
    assert_eq!(answer.status, status, "{what}: {:?}", answer.body);
}

struct Team {
    admin: String,
    clerk: String,
    inspector: String,
    board: String,
    reader: String,
}

/// Users of every role, the people (registered, with profiles) and the
/// population that makes the cap 2 permits, 1 of them reserved.
async fn prepare(app: &App, people: &[&str]) -> Team {
    let team = Team {
        admin: app.with_token("admin", Role::Admin, Scope::All).await,
        clerk: app.with_token("clerk", Role::Clerk, Scope::All).await,
        inspector: app.with_token("fiscal", Role::Inspector, Scope::All).await,
        board: app.with_token("junta", Role::Board, Scope::All).await,
        reader: app.with_token("consulta", Role::ReadOnly, Scope::All).await,
    };
    let population = app
        .call(
            Method::PUT,
            &format!("{SMJ}/parameters/population"),
            Some(&team.admin),
            Some(json!({ "valor": "1600", "desde": "2024-08-01", "ato": "Decreto de teste" })),
        )
        .await;
    ok(&population, StatusCode::OK, "population");
    assert_eq!(population.body["regulamento"], "santa-maria-de-jetiba/taxi");
    for (i, doc) in people.iter().enumerate() {
        let made = app
            .post(
                &format!("{SMJ}/people"),
                &team.clerk,
                json!({ "documento": doc, "nome": format!("Pessoa {i}") }),
            )
            .await;
        ok(&made, StatusCode::CREATED, "register");
        let profile = app
            .call(
                Method::PUT,
                &format!("{SMJ}/people/{doc}/profile"),
                Some(&team.clerk),
                Some(fit()),
            )
            .await;
        ok(&profile, StatusCode::OK, "profile");
    }
    team
}

fn grant(holder: &str, quota: Option<&str>) -> Value {
    json!({ "servico": "taxi", "titular": holder, "data": "2026-11-30", "cota": quota })
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

async fn workflow(app: &App) {
    let team = prepare(app, &[ANA, BETO, DANI]).await;
    let profile = app
        .get(&format!("{SMJ}/people/{ANA}/profile"), &team.reader)
        .await;
    ok(&profile, StatusCode::OK, "profile read");
    assert_eq!(profile.body["cnh"]["validade"], "2030-01-01");

    // Grants: Ana takes the free place; Beto is refused it, with the
    // articles; under the reserved share he gets the other.
    let permits = format!("{SMJ}/permits");
    let ana = app.post(&permits, &team.clerk, grant(ANA, None)).await;
    ok(&ana, StatusCode::CREATED, "Ana's grant");
    assert_eq!(ana.body["permissao"]["numero"], 1);
    assert_eq!(ana.body["permissao"]["situacao"], "em_vigor");
    assert!(ana.body["a_verificar"].is_array());
    assert!(strings(&ana.body["artigos"]).contains(&"Art. 18, § 1º".to_string()));
    let refused = app.post(&permits, &team.clerk, grant(BETO, None)).await;
    ok(&refused, StatusCode::UNPROCESSABLE_ENTITY, "over the cap");
    assert!(refused.text("motivo").contains("livre concorrência"));
    assert!(strings(&refused.body["artigos"]).contains(&"Art. 18, § 1º".to_string()));
    let beto = app
        .post(&permits, &team.clerk, grant(BETO, Some("disabled_drivers")))
        .await;
    ok(&beto, StatusCode::CREATED, "reserved place");
    let bus = app
        .post(
            &permits,
            &team.clerk,
            json!({ "servico": "onibus", "titular": BETO }),
        )
        .await;
    ok(&bus, StatusCode::UNPROCESSABLE_ENTITY, "no such service");
    assert_eq!(bus.body["campo"], "servico");
    let listed = app
        .get(&format!("{permits}?servico=taxi"), &team.reader)
        .await;
    assert_eq!(listed.body["itens"].as_array().map(Vec::len), Some(2));

    // A driver under Ana's permit.
    let drivers = format!("{SMJ}/permits/taxi/1/drivers");
    let added = app
        .post(
            &drivers,
            &team.clerk,
            json!({ "condutor": DANI, "funcao": "auxiliar", "data": "2026-11-30" }),
        )
        .await;
    ok(&added, StatusCode::CREATED, "driver");
    let registration = added.body["condutor"]["matricula"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(registration, "2026-00001");
    assert_eq!(added.body["condutor"]["funcao"], "auxiliar");
    assert_eq!(added.body["documento"]["tipo"], "matricula_condutor");
    let code = added.body["documento"]["codigo"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let crew = app.get(&drivers, &team.reader).await;
    assert_eq!(crew.body["itens"].as_array().map(Vec::len), Some(1));

    // The vehicle in service and its inspection.
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
    let in_service = app
        .post(
            &format!("{SMJ}/permits/taxi/1/vehicle"),
            &team.clerk,
            json!({ "placa": "MTX-1A22", "data": "2026-11-30" }),
        )
        .await;
    ok(&in_service, StatusCode::CREATED, "inclusion");
    assert_eq!(
        in_service.body["autorizacao"]["tipo"],
        "autorizacao_trafego"
    );
    let inspection = app
        .post(
            &format!("{SMJ}/vehicles/MTX1A22/inspections"),
            &team.inspector,
            json!({ "servico": "taxi", "tipo": "periódica", "data": "2026-11-30", "aprovada": true }),
        )
        .await;
    ok(&inspection, StatusCode::CREATED, "inspection");
    assert_eq!(inspection.body["proxima_ate"], "2027-11-30");
    assert_eq!(inspection.body["tipo"], "periodica");
    assert_eq!(inspection.body["selo"]["tipo"], "selo_vistoria");
    let documents = app
        .get(
            &format!("{SMJ}/documents?assunto=veiculo:MTX1A22"),
            &team.reader,
        )
        .await;
    assert_eq!(documents.body["itens"].as_array().map(Vec::len), Some(2));

    // Public checks: no token, no holder, no CPF.
    let public = app
        .call(
            Method::GET,
            &format!("{PUBLIC}/vehicles/mtx-1a22"),
            None,
            None,
        )
        .await;
    ok(&public, StatusCode::OK, "public vehicle");
    assert_eq!(public.body["licenciado"], true);
    assert_eq!(public.body["servico"], "taxi");
    assert_eq!(public.body["permissao"], 1);
    assert_eq!(public.body["situacao_permissao"], "em_vigor");
    assert_eq!(public.body["situacao_permissao_nome"], "em vigor");
    assert_eq!(public.body["vistoria_valida"], true);
    assert_eq!(public.body["vistoria_valida_ate"], "2027-11-30");
    let driver = app
        .call(
            Method::GET,
            &format!("{PUBLIC}/drivers/{registration}"),
            None,
            None,
        )
        .await;
    ok(&driver, StatusCode::OK, "public driver");
    assert_eq!(driver.body["valido"], true);
    assert_eq!(driver.body["funcao"], "auxiliar");
    let document = app
        .call(
            Method::GET,
            &format!(
                "/api/public/documents/{}",
                code.to_lowercase().replace('-', "")
            ),
            None,
            None,
        )
        .await;
    ok(&document, StatusCode::OK, "public document");
    assert_eq!(document.body["valido"], true);
    assert_eq!(document.body["codigo"], code.as_str());
    assert!(document.body.get("titular").is_none());
    for answer in [&public, &driver, &document] {
        let text = answer.body.to_string();
        for cpf in [ANA, BETO, DANI] {
            assert!(!text.contains(cpf), "{text}");
        }
        assert!(!text.contains("Pessoa"), "{text}");
    }
    for path in [
        format!("{PUBLIC}/vehicles/ZZZ9Z99"),
        format!("{PUBLIC}/drivers/2026-09999"),
        "/api/public/documents/AAAAA-BBBBB".to_string(),
    ] {
        let unknown = app.call(Method::GET, &path, None, None).await;
        ok(&unknown, StatusCode::NOT_FOUND, &path);
        assert!(unknown.text("erro").contains("não"), "{:?}", unknown.body);
    }

    // Permit status: suspension on request, over the law's 120 days refused.
    app.clock.to_day("2026-12-01");
    let status = format!("{SMJ}/permits/taxi/2/status");
    let long = app
        .post(
            &status,
            &team.clerk,
            json!({ "mudanca": "reserva", "motivo": "theft", "dias": 121, "data": "2026-12-01" }),
        )
        .await;
    ok(&long, StatusCode::UNPROCESSABLE_ENTITY, "121 days");
    assert!(long.text("motivo").contains("120"));
    let suspended = app
        .post(
            &status,
            &team.clerk,
            json!({ "mudanca": "reserva", "motivo": "theft", "dias": 120, "data": "2026-12-01" }),
        )
        .await;
    ok(&suspended, StatusCode::OK, "suspension");
    assert_eq!(suspended.body["situacao"], "em_reserva");
    let history = app
        .get(&format!("{SMJ}/permits/taxi/2"), &team.reader)
        .await;
    ok(&history, StatusCode::OK, "history");
    assert_eq!(history.body["historico"].as_array().map(Vec::len), Some(2));
    // 120 days with 1 Dec 2026 the first: the last is 30 Mar 2027.
    assert_eq!(history.body["historico"][1]["ate"], "2027-03-30");
    assert_eq!(history.body["historico"][0]["evento"], "outorga");
    assert_eq!(history.body["historico"][1]["evento"], "reserva");
    assert_eq!(history.body["historico"][1]["situacao"], "em_reserva");

    // An auto (group 3: a fine at once), through its process, to a debt.
    let autos = format!("{SMJ}/autos");
    let auto = json!({
        "infracao": "51-III-a", "autuado": ANA,
        "permissao": { "servico": "taxi", "numero": 1 }, "placa": "MTX1A22",
        "cometida_em": "2026-11-28T14:30", "local": "Praça Central",
        "descricao": "Veículo sem condições de higiene"
    });
    let not_inspector = app.post(&autos, &team.clerk, auto.clone()).await;
    ok(
        &not_inspector,
        StatusCode::FORBIDDEN,
        "clerks do not issue autos",
    );
    let issued = app.post(&autos, &team.inspector, auto).await;
    ok(&issued, StatusCode::CREATED, "auto");
    assert_eq!(
        (&issued.body["ano"], &issued.body["numero"]),
        (&json!(2026), &json!(1))
    );
    assert_eq!(issued.body["proposta"]["sancoes"][0]["tipo"], "multa");
    // No VRTM value yet (art. 47 leaves it to the municipality): no reais.
    assert_eq!(issued.body["proposta"]["sancoes"][0]["reais"], Value::Null);
    let vrtm = app
        .call(
            Method::PUT,
            &format!("{SMJ}/units/VRTM"),
            Some(&team.admin),
            Some(json!({ "desde": "2026-01-01", "valor": "4.7125", "ato": "Decreto nº 123/2025" })),
        )
        .await;
    ok(&vrtm, StatusCode::CREATED, "VRTM");
    let priced = app.get(&format!("{SMJ}/autos/2026/1"), &team.reader).await;
    let fine = &priced.body["proposta"]["sancoes"][0];
    let quantity: rust_decimal::Decimal = fine["quantidade"]
        .as_str()
        .and_then(|q| q.parse().ok())
        .expect("quantity");
    let expected = (quantity * rust_decimal::Decimal::new(47125, 4)).round_dp(2);
    assert_eq!(fine["reais"], expected.to_string(), "{fine}");
    assert_eq!(issued.body["situacao"], "lavrado");
    assert_eq!(issued.body["fiscal"], "fiscal");
    let steps = format!("{SMJ}/autos/2026/1/steps");
    app.clock.to_day("2026-12-03");
    let notified = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "notificar", "data": "2026-12-02" }),
        )
        .await;
    ok(&notified, StatusCode::OK, "notify");
    let defense_by = notified.text("defesa_ate");
    let early = app
        .post(
            &steps,
            &team.board,
            json!({ "passo": "julgar", "mantido": true, "fundamentos": "x", "data": "2026-12-03" }),
        )
        .await;
    ok(&early, StatusCode::UNPROCESSABLE_ENTITY, "judged too early");
    let by_clerk = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "julgar", "mantido": true, "data": defense_by }),
        )
        .await;
    ok(&by_clerk, StatusCode::FORBIDDEN, "clerks do not judge");
    app.clock.to_day(&defense_by);
    ok(
        &app.post(
            &steps,
            &team.clerk,
            json!({ "passo": "defender", "texto": "Estava limpo", "data": defense_by }),
        )
        .await,
        StatusCode::OK,
        "defense",
    );
    // The impediment of the vehicle is "up to 60 days" (art. 52, IV, a):
    // the board fixes the days, and a judgement that does not is refused.
    let unfixed = app
        .post(
            &steps,
            &team.board,
            json!({ "passo": "julgar", "mantido": true, "fundamentos": "Auto mantido", "data": defense_by }),
        )
        .await;
    ok(&unfixed, StatusCode::UNPROCESSABLE_ENTITY, "days not fixed");
    assert_eq!(unfixed.body["artigos"][0], "Art. 52, IV, a");
    let judged = app
        .post(
            &steps,
            &team.board,
            json!({ "passo": "julgar", "mantido": true, "dias": 20, "fundamentos": "Auto mantido", "data": defense_by }),
        )
        .await;
    ok(&judged, StatusCode::OK, "judgement");
    assert_eq!(judged.body["dias_decididos"], 20);
    // The appeal's time runs from the notice of the decision (art. 60).
    let noticed = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "notificar_decisao", "data": defense_by }),
        )
        .await;
    ok(&noticed, StatusCode::OK, "decision notified");
    let appeal_by = chrono::NaiveDate::parse_from_str(&noticed.text("recurso_ate"), "%Y-%m-%d")
        .expect("appeal deadline");
    let final_day = appeal_by.succ_opt().expect("day").to_string();
    app.clock.to_day(&final_day);
    let last = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "tornar_definitivo", "data": final_day }),
        )
        .await;
    ok(&last, StatusCode::OK, "final");
    assert_eq!(last.body["situacao"], "definitivo");
    let found = app.get(&format!("{SMJ}/autos/2026/1"), &team.reader).await;
    assert_eq!(found.body["situacao"], "definitivo");
    let of_ana = app
        .get(&format!("{SMJ}/autos?autuado={ANA}"), &team.reader)
        .await;
    assert_eq!(of_ana.body["itens"].as_array().map(Vec::len), Some(1));

    let debts = app
        .get(&format!("{SMJ}/debts?devedor={ANA}"), &team.reader)
        .await;
    ok(&debts, StatusCode::OK, "debts");
    assert_eq!(debts.body["itens"].as_array().map(Vec::len), Some(1));
    let seq = debts.body["itens"][0]["sequencia"]
        .as_i64()
        .unwrap_or_default();
    assert_eq!(debts.body["itens"][0]["quitado"], false);
    let debt = format!("{SMJ}/debts/2026/1/{seq}");
    let due = app
        .get(&format!("{debt}/due?data={final_day}"), &team.reader)
        .await;
    ok(&due, StatusCode::OK, "due");
    assert_eq!(due.body["parcela"], 1);
    // The slip: none before the department records its agreement and PIX
    // key; then the barcode, the line and the PIX of what is due that day.
    let no_slip = app
        .get(&format!("{debt}/guia?data={final_day}"), &team.reader)
        .await;
    ok(
        &no_slip,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no agreement yet",
    );
    assert!(
        no_slip.text("erro").contains("convênio"),
        "{:?}",
        no_slip.body
    );
    let bad_key = app
        .call(
            Method::PUT,
            &format!("{SMJ}/payment-settings"),
            Some(&team.admin),
            Some(
                json!({ "segmento": 1, "convenio": "0123", "identificador_valor": 6,
                         "chave_pix": "123", "beneficiario": "Prefeitura de SMJ",
                         "cidade": "Santa Maria" }),
            ),
        )
        .await;
    ok(&bad_key, StatusCode::UNPROCESSABLE_ENTITY, "bad PIX key");
    assert_eq!(bad_key.body["campo"], "chave_pix", "{:?}", bad_key.body);
    let settings = app
        .call(
            Method::PUT,
            &format!("{SMJ}/payment-settings"),
            Some(&team.admin),
            Some(
                json!({ "segmento": 1, "convenio": "0123", "identificador_valor": 8,
                         "chave_pix": "pagamentos@smj.es.gov.br",
                         "beneficiario": "Prefeitura de Santa Maria de Jetibá",
                         "cidade": "Santa Maria de Jetibá" }),
            ),
        )
        .await;
    ok(
        &settings,
        StatusCode::UNPROCESSABLE_ENTITY,
        "name too long for the PIX",
    );
    let settings = app
        .call(
            Method::PUT,
            &format!("{SMJ}/payment-settings"),
            Some(&team.admin),
            Some(
                json!({ "segmento": 1, "convenio": "0123", "identificador_valor": 8,
                         "chave_pix": "pagamentos@smj.es.gov.br",
                         "beneficiario": "Prefeitura de SMJ", "cidade": "Santa Maria" }),
            ),
        )
        .await;
    ok(&settings, StatusCode::OK, "settings");
    let slip = app
        .get(&format!("{debt}/guia?data={final_day}"), &team.reader)
        .await;
    ok(&slip, StatusCode::OK, "slip");
    let code = slip.text("codigo_barras");
    outorga_guia::check(&code).expect("barcode check digits (módulo 11)");
    assert_eq!(
        outorga_guia::check_line(&slip.text("linha_digitavel")).expect("line"),
        code
    );
    let pix = slip.text("pix");
    let (payload, crc) = pix.split_at(pix.len() - 4);
    assert_eq!(outorga_guia::crc16(payload), crc);
    assert_eq!(slip.text("vencimento"), final_day);
    let less = app
        .post(
            &format!("{debt}/payments"),
            &team.clerk,
            json!({ "data": final_day, "meio": "pix", "valor": "0,01" }),
        )
        .await;
    ok(&less, StatusCode::UNPROCESSABLE_ENTITY, "less than due");
    assert_eq!(less.body["campo"], "valor");
    let paid = app
        .post(
            &format!("{debt}/payments"),
            &team.clerk,
            json!({ "data": final_day, "meio": "pix", "valor": slip.text("valor") }),
        )
        .await;
    ok(&paid, StatusCode::CREATED, "payment");
    let debts = app
        .get(&format!("{SMJ}/debts?devedor={ANA}"), &team.reader)
        .await;
    assert_eq!(debts.body["itens"][0]["quitado"], true);
    assert_eq!(
        debts.body["itens"][0]["pagamentos"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );

    // The agenda: the next inspection, a year on.
    let agenda = app
        .get(
            &format!("{SMJ}/agenda?data=2027-11-20&dias=30"),
            &team.reader,
        )
        .await;
    ok(&agenda, StatusCode::OK, "agenda");
    let items = agenda.body["itens"].as_array().cloned().unwrap_or_default();
    assert!(
        items.iter().any(|i| i["tipo"] == "vistoria"
            && i["vence_em"] == "2027-11-30"
            && i["assunto"] == "veiculo:MTX1A22"),
        "{items:?}"
    );

    // The credential renewed (a year, art. 22, § 1º): a new document.
    let renewed = app
        .post(
            &format!("{drivers}/{registration}/renewal?data=2026-11-30"),
            &team.clerk,
            json!(null),
        )
        .await;
    ok(&renewed, StatusCode::CREATED, "renewal");
    assert!(
        renewed.body["artigos"]
            .to_string()
            .contains("Art. 22, § 1º"),
        "{:?}",
        renewed.body
    );

    // The driver leaves: the public check says so.
    let removed = app
        .call(
            Method::DELETE,
            &format!("{drivers}/{registration}?data=2026-11-30"),
            Some(&team.clerk),
            None,
        )
        .await;
    ok(&removed, StatusCode::OK, "driver removed");
    let driver = app
        .call(
            Method::GET,
            &format!("{PUBLIC}/drivers/{registration}"),
            None,
            None,
        )
        .await;
    assert_eq!(driver.body["valido"], false);
}

on_both_backends!(workflow);

/// 20 autos posted at once are numbered 1 to 20; 8 grants posted at once
/// for the 4 free places of a town of 4 000 never pass the cap.
async fn concurrency(app: &App) {
    let mut people = vec![ANA];
    people.extend(MANY);
    let team = prepare(app, &people).await;
    let mut tasks = Vec::new();
    for _ in 0..20 {
        tasks.push(tokio::spawn(post_on(
            app.router.clone(),
            format!("{SMJ}/autos"),
            team.inspector.clone(),
            json!({
                "infracao": "51-I-a", "autuado": ANA,
                "regulamento": "santa-maria-de-jetiba/taxi",
                "cometida_em": "2026-11-28T14:30", "local": "Praça Central",
                "descricao": "Condutor fumando no interior do veículo"
            }),
        )));
    }
    let mut numbers = Vec::new();
    for task in tasks {
        let answer = task.await.expect("task");
        ok(&answer, StatusCode::CREATED, "concurrent auto");
        numbers.push(answer.body["numero"].as_i64().unwrap_or_default());
    }
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=20).collect::<Vec<i64>>());

    let population = app
        .call(
            Method::PUT,
            &format!("{SMJ}/parameters/population"),
            Some(&team.admin),
            Some(json!({ "valor": "4000", "desde": "2024-08-01", "ato": "Decreto de teste" })),
        )
        .await;
    ok(&population, StatusCode::OK, "population");
    let mut tasks = Vec::new();
    for doc in MANY {
        tasks.push(tokio::spawn(post_on(
            app.router.clone(),
            format!("{SMJ}/permits"),
            team.clerk.clone(),
            grant(doc, None),
        )));
    }
    let mut granted = 0;
    for task in tasks {
        let answer = task.await.expect("task");
        match answer.status {
            StatusCode::CREATED => granted += 1,
            StatusCode::UNPROCESSABLE_ENTITY => {
                assert!(answer.body["artigos"].is_array(), "{:?}", answer.body);
            }
            other => panic!("unexpected {other}: {:?}", answer.body),
        }
    }
    assert_eq!(granted, 4);
    let permits = app.get(&format!("{SMJ}/permits"), &team.reader).await;
    assert_eq!(permits.body["itens"].as_array().map(Vec::len), Some(4));
}

mod concurrency {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        let app = crate::common::App::sqlite().await;
        super::concurrency(&app).await;
        app.finish().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        let app = crate::common::App::postgres("concurrency").await;
        super::concurrency(&app).await;
        app.finish().await;
    }
}

/// "Today" is the jurisdiction's: at 01:00 UTC on 2 December it is still
/// 1 December in Santa Maria de Jetibá (America/Sao_Paulo, UTC−3), so an
/// auto issued then is dated the 1st and a step without a date is taken on
/// the 1st; the day after, at 09:00 local, it is the 2nd.
async fn local_time(app: &App) {
    let team = prepare(app, &[ANA]).await;
    app.clock.to_day("2026-12-01");
    app.clock.advance(16); // 2026-12-02T01:00 UTC = 2026-12-01T22:00 in Brasília
    let issued = app
        .post(
            &format!("{SMJ}/autos"),
            &team.inspector,
            json!({
                "infracao": "51-I-a", "autuado": ANA, "regulamento": "santa-maria-de-jetiba/taxi",
                "cometida_em": "2026-12-01T21:40", "local": "Centro",
                "descricao": "Condutor fumando no interior do veículo"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "auto at night");
    let number = issued.body["numero"].as_i64().expect("number");
    let steps = format!("{SMJ}/autos/2026/{number}/steps");
    let notified = app
        .post(&steps, &team.clerk, json!({ "passo": "notificar" }))
        .await;
    ok(&notified, StatusCode::OK, "notified tonight");
    assert_eq!(notified.body["notificado_em"], "2026-12-01");
    // Tomorrow morning, local time: the 2nd.
    app.clock.advance(11);
    let tomorrow = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "defender", "texto": "não fumava" }),
        )
        .await;
    ok(&tomorrow, StatusCode::OK, "defense the next morning");
    assert_eq!(tomorrow.body["defesa_em"], "2026-12-02");
}

mod local_time {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        let app = crate::common::App::sqlite().await;
        super::local_time(&app).await;
        app.finish().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        let app = crate::common::App::postgres("local_time").await;
        super::local_time(&app).await;
        app.finish().await;
    }
}
