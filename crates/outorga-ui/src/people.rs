//! People and companies: the register by name with the form that adds to
//! it, and a person's page — what is recorded, and for each service the
//! checklist of the law's requirements (met, unmet, to be checked) with
//! the articles and what to record to clear each. The store's `register`,
//! `people`, `profile` and `checklist`, as the API's.

use crate::format;
use crate::forms::{filled_lines, listed};
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::model::Education;
use outorga_store::{Change, ChecklistItem, Kind, Profile, Registered, StoreError};
use outorga_web::AppState;
use outorga_web::auth::Clerk;
use serde::Deserialize;

/// Items per page of the register.
const PER_PAGE: u32 = 50;

/// A person as a list shows them.
#[derive(Debug)]
pub(crate) struct PersonRow {
    pub document: String,
    pub shown: String,
    pub name: String,
    pub kind: &'static str,
}

impl From<Registered> for PersonRow {
    fn from(r: Registered) -> PersonRow {
        PersonRow {
            shown: format::document(&r.document),
            kind: kind_pt(r.kind),
            document: r.document,
            name: r.name,
        }
    }
}

fn kind_pt(kind: Kind) -> &'static str {
    match kind {
        Kind::Person => "pessoa física",
        Kind::Company => "pessoa jurídica",
    }
}

