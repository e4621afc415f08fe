//! The first screens: the home page (how to sign in, with the demo users
//! when the server runs with them), sign-in and sign-out, and the panel —
//! the user's agenda per jurisdiction of their scope, read from the same
//! store function as `GET …/agenda`.

use crate::Options;
use crate::format;
use crate::session::{self, SESSION, SIGN_IN, Signed, checked_form, cookie, same, set_cookie};
use askama::Template;
use axum::Extension;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, SignIn, StoreError, Window};
use outorga_web::AppState;
use outorga_web::client::ClientIp;
use serde::Deserialize;

/// How long a session opened here lasts (as one opened through the API).
pub(crate) const SESSION_HOURS: i64 = 12;
/// The longest name and password a form takes (as the API).
const MAX_NAME_CHARS: usize = 64;
const MAX_PASSWORD_CHARS: usize = outorga_store::MAX_PASSWORD_CHARS;
/// Items of the agenda a jurisdiction's panel shows.
const PANEL_ITEMS: u32 = 50;
/// Days ahead the panel looks.
const PANEL_DAYS: u32 = 7;

/// The policy of every page: its own styles, scripts and fonts, nothing
/// inline, forms only to itself, never in a frame.
const PAGE_POLICY: &str = "default-src 'none'; style-src 'self'; script-src 'self'; \
    font-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
    frame-ancestors 'none'; base-uri 'none'";

/// The signed-in user as the header shows them.
#[derive(Debug)]
pub(crate) struct Bar {
    pub(crate) name: String,
    pub(crate) role: &'static str,
    pub(crate) csrf: String,
    /// The header offers the administration of users (administrators).
    pub(crate) admin: bool,
    /// The header offers the audit log (the board and administrators).
    pub(crate) audit: bool,
}

impl Bar {
    pub(crate) fn of(signed: &Signed) -> Bar {
        Bar {
            name: signed.user.name.clone(),
            role: signed.user.role.label(),
            csrf: signed.csrf(),
            admin: outorga_web::auth::Admin::admits(signed.user.role),
            audit: outorga_web::auth::Board::admits(signed.user.role),
        }
    }
}

/// What the user may do in a jurisdiction, for its links (what a role may
/// not do is not offered; the action refuses it anyway).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Offers {
    pub clerk: bool,
    pub inspector: bool,
    pub admin: bool,
}

impl Offers {
    pub(crate) fn of(signed: &Signed) -> Offers {
        Offers {
            clerk: outorga_web::auth::Clerk::admits(signed.user.role),
            inspector: outorga_web::auth::Inspector::admits(signed.user.role),
            admin: outorga_web::auth::Admin::admits(signed.user.role),
        }
    }
}

/// HTML with the page policy.
fn html(status: StatusCode, html: String) -> Response {
    (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(PAGE_POLICY),
            ),
        ],
        html,
    )
        .into_response()
}

/// A rendered page with the page policy.
pub(crate) fn page(status: StatusCode, template: &impl Template) -> Response {
    match template.render() {
        Ok(rendered) => html(status, rendered),
        Err(error) => {
            tracing::error!(%error, "a page could not be rendered");
            failure()
        }
    }
}

#[derive(Template)]
#[template(path = "erro.html")]
pub(crate) struct ErrorPage<'a> {
    pub user: Option<Bar>,
    pub title: &'a str,
    pub message: &'a str,
}

/// The page of a failure the user cannot fix (logged where it happened).
pub(crate) fn failure() -> Response {
    let template = ErrorPage {
        user: None,
        title: "Não foi possível concluir",
        message: "Ocorreu um erro no sistema. Tente de novo em instantes; se persistir, avise o administrador.",
    };
    match template.render() {
        Ok(rendered) => html(StatusCode::INTERNAL_SERVER_ERROR, rendered),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "erro interno").into_response(),
    }
}

#[derive(Template)]
#[template(path = "inicio.html")]
struct Home {
    user: Option<Bar>,
    demo: bool,
    jurisdictions: Vec<String>,
}

pub(crate) async fn home(
    State(state): State<AppState>,
    Extension(options): Extension<Options>,
    headers: HeaderMap,
) -> Response {
    if session::signed_in(&headers, &state, &options)
        .await
        .is_some()
    {
        return Redirect::to("/painel").into_response();
    }
    let jurisdictions = match state.store.jurisdictions().await {
        Ok(list) => list
            .into_iter()
            .map(|j| format!("{} ({})", j.name, j.state))
            .collect(),
        Err(error) => {
            tracing::error!(%error, "the jurisdictions could not be read");
            return failure();
        }
    };
    page(
        StatusCode::OK,
        &Home {
            user: None,
            demo: options.demo,
            jurisdictions,
        },
    )
}

