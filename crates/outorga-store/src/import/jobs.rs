//! An import run in the background (the screen's "Importar" of a file):
//! its progress is a row of `import_jobs` (migration 0034), written by the
//! process that received the file as it goes and read by any server that
//! shares the database, so the page that polls it may be answered by
//! another server. Nothing about the job is held only in a process: a job
//! whose process died stays `running` with a beat that no longer moves, and
//! is read as interrupted once the beat is older than [`BEAT_TIMEOUT_SECONDS`]
//! (the rows it imported stay, each audited; importing the file again
//! refuses them as already recorded and takes the rest).
//! The table is not audited: the rows the import writes are.

use super::{ImportReport, ImportRequest, Outcome, RowOutcome};
use crate::audit::Change;
use crate::{Store, StoreError};
use chrono::NaiveDateTime;
use sqlx::Row;

/// A running job whose last beat is older than this was interrupted. The
/// worker beats every half second while rows are taken (a row takes well
/// under a second).
pub const BEAT_TIMEOUT_SECONDS: i64 = 60;

/// Progress is written this often while rows are taken (and once at the end).
const BEAT_MILLISECONDS: u64 = 500;

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum JobState {
    Running,
    Finished,
    /// Stopped by an error of the database (not of a row): `error` says.
    Failed,
    /// Its process stopped beating: it died or was stopped.
    Interrupted,
}

/// What the rows taken so far came to.
#[derive(Debug, Clone, Default)]
struct Progress {
    done: usize,
    imported: u64,
    refused: Vec<RowOutcome>,
}

/// A job as read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImportJob {
    pub id: String,
    pub jurisdiction: String,
    pub kind: String,
    pub file: String,
    pub started_by: String,
    pub started_at: NaiveDateTime,
    pub total: u64,
    pub done: u64,
    pub imported: u64,
    pub refused: u64,
    pub state: JobState,
    /// The refused rows so far; every row's outcome once finished.
    pub outcomes: Vec<RowOutcome>,
    pub error: Option<String>,
}

fn text(at: NaiveDateTime) -> String {
    crate::dates::moment_text(at)
}

