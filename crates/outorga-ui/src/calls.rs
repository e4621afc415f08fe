//! Public calls for new permits on the pages. Staff: `/j/{j}/chamamentos`
//! — the calls and the form of a new edital (its criteria and documents one
//! per line) — and `/j/{j}/chamamentos/{ano}/{numero}` — the edital, the
//! applications, and each step in its turn: apply, screen, the tie draw,
//! the provisional result, appeals and the board's decision, the final
//! result, the grants in turn. Public: `/chamamentos/{j}/{ano}/{numero}` —
//! the call as anyone checks it, names abbreviated and CPFs masked (LGPD),
//! every score by criterion and the recipe and script that recompute the
//! ranking. All read and write through the store functions the API calls.

use crate::autos::form_error;
use crate::format;
use crate::pages::{Bar, ErrorPage, failure, page};
use crate::place::place;
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::model::{Judgement, Quota, Rulebook};
use outorga_store::words::{masked_document, masked_name};
use outorga_store::{
    ApplicationInput, Call, CallApplication, CallStatus, Change, Missing, StoreError, Window,
};
use outorga_web::auth::{Board, Clerk};
use outorga_web::limits::PublicLookup;
use outorga_web::workflows::{
    CriterioEntrada, DocumentoEditalEntrada, EditalEntrada, Mostrado, call_input, call_shown,
    rulebook_for_service, rulebook_of_call,
};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The script of the docs that recomputes a published ranking.
const SCRIPT: &str = include_str!("../../../docs/recompute-call.py");

/// A call in the list.
struct CallRow {
    year: i32,
    number: i64,
    label: String,
    act: String,
    service: String,
    status: String,
    period: String,
    places: String,
}

/// An applicant as a page shows them (public: masked).
struct ApplicantRow {
    seq: i64,
    label: String,
    name: String,
    document: String,
    applied: String,
    /// Points by criterion, in the edital's order.
    points: Vec<String>,
    total: String,
    /// "habilitado", or why not.
    standing: String,
    claim: String,
    position: String,
    place: String,
    permit: String,
    /// Its turn has come (the next grant).
    next: bool,
}

/// A reserved share an applicant may claim: its key, name and conditions
/// (key, words).
pub(crate) type ShareRow = (String, String, Vec<(String, String)>);

struct AppealRow {
    seq: i64,
    applicant: String,
    filed: String,
    grounds: String,
    status: String,
    open: bool,
    decision: String,
}

#[derive(Template)]
#[template(path = "chamamentos.html")]
struct CallsPage {
    user: Option<Bar>,
    clerk: bool,
    csrf: String,
    error: Option<(String, String)>,
    j: String,
    place: String,
    /// The services whose law ranks a call by criteria.
    services: Vec<crate::forms::Choice>,
    calls: Vec<CallRow>,
    today: String,
}

#[derive(Template)]
#[template(path = "chamamento.html")]
struct CallPage {
    user: Option<Bar>,
    clerk: bool,
    board: bool,
    csrf: String,
    done: Option<String>,
    error: Option<(String, String)>,
    j: String,
    call: CallRow,
    /// `open`, `screened`, `provisional`, `final`: which forms it takes.
    code: &'static str,
    facts: Vec<(String, String)>,
    criteria: Vec<(String, String, String)>,
    /// The application form's quantity fields: (criterion key, label).
    inputs: Vec<(String, String)>,
    documents: Vec<(String, String)>,
    /// The shares an applicant may claim: (key, name, conditions).
    shares: Vec<ShareRow>,
    applicants: Vec<ApplicantRow>,
    ranking: Vec<ApplicantRow>,
    ties: Vec<String>,
    /// The tie draws: (year, number, label, status, closed: waiting for the seed).
    draws: Vec<(i32, i64, String, String, bool)>,
    appeals: Vec<AppealRow>,
    outcome: Vec<String>,
}

#[derive(Template)]
#[template(path = "chamamento-publico.html")]
struct PublicPage {
    user: Option<Bar>,
    j: String,
    call: CallRow,
    facts: Vec<(String, String)>,
    criteria: Vec<(String, String, String)>,
    ranking: Vec<ApplicantRow>,
    ineligible: Vec<ApplicantRow>,
    draws: Vec<(i32, i64, String)>,
    outcome: Vec<String>,
    count: usize,
    /// Applications are open today.
    open: bool,
    script: &'static str,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Done {
    feito: Option<String>,
}

