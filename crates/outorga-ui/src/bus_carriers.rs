//! A bus carrier's own data (`/j/{j}/transportadoras/{documento}`): the
//! files it handed in (tickets as CSV or BP-e XML, monthly statistics), the
//! form to import one — with the report of every row refused by its line —
//! and a month's view: per line the trips scheduled and made, the tickets
//! and the occupancy, and the findings its data shows, each with its article
//! and a button to turn it into an auto; its registration in the register
//! of the carriers authorized (art. 28, § 4º: the one in force, its
//! documents, the form to register or renew with files, the cancellation);
//! its charters, asked with their files, and a charter's page
//! (`/j/{j}/fretamentos/{ano}/{numero}`) with its files. The same store
//! functions as `…/carriers/{transportadora}/…` of the API.

use crate::autos::form_error;
use crate::format;
use crate::forms::{Listed, Upload, listed, upload};
use crate::pages::{Bar, failure, page};
use crate::place::{place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::NaiveDate;
use outorga_store::{
    CarrierFile, CarrierFileKind, CarrierRegistration, Change, CharterFileKind, MonthView,
    RegistrationFileKind, parse_month,
};
use outorga_web::auth::{Clerk, Inspector};
use outorga_web::workflows::bus_rulebook;
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// A file as the list shows it.
pub(crate) struct FileRow {
    id: i64,
    kind: &'static str,
    month: String,
    name: String,
    received: String,
    accepted: i64,
    repeated: i64,
    refused: usize,
    sha256: String,
}

impl FileRow {
    fn of(f: CarrierFile) -> FileRow {
        FileRow {
            id: f.id,
            kind: f.kind.portuguese(),
            month: f.month.format("%m/%Y").to_string(),
            name: f.name,
            received: format::day(f.received_on),
            accepted: f.accepted,
            repeated: f.repeated,
            refused: f.refused.len(),
            sha256: f.sha256,
        }
    }
}

/// The import just made, as the page reports it.
pub(crate) struct Report {
    earlier: bool,
    file: FileRow,
    /// (line, field, reason), the first ones.
    refused: Vec<(u64, String, String)>,
    more: usize,
}

/// The most refused rows the page lists (the API lists them all).
const SHOWN_REFUSALS: usize = 200;

impl Report {
    fn of(f: CarrierFile) -> Report {
        let more = f.refused.len().saturating_sub(SHOWN_REFUSALS);
        let refused = f
            .refused
            .iter()
            .take(SHOWN_REFUSALS)
            .map(|r| (r.line, r.field.clone(), r.reason.clone()))
            .collect();
        Report {
            earlier: f.earlier,
            file: FileRow::of(f),
            refused,
            more,
        }
    }
}

/// A line's month as the page shows it.
pub(crate) struct LineRow {
    line: String,
    name: String,
    scheduled: usize,
    made: usize,
    tickets: usize,
    occupancy: String,
}

/// A finding as the page shows it.
pub(crate) struct FindingRow {
    key: String,
    kind: &'static str,
    when: String,
    infraction: String,
    articles: String,
    detail: String,
    auto: Option<(i32, i64)>,
}

fn kind_name(kind: outorga_core::model::FindingKind) -> &'static str {
    use outorga_core::model::FindingKind as K;
    match kind {
        K::SeatSoldTwice => "poltrona vendida duas vezes",
        K::OverCapacity => "passageiros além das poltronas",
        K::TicketFields => "bilhete sem as indicações da lei",
        K::BelowMinimumFrequency => "abaixo da frequência mínima",
        K::LateStatistics => "estatísticas em atraso",
    }
}

