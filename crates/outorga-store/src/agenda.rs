//! The agenda: for a jurisdiction and a day, everything that falls due within
//! a horizon or is overdue — permits and documents expiring, inspections due,
//! vehicles to replace, procedural deadlines, point thresholds crossed,
//! suspensions ending, debts overdue — each with the articles behind it.
//!
//! It is read a page at a time in the order of the day things fall due,
//! then their kind, then the record: each kind that the database holds is
//! one index range by its day (migration 0021), read from the cursor on and
//! merged; the kinds the engine works out (a vehicle's inspections and age
//! limit, point thresholds) are computed and placed in the same order.

use crate::dates::day;
use crate::fleet::engine_vehicle;
use crate::listing::{self, Cursor, Filter, KeyValue, Kind, List, Page, Window, text};
use crate::parameters::deadline_article;
use crate::vehicles::read_vehicle;
use crate::world::{self, ACTIVE, Scope};
use crate::{Store, StoreError, Tx, articles};
use chrono::{Days, NaiveDate};
use outorga_core::Context;
use outorga_core::engine::standing::standing;
use outorga_core::engine::vehicle::deadlines;
use outorga_core::model::{DeadlineKind, Rulebook};
use sqlx::Row;

/// One thing that falls due.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AgendaItem {
    /// permit_expiry, document_expiry, inspection, vehicle_replacement,
    /// notification, cure, defense, decision_notification, appeal, threshold,
    /// suspension_end, reserve_end, caducity_cure, debt.
    pub kind: String,
    pub due: NaiveDate,
    pub overdue: bool,
    /// The record it concerns (`permit:taxi:3`, `auto:2026:15`, …).
    pub subject: String,
    /// What to do, in Portuguese.
    pub description: String,
    pub articles: Vec<String>,
}

/// An item and its place among those of its day and kind (the record's
/// key), which the cursor carries.
type Entry = (AgendaItem, Vec<KeyValue>);

/// Where a page resumes: after the item of this day, kind and record key.
type Resume<'a> = (NaiveDate, &'a str, &'a [KeyValue]);

/// The part of the agenda a page reads: from the cursor (exclusive) to the
/// horizon, `limit` items.
struct Span<'a> {
    today: NaiveDate,
    until: NaiveDate,
    after: Option<Resume<'a>>,
    limit: u32,
}

impl Span<'_> {
    /// Whether an item of `due`, `kind` and `key` comes after the cursor
    /// and within the horizon.
    fn admits(&self, due: NaiveDate, kind: &str, key: &[KeyValue]) -> bool {
        due <= self.until
            && self
                .after
                .is_none_or(|(d, k, rest)| (due, kind, key) > (d, k, rest))
    }

    fn item(
        &self,
        kind: &str,
        due: NaiveDate,
        subject: String,
        description: String,
        cited: Vec<String>,
    ) -> AgendaItem {
        AgendaItem {
            kind: kind.to_string(),
            due,
            overdue: due < self.today,
            subject,
            description,
            articles: cited,
        }
    }
}

/// A kind of item the database holds, by the day it falls due.
struct Due {
    /// The kind, the cursor's list name; its key is the day, then the record.
    list: List,
    /// The rows that can fall due (the predicate of the kind's index).
    rows: &'static str,
    /// What is past and no longer falls due, given today (ended suspensions).
    not_before: Option<&'static str>,
    on_or_after: &'static str,
    after: &'static str,
    until: &'static str,
}

const AUTO_COLUMNS: &str = "year, number, rulebook, notify_by, defense_by, judged_on, appeal_by";
const AUTO_KEY: [(&str, Kind); 2] = [("year", Kind::Int), ("number", Kind::Int)];

/// One due-date column of the autos in process.
macro_rules! auto_deadline {
    ($kind:literal, $column:literal, $rows:literal) => {
        Due {
            list: List {
                name: $kind,
                table: "autos",
                columns: AUTO_COLUMNS,
                key: &[($column, Kind::Text), AUTO_KEY[0], AUTO_KEY[1]],
                descending: false,
            },
            rows: $rows,
            not_before: None,
            on_or_after: concat!($column, " >= $?"),
            after: concat!($column, " > $?"),
            until: concat!($column, " <= $?"),
        }
    };
}

