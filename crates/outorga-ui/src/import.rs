//! The import screen (`/j/{j}/importar`): a department's existing records
//! from its files, through the store's import — the same `outorga import`
//! calls. A clerk uploads a file and picks its kind; "Simular" shows every
//! row's outcome and writes nothing, "Importar" writes each row accepted.
//! The form is sent by htmx, so the file stays chosen between the two and
//! a `<progress>` runs while the server works; without script the page
//! answers whole. "Simular" runs within the request (one transaction rolled
//! back: README has its time for 3,000 rows). "Importar" starts a job
//! (`Store::start_import_job`) run by a task of this process and answers
//! with the job's page, `/j/{j}/importar/{id}`, which htmx polls every
//! second: its `<progress>` and "N de M linhas" come from the job's row in
//! the database, so any server sharing it answers the poll; a job whose
//! process died shows as interrupted once its beat is a minute old.

use crate::forms::upload;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place, refusal};
use crate::session::{Signed, checked_form, clerk_only};
use askama::Template;
use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::model::Rulebook;
use outorga_store::{
    Change, ImportJob, ImportJobState, ImportKind, ImportOutcome, ImportReport, ImportRequest,
    StoreError,
};
use outorga_web::AppState;
use outorga_web::auth::Clerk;

/// The largest file taken (the route's body limit).
pub(crate) const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

#[derive(Debug)]
struct KindChoice {
    value: &'static str,
    label: &'static str,
    chosen: bool,
}

#[derive(Debug)]
struct RowView {
    line: u64,
    subject: String,
    ok: bool,
    field: String,
    text: String,
}

#[derive(Debug)]
struct ReportView {
    dry_run: bool,
    file: String,
    total: usize,
    imported: usize,
    refused: usize,
    rows: Vec<RowView>,
}

impl ReportView {
    fn of(file: &str, report: ImportReport) -> ReportView {
        ReportView {
            dry_run: report.dry_run,
            file: file.to_string(),
            total: report.rows.len(),
            imported: report.imported(),
            refused: report.refused(),
            rows: report
                .rows
                .into_iter()
                .map(|row| match row.outcome {
                    ImportOutcome::Imported { notes } => RowView {
                        line: row.line,
                        subject: row.subject,
                        ok: true,
                        field: String::new(),
                        text: notes.join("; "),
                    },
                    ImportOutcome::Refused { field, reason } => RowView {
                        line: row.line,
                        subject: row.subject,
                        ok: false,
                        field,
                        text: reason,
                    },
                })
                .collect(),
        }
    }
}

/// A job not finished: running (the page polls it), failed or
/// interrupted.
#[derive(Debug)]
struct JobView {
    url: String,
    file: String,
    total: u64,
    done: u64,
    imported: u64,
    refused: u64,
    running: bool,
    /// Why it stopped, when it did.
    stopped: Option<String>,
    /// The rows refused so far.
    rows: Vec<RowView>,
}

impl JobView {
    fn of(j: &str, job: ImportJob) -> JobView {
        let stopped = match job.state {
            ImportJobState::Running | ImportJobState::Finished => None,
            ImportJobState::Failed => Some(format!(
                "a importação parou por um erro do sistema ({}). As linhas importadas até aqui \
                 ficam gravadas; importe o arquivo de novo: as já gravadas serão recusadas como \
                 existentes e as demais, importadas",
                job.error.unwrap_or_default()
            )),
            ImportJobState::Interrupted => Some(
                "a importação foi interrompida (o servidor que a fazia parou). As linhas \
                 importadas até aqui ficam gravadas; importe o arquivo de novo: as já gravadas \
                 serão recusadas como existentes e as demais, importadas"
                    .into(),
            ),
        };
        JobView {
            url: format!("/j/{j}/importar/{}", job.id),
            running: job.state == ImportJobState::Running,
            file: job.file,
            total: job.total,
            done: job.done,
            imported: job.imported,
            refused: job.refused,
            stopped,
            rows: ReportView::of(
                "",
                ImportReport {
                    dry_run: false,
                    rows: job.outcomes,
                },
            )
            .rows,
        }
    }
}

#[derive(Template)]
#[template(path = "importar.html")]
struct ImportPage {
    user: Option<Bar>,
    j: String,
    place: String,
    kinds: Vec<KindChoice>,
    columns: Vec<(&'static str, String)>,
    error: Option<String>,
    report: Option<ReportView>,
    job: Option<JobView>,
}

fn import_page(
    signed: &Signed,
    place: &Place<'_>,
    chosen: ImportKind,
    (error, report): (Option<String>, Option<ReportView>),
    status: StatusCode,
) -> Response {
    job_page(signed, place, chosen, (error, report, None), status)
}

fn job_page(
    signed: &Signed,
    place: &Place<'_>,
    chosen: ImportKind,
    (error, report, job): (Option<String>, Option<ReportView>, Option<JobView>),
    status: StatusCode,
) -> Response {
    page(
        status,
        &ImportPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            kinds: ImportKind::ALL
                .into_iter()
                .map(|k| KindChoice {
                    value: k.name(),
                    label: k.portuguese(),
                    chosen: k == chosen,
                })
                .collect(),
            columns: ImportKind::ALL
                .into_iter()
                .filter(|k| *k != ImportKind::Drivers)
                .map(|k| {
                    let label = if k == ImportKind::Holders {
                        "titulares e condutores"
                    } else {
                        k.portuguese()
                    };
                    let columns = k
                        .columns()
                        .iter()
                        .map(|c| format!("{}{}", c.name, if c.required { "*" } else { "" }))
                        .collect::<Vec<_>>()
                        .join(";");
                    (label, columns)
                })
                .collect(),
            error,
            report,
            job,
        },
    )
}