#[derive(Template)]
#[template(path = "pessoas.html")]
struct PeoplePage {
    user: Option<Bar>,
    j: String,
    place: String,
    rows: Vec<PersonRow>,
    next: Option<String>,
    clerk: bool,
    document: String,
    name: String,
    error: Option<(&'static str, String)>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct PageAsked {
    cursor: Option<String>,
}

async fn people_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    cursor: Option<String>,
    form: (String, String, Option<(&'static str, String)>),
    status: StatusCode,
) -> Response {
    let list = match listed(
        cursor,
        PER_PAGE,
        async |window| state.store.people(&place.id, window).await,
        PersonRow::from,
    )
    .await
    {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    if let Some(why) = list.error {
        return refusal(
            signed,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Página inválida",
            &why,
        );
    }
    let (document, name, error) = form;
    page(
        status,
        &PeoplePage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            rows: list.rows,
            next: list.next,
            clerk: Clerk::admits(signed.user.role),
            document,
            name,
            error,
        },
    )
}

pub(crate) async fn list(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<PageAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    people_page(
        &state,
        &signed,
        &place,
        asked.cursor,
        (String::new(), String::new(), None),
        StatusCode::OK,
    )
    .await
}

#[derive(Debug, Deserialize)]
pub(crate) struct RegisterForm {
    #[serde(default)]
    documento: String,
    #[serde(default)]
    nome: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn register(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(form): Form<RegisterForm>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "cadastro pela tela",
    };
    match state
        .store
        .register(&change, &place.id, &form.documento, &form.nome)
        .await
    {
        Ok(person) => {
            Redirect::to(&format!("/j/{}/pessoas/{}", place.id, person.document)).into_response()
        }
        Err(error) => match error.bad_input() {
            Some((field, reason)) => {
                let field = if field == "nome" { "nome" } else { "documento" };
                people_page(
                    &state,
                    &signed,
                    &place,
                    None,
                    (form.documento, form.nome, Some((field, reason.to_string()))),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await
            }
            None => {
                tracing::error!(%error, "a person could not be registered");
                failure()
            }
        },
    }
}

/// A service's checklist on a person's page.
#[derive(Debug)]
struct ServiceChecklist {
    service: String,
    label: &'static str,
    passed: bool,
    items: Vec<CheckRow>,
}

/// One requirement as the checklist shows it.
#[derive(Debug)]
pub(crate) struct CheckRow {
    pub description: String,
    pub articles: String,
    pub state: &'static str,
    pub unmet: bool,
    pub to_check: bool,
    pub to_record: String,
}

impl From<ChecklistItem> for CheckRow {
    fn from(item: ChecklistItem) -> CheckRow {
        use outorga_store::CheckState;
        CheckRow {
            description: item.description,
            articles: item.articles.join("; "),
            state: item.state.portuguese(),
            unmet: item.state == CheckState::Unmet,
            to_check: item.state == CheckState::ToCheck,
            to_record: item.to_record,
        }
    }
}

/// The profile's facts as lines of "what: value".
fn facts(profile: &Profile) -> Vec<(&'static str, String)> {
    let yes_no = |v: Option<bool>| match v {
        Some(true) => "sim".to_string(),
        Some(false) => "não".to_string(),
        None => "não registrado".to_string(),
    };
    let mut lines = vec![
        ("Nascimento", format::maybe_day(profile.birth_date)),
        (
            "Reside no município desde",
            format::maybe_day(profile.resident_since),
        ),
        (
            "Escolaridade",
            profile
                .education
                .as_deref()
                .and_then(Education::parse)
                .map_or("não registrada", Education::portuguese)
                .to_string(),
        ),
        ("Pessoa com deficiência", yes_no(profile.disabled)),
        ("Servidor público", yes_no(profile.public_employee)),
        (
            "Opera transporte coletivo ou escolar",
            yes_no(profile.transport_operator),
        ),
        (
            "Condenação criminal definitiva",
            yes_no(profile.final_conviction),
        ),
        (
            "Documentos apresentados",
            profile
                .documents
                .as_ref()
                .map_or_else(|| "não registrados".into(), |d| d.join(", ")),
        ),
    ];
    match &profile.cnh {
        Some(cnh) => {
            lines.push(("CNH", cnh.number.clone()));
            lines.push(("Categorias", cnh.categories.join(", ")));
            lines.push(("Validade da CNH", format::day(cnh.expires)));
            lines.push(("Primeira habilitação", format::maybe_day(cnh.first_issued)));
            lines.push((
                "Exerce atividade remunerada",
                if cnh.paid_activity { "sim" } else { "não" }.into(),
            ));
        }
        None => lines.push(("CNH", "não registrada".into())),
    }
    let address = [
        profile.street.as_str(),
        profile.district.as_str(),
        profile.city.as_str(),
        profile.postal_code.as_str(),
    ]
    .iter()
    .filter(|p| !p.is_empty())
    .copied()
    .collect::<Vec<_>>()
    .join(", ");
    if !address.is_empty() {
        lines.push(("Endereço", address));
    }
    for (label, value) in [("Telefone", &profile.phone), ("E-mail", &profile.email)] {
        if !value.is_empty() {
            lines.push((label, value.clone()));
        }
    }
    lines
}

#[derive(Template)]
#[template(path = "pessoa.html")]
struct PersonPage {
    user: Option<Bar>,
    j: String,
    place: String,
    person: PersonRow,
    today: String,
    facts: Vec<(&'static str, String)>,
    checklists: Vec<ServiceChecklist>,
    clerk: bool,
    /// A person (CPF), who may have a space of their own.
    citizen: bool,
    /// A company where the law regulates intercity buses: a carrier, whose
    /// own data has a page.
    carrier: bool,
    /// A carrier's partners, directors and group as declared (art. 9º).
    ties: Option<TiesShown>,
    /// A person where the law weighs ties between carriers: their declared
    /// relatives (none declared: `Some(None)`); not asked: `None`.
    relatives: Option<Option<Vec<String>>>,
    notice: Option<&'static str>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct PersonAsked {
    feito: Option<String>,
}

/// A carrier's ties as the person page shows them.
pub(crate) struct TiesShown {
    /// (document, share in %).
    partners: Vec<(String, String)>,
    directors: Vec<String>,
    group: String,
    act: String,
    declared_on: String,
}

pub(crate) async fn person(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    Query(asked): Query<PersonAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let not_found = || {
        refusal(
            &signed,
            StatusCode::NOT_FOUND,
            "Pessoa não encontrada",
            "Não há pessoa ou empresa cadastrada com este CPF ou CNPJ nesta jurisdição.",
        )
    };
    let registered = match state.store.registered(&place.id, &document).await {
        Ok(Some(found)) => found,
        Ok(None) | Err(StoreError::Invalid { .. }) => return not_found(),
        Err(error) => {
            tracing::error!(%error, "a person could not be read");
            return failure();
        }
    };
    let profile = match state.store.profile(&place.id, &registered.document).await {
        Ok(found) => found.unwrap_or_default(),
        Err(error) => {
            tracing::error!(%error, "a profile could not be read");
            return failure();
        }
    };
    let mut checklists = Vec::new();
    for service in place.services() {
        let Some(rulebook) = place.rulebook(service) else {
            continue;
        };
        // Without a line: what a bus line adds is weighed on the grant form.
        let found = state
            .store
            .checklist(
                rulebook,
                &place.id,
                (service.name(), &registered.document, None),
                place.today,
            )
            .await;
        match found {
            Ok((_, items)) => {
                let items: Vec<CheckRow> = items.into_iter().map(CheckRow::from).collect();
                checklists.push(ServiceChecklist {
                    service: service.name().to_string(),
                    label: service.portuguese(),
                    passed: !items.iter().any(|i| i.unmet),
                    items,
                });
            }
            Err(error) => {
                tracing::error!(%error, "a checklist could not be read");
                return failure();
            }
        }
    }
    let carrier =
        registered.kind == Kind::Company && place.rulebooks.iter().any(|r| r.bus.is_some());
    let ties = if carrier {
        match state
            .store
            .company_ties(&place.id, &registered.document)
            .await
        {
            Ok(found) => found.map(|t| TiesShown {
                partners: t
                    .partners
                    .iter()
                    .map(|p| {
                        (
                            format::document(&p.document),
                            p.voting_share
                                .map(|s| format::decimal(&s.to_string()))
                                .unwrap_or_default(),
                        )
                    })
                    .collect(),
                directors: t.directors.iter().map(|d| format::document(d)).collect(),
                group: t.business_group.unwrap_or_else(|| "nenhum".into()),
                act: t.act,
                declared_on: format::day(t.declared_on),
            }),
            Err(error) => {
                tracing::error!(%error, "a company's ties could not be read");
                return failure();
            }
        }
    } else {
        None
    };
    let weighs_ties = place.rulebooks.iter().any(|r| {
        r.requirements.iter().any(|q| {
            matches!(
                q.check,
                outorga_core::model::Check::NoInterdependence { .. }
            )
        })
    });
    let relatives = if registered.kind == Kind::Person && weighs_ties {
        match state.store.relatives(&place.id, &registered.document).await {
            Ok(found) => Some(found.map(|list| list.iter().map(|d| format::document(d)).collect())),
            Err(error) => {
                tracing::error!(%error, "a person's relatives could not be read");
                return failure();
            }
        }
    } else {
        None
    };
    page(
        StatusCode::OK,
        &PersonPage {
            relatives,
            notice: match asked.feito.as_deref() {
                Some("perfil") => Some("Perfil salvo."),
                Some("vinculos") => Some("Sócios, diretores e grupo registrados."),
                Some("parentes") => Some("Parentes registrados."),
                _ => None,
            },
            ties,
            user: Some(Bar::of(&signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            today: format::day(place.today),
            facts: facts(&profile),
            citizen: registered.kind == Kind::Person,
            carrier,
            person: PersonRow::from(registered),
            checklists,
            clerk: Clerk::admits(signed.user.role),
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct TiesForm {
    #[serde(default)]
    csrf: String,
    /// One partner a line: the CPF or CNPJ, a `;`, the share in %.
    #[serde(default)]
    socios: String,
    /// One CPF or CNPJ a line.
    #[serde(default)]
    diretores: String,
    #[serde(default)]
    grupo: String,
    #[serde(default)]
    ato: String,
}

/// Declares a carrier's partners, directors and group (art. 9º), replacing
/// the declaration before: the same store function as `PUT
/// …/people/{documento}/company-ties`.
pub(crate) async fn declare_ties(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    Form(form): Form<TiesForm>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let partners: Result<Vec<outorga_store::Member>, StoreError> = filled_lines(&form.socios)
        .into_iter()
        .map(|l| {
            let (doc, share) = l.split_once(';').unwrap_or((l, ""));
            Ok(outorga_store::Member {
                document: doc.trim().to_string(),
                voting_share: Some(outorga_store::parse_share(share)?),
            })
        })
        .collect();
    let done = match partners {
        Ok(partners) => {
            let ties = outorga_store::CompanyTies {
                partners,
                directors: filled_lines(&form.diretores)
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
                business_group: Some(form.grupo.trim().to_string()).filter(|g| !g.is_empty()),
                act: form.ato.clone(),
                declared_on: place.today,
            };
            let change = Change {
                by: &signed.user.name,
                at: state.clock.now(),
                why: "vínculos da empresa pela tela",
            };
            state
                .store
                .declare_company_ties(&change, &place.id, &document, &ties)
                .await
        }
        Err(error) => Err(error),
    };
    match done {
        Ok(()) => Redirect::to(&format!(
            "/j/{j}/pessoas/{document}?feito=vinculos#vinculos"
        ))
        .into_response(),
        Err(error) => declaration_refused(&signed, "Vínculos não registrados", error),
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RelativesForm {
    #[serde(default)]
    csrf: String,
    /// One CPF a line (none: the person declares no relative).
    #[serde(default)]
    parentes: String,
    #[serde(default)]
    ato: String,
}

/// Declares a person's spouse and relatives up to the third civil degree
/// (art. 9º, III): the same store function as `PUT …/relatives`.
pub(crate) async fn declare_relatives(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    Form(form): Form<RelativesForm>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let relatives: Vec<String> = filled_lines(&form.parentes)
        .into_iter()
        .map(str::to_string)
        .collect();
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "parentes declarados pela tela",
    };
    match state
        .store
        .declare_relatives(
            &change,
            &place.id,
            &document,
            (&relatives, &form.ato, place.today),
        )
        .await
    {
        Ok(()) => Redirect::to(&format!(
            "/j/{j}/pessoas/{document}?feito=parentes#parentes"
        ))
        .into_response(),
        Err(error) => declaration_refused(&signed, "Parentes não registrados", error),
    }
}

/// A declaration of ties or relatives refused: the field and why, a record
/// not found, or the failure page.
fn declaration_refused(signed: &Signed, title: &str, error: StoreError) -> Response {
    match error {
        StoreError::NotFound(what) => refusal(signed, StatusCode::NOT_FOUND, title, &what),
        error => match error.bad_input() {
            Some((field, reason)) => refusal(
                signed,
                StatusCode::UNPROCESSABLE_ENTITY,
                title,
                &format!("{field}: {reason}. Volte, corrija e envie de novo."),
            ),
            None => {
                tracing::error!(%error, "{title}");
                failure()
            }
        },
    }
}
