//! Signing in, with limits against guessing.
//!
//! Every attempt whose password is checked is recorded: when, the user name
//! as typed (trimmed), the client's address, and whether it succeeded.
//! Before a password is checked (hashed), the failures of the last
//! [`WINDOW_SECONDS`] are counted: [`FAILURES_PER_NAME`] for the name from
//! this client's network, [`FAILURES_PER_CLIENT`] for the client (its
//! address; for IPv6 its /64, which one machine usually has whole), or
//! [`FAILURES_PER_NAME_EVERYWHERE`] for the name from anywhere, and the
//! attempt is refused without hashing, saying in how many seconds the
//! oldest of those failures leaves the window. The limit per name counts
//! per network, so someone who knows a name cannot keep its owner out from
//! elsewhere; only a guessing spread over many networks (dozens of failures
//! a minute) stops the name for everyone, for a minute. An attempt being checked counts as a failure until it is
//! decided, and deciding and recording happen in one transaction (on
//! PostgreSQL under a lock of the table), so concurrent attempts count each
//! other. The counts are read from the database: several servers on one
//! PostgreSQL share them.
//!
//! The limit per client is twice the one per name: an office whose clerks
//! share one address (a NAT) does not make ten mistakes a minute, and if it
//! ever did it would wait at most a minute, while one address trying many
//! names is held to ten guesses a minute.

use crate::audit::{Change, Entry, append, timestamp};
use crate::listing::{self, Filter, Kind, List, Page, Window, text};
use crate::users::{Session, random_hex, user_of};
use crate::{Backend, Scope, Store, StoreError, Tx};
use chrono::{Duration, NaiveDateTime};
use sqlx::Row;
use std::net::IpAddr;

/// Failures of one user name from one client's network within the window
/// that stop that network's next attempt at the name.
pub const FAILURES_PER_NAME: i64 = 5;

/// Failures of one user name from any network within the window that stop
/// the next attempt at it from anywhere (a guessing spread over networks).
pub const FAILURES_PER_NAME_EVERYWHERE: i64 = 50;

/// Failures from one client within the window that stop the next attempt.
pub const FAILURES_PER_CLIENT: i64 = 10;

/// The window the failures are counted in, in seconds.
pub const WINDOW_SECONDS: i64 = 60;

/// What a sign-in came to.
#[derive(Debug, Clone)]
pub enum SignIn {
    /// The password matched: a new session.
    Opened(Session),
    /// A wrong name or password, with no hint of which.
    Refused,
    /// Too many failures of this name or client lately: no password was
    /// checked. Another attempt may be checked in `seconds`.
    TooMany { seconds: i64 },
}

/// One recorded attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub at: String,
    /// The name as typed (trimmed): it may be no one's.
    pub name: String,
    /// The client's address.
    pub client: String,
    pub succeeded: bool,
}

/// Which attempts to list, newest first.
#[derive(Debug, Clone, Copy)]
pub struct AttemptFilter {
    pub failures_only: bool,
    /// From this moment on (inclusive).
    pub since: Option<NaiveDateTime>,
}

/// What the per-client limit counts: the address, or an IPv6 address's /64.
fn network(client: IpAddr) -> String {
    match client {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

fn window() -> Duration {
    Duration::seconds(WINDOW_SECONDS)
}

/// The attempts counted against a name or a client.
#[derive(Debug, Clone, Copy)]
enum Key<'a> {
    /// The name, from any network.
    Name(&'a str),
    /// The name, from one network.
    NameFrom(&'a str, &'a str),
    Network(&'a str),
}

/// When `limit` failures (or attempts still being checked) that `key`
/// counts fall within the window ending `at`: in how many seconds (at least
/// one) the oldest of the last `limit` leaves it.
async fn wait_for(
    tx: &mut Tx,
    key: Key<'_>,
    at: NaiveDateTime,
    limit: i64,
) -> Result<Option<i64>, StoreError> {
    let (condition, value, network) = match key {
        Key::Name(name) => ("name = $1", name, None),
        Key::NameFrom(name, network) => ("name = $1 AND network = $4", name, Some(network)),
        Key::Network(network) => ("network = $1", network, None),
    };
    let mut query = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT at FROM sign_in_attempts WHERE {condition} AND at > $2 \
         AND (succeeded IS NULL OR succeeded = 0) ORDER BY at DESC LIMIT 1 OFFSET $3"
    )))
    .bind(value)
    .bind(timestamp(at - window()))
    .bind(limit - 1);
    if let Some(network) = network {
        query = query.bind(network);
    }
    let row = query.fetch_optional(&mut **tx).await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let oldest: String = row.try_get("at")?;
    let oldest = NaiveDateTime::parse_from_str(&oldest, "%Y-%m-%dT%H:%M:%S%.fZ")
        .map_err(|_| StoreError::Corrupt(format!("sign_in_attempts.at `{oldest}`")))?;
    let millis = (oldest + window() - at).num_milliseconds();
    Ok(Some(((millis + 999) / 1000).max(1)))
}

