//! `outorga backup`: a consistent copy of the database.

use crate::db::url_for;
use crate::users::DatabaseArgs;
use anyhow::{Context as _, bail};
use std::path::Path;
use std::process::ExitCode;

/// SQLite: `VACUUM INTO` the file (the server may keep running). PostgreSQL:
/// `pg_dump` in its custom format (restore with `pg_restore`).
pub fn backup(database: &DatabaseArgs, to: &Path) -> anyhow::Result<ExitCode> {
    let url = url_for(database.database_url.clone(), &database.data)?;
    if url.starts_with("postgres") {
        if to.exists() {
            bail!("{} already exists: choose another file", to.display());
        }
        let status = std::process::Command::new("pg_dump")
            .args(["--format=custom", "--file"])
            .arg(to)
            .arg(format!("--dbname={url}"))
            .status()
            .context("cannot run pg_dump (install the PostgreSQL client)")?;
        if !status.success() {
            bail!("pg_dump failed ({status})");
        }
    } else {
        crate::db::runtime()?.block_on(async {
            let store = database.open().await?;
            Ok::<_, anyhow::Error>(store.backup_sqlite(to).await?)
        })?;
    }
    let size = std::fs::metadata(to).map(|m| m.len()).unwrap_or(0);
    println!("cópia gravada em {} ({size} bytes)", to.display());
    Ok(ExitCode::SUCCESS)
}
