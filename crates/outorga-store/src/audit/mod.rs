//! The audit log: every change with who, when, what and why, hash-chained,
//! sealed with a key kept outside the database, and describing the rows it
//! wrote.
//!
//! Each write appends its entries inside its own transaction, so a change and
//! its audit entry land together or not at all. An entry's hash covers its
//! fields, the rows it wrote ([`images`]) and the previous entry's hash; its
//! MAC ([`key`]) covers the hash, and the head's MAC its sequence and hash.
//! [`Store::verify_audit`](crate::Store::verify_audit) ([`verify`]) streams
//! the log and then every audited table, naming each entry or row that does
//! not agree; [`checkpoint`] exports the head as a signed text that proves
//! later that nothing up to it was removed or rewritten; [`seal`] seals a
//! log written before the key existed and records the rows of tables the
//! log does not yet describe.

pub(crate) mod checkpoint;
pub(crate) mod guard;
pub(crate) mod images;
pub(crate) mod key;
pub(crate) mod schema;
pub(crate) mod seal;
pub(crate) mod verify;

use crate::{StoreError, Tx};
use chrono::NaiveDateTime;
use images::{Image, RowRef, capture};
use key::{AuditKeys, Purpose};
use schema::Schema;
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

/// What the log needs to seal entries and describe rows: the keys and the
/// audited tables (read once, when the store opens).
#[derive(Debug)]
pub(crate) struct Audit {
    pub keys: AuditKeys,
    pub schema: Schema,
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
    /// The rows the entry wrote, as a JSON list of `{ table, key, row }`
    /// (`row` is `null` for a deleted row).
    pub images: String,
    pub hash: String,
    pub mac: String,
}

/// What a write records: the action, the jurisdiction and record it is
/// about, what changed (JSON), and every row it wrote.
#[derive(Debug)]
pub(crate) struct Entry<'a> {
    pub action: &'a str,
    pub jurisdiction: Option<&'a str>,
    pub subject: &'a str,
    pub detail: serde_json::Value,
    pub rows: Vec<RowRef>,
}

/// The timestamp form kept in the database (sortable text, UTC).
pub(crate) fn timestamp(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// The hash before the first entry.
pub(crate) const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

pub(crate) fn entry_hash(e: &AuditEntry) -> String {
    // A JSON array: each field delimited and escaped, so no two different
    // entries share a preimage. An entry that wrote no rows hashes as the
    // entries written before rows were recorded did.
    let mut preimage = serde_json::json!([
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
    if e.images != "[]"
        && let Some(fields) = preimage.as_array_mut()
    {
        fields.push(serde_json::Value::String(e.images.clone()));
    }
    format!("{:x}", Sha256::digest(preimage.to_string().as_bytes()))
}

/// The MAC of the head (its sequence and hash).
pub(crate) fn head_mac(keys: &AuditKeys, seq: i64, hash: &str) -> String {
    keys.current().mac(Purpose::Head, &[&seq.to_string(), hash])
}

/// Appends one entry in `tx` and returns its sequence number. Call it after
/// the rows it names were written: it reads them back as they now are.
pub(crate) async fn append(
    tx: &mut Tx,
    audit: &Audit,
    change: &Change<'_>,
    entry: Entry<'_>,
) -> Result<i64, StoreError> {
    // Updating the head first takes its row lock (PostgreSQL) before reading
    // it, so concurrent writers queue here instead of forking the chain.
    let head =
        sqlx::query("UPDATE audit_head SET seq = seq + 1 WHERE id = 1 RETURNING seq, hash, key_id")
            .fetch_one(&mut **tx)
            .await?;
    // Entries are written only under the key the log is sealed with
    // (`Store::seal` first, which the CLI does on every open).
    let key_id: String = head.try_get("key_id")?;
    if key_id != audit.keys.current().id() {
        return Err(StoreError::Corrupt(format!(
            "the audit log is sealed with key `{key_id}`, not this store's: open the store \
             and seal it (Store::seal) before writing"
        )));
    }
    let mut images: Vec<Image> = Vec::with_capacity(entry.rows.len());
    for row in &entry.rows {
        let image = capture(tx, audit.schema.table(&row.table)?, row).await?;
        images.retain(|i| (&i.table, &i.key) != (&image.table, &image.key));
        images.push(image);
    }
    let mut stored = AuditEntry {
        seq: head.try_get("seq")?,
        at: timestamp(change.at),
        actor: change.by.to_string(),
        action: entry.action.to_string(),
        jurisdiction: entry.jurisdiction.map(str::to_string),
        subject: entry.subject.to_string(),
        detail: entry.detail.to_string(),
        reason: change.why.to_string(),
        prev_hash: head.try_get("hash")?,
        images: serde_json::Value::Array(images.iter().map(Image::to_json).collect()).to_string(),
        hash: String::new(),
        mac: String::new(),
    };
    stored.hash = entry_hash(&stored);
    stored.mac = audit.keys.current().mac(Purpose::Entry, &[&stored.hash]);
    sqlx::query("UPDATE audit_head SET hash = $1, mac = $2 WHERE id = 1")
        .bind(&stored.hash)
        .bind(head_mac(&audit.keys, stored.seq, &stored.hash))
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO audit_log (seq, at, actor, action, jurisdiction, subject, detail, reason, prev_hash, images, hash, mac) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(stored.seq)
    .bind(&stored.at)
    .bind(&stored.actor)
    .bind(&stored.action)
    .bind(&stored.jurisdiction)
    .bind(&stored.subject)
    .bind(&stored.detail)
    .bind(&stored.reason)
    .bind(&stored.prev_hash)
    .bind(&stored.images)
    .bind(&stored.hash)
    .bind(&stored.mac)
    .execute(&mut **tx)
    .await?;
    for image in &images {
        sqlx::query("INSERT INTO audit_rows (tbl, key, seq, digest) VALUES ($1, $2, $3, $4)")
            .bind(&image.table)
            .bind(images::key_text(&image.key))
            .bind(stored.seq)
            .bind(image.digest())
            .execute(&mut **tx)
            .await?;
    }
    Ok(stored.seq)
}

pub(crate) fn entry_of(row: &sqlx::any::AnyRow) -> Result<AuditEntry, sqlx::Error> {
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
        images: row.try_get("images")?,
        hash: row.try_get("hash")?,
        mac: row.try_get("mac")?,
    })
}

pub(crate) const COLUMNS: &str =
    "seq, at, actor, action, jurisdiction, subject, detail, reason, prev_hash, images, hash, mac";

impl crate::Store {
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
}

/// The next number of `series` for `jurisdiction` in `year`, taken in `tx`:
/// it is given back if the transaction rolls back, so numbers have no gaps.
/// Takes the row lock of a counter without moving it (PostgreSQL; SQLite's
/// write lock is already held): writes that weigh one limit take turns.
pub(crate) async fn lock_series(
    tx: &mut Tx,
    jurisdiction: &str,
    series: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO counters (jurisdiction, series, year, last) VALUES ($1, $2, 0, 0) \
         ON CONFLICT (jurisdiction, series, year) DO UPDATE SET last = counters.last",
    )
    .bind(jurisdiction)
    .bind(series)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

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
