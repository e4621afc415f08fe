//! The holder's and driver's own space (`/titular`): signing in with the
//! CPF and a password set with the first-access code a clerk printed
//! (`/titular/primeiro-acesso`); their permits with the vehicle and its
//! next inspection, the permits they drive under, their documents as PDF,
//! their points per window beside the law's limits, their autos with the
//! stage and the limits that run, their debts with the slip; a defense or
//! an appeal filed online with attachments, a renewal asked, each with a
//! protocol receipt. The cookie session is as the staff's (`session.rs`):
//! HttpOnly, SameSite=Strict, a CSRF token derived from it on every form;
//! a cookie of its own, so a clerk's session and a holder's never mix.

use crate::format;
use crate::forms::upload;
use crate::pages::{failure, page};
use crate::place::{Place, known_place};
use crate::session::{cookie, csrf_of, fresh_token, same, set_cookie};
use askama::Template;
use axum::extract::{FromRequestParts, Multipart, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Form};
use outorga_core::model::Service;
use outorga_store::{
    Attachment, Auto, AutoFilter, Change, Debt, DebtFilter, Document, DocumentFilter, FirstAccess,
    PermitFilter, PermitRecord, Petition, PetitionInput, PetitionKind, SignIn, StoreError, Window,
    citizen_actor,
};
use outorga_web::AppState;
use outorga_web::client::ClientIp;
use outorga_web::papers::{document_pdf, issue_slip_paper};
use outorga_web::workflows::{paper_format, pdf_file};
use serde::Deserialize;

/// The cookie that holds a holder's session token.
pub(crate) const CITIZEN: &str = "outorga_titular";
/// The cookie that holds the sign-in and first-access forms' token.
const CITIZEN_FORM: &str = "outorga_titular_entrada";
/// How long a holder's session lasts, in hours.
pub(crate) const SESSION_HOURS: i64 = 2;
/// The most of each list the space shows (the latest).
const SHOWN: u32 = 50;
/// The body a petition may send: its attachments and text.
pub(crate) const MAX_PETITION_BODY: usize = outorga_store::PETITION_MAX_BYTES + 256 * 1024;

/// The holder signed in by the request's cookie; without one, the
/// sign-in page of the space.
#[derive(Debug, Clone)]
pub(crate) struct Citizen {
    pub document: String,
    pub token: String,
}

impl Citizen {
    pub(crate) fn csrf(&self) -> String {
        csrf_of(&self.token)
    }

    /// Whether a form sent by this person may act: its CSRF token is the
    /// session's; otherwise the page that refuses it (403).
    pub(crate) fn checked_form(&self, csrf: &str) -> Result<(), Box<Response>> {
        if same(csrf, &self.csrf()) {
            return Ok(());
        }
        Err(Box::new(refusal(
            self,
            StatusCode::FORBIDDEN,
            "Formulário expirado",
            "Recarregue a página e tente de novo.",
        )))
    }
}

/// What the space's header shows.
pub(crate) struct CitizenBar {
    pub document: String,
    pub csrf: String,
}

impl CitizenBar {
    pub(crate) fn of(citizen: &Citizen) -> CitizenBar {
        CitizenBar {
            document: format::document(&citizen.document),
            csrf: citizen.csrf(),
        }
    }
}

impl FromRequestParts<AppState> for Citizen {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let Some(token) = cookie(&parts.headers, CITIZEN) else {
            return Err(Redirect::to("/titular").into_response());
        };
        match state.store.citizen(&token, state.clock.now()).await {
            Ok(Some(document)) => Ok(Citizen { document, token }),
            Ok(None) => {
                let mut away = Redirect::to("/titular?motivo=expirada").into_response();
                away.headers_mut().append(
                    header::SET_COOKIE,
                    set_cookie(&parts.headers, CITIZEN, "", 0),
                );
                Err(away)
            }
            Err(error) => {
                tracing::error!(%error, "a holder's session could not be read");
                Err(failure())
            }
        }
    }
}

#[derive(Template)]
#[template(path = "titular-entrar.html")]
struct SignInPage {
    csrf: String,
    cpf: String,
    error: Option<String>,
    notice: Option<&'static str>,
    /// The deployment offers gov.br's Login Único.
    govbr: bool,
}

#[derive(Template)]
#[template(path = "titular-primeiro-acesso.html")]
struct FirstAccessPage {
    csrf: String,
    cpf: String,
    error: Option<(String, String)>,
}

/// A form of the signed-out space, with a fresh token in its cookie too.
fn with_form_token(headers: &HeaderMap, render: impl FnOnce(String) -> Response) -> Response {
    let token = fresh_token();
    let mut answer = render(token.clone());
    answer.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(headers, CITIZEN_FORM, &token, 3600),
    );
    answer
}

