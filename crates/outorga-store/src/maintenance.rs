//! Keeping the database's query planner informed: `ANALYZE` refreshes the
//! statistics both backends plan with. outorga runs it after migrations
//! that changed the schema, after the demo's load and after an import —
//! the moments a table's size changes in a jump. (Every list and workflow
//! query is written so its plan does not depend on them: an index serves
//! each one; see docs/benchmarks.md.)

use crate::{Backend, Store, StoreError};
use sqlx::migrate::Migrate;
use sqlx::{AnyPool, Row};

/// How long a PostgreSQL connection serves before it is replaced, and with
/// it the plans it keeps. PostgreSQL keeps one generic plan per prepared
/// statement — sqlx's, and those behind every foreign key check — made the
/// first times it runs: made while a table is small, it is a sequential
/// scan (or any index that begins with `jurisdiction`), and it is kept while
/// the table grows, until statistics change (`ANALYZE`). That is how issuing
/// autos went from ~640/s to ~260/s at 14 000 rows: the check of each new
/// process step's auto read every auto of the jurisdiction. A connection of
/// a minute plans again at most a minute later, for the tables of then;
/// planning every statement afresh (`plan_cache_mode = force_custom_plan`)
/// would cost more than the plans save (8 times the plate check's time).
/// See docs/benchmarks.md.
pub(crate) const PLANS_LIFETIME: std::time::Duration = std::time::Duration::from_secs(60);

/// How many migrations the database has applied.
pub(crate) async fn applied(pool: &AnyPool, table: &str) -> Result<usize, StoreError> {
    let mut conn = pool.acquire().await?;
    conn.ensure_migrations_table(table).await?;
    Ok(conn.list_applied_migrations(table).await?.len())
}

/// Refreshes the statistics of this store's tables.
pub(crate) async fn analyze(pool: &AnyPool, backend: Backend) -> Result<(), StoreError> {
    match backend {
        Backend::Sqlite => {
            sqlx::query("ANALYZE").execute(pool).await?;
        }
        Backend::Postgres => {
            // The tables of the schema the store works in (a database may
            // hold others: tests run a schema each).
            let tables = sqlx::query(
                "SELECT CAST(tablename AS TEXT) AS tablename FROM pg_tables \
                 WHERE schemaname = current_schema() ORDER BY tablename",
            )
            .fetch_all(pool)
            .await?
            .iter()
            .map(|row| row.try_get::<String, _>("tablename"))
            .collect::<Result<Vec<_>, _>>()?;
            if !tables.is_empty() {
                let quoted: Vec<String> = tables
                    .iter()
                    .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
                    .collect();
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "ANALYZE {}",
                    quoted.join(", ")
                )))
                .execute(pool)
                .await?;
            }
        }
    }
    Ok(())
}

impl Store {
    /// Refreshes the query planner's statistics (`ANALYZE`): after loading
    /// many records at once.
    pub async fn analyze(&self) -> Result<(), StoreError> {
        analyze(&self.pool, self.backend).await
    }
}
