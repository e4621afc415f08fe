//! The holders' and drivers' own accounts: a CPF signs in with a password
//! they set with a first-access code a clerk printed for them.
//!
//! The code is a random one of 10 characters (`ABCDE-12345`), kept as its
//! SHA-256, valid for [`CODE_DAYS`] days, used once; a newer one replaces
//! the older. Setting the password with it and signing in are counted as
//! the staff's sign-ins are (`sign_ins.rs`: per CPF and network, per
//! network, per CPF everywhere), under the names `CPF <digits>` and
//! `código CPF <digits>`, which no user name can be (they hold a space). The
//! sessions are as the staff's: the SHA-256 of a random token, shared by
//! every server of one database. Every write has its audit entry, under
//! the person's CPF as `cidadão <CPF>`.

use crate::audit::guard::agree;
use crate::audit::images::{RowRef, image_of};
use crate::audit::{Change, Entry, append, timestamp};
use crate::password_policy::check_password;
use crate::sign_ins::settle_attempt;
use crate::users::random_hex;
use crate::{Kind, SignIn, Store, StoreError, Tx};
use chrono::{Duration, NaiveDateTime};
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::net::IpAddr;

/// How long a first-access code may be used, in days. No law sets it: the
/// department's practice (a letter handed over or sent by post reaches its
/// reader within a month).
pub const CODE_DAYS: i64 = 30;

/// A first-access code just printed (shown once).
#[derive(Debug, Clone)]
pub struct AccessCode {
    pub code: String,
    pub document: String,
    pub name: String,
    pub expires_at: NaiveDateTime,
}

/// A holder's or driver's session just opened.
#[derive(Debug, Clone)]
pub struct CitizenSession {
    pub token: String,
    pub document: String,
    pub expires_at: NaiveDateTime,
}

/// What setting a password with a first-access code came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FirstAccess {
    /// The password is set (the sessions the person had end).
    Set,
    /// No valid code of this CPF matches (wrong, used, replaced or expired):
    /// no hint of which.
    Refused,
    /// Too many failures lately: nothing checked.
    TooMany { seconds: i64 },
}

fn hash_of(text: &str) -> String {
    format!("{:x}", Sha256::digest(text.as_bytes()))
}

/// Who an account's changes are recorded under.
pub fn actor(document: &str) -> String {
    format!("cidadão {document}")
}

/// The CPF typed, as kept; a CNPJ or a malformed number refused.
pub fn cpf(text: &str) -> Result<String, StoreError> {
    match crate::parse_document(text)? {
        (document, Kind::Person) => Ok(document),
        (_, Kind::Company) => Err(StoreError::Invalid {
            field: "cpf",
            reason: "o espaço do titular é entrado com o CPF de uma pessoa, não um CNPJ".into(),
        }),
    }
}

