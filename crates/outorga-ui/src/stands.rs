//! Stands and public draws on the pages. Staff: `/j/{j}/pontos` — each
//! stand with who holds its places on a day (any past day too), the places
//! free, the swaps waiting for a decision and the draws. Public:
//! `/sorteios/{j}/{ano}/{numero}` — a draw as anyone checks it: the closed
//! list and its SHA-256, the seed's public source, the seed, each ticket
//! and the order, names abbreviated and CPFs masked (LGPD), and the recipe
//! and script that recompute it. Both read the store functions the API
//! reads (`stand_occupancy`, `pending_stand_swaps`, `draws`, `draw`).

use crate::format;
use crate::pages::{Bar, ErrorPage, failure, page};
use crate::place::place;
use crate::session::Signed;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use outorga_core::engine::draw::{ALGORITHM, LIST_ALGORITHM};
use outorga_store::words::{masked_document, masked_name};
use outorga_store::{Draw, StoreError, Window};
use outorga_web::AppState;
use outorga_web::limits::PublicLookup;
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
    label: String,
    permits: String,
    asked: String,
    consent: String,
}

/// A draw in the list.
struct DrawRow {
    year: i32,
    number: i64,
    label: String,
    subject: String,
    status: String,
    seed_on: String,
}

#[derive(Template)]
#[template(path = "pontos.html")]
struct StandsPage {
    user: Option<Bar>,
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
}

fn draw_row(d: &Draw) -> DrawRow {
    DrawRow {
        year: d.year,
        number: d.number,
        label: d.label(),
        subject: d
            .subject
            .strip_prefix("stand:")
            .map_or_else(|| d.subject.clone(), |s| format!("ponto {s}")),
        status: d.status.portuguese().to_string(),
        seed_on: format::day(d.seed_on),
    }
}

/// The staff's page of stands on a day (today when none is asked).
pub(crate) async fn list(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<DayAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let today = outorga_web::workflows::today_in(&state, &j);
    let day = asked
        .dia
        .as_deref()
        .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
        .unwrap_or(today);
    let read = async {
        let stands = state.store.stands(&j, Window::first(200)).await?.items;
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
            .pending_stand_swaps(&j)
            .await?
            .into_iter()
            .map(|s| SwapRow {
                label: s.label(),
                permits: format!("nº {} ({}) ⇄ nº {} ({})", s.a.0, s.a.1, s.b.0, s.b.1),
                asked: format::day(s.requested_on),
                consent: s.consent.map_or("não registrada".into(), |(by, on)| {
                    format!("{by}, em {}", format::day(on))
                }),
            })
            .collect();
        let draws = state
            .store
            .draws(&j, Window::first(20))
            .await?
            .items
            .iter()
            .map(draw_row)
            .collect();
        Ok::<_, StoreError>((rows, swaps, draws))
    };
    let (stands, swaps, draws) = match read.await {
        Ok(found) => found,
        Err(error) => {
            tracing::error!(%error, "the stands could not be read");
            return failure();
        }
    };
    page(
        StatusCode::OK,
        &StandsPage {
            user: Some(Bar::of(&signed)),
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
    places: u32,
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
            places: draw.places,
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
