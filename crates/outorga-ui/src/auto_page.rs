//! An auto's page: what was found, the proposal with its articles, the
//! decision, the steps taken as a timeline, the time limits that run and
//! the steps the law admits today — each a form for the role that takes it
//! (clerks the procedure, the board the judgements, offering exactly what
//! the law lets the authority choose) — and those it does not, with why.
//! Steps are taken through `outorga_web::workflows::take_step`, as
//! `POST …/steps` takes them; what the law admits is the store's
//! `process_options`, as `GET …/steps` answers.

use crate::autos::form_error;
use crate::format;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place, refusal};
use crate::proposal::ProposalView;
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::engine::process::{NOT_ADMITTED, StepKind};
use outorga_core::model::{SanctionKind, Service};
use outorga_store::{Auto, Change, ProcessOptions, ProposedSanction, StoreError, TakenStep};
use outorga_web::AppState;
use outorga_web::auth::{Board, Clerk};
use outorga_web::workflows::{PassoEntrada, sanction_word, step_word, take_step};
use serde::Deserialize;

/// A penalty the decision may choose.
#[derive(Debug)]
struct Pick {
    /// The penalties, as `penalidades` names them, by commas.
    word: String,
    label: String,
}

/// A step the law admits today, as its form offers it.
#[derive(Debug)]
struct StepForm {
    word: String,
    name: &'static str,
    /// The user's role takes it (otherwise: who does).
    mine: bool,
    who: &'static str,
    /// A judgement (the board's).
    decides: bool,
    /// Defense or appeal: its text.
    text: bool,
    appeal_decision: bool,
    /// A judgement reserved to another authority: (key, who in the law).
    authority: Option<(String, String)>,
    /// Where the law gives a range of days: (min, max).
    days: Option<(u32, u32)>,
    /// Where the law lets the authority choose the penalties.
    picks: Vec<Pick>,
    /// Grounds to not admit a defense or an appeal (key, description).
    grounds: Vec<(String, String)>,
    /// Notifying a notice of irregularity: the days to cure may be set.
    cure_days: bool,
    /// Telling when the verification inspection takes place.
    verification: bool,
    /// Refused just now: (field, message).
    error: Option<(String, String)>,
}

#[derive(Debug)]
struct Refused {
    name: &'static str,
    reason: String,
    articles: String,
}

#[derive(Debug)]
struct TimelineStep {
    on: String,
    name: &'static str,
    detail: String,
    articles: String,
}

/// A petition filed online against the auto, as its page lists it.
struct Filed {
    protocol: String,
    kind: &'static str,
    at: String,
    text: String,
    /// (seq, name)
    files: Vec<(i64, String)>,
}