#[derive(Template)]
#[template(path = "entrar.html")]
struct SignInPage {
    user: Option<Bar>,
    csrf: String,
    name: String,
    error: Option<String>,
    notice: Option<String>,
}

/// The sign-in form with a fresh token, in its cookie too.
fn sign_in_page(
    headers: &HeaderMap,
    status: StatusCode,
    name: &str,
    error: Option<String>,
) -> Response {
    sign_in_page_with(headers, status, name, error, None)
}

/// The sign-in form, with a notice above it (why the session ended).
fn sign_in_page_with(
    headers: &HeaderMap,
    status: StatusCode,
    name: &str,
    error: Option<String>,
    notice: Option<String>,
) -> Response {
    let token = session::fresh_token();
    let mut answer = page(
        status,
        &SignInPage {
            user: None,
            csrf: token.clone(),
            name: name.to_string(),
            error,
            notice,
        },
    );
    answer.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(headers, SIGN_IN, &token, 3600),
    );
    answer
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct SignInAsked {
    motivo: Option<String>,
}

pub(crate) async fn sign_in_form(
    State(state): State<AppState>,
    Extension(options): Extension<Options>,
    Query(asked): Query<SignInAsked>,
    headers: HeaderMap,
) -> Response {
    if session::signed_in(&headers, &state, &options)
        .await
        .is_some()
    {
        return Redirect::to("/painel").into_response();
    }
    let notice = (asked.motivo.as_deref() == Some("inatividade")).then(|| {
        format!(
            "Sua sessão expirou por inatividade ({} minutos sem uso). Entre de novo para continuar.",
            options.idle_minutes.max(1)
        )
    });
    sign_in_page_with(&headers, StatusCode::OK, "", None, notice)
}

