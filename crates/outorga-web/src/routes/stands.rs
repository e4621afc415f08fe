//! The taxi and mototaxi stands of a jurisdiction.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::change;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::Stand;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PontoEntrada {
    pub codigo: String,
    pub nome: String,
    /// Vagas de um ponto fixo; omita para um ponto livre (eventos).
    pub vagas: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PontoSaida {
    pub codigo: String,
    pub nome: String,
    pub vagas: Option<u32>,
}

impl From<Stand> for PontoSaida {
    fn from(stand: Stand) -> PontoSaida {
        PontoSaida {
            codigo: stand.code,
            nome: stand.name,
            vagas: stand.capacity,
        }
    }
}

/// Registers a stand.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/stands", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = PontoEntrada,
    responses((status = 201, body = PontoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn register(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<PontoEntrada>,
) -> Result<(StatusCode, Json<PontoSaida>), ApiError> {
    let stand = Stand {
        code: input.codigo.trim().to_uppercase(),
        name: input.nome.trim().to_string(),
        capacity: input.vagas,
    };
    let change = change!(state, who, "cadastro pela API");
    state.store.register_stand(&change, &j, &stand).await?;
    Ok((StatusCode::CREATED, Json(stand.into())))
}

/// A page of the stands of the jurisdiction, by code.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/stands", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição"), Pagina),
    responses((status = 200, body = Lista<PontoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<PontoSaida>>, ApiError> {
    let asked = page.asked()?;
    let stands = state.store.stands(&j, asked.window()).await?;
    Ok(Json(Lista::of(stands)))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(register, list))
}