#[derive(Template)]
#[template(path = "auto.html")]
struct AutoPage {
    user: Option<Bar>,
    j: String,
    place: String,
    today: String,
    year: i32,
    number: i64,
    status: &'static str,
    infraction: String,
    infraction_text: String,
    infraction_article: String,
    offender: String,
    offender_name: String,
    offender_shown: String,
    permit: Option<(String, &'static str, i64)>,
    plate: String,
    committed: String,
    place_of: String,
    description: String,
    inspector: String,
    p: ProposalView,
    decision: Option<String>,
    timeline: Vec<TimelineStep>,
    limits: Vec<(&'static str, String, String)>,
    appeal_to: Vec<(String, String, String)>,
    forms: Vec<StepForm>,
    refused: Vec<Refused>,
    /// The papers the user may print now: (kind, the button's words).
    papers: Vec<(&'static str, &'static str)>,
    /// What the offender or holder filed online.
    petitions: Vec<Filed>,
    /// Just issued (`?lavrado=1`) or a step just taken (`?passo=…`).
    notice: Option<String>,
    /// A step refused just now whose form is not offered any more.
    error: Option<String>,
    /// The custody of the vehicle it held, if it held one.
    custody: Option<crate::custody::Section>,
}

/// The decision, in words.
/// The papers of the auto `signed` may print: the auto and its
/// notification; the notice of the decision once judged. None for a
/// read-only user.
fn papers_of(signed: &Signed, auto: &Auto) -> Vec<(&'static str, &'static str)> {
    if !outorga_web::auth::Issuer::admits(signed.user.role) {
        return Vec::new();
    }
    let mut papers = vec![
        ("auto", "Auto de infração"),
        ("auto_notification", "Notificação da autuação"),
    ];
    if auto.judged_on.is_some() {
        papers.push(("decision_notice", "Notificação da decisão e da penalidade"));
    }
    papers
}

/// The choices a decision may make where the law lets the authority
/// choose: the proposal (or one of the procedure's alternatives), each
/// with its mandatory penalties and any of those it leaves optional —
/// every choice one the law accepts. Empty when there is nothing to
/// choose.
fn alternatives(auto: &Auto) -> Vec<Pick> {
    let p = &auto.proposal;
    let sets: Vec<&Vec<ProposedSanction>> = if auto.uncured {
        vec![&p.uncured]
    } else {
        std::iter::once(&p.sanctions)
            .chain(p.options.iter().map(|o| &o.sanctions))
            .collect()
    };
    let mut picks: Vec<Pick> = Vec::new();
    for set in sets {
        let penalties: Vec<(SanctionKind, &ProposedSanction)> = set
            .iter()
            .filter(|s| s.at_once.is_none())
            .filter_map(|s| SanctionKind::parse(&s.kind).map(|k| (k, s)))
            .filter(|(k, _)| !k.is_procedural())
            .collect();
        let (mandatory, optional): (Vec<_>, Vec<_>) =
            penalties.into_iter().partition(|(_, s)| !s.optional);
        // A law leaves one or two penalties optional; three at most are
        // combined here.
        let optional: Vec<_> = optional.into_iter().take(3).collect();
        for mask in 0..(1u32 << optional.len()) {
            let chosen: Vec<&(SanctionKind, &ProposedSanction)> = mandatory
                .iter()
                .chain(
                    optional
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, o)| o),
                )
                .collect();
            if chosen.is_empty() {
                continue;
            }
            let word = chosen
                .iter()
                .map(|(k, _)| sanction_word(*k))
                .collect::<Vec<_>>()
                .join(",");
            if picks.iter().any(|p| p.word == word) {
                continue;
            }
            let label = chosen
                .iter()
                .map(|(k, s)| {
                    let what = outorga_store::words::sanction(s);
                    if what.is_empty() {
                        k.portuguese().to_string()
                    } else {
                        format!("{} ({what})", k.portuguese())
                    }
                })
                .collect::<Vec<_>>()
                .join(" e ");
            picks.push(Pick { word, label });
        }
    }
    if picks.len() < 2 {
        return Vec::new();
    }
    picks
}

fn step_forms(
    signed: &Signed,
    options: &ProcessOptions,
    grounds: Vec<(String, String)>,
) -> (Vec<StepForm>, Vec<Refused>) {
    let auto = &options.auto;
    let days = auto
        .proposal
        .sanctions
        .iter()
        .chain(
            auto.proposal
                .options
                .iter()
                .flat_map(|o| o.sanctions.iter()),
        )
        .find_map(|s| s.min_days.zip(s.max_days));
    let notice = auto
        .proposal
        .sanctions
        .iter()
        .any(|s| s.kind == SanctionKind::NoticeOfIrregularity.name());
    let mut forms = Vec::new();
    let mut refused = Vec::new();
    for option in &options.steps {
        let kind = option.kind;
        if let Some((reason, articles)) = &option.refusal {
            refused.push(Refused {
                name: kind.portuguese(),
                reason: reason.clone(),
                articles: articles.join("; "),
            });
            continue;
        }
        let decides = kind.decides();
        forms.push(StepForm {
            word: step_word(kind),
            name: kind.portuguese(),
            mine: if decides {
                Board::admits(signed.user.role)
            } else {
                Clerk::admits(signed.user.role)
            },
            who: if decides {
                "a junta/comissão"
            } else {
                "o atendente"
            },
            decides,
            text: matches!(kind, StepKind::Defend | StepKind::Appeal),
            appeal_decision: kind == StepKind::DecideAppeal,
            authority: option.authority.clone(),
            days: days.filter(|_| decides),
            picks: if decides {
                alternatives(auto)
            } else {
                Vec::new()
            },
            grounds: if decides { grounds.clone() } else { Vec::new() },
            cure_days: kind == StepKind::Notify && notice,
            verification: kind == StepKind::ScheduleVerification,
            error: None,
        });
    }
    (forms, refused)
}

fn timeline(steps: Vec<TakenStep>) -> Vec<TimelineStep> {
    steps
        .into_iter()
        .map(|s| TimelineStep {
            on: format::day(s.on),
            name: StepKind::parse(&s.step).map_or("lavratura do auto", StepKind::portuguese),
            detail: s.detail,
            articles: s.articles.join("; "),
        })
        .collect()
}

