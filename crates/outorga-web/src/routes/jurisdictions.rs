//! The jurisdictions the deployment serves, with their rulebooks.

use crate::auth::Reader;
use crate::error::{ApiError, ErrorBody};
use crate::json::Json;
use crate::state::AppState;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct JurisdicaoSaida {
    pub id: String,
    pub nome: String,
    pub uf: String,
    pub regulamentos: Vec<RegulamentoSaida>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RegulamentoSaida {
    /// `<jurisdição>/<serviço>`, como `cangucu/taxi`.
    pub id: String,
    /// A lei, quando o regulamento está carregado neste servidor.
    pub lei: Option<String>,
    pub numero: Option<String>,
}

/// The jurisdictions the user may act in, with their rulebooks.
#[utoipa::path(get, path = "/api/jurisdictions", tag = "jurisdições",
    responses((status = 200, body = Vec<JurisdicaoSaida>), (status = 401, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    who: Reader,
) -> Result<Json<Vec<JurisdicaoSaida>>, ApiError> {
    let list = state.store.jurisdictions().await?;
    Ok(Json(
        list.into_iter()
            .filter(|j| who.user.scope.allows(&j.id))
            .map(|j| JurisdicaoSaida {
                regulamentos: j
                    .rulebooks
                    .into_iter()
                    .map(|id| {
                        let act = state.library.get(&id).map(|rulebook| &rulebook.act);
                        RegulamentoSaida {
                            lei: act.map(|act| act.name.clone()),
                            numero: act.map(|act| act.number.clone()),
                            id,
                        }
                    })
                    .collect(),
                id: j.id,
                nome: j.name,
                uf: j.state,
            })
            .collect(),
    ))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}
