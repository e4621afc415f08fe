//! `outorga backup`: a consistent copy of the database, in a file readable
//! by its owner only (0600).

use crate::db::url_for;
use crate::users::DatabaseArgs;
use anyhow::{Context as _, bail};
use outorga_store::private_file;
use percent_encoding::percent_decode_str;
use std::path::Path;
use std::process::{Command, ExitCode};

/// SQLite: `VACUUM INTO` the file (the server may keep running). PostgreSQL:
/// `pg_dump` in its custom format (`outorga restore` reads both).
pub fn backup(database: &DatabaseArgs, to: &Path) -> anyhow::Result<ExitCode> {
    let url = url_for(database.database_url.clone(), &database.data)?;
    if is_postgres(&url) {
        // pg_dump writes into the empty file, which keeps its mode.
        private_file(to).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                anyhow::anyhow!("{} already exists: choose another file", to.display())
            }
            _ => anyhow::anyhow!("cannot create {}: {e}", to.display()),
        })?;
        let status = pg_tool("pg_dump", &url)?
            .args(["--format=custom", "--file"])
            .arg(to)
            .status();
        let failed = match status {
            Ok(status) if status.success() => None,
            Ok(status) => Some(format!("pg_dump failed ({status})")),
            Err(e) => Some(format!(
                "cannot run pg_dump (install the PostgreSQL client): {e}"
            )),
        };
        if let Some(why) = failed {
            // No half-written copy is left behind.
            let _ = std::fs::remove_file(to);
            bail!(why);
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

pub(crate) fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres:") || url.starts_with("postgresql:")
}

/// A PostgreSQL client tool (`pg_dump`, `pg_restore`) on the database at
/// `url`. The password, if the URL has one (`user:password@` or
/// `?password=`), goes in the tool's environment (`PGPASSWORD`), never in
/// its arguments, which every user of the machine can read (`ps`).
pub(crate) fn pg_tool(program: &str, url: &str) -> anyhow::Result<Command> {
    let mut target = url::Url::parse(url).context("the database URL cannot be read")?;
    let mut password = target
        .password()
        .map(|p| percent_decode_str(p).decode_utf8_lossy().into_owned());
    if password.is_some() {
        target
            .set_password(None)
            .map_err(|()| anyhow::anyhow!("the database URL cannot be read"))?;
    }
    let (secret, kept): (Vec<_>, Vec<_>) = target
        .query_pairs()
        .into_owned()
        .partition(|(key, _)| key == "password");
    if let Some((_, value)) = secret.into_iter().next_back() {
        password = Some(value);
        if kept.is_empty() {
            target.set_query(None);
        } else {
            target.query_pairs_mut().clear().extend_pairs(kept);
        }
    }
    let mut command = Command::new(program);
    command.arg(format!("--dbname={target}"));
    if let Some(password) = password {
        command.env("PGPASSWORD", password);
    }
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::pg_tool;
    use std::ffi::OsStr;

    fn arguments(url: &str) -> (Vec<String>, Option<String>) {
        let command = pg_tool("pg_dump", url).expect("command");
        let args = command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let password = command
            .get_envs()
            .find(|(key, _)| *key == OsStr::new("PGPASSWORD"))
            .and_then(|(_, value)| value.map(|v| v.to_string_lossy().into_owned()));
        (args, password)
    }

    #[test]
    fn the_password_goes_in_the_environment_never_in_the_arguments() {
        let (args, password) = arguments("postgres://ana:s3cr%40t@db.local:5433/outorga");
        assert_eq!(args, ["--dbname=postgres://ana@db.local:5433/outorga"]);
        assert_eq!(password.as_deref(), Some("s3cr@t"));

        let (args, password) =
            arguments("postgres://ana@db.local/outorga?sslmode=require&password=outra");
        assert_eq!(
            args,
            ["--dbname=postgres://ana@db.local/outorga?sslmode=require"]
        );
        assert_eq!(password.as_deref(), Some("outra"));

        let (args, password) = arguments("postgres://ana@db.local/outorga?password=outra");
        assert_eq!(args, ["--dbname=postgres://ana@db.local/outorga"]);
        assert_eq!(password.as_deref(), Some("outra"));

        // Without a password: nothing in the environment either (a
        // passfile, ~/.pgpass, or trust authentication).
        let (args, password) = arguments("postgres://postgres@127.0.0.1:5432/test");
        assert_eq!(args, ["--dbname=postgres://postgres@127.0.0.1:5432/test"]);
        assert_eq!(password, None);
    }
}
