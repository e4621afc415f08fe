//! What users read is Portuguese, on both backends: the wire values of each
//! vocabulary (a driver's role, an inspection's kind, the steps and statuses
//! of an auto, penalties, documents, the agenda), read loosely and as the
//! code spells them, refused with the Portuguese spellings; the catalogs of
//! the law (infractions, requirements, what a vehicle must have, parameters
//! and units); and the steps an auto admits today.

use crate::common::{Answer, App};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
const CANGUCU: &str = "/api/jurisdictions/cangucu";
const TO: &str = "/api/jurisdictions/teofilo-otoni";
const ANA: &str = "52601815906";
const DANI: &str = "99603082430";

fn ok(answer: &Answer, status: StatusCode, what: &str) {
    assert_eq!(answer.status, status, "{what}: {:?}", answer.body);
}

fn refused(answer: &Answer, campo: &str, says: &str) {
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        answer.body
    );
    assert_eq!(answer.body["campo"], campo, "{:?}", answer.body);
    assert!(answer.text("motivo").contains(says), "{:?}", answer.body);
}

fn items<'a>(value: &'a Value, key: &str) -> Vec<&'a Value> {
    value[key]
        .as_array()
        .map(|list| list.iter().collect())
        .unwrap_or_default()
}

fn find<'a>(list: &[&'a Value], key: &str, value: &str) -> &'a Value {
    list.iter()
        .find(|item| item[key] == value)
        .unwrap_or_else(|| panic!("no {key} = {value} in {list:?}"))
}

/// A profile that meets every recorded requirement of Santa Maria de
/// Jetibá's law (and Canguçu's, but for what it leaves to be checked).
fn fit() -> Value {
    json!({
        "nascimento": "1980-05-01",
        "residente_desde": "2010-01-01",
        "condenacao_definitiva": false,
        "escolaridade": "Médio",
        "cnh": {
            "numero": "02650306461",
            "categorias": ["B"],
            "atividade_remunerada": true,
            "primeira_habilitacao": "2000-01-01",
            "validade": "2030-01-01"
        }
    })
}

struct Team {
    admin: String,
    clerk: String,
    inspector: String,
    reader: String,
}

