//! The parameters of a jurisdiction's law (`/j/{j}/parametros`): each with
//! its meaning, the value in force today (the deployment's, or the
//! rulebook's), the article and whether the rulebook's value is a decree
//! default; administrators set one (the API's capability for
//! `PUT …/parameters/{nome}`). The fiscal units the rulebooks name, with
//! the value in force today; their history and records are on the units'
//! page (`units.rs`). Through `outorga_web::workflows`
//! (`parameter_catalog`, `set_parameter`), as the API.

use crate::autos::form_error;
use crate::format;
use crate::forms::Done;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::Change;
use outorga_web::AppState;
use outorga_web::auth::Admin;
use outorga_web::workflows::{ParametroEntrada, parameter_catalog, set_parameter};
use serde::Deserialize;

/// The longest reason a change takes (as the API's `X-Motivo`).
const MAX_REASON_CHARS: usize = 500;

#[derive(Debug)]
struct ParameterRow {
    name: String,
    meaning: String,
    unit: String,
    value: String,
    law_value: String,
    source: String,
    article: String,
    set_here: bool,
    /// The deployment's act that set the value in force, and from when.
    act: Option<String>,
    /// Who fills it and on which article, when the law leaves it open.
    open_term: Option<String>,
}

#[derive(Debug)]
struct UnitRow {
    code: String,
    name: String,
    article: String,
    value: Option<String>,
}

#[derive(Debug)]
struct Section {
    rulebook: String,
    services: String,
    rows: Vec<ParameterRow>,
    units: Vec<UnitRow>,
}

#[derive(Template)]
#[template(path = "parametros.html")]
struct ParametersPage {
    user: Option<Bar>,
    j: String,
    place: String,
    today: String,
    sections: Vec<Section>,
    /// Who may set a parameter (administrators).
    admin: bool,
    /// The settable parameters for the form's select: (name, label, chosen).
    names: Vec<(String, String, bool)>,
    /// What the form was sent with (kept when refused).
    asked: SetAsked,
    notice: Option<String>,
    /// A refusal: (field, message).
    error: Option<(String, String)>,
}

impl ParametersPage {
    fn error_on(&self, field: &str) -> Option<&str> {
        match &self.error {
            Some((f, message)) if f == field => Some(message.as_str()),
            _ => None,
        }
    }
}

/// To whom the law leaves an open term, as a sentence says it.
fn left_to(by: &str) -> String {
    match by {
        "edital" => "ao edital".into(),
        other => format!("a {other}"),
    }
}

/// A number of the catalog as Brazilians write it; a dash when none.
fn number(value: Option<&str>) -> String {
    value.map_or_else(|| "—".to_string(), format::decimal)
}

async fn parameters_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    status: StatusCode,
    (asked, notice, error): (SetAsked, Option<String>, Option<(String, String)>),
) -> Response {
    let catalog = match parameter_catalog(state, &place.id, None, None).await {
        Ok(catalog) => catalog,
        Err(error) => {
            tracing::error!(erro = %error.body.erro, "the parameters could not be read");
            return failure();
        }
    };
    let mut names: Vec<(String, String, bool)> = Vec::new();
    let sections = catalog
        .regulamentos
        .into_iter()
        .map(|r| {
            for p in &r.parametros {
                if !names.iter().any(|(n, _, _)| *n == p.nome) {
                    names.push((
                        p.nome.clone(),
                        format!("{} ({})", p.descricao, p.nome),
                        p.nome == asked.nome,
                    ));
                }
            }
            Section {
                services: r
                    .servicos
                    .iter()
                    .map(|s| {
                        outorga_core::model::Service::parse(s)
                            .map_or_else(|| s.clone(), |k| k.portuguese().to_string())
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                rulebook: r.regulamento,
                rows: r
                    .parametros
                    .into_iter()
                    .map(|p| ParameterRow {
                        value: number(p.valor.as_deref()),
                        law_value: number(p.valor_da_lei.as_deref()),
                        source: p.fonte.unwrap_or_default(),
                        article: p.artigo.unwrap_or_else(|| "—".to_string()),
                        set_here: p.definido_na_implantacao,
                        act: p.ato.as_ref().map(|act| match &p.desde {
                            Some(from) => match chrono::NaiveDate::parse_from_str(from, "%Y-%m-%d")
                            {
                                Ok(day) => format!("{act}, desde {}", format::day(day)),
                                Err(_) => act.clone(),
                            },
                            None => act.clone(),
                        }),
                        open_term: p.preenchido_por.as_deref().map(|by| {
                            let basis = p.fundamento_do_padrao.as_deref().unwrap_or_default();
                            format!("padrão do produto: a lei o deixa {} ({basis})", left_to(by))
                        }),
                        meaning: p.descricao,
                        unit: p.unidade,
                        name: p.nome,
                    })
                    .collect(),
                units: r
                    .unidades
                    .into_iter()
                    .map(|u| UnitRow {
                        // The value in force today (the deployment's, or
                        // the law's); its history is on the units' page.
                        value: u.reais.as_deref().map(format::unit_value),
                        code: u.codigo,
                        name: u.nome,
                        article: u.artigo,
                    })
                    .collect(),
            }
        })
        .collect();
    page(
        status,
        &ParametersPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            today: format::day(place.today),
            sections,
            admin: Admin::admits(signed.user.role),
            names,
            asked,
            notice,
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
    let notice = done.feito.map(|name| {
        format!("Parâmetro {name} alterado; as decisões a partir do dia do ato usam o novo valor.")
    });
    parameters_page(
        &state,
        &signed,
        &place,
        StatusCode::OK,
        (SetAsked::default(), notice, None),
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct SetAsked {
    #[serde(default)]
    nome: String,
    #[serde(default)]
    valor: String,
    #[serde(default)]
    desde: String,
    #[serde(default)]
    ato: String,
    #[serde(default)]
    motivo: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn set(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(asked): Form<SetAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Admin::admits) {
        return *refused;
    }
    let why = asked.motivo.trim();
    if why.chars().count() > MAX_REASON_CHARS {
        let message = format!("Escreva o motivo em até {MAX_REASON_CHARS} caracteres.");
        return parameters_page(
            &state,
            &signed,
            &place,
            StatusCode::UNPROCESSABLE_ENTITY,
            (asked, None, Some(("motivo".into(), message))),
        )
        .await;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: if why.is_empty() {
            "parâmetro alterado pela tela"
        } else {
            why
        },
    };
    let nome = asked.nome.trim().to_string();
    let input = ParametroEntrada {
        valor: asked.valor.clone(),
        desde: asked.desde.trim().to_string(),
        ato: asked.ato.clone(),
    };
    match set_parameter(&state, &change, &place.id, &nome, &input).await {
        Ok(set) => Redirect::to(&format!(
            "/j/{}/parametros?feito={}",
            place.id,
            crate::forms::query_text(&set.nome)
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a parameter could not be set");
            failure()
        }
        Err(error) => {
            let (field, message) = form_error(&error);
            let field = if field == "parâmetro" {
                "nome".to_string()
            } else {
                field
            };
            parameters_page(
                &state,
                &signed,
                &place,
                error.status,
                (asked, None, Some((field, message))),
            )
            .await
        }
    }
}
