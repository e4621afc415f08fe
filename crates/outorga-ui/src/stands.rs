//! Stands and public draws on the pages. Staff: `/j/{j}/pontos` — each
//! stand with who holds its places on a day (any past day too), the places
//! free, the swaps waiting for a decision and the draws with their
//! appeals; the clerk's forms (designation or relocation, the stand lost
//! for days off the road, a swap's decision, a draw's steps, an appeal
//! against its result) and the board's decision on an appeal, each form
//! only where the jurisdiction's law provides what it does. Public:
//! `/sorteios/{j}/{ano}/{numero}` — a draw as anyone checks it: the closed
//! list and its SHA-256, the seed's public source, the seed, each ticket
//! and the order, names abbreviated and CPFs masked (LGPD), and the recipe
//! and script that recompute it. Both read the store functions the API
//! reads (`stand_occupancy`, `pending_stand_swaps`, `draws`, `draw`).

use crate::autos::form_error;
use crate::format;
use crate::pages::{Bar, ErrorPage, failure, page};
use crate::place::place;
use crate::session::Signed;
use crate::session::checked_form;
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::engine::downtime::Excused;
use outorga_core::engine::draw::{ALGORITHM, LIST_ALGORITHM};
use outorga_core::model::Rulebook;
use outorga_store::words::{masked_document, masked_name};
use outorga_store::{AppealStatus, Draw, DrawStatus, StoreError, Window};
use outorga_store::{Change, Designation, DrawInput, HolderRequest, NoticeInput};
use outorga_web::ApiError;
use outorga_web::AppState;
use outorga_web::auth::{Board, Clerk};
use outorga_web::limits::PublicLookup;
use outorga_web::workflows::stand_rulebook;
use serde::Deserialize;

/// The script of the docs that recomputes a published draw.
const SCRIPT: &str = include_str!("../../../docs/recompute-draw.py");

/// A stand as the staff page shows it on a day.
struct StandRow {
    code: String,
    name: String,
    kind: String,
    act: String,
    free: String,
    occupants: Vec<(String, String, String, String)>,
}

/// A swap waiting for the department's decision.
struct SwapRow {
    year: i32,
    number: i64,
    label: String,
    permits: String,
    asked: String,
    consent: String,
}

/// A draw in the list.
struct DrawRow {
    /// `open`, `closed` or `drawn`: which forms it takes.
    code: &'static str,
    year: i32,
    number: i64,
    label: String,
    subject: String,
    status: String,
    seed_on: String,
    /// The appeals against its result (read for a drawn draw).
    appeals: Vec<AppealRow>,
}

/// An appeal against a draw's result, as the staff page shows it.
struct AppealRow {
    seq: i64,
    appellant: String,
    filed: String,
    grounds: String,
    status: String,
    /// The decision and its day, once decided.
    decision: String,
    /// Still to decide: the board's form is offered.
    open: bool,
}

/// What the jurisdiction's law provides for its stands, as the page's
/// forms read it: the article of each, none where the law has it not.
#[derive(Default)]
struct LawNotes {
    /// The law, as the page names it.
    name: String,
    relocation: String,
    notice: Option<String>,
    /// The article of a move the holder asks for.
    request: Option<String>,
    swaps: Option<String>,
    lottery: Option<String>,
    /// The article of the stand lost for days off the road.
    loss: Option<String>,
    /// The excuses the law admits for days off the road: (key, words).
    excuses: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "pontos.html")]
