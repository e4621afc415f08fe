//! `outorga backup`, then `outorga restore` into a fresh place, on both
//! backends: the records and the audit chain come back, a database that
//! holds data is not overwritten without `--force`, and the backup file is
//! readable by its owner only.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

const PG: &str = "postgres://postgres@127.0.0.1:5432/test";

/// Where a command's database is.
enum Database {
    /// A data folder (the default SQLite database in it).
    Folder(PathBuf),
    /// A PostgreSQL database, and the data folder of the installation.
    Url(String, PathBuf),
}

impl Database {
    fn args(&self) -> Vec<String> {
        match self {
            Database::Folder(dir) => vec!["--data".into(), dir.display().to_string()],
            Database::Url(url, data) => vec![
                "--database-url".into(),
                url.clone(),
                "--data".into(),
                data.display().to_string(),
            ],
        }
    }

    fn url(&self) -> String {
        match self {
            Database::Folder(dir) => format!("sqlite://{}", dir.join("outorga.db").display()),
            Database::Url(url, _) => url.clone(),
        }
    }
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// The deployment's audit key: the same for the source and the target, as
/// a restore on the same deployment (or with its key file copied) has it.
const KEY: &str = "4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b";

fn outorga(database: &Database, args: &[&str]) -> Run {
    outorga_with(database, args, Some(KEY))
}

fn outorga_with(database: &Database, args: &[&str], key: Option<&str>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_outorga"));
    command
        .args(args)
        .args(database.args())
        .env_remove("OUTORGA_DATABASE_URL")
        .env_remove("OUTORGA_AUDIT_KEY")
        .env("OUTORGA_PASSWORD", "uma-senha-longa-de-teste");
    if let Some(key) = key {
        command.env("OUTORGA_AUDIT_KEY", key);
    }
    let output = command.output().expect("the binary runs");
    Run {
        code: output.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn succeeds(database: &Database, args: &[&str]) -> String {
    let run = outorga(database, args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    run.stdout
}

/// A user and two holders, made through the commands.
fn make_records(database: &Database, dir: &Path) {
    let rulebooks = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    succeeds(
        database,
        &[
            "db",
            "init",
            "--rulebooks",
            rulebooks.to_str().expect("utf-8"),
        ],
    );
    succeeds(database, &["user", "add", "chefe", "--role", "admin"]);
    let holders = dir.join("titulares.csv");
    std::fs::write(
        &holders,
        "documento,nome\n526.018.159-06,Ana Ramlow\n083.016.613-05,Beto Braun\n",
    )
    .expect("csv");
    succeeds(
        database,
        &[
            "import",
            "holders",
            holders.to_str().expect("utf-8"),
            "--jurisdiction",
            "cangucu",
        ],
    );
}

/// What the database holds: people and users by name, and audit entries.
fn records(database: &Database) -> (Vec<String>, Vec<String>, i64) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        use sqlx::Connection as _;
        sqlx::any::install_default_drivers();
        let mut db = sqlx::AnyConnection::connect(&database.url())
            .await
            .expect("connect");
        let people = sqlx::query_scalar("SELECT name FROM people ORDER BY name")
            .fetch_all(&mut db)
            .await
            .expect("people");
        let users = sqlx::query_scalar("SELECT name FROM users ORDER BY name")
            .fetch_all(&mut db)
            .await
            .expect("users");
        let entries = sqlx::query_scalar("SELECT count(*) FROM audit_log")
            .fetch_one(&mut db)
            .await
            .expect("audit");
        (people, users, entries)
    })
}

/// Backs `source` up, restores the copy into `target` and checks it.
fn round_trip(source: &Database, target: &Database, dir: &Path) {
    make_records(source, dir);
    let copy = dir.join("copia");
    succeeds(source, &["backup", copy.to_str().expect("utf-8")]);
    let mode = std::fs::metadata(&copy).expect("copy").permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the backup is its owner's only");

    let copy = copy.to_str().expect("utf-8");
    let restored = succeeds(target, &["restore", copy]);
    let (people, users, entries) = records(source);
    assert_eq!(people, ["Ana Ramlow", "Beto Braun"]);
    assert_eq!(records(target), (people, users, entries));
    assert!(
        restored.contains(&format!("íntegro: {entries} entradas")),
        "{restored}"
    );
    let verified = succeeds(target, &["audit", "verify"]);
    assert!(
        verified.contains(&format!("íntegro: {entries} entradas")),
        "{verified}"
    );

    // The target now holds data: not overwritten without --force.
    let again = outorga(target, &["restore", copy]);
    assert_eq!(again.code, 2, "{}{}", again.stdout, again.stderr);
    assert!(again.stderr.contains("já tem dados"), "{}", again.stderr);
    succeeds(target, &["restore", copy, "--force"]);
    assert_eq!(records(target).2, entries);

    // Something that is not a backup restores nothing.
    let other = dir.join("titulares.csv");
    let wrong = outorga(
        target,
        &["restore", other.to_str().expect("utf-8"), "--force"],
    );
    assert_eq!(wrong.code, 2, "{}{}", wrong.stdout, wrong.stderr);
    assert!(wrong.stderr.contains("não é uma cópia"), "{}", wrong.stderr);
}

#[test]
fn sqlite_round_trip() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = Database::Folder(dir.path().join("origem"));
    let target = Database::Folder(dir.path().join("destino"));
    round_trip(&source, &target, dir.path());
    let Database::Folder(folder) = &target else {
        unreachable!()
    };
    let mode = |path: &Path| {
        std::fs::metadata(path)
            .expect("exists")
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(folder), 0o700);
    assert_eq!(mode(&folder.join("outorga.db")), 0o600);

    // Restored where the deployment's key is not: told where to put it, and
    // no key of its own is left behind.
    let elsewhere = Database::Folder(dir.path().join("sem-chave"));
    let copy = dir.path().join("copia");
    let keyless = outorga_with(
        &elsewhere,
        &["restore", copy.to_str().expect("utf-8")],
        None,
    );
    assert_eq!(keyless.code, 2, "{}{}", keyless.stdout, keyless.stderr);
    assert!(
        keyless.stderr.contains("copie para lá o arquivo audit.key"),
        "{}",
        keyless.stderr
    );
    assert!(!dir.path().join("sem-chave/audit.key").exists());
}

/// A database made for one test on the PostgreSQL server, dropped after it.
struct Scratch {
    name: String,
}

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock after 1970")
            .as_nanos();
        let name = format!("outorga_{tag}_{}_{nanos}", std::process::id());
        admin(&format!("CREATE DATABASE {name}"));
        Scratch { name }
    }

    fn database(&self, data: &Path) -> Database {
        let server = pg_server();
        let base = server
            .rsplit_once('/')
            .map_or(server.as_str(), |(base, _)| base);
        Database::Url(format!("{base}/{}", self.name), data.to_path_buf())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        admin(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ));
    }
}

fn pg_server() -> String {
    std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string())
}

/// Runs one statement on the test server's own database.
fn admin(sql: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        use sqlx::Connection as _;
        sqlx::any::install_default_drivers();
        let mut db = sqlx::AnyConnection::connect(&pg_server())
            .await
            .expect("PostgreSQL reachable (OUTORGA_TEST_DATABASE_URL)");
        sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
            .execute(&mut db)
            .await
            .expect("statement");
    });
}

#[test]
fn postgres_round_trip() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (source, target) = (Scratch::new("origem"), Scratch::new("destino"));
    let data = dir.path().join("dados");
    round_trip(&source.database(&data), &target.database(&data), dir.path());
}
