//! The people who use a deployment: users with a role and the jurisdictions
//! they may act in, their login sessions and their API tokens.
//!
//! Passwords are kept as Argon2id PHC strings; session and API tokens as the
//! SHA-256 of the token (the token itself is shown once). Every write goes
//! through the audit log in its own transaction, like the registers.

use crate::audit::guard::{agree, unchanged, unchanged_where};
use crate::audit::images::{RowRef, image_of};
use crate::audit::{Change, Entry, append, timestamp};
use crate::password_policy::check_password;
use crate::{Store, StoreError, Tx, refused_if_taken};
use chrono::NaiveDateTime;
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::cmp::Ordering;

/// The longest label of an API token, in characters.
pub const MAX_LABEL_CHARS: usize = 64;

/// The longest user name, in characters.
pub const MAX_USER_NAME_CHARS: usize = 64;

/// The longest an API token may be made to last, in days.
pub const MAX_TOKEN_DAYS: i64 = 3660;

/// What a user may do. Each handler of the web layer names the least roles
/// it admits (see the order below); an administrator may do everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Admin,
    Clerk,
    Inspector,
    Board,
    ReadOnly,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::Admin,
        Role::Clerk,
        Role::Inspector,
        Role::Board,
        Role::ReadOnly,
    ];

    /// The code kept in the database and used on the wire.
    pub fn code(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Clerk => "clerk",
            Role::Inspector => "inspector",
            Role::Board => "board",
            Role::ReadOnly => "read-only",
        }
    }

    /// The name users know it by.
    pub fn label(self) -> &'static str {
        match self {
            Role::Admin => "administrador",
            Role::Clerk => "atendente",
            Role::Inspector => "fiscal",
            Role::Board => "junta/comissão",
            Role::ReadOnly => "consulta",
        }
    }

    /// A role by its code or its Portuguese name (`junta` and `comissão`
    /// both name the appeals board).
    pub fn parse(text: &str) -> Result<Role, StoreError> {
        let wanted = text.trim().to_lowercase();
        let found = Role::ALL.into_iter().find(|role| {
            role.code() == wanted
                || role.label() == wanted
                || role.label().split('/').any(|part| part == wanted)
        });
        found.ok_or_else(|| StoreError::Invalid {
            field: "papel",
            reason: format!(
                "`{text}` não é um papel; use um destes: {}",
                Role::ALL
                    .iter()
                    .map(|r| format!("{} ({})", r.code(), r.label()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }
}

/// Roles are ordered by what they may do, and this is the one place that
/// says so: an administrator is above every other role, read-only (consulta)
/// below every other, and clerk, inspector and board (different jobs, none
/// doing the other's) are not comparable. The web's capabilities admit
/// "at least" some roles, and no one gives a role above their own.
impl PartialOrd for Role {
    fn partial_cmp(&self, other: &Role) -> Option<Ordering> {
        if self == other {
            Some(Ordering::Equal)
        } else if *self == Role::Admin || *other == Role::ReadOnly {
            Some(Ordering::Greater)
        } else if *other == Role::Admin || *self == Role::ReadOnly {
            Some(Ordering::Less)
        } else {
            None
        }
    }
}

/// The jurisdictions a user may act in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    All,
    Only(Vec<String>),
}

impl Scope {
    pub fn allows(&self, jurisdiction: &str) -> bool {
        match self {
            Scope::All => true,
            Scope::Only(list) => list.iter().any(|j| j == jurisdiction),
        }
    }

    /// Whether every jurisdiction of `self` is one of `other`'s: all are
    /// within `All`, and `All` is within nothing else.
    pub fn within(&self, other: &Scope) -> bool {
        match (self, other) {
            (_, Scope::All) => true,
            (Scope::All, Scope::Only(_)) => false,
            (Scope::Only(mine), Scope::Only(theirs)) => mine.iter().all(|j| theirs.contains(j)),
        }
    }

    fn to_column(&self) -> String {
        match self {
            Scope::All => "*".to_string(),
            Scope::Only(list) => serde_json::json!(list).to_string(),
        }
    }

    fn from_column(text: &str) -> Scope {
        if text == "*" {
            Scope::All
        } else {
            // A column this module wrote; anything else grants nothing.
            Scope::Only(serde_json::from_str(text).unwrap_or_default())
        }
    }
}

/// A user as recorded (never with the password).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub name: String,
    pub role: Role,
    pub scope: Scope,
}

impl User {
    /// Whether this user may manage (create, list, disable, set the
    /// password of, see the sign-ins of) a user with `role` and `scope`: a
    /// role not above their own and a scope within theirs, so a user
    /// limited to some jurisdictions never manages an unlimited one. Which
    /// roles manage users at all is the web's capability (administrators).
    pub fn may_manage(&self, role: Role, scope: &Scope) -> bool {
        role <= self.role && scope.within(&self.scope)
    }
}

/// An API token as listed: never the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    pub label: String,
    pub created_at: String,
    pub revoked_at: Option<String>,
    /// From when it is refused, if it expires.
    pub expires_at: Option<String>,
}

/// Seconds between two writes of a session's last use, at most one.
pub const ACTIVITY_STEP_SECONDS: i64 = 60;

/// How a session stands against its idle limit
/// ([`Store::session_activity`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// Used within the limit (this use recorded).
    Active,
    /// Unused for longer than the limit.
    Idle,
}