fn sign_in_page(
    (headers, options): (&HeaderMap, &crate::Options),
    status: StatusCode,
    cpf: &str,
    error: Option<String>,
    notice: Option<&'static str>,
) -> Response {
    with_form_token(headers, |csrf| {
        page(
            status,
            &SignInPage {
                csrf,
                cpf: cpf.to_string(),
                error,
                notice,
                govbr: options.govbr.is_some(),
            },
        )
    })
}

fn first_access_page(
    headers: &HeaderMap,
    status: StatusCode,
    cpf: &str,
    error: Option<(String, String)>,
) -> Response {
    with_form_token(headers, |csrf| {
        page(
            status,
            &FirstAccessPage {
                csrf,
                cpf: cpf.to_string(),
                error,
            },
        )
    })
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Notice {
    motivo: Option<String>,
    feito: Option<String>,
}

/// The space's sign-in page (or the space, when signed in).
pub(crate) async fn sign_in_form(
    State(state): State<AppState>,
    Extension(options): Extension<crate::Options>,
    axum::extract::Query(asked): axum::extract::Query<Notice>,
    headers: HeaderMap,
) -> Response {
    if let Some(token) = cookie(&headers, CITIZEN)
        && let Ok(Some(_)) = state.store.citizen(&token, state.clock.now()).await
    {
        return Redirect::to("/titular/painel").into_response();
    }
    let notice = match (asked.motivo.as_deref(), asked.feito.as_deref()) {
        (Some("expirada"), _) => Some("Sua sessão terminou. Entre de novo para continuar."),
        (_, Some("senha")) => Some("Senha definida. Entre com o seu CPF e a nova senha."),
        (_, Some("saida")) => Some("Você saiu do seu espaço."),
        _ => None,
    };
    sign_in_page((&headers, &options), StatusCode::OK, "", None, notice)
}

#[derive(Debug, Deserialize)]
pub(crate) struct SignInForm {
    #[serde(default)]
    cpf: String,
    #[serde(default)]
    senha: String,
    #[serde(default)]
    csrf: String,
}

fn too_many(mut answer: Response, seconds: i64) -> Response {
    if let Ok(value) = HeaderValue::from_str(&seconds.unsigned_abs().to_string()) {
        answer.headers_mut().insert(header::RETRY_AFTER, value);
    }
    answer
}

pub(crate) async fn sign_in(
    State(state): State<AppState>,
    Extension(options): Extension<crate::Options>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    Form(form): Form<SignInForm>,
) -> Response {
    let cpf = form.cpf.trim();
    if !same(
        &form.csrf,
        &cookie(&headers, CITIZEN_FORM).unwrap_or_default(),
    ) {
        let error = Some("O formulário expirou. Digite o CPF e a senha de novo.".into());
        return sign_in_page(
            (&headers, &options),
            StatusCode::FORBIDDEN,
            cpf,
            error,
            None,
        );
    }
    if cpf.is_empty() || form.senha.is_empty() || form.senha.chars().count() > 256 {
        let error = Some("Informe o CPF e a senha.".into());
        return sign_in_page(
            (&headers, &options),
            StatusCode::UNPROCESSABLE_ENTITY,
            cpf,
            error,
            None,
        );
    }
    let now = state.clock.now();
    let expires = now + chrono::Duration::hours(SESSION_HOURS);
    match state
        .store
        .citizen_sign_in(cpf, &form.senha, (client, now), expires)
        .await
    {
        Ok(Ok(opened)) => {
            let mut answer = Redirect::to("/titular/painel").into_response();
            let cookies = answer.headers_mut();
            cookies.append(
                header::SET_COOKIE,
                set_cookie(&headers, CITIZEN, &opened.token, SESSION_HOURS * 3600),
            );
            cookies.append(
                header::SET_COOKIE,
                set_cookie(&headers, CITIZEN_FORM, "", 0),
            );
            answer
        }
        Ok(Err(SignIn::TooMany { seconds })) => too_many(
            sign_in_page(
                (&headers, &options),
                StatusCode::TOO_MANY_REQUESTS,
                cpf,
                Some(format!(
                    "Tentativas falhas demais. Tente de novo em {seconds} segundos."
                )),
                None,
            ),
            seconds,
        ),
        Ok(Err(_)) => sign_in_page(
            (&headers, &options),
            StatusCode::UNAUTHORIZED,
            cpf,
            Some(
                "CPF ou senha incorretos. Se ainda não tem senha, use o primeiro acesso com o código que o atendimento lhe entregou."
                    .into(),
            ),
            None,
        ),
        Err(StoreError::Busy) => sign_in_page(
            (&headers, &options),
            StatusCode::SERVICE_UNAVAILABLE,
            cpf,
            Some("O sistema está ocupado. Tente de novo em instantes.".into()),
            None,
        ),
        Err(error) => {
            tracing::error!(%error, "a holder's sign-in failed");
            failure()
        }
    }
}

pub(crate) async fn first_access_form(headers: HeaderMap) -> Response {
    first_access_page(&headers, StatusCode::OK, "", None)
}

#[derive(Debug, Deserialize)]
pub(crate) struct FirstAccessForm {
    #[serde(default)]
    cpf: String,
    #[serde(default)]
    codigo: String,
    #[serde(default)]
    senha: String,
    #[serde(default)]
    confirmacao: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn first_access(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    Form(form): Form<FirstAccessForm>,
) -> Response {
    let cpf = form.cpf.trim();
    let refuse = |status, field: &str, message: &str| {
        first_access_page(
            &headers,
            status,
            cpf,
            Some((field.to_string(), message.to_string())),
        )
    };
    if !same(
        &form.csrf,
        &cookie(&headers, CITIZEN_FORM).unwrap_or_default(),
    ) {
        return refuse(
            StatusCode::FORBIDDEN,
            "codigo",
            "O formulário expirou. Preencha de novo.",
        );
    }
    if form.senha != form.confirmacao {
        return refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "confirmacao",
            "A confirmação não é igual à senha: digite a mesma senha duas vezes.",
        );
    }
    let at = state.clock.now();
    match state
        .store
        .first_access(cpf, &form.codigo, &form.senha, (client, at))
        .await
    {
        Ok(FirstAccess::Set) => {
            let mut answer = Redirect::to("/titular?feito=senha").into_response();
            answer.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&headers, CITIZEN_FORM, "", 0),
            );
            answer
        }
        Ok(FirstAccess::Refused) => refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "codigo",
            "Código inválido para este CPF, já usado ou vencido. Confira o código impresso, ou peça um novo no atendimento.",
        ),
        Ok(FirstAccess::TooMany { seconds }) => too_many(
            refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "codigo",
                &format!("Tentativas falhas demais. Tente de novo em {seconds} segundos."),
            ),
            seconds,
        ),
        Err(StoreError::Invalid { field, reason }) => {
            let field = if field == "documento" { "cpf" } else { field };
            refuse(StatusCode::UNPROCESSABLE_ENTITY, field, &reason)
        }
        Err(StoreError::Busy) => refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "codigo",
            "O sistema está ocupado. Tente de novo em instantes.",
        ),
        Err(error) => {
            tracing::error!(%error, "a first access failed");
            failure()
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct CsrfOnly {
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn sign_out(
    State(state): State<AppState>,
    citizen: Citizen,
    headers: HeaderMap,
    Form(form): Form<CsrfOnly>,
) -> Response {
    if let Err(refused) = citizen.checked_form(&form.csrf) {
        return *refused;
    }
    if let Err(error) = state
        .store
        .close_citizen_session(&citizen.token, state.clock.now())
        .await
    {
        tracing::error!(%error, "a holder's session could not be closed");
        return failure();
    }
    let mut answer = Redirect::to("/titular?feito=saida").into_response();
    answer
        .headers_mut()
        .append(header::SET_COOKIE, set_cookie(&headers, CITIZEN, "", 0));
    answer
}

#[derive(Template)]
#[template(path = "titular-erro.html")]
struct RefusalPage<'a> {
    bar: CitizenBar,
    title: &'a str,
    message: &'a str,
}

pub(crate) fn refusal(
    citizen: &Citizen,
    status: StatusCode,
    title: &str,
    message: &str,
) -> Response {
    page(
        status,
        &RefusalPage {
            bar: CitizenBar::of(citizen),
            title,
            message,
        },
    )
}

/// A permit the person holds, as the space shows it.
struct HeldView {
    service: String,
    label: &'static str,
    number: i64,
    status: &'static str,
    expires: String,
    vehicle: Option<String>,
    inspection: Option<String>,
    /// Whether the law would renew it today; else why not.
    renewal: Result<(), String>,
}

struct AutoView {
    year: i32,
    number: i64,
    infraction: String,
    committed: String,
    status: &'static str,
    /// The limits that run now: (what, until when).
    limits: Vec<(&'static str, String)>,
}

struct DebtView {
    year: i32,
    number: i64,
    seq: i64,
    purpose: String,
    due: String,
    amount: String,
    settled: bool,
}

struct DocumentView {
    code: String,
    kind: String,
    valid: String,
    card: bool,
}

struct PointsView {
    label: String,
    windows: Vec<(u32, String)>,
    limits: Vec<String>,
    due: Vec<&'static str>,
}

struct PetitionView {
    protocol: String,
    kind: &'static str,
    about: String,
    filed: String,
    status: &'static str,
    answer: Option<String>,
}

/// What the space shows of one jurisdiction.
struct PlaceView {
    j: String,
    name: String,
    person: String,
    permits: Vec<HeldView>,
    driving: Vec<String>,
    documents: Vec<DocumentView>,
    points: Vec<PointsView>,
    autos: Vec<AutoView>,
    debts: Vec<DebtView>,
}

#[derive(Template)]
#[template(path = "titular-painel.html")]
struct SpacePage {
    bar: CitizenBar,
    notice: Option<String>,
    places: Vec<PlaceView>,
    petitions: Vec<PetitionView>,
}

fn service_label(service: &str) -> &'static str {
    Service::parse(service).map_or("serviço", Service::portuguese)
}

fn window(limit: u32) -> Window<'static> {
    Window { after: None, limit }
}