async fn team(app: &App) -> Team {
    Team {
        admin: app.with_token("admin", Role::Admin, Scope::All).await,
        clerk: app.with_token("clerk", Role::Clerk, Scope::All).await,
        inspector: app.with_token("fiscal", Role::Inspector, Scope::All).await,
        reader: app.with_token("consulta", Role::ReadOnly, Scope::All).await,
    }
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
    // Written loosely, kept and answered as the vocabulary spells it.
    assert_eq!(profile.body["escolaridade"], "medio");
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

/// The wire speaks Portuguese: values answered, values read (loosely, and
/// as clients written before sent them), refusals listing the spellings.
async fn wire_values(app: &App) {
    let team = team(app).await;
    population(app, &team, SMJ, "1600").await;
    for doc in [ANA, DANI] {
        person(app, &team, SMJ, doc).await;
    }
    let granted = app
        .post(
            &format!("{SMJ}/permits"),
            &team.clerk,
            json!({ "servico": "taxi", "titular": ANA, "cota": "Condutores com deficiência" }),
        )
        .await;
    ok(
        &granted,
        StatusCode::CREATED,
        "grant under the reserved share",
    );
    refused(
        &app.post(
            &format!("{SMJ}/permits"),
            &team.clerk,
            json!({ "servico": "taxi", "titular": DANI, "cota": "idosos" }),
        )
        .await,
        "cota",
        "`idosos`: use condutores_com_deficiencia",
    );
    assert_eq!(granted.body["permissao"]["situacao"], "em_vigor");
    assert_eq!(granted.body["permissao"]["situacao_nome"], "em vigor");
    assert_eq!(
        granted.body["permissao"]["cota"],
        "condutores_com_deficiencia"
    );
    let listed = app
        .get(&format!("{SMJ}/permits?situacao=em_vigor"), &team.reader)
        .await;
    assert_eq!(items(&listed.body, "itens").len(), 1);
    refused(
        &app.get(&format!("{SMJ}/permits?situacao=granted_x"), &team.reader)
            .await,
        "situacao",
        "em_vigor, suspensa, em_reserva, renunciada, revogada ou extinta",
    );

    // A driver's role: refused with the Portuguese spellings; the code's
    // spelling still read, answered in Portuguese.
    let drivers = format!("{SMJ}/permits/taxi/1/drivers");
    refused(
        &app.post(
            &drivers,
            &team.clerk,
            json!({ "condutor": DANI, "funcao": "motorista" }),
        )
        .await,
        "funcao",
        "auxiliar, colaborador ou preposto",
    );
    refused(
        &app.post(
            &drivers,
            &team.clerk,
            json!({ "condutor": DANI, "funcao": "auxiliar", "excecao": "férias" }),
        )
        .await,
        "excecao",
        "a lei só dispensa do limite por pedido_demissao, falecimento ou forca_maior",
    );
    let added = app
        .post(
            &drivers,
            &team.clerk,
            json!({ "condutor": DANI, "funcao": "auxiliary" }),
        )
        .await;
    ok(&added, StatusCode::CREATED, "driver");
    assert_eq!(added.body["condutor"]["funcao"], "auxiliar");
    assert_eq!(added.body["documento"]["tipo"], "matricula_condutor");
    let registration = added.body["condutor"]["matricula"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(
        added.body["documento"]["assunto"],
        format!("condutor:{registration}")
    );
    let documents = app
        .get(
            &format!("{SMJ}/documents?tipo=matricula_condutor&assunto=condutor:{registration}"),
            &team.reader,
        )
        .await;
    assert_eq!(
        items(&documents.body, "itens").len(),
        1,
        "{:?}",
        documents.body
    );
    refused(
        &app.get(&format!("{SMJ}/documents?tipo=alvara"), &team.reader)
            .await,
        "tipo",
        "autorizacao_trafego, matricula_condutor, termo_delegacao, selo_vistoria, auto_infracao, \
         notificacao_autuacao, notificacao_decisao, guia_recolhimento, autorizacao_fretamento \
         ou registro_cadastral",
    );
    let public = app
        .call(
            Method::GET,
            &format!("/api/public/jurisdictions/santa-maria-de-jetiba/drivers/{registration}"),
            None,
            None,
        )
        .await;
    assert_eq!(public.body["funcao"], "auxiliar");

    // An inspection's kind, written as a clerk writes it.
    let vehicle = json!({
        "placa": "MTX1A22", "renavam": "29485839707", "ano_fabricacao": 2022,
        "cor": "branca", "portas": 4, "lotacao": 4
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
            json!({ "placa": "MTX1A22" }),
        )
        .await,
        StatusCode::CREATED,
        "in service",
    );
    refused(
        &app.post(
            &format!("{SMJ}/vehicles/MTX1A22/inspections"),
            &team.inspector,
            json!({ "servico": "taxi", "tipo": "anual", "aprovada": true }),
        )
        .await,
        "tipo",
        "`anual`: use periodica",
    );
    let inspected = app
        .post(
            &format!("{SMJ}/vehicles/MTX1A22/inspections"),
            &team.inspector,
            json!({ "servico": "taxi", "tipo": "Periódica", "aprovada": true }),
        )
        .await;
    ok(&inspected, StatusCode::CREATED, "inspection");
    assert_eq!(inspected.body["tipo"], "periodica");
    assert_eq!(inspected.body["selo"]["tipo"], "selo_vistoria");

    // An auto: its penalties, statuses and steps.
    let issued = app
        .post(
            &format!("{SMJ}/autos"),
            &team.inspector,
            json!({
                "infracao": "51-I-a", "autuado": ANA,
                "permissao": { "servico": "taxi", "numero": 1 },
                "cometida_em": "2026-11-28T10:00", "local": "Centro",
                "descricao": "Condutor fumando no interior do veículo"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "auto");
    assert_eq!(issued.body["situacao"], "lavrado");
    let penalties = [
        "advertencia",
        "notificacao_irregularidade",
        "multa",
        "suspensao",
        "suspensao_permissao",
        "impedimento_veiculo",
        "cassacao_condutor",
        "cassacao_permissao",
        "inabilitacao",
        "apreensao_veiculo",
        "retencao_veiculo",
        "apreensao_documento",
        "processo_administrativo",
        "inidoneidade",
    ];
    let proposed = items(&issued.body["proposta"], "sancoes");
    assert!(!proposed.is_empty());
    for sanction in proposed {
        let kind = sanction["tipo"].as_str().unwrap_or_default();
        assert!(penalties.contains(&kind), "{kind}");
    }
    let steps = format!("{SMJ}/autos/2026/1/steps");
    refused(
        &app.post(&steps, &team.clerk, json!({ "passo": "notifyy" }))
            .await,
        "passo",
        "notificar, defender, julgar",
    );
    let misplaced = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "notificar", "deposito": false }),
        )
        .await;
    refused(&misplaced, "deposito", "não de `notificar`");
    let misplaced = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "notificar", "autoridade": "prefeito" }),
        )
        .await;
    refused(&misplaced, "autoridade", "não de `notificar`");
    let notified = app
        .post(&steps, &team.clerk, json!({ "passo": "Notificar" }))
        .await;
    ok(&notified, StatusCode::OK, "notify");
    assert_eq!(notified.body["situacao"], "notificado");
    let by_status = app
        .get(&format!("{SMJ}/autos?situacao=notificado"), &team.reader)
        .await;
    assert_eq!(items(&by_status.body, "itens").len(), 1);

    // The agenda: the defense's limit, on the auto, in Portuguese.
    let agenda = app
        .get(&format!("{SMJ}/agenda?dias=60"), &team.reader)
        .await;
    ok(&agenda, StatusCode::OK, "agenda");
    let due = items(&agenda.body, "itens");
    let defense = find(&due, "tipo", "defesa");
    assert_eq!(defense["assunto"], "auto:2026:1");
    let kinds = [
        "vencimento_permissao",
        "vencimento_documento",
        "vistoria",
        "substituicao_veiculo",
        "notificacao",
        "saneamento",
        "defesa",
        "notificacao_decisao",
        "recurso",
        "limite_pontos",
        "fim_penalidade",
        "fim_reserva",
        "correcao_caducidade",
        "debito",
    ];
    for item in &due {
        let kind = item["tipo"].as_str().unwrap_or_default();
        assert!(kinds.contains(&kind), "{item:?}");
        let subject = item["assunto"].as_str().unwrap_or_default();
        assert!(
            [
                "permissao:",
                "veiculo:",
                "auto:",
                "condutor:",
                "pessoa:",
                "debito:"
            ]
            .iter()
            .any(|p| subject.starts_with(p)),
            "{item:?}"
        );
    }

    // The history of the permit.
    let permit = app
        .get(&format!("{SMJ}/permits/taxi/1"), &team.reader)
        .await;
    assert_eq!(permit.body["historico"][0]["evento"], "outorga");
    assert_eq!(permit.body["historico"][0]["situacao"], "em_vigor");
}

