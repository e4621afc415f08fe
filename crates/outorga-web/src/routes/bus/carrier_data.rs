//! The carriers' files (tickets as CSV or BP-e, monthly statistics), a
//! carrier's month with the findings its own data shows, and a finding
//! turned into an auto.

use super::bus_rulebook;
use crate::auth::{Clerk, Inspector, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::autos::AutoSaida;
use crate::routes::change;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{CarrierFile, CarrierFileKind, MonthView, parse_month};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

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

pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(month))
        .routes(routes!(finding_auto))
}

/// A carrier's files: the upload with its own body limit, and the list.
pub(super) fn file_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(import_file, files))
        .layer(axum::extract::DefaultBodyLimit::max(
            outorga_store::MAX_CARRIER_FILE_BYTES,
        ))
}