#[derive(Template)]
#[template(path = "transportadora.html")]
struct CarrierPage {
    user: Option<Bar>,
    j: String,
    place: String,
    document: String,
    bare: String,
    name: String,
    /// The month shown (AAAA-MM) and as people read it.
    month: String,
    month_text: String,
    due: String,
    delivered: String,
    due_articles: String,
    lines: Vec<LineRow>,
    findings: Vec<FindingRow>,
    files: Listed<FileRow>,
    kinds: Vec<(&'static str, &'static str)>,
    clerk: bool,
    inspector: bool,
    report: Option<Report>,
    error: Option<(String, String)>,
    max_mb: usize,
    charters: Vec<CharterRow>,
    charter_kinds: Vec<(&'static str, &'static str)>,
    /// The charter form as sent (refused), and the notice of one authorized.
    charter_form: CharterForm,
    charter_error: Option<String>,
    notice: Option<String>,
    charter_file_kinds: Vec<(&'static str, &'static str)>,
    charter_max_mb: usize,
    /// Where the law keeps the register of the carriers authorized: its
    /// articles, the carrier's registrations (newest first), the form.
    register: Option<RegisterRules>,
    registrations: Vec<RegistrationRow>,
    registration_kinds: Vec<(&'static str, &'static str)>,
    registration_max_mb: usize,
    registration_error: Option<String>,
}

/// The articles of the register, as the page cites them.
pub(crate) struct RegisterRules {
    register: String,
    on_board: String,
    valid: String,
    cancellation: String,
}

/// A registration as the carrier's page shows it.
pub(crate) struct RegistrationRow {
    label: String,
    year: i32,
    number: i64,
    granted: String,
    period: String,
    renews: Option<String>,
    /// "em vigor", "a vigorar", "vencido", "cassado em …".
    state: String,
    /// Whether it may still be cancelled (not cancelled, not run out).
    cancellable: bool,
    cancelled: Option<(String, String, String)>,
    recorded_by: String,
    articles: String,
    files: Vec<FileLink>,
    /// The code of its paper (the copy the bus carries), when issued.
    paper: Option<String>,
}

/// A kept file as a page links it.
pub(crate) struct FileLink {
    seq: i64,
    kind: &'static str,
    name: String,
    size: String,
    sha256: String,
}

impl RegistrationRow {
    fn of(r: CarrierRegistration, today: NaiveDate) -> RegistrationRow {
        let in_force = r.in_force_on(today);
        let state = match &r.cancelled {
            Some((on, _, _)) => format!("cassado em {}", format::day(*on)),
            None if in_force => "em vigor".into(),
            None if r.valid_from > today => "a vigorar".into(),
            None => "vencido".into(),
        };
        RegistrationRow {
            label: r.label(),
            year: r.year,
            number: r.number,
            granted: format::day(r.granted_on),
            period: format!(
                "{} a {}",
                format::day(r.valid_from),
                format::day(r.valid_until)
            ),
            renews: r.renews.clone(),
            cancellable: r.cancelled.is_none() && r.valid_until >= today,
            state,
            cancelled: r
                .cancelled
                .map(|(on, why, article)| (format::day(on), why, article)),
            recorded_by: r.recorded_by,
            articles: r.articles.join("; "),
            files: r
                .files
                .into_iter()
                .map(|f| FileLink {
                    seq: f.file.seq,
                    kind: f.kind.portuguese(),
                    name: f.file.name,
                    size: format::size(f.file.size),
                    sha256: f.file.sha256,
                })
                .collect(),
            paper: None,
        }
    }
}