async fn held_view(
    state: &AppState,
    place: &Place<'_>,
    permit: PermitRecord,
) -> Result<HeldView, StoreError> {
    let j = place.id.as_str();
    let serving = state
        .store
        .permit_vehicle(j, (&permit.service, permit.number))
        .await?;
    let (vehicle, inspection) = match serving {
        Some((plate, _)) => {
            let found = state.store.vehicle(j, &plate).await?;
            let words = found.map(|v| {
                let what = [v.make.unwrap_or_default(), v.model.unwrap_or_default()]
                    .join(" ")
                    .trim()
                    .to_string();
                format!("{} — {} {}", plate, what, v.colour)
            });
            let last = state.store.vehicle_inspections(j, &plate, 1).await?;
            let next = last.first().and_then(|i| i.next_due).map(format::day);
            (words.or(Some(plate)), next)
        }
        None => (None, None),
    };
    let status = outorga_store::status_pt(&permit.status);
    let renewal = match place.rulebooks.iter().find(|r| r.id == permit.rulebook) {
        Some(rulebook) => match state
            .store
            .renewal_refused(rulebook, j, (&permit.service, permit.number), place.today)
            .await?
        {
            None => Ok(()),
            Some(why) => Err(why),
        },
        None => Err("o regulamento desta permissão não está carregado".into()),
    };
    Ok(HeldView {
        label: service_label(&permit.service),
        service: permit.service,
        number: permit.number,
        status,
        expires: format::maybe_day(permit.expires_on),
        vehicle,
        inspection,
        renewal,
    })
}

