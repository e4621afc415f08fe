//! Intercity buses: how each line is operated (the version in force on a
//! day, the carrier's requests and the agency's decisions), the carriers'
//! files (tickets as CSV or BP-e, monthly statistics), a carrier's month
//! with the findings its own data shows, and a finding turned into an auto.

mod carrier_data;
mod charters;
mod fleet;
mod operations;
mod ties;

pub use charters::{FretamentoEntrada, PassageiroEntrada, charter_input};
pub use operations::{Horarios, OperacaoEntrada, operation_input};

use crate::error::ApiError;
use crate::routes::bound_rulebooks;
use crate::state::AppState;
use axum::http::StatusCode;
use outorga_core::model::Rulebook;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;

/// The rulebook of `j` that has the bus rules.
pub async fn bus_rulebook<'a>(state: &'a AppState, j: &str) -> Result<&'a Rulebook, ApiError> {
    bound_rulebooks(state, j)
        .await?
        .into_iter()
        .find(|r| r.bus.is_some())
        .ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "jurisdição",
                format!("{j} não regula transporte intermunicipal de ônibus"),
            )
        })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NaData {
    /// AAAA-MM-DD; hoje quando omitido.
    pub data: Option<String>,
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(operations::routes())
        .merge(carrier_data::routes())
        .merge(charters::routes())
        .merge(fleet::routes())
        .merge(ties::routes())
}

/// A carrier's files: the upload with its own body limit, and the list.
pub(crate) fn file_routes() -> OpenApiRouter<AppState> {
    carrier_data::file_routes()
}
