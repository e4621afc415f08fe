//! Autos de infração: issued with the fields the law requires, numbered per
//! jurisdiction and year without gaps, with the engine's penalty proposal.
//! The process that follows (notification, defense, judgement, appeal,
//! final decision) is in `process.rs`.

use crate::TextKind;
use crate::audit::images::RowRef;
use crate::audit::{Audit, Change, Entry, append, next_number};
use crate::dates::{day, moment};
use crate::listing::{self, Filter, Kind, List, Page, Window, day_range, one_of, renamed, text};
use crate::parameters::optional_deadline;
use crate::permits::{bound, read_permit};
use crate::world::{self, Scope, World};
use crate::{Store, StoreError, Tx, articles};
use chrono::{Datelike, NaiveDate, NaiveDateTime};
use outorga_core::engine::penalty::penalty;
use outorga_core::engine::process::{Decision, Stake, Stakes, Status};
use outorga_core::engine::sanctions::Sanction;
use outorga_core::facts::Event;
use outorga_core::model::{DeadlineKind, Rulebook, SanctionKind};
use sqlx::Row;

/// What an inspector writes on an auto.
#[derive(Debug, Clone, Default)]
pub struct AutoInput {
    /// The infraction's code in the rulebook (e.g. `51-I-a`).
    pub infraction: String,
    /// CPF or CNPJ of the offender (registered).
    pub offender: String,
    /// The permit it was committed under, when known.
    pub permit: Option<(String, i64)>,
    pub plate: Option<String>,
    pub committed_at: NaiveDateTime,
    pub place: String,
    pub description: String,
}

/// One sanction the engine proposes, in documents and plain numbers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProposedSanction {
    pub kind: String,
    pub target: Option<String>,
    pub payer: Option<String>,
    pub unit: Option<String>,
    /// The fine in its unit (exact decimal text).
    pub quantity: Option<String>,
    pub brl: Option<String>,
    pub days: Option<u32>,
    #[serde(default)]
    pub min_days: Option<u32>,
    pub max_days: Option<u32>,
    pub years: Option<u32>,
    pub months: Option<u32>,
    /// At least this many hours (a measure's minimum).
    #[serde(default)]
    pub min_hours: Option<u32>,
    /// `days` are business days (TO art. 86, § 1º).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub business_days: bool,
    /// The article that applies it on the spot, from the auto on.
    #[serde(default)]
    pub at_once: Option<String>,
    /// The deciding authority may impose it or not.
    #[serde(default)]
    pub optional: bool,
    pub articles: Vec<String>,
}

/// What the deciding authority may decide instead of the proposal, and
/// the article that lets it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProposedOption {
    pub sanctions: Vec<ProposedSanction>,
    pub article: String,
}

/// The engine's proposal: sanctions, points added per document, articles;
/// for a notice of irregularity, the penalty if it is not cured; the options
/// the procedure gives the deciding authority.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Proposal {
    pub sanctions: Vec<ProposedSanction>,
    pub points: Vec<(String, String)>,
    pub articles: Vec<String>,
    #[serde(default)]
    pub uncured: Vec<ProposedSanction>,
    #[serde(default)]
    pub options: Vec<ProposedOption>,
}

impl Proposal {
    /// What the procedure's machine weighs: the sanctions at stake, their
    /// kinds parsed (a stored kind the core does not know is a corrupt row).
    pub(crate) fn stakes(&self) -> Result<Stakes<'_>, StoreError> {
        fn all(list: &[ProposedSanction]) -> Result<Vec<Stake<'_>>, StoreError> {
            list.iter().map(ProposedSanction::stake).collect()
        }
        Ok(Stakes {
            found: all(&self.sanctions)?,
            uncured: all(&self.uncured)?,
            options: self
                .options
                .iter()
                .map(|o| Ok((all(&o.sanctions)?, o.article.as_str())))
                .collect::<Result<_, StoreError>>()?,
        })
    }
}

impl ProposedSanction {
    /// The engine's sanction, in documents and plain numbers.
    fn of(world: &World, s: &Sanction<'_>) -> Self {
        ProposedSanction {
            kind: s.kind.name().to_string(),
            target: s.target.map(|p| world.document(p).to_string()),
            payer: s.payer.map(|p| world.document(p).to_string()),
            unit: s.amount.as_ref().map(|a| a.unit.to_string()),
            quantity: s
                .amount
                .as_ref()
                .map(|a| a.quantity.normalize().to_string()),
            brl: s.brl.map(|b| b.to_string()),
            days: s.days,
            min_days: s.min_days,
            max_days: s.max_days,
            years: s.years,
            months: s.months,
            min_hours: s.min_hours,
            business_days: s.business_days,
            at_once: s.at_once.map(str::to_string),
            optional: s.optional,
            articles: articles(&s.citations),
        }
    }

