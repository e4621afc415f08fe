//! The audit key's place: `OUTORGA_AUDIT_KEY` (for several servers on one
//! PostgreSQL, or a key kept in a secrets manager), or the file `audit.key`
//! in the data folder, created on first use, readable by its owner only.

use anyhow::Context as _;
use outorga_store::{AuditKey, AuditKeys};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The environment variable that holds the keys (as the key file does).
pub(crate) const KEY_VARIABLE: &str = "OUTORGA_AUDIT_KEY";

/// Where the keys came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    Environment,
    File(PathBuf),
    /// A key file made just now (there was none): for a new database.
    Created(PathBuf),
}

/// The key file of a data folder.
pub(crate) fn key_file(data: &Path) -> PathBuf {
    data.join("audit.key")
}

/// The deployment's audit keys: from the environment, else the data
/// folder's key file, made (with a new key) if there is none.
pub(crate) fn audit_keys(data: &Path) -> anyhow::Result<(AuditKeys, Source)> {
    if let Ok(text) = std::env::var(KEY_VARIABLE) {
        let keys = AuditKeys::parse(&text).with_context(|| format!("${KEY_VARIABLE}"))?;
        return Ok((keys, Source::Environment));
    }
    let path = key_file(data);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let keys = AuditKeys::parse(&text).with_context(|| path.display().to_string())?;
            Ok((keys, Source::File(path)))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let keys = AuditKeys::new(AuditKey::generate()?);
            write_new(&path, &keys)?;
            Ok((keys, Source::Created(path)))
        }
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Writes `keys` to a new file at `path` (0600; its folder made 0700 if
/// missing); an existing file is never overwritten.
pub(crate) fn write_new(path: &Path, keys: &AuditKeys) -> anyhow::Result<()> {
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        private_folder(folder)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    file.write_all(keys.to_text().as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Creates `folder` (and its parents) readable by its owner only.
pub(crate) fn private_folder(folder: &Path) -> anyhow::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(folder)
        .with_context(|| format!("cannot create {}", folder.display()))
}