/// Ends the sessions of `document` (only those expired by `expired_by`,
/// when given): their rows, for the audit entry.
async fn end_sessions(
    tx: &mut Tx,
    document: &str,
    expired_by: Option<NaiveDateTime>,
) -> Result<Vec<RowRef>, StoreError> {
    let query = match expired_by {
        None => sqlx::query("DELETE FROM citizen_sessions WHERE document = $1 RETURNING hash")
            .bind(document),
        Some(at) => sqlx::query(
            "DELETE FROM citizen_sessions WHERE document = $1 AND expires_at <= $2 RETURNING hash",
        )
        .bind(document)
        .bind(timestamp(at)),
    };
    let hashes = query
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|row| row.try_get::<String, _>("hash"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(hashes
        .into_iter()
        .map(|hash| RowRef::new("citizen_sessions", [hash.into()]))
        .collect())
}

/// How long a sign-in through gov.br may take, in minutes.
pub const LOGIN_MINUTES: i64 = 10;

/// Opens a session of `document` in `tx` at `at` until `expires_at`, ending
/// their sessions that expired, with its audit entry saying `why`.
async fn open_session(
    tx: &mut Tx,
    audit: &crate::audit::Audit,
    document: &str,
    (at, expires_at): (NaiveDateTime, NaiveDateTime),
    why: &str,
) -> Result<CitizenSession, StoreError> {
    let token = format!("otc_{}", random_hex::<32>()?);
    let hash = hash_of(&token);
    sqlx::query(
            "INSERT INTO citizen_sessions (hash, document, created_at, expires_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(&hash)
        .bind(document)
        .bind(timestamp(at))
        .bind(timestamp(expires_at))
        .execute(&mut **tx)
        .await?;
    // Sessions that expired are of no more use.
    let mut rows = end_sessions(tx, document, Some(at)).await?;
    rows.push(RowRef::new("citizen_sessions", [hash.into()]));
    let by = actor(document);
    append(
        tx,
        audit,
        &Change { by: &by, at, why },
        Entry {
            action: "citizen.session.open",
            jurisdiction: None,
            subject: &format!("person:{document}"),
            detail: serde_json::json!({ "expires_at": timestamp(expires_at) }),
            rows,
        },
    )
    .await?;
    Ok(CitizenSession {
        token,
        document: document.to_string(),
        expires_at,
    })
}

impl Store {
    /// Prints a first-access code for the person `document` of
    /// `jurisdiction` (a CPF the register holds), valid for [`CODE_DAYS`]
    /// days from `change.at`; the codes of theirs not yet used end.
    pub async fn issue_access_code(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        document: &str,
    ) -> Result<AccessCode, StoreError> {
        let document = cpf(document)?;
        let code = crate::documents::new_code()?;
        let expires_at = change.at + Duration::days(CODE_DAYS);
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        let Some(row) =
            sqlx::query("SELECT name FROM people WHERE jurisdiction = $1 AND document = $2")
                .bind(jurisdiction)
                .bind(&document)
                .fetch_optional(&mut *tx)
                .await?
        else {
            return Err(StoreError::NotFound(format!(
                "não há pessoa de CPF {document} cadastrada nesta jurisdição"
            )));
        };
        let name: String = row.try_get("name")?;
        let mut rows: Vec<RowRef> = sqlx::query(
            "UPDATE citizen_codes SET used_at = $2 WHERE document = $1 AND used_at IS NULL \
             RETURNING hash",
        )
        .bind(&document)
        .bind(timestamp(change.at))
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|row| {
            row.try_get::<String, _>("hash")
                .map(|hash| RowRef::new("citizen_codes", [hash.into()]))
        })
        .collect::<Result<_, _>>()?;
        let hash = hash_of(&code);
        sqlx::query(
            "INSERT INTO citizen_codes (hash, document, jurisdiction, issued_by, issued_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&hash)
        .bind(&document)
        .bind(jurisdiction)
        .bind(change.by)
        .bind(timestamp(change.at))
        .bind(timestamp(expires_at))
        .execute(&mut *tx)
        .await?;
        rows.push(RowRef::new("citizen_codes", [hash.into()]));
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "citizen.code",
                jurisdiction: Some(jurisdiction),
                subject: &format!("person:{document}"),
                detail: serde_json::json!({ "expires_at": timestamp(expires_at) }),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(AccessCode {
            code,
            document,
            name,
            expires_at,
        })
    }

    /// Sets the password of CPF `document` with a first-access `code` typed
    /// by them, from `client` at `at` (the account is made on first use).
    pub async fn first_access(
        &self,
        document: &str,
        code: &str,
        password: &str,
        (client, at): (IpAddr, NaiveDateTime),
    ) -> Result<FirstAccess, StoreError> {
        let document = cpf(document)?;
        check_password(&document, password)?;
        let ticket = self.hashing.admit()?;
        let id = match self
            .open_attempt(&format!("código CPF {document}"), client, at)
            .await?
        {
            Ok(id) => id,
            Err(seconds) => return Ok(FirstAccess::TooMany { seconds }),
        };
        let typed = crate::documents::typed_code(code).map(|c| hash_of(&c));
        {
            // Settled in a transaction of its own (its writer's turn ends
            // with it), before the password is hashed.
            let (mut tx, _writer) = self.write_transaction().await?;
            let found = match &typed {
                Some(hash) => sqlx::query(
                    "SELECT hash FROM citizen_codes WHERE hash = $1 AND document = $2 \
                     AND used_at IS NULL AND expires_at > $3",
                )
                .bind(hash)
                .bind(&document)
                .bind(timestamp(at))
                .fetch_optional(&mut *tx)
                .await?
                .is_some(),
                None => false,
            };
            settle_attempt(&mut tx, &id, found).await?;
            tx.commit().await?;
            if !found {
                return Ok(FirstAccess::Refused);
            }
        }
        let phc = ticket.hash(password.to_string()).await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let hash = typed.unwrap_or_default();
        // Used once: a second use of the same code (two tabs) finds it used.
        let used = sqlx::query(
            "UPDATE citizen_codes SET used_at = $2 WHERE hash = $1 AND used_at IS NULL",
        )
        .bind(&hash)
        .bind(timestamp(at))
        .execute(&mut *tx)
        .await?;
        if used.rows_affected() == 0 {
            return Ok(FirstAccess::Refused);
        }
        let mut rows = end_sessions(&mut tx, &document, None).await?;
        let existing = sqlx::query("SELECT document FROM citizen_accounts WHERE document = $1")
            .bind(&document)
            .fetch_optional(&mut *tx)
            .await?;
        if existing.is_some() {
            sqlx::query(
                "UPDATE citizen_accounts SET password_hash = $2, password_set_at = $3 WHERE document = $1",
            )
            .bind(&document)
            .bind(&phc)
            .bind(timestamp(at))
            .execute(&mut *tx)
            .await?;
        } else {
            sqlx::query(
                "INSERT INTO citizen_accounts (document, password_hash, created_at, password_set_at) \
                 VALUES ($1, $2, $3, $3)",
            )
            .bind(&document)
            .bind(&phc)
            .bind(timestamp(at))
            .execute(&mut *tx)
            .await?;
        }
        rows.push(RowRef::new("citizen_codes", [hash.into()]));
        rows.push(RowRef::new("citizen_accounts", [document.as_str().into()]));
        let by = actor(&document);
        append(
            &mut tx,
            &self.audit,
            &Change {
                by: &by,
                at,
                why: "primeiro acesso: senha definida com o código impresso",
            },
            Entry {
                action: "citizen.password",
                jurisdiction: None,
                subject: &format!("person:{document}"),
                detail: serde_json::json!({}),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(FirstAccess::Set)
    }

    /// Signs the CPF `document` in with `password` from `client` at `at`: a
    /// session until `expires_at`, a refusal, or "too many failures".
    pub async fn citizen_sign_in(
        &self,
        document: &str,
        password: &str,
        (client, at): (IpAddr, NaiveDateTime),
        expires_at: NaiveDateTime,
    ) -> Result<Result<CitizenSession, SignIn>, StoreError> {
        // A malformed CPF is refused as a wrong password is: no hint.
        let document = cpf(document).unwrap_or_default();
        let ticket = self.hashing.admit()?;
        let id = match self
            .open_attempt(&format!("CPF {document}"), client, at)
            .await?
        {
            Ok(id) => id,
            Err(seconds) => return Ok(Err(SignIn::TooMany { seconds })),
        };
        // An account opened through gov.br may have no password yet.
        let phc: Option<String> =
            sqlx::query("SELECT password_hash FROM citizen_accounts WHERE document = $1")
                .bind(&document)
                .fetch_optional(&self.pool)
                .await?
                .map(|row| row.try_get::<Option<String>, _>("password_hash"))
                .transpose()?
                .flatten();
        let known = phc.is_some();
        let matches = ticket.verify(password.to_string(), phc).await? && known;
        let (mut tx, _writer) = self.write_transaction().await?;
        settle_attempt(&mut tx, &id, matches).await?;
        if !matches {
            tx.commit().await?;
            return Ok(Err(SignIn::Refused));
        }
        let session = open_session(
            &mut tx,
            &self.audit,
            &document,
            (at, expires_at),
            "início de sessão no espaço do titular",
        )
        .await?;
        tx.commit().await?;
        Ok(Ok(session))
    }

    /// Starts a sign-in through gov.br at `at`: the `state` sent to the
    /// provider, kept as its SHA-256 with the PKCE `verifier` and the
    /// `nonce` (those older than [`LOGIN_MINUTES`] are dropped).
    pub async fn begin_govbr(
        &self,
        state: &str,
        (verifier, nonce): (&str, &str),
        at: NaiveDateTime,
    ) -> Result<(), StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        sqlx::query("DELETE FROM citizen_logins WHERE started_at <= $1")
            .bind(timestamp(at - Duration::minutes(LOGIN_MINUTES)))
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO citizen_logins (state_hash, verifier, nonce, started_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(hash_of(state))
        .bind(verifier)
        .bind(nonce)
        .bind(timestamp(at))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The PKCE verifier and nonce of the sign-in whose `state` came back
    /// at `at`, taken once; none when unknown, used or older than
    /// [`LOGIN_MINUTES`].
    pub async fn take_govbr(
        &self,
        state: &str,
        at: NaiveDateTime,
    ) -> Result<Option<(String, String)>, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let row = sqlx::query(
            "DELETE FROM citizen_logins WHERE state_hash = $1 RETURNING verifier, nonce, started_at",
        )
        .bind(hash_of(state))
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let started: String = row.try_get("started_at")?;
        if started <= timestamp(at - Duration::minutes(LOGIN_MINUTES)) {
            return Ok(None);
        }
        Ok(Some((row.try_get("verifier")?, row.try_get("nonce")?)))
    }

    /// Opens a session for the CPF gov.br vouched for, at `at` until
    /// `expires_at`: none when no jurisdiction registers them (the space
    /// has nothing of theirs). Their account is opened without a password
    /// the first time.
    pub async fn govbr_session(
        &self,
        document: &str,
        (at, expires_at): (NaiveDateTime, NaiveDateTime),
    ) -> Result<Option<CitizenSession>, StoreError> {
        let Ok(document) = cpf(document) else {
            return Ok(None);
        };
        let (mut tx, _writer) = self.write_transaction().await?;
        let registered = sqlx::query("SELECT jurisdiction FROM people WHERE document = $1")
            .bind(&document)
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        if !registered {
            return Ok(None);
        }
        let existing = sqlx::query("SELECT document FROM citizen_accounts WHERE document = $1")
            .bind(&document)
            .fetch_optional(&mut *tx)
            .await?;
        if existing.is_none() {
            sqlx::query(
                "INSERT INTO citizen_accounts (document, password_hash, created_at, password_set_at) \
                 VALUES ($1, NULL, $2, NULL)",
            )
            .bind(&document)
            .bind(timestamp(at))
            .execute(&mut *tx)
            .await?;
            let by = actor(&document);
            append(
                &mut tx,
                &self.audit,
                &Change {
                    by: &by,
                    at,
                    why: "conta aberta pelo gov.br",
                },
                Entry {
                    action: "citizen.account",
                    jurisdiction: None,
                    subject: &format!("person:{document}"),
                    detail: serde_json::json!({ "provider": "gov.br" }),
                    rows: vec![RowRef::new("citizen_accounts", [document.as_str().into()])],
                },
            )
            .await?;
        }
        let session = open_session(
            &mut tx,
            &self.audit,
            &document,
            (at, expires_at),
            "início de sessão pelo gov.br",
        )
        .await?;
        tx.commit().await?;
        Ok(Some(session))
    }

    /// Whether `document` has an account (a password set, or gov.br).
    pub async fn has_citizen_account(&self, document: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("SELECT document FROM citizen_accounts WHERE document = $1")
                .bind(document)
                .fetch_optional(&self.pool)
                .await?
                .is_some(),
        )
    }

    /// The CPF whose open session `token` is at `now`, if any — and whose
    /// row is what the audit log last recorded of it.
    pub async fn citizen(
        &self,
        token: &str,
        now: NaiveDateTime,
    ) -> Result<Option<String>, StoreError> {
        let table = self.audit.schema.table("citizen_sessions")?;
        let Some(row) = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {} FROM citizen_sessions WHERE hash = $1 AND expires_at > $2",
            table.column_list()
        )))
        .bind(hash_of(token))
        .bind(timestamp(now))
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        agree(&self.pool, table, &[image_of(table, &row)?]).await?;
        Ok(Some(row.try_get("document")?))
    }

    /// Ends the session of `token` (signing out) at `at`.
    pub async fn close_citizen_session(
        &self,
        token: &str,
        at: NaiveDateTime,
    ) -> Result<(), StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let Some(row) =
            sqlx::query("DELETE FROM citizen_sessions WHERE hash = $1 RETURNING document")
                .bind(hash_of(token))
                .fetch_optional(&mut *tx)
                .await?
        else {
            return Ok(());
        };
        let document: String = row.try_get("document")?;
        let by = actor(&document);
        append(
            &mut tx,
            &self.audit,
            &Change {
                by: &by,
                at,
                why: "fim de sessão no espaço do titular",
            },
            Entry {
                action: "citizen.session.close",
                jurisdiction: None,
                subject: &format!("person:{document}"),
                detail: serde_json::json!({}),
                rows: vec![RowRef::new("citizen_sessions", [hash_of(token).into()])],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
}
