//! Papers the record issues when they are printed (the auto de infração,
//! its notification, the notice of the decision, a payment slip), and the
//! PDF of every document as first printed: its bytes are kept, so every
//! later download is the same file, and their SHA-256 lets a verification
//! tell a genuine file from an altered one.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::documents::{Document, document_of};
use crate::{Store, StoreError};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use chrono::{NaiveDate, NaiveDateTime};
use sha2::{Digest, Sha256};
use sqlx::Row;

/// The page a document is printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaperFormat {
    A4,
    /// The driver's credential to carry (ID-1).
    Card,
}

impl PaperFormat {
    /// The format as the public reads it.
    pub fn portuguese(self) -> &'static str {
        match self {
            PaperFormat::A4 => "folha A4",
            PaperFormat::Card => "cartão",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PaperFormat::A4 => "a4",
            PaperFormat::Card => "card",
        }
    }
}

/// A document's PDF as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptFile {
    /// Hex SHA-256 of `pdf`.
    pub sha256: String,
    pub pdf: Vec<u8>,
    pub printed_at: NaiveDateTime,
    pub printed_by: String,
}

/// A paper to issue on printing: its kind, what it is about, to whom.
#[derive(Debug, Clone, Copy)]
pub struct PaperOf<'a> {
    pub kind: &'a str,
    pub subject: &'a str,
    pub holder: &'a str,
    /// The day it is issued.
    pub on: NaiveDate,
    pub valid_until: Option<NaiveDate>,
    /// A paper of this kind and subject issued on or after this day, with
    /// the same validity, still says what this one would: it is reprinted,
    /// not issued again (what it certifies last changed on this day).
    pub current_since: NaiveDate,
}

/// A document's kept file in a format.
const KEPT: &str = "SELECT sha256, pdf, printed_at, printed_by FROM document_files \
     WHERE code = $1 AND format = $2";

/// The hex SHA-256 of a file.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn kept_of(row: &sqlx::any::AnyRow) -> Result<KeptFile, StoreError> {
    let text: String = row.try_get("pdf")?;
    let pdf = STANDARD
        .decode(text)
        .map_err(|e| StoreError::Corrupt(format!("a kept PDF is not base64: {e}")))?;
    let printed_at: String = row.try_get("printed_at")?;
    Ok(KeptFile {
        sha256: row.try_get("sha256")?,
        pdf,
        printed_at: crate::dates::moment(&printed_at)?,
        printed_by: row.try_get("printed_by")?,
    })
}

impl Store {
    /// The PDF of a document as first printed, if it was.
    pub async fn document_file(
        &self,
        code: &str,
        format: PaperFormat,
    ) -> Result<Option<KeptFile>, StoreError> {
        let row = sqlx::query(KEPT)
            .bind(code)
            .bind(format.as_str())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(kept_of).transpose()
    }

    /// The SHA-256 of each file of the document kept so far, by format:
    /// what a verification compares a file with.
    pub async fn document_prints(
        &self,
        code: &str,
    ) -> Result<Vec<(PaperFormat, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT format, sha256 FROM document_files WHERE code = $1 ORDER BY format",
        )
        .bind(code)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let format: String = row.try_get("format")?;
                let format = match format.as_str() {
                    "card" => PaperFormat::Card,
                    "a4" => PaperFormat::A4,
                    other => {
                        return Err(StoreError::Corrupt(format!(
                            "a document file's format {other}"
                        )));
                    }
                };
                Ok((format, row.try_get("sha256")?))
            })
            .collect()
    }

    /// Keeps `pdf` as the document's file, with its SHA-256, unless one is
    /// kept already (another server printed it first): then that one, which
    /// is the genuine file.
    pub async fn keep_document_file(
        &self,
        (code, format): (&str, PaperFormat),
        pdf: &[u8],
        change: &Change<'_>,
    ) -> Result<KeptFile, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let document = sqlx::query("SELECT jurisdiction FROM documents WHERE code = $1")
            .bind(code)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("não há documento com o código {code}")))?;
        let jurisdiction: String = document.try_get("jurisdiction")?;
        let sha256 = sha256_hex(pdf);
        let written = sqlx::query(
            "INSERT INTO document_files (code, format, sha256, pdf, printed_at, printed_by) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (code, format) DO NOTHING",
        )
        .bind(code)
        .bind(format.as_str())
        .bind(&sha256)
        .bind(STANDARD.encode(pdf))
        .bind(crate::dates::moment_text(change.at))
        .bind(change.by)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if written == 1 {
            append(
                &mut tx,
                &self.audit,
                change,
                Entry {
                    action: "document.print",
                    jurisdiction: Some(&jurisdiction),
                    subject: &format!("document:{code}"),
                    detail: serde_json::json!({ "format": format.as_str(), "sha256": sha256, "bytes": pdf.len() }),
                    rows: vec![RowRef::new("document_files", [code.into(), format.as_str().into()])],
                },
            )
            .await?;
        }
        let row = sqlx::query(KEPT)
            .bind(code)
            .bind(format.as_str())
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        kept_of(&row)
    }

    /// The paper of this kind and subject still current (see
    /// [`PaperOf::current_since`]), or a new one issued now (cancelling the
    /// one it replaces, as every document does).
    pub async fn issue_paper(
        &self,
        jurisdiction: &str,
        paper: PaperOf<'_>,
        change: &Change<'_>,
    ) -> Result<Document, StoreError> {
        match self.issue_paper_once(jurisdiction, paper, change).await {
            // Another server issued it at the same moment: that one.
            Err(StoreError::Sql(e))
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                self.issue_paper_once(jurisdiction, paper, change).await
            }
            other => other,
        }
    }

    async fn issue_paper_once(
        &self,
        jurisdiction: &str,
        paper: PaperOf<'_>,
        change: &Change<'_>,
    ) -> Result<Document, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let current = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {} FROM documents WHERE jurisdiction = $1 AND kind = $2 AND subject = $3 \
             AND cancelled_on IS NULL",
            crate::documents::COLUMNS
        )))
        .bind(jurisdiction)
        .bind(paper.kind)
        .bind(paper.subject)
        .fetch_optional(&mut *tx)
        .await?
        .as_ref()
        .map(document_of)
        .transpose()?;
        if let Some(document) = current
            .filter(|d| d.issued_on >= paper.current_since && d.valid_until == paper.valid_until)
        {
            tx.commit().await?;
            return Ok(document);
        }
        let document = crate::documents::issue(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            (paper.kind, paper.subject, paper.holder),
            paper.on,
            paper.valid_until,
        )
        .await?;
        tx.commit().await?;
        Ok(document)
    }
}