/// A service authorized as the carrier's page lists it.
pub(crate) struct CharterRow {
    key: (i32, i64),
    number: String,
    kind: &'static str,
    period: String,
    route: String,
    plate: String,
    passengers: usize,
    code: String,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Asked {
    mes: Option<String>,
    cursor: Option<String>,
    fretamento: Option<String>,
    registro: Option<String>,
}

/// The month shown: the one asked, or last month.
fn month_of(asked: Option<&str>, today: NaiveDate) -> NaiveDate {
    asked
        .and_then(|m| parse_month(m).ok())
        .unwrap_or_else(|| outorga_store::last_month(today))
}

#[derive(Default)]
struct Shown {
    month: Option<String>,
    cursor: Option<String>,
    report: Option<Report>,
    error: Option<(String, String)>,
    charter_form: CharterForm,
    charter_error: Option<String>,
    notice: Option<String>,
    registration_error: Option<String>,
}

async fn carrier_page(
    state: &AppState,
    signed: &Signed,
    (j, document): (&str, &str),
    shown: Shown,
) -> Response {
    let place = match place(state, signed, j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let Ok((bare, _)) = outorga_store::parse_document(document) else {
        return refusal(
            signed,
            StatusCode::NOT_FOUND,
            "Transportadora não encontrada",
            &format!("{document} não é CNPJ."),
        );
    };
    let rulebook = match bus_rulebook(state, &place.id).await {
        Ok(r) => r,
        Err(error) => {
            return refusal(
                signed,
                error.status,
                "Sem ônibus intermunicipal",
                &error.body.erro,
            );
        }
    };
    let name = match state.store.registered(&place.id, &bare).await {
        Ok(Some(r)) => r.name,
        Ok(None) => {
            return refusal(
                signed,
                StatusCode::NOT_FOUND,
                "Transportadora não encontrada",
                &format!(
                    "{} não está cadastrada em {}.",
                    format::document(&bare),
                    place.name
                ),
            );
        }
        Err(error) => {
            tracing::error!(%error, "a carrier could not be read");
            return failure();
        }
    };
    let month = month_of(shown.month.as_deref(), place.today);
    let view: MonthView = match state
        .store
        .carrier_month(rulebook, &place.id, &bare, month, place.today)
        .await
    {
        Ok(view) => view,
        Err(error) => {
            tracing::error!(%error, "a carrier's month could not be read");
            return failure();
        }
    };
    let files = match listed(
        shown.cursor,
        20,
        async |window| state.store.carrier_files(&place.id, &bare, window).await,
        FileRow::of,
    )
    .await
    {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    let charters = match state.store.recent_charters(&place.id, &bare, 20).await {
        Ok(list) => list,
        Err(error) => {
            tracing::error!(%error, "a carrier's charters could not be read");
            return failure();
        }
    };
    let registrations = match state
        .store
        .carrier_registrations(&place.id, &bare, outorga_store::Window::first(10))
        .await
    {
        Ok(page) => page.items,
        Err(error) => {
            tracing::error!(%error, "a carrier's registrations could not be read");
            return failure();
        }
    };
    let mut registrations: Vec<RegistrationRow> = registrations
        .into_iter()
        .map(|r| RegistrationRow::of(r, place.today))
        .collect();
    for row in &mut registrations {
        let filter = outorga_store::DocumentFilter {
            subject: Some(format!("carrier_registration:{}:{}", row.year, row.number)),
            kind: Some("carrier_registration".into()),
            ..outorga_store::DocumentFilter::default()
        };
        match state
            .store
            .documents(&place.id, &filter, outorga_store::Window::first(1))
            .await
        {
            Ok(page) => row.paper = page.items.into_iter().next().map(|d| d.code),
            Err(error) => {
                tracing::error!(%error, "a registration's paper could not be read");
                return failure();
            }
        }
    }
    let register = rulebook
        .bus
        .as_ref()
        .and_then(|b| b.charters.as_ref())
        .and_then(|c| c.registration.as_ref())
        .map(|r| RegisterRules {
            register: r.register.clone(),
            on_board: r.on_board.clone(),
            valid: r.valid.citation.clone(),
            cancellation: r.cancellation.clone(),
        });
    let status = if shown.error.is_some()
        || shown.charter_error.is_some()
        || shown.registration_error.is_some()
    {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    page(
        status,
        &CarrierPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            document: format::document(&bare),
            bare: bare.clone(),
            name,
            month: month.format("%Y-%m").to_string(),
            month_text: month.format("%m/%Y").to_string(),
            due: format::day(view.due),
            delivered: format::maybe_day(view.delivered),
            due_articles: view.due_articles.join("; "),
            lines: view
                .lines
                .into_iter()
                .map(|l| LineRow {
                    line: l.line,
                    name: l.name,
                    scheduled: l.scheduled,
                    made: l.made,
                    tickets: l.tickets,
                    occupancy: l
                        .occupancy
                        .map(|o| format!("{} %", format::decimal(&o.to_string())))
                        .unwrap_or_else(|| "—".into()),
                })
                .collect(),
            findings: view
                .findings
                .into_iter()
                .map(|f| FindingRow {
                    kind: kind_name(f.kind),
                    when: f.at.format("%d/%m/%Y %H:%M").to_string(),
                    infraction: f.infraction,
                    articles: f.articles.join("; "),
                    detail: f.detail,
                    auto: f.auto,
                    key: f.key,
                })
                .collect(),
            files,
            kinds: CarrierFileKind::ALL
                .iter()
                .map(|k| (k.name(), k.portuguese()))
                .collect(),
            clerk: Clerk::admits(signed.user.role),
            inspector: Inspector::admits(signed.user.role),
            report: shown.report,
            error: shown.error,
            max_mb: outorga_store::MAX_CARRIER_FILE_BYTES / 1024 / 1024,
            charters: charters
                .into_iter()
                .map(|c| CharterRow {
                    key: (c.year, c.number),
                    number: format!("{}/{}", c.number, c.year),
                    kind: c.input.kind.portuguese(),
                    period: format!(
                        "{} a {}",
                        format::day(c.input.from),
                        format::day(c.input.until)
                    ),
                    route: format!(
                        "{} – {} – {}",
                        c.input.origin, c.input.destination, c.input.end
                    ),
                    plate: c.input.plate,
                    passengers: c.input.passengers.len(),
                    code: c.document.code,
                })
                .collect(),
            charter_kinds: outorga_core::engine::charter::CharterKind::ALL
                .iter()
                .map(|k| (k.name(), k.portuguese()))
                .collect(),
            charter_form: shown.charter_form,
            charter_error: shown.charter_error,
            notice: shown.notice,
            charter_file_kinds: CharterFileKind::ALL
                .iter()
                .map(|k| (k.name(), k.portuguese()))
                .collect(),
            charter_max_mb: outorga_store::CHARTER_MAX_BYTES / 1024 / 1024,
            register,
            registrations,
            registration_kinds: RegistrationFileKind::ALL
                .iter()
                .map(|k| (k.name(), k.portuguese()))
                .collect(),
            registration_max_mb: outorga_store::REGISTRATION_MAX_BYTES / 1024 / 1024,
            registration_error: shown.registration_error,
        },
    )
}

/// The carrier's page.
pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    Query(asked): Query<Asked>,
) -> Response {
    let shown = Shown {
        month: asked.mes,
        cursor: asked.cursor,
        notice: asked
            .fretamento
            .map(|n| format!("Autorização nº {n} emitida: imprima-a abaixo, ela segue no ônibus."))
            .or_else(|| {
                asked.registro.map(|n| {
                    format!("Registro cadastral nº {n} gravado: uma cópia segue no ônibus em cada fretamento.")
                })
            }),
        ..Shown::default()
    };
    carrier_page(&state, &signed, (&j, &document), shown).await
}

/// Imports a file the clerk sends; the page reports what it added.
pub(crate) async fn import(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    // The role is checked before the file is read.
    if let Err(refused) = crate::session::clerk_only(&signed, "importar arquivos da transportadora")
    {
        return *refused;
    }
    let refused = async |month: Option<String>, error: (String, String)| {
        let shown = Shown {
            month,
            error: Some(error),
            ..Shown::default()
        };
        carrier_page(&state, &signed, (&j, &document), shown).await
    };
    let Ok(multipart) = multipart else {
        let message = "o formulário não trouxe o arquivo: escolha-o e envie pelo botão Importar";
        return refused(None, ("arquivo".into(), message.into())).await;
    };
    let sent = match upload(multipart, outorga_store::MAX_CARRIER_FILE_BYTES).await {
        Ok(sent) => sent,
        Err(message) => return refused(None, ("arquivo".into(), message)).await,
    };
    if let Err(refused) = checked_form(&signed, sent.field("csrf"), Clerk::admits) {
        return *refused;
    }
    let month_text = sent.field("mes").to_string();
    let done = async {
        let rulebook = bus_rulebook(&state, &j).await?;
        let kind = CarrierFileKind::parse(sent.field("tipo")).ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "tipo",
                "escolha o que o arquivo traz",
            )
        })?;
        let month = parse_month(&month_text)?;
        let (bare, _) = outorga_store::parse_document(&document)?;
        if sent.bytes.is_empty() {
            return Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "arquivo",
                "escolha o arquivo",
            ));
        }
        let change = Change {
            by: &signed.user.name,
            at: state.clock.now(),
            why: "arquivo da transportadora pela tela",
        };
        Ok::<_, ApiError>(
            state
                .store
                .import_carrier_file(
                    &change,
                    rulebook,
                    &j,
                    &bare,
                    (kind, month),
                    (&sent.file_name, &sent.bytes),
                )
                .await?,
        )
    }
    .await;
    match done {
        Ok(file) => {
            let shown = Shown {
                month: Some(file.month.format("%Y-%m").to_string()),
                report: Some(Report::of(file)),
                ..Shown::default()
            };
            carrier_page(&state, &signed, (&j, &document), shown).await
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a carrier's file could not be imported");
            failure()
        }
        Err(error) => refused(Some(month_text), form_error(&error)).await,
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct FindingForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    mes: String,
    #[serde(default)]
    chave: String,
}