const PERMIT_EXPIRY: Due = Due {
    list: List {
        name: "permit_expiry",
        table: "permits",
        columns: "service, number, rulebook, expires_on",
        key: &[
            ("expires_on", Kind::Text),
            ("service", Kind::Text),
            ("number", Kind::Int),
        ],
        descending: false,
    },
    rows: "status IN ('granted', 'suspended', 'reserved') AND expires_on IS NOT NULL",
    not_before: None,
    on_or_after: "expires_on >= $?",
    after: "expires_on > $?",
    until: "expires_on <= $?",
};

const DOCUMENT_EXPIRY: Due = Due {
    list: List {
        name: "document_expiry",
        table: "documents",
        columns: "code, kind, subject, valid_until",
        key: &[("valid_until", Kind::Text), ("code", Kind::Text)],
        descending: false,
    },
    rows: "cancelled_on IS NULL AND valid_until IS NOT NULL",
    not_before: None,
    on_or_after: "valid_until >= $?",
    after: "valid_until > $?",
    until: "valid_until <= $?",
};

const NOTIFICATION: Due = auto_deadline!(
    "notification",
    "notify_by",
    "status = 'issued' AND notify_by IS NOT NULL"
);
const DEFENSE: Due = auto_deadline!(
    "defense",
    "defense_by",
    "status = 'notified' AND defense_by IS NOT NULL"
);
const CURE: Due = auto_deadline!(
    "cure",
    "cure_by",
    "status = 'awaiting_cure' AND cure_by IS NOT NULL"
);
const DECISION_NOTIFICATION: Due = auto_deadline!(
    "decision_notification",
    "judged_on",
    "status = 'judged' AND judged_on IS NOT NULL"
);
const APPEAL: Due = auto_deadline!(
    "appeal",
    "appeal_by",
    "status = 'decision_notified' AND appeal_by IS NOT NULL"
);

const SUSPENSION_END: Due = Due {
    list: List {
        name: "suspension_end",
        table: "applied_sanctions",
        columns: "year, number, seq, kind, target, ends, citations",
        key: &[
            ("ends", Kind::Text),
            ("year", Kind::Int),
            ("number", Kind::Int),
            ("seq", Kind::Int),
        ],
        descending: false,
    },
    rows: "ends IS NOT NULL",
    not_before: Some("ends >= $?"),
    on_or_after: "ends >= $?",
    after: "ends > $?",
    until: "ends <= $?",
};

/// What a reserve's end asks of the clerk, and its articles: the return,
/// or where the law makes not returning an abandonment, its extinction.
fn life_reserve_end(rulebook: &Rulebook, what: &str) -> (String, Vec<String>) {
    let mut cited: Vec<String> = rulebook
        .permit_suspension
        .iter()
        .map(|r| r.citation.clone())
        .collect();
    let abandonment = rulebook.permit_life.as_ref().and_then(|l| {
        l.ends
            .iter()
            .find(|e| e.ground == outorga_core::model::EndGround::Abandonment)
    });
    match abandonment {
        Some(rule) => {
            cited.push(rule.citation.clone());
            (
                format!("{what}, ou a extinção por abandono se o titular não retornar"),
                cited,
            )
        }
        None => (what.to_string(), cited),
    }
}

/// A step of a permit's life whose `until` falls due while no later step
/// of the permit followed it (`$events`: the index predicate).
macro_rules! life_due {
    ($kind:literal, $events:literal) => {
        Due {
            list: List {
                name: $kind,
                table: "permit_history",
                columns: "service, number, seq, until, (SELECT p.rulebook FROM permits p \
                          WHERE p.jurisdiction = permit_history.jurisdiction \
                          AND p.service = permit_history.service \
                          AND p.number = permit_history.number) AS rulebook",
                key: &[
                    ("until", Kind::Text),
                    ("service", Kind::Text),
                    ("number", Kind::Int),
                    ("seq", Kind::Int),
                ],
                descending: false,
            },
            rows: concat!(
                $events,
                " AND until IS NOT NULL AND NOT EXISTS (SELECT 1 FROM permit_history l \
                 WHERE l.jurisdiction = permit_history.jurisdiction \
                 AND l.service = permit_history.service AND l.number = permit_history.number \
                 AND l.seq > permit_history.seq)"
            ),
            not_before: None,
            on_or_after: "until >= $?",
            after: "until > $?",
            until: "until <= $?",
        }
    };
}

