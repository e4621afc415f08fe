//! `outorga db init`: the system of record's database, bound to the rulebooks.

use crate::rulebooks::{load, rulebooks_folder};
use anyhow::Context as _;
use outorga_rulebook::Library;
use outorga_store::{Change, Jurisdiction, Store, sqlite_url};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Opens (creating and migrating) the database and records each jurisdiction
/// of the rulebooks with the rulebooks it is bound to.
pub fn init(
    database_url: Option<String>,
    data: &Path,
    rulebooks: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let folder = rulebooks_folder(rulebooks)?;
    let library = match load(&folder) {
        Ok(library) => library,
        Err(code) => return Ok(code),
    };
    let jurisdictions = jurisdictions(&library);
    let url = url_for(database_url, data)?;
    runtime()?.block_on(async {
        let store = open_synced(&url, data, &jurisdictions, "outorga db init").await?;
        let recorded = store.jurisdictions().await?;
        println!("database ready: {}", redacted(&url));
        for j in &recorded {
            println!("  {} ({}) — {}", j.name, j.state, j.rulebooks.join(", "));
        }
        println!("{} jurisdiction(s)", recorded.len());
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Now, in UTC: the time of the changes a command makes.
pub(crate) fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// A runtime for one command's database work.
pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the database runtime")
}

/// The database URL given, or the SQLite database in `data`.
pub(crate) fn url_for(given: Option<String>, data: &Path) -> anyhow::Result<String> {
    Ok(match given {
        Some(url) => url,
        None => sqlite_url(data)?,
    })
}

/// Each jurisdiction of the library with the rulebooks bound to it.
pub(crate) fn jurisdictions(library: &Library) -> Vec<Jurisdiction> {
    let mut jurisdictions: Vec<Jurisdiction> = Vec::new();
    for rulebook in library.rulebooks() {
        let j = &rulebook.jurisdiction;
        match jurisdictions.iter_mut().find(|known| known.id == j.id) {
            Some(known) => known.rulebooks.push(rulebook.id.clone()),
            None => jurisdictions.push(Jurisdiction {
                id: j.id.clone(),
                name: j.name.clone(),
                state: j.state.clone(),
                rulebooks: vec![rulebook.id.clone()],
            }),
        }
    }
    jurisdictions
}

/// Opens (creating and migrating) the database at `url` with the audit
/// keys of `data` (or the environment), and seals it as `by` (a log
/// written before the key, tables the log does not describe yet: said on
/// standard error when there was something to do).
pub(crate) async fn open_store(url: &str, data: &Path, by: &str) -> anyhow::Result<Store> {
    let (keys, source) = crate::keys::audit_keys(data)?;
    let opened = match open_and_seal(url, keys, by).await {
        Ok(store) => {
            crate::anchor::check(&store, data).await?;
            crate::anchor::record(&store, data).await?;
            Ok(store)
        }
        Err(e) => Err(e),
    };
    match (&source, opened) {
        (crate::keys::Source::Created(path), Ok(store)) => {
            eprintln!(
                "chave do registro de auditoria criada em {} (guarde uma cópia em lugar seguro)",
                path.display()
            );
            Ok(store)
        }
        // The key just made is not this database's: no key file was there.
        (crate::keys::Source::Created(path), Err(error)) => {
            let _ = std::fs::remove_file(path);
            Err(error.context(format!(
                "não há chave do registro de auditoria em {} nem em ${}: copie para lá o arquivo \
                 audit.key da instalação de onde o banco veio, ou defina ${}",
                path.display(),
                crate::keys::KEY_VARIABLE,
                crate::keys::KEY_VARIABLE
            )))
        }
        (_, opened) => opened,
    }
}

async fn open_and_seal(
    url: &str,
    keys: outorga_store::AuditKeys,
    by: &str,
) -> anyhow::Result<Store> {
    let store = Store::open(url, keys).await?;
    let sealed = store
        .seal(&Change {
            by,
            at: now(),
            why: "selo do registro de auditoria",
        })
        .await?;
    if sealed.sealed > 0 {
        eprintln!(
            "registro de auditoria: {} entradas anteriores à chave conferidas e seladas",
            sealed.sealed
        );
    }
    let upgraded = store
        .upgrade_records(&Change {
            by,
            at: now(),
            why: "registros ajustados à versão do banco",
        })
        .await?;
    if upgraded > 0 {
        eprintln!("{upgraded} autos com a decisão notificada passam à situação decision_notified");
    }
    if !sealed.tables.is_empty() && sealed.described > 0 {
        eprintln!(
            "registro de auditoria: {} registros descritos ({})",
            sealed.described,
            sealed.tables.join(", ")
        );
    }
    Ok(store)
}

/// Opens the database like [`open_store`] and records the jurisdictions
/// with their rulebooks, as `by`.
pub(crate) async fn open_synced(
    url: &str,
    data: &Path,
    jurisdictions: &[Jurisdiction],
    by: &str,
) -> anyhow::Result<Store> {
    let store = open_store(url, data, by).await?;
    store
        .sync_jurisdictions(
            &Change {
                by,
                at: now(),
                why: "jurisdições e regulamentos lidos da pasta de regulamentos",
            },
            jurisdictions,
        )
        .await?;
    crate::anchor::record(&store, data).await?;
    Ok(store)
}

/// The URL without a password, for printing.
pub(crate) fn redacted(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn passwords_are_not_printed() {
        assert_eq!(
            redacted("postgres://ana:s3cr3t@db/outorga"),
            "postgres://ana:***@db/outorga"
        );
        assert_eq!(redacted("postgres://ana@db/x"), "postgres://ana@db/x");
        assert_eq!(
            redacted("sqlite://data/outorga.db?mode=rwc"),
            "sqlite://data/outorga.db?mode=rwc"
        );
    }
}
