//! E-mail reminders of the deadlines the agenda knows, to the holders and
//! drivers whose profile has an address: planned from the agenda (the same
//! items the staff's panel shows, so no second copy of a time limit), kept
//! in the `messages` outbox, claimed and sent by the edge (the CLI's mailer,
//! over SMTP), and recorded as sent or failed.
//!
//! A deadline gets a reminder [`LEADS`] days before it: the nearest lead
//! not yet passed, so a server that was down a week sends the one-day
//! reminder, not a late seven-day one. The outbox's key is the deadline,
//! the person and the lead: planning twice, or on two servers at once,
//! plans once. A server claims a batch until a lease ends; another takes
//! over what one that stopped left.
//!
//! The outbox is not audited (`audit::schema::NOT_AUDITED`): it is what was
//! sent, written at each attempt; a reminder is a courtesy of the
//! department, not the law's notification (which is the procedure's step).

use crate::agenda::record_name;
use crate::dates::moment_text as timestamp;
use crate::{AgendaItem, Store, StoreError, Window};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use outorga_core::model::Rulebook;
use sqlx::Row;

/// How many times a reminder is tried before it is given up (its last
/// error stays recorded).
pub const MAX_ATTEMPTS: i64 = 5;

/// Days before a deadline a reminder goes out: a week, and the day before.
/// No law sets them: the department's courtesy.
pub const LEADS: [i64; 2] = [7, 1];

/// The agenda's kinds a holder or driver acts on, each with what they do,
/// as a reminder says it (never the staff's description, which names the
/// debtor's document and the amount): a permit's or a document's renewal,
/// an inspection, a cure, a defense, an appeal, a payment and a parcel.
const KINDS: [(&str, &str); 9] = [
    (
        "permit_expiry",
        "a permissão vence; peça a renovação, se a lei a admite",
    ),
    (
        "document_expiry",
        "o documento vence; providencie a renovação",
    ),
    ("inspection", "o veículo deve passar pela vistoria"),
    ("cure", "corrija a irregularidade apontada na notificação"),
    (
        "caducity_cure",
        "corrija a falta apontada, para evitar a caducidade",
    ),
    ("defense", "você pode apresentar defesa contra a autuação"),
    ("appeal", "você pode recorrer da decisão"),
    ("debt", "pague o débito"),
    ("parcel", "pague a parcela"),
];

/// Where a reminder sends its reader.
#[derive(Debug, Clone)]
pub struct Site<'a> {
    /// The department, as its papers name it.
    pub authority: &'a str,
    /// The public address (`https://transporte.cidade.gov.br`).
    pub url: &'a str,
}

/// A reminder claimed for sending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    pub key: String,
    pub recipient: String,
    pub title: String,
    pub body: String,
}

/// A reminder as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub key: String,
    pub jurisdiction: String,
    pub kind: String,
    pub record: String,
    pub due_on: NaiveDate,
    pub document: String,
    pub recipient: String,
    pub title: String,
    pub planned_at: NaiveDateTime,
    pub attempts: i64,
    pub sent_at: Option<NaiveDateTime>,
    pub last_error: Option<String>,
}

/// The lead a deadline `due` calls for on `today`, if any.
fn lead(due: NaiveDate, today: NaiveDate) -> Option<i64> {
    let left = (due - today).num_days();
    if left < 0 {
        return None;
    }
    LEADS.iter().copied().filter(|l| left <= *l).min()
}

/// The subject and text of a reminder, in Portuguese.
fn words(item: &AgendaItem, what: &str, name: &str, site: &Site<'_>) -> (String, String) {
    let due = crate::words::day(item.due);
    let record = record_name(&item.subject);
    let title = format!("Lembrete: {} até {due} — {record}", item.kind_name());
    let first = name.split_whitespace().next().unwrap_or_default();
    let mut body = format!(
        "Olá, {first}.\n\n{} lembra: {what} até {due} ({record}).\n",
        site.authority
    );
    if !item.articles.is_empty() {
        body.push_str(&format!("Base legal: {}.\n", item.articles.join("; ")));
    }
    body.push_str(&format!(
        "\nNo seu espaço, {}/titular, você vê os detalhes, apresenta defesa ou recurso, \
         pede a renovação ou imprime a guia de pagamento.\n\n\
         Se já resolveu, desconsidere esta mensagem. Esta mensagem é automática: não a responda.\n",
        site.url
    ));
    (title, body)
}

