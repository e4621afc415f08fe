//! The money reports as CSV files (UTF-8, `;`), for anyone signed in with
//! the jurisdiction in scope, downloaded from the debts' page: the revenue
//! by month, origin and fee of a period (`receita.csv?de=&ate=`: from the
//! first day of the year to today when not given) and the debts overdue on
//! a day (`debitos-vencidos.csv?data=`: today when not given), the list
//! for dívida ativa. The store's reports, as `…/reports/revenue.csv` and
//! `…/reports/overdue.csv` answer them.

use crate::pages::failure;
use crate::place::{place, refusal};
use crate::session::Signed;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{Datelike, NaiveDate};
use outorga_store::StoreError;
use outorga_web::AppState;
use serde::Deserialize;

/// A day of a report's address (`aaaa-mm-dd` from the date field, or
/// `dd/mm/aaaa` typed); none when blank, the refusal's words when it is
/// not a day.
fn day(text: Option<&str>, what: &str) -> Result<Option<NaiveDate>, String> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(text, "%d/%m/%Y"))
        .map(Some)
        .map_err(|_| {
            format!("{what}: «{text}» não é uma data. Use o calendário do campo ou dd/mm/aaaa.")
        })
}

/// The file `name` with the report's text, to download.
fn csv(name: &str, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// A report asked for with a day that is not one (422).
fn bad_day(signed: &Signed, message: &str) -> Response {
    refusal(
        signed,
        StatusCode::UNPROCESSABLE_ENTITY,
        "Data inválida",
        message,
    )
}

/// A report the store could not read: its words when the cause is the
/// request's, the failure page otherwise.
fn not_read(signed: &Signed, error: StoreError) -> Response {
    match error.bad_input() {
        Some((field, reason)) => bad_day(signed, &format!("{field}: {reason}")),
        None => {
            tracing::error!(%error, "a report could not be read");
            failure()
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Period {
    de: Option<String>,
    ate: Option<String>,
}

pub(crate) async fn revenue(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(period): Query<Period>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let days = day(period.de.as_deref(), "De")
        .and_then(|from| day(period.ate.as_deref(), "Até").map(|to| (from, to)));
    let (from, to) = match days {
        Ok((from, to)) => {
            let to = to.unwrap_or(place.today);
            (from.unwrap_or_else(|| to.with_ordinal(1).unwrap_or(to)), to)
        }
        Err(message) => return bad_day(&signed, &message),
    };
    match state.store.revenue(&place.id, (from, to)).await {
        Ok(rows) => csv(
            &format!("receita-{}-{from}-{to}.csv", place.id),
            outorga_store::revenue_csv(&rows),
        ),
        Err(error) => not_read(&signed, error),
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Day {
    data: Option<String>,
}

pub(crate) async fn overdue(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<Day>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let on = match day(asked.data.as_deref(), "Vencidos em") {
        Ok(on) => on.unwrap_or(place.today),
        Err(message) => return bad_day(&signed, &message),
    };
    match state.store.overdue_debts(&place.id, on).await {
        Ok(rows) => csv(
            &format!("debitos-vencidos-{}-{on}.csv", place.id),
            outorga_store::overdue_csv(&rows),
        ),
        Err(error) => not_read(&signed, error),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn days_are_read_as_forms_send_them() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 3, 7).expect("day");
        assert_eq!(super::day(Some("2026-03-07"), "De"), Ok(Some(day)));
        assert_eq!(super::day(Some("07/03/2026"), "De"), Ok(Some(day)));
        assert_eq!(super::day(Some(" "), "De"), Ok(None));
        assert_eq!(super::day(None, "De"), Ok(None));
        assert!(super::day(Some("31/02/2026"), "De").is_err_and(|m| m.starts_with("De: «31/02")));
    }
}