async fn auto_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    key: (i32, i64),
    (status, notice, error): (StatusCode, Option<String>, Option<(String, String, String)>),
) -> Response {
    let j = place.id.as_str();
    let auto = match outorga_web::workflows::priced_auto(state, j, key).await {
        Ok(auto) => auto,
        Err(error) if error.status == StatusCode::NOT_FOUND => {
            return refusal(
                signed,
                StatusCode::NOT_FOUND,
                "Auto não encontrado",
                "Não há auto com este número e ano nesta jurisdição.",
            );
        }
        Err(error) => {
            tracing::error!(error = ?error.body, "an auto could not be read");
            return failure();
        }
    };
    let Some(rulebook) = place.rulebooks.iter().find(|r| r.id == auto.rulebook) else {
        tracing::error!(rulebook = %auto.rulebook, "an auto's rulebook is not loaded");
        return failure();
    };
    let read = async {
        let options = state
            .store
            .process_options(rulebook, j, key, place.today)
            .await?;
        let steps = state.store.auto_steps(j, key).await?;
        let offender = state.store.registered(j, &auto.offender).await?;
        let petitions = state.store.petitions_of_auto(j, key).await?;
        Ok::<_, StoreError>((options, steps, offender, petitions))
    };
    let custody = match crate::custody::section(state, signed, (rulebook, j), &auto).await {
        Ok(custody) => custody,
        Err(error) => {
            tracing::error!(error = ?error.body, "an auto's custody could not be read");
            return failure();
        }
    };
    let (options, steps, offender, petitions) = match read.await {
        Ok(found) => found,
        Err(error) => {
            tracing::error!(%error, "an auto's procedure could not be read");
            return failure();
        }
    };
    let grounds = rulebook
        .grounds
        .iter()
        .filter(|g| g.set == NOT_ADMITTED)
        .map(|g| (g.key.clone(), g.description.clone()))
        .collect();
    let (mut forms, refused) = step_forms(signed, &options, grounds);
    let error = match error {
        Some((word, field, message)) => match forms.iter_mut().find(|f| f.word == word) {
            Some(form) => {
                form.error = Some((field, message));
                None
            }
            None => Some(message),
        },
        None => None,
    };
    let infraction = rulebook.infraction_by_code(&auto.infraction);
    page(
        status,
        &AutoPage {
            user: Some(Bar::of(signed)),
            j: j.to_string(),
            place: place.name.clone(),
            today: format::day(place.today),
            year: auto.year,
            number: auto.number,
            status: auto.status.portuguese(),
            infraction_text: infraction
                .map(|i| rulebook.infraction(i).description.clone())
                .unwrap_or_default(),
            infraction_article: infraction
                .map(|i| rulebook.infraction(i).citation.to_string())
                .unwrap_or_default(),
            infraction: auto.infraction.clone(),
            offender_name: offender.map_or_else(String::new, |o| o.name),
            offender_shown: format::document(&auto.offender),
            offender: auto.offender.clone(),
            permit: auto.permit.clone().map(|(service, number)| {
                let label = Service::parse(&service).map_or("serviço", Service::portuguese);
                (service, label, number)
            }),
            plate: auto.plate.clone().unwrap_or_else(|| "—".into()),
            committed: auto.committed_at.format("%d/%m/%Y %H:%M").to_string(),
            place_of: auto.place.clone(),
            description: auto.description.clone(),
            inspector: auto.inspector.clone(),
            p: ProposalView::of(&auto.proposal),
            decision: outorga_store::words::decision(&auto),
            timeline: timeline(steps),
            limits: options
                .limits
                .iter()
                .map(|l| (l.kind.portuguese(), format::day(l.due), l.article.clone()))
                .collect(),
            appeal_to: options
                .appeal_to
                .iter()
                .map(|a| {
                    let against: Vec<&str> = a.against.iter().map(|k| k.portuguese()).collect();
                    (a.body.clone(), against.join(", "), a.article.clone())
                })
                .collect(),
            forms,
            refused,
            papers: papers_of(signed, &auto),
            petitions: petitions
                .into_iter()
                .map(|p| Filed {
                    protocol: p.protocol,
                    kind: p.kind.portuguese(),
                    at: p.filed_at.format("%d/%m/%Y %H:%M").to_string(),
                    text: p.text,
                    files: p.files.into_iter().map(|f| (f.seq, f.name)).collect(),
                })
                .collect(),
            notice,
            error,
            custody,
        },
    )
}

