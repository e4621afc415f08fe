//! Intercity bus lines (`/j/{j}/linhas`): each line with its coefficient
//! and route, and its page with the operation in force on any day (the
//! departures of each day of the week, the minimum frequency, terminals and
//! stops), every version set by the agency or asked for by the carrier, and
//! the forms to set one, record a carrier's request and decide it. Through
//! the same store functions as `…/lines/{linha}/operations` of the API, with
//! the API's parsing (`operation_input`).

use crate::autos::form_error;
use crate::format;
use crate::forms::{Listed, list_status, listed};
use crate::pages::{Bar, failure, page};
use crate::place::{place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, Line, Operation, OperationDecision, OperationSource};
use outorga_web::auth::Clerk;
use outorga_web::workflows::{Horarios, OperacaoEntrada, bus_rulebook, operation_input};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// A line as the list shows it.
pub(crate) struct LineRow {
    code: String,
    name: String,
    coefficient: String,
    semi_urban: bool,
    route: String,
}

impl LineRow {
    fn of(line: Line) -> LineRow {
        LineRow {
            route: line.itinerary.join(" – "),
            coefficient: format::decimal(&line.coefficient.to_string()),
            code: line.code,
            name: line.name,
            semi_urban: line.semi_urban,
        }
    }
}

#[derive(Template)]
#[template(path = "linhas.html")]
struct LinesPage {
    user: Option<Bar>,
    j: String,
    place: String,
    list: Listed<LineRow>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Cursor {
    cursor: Option<String>,
}

/// The lines of the jurisdiction.
pub(crate) async fn list(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<Cursor>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let list = match listed(
        asked.cursor,
        50,
        async |window| state.store.lines(&place.id, window).await,
        LineRow::of,
    )
    .await
    {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    page(
        list_status(&list),
        &LinesPage {
            user: Some(Bar::of(&signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            list,
        },
    )
}

/// A version of the operation as the page shows it.
pub(crate) struct Version {
    seq: i64,
    since: String,
    level: &'static str,
    /// (day of the week, departures).
    days: Vec<(&'static str, String)>,
    weekly: usize,
    minimum: u32,
    terminals: String,
    stops: String,
    justification: String,
    requested_by: String,
    requested_on: String,
    status: &'static str,
    pending: bool,
    decided: String,
    act: String,
    grounds: String,
    articles: String,
}

impl Version {
    fn of(o: &Operation) -> Version {
        Version {
            seq: o.seq,
            since: format::day(o.input.since),
            level: o.input.level.portuguese(),
            days: format::departures(&o.input.schedule),
            weekly: o.input.schedule.weekly(),
            minimum: o.input.schedule.min_weekly_trips,
            terminals: format!("{} ↔ {}", o.input.terminals.0, o.input.terminals.1),
            stops: o.input.stops.join(", "),
            justification: o.input.justification.clone(),
            requested_by: o
                .requested_by
                .as_deref()
                .map(format::document)
                .unwrap_or_default(),
            requested_on: format::day(o.requested_on),
            status: o.status.portuguese(),
            pending: o.status == outorga_store::OperationStatus::Requested,
            decided: format::maybe_day(o.decided_on),
            act: o.act.clone().unwrap_or_default(),
            grounds: o.grounds.clone().unwrap_or_default(),
            articles: o.articles.join("; "),
        }
    }
}

/// What the new-operation form holds.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct OperationForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    vigencia: String,
    #[serde(default)]
    nivel: String,
    #[serde(default)]
    segunda: String,
    #[serde(default)]
    terca: String,
    #[serde(default)]
    quarta: String,
    #[serde(default)]
    quinta: String,
    #[serde(default)]
    sexta: String,
    #[serde(default)]
    sabado: String,
    #[serde(default)]
    domingo: String,
    #[serde(default)]
    frequencia_minima: String,
    #[serde(default)]
    origem: String,
    #[serde(default)]
    destino: String,
    #[serde(default)]
    paradas: String,
    #[serde(default)]
    justificativa: String,
    /// `orgao` (the agency's act) or `transportadora` (a carrier's request).
    #[serde(default)]
    quem: String,
    #[serde(default)]
    ato: String,
    #[serde(default)]
    transportadora: String,
}

#[derive(Template)]
#[template(path = "linha.html")]
struct LinePage {
    user: Option<Bar>,
    j: String,
    place: String,
    line: LineRow,
    /// The day asked (AAAA-MM-DD) and as people read it.
    on: String,
    on_text: String,
    current: Option<Version>,
    versions: Vec<Version>,
    clerk: bool,
    notice: Option<String>,
    /// The form refused: the field and why.
    error: Option<(String, String)>,
    /// Which request's decision was refused, and why.
    decision_error: Option<(i64, String)>,
    form: OperationForm,
    levels: Vec<(&'static str, &'static str)>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct LineAsked {
    data: Option<String>,
    feito: Option<String>,
}

/// What the page shows besides the line: a notice or a refused form.
#[derive(Default)]
struct Outcome {
    notice: Option<String>,
    error: Option<(String, String)>,
    decision_error: Option<(i64, String)>,
    form: OperationForm,
}

async fn line_page(
    state: &AppState,
    signed: &Signed,
    (j, code): (&str, &str),
    on: Option<&str>,
    outcome: Outcome,
) -> Response {
    let place = match place(state, signed, j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let on = on
        .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
        .unwrap_or(place.today);
    let line = match state.store.line(&place.id, code).await {
        Ok(Some(line)) => line,
        Ok(None) => {
            return refusal(
                signed,
                StatusCode::NOT_FOUND,
                "Linha não encontrada",
                &format!("Não há linha {code} em {}.", place.name),
            );
        }
        Err(error) => {
            tracing::error!(%error, "a line could not be read");
            return failure();
        }
    };
    let (all, current) = match state.store.line_operations(&place.id, code, on).await {
        Ok(found) => found,
        Err(error) => {
            tracing::error!(%error, "a line's operation could not be read");
            return failure();
        }
    };
    let status = if outcome.error.is_some() || outcome.decision_error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let mut form = outcome.form;
    if form.vigencia.is_empty() {
        form.vigencia = place.today.to_string();
    }
    page(
        status,
        &LinePage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            line: LineRow::of(line),
            on: on.to_string(),
            on_text: format::day(on),
            current: current.as_ref().map(Version::of),
            versions: all.iter().rev().map(Version::of).collect(),
            clerk: Clerk::admits(signed.user.role),
            notice: outcome.notice,
            error: outcome.error,
            decision_error: outcome.decision_error,
            form,
            levels: outorga_store::ServiceLevel::ALL
                .iter()
                .map(|l| (l.name(), l.portuguese()))
                .collect(),
        },
    )
}

/// A line's page.
pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, code)): Path<(String, String)>,
    Query(asked): Query<LineAsked>,
) -> Response {
    let outcome = Outcome {
        notice: asked.feito.map(|what| match what.as_str() {
            "decisao" => "Decisão registrada.".to_string(),
            "requerimento" => "Requerimento da transportadora registrado; aguarda decisão.".into(),
            _ => "Operação registrada.".to_string(),
        }),
        ..Outcome::default()
    };
    line_page(&state, &signed, (&j, &code), asked.data.as_deref(), outcome).await
}

/// The departures written in a box: times separated by commas or spaces.
fn times(text: &str) -> Vec<String> {
    text.split([',', ' ', ';'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Sets an operation (the agency's act) or records a carrier's request.
pub(crate) async fn put(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, code)): Path<(String, String)>,
    Form(form): Form<OperationForm>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let refused = |error: ApiError, form: OperationForm| {
        let state = state.clone();
        let signed = &signed;
        let (j, code) = (j.clone(), code.clone());
        async move {
            let outcome = Outcome {
                error: Some(form_error(&error)),
                form,
                ..Outcome::default()
            };
            line_page(&state, signed, (&j, &code), None, outcome).await
        }
    };
    let minimum = match form.frequencia_minima.trim().parse::<u32>() {
        Ok(n) => n,
        Err(_) => {
            let error = ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "frequencia_minima",
                "escreva quantas viagens por semana, no mínimo, como 15",
            );
            return refused(error, form).await;
        }
    };
    let input = OperacaoEntrada {
        vigencia: form.vigencia.clone(),
        nivel: form.nivel.clone(),
        horarios: Horarios {
            segunda: times(&form.segunda),
            terca: times(&form.terca),
            quarta: times(&form.quarta),
            quinta: times(&form.quinta),
            sexta: times(&form.sexta),
            sabado: times(&form.sabado),
            domingo: times(&form.domingo),
        },
        frequencia_minima: minimum,
        terminais: [form.origem.clone(), form.destino.clone()],
        paradas: form
            .paradas
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        justificativa: form.justificativa.clone(),
        ato: None,
        transportadora: None,
    };
    let done = async {
        let rulebook = bus_rulebook(&state, &j).await?;
        let operation = operation_input(&input)?;
        let carrier;
        let by = if form.quem == "transportadora" {
            carrier = outorga_store::parse_document(&form.transportadora)?.0;
            OperationSource::Carrier(&carrier)
        } else {
            OperationSource::Agency { act: &form.ato }
        };
        let change = Change {
            by: &signed.user.name,
            at: state.clock.now(),
            why: "operação de linha pela tela",
        };
        Ok::<_, ApiError>(
            state
                .store
                .put_operation(&change, rulebook, &j, &code, &operation, by)
                .await?,
        )
    }
    .await;
    match done {
        Ok(o) => Redirect::to(&format!(
            "/j/{j}/linhas/{code}?data={}&feito={}",
            o.input.since,
            if o.requested_by.is_some() {
                "requerimento"
            } else {
                "operacao"
            }
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a line's operation could not be recorded");
            failure()
        }
        Err(error) => refused(error, form).await,
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct DecisionForm {
    #[serde(default)]
    csrf: String,
    /// `aprovar` or `recusar`.
    #[serde(default)]
    decisao: String,
    #[serde(default)]
    data: String,
    #[serde(default)]
    ato: String,
    #[serde(default)]
    fundamentos: String,
}

/// Approves or refuses a carrier's request.
pub(crate) async fn decide(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, code, seq)): Path<(String, String, i64)>,
    Form(form): Form<DecisionForm>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let done = async {
        let rulebook = bus_rulebook(&state, &j).await?;
        let approve = match form.decisao.as_str() {
            "aprovar" => true,
            "recusar" => false,
            _ => {
                return Err(ApiError::field(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "decisao",
                    "escolha aprovar ou recusar",
                ));
            }
        };
        let decision = OperationDecision {
            approve,
            on: outorga_web::workflows::parse_day(&form.data, "data")?,
            act: form.ato.clone(),
            grounds: form.fundamentos.clone(),
        };
        let change = Change {
            by: &signed.user.name,
            at: state.clock.now(),
            why: "decisão sobre operação de linha pela tela",
        };
        Ok(state
            .store
            .decide_operation(&change, rulebook, &j, (&code, seq), &decision)
            .await?)
    }
    .await;
    match done {
        Ok(o) => Redirect::to(&format!(
            "/j/{j}/linhas/{code}?data={}&feito=decisao",
            o.input.since
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a decision could not be recorded");
            failure()
        }
        Err(error) => {
            let outcome = Outcome {
                decision_error: Some((seq, form_error(&error).1)),
                ..Outcome::default()
            };
            line_page(&state, &signed, (&j, &code), None, outcome).await
        }
    }
}
