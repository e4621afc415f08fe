//! Permits: the list with its filters and pages, the grant form — the cap,
//! the reserved shares and the applicant's checklist shown before anything
//! is sent, the law's refusal with its articles — and the permit's dossier
//! (holder, history with the articles of each step, drivers, vehicle,
//! documents, autos, debts). The store's `permits`, `grant_preview`,
//! `grant_permit`, `permit`, as the API's.

use crate::format;
use crate::forms::{Choice, list_status, listed, query_text, service_choices};
use crate::pages::{Bar, failure, page};
use crate::people::CheckRow;
use crate::place::{Place, place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use outorga_core::model::{PermitStatus, Service};
use outorga_store::{
    AutoFilter, CapState, Change, DebtFilter, DocumentFilter, GrantPreview, GrantRequest,
    PermitFilter, StoreError, Window, document_kind_name, driver_role_pt, event_pt, status_pt,
};
use outorga_web::AppState;
use outorga_web::auth::Clerk;
use serde::Deserialize;

/// Permits per page of the list.
const PER_PAGE: u32 = 50;
/// Items of each part of the dossier (the latest first).
const DOSSIER_ITEMS: u32 = 20;

/// A permit as the list shows it.
#[derive(Debug)]
struct PermitRow {
    service: String,
    service_pt: &'static str,
    number: i64,
    holder: String,
    holder_shown: String,
    status: &'static str,
    granted: String,
    expires: String,
}

pub(crate) fn service_pt(service: &str) -> &'static str {
    Service::parse(service).map_or("serviço desconhecido", Service::portuguese)
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct ListAsked {
    #[serde(default)]
    servico: String,
    #[serde(default)]
    situacao: String,
    #[serde(default)]
    titular: String,
    #[serde(default)]
    placa: String,
    cursor: Option<String>,
}

#[derive(Template)]
#[template(path = "permissoes.html")]
struct ListPage {
    user: Option<Bar>,
    j: String,
    place: String,
    services: Vec<Choice>,
    statuses: Vec<Choice>,
    holder: String,
    plate: String,
    rows: Vec<PermitRow>,
    next: Option<String>,
    filters: String,
    error: Option<String>,
    clerk: bool,
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
    let filter = PermitFilter {
        service: Some(asked.servico.clone()).filter(|s| !s.is_empty()),
        status: Some(asked.situacao.clone()).filter(|s| !s.is_empty()),
        holder: Some(asked.titular.clone()).filter(|s| !s.trim().is_empty()),
        plate: Some(asked.placa.clone()).filter(|s| !s.trim().is_empty()),
    };
    let found = match listed(
        asked.cursor.clone(),
        PER_PAGE,
        async |window| state.store.permits(&place.id, &filter, window).await,
        |p| PermitRow {
            service_pt: service_pt(&p.service),
            holder_shown: format::document(&p.holder),
            status: status_pt(&p.status),
            granted: format::day(p.granted_on),
            expires: format::maybe_day(p.expires_on),
            service: p.service,
            number: p.number,
            holder: p.holder,
        },
    )
    .await
    {
        Ok(found) => found,
        Err(failed) => return failed,
    };
    let filters = format!(
        "servico={}&situacao={}&titular={}&placa={}",
        query_text(&asked.servico),
        query_text(&asked.situacao),
        query_text(&asked.titular),
        query_text(&asked.placa)
    );
    let statuses = std::iter::once(Choice {
        value: String::new(),
        label: "todas".into(),
        chosen: asked.situacao.is_empty(),
    })
    .chain(PermitStatus::ALL.iter().map(|s| Choice {
        value: s.name().to_string(),
        label: s.portuguese().to_string(),
        chosen: s.name() == asked.situacao,
    }))
    .collect();
    page(
        list_status(&found),
        &ListPage {
            user: Some(Bar::of(&signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            services: service_choices(&place, &asked.servico, Some("todos")),
            statuses,
            holder: asked.titular,
            plate: asked.placa,
            rows: found.rows,
            next: found.next,
            filters,
            error: found.error,
            clerk: Clerk::admits(signed.user.role),
        },
    )
}

// ------------------------------------------------------------- the grant

/// The cap as the grant form shows it.
#[derive(Debug)]
struct CapRows {
    max: u64,
    open: u64,
    open_filled: u64,
    shares: Vec<(String, u64, u64)>,
    articles: String,
}

/// What the grant form shows before it is sent.
#[derive(Debug, Default)]
struct Preview {
    cap: Option<CapRows>,
    /// Why the cap cannot be computed now.
    cap_unknown: Option<String>,
    holder: Option<String>,
    checklist: Vec<CheckRow>,
    blocked: bool,
    /// Why the preview could not be made (an unknown holder, a bad CPF).
    problem: Option<String>,
}

impl From<GrantPreview> for Preview {
    fn from(p: GrantPreview) -> Preview {
        let (holder, checklist, problem) = match p.applicant {
            None => (None, Vec::new(), None),
            Some(Err(why)) => (None, Vec::new(), Some(why)),
            Some(Ok((registered, items))) => (
                Some(format!(
                    "{} ({})",
                    registered.name,
                    format::document(&registered.document)
                )),
                items.into_iter().map(CheckRow::from).collect::<Vec<_>>(),
                None,
            ),
        };
        Preview {
            blocked: checklist.iter().any(|c| c.unmet),
            cap_unknown: match &p.cap {
                CapState::Unknown(why) => Some(why.clone()),
                _ => None,
            },
            cap: match p.cap {
                CapState::Known(c) => Some(CapRows {
                    max: c.max_permits,
                    open: c.open,
                    open_filled: c.open_filled,
                    shares: c
                        .shares
                        .into_iter()
                        .map(|s| (s.name, s.held, s.filled))
                        .collect(),
                    articles: c.articles.join("; "),
                }),
                _ => None,
            },
            holder,
            checklist,
            problem,
        }
    }
}

/// The quotas a grant of the service may be asked under.
fn quota_choices(place: &Place<'_>, service: &str, chosen: &str) -> Vec<Choice> {
    let Some(kind) = Service::parse(service) else {
        return Vec::new();
    };
    let Some(rulebook) = place.rulebook(kind) else {
        return Vec::new();
    };
    std::iter::once(Choice {
        value: String::new(),
        label: "livre concorrência".into(),
        chosen: chosen.is_empty(),
    })
    .chain(
        rulebook
            .caps
            .iter()
            .filter(|c| c.services.contains(&kind))
            .flat_map(|c| &c.reserved)
            .filter(|q| q.service.is_none())
            .map(|q| Choice {
                value: q.key.clone(),
                label: outorga_core::model::Quota::label(&q.key).to_string(),
                chosen: q.key == chosen,
            }),
    )
    .collect()
}

async fn preview(
    state: &AppState,
    place: &Place<'_>,
    asked: &GrantAsked,
) -> Result<Preview, Response> {
    let Some(kind) = Service::parse(&asked.servico) else {
        return Ok(Preview::default());
    };
    let Some(rulebook) = place.rulebook(kind) else {
        return Ok(Preview::default());
    };
    let holder = Some(asked.titular.trim()).filter(|h| !h.is_empty());
    let line = Some(asked.linha.trim()).filter(|l| !l.is_empty());
    match state
        .store
        .grant_preview(
            rulebook,
            &place.id,
            (kind.name(), holder, line),
            place.today,
        )
        .await
    {
        Ok(found) => Ok(found.into()),
        Err(error) => {
            tracing::error!(%error, "the grant could not be previewed");
            Err(failure())
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct GrantAsked {
    #[serde(default)]
    servico: String,
    #[serde(default)]
    titular: String,
    #[serde(default)]
    cota: String,
    #[serde(default)]
    linha: String,
    #[serde(default)]
    csrf: String,
}

#[derive(Template)]
#[template(path = "permissao-nova.html")]
struct GrantPage {
    user: Option<Bar>,
    j: String,
    place: String,
    today: String,
    services: Vec<Choice>,
    quotas: Vec<Choice>,
    bus: bool,
    holder: String,
    line: String,
    preview: Preview,
    refused: Option<(String, String)>,
    error: Option<(String, String)>,
}

#[derive(Template)]
#[template(path = "previa.html")]
struct PreviewPart {
    preview: Preview,
}

/// How a grant form is shown again: its status, the law's refusal
/// (reason, articles) and the field in error (field, reason).
struct Outcome {
    status: StatusCode,
    refused: Option<(String, String)>,
    error: Option<(String, String)>,
}

impl Outcome {
    fn fresh() -> Outcome {
        Outcome {
            status: StatusCode::OK,
            refused: None,
            error: None,
        }
    }

    fn field(field: &str, reason: String) -> Outcome {
        Outcome {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            refused: None,
            error: Some((field.to_string(), reason)),
        }
    }
}

async fn grant_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    asked: GrantAsked,
    outcome: Outcome,
) -> Response {
    let preview = match preview(state, place, &asked).await {
        Ok(preview) => preview,
        Err(failed) => return failed,
    };
    let Outcome {
        status,
        refused,
        error,
    } = outcome;
    page(
        status,
        &GrantPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            today: format::day(place.today),
            services: service_choices(place, &asked.servico, Some("escolha o serviço")),
            quotas: quota_choices(place, &asked.servico, &asked.cota),
            bus: asked.servico == Service::Onibus.name(),
            holder: asked.titular,
            line: asked.linha,
            preview,
            refused,
            error,
        },
    )
}

/// The grant form (`?servico=…&titular=…` fills it and shows the preview).
pub(crate) async fn grant_form(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<GrantAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if !Clerk::admits(signed.user.role) {
        return refusal(
            &signed,
            StatusCode::FORBIDDEN,
            "Ação não permitida",
            "Só atendentes outorgam permissões.",
        );
    }
    grant_page(&state, &signed, &place, asked, Outcome::fresh()).await
}

/// The preview alone, for the form's partial update (htmx).
pub(crate) async fn grant_preview(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<GrantAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    match preview(&state, &place, &asked).await {
        Ok(preview) => page(StatusCode::OK, &PreviewPart { preview }),
        Err(failed) => failed,
    }
}

#[derive(Template)]
#[template(path = "permissao-outorgada.html")]
struct GrantedPage {
    user: Option<Bar>,
    j: String,
    place: String,
    service: String,
    service_pt: &'static str,
    number: i64,
    holder: String,
    expires: String,
    articles: String,
    to_check: Vec<(String, String)>,
}

pub(crate) async fn grant(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(asked): Form<GrantAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Clerk::admits) {
        return *refused;
    }
    let Some(rulebook) = Service::parse(&asked.servico).and_then(|s| place.rulebook(s)) else {
        let outcome = Outcome::field("servico", "Escolha o serviço.".into());
        return grant_page(&state, &signed, &place, asked, outcome).await;
    };
    let request = GrantRequest {
        service: asked.servico.clone(),
        holder: asked.titular.clone(),
        on: place.today,
        quota: Some(asked.cota.clone()).filter(|q| !q.is_empty()),
        line: Some(asked.linha.trim().to_string()).filter(|l| !l.is_empty()),
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "outorga pela tela",
    };
    match state
        .store
        .grant_permit(&change, rulebook, &place.id, &request)
        .await
    {
        Ok(granted) => page(
            StatusCode::CREATED,
            &GrantedPage {
                user: Some(Bar::of(&signed)),
                j: place.id.clone(),
                place: place.name.clone(),
                service_pt: service_pt(&granted.permit.service),
                service: granted.permit.service,
                number: granted.permit.number,
                holder: format::document(&granted.permit.holder),
                expires: format::maybe_day(granted.permit.expires_on),
                articles: granted.articles.join("; "),
                to_check: granted
                    .to_check
                    .into_iter()
                    .map(|t| (t.description, t.articles.join("; ")))
                    .collect(),
            },
        ),
        Err(StoreError::Refused { reason, articles }) => {
            let outcome = Outcome {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                refused: Some((reason, articles.join("; "))),
                error: None,
            };
            grant_page(&state, &signed, &place, asked, outcome).await
        }
        Err(StoreError::NotFound(reason)) => {
            let outcome = Outcome::field("titular", reason);
            grant_page(&state, &signed, &place, asked, outcome).await
        }
        Err(error) => match error.bad_input() {
            Some((field, reason)) => {
                let field = match field {
                    "linha" => "linha",
                    "cota" => "cota",
                    "serviço" => "servico",
                    _ => "titular",
                };
                let outcome = Outcome::field(field, reason.to_string());
                grant_page(&state, &signed, &place, asked, outcome).await
            }
            None => {
                tracing::error!(%error, "a grant failed");
                failure()
            }
        },
    }
}

// ------------------------------------------------------------- the dossier

#[derive(Debug)]
struct Step {
    event: &'static str,
    status: &'static str,
    since: String,
    until: Option<String>,
    reason: String,
    articles: String,
}

#[derive(Template)]
#[template(path = "permissao.html")]
struct DossierPage {
    user: Option<Bar>,
    j: String,
    place: String,
    service_pt: &'static str,
    number: i64,
    status: &'static str,
    holder: String,
    holder_name: String,
    holder_shown: String,
    granted: String,
    expires: String,
    quota: Option<String>,
    line: Option<String>,
    vehicle: Option<(String, String)>,
    history: Vec<Step>,
    drivers: Vec<(String, String, String, String, String)>,
    /// Each driver's registration in force: (registration, its code).
    credentials: Vec<(String, String)>,
    /// The holder's documents: code, kind, issued, valid until, and whether
    /// it prints as a card too.
    documents: Vec<(String, String, String, String, bool)>,
    autos: Vec<(String, String, String, &'static str)>,
    /// The list of every auto under the permit, when there are more.
    more_autos: Option<String>,
    debts: Vec<(String, String, String, String)>,
    /// The latest inspections of the vehicle in service: (date, kind,
    /// result, next due).
    inspections: Vec<(String, String, &'static str, String)>,
    service: String,
    /// The clerk's actions are offered.
    clerk: bool,
    roles: Vec<(String, &'static str)>,
    /// The plate asked for the vehicle's checklist, and the checklist.
    plate_asked: String,
    checklist: VehicleView,
    notice: Option<&'static str>,
    /// An action refused just now: (form, field, message).
    error: Option<(&'static str, String, String)>,
    /// A delegation served by a fleet: its buses on the day asked.
    fleet: Option<FleetShown>,
}

/// A fleet as the dossier shows it.
pub(crate) struct FleetShown {
    /// The day (AAAA-MM-DD) and as people read it.
    on: String,
    on_text: String,
    /// (plate, make and model, seats, since).
    buses: Vec<(String, String, String, String)>,
    seats: u32,
    article: String,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct DossierAsked {
    /// What was just done (`condutor`, `desligamento`, `veiculo`,
    /// `retirada`).
    feito: Option<String>,
    /// A plate whose checklist to show before putting it in service.
    placa: Option<String>,
    /// The day whose fleet to show.
    data: Option<String>,
}

/// What the dossier shows besides the record: the plate asked and its
/// checklist, what was just done, a refusal.
#[derive(Default)]
pub(crate) struct Extras {
    /// The day whose fleet to show (none: today).
    pub fleet_day: Option<chrono::NaiveDate>,
    pub plate: String,
    pub vehicle: VehicleView,
    pub notice: Option<&'static str>,
    pub error: Option<(&'static str, String, String)>,
}

pub(crate) async fn dossier(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, service, number)): Path<(String, String, i64)>,
    Query(asked): Query<DossierAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let plate = asked.placa.unwrap_or_default();
    let vehicle = vehicle_view(&state, &place, (&service, number), &plate).await;
    let extras = Extras {
        notice: match asked.feito.as_deref() {
            Some("condutor") => Some("Condutor incluído e matrícula emitida."),
            Some("desligamento") => Some("Condutor desligado."),
            Some("veiculo") => Some("Veículo em serviço e autorização de tráfego emitida."),
            Some("retirada") => {
                Some("Ônibus retirado da frota; sua autorização de tráfego terminou.")
            }
            _ => None,
        },
        fleet_day: asked
            .data
            .as_deref()
            .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()),
        plate,
        vehicle,
        error: None,
    };
    dossier_page(
        &state,
        &signed,
        &place,
        (&service, number),
        StatusCode::OK,
        extras,
    )
    .await
}

/// The dossier with `extras`, or the page that says why not.
pub(crate) async fn dossier_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    (service, number): (&str, i64),
    status: StatusCode,
    extras: Extras,
) -> Response {
    match read_dossier(state, signed, place, (service, number), extras).await {
        Ok(Some(dossier)) => page(status, &dossier),
        Ok(None) => refusal(
            signed,
            StatusCode::NOT_FOUND,
            "Permissão não encontrada",
            "Não há permissão com este serviço e número nesta jurisdição.",
        ),
        Err(error) => {
            tracing::error!(%error, "a dossier could not be read");
            failure()
        }
    }
}

/// A vehicle's checklist before it is put in service, as the dossier
/// shows it.
#[derive(Debug, Default)]
pub(crate) struct VehicleView {
    pub replaces: Option<String>,
    pub items: Vec<CheckRow>,
    pub blocked: bool,
    /// Why there is no checklist (a plate not registered…).
    pub problem: Option<String>,
}

/// The checklist of `plate` for the permit (none asked: nothing to show).
pub(crate) async fn vehicle_view(
    state: &AppState,
    place: &Place<'_>,
    (service, number): (&str, i64),
    plate: &str,
) -> VehicleView {
    let Some(rulebook) = Service::parse(service).and_then(|s| place.rulebook(s)) else {
        return VehicleView::default();
    };
    if plate.trim().is_empty() {
        return VehicleView::default();
    }
    match state
        .store
        .vehicle_preview(rulebook, &place.id, (service, number), plate, place.today)
        .await
    {
        Ok(preview) => {
            let items: Vec<CheckRow> = preview.items.into_iter().map(CheckRow::from).collect();
            VehicleView {
                replaces: preview.replaces,
                blocked: items.iter().any(|i| i.unmet),
                items,
                problem: None,
            }
        }
        Err(error) => VehicleView {
            problem: Some(
                error
                    .bad_input()
                    .map(|(_, reason)| reason.to_string())
                    .unwrap_or_else(|| error.to_string()),
            ),
            ..VehicleView::default()
        },
    }
}

async fn read_dossier(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    (service, number): (&str, i64),
    extras: Extras,
) -> Result<Option<DossierPage>, StoreError> {
    let store = &state.store;
    let j = place.id.as_str();
    let (permit, history) = match store.permit(j, service, number).await {
        Ok(found) => found,
        Err(StoreError::NotFound(_)) => return Ok(None),
        Err(error) => return Err(error),
    };
    let holder = store.registered(j, &permit.holder).await?;
    let window = Window::first(DOSSIER_ITEMS);
    let drivers = store.drivers(j, (service, number), window).await?;
    let fleet_rule = Service::parse(service)
        .and_then(|s| place.rulebook(s))
        .and_then(|r| r.vehicles.fleet.clone());
    let fleet = match fleet_rule {
        Some(article) => {
            let on = extras.fleet_day.unwrap_or(place.today);
            let buses = store.fleet_on(j, (service, number), on).await?;
            Some(FleetShown {
                on: on.to_string(),
                on_text: format::day(on),
                seats: buses
                    .iter()
                    .map(|(v, _, _)| u32::from(v.capacity.unwrap_or(0)))
                    .sum(),
                buses: buses
                    .into_iter()
                    .map(|(v, since, _)| {
                        let model = [v.make.as_deref(), v.model.as_deref()]
                            .into_iter()
                            .flatten()
                            .collect::<Vec<_>>()
                            .join(" ");
                        (
                            v.plate,
                            model,
                            v.capacity.map_or_else(|| "—".into(), |c| c.to_string()),
                            format::day(since),
                        )
                    })
                    .collect(),
                article,
            })
        }
        None => None,
    };
    // A fleet has no one vehicle that another replaces.
    let vehicle = match fleet {
        Some(_) => None,
        None => store.permit_vehicle(j, (service, number)).await?,
    };
    let inspections = match &vehicle {
        Some((plate, _)) => store.vehicle_inspections(j, plate, DOSSIER_ITEMS).await?,
        None => Vec::new(),
    };
    let documents = store
        .documents(
            j,
            &DocumentFilter {
                holder: Some(permit.holder.clone()),
                ..DocumentFilter::default()
            },
            window,
        )
        .await?;
    let mut credentials = Vec::new();
    for d in drivers.items.iter().filter(|d| d.until.is_none()) {
        let found = store
            .documents(
                j,
                &DocumentFilter {
                    subject: Some(format!("driver:{}", d.registration)),
                    kind: Some("driver_registration".into()),
                    ..DocumentFilter::default()
                },
                Window::first(1),
            )
            .await?;
        if let Some(doc) = found
            .items
            .into_iter()
            .find(|doc| doc.cancelled_on.is_none())
        {
            credentials.push((d.registration.clone(), doc.code));
        }
    }
    let autos = store
        .autos(
            j,
            &AutoFilter {
                permit: Some((service.to_string(), number)),
                ..AutoFilter::default()
            },
            window,
        )
        .await?;
    let debts = store
        .debts(
            j,
            &DebtFilter {
                debtor: Some(permit.holder.clone()),
                ..DebtFilter::default()
            },
            window,
        )
        .await?;
    let more_autos = autos
        .next
        .is_some()
        .then(|| format!("/j/{j}/autos?permissao={service}%2F{number}"));
    Ok(Some(DossierPage {
        inspections: inspections
            .into_iter()
            .map(|i| {
                (
                    format::day(i.done_on),
                    outorga_store::words::inspection_kind(&i.kind),
                    if i.approved { "aprovada" } else { "reprovada" },
                    format::maybe_day(i.next_due),
                )
            })
            .collect(),
        service: service.to_string(),
        clerk: Clerk::admits(signed.user.role),
        roles: outorga_web::workflows::driver_roles(),
        plate_asked: extras.plate,
        checklist: extras.vehicle,
        notice: extras.notice,
        error: extras.error,
        fleet,
        more_autos,
        user: Some(Bar::of(signed)),
        j: j.to_string(),
        place: place.name.clone(),
        service_pt: service_pt(&permit.service),
        number: permit.number,
        status: status_pt(&permit.status),
        holder_name: holder.map_or_else(String::new, |h| h.name),
        holder_shown: format::document(&permit.holder),
        holder: permit.holder,
        granted: format::day(permit.granted_on),
        expires: format::maybe_day(permit.expires_on),
        quota: permit
            .quota
            .map(|q| outorga_core::model::Quota::label(&q).to_string()),
        line: permit.line,
        vehicle: vehicle.map(|(plate, since)| (plate, format::day(since))),
        history: history
            .into_iter()
            .map(|h| Step {
                event: event_pt(&h.event),
                status: status_pt(&h.status),
                since: format::day(h.since),
                until: h.until.map(format::day),
                reason: h.reason,
                articles: h.articles.join("; "),
            })
            .collect(),
        credentials,
        drivers: drivers
            .items
            .into_iter()
            .map(|d| {
                (
                    d.registration,
                    format::document(&d.driver),
                    driver_role_pt(&d.role).to_string(),
                    format::day(d.since),
                    format::maybe_day(d.until),
                )
            })
            .collect(),
        documents: documents
            .items
            .into_iter()
            .map(|d| {
                (
                    d.code,
                    document_kind_name(&d.kind).to_string(),
                    format::day(d.issued_on),
                    format::maybe_day(d.valid_until),
                    d.kind == "driver_registration",
                )
            })
            .collect(),
        autos: autos
            .items
            .into_iter()
            .map(|a| {
                (
                    format!("{}/{}", a.year, a.number),
                    a.committed_at.format("%d/%m/%Y %H:%M").to_string(),
                    a.infraction,
                    a.status.portuguese(),
                )
            })
            .collect(),
        debts: debts
            .items
            .into_iter()
            .map(|d| {
                (
                    format!("{}/{}-{}", d.year, d.number, d.seq),
                    format!("{} {}", d.quantity, d.unit),
                    format::day(d.due_on),
                    if d.settled() { "quitado" } else { "em aberto" }.to_string(),
                )
            })
            .collect(),
    }))
}
