//! Documents the department issues (traffic authorization / DIV / alvará,
//! driver registration, delegation term, inspection seal; and, when printed,
//! the auto de infração, its notification, the notice of the decision and a
//! payment slip: `papers.rs`), each with its validity and a random
//! verification code anyone can check.

use crate::audit::images::RowRef;
use crate::audit::{Audit, Change, Entry, append};
use crate::dates::day;
use crate::listing::{self, Filter, Kind, List, Page, Window, day_range, one_of, renamed, text};
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::engine::in_service::{self, DocumentRecord};
use sqlx::Row;

/// A document as issued.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Document {
    pub code: String,
    pub jurisdiction: String,
    pub kind: String,
    /// What it is about: `permit:<service>:<n>`, `driver:<registration>`,
    /// `vehicle:<plate>`.
    pub subject: String,
    pub holder: String,
    pub issued_on: NaiveDate,
    pub valid_until: Option<NaiveDate>,
    pub cancelled_on: Option<NaiveDate>,
}

impl Document {
    /// The document as the core's rule of what is in service reads it.
    pub fn record(&self) -> DocumentRecord {
        DocumentRecord {
            issued: self.issued_on,
            cancelled: self.cancelled_on,
            valid_until: self.valid_until,
        }
    }

    /// Valid in itself on `day`: issued, not cancelled, not expired (what
    /// it certifies aside: see `in_service::document`).
    pub fn valid_on(&self, day: NaiveDate) -> bool {
        in_service::document(&self.record(), &[], day).is_empty()
    }
}

/// A code as someone typed it (hyphen, spaces and case aside), in its
/// stored form; none when it cannot be one.
pub(crate) fn typed_code(text: &str) -> Option<String> {
    let bare: String = text
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (bare.len() == 10).then(|| format!("{}-{}", &bare[..5], &bare[5..]))
}

/// Crockford's base32 without look-alike letters: easy to read aloud and type.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A new random code of 10 characters, as `ABCDE-12345`: a document's
/// verification code, a complaint's protocol.
pub(crate) fn new_code() -> Result<String, StoreError> {
    let mut bytes = [0u8; 10];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Corrupt(format!("no randomness for a document code: {e}")))?;
    let code: String = bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b % 32)]))
        .collect();
    Ok(format!("{}-{}", &code[..5], &code[5..]))
}

