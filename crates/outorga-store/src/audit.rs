//! The audit log: every change with who, when, what and why, hash-chained.
//!
//! Each write appends its entries inside its own transaction, so a change and
//! its audit entry land together or not at all. An entry's hash covers its
//! fields and the previous entry's hash; [`Store::verify_audit`] recomputes
//! the chain and names the first entry that does not match.

use crate::{Store, StoreError, Tx};
use chrono::NaiveDateTime;
use sha2::{Digest, Sha256};
use sqlx::Row;

/// Who changes the record, when (UTC) and why: given by the caller (the web
/// layer or the CLI read the clock; the store does not).
#[derive(Debug, Clone, Copy)]
pub struct Change<'a> {
    pub by: &'a str,
    pub at: NaiveDateTime,
    pub why: &'a str,
}

/// One entry of the log as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AuditEntry {
    pub seq: i64,
    pub at: String,
    pub actor: String,
    pub action: String,
    pub jurisdiction: Option<String>,
    pub subject: String,
    pub detail: String,
    pub reason: String,
    pub prev_hash: String,
    pub hash: String,
}

/// What verifying the chain found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditCheck {
    /// Every entry, in sequence, hashes to what is recorded.
    Intact { entries: i64 },
    /// The first entry (by sequence) where the chain breaks, and why.
    Broken { seq: i64, reason: String },
}

/// The timestamp form kept in the database (sortable text, UTC).
pub(crate) fn timestamp(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

fn entry_hash(e: &AuditEntry) -> String {
    // A JSON array: each field delimited and escaped, so no two different
    // entries share a preimage.
    let preimage = serde_json::json!([
        e.seq,
        e.at,
        e.actor,
        e.action,
        e.jurisdiction,
        e.subject,
        e.detail,
        e.reason,
        e.prev_hash
    ]);
    format!("{:x}", Sha256::digest(preimage.to_string().as_bytes()))
}

/// Appends one entry in `tx`. `subject` names the record (e.g. `permit:TX-001`);
/// `detail` is what changed, as JSON.
pub(crate) async fn append(
    tx: &mut Tx,
    change: &Change<'_>,
    action: &str,
    jurisdiction: Option<&str>,
    subject: &str,
    detail: serde_json::Value,
) -> Result<(), StoreError> {
    // Updating the head first takes its row lock (PostgreSQL) before reading
    // it, so concurrent writers queue here instead of forking the chain.
    let head = sqlx::query("UPDATE audit_head SET seq = seq + 1 WHERE id = 1 RETURNING seq, hash")
        .fetch_one(&mut **tx)
        .await?;
    let mut entry = AuditEntry {
        seq: head.try_get("seq")?,
        at: timestamp(change.at),
        actor: change.by.to_string(),
        action: action.to_string(),
        jurisdiction: jurisdiction.map(str::to_string),
        subject: subject.to_string(),
        detail: detail.to_string(),
        reason: change.why.to_string(),
        prev_hash: head.try_get("hash")?,
        hash: String::new(),
    };
    entry.hash = entry_hash(&entry);
    sqlx::query("UPDATE audit_head SET hash = $1 WHERE id = 1")
        .bind(&entry.hash)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO audit_log (seq, at, actor, action, jurisdiction, subject, detail, reason, prev_hash, hash) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(entry.seq)
    .bind(&entry.at)
    .bind(&entry.actor)
    .bind(&entry.action)
    .bind(&entry.jurisdiction)
    .bind(&entry.subject)
    .bind(&entry.detail)
    .bind(&entry.reason)
    .bind(&entry.prev_hash)
    .bind(&entry.hash)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn entry_of(row: &sqlx::any::AnyRow) -> Result<AuditEntry, sqlx::Error> {
    Ok(AuditEntry {
        seq: row.try_get("seq")?,
        at: row.try_get("at")?,
        actor: row.try_get("actor")?,
        action: row.try_get("action")?,
        jurisdiction: row.try_get("jurisdiction")?,
        subject: row.try_get("subject")?,
        detail: row.try_get("detail")?,
        reason: row.try_get("reason")?,
        prev_hash: row.try_get("prev_hash")?,
        hash: row.try_get("hash")?,
    })
}

const COLUMNS: &str =
    "seq, at, actor, action, jurisdiction, subject, detail, reason, prev_hash, hash";

impl Store {
    /// The entries about `subject` (or all, when `None`), oldest first.
    pub async fn audit_entries(
        &self,
        subject: Option<&str>,
    ) -> Result<Vec<AuditEntry>, StoreError> {
        let rows = match subject {
            Some(subject) => {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {COLUMNS} FROM audit_log WHERE subject = $1 ORDER BY seq"
                )))
                .bind(subject)
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {COLUMNS} FROM audit_log ORDER BY seq"
                )))
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows.iter().map(entry_of).collect::<Result<_, _>>()?)
    }

    /// Recomputes the chain from the first entry: sequence numbers follow
    /// one another from 1, each entry names the previous hash and hashes to
    /// what it records, and the head names the last entry (so a deleted tail
    /// is found too).
    pub async fn verify_audit(&self) -> Result<AuditCheck, StoreError> {
        let entries = self.audit_entries(None).await?;
        let mut prev = "0".repeat(64);
        let mut expected_seq = 1;
        for entry in &entries {
            let broken = |reason: &str| {
                Ok(AuditCheck::Broken {
                    seq: entry.seq,
                    reason: reason.to_string(),
                })
            };
            if entry.seq != expected_seq {
                return broken(&format!(
                    "esperava a entrada {expected_seq}: há entradas faltando"
                ));
            }
            if entry.prev_hash != prev {
                return broken("não aponta para o hash da entrada anterior");
            }
            if entry_hash(entry) != entry.hash {
                return broken("o conteúdo não confere com o hash registrado");
            }
            prev = entry.hash.clone();
            expected_seq += 1;
        }
        let head = sqlx::query("SELECT seq, hash FROM audit_head WHERE id = 1")
            .fetch_one(&self.pool)
            .await?;
        let (seq, hash): (i64, String) = (head.try_get("seq")?, head.try_get("hash")?);
        if seq != expected_seq - 1 || hash != prev {
            return Ok(AuditCheck::Broken {
                seq: expected_seq,
                reason: format!(
                    "o registro termina na entrada {seq}, mas só há {} entradas",
                    expected_seq - 1
                ),
            });
        }
        Ok(AuditCheck::Intact {
            entries: expected_seq - 1,
        })
    }
}

/// The next number of `series` for `jurisdiction` in `year`, taken in `tx`:
/// it is given back if the transaction rolls back, so numbers have no gaps.
pub(crate) async fn next_number(
    tx: &mut Tx,
    jurisdiction: &str,
    series: &str,
    year: i32,
) -> Result<i64, StoreError> {
    let row = sqlx::query(
        "INSERT INTO counters (jurisdiction, series, year, last) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (jurisdiction, series, year) DO UPDATE SET last = counters.last + 1 \
         RETURNING last",
    )
    .bind(jurisdiction)
    .bind(series)
    .bind(year)
    .fetch_one(&mut **tx)
    .await?;
    Ok(row.try_get("last")?)
}
