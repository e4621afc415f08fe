//! The web application in a real browser: Debian's headless Chromium,
//! driven through chromedriver, against `outorga serve --demo` on SQLite.
//! A clerk signs in (a wrong password first: the error is announced next to
//! the form), reads the panel, opens the change of password, and signs out;
//! a clerk registers a person (a bad CPF first), sees the cap and the
//! checklist while typing the holder, grants a permit, is refused a second
//! with its article, opens the list and the dossier, and finds the person
//! and a plate as they type in the search box; an administrator records a
//! fiscal unit's value and finds a debt's payment slip; a clerk charges a
//! fee by hand, imports a bank's return file and asks a refund. Every page is
//! checked with axe-core (WCAG 2.1 A and AA: no serious or critical
//! violation), also at a phone's width. Screenshots go to
//! `$CARGO_TARGET_TMPDIR/screens` (and to `failed-*.png` there when a check
//! fails).
//!
//! Needs `chromium` and `chromium-driver` (Debian's packages; `.ci/run`
//! installs them); `OUTORGA_CHROMEDRIVER` / `OUTORGA_CHROMIUM` name others.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use thirtyfour::prelude::*;

/// The axe-core the tests inject (vendored, pinned: scripts/vendor-assets).
const AXE: &str = include_str!("../../../outorga-ui/assets/vendor/axe-core-4.14.1/axe.min.js");

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