on_both_backends!(wire_values);

/// The catalogs: what a client needs of the law without its files.
async fn catalogs(app: &App) {
    let team = team(app).await;

    // Infractions, with group, points and article.
    let infractions = app
        .get(&format!("{SMJ}/catalog/infractions"), &team.reader)
        .await;
    ok(&infractions, StatusCode::OK, "infractions");
    let books = items(&infractions.body, "regulamentos");
    assert_eq!(books.len(), 1);
    assert_eq!(books[0]["regulamento"], "santa-maria-de-jetiba/taxi");
    assert_eq!(books[0]["servicos"], json!(["taxi"]));
    let group = find(&items(books[0], "grupos"), "id", "3");
    assert_eq!(group["nome"], "Grupo 3");
    assert_eq!(group["pontos"], "4");
    assert_eq!(group["multa"]["unidade"], "VRTM");
    let dirty = find(&items(books[0], "infracoes"), "codigo", "51-III-a");
    assert_eq!(dirty["grupo"], "3");
    assert_eq!(dirty["grupo_nome"], "Grupo 3");
    assert_eq!(dirty["pontos"], "4");
    assert_eq!(dirty["pontos_artigo"], "Art. 49, III");
    assert!(
        dirty["artigo"]
            .as_str()
            .is_some_and(|a| a.starts_with("Art. 51"))
    );
    assert!(!dirty["descricao"].as_str().unwrap_or_default().is_empty());
    // Teófilo Otoni applies two rulebooks; one service asks for one.
    let both = app
        .get(&format!("{TO}/catalog/infractions"), &team.reader)
        .await;
    assert_eq!(items(&both.body, "regulamentos").len(), 2);
    let one = app
        .get(
            &format!("{TO}/catalog/infractions?servico=motofrete"),
            &team.reader,
        )
        .await;
    let books = items(&one.body, "regulamentos");
    assert_eq!(books.len(), 1);
    assert_eq!(books[0]["regulamento"], "teofilo-otoni/motofrete");
    refused(
        &app.get(
            &format!("{TO}/catalog/infractions?servico=taxi"),
            &team.reader,
        )
        .await,
        "servico",
        "não é serviço regulado",
    );

    // Requirements, with who they apply to and the article.
    let requirements = app
        .get(&format!("{SMJ}/catalog/requirements"), &team.reader)
        .await;
    ok(&requirements, StatusCode::OK, "requirements");
    let books = items(&requirements.body, "regulamentos");
    let category = find(&items(books[0], "requisitos"), "id", "license_category");
    assert_eq!(
        category["descricao"],
        "CNH categoria B com atividade remunerada, C, D ou E"
    );
    assert_eq!(category["artigo"], "Art. 11, I, b");
    assert_eq!(category["requerentes"], json!(["titular", "condutor"]));
    let one = find(&items(books[0], "requisitos"), "id", "one_permit");
    assert_eq!(one["requerentes"], json!(["titular"]));
    assert_eq!(one["ver_tambem"], json!(["Art. 2º, § 2º"]));

    // What a vehicle must have: equipment by the names the register takes.
    let vehicles = app
        .get(
            &format!("{TO}/catalog/vehicles?servico=motofrete"),
            &team.reader,
        )
        .await;
    ok(&vehicles, StatusCode::OK, "vehicles");
    let book = items(&vehicles.body, "regulamentos")[0];
    let equipment = items(book, "equipamentos");
    let mirrors = find(&equipment, "equipamento", "retrovisores");
    assert_eq!(mirrors["nome"], "Retrovisores dos dois lados");
    assert_eq!(mirrors["requisito"], "equipment");
    assert_eq!(mirrors["artigo"], "Art. 47, V");
    assert_eq!(mirrors["alternativo"], false);
    let bags = find(&equipment, "equipamento", "bolsas_laterais");
    assert_eq!(bags["alternativo"], true);
    for item in &equipment {
        let name = item["equipamento"].as_str().unwrap_or_default();
        assert!(
            !["mirrors", "side_bags", "top_box", "line_cutter"].contains(&name),
            "{name}"
        );
    }
    let periodic = find(&items(book, "vistorias"), "tipo", "periodica");
    assert!(
        periodic["artigo"]
            .as_str()
            .is_some_and(|a| a.starts_with("Art."))
    );
    let taxi = app
        .get(&format!("{CANGUCU}/catalog/vehicles"), &team.reader)
        .await;
    let book = items(&taxi.body, "regulamentos")[0];
    assert_eq!(
        find(&items(book, "equipamentos"), "equipamento", "taximetro")["nome"],
        "Taxímetro"
    );
    let inspections = items(book, "vistorias");
    let nbr = find(&inspections, "tipo", "nbr_14040");
    assert_eq!(nbr["a_cada_meses"], "24");
    assert_eq!(nbr["artigo"], "Art. 11, VIII");
    assert_eq!(
        find(&inspections, "tipo", "adaptacao")["artigo"],
        "Art. 14, § 4º"
    );

    // Parameters, with meaning, unit and the value in force: the law's,
    // then the deployment's.
    let parameters = format!("{SMJ}/catalog/parameters?data=2026-11-30");
    let before = app.get(&parameters, &team.reader).await;
    ok(&before, StatusCode::OK, "parameters");
    assert_eq!(before.body["data"], "2026-11-30");
    let book = items(&before.body, "regulamentos")[0];
    let people = find(&items(book, "parametros"), "nome", "population");
    assert_eq!(people["unidade"], "habitantes");
    assert_eq!(people["valor"], "41636");
    assert_eq!(people["valor_da_lei"], "41636");
    assert_eq!(people["fonte"], "IBGE, Censo Demográfico 2022");
    assert_eq!(people["definido_na_implantacao"], false);
    assert!(
        people["descricao"]
            .as_str()
            .unwrap_or_default()
            .contains("IBGE")
    );
    let window = find(&items(book, "parametros"), "nome", "repeat_window_months");
    assert_eq!(window["unidade"], "meses");
    assert_eq!(window["padrao_de_decreto"], true);
    let vrtm = find(&items(book, "unidades"), "codigo", "VRTM");
    assert_eq!(vrtm["nome"], "Valor de Referência do Tesouro Municipal");
    assert_eq!(vrtm["reais"], Value::Null);
    population(app, &team, SMJ, "1600").await;
    let after = app.get(&parameters, &team.reader).await;
    let book = items(&after.body, "regulamentos")[0];
    let people = find(&items(book, "parametros"), "nome", "population");
    assert_eq!(people["valor"], "1600");
    assert_eq!(people["valor_da_lei"], "41636");
    assert_eq!(people["definido_na_implantacao"], true);
    // Canguçu's law leaves the population to the deployment.
    let cangucu = format!("{CANGUCU}/catalog/parameters");
    let book = &app.get(&cangucu, &team.reader).await.body["regulamentos"][0];
    let people = find(&items(book, "parametros"), "nome", "population");
    assert_eq!(people["valor"], Value::Null);
    assert_eq!(people["artigo"], "Art. 3º, § 2º");
    let cure = find(&items(book, "parametros"), "nome", "cure_days");
    assert_eq!(
        (&cure["valor"], &cure["unidade"]),
        (&json!("15"), &json!("dias"))
    );
    population(app, &team, CANGUCU, "56000").await;
    let book = &app.get(&cangucu, &team.reader).await.body["regulamentos"][0];
    let people = find(&items(book, "parametros"), "nome", "population");
    assert_eq!(people["valor"], "56000");
    // Teófilo Otoni's unit has a value from the law.
    let to = app
        .get(
            &format!("{TO}/catalog/parameters?servico=mototaxi"),
            &team.reader,
        )
        .await;
    let book = &to.body["regulamentos"][0];
    let upfto = find(&items(book, "unidades"), "codigo", "UPFTO");
    assert_eq!(upfto["reais"], "1.7978");
    assert_eq!(upfto["desde"], "2011-02-09");
}

