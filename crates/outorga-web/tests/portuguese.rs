//! What users read is Portuguese, on both backends: the wire values of each
//! vocabulary (a driver's role, an inspection's kind, the steps and statuses
//! of an auto, penalties, documents, the agenda), read loosely and as the
//! code spells them, refused with the Portuguese spellings.

mod common;

use axum::http::{Method, StatusCode};
use common::{Answer, App};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};

const SMJ: &str = "/api/jurisdictions/santa-maria-de-jetiba";
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
            Some(json!({ "valor": value })),
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
        "autorizacao_trafego, matricula_condutor, termo_delegacao ou selo_vistoria",
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
