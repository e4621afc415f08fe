//! Fines owed (from autos made final), what paying them costs on a day,
//! payments and installments. The rulebook is the auto's.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::{change, day_or_today, optional_day};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{Change, Debt, DebtFilter, Due, Means, Origin, Payment, PaymentInput};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct PagamentoSaida {
    pub parcela: u32,
    pub pago_em: String,
    pub quantidade: String,
    /// O devido no dia, em reais.
    pub reais: Option<String>,
    /// O recebido, em reais (não registrado antes da versão com o razão).
    pub recebido: Option<String>,
    pub meio: Option<String>,
    pub recibo: Option<String>,
}

impl From<Payment> for PagamentoSaida {
    fn from(p: Payment) -> PagamentoSaida {
        PagamentoSaida {
            parcela: p.parcel,
            pago_em: p.paid_on.to_string(),
            quantidade: p.quantity,
            reais: p.brl,
            recebido: p.cents.map(reais),
            meio: p.means.map(|m| m.name().to_string()),
            recibo: p.receipt,
        }
    }
}

/// Centavos as the API writes reais: a decimal string with two places.
pub fn reais(cents: i64) -> String {
    rust_decimal::Decimal::new(cents, 2).to_string()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DebitoSaida {
    /// Uma multa: o auto de origem (ano, número) e a posição da multa nele;
    /// uma taxa: seu ano e número, posição 0.
    pub ano: i32,
    pub numero: i64,
    pub sequencia: i64,
    /// auto ou taxa.
    pub origem: String,
    pub regulamento: String,
    /// A taxa do regulamento (sua chave), quando taxa.
    pub taxa: Option<String>,
    /// O artigo em que o valor se apoia.
    pub artigo: Option<String>,
    /// A que se refere.
    pub referente: String,
    /// O número da permissão a que se refere, quando uma.
    pub permissao: Option<i64>,
    /// O nosso número: o mesmo na guia, no PIX e no retorno do banco.
    pub nosso_numero: String,
    /// Em reais ao valor da unidade no dia do lançamento, quando conhecido.
    pub reais_no_lancamento: Option<String>,
    pub devedor: String,
    /// VRTM, UPFTO, CTM ou BRL.
    pub unidade: String,
    pub quantidade: String,
    pub lancado_em: String,
    pub vence_em: String,
    /// Decidida em processo administrativo.
    pub de_processo: bool,
    pub parcelas: Option<u32>,
    /// As parcelas do plano: vencimento (dia útil) e quantidade.
    pub plano: Vec<ParcelaPrevista>,
    /// O dia em que o saldo venceu de uma vez (Teófilo Otoni art. 98, § 3º), quando pago assim.
    pub saldo_vencido_em: Option<String>,
    pub quitado: bool,
    pub pagamentos: Vec<PagamentoSaida>,
}

impl From<Debt> for DebitoSaida {
    fn from(d: Debt) -> DebitoSaida {
        DebitoSaida {
            quitado: d.settled(),
            nosso_numero: d.own_number(),
            origem: match d.origin {
                Origin::Auto => "auto".into(),
                Origin::Fee => "taxa".into(),
            },
            regulamento: d.rulebook,
            taxa: d.fee,
            artigo: d.article,
            referente: d.purpose,
            permissao: d.permit,
            reais_no_lancamento: d.brl_on_issue,
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
            plano: d
                .schedule
                .into_iter()
                .map(|p| ParcelaPrevista {
                    parcela: p.parcel,
                    vence_em: p.due_on.to_string(),
                    quantidade: p.quantity,
                })
                .collect(),
            saldo_vencido_em: d.accelerated_on.map(|d| d.to_string()),
            pagamentos: d.payments.into_iter().map(PagamentoSaida::from).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ParcelaPrevista {
    pub parcela: u32,
    pub vence_em: String,
    pub quantidade: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DevidoSaida {
    pub unidade: String,
    pub quantidade: String,
    pub acrescimo_percentual: String,
    pub reais: Option<String>,
    /// A parcela (1 de 1 quando paga de uma vez).
    pub parcela: u32,
    /// Uma parcela em atraso fez vencer o saldo neste dia: o devido é todo o restante.
    pub saldo_desde: Option<String>,
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
            saldo_desde: d.balance_since.map(|d| d.to_string()),
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

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PagamentoEntrada {
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
    /// guia (paga no banco), pix ou caixa (dinheiro no balcão); caixa quando omitido.
    pub meio: Option<String>,
    /// O valor recebido em reais ("47,13"); o devido no dia quando omitido.
    /// Menos que o devido é recusado; o que passar vira crédito do devedor.
    pub valor: Option<String>,
    /// O número do recibo; numerado pelo sistema quando omitido.
    pub recibo: Option<String>,
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
    let rulebook = rulebook_of_debt(state, j, (ano, numero, seq)).await?;
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
    let paid = pay_debt(&state, &change, &j, (ano, numero, seq), &input).await?;
    Ok((StatusCode::CREATED, Json(paid.into())))
}

/// Records the payment of the debt (or its next parcel) as `input` says
/// (its day, none: today): what `POST …/payments` and the debt's page do.
pub async fn pay_debt(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    key: (i32, i64, i64),
    input: &PagamentoEntrada,
) -> Result<Due, ApiError> {
    let means = match input.meio.as_deref().map(str::trim) {
        None | Some("") => Means::Caixa,
        Some(word) => Means::parse(word).ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "meio",
                format!("`{word}` não é meio de pagamento: guia, pix ou caixa"),
            )
        })?,
    };
    let cents = input
        .valor
        .as_deref()
        .filter(|v| !v.trim().is_empty())
        .map(|v| cents(v, "valor"))
        .transpose()?;
    let payment = PaymentInput {
        on: day_or_today(state, j, input.data.as_deref(), "data")?,
        means,
        cents,
        receipt: input.recibo.clone().filter(|r| !r.trim().is_empty()),
    };
    let rulebook = rulebook_of_debt(state, j, key).await?;
    Ok(state
        .store
        .pay_debt(change, rulebook, j, key, &payment)
        .await?)
}

/// Reais sent as text ("47,13") in centavos.
pub(crate) fn cents(text: &str, campo: &str) -> Result<i64, ApiError> {
    use rust_decimal::prelude::ToPrimitive;
    let value = crate::routes::units::decimal(text, campo)?;
    if value.scale() > 2 {
        return Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            campo,
            format!("`{text}`: reais têm no máximo duas casas decimais"),
        ));
    }
    (value * rust_decimal::Decimal::ONE_HUNDRED)
        .to_i64()
        .ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                campo,
                format!("`{text}` é grande demais"),
            )
        })
}

