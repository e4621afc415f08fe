//! Fiscal units' values in reais, each from a day with its act, and the
//! approval of a bus line's tariff coefficient (from which Amapá's CTM is
//! worked out, art. 21).

use crate::auth::{Admin, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::{bound_rulebooks, change, parse_day};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{Change, Correction, NewValue, UnitEntry, UnitHistory, UnitValue};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CorrecaoEntrada {
    /// O índice, como o ato o nomeia ("IPCA-E 2025").
    pub indice: String,
    /// O percentual sobre o valor em vigor na véspera ("4,83"; pode ser negativo).
    pub percentual: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UnidadeEntrada {
    /// A partir de que dia o valor vigora (AAAA-MM-DD).
    pub desde: String,
    /// Reais por unidade, decimal exato em texto ("4,7125"). Ou `correcao`.
    pub valor: Option<String>,
    /// O índice que corrige o valor da véspera (Teófilo Otoni art. 115), em vez de `valor`.
    pub correcao: Option<CorrecaoEntrada>,
    /// O ato que fixa o valor ("Decreto nº 123/2025").
    pub ato: String,
    /// O número do registro que este corrige, quando corrige um.
    pub corrige: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CorrecaoSaida {
    pub indice: String,
    pub percentual: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ValorSaida {
    pub unidade: String,
    /// O número do registro na unidade.
    pub registro: i64,
    pub desde: String,
    /// Reais por unidade.
    pub valor: String,
    pub ato: String,
    pub correcao: Option<CorrecaoSaida>,
    pub corrige: Option<i64>,
    /// O registro que corrige este (que então não vale mais).
    pub corrigido_por: Option<i64>,
}

impl From<UnitValue> for ValorSaida {
    fn from(v: UnitValue) -> ValorSaida {
        ValorSaida {
            unidade: v.unit,
            registro: v.seq,
            desde: v.since.to_string(),
            valor: v.value.normalize().to_string(),
            ato: v.act,
            correcao: v.correction.map(|c| CorrecaoSaida {
                indice: c.index,
                percentual: c.percent.normalize().to_string(),
            }),
            corrige: v.corrects,
            corrigido_por: v.corrected_by,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ValorDaLei {
    pub desde: String,
    pub valor: String,
    pub fonte: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ValorCalculado {
    pub desde: String,
    pub valor: String,
    /// Quantas linhas a média conta (as semiurbanas ficam de fora).
    pub linhas: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UnidadeSaida {
    pub unidade: String,
    pub nome: String,
    pub artigo: String,
    /// Calculada das linhas (Amapá art. 21), nunca registrada.
    pub das_linhas: bool,
    /// Os valores que a própria lei dá.
    pub da_lei: Vec<ValorDaLei>,
    /// Os registros da implantação, corrigidos inclusive.
    pub registros: Vec<ValorSaida>,
    /// Para a unidade das linhas: seu valor desde cada dia em que mudou.
    pub calculado: Vec<ValorCalculado>,
}

impl From<UnitHistory> for UnidadeSaida {
    fn from(h: UnitHistory) -> UnidadeSaida {
        UnidadeSaida {
            unidade: h.code,
            nome: h.name,
            artigo: h.article,
            das_linhas: h.from_lines,
            da_lei: h
                .law
                .into_iter()
                .map(|(from, value, source)| ValorDaLei {
                    desde: from.to_string(),
                    valor: value.normalize().to_string(),
                    fonte: source,
                })
                .collect(),
            registros: h.records.into_iter().map(ValorSaida::from).collect(),
            calculado: h
                .computed
                .into_iter()
                .map(|(from, value, lines)| ValorCalculado {
                    desde: if from == chrono::NaiveDate::MIN {
                        "desde o cadastro das linhas".into()
                    } else {
                        from.to_string()
                    },
                    valor: value.normalize().to_string(),
                    linhas: lines,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CoeficienteEntrada {
    pub desde: String,
    /// Reais por passageiro-quilômetro ("0,2175").
    pub coeficiente: String,
    /// A portaria que o aprova (art. 20, § 3º).
    pub ato: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CoeficienteSaida {
    pub linha: String,
    pub registro: i64,
}

/// An exact decimal sent as text, with a point or a comma.
pub(crate) fn decimal(text: &str, campo: &str) -> Result<Decimal, ApiError> {
    Decimal::from_str(&text.trim().replace(',', ".")).map_err(|_| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            campo,
            format!("`{text}` não é um número decimal: escreva, por exemplo, 4,7125"),
        )
    })
}

/// Records a fiscal unit's value from a day with its act.
#[utoipa::path(put, path = "/api/jurisdictions/{j}/units/{unidade}", tag = "dinheiro",
    params(("j" = String, Path, description = "a jurisdição"),
           ("unidade" = String, Path, description = "VRTM, UPFTO…")),
    request_body = UnidadeEntrada,
    responses((status = 201, body = ValorSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn put(
    State(state): State<AppState>,
    who: Admin,
    Path((j, unidade)): Path<(String, String)>,
    Json(input): Json<UnidadeEntrada>,
) -> Result<(StatusCode, Json<ValorSaida>), ApiError> {
    let change = change!(state, who, "valor de unidade fiscal pela API");
    let recorded = record_unit_value(&state, &change, &j, &unidade, &input).await?;
    Ok((StatusCode::CREATED, Json(recorded.into())))
}

/// Records `unidade`'s value in `j` as `input` gives it: what
/// `PUT …/units/{unidade}` and the units' page do.
pub async fn record_unit_value(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    unidade: &str,
    input: &UnidadeEntrada,
) -> Result<UnitValue, ApiError> {
    let value = match (&input.valor, &input.correcao) {
        (Some(valor), None) => NewValue::Value(decimal(valor, "valor")?),
        (None, Some(c)) => NewValue::Corrected(Correction {
            index: c.indice.clone(),
            percent: decimal(&c.percentual, "correcao.percentual")?,
        }),
        _ => {
            return Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "valor",
                "informe o valor em reais ou a correção pelo índice (um dos dois)",
            ));
        }
    };
    let entry = UnitEntry {
        since: parse_day(&input.desde, "desde")?,
        value,
        act: input.ato.clone(),
        corrects: input.corrige,
    };
    let bound = bound_rulebooks(state, j).await?;
    Ok(state
        .store
        .record_unit_value(change, &bound, j, unidade.trim(), &entry)
        .await?)
}

/// The units of a jurisdiction: as many as its laws define (a few).
#[derive(Debug, Serialize, ToSchema)]
pub struct Unidades {
    pub unidades: Vec<UnidadeSaida>,
}

/// The fiscal units of the jurisdiction with every value they had.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/units", tag = "dinheiro",
    params(("j" = String, Path, description = "a jurisdição")),
    responses((status = 200, body = Unidades), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
) -> Result<Json<Unidades>, ApiError> {
    let bound = bound_rulebooks(&state, &j).await?;
    let history = state.store.unit_history(&bound, &j).await?;
    Ok(Json(Unidades {
        unidades: history.into_iter().map(UnidadeSaida::from).collect(),
    }))
}

/// Approves a bus line's tariff coefficient from a day with its act.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/lines/{codigo}/coefficients", tag = "dinheiro",
    params(("j" = String, Path, description = "a jurisdição"),
           ("codigo" = String, Path, description = "a linha")),
    request_body = CoeficienteEntrada,
    responses((status = 201, body = CoeficienteSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn coefficient(
    State(state): State<AppState>,
    who: Admin,
    Path((j, codigo)): Path<(String, String)>,
    Json(input): Json<CoeficienteEntrada>,
) -> Result<(StatusCode, Json<CoeficienteSaida>), ApiError> {
    let change = change!(state, who, "coeficiente tarifário aprovado pela API");
    let since = parse_day(&input.desde, "desde")?;
    let value = outorga_store::parse_coefficient(&input.coeficiente)?;
    let line = codigo.trim().to_uppercase();
    bound_rulebooks(&state, &j).await?;
    let seq = state
        .store
        .approve_coefficient(&change, &j, &line, (since, value, &input.ato))
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(CoeficienteSaida {
            linha: line,
            registro: seq,
        }),
    ))
}

#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Pagamentos {
    /// Segmento FEBRABAN (1: prefeituras).
    pub segmento: u8,
    /// A identificação do órgão no convênio de arrecadação (4 dígitos).
    pub convenio: String,
    /// 6 ou 8: valor efetivo (módulo 10 ou 11); 7 ou 9: referência.
    pub identificador_valor: u8,
    /// A chave PIX da conta do órgão.
    pub chave_pix: String,
    /// O nome do beneficiário no PIX (até 25 caracteres).
    pub beneficiario: String,
    /// A cidade do beneficiário (até 15 caracteres).
    pub cidade: String,
}

impl From<outorga_store::PaymentSettings> for Pagamentos {
    fn from(s: outorga_store::PaymentSettings) -> Pagamentos {
        Pagamentos {
            segmento: s.segment,
            convenio: s.company,
            identificador_valor: s.value_id,
            chave_pix: s.pix_key,
            beneficiario: s.beneficiary,
            cidade: s.city,
        }
    }
}

/// Records what the jurisdiction's payment slips carry.
#[utoipa::path(put, path = "/api/jurisdictions/{j}/payment-settings", tag = "dinheiro",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = Pagamentos,
    responses((status = 200, body = Pagamentos), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn put_settings(
    State(state): State<AppState>,
    who: Admin,
    Path(j): Path<String>,
    Json(input): Json<Pagamentos>,
) -> Result<Json<Pagamentos>, ApiError> {
    let change = change!(state, who, "convênio de arrecadação e PIX pela API");
    let settings = outorga_store::PaymentSettings {
        segment: input.segmento,
        company: input.convenio.trim().to_string(),
        value_id: input.identificador_valor,
        pix_key: input.chave_pix.trim().to_string(),
        beneficiary: input.beneficiario,
        city: input.cidade,
    };
    bound_rulebooks(&state, &j).await?;
    state
        .store
        .set_payment_settings(&change, &j, &settings)
        .await?;
    Ok(Json(settings.into()))
}

/// What the jurisdiction's payment slips carry.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/payment-settings", tag = "dinheiro",
    params(("j" = String, Path, description = "a jurisdição")),
    responses((status = 200, body = Pagamentos), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_settings(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
) -> Result<Json<Pagamentos>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    match state.store.payment_settings(&j).await? {
        Some(settings) => Ok(Json(settings.into())),
        None => Err(ApiError::not_found(format!(
            "{j} ainda não tem convênio de arrecadação nem chave PIX"
        ))),
    }
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(put_settings, get_settings))
        .routes(routes!(put))
        .routes(routes!(list))
        .routes(routes!(coefficient))
}