/// A session just opened: the bearer token (shown once) and its user.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub user: User,
    pub expires_at: NaiveDateTime,
}

/// The SHA-256 of a token, as kept.
fn token_hash(token: &str) -> String {
    format!("{:x}", Sha256::digest(token.as_bytes()))
}

/// A failure of the machine (its random source, a worker thread), not of
/// the input: reported like a database outage.
pub(crate) fn system(what: &str) -> StoreError {
    StoreError::Sql(sqlx::Error::Io(std::io::Error::other(what.to_string())))
}

/// `N` random bytes from the operating system, in hex.
pub(crate) fn random_hex<const N: usize>() -> Result<String, StoreError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|_| system("a fonte de aleatoriedade falhou"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A new random token: 32 bytes in hex, with a prefix that secret scanners
/// can recognise.
fn new_token() -> Result<String, StoreError> {
    Ok(format!("otg_{}", random_hex::<32>()?))
}

pub(crate) fn user_of(row: &sqlx::any::AnyRow) -> Result<User, StoreError> {
    let role: String = row.try_get("role")?;
    let scope: String = row.try_get("jurisdictions")?;
    Ok(User {
        name: row.try_get("name")?,
        role: Role::parse(&role)?,
        scope: Scope::from_column(&scope),
    })
}

fn checked_name(name: &str) -> Result<&str, StoreError> {
    let name = name.trim();
    let invalid = |reason: &str| StoreError::Invalid {
        field: "nome",
        reason: reason.into(),
    };
    if name.is_empty() {
        return Err(invalid("o nome do usuário não pode ficar em branco"));
    }
    if let Some((at, c)) = crate::text::hidden_character(name, false) {
        return Err(invalid(&crate::text::hidden_reason(at, c)));
    }
    if name.chars().count() > MAX_USER_NAME_CHARS
        || name.chars().any(|c| c.is_control() || c.is_whitespace())
    {
        return Err(invalid(&format!(
            "use até {MAX_USER_NAME_CHARS} caracteres, sem espaços (por exemplo, ana.souza)"
        )));
    }
    Ok(name)
}

impl Store {
    /// Records a user; a blank or taken name, a password the policy
    /// refuses ([`check_password`]) or an unknown jurisdiction is refused.
    pub async fn create_user(
        &self,
        change: &Change<'_>,
        name: &str,
        role: Role,
        password: &str,
        scope: &Scope,
    ) -> Result<User, StoreError> {
        let name = checked_name(name)?;
        check_password(name, password)?;
        if scope == &Scope::Only(Vec::new()) {
            return Err(StoreError::Invalid {
                field: "jurisdições",
                reason: "informe ao menos uma jurisdição, ou nenhuma restrição (todas)".into(),
            });
        }
        let phc = self.hashing.admit()?.hash(password.to_string()).await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        if let Scope::Only(list) = scope {
            for jurisdiction in list {
                self.known_jurisdiction(&mut tx, jurisdiction).await?;
            }
        }
        sqlx::query(
            "INSERT INTO users (name, role, password_hash, jurisdictions, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(name)
        .bind(role.code())
        .bind(&phc)
        .bind(scope.to_column())
        .bind(timestamp(change.at))
        .execute(&mut *tx)
        .await
        .map_err(|e| refused_if_taken(e, "nome", format!("o usuário `{name}` já existe")))?;
        let owner = scope_of(&mut tx, name).await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "user.create",
                jurisdiction: home(&owner),
                subject: &format!("user:{name}"),
                detail: serde_json::json!({ "role": role.code(), "jurisdictions": scope.to_column() }),
                rows: vec![RowRef::new("users", [name.into()])],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(User {
            name: name.to_string(),
            role,
            scope: scope.clone(),
        })
    }

    /// Disables a user: they can no longer sign in, their sessions end and
    /// their tokens are revoked. No one disables themselves (the last
    /// administrator would lock everyone out).
    pub async fn disable_user(&self, change: &Change<'_>, name: &str) -> Result<(), StoreError> {
        let name = name.trim();
        if name == change.by {
            return Err(StoreError::Invalid {
                field: "nome",
                reason: "um usuário não desativa a si mesmo".into(),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new("users", [name.into()])],
        )
        .await?;
        unchanged_where(
            &mut tx,
            &self.audit.schema,
            "api_tokens",
            "user_name = $1 AND revoked_at IS NULL",
            &[name.into()],
        )
        .await?;
        let done = sqlx::query(
            "UPDATE users SET disabled_at = $2 WHERE name = $1 AND disabled_at IS NULL",
        )
        .bind(name)
        .bind(timestamp(change.at))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!(
                "não há usuário ativo `{name}`"
            )));
        }
        let mut rows = end_sessions(&mut tx, "user_name = $1", name, None).await?;
        rows.push(RowRef::new("users", [name.into()]));
        for row in sqlx::query(
            "UPDATE api_tokens SET revoked_at = $2 WHERE user_name = $1 AND revoked_at IS NULL \
             RETURNING label",
        )
        .bind(name)
        .bind(timestamp(change.at))
        .fetch_all(&mut *tx)
        .await?
        {
            let label: String = row.try_get("label")?;
            rows.push(RowRef::new("api_tokens", [name.into(), label.into()]));
        }
        let owner = scope_of(&mut tx, name).await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "user.disable",
                jurisdiction: home(&owner),
                subject: &format!("user:{name}"),
                detail: serde_json::json!({}),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Sets a user's password (the sessions they had end); the policy
    /// ([`check_password`]) applies.
    pub async fn set_password(
        &self,
        change: &Change<'_>,
        name: &str,
        password: &str,
    ) -> Result<(), StoreError> {
        let name = name.trim();
        check_password(name, password)?;
        let phc = self.hashing.admit()?.hash(password.to_string()).await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new("users", [name.into()])],
        )
        .await?;
        let done = sqlx::query(
            "UPDATE users SET password_hash = $2 WHERE name = $1 AND disabled_at IS NULL",
        )
        .bind(name)
        .bind(&phc)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!(
                "não há usuário ativo `{name}`"
            )));
        }
        let mut rows = end_sessions(&mut tx, "user_name = $1", name, None).await?;
        rows.push(RowRef::new("users", [name.into()]));
        let owner = scope_of(&mut tx, name).await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "user.password",
                jurisdiction: home(&owner),
                subject: &format!("user:{name}"),
                detail: serde_json::json!({}),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every active user, by name.
    pub async fn users(&self) -> Result<Vec<User>, StoreError> {
        let rows = sqlx::query(
            "SELECT name, role, jurisdictions FROM users WHERE disabled_at IS NULL ORDER BY name",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(user_of).collect()
    }

    /// The active user with this name, if any.
    pub async fn user(&self, name: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(
            "SELECT name, role, jurisdictions FROM users WHERE name = $1 AND disabled_at IS NULL",
        )
        .bind(name.trim())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user_of).transpose()
    }

    /// The active user `name` and the PHC string of their password.
    pub(crate) async fn credentials(
        &self,
        name: &str,
    ) -> Result<Option<(User, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT name, role, jurisdictions, password_hash FROM users WHERE name = $1 AND disabled_at IS NULL",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| Ok((user_of(&row)?, row.try_get("password_hash")?)))
            .transpose()
    }

    /// Opens a session for `user` in `tx` (whose password was just checked): a
    /// new bearer token valid until `expires_at`. `at` is now.
    pub(crate) async fn start_session(
        &self,
        tx: &mut Tx,
        user: User,
        at: NaiveDateTime,
        expires_at: NaiveDateTime,
    ) -> Result<Session, StoreError> {
        let token = new_token()?;
        // Expired sessions of this user are of no more use.
        let mut rows = end_sessions(
            tx,
            "user_name = $1 AND expires_at <= $2",
            &user.name,
            Some(timestamp(at)),
        )
        .await?;
        rows.push(RowRef::new("sessions", [token_hash(&token).into()]));
        sqlx::query(
            "INSERT INTO sessions (hash, user_name, created_at, expires_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash(&token))
        .bind(&user.name)
        .bind(timestamp(at))
        .bind(timestamp(expires_at))
        .execute(&mut **tx)
        .await?;
        sqlx::query("INSERT INTO session_activity (hash, last_used_at) VALUES ($1, $2)")
            .bind(token_hash(&token))
            .bind(timestamp(at))
            .execute(&mut **tx)
            .await?;
        let change = Change {
            by: &user.name,
            at,
            why: "início de sessão",
        };
        append(
            tx,
            &self.audit,
            &change,
            Entry {
                action: "session.open",
                jurisdiction: home(&user.scope),
                subject: &format!("user:{}", user.name),
                detail: serde_json::json!({ "expires_at": timestamp(expires_at) }),
                rows,
            },
        )
        .await?;
        Ok(Session {
            token,
            user,
            expires_at,
        })
    }

    /// Whether the session of `token` was used within `idle` before `now`
    /// ([`Activity::Idle`] when not: the pages refuse it), recording this
    /// use. The last use is kept in `session_activity`, not in the audited
    /// `sessions`, and written at most once per [`ACTIVITY_STEP_SECONDS`]
    /// (a later write only moves it forward, so servers sharing the
    /// database agree). A session without a recorded use (opened before
    /// the record existed) counts as used now.
    pub async fn session_activity(
        &self,
        token: &str,
        now: NaiveDateTime,
        idle: chrono::Duration,
    ) -> Result<Activity, StoreError> {
        let hash = token_hash(token);
        let last: Option<String> =
            sqlx::query("SELECT last_used_at FROM session_activity WHERE hash = $1")
                .bind(&hash)
                .fetch_optional(&self.pool)
                .await?
                .map(|row| row.try_get("last_used_at"))
                .transpose()?;
        // The kept form sorts as time does: compared as text.
        let Some(last) = last else {
            sqlx::query(
                "INSERT INTO session_activity (hash, last_used_at) VALUES ($1, $2) \
                 ON CONFLICT (hash) DO NOTHING",
            )
            .bind(&hash)
            .bind(timestamp(now))
            .execute(&self.pool)
            .await?;
            return Ok(Activity::Active);
        };
        if last <= timestamp(now - idle) {
            return Ok(Activity::Idle);
        }
        let step = timestamp(now - chrono::Duration::seconds(ACTIVITY_STEP_SECONDS));
        if last < step {
            sqlx::query(
                "UPDATE session_activity SET last_used_at = $1 \
                 WHERE hash = $2 AND last_used_at < $3",
            )
            .bind(timestamp(now))
            .bind(&hash)
            .bind(&step)
            .execute(&self.pool)
            .await?;
        }
        Ok(Activity::Active)
    }

    /// Ends the session of `token` (a logout); `false` if there was none.
    pub async fn close_session(
        &self,
        change: &Change<'_>,
        token: &str,
    ) -> Result<bool, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let closed = end_sessions(&mut tx, "hash = $1", &token_hash(token), None).await?;
        if closed.is_empty() {
            return Ok(false);
        }
        let owner = scope_of(&mut tx, change.by).await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "session.close",
                jurisdiction: home(&owner),
                subject: &format!("user:{}", change.by),
                detail: serde_json::json!({}),
                rows: closed,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The user a bearer token stands for at `now`: an open session or an
    /// API token that was not revoked and has not expired — and whose row,
    /// and the user's, are what the audit log last recorded of them (a
    /// session inserted, or a role raised, outside outorga authenticates no
    /// one: [`StoreError::Tampered`]).
    pub async fn authenticate(
        &self,
        token: &str,
        now: NaiveDateTime,
    ) -> Result<Option<User>, StoreError> {
        let hash = token_hash(token);
        let sessions = self.audit.schema.table("sessions")?;
        let tokens = self.audit.schema.table("api_tokens")?;
        let session = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {} FROM sessions WHERE hash = $1 AND expires_at > $2",
            sessions.column_list()
        )))
        .bind(&hash)
        .bind(timestamp(now))
        .fetch_optional(&self.pool)
        .await?;
        let (credential, table, owner) = match session {
            Some(row) => (row, sessions, "user_name"),
            None => {
                let api = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM api_tokens WHERE hash = $1 AND revoked_at IS NULL \
                     AND (expires_at IS NULL OR expires_at > $2)",
                    tokens.column_list()
                )))
                .bind(&hash)
                .bind(timestamp(now))
                .fetch_optional(&self.pool)
                .await?;
                match api {
                    Some(row) => (row, tokens, "user_name"),
                    None => return Ok(None),
                }
            }
        };
        let name: String = credential.try_get(owner)?;
        let users = self.audit.schema.table("users")?;
        let Some(user) = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {} FROM users WHERE name = $1 AND disabled_at IS NULL",
            users.column_list()
        )))
        .bind(&name)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        agree(&self.pool, table, &[image_of(table, &credential)?]).await?;
        agree(&self.pool, users, &[image_of(users, &user)?]).await?;
        user_of(&user).map(Some)
    }

    /// A new API token for `user`, named `label` (unique per user, up to
    /// [`MAX_LABEL_CHARS`] characters), refused from `expires_at` on if
    /// given (after now and at most [`MAX_TOKEN_DAYS`] ahead): the token is
    /// returned once; only its hash is kept.
    pub async fn create_token(
        &self,
        change: &Change<'_>,
        user: &str,
        label: &str,
        expires_at: Option<NaiveDateTime>,
    ) -> Result<String, StoreError> {
        let label = label.trim();
        if let Some((at, c)) = crate::text::hidden_character(label, false) {
            return Err(StoreError::Invalid {
                field: "rótulo",
                reason: crate::text::hidden_reason(at, c),
            });
        }
        if label.is_empty() || label.chars().count() > MAX_LABEL_CHARS {
            return Err(StoreError::Invalid {
                field: "rótulo",
                reason: format!(
                    "dê ao token um nome de até {MAX_LABEL_CHARS} caracteres \
                     (por exemplo, integração-detran)"
                ),
            });
        }
        if let Some(expires) = expires_at
            && (expires <= change.at
                || expires > change.at + chrono::Duration::days(MAX_TOKEN_DAYS))
        {
            return Err(StoreError::Invalid {
                field: "expira_em",
                reason: format!(
                    "a validade do token precisa terminar depois de agora e em até \
                     {MAX_TOKEN_DAYS} dias"
                ),
            });
        }
        let token = new_token()?;
        let (mut tx, _writer) = self.write_transaction().await?;
        known_user(&mut tx, user).await?;
        sqlx::query(
            "INSERT INTO api_tokens (user_name, label, hash, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(user)
        .bind(label)
        .bind(token_hash(&token))
        .bind(timestamp(change.at))
        .bind(expires_at.map(timestamp))
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            refused_if_taken(
                e,
                "rótulo",
                format!("o usuário `{user}` já tem um token chamado `{label}`"),
            )
        })?;
        let owner = scope_of(&mut tx, user).await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "token.create",
                jurisdiction: home(&owner),
                subject: &format!("user:{user}"),
                detail: serde_json::json!({ "label": label }),
                rows: vec![RowRef::new("api_tokens", [user.into(), label.into()])],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(token)
    }

    /// The API tokens of `user`, by label.
    pub async fn tokens(&self, user: &str) -> Result<Vec<TokenInfo>, StoreError> {
        let rows = sqlx::query(
            "SELECT label, created_at, revoked_at, expires_at FROM api_tokens \
             WHERE user_name = $1 ORDER BY label",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(TokenInfo {
                    label: row.try_get("label")?,
                    created_at: row.try_get("created_at")?,
                    revoked_at: row.try_get("revoked_at")?,
                    expires_at: row.try_get("expires_at")?,
                })
            })
            .collect()
    }

    /// Revokes `user`'s token `label`; `false` if there is no such token
    /// still in force.
    pub async fn revoke_token(
        &self,
        change: &Change<'_>,
        user: &str,
        label: &str,
    ) -> Result<bool, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new("api_tokens", [user.into(), label.into()])],
        )
        .await?;
        let revoked = sqlx::query(
            "UPDATE api_tokens SET revoked_at = $1 \
             WHERE user_name = $2 AND label = $3 AND revoked_at IS NULL",
        )
        .bind(timestamp(change.at))
        .bind(user)
        .bind(label)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if revoked == 0 {
            return Ok(false);
        }
        let owner = scope_of(&mut tx, user).await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "token.revoke",
                jurisdiction: home(&owner),
                subject: &format!("user:{user}"),
                detail: serde_json::json!({ "label": label }),
                rows: vec![RowRef::new("api_tokens", [user.into(), label.into()])],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// The jurisdiction an entry about a user belongs to: the one of a user