struct StandsPage {
    user: Option<Bar>,
    /// The user may act (a clerk): the forms are shown.
    clerk: bool,
    /// The user decides appeals (the board): their forms are shown.
    board: bool,
    law: LawNotes,
    csrf: String,
    /// What was just done, in words.
    done: Option<String>,
    /// Why the last form was refused: the field and the message.
    error: Option<(String, String)>,
    /// The fixed stands, for the forms' selects: (code, name).
    fixed: Vec<(String, String)>,
    services: Vec<crate::forms::Choice>,
    j: String,
    place: String,
    day: String,
    day_iso: String,
    stands: Vec<StandRow>,
    swaps: Vec<SwapRow>,
    draws: Vec<DrawRow>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct DayAsked {
    dia: Option<String>,
    feito: Option<String>,
}

/// Every form of the page: each action reads the fields it needs.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct StandForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    servico: String,
    #[serde(default)]
    numero: String,
    #[serde(default)]
    ponto: String,
    #[serde(default)]
    ato: String,
    #[serde(default)]
    fundamentos: String,
    /// `autorizar` or `indeferir`.
    #[serde(default)]
    decisao: String,
    #[serde(default)]
    fonte: String,
    #[serde(default)]
    data: String,
    #[serde(default)]
    semente: String,
    /// The stand lost: the first and the last day off the road.
    #[serde(default)]
    de: String,
    #[serde(default)]
    ate: String,
    /// An excuse the law admits for some of those days, and its days.
    #[serde(default)]
    motivo: String,
    #[serde(default)]
    motivo_de: String,
    #[serde(default)]
    motivo_ate: String,
    /// Who appeals against a draw's result (CPF or CNPJ).
    #[serde(default)]
    recorrente: String,
    /// A move the holder asked for: its protocol and the feasibility study.
    #[serde(default)]
    protocolo: String,
    #[serde(default)]
    estudo: String,
}

fn permit_number(text: &str) -> Result<i64, ApiError> {
    text.trim().parse().map_err(|_| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "numero",
            "informe o número da permissão (só algarismos)",
        )
    })
}