fn auto_view(place: &Place<'_>, auto: &Auto) -> AutoView {
    let infraction = place
        .rulebooks
        .iter()
        .find(|r| r.id == auto.rulebook)
        .and_then(|r| {
            r.infraction_by_code(&auto.infraction)
                .map(|id| r.infraction(id).description.clone())
        })
        .unwrap_or_else(|| auto.infraction.clone());
    AutoView {
        year: auto.year,
        number: auto.number,
        infraction,
        committed: format!(
            "{} às {}",
            format::day(auto.committed_at.date()),
            auto.committed_at.format("%H:%M")
        ),
        status: outorga_store::auto_status_pt(auto.status),
        limits: running_limits(auto),
    }
}

/// The limits of an auto that run, as its record keeps them.
fn running_limits(auto: &Auto) -> Vec<(&'static str, String)> {
    use outorga_core::engine::process::Status;
    let mut out = Vec::new();
    match auto.status {
        Status::Issued | Status::Notified if auto.defense_on.is_none() => {
            if let Some(day) = auto.defense_by {
                out.push(("apresentar defesa até", format::day(day)));
            }
        }
        Status::Judged => {
            if let Some(day) = auto.appeal_by {
                out.push(("recorrer até", format::day(day)));
            }
        }
        _ => {}
    }
    out
}

async fn debt_view(
    state: &AppState,
    place: &Place<'_>,
    debt: &Debt,
) -> Result<DebtView, StoreError> {
    let amount = match place.rulebooks.iter().find(|r| r.id == debt.rulebook) {
        Some(rulebook) if !debt.settled() => {
            let due = state
                .store
                .debt_due(
                    rulebook,
                    &place.id,
                    (debt.year, debt.number, debt.seq),
                    place.today,
                )
                .await?;
            due.brl.map_or_else(
                || format!("{} {}", format::decimal(&due.quantity), due.unit),
                |brl| format::money(&brl),
            )
        }
        _ => debt
            .brl_on_issue
            .as_deref()
            .map_or_else(|| format!("{} {}", debt.quantity, debt.unit), format::money),
    };
    Ok(DebtView {
        year: debt.year,
        number: debt.number,
        seq: debt.seq,
        purpose: debt.purpose.clone(),
        due: format::day(debt.due_on),
        amount,
        settled: debt.settled(),
    })
}

fn document_view(document: &Document) -> DocumentView {
    DocumentView {
        code: document.code.clone(),
        kind: outorga_store::document_kind_name(&document.kind).to_string(),
        valid: document.valid_until.map_or_else(
            || "sem prazo".to_string(),
            |d| format!("até {}", format::day(d)),
        ),
        card: document.kind == "driver_registration",
    }
}

