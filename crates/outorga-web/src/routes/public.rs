//! Public checks anyone can make without signing in (a passenger checking a
//! taxi, an inspector on the street, a court checking a document): whether a
//! vehicle or a driver is licensed, whether a document is valid. They show
//! no holder name, no CPF or CNPJ, and make no authentication lookup.
//! Each takes a [`PublicLookup`] first: a client past its rate (a burst,
//! then a steady rate per second, counted by this process alone) is
//! answered 429 with `Retry-After`.

use crate::auth::Public;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::limits::PublicLookup;
use crate::routes::documents::DocumentoSaida;
use crate::routes::text;
use crate::state::AppState;
use crate::vocab::{FUNCOES, SITUACOES_PERMISSAO};
use axum::extract::State;
use chrono::NaiveDate;
use outorga_core::engine::in_service::{self, Bar};
use outorga_core::model::PermitStatus;
use outorga_store::Document;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct VeiculoPublico {
    pub placa: String,
    /// Marca, modelo e cor, como cadastrados: para o passageiro reconhecer
    /// o veículo.
    pub marca: Option<String>,
    pub modelo: Option<String>,
    pub cor: Option<String>,
    /// Pode prestar o serviço hoje: permissão em vigor, autorização de
    /// tráfego e vistoria aprovada em vigor, sem impedimento, apreensão ou
    /// retenção.
    pub licenciado: bool,
    /// O que o impede hoje, quando não está licenciado.
    pub motivos: Vec<String>,
    pub servico: Option<String>,
    pub permissao: Option<i64>,
    /// A situação da permissão.
    pub situacao_permissao: Option<String>,
    /// A situação da permissão por extenso.
    pub situacao_permissao_nome: Option<String>,
    /// Validade da autorização de tráfego em vigor.
    pub autorizacao_valida_ate: Option<String>,
    /// Validade do selo da última vistoria aprovada.
    pub vistoria_valida_ate: Option<String>,
    pub vistoria_valida: bool,
    /// Impedido, apreendido ou retido até este dia (o último em vigor).
    pub impedido_ate: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CondutorPublico {
    pub matricula: String,
    pub servico: String,
    pub permissao: i64,
    pub funcao: String,
    /// Em atividade, com a matrícula no prazo, sem suspensão e com a
    /// permissão em vigor hoje.
    pub valido: bool,
    /// O que o impede hoje, quando não é válido.
    pub motivos: Vec<String>,
    pub valida_ate: Option<String>,
    /// Quando deixou a permissão, se deixou.
    pub desligado_em: Option<String>,
    /// Suspenso por penalidade definitiva até este dia.
    pub suspenso_ate: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentoPublico {
    #[serde(flatten)]
    pub documento: DocumentoSaida,
    /// Válido hoje: emitido, não cancelado, no prazo, e o que ele atesta
    /// (o veículo da autorização de tráfego, o condutor da matrícula, a
    /// permissão do termo) em serviço.
    pub valido: bool,
    /// O que o impede hoje, quando não é válido.
    pub motivos: Vec<String>,
    /// Os arquivos PDF que o órgão emitiu do documento, com o resumo
    /// SHA-256 de cada um: um arquivo recebido é autêntico se tem o mesmo.
    pub arquivos: Vec<ArquivoPublico>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ArquivoPublico {
    /// `a4` ou `cartao`.
    pub formato: String,
    pub sha256: String,
}

/// A jurisdiction as people name it ("Teófilo Otoni"), from its rulebooks;
/// its id when none is loaded.
pub(crate) fn place_name(state: &AppState, j: &str) -> String {
    state
        .library
        .rulebooks()
        .find(|r| r.jurisdiction.id == j)
        .map_or_else(|| j.to_string(), |r| r.jurisdiction.name.clone())
}

/// The organ that heads a jurisdiction's papers and publishes its data, as
/// its rulebooks name it (`authority`); its name when they name none.
pub(crate) fn authority(state: &AppState, j: &str) -> String {
    state
        .library
        .rulebooks()
        .find_map(|r| (r.jurisdiction.id == j).then(|| r.jurisdiction.authority.clone()))
        .flatten()
        .unwrap_or_else(|| place_name(state, j))
}

fn reasons(bars: &[Bar]) -> Vec<String> {
    bars.iter().map(Bar::portuguese).collect()
}

/// Whether a vehicle is licensed, for what service and permit, and until when
/// its authorization and inspection hold. No holder data.
#[utoipa::path(get, path = "/api/public/jurisdictions/{j}/vehicles/{placa}", tag = "consulta pública",
    params(("j" = String, Path, description = "a jurisdição"),
           ("placa" = String, Path, description = "a placa, com ou sem hífen")),
    responses((status = 200, body = VeiculoPublico), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn vehicle(
    _: PublicLookup,
    State(state): State<AppState>,
    _: Public,
    Path((j, placa)): Path<(String, String)>,
) -> Result<Json<VeiculoPublico>, ApiError> {
    Ok(Json(vehicle_check(&state, &j, &placa).await?))
}

/// Whether the vehicle with plate `placa` is licensed in `j` today, and
/// why not: what `GET /api/public/…/vehicles/{placa}` and the public page
/// `/consulta` answer.
pub async fn vehicle_check(
    state: &AppState,
    j: &str,
    placa: &str,
) -> Result<VeiculoPublico, ApiError> {
    let today = crate::routes::today_in(state, j);
    let Some(check) = state.store.plate_check(j, placa, today).await? else {
        return Err(ApiError::not_found(format!(
            "a placa {placa} não está cadastrada em {}",
            place_name(state, j)
        )));
    };
    let bars = in_service::vehicle(&check.record(), today);
    let vehicle = state.store.vehicle(j, &check.plate).await?;
    let held = bars.iter().find_map(|b| match b {
        Bar::Held(_, until) => Some(*until),
        _ => None,
    });
    let (marca, modelo, cor) = match vehicle {
        Some(v) => (v.make, v.model, Some(v.colour).filter(|c| !c.is_empty())),
        None => (None, None, None),
    };
    Ok(VeiculoPublico {
        placa: check.plate.clone(),
        marca,
        modelo,
        cor,
        licenciado: bars.is_empty(),
        motivos: reasons(&bars),
        vistoria_valida: !bars.iter().any(|b| {
            matches!(
                b,
                Bar::NoSeal | Bar::SealExpired(_) | Bar::InspectionFailed(_)
            )
        }),
        impedido_ate: text(held.flatten()),
        autorizacao_valida_ate: text(check.authorization.flatten()),
        vistoria_valida_ate: text(check.seal.flatten()),
        servico: check.permit.as_ref().map(|p| p.0.clone()),
        permissao: check.permit.as_ref().map(|p| p.1),
        situacao_permissao_nome: check.permit.as_ref().map(|p| p.2.portuguese().to_string()),
        situacao_permissao: check.permit.map(|p| SITUACOES_PERMISSAO.wire(p.2.name())),
    })
}

/// Whether a driver's registration is valid, and until when. No CPF.
#[utoipa::path(get, path = "/api/public/jurisdictions/{j}/drivers/{matricula}", tag = "consulta pública",
    params(("j" = String, Path, description = "a jurisdição"),
           ("matricula" = String, Path, description = "a matrícula, como 2026-00001")),
    responses((status = 200, body = CondutorPublico), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn driver(
    _: PublicLookup,
    State(state): State<AppState>,
    _: Public,
    Path((j, matricula)): Path<(String, String)>,
) -> Result<Json<CondutorPublico>, ApiError> {
    Ok(Json(driver_check(&state, &j, &matricula).await?))
}

/// Whether the driver of registration `matricula` may drive in `j` today,
/// and why not: what `GET /api/public/…/drivers/{matricula}` and the public
/// page `/consulta` answer.
pub async fn driver_check(
    state: &AppState,
    j: &str,
    matricula: &str,
) -> Result<CondutorPublico, ApiError> {
    let today = crate::routes::today_in(state, j);
    let Some(d) = state.store.driver(j, matricula).await? else {
        return Err(ApiError::not_found(format!(
            "não há condutor com a matrícula {matricula} em {}",
            place_name(state, j)
        )));
    };
    let permit = state
        .store
        .permit_status(j, (&d.service, d.number), today)
        .await?;
    let bars = in_service::driver(&d.record(permit), today);
    Ok(CondutorPublico {
        motivos: reasons(&bars),
        matricula: d.registration,
        servico: d.service,
        permissao: d.number,
        funcao: FUNCOES.wire(&d.role),
        valido: bars.is_empty(),
        valida_ate: text(d.valid_until),
        suspenso_ate: text(d.suspended_until.filter(|s| *s >= today)),
        desligado_em: text(d.until),
    })
}

/// A document by its verification code, and whether it is valid today.
#[utoipa::path(get, path = "/api/public/documents/{codigo}", tag = "consulta pública",
    params(("codigo" = String, Path, description = "o código de verificação, como ABCDE-12345")),
    responses((status = 200, body = DocumentoPublico), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn document(
    _: PublicLookup,
    State(state): State<AppState>,
    Path(codigo): Path<String>,
) -> Result<Json<DocumentoPublico>, ApiError> {
    let (doc, motivos) = document_check(&state, &codigo).await?;
    let arquivos = state
        .store
        .document_prints(&doc.code)
        .await?
        .into_iter()
        .map(|(format, sha256)| ArquivoPublico {
            formato: crate::routes::documents::format_wire(format).into(),
            sha256,
        })
        .collect();
    Ok(Json(DocumentoPublico {
        arquivos,
        documento: DocumentoSaida::public(doc),
        valido: motivos.is_empty(),
        motivos,
    }))
}

/// A document by its verification code, with what makes it not valid
/// today in its jurisdiction (none: valid): what `GET
/// /api/public/documents/{codigo}` and the public page `/verificar` answer.
pub async fn document_check(
    state: &AppState,
    codigo: &str,
) -> Result<(Document, Vec<String>), ApiError> {
    let Some(doc) = state.store.document(codigo).await? else {
        return Err(ApiError::not_found(format!(
            "não há documento com o código {codigo}: confira as letras e os números"
        )));
    };
    let today = crate::routes::today_in(state, &doc.jurisdiction);
    let subject = subject_bars(state, &doc, today).await?;
    let bars = in_service::document(&doc.record(), &subject, today);
    let mut why = reasons(&bars);
    why.extend(paper_bars(state, &doc).await?);
    Ok((doc, why))
}

/// What makes a paper of the procedure or the money module no longer hold,
/// though issued and not cancelled: the auto it is about annulled, the debt
/// its slip charges already paid.
async fn paper_bars(state: &AppState, doc: &Document) -> Result<Vec<String>, ApiError> {
    let j = &doc.jurisdiction;
    let parts: Vec<&str> = doc.subject.split(':').collect();
    let number = |text: &str| text.parse::<i64>().ok();
    Ok(match parts.as_slice() {
        ["auto", year, n] => match (number(year), number(n)) {
            (Some(year), Some(n)) => {
                let auto = state
                    .store
                    .auto(j, (i32::try_from(year).unwrap_or_default(), n))
                    .await?;
                if auto.status == outorga_core::engine::process::Status::Annulled {
                    vec![format!("o auto nº {n}/{year} foi anulado")]
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        },
        ["debt", year, n, seq, parcel] => match (number(year), number(n), number(seq)) {
            (Some(year), Some(n), Some(seq)) => {
                let key = (i32::try_from(year).unwrap_or_default(), n, seq);
                let debt = state.store.debt(j, key).await?;
                let paid = debt
                    .payments
                    .iter()
                    .any(|p| number(parcel) == Some(i64::from(p.parcel)));
                if debt.settled() || paid {
                    vec!["o débito desta guia já foi pago: não pague de novo".to_string()]
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    })
}

/// What bars the record a document certifies, the document itself aside:
/// the vehicle of a traffic authorization, the driver of a registration,
/// the permit of a term. A seal certifies an inspection, nothing in service.
async fn subject_bars(
    state: &AppState,
    doc: &Document,
    today: NaiveDate,
) -> Result<Vec<Bar>, ApiError> {
    let j = &doc.jurisdiction;
    let mut parts = doc.subject.split(':');
    Ok(match (parts.next(), parts.next(), parts.next()) {
        (Some("vehicle"), Some(plate), None) if doc.kind == "traffic_authorization" => {
            match state.store.plate_check(j, plate, today).await? {
                Some(check) => in_service::vehicle(&check.record(), today)
                    .into_iter()
                    .filter(|b| !matches!(b, Bar::NoAuthorization | Bar::AuthorizationExpired(_)))
                    .collect(),
                None => Vec::new(),
            }
        }
        (Some("driver"), Some(registration), None) => {
            match state.store.driver(j, registration).await? {
                Some(d) => {
                    let permit = state
                        .store
                        .permit_status(j, (&d.service, d.number), today)
                        .await?;
                    in_service::driver(&d.record(permit), today)
                        .into_iter()
                        .filter(|b| !matches!(b, Bar::RegistrationExpired(_)))
                        .collect()
                }
                None => Vec::new(),
            }
        }
        (Some("permit"), Some(service), Some(number)) => {
            let number = number.parse::<i64>().unwrap_or_default();
            match state
                .store
                .permit_status(j, (service, number), today)
                .await?
            {
                Some(PermitStatus::Granted) | None => Vec::new(),
                Some(status) => vec![Bar::Permit(status)],
            }
        }
        _ => Vec::new(),
    })
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(vehicle))
        .routes(routes!(driver))
        .routes(routes!(document))
}