/// A child process killed when the test ends, however it ends.
pub(crate) struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `outorga serve --demo` on a free port: the process and its address.
pub(crate) fn serve(data: &Path) -> (Running, String) {
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
        "--lang=pt-BR",
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

/// Signs in as `name` in a fresh session (cookies cleared).
async fn sign_in_as(driver: &WebDriver, base: &str, name: &str) {
    driver.delete_all_cookies().await.expect("cookies");
    driver
        .goto(format!("{base}/entrar"))
        .await
        .expect("sign-in");
    fill(driver, &[("nome", name), ("senha", "demonstracao")]).await;
    let at = path_after(driver, "/painel").await;
    check(driver, at == "/painel", "entrar", "signed in").await;
}

/// Clicks the submit button of the step `word` on an auto's page.
async fn take_step(driver: &WebDriver, word: &str, wanted: &str) {
    click(
        driver,
        &format!("form[aria-labelledby=passo-{word}] button[type=submit]"),
    )
    .await;
    let said = text_with(driver, wanted).await;
    check(
        driver,
        said.contains(wanted),
        &format!("passo-{word}"),
        &format!("the step {word} is recorded"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_auto_from_the_phone_to_the_decision_a_fine_paid_a_vehicle_put_in_service() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_server, base) = serve(data.path());
    let (_chromedriver, url) = chromedriver().await;
    let driver = browser(&url).await;

    // The inspector, on a phone: the infraction found by words, the
    // proposal with its articles before saving, then the auto.
    sign_in_as(&driver, &base, "inspector").await;
    driver
        .goto(format!("{base}/j/cangucu/autos"))
        .await
        .expect("autos");
    let offender = driver
        .find(By::Css("#conteudo table tbody tr td:nth-child(4)"))
        .await
        .expect("an offender of the demo")
        .text()
        .await
        .expect("text");
    driver
        .set_window_rect(0, 0, 390, 844)
        .await
        .expect("a phone's width");
    driver
        .goto(format!("{base}/j/cangucu/autos/novo"))
        .await
        .expect("the inspector's form");
    type_into(&driver, "busca", "tarifa superior").await;
    let said = text_with(&driver, "A18-X").await;
    check(
        &driver,
        said.contains("A18-X"),
        "auto-busca",
        "the catalog is searched by words as one types",
    )
    .await;
    click(&driver, "input[name=infracao][value='A18-X'] + label").await;
    click(&driver, "#servico option[value=taxi]").await;
    type_into(&driver, "autuado", &offender).await;
    type_into(&driver, "local", "Praça da Matriz").await;
    type_into(
        &driver,
        "descricao",
        "Cobrou R$ 30,00 com o taxímetro marcando R$ 18,00",
    )
    .await;
    click(&driver, "button[value=previa]").await;
    let said = text_with(&driver, "Proposta da lei para este auto").await;
    check(
        &driver,
        said.contains("R$ 400,00") && said.contains("Anexo I, Art. 12, III"),
        "auto-proposta",
        "the proposal and its articles show before saving",
    )
    .await;
    page(&driver, "auto-novo-celular").await;
    click(&driver, "button[value=lavrar]").await;
    let said = text_with(&driver, "lavrado.").await;
    check(
        &driver,
        said.contains("lavrado."),
        "auto",
        "the auto is issued",
    )
    .await;
    let auto_path = driver.current_url().await.expect("url").path().to_string();
    page(&driver, "auto-celular").await;
    driver
        .set_window_rect(0, 0, 1280, 1000)
        .await
        .expect("a desk's width");

    // The clerk notifies it and records the defense.
    sign_in_as(&driver, &base, "clerk").await;
    driver
        .goto(format!("{base}{auto_path}"))
        .await
        .expect("the auto");
    take_step(&driver, "notificar", "Registrado: notificação do auto.").await;
    type_into(&driver, "texto-defender", "O taxímetro estava com defeito.").await;
    take_step(&driver, "defender", "Registrado: defesa.").await;

    // The board finds it in its queue and judges it: the choices the law
    // leaves, a refusal next to the form, then the decision.
    sign_in_as(&driver, &base, "board").await;
    driver
        .goto(format!("{base}/j/cangucu/junta"))
        .await
        .expect("the queue");
    page(&driver, "junta").await;
    click(&driver, &format!("a[href='{auto_path}#passos']")).await;
    let said = text_with(&driver, "Penalidades, se mantido").await;
    check(
        &driver,
        said.contains("de 5 a 30"),
        "auto-julgamento",
        "the judgement offers what the law lets the board choose",
    )
    .await;
    click(
        &driver,
        "input[name=penalidades][value='multa,suspensao_permissao'] + label",
    )
    .await;
    type_into(&driver, "dias-julgar", "45").await;
    type_into(
        &driver,
        "fund-julgar",
        "Cobrança acima do taxímetro comprovada.",
    )
    .await;
    click(
        &driver,
        "form[aria-labelledby=passo-julgar] button[type=submit]",
    )
    .await;
    let said = text_with(&driver, "entre 5 e 30 dias").await;
    check(
        &driver,
        said.contains("entre 5 e 30 dias"),
        "auto-julgamento-recusa",
        "a decision the law does not allow is refused next to the form",
    )
    .await;
    page(&driver, "auto-julgamento").await;
    driver
        .find(By::Id("dias-julgar"))
        .await
        .expect("days")
        .clear()
        .await
        .expect("clear");
    type_into(&driver, "dias-julgar", "10").await;
    click(
        &driver,
        "input[name=penalidades][value='multa,suspensao_permissao'] + label",
    )
    .await;
    type_into(
        &driver,
        "fund-julgar",
        "Cobrança acima do taxímetro comprovada.",
    )
    .await;
    take_step(&driver, "julgar", "auto mantido; 10 dias fixados").await;

    // The clerk notifies the decision; an older auto whose appeal time ran
    // out becomes final, and its fine is paid.
    sign_in_as(&driver, &base, "clerk").await;
    driver
        .goto(format!("{base}{auto_path}"))
        .await
        .expect("the auto");
    take_step(
        &driver,
        "notificar_decisao",
        "Registrado: notificação da decisão.",
    )
    .await;
    driver
        .goto(format!("{base}/j/cangucu/autos?situacao=decision_notified"))
        .await
        .expect("autos with the decision notified");
    click(&driver, "#conteudo table tbody tr:last-child a").await;
    take_step(
        &driver,
        "tornar_definitivo",
        "Registrado: decisão definitiva.",
    )
    .await;
    page(&driver, "auto-definitivo").await;
    driver
        .goto(format!("{base}/j/cangucu/debitos"))
        .await
        .expect("debts");
    page(&driver, "debitos").await;
    click(&driver, "#conteudo table tbody tr:last-child a").await;
    let said = text_with(&driver, "Quanto pagar hoje").await;
    check(
        &driver,
        said.contains("R$ 400,00"),
        "debito",
        "what paying costs today",
    )
    .await;
    click(&driver, "form[action$='/pagamento'] button[type=submit]").await;
    let said = text_with(&driver, "Pagamento registrado.").await;
    check(
        &driver,
        said.contains("quitado"),
        "debito-pago",
        "the debt is paid",
    )
    .await;
    page(&driver, "debito-pago").await;

    // A vehicle registered and put in service, its checklist first.
    driver
        .goto(format!("{base}/j/santa-maria-de-jetiba/veiculos"))
        .await
        .expect("vehicles");
    type_into(&driver, "placa", "QWE1A23").await;
    type_into(&driver, "renavam", "12345678900").await;
    type_into(&driver, "ano", "2024").await;
    type_into(&driver, "cor", "branca").await;
    type_into(&driver, "portas", "4").await;
    type_into(&driver, "lotacao", "4").await;
    type_into(&driver, "equipamentos", "taxímetro, luminoso").await;
    page(&driver, "veiculos").await;
    click(&driver, "#conteudo form button[type=submit]").await;
    let said = text_with(&driver, "Veículo cadastrado.").await;
    check(
        &driver,
        said.contains("Veículo cadastrado."),
        "veiculo",
        "the vehicle is registered",
    )
    .await;
    page(&driver, "veiculo").await;
    driver
        .goto(format!("{base}/j/santa-maria-de-jetiba/permissoes/taxi/1"))
        .await
        .expect("the dossier");
    type_into(&driver, "placa-servico", "QWE1A23").await;
    let said = text_with(&driver, "Requisitos do veículo QWE1A23").await;
    check(
        &driver,
        said.contains("Cor branca") && said.contains("Art. 11"),
        "permissao-veiculo",
        "the vehicle's checklist shows before it is put in service",
    )
    .await;
    page(&driver, "permissao-veiculo").await;
    click(&driver, "form[action$='/veiculo'] button.primary").await;
    let said = text_with(&driver, "Veículo em serviço e autorização").await;
    check(
        &driver,
        said.contains("QWE1A23 (desde"),
        "permissao-veiculo-incluido",
        "the vehicle serves the permit",
    )
    .await;

    // The administrator's pages, and the import, pass the accessibility
    // checks.
    sign_in_as(&driver, &base, "admin").await;
    for (path, name, wanted) in [
        ("/admin/usuarios", "admin-usuarios", "Usuários"),
        ("/admin/usuarios/clerk", "admin-usuario", "Tokens"),
        ("/j/cangucu/parametros", "parametros", "Art."),
        ("/auditoria", "auditoria", "Verificar"),
        ("/j/cangucu/importar", "importar", "Simular"),
    ] {
        driver
            .goto(format!("{base}{path}"))
            .await
            .expect("an administrator's page");
        let said = text_with(&driver, wanted).await;
        check(&driver, said.contains(wanted), name, path).await;
        page(&driver, name).await;
    }

    // A read-only user is offered no write.
    sign_in_as(&driver, &base, "read-only").await;
    driver
        .goto(format!("{base}{auto_path}"))
        .await
        .expect("the auto");
    let said = text_with(&driver, "O que cabe hoje").await;
    check(
        &driver,
        !said.contains("Registrar") && said.contains("registrado por"),
        "consulta-auto",
        "a read-only user sees what the law admits but no form",
    )
    .await;
    driver
        .goto(format!("{base}/j/cangucu/permissoes/taxi/1"))
        .await
        .expect("a dossier");
    let said = text_with(&driver, "Histórico").await;
    check(
        &driver,
        !said.contains("Incluir condutor") && !said.contains("Desligar"),
        "consulta-permissao",
        "a read-only user is offered no clerk's action",
    )
    .await;
    driver.goto(format!("{base}/painel")).await.expect("panel");
    let said = text_with(&driver, "Painel").await;
    check(
        &driver,
        !said.contains("Lavrar auto") && !said.contains("Outorgar permissão"),
        "consulta-painel",
        "the panel offers a read-only user no write",
    )
    .await;

    driver.quit().await.expect("quit");
}

/// Whether every image `css` finds has loaded and has a size, within 10 s.
async fn images_loaded(driver: &WebDriver, css: &str) -> bool {
    for _ in 0..100 {
        let answer = driver
            .execute(
                "const found = [...document.querySelectorAll(arguments[0])];
                 return found.length > 0 && found.every(i => i.complete && i.naturalWidth > 0);",
                vec![serde_json::json!(css)],
            )
            .await
            .expect("the images' state");
        if answer.json().as_bool() == Some(true) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// Whether the page is no wider than the window (nothing overflows it).
async fn fits(driver: &WebDriver) -> bool {
    let answer = driver
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth;",
            Vec::new(),
        )
        .await
        .expect("the page's width");
    answer.json().as_bool() == Some(true)
}

/// Scrolls the element of that id to the top of the window (none: to the
/// page's top).
async fn scroll_to(driver: &WebDriver, id: &str) {
    driver
        .execute(
            "const e = document.getElementById(arguments[0]);
             if (e) { e.scrollIntoView(); } else { window.scrollTo(0, 0); }",
            vec![serde_json::json!(id)],
        )
        .await
        .expect("scroll");
}

/// Money (issue 13): the administrator corrects Santa Maria de Jetibá's
/// VRTM on the units page — by an index first, refused next to its field
/// (no value the day before), then in reais — and finds a debt's slip:
/// the linha digitável, the barcode and the PIX QR code drawn, the "copia
/// e cola". Both pages pass the accessibility checks and fit a phone's
/// width; so do the agreement and PIX key's page and Amapá's CTM.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_administrator_records_a_unit_value_and_sees_a_debts_slip() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_server, base) = serve(data.path());
    let (_chromedriver, url) = chromedriver().await;
    let driver = browser(&url).await;
    sign_in_as(&driver, &base, "admin").await;

    driver
        .goto(format!("{base}/j/santa-maria-de-jetiba/unidades"))
        .await
        .expect("the units");
    // The demo's record nº 1, from January 1st: the day the correction takes.
    let since = driver
        .find(By::Css("#u-VRTM tbody tr:first-child td:nth-child(2)"))
        .await
        .expect("the demo's record")
        .text()
        .await
        .expect("its day");
    let iso: Vec<&str> = since.split('/').rev().collect();
    driver
        .execute(
            "document.getElementById('desde-VRTM').value = arguments[0];",
            vec![serde_json::json!(iso.join("-"))],
        )
        .await
        .expect("the day");
    click(&driver, "#modo-correcao-VRTM + label").await;
    type_into(&driver, "indice-VRTM", "IPCA-E 2025").await;
    type_into(&driver, "percentual-VRTM", "4,5").await;
    type_into(&driver, "ato-VRTM", "Decreto nº 15/2026").await;
    click(&driver, "#corrige-VRTM option[value='1']").await;
    click(&driver, "#u-VRTM form button[type=submit]").await;
    let said = text_with(&driver, "em vigor antes de").await;
    check(
        &driver,
        said.contains("não há valor de VRTM em vigor antes de"),
        "unidades-recusa",
        "a correction with no value the day before is refused",
    )
    .await;
    let next_to = driver
        .find(By::Css(
            "#percentual-VRTM[aria-invalid=true] ~ #erro-percentual-VRTM",
        ))
        .await
        .is_ok();
    check(
        &driver,
        next_to,
        "unidades-recusa",
        "the refusal is said next to the percentage",
    )
    .await;
    page(&driver, "unidades-recusa").await;
    click(&driver, "#modo-valor-VRTM + label").await;
    type_into(&driver, "valor-VRTM", "5,1234").await;
    click(&driver, "#u-VRTM form button[type=submit]").await;
    let said = text_with(&driver, "Valor de VRTM registrado").await;
    check(
        &driver,
        said.contains("R$ 5,1234") && said.contains("corrigido pelo nº 2: não vale mais"),
        "unidades",
        "the value is recorded and the record it corrects struck",
    )
    .await;
    scroll_to(&driver, "").await;
    page(&driver, "unidades").await;
    driver
        .set_window_rect(0, 0, 390, 844)
        .await
        .expect("a phone's width");
    scroll_to(&driver, "u-VRTM").await;
    page(&driver, "unidades-celular").await;
    check(
        &driver,
        fits(&driver).await,
        "unidades-celular",
        "the units fit a phone's width",
    )
    .await;
    driver
        .set_window_rect(0, 0, 1280, 1000)
        .await
        .expect("a desk's width");

    driver
        .goto(format!("{base}/j/santa-maria-de-jetiba/debitos"))
        .await
        .expect("the debts");
    click(&driver, "#conteudo table tbody tr:first-child a").await;
    let said = text_with(&driver, "Guia de recolhimento").await;
    check(
        &driver,
        said.contains("Linha digitável") && said.contains("Nosso número"),
        "guia",
        "a debt not settled shows its slip",
    )
    .await;
    check(
        &driver,
        images_loaded(&driver, ".guia img").await,
        "guia",
        "the barcode and the PIX QR code are drawn",
    )
    .await;
    let pix = driver
        .find(By::Id("pix-copia"))
        .await
        .expect("the copia e cola")
        .value()
        .await
        .expect("its text")
        .unwrap_or_default();
    check(
        &driver,
        pix.starts_with("000201") && pix.contains("br.gov.bcb.pix"),
        "guia",
        "the PIX copia e cola is a BR Code",
    )
    .await;
    scroll_to(&driver, "guia").await;
    page(&driver, "guia").await;
    driver
        .set_window_rect(0, 0, 390, 844)
        .await
        .expect("a phone's width");
    scroll_to(&driver, "guia").await;
    page(&driver, "guia-celular").await;
    check(
        &driver,
        fits(&driver).await,
        "guia-celular",
        "the slip fits a phone's width",
    )
    .await;
    driver
        .set_window_rect(0, 0, 1280, 1000)
        .await
        .expect("a desk's width");

    // The agreement and PIX key, and a unit worked out from the lines.
    for (path, name, wanted) in [
        (
            "/j/santa-maria-de-jetiba/pagamentos",
            "pagamentos",
            "Chave PIX do órgão",
        ),
        ("/j/amapa/unidades", "unidades-linhas", "Linhas na média"),
    ] {
        driver
            .goto(format!("{base}{path}"))
            .await
            .expect("an administrator's page");
        let said = text_with(&driver, wanted).await;
        check(&driver, said.contains(wanted), name, path).await;
        page(&driver, name).await;
    }

    driver.quit().await.expect("quit");
}

/// A bank's return file (FEBRABAN arrecadação, records of 150 positions:
/// header A, one G per slip paid, trailer Z) of the slips `paid` — each
/// its barcode and the centavos received — on `day` (AAAAMMDD), field by
/// field as a bank writes it.
fn return_file(convenio: &str, day: &str, paid: &[(String, u64)]) -> String {
    let record = |text: String| format!("{text:<150}\r\n");
    let mut file = record(format!(
        "A2{convenio:<20}{:<20}001{:<20}{day}{:06}07{:<17}",
        "PREFEITURA", "BANCO DO BRASIL", 1, "CODIGO DE BARRAS"
    ));
    for (n, (codigo, cents)) in paid.iter().enumerate() {
        file.push_str(&record(format!(
            "G{:<20}{day}{day}{codigo:<44}{cents:012}{:07}{:08}{:<8}1{:<23}1",
            "0001",
            0,
            n + 1,
            "00010001",
            format!("AUT{}", n + 1)
        )));
    }
    let total: u64 = paid.iter().map(|(_, cents)| cents).sum();
    file.push_str(&record(format!("Z{:06}{total:017}", paid.len() + 2)));
    file
}

/// Money, the ledger (issue 13): a clerk charges Teófilo Otoni's transfer
/// fee by hand from the debts' page — the months worked for the law's
/// reduction (art. 103, § 2º, b: 230 UPFTO), a blank debtor refused next
/// to the field first — and lands on the new debt; then uploads the bank's
/// return file of that debt's slip (written to a file and chosen in the
/// file input), with a line whose barcode is wrong: the report shows the
/// slip paid, linked to its debt, and the line refused with why; on the
/// debt, now paid, asks a refund (due 30 days from the request, art. 96,
/// § 3º). The new pages pass the accessibility checks and fit a phone's
/// width.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clerk_charges_a_fee_and_imports_a_banks_return() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_server, base) = serve(data.path());
    let (_chromedriver, url) = chromedriver().await;
    let driver = browser(&url).await;
    sign_in_as(&driver, &base, "clerk").await;

    driver
        .goto(format!("{base}/j/teofilo-otoni/debitos"))
        .await
        .expect("the debts");
    let debtor = driver
        .find(By::Css(
            "#conteudo table a[href^='/j/teofilo-otoni/pessoas/']",
        ))
        .await
        .expect("a debtor")
        .attr("href")
        .await
        .expect("its address")
        .unwrap_or_default()
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string();
    scroll_to(&driver, "relatorios").await;
    page(&driver, "debitos-relatorios").await;
    driver
        .find(By::LinkText("Lançar taxa"))
        .await
        .expect("the link")
        .click()
        .await
        .expect("click");
    let said = text_with(&driver, "Meses trabalhados").await;
    check(
        &driver,
        said.contains("de 24 a 36 meses, 230 UPFTO (Art. 103, § 2º, b)"),
        "taxa",
        "the months' help names the reductions",
    )
    .await;
    click(&driver, "#taxa option[value='transfer']").await;
    type_into(&driver, "meses", "30").await;
    page(&driver, "taxa").await;
    driver
        .set_window_rect(0, 0, 390, 844)
        .await
        .expect("a phone's width");
    page(&driver, "taxa-celular").await;
    check(
        &driver,
        fits(&driver).await,
        "taxa-celular",
        "the fee form fits a phone's width",
    )
    .await;
    driver
        .set_window_rect(0, 0, 1280, 1000)
        .await
        .expect("a desk's width");
    click(&driver, "form.formulario-taxa button.primary").await;
    let said = text_with(&driver, "Informe o CPF ou o CNPJ").await;
    let next_to = driver
        .find(By::Css("#devedor[aria-invalid=true] ~ #erro-devedor"))
        .await
        .is_ok();
    check(
        &driver,
        said.contains("Informe o CPF ou o CNPJ de quem paga") && next_to,
        "taxa-recusa",
        "a blank debtor is refused next to the field",
    )
    .await;
    let kept = driver
        .find(By::Css("#taxa option[value='transfer']"))
        .await
        .expect("the fee")
        .is_selected()
        .await
        .expect("chosen");
    check(&driver, kept, "taxa-recusa", "the fee chosen is kept").await;
    scroll_to(&driver, "devedor").await;
    page(&driver, "taxa-recusa").await;
    type_into(&driver, "devedor", &debtor).await;
    click(&driver, "form.formulario-taxa button.primary").await;
    let said = text_with(&driver, "Taxa lançada").await;
    check(
        &driver,
        said.contains("230 UPFTO") && said.contains("Art. 103, § 2º, b"),
        "taxa-debito",
        "the fee is charged at the reduction, on its debt's page",
    )
    .await;
    let fee = driver.current_url().await.expect("url").path().to_string();

    // The slip of the new debt, as the bank would return it paid, and a
    // line whose barcode has a wrong digit.
    let slip = driver
        .execute(
            "const alt = document.querySelector('.codigo-barras img').alt;
             const dds = [...document.querySelectorAll('.guia dl dd')];
             return [alt.split(', ').pop(), dds[0].querySelector('strong').textContent, dds[1].textContent];",
            Vec::new(),
        )
        .await
        .expect("the slip");
    let [codigo, value, due]: [String; 3] =
        serde_json::from_value(slip.json().clone()).expect("the slip's fields");
    let cents: u64 = value
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("centavos");
    let day: String = due.split('/').rev().collect();
    let mut wrong = codigo.clone().into_bytes();
    wrong[43] = if wrong[43] == b'9' {
        b'0'
    } else {
        wrong[43] + 1
    };
    let wrong = String::from_utf8(wrong).expect("digits");
    let file = data.path().join("retorno.ret");
    std::fs::write(
        &file,
        return_file(
            &codigo[15..19],
            &day,
            &[(codigo.clone(), cents), (wrong, 1000)],
        ),
    )
    .expect("the return file");

    driver
        .goto(format!("{base}/j/teofilo-otoni/debitos"))
        .await
        .expect("the debts");
    driver
        .find(By::LinkText("Retorno bancário"))
        .await
        .expect("the link")
        .click()
        .await
        .expect("click");
    let said = text_with(&driver, "Arquivo retorno").await;
    check(
        &driver,
        said.contains("importado uma vez só"),
        "retorno-vazio",
        "the return's page",
    )
    .await;
    page(&driver, "retorno-vazio").await;
    driver
        .find(By::Id("arquivo"))
        .await
        .expect("the file input")
        .send_keys(file.to_string_lossy())
        .await
        .expect("the file chosen");
    click(&driver, "#conteudo form button[type=submit]").await;
    let said = text_with(&driver, "linha(s) sem pagamento").await;
    check(
        &driver,
        said.contains("1 guia(s) paga(s), 0 creditada(s) ao devedor, 1 linha(s) sem pagamento"),
        "retorno",
        "the report counts the lines",
    )
    .await;
    let linked = driver
        .find(By::Css(format!("#resultado a[href='{fee}']")))
        .await
        .is_ok();
    check(
        &driver,
        linked && said.to_lowercase().contains("dígito"),
        "retorno",
        "the paid slip links its debt; the wrong line says why",
    )
    .await;
    scroll_to(&driver, "resultado").await;
    page(&driver, "retorno").await;
    driver
        .set_window_rect(0, 0, 390, 844)
        .await
        .expect("a phone's width");
    scroll_to(&driver, "resultado").await;
    page(&driver, "retorno-celular").await;
    check(
        &driver,
        fits(&driver).await,
        "retorno-celular",
        "the report fits a phone's width",
    )
    .await;
    driver
        .set_window_rect(0, 0, 1280, 1000)
        .await
        .expect("a desk's width");
    driver.goto(format!("{base}{fee}")).await.expect("the debt");
    let said = text_with(&driver, "quitado").await;
    check(
        &driver,
        said.contains("guia paga no banco") && said.contains("Pedir restituição"),
        "debito-restituicao",
        "the debt is paid by the return, and a refund may be asked",
    )
    .await;
    click(&driver, "#motivo-duplicidade + label").await;
    click(
        &driver,
        "form[aria-labelledby=pedir-restituicao] button[type=submit]",
    )
    .await;
    let said = text_with(&driver, "Restituir até").await;
    check(
        &driver,
        said.contains("pagamento em duplicidade")
            && said.contains("prazo de 30 dias do pedido, art. 96, § 3º")
            && said.contains("Registrar restituição paga"),
        "debito-restituicao",
        "the refund asked is shown with the law's limit",
    )
    .await;
    scroll_to(&driver, "restituicao").await;
    page(&driver, "debito-restituicao").await;

    driver.quit().await.expect("quit");
}

/// A passenger, without signing in, checks a document by its code and a
/// vehicle by its plate from the home page's links (issue 14): the forms
/// and their answers pass axe, also on a phone's width.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passenger_checks_a_document_and_a_vehicle() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_server, base) = serve(data.path());
    let (_chromedriver, url) = chromedriver().await;
    let driver = browser(&url).await;

    driver.goto(format!("{base}/")).await.expect("home");
    click(&driver, "a[href='/verificar']").await;
    text_with(&driver, "Código de verificação").await;
    type_into(&driver, "codigo", "ZZZZZ-99999").await;
    click(&driver, "form[action='/verificar'] button[type=submit]").await;
    let answer = text_with(&driver, "Documento não encontrado").await;
    check(
        &driver,
        answer.contains("confira as letras e os números"),
        "verificar-nao-encontrado",
        "an unknown code says what to check",
    )
    .await;
    page(&driver, "verificar-nao-encontrado").await;

    driver.goto(format!("{base}/")).await.expect("home");
    click(&driver, "a[href='/consulta']").await;
    text_with(&driver, "Placa ou matrícula").await;
    click(&driver, "#tipo-placa + label").await;
    type_into(&driver, "valor", "ZZZ9Z99").await;
    click(&driver, "form[action='/consulta'] button[type=submit]").await;
    let answer = text_with(&driver, "Nada encontrado").await;
    check(
        &driver,
        answer.contains("ZZZ9Z99"),
        "consulta-nada",
        "an unknown plate is named in the answer",
    )
    .await;
    page(&driver, "consulta-nada").await;
    driver
        .set_window_rect(0, 0, 390, 844)
        .await
        .expect("a phone's width");
    check(
        &driver,
        fits(&driver).await,
        "consulta-celular",
        "the page fits a phone",
    )
    .await;
    page(&driver, "consulta-celular").await;

    // The fares, stands and lines of a town, and the open data.
    driver.goto(format!("{base}/")).await.expect("home");
    click(&driver, "a[href='/tarifas']").await;
    click(&driver, "a[href='/tarifas/teofilo-otoni']").await;
    let fares = text_with(&driver, "Quando vale cada bandeira").await;
    check(
        &driver,
        fares.contains("Bandeira 2") && fares.contains("Art. 106"),
        "tarifas",
        "the bandeiras' hours with their article",
    )
    .await;
    page(&driver, "tarifas").await;
    driver.goto(format!("{base}/")).await.expect("home");
    click(&driver, "a[href='/dados-abertos']").await;
    let open = text_with(&driver, "Arquivos por município ou estado").await;
    check(
        &driver,
        open.contains("permissoes.csv") && open.contains("Creative Commons"),
        "dados-abertos",
        "the files and their license",
    )
    .await;
    page(&driver, "dados-abertos").await;

    // The demo's public draw of a stand's vacancy (opened 24 days ago in
    // Canguçu's time): the list's hash, the seed, the order, the recipe.
    let opened = (chrono::Utc::now() - chrono::Duration::hours(3) - chrono::Duration::days(24))
        .format("%Y")
        .to_string();
    driver
        .goto(format!("{base}/sorteios/cangucu/{opened}/1"))
        .await
        .expect("the draw");
    let draw = text_with(&driver, "Como conferir").await;
    check(
        &driver,
        draw.contains("SHA-256 da lista") && draw.contains("1º") && draw.contains("import hashlib"),
        "sorteio",
        "the draw's list hash, order and the script that recomputes it",
    )
    .await;
    page(&driver, "sorteio").await;

    // A complaint, then its protocol page.
    driver.goto(format!("{base}/")).await.expect("home");
    click(&driver, "a[href='/denuncia']").await;
    text_with(&driver, "Fazer uma denúncia").await;
    page(&driver, "denuncia").await;
    click(&driver, "#tipo-overcharge + label").await;
    driver
        .execute(
            "document.getElementById('quando').value = '2026-11-29T22:10';",
            Vec::new(),
        )
        .await
        .expect("the moment");
    type_into(&driver, "local", "Rodoviária").await;
    type_into(
        &driver,
        "descricao",
        "Cobrou o dobro da tarifa sem ligar o taxímetro.",
    )
    .await;
    click(&driver, "form[action='/denuncia'] button[type=submit]").await;
    let filed = text_with(&driver, "Guarde o protocolo").await;
    check(
        &driver,
        filed.contains("recebida") && !filed.contains("Cobrou o dobro"),
        "denuncia-protocolo",
        "the protocol and its status, never the text",
    )
    .await;
    page(&driver, "denuncia-protocolo").await;
}

