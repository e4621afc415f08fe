//! A person's profile on screen: what the law's requirements read (birth,
//! residence, schooling, the declarations, documents presented), the CNH
//! (categories as the card prints them, `AB`), the address and contacts —
//! the form filled with what is recorded, saved through the store's
//! `update_profile` (checked there, as `PUT …/profile` is), a bad field
//! refused next to it.

use crate::autos::form_error;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::NaiveDate;
use outorga_core::model::Education;
use outorga_store::{Change, Cnh, Profile, StoreError, cnh_categories};
use outorga_web::auth::Clerk;
use serde::Deserialize;

/// The form's fields, as text.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ProfileForm {
    #[serde(default)]
    nascimento: String,
    #[serde(default)]
    residente_desde: String,
    #[serde(default)]
    escolaridade: String,
    #[serde(default)]
    pessoa_com_deficiencia: String,
    #[serde(default)]
    servidor_publico: String,
    #[serde(default)]
    opera_transporte: String,
    #[serde(default)]
    condenacao_definitiva: String,
    #[serde(default)]
    documentos: String,
    #[serde(default)]
    cnh_numero: String,
    #[serde(default)]
    cnh_categorias: String,
    #[serde(default)]
    cnh_atividade_remunerada: String,
    #[serde(default)]
    cnh_primeira: String,
    #[serde(default)]
    cnh_validade: String,
    #[serde(default)]
    cnh_suspensa_ate: String,
    #[serde(default)]
    logradouro: String,
    #[serde(default)]
    bairro: String,
    #[serde(default)]
    cidade: String,
    #[serde(default)]
    cep: String,
    #[serde(default)]
    telefone: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    csrf: String,
}

fn yes_no(value: Option<bool>) -> String {
    match value {
        Some(true) => "sim",
        Some(false) => "nao",
        None => "",
    }
    .to_string()
}

fn day_text(day: Option<NaiveDate>) -> String {
    day.map_or_else(String::new, |d| d.to_string())
}

impl ProfileForm {
    fn of(p: &Profile) -> ProfileForm {
        ProfileForm {
            nascimento: day_text(p.birth_date),
            residente_desde: day_text(p.resident_since),
            escolaridade: p.education.clone().unwrap_or_default(),
            pessoa_com_deficiencia: yes_no(p.disabled),
            servidor_publico: yes_no(p.public_employee),
            opera_transporte: yes_no(p.transport_operator),
            condenacao_definitiva: yes_no(p.final_conviction),
            documentos: p
                .documents
                .as_ref()
                .map_or_else(String::new, |d| d.join(", ")),
            cnh_numero: p
                .cnh
                .as_ref()
                .map_or_else(String::new, |c| c.number.clone()),
            cnh_categorias: p
                .cnh
                .as_ref()
                .map_or_else(String::new, |c| c.categories.join("")),
            cnh_atividade_remunerada: p
                .cnh
                .as_ref()
                .filter(|c| c.paid_activity)
                .map_or_else(String::new, |_| "sim".into()),
            cnh_primeira: day_text(p.cnh.as_ref().and_then(|c| c.first_issued)),
            cnh_validade: day_text(p.cnh.as_ref().map(|c| c.expires)),
            cnh_suspensa_ate: day_text(p.cnh.as_ref().and_then(|c| c.suspended_until)),
            logradouro: p.street.clone(),
            bairro: p.district.clone(),
            cidade: p.city.clone(),
            cep: p.postal_code.clone(),
            telefone: p.phone.clone(),
            email: p.email.clone(),
            csrf: String::new(),
        }
    }

    /// The profile the form describes, or the field at fault and why.
    fn profile(&self) -> Result<Profile, (String, String)> {
        let day = |field: &str, text: &str| -> Result<Option<NaiveDate>, (String, String)> {
            let text = text.trim();
            if text.is_empty() {
                return Ok(None);
            }
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .or_else(|_| NaiveDate::parse_from_str(text, "%d/%m/%Y"))
                .map(Some)
                .map_err(|_| {
                    (
                        field.to_string(),
                        format!("`{text}` não é uma data: escreva como 31/12/2025"),
                    )
                })
        };
        let flag = |text: &str| match text {
            "sim" => Some(true),
            "nao" => Some(false),
            _ => None,
        };
        let cnh = if self.cnh_numero.trim().is_empty() && self.cnh_validade.trim().is_empty() {
            None
        } else {
            let expires = day("cnh_validade", &self.cnh_validade)?.ok_or_else(|| {
                (
                    "cnh_validade".to_string(),
                    "Informe a validade da CNH (ou apague o número).".to_string(),
                )
            })?;
            Some(Cnh {
                number: self.cnh_numero.trim().to_string(),
                categories: cnh_categories(&self.cnh_categorias),
                paid_activity: self.cnh_atividade_remunerada == "sim",
                first_issued: day("cnh_primeira", &self.cnh_primeira)?,
                expires,
                suspended_until: day("cnh_suspensa_ate", &self.cnh_suspensa_ate)?,
            })
        };
        let documents: Vec<String> = self
            .documentos
            .split([',', ';'])
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string)
            .collect();
        Ok(Profile {
            birth_date: day("nascimento", &self.nascimento)?,
            resident_since: day("residente_desde", &self.residente_desde)?,
            education: Some(self.escolaridade.clone()).filter(|e| Education::parse(e).is_some()),
            disabled: flag(&self.pessoa_com_deficiencia),
            public_employee: flag(&self.servidor_publico),
            transport_operator: flag(&self.opera_transporte),
            final_conviction: flag(&self.condenacao_definitiva),
            documents: (!documents.is_empty()).then_some(documents),
            cnh,
            street: self.logradouro.clone(),
            district: self.bairro.clone(),
            city: self.cidade.clone(),
            postal_code: self.cep.clone(),
            phone: self.telefone.clone(),
            email: self.email.clone(),
        })
    }
}

