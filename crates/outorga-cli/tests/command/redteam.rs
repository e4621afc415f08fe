//! Red team on the binary: `outorga serve` as an anonymous client meets it.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

/// Runs the binary on `data`: exit code, standard output and error.
fn run(data: &Path, args: &[&str], password: Option<&str>) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_outorga"));
    command
        .args(args)
        .arg("--data")
        .arg(data)
        .env("OUTORGA_RULEBOOKS", rulebooks())
        .env_remove("OUTORGA_DATABASE_URL")
        .env_remove("OUTORGA_AUDIT_KEY")
        .env_remove("OUTORGA_PASSWORD");
    if let Some(password) = password {
        command.env("OUTORGA_PASSWORD", password);
    }
    let output = command.output().expect("the binary runs");
    (
        output.status.code().expect("exit code"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn outorga(data: &Path, args: &[&str], password: Option<&str>) -> (i32, String) {
    let (code, _, stderr) = run(data, args, password);
    (code, stderr)
}

fn sql(data: &Path, statements: &[&str]) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        sqlx::any::install_default_drivers();
        let url = format!("sqlite://{}", data.join("outorga.db").display());
        let pool = sqlx::AnyPool::connect(&url).await.expect("open");
        for statement in statements {
            sqlx::query(sqlx::AssertSqlSafe(statement.to_string()))
                .execute(&pool)
                .await
                .expect("statement");
        }
        pool.close().await;
    });
}

/// C2 (R3 on the binary). `outorga audit verify` opens the database as
/// every command does, and opening seals: a table whose row was deleted
/// from `audit_schema` is described again as it is now, so the auditor's
/// own command launders the edit it was run to find, and exits 0.
#[test]
fn audit_verify_itself_launders_an_edit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let (code, stderr) = outorga(data, &["db", "init"], None);
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr) = outorga(
        data,
        &[
            "user",
            "add",
            "ana",
            "--role",
            "clerk",
            "--jurisdiction",
            "cangucu",
        ],
        Some("cavalo-grampo-bateria-certo"),
    );
    assert_eq!(code, 0, "{stderr}");
    sql(
        data,
        &["UPDATE users SET role = 'admin', jurisdictions = '*' WHERE name = 'ana'"],
    );
    let (code, found, _) = run(data, &["audit", "verify"], None);
    assert_eq!(code, 1, "the edit alone is found: {found}");
    sql(
        data,
        &["UPDATE audit_log SET detail = '{}' WHERE action = 'audit.schema'"],
    );
    let (code, stdout, stderr) = run(data, &["audit", "verify"], None);
    assert_eq!(
        code, 1,
        "ana made an unlimited administrator by SQL, and `audit verify` says: {stdout} {stderr}"
    );
}

/// Starts `outorga serve` on a free port; the child and its address.
fn serve(data: &Path) -> (std::process::Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_outorga"))
        .args(["serve", "--port", "0", "--data"])
        .arg(data)
        .env("OUTORGA_RULEBOOKS", rulebooks())
        .env_remove("OUTORGA_DATABASE_URL")
        .env_remove("OUTORGA_AUDIT_KEY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let serving = lines
        .find_map(|line| {
            let line = line.ok()?;
            line.starts_with("outorga serving on http://")
                .then_some(line)
        })
        .expect("the server prints its address");
    let address = serving["outorga serving on http://".len()..]
        .split('/')
        .next()
        .expect("address")
        .to_string();
    (child, address)
}

/// A sign-in from the local address `from`: the status code.
async fn sign_in(address: &str, from: std::net::Ipv4Addr, name: &str, password: &str) -> String {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(std::net::SocketAddr::from((from, 0)))
        .expect("a loopback source address");
    let mut stream = socket
        .connect(address.parse().expect("address"))
        .await
        .expect("connects");
    let body = format!(r#"{{"nome":"{name}","senha":"{password}"}}"#);
    let request = format!(
        "POST /api/session HTTP/1.1\r\nHost: outorga\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("request");
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .expect("response");
    response.split(' ').nth(1).unwrap_or_default().to_string()
}

/// C1. `outorga serve` gives handlers no client address (no `ConnectInfo`,
/// no `ClientIp`), so every client is 0.0.0.0 and the limit "10 failures
/// per address a minute" is one limit for the whole world: ten wrong
/// passwords from one machine, for names that are no one's, keep every
/// user of every other machine from signing in, minute after minute.
#[test]
fn ten_wrong_passwords_from_one_address_lock_out_every_address() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let (code, stderr) = outorga(data, &["db", "init"], None);
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr) = outorga(
        data,
        &["user", "add", "chefe", "--role", "admin"],
        Some("cavalo-grampo-bateria-certo"),
    );
    assert_eq!(code, 0, "{stderr}");
    let (mut child, address) = serve(data);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (wrong, right) = runtime.block_on(async {
        let attacker = std::net::Ipv4Addr::new(127, 0, 0, 2);
        let mut wrong = Vec::new();
        for n in 0..10 {
            wrong.push(sign_in(&address, attacker, &format!("ninguem{n}"), "errada-errada").await);
        }
        let clerk_office = std::net::Ipv4Addr::new(127, 0, 0, 3);
        let right = sign_in(
            &address,
            clerk_office,
            "chefe",
            "cavalo-grampo-bateria-certo",
        )
        .await;
        (wrong, right)
    });
    child.kill().expect("stops");
    child.wait().expect("stopped");
    assert!(wrong.iter().all(|code| code == "401"), "{wrong:?}");
    assert_eq!(
        right, "201",
        "the administrator, from another address, with the right password"
    );
}
