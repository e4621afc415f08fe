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
//!
//! What is out of service today (`out_of_service`) is what the one rule of
//! what is in service (`engine::in_service`) bars, asked with what the
//! public checks read (`checks`): each vehicle serving a permit in force,
//! suspended or in reserve, and each driver linked to one, that it bars for
//! a reason the agenda shows nowhere else (a failed inspection, a seizure or
//! retention, the permit suspended or in reserve, the traffic authorization
//! or the registration expired…), with every bar in Portuguese and the
//! articles each rests on. Like the thresholds it falls due today and needs
//! the whole fleet and crew read (a query per vehicle, bounded by the
//! fleet, not by the autos), so it is worked out only when a page reaches
//! today's place for it: not for a page full of what falls due before, nor
//! for one that starts after.

use crate::checks::{self, Held, Serving, cited_list};
use crate::dates::day;
use crate::documents::kind_name as document_kind;
use crate::fleet::engine_vehicle;
use crate::listing::{self, Cursor, Filter, KeyValue, Kind, List, Page, Window, text};
use crate::parameters::deadline_article;
use crate::permit_status::STATUS_CITATIONS;
use crate::vehicles::read_vehicle;
use crate::world::{self, ACTIVE, Scope};
use crate::{Store, StoreError, Tx, articles};
use chrono::{Days, NaiveDate};
use outorga_core::Context;
use outorga_core::engine::in_service::{self, Bar};
use outorga_core::engine::standing::standing;
use outorga_core::engine::vehicle::deadlines;
use outorga_core::model::{Applicant, DeadlineKind, PermitStatus, Rulebook, SanctionKind};
use sqlx::Row;
use std::collections::BTreeMap;

/// One thing that falls due.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AgendaItem {
    /// permit_expiry, document_expiry, inspection, vehicle_replacement,
    /// notification, cure, verification, defense, decision_notification, appeal, threshold,
    /// suspension_end, reserve_end, caducity_cure, debt, parcel, refund,
    /// out_of_service.
    pub kind: String,
    pub due: NaiveDate,
    pub overdue: bool,
    /// The record it concerns (`permit:taxi:3`, `auto:2026:15`, …).
    pub subject: String,
    /// What to do, in Portuguese.
    pub description: String,
    pub articles: Vec<String>,
}

impl AgendaItem {
    /// The item's kind as staff read it, in Portuguese.
    pub fn kind_name(&self) -> &str {
        KINDS
            .iter()
            .find(|(kind, _)| *kind == self.kind)
            .map_or(self.kind.as_str(), |(_, name)| name)
    }

    /// The record it concerns as staff read it, in Portuguese.
    pub fn record_name(&self) -> String {
        record_name(&self.subject)
    }
}

