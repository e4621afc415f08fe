//! The custody of a vehicle an auto retained or seized on the spot: where it
//! is kept, its expenses and their payment, the irregularity corrected, and
//! what its release requires now (each requirement with its article). The
//! release itself is the auto's `release` step (`POST …/autos/{ano}/{numero}/steps`).

use crate::auth::{Examiner, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::units::decimal;
use crate::routes::{change, parse_day, parse_moment, rulebook_of_auto};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_core::model::ExpenseKind;
use outorga_store::{Custody, CustodyInput, CustodyView, ExpenseInput};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Where the vehicle is kept and by whom.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CustodiaEntrada {
    /// Quando o veículo foi recolhido: AAAA-MM-DDTHH:MM.
    pub desde: String,
    /// Onde está guardado (pátio, garagem, endereço).
    pub local: String,
    /// Quem o guarda.
    pub responsavel: String,
}

/// An expense of the custody.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DespesaEntrada {
    /// `continuation_transport`, `food_lodging` ou `removal_storage`, como a lei
    /// do auto os admite.
    pub tipo: String,
    pub descricao: String,
    /// Em reais: 350.50.
    pub valor: String,
    /// AAAA-MM-DD.
    pub data: String,
}

/// An expense paid.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PagamentoDespesaEntrada {
    /// AAAA-MM-DD.
    pub pago_em: String,
    /// O comprovante (número do recibo, da nota).
    pub comprovante: String,
}

/// The irregularity corrected.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SaneamentoEntrada {
    /// AAAA-MM-DDTHH:MM.
    pub quando: String,
    /// O que foi feito.
    pub correcao: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DespesaSaida {
    pub numero: i64,
    pub tipo: String,
    pub tipo_nome: String,
    pub descricao: String,
    pub valor: String,
    pub data: String,
    pub pago_em: Option<String>,
    pub comprovante: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RequisitoSaida {
    pub requisito: String,
    pub cumprido: bool,
    pub situacao: String,
    pub artigo: String,
}

/// A vehicle's custody and what its release requires now.
#[derive(Debug, Serialize, ToSchema)]
pub struct CustodiaSaida {
    /// O auto: `[ano, número]`.
    pub auto: (i32, i64),
    /// `vehicle_retention` ou `vehicle_seizure`.
    pub medida: String,
    pub medida_nome: String,
    pub placa: String,
    pub desde: String,
    pub local: String,
    pub responsavel: String,
    pub registrada_por: String,
    pub sanada_em: Option<String>,
    pub correcao: Option<String>,
    pub liberado_em: Option<String>,
    pub ato_liberacao: Option<String>,
    pub despesas: Vec<DespesaSaida>,
    /// Os requisitos da liberação agora, cada um com seu artigo.
    pub requisitos: Vec<RequisitoSaida>,
    pub liberavel: bool,
}

fn moment(m: chrono::NaiveDateTime) -> String {
    m.format("%Y-%m-%dT%H:%M").to_string()
}

impl From<CustodyView> for CustodiaSaida {
    fn from(view: CustodyView) -> CustodiaSaida {
        let liberavel = view.releasable();
        let c: Custody = view.custody;
        CustodiaSaida {
            auto: (c.year, c.number),
            medida: c.kind.name().into(),
            medida_nome: c.kind.portuguese().into(),
            placa: c.plate,
            desde: moment(c.held_at),
            local: c.place,
            responsavel: c.custodian,
            registrada_por: c.opened_by,
            sanada_em: c.corrected_at.map(moment),
            correcao: c.correction,
            liberado_em: c.released_at.map(moment),
            ato_liberacao: c.release_act,
            despesas: c
                .expenses
                .into_iter()
                .map(|e| DespesaSaida {
                    numero: e.seq,
                    tipo: e.kind.name().into(),
                    tipo_nome: e.kind.portuguese().into(),
                    descricao: e.description,
                    valor: e.amount.to_string(),
                    data: e.incurred_on.to_string(),
                    pago_em: e.paid_on.map(|d| d.to_string()),
                    comprovante: e.receipt,
                })
                .collect(),
            requisitos: view
                .checks
                .into_iter()
                .map(|c| RequisitoSaida {
                    requisito: c.what,
                    cumprido: c.met,
                    situacao: c.detail,
                    artigo: c.citation,
                })
                .collect(),
            liberavel,
        }
    }
}

/// The custody of the auto's vehicle now, or 404 saying how to record it.
pub async fn custody_now(
    state: &AppState,
    j: &str,
    key: (i32, i64),
) -> Result<Option<CustodyView>, ApiError> {
    let rulebook = rulebook_of_auto(state, j, key).await?;
    let now = rulebook.jurisdiction.local(state.clock.now());
    Ok(state.store.custody(rulebook, j, key, now).await?)
}

async fn view(state: &AppState, j: &str, key: (i32, i64)) -> Result<Json<CustodiaSaida>, ApiError> {
    custody_now(state, j, key)
        .await?
        .map(|v| Json(v.into()))
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "o auto nº {}/{} não tem custódia registrada",
                key.1, key.0
            ))
        })
}