    pub(crate) fn sanction_kind(&self) -> Result<SanctionKind, StoreError> {
        SanctionKind::parse(&self.kind)
            .ok_or_else(|| StoreError::Corrupt(format!("proposta: penalidade `{}`", self.kind)))
    }

    pub(crate) fn stake(&self) -> Result<Stake<'_>, StoreError> {
        Ok(Stake {
            kind: self.sanction_kind()?,
            days: self.days,
            min_days: self.min_days,
            max_days: self.max_days,
            years: self.years,
            months: self.months,
            min_hours: self.min_hours,
            business_days: self.business_days,
            at_once: self.at_once.as_deref(),
            optional: self.optional,
            citations: self.articles.iter().map(String::as_str).collect(),
        })
    }
}

/// An auto as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Auto {
    pub year: i32,
    pub number: i64,
    pub rulebook: String,
    pub infraction: String,
    pub offender: String,
    pub permit: Option<(String, i64)>,
    pub plate: Option<String>,
    pub committed_at: NaiveDateTime,
    pub place: String,
    pub description: String,
    pub inspector: String,
    pub status: Status,
    pub proposal: Proposal,
    pub notify_by: Option<NaiveDate>,
    pub notified_on: Option<NaiveDate>,
    pub defense_by: Option<NaiveDate>,
    pub defense_on: Option<NaiveDate>,
    pub judged_on: Option<NaiveDate>,
    pub appeal_by: Option<NaiveDate>,
    pub appealed_on: Option<NaiveDate>,
    pub final_on: Option<NaiveDate>,
    /// The day it was issued (lavrado), or the day a notice of
    /// irregularity was found not cured and became the auto; none for an
    /// auto recorded before migration 0023 (then: the infraction's day).
    pub issued_on: Option<NaiveDate>,
    /// A notice of irregularity found not cured: the proposal's `uncured`
    /// penalty applies.
    pub uncured: bool,
    pub cure_by: Option<NaiveDate>,
    pub decision_notified_on: Option<NaiveDate>,
    /// Appeals decided so far.
    pub instance: usize,
    /// What the authority decided: upheld, days fixed, sanctions chosen.
    pub decision: Option<Decision>,
    /// The day what was held on the spot was released.
    pub released_on: Option<NaiveDate>,
}

/// The deadline of `kind` from `from`, when the rulebook sets one.
pub(crate) const COLUMNS: &str = "year, number, rulebook, infraction, offender, service, permit_number, plate, \
    committed_at, place, description, inspector, status, proposal, notify_by, notified_on, defense_by, \
    defense_on, judged_on, appeal_by, appealed_on, final_on, issued_on, uncured, cure_by, \
    decision_notified_on, instance, decision, released_on";

fn opt_day(row: &sqlx::any::AnyRow, column: &str) -> Result<Option<NaiveDate>, StoreError> {
    let text: Option<String> = row.try_get(column)?;
    text.as_deref().map(day).transpose()
}

pub(crate) fn auto_of(row: &sqlx::any::AnyRow) -> Result<Auto, StoreError> {
    let service: Option<String> = row.try_get("service")?;
    let permit_number: Option<i64> = row.try_get("permit_number")?;
    let at: String = row.try_get("committed_at")?;
    let proposal: String = row.try_get("proposal")?;
    let year: i64 = row.try_get("year")?;
    Ok(Auto {
        year: i32::try_from(year).unwrap_or_default(),
        number: row.try_get("number")?,
        rulebook: row.try_get("rulebook")?,
        infraction: row.try_get("infraction")?,
        offender: row.try_get("offender")?,
        permit: service.zip(permit_number),
        plate: row.try_get("plate")?,
        committed_at: moment(&at)?,
        place: row.try_get("place")?,
        description: row.try_get("description")?,
        inspector: row.try_get("inspector")?,
        status: {
            let status: String = row.try_get("status")?;
            Status::parse(&status)
                .ok_or_else(|| StoreError::Corrupt(format!("situação do auto `{status}`")))?
        },
        proposal: serde_json::from_str(&proposal)
            .map_err(|e| StoreError::Corrupt(format!("proposal: {e}")))?,
        notify_by: opt_day(row, "notify_by")?,
        notified_on: opt_day(row, "notified_on")?,
        defense_by: opt_day(row, "defense_by")?,
        defense_on: opt_day(row, "defense_on")?,
        judged_on: opt_day(row, "judged_on")?,
        appeal_by: opt_day(row, "appeal_by")?,
        appealed_on: opt_day(row, "appealed_on")?,
        final_on: opt_day(row, "final_on")?,
        issued_on: opt_day(row, "issued_on")?,
        uncured: row.try_get::<i32, _>("uncured")? != 0,
        cure_by: opt_day(row, "cure_by")?,
        decision_notified_on: opt_day(row, "decision_notified_on")?,
        instance: usize::try_from(row.try_get::<i32, _>("instance")?).unwrap_or_default(),
        decision: row
            .try_get::<Option<String>, _>("decision")?
            .as_deref()
            .map(crate::process::decision_of)
            .transpose()?,
        released_on: opt_day(row, "released_on")?,
    })
}

