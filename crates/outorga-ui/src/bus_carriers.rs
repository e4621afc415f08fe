//! A bus carrier's own data (`/j/{j}/transportadoras/{documento}`): the
//! files it handed in (tickets as CSV or BP-e XML, monthly statistics), the
//! form to import one — with the report of every row refused by its line —
//! and a month's view: per line the trips scheduled and made, the tickets
//! and the occupancy, and the findings its data shows, each with its article
//! and a button to turn it into an auto. The same store functions as
//! `…/carriers/{transportadora}/…` of the API.

use crate::autos::form_error;
use crate::format;
use crate::forms::{Listed, listed, upload};
use crate::pages::{Bar, failure, page};
use crate::place::{place, refusal};
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::NaiveDate;
use outorga_store::{CarrierFile, CarrierFileKind, Change, MonthView, parse_month};
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
        K::OverCapacity => "mais bilhetes que poltronas",
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
}

/// A service authorized as the carrier's page lists it.
pub(crate) struct CharterRow {
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
    let status = if shown.error.is_some() || shown.charter_error.is_some() {
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
            .map(|n| format!("Autorização nº {n} emitida: imprima-a abaixo, ela segue no ônibus.")),
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
#[derive(Debug, Default, Deserialize)]
pub(crate) struct CharterForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    tipo: String,
    #[serde(default)]
    de: String,
    #[serde(default)]
    ate: String,
    #[serde(default)]
    origem: String,
    #[serde(default)]
    destino: String,
    #[serde(default)]
    retorno: String,
    #[serde(default)]
    itinerario: String,
    #[serde(default)]
    placa: String,
    #[serde(default)]
    contratante: String,
    #[serde(default)]
    documento_contratante: String,
    #[serde(default)]
    nota_fiscal: String,
    #[serde(default)]
    contrato: String,
    #[serde(default)]
    linha: String,
    /// One passenger a line: the name, and the document after a `;`.
    #[serde(default)]
    passageiros: String,
}

/// Asks for a charter or an emergency service: authorized when the law
/// allows it (its number follows), or refused with the reasons and articles.
pub(crate) async fn charter(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, document)): Path<(String, String)>,
    Form(form): Form<CharterForm>,
) -> Response {
    if let Err(refused) = place(&state, &signed, &j) {
        return *refused;
    }
    if let Err(refused) = checked_form(&signed, &form.csrf, Clerk::admits) {
        return *refused;
    }
    let given = |text: &str| Some(text.trim().to_string()).filter(|t| !t.is_empty());
    let input = outorga_web::workflows::FretamentoEntrada {
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
    };
    let done = async {
        let rulebook = bus_rulebook(&state, &j).await?;
        let asked = outorga_web::workflows::charter_input(&input)?;
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
        Err(error) => {
            let shown = Shown {
                charter_error: Some(form_error(&error).1),
                charter_form: form,
                ..Shown::default()
            };
            carrier_page(&state, &signed, (&j, &document), shown).await
        }
    }
}