/// A holder signs in to their space with the demo's CPF, reads their
/// permits, autos and debts, opens the auto whose defense is open, files a
/// defense with a PDF attached and gets the receipt; the board finds the
/// defense in its queue and on the auto's page; a clerk prints another
/// person's first-access letter. Every page checked with axe-core, the
/// space also at a phone's width.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_holder_files_a_defense_that_the_board_sees() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_server, base) = serve(data.path());
    let (_chromedriver, url) = chromedriver().await;
    let driver = browser(&url).await;

    let library = outorga_rulebook::load(&rulebooks()).expect("rulebooks");
    let all: Vec<_> = library.rulebooks().collect();
    let (_, cpf) = outorga_store::demo_holder(&all).expect("a demo holder");
    driver.goto(format!("{base}/")).await.expect("home");
    click(&driver, "a[href='/titular']").await;
    text_with(&driver, "Primeiro acesso").await;
    page(&driver, "titular-entrar").await;
    fill(&driver, &[("cpf", &cpf), ("senha", "demonstracao")]).await;
    let at = path_after(&driver, "/titular/painel").await;
    check(
        &driver,
        at == "/titular/painel",
        "titular-entrada",
        "the holder signs in",
    )
    .await;
    let space = text_with(&driver, "Meus pedidos").await;
    check(
        &driver,
        space.contains("apresentar defesa até") && space.contains("Imprimir a guia (PDF)"),
        "titular-painel",
        "the space shows the open defense and the debt's slip",
    )
    .await;
    page(&driver, "titular-painel").await;

    // The auto whose defense is open.
    let link = driver
        .find(By::XPath(
            "//tr[contains(., 'apresentar defesa até')]//a[starts-with(@href, '/titular/autos/')]",
        ))
        .await
        .expect("the open auto's link");
    let href = link.attr("href").await.expect("href").unwrap_or_default();
    link.click().await.expect("open the auto");
    text_with(&driver, "Apresentar defesa").await;
    page(&driver, "titular-auto").await;
    let proof = data.path().join("recibo-de-entrega.pdf");
    std::fs::write(&proof, b"%PDF-1.4\n% recibo de entrega do objeto\n%%EOF\n").expect("a PDF");
    type_into(
        &driver,
        "texto",
        "O objeto foi devolvido ao passageiro no mesmo dia, conforme o recibo anexo.",
    )
    .await;
    driver
        .find(By::Id("anexos"))
        .await
        .expect("the file field")
        .send_keys(proof.to_string_lossy().as_ref())
        .await
        .expect("a file chosen");
    click(
        &driver,
        "form[enctype='multipart/form-data'] button[type=submit]",
    )
    .await;
    let receipt = text_with(&driver, "Comprovante de protocolo").await;
    check(
        &driver,
        receipt.contains("recibo-de-entrega.pdf") && receipt.contains("defesa da autuação"),
        "titular-protocolo",
        "the receipt names the defense and its file",
    )
    .await;
    page(&driver, "titular-protocolo").await;
    driver
        .set_window_rect(0, 0, 390, 844)
        .await
        .expect("a phone's width");
    driver
        .goto(format!("{base}/titular/painel"))
        .await
        .expect("the space");
    text_with(&driver, "Meus pedidos").await;
    check(
        &driver,
        fits(&driver).await,
        "titular-celular",
        "the space fits a phone",
    )
    .await;
    page(&driver, "titular-celular").await;
    driver
        .set_window_rect(0, 0, 1280, 900)
        .await
        .expect("a desktop's width");

    // The board sees the defense.
    let parts: Vec<&str> = href
        .trim_start_matches("/titular/autos/")
        .split('/')
        .collect();
    let (j, year, number) = (parts[0], parts[1], parts[2]);
    sign_in_as(&driver, &base, "board").await;
    driver
        .goto(format!("{base}/j/{j}/junta"))
        .await
        .expect("the board's queue");
    let queue = text_with(&driver, &format!("{number}/{year}")).await;
    check(
        &driver,
        queue.contains(&format!("{number}/{year}")),
        "junta-defesa",
        "the auto is in the board's queue",
    )
    .await;
    driver
        .goto(format!("{base}/j/{j}/autos/{year}/{number}"))
        .await
        .expect("the auto");
    let auto = text_with(&driver, "Enviado pelo espaço do titular").await;
    check(
        &driver,
        auto.contains("recibo-de-entrega.pdf") && auto.contains("devolvido ao passageiro"),
        "auto-defesa-online",
        "the auto's page shows the defense and its file",
    )
    .await;
    page(&driver, "auto-defesa-online").await;

    // A clerk prints a first-access letter for another holder.
    sign_in_as(&driver, &base, "clerk").await;
    driver
        .goto(format!("{base}/j/{j}/pessoas"))
        .await
        .expect("the people");
    let other = driver
        .find(By::XPath(format!(
            "//a[starts-with(@href, '/j/{j}/pessoas/') and not(contains(@href, '{cpf}'))]"
        )))
        .await
        .expect("another person");
    other.click().await.expect("open the person");
    text_with(&driver, "Espaço do titular e do condutor").await;
    click(
        &driver,
        "form[action$='/codigo-de-acesso'] button[type=submit]",
    )
    .await;
    let letter = text_with(&driver, "Seu código de primeiro acesso").await;
    check(
        &driver,
        letter.contains("/titular/primeiro-acesso"),
        "codigo-acesso",
        "the letter says where to use the code",
    )
    .await;
    page(&driver, "codigo-acesso").await;
}

