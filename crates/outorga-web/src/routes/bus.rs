//! Intercity buses: how each line is operated (the version in force on a
//! day, the carrier's requests and the agency's decisions), the carriers'
//! files (tickets as CSV or BP-e, monthly statistics), a carrier's month
//! with the findings its own data shows, and a finding turned into an auto.

use crate::auth::{Clerk, Inspector, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::autos::AutoSaida;
use crate::routes::{bound_rulebooks, change, day_or_today, parse_day};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveTime;
use outorga_core::engine::bus_compliance::Schedule;
use outorga_core::model::Rulebook;
use outorga_store::{
    CarrierFile, CarrierFileKind, MonthView, Operation, OperationDecision, OperationInput,
    OperationSource, ServiceLevel, WEEKDAYS, parse_month,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The rulebook of `j` that has the bus rules.
pub async fn bus_rulebook<'a>(state: &'a AppState, j: &str) -> Result<&'a Rulebook, ApiError> {
    bound_rulebooks(state, j)
        .await?
        .into_iter()
        .find(|r| r.bus.is_some())
        .ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "jurisdição",
                format!("{j} não regula transporte intermunicipal de ônibus"),
            )
        })
}

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

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NaData {
    /// AAAA-MM-DD; hoje quando omitido.
    pub data: Option<String>,
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

/// A row of a file not imported.
#[derive(Debug, Serialize, ToSchema)]
pub struct LinhaRecusada {
    pub linha: u64,
    pub campo: String,
    pub motivo: String,
}

/// A carrier's file as recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArquivoSaida {
    pub numero: i64,
    pub transportadora: String,
    /// `tickets_csv`, `tickets_bpe` ou `statistics_csv`.
    pub tipo: String,
    pub tipo_nome: String,
    /// AAAA-MM.
    pub mes: String,
    pub nome: String,
    pub sha256: String,
    pub recebido_em: String,
    /// Bilhetes ou viagens acrescentados.
    pub aceitos: i64,
    /// Já registrados antes, não acrescentados de novo.
    pub repetidos: i64,
    pub recusados: Vec<LinhaRecusada>,
    /// O mesmo arquivo já tinha sido importado: nada foi acrescentado agora.
    pub ja_importado: bool,
}

