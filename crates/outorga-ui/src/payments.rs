//! What a jurisdiction's payment slips carry (`/j/{j}/pagamentos`), for
//! administrators: the FEBRABAN collection agreement (segment, the body's
//! code, the value identifier) and the PIX key with the beneficiary and
//! city its code shows. The store checks them by making a slip and a PIX
//! with them (`set_payment_settings`), under the capability of
//! `PUT …/payment-settings` (`Admin`).

use crate::autos::form_error;
use crate::forms::Done;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place};
use crate::session::{Signed, admin_only, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, PaymentSettings};
use outorga_web::auth::Admin;
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// The FEBRABAN segments (layout de arrecadação, item 05): there is no 8.
const SEGMENTS: [(u8, &str); 8] = [
    (1, "1 — prefeituras"),
    (2, "2 — saneamento"),
    (3, "3 — energia elétrica e gás"),
    (4, "4 — telecomunicações"),
    (5, "5 — órgãos governamentais"),
    (6, "6 — empresas identificadas pelo CNPJ"),
    (7, "7 — multas de trânsito"),
    (9, "9 — uso exclusivo do banco"),
];

/// The value identifiers (position 3), in words.
const VALUE_IDS: [(u8, &str); 4] = [
    (
        6,
        "6 — valor efetivo em reais; dígitos verificadores pelo módulo 10",
    ),
    (
        7,
        "7 — valor de referência (a corrigir por um índice); módulo 10",
    ),
    (
        8,
        "8 — valor efetivo em reais; dígitos verificadores pelo módulo 11",
    ),
    (9, "9 — valor de referência; módulo 11"),
];

/// The form as sent (or the settings in force), as text.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Sent {
    #[serde(default)]
    segmento: String,
    #[serde(default)]
    convenio: String,
    #[serde(default)]
    identificador_valor: String,
    #[serde(default)]
    chave_pix: String,
    #[serde(default)]
    beneficiario: String,
    #[serde(default)]
    cidade: String,
    #[serde(default)]
    csrf: String,
}

impl Sent {
    fn of(s: PaymentSettings) -> Sent {
        Sent {
            segmento: s.segment.to_string(),
            convenio: s.company,
            identificador_valor: s.value_id.to_string(),
            chave_pix: s.pix_key,
            beneficiario: s.beneficiary,
            cidade: s.city,
            csrf: String::new(),
        }
    }
}

#[derive(Template)]
#[template(path = "pagamentos.html")]
struct SettingsPage {
    user: Option<Bar>,
    j: String,
    place: String,
    /// The jurisdiction has settings recorded.
    recorded: bool,
    segments: Vec<(String, &'static str)>,
    value_ids: Vec<(String, &'static str)>,
    sent: Sent,
    notice: Option<&'static str>,
    /// A refusal: (field, message).
    error: Option<(String, String)>,
}

impl SettingsPage {
    fn error_on(&self, field: &str) -> Option<&str> {
        match &self.error {
            Some((f, message)) if f == field => Some(message.as_str()),
            _ => None,
        }
    }

    /// A refusal of no field of the form.
    fn general_error(&self) -> Option<&str> {
        const FIELDS: [&str; 6] = [
            "segmento",
            "convenio",
            "identificador_valor",
            "chave_pix",
            "beneficiario",
            "cidade",
        ];
        match &self.error {
            Some((f, message)) if !FIELDS.contains(&f.as_str()) => Some(message.as_str()),
            _ => None,
        }
    }
}

async fn settings_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    status: StatusCode,
    (sent, notice, error): (Option<Sent>, Option<&'static str>, Option<(String, String)>),
) -> Response {
    let recorded = match state.store.payment_settings(&place.id).await {
        Ok(recorded) => recorded,
        Err(error) => {
            tracing::error!(%error, "the payment settings could not be read");
            return failure();
        }
    };
    let is_recorded = recorded.is_some();
    let sent = sent.unwrap_or_else(|| recorded.map(Sent::of).unwrap_or_default());
    let choices = |list: &[(u8, &'static str)]| {
        list.iter()
            .map(|(n, label)| (n.to_string(), *label))
            .collect()
    };
    page(
        status,
        &SettingsPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            recorded: is_recorded,
            segments: choices(&SEGMENTS),
            value_ids: choices(&VALUE_IDS),
            sent,
            notice,
            error,
        },
    )
}

pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(done): Query<Done>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = admin_only(
        &signed,
        "O convênio de arrecadação e a chave PIX são registrados por administradores.",
    ) {
        return *refused;
    }
    let notice = done
        .feito
        .map(|_| "Convênio e PIX registrados: as guias emitidas de agora em diante os usam.");
    settings_page(
        &state,
        &signed,
        &place,
        StatusCode::OK,
        (None, notice, None),
    )
    .await
}

/// A number chosen in the form, or the refusal of its field.
fn chosen(text: &str, field: &str, what: &str) -> Result<u8, (String, String)> {
    text.trim()
        .parse()
        .map_err(|_| (field.to_string(), format!("Escolha {what} na lista.")))
}

pub(crate) async fn save(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(sent): Form<Sent>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &sent.csrf, Admin::admits) {
        return *refused;
    }
    let numbers = chosen(&sent.segmento, "segmento", "o segmento").and_then(|segment| {
        chosen(
            &sent.identificador_valor,
            "identificador_valor",
            "o identificador de valor",
        )
        .map(|value_id| (segment, value_id))
    });
    let (status, refused) = match numbers {
        Err(refused) => (StatusCode::UNPROCESSABLE_ENTITY, refused),
        Ok((segment, value_id)) => {
            let settings = PaymentSettings {
                segment,
                company: sent.convenio.trim().to_string(),
                value_id,
                pix_key: sent.chave_pix.trim().to_string(),
                beneficiary: sent.beneficiario.clone(),
                city: sent.cidade.clone(),
            };
            let change = Change {
                by: &signed.user.name,
                at: state.clock.now(),
                why: "convênio de arrecadação e PIX pela tela",
            };
            match state
                .store
                .set_payment_settings(&change, &place.id, &settings)
                .await
                .map_err(ApiError::from)
            {
                Ok(()) => {
                    return Redirect::to(&format!("/j/{}/pagamentos?feito=1", place.id))
                        .into_response();
                }
                Err(error) if error.status.is_server_error() => {
                    tracing::error!(erro = %error.body.erro, "the payment settings could not be recorded");
                    return failure();
                }
                Err(error) => (error.status, form_error(&error)),
            }
        }
    };
    settings_page(
        &state,
        &signed,
        &place,
        status,
        (Some(sent), None, Some(refused)),
    )
    .await
}
