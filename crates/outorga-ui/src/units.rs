//! The fiscal units of a jurisdiction (`/j/{j}/unidades`): each with its
//! article, the law's own values, the deployment's records (each from a
//! day with its act, a corrected one kept and marked as no longer in
//! force) and, for a unit worked out from the bus lines (Amapá's CTM), its
//! value from each day it changed. Administrators record a value — in
//! reais or as the day before's corrected by an index — through
//! `outorga_web::workflows::record_unit_value`, as `PUT …/units/{unidade}`.

use crate::autos::form_error;
use crate::format;
use crate::forms::Done;
use crate::forms::given;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, UnitHistory, UnitValue};
use outorga_web::AppState;
use outorga_web::auth::Admin;
use outorga_web::workflows::{CorrecaoEntrada, UnidadeEntrada, record_unit_value};
use serde::Deserialize;

/// A record of the deployment as the table shows it.
#[derive(Debug)]
struct Record {
    seq: i64,
    since: String,
    value: String,
    act: String,
    /// The index and its percentage, when the value is a correction.
    correction: Option<String>,
    corrects: Option<i64>,
    corrected_by: Option<i64>,
}

impl Record {
    fn of(r: &UnitValue) -> Record {
        Record {
            seq: r.seq,
            since: format::day(r.since),
            value: format::unit_value(&r.value.normalize().to_string()),
            act: r.act.clone(),
            correction: r.correction.as_ref().map(|c| {
                format!(
                    "{}, {}%",
                    c.index,
                    format::decimal(&c.percent.normalize().to_string())
                )
            }),
            corrects: r.corrects,
            corrected_by: r.corrected_by,
        }
    }
}

/// A unit as the page shows it.
#[derive(Debug)]
struct Unit {
    code: String,
    name: String,
    article: String,
    from_lines: bool,
    /// The law's values: (since, value, source).
    law: Vec<(String, String, String)>,
    records: Vec<Record>,
    /// For a unit from the lines: (since, value, lines the mean counts).
    computed: Vec<(String, String, usize)>,
    /// The records a new one may correct (none corrects them yet): (number, label).
    open: Vec<(i64, String)>,
}

impl Unit {
    fn of(h: UnitHistory) -> Unit {
        let records: Vec<Record> = h.records.iter().map(Record::of).collect();
        Unit {
            open: records
                .iter()
                .filter(|r| r.corrected_by.is_none())
                .map(|r| {
                    (
                        r.seq,
                        format!("nº {} — desde {}, {} ({})", r.seq, r.since, r.value, r.act),
                    )
                })
                .collect(),
            records,
            law: h
                .law
                .into_iter()
                .map(|(from, value, source)| {
                    (
                        format::day(from),
                        format::unit_value(&value.normalize().to_string()),
                        source.unwrap_or_default(),
                    )
                })
                .collect(),
            computed: h
                .computed
                .into_iter()
                .map(|(from, value, lines)| {
                    (
                        if from == chrono::NaiveDate::MIN {
                            "o cadastro das linhas".to_string()
                        } else {
                            format::day(from)
                        },
                        format::unit_value(&value.normalize().to_string()),
                        lines,
                    )
                })
                .collect(),
            from_lines: h.from_lines,
            code: h.code,
            name: h.name,
            article: h.article,
        }
    }
}

/// The recording form as sent, to show it again with its refusal.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Sent {
    #[serde(default)]
    unidade: String,
    #[serde(default)]
    desde: String,
    /// `valor` (in reais) or `correcao` (by an index).
    #[serde(default)]
    modo: String,
    #[serde(default)]
    valor: String,
    #[serde(default)]
    indice: String,
    #[serde(default)]
    percentual: String,
    #[serde(default)]
    ato: String,
    #[serde(default)]
    corrige: String,
    #[serde(default)]
    csrf: String,
}

#[derive(Template)]
#[template(path = "unidades.html")]
struct UnitsPage {
    user: Option<Bar>,
    j: String,
    place: String,
    today: String,
    units: Vec<Unit>,
    /// Who may record a value (administrators).
    admin: bool,
    notice: Option<String>,
    sent: Sent,
    /// A refusal of the form of unit `sent.unidade`: (field, message).
    error: Option<(String, String)>,
}

impl UnitsPage {
    /// What the form of `unit` shows in `field`: what was sent to it.
    fn sent_to<'a>(&'a self, unit: &str, field: &'a str) -> &'a str {
        if self.sent.unidade != unit {
            return "";
        }
        match field {
            "desde" => &self.sent.desde,
            "valor" => &self.sent.valor,
            "indice" => &self.sent.indice,
            "percentual" => &self.sent.percentual,
            "ato" => &self.sent.ato,
            "corrige" => &self.sent.corrige,
            _ => "",
        }
    }