/// Runs a form's action as the signed-in clerk: on success to the page with
/// `feito`, refused back to the page with the field and the reason.
async fn act(
    state: &AppState,
    signed: &Signed,
    j: &str,
    asked: (&str, &str, &'static str),
    run: impl AsyncFnOnce(&Rulebook, &Change<'_>) -> Result<(), ApiError>,
) -> Response {
    act_as(state, signed, j, Clerk::admits, asked, run).await
}

/// Runs a form's action as the signed-in user whom `admits` lets make it.
async fn act_as(
    state: &AppState,
    signed: &Signed,
    j: &str,
    admits: fn(outorga_store::Role) -> bool,
    (csrf, feito, why): (&str, &str, &'static str),
    run: impl AsyncFnOnce(&Rulebook, &Change<'_>) -> Result<(), ApiError>,
) -> Response {
    if let Err(refused) = place(state, signed, j) {
        return *refused;
    }
    if let Err(refused) = checked_form(signed, csrf, admits) {
        return *refused;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why,
    };
    let done = async {
        let rulebook = stand_rulebook(state, j).await?;
        run(rulebook, &change).await
    }
    .await;
    match done {
        Ok(()) => Redirect::to(&format!("/j/{j}/pontos?feito={feito}")).into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a stand's form could not be recorded");
            failure()
        }
        Err(error) => stands_page(state, signed, j, None, (None, Some(form_error(&error)))).await,
    }
}

/// Designates a stand to a permit, or relocates it there with grounds.
pub(crate) async fn designate(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(form): Form<StandForm>,
) -> Response {
    let who = (
        form.csrf.as_str(),
        "designacao",
        "designação de ponto pela tela",
    );
    act(&state, &signed, &j, who, async |rulebook, change| {
        let designation = Designation {
            service: form.servico.trim().to_string(),
            number: permit_number(&form.numero)?,
            stand: form.ponto.clone(),
            act: form.ato.clone(),
            grounds: form.fundamentos.clone(),
            request: (!form.protocolo.trim().is_empty() || !form.estudo.trim().is_empty()).then(
                || HolderRequest {
                    protocol: form.protocolo.clone(),
                    study: form.estudo.clone(),
                },
            ),
        };
        state
            .store
            .designate_stand(change, rulebook, &j, &designation)
            .await?;
        Ok(())
    })
    .await
}

/// The permit loses its fixed stand for the days its vehicle was off the
/// road, where the law says so (Canguçu art. 36, III): the days, and an
/// excuse the law admits for some of them.
pub(crate) async fn lose(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(form): Form<StandForm>,
) -> Response {
    let who = (form.csrf.as_str(), "perda", "perda do ponto fixo pela tela");
    act(&state, &signed, &j, who, async |rulebook, change| {
        let number = permit_number(&form.numero)?;
        let from = outorga_web::workflows::parse_day(&form.de, "de")?;
        let to = outorga_web::workflows::parse_day(&form.ate, "ate")?;
        let excused = match form.motivo.trim() {
            "" => Vec::new(),
            reason => vec![Excused {
                reason: reason.to_string(),
                from: outorga_web::workflows::parse_day(&form.motivo_de, "motivo_de")?,
                to: outorga_web::workflows::parse_day(&form.motivo_ate, "motivo_ate")?,
            }],
        };
        state
            .store
            .lose_stand_for_downtime(
                change,
                rulebook,
                &j,
                (form.servico.trim(), number),
                (from, to),
                &excused,
            )
            .await?;
        Ok(())
    })
    .await
}

/// The notice to the holder that the permit's fixed stand will be moved,
/// where the law requires one before the move (SMJ art. 28, § 1º): the
/// stand it would move to, the act, the grounds and the day notified.
pub(crate) async fn notify(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(form): Form<StandForm>,
) -> Response {
    let who = (
        form.csrf.as_str(),
        "notificacao",
        "notificação de mudança de ponto pela tela",
    );
    act(&state, &signed, &j, who, async |rulebook, change| {
        let input = NoticeInput {
            service: form.servico.trim().to_string(),
            number: permit_number(&form.numero)?,
            destination: form.ponto.clone(),
            act: form.ato.clone(),
            grounds: form.fundamentos.clone(),
            notified_on: outorga_web::workflows::parse_day(&form.data, "data")?,
        };
        state
            .store
            .notify_stand_relocation(change, rulebook, &j, &input)
            .await?;
        Ok(())
    })
    .await
}

/// The board's decision on an appeal against a draw's result: `prover`
/// (granted) or `negar` (denied), with its words.
pub(crate) async fn decide_appeal(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Form(form): Form<StandForm>,
) -> Response {
    let who = (
        form.csrf.as_str(),
        "recurso_decidido",
        "decisão de recurso contra sorteio pela tela",
    );
    act_as(
        &state,
        &signed,
        &j,
        Board::admits,
        who,
        async |rulebook, change| {
            let granted = match form.decisao.as_str() {
                "prover" => true,
                "negar" => false,
                _ => {
                    return Err(ApiError::field(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        "decisao",
                        "escolha dar ou negar provimento ao recurso",
                    ));
                }
            };
            state
                .store
                .decide_draw_appeal(
                    change,
                    rulebook,
                    &j,
                    ((year, number), seq),
                    (granted, &form.fundamentos),
                )
                .await?;
            Ok(())
        },
    )
    .await
}

/// Authorizes or refuses a swap.
pub(crate) async fn decide_swap(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number)): Path<(String, i32, i64)>,
    Form(form): Form<StandForm>,
) -> Response {
    let who = (
        form.csrf.as_str(),
        "permuta",
        "decisão de permuta pela tela",
    );
    act(&state, &signed, &j, who, async |rulebook, change| {
        let approve = match form.decisao.as_str() {
            "autorizar" => true,
            "indeferir" => false,
            _ => {
                return Err(ApiError::field(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "decisao",
                    "escolha autorizar ou indeferir",
                ));
            }
        };
        state
            .store
            .decide_stand_swap(
                change,
                rulebook,
                &j,
                (year, number),
                (approve, &form.fundamentos),
            )
            .await?;
        Ok(())
    })
    .await
}

/// Opens a stand's vacancy draw.
pub(crate) async fn open_draw(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(form): Form<StandForm>,
) -> Response {
    let who = (form.csrf.as_str(), "sorteio", "sorteio de vaga pela tela");
    act(&state, &signed, &j, who, async |rulebook, change| {
        let input = DrawInput {
            stand: form.ponto.clone(),
            seed_source: form.fonte.clone(),
            seed_on: outorga_web::workflows::parse_day(&form.data, "data")?,
        };
        state
            .store
            .open_stand_draw(change, rulebook, &j, &input)
            .await?;
        Ok(())
    })
    .await
}

/// A step of a draw: `inscrever` a permit, `fechar` the list, `sortear`
/// with the seed.
pub(crate) async fn draw_step(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, step)): Path<(String, i32, i64, String)>,
    Form(form): Form<StandForm>,
) -> Response {
    let (feito, why) = match step.as_str() {
        "inscrever" => ("inscricao", "inscrição em sorteio pela tela"),
        "fechar" => ("lista", "lista de sorteio fechada pela tela"),
        "sortear" => ("resultado", "sorteio realizado pela tela"),
        "recorrer" => ("recurso", "recurso contra sorteio pela tela"),
        _ => {
            return page(
                StatusCode::NOT_FOUND,
                &ErrorPage {
                    user: Some(Bar::of(&signed)),
                    title: "Página não encontrada",
                    message: "O sorteio se faz em três passos: inscrever, fechar a lista, sortear; \
                              do resultado, recorre-se.",
                },
            );
        }
    };
    let key = (year, number);
    act(
        &state,
        &signed,
        &j,
        (form.csrf.as_str(), feito, why),
        async |rulebook, change| {
            match step.as_str() {
                "inscrever" => {
                    let permit = (form.servico.trim(), permit_number(&form.numero)?);
                    state
                        .store
                        .enter_draw(change, rulebook, &j, key, permit)
                        .await?;
                }
                "fechar" => {
                    state.store.close_draw(change, rulebook, &j, key).await?;
                }
                "recorrer" => {
                    let (appellant, _) =
                        outorga_store::parse_document(&form.recorrente).map_err(|e| match e {
                            StoreError::Invalid { reason, .. } => ApiError::field(
                                StatusCode::UNPROCESSABLE_ENTITY,
                                "recorrente",
                                reason,
                            ),
                            other => ApiError::from(other),
                        })?;
                    state
                        .store
                        .appeal_draw(change, rulebook, &j, key, (&appellant, &form.fundamentos))
                        .await?;
                }
                _ => {
                    state
                        .store
                        .run_draw(change, rulebook, &j, key, &form.semente)
                        .await?;
                }
            }
            Ok(())
        },
    )
    .await
}