pub(crate) async fn read_auto(
    tx: &mut Tx,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Auto, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM autos WHERE jurisdiction = $1 AND year = $2 AND number = $3"
    )))
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some(row) => auto_of(&row),
        None => Err(StoreError::NotFound(format!(
            "não há auto nº {number}/{year} em {jurisdiction}"
        ))),
    }
}

/// Appends a step to an auto's process; its audit entry also holds the
/// auto's row as the step left it.
pub(crate) async fn auto_step(
    tx: &mut Tx,
    audit: &Audit,
    change: &Change<'_>,
    jurisdiction: &str,
    (year, number): (i32, i64),
    (step, on): (&str, NaiveDate),
    (detail, cited): (&str, &[String]),
) -> Result<(), StoreError> {
    let seq: i64 = sqlx::query(
        "INSERT INTO auto_steps (jurisdiction, year, number, seq, step, on_date, detail, citations) \
         SELECT $1, $2, $3, COALESCE(MAX(seq), 0) + 1, $4, $5, $6, $7 FROM auto_steps \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3 RETURNING seq",
    )
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .bind(step)
    .bind(on.to_string())
    .bind(detail)
    .bind(serde_json::json!(cited).to_string())
    .fetch_one(&mut **tx)
    .await?
    .try_get("seq")?;
    append(
        tx,
        audit,
        change,
        Entry {
            action: &format!("auto.{step}"),
            jurisdiction: Some(jurisdiction),
            subject: &format!("auto:{year}:{number}"),
            detail: serde_json::json!({ "on": on, "detail": detail, "articles": cited }),
            rows: vec![
                RowRef::new(
                    "auto_steps",
                    [jurisdiction.into(), year.into(), number.into(), seq.into()],
                ),
                RowRef::new("autos", [jurisdiction.into(), year.into(), number.into()]),
            ],
        },
    )
    .await?;
    Ok(())
}

/// An auto's own fields: a fact of the past under the law in force, its
/// place and description.
fn check_input(
    input: &AutoInput,
    change: &Change<'_>,
    rulebook: &Rulebook,
) -> Result<(), StoreError> {
    crate::under_law("data_hora", input.committed_at.date(), change, rulebook)?;
    crate::text::checked("infração", &input.infraction, TextKind::Code)?;
    for (field, value, kind) in [
        ("local", &input.place, TextKind::Line),
        ("descrição", &input.description, TextKind::Long),
    ] {
        if crate::text::checked(field, value, kind)?.is_empty() {
            return Err(StoreError::Invalid {
                field,
                reason: "o auto de infração precisa deste campo".into(),
            });
        }
    }
    Ok(())
}