const RESERVE_END: Due = life_due!(
    "reserve_end",
    "event IN ('reserve', 'reserve_extension', 'suspension')"
);

const CADUCITY_CURE: Due = life_due!("caducity_cure", "event = 'caducity_notice'");

const DEBT: Due = Due {
    list: List {
        name: "debt",
        table: "debts",
        columns: "year, number, seq, debtor, due_on",
        key: &[
            ("due_on", Kind::Text),
            ("year", Kind::Int),
            ("number", Kind::Int),
            ("seq", Kind::Int),
        ],
        descending: false,
    },
    rows: "installments IS NULL AND NOT EXISTS (SELECT 1 FROM payments p \
           WHERE p.jurisdiction = debts.jurisdiction AND p.year = debts.year \
           AND p.number = debts.number AND p.seq = debts.seq)",
    not_before: None,
    on_or_after: "due_on >= $?",
    after: "due_on > $?",
    until: "due_on <= $?",
};

/// The kinds the engine works out.
const INSPECTION: &str = "inspection";
const VEHICLE_REPLACEMENT: &str = "vehicle_replacement";
const THRESHOLD: &str = "threshold";

/// Every kind, for reading a cursor back.
const KINDS: &[&str] = &[
    PERMIT_EXPIRY.list.name,
    DOCUMENT_EXPIRY.list.name,
    NOTIFICATION.list.name,
    CURE.list.name,
    DEFENSE.list.name,
    DECISION_NOTIFICATION.list.name,
    APPEAL.list.name,
    SUSPENSION_END.list.name,
    RESERVE_END.list.name,
    CADUCITY_CURE.list.name,
    DEBT.list.name,
    INSPECTION,
    VEHICLE_REPLACEMENT,
    THRESHOLD,
];

/// The rows of `kind` in `span` (at most `limit`, and whether more follow),
/// each `convert`ed with its record's key.
async fn due_rows(
    tx: &mut Tx,
    kind: &Due,
    jurisdiction: &str,
    span: &Span<'_>,
    convert: impl Fn(&sqlx::any::AnyRow) -> Result<AgendaItem, StoreError>,
) -> Result<(Vec<Entry>, bool), StoreError> {
    let name = kind.list.name;
    let mut rows = Filter::default()
        .always("jurisdiction = $?", text(jurisdiction))
        .fixed(kind.rows)
        .always(kind.until, text(span.until.to_string()));
    if let Some(sql) = kind.not_before {
        rows = rows.always(sql, text(span.today.to_string()));
    }
    let mut resume = None;
    if let Some((due, after_kind, rest)) = span.after {
        let due = text(due.to_string());
        if name > after_kind {
            rows = rows.always(kind.on_or_after, due);
        } else if name < after_kind {
            rows = rows.always(kind.after, due);
        } else {
            let mut key = vec![due];
            key.extend_from_slice(rest);
            resume = Some(Cursor {
                list: name.to_string(),
                key,
            });
        }
    }
    let window = Window {
        limit: span.limit,
        after: resume.as_ref(),
    };
    let record = &kind.list.key[1..];
    let page = listing::page(&mut **tx, &kind.list, &rows, window, |row| {
        Ok((convert(row)?, listing::key_values(row, record)?))
    })
    .await?;
    Ok((page.items, page.next.is_some()))
}

/// The agenda's cursor as the span it resumes from.
fn resume_from(cursor: Option<&Cursor>) -> Result<Option<Resume<'_>>, StoreError> {
    let Some(cursor) = cursor else {
        return Ok(None);
    };
    let refused = || StoreError::Invalid {
        field: "cursor",
        reason: "o cursor não é desta agenda: peça a primeira página de novo, sem cursor".into(),
    };
    match (cursor.list.as_str(), cursor.key.as_slice()) {
        ("agenda", [KeyValue::Text(due), KeyValue::Text(kind), rest @ ..])
            if KINDS.contains(&kind.as_str()) =>
        {
            let due: NaiveDate = due.parse().map_err(|_| refused())?;
            Ok(Some((due, kind.as_str(), rest)))
        }
        _ => Err(refused()),
    }
}