#[derive(Debug, Deserialize)]
pub(crate) struct SignInForm {
    #[serde(default)]
    nome: String,
    #[serde(default)]
    senha: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn sign_in(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    Form(form): Form<SignInForm>,
) -> Response {
    let name = form.nome.trim();
    let expected = cookie(&headers, SIGN_IN).unwrap_or_default();
    if !same(&form.csrf, &expected) {
        return sign_in_page(
            &headers,
            StatusCode::FORBIDDEN,
            name,
            Some("O formulário expirou. Digite o nome e a senha de novo.".into()),
        );
    }
    if name.is_empty() || form.senha.is_empty() {
        return sign_in_page(
            &headers,
            StatusCode::UNPROCESSABLE_ENTITY,
            name,
            Some("Informe o nome de usuário e a senha.".into()),
        );
    }
    if name.chars().count() > MAX_NAME_CHARS || form.senha.chars().count() > MAX_PASSWORD_CHARS {
        return sign_in_page(
            &headers,
            StatusCode::UNPROCESSABLE_ENTITY,
            "",
            Some("Nome ou senha longos demais.".into()),
        );
    }
    let now = state.clock.now();
    let expires = now + chrono::Duration::hours(SESSION_HOURS);
    match state
        .store
        .sign_in(name, &form.senha, client, now, expires)
        .await
    {
        Ok(SignIn::Opened(opened)) => {
            let mut answer = Redirect::to("/painel").into_response();
            let cookies = answer.headers_mut();
            cookies.append(
                header::SET_COOKIE,
                set_cookie(&headers, SESSION, &opened.token, SESSION_HOURS * 3600),
            );
            cookies.append(header::SET_COOKIE, set_cookie(&headers, SIGN_IN, "", 0));
            answer
        }
        Ok(SignIn::Refused) => sign_in_page(
            &headers,
            StatusCode::UNAUTHORIZED,
            name,
            Some("Nome ou senha incorretos.".into()),
        ),
        Ok(SignIn::TooMany { seconds }) => {
            let mut answer = sign_in_page(
                &headers,
                StatusCode::TOO_MANY_REQUESTS,
                name,
                Some(format!(
                    "Tentativas falhas demais. Tente de novo em {seconds} segundos."
                )),
            );
            if let Ok(value) = HeaderValue::from_str(&seconds.unsigned_abs().to_string()) {
                answer.headers_mut().insert(header::RETRY_AFTER, value);
            }
            answer
        }
        Err(StoreError::Busy) => sign_in_page(
            &headers,
            StatusCode::SERVICE_UNAVAILABLE,
            name,
            Some("O sistema está ocupado. Tente de novo em instantes.".into()),
        ),
        Err(error) => {
            tracing::error!(%error, "sign-in failed");
            failure()
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn sign_out(
    State(state): State<AppState>,
    signed: Signed,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    // Anyone signed in may sign out: only the form's token is checked.
    if let Err(refused) = checked_form(&signed, &form.csrf, |_| true) {
        return *refused;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "fim de sessão",
    };
    if let Err(error) = state.store.close_session(&change, &signed.token).await {
        tracing::error!(%error, "the session could not be closed");
        return failure();
    }
    let mut answer = Redirect::to("/").into_response();
    answer
        .headers_mut()
        .append(header::SET_COOKIE, set_cookie(&headers, SESSION, "", 0));
    answer
}

/// One item of a jurisdiction's agenda as the panel shows it.
#[derive(Debug)]
struct Row {
    due: String,
    overdue: bool,
    kind: String,
    subject: String,
    description: String,
    articles: String,
}

/// A jurisdiction's part of the panel.
#[derive(Debug)]
struct Section {
    id: String,
    name: String,
    today: String,
    overdue: usize,
    due_today: usize,
    ahead: usize,
    more: bool,
    rows: Vec<Row>,
    charts: Vec<crate::charts::Chart>,
    /// It regulates intercity buses (its lines and carriers).
    buses: bool,
    /// Its law has fixed stands (their places, swaps and draws).
    stands: bool,
    /// Its law selects new permit holders by a public call.
    calls: bool,
}

#[derive(Template)]
#[template(path = "painel.html")]
struct Panel {
    user: Option<Bar>,
    offers: Offers,
    days: u32,
    sections: Vec<Section>,
}

pub(crate) async fn panel(State(state): State<AppState>, signed: Signed) -> Response {
    let now = state.clock.now();
    let jurisdictions = match state.store.jurisdictions().await {
        Ok(list) => list,
        Err(error) => {
            tracing::error!(%error, "the jurisdictions could not be read");
            return failure();
        }
    };
    let mut sections = Vec::new();
    for j in jurisdictions
        .into_iter()
        .filter(|j| signed.user.scope.allows(&j.id))
    {
        let rulebooks: Vec<_> = state
            .library
            .rulebooks()
            .filter(|r| r.jurisdiction.id == j.id)
            .collect();
        let Some(first) = rulebooks.first() else {
            continue;
        };
        let today = first.jurisdiction.today(now);
        let agenda = match state
            .store
            .agenda(
                &j.id,
                &rulebooks,
                (today, PANEL_DAYS),
                Window::first(PANEL_ITEMS),
            )
            .await
        {
            Ok(agenda) => agenda,
            Err(error) => {
                tracing::error!(%error, jurisdiction = %j.id, "the agenda could not be read");
                return failure();
            }
        };
        let prefix = format!("j{}", sections.len() + 1);
        let charts =
            match crate::charts::of_jurisdiction(&state.store, (&j.id, &prefix), &rulebooks, today)
                .await
            {
                Ok(charts) => charts,
                Err(error) => {
                    tracing::error!(%error, jurisdiction = %j.id, "the charts could not be read");
                    return failure();
                }
            };
        let items = &agenda.items;
        sections.push(Section {
            buses: rulebooks.iter().any(|r| r.bus.is_some()),
            stands: rulebooks.iter().any(|r| r.stands.is_some()),
            calls: rulebooks.iter().any(|r| r.public_call.is_some()),
            id: j.id.clone(),
            name: format!("{} ({})", j.name, j.state),
            today: format::day(today),
            overdue: items.iter().filter(|i| i.overdue).count(),
            due_today: items
                .iter()
                .filter(|i| !i.overdue && i.due == today)
                .count(),
            ahead: items.iter().filter(|i| i.due > today).count(),
            more: agenda.next.is_some(),
            rows: items
                .iter()
                .map(|i| Row {
                    due: format::day(i.due),
                    overdue: i.overdue,
                    kind: i.kind_name().to_string(),
                    subject: i.record_name(),
                    description: i.description.clone(),
                    articles: i.articles.join("; "),
                })
                .collect(),
            charts,
        });
    }
    page(
        StatusCode::OK,
        &Panel {
            user: Some(Bar::of(&signed)),
            offers: Offers::of(&signed),
            days: PANEL_DAYS,
            sections,
        },
    )
}
