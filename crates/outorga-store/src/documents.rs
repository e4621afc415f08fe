//! Documents the department issues (traffic authorization / DIV / alvará,
//! driver registration, delegation term, inspection seal), each with its
//! validity and a random verification code anyone can check.

use crate::audit::{Change, append};
use crate::world::day;
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use sqlx::Row;

/// The kinds of document, as stored.
pub const KINDS: [&str; 4] = [
    "traffic_authorization",
    "driver_registration",
    "delegation_term",
    "inspection_seal",
];

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
    /// Valid on `day`: issued, not cancelled, not expired.
    pub fn valid_on(&self, day: NaiveDate) -> bool {
        self.issued_on <= day
            && self.cancelled_on.is_none_or(|c| c > day)
            && self.valid_until.is_none_or(|v| v >= day)
    }
}

/// Crockford's base32 without look-alike letters: easy to read aloud and type.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

fn new_code() -> Result<String, StoreError> {
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
    change: &Change<'_>,
    jurisdiction: &str,
    (kind, subject, holder): (&str, &str, &str),
    issued_on: NaiveDate,
    valid_until: Option<NaiveDate>,
) -> Result<Document, StoreError> {
    let code = new_code()?;
    sqlx::query(
        "UPDATE documents SET cancelled_on = $4 WHERE jurisdiction = $1 AND kind = $2 AND subject = $3 \
         AND cancelled_on IS NULL",
    )
    .bind(jurisdiction)
    .bind(kind)
    .bind(subject)
    .bind(issued_on.to_string())
    .execute(&mut **tx)
    .await?;
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
        change,
        "document.issue",
        Some(jurisdiction),
        &format!("document:{code}"),
        serde_json::json!({ "kind": kind, "subject": subject, "holder": holder, "issued_on": issued_on, "valid_until": valid_until }),
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

const COLUMNS: &str =
    "code, jurisdiction, kind, subject, holder, issued_on, valid_until, cancelled_on";

fn document_of(row: &sqlx::any::AnyRow) -> Result<Document, StoreError> {
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
        let bare: String = code
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if bare.len() != 10 {
            return Ok(None);
        }
        let code = format!("{}-{}", &bare[..5], &bare[5..]);
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM documents WHERE code = $1"
        )))
        .bind(&code)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(document_of).transpose()
    }

    /// The documents issued about `subject`, newest first.
    pub async fn documents_of(
        &self,
        jurisdiction: &str,
        subject: &str,
    ) -> Result<Vec<Document>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM documents WHERE jurisdiction = $1 AND subject = $2 \
             ORDER BY issued_on DESC, code"
        )))
        .bind(jurisdiction)
        .bind(subject)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(document_of).collect()
    }
}
