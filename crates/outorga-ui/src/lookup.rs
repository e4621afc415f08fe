//! The public check of a taxi, mototaxi or bus by plate, and of a driver by
//! registration (no sign-in): `/consulta` asks, and answers whether the
//! vehicle is licensed or the driver may drive today, and why not, in
//! plain words — the same answers as the API's public checks
//! (`outorga_web::workflows::vehicle_check`, `driver_check`), never a
//! holder's name, CPF, address or phone. A client past its rate of public
//! lookups is answered 429, as the API's.

use crate::format;
use crate::pages::{failure, page};
use crate::permits::service_pt;
use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use outorga_web::limits::PublicLookup;
use outorga_web::workflows::{CondutorPublico, VeiculoPublico, driver_check, vehicle_check};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// A day the API writes (`AAAA-MM-DD`) as people read it.
fn day(text: Option<&str>) -> Option<String> {
    text.and_then(|t| chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d").ok())
        .map(format::day)
}

/// What the page answers.
#[derive(Debug)]
struct Answer {
    title: String,
    /// Licensed / may drive today.
    good: bool,
    reasons: Vec<String>,
    facts: Vec<(&'static str, String)>,
}

impl Answer {
    fn vehicle(v: VeiculoPublico) -> Answer {
        let mut facts = vec![("Placa", v.placa.clone())];
        let model = [v.marca.as_deref(), v.modelo.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        if !model.is_empty() {
            facts.push(("Marca e modelo", model));
        }
        if let Some(colour) = &v.cor {
            facts.push(("Cor", colour.clone()));
        }
        if let (Some(service), Some(number)) = (&v.servico, v.permissao) {
            facts.push(("Serviço", service_pt(service).to_string()));
            facts.push(("Permissão", format!("nº {number}")));
        }
        if let Some(status) = v.situacao_permissao_nome {
            facts.push(("Situação da permissão", status));
        }
        if let Some(until) = day(v.autorizacao_valida_ate.as_deref()) {
            facts.push(("Autorização de tráfego válida até", until));
        }
        if let Some(until) = day(v.vistoria_valida_ate.as_deref()) {
            facts.push(("Vistoria válida até", until));
        }
        if let Some(until) = day(v.impedido_ate.as_deref()) {
            facts.push(("Impedido até", until));
        }
        Answer {
            title: if v.licenciado {
                format!("O veículo {} está licenciado hoje", v.placa)
            } else {
                format!("O veículo {} não está licenciado hoje", v.placa)
            },
            good: v.licenciado,
            reasons: v.motivos,
            facts,
        }
    }

    fn driver(d: CondutorPublico) -> Answer {
        let mut facts = vec![
            ("Matrícula", d.matricula.clone()),
            ("Serviço", service_pt(&d.servico).to_string()),
            ("Permissão", format!("nº {}", d.permissao)),
            ("Função", d.funcao.clone()),
        ];
        if let Some(until) = day(d.valida_ate.as_deref()) {
            facts.push(("Matrícula válida até", until));
        }
        if let Some(until) = day(d.suspenso_ate.as_deref()) {
            facts.push(("Suspenso até", until));
        }
        if let Some(on) = day(d.desligado_em.as_deref()) {
            facts.push(("Desligado da permissão em", on));
        }
        Answer {
            title: if d.valido {
                format!("O condutor de matrícula {} pode dirigir hoje", d.matricula)
            } else {
                format!(
                    "O condutor de matrícula {} não pode dirigir hoje",
                    d.matricula
                )
            },
            good: d.valido,
            reasons: d.motivos,
            facts,
        }
    }
}

#[derive(Template)]
#[template(path = "consulta.html")]
struct LookupPage {
    user: Option<crate::pages::Bar>,
    jurisdictions: Vec<(String, String)>,
    asked: Asked,
    answer: Option<Answer>,
    /// Why nothing is shown: not found, or what to fill in.
    missing: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Asked {
    #[serde(default)]
    jurisdicao: String,
    /// `placa` or `matricula`.
    #[serde(default)]
    tipo: String,
    #[serde(default)]
    valor: String,
}

/// The form, and the answer when something was asked.
pub(crate) async fn show(
    _: PublicLookup,
    State(state): State<AppState>,
    Query(asked): Query<Asked>,
) -> Response {
    let jurisdictions = match crate::place::jurisdiction_choices(&state).await {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    let value = asked.valor.trim().to_uppercase();
    let known = jurisdictions.iter().any(|(id, _)| *id == asked.jurisdicao);
    let found: Option<Result<Answer, ApiError>> = if value.is_empty() {
        None
    } else if !known {
        Some(Err(ApiError::not_found(
            "escolha o município ou o estado da consulta",
        )))
    } else if asked.tipo == "matricula" {
        Some(
            driver_check(&state, &asked.jurisdicao, &value)
                .await
                .map(Answer::driver),
        )
    } else {
        Some(
            vehicle_check(&state, &asked.jurisdicao, &value)
                .await
                .map(Answer::vehicle),
        )
    };
    let (status, answer, missing) = match found {
        None => (StatusCode::OK, None, None),
        Some(Ok(answer)) => (StatusCode::OK, Some(answer), None),
        Some(Err(error)) if error.status.is_client_error() => {
            (error.status, None, Some(error.body.erro))
        }
        Some(Err(error)) => {
            tracing::error!(erro = %error.body.erro, "a public lookup failed");
            return failure();
        }
    };
    page(
        status,
        &LookupPage {
            user: None,
            jurisdictions,
            asked,
            answer,
            missing,
        },
    )
}