    /// The form of `unit` asks for a correction by an index.
    fn by_index(&self, unit: &str) -> bool {
        self.sent.unidade == unit && self.sent.modo == "correcao"
    }

    /// The refusal of `field` of the form of `unit` (`""`: of no field).
    fn error_on(&self, unit: &str, field: &str) -> Option<&str> {
        match &self.error {
            Some((f, message)) if self.sent.unidade == unit && f == field => Some(message.as_str()),
            _ => None,
        }
    }
}

async fn units_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    status: StatusCode,
    (sent, notice, error): (Sent, Option<String>, Option<(String, String)>),
) -> Response {
    let history = match state.store.unit_history(&place.rulebooks, &place.id).await {
        Ok(history) => history,
        Err(error) => {
            tracing::error!(%error, "the fiscal units could not be read");
            return failure();
        }
    };
    page(
        status,
        &UnitsPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            today: format::day(place.today),
            units: history.into_iter().map(Unit::of).collect(),
            admin: Admin::admits(signed.user.role),
            notice,
            sent,
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
    let notice = done.feito.map(|unit| {
        format!("Valor de {unit} registrado; os débitos e as guias usam-no desde o seu dia.")
    });
    units_page(
        &state,
        &signed,
        &place,
        StatusCode::OK,
        (Sent::default(), notice, None),
    )
    .await
}

/// The field of the form a refusal names: a correction's refusal goes
/// next to its percentage, and so does a value's when the form asked for a
/// correction (the value field is then hidden).
fn field_of(named: &str, by_index: bool) -> &str {
    match named {
        "correcao" | "correcao.percentual" => "percentual",
        "valor" if by_index => "percentual",
        "desde" | "valor" | "indice" | "ato" | "corrige" => named,
        _ => "",
    }
}

pub(crate) async fn record(
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
    let refused = |sent: Sent, field: &str, message: String| {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        (sent, status, Some((field.to_string(), message)))
    };
    let by_index = sent.modo == "correcao";
    let corrects = match given(&sent.corrige).map(|n| n.parse::<i64>()) {
        None => Ok(None),
        Some(Ok(seq)) => Ok(Some(seq)),
        Some(Err(_)) => Err("Escolha na lista o registro que este corrige.".to_string()),
    };
    let (sent, status, error) = match (given(&sent.desde), corrects) {
        (None, _) => refused(
            sent,
            "desde",
            "Informe o dia a partir do qual o valor vigora.".into(),
        ),
        (_, Err(message)) => refused(sent, "corrige", message),
        (Some(desde), Ok(corrige)) => {
            let input = UnidadeEntrada {
                desde,
                valor: if by_index { None } else { given(&sent.valor) },
                correcao: given(&sent.percentual)
                    .filter(|_| by_index)
                    .map(|percentual| CorrecaoEntrada {
                        indice: sent.indice.clone(),
                        percentual,
                    }),
                ato: sent.ato.clone(),
                corrige,
            };
            let change = Change {
                by: &signed.user.name,
                at: state.clock.now(),
                why: "valor de unidade fiscal pela tela",
            };
            let unit = sent.unidade.trim();
            match record_unit_value(&state, &change, &place.id, unit, &input).await {
                Ok(recorded) => {
                    return Redirect::to(&format!(
                        "/j/{}/unidades?feito={}#u-{}",
                        place.id,
                        crate::forms::query_text(&recorded.unit),
                        crate::forms::query_text(&recorded.unit)
                    ))
                    .into_response();
                }
                Err(error) if error.status.is_server_error() => {
                    tracing::error!(erro = %error.body.erro, "a unit's value could not be recorded");
                    return failure();
                }
                Err(error) => {
                    let (named, message) = form_error(&error);
                    let field = field_of(&named, by_index).to_string();
                    (sent, error.status, Some((field, message)))
                }
            }
        }
    };
    units_page(&state, &signed, &place, status, (sent, None, error)).await
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_refusal_goes_next_to_the_field_shown() {
        assert_eq!(super::field_of("correcao.percentual", true), "percentual");
        assert_eq!(super::field_of("correcao", true), "percentual");
        assert_eq!(super::field_of("valor", true), "percentual");
        assert_eq!(super::field_of("valor", false), "valor");
        assert_eq!(super::field_of("ato", false), "ato");
        assert_eq!(super::field_of("unidade", false), "");
        assert_eq!(super::field_of("", false), "");
    }
}