impl Store {
    /// Issues an auto de infração: checks its fields, asks the engine for the
    /// penalty the law attaches (the offender's final record counts), sets
    /// the deadline to notify, and numbers it in the jurisdiction's sequence
    /// of the year of issue. The inspector is `change.by`.
    pub async fn issue_auto(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        input: &AutoInput,
    ) -> Result<Auto, StoreError> {
        // The day the auto is issued, in the jurisdiction's time.
        let issued_on = rulebook.jurisdiction.today(change.at);
        check_input(input, change, rulebook)?;
        let (offender, _) = crate::parse_document(&input.offender)?;
        let plate = input
            .plate
            .as_deref()
            .filter(|p| !p.trim().is_empty())
            .map(crate::parse_plate)
            .transpose()?;
        let Some(infraction) = rulebook.infraction_by_code(input.infraction.trim()) else {
            return Err(StoreError::Invalid {
                field: "infração",
                reason: format!("`{}` não é infração de {}", input.infraction, rulebook.id),
            });
        };
        // The decision is read in a transaction of its own, before the write
        // lock is taken: the lock covers only numbering and writing, so
        // autos are issued at the pace of their writes. (A decision that
        // became final meanwhile on another auto of the same offender is
        // not in this proposal; the board judges it with the record of then.)
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let mut people = vec![offender.as_str()];
        let permit = match &input.permit {
            Some((service, number)) => {
                bound(&mut tx, jurisdiction, rulebook, service).await?;
                Some(read_permit(&mut tx, jurisdiction, service, *number).await?)
            }
            None => {
                let row = sqlx::query(
                    "SELECT 1 AS one FROM jurisdiction_rulebooks WHERE jurisdiction = $1 AND rulebook = $2",
                )
                .bind(jurisdiction)
                .bind(&rulebook.id)
                .fetch_optional(&mut *tx)
                .await?;
                if row.is_none() {
                    return Err(StoreError::Invalid {
                        field: "jurisdição",
                        reason: format!("{jurisdiction} não aplica o regulamento {}", rulebook.id),
                    });
                }
                None
            }
        };
        if let Some(p) = &permit {
            people.push(&p.holder);
        }
        let scope = Scope {
            all_permits: false,
            people: &people,
            records_only: true,
        };
        let world = world::load(&mut tx, &ctx, jurisdiction, scope, issued_on).await?;
        let Some(by) = world.person(&offender) else {
            return Err(StoreError::NotFound(format!(
                "{offender} não está cadastrado em {jurisdiction}"
            )));
        };
        let event = Event {
            infraction,
            by,
            permit: permit
                .as_ref()
                .and_then(|p| world.permit(&p.service, p.number)),
            at: input.committed_at,
            is_final: false,
            uncured: false,
        };
        let decided = penalty(&ctx, &world.facts, &event)?;
        let uncured = if decided
            .sanctions
            .iter()
            .any(|s| s.kind == SanctionKind::NoticeOfIrregularity)
        {
            let event = Event {
                uncured: true,
                ..event
            };
            penalty(&ctx, &world.facts, &event)?.sanctions
        } else {
            Vec::new()
        };
        let proposal = Proposal {
            sanctions: decided
                .sanctions
                .iter()
                .map(|s| ProposedSanction::of(&world, s))
                .collect(),
            uncured: uncured
                .iter()
                .map(|s| ProposedSanction::of(&world, s))
                .collect(),
            options: decided
                .options
                .iter()
                .map(|(set, article)| ProposedOption {
                    sanctions: set
                        .iter()
                        .map(|s| ProposedSanction::of(&world, s))
                        .collect(),
                    article: article.to_string(),
                })
                .collect(),
            points: decided
                .points
                .iter()
                .map(|(p, n)| (world.document(*p).to_string(), n.normalize().to_string()))
                .collect(),
            articles: articles(&decided.citations()),
        };
        let notify = optional_deadline(&ctx, DeadlineKind::Notification, issued_on)?;
        tx.commit().await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let year = issued_on.year();
        let number = next_number(&mut tx, jurisdiction, "auto", year).await?;
        let points_of = |doc: &str| {
            proposal
                .points
                .iter()
                .find(|(d, _)| d == doc)
                .map_or("0".to_string(), |(_, n)| n.clone())
        };
        let holder = permit.as_ref().map(|p| p.holder.clone());
        sqlx::query(
            "INSERT INTO autos (jurisdiction, year, number, rulebook, infraction, offender, service, permit_number, \
             plate, committed_at, place, description, inspector, status, proposal, notify_by, points_offender, \
             points_holder, holder, issued_on) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'issued', $14, $15, $16, $17, $18, $19)",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(&rulebook.id)
        .bind(input.infraction.trim())
        .bind(&offender)
        .bind(input.permit.as_ref().map(|p| p.0.clone()))
        .bind(input.permit.as_ref().map(|p| p.1))
        .bind(plate.clone())
        .bind(input.committed_at.format("%Y-%m-%dT%H:%M:%S").to_string())
        .bind(input.place.trim())
        .bind(input.description.trim())
        .bind(change.by)
        .bind(serde_json::to_string(&proposal).map_err(|e| StoreError::Corrupt(e.to_string()))?)
        .bind(notify.as_ref().map(|(d, _)| d.to_string()))
        .bind(points_of(&offender))
        .bind(holder.as_deref().map_or("0".to_string(), points_of))
        .bind(holder.clone())
        .bind(issued_on.to_string())
        .execute(&mut *tx)
        .await?;
        let mut cited = proposal.articles.clone();
        cited.extend(notify.iter().map(|(_, a)| a.clone()));
        auto_step(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            (year, number),
            ("issued", issued_on),
            (input.description.trim(), &cited),
        )
        .await?;
        let auto = Auto {
            year,
            number,
            rulebook: rulebook.id.clone(),
            infraction: input.infraction.trim().to_string(),
            offender,
            permit: input.permit.clone(),
            plate,
            committed_at: input.committed_at,
            place: input.place.trim().to_string(),
            description: input.description.trim().to_string(),
            inspector: change.by.to_string(),
            status: Status::Issued,
            proposal,
            notify_by: notify.map(|(d, _)| d),
            notified_on: None,
            defense_by: None,
            defense_on: None,
            judged_on: None,
            appeal_by: None,
            appealed_on: None,
            final_on: None,
            issued_on: Some(issued_on),
            uncured: false,
            cure_by: None,
            decision_notified_on: None,
            instance: 0,
            decision: None,
            released_on: None,
        };
        // What the law applies on the spot is in force from the auto on.
        for measure in auto
            .proposal
            .sanctions
            .iter()
            .filter(|s| s.at_once.is_some())
        {
            crate::process::apply(
                &mut tx,
                (&self.audit, &ctx),
                change,
                jurisdiction,
                &auto,
                measure,
                issued_on,
            )
            .await?;
        }
        tx.commit().await?;
        Ok(auto)
    }

    /// An auto by number and year.
    pub async fn auto(
        &self,
        jurisdiction: &str,
        (year, number): (i32, i64),
    ) -> Result<Auto, StoreError> {
        let mut tx = self.pool.begin().await?;
        let auto = read_auto(&mut tx, jurisdiction, (year, number)).await?;
        tx.commit().await?;
        Ok(auto)
    }

    /// A page of the autos of a jurisdiction that `filter` admits, the
    /// latest infraction first.
    pub async fn autos(
        &self,
        jurisdiction: &str,
        filter: &AutoFilter,
        window: Window<'_>,
    ) -> Result<Page<Auto>, StoreError> {
        let offender = filter
            .offender
            .as_deref()
            .map(|d| renamed("autuado", crate::parse_document(d)))
            .transpose()?
            .map(|(d, _)| text(d));
        let plate = filter
            .plate
            .as_deref()
            .map(|p| renamed("placa", crate::parse_plate(p)))
            .transpose()?
            .map(text);
        let status = filter
            .status
            .as_deref()
            .map(|s| one_of("situacao", s, STATUSES))
            .transpose()?;
        let (from, to) = day_range(filter.from, filter.to)?;
        let infraction = filter.infraction.as_deref().map(|i| text(i.trim()));
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .ranked(
                false,
                &[
                    ("offender", offender),
                    ("plate", plate),
                    ("infraction", infraction),
                    ("status", status),
                ],
            )
            .when("committed_at >= $?", from)
            .when("committed_at < $?", to);
        listing::page(&self.pool, &AUTOS, &rows, window, auto_of).await
    }
}

/// What staff search autos by; `None` admits any.
#[derive(Debug, Clone, Default)]
pub struct AutoFilter {
    /// CPF or CNPJ of the offender.
    pub offender: Option<String>,
    pub plate: Option<String>,
    /// issued, notified, archived, judged, appealed, final or annulled.
    pub status: Option<String>,
    /// The infraction's code in the rulebook.
    pub infraction: Option<String>,
    /// Committed on or after this day.
    pub from: Option<NaiveDate>,
    /// Committed on or before this day.
    pub to: Option<NaiveDate>,
}

/// The statuses of an auto.
const STATUSES: &[&str] = Status::NAMES;

/// Autos, the latest infraction first (the moment, then the number): each
/// filter has an index ending in this order (migration 0021).
const AUTOS: List = List {
    name: "autos",
    table: "autos",
    columns: COLUMNS,
    key: &[
        ("committed_at", Kind::Text),
        ("year", Kind::Int),
        ("number", Kind::Int),
    ],
    descending: true,
};

/// Whether a proposal was decided in an administrative process (its fines
/// may not be split where the law says so).
pub(crate) fn from_process(proposal: &Proposal) -> bool {
    proposal
        .sanctions
        .iter()
        .any(|s| s.kind == SanctionKind::AdministrativeProcess.name())
}
