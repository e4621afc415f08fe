//! `outorga user add`, `user token`, `audit verify`, `serve`, `import`,
//! `agenda` and `backup` on the binary, with the default SQLite database in a
//! temporary data folder.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary on the data folder `data`, with `stdin` as its input and
/// `OUTORGA_PASSWORD` as `password`.
fn outorga(data: &Path, args: &[&str], stdin: &str, password: Option<&str>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_outorga"));
    command
        .args(args)
        .arg("--data")
        .arg(data)
        .env_remove("OUTORGA_DATABASE_URL")
        .env_remove("OUTORGA_PASSWORD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(password) = password {
        command.env("OUTORGA_PASSWORD", password);
    }
    let mut child = command.spawn().expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let output = child.wait_with_output().expect("finishes");
    Run {
        code: output.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn init(data: &Path) {
    let rulebooks = rulebooks();
    let run = outorga(
        data,
        &[
            "db",
            "init",
            "--rulebooks",
            rulebooks.to_str().expect("utf-8"),
        ],
        "",
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn users_tokens_and_the_audit_chain() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    init(data);

    let add = outorga(
        data,
        &[
            "user",
            "add",
            "ana",
            "--role",
            "atendente",
            "--jurisdiction",
            "cangucu",
            "--password-stdin",
        ],
        "senha-bem-longa\n",
        None,
    );
    assert_eq!(add.code, 0, "{}", add.stderr);
    assert_eq!(add.stdout, "usuário ana (atendente) cadastrado: cangucu\n");

    let env = outorga(
        data,
        &["user", "add", "chefe", "--role", "admin"],
        "",
        Some("outra-senha-longa"),
    );
    assert_eq!(env.code, 0, "{}", env.stderr);
    assert!(env.stdout.contains("todas as jurisdições"));

    // Bad input exits 2 with the field and the reason in Portuguese.
    for (args, password, reason) in [
        (
            vec!["user", "add", "bia", "--role", "admin"],
            Some("curta"),
            "senha: a senha precisa ter ao menos 10 caracteres",
        ),
        (
            vec!["user", "add", "bia", "--role", "prefeito"],
            Some("lagoa-azul-de-manha"),
            "papel: `prefeito` não é um papel",
        ),
        (
            vec!["user", "add", "ana", "--role", "admin"],
            Some("lagoa-azul-de-manha"),
            "nome: o usuário `ana` já existe",
        ),
        (
            vec![
                "user",
                "add",
                "bia",
                "--role",
                "admin",
                "--jurisdiction",
                "atlantida",
            ],
            Some("lagoa-azul-de-manha"),
            "jurisdição: `atlantida` não está cadastrada",
        ),
        (
            vec!["user", "token", "ninguem", "--label", "x"],
            None,
            "usuário: o usuário `ninguem` não existe",
        ),
        (
            vec!["user", "add", "bia", "--role", "admin"],
            Some("0123456789"),
            "senha: a senha é fácil de adivinhar: sequências como abc ou 6543",
        ),
        (
            vec!["user", "add", "bia", "--role", "admin"],
            Some("bia.admin.2026"),
            "senha: a senha não pode conter o nome do usuário",
        ),
        (
            vec![
                "user",
                "token",
                "ana",
                "--label",
                "x",
                "--expires",
                "2020-01-01",
            ],
            None,
            "expira_em: a validade do token precisa terminar depois de agora",
        ),
        (
            vec![
                "user",
                "token",
                "ana",
                "--label",
                "x",
                "--expires",
                "amanhã",
            ],
            None,
            "--expires: `amanhã` não é uma data (AAAA-MM-DD) nem um número de dias",
        ),
    ] {
        let run = outorga(data, &args, "", password);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
        assert!(run.stderr.contains(reason), "{args:?}: {}", run.stderr);
    }
    let no_password = outorga(data, &["user", "add", "bia", "--role", "admin"], "", None);
    assert_eq!(no_password.code, 2);
    assert!(
        no_password
            .stderr
            .contains("--password-stdin ou pela variável OUTORGA_PASSWORD")
    );

    let token = outorga(
        data,
        &["user", "token", "ana", "--label", "script"],
        "",
        None,
    );
    assert_eq!(token.code, 0, "{}", token.stderr);
    let printed = token.stdout.trim();
    assert!(
        printed.starts_with("otg_") && printed.len() == 68,
        "{printed}"
    );
    assert!(token.stderr.contains("não será mostrado de novo"));
    let expiring = outorga(
        data,
        &[
            "user",
            "token",
            "ana",
            "--label",
            "mensal",
            "--expires",
            "30",
        ],
        "",
        None,
    );
    assert_eq!(expiring.code, 0, "{}", expiring.stderr);
    assert!(
        expiring.stderr.contains("o token deixa de valer em "),
        "{}",
        expiring.stderr
    );

    // Old sign-in attempts are pruned (none yet), and that is audited.
    let prune = outorga(
        data,
        &["user", "prune-sign-ins", "--keep-days", "30"],
        "",
        None,
    );
    assert_eq!(prune.code, 0, "{}", prune.stderr);
    assert!(
        prune
            .stdout
            .starts_with("0 tentativas de entrada anteriores a "),
        "{}",
        prune.stdout
    );

    // The tables recorded, db init (4 jurisdictions), two users, two
    // tokens, a pruning: 10 entries; 13 records (4 jurisdictions, 5
    // rulebooks bound, 2 users, 2 tokens), intact.
    let verify = outorga(data, &["audit", "verify"], "", None);
    assert_eq!(
        (verify.code, verify.stdout.as_str()),
        (0, "íntegro: 10 entradas, 13 registros conferidos\n"),
        "{}",
        verify.stderr
    );

    // An edited entry breaks the chain there.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        sqlx::any::install_default_drivers();
        let url = format!("sqlite://{}", data.join("outorga.db").display());
        let pool = sqlx::AnyPool::connect(&url).await.expect("open");
        sqlx::query("UPDATE audit_log SET actor = 'intruso' WHERE seq = 5")
            .execute(&pool)
            .await
            .expect("tamper");
        pool.close().await;
    });
    let broken = outorga(data, &["audit", "verify"], "", None);
    assert_eq!(broken.code, 1);
    assert_eq!(
        broken.stdout,
        "entrada 5: o conteúdo não confere com o hash registrado\n"
    );
}

#[test]
fn serve_answers_on_the_port_it_prints() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut child, address, _) = serve(dir.path(), &[]);
    let response = get(&address, "/api/health");
    child.kill().expect("stops");
    child.wait().expect("stopped");
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    assert!(response.ends_with(r#"{"status":"ok"}"#), "{response}");
}

/// The storm of issue 10 replayed: 400 wrong passwords, 64 at a time, from
/// as many user names and from 200 client addresses (127.0.0.2 and on).
/// Each attempt is refused (401), limited (429) or turned away by the
/// password queue (503), and the server's peak memory stays far below the
/// 7.7 GB it once reached.
#[test]
fn a_storm_of_wrong_passwords_keeps_memory_flat() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut child, address, _) = serve(dir.path(), &[]);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let statuses = runtime.block_on(async {
        let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(64));
        let mut attempts = Vec::new();
        for n in 0..400u32 {
            let (gate, address) = (gate.clone(), address.clone());
            attempts.push(tokio::spawn(async move {
                let _turn = gate.acquire_owned().await.expect("gate");
                let from = std::net::Ipv4Addr::new(127, 0, 0, 2 + (n % 200) as u8);
                wrong_password(&address, from, n).await
            }));
        }
        let mut statuses = Vec::new();
        for attempt in attempts {
            statuses.push(attempt.await.expect("joined"));
        }
        statuses
    });
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
        .expect("the server's /proc status");
    child.kill().expect("stops");
    child.wait().expect("stopped");
    let peak_kb: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    for code in &statuses {
        assert!(
            ["401", "429", "503"].contains(&code.as_str()),
            "{statuses:?}"
        );
    }
    assert!(statuses.iter().any(|code| code == "401"), "{statuses:?}");
    assert!(peak_kb < 600 * 1024, "peak memory {peak_kb} kB");
}

