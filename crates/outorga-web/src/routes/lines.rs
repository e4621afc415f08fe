//! The intercity bus lines of a jurisdiction.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::change;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{Line, Section, parse_coefficient};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LinhaEntrada {
    pub codigo: String,
    pub nome: String,
    /// Linhas semiurbanas ficam fora do coeficiente tarifário médio.
    #[serde(default)]
    pub semiurbana: bool,
    /// R$ por passageiro-km, exato, em texto: "0,2175" ou "0.2175".
    pub coeficiente: String,
    /// As localidades atendidas, na ordem.
    #[serde(default)]
    pub itinerario: Vec<String>,
    /// Os seccionamentos entre localidades do itinerário.
    #[serde(default)]
    pub secoes: Vec<Secao>,
}

/// Um seccionamento e sua extensão.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Secao {
    pub de: String,
    pub para: String,
    /// Quilômetros, decimal exato em texto: "108,5".
    pub km: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LinhaSaida {
    pub codigo: String,
    pub nome: String,
    pub semiurbana: bool,
    /// Decimal exato, com ponto.
    pub coeficiente: String,
    pub itinerario: Vec<String>,
    pub secoes: Vec<Secao>,
}

impl From<Line> for LinhaSaida {
    fn from(line: Line) -> LinhaSaida {
        LinhaSaida {
            codigo: line.code,
            nome: line.name,
            semiurbana: line.semi_urban,
            coeficiente: line.coefficient.to_string(),
            itinerario: line.itinerary,
            secoes: line
                .sections
                .into_iter()
                .map(|s| Secao {
                    de: s.from,
                    para: s.to,
                    km: s.km.to_string(),
                })
                .collect(),
        }
    }
}

/// A length in km written as a decimal (point or comma).
fn kilometres(text: &str) -> Result<Decimal, ApiError> {
    Decimal::from_str(&text.trim().replace(',', ".")).map_err(|_| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "secoes.km",
            format!("`{text}`: escreva a extensão em km como um decimal, ex.: 108,5"),
        )
    })
}

/// Registers a bus line with its tariff coefficient.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/lines", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = LinhaEntrada,
    responses((status = 201, body = LinhaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn register(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<LinhaEntrada>,
) -> Result<(StatusCode, Json<LinhaSaida>), ApiError> {
    let line = Line {
        code: input.codigo.trim().to_uppercase(),
        name: input.nome.trim().to_string(),
        semi_urban: input.semiurbana,
        coefficient: parse_coefficient(&input.coeficiente)?,
        itinerary: input.itinerario,
        sections: input
            .secoes
            .iter()
            .map(|s| {
                Ok(Section {
                    from: s.de.clone(),
                    to: s.para.clone(),
                    km: kilometres(&s.km)?,
                })
            })
            .collect::<Result<_, ApiError>>()?,
    };
    let change = change!(state, who, "cadastro pela API");
    state.store.register_line(&change, &j, &line).await?;
    Ok((StatusCode::CREATED, Json(line.into())))
}

/// A page of the lines of the jurisdiction, by code.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/lines", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição"), Pagina),
    responses((status = 200, body = Lista<LinhaSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<LinhaSaida>>, ApiError> {
    let asked = page.asked()?;
    let lines = state.store.lines(&j, asked.window()).await?;
    Ok(Json(Lista::of(lines)))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(register, list))
}
