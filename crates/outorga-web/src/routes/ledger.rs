//! The ledger's work beyond paying: fees charged by a clerk, second copies
//! of documents (which charge their fee), refunds, a bank's return file,
//! and the reports (revenue by month, debts overdue) as CSV.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::routes::debts::{DebitoSaida, NaData, cents, reais, rulebook_of_debt};
use crate::routes::documents::DocumentoSaida;
use crate::routes::{bound_rulebooks, change, day_or_today, optional_day, rulebook_for_service};
use crate::state::AppState;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use chrono::Datelike;
use outorga_store::{Change, FeeCharge, Refund, RefundGround, ReturnReport};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TaxaEntrada {
    /// O serviço cujo regulamento define a taxa (mototaxi, motofrete, taxi…).
    pub servico: String,
    /// A taxa, como o regulamento a chama (`cgo`, `second_copy`, `transfer`…:
    /// veja o regulamento, `[[fees]]`).
    pub taxa: String,
    /// CPF ou CNPJ de quem paga.
    pub devedor: String,
    /// O número da permissão a que se refere, quando uma.
    pub permissao: Option<i64>,
    /// Meses completos de trabalho, para as reduções que a lei dá.
    pub meses_trabalhados: Option<u32>,
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
}

/// Charges a fee of the law to a person.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/fees", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = TaxaEntrada,
    responses((status = 201, body = DebitoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn charge(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<TaxaEntrada>,
) -> Result<(StatusCode, Json<DebitoSaida>), ApiError> {
    let change = change!(state, who, "taxa lançada pela API");
    let debt = charge_fee(&state, &change, &j, &input).await?;
    Ok((StatusCode::CREATED, Json(debt.into())))
}

/// Charges the fee `input` names: what `POST …/fees` and the debts' page do.
pub async fn charge_fee(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    input: &TaxaEntrada,
) -> Result<outorga_store::Debt, ApiError> {
    let rulebook = rulebook_for_service(state, j, &input.servico).await?;
    let charge = FeeCharge {
        kind: input.taxa.trim().to_string(),
        debtor: input.devedor.clone(),
        permit: input.permissao,
        on: day_or_today(state, j, input.data.as_deref(), "data")?,
        months_worked: input.meses_trabalhados,
    };
    Ok(state.store.charge_fee(change, rulebook, j, &charge).await?)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SegundaViaEntrada {
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
}

/// Issues a second copy of a valid document (a new code; the old one is
/// cancelled) and charges its fee where the law has one.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/documents/{codigo}/second-copy", tag = "documentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("codigo" = String, Path, description = "o código de verificação")),
    request_body = SegundaViaEntrada,
    responses((status = 201, body = DocumentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn second_copy(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, codigo)): Path<(String, String)>,
    Json(input): Json<SegundaViaEntrada>,
) -> Result<(StatusCode, Json<DocumentoSaida>), ApiError> {
    let change = change!(state, who, "segunda via pela API");
    let on = day_or_today(&state, &j, input.data.as_deref(), "data")?;
    let bound = bound_rulebooks(&state, &j).await?;
    let document = state
        .store
        .document(&codigo)
        .await?
        .filter(|d| d.jurisdiction == j)
        .ok_or_else(|| ApiError::not_found(format!("não há documento {codigo} em {j}")))?;
    // The rulebook of the permit it is about; else the jurisdiction's first.
    let service = document
        .subject
        .strip_prefix("permit:")
        .and_then(|rest| rest.split(':').next());
    let rulebook = match service {
        Some(service) => rulebook_for_service(&state, &j, service).await?,
        None => bound
            .first()
            .copied()
            .ok_or_else(|| ApiError::not_found(format!("{j} não tem regulamento")))?,
    };
    let copy = state
        .store
        .second_copy(&change, rulebook, &j, (&document.code, on))
        .await?;
    Ok((StatusCode::CREATED, Json(copy.into())))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RestituicaoEntrada {
    /// provimento (defesa ou recurso provido depois do pagamento),
    /// duplicidade (pago duas vezes) ou lancamento_indevido.
    pub motivo: String,
    /// Em reais; todo o pago quando omitido.
    pub valor: Option<String>,
    /// O dia do pedido (AAAA-MM-DD); hoje quando omitido.
    pub data: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RestituicaoSaida {
    pub pedida_em: String,
    pub motivo: String,
    pub valor: String,
    /// O último dia para restituir (Teófilo Otoni art. 96, § 3º: 30 dias do pedido).
    pub ate: String,
    pub artigo: Option<String>,
    pub restituida_em: Option<String>,
}

/// The grounds of a refund as the API names them.
pub(crate) const MOTIVOS: [(&str, RefundGround); 3] = [
    ("provimento", RefundGround::Upheld),
    ("duplicidade", RefundGround::PaidTwice),
    ("lancamento_indevido", RefundGround::WrongAssessment),
];

impl From<Refund> for RestituicaoSaida {
    fn from(r: Refund) -> RestituicaoSaida {
        RestituicaoSaida {
            pedida_em: r.requested_on.to_string(),
            motivo: MOTIVOS
                .iter()
                .find(|(_, g)| *g == r.ground)
                .map_or("", |(w, _)| w)
                .to_string(),
            valor: reais(r.cents),
            ate: r.due_by.to_string(),
            artigo: r.article,
            restituida_em: r.refunded_on.map(|d| d.to_string()),
        }
    }
}

/// Records a refund asked for what was paid for the debt.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/refund", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto ou da taxa"),
           ("numero" = i64, Path, description = "o número do auto ou da taxa"),
           ("seq" = i64, Path, description = "a multa no auto (0: a taxa)")),
    request_body = RestituicaoEntrada,
    responses((status = 201, body = RestituicaoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn refund(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero, seq)): Path<(String, i32, i64, i64)>,
    Json(input): Json<RestituicaoEntrada>,
) -> Result<(StatusCode, Json<RestituicaoSaida>), ApiError> {
    let change = change!(state, who, "restituição pedida pela API");
    let refund = request_refund(&state, &change, &j, (ano, numero, seq), &input).await?;
    Ok((StatusCode::CREATED, Json(refund.into())))
}

/// Records the refund `input` asks: what `POST …/refund` and the debt's
/// page do.
pub async fn request_refund(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    key: (i32, i64, i64),
    input: &RestituicaoEntrada,
) -> Result<Refund, ApiError> {
    let ground = MOTIVOS
        .iter()
        .find(|(w, _)| *w == input.motivo.trim())
        .map(|(_, g)| *g)
        .ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "motivo",
                format!(
                    "`{}` não é motivo de restituição: provimento, duplicidade ou lancamento_indevido",
                    input.motivo
                ),
            )
        })?;
    let value = input
        .valor
        .as_deref()
        .filter(|v| !v.trim().is_empty())
        .map(|v| cents(v, "valor"))
        .transpose()?;
    let on = day_or_today(state, j, input.data.as_deref(), "data")?;
    let rulebook = rulebook_of_debt(state, j, key).await?;
    Ok(state
        .store
        .request_refund(change, rulebook, j, key, (on, ground, value))
        .await?)
}

/// Records the refund of the debt paid back.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/refund/paid", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto ou da taxa"),
           ("numero" = i64, Path, description = "o número do auto ou da taxa"),
           ("seq" = i64, Path, description = "a multa no auto (0: a taxa)")),
    request_body = SegundaViaEntrada,
    responses((status = 200, body = RestituicaoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn refunded(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero, seq)): Path<(String, i32, i64, i64)>,
    Json(input): Json<SegundaViaEntrada>,
) -> Result<Json<RestituicaoSaida>, ApiError> {
    let change = change!(state, who, "restituição paga, pela API");
    let refund = refund_paid(
        &state,
        &change,
        &j,
        (ano, numero, seq),
        input.data.as_deref(),
    )
    .await?;
    Ok(Json(refund.into()))
}

