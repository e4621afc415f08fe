//! The register of the carriers authorized for special services (Amapá
//! art. 28, § 4º): a carrier registered — or its registration renewed —
//! with the documents it presented (as base64), its registrations and their
//! documents, and a registration cancelled by the agency with its grounds
//! (art. 28, § 5º).

use super::{ArquivoGuardado, attachment_file, base64_body, base64_file, bus_rulebook};
use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::change;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use outorga_store::{CarrierRegistration, RegistrationDocument, RegistrationFileKind};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// A document the carrier presents for its registration.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentoRegistro {
    /// `articles_of_association` (contrato social), `cnpj_card`,
    /// `clearance_certificates` (certidões negativas), `fleet_inspection`,
    /// `insurance_policy` ou `other`.
    pub tipo: String,
    pub nome: String,
    /// O arquivo em base64 (PDF, JPEG ou PNG).
    pub conteudo: String,
}

/// A carrier registered, or its registration renewed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegistroEntrada {
    /// Os documentos apresentados: ao menos um, até 10 e 20 MB ao todo.
    pub documentos: Vec<DocumentoRegistro>,
}

/// A registration's cancellation.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CassacaoEntrada {
    /// Os fundamentos da cassação.
    pub motivo: String,
}

/// A carrier's registration.
#[derive(Debug, Serialize, ToSchema)]
pub struct RegistroSaida {
    /// "número/ano".
    pub registro: String,
    pub ano: i32,
    pub numero: i64,
    pub transportadora: String,
    pub concedido_em: String,
    /// O primeiro e o último dia de vigência.
    pub de: String,
    pub ate: String,
    /// O registro que renova, se renova.
    pub renova: Option<String>,
    /// `in_force` ou `cancelled`, e como se lê.
    pub situacao: String,
    pub situacao_nome: String,
    pub cassado_em: Option<String>,
    pub motivo_cassacao: Option<String>,
    pub artigo_cassacao: Option<String>,
    pub registrado_por: String,
    pub artigos: Vec<String>,
    pub documentos: Vec<ArquivoGuardado>,
}

impl From<CarrierRegistration> for RegistroSaida {
    fn from(r: CarrierRegistration) -> RegistroSaida {
        let (cassado_em, motivo_cassacao, artigo_cassacao) = match r.cancelled.clone() {
            Some((on, why, article)) => (Some(on.to_string()), Some(why), Some(article)),
            None => (None, None, None),
        };
        RegistroSaida {
            registro: r.label(),
            ano: r.year,
            numero: r.number,
            transportadora: r.carrier,
            concedido_em: r.granted_on.to_string(),
            de: r.valid_from.to_string(),
            ate: r.valid_until.to_string(),
            renova: r.renews,
            situacao: r.status.name().into(),
            situacao_nome: r.status.portuguese().into(),
            cassado_em,
            motivo_cassacao,
            artigo_cassacao,
            registrado_por: r.recorded_by,
            artigos: r.articles,
            documentos: r
                .files
                .into_iter()
                .map(|f| ArquivoGuardado::of((f.kind.name(), f.kind.portuguese()), f.file))
                .collect(),
        }
    }
}

/// The documents as sent, read.
pub fn registration_documents(
    documentos: &[DocumentoRegistro],
) -> Result<Vec<RegistrationDocument>, ApiError> {
    documentos
        .iter()
        .map(|d| {
            let kind = RegistrationFileKind::parse(d.tipo.trim()).ok_or_else(|| {
                ApiError::field(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "documentos",
                    format!(
                        "`{}`: o documento é articles_of_association, cnpj_card, \
                         clearance_certificates, fleet_inspection, insurance_policy ou other",
                        d.tipo
                    ),
                )
            })?;
            Ok(RegistrationDocument {
                kind,
                file: base64_file("documentos", &d.nome, &d.conteudo)?,
            })
        })
        .collect()
}

/// The registration of `key` when it is `carrier`'s.
async fn own(
    state: &AppState,
    j: &str,
    carrier: &str,
    key: (i32, i64),
) -> Result<CarrierRegistration, ApiError> {
    let (carrier, _) = outorga_store::parse_document(carrier)?;
    let found = state.store.carrier_registration(j, key).await?;
    if found.carrier != carrier {
        return Err(ApiError::not_found(format!(
            "o registro nº {}/{} não é da transportadora {carrier}",
            key.1, key.0
        )));
    }
    Ok(found)
}

