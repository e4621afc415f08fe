//! The first screens through the router, on SQLite and PostgreSQL: the home
//! page (with the demo users), sign-in with its form token and the session
//! cookie's flags, the panel per jurisdiction of the user's scope, sign-out
//! with the form's CSRF token, and the vendored assets.

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use chrono::NaiveDateTime;
use outorga_store::{AuditKey, AuditKeys, Change, Jurisdiction, Role, Scope, Store, sqlite_url};
use outorga_web::{AppState, Clock};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tower::ServiceExt;

const PASSWORD: &str = "uma senha bem longa 42";
const PG: &str = "postgres://postgres@127.0.0.1:5432/test";

#[derive(Debug)]
struct Fixed;

impl Clock for Fixed {
    fn now(&self) -> NaiveDateTime {
        chrono::NaiveDate::from_ymd_opt(2026, 11, 30)
            .and_then(|d| d.and_hms_opt(15, 0, 0))
            .expect("date")
    }
}

fn setup() -> Change<'static> {
    Change {
        by: "preparo-do-teste",
        at: Fixed.now(),
        why: "teste automatizado",
    }
}

struct Page {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Page {
    fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with(&format!("{name}=")))
            .map(str::to_string)
    }

    fn location(&self) -> &str {
        self.headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }

    /// The value of the form's hidden `csrf` field.
    fn csrf(&self) -> String {
        let at = self
            .body
            .find("name=\"csrf\" value=\"")
            .expect("a csrf field")
            + 19;
        self.body[at..]
            .split('"')
            .next()
            .unwrap_or_default()
            .to_string()
    }
}

/// The value a `Set-Cookie` line sets.
fn value(set_cookie: &str) -> &str {
    set_cookie
        .split(';')
        .next()
        .and_then(|pair| pair.split_once('='))
        .map(|(_, v)| v)
        .unwrap_or_default()
}

async fn send(router: &axum::Router, request: Request<Body>) -> Page {
    let answer = router.clone().oneshot(request).await.expect("answer");
    let status = answer.status();
    let headers = answer.headers().clone();
    let bytes = axum::body::to_bytes(answer.into_body(), 8 << 20)
        .await
        .expect("body");
    Page {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

fn get(path: &str, cookies: &str) -> Request<Body> {
    Request::get(path)
        .header(header::COOKIE, cookies)
        .body(Body::empty())
        .expect("request")
}

fn post(path: &str, cookies: &str, form: &str) -> Request<Body> {
    Request::post(path)
        .header(header::COOKIE, cookies)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form.to_string()))
        .expect("request")
}

async fn router(url: &str) -> axum::Router {
    let keys = AuditKeys::new(AuditKey::from_hex(&"5e".repeat(32)).expect("test key"));
    let store = Store::open(url, keys).await.expect("open");
    store.seal(&setup()).await.expect("seal");
    let rulebooks = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    let library = outorga_rulebook::load(&rulebooks).expect("rulebooks");
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
    store
        .sync_jurisdictions(&setup(), &jurisdictions)
        .await
        .expect("sync");
    store
        .create_user(
            &setup(),
            "atendente",
            Role::Clerk,
            PASSWORD,
            &Scope::Only(vec!["cangucu".into()]),
        )
        .await
        .expect("user");
    store
        .create_user(
            &setup(),
            "consulta",
            Role::ReadOnly,
            PASSWORD,
            &Scope::Only(vec!["cangucu".into()]),
        )
        .await
        .expect("user");
    let taxi = library
        .rulebooks()
        .find(|r| r.jurisdiction.id == "cangucu")
        .expect("Canguçu's rulebook");
    store
        .set_parameter(&setup(), taxi, "cangucu", ("population", 49_607u32.into()))
        .await
        .expect("population");
    let state = AppState::new(store, library).with_clock(Arc::new(Fixed));
    outorga_web::router_with(
        state,
        outorga_ui::routes(outorga_ui::Options { demo: true }),
    )
}

/// Signs in as `atendente`: the session cookie's line.
async fn signed_in(router: &axum::Router) -> String {
    signed_in_as(router, "atendente").await
}

