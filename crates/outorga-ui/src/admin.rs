//! The administration of users, for administrators: the users they
//! manage with role and jurisdictions, creating one (the password by the
//! store's policy, refusals next to the field), and a user's page —
//! their API tokens (made, shown once, revoked), a new password, removal.
//! Who manages whom, and who makes whose token, is the API's rule
//! (`outorga_web::workflows`: `managed_by`, `may_make_token_for`); every
//! change is audited by the store as the API's are.
//!
//! Users are few: the list reads them all at once (`managed_users`, as
//! `GET /api/users`), without pages.

use crate::autos::form_error;
use crate::pages::{Bar, failure, page};
use crate::place::refusal;
use crate::session::{Signed, admin_only, checked_form};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, Role, Scope, TokenInfo, User};
use outorga_web::auth::Admin;
use outorga_web::workflows::{
    TokenEntrada, UsuarioEntrada, create_user, make_token, managed_by, managed_users,
    may_make_token_for,
};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// Why the administration of users refuses other roles.
const ADMINS_ONLY: &str = "A administração de usuários é feita por administradores.";

/// A user's jurisdictions as read.
pub(crate) fn scope_text(scope: &Scope) -> String {
    match scope {
        Scope::All => "todas".to_string(),
        Scope::Only(list) => list.join(", "),
    }
}

#[derive(Debug)]
struct UserRow {
    name: String,
    role: &'static str,
    scope: String,
}

impl UserRow {
    fn of(user: &User) -> UserRow {
        UserRow {
            name: user.name.clone(),
            role: user.role.label(),
            scope: scope_text(&user.scope),
        }
    }
}

/// A choice of the form: value, label, chosen.
#[derive(Debug)]
struct Pick {
    value: String,
    label: String,
    chosen: bool,
}

/// What the creation form was sent with, to show it again.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct NewUser {
    #[serde(default)]
    nome: String,
    #[serde(default)]
    papel: String,
    /// `todas` or `algumas`.
    #[serde(default)]
    alcance: String,
    /// The jurisdictions ticked (the form sends one `jurisdicoes` per box).
    #[serde(default)]
    jurisdicoes: Vec<String>,
    #[serde(default)]
    senha: String,
    #[serde(default)]
    csrf: String,
}

#[derive(Template)]
#[template(path = "usuarios.html")]
struct UsersPage {
    user: Option<Bar>,
    rows: Vec<UserRow>,
    notice: Option<String>,
    name: String,
    roles: Vec<Pick>,
    /// The admin may give every jurisdiction (they have them all).
    all_allowed: bool,
    all_chosen: bool,
    jurisdictions: Vec<Pick>,
    /// A refusal of the creation form: (field, message).
    error: Option<(String, String)>,
}

impl UsersPage {
    fn error_on(&self, field: &str) -> Option<&str> {
        match &self.error {
            Some((f, message)) if f == field => Some(message.as_str()),
            _ => None,
        }
    }

    /// A refusal of no field of the form.
    fn general_error(&self) -> Option<&str> {
        match &self.error {
            Some((f, message))
                if !["nome", "papel", "jurisdicoes", "senha"].contains(&f.as_str()) =>
            {
                Some(message.as_str())
            }
            _ => None,
        }
    }
}

/// The field of the creation form a store refusal names.
fn user_field(error: &ApiError) -> String {
    match error.body.campo.as_deref().unwrap_or("") {
        "jurisdições" | "jurisdicoes" | "jurisdição" => "jurisdicoes".into(),
        other => other.to_string(),
    }
}