fn draw_row(d: &Draw) -> DrawRow {
    DrawRow {
        code: d.status.name(),
        year: d.year,
        number: d.number,
        label: d.label(),
        subject: d.what(),
        status: d.status.portuguese().to_string(),
        seed_on: format::day(d.seed_on),
        appeals: d
            .appeals
            .iter()
            .map(|a| AppealRow {
                seq: a.seq,
                appellant: format::document(&a.appellant),
                filed: format::day(a.filed_on),
                grounds: a.grounds.clone(),
                status: a.status.portuguese().to_string(),
                decision: match (&a.decision, a.decided_on) {
                    (Some(words), Some(on)) => format!("{words} ({})", format::day(on)),
                    _ => String::new(),
                },
                open: a.status == AppealStatus::Filed,
            })
            .collect(),
    }
}

/// What the law of `rulebook` provides for its stands, for the forms.
fn law_notes(rulebook: Option<&Rulebook>) -> LawNotes {
    let Some((rulebook, rules)) = rulebook.and_then(|r| r.stands.as_ref().map(|s| (r, s))) else {
        return LawNotes::default();
    };
    let loss = rulebook
        .downtime
        .as_ref()
        .and_then(|d| d.bands.iter().find(|b| b.loses_stand))
        .map(|band| band.citation.clone());
    LawNotes {
        name: format!("a lei de {}", rulebook.jurisdiction.name),
        relocation: rules.relocation.clone(),
        notice: rules.relocation_notice.clone(),
        request: rules.holder_request.clone(),
        swaps: rules.swap_consent.clone(),
        lottery: rules.lottery.clone(),
        excuses: match (&loss, &rulebook.downtime) {
            (Some(_), Some(downtime)) => downtime
                .excuses
                .iter()
                .map(|e| (e.key.clone(), format!("{} ({})", e.description, e.citation)))
                .collect(),
            _ => Vec::new(),
        },
        loss,
    }
}

