//! Charters and emergency services by authorization, and their
//! authorization's document.

use super::bus_rulebook;
use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::{change, parse_day};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// A passenger on a charter's list.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PassageiroEntrada {
    pub nome: String,
    #[serde(default)]
    pub documento: String,
}

/// A charter or emergency service as the carrier asks for it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FretamentoEntrada {
    /// O CNPJ da transportadora.
    pub transportadora: String,
    /// `continuous`, `eventual` ou `emergency`.
    pub tipo: String,
    /// O primeiro e o último dia do serviço (AAAA-MM-DD).
    pub de: String,
    pub ate: String,
    pub origem: String,
    pub destino: String,
    /// Onde termina (o fretamento volta à origem: circuito fechado).
    pub retorno: String,
    #[serde(default)]
    pub itinerario: String,
    /// A placa do ônibus.
    pub placa: String,
    /// Quem contrata (pessoa, grupo, empresa ou instituição).
    #[serde(default)]
    pub contratante: String,
    pub documento_contratante: Option<String>,
    pub nota_fiscal: Option<String>,
    pub contrato: Option<String>,
    /// Serviço emergencial: a linha atendida.
    pub linha: Option<String>,
    #[serde(default)]
    pub passageiros: Vec<PassageiroEntrada>,
}

/// A charter authorized.
#[derive(Debug, Serialize, ToSchema)]
pub struct FretamentoSaida {
    pub ano: i32,
    pub numero: i64,
    pub transportadora: String,
    pub tipo: String,
    pub de: String,
    pub ate: String,
    pub origem: String,
    pub destino: String,
    pub retorno: String,
    pub placa: String,
    pub passageiros: usize,
    pub autorizado_em: String,
    /// O código da autorização, que o fiscal verifica em `/verificar/{codigo}`.
    pub documento: String,
    pub artigos: Vec<String>,
}

impl From<outorga_store::Charter> for FretamentoSaida {
    fn from(c: outorga_store::Charter) -> FretamentoSaida {
        FretamentoSaida {
            ano: c.year,
            numero: c.number,
            tipo: c.input.kind.name().into(),
            de: c.input.from.to_string(),
            ate: c.input.until.to_string(),
            passageiros: c.input.passengers.len(),
            transportadora: c.input.carrier,
            origem: c.input.origin,
            destino: c.input.destination,
            retorno: c.input.end,
            placa: c.input.plate,
            autorizado_em: c.authorized_on.to_string(),
            documento: c.document.code,
            artigos: c.articles,
        }
    }
}

/// The request as sent, checked.
pub fn charter_input(input: &FretamentoEntrada) -> Result<outorga_store::CharterInput, ApiError> {
    use outorga_core::engine::charter::CharterKind;
    let kind = CharterKind::parse(input.tipo.trim()).ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tipo",
            format!("`{}`: continuous, eventual ou emergency", input.tipo),
        )
    })?;
    Ok(outorga_store::CharterInput {
        carrier: outorga_store::parse_document(&input.transportadora)?.0,
        kind,
        from: parse_day(&input.de, "de")?,
        until: parse_day(&input.ate, "ate")?,
        origin: input.origem.clone(),
        destination: input.destino.clone(),
        end: input.retorno.clone(),
        route: input.itinerario.clone(),
        plate: input.placa.clone(),
        client: if input.contratante.trim().is_empty() {
            "—".into()
        } else {
            input.contratante.clone()
        },
        client_document: input.documento_contratante.clone(),
        invoice: input.nota_fiscal.clone(),
        contract: input.contrato.clone(),
        line: input.linha.clone(),
        passengers: input
            .passageiros
            .iter()
            .map(|p| outorga_store::Passenger {
                name: p.nome.clone(),
                document: p.documento.clone(),
            })
            .collect(),
    })
}

/// Authorizes a charter or an emergency service when the law allows it
/// (422 with the reasons and articles when not): its authorization is a
/// document verifiable by its code.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/charters", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = FretamentoEntrada,
    responses((status = 201, body = FretamentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn authorize(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<FretamentoEntrada>,
) -> Result<(StatusCode, Json<FretamentoSaida>), ApiError> {
    let rulebook = bus_rulebook(&state, &j).await?;
    let asked = charter_input(&input)?;
    let change = change!(state, who, "fretamento pela API");
    let done = state
        .store
        .authorize_charter(&change, rulebook, &j, &asked)
        .await?;
    Ok((StatusCode::CREATED, Json(done.into())))
}

/// A charter or emergency service authorized.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/charters/{ano}/{numero}", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("ano" = i32, Path, description = "o ano"),
           ("numero" = i64, Path, description = "o número")),
    responses((status = 200, body = FretamentoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn charter(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<FretamentoSaida>, ApiError> {
    Ok(Json(state.store.charter(&j, (ano, numero)).await?.into()))
}

pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(authorize))
        .routes(routes!(charter))
}
