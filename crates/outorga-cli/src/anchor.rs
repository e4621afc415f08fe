//! The last head of the audit log this installation saw, kept in the data
//! folder (`audit-<log>.seen`, 0600, a signed checkpoint): a log that falls behind
//! it — entries removed and the head moved back to one read earlier — is
//! refused when the database is opened, and a server checks it every
//! minute. It holds against someone who can write to the database but not
//! to this folder; `outorga restore` starts it anew.

use crate::db::now;
use anyhow::{Context as _, bail};
use outorga_store::{Checkpoint, CheckpointCheck, Store};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// How often a running server checks the log against what it saw.
pub(crate) const EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// Where the last head seen of the database `store` opens is kept: one
/// file per log (named by its first entry's hash), so databases that share
/// a data folder keep theirs apart.
pub(crate) async fn path(store: &Store, data: &Path) -> anyhow::Result<PathBuf> {
    let id = store.log_id().await?;
    Ok(data.join(format!("audit-{id}.seen")))
}

/// Refuses a log that no longer holds the head last seen here.
pub(crate) async fn check(store: &Store, data: &Path) -> anyhow::Result<()> {
    let file = path(store, data).await?;
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", file.display())),
    };
    let seen = Checkpoint::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}:{}: {}", file.display(), e.line, e.reason))?;
    let behind = match store.check_checkpoint(&seen).await? {
        CheckpointCheck::Holds => return Ok(()),
        CheckpointCheck::BadSignature => format!(
            "{} não foi assinado com as chaves deste banco",
            file.display()
        ),
        CheckpointCheck::Removed { last } => format!(
            "o registro termina na entrada {last}, mas esta instalação já viu a entrada {}: \
             entradas foram removidas",
            seen.seq
        ),
        CheckpointCheck::Rewritten { .. } => format!(
            "a entrada {} não é mais a que esta instalação viu: o registro foi reescrito",
            seen.seq
        ),
    };
    bail!(
        "registro de auditoria: {behind}. Restaure uma cópia íntegra (outorga restore); se foi \
         você quem restaurou de propósito uma cópia mais antiga, apague {}",
        file.display()
    )
}

/// Records the head as it is now as the last one seen (written whole, then
/// renamed into place).
pub(crate) async fn record(store: &Store, data: &Path) -> anyhow::Result<()> {
    let seen = store.head_checkpoint(now()).await?;
    crate::keys::private_folder(data)?;
    let file = path(store, data).await?;
    let staged = file.with_extension("seen.new");
    let _ = std::fs::remove_file(&staged);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(&staged)
        .and_then(|mut f| {
            f.write_all(seen.to_text().as_bytes())
                .and_then(|()| f.sync_all())
        })
        .and_then(|()| std::fs::rename(&staged, &file))
        .with_context(|| format!("cannot write {}", file.display()))
}

/// Checks and records the head every [`EVERY`] while a server runs; a log
/// found behind is logged as an error and no longer recorded, so the next
/// start refuses it.
pub(crate) async fn watch(store: Store, data: PathBuf) {
    loop {
        tokio::time::sleep(EVERY).await;
        let checked = match check(&store, &data).await {
            Ok(()) => record(&store, &data).await,
            Err(e) => Err(e),
        };
        if let Err(e) = checked {
            tracing::error!("{e:#}");
            return;
        }
    }
}

/// Forgets what was seen of the logs of `data` (a restore puts another copy
/// of a log in place).
pub(crate) fn forget(data: &Path) -> anyhow::Result<()> {
    let Ok(entries) = std::fs::read_dir(data) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("audit-") && name.ends_with(".seen") {
            std::fs::remove_file(entry.path())
                .with_context(|| format!("cannot remove {}", entry.path().display()))?;
        }
    }
    Ok(())
}