/// The custody of the auto's vehicle and what its release requires now.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto")),
    responses((status = 200, body = CustodiaSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<CustodiaSaida>, ApiError> {
    view(&state, &j, (ano, numero)).await
}

/// Records where and by whom the vehicle the auto held is kept.
pub async fn open(
    state: &AppState,
    change: &outorga_store::Change<'_>,
    j: &str,
    key: (i32, i64),
    input: &CustodiaEntrada,
) -> Result<(), ApiError> {
    let rulebook = rulebook_of_auto(state, j, key).await?;
    let custody = CustodyInput {
        held_at: parse_moment(&input.desde, "desde")?,
        place: input.local.clone(),
        custodian: input.responsavel.clone(),
    };
    state
        .store
        .open_custody(change, rulebook, j, key, &custody)
        .await?;
    Ok(())
}

/// Records the custody of the vehicle the auto retained or seized.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto")),
    request_body = CustodiaEntrada,
    responses((status = 201, body = CustodiaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create(
    State(state): State<AppState>,
    who: Examiner,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<CustodiaEntrada>,
) -> Result<(StatusCode, Json<CustodiaSaida>), ApiError> {
    let change = change!(state, who, "custódia de veículo pela API");
    open(&state, &change, &j, (ano, numero), &input).await?;
    Ok((StatusCode::CREATED, view(&state, &j, (ano, numero)).await?))
}

/// Records an expense of the custody.
pub async fn add_expense(
    state: &AppState,
    change: &outorga_store::Change<'_>,
    j: &str,
    key: (i32, i64),
    input: &DespesaEntrada,
) -> Result<(), ApiError> {
    let rulebook = rulebook_of_auto(state, j, key).await?;
    let kind = ExpenseKind::parse(input.tipo.trim()).ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tipo",
            format!("`{}`: use {}", input.tipo, ExpenseKind::NAMES.join(", ")),
        )
    })?;
    let expense = ExpenseInput {
        kind,
        description: input.descricao.clone(),
        amount: decimal(&input.valor, "valor")?,
        incurred_on: parse_day(&input.data, "data")?,
    };
    state
        .store
        .add_custody_expense(change, rulebook, j, key, &expense)
        .await?;
    Ok(())
}

/// Records an expense of the custody, of a kind the law puts on the owner.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody/expenses", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto")),
    request_body = DespesaEntrada,
    responses((status = 201, body = CustodiaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn expense(
    State(state): State<AppState>,
    who: Examiner,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<DespesaEntrada>,
) -> Result<(StatusCode, Json<CustodiaSaida>), ApiError> {
    let change = change!(state, who, "despesa da custódia pela API");
    add_expense(&state, &change, &j, (ano, numero), &input).await?;
    Ok((StatusCode::CREATED, view(&state, &j, (ano, numero)).await?))
}

/// Records an expense paid.
pub async fn pay_expense(
    state: &AppState,
    change: &outorga_store::Change<'_>,
    j: &str,
    (key, seq): ((i32, i64), i64),
    input: &PagamentoDespesaEntrada,
) -> Result<(), ApiError> {
    let rulebook = rulebook_of_auto(state, j, key).await?;
    let paid_on = parse_day(&input.pago_em, "pago_em")?;
    state
        .store
        .pay_custody_expense(
            change,
            rulebook,
            j,
            (key, seq),
            (paid_on, &input.comprovante),
        )
        .await?;
    Ok(())
}

/// Records that an expense of the custody was paid, with its receipt.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody/expenses/{despesa}/payment", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto"),
           ("despesa" = i64, Path, description = "o número da despesa")),
    request_body = PagamentoDespesaEntrada,
    responses((status = 200, body = CustodiaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn payment(
    State(state): State<AppState>,
    who: Examiner,
    Path((j, ano, numero, despesa)): Path<(String, i32, i64, i64)>,
    Json(input): Json<PagamentoDespesaEntrada>,
) -> Result<Json<CustodiaSaida>, ApiError> {
    let change = change!(state, who, "despesa da custódia paga, pela API");
    pay_expense(&state, &change, &j, ((ano, numero), despesa), &input).await?;
    view(&state, &j, (ano, numero)).await
}

/// Records the irregularity corrected.
pub async fn correct(
    state: &AppState,
    change: &outorga_store::Change<'_>,
    j: &str,
    key: (i32, i64),
    input: &SaneamentoEntrada,
) -> Result<(), ApiError> {
    let rulebook = rulebook_of_auto(state, j, key).await?;
    let at = parse_moment(&input.quando, "quando")?;
    state
        .store
        .correct_custody(change, rulebook, j, key, (at, &input.correcao))
        .await?;
    Ok(())
}

/// Records that the irregularity that caused the measure was corrected.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody/correction", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto")),
    request_body = SaneamentoEntrada,
    responses((status = 200, body = CustodiaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn correction(
    State(state): State<AppState>,
    who: Examiner,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<SaneamentoEntrada>,
) -> Result<Json<CustodiaSaida>, ApiError> {
    let change = change!(state, who, "irregularidade sanada, pela API");
    correct(&state, &change, &j, (ano, numero), &input).await?;
    view(&state, &j, (ano, numero)).await
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get, create))
        .routes(routes!(expense))
        .routes(routes!(payment))
        .routes(routes!(correction))
}
