//! Vehicles: the register form (plate and RENAVAM checked, the year, the
//! doors, the places, equipment and adaptations as the rulebooks name
//! them), a vehicle's page with the permit it serves and its latest
//! inspections, and the inspection form for inspectors and clerks (an
//! approved periodic one issues the seal). Through `outorga_web::workflows`
//! as `…/vehicles` does.

use crate::autos::form_error;
use crate::format;
use crate::forms::listed;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::model::Service;
use outorga_store::{Change, StoreError, Vehicle};
use outorga_web::auth::{Clerk, Examiner};
use outorga_web::workflows::{
    VeiculoEntrada, VistoriaEntrada, inspect_vehicle, inspection_word, register_vehicle,
};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// Inspections a vehicle's page lists (the latest).
const INSPECTIONS: u32 = 20;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RegisterAsked {
    #[serde(default)]
    placa: String,
    #[serde(default)]
    renavam: String,
    #[serde(default)]
    ano: String,
    #[serde(default)]
    cor: String,
    #[serde(default)]
    marca: String,
    #[serde(default)]
    modelo: String,
    #[serde(default)]
    portas: String,
    #[serde(default)]
    lotacao: String,
    /// By commas.
    #[serde(default)]
    equipamentos: String,
    #[serde(default)]
    adaptacoes: String,
    #[serde(default)]
    csrf: String,
}

#[derive(Template)]
#[template(path = "veiculos.html")]
struct RegisterPage {
    user: Option<Bar>,
    j: String,
    place: String,
    asked: RegisterAsked,
    clerk: bool,
    error: Option<(String, String)>,
    /// A page of the register: (plate, year, colour).
    rows: Vec<(String, i32, String)>,
    next: Option<String>,
}

/// Vehicles per page of the register.
const PER_PAGE: u32 = 50;