/// limited to exactly one (so that jurisdiction's staff read it in the log);
/// none for a user of several or of all.
fn home(scope: &Scope) -> Option<&str> {
    match scope {
        Scope::Only(list) if list.len() == 1 => Some(list[0].as_str()),
        _ => None,
    }
}

/// The scope of user `name`, as recorded (all, when there is no such user).
async fn scope_of(tx: &mut Tx, name: &str) -> Result<Scope, StoreError> {
    let row = sqlx::query("SELECT jurisdictions FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(match row {
        Some(row) => Scope::from_column(&row.try_get::<String, _>("jurisdictions")?),
        None => Scope::All,
    })
}

/// Ends the sessions `condition` selects (`$1` the user's name, `$2` when
/// given): the rows deleted, for the entry that records it.
async fn end_sessions(
    tx: &mut Tx,
    condition: &str,
    name: &str,
    at: Option<String>,
) -> Result<Vec<RowRef>, StoreError> {
    let mut query = sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM sessions WHERE {condition} RETURNING hash"
    )))
    .bind(name);
    if let Some(at) = at {
        query = query.bind(at);
    }
    let hashes = query
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|row| row.try_get::<String, _>("hash"))
        .collect::<Result<Vec<_>, _>>()?;
    // Their last use goes with them (not a record: not audited).
    for hash in &hashes {
        sqlx::query("DELETE FROM session_activity WHERE hash = $1")
            .bind(hash)
            .execute(&mut **tx)
            .await?;
    }
    Ok(hashes
        .into_iter()
        .map(|hash| RowRef::new("sessions", [hash.into()]))
        .collect())
}

