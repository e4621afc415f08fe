//! `outorga audit verify`, `checkpoint`, `verify --since` and `rotate-key` on
//! the binary, and where the audit key lives (a 0600 file in the data
//! folder, or `OUTORGA_AUDIT_KEY`).

use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary on the data folder `data`, with `OUTORGA_AUDIT_KEY` set
/// to `key` when given (and unset otherwise).
fn outorga(data: &Path, args: &[&str], key: Option<&str>) -> Run {
    let rulebooks = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    let mut command = Command::new(env!("CARGO_BIN_EXE_outorga"));
    command
        .args(args)
        .arg("--data")
        .arg(data)
        .env("OUTORGA_RULEBOOKS", rulebooks)
        .env_remove("OUTORGA_DATABASE_URL")
        .env_remove("OUTORGA_AUDIT_KEY");
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

fn sql(data: &Path, statements: &[String]) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        sqlx::any::install_default_drivers();
        let url = format!("sqlite://{}", data.join("outorga.db").display());
        let pool = sqlx::AnyPool::connect(&url).await.expect("open");
        for statement in statements {
            sqlx::query(sqlx::AssertSqlSafe(statement.clone()))
                .execute(&pool)
                .await
                .expect("statement");
        }
        pool.close().await;
    });
}

/// Removes what the installation saw of its logs (`audit-*.seen`), as
/// someone who could write to the data folder too would.
fn forget_seen(data: &Path) {
    for entry in std::fs::read_dir(data).expect("data").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("audit-") && name.ends_with(".seen") {
            std::fs::remove_file(entry.path()).expect("seen");
        }
    }
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path)
        .expect("exists")
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn the_key_is_made_once_private_and_a_checkpoint_proves_what_came_before() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let init = outorga(&data, &["db", "init"], None);
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert!(
        init.stderr
            .contains("chave do registro de auditoria criada")
    );
    let key = data.join("audit.key");
    #[cfg(unix)]
    assert_eq!(mode(&key), 0o600);
    let first = std::fs::read_to_string(&key).expect("key");
    let again = outorga(&data, &["db", "init"], None);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(&key).expect("key"), first);

    // A checkpoint, kept in a file; more changes after it; it still holds.
    let file = dir.path().join("ponto.txt");
    let made = outorga(
        &data,
        &[
            "audit",
            "checkpoint",
            "--out",
            file.to_str().expect("utf-8"),
        ],
        None,
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert!(made.stdout.contains("ponto de verificação") && made.stdout.contains("assinatura: "));
    let seq: i64 = made
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("entrada: "))
        .and_then(|n| n.parse().ok())
        .expect("the checkpoint's entry");
    let since = ["audit", "verify", "--since", file.to_str().expect("utf-8")];
    let holds = outorga(&data, &since, None);
    assert_eq!(holds.code, 0, "{}{}", holds.stdout, holds.stderr);
    assert!(
        holds
            .stdout
            .contains(&format!("nada até a entrada {seq} foi removido"))
    );

    // A rotated key: the log is sealed again, the checkpoint still holds.
    let rotated = outorga(&data, &["audit", "rotate-key"], None);
    assert_eq!(rotated.code, 0, "{}", rotated.stderr);
    assert!(
        rotated.stdout.contains("chave trocada"),
        "{}",
        rotated.stdout
    );
    let keys = std::fs::read_to_string(&key).expect("key");
    assert!(keys.contains(first.lines().last().expect("a key")));
    assert_eq!(keys.lines().filter(|l| !l.starts_with('#')).count(), 2);
    #[cfg(unix)]
    assert_eq!(mode(&key), 0o600);
    let holds = outorga(&data, &since, None);
    assert_eq!(holds.code, 0, "{}{}", holds.stdout, holds.stderr);

    // The tail removed and the head moved back to an earlier entry.
    let back = seq - 2;
    sql(
        &data,
        &[
            format!("DELETE FROM audit_rows WHERE seq > {back}"),
            format!("DELETE FROM audit_log WHERE seq > {back}"),
            format!(
                "UPDATE audit_head SET seq = {back}, \
                 hash = (SELECT hash FROM audit_log WHERE seq = {back}) WHERE id = 1"
            ),
        ],
    );
    // This installation saw a later head: it refuses the database at once…
    let refused = outorga(&data, &["audit", "verify"], None);
    assert_eq!(refused.code, 2, "{}{}", refused.stdout, refused.stderr);
    assert!(
        refused.stderr.contains("esta instalação já viu a entrada"),
        "{}",
        refused.stderr
    );
    // …and without that record (deleted with the rest), the checkpoint
    // still tells.
    forget_seen(&data);
    let removed = outorga(&data, &since, None);
    assert_eq!(removed.code, 1, "{}", removed.stdout);
    assert!(
        removed.stdout.contains(&format!(
            "o registro termina na entrada {back}, antes da entrada {seq}"
        )),
        "{}",
        removed.stdout
    );
    forget_seen(&data);
    let plain = outorga(&data, &["audit", "verify"], None);
    assert_eq!(plain.code, 1, "{}", plain.stdout);
    assert!(plain.stdout.contains("cabeça"), "{}", plain.stdout);

    // A checkpoint that cannot be read: the file and the line.
    std::fs::write(&file, "chave: 0123456789abcdef\nentrada: muitas\n").expect("write");
    forget_seen(&data);
    let bad = outorga(&data, &since, None);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("ponto.txt:2: `entrada`"),
        "{}",
        bad.stderr
    );
}