/// The staff's page of stands on a day (today when none is asked).
pub(crate) async fn list(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<DayAsked>,
) -> Response {
    let done = asked
        .feito
        .as_deref()
        .and_then(done_words)
        .map(str::to_string);
    stands_page(&state, &signed, &j, asked.dia.as_deref(), (done, None)).await
}

/// What a form did, as the page says it after the redirect.
fn done_words(feito: &str) -> Option<&'static str> {
    Some(match feito {
        "designacao" => "Ponto designado.",
        "permuta" => "Permuta decidida.",
        "sorteio" => "Sorteio aberto: inscreva os interessados.",
        "inscricao" => "Interessado inscrito no sorteio.",
        "lista" => "Lista fechada e publicada com o seu SHA-256.",
        "resultado" => "Sorteio realizado: o resultado está publicado.",
        "perda" => "Ponto fixo retirado pelos dias de veículo parado.",
        "notificacao" => {
            "Notificação registrada: o remanejamento só depois do prazo de resposta do titular."
        }
        "recurso" => "Recurso contra o resultado do sorteio registrado.",
        "recurso_decidido" => "Recurso contra o sorteio decidido.",
        _ => return None,
    })
}

/// The page of stands on `day` (today when none), with what was done or
/// why a form was refused.
async fn stands_page(
    state: &AppState,
    signed: &Signed,
    j: &str,
    day: Option<&str>,
    (done, error): (Option<String>, Option<(String, String)>),
) -> Response {
    let place = match place(state, signed, j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let j = place.id.clone();
    let today = outorga_web::workflows::today_in(state, &j);
    let day = day
        .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
        .unwrap_or(today);
    let read = async {
        let stands = state.store.stands(&j, Window::first(200)).await?.items;
        let fixed: Vec<(String, String)> = stands
            .iter()
            .filter(|s| s.capacity.is_some())
            .map(|s| (s.code.clone(), s.name.clone()))
            .collect();
        let mut rows = Vec::new();
        for stand in stands {
            let found = state.store.stand_occupancy(&j, &stand.code, day).await?;
            let kind = match (stand.capacity, stand.opens_on, stand.closes_on) {
                (Some(n), _, _) => format!("fixo, {n} vagas"),
                (None, Some(from), Some(to)) => format!(
                    "provisório de evento, de {} a {}",
                    format::day(from),
                    format::day(to)
                ),
                _ => "livre".to_string(),
            };
            rows.push(StandRow {
                code: stand.code,
                name: stand.name,
                kind,
                act: stand.act.unwrap_or_default(),
                free: found.vacancies.map_or("—".into(), |v| v.to_string()),
                occupants: found
                    .occupants
                    .into_iter()
                    .map(|p| {
                        (
                            format!("{} nº {}", p.service.replace('_', " "), p.number),
                            format::document(&p.holder),
                            format::day(p.from),
                            format!("{} ({})", p.came_by.portuguese(), p.act),
                        )
                    })
                    .collect(),
            });
        }
        let swaps = state
            .store
            .pending_stand_swaps(&j, Window::first(200))
            .await?
            .items
            .into_iter()
            .map(|s| SwapRow {
                year: s.year,
                number: s.number,
                label: s.label(),
                permits: format!("nº {} ({}) ⇄ nº {} ({})", s.a.0, s.a.1, s.b.0, s.b.1),
                asked: format::day(s.requested_on),
                consent: s.consent.map_or("não registrada".into(), |(by, on)| {
                    format!("{by}, em {}", format::day(on))
                }),
            })
            .collect();
        let mut draws = Vec::new();
        for listed in state.store.draws(&j, Window::first(20)).await?.items {
            draws.push(if listed.status == DrawStatus::Drawn {
                draw_row(&state.store.draw(&j, (listed.year, listed.number)).await?)
            } else {
                draw_row(&listed)
            });
        }
        Ok::<_, StoreError>((rows, fixed, swaps, draws))
    };
    let (stands, fixed, swaps, draws) = match read.await {
        Ok(found) => found,
        Err(error) => {
            tracing::error!(%error, "the stands could not be read");
            return failure();
        }
    };
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    page(
        status,
        &StandsPage {
            user: Some(Bar::of(signed)),
            clerk: Clerk::admits(signed.user.role),
            board: Board::admits(signed.user.role),
            law: law_notes(stand_rulebook(state, &j).await.ok()),
            csrf: signed.csrf(),
            done,
            error,
            fixed,
            services: crate::forms::service_choices(&place, "", None),
            j: place.id.clone(),
            place: place.name.clone(),
            day: format::day(day),
            day_iso: day.to_string(),
            stands,
            swaps,
            draws,
        },
    )
}

/// A participant as the public page shows it.
struct Shown {
    position: String,
    label: String,
    name: String,
    document: String,
    ticket: String,
}

#[derive(Template)]
#[template(path = "sorteio.html")]
struct DrawPage {
    user: Option<Bar>,
    j: String,
    draw: DrawRow,
    /// The call whose tie it breaks: (year, number).
    call: Option<(String, String)>,
    seed_source: String,
    closed_on: String,
    list_hash: String,
    seed: String,
    drawn_on: String,
    articles: String,
    listed: Vec<String>,
    shown: Vec<Shown>,
    appeals: Vec<(String, String, String)>,
    list_algorithm: &'static str,
    algorithm: &'static str,
    script: &'static str,
}

/// A draw as anyone checks it (no sign-in).
pub(crate) async fn public(
    _: PublicLookup,
    State(state): State<AppState>,
    Path((j, year, number)): Path<(String, i32, i64)>,
) -> Response {
    let draw = match state.store.draw(&j, (year, number)).await {
        Ok(draw) => draw,
        Err(StoreError::NotFound(_)) => {
            return page(
                StatusCode::NOT_FOUND,
                &ErrorPage {
                    user: None,
                    title: "Sorteio não encontrado",
                    message: "Confira o endereço: o número e o ano do sorteio, e o município.",
                },
            );
        }
        Err(error) => {
            tracing::error!(%error, "a draw could not be read");
            return failure();
        }
    };
    let mut shown: Vec<Shown> = draw
        .participants
        .iter()
        .map(|p| Shown {
            position: p.position.map_or("—".into(), |n| format!("{n}º")),
            label: p.label.clone(),
            name: masked_name(&p.name),
            document: masked_document(&p.who),
            ticket: p.ticket.clone().unwrap_or_default(),
        })
        .collect();
    shown.sort_by_key(|s| {
        draw.participants
            .iter()
            .find(|p| p.label == s.label)
            .and_then(|p| p.position)
            .unwrap_or(u32::MAX)
    });
    page(
        StatusCode::OK,
        &DrawPage {
            user: None,
            j: j.clone(),
            draw: draw_row(&draw),
            call: draw
                .subject
                .strip_prefix("call:")
                .and_then(|k| k.split_once(':'))
                .map(|(y, n)| (y.to_string(), n.to_string())),
            seed_source: draw.seed_source.clone(),
            closed_on: format::maybe_day(draw.closed_on),
            list_hash: draw.list_hash.clone().unwrap_or_default(),
            seed: draw.seed.clone().unwrap_or_default(),
            drawn_on: format::maybe_day(draw.drawn_on),
            articles: draw.articles.join("; "),
            listed: draw.participants.iter().map(|p| p.label.clone()).collect(),
            shown,
            appeals: draw
                .appeals
                .iter()
                .map(|a| {
                    (
                        format::day(a.filed_on),
                        a.status.portuguese().to_string(),
                        a.decision.clone().unwrap_or_default(),
                    )
                })
                .collect(),
            list_algorithm: LIST_ALGORITHM,
            algorithm: ALGORITHM,
            script: SCRIPT,
        },
    )
}
