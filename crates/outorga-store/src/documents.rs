//! Documents the department issues (traffic authorization / DIV / alvará,
//! driver registration, delegation term, inspection seal), each with its
//! validity and a random verification code anyone can check.

use crate::audit::images::RowRef;
use crate::audit::{Audit, Change, Entry, append};
use crate::dates::day;
use crate::listing::{self, Filter, Kind, List, Page, Window, day_range, one_of, renamed, text};
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::engine::in_service::{self, DocumentRecord, Hold, VehicleRecord};
use outorga_core::model::{PermitStatus, SanctionKind};
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
            .map(|k| one_of("tipo", k, KINDS))
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

const KINDS: &[&str] = &[
    "traffic_authorization",
    "driver_registration",
    "delegation_term",
    "inspection_seal",
];

/// Documents, the latest issued first (the day, then the code): each
/// filter has an index ending in this order (migration 0021).
const DOCUMENTS: List = List {
    name: "documents",
    table: "documents",
    columns: COLUMNS,
    key: &[("issued_on", Kind::Text), ("code", Kind::Text)],
    descending: true,
};

/// What the public may know of a plate: the permit it serves (service,
/// number, status) and its documents' validity — nothing about the holder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlateCheck {
    pub plate: String,
    /// The permit it serves now: service, number and status.
    pub permit: Option<(String, i64, PermitStatus)>,
    /// The traffic authorization in force: `Some(None)` when it has no expiry.
    pub authorization: Option<Option<NaiveDate>>,
    /// The inspection seal in force, valid until.
    pub seal: Option<Option<NaiveDate>>,
    /// The latest inspection: its day and whether it passed.
    pub inspection: Option<(NaiveDate, bool)>,
    /// Impediments, seizures and retentions from its autos that had not
    /// ended before the day asked about.
    pub holds: Vec<Hold>,
}

impl PlateCheck {
    /// The vehicle as the core's rule of what is in service reads it.
    pub fn record(&self) -> VehicleRecord {
        VehicleRecord {
            permit: self.permit.as_ref().map(|(_, _, status)| *status),
            authorization: self.authorization,
            seal: self.seal,
            inspection: self.inspection,
            holds: self.holds.clone(),
        }
    }
}

impl Store {
    /// The public check of a plate, in one query. Each part reads one
    /// index range whatever the planner knows: the plate's documents by
    /// subject (the kind is not a condition, so no index by kind competes),
    /// and its impediments from its autos by plate (`CROSS JOIN` keeps
    /// SQLite from starting at every sanction of the jurisdiction).
    pub async fn plate_check(
        &self,
        jurisdiction: &str,
        plate: &str,
        on: NaiveDate,
    ) -> Result<Option<PlateCheck>, StoreError> {
        let plate = crate::parse_plate(plate)?;
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT pv.service, pv.number, p.status, p.expires_on, {} AS status_until, \
             (SELECT COUNT(CASE WHEN d.kind = 'traffic_authorization' THEN 1 END) FROM documents d \
              WHERE d.jurisdiction = $1 AND d.subject = $3 AND d.cancelled_on IS NULL) AS authorizations, \
             (SELECT MAX(CASE WHEN d.kind = 'traffic_authorization' THEN d.valid_until END) FROM documents d \
              WHERE d.jurisdiction = $1 AND d.subject = $3 AND d.cancelled_on IS NULL) AS authorization_until, \
             (SELECT COUNT(CASE WHEN d.kind = 'inspection_seal' THEN 1 END) FROM documents d \
              WHERE d.jurisdiction = $1 AND d.subject = $3 AND d.cancelled_on IS NULL) AS seals, \
             (SELECT MAX(CASE WHEN d.kind = 'inspection_seal' THEN d.valid_until END) FROM documents d \
              WHERE d.jurisdiction = $1 AND d.subject = $3 AND d.cancelled_on IS NULL) AS seal_until, \
             (SELECT i.done_on FROM inspections i WHERE i.jurisdiction = $1 AND i.plate = $2 \
              ORDER BY i.done_on DESC, i.year DESC, i.number DESC LIMIT 1) AS inspected_on, \
             (SELECT i.approved FROM inspections i WHERE i.jurisdiction = $1 AND i.plate = $2 \
              ORDER BY i.done_on DESC, i.year DESC, i.number DESC LIMIT 1) AS approved \
             FROM vehicles v \
             LEFT JOIN permit_vehicles pv ON pv.jurisdiction = v.jurisdiction AND pv.plate = v.plate AND pv.until IS NULL \
             LEFT JOIN permits p ON p.jurisdiction = pv.jurisdiction AND p.service = pv.service AND p.number = pv.number \
             WHERE v.jurisdiction = $1 AND v.plate = $2",
            crate::permit_status::STATUS_UNTIL
        )))
        .bind(jurisdiction)
        .bind(&plate)
        .bind(format!("vehicle:{plate}"))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let service: Option<String> = row.try_get("service")?;
        let number: Option<i64> = row.try_get("number")?;
        let status = match number {
            Some(_) => Some(crate::permit_status::status_in(&row, on)?),
            None => None,
        };
        let valid = |count: &str, until: &str| -> Result<Option<Option<NaiveDate>>, StoreError> {
            let n: i64 = row.try_get(count)?;
            let until: Option<String> = row.try_get(until)?;
            Ok((n > 0).then(|| until.as_deref().and_then(|u| day(u).ok())))
        };
        let inspected: Option<String> = row.try_get("inspected_on")?;
        let approved: Option<i32> = row.try_get("approved")?;
        let inspection = match (inspected.as_deref(), approved) {
            (Some(on), Some(approved)) => Some((day(on)?, approved != 0)),
            _ => None,
        };
        let holds = sqlx::query(
            "SELECT s.kind, s.starts, s.ends FROM autos a CROSS JOIN applied_sanctions s \
             WHERE a.jurisdiction = $1 AND a.plate = $2 AND s.jurisdiction = a.jurisdiction \
             AND s.year = a.year AND s.number = a.number \
             AND s.kind IN ('vehicle_impediment', 'vehicle_seizure', 'vehicle_retention') \
             AND (s.ends IS NULL OR s.ends >= $3)",
        )
        .bind(jurisdiction)
        .bind(&plate)
        .bind(on.to_string())
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| {
            let kind: String = row.try_get("kind")?;
            let starts: String = row.try_get("starts")?;
            let ends: Option<String> = row.try_get("ends")?;
            Ok(Hold {
                kind: SanctionKind::parse(&kind)
                    .ok_or_else(|| StoreError::Corrupt(format!("sanção `{kind}`")))?,
                from: day(&starts)?,
                until: ends.as_deref().map(day).transpose()?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Some(PlateCheck {
            permit: match (service, number, status) {
                (Some(s), Some(n), Some(st)) => Some((s, n, st)),
                _ => None,
            },
            authorization: valid("authorizations", "authorization_until")?,
            seal: valid("seals", "seal_until")?,
            inspection,
            holds,
            plate,
        }))
    }
}
