//! The SQLite files are their owner's only: the data folder 0700, the
//! database and the files SQLite keeps beside it (`-wal`, `-shm`, which take
//! the database file's mode) and its backups 0600.

use outorga_store::{Change, Jurisdiction, sqlite_url};
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[tokio::test]
async fn the_database_its_journal_and_its_backups_are_private() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("dados");
    let store = crate::common::open(&sqlite_url(&data).expect("url")).await;
    let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 30)
        .and_then(|d| d.and_hms_opt(9, 0, 0))
        .expect("date");
    let change = Change {
        by: "teste",
        at,
        why: "arquivos",
    };
    let jurisdiction = Jurisdiction {
        id: "cangucu".into(),
        name: "Canguçu".into(),
        state: "RS".into(),
        rulebooks: vec!["cangucu/taxi".into()],
    };
    store
        .sync_jurisdictions(&change, &[jurisdiction])
        .await
        .expect("a write");
    // The store is open and has written: the WAL and its index exist.
    assert_eq!(mode(&data), 0o700);
    for file in ["outorga.db", "outorga.db-wal", "outorga.db-shm"] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }
    let copy = dir.path().join("copia.db");
    store.backup_sqlite(&copy).await.expect("backup");
    assert_eq!(mode(&copy), 0o600);
    assert!(copy.metadata().expect("copy").len() > 0);
    // An existing file is never overwritten.
    assert!(store.backup_sqlite(&copy).await.is_err());
}