/// Records the refund of the debt paid back on `data` (none: today): what
/// `POST …/refund/paid` and the debt's page do.
pub async fn refund_paid(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    key: (i32, i64, i64),
    data: Option<&str>,
) -> Result<Refund, ApiError> {
    let on = day_or_today(state, j, data, "data")?;
    let rulebook = rulebook_of_debt(state, j, key).await?;
    Ok(state
        .store
        .refund_paid(change, rulebook, j, key, on)
        .await?)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RetornoEntrada {
    /// O texto do arquivo retorno (FEBRABAN, arrecadação, 150 posições por linha).
    pub arquivo: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LinhaPaga {
    pub linha: usize,
    pub ano: i32,
    pub numero: i64,
    pub sequencia: i64,
    pub valor: String,
    pub recibo: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LinhaRecusada {
    pub linha: usize,
    pub motivo: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RetornoSaida {
    pub banco: u16,
    pub nsa: u32,
    /// As guias que pagaram seus débitos.
    pub pagas: Vec<LinhaPaga>,
    /// As pagas depois de quitado o débito: crédito do devedor.
    pub creditadas: Vec<LinhaPaga>,
    /// As linhas que nada pagaram, e por quê.
    pub recusadas: Vec<LinhaRecusada>,
}

impl From<ReturnReport> for RetornoSaida {
    fn from(r: ReturnReport) -> RetornoSaida {
        let line = |(linha, (ano, numero, sequencia), cents, recibo): (
            usize,
            (i32, i64, i64),
            i64,
            Option<String>,
        )| LinhaPaga {
            linha,
            ano,
            numero,
            sequencia,
            valor: reais(cents),
            recibo,
        };
        RetornoSaida {
            banco: r.bank,
            nsa: r.nsa,
            pagas: r
                .paid
                .into_iter()
                .map(|(l, k, c, receipt)| line((l, k, c, Some(receipt))))
                .collect(),
            creditadas: r
                .credited
                .into_iter()
                .map(|(l, k, c)| line((l, k, c, None)))
                .collect(),
            recusadas: r
                .unmatched
                .into_iter()
                .map(|(linha, motivo)| LinhaRecusada { linha, motivo })
                .collect(),
        }
    }
}

/// Imports a bank's return file of paid slips.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/bank-returns", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = RetornoEntrada,
    responses((status = 200, body = RetornoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn bank_return(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<RetornoEntrada>,
) -> Result<Json<RetornoSaida>, ApiError> {
    let change = change!(state, who, "retorno bancário pela API");
    Ok(Json(
        import_return(&state, &change, &j, &input.arquivo)
            .await?
            .into(),
    ))
}

/// Imports the return file `text`: what `POST …/bank-returns` and the
/// reconciliation page do.
pub async fn import_return(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    text: &str,
) -> Result<ReturnReport, ApiError> {
    let bound = bound_rulebooks(state, j).await?;
    Ok(state.store.import_return(change, &bound, j, text).await?)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Periodo {
    /// AAAA-MM-DD; o primeiro dia do ano quando omitido.
    pub de: Option<String>,
    /// AAAA-MM-DD; hoje quando omitido.
    pub ate: Option<String>,
}

/// Revenue by month, origin (fines, fees) and fee, as CSV.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/reports/revenue.csv", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"), Periodo),
    responses((status = 200, content_type = "text/csv", body = String), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn revenue(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(period): Query<Periodo>,
) -> Result<axum::response::Response, ApiError> {
    let (name, body) =
        revenue_report(&state, &j, (period.de.as_deref(), period.ate.as_deref())).await?;
    Ok(csv(name, body))
}

/// The revenue of `j` from `de` (none: the first day of the year of `ate`)
/// to `ate` (none: today), as a CSV file's name and text: what
/// `GET …/reports/revenue.csv` and the debts' page download.
pub async fn revenue_report(
    state: &AppState,
    j: &str,
    (de, ate): (Option<&str>, Option<&str>),
) -> Result<(String, String), ApiError> {
    bound_rulebooks(state, j).await?;
    let to = day_or_today(state, j, ate.filter(|t| !t.trim().is_empty()), "ate")?;
    let from = optional_day(de, "de")?.unwrap_or_else(|| to.with_ordinal(1).unwrap_or(to));
    let rows = state.store.revenue(j, (from, to)).await?;
    Ok((
        format!("receita-{j}-{from}-{to}.csv"),
        outorga_store::revenue_csv(&rows),
    ))
}

/// The debts overdue on a day (the list for dívida ativa), as CSV.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/reports/overdue.csv", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"), NaData),
    responses((status = 200, content_type = "text/csv", body = String), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn overdue(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(when): Query<NaData>,
) -> Result<axum::response::Response, ApiError> {
    let (name, body) = overdue_report(&state, &j, when.data.as_deref()).await?;
    Ok(csv(name, body))
}

/// The debts of `j` overdue on `data` (none: today), as a CSV file's name
/// and text: what `GET …/reports/overdue.csv` and the debts' page download.
pub async fn overdue_report(
    state: &AppState,
    j: &str,
    data: Option<&str>,
) -> Result<(String, String), ApiError> {
    bound_rulebooks(state, j).await?;
    let on = day_or_today(state, j, data.filter(|t| !t.trim().is_empty()), "data")?;
    let rows = state.store.overdue_debts(j, on).await?;
    Ok((
        format!("debitos-vencidos-{j}-{on}.csv"),
        outorga_store::overdue_csv(&rows),
    ))
}

/// A report's file to download.
pub fn csv(name: String, body: String) -> axum::response::Response {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(charge))
        .routes(routes!(second_copy))
        .routes(routes!(refund))
        .routes(routes!(refunded))
        .routes(routes!(bank_return))
        .routes(routes!(revenue))
        .routes(routes!(overdue))
}