fn petition_view(petition: &Petition) -> PetitionView {
    let about = match (&petition.auto, &petition.permit) {
        (Some((year, number)), _) => format!("auto nº {number}/{year}"),
        (_, Some((service, number))) => {
            format!("permissão de {} nº {number}", service_label(service))
        }
        _ => String::new(),
    };
    PetitionView {
        protocol: petition.protocol.clone(),
        kind: petition.kind.portuguese(),
        about,
        filed: format!(
            "{} às {}",
            format::day(petition.filed_at.date()),
            petition.filed_at.format("%H:%M")
        ),
        status: petition.status.portuguese(),
        answer: petition.answer.clone(),
    }
}

async fn place_view(
    state: &AppState,
    place: &Place<'_>,
    person: String,
    document: &str,
) -> Result<PlaceView, StoreError> {
    let j = place.id.as_str();
    let held = state
        .store
        .permits(
            j,
            &PermitFilter {
                holder: Some(document.to_string()),
                ..PermitFilter::default()
            },
            window(SHOWN),
        )
        .await?;
    let mut permits = Vec::new();
    let mut autos: Vec<Auto> = state
        .store
        .autos(
            j,
            &AutoFilter {
                offender: Some(document.to_string()),
                ..AutoFilter::default()
            },
            window(SHOWN),
        )
        .await?
        .items;
    for permit in held.items {
        // The autos under their permits, whoever committed them: the holder
        // answers for them (points, fines).
        let under = state
            .store
            .autos(
                j,
                &AutoFilter {
                    permit: Some((permit.service.clone(), permit.number)),
                    ..AutoFilter::default()
                },
                window(SHOWN),
            )
            .await?;
        for auto in under.items {
            if !autos
                .iter()
                .any(|a| (a.year, a.number) == (auto.year, auto.number))
            {
                autos.push(auto);
            }
        }
        permits.push(held_view(state, place, permit).await?);
    }
    autos.sort_by_key(|a| std::cmp::Reverse(a.committed_at));
    let driving = state
        .store
        .driving(j, document)
        .await?
        .into_iter()
        .map(|(service, number)| format!("{} nº {number}", service_label(&service)))
        .collect();
    let documents = state
        .store
        .documents(
            j,
            &DocumentFilter {
                holder: Some(document.to_string()),
                ..DocumentFilter::default()
            },
            window(SHOWN),
        )
        .await?
        .items
        .iter()
        .filter(|d| d.cancelled_on.is_none())
        .map(document_view)
        .collect();
    let mut points = Vec::new();
    for rulebook in &place.rulebooks {
        if rulebook.points.is_none() && rulebook.thresholds.is_empty() {
            continue;
        }
        let standing = state
            .store
            .points_standing(rulebook, j, document, place.today)
            .await?;
        points.push(PointsView {
            label: rulebook
                .services
                .iter()
                .map(|s| s.portuguese())
                .collect::<Vec<_>>()
                .join(", "),
            windows: standing
                .windows
                .iter()
                .map(|(months, total)| (*months, format::decimal(&total.to_string())))
                .collect(),
            limits: standing
                .limits
                .iter()
                .map(|l| {
                    format!(
                        "mais de {} pontos em {} meses: {} ({})",
                        format::decimal(&l.over.to_string()),
                        l.months,
                        l.sanctions.join(", "),
                        l.citation
                    )
                })
                .collect(),
            due: standing.due,
        });
    }
    let mut debts = Vec::new();
    let owed = state
        .store
        .debts(
            j,
            &DebtFilter {
                debtor: Some(document.to_string()),
                ..DebtFilter::default()
            },
            window(SHOWN),
        )
        .await?;
    for debt in &owed.items {
        debts.push(debt_view(state, place, debt).await?);
    }
    Ok(PlaceView {
        j: j.to_string(),
        name: place.name.clone(),
        person,
        permits,
        driving,
        documents,
        points,
        autos: autos.iter().map(|a| auto_view(place, a)).collect(),
        debts,
    })
}

/// The space: everything of the person in every jurisdiction that
/// registers them.
pub(crate) async fn space(
    State(state): State<AppState>,
    citizen: Citizen,
    axum::extract::Query(asked): axum::extract::Query<Notice>,
) -> Response {
    let read = async {
        let mut places = Vec::new();
        for (j, person) in state.store.registered_in(&citizen.document).await? {
            let Some(place) = known_place(&state, &j) else {
                continue;
            };
            places.push(place_view(&state, &place, person, &citizen.document).await?);
        }
        let petitions = state
            .store
            .petitions_of(&citizen.document, i64::from(SHOWN))
            .await?;
        Ok::<_, StoreError>((places, petitions))
    };
    let (places, petitions) = match read.await {
        Ok(found) => found,
        Err(error) => {
            tracing::error!(%error, "a holder's space could not be read");
            return failure();
        }
    };
    let notice = asked
        .feito
        .filter(|done| done.starts_with("renovacao-"))
        .map(|done| {
            format!(
                "Pedido de renovação recebido: protocolo {}.",
                done.trim_start_matches("renovacao-")
            )
        });
    page(
        StatusCode::OK,
        &SpacePage {
            bar: CitizenBar::of(&citizen),
            notice,
            places,
            petitions: petitions.iter().map(petition_view).collect(),
        },
    )
}

