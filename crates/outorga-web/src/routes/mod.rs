//! The API's areas, one module each, every one an `OpenApiRouter` of its
//! handlers (see the crate documentation for adding one).

mod agenda;
pub(crate) mod audit;
pub(crate) mod autos;
pub(crate) mod bus;
pub(crate) mod calls;
mod caps;
pub(crate) mod catalog;
pub(crate) mod complaints;
pub(crate) mod custody;
pub(crate) mod debts;
pub(crate) mod documents;
mod draws;
mod jurisdictions;
pub(crate) mod ledger;
mod lines;
mod meta;
mod metrics;
pub(crate) mod open_data;
pub(crate) mod parameters;
mod people;
pub(crate) mod permits;
mod profile;
pub(crate) mod public;
mod session;
pub(crate) mod stands;
mod steps;
pub(crate) mod units;
pub(crate) mod users;
pub(crate) mod vehicles;

use crate::error::ApiError;
use crate::state::AppState;
use axum::http::StatusCode;
use chrono::{NaiveDate, NaiveDateTime};
use outorga_core::model::{Rulebook, Service};
use utoipa_axum::router::OpenApiRouter;

/// Every route with its documentation.
pub(crate) fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(crate::openapi::base())
        .merge(meta::routes())
        .merge(metrics::routes())
        .merge(session::routes())
        .merge(jurisdictions::routes())
        .merge(people::routes())
        .merge(vehicles::routes())
        .merge(lines::routes())
        .merge(bus::routes())
        .merge(bus::file_routes())
        .merge(stands::routes())
        .merge(draws::routes())
        .merge(calls::routes())
        .merge(audit::routes())
        .merge(users::routes())
        .merge(public::routes())
        .merge(open_data::routes())
        .merge(complaints::routes())
        .merge(documents::routes())
        .merge(permits::routes())
        .merge(profile::routes())
        .merge(parameters::routes())
        .merge(caps::routes())
        .merge(autos::routes())
        .merge(custody::routes())
        .merge(steps::routes())
        .merge(catalog::routes())
        .merge(debts::routes())
        .merge(units::routes())
        .merge(ledger::routes())
        .merge(agenda::routes())
}

/// The change a request makes: who (the signed-in user), when (the state's
/// clock) and why.
macro_rules! change {
    ($state:expr, $who:expr, $why:expr) => {
        outorga_store::Change {
            by: $who.name(),
            at: $state.clock.now(),
            why: $who.why($why),
        }
    };
}
pub(crate) use change;

/// A day sent as `AAAA-MM-DD` (or `DD/MM/AAAA`); `campo` names it in the refusal.
pub fn parse_day(text: &str, campo: &str) -> Result<NaiveDate, ApiError> {
    let text = text.trim();
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(text, "%d/%m/%Y"))
        .map_err(|_| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                campo,
                format!("`{text}` não é uma data: use AAAA-MM-DD"),
            )
        })
}

/// A day sent, when one was.
pub(crate) fn optional_day(text: Option<&str>, campo: &str) -> Result<Option<NaiveDate>, ApiError> {
    text.filter(|t| !t.trim().is_empty())
        .map(|t| parse_day(t, campo))
        .transpose()
}

/// The day sent, or today in jurisdiction `j`'s time when none was.
pub(crate) fn day_or_today(
    state: &AppState,
    j: &str,
    text: Option<&str>,
    campo: &str,
) -> Result<NaiveDate, ApiError> {
    text.map_or_else(|| Ok(today_in(state, j)), |t| parse_day(t, campo))
}

/// Today in jurisdiction `j`'s time zone (its rulebooks' `jurisdiction.toml`),
/// by the state's clock; a jurisdiction without a rulebook reckons in UTC.
pub fn today_in(state: &AppState, j: &str) -> NaiveDate {
    let now = state.clock.now();
    state
        .library
        .rulebooks()
        .find(|r| r.jurisdiction.id == j)
        .map_or(now.date(), |r| r.jurisdiction.today(now))
}