/// Turns a finding into an auto; its page follows.
pub(crate) async fn auto(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    Form(form): Form<FindingForm>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &form.csrf, Inspector::admits) {
        return *refused;
    }
    let done = async {
        let rulebook = bus_rulebook(&state, &j).await?;
        let (bare, _) = outorga_store::parse_document(&document)?;
        let change = Change {
            by: &signed.user.name,
            at: state.clock.now(),
            why: "auto a partir dos dados da transportadora",
        };
        Ok::<_, ApiError>(
            state
                .store
                .auto_from_finding(&change, rulebook, &j, (&bare, &form.mes), &form.chave)
                .await?,
        )
    }
    .await;
    match done {
        Ok(auto) => {
            Redirect::to(&format!("/j/{j}/autos/{}/{}", auto.year, auto.number)).into_response()
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a finding could not become an auto");
            failure()
        }
        Err(error) => {
            let shown = Shown {
                month: Some(form.mes.clone()),
                error: Some(form_error(&error)),
                ..Shown::default()
            };
            carrier_page(&state, &signed, (&j, &document), shown).await
        }
    }
}

/// What the charter form holds.
#[derive(Debug, Default)]
pub(crate) struct CharterForm {
    tipo: String,
    de: String,
    ate: String,
    origem: String,
    destino: String,
    retorno: String,
    itinerario: String,
    placa: String,
    contratante: String,
    documento_contratante: String,
    nota_fiscal: String,
    contrato: String,
    viagens: String,
    linha: String,
    /// One passenger a line: the name, and the document after a `;`.
    passageiros: String,
}

