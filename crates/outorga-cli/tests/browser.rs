//! The web application in a real browser: Debian's headless Chromium,
//! driven through chromedriver, against `outorga serve --demo` on SQLite.
//! A clerk signs in (a wrong password first: the error is announced next to
//! the form), reads the panel, opens the change of password, and signs out;
//! a clerk registers a person (a bad CPF first), sees the cap and the
//! checklist while typing the holder, grants a permit, is refused a second
//! with its article, opens the list and the dossier, and finds the person
//! and a plate as they type in the search box. Every page is checked with
//! axe-core (WCAG 2.1 A and AA: no serious or critical violation), also at a
//! phone's width. Screenshots go to `$CARGO_TARGET_TMPDIR/screens` (and to
//! `failed-*.png` there when a check fails).
//!
//! Needs `chromium` and `chromium-driver` (Debian's packages; `.ci/run`
//! installs them); `OUTORGA_CHROMEDRIVER` / `OUTORGA_CHROMIUM` name others.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use thirtyfour::prelude::*;

/// The axe-core the tests inject (vendored, pinned: scripts/vendor-assets).
const AXE: &str = include_str!("../../outorga-ui/assets/vendor/axe-core-4.14.1/axe.min.js");

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

/// A child process killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `outorga serve --demo` on a free port: the process and its address.
fn serve(data: &Path) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_outorga"))
        .args(["serve", "--demo", "--port", "0", "--data"])
        .arg(data)
        .env("OUTORGA_RULEBOOKS", rulebooks())
        .env_remove("OUTORGA_DATABASE_URL")
        .env_remove("OUTORGA_AUDIT_KEY")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("stdout");
    let running = Running(child);
    let serving = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find(|line| line.starts_with("outorga serving on http://"))
        .expect("the server prints its address");
    let address = serving["outorga serving on http://".len()..]
        .split('/')
        .next()
        .expect("address")
        .to_string();
    (running, format!("http://{address}"))
}

/// chromedriver on a free port: the process and its URL.
async fn chromedriver() -> (Running, String) {
    let driver =
        std::env::var("OUTORGA_CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    assert!(
        Path::new(&driver).exists(),
        "no chromedriver at {driver}: install Debian's chromium and chromium-driver \
         (apt-get install chromium chromium-driver), as .ci/run does"
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver runs");
    let url = format!("http://127.0.0.1:{port}");
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (Running(child), url)
}

async fn browser(driver: &str) -> WebDriver {
    let mut caps = DesiredCapabilities::chrome();
    let chromium = std::env::var("OUTORGA_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    caps.set_binary(&chromium).expect("binary");
    for arg in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
    ] {
        caps.add_arg(arg).expect("argument");
    }
    WebDriver::new(driver, caps)
        .await
        .expect("a browser session")
}

/// Where screenshots go.
fn screens() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screens");
    std::fs::create_dir_all(&dir).expect("screens folder");
    dir
}

/// Checks `ok`; when false, saves a screenshot of what the browser shows
/// and fails with `what`.
async fn check(driver: &WebDriver, ok: bool, name: &str, what: &str) {
    if !ok {
        let path = screens().join(format!("failed-{name}.png"));
        let _ = driver.screenshot(&path).await;
        let text = driver
            .find(By::Tag("body"))
            .await
            .ok()
            .map(|b| async move { b.text().await.unwrap_or_default() });
        let body = match text {
            Some(future) => future.await,
            None => String::new(),
        };
        panic!(
            "{what} (screenshot {}): the page says:\n{body}",
            path.display()
        );
    }
}

