//! The register of people (CPF) and companies (CNPJ) of a jurisdiction.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::change;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{Kind, Registered};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PessoaEntrada {
    /// CPF ou CNPJ (numérico ou alfanumérico), com ou sem pontuação.
    pub documento: String,
    pub nome: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PessoaSaida {
    /// Sem pontuação.
    pub documento: String,
    /// `pessoa` (CPF) ou `empresa` (CNPJ).
    pub tipo: String,
    pub nome: String,
}

impl From<Registered> for PessoaSaida {
    fn from(r: Registered) -> PessoaSaida {
        PessoaSaida {
            documento: r.document,
            tipo: match r.kind {
                Kind::Person => "pessoa",
                Kind::Company => "empresa",
            }
            .into(),
            nome: r.name,
        }
    }
}

/// Registers a person or company.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/people", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição, como `cangucu`")),
    request_body = PessoaEntrada,
    responses((status = 201, body = PessoaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn register(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<PessoaEntrada>,
) -> Result<(StatusCode, Json<PessoaSaida>), ApiError> {
    let change = change!(state, who, "cadastro pela API");
    let registered = state
        .store
        .register(&change, &j, &input.documento, &input.nome)
        .await?;
    Ok((StatusCode::CREATED, Json(registered.into())))
}

/// The person or company with this CPF or CNPJ.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/people/{documento}", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição"),
           ("documento" = String, Path, description = "CPF ou CNPJ")),
    responses((status = 200, body = PessoaSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, documento)): Path<(String, String)>,
) -> Result<Json<PessoaSaida>, ApiError> {
    let found = state.store.registered(&j, &documento).await?;
    found
        .map(|r| Json(r.into()))
        .ok_or_else(|| ApiError::not_found(format!("{documento} não está cadastrado em {j}")))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(get))
}