async fn known_user(tx: &mut Tx, name: &str) -> Result<(), StoreError> {
    let known = sqlx::query("SELECT 1 AS one FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut **tx)
        .await?;
    match known {
        Some(_) => Ok(()),
        None => Err(StoreError::Invalid {
            field: "usuário",
            reason: format!("o usuário `{name}` não existe"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{Role, Scope, User};

    #[test]
    fn roles_by_code_or_portuguese_name() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.code()).ok(), Some(role));
            assert_eq!(Role::parse(role.label()).ok(), Some(role));
        }
        assert_eq!(Role::parse(" Junta ").ok(), Some(Role::Board));
        assert_eq!(Role::parse("comissão").ok(), Some(Role::Board));
        assert!(Role::parse("prefeito").is_err());
    }

    #[test]
    fn roles_are_ordered_by_what_they_may_do() {
        for role in Role::ALL {
            assert!(role <= Role::Admin && role >= Role::ReadOnly, "{role:?}");
        }
        let jobs = [Role::Clerk, Role::Inspector, Role::Board];
        for a in jobs {
            for b in jobs.into_iter().filter(|b| *b != a) {
                assert_eq!(a.partial_cmp(&b), None, "{a:?} {b:?}");
            }
        }
        assert!(Role::Clerk > Role::ReadOnly && Role::Admin > Role::Board);
    }

    #[test]
    fn a_user_manages_within_their_role_and_scope() {
        let only = |list: &[&str]| Scope::Only(list.iter().map(|j| j.to_string()).collect());
        let chefe = User {
            name: "chefe".into(),
            role: Role::Admin,
            scope: only(&["cangucu"]),
        };
        assert!(chefe.may_manage(Role::Admin, &only(&["cangucu"])));
        assert!(!chefe.may_manage(Role::Clerk, &Scope::All));
        assert!(!chefe.may_manage(Role::Clerk, &only(&["cangucu", "amapa"])));
        let clerk = User {
            name: "ana".into(),
            role: Role::Clerk,
            scope: Scope::All,
        };
        assert!(clerk.may_manage(Role::ReadOnly, &only(&["amapa"])));
        assert!(!clerk.may_manage(Role::Inspector, &Scope::All));
        assert!(!clerk.may_manage(Role::Admin, &Scope::All));
        assert!(Scope::All.within(&Scope::All) && !Scope::All.within(&only(&["amapa"])));
    }

    #[test]
    fn scopes_round_trip() {
        for scope in [Scope::All, Scope::Only(vec!["cangucu".into()])] {
            assert_eq!(Scope::from_column(&scope.to_column()), scope);
        }
        assert!(!Scope::Only(vec!["cangucu".into()]).allows("amapa"));
        assert!(Scope::All.allows("amapa"));
    }
}