on_both_backends!(catalogs);

/// The equipment a clerk types as they write it satisfies the law's item:
/// Canguçu's taxi must have a taximeter (art. 11, I).
async fn equipment_by_name(app: &App) {
    let team = team(app).await;
    population(app, &team, CANGUCU, "56000").await;
    person(app, &team, CANGUCU, ANA).await;
    let granted = app
        .post(
            &format!("{CANGUCU}/permits"),
            &team.clerk,
            json!({ "servico": "taxi", "titular": ANA }),
        )
        .await;
    ok(&granted, StatusCode::CREATED, "grant");
    let number = granted.body["permissao"]["numero"]
        .as_i64()
        .expect("number");
    let register = |plate: &str, equipment: Value| {
        json!({
            "placa": plate, "renavam": "29485839707", "ano_fabricacao": 2024,
            "cor": "branca", "portas": 4, "lotacao": 5, "equipamentos": equipment
        })
    };
    let fitted = app
        .post(
            &format!("{CANGUCU}/vehicles"),
            &team.clerk,
            register(
                "IAB1234",
                json!(["Taxímetro", "Caixa acrilico", "selo vistoria", "luminoso"]),
            ),
        )
        .await;
    ok(&fitted, StatusCode::CREATED, "vehicle");
    assert_eq!(
        fitted.body["equipamentos"],
        json!(["taximetro", "caixa_acrilico", "selo_vistoria", "luminoso"])
    );
    let bare = app
        .post(
            &format!("{CANGUCU}/vehicles"),
            &team.clerk,
            json!({
                "placa": "IAB4321", "renavam": "83430942209", "ano_fabricacao": 2024,
                "cor": "branca", "portas": 4, "lotacao": 5, "equipamentos": ["luminoso"]
            }),
        )
        .await;
    ok(&bare, StatusCode::CREATED, "vehicle without a taximeter");
    let in_service = format!("{CANGUCU}/permits/taxi/{number}/vehicle");
    let without = app
        .post(&in_service, &team.clerk, json!({ "placa": "IAB4321" }))
        .await;
    assert_eq!(
        without.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        without.body
    );
    assert!(
        without.body["artigos"].to_string().contains("Art. 11, I\""),
        "{:?}",
        without.body
    );
    let with = app
        .post(&in_service, &team.clerk, json!({ "placa": "IAB1234" }))
        .await;
    ok(
        &with,
        StatusCode::CREATED,
        "a vehicle with the law's equipment",
    );
    let pending: Vec<&Value> = items(&with.body, "a_verificar")
        .into_iter()
        .map(|t| &t["requisito"])
        .collect();
    for met in ["taximeter", "roof_sign", "inspection_seal"] {
        assert!(!pending.contains(&&json!(met)), "{pending:?}");
    }
}

