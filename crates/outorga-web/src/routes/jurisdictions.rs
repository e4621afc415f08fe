//! The jurisdictions the deployment serves, with their rulebooks.

use crate::auth::Reader;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Query;
use crate::json::Json;
use crate::page::{Lista, Pagina};
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

/// A page of the jurisdictions the user may act in, by id, with their
/// rulebooks.
#[utoipa::path(get, path = "/api/jurisdictions", tag = "jurisdições",
    params(Pagina),
    responses((status = 200, body = Lista<JurisdicaoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    who: Reader,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<JurisdicaoSaida>>, ApiError> {
    let asked = page.asked()?;
    let page = state
        .store
        .jurisdiction_page(&who.user.scope, asked.window())
        .await?;
    let library = &state.library;
    Ok(Json(Lista::with(page, |j| JurisdicaoSaida {
        regulamentos: j
            .rulebooks
            .into_iter()
            .map(|id| {
                let act = library.get(&id).map(|rulebook| &rulebook.act);
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
    })))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}