/// Records in `tx` whether the attempt `id` ([`Store::open_attempt`])
/// succeeded.
pub(crate) async fn settle_attempt(tx: &mut Tx, id: &str, matches: bool) -> Result<(), StoreError> {
    sqlx::query("UPDATE sign_in_attempts SET succeeded = $2 WHERE id = $1")
        .bind(id)
        .bind(i32::from(matches))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl Store {
    /// Signs `name` in with `password` from `client` at `at` (now, given by
    /// the caller): a session until `expires_at`, a refusal, or "too many
    /// failures" (nothing checked). `Busy` when the password queue is full.
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        client: IpAddr,
        at: NaiveDateTime,
        expires_at: NaiveDateTime,
    ) -> Result<SignIn, StoreError> {
        let name = name.trim();
        let ticket = self.hashing.admit()?;
        let id = match self.open_attempt(name, client, at).await? {
            Ok(id) => id,
            Err(seconds) => return Ok(SignIn::TooMany { seconds }),
        };
        let (user, phc) = self.credentials(name).await?.unzip();
        let matches = ticket.verify(password.to_string(), phc).await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        settle_attempt(&mut tx, &id, matches).await?;
        let outcome = match user.filter(|_| matches) {
            Some(user) => SignIn::Opened(self.start_session(&mut tx, user, at, expires_at).await?),
            None => SignIn::Refused,
        };
        tx.commit().await?;
        Ok(outcome)
    }

    /// Records an attempt at `name` from `client` at `at`, about to be
    /// checked (it counts as a failure until [`settle_attempt`]): its id,
    /// or — when too many failures of the name or the client fall in the
    /// window — in how many seconds another may be checked (nothing
    /// recorded). Also what the holders' space counts its attempts with
    /// (`citizens.rs`), under names no user can have.
    pub(crate) async fn open_attempt(
        &self,
        name: &str,
        client: IpAddr,
        at: NaiveDateTime,
    ) -> Result<Result<String, i64>, StoreError> {
        let client = client.to_canonical();
        let id = random_hex::<16>()?;
        let (mut tx, _writer) = self.write_transaction().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("LOCK TABLE sign_in_attempts IN EXCLUSIVE MODE")
                .execute(&mut *tx)
                .await?;
        }
        let from = network(client);
        let by_name = wait_for(&mut tx, Key::NameFrom(name, &from), at, FAILURES_PER_NAME).await?;
        let by_client = wait_for(&mut tx, Key::Network(&from), at, FAILURES_PER_CLIENT).await?;
        let everywhere =
            wait_for(&mut tx, Key::Name(name), at, FAILURES_PER_NAME_EVERYWHERE).await?;
        if let Some(seconds) = by_name.max(by_client).max(everywhere) {
            return Ok(Err(seconds));
        }
        sqlx::query(
            "INSERT INTO sign_in_attempts (id, at, name, client, network) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(timestamp(at))
        .bind(name)
        .bind(client.to_string())
        .bind(from)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(id))
    }

    /// A page of the attempts that were checked, newest first; a viewer
    /// limited to jurisdictions sees only those naming their users.
    pub async fn sign_in_attempts(
        &self,
        filter: &AttemptFilter,
        viewer: &Scope,
        window: Window<'_>,
    ) -> Result<Page<Attempt>, StoreError> {
        const LIST: List = List {
            name: "sign_ins",
            table: "sign_in_attempts",
            columns: "id, at, name, client, succeeded",
            key: &[("at", Kind::Text), ("id", Kind::Text)],
            descending: true,
        };
        let mut rows = Filter::default().fixed("succeeded IS NOT NULL");
        if filter.failures_only {
            rows = rows.fixed("succeeded = 0");
        }
        rows = rows.when("at >= $?", filter.since.map(|s| text(timestamp(s))));
        if let Scope::Only(_) = viewer {
            let names = self.names_within(viewer).await?;
            rows = rows.any_of("name = $?", names.into_iter().map(text).collect());
        }
        listing::page(&self.pool, &LIST, &rows, window, |row| {
            Ok(Attempt {
                at: row.try_get("at")?,
                name: row.try_get("name")?,
                client: row.try_get("client")?,
                succeeded: row.try_get::<i32, _>("succeeded")? == 1,
            })
        })
        .await
    }

    async fn names_within(&self, scope: &Scope) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT name, role, jurisdictions FROM users ORDER BY name")
            .fetch_all(&self.pool)
            .await?;
        let mut names = Vec::new();
        for row in &rows {
            let user = user_of(row)?;
            if user.scope.within(scope) {
                names.push(user.name);
            }
        }
        Ok(names)
    }

    /// Deletes the attempts made before `before` (audited): how many.
    pub async fn prune_sign_ins(
        &self,
        change: &Change<'_>,
        before: NaiveDateTime,
    ) -> Result<u64, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let deleted = sqlx::query("DELETE FROM sign_in_attempts WHERE at < $1")
            .bind(timestamp(before))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "sign_ins.prune",
                jurisdiction: None,
                subject: "sign_ins",
                detail: serde_json::json!({ "before": timestamp(before), "deleted": deleted }),
                rows: Vec::new(),
            },
        )
        .await?;
        tx.commit().await?;
        Ok(deleted)
    }
}