impl Store {
    /// The person who acts on an agenda item's record: a permit's holder,
    /// the holder of the permit a vehicle serves, an auto's offender, a
    /// debt's debtor.
    async fn who_acts(
        &self,
        jurisdiction: &str,
        record: &str,
    ) -> Result<Option<String>, StoreError> {
        let parts: Vec<&str> = record.split(':').collect();
        let row = match parts.as_slice() {
            ["permit", service, number] => {
                let Ok(number) = number.parse::<i64>() else {
                    return Ok(None);
                };
                sqlx::query(
                    "SELECT holder AS who FROM permits WHERE jurisdiction = $1 AND service = $2 AND number = $3",
                )
                .bind(jurisdiction)
                .bind(*service)
                .bind(number)
                .fetch_optional(&self.pool)
                .await?
            }
            ["vehicle", plate] => {
                sqlx::query(
                    "SELECT p.holder AS who FROM permit_vehicles pv JOIN permits p \
                     ON p.jurisdiction = pv.jurisdiction AND p.service = pv.service AND p.number = pv.number \
                     WHERE pv.jurisdiction = $1 AND pv.plate = $2 AND pv.until IS NULL",
                )
                .bind(jurisdiction)
                .bind(*plate)
                .fetch_optional(&self.pool)
                .await?
            }
            ["auto", year, number] => {
                let (Ok(year), Ok(number)) = (year.parse::<i32>(), number.parse::<i64>()) else {
                    return Ok(None);
                };
                sqlx::query(
                    "SELECT offender AS who FROM autos WHERE jurisdiction = $1 AND year = $2 AND number = $3",
                )
                .bind(jurisdiction)
                .bind(year)
                .bind(number)
                .fetch_optional(&self.pool)
                .await?
            }
            ["debt", year, number, seq, ..] => {
                let (Ok(year), Ok(number), Ok(seq)) =
                    (year.parse::<i32>(), number.parse::<i64>(), seq.parse::<i64>())
                else {
                    return Ok(None);
                };
                sqlx::query(
                    "SELECT debtor AS who FROM debts WHERE jurisdiction = $1 AND year = $2 \
                     AND number = $3 AND seq = $4",
                )
                .bind(jurisdiction)
                .bind(year)
                .bind(number)
                .bind(seq)
                .fetch_optional(&self.pool)
                .await?
            }
            _ => None,
        };
        row.map(|r| r.try_get("who"))
            .transpose()
            .map_err(Into::into)
    }