impl CharterForm {
    fn of(sent: &Upload) -> CharterForm {
        let field = |name: &str| sent.field(name).to_string();
        CharterForm {
            tipo: field("tipo"),
            de: field("de"),
            ate: field("ate"),
            origem: field("origem"),
            destino: field("destino"),
            retorno: field("retorno"),
            itinerario: field("itinerario"),
            placa: field("placa"),
            contratante: field("contratante"),
            documento_contratante: field("documento_contratante"),
            nota_fiscal: field("nota_fiscal"),
            contrato: field("contrato"),
            viagens: field("viagens"),
            linha: field("linha"),
            passageiros: field("passageiros"),
        }
    }
}

/// The files of a form sent under `prefix` + a kind's name, each with its
/// kind (a field of another name, or an unknown kind: refused naming it).
fn kinded_files<K: Copy>(
    sent: &mut Upload,
    prefix: &str,
    parse: fn(&str) -> Option<K>,
) -> Result<Vec<(K, outorga_store::Attachment)>, String> {
    std::mem::take(&mut sent.named)
        .into_iter()
        .map(|(field, name, bytes)| {
            let kind = field.strip_prefix(prefix).and_then(parse).ok_or_else(|| {
                format!("o formulário trouxe um arquivo em `{field}`, que não é de nenhum tipo")
            })?;
            Ok((kind, outorga_store::Attachment { name, bytes }))
        })
        .collect()
}