on_both_backends!(equipment_by_name);

/// The steps an auto admits today, as the law's machine says, with who
/// takes them, why the others do not fit and the limits that run.
async fn allowed_steps(app: &App) {
    let team = team(app).await;
    person(app, &team, SMJ, ANA).await;
    let issued = app
        .post(
            &format!("{SMJ}/autos"),
            &team.inspector,
            json!({
                "infracao": "51-I-a", "autuado": ANA,
                "regulamento": "santa-maria-de-jetiba/taxi",
                "cometida_em": "2026-11-28T10:00", "local": "Centro",
                "descricao": "Condutor fumando no interior do veículo"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "auto");
    let steps = format!("{SMJ}/autos/2026/1/steps");
    let now = app.get(&steps, &team.reader).await;
    ok(&now, StatusCode::OK, "steps allowed");
    assert_eq!(now.body["data"], "2026-11-30");
    assert_eq!(now.body["situacao"], "lavrado");
    assert_eq!(now.body["situacao_nome"], "lavrado, aguardando notificação");
    let passos = items(&now.body, "passos");
    assert_eq!(passos.len(), 12, "every step, allowed or not");
    let allowed: Vec<&str> = passos
        .iter()
        .filter(|p| p["permitido"] == true)
        .filter_map(|p| p["passo"].as_str())
        .collect();
    assert_eq!(allowed, ["notificar"]);
    let notify = find(&passos, "passo", "notificar");
    assert_eq!(notify["nome"], "notificação do auto");
    assert_eq!(notify["papel"], "atendente");
    assert_eq!(notify["motivo"], Value::Null);
    let archive = find(&passos, "passo", "arquivar");
    assert_eq!(archive["permitido"], false);
    assert!(
        archive["motivo"]
            .as_str()
            .is_some_and(|m| m.contains("ainda é possível notificar até 2027-01-29")),
        "{archive:?}"
    );
    assert_eq!(archive["artigos"], json!(["Art. 39, § 1º"]));
    let judge = find(&passos, "passo", "julgar");
    assert_eq!(judge["papel"], "junta/comissão");
    assert_eq!(judge["permitido"], false);
    assert!(!judge["artigos"].as_array().is_none_or(Vec::is_empty));
    let limits = items(&now.body, "prazos");
    let notification = find(&limits, "tipo", "notificacao");
    assert_eq!(notification["vence_em"], "2027-01-29");
    assert_eq!(notification["artigo"], "Art. 39, § 1º");
    // What the machine allows, the store takes.
    ok(
        &app.post(&steps, &team.clerk, json!({ "passo": "notificar" }))
            .await,
        StatusCode::OK,
        "notify",
    );
    let notified = app.get(&steps, &team.reader).await;
    assert_eq!(notified.body["situacao"], "notificado");
    let passos = items(&notified.body, "passos");
    let allowed: Vec<&str> = passos
        .iter()
        .filter(|p| p["permitido"] == true)
        .filter_map(|p| p["passo"].as_str())
        .collect();
    assert_eq!(allowed, ["defender"]);
    let judge = find(&passos, "passo", "julgar");
    assert!(
        judge["motivo"]
            .as_str()
            .is_some_and(|m| m.contains("o prazo de defesa corre até")),
        "{judge:?}"
    );
    let defense = find(&items(&notified.body, "prazos"), "tipo", "defesa");
    assert_eq!(defense["artigo"], "Art. 56");
    // Once the defense's time has run, judging is allowed (the board's).
    let by = defense["vence_em"].as_str().expect("a day").to_string();
    let after = chrono::NaiveDate::parse_from_str(&by, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.succ_opt())
        .expect("the day after");
    app.clock.to_day(&after.to_string());
    let later = app.get(&steps, &team.reader).await;
    let allowed: Vec<&str> = items(&later.body, "passos")
        .iter()
        .filter(|p| p["permitido"] == true)
        .filter_map(|p| p["passo"].as_str())
        .collect();
    assert_eq!(allowed, ["julgar", "tornar_definitivo"]);
    assert_eq!(
        find(&items(&later.body, "passos"), "passo", "julgar")["autoridade"],
        Value::Null
    );
    // A cassation is the Chefe do Poder Executivo's to decide (art. 8º,
    // § 2º): the judgement is allowed, naming that authority.
    let cassation = app
        .post(
            &format!("{SMJ}/autos"),
            &team.inspector,
            json!({
                "infracao": "13", "autuado": ANA,
                "regulamento": "santa-maria-de-jetiba/taxi",
                "cometida_em": format!("{after}T05:00"), "local": "Centro",
                "descricao": "Veículo não substituído no prazo"
            }),
        )
        .await;
    ok(&cassation, StatusCode::CREATED, "auto of a cassation");
    let (year, number) = (&cassation.body["ano"], &cassation.body["numero"]);
    let steps = format!("{SMJ}/autos/{year}/{number}/steps");
    ok(
        &app.post(&steps, &team.clerk, json!({ "passo": "notificar" }))
            .await,
        StatusCode::OK,
        "notify the cassation",
    );
    let defense = app.get(&steps, &team.reader).await;
    let by = find(&items(&defense.body, "prazos"), "tipo", "defesa")["vence_em"]
        .as_str()
        .expect("a day")
        .to_string();
    let after = chrono::NaiveDate::parse_from_str(&by, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.succ_opt())
        .expect("the day after");
    app.clock.to_day(&after.to_string());
    let judge = app.get(&steps, &team.reader).await;
    let judge = find(&items(&judge.body, "passos"), "passo", "julgar");
    assert_eq!(judge["permitido"], true, "{judge:?}");
    assert_eq!(judge["autoridade"], "prefeito");
    assert_eq!(
        judge["autoridade_nome"],
        "Chefe do Poder Executivo Municipal"
    );
    // An auto that is not there.
    let missing = app
        .get(&format!("{SMJ}/autos/2026/99/steps"), &team.reader)
        .await;
    ok(&missing, StatusCode::NOT_FOUND, "no such auto");
}

on_both_backends!(allowed_steps);

/// Canguçu's grounds for not admitting a defense (Anexo I art. 24), in
/// Portuguese: refused with the law's list, taken as the law names them.
async fn not_admitted(app: &App) {
    let team = team(app).await;
    let board = app.with_token("junta", Role::Board, Scope::All).await;
    person(app, &team, CANGUCU, ANA).await;
    let issued = app
        .post(
            &format!("{CANGUCU}/autos"),
            &team.inspector,
            json!({
                "infracao": "A18-I", "autuado": ANA, "regulamento": "cangucu/taxi",
                "cometida_em": "2026-11-28T10:00", "local": "Centro",
                "descricao": "Objeto esquecido não entregue"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "auto");
    let (year, number) = (&issued.body["ano"], &issued.body["numero"]);
    let steps = format!("{CANGUCU}/autos/{year}/{number}/steps");
    for step in [
        json!({ "passo": "notificar" }),
        json!({ "passo": "defender", "texto": "Não fui eu" }),
    ] {
        ok(
            &app.post(&steps, &team.clerk, step).await,
            StatusCode::OK,
            "notify and defend",
        );
    }
    let judged = |ground: &str| json!({ "passo": "julgar", "nao_conhecido": ground, "fundamentos": "Defesa sem assinatura" });
    refused(
        &app.post(&steps, &board, judged("atrasada")).await,
        "nao_conhecido",
        "`atrasada`: use intempestiva (Apresentada fora do prazo legal), ilegitimidade",
    );
    let judged = app.post(&steps, &board, judged("Sem assinatura")).await;
    ok(&judged, StatusCode::OK, "not admitted");
    assert_eq!(judged.body["situacao"], "julgado");
    // An inspection of a kind Canguçu's law does not know.
    refused(
        &app.post(
            &format!("{CANGUCU}/vehicles/IAB1234/inspections"),
            &team.inspector,
            json!({ "servico": "taxi", "tipo": "anual", "aprovada": true }),
        )
        .await,
        "tipo",
        "`anual`: use periodica, nbr_14040 ou adaptacao",
    );
}

on_both_backends!(not_admitted);

/// Canguçu's notice of irregularity through the API: the notice sets its
/// time to cure (Anexo I art. 7º, § 1º); the verification inspection is
/// told at least 24 hours before it (art. 7º, § 2º) and only then is the
/// irregularity found not cured.
async fn verification_told_in_time(app: &App) {
    let team = team(app).await;
    person(app, &team, CANGUCU, ANA).await;
    app.clock.to_day("2026-11-30");
    let issued = app
        .post(
            &format!("{CANGUCU}/autos"),
            &team.inspector,
            json!({
                "infracao": "A16-I", "autuado": ANA, "regulamento": "cangucu/taxi",
                "cometida_em": "2026-11-30T05:00", "local": "Centro",
                "descricao": "Veículo sujo"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "notice of irregularity");
    let (year, number) = (&issued.body["ano"], &issued.body["numero"]);
    let steps = format!("{CANGUCU}/autos/{year}/{number}/steps");
    refused(
        &app.post(
            &steps,
            &team.clerk,
            json!({ "passo": "defender", "prazo_sanar": 10 }),
        )
        .await,
        "prazo_sanar",
        "é da notificação da irregularidade",
    );
    refused(
        &app.post(
            &steps,
            &team.clerk,
            json!({ "passo": "defender", "recorrente_cientificado": true }),
        )
        .await,
        "recorrente_cientificado",
        "é da decisão do recurso",
    );
    let notified = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "notificar", "data": "2026-11-30", "prazo_sanar": 10 }),
        )
        .await;
    ok(&notified, StatusCode::OK, "notified, 10 days to cure");
    assert_eq!(notified.body["situacao"], "aguardando_saneamento");
    assert_eq!(notified.body["prazo_sanar_dias"], 10);
    assert_eq!(notified.body["sanar_ate"], "2026-12-10");
    app.clock.to_day("2026-12-11");
    let allowed = app.get(&steps, &team.reader).await;
    let schedule = find(
        &items(&allowed.body, "passos"),
        "passo",
        "comunicar_vistoria",
    );
    assert_eq!(schedule["permitido"], true, "{schedule:?}");
    let short = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "comunicar_vistoria",
                    "comunicado_em": "2026-12-11T09:00", "vistoria_em": "2026-12-12T08:30" }),
        )
        .await;
    assert_eq!(
        short.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        short.body
    );
    assert_eq!(short.body["artigos"], json!(["Anexo I, Art. 7º, § 2º"]));
    assert!(
        short
            .text("motivo")
            .contains("a partir de 2026-12-12 09:00"),
        "{:?}",
        short.body
    );
    let told = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "comunicar_vistoria",
                    "comunicado_em": "2026-12-11T09:00", "vistoria_em": "2026-12-14T10:00" }),
        )
        .await;
    ok(&told, StatusCode::OK, "verification told");
    assert_eq!(told.body["vistoria_em"], "2026-12-14T10:00");
    let early = app
        .post(
            &steps,
            &team.clerk,
            json!({ "passo": "nao_sanada", "data": "2026-12-11" }),
        )
        .await;
    assert_eq!(
        early.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        early.body
    );
    assert!(
        early
            .text("motivo")
            .contains("vistoria de verificação foi marcada para 2026-12-14 10:00")
    );
    app.clock.to_day("2026-12-14");
    let found = app
        .post(&steps, &team.clerk, json!({ "passo": "nao_sanada" }))
        .await;
    ok(&found, StatusCode::OK, "not cured at the verification");
    assert_eq!(found.body["situacao"], "lavrado");
}

