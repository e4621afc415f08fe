//! What the public reads of a jurisdiction's service, without signing in
//! (`/tarifas/{j}`; `/tarifas` lists the jurisdictions): the fares of taxi
//! and mototaxi — the bandeiras and their hours, the values the deployment
//! recorded by decree (or "a fixar"), the discounts and free rides, each
//! with its article — the stands with their places, and the bus lines with
//! their itinerary and sections. Read from the rulebooks and the record; a
//! client past its rate of public lookups is answered 429.

use crate::format;
use crate::pages::{failure, page};
use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::model::{Beneficiary, DayKind, FareRule, Quantity, Rulebook};
use outorga_store::Window;
use outorga_web::AppState;
use outorga_web::limits::PublicLookup;

/// The most stands and lines a page lists (a jurisdiction has tens).
const MOST: u32 = 200;

/// A rulebook's fares as the page shows them.
#[derive(Debug)]
struct Fares {
    services: String,
    /// (what, value, article).
    values: Vec<(String, String, String)>,
    /// When each bandeira applies: (words, article).
    hours: Vec<(String, String)>,
    /// (who, what, article).
    discounts: Vec<(String, String, String)>,
    aids: Option<String>,
}

#[derive(Debug)]
struct LineShown {
    code: String,
    name: String,
    itinerary: String,
    coefficient: String,
    /// The act that approved the coefficient in force, and from when.
    approved: Option<String>,
    /// (from, to, km, reference value).
    sections: Vec<(String, String, String, String)>,
    /// The operation in force today.
    operation: Option<OperationShown>,
}

/// A line's operation as the public page shows it.
#[derive(Debug)]
struct OperationShown {
    level: &'static str,
    terminals: String,
    /// The departures of each day of the week.
    days: Vec<(&'static str, String)>,
}

#[derive(Template)]
#[template(path = "tarifas.html")]
struct ServicePage {
    user: Option<crate::pages::Bar>,
    jurisdictions: Vec<(String, String)>,
    /// The jurisdiction shown, when one was chosen.
    place: Option<String>,
    today: String,
    fares: Vec<Fares>,
    /// (code, name, places).
    stands: Vec<(String, String, String)>,
    lines: Vec<LineShown>,
}

fn day_words(on: DayKind) -> &'static str {
    match on {
        DayKind::Weekday => "de segunda a sexta-feira, exceto feriados",
        DayKind::Saturday => "aos sábados",
        DayKind::Sunday => "aos domingos",
        DayKind::Holiday => "nos feriados",
    }
}

fn quantity(ctx: &Context<'_>, q: &Quantity, on: NaiveDate) -> String {
    ctx.quantity(q, on).map_or_else(
        |_| "—".into(),
        |v| format::decimal(&v.normalize().to_string()),
    )
}

/// A rulebook's fares on `today`, as the deployment's law reads them.
fn fares(ctx: &Context<'_>, rule: &FareRule, today: NaiveDate) -> Fares {
    let rulebook = ctx.rulebook;
    let param = |name: &str| {
        let full = format!("tariff.{name}");
        let value = ctx.parameter(&full, today).map_or_else(
            |_| "a fixar por decreto".to_string(),
            |v| format::money(&v.to_string()),
        );
        let article = rulebook
            .parameters
            .iter()
            .find(|p| p.name == full)
            .map_or_else(|| rule.citation.to_string(), |p| p.citation.to_string());
        (value, article)
    };
    let mut values = Vec::new();
    for (name, what) in [
        ("bandeirada", "Bandeirada (valor inicial)"),
        ("km_bandeira_1", "Quilômetro rodado, bandeira 1"),
    ] {
        let (value, article) = param(name);
        values.push((what.to_string(), value, article));
    }
    match &rule.bandeira_2_increase {
        Some(increase) => values.push((
            "Quilômetro rodado, bandeira 2".into(),
            format!(
                "o da bandeira 1 mais {} %",
                quantity(ctx, &increase.value, today)
            ),
            increase.citation.to_string(),
        )),
        None => {
            let (value, article) = param("km_bandeira_2");
            values.push(("Quilômetro rodado, bandeira 2".into(), value, article));
        }
    }
    let (value, article) = param("hora_parada");
    values.push(("Hora parada".into(), value, article));
    let other = if rule.default_bandeira == 1 { 2 } else { 1 };
    let mut hours = vec![(
        format!(
            "Bandeira {}: fora dos horários abaixo",
            rule.default_bandeira
        ),
        rule.citation.to_string(),
    )];
    hours.extend(rule.windows.iter().map(|w| {
        let until = if w.next_day {
            format!("{} do dia seguinte", w.to.format("%H:%M"))
        } else {
            w.to.format("%H:%M").to_string()
        };
        (
            format!(
                "Bandeira {other}: {}, das {} às {until}",
                day_words(w.on),
                w.from.format("%H:%M")
            ),
            w.citation.to_string(),
        )
    }));
    let discounts = rule
        .discounts
        .iter()
        .map(|d| {
            let who = match &d.who {
                Beneficiary::AgeAtLeast(age) => {
                    format!("Passageiros com {} anos ou mais", quantity(ctx, age, today))
                }
                Beneficiary::Student => "Estudantes".into(),
                Beneficiary::Disabled => "Pessoas com deficiência".into(),
            };
            let percent = quantity(ctx, &d.percent, today);
            let what = if percent == "100" {
                "viajam de graça".to_string()
            } else {
                format!("pagam {percent} % a menos")
            };
            (who, what, d.citation.to_string())
        })
        .collect();
    Fares {
        services: rulebook
            .services
            .iter()
            .map(|s| s.portuguese())
            .collect::<Vec<_>>()
            .join(", "),
        values,
        hours,
        discounts,
        aids: rule.no_extra_for_aids.as_ref().map(|c| c.to_string()),
    }
}