/// Signs in as `name`: the session cookie's line.
async fn signed_in_as(router: &axum::Router, name: &str) -> String {
    let form = send(router, get("/entrar", "")).await;
    let pre = value(&form.cookie("outorga_entrada").expect("form cookie")).to_string();
    let opened = send(
        router,
        post(
            "/entrar",
            &format!("outorga_entrada={pre}"),
            &format!(
                "nome={name}&senha=uma+senha+bem+longa+42&csrf={}",
                form.csrf()
            ),
        ),
    )
    .await;
    assert_eq!(opened.status, StatusCode::SEE_OTHER, "{}", opened.body);
    opened.cookie("outorga_sessao").expect("session cookie")
}

async fn screens(url: &str) {
    let router = router(url).await;

    // The home page: what it is, how to sign in, the demo users.
    let home = send(&router, get("/", "")).await;
    assert_eq!(home.status, StatusCode::OK);
    let policy = home.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("policy");
    assert!(
        policy.contains("script-src 'self'") && !policy.contains("unsafe"),
        "{policy}"
    );
    assert!(home.body.contains("lang=\"pt-BR\""));
    assert!(home.body.contains("href=\"#conteudo\""), "a skip link");
    assert!(home.body.contains("<strong>demonstracao</strong>"));
    assert!(home.body.contains("Canguçu (RS)"));

    // The sign-in form sets its token in a cookie and in the form.
    let form = send(&router, get("/entrar", "")).await;
    assert_eq!(form.status, StatusCode::OK);
    let pre = form.cookie("outorga_entrada").expect("form cookie");
    assert!(
        pre.contains("HttpOnly") && pre.contains("SameSite=Strict"),
        "{pre}"
    );
    assert_eq!(value(&pre), form.csrf());
    assert!(form.body.contains("<label for=\"nome\">"));
    let cookies = format!("outorga_entrada={}", value(&pre));
    let attempt = |password: &str, csrf: &str| {
        post(
            "/entrar",
            &cookies,
            &format!("nome=atendente&senha={password}&csrf={csrf}"),
        )
    };
    // Without the form's token: refused, no session.
    let forged = send(&router, attempt("uma+senha+bem+longa+42", "outro")).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert!(forged.cookie("outorga_sessao").is_none());
    // A wrong password: said next to the form, announced.
    let wrong = send(&router, attempt("errada", &form.csrf())).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(
        wrong
            .body
            .contains("role=\"alert\">Nome ou senha incorretos.")
    );
    assert!(wrong.body.contains("aria-invalid=\"true\""));
    // The password: to the panel, with the session cookie.
    let opened = send(&router, attempt("uma+senha+bem+longa+42", &form.csrf())).await;
    assert_eq!(opened.status, StatusCode::SEE_OTHER);
    assert_eq!(opened.location(), "/painel");
    let session = opened.cookie("outorga_sessao").expect("session cookie");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Strict"),
        "{session}"
    );
    assert!(!session.contains("Secure"), "plain HTTP: {session}");

    // Behind TLS the cookie is Secure.
    let tls = {
        let mut request = get("/entrar", "");
        request
            .headers_mut()
            .insert("x-forwarded-proto", "https".parse().expect("header"));
        send(&router, request).await
    };
    assert!(
        tls.cookie("outorga_entrada")
            .is_some_and(|c| c.contains("; Secure"))
    );

    // The panel needs a session, and shows the jurisdictions of the scope.
    let away = send(&router, get("/painel", "")).await;
    assert_eq!(
        (away.status, away.location()),
        (StatusCode::SEE_OTHER, "/entrar")
    );
    let signed = format!("outorga_sessao={}", value(&session));
    let panel = send(&router, get("/painel", &signed)).await;
    assert_eq!(panel.status, StatusCode::OK, "{}", panel.body);
    assert!(panel.body.contains("Canguçu (RS)"));
    assert!(
        !panel.body.contains("Amapá (AP)"),
        "out of the user's scope"
    );
    assert!(panel.body.contains("Hoje: 30/11/2026"));
    assert!(panel.body.contains("atendente — atendente"));
    // Signed in, the home page and the form lead to the panel.
    let home = send(&router, get("/", &signed)).await;
    assert_eq!(home.location(), "/painel");

    // Signing out needs the page's token; then the session is over.
    let forged = send(&router, post("/sair", &signed, "csrf=outro")).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let out = send(
        &router,
        post("/sair", &signed, &format!("csrf={}", panel.csrf())),
    )
    .await;
    assert_eq!((out.status, out.location()), (StatusCode::SEE_OTHER, "/"));
    assert!(
        out.cookie("outorga_sessao")
            .is_some_and(|c| c.contains("Max-Age=0"))
    );
    let after = send(&router, get("/painel", &signed)).await;
    assert_eq!(after.location(), "/entrar");
    let again = signed_in(&router).await;
    assert!(value(&again) != value(&session));

    // Changing one's own password: the current one checked, the new one
    // confirmed and within the rules; then the old sessions are over and
    // this browser has a new one.
    let signed = format!("outorga_sessao={}", value(&again));
    let form = send(&router, get("/senha", &signed)).await;
    assert_eq!(form.status, StatusCode::OK);
    let token = form.csrf();
    let change = |current: &str, new: &str, confirm: &str| {
        post(
            "/senha",
            &signed,
            &format!("atual={current}&nova={new}&confirmacao={confirm}&csrf={token}"),
        )
    };
    let nova = "outra+senha+comprida+77";
    let wrong = send(&router, change("errada", nova, nova)).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.body.contains("A senha atual está incorreta."));
    let unlike = send(&router, change("uma+senha+bem+longa+42", nova, "outra")).await;
    assert_eq!(unlike.status, StatusCode::UNPROCESSABLE_ENTITY);
    let weak = send(&router, change("uma+senha+bem+longa+42", "123", "123")).await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        weak.body.contains("A nova senha não foi aceita:"),
        "{}",
        weak.body
    );
    let changed = send(&router, change("uma+senha+bem+longa+42", nova, nova)).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    assert!(changed.body.contains("Senha trocada."));
    let fresh = changed.cookie("outorga_sessao").expect("a new session");
    assert_eq!(
        send(&router, get("/painel", &signed)).await.location(),
        "/entrar",
        "the old session ended"
    );
    let panel = send(
        &router,
        get("/painel", &format!("outorga_sessao={}", value(&fresh))),
    )
    .await;
    assert_eq!(panel.status, StatusCode::OK);

    // The vendored assets, kept by browsers; nothing else.
    let css = send(&router, get("/static/govbr-ds-core-3.7.0.min.css", "")).await;
    assert_eq!(css.status, StatusCode::OK);
    assert_eq!(css.headers[header::CONTENT_TYPE], "text/css; charset=utf-8");
    assert!(
        css.headers[header::CACHE_CONTROL]
            .to_str()
            .is_ok_and(|c| c.contains("immutable"))
    );
    let font = send(&router, get("/static/raleway-latin-400-normal.woff2", "")).await;
    assert_eq!(font.headers[header::CONTENT_TYPE], "font/woff2");
    let missing = send(&router, get("/static/nada.js", "")).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

