//! `outorga restore`: a backup made by `outorga backup` back into a
//! database, then opened (migrations run) and its audit chain checked.
//!
//! The target must hold no data: a SQLite file that does not exist yet (or
//! is empty), a PostgreSQL database with no tables in its schema. `--force`
//! replaces what is there; stop the server on it first.

use crate::backup::{is_postgres, pg_tool};
use crate::db::{redacted, runtime, url_for};
use crate::users::DatabaseArgs;
use anyhow::{Context as _, bail};
use outorga_store::private_file;
use sqlx::Connection as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The first bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// The first bytes of a `pg_dump --format=custom` file.
const PG_DUMP_HEADER: &[u8; 5] = b"PGDMP";

/// Restores `from` into the database; exit 0 when the restored audit chain
/// is intact, 1 when it is not, 2 when nothing was restored.
pub fn restore(database: &DatabaseArgs, from: &Path, force: bool) -> anyhow::Result<ExitCode> {
    let url = url_for(database.database_url.clone(), &database.data)?;
    let postgres = is_postgres(&url);
    let expected: &[u8] = if postgres {
        PG_DUMP_HEADER
    } else {
        SQLITE_HEADER
    };
    if !starts_with(from, expected)? {
        eprintln!(
            "erro: {} não é uma cópia de {} feita por outorga backup",
            from.display(),
            if postgres { "PostgreSQL" } else { "SQLite" }
        );
        return Ok(ExitCode::from(2));
    }
    let runtime = runtime()?;
    let occupied = if postgres {
        runtime.block_on(postgres_tables(&url))?
    } else {
        sqlite_has_data(&sqlite_path(&url)?)
    };
    if occupied && !force {
        eprintln!(
            "erro: o banco {} já tem dados: restaure num banco novo, ou use --force para \
             substituí-los (pare o servidor antes)",
            redacted(&url)
        );
        return Ok(ExitCode::from(2));
    }
    if postgres {
        pg_restore(&url, from, occupied)?;
    } else {
        copy_sqlite(from, &sqlite_path(&url)?)?;
    }
    runtime.block_on(async {
        // What this installation saw of the log before is no more: the copy
        // restored is what it sees from now on.
        crate::anchor::forget(&database.data)?;
        // The copy is sealed with the deployment's key: opened with it, or
        // refused (another key, no seal) before anything else reads it.
        let store = database.open().await?;
        println!("cópia {} restaurada em {}", from.display(), redacted(&url));
        let report = store.verify_audit().await?;
        Ok(if crate::audit::print_report(&report) {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    })
}

/// Whether the file at `path` begins with `header`.
fn starts_with(path: &Path, header: &[u8]) -> anyhow::Result<bool> {
    let mut file = std::fs::File::open(path)
        .with_context(|| format!("cannot read the backup {}", path.display()))?;
    let mut start = vec![0; header.len()];
    Ok(file.read_exact(&mut start).is_ok() && start == header)
}

/// The file of a SQLite URL (`sqlite://FILE?…`).
fn sqlite_path(url: &str) -> anyhow::Result<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .with_context(|| {
            format!("`{url}` is not a database URL: use sqlite://<file> or postgres://<host>/<db>")
        })?;
    let file = rest.split('?').next().unwrap_or_default();
    if file.is_empty() || file == ":memory:" {
        bail!("`{url}` names no database file to restore into");
    }
    Ok(PathBuf::from(file))
}

/// A SQLite database has data when its file, or its write-ahead log, is
/// not empty (`outorga` creates an empty file for a new database).
fn sqlite_has_data(file: &Path) -> bool {
    let size = |path: &Path| std::fs::metadata(path).map_or(0, |m| m.len());
    size(file) > 0 || size(&suffixed(file, "-wal")) > 0
}

fn suffixed(file: &Path, suffix: &str) -> PathBuf {
    let mut name = file.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// Copies the backup beside `target` (0600), then puts it in its place in
/// one rename, with the replaced database's write-ahead log and shared
/// memory files removed (SQLite would apply them to the restored file).
fn copy_sqlite(from: &Path, target: &Path) -> anyhow::Result<()> {
    let partial = suffixed(target, ".restaurando");
    // Left over by a restore that was interrupted.
    let _ = std::fs::remove_file(&partial);
    let copied = (|| {
        let mut file = private_file(&partial)?;
        std::io::copy(&mut std::fs::File::open(from)?, &mut file)?;
        file.sync_all()
    })();
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&partial);
        bail!("cannot write {}: {e}", partial.display());
    }
    for stale in ["-wal", "-shm"] {
        match std::fs::remove_file(suffixed(target, stale)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                bail!("cannot remove the old database's {stale} file: {e}")
            }
            _ => {}
        }
    }
    std::fs::rename(&partial, target)
        .with_context(|| format!("cannot put the copy in place of {}", target.display()))
}

/// Whether the PostgreSQL database at `url` has tables in its schema.
async fn postgres_tables(url: &str) -> anyhow::Result<bool> {
    sqlx::any::install_default_drivers();
    let mut connection = sqlx::AnyConnection::connect(url)
        .await
        .with_context(|| format!("cannot connect to {}", redacted(url)))?;
    let tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()",
    )
    .fetch_one(&mut connection)
    .await?;
    connection.close().await?;
    Ok(tables > 0)
}

/// `pg_restore` in one transaction (all of the backup or nothing), owned by
/// the user of the URL; `replace` drops what the backup recreates first.
fn pg_restore(url: &str, from: &Path, replace: bool) -> anyhow::Result<()> {
    let mut command = pg_tool("pg_restore", url)?;
    command.args(["--single-transaction", "--no-owner", "--no-privileges"]);
    if replace {
        command.args(["--clean", "--if-exists"]);
    }
    let status = command
        .arg(from)
        .status()
        .context("cannot run pg_restore (install the PostgreSQL client)")?;
    if !status.success() {
        bail!("pg_restore failed ({status}): nothing was restored");
    }
    Ok(())
}