/// The body limit of a form with files: the files and the rest of the form.
pub(crate) const fn form_with_files(bytes: usize) -> usize {
    bytes + 256 * 1024
}

/// Asks for a charter or an emergency service, with its files: authorized
/// when the law allows it (its number follows), or refused with the
/// reasons and articles.
pub(crate) async fn charter(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    // The role is checked before the files are read.
    if let Err(refused) = crate::session::clerk_only(&signed, "pedir autorização de fretamento") {
        return *refused;
    }
    let refused = async |form: CharterForm, message: String| {
        let shown = Shown {
            charter_error: Some(message),
            charter_form: form,
            ..Shown::default()
        };
        carrier_page(&state, &signed, (&j, &document), shown).await
    };
    let Ok(multipart) = multipart else {
        let message =
            "o formulário chegou incompleto: envie de novo pelo botão Pedir a autorização";
        return refused(CharterForm::default(), message.into()).await;
    };
    let mut sent = match upload(multipart, outorga_store::CHARTER_MAX_BYTES).await {
        Ok(sent) => sent,
        Err(message) => return refused(CharterForm::default(), message).await,
    };
    if let Err(refused) = checked_form(&signed, sent.field("csrf"), Clerk::admits) {
        return *refused;
    }
    let form = CharterForm::of(&sent);
    let files = match kinded_files(&mut sent, "anexo_", CharterFileKind::parse) {
        Ok(files) => files,
        Err(message) => return refused(form, message).await,
    };
    let given = |text: &str| Some(text.trim().to_string()).filter(|t| !t.is_empty());
    let viagens = match given(&form.viagens).map(|n| n.parse::<u32>()) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => {
            let message = "a quantidade de viagens é um número, como 480".to_string();
            return refused(form, message).await;
        }
    };
    let input = outorga_web::workflows::FretamentoEntrada {
        viagens,
        transportadora: document.clone(),
        tipo: form.tipo.clone(),
        de: form.de.clone(),
        ate: form.ate.clone(),
        origem: form.origem.clone(),
        destino: form.destino.clone(),
        retorno: form.retorno.clone(),
        itinerario: form.itinerario.clone(),
        placa: form.placa.clone(),
        contratante: form.contratante.clone(),
        documento_contratante: given(&form.documento_contratante),
        nota_fiscal: given(&form.nota_fiscal),
        contrato: given(&form.contrato),
        linha: given(&form.linha),
        passageiros: crate::forms::filled_lines(&form.passageiros)
            .into_iter()
            .map(|l| {
                let (name, doc) = l.split_once(';').unwrap_or((l, ""));
                outorga_web::workflows::PassageiroEntrada {
                    nome: name.trim().to_string(),
                    documento: doc.trim().to_string(),
                }
            })
            .collect(),
        anexos: Vec::new(),
    };
    let done = async {
        let rulebook = bus_rulebook(&state, &j).await?;
        let mut asked = outorga_web::workflows::charter_input(&input)?;
        asked.files = files
            .into_iter()
            .map(|(kind, file)| outorga_store::CharterDocument { kind, file })
            .collect();
        let change = Change {
            by: &signed.user.name,
            at: state.clock.now(),
            why: "fretamento pela tela",
        };
        Ok::<_, ApiError>(
            state
                .store
                .authorize_charter(&change, rulebook, &j, &asked)
                .await?,
        )
    }
    .await;
    match done {
        Ok(c) => Redirect::to(&format!(
            "/j/{j}/transportadoras/{}?fretamento={}/{}#fretamentos",
            c.input.carrier, c.number, c.year
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a charter could not be authorized");
            failure()
        }
        Err(error) => refused(form, form_error(&error).1).await,
    }
}