/// A clerk's day on screen: registers a person (a bad CPF said next to
/// the field), reads the checklist, sees the cap and the checklist before
/// granting, grants, is refused a second grant with the article, finds
/// the person and the permit by the search box, opens the dossier; pages
/// out of the scope are refused; a read-only user is offered no write
/// and is refused one anyway.
async fn clerk_workflows(url: &str) {
    let router = router(url).await;
    let clerk = format!("outorga_sessao={}", value(&signed_in(&router).await));
    let people = send(&router, get("/j/cangucu/pessoas", &clerk)).await;
    assert_eq!(people.status, StatusCode::OK, "{}", people.body);
    assert!(people.body.contains("Cadastrar"));
    let token = people.csrf();
    let register = |form: String| post("/j/cangucu/pessoas", &clerk, &form);
    let bad = send(
        &router,
        register(format!(
            "documento=529.982.247-24&nome=Jos%C3%A9&csrf={token}"
        )),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains("CPF inválido"), "{}", bad.body);
    assert!(bad.body.contains("aria-invalid=\"true\""));
    let forged = send(
        &router,
        register("documento=52998224725&nome=Jos%C3%A9&csrf=outro".into()),
    )
    .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let done = send(
        &router,
        register(format!(
            "documento=529.982.247-25&nome=Jos%C3%A9+da+Concei%C3%A7%C3%A3o&csrf={token}"
        )),
    )
    .await;
    assert_eq!(
        (done.status, done.location()),
        (StatusCode::SEE_OTHER, "/j/cangucu/pessoas/52998224725")
    );
    let person = send(&router, get("/j/cangucu/pessoas/52998224725", &clerk)).await;
    assert_eq!(person.status, StatusCode::OK);
    assert!(person.body.contains("José da Conceição"));
    assert!(person.body.contains("529.982.247-25"));
    assert!(person.body.contains("Requisitos para táxi em 30/11/2026"));
    assert!(person.body.contains("a verificar"));
    assert!(
        person
            .body
            .contains("Registrar no perfil a CNH com a categoria")
    );
    assert!(
        person
            .body
            .contains("/j/cangucu/permissoes/nova?servico=taxi")
    );

    // Before granting: the cap and the checklist.
    let form = send(
        &router,
        get(
            "/j/cangucu/permissoes/nova?servico=taxi&titular=52998224725",
            &clerk,
        ),
    )
    .await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(form.body.contains("Limite: <strong>"), "{}", form.body);
    assert!(form.body.contains("Art. 3º, § 2º"));
    assert!(form.body.contains("Requisitos de José da Conceição"));
    let part = send(
        &router,
        get(
            "/j/cangucu/permissoes/previa?servico=taxi&titular=00000000000",
            &clerk,
        ),
    )
    .await;
    assert_eq!(part.status, StatusCode::OK);
    assert!(part.body.starts_with("<div id=\"previa\""), "{}", part.body);
    assert!(part.body.contains("CPF inválido"));
    let grant = || {
        post(
            "/j/cangucu/permissoes",
            &clerk,
            &format!("servico=taxi&titular=52998224725&cota=&csrf={token}"),
        )
    };
    let granted = send(&router, grant()).await;
    assert_eq!(granted.status, StatusCode::CREATED, "{}", granted.body);
    assert!(granted.body.contains("Permissão de táxi nº 1 outorgada"));
    assert!(granted.body.contains("Conferir ainda"));
    let again = send(&router, grant()).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.body.contains("Outorga negada"));
    assert!(
        again.body.contains("Art. 3º, § 3º"),
        "the article: {}",
        again.body
    );
    let unknown = send(
        &router,
        post(
            "/j/cangucu/permissoes",
            &clerk,
            &format!("servico=taxi&titular=11144477735&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        unknown.body.contains("não está cadastrado"),
        "{}",
        unknown.body
    );

    // The list, the dossier, the search.
    let list = send(&router, get("/j/cangucu/permissoes?servico=taxi", &clerk)).await;
    assert!(list.body.contains("/j/cangucu/permissoes/taxi/1"));
    let bad_filter = send(&router, get("/j/cangucu/permissoes?titular=123", &clerk)).await;
    assert_eq!(bad_filter.status, StatusCode::UNPROCESSABLE_ENTITY);
    let dossier = send(&router, get("/j/cangucu/permissoes/taxi/1", &clerk)).await;
    assert_eq!(dossier.status, StatusCode::OK);
    assert!(dossier.body.contains("30/11/2026 — outorga"));
    assert!(dossier.body.contains("Art. 3º, § 3º"));
    let missing = send(&router, get("/j/cangucu/permissoes/taxi/99", &clerk)).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    for text in ["conceic", "529.982", "Jose%20da"] {
        let found = send(&router, get(&format!("/busca/resultados?q={text}"), &clerk)).await;
        assert!(
            found
                .body
                .contains("href=\"/j/cangucu/pessoas/52998224725\""),
            "{text}: {}",
            found.body
        );
    }
    let numbered = send(&router, get("/busca?q=1", &clerk)).await;
    assert!(numbered.body.contains("Digite ao menos 2 caracteres."));
    let nothing = send(&router, get("/busca/resultados?q=zzzz", &clerk)).await;
    assert!(nothing.body.contains("Nada encontrado"));

    // Out of the scope, and nowhere.
    let away = send(&router, get("/j/amapa/pessoas", &clerk)).await;
    assert_eq!(away.status, StatusCode::FORBIDDEN);
    let nowhere = send(&router, get("/j/atlantida/permissoes", &clerk)).await;
    assert_eq!(nowhere.status, StatusCode::NOT_FOUND);

    // A read-only user reads, is offered no write, and is refused one.
    let reader = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "consulta").await)
    );
    let panel = send(&router, get("/painel", &reader)).await;
    assert!(panel.body.contains("/j/cangucu/permissoes\""));
    assert!(!panel.body.contains("Outorgar permissão"));
    let people = send(&router, get("/j/cangucu/pessoas", &reader)).await;
    assert!(!people.body.contains("Cadastrar</h2>"));
    let person = send(&router, get("/j/cangucu/pessoas/52998224725", &reader)).await;
    assert!(!person.body.contains("/permissoes/nova"));
    let refused = send(
        &router,
        post(
            "/j/cangucu/pessoas",
            &reader,
            &format!("documento=11144477735&nome=Outro&csrf={}", panel.csrf()),
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let form = send(&router, get("/j/cangucu/permissoes/nova", &reader)).await;
    assert_eq!(form.status, StatusCode::FORBIDDEN);
}

/// Who asks, in the role × scope table of the pages.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Who {
    Nobody,
    Clerk,
    Reader,
}

