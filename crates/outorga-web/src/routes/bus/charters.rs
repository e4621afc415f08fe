//! Charters and emergency services by authorization, and their
//! authorization's document; the files sent with the request (contract,
//! invoice, the list as signed), as base64, and each downloaded.

use super::{ArquivoGuardado, attachment_file, base64_body, base64_file, bus_rulebook};
use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::{change, parse_day};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use outorga_store::CharterFileKind;
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
    /// Fretamento contínuo: a quantidade de viagens que o contrato define.
    pub viagens: Option<u32>,
    /// Serviço emergencial: a linha atendida.
    pub linha: Option<String>,
    #[serde(default)]
    pub passageiros: Vec<PassageiroEntrada>,
    /// Arquivos do pedido (PDF, JPEG ou PNG, até 5 e 10 MB ao todo): o
    /// contrato, a nota fiscal, a lista assinada. A nota fiscal ou o
    /// contrato anexados valem como informados.
    #[serde(default)]
    pub anexos: Vec<AnexoFretamento>,
}

/// A file sent with a charter's request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnexoFretamento {
    /// `contract`, `invoice`, `passenger_list` ou `other`.
    pub tipo: String,
    pub nome: String,
    /// O arquivo em base64.
    pub conteudo: String,
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
    /// Fretamento contínuo: as viagens que o contrato define.
    pub viagens: Option<u32>,
    pub autorizado_em: String,
    /// O código da autorização, que o fiscal verifica em `/verificar/{codigo}`.
    pub documento: String,
    pub artigos: Vec<String>,
    /// O registro cadastral da transportadora em que foi autorizado
    /// ("número/ano"; art. 28, § 4º; 64, IV).
    pub registro_cadastral: Option<String>,
    /// Os arquivos do pedido (`GET …/charters/{ano}/{numero}/files/{arquivo}`).
    pub anexos: Vec<ArquivoGuardado>,
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
            viagens: c.input.trips,
            transportadora: c.input.carrier,
            origem: c.input.origin,
            destino: c.input.destination,
            retorno: c.input.end,
            placa: c.input.plate,
            autorizado_em: c.authorized_on.to_string(),
            documento: c.document.code,
            artigos: c.articles,
            registro_cadastral: c.registration,
            anexos: c
                .files
                .into_iter()
                .map(|f| ArquivoGuardado::of((f.kind.name(), f.kind.portuguese()), f.file))
                .collect(),
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
        trips: input.viagens,
        line: input.linha.clone(),
        passengers: input
            .passageiros
            .iter()
            .map(|p| outorga_store::Passenger {
                name: p.nome.clone(),
                document: p.documento.clone(),
            })
            .collect(),
        files: input
            .anexos
            .iter()
            .map(|a| {
                let kind = CharterFileKind::parse(a.tipo.trim()).ok_or_else(|| {
                    ApiError::field(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        "anexos",
                        format!(
                            "`{}`: o anexo é contract, invoice, passenger_list ou other",
                            a.tipo
                        ),
                    )
                })?;
                Ok(outorga_store::CharterDocument {
                    kind,
                    file: base64_file("anexos", &a.nome, &a.conteudo)?,
                })
            })
            .collect::<Result<_, ApiError>>()?,
    })
}

/// Authorizes a charter or an emergency service when the law allows it
/// (422 with the reasons and articles when not; a charter only to a
/// carrier registered on every day of the service): its authorization is a
/// document verifiable by its code. The files come with the request.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/charters", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = FretamentoEntrada,
    responses((status = 201, body = FretamentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
              (status = 422, body = ErrorBody)),
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

/// A file sent with a charter's request.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/charters/{ano}/{numero}/files/{arquivo}", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("ano" = i32, Path, description = "o ano"),
           ("numero" = i64, Path, description = "o número"), ("arquivo" = i64, Path, description = "o número do arquivo")),
    responses((status = 200, description = "o arquivo (PDF, JPEG ou PNG)"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn charter_file(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero, arquivo)): Path<(String, i32, i64, i64)>,
) -> Result<Response, ApiError> {
    let (name, kind, bytes) = state
        .store
        .charter_file(&j, (ano, numero), arquivo)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "não há arquivo nº {arquivo} na autorização nº {numero}/{ano}"
            ))
        })?;
    Ok(attachment_file(&name, &kind, bytes))
}

pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(charter))
        .routes(routes!(charter_file))
}

/// A charter asked with its files, under its own body limit.
pub(super) fn file_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(authorize))
        .layer(axum::extract::DefaultBodyLimit::max(base64_body(
            outorga_store::CHARTER_MAX_BYTES,
        )))
}