impl Store {
    /// A page of what falls due in `jurisdiction` from `today` to
    /// `today + horizon_days` (and what is overdue), soonest first, then by
    /// kind and record. `rulebooks` are the jurisdiction's.
    pub async fn agenda(
        &self,
        jurisdiction: &str,
        rulebooks: &[&Rulebook],
        (today, horizon_days): (NaiveDate, u32),
        window: Window<'_>,
    ) -> Result<Page<AgendaItem>, StoreError> {
        let span = Span {
            today,
            until: today
                .checked_add_days(Days::new(u64::from(horizon_days)))
                .unwrap_or(today),
            after: resume_from(window.after)?,
            limit: window.limit.max(1),
        };
        let mut tx = self.pool.begin().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        // Each rulebook's context, read once.
        let mut laws = Vec::with_capacity(rulebooks.len());
        for rulebook in rulebooks {
            laws.push(crate::parameters::law(&mut tx, jurisdiction, rulebook).await?);
        }
        let law_of = |id: &str| laws.iter().find(|ctx| ctx.rulebook.id == id);
        let by_id = |id: &str| law_of(id).map(|ctx| ctx.rulebook);
        let mut parts = Vec::new();

        parts.push(
            due_rows(&mut tx, &PERMIT_EXPIRY, jurisdiction, &span, |row| {
                let (service, number): (String, i64) =
                    (row.try_get("service")?, row.try_get("number")?);
                let expires: String = row.try_get("expires_on")?;
                let rulebook: String = row.try_get("rulebook")?;
                let cited = by_id(&rulebook)
                    .map(|r| {
                        deadline_article(
                            r,
                            &[DeadlineKind::PermitTerm, DeadlineKind::DelegationTerm],
                        )
                    })
                    .unwrap_or_default();
                Ok(span.item(
                    "permit_expiry",
                    day(&expires)?,
                    format!("permit:{service}:{number}"),
                    format!(
                        "prazo da permissão {service} nº {number} termina: renovar ou extinguir"
                    ),
                    cited,
                ))
            })
            .await?,
        );
        for (kind, what) in [
            (
                &RESERVE_END,
                "a reserva (suspensão a pedido) termina: registrar o retorno à operação",
            ),
            (
                &CADUCITY_CURE,
                "termina o prazo para corrigir as falhas notificadas: após ele, a caducidade pode \
                 ser declarada",
            ),
        ] {
            let name = kind.list.name;
            parts.push(
                due_rows(&mut tx, kind, jurisdiction, &span, |row| {
                    let (service, number): (String, i64) =
                        (row.try_get("service")?, row.try_get("number")?);
                    let until: String = row.try_get("until")?;
                    let rulebook: Option<String> = row.try_get("rulebook")?;
                    let rulebook = rulebook.as_deref().and_then(by_id);
                    let (what, cited) = match (name, rulebook) {
                        ("reserve_end", Some(r)) => life_reserve_end(r, what),
                        (_, Some(r)) => (
                            what.to_string(),
                            deadline_article(r, &[DeadlineKind::CaducityCure]),
                        ),
                        (_, None) => (what.to_string(), Vec::new()),
                    };
                    Ok(span.item(
                        name,
                        day(&until)?,
                        format!("permit:{service}:{number}"),
                        format!("permissão {service} nº {number}: {what}"),
                        cited,
                    ))
                })
                .await?,
            );
        }
        parts.push(
            due_rows(&mut tx, &DOCUMENT_EXPIRY, jurisdiction, &span, |row| {
                let (code, kind, subject): (String, String, String) = (
                    row.try_get("code")?,
                    row.try_get("kind")?,
                    row.try_get("subject")?,
                );
                let valid: String = row.try_get("valid_until")?;
                Ok(span.item(
                    "document_expiry",
                    day(&valid)?,
                    subject,
                    format!("documento {kind} {code} vence: renovar"),
                    Vec::new(),
                ))
            })
            .await?,
        );
        for (kind, limit, column, what) in [
            (
                &NOTIFICATION,
                DeadlineKind::Notification,
                "notify_by",
                "notificar o autuado (ou arquivar, vencido o prazo)",
            ),
            (
                &CURE,
                DeadlineKind::Cure,
                "cure_by",
                "prazo para sanar a irregularidade: após ele, vistoria de verificação (avisada com 24 horas)",
            ),
            (
                &DEFENSE,
                DeadlineKind::Defense,
                "defense_by",
                "prazo de defesa: após ele, julgar",
            ),
            (
                &DECISION_NOTIFICATION,
                DeadlineKind::Appeal,
                "judged_on",
                "notificar o autuado da decisão (abre o prazo de recurso)",
            ),
            (
                &APPEAL,
                DeadlineKind::Appeal,
                "appeal_by",
                "prazo de recurso: após ele, a decisão se torna definitiva",
            ),
        ] {
            let name = kind.list.name;
            parts.push(
                due_rows(&mut tx, kind, jurisdiction, &span, |row| {
                    let (year, number): (i64, i64) = (row.try_get("year")?, row.try_get("number")?);
                    let date: String = row.try_get(column)?;
                    // The article of the deadline, from the auto's rulebook.
                    let rulebook: String = row.try_get("rulebook")?;
                    let cited = by_id(&rulebook)
                        .map(|r| deadline_article(r, &[limit]))
                        .unwrap_or_default();
                    Ok(span.item(
                        name,
                        day(&date)?,
                        format!("auto:{year}:{number}"),
                        format!("auto nº {number}/{year}: {what}"),
                        cited,
                    ))
                })
                .await?,
            );
        }
        parts.push(
            due_rows(&mut tx, &SUSPENSION_END, jurisdiction, &span, |row| {
                let ends: String = row.try_get("ends")?;
                let ends = day(&ends)?;
                let kind: String = row.try_get("kind")?;
                let target: Option<String> = row.try_get("target")?;
                let (year, number): (i64, i64) = (row.try_get("year")?, row.try_get("number")?);
                let cited: String = row.try_get("citations")?;
                Ok(span.item(
                    "suspension_end",
                    ends,
                    format!("auto:{year}:{number}"),
                    format!("{kind} de {} termina", target.unwrap_or_default()),
                    serde_json::from_str(&cited).unwrap_or_default(),
                ))
            })
            .await?,
        );
        parts.push(
            due_rows(&mut tx, &DEBT, jurisdiction, &span, |row| {
                let (year, number, seq): (i64, i64, i64) = (
                    row.try_get("year")?,
                    row.try_get("number")?,
                    row.try_get("seq")?,
                );
                let due: String = row.try_get("due_on")?;
                let debtor: String = row.try_get("debtor")?;
                Ok(span.item(
                    "debt",
                    day(&due)?,
                    format!("debt:{year}:{number}:{seq}"),
                    format!("multa do auto nº {number}/{year} devida por {debtor}"),
                    Vec::new(),
                ))
            })
            .await?,
        );
        parts.push(vehicles(&mut tx, jurisdiction, &laws, &span).await?);

        let mut more = parts.iter().any(|(_, more)| *more);
        let mut entries: Vec<Entry> = parts.into_iter().flat_map(|(entries, _)| entries).collect();
        // Stable: the items of one day and kind keep their source's order.
        entries.sort_by(|(a, _), (b, _)| (a.due, &a.kind).cmp(&(b.due, &b.kind)));
        // Thresholds fall due today: worked out only when this page can
        // reach them (not when it is full of what falls due before them, nor
        // when it starts after them).
        let limit = span.limit as usize;
        let full_before = (more || entries.len() > limit)
            && entries
                .get(limit - 1)
                .is_some_and(|(item, _)| (item.due, item.kind.as_str()) < (today, THRESHOLD));
        let started_after = span
            .after
            .is_some_and(|(d, k, _)| (d, k) > (today, THRESHOLD));
        if !full_before && !started_after {
            let mut crossed = Vec::new();
            for ctx in &laws {
                thresholds(&mut tx, &mut crossed, jurisdiction, ctx, &span).await?;
            }
            crossed.sort_by(|(_, a), (_, b)| a.cmp(b));
            entries.extend(crossed);
            entries.sort_by(|(a, _), (b, _)| (a.due, &a.kind).cmp(&(b.due, &b.kind)));
        }
        tx.commit().await?;
        more |= entries.len() > limit;
        entries.truncate(limit);
        let next = match entries.last() {
            Some((item, key)) if more => {
                let mut cursor = vec![text(item.due.to_string()), text(item.kind.as_str())];
                cursor.extend(key.iter().cloned());
                Some(Cursor {
                    list: "agenda".into(),
                    key: cursor,
                })
            }
            _ => None,
        };
        Ok(Page {
            items: entries.into_iter().map(|(item, _)| item).collect(),
            next,
        })
    }
}