/// Every page route, for each caller and jurisdiction: without a session
/// the sign-in page; out of the scope 403; an unknown jurisdiction 404; a
/// write a role may not make 403 (its form not offered); otherwise the
/// route answers (a bad form is 422, a missing record 404) — never the
/// sign-in page nor a refusal.
async fn role_table(url: &str) {
    let router = router(url).await;
    let clerk = format!("outorga_sessao={}", value(&signed_in(&router).await));
    let reader = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "consulta").await)
    );
    let token_of = |cookies: String| {
        let router = router.clone();
        async move { send(&router, get("/painel", &cookies)).await.csrf() }
    };
    let clerk_token = token_of(clerk.clone()).await;
    let reader_token = token_of(reader.clone()).await;
    // (method, path, form, whether only a clerk may use it)
    let routes: [(&str, &str, &str, bool); 16] = [
        // The import (issue 12, item 7).
        ("GET", "/j/{j}/importar", "", true),
        ("POST", "/j/{j}/importar", "tipo=holders", true),
        ("GET", "/painel", "", false),
        ("GET", "/senha", "", false),
        ("GET", "/busca?q=ab", "", false),
        ("GET", "/busca/resultados?q=ab", "", false),
        ("GET", "/j/{j}/pessoas", "", false),
        ("POST", "/j/{j}/pessoas", "documento=123&nome=X", true),
        ("GET", "/j/{j}/pessoas/52998224725", "", false),
        ("GET", "/j/{j}/permissoes", "", false),
        (
            "POST",
            "/j/{j}/permissoes",
            "servico=taxi&titular=123",
            true,
        ),
        ("GET", "/j/{j}/permissoes/nova", "", true),
        ("GET", "/j/{j}/permissoes/previa?servico=taxi", "", false),
        ("GET", "/j/{j}/permissoes/taxi/1", "", false),
        ("POST", "/senha", "atual=x&nova=y&confirmacao=z", false),
        ("POST", "/sair", "", false),
    ];
    for (method, path, form, writes) in routes {
        for who in [Who::Nobody, Who::Clerk, Who::Reader] {
            for j in ["cangucu", "amapa", "atlantida"] {
                let scoped = path.contains("{j}");
                if !scoped && j != "cangucu" {
                    continue;
                }
                // Signing out would end the sessions the other rows use
                // (the screens test signs out).
                if path == "/sair" && who != Who::Nobody {
                    continue;
                }
                let (cookies, token) = match who {
                    Who::Nobody => (String::new(), String::new()),
                    Who::Clerk => (clerk.clone(), clerk_token.clone()),
                    Who::Reader => (reader.clone(), reader_token.clone()),
                };
                let at = path.replace("{j}", j);
                let request = if method == "GET" {
                    get(&at, &cookies)
                } else {
                    post(&at, &cookies, &format!("{form}&csrf={token}"))
                };
                let answer = send(&router, request).await;
                let row = format!("{method} {at} as {who:?}: {}", answer.status);
                match who {
                    Who::Nobody => assert_eq!(answer.location(), "/entrar", "{row}"),
                    _ if scoped && j == "atlantida" => {
                        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{row}")
                    }
                    _ if scoped && j == "amapa" => {
                        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{row}")
                    }
                    Who::Reader if writes => {
                        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{row}")
                    }
                    _ => {
                        assert!(
                            !matches!(
                                answer.status,
                                StatusCode::FORBIDDEN | StatusCode::INTERNAL_SERVER_ERROR
                            ) && answer.location() != "/entrar",
                            "{row}"
                        );
                        if writes && method == "POST" {
                            assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{row}");
                        }
                    }
                }
            }
        }
    }
}

