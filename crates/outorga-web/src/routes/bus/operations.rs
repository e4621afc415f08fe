//! How each line is operated: the version in force on a day, the
//! carrier's requests and the agency's decisions.

use super::{NaData, bus_rulebook};
use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::routes::{change, day_or_today, parse_day};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveTime;
use outorga_core::engine::bus_compliance::Schedule;
use outorga_store::{
    Operation, OperationDecision, OperationInput, OperationSource, ServiceLevel, WEEKDAYS,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// A line's operation as sent.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OperacaoEntrada {
    /// Em vigor a partir de (AAAA-MM-DD).
    pub vigencia: String,
    /// `convencional`, `executivo` ou `leito`.
    pub nivel: String,
    /// As partidas de cada dia da semana, "HH:MM", de segunda a domingo.
    pub horarios: Horarios,
    /// Viagens por semana, no mínimo (art. 13, V).
    pub frequencia_minima: u32,
    /// Os dois terminais (art. 13, IV).
    pub terminais: [String; 2],
    #[serde(default)]
    pub paradas: Vec<String>,
    /// A justificativa da transportadora (art. 34) ou o motivo do órgão.
    pub justificativa: String,
    /// O ato do órgão que a fixa (em vigor de imediato); ou
    pub ato: Option<String>,
    /// a transportadora da linha que a requer (CNPJ), aguardando decisão.
    pub transportadora: Option<String>,
}

/// The departures of each day of the week.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Horarios {
    #[serde(default)]
    pub segunda: Vec<String>,
    #[serde(default)]
    pub terca: Vec<String>,
    #[serde(default)]
    pub quarta: Vec<String>,
    #[serde(default)]
    pub quinta: Vec<String>,
    #[serde(default)]
    pub sexta: Vec<String>,
    #[serde(default)]
    pub sabado: Vec<String>,
    #[serde(default)]
    pub domingo: Vec<String>,
}

impl Horarios {
    fn days(&self) -> [&Vec<String>; 7] {
        [
            &self.segunda,
            &self.terca,
            &self.quarta,
            &self.quinta,
            &self.sexta,
            &self.sabado,
            &self.domingo,
        ]
    }

    fn of(schedule: &Schedule) -> Horarios {
        let day = |n: usize| {
            schedule.departures[n]
                .iter()
                .map(|t| t.format("%H:%M").to_string())
                .collect()
        };
        Horarios {
            segunda: day(0),
            terca: day(1),
            quarta: day(2),
            quinta: day(3),
            sexta: day(4),
            sabado: day(5),
            domingo: day(6),
        }
    }

    /// The schedule, each time checked.
    pub fn schedule(&self, minimum: u32) -> Result<Schedule, ApiError> {
        let mut departures: [Vec<NaiveTime>; 7] = Default::default();
        for ((slot, times), name) in departures.iter_mut().zip(self.days()).zip(WEEKDAYS) {
            *slot = times
                .iter()
                .map(|t| {
                    NaiveTime::parse_from_str(t.trim(), "%H:%M").map_err(|_| {
                        ApiError::field(
                            StatusCode::UNPROCESSABLE_ENTITY,
                            "horarios",
                            format!("{name}: `{t}` não é horário: escreva HH:MM, como 06:30"),
                        )
                    })
                })
                .collect::<Result<_, _>>()?;
        }
        Ok(Schedule {
            departures,
            min_weekly_trips: minimum,
        })
    }
}

/// A version of a line's operation.
#[derive(Debug, Serialize, ToSchema)]
pub struct OperacaoSaida {
    pub linha: String,
    pub numero: i64,
    pub vigencia: String,
    pub nivel: String,
    pub horarios: Horarios,
    pub partidas_por_semana: usize,
    pub frequencia_minima: u32,
    pub terminais: [String; 2],
    pub paradas: Vec<String>,
    pub justificativa: String,
    /// A transportadora que a requereu; nenhuma quando o órgão a fixou.
    pub requerida_por: Option<String>,
    pub requerida_em: String,
    /// `requested`, `approved` ou `refused`.
    pub situacao: String,
    pub situacao_nome: String,
    pub decidida_em: Option<String>,
    pub ato: Option<String>,
    pub fundamentos: Option<String>,
    pub artigos: Vec<String>,
}