/// The jurisdictions, each a link to its page.
pub(crate) async fn index(_: PublicLookup, State(state): State<AppState>) -> Response {
    let jurisdictions = match crate::place::jurisdiction_choices(&state).await {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    page(
        StatusCode::OK,
        &ServicePage {
            user: None,
            jurisdictions,
            place: None,
            today: String::new(),
            fares: Vec::new(),
            stands: Vec::new(),
            lines: Vec::new(),
        },
    )
}

/// The fares, stands and lines of jurisdiction `j` today.
pub(crate) async fn show(
    _: PublicLookup,
    State(state): State<AppState>,
    Path(j): Path<String>,
) -> Response {
    let jurisdictions = match crate::place::jurisdiction_choices(&state).await {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    let Some((_, name)) = jurisdictions.iter().find(|(id, _)| *id == j) else {
        return page(
            StatusCode::NOT_FOUND,
            &crate::pages::ErrorPage {
                user: None,
                title: "Município ou estado não encontrado",
                message: "Escolha um na lista da página Tarifas, pontos e linhas (/tarifas).",
            },
        );
    };
    let name = name.clone();
    let today = outorga_web::workflows::today_in(&state, &j);
    let rulebooks: Vec<&Rulebook> = state
        .library
        .rulebooks()
        .filter(|r| r.jurisdiction.id == j)
        .collect();
    let read = async {
        let mut shown = Vec::new();
        for rulebook in &rulebooks {
            if let Some(rule) = &rulebook.fare {
                let ctx = state.store.deployed_law(&j, rulebook).await?;
                shown.push(fares(&ctx, rule, today));
            }
        }
        let stands = state.store.stands(&j, Window::first(MOST)).await?;
        let lines = state.store.lines(&j, Window::first(MOST)).await?;
        let coefficients = state.store.coefficients_in_force(&j, today).await?;
        let operations = state.store.operations_in_force(&j, today).await?;
        Ok::<_, outorga_store::StoreError>((shown, stands, (lines, coefficients, operations)))
    };
    let (fares, stands, (lines, coefficients, operations)) = match read.await {
        Ok(found) => found,
        Err(error) => {
            tracing::error!(%error, "a jurisdiction's service could not be read");
            return failure();
        }
    };
    page(
        StatusCode::OK,
        &ServicePage {
            user: None,
            jurisdictions,
            place: Some(name),
            today: format::day(today),
            fares,
            stands: stands
                .items
                .into_iter()
                .map(|s| {
                    (
                        s.code,
                        s.name,
                        s.capacity.map_or_else(|| "—".into(), |c| c.to_string()),
                    )
                })
                .collect(),
            lines: lines
                .items
                .into_iter()
                .map(|l| {
                    let (coefficient, approved) = coefficients
                        .get(&l.code)
                        .cloned()
                        .unwrap_or((l.coefficient, None));
                    LineShown {
                        sections: l
                            .sections
                            .iter()
                            .map(|s| {
                                let value = outorga_core::context::round_brl(coefficient * s.km);
                                (
                                    s.from.clone(),
                                    s.to.clone(),
                                    format::decimal(&s.km.normalize().to_string()),
                                    format::money(&value.to_string()),
                                )
                            })
                            .collect(),
                        operation: operations.get(&l.code).map(|o| OperationShown {
                            level: o.input.level.portuguese(),
                            terminals: format!("{} ↔ {}", o.input.terminals.0, o.input.terminals.1),
                            days: format::departures(&o.input.schedule),
                        }),
                        approved: approved
                            .map(|(since, act)| format!("{act}, desde {}", format::day(since))),
                        code: l.code,
                        name: l.name,
                        itinerary: l.itinerary.join(" – "),
                        coefficient: format::unit_value(&coefficient.normalize().to_string()),
                    }
                })
                .collect(),
        },
    )
}
