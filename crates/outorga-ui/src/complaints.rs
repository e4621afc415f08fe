//! Complaints (denúncias). The public form (`/denuncia`, no sign-in): what,
//! when, where, the plate or the line, an optional contact; the answer is
//! the protocol, and `/denuncia/{protocolo}` says where it stands. The
//! inspectors' queue (`/j/{j}/denuncias`): each complaint with its facts
//! and a form to mark it under review, turned into an auto (its number) or
//! closed with the reason. Through `outorga_web::workflows`, as
//! `POST /api/public/jurisdictions/{j}/complaints` and
//! `POST …/complaints/{protocolo}` do.

use crate::autos::form_error;
use crate::format;
use crate::forms::{Listed, given, list_status, listed};
use crate::pages::{Bar, failure, page};
use crate::place::{place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, Complaint, ComplaintKind, ComplaintStatus, TripComplaint};
use outorga_web::auth::Examiner;
use outorga_web::limits::PublicLookup;
use outorga_web::workflows::{
    DenunciaEntrada, TratamentoEntrada, ViagemEntrada, complaint_by_protocol, complaint_status,
    file_complaint, handle_complaint,
};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Asked {
    #[serde(default)]
    jurisdicao: String,
    #[serde(default)]
    tipo: String,
    #[serde(default)]
    quando: String,
    #[serde(default)]
    local: String,
    #[serde(default)]
    placa: String,
    #[serde(default)]
    linha: String,
    #[serde(default)]
    descricao: String,
    #[serde(default)]
    contato: String,
    #[serde(default)]
    partida: String,
    #[serde(default)]
    bilhete: String,
    #[serde(default)]
    poltrona: String,
    #[serde(default)]
    pedido_em: String,
    #[serde(default)]
    reclamada_em: String,
    #[serde(default)]
    paga_em: String,
    #[serde(default)]
    tarifa: String,
    #[serde(default)]
    kg_bagageiro: String,
    #[serde(default)]
    kg_mao: String,
    #[serde(default)]
    cobrado: String,
}

impl Asked {
    /// The trip told, for a complaint about a bus trip.
    fn trip(&self) -> Result<Option<ViagemEntrada>, ApiError> {
        let trip = ComplaintKind::parse(self.tipo.trim()).and_then(ComplaintKind::trip);
        if trip.is_none() {
            return Ok(None);
        }
        let poltrona = match given(&self.poltrona) {
            None => None,
            Some(seat) => Some(seat.parse::<u32>().map_err(|_| {
                ApiError::field(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "poltrona",
                    "a poltrona é um número, como 12",
                )
            })?),
        };
        Ok(Some(ViagemEntrada {
            partida: given(&self.partida),
            bilhete: given(&self.bilhete),
            poltrona,
            pedido_em: given(&self.pedido_em),
            reclamada_em: given(&self.reclamada_em),
            paga_em: given(&self.paga_em),
            tarifa: given(&self.tarifa),
            kg_bagageiro: given(&self.kg_bagageiro),
            kg_mao: given(&self.kg_mao),
            cobrado: given(&self.cobrado),
        }))
    }
}

/// The law's answer to a complaint about a trip, as people read it.
#[derive(Debug)]
pub(crate) struct Answer {
    findings: Vec<String>,
    limit: String,
    due: String,
    verdict: &'static str,
    infraction: String,
    citations: String,
}

impl Answer {
    fn of(trip: &TripComplaint) -> Answer {
        let a = &trip.answer;
        Answer {
            findings: a.findings.clone(),
            limit: a
                .limit
                .map(|v| format::money(&v.to_string()))
                .unwrap_or_default(),
            due: a.due.map(format::day).unwrap_or_default(),
            verdict: a.verdict().map_or("", |v| v.portuguese()),
            infraction: format!("{} — {}", a.infraction, a.infraction_text),
            citations: a.citations.join("; "),
        }
    }
}

#[derive(Template)]
#[template(path = "denuncia.html")]
struct ComplaintPage {
    user: Option<Bar>,
    jurisdictions: Vec<(String, String)>,
    /// The kinds about any service, then those about a bus trip.
    kinds: Vec<(&'static str, &'static str)>,
    trip_kinds: Vec<(&'static str, &'static str)>,
    asked: Asked,
    /// The field refused and why.
    error: Option<(String, String)>,
    /// A complaint filed or followed: (protocol, kind, received, status).
    filed: Option<(String, &'static str, String, &'static str)>,
    /// A complaint about a trip: the law's answer.
    answer: Option<Answer>,
    /// Just filed now.
    fresh: bool,
}

/// The kinds of complaint, those about a bus trip (`trip`) or the others.
fn kinds(trip: bool) -> Vec<(&'static str, &'static str)> {
    ComplaintKind::ALL
        .iter()
        .filter(|k| k.trip().is_some() == trip)
        .map(|k| (k.name(), k.portuguese()))
        .collect()
}

fn form_page(
    status: StatusCode,
    jurisdictions: Vec<(String, String)>,
    asked: Asked,
    error: Option<(String, String)>,
) -> Response {
    page(
        status,
        &ComplaintPage {
            user: None,
            jurisdictions,
            kinds: kinds(false),
            trip_kinds: kinds(true),
            asked,
            error,
            filed: None,
            answer: None,
            fresh: false,
        },
    )
}