/// Issues a document in `tx`, cancelling (as of `issued_on`) the valid one of
/// the same kind and subject it replaces (a renewal).
pub(crate) async fn issue(
    tx: &mut Tx,
    audit: &Audit,
    change: &Change<'_>,
    jurisdiction: &str,
    (kind, subject, holder): (&str, &str, &str),
    issued_on: NaiveDate,
    valid_until: Option<NaiveDate>,
) -> Result<Document, StoreError> {
    let code = new_code()?;
    crate::audit::guard::unchanged_where(
        tx,
        &audit.schema,
        "documents",
        "jurisdiction = $1 AND kind = $2 AND subject = $3 AND cancelled_on IS NULL",
        &[jurisdiction.into(), kind.into(), subject.into()],
    )
    .await?;
    let mut rows = cancelled_codes(
        sqlx::query(
            "UPDATE documents SET cancelled_on = $4 WHERE jurisdiction = $1 AND kind = $2 AND subject = $3 \
             AND cancelled_on IS NULL RETURNING code",
        )
        .bind(jurisdiction)
        .bind(kind)
        .bind(subject)
        .bind(issued_on.to_string())
        .fetch_all(&mut **tx)
        .await?,
    )?;
    rows.push(RowRef::new("documents", [(&code).into()]));
    sqlx::query(
        "INSERT INTO documents (code, jurisdiction, kind, subject, holder, issued_on, valid_until) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&code)
    .bind(jurisdiction)
    .bind(kind)
    .bind(subject)
    .bind(holder)
    .bind(issued_on.to_string())
    .bind(valid_until.map(|v| v.to_string()))
    .execute(&mut **tx)
    .await?;
    append(
        tx,
        audit,
        change,
        Entry {
            action: "document.issue",
            jurisdiction: Some(jurisdiction),
            subject: &format!("document:{code}"),
            detail: serde_json::json!({ "kind": kind, "subject": subject, "holder": holder, "issued_on": issued_on, "valid_until": valid_until }),
            rows,
        },
    )
    .await?;
    Ok(Document {
        code,
        jurisdiction: jurisdiction.to_string(),
        kind: kind.to_string(),
        subject: subject.to_string(),
        holder: holder.to_string(),
        issued_on,
        valid_until,
        cancelled_on: None,
    })
}

/// The rows of documents an `UPDATE … RETURNING code` cancelled.
pub(crate) fn cancelled_codes(rows: Vec<sqlx::any::AnyRow>) -> Result<Vec<RowRef>, StoreError> {
    rows.iter()
        .map(|row| {
            Ok(RowRef::new(
                "documents",
                [row.try_get::<String, _>("code")?.into()],
            ))
        })
        .collect()
}

pub(crate) const COLUMNS: &str =
    "code, jurisdiction, kind, subject, holder, issued_on, valid_until, cancelled_on";

pub(crate) fn document_of(row: &sqlx::any::AnyRow) -> Result<Document, StoreError> {
    let issued: String = row.try_get("issued_on")?;
    let valid: Option<String> = row.try_get("valid_until")?;
    let cancelled: Option<String> = row.try_get("cancelled_on")?;
    Ok(Document {
        code: row.try_get("code")?,
        jurisdiction: row.try_get("jurisdiction")?,
        kind: row.try_get("kind")?,
        subject: row.try_get("subject")?,
        holder: row.try_get("holder")?,
        issued_on: day(&issued)?,
        valid_until: valid.as_deref().map(day).transpose()?,
        cancelled_on: cancelled.as_deref().map(day).transpose()?,
    })
}

impl Store {
    /// The document with this verification code (any case, hyphen optional).
    pub async fn document(&self, code: &str) -> Result<Option<Document>, StoreError> {
        let Some(code) = typed_code(code) else {
            return Ok(None);
        };
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM documents WHERE code = $1"
        )))
        .bind(&code)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(document_of).transpose()
    }

    /// A page of the documents of a jurisdiction that `filter` admits,
    /// the latest issued first.
    pub async fn documents(
        &self,
        jurisdiction: &str,
        filter: &DocumentFilter,
        window: Window<'_>,
    ) -> Result<Page<Document>, StoreError> {
        let holder = filter
            .holder
            .as_deref()
            .map(|d| renamed("titular", crate::parse_document(d)))
            .transpose()?
            .map(|(d, _)| text(d));
        let kind = filter
            .kind
            .as_deref()
            .map(|k| one_of("tipo", k, &KINDS.map(|(code, _)| code)))
            .transpose()?;
        let (from, to) = day_range(filter.from, filter.to)?;
        let subject = filter.subject.as_deref().map(|s| text(s.trim()));
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .ranked(
                false,
                &[("subject", subject), ("holder", holder), ("kind", kind)],
            )
            .when("issued_on >= $?", from)
            .when("issued_on < $?", to);
        listing::page(&self.pool, &DOCUMENTS, &rows, window, document_of).await
    }
}

/// What staff search documents by; `None` admits any.
#[derive(Debug, Clone, Default)]
pub struct DocumentFilter {
    /// The record: `permit:taxi:1`, `driver:2026-00001`, `vehicle:ABC1D23`.
    pub subject: Option<String>,
    /// CPF or CNPJ of the holder.
    pub holder: Option<String>,
    /// traffic_authorization, driver_registration, delegation_term or
    /// inspection_seal.
    pub kind: Option<String>,
    /// Issued on or after this day.
    pub from: Option<NaiveDate>,
    /// Issued on or before this day.
    pub to: Option<NaiveDate>,
}

/// The kinds of document, each with its name as staff and the public read it.
const KINDS: [(&str, &str); 10] = [
    ("traffic_authorization", "autorização de tráfego"),
    ("driver_registration", "matrícula do condutor"),
    ("delegation_term", "termo de delegação"),
    ("inspection_seal", "selo de vistoria"),
    ("auto", "auto de infração"),
    ("auto_notification", "notificação da autuação"),
    ("decision_notice", "notificação da decisão e da penalidade"),
    ("payment_slip", "guia de recolhimento"),
    (
        "charter_authorization",
        "autorização de fretamento ou serviço emergencial",
    ),
    (
        "carrier_registration",
        "registro cadastral de transportadora",
    ),
];

/// A kind of document as staff and the public read it (the record's
/// spelling, for a kind it does not know).
pub fn kind_name(kind: &str) -> &str {
    KINDS
        .iter()
        .find(|(code, _)| *code == kind)
        .map_or(kind, |(_, name)| name)
}

/// Documents, the latest issued first (the day, then the code): each
/// filter has an index ending in this order (migration 0021).
const DOCUMENTS: List = List {
    name: "documents",
    table: "documents",
    columns: COLUMNS,
    key: &[("issued_on", Kind::Text), ("code", Kind::Text)],
    descending: true,
};
