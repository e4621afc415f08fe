//! The agenda: what falls due in a jurisdiction within a horizon, or is
//! overdue, under every rulebook it applies.

use crate::auth::Reader;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::{bound_rulebooks, day_or_today};
use crate::state::AppState;
use crate::vocab::{AGENDA, subject_wire};
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::AgendaItem;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// How far ahead the agenda looks when not asked.
const DEFAULT_DAYS: u32 = 30;
/// The longest horizon (a year and a day).
const MAX_DAYS: u32 = 366;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Horizonte {
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
    /// Quantos dias à frente: 30 quando omitido, até 366.
    #[param(maximum = 366, default = 30)]
    pub dias: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ItemAgenda {
    pub tipo: String,
    pub vence_em: String,
    pub vencido: bool,
    /// O registro: `permissao:taxi:3`, `auto:2026:15`…
    pub assunto: String,
    pub descricao: String,
    pub artigos: Vec<String>,
}

impl From<AgendaItem> for ItemAgenda {
    fn from(i: AgendaItem) -> ItemAgenda {
        ItemAgenda {
            tipo: AGENDA.wire(&i.kind),
            vence_em: i.due.to_string(),
            vencido: i.overdue,
            assunto: subject_wire(&i.subject),
            descricao: i.description,
            artigos: i.articles,
        }
    }
}

/// A page of what falls due from the day given to the horizon, and of what
/// is overdue: soonest first, then by kind and record.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/agenda", tag = "agenda",
    params(("j" = String, Path, description = "a jurisdição"), Horizonte, Pagina),
    responses((status = 200, body = Lista<ItemAgenda>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn agenda(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(horizon): Query<Horizonte>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<ItemAgenda>>, ApiError> {
    let asked = page.asked()?;
    let today = day_or_today(&state, &j, horizon.data.as_deref(), "data")?;
    let days = horizon.dias.unwrap_or(DEFAULT_DAYS);
    if days > MAX_DAYS {
        return Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "dias",
            format!("`{days}` passa do horizonte máximo: peça até {MAX_DAYS} dias"),
        ));
    }
    let rulebooks = bound_rulebooks(&state, &j).await?;
    let items = state
        .store
        .agenda(&j, &rulebooks, (today, days), asked.window())
        .await?;
    Ok(Json(Lista::of(items)))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(agenda))
}