impl From<CarrierFile> for ArquivoSaida {
    fn from(f: CarrierFile) -> ArquivoSaida {
        ArquivoSaida {
            numero: f.id,
            transportadora: f.carrier,
            tipo: f.kind.name().into(),
            tipo_nome: f.kind.portuguese().into(),
            mes: f.month.format("%Y-%m").to_string(),
            recusados: f
                .refused
                .into_iter()
                .map(|r| LinhaRecusada {
                    linha: r.line,
                    campo: r.field,
                    motivo: r.reason,
                })
                .collect(),
            nome: f.name,
            sha256: f.sha256,
            recebido_em: f.received_on.to_string(),
            aceitos: f.accepted,
            repetidos: f.repeated,
            ja_importado: f.earlier,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ArquivoParams {
    /// `tickets_csv`, `tickets_bpe` ou `statistics_csv`.
    pub tipo: String,
    /// O mês que o arquivo cobre, AAAA-MM.
    pub mes: String,
    /// O nome do arquivo, para o relatório.
    pub nome: String,
}

/// Imports a carrier's file (the body, as sent): tickets as CSV or BP-e
/// XML, or the monthly statistics as CSV. The same file again adds nothing
/// (200, `ja_importado`).
#[utoipa::path(post, path = "/api/jurisdictions/{j}/carriers/{transportadora}/files", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora"), ArquivoParams),
    request_body(content = String, content_type = "text/csv"),
    responses((status = 201, body = ArquivoSaida), (status = 200, body = ArquivoSaida),
              (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn import_file(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, carrier)): Path<(String, String)>,
    Query(params): Query<ArquivoParams>,
    body: Bytes,
) -> Result<(StatusCode, Json<ArquivoSaida>), ApiError> {
    let rulebook = bus_rulebook(&state, &j).await?;
    let kind = CarrierFileKind::parse(params.tipo.trim()).ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tipo",
            format!(
                "`{}`: tickets_csv, tickets_bpe ou statistics_csv",
                params.tipo
            ),
        )
    })?;
    let month = parse_month(&params.mes)?;
    let (carrier, _) = outorga_store::parse_document(&carrier)?;
    let change = change!(state, who, "arquivo da transportadora pela API");
    let file = state
        .store
        .import_carrier_file(
            &change,
            rulebook,
            &j,
            &carrier,
            (kind, month),
            (&params.nome, &body),
        )
        .await?;
    let status = if file.earlier {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((status, Json(file.into())))
}

/// A page of the files a carrier handed in, newest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/carriers/{transportadora}/files", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora"), Pagina),
    responses((status = 200, body = Lista<ArquivoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn files(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, carrier)): Path<(String, String)>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<ArquivoSaida>>, ApiError> {
    let asked = page.asked()?;
    let (carrier, _) = outorga_store::parse_document(&carrier)?;
    let found = state
        .store
        .carrier_files(&j, &carrier, asked.window())
        .await?;
    Ok(Json(Lista::of(found)))
}

/// A line's month.
#[derive(Debug, Serialize, ToSchema)]
pub struct LinhaMes {
    pub linha: String,
    pub nome: String,
    pub viagens_programadas: usize,
    pub viagens_realizadas: usize,
    pub bilhetes: usize,
    /// Bilhetes sobre as poltronas das viagens realizadas, em %.
    pub ocupacao: Option<String>,
}

/// A finding of a carrier's data.
#[derive(Debug, Serialize, ToSchema)]
pub struct Constatacao {
    /// Identifica a constatação no mês (para lavrar o auto).
    pub chave: String,
    /// `seat_sold_twice`, `over_capacity`, `ticket_fields`,
    /// `below_minimum_frequency` ou `late_statistics`.
    pub tipo: String,
    pub linha: Option<String>,
    pub quando: String,
    /// O código da infração no catálogo.
    pub infracao: String,
    pub artigos: Vec<String>,
    pub descricao: String,
    /// O auto lavrado, "número/ano", quando já foi.
    pub auto: Option<String>,
}

/// A carrier's month.
#[derive(Debug, Serialize, ToSchema)]
pub struct MesSaida {
    pub transportadora: String,
    pub mes: String,
    pub estatisticas_devidas_em: String,
    pub artigos_do_prazo: Vec<String>,
    pub estatisticas_entregues_em: Option<String>,
    pub linhas: Vec<LinhaMes>,
    pub constatacoes: Vec<Constatacao>,
}

impl From<MonthView> for MesSaida {
    fn from(m: MonthView) -> MesSaida {
        MesSaida {
            transportadora: m.carrier,
            mes: m.month.format("%Y-%m").to_string(),
            estatisticas_devidas_em: m.due.to_string(),
            artigos_do_prazo: m.due_articles,
            estatisticas_entregues_em: m.delivered.map(|d| d.to_string()),
            linhas: m
                .lines
                .into_iter()
                .map(|l| LinhaMes {
                    linha: l.line,
                    nome: l.name,
                    viagens_programadas: l.scheduled,
                    viagens_realizadas: l.made,
                    bilhetes: l.tickets,
                    ocupacao: l.occupancy.map(|o| o.to_string()),
                })
                .collect(),
            constatacoes: m
                .findings
                .into_iter()
                .map(|f| Constatacao {
                    chave: f.key,
                    tipo: f.kind.name().into(),
                    linha: f.line,
                    quando: f.at.format("%Y-%m-%dT%H:%M").to_string(),
                    infracao: f.infraction,
                    artigos: f.articles,
                    descricao: f.detail,
                    auto: f.auto.map(|(y, n)| format!("{n}/{y}")),
                })
                .collect(),
        }
    }
}

/// A carrier's month: trips scheduled and made, tickets, occupancy, and the
/// findings its own data shows, each with its article.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/carriers/{transportadora}/months/{mes}", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora"),
           ("mes" = String, Path, description = "AAAA-MM")),
    responses((status = 200, body = MesSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn month(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, carrier, month)): Path<(String, String, String)>,
) -> Result<Json<MesSaida>, ApiError> {
    let rulebook = bus_rulebook(&state, &j).await?;
    let (carrier, _) = outorga_store::parse_document(&carrier)?;
    let month = parse_month(&month)?;
    let today = crate::routes::today_in(&state, &j);
    let view = state
        .store
        .carrier_month(rulebook, &j, &carrier, month, today)
        .await?;
    Ok(Json(view.into()))
}

/// Issues the auto a finding of a carrier's data makes (once).
#[utoipa::path(post, path = "/api/jurisdictions/{j}/carriers/{transportadora}/months/{mes}/findings/{chave}/auto", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora"),
           ("mes" = String, Path, description = "AAAA-MM"), ("chave" = String, Path, description = "a chave da constatação")),
    responses((status = 201, body = AutoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn finding_auto(
    State(state): State<AppState>,
    who: Inspector,
    Path((j, carrier, month, key)): Path<(String, String, String, String)>,
) -> Result<(StatusCode, Json<AutoSaida>), ApiError> {
    let rulebook = bus_rulebook(&state, &j).await?;
    let (carrier, _) = outorga_store::parse_document(&carrier)?;
    let change = change!(state, who, "auto a partir dos dados da transportadora");
    let auto = state
        .store
        .auto_from_finding(&change, rulebook, &j, (&carrier, &month), &key)
        .await?;
    let priced = crate::routes::priced_auto(&state, &j, (auto.year, auto.number)).await?;
    Ok((StatusCode::CREATED, Json(priced.into())))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(put_operation, operations))
        .routes(routes!(decide))
        .routes(routes!(month))
        .routes(routes!(finding_auto))
        .routes(routes!(authorize))
        .routes(routes!(charter))
        .routes(routes!(fleet))
        .routes(routes!(withdraw))
        .routes(routes!(declare_ties, ties))
        .routes(routes!(declare_relatives))
}

/// A carrier's files: the upload with its own body limit, and the list.
pub(crate) fn file_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(import_file, files))
        .layer(axum::extract::DefaultBodyLimit::max(
            outorga_store::MAX_CARRIER_FILE_BYTES,
        ))
}

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