#[derive(Template)]
#[template(path = "titular-auto.html")]
struct AutoPage {
    bar: CitizenBar,
    j: String,
    place: String,
    auto: AutoView,
    place_of: String,
    description: String,
    sanctions: Vec<String>,
    /// The petition the law admits today, if any: (kind code, label, until).
    form: Option<(&'static str, &'static str, String)>,
    /// Why none may be filed today, when none.
    closed: Option<String>,
    text: String,
    error: Option<(String, String)>,
    max_mb: usize,
    max_files: usize,
    petitions: Vec<PetitionView>,
}

fn not_found(citizen: &Citizen) -> Response {
    refusal(
        citizen,
        StatusCode::NOT_FOUND,
        "Auto não encontrado",
        "Não há auto com este número em seu nome. Volte ao seu espaço e escolha um da lista.",
    )
}

/// The auto of `key` in `j`, if the person answers for it.
async fn own_auto(
    state: &AppState,
    j: &str,
    key: (i32, i64),
    document: &str,
) -> Result<Option<Auto>, StoreError> {
    let auto = match state.store.auto(j, key).await {
        Ok(auto) => auto,
        Err(StoreError::NotFound(_)) => return Ok(None),
        Err(error) => return Err(error),
    };
    let answers = state.store.answers_for_auto(j, key, document).await?;
    Ok(answers.then_some(auto))
}

async fn auto_page(
    state: &AppState,
    citizen: &Citizen,
    (j, key): (&str, (i32, i64)),
    (status, text, error): (StatusCode, String, Option<(String, String)>),
) -> Response {
    let Some(place) = known_place(state, j) else {
        return not_found(citizen);
    };
    let auto = match own_auto(state, j, key, &citizen.document).await {
        Ok(Some(auto)) => auto,
        Ok(None) => return not_found(citizen),
        Err(error) => {
            tracing::error!(%error, "a holder's auto could not be read");
            return failure();
        }
    };
    let Some(rulebook) = place.rulebooks.iter().find(|r| r.id == auto.rulebook) else {
        return failure();
    };
    let read = async {
        let options = state
            .store
            .process_options(rulebook, j, key, place.today)
            .await?;
        let petitions = state.store.petitions_of_auto(j, key).await?;
        Ok::<_, StoreError>((options, petitions))
    };
    let (options, petitions) = match read.await {
        Ok(found) => found,
        Err(error) => {
            tracing::error!(%error, "a holder's auto could not be read");
            return failure();
        }
    };
    use outorga_core::engine::process::StepKind;
    let until = |kind| {
        options
            .limits
            .iter()
            .find(|l| l.kind == kind)
            .map(|l| format!("{} ({})", format::day(l.due), l.article))
            .unwrap_or_default()
    };
    let admitted = |kind: StepKind| options.allowed().any(|s| s.kind == kind);
    let form = if admitted(StepKind::Defend) {
        Some((
            "defesa",
            "Apresentar defesa",
            until(outorga_core::model::DeadlineKind::Defense),
        ))
    } else if admitted(StepKind::Appeal) {
        Some((
            "recurso",
            "Recorrer da decisão",
            until(outorga_core::model::DeadlineKind::Appeal),
        ))
    } else {
        None
    };
    let closed = form.is_none().then(|| {
        options
            .steps
            .iter()
            .find(|s| matches!(s.kind, StepKind::Defend | StepKind::Appeal))
            .and_then(|s| s.refusal.as_ref())
            .map_or_else(
                || {
                    "Nesta fase do processo não cabe defesa nem recurso pelo seu espaço."
                        .to_string()
                },
                |(why, articles)| format!("{why} ({})", articles.join("; ")),
            )
    });
    page(
        status,
        &AutoPage {
            bar: CitizenBar::of(citizen),
            j: j.to_string(),
            place: place.name.clone(),
            auto: auto_view(&place, &auto),
            place_of: auto.place.clone(),
            description: auto.description.clone(),
            sanctions: auto
                .proposal
                .sanctions
                .iter()
                .map(|s| {
                    let kind = outorga_store::words::sanction_kind(&s.kind);
                    match outorga_store::words::sanction(s) {
                        words if words.is_empty() => kind.to_string(),
                        words => format!("{kind}: {words}"),
                    }
                })
                .collect(),
            form,
            closed,
            text,
            error,
            max_mb: outorga_store::PETITION_MAX_BYTES / 1_048_576,
            max_files: outorga_store::PETITION_MAX_FILES,
            petitions: petitions.iter().map(petition_view).collect(),
        },
    )
}

