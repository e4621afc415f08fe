//! The audit log on screen (`/auditoria`), for whom the API lets read it
//! (the board and administrators: `GET /api/audit`'s capability): a page
//! at a time by keyset over the log's indexes (migration 0021: by subject,
//! by moment), so a page costs the same however long the log; filtered by
//! subject and days; each entry's moment in its jurisdiction's time, who,
//! the action in Portuguese, the subject and the reason. "Verificar" runs
//! the store's verification as `GET /api/audit/verify` does (one at a
//! time per server) and says whether the log and the records are intact
//! or what is wrong. Through `outorga_web::workflows` (`audit_entries`,
//! `verify_audit`).

use crate::autos::form_error;
use crate::forms::query_text;
use crate::pages::{Bar, failure, page};
use crate::place::refusal;
use crate::session::{Signed, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::NaiveDateTime;
use outorga_core::engine::process::StepKind;
use outorga_store::LoggedChange;
use outorga_web::auth::Board;
use outorga_web::page::{Lista, Pagina};
use outorga_web::workflows::{Filtro, Verificacao, audit_entries, verify_audit};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// Entries per page.
const PER_PAGE: u32 = 50;

/// What the codes of the log's actions mean, for staff.
const ACTIONS: &[(&str, &str)] = &[
    ("audit.baseline", "registro descrito no início do selo"),
    ("audit.checkpoint", "ponto de verificação do registro"),
    ("audit.key_rotated", "chave do registro trocada"),
    ("audit.schema", "estrutura do banco registrada"),
    ("audit.seal", "registro selado"),
    ("auto.issued", "auto de infração lavrado"),
    ("auto.upgrade", "auto atualizado a um novo formato"),
    ("debt.create", "débito lançado"),
    ("debt.payment", "pagamento registrado"),
    ("debt.split", "débito parcelado"),
    ("document.issue", "documento emitido"),
    (
        "jurisdiction.sync",
        "jurisdições e regulamentos atualizados",
    ),
    ("line.register", "linha cadastrada"),
    ("parameter.set", "parâmetro alterado"),
    ("permit.driver_add", "condutor vinculado à permissão"),
    ("permit.driver_remove", "condutor desvinculado da permissão"),
    ("permit.driver_renewal", "matrícula de condutor renovada"),
    ("person.register", "pessoa cadastrada"),
    ("person.update", "cadastro de pessoa atualizado"),
    ("quota.release", "vaga reservada liberada"),
    ("sanction.apply", "penalidade aplicada"),
    ("sanction.end", "penalidade encerrada"),
    ("session.close", "fim de sessão"),
    ("session.open", "início de sessão"),
    ("sign_ins.prune", "tentativas de entrada antigas apagadas"),
    ("stand.register", "ponto de táxi cadastrado"),
    ("token.create", "token de API criado"),
    ("token.revoke", "token de API revogado"),
    ("user.create", "usuário cadastrado"),
    ("user.disable", "usuário removido"),
    ("user.password", "senha trocada"),
    ("vehicle.inspection", "vistoria registrada"),
    ("vehicle.register", "veículo cadastrado"),
];

/// An action of the log in Portuguese; its code when it has no name.
fn action_pt(code: &str) -> String {
    if let Some((_, name)) = ACTIONS.iter().find(|(c, _)| *c == code) {
        return (*name).to_string();
    }
    if let Some(step) = code.strip_prefix("auto.")
        && let Some(kind) = StepKind::ALL.iter().find(|k| k.name() == step)
    {
        return format!("auto de infração: {}", kind.portuguese());
    }
    if let Some(event) = code.strip_prefix("permit.vehicle_") {
        return format!("veículo da permissão: {}", event.replace('_', " "));
    }
    if let Some(event) = code.strip_prefix("permit.") {
        let name = outorga_store::event_pt(event);
        if name != "evento" {
            return format!("permissão: {name}");
        }
    }
    code.to_string()
}

#[derive(Debug)]
struct EntryRow {
    seq: i64,
    at: String,
    actor: String,
    action: String,
    code: String,
    subject: String,
    /// The subject for the filter's link.
    subject_query: String,
    jurisdiction: String,
    reason: String,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Asked {
    #[serde(default)]
    assunto: String,
    #[serde(default)]
    de: String,
    #[serde(default)]
    ate: String,
    cursor: Option<String>,
    #[serde(default)]
    csrf: String,
}

#[derive(Template)]
#[template(path = "auditoria.html")]
struct AuditPage {
    user: Option<Bar>,
    subject: String,
    from: String,
    to: String,
    rows: Vec<EntryRow>,
    next: Option<String>,
    filters: String,
    /// A refused filter: (field, message).
    error: Option<(String, String)>,
    /// The verification just run, or why it could not run.
    verified: Option<Verified>,
}

impl AuditPage {
    fn error_on(&self, field: &str) -> Option<&str> {
        match &self.error {
            Some((f, message)) if f == field => Some(message.as_str()),
            _ => None,
        }
    }
}

#[derive(Debug)]
enum Verified {
    Done(Verificacao),
    Busy(String),
}

/// A day as the form sends it (`aaaa-mm-dd` from the date input, or
/// `dd/mm/aaaa` typed): given to the workflow as it is, which reads both.
fn day_field(text: &str) -> Option<String> {
    Some(text.trim().to_string()).filter(|t| !t.is_empty())
}

/// The moment of an entry in its jurisdiction's time, or in UTC.
fn moment(state: &AppState, entry: &LoggedChange) -> String {
    let Ok(utc) =
        NaiveDateTime::parse_from_str(entry.at.trim_end_matches('Z'), "%Y-%m-%dT%H:%M:%S%.f")
    else {
        return entry.at.clone();
    };
    let zone = entry.jurisdiction.as_deref().and_then(|j| {
        state
            .library
            .rulebooks()
            .find(|r| r.jurisdiction.id == j)
            .map(|r| &r.jurisdiction)
    });
    match zone {
        Some(j) => j.local(utc).format("%d/%m/%Y %H:%M:%S").to_string(),
        None => utc.format("%d/%m/%Y %H:%M:%S UTC").to_string(),
    }
}

async fn audit_page(
    state: &AppState,
    signed: &Signed,
    asked: Asked,
    verified: Option<Verified>,
) -> Response {
    let filtro = Filtro {
        assunto: Some(asked.assunto.trim().to_string()).filter(|s| !s.is_empty()),
        de: day_field(&asked.de),
        ate: day_field(&asked.ate),
        ..Filtro::default()
    };
    let paging = Pagina {
        limite: Some(PER_PAGE),
        cursor: asked.cursor.clone(),
    };
    let listed = match paging.asked() {
        Err(_) => Err((
            "cursor".to_string(),
            "O endereço da página foi alterado: volte à primeira página.".to_string(),
        )),
        Ok(window) => match audit_entries(state, &signed.user, &filtro, window.window()).await {
            Ok(entries) => Ok(Lista::with(entries, |e| EntryRow {
                seq: e.seq,
                at: moment(state, &e),
                action: action_pt(&e.action),
                code: e.action,
                jurisdiction: e.jurisdiction.unwrap_or_default(),
                actor: e.actor,
                subject_query: query_text(&e.subject),
                subject: e.subject,
                reason: e.reason,
            })),
            Err(error) if error.status.is_server_error() => {
                tracing::error!(erro = %error.body.erro, "the audit log could not be read");
                return failure();
            }
            Err(error) => Err(form_error(&error)),
        },
    };
    let (rows, next, error) = match listed {
        Ok(list) => (list.itens, list.proximo, None),
        Err(error) => (Vec::new(), None, Some(error)),
    };
    let status = match (&error, &verified) {
        (Some(_), _) => StatusCode::UNPROCESSABLE_ENTITY,
        (None, Some(Verified::Busy(_))) => StatusCode::TOO_MANY_REQUESTS,
        _ => StatusCode::OK,
    };
    page(
        status,
        &AuditPage {
            user: Some(Bar::of(signed)),
            filters: format!(
                "assunto={}&de={}&ate={}",
                query_text(asked.assunto.trim()),
                query_text(asked.de.trim()),
                query_text(asked.ate.trim())
            ),
            subject: asked.assunto,
            from: asked.de,
            to: asked.ate,
            rows,
            next,
            error,
            verified,
        },
    )
}

/// Who may read the log: the API's capability for `GET /api/audit`.
fn readers_only(signed: &Signed) -> Result<(), Box<Response>> {
    if Board::admits(signed.user.role) {
        return Ok(());
    }
    Err(Box::new(refusal(
        signed,
        StatusCode::FORBIDDEN,
        "Sem acesso ao registro de auditoria",
        &format!(
            "O registro de auditoria é lido pela junta/comissão e pelos administradores; o papel {} não o permite.",
            signed.user.role.label()
        ),
    )))
}

pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Query(asked): Query<Asked>,
) -> Response {
    if let Err(refused) = readers_only(&signed) {
        return *refused;
    }
    audit_page(&state, &signed, asked, None).await
}

pub(crate) async fn verify(
    State(state): State<AppState>,
    signed: Signed,
    Form(asked): Form<Asked>,
) -> Response {
    if let Err(refused) = checked_form(&signed, &asked.csrf, Board::admits) {
        return *refused;
    }
    let verified = match verify_audit(&state, &signed.user).await {
        Ok(report) => Verified::Done(report),
        Err(error) if error.status == StatusCode::TOO_MANY_REQUESTS => Verified::Busy(
            "Uma verificação já está em andamento neste servidor. Tente de novo em instantes."
                .to_string(),
        ),
        Err(error) => return verification_failed(&error),
    };
    audit_page(&state, &signed, asked, Some(verified)).await
}

fn verification_failed(error: &ApiError) -> Response {
    tracing::error!(erro = %error.body.erro, "the audit log could not be verified");
    failure()
}
