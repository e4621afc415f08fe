//! The register of vehicles of a jurisdiction.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::change;
use crate::state::AppState;
use crate::vocab::EQUIPAMENTOS;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::Datelike;
use outorga_store::{Change, Vehicle};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VeiculoEntrada {
    /// Antiga (ABC-1234) ou Mercosul (ABC1D23).
    pub placa: String,
    /// 11 dígitos (ou 9, nos mais antigos).
    pub renavam: String,
    pub ano_fabricacao: i32,
    #[serde(default)]
    pub cor: String,
    pub portas: Option<u8>,
    /// Lugares de passageiros, além do motorista.
    pub lotacao: Option<u16>,
    /// Taxímetro, luminoso, baú…: um item que o regulamento exige vai
    /// com o nome do catálogo (escrito com ou sem acentos, em maiúsculas ou
    /// minúsculas); os demais como vieram.
    #[serde(default)]
    pub equipamentos: Vec<String>,
    /// Rampa, elevador, cinto para cadeira de rodas…
    #[serde(default)]
    pub adaptacoes: Vec<String>,
    /// Marca, como no CRLV ("Chevrolet").
    pub marca: Option<String>,
    /// Modelo, como no CRLV ("Spin 1.8").
    pub modelo: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VeiculoSaida {
    /// Maiúsculas, sem hífen.
    pub placa: String,
    pub renavam: String,
    pub ano_fabricacao: i32,
    pub cor: String,
    pub portas: Option<u8>,
    pub lotacao: Option<u16>,
    pub equipamentos: Vec<String>,
    pub adaptacoes: Vec<String>,
    pub marca: Option<String>,
    pub modelo: Option<String>,
}

impl From<VeiculoEntrada> for Vehicle {
    fn from(v: VeiculoEntrada) -> Vehicle {
        Vehicle {
            plate: v.placa,
            renavam: v.renavam,
            manufactured: v.ano_fabricacao,
            colour: v.cor,
            doors: v.portas,
            capacity: v.lotacao,
            equipment: v
                .equipamentos
                .iter()
                .map(|item| match EQUIPAMENTOS.code(item) {
                    Some(code) => code.to_string(),
                    None => item.clone(),
                })
                .collect(),
            adaptations: v.adaptacoes,
            make: v.marca,
            model: v.modelo,
        }
    }
}

impl From<Vehicle> for VeiculoSaida {
    fn from(v: Vehicle) -> VeiculoSaida {
        VeiculoSaida {
            placa: v.plate,
            renavam: v.renavam,
            ano_fabricacao: v.manufactured,
            cor: v.colour,
            portas: v.doors,
            lotacao: v.capacity,
            equipamentos: v.equipment.iter().map(|e| EQUIPAMENTOS.wire(e)).collect(),
            adaptacoes: v.adaptations,
            marca: v.make,
            modelo: v.model,
        }
    }
}

/// Registers a vehicle with its details.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/vehicles", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = VeiculoEntrada,
    responses((status = 201, body = VeiculoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn register(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<VeiculoEntrada>,
) -> Result<(StatusCode, Json<VeiculoSaida>), ApiError> {
    let change = change!(state, who, "cadastro pela API");
    let vehicle = register_vehicle(&state, &change, &j, input).await?;
    Ok((StatusCode::CREATED, Json(vehicle.into())))
}

/// Registers a vehicle: what `POST …/vehicles` and the vehicles' page do.
pub async fn register_vehicle(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    input: VeiculoEntrada,
) -> Result<Vehicle, ApiError> {
    let this_year = change.at.year();
    Ok(state
        .store
        .register_vehicle(change, j, &input.into(), this_year)
        .await?)
}

/// The vehicle with this plate.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/vehicles/{placa}", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição"),
           ("placa" = String, Path, description = "a placa, com ou sem hífen")),
    responses((status = 200, body = VeiculoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, placa)): Path<(String, String)>,
) -> Result<Json<VeiculoSaida>, ApiError> {
    let found = state.store.vehicle(&j, &placa).await?;
    found
        .map(|v| Json(v.into()))
        .ok_or_else(|| ApiError::not_found(format!("a placa {placa} não está cadastrada em {j}")))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(get))
}
