//! What ties one carrier to another (art. 9º): a company's partners,
//! directors and group, a person's relatives.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::{change, day_or_today};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

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

pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(declare_ties, ties))
        .routes(routes!(declare_relatives))
}