/// Registers the carrier in the register of the carriers authorized, or
/// renews its registration, with the documents it presented.
pub(crate) async fn register(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = crate::session::clerk_only(&signed, "registrar a transportadora") {
        return *refused;
    }
    let refused = async |message: String| {
        let shown = Shown {
            registration_error: Some(message),
            ..Shown::default()
        };
        carrier_page(&state, &signed, (&j, &document), shown).await
    };
    let Ok(multipart) = multipart else {
        return refused(
            "o formulário chegou incompleto: envie de novo pelo botão Registrar".into(),
        )
        .await;
    };
    let mut sent = match upload(multipart, outorga_store::REGISTRATION_MAX_BYTES).await {
        Ok(sent) => sent,
        Err(message) => return refused(message).await,
    };
    if let Err(refused) = checked_form(&signed, sent.field("csrf"), Clerk::admits) {
        return *refused;
    }
    let documents = match kinded_files(&mut sent, "documento_", RegistrationFileKind::parse) {
        Ok(files) => files
            .into_iter()
            .map(|(kind, file)| outorga_store::RegistrationDocument { kind, file })
            .collect::<Vec<_>>(),
        Err(message) => return refused(message).await,
    };
    let done = async {
        let rulebook = bus_rulebook(&state, &j).await?;
        let change = Change {
            by: &signed.user.name,
            at: state.clock.now(),
            why: "registro cadastral pela tela",
        };
        Ok::<_, ApiError>(
            state
                .store
                .register_carrier(&change, rulebook, &j, &document, &documents)
                .await?,
        )
    }
    .await;
    match done {
        Ok(r) => Redirect::to(&format!(
            "/j/{j}/transportadoras/{}?registro={}#registro",
            r.carrier,
            r.label()
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a carrier could not be registered");
            failure()
        }
        Err(error) => refused(form_error(&error).1).await,
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct CancelForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    motivo: String,
}

/// Cancels the carrier's registration (art. 28, § 5º), on the grounds the
/// clerk writes.
pub(crate) async fn cancel(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document, year, number)): Path<(String, String, i32, i64)>,
    Form(form): Form<CancelForm>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let done = async {
        let rulebook = bus_rulebook(&state, &j).await?;
        let (bare, _) = outorga_store::parse_document(&document)?;
        let found = state.store.carrier_registration(&j, (year, number)).await?;
        if found.carrier != bare {
            return Err(ApiError::not_found(format!(
                "o registro nº {number}/{year} não é desta transportadora"
            )));
        }
        let change = Change {
            by: &signed.user.name,
            at: state.clock.now(),
            why: "cassação do registro cadastral pela tela",
        };
        Ok::<_, ApiError>(
            state
                .store
                .cancel_carrier_registration(&change, rulebook, &j, (year, number), &form.motivo)
                .await?,
        )
    }
    .await;
    match done {
        Ok(r) => {
            Redirect::to(&format!("/j/{j}/transportadoras/{}#registro", r.carrier)).into_response()
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a registration could not be cancelled");
            failure()
        }
        Err(error) => {
            let shown = Shown {
                registration_error: Some(form_error(&error).1),
                ..Shown::default()
            };
            carrier_page(&state, &signed, (&j, &document), shown).await
        }
    }
}

