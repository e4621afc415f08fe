//! A delegation's fleet: the buses of any day, and a bus withdrawn.

use super::NaData;
use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::routes::{change, day_or_today};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// A bus of a delegation's fleet.
#[derive(Debug, Serialize, ToSchema)]
pub struct OnibusDaFrota {
    pub placa: String,
    pub marca: Option<String>,
    pub modelo: Option<String>,
    pub ano_fabricacao: i32,
    /// Poltronas (lugares além do motorista).
    pub poltronas: Option<u16>,
    pub desde: String,
    pub ate: Option<String>,
}

/// A delegation's fleet on a day.
#[derive(Debug, Serialize, ToSchema)]
pub struct FrotaSaida {
    pub data: String,
    pub onibus: Vec<OnibusDaFrota>,
    /// Poltronas de toda a frota.
    pub poltronas: u32,
}

/// The buses serving a delegation on a day (today when none is asked).
#[utoipa::path(get, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/fleet", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da delegação"), NaData),
    responses((status = 200, body = FrotaSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn fleet(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Query(asked): Query<NaData>,
) -> Result<Json<FrotaSaida>, ApiError> {
    let on = day_or_today(&state, &j, asked.data.as_deref(), "data")?;
    state.store.permit(&j, &servico, numero).await?;
    let buses = state.store.fleet_on(&j, (&servico, numero), on).await?;
    Ok(Json(FrotaSaida {
        data: on.to_string(),
        poltronas: buses
            .iter()
            .map(|(v, _, _)| u32::from(v.capacity.unwrap_or(0)))
            .sum(),
        onibus: buses
            .into_iter()
            .map(|(v, since, until)| OnibusDaFrota {
                placa: v.plate,
                marca: v.make,
                modelo: v.model,
                ano_fabricacao: v.manufactured,
                poltronas: v.capacity,
                desde: since.to_string(),
                ate: until.map(|u| u.to_string()),
            })
            .collect(),
    }))
}

/// The day a bus leaves a fleet.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RetiradaEntrada {
    /// AAAA-MM-DD; hoje quando omitido.
    pub data: Option<String>,
}

/// Withdraws a bus from a delegation's fleet: its traffic authorization
/// ends with its service.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/fleet/{placa}/withdrawal", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da delegação"), ("placa" = String, Path, description = "a placa")),
    request_body = RetiradaEntrada,
    responses((status = 204, description = "retirado da frota"), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn withdraw(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero, placa)): Path<(String, String, i64, String)>,
    Json(input): Json<RetiradaEntrada>,
) -> Result<StatusCode, ApiError> {
    let rulebook = crate::routes::rulebook_for_service(&state, &j, &servico).await?;
    let on = day_or_today(&state, &j, input.data.as_deref(), "data")?;
    let change = change!(state, who, "ônibus retirado da frota pela API");
    state
        .store
        .withdraw_vehicle(&change, rulebook, &j, (&servico, numero), &placa, on)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(fleet))
        .routes(routes!(withdraw))
}
