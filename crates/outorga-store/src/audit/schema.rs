//! Which tables the audit log describes, read from the database's own
//! catalog after the migrations ran: every table is a record the log must
//! account for, row by row, except the log itself and what is ephemeral.
//! A new table is audited without anyone listing it; one that should not
//! be (a cache, a counter of attempts) is named in [`NOT_AUDITED`].

use crate::{Backend, StoreError};
use sqlx::{AnyPool, Row};

/// Tables whose rows no audit entry describes: the log's own, the
/// migrations' bookkeeping, the gap-free counters (derived: each number
/// they hand out is the unique key of the record that took it, so a counter
/// moved back makes the next write fail on that key, never overwrite),
/// sign-in attempts (they are pruned; the pruning is an entry), and the
/// words of names the search reads (derived from `people.name`, which is
/// audited, and written again from it when missing), when each web
/// session was last used (its idle expiry; a write per minute of use), and
/// the progress of the screen's imports (the rows an import writes are
/// audited, each with its own entry; the job only counts them), and the
/// outbox of e-mail reminders (what was sent, written at each attempt; a
/// courtesy, not the law's notification), and the sign-ins through gov.br
/// under way (a PKCE verifier for ten minutes; the session they open is
/// audited), and the tickets and trips a carrier's file holds (its own
/// data, kept as handed in: the file's entry, with its SHA-256 and counts,
/// is audited).
pub(crate) const NOT_AUDITED: [&str; 13] = [
    "_sqlx_migrations",
    "counters",
    "audit_log",
    "audit_head",
    "audit_rows",
    "sign_in_attempts",
    "person_words",
    "session_activity",
    "import_jobs",
    "messages",
    "citizen_logins",
    "carrier_tickets",
    "carrier_trips",
];

/// Columns whose value is a secret (a password's hash, a token's hash) or a
/// file (a document's PDF, whose own SHA-256 is a column beside it): the
/// log keeps the SHA-256 of the value, so a change shows without the log
/// holding the secret or a copy of the file.
/// (A session's token hash is its primary key, so it names the row in the
/// log: the SHA-256 of a random token, from which no token can be made.)
const SECRET: [(&str, &str); 7] = [
    ("users", "password_hash"),
    ("api_tokens", "hash"),
    ("document_files", "pdf"),
    ("citizen_accounts", "password_hash"),
    ("petition_files", "content"),
    ("carrier_registration_files", "content"),
    ("charter_files", "content"),
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Column {
    pub name: String,
    /// Declared as an integer type (keys are bound as numbers).
    pub integer: bool,
    pub secret: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Table {
    pub name: String,
    /// In the table's order.
    pub columns: Vec<Column>,
    /// The primary key, as positions in `columns`, in the key's order.
    pub key: Vec<usize>,
}

impl Table {
    /// The column names as recorded in `audit_schema` (a JSON array).
    pub fn fingerprint(&self) -> String {
        serde_json::json!(self.columns.iter().map(|c| &c.name).collect::<Vec<_>>()).to_string()
    }

    pub fn column_list(&self) -> String {
        self.columns
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `k1 = $first AND k2 = $(first+1) …`
    pub fn key_match(&self, first: usize) -> String {
        self.key
            .iter()
            .enumerate()
            .map(|(i, &c)| format!("{} = ${}", self.columns[c].name, first + i))
            .collect::<Vec<_>>()
            .join(" AND ")
    }

    pub fn key_columns(&self) -> String {
        self.key
            .iter()
            .map(|&c| self.columns[c].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The column that names the jurisdiction a row belongs to, if any.
    pub fn jurisdiction_column(&self) -> Option<&str> {
        let wanted = if self.name == "jurisdictions" {
            "id"
        } else {
            "jurisdiction"
        };
        self.columns
            .iter()
            .find(|c| c.name == wanted)
            .map(|c| c.name.as_str())
    }
}

/// The audited tables, by name.
#[derive(Debug, Clone, Default)]
pub(crate) struct Schema {
    pub tables: Vec<Table>,
}

impl Schema {
    pub fn table(&self, name: &str) -> Result<&Table, StoreError> {
        self.tables
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| StoreError::Corrupt(format!("`{name}` is not an audited table")))
    }

    /// The audited tables of the database behind `pool`.
    pub async fn read(pool: &AnyPool, backend: Backend) -> Result<Schema, StoreError> {
        let names: Vec<String> = match backend {
            Backend::Sqlite => sqlx::query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
                 ORDER BY name",
            ),
            Backend::Postgres => sqlx::query(
                "SELECT CAST(table_name AS TEXT) AS name FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
                 ORDER BY table_name",
            ),
        }
        .fetch_all(pool)
        .await?
        .iter()
        .map(|row| row.try_get("name"))
        .collect::<Result<_, _>>()?;
        let mut tables = Vec::new();
        for name in names
            .into_iter()
            .filter(|n| !NOT_AUDITED.contains(&n.as_str()))
        {
            tables.push(read_table(pool, backend, name).await?);
        }
        Ok(Schema { tables })
    }
}

async fn read_table(pool: &AnyPool, backend: Backend, name: String) -> Result<Table, StoreError> {
    // (column, declared type, position in the primary key or 0)
    let rows = match backend {
        Backend::Sqlite => sqlx::query(
            "SELECT name, type AS declared, pk AS key_position FROM pragma_table_info($1) ORDER BY cid",
        ),
        Backend::Postgres => sqlx::query(
            "SELECT CAST(c.column_name AS TEXT) AS name, CAST(c.data_type AS TEXT) AS declared, \
             CAST(COALESCE(k.ordinal_position, 0) AS BIGINT) AS key_position \
             FROM information_schema.columns c \
             LEFT JOIN information_schema.table_constraints t \
               ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
              AND t.constraint_type = 'PRIMARY KEY' \
             LEFT JOIN information_schema.key_column_usage k \
               ON k.constraint_name = t.constraint_name AND k.table_schema = c.table_schema \
              AND k.table_name = c.table_name AND k.column_name = c.column_name \
             WHERE c.table_schema = current_schema() AND c.table_name = $1 \
             ORDER BY c.ordinal_position",
        ),
    }
    .bind(&name)
    .fetch_all(pool)
    .await?;
    let mut columns = Vec::new();
    let mut key: Vec<(i64, usize)> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let column: String = row.try_get("name")?;
        let declared: String = row.try_get("declared")?;
        let position: i64 = row.try_get("key_position")?;
        if position > 0 {
            key.push((position, i));
        }
        columns.push(Column {
            secret: SECRET.contains(&(name.as_str(), column.as_str())),
            integer: declared.to_lowercase().contains("int"),
            name: column,
        });
    }
    if key.is_empty() {
        return Err(StoreError::Corrupt(format!(
            "the table `{name}` has no primary key, so the audit log cannot name its rows: \
             give it one, or list it in audit::schema::NOT_AUDITED if it is not a record"
        )));
    }
    key.sort_unstable();
    Ok(Table {
        name,
        columns,
        key: key.into_iter().map(|(_, i)| i).collect(),
    })
}