#[derive(Template)]
#[template(path = "perfil.html")]
struct ProfilePage {
    user: Option<Bar>,
    j: String,
    place: String,
    name: String,
    document: String,
    f: ProfileForm,
    schooling: Vec<(&'static str, &'static str)>,
    error: Option<(String, String)>,
}

const SCHOOLING: [Education; 4] = [
    Education::None,
    Education::Fundamental,
    Education::Medio,
    Education::Superior,
];

fn schooling() -> Vec<(&'static str, &'static str)> {
    SCHOOLING
        .iter()
        .map(|e| {
            let code = match e {
                Education::None => "none",
                Education::Fundamental => "fundamental",
                Education::Medio => "medio",
                Education::Superior => "superior",
            };
            (code, e.portuguese())
        })
        .collect()
}

async fn form_page(
    state: &outorga_web::AppState,
    signed: &Signed,
    place: &Place<'_>,
    document: &str,
    form: Option<(ProfileForm, StatusCode, (String, String))>,
) -> Response {
    let person = match state.store.registered(&place.id, document).await {
        Ok(Some(person)) => person,
        Ok(None) | Err(StoreError::NotFound(_)) => {
            return refusal(
                signed,
                StatusCode::NOT_FOUND,
                "Pessoa não encontrada",
                "Não há pessoa ou empresa com este documento nesta jurisdição.",
            );
        }
        Err(error) => match error.bad_input() {
            Some((_, reason)) => {
                return refusal(
                    signed,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "Documento inválido",
                    reason,
                );
            }
            None => {
                tracing::error!(%error, "a person could not be read");
                return failure();
            }
        },
    };
    let (f, status, error) = match form {
        Some((f, status, error)) => (f, status, Some(error)),
        None => match state.store.profile(&place.id, &person.document).await {
            Ok(profile) => (
                ProfileForm::of(&profile.unwrap_or_default()),
                StatusCode::OK,
                None,
            ),
            Err(error) => {
                tracing::error!(%error, "a profile could not be read");
                return failure();
            }
        },
    };
    page(
        status,
        &ProfilePage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            name: person.name,
            document: person.document,
            f,
            schooling: schooling(),
            error,
        },
    )
}

pub(crate) async fn edit(
    State(state): State<outorga_web::AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if !Clerk::admits(signed.user.role) {
        return refusal(
            &signed,
            StatusCode::FORBIDDEN,
            "Ação não permitida",
            "Só atendentes alteram o perfil.",
        );
    }
    form_page(&state, &signed, &place, &document, None).await
}

pub(crate) async fn save(
    State(state): State<outorga_web::AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    Form(form): Form<ProfileForm>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let profile = match form.profile() {
        Ok(profile) => profile,
        Err(error) => {
            let again = Some((form, StatusCode::UNPROCESSABLE_ENTITY, error));
            return form_page(&state, &signed, &place, &document, again).await;
        }
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "perfil atualizado pela tela",
    };
    match state
        .store
        .update_profile(&change, &place.id, &document, &profile)
        .await
    {
        Ok(_) => Redirect::to(&format!(
            "/j/{}/pessoas/{}?feito=perfil",
            place.id,
            document.trim()
        ))
        .into_response(),
        Err(error) => {
            let api = outorga_web::ApiError::from(error);
            if api.status.is_server_error() {
                tracing::error!(erro = %api.body.erro, "a profile could not be saved");
                return failure();
            }
            let (field, message) = form_error(&api);
            let field = match field.as_str() {
                "cnh.número" => "cnh_numero".to_string(),
                "cnh.categorias" => "cnh_categorias".to_string(),
                "cnh.primeira_habilitação" => "cnh_primeira".to_string(),
                _ => field,
            };
            let again = Some((form, api.status, (field, message)));
            form_page(&state, &signed, &place, &document, again).await
        }
    }
}
