//! What a clerk does on a permit's dossier: link a driver (the law's
//! requirements checked, the registration issued), unlink one, and put a
//! vehicle in service — an inclusion or a substitution, its checklist shown
//! before (`Store::vehicle_preview`, the same assessment the store makes).
//! Through `outorga_web::workflows`, as the API's `…/drivers` and
//! `…/vehicle` do; a refusal comes back next to its form, with the law's
//! articles.

use crate::autos::form_error;
use crate::pages::failure;
use crate::permits::{Extras, dossier_page, vehicle_view};
use crate::place::{Place, place};
use crate::session::{Signed, checked_form};
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::Change;
use outorga_web::auth::Clerk;
use outorga_web::workflows::{
    CondutorEntrada, VeiculoEmServicoEntrada, add_driver_to, put_vehicle_in, remove_driver_from,
};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Asked {
    #[serde(default)]
    condutor: String,
    #[serde(default)]
    funcao: String,
    #[serde(default)]
    placa: String,
    #[serde(default)]
    csrf: String,
}

/// Back to the dossier saying what was done, or the dossier again with the
/// refusal next to `form`.
async fn after<T>(
    (state, signed, place): (&AppState, &Signed, &Place<'_>),
    (service, number): (&str, i64),
    (form, plate): (&'static str, &str),
    done: Result<T, ApiError>,
) -> Response {
    match done {
        Ok(_) => Redirect::to(&format!(
            "/j/{}/permissoes/{service}/{number}?feito={form}",
            place.id
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a permit could not be changed");
            failure()
        }
        Err(error) => {
            let (field, message) = form_error(&error);
            let extras = Extras {
                plate: plate.to_string(),
                vehicle: vehicle_view(state, place, (service, number), plate).await,
                notice: None,
                error: Some((form, field, message)),
                fleet_day: None,
            };
            dossier_page(
                state,
                signed,
                place,
                (service, number),
                error.status,
                extras,
            )
            .await
        }
    }
}

fn change<'a>(state: &AppState, signed: &'a Signed, why: &'a str) -> Change<'a> {
    Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why,
    }
}

pub(crate) async fn add_driver(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, service, number)): Path<(String, String, i64)>,
    Form(asked): Form<Asked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Clerk::admits) {
        return *refused;
    }
    let input = CondutorEntrada {
        condutor: asked.condutor.clone(),
        funcao: asked.funcao.clone(),
        data: None,
        excecao: None,
    };
    let change = change(&state, &signed, "condutor incluído pela tela");
    let done = add_driver_to(&state, &change, &place.id, (&service, number), &input).await;
    after(
        (&state, &signed, &place),
        (&service, number),
        ("condutor", ""),
        done,
    )
    .await
}

pub(crate) async fn remove_driver(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, service, number, registration)): Path<(String, String, i64, String)>,
    Form(asked): Form<Asked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Clerk::admits) {
        return *refused;
    }
    let change = change(&state, &signed, "condutor desligado pela tela");
    let done = remove_driver_from(
        &state,
        &change,
        &place.id,
        (&service, number),
        (&registration, None),
    )
    .await;
    after(
        (&state, &signed, &place),
        (&service, number),
        ("desligamento", ""),
        done,
    )
    .await
}

pub(crate) async fn put_vehicle(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, service, number)): Path<(String, String, i64)>,
    Form(asked): Form<Asked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Clerk::admits) {
        return *refused;
    }
    if asked.placa.trim().is_empty() {
        let extras = Extras {
            error: Some((
                "veiculo",
                "placa".into(),
                "Informe a placa do veículo.".into(),
            )),
            ..Extras::default()
        };
        return dossier_page(
            &state,
            &signed,
            &place,
            (&service, number),
            StatusCode::UNPROCESSABLE_ENTITY,
            extras,
        )
        .await;
    }
    let input = VeiculoEmServicoEntrada {
        placa: asked.placa.clone(),
        data: None,
        excecao: None,
    };
    let change = change(&state, &signed, "veículo em serviço pela tela");
    let done = put_vehicle_in(&state, &change, &place.id, (&service, number), &input).await;
    after(
        (&state, &signed, &place),
        (&service, number),
        ("veiculo", &asked.placa),
        done,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct WithdrawAsked {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    data: String,
}

/// Withdraws a bus from a delegation's fleet on the day given.
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, service, number, plate)): Path<(String, String, i64, String)>,
    Form(asked): Form<WithdrawAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Clerk::admits) {
        return *refused;
    }
    let done = async {
        let rulebook = outorga_core::model::Service::parse(&service)
            .and_then(|s| place.rulebook(s))
            .ok_or_else(|| ApiError::not_found(format!("{service} não é serviço regulado aqui")))?;
        let on = outorga_web::workflows::parse_day(&asked.data, "data")?;
        let change = Change {
            by: &signed.user.name,
            at: state.clock.now(),
            why: "ônibus retirado da frota pela tela",
        };
        state
            .store
            .withdraw_vehicle(&change, rulebook, &j, (&service, number), &plate, on)
            .await?;
        Ok::<_, ApiError>(())
    }
    .await;
    after(
        (&state, &signed, &place),
        (&service, number),
        ("retirada", ""),
        done,
    )
    .await
}