/// Registers a carrier in the register of the carriers authorized for
/// charters, with the documents it presented — or, while its registration
/// is in force, renews it from the day after it ends (the term is the
/// law's: `[bus.charters.registration]`).
#[utoipa::path(post, path = "/api/jurisdictions/{j}/carriers/{transportadora}/registrations", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora")),
    request_body = RegistroEntrada,
    responses((status = 201, body = RegistroSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn register(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, carrier)): Path<(String, String)>,
    Json(input): Json<RegistroEntrada>,
) -> Result<(StatusCode, Json<RegistroSaida>), ApiError> {
    let rulebook = bus_rulebook(&state, &j).await?;
    let documents = registration_documents(&input.documentos)?;
    let change = change!(state, who, "registro cadastral pela API");
    let done = state
        .store
        .register_carrier(&change, rulebook, &j, &carrier, &documents)
        .await?;
    Ok((StatusCode::CREATED, Json(done.into())))
}

/// A page of a carrier's registrations, newest first, with their documents.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/carriers/{transportadora}/registrations", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora"), Pagina),
    responses((status = 200, body = Lista<RegistroSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn registrations(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, carrier)): Path<(String, String)>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<RegistroSaida>>, ApiError> {
    let asked = page.asked()?;
    let found = state
        .store
        .carrier_registrations(&j, &carrier, asked.window())
        .await?;
    Ok(Json(Lista::of(found)))
}

/// A carrier's registration.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/carriers/{transportadora}/registrations/{ano}/{numero}", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora"),
           ("ano" = i32, Path, description = "o ano"), ("numero" = i64, Path, description = "o número")),
    responses((status = 200, body = RegistroSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn registration(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, carrier, ano, numero)): Path<(String, String, i32, i64)>,
) -> Result<Json<RegistroSaida>, ApiError> {
    Ok(Json(own(&state, &j, &carrier, (ano, numero)).await?.into()))
}

/// Cancels a carrier's registration at once, on the grounds given (art.
/// 28, § 5º), and the renewal already granted after it.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/carriers/{transportadora}/registrations/{ano}/{numero}/cancellation", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora"),
           ("ano" = i32, Path, description = "o ano"), ("numero" = i64, Path, description = "o número")),
    request_body = CassacaoEntrada,
    responses((status = 200, body = RegistroSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn cancel(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, carrier, ano, numero)): Path<(String, String, i32, i64)>,
    Json(input): Json<CassacaoEntrada>,
) -> Result<Json<RegistroSaida>, ApiError> {
    let rulebook = bus_rulebook(&state, &j).await?;
    own(&state, &j, &carrier, (ano, numero)).await?;
    let change = change!(state, who, "cassação do registro cadastral pela API");
    let done = state
        .store
        .cancel_carrier_registration(&change, rulebook, &j, (ano, numero), &input.motivo)
        .await?;
    Ok(Json(done.into()))
}

/// A document of a carrier's registration.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/carriers/{transportadora}/registrations/{ano}/{numero}/files/{arquivo}", tag = "ônibus",
    params(("j" = String, Path, description = "a jurisdição"), ("transportadora" = String, Path, description = "o CNPJ da transportadora"),
           ("ano" = i32, Path, description = "o ano"), ("numero" = i64, Path, description = "o número"),
           ("arquivo" = i64, Path, description = "o número do documento")),
    responses((status = 200, description = "o documento (PDF, JPEG ou PNG)"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn registration_file(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, carrier, ano, numero, arquivo)): Path<(String, String, i32, i64, i64)>,
) -> Result<Response, ApiError> {
    own(&state, &j, &carrier, (ano, numero)).await?;
    let (name, kind, bytes) = state
        .store
        .carrier_registration_file(&j, (ano, numero), arquivo)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "não há documento nº {arquivo} no registro nº {numero}/{ano}"
            ))
        })?;
    Ok(attachment_file(&name, &kind, bytes))
}

pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(registration))
        .routes(routes!(cancel))
        .routes(routes!(registration_file))
}

/// A carrier registered with its documents, under its own body limit, and
/// the list on the same path.
pub(super) fn file_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register, registrations))
        .layer(axum::extract::DefaultBodyLimit::max(base64_body(
            outorga_store::REGISTRATION_MAX_BYTES,
        )))
}
