//! The first screens through the router, on SQLite and PostgreSQL: the home
//! page (with the demo users), sign-in with its form token and the session
//! cookie's flags, the panel per jurisdiction of the user's scope, sign-out
//! with the form's CSRF token, and the vendored assets.

mod buses;
mod calls;
mod stands;

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
    router_on(url, false).await
}

/// The router on a store at `url`, with the demo's records when `demo`.
async fn router_on(url: &str, demo: bool) -> axum::Router {
    router_at(url, demo, Arc::new(Fixed)).await
}

/// The router on a store at `url`, reading the time from `clock`.
async fn router_at(url: &str, demo: bool, clock: Arc<dyn Clock>) -> axum::Router {
    router_limited(url, demo, clock, outorga_web::Limits::DEFAULT).await
}

/// The router on a store at `url`, with these limits.
async fn router_limited(
    url: &str,
    demo: bool,
    clock: Arc<dyn Clock>,
    limits: outorga_web::Limits,
) -> axum::Router {
    let options = outorga_ui::Options {
        demo: true,
        ..outorga_ui::Options::default()
    };
    router_options(url, demo, clock, limits, options).await
}

/// The router on a store at `url`, with these limits and options.
async fn router_options(
    url: &str,
    demo: bool,
    clock: Arc<dyn Clock>,
    limits: outorga_web::Limits,
    options: outorga_ui::Options,
) -> axum::Router {
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
    if demo {
        let rulebooks: Vec<_> = library.rulebooks().collect();
        let now = Fixed.now();
        store
            .load_demo(&rulebooks, now.date(), now)
            .await
            .expect("demo");
    }
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
    for (name, role) in [
        ("fiscal", Role::Inspector),
        ("junta", Role::Board),
        ("administrador", Role::Admin),
    ] {
        store
            .create_user(
                &setup(),
                name,
                role,
                PASSWORD,
                &Scope::Only(vec!["cangucu".into()]),
            )
            .await
            .expect("user");
    }
    store
        .create_user(&setup(), "admin-geral", Role::Admin, PASSWORD, &Scope::All)
        .await
        .expect("user");
    let taxi = library
        .rulebooks()
        .find(|r| r.jurisdiction.id == "cangucu")
        .expect("Canguçu's rulebook");
    let estimate = outorga_store::ParameterAct {
        from: taxi.first_version().version.valid_from,
        act: "IBGE, estimativa 2025".into(),
    };
    store
        .set_parameter(
            &setup(),
            taxi,
            "cangucu",
            ("population", 49_607u32.into()),
            &estimate,
        )
        .await
        .expect("population");
    let state = AppState::new(store, library)
        .with_clock(clock)
        .with_limits(limits);
    outorga_web::router_with(state, outorga_ui::routes(options))
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

/// An auto from the inspector's phone to the board's decision: the
/// catalog searched by words, the proposal with its articles shown before
/// saving (nothing written), the auto issued; the clerk notifies it and
/// records the defense; the board's queue lists it; a decision the law does
/// not allow is refused with its articles next to the form; the decision
/// the law allows is recorded and shown.
async fn auto_workflows(url: &str) {
    let router = router(url).await;
    let clerk = format!("outorga_sessao={}", value(&signed_in(&router).await));
    let inspector = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "fiscal").await)
    );
    let board = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "junta").await)
    );
    let token = send(&router, get("/j/cangucu/pessoas", &clerk))
        .await
        .csrf();
    let registered = send(
        &router,
        post(
            "/j/cangucu/pessoas",
            &clerk,
            &format!("documento=52998224725&nome=Jo%C3%A3o+Taxista&csrf={token}"),
        ),
    )
    .await;
    assert!(registered.status.is_success() || registered.status.is_redirection());

    // The catalog, by words without accents, and by code.
    let found = send(
        &router,
        get(
            "/j/cangucu/autos/infracoes?servico=taxi&busca=tarifa+superior",
            &inspector,
        ),
    )
    .await;
    assert!(found.body.contains("A18-X"), "{}", found.body);
    assert!(!found.body.contains("A18-XIV"), "every word must match");
    let by_code = send(
        &router,
        get(
            "/j/cangucu/autos/infracoes?servico=taxi&busca=A18-X",
            &inspector,
        ),
    )
    .await;
    assert!(by_code.body.contains("A18-XIV") && by_code.body.contains("A18-X\""));

    let form = send(&router, get("/j/cangucu/autos/novo", &inspector)).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(
        form.body.contains("2026-11-30T12:00"),
        "now in Canguçu's time"
    );
    let token = form.csrf();
    let fields = |acao: &str| {
        format!(
            "servico=taxi&numero=&autuado=529.982.247-25&placa=&cometida_em=2026-11-30T09%3A00\
             &local=Pra%C3%A7a+central&descricao=Cobrou+acima+do+tax%C3%ADmetro&infracao=A18-X\
             &acao={acao}&csrf={token}"
        )
    };
    let preview = send(
        &router,
        post("/j/cangucu/autos", &inspector, &fields("previa")),
    )
    .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert!(preview.body.contains("R$ 400,00"), "{}", preview.body);
    assert!(preview.body.contains("Anexo I, Art. 12, III"));
    assert!(preview.body.contains("value=\"lavrar\""));
    let none = send(&router, get("/j/cangucu/autos", &inspector)).await;
    assert!(
        none.body.contains("Nenhum auto"),
        "a preview writes nothing"
    );
    let missing = send(
        &router,
        post(
            "/j/cangucu/autos",
            &inspector,
            &fields("previa").replace("infracao=A18-X", "infracao="),
        ),
    )
    .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(missing.body.contains("Escolha a infração"));
    let issued = send(
        &router,
        post("/j/cangucu/autos", &inspector, &fields("lavrar")),
    )
    .await;
    assert_eq!(issued.location(), "/j/cangucu/autos/2026/1?lavrado=1");

    let page = send(&router, get("/j/cangucu/autos/2026/1", &clerk)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("lavrado, aguardando notificação"));
    // The version of the law that judged it, and the words it cites.
    assert!(
        page.body.contains(
            "Lei aplicada: Mensagem 015/2024 — texto original, em vigor desde 05/03/2024"
        ),
        "{}",
        page.body
    );
    assert!(page.body.contains("<dt>Anexo I, Art. 12, III</dt>"));
    assert!(
        page.body
            .contains("III - grupo 3 - GRAVE – R$ 400,00; ou</blockquote>"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Registrar notificação do auto"));
    assert!(!page.body.contains("Registrar julgamento"));
    let token = page.csrf();
    let step = |who: &str, form: String| post("/j/cangucu/autos/2026/1/passos", who, &form);
    let notified = send(
        &router,
        step(&clerk, format!("passo=notificar&csrf={token}")),
    )
    .await;
    assert_eq!(notified.location(), "/j/cangucu/autos/2026/1?passo=notify");
    let early = send(
        &router,
        step(
            &clerk,
            format!("passo=defender&data=2026-11-01&texto=x&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(early.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        early.body.contains("id=\"erro-defender\""),
        "{}",
        early.body
    );
    let defended = send(
        &router,
        step(
            &clerk,
            format!("passo=defender&texto=N%C3%A3o+cobrei&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(defended.location(), "/j/cangucu/autos/2026/1?passo=defend");
    // The clerk may not judge: the form is not offered, and refused.
    let page = send(&router, get("/j/cangucu/autos/2026/1", &clerk)).await;
    assert!(page.body.contains("registrado por a junta/comissão"));
    let judged_by_clerk = send(
        &router,
        step(
            &clerk,
            format!("passo=julgar&mantido=sim&fundamentos=x&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(judged_by_clerk.status, StatusCode::FORBIDDEN);

    let queue = send(&router, get("/j/cangucu/junta", &board)).await;
    assert!(
        queue.body.contains("/j/cangucu/autos/2026/1#passos"),
        "{}",
        queue.body
    );
    let page = send(&router, get("/j/cangucu/autos/2026/1", &board)).await;
    // What the law lets the authority choose: the fine alone, or with the
    // suspension of 5 to 30 days (Canguçu art. 19, III).
    assert!(page.body.contains("value=\"multa\""), "{}", page.body);
    assert!(page.body.contains("value=\"multa,suspensao_permissao\""));
    assert!(page.body.contains("de 5 a 30"));
    let token = page.csrf();
    let too_short = send(
        &router,
        step(
            &board,
            format!(
                "passo=julgar&mantido=sim&dias=3&penalidades=multa%2Csuspensao_permissao\
                 &fundamentos=Comprovado&csrf={token}"
            ),
        ),
    )
    .await;
    assert_eq!(too_short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        too_short.body.contains("entre 5 e 30 dias"),
        "{}",
        too_short.body
    );
    assert!(too_short.body.contains("Art. 19, III"));
    let judged = send(
        &router,
        step(
            &board,
            format!(
                "passo=julgar&mantido=sim&dias=10&penalidades=multa%2Csuspensao_permissao\
                 &fundamentos=Comprovado&csrf={token}"
            ),
        ),
    )
    .await;
    assert_eq!(judged.location(), "/j/cangucu/autos/2026/1?passo=judge");
    let page = send(&router, get("/j/cangucu/autos/2026/1?passo=judge", &board)).await;
    assert!(page.body.contains("Registrado: julgamento."));
    assert!(
        page.body.contains("auto mantido; 10 dias fixados"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("julgado, aguardando a notificação da decisão")
    );
    let timeline = page.body.matches("30/11/2026 — ").count();
    assert_eq!(timeline, 4, "issued, notified, defended, judged");
}

#[tokio::test]
async fn auto_workflows_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    auto_workflows(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn auto_workflows_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uia_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    auto_workflows(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// Debts on the demo's records: the list, a debt's page with what paying
/// it costs today and the article, the payment recorded (then settled,
/// with its row), a read-only user refused; a split asked with a bad number
/// refused next to its field, and with a number the law rules on either
/// done or refused with the article.
async fn debt_workflows(url: &str) {
    let router = router_on(url, true).await;
    let clerk = format!("outorga_sessao={}", value(&signed_in(&router).await));
    let reader = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "consulta").await)
    );
    let list = send(&router, get("/j/cangucu/debitos", &clerk)).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.body);
    let paths: Vec<String> = list
        .body
        .match_indices("href=\"/j/cangucu/debitos/2")
        .map(|(at, _)| {
            let rest = &list.body[at + 6..];
            rest[..rest.find('"').expect("end")].to_string()
        })
        .collect();
    assert!(
        paths.len() >= 2,
        "the demo leaves a debt per service: {}",
        list.body
    );
    let debt = send(&router, get(&paths[0], &clerk)).await;
    assert_eq!(debt.status, StatusCode::OK);
    assert!(
        debt.body.contains("Quanto pagar hoje (30/11/2026)"),
        "{}",
        debt.body
    );
    assert!(debt.body.contains("R$ 400,00") && debt.body.contains("Anexo I, Art. 13"));
    assert!(debt.body.contains("Registrar pagamento"));
    let as_reader = send(&router, get(&paths[0], &reader)).await;
    assert!(
        !as_reader.body.contains("Registrar pagamento"),
        "no write offered"
    );
    let token = send(&router, get("/painel", &reader)).await.csrf();
    let refused = send(
        &router,
        post(
            &format!("{}/pagamento", paths[0]),
            &reader,
            &format!("csrf={token}"),
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let token = debt.csrf();
    let paid = send(
        &router,
        post(
            &format!("{}/pagamento", paths[0]),
            &clerk,
            &format!("data=&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(paid.location(), format!("{}?feito=pagamento", paths[0]));
    let settled = send(&router, get(paid.location(), &clerk)).await;
    assert!(settled.body.contains("Pagamento registrado."));
    assert!(settled.body.contains("<strong>quitado</strong>"));
    assert!(
        settled
            .body
            .contains("<td>30/11/2026</td><td>R$ 400,00</td>"),
        "{}",
        settled.body
    );
    assert!(!settled.body.contains("Registrar pagamento"));
    let again = send(
        &router,
        post(
            &format!("{}/pagamento", paths[0]),
            &clerk,
            &format!("csrf={token}"),
        ),
    )
    .await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a settled debt is not paid twice"
    );

    let bad = send(
        &router,
        post(
            &format!("{}/parcelamento", paths[1]),
            &clerk,
            &format!("parcelas=duas&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains("id=\"erro-parcelamento\""));
    let split = send(
        &router,
        post(
            &format!("{}/parcelamento", paths[1]),
            &clerk,
            &format!("parcelas=2&csrf={token}"),
        ),
    )
    .await;
    match split.status {
        StatusCode::SEE_OTHER => {
            let page = send(&router, get(split.location(), &clerk)).await;
            assert!(page.body.contains("2 parcelas"), "{}", page.body);
        }
        StatusCode::UNPROCESSABLE_ENTITY => {
            assert!(
                split.body.contains("Art."),
                "refused with the article: {}",
                split.body
            )
        }
        other => panic!("a split answers {other}: {}", split.body),
    }
}

#[tokio::test]
async fn debt_workflows_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    debt_workflows(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn debt_workflows_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uid_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    debt_workflows(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// The path a page's `attribute="…"` starting with `prefix` names, its
/// first occurrence.
fn linked(body: &str, attribute: &str, prefix: &str) -> String {
    let at = body
        .find(&format!("{attribute}=\"{prefix}"))
        .unwrap_or_else(|| panic!("a {attribute} to {prefix}: {body}"))
        + attribute.len()
        + 2;
    body[at..].split('"').next().unwrap_or_default().to_string()
}

/// Money on the demo's records (issue 13). Santa Maria de Jetibá's VRTM:
/// an administrator records a value through the form (a record on the day
/// of another refused next to "desde", a correction with no value the day
/// before next to its percentage), then corrects it by an index (the
/// corrected record struck and no longer offered); a clerk reads the
/// units without a form and is refused a POST. Amapá's CTM is worked out
/// from the lines, with no form. The agreement and PIX key: refusals next
/// to their fields, then recorded. A debt's slip: the linha digitável, the
/// PIX "copia e cola" and the pictures served as SVG images; another day
/// asked for, and a day that is not one refused next to its field.
async fn money_workflows(url: &str) {
    let router = router_on(url, true).await;
    let admin = session_of(&router, "admin-geral").await;
    let smj = "/j/santa-maria-de-jetiba/unidades";
    let units = send(&router, get(smj, &admin)).await;
    assert_eq!(units.status, StatusCode::OK, "{}", units.body);
    assert!(
        units
            .body
            .contains("VRTM — Valor de Referência do Tesouro Municipal"),
        "{}",
        units.body
    );
    assert!(
        units.body.contains("<strong>R$ 4,7125</strong>"),
        "the demo's value"
    );
    assert!(
        units
            .body
            .contains("action=\"/j/santa-maria-de-jetiba/unidades#f-VRTM\"")
    );
    let token = units.csrf();
    let record = |form: &str| post(smj, &admin, &format!("unidade=VRTM&{form}&csrf={token}"));
    let same_day = send(
        &router,
        record("desde=2026-01-01&modo=valor&valor=5&ato=Decreto+n%C2%BA+7%2F2026"),
    )
    .await;
    assert_eq!(same_day.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        same_day.body.contains(
            "id=\"erro-desde-VRTM\" class=\"erro-campo\" role=\"alert\">já há um valor de VRTM desde 01/01/2026"
        ),
        "{}",
        same_day.body
    );
    assert!(
        same_day.body.contains("value=\"Decreto nº 7/2026\""),
        "the form kept"
    );
    let no_base = send(
        &router,
        record("desde=2026-01-01&modo=correcao&indice=IPCA-E+2025&percentual=4%2C5&ato=Decreto&corrige=1"),
    )
    .await;
    assert_eq!(no_base.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        no_base
            .body
            .contains("id=\"erro-percentual-VRTM\" class=\"erro-campo\" role=\"alert\">não há valor de VRTM em vigor antes de 01/01/2026"),
        "{}",
        no_base.body
    );
    assert!(
        no_base
            .body
            .contains("name=\"modo\" value=\"correcao\" checked"),
        "the way chosen kept"
    );
    let done = send(
        &router,
        record("desde=2026-12-01&modo=valor&valor=4%2C9876&ato=Decreto+n%C2%BA+99%2F2026"),
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    assert_eq!(
        done.location(),
        "/j/santa-maria-de-jetiba/unidades?feito=VRTM#u-VRTM"
    );
    let shown = send(
        &router,
        get("/j/santa-maria-de-jetiba/unidades?feito=VRTM", &admin),
    )
    .await;
    assert!(shown.body.contains("Valor de VRTM registrado"));
    assert!(
        shown.body.contains("<strong>R$ 4,9876</strong>")
            && shown.body.contains("Decreto nº 99/2026"),
        "{}",
        shown.body
    );
    // Corrected by an index: 10 % over the day before's R$ 4,7125.
    let corrected = send(
        &router,
        record("desde=2026-12-01&modo=correcao&indice=IPCA-E+2025&percentual=10&ato=Decreto+n%C2%BA+100%2F2026&corrige=2"),
    )
    .await;
    assert_eq!(
        corrected.status,
        StatusCode::SEE_OTHER,
        "{}",
        corrected.body
    );
    let shown = send(&router, get(smj, &admin)).await;
    assert!(
        shown.body.contains("<s>R$ 4,9876</s>")
            && shown.body.contains("corrigido pelo nº 3: não vale mais"),
        "{}",
        shown.body
    );
    assert!(
        shown.body.contains("<strong>R$ 5,1838</strong>")
            && shown.body.contains("IPCA-E 2025, 10%")
            && shown.body.contains("<td>nº 2</td>")
    );
    assert!(
        shown.body.contains("<option value=\"3\"") && !shown.body.contains("<option value=\"2\""),
        "a corrected record is not offered again"
    );

    // A clerk of the jurisdiction reads them, without a form.
    let created = send(
        &router,
        post(
            "/admin/usuarios",
            &admin,
            &format!(
                "nome=atendente.smj&papel=clerk&alcance=algumas&jurisdicoes=santa-maria-de-jetiba\
                 &senha=uma+senha+bem+longa+42&csrf={token}"
            ),
        ),
    )
    .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let clerk = session_of(&router, "atendente.smj").await;
    let read = send(&router, get(smj, &clerk)).await;
    assert_eq!(read.status, StatusCode::OK);
    assert!(read.body.contains("<strong>R$ 5,1838</strong>"));
    assert!(!read.body.contains("Registrar valor") && !read.body.contains("name=\"unidade\""));
    let refused = send(
        &router,
        post(
            smj,
            &clerk,
            &format!(
                "unidade=VRTM&desde=2026-12-02&modo=valor&valor=6&ato=X&csrf={}",
                read.csrf()
            ),
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);

    // Amapá's CTM: from the lines, never recorded by hand.
    let ctm = send(&router, get("/j/amapa/unidades", &admin)).await;
    assert_eq!(ctm.status, StatusCode::OK);
    assert!(
        ctm.body.contains("Valor calculado das linhas (Art. 21)")
            && ctm.body.contains("não se registra à mão")
            && ctm.body.contains("Linhas na média"),
        "{}",
        ctm.body
    );
    assert!(!ctm.body.contains("name=\"unidade\""), "no form");

    // The agreement and PIX key.
    let settings_path = "/j/santa-maria-de-jetiba/pagamentos";
    let settings = send(&router, get(settings_path, &admin)).await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.body);
    assert!(
        settings
            .body
            .contains("value=\"pagamentos@santa-maria-de-jetiba.exemplo.gov.br\""),
        "the demo's key"
    );
    let save = |fields: &str| {
        post(
            settings_path,
            &admin,
            &format!(
                "segmento=1&convenio=1021&identificador_valor=6&cidade=Santa+Maria&{fields}&csrf={token}"
            ),
        )
    };
    let blank = send(
        &router,
        save("chave_pix=pagamentos%40smj.exemplo.gov.br&beneficiario="),
    )
    .await;
    assert_eq!(blank.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        blank
            .body
            .contains("id=\"erro-beneficiario\" class=\"erro-campo\" role=\"alert\""),
        "{}",
        blank.body
    );
    let bad_key = send(
        &router,
        save("chave_pix=nada&beneficiario=Prefeitura+de+SMJ"),
    )
    .await;
    assert_eq!(bad_key.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad_key
            .body
            .contains("id=\"erro-chave_pix\" class=\"erro-campo\" role=\"alert\">a chave Pix"),
        "{}",
        bad_key.body
    );
    let saved = send(
        &router,
        save("chave_pix=pagamentos%40smj.exemplo.gov.br&beneficiario=Prefeitura+de+SMJ"),
    )
    .await;
    assert_eq!(saved.location(), format!("{settings_path}?feito=1"));
    let settings = send(&router, get(saved.location(), &admin)).await;
    assert!(settings.body.contains("Convênio e PIX registrados"));
    assert!(settings.body.contains("value=\"Prefeitura de SMJ\""));
    let as_clerk = send(&router, get(settings_path, &clerk)).await;
    assert_eq!(as_clerk.status, StatusCode::FORBIDDEN);

    // A debt's slip, its pictures, another day and a day refused.
    let list = send(&router, get("/j/santa-maria-de-jetiba/debitos", &clerk)).await;
    assert!(
        list.body.contains("<td>auto de infração</td>"),
        "{}",
        list.body
    );
    let path = linked(&list.body, "href", "/j/santa-maria-de-jetiba/debitos/2");
    let debt = send(&router, get(&path, &clerk)).await;
    assert_eq!(debt.status, StatusCode::OK, "{}", debt.body);
    assert!(debt.body.contains("Guia de recolhimento"));
    let at = debt
        .body
        .find("<dd class=\"linha-digitavel\"><code>")
        .expect("the line")
        + 34;
    let line: String = debt.body[at..].chars().take(55).collect();
    assert!(
        line.starts_with("81") && line.matches('-').count() == 4 && line.matches(' ').count() == 3,
        "a linha digitável of arrecadação: {line}"
    );
    assert!(debt.body.contains("<textarea id=\"pix-copia\" readonly"));
    assert!(debt.body.contains("0014br.gov.bcb.pix"), "the PIX code");
    for picture in ["codigo.svg", "pix.svg"] {
        let src = linked(&debt.body, "src", &format!("{path}/guia/{picture}"));
        assert!(src.ends_with("?data=2026-11-30"), "{src}");
        assert!(
            debt.body.contains(&format!("<img src=\"{src}\"")),
            "an image"
        );
        let svg = send(&router, get(&src, &clerk)).await;
        assert_eq!(svg.status, StatusCode::OK, "{}", svg.body);
        assert_eq!(svg.headers[header::CONTENT_TYPE], "image/svg+xml");
        assert!(svg.body.contains("<svg"), "{}", svg.body);
    }
    let later = send(&router, get(&format!("{path}?data=2026-12-15"), &clerk)).await;
    assert_eq!(later.status, StatusCode::OK);
    assert!(
        later
            .body
            .contains("<dt>Vencimento</dt><dd>15/12/2026</dd>"),
        "{}",
        later.body
    );
    assert!(later.body.contains("guia/codigo.svg?data=2026-12-15"));
    let not_a_day = send(&router, get(&format!("{path}?data=31%2F02%2F2026"), &clerk)).await;
    assert_eq!(not_a_day.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        not_a_day
            .body
            .contains("id=\"erro-data-guia\" class=\"erro-campo\" role=\"alert\""),
        "{}",
        not_a_day.body
    );
    let before = send(&router, get(&format!("{path}?data=2025-12-31"), &clerk)).await;
    assert!(
        before.body.contains("aviso-erro")
            && before.body.contains("/j/santa-maria-de-jetiba/unidades"),
        "no slip for a day the unit has no value: {}",
        before.body
    );
}

#[tokio::test]
async fn money_workflows_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    money_workflows(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn money_workflows_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uim_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    money_workflows(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// Reais as a page writes them (`R$ 1.234,56`) in centavos.
fn cents_of(shown: &str) -> u64 {
    shown
        .trim_start_matches("R$ ")
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("centavos")
}

/// The text of a page between `before` and the next `after`.
fn between<'a>(body: &'a str, before: &str, after: &str) -> &'a str {
    let at = body
        .find(before)
        .unwrap_or_else(|| panic!("{before} in {body}"))
        + before.len();
    let rest = &body[at..];
    &rest[..rest.find(after).expect("its end")]
}

/// The ledger's work on the demo's records (issue 13). Canguçu's law has
/// no fees: no form. In Teófilo Otoni a clerk charges a transfer fee by
/// hand (a bad document refused next to the debtor, a bad number next to
/// the months) at the reduction for 30 months worked (art. 103, § 2º, b:
/// 230 UPFTO), lands on its debt, pays it, asks a refund (no ground and a
/// value above what was paid refused next to their fields), due 30 days
/// from the request (art. 96, § 3º), and records it paid (a day before
/// the request refused); imports a bank's return file made from a CGO's
/// slip (paid, then credited, a slip of another agreement unmatched) and
/// is refused the same file again; downloads the reports. A fine split
/// into parcels shows them, and the balance fallen due at once (art. 98,
/// § 3º) until paid.
async fn ledger_workflows(url: &str) {
    let router = router_on(url, true).await;
    let admin = session_of(&router, "admin-geral").await;
    let token = send(&router, get("/painel", &admin)).await.csrf();
    let created = send(
        &router,
        post(
            "/admin/usuarios",
            &admin,
            &format!(
                "nome=atendente.to&papel=clerk&alcance=algumas&jurisdicoes=teofilo-otoni\
                 &senha=uma+senha+bem+longa+42&csrf={token}"
            ),
        ),
    )
    .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let clerk = session_of(&router, "atendente.to").await;
    let csrf = send(&router, get("/painel", &clerk)).await.csrf();

    // Canguçu's law charges one fee, the stand swap's (art. 15, § 3º, II),
    // which the swap authorized charges: the form names it with its event.
    let cangucu = session_of(&router, "atendente").await;
    let list = send(&router, get("/j/cangucu/debitos", &cangucu)).await;
    assert!(list.body.contains("/taxas/nova") && list.body.contains("/j/cangucu/retornos"));
    let swap = send(&router, get("/j/cangucu/taxas/nova", &cangucu)).await;
    assert_eq!(swap.status, StatusCode::OK);
    assert!(
        swap.body.contains("Permuta de ponto fixo")
            && swap.body.contains("Art. 15, § 3º, II")
            && swap.body.contains("na permuta de pontos fixos autorizada"),
        "{}",
        swap.body
    );
    // Amapá's law charges none: no form.
    let none = send(&router, get("/j/amapa/taxas/nova", &admin)).await;
    assert_eq!(none.status, StatusCode::OK);
    assert!(
        none.body.contains("não cobram taxas") && !none.body.contains("name=\"taxa\""),
        "{}",
        none.body
    );

    // The fee form, linked from the debts.
    let to = "/j/teofilo-otoni";
    let list = send(&router, get(&format!("{to}/debitos"), &clerk)).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.body);
    for link in ["taxas/nova", "retornos"] {
        assert!(
            list.body.contains(&format!("href=\"{to}/{link}\"")),
            "{link}"
        );
    }
    assert!(
        list.body
            .contains("action=\"/j/teofilo-otoni/relatorios/receita.csv\"")
            && list
                .body
                .contains("name=\"de\" type=\"date\" value=\"2026-01-01\"")
            && list
                .body
                .contains("name=\"data\" type=\"date\" value=\"2026-11-30\""),
        "{}",
        list.body
    );
    let debtor = linked(&list.body, "href", &format!("{to}/pessoas/"));
    let debtor = debtor.rsplit('/').next().expect("document").to_string();
    let form = send(&router, get(&format!("{to}/taxas/nova"), &clerk)).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(
        form.body.contains(
            "<option value=\"transfer\">Cessão / transferência de permissão: 460 UPFTO (Art. 103, V)</option>"
        ),
        "{}",
        form.body
    );
    assert!(
        form.body
            .contains("de 24 a 36 meses, 230 UPFTO (Art. 103, § 2º, b)"),
        "the reductions in the months' help: {}",
        form.body
    );
    assert!(
        form.body
            .contains("cobrada pelo sistema na outorga da permissão")
    );
    let other = send(
        &router,
        get(&format!("{to}/taxas/nova?servico=motofrete"), &clerk),
    )
    .await;
    assert!(other.body.contains("<option value=\"motofrete\" selected>"));
    let charge = |fields: String| {
        post(
            &format!("{to}/taxas"),
            &clerk,
            &format!("{fields}&csrf={csrf}"),
        )
    };
    let bad = send(
        &router,
        charge("servico=mototaxi&taxa=transfer&devedor=123.456.789-00&meses_trabalhados=30".into()),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad.body.contains(
            "id=\"erro-devedor\" class=\"erro-campo\" role=\"alert\">`123.456.789-00`: CPF inválido"
        ),
        "{}",
        bad.body
    );
    assert!(
        bad.body.contains("<option value=\"transfer\" selected>")
            && bad.body.contains("value=\"30\""),
        "the form kept"
    );
    let months = send(
        &router,
        charge(format!(
            "servico=mototaxi&taxa=transfer&devedor={debtor}&meses_trabalhados=trinta"
        )),
    )
    .await;
    assert_eq!(months.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        months
            .body
            .contains("id=\"erro-meses\" class=\"erro-campo\" role=\"alert\">")
    );
    let charged = send(
        &router,
        charge(format!(
            "servico=mototaxi&taxa=transfer&devedor={debtor}&meses_trabalhados=30&data="
        )),
    )
    .await;
    assert_eq!(charged.status, StatusCode::SEE_OTHER, "{}", charged.body);
    let fee = charged
        .location()
        .strip_suffix("?feito=taxa")
        .expect("the debt's page")
        .to_string();
    assert!(
        fee.starts_with("/j/teofilo-otoni/debitos/2026/") && fee.ends_with("/0"),
        "{fee}"
    );
    let page = send(&router, get(charged.location(), &clerk)).await;
    assert!(page.body.contains("Taxa lançada"), "{}", page.body);
    assert!(
        page.body
            .contains("<dt>Valor lançado</dt><dd>230 UPFTO</dd>")
            && page
                .body
                .contains("Cessão / transferência de permissão (Art. 103, § 2º, b)"),
        "{}",
        page.body
    );

    // Paid, then a refund asked and paid back.
    let paid = send(
        &router,
        post(
            &format!("{fee}/pagamento"),
            &clerk,
            &format!("data=&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.body);
    let page = send(&router, get(&fee, &clerk)).await;
    let received = between(&page.body, "Pago por este débito: <strong>", "<").to_string();
    assert!(received.starts_with("R$ "), "{received}");
    assert!(
        page.body.contains("Pedir restituição")
            && page.body.contains("value=\"provimento\"")
            && page
                .body
                .contains("defesa ou recurso provido depois do pagamento"),
        "{}",
        page.body
    );
    let refund = |fields: &str| {
        post(
            &format!("{fee}/restituicao"),
            &clerk,
            &format!("{fields}&csrf={csrf}"),
        )
    };
    let no_ground = send(&router, refund("motivo=&valor=")).await;
    assert_eq!(no_ground.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        no_ground
            .body
            .contains("id=\"erro-motivo\" class=\"erro-campo\" role=\"alert\">Escolha o motivo"),
        "{}",
        no_ground.body
    );
    let too_much = send(&router, refund("motivo=duplicidade&valor=99999")).await;
    assert_eq!(too_much.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        too_much.body.contains(
            "id=\"erro-valor-restituicao\" class=\"erro-campo\" role=\"alert\">a restituição vai de R$ 0,01 até o que foi pago"
        ),
        "{}",
        too_much.body
    );
    let asked = send(&router, refund("motivo=duplicidade&valor=&data=")).await;
    assert_eq!(asked.location(), format!("{fee}?feito=restituicao"));
    let page = send(&router, get(asked.location(), &clerk)).await;
    assert!(page.body.contains("Pedido de restituição registrado."));
    assert!(
        page.body.contains("<dt>Pedida em</dt><dd>30/11/2026</dd>")
            && page.body.contains("<dt>Motivo</dt><dd>pagamento em duplicidade</dd>")
            && page.body.contains(&format!("<dt>Valor</dt><dd>{received}</dd>"))
            && page.body.contains(
                "<dt>Restituir até</dt><dd>30/12/2026 (prazo de 30 dias do pedido, art. 96, § 3º)</dd>"
            ),
        "{}",
        page.body
    );
    assert!(page.body.contains("Registrar restituição paga"));
    let back = |fields: &str| {
        post(
            &format!("{fee}/restituicao/paga"),
            &clerk,
            &format!("{fields}&csrf={csrf}"),
        )
    };
    let early = send(&router, back("data=2026-11-29")).await;
    assert_eq!(early.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        early
            .body
            .contains("id=\"erro-restituida\" class=\"erro-campo\" role=\"alert\">"),
        "{}",
        early.body
    );
    let done = send(&router, back("data=")).await;
    assert_eq!(done.location(), format!("{fee}?feito=restituida"));
    let page = send(&router, get(&fee, &clerk)).await;
    assert!(
        page.body
            .contains("<dt>Restituída em</dt><dd>30/11/2026</dd>")
    );
    assert!(!page.body.contains("Registrar restituição paga"));

    // A bank's return file made from a CGO's slip: paid, the same slip
    // again credited, a slip of another agreement unmatched.
    let cgo = linked(&list.body, "href", &format!("{to}/debitos/2025/"));
    let slip = send(&router, get(&cgo, &clerk)).await;
    let codigo = between(&slip.body, "alt=\"Código de barras da guia, ", "\"").to_string();
    let cents = cents_of(between(&slip.body, "<dt>Valor</dt><dd><strong>", "<"));
    let on = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("day");
    let foreign = outorga_guia::barcode(
        &outorga_guia::Convenio {
            segment: 1,
            company: "9999".into(),
            value_id: outorga_guia::ValueId::EffectiveMod10,
        },
        1000,
        Some(on),
        "20250000000100",
    )
    .expect("a slip of another agreement");
    let line = |codigo: &str, cents: u64, nsr: u32| outorga_guia::Paid {
        line: 0,
        account: "0001".into(),
        paid_on: on,
        credited_on: on,
        codigo_barras: codigo.to_string(),
        cents,
        tariff_cents: 0,
        nsr,
        agency: "00010001".into(),
        capture: '1',
        authentication: format!("AUT{nsr}"),
        payment_form: 1,
    };
    let header = outorga_guia::Header {
        convenio: codigo[15..19].to_string(),
        company: "PREFEITURA".into(),
        bank_code: 1,
        bank_name: "BANCO DO BRASIL".into(),
        file_date: on,
        nsa: 7,
        layout_version: 5,
    };
    let file = outorga_guia::write_return(
        &header,
        &[
            line(&codigo, cents, 1),
            line(&codigo, cents, 2),
            line(&foreign.codigo_barras, 1000, 3),
        ],
    )
    .expect("a return file");
    let form = send(&router, get(&format!("{to}/retornos"), &clerk)).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("type=\"file\""));
    let upload = || {
        multipart(
            &format!("{to}/retornos"),
            &clerk,
            &[("csrf", &csrf)],
            ("retorno.ret", file.as_bytes()),
        )
    };
    let report = send(&router, upload()).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    assert!(
        report.body.contains("Retorno nº 7 do banco 1 importado")
            && report
                .body
                .contains("1 guia(s) paga(s), 1 creditada(s) ao devedor, 1 linha(s) sem pagamento"),
        "{}",
        report.body
    );
    let paid_rows = between(&report.body, "id=\"pagas\"", "id=\"creditadas\"");
    assert!(
        paid_rows.contains(&format!("<td>2</td><td><a href=\"{cgo}\">")),
        "the paid line links its debt: {paid_rows}"
    );
    let credited = between(&report.body, "id=\"creditadas\"", "id=\"sem-pagamento\"");
    assert!(
        credited.contains(&format!("<td>3</td><td><a href=\"{cgo}\">")),
        "{credited}"
    );
    assert!(
        report
            .body
            .contains("o convênio da guia é 9999, não 1013: não é guia desta jurisdição"),
        "{}",
        report.body
    );
    let again = send(&router, upload()).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(
        again.body.contains(
            "id=\"erro-arquivo\" class=\"erro-campo\" role=\"alert\">o retorno nº 7 do banco 1 já foi importado"
        ),
        "{}",
        again.body
    );
    let settled = send(&router, get(&cgo, &clerk)).await;
    assert!(
        settled.body.contains("<strong>quitado</strong>")
            && settled.body.contains("guia paga no banco"),
        "{}",
        settled.body
    );

    // The reports.
    let revenue = send(
        &router,
        get(
            &format!("{to}/relatorios/receita.csv?de=2026-01-01&ate=2026-11-30"),
            &clerk,
        ),
    )
    .await;
    assert_eq!(revenue.status, StatusCode::OK, "{}", revenue.body);
    assert_eq!(
        revenue.headers[header::CONTENT_TYPE],
        "text/csv; charset=utf-8"
    );
    assert_eq!(
        revenue.headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"receita-teofilo-otoni-2026-01-01-2026-11-30.csv\""
    );
    assert!(
        revenue
            .body
            .starts_with("mes;origem;taxa;pagamentos;reais\n")
            && revenue.body.contains("2026-11;taxa;transfer;1;"),
        "{}",
        revenue.body
    );
    let overdue = send(
        &router,
        get(
            &format!("{to}/relatorios/debitos-vencidos.csv?data=2026-11-30"),
            &clerk,
        ),
    )
    .await;
    assert_eq!(overdue.status, StatusCode::OK);
    assert_eq!(
        overdue.headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"debitos-vencidos-teofilo-otoni-2026-11-30.csv\""
    );
    assert!(
        overdue.body.starts_with(
            "nosso_numero;devedor;referente;artigo;unidade;quantidade;reais_no_lancamento;vencimento;parcela\n"
        ),
        "{}",
        overdue.body
    );
    assert!(
        overdue.body.lines().count() > 1,
        "the demo's CGOs are overdue"
    );
    let by_default = send(
        &router,
        get(&format!("{to}/relatorios/receita.csv"), &clerk),
    )
    .await;
    assert_eq!(
        by_default.headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"receita-teofilo-otoni-2026-01-01-2026-11-30.csv\"",
        "the year so far"
    );
    let not_a_day = send(
        &router,
        get(
            &format!("{to}/relatorios/debitos-vencidos.csv?data=31%2F02%2F2026"),
            &clerk,
        ),
    )
    .await;
    assert_eq!(not_a_day.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        not_a_day.body.contains("não é uma data"),
        "{}",
        not_a_day.body
    );

    // A fine of 48 UPFTO made final on 1 June (imported as the department
    // had it), split into four parcels today: counted from its issue, the
    // first is more than 30 days late, so the balance is due at once.
    let keys = AuditKeys::new(AuditKey::from_hex(&"5e".repeat(32)).expect("test key"));
    let store = Store::open(url, keys).await.expect("open");
    let library =
        outorga_rulebook::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks"))
            .expect("rulebooks");
    let rulebooks: Vec<_> = library
        .rulebooks()
        .filter(|r| r.jurisdiction.id == "teofilo-otoni")
        .collect();
    let autos = outorga_store::read_import_file(
        "autos.csv",
        format!(
            "ano;numero;infracao;autuado;servico;cometida_em;local;descricao;situacao;definitivo_em\n\
             2026;900;72301;{debtor};mototaxi;04/05/2026 10:00;Praça Tiradentes;Fumava em serviço;definitivo;01/06/2026\n"
        )
        .as_bytes(),
    )
    .expect("table");
    let imported = store
        .import(
            &setup(),
            outorga_store::ImportRequest {
                jurisdiction: "teofilo-otoni",
                kind: outorga_store::ImportKind::Autos,
                file: "autos.csv",
                table: &autos,
                rulebooks: &rulebooks,
                dry_run: false,
            },
            &mut |_, _| {},
        )
        .await
        .expect("imported");
    assert_eq!(imported.imported(), 1, "{imported:?}");
    let fine = format!("{to}/debitos/2026/900/1");
    let split = send(
        &router,
        post(
            &format!("{fine}/parcelamento"),
            &clerk,
            &format!("parcelas=4&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(split.status, StatusCode::SEE_OTHER, "{}", split.body);
    let page = send(&router, get(&fine, &clerk)).await;
    let parcels = between(&page.body, "id=\"parcelas-titulo\"", "</table>");
    assert_eq!(parcels.matches("<tr><td>").count(), 4, "{parcels}");
    assert!(
        parcels
            .contains("<td>1</td><td>01/07/2026</td><td class=\"valor\">13,2 UPFTO</td><td>—</td>")
            && parcels.contains("<strong>vencida</strong>"),
        "{parcels}"
    );
    assert!(
        page.body
            .contains("<strong>O saldo do parcelamento venceu de uma vez em ")
            && page.body.contains("a parcela 1 ficou sem")
            && page.body.contains("(Art. 98, § 3º)"),
        "{}",
        page.body
    );
    let paid = send(
        &router,
        post(
            &format!("{fine}/pagamento"),
            &clerk,
            &format!("data=&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.body);
    let page = send(&router, get(&fine, &clerk)).await;
    assert!(page.body.contains("<strong>quitado</strong>"));
    assert!(
        page.body.contains("e foi pago assim.")
            && page.body.contains("<td>30/11/2026</td><td>paga</td>")
            && page
                .body
                .contains("<td>30/11/2026</td><td>paga com o saldo</td>"),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn ledger_workflows_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    ledger_workflows(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn ledger_workflows_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uil_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    ledger_workflows(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// The fleet and the crew on the demo's records: a vehicle registered (a
/// bad plate refused next to its field), its page, an inspection recorded
/// (approved: the next one due shown); on a permit's dossier the vehicle's
/// checklist before it is put in service, the law's answer next to the
/// vehicle form, a driver not registered refused next to the driver form,
/// a driver unlinked; a read-only user is offered none of it.
async fn fleet_workflows(url: &str) {
    let router = router_on(url, true).await;
    let clerk = format!("outorga_sessao={}", value(&signed_in(&router).await));
    let reader = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "consulta").await)
    );
    let form = send(&router, get("/j/cangucu/veiculos", &clerk)).await;
    assert!(form.body.contains("Cadastrar veículo"));
    let token = form.csrf();
    let vehicle = |plate: &str| {
        format!(
            "placa={plate}&renavam=12345678900&ano=2024&cor=branca&portas=4&lotacao=4\
             &equipamentos=taximetro&csrf={token}"
        )
    };
    let bad = send(
        &router,
        post("/j/cangucu/veiculos", &clerk, &vehicle("QW1")),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains("id=\"erro-veiculo\""), "{}", bad.body);
    let done = send(
        &router,
        post("/j/cangucu/veiculos", &clerk, &vehicle("QWE1A23")),
    )
    .await;
    assert_eq!(
        done.location(),
        "/j/cangucu/veiculos/QWE1A23?feito=cadastro"
    );
    let page = send(&router, get(done.location(), &clerk)).await;
    assert!(page.body.contains("Veículo cadastrado.") && page.body.contains("12345678900"));
    let register = send(&router, get("/j/cangucu/veiculos", &reader)).await;
    assert!(
        register.body.contains("/j/cangucu/veiculos/QWE1A23"),
        "the register lists it"
    );
    assert!(
        !register.body.contains("Cadastrar veículo"),
        "no form for a read-only user"
    );
    let inspected = send(
        &router,
        post(
            "/j/cangucu/veiculos/QWE1A23/vistorias",
            &clerk,
            &format!("servico=taxi&tipo=periodica&resultado=sim&constatacoes=&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(
        inspected.location(),
        "/j/cangucu/veiculos/QWE1A23?feito=vistoria"
    );
    let page = send(&router, get(inspected.location(), &clerk)).await;
    assert!(
        page.body.contains("<strong>aprovada</strong>"),
        "{}",
        page.body
    );
    let as_reader = send(&router, get("/j/cangucu/veiculos/QWE1A23", &reader)).await;
    assert!(!as_reader.body.contains("Registrar vistoria"));

    let dossier = send(
        &router,
        get("/j/cangucu/permissoes/taxi/1?placa=QWE1A23", &clerk),
    )
    .await;
    assert_eq!(dossier.status, StatusCode::OK);
    assert!(dossier.body.contains("id=\"checklist-veiculo\""));
    assert!(
        dossier.body.contains("Vistorias do veículo em serviço")
            && dossier.body.contains("periódica"),
        "the dossier lists the inspections of the vehicle in service"
    );
    assert!(dossier.body.contains("Incluir condutor"));
    let as_reader = send(&router, get("/j/cangucu/permissoes/taxi/1", &reader)).await;
    assert!(!as_reader.body.contains("Incluir condutor") && !as_reader.body.contains("Desligar"));
    let put = send(
        &router,
        post(
            "/j/cangucu/permissoes/taxi/1/veiculo",
            &clerk,
            &format!("placa=QWE1A23&csrf={token}"),
        ),
    )
    .await;
    // Canguçu's law sets no rule of its own for a substitute: it is judged
    // as any vehicle entering the service (art. 11), and this one lacks the
    // equipment the law asks — refused with the articles next to the form.
    assert_eq!(put.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", put.body);
    assert!(put.body.contains("id=\"erro-veiculo\""));
    assert!(
        put.body.contains("substituição negada") && put.body.contains("Art. 11, VII"),
        "{}",
        put.body
    );
    let again = send(
        &router,
        post(
            "/j/cangucu/permissoes/taxi/1/veiculo",
            &clerk,
            &format!("placa=&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        again.body.contains("id=\"erro-veiculo\""),
        "a plate is asked for next to the form"
    );
    let unknown = send(
        &router,
        post(
            "/j/cangucu/permissoes/taxi/1/condutores",
            &clerk,
            &format!("condutor=529.982.247-25&funcao=auxiliar&csrf={token}"),
        ),
    )
    .await;
    assert!(unknown.status.is_client_error(), "{}", unknown.status);
    assert!(
        unknown.body.contains("id=\"erro-condutor\""),
        "{}",
        unknown.body
    );
    let registration = dossier
        .body
        .split("/condutores/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("a driver to unlink")
        .to_string();
    let unlinked = send(
        &router,
        post(
            &format!("/j/cangucu/permissoes/taxi/1/condutores/{registration}/desligamento"),
            &clerk,
            &format!("csrf={token}"),
        ),
    )
    .await;
    assert_eq!(
        unlinked.location(),
        "/j/cangucu/permissoes/taxi/1?feito=desligamento"
    );
    let after = send(&router, get(unlinked.location(), &clerk)).await;
    assert!(after.body.contains("Condutor desligado."));
}

#[tokio::test]
async fn fleet_workflows_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    fleet_workflows(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn fleet_workflows_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uif_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    fleet_workflows(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// A person's profile on screen: the form, a bad date refused next to its
/// field with nothing saved, the CNH as printed (`AB`) saved, the person's
/// page saying so and its checklist reading it; a read-only user refused.
async fn profile_workflow(url: &str) {
    let router = router(url).await;
    let clerk = format!("outorga_sessao={}", value(&signed_in(&router).await));
    let reader = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "consulta").await)
    );
    let token = send(&router, get("/j/cangucu/pessoas", &clerk))
        .await
        .csrf();
    send(
        &router,
        post(
            "/j/cangucu/pessoas",
            &clerk,
            &format!("documento=52998224725&nome=Ana+Lima&csrf={token}"),
        ),
    )
    .await;
    let form = send(
        &router,
        get("/j/cangucu/pessoas/52998224725/perfil", &clerk),
    )
    .await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(form.body.contains("Perfil de Ana Lima"));
    let refused = send(
        &router,
        get("/j/cangucu/pessoas/52998224725/perfil", &reader),
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let fields = |birth: &str| {
        format!(
            "nascimento={birth}&residente_desde=2010-01-01&escolaridade=medio\
             &cnh_numero=&cnh_categorias=AB&cnh_atividade_remunerada=sim&cnh_validade=2030-05-01\
             &logradouro=Rua+A%2C+10&cidade=Canguçu&csrf={token}"
        )
    };
    let bad = send(
        &router,
        post(
            "/j/cangucu/pessoas/52998224725/perfil",
            &clerk,
            &fields("31-02-1980"),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains("não é uma data"), "{}", bad.body);
    assert!(bad.body.contains("aria-invalid=\"true\""));
    let person = send(&router, get("/j/cangucu/pessoas/52998224725", &clerk)).await;
    assert!(!person.body.contains("31-02-1980"), "nothing saved");
    let no_number = send(
        &router,
        post(
            "/j/cangucu/pessoas/52998224725/perfil",
            &clerk,
            &fields("1980-03-07"),
        ),
    )
    .await;
    assert_eq!(
        no_number.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a CNH needs its number"
    );
    let saved = send(
        &router,
        post(
            "/j/cangucu/pessoas/52998224725/perfil",
            &clerk,
            &fields("1980-03-07").replace("cnh_numero=", "cnh_numero=02650306461"),
        ),
    )
    .await;
    assert_eq!(
        saved.location(),
        "/j/cangucu/pessoas/52998224725?feito=perfil",
        "{}",
        saved.body
    );
    let person = send(&router, get(saved.location(), &clerk)).await;
    assert!(person.body.contains("Perfil salvo."));
    assert!(person.body.contains("07/03/1980"), "{}", person.body);
    let again = send(
        &router,
        get("/j/cangucu/pessoas/52998224725/perfil", &clerk),
    )
    .await;
    assert!(
        again.body.contains("value=\"AB\""),
        "the categories as printed"
    );
}

#[tokio::test]
async fn profile_workflow_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    profile_workflow(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn profile_workflow_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uip_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    profile_workflow(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// Who asks, in the role × scope table of the pages.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Who {
    Nobody,
    Clerk,
    Reader,
    Inspector,
    Board,
    Admin,
}

impl Who {
    fn role(self) -> Option<Role> {
        match self {
            Who::Nobody => None,
            Who::Clerk => Some(Role::Clerk),
            Who::Reader => Some(Role::ReadOnly),
            Who::Inspector => Some(Role::Inspector),
            Who::Board => Some(Role::Board),
            Who::Admin => Some(Role::Admin),
        }
    }
}

/// Who may use a route.
fn anyone(_: Role) -> bool {
    true
}

/// Every page route, for each caller and jurisdiction: without a session
/// the sign-in page; out of the scope 403; an unknown jurisdiction 404; a
/// write a role may not make 403 (its form not offered); otherwise the
/// route answers (a bad form is 422, a missing record 404) — never the
/// sign-in page nor a refusal.
async fn role_table(url: &str) {
    use outorga_web::auth::{Admin, Board, Clerk, Examiner, Inspector, Issuer};
    let router = router(url).await;
    let mut sessions = Vec::new();
    for (who, name) in [
        (Who::Clerk, "atendente"),
        (Who::Reader, "consulta"),
        (Who::Inspector, "fiscal"),
        (Who::Board, "junta"),
        (Who::Admin, "administrador"),
    ] {
        let cookies = format!(
            "outorga_sessao={}",
            value(&signed_in_as(&router, name).await)
        );
        let token = send(&router, get("/painel", &cookies)).await.csrf();
        sessions.push((who, cookies, token));
    }
    let clerk_or_board: fn(Role) -> bool = |r| Clerk::admits(r) || Board::admits(r);
    // (method, path, form, who may use it, the answer when they may and the
    // form is bad or the record missing: none, any answer but a refusal)
    type Row<'a> = (
        &'a str,
        &'a str,
        &'a str,
        fn(Role) -> bool,
        Option<StatusCode>,
    );
    let unprocessable = Some(StatusCode::UNPROCESSABLE_ENTITY);
    let not_found = Some(StatusCode::NOT_FOUND);
    let routes: [Row<'_>; 106] = [
        ("GET", "/j/{j}/chamamentos", "", anyone, None),
        (
            "POST",
            "/j/{j}/chamamentos",
            "vagas=x",
            Clerk::admits,
            unprocessable,
        ),
        ("GET", "/j/{j}/chamamentos/2026/99", "", anyone, not_found),
        (
            "POST",
            "/j/{j}/chamamentos/2026/99/triar",
            "",
            Clerk::admits,
            not_found,
        ),
        (
            "POST",
            "/j/{j}/chamamentos/2026/99/final",
            "",
            Board::admits,
            not_found,
        ),
        ("GET", "/j/{j}/pontos", "", anyone, None),
        (
            "POST",
            "/j/{j}/pontos/designar",
            "numero=x",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/pontos/perda",
            "numero=x",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/pontos/notificar",
            "numero=x",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/pontos/sorteios/2026/99/recorrer",
            "recorrente=x",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/pontos/sorteios/2026/99/recursos/1",
            "decisao=x",
            Board::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/pontos/permutas/2026/99",
            "decisao=x",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/pontos/sorteios",
            "data=x",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/pontos/sorteios/2026/99/fechar",
            "",
            Clerk::admits,
            unprocessable,
        ),
        // The administration (issue 12): users and tokens, parameters,
        // the audit log.
        ("GET", "/admin/usuarios", "", Admin::admits, None),
        (
            "POST",
            "/admin/usuarios",
            "nome=&papel=clerk&alcance=algumas&jurisdicoes=cangucu&senha=x",
            Admin::admits,
            unprocessable,
        ),
        ("GET", "/admin/usuarios/consulta", "", Admin::admits, None),
        (
            "GET",
            "/admin/usuarios/ninguem",
            "",
            Admin::admits,
            not_found,
        ),
        (
            "POST",
            "/admin/usuarios/consulta/senha",
            "senha=123&confirmacao=123",
            Admin::admits,
            unprocessable,
        ),
        (
            "POST",
            "/admin/usuarios/ninguem/remocao",
            "confirmo=sim",
            Admin::admits,
            not_found,
        ),
        (
            "POST",
            "/admin/usuarios/administrador/tokens",
            "rotulo=",
            Admin::admits,
            unprocessable,
        ),
        (
            "POST",
            "/admin/usuarios/consulta/tokens/revogacao",
            "rotulo=nenhum",
            Admin::admits,
            not_found,
        ),
        ("GET", "/j/{j}/parametros", "", anyone, None),
        (
            "POST",
            "/j/{j}/parametros",
            "nome=population&valor=abc",
            Admin::admits,
            unprocessable,
        ),
        (
            "GET",
            "/auditoria?assunto=user:atendente",
            "",
            Board::admits,
            None,
        ),
        (
            "GET",
            "/auditoria?de=31/02/2026",
            "",
            Board::admits,
            unprocessable,
        ),
        ("POST", "/auditoria/verificacao", "", Board::admits, None),
        // The import (issue 12, item 7) and its jobs' progress.
        ("GET", "/j/{j}/importar", "", Clerk::admits, None),
        (
            "GET",
            "/j/{j}/importar/0123abcd",
            "",
            Clerk::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/importar",
            "tipo=holders",
            Clerk::admits,
            unprocessable,
        ),
        ("GET", "/painel", "", anyone, None),
        ("GET", "/senha", "", anyone, None),
        ("GET", "/busca?q=ab", "", anyone, None),
        ("GET", "/busca/resultados?q=ab", "", anyone, None),
        ("GET", "/j/{j}/pessoas", "", anyone, None),
        (
            "POST",
            "/j/{j}/pessoas",
            "documento=123&nome=X",
            Clerk::admits,
            unprocessable,
        ),
        ("GET", "/j/{j}/pessoas/52998224725", "", anyone, None),
        (
            "GET",
            "/j/{j}/pessoas/52998224725/perfil",
            "",
            Clerk::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/pessoas/52998224725/perfil",
            "nascimento=",
            Clerk::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        ("GET", "/j/{j}/permissoes", "", anyone, None),
        (
            "POST",
            "/j/{j}/permissoes",
            "servico=taxi&titular=123",
            Clerk::admits,
            unprocessable,
        ),
        ("GET", "/j/{j}/permissoes/nova", "", Clerk::admits, None),
        (
            "GET",
            "/j/{j}/permissoes/previa?servico=taxi",
            "",
            anyone,
            None,
        ),
        ("GET", "/j/{j}/permissoes/taxi/1", "", anyone, None),
        (
            "POST",
            "/j/{j}/permissoes/taxi/1/condutores",
            "funcao=auxiliar",
            Clerk::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/permissoes/taxi/1/condutores/X1/desligamento",
            "",
            Clerk::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/permissoes/taxi/1/veiculo",
            "placa=",
            Clerk::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        ("GET", "/j/{j}/veiculos", "", anyone, None),
        (
            "POST",
            "/j/{j}/veiculos",
            "placa=X",
            Clerk::admits,
            unprocessable,
        ),
        (
            "GET",
            "/j/{j}/veiculos/ABC1234",
            "",
            anyone,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/veiculos/ABC1234/vistorias",
            "resultado=sim",
            Examiner::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        ("GET", "/j/{j}/autos", "", anyone, None),
        (
            "POST",
            "/j/{j}/autos",
            "servico=taxi&acao=previa",
            Inspector::admits,
            unprocessable,
        ),
        ("GET", "/j/{j}/autos/novo", "", Inspector::admits, None),
        (
            "GET",
            "/j/{j}/autos/infracoes?servico=taxi&busca=tarifa",
            "",
            anyone,
            None,
        ),
        (
            "GET",
            "/j/{j}/autos/2026/1",
            "",
            anyone,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/autos/2026/1/passos",
            "passo=notificar",
            clerk_or_board,
            Some(StatusCode::NOT_FOUND),
        ),
        // The custody of a vehicle held (issue 15).
        (
            "POST",
            "/j/{j}/autos/2026/1/custodia",
            "desde=2026-01-01T10:00&local=P&responsavel=F",
            Examiner::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/autos/2026/1/custodia/despesas",
            "tipo=food_lodging&descricao=J&valor=10",
            Examiner::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/autos/2026/1/custodia/despesas/1/pagamento",
            "comprovante=R",
            Examiner::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/autos/2026/1/custodia/saneamento",
            "quando=2026-01-01T10:00&correcao=ok",
            Examiner::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        ("GET", "/j/{j}/junta", "", anyone, None),
        ("GET", "/j/{j}/debitos", "", anyone, None),
        (
            "GET",
            "/j/{j}/debitos/2026/1/1",
            "",
            anyone,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/debitos/2026/1/1/pagamento",
            "",
            Clerk::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        (
            "POST",
            "/j/{j}/debitos/2026/1/1/parcelamento",
            "parcelas=2",
            Clerk::admits,
            Some(StatusCode::NOT_FOUND),
        ),
        // Passengers' complaints (issue 14): the queue and its handling.
        ("GET", "/j/{j}/denuncias", "", anyone, None),
        (
            "POST",
            "/j/{j}/denuncias/ABCDE-12345",
            "situacao=in_review",
            Examiner::admits,
            not_found,
        ),
        // The papers (issue 14): a document's PDF, an auto's papers, a
        // debt's slip.
        (
            "GET",
            "/j/{j}/documentos/ABCDE-12345/pdf",
            "",
            anyone,
            not_found,
        ),
        (
            "POST",
            "/j/{j}/autos/2026/1/papeis",
            "tipo=auto",
            Issuer::admits,
            not_found,
        ),
        (
            "POST",
            "/j/{j}/debitos/2026/1/1/guia/documento",
            "",
            Issuer::admits,
            not_found,
        ),
        // Money (issue 13): the slip's pictures, the fiscal units, the
        // agreement and PIX key.
        (
            "GET",
            "/j/{j}/debitos/2026/1/1/guia/codigo.svg",
            "",
            anyone,
            not_found,
        ),
        (
            "GET",
            "/j/{j}/debitos/2026/1/1/guia/pix.svg?data=2026-12-01",
            "",
            anyone,
            not_found,
        ),
        // The ledger: a debt's refund, fees charged by hand (none in
        // Canguçu's law: its form is not offered), a bank's return, the
        // reports.
        (
            "POST",
            "/j/{j}/debitos/2026/1/1/restituicao",
            "motivo=duplicidade",
            Clerk::admits,
            not_found,
        ),
        (
            "POST",
            "/j/{j}/debitos/2026/1/1/restituicao/paga",
            "",
            Clerk::admits,
            not_found,
        ),
        ("GET", "/j/{j}/taxas/nova", "", Clerk::admits, None),
        (
            "POST",
            "/j/{j}/taxas",
            "servico=taxi&taxa=transfer&devedor=52998224725",
            Clerk::admits,
            unprocessable,
        ),
        ("GET", "/j/{j}/retornos", "", Clerk::admits, None),
        ("POST", "/j/{j}/retornos", "", Clerk::admits, unprocessable),
        (
            "GET",
            "/j/{j}/relatorios/receita.csv?de=2026-01-01",
            "",
            anyone,
            Some(StatusCode::OK),
        ),
        (
            "GET",
            "/j/{j}/relatorios/debitos-vencidos.csv?data=31/02/2026",
            "",
            anyone,
            unprocessable,
        ),
        ("GET", "/j/{j}/unidades", "", anyone, None),
        (
            "POST",
            "/j/{j}/unidades",
            "unidade=VRTM&desde=&modo=valor&valor=5&ato=X",
            Admin::admits,
            unprocessable,
        ),
        ("GET", "/j/{j}/pagamentos", "", Admin::admits, None),
        (
            "POST",
            "/j/{j}/pagamentos",
            "segmento=1&convenio=12&identificador_valor=6&chave_pix=x&beneficiario=&cidade=",
            Admin::admits,
            unprocessable,
        ),
        // Intercity buses (issue 15): lines and their operation, a
        // carrier's own data (Canguçu regulates no buses: its carrier pages
        // say so).
        (
            "POST",
            "/j/{j}/permissoes/onibus/1/frota/ABC1D23/retirada",
            "data=2026-01-01",
            Clerk::admits,
            not_found,
        ),
        (
            "POST",
            "/j/{j}/pessoas/36002518000101/vinculos",
            "ato=Contrato",
            Clerk::admits,
            not_found,
        ),
        (
            "POST",
            "/j/{j}/pessoas/00000000191/parentes",
            "ato=Declara%C3%A7%C3%A3o",
            Clerk::admits,
            not_found,
        ),
        ("GET", "/j/{j}/linhas", "", anyone, None),
        ("GET", "/j/{j}/linhas/XX-1", "", anyone, not_found),
        (
            "POST",
            "/j/{j}/linhas/XX-1/operacoes",
            "quem=orgao&frequencia_minima=1",
            Clerk::admits,
            not_found,
        ),
        (
            "POST",
            "/j/{j}/linhas/XX-1/operacoes/1/decisao",
            "decisao=aprovar&data=2026-01-01&ato=X",
            Clerk::admits,
            not_found,
        ),
        (
            "GET",
            "/j/{j}/transportadoras/36002518000101",
            "",
            anyone,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/transportadoras/36002518000101/arquivos",
            "tipo=tickets_csv",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/transportadoras/36002518000101/fretamentos",
            "tipo=eventual",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/transportadoras/36002518000101/constatacoes",
            "mes=2026-01&chave=x",
            Inspector::admits,
            unprocessable,
        ),
        // The register of the carriers authorized (art. 28, § 4º) and a
        // charter's page with its files.
        (
            "POST",
            "/j/{j}/transportadoras/36002518000101/registro",
            "documento_cnpj_card=x",
            Clerk::admits,
            unprocessable,
        ),
        (
            "POST",
            "/j/{j}/transportadoras/36002518000101/registro/2026/1/cassacao",
            "motivo=x",
            Clerk::admits,
            None,
        ),
        (
            "GET",
            "/j/{j}/transportadoras/36002518000101/registro/2026/1/arquivos/1",
            "",
            anyone,
            None,
        ),
        ("GET", "/j/{j}/fretamentos/2026/1", "", anyone, None),
        (
            "GET",
            "/j/{j}/fretamentos/2026/1/arquivos/1",
            "",
            anyone,
            None,
        ),
        // The holder's space, the staff's side (issue 14): a first-access
        // code printed, the petitions and their files, an answer.
        (
            "POST",
            "/j/{j}/pessoas/52998224725/codigo-de-acesso",
            "",
            Clerk::admits,
            unprocessable,
        ),
        ("GET", "/j/{j}/requerimentos", "", anyone, None),
        (
            "POST",
            "/j/{j}/requerimentos/ABCDE-12345",
            "resposta=Deferido",
            Clerk::admits,
            unprocessable,
        ),
        (
            "GET",
            "/j/{j}/requerimentos/ABCDE-12345/anexos/1",
            "",
            anyone,
            not_found,
        ),
        (
            "POST",
            "/senha",
            "atual=x&nova=y&confirmacao=z",
            anyone,
            None,
        ),
    ];
    for (method, path, form, admits, expected) in routes {
        for who in [
            Who::Nobody,
            Who::Clerk,
            Who::Reader,
            Who::Inspector,
            Who::Board,
            Who::Admin,
        ] {
            for j in ["cangucu", "amapa", "atlantida"] {
                let scoped = path.contains("{j}");
                if !scoped && j != "cangucu" {
                    continue;
                }
                let (cookies, token) = sessions
                    .iter()
                    .find(|(w, _, _)| *w == who)
                    .map_or((String::new(), String::new()), |(_, c, t)| {
                        (c.clone(), t.clone())
                    });
                let at = path.replace("{j}", j);
                let request = if method == "GET" {
                    get(&at, &cookies)
                } else {
                    post(&at, &cookies, &format!("{form}&csrf={token}"))
                };
                let answer = send(&router, request).await;
                let row = format!("{method} {at} as {who:?}: {}", answer.status);
                match who.role() {
                    None => assert_eq!(answer.location(), "/entrar", "{row}"),
                    Some(_) if scoped && j == "atlantida" => {
                        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{row}")
                    }
                    Some(_) if scoped && j == "amapa" => {
                        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{row}")
                    }
                    Some(role) if !admits(role) => {
                        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{row}")
                    }
                    Some(_) => {
                        assert!(
                            !matches!(
                                answer.status,
                                StatusCode::FORBIDDEN | StatusCode::INTERNAL_SERVER_ERROR
                            ) && answer.location() != "/entrar",
                            "{row}"
                        );
                        if let Some(expected) = expected {
                            assert_eq!(answer.status, expected, "{row}");
                        }
                    }
                }
            }
        }
    }
    // Signing out ends the session: asked last (and without a session,
    // the sign-in page).
    let signed_out = send(&router, post("/sair", "", "csrf=x")).await;
    assert_eq!(signed_out.location(), "/entrar");
}

/// A multipart form: its text fields and one file.
fn multipart(
    path: &str,
    cookies: &str,
    fields: &[(&str, &str)],
    file: (&str, &[u8]),
) -> Request<Body> {
    multipart_files(path, cookies, fields, &[("arquivo", file.0, file.1)])
}

/// A multipart form: its text fields and its files, each under its field.
fn multipart_files(
    path: &str,
    cookies: &str,
    fields: &[(&str, &str)],
    files: &[(&str, &str, &[u8])],
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
    for (field, name, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
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
    // Importing is a job: the answer is its page, polled until finished.
    let job = |started: Page| {
        let (router, clerk) = (router.clone(), clerk.clone());
        async move {
            assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.body);
            let url = started.location().to_string();
            assert!(url.starts_with("/j/cangucu/importar/"), "{url}");
            for _ in 0..100 {
                let page = send(&router, get(&url, &clerk)).await;
                assert_eq!(page.status, StatusCode::OK, "{}", page.body);
                if !page.body.contains("hx-trigger=\"every 1s\"") {
                    return page;
                }
                assert!(
                    page.body.contains(&format!("hx-get=\"{url}\"")),
                    "{}",
                    page.body
                );
                assert!(page.body.contains("<progress value="), "{}", page.body);
                assert!(page.body.contains(" linhas: "), "{}", page.body);
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            panic!("the import job did not finish");
        }
    };
    let done = job(send_file("importar", "holders", "titulares.csv", holders).await).await;
    assert!(done.body.contains("2 importada(s)"), "{}", done.body);
    // A job still running, as another server sees it in the database: the
    // page polls it and shows its progress.
    let keys = AuditKeys::new(AuditKey::from_hex(&"5e".repeat(32)).expect("test key"));
    let other = Store::open(url, keys).await.expect("open");
    let table =
        outorga_store::read_import_file("veiculos.csv", b"placa;renavam;ano\nABC1D23;1;2020\n")
            .expect("table");
    let running = other
        .start_import_job(
            &setup(),
            outorga_store::ImportRequest {
                jurisdiction: "cangucu",
                kind: outorga_store::ImportKind::Vehicles,
                file: "veiculos.csv",
                table: &table,
                rulebooks: &[],
                dry_run: false,
            },
        )
        .await
        .expect("job");
    let url_of = format!("/j/cangucu/importar/{running}");
    let page = send(&router, get(&url_of, &clerk)).await;
    assert!(
        page.body
            .contains(&format!("hx-get=\"{url_of}\" hx-trigger=\"every 1s\"")),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("<progress value=\"0\" max=\"1\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("0 de 1 linhas"), "{}", page.body);
    // Not another jurisdiction's page (this clerk's scope is Canguçu).
    let elsewhere = send(
        &router,
        get(&format!("/j/amapa/importar/{running}"), &clerk),
    )
    .await;
    assert_eq!(elsewhere.status, StatusCode::FORBIDDEN);
    let person = send(&router, get("/j/cangucu/pessoas/52601815906", &clerk)).await;
    assert!(person.body.contains("João Conceição"));
    let permits: &[u8] =
        b"servico;numero;titular;outorgada_em\ntaxi;12;526.018.159-06;05/05/2010\n";
    let done = job(send_file("importar", "permits", "permissoes.csv", permits).await).await;
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

// ---------------------------------------------------------------- the
// administration (issue 12): users and tokens, parameters, the audit log,
// and the idle expiry of sessions.

/// A page's session cookie for `name`, as a `Cookie` header.
async fn session_of(router: &axum::Router, name: &str) -> String {
    format!(
        "outorga_sessao={}",
        value(&signed_in_as(router, name).await)
    )
}

/// An administrator without limits creates a user (a weak password refused
/// next to its field), makes them a token shown once (which the API takes),
/// revokes it (which the API then refuses), sets their password and
/// removes them; sets a parameter (a bad value refused next to its field)
/// and reads it with its article and the fiscal units; filters the audit
/// log by subject and days and verifies it intact. The header offers
/// the administration and the log only to whom may use them.
async fn admin_workflows(url: &str) {
    let router = router(url).await;
    let admin = session_of(&router, "admin-geral").await;
    let list = send(&router, get("/admin/usuarios", &admin)).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.body);
    assert!(list.body.contains("href=\"/admin/usuarios/atendente\""));
    assert!(
        list.body
            .contains("<option value=\"board\">junta/comissão</option>")
    );
    assert!(list.body.contains("href=\"/admin/usuarios\">Administração"));
    let token = list.csrf();
    let create = |password: &str| {
        post(
            "/admin/usuarios",
            &admin,
            &format!(
                "nome=ana.souza&papel=clerk&alcance=algumas&jurisdicoes=cangucu&jurisdicoes=amapa\
                 &senha={password}&csrf={token}"
            ),
        )
    };
    let weak = send(&router, create("123")).await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        weak.body
            .contains("id=\"erro-senha\" class=\"erro-campo\" role=\"alert\""),
        "{}",
        weak.body
    );
    assert!(
        weak.body
            .contains("erro-senha\"\n           aria-invalid=\"true\"")
    );
    assert!(weak.body.contains("value=\"ana.souza\""), "the form kept");
    let created = send(&router, create("uma+senha+bem+longa+42")).await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let list = send(&router, get(created.location(), &admin)).await;
    assert!(list.body.contains("Usuário ana.souza cadastrado."));
    assert!(list.body.contains("cangucu, amapa"));

    // A token, shown once; the API takes it, then refuses it revoked.
    let page = send(&router, get("/admin/usuarios/ana.souza", &admin)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Nenhum token."));
    let made = send(
        &router,
        post(
            "/admin/usuarios/ana.souza/tokens",
            &admin,
            &format!("rotulo=integracao-detran&expira_em=&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    assert!(
        made.body
            .contains("Copie o token agora: ele não será mostrado de novo.")
    );
    assert_eq!(made.headers[header::CACHE_CONTROL], "no-store");
    let at = made.body.find("value=\"otg_").expect("the token") + 7;
    let secret = made.body[at..]
        .split('"')
        .next()
        .expect("token")
        .to_string();
    let api = |secret: &str| {
        Request::get("/api/users/ana.souza/tokens")
            .header(header::AUTHORIZATION, format!("Bearer {secret}"))
            .body(Body::empty())
            .expect("request")
    };
    assert_eq!(send(&router, api(&secret)).await.status, StatusCode::OK);
    let again = send(&router, get("/admin/usuarios/ana.souza", &admin)).await;
    assert!(!again.body.contains(&secret), "shown once");
    assert!(again.body.contains("em vigor"));
    let revoked = send(
        &router,
        post(
            "/admin/usuarios/ana.souza/tokens/revogacao",
            &admin,
            &format!("rotulo=integracao-detran&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(revoked.status, StatusCode::SEE_OTHER);
    let after = send(&router, get(revoked.location(), &admin)).await;
    assert!(after.body.contains("Token revogado.") && after.body.contains("revogado</td>"));
    assert_eq!(
        send(&router, api(&secret)).await.status,
        StatusCode::UNAUTHORIZED
    );

    // A new password: the confirmation checked, then set.
    let set = |new: &str, confirm: &str| {
        post(
            "/admin/usuarios/ana.souza/senha",
            &admin,
            &format!("senha={new}&confirmacao={confirm}&csrf={token}"),
        )
    };
    let unlike = send(&router, set("outra+senha+comprida+77", "outra")).await;
    assert_eq!(unlike.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(unlike.body.contains("id=\"erro-confirmacao\""));
    let changed = send(
        &router,
        set("outra+senha+comprida+77", "outra+senha+comprida+77"),
    )
    .await;
    assert_eq!(changed.status, StatusCode::SEE_OTHER, "{}", changed.body);

    // A parameter: a bad value next to its field; a good one in force,
    // with its article; the fiscal units the rulebooks name.
    let params = send(&router, get("/j/cangucu/parametros", &admin)).await;
    assert_eq!(params.status, StatusCode::OK, "{}", params.body);
    assert!(params.body.contains("49.607"), "{}", params.body);
    assert!(params.body.contains("Art. 3º, § 2º"));
    let bad = send(
        &router,
        post(
            "/j/cangucu/parametros",
            &admin,
            &format!("nome=population&valor=muitos&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad.body
            .contains("id=\"erro-valor\" class=\"erro-campo\" role=\"alert\"")
    );
    let done = send(
        &router,
        post(
            "/j/cangucu/parametros",
            &admin,
            &format!("nome=population&valor=50000&desde=2026-01-01&motivo=censo+2026&csrf={token}"),
        ),
    )
    .await;
    // The act that sets it is required, next to its field.
    assert_eq!(
        done.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        done.body
    );
    assert!(done.body.contains("id=\"erro-ato\""), "{}", done.body);
    assert!(
        done.body.contains("value=\"2026-01-01\""),
        "what was sent stays"
    );
    let done = send(
        &router,
        post(
            "/j/cangucu/parametros",
            &admin,
            &format!(
                "nome=population&valor=50000&desde=2026-01-01&ato=IBGE+estimativa+2025&motivo=censo+2026&csrf={token}"
            ),
        ),
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let params = send(&router, get(done.location(), &admin)).await;
    assert!(params.body.contains("Parâmetro population alterado"));
    assert!(params.body.contains("<strong>50.000</strong> habitantes"));
    assert!(
        params
            .body
            .contains("definido nesta implantação (IBGE estimativa 2025, desde 01/01/2026)"),
        "{}",
        params.body
    );
    let units = send(&router, get("/j/teofilo-otoni/parametros", &admin)).await;
    assert!(units.body.contains("UPFTO") && units.body.contains("R$ 1,7978"));
    assert!(units.body.contains("regulamento"));
    let smj = send(&router, get("/j/santa-maria-de-jetiba/parametros", &admin)).await;
    // An open term: who fills it and the article that leaves it open.
    assert!(
        smj.body
            .contains("padrão do produto: a lei o deixa a decreto (Art. 5º, I)"),
        "{}",
        smj.body
    );
    assert!(smj.body.contains("VRTM") && smj.body.contains("sem valor para hoje"));
    assert!(
        smj.body
            .contains("<a href=\"/j/santa-maria-de-jetiba/unidades\">Unidades fiscais</a>")
    );

    // The log: by subject, by days; verified intact.
    let log = send(&router, get("/auditoria?assunto=user%3Aana.souza", &admin)).await;
    assert_eq!(log.status, StatusCode::OK, "{}", log.body);
    for action in [
        "usuário cadastrado",
        "token de API criado",
        "token de API revogado",
        "senha trocada",
    ] {
        assert!(log.body.contains(action), "{action}: {}", log.body);
    }
    assert!(!log.body.contains("parâmetro alterado"));
    let log = send(
        &router,
        get(
            "/auditoria?assunto=parameter%3Apopulation&de=2026-11-30&ate=30%2F11%2F2026",
            &admin,
        ),
    )
    .await;
    assert!(log.body.contains("parâmetro alterado") && log.body.contains("censo 2026"));
    assert!(
        log.body.contains("30/11/2026 12:00:00"),
        "local time: {}",
        log.body
    );
    let later = send(&router, get("/auditoria?de=2026-12-01", &admin)).await;
    assert!(later.body.contains("Nenhuma entrada com estes filtros."));
    let bad_day = send(&router, get("/auditoria?ate=31%2F02%2F2026", &admin)).await;
    assert_eq!(bad_day.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad_day.body.contains("id=\"erro-ate\""));
    let verified = send(
        &router,
        post("/auditoria/verificacao", &admin, &format!("csrf={token}")),
    )
    .await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.body);
    assert!(verified.body.contains("Íntegro:"), "{}", verified.body);

    // Removing: confirmed, then gone from the list.
    let unconfirmed = send(
        &router,
        post(
            "/admin/usuarios/ana.souza/remocao",
            &admin,
            &format!("csrf={token}"),
        ),
    )
    .await;
    assert_eq!(unconfirmed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(unconfirmed.body.contains("id=\"erro-remocao\""));
    let removed = send(
        &router,
        post(
            "/admin/usuarios/ana.souza/remocao",
            &admin,
            &format!("confirmo=sim&csrf={token}"),
        ),
    )
    .await;
    assert_eq!(removed.status, StatusCode::SEE_OTHER);
    let list = send(&router, get(removed.location(), &admin)).await;
    assert!(list.body.contains("Usuário ana.souza removido"));
    assert!(!list.body.contains("href=\"/admin/usuarios/ana.souza\""));

    // A limited administrator: no "all" scope offered, no token for others.
    let limited = session_of(&router, "administrador").await;
    let list = send(&router, get("/admin/usuarios", &limited)).await;
    assert!(!list.body.contains("alcance-todas"));
    assert!(!list.body.contains("/admin/usuarios/admin-geral\""));
    let page = send(&router, get("/admin/usuarios/atendente", &limited)).await;
    assert!(!page.body.contains("Criar token</button>"));

    // The header per role; the log and the parameters' form refused.
    let board = session_of(&router, "junta").await;
    let panel = send(&router, get("/painel", &board)).await;
    assert!(panel.body.contains("href=\"/auditoria\""));
    assert!(!panel.body.contains("href=\"/admin/usuarios\""));
    assert!(panel.body.contains("/j/cangucu/parametros"));
    let clerk = session_of(&router, "atendente").await;
    let panel = send(&router, get("/painel", &clerk)).await;
    assert!(!panel.body.contains("href=\"/auditoria\""));
    assert_eq!(
        send(&router, get("/auditoria", &clerk)).await.status,
        StatusCode::FORBIDDEN
    );
    let params = send(&router, get("/j/cangucu/parametros", &clerk)).await;
    assert!(params.body.contains("50.000") && !params.body.contains("Alterar um parâmetro"));
}

#[tokio::test]
async fn admin_workflows_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    admin_workflows(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn admin_workflows_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uiadm_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    admin_workflows(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// A clock the test moves: `Fixed`'s moment plus the seconds it holds.
#[derive(Debug, Default)]
struct Moving(std::sync::atomic::AtomicI64);

impl Moving {
    fn forward(&self, minutes: i64) {
        self.0
            .fetch_add(minutes * 60, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clock for Moving {
    fn now(&self) -> NaiveDateTime {
        Fixed.now() + chrono::Duration::seconds(self.0.load(std::sync::atomic::Ordering::SeqCst))
    }
}

/// A session used within the idle limit (30 minutes) lives on, each use
/// counting from then; one unused for longer is ended and the user sent to
/// sign in, told why; the session is over for good.
async fn idle_expiry(url: &str) {
    let clock = Arc::new(Moving::default());
    let router = router_at(url, false, clock.clone()).await;
    let clerk = session_of(&router, "atendente").await;
    clock.forward(20);
    assert_eq!(
        send(&router, get("/painel", &clerk)).await.status,
        StatusCode::OK
    );
    clock.forward(25);
    let used = send(&router, get("/painel", &clerk)).await;
    assert_eq!(used.status, StatusCode::OK, "25 minutes after the last use");
    clock.forward(31);
    let idle = send(&router, get("/painel", &clerk)).await;
    assert_eq!(
        (idle.status, idle.location()),
        (StatusCode::SEE_OTHER, "/entrar?motivo=inatividade")
    );
    assert!(
        idle.cookie("outorga_sessao")
            .is_some_and(|c| c.contains("Max-Age=0"))
    );
    let told = send(&router, get(idle.location(), &clerk)).await;
    assert_eq!(told.status, StatusCode::OK);
    assert!(
        told.body
            .contains("role=\"status\">Sua sessão expirou por inatividade (30 minutos sem uso)."),
        "{}",
        told.body
    );
    let over = send(&router, get("/painel", &clerk)).await;
    assert_eq!(over.location(), "/entrar", "the session was ended");
    // The end is in the log, with its reason.
    let admin = session_of(&router, "admin-geral").await;
    let log = send(&router, get("/auditoria?assunto=user%3Aatendente", &admin)).await;
    assert!(
        log.body.contains("sessão encerrada por inatividade"),
        "{}",
        log.body
    );
}

#[tokio::test]
async fn idle_expiry_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    idle_expiry(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn idle_expiry_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uiidle_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    idle_expiry(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
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

/// A JSON request through the router with a bearer token.
fn api(path: &str, token: &str, body: &str) -> Request<Body> {
    Request::post(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request")
}

/// The number after `"field":` in a JSON answer.
fn json_number(body: &str, field: &str) -> i64 {
    let at = body.find(&format!("\"{field}\":")).expect(field) + field.len() + 3;
    let digits: String = body[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a number")
}

/// The panel's charts on the demo (SVG with its title and description,
/// the numbers in a table equal to the store's counts, ids unique); then
/// 55 autos notified under one permit: the board's queue shows 50 and a
/// next page, the dossier links to all of them, 50 a page.
async fn charts_and_long_lists(url: &str) {
    let router = router_on(url, true).await;
    let clerk = format!("outorga_sessao={}", value(&signed_in(&router).await));
    let panel = send(&router, get("/painel", &clerk)).await;
    assert_eq!(panel.status, StatusCode::OK, "{}", panel.body);
    let _ = std::fs::write(
        std::env::temp_dir().join("outorga-painel.html"),
        &panel.body,
    );
    for (id, title) in [
        (
            "j1-autos",
            "Autos de infração por mês, por grupo da infração",
        ),
        ("j1-permissoes", "Permissões por situação"),
        ("j1-frota0", "Idade da frota em serviço — táxi"),
        (
            "j1-vencimentos",
            "O que vence por semana, nas próximas 8 semanas",
        ),
    ] {
        let svg = format!("<svg role=\"img\" aria-labelledby=\"{id}-t {id}-d\"");
        assert!(panel.body.contains(&svg), "{id}: {}", panel.body);
        assert!(
            panel
                .body
                .contains(&format!("<title id=\"{id}-t\">{title}"))
        );
        assert!(panel.body.contains(&format!("<desc id=\"{id}-d\">")));
        assert!(panel.body.contains(&format!("<caption>{title}")));
    }
    let mut ids: Vec<&str> = panel
        .body
        .split(" id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    let all = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all, "every id once");
    let keys = AuditKeys::new(AuditKey::from_hex(&"5e".repeat(32)).expect("test key"));
    let store = Store::open(url, keys).await.expect("open");
    for (status, n) in store.permits_per_status("cangucu").await.expect("counts") {
        let name = outorga_core::model::PermitStatus::parse(&status)
            .expect("status")
            .portuguese();
        let row = format!("<tr><th scope=\"row\">{name}</th><td>{n}</td></tr>");
        assert!(panel.body.contains(&row), "{row}");
    }

    let session = |name: &str| {
        api(
            "/api/session",
            "",
            &format!("{{\"nome\":\"{name}\",\"senha\":\"{PASSWORD}\"}}"),
        )
    };
    let token = |page: Page| {
        page.body
            .split("\"token\":\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .map(str::to_string)
            .expect("token")
    };
    let inspector = token(send(&router, session("fiscal")).await);
    let clerk_token = token(send(&router, session("atendente")).await);
    let permit = send(
        &router,
        Request::get("/api/jurisdictions/cangucu/permits/taxi/1")
            .header(header::AUTHORIZATION, format!("Bearer {clerk_token}"))
            .body(Body::empty())
            .expect("request"),
    )
    .await;
    let holder = permit
        .body
        .split("\"titular\":\"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .expect("holder")
        .to_string();
    for _ in 0..55 {
        let body = format!(
            "{{\"infracao\":\"A18-X\",\"autuado\":\"{holder}\",\"permissao\":{{\"servico\":\"taxi\",\"numero\":1}},\
             \"cometida_em\":\"2026-11-29T09:00\",\"local\":\"Praça\",\"descricao\":\"teste\"}}"
        );
        let issued = send(
            &router,
            api("/api/jurisdictions/cangucu/autos", &inspector, &body),
        )
        .await;
        assert!(issued.status.is_success(), "{}", issued.body);
        let (year, number) = (
            json_number(&issued.body, "ano"),
            json_number(&issued.body, "numero"),
        );
        let path = format!("/api/jurisdictions/cangucu/autos/{year}/{number}/steps");
        let notified = send(
            &router,
            api(&path, &clerk_token, "{\"passo\":\"notificar\"}"),
        )
        .await;
        assert!(notified.status.is_success(), "{}", notified.body);
    }
    let rows = |page: &Page| page.body.matches("<td><a href=\"/j/cangucu/autos/").count();
    let queue = send(&router, get("/j/cangucu/junta", &clerk)).await;
    assert_eq!(rows(&queue), 50, "{}", queue.body);
    assert!(queue.body.contains("Próxima página"));
    let dossier = send(&router, get("/j/cangucu/permissoes/taxi/1", &clerk)).await;
    assert!(
        dossier.body.contains("Todos os autos desta permissão"),
        "{}",
        dossier.body
    );
    let list = send(&router, get("/j/cangucu/autos?permissao=taxi%2F1", &clerk)).await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(
        rows(&list) == 50 && list.body.contains("Próxima página"),
        "{}",
        list.body
    );
    assert!(
        list.body.contains("permissao=taxi%2F1&amp;cursor="),
        "{}",
        list.body
    );
}

#[tokio::test]
async fn charts_and_long_lists_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    charts_and_long_lists(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn charts_and_long_lists_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_nanos();
    let schema = format!("uic_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    charts_and_long_lists(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// The public check of a document (issue 14): no sign-in; the form sends
/// the code to its page, which says whether the document is valid today,
/// what it is and what it certifies, never its holder; an unknown code is
/// 404 with what to check; a cancelled one (a second copy issued) says so.
async fn public_verification(url: &str) {
    let router = router_on(url, true).await;
    let keys = AuditKeys::new(AuditKey::from_hex(&"5e".repeat(32)).expect("test key"));
    let store = Store::open(url, keys).await.expect("open");
    let j = "teofilo-otoni";
    let documents = store
        .documents(
            j,
            &outorga_store::DocumentFilter::default(),
            outorga_store::Window::first(200),
        )
        .await
        .expect("documents")
        .items;
    let valid = documents
        .iter()
        .find(|d| d.kind == "driver_registration" && d.cancelled_on.is_none())
        .expect("a demo driver's registration");
    let form = send(&router, get("/verificar", "")).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(form.body.contains("Código de verificação"));
    let asked = send(
        &router,
        get(
            &format!("/verificar?codigo={}", valid.code.to_lowercase()),
            "",
        ),
    )
    .await;
    assert_eq!(asked.status, StatusCode::SEE_OTHER);
    let shown = send(&router, get(&format!("/verificar/{}", valid.code), "")).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.body);
    assert!(
        shown.body.contains("Documento válido hoje"),
        "{}",
        shown.body
    );
    assert!(
        shown.body.contains("<dd>matrícula do condutor</dd>"),
        "{}",
        shown.body
    );
    assert!(
        shown.body.contains("condutor de matrícula"),
        "what it certifies: {}",
        shown.body
    );
    assert!(
        !shown.body.contains(&valid.holder),
        "the holder's CPF is never shown"
    );
    // The public lookup of a vehicle by plate and a driver by registration,
    // with no holder data.
    let registration = valid
        .subject
        .strip_prefix("driver:")
        .expect("a driver's registration");
    let driver = send(
        &router,
        get(
            &format!("/consulta?jurisdicao={j}&tipo=matricula&valor={registration}"),
            "",
        ),
    )
    .await;
    assert_eq!(driver.status, StatusCode::OK, "{}", driver.body);
    assert!(
        driver.body.contains(&format!(
            "O condutor de matrícula {registration} pode dirigir hoje"
        )),
        "{}",
        driver.body
    );
    assert!(!driver.body.contains(&valid.holder));
    let plate = documents
        .iter()
        .find_map(|d| d.subject.strip_prefix("vehicle:"))
        .expect("a demo vehicle's authorization");
    let vehicle = send(
        &router,
        get(
            &format!("/consulta?jurisdicao={j}&tipo=placa&valor={plate}"),
            "",
        ),
    )
    .await;
    assert_eq!(vehicle.status, StatusCode::OK, "{}", vehicle.body);
    assert!(
        vehicle.body.contains(&format!("O veículo {plate}")),
        "{}",
        vehicle.body
    );
    assert!(
        vehicle.body.contains("<dt>Permissão</dt>"),
        "{}",
        vehicle.body
    );
    let nobody = send(
        &router,
        get(
            &format!("/consulta?jurisdicao={j}&tipo=placa&valor=ZZZ9Z99"),
            "",
        ),
    )
    .await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND);
    assert!(
        nobody.body.contains("não está cadastrada"),
        "{}",
        nobody.body
    );
    let empty = send(&router, get("/consulta", "")).await;
    assert_eq!(empty.status, StatusCode::OK);
    assert!(empty.body.contains("Teófilo Otoni (MG)"), "{}", empty.body);
    let missing = send(&router, get("/verificar/ZZZZZ-99999", "")).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(
        missing.body.contains("confira as letras e os números"),
        "{}",
        missing.body
    );
    // A second copy cancels the document it replaces.
    let library =
        outorga_rulebook::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks"))
            .expect("rulebooks");
    let rulebook = library
        .rulebooks()
        .find(|r| r.id == "teofilo-otoni/mototaxi")
        .expect("rulebook");
    let change = Change {
        by: "teste",
        at: Fixed.now(),
        why: "segunda via",
    };
    let today = rulebook.jurisdiction.today(Fixed.now());
    store
        .second_copy(&change, rulebook, j, (&valid.code, today))
        .await
        .expect("second copy");
    let cancelled = send(&router, get(&format!("/verificar/{}", valid.code), "")).await;
    assert_eq!(cancelled.status, StatusCode::OK);
    assert!(
        cancelled.body.contains("Documento não válido hoje"),
        "{}",
        cancelled.body
    );
    assert!(
        cancelled.body.contains("Cancelado em"),
        "{}",
        cancelled.body
    );
}

#[tokio::test]
async fn public_verification_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    public_verification(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn public_verification_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uiv_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    public_verification(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// The papers from the staff pages, on the demo's records (issue 14): a
/// permit's page lists the holder's documents and the drivers' credentials,
/// each a link to its PDF (the credential also as a card); an auto's page
/// prints the auto and its notification (a read-only user sees no such
/// button); a debt's page prints its slip. Each link opens a PDF.
async fn papers_from_the_pages(url: &str) {
    let router = router_on(url, true).await;
    let clerk = session_of(&router, "atendente").await;
    let csrf = send(&router, get("/painel", &clerk)).await.csrf();
    let is_pdf = |page: &Page| {
        page.status == StatusCode::OK
            && page.headers[header::CONTENT_TYPE] == "application/pdf"
            && page.body.starts_with("%PDF-")
    };

    let permits = send(&router, get("/j/cangucu/permissoes", &clerk)).await;
    let permit = linked(&permits.body, "href", "/j/cangucu/permissoes/taxi/");
    let dossier = send(&router, get(&permit, &clerk)).await;
    assert!(
        dossier.body.contains("Documentos do titular"),
        "{}",
        dossier.body
    );
    let pdf = linked(&dossier.body, "href", "/j/cangucu/documentos/");
    assert!(pdf.ends_with("/pdf"), "{pdf}");
    assert!(is_pdf(&send(&router, get(&pdf, &clerk)).await), "{pdf}");
    let card = dossier
        .body
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .find(|h| h.ends_with("/pdf?formato=cartao"))
        .unwrap_or_else(|| panic!("a credential as a card: {}", dossier.body))
        .to_string();
    assert!(is_pdf(&send(&router, get(&card, &clerk)).await), "{card}");

    // The file checked on the public page: the genuine one, then altered.
    let answer = router
        .clone()
        .oneshot(get(&pdf, &clerk))
        .await
        .expect("answer");
    let bytes = axum::body::to_bytes(answer.into_body(), 8 << 20)
        .await
        .expect("body")
        .to_vec();
    let code = pdf
        .trim_end_matches("/pdf")
        .rsplit('/')
        .next()
        .expect("code")
        .to_string();
    let sent = |bytes: Vec<u8>| {
        let boundary = "limite-do-teste";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"arquivo\"; filename=\"doc.pdf\"\r\n\
             Content-Type: application/pdf\r\n\r\n"
        )
        .into_bytes();
        body.extend(bytes);
        body.extend(format!("\r\n--{boundary}--\r\n").into_bytes());
        Request::builder()
            .method("POST")
            .uri(format!("/verificar/{code}/arquivo"))
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(Body::from(body))
            .expect("request")
    };
    let shown = send(&router, get(&format!("/verificar/{code}"), "")).await;
    assert!(
        shown.body.contains("Conferir o arquivo PDF"),
        "{}",
        shown.body
    );
    let genuine = send(&router, sent(bytes.clone())).await;
    assert!(
        genuine.body.contains("não foi alterado"),
        "{}",
        genuine.body
    );
    let mut altered = bytes;
    altered.extend(b"% alterado\n");
    let altered = send(&router, sent(altered)).await;
    assert!(
        altered.body.contains("não é o que o órgão emitiu"),
        "{}",
        altered.body
    );

    let autos = send(&router, get("/j/cangucu/autos", &clerk)).await;
    let auto = linked(&autos.body, "href", "/j/cangucu/autos/20");
    let page = send(&router, get(&auto, &clerk)).await;
    assert!(
        page.body.contains("Documentos para imprimir")
            && page.body.contains("Notificação da autuação"),
        "{}",
        page.body
    );
    let issued = send(
        &router,
        post(
            &format!("{auto}/papeis"),
            &clerk,
            &format!("tipo=auto_notification&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(issued.status, StatusCode::SEE_OTHER, "{}", issued.body);
    assert!(
        issued.location().starts_with("/j/cangucu/documentos/"),
        "{}",
        issued.location()
    );
    assert!(is_pdf(&send(&router, get(issued.location(), &clerk)).await));
    let unknown = send(
        &router,
        post(
            &format!("{auto}/papeis"),
            &clerk,
            &format!("tipo=selo&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    let reader = session_of(&router, "consulta").await;
    let read = send(&router, get(&auto, &reader)).await;
    assert!(!read.body.contains("/papeis\""), "{}", read.body);

    let debts = send(&router, get("/j/cangucu/debitos", &clerk)).await;
    let debt = linked(&debts.body, "href", "/j/cangucu/debitos/20");
    let page = send(&router, get(&debt, &clerk)).await;
    assert!(page.body.contains("Imprimir a guia (PDF)"), "{}", page.body);
    let slip = send(
        &router,
        post(
            &format!("{debt}/guia/documento"),
            &clerk,
            &format!("data=2026-12-10&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(slip.status, StatusCode::SEE_OTHER, "{}", slip.body);
    assert!(is_pdf(&send(&router, get(slip.location(), &clerk)).await));
    let past = send(
        &router,
        post(
            &format!("{debt}/guia/documento"),
            &clerk,
            &format!("data=2026-11-01&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(past.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(past.body.contains("já passou"), "{}", past.body);
}

#[tokio::test]
async fn papers_from_the_pages_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    papers_from_the_pages(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn papers_from_the_pages_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uip_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    papers_from_the_pages(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// The public portal on the demo's records (issue 14): the fares, stands
/// and lines of every jurisdiction; the open data downloads and each file
/// validates against its dictionary (header, types, required fields); and
/// no public page, CSV or dictionary holds a CPF or the name of a person of
/// the record, a phone or a postal code.
async fn public_portal(url: &str) {
    // A crawl of every public answer: more than a passenger's rate.
    let limits = outorga_web::Limits {
        public_burst: std::num::NonZeroU32::new(10_000).expect("burst"),
        ..outorga_web::Limits::DEFAULT
    };
    let router = router_limited(url, true, Arc::new(Fixed), limits).await;
    // The same database, read directly: what the staff see.
    let keys = AuditKeys::new(AuditKey::from_hex(&"5e".repeat(32)).expect("test key"));
    let store = Store::open(url, keys).await.expect("open");
    let jurisdictions = ["santa-maria-de-jetiba", "teofilo-otoni", "cangucu", "amapa"];
    // The people of the record: what no public answer may show.
    let mut secrets: Vec<String> = Vec::new();
    for j in jurisdictions {
        let people = store
            .people(j, outorga_store::Window::first(500))
            .await
            .expect("people");
        for p in people.items {
            if p.kind == outorga_store::Kind::Person {
                secrets.push(outorga_store::words::document(&p.document));
                secrets.push(p.document);
                secrets.push(p.name);
            }
        }
    }
    assert!(secrets.len() > 30, "the demo has people: {}", secrets.len());

    let mut public: Vec<(String, String)> = Vec::new();
    let mut read = async |path: String| {
        let page = send(&router, get(&path, "")).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
        public.push((path, page.body.clone()));
        page.body
    };
    read("/".into()).await;
    read("/tarifas".into()).await;
    read("/dados-abertos".into()).await;
    for j in jurisdictions {
        let law = read(format!("/leis/{j}")).await;
        assert!(
            law.contains("texto original, em vigor desde") && law.contains("class=\"texto-legal\""),
            "{law}"
        );
        let fares = read(format!("/tarifas/{j}")).await;
        if j != "amapa" {
            assert!(
                fares.contains("Quando vale cada bandeira") || fares.contains("Pontos"),
                "{fares}"
            );
        }
        let dictionary = read(format!("/api/public/jurisdictions/{j}/open-data")).await;
        let dictionary: serde_json::Value = serde_json::from_str(&dictionary).expect("dictionary");
        assert_eq!(dictionary["@type"], "dcat:Catalog");
        for dataset in dictionary["dcat:dataset"].as_array().expect("datasets") {
            let url = dataset["dcat:distribution"][0]["dcat:downloadURL"]
                .as_str()
                .expect("url");
            let path = url
                .split_once("/api/")
                .map(|(_, p)| format!("/api/{p}"))
                .expect("path");
            let csv = read(path.clone()).await;
            let columns = dataset["csvw:tableSchema"]["csvw:column"]
                .as_array()
                .expect("columns");
            let mut lines = csv.lines();
            let header: Vec<&str> = lines.next().expect("header").split(';').collect();
            let names: Vec<&str> = columns
                .iter()
                .map(|c| c["csvw:name"].as_str().expect("name"))
                .collect();
            assert_eq!(header, names, "{path}");
            for line in lines {
                let fields = split_csv(line);
                assert_eq!(fields.len(), columns.len(), "{path}: {line}");
                for (field, column) in fields.iter().zip(columns) {
                    let required = column["csvw:required"] == true;
                    if field.is_empty() {
                        assert!(
                            !required,
                            "{path}: {} is required: {line}",
                            column["csvw:name"]
                        );
                        continue;
                    }
                    let kind = column["csvw:datatype"].as_str().expect("type");
                    let ok = match kind {
                        "integer" => field.parse::<i64>().is_ok(),
                        "decimal" => field.parse::<f64>().is_ok() && !field.contains(','),
                        "date" => chrono::NaiveDate::parse_from_str(field, "%Y-%m-%d").is_ok(),
                        "gYearMonth" => {
                            chrono::NaiveDate::parse_from_str(&format!("{field}-01"), "%Y-%m-%d")
                                .is_ok()
                        }
                        "boolean" => *field == "sim" || *field == "nao",
                        _ => true,
                    };
                    assert!(ok, "{path}: `{field}` is not {kind}: {line}");
                }
            }
        }
    }
    // Every licensed vehicle and a driver of each jurisdiction, looked up.
    for j in jurisdictions {
        let vehicles = send(
            &router,
            get(
                &format!("/api/public/jurisdictions/{j}/open-data/veiculos.csv"),
                "",
            ),
        )
        .await;
        for plate in vehicles
            .body
            .lines()
            .skip(1)
            .filter_map(|l| l.split(';').next())
            .take(5)
        {
            let page = read(format!("/consulta?jurisdicao={j}&tipo=placa&valor={plate}")).await;
            assert!(page.contains("Marca e modelo"), "{page}");
        }
        let documents = store
            .documents(
                j,
                &outorga_store::DocumentFilter::default(),
                outorga_store::Window::first(8),
            )
            .await
            .expect("documents");
        for d in documents.items {
            read(format!("/verificar/{}", d.code)).await;
            if let Some(registration) = d.subject.strip_prefix("driver:") {
                read(format!(
                    "/consulta?jurisdicao={j}&tipo=matricula&valor={registration}"
                ))
                .await;
            }
        }
    }
    assert!(public.len() > 40, "{} public answers read", public.len());
    let phone = regex_lite::Regex::new(r"\(\d{2}\) ?9?\d{4}-\d{4}").expect("regex");
    let postal = regex_lite::Regex::new(r"\b\d{5}-\d{3}\b").expect("regex");
    for (path, body) in &public {
        for secret in &secrets {
            assert!(!body.contains(secret.as_str()), "{path} shows `{secret}`");
        }
        assert!(!phone.is_match(body), "{path} shows a phone");
        assert!(!postal.is_match(body), "{path} shows a postal code");
    }
}

/// A CSV line's fields (`;`, fields with `;` or quotes quoted).
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("field").push('"');
            }
            ('"', _) => quoted = !quoted,
            (';', false) => fields.push(String::new()),
            (c, _) => fields.last_mut().expect("field").push(c),
        }
    }
    fields
}

#[tokio::test]
async fn public_portal_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    public_portal(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn public_portal_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uipp_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    public_portal(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// A passenger's complaint from the public form (a bad field refused next
/// to it) to the inspectors' queue and back: the protocol page says where
/// it stands, never the text or the contact.
async fn complaint_flow(url: &str) {
    let router = router_on(url, true).await;
    let public = send(&router, get("/denuncia", "")).await;
    assert!(
        public.body.contains("Fazer uma denúncia"),
        "{}",
        public.body
    );
    let form = |when: &str| {
        format!(
            "jurisdicao=cangucu&tipo=refusal&quando={when}&local=Pra%C3%A7a+central\
             &placa=IZC1A23&descricao=Recusou+a+corrida+por+ser+curta.&contato=51+99999-0000"
        )
    };
    let refused = send(&router, post("/denuncia", "", &form("2027-01-01T10%3A00"))).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.body.contains("ainda não chegaram") && refused.body.contains("aria-invalid"),
        "{}",
        refused.body
    );
    let filed = send(&router, post("/denuncia", "", &form("2026-11-29T10%3A00"))).await;
    assert_eq!(filed.status, StatusCode::SEE_OTHER, "{}", filed.body);
    let page = send(&router, get(filed.location(), "")).await;
    assert!(page.body.contains("Denúncia recebida") && page.body.contains("recebida"));
    assert!(!page.body.contains("99999-0000") && !page.body.contains("Recusou"));
    let protocol = filed
        .location()
        .trim_start_matches("/denuncia/")
        .split('?')
        .next()
        .expect("protocol")
        .to_string();

    let inspector = session_of(&router, "fiscal").await;
    let queue = send(&router, get("/j/cangucu/denuncias", &inspector)).await;
    assert!(
        queue.body.contains(&protocol) && queue.body.contains("Recusou a corrida"),
        "{}",
        queue.body
    );
    let csrf = queue.csrf();
    let bad = send(
        &router,
        post(
            &format!("/j/cangucu/denuncias/{protocol}"),
            &inspector,
            &format!("situacao=closed&nota=&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains("diga por que"), "{}", bad.body);
    let done = send(
        &router,
        post(
            &format!("/j/cangucu/denuncias/{protocol}"),
            &inspector,
            &format!("situacao=in_review&nota=Ouvir+o+taxista&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let page = send(&router, get(&format!("/denuncia/{protocol}"), "")).await;
    assert!(page.body.contains("em apuração"), "{}", page.body);
    // A read-only user sees the queue without the form.
    let reader = session_of(&router, "consulta").await;
    let read = send(&router, get("/j/cangucu/denuncias", &reader)).await;
    assert!(
        read.body.contains(&protocol) && !read.body.contains("name=\"situacao\" value=\"closed\"")
    );
}

#[tokio::test]
async fn complaint_flow_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    complaint_flow(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn complaint_flow_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uic_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    complaint_flow(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// A multipart form with text fields and files, each as (field, file
/// name, content type, bytes).
fn multipart_with(
    path: &str,
    cookies: &str,
    fields: &[(&str, &str)],
    files: &[(&str, &str, &str, &[u8])],
) -> Request<Body> {
    let boundary = "----outorga-anexos";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    for (field, name, kind, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\n\
                 Content-Type: {kind}\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Request::post(path)
        .header(header::COOKIE, cookies)
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(Body::from(body))
        .expect("request")
}

/// The first `href` in `body` that starts with `prefix`.
fn href(body: &str, prefix: &str) -> String {
    let at = body
        .find(&format!("href=\"{prefix}"))
        .unwrap_or_else(|| panic!("a link to {prefix}… in {body}"))
        + 6;
    body[at..].split('"').next().unwrap_or_default().to_string()
}

/// The clerk opens a Canguçu call on the pages; the holder signed in
/// applies online through their space (one filing: the space's filings
/// are limited per address), sees their application there, and the
/// staff's page lists it.
async fn holder_applies_online(router: &axum::Router, clerk: &str, holder: &str, csrf: &str) {
    let calls = send(router, get("/j/cangucu/chamamentos", clerk)).await;
    let today: chrono::NaiveDate = between(
        &calls.body,
        "name=\"inscricoes_de\" type=\"date\" value=\"",
        "\"",
    )
    .parse()
    .expect("today on the form");
    let until = today + chrono::Days::new(5);
    let opened = send(
        router,
        post(
            "/j/cangucu/chamamentos",
            clerk,
            &format!(
                "csrf={}&servico=taxi&ato=Edital+n%C2%BA+3&vagas=1&inscricoes_de={today}&inscricoes_ate={until}&criterios=anos+%7C+Anos+de+CNH+%7C+1+%7C+%7C+Item+7&desempate=&documentos=certidao+%7C+Item+5",
                calls.csrf()
            ),
        ),
    )
    .await;
    assert_eq!(opened.status, StatusCode::SEE_OTHER, "{}", opened.body);
    let staff = opened
        .location()
        .split('?')
        .next()
        .expect("path")
        .to_string();
    let key = staff.trim_start_matches("/j/cangucu/chamamentos/");
    let mine = format!("/titular/chamamentos/cangucu/{key}");
    let form = send(router, get(&mine, holder)).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(form.body.contains("name=\"q_anos\""), "{}", form.body);
    let applied = send(
        router,
        post(
            &mine,
            holder,
            &format!("csrf={csrf}&q_anos=4&documento=certidao"),
        ),
    )
    .await;
    assert_eq!(applied.location(), mine, "{}", applied.body);
    let seen = send(router, get(&mine, holder)).await;
    assert!(seen.body.contains("Sua inscrição"), "{}", seen.body);
    assert!(seen.body.contains("inscricao-1"), "{}", seen.body);
    assert!(!seen.body.contains("Enviar a inscrição"), "{}", seen.body);
    let listed = send(router, get(&staff, clerk)).await;
    assert!(listed.body.contains("Inscrições (1)"), "{}", listed.body);
}

/// A clerk prints a holder's first-access code (a read-only user may
/// not); the holder sets a password with it (a wrong code, a confirmation
/// that differs refused; the code used once), signs in (a wrong password
/// refused), sees their permit with the vehicle and its next inspection,
/// the renewal the law forbids in Canguçu with its article, their
/// documents as PDF, their autos with the defense's limit, their debt with
/// its slip as PDF; files a defense (a file that is not PDF, JPEG or PNG
/// refused, nothing recorded), gets a receipt with the file's SHA-256;
/// the defense is the auto's step: the form is gone, the board's queue
/// shows the day it was filed, the staff's auto page lists the petition
/// and its file downloads as sent; another's auto and document are not
/// theirs (404); they sign out.
async fn holder_space(url: &str) {
    let router = router_on(url, true).await;
    let rulebooks = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    let library = outorga_rulebook::load(&rulebooks).expect("rulebooks");
    let all: Vec<_> = library.rulebooks().collect();
    let (j, cpf) = outorga_store::demo_holder(&all).expect("a demo holder");
    assert_eq!(
        j, "cangucu",
        "the first rulebook the demo grants permits under"
    );
    // Every page of the space asks for a holder's session: without one
    // (or with a staff session), the space's sign-in.
    for (method, path) in [
        ("GET", "/titular/painel"),
        ("GET", "/titular/autos/cangucu/2026/1"),
        ("POST", "/titular/autos/cangucu/2026/1/peticao"),
        ("POST", "/titular/permissoes/cangucu/taxi/1/renovacao"),
        ("GET", "/titular/protocolos/ABCDE-12345"),
        ("GET", "/titular/chamamentos/cangucu/2026/1"),
        ("POST", "/titular/chamamentos/cangucu/2026/1"),
        ("GET", "/titular/documentos/cangucu/ABCDE-12345/pdf"),
        ("POST", "/titular/debitos/cangucu/2026/1/1/guia"),
        ("POST", "/titular/sair"),
    ] {
        let request = if method == "GET" {
            get(path, "")
        } else {
            post(path, "", "csrf=x")
        };
        let away = send(&router, request).await;
        assert_eq!(away.location(), "/titular", "{method} {path}");
    }

    // The clerk prints the code.
    let clerk = session_of(&router, "atendente").await;
    let person = send(&router, get(&format!("/j/cangucu/pessoas/{cpf}"), &clerk)).await;
    assert!(
        person.body.contains("Imprimir o código de primeiro acesso"),
        "{}",
        person.body
    );
    let reader = session_of(&router, "consulta").await;
    let csrf_reader = send(&router, get("/painel", &reader)).await.csrf();
    let refused = send(
        &router,
        post(
            &format!("/j/cangucu/pessoas/{cpf}/codigo-de-acesso"),
            &reader,
            &format!("csrf={csrf_reader}"),
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let letter = send(
        &router,
        post(
            &format!("/j/cangucu/pessoas/{cpf}/codigo-de-acesso"),
            &clerk,
            &format!("csrf={}", person.csrf()),
        ),
    )
    .await;
    assert_eq!(letter.status, StatusCode::OK, "{}", letter.body);
    let code = between(&letter.body, "codigo-grande\"><strong>", "</strong>").to_string();
    assert_eq!(code.len(), 11, "{}", letter.body);
    assert!(letter.body.contains("/titular/primeiro-acesso"));

    // The holder sets the password with it.
    let form = send(&router, get("/titular/primeiro-acesso", "")).await;
    let pre = format!(
        "outorga_titular_entrada={}",
        value(&form.cookie("outorga_titular_entrada").expect("form cookie"))
    );
    let first = |code: &str, confirmation: &str| {
        post(
            "/titular/primeiro-acesso",
            &pre,
            &format!(
                "cpf={cpf}&codigo={code}&senha=minha+senha+nova&confirmacao={confirmation}&csrf={}",
                form.csrf()
            ),
        )
    };
    let wrong = send(&router, first("ABCDE-12345", "minha+senha+nova")).await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.body.contains("Código inválido"), "{}", wrong.body);
    let differs = send(&router, first(&code, "outra+senha+qualquer")).await;
    assert_eq!(differs.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(differs.body.contains("confirmação"), "{}", differs.body);
    let set = send(&router, first(&code.to_lowercase(), "minha+senha+nova")).await;
    assert_eq!(set.location(), "/titular?feito=senha", "{}", set.body);
    let again = send(&router, first(&code, "minha+senha+nova")).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Signs in.
    let form = send(&router, get("/titular", "")).await;
    let pre = format!(
        "outorga_titular_entrada={}",
        value(&form.cookie("outorga_titular_entrada").expect("form cookie"))
    );
    let sign_in = |password: &str| {
        post(
            "/titular/entrar",
            &pre,
            &format!("cpf={cpf}&senha={password}&csrf={}", form.csrf()),
        )
    };
    let bad = send(&router, sign_in("errada+de+todo")).await;
    assert_eq!(bad.status, StatusCode::UNAUTHORIZED);
    let opened = send(&router, sign_in("minha+senha+nova")).await;
    assert_eq!(opened.location(), "/titular/painel", "{}", opened.body);
    let holder = format!(
        "outorga_titular={}",
        value(&opened.cookie("outorga_titular").expect("session"))
    );
    // A staff session is not a holder's, nor the other way round.
    assert_eq!(
        send(&router, get("/titular/painel", &clerk))
            .await
            .location(),
        "/titular"
    );
    assert_eq!(
        send(&router, get("/painel", &holder)).await.location(),
        "/entrar"
    );

    let space = send(&router, get("/titular/painel", &holder)).await;
    assert_eq!(space.status, StatusCode::OK);
    for expected in [
        "Canguçu (RS)",
        "táxi nº",
        "IZC",
        "apresentar defesa até",
        "a lei veda a prorrogação da permissão (Art. 37, Parágrafo único)",
        "Imprimir a guia (PDF)",
        "autorização de tráfego",
    ] {
        assert!(space.body.contains(expected), "{expected}: {}", space.body);
    }
    let csrf = space.csrf();
    holder_applies_online(&router, &clerk, &holder, &csrf).await;
    let document = href(&space.body, "/titular/documentos/cangucu/");
    let pdf = send(&router, get(&document, &holder)).await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(pdf.headers[header::CONTENT_TYPE], "application/pdf");
    let slip_at = between(&space.body, "action=\"/titular/debitos/", "\"");
    let slip = send(
        &router,
        post(
            &format!("/titular/debitos/{slip_at}"),
            &holder,
            &format!("csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(slip.status, StatusCode::SEE_OTHER, "{}", slip.body);
    let slip_pdf = send(&router, get(slip.location(), &holder)).await;
    assert_eq!(slip_pdf.headers[header::CONTENT_TYPE], "application/pdf");

    // The auto whose defense may be filed.
    let row_start = space.body.find("apresentar defesa até").expect("open auto");
    let before = &space.body[..row_start];
    let at = before.rfind("href=\"/titular/autos/").expect("auto link") + 6;
    let auto_link = before[at..]
        .split('"')
        .next()
        .unwrap_or_default()
        .to_string();
    let auto_page = send(&router, get(&auto_link, &holder)).await;
    assert!(
        auto_page.body.contains("Apresentar defesa"),
        "{}",
        auto_page.body
    );
    assert!(auto_page.body.contains("Prazo: até"), "{}", auto_page.body);
    let action = format!("{auto_link}/peticao");
    let text = "O objeto foi devolvido no mesmo dia, conforme recibo anexo.";
    let not_a_pdf = send(
        &router,
        multipart_with(
            &action,
            &holder,
            &[("csrf", &csrf), ("tipo", "defesa"), ("texto", text)],
            &[("anexos", "recibo.pdf", "application/pdf", b"MZ\x90\0 nada")],
        ),
    )
    .await;
    assert_eq!(not_a_pdf.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        not_a_pdf.body.contains("não é PDF, JPEG nem PNG") && not_a_pdf.body.contains(text),
        "{}",
        not_a_pdf.body
    );
    let receipt_pdf: &[u8] = b"%PDF-1.4\n% recibo de entrega\n";
    let filed = send(
        &router,
        multipart_with(
            &action,
            &holder,
            &[("csrf", &csrf), ("tipo", "defesa"), ("texto", text)],
            &[
                ("anexos", "recibo.pdf", "application/pdf", receipt_pdf),
                ("anexos", "foto.png", "image/png", b"\x89PNG\r\n\x1a\n....."),
            ],
        ),
    )
    .await;
    assert_eq!(filed.status, StatusCode::SEE_OTHER, "{}", filed.body);
    let receipt = send(&router, get(filed.location(), &holder)).await;
    let protocol = filed.location().trim_start_matches("/titular/protocolos/");
    let sha = outorga_store::sha256_hex(receipt_pdf);
    assert!(
        receipt.body.contains(protocol)
            && receipt.body.contains(&sha)
            && receipt.body.contains("defesa da autuação"),
        "{}",
        receipt.body
    );
    let after = send(&router, get(&auto_link, &holder)).await;
    assert!(!after.body.contains("Apresentar defesa"), "{}", after.body);
    assert!(after.body.contains(protocol));

    // The board sees it.
    let (year, number) = {
        let mut parts = auto_link.rsplit('/');
        let number = parts.next().unwrap_or_default().to_string();
        let year = parts.next().unwrap_or_default().to_string();
        (year, number)
    };
    let board = session_of(&router, "junta").await;
    let queue = send(&router, get("/j/cangucu/junta", &board)).await;
    assert!(
        queue.body.contains(&format!("{number}/{year}")) && queue.body.contains("30/11/2026"),
        "{}",
        queue.body
    );
    let staff_auto = send(
        &router,
        get(&format!("/j/cangucu/autos/{year}/{number}"), &board),
    )
    .await;
    assert!(
        staff_auto.body.contains("Enviado pelo espaço do titular")
            && staff_auto.body.contains(protocol)
            && staff_auto.body.contains(text),
        "{}",
        staff_auto.body
    );
    let file = send(
        &router,
        get(
            &format!("/j/cangucu/requerimentos/{protocol}/anexos/1"),
            &board,
        ),
    )
    .await;
    assert_eq!(file.status, StatusCode::OK);
    assert_eq!(file.headers[header::CONTENT_TYPE], "application/pdf");
    assert!(
        file.headers[header::CONTENT_DISPOSITION]
            .to_str()
            .unwrap_or_default()
            .starts_with("attachment")
    );
    assert_eq!(file.body.as_bytes(), receipt_pdf);
    let petitions = send(
        &router,
        get("/j/cangucu/requerimentos?situacao=todas", &clerk),
    )
    .await;
    assert!(petitions.body.contains(protocol), "{}", petitions.body);

    // Another's auto and document are not theirs.
    let other = send(&router, get("/titular/autos/cangucu/2026/99999", &holder)).await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
    let not_theirs = send(
        &router,
        get("/titular/documentos/cangucu/ABCDE-12345/pdf", &holder),
    )
    .await;
    assert_eq!(not_theirs.status, StatusCode::NOT_FOUND);

    // Signs out.
    let out = send(
        &router,
        post("/titular/sair", &holder, &format!("csrf={csrf}")),
    )
    .await;
    assert_eq!(out.location(), "/titular?feito=saida");
    assert_eq!(
        send(&router, get("/titular/painel", &holder))
            .await
            .location(),
        "/titular?motivo=expirada"
    );
}

#[tokio::test]
async fn holder_space_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    holder_space(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn holder_space_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uih_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    holder_space(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// A test-only RSA key (made for these tests, signs nothing else): the
/// local provider's ID tokens.
const PROVIDER_KEY: &str = "
-----BEGIN RSA PRIVATE KEY-----
MIIEpAIBAAKCAQEA5KyALDUwa315Vav25WITaQmKcNCBgngow3RVr5eXgGayE0EQ
VwyLwb9325z6YW4iDSCiMxquN2PloB0/O9C4IF5/BVv/JDzGDqrmoTfdqkabdw85
TpKqx+RuqWw83nX9o+8vLLUG9v7ro+enzzl69v9qDGJcJparyghWJupUP0CVyrEx
f8zQW5BTK6Yeq92BsvZj4IE88tBQmIPR9xA7Gp6tFMHOjcUgQHKNSX72KHMtDXMB
gksL2G9h+p8TSdVVxQiwYNX2fZSUrichYKGErLsIpfXiZzdJEi9ptSIO7Ud8zXGQ
CBo804rA7WcZ+Vat9eO4dNbgC/CILmBkciGp3QIDAQABAoIBACo5liNToQDANxb0
PY9muEnVeqxRPBDg6joJMcdOOSn7DJfUlFVWmjnpBpNVXcB+6ye8ZmcEXrYYqq6R
p/r+E/naKR9OuQKyfCn6McMEQ1itWAi4lW7mU0W87xg2xdiYNgE+6dmaBdK3CMEH
xitUJFoWmLj3sqdnfAo+1tWxwGO7SnGzSPwlAXYZ/W5Zv3t2dbTJp3lBJtB1n1gI
EHH7RieLDjPaIzVUVSVVV/VbOHrx6COrwiF3DOZuv2Y5WUIjI8HqbhKyouEBdks3
FB7HNFj8/opuaARglN53+Aog8lJCAGe65ScBokFl9R5GJy/SDBWCY34FmpXp7dq5
UjKTPPsCgYEA9FB6RAdUAjyhZUOjKKvQlMJv/RSOXbSkcWYExQGqe7GoQfeTgAlL
LYBHWKgiJlhkT5XCiS6gCwoMPGuw9+y7ylpmKQsg/c/L2fyhKt3Yv475MUB9L6WB
KgLisx46aBd1+Rsg+VMphWZlSkdtUfkzYUoJQCFzOrFdkKqP/drA6GcCgYEA75yC
9pQ8vCiR9zJKnUuay0GqaVDkErWMCIpPZpwnKNY7L6lXvzUq6nnMgya3Uwes5bSd
vfOqXFzhVhZNbdLmdX0kGX+ZSgvXBfe3X12eo2nHZNCsKwNyVmChlaOxabHWqX6b
ahABAqwAjHbWhId1KJHzTiVQG4hR9tsan2ShQRsCgYBC2iaqqMqvFgIf4IMr5N/d
ZNsaCF7wezaoJP9XHR6WXEWrT2CYH3Lnz3s2YkN99J/2OweRXCXE/4nbmqhBHxE/
zL65qmbrrMmeK4e6YBwoRqofdQMMX6BZa5K26qWWyByq/mZmcwAglaVPzv21+Ze6
nnSrjLuoKtJsfI+MKiixLwKBgQDBenjJkMNGD+BlYcecIat5iqmG5tlzPgM39i7N
JTP9ppceEjiXXeAse3MnR8DqG52B0gk5k6KxeBJASDv3fT+4CPd4W280ukDDQdZg
/CCXxVdLUbBj/yF5HAf947LjLMWwEVp/FzMprCe5RFBNrW9t9gQnyrtXsAi3Mw7Z
PBF1lwKBgQDKQvIPqhBS5QSfgkqaj8OM3XRD9+a6+HnbTWmUq4ZhsZbV+Jmv9dsC
MjX8jUn0gGDCJuhrkWUWw0VhRxZIaulh35Vkz7QnVvHuR/vGq2uAK8QoeOortDxE
/SdTy2VYOCGXuQBCTirpvKuR1dcpj5DGU/AeNLfeXtV8+l497Ta29g==
-----END RSA PRIVATE KEY-----
";

/// What the local provider was asked to answer for the next code: the
/// PKCE challenge, the nonce to sign (the one sent, or another) and the
/// subject (a CPF).
#[derive(Debug, Clone, Default)]
struct Pending {
    code: String,
    challenge: String,
    nonce: String,
    subject: String,
}

/// A local OpenID Connect provider, as gov.br's Login Único answers:
/// discovery, its keys, and a token endpoint that checks the PKCE verifier
/// (S256) before it signs an ID token. Its address and what it will answer.
async fn provider() -> (String, Arc<std::sync::Mutex<Pending>>) {
    use axum::routing::{get as route_get, post as route_post};
    use openidconnect::core::{
        CoreIdToken, CoreIdTokenClaims, CoreJsonWebKeySet, CoreJwsSigningAlgorithm,
        CoreProviderMetadata, CoreResponseType, CoreRsaPrivateSigningKey,
        CoreSubjectIdentifierType,
    };
    use openidconnect::{
        Audience, AuthUrl, EmptyAdditionalClaims, EmptyAdditionalProviderMetadata, IssuerUrl,
        JsonWebKeyId, JsonWebKeySetUrl, Nonce, PrivateSigningKey as _, ResponseTypes,
        StandardClaims, SubjectIdentifier, TokenUrl,
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    let key = || {
        CoreRsaPrivateSigningKey::from_pem(
            PROVIDER_KEY.trim(),
            Some(JsonWebKeyId::new("k1".into())),
        )
        .expect("the test key")
    };
    let metadata = CoreProviderMetadata::new(
        IssuerUrl::new(base.clone()).expect("issuer"),
        AuthUrl::new(format!("{base}/authorize")).expect("auth"),
        JsonWebKeySetUrl::new(format!("{base}/jwks")).expect("jwks"),
        vec![ResponseTypes::new(vec![CoreResponseType::Code])],
        vec![CoreSubjectIdentifierType::Public],
        vec![CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256],
        EmptyAdditionalProviderMetadata {},
    )
    .set_token_endpoint(Some(TokenUrl::new(format!("{base}/token")).expect("token")));
    let discovery = serde_json::to_string(&metadata).expect("metadata");
    let jwks = serde_json::to_string(&CoreJsonWebKeySet::new(vec![key().as_verification_key()]))
        .expect("jwks");
    let pending = Arc::new(std::sync::Mutex::new(Pending::default()));
    let asked = pending.clone();
    let issuer = base.clone();
    let app = axum::Router::new()
        .route(
            "/.well-known/openid-configuration",
            route_get(move || {
                let body = discovery.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], body) }
            }),
        )
        .route(
            "/jwks",
            route_get(move || {
                let body = jwks.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], body) }
            }),
        )
        .route(
            "/token",
            route_post(move |body: String| {
                let asked = asked.lock().expect("pending").clone();
                let issuer = issuer.clone();
                async move {
                    let form: std::collections::HashMap<String, String> =
                        url_form(&body).into_iter().collect();
                    let verifier = form.get("code_verifier").cloned().unwrap_or_default();
                    let challenge = {
                        use sha2::Digest as _;
                        base64_url(&sha2::Sha256::digest(verifier.as_bytes()))
                    };
                    if form.get("code") != Some(&asked.code) || challenge != asked.challenge {
                        return (
                            StatusCode::BAD_REQUEST,
                            [(header::CONTENT_TYPE, "application/json")],
                            r#"{"error":"invalid_grant"}"#.to_string(),
                        );
                    }
                    let now = chrono::Utc::now();
                    let claims = CoreIdTokenClaims::new(
                        IssuerUrl::new(issuer).expect("issuer"),
                        vec![Audience::new("outorga-teste".into())],
                        now + chrono::Duration::minutes(5),
                        now,
                        StandardClaims::new(SubjectIdentifier::new(asked.subject.clone())),
                        EmptyAdditionalClaims {},
                    )
                    .set_nonce(Some(Nonce::new(asked.nonce.clone())));
                    let token = CoreIdToken::new(
                        claims,
                        &key(),
                        CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
                        None,
                        None,
                    )
                    .expect("an ID token");
                    (
                        StatusCode::OK,
                        [(header::CONTENT_TYPE, "application/json")],
                        serde_json::json!({
                            "access_token": "acesso",
                            "token_type": "bearer",
                            "expires_in": 300,
                            "id_token": token.to_string(),
                        })
                        .to_string(),
                    )
                }
            }),
        );
    tokio::spawn(async move {
        axum::serve(listener, app)
            .await
            .expect("the provider serves");
    });
    (base, pending)
}

/// The pairs of an `application/x-www-form-urlencoded` text.
fn url_form(text: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(text.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Base64url without padding (PKCE's S256 challenge).
fn base64_url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n =
            chunk.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// Signing in through gov.br against a local provider: the browser is
/// sent there with a PKCE challenge (S256), a state and a nonce; back with
/// the code, the server exchanges it with the verifier (the provider
/// checks it), checks the ID token and opens the holder's session; the
/// same state a second time is refused, as is an ID token with another
/// nonce, and a CPF no jurisdiction registers. Without a client at gov.br
/// the space offers no such entry.
async fn govbr_sign_in(url: &str) {
    let (base, pending) = provider().await;
    let govbr: &'static outorga_ui::GovBr = Box::leak(Box::new(outorga_ui::GovBr {
        issuer: base.clone(),
        client_id: "outorga-teste".into(),
        client_secret: Some("segredo-de-teste".into()),
        redirect: "https://transporte.example.org/titular/govbr/retorno".into(),
    }));
    let options = outorga_ui::Options {
        demo: true,
        govbr: Some(govbr),
        ..outorga_ui::Options::default()
    };
    let router = router_options(
        url,
        true,
        Arc::new(Fixed),
        outorga_web::Limits::DEFAULT,
        options,
    )
    .await;
    let rulebooks = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    let library = outorga_rulebook::load(&rulebooks).expect("rulebooks");
    let all: Vec<_> = library.rulebooks().collect();
    let (_, cpf) = outorga_store::demo_holder(&all).expect("a demo holder");

    let entry = send(&router, get("/titular", "")).await;
    assert!(entry.body.contains("Entrar com gov.br"), "{}", entry.body);
    // Sent to the provider, then back with a code.
    let go = |subject: &str, nonce: Option<&str>| {
        let router = router.clone();
        let pending = pending.clone();
        let subject = subject.to_string();
        let nonce = nonce.map(str::to_string);
        let base = base.clone();
        async move {
            let away = send(&router, get("/titular/govbr", "")).await;
            assert_eq!(away.status, StatusCode::SEE_OTHER, "{}", away.body);
            let to = away.location().to_string();
            assert!(to.starts_with(&format!("{base}/authorize?")), "{to}");
            let asked: std::collections::HashMap<String, String> =
                url_form(to.split_once('?').expect("a query").1)
                    .into_iter()
                    .collect();
            assert_eq!(asked["code_challenge_method"], "S256");
            assert_eq!(asked["client_id"], "outorga-teste");
            assert_eq!(asked["response_type"], "code");
            assert!(asked["scope"].split(' ').any(|s| s == "openid"));
            *pending.lock().expect("pending") = Pending {
                code: "codigo-1".into(),
                challenge: asked["code_challenge"].clone(),
                nonce: nonce.unwrap_or_else(|| asked["nonce"].clone()),
                subject,
            };
            let state = asked["state"].clone();
            let back = send(
                &router,
                get(
                    &format!(
                        "/titular/govbr/retorno?code=codigo-1&state={}",
                        form_urlencoded::byte_serialize(state.as_bytes()).collect::<String>()
                    ),
                    "",
                ),
            )
            .await;
            (back, state)
        }
    };
    let (back, state) = go(&cpf, None).await;
    assert_eq!(back.location(), "/titular/painel", "{}", back.body);
    let holder = format!(
        "outorga_titular={}",
        value(&back.cookie("outorga_titular").expect("session"))
    );
    let space = send(&router, get("/titular/painel", &holder)).await;
    assert!(
        space.status == StatusCode::OK && space.body.contains("apresentar defesa até"),
        "{}",
        space.body
    );
    // The same state again: used once.
    let replay = send(
        &router,
        get(
            &format!(
                "/titular/govbr/retorno?code=codigo-1&state={}",
                form_urlencoded::byte_serialize(state.as_bytes()).collect::<String>()
            ),
            "",
        ),
    )
    .await;
    assert_eq!(replay.status, StatusCode::UNAUTHORIZED);
    assert!(replay.body.contains("já foi usada"), "{}", replay.body);
    // An ID token for another nonce is not taken.
    let (forged, _) = go(&cpf, Some("outro-nonce")).await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED, "{}", forged.body);
    assert!(forged.cookie("outorga_titular").is_none());
    // A CPF no jurisdiction registers.
    let (stranger, _) = go("52998224725", None).await;
    assert_eq!(stranger.status, StatusCode::FORBIDDEN, "{}", stranger.body);
    // The provider said no.
    let refused = send(
        &router,
        get("/titular/govbr/retorno?error=access_denied", ""),
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);

    // Without a client at gov.br (another deployment): no such entry.
    let other = tempfile::tempdir().expect("temp dir");
    let plain = router_on(&sqlite_url(other.path()).expect("url"), false).await;
    let entry = send(&plain, get("/titular", "")).await;
    assert!(!entry.body.contains("Entrar com gov.br"));
    assert_eq!(
        send(&plain, get("/titular/govbr", "")).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn govbr_sign_in_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    govbr_sign_in(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn govbr_sign_in_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uig_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    govbr_sign_in(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// The law's page: each article's words in the version of the day asked,
/// an anchor per article; a day before the law, a bad day and an unknown
/// place each said plainly. (It reads no record: one backend.)
#[tokio::test]
async fn the_law_page_reads_by_day() {
    let dir = tempfile::tempdir().expect("temp dir");
    let router = router(&sqlite_url(dir.path()).expect("url")).await;
    let page = send(&router, get("/leis/cangucu", "")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("id=\"anexo-i-art-12\""), "{}", page.body);
    assert!(page.body.contains("III - grupo 3 - GRAVE – R$ 400,00; ou"));
    assert!(
        page.body.contains("Serviços: táxi, táxi acessível."),
        "{}",
        page.body
    );
    let before = send(&router, get("/leis/cangucu?data=2024-03-04", "")).await;
    assert_eq!(before.status, StatusCode::OK);
    assert!(
        before
            .body
            .contains("04/03/2024 é anterior à entrada em vigor da lei de Canguçu (05/03/2024)"),
        "{}",
        before.body
    );
    assert!(!before.body.contains("class=\"texto-legal\""));
    // Teófilo Otoni's two services share one law: shown once.
    let to = send(&router, get("/leis/teofilo-otoni", "")).await;
    assert_eq!(
        to.body.matches("<h3>Versões</h3>").count(),
        1,
        "{}",
        to.body
    );
    let bad = send(&router, get("/leis/cangucu?data=31-12-2025", "")).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.body.contains("AAAA-MM-DD"));
    let unknown = send(&router, get("/leis/atlantida", "")).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}