async fn register_page(
    (state, signed, place): (&AppState, &Signed, &Place<'_>),
    asked: RegisterAsked,
    cursor: Option<String>,
    (status, error): (StatusCode, Option<(String, String)>),
) -> Response {
    let found = match listed(
        cursor,
        PER_PAGE,
        async |window| state.store.vehicles(&place.id, window).await,
        |v| (v.plate, v.manufactured, v.colour),
    )
    .await
    {
        Ok(found) => found,
        Err(failed) => return failed,
    };
    page(
        status,
        &RegisterPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            asked,
            clerk: Clerk::admits(signed.user.role),
            error: error.or_else(|| found.error.map(|e| (String::new(), e))),
            rows: found.rows,
            next: found.next,
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct ListAsked {
    cursor: Option<String>,
}

pub(crate) async fn register_form(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<ListAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    register_page(
        (&state, &signed, &place),
        RegisterAsked::default(),
        asked.cursor,
        (StatusCode::OK, None),
    )
    .await
}

fn list(text: &str) -> Vec<String> {
    text.split([',', ';'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// A whole number of a form, or the refusal next to its field.
fn whole<T: std::str::FromStr>(field: &str, text: &str) -> Result<Option<T>, (String, String)> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|_| {
        (
            field.to_string(),
            format!("`{text}` não é um número: escreva só algarismos"),
        )
    })
}

pub(crate) async fn register(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(asked): Form<RegisterAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Clerk::admits) {
        return *refused;
    }
    let numbers = (|| {
        let year = whole::<i32>("ano", &asked.ano)?.ok_or_else(|| {
            (
                "ano".to_string(),
                "Informe o ano de fabricação.".to_string(),
            )
        })?;
        Ok::<_, (String, String)>((
            year,
            whole::<u8>("portas", &asked.portas)?,
            whole::<u16>("lotacao", &asked.lotacao)?,
        ))
    })();
    let (year, doors, places) = match numbers {
        Ok(found) => found,
        Err(error) => {
            return register_page(
                (&state, &signed, &place),
                asked,
                None,
                (StatusCode::UNPROCESSABLE_ENTITY, Some(error)),
            )
            .await;
        }
    };
    let input = VeiculoEntrada {
        placa: asked.placa.clone(),
        renavam: asked.renavam.clone(),
        ano_fabricacao: year,
        cor: asked.cor.clone(),
        portas: doors,
        lotacao: places,
        equipamentos: list(&asked.equipamentos),
        adaptacoes: list(&asked.adaptacoes),
        marca: Some(asked.marca.clone()),
        modelo: Some(asked.modelo.clone()),
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "cadastro pela tela",
    };
    match register_vehicle(&state, &change, &place.id, input).await {
        Ok(vehicle) => Redirect::to(&format!(
            "/j/{}/veiculos/{}?feito=cadastro",
            place.id, vehicle.plate
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a vehicle could not be registered");
            failure()
        }
        Err(error) => {
            let (field, message) = form_error(&error);
            let field = match field.as_str() {
                "ano_fabricacao" | "ano de fabricação" => "ano".to_string(),
                "lotação" => "lotacao".to_string(),
                _ => field,
            };
            register_page(
                (&state, &signed, &place),
                asked,
                None,
                (error.status, Some((field, message))),
            )
            .await
        }
    }
}

// ------------------------------------------------------ a vehicle's page

#[derive(Template)]
#[template(path = "veiculo.html")]
struct VehiclePage {
    user: Option<Bar>,
    j: String,
    place: String,
    today: String,
    v: Vehicle,
    /// The service of the permit it serves (code, in Portuguese).
    serving: Option<(String, &'static str)>,
    inspections: Vec<InspectionView>,
    /// Kinds of inspection the form offers: (word, label).
    kinds: Vec<(String, String)>,
    services: Vec<(String, &'static str)>,
    examiner: bool,
    notice: Option<&'static str>,
    error: Option<(String, String)>,
}

#[derive(Debug)]
struct InspectionView {
    number: String,
    kind: String,
    done: String,
    result: &'static str,
    findings: String,
    next: String,
    inspector: String,
}

async fn vehicle_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    plate: &str,
    (status, notice, error): (StatusCode, Option<&'static str>, Option<(String, String)>),
) -> Response {
    let j = place.id.as_str();
    let read = async {
        let vehicle = state.store.vehicle(j, plate).await?;
        let Some(vehicle) = vehicle else {
            return Ok(None);
        };
        let serving = match state.store.serving_service(j, &vehicle.plate).await {
            Ok(service) => Some(service),
            Err(StoreError::NotFound(_)) => None,
            Err(error) => return Err(error),
        };
        let inspections = state
            .store
            .vehicle_inspections(j, &vehicle.plate, INSPECTIONS)
            .await?;
        Ok::<_, StoreError>(Some((vehicle, serving, inspections)))
    };
    let (vehicle, serving, inspections) = match read.await {
        Ok(Some(found)) => found,
        Ok(None) => {
            return refusal(
                signed,
                StatusCode::NOT_FOUND,
                "Veículo não encontrado",
                "Não há veículo com esta placa nesta jurisdição.",
            );
        }
        Err(error) => match error.bad_input() {
            Some((_, reason)) => {
                return refusal(
                    signed,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "Placa inválida",
                    reason,
                );
            }
            None => {
                tracing::error!(%error, "a vehicle could not be read");
                return failure();
            }
        },
    };
    let mut kinds = vec![(
        inspection_word("periodic"),
        outorga_store::words::inspection_kind("periodic"),
    )];
    for rulebook in &place.rulebooks {
        for own in &rulebook.vehicles.inspections {
            let word = inspection_word(&own.kind);
            if !kinds.iter().any(|(w, _)| *w == word) {
                kinds.push((word, outorga_store::words::inspection_kind(&own.kind)));
            }
        }
    }
    page(
        status,
        &VehiclePage {
            user: Some(Bar::of(signed)),
            j: j.to_string(),
            place: place.name.clone(),
            today: format::day(place.today),
            serving: serving.map(|s| {
                let label = Service::parse(&s).map_or("serviço", Service::portuguese);
                (s, label)
            }),
            inspections: inspections
                .into_iter()
                .map(|i| InspectionView {
                    number: format!("{}/{}", i.number, i.year),
                    kind: outorga_store::words::inspection_kind(&i.kind),
                    done: format::day(i.done_on),
                    result: if i.approved { "aprovada" } else { "reprovada" },
                    findings: i.findings,
                    next: format::maybe_day(i.next_due),
                    inspector: i.inspector,
                })
                .collect(),
            kinds,
            services: place
                .services()
                .into_iter()
                .map(|s| (s.name().to_string(), s.portuguese()))
                .collect(),
            examiner: Examiner::admits(signed.user.role),
            v: vehicle,
            notice,
            error,
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct VehicleAsked {
    feito: Option<String>,
}

pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, plate)): Path<(String, String)>,
    Query(asked): Query<VehicleAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let notice = match asked.feito.as_deref() {
        Some("cadastro") => Some("Veículo cadastrado."),
        Some("vistoria") => Some("Vistoria registrada."),
        _ => None,
    };
    vehicle_page(
        &state,
        &signed,
        &place,
        &plate,
        (StatusCode::OK, notice, None),
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct InspectAsked {
    #[serde(default)]
    servico: String,
    #[serde(default)]
    tipo: String,
    #[serde(default)]
    data: String,
    /// `sim` or `nao`.
    #[serde(default)]
    resultado: String,
    #[serde(default)]
    constatacoes: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn inspect(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, plate)): Path<(String, String)>,
    Form(asked): Form<InspectAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Examiner::admits) {
        return *refused;
    }
    let approved = match asked.resultado.as_str() {
        "sim" => true,
        "nao" => false,
        _ => {
            let error = (
                "resultado".to_string(),
                "Diga se a vistoria aprovou o veículo.".to_string(),
            );
            return vehicle_page(
                &state,
                &signed,
                &place,
                &plate,
                (StatusCode::UNPROCESSABLE_ENTITY, None, Some(error)),
            )
            .await;
        }
    };
    let input = VistoriaEntrada {
        servico: asked.servico.clone(),
        tipo: asked.tipo.clone(),
        data: Some(asked.data.trim().to_string()).filter(|d| !d.is_empty()),
        aprovada: approved,
        constatacoes: asked.constatacoes.clone(),
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "vistoria pela tela",
    };
    let done: Result<_, ApiError> =
        inspect_vehicle(&state, &change, &place.id, &plate, &input).await;
    match done {
        Ok(_) => Redirect::to(&format!(
            "/j/{}/veiculos/{}?feito=vistoria",
            place.id,
            plate.trim()
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "an inspection could not be recorded");
            failure()
        }
        Err(error) => {
            let found = form_error(&error);
            vehicle_page(
                &state,
                &signed,
                &place,
                &plate,
                (error.status, None, Some(found)),
            )
            .await
        }
    }
}