/// The rulebook a debt is owed under (a fine's is its auto's).
pub(crate) async fn rulebook_of_debt<'a>(
    state: &'a AppState,
    j: &str,
    key: (i32, i64, i64),
) -> Result<&'a outorga_core::model::Rulebook, ApiError> {
    let debt = state.store.debt(j, key).await?;
    crate::routes::rulebook_named(state, j, &debt.rulebook).await
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
    let rulebook = rulebook_of_debt(state, j, (ano, numero, seq)).await?;
    Ok(state
        .store
        .split_debt(change, rulebook, j, (ano, numero, seq), (parcelas, on))
        .await?)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GuiaSaida {
    /// Em reais: o devido no dia da guia.
    pub valor: String,
    /// O dia da guia: o valor é o devido nele.
    pub vencimento: String,
    pub parcela: u32,
    pub nosso_numero: String,
    /// Os 44 dígitos do código de barras (FEBRABAN, arrecadação).
    pub codigo_barras: String,
    /// Os 48 dígitos em quatro blocos com seus dígitos verificadores.
    pub linha_digitavel: String,
    /// O BR Code do PIX ("copia e cola"), também o conteúdo do QR.
    pub pix: String,
    pub artigos: Vec<String>,
}

impl From<outorga_store::Slip> for GuiaSaida {
    fn from(s: outorga_store::Slip) -> GuiaSaida {
        GuiaSaida {
            valor: reais(s.cents),
            vencimento: s.due_on.to_string(),
            parcela: s.due.parcel,
            nosso_numero: s.own_number,
            codigo_barras: s.codigo_barras,
            linha_digitavel: s.linha_digitavel,
            pix: s.pix,
            artigos: s.due.articles,
        }
    }
}

/// The payment slip of the debt (or its next parcel) for a day: barcode,
/// linha digitável and PIX.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/guia", tag = "débitos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto ou da taxa"),
           ("numero" = i64, Path, description = "o número do auto ou da taxa"),
           ("seq" = i64, Path, description = "a multa no auto (0: a taxa)"), NaData),
    responses((status = 200, body = GuiaSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn guia(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero, seq)): Path<(String, i32, i64, i64)>,
    Query(when): Query<NaData>,
) -> Result<Json<GuiaSaida>, ApiError> {
    let slip = debt_slip(&state, &j, (ano, numero, seq), when.data.as_deref()).await?;
    Ok(Json(slip.into()))
}

/// The slip of the debt for `data` (none: today): what `GET …/guia` and
/// the debt's page show.
pub async fn debt_slip(
    state: &AppState,
    j: &str,
    key: (i32, i64, i64),
    data: Option<&str>,
) -> Result<outorga_store::Slip, ApiError> {
    let on = day_or_today(state, j, data, "data")?;
    let rulebook = rulebook_of_debt(state, j, key).await?;
    Ok(state.store.slip(rulebook, j, key, on).await?)
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(guia))
        .routes(routes!(list))
        .routes(routes!(due))
        .routes(routes!(pay))
        .routes(routes!(split))
}
