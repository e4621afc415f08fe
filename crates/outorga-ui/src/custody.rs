//! The custody of a vehicle an auto retained or seized, on the auto's page:
//! where it is kept, its expenses and their payment, the irregularity
//! corrected, and what its release requires now — each requirement with its
//! article. The release is the auto's `release` step (the procedure's form
//! on the same page). Through `outorga_web::workflows`, as
//! `POST …/autos/{ano}/{numero}/custody…` does.

use crate::format;
use crate::forms::given;
use crate::pages::failure;
use crate::place::{Place, place};
use crate::session::{Signed, checked_form};
use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::model::{ReleaseCondition, Rulebook};
use outorga_store::{Auto, Change};
use outorga_web::auth::Examiner;
use outorga_web::workflows::{
    CustodiaEntrada, DespesaEntrada, PagamentoDespesaEntrada, SaneamentoEntrada, add_expense,
    correct, custody_now, open_custody, pay_expense,
};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// An expense as the page lists it.
#[derive(Debug)]
pub(crate) struct Expense {
    pub(crate) seq: i64,
    pub(crate) kind: &'static str,
    pub(crate) description: String,
    pub(crate) amount: String,
    pub(crate) day: String,
    pub(crate) paid: String,
}

/// The custody section of an auto's page.
#[derive(Debug)]
pub(crate) struct Section {
    /// The measure: "retenção do veículo", "apreensão do veículo".
    pub(crate) measure: &'static str,
    /// Recorded: where, by whom, since when.
    pub(crate) kept: Option<(String, String, String)>,
    pub(crate) corrected: Option<(String, String)>,
    pub(crate) released: Option<(String, String)>,
    pub(crate) expenses: Vec<Expense>,
    /// The release's requirements now: (what, met, detail, article).
    pub(crate) checks: Vec<(String, bool, String, String)>,
    pub(crate) releasable: bool,
    /// The expenses the law puts on the owner: (code, label, article).
    pub(crate) chargeable: Vec<(&'static str, &'static str, String)>,
    /// The law asks the irregularity corrected.
    pub(crate) asks_correction: bool,
    /// The user may record it.
    pub(crate) examiner: bool,
    /// Now, for the forms' defaults.
    pub(crate) now: String,
}