/// The auto's page with a form of its own refused (`word`: which form,
/// the field and why).
pub(crate) async fn refused_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    key: (i32, i64),
    (status, error): (StatusCode, (String, String, String)),
) -> Response {
    auto_page(state, signed, place, key, (status, None, Some(error))).await
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct AutoAsked {
    lavrado: Option<String>,
    passo: Option<String>,
    custodia: Option<String>,
}

pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number)): Path<(String, i32, i64)>,
    Query(asked): Query<AutoAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let notice = if asked.lavrado.is_some() {
        Some(format!("Auto nº {number}/{year} lavrado."))
    } else if asked.custodia.is_some() {
        Some("Custódia do veículo atualizada.".to_string())
    } else {
        asked
            .passo
            .as_deref()
            .and_then(StepKind::parse)
            .map(|k| format!("Registrado: {}.", k.portuguese()))
    };
    auto_page(
        &state,
        &signed,
        &place,
        (year, number),
        (StatusCode::OK, notice, None),
    )
    .await
}

/// A step's form as sent: each field once, `penalidades` as many times as
/// chosen.
fn step_input(fields: &[(String, String)]) -> Result<PassoEntrada, (String, String)> {
    let one = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let number = |name: &str| -> Result<Option<u32>, (String, String)> {
        one(name)
            .map(|v| {
                v.parse().map_err(|_| {
                    (
                        name.to_string(),
                        format!("`{v}` não é um número de dias: escreva só algarismos"),
                    )
                })
            })
            .transpose()
    };
    let decides = one("passo").is_some_and(|p| {
        StepKind::ALL
            .iter()
            .any(|k| k.decides() && step_word(*k) == p)
    });
    let picks: Vec<String> = fields
        .iter()
        .filter(|(k, _)| k == "penalidades")
        .flat_map(|(_, v)| v.split(','))
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    // An annulment imposes nothing: what the form offered for upholding
    // is not sent with it.
    let annulled = decides && one("mantido").as_deref() == Some("nao");
    let picks = if annulled { Vec::new() } else { picks };
    Ok(PassoEntrada {
        passo: one("passo").unwrap_or_default(),
        data: one("data"),
        texto: one("texto").unwrap_or_default(),
        mantido: if decides {
            match one("mantido").as_deref() {
                Some("sim") => Some(true),
                Some("nao") => Some(false),
                _ => {
                    return Err((
                        "mantido".into(),
                        "Diga se o auto é mantido ou anulado.".into(),
                    ));
                }
            }
        } else {
            None
        },
        dias: if annulled { None } else { number("dias")? },
        penalidades: Some(picks).filter(|p| !p.is_empty()),
        deposito: None,
        nao_conhecido: one("nao_conhecido"),
        autoridade: one("autoridade"),
        fundamentos: one("fundamentos").unwrap_or_default(),
        recorrente_cientificado: one("recorrente_cientificado").map(|_| true),
        prazo_sanar: number("prazo_sanar")?,
        comunicado_em: one("comunicado_em"),
        vistoria_em: one("vistoria_em"),
    })
}

/// Takes a step: back to the auto's page, saying what was recorded, or
/// the page again with the law's refusal next to the step's form.
pub(crate) async fn take(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number)): Path<(String, i32, i64)>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let csrf = fields
        .iter()
        .find(|(k, _)| k == "csrf")
        .map_or("", |(_, v)| v.as_str());
    if let Err(refused) = checked_form(&signed, csrf, |r| Clerk::admits(r) || Board::admits(r)) {
        return *refused;
    }
    let word = fields
        .iter()
        .find(|(k, _)| k == "passo")
        .map_or_else(String::new, |(_, v)| v.clone());
    let again = |status, field: String, message: String| {
        let error = Some((word.clone(), field, message));
        auto_page(
            &state,
            &signed,
            &place,
            (year, number),
            (status, None, error),
        )
    };
    let input = match step_input(&fields) {
        Ok(input) => input,
        Err((field, message)) => {
            return again(StatusCode::UNPROCESSABLE_ENTITY, field, message).await;
        }
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "processo do auto pela tela",
    };
    match take_step(
        &state,
        (&signed.user, &change),
        &place.id,
        (year, number),
        &input,
    )
    .await
    {
        Ok(_) => {
            let step = StepKind::ALL
                .iter()
                .find(|k| step_word(**k) == word)
                .map_or("", |k| k.name());
            Redirect::to(&format!(
                "/j/{}/autos/{year}/{number}?passo={step}",
                place.id
            ))
            .into_response()
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a step could not be taken");
            failure()
        }
        Err(error) => {
            let (field, message) = form_error(&error);
            again(error.status, field, message).await
        }
    }
}
