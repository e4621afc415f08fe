//! The staff's side of the holder's space: a person's first-access code,
//! printed by a clerk as a letter to hand over (`POST
//! /j/{j}/pessoas/{documento}/codigo-de-acesso`); the petitions the
//! holders filed (`/j/{j}/requerimentos`), each with its text and
//! attachments, and a clerk's answer to a renewal request. A defense or an
//! appeal filed online is already the auto's step: the board finds the
//! auto in its queue, and its page lists the petition.

use crate::format;
use crate::forms::{Listed, list_status, listed};
use crate::pages::{Bar, failure, page};
use crate::place::{place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, Petition, PetitionStatus, StoreError};
use outorga_web::AppState;
use outorga_web::auth::Clerk;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "codigo-acesso.html")]
struct LetterPage {
    user: Option<Bar>,
    j: String,
    place: String,
    name: String,
    document: String,
    bare: String,
    code: String,
    expires: String,
    address: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// Prints a first-access code for the person: the letter to hand over.
pub(crate) async fn access_code(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    Form(form): Form<CsrfForm>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "código de primeiro acesso impresso no atendimento",
    };
    match state
        .store
        .issue_access_code(&change, &place.id, &document)
        .await
    {
        Ok(code) => page(
            StatusCode::OK,
            &LetterPage {
                user: Some(Bar::of(&signed)),
                j: place.id.clone(),
                place: place.name.clone(),
                name: code.name,
                document: format::document(&code.document),
                bare: code.document.clone(),
                code: code.code,
                expires: format::day(code.expires_at.date()),
                address: format!("{}/titular/primeiro-acesso", state.public_url),
            },
        ),
        Err(StoreError::Invalid { reason, .. }) | Err(StoreError::NotFound(reason)) => refusal(
            &signed,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Código não emitido",
            &reason,
        ),
        Err(error) => {
            tracing::error!(%error, "a first-access code could not be issued");
            failure()
        }
    }
}

/// A petition as the queue shows it.
struct Row {
    protocol: String,
    kind: &'static str,
    document: String,
    bare: String,
    about: String,
    about_link: String,
    filed: String,
    status: &'static str,
    received: bool,
    text: String,
    answer: Option<String>,
    handled_by: Option<String>,
    files: Vec<(i64, String, String)>,
}

fn row(j: &str, petition: Petition) -> Row {
    let (about, about_link) = match (&petition.auto, &petition.permit) {
        (Some((year, number)), _) => (
            format!("auto nº {number}/{year}"),
            format!("/j/{j}/autos/{year}/{number}"),
        ),
        (_, Some((service, number))) => (
            format!("permissão nº {number}"),
            format!("/j/{j}/permissoes/{service}/{number}"),
        ),
        _ => (String::new(), String::new()),
    };
    Row {
        kind: petition.kind.portuguese(),
        document: format::document(&petition.document),
        bare: petition.document.clone(),
        about,
        about_link,
        filed: format!(
            "{} às {}",
            format::day(petition.filed_at.date()),
            petition.filed_at.format("%H:%M")
        ),
        status: petition.status.portuguese(),
        received: petition.status == PetitionStatus::Received,
        text: petition.text,
        answer: petition.answer,
        handled_by: petition.handled_by,
        files: petition
            .files
            .into_iter()
            .map(|f| (f.seq, f.name, format::size(f.size)))
            .collect(),
        protocol: petition.protocol,
    }
}

#[derive(Template)]
#[template(path = "requerimentos.html")]
struct QueuePage {
    user: Option<Bar>,
    j: String,
    place: String,
    status: &'static str,
    statuses: Vec<(&'static str, &'static str)>,
    list: Listed<Row>,
    clerk: bool,
    notice: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct QueueAsked {
    situacao: Option<String>,
    cursor: Option<String>,
    feito: Option<String>,
}

/// The jurisdiction's petitions, those waiting first.
pub(crate) async fn queue(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<QueueAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    // Those waiting, unless another status (or none: every one) is asked.
    let status = match asked.situacao.as_deref() {
        None => Some(PetitionStatus::Received),
        Some(text) => PetitionStatus::parse(text),
    };
    let id = place.id.clone();
    let listed = listed(
        asked.cursor,
        20,
        async |window| {
            let page = state.store.petitions(&id, status, window).await?;
            // Each with its files (a page holds 20).
            let mut items = Vec::with_capacity(page.items.len());
            for petition in page.items {
                let full = state.store.petition(&petition.protocol).await?;
                items.push(full.unwrap_or(petition));
            }
            Ok(outorga_store::Page {
                items,
                next: page.next,
            })
        },
        |petition| row(&id, petition),
    )
    .await;
    let listed = match listed {
        Ok(listed) => listed,
        Err(failed) => return failed,
    };
    page(
        list_status(&listed),
        &QueuePage {
            user: Some(Bar::of(&signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            status: status.map_or("", |s| s.name()),
            statuses: PetitionStatus::ALL
                .iter()
                .map(|s| (s.name(), s.portuguese()))
                .collect(),
            list: listed,
            clerk: Clerk::admits(signed.user.role),
            notice: asked
                .feito
                .map(|protocol| format!("Resposta registrada no pedido {protocol}.")),
        },
    )
}

#[derive(Debug, Deserialize)]
pub(crate) struct AnswerForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    resposta: String,
}

/// A clerk's answer to a petition.
pub(crate) async fn answer(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, protocol)): Path<(String, String)>,
    Form(form): Form<AnswerForm>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "resposta a pedido do espaço do titular",
    };
    match state
        .store
        .answer_petition(&change, &place.id, &protocol, &form.resposta)
        .await
    {
        Ok(petition) => Redirect::to(&format!(
            "/j/{}/requerimentos?feito={}",
            place.id, petition.protocol
        ))
        .into_response(),
        Err(StoreError::Invalid { reason, .. }) | Err(StoreError::NotFound(reason)) => refusal(
            &signed,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Resposta não registrada",
            &reason,
        ),
        Err(error) => {
            tracing::error!(%error, "a petition could not be answered");
            failure()
        }
    }
}

/// An attachment of a petition, downloaded (never shown inline: a file
/// sent by anyone is not opened in the application's origin).
pub(crate) async fn attachment(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, protocol, seq)): Path<(String, String, i64)>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    let missing = || {
        refusal(
            &signed,
            StatusCode::NOT_FOUND,
            "Anexo não encontrado",
            "Não há anexo com este número neste pedido.",
        )
    };
    match state.store.petition(&protocol).await {
        Ok(Some(p)) if p.jurisdiction == j => {}
        Ok(_) => return missing(),
        Err(error) => {
            tracing::error!(%error, "a petition could not be read");
            return failure();
        }
    }
    match state.store.petition_file(&protocol, seq).await {
        Ok(Some((name, kind, bytes))) => {
            outorga_web::workflows::attachment_file(&name, &kind, bytes)
        }
        Ok(None) => missing(),
        Err(error) => {
            tracing::error!(%error, "an attachment could not be read");
            failure()
        }
    }
}