/// An inspector reads a bus line's operation, the carrier's last month
/// and its findings, and turns the seat sold twice into an auto; the clerk
/// imports the demo's ticket file again and is told nothing was added.
#[tokio::test]
async fn an_inspector_turns_a_seat_sold_twice_into_an_auto() {
    let data = tempfile::tempdir().expect("temp dir");
    let (_server, base) = serve(data.path());
    let (_chromedriver, url) = chromedriver().await;
    let driver = browser(&url).await;
    sign_in_as(&driver, &base, "inspector").await;
    click(&driver, "a[href='/j/amapa/linhas']").await;
    text_with(&driver, "Linhas de ônibus intermunicipal").await;
    page(&driver, "linhas").await;
    click(&driver, "a[href='/j/amapa/linhas/AP-101']").await;
    let line = text_with(&driver, "Quadro de horários").await;
    check(
        &driver,
        line.contains("frequência mínima: 15") && line.contains("requerida"),
        "linha",
        "the line's operation and the carrier's request",
    )
    .await;
    page(&driver, "linha").await;
    let (carrier, _) = outorga_store::DEMO_CARRIER;
    driver
        .goto(format!("{base}/j/amapa/transportadoras/{carrier}"))
        .await
        .expect("the carrier");
    let month = text_with(&driver, "Constatações").await;
    check(
        &driver,
        month.contains("poltrona vendida duas vezes") && month.contains("Art. 22, V"),
        "transportadora",
        "the carrier's month shows the seat sold twice",
    )
    .await;
    page(&driver, "transportadora").await;
    click(&driver, "form[action$='/constatacoes'] button[type=submit]").await;
    let auto = text_with(&driver, "Proposta da lei").await;
    check(
        &driver,
        auto.contains("61-IV-b") && auto.contains("dados entregues pela própria transportadora"),
        "auto-constatacao",
        "the auto made from the finding",
    )
    .await;
    page(&driver, "auto-constatacao").await;
}