/// An auto of theirs: what it says, the limits that run, and the form of
/// the defense or appeal the law admits today.
pub(crate) async fn auto(
    State(state): State<AppState>,
    citizen: Citizen,
    Path((j, year, number)): Path<(String, i32, i64)>,
) -> Response {
    auto_page(
        &state,
        &citizen,
        (&j, (year, number)),
        (StatusCode::OK, String::new(), None),
    )
    .await
}

/// Files a defense or an appeal with its attachments; the receipt follows.
pub(crate) async fn file(
    State(state): State<AppState>,
    // Signed in first: a request without a session takes no filing quota.
    citizen: Citizen,
    _: outorga_web::limits::PublicFiling,
    Path((j, year, number)): Path<(String, i32, i64)>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    let key = (year, number);
    let again = |status, text: String, field: &str, message: String| {
        let state = state.clone();
        let citizen = citizen.clone();
        let j = j.clone();
        let field = field.to_string();
        async move {
            auto_page(
                &state,
                &citizen,
                (&j, key),
                (status, text, Some((field, message))),
            )
            .await
        }
    };
    let Ok(multipart) = multipart else {
        return again(
            StatusCode::BAD_REQUEST,
            String::new(),
            "anexos",
            "o formulário chegou incompleto: envie de novo".into(),
        )
        .await;
    };
    let sent = match upload(multipart, MAX_PETITION_BODY).await {
        Ok(sent) => sent,
        Err(message) => {
            return again(
                StatusCode::PAYLOAD_TOO_LARGE,
                String::new(),
                "anexos",
                message,
            )
            .await;
        }
    };
    let text = sent.field("texto").to_string();
    if !same(sent.field("csrf"), &citizen.csrf()) {
        return again(
            StatusCode::FORBIDDEN,
            text,
            "texto",
            "o formulário expirou: recarregue a página e envie de novo".into(),
        )
        .await;
    }
    let kind = match sent.field("tipo") {
        "defesa" => PetitionKind::Defense,
        "recurso" => PetitionKind::Appeal,
        _ => {
            return again(
                StatusCode::UNPROCESSABLE_ENTITY,
                text,
                "tipo",
                "escolha defesa ou recurso".into(),
            )
            .await;
        }
    };
    let Some(place) = known_place(&state, &j) else {
        return not_found(&citizen);
    };
    let auto = match own_auto(&state, &j, key, &citizen.document).await {
        Ok(Some(auto)) => auto,
        Ok(None) => return not_found(&citizen),
        Err(error) => {
            tracing::error!(%error, "a holder's auto could not be read");
            return failure();
        }
    };
    let rulebook = place
        .rulebooks
        .iter()
        .find(|r| r.id == auto.rulebook)
        .copied();
    let input = PetitionInput {
        kind,
        document: citizen.document.clone(),
        auto: Some(key),
        permit: None,
        text: text.clone(),
        files: sent
            .attachments
            .into_iter()
            .map(|(name, bytes)| Attachment { name, bytes })
            .collect(),
    };
    match state
        .store
        .file_petition(rulebook, &j, &input, place.now)
        .await
    {
        Ok(petition) => {
            Redirect::to(&format!("/titular/protocolos/{}", petition.protocol)).into_response()
        }
        Err(StoreError::Invalid { field, reason }) => {
            again(StatusCode::UNPROCESSABLE_ENTITY, text, field, reason).await
        }
        Err(refused @ StoreError::Refused { .. }) => {
            again(
                StatusCode::UNPROCESSABLE_ENTITY,
                text,
                "tipo",
                refused.to_string(),
            )
            .await
        }
        Err(StoreError::NotFound(_)) => not_found(&citizen),
        Err(error) => {
            tracing::error!(%error, "a petition could not be filed");
            failure()
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct RenewalForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    texto: String,
}

/// Asks the renewal of a permit they hold; the clerks answer it.
pub(crate) async fn renewal(
    State(state): State<AppState>,
    // Signed in first: a request without a session takes no filing quota.
    citizen: Citizen,
    _: outorga_web::limits::PublicFiling,
    Path((j, service, number)): Path<(String, String, i64)>,
    Form(form): Form<RenewalForm>,
) -> Response {
    if let Err(refused) = citizen.checked_form(&form.csrf) {
        return *refused;
    }
    let Some(place) = known_place(&state, &j) else {
        return not_found(&citizen);
    };
    let rulebook = place
        .rulebooks
        .iter()
        .find(|r| r.services.iter().any(|s| s.name() == service))
        .copied();
    let text = Some(form.texto.trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| format!("Peço a renovação da permissão nº {number}."));
    let input = PetitionInput {
        kind: PetitionKind::Renewal,
        document: citizen.document.clone(),
        auto: None,
        permit: Some((service, number)),
        text,
        files: Vec::new(),
    };
    match state
        .store
        .file_petition(rulebook, &j, &input, place.now)
        .await
    {
        Ok(petition) => {
            Redirect::to(&format!("/titular/protocolos/{}", petition.protocol)).into_response()
        }
        Err(refused @ StoreError::Refused { .. }) => refusal(
            &citizen,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Renovação não cabe",
            &refused.to_string(),
        ),
        Err(StoreError::Invalid { reason, .. }) | Err(StoreError::NotFound(reason)) => refusal(
            &citizen,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Pedido não recebido",
            &reason,
        ),
        Err(error) => {
            tracing::error!(%error, "a renewal request could not be filed");
            failure()
        }
    }
}

#[derive(Template)]
#[template(path = "titular-protocolo.html")]
struct ReceiptPage {
    bar: CitizenBar,
    petition: PetitionView,
    place: String,
    text: String,
    files: Vec<(String, String, String)>,
}

/// A petition's receipt (printable).
pub(crate) async fn receipt(
    State(state): State<AppState>,
    citizen: Citizen,
    Path(protocol): Path<String>,
) -> Response {
    let petition = match state.store.petition(&protocol).await {
        Ok(Some(p)) if p.document == citizen.document => p,
        Ok(_) => {
            return refusal(
                &citizen,
                StatusCode::NOT_FOUND,
                "Protocolo não encontrado",
                "Não há petição sua com este protocolo.",
            );
        }
        Err(error) => {
            tracing::error!(%error, "a petition could not be read");
            return failure();
        }
    };
    let place = known_place(&state, &petition.jurisdiction)
        .map_or_else(|| petition.jurisdiction.clone(), |p| p.name);
    page(
        StatusCode::OK,
        &ReceiptPage {
            bar: CitizenBar::of(&citizen),
            petition: petition_view(&petition),
            place,
            text: petition.text.clone(),
            files: petition
                .files
                .iter()
                .map(|f| (f.name.clone(), format::size(f.size), f.sha256.clone()))
                .collect(),
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct FormatAsked {
    formato: Option<String>,
}

/// One of their documents as PDF.
pub(crate) async fn document(
    State(state): State<AppState>,
    citizen: Citizen,
    Path((j, code)): Path<(String, String)>,
    axum::extract::Query(asked): axum::extract::Query<FormatAsked>,
) -> Response {
    let missing = || {
        refusal(
            &citizen,
            StatusCode::NOT_FOUND,
            "Documento não encontrado",
            "Não há documento seu com este código.",
        )
    };
    match state.store.document(&code).await {
        Ok(Some(d)) if d.holder == citizen.document && d.jurisdiction == j => {}
        Ok(_) => return missing(),
        Err(error) => {
            tracing::error!(%error, "a document could not be read");
            return failure();
        }
    }
    let Ok(format) = paper_format(asked.formato.as_deref()) else {
        return missing();
    };
    let by = citizen_actor(&citizen.document);
    let change = Change {
        by: &by,
        at: state.clock.now(),
        why: "impressão pelo espaço do titular",
    };
    match document_pdf(&state, &j, &code, format, &change).await {
        Ok((document, kept)) => pdf_file(&document, format, kept),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a holder's paper could not be made");
            failure()
        }
        Err(error) => refusal(
            &citizen,
            error.status,
            "O documento não pôde ser impresso",
            &error.body.erro,
        ),
    }
}

/// A debt of theirs: its slip issued (or found) for today, then opened.
pub(crate) async fn slip(
    State(state): State<AppState>,
    citizen: Citizen,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Form(form): Form<CsrfOnly>,
) -> Response {
    if let Err(refused) = citizen.checked_form(&form.csrf) {
        return *refused;
    }
    match state.store.debt(&j, (year, number, seq)).await {
        Ok(debt) if debt.debtor == citizen.document => {}
        Ok(_) | Err(StoreError::NotFound(_)) => {
            return refusal(
                &citizen,
                StatusCode::NOT_FOUND,
                "Débito não encontrado",
                "Não há débito seu com este número.",
            );
        }
        Err(error) => {
            tracing::error!(%error, "a debt could not be read");
            return failure();
        }
    }
    let by = citizen_actor(&citizen.document);
    let change = Change {
        by: &by,
        at: state.clock.now(),
        why: "guia emitida pelo espaço do titular",
    };
    match issue_slip_paper(&state, &j, (year, number, seq), None, &change).await {
        Ok(document) => {
            Redirect::to(&format!("/titular/documentos/{j}/{}/pdf", document.code)).into_response()
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a holder's slip could not be made");
            failure()
        }
        Err(error) => refusal(
            &citizen,
            error.status,
            "A guia não pôde ser emitida",
            &error.body.erro,
        ),
    }
}