/// A read-only user may not import: the page says so (403).
fn not_a_clerk(signed: &Signed) -> Option<Response> {
    clerk_only(signed, "importar registros")
        .err()
        .map(|refused| *refused)
}

pub(crate) async fn form(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Some(refused) = not_a_clerk(&signed) {
        return refused;
    }
    import_page(
        &signed,
        &place,
        ImportKind::Holders,
        (None, None),
        StatusCode::OK,
    )
}

pub(crate) async fn run(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    // The role is checked before the file is read.
    if let Some(refused) = not_a_clerk(&signed) {
        return refused;
    }
    let unprocessable = |kind: ImportKind, message: String| {
        import_page(
            &signed,
            &place,
            kind,
            (Some(message), None),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let Ok(multipart) = multipart else {
        return unprocessable(
            ImportKind::Holders,
            "o formulário não trouxe o arquivo: escolha-o e envie pelo botão Simular ou Importar"
                .into(),
        );
    };
    let sent = match upload(multipart, MAX_FILE_BYTES).await {
        Ok(sent) => sent,
        Err(message) => return unprocessable(ImportKind::Holders, message),
    };
    if let Err(refused) = checked_form(&signed, sent.field("csrf"), Clerk::admits) {
        return *refused;
    }
    let Some(kind) = ImportKind::parse(sent.field("tipo")) else {
        return unprocessable(
            ImportKind::Holders,
            "escolha o que o arquivo contém: titulares, condutores, veículos, permissões, autos \
             de infração ou débitos"
                .into(),
        );
    };
    if sent.bytes.is_empty() {
        return unprocessable(kind, "escolha o arquivo a importar".into());
    }
    let table = match outorga_store::read_import_file(&sent.file_name, &sent.bytes) {
        Ok(table) => table,
        Err(e) => return unprocessable(kind, e.to_string()),
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "importação pela tela",
    };
    let request = ImportRequest {
        jurisdiction: &place.id,
        kind,
        file: &sent.file_name,
        table: &table,
        rulebooks: &place.rulebooks,
        dry_run: sent.field("acao") != "importar",
    };
    if !request.dry_run {
        // A job: its progress in the database, its rows taken by a task of
        // this process; the answer is the job's page.
        let id = match state.store.start_import_job(&change, request).await {
            Ok(id) => id,
            Err(error) => return stored_error(error, |m| unprocessable(kind, m)),
        };
        let task = state.clone();
        let (j, user, file, job) = (
            place.id.clone(),
            signed.user.name.clone(),
            sent.file_name.clone(),
            id.clone(),
        );
        tokio::spawn(async move {
            let rulebooks: Vec<&Rulebook> = task
                .library
                .rulebooks()
                .filter(|r| r.jurisdiction.id == j)
                .collect();
            let change = Change {
                by: &user,
                at: task.clock.now(),
                why: "importação pela tela",
            };
            let request = ImportRequest {
                jurisdiction: &j,
                kind,
                file: &file,
                table: &table,
                rulebooks: &rulebooks,
                dry_run: false,
            };
            let clock = task.clock.clone();
            let now = move || clock.now();
            if let Err(error) = task
                .store
                .run_import_job(&change, request, &job, &now)
                .await
            {
                tracing::error!(%error, job, "an import job failed");
            }
        });
        return Redirect::to(&format!("/j/{}/importar/{id}", place.id)).into_response();
    }
    match state.store.import(&change, request, &mut |_, _| {}).await {
        Ok(report) => import_page(
            &signed,
            &place,
            kind,
            (None, Some(ReportView::of(&sent.file_name, report))),
            StatusCode::OK,
        ),
        Err(error) => match error.bad_input() {
            Some((field, reason)) => unprocessable(kind, format!("{field}: {reason}")),
            None => {
                tracing::error!(%error, "a file could not be imported");
                failure()
            }
        },
    }
}

/// An error of the store: bad input on the page (`refused`), anything else
/// logged and the failure page.
fn stored_error(error: StoreError, refused: impl FnOnce(String) -> Response) -> Response {
    match error.bad_input() {
        Some((field, reason)) => refused(format!("{field}: {reason}")),
        None => {
            tracing::error!(%error, "a file could not be imported");
            failure()
        }
    }
}

/// An import job's page: its progress while it runs (htmx polls it every
/// second), every row's outcome once finished.
pub(crate) async fn job(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, id)): Path<(String, String)>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Some(refused) = not_a_clerk(&signed) {
        return refused;
    }
    let job = match state
        .store
        .import_job(&place.id, &id, state.clock.now())
        .await
    {
        Ok(job) => job,
        Err(StoreError::NotFound(_)) => {
            return refusal(
                &signed,
                StatusCode::NOT_FOUND,
                "Importação não encontrada",
                "Não há importação com este endereço nesta jurisdição. Volte à tela de importação.",
            );
        }
        Err(error) => return stored_error(error, |_| failure()),
    };
    let kind = ImportKind::parse(&job.kind).unwrap_or(ImportKind::Holders);
    if job.state == ImportJobState::Finished {
        let file = job.file.clone();
        let report = ReportView::of(
            &file,
            ImportReport {
                dry_run: false,
                rows: job.outcomes,
            },
        );
        return job_page(
            &signed,
            &place,
            kind,
            (None, Some(report), None),
            StatusCode::OK,
        );
    }
    let view = JobView::of(&place.id, job);
    job_page(
        &signed,
        &place,
        kind,
        (None, None, Some(view)),
        StatusCode::OK,
    )
}