/// One sign-in with a wrong password from the local address `from`: the
/// status code of the answer.
async fn wrong_password(address: &str, from: std::net::Ipv4Addr, n: u32) -> String {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(std::net::SocketAddr::from((from, 0)))
        .expect("a loopback source address");
    let mut stream = socket
        .connect(address.parse().expect("address"))
        .await
        .expect("connects");
    let body = format!(r#"{{"nome":"usuario{n}","senha":"errada-de-proposito-{n}"}}"#);
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

/// Starts `outorga serve` on a free port with the data folder `data`; the
/// child, its address and what it printed before serving.
fn serve(data: &Path, extra: &[&str]) -> (std::process::Child, String, Vec<String>) {
    let rulebooks = rulebooks();
    let mut child = Command::new(env!("CARGO_BIN_EXE_outorga"))
        .args([
            "serve",
            "--port",
            "0",
            "--rulebooks",
            rulebooks.to_str().expect("utf-8"),
        ])
        .args(extra)
        .arg("--data")
        .arg(data)
        .env_remove("OUTORGA_DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut printed = Vec::new();
    let serving = lines
        .find_map(|line| {
            let line = line.ok()?;
            printed.push(line.clone());
            line.starts_with("outorga serving on http://")
                .then_some(line)
        })
        .expect("the server prints its address");
    let address = serving["outorga serving on http://".len()..]
        .split('/')
        .next()
        .expect("address")
        .to_string();
    (child, address, printed)
}

/// One GET over a plain TCP connection; the whole response.
fn get(address: &str, path: &str) -> String {
    let mut stream = std::net::TcpStream::connect(address).expect("connects");
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: outorga\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .expect("request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("response");
    response
}

/// `serve --demo` loads demo records the law accepts (nothing refused), the
/// public check finds a demo taxi licensed, and a second start adds nothing
/// and leaves the audit chain intact.
#[test]
fn serve_with_demo_data() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut child, address, printed) = serve(dir.path(), &["--demo"]);
    let plate = get(
        &address,
        "/api/public/jurisdictions/santa-maria-de-jetiba/vehicles/MTB0M50",
    );
    child.kill().expect("stops");
    child.wait().expect("stopped");
    let report = printed
        .iter()
        .find(|l| l.starts_with("demo: "))
        .expect("a demo report");
    assert!(report.contains("20 permits"), "{printed:?}");
    assert!(
        !printed.iter().any(|l| l.contains("recusado")),
        "{printed:?}"
    );
    assert!(plate.contains(r#""licenciado":true"#), "{plate}");
    let (mut again, _, printed) = serve(dir.path(), &["--demo"]);
    again.kill().expect("stops");
    again.wait().expect("stopped");
    assert!(
        printed
            .iter()
            .any(|l| l.starts_with("demo: 0 people, 0 permits")),
        "{printed:?}"
    );
    let run = outorga(dir.path(), &["audit", "verify"], "", None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

/// Imports keep the good rows and list the bad ones with line, field and
/// reason; the agenda and the backup run on what was imported.
#[test]
fn import_agenda_and_backup() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let rb = rulebooks();
    let rb = rb.to_str().expect("utf-8 path");
    assert_eq!(
        outorga(&data, &["db", "init", "--rulebooks", rb], "", None).code,
        0
    );
    let holders = dir.path().join("titulares.csv");
    std::fs::write(
        &holders,
        "documento,nome,nascimento,residente_desde,cnh_numero,cnh_categorias,cnh_validade,\
         endereco,telefone,email,cnh_atividade_remunerada\n\
         526.018.159-06,Ana Ramlow,01/05/1980,2010-01-01,02650306461,B,2030-01-01\n\
         083.016.613-05,Beto Braun,,,,,\n\
         111.111.111-11,Repetido,,,,,\n\
         186.091.390-34,Caio Tesch,31/02/1990,,,,\n\
         996.030.824-30,Dani Gums,,,02650306461,B,2030-01-01,,,,talvez\n",
    )
    .expect("csv");
    let run = outorga(
        &data,
        &[
            "import",
            "holders",
            holders.to_str().expect("path"),
            "--jurisdiction",
            "santa-maria-de-jetiba",
        ],
        "",
        None,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("2 linha(s) importada(s), 3 recusada(s)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("titulares.csv:6: cnh_atividade_remunerada"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("titulares.csv:4: documento: `111.111.111-11`"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("titulares.csv:5: nascimento"),
        "{}",
        run.stdout
    );

    // A dry run lists every row's outcome and writes nothing: 0 when all
    // would be taken, 1 when some would not, 2 for a header of another kind.
    let drivers = dir.path().join("condutores.csv");
    std::fs::write(
        &drivers,
        b"documento;nome\n186.091.390-34;Caio Tesch\n".as_slice(),
    )
    .expect("csv");
    let dry = |kind: &str, file: &std::path::Path| {
        outorga(
            &data,
            &[
                "import",
                kind,
                file.to_str().expect("path"),
                "--jurisdiction",
                "santa-maria-de-jetiba",
                "--dry-run",
            ],
            "",
            None,
        )
    };
    let run = dry("drivers", &drivers);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("condutores.csv:2: 186.091.390-34: seria importada"),
        "{}",
        run.stdout
    );
    let run = dry("drivers", &drivers);
    assert_eq!(run.code, 0, "nothing was written: {}", run.stdout);
    let run = dry("holders", &holders);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("nada gravado"), "{}", run.stdout);
    let run = dry("vehicles", &drivers);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("condutores.csv:1: cabeçalho:"),
        "{}",
        run.stderr
    );

    let vehicles = dir.path().join("veiculos.csv");
    std::fs::write(
        &vehicles,
        "placa,renavam,ano,cor,portas,lotacao\nMTX1A22,29485839707,2022,branca,4,4\n",
    )
    .expect("csv");
    let run = outorga(
        &data,
        &[
            "import",
            "vehicles",
            vehicles.to_str().expect("path"),
            "--jurisdiction",
            "santa-maria-de-jetiba",
        ],
        "",
        None,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);

    let run = outorga(
        &data,
        &[
            "agenda",
            "santa-maria-de-jetiba",
            "--date",
            "2026-11-30",
            "--rulebooks",
            rb,
        ],
        "",
        None,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .starts_with("agenda de santa-maria-de-jetiba: 2026-11-30"),
        "{}",
        run.stdout
    );

    let copy = dir.path().join("copia.db");
    let run = outorga(&data, &["backup", copy.to_str().expect("path")], "", None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(copy.metadata().expect("written").len() > 0);
    let run = outorga(&data, &["backup", copy.to_str().expect("path")], "", None);
    assert_eq!(run.code, 2, "an existing file is never overwritten");
}