/// A bus of a delegation's fleet.
#[derive(Debug, Serialize, ToSchema)]
pub struct OnibusDaFrota {
    pub placa: String,
    pub marca: Option<String>,
    pub modelo: Option<String>,
    pub ano_fabricacao: i32,
    /// Poltronas (lugares além do motorista).
    pub poltronas: Option<u16>,
    pub desde: String,
    pub ate: Option<String>,
}

/// A delegation's fleet on a day.
#[derive(Debug, Serialize, ToSchema)]
pub struct FrotaSaida {
    pub data: String,
    pub onibus: Vec<OnibusDaFrota>,
    /// Poltronas de toda a frota.
    pub poltronas: u32,
}

/// The buses serving a delegation on a day (today when none is asked).
#[utoipa::path(get, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/fleet", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da delegação"), NaData),
    responses((status = 200, body = FrotaSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn fleet(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Query(asked): Query<NaData>,
) -> Result<Json<FrotaSaida>, ApiError> {
    let on = day_or_today(&state, &j, asked.data.as_deref(), "data")?;
    state.store.permit(&j, &servico, numero).await?;
    let buses = state.store.fleet_on(&j, (&servico, numero), on).await?;
    Ok(Json(FrotaSaida {
        data: on.to_string(),
        poltronas: buses
            .iter()
            .map(|(v, _, _)| u32::from(v.capacity.unwrap_or(0)))
            .sum(),
        onibus: buses
            .into_iter()
            .map(|(v, since, until)| OnibusDaFrota {
                placa: v.plate,
                marca: v.make,
                modelo: v.model,
                ano_fabricacao: v.manufactured,
                poltronas: v.capacity,
                desde: since.to_string(),
                ate: until.map(|u| u.to_string()),
            })
            .collect(),
    }))
}

/// The day a bus leaves a fleet.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RetiradaEntrada {
    /// AAAA-MM-DD; hoje quando omitido.
    pub data: Option<String>,
}

/// Withdraws a bus from a delegation's fleet: its traffic authorization
/// ends with its service.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/fleet/{placa}/withdrawal", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da delegação"), ("placa" = String, Path, description = "a placa")),
    request_body = RetiradaEntrada,
    responses((status = 204, description = "retirado da frota"), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn withdraw(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero, placa)): Path<(String, String, i64, String)>,
    Json(input): Json<RetiradaEntrada>,
) -> Result<StatusCode, ApiError> {
    let rulebook = crate::routes::rulebook_for_service(&state, &j, &servico).await?;
    let on = day_or_today(&state, &j, input.data.as_deref(), "data")?;
    let change = change!(state, who, "ônibus retirado da frota pela API");
    state
        .store
        .withdraw_vehicle(&change, rulebook, &j, (&servico, numero), &placa, on)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A partner: the CPF or CNPJ and the share of the voting capital.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Socio {
    pub documento: String,
    /// Em %, decimal em texto: "12,5".
    pub participacao: String,
}

/// A company's ties as its articles of association say (art. 9º).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VinculosEmpresa {
    #[serde(default)]
    pub socios: Vec<Socio>,
    /// Diretores, sócios-gerentes e administradores (CPF ou CNPJ).
    #[serde(default)]
    pub diretores: Vec<String>,
    /// O grupo empresarial; nenhum quando omitido.
    pub grupo: Option<String>,
    /// O contrato social ou a alteração em que se baseia.
    pub ato: String,
    /// AAAA-MM-DD; hoje quando omitido.
    pub data: Option<String>,
}