/// A moment sent as `AAAA-MM-DDTHH:MM[:SS]` (a space also separates them).
pub(crate) fn parse_moment(text: &str, campo: &str) -> Result<NaiveDateTime, ApiError> {
    let text = text.trim();
    [
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d %H:%M",
    ]
    .iter()
    .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
    .ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            campo,
            format!("`{text}` não é data e hora: use AAAA-MM-DDTHH:MM"),
        )
    })
}

/// The rulebooks `j` is bound to, as loaded on this server.
pub(crate) async fn bound_rulebooks<'a>(
    state: &'a AppState,
    j: &str,
) -> Result<Vec<&'a Rulebook>, ApiError> {
    let jurisdictions = state.store.jurisdictions().await?;
    let Some(found) = jurisdictions.into_iter().find(|known| known.id == j) else {
        return Err(ApiError::not_found(format!(
            "a jurisdição `{j}` não está cadastrada"
        )));
    };
    Ok(found
        .rulebooks
        .iter()
        .filter_map(|id| state.library.get(id))
        .collect())
}

/// The rulebook of `j` that regulates `service` (a jurisdiction may have
/// one per service, as Teófilo Otoni's mototaxi and motofrete).
pub async fn rulebook_for_service<'a>(
    state: &'a AppState,
    j: &str,
    service: &str,
) -> Result<&'a Rulebook, ApiError> {
    let wanted = Service::parse(service.trim());
    let bound = bound_rulebooks(state, j).await?;
    let offered: Vec<&str> = bound
        .iter()
        .flat_map(|r| r.services.iter().map(|s| s.name()))
        .collect();
    bound
        .iter()
        .find(|r| wanted.is_some_and(|s| r.services.contains(&s)))
        .copied()
        .ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "servico",
                format!(
                    "`{service}` não é serviço regulado em {j} (serviços: {})",
                    offered.join(", ")
                ),
            )
        })
}

/// The rulebook of `j` with this id (`<jurisdição>/<serviço>`).
pub(crate) async fn rulebook_named<'a>(
    state: &'a AppState,
    j: &str,
    id: &str,
) -> Result<&'a Rulebook, ApiError> {
    let bound = bound_rulebooks(state, j).await?;
    let ids: Vec<&str> = bound.iter().map(|r| r.id.as_str()).collect();
    bound
        .iter()
        .find(|r| r.id == id.trim())
        .copied()
        .ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "regulamento",
                format!(
                    "`{id}` não é regulamento de {j} (regulamentos: {})",
                    ids.join(", ")
                ),
            )
        })
}

/// The rulebook an auto was issued under (its process and debts follow it).
pub(crate) async fn rulebook_of_auto<'a>(
    state: &'a AppState,
    j: &str,
    key: (i32, i64),
) -> Result<&'a Rulebook, ApiError> {
    let auto = state.store.auto(j, key).await?;
    rulebook_named(state, j, &auto.rulebook).await
}

/// An auto with each fine in reais at the unit's value in force on the
/// day it was committed, as the deployment records it now: what the API
/// and the auto's page show.
pub async fn priced_auto(
    state: &AppState,
    j: &str,
    key: (i32, i64),
) -> Result<outorga_store::Auto, ApiError> {
    let mut auto = state.store.auto(j, key).await?;
    let rulebook = rulebook_named(state, j, &auto.rulebook).await?;
    let ctx = state.store.deployed_law(j, rulebook).await?;
    auto.proposal = auto.proposal.priced(&ctx, auto.committed_at.date());
    Ok(auto)
}

/// The rulebook's `[[grounds]]` of `set`: (key, description) each.
pub(crate) fn grounds_of<'r>(rulebook: &'r Rulebook, set: &str) -> Vec<(&'r str, &'r str)> {
    rulebook
        .grounds
        .iter()
        .filter(|g| g.set == set)
        .map(|g| (g.key.as_str(), g.description.as_str()))
        .collect()
}

/// A day as the API writes it (YYYY-MM-DD).
pub(crate) fn text(day: Option<chrono::NaiveDate>) -> Option<String> {
    day.map(|d| d.to_string())
}