on_both_backends!(verification_told_in_time);

/// Amapá art. 71: who hears the appeal that lies now — the CTC, against a
/// fine (§ 1º) — shown with the steps an auto admits.
async fn who_hears_the_appeal(app: &App) {
    const AMAPA: &str = "/api/jurisdictions/amapa";
    let team = team(app).await;
    let board = app.with_token("junta", Role::Board, Scope::All).await;
    person(app, &team, AMAPA, ANA).await;
    let issued = app
        .post(
            &format!("{AMAPA}/autos"),
            &team.inspector,
            json!({
                "infracao": "61-IV-b", "autuado": ANA,
                "regulamento": "amapa/onibus-intermunicipal",
                "cometida_em": "2026-11-30T05:00", "local": "Rodoviária",
                "descricao": "Dois bilhetes para a poltrona 12"
            }),
        )
        .await;
    ok(&issued, StatusCode::CREATED, "auto");
    let (year, number) = (&issued.body["ano"], &issued.body["numero"]);
    let steps = format!("{AMAPA}/autos/{year}/{number}/steps");
    let before = app.get(&steps, &team.reader).await;
    assert_eq!(before.body["recurso_para"], json!([]), "no appeal lies yet");
    for (day, who, step) in [
        ("2026-12-01", &team.clerk, json!({ "passo": "notificar" })),
        (
            "2026-12-03",
            &team.clerk,
            json!({ "passo": "defender", "texto": "Erro do sistema" }),
        ),
        (
            "2026-12-18",
            &board,
            json!({ "passo": "julgar", "mantido": true, "fundamentos": "Comprovado" }),
        ),
        (
            "2026-12-21",
            &team.clerk,
            json!({ "passo": "notificar_decisao" }),
        ),
    ] {
        app.clock.to_day(day);
        let taken = app.post(&steps, who, step.clone()).await;
        ok(&taken, StatusCode::OK, &step.to_string());
    }
    app.clock.to_day("2026-12-22");
    let now = app.get(&steps, &team.reader).await;
    assert_eq!(
        now.body["recurso_para"],
        json!([{ "orgao": "Comissão do Transporte Coletivo (CTC)", "contra": ["multa"], "artigo": "Art. 71, § 1º" }])
    );
}