fn row(call: &Call) -> CallRow {
    let reserved: Vec<String> = call
        .places
        .reserved
        .iter()
        .map(|(share, n)| format!("{n} reservada(s) ({})", Quota::label(share)))
        .collect();
    CallRow {
        year: call.year,
        number: call.number,
        label: call.label(),
        act: call.act.clone(),
        service: call.service.replace('_', " "),
        status: call.status.portuguese().to_string(),
        period: format!(
            "de {} a {}",
            format::day(call.opens_on),
            format::day(call.closes_on)
        ),
        places: std::iter::once(format!(
            "{} vaga(s): {} de ampla concorrência",
            call.offered, call.places.open
        ))
        .chain(reserved)
        .collect::<Vec<_>>()
        .join(", "),
    }
}

fn missing(list: &[Missing]) -> Vec<String> {
    list.iter()
        .map(|m| format!("{} ({})", m.description, m.articles.join("; ")))
        .collect()
}

fn applicant(call: &Call, a: &CallApplication, public: bool) -> ApplicantRow {
    let screening = a.screening.as_ref();
    let next = call.status == CallStatus::Final
        && call
            .grants()
            .iter()
            .find(|g| g.permit.is_none())
            .is_some_and(|g| g.seq == a.seq);
    ApplicantRow {
        seq: a.seq,
        label: a.label.clone(),
        name: if public {
            masked_name(&a.name)
        } else {
            a.name.clone()
        },
        document: if public {
            masked_document(&a.who)
        } else {
            format::document(&a.who)
        },
        applied: format::day(a.applied_on),
        points: call
            .criteria
            .iter()
            .map(|c| {
                screening
                    .and_then(|s| s.points.iter().find(|p| p.criterion == c.key))
                    .map_or("—".into(), |p| {
                        format!("{} ({})", p.points.normalize(), p.quantity.normalize())
                    })
            })
            .collect(),
        total: screening.map_or("—".into(), |s| s.score.normalize().to_string()),
        standing: screening.map_or("a triar".into(), |s| {
            if s.eligible {
                "habilitado".into()
            } else {
                let mut why = missing(&s.unmet);
                why.extend(
                    missing(&s.not_shown)
                        .into_iter()
                        .map(|m| format!("não comprovado: {m}")),
                );
                format!("inabilitado: {}", why.join("; "))
            }
        }),
        claim: match (&a.shown.claim, screening.and_then(|s| s.claim.as_ref())) {
            (None, _) => String::new(),
            (Some(share), None) => format!("pleiteia {}", Quota::label(share)),
            (Some(share), Some(c)) if c.admitted => format!("{}: admitida", Quota::label(share)),
            (Some(share), Some(c)) => format!(
                "{}: não admitida, concorre na ampla ({})",
                Quota::label(share),
                missing(&c.missing).join("; ")
            ),
        },
        position: a.position.map_or(String::new(), |p| format!("{p}º")),
        place: a.place.as_ref().map_or(String::new(), |p| p.portuguese()),
        permit: a.permit.as_ref().map_or(String::new(), |(s, n)| {
            format!(
                "{} nº {n}{}",
                s.replace('_', " "),
                a.granted_on
                    .map_or(String::new(), |d| format!(", em {}", format::day(d)))
            )
        }),
        next,
    }
}

fn facts(call: &Call) -> Vec<(String, String)> {
    let CallRow { period, places, .. } = row(call);
    let mut facts = vec![
        ("Ato".to_string(), call.act.clone()),
        ("Situação".into(), call.status.portuguese().to_string()),
        ("Inscrições".into(), period),
        ("Vagas".into(), places),
    ];
    let mut dated = |what: &str, day: Option<chrono::NaiveDate>| {
        if let Some(day) = day {
            facts.push((what.to_string(), format::day(day)));
        }
    };
    dated("Triagem em", call.screened_on);
    dated("Resultado provisório em", call.provisional_on);
    dated("Recursos até", call.appeal_until);
    dated("Resultado final em", call.final_on);
    facts.push(("Fundamento".into(), call.articles.join("; ")));
    facts
}

fn criteria(call: &Call) -> Vec<(String, String, String)> {
    call.criteria
        .iter()
        .map(|c| {
            (
                c.description.clone(),
                format!(
                    "{} ponto(s) por unidade{}",
                    c.points_per_unit.normalize(),
                    c.max
                        .map_or(String::new(), |m| format!(", até {}", m.normalize()))
                ),
                c.citation.clone(),
            )
        })
        .collect()
}

