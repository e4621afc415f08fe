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
use axum::response::Response;
use outorga_web::workflows::{csv, overdue_report, revenue_report};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// A report the API's rules refused (a day that is not one: 422) or could
/// not read.
fn refused(signed: &Signed, error: ApiError) -> Response {
    if error.status.is_server_error() {
        tracing::error!(erro = %error.body.erro, "a report could not be read");
        return failure();
    }
    refusal(signed, error.status, "Data inválida", &error.body.erro)
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
    match revenue_report(
        &state,
        &place.id,
        (period.de.as_deref(), period.ate.as_deref()),
    )
    .await
    {
        Ok((name, body)) => csv(name, body),
        Err(error) => refused(&signed, error),
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
    match overdue_report(&state, &place.id, asked.data.as_deref()).await {
        Ok((name, body)) => csv(name, body),
        Err(error) => refused(&signed, error),
    }
}