async fn users_page(
    state: &AppState,
    signed: &Signed,
    status: StatusCode,
    (form, notice, error): (NewUser, Option<String>, Option<(String, String)>),
) -> Response {
    let users = match managed_users(state, &signed.user).await {
        Ok(users) => users,
        Err(error) => {
            tracing::error!(erro = %error.body.erro, "the users could not be read");
            return failure();
        }
    };
    let known = match state.store.jurisdictions().await {
        Ok(list) => list,
        Err(error) => {
            tracing::error!(%error, "the jurisdictions could not be read");
            return failure();
        }
    };
    let me = &signed.user;
    let chosen_role = if form.papel.is_empty() {
        Role::Clerk.code().to_string()
    } else {
        form.papel.clone()
    };
    page(
        status,
        &UsersPage {
            user: Some(Bar::of(signed)),
            rows: users.iter().map(UserRow::of).collect(),
            notice,
            name: form.nome,
            // Only the roles this administrator may give (none above theirs).
            roles: Role::ALL
                .into_iter()
                .filter(|r| *r <= me.role)
                .map(|r| Pick {
                    value: r.code().to_string(),
                    label: r.label().to_string(),
                    chosen: r.code() == chosen_role,
                })
                .collect(),
            all_allowed: me.scope == Scope::All,
            all_chosen: me.scope == Scope::All && form.alcance != "algumas",
            jurisdictions: known
                .into_iter()
                .filter(|j| me.scope.allows(&j.id))
                .map(|j| Pick {
                    chosen: form.jurisdicoes.contains(&j.id),
                    label: format!("{} ({})", j.name, j.state),
                    value: j.id,
                })
                .collect(),
            error,
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Done {
    feito: Option<String>,
    usuario: Option<String>,
}

pub(crate) async fn users(
    State(state): State<AppState>,
    signed: Signed,
    Query(done): Query<Done>,
) -> Response {
    if let Err(refused) = admin_only(&signed, ADMINS_ONLY) {
        return *refused;
    }
    let who = done.usuario.unwrap_or_default();
    let notice = match done.feito.as_deref() {
        Some("criado") => Some(format!("Usuário {who} cadastrado.")),
        Some("removido") => Some(format!(
            "Usuário {who} removido: não entra mais, e suas sessões e tokens terminaram."
        )),
        _ => None,
    };
    users_page(
        &state,
        &signed,
        StatusCode::OK,
        (NewUser::default(), notice, None),
    )
    .await
}

/// The form's body: `jurisdicoes` may come several times, which
/// `serde_urlencoded` reads only as pairs.
pub(crate) fn new_user_of(body: &str) -> NewUser {
    let mut form = NewUser::default();
    for (key, value) in form_urlencoded::parse(body.as_bytes()) {
        let value = value.into_owned();
        match key.as_ref() {
            "nome" => form.nome = value,
            "papel" => form.papel = value,
            "alcance" => form.alcance = value,
            "jurisdicoes" => form.jurisdicoes.push(value),
            "senha" => form.senha = value,
            "csrf" => form.csrf = value,
            _ => {}
        }
    }
    form
}

pub(crate) async fn create(
    State(state): State<AppState>,
    signed: Signed,
    body: String,
) -> Response {
    let mut form = new_user_of(&body);
    if let Err(refused) = checked_form(&signed, &form.csrf, Admin::admits) {
        return *refused;
    }
    let bad = |form: NewUser, field: &str, message: &str| {
        (form, None, Some((field.to_string(), message.to_string())))
    };
    if form.alcance == "algumas" && form.jurisdicoes.is_empty() {
        let shown = bad(
            form,
            "jurisdicoes",
            "Marque ao menos uma jurisdição, ou escolha todas.",
        );
        return users_page(&state, &signed, StatusCode::UNPROCESSABLE_ENTITY, shown).await;
    }
    let input = UsuarioEntrada {
        nome: form.nome.trim().to_string(),
        papel: form.papel.clone(),
        senha: std::mem::take(&mut form.senha),
        jurisdicoes: (form.alcance != "todas").then(|| form.jurisdicoes.clone()),
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "cadastro de usuário pela tela",
    };
    match create_user(&state, &signed.user, &change, input).await {
        Ok(user) => Redirect::to(&format!(
            "/admin/usuarios?feito=criado&usuario={}",
            crate::forms::query_text(&user.name)
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a user could not be created");
            failure()
        }
        Err(error) => {
            let field = user_field(&error);
            let message = form_error(&error).1;
            let status = error.status;
            users_page(
                &state,
                &signed,
                status,
                (form, None, Some((field, message))),
            )
            .await
        }
    }
}

#[derive(Debug)]
struct TokenRow {
    label: String,
    created: String,
    expires: String,
    state: &'static str,
    in_force: bool,
}

/// A kept timestamp (`2026-11-30T15:00:00.000000Z`) as `30/11/2026 15:00 UTC`.
fn moment(text: &str) -> String {
    chrono::NaiveDateTime::parse_from_str(text.trim_end_matches('Z'), "%Y-%m-%dT%H:%M:%S%.f")
        .map_or_else(
            |_| text.to_string(),
            |at| at.format("%d/%m/%Y %H:%M UTC").to_string(),
        )
}

impl TokenRow {
    fn of(token: &TokenInfo, now: &str) -> TokenRow {
        let expired = token.expires_at.as_deref().is_some_and(|at| at <= now);
        let (state, in_force) = match (&token.revoked_at, expired) {
            (Some(_), _) => ("revogado", false),
            (None, true) => ("vencido", false),
            (None, false) => ("em vigor", true),
        };
        TokenRow {
            label: token.label.clone(),
            created: moment(&token.created_at),
            expires: token
                .expires_at
                .as_deref()
                .map_or_else(|| "não vence".to_string(), moment),
            state,
            in_force,
        }
    }
}

#[derive(Template)]
#[template(path = "usuario.html")]
struct UserPage {
    user: Option<Bar>,
    row: UserRow,
    tokens: Vec<TokenRow>,
    /// This administrator may make tokens for the user.
    maker: bool,
    notice: Option<String>,
    /// A token just made: (label, token), shown once.
    made: Option<(String, String)>,
    /// A refusal: (form, field, message).
    error: Option<(&'static str, String, String)>,
}

impl UserPage {
    fn error_of(&self, form: &str) -> Option<&str> {
        match &self.error {
            Some((f, _, message)) if *f == form => Some(message.as_str()),
            _ => None,
        }
    }

    fn invalid(&self, form: &str, field: &str) -> bool {
        matches!(&self.error, Some((f, name, _)) if *f == form && name == field)
    }
}

/// What the user's page shows besides the user.
struct Shown {
    status: StatusCode,
    notice: Option<String>,
    made: Option<(String, String)>,
    error: Option<(&'static str, String, String)>,
}

impl Shown {
    fn plain() -> Shown {
        Shown {
            status: StatusCode::OK,
            notice: None,
            made: None,
            error: None,
        }
    }

    fn refused(form: &'static str, error: &ApiError) -> Shown {
        let (field, message) = form_error(error);
        Shown {
            status: error.status,
            notice: None,
            made: None,
            error: Some((form, field, message)),
        }
    }
}

/// The user `name` as `signed` manages them, or the page that says there
/// is none (404, as the API: a limited administrator does not learn which
/// names exist elsewhere).
async fn managed(state: &AppState, signed: &Signed, name: &str) -> Result<User, Box<Response>> {
    admin_only(signed, ADMINS_ONLY)?;
    match managed_by(state, &signed.user, name).await {
        Ok(user) => Ok(user),
        Err(error) if error.status == StatusCode::NOT_FOUND => Err(Box::new(refusal(
            signed,
            StatusCode::NOT_FOUND,
            "Usuário não encontrado",
            &format!("Não há usuário ativo «{name}» entre os que você administra."),
        ))),
        Err(error) => {
            tracing::error!(erro = %error.body.erro, "a user could not be read");
            Err(Box::new(failure()))
        }
    }
}

async fn user_page(state: &AppState, signed: &Signed, user: &User, shown: Shown) -> Response {
    let tokens = match state.store.tokens(&user.name).await {
        Ok(tokens) => tokens,
        Err(error) => {
            tracing::error!(%error, "the tokens could not be read");
            return failure();
        }
    };
    let now = state
        .clock
        .now()
        .format("%Y-%m-%dT%H:%M:%S%.6fZ")
        .to_string();
    let made = shown.made.is_some();
    let mut answer = page(
        shown.status,
        &UserPage {
            user: Some(Bar::of(signed)),
            row: UserRow::of(user),
            tokens: tokens.iter().map(|t| TokenRow::of(t, &now)).collect(),
            maker: may_make_token_for(&signed.user, &user.name).is_ok(),
            notice: shown.notice,
            made: shown.made,
            error: shown.error,
        },
    );
    if made {
        // The token is shown once: no cache keeps the page.
        answer
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    answer
}

pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Path(name): Path<String>,
    Query(done): Query<Done>,
) -> Response {
    let user = match managed(&state, &signed, &name).await {
        Ok(user) => user,
        Err(refused) => return *refused,
    };
    let notice = match done.feito.as_deref() {
        Some("senha") => Some("Senha trocada; as sessões do usuário terminaram.".to_string()),
        Some("revogado") => Some("Token revogado.".to_string()),
        _ => None,
    };
    user_page(
        &state,
        &signed,
        &user,
        Shown {
            notice,
            ..Shown::plain()
        },
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct PasswordAsked {
    #[serde(default)]
    senha: String,
    #[serde(default)]
    confirmacao: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn set_password(
    State(state): State<AppState>,
    signed: Signed,
    Path(name): Path<String>,
    Form(asked): Form<PasswordAsked>,
) -> Response {
    if let Err(refused) = checked_form(&signed, &asked.csrf, Admin::admits) {
        return *refused;
    }
    let user = match managed(&state, &signed, &name).await {
        Ok(user) => user,
        Err(refused) => return *refused,
    };
    if asked.senha != asked.confirmacao {
        let shown = Shown {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            error: Some((
                "senha",
                "confirmacao".into(),
                "A confirmação não é igual à nova senha.".into(),
            )),
            ..Shown::plain()
        };
        return user_page(&state, &signed, &user, shown).await;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "senha trocada pelo administrador na tela",
    };
    match state
        .store
        .set_password(&change, &user.name, &asked.senha)
        .await
        .map_err(ApiError::from)
    {
        Ok(()) => Redirect::to(&format!(
            "/admin/usuarios/{}?feito=senha",
            crate::forms::query_text(&user.name)
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a password could not be set");
            failure()
        }
        Err(error) => user_page(&state, &signed, &user, Shown::refused("senha", &error)).await,
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RemovalAsked {
    confirmo: Option<String>,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn remove(
    State(state): State<AppState>,
    signed: Signed,
    Path(name): Path<String>,
    Form(asked): Form<RemovalAsked>,
) -> Response {
    if let Err(refused) = checked_form(&signed, &asked.csrf, Admin::admits) {
        return *refused;
    }
    let user = match managed(&state, &signed, &name).await {
        Ok(user) => user,
        Err(refused) => return *refused,
    };
    if asked.confirmo.is_none() {
        let shown = Shown {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            error: Some((
                "remocao",
                "confirmo".into(),
                "Marque a confirmação para remover o usuário.".into(),
            )),
            ..Shown::plain()
        };
        return user_page(&state, &signed, &user, shown).await;
    }
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "usuário removido pelo administrador na tela",
    };
    match state
        .store
        .disable_user(&change, &user.name)
        .await
        .map_err(ApiError::from)
    {
        Ok(()) => Redirect::to(&format!(
            "/admin/usuarios?feito=removido&usuario={}",
            crate::forms::query_text(&user.name)
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a user could not be removed");
            failure()
        }
        Err(error) => user_page(&state, &signed, &user, Shown::refused("remocao", &error)).await,
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct TokenAsked {
    #[serde(default)]
    rotulo: String,
    #[serde(default)]
    expira_em: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn new_token(
    State(state): State<AppState>,
    signed: Signed,
    Path(name): Path<String>,
    Form(asked): Form<TokenAsked>,
) -> Response {
    if let Err(refused) = checked_form(&signed, &asked.csrf, Admin::admits) {
        return *refused;
    }
    if let Err(error) = may_make_token_for(&signed.user, name.trim()) {
        return refusal(
            &signed,
            StatusCode::FORBIDDEN,
            "Ação não permitida",
            &form_error(&error).1,
        );
    }
    let user = match managed(&state, &signed, &name).await {
        Ok(user) => user,
        Err(refused) => return *refused,
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "token de API criado pela tela",
    };
    let input = TokenEntrada {
        rotulo: asked.rotulo,
        expira_em: Some(asked.expira_em).filter(|d| !d.trim().is_empty()),
    };
    match make_token(&state, &change, &user.name, &input).await {
        Ok(made) => {
            let shown = Shown {
                status: StatusCode::CREATED,
                made: Some((made.rotulo, made.token)),
                ..Shown::plain()
            };
            user_page(&state, &signed, &user, shown).await
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a token could not be made");
            failure()
        }
        Err(error) => user_page(&state, &signed, &user, Shown::refused("token", &error)).await,
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RevokeAsked {
    #[serde(default)]
    rotulo: String,
    #[serde(default)]
    csrf: String,
}

pub(crate) async fn revoke_token(
    State(state): State<AppState>,
    signed: Signed,
    Path(name): Path<String>,
    Form(asked): Form<RevokeAsked>,
) -> Response {
    if let Err(refused) = checked_form(&signed, &asked.csrf, Admin::admits) {
        return *refused;
    }
    let user = match managed(&state, &signed, &name).await {
        Ok(user) => user,
        Err(refused) => return *refused,
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "token de API revogado pela tela",
    };
    match state
        .store
        .revoke_token(&change, &user.name, &asked.rotulo)
        .await
    {
        Ok(true) => Redirect::to(&format!(
            "/admin/usuarios/{}?feito=revogado",
            crate::forms::query_text(&user.name)
        ))
        .into_response(),
        Ok(false) => {
            let shown = Shown {
                status: StatusCode::NOT_FOUND,
                error: Some((
                    "revogacao",
                    "rotulo".into(),
                    format!(
                        "O usuário {} não tem um token «{}» em vigor.",
                        user.name, asked.rotulo
                    ),
                )),
                ..Shown::plain()
            };
            user_page(&state, &signed, &user, shown).await
        }
        Err(error) => {
            let error = ApiError::from(error);
            if error.status.is_server_error() {
                tracing::error!(erro = %error.body.erro, "a token could not be revoked");
                return failure();
            }
            user_page(&state, &signed, &user, Shown::refused("revogacao", &error)).await
        }
    }
}
