//! The papers: every document the record issues, as the PDF a person
//! carries or receives (`outorga-pdf`), with its verification code, a QR
//! code to `<endereço>/verificar/<código>` and the text that says where to
//! check it. A document's PDF is made when first printed and kept (the
//! store's `document_files`): every later download is the same file, and
//! its SHA-256 is what the verification page shows.
//!
//! The papers of the procedure (the auto de infração, its notification,
//! the notice of the decision with the slip of its fine) and a payment slip
//! are issued when first printed (`Store::issue_paper`), once for each state
//! of what they say. The API and the pages call these same functions.

mod content;

use crate::error::ApiError;
use crate::state::AppState;
use axum::http::StatusCode;
use outorga_store::{Change, Document, KeptFile, PaperFormat, PaperOf};

/// A paper of an auto's procedure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoPaper {
    /// The auto de infração.
    Auto,
    /// Its notification: what, when, where, the article, the proposed
    /// penalty, the defense deadline and how to defend.
    Notification,
    /// The notice of the decision and of the penalty, with the slip of its
    /// fine.
    Decision,
}

impl AutoPaper {
    /// The kind of document it is in the record.
    pub fn kind(self) -> &'static str {
        match self {
            AutoPaper::Auto => "auto",
            AutoPaper::Notification => "auto_notification",
            AutoPaper::Decision => "decision_notice",
        }
    }

    /// The paper of a document kind, if it is one of an auto's.
    pub fn of_kind(kind: &str) -> Option<AutoPaper> {
        [
            AutoPaper::Auto,
            AutoPaper::Notification,
            AutoPaper::Decision,
        ]
        .into_iter()
        .find(|p| p.kind() == kind)
    }
}

/// The document `code` of jurisdiction `j` as a PDF in `format`: the file
/// kept since it was first printed, or made now and kept.
pub async fn document_pdf(
    state: &AppState,
    j: &str,
    code: &str,
    format: PaperFormat,
    change: &Change<'_>,
) -> Result<(Document, KeptFile), ApiError> {
    let document = state
        .store
        .document(code)
        .await?
        .filter(|d| d.jurisdiction == j)
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "não há documento com o código {code} em {}",
                content::place_name(state, j)
            ))
        })?;
    if format == PaperFormat::Card && document.kind != "driver_registration" {
        return Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "formato",
            "só a matrícula do condutor tem cartão: peça o formato a4",
        ));
    }
    if let Some(kept) = state.store.document_file(&document.code, format).await? {
        return Ok((document, kept));
    }
    let (paper, images) = content::paper(state, &document, format).await?;
    let pdf = tokio::task::spawn_blocking(move || outorga_pdf::render(&paper, &images))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("a composição do PDF parou: {e}"),
            )
        })?
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let kept = state
        .store
        .keep_document_file((&document.code, format), &pdf, change)
        .await?;
    Ok((document, kept))
}

/// Issues (or finds, if what it says has not changed) the paper of an
/// auto: the auto, its notification, or the notice of its decision.
pub async fn issue_auto_paper(
    state: &AppState,
    j: &str,
    key: (i32, i64),
    which: AutoPaper,
    change: &Change<'_>,
) -> Result<Document, ApiError> {
    let auto = state.store.auto(j, key).await?;
    let today = crate::routes::today_in(state, j);
    let issued = auto.issued_on.unwrap_or(auto.committed_at.date());
    let since = match which {
        AutoPaper::Auto => issued,
        // Once notified, the notification reprinted says the deadline.
        AutoPaper::Notification => auto.notified_on.unwrap_or(issued),
        AutoPaper::Decision => auto.judged_on.ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "tipo",
                format!(
                    "o auto {}/{} ainda não foi julgado: a notificação da decisão vem depois do julgamento",
                    key.1, key.0
                ),
            )
        })?,
    };
    // The notice of the decision carries its fine's slip: a new one once
    // the fine is charged, and after the slip's day.
    let (since, valid_until) = if which == AutoPaper::Decision {
        let fines = content::fine_debts(state, j, key).await?;
        let charged = fines.iter().map(|d| d.issued_on).max();
        let rulebook = state.library.get(&auto.rulebook);
        let slip = content::fine_slip(state, j, &fines, rulebook, today).await;
        (since.max(charged.unwrap_or(since)), slip.map(|s| s.due_on))
    } else {
        (since, None)
    };
    let subject = format!("auto:{}:{}", key.0, key.1);
    let paper = PaperOf {
        kind: which.kind(),
        subject: &subject,
        holder: &auto.offender,
        on: today,
        valid_until,
        current_since: since,
    };
    Ok(state.store.issue_paper(j, paper, change).await?)
}

/// Issues (or finds) the payment slip of a debt due on `day` (none:
/// today), valid until that day: one for each parcel it charges (the
/// subject names the parcel, `debt:<ano>:<número>:<seq>:<parcela>`).
pub async fn issue_slip_paper(
    state: &AppState,
    j: &str,
    key: (i32, i64, i64),
    day: Option<&str>,
    change: &Change<'_>,
) -> Result<Document, ApiError> {
    let on = crate::routes::day_or_today(state, j, day, "data")?;
    let today = crate::routes::today_in(state, j);
    if on < today {
        return Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "data",
            format!(
                "uma guia vence hoje ({}) ou depois: {} já passou",
                outorga_store::words::day(today),
                outorga_store::words::day(on)
            ),
        ));
    }
    // Refused here, before anything is issued, when no slip can be made.
    let slip = crate::routes::debts::debt_slip(state, j, key, Some(&on.to_string())).await?;
    let debt = state.store.debt(j, key).await?;
    let subject = format!("debt:{}:{}:{}:{}", key.0, key.1, key.2, slip.due.parcel);
    let paper = PaperOf {
        kind: "payment_slip",
        subject: &subject,
        holder: &debt.debtor,
        on: today,
        valid_until: Some(on),
        current_since: today,
    };
    Ok(state.store.issue_paper(j, paper, change).await?)
}
