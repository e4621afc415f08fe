//! Autos de infração: the list with its filters and pages, and the
//! inspector's form — usable on a phone — with the infraction picked from
//! the rulebook's catalog by code or words of its description and the
//! engine's proposal with its articles shown before the auto is saved.
//! Issued through `outorga_web::workflows`, as `POST …/autos` is.

use crate::format;
use crate::forms::{Choice, Listed, list_status, listed, query_text, service_choices};
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place, refusal};
use crate::proposal::ProposalView;
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::engine::process::Status;
use outorga_core::model::{Rulebook, Service};
use outorga_store::{AutoFilter, Change, search_words};
use outorga_web::auth::Inspector;
use outorga_web::workflows::{AutoEntrada, PermissaoRef, issue_auto, propose_auto};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// Autos per page of the list.
const PER_PAGE: u32 = 50;
/// Infractions the catalog search shows.
const MATCHES: usize = 15;

// ---------------------------------------------------------------- the list

#[derive(Debug, Default, Deserialize)]
pub(crate) struct ListAsked {
    #[serde(default)]
    situacao: String,
    #[serde(default)]
    autuado: String,
    #[serde(default)]
    placa: String,
    #[serde(default)]
    infracao: String,
    /// `servico/numero`: the autos under a permit (the dossier's link).
    #[serde(default)]
    permissao: String,
    cursor: Option<String>,
}

/// An auto as a list shows it.
#[derive(Debug)]
pub(crate) struct AutoRow {
    pub year: i32,
    pub number: i64,
    pub committed: String,
    pub infraction: String,
    pub offender: String,
    pub status: &'static str,
    /// The dates of its procedure that matter in a queue.
    pub notified: String,
    pub defense_by: String,
    pub defense_on: String,
    pub appealed: String,
}

impl AutoRow {
    pub(crate) fn of(a: outorga_store::Auto) -> AutoRow {
        AutoRow {
            year: a.year,
            number: a.number,
            committed: a.committed_at.format("%d/%m/%Y %H:%M").to_string(),
            infraction: a.infraction,
            offender: format::document(&a.offender),
            status: a.status.portuguese(),
            notified: format::maybe_day(a.notified_on),
            defense_by: format::maybe_day(a.defense_by),
            defense_on: format::maybe_day(a.defense_on),
            appealed: format::maybe_day(a.appealed_on),
        }
    }
}

