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
use axum::extract::State;
use chrono::NaiveDate;
use outorga_store::status_pt;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct VeiculoPublico {
    pub placa: String,
    /// Com autorização de tráfego válida hoje.
    pub licenciado: bool,
    pub servico: Option<String>,
    pub permissao: Option<i64>,
    /// A situação da permissão: granted, suspended, reserved…
    pub situacao_permissao: Option<String>,
    pub situacao_permissao_nome: Option<String>,
    /// Validade da autorização de tráfego em vigor.
    pub autorizacao_valida_ate: Option<String>,
    /// Validade do selo da última vistoria aprovada.
    pub vistoria_valida_ate: Option<String>,
    pub vistoria_valida: bool,
    /// Impedido de circular por penalidade definitiva até este dia.
    pub impedido_ate: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CondutorPublico {
    pub matricula: String,
    pub servico: String,
    pub permissao: i64,
    /// auxiliary, collaborator ou preposto.
    pub funcao: String,
    /// Em atividade, com a matrícula no prazo e sem suspensão hoje.
    pub valido: bool,
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
    /// Válido hoje: emitido, não cancelado e no prazo.
    pub valido: bool,
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
    let today = crate::routes::today_in(&state, &j);
    let Some(check) = state.store.plate_check(&j, &placa).await? else {
        return Err(ApiError::not_found(format!(
            "a placa {placa} não está cadastrada em {j}"
        )));
    };
    let in_force = |validity: Option<Option<NaiveDate>>| {
        validity.is_some_and(|until| until.is_none_or(|u| u >= today))
    };
    let impeded = check.impeded_until.filter(|until| *until >= today);
    let licensed = in_force(check.authorization)
        && impeded.is_none()
        && check
            .permit
            .as_ref()
            .is_some_and(|(_, _, status)| status == "granted");
    Ok(Json(VeiculoPublico {
        placa: check.plate,
        licenciado: licensed,
        vistoria_valida: in_force(check.seal),
        impedido_ate: text(impeded),
        autorizacao_valida_ate: text(check.authorization.flatten()),
        vistoria_valida_ate: text(check.seal.flatten()),
        servico: check.permit.as_ref().map(|p| p.0.clone()),
        permissao: check.permit.as_ref().map(|p| p.1),
        situacao_permissao_nome: check.permit.as_ref().map(|p| status_pt(&p.2).to_string()),
        situacao_permissao: check.permit.map(|p| p.2),
    }))
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
    let today = crate::routes::today_in(&state, &j);
    let Some(d) = state.store.driver(&j, &matricula).await? else {
        return Err(ApiError::not_found(format!(
            "não há condutor com a matrícula {matricula} em {j}"
        )));
    };
    let valid = d.valid_on(today);
    Ok(Json(CondutorPublico {
        matricula: d.registration,
        servico: d.service,
        permissao: d.number,
        funcao: d.role,
        valido: valid,
        valida_ate: text(d.valid_until),
        suspenso_ate: text(d.suspended_until.filter(|s| *s >= today)),
        desligado_em: text(d.until),
    }))
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
    let Some(doc) = state.store.document(&codigo).await? else {
        return Err(ApiError::not_found(format!(
            "não há documento com o código {codigo}"
        )));
    };
    let today = crate::routes::today_in(&state, &doc.jurisdiction);
    let valid = doc.valid_on(today);
    Ok(Json(DocumentoPublico {
        documento: DocumentoSaida::public(doc),
        valido: valid,
    }))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(vehicle))
        .routes(routes!(driver))
        .routes(routes!(document))
}