impl Store {
    /// Records a job about to import `request.table` (checked: its header is
    /// the kind's) and returns its id. The caller then runs
    /// [`Store::run_import_job`], usually in a task of its own.
    pub async fn start_import_job(
        &self,
        change: &Change<'_>,
        request: ImportRequest<'_>,
    ) -> Result<String, StoreError> {
        super::check_header(request.kind, &request.table.header)?;
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|_| StoreError::Corrupt("aleatoriedade".into()))?;
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let (mut tx, _writer) = self.write_transaction().await?;
        sqlx::query(
            "INSERT INTO import_jobs (id, jurisdiction, kind, file, started_by, started_at, beat_at, \
             total, done, imported, refused, state, outcomes) \
             VALUES ($1, $2, $3, $4, $5, $6, $6, $7, 0, 0, 0, 'running', '[]')",
        )
        .bind(&id)
        .bind(request.jurisdiction)
        .bind(request.kind.name())
        .bind(request.file)
        .bind(change.by)
        .bind(text(change.at))
        .bind(i64::try_from(request.table.rows.len()).unwrap_or(i64::MAX))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Runs the job `id` (a real import: each row its own transaction),
    /// writing its progress as it goes and how it ended. `clock` gives the
    /// moments of its beats (the store reads no clock).
    pub async fn run_import_job(
        &self,
        change: &Change<'_>,
        request: ImportRequest<'_>,
        id: &str,
        clock: &(dyn Fn() -> NaiveDateTime + Send + Sync),
    ) -> Result<ImportReport, StoreError> {
        let request = ImportRequest {
            dry_run: false,
            ..request
        };
        // The rows are taken in one future; another writes their progress
        // every half second until they are done.
        let progress = std::sync::Mutex::new(Progress::default());
        let running = std::sync::atomic::AtomicBool::new(true);
        let rows = async {
            let result = self
                .import_rows(change, request, &mut |row, done, _| {
                    if let Ok(mut p) = progress.lock() {
                        p.done = done;
                        match &row.outcome {
                            Outcome::Imported { .. } => p.imported += 1,
                            Outcome::Refused { .. } => p.refused.push(row.clone()),
                        }
                    }
                })
                .await;
            running.store(false, std::sync::atomic::Ordering::SeqCst);
            result
        };
        // Each beat says the job lives, rows done or not (a row slower
        // than the timeout would otherwise read as interrupted).
        let beats = async {
            while running.load(std::sync::atomic::Ordering::SeqCst) {
                tokio::time::sleep(std::time::Duration::from_millis(BEAT_MILLISECONDS)).await;
                let now = progress.lock().map(|p| p.clone()).unwrap_or_default();
                // A beat that fails is retried at the next; the rows go on.
                let _ = self.beat(id, clock(), &now).await;
            }
        };
        let (result, ()) = tokio::join!(rows, beats);
        let now = clock();
        let (mut tx, _writer) = self.write_transaction().await?;
        match &result {
            Ok(report) => {
                sqlx::query(
                    "UPDATE import_jobs SET state = 'finished', beat_at = $2, done = $3, imported = $4, \
                     refused = $5, outcomes = $6 WHERE id = $1",
                )
                .bind(id)
                .bind(text(now))
                .bind(report.rows.len() as i64)
                .bind(report.imported() as i64)
                .bind(report.refused() as i64)
                .bind(serde_json::to_string(&report.rows).map_err(|e| StoreError::Corrupt(e.to_string()))?)
                .execute(&mut *tx)
                .await?;
            }
            Err(error) => {
                sqlx::query(
                    "UPDATE import_jobs SET state = 'failed', beat_at = $2, error = $3 WHERE id = $1",
                )
                .bind(id)
                .bind(text(now))
                .bind(error.to_string())
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        result
    }

    async fn beat(
        &self,
        id: &str,
        now: NaiveDateTime,
        progress: &Progress,
    ) -> Result<(), StoreError> {
        let (done, imported, refused) = (progress.done, progress.imported, &progress.refused);
        let (mut tx, _writer) = self.write_transaction().await?;
        sqlx::query(
            "UPDATE import_jobs SET beat_at = $2, done = $3, imported = $4, refused = $5, outcomes = $6 \
             WHERE id = $1",
        )
        .bind(id)
        .bind(text(now))
        .bind(done as i64)
        .bind(imported as i64)
        .bind(refused.len() as i64)
        .bind(serde_json::to_string(refused).map_err(|e| StoreError::Corrupt(e.to_string()))?)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The job `id` of `jurisdiction` as it stands at `now`.
    pub async fn import_job(
        &self,
        jurisdiction: &str,
        id: &str,
        now: NaiveDateTime,
    ) -> Result<ImportJob, StoreError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "SELECT id, jurisdiction, kind, file, started_by, started_at, beat_at, total, done, \
             imported, refused, state, outcomes, error FROM import_jobs WHERE id = $1 AND jurisdiction = $2",
        )
        .bind(id)
        .bind(jurisdiction)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        let Some(row) = row else {
            return Err(StoreError::NotFound(format!(
                "não há importação {id} em {jurisdiction}"
            )));
        };
        let count = |column: &str| -> Result<u64, StoreError> {
            Ok(u64::try_from(row.try_get::<i64, _>(column)?).unwrap_or(0))
        };
        let beat = crate::dates::moment(&row.try_get::<String, _>("beat_at")?)?;
        let state: String = row.try_get("state")?;
        let state = match state.as_str() {
            "finished" => JobState::Finished,
            "failed" => JobState::Failed,
            _ if (now - beat).num_seconds() > BEAT_TIMEOUT_SECONDS => JobState::Interrupted,
            _ => JobState::Running,
        };
        let outcomes: String = row.try_get("outcomes")?;
        Ok(ImportJob {
            id: row.try_get("id")?,
            jurisdiction: row.try_get("jurisdiction")?,
            kind: row.try_get("kind")?,
            file: row.try_get("file")?,
            started_by: row.try_get("started_by")?,
            started_at: crate::dates::moment(&row.try_get::<String, _>("started_at")?)?,
            total: count("total")?,
            done: count("done")?,
            imported: count("imported")?,
            refused: count("refused")?,
            state,
            outcomes: serde_json::from_str(&outcomes)
                .map_err(|e| StoreError::Corrupt(format!("import_jobs.outcomes: {e}")))?,
            error: row.try_get("error")?,
        })
    }
}