/// A record key (`vehicle:ABC1D23`, `permit:taxi:3`, …) as people read it
/// (the key itself, for a kind of record it does not know).
pub fn record_name(subject: &str) -> String {
    let parts: Vec<&str> = subject.split(':').collect();
    match parts.as_slice() {
        ["permit", service, number] => format!("permissão {service} nº {number}"),
        ["vehicle", plate] => format!("veículo {plate}"),
        ["driver", registration] => format!("condutor de matrícula {registration}"),
        ["auto", year, number] => format!("auto nº {number}/{year}"),
        ["debt", year, number, "0"] => format!("taxa nº {number}/{year}"),
        ["debt", year, number, seq] => format!("débito {seq} do auto nº {number}/{year}"),
        ["debt", year, number, "0", parcel] => {
            format!("taxa nº {number}/{year}, parcela {parcel}")
        }
        ["debt", year, number, seq, parcel] => {
            format!("débito {seq} do auto nº {number}/{year}, parcela {parcel}")
        }
        ["person", document] => format!("pessoa {document}"),
        ["carrier_registration", year, number] => format!("registro cadastral nº {number}/{year}"),
        ["charter", year, number] => format!("fretamento nº {number}/{year}"),
        _ => subject.to_string(),
    }
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

    /// Whether this page reaches the items of `kind` that fall due today,
    /// given the `entries` merged so far (each source read to `limit`, and
    /// `more` when one had more): not when the page is full of what falls
    /// due before them, nor when it starts after them.
    fn reaches(&self, entries: &[Entry], more: bool, kind: &str) -> bool {
        let limit = self.limit as usize;
        let full_before = (more || entries.len() > limit)
            && entries
                .get(limit - 1)
                .is_some_and(|(item, _)| (item.due, item.kind.as_str()) < (self.today, kind));
        let started_after = self
            .after
            .is_some_and(|(d, k, _)| (d, k) > (self.today, kind));
        !full_before && !started_after
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

const AUTO_COLUMNS: &str =
    "year, number, rulebook, notify_by, defense_by, cure_by, verification_on, judged_on, appeal_by";
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
    // A slip's validity is its due day, a charter's authorization its
    // service's last day: nothing to renew (the index's rows).
    rows: "cancelled_on IS NULL AND valid_until IS NOT NULL \
           AND kind NOT IN ('payment_slip', 'charter_authorization')",
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
const VERIFICATION: Due = auto_deadline!(
    "verification",
    "verification_on",
    "status = 'awaiting_cure' AND verification_on IS NOT NULL"
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
        columns: "year, number, seq, kind, target, ends, citations, (SELECT a.plate FROM autos a \
                  WHERE a.jurisdiction = applied_sanctions.jurisdiction \
                  AND a.year = applied_sanctions.year AND a.number = applied_sanctions.number) AS plate",
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
        columns: "year, number, seq, debtor, due_on, purpose, unit, quantity, brl_on_issue",
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

/// A parcel of a plan not paid, of a debt whose balance did not fall due
/// at once.
const PARCEL: Due = Due {
    list: List {
        name: "parcel",
        table: "parcels",
        columns: "year, number, seq, parcel, due_on, quantity",
        key: &[
            ("due_on", Kind::Text),
            ("year", Kind::Int),
            ("number", Kind::Int),
            ("seq", Kind::Int),
            ("parcel", Kind::Int),
        ],
        descending: false,
    },
    rows: "NOT EXISTS (SELECT 1 FROM payments p WHERE p.jurisdiction = parcels.jurisdiction \
           AND p.year = parcels.year AND p.number = parcels.number AND p.seq = parcels.seq \
           AND p.parcel >= parcels.parcel) \
           AND NOT EXISTS (SELECT 1 FROM debts d WHERE d.jurisdiction = parcels.jurisdiction \
           AND d.year = parcels.year AND d.number = parcels.number AND d.seq = parcels.seq \
           AND d.accelerated_on IS NOT NULL)",
    not_before: None,
    on_or_after: "due_on >= $?",
    after: "due_on > $?",
    until: "due_on <= $?",
};

/// A refund asked and not yet paid back, by the last day the law gives.
const REFUND: Due = Due {
    list: List {
        name: "refund",
        table: "refunds",
        columns: "year, number, seq, due_by, cents, article",
        key: &[
            ("due_by", Kind::Text),
            ("year", Kind::Int),
            ("number", Kind::Int),
            ("seq", Kind::Int),
        ],
        descending: false,
    },
    rows: "refunded_on IS NULL",
    not_before: None,
    on_or_after: "due_by >= $?",
    after: "due_by > $?",
    until: "due_by <= $?",
};

/// The kinds the engine works out.
const INSPECTION: &str = "inspection";
const VEHICLE_REPLACEMENT: &str = "vehicle_replacement";
const OUT_OF_SERVICE: &str = "out_of_service";
const THRESHOLD: &str = "threshold";

/// Every kind (for reading a cursor back), with its name as staff read it.
const KINDS: &[(&str, &str)] = &[
    (PERMIT_EXPIRY.list.name, "vencimento da permissão"),
    (DOCUMENT_EXPIRY.list.name, "vencimento de documento"),
    (NOTIFICATION.list.name, "notificação"),
    (CURE.list.name, "saneamento"),
    (VERIFICATION.list.name, "vistoria de verificação"),
    (DEFENSE.list.name, "defesa"),
    (DECISION_NOTIFICATION.list.name, "notificação da decisão"),
    (APPEAL.list.name, "recurso"),
    (SUSPENSION_END.list.name, "fim de penalidade"),
    (RESERVE_END.list.name, "fim da reserva"),
    (CADUCITY_CURE.list.name, "correção antes da caducidade"),
    (DEBT.list.name, "débito"),
    (PARCEL.list.name, "parcela"),
    (REFUND.list.name, "restituição"),
    (INSPECTION, "vistoria"),
    (VEHICLE_REPLACEMENT, "substituição de veículo"),
    (OUT_OF_SERVICE, "fora de serviço"),
    (THRESHOLD, "limite de pontos"),
];

/// Adds `more` to `entries`, in the agenda's order. Stable: the items of
/// one day and kind keep their source's order.
fn merge(entries: &mut Vec<Entry>, more: impl IntoIterator<Item = Entry>) {
    entries.extend(more);
    entries.sort_by(|(a, _), (b, _)| (a.due, &a.kind).cmp(&(b.due, &b.kind)));
}

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
            if KINDS.iter().any(|(known, _)| known == kind) =>
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
                let what = format!(
                    "{} {code} ({}) vence: renovar",
                    document_kind(&kind),
                    record_name(&subject)
                );
                Ok(span.item("document_expiry", day(&valid)?, subject, what, Vec::new()))
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
                &VERIFICATION,
                DeadlineKind::VerificationInspectionNotice,
                "verification_on",
                "vistoria de verificação comunicada ao delegatário: registrar se a irregularidade foi sanada",
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
                let plate: Option<String> = row.try_get("plate")?;
                let (year, number): (i64, i64) = (row.try_get("year")?, row.try_get("number")?);
                let cited: String = row.try_get("citations")?;
                let what = match SanctionKind::parse(&kind) {
                    Some(known) => known.portuguese(),
                    None => kind.as_str(),
                };
                let whom = match (target, plate) {
                    (Some(target), _) => format!(" de {target}"),
                    (None, Some(plate)) => format!(" do veículo {plate}"),
                    (None, None) => String::new(),
                };
                Ok(span.item(
                    "suspension_end",
                    ends,
                    format!("auto:{year}:{number}"),
                    format!("{what}{whom} termina (auto nº {number}/{year})"),
                    cited_list(&cited),
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
                let purpose: String = row.try_get("purpose")?;
                let unit: String = row.try_get("unit")?;
                let quantity: String = row.try_get("quantity")?;
                let brl: Option<String> = row.try_get("brl_on_issue")?;
                let amount = match brl {
                    Some(brl) => crate::brl::money(&brl),
                    None => format!("{} {unit}", crate::brl::decimal(&quantity)),
                };
                Ok(span.item(
                    "debt",
                    day(&due)?,
                    format!("debt:{year}:{number}:{seq}"),
                    format!("{purpose}: {amount}, devido por {debtor}"),
                    Vec::new(),
                ))
            })
            .await?,
        );
        parts.push(
            due_rows(&mut tx, &PARCEL, jurisdiction, &span, |row| {
                let (year, number, seq, parcel): (i64, i64, i64, i64) = (
                    row.try_get("year")?,
                    row.try_get("number")?,
                    row.try_get("seq")?,
                    row.try_get("parcel")?,
                );
                let due: String = row.try_get("due_on")?;
                let quantity: String = row.try_get("quantity")?;
                Ok(span.item(
                    "parcel",
                    day(&due)?,
                    format!("debt:{year}:{number}:{seq}"),
                    format!(
                        "parcela {parcel} ({}) de {}",
                        crate::brl::decimal(&quantity),
                        record_name(&format!("debt:{year}:{number}:{seq}"))
                    ),
                    Vec::new(),
                ))
            })
            .await?,
        );
        parts.push(
            due_rows(&mut tx, &REFUND, jurisdiction, &span, |row| {
                let (year, number, seq): (i64, i64, i64) = (
                    row.try_get("year")?,
                    row.try_get("number")?,
                    row.try_get("seq")?,
                );
                let due: String = row.try_get("due_by")?;
                let cents: i64 = row.try_get("cents")?;
                let article: Option<String> = row.try_get("article")?;
                Ok(span.item(
                    "refund",
                    day(&due)?,
                    format!("debt:{year}:{number}:{seq}"),
                    format!(
                        "restituir {} de {}",
                        crate::debts::brl_text(cents),
                        record_name(&format!("debt:{year}:{number}:{seq}"))
                    ),
                    article.into_iter().collect(),
                ))
            })
            .await?,
        );
        // The vehicles serving, read once for what the engine works out of
        // them and for what is out of service.
        let serving = fleet(&mut tx, jurisdiction).await?;
        parts.push(vehicles(&mut tx, jurisdiction, (&laws, &serving), &span).await?);

        let mut more = parts.iter().any(|(_, more)| *more);
        let mut entries = Vec::new();
        merge(
            &mut entries,
            parts.into_iter().flat_map(|(entries, _)| entries),
        );
        // What is out of service and the thresholds fall due today: worked
        // out only when this page can reach them.
        if span.reaches(&entries, more, OUT_OF_SERVICE) {
            let (barred, further) =
                out_of_service(&mut tx, jurisdiction, (&laws, &serving), &span).await?;
            more |= further;
            merge(&mut entries, barred);
        }
        if span.reaches(&entries, more, THRESHOLD) {
            let mut crossed = Vec::new();
            for ctx in &laws {
                thresholds(&mut tx, &mut crossed, jurisdiction, ctx, &span).await?;
            }
            crossed.sort_by(|(_, a), (_, b)| a.cmp(b));
            merge(&mut entries, crossed);
        }
        tx.commit().await?;
        let limit = span.limit as usize;
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

/// A vehicle serving a permit in force, suspended or in reserve.
struct Serves {
    rulebook: String,
    plate: String,
    since: NaiveDate,
}

/// The vehicles serving the permits of `jurisdiction` in force, suspended
/// or in reserve, by plate.
async fn fleet(tx: &mut Tx, jurisdiction: &str) -> Result<Vec<Serves>, StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT p.rulebook, pv.plate, pv.since FROM permits p JOIN permit_vehicles pv \
         ON pv.jurisdiction = p.jurisdiction AND pv.service = p.service AND pv.number = p.number \
         WHERE p.jurisdiction = $1 AND p.status IN {ACTIVE} AND pv.until IS NULL"
    )))
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    let mut fleet = rows
        .iter()
        .map(|row| {
            let since: String = row.try_get("since")?;
            Ok(Serves {
                rulebook: row.try_get("rulebook")?,
                plate: row.try_get("plate")?,
                since: day(&since)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    fleet.sort_by(|a, b| a.plate.cmp(&b.plate));
    Ok(fleet)
}

/// The inspections due and the replacements of the vehicles in service
/// (the engine works them out from each vehicle's age and inspections).
async fn vehicles(
    tx: &mut Tx,
    jurisdiction: &str,
    (laws, serving): (&[Context<'_>], &[Serves]),
    span: &Span<'_>,
) -> Result<(Vec<Entry>, bool), StoreError> {
    let mut out = Vec::new();
    for Serves {
        rulebook,
        plate,
        since,
    } in serving
    {
        let Some(ctx) = laws.iter().find(|ctx| ctx.rulebook.id == *rulebook) else {
            continue;
        };
        let Some(vehicle) = read_vehicle(tx, jurisdiction, plate).await? else {
            continue;
        };
        let seen = engine_vehicle(tx, jurisdiction, &vehicle, Some(*since)).await?;
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
                let what = ctx
                    .rulebook
                    .vehicles
                    .inspections
                    .iter()
                    .find(|i| i.kind == *kind)
                    .map_or(*kind, |i| i.description.as_str());
                add(
                    INSPECTION,
                    *next,
                    format!("vistoria do veículo {plate}: {what}"),
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

/// Whether the agenda already shows `bar` by another kind, so that alone it
/// makes no `out_of_service` item: a seal expired is the inspection the
/// engine works out falling due (the seal lasts until then), shown overdue
/// as `inspection`; a permit whose term ran out is its `permit_expiry`,
/// overdue.
fn shown_elsewhere(bar: &Bar) -> bool {
    matches!(
        bar,
        Bar::SealExpired(_) | Bar::Permit(PermitStatus::Extinct)
    )
}

/// What the record keeps of the measures and penalties behind a vehicle's
/// or a driver's bars: its holds, its permit's reserve or suspension, the
/// driver's suspension, each with the articles it was applied on.
#[derive(Default)]
struct Recorded<'a> {
    holds: &'a [Held],
    permit: Vec<String>,
    suspension: &'a [String],
}

/// The articles a bar rests on: the rule of the law it breaks (the
/// inspection schedule, the traffic authorization's term, the
/// registration's validity, the permit's term), or for a measure or a
/// penalty those it was applied on.
fn bar_articles(rulebook: Option<&Rulebook>, bar: &Bar, recorded: &Recorded<'_>) -> Vec<String> {
    let Some(law) = rulebook else {
        return Vec::new();
    };
    match bar {
        Bar::NoSeal | Bar::SealExpired(_) | Bar::InspectionFailed(_) => law
            .vehicles
            .inspection
            .iter()
            .map(|rule| rule.citation.clone())
            .collect(),
        Bar::NoAuthorization | Bar::AuthorizationExpired(_) => {
            deadline_article(law, &[DeadlineKind::TrafficAuthorizationTerm])
        }
        Bar::RegistrationExpired(_) => law
            .registrations
            .iter()
            .filter(|rule| rule.role == Applicant::Driver)
            .map(|rule| rule.citation.clone())
            .collect(),
        Bar::Permit(PermitStatus::Extinct) => deadline_article(
            law,
            &[DeadlineKind::PermitTerm, DeadlineKind::DelegationTerm],
        ),
        Bar::Permit(_) => recorded.permit.clone(),
        Bar::Held(kind, until) => recorded
            .holds
            .iter()
            .filter(|held| held.hold.kind == *kind && held.hold.until == *until)
            .flat_map(|held| held.articles.iter().cloned())
            .collect(),
        Bar::Suspended(_) => recorded.suspension.to_vec(),
        _ => Vec::new(),
    }
}

/// The articles of the reserve or suspension a permit is in, read once per
/// permit (`known`), when `bars` name its status.
async fn permit_articles(
    tx: &mut Tx,
    known: &mut BTreeMap<(String, i64), Vec<String>>,
    jurisdiction: &str,
    (service, number): (&str, i64),
    bars: &[Bar],
) -> Result<Vec<String>, StoreError> {
    let reserved = bars.iter().any(|bar| {
        matches!(
            bar,
            Bar::Permit(PermitStatus::Suspended | PermitStatus::Reserved)
        )
    });
    if !reserved {
        return Ok(Vec::new());
    }
    let key = (service.to_string(), number);
    if let Some(cited) = known.get(&key) {
        return Ok(cited.clone());
    }
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {STATUS_CITATIONS} AS citations FROM permits p \
         WHERE p.jurisdiction = $1 AND p.service = $2 AND p.number = $3"
    )))
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?;
    let cited: Option<String> = match row {
        Some(row) => row.try_get("citations")?,
        None => None,
    };
    let cited = cited.as_deref().map(cited_list).unwrap_or_default();
    known.insert(key, cited.clone());
    Ok(cited)
}

/// The `out_of_service` item of a record the rule bars today, unless every
/// bar is one the agenda shows by another kind: every bar, in Portuguese,
/// and the articles they rest on.
fn barred(
    span: &Span<'_>,
    (subject, who): (String, String),
    bars: &[Bar],
    rulebook: Option<&Rulebook>,
    recorded: &Recorded<'_>,
) -> Option<Entry> {
    if bars.iter().all(shown_elsewhere) {
        return None;
    }
    let why: Vec<String> = bars.iter().map(Bar::portuguese).collect();
    let cited: Vec<String> = bars
        .iter()
        .flat_map(|bar| bar_articles(rulebook, bar, recorded))
        .collect();
    let cited: Vec<&str> = cited.iter().map(String::as_str).collect();
    let key = vec![text(subject.as_str())];
    let item = span.item(
        OUT_OF_SERVICE,
        span.today,
        subject,
        format!("{who} fora de serviço: {}", why.join("; ")),
        articles(&cited),
    );
    Some((item, key))
}

/// The drivers and the vehicles the one rule of what is in service bars
/// today (see the module's comment), in `span`: drivers by registration,
/// then vehicles by plate (their record keys' order), at most `limit`, and
/// whether more follow.
async fn out_of_service(
    tx: &mut Tx,
    jurisdiction: &str,
    (laws, serving): (&[Context<'_>], &[Serves]),
    span: &Span<'_>,
) -> Result<(Vec<Entry>, bool), StoreError> {
    let today = span.today;
    let limit = span.limit as usize;
    let law = |id: &str| {
        laws.iter()
            .find(|ctx| ctx.rulebook.id == id)
            .map(|ctx| ctx.rulebook)
    };
    let admitted = |subject: &str| span.admits(today, OUT_OF_SERVICE, &[text(subject)]);
    let mut permits = BTreeMap::new();
    let mut out = Vec::new();
    for serving in checks::serving_drivers(tx, jurisdiction, today).await? {
        let Serving {
            driver,
            rulebook,
            permit,
            suspension,
        } = serving;
        if out.len() > limit {
            break;
        }
        let subject = format!("driver:{}", driver.registration);
        if !admitted(&subject) {
            continue;
        }
        let bars = in_service::driver(&driver.record(Some(permit)), today);
        let recorded = Recorded {
            permit: permit_articles(
                tx,
                &mut permits,
                jurisdiction,
                (&driver.service, driver.number),
                &bars,
            )
            .await?,
            suspension: &suspension,
            ..Recorded::default()
        };
        let who = format!(
            "{} ({})",
            record_name(&subject),
            record_name(&format!("permit:{}:{}", driver.service, driver.number))
        );
        out.extend(barred(
            span,
            (subject, who),
            &bars,
            law(&rulebook),
            &recorded,
        ));
    }
    for Serves {
        rulebook, plate, ..
    } in serving
    {
        if out.len() > limit {
            break;
        }
        let subject = format!("vehicle:{plate}");
        if !admitted(&subject) {
            continue;
        }
        let Some(check) = checks::plate_check(tx, jurisdiction, plate, today).await? else {
            continue;
        };
        let bars = in_service::vehicle(&check.record(), today);
        let permit = match &check.permit {
            Some((service, number, _)) => {
                permit_articles(tx, &mut permits, jurisdiction, (service, *number), &bars).await?
            }
            None => Vec::new(),
        };
        let recorded = Recorded {
            holds: &check.holds,
            permit,
            ..Recorded::default()
        };
        let who = record_name(&subject);
        out.extend(barred(
            span,
            (subject, who),
            &bars,
            law(rulebook),
            &recorded,
        ));
    }
    let more = out.len() > limit;
    out.truncate(limit);
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
            let kinds: Vec<&str> = now.triggers.iter().map(|t| t.kind.portuguese()).collect();
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

/// How many items of the agenda fall due on each day from `today` to
/// `until` (what is overdue left out): each kind the database holds counted
/// over its own index range, grouped by its day (one aggregate query each:
/// the rows of the range are counted, not read), and the vehicles'
/// inspections and replacements as the agenda works them out. What is out
/// of service and the thresholds, which the agenda shows as falling due
/// today from the whole fleet and crew, are not counted here.
pub(crate) async fn due_per_day(
    tx: &mut Tx,
    jurisdiction: &str,
    laws: &[Context<'_>],
    (today, until): (NaiveDate, NaiveDate),
) -> Result<BTreeMap<NaiveDate, u64>, StoreError> {
    let mut days = BTreeMap::new();
    for kind in [
        &PERMIT_EXPIRY,
        &RESERVE_END,
        &CADUCITY_CURE,
        &DOCUMENT_EXPIRY,
        &NOTIFICATION,
        &CURE,
        &VERIFICATION,
        &DEFENSE,
        &DECISION_NOTIFICATION,
        &APPEAL,
        &SUSPENSION_END,
        &DEBT,
        &PARCEL,
        &REFUND,
    ] {
        let column = kind.list.key[0].0;
        let sql = format!(
            "SELECT {column} AS due, COUNT(*) AS n FROM {} WHERE jurisdiction = $1 AND {} \
             AND {} AND {} GROUP BY {column}",
            kind.list.table,
            kind.rows,
            kind.on_or_after.replace("$?", "$2"),
            kind.until.replace("$?", "$3"),
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(jurisdiction)
            .bind(today.to_string())
            .bind(until.to_string())
            .fetch_all(&mut **tx)
            .await?;
        for row in rows {
            let due: String = row.try_get("due")?;
            let n: i64 = row.try_get("n")?;
            *days.entry(day(&due)?).or_insert(0) += u64::try_from(n).unwrap_or(0);
        }
    }
    let span = Span {
        today,
        until,
        after: None,
        limit: u32::MAX,
    };
    let serving = fleet(tx, jurisdiction).await?;
    let (worked_out, _) = vehicles(tx, jurisdiction, (laws, &serving), &span).await?;
    for (item, _) in worked_out {
        if item.due >= today {
            *days.entry(item.due).or_insert(0) += 1;
        }
    }
    Ok(days)
}