on_both_backends!(who_hears_the_appeal);

/// What the engine and the cap answer reaches the API in Portuguese: a
/// parameter the law leaves to the deployment and it has not set, and the
/// reserved share named as users write it, not by the rulebook's key.
async fn engine_and_cap_refusals(app: &App) {
    let team = team(app).await;
    let board = app.with_token("junta", Role::Board, Scope::All).await;
    // Canguçu's law leaves the population to the deployment (art. 3º, § 2º).
    person(app, &team, CANGUCU, ANA).await;
    let unknown = app
        .post(
            &format!("{CANGUCU}/permits"),
            &team.clerk,
            json!({ "servico": "taxi", "titular": ANA }),
        )
        .await;
    ok(
        &unknown,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no population yet",
    );
    assert_eq!(
        unknown.text("erro"),
        "o regulamento não responde a este pedido: o parâmetro `population` não tem valor \
         em 2026-11-30: defina-o no regulamento ou nos parâmetros da implantação",
        "{:?}",
        unknown.body
    );
    // Santa Maria de Jetibá: 1 600 inhabitants, 2 places, 1 reserved.
    population(app, &team, SMJ, "1600").await;
    for doc in [ANA, DANI] {
        person(app, &team, SMJ, doc).await;
    }
    let under = |doc: &str| json!({ "servico": "taxi", "titular": doc, "cota": "condutores_com_deficiencia" });
    ok(
        &app.post(&format!("{SMJ}/permits"), &team.clerk, under(ANA))
            .await,
        StatusCode::CREATED,
        "the reserved place",
    );
    let full = app
        .post(&format!("{SMJ}/permits"), &team.clerk, under(DANI))
        .await;
    ok(&full, StatusCode::UNPROCESSABLE_ENTITY, "the share is full");
    assert_eq!(
        full.text("motivo"),
        "as vagas da reserva `condutores_com_deficiencia` (1) estão todas ocupadas",
        "{:?}",
        full.body
    );
    let release = app
        .post(
            &format!("{SMJ}/caps/taxi/reservas/condutores_com_deficiencia/liberacao"),
            &board,
            json!({}),
        )
        .await;
    ok(
        &release,
        StatusCode::UNPROCESSABLE_ENTITY,
        "nothing to release",
    );
    assert_eq!(
        release.text("motivo"),
        "não há vagas da reserva `condutores_com_deficiencia` por preencher",
        "{:?}",
        release.body
    );
    for answer in [&unknown, &full, &release] {
        let text = answer.body.to_string();
        for english in [
            "disabled_drivers",
            "has no value",
            "parameter",
            "not in this",
        ] {
            assert!(!text.contains(english), "{text}");
        }
    }
}