impl From<Operation> for OperacaoSaida {
    fn from(o: Operation) -> OperacaoSaida {
        OperacaoSaida {
            linha: o.line,
            numero: o.seq,
            vigencia: o.input.since.to_string(),
            nivel: o.input.level.name().into(),
            horarios: Horarios::of(&o.input.schedule),
            partidas_por_semana: o.input.schedule.weekly(),
            frequencia_minima: o.input.schedule.min_weekly_trips,
            terminais: [o.input.terminals.0, o.input.terminals.1],
            paradas: o.input.stops,
            justificativa: o.input.justification,
            requerida_por: o.requested_by,
            requerida_em: o.requested_on.to_string(),
            situacao: o.status.name().into(),
            situacao_nome: o.status.portuguese().into(),
            decidida_em: o.decided_on.map(|d| d.to_string()),
            ato: o.act,
            fundamentos: o.grounds,
            artigos: o.articles,
        }
    }
}

/// The operation of a line on a day, and every version.
#[derive(Debug, Serialize, ToSchema)]
pub struct OperacoesSaida {
    pub data: String,
    pub em_vigor: Option<OperacaoSaida>,
    pub versoes: Vec<OperacaoSaida>,
}

/// The operation of a line as sent, checked.
pub fn operation_input(input: &OperacaoEntrada) -> Result<OperationInput, ApiError> {
    let level = ServiceLevel::parse(input.nivel.trim()).ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "nivel",
            format!("`{}`: convencional, executivo ou leito", input.nivel),
        )
    })?;
    Ok(OperationInput {
        since: parse_day(&input.vigencia, "vigencia")?,
        level,
        schedule: input.horarios.schedule(input.frequencia_minima)?,
        terminals: (input.terminais[0].clone(), input.terminais[1].clone()),
        stops: input.paradas.clone(),
        justification: input.justificativa.clone(),
    })
}

/// Sets (by the agency's act) or asks for (by the carrier) a version of a
/// line's operation.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/lines/{linha}/operations", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("linha" = String, Path, description = "o código da linha")),
    request_body = OperacaoEntrada,
    responses((status = 201, body = OperacaoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn put_operation(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, line)): Path<(String, String)>,
    Json(input): Json<OperacaoEntrada>,
) -> Result<(StatusCode, Json<OperacaoSaida>), ApiError> {
    let rulebook = bus_rulebook(&state, &j).await?;
    let operation = operation_input(&input)?;
    let carrier = input
        .transportadora
        .as_deref()
        .map(|c| outorga_store::parse_document(c).map(|d| d.0))
        .transpose()?;
    let by = match (input.ato.as_deref(), carrier.as_deref()) {
        (Some(act), None) => OperationSource::Agency { act },
        (None, Some(carrier)) => OperationSource::Carrier(carrier),
        _ => {
            return Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "ato",
                "envie o `ato` do órgão que fixa a operação ou a `transportadora` que a requer, um dos dois",
            ));
        }
    };
    let change = change!(state, who, "operação de linha pela API");
    let done = state
        .store
        .put_operation(&change, rulebook, &j, &line, &operation, by)
        .await?;
    Ok((StatusCode::CREATED, Json(done.into())))
}

/// A line's operation in force on a day, and every version.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/lines/{linha}/operations", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("linha" = String, Path, description = "o código da linha"), NaData),
    responses((status = 200, body = OperacoesSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn operations(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, line)): Path<(String, String)>,
    Query(asked): Query<NaData>,
) -> Result<Json<OperacoesSaida>, ApiError> {
    let on = day_or_today(&state, &j, asked.data.as_deref(), "data")?;
    let (all, current) = state.store.line_operations(&j, &line, on).await?;
    Ok(Json(OperacoesSaida {
        data: on.to_string(),
        em_vigor: current.map(Into::into),
        versoes: all.into_iter().map(Into::into).collect(),
    }))
}

/// The agency's decision on a carrier's request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisaoEntrada {
    pub aprovar: bool,
    /// AAAA-MM-DD.
    pub data: String,
    pub ato: String,
    /// Obrigatórios para recusar.
    #[serde(default)]
    pub fundamentos: String,
}

/// Approves or refuses a carrier's request to change a line's operation.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/lines/{linha}/operations/{numero}/decision", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("linha" = String, Path, description = "o código da linha"),
           ("numero" = i64, Path, description = "o número do requerimento")),
    request_body = DecisaoEntrada,
    responses((status = 200, body = OperacaoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn decide(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, line, seq)): Path<(String, String, i64)>,
    Json(input): Json<DecisaoEntrada>,
) -> Result<Json<OperacaoSaida>, ApiError> {
    let rulebook = bus_rulebook(&state, &j).await?;
    let decision = OperationDecision {
        approve: input.aprovar,
        on: parse_day(&input.data, "data")?,
        act: input.ato,
        grounds: input.fundamentos,
    };
    let change = change!(state, who, "decisão sobre operação de linha pela API");
    let done = state
        .store
        .decide_operation(&change, rulebook, &j, (&line, seq), &decision)
        .await?;
    Ok(Json(done.into()))
}

pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(put_operation, operations))
        .routes(routes!(decide))
}