/// The form.
pub(crate) async fn form(_: PublicLookup, State(state): State<AppState>) -> Response {
    match crate::place::jurisdiction_choices(&state).await {
        Ok(list) => form_page(StatusCode::OK, list, Asked::default(), None),
        Err(failed) => failed,
    }
}

/// Files the complaint; its page, with the protocol, follows.
pub(crate) async fn file(
    _: PublicLookup,
    _: outorga_web::limits::PublicFiling,
    State(state): State<AppState>,
    Form(asked): Form<Asked>,
) -> Response {
    let list = match crate::place::jurisdiction_choices(&state).await {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    if !list.iter().any(|(id, _)| *id == asked.jurisdicao) {
        let error = (
            "jurisdicao".to_string(),
            "Escolha o município ou o estado.".to_string(),
        );
        return form_page(StatusCode::UNPROCESSABLE_ENTITY, list, asked, Some(error));
    }
    let viagem = match asked.trip() {
        Ok(trip) => trip,
        Err(error) => {
            let status = error.status;
            return form_page(status, list, asked, Some(form_error(&error)));
        }
    };
    let input = DenunciaEntrada {
        viagem,
        tipo: asked.tipo.clone(),
        descricao: asked.descricao.clone(),
        quando: asked.quando.clone(),
        local: asked.local.clone(),
        placa: given(&asked.placa),
        linha: given(&asked.linha),
        contato: given(&asked.contato),
    };
    match file_complaint(&state, &asked.jurisdicao, &input).await {
        Ok(complaint) => {
            Redirect::to(&format!("/denuncia/{}?nova=1", complaint.protocol)).into_response()
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a complaint could not be filed");
            failure()
        }
        Err(error) => {
            let status = error.status;
            form_page(status, list, asked, Some(form_error(&error)))
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Fresh {
    nova: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Find {
    #[serde(default)]
    protocolo: String,
}

/// The form's protocol, to its page.
pub(crate) async fn find(Query(asked): Query<Find>) -> Response {
    let code = crate::forms::code_in_path(&asked.protocolo);
    if code.is_empty() {
        return Redirect::to("/denuncia").into_response();
    }
    Redirect::to(&format!("/denuncia/{code}")).into_response()
}

/// Where a complaint stands, by its protocol.
pub(crate) async fn follow(
    _: PublicLookup,
    State(state): State<AppState>,
    Path(protocolo): Path<String>,
    Query(fresh): Query<Fresh>,
) -> Response {
    let list = match crate::place::jurisdiction_choices(&state).await {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    match complaint_by_protocol(&state, &protocolo).await {
        Ok(c) => page(
            StatusCode::OK,
            &ComplaintPage {
                user: None,
                jurisdictions: list,
                kinds: kinds(false),
                trip_kinds: kinds(true),
                asked: Asked::default(),
                error: None,
                answer: c.trip.as_ref().map(Answer::of),
                filed: Some((
                    c.protocol,
                    c.kind.portuguese(),
                    c.received_at.format("%d/%m/%Y %H:%M").to_string(),
                    c.status.portuguese(),
                )),
                fresh: fresh.nova.is_some(),
            },
        ),
        Err(error) if error.status == StatusCode::NOT_FOUND => page(
            StatusCode::NOT_FOUND,
            &crate::pages::ErrorPage {
                user: None,
                title: "Denúncia não encontrada",
                message: &error.body.erro,
            },
        ),
        Err(error) => {
            tracing::error!(erro = %error.body.erro, "a complaint could not be read");
            failure()
        }
    }
}

/// A complaint as the queue shows it.
#[derive(Debug)]
pub(crate) struct Row {
    protocol: String,
    kind: &'static str,
    status: &'static str,
    open: bool,
    received: String,
    occurred: String,
    place: String,
    plate: String,
    line: String,
    contact: String,
    description: String,
    note: String,
    auto: Option<(i32, i64)>,
    /// A complaint about a trip: what was told of it, and the law's answer.
    trip: Vec<(&'static str, String)>,
    answer: Option<Answer>,
}

/// What a passenger told of a trip, labelled.
fn trip_facts(trip: &TripComplaint) -> Vec<(&'static str, String)> {
    let f = &trip.facts;
    let moment =
        |m: Option<chrono::NaiveDateTime>| m.map(|m| m.format("%d/%m/%Y %H:%M").to_string());
    let kg = |v: Option<String>| v.map(|v| format!("{} kg", format::decimal(&v)));
    let money = |v: Option<String>| v.map(|v| format::money(&v));
    fn text<T: ToString>(value: Option<T>) -> Option<String> {
        value.map(|v| v.to_string())
    }
    [
        ("Partida", moment(f.departs)),
        ("Bilhete", f.ticket.clone()),
        ("Poltrona", text(f.seat)),
        ("Pediu a devolução em", moment(f.requested_at)),
        ("Reclamou a bagagem em", f.claimed_on.map(format::day)),
        ("Indenização paga em", f.paid_on.map(format::day)),
        ("Tarifa convencional", money(text(f.fare))),
        ("Bagageiro", kg(text(f.hold_kg))),
        ("Porta-embrulhos", kg(text(f.hand_kg))),
        ("Cobrado pelo excesso", money(text(f.charged))),
    ]
    .into_iter()
    .filter_map(|(label, value)| value.map(|v| (label, v)))
    .collect()
}

impl Row {
    fn of(c: Complaint) -> Row {
        Row {
            open: matches!(
                c.status,
                ComplaintStatus::Received | ComplaintStatus::InReview
            ),
            protocol: c.protocol,
            kind: c.kind.portuguese(),
            status: c.status.portuguese(),
            received: c.received_at.format("%d/%m/%Y %H:%M").to_string(),
            occurred: c.occurred_at.format("%d/%m/%Y %H:%M").to_string(),
            place: c.place,
            plate: c.plate.unwrap_or_default(),
            line: c.line.unwrap_or_default(),
            contact: c.contact.unwrap_or_default(),
            description: c.description,
            note: c.note.unwrap_or_default(),
            auto: c.auto,
            trip: c.trip.as_ref().map(trip_facts).unwrap_or_default(),
            answer: c.trip.as_ref().map(Answer::of),
        }
    }
}

#[derive(Template)]
#[template(path = "denuncias.html")]
struct QueuePage {
    user: Option<Bar>,
    j: String,
    place: String,
    today: String,
    /// The status shown ("" for all).
    status: String,
    statuses: Vec<(&'static str, &'static str)>,
    list: Listed<Row>,
    /// The user may work the complaints.
    examiner: bool,
    notice: Option<String>,
    /// The complaint whose form was refused, the field and why.
    error: Option<(String, String, String)>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct QueueAsked {
    situacao: Option<String>,
    cursor: Option<String>,
    feito: Option<String>,
}

/// The inspectors' queue of complaints.
pub(crate) async fn queue(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<QueueAsked>,
) -> Response {
    queue_page(&state, &signed, &j, asked, None).await
}

async fn queue_page(
    state: &AppState,
    signed: &Signed,
    j: &str,
    asked: QueueAsked,
    error: Option<(String, String, String)>,
) -> Response {
    let place = match place(state, signed, j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    // Every complaint, the oldest first, unless a status is asked for.
    let status = complaint_status(asked.situacao.as_deref()).unwrap_or_default();
    let list = match listed(
        asked.cursor,
        50,
        async |window| state.store.complaints(&place.id, status, window).await,
        Row::of,
    )
    .await
    {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    let code = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        list_status(&list)
    };
    page(
        code,
        &QueuePage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            today: format::day(place.today),
            status: status.map_or_else(String::new, |s| s.name().to_string()),
            statuses: ComplaintStatus::ALL
                .iter()
                .map(|s| (s.name(), s.portuguese()))
                .collect(),
            list,
            examiner: Examiner::admits(signed.user.role),
            notice: asked.feito.map(|p| format!("Denúncia {p} atualizada.")),
            error,
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct HandleAsked {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    situacao: String,
    #[serde(default)]
    nota: String,
    #[serde(default)]
    auto_numero: String,
    #[serde(default)]
    auto_ano: String,
}

/// Records how an inspector handles the complaint.
pub(crate) async fn handle(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, protocolo)): Path<(String, String)>,
    Form(asked): Form<HandleAsked>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &asked.csrf, Examiner::admits) {
        return *refused;
    }
    let auto = match (given(&asked.auto_ano), given(&asked.auto_numero)) {
        (Some(year), Some(number)) => match (year.parse::<i32>(), number.parse::<i64>()) {
            (Ok(year), Ok(number)) => Some((year, number)),
            _ => {
                let error = ApiError::field(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "auto",
                    "o número e o ano do auto são números, como 7 e 2026",
                );
                return refused_form(&state, &signed, &j, &protocolo, &error).await;
            }
        },
        _ => None,
    };
    let input = TratamentoEntrada {
        situacao: asked.situacao.clone(),
        nota: given(&asked.nota),
        auto,
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "denúncia tratada pela tela",
    };
    match handle_complaint(&state, &change, &j, &protocolo, &input).await {
        Ok(c) => Redirect::to(&format!(
            "/j/{j}/denuncias?situacao={}&feito={}",
            c.status.name(),
            c.protocol
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a complaint could not be handled");
            failure()
        }
        Err(error) if error.status == StatusCode::NOT_FOUND => refusal(
            &signed,
            StatusCode::NOT_FOUND,
            "Denúncia não encontrada",
            &error.body.erro,
        ),
        Err(error) => refused_form(&state, &signed, &j, &protocolo, &error).await,
    }
}

async fn refused_form(
    state: &AppState,
    signed: &Signed,
    j: &str,
    protocol: &str,
    error: &ApiError,
) -> Response {
    let (field, message) = form_error(error);
    queue_page(
        state,
        signed,
        j,
        QueueAsked {
            situacao: Some(String::new()),
            ..QueueAsked::default()
        },
        Some((protocol.to_string(), field, message)),
    )
    .await
}