/// Declares a company's partners, directors and group (replacing the
/// declaration before): what the interdependence check of art. 9º reads.
#[utoipa::path(put, path = "/api/jurisdictions/{j}/people/{documento}/company-ties", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("documento" = String, Path, description = "o CNPJ da empresa")),
    request_body = VinculosEmpresa,
    responses((status = 204, description = "declarados"), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn declare_ties(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, documento)): Path<(String, String)>,
    Json(input): Json<VinculosEmpresa>,
) -> Result<StatusCode, ApiError> {
    let ties = outorga_store::CompanyTies {
        partners: input
            .socios
            .iter()
            .map(|s| {
                Ok(outorga_store::Member {
                    document: s.documento.clone(),
                    voting_share: Some(outorga_store::parse_share(&s.participacao)?),
                })
            })
            .collect::<Result<_, ApiError>>()?,
        directors: input.diretores,
        business_group: input.grupo,
        act: input.ato,
        declared_on: day_or_today(&state, &j, input.data.as_deref(), "data")?,
    };
    let change = change!(state, who, "vínculos da empresa pela API");
    state
        .store
        .declare_company_ties(&change, &j, &documento, &ties)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A company's ties as last declared.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/people/{documento}/company-ties", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("documento" = String, Path, description = "o CNPJ da empresa")),
    responses((status = 200, body = VinculosEmpresa), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn ties(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, documento)): Path<(String, String)>,
) -> Result<Json<VinculosEmpresa>, ApiError> {
    let (company, _) = outorga_store::parse_document(&documento)?;
    let found = state
        .store
        .company_ties(&j, &company)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "a empresa {company} não declarou seus sócios, diretores e grupo"
            ))
        })?;
    Ok(Json(VinculosEmpresa {
        socios: found
            .partners
            .into_iter()
            .map(|p| Socio {
                documento: p.document,
                participacao: p.voting_share.map(|s| s.to_string()).unwrap_or_default(),
            })
            .collect(),
        diretores: found.directors,
        grupo: found.business_group,
        ato: found.act,
        data: Some(found.declared_on.to_string()),
    }))
}

/// A person's spouse and relatives up to the third civil degree.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Parentes {
    /// CPF de cada um (a lista vazia declara que não há).
    #[serde(default)]
    pub parentes: Vec<String>,
    pub ato: String,
    /// AAAA-MM-DD; hoje quando omitido.
    pub data: Option<String>,
}

/// Declares a person's spouse and relatives (art. 9º, III), replacing the
/// declaration before.
#[utoipa::path(put, path = "/api/jurisdictions/{j}/people/{documento}/relatives", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("documento" = String, Path, description = "o CPF")),
    request_body = Parentes,
    responses((status = 204, description = "declarados"), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn declare_relatives(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, documento)): Path<(String, String)>,
    Json(input): Json<Parentes>,
) -> Result<StatusCode, ApiError> {
    let on = day_or_today(&state, &j, input.data.as_deref(), "data")?;
    let change = change!(state, who, "parentes declarados pela API");
    state
        .store
        .declare_relatives(&change, &j, &documento, (&input.parentes, &input.ato, on))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