fn outcome(call: &Call) -> Vec<String> {
    let Some(o) = &call.outcome else {
        return Vec::new();
    };
    let mut lines: Vec<String> = o
        .released
        .iter()
        .map(|(share, n, article)| {
            format!(
                "{n} vaga(s) da reserva ({}) sem habilitado para ela liberada(s) à ampla concorrência ({article})",
                Quota::label(share)
            )
        })
        .collect();
    lines.extend(o.vacant.iter().map(|(share, n, article)| {
        format!(
            "{n} vaga(s) da reserva ({}) sem preenchimento ({article})",
            Quota::label(share)
        )
    }));
    if o.open_vacant > 0 {
        lines.push(format!(
            "{} vaga(s) de ampla concorrência sem habilitado para ela",
            o.open_vacant
        ));
    }
    lines
}

/// An application form's fields: each criterion's quantity (key, label),
/// the edital's documents (name, item), the shares one may claim with their
/// conditions.
pub(crate) fn call_form_fields(call: &Call, rulebook: &Rulebook) -> FormFields {
    let inputs = call
        .criteria
        .iter()
        .map(|c| {
            (
                c.key.clone(),
                format!("{} (quantidade comprovada; {})", c.description, c.citation),
            )
        })
        .collect();
    let documents = call
        .documents
        .iter()
        .map(|d| (d.name.clone(), d.citation.clone()))
        .collect();
    let shares = match rulebook.public_call.as_ref().map(|c| &c.judgement) {
        Some(Judgement::Criteria(ranking)) => ranking
            .shares
            .iter()
            .map(|s| {
                (
                    s.share.clone(),
                    Quota::label(&s.share).to_string(),
                    s.conditions
                        .iter()
                        .map(|c| (c.key.clone(), format!("{} ({})", c.description, c.citation)))
                        .collect(),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    FormFields {
        inputs,
        documents,
        shares,
    }
}

/// An application form's fields (`call_form_fields`).
pub(crate) struct FormFields {
    pub inputs: Vec<(String, String)>,
    pub documents: Vec<(String, String)>,
    pub shares: Vec<ShareRow>,
}

/// The rulebooks of the place whose law ranks a public call by criteria.
fn ranked_by_criteria(rulebook: &Rulebook) -> bool {
    matches!(
        rulebook.public_call.as_ref().map(|c| &c.judgement),
        Some(Judgement::Criteria(_))
    )
}

/// The staff's list of calls and the new edital's form.
pub(crate) async fn list(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
) -> Response {
    calls_page(&state, &signed, &j, None).await
}

async fn calls_page(
    state: &AppState,
    signed: &Signed,
    j: &str,
    error: Option<(String, String)>,
) -> Response {
    let place = match place(state, signed, j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let calls = match state.store.calls(&place.id, Window::first(100)).await {
        Ok(page) => page.items.iter().map(row).collect(),
        Err(error) => {
            tracing::error!(%error, "the calls could not be read");
            return failure();
        }
    };
    let mut services = crate::forms::service_choices(&place, "", None);
    services.retain(|choice| {
        place
            .rulebooks
            .iter()
            .any(|r| ranked_by_criteria(r) && r.services.iter().any(|s| s.name() == choice.value))
    });
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    page(
        status,
        &CallsPage {
            user: Some(Bar::of(signed)),
            clerk: Clerk::admits(signed.user.role),
            csrf: signed.csrf(),
            error,
            j: place.id.clone(),
            place: place.name.clone(),
            services,
            calls,
            today: place.today.to_string(),
        },
    )
}

/// The new edital's form: criteria and documents one per line, fields
/// separated by `|`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct EditalForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    servico: String,
    #[serde(default)]
    ato: String,
    #[serde(default)]
    vagas: String,
    #[serde(default)]
    inscricoes_de: String,
    #[serde(default)]
    inscricoes_ate: String,
    /// `chave | descrição | pontos por unidade | máximo | item`
    #[serde(default)]
    criterios: String,
    #[serde(default)]
    desempate: String,
    /// `nome | item`
    #[serde(default)]
    documentos: String,
}

fn refused(field: &str, reason: String) -> ApiError {
    ApiError::field(StatusCode::UNPROCESSABLE_ENTITY, field, reason)
}

fn lines(text: &str) -> impl Iterator<Item = (usize, Vec<String>)> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.split('|').map(|f| f.trim().to_string()).collect()))
}

fn edital_of(form: &EditalForm) -> Result<EditalEntrada, ApiError> {
    let criterios = lines(&form.criterios)
        .map(|(n, f)| match f.as_slice() {
            [chave, descricao, pontos, maximo, item] => Ok(CriterioEntrada {
                chave: chave.clone(),
                descricao: descricao.clone(),
                pontos_por_unidade: pontos.clone(),
                maximo: (!maximo.is_empty()).then(|| maximo.clone()),
                item: item.clone(),
            }),
            _ => Err(refused(
                "criterios",
                format!(
                    "linha {n}: escreva chave | descrição | pontos por unidade | máximo | item do edital (máximo pode ficar vazio)"
                ),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let documentos = lines(&form.documentos)
        .map(|(n, f)| match f.as_slice() {
            [nome, item] => Ok(DocumentoEditalEntrada {
                nome: nome.clone(),
                item: item.clone(),
            }),
            _ => Err(refused(
                "documentos",
                format!("linha {n}: escreva nome | item do edital"),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(EditalEntrada {
        servico: form.servico.clone(),
        ato: form.ato.clone(),
        vagas: form.vagas.trim().parse().map_err(|_| {
            refused(
                "vagas",
                "informe quantas vagas o edital oferece (só algarismos)".into(),
            )
        })?,
        inscricoes_de: form.inscricoes_de.clone(),
        inscricoes_ate: form.inscricoes_ate.clone(),
        criterios,
        desempate: form
            .desempate
            .split(',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(str::to_string)
            .collect(),
        documentos,
    })
}

/// Opens a call from the edital's form.
pub(crate) async fn open(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(form): Form<EditalForm>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "edital de chamamento pela tela",
    };
    let opened = async {
        let input = edital_of(&form)?;
        let rulebook = rulebook_for_service(&state, &j, &input.servico).await?;
        let input = call_input(&input)?;
        Ok::<_, ApiError>(state.store.open_call(&change, rulebook, &j, &input).await?)
    }
    .await;
    match opened {
        Ok(call) => Redirect::to(&format!(
            "/j/{j}/chamamentos/{}/{}?feito=edital",
            call.year, call.number
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "an edital could not be recorded");
            failure()
        }
        Err(error) => calls_page(&state, &signed, &j, Some(form_error(&error))).await,
    }
}

/// The staff's page of a call.
pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number)): Path<(String, i32, i64)>,
    Query(done): Query<Done>,
) -> Response {
    let done = done
        .feito
        .as_deref()
        .and_then(done_words)
        .map(str::to_string);
    call_page(&state, &signed, (&j, (year, number)), (done, None)).await
}

fn done_words(feito: &str) -> Option<&'static str> {
    Some(match feito {
        "edital" => "Edital registrado: as vagas foram calculadas pelo limite de hoje.",
        "inscrever" => "Inscrição registrada.",
        "triar" => "Inscrições triadas.",
        "desempate" => "Sorteio de desempate aberto, com a lista fechada e publicada.",
        "sortear" => "Sorteio realizado: o resultado está publicado.",
        "provisorio" => "Resultado provisório publicado: corre o prazo de recurso.",
        "recorrer" => "Recurso registrado.",
        "decidir" => "Recurso decidido.",
        "final" => "Resultado final publicado.",
        "outorgar" => "Permissão outorgada.",
        _ => return None,
    })
}

async fn call_page(
    state: &AppState,
    signed: &Signed,
    (j, key): (&str, (i32, i64)),
    (done, error): (Option<String>, Option<(String, String)>),
) -> Response {
    let place = match place(state, signed, j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let read = async {
        let call = state.store.call(&place.id, key).await?;
        let rulebook = place
            .rulebooks
            .iter()
            .find(|r| r.id == call.rulebook)
            .copied()
            .ok_or_else(|| StoreError::Corrupt(format!("call rulebook {}", call.rulebook)))?;
        let ties = if matches!(call.status, CallStatus::Screened | CallStatus::Provisional) {
            state.store.undrawn_ties(rulebook, &call).await?
        } else {
            Vec::new()
        };
        Ok::<_, StoreError>((call, rulebook, ties))
    };
    let (call, rulebook, ties) = match read.await {
        Ok(found) => found,
        Err(StoreError::NotFound(_)) => {
            return page(
                StatusCode::NOT_FOUND,
                &ErrorPage {
                    user: Some(Bar::of(signed)),
                    title: "Chamamento não encontrado",
                    message: "Confira o número e o ano do edital na lista de chamamentos.",
                },
            );
        }
        Err(error) => {
            tracing::error!(%error, "a call could not be read");
            return failure();
        }
    };
    let FormFields {
        inputs,
        documents,
        shares,
    } = call_form_fields(&call, rulebook);
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let label_of = |seq: i64| {
        call.applications
            .iter()
            .find(|a| a.seq == seq)
            .map_or(String::new(), |a| format!("{} — {}", a.label, a.name))
    };
    page(
        status,
        &CallPage {
            user: Some(Bar::of(signed)),
            clerk: Clerk::admits(signed.user.role),
            board: Board::admits(signed.user.role),
            csrf: signed.csrf(),
            done,
            error,
            j: place.id.clone(),
            call: row(&call),
            code: call.status.name(),
            facts: facts(&call),
            criteria: criteria(&call),
            inputs,
            documents,
            shares,
            applicants: call
                .applications
                .iter()
                .map(|a| applicant(&call, a, false))
                .collect(),
            ranking: call
                .ranking()
                .into_iter()
                .map(|a| applicant(&call, a, false))
                .collect(),
            ties,
            draws: call
                .draws
                .iter()
                .map(|d| {
                    (
                        d.year,
                        d.number,
                        d.label(),
                        d.status.portuguese().to_string(),
                        d.seed.is_none(),
                    )
                })
                .collect(),
            appeals: call
                .appeals
                .iter()
                .map(|a| AppealRow {
                    seq: a.seq,
                    applicant: label_of(a.application),
                    filed: format::day(a.filed_on),
                    grounds: a.grounds.clone(),
                    status: a.status.portuguese().to_string(),
                    open: a.decided_on.is_none(),
                    decision: a.decision.clone().unwrap_or_default(),
                })
                .collect(),
            outcome: outcome(&call),
        },
    )
}

/// The form's fields, repeated ones (documents, conditions) in order.
fn field<'f>(form: &'f [(String, String)], name: &str) -> &'f str {
    form.iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

fn fields(form: &[(String, String)], name: &str) -> Vec<String> {
    form.iter()
        .filter(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .collect()
}

/// What an applicant shows, from the form: `q_<criterion>` quantities,
/// `documento` and `condicao` checkboxes, the share claimed.
pub(crate) fn mostrado_of(form: &[(String, String)]) -> Mostrado {
    Mostrado {
        quantidades: form
            .iter()
            .filter_map(|(k, v)| {
                let key = k.strip_prefix("q_")?;
                (!v.trim().is_empty()).then(|| (key.to_string(), v.clone()))
            })
            .collect::<BTreeMap<_, _>>(),
        documentos: fields(form, "documento"),
        reserva: Some(field(form, "reserva").to_string()).filter(|r| !r.trim().is_empty()),
        condicoes: fields(form, "condicao"),
    }
}

/// A step of the call: `inscrever`, `triar`, `desempate`, `sortear`,
/// `provisorio`, `recorrer`, `decidir`, `final`, `outorgar`.
pub(crate) async fn step(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, step)): Path<(String, i32, i64, String)>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let key = (year, number);
    let (why, admits): (&'static str, fn(outorga_store::Role) -> bool) = match step.as_str() {
        "inscrever" => ("inscrição em chamamento pela tela", Clerk::admits),
        "triar" => ("triagem de chamamento pela tela", Clerk::admits),
        "desempate" => ("sorteio de desempate pela tela", Clerk::admits),
        "sortear" => ("sorteio de desempate realizado pela tela", Clerk::admits),
        "provisorio" => ("resultado provisório pela tela", Clerk::admits),
        "recorrer" => ("recurso em chamamento pela tela", Clerk::admits),
        "decidir" => ("decisão de recurso em chamamento pela tela", Board::admits),
        "final" => ("resultado final pela tela", Board::admits),
        "outorgar" => ("outorga por chamamento pela tela", Clerk::admits),
        _ => {
            return page(
                StatusCode::NOT_FOUND,
                &ErrorPage {
                    user: Some(Bar::of(&signed)),
                    title: "Página não encontrada",
                    message: "Os passos do chamamento estão na página do edital.",
                },
            );
        }
    };
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, field(&form, "csrf"), admits) {
        return *refused;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why,
    };
    let number_of = |name: &'static str| -> Result<i64, ApiError> {
        field(&form, name)
            .trim()
            .parse()
            .map_err(|_| refused(name, "escolha na lista da página".into()))
    };
    let done = async {
        let rulebook = rulebook_of_call(&state, &j, key).await?;
        let store = &state.store;
        match step.as_str() {
            "inscrever" => {
                let input = ApplicationInput {
                    who: field(&form, "interessado").to_string(),
                    shown: call_shown(&mostrado_of(&form))?,
                };
                store
                    .apply_to_call(&change, rulebook, &j, key, &input)
                    .await?;
            }
            "triar" => {
                store.screen_call(&change, rulebook, &j, key).await?;
            }
            "desempate" => {
                let seed_on = outorga_web::workflows::parse_day(field(&form, "data"), "data")?;
                store
                    .open_call_tie_draw(
                        &change,
                        rulebook,
                        &j,
                        key,
                        (field(&form, "fonte"), seed_on),
                    )
                    .await?;
            }
            "sortear" => {
                let draw = (
                    i32::try_from(number_of("sorteio_ano")?).unwrap_or_default(),
                    number_of("sorteio_numero")?,
                );
                store
                    .run_draw(&change, rulebook, &j, draw, field(&form, "semente"))
                    .await?;
            }
            "provisorio" => {
                store
                    .publish_provisional_result(&change, rulebook, &j, key)
                    .await?;
            }
            "recorrer" => {
                let appeal = (field(&form, "recorrente"), field(&form, "fundamentos"));
                store
                    .appeal_call(&change, rulebook, &j, key, appeal)
                    .await?;
            }
            "decidir" => {
                let granted = match field(&form, "provido") {
                    "sim" => true,
                    "nao" => false,
                    _ => return Err(refused("provido", "escolha provido ou não provido".into())),
                };
                let documents = fields(&form, "documento");
                let call = store.call(&j, key).await?;
                let seq = number_of("recurso")?;
                let amendment = match call.appeals.iter().find(|a| a.seq == seq) {
                    Some(appeal) if granted && !documents.is_empty() => call
                        .applications
                        .iter()
                        .find(|a| a.seq == appeal.application)
                        .map(|a| outorga_store::Shown {
                            documents: documents.clone(),
                            ..a.shown.clone()
                        }),
                    _ => None,
                };
                store
                    .decide_call_appeal(
                        &change,
                        rulebook,
                        &j,
                        (key, seq),
                        (granted, field(&form, "decisao"), amendment.as_ref()),
                    )
                    .await?;
            }
            "final" => {
                store
                    .publish_final_result(&change, rulebook, &j, key)
                    .await?;
            }
            _ => {
                let seq = number_of("inscricao")?;
                store
                    .grant_from_call(&change, rulebook, &j, (key, seq))
                    .await?;
            }
        }
        Ok::<_, ApiError>(())
    }
    .await;
    match done {
        Ok(()) => Redirect::to(&format!("/j/{j}/chamamentos/{year}/{number}?feito={step}"))
            .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a call's step could not be recorded");
            failure()
        }
        Err(error) => call_page(&state, &signed, (&j, key), (None, Some(form_error(&error)))).await,
    }
}

/// A call as anyone checks it (no sign-in).
pub(crate) async fn public(
    _: PublicLookup,
    State(state): State<AppState>,
    Path((j, year, number)): Path<(String, i32, i64)>,
) -> Response {
    let call = match state.store.call(&j, (year, number)).await {
        Ok(call) => call,
        Err(StoreError::NotFound(_)) => {
            return page(
                StatusCode::NOT_FOUND,
                &ErrorPage {
                    user: None,
                    title: "Chamamento não encontrado",
                    message: "Confira o endereço: o número e o ano do edital, e o município.",
                },
            );
        }
        Err(error) => {
            tracing::error!(%error, "a call could not be read");
            return failure();
        }
    };
    page(
        StatusCode::OK,
        &PublicPage {
            user: None,
            j: j.clone(),
            call: row(&call),
            facts: facts(&call),
            criteria: criteria(&call),
            ranking: call
                .ranking()
                .into_iter()
                .map(|a| applicant(&call, a, true))
                .collect(),
            ineligible: call
                .applications
                .iter()
                .filter(|a| a.screening.as_ref().is_some_and(|s| !s.eligible))
                .map(|a| applicant(&call, a, true))
                .collect(),
            draws: call
                .draws
                .iter()
                .map(|d| (d.year, d.number, d.label()))
                .collect(),
            outcome: outcome(&call),
            count: call.applications.len(),
            open: call.status == CallStatus::Open
                && outorga_web::workflows::today_in(&state, &j) <= call.closes_on,
            script: SCRIPT,
        },
    )
}