/// The serious and critical accessibility violations axe-core finds on the
/// page (WCAG 2.0/2.1, A and AA).
async fn violations(driver: &WebDriver) -> Vec<String> {
    driver.execute(AXE, Vec::new()).await.expect("axe loads");
    let answer = driver
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
               axe.run(document, { runOnly: { type: 'tag',
                   values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
                 .then(r => done(r.violations
                     .filter(v => v.impact === 'serious' || v.impact === 'critical')
                     .map(v => v.id + ': ' + v.help + ' — ' + v.nodes.map(n => n.target.join(' ')).join(', '))))
                 .catch(e => done(['axe failed: ' + e]));"#,
            Vec::new(),
        )
        .await
        .expect("axe runs");
    serde_json::from_value(answer.json().clone()).expect("a list")
}

/// Checks the page's accessibility and saves its screenshot as `name`.
async fn page(driver: &WebDriver, name: &str) {
    let found = violations(driver).await;
    check(
        driver,
        found.is_empty(),
        name,
        &format!("accessibility of {name}: {found:#?}"),
    )
    .await;
    driver
        .screenshot(&screens().join(format!("{name}.png")))
        .await
        .expect("screenshot");
}

/// The page's path once the browser reaches `path` (a form's answer is a
/// redirect: the click returns before it lands), or where it is after 10 s.
async fn path_after(driver: &WebDriver, path: &str) -> String {
    let mut at = String::new();
    for _ in 0..100 {
        at = driver.current_url().await.expect("url").path().to_string();
        if at == path {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    at
}

/// Types each value into the field of that id, then submits the form.
async fn fill(driver: &WebDriver, fields: &[(&str, &str)]) {
    for (id, value) in fields {
        driver
            .find(By::Id(*id))
            .await
            .expect("the field")
            .send_keys(*value)
            .await
            .expect("type");
    }
    driver
        .find(By::Css("form button[type=submit]"))
        .await
        .expect("button")
        .click()
        .await
        .expect("submit");
}

async fn text(driver: &WebDriver) -> String {
    driver
        .find(By::Tag("body"))
        .await
        .expect("body")
        .text()
        .await
        .expect("text")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clerk_signs_in_reads_the_panel_and_signs_out() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_server, base) = serve(data.path());
    let (_chromedriver, url) = chromedriver().await;
    let driver = browser(&url).await;

    driver.goto(format!("{base}/")).await.expect("home");
    let home = text(&driver).await;
    check(
        &driver,
        home.contains("demonstracao"),
        "inicio",
        "the home page names the demo password",
    )
    .await;
    page(&driver, "inicio").await;

    driver
        .find(By::LinkText("Entrar"))
        .await
        .expect("link")
        .click()
        .await
        .expect("click");
    fill(&driver, &[("nome", "clerk"), ("senha", "errada")]).await;
    let alert = driver
        .query(By::Css("[role=alert]"))
        .wait(Duration::from_secs(10), Duration::from_millis(100))
        .first()
        .await;
    let said = match alert {
        Ok(alert) => alert.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    };
    check(
        &driver,
        said == "Nome ou senha incorretos.",
        "entrar-erro",
        "a wrong password is announced",
    )
    .await;
    page(&driver, "entrar-erro").await;

    fill(&driver, &[("senha", "demonstracao")]).await;
    let at = path_after(&driver, "/painel").await;
    check(
        &driver,
        at == "/painel",
        "painel",
        "signed in, the clerk is on the panel",
    )
    .await;
    let panel = text(&driver).await;
    check(
        &driver,
        panel.contains("Canguçu (RS)")
            && panel.contains("Santa Maria de Jetibá (ES)")
            && panel.contains("vencidos"),
        "painel",
        "the panel shows each jurisdiction's agenda",
    )
    .await;
    page(&driver, "painel").await;

    driver
        .goto(format!("{base}/senha"))
        .await
        .expect("password page");
    page(&driver, "senha").await;
    driver.goto(format!("{base}/painel")).await.expect("panel");

    driver
        .set_window_rect(0, 0, 390, 844)
        .await
        .expect("a phone's width");
    page(&driver, "painel-celular").await;

    driver
        .find(By::Css("nav form button[type=submit]"))
        .await
        .expect("sign out")
        .click()
        .await
        .expect("click");
    let at = path_after(&driver, "/").await;
    check(&driver, at == "/", "sair", "signed out, back home").await;
    driver.goto(format!("{base}/painel")).await.expect("panel");
    let at = path_after(&driver, "/entrar").await;
    check(
        &driver,
        at == "/entrar",
        "sair",
        "the panel asks to sign in again",
    )
    .await;
    page(&driver, "entrar").await;

    driver.quit().await.expect("quit");
}

/// Clicks the element `css` finds.
async fn click(driver: &WebDriver, css: &str) {
    driver
        .find(By::Css(css))
        .await
        .expect("the element to click")
        .click()
        .await
        .expect("click");
}

/// Types `value` into the field of that id.
async fn type_into(driver: &WebDriver, id: &str, value: &str) {
    driver
        .find(By::Id(id))
        .await
        .expect("the field")
        .send_keys(value)
        .await
        .expect("type");
}

/// Waits up to 10 s for the page's text to contain `wanted`: the text then.
async fn text_with(driver: &WebDriver, wanted: &str) -> String {
    let mut said = String::new();
    for _ in 0..100 {
        // A page still loading has no body yet: read again.
        said = match driver.find(By::Tag("body")).await {
            Ok(body) => body.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if said.contains(wanted) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    said
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clerk_registers_a_person_grants_a_permit_and_finds_it() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_server, base) = serve(data.path());
    let (_chromedriver, url) = chromedriver().await;
    let driver = browser(&url).await;
    driver
        .goto(format!("{base}/entrar"))
        .await
        .expect("sign-in");
    fill(&driver, &[("nome", "clerk"), ("senha", "demonstracao")]).await;
    path_after(&driver, "/painel").await;

    // The register: a bad CPF said next to the field, then a good one.
    driver
        .goto(format!("{base}/j/cangucu/pessoas"))
        .await
        .expect("people");
    type_into(&driver, "documento", "52998224724").await;
    let said = text_with(&driver, "confira os dígitos").await;
    check(
        &driver,
        said.contains("CPF inválido: confira os dígitos."),
        "pessoas-mascara",
        "the check digits are checked while typing",
    )
    .await;
    let shown = driver
        .find(By::Id("documento"))
        .await
        .expect("field")
        .value()
        .await
        .expect("value");
    check(
        &driver,
        shown.as_deref() == Some("529.982.247-24"),
        "pessoas-mascara",
        "the CPF is masked while typing",
    )
    .await;
    type_into(&driver, "nome", "José da Conceição").await;
    click(&driver, "#conteudo form button[type=submit]").await;
    let said = text_with(&driver, "CPF inválido").await;
    check(
        &driver,
        said.contains("CPF inválido"),
        "pessoas",
        "a bad CPF is refused",
    )
    .await;
    page(&driver, "pessoas-erro").await;
    driver
        .find(By::Id("documento"))
        .await
        .expect("field")
        .clear()
        .await
        .expect("clear");
    type_into(&driver, "documento", "529.982.247-25").await;
    click(&driver, "#conteudo form button[type=submit]").await;
    let at = path_after(&driver, "/j/cangucu/pessoas/52998224725").await;
    check(
        &driver,
        at.ends_with("52998224725"),
        "pessoa",
        "registered, the person's page",
    )
    .await;
    let person = text(&driver).await;
    check(
        &driver,
        person.contains("Requisitos para táxi") && person.contains("a verificar"),
        "pessoa",
        "the person's page shows the checklist",
    )
    .await;
    page(&driver, "pessoa").await;

    // The grant form: the cap and the checklist as the holder is typed.
    driver
        .goto(format!("{base}/j/cangucu/permissoes/nova"))
        .await
        .expect("grant form");
    driver
        .find(By::Css("#servico option[value=taxi]"))
        .await
        .expect("taxi")
        .click()
        .await
        .expect("choose");
    type_into(&driver, "titular", "52998224725").await;
    let said = text_with(&driver, "Requisitos de José da Conceição").await;
    check(
        &driver,
        said.contains("Limite:") && said.contains("Requisitos de José da Conceição"),
        "permissao-nova",
        "the cap and the checklist show before granting",
    )
    .await;
    page(&driver, "permissao-nova").await;
    click(&driver, "#conteudo form button.primary[type=submit]").await;
    let said = text_with(&driver, "outorgada").await;
    check(
        &driver,
        said.contains("outorgada"),
        "permissao-outorgada",
        "granted",
    )
    .await;
    page(&driver, "permissao-outorgada").await;

    // A second permit to the same holder: refused with the article.
    driver
        .goto(format!(
            "{base}/j/cangucu/permissoes/nova?servico=taxi&titular=52998224725"
        ))
        .await
        .expect("grant form");
    click(&driver, "#conteudo form button.primary[type=submit]").await;
    let said = text_with(&driver, "Outorga negada").await;
    check(
        &driver,
        said.contains("Outorga negada") && said.contains("Art. 3º, § 3º"),
        "permissao-negada",
        "a refused grant shows its articles",
    )
    .await;
    page(&driver, "permissao-negada").await;

    // The list and the dossier.
    driver
        .goto(format!("{base}/j/cangucu/permissoes?titular=52998224725"))
        .await
        .expect("list");
    page(&driver, "permissoes").await;
    click(&driver, "#conteudo table a").await;
    let said = text_with(&driver, "Histórico").await;
    check(
        &driver,
        said.contains("outorga pela tela"),
        "permissao",
        "the dossier",
    )
    .await;
    page(&driver, "permissao").await;

    // The search box answers as one types: by name, then by plate.
    driver.goto(format!("{base}/busca")).await.expect("search");
    type_into(&driver, "q", "conceic").await;
    let said = text_with(&driver, "José da Conceição").await;
    check(
        &driver,
        said.contains("Pessoa ou empresa"),
        "busca",
        "found by name",
    )
    .await;
    page(&driver, "busca").await;
    driver
        .find(By::Id("q"))
        .await
        .expect("q")
        .clear()
        .await
        .expect("clear");
    type_into(&driver, "q", "IZC").await;
    let said = text_with(&driver, "Veículo").await;
    check(
        &driver,
        said.contains("Veículo"),
        "busca-placa",
        "found by plate",
    )
    .await;

    driver.quit().await.expect("quit");
}