/// A document of a carrier's registration, downloaded.
pub(crate) async fn registration_file(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document, year, number, seq)): Path<(String, String, i32, i64, i64)>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    let missing = || {
        refusal(
            &signed,
            StatusCode::NOT_FOUND,
            "Documento não encontrado",
            "Não há documento com este número neste registro.",
        )
    };
    let Ok((bare, _)) = outorga_store::parse_document(&document) else {
        return missing();
    };
    match state.store.carrier_registration(&j, (year, number)).await {
        Ok(r) if r.carrier == bare => {}
        Ok(_) | Err(outorga_store::StoreError::NotFound(_)) => return missing(),
        Err(error) => {
            tracing::error!(%error, "a registration could not be read");
            return failure();
        }
    }
    match state
        .store
        .carrier_registration_file(&j, (year, number), seq)
        .await
    {
        Ok(Some((name, kind, bytes))) => {
            outorga_web::workflows::attachment_file(&name, &kind, bytes)
        }
        Ok(None) => missing(),
        Err(error) => {
            tracing::error!(%error, "a registration's document could not be read");
            failure()
        }
    }
}

#[derive(Template)]
#[template(path = "fretamento.html")]
struct CharterPage {
    user: Option<Bar>,
    j: String,
    year: i32,
    number: i64,
    carrier: String,
    carrier_name: String,
    kind: &'static str,
    period: String,
    route: String,
    plate: String,
    client: String,
    invoice: String,
    contract: String,
    trips: String,
    line: String,
    passengers: usize,
    registration: String,
    authorized: String,
    code: String,
    articles: String,
    files: Vec<FileLink>,
}

/// A charter's page: what was authorized, its paper and its files.
pub(crate) async fn charter_page(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number)): Path<(String, i32, i64)>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let c = match state.store.charter(&place.id, (year, number)).await {
        Ok(c) => c,
        Err(outorga_store::StoreError::NotFound(what)) => {
            return refusal(
                &signed,
                StatusCode::NOT_FOUND,
                "Autorização não encontrada",
                &what,
            );
        }
        Err(error) => {
            tracing::error!(%error, "a charter could not be read");
            return failure();
        }
    };
    let carrier_name = match state.store.registered(&place.id, &c.input.carrier).await {
        Ok(found) => found.map(|r| r.name).unwrap_or_default(),
        Err(error) => {
            tracing::error!(%error, "a charter's carrier could not be read");
            return failure();
        }
    };
    let input = c.input;
    page(
        StatusCode::OK,
        &CharterPage {
            user: Some(Bar::of(&signed)),
            j: place.id.clone(),
            year,
            number,
            carrier: input.carrier.clone(),
            carrier_name,
            kind: input.kind.portuguese(),
            period: format!("{} a {}", format::day(input.from), format::day(input.until)),
            route: format!("{} – {} – {}", input.origin, input.destination, input.end),
            plate: input.plate,
            client: input.client,
            invoice: input.invoice.unwrap_or_default(),
            contract: input.contract.unwrap_or_default(),
            trips: input.trips.map(|n| n.to_string()).unwrap_or_default(),
            line: input.line.unwrap_or_default(),
            passengers: input.passengers.len(),
            registration: c.registration.unwrap_or_default(),
            authorized: format::day(c.authorized_on),
            code: c.document.code,
            articles: c.articles.join("; "),
            files: c
                .files
                .into_iter()
                .map(|f| FileLink {
                    seq: f.file.seq,
                    kind: f.kind.portuguese(),
                    name: f.file.name,
                    size: format::size(f.file.size),
                    sha256: f.file.sha256,
                })
                .collect(),
        },
    )
}

/// A charter's file, downloaded.
pub(crate) async fn charter_file(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    match state.store.charter_file(&j, (year, number), seq).await {
        Ok(Some((name, kind, bytes))) => {
            outorga_web::workflows::attachment_file(&name, &kind, bytes)
        }
        Ok(None) => refusal(
            &signed,
            StatusCode::NOT_FOUND,
            "Arquivo não encontrado",
            "Não há arquivo com este número nesta autorização.",
        ),
        Err(error) => {
            tracing::error!(%error, "a charter's file could not be read");
            failure()
        }
    }
}
