//! The audit log as staff read it: a page at a time, filtered in SQL by
//! subject, action, actor, jurisdiction and days, and within the reader's
//! jurisdictions (a user bound to some sees only their entries, never one
//! without a jurisdiction). The chain itself is in `audit.rs`.

use crate::listing::{self, Filter, Kind, List, Page, Window, day_range, text};
use crate::{Scope, Store, StoreError};
use chrono::NaiveDate;
use sqlx::Row;

/// One entry of the log as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LoggedChange {
    pub seq: i64,
    pub at: String,
    pub actor: String,
    pub action: String,
    pub jurisdiction: Option<String>,
    pub subject: String,
    /// What changed, as JSON text.
    pub detail: String,
    pub reason: String,
    pub prev_hash: String,
    pub hash: String,
}

/// What staff search the log by; `None` admits any.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    /// The record, as `person:25524893033` or `auto:2026:15`.
    pub subject: Option<String>,
    /// As `auto.issued` or `user.create`.
    pub action: Option<String>,
    /// Who made the change.
    pub actor: Option<String>,
    pub jurisdiction: Option<String>,
    /// Changes made on or after this day (UTC).
    pub from: Option<NaiveDate>,
    /// Changes made on or before this day (UTC).
    pub to: Option<NaiveDate>,
}

/// The log in the order of time (the moment, then the sequence): each
/// filter has an index ending in this order (migration 0021). Columns are
/// named: the log may carry more than a list shows.
const ENTRIES: List = List {
    name: "audit",
    table: "audit_log",
    columns: "seq, at, actor, action, jurisdiction, subject, detail, reason, prev_hash, hash",
    key: &[("at", Kind::Text), ("seq", Kind::Int)],
    descending: false,
};

fn entry_of(row: &sqlx::any::AnyRow) -> Result<LoggedChange, StoreError> {
    Ok(LoggedChange {
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

impl Store {
    /// A page of the entries `filter` admits that a reader with `scope` may
    /// see, oldest first.
    pub async fn audit_page(
        &self,
        scope: &Scope,
        filter: &AuditFilter,
        window: Window<'_>,
    ) -> Result<Page<LoggedChange>, StoreError> {
        let (from, to) = day_range(filter.from, filter.to)?;
        let wanted = filter.jurisdiction.as_deref().map(str::trim);
        let given = |f: &Option<String>| f.as_deref().map(|v| text(v.trim()));
        let ranked = [
            ("subject", given(&filter.subject)),
            ("actor", given(&filter.actor)),
            ("action", given(&filter.action)),
        ];
        let led = ranked.iter().any(|(_, v)| v.is_some());
        let rows = Filter::default()
            .ranked(false, &ranked)
            .when("at >= $?", from)
            .when("at < $?", to);
        let rows = match scope {
            Scope::All => rows.ranked(led, &[("jurisdiction", wanted.map(text))]),
            // One index range per jurisdiction of the reader's, merged
            // (checked on the rows of a more selective filter, if any).
            Scope::Only(own) => rows.any_of(
                if led {
                    "jurisdiction || '' = $?"
                } else {
                    "jurisdiction = $?"
                },
                own.iter()
                    .filter(|j| wanted.is_none_or(|w| w == j.as_str()))
                    .map(|j| text(j.as_str()))
                    .collect(),
            ),
        };
        listing::page(&self.pool, &ENTRIES, &rows, window, entry_of).await
    }
}
