//! Fines owed (from autos made final), what paying them costs on a day,
//! payments and installments. The rulebook is the auto's.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::{change, day_or_today, optional_day, rulebook_of_auto};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{Change, Debt, DebtFilter, Due, Payment};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct PagamentoSaida {
    pub parcela: u32,
    pub pago_em: String,
    pub quantidade: String,
    pub reais: Option<String>,
}

impl From<Payment> for PagamentoSaida {
    fn from(p: Payment) -> PagamentoSaida {
        PagamentoSaida {
            parcela: p.parcel,
            pago_em: p.paid_on.to_string(),
            quantidade: p.quantity,
            reais: p.brl,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DebitoSaida {
    /// O auto de origem (ano, número) e a posição da multa nele.
    pub ano: i32,
    pub numero: i64,
    pub sequencia: i64,
    pub devedor: String,
    /// VRTM, UPFTO, CTM ou BRL.
    pub unidade: String,
    pub quantidade: String,
    pub lancado_em: String,
    pub vence_em: String,
    /// Decidida em processo administrativo.
    pub de_processo: bool,
    pub parcelas: Option<u32>,
    pub quitado: bool,
    pub pagamentos: Vec<PagamentoSaida>,
}

impl From<Debt> for DebitoSaida {
    fn from(d: Debt) -> DebitoSaida {
        DebitoSaida {
            quitado: d.settled(),
            ano: d.year,
            numero: d.number,
            sequencia: d.seq,
            devedor: d.debtor,
            unidade: d.unit,
            quantidade: d.quantity,
            lancado_em: d.issued_on.to_string(),
            vence_em: d.due_on.to_string(),
            de_processo: d.from_process,
            parcelas: d.installments,
            pagamentos: d.payments.into_iter().map(PagamentoSaida::from).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DevidoSaida {
    pub unidade: String,
    pub quantidade: String,
    pub acrescimo_percentual: String,
    pub reais: Option<String>,
    /// A parcela (1 de 1 quando paga de uma vez).
    pub parcela: u32,
    pub artigos: Vec<String>,
}

impl From<Due> for DevidoSaida {
    fn from(d: Due) -> DevidoSaida {
        DevidoSaida {
            unidade: d.unit,
            quantidade: d.quantity,
            acrescimo_percentual: d.surcharge_percent,
            reais: d.brl,
            parcela: d.parcel,
            artigos: d.articles,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FiltroDebitos {
    /// CPF ou CNPJ do devedor.
    pub devedor: Option<String>,
    /// Lançados a partir deste dia (AAAA-MM-DD).
    pub de: Option<String>,
    /// Lançados até este dia, inclusive (AAAA-MM-DD).
    pub ate: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NaData {
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PagamentoEntrada {
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ParcelamentoEntrada {
    pub parcelas: u32,
    pub data: Option<String>,
}

/// A page of the debts of the jurisdiction that the filters admit, in the
/// order they were issued.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/debts", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"), FiltroDebitos, Pagina),
    responses((status = 200, body = Lista<DebitoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(filter): Query<FiltroDebitos>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<DebitoSaida>>, ApiError> {
    let asked = page.asked()?;
    let filter = DebtFilter {
        debtor: filter.devedor,
        from: optional_day(filter.de.as_deref(), "de")?,
        to: optional_day(filter.ate.as_deref(), "ate")?,
    };
    let debts = state.store.debts(&j, &filter, asked.window()).await?;
    Ok(Json(Lista::of(debts)))
}

/// What paying the debt (or its next parcel) costs on a day.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/due", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto"),
           ("seq" = i64, Path, description = "a multa no auto"), NaData),
    responses((status = 200, body = DevidoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn due(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero, seq)): Path<(String, i32, i64, i64)>,
    Query(when): Query<NaData>,
) -> Result<Json<DevidoSaida>, ApiError> {
    let due = debt_due(&state, &j, (ano, numero, seq), when.data.as_deref()).await?;
    Ok(Json(due.into()))
}

/// What paying the debt (or its next parcel) costs on `data` (none:
/// today): what `GET …/due` and the debt's page answer.
pub async fn debt_due(
    state: &AppState,
    j: &str,
    (ano, numero, seq): (i32, i64, i64),
    data: Option<&str>,
) -> Result<Due, ApiError> {
    let on = day_or_today(state, j, data, "data")?;
    let rulebook = rulebook_of_auto(state, j, (ano, numero)).await?;
    Ok(state
        .store
        .debt_due(rulebook, j, (ano, numero, seq), on)
        .await?)
}

/// Records the payment of the debt (or its next parcel) for what is due.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/payments", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto"),
           ("seq" = i64, Path, description = "a multa no auto")),
    request_body = PagamentoEntrada,
    responses((status = 201, body = DevidoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn pay(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero, seq)): Path<(String, i32, i64, i64)>,
    Json(input): Json<PagamentoEntrada>,
) -> Result<(StatusCode, Json<DevidoSaida>), ApiError> {
    let change = change!(state, who, "pagamento pela API");
    let paid = pay_debt(
        &state,
        &change,
        &j,
        (ano, numero, seq),
        input.data.as_deref(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(paid.into())))
}

/// Records the payment of the debt (or its next parcel) on `data` (none:
/// today) for what is due: what `POST …/payments` and the debt's page do.
pub async fn pay_debt(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    (ano, numero, seq): (i32, i64, i64),
    data: Option<&str>,
) -> Result<Due, ApiError> {
    let on = day_or_today(state, j, data, "data")?;
    let rulebook = rulebook_of_auto(state, j, (ano, numero)).await?;
    Ok(state
        .store
        .pay_debt(change, rulebook, j, (ano, numero, seq), on)
        .await?)
}

/// Splits a debt not yet paid into parcels, if the law allows it.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/installments", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto"),
           ("seq" = i64, Path, description = "a multa no auto")),
    request_body = ParcelamentoEntrada,
    responses((status = 200, body = DebitoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn split(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero, seq)): Path<(String, i32, i64, i64)>,
    Json(input): Json<ParcelamentoEntrada>,
) -> Result<Json<DebitoSaida>, ApiError> {
    let change = change!(state, who, "parcelamento pela API");
    let debt = split_debt(
        &state,
        &change,
        &j,
        (ano, numero, seq),
        (input.parcelas, input.data.as_deref()),
    )
    .await?;
    Ok(Json(debt.into()))
}

/// Splits a debt not yet paid into `parcelas`, if the law allows it, on
/// `data` (none: today): what `POST …/installments` and the debt's page do.
pub async fn split_debt(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    (ano, numero, seq): (i32, i64, i64),
    (parcelas, data): (u32, Option<&str>),
) -> Result<Debt, ApiError> {
    let on = day_or_today(state, j, data, "data")?;
    let rulebook = rulebook_of_auto(state, j, (ano, numero)).await?;
    Ok(state
        .store
        .split_debt(change, rulebook, j, (ano, numero, seq), (parcelas, on))
        .await?)
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(due))
        .routes(routes!(pay))
        .routes(routes!(split))
}
