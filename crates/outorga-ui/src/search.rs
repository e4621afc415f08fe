//! The search box: a name, CPF/CNPJ, plate, RENAVAM, permit number,
//! registration, auto (`ano/número`) or document code, in every
//! jurisdiction of the user's scope; results as one types (htmx asks for
//! the results part alone), each a link to its page. The store's `search`.

use crate::format;
use crate::pages::{Bar, failure, page};
use crate::session::Signed;
use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use outorga_core::model::Service;
use outorga_store::{Found, document_kind_name, status_pt};
use outorga_web::AppState;
use serde::Deserialize;

/// The shortest text searched, and the longest.
const MIN_CHARS: usize = 2;
const MAX_CHARS: usize = 100;

/// One result: what it is, its title, a detail, and its page, if it has one.
#[derive(Debug)]
struct Hit {
    what: &'static str,
    title: String,
    detail: String,
    link: Option<String>,
}

fn hit(j: &str, found: Found) -> Hit {
    let service_pt = |s: &str| Service::parse(s).map_or("serviço", Service::portuguese);
    match found {
        Found::Person { document, name } => Hit {
            what: "Pessoa ou empresa",
            title: name,
            detail: format::document(&document),
            link: Some(format!("/j/{j}/pessoas/{document}")),
        },
        Found::Permit {
            service,
            number,
            holder,
            status,
        } => Hit {
            what: "Permissão",
            title: format!("{} nº {number}", service_pt(&service)),
            detail: format!(
                "{}, titular {}",
                status_pt(&status),
                format::document(&holder)
            ),
            link: Some(format!("/j/{j}/permissoes/{service}/{number}")),
        },
        Found::Vehicle { plate, renavam } => Hit {
            what: "Veículo",
            detail: format!("RENAVAM {renavam}"),
            link: Some(format!("/j/{j}/permissoes?placa={plate}")),
            title: plate,
        },
        Found::Driver {
            registration,
            driver,
            service,
            number,
        } => Hit {
            what: "Condutor",
            title: format!("Matrícula {registration}"),
            detail: format!(
                "CPF {}, {} nº {number}",
                format::document(&driver),
                service_pt(&service)
            ),
            link: Some(format!("/j/{j}/permissoes/{service}/{number}")),
        },
        Found::Auto {
            year,
            number,
            infraction,
            offender,
        } => Hit {
            what: "Auto de infração",
            title: format!("Auto {year}/{number}"),
            detail: format!(
                "infração {infraction}, autuado {}",
                format::document(&offender)
            ),
            link: None,
        },
        Found::Document {
            code,
            kind,
            subject,
        } => Hit {
            what: "Documento",
            title: code,
            detail: format!("{} ({subject})", document_kind_name(&kind)),
            link: None,
        },
    }
}

/// The results in one jurisdiction.
#[derive(Debug)]
struct Group {
    place: String,
    hits: Vec<Hit>,
}

#[derive(Template)]
#[template(path = "resultados.html")]
struct Results {
    text: String,
    short: bool,
    groups: Vec<Group>,
}

#[derive(Template)]
#[template(path = "busca.html")]
struct SearchPage {
    user: Option<Bar>,
    results: Results,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Asked {
    #[serde(default)]
    q: String,
}

async fn results(state: &AppState, signed: &Signed, text: &str) -> Result<Results, Response> {
    let text: String = text.trim().chars().take(MAX_CHARS).collect();
    let short = text.chars().count() < MIN_CHARS;
    let mut groups = Vec::new();
    if !short {
        let jurisdictions = state.store.jurisdictions().await.map_err(|error| {
            tracing::error!(%error, "the jurisdictions could not be read");
            failure()
        })?;
        for j in jurisdictions
            .into_iter()
            .filter(|j| signed.user.scope.allows(&j.id))
        {
            let found = state.store.search(&j.id, &text).await.map_err(|error| {
                tracing::error!(%error, "a search failed");
                failure()
            })?;
            if !found.is_empty() {
                groups.push(Group {
                    place: format!("{} ({})", j.name, j.state),
                    hits: found.into_iter().map(|f| hit(&j.id, f)).collect(),
                });
            }
        }
    }
    Ok(Results {
        text,
        short,
        groups,
    })
}

pub(crate) async fn search(
    State(state): State<AppState>,
    signed: Signed,
    Query(asked): Query<Asked>,
) -> Response {
    match results(&state, &signed, &asked.q).await {
        Ok(results) => page(
            StatusCode::OK,
            &SearchPage {
                user: Some(Bar::of(&signed)),
                results,
            },
        ),
        Err(failed) => failed,
    }
}

/// The results alone, for the page's partial update as one types.
pub(crate) async fn search_results(
    State(state): State<AppState>,
    signed: Signed,
    Query(asked): Query<Asked>,
) -> Response {
    match results(&state, &signed, &asked.q).await {
        Ok(results) => page(StatusCode::OK, &results),
        Err(failed) => failed,
    }
}
