//! The parameters of a jurisdiction's law (population, fleet size…), which a
//! decree or a census may change.

use crate::auth::Admin;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::{bound_rulebooks, change};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::Change;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ParametroEntrada {
    /// Decimal exato, em texto: "1600" ou "0,5".
    pub valor: String,
    /// AAAA-MM-DD: o dia em que o valor passa a valer (não antes da lei).
    pub desde: String,
    /// O ato que o fixa, como se cita: "Decreto 1.234/2026", "IBGE,
    /// estimativa 2025".
    pub ato: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ParametroSaida {
    pub nome: String,
    pub valor: String,
    pub desde: String,
    pub ato: String,
    /// O regulamento que define o parâmetro.
    pub regulamento: String,
}

/// Sets a parameter of the jurisdiction's law.
#[utoipa::path(put, path = "/api/jurisdictions/{j}/parameters/{nome}", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição"),
           ("nome" = String, Path, description = "o parâmetro, como `population`")),
    request_body = ParametroEntrada,
    responses((status = 200, body = ParametroSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn put(
    State(state): State<AppState>,
    who: Admin,
    Path((j, nome)): Path<(String, String)>,
    Json(input): Json<ParametroEntrada>,
) -> Result<Json<ParametroSaida>, ApiError> {
    let change = change!(state, who, "parâmetro alterado pela API");
    Ok(Json(
        set_parameter(&state, &change, &j, &nome, &input).await?,
    ))
}

/// Sets parameter `nome` of `j`'s law to `valor` (a decimal, with a point
/// or a comma) from `desde` by `ato`, in the rulebook of `j` that
/// declares it: what `PUT …/parameters/{nome}` and the parameters' page do.
pub async fn set_parameter(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    nome: &str,
    input: &ParametroEntrada,
) -> Result<ParametroSaida, ApiError> {
    let value = crate::routes::units::decimal(&input.valor, "valor")?;
    let from = crate::routes::parse_day(&input.desde, "desde")?;
    let bound = bound_rulebooks(state, j).await?;
    let Some(rulebook) = bound
        .iter()
        .find(|r| outorga_store::settable_parameter(r, nome))
    else {
        return Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "nome",
            format!("`{nome}` não é parâmetro de nenhum regulamento de {j}"),
        ));
    };
    let act = outorga_store::ParameterAct {
        from,
        act: input.ato.trim().to_string(),
    };
    state
        .store
        .set_parameter(change, rulebook, j, (nome, value), &act)
        .await?;
    Ok(ParametroSaida {
        nome: nome.to_string(),
        valor: value.normalize().to_string(),
        desde: from.to_string(),
        ato: act.act,
        regulamento: rulebook.id.clone(),
    })
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(put))
}
