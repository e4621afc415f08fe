//! What a clerk records about a person beyond the register: the facts the
//! law's requirements read, the CNH, the address and contacts.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::text;
use crate::routes::{change, parse_day};
use crate::state::AppState;
use crate::vocab::ESCOLARIDADES;
use axum::extract::State;
use chrono::NaiveDate;
use outorga_store::{Cnh, Profile};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CnhWire {
    /// 11 dígitos, com os dígitos verificadores.
    pub numero: String,
    pub categorias: Vec<String>,
    /// A observação "exerce atividade remunerada".
    #[serde(default)]
    pub atividade_remunerada: bool,
    pub primeira_habilitacao: Option<String>,
    pub validade: String,
    pub suspensa_ate: Option<String>,
}

/// Um campo omitido (`null`) não está registrado: os requisitos que o leem
/// ficam "a verificar".
#[derive(Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Perfil {
    pub nascimento: Option<String>,
    pub residente_desde: Option<String>,
    pub escolaridade: Option<String>,
    pub pessoa_com_deficiencia: Option<bool>,
    pub servidor_publico: Option<bool>,
    pub opera_transporte: Option<bool>,
    pub condenacao_definitiva: Option<bool>,
    /// Documentos apresentados, pelos nomes dos regulamentos.
    pub documentos: Option<Vec<String>>,
    pub cnh: Option<CnhWire>,
    #[serde(default)]
    pub logradouro: String,
    #[serde(default)]
    pub bairro: String,
    #[serde(default)]
    pub cidade: String,
    #[serde(default)]
    pub cep: String,
    #[serde(default)]
    pub telefone: String,
    #[serde(default)]
    pub email: String,
}

fn optional_day(text: Option<&str>, campo: &str) -> Result<Option<NaiveDate>, ApiError> {
    text.map(|t| parse_day(t, campo)).transpose()
}

impl TryFrom<Perfil> for Profile {
    type Error = ApiError;

    fn try_from(p: Perfil) -> Result<Profile, ApiError> {
        let cnh = p
            .cnh
            .map(|c| -> Result<Cnh, ApiError> {
                Ok(Cnh {
                    number: c.numero,
                    categories: c.categorias,
                    paid_activity: c.atividade_remunerada,
                    first_issued: optional_day(
                        c.primeira_habilitacao.as_deref(),
                        "cnh.primeira_habilitacao",
                    )?,
                    expires: parse_day(&c.validade, "cnh.validade")?,
                    suspended_until: optional_day(c.suspensa_ate.as_deref(), "cnh.suspensa_ate")?,
                })
            })
            .transpose()?;
        Ok(Profile {
            birth_date: optional_day(p.nascimento.as_deref(), "nascimento")?,
            resident_since: optional_day(p.residente_desde.as_deref(), "residente_desde")?,
            education: p
                .escolaridade
                .map(|e| ESCOLARIDADES.read("escolaridade", &e))
                .transpose()?,
            disabled: p.pessoa_com_deficiencia,
            public_employee: p.servidor_publico,
            transport_operator: p.opera_transporte,
            final_conviction: p.condenacao_definitiva,
            documents: p.documentos,
            cnh,
            street: p.logradouro,
            district: p.bairro,
            city: p.cidade,
            postal_code: p.cep,
            phone: p.telefone,
            email: p.email,
        })
    }
}

impl From<Profile> for Perfil {
    fn from(p: Profile) -> Perfil {
        Perfil {
            nascimento: text(p.birth_date),
            residente_desde: text(p.resident_since),
            escolaridade: p.education.as_deref().map(|e| ESCOLARIDADES.wire(e)),
            pessoa_com_deficiencia: p.disabled,
            servidor_publico: p.public_employee,
            opera_transporte: p.transport_operator,
            condenacao_definitiva: p.final_conviction,
            documentos: p.documents,
            cnh: p.cnh.map(|c| CnhWire {
                numero: c.number,
                categorias: c.categories,
                atividade_remunerada: c.paid_activity,
                primeira_habilitacao: text(c.first_issued),
                validade: c.expires.to_string(),
                suspensa_ate: text(c.suspended_until),
            }),
            logradouro: p.street,
            bairro: p.district,
            cidade: p.city,
            cep: p.postal_code,
            telefone: p.phone,
            email: p.email,
        }
    }
}

/// Replaces what is recorded about a registered person.
#[utoipa::path(put, path = "/api/jurisdictions/{j}/people/{documento}/profile", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição"),
           ("documento" = String, Path, description = "CPF ou CNPJ")),
    request_body = Perfil,
    responses((status = 200, body = Perfil), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn put(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, documento)): Path<(String, String)>,
    Json(input): Json<Perfil>,
) -> Result<Json<Perfil>, ApiError> {
    let profile = Profile::try_from(input)?;
    let change = change!(state, who, "perfil atualizado pela API");
    let saved = state
        .store
        .update_profile(&change, &j, &documento, &profile)
        .await?;
    Ok(Json(saved.into()))
}

/// What is recorded about a registered person.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/people/{documento}/profile", tag = "cadastros",
    params(("j" = String, Path, description = "a jurisdição"),
           ("documento" = String, Path, description = "CPF ou CNPJ")),
    responses((status = 200, body = Perfil), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, documento)): Path<(String, String)>,
) -> Result<Json<Perfil>, ApiError> {
    state
        .store
        .profile(&j, &documento)
        .await?
        .map(|p| Json(p.into()))
        .ok_or_else(|| ApiError::not_found(format!("{documento} não está cadastrado em {j}")))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(put, get))
}
