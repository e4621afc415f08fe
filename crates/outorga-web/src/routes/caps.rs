//! The cap's reserved shares: the release of a share's unfilled places to
//! the other applicants where the law says so (Santa Maria de Jetibá art.
//! 2º, § 6º), the board's decision after a call found no eligible applicant.

use crate::auth::Board;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::{change, day_or_today, rulebook_for_service};
use crate::state::AppState;
use crate::vocab::COTAS;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LiberacaoEntrada {
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LiberacaoSaida {
    pub reserva: String,
    /// As vagas reservadas não preenchidas, agora de livre concorrência.
    pub vagas: u64,
    pub artigo: String,
}

/// Releases the unfilled places of a reserved share to the other
/// applicants, where the law says so.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/caps/{servico}/reservas/{reserva}/liberacao",
    tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("reserva" = String, Path, description = "a reserva de vagas, como `condutores_com_deficiencia`")),
    request_body = LiberacaoEntrada,
    responses((status = 200, body = LiberacaoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn release(
    State(state): State<AppState>,
    who: Board,
    Path((j, servico, reserva)): Path<(String, String, String)>,
    Json(input): Json<LiberacaoEntrada>,
) -> Result<Json<LiberacaoSaida>, ApiError> {
    let quota = COTAS.read("reserva", &reserva)?;
    let rulebook = rulebook_for_service(&state, &j, &servico).await?;
    let on = day_or_today(&state, &j, input.data.as_deref(), "data")?;
    let change = change!(state, who, "vagas reservadas liberadas pela API");
    let (vagas, artigo) = state
        .store
        .release_quota(&change, rulebook, &j, (&servico, &quota), on)
        .await?;
    Ok(Json(LiberacaoSaida {
        reserva: COTAS.wire(&quota),
        vagas,
        artigo,
    }))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(release))
}