/// The inspections due and the replacements of the vehicles in service
/// (the engine works them out from each vehicle's age and inspections).
async fn vehicles(
    tx: &mut Tx,
    jurisdiction: &str,
    laws: &[Context<'_>],
    span: &Span<'_>,
) -> Result<(Vec<Entry>, bool), StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT p.rulebook, pv.plate, pv.since FROM permits p JOIN permit_vehicles pv \
         ON pv.jurisdiction = p.jurisdiction AND pv.service = p.service AND pv.number = p.number \
         WHERE p.jurisdiction = $1 AND p.status IN {ACTIVE} AND pv.until IS NULL"
    )))
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    let mut out = Vec::new();
    for row in rows {
        let rulebook: String = row.try_get("rulebook")?;
        let Some(ctx) = laws.iter().find(|ctx| ctx.rulebook.id == rulebook) else {
            continue;
        };
        let plate: String = row.try_get("plate")?;
        let since: String = row.try_get("since")?;
        let Some(vehicle) = read_vehicle(tx, jurisdiction, &plate).await? else {
            continue;
        };
        let seen = engine_vehicle(tx, jurisdiction, &vehicle, Some(day(&since)?)).await?;
        let due = deadlines(ctx, &seen, span.today, false)?;
        let cited = articles(&due.citations);
        let subject = format!("vehicle:{plate}");
        let mut add = |kind: &str, on: NaiveDate, description: String| {
            let key = vec![text(plate.as_str()), text(description.as_str())];
            if span.admits(on, kind, &key) {
                out.push((
                    span.item(kind, on, subject.clone(), description, cited.clone()),
                    key,
                ));
            }
        };
        if let Some(next) = due.next_inspection {
            add(
                INSPECTION,
                next,
                format!("vistoria periódica do veículo {plate}"),
            );
        }
        for (kind, next) in &due.inspections {
            if let Some(next) = next {
                add(
                    INSPECTION,
                    *next,
                    format!("vistoria ({kind}) do veículo {plate}"),
                );
            }
        }
        if let Some(replace) = due.replace_by {
            add(
                VEHICLE_REPLACEMENT,
                replace,
                format!("veículo {plate} atinge a idade máxima: substituir"),
            );
        }
    }
    out.sort_by(|(a, ka), (b, kb)| (a.due, &a.kind, ka).cmp(&(b.due, &b.kind, kb)));
    let more = out.len() > span.limit as usize;
    out.truncate(span.limit as usize);
    Ok((out, more))
}