on_both_backends!(engine_and_cap_refusals);

/// A permit's status changes take the law's words in Portuguese — a
/// reserve's reason, a caducity's ground, an extinction's — written loosely
/// or as the code spells them; others are refused naming the law's own in
/// Portuguese; the history answers them in Portuguese.
async fn permit_status_words(app: &App) {
    let team = team(app).await;
    let board = app.with_token("junta", Role::Board, Scope::All).await;
    population(app, &team, SMJ, "1600").await;
    person(app, &team, SMJ, ANA).await;
    ok(
        &app.post(
            &format!("{SMJ}/permits"),
            &team.clerk,
            json!({ "servico": "taxi", "titular": ANA }),
        )
        .await,
        StatusCode::CREATED,
        "grant",
    );
    let status = format!("{SMJ}/permits/taxi/1/status");
    let reserve = |motivo: &str| json!({ "mudanca": "reserva", "motivo": motivo, "dias": 30 });
    refused(
        &app.post(&status, &team.clerk, reserve("greve")).await,
        "motivo",
        "`greve`: use furto_ou_roubo (Furto ou roubo do veículo), acidente (Acidente grave \
         ou destruição total do veículo), perda_judicial (Sentença judicial da perda da posse \
         ou propriedade do veículo) ou substituicao (Substituição do veículo)",
    );
    let reserved = app.post(&status, &team.clerk, reserve("Roubo")).await;
    ok(&reserved, StatusCode::OK, "a reserve for a robbery");
    assert_eq!(reserved.body["situacao"], "em_reserva");
    // An extinction's ground: the law's list, closed.
    refused(
        &app.post(
            &status,
            &board,
            json!({ "mudanca": "extincao", "fundamento": "morte" }),
        )
        .await,
        "fundamento",
        "`morte`: use termo, falecimento, invalidez, incapacidade, renuncia",
    );
    // The holder's renunciation, written loosely, is the clerk's to record.
    let renounced = app
        .post(
            &status,
            &team.clerk,
            json!({ "mudanca": "extincao", "fundamento": "Renúncia" }),
        )
        .await;
    ok(&renounced, StatusCode::OK, "renunciation");
    assert_eq!(renounced.body["situacao"], "renunciada");
    let history = app
        .get(&format!("{SMJ}/permits/taxi/1"), &team.reader)
        .await;
    let steps = items(&history.body, "historico");
    let said: Vec<(&Value, &Value)> = steps
        .iter()
        .map(|s| (&s["evento"], &s["fundamento"]))
        .collect();
    assert_eq!(
        said,
        [
            (&json!("outorga"), &Value::Null),
            (&json!("reserva"), &json!("furto_ou_roubo")),
            (&json!("renuncia"), &json!("renuncia")),
        ],
        "{:?}",
        history.body
    );

    // Amapá: a notice before caducity names a ground of art. 18, § 1º.
    const AP: &str = "/api/jurisdictions/amapa";
    const CARRIER: &str = "36002518000101";
    ok(
        &app.post(
            &format!("{AP}/people"),
            &team.clerk,
            json!({ "documento": CARRIER, "nome": "Expresso Tucuju" }),
        )
        .await,
        StatusCode::CREATED,
        "carrier",
    );
    ok(
        &app.post(
            &format!("{AP}/lines"),
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
            &format!("{AP}/permits"),
            &team.clerk,
            json!({ "servico": "onibus", "titular": CARRIER, "linha": "MCP-FGO" }),
        )
        .await;
    ok(&delegated, StatusCode::CREATED, "delegation");
    let number = &delegated.body["permissao"]["numero"];
    let status = format!("{AP}/permits/onibus/{number}/status");
    let notice =
        |ground: &str| json!({ "mudanca": "notificacao_caducidade", "fundamento": ground });
    refused(
        &app.post(&status, &board, notice("greve")).await,
        "fundamento",
        "`greve`: use descumprimento (Descumprir cláusulas contratuais ou disposições legais \
         ou regulamentares do serviço), paralisacao (Paralisar o serviço",
    );
    let abuse = app
        .post(&status, &board, notice("abuso do poder econômico"))
        .await;
    ok(
        &abuse,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no cure for abuse",
    );
    assert!(
        abuse
            .text("motivo")
            .starts_with("Declaração de inidoneidade por abuso do poder econômico"),
        "{:?}",
        abuse.body
    );
    assert!(!abuse.body.to_string().contains("economic_abuse"));
    assert_eq!(abuse.body["artigos"], json!(["Art. 65, Parágrafo único"]));
    let noticed = app.post(&status, &board, notice("Paralisação")).await;
    ok(&noticed, StatusCode::OK, "notice");
    let history = app
        .get(&format!("{AP}/permits/onibus/{number}"), &team.reader)
        .await;
    let last = items(&history.body, "historico")
        .last()
        .copied()
        .cloned()
        .unwrap_or_default();
    assert_eq!(last["evento"], "notificacao_caducidade");
    assert_eq!(last["fundamento"], "paralisacao");
}

on_both_backends!(permit_status_words);