    /// Plans the reminders of `jurisdiction` due on `today` (its local
    /// day) from its agenda under `rulebooks`, at `now`: how many new ones.
    pub async fn plan_reminders(
        &self,
        rulebooks: &[&Rulebook],
        jurisdiction: &str,
        (today, now): (NaiveDate, NaiveDateTime),
        site: &Site<'_>,
    ) -> Result<usize, StoreError> {
        let horizon = LEADS.iter().copied().max().unwrap_or(0) as u32;
        let mut planned = 0;
        let mut cursor = None;
        loop {
            let page = self
                .agenda(
                    jurisdiction,
                    rulebooks,
                    (today, horizon),
                    Window {
                        limit: 200,
                        after: cursor.as_ref(),
                    },
                )
                .await?;
            for item in &page.items {
                let Some((_, what)) = KINDS.iter().find(|(kind, _)| *kind == item.kind) else {
                    continue;
                };
                if item.overdue {
                    continue;
                }
                let Some(lead) = lead(item.due, today) else {
                    continue;
                };
                let Some(document) = self.who_acts(jurisdiction, &item.subject).await? else {
                    continue;
                };
                let Some(profile) = self.profile(jurisdiction, &document).await? else {
                    continue;
                };
                let recipient = profile.email.trim().to_string();
                if recipient.is_empty() {
                    continue;
                }
                let name = self
                    .registered(jurisdiction, &document)
                    .await?
                    .map_or_else(String::new, |r| r.name);
                let (title, body) = words(item, what, &name, site);
                let key = format!(
                    "{jurisdiction}|{}|{}|{}|{document}|{lead}",
                    item.kind, item.subject, item.due
                );
                let done = sqlx::query(
                    "INSERT INTO messages (key, jurisdiction, kind, record, due_on, lead_days, document, \
                     recipient, title, body, planned_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (key) DO NOTHING",
                )
                .bind(&key)
                .bind(jurisdiction)
                .bind(&item.kind)
                .bind(&item.subject)
                .bind(item.due.to_string())
                .bind(lead)
                .bind(&document)
                .bind(&recipient)
                .bind(&title)
                .bind(&body)
                .bind(timestamp(now))
                .execute(&self.pool)
                .await?;
                planned += done.rows_affected() as usize;
            }
            match page.next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        Ok(planned)
    }

    /// Claims up to `limit` reminders waiting to be sent (or whose claim
    /// ran out) until `now + lease`: this server sends them. One tried
    /// [`MAX_ATTEMPTS`] times, or whose deadline has passed, is not sent.
    pub async fn claim_reminders(
        &self,
        now: NaiveDateTime,
        lease: Duration,
        limit: i64,
    ) -> Result<Vec<Outgoing>, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let rows = sqlx::query(
            "SELECT key FROM messages WHERE sent_at IS NULL \
             AND (claimed_until IS NULL OR claimed_until <= $1) \
             AND attempts < $3 AND due_on >= $4 \
             ORDER BY planned_at, key LIMIT $2",
        )
        .bind(timestamp(now))
        .bind(limit)
        .bind(MAX_ATTEMPTS)
        .bind(now.date().to_string())
        .fetch_all(&mut *tx)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let key: String = row.try_get("key")?;
            // Taken only if no other server took it meanwhile.
            let claimed = sqlx::query(
                "UPDATE messages SET claimed_until = $2, attempts = attempts + 1 \
                 WHERE key = $1 AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $3) \
                 RETURNING recipient, title, body",
            )
            .bind(&key)
            .bind(timestamp(now + lease))
            .bind(timestamp(now))
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(row) = claimed {
                out.push(Outgoing {
                    key,
                    recipient: row.try_get("recipient")?,
                    title: row.try_get("title")?,
                    body: row.try_get("body")?,
                });
            }
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Records a reminder sent at `at` (`error`: none), or why it failed
    /// (it is tried again when its claim runs out).
    pub async fn reminder_outcome(
        &self,
        key: &str,
        at: NaiveDateTime,
        error: Option<&str>,
    ) -> Result<(), StoreError> {
        let query = match error {
            None => {
                sqlx::query("UPDATE messages SET sent_at = $2, last_error = NULL WHERE key = $1")
                    .bind(key)
                    .bind(timestamp(at))
            }
            Some(error) => sqlx::query("UPDATE messages SET last_error = $2 WHERE key = $1")
                .bind(key)
                .bind(error.chars().take(500).collect::<String>()),
        };
        query.execute(&self.pool).await?;
        Ok(())
    }

    /// The latest `limit` reminders of a jurisdiction, the newest first.
    pub async fn reminders(
        &self,
        jurisdiction: &str,
        limit: i64,
    ) -> Result<Vec<Message>, StoreError> {
        let rows = sqlx::query(
            "SELECT key, jurisdiction, kind, record, due_on, document, recipient, title, planned_at, \
             attempts, sent_at, last_error FROM messages WHERE jurisdiction = $1 \
             ORDER BY planned_at DESC, key DESC LIMIT $2",
        )
        .bind(jurisdiction)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let due: String = row.try_get("due_on")?;
                let planned: String = row.try_get("planned_at")?;
                let sent: Option<String> = row.try_get("sent_at")?;
                Ok(Message {
                    key: row.try_get("key")?,
                    jurisdiction: row.try_get("jurisdiction")?,
                    kind: row.try_get("kind")?,
                    record: row.try_get("record")?,
                    due_on: crate::dates::day(&due)?,
                    document: row.try_get("document")?,
                    recipient: row.try_get("recipient")?,
                    title: row.try_get("title")?,
                    planned_at: crate::dates::moment(&planned)?,
                    attempts: row.try_get("attempts")?,
                    sent_at: sent.as_deref().map(crate::dates::moment).transpose()?,
                    last_error: row.try_get("last_error")?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        text.parse().expect("a day")
    }

    #[test]
    fn the_nearest_lead_not_yet_passed() {
        let due = d("2026-12-21");
        assert_eq!(lead(due, d("2026-12-13")), None); // 8 days ahead
        assert_eq!(lead(due, d("2026-12-14")), Some(7)); // a week ahead
        assert_eq!(lead(due, d("2026-12-19")), Some(7));
        assert_eq!(lead(due, d("2026-12-20")), Some(1)); // the day before
        assert_eq!(lead(due, d("2026-12-21")), Some(1)); // the day itself
        assert_eq!(lead(due, d("2026-12-22")), None); // overdue
    }
}