#[test]
fn a_key_from_the_environment_and_a_database_opened_with_another() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let key = "ab".repeat(32);
    let init = outorga(&data, &["db", "init"], Some(&key));
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert!(
        !data.join("audit.key").exists(),
        "no file when the key is given"
    );
    let verify = outorga(&data, &["audit", "verify"], Some(&key));
    assert_eq!(verify.code, 0, "{}", verify.stdout);
    // Without the variable a new key file is made, and refused by the database.
    let other = outorga(&data, &["audit", "verify"], None);
    assert_eq!(other.code, 2);
    assert!(
        other.stderr.contains("foi selado com a chave"),
        "{}",
        other.stderr
    );
    let bad = outorga(&data, &["audit", "verify"], Some("123"));
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("64 dígitos hexadecimais"),
        "{}",
        bad.stderr
    );
    // Rotating a key from the environment prints the keys to set.
    let rotated = outorga(&data, &["audit", "rotate-key"], Some(&key));
    assert_eq!(rotated.code, 0, "{}", rotated.stderr);
    let keys: Vec<&str> = rotated
        .stdout
        .lines()
        .filter(|l| l.len() == 64 && l.bytes().all(|b| b.is_ascii_hexdigit()))
        .collect();
    assert_eq!(keys.len(), 2, "{}", rotated.stdout);
    assert_eq!(keys[0], key);
    let with_new = outorga(&data, &["audit", "verify"], Some(&keys.join("\n")));
    assert_eq!(with_new.code, 0, "{}", with_new.stdout);
}

#[test]
fn a_log_from_before_the_key_is_sealed_only_when_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    assert_eq!(outorga(&data, &["db", "init"], None).code, 0);
    // As a database of an earlier version: no seals, no key recorded.
    sql(
        &data,
        &[
            "UPDATE audit_log SET mac = ''".to_string(),
            "UPDATE audit_head SET mac = '', key_id = ''".to_string(),
        ],
    );
    let refused = outorga(&data, &["audit", "verify"], None);
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("outorga audit seal"),
        "{}",
        refused.stderr
    );
    let sealed = outorga(&data, &["audit", "seal"], None);
    assert_eq!(sealed.code, 0, "{}", sealed.stderr);
    assert!(
        sealed.stdout.starts_with("registro selado: "),
        "{}",
        sealed.stdout
    );
    let verify = outorga(&data, &["audit", "verify"], None);
    assert_eq!(verify.code, 0, "{}", verify.stdout);
}

/// A head read once, put back later over a cut tail (with the rows the log
/// described removed too): the log is consistent, but not with what this
/// installation saw, so it is refused (red-team R10).
#[test]
fn a_head_once_read_cannot_be_put_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    assert_eq!(outorga(&data, &["db", "init"], None).code, 0);
    let read = |sql_text: &str| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            sqlx::any::install_default_drivers();
            let url = format!("sqlite://{}", data.join("outorga.db").display());
            let pool = sqlx::AnyPool::connect(&url).await.expect("open");
            let row = sqlx::query(sqlx::AssertSqlSafe(sql_text.to_string()))
                .fetch_one(&pool)
                .await
                .expect("read");
            use sqlx::Row as _;
            let values: (i64, String, String) = (
                row.try_get(0).expect("seq"),
                row.try_get(1).expect("hash"),
                row.try_get(2).expect("mac"),
            );
            pool.close().await;
            values
        })
    };
    let (seq, hash, mac) = read("SELECT seq, hash, mac FROM audit_head WHERE id = 1");
    let checkpoint = outorga(&data, &["audit", "checkpoint"], None);
    assert_eq!(checkpoint.code, 0, "{}", checkpoint.stderr);
    sql(
        &data,
        &[
            format!("DELETE FROM audit_rows WHERE seq > {seq}"),
            format!("DELETE FROM audit_log WHERE seq > {seq}"),
            format!(
                "UPDATE audit_head SET seq = {seq}, hash = '{hash}', mac = '{mac}' WHERE id = 1"
            ),
        ],
    );
    let refused = outorga(&data, &["audit", "verify"], None);
    assert_eq!(refused.code, 2, "{}{}", refused.stdout, refused.stderr);
    assert!(
        refused.stderr.contains("entradas foram removidas"),
        "{}",
        refused.stderr
    );
}