/// The custody section of `auto`'s page, when it held a vehicle.
pub(crate) async fn section(
    state: &AppState,
    signed: &Signed,
    (rulebook, j): (&Rulebook, &str),
    auto: &Auto,
) -> Result<Option<Section>, ApiError> {
    let Some(kind) = auto.held_vehicle() else {
        return Ok(None);
    };
    let view = custody_now(state, j, (auto.year, auto.number)).await?;
    let asks_correction = rulebook
        .procedure
        .as_ref()
        .and_then(|p| p.custody.iter().find(|c| c.kind == kind))
        .is_some_and(|c| {
            c.release
                .iter()
                .any(|r| r.value == ReleaseCondition::FaultCorrected)
        });
    let now = rulebook.jurisdiction.local(state.clock.now());
    let moment = |m: chrono::NaiveDateTime| m.format("%d/%m/%Y %H:%M").to_string();
    let mut section = Section {
        measure: kind.portuguese(),
        kept: None,
        corrected: None,
        released: None,
        expenses: Vec::new(),
        checks: Vec::new(),
        releasable: false,
        chargeable: Vec::new(),
        asks_correction,
        examiner: Examiner::admits(signed.user.role),
        now: now.format("%Y-%m-%dT%H:%M").to_string(),
    };
    if let Some(view) = view {
        section.releasable = view.releasable();
        let c = view.custody;
        section.kept = Some((c.place, c.custodian, moment(c.held_at)));
        section.corrected = c.corrected_at.map(moment).zip(c.correction);
        section.released = c.released_at.map(moment).zip(c.release_act);
        section.expenses = c
            .expenses
            .into_iter()
            .map(|e| Expense {
                seq: e.seq,
                kind: e.kind.portuguese(),
                description: e.description,
                amount: format::money(&e.amount.to_string()),
                day: format::day(e.incurred_on),
                paid: e
                    .paid_on
                    .map(|d| format!("{} ({})", format::day(d), e.receipt.unwrap_or_default()))
                    .unwrap_or_default(),
            })
            .collect();
        section.checks = view
            .checks
            .into_iter()
            .map(|c| (c.what, c.met, c.detail, c.citation))
            .collect();
        section.chargeable = view
            .chargeable
            .into_iter()
            .map(|(k, article)| (k.name(), k.portuguese(), article))
            .collect();
    }
    Ok(Some(section))
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Asked {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    desde: String,
    #[serde(default)]
    local: String,
    #[serde(default)]
    responsavel: String,
    #[serde(default)]
    tipo: String,
    #[serde(default)]
    descricao: String,
    #[serde(default)]
    valor: String,
    #[serde(default)]
    data: String,
    #[serde(default)]
    pago_em: String,
    #[serde(default)]
    comprovante: String,
    #[serde(default)]
    quando: String,
    #[serde(default)]
    correcao: String,
}

/// What a custody form records.
enum Act {
    Open,
    Expense,
    Payment(i64),
    Correction,
}

async fn record(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    key: (i32, i64),
    (act, asked): (Act, &Asked),
) -> Result<(), ApiError> {
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "custódia do veículo pela tela",
    };
    let j = place.id.as_str();
    match act {
        Act::Open => {
            let input = CustodiaEntrada {
                desde: asked.desde.clone(),
                local: asked.local.clone(),
                responsavel: asked.responsavel.clone(),
            };
            open_custody(state, &change, j, key, &input).await
        }
        Act::Expense => {
            let input = DespesaEntrada {
                tipo: asked.tipo.clone(),
                descricao: asked.descricao.clone(),
                valor: asked.valor.clone(),
                data: given(&asked.data).unwrap_or_else(|| place.today.to_string()),
            };
            add_expense(state, &change, j, key, &input).await
        }
        Act::Payment(seq) => {
            let input = PagamentoDespesaEntrada {
                pago_em: given(&asked.pago_em).unwrap_or_else(|| place.today.to_string()),
                comprovante: asked.comprovante.clone(),
            };
            pay_expense(state, &change, j, (key, seq), &input).await
        }
        Act::Correction => {
            let input = SaneamentoEntrada {
                quando: asked.quando.clone(),
                correcao: asked.correcao.clone(),
            };
            correct(state, &change, j, key, &input).await
        }
    }
}

async fn respond(
    state: &AppState,
    signed: Signed,
    (j, year, number): (String, i32, i64),
    (act, asked): (Act, Asked),
) -> Response {
    let place = match place(state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Examiner::admits) {
        return *refused;
    }
    match record(state, &signed, &place, (year, number), (act, &asked)).await {
        Ok(()) => Redirect::to(&format!("/j/{j}/autos/{year}/{number}?custodia=1#custodia"))
            .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a custody could not be recorded");
            failure()
        }
        Err(error) => {
            let (field, message) = crate::autos::form_error(&error);
            crate::auto_page::refused_page(
                state,
                &signed,
                &place,
                (year, number),
                (error.status, ("custodia".to_string(), field, message)),
            )
            .await
        }
    }
}

/// Records where the vehicle is kept.
pub(crate) async fn open(
    State(state): State<AppState>,
    signed: Signed,
    Path(key): Path<(String, i32, i64)>,
    Form(asked): Form<Asked>,
) -> Response {
    respond(&state, signed, key, (Act::Open, asked)).await
}

/// Records an expense.
pub(crate) async fn expense(
    State(state): State<AppState>,
    signed: Signed,
    Path(key): Path<(String, i32, i64)>,
    Form(asked): Form<Asked>,
) -> Response {
    respond(&state, signed, key, (Act::Expense, asked)).await
}

/// Records an expense paid.
pub(crate) async fn payment(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Form(asked): Form<Asked>,
) -> Response {
    respond(
        &state,
        signed,
        (j, year, number),
        (Act::Payment(seq), asked),
    )
    .await
}

/// Records the irregularity corrected.
pub(crate) async fn correction(
    State(state): State<AppState>,
    signed: Signed,
    Path(key): Path<(String, i32, i64)>,
    Form(asked): Form<Asked>,
) -> Response {
    respond(&state, signed, key, (Act::Correction, asked)).await
}