/// A multipart form: its text fields and one file.
fn multipart(
    path: &str,
    cookies: &str,
    fields: &[(&str, &str)],
    file: (&str, &[u8]),
) -> Request<Body> {
    let boundary = "----outorga-teste";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"arquivo\"; filename=\"{}\"\r\n\
             Content-Type: text/csv\r\n\r\n",
            file.0
        )
        .as_bytes(),
    );
    body.extend_from_slice(file.1);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    Request::post(path)
        .header(header::COOKIE, cookies)
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(Body::from(body))
        .expect("request")
}

/// The import screen: a clerk simulates a Latin-1 `;` file (every row's
/// outcome, nothing written), imports it, then a permit that shows in the
/// list and its dossier with Canguçu's art. 28; a read-only user sees no
/// link and is refused.
async fn import_flow(url: &str) {
    let router = router(url).await;
    let clerk = format!("outorga_sessao={}", value(&signed_in(&router).await));
    let panel = send(&router, get("/painel", &clerk)).await;
    assert!(panel.body.contains("/j/cangucu/importar"), "{}", panel.body);
    let csrf = panel.csrf();
    let form = send(&router, get("/j/cangucu/importar", &clerk)).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("<label for=\"arquivo\">"));
    let holders: &[u8] =
        b"documento;nome;cnh_numero;cnh_categorias;cnh_validade\n526.018.159-06;Jo\xe3o Concei\xe7\xe3o;02650306461;AB;31/12/2031\n083.016.613-05;Beto;;;\n083.016.613-05;Outro;;;\n";
    let send_file =
        |action: &'static str, kind: &'static str, name: &'static str, bytes: &'static [u8]| {
            let router = router.clone();
            let (clerk, csrf) = (clerk.clone(), csrf.clone());
            async move {
                send(
                    &router,
                    multipart(
                        "/j/cangucu/importar",
                        &clerk,
                        &[("csrf", &csrf), ("tipo", kind), ("acao", action)],
                        (name, bytes),
                    ),
                )
                .await
            }
        };
    // The wrong kind: refused at once, next to the file field.
    let wrong = send_file("simular", "vehicles", "titulares.csv", holders).await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.body.contains("id=\"erro-arquivo\""), "{}", wrong.body);
    assert!(wrong.body.contains("faltam as colunas placa, renavam, ano"));
    let dry = send_file("simular", "holders", "titulares.csv", holders).await;
    assert_eq!(dry.status, StatusCode::OK, "{}", dry.body);
    assert!(dry.body.contains("nada foi gravado"), "{}", dry.body);
    assert!(dry.body.contains("2 seriam importada(s)"), "{}", dry.body);
    assert!(dry.body.contains("<progress"));
    let none = send(&router, get("/j/cangucu/pessoas/52601815906", &clerk)).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
    let done = send_file("importar", "holders", "titulares.csv", holders).await;
    assert!(done.body.contains("2 importada(s)"), "{}", done.body);
    let person = send(&router, get("/j/cangucu/pessoas/52601815906", &clerk)).await;
    assert!(person.body.contains("João Conceição"));
    let permits: &[u8] =
        b"servico;numero;titular;outorgada_em\ntaxi;12;526.018.159-06;05/05/2010\n";
    let done = send_file("importar", "permits", "permissoes.csv", permits).await;
    assert!(done.body.contains("1 importada(s)"), "{}", done.body);
    assert!(done.body.contains("Art. 28"), "{}", done.body);
    let list = send(&router, get("/j/cangucu/permissoes", &clerk)).await;
    assert!(
        list.body.contains("/j/cangucu/permissoes/taxi/12"),
        "{}",
        list.body
    );
    let dossier = send(&router, get("/j/cangucu/permissoes/taxi/12", &clerk)).await;
    assert_eq!(dossier.status, StatusCode::OK);
    assert!(
        dossier.body.contains("registro importado"),
        "{}",
        dossier.body
    );
    let reader = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "consulta").await)
    );
    let panel = send(&router, get("/painel", &reader)).await;
    assert!(!panel.body.contains("/importar"));
    let refused = send(&router, get("/j/cangucu/importar", &reader)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn import_flow_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    import_flow(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn import_flow_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uii_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    import_flow(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

#[tokio::test]
async fn role_table_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    role_table(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn role_table_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uir_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    role_table(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

#[tokio::test]
async fn clerk_workflows_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    clerk_workflows(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn clerk_workflows_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uiw_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    clerk_workflows(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

#[tokio::test]
async fn screens_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    screens(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn screens_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("ui_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    screens(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// Runs one statement outside the store (the test's schema).
async fn sqlx_admin(url: &str, sql: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .expect("PostgreSQL reachable (OUTORGA_TEST_DATABASE_URL)");
    sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
        .execute(&pool)
        .await
        .expect("statement");
}