/// People whose points make a sanction due today (a threshold crossed),
/// in `span`.
async fn thresholds(
    tx: &mut Tx,
    out: &mut Vec<Entry>,
    jurisdiction: &str,
    ctx: &Context<'_>,
    span: &Span<'_>,
) -> Result<(), StoreError> {
    let rulebook = ctx.rulebook;
    if rulebook.thresholds.is_empty() {
        return Ok(());
    }
    let offenders = sqlx::query(
        "SELECT DISTINCT offender FROM autos WHERE jurisdiction = $1 AND rulebook = $2 AND status = 'final'",
    )
    .bind(jurisdiction)
    .bind(&rulebook.id)
    .fetch_all(&mut **tx)
    .await?;
    let docs: Vec<String> = offenders
        .iter()
        .map(|r| r.try_get("offender"))
        .collect::<Result<_, _>>()?;
    if docs.is_empty() {
        return Ok(());
    }
    let refs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let scope = Scope {
        all_permits: false,
        people: &refs,
        records_only: true,
    };
    let world = world::load(tx, ctx, jurisdiction, scope, span.today).await?;
    for doc in &docs {
        let key = vec![text(doc.as_str()), text(rulebook.id.as_str())];
        if !span.admits(span.today, THRESHOLD, &key) {
            continue;
        }
        let Some(person) = world.person(doc) else {
            continue;
        };
        let now = standing(ctx, &world.facts, person, span.today)?;
        if !now.triggers.is_empty() {
            let kinds: Vec<&str> = now.triggers.iter().map(|t| t.kind.name()).collect();
            let item = span.item(
                THRESHOLD,
                span.today,
                format!("person:{doc}"),
                format!(
                    "pontuação de {doc} atinge o limite: {} ({})",
                    kinds.join(", "),
                    rulebook.id
                ),
                articles(&now.citations()),
            );
            out.push((item, key));
        }
    }
    Ok(())
}
