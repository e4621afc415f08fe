//! `outorga user add`, `outorga user token` and `outorga user
//! prune-sign-ins`: users, API tokens and the record of sign-in attempts
//! from the command line (the first administrator is made here).

use crate::db::{runtime, url_for};
use anyhow::{Context as _, bail};
use outorga_store::{Change, Role, Scope, Store, StoreError};
use std::io::BufRead as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Where the database is.
#[derive(Debug, clap::Args)]
pub struct DatabaseArgs {
    /// PostgreSQL (`postgres://…`) or SQLite (`sqlite://…`) URL (default:
    /// SQLite in the data folder).
    #[arg(long, env = "OUTORGA_DATABASE_URL")]
    pub database_url: Option<String>,
    /// The data folder for the default SQLite database.
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
}

impl DatabaseArgs {
    /// The database, opened and sealed with the audit keys of the data
    /// folder (or `OUTORGA_AUDIT_KEY`).
    pub(crate) async fn open(&self) -> anyhow::Result<Store> {
        let url = url_for(self.database_url.clone(), &self.data)?;
        crate::db::open_store(&url, &self.data, "outorga").await
    }
}

/// The change a command makes, now.
fn change<'a>(by: &'a str, why: &'a str) -> Change<'a> {
    Change {
        by,
        at: chrono::Utc::now().naive_utc(),
        why,
    }
}

/// Bad input: the field and the reason, exit status 2.
fn refused(error: StoreError) -> anyhow::Result<ExitCode> {
    match error.bad_input() {
        Some((field, reason)) => {
            eprintln!("erro: {field}: {reason}");
            Ok(ExitCode::from(2))
        }
        None => Err(error.into()),
    }
}

/// The password from standard input (one line) or from $OUTORGA_PASSWORD;
/// never from the command line, where other users of the machine see it.
fn password(from_stdin: bool) -> anyhow::Result<String> {
    if from_stdin {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("cannot read the password from standard input")?;
        return Ok(line.trim_end_matches(['\n', '\r']).to_string());
    }
    match std::env::var("OUTORGA_PASSWORD") {
        Ok(password) => Ok(password),
        Err(_) => bail!("informe a senha por --password-stdin ou pela variável OUTORGA_PASSWORD"),
    }
}

pub fn add(
    database: &DatabaseArgs,
    name: &str,
    role: &str,
    jurisdictions: Vec<String>,
    password_stdin: bool,
) -> anyhow::Result<ExitCode> {
    let role = match Role::parse(role) {
        Ok(role) => role,
        Err(error) => return refused(error),
    };
    let password = password(password_stdin)?;
    let scope = if jurisdictions.is_empty() {
        Scope::All
    } else {
        Scope::Only(jurisdictions)
    };
    runtime()?.block_on(async {
        let store = database.open().await?;
        let change = change(
            "outorga user add",
            "usuário cadastrado pela linha de comando",
        );
        let created = store
            .create_user(&change, name, role, &password, &scope)
            .await;
        crate::anchor::record(&store, &database.data).await?;
        match created {
            Ok(user) => {
                let scope = match &user.scope {
                    Scope::All => "todas as jurisdições".to_string(),
                    Scope::Only(list) => list.join(", "),
                };
                println!(
                    "usuário {} ({}) cadastrado: {scope}",
                    user.name,
                    user.role.label()
                );
                Ok(ExitCode::SUCCESS)
            }
            Err(error) => refused(error),
        }
    })
}

/// The moment a token given `--expires TEXT` stops working: 00:00 UTC of
/// the day given (YYYY-MM-DD), or of today plus a number of days.
fn expiry(text: &str, now: chrono::NaiveDateTime) -> Result<chrono::NaiveDateTime, StoreError> {
    let text = text.trim();
    let day = match text.parse::<u32>() {
        Ok(days) => now
            .date()
            .checked_add_days(chrono::Days::new(u64::from(days))),
        Err(_) => chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").ok(),
    };
    day.map(|day| day.and_time(chrono::NaiveTime::MIN))
        .ok_or_else(|| StoreError::Invalid {
            field: "--expires",
            reason: format!("`{text}` não é uma data (AAAA-MM-DD) nem um número de dias (como 90)"),
        })
}

pub fn token(
    database: &DatabaseArgs,
    name: &str,
    label: &str,
    expires: Option<&str>,
) -> anyhow::Result<ExitCode> {
    let change = change(
        "outorga user token",
        "token de API criado pela linha de comando",
    );
    let expires = match expires.map(|text| expiry(text, change.at)).transpose() {
        Ok(expires) => expires,
        Err(error) => return refused(error),
    };
    runtime()?.block_on(async {
        let store = database.open().await?;
        let created = store.create_token(&change, name, label, expires).await;
        crate::anchor::record(&store, &database.data).await?;
        match created {
            Ok(token) => {
                println!("{token}");
                eprintln!("guarde este token agora: ele não será mostrado de novo");
                if let Some(at) = expires {
                    eprintln!(
                        "o token deixa de valer em {} (UTC)",
                        at.format("%Y-%m-%d %H:%M")
                    );
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(error) => refused(error),
        }
    })
}

pub fn prune_sign_ins(database: &DatabaseArgs, keep_days: u32) -> anyhow::Result<ExitCode> {
    let change = change(
        "outorga user prune-sign-ins",
        "tentativas de entrada antigas apagadas pela linha de comando",
    );
    let before = change.at - chrono::Duration::days(i64::from(keep_days));
    runtime()?.block_on(async {
        let store = database.open().await?;
        let deleted = store.prune_sign_ins(&change, before).await?;
        crate::anchor::record(&store, &database.data).await?;
        println!(
            "{deleted} tentativas de entrada anteriores a {} apagadas",
            before.format("%Y-%m-%d %H:%M")
        );
        Ok(ExitCode::SUCCESS)
    })
}