#[derive(Template)]
#[template(path = "autos.html")]
struct ListPage {
    user: Option<Bar>,
    j: String,
    place: String,
    statuses: Vec<Choice>,
    offender: String,
    plate: String,
    infraction: String,
    rows: Vec<AutoRow>,
    next: Option<String>,
    filters: String,
    error: Option<String>,
    inspector: bool,
    /// The vehicles held now, the longest held first: (year, number,
    /// plate, measure, since, where).
    held: Vec<(i32, i64, String, &'static str, String, String)>,
}

/// How many of the vehicles held the list of autos shows.
const HELD_SHOWN: u32 = 50;

/// A page of autos that `filter` admits.
pub(crate) async fn autos_page(
    state: &AppState,
    place: &Place<'_>,
    filter: &AutoFilter,
    cursor: Option<String>,
) -> Result<Listed<AutoRow>, Response> {
    listed(
        cursor,
        PER_PAGE,
        async |window| state.store.autos(&place.id, filter, window).await,
        AutoRow::of,
    )
    .await
}

pub(crate) async fn list(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<ListAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let some = |text: &str| Some(text.trim().to_string()).filter(|t| !t.is_empty());
    let filter = AutoFilter {
        offender: some(&asked.autuado),
        plate: some(&asked.placa),
        status: some(&asked.situacao),
        infraction: some(&asked.infracao),
        permit: asked
            .permissao
            .split_once('/')
            .and_then(|(s, n)| Some((s.to_string(), n.parse().ok()?))),
        ..AutoFilter::default()
    };
    let found = match autos_page(&state, &place, &filter, asked.cursor).await {
        Ok(found) => found,
        Err(failed) => return failed,
    };
    let statuses = std::iter::once(Choice {
        value: String::new(),
        label: "todas".into(),
        chosen: asked.situacao.is_empty(),
    })
    .chain(Status::ALL.iter().map(|s| Choice {
        value: s.name().to_string(),
        label: s.portuguese().to_string(),
        chosen: s.name() == asked.situacao,
    }))
    .collect();
    let filters = format!(
        "situacao={}&autuado={}&placa={}&infracao={}&permissao={}",
        query_text(&asked.situacao),
        query_text(&asked.autuado),
        query_text(&asked.placa),
        query_text(&asked.infracao),
        query_text(&asked.permissao)
    );
    let held = match state.store.vehicles_held(&place.id, HELD_SHOWN).await {
        Ok(held) => held
            .into_iter()
            .map(|c| {
                (
                    c.year,
                    c.number,
                    c.plate,
                    c.kind.portuguese(),
                    c.held_at.format("%d/%m/%Y %H:%M").to_string(),
                    c.place,
                )
            })
            .collect(),
        Err(error) => {
            tracing::error!(%error, "the vehicles held could not be read");
            return crate::pages::failure();
        }
    };
    page(
        list_status(&found),
        &ListPage {
            held,
            user: Some(Bar::of(&signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            statuses,
            offender: asked.autuado,
            plate: asked.placa,
            infraction: asked.infracao,
            rows: found.rows,
            next: found.next,
            filters,
            error: found.error,
            inspector: Inspector::admits(signed.user.role),
        },
    )
}

// ------------------------------------------------------ the inspector's form

/// An infraction of the catalog as the form offers it.
#[derive(Debug)]
pub(crate) struct Match {
    pub code: String,
    pub description: String,
    pub group: String,
    pub article: String,
    pub chosen: bool,
}

/// The infractions of `rulebook` whose code starts with `text`, or whose
/// description has every word of it (without accents); the chosen one
/// first whatever the search.
fn matches(rulebook: &Rulebook, text: &str, chosen: &str) -> Vec<Match> {
    let asked = search_words(text);
    let code = text.trim().to_lowercase();
    let mut found: Vec<Match> = rulebook
        .infractions
        .iter()
        .filter(|i| {
            i.code == chosen
                || (!asked.is_empty() && {
                    let words = search_words(&i.description);
                    i.code.to_lowercase().starts_with(&code)
                        || asked
                            .iter()
                            .all(|a| words.iter().any(|w| w.starts_with(a.as_str())))
                })
        })
        .map(|i| Match {
            code: i.code.clone(),
            description: i.description.clone(),
            group: i
                .group
                .map_or_else(String::new, |g| rulebook.group(g).name.clone()),
            article: i.citation.to_string(),
            chosen: i.code == chosen,
        })
        .collect();
    found.sort_by_key(|m| !m.chosen);
    found.truncate(MATCHES);
    found
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct IssueAsked {
    #[serde(default)]
    servico: String,
    /// The permit's number (none: an auto without permit, such as
    /// clandestine transport).
    #[serde(default)]
    numero: String,
    #[serde(default)]
    autuado: String,
    #[serde(default)]
    placa: String,
    #[serde(default)]
    cometida_em: String,
    #[serde(default)]
    local: String,
    #[serde(default)]
    descricao: String,
    #[serde(default)]
    infracao: String,
    #[serde(default)]
    busca: String,
    /// `previa` (show the proposal) or `lavrar` (issue).
    #[serde(default)]
    acao: String,
    #[serde(default)]
    csrf: String,
}

#[derive(Template)]
#[template(path = "auto-novo.html")]
struct IssuePage {
    user: Option<Bar>,
    j: String,
    place: String,
    services: Vec<Choice>,
    asked: IssueAsked,
    matches: Vec<Match>,
    proposal: Option<ProposalView>,
    error: Option<(String, String)>,
}

#[derive(Template)]
#[template(path = "infracoes.html")]
struct MatchesPart {
    matches: Vec<Match>,
    busca: String,
}

/// The rulebook of the service asked, if the jurisdiction regulates it.
fn rulebook_of<'a>(place: &Place<'a>, service: &str) -> Option<&'a Rulebook> {
    Service::parse(service).and_then(|s| place.rulebook(s))
}

/// The catalog's matches: the chosen service's rulebook, or, before a
/// service is chosen, every rulebook of the jurisdiction.
fn catalog_matches(place: &Place<'_>, asked: &IssueAsked) -> Vec<Match> {
    let chosen = asked.infracao.trim();
    match rulebook_of(place, &asked.servico) {
        Some(rulebook) => matches(rulebook, &asked.busca, chosen),
        None => {
            let mut found: Vec<Match> = Vec::new();
            for rulebook in &place.rulebooks {
                for m in matches(rulebook, &asked.busca, chosen) {
                    if !found.iter().any(|f| f.code == m.code) {
                        found.push(m);
                    }
                }
            }
            found.truncate(MATCHES);
            found
        }
    }
}

fn issue_page(
    signed: &Signed,
    place: &Place<'_>,
    mut asked: IssueAsked,
    (status, proposal, error): (StatusCode, Option<ProposalView>, Option<(String, String)>),
) -> Response {
    let matches = catalog_matches(place, &asked);
    if asked.cometida_em.is_empty() {
        asked.cometida_em = place.now.format("%Y-%m-%dT%H:%M").to_string();
    }
    let services = if place.services().len() == 1 {
        service_choices(place, &asked.servico, None)
    } else {
        service_choices(place, &asked.servico, Some("escolha o serviço"))
    };
    page(
        status,
        &IssuePage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            services,
            asked,
            matches,
            proposal,
            error,
        },
    )
}

/// The form (`?servico=…&busca=…` fills it and searches the catalog).
pub(crate) async fn issue_form(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(mut asked): Query<IssueAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if !Inspector::admits(signed.user.role) {
        return refusal(
            &signed,
            StatusCode::FORBIDDEN,
            "Ação não permitida",
            "Só fiscais lavram autos de infração.",
        );
    }
    if asked.servico.is_empty()
        && let [only] = place.services().as_slice()
    {
        asked.servico = only.name().to_string();
    }
    issue_page(&signed, &place, asked, (StatusCode::OK, None, None))
}

/// The catalog's matches alone, for the form's partial update (htmx).
pub(crate) async fn infractions(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<IssueAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let matches = catalog_matches(&place, &asked);
    page(
        StatusCode::OK,
        &MatchesPart {
            matches,
            busca: asked.busca,
        },
    )
}

/// The field of the form an API error names.
pub(crate) fn form_field(error: &ApiError) -> String {
    let field = error.body.campo.as_deref().unwrap_or("");
    match field {
        "infração" | "infracao" => "infracao",
        "descrição" | "descricao" => "descricao",
        "documento" | "autuado" => "autuado",
        "" => "",
        other => other,
    }
    .to_string()
}

/// An API error as a form shows it: the field, and what to do.
pub(crate) fn form_error(error: &ApiError) -> (String, String) {
    let mut message = error
        .body
        .motivo
        .clone()
        .unwrap_or_else(|| error.body.erro.clone());
    if let Some(articles) = &error.body.artigos {
        message = format!("{message} ({})", articles.join("; "));
    }
    (form_field(error), message)
}

/// Shows the proposal (`acao=previa`) or issues the auto (`acao=lavrar`).
pub(crate) async fn issue(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(asked): Form<IssueAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Inspector::admits) {
        return *refused;
    }
    let bad = |field: &str, reason: &str| {
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            None,
            Some((field.to_string(), reason.to_string())),
        )
    };
    let Some(rulebook) = rulebook_of(&place, &asked.servico) else {
        let outcome = bad("servico", "Escolha o serviço.");
        return issue_page(&signed, &place, asked, outcome);
    };
    if asked.infracao.trim().is_empty() {
        let outcome = bad(
            "infracao",
            "Escolha a infração: busque pelo código ou por palavras da descrição.",
        );
        return issue_page(&signed, &place, asked, outcome);
    }
    let number = asked.numero.trim();
    let permit = if number.is_empty() {
        None
    } else {
        match number.parse::<i64>() {
            Ok(n) => Some(PermissaoRef {
                servico: asked.servico.clone(),
                numero: n,
            }),
            Err(_) => {
                let outcome = bad(
                    "numero",
                    "O número da permissão tem só algarismos; deixe em branco se não houver permissão.",
                );
                return issue_page(&signed, &place, asked, outcome);
            }
        }
    };
    let input = AutoEntrada {
        infracao: asked.infracao.trim().to_string(),
        autuado: asked.autuado.clone(),
        regulamento: permit.is_none().then(|| rulebook.id.clone()),
        permissao: permit,
        placa: Some(asked.placa.clone()).filter(|p| !p.trim().is_empty()),
        cometida_em: asked.cometida_em.clone(),
        local: asked.local.clone(),
        descricao: asked.descricao.clone(),
    };
    let issuing = asked.acao == "lavrar";
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "auto lavrado pela tela",
    };
    if issuing {
        return match issue_auto(&state, &change, &place.id, input).await {
            Ok(auto) => Redirect::to(&format!(
                "/j/{}/autos/{}/{}?lavrado=1",
                place.id, auto.year, auto.number
            ))
            .into_response(),
            Err(error) if error.status.is_server_error() => {
                tracing::error!(erro = %error.body.erro, "an auto could not be issued");
                failure()
            }
            Err(error) => {
                let outcome = (error.status, None, Some(form_error(&error)));
                issue_page(&signed, &place, asked, outcome)
            }
        };
    }
    match propose_auto(&state, &change, &place.id, input).await {
        Ok(proposal) => {
            let view = ProposalView::of(&proposal);
            issue_page(&signed, &place, asked, (StatusCode::OK, Some(view), None))
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "an auto could not be weighed");
            failure()
        }
        Err(error) => {
            let outcome = (error.status, None, Some(form_error(&error)));
            issue_page(&signed, &place, asked, outcome)
        }
    }
}
